#!/bin/sh
# nbsim's timing model, unit-tested natively (sim/tests/t_tmunit.c).
exec "$NBSIM_TESTBIN/t_tmunit"
