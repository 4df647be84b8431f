/*
 * start_refused.c - a PAPI_start that fails leaves every other thread's
 * counting as it was.
 *
 * PAPI 7.0.0 calls the component's stop after a failed start (papi.c,
 * PAPI_start).  The component's stop then acted on registers the set had
 * never taken: on the msr backend, which counts by CPU and refuses a
 * second counting thread on a CPU (PAPI_ESYS), the refused thread's stop
 * disabled the CCCRs of the CPU where the main thread counted, and gave
 * up the main thread's claim on that CPU: the main thread's running set
 * stopped counting, with no error anywhere.  Checked, counting
 * PAPI_TOT_INS and branch_retired on nbdiff_loop4:
 *  1. the main thread starts set S; thread B starts its own set: on the
 *     backend given as argv[1], "refused" (msr: PAPI_ESYS) or "ok";
 *  2. the main thread then runs N iterations and stops S: at least N's
 *     counts (before the fix, on msr, some 7,700 of the 400,000
 *     instructions);
 *  3. the CPU is free again once S stops: a thread C counts N there.
 */
#include "nbthreads.h"

#define N 100000L

struct res {
	int start, err;
	long long v[NBT_NEV];
	char why[160];
};

static void *thread_b(void *arg)
{
	struct res *r = arg;
	long long x[NBT_NEV];
	int m = PAPI_NULL, e;

	if ((e = PAPI_register_thread()) != PAPI_OK || (e = nbt_make_set(&m)) != PAPI_OK) {
		NBT_FAIL(r, "thread B's set", e);
		return NULL;
	}
	r->start = PAPI_start(m);
	if (r->start == PAPI_OK)
		(void)PAPI_stop(m, x);
	(void)PAPI_cleanup_eventset(m);
	(void)PAPI_destroy_eventset(&m);
	(void)PAPI_unregister_thread();
	return NULL;
}

static void *thread_c(void *arg)
{
	struct res *r = arg;
	int m = PAPI_NULL, e;

	if ((e = PAPI_register_thread()) != PAPI_OK || (e = nbt_make_set(&m)) != PAPI_OK ||
	    (e = PAPI_start(m)) != PAPI_OK) {
		NBT_FAIL(r, "thread C's set", e);
		return NULL;
	}
	nbdiff_loop4(N);
	if ((e = PAPI_stop(m, r->v)) != PAPI_OK)
		NBT_FAIL(r, "thread C's PAPI_stop", e);
	(void)PAPI_cleanup_eventset(m);
	(void)PAPI_destroy_eventset(&m);
	(void)PAPI_unregister_thread();
	return NULL;
}

static void run(void *(*fn)(void *), struct res *r)
{
	pthread_t t;

	memset(r, 0, sizeof(*r));
	if (pthread_create(&t, NULL, fn, r) || pthread_join(t, NULL))
		tap_bail("pthread_create/join");
}

int main(int argc, char **argv)
{
	int refused = argc > 1 && !strcmp(argv[1], "refused");
	int s = PAPI_NULL, e;
	long long v[NBT_NEV];
	struct res b, c;

	tap_plan(4 + 2 * NBT_NEV);
	nbt_papi_init();
	if ((e = nbt_make_set(&s)) != PAPI_OK || (e = PAPI_start(s)) != PAPI_OK)
		tap_bail("the main thread's set: %s", PAPI_strerror(e));
	run(thread_b, &b);
	tap_ok(!b.err, "thread B created its set%s%s", b.err ? ": " : "", b.why);
	tap_is(b.start, refused ? PAPI_ESYS : PAPI_OK, "thread B's PAPI_start: %s (%s)",
	       PAPI_strerror(b.start), refused ? "refused: the CPU counts for the main thread"
					    : "each thread has its counters");
	nbdiff_loop4(N);
	e = PAPI_stop(s, v);
	tap_is(e, PAPI_OK, "the main thread's PAPI_stop after B's start");
	for (int k = 0; k < NBT_NEV; k++)
		tap_ok(v[k] >= N * nbt_per_iter[k], "main thread: %s %lld, at least the %ld x %lld "
		       "of the loop it ran after B's start", nbt_evs[k], v[k], N, nbt_per_iter[k]);
	run(thread_c, &c);
	tap_ok(!c.err, "thread C counts once the main thread stopped%s%s", c.err ? ": " : "",
	       c.why);
	for (int k = 0; k < NBT_NEV; k++)
		tap_ok(c.v[k] >= N * nbt_per_iter[k] && c.v[k] < N * nbt_per_iter[k] + 20000,
		       "thread C: %s %lld, its loop's %ld x %lld and PAPI's calls", nbt_evs[k],
		       c.v[k], N, nbt_per_iter[k]);
	(void)PAPI_cleanup_eventset(s);
	(void)PAPI_destroy_eventset(&s);
	PAPI_shutdown();
	return tap_exit();
}
