#!/bin/sh
# nbsim's wrong-path model, unit-tested natively (sim/tests/t_wpath.c).
exec "$NBSIM_TESTBIN/t_wpath"
