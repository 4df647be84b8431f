#!/bin/bash
# record.sh - what profiling costs (make bench; not a test): nb_record
# against nb_stat counting the same event on the same program, and
# nb_report's time on a large profile.
#
# Per program (Debian's sort and gzip, python3; the inputs of
# sim/bench/thirdparty.sh; omp: sim/bench/tp_omp's two threads with
# --ht=yes for every command, when TPBIN has it), CPU seconds of PROGRAM's whole run (nbsim's
# process and its children: sim/bench/cputime.c), the median of REPS
# (default 3) paired, interleaved rounds (sim/bench/cputime.c -m):
#   stat    nb_stat -e EVENT                  (counting)
#   rec     nb_record -e EVENT                (IEBS at the default period)
#   recg    nb_record -g -e EVENT             (with the callers)
#   pebs    nb_record --precise -e METRIC     (PEBS: the L1D-miss metric)
#   pstat   nb_stat -e METRIC                 (counting the metric)
# Goals (issue 30): rec/stat <= 1.2, recg/stat <= 1.5, pebs/pstat <= 1.2;
# nb_report (--stdio, --folded, --callgrind, --html) on a 100,000-sample
# profile: under 2 s.
#
#   CPUTIME=build/sim/bench/cputime NBSIM=build/sim/nbsim \
#   NB_STAT=build/utils/nb_stat NB_RECORD=build/utils/nb_record \
#   NB_REPORT=build/utils/nb_report TPBIN=build/sim/bench bench/record.sh
set -u
: "${CPUTIME:?}" "${NBSIM:?}" "${NB_STAT:?}" "${NB_RECORD:?}" "${NB_REPORT:?}"
export NBSIM
REPS=${REPS:-3}
TPBIN=${TPBIN:-}
if [ -z "${PROGRAMS:-}" ]; then
	PROGRAMS="sort gzip python3"
	[ -n "$TPBIN" ] && [ -x "$TPBIN/tp_omp" ] && PROGRAMS="$PROGRAMS omp"
fi
EVENT=${EVENT:-PAPI_TOT_CYC}
METRIC=${METRIC:-1stL_cache_load_miss_retired}
. "$(dirname "$0")/../sim/bench/tp_inputs.sh"
tp_setup

# with_ht NAME: CMD, the program's command with its environment; HT, the
# tools' options for it (omp: two
# threads on the two logical processors, where nb_record costs most:
# the tenth session's 3.7x nb_stat for PAPI_TOT_CYC)
with_ht() {
	HT=()
	program "$1"
	[ ${#ENVV[@]} -eq 0 ] || CMD=(env "${ENVV[@]}" "${CMD[@]}")
	[ "$1" != omp ] || HT=(--ht=yes)
}

CONFIGS=(stat rec recg pstat pebs)
run_config() {
	case $1 in
	stat)  "$CPUTIME" -m "$NB_STAT" "${HT[@]}" -x, -o "$TMP/st" -e "$EVENT" -- "${CMD[@]}" ;;
	rec)   "$CPUTIME" -m "$NB_RECORD" "${HT[@]}" -o "$TMP/p" -e "$EVENT" -- "${CMD[@]}" ;;
	recg)  "$CPUTIME" -m "$NB_RECORD" "${HT[@]}" -g -o "$TMP/p" -e "$EVENT" -- "${CMD[@]}" ;;
	pstat) "$CPUTIME" -m "$NB_STAT" "${HT[@]}" -x, -o "$TMP/st" -e "$METRIC" -- "${CMD[@]}" ;;
	pebs)  "$CPUTIME" -m "$NB_RECORD" "${HT[@]}" --precise -o "$TMP/p" -e "$METRIC" -- "${CMD[@]}" ;;
	esac
}
# one run: its CPU microseconds, or 0 (and why) if it failed
once() {
	local r
	if ! run_config "$1" 2>"$TMP/err" >"$TMP/out"; then
		echo "FAILED: $1 ${CMD[*]}" >&2; tail -3 "$TMP/err" >&2; echo 0; return
	fi
	r=$(grep -a -E '^[0-9]+ [0-9]+$' "$TMP/out" | tail -1 | cut -d' ' -f1)
	[ -n "$r" ] && echo "$r" || { echo "FAILED: $1 ${CMD[*]}" >&2; echo 0; }
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }
secs() { awk -v u="$1" 'BEGIN { printf "%.2f", u / 1e6 }'; }

echo "profiling: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $REPS paired interleaved rounds, medians, CPU seconds; event $EVENT, metric $METRIC"
printf '%-8s %7s %7s %7s %7s %7s | %9s %9s %10s\n' program stat rec recg pstat pebs rec/stat recg/stat pebs/pstat
printf '%-8s %7s %7s %7s %7s %7s | %9s %9s %10s\n' goal '' '' '' '' '' '<= 1.2' '<= 1.5' '<= 1.2'
for p in $PROGRAMS; do
	with_ht "$p"
	declare -A t=()
	for ((r = 0; r < REPS; r++)); do
		for c in "${CONFIGS[@]}"; do
			t[$c]="${t[$c]:-} $(once "$c")"
		done
	done
	declare -A m=()
	for c in "${CONFIGS[@]}"; do m[$c]=$(echo "${t[$c]}" | tr ' ' '\n' | grep . | median); done
	printf '%-8s %7s %7s %7s %7s %7s | %9s %9s %10s\n' "$p" "$(secs "${m[stat]}")" "$(secs "${m[rec]}")" \
		"$(secs "${m[recg]}")" "$(secs "${m[pstat]}")" "$(secs "${m[pebs]}")" \
		"$(ratio "${m[rec]}" "${m[stat]}")" "$(ratio "${m[recg]}" "${m[stat]}")" \
		"$(ratio "${m[pebs]}" "${m[pstat]}")"
	unset t m
done

# nb_report on a large profile: python3 sampled every 8,209 instructions
# with its callers (about 103,000 samples); each view's CPU seconds, the
# median of REPS runs (--html writes its page and copies the libraries
# beside it)
with_ht python3
"$NB_RECORD" -g -c 8209 -o "$TMP/big" -e PAPI_TOT_INS -- "${CMD[@]}" >/dev/null 2>"$TMP/err" ||
	{ echo "FAILED: the large profile" >&2; tail -3 "$TMP/err" >&2; exit 0; }
n=$(grep -c '^sample' "$TMP/big" || true)
for k in stdio folded callgrind html; do
	a=(--$k)
	[ "$k" = html ] && a=(--html="$TMP/html")
	u=$(for ((r = 0; r < REPS; r++)); do
		"$CPUTIME" -m "$NB_REPORT" -i "$TMP/big" "${a[@]}" 2>/dev/null | grep -a -E '^[0-9]+ [0-9]+$' |
			tail -1 | cut -d' ' -f1
	done | median)
	echo "nb_report --$k on $n samples: $(secs "$u") s CPU (goal: under 2 s)"
done
