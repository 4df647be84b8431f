/*
 * remove_event.c - PAPI_remove_event: the events left read their own
 * counts, and overflow on an event after the removed one keeps working.
 *
 * PAPI 7.0.0 compacted the set's natives and asked the component for the
 * new placement, but never mapped the events left to their natives' new
 * positions; overflow was put back before the event list was compacted
 * (patches/papi-7.0.0-remove-positions.patch).  Checked:
 *  1. PAPI_TOT_INS, PAPI_BR_INS, PAPI_TOT_CYC over nbdiff_loop4(N); remove
 *     PAPI_TOT_INS; over nbdiff_loop4(2N) PAPI_BR_INS is 2N and some and
 *     PAPI_TOT_CYC more than 1.5 times the first run's (before: the first
 *     run's count, from a position no longer there); PAPI_TOT_INS added
 *     back reads its own count;
 *  2. a native in the middle of three removed: the last reads its own
 *     count;
 *  3. PAPI_TOT_CYC, PAPI_BR_INS, PAPI_TOT_INS with overflow on
 *     PAPI_TOT_INS; remove PAPI_TOT_CYC: PAPI_OK (before: PAPI_EINVAL,
 *     the set left half removed), both events count, and the overflows
 *     are floor(count / T), each naming PAPI_TOT_INS (index 1 now).
 *
 *   remove_event [handler-counted]   (the perf backend: the handler's
 *                                     instructions are counted)
 */
#include "nbthreads.h"

#define N 100000L
#define T 10007
#define TAIL 200                /* PAPI_stop's instructions after its read */

static long handler_ins;
static long novf, nwrong;

static void handler(int es, void *pc, long long vec, void *ctx)
{
	int idx[4], n = 4;

	(void)pc;
	(void)ctx;
	novf++;
	if (PAPI_get_overflow_event_index(es, vec, idx, &n) != PAPI_OK || n != 1 || idx[0] != 1)
		nwrong++;
}

static int add_all(int es, const char *const *names, int n)
{
	int e;

	for (int i = 0; i < n; i++)
		if ((e = PAPI_add_named_event(es, names[i])) != PAPI_OK)
			tap_bail("add %s: %s", names[i], PAPI_strerror(e));
	return PAPI_OK;
}

static void run(int es, long n, long long *v)
{
	int e;

	if ((e = PAPI_start(es)) != PAPI_OK)
		tap_bail("PAPI_start: %s", PAPI_strerror(e));
	nbdiff_loop4(n);
	if ((e = PAPI_stop(es, v)) != PAPI_OK)
		tap_bail("PAPI_stop: %s", PAPI_strerror(e));
}

int main(int argc, char **argv)
{
	static const char *const set1[] = { "PAPI_TOT_INS", "PAPI_BR_INS", "PAPI_TOT_CYC" };
	static const char *const set2[] = {
		"p4netburst:::instr_retired:NBOGUSNTAG:NBOGUSTAG",
		"p4netburst:::branch_retired:MMTP:MMTM",
		"p4netburst:::global_power_events:RUNNING",
	};
	static const char *const set3[] = { "PAPI_TOT_CYC", "PAPI_BR_INS", "PAPI_TOT_INS" };
	long long v[3], v1[3];
	int es, e;

	if (argc > 1 && !strcmp(argv[1], "handler-counted"))
		handler_ins = 400;
	tap_plan(9);
	nbt_papi_init();

	/* 1. presets: remove the first */
	es = PAPI_NULL;
	if (PAPI_create_eventset(&es) != PAPI_OK)
		tap_bail("PAPI_create_eventset");
	add_all(es, set1, 3);
	run(es, N, v1);
	e = PAPI_remove_named_event(es, "PAPI_TOT_INS");
	tap_is(e, PAPI_OK, "PAPI_remove_event(PAPI_TOT_INS) of PAPI_TOT_INS, PAPI_BR_INS, PAPI_TOT_CYC");
	memset(v, 0, sizeof v);
	run(es, 2 * N, v);
	tap_ok(v[0] >= 2 * N && v[0] < 2 * N + 1000,
	       "... then PAPI_BR_INS over 2N iterations: %lld (N = %ld)", v[0], N);
	tap_ok(v[1] > v1[2] + v1[2] / 2,
	       "... and PAPI_TOT_CYC %lld, more than 1.5 x the N run's %lld (not that run's count)",
	       v[1], v1[2]);
	/* the removed event back: its own count (before, PAPI matched it to
	 * the stale code of the native that took its slot) */
	e = PAPI_add_named_event(es, "PAPI_TOT_INS");
	memset(v, 0, sizeof v);
	if (e == PAPI_OK)
		run(es, N, v);
	tap_ok(e == PAPI_OK && v[0] >= N && v[0] < N + 1000 && v[2] >= N * NBDIFF_LOOP4_INS &&
	       v[2] < N * NBDIFF_LOOP4_INS + 2000,
	       "... PAPI_TOT_INS added again: %lld over N (%ld), PAPI_BR_INS %lld%s%s", v[2],
	       N * NBDIFF_LOOP4_INS, v[0], e ? ": " : "", e ? PAPI_strerror(e) : "");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	/* 2. natives: remove the middle one */
	es = PAPI_NULL;
	if (PAPI_create_eventset(&es) != PAPI_OK)
		tap_bail("PAPI_create_eventset");
	add_all(es, set2, 3);
	run(es, N, v1);
	e = PAPI_remove_named_event(es, set2[1]);
	memset(v, 0, sizeof v);
	if (e == PAPI_OK)
		run(es, 2 * N, v);
	tap_ok(e == PAPI_OK && v[0] >= 2 * N * NBDIFF_LOOP4_INS && v[0] < 2 * N * NBDIFF_LOOP4_INS + 2000 &&
	       v[1] > v1[2] + v1[2] / 2,
	       "natives, the middle one removed: instr_retired %lld over 2N (%ld), cycles %lld "
	       "> 1.5 x the N run's %lld", v[0], 2 * N * NBDIFF_LOOP4_INS, v[1], v1[2]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	/* 3. overflow on an event after the removed one */
	es = PAPI_NULL;
	if (PAPI_create_eventset(&es) != PAPI_OK)
		tap_bail("PAPI_create_eventset");
	add_all(es, set3, 3);
	if ((e = PAPI_overflow(es, PAPI_TOT_INS, T, 0, handler)) != PAPI_OK)
		tap_bail("PAPI_overflow: %s", PAPI_strerror(e));
	e = PAPI_remove_named_event(es, "PAPI_TOT_CYC");
	tap_is(e, PAPI_OK, "PAPI_remove_event(PAPI_TOT_CYC) with overflow on PAPI_TOT_INS after it");
	tap_is(PAPI_num_events(es), 2, "... two events left");
	memset(v, 0, sizeof v);
	novf = nwrong = 0;
	if ((e = PAPI_start(es)) == PAPI_OK) {
		nbdiff_loop4(N);
		e = PAPI_stop(es, v);
	}
	{
		long want = (long)(v[1] / T);
		int tail = v[1] % T >= T - TAIL;

		tap_ok(e == PAPI_OK && v[0] >= N && v[0] < N + 1000 + novf * handler_ins / 4 &&
		       v[1] >= N * NBDIFF_LOOP4_INS &&
		       v[1] < N * NBDIFF_LOOP4_INS + 2000 + novf * handler_ins,
		       "... PAPI_BR_INS %lld, PAPI_TOT_INS %lld (the loop's %ld and %ld)", v[0], v[1],
		       N, N * NBDIFF_LOOP4_INS);
		tap_ok(nwrong == 0 && (novf == want || (tail && novf == want + 1)),
		       "... %ld overflows, floor(count / %d) = %ld%s, each of index 1 (%ld not)", novf,
		       T, want, tail ? " (+1 in PAPI_stop's tail)" : "", nwrong);
	}
	PAPI_overflow(es, PAPI_TOT_INS, 0, 0, handler);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return tap_exit();
}
