#!/bin/bash
# run.sh - nbsim speed benchmark (make -C sim bench).  Not a test.
#
# For each workload of bench.c (dense loop nest, branchy integer code,
# pointer chasing) runs, in one go: native, valgrind --tool=none,
# valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes, and nbsim with
# 0, 2 and 4 counters programmed, with 2 counters plus
# --nbsim-mem-timing=yes (cycles run the cache model: "nb2m"), and F: one
# filtering counter (per-cycle step mode); prints wall-clock seconds (best
# of $REPS runs, default 3) and the ratios nbsim/none and nbsim/cachegrind.
# Goals (issue 5): nbsim with no counter <= 1.3 x none; with 4 counters
# <= 1.0 x cachegrind.
#
#   BENCH=build/sim/bench/bench NBSIM=build/sim/nbsim sim/bench/run.sh
set -u
: "${BENCH:?set BENCH to the bench binary}"
: "${NBSIM:?set NBSIM to the nbsim launcher}"
VALGRIND=${VALGRIND:-valgrind}
REPS=${REPS:-3}
WORKLOADS=${WORKLOADS:-"loops branchy chase"}
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

# best time of $REPS runs of "$@", in seconds (3 decimals): CPU time (user
# + system of the run and its children), or wall-clock time with
# CLOCK=wall.  CPU time is the default: on a shared machine the wall-clock
# time of one configuration depends on what else runs at that moment.
CLOCK=${CLOCK:-cpu}
best() {
	local b="" t s e u y
	for ((r = 0; r < REPS; r++)); do
		s=$(date +%s%N)
		/usr/bin/time -f '%U %S' -o "$TMP/time" "$@" >"$TMP/out" 2>"$TMP/err" ||
			{ echo "FAILED: $*" >&2; cat "$TMP/err" >&2; echo 0; return; }
		e=$(date +%s%N)
		if [ "$CLOCK" = wall ]; then
			t=$(( (e - s) / 1000000 ))
		else
			read -r u y < <(tail -1 "$TMP/time")
			t=$(awk -v u="$u" -v y="$y" 'BEGIN { printf "%d", (u + y) * 1000 + 0.5 }')
		fi
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	printf '%d.%03d\n' $((b / 1000)) $((b % 1000))
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

echo "nbsim bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) CPUs, $($VALGRIND --version), best of $REPS, $CLOCK seconds"
printf '%-8s %7s %7s %7s %7s %7s %7s %7s %7s | %9s %9s %9s %9s %9s\n' workload native none cg nbsim0 nbsim2 nb2m nbsim4 \
	nbsimF "nb0/none" "nb2/none" "nb2m/none" "nb4/cg" "nbF/none"
for w in $WORKLOADS; do
	tn=$(best "$BENCH" "$w" 0)
	tv=$(best "$VALGRIND" -q --tool=none "$BENCH" "$w" 0)
	tc=$(best "$VALGRIND" -q --tool=cachegrind --cache-sim=yes --branch-sim=yes \
		--cachegrind-out-file=/dev/null "$BENCH" "$w" 0)
	t0=$(best "$NBSIM" -- "$BENCH" "$w" 0)
	t2=$(best "$NBSIM" -- "$BENCH" "$w" 2)
	t2m=$(best "$NBSIM" --nbsim-mem-timing=yes -- "$BENCH" "$w" 2)
	t4=$(best "$NBSIM" -- "$BENCH" "$w" 4)
	tf=$(best "$NBSIM" -- "$BENCH" "$w" 1)
	printf '%-8s %7s %7s %7s %7s %7s %7s %7s %7s | %9s %9s %9s %9s %9s\n' "$w" "$tn" "$tv" "$tc" "$t0" "$t2" "$t2m" "$t4" \
		"$tf" "$(ratio "$t0" "$tv")" "$(ratio "$t2" "$tv")" "$(ratio "$t2m" "$tv")" "$(ratio "$t4" "$tc")" "$(ratio "$tf" "$tv")"
done
