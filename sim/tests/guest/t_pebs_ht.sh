#!/bin/sh
# t_pebs_ht.sh - run the t_pebs guest (TAP) under nbsim --ht=yes: PEBS and
# the logical processors (IA32_PEBS_ENABLE bits 25/26, per-LP IA32_DS_AREA).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --model=prescott --ht=yes -- "$NBSIM_TESTBIN/t_pebs" ht
