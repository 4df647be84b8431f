#!/bin/sh
# t_timing.sh - the timing model's latency, throughput, Sprunt and
# event-set checks (t_timing.c, TAP) on Northwood and Prescott, and on
# Northwood again with --nbsim-stats=yes (statistics must change no count:
# they once dropped the event set's needs and cycles read 0), all with
# the model's clock (--nbsim-clock=model: every run walked), as one TAP
# stream; then both models again with --nbsim-clock=walk (the model
# without the replay of recorded schedules, nb_tmmemo.c): every line,
# every figure in it, must be the same as with the replay; and both models
# with the default, sampled clock (`t_timing M sampled WALK`): the same
# checks, the mixed kernel's first measurement within 4% of WALK, the
# model run's figure.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
"$NBSIM" --model=northwood --nbsim-clock=model -- "$NBSIM_TESTBIN/t_timing" northwood \
	> "$tmp/northwood" || rc=1
"$NBSIM" --model=prescott --nbsim-clock=model -- "$NBSIM_TESTBIN/t_timing" prescott \
	> "$tmp/prescott" || rc=1
"$NBSIM" --model=northwood --nbsim-clock=model --nbsim-stats=yes -- "$NBSIM_TESTBIN/t_timing" northwood \
	> "$tmp/northwood-stats" 2>/dev/null || rc=1
for m in northwood prescott; do
	"$NBSIM" --model=$m --nbsim-clock=walk -- "$NBSIM_TESTBIN/t_timing" $m > "$tmp/$m-walk" || rc=1
	base=$(sed -n 's/^# mixed kernel: \([0-9]*\) cycles.*/\1/p' "$tmp/$m")
	"$NBSIM" --model=$m -- "$NBSIM_TESTBIN/t_timing" $m sampled \
		"${base:-0}" > "$tmp/$m-sampled" || rc=1
done
n=2
for m in northwood prescott northwood-stats northwood-sampled prescott-sampled; do
	k=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tmp/$m")
	n=$((n + ${k:-0}))
done
echo "1..$n"
for m in northwood prescott northwood-stats northwood-sampled prescott-sampled; do
	grep -v '^1\.\.' "$tmp/$m" | sed "s/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 - $m: /"
done
for m in northwood prescott; do
	if [ -s "$tmp/$m" ] && cmp -s "$tmp/$m" "$tmp/$m-walk"; then
		echo "ok - $m: the walk (--nbsim-clock=walk) gives every figure the replay gives"
	else
		echo "not ok - $m: the walk (--nbsim-clock=walk) and the replay differ:"
		diff "$tmp/$m" "$tmp/$m-walk" | sed 's/^/# /' | head -20
	fi
done
exit $rc
