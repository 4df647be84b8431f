/*
 * exec_tagging.c - libpfm4's execution-tagging idiom through the public
 * PAPI API under nbsim: an upstream FP/SIMD event with TAGn
 * (x87_FP_uop:ALL:TAG1, libpfm4 4.13's spelling: TagEnable and TagValue
 * bit n in the event's ESCR) beside execution_event:NBOGUSn, which counts
 * the uops tagged with bit n at retirement [SDM 18.15 execution tagging;
 * seed 003 l.2264-2310], as pfmon users and PAPI's own netburst preset
 * table (papi_events.csv: PAPI_FP_OPS = execution_event:NBOGUS1 with
 * x87_FP_uop:ALL:TAG1 ...) write it.
 *
 * Exact by the difference method (nbdiff.h): a kernel of known uops per
 * iteration, 1 x87 (fadd), 2 scalar SP (addss), 3 scalar DP (addsd), one
 * computational uop each in nbsim's model (sim/README.md "Tagging"), run
 * at two lengths.  The upstream event counts its own uops on its own
 * counter; execution_event:NBOGUSn counts the uops whose TagValue has
 * bit n; instr_retired:NBOGUSTAG the instructions with a tagged uop.
 * Then the clashes the scheduler refuses with PAPI_ECNFLCT and the reason
 * (printed without PAPI_VERBOSE, as for other conflicts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "papi.h"
#include "nbcapture.h"
#include "nbdiff.h"

#define N1 1000
#define N2 5000

/* per iteration: 1 x87, 2 scalar SP, 3 scalar DP uops; 8 instructions */
static __attribute__((noinline)) void k_fp(long n)
{
	__asm__ volatile(
		"fld1\n\t"
		"fld1\n\t"
		"1:\n\t"
		"fadd %%st(1), %%st\n\t"
		".rept 2\n\taddss %%xmm1, %%xmm0\n\t.endr\n\t"
		".rept 3\n\taddsd %%xmm1, %%xmm2\n\t.endr\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		"fstp %%st(0)\n\t"
		"fstp %%st(0)\n\t"
		: [n] "+r"(n)
		:
		: "xmm0", "xmm2", "cc");
}

struct set {
	const char *what;
	struct nbdiff_ev ev[5];    /* exact: slack 0 */
	int perf;               /* run on the perf backend too: the Linux P4 driver's
				   first fit places it (nb_schedule --policy=linux)
				   and it has no tagged metric (below) */
};

#define P "p4netburst:::"
static const struct set sets[] = {
	/* the idiom: the upstream event counts its x87 uops itself, NBOGUS1
	 * counts them tagged, and so does NBOGUSTAG (one uop per fadd) */
	{ "x87 TAG1", { { P "x87_FP_uop:ALL:TAG1", 1, 0 }, { P "execution_event:NBOGUS1", 1, 0 },
			{ P "instr_retired:NBOGUSTAG", 1, 0 } }, 1 },
	/* libpfm4's lower-case spelling, no prefix, counting event first */
	{ "scalar_SP TAG1", { { "execution_event:nbogus1", 2, 0 }, { "scalar_SP_uop:all:tag1", 2, 0 } }, 1 },
	/* PAPI's netburst PAPI_FP_OPS line, spelled as papi_events.csv does
	 * (no prefix, lower-case masks): two upstream events with the same
	 * TagValue are counted together */
	{ "FP_OPS idiom", { { "execution_event:nbogus1", 1 + 2, 0 }, { "x87_FP_uop:ALL:TAG1", 1, 0 },
			    { "scalar_SP_uop:ALL:TAG1", 2, 0 } }, 0 },
	/* two tag values apart: NBOGUS0 and NBOGUS2 on CRU_ESCR2/3 */
	{ "TAG0 and TAG2", { { P "x87_FP_uop:ALL:TAG0", 1, 0 }, { P "scalar_DP_uop:ALL:TAG2", 3, 0 },
			     { P "execution_event:NBOGUS0", 1, 0 }, { P "execution_event:NBOGUS2", 3, 0 } }, 0 },
	/* one execution_event request selecting both tag bits */
	{ "NBOGUS0:NBOGUS2", { { P "x87_FP_uop:ALL:TAG0", 1, 0 }, { P "scalar_DP_uop:ALL:TAG2", 3, 0 },
			       { P "execution_event:NBOGUS0:NBOGUS2", 1 + 3, 0 } }, 0 },
	/* a TagValue of two bits: each NBOGUSn of it counts the uops, other
	 * bits none (execution_event has two ESCRs, CRU_ESCR2/3: two
	 * configurations at most) */
	{ "TAG0:TAG3", { { P "scalar_SP_uop:ALL:TAG0:TAG3", 2, 0 }, { P "execution_event:NBOGUS3", 2, 0 },
			 { P "execution_event:NBOGUS1:NBOGUS0", 2, 0 } }, 0 },
	/* beside a tagged metric: the metric's tag bit avoids the user's 1
	 * (the scheduler keeps TAG1 as given and gives the metric bit 0) */
	{ "TAG1 and a metric", { { P "x87_FP_uop:ALL:TAG1", 1, 0 }, { P "execution_event:NBOGUS1", 1, 0 },
				 { P "scalar_DP_retired", 3, 0 }, { P "instr_retired:NBOGUSTAG", 1 + 3, 0 } }, 0 },
	/* the untagged upstream event and the tagged one at once (FIRM_ESCR0
	 * and 1): both count the x87 uops, only the tagged ones are tagged */
	{ "tagged and untagged", { { P "x87_FP_uop:ALL", 1, 0 }, { P "x87_FP_uop:ALL:TAG2", 1, 0 },
				   { P "execution_event:NBOGUS2", 1, 0 }, { P "execution_event:NBOGUS0", 0, 0 } }, 0 },
};

static int nevents(const struct set *s)
{
	return nbdiff_nevents(s->ev, 5);
}

static void check_set(const struct set *s)
{
	nbdiff_check_set(s->what, s->ev, 5, k_fp, N1, N2);
}

/* FIRST is added, then SECOND must be refused with PAPI_ECNFLCT and a
 * message containing each of WANT (NULL-terminated); the set keeps FIRST. */
static void clash(const char *what, const char *first, const char *second, const char *const *want)
{
	int es = PAPI_NULL, rc, ok;
	long long v[2];

	if ((rc = PAPI_create_eventset(&es)) != PAPI_OK)
		tap_bail("PAPI_create_eventset: %s", PAPI_strerror(rc));
	rc = PAPI_add_named_event(es, first);
	tap_ok(rc == PAPI_OK, "%s: %s added (%s)", what, first, PAPI_strerror(rc));
	rc = add_capturing(es, second);
	ok = rc == PAPI_ECNFLCT && strstr(msgbuf, "PAPI p4netburst: add event:") != NULL;
	for (int i = 0; want[i]; i++)
		ok = ok && strstr(msgbuf, want[i]) != NULL;
	tap_ok(ok, "%s: %s beside it: PAPI_ECNFLCT (%s) with the reason", what, second,
	       PAPI_strerror(rc));
	if (msgbuf[0])
		tap_diag("%s", strtok(msgbuf, "\n"));
	rc = PAPI_start(es);
	if (rc == PAPI_OK)
		rc = PAPI_stop(es, v);
	tap_ok(rc == PAPI_OK, "%s: the set still counts %s (%s)", what, first, PAPI_strerror(rc));
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	int r, plan = 0;
	unsigned ns = sizeof sets / sizeof sets[0];
	static const char *const overlap[] = { "x87_FP_uop:ALL:TAG1", "scalar_SP_uop:ALL:TAG0:TAG1",
					       "TagValue 0x3", "share bits", NULL };
	static const char *const uncounted[] = { "x87_FP_uop:ALL:TAG1", "TagValue 0x2",
						 "execution_event:NBOGUS0", "NBOGUS1", NULL };
	static const char *const full[] = { "X87_FP_retired", "TAG0:TAG1:TAG2:TAG3",
					    "four tag values", NULL };

	/* P4NETBURST_BACKEND=perf (t_exec_tagging_perf.t): the kernel's P4
	 * driver places events first fit on thread 0's ESCRs (one of
	 * FIRM_ESCR0/1, of CRU_ESCR2/3: nb_linux_sched.c) and programs no
	 * execution metric's helper ESCR (backend_perf.c), so only the sets
	 * it can count run there */
	const char *be = getenv("P4NETBURST_BACKEND");
	int perf = be && !strcmp(be, "perf");

	for (unsigned i = 0; i < ns; i++)
		if (!perf || sets[i].perf)
			plan += nevents(&sets[i]);
	plan += 3 * 3 + 1;
	tap_plan(plan);
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(r));
	for (unsigned i = 0; i < ns; i++) {
		if (perf && !sets[i].perf) {
			tap_diag("perf backend: set '%s' not run: the kernel's P4 driver cannot "
				 "place it (first fit, thread-0 ESCRs) or program its metric",
				 sets[i].what);
			continue;
		}
		check_set(&sets[i]);
	}

	PAPI_set_debug(PAPI_QUIET);
	/* two upstream events tagging different uops with values that share a
	 * bit but differ: NBOGUS1 would count a mix neither asked for */
	clash("overlapping tag values", P "x87_FP_uop:ALL:TAG1", P "scalar_SP_uop:ALL:TAG0:TAG1",
	      overlap);
	/* a tag value the set's execution_event does not select */
	clash("uncounted tag", P "execution_event:NBOGUS0", P "x87_FP_uop:ALL:TAG1", uncounted);
	/* all four tag values taken as given: no bit left for a metric */
	clash("no tag bit left", P "x87_FP_uop:ALL:TAG0:TAG1:TAG2:TAG3", P "X87_FP_retired", full);
	{
		int code = 0;
		char back[PAPI_MAX_STR_LEN];

		r = PAPI_event_name_to_code("x87_FP_uop:TAG3:tag1", &code);
		if (r == PAPI_OK)
			r = PAPI_event_code_to_name(code, back);
		tap_ok(r == PAPI_OK && strcmp(back, "p4netburst:::x87_FP_uop:ALL:TAG1:TAG3") == 0,
		       "x87_FP_uop:TAG3:tag1 names p4netburst:::x87_FP_uop:ALL:TAG1:TAG3 (%s: %s)",
		       PAPI_strerror(r), r == PAPI_OK ? back : "");
	}
	PAPI_shutdown();
	return tap_exit();
}
