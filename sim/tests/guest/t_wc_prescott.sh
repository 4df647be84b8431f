#!/bin/sh
# t_wc_prescott.sh - run the t_wc guest (TAP) under nbsim on Prescott (8 WC buffers).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --model=prescott -- "$NBSIM_TESTBIN/t_wc"
