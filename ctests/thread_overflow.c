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
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"
#include "nbtap.h"
#include "nbdiff.h"
#include "../sim/nbsim_client.h"

#define MAXT 16
#define T 10007
#define N 200000L
/* PAPI_stop's counted instructions after its read, with margin */
#define TAIL 200

static __thread long novf, wrong;
static __thread int my_es = PAPI_NULL;
static pthread_barrier_t bar;

struct res {
	long long count;
	long ovf, wrong;
	unsigned lp;
	int err;
	char why[160];
};
static struct res res[MAXT], alone[MAXT];

static void handler(int es, void *pc, long long vec, void *ctx)
{
	(void)pc;
	(void)ctx;
	if (es != my_es || vec != 1)
		wrong++;
	novf++;
}

/* Thread i's work in its own event set with overflow; sync: wait at the
 * barrier first (all threads at once). */
static void work(int i, struct res *r, int sync)
{
	struct nbsim_info info;
	long n = N + 37000L * i;
	int e;

	memset(&info, 0, sizeof info);
	(void)nbsim_info(&info);
	r->lp = info.logical_cpu;
	if ((e = PAPI_create_eventset(&my_es)) != PAPI_OK ||
	    (e = PAPI_add_named_event(my_es, "PAPI_TOT_INS")) != PAPI_OK ||
	    (e = PAPI_overflow(my_es, PAPI_TOT_INS, T, 0, handler)) != PAPI_OK) {
		r->err = e;
		snprintf(r->why, sizeof r->why, "setup: %s", PAPI_strerror(e));
		if (sync)
			pthread_barrier_wait(&bar);
		return;
	}
	if (sync)
		pthread_barrier_wait(&bar);
	novf = wrong = 0;
	if ((e = PAPI_start(my_es)) != PAPI_OK)
		goto fail;
	for (int k = 0; k < 20; k++) {
		nbdiff_loop4(n / 20);
		sched_yield();
	}
	if ((e = PAPI_stop(my_es, &r->count)) != PAPI_OK)
		goto fail;
	r->ovf = novf;
	r->wrong = wrong;
	PAPI_overflow(my_es, PAPI_TOT_INS, 0, 0, handler);
	PAPI_cleanup_eventset(my_es);
	PAPI_destroy_eventset(&my_es);
	return;
fail:
	r->err = e;
	snprintf(r->why, sizeof r->why, "%s", PAPI_strerror(e));
}

static void *worker(void *arg)
{
	int i = (int)(intptr_t)arg;

	work(i, &res[i], 1);
	return NULL;
}

int main(int argc, char **argv)
{
	int nt = argc > 1 ? atoi(argv[1]) : 2, e;
	pthread_t t[MAXT];

	if (nt < 1 || nt > MAXT) {
		fprintf(stderr, "usage: %s NTHREADS (1-%d)\n", argv[0], MAXT);
		return 2;
	}
	tap_plan(2 * nt);
	if (!nbsim_present())
		tap_bail("needs nbsim");
	if ((e = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(e));
	if ((e = PAPI_thread_init(pthread_self)) != PAPI_OK)
		tap_bail("PAPI_thread_init: %s", PAPI_strerror(e));
	/* each thread's work, done by the main thread alone first, after a
	 * warm-up (the first overflowing run differs: see the header) */
	work(0, &alone[0], 0);
	for (int i = 0; i < nt; i++) {
		work(i, &alone[i], 0);
		if (alone[i].err)
			tap_bail("alone %d: %s", i, alone[i].why);
	}
	pthread_barrier_init(&bar, NULL, (unsigned)nt);
	for (int i = 1; i < nt; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i))
			tap_bail("pthread_create");
	worker((void *)0);
	for (int i = 1; i < nt; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < nt; i++) {
		struct res *r = &res[i];

		if (r->err) {
			tap_ok(0, "thread %d: %s", i, r->why);
			tap_ok(0, "thread %d: no run", i);
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
