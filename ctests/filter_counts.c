/*
 * filter_counts.c - CCCR filtering (Compare, Complement, Threshold, Edge)
 * under nbsim, through the public PAPI API, by the difference method.
 *
 * nbsim reports every cycle of its timing model to counters that filter
 * (sim/README.md "Filtering"): uops retire 3 per cycle in program order, an
 * instruction's events are output in the cycle of its first uop, and a
 * client request (the PMU access of PAPI_start/PAPI_stop) ends the open
 * cycle, so the same code gives the same cycles.
 *
 * Loop body: a store (2 uops: STA + STD) and three 1-uop instructions:
 *     mov %rax,(%rdi) ; add $1,%rax ; sub $1,%rcx ; jnz 1b
 * 5 uops, 4 instructions per iteration.  Three iterations are 15 uops, i.e.
 * 5 cycles, whatever cycle slot the loop starts in; instructions start at
 * uop slots 1,3,4,5, 6,8,9,10, 11,13,14,15, so every window of 5 cycles
 * holds instruction counts {2,3,2,2,3} in some rotation: 2 cycles with more
 * than 2 instructions, 3 with at most 2, 2 rising edges of "more than 2".
 * N2 - N1 = 3000 iterations (a multiple of 3) = 1000 such windows.
 *
 * The cycles alias of Linux and PAPI (execution_event with every mask,
 * Complement, Threshold 15: output 0 <= 15 in every cycle) must count
 * exactly what global_power_events:RUNNING counts.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "papi.h"
#include "nbdiff.h"

#define N1 1000
#define N2 4000
#define WINDOWS ((N2 - N1) / 3)  /* 5-cycle windows between the two runs */

static long sink;

static void loop(long n)
{
	long a = 0;

	__asm__ volatile("1:\n\t"
			 "mov %0, (%2)\n\t"
			 "add $1, %0\n\t"
			 "sub $1, %1\n\t"
			 "jnz 1b\n\t"
			 : "+r"(a), "+r"(n) : "r"(&sink) : "cc", "memory");
}

struct ev {
	const char *name;
	long long per_window;     /* count per 5-cycle window (3 iterations) */
};

/* Differences of the counts at N2 and N1; d[i] = b[i] - a[i]. */
static void run_set(const struct ev *evs, int n, long long *d)
{
	long long a[NBDIFF_MAX], b[NBDIFF_MAX];
	const char *names[NBDIFF_MAX];

	for (int i = 0; i < n && i < NBDIFF_MAX; i++)
		names[i] = evs[i].name;
	nbdiff_run("filter_counts", names, n, loop, N1, N2, a, b);
	for (int i = 0; i < n; i++) {
		d[i] = b[i] - a[i];
		char desc[300];

		snprintf(desc, sizeof desc, "%s: difference of %d and %d iterations is %lld x %d windows",
			 evs[i].name, N2, N1, evs[i].per_window, WINDOWS);
		/* cycle-level counts: the timing model's state at PAPI_stop
		 * (unit reservations, the uop window) differs after N1 and N2
		 * iterations, so the overhead may differ by some cycles; 100 <
		 * WINDOWS / 2 keeps the per-window count exact (nbdiff_is_slack) */
		nbdiff_is_slack(d[i], WINDOWS, evs[i].per_window, 100, desc);
		tap_diag("%s: %lld at N=%d, %lld at N=%d", evs[i].name, a[i], N1, b[i], N2);
	}
}

#define P "p4netburst:::"
#define ALIAS P "execution_event:NBOGUS0:NBOGUS1:NBOGUS2:NBOGUS3:BOGUS0:BOGUS1:BOGUS2:BOGUS3:thr=15:cmpl"

int main(void)
{
	static const struct ev alias[] = {
		{ ALIAS, 5 },
		{ P "global_power_events:RUNNING", 5 },
	};
	static const struct ev thr[] = {
		{ P "instr_retired:NBOGUSNTAG:thr=2", 2 },          /* > 2 per cycle  */
		{ P "instr_retired:NBOGUSNTAG:thr=2:cmpl", 3 },     /* <= 2 per cycle */
	};
	static const struct ev edge[] = {
		{ P "instr_retired:NBOGUSNTAG:thr=2:edge", 2 },     /* rising > 2     */
		{ P "uops_retired:NBOGUS:thr=2", 5 },               /* 3 uops: all    */
	};
	static const struct ev idle[] = {
		{ P "uops_retired:NBOGUS:thr=0:cmpl", 0 },          /* no stall cycle */
		{ P "instr_retired:NBOGUSNTAG:thr=3", 0 },          /* never > 3      */
	};
	long long d[8];
	int r;

	tap_plan(9);
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(r));
	run_set(alias, 2, d);
	tap_is(d[0], d[1], "cycles alias (execution_event, all masks, cmpl, thr=15) "
	       "counts exactly the cycles of global_power_events:RUNNING");
	run_set(thr, 2, d);
	run_set(edge, 2, d);
	run_set(idle, 2, d);
	PAPI_shutdown();
	return tap_exit();
}
