#!/bin/sh
# t_iebs.sh - run the t_iebs guest (TAP) under nbsim on Northwood: IEBS
# skid and PEBS on Sprunt's nested loop (seed 000).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --model=northwood -- "$NBSIM_TESTBIN/t_iebs"
