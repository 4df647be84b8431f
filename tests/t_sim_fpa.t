#!/bin/sh
# The FP assist rules, unit-tested natively (sim/tests/t_fpa.c).
exec "$NBSIM_TESTBIN/t_fpa"
