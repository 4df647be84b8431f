#!/bin/sh
# nbsim's branch model, unit-tested natively on synthetic streams (sim/tests/t_bpred.c).
exec "$NBSIM_TESTBIN/t_bpred"
