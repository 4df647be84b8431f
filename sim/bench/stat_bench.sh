#!/bin/bash
# stat_bench.sh - the speed goals of issue 13 (make bench; not a test):
#  (a) the cost of keeping every register update (--nbsim-exact-ir=yes, the
#      default: VEX's optimiser may remove no load): nbsim with the bench's
#      four counters (the four-preset set) against cachegrind, with and
#      without it; goal nb4/cg <= 1.0;
#  (b) nb_stat one-event runs against plain nbsim running the same register
#      images (--nbsim-program) without nb_stat: goal ~1.0.
# CPU seconds, best of $REPS interleaved rounds (default 5).
#
#   BENCH=build/sim/bench/bench CPUTIME=build/sim/bench/cputime \
#   NBSIM=build/sim/nbsim NB_STAT=build/utils/nb_stat sim/bench/stat_bench.sh
set -u
: "${BENCH:?}" "${NBSIM:?}" "${NB_STAT:?}" "${CPUTIME:?}"
VALGRIND=${VALGRIND:-valgrind}
REPS=${REPS:-5}
WORKLOADS=${WORKLOADS:-"loops branchy chase"}
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

once() {
	local u
	u=$("$CPUTIME" "$@" 2>"$TMP/err" | tail -1) && [ -n "$u" ] ||
		{ echo "FAILED: $*" >&2; cat "$TMP/err" >&2; echo 0; return; }
	echo "$u"
}
secs() { printf '%d.%03d' $(($1 / 1000000)) $((($1 / 1000) % 1000)); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

# the register images nb_stat writes for one event (PAPI_TOT_INS on
# CRU_ESCR0, IQ_COUNTER0/IQ_CCCR0: nb_encode PAPI_TOT_INS's values)
printf 'wrmsr 0x3b8 0x%x\nwrmsr 0x36c 0x%x\n' \
	$(( (2 << 25) | (3 << 9) | (1 << 2) )) $(( (1 << 12) | (4 << 13) | (3 << 16) )) >"$TMP/prog"

CONFIGS=(cg nb4 nb4old stat1 prog1)
run_config() {
	local w=$1
	case $2 in
	cg)     once "$VALGRIND" -q --tool=cachegrind --cache-sim=yes --branch-sim=yes \
			--cachegrind-out-file=/dev/null "$BENCH" "$w" 0 ;;
	nb4)    once "$NBSIM" -- "$BENCH" "$w" 4 ;;
	nb4old) once "$NBSIM" --nbsim-exact-ir=no -- "$BENCH" "$w" 4 ;;
	stat1)  once env NBSIM="$NBSIM" "$NB_STAT" -x, -o "$TMP/out" -e PAPI_TOT_INS -- "$BENCH" "$w" 0 ;;
	prog1)  once "$NBSIM" --trace-children=no --nbsim-program="$TMP/prog" \
			--nbsim-counts="$TMP/counts.%p" -- "$BENCH" "$w" 0 ;;
	esac
}

echo "nb_stat bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, best of $REPS interleaved rounds, CPU seconds"
printf '%-8s %7s %7s %7s %7s %7s | %9s %9s %11s %11s\n' workload cg nb4 nb4old stat1 prog1 \
	"nb4/cg" "nb4old/cg" "exact cost" "stat1/prog1"
for w in $WORKLOADS; do
	declare -A best=()
	for ((r = 0; r < REPS; r++)); do
		for c in "${CONFIGS[@]}"; do
			t=$(run_config "$w" "$c")
			if [ -z "${best[$c]:-}" ] || [ "$t" -lt "${best[$c]}" ]; then best[$c]=$t; fi
		done
	done
	printf '%-8s %7s %7s %7s %7s %7s | %9s %9s %11s %11s\n' "$w" "$(secs "${best[cg]}")" \
		"$(secs "${best[nb4]}")" "$(secs "${best[nb4old]}")" "$(secs "${best[stat1]}")" \
		"$(secs "${best[prog1]}")" "$(ratio "${best[nb4]}" "${best[cg]}")" \
		"$(ratio "${best[nb4old]}" "${best[cg]}")" "$(ratio "${best[nb4]}" "${best[nb4old]}")" \
		"$(ratio "${best[stat1]}" "${best[prog1]}")"
	unset best
done
