#!/bin/bash
# lockstep.sh - the bench's "lockstep" section (make bench; not a test):
# what running two threads in simulated time costs (docs/threads.md
# "Lockstep"), for issue 34's goal of at most 10% on a 2-thread program.
#
# Per program (Debian's sort -n, which sorts with 2 threads when it sees
# 2 CPUs, and tp_omp, OpenMP with 2 threads), --ht=yes, paired
# interleaved rounds, CPU seconds (user + system, cputime -m):
#   ls      nbsim --ht=yes (the lockstep: the default)
#   free    nbsim --ht=yes --nbsim-lockstep=no (valgrind's order)
#   ls4     nb_stat --ht=yes, the four presets
#   free4   the same with --nbsim-lockstep=no
# and prints each configuration's median, then the medians over the
# rounds of each round's ratio with the smallest and largest ratio, and
# the turns one run takes (--nbsim-stats: each turn is a host thread
# switch).  Without the lockstep the counts follow the host's scheduling;
# the pair measures what determinism costs.
#
#   CPUTIME=build/sim/bench/cputime NBSIM=build/sim/nbsim \
#   NB_STAT=build/utils/nb_stat TPBIN=build/sim/bench sim/bench/lockstep.sh
# REPS (default 5) rounds; PROGRAMS (default "sort omp").
set -u
: "${CPUTIME:?}" "${NBSIM:?}" "${NB_STAT:?}" "${TPBIN:?}"
REPS=${REPS:-5}
PROGRAMS=${PROGRAMS:-"sort omp"}
. "$(dirname "$0")/tp_inputs.sh"
tp_setup

CONFIGS=(ls free ls4 free4)
run_config() {
	case $1 in
	ls)    env "${ENVV[@]}" "$CPUTIME" -m "$NBSIM" --ht=yes -- "${CMD[@]}" ;;
	free)  env "${ENVV[@]}" "$CPUTIME" -m "$NBSIM" --ht=yes --nbsim-lockstep=no -- "${CMD[@]}" ;;
	ls4)   env "${ENVV[@]}" NBSIM="$NBSIM" "$CPUTIME" -m "$NB_STAT" --ht=yes -x, -o "$TMP/st" \
			-e $TP_FOUR -- "${CMD[@]}" ;;
	free4) env "${ENVV[@]}" NBSIM="$NBSIM" VALGRIND_OPTS=--nbsim-lockstep=no "$CPUTIME" -m \
			"$NB_STAT" --ht=yes -x, -o "$TMP/st" -e $TP_FOUR -- "${CMD[@]}" ;;
	esac
}
# one run: its CPU microseconds, or 0 (and why) if it failed
once() {
	local r
	if ! run_config "$1" 2>"$TMP/err" >"$TMP/out"; then
		echo "FAILED: $1 ${CMD[*]}" >&2; tail -3 "$TMP/err" >&2; echo 0; return
	fi
	r=$(grep -a -E '^[0-9]+ [0-9]+$' "$TMP/out" | tail -1)
	case $r in
	*[0-9]" "[0-9]*) echo "${r%% *}" ;;
	*) echo "FAILED: $1 ${CMD[*]}" >&2; tail -3 "$TMP/err" >&2; echo 0 ;;
	esac
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "lockstep (--ht=yes): $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg), $REPS paired interleaved rounds, medians, CPU seconds; ratio: median (min-max)"
printf '%-6s %7s %7s %7s %7s | %-20s %-20s %7s\n' program "${CONFIGS[@]}" "ls/free (<=1.10)" "ls4/free4 (<=1.10)" turns
for p in $PROGRAMS; do
	program "$p"
	if [ ! -x "${CMD[0]}" ]; then
		echo "$p: no ${CMD[0]}, skipped"; continue
	fi
	declare -A t=()
	for ((r = 0; r < REPS; r++)); do
		for c in "${CONFIGS[@]}"; do
			t[$c,$r]=$(once "$c")
		done
	done
	med() { for ((r = 0; r < REPS; r++)); do echo "${t[$1,$r]}"; done | median; }
	rat() {
		for ((r = 0; r < REPS; r++)); do
			awk -v a="${t[$1,$r]}" -v b="${t[$2,$r]}" 'BEGIN { if (a > 0 && b > 0) print a / b }'
		done | sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "-"; exit }
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%.3f (%.3f-%.3f)", m, v[1], v[NR] }'
	}
	turns=$(env "${ENVV[@]}" "$NBSIM" --ht=yes --nbsim-stats=yes -- "${CMD[@]}" 2>&1 >/dev/null |
		sed -n 's/.*lockstep: [0-9]* holds, \([0-9]*\) turns passed.*/\1/p' | head -1)
	printf '%-6s' "$p"
	for c in "${CONFIGS[@]}"; do printf ' %7.2f' "$(med "$c" | awk '{ print $1 / 1e6 }')"; done
	printf ' | %-20s %-20s %7s\n' "$(rat ls free)" "$(rat ls4 free4)" "${turns:--}"
	unset t
done
