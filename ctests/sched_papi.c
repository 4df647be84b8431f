/*
 * sched_papi.c - the scheduler through the PAPI API under nbsim: a large
 * event set that Linux's first-fit policy cannot place is added, started
 * and read; a conflict returns PAPI_ECNFLCT with a message naming the
 * events and the ESCR; tagged metrics (once the name parser accepts
 * metric names) are programmed with their helper ESCRs and PEBS MSRs.
 *
 * Preset alternatives at event-set time (presets.txt): when a preset's
 * preferred mapping does not fit beside the rest of the set, the next
 * alternative is used, PAPI_add_event succeeds and the component says
 * which one.  An alternative counts what the preferred mapping counts
 * (docs/PRESETS.md): when none fits, PAPI_add_event gives PAPI_ECNFLCT
 * and the reason is printed even without PAPI_VERBOSE.  Exact by the
 * difference method: each iteration of fp_loop retires one addsd
 * (scalar_DP_uop) and one addpd (packed_DP_uop), so PAPI_FP_OPS (scalar
 * SP + DP) counts 1 per iteration.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "papi.h"
#include "nbcapture.h"
#include "nbtap.h"

static volatile double sink;

static void work(void)
{
	for (int i = 0; i < 100000; i++)
		sink += i * 0.5;
}

#define N1 1000
#define N2 5000

static void fp_loop(long n)
{
	static const double one[2] = { 1.0, 1.0 };

	__asm__ volatile("movupd %0, %%xmm1\n\t"
			 "movapd %%xmm1, %%xmm0\n\t"
			 : : "m"(one) : "xmm0", "xmm1");
	__asm__ volatile("1:\n\t"
			 "addsd %%xmm1, %%xmm0\n\t"
			 "addpd %%xmm1, %%xmm0\n\t"
			 "sub $1, %0\n\t"
			 "jnz 1b\n\t"
			 : "+r"(n) : : "xmm0", "cc");
}

static int fp_run(int es, long n, long long *v)
{
	int rc = PAPI_start(es);

	fp_loop(n);
	return rc == PAPI_OK ? PAPI_stop(es, v) : rc;
}

/* Differences of ES's counts between fp_loop(N2) and fp_loop(N1), after
 * two warm-up rounds. */
static int fp_diff(int es, long long *d, int n)
{
	long long a[8], b[8];
	int rc = PAPI_OK;

	for (int k = 0; k < 3 && rc == PAPI_OK; k++) {
		rc = fp_run(es, N1, a);
		if (rc == PAPI_OK)
			rc = fp_run(es, N2, b);
	}
	for (int i = 0; i < n; i++)
		d[i] = b[i] - a[i];
	return rc;
}

static void alternatives(void)
{
	long long d[8], v[8];
	int es = PAPI_NULL, rc;

	/* PAPI_BR_MSP prefers mispred_branch_retired (CRU_ESCR0/1), which
	 * PAPI_TOT_INS and uops_retired already hold. */
	if (PAPI_create_eventset(&es) != PAPI_OK)
		tap_bail("PAPI_create_eventset");
	rc = PAPI_add_event(es, PAPI_TOT_INS);
	if (rc == PAPI_OK)
		rc = PAPI_add_named_event(es, "p4netburst:::uops_retired:NBOGUS");
	tap_ok(rc == PAPI_OK, "PAPI_TOT_INS and uops_retired:NBOGUS fill CRU_ESCR0/1 (%s)",
	       PAPI_strerror(rc));
	rc = add_capturing(es, "PAPI_BR_MSP");
	tap_ok(rc == PAPI_OK, "PAPI_BR_MSP added beside them (%s)", PAPI_strerror(rc));
	tap_ok(strstr(msgbuf, "PAPI_BR_MSP: counted as branch_retired:MMNM:MMTM (alternative 2)") &&
	       strstr(msgbuf, "mispred_branch_retired:NBOGUS") && strstr(msgbuf, "CRU_ESCR0"),
	       "the component says PAPI_BR_MSP uses alternative 2 and why");
	if (msgbuf[0])
		tap_diag("%s", strtok(msgbuf, "\n"));
	rc = PAPI_add_named_event(es, "p4netburst:::branch_retired:MMNM:MMTM");
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	work();
	if (rc == PAPI_OK)
		rc = PAPI_stop(es, v);
	tap_ok(rc == PAPI_OK && v[2] == v[3] && v[0] > 100000,
	       "PAPI_BR_MSP reads what branch_retired:MMNM:MMTM reads (%lld, %lld)", v[2], v[3]);
	PAPI_cleanup_eventset(es);

	/* PAPI_FP_OPS alone: its preferred mapping. */
	rc = PAPI_add_event(es, PAPI_FP_OPS);
	if (rc == PAPI_OK)
		rc = fp_diff(es, d, 1);
	tap_ok(rc == PAPI_OK, "PAPI_FP_OPS alone counted (%s)", PAPI_strerror(rc));
	tap_is(d[0], (N2 - N1) * 1LL, "PAPI_FP_OPS alone: scalar_SP_retired + scalar_DP_retired, "
	       "1 per iteration");
	PAPI_cleanup_eventset(es);

	/* Beside packed_DP_retired, scalar_SP + scalar_DP would need three FP
	 * upstream events on the two FIRM ESCRs.  The old third alternative
	 * (scalar_DP + 2 x packed_DP) counted 3 per iteration here, not 1: it
	 * is gone, and the preset is refused with the reason, printed without
	 * PAPI_VERBOSE. */
	rc = PAPI_add_named_event(es, "p4netburst:::packed_DP_retired");
	tap_ok(rc == PAPI_OK, "packed_DP_retired added (%s)", PAPI_strerror(rc));
	PAPI_set_debug(PAPI_QUIET);
	rc = add_capturing(es, "PAPI_FP_OPS");
	PAPI_set_debug(PAPI_VERB_ECONT);
	tap_ok(rc == PAPI_ECNFLCT, "PAPI_FP_OPS beside it: PAPI_ECNFLCT (%s)", PAPI_strerror(rc));
	tap_ok(strstr(msgbuf, "PAPI p4netburst: add event:") && strstr(msgbuf, "scalar_DP_retired") &&
	       strstr(msgbuf, "FIRM_ESCR"),
	       "the reason is printed without PAPI_VERBOSE, naming the preset's terms and the FIRM ESCRs");
	if (msgbuf[0])
		tap_diag("%s", strtok(msgbuf, "\n"));
	rc = fp_diff(es, d, 1);
	tap_ok(rc == PAPI_OK, "the set still counts packed_DP_retired (%s)", PAPI_strerror(rc));
	tap_is(d[0], (N2 - N1) * 1LL, "packed_DP_retired: 1 per iteration");
	PAPI_cleanup_eventset(es);

	/* A conflict no alternative resolves: the message says so. */
	rc = PAPI_add_event(es, PAPI_L1_DCM);
	if (rc == PAPI_OK)
		rc = add_capturing(es, "PAPI_TLB_DM");
	tap_ok(rc == PAPI_ECNFLCT, "PAPI_TLB_DM beside PAPI_L1_DCM: PAPI_ECNFLCT (its page_walk_type "
	       "alternative counted page walks, not retired misses: gone) (%s)", PAPI_strerror(rc));
	rc = add_capturing(es, "PAPI_L2_DCM");
	tap_ok(rc == PAPI_ECNFLCT && strstr(msgbuf, "IA32_PEBS_ENABLE"),
	       "PAPI_L2_DCM beside PAPI_L1_DCM: PAPI_ECNFLCT naming IA32_PEBS_ENABLE (%s)",
	       PAPI_strerror(rc));
	if (msgbuf[0])
		tap_diag("%s", strtok(msgbuf, "\n"));
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	static const char *big[] = {
		"TC_deliver_mode:DD", "BPU_fetch_request:TCMISS", "ITLB_reference:HIT",
		"memory_cancel:ST_RB_FULL", "memory_complete:LSC", "uop_queue_writes:FROM_TC_BUILD",
		"global_power_events:RUNNING", "instr_retired:NBOGUSNTAG", "uops_retired:NBOGUS",
		"branch_retired:MMTP", "x87_assist:FPSU",
	};
	const int nbig = (int)(sizeof(big) / sizeof(big[0]));
	long long v[32];
	int es = PAPI_NULL, rc, ok = 1, code;

	tap_plan(21);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init");
	PAPI_set_debug(PAPI_VERB_ECONT);
	if (PAPI_create_eventset(&es) != PAPI_OK)
		tap_bail("PAPI_create_eventset");
	for (int i = 0; i < nbig && ok; i++) {
		char full[128];

		snprintf(full, sizeof(full), "p4netburst:::%s", big[i]);
		if ((rc = PAPI_add_named_event(es, full)) != PAPI_OK) {
			tap_diag("adding %s: %s", full, PAPI_strerror(rc));
			ok = 0;
		}
	}
	tap_ok(ok, "%d events added (Linux's thread-0 half has 8 counters)", nbig);
	rc = PAPI_start(es);
	work();
	rc = rc == PAPI_OK ? PAPI_stop(es, v) : rc;
	tap_ok(rc == PAPI_OK && v[7] > 100000, "started, stopped; instr_retired counted (%lld)", v[7]);
	PAPI_cleanup_eventset(es);

	rc = add_capturing(es, "p4netburst:::BSQ_allocation:REQ_TYPE0");
	tap_ok(rc == PAPI_OK, "BSQ_allocation:REQ_TYPE0 added");
	rc = add_capturing(es, "p4netburst:::BSQ_allocation:REQ_TYPE1");
	tap_ok(rc == PAPI_ECNFLCT, "BSQ_allocation:REQ_TYPE1 beside it: PAPI_ECNFLCT (%s)", PAPI_strerror(rc));
	tap_ok(strstr(msgbuf, "BSQ_allocation:REQ_TYPE0") && strstr(msgbuf, "BSU_ESCR0"),
	       "the message names the other event and the ESCR");
	if (msgbuf[0])
		tap_diag("%s", strtok(msgbuf, "\n"));
	PAPI_cleanup_eventset(es);

	if (PAPI_event_name_to_code("p4netburst:::1stL_cache_load_miss_retired", &code) != PAPI_OK) {
		/* (the component names every tagged metric: a name it does not
		 * take is a failure of these three checks, not a TODO) */
		printf("not ok 6 - 1stL_cache_load_miss_retired added, started, stopped: the name is not known\n");
		printf("not ok 7 - a second replay metric: PAPI_ECNFLCT naming IA32_PEBS_ENABLE\n");
		printf("not ok 8 - Memory_loads with instr_retired: helper ESCR programmed\n");
		tap_n += 3;
	} else {
		rc = PAPI_add_event(es, code);
		if (rc == PAPI_OK)
			rc = PAPI_start(es);
		work();
		if (rc == PAPI_OK)
			rc = PAPI_stop(es, v);
		tap_ok(rc == PAPI_OK, "1stL_cache_load_miss_retired added, started, stopped (%s)", PAPI_strerror(rc));
		rc = add_capturing(es, "p4netburst:::DTLB_store_miss_retired");
		tap_ok(rc == PAPI_ECNFLCT && strstr(msgbuf, "IA32_PEBS_ENABLE"),
		       "a second replay metric: PAPI_ECNFLCT naming IA32_PEBS_ENABLE");
		PAPI_cleanup_eventset(es);
		rc = PAPI_add_named_event(es, "p4netburst:::Memory_loads");
		if (rc == PAPI_OK)
			rc = PAPI_add_named_event(es, "p4netburst:::instr_retired:NBOGUSNTAG");
		if (rc == PAPI_OK)
			rc = PAPI_start(es);
		work();
		if (rc == PAPI_OK)
			rc = PAPI_stop(es, v);
		tap_ok(rc == PAPI_OK, "Memory_loads with instr_retired: helper ESCR programmed (%s)", PAPI_strerror(rc));
	}
	PAPI_destroy_eventset(&es);
	alternatives();
	return 0;
}
