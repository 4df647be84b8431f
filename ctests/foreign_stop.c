/*
 * foreign_stop.c - PAPI_stop, PAPI_read and PAPI_reset of a set that
 * another thread started are refused, and harm neither thread's counting.
 *
 * A running set counts on the counters of the thread that started it
 * (nbsim's per-thread PMU context, the perf backend's per-thread event
 * descriptors, the msr backend's CPU binding).  PAPI lets any thread name
 * any set, and the component acted on the calling thread's counters: a
 * thread B that stopped the main thread's running set got PAPI_OK and
 * B's own counts as the set's, stopped B's own running set on the same
 * counters, and left the main thread's counters running with the set
 * marked stopped (its PAPI_stop then returned PAPI_ENOTRUN: the counts
 * were lost).  Checked, counting PAPI_TOT_INS and branch_retired on
 * nbdiff_loop4(N):
 *  1. the main thread starts set S and runs N; thread B starts its own
 *     set M, runs N, calls PAPI_stop, PAPI_read and PAPI_reset on S: each
 *     an error; runs N more and stops M: 2N of each event;
 *  2. the main thread runs N more and stops S: PAPI_OK, 2N of each (the
 *     main thread's own work, and its pthread_create and pthread_join:
 *     some 13,000 instructions);
 *  3. a set the main thread created, started and stopped in a thread C:
 *     allowed, C's N.
 */
#include "nbthreads.h"

#define N 100000L

static int S = PAPI_NULL;

struct res {
	int err, stop, read, reset;
	long long v[NBT_NEV];
	char why[160];
};

/* n iterations' counts, and up to SLACK more (PAPI's calls around them) */
static int in_range(const long long *v, long n, long slack)
{
	for (int k = 0; k < NBT_NEV; k++)
		if (v[k] < n * nbt_per_iter[k] || v[k] > n * nbt_per_iter[k] + slack)
			return 0;
	return 1;
}

static void *thread_b(void *arg)
{
	struct res *r = arg;
	long long x[NBT_NEV];
	int m = PAPI_NULL, e;

	if ((e = PAPI_register_thread()) != PAPI_OK || (e = nbt_make_set(&m)) != PAPI_OK ||
	    (e = PAPI_start(m)) != PAPI_OK) {
		NBT_FAIL(r, "thread B's set", e);
		return NULL;
	}
	nbdiff_loop4(N);
	r->stop = PAPI_stop(S, x);
	r->read = PAPI_read(S, x);
	r->reset = PAPI_reset(S);
	nbdiff_loop4(N);
	if ((e = PAPI_stop(m, r->v)) != PAPI_OK)
		NBT_FAIL(r, "PAPI_stop of B's set", e);
	PAPI_cleanup_eventset(m);
	PAPI_destroy_eventset(&m);
	PAPI_unregister_thread();
	return NULL;
}

static void *thread_c(void *arg)
{
	struct res *r = arg;
	int e;

	if ((e = PAPI_register_thread()) != PAPI_OK || (e = PAPI_start(S)) != PAPI_OK) {
		NBT_FAIL(r, "PAPI_start in C", e);
		return NULL;
	}
	nbdiff_loop4(N);
	if ((e = PAPI_stop(S, r->v)) != PAPI_OK)
		NBT_FAIL(r, "PAPI_stop in C", e);
	PAPI_unregister_thread();
	return NULL;
}

static void spawn(void *(*fn)(void *), struct res *r)
{
	pthread_t t;

	if (pthread_create(&t, NULL, fn, r))
		tap_bail("pthread_create");
	pthread_join(t, NULL);
}

int main(void)
{
	struct res b, c;
	long long v[NBT_NEV] = { 0, 0 };
	int e;

	tap_plan(7);
	nbt_papi_init();
	if ((e = nbt_make_set(&S)) != PAPI_OK)
		tap_bail("event set: %s", PAPI_strerror(e));

	/* 1. */
	memset(&b, 0, sizeof b);
	if ((e = PAPI_start(S)) != PAPI_OK)
		tap_bail("PAPI_start: %s", PAPI_strerror(e));
	nbdiff_loop4(N);
	spawn(thread_b, &b);
	tap_ok(!b.err && b.stop != PAPI_OK, "thread B: PAPI_stop of the main thread's running set "
	       "refused (%s)%s%s", PAPI_strerror(b.stop), b.err ? "; " : "", b.err ? b.why : "");
	tap_ok(!b.err && b.read != PAPI_OK && b.reset != PAPI_OK,
	       "... PAPI_read (%s) and PAPI_reset (%s) too", PAPI_strerror(b.read),
	       PAPI_strerror(b.reset));
	tap_ok(!b.err && in_range(b.v, 2 * N, 5000),
	       "... B's own set counted its 2N: PAPI_TOT_INS %lld, branches %lld (N = %ld)", b.v[0],
	       b.v[1], N);

	/* 2. */
	nbdiff_loop4(N);
	e = PAPI_stop(S, v);
	tap_is(e, PAPI_OK, "main thread: PAPI_stop of its set");
	tap_ok(e == PAPI_OK && in_range(v, 2 * N, 30000),
	       "... its own 2N: PAPI_TOT_INS %lld, branches %lld", v[0], v[1]);

	/* 3. */
	memset(&c, 0, sizeof c);
	spawn(thread_c, &c);
	tap_ok(!c.err, "thread C starts and stops the main thread's stopped set%s%s",
	       c.err ? ": " : "", c.err ? c.why : "");
	tap_ok(!c.err && in_range(c.v, N, 2000), "... C's N: PAPI_TOT_INS %lld, branches %lld", c.v[0],
	       c.v[1]);
	return tap_exit();
}
