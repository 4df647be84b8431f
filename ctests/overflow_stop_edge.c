/*
 * overflow_stop_edge.c - overflows whose PMI comes while PAPI_stop runs.
 *
 * PAPI_overflow on PAPI_TOT_INS at threshold T over nbdiff_loop4(n), for
 * every n of a range that moves the end of the count over the last
 * overflow in steps of 4 instructions, from 400 instructions before it to
 * 400 after.  PAPI 7.0.0's PAPI_stop reads the counters, then stops them;
 * an overflow's PMI comes its latency later (tens to hundreds of
 * instructions).  PAPI 7.0.0's PAPI_stop reads the counters, then has the
 * component stop them.  Every overflow inside the count PAPI_stop returns
 * must be dispatched: overflows == floor(count / T), or one more when the
 * overflow falls after the read and its PMI before the stop (README
 * "Overflow and profiling"), never fewer.  nbsim takes a PMI in flight
 * before a client request, so one for an overflow before the read is
 * taken at the read and served when its bookkeeping is done.  With a PAPI
 * whose PAPI_stop stopped before it read (a local experiment, 2026-11-26)
 * 34 of these 201 ends gave one overflow fewer: the PMI came after the
 * set stopped running and was dropped; this test would catch a component
 * or nbsim change that lets a PMI fall there again.  On the sim backend
 * and on the perf backend (nbsim's emulated perf driver, where the
 * handler's user-mode instructions are counted too).
 */
#include <string.h>
#include "papi.h"
#include "nbtap.h"
#include "nbdiff.h"

#define T 10007
#define OVF 8                   /* overflows in the run */
#define SPAN 100                /* iterations on each side: 400 instructions */

static long novf;

static void handler(int es, void *pc, long long vec, void *ctx)
{
	(void)es, (void)pc, (void)vec, (void)ctx;
	novf++;
}

/* count of PAPI_TOT_INS over nbdiff_loop4(n), with overflow at T if ovf */
static long long run(int es, long n, int ovf)
{
	long long v = -1;

	if (ovf && PAPI_overflow(es, PAPI_TOT_INS, T, 0, handler) != PAPI_OK)
		tap_bail("PAPI_overflow");
	novf = 0;
	if (PAPI_start(es) != PAPI_OK)
		tap_bail("PAPI_start");
	nbdiff_loop4(n);
	if (PAPI_stop(es, &v) != PAPI_OK)
		tap_bail("PAPI_stop");
	if (ovf && PAPI_overflow(es, PAPI_TOT_INS, 0, 0, handler) != PAPI_OK)
		tap_bail("PAPI_overflow off");
	return v;
}

int main(void)
{
	int es = PAPI_NULL, bad = 0, tried = 0, before = 0, after = 0, plus = 0;
	long long c0, c1, worst = 0;
	long n0;

	tap_plan(3);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init");
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_event(es, PAPI_TOT_INS) != PAPI_OK)
		tap_bail("event set");
	/* the count's constant part (PAPI's own instructions around the loop) */
	(void)run(es, 1000, 0);
	c0 = run(es, 1000, 0);
	c1 = run(es, 2000, 0);
	tap_is(c1 - c0, 1000 * NBDIFF_LOOP4_INS, "PAPI_TOT_INS grows 4 per iteration (%lld, %lld)",
	       c0, c1);
	/* n0: the count ends at the OVF-th overflow */
	n0 = (OVF * (long long)T - (c0 - 1000 * NBDIFF_LOOP4_INS)) / NBDIFF_LOOP4_INS;
	/* with overflow the count may hold the handlers' instructions too
	 * (the perf backend: PAPI's handler runs in user mode): centre the
	 * sweep on where a run with overflow ends */
	n0 -= (long)((run(es, n0, 1) - OVF * (long long)T) / NBDIFF_LOOP4_INS);
	for (long n = n0 - SPAN; n <= n0 + SPAN; n++) {
		long long c = run(es, n, 1), want = c / T, rest = c % T;

		tried++;
		before += want == OVF - 1;
		after += want == OVF;
		plus += novf == want + 1;
		if (novf != want && novf != want + 1) {
			if (bad++ < 5)
				tap_diag("  n = %ld: count %lld (%lld past a multiple of %d), %ld overflows, "
					 "want %lld or one more", n, c, rest, T, novf, want);
			if (novf < want && want - novf > worst)
				worst = want - novf;
		}
	}
	tap_ok(bad == 0, "overflows = floor(count / %d) or one more for all %d ends of the count "
	       "from %d instructions before the %d-th overflow to %d after (%d bad, %lld missing at "
	       "worst; %d with one more)", T, tried, SPAN * NBDIFF_LOOP4_INS, OVF,
	       SPAN * NBDIFF_LOOP4_INS, bad, worst, plus);
	tap_ok(before > 0 && after > 0, "the sweep crosses the %d-th overflow (%d counts end before "
	       "it, %d at or after it)", OVF, before, after);
	return tap_exit();
}
