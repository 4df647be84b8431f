#!/bin/sh
# t_busev_xeonmp.sh - run the t_busev guest (TAP) under nbsim on the Xeon MP
# (an L3).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --model=xeonmp -- "$NBSIM_TESTBIN/t_busev"
