#!/bin/sh
# t_fpassist.sh - run the t_fpassist guest (TAP) under nbsim.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" -- "$NBSIM_TESTBIN/t_fpassist"
