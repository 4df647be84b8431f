#!/bin/bash
# thirdparty.sh - the bench's "third-party programs" section (make bench;
# not a test): nb_stat on programs it did not write (Debian's sort, gzip,
# python3, awk; PAPI's ctest loops; an OpenMP program with 2 threads; a
# Fortran program), against valgrind's own tools, for the goals of issue 29.
#
# Per program, paired interleaved rounds (each round runs every
# configuration once, in turn, so a slow spell of a shared host hits them
# alike), CPU seconds (user + system of the run and its children, from
# cputime -m, which also gives the peak RSS):
#   none   valgrind --tool=none
#   cg     valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes
#   nb0    nbsim, no counter, the host's time (the idle PMU; the default,
#          simulated time, runs the timing model: run.sh's nb0t)
#   ins    nb_stat -e PAPI_TOT_INS
#   dcm    nb_stat -e PAPI_TOT_INS,PAPI_L1_DCM
#   brm    nb_stat -e PAPI_TOT_INS,PAPI_BR_MSP
#   cyc    nb_stat -e PAPI_TOT_CYC,PAPI_TOT_INS
#   four   nb_stat -e PAPI_TOT_CYC,PAPI_TOT_INS,PAPI_L1_DCM,PAPI_BR_MSP
#   fourht the same with --ht=yes
# and prints each
# configuration's median time, then the medians over the rounds of each
# round's ratio, beside the goal:
#   four/cg, fourht/cg, cyc/cg <= 1.0; ins/none <= 1.3; nb0/none <= 1.1;
#   peak memory of four <= cg's.
# The decomposition (ins, dcm, brm over none) shows what each part costs.
#
#   CPUTIME=build/sim/bench/cputime NBSIM=build/sim/nbsim \
#   NB_STAT=build/utils/nb_stat TPBIN=build/sim/bench sim/bench/thirdparty.sh
# (TPBIN: tp_omp, tp_fort and tp_ctest, PAPI's ctest burn with a fixed
# amount of work, which the top-level Makefile builds)
# REPS (default 3) rounds; PROGRAMS (default all) chooses programs; SKIP
# leaves configurations out (e.g. SKIP=fourht).
set -u
: "${CPUTIME:?}" "${NBSIM:?}" "${NB_STAT:?}" "${TPBIN:?}"
VALGRIND=${VALGRIND:-valgrind}
REPS=${REPS:-3}
PROGRAMS=${PROGRAMS:-"sort gzip python3 awk ctest omp fortran"}
SKIP=${SKIP:-}
# inputs (deterministic, a few seconds of cachegrind each); program NAME
# sets the command line CMD and its environment ENVV
. "$(dirname "$0")/tp_inputs.sh"
tp_setup
FOUR=$TP_FOUR
CONFIGS=(none cg nb0 ins dcm brm cyc four fourht)
run_config() {
	local c=$1
	case $c in
	none)   env "${ENVV[@]}" "$CPUTIME" -m "$VALGRIND" -q --tool=none "${CMD[@]}" ;;
	cg)     env "${ENVV[@]}" "$CPUTIME" -m "$VALGRIND" -q --tool=cachegrind --cache-sim=yes \
			--branch-sim=yes --cachegrind-out-file=/dev/null "${CMD[@]}" ;;
	nb0)    env "${ENVV[@]}" "$CPUTIME" -m "$NBSIM" --nbsim-time=host -- "${CMD[@]}" ;;
	ins)    env "${ENVV[@]}" NBSIM="$NBSIM" "$CPUTIME" -m "$NB_STAT" -x, -o "$TMP/st" -e PAPI_TOT_INS -- "${CMD[@]}" ;;
	dcm)    env "${ENVV[@]}" NBSIM="$NBSIM" "$CPUTIME" -m "$NB_STAT" -x, -o "$TMP/st" -e PAPI_TOT_INS,PAPI_L1_DCM -- "${CMD[@]}" ;;
	brm)    env "${ENVV[@]}" NBSIM="$NBSIM" "$CPUTIME" -m "$NB_STAT" -x, -o "$TMP/st" -e PAPI_TOT_INS,PAPI_BR_MSP -- "${CMD[@]}" ;;
	cyc)    env "${ENVV[@]}" NBSIM="$NBSIM" "$CPUTIME" -m "$NB_STAT" -x, -o "$TMP/st" -e PAPI_TOT_CYC,PAPI_TOT_INS -- "${CMD[@]}" ;;
	four)   env "${ENVV[@]}" NBSIM="$NBSIM" "$CPUTIME" -m "$NB_STAT" -x, -o "$TMP/st" -e $FOUR -- "${CMD[@]}" ;;
	fourht) env "${ENVV[@]}" NBSIM="$NBSIM" "$CPUTIME" -m "$NB_STAT" --ht=yes -x, -o "$TMP/st" -e $FOUR -- "${CMD[@]}" ;;
	esac
}
# one run: "microseconds KB", or "0 0" (and why) if it failed
once() {
	local r
	if ! run_config "$1" 2>"$TMP/err" >"$TMP/out"; then
		echo "FAILED: $1 ${CMD[*]}" >&2; tail -3 "$TMP/err" >&2; echo "0 0"; return
	fi
	r=$(grep -a -E '^[0-9]+ [0-9]+$' "$TMP/out" | tail -1)
	case $r in
	*[0-9]" "[0-9]*) echo "$r" ;;
	*) echo "FAILED: $1 ${CMD[*]}" >&2; tail -3 "$TMP/err" >&2; echo "0 0" ;;
	esac
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
skipped() { case " $SKIP " in *" $1 "*) return 0 ;; esac; return 1; }

echo "third-party programs: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $REPS paired interleaved rounds, medians, CPU seconds"
printf '%-8s' program
for c in "${CONFIGS[@]}"; do printf ' %6s' "$c"; done
printf ' | %7s %7s %7s %7s %7s %7s %7s %7s %7s\n' four/cg ht/cg cyc/cg ins/none nb0/none \
	dcm/none brm/none mem/cg cyc-dev
printf '%-8s' goal
for c in "${CONFIGS[@]}"; do printf ' %6s' ""; done
printf ' | %7s %7s %7s %7s %7s %7s %7s %7s %7s\n' "<=1.0" "<=1.0" "<=1.0" "<=1.3" "<=1.1" - - "<=1.0" -
for p in $PROGRAMS; do
	program "$p"
	if [ ! -x "${CMD[0]}" ]; then
		echo "$p: no ${CMD[0]}, skipped"; continue
	fi
	declare -A t=() m=()
	for ((r = 0; r < REPS; r++)); do
		for c in "${CONFIGS[@]}"; do
			skipped "$c" && continue
			read -r t[$c,$r] m[$c,$r] < <(once "$c")
		done
	done
	med() { for ((r = 0; r < REPS; r++)); do [ -n "${t[$1,$r]:-}" ] && echo "${t[$1,$r]}"; done | median; }
	# the median over the rounds of each round's ratio a/b
	rat() {
		skipped "$1" && { echo -; return; }
		for ((r = 0; r < REPS; r++)); do
			awk -v a="${t[$1,$r]:-0}" -v b="${t[$2,$r]:-0}" 'BEGIN { if (a > 0 && b > 0) print a / b }'
		done | median | awk '{ printf "%.2f", $1 }'
	}
	memr() {
		for ((r = 0; r < REPS; r++)); do
			awk -v a="${m[$1,$r]:-0}" -v b="${m[$2,$r]:-0}" 'BEGIN { if (a > 0 && b > 0) print a / b }'
		done | median | awk '{ printf "%.2f", $1 }'
	}
	# the sampled clock's cycles against the model's (one run each:
	# both are deterministic)
	dev=-
	if ! skipped cyc; then
		env "${ENVV[@]}" NBSIM="$NBSIM" "$NB_STAT" -x, -o "$TMP/s1" -e PAPI_TOT_CYC -- "${CMD[@]}" >/dev/null 2>&1
		env "${ENVV[@]}" NBSIM="$NBSIM" "$NB_STAT" --clock=model -x, -o "$TMP/s2" -e PAPI_TOT_CYC -- "${CMD[@]}" >/dev/null 2>&1
		a=$(awk -F, '/PAPI_TOT_CYC/ { print $1; exit }' "$TMP/s1" 2>/dev/null)
		b=$(awk -F, '/PAPI_TOT_CYC/ { print $1; exit }' "$TMP/s2" 2>/dev/null)
		dev=$(awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { if (b > 0) printf "%+.2f%%", 100 * (a - b) / b; else printf "-" }')
	fi
	printf '%-8s' "$p"
	for c in "${CONFIGS[@]}"; do printf ' %6.2f' "$(med "$c" | awk '{ print $1 / 1e6 }')"; done
	printf ' | %7s %7s %7s %7s %7s %7s %7s %7s %7s\n' "$(rat four cg)" "$(rat fourht cg)" \
		"$(rat cyc cg)" "$(rat ins none)" "$(rat nb0 none)" "$(rat dcm none)" "$(rat brm none)" \
		"$(memr four cg)" "$dev"
	unset t m
done
