#!/bin/sh
# t_smt_lock.sh - two threads released by a barrier under nbsim
# --model=northwood --ht=yes (t_smt_lock.c, TAP): once with LD_BIND_NOW
# unset (its figures kept in a file), then with it set, checking both
# runs' figures and comparing them.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
f=$(mktemp "${TMPDIR:-/tmp}/t_smt_lock.XXXXXX") || exit 1
trap 'rm -f "$f"' EXIT
env -u LD_BIND_NOW "$NBSIM" --model=northwood --ht=yes -- "$NBSIM_TESTBIN/t_smt_lock" "$f" >/dev/null
LD_BIND_NOW=1 "$NBSIM" --model=northwood --ht=yes -- "$NBSIM_TESTBIN/t_smt_lock" "$f"
