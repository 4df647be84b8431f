#!/bin/sh
# t_timing.sh - the timing model's latency, throughput, Sprunt and
# event-set checks (t_timing.c, TAP) on Northwood and Prescott, as one TAP
# stream.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
"$NBSIM" --model=northwood -- "$NBSIM_TESTBIN/t_timing" northwood > "$tmp/northwood" || rc=1
"$NBSIM" --model=prescott -- "$NBSIM_TESTBIN/t_timing" prescott > "$tmp/prescott" || rc=1
n1=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tmp/northwood")
n2=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tmp/prescott")
echo "1..$((${n1:-0} + ${n2:-0}))"
for m in northwood prescott; do
	grep -v '^1\.\.' "$tmp/$m" | sed "s/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 - $m: /"
done
exit $rc
