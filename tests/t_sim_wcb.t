#!/bin/sh
# Write-combining buffer model, native unit test (sim/tests/t_wcb.c).
exec "$NBSIM_TESTBIN/t_wcb"
