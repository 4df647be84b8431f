/*
 * thread_pebs.c - precise overflow (PEBS) per thread under nbsim: NTHREADS
 * threads, each with its own event set with
 * 1stL_cache_load_miss_retired:precise and PAPI_overflow at TP, chase
 * their own 64 KB ring (every load misses the 16 KB L1D) with their own
 * chase function, whose one load carries the thread's own label.  Without
 * --ht=yes all run on the one logical processor, so they share counter 16,
 * IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT; nbsim saves each thread's
 * counters, PEBS arming and IA32_DS_AREA with its context (sim/README.md
 * "Per-thread counting").  The threads are interleaved by sched_yield
 * (each switched out and back between its samples) and stop at different
 * times: thread i chases 10 + 2 i chunks of CH loads, so thread 0 stops
 * (and its PAPI_stop writes IA32_PEBS_ENABLE 0) while the others still
 * chase.  Checked for each thread:
 *  - every sample is its own: the PC of the PEBS record is its own
 *    chase's load (none at another thread's load, none elsewhere), for
 *    its own event set;
 *  - floor(count / TP) samples;
 *  - its count is its chase's loads, every one an L1D miss, plus the
 *    misses of PAPI's own code in the measured interval (PAPI_start and
 *    stop, the overflow handler, sched_yield): n <= count < n + TP.
 *    Not the count of the same work alone: the threads share the L1D,
 *    so how many of PAPI's own loads miss depends on the others' chases
 *    (130-280 seen).
 *
 *   thread_pebs NTHREADS
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"
#include "nbtap.h"
#include "chase.h"
#include "../sim/nbsim_client.h"

#define MAXT 8
#define TP 1000
/* loads per chunk.  Each chunk starts again at the ring's first line; the
 * 16 KB L1D keeps the last 256 lines a chunk touched, so CH mod 1024 must
 * not be in 1..256 (else the next chunk's first loads hit: with 2300,
 * 20832 misses for 23000 loads, measured); 2000 ends on lines 720-975 */
#define CH 2000L
#define EV "p4netburst:::1stL_cache_load_miss_retired:precise"

extern char tp_ld0[], tp_ld1[], tp_ld2[], tp_ld3[], tp_ld4[], tp_ld5[], tp_ld6[], tp_ld7[];
CHASE_FN(chase0, tp_ld0)
CHASE_FN(chase1, tp_ld1)
CHASE_FN(chase2, tp_ld2)
CHASE_FN(chase3, tp_ld3)
CHASE_FN(chase4, tp_ld4)
CHASE_FN(chase5, tp_ld5)
CHASE_FN(chase6, tp_ld6)
CHASE_FN(chase7, tp_ld7)
static void (*const chase[MAXT])(void *, long) = {
	chase0, chase1, chase2, chase3, chase4, chase5, chase6, chase7,
};
static char *const label[MAXT] = {
	tp_ld0, tp_ld1, tp_ld2, tp_ld3, tp_ld4, tp_ld5, tp_ld6, tp_ld7,
};

static __thread int me = -1, my_es = PAPI_NULL;
static __thread long nsamp, own, foreign, other, wrong_es;
static char *ring[MAXT];
static pthread_barrier_t bar;

struct res {
	long long count;
	long n, samp, own, foreign, other, wrong_es;
	unsigned lp;
	int err;
	char why[160];
};
static struct res res[MAXT];

static void handler(int es, void *pc, long long vec, void *ctx)
{
	(void)ctx;
	if (es != my_es || vec != 1)
		wrong_es++;
	nsamp++;
	for (int k = 0; k < MAXT; k++)
		if ((char *)pc == label[k]) {
			if (k == me)
				own++;
			else
				foreign++;
			return;
		}
	other++;
}

/* Thread i's work: its own precise set with overflow around its chase;
 * sync: wait at the barrier once the set is made (all start at once). */
static void work(int i, struct res *r, int sync)
{
	struct nbsim_info info;
	int chunks = 10 + 2 * i;
	int e, code = 0;

	me = i;
	memset(&info, 0, sizeof info);
	(void)nbsim_info(&info);
	r->lp = info.logical_cpu;
	my_es = PAPI_NULL;
	if ((e = PAPI_create_eventset(&my_es)) != PAPI_OK || (e = PAPI_add_named_event(my_es, EV)) != PAPI_OK ||
	    (e = PAPI_event_name_to_code(EV, &code)) != PAPI_OK ||
	    (e = PAPI_overflow(my_es, code, TP, 0, handler)) != PAPI_OK) {
		r->err = e;
		snprintf(r->why, sizeof r->why, "setup: %s", PAPI_strerror(e));
		if (sync)
			pthread_barrier_wait(&bar);
		return;
	}
	if (sync)
		pthread_barrier_wait(&bar);
	nsamp = own = foreign = other = wrong_es = 0;
	if ((e = PAPI_start(my_es)) != PAPI_OK)
		goto fail;
	for (int k = 0; k < chunks; k++) {
		chase[i](ring[i], CH);
		sched_yield();
	}
	r->n = CH * chunks;
	if ((e = PAPI_stop(my_es, &r->count)) != PAPI_OK)
		goto fail;
	r->samp = nsamp;
	r->own = own;
	r->foreign = foreign;
	r->other = other;
	r->wrong_es = wrong_es;
	PAPI_overflow(my_es, code, 0, 0, handler);
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
	tap_plan(3 * nt);
	if (!nbsim_present())
		tap_bail("needs nbsim");
	for (int i = 0; i < nt; i++)
		if (!(ring[i] = chase_ring()))
			tap_bail("no memory for the chase");
	if ((e = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(e));
	if ((e = PAPI_thread_init(pthread_self)) != PAPI_OK)
		tap_bail("PAPI_thread_init: %s", PAPI_strerror(e));
	/* a warm-up (not checked) */
	work(0, &res[0], 0);
	memset(&res[0], 0, sizeof res[0]);
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
			tap_ok(0, "thread %d: no run", i);
			continue;
		}
		tap_ok(r->count >= r->n && r->count < r->n + TP,
		       "thread %d (LP%u): count %lld = its %ld missing loads + %lld of PAPI's own "
		       "(0 <= that < %d)", i, r->lp, r->count, r->n, r->count - r->n, TP);
		tap_ok(r->samp > 0 && r->own == r->samp && r->wrong_es == 0,
		       "thread %d: every sample at its own load, for its own event set (%ld of %ld; "
		       "%ld at another thread's load, %ld elsewhere, %ld for another set)", i, r->own,
		       r->samp, r->foreign, r->other, r->wrong_es);
		tap_ok(r->samp == r->count / TP, "thread %d: %ld samples = floor(count %lld / %d) = %lld",
		       i, r->samp, r->count, TP, r->count / TP);
	}
	PAPI_shutdown();
	return tap_exit();
}
