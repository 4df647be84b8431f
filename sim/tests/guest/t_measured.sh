#!/bin/sh
# t_measured.sh - the timing model against latencies measured on real
# parts (t_measured.c, TAP: InstLatX64's Northwood F29 and Prescott F43
# tables; Willamette F13 and Presler F62 for --model=willamette and
# --model=cedarmill) on the four single-core models, with the model's
# clock (--nbsim-clock=model: every run walked, the reference the sampled
# clock estimates), as one TAP stream.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
for m in northwood prescott willamette cedarmill; do
	"$NBSIM" --model=$m --nbsim-clock=model -- "$NBSIM_TESTBIN/t_measured" $m \
		> "$tmp/$m" || rc=1
done
n=0
for m in northwood prescott willamette cedarmill; do
	k=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tmp/$m")
	n=$((n + ${k:-0}))
done
echo "1..$n"
for m in northwood prescott willamette cedarmill; do
	grep -v '^1\.\.' "$tmp/$m" | sed "s/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 - $m: /"
done
exit $rc
