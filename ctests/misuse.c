/*
 * misuse.c - PAPI calls made in the wrong order or on the wrong event set
 * return an error code and do not crash (patches/papi-7.0.0-misuse.patch).
 *
 * Two classes, with their siblings:
 *  - calls on an empty event set (no component bound yet: PAPI 7.0.0
 *    indexed its component table with -1): removing an event by code, by
 *    name, several at once, and the rest of the per-set API;
 *  - calls after PAPI_shutdown (PAPI 7.0.0 read the freed event set map):
 *    every per-set call gets PAPI_ENOEVST, the by-name calls PAPI_ENOINIT;
 *    PAPI_library_init afterwards works again and counts.
 * Also: an event set index one past the map's end (an off-by-one in
 * PAPI 7.0.0's lookup) is PAPI_ENOEVST; PAPI_profil and PAPI_sprofil with
 * no buffer for their buckets are PAPI_EINVAL (PAPI 7.0.0 returned
 * PAPI_OK and the first sample wrote through NULL: SIGSEGV;
 * patches/papi-7.0.0-profil-null.patch).
 */
#include <string.h>
#include "papi.h"
#include "nbtap.h"

static void handler(int es, void *pc, long long ovf, void *ctx)
{
	(void)es, (void)pc, (void)ovf, (void)ctx;
}

#define IS(call, want) tap_is_code(#call, (call), (want))

static void tap_is_code(const char *what, int got, int want)
{
	if (!tap_ok(got == want, "%s = %s", what, PAPI_strerror(want)))
		tap_diag("  got %d (%s)", got, PAPI_strerror(got));
}

static void empty_set(void)
{
	int es = PAPI_NULL, codes[4] = { PAPI_TOT_INS }, n = 4, st = 0, nat = 0;
	long long v[4];

	if (PAPI_create_eventset(&es) != PAPI_OK)
		tap_bail("PAPI_create_eventset");
	if (PAPI_event_name_to_code("p4netburst:::instr_retired", &nat) != PAPI_OK)
		tap_bail("p4netburst:::instr_retired has no code");
	/* removing what is not there: PAPI_EINVAL, as for a non-empty set */
	IS(PAPI_remove_event(es, PAPI_TOT_INS), PAPI_EINVAL);
	IS(PAPI_remove_named_event(es, "PAPI_TOT_INS"), PAPI_EINVAL);
	IS(PAPI_remove_event(es, nat), PAPI_EINVAL);
	IS(PAPI_remove_named_event(es, "p4netburst:::instr_retired"), PAPI_EINVAL);
	IS(PAPI_remove_events(es, codes, 1), PAPI_EINVAL);
	/* the rest of the per-set API on a set with no component */
	IS(PAPI_start(es), PAPI_ENOCMP);
	IS(PAPI_stop(es, v), PAPI_ENOCMP);
	IS(PAPI_read(es, v), PAPI_ENOCMP);
	IS(PAPI_accum(es, v), PAPI_ENOCMP);
	IS(PAPI_reset(es), PAPI_ENOCMP);
	IS(PAPI_write(es, v), PAPI_ENOCMP);
	IS(PAPI_overflow(es, PAPI_TOT_INS, 1000, 0, handler), PAPI_ENOCMP);
	IS(PAPI_set_multiplex(es), PAPI_ENOCMP);
	IS(PAPI_list_events(es, codes, &n), PAPI_OK);
	tap_is(n, 0, "an empty set lists 0 events");
	IS(PAPI_num_events(es), 0);
	IS(PAPI_state(es, &st), PAPI_OK);
	/* a non-empty set: removing an event it does not hold */
	IS(PAPI_add_event(es, PAPI_TOT_CYC), PAPI_OK);
	IS(PAPI_remove_event(es, PAPI_TOT_INS), PAPI_EINVAL);
	IS(PAPI_remove_named_event(es, "PAPI_TOT_INS"), PAPI_EINVAL);
	IS(PAPI_remove_event(es, PAPI_TOT_CYC), PAPI_OK);
	IS(PAPI_remove_event(es, PAPI_TOT_CYC), PAPI_EINVAL);
	IS(PAPI_cleanup_eventset(es), PAPI_OK);
	IS(PAPI_destroy_eventset(&es), PAPI_OK);
	/* set indices that do not exist: past the end, one past the end */
	IS(PAPI_start(100000), PAPI_ENOEVST);
	IS(PAPI_start(-1), PAPI_ENOEVST);
}

static void loop(long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

/* profiling into no buffer: refused, and the set then counts as a set with
 * no profiling (the samples would have come within the loop) */
static void profil_null(void)
{
	int es = PAPI_NULL;
	long long v[1] = { 0 };
	unsigned short buf[64];
	PAPI_sprofil_t sp;

	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_event(es, PAPI_TOT_INS) != PAPI_OK)
		tap_bail("event set for the profil tests");
	IS(PAPI_profil(NULL, 65536, (vptr_t)loop, 65536, es, PAPI_TOT_INS, 10000,
		       PAPI_PROFIL_POSIX), PAPI_EINVAL);
	memset(&sp, 0, sizeof(sp));
	sp.pr_size = 4096;
	sp.pr_off = (vptr_t)loop;
	sp.pr_scale = 65536;
	IS(PAPI_sprofil(&sp, 1, es, PAPI_TOT_INS, 10000, PAPI_PROFIL_POSIX), PAPI_EINVAL);
	IS(PAPI_start(es), PAPI_OK);
	loop(100000);
	IS(PAPI_stop(es, v), PAPI_OK);
	tap_ok(v[0] >= 100000, "after the refused PAPI_profil(NULL): the set counts, no sample "
	       "(%lld instructions)", v[0]);
	/* a buffer: accepted (what the refusal must not take away) */
	IS(PAPI_profil(buf, sizeof(buf), (vptr_t)loop, 65536, es, PAPI_TOT_INS, 10000,
		       PAPI_PROFIL_POSIX), PAPI_OK);
	IS(PAPI_profil(buf, sizeof(buf), (vptr_t)loop, 65536, es, PAPI_TOT_INS, 0,
		       PAPI_PROFIL_POSIX), PAPI_OK);
	IS(PAPI_cleanup_eventset(es), PAPI_OK);
	IS(PAPI_destroy_eventset(&es), PAPI_OK);
}

static void after_shutdown(void)
{
	int es = PAPI_NULL, idle = PAPI_NULL, es2 = PAPI_NULL, codes[4], n = 4, st, code;
	long long v[4] = { 0 };

	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_event(es, PAPI_TOT_INS) != PAPI_OK ||
	    PAPI_create_eventset(&idle) != PAPI_OK || PAPI_add_event(idle, PAPI_TOT_CYC) != PAPI_OK)
		tap_bail("event sets for the shutdown tests");
	IS(PAPI_start(es), PAPI_OK);
	PAPI_shutdown();
	IS(PAPI_start(idle), PAPI_ENOEVST);
	IS(PAPI_stop(es, v), PAPI_ENOEVST);
	IS(PAPI_read(es, v), PAPI_ENOEVST);
	IS(PAPI_accum(es, v), PAPI_ENOEVST);
	IS(PAPI_reset(es), PAPI_ENOEVST);
	IS(PAPI_add_event(idle, PAPI_TOT_INS), PAPI_ENOEVST);
	IS(PAPI_remove_event(idle, PAPI_TOT_CYC), PAPI_ENOEVST);
	IS(PAPI_add_named_event(idle, "PAPI_TOT_INS"), PAPI_ENOINIT);
	IS(PAPI_remove_named_event(idle, "PAPI_TOT_CYC"), PAPI_ENOINIT);
	IS(PAPI_list_events(idle, codes, &n), PAPI_ENOEVST);
	IS(PAPI_num_events(idle), PAPI_ENOEVST);
	IS(PAPI_state(idle, &st), PAPI_ENOEVST);
	IS(PAPI_overflow(idle, PAPI_TOT_CYC, 1000, 0, handler), PAPI_ENOEVST);
	IS(PAPI_set_multiplex(idle), PAPI_ENOEVST);
	IS(PAPI_cleanup_eventset(idle), PAPI_ENOEVST);
	IS(PAPI_destroy_eventset(&idle), PAPI_ENOEVST);
	IS(PAPI_create_eventset(&es2), PAPI_ENOINIT);
	IS(PAPI_event_name_to_code("PAPI_TOT_INS", &code), PAPI_ENOINIT);
	IS(PAPI_query_named_event("PAPI_TOT_INS"), PAPI_ENOINIT);
	PAPI_shutdown();            /* twice: harmless */
	tap_ok(1, "PAPI_shutdown twice returns");

	/* and PAPI starts again */
	IS(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
	es2 = PAPI_NULL;
	IS(PAPI_create_eventset(&es2), PAPI_OK);
	IS(PAPI_add_event(es2, PAPI_TOT_INS), PAPI_OK);
	IS(PAPI_start(es2), PAPI_OK);
	IS(PAPI_stop(es2, v), PAPI_OK);
	tap_ok(v[0] > 0, "PAPI_TOT_INS counts after re-initialisation (%lld)", v[0]);
}

int main(void)
{
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init");
	empty_set();
	profil_null();
	after_shutdown();
	return tap_done_plan();
}
