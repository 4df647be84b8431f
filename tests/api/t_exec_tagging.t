#!/bin/sh
# libpfm4's execution-tagging idiom (x87_FP_uop:ALL:TAG1 with
# execution_event:NBOGUS1) through the PAPI API under nbsim: exact counts by
# the difference method and the clashes refused (ctests/exec_tagging.c).
exec "$NBSIM" -- "$NB_BUILD/tests/exec_tagging"
