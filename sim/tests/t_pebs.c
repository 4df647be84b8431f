/*
 * t_pebs.c - PEBS under nbsim (TAP guest; t_pebs.sh runs it on Prescott,
 * 64-bit DS format).
 *
 * 1stL_cache_load_miss_retired (IA32_PEBS_ENABLE bits 0, 24, 25;
 * MSR_PEBS_MATRIX_VERT 1) counted by replay_event:NBOGUS on counter 16,
 * preset 2^40 - R, DS save area with PEBS counter reset 2^40 - R and an
 * interrupt threshold of 100 records.  A pointer chase over 64 KB at a
 * 64-byte stride: every load misses the L1D, so every load is tagged.
 * Checked:
 *  - records = floor((n - 1) / R) exactly: the first tagged uop after each
 *    overflow is sampled, then the counter restarts from the reset value
 *    (the sampled uop counts after the reload);
 *  - every record's RIP is the tagged load instruction, its RAX the address
 *    that load reads (a node of the chain), RSP a stack address;
 *  - a PMI (SIGPROF) each time the buffer reaches the threshold: the
 *    handler drains it (index back to base), so PMIs = floor(records / 100);
 *  - no record with IA32_PEBS_ENABLE bit 25 clear;
 *  - MOB_load_replay_retired (IA32_PEBS_ENABLE bits 9, 24, 25, helper ESCR
 *    MOB_load_replay PARTIAL_DATA|UNALGN_ADDR on MOB_ESCR0): a loop of an
 *    8-byte store and a 4-byte load at +2 (blocked by the store buffer
 *    model, UNALGN_ADDR): the same record count, RIP the blocked load, RAX
 *    the buffer (README "Store buffer").
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "tap.h"

#define R 100
#define NREC 300
#define THR 100
#define REC 144

static uint64_t ds[9];                  /* 64-bit DS save area */
static uint64_t pebs[NREC * REC / 8];
static char *buf;
static volatile unsigned long pmis, records, bad_ip, bad_ax;
extern char pebs_load[], pebs_mob[];
static const char *want_ip;             /* the tagged load instruction */

static void drain(void)
{
	uint64_t n = (ds[5] - ds[4]) / REC;

	for (uint64_t i = 0; i < n; i++) {
		const uint64_t *r = pebs + i * (REC / 8);
		if (r[1] != (uint64_t)want_ip)
			bad_ip++;
		if (r[2] < (uint64_t)buf || r[2] >= (uint64_t)buf + 65536 || (r[2] & 63))
			bad_ax++;
	}
	records += n;
	ds[5] = ds[4];
}

static volatile uint64_t at[16];

static void pmi(int sig)
{
	(void)sig;
	if (pmis < 16)
		at[pmis] = (ds[5] - ds[4]) / REC;
	pmis++;
	drain();
}

/* n dependent loads; the pointer lives in RAX */
static __attribute__((noinline)) void chase(void *p, uint64_t n)
{
	__asm__ volatile(
		"1:\n\t"
		"pebs_load:\n\t"
		"mov (%%rax), %%rax\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: "+a"(p), [n] "+r"(n)
		:
		: "memory", "cc");
}

/* n iterations of an 8-byte store and a 4-byte load at +2 (RAX = p) */
static __attribute__((noinline)) void unalgn(void *p, uint64_t n)
{
	__asm__ volatile(
		"1:\n\t"
		"mov %[n], (%%rax)\n\t"
		"pebs_mob:\n\t"
		"movl 2(%%rax), %%ecx\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [n] "+r"(n)
		: "a"(p)
		: "rcx", "memory", "cc");
}

static void run_k(void (*kern)(void *, uint64_t), void *p, uint64_t n, uint64_t pe, unsigned thr)
{
	uint64_t escr = ((uint64_t)nb_events[NB_EV_REPLAY_EVENT].event_select << NB_ESCR_EVSEL_SHIFT) |
		(UINT64_C(1) << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR;
	uint64_t cccr = NB_CCCR_ENABLE |
		((uint64_t)nb_escrs[NB_ESCR_CRU_ESCR2].select << NB_CCCR_ESCRSEL_SHIFT) |
		((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT);

	memset(ds, 0, sizeof ds);
	ds[4] = ds[5] = (uint64_t)pebs;                  /* base, index */
	ds[6] = (uint64_t)pebs + NREC * REC;             /* absolute maximum */
	ds[7] = (uint64_t)pebs + thr * REC;              /* interrupt threshold */
	ds[8] = (UINT64_C(1) << 40) - R;                 /* counter reset */
	pmis = records = bad_ip = bad_ax = 0;
	nbsim_wrmsr(NB_MSR_IA32_DS_AREA, (uint64_t)ds);
	nbsim_wrmsr(NB_MSR_IA32_PEBS_ENABLE, pe);
	nbsim_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 1);
	/* MOB_load_replay_retired's helper ESCR: PARTIAL_DATA (4) | UNALGN_ADDR (5) */
	nbsim_wrmsr(nb_escrs[NB_ESCR_MOB_ESCR0].msr, pe & 0x200 ?
		    ((uint64_t)nb_events[NB_EV_MOB_LOAD_REPLAY].event_select << NB_ESCR_EVSEL_SHIFT) |
		    (UINT64_C(0x30) << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR : 0);
	nbsim_wrmsr(nb_escrs[NB_ESCR_CRU_ESCR2].msr, escr);
	nbsim_wrmsr(nb_counters[16].msr, (UINT64_C(1) << 40) - R);
	nbsim_wrmsr(nb_counters[16].cccr_msr, cccr);
	kern(p, n);
	nbsim_wrmsr(nb_counters[16].cccr_msr, 0);
	nbsim_wrmsr(NB_MSR_IA32_PEBS_ENABLE, 0);
	nbsim_wrmsr(nb_escrs[NB_ESCR_MOB_ESCR0].msr, 0);
	drain();
}

static void run(void *p, uint64_t n, uint64_t pe, unsigned thr)
{
	want_ip = pebs_load;
	run_k(chase, p, n, pe, thr);
}

int main(void)
{
	const uint64_t n = 25050;      /* n / R = (n - 1) / R = 250 */
	void *p;

	if (!tap_ok(nbsim_present(), "running under nbsim"))
		return 1;
	buf = aligned_alloc(4096, 65536);
	for (unsigned i = 0; i < 1024; i++)
		*(void **)(buf + i * 64) = buf + ((i + 1) % 1024) * 64;
	p = buf;
	signal(SIGPROF, pmi);
	tap_ok(nbsim_pmi_signal(SIGPROF) == NBSIM_OK, "PMI signal SIGPROF");

	/* no PMI (threshold above the buffer): every record stays */
	run(p, n, 0x03000001, NREC + 1);       /* warm-up */
	run(p, n, 0x03000001, NREC + 1);
	TAP_EQ(records, n / R, "records = %llu: the first tagged uop after each of the %llu "
	       "overflows (a few tagged loads before the loop shift nothing here)",
	       (unsigned long long)(n / R), (unsigned long long)(n / R));
	TAP_EQ(bad_ip, 0, "every record's RIP is the tagged load instruction");
	TAP_EQ(bad_ax, 0, "every record's RAX is the address the load reads");
	TAP_EQ(pmis, 0, "no PMI below the interrupt threshold");
	/* threshold 100: the handler drains the buffer.  Its own loads miss
	 * the L1D too and are sampled (as on hardware): records stored while
	 * it runs are dropped by the drain, and their PMI arrives after it. */
	run(p, n, 0x03000001, THR);
	{
		unsigned full = 0;
		for (unsigned i = 0; i < pmis && i < 16; i++)
			full += at[i] >= THR;
		TAP_EQ(full, n / R / THR, "a PMI with a full buffer each %d records (%lu PMIs in all)",
		       THR, (unsigned long)pmis);
	}
	TAP_EQ(bad_ip, 0, "drained records: RIP is the tagged load");
	run(p, n, 0x01000001, THR);
	TAP_EQ(records, 0, "IA32_PEBS_ENABLE bit 25 clear: no record");

	/* MOB_load_replay_retired: loads the store buffer blocks */
	want_ip = pebs_mob;
	run_k(unalgn, buf, n, 0x03000200, NREC + 1);
	TAP_EQ(records, n / R, "MOB_load_replay_retired: %llu records, one per %d blocked loads",
	       (unsigned long long)(n / R), R);
	TAP_EQ(bad_ip, 0, "... every record's RIP is the blocked load");
	TAP_EQ(bad_ax, 0, "... and its RAX the buffer");
	printf("1..%d\n", tap_n);
	return tap_done();
}
