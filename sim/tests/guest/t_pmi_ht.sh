#!/bin/sh
# t_pmi_ht.sh - run the t_pmi_ht guest (TAP) under nbsim --ht=yes:
# overflow interrupts for logical processor 1 (OVF_PMI_T1).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --ht=yes -- "$NBSIM_TESTBIN/t_pmi_ht"
