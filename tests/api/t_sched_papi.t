#!/bin/sh
# The scheduler through the PAPI API under nbsim (ctests/sched_papi.c).
exec "$NBSIM" -- "$NB_BUILD/tests/sched_papi"
