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
 * thread_pebs stops: under --ht=yes, IA32_PEBS_ENABLE and MATRIX_VERT are
 * the package's.  Thread 0 (LP0) counts the same event, not precise and
 * without overflow, around one chase of STOPS_N loads, while thread 1
 * (LP1) starts and stops its own set of it over and over, as long as
 * thread 0 chases.  Thread 0 must count all its loads: a stop (or
 * start) that wrote the package's MSRs without thread 0's tagging bits,
 * even for a moment, left its loads untagged while it ran meanwhile
 * (before, the stop wrote 0 and then, under a lock, both LPs' bits: in
 * that window the other LP's threads counted nothing, as the host's
 * scheduling had it).  No PMI is armed, so nbsim's lockstep orders the
 * threads (a turn every 20,000 instructions) and its turns fall inside
 * thread 1's stops: the old stop failed this in every run.
 *
 *   thread_pebs NTHREADS
 *   thread_pebs stops
 */
#include <sched.h>
#include "nbthreads.h"
#include "chase.h"

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
	int chunks = 10 + 2 * i;
	int e, code = 0;

	me = i;
	r->lp = nbt_lp();
	my_es = PAPI_NULL;
	if ((e = PAPI_create_eventset(&my_es)) != PAPI_OK || (e = PAPI_add_named_event(my_es, EV)) != PAPI_OK ||
	    (e = PAPI_event_name_to_code(EV, &code)) != PAPI_OK ||
	    (e = PAPI_overflow(my_es, code, TP, 0, handler)) != PAPI_OK) {
		NBT_FAIL(r, "setup", e);
		nbt_sync(sync);
		return;
	}
	nbt_sync(sync);
	nsamp = own = foreign = other = wrong_es = 0;
	if ((e = PAPI_start(my_es)) != PAPI_OK)
		return NBT_FAIL(r, "PAPI_start", e);
	for (int k = 0; k < chunks; k++) {
		chase[i](ring[i], CH);
		sched_yield();
	}
	r->n = CH * chunks;
	if ((e = PAPI_stop(my_es, &r->count)) != PAPI_OK)
		return NBT_FAIL(r, "PAPI_stop", e);
	r->samp = nsamp;
	r->own = own;
	r->foreign = foreign;
	r->other = other;
	r->wrong_es = wrong_es;
	nbt_ovf_destroy(&my_es, code, handler);
}

/* ---- thread_pebs stops ---- */

#define EV_PLAIN "p4netburst:::1stL_cache_load_miss_retired"
#define STOPS_N (CH * 200)
#define STOPS_MAX 100000
static volatile int chasing;
static long stops;

static int plain_set(int *es)
{
	*es = PAPI_NULL;
	return PAPI_create_eventset(es) != PAPI_OK ? PAPI_EINVAL : PAPI_add_named_event(*es, EV_PLAIN);
}

static void stops_run(int i)
{
	struct res *r = &res[i];
	int es, e;

	r->lp = nbt_lp();
	if ((e = plain_set(&es)) != PAPI_OK) {
		NBT_FAIL(r, "setup", e);
		chasing = 0;
		nbt_sync(1);
		return;
	}
	if (i == 0)
		chasing = 1;
	nbt_sync(1);
	if (i == 0) {
		if ((e = PAPI_start(es)) != PAPI_OK)
			NBT_FAIL(r, "PAPI_start", e);
		else {
			chase[0](ring[0], STOPS_N);
			r->n = STOPS_N;
			if ((e = PAPI_stop(es, &r->count)) != PAPI_OK)
				NBT_FAIL(r, "PAPI_stop", e);
		}
		chasing = 0;
	} else {
		long long v;
		/* (a cycle of a few thousand instructions: many of the
		 * lockstep's turns fall inside a stop) */
		while (chasing && stops < STOPS_MAX) {
			if ((e = PAPI_start(es)) != PAPI_OK || (e = PAPI_stop(es, &v)) != PAPI_OK) {
				NBT_FAIL(r, "start/stop", e);
				break;
			}
			stops++;
		}
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static int stops_main(void)
{
	struct res *r = &res[0];

	tap_plan(2);
	nbt_run(2, stops_run);
	tap_ok(!res[1].err && stops > 0 && res[1].lp == 1, "thread 1 (LP%u) started and stopped its set %ld times%s%s",
	       res[1].lp, stops, res[1].err ? ": " : "", res[1].err ? res[1].why : "");
	if (r->err)
		tap_ok(0, "thread 0: %s", r->why);
	else
		tap_ok(r->count >= r->n && r->count < r->n + TP,
		       "thread 0 (LP%u): count %lld = its %ld missing loads + %lld of PAPI's own "
		       "(0 <= that < %d), while thread 1 started and stopped its own", r->lp, r->count, r->n,
		       r->count - r->n, TP);
	PAPI_shutdown();
	return tap_exit();
}

/* thread i of the run */
static void run(int i)
{
	work(i, &res[i], 1);
}

int main(int argc, char **argv)
{
	int st = argc > 1 && !strcmp(argv[1], "stops");
	int nt = st ? 2 : nbt_nthreads(argc, argv, MAXT);

	if (!st)
		tap_plan(3 * nt);
	if (!nbsim_present())
		tap_bail("needs nbsim");
	for (int i = 0; i < nt; i++)
		if (!(ring[i] = chase_ring()))
			tap_bail("no memory for the chase");
	nbt_papi_init();
	if (st)
		return stops_main();
	/* a warm-up (not checked) */
	work(0, &res[0], 0);
	memset(&res[0], 0, sizeof res[0]);
	nbt_run(nt, run);
	for (int i = 0; i < nt; i++) {
		struct res *r = &res[i];

		if (r->err) {
			nbt_no_run(i, r->why, 3);
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
