/*
 * running_teardown.c - event sets PAPI frees while they run: their
 * registers and the PMI go back, so that the sets that follow are placed
 * as if they had never been.
 *
 * A thread that calls PAPI_unregister_thread without PAPI_stop has its
 * running sets freed by PAPI (_papi_hwi_thread_free_eventsets), which
 * empties each through the component's update_control_state.  The
 * component refused that with PAPI_EISRUN, which PAPI ignores there: the
 * set's ESCRs and counters stayed held in the component's per-LP record
 * (lp_busy), and under Hyper-Threading the other logical processor's sets
 * were placed around registers no one used, even after PAPI_shutdown and
 * PAPI_library_init (the record is the component's, not PAPI's).  With
 * the seven presets below, the main thread on LP0 then could not add even
 * PAPI_TOT_INS.  A thread that exits with a running set without
 * unregistering never has it freed (PAPI_shutdown frees the sets by the
 * caller's thread): the component forgets every set's registers at
 * PAPI_shutdown.  Checked, run under nbsim --ht=yes (threads 1, 2, ... on
 * LP1, the main thread on LP0):
 *  1. a thread on LP1 starts the seven presets with overflow on
 *     PAPI_TOT_INS and unregisters without PAPI_stop: PAPI_OK;
 *  2. the main thread on LP0 adds and starts the same seven, and its
 *     overflow on PAPI_TOT_INS comes floor(count / T) times (the PMI
 *     released by the freed set is acquired again);
 *  3. a thread on LP1 starts them and exits without unregistering;
 *     PAPI_shutdown, PAPI_library_init, and the main thread adds and
 *     starts the seven again.
 *
 *   running_teardown [handler-counted]   (the perf backend: no HT; the
 *                                         handler's instructions counted)
 */
#include "nbthreads.h"

#define T 10007
#define N 99000L
#define TAIL 200                /* PAPI_stop's instructions after its read */
#define NEV 7

static const int evs[NEV] = {
	PAPI_TOT_INS, PAPI_BR_INS, PAPI_TOT_CYC, PAPI_L1_DCM,
	PAPI_BR_MSP, PAPI_L2_TCM, PAPI_TLB_IM,
};
static int nev = NEV;           /* the perf backend: the first three */
static long handler_ins;

struct res {
	int unregister;         /* the thread unregisters (without PAPI_stop) */
	int err, nadd, start, unreg;
	unsigned lp;
	char why[160];
};

/* a set of the events: how many add (stops at the first that does not) */
static int make(int *es, int *err)
{
	int n = 0, e;

	*es = PAPI_NULL;
	if ((e = PAPI_create_eventset(es)) != PAPI_OK) {
		*err = e;
		return 0;
	}
	while (n < nev && (e = PAPI_add_event(*es, evs[n])) == PAPI_OK)
		n++;
	if (n < nev)
		*err = e;
	return n;
}

/* a thread that starts the set (overflow on PAPI_TOT_INS) and leaves it
 * running: unregistering or not (r->unregister) */
static struct res tres[2];

static void *leaver(void *arg)
{
	struct res *r = arg;
	int es, e;

	if ((e = PAPI_register_thread()) != PAPI_OK) {
		NBT_FAIL(r, "PAPI_register_thread", e);
		return NULL;
	}
	if ((r->nadd = make(&es, &e)) < nev) {
		NBT_FAIL(r, "add event", e);
		return NULL;
	}
	nbt_es = es;
	if ((e = PAPI_overflow(es, PAPI_TOT_INS, T, 0, nbt_ovf_handler)) != PAPI_OK) {
		NBT_FAIL(r, "PAPI_overflow", e);
		return NULL;
	}
	if ((r->start = PAPI_start(es)) != PAPI_OK) {
		NBT_FAIL(r, "PAPI_start", r->start);
		return NULL;
	}
	nbdiff_loop4(N / 10);
	r->lp = nbt_lp();
	if (r->unregister)
		r->unreg = PAPI_unregister_thread();
	return NULL;
}

static void spawn(struct res *r, int unregister)
{
	pthread_t t;

	r->unregister = unregister;
	if (pthread_create(&t, NULL, leaver, r))
		tap_bail("pthread_create");
	pthread_join(t, NULL);
}

static void check_leaver(const char *what, const struct res *r, int ht)
{
	tap_ok(!r->err, "%s: started the %d events%s%s", what, nev, r->err ? ": " : "",
	       r->err ? r->why : "");
	if (ht)
		tap_is(r->lp, 1, "... on logical processor 1");
}

int main(int argc, char **argv)
{
	struct nbsim_info info;
	long long v[NEV];
	int es, e = 0, n, ht;

	if (argc > 1 && !strcmp(argv[1], "handler-counted")) {
		handler_ins = 400;
		nev = 3;        /* the kernel's first-fit places these */
	}
	memset(&info, 0, sizeof info);
	(void)nbsim_info(&info);
	ht = info.ht && !handler_ins;

	tap_plan(ht ? 11 : 9);
	nbt_papi_init();

	/* 1. unregister with the set running */
	spawn(&tres[0], 1);
	check_leaver("thread unregistering with its set running", &tres[0], ht);
	tap_is(tres[0].unreg, PAPI_OK, "... PAPI_unregister_thread returns PAPI_OK");

	/* 2. the main thread: the same events, overflow */
	n = make(&es, &e);
	tap_ok(n == nev, "main thread%s: %d of the %d events add%s%s", ht ? " (LP0)" : "", n, nev,
	       e ? ": " : "", e ? PAPI_strerror(e) : "");
	nbt_es = es;
	nbt_novf = nbt_wrong = 0;
	if (n == nev && (e = PAPI_overflow(es, PAPI_TOT_INS, T, 0, nbt_ovf_handler)) == PAPI_OK &&
	    (e = PAPI_start(es)) == PAPI_OK) {
		long want;
		int tail;

		nbdiff_loop4(N);
		e = PAPI_stop(es, v);
		want = (long)(v[0] / T);
		tail = v[0] % T >= T - TAIL;
		tap_ok(e == PAPI_OK && v[0] >= N * NBDIFF_LOOP4_INS &&
		       v[0] < N * NBDIFF_LOOP4_INS + 2000 + nbt_novf * handler_ins,
		       "... PAPI_TOT_INS %lld (the loop's %ld)", v[0], N * NBDIFF_LOOP4_INS);
		tap_ok(nbt_wrong == 0 && (nbt_novf == want || (tail && nbt_novf == want + 1)),
		       "... %ld overflows, floor(count / %d) = %ld%s", nbt_novf, T, want,
		       tail ? " (+1 in PAPI_stop's tail)" : "");
	} else {
		tap_ok(0, "... started: %s", PAPI_strerror(e));
		tap_ok(0, "... no overflows");
	}
	nbt_ovf_destroy(&es, PAPI_TOT_INS, nbt_ovf_handler);

	/* 3. a thread exits with its set running, not unregistered */
	spawn(&tres[1], 0);
	check_leaver("thread exiting with its set running", &tres[1], ht);
	PAPI_shutdown();
	tap_is(PAPI_is_initialized(), PAPI_NOT_INITED, "PAPI_shutdown returns");
	nbt_papi_init();
	e = 0;
	n = make(&es, &e);
	tap_ok(n == nev, "after PAPI_library_init again: %d of the %d events add%s%s", n, nev,
	       e ? ": " : "", e ? PAPI_strerror(e) : "");
	e = n == nev ? PAPI_start(es) : e;
	if (e == PAPI_OK) {
		nbdiff_loop4(N);
		e = PAPI_stop(es, v);
	}
	tap_ok(e == PAPI_OK && v[0] >= N * NBDIFF_LOOP4_INS && v[0] < N * NBDIFF_LOOP4_INS + 2000,
	       "... they count: PAPI_TOT_INS %lld%s%s", e == PAPI_OK ? v[0] : 0LL,
	       e ? ": " : "", e ? PAPI_strerror(e) : "");
	return tap_exit();
}
