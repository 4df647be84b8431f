#!/bin/sh
# DS save area and PEBS record formats, unit-tested natively (sim/tests/t_ds.c).
exec "$NBSIM_TESTBIN/t_ds"
