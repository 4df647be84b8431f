#!/bin/sh
# nbsim's PMU register model, unit-tested natively (sim/tests/t_pmu.c).
exec "$NBSIM_TESTBIN/t_pmu"
