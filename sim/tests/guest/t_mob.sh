#!/bin/sh
# t_mob.sh - run the t_mob guest (TAP) under nbsim on Northwood.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --model=northwood -- "$NBSIM_TESTBIN/t_mob"
