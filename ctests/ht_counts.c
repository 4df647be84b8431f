/*
 * ht_counts.c - Hyper-Threading under nbsim --ht=yes, through the public
 * PAPI API: two threads on the two logical processors (LP0, LP1) of one
 * package count at the same time, each in its own event set.
 *
 * nbsim places ThreadId 1 (main) on LP0 and ThreadId 2 (the thread main
 * creates) on LP1 (sim/README.md "Hyper-Threading").  The PMU registers are
 * shared: the component gives each event set the ESCR bits of its LP
 * (T0_USR or T1_USR) and schedules it around what the sibling LP holds, so
 * both sets run at once and each counts only its own thread.  Exact by the
 * difference method with PAPI_read while both sets run: the loop of
 * exact_counts.c (4 instructions, 1 taken branch per iteration).  Then
 * the CCCR ActiveThread modes [SDM 18.16.1]: with both LPs active,
 * "both" counts and "single" does not; after the second thread has exited,
 * the reverse.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include "papi.h"
#include "nbdiff.h"
#include "../sim/nbsim_client.h"

#define N1 1000
#define N2 5000
#define NEV 2

static pthread_barrier_t bar;

struct res {
	unsigned lp, apic, lps_per_pkg, htt;
	long long d[NEV];          /* differences (N2 run) - (N1 run) */
	long long at;              /* the same with an ActiveThread modifier */
	int err;
	char why[160];
};

/* the loop: nbdiff_loop4 (nbdiff.h) */
#define loop nbdiff_loop4

/* Taken branches with either prediction: the branch predictor is shared by
 * the LPs, so the other thread changes predictions, not outcomes.
 * instr_retired can use CRU_ESCR0 or CRU_ESCR1, branch_retired CRU_ESCR2
 * or CRU_ESCR3: one of each per LP.  (A third CRU_ESCR0/1 event such as
 * uops_retired in both sets could not be placed: 4 ESCR configurations,
 * 2 ESCRs.) */
static const char *const evs[NEV] = {
	"p4netburst:::instr_retired:NBOGUSNTAG",
	"p4netburst:::branch_retired:MMTP:MMTM",
};
static const long long per_iter[NEV] = { 4, 1 };

/* The same code around every read, so that it cancels in the difference. */
static __attribute__((noinline)) void rd(int es, long long *v, int *e)
{
	int r = PAPI_read(es, v);
	if (r != PAPI_OK)
		*e = r;
}

/* Barriers: each synchronised phase waits 3 times (sets added, started,
 * measured); a thread that fails waits out the rest. */
#define PHASES 2
static __thread int passed;

static void sync_wait(int sync)
{
	if (sync) {
		pthread_barrier_wait(&bar);
		passed++;
	}
}

/*
 * One event set of names[0..n-1]: add, start, 3 warm-up rounds and a
 * measured round of PAPI_read / loop(N1) / PAPI_read / loop(N2) / PAPI_read,
 * stop.  d[i] = (count over N2) - (count over N1).  sync: the two threads
 * go through it together.  0 or a PAPI error.
 */
static int phase(const char *const *names, int n, long long *d, int sync)
{
	long long v0[NEV], v1[NEV], v2[NEV];
	int es = PAPI_NULL, e;

	if ((e = PAPI_create_eventset(&es)) != PAPI_OK)
		return e;
	for (int i = 0; i < n; i++)
		if ((e = PAPI_add_named_event(es, names[i])) != PAPI_OK)
			return e;
	/* both threads have added their events (scheduled around each
	 * other's); start; both sets then run through the measurement */
	sync_wait(sync);
	if ((e = PAPI_start(es)) != PAPI_OK)
		return e;
	sync_wait(sync);
	for (int k = 0; k < 4; k++) {
		/* sched_yield: the other thread runs inside the measured
		 * intervals; its events must not reach our counters */
		rd(es, v0, &e);
		loop(N1);
		sched_yield();
		rd(es, v1, &e);
		loop(N2);
		sched_yield();
		rd(es, v2, &e);
	}
	if (e != PAPI_OK)
		return e;
	for (int i = 0; i < n; i++)
		d[i] = (v2[i] - v1[i]) - (v1[i] - v0[i]);
	sync_wait(sync);
	PAPI_stop(es, v0);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return PAPI_OK;
}

/* ActiveThread while both LPs are active: "both" counts, "single" not. */
static const char *const at_both[2][1] = {
	{ "p4netburst:::instr_retired:NBOGUSNTAG:thread=both" },
	{ "p4netburst:::instr_retired:NBOGUSNTAG:thread=single" },
};

static void *worker(void *arg)
{
	struct res *r = arg;
	struct nbsim_info info;
	unsigned a, b, c, d;
	int e;

	memset(&info, 0, sizeof info);
	nbsim_info(&info);
	r->lp = info.logical_cpu;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	r->apic = b >> 24;
	r->lps_per_pkg = (b >> 16) & 0xff;
	r->htt = (d >> 28) & 1;
	if ((e = PAPI_register_thread()) != PAPI_OK ||
	    (e = phase(evs, NEV, r->d, 1)) != PAPI_OK ||
	    (e = phase(at_both[r->lp & 1], 1, &r->at, 1)) != PAPI_OK)
		goto fail;
	PAPI_unregister_thread();
	return NULL;
fail:
	r->err = e;
	snprintf(r->why, sizeof r->why, "%s", PAPI_strerror(e));
	/* keep the other thread from waiting forever */
	while (passed < 3 * PHASES)
		sync_wait(1);
	return NULL;
}

int main(void)
{
	struct res r[2];
	struct nbsim_info info;
	pthread_t t;
	int e;

	tap_plan(11);
	memset(r, 0, sizeof r);
	memset(&info, 0, sizeof info);
	if (!nbsim_present() || nbsim_info(&info) != NBSIM_OK || !info.ht)
		tap_bail("needs nbsim --ht=yes");
	if ((e = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(e));
	if ((e = PAPI_thread_init(pthread_self)) != PAPI_OK)
		tap_bail("PAPI_thread_init: %s", PAPI_strerror(e));
	pthread_barrier_init(&bar, NULL, 2);
	if (pthread_create(&t, NULL, worker, &r[1]))
		tap_bail("pthread_create");
	worker(&r[0]);
	pthread_join(t, NULL);
	for (int k = 0; k < 2; k++)
		if (r[k].err)
			tap_bail("thread %d: %s", k, r[k].why);
	tap_ok(r[0].lp == 0 && r[1].lp == 1, "INFO: main thread on LP0, second thread on LP1 (%u, %u)",
	       r[0].lp, r[1].lp);
	tap_ok(r[0].apic == 0 && r[1].apic == 1, "CPUID.1:EBX[31:24] initial APIC ID = LP (%u, %u)",
	       r[0].apic, r[1].apic);
	tap_ok(r[0].lps_per_pkg == 2 && r[1].lps_per_pkg == 2 && r[0].htt && r[1].htt,
	       "CPUID.1: 2 logical processors per package, HTT set");
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < NEV; i++)
			tap_is(r[k].d[i], (N2 - N1) * per_iter[i],
			       "LP%d: %s counts only its own thread: %lld x %d", k, evs[i],
			       per_iter[i], N2 - N1);
	tap_is(r[0].at, (N2 - N1) * 4, "both LPs active: LP0's instr_retired with thread=both counts");
	tap_is(r[1].at, 0, "both LPs active: LP1's instr_retired with thread=single counts nothing");
	{
		/* LP1's thread has exited: only LP0 is active */
		static const char *const at_one[2] = {
			"p4netburst:::instr_retired:NBOGUSNTAG:thread=single",
			"p4netburst:::instr_retired:NBOGUSNTAG:thread=both",
		};
		long long dd[2];
		if ((e = phase(at_one, 2, dd, 0)) != PAPI_OK)
			tap_bail("LP0 alone: %s", PAPI_strerror(e));
		tap_is(dd[0], (N2 - N1) * 4, "LP0 alone: thread=single counts");
		tap_is(dd[1], 0, "LP0 alone: thread=both counts nothing");
	}
	PAPI_shutdown();
	return tap_exit();
}
