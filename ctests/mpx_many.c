/*
 * mpx_many.c - software multiplexing of more events than the PMU has
 * counters: the point of multiplexing.
 *
 * The component declared num_mpx_cntrs = 18, its counter count, and PAPI
 * sizes a multiplexed event set by num_mpx_cntrs: the 19th PAPI_add_event
 * of a multiplexed set returned PAPI_ECNFLCT ("cannot be counted due to
 * hardware resource limits"), with nothing printed, whatever the events.
 * PAPI's software multiplexing (sw_multiplex.c) takes up to
 * PAPI_MAX_SW_MPX_EVENTS (32) events, and perf_event declares that when
 * it multiplexes in software.  Checked: 26 events, each counted by the
 * backend, added to a multiplexed set; counted over nbdiff_loop4(N), the
 * events the loop drives are counted (PAPI scales the counts by the time
 * each event was on: estimates, checked within half of the truth).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"
#include "nbtap.h"
#include "nbdiff.h"

#define N 20000000L

/* name, and what the loop gives per iteration (0: not checked) */
static const struct { const char *name; long long per_iter; } evs[] = {
	{ "PAPI_TOT_INS", 4 }, { "PAPI_TOT_CYC", 0 }, { "PAPI_BR_INS", 1 },
	{ "PAPI_BR_MSP", 0 }, { "PAPI_BR_TKN", 1 }, { "PAPI_BR_NTK", 0 },
	{ "PAPI_BR_CN", 1 }, { "PAPI_TOT_IIS", 4 }, { "PAPI_L2_TCA", 0 },
	{ "PAPI_L2_TCH", 0 }, { "PAPI_L2_TCM", 0 }, { "PAPI_TLB_DM", 0 },
	{ "PAPI_RES_STL", 0 }, { "PAPI_TLB_IM", 0 },
	{ "p4netburst:::instr_retired:NBOGUSNTAG", 4 },
	{ "p4netburst:::uops_retired:NBOGUS", 4 },
	{ "p4netburst:::branch_retired:MMTP", 1 },
	{ "p4netburst:::branch_retired:MMNP", 0 },
	{ "p4netburst:::branch_retired:MMTM", 0 },
	{ "p4netburst:::branch_retired:MMNM", 0 },
	{ "p4netburst:::instr_retired:BOGUSNTAG", 0 },
	{ "p4netburst:::uops_retired:BOGUS", 0 },
	{ "p4netburst:::mispred_branch_retired:NBOGUS", 0 },
	{ "p4netburst:::retired_branch_type:CONDITIONAL", 1 },
	{ "p4netburst:::global_power_events:RUNNING", 0 },
	{ "p4netburst:::uop_type:TAGLOADS", 0 },
};
#define NEV ((int)(sizeof(evs) / sizeof(evs[0])))

int main(void)
{
	int es = PAPI_NULL, rc, added = 0;
	long long v[NEV];

	tap_plan(4 + NEV);
	if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(rc));
	if ((rc = PAPI_multiplex_init()) != PAPI_OK || (rc = PAPI_create_eventset(&es)) != PAPI_OK ||
	    (rc = PAPI_assign_eventset_component(es, 0)) != PAPI_OK ||
	    (rc = PAPI_set_multiplex(es)) != PAPI_OK)
		tap_bail("a multiplexed event set: %s", PAPI_strerror(rc));
	for (int i = 0; i < NEV; i++) {
		rc = PAPI_add_named_event(es, evs[i].name);
		added += rc == PAPI_OK;
		if (rc != PAPI_OK)
			tap_diag("PAPI_add_named_event %s (event %d): %s", evs[i].name, i + 1,
				 PAPI_strerror(rc));
	}
	tap_is(added, NEV, "all %d events added to the multiplexed set (18 counters)", NEV);
	tap_is(PAPI_num_events(es), NEV, "PAPI_num_events");
	if (added != NEV)
		tap_bail("the set is not complete");
	tap_is(PAPI_start(es), PAPI_OK, "PAPI_start");
	nbdiff_loop4(N);
	tap_is(PAPI_stop(es, v), PAPI_OK, "PAPI_stop");
	for (int i = 0; i < NEV; i++) {
		long long want = N * evs[i].per_iter;

		if (want)
			tap_ok(v[i] > want / 2 && v[i] < want * 3 / 2,
			       "%s: %lld, within half of the loop's %lld", evs[i].name, v[i], want);
		else
			tap_ok(v[i] >= 0, "%s: %lld", evs[i].name, v[i]);
	}
	PAPI_shutdown();
	return tap_exit();
}
