#!/bin/sh
# t_wc.sh - run the t_wc guest (TAP) under nbsim on Northwood (6 WC buffers).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --model=northwood -- "$NBSIM_TESTBIN/t_wc"
