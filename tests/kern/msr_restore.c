/*
 * msr_restore.c - the msr backend leaves the PMU as it found it, and
 * writes nothing but the PMU's MSRs (run under nbsim with
 * P4NETBURST_BACKEND=msr; tests/kern/t_kern_msr.t).
 *
 * Before PAPI starts, distinctive values go into some PMU registers through
 * the emulated /dev/cpu/0/msr; every PMU register is then read (the
 * snapshot).  After PAPI_stop, after PAPI_cleanup_eventset, after
 * PAPI_shutdown of a running set, at exit of a running set (an atexit
 * check registered before PAPI's, so it runs after the backend's restore;
 * argument "exit") and after a SIGSEGV of the counting thread (the
 * program's handler, installed before PAPI, runs after the backend's;
 * argument "segv") the registers must equal the snapshot.  The whitelist: the backend
 * refuses a non-PMU MSR and reserved bits (its write_msrs, called
 * directly).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "papi.h"
#include "nbtap.h"
#include "nb_backend.h"
#include "nb_events.h"

#define MAXR 128
static uint32_t reg[MAXR];
static uint64_t snap[MAXR];
static int nreg, dev = -1;

static void add_reg(uint32_t msr)
{
	uint64_t v;

	if (nreg < MAXR && pread(dev, &v, 8, msr) == 8)   /* the model has it */
		reg[nreg++] = msr;
}

/* registers that differ from the snapshot */
static int diff(const char *when)
{
	int n = 0;

	for (int i = 0; i < nreg; i++) {
		uint64_t v = 0;

		if (pread(dev, &v, 8, reg[i]) != 8 || v != snap[i]) {
			if (n++ < 4)
				tap_diag("  %s: MSR 0x%x is 0x%llx, was 0x%llx", when, reg[i],
					 (unsigned long long)v, (unsigned long long)snap[i]);
		}
	}
	return n;
}

static void loop(long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static int es = PAPI_NULL;

static void setup(void)
{
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, "PAPI_TOT_INS") != PAPI_OK ||
	    PAPI_add_named_event(es, "PAPI_TOT_CYC") != PAPI_OK)
		tap_bail("event set PAPI_TOT_INS, PAPI_TOT_CYC");
}

static void on_segv(int sig)
{
	(void)sig;
	tap_is(diff("SIGSEGV"), 0, "after a SIGSEGV of the counting thread: the PMU registers as found "
	       "(the backend's handler restored, then called the program's)");
	printf("1..%d\n", tap_n);
	fflush(stdout);
	_exit(tap_fail ? 1 : 0);
}

static void at_exit_check(void)
{
	tap_is(diff("exit"), 0, "at exit with a set running: the PMU registers as found (atexit)");
	printf("1..%d\n", tap_n);
	fflush(stdout);
	_exit(tap_fail ? 1 : 0);
}

static int run(int argc, const char *argv1)
{
	long long v[2];
	uint64_t x;
	char err[256];
	struct nb_msr_image bad[1];
	const PAPI_component_info_t *ci;
	int cid;

	dev = open("/dev/cpu/0/msr", O_RDWR);
	if (dev < 0)
		tap_bail("/dev/cpu/0/msr: run under nbsim as root");
	for (unsigned i = 0; i < nb_num_escrs; i++)
		add_reg(nb_escrs[i].msr);
	for (unsigned i = 0; i < NB_NUM_COUNTERS; i++) {
		add_reg(nb_counters[i].msr);
		add_reg(nb_counters[i].cccr_msr);
	}
	add_reg(0x3f1);                          /* IA32_PEBS_ENABLE */
	add_reg(0x3f2);                          /* MSR_PEBS_MATRIX_VERT */
	/* what another user left: a counter value, an ESCR, a disabled CCCR */
	x = 123456789;
	(void)!pwrite(dev, &x, 8, nb_counters[12].msr);
	x = (UINT64_C(2) << NB_ESCR_EVSEL_SHIFT) | (UINT64_C(1) << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR;
	(void)!pwrite(dev, &x, 8, 0x3b8);        /* CRU_ESCR0 */
	x = UINT64_C(4) << NB_CCCR_ESCRSEL_SHIFT;
	(void)!pwrite(dev, &x, 8, nb_counters[13].cccr_msr);
	for (int i = 0; i < nreg; i++)
		(void)!pread(dev, &snap[i], 8, reg[i]);

	if (argc > 1 && !strcmp(argv1, "exit"))
		atexit(at_exit_check);           /* before PAPI's: runs after it */
	if (argc > 1 && !strcmp(argv1, "segv"))
		signal(SIGSEGV, on_segv);        /* before PAPI's: called after it */
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init");
	cid = PAPI_get_component_index("p4netburst");
	ci = cid >= 0 ? PAPI_get_component_info(cid) : NULL;
	if (!ci || ci->disabled || strcmp(ci->kernel_version, "msr backend"))
		tap_bail("p4netburst is not on the msr backend (P4NETBURST_BACKEND=msr nbsim ...)");
	tap_ok(ci->hardware_intr == 0, "the msr backend has no overflow interrupt (hardware_intr 0)");
	setup();
	if (argc > 1) {                          /* exit or crash with it running */
		PAPI_start(es);
		loop(10000);
		if (!strcmp(argv1, "segv"))
			*(volatile int *)(uintptr_t)argc = 1;
		exit(0);
	}

	tap_ok(PAPI_start(es) == PAPI_OK, "PAPI_start");
	tap_ok(diff("running") > 0, "while counting the registers are the set's");
	loop(10000);
	{
		int r = PAPI_stop(es, v);

		tap_ok(r == PAPI_OK && v[0] > 10000, "PAPI_stop, %lld instructions", v[0]);
	}
	tap_is(diff("stop"), 0, "after PAPI_stop: the PMU registers as found");
	PAPI_start(es);
	loop(1000);
	PAPI_stop(es, v);
	tap_ok(PAPI_cleanup_eventset(es) == PAPI_OK && PAPI_destroy_eventset(&es) == PAPI_OK,
	       "PAPI_cleanup_eventset, PAPI_destroy_eventset");
	tap_is(diff("cleanup"), 0, "after cleanup: the PMU registers as found");

	/* the whitelist, on the backend itself */
	bad[0].msr = 0x10;                       /* IA32_TIME_STAMP_COUNTER */
	bad[0].value = 0;
	tap_ok(nb_backend_msr.write_msrs(bad, 1, err, sizeof(err)) == -1 &&
	       strstr(err, "not a NetBurst PMU MSR"), "WRMSR 0x10 refused: %s", err);
	bad[0].msr = 0x3b8;
	bad[0].value = UINT64_C(1) << 31;        /* ESCR bit 31: reserved */
	tap_ok(nb_backend_msr.write_msrs(bad, 1, err, sizeof(err)) == -1 &&
	       strstr(err, "reserved bits 0x80000000"), "ESCR reserved bit 31 refused: %s", err);
	bad[0].msr = nb_counters[0].cccr_msr;
	bad[0].value = 1;                        /* CCCR bit 0: reserved */
	tap_ok(nb_backend_msr.write_msrs(bad, 1, err, sizeof(err)) == -1,
	       "CCCR reserved bit 0 refused: %s", err);
	tap_is(diff("refused writes"), 0, "the refused writes changed nothing");

	/* PAPI_shutdown with a set running */
	setup();
	PAPI_start(es);
	loop(1000);
	PAPI_shutdown();
	tap_is(diff("shutdown"), 0, "after PAPI_shutdown of a running set: the PMU registers as found");
	return tap_done_plan();
}

int main(int argc, char **argv)
{
	return run(argc, argc > 1 ? argv[1] : "");
}
