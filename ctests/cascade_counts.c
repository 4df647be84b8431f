/*
 * cascade_counts.c - a cascaded event (the cascade modifier: a counter
 * pair, README "Native event names") counts exactly what the plain event
 * counts, through the public PAPI API under nbsim, by the difference
 * method (nbdiff.h): both in one event set, the same loop at two lengths,
 * the difference = extra iterations x the known per-iteration count.
 * Also: PAPI_reset restarts the pair (the backend zeroes and stops it,
 * the component starts it again), checked by the same method.  (The perf
 * backend's refusal of cascade is in tests/unit/backend_unit.c.)
 * PAPI_overflow on a cascaded event is refused (PAPI_EINVAL).
 *
 * Loop body (exact_counts.c's): add, xor, sub, jnz: 4 instructions, 4 uops.
 */
#include <stdint.h>
#include <string.h>
#include "papi.h"
#include "nbdiff.h"

#define N1 1000
#define N2 5000

/* the loop: nbdiff_loop4 (nbdiff.h) */
#define loop nbdiff_loop4

static void pair_set(const char *plain, const char *casc, long long per_iter)
{
	const char *names[2] = { plain, casc };
	long long a[2], b[2];

	nbdiff_run("cascade_counts", names, 2, loop, N1, N2, a, b);
	tap_is(b[0] - a[0], (N2 - N1) * per_iter, "%s: difference = %d x %lld", plain, N2 - N1,
	       per_iter);
	tap_is(b[1] - a[1], (N2 - N1) * per_iter, "%s: difference = %d x %lld, as the plain event",
	       casc, N2 - N1, per_iter);
	tap_diag("%s: %lld, %lld; %s: %lld, %lld", plain, a[0], b[0], casc, a[1], b[1]);
}

static void ovf_handler(int es, void *pc, long long vec, void *ctx)
{
	(void)es; (void)pc; (void)vec; (void)ctx;
}

/* start, N2 iterations, PAPI_reset, N iterations, stop */
static void reset_run(int es, long n, long long *v)
{
	if (PAPI_start(es) != PAPI_OK)
		tap_bail("PAPI_start");
	loop(N2);
	if (PAPI_reset(es) != PAPI_OK)
		tap_bail("PAPI_reset");
	loop(n);
	if (PAPI_stop(es, v) != PAPI_OK)
		tap_bail("PAPI_stop");
}

int main(void)
{
	int r, es = PAPI_NULL;
	long long v[2], w[2];

	tap_plan(7);
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(r));
	pair_set("p4netburst:::instr_retired:NBOGUSNTAG",
		 "p4netburst:::instr_retired:NBOGUSNTAG:cascade", 4);
	pair_set("p4netburst:::uops_retired:NBOGUS", "p4netburst:::uops_retired:NBOGUS:cascade", 4);

	/* PAPI_reset: the pair restarts from 0 and keeps counting; the
	 * difference method across a reset (n2 after the reset, n1 without) */
	if (PAPI_create_eventset(&es) != PAPI_OK ||
	    PAPI_add_named_event(es, "p4netburst:::instr_retired:NBOGUSNTAG:cascade") != PAPI_OK ||
	    PAPI_add_named_event(es, "p4netburst:::instr_retired:NBOGUSNTAG") != PAPI_OK)
		tap_bail("cascade event set");
	for (int k = 0; k < 4; k++) {       /* 3 warm-up rounds, then measured */
		reset_run(es, N1, v);
		reset_run(es, N2, w);
	}
	tap_is(w[0] - v[0], (long long)(N2 - N1) * 4,
	       "after PAPI_reset the cascaded pair counts again (%lld, %lld)", v[0], w[0]);
	tap_is(w[0] - v[0], w[1] - v[1], "after PAPI_reset: the same difference as the plain event");
	/* overflow on a pair: refused (its alternate would interrupt 2^40
	 * events after the threshold) */
	{
		int code = 0;

		PAPI_event_name_to_code("p4netburst:::instr_retired:NBOGUSNTAG:cascade", &code);
		r = PAPI_overflow(es, code, 100000, 0, ovf_handler);
		tap_ok(r == PAPI_EINVAL, "PAPI_overflow on a cascaded event: PAPI_EINVAL (%s)",
		       PAPI_strerror(r));
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	return tap_exit();
}
