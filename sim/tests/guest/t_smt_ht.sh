#!/bin/sh
# t_smt_ht.sh - Sprunt's fp_add_latency and l1_miss in one and two threads
# under nbsim --model=northwood --ht=yes (t_smt_ht.c, TAP).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
exec "$NBSIM" --model=northwood --ht=yes -- "$NBSIM_TESTBIN/t_smt_ht"
