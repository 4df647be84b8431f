/*
 * overflow_sweep.c - hardware overflow with thresholds from 1 to 1000 on
 * several events, under nbsim (tests/api/t_overflow_sweep.t; README
 * "Overflow and profiling").
 *
 * The semantics: the PMI's handler is the interrupt service routine and
 * runs uncounted (nbsim runs the PMI signal's handler at CPL 0), and
 * thresholds that pass during the skid (the instructions that retire in
 * the model's PMI latency, sim/README.md "Overflow interrupts (PMI)")
 * coalesce into one PMI, as a real ISR sees them; the component re-arms
 * at the next multiple of the threshold.  So, around a loop of 4
 * instructions, for every threshold T:
 *  - the program finishes (no livelock: before, 25 <= T <= 255 on
 *    PAPI_TOT_INS re-overflowed inside the handler for ever) and the
 *    handler is called (before, T <= 20 lost the first PMI in PAPI_start
 *    and never re-armed);
 *  - calls <= floor((count + W) / T) + 1 (one call per PMI, never more;
 *    W: PAPI 7.0.0's PAPI_stop reads the counters before it stops them,
 *    so the events of its own path between the two (measured: about 200
 *    instructions, 42 branches, 500 cycles) still overflow and are
 *    dispatched, but are not in the count it returns);
 *  - the skid is at most SKID instructions (the default model, Prescott:
 *    a latency of 74 cycles + at most 16 to the local APIC's bus-clock
 *    edge, at most 3 instructions retiring a cycle,
 *    + 3 for the cycle it ends in), S = SKID x per-iteration events / 4
 *    events; for T above S, one call per threshold: calls >=
 *    floor(count / T) - 1;
 *  - at or below it, PMIs at most S + T events apart (taken at most S
 *    after an overflow, re-armed to overflow at most T later): calls >=
 *    floor(count / (S + T)) - 1.  (Before the skid was modelled it was
 *    the rest of a superblock, 16 instructions here, and the bounds were
 *    T > 16 x per-iteration events and calls >= n / 16.)
 *  - the count with overflow is the count without it, exactly (the
 *    handler is not counted, and a PMI taken inside PAPI_read's
 *    bookkeeping is served after it, uncounted: nb_comp_ovf.c).
 * PAPI_TOT_CYC: the bounds, and a count within a factor of 2 (the
 * handler's side effects on caches and predictor cost user cycles).
 */
#include <stdint.h>
#include <stdlib.h>
#include "papi.h"
#include "nbdiff.h"

#define N 40000L
/* the most instructions retired in Prescott's PMI latency (74 cycles,
 * sim/timing/nb_tmparams.c, + at most 16 waiting for the bus-clock edge, ratio 17
 * - 1, sim/tool/nb_pmi.c pmi_due): 3 a cycle [HIN01], + 3 */
#define SKID (3 * (74 + 16) + 3)

/* the loop: nbdiff_loop4 (nbdiff.h) */
#define loop nbdiff_loop4

static long calls;

static void handler(int es, void *pc, long long vec, void *ctx)
{
	(void)es; (void)pc; (void)vec; (void)ctx;
	calls++;
}

static long long count1(const char *ev, int T)
{
	int es = PAPI_NULL, code, r;
	long long v = 0;

	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, ev) != PAPI_OK ||
	    PAPI_event_name_to_code(ev, &code) != PAPI_OK)
		tap_bail("event set %s", ev);
	if (T && (r = PAPI_overflow(es, code, T, 0, handler)) != PAPI_OK)
		tap_bail("PAPI_overflow %s %d: %s", ev, T, PAPI_strerror(r));
	calls = 0;
	if (PAPI_start(es) != PAPI_OK)
		tap_bail("PAPI_start");
	loop(N);
	if (PAPI_stop(es, &v) != PAPI_OK)
		tap_bail("PAPI_stop");
	if (T)
		PAPI_overflow(es, code, 0, 0, handler);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return v;
}

int main(void)
{
	static const int th[] = { 1, 2, 3, 5, 8, 13, 20, 21, 25, 32, 50, 64, 100, 128, 200, 255, 256, 500, 1000 };
	static const char *evs[] = { "PAPI_TOT_INS", "PAPI_BR_INS", "PAPI_TOT_CYC" };
	/* per-iteration events of the loop: 4 instructions, 1 branch (0:
	 * cycles, not a fixed number) */
	static const long per_it[] = { 4, 1, 0 };
	/* W above: the events of PAPI_stop's path after its read */
	static const long stop_w[] = { 256, 64, 1024 };

	long long cyc0;

	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init");
	/* the loop's cycles before any overflow ran */
	cyc0 = count1("PAPI_TOT_CYC", 0);
	for (unsigned e = 0; e < sizeof evs / sizeof evs[0]; e++) {
		long long plain = count1(evs[e], 0);

		/* the clock must not charge the loop for what ran uncounted
		 * before (the overflow runs' handlers: their mispredictions
		 * once went into the first cycles count, 12.8M for 55k) */
		if (per_it[e] == 0)
			tap_ok(plain > cyc0 - cyc0 / 10 && plain < cyc0 + cyc0 / 10,
			       "%s without overflow after the sweeps: %lld, before them %lld (within 10%%)",
			       evs[e], plain, cyc0);

		for (unsigned k = 0; k < sizeof th / sizeof th[0]; k++) {
			int T = th[k];
			long long c = count1(evs[e], T);
			/* the floor from the count mod 2^40 (a count 2^40 ahead was
			 * the re-arm defect) and the stop window */
			long long fl0 = (c & ((1LL << 40) - 1)) / T, fl = ((c & ((1LL << 40) - 1)) + stop_w[e]) / T;
			int ok = calls >= 1 && calls <= fl + 1, sane = c >= plain - 128 && c <= plain + 128;

			if (per_it[e] == 0) {
				/* cycles: the handler's side effects (caches, branch
				 * predictor, the open retirement cycle ended) cost
				 * user cycles, and long superblocks of PAPI's own
				 * code coalesce PMIs: only the bounds, and a sane
				 * count */
				sane = c >= plain / 2 && c < 2 * plain;
				tap_ok(ok && sane, "%s T=%d: %ld handler calls for %lld events (floor %lld), "
				       "count %lld near %lld without overflow", evs[e], T, calls, c, fl, c, plain);
				continue;
			}
			/* the skid: S events (per_it per 4 instructions) */
			long S = (SKID * per_it[e] + 3) / 4;
			if (T > S)
				ok &= calls >= fl0 - 1;
			else
				ok &= calls >= (c & ((1LL << 40) - 1)) / (S + T) - 1;
			tap_ok(ok, "%s T=%d: %ld handler calls for %lld events (floor %lld)", evs[e], T,
			       calls, c, fl);
			/* the handler is not counted, nor a PMI deferred out of
			 * PAPI_read's bookkeeping (served uncounted after it):
			 * the count is the count without overflow, exactly
			 * (before, a re-arm inside the read's bookkeeping put it
			 * T or 2^40 ahead) */
			tap_ok(c == plain, "%s T=%d: count %lld = without overflow %lld", evs[e], T, c,
			       plain);
		}
	}
	printf("1..%d\n", tap_n);
	return tap_exit();
}
