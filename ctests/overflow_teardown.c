/*
 * overflow_teardown.c - event sets freed by PAPI with overflow still on:
 * no hang, and overflow keeps working for the sets that follow.
 *
 * PAPI frees a thread's event sets in PAPI_unregister_thread (and
 * PAPI_shutdown frees those left) through _papi_hwi_thread_free_eventsets,
 * with its INTERNAL_LOCK held; it empties each set through the
 * component's update_control_state.  The component once turned the
 * overflow signal off there (_papi_hwi_stop_signal, which takes the same
 * lock): a set freed with overflow on spun for ever (seen on a thread that
 * unregistered without PAPI_overflow(..., 0) first).  Checked, each step
 * with its own set:
 *  1. a thread counts PAPI_TOT_INS with overflow at T over
 *     nbdiff_loop4(N), stops, and unregisters without turning overflow
 *     off: PAPI_unregister_thread returns PAPI_OK; its overflows are
 *     floor(count / T) (+1 in PAPI_stop's tail, thread_overflow.c);
 *  2. afterwards another thread does the same with overflow turned off
 *     and its set destroyed first: the PMI still reaches it (the first
 *     thread's release left the PMI on for no one and off for nothing);
 *  3. the main thread: a set with overflow on left for PAPI_shutdown,
 *     which returns; PAPI_library_init again, and overflow on a new set
 *     gets its interrupts.
 * A hang is caught by the harness's timeout (tests/api/t_overflow_teardown.t).
 *
 *   overflow_teardown [handler-counted]   (the perf backend: the handler's
 *                                          instructions are counted)
 */
#include "nbthreads.h"

#define T 10007
#define N 99000L
#define TAIL 200                /* PAPI_stop's instructions after its read */

struct res {
	long long count;
	long ovf, wrong;
	int err, unreg;
	char why[160];
};
static struct res res[2];
/* the perf backend: PAPI's handler runs in user mode and is counted
 * (t_overflow_counts_perf.t measures about 250 instructions per overflow);
 * the bound allows 400 */
static long handler_ins;

/* count PAPI_TOT_INS over nbdiff_loop4(N) with overflow at T on set *es */
static void run_ovf(struct res *r, int *es)
{
	long long v[1];
	int e;

	*es = PAPI_NULL;
	nbt_es = PAPI_NULL;
	nbt_novf = nbt_wrong = 0;
	if ((e = PAPI_create_eventset(es)) != PAPI_OK ||
	    (e = PAPI_add_named_event(*es, "PAPI_TOT_INS")) != PAPI_OK) {
		NBT_FAIL(r, "event set", e);
		return;
	}
	nbt_es = *es;
	if ((e = PAPI_overflow(*es, PAPI_TOT_INS, T, 0, nbt_ovf_handler)) != PAPI_OK) {
		NBT_FAIL(r, "PAPI_overflow", e);
		return;
	}
	if ((e = PAPI_start(*es)) != PAPI_OK) {
		NBT_FAIL(r, "PAPI_start", e);
		return;
	}
	nbdiff_loop4(N);
	if ((e = PAPI_stop(*es, v)) != PAPI_OK) {
		NBT_FAIL(r, "PAPI_stop", e);
		return;
	}
	r->count = v[0];
	r->ovf = nbt_novf;
	r->wrong = nbt_wrong;
}

/* A thread's run; then, with ovf_off, overflow off and the set destroyed,
 * else left as it is (overflow on): PAPI frees it at unregistering. */
struct job {
	struct res *r;
	int ovf_off;
};

static void *thread_main(void *arg)
{
	const struct job *j = arg;
	int es, e;

	if ((e = PAPI_register_thread()) != PAPI_OK) {
		NBT_FAIL(j->r, "PAPI_register_thread", e);
		return NULL;
	}
	run_ovf(j->r, &es);
	if (j->ovf_off)
		nbt_ovf_destroy(&es, PAPI_TOT_INS, nbt_ovf_handler);
	j->r->unreg = PAPI_unregister_thread();
	return NULL;
}

/* the overflows of a run: floor(count / T), one more in PAPI_stop's tail */
static void check(const char *what, const struct res *r)
{
	long want = (long)(r->count / T);
	int tail = r->count % T >= T - TAIL;

	if (r->err) {
		tap_ok(0, "%s: %s", what, r->why);
		tap_ok(0, "%s: no run", what);
		return;
	}
	tap_ok(r->count >= N * NBDIFF_LOOP4_INS &&
	       r->count < N * NBDIFF_LOOP4_INS + 2000 + r->ovf * handler_ins,
	       "%s: PAPI_TOT_INS %lld (the loop's %ld and PAPI's calls around it%s)", what, r->count,
	       N * NBDIFF_LOOP4_INS, handler_ins ? ", the handler's" : "");
	tap_ok(r->wrong == 0 && (r->ovf == want || (tail && r->ovf == want + 1)),
	       "%s: %ld overflows, floor(count / %d) = %ld%s, none for another set", what, r->ovf, T,
	       want, tail ? " (+1 in PAPI_stop's tail)" : "");
}

static void spawn(struct res *r, int ovf_off)
{
	struct job j = { r, ovf_off };
	pthread_t t;

	if (pthread_create(&t, NULL, thread_main, &j))
		tap_bail("pthread_create");
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	struct res m;
	int es;

	if (argc > 1 && !strcmp(argv[1], "handler-counted"))
		handler_ins = 400;

	tap_plan(11);
	nbt_papi_init();
	spawn(&res[0], 0);
	check("thread unregistering with overflow on", &res[0]);
	tap_is(res[0].unreg, PAPI_OK, "... PAPI_unregister_thread returns PAPI_OK (it hung)");
	spawn(&res[1], 1);
	check("next thread, overflow off before unregistering", &res[1]);
	tap_is(res[1].unreg, PAPI_OK, "... PAPI_unregister_thread returns PAPI_OK");

	memset(&m, 0, sizeof m);
	run_ovf(&m, &es);
	check("main thread, set left with overflow on", &m);
	PAPI_shutdown();
	tap_is(PAPI_is_initialized(), PAPI_NOT_INITED,
	       "PAPI_shutdown with an overflowing set returns; PAPI is not initialised");
	memset(&m, 0, sizeof m);
	nbt_papi_init();
	run_ovf(&m, &es);
	check("after PAPI_library_init again", &m);
	return tap_exit();
}
