#!/bin/sh
# t_pebs.sh - run the t_pebs guest (TAP) under nbsim: PEBS (Prescott: 64-bit DS format).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --model=prescott -- "$NBSIM_TESTBIN/t_pebs"
