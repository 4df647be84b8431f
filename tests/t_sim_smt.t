#!/bin/sh
# nbsim's Hyper-Threading share of the timing model, unit-tested natively
# (sim/tests/t_smt.c).
exec "$NBSIM_TESTBIN/t_smt"
