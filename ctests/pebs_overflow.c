/*
 * pebs_overflow.c - precise overflow (PEBS) through the public PAPI API on
 * the simulated NetBurst (tests/api/t_pebs_overflow.t, nbsim --model=prescott).
 *
 * PAPI_overflow on 1stL_cache_load_miss_retired:precise (replay tagging
 * of L1D load misses, sampled by PEBS on counter 16) around a pointer
 * chase over 64 KB at a 64-byte stride, where every load misses the L1D.
 * The component hands PAPI the address of each PEBS record.  Checked:
 *  - the samples' addresses are the tagged load instruction of the loop
 *    (all but those of loads in PAPI's own handler, which miss too and
 *    are sampled as on hardware: at least 95%);
 *  - one sample per threshold tagged loads, so about count / threshold;
 *  - the count PAPI_stop returns is the one without overflow (the
 *    component adds back the threshold events each PEBS reload hides),
 *    plus the handler's own misses;
 *  - a plain (not precise) event's overflow PC is the interrupted PC;
 *  - beside four IQ events (one of which the scheduler puts on counter 16
 *    when nothing is precise) the precise event still gets counter 16 and
 *    samples the loop's load;
 *  - a second precise event in the set: PAPI_ECNFLCT (one counter 16).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"
#include "nbtap.h"
#include "chase.h"

#define T 1000
#define N 200000L

extern char pebs_ld[];
static long nsamp, nat;

CHASE_FN(chase, pebs_ld)

static void handler(int es, void *pc, long long vec, void *ctx)
{
	(void)es; (void)ctx;
	if (vec) {           /* the precise event: the only overflowing one */
		nsamp++;
		nat += (char *)pc == pebs_ld;
	}
}

int main(void)
{
	int es = PAPI_NULL, r;
	long long plain = 0, v = 0;
	char *buf = chase_ring();

	if (!buf)
		tap_bail("no memory for the chase");

	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %d", r);
	if (PAPI_create_eventset(&es) != PAPI_OK ||
	    (r = PAPI_add_named_event(es, "p4netburst:::1stL_cache_load_miss_retired:precise")) != PAPI_OK)
		tap_bail("add 1stL_cache_load_miss_retired:precise: %s", PAPI_strerror(r));
	PAPI_start(es);
	chase(buf, N);
	PAPI_stop(es, &plain);
	PAPI_start(es);
	chase(buf, N);
	PAPI_stop(es, &plain);
	tap_ok(plain >= N && plain < N + 1000, "without overflow: %lld L1D load misses (%ld loads)", plain, N);

	{
		int code = 0;
		if (PAPI_event_name_to_code("p4netburst:::1stL_cache_load_miss_retired:precise", &code) != PAPI_OK ||
		    (r = PAPI_overflow(es, code, T, 0, handler)) != PAPI_OK)
			tap_bail("PAPI_overflow (precise): %s", PAPI_strerror(r));
	}
	PAPI_start(es);
	chase(buf, N);
	PAPI_stop(es, &v);
	tap_ok(nsamp > 0 && nat * 100 >= nsamp * 95,
	       "%ld of %ld PEBS samples at the tagged load of the loop", nat, nsamp);
	tap_ok(nsamp >= v / T - 2 && nsamp <= v / T + 1,
	       "one sample per %d tagged loads: %ld samples, count %lld", T, nsamp, v);
	tap_ok(v >= plain && v - plain <= nsamp * 100,
	       "count with PEBS %lld = without %lld + the handler's own misses", v, plain);
	PAPI_overflow(es, 0, 0, 0, handler);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	/* the scheduler keeps counter 16 for the precise event */
	{
		static const char *const iq[] = {
			"p4netburst:::instr_retired:NBOGUSNTAG", "p4netburst:::uops_retired:NBOGUS",
			"p4netburst:::branch_retired:MMTP", "p4netburst:::resource_stall:SBFULL",
			"p4netburst:::1stL_cache_load_miss_retired:precise",
		};
		int code = 0;

		es = PAPI_NULL;
		if (PAPI_create_eventset(&es) != PAPI_OK)
			tap_bail("PAPI_create_eventset");
		for (int i = 0; i < 5; i++)
			if ((r = PAPI_add_named_event(es, iq[i])) != PAPI_OK)
				tap_bail("add %s: %s", iq[i], PAPI_strerror(r));
		if (PAPI_event_name_to_code(iq[4], &code) != PAPI_OK ||
		    (r = PAPI_overflow(es, code, T, 0, handler)) != PAPI_OK)
			tap_bail("PAPI_overflow (precise, five events): %s", PAPI_strerror(r));
		nsamp = nat = 0;
		{
			long long vv[5];

			PAPI_start(es);
			chase(buf, N);
			PAPI_stop(es, vv);
			tap_ok(nsamp > 0 && nat * 100 >= nsamp * 95 && nsamp >= vv[4] / T - 2 &&
			       nsamp <= vv[4] / T + 1,
			       "beside four IQ events: %ld of %ld PEBS samples at the tagged load, count %lld",
			       nat, nsamp, vv[4]);
		}
		r = PAPI_add_named_event(es, "p4netburst:::front_end_event:NBOGUS:precise");
		tap_ok(r == PAPI_ECNFLCT, "a second precise event in the set: PAPI_ECNFLCT (got %s)",
		       PAPI_strerror(r));
	}
	printf("1..%d\n", tap_n);
	return tap_exit();
}
