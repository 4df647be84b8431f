#!/bin/sh
# t_step.sh - step mode's counts (t_step.c, TAP) on Northwood and
# Prescott, under the model's clock (--nbsim-clock=model, every run
# walked): t_step's own checks (per-cycle identities), then the same
# output with --nbsim-step-derive=cycle (the raw counts folded at every
# retirement cycle, as the tool did before the lazy folding: the
# reference) as with the default lazy folding; then t_step's own checks under the default, sampled clock
# (a skipped run's uops get retirement cycles spread over its charge:
# the identities must hold there too), as one TAP stream.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for m in northwood prescott; do
	"$NBSIM" --model=$m --nbsim-clock=model -- "$NBSIM_TESTBIN/t_step" > "$tmp/$m" 2>"$tmp/$m.err"
	"$NBSIM" --model=$m --nbsim-clock=model --nbsim-step-derive=cycle -- "$NBSIM_TESTBIN/t_step" \
		> "$tmp/$m-cycle" 2>"$tmp/$m-cycle.err"
	"$NBSIM" --model=$m -- "$NBSIM_TESTBIN/t_step" > "$tmp/$m-sampled" 2>"$tmp/$m-sampled.err"
done
n=0
for m in northwood prescott; do
	k=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tmp/$m")
	k2=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tmp/$m-sampled")
	n=$((n + ${k:-1} + 1 + ${k2:-1}))
done
echo "1..$n"
t=0
for m in northwood prescott; do
	if ! grep -q '^1\.\.' "$tmp/$m"; then
		t=$((t + 1)); echo "not ok $t - $m: t_step ran"; sed 's/^/# /' "$tmp/$m.err"
	fi
	grep '^\(not \)\{0,1\}ok ' "$tmp/$m" | while read -r line; do
		echo "$line" | sed "s/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 - $m: /"
	done
	t=$((t + $(grep -c '^\(not \)\{0,1\}ok ' "$tmp/$m")))
	if cmp -s "$tmp/$m" "$tmp/$m-cycle" && [ -s "$tmp/$m" ]; then
		echo "ok - $m: --nbsim-step-derive=cycle gives the same counts"
	else
		echo "not ok - $m: --nbsim-step-derive=cycle gives the same counts"
		diff "$tmp/$m" "$tmp/$m-cycle" | sed 's/^/# /'
	fi
	if ! grep -q '^1\.\.' "$tmp/$m-sampled"; then
		echo "not ok - $m: t_step ran under the sampled clock"; sed 's/^/# /' "$tmp/$m-sampled.err"
	fi
	grep '^\(not \)\{0,1\}ok ' "$tmp/$m-sampled" | while read -r line; do
		echo "$line" | sed "s/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 - $m, sampled clock: /"
	done
done
