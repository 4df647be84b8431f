#!/bin/sh
# t_timing.sh - the timing model's latency, throughput and Sprunt checks
# (t_timing.c, TAP) on Northwood and Prescott.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
"$NBSIM" --model=northwood -- "$NBSIM_TESTBIN/t_timing" northwood > t_timing.nw.$$ || rc=1
"$NBSIM" --model=prescott -- "$NBSIM_TESTBIN/t_timing" prescott > t_timing.pr.$$ || rc=1
# one TAP stream: the two plans added
n1=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' t_timing.nw.$$)
n2=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' t_timing.pr.$$)
echo "1..$((n1 + n2))"
i=0
for f in t_timing.nw.$$ t_timing.pr.$$; do
	m=northwood; [ "$f" = t_timing.pr.$$ ] && m=prescott
	grep -v '^1\.\.' "$f" | while IFS= read -r line; do
		case "$line" in
		"ok "*|"not ok "*)
			echo "$line" | sed "s/^\(\(not \)\{0,1\}ok\) [0-9]*/\1 - $m:/" ;;
		*) echo "$line" ;;
		esac
	done
done
rm -f t_timing.nw.$$ t_timing.pr.$$
exit ${rc:-0}
