/*
 * overflow_tiny.c - PAPI_overflow with a threshold shorter than PAPI's own
 * overflow handler, on the perf backend: the program ends.
 *
 * On the perf backend PAPI's handler runs in user mode from the kernel's
 * overflow signal, and its instructions (about 250) are counted: with a
 * threshold T below that, on an event of instructions, the handler itself
 * overflows the counter again, and every return from it meets another
 * interrupt.  Linux gets out by throttling: past max_samples_per_tick
 * interrupts in a tick the event is stopped until the next tick, and the
 * program goes on (kernel/events/core.c).  nbsim's emulated perf driver
 * once had no throttling: T = 200 or 1 never returned from the loop.
 * Checked (the harness's timeout catches a hang): PAPI_start and
 * PAPI_stop return PAPI_OK around nbdiff_loop4(N); the handler ran; the
 * count is short of the loop's own instructions: the event was throttled
 * (400 interrupts in a tick of 1 M instructions, sim/README "Emulated
 * kernel") and what it would have counted while off the PMU is lost, as
 * on Linux.
 *
 *   overflow_tiny T
 */
#include <stdlib.h>
#include "nbtap.h"
#include "nbdiff.h"
#include "papi.h"

#define N 200000L

static volatile long novf;

static void handler(int es, void *pc, long long over, void *ctx)
{
	(void)es; (void)pc; (void)over; (void)ctx;
	novf++;
}

int main(int argc, char **argv)
{
	int es = PAPI_NULL, e, t = argc > 1 ? atoi(argv[1]) : 0;
	long long v[1] = { 0 };

	if (t <= 0)
		tap_bail("usage: overflow_tiny THRESHOLD");
	tap_plan(4);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
	    PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_event(es, PAPI_TOT_INS) != PAPI_OK)
		tap_bail("PAPI setup");
	if ((e = PAPI_overflow(es, PAPI_TOT_INS, t, 0, handler)) != PAPI_OK)
		tap_bail("PAPI_overflow(%d): %d", t, e);
	e = PAPI_start(es);
	tap_is(e, PAPI_OK, "threshold %d: PAPI_start", t);
	nbdiff_loop4(N);
	e = PAPI_stop(es, v);
	tap_is(e, PAPI_OK, "threshold %d: PAPI_stop returns after the loop", t);
	tap_ok(novf > 0, "threshold %d: the handler ran (%ld overflows)", t, novf);
	tap_ok(v[0] > 0 && v[0] < N * NBDIFF_LOOP4_INS,
	       "threshold %d: PAPI_TOT_INS %lld, short of the loop's %ld (throttled)", t, v[0],
	       N * NBDIFF_LOOP4_INS);
	return tap_exit();
}
