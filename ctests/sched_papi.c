/*
 * sched_papi.c - the scheduler through the PAPI API under nbsim: a large
 * event set that Linux's first-fit policy cannot place is added, started
 * and read; a conflict returns PAPI_ECNFLCT with a message naming the
 * events and the ESCR; tagged metrics (once the name parser accepts
 * metric names) are programmed with their helper ESCRs and PEBS MSRs.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "papi.h"
#include "nbtap.h"

static volatile double sink;

static void work(void)
{
	for (int i = 0; i < 100000; i++)
		sink += i * 0.5;
}

/* stderr into a file while F runs; returns what was written */
static char msgbuf[4096];

static int add_capturing(int es, const char *name)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), rc;
	size_t k;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = PAPI_add_named_event(es, name);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	k = fread(msgbuf, 1, sizeof(msgbuf) - 1, tmp);
	msgbuf[k] = '\0';
	fclose(tmp);
	return rc;
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

	tap_plan(8);
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
		printf("not ok 6 - 1stL_cache_load_miss_retired added, started, stopped # TODO metric names are not parsed yet (name parser work in progress)\n");
		printf("not ok 7 - a second replay metric: PAPI_ECNFLCT naming IA32_PEBS_ENABLE # TODO needs metric names\n");
		printf("not ok 8 - Memory_loads with instr_retired: helper ESCR programmed # TODO needs metric names\n");
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
	return 0;
}
