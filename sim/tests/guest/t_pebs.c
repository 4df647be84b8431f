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
 * With the argument "ht" (t_pebs_ht.sh: --ht=yes), PEBS and the logical
 * processors [SDM 18.16.3: bits 25/26 enable PEBS for the writer's
 * logical processor / the other one; counter 16 (MSR_IQ_CCCR4) is LP0's
 * PEBS counter, 17 LP1's; IA32_DS_AREA is per logical processor]:
 *  - LP0's PEBS on, a thread on LP1 chases: no record, LP0's DS area
 *    untouched, and the main thread's chase afterwards gives exactly the
 *    records of a run alone (LP1's loads took none of counter 16's count);
 *  - bit 25 written from LP1 enables LP1's PEBS, not LP0's: no record for
 *    LP0's chase (none for LP1 either: its counter 17 is not programmed);
 *  - bit 26 written from LP1 enables LP0's: its records as alone;
 *  - IA32_DS_AREA written on LP1 does not change LP0's, and reads back
 *    per logical processor;
 *  - LP1's own PEBS: counter 17 (replay_event for T1_USR on CRU_ESCR3),
 *    LP1's DS area, bit 25 written on LP1: its chase gives n / R records
 *    in its buffer, RIP the load, none in LP0's; with both LPs' PEBS on
 *    (bits 25 and 26 written on LP1, LP0 programmed first) each LP's chase
 *    gives its own n / R records in its own buffer.
 */
#define _GNU_SOURCE
#include <pthread.h>
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

/* The DS save area D over buffer BUF: PEBS counter reset 2^40 - R, an
 * interrupt threshold of THR records */
static void ds_init(uint64_t *d, uint64_t *b, unsigned thr)
{
	memset(d, 0, 9 * sizeof *d);
	d[4] = d[5] = (uint64_t)b;                       /* base, index */
	d[6] = (uint64_t)b + NREC * REC;                 /* absolute maximum */
	d[7] = (uint64_t)b + thr * REC;                  /* interrupt threshold */
	d[8] = (UINT64_C(1) << 40) - R;                  /* counter reset */
}

/* replay_event NBOGUS for logical processor LP's user mode on its PEBS
 * counter, 16 + LP (CRU_ESCR2 / CRU_ESCR3), preset 2^40 - LEFT */
static void pebs_counter_on(unsigned lp, uint64_t left)
{
	unsigned escr = lp ? NB_ESCR_CRU_ESCR3 : NB_ESCR_CRU_ESCR2;

	nbsim_wrmsr(nb_escrs[escr].msr,
		    ((uint64_t)nb_events[NB_EV_REPLAY_EVENT].event_select << NB_ESCR_EVSEL_SHIFT) |
		    (UINT64_C(1) << NB_ESCR_EMASK_SHIFT) | (lp ? NB_ESCR_T1_USR : NB_ESCR_T0_USR));
	nbsim_wrmsr(nb_counters[16 + lp].msr, (UINT64_C(1) << 40) - left);
	nbsim_wrmsr(nb_counters[16 + lp].cccr_msr, NB_CCCR_ENABLE |
		    ((uint64_t)nb_escrs[escr].select << NB_CCCR_ESCRSEL_SHIFT) |
		    ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT));
}

static void pebs_counter_off(unsigned lp)
{
	nbsim_wrmsr(nb_counters[16 + lp].cccr_msr, 0);
	nbsim_wrmsr(nb_escrs[lp ? NB_ESCR_CRU_ESCR3 : NB_ESCR_CRU_ESCR2].msr, 0);
}

static void run_k(void (*kern)(void *, uint64_t), void *p, uint64_t n, uint64_t pe, unsigned thr)
{
	ds_init(ds, pebs, thr);
	pmis = records = bad_ip = bad_ax = 0;
	nbsim_wrmsr(NB_MSR_IA32_DS_AREA, (uint64_t)ds);
	nbsim_wrmsr(NB_MSR_IA32_PEBS_ENABLE, pe);
	nbsim_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 1);
	/* MOB_load_replay_retired's helper ESCR: PARTIAL_DATA (4) | UNALGN_ADDR (5) */
	nbsim_wrmsr(nb_escrs[NB_ESCR_MOB_ESCR0].msr, pe & 0x200 ?
		    ((uint64_t)nb_events[NB_EV_MOB_LOAD_REPLAY].event_select << NB_ESCR_EVSEL_SHIFT) |
		    (UINT64_C(0x30) << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR : 0);
	pebs_counter_on(0, R);
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

/* ---- logical processor 1 (argument "ht") ---- */

/* counter 16 preset while the LP1 thread runs: above LP0's own tagged
 * uops of starting and joining it (about 100), far below LP1's 25050 */
#define FAR 1000
static uint64_t ds1[9];                 /* LP1's DS save area */
static uint64_t lp1_pe;                 /* IA32_PEBS_ENABLE LP1 writes, or 0 */
static volatile uint64_t lp1_cpu = 99, lp1_ds_read;

/* LP1's own PEBS (counter 17, T1_USR, its DS area): one chase */
static uint64_t pebs1[NREC * REC / 8];
static volatile uint64_t lp1_records, lp1_bad_ip;

static void *lp1_pebs(void *arg)
{
	ds_init(ds1, pebs1, NREC + 1);                   /* no PMI */
	nbsim_wrmsr(NB_MSR_IA32_DS_AREA, (uint64_t)ds1);
	nbsim_wrmsr(NB_MSR_IA32_PEBS_ENABLE, lp1_pe);
	nbsim_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 1);
	pebs_counter_on(1, R);
	chase(arg, 25050);
	pebs_counter_off(1);
	lp1_records = (ds1[5] - ds1[4]) / REC;
	lp1_bad_ip = 0;
	for (uint64_t i = 0; i < lp1_records; i++)
		lp1_bad_ip += pebs1[i * (REC / 8) + 1] != (uint64_t)pebs_load;
	return NULL;
}

static void *lp1_main(void *arg)
{
	struct nbsim_info inf;

	if (nbsim_info(&inf) == NBSIM_OK)
		lp1_cpu = inf.logical_cpu;
	if (lp1_pe) {
		nbsim_wrmsr(NB_MSR_IA32_DS_AREA, (uint64_t)ds1);
		nbsim_wrmsr(NB_MSR_IA32_PEBS_ENABLE, lp1_pe);
	} else
		chase(arg, 25050);
	{
		uint64_t v = 0;
		nbsim_rdmsr(NB_MSR_IA32_DS_AREA, &v);
		lp1_ds_read = v;
	}
	return NULL;
}

static void on_lp1_run(void *(*fn)(void *), void *p, uint64_t pe)
{
	pthread_t th;

	lp1_pe = pe;
	pthread_create(&th, NULL, fn, p);
	pthread_join(th, NULL);
}

static void on_lp1(void *p, uint64_t pe)
{
	on_lp1_run(lp1_main, p, pe);
}

/* LP0 programs PEBS as run_k does and keeps it on; what runs between
 * start and stop: an LP1 thread, the main thread's chase */
static void start_lp0(uint64_t pe)
{
	ds_init(ds, pebs, NREC + 1);                     /* no PMI */
	pmis = records = bad_ip = bad_ax = 0;
	want_ip = pebs_load;
	nbsim_wrmsr(NB_MSR_IA32_DS_AREA, (uint64_t)ds);
	if (pe)
		nbsim_wrmsr(NB_MSR_IA32_PEBS_ENABLE, pe);
	nbsim_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 1);
	/* LP0's own loads while the LP1 thread is created and joined do not
	 * overflow it; LP1's, if counted, would (FAR) */
	pebs_counter_on(0, FAR);
}

/* counter 16 restarts R tagged uops from overflow, then LP0 chases */
static void chase_lp0(void *p, uint64_t n)
{
	nbsim_wrmsr(nb_counters[16].msr, (UINT64_C(1) << 40) - R);
	chase(p, n);
}

static void stop_lp0(void)
{
	nbsim_wrmsr(nb_counters[16].cccr_msr, 0);
	nbsim_wrmsr(NB_MSR_IA32_PEBS_ENABLE, 0);
	drain();
}

static void ht_tests(void *p, uint64_t n)
{
	struct nbsim_info inf;
	uint64_t v = 0;

	tap_ok(nbsim_info(&inf) == NBSIM_OK && inf.logical_cpu == 0,
	       "the main thread runs on logical processor 0");
	/* LP0's PEBS on; LP1 chases; then LP0 chases */
	start_lp0(0x03000001);
	{
		uint64_t c0 = 0, c1 = 0;
		nbsim_rdmsr(nb_counters[16].msr, &c0);
		on_lp1(p, 0);
		nbsim_rdmsr(nb_counters[16].msr, &c1);
		TAP_EQ(lp1_cpu, 1, "the second thread runs on logical processor 1");
		TAP_EQ(ds[5], ds[4], "LP0's PEBS on, LP1's 25050 tagged loads: no record in LP0's buffer");
		tap_ok(c1 - c0 < FAR, "... and counter 16 (T0_USR) did not count them "
		       "(%llu tagged uops of LP0's own thread start and join)", (unsigned long long)(c1 - c0));
	}
	chase_lp0(p, n);
	stop_lp0();
	TAP_EQ(records, n / R, "... LP0's chase afterwards: %llu records, as alone",
	       (unsigned long long)(n / R));
	TAP_EQ(bad_ip, 0, "... every record's RIP is LP0's load");
	/* ENABLE_PEBS_MY_THR from LP1 */
	start_lp0(0);
	memset(ds1, 0, sizeof ds1);
	on_lp1(p, 0x03000001);
	chase_lp0(p, n);
	stop_lp0();
	TAP_EQ(records, 0, "IA32_PEBS_ENABLE bit 25 (MY_THR) written on LP1: no PEBS for LP0");
	TAP_EQ(ds1[5], ds1[4], "... nor for LP1 (its counter 17 counts nothing)");
	TAP_EQ(lp1_ds_read, (uint64_t)ds1, "IA32_DS_AREA reads back LP1's own on LP1");
	nbsim_rdmsr(NB_MSR_IA32_DS_AREA, &v);
	TAP_EQ(v, (uint64_t)ds, "... and LP0's on LP0 (written before LP1 wrote its own)");
	/* ENABLE_PEBS_OTH_THR from LP1 */
	start_lp0(0);
	on_lp1(p, 0x05000001);
	chase_lp0(p, n);
	stop_lp0();
	TAP_EQ(records, n / R, "bit 26 (OTH_THR) written on LP1: LP0's PEBS, %llu records",
	       (unsigned long long)(n / R));
	TAP_EQ(bad_ip, 0, "... every record's RIP is LP0's load");
	/* LP1's own PEBS on counter 17 (n = 25050 in lp1_pebs too) */
	start_lp0(0);
	on_lp1_run(lp1_pebs, p, 0x03000001);
	drain();
	TAP_EQ(lp1_records, n / R, "LP1's PEBS (counter 17, bit 25 written on LP1): %llu records "
	       "in LP1's buffer", (unsigned long long)(n / R));
	TAP_EQ(lp1_bad_ip, 0, "... every record's RIP is LP1's load");
	TAP_EQ(records, 0, "... none in LP0's");
	stop_lp0();
	/* both */
	start_lp0(0x03000001);
	on_lp1_run(lp1_pebs, p, 0x07000001);
	drain();
	TAP_EQ(records, 0, "both LPs' PEBS on (bits 25 and 26 written on LP1): LP1's chase "
	       "puts no record in LP0's buffer");
	TAP_EQ(lp1_records, n / R, "... and %llu in LP1's", (unsigned long long)(n / R));
	chase_lp0(p, n);
	stop_lp0();
	TAP_EQ(records, n / R, "... LP0's chase then: %llu records in LP0's buffer",
	       (unsigned long long)(n / R));
	TAP_EQ(bad_ip, 0, "... every record's RIP is LP0's load");
}

int main(int argc, char **argv)
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

	if (argc > 1 && !strcmp(argv[1], "ht")) {
		ht_tests(p, n);
		printf("1..%d\n", tap_n);
		return tap_done();
	}
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
