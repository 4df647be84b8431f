/*
 * thread_overflow.c - hardware overflow per thread under nbsim: NTHREADS
 * threads, each with its own event set with PAPI_TOT_INS and
 * PAPI_overflow at threshold T, run loops of different lengths at once,
 * interleaved by sched_yield (so each is switched out and back between its
 * overflows).  nbsim saves each thread's counters, OVF and pending PMI with
 * its context (sim/README.md "Per-thread counting"): each thread gets
 * the overflows and the count of the same work done alone (by the main
 * thread before any other thread starts; within PAPI_stop's tail, below),
 * every one delivered to itself (its handler, its event set).
 *
 * And floor(count / T), or one more when the last overflow falls in
 * PAPI_stop's own path after it read the counters: PAPI_stop returns the
 * count of that read, while the counter counts on until the component
 * stops it (some 110 instructions); the PMI of an overflow there is taken
 * before the stop (the skid ends at the stopping WRMSR at the latest,
 * sim/README.md "Overflow interrupts (PMI)") and counted by the handler.
 * So: floor(count / T) + 1 only if count mod T >= T - TAIL.  And "as
 * alone" within that tail: the skid is the instructions retired in the
 * PMI latency, so it follows the clock, which the threads' shared caches
 * and branch predictor change; whether that last PMI lands before
 * PAPI_stop's read or inside it (where the component defers it, and the
 * count then includes the tail: +106 seen) varies with the interleaving,
 * so count and overflows may differ from the run alone by the tail and
 * one (a thread's counters leaking into another's would differ by the
 * other's 148,000 instructions or more).  (This is the
 * "count ~150 short of the overflow boundaries" once seen in the first
 * run; the main thread still warms up with one run that is not checked.)
 *
 *   thread_overflow NTHREADS
 */
#include <sched.h>
#include "nbthreads.h"

#define MAXT 16
#define T 10007
#define N 200000L
/* PAPI_stop's counted instructions after its read, with margin */
#define TAIL 200

struct res {
	long long count;
	long ovf, wrong;
	unsigned lp;
	int err;
	char why[160];
};
static struct res res[MAXT], alone[MAXT];

/* Thread i's work in its own event set with overflow; sync: wait at the
 * barrier first (all threads at once). */
static void work(int i, struct res *r, int sync)
{
	long n = N + 37000L * i;
	int e;

	r->lp = nbt_lp();
	if ((e = PAPI_create_eventset(&nbt_es)) != PAPI_OK ||
	    (e = PAPI_add_named_event(nbt_es, "PAPI_TOT_INS")) != PAPI_OK ||
	    (e = PAPI_overflow(nbt_es, PAPI_TOT_INS, T, 0, nbt_ovf_handler)) != PAPI_OK) {
		NBT_FAIL(r, "setup", e);
		nbt_sync(sync);
		return;
	}
	nbt_sync(sync);
	nbt_novf = nbt_wrong = 0;
	if ((e = PAPI_start(nbt_es)) != PAPI_OK)
		return NBT_FAIL(r, "PAPI_start", e);
	for (int k = 0; k < 20; k++) {
		nbdiff_loop4(n / 20);
		sched_yield();
	}
	if ((e = PAPI_stop(nbt_es, &r->count)) != PAPI_OK)
		return NBT_FAIL(r, "PAPI_stop", e);
	r->ovf = nbt_novf;
	r->wrong = nbt_wrong;
	nbt_ovf_destroy(&nbt_es, PAPI_TOT_INS, nbt_ovf_handler);
}

/* thread i of the run */
static void run(int i)
{
	work(i, &res[i], 1);
}

int main(int argc, char **argv)
{
	int nt = nbt_nthreads(argc, argv, MAXT);

	tap_plan(2 * nt);
	if (!nbsim_present())
		tap_bail("needs nbsim");
	nbt_papi_init();
	/* each thread's work, done by the main thread alone first, after a
	 * warm-up (the first overflowing run differs: see the header) */
	work(0, &alone[0], 0);
	for (int i = 0; i < nt; i++) {
		work(i, &alone[i], 0);
		if (alone[i].err)
			tap_bail("alone %d: %s", i, alone[i].why);
	}
	nbt_run(nt, run);
	for (int i = 0; i < nt; i++) {
		struct res *r = &res[i];

		if (r->err) {
			nbt_no_run(i, r->why, 2);
			continue;
		}
		/* as alone, and floor(count / T) (+ 1: see the top) */
		tap_ok(r->ovf - alone[i].ovf <= 1 && alone[i].ovf - r->ovf <= 1 &&
		       r->count - alone[i].count <= TAIL && alone[i].count - r->count <= TAIL &&
		       (r->ovf == r->count / T || (r->ovf == r->count / T + 1 && r->count % T >= T - TAIL)),
		       "thread %d (LP%u): %ld overflows, count %lld, as alone (%ld, %lld; "
		       "floor(count / %d) = %lld)", i, r->lp, r->ovf, r->count, alone[i].ovf,
		       alone[i].count, T, r->count / T);
		tap_ok(r->wrong == 0 && r->ovf > 0,
		       "thread %d: every overflow delivered to itself, for its event set (%ld not)",
		       i, r->wrong);
	}
	PAPI_shutdown();
	return tap_exit();
}
