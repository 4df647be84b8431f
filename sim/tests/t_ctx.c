/*
 * t_ctx.c - native unit test of the per-thread PMU contexts (pmu_ctx.c),
 * TAP.  Two or three "threads" (contexts) take turns on one PMU; the
 * signals they produce while loaded are known, so each one's counts are.
 */
#include <string.h>
#include "pmu_ctx.h"
#include "tap.h"

static uint64_t sig[NB_NSIG];
static struct nb_pmu P;
static struct nb_pmu_ctx A, B, C;
static struct nb_pmu_ctx *run;

#define INSTR NB_SIG(NB_EV_INSTR_RETIRED, 0)
#define UOPS  NB_SIG(NB_EV_UOPS_RETIRED, 0)
#define CCCR_ON(sel) (NB_CCCR_ENABLE | ((uint64_t)(sel) << NB_CCCR_ESCRSEL_SHIFT) | \
		      ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT))

static uint64_t escr_val(unsigned ev, unsigned mask)
{
	return ((uint64_t)nb_events[ev].event_select << NB_ESCR_EVSEL_SHIFT) |
	       ((uint64_t)mask << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR;
}

static int wr(uint32_t msr, uint64_t v) { return nb_pmu_wrmsr(&P, msr, v, sig); }
static uint64_t ctr(unsigned c)
{
	uint64_t v = 0xdead;
	(void)nb_pmu_rdpmc(&P, c, &v, sig);
	return v;
}
static uint64_t cccr(unsigned c)
{
	uint64_t v = 0xdead;
	(void)nb_pmu_rdmsr(&P, nb_counters[c].cccr_msr, &v, sig);
	return v;
}

static int sw(struct nb_pmu_ctx *to)
{
	int r = nb_pmu_ctx_switch(&P, run, to, NULL, sig);
	run = to;
	return r;
}

/* counter 12 counts instr_retired NBOGUSNTAG (CRU_ESCR0, select 4), the
 * way the component programs it: CCCR disabled, ESCR, counter 0, Enable */
static void prog12(uint64_t preset, uint64_t extra)
{
	wr(nb_counters[12].cccr_msr, CCCR_ON(4) & ~NB_CCCR_ENABLE);
	wr(nb_escrs[NB_ESCR_CRU_ESCR0].msr, escr_val(NB_EV_INSTR_RETIRED, 1));
	wr(nb_counters[12].msr, preset);
	wr(nb_counters[12].cccr_msr, CCCR_ON(4) | extra);
}

/* counter 14 counts uops_retired NBOGUS on CRU_ESCR1 (select 4) */
static void prog14(void)
{
	wr(nb_counters[14].cccr_msr, CCCR_ON(4) & ~NB_CCCR_ENABLE);
	wr(nb_escrs[NB_ESCR_CRU_ESCR1].msr, escr_val(NB_EV_UOPS_RETIRED, 1));
	wr(nb_counters[14].msr, 0);
	wr(nb_counters[14].cccr_msr, CCCR_ON(4));
}

static void produce(uint64_t instr)
{
	sig[INSTR] += instr;
	sig[UOPS] += 2 * instr;
	sig[NB_SIG_CYCLES] += instr;
}

int main(void)
{
	tap_plan(34);
	memset(sig, 0, sizeof sig);
	nb_pmu_init(&P, 2, 0, NULL, sig);
	nb_pmu_ctx_init(&A);
	nb_pmu_ctx_init(&B);
	nb_pmu_ctx_init(&C);
	run = &A;

	/* nothing held: a switch does nothing */
	produce(10);
	TAP_EQ(sw(&B), 0, "switch between contexts that hold no counter: nothing done");
	TAP_EQ(sw(&A), 0, "and back: nothing done");

	/* A counts, B counts the same event on the same counter */
	prog12(0, 0);
	produce(100);
	TAP_EQ(sw(&B), 1, "A holds counter 12: the switch saves it");
	TAP_EQ(ctr(12), 0, "B reads counter 12 as 0 (not A's 100)");
	tap_ok(!(cccr(12) & NB_CCCR_ENABLE), "counter 12 is disabled while B runs (A enabled it)");
	TAP_EQ(P.events_in_use, 0, "nothing counts while B runs");
	produce(7);
	TAP_EQ(ctr(12), 0, "B's 7 instructions are not counted for A");
	prog12(0, 0);
	produce(50);
	sw(&A);
	TAP_EQ(ctr(12), 100, "A gets 100 back");
	tap_ok((cccr(12) & NB_CCCR_ENABLE) != 0, "and its Enable");
	produce(30);
	sw(&B);
	TAP_EQ(ctr(12), 50, "B: 50");
	produce(5);
	sw(&A);
	TAP_EQ(ctr(12), 130, "A: 100 + 30");
	sw(&B);
	TAP_EQ(ctr(12), 55, "B: 50 + 5");

	/* C uses another counter: A's and B's are off while C runs */
	sw(&C);
	TAP_EQ(ctr(12), 0, "C reads counter 12 as 0");
	prog14();
	produce(20);
	TAP_EQ(ctr(14), 40, "C's counter 14: 2 x 20 uops");
	sw(&A);
	TAP_EQ(ctr(14), 0, "A reads C's counter 14 as 0");
	TAP_EQ(ctr(12), 130, "A's counter 12 did not count C's 20 instructions");
	sw(&C);
	TAP_EQ(ctr(14), 40, "C: 40 back");

	/* stop (Enable off) keeps the value in the context until it is
	 * zeroed; a disabled zero counter is dropped */
	wr(nb_counters[14].cccr_msr, CCCR_ON(4) & ~NB_CCCR_ENABLE);
	sw(&A);
	sw(&C);
	TAP_EQ(ctr(14), 40, "a stopped counter keeps its value across switches");
	wr(nb_counters[14].msr, 0);
	wr(nb_counters[14].cccr_msr, 0);
	sw(&A);
	tap_ok(!(C.used & (1u << 14)), "counter and CCCR 0: dropped from C's context");
	tap_ok((A.used & (1u << 12)) != 0, "A still holds counter 12");

	/* B counts another event on the same counter and ESCR: A's
	 * configuration comes back with A */
	sw(&B);
	wr(nb_counters[12].cccr_msr, CCCR_ON(4) & ~NB_CCCR_ENABLE);
	wr(nb_escrs[NB_ESCR_CRU_ESCR0].msr, escr_val(NB_EV_UOPS_RETIRED, 1));
	wr(nb_counters[12].msr, 0);
	wr(nb_counters[12].cccr_msr, CCCR_ON(4));
	produce(10);
	TAP_EQ(ctr(12), 20, "B's counter 12 counts uops_retired: 2 x 10");
	sw(&A);
	produce(10);
	TAP_EQ(ctr(12), 140, "A's counter 12 counts instr_retired again: 130 + 10");
	sw(&B);
	TAP_EQ(ctr(12), 20, "B's counter 12: 20");
	sw(&A);

	/* overflow and its PMI go with the thread: A's counter overflows
	 * in A's interval; B runs before the PMI is taken */
	prog12(NB_COUNTER_MASK - 9, NB_CCCR_OVF_PMI_T0);   /* 10 to overflow */
	produce(15);
	sw(&B);
	TAP_EQ(nb_pmu_take_pmi(&P), 0, "B does not get A's PMI");
	tap_ok(!(cccr(12) & NB_CCCR_OVF), "B's counter 12 has no OVF");
	produce(100);
	sw(&A);
	TAP_EQ(nb_pmu_take_pmi(&P), 1u << 12, "A gets its PMI when it runs again");
	tap_ok((cccr(12) & NB_CCCR_OVF) != 0, "with OVF set");
	TAP_EQ(ctr(12), 5, "and the counter wrapped to 5");

	/* by CPU: counter 12 leaves the contexts and counts every thread */
	prog12(0, 0);
	nb_pmu_ctx_cpu_wide(&P, run, 1u << 12, 1);
	produce(10);
	sw(&B);
	produce(10);
	sw(&C);
	produce(10);
	TAP_EQ(ctr(12), 30, "a counter counting by CPU counts all three threads");

	/* Hyper-Threading: M on LP0 holds counter 12 of a stopped set; Q on
	 * LP1 then counts with counter 12 (the component schedules only
	 * around running sets); W replaces M on LP0 and goes */
	{
		struct nb_pmu_ctx M, Q, W, N;
		uint32_t cm;
		uint64_t em;

		memset(sig, 0, sizeof sig);
		nb_pmu_init(&P, 2, 0, NULL, sig);
		nb_pmu_ctx_init(&M);
		nb_pmu_ctx_init(&Q);
		nb_pmu_ctx_init(&W);
		nb_pmu_ctx_init(&N);
		prog12(0, 0);
		produce(100);
		wr(nb_counters[12].cccr_msr, CCCR_ON(4) & ~NB_CCCR_ENABLE);
		nb_pmu_ctx_note(&P, &M, NULL);          /* M runs on LP0 */
		nb_pmu_ctx_switch(&P, &N, &Q, &M, sig); /* Q starts on LP1 */
		nb_pmu_reg_of(nb_counters[12].cccr_msr, &cm, &em);
		nb_pmu_ctx_claim(&P, &M, cm, em);
		nb_pmu_reg_of(nb_escrs[NB_ESCR_CRU_ESCR0].msr, &cm, &em);
		nb_pmu_ctx_claim(&P, &M, cm, em);
		nb_pmu_reg_of(nb_counters[12].msr, &cm, &em);
		nb_pmu_ctx_claim(&P, &M, cm, em);
		prog12(0, 0);
		nb_pmu_ctx_note(&P, &Q, &M);
		produce(50);
		TAP_EQ(ctr(12), 50, "HT: Q's counter 12 on LP1 counts 50");
		nb_pmu_ctx_switch(&P, &M, &W, &Q, sig); /* W replaces M on LP0 */
		produce(5);
		TAP_EQ(ctr(12), 55, "HT: switching LP0's threads leaves LP1's counter 12 counting");
		nb_pmu_ctx_switch(&P, &W, &M, &Q, sig); /* M back on LP0 */
		TAP_EQ(ctr(12), 55, "HT: M's stopped counter 12 is not loaded over Q's running one");
		tap_ok((M.used & (1u << 12)) && !(M.live & (1u << 12)) && M.ctr[12] == 100,
		       "HT: M keeps its value 100 saved");
		nb_pmu_ctx_switch(&P, &Q, &N, &M, sig); /* Q exits */
		TAP_EQ(ctr(12), 100, "HT: Q gone, M gets counter 12 back with its 100");
	}
	return tap_done();
}
