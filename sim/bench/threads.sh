#!/bin/bash
# threads.sh - the cost of per-thread PMU contexts at thread switches
# (make -C sim bench).  Not a test.
#
# bench/threads.c: 4 threads, each yielding 2000 times (about 8000 thread
# switches), with 0, 2 or 4 counters of its own.  CPU seconds (best of
# $REPS interleaved rounds) of valgrind --tool=none, and of nbsim with 0,
# 2, 4 counters, with contexts (the default) and with
# --nbsim-pmu-ctx=cpu (no save/restore: the threads share the
# counters), and their ratios to none.  The difference between the two
# nbsim columns is what the save/restore costs; --nbsim-stats gives the
# number of switches that moved registers.
set -u
: "${THREADS:?set THREADS to the threads bench binary}"
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${CPUTIME:?set CPUTIME to the cputime helper}"
VALGRIND=${VALGRIND:-valgrind}
REPS=${REPS:-5}
once() { "$CPUTIME" "$@" 2>/dev/null | tail -1; }
declare -A best many
CONFIGS=(none ctx0 cpu0 ctx2 cpu2 ctx4 cpu4)
for ((r = 0; r < REPS; r++)); do
	for c in "${CONFIGS[@]}"; do
		case $c in
		none) u=$(once "$VALGRIND" -q --tool=none "$THREADS" 0) ;;
		ctx*) u=$(once "$NBSIM" -- "$THREADS" "${c#ctx}") ;;
		cpu*) u=$(once "$NBSIM" --nbsim-pmu-ctx=cpu -- "$THREADS" "${c#cpu}") ;;
		esac
		[ -n "$u" ] && [ "$u" -gt 0 ] || { echo "FAILED: $c" >&2; continue; }
		if [ -z "${best[$c]:-}" ] || [ "$u" -lt "${best[$c]}" ]; then best[$c]=$u; fi
	done
done
secs() { printf '%d.%03d' $(($1 / 1000000)) $((($1 / 1000) % 1000)); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }
sw=$("$NBSIM" --nbsim-stats=yes -- "$THREADS" 2 2>&1 | sed -n 's/.*thread switches \([0-9]*\), with counters saved\/restored \([0-9]*\).*/\1 switches, \2 moved registers/p')
echo "thread-switch bench: 4 threads x 2000 yields ($sw with 2 counters), best of $REPS, CPU seconds"
# ctx/off: counters on (2 or 4 per thread, contexts saved and restored)
# against counters off (0: each switch is one test) in the same run
printf '%-9s %9s %9s %9s %9s\n' counters 'contexts' 'by CPU' 'ctx/cpu' 'ctx/off'
printf '%-9s %9s\n' none "$(secs "${best[none]}")"
for n in 0 2 4; do
	printf '%-9s %9s %9s %9s %9s   (x none: %s, %s)\n' "$n" "$(secs "${best[ctx$n]}")" "$(secs "${best[cpu$n]}")" \
		"$(ratio "${best[ctx$n]}" "${best[cpu$n]}")" "$(ratio "${best[ctx$n]}" "${best[ctx0]}")" \
		"$(ratio "${best[ctx$n]}" "${best[none]}")" "$(ratio "${best[cpu$n]}" "${best[none]}")"
done
# Many switches: 20000 yields per thread, 4 counters; the cost of one
# switch that moves registers = (contexts - by CPU) / such switches.
for ((r = 0; r < REPS; r++)); do
	for c in ctx cpu; do
		m=thread; [ $c = cpu ] && m=cpu
		u=$(once "$NBSIM" --nbsim-pmu-ctx=$m -- "$THREADS" 4 20000)
		[ -n "$u" ] && [ "$u" -gt 0 ] || continue
		if [ -z "${many[$c]:-}" ] || [ "$u" -lt "${many[$c]}" ]; then many[$c]=$u; fi
	done
done
nsw=$("$NBSIM" --nbsim-stats=yes -- "$THREADS" 4 20000 2>&1 | sed -n 's/.*with counters saved\/restored \([0-9]*\).*/\1/p')
awk -v a="${many[ctx]:-0}" -v b="${many[cpu]:-0}" -v n="${nsw:-0}" 'BEGIN {
	printf "20000 yields per thread, 4 counters: contexts %.3f s, by CPU %.3f s, %d switches moved registers: %.2f us each\n",
		a / 1e6, b / 1e6, n, (n > 0 ? (a - b) / n : 0) }'
