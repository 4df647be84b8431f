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
 * backend, added to a multiplexed set; counted over nbdiff_loop4, the
 * events the loop drives are counted (PAPI scales the counts by the time
 * each event was on: estimates, checked within half of the truth).
 *
 * On the perf backend (argv[1] "perf") PAPI counts each multiplexed event
 * beside PAPI_TOT_CYC, global_power_events, which the kernel's P4 driver
 * places on counter 0 of its thread-0 half only; BSQ_cache_reference (the
 * PAPI_L2_* presets) and ITLB_reference (PAPI_TLB_IM) need that counter
 * too [native_events/kernel_p4.txt], so those adds are refused
 * (PAPI_ECNFLCT), as the kernel refuses the pair.  They used to be added,
 * then never counted, and read 0.
 *
 * global_power_events:RUNNING is PAPI_TOT_CYC's event: in its
 * multiplexing set the two read one counter, every measured rate is
 * exactly 1, and PAPI's estimate of each is the same multiplexed cycle
 * total, so they must be equal, exactly.  RUNNING read 5.7 M to 8.6 M
 * beside 26.7 M: its first slice was short (under nbsim the timer ticks
 * in host time, and nbsim's translation of newly run code takes ticks),
 * and PAPI charged every cycle before it at rate 0
 * (patches/papi-7.0.0-mpx-short-slice.patch; ctests/mpx_estimate.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"
#include "nbtap.h"
#include "nbmpx.h"
#include "nbdiff.h"

/* The loop runs in rounds of ROUND iterations, at least MIN_ROUNDS, until
 * PAPI has an estimate (a measured slice) of each event checked against
 * the loop and of both cycle events: a fast host's timer ticks come after
 * fewer guest cycles, and 26 events need at least 26 ticks. */
#define ROUND 5000000L
#define MIN_ROUNDS 4
#define MAX_ROUNDS 40

/* name, what the loop gives per iteration (0: not checked), and whether
 * the perf backend refuses it beside PAPI_TOT_CYC (above) */
static const struct { const char *name; long long per_iter; int perf_refused; } evs[] = {
	{ "PAPI_TOT_INS", 4, 0 }, { "PAPI_TOT_CYC", 0, 0 }, { "PAPI_BR_INS", 1, 0 },
	{ "PAPI_BR_MSP", 0, 0 }, { "PAPI_BR_TKN", 1, 0 }, { "PAPI_BR_NTK", 0, 0 },
	{ "PAPI_BR_CN", 1, 0 }, { "PAPI_TOT_IIS", 4, 0 }, { "PAPI_L2_TCA", 0, 1 },
	{ "PAPI_L2_TCH", 0, 1 }, { "PAPI_L2_TCM", 0, 1 }, { "PAPI_TLB_DM", 0, 0 },
	{ "PAPI_RES_STL", 0, 0 }, { "PAPI_TLB_IM", 0, 1 },
	{ "p4netburst:::instr_retired:NBOGUSNTAG", 4, 0 },
	{ "p4netburst:::uops_retired:NBOGUS", 4, 0 },
	{ "p4netburst:::branch_retired:MMTP", 1, 0 },
	{ "p4netburst:::branch_retired:MMNP", 0, 0 },
	{ "p4netburst:::branch_retired:MMTM", 0, 0 },
	{ "p4netburst:::branch_retired:MMNM", 0, 0 },
	{ "p4netburst:::instr_retired:BOGUSNTAG", 0, 0 },
	{ "p4netburst:::uops_retired:BOGUS", 0, 0 },
	{ "p4netburst:::mispred_branch_retired:NBOGUS", 0, 0 },
	{ "p4netburst:::retired_branch_type:CONDITIONAL", 1, 0 },
	{ "p4netburst:::global_power_events:RUNNING", 0, 0 },
	{ "p4netburst:::uop_type:TAGLOADS", 0, 0 },
};
#define NEV ((int)(sizeof(evs) / sizeof(evs[0])))

#define CYC 1                   /* PAPI_TOT_CYC */
#define RUNNING (NEV - 2)       /* global_power_events:RUNNING */

int main(int argc, char **argv)
{
	int perf = argc > 1 && !strcmp(argv[1], "perf");
	int es, rc, added = 0, want_added = 0, pos[NEV], rounds = 0;
	long long v[NEV];

	tap_plan(5 + NEV);
	es = nb_mpx_eventset();
	for (int i = 0; i < NEV; i++) {
		int refused = perf && evs[i].perf_refused;

		rc = PAPI_add_named_event(es, evs[i].name);
		pos[i] = rc == PAPI_OK ? added++ : -1;
		want_added += !refused;
		if (rc != (refused ? PAPI_ECNFLCT : PAPI_OK))
			tap_diag("PAPI_add_named_event %s (event %d): %s", evs[i].name, i + 1,
				 PAPI_strerror(rc));
	}
	tap_is(added, want_added, "%d of %d events added to the multiplexed set (18 counters)",
	       added, NEV);
	tap_is(PAPI_num_events(es), want_added, "PAPI_num_events");
	if (added != want_added || pos[CYC] < 0 || pos[RUNNING] < 0)
		tap_bail("the set is not complete");
	tap_is(PAPI_start(es), PAPI_OK, "PAPI_start");
	while (rounds < MAX_ROUNDS) {
		int pending = 0;

		nbdiff_loop4(ROUND);
		rounds++;
		if ((rc = PAPI_read(es, v)) != PAPI_OK)
			tap_bail("PAPI_read: %s", PAPI_strerror(rc));
		for (int i = 0; i < NEV; i++)
			pending += pos[i] >= 0 && (evs[i].per_iter || i == CYC || i == RUNNING) &&
				   v[pos[i]] <= 0;
		if (!pending && rounds >= MIN_ROUNDS)
			break;
	}
	tap_diag("%d rounds of %ld iterations (%d to %d)", rounds, ROUND, MIN_ROUNDS, MAX_ROUNDS);
	tap_is(PAPI_stop(es, v), PAPI_OK, "PAPI_stop");
	for (int i = 0; i < NEV; i++) {
		long long want = rounds * ROUND * evs[i].per_iter, x = pos[i] >= 0 ? v[pos[i]] : -1;

		if (perf && evs[i].perf_refused)
			tap_ok(pos[i] < 0, "%s: refused beside PAPI_TOT_CYC (the kernel's counter 0)",
			       evs[i].name);
		else if (want)
			tap_ok(x > want / 2 && x < want * 3 / 2,
			       "%s: %lld, within half of the loop's %lld", evs[i].name, x, want);
		else
			tap_ok(x >= 0, "%s: %lld", evs[i].name, x);
	}
	tap_is(v[pos[RUNNING]], v[pos[CYC]],
	       "global_power_events:RUNNING and PAPI_TOT_CYC (its event): the same estimate");
	PAPI_shutdown();
	return tap_exit();
}
