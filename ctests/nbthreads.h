/*
 * nbthreads.h - the harness the per-thread PAPI tests share
 * (thread_overflow, thread_pebs, thread_migrate, thread_counts): the
 * program's start (thread count, PAPI with thread support), a thread's
 * result (an error and its cause, its logical processor), the barrier
 * the threads start at, the spawning of threads 1..n-1 beside the main
 * thread as thread 0, an overflow handler that counts its dispatches, and
 * the two events these tests count on nbdiff_loop4.
 */
#ifndef NBTHREADS_H
#define NBTHREADS_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"
#include "nbtap.h"
#include "nbdiff.h"
#include "../sim/nbsim_client.h"

/* The events counted on nbdiff_loop4, and their counts per iteration
 * (nbdiff.h: 4 instructions, 1 taken branch). */
#define NBT_NEV 2
static __attribute__((unused)) const char *const nbt_evs[NBT_NEV] = {
	"PAPI_TOT_INS",
	"p4netburst:::branch_retired:MMTP:MMTM",
};
static __attribute__((unused)) const long long nbt_per_iter[NBT_NEV] = { NBDIFF_LOOP4_INS, 1 };

/* An event set of nbt_evs: PAPI_OK or the first error. */
static inline int nbt_make_set(int *es)
{
	return nbdiff_make_set(es, nbt_evs, NBT_NEV);
}

/* PAPI_read into v; an error into *e (kept for the thread's report: a
 * thread does not bail out).  Not inlined: the same code at every read,
 * so the difference of two intervals holds only the work between them. */
static __attribute__((noinline, unused)) void nbt_read(int es, long long *v, int *e)
{
	int r = PAPI_read(es, v);
	if (r != PAPI_OK)
		*e = r;
}

/* The thread count from argv[1] (default 2), 1..max; else usage, exit 2. */
static inline int nbt_nthreads(int argc, char **argv, int max)
{
	int nt = argc > 1 ? atoi(argv[1]) : 2;

	if (nt < 1 || nt > max) {
		fprintf(stderr, "usage: %s NTHREADS (1-%d)\n", argv[0], max);
		exit(2);
	}
	return nt;
}

/* PAPI with thread support, or bail out naming the call that failed. */
static inline void nbt_papi_init(void)
{
	int e;

	if ((e = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(e));
	if ((e = PAPI_thread_init(pthread_self)) != PAPI_OK)
		tap_bail("PAPI_thread_init: %s", PAPI_strerror(e));
}

/* The logical processor nbsim says the calling thread's home is. */
static inline unsigned nbt_lp(void)
{
	struct nbsim_info info;

	memset(&info, 0, sizeof info);
	(void)nbsim_info(&info);
	return info.logical_cpu;
}

/* A thread's failure: the PAPI error (-1 for none) into *err, "what: cause"
 * into why.  NBT_FAIL(r, ...): for a struct r with int err, char why[]. */
static inline void nbt_fail(int *err, char *why, size_t n, const char *what, int e)
{
	*err = e ? e : -1;
	snprintf(why, n, "%s: %s", what, e ? PAPI_strerror(e) : "failed");
}
#define NBT_FAIL(r, what, e) nbt_fail(&(r)->err, (r)->why, sizeof (r)->why, (what), (e))

/* The barrier the threads of a run start at (nbt_run initialises it). */
static pthread_barrier_t nbt_bar;

/* sync: wait at the barrier (a thread of a run, not the main thread
 * measuring alone).  A thread whose setup failed waits too, or the
 * others would wait for it for ever. */
static inline void nbt_sync(int sync)
{
	if (sync)
		pthread_barrier_wait(&nbt_bar);
}

/* Threads 1..nt-1 and the main thread as thread 0 run body(i) at once
 * (each waits at nbt_bar); back when all have returned. */
static void (*nbt_body)(int i);

static inline void *nbt_thread(void *arg)
{
	nbt_body((int)(intptr_t)arg);
	return NULL;
}

static inline void nbt_run(int nt, void (*body)(int i))
{
	pthread_t t[nt];

	nbt_body = body;
	pthread_barrier_init(&nbt_bar, NULL, (unsigned)nt);
	for (int i = 1; i < nt; i++)
		if (pthread_create(&t[i], NULL, nbt_thread, (void *)(intptr_t)i))
			tap_bail("pthread_create");
	body(0);
	for (int i = 1; i < nt; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&nbt_bar);
}

/* An overflowing event set done with: overflow off, emptied, destroyed. */
static inline void nbt_ovf_destroy(int *es, int code, PAPI_overflow_handler_t handler)
{
	PAPI_overflow(*es, code, 0, 0, handler);
	PAPI_cleanup_eventset(*es);
	PAPI_destroy_eventset(es);
}

/* A thread that failed: its ntests checks fail, the first with the cause. */
static inline void nbt_no_run(int i, const char *why, int ntests)
{
	tap_ok(0, "thread %d: %s", i, why);
	for (int k = 1; k < ntests; k++)
		tap_ok(0, "thread %d: no run", i);
}

/* Overflow dispatch of counter 1 of the thread's own set nbt_es: every
 * call counted (nbt_novf), those for another set or vector in nbt_wrong. */
static __thread __attribute__((unused)) long nbt_novf, nbt_wrong;
static __thread __attribute__((unused)) int nbt_es = PAPI_NULL;

static __attribute__((unused)) void nbt_ovf_handler(int es, void *pc, long long vec, void *ctx)
{
	(void)pc;
	(void)ctx;
	if (es != nbt_es || vec != 1)
		nbt_wrong++;
	nbt_novf++;
}

#endif
