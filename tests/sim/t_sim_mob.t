#!/bin/sh
# The store buffer events through PAPI under nbsim (ctests/mem_mob.c): MOB_load_replay_retired, MOB_load_replay, memory_cancel.
exec "$NBSIM" -- "$NB_BUILD/tests/mem_mob"
