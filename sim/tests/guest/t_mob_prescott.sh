#!/bin/sh
# t_mob_prescott.sh - run the t_mob guest (TAP) under nbsim on Prescott.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --model=prescott -- "$NBSIM_TESTBIN/t_mob"
