#!/bin/sh
# t_exact.sh - run the t_exact guest (TAP) under nbsim.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --nbsim-clock=model -- "$NBSIM_TESTBIN/t_exact"
