#!/bin/sh
# t_pmi.sh - run the t_pmi guest (TAP) under nbsim: overflow interrupts.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" -- "$NBSIM_TESTBIN/t_pmi"
