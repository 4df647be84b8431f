/*
 * t_ctx.c - native unit test of the per-thread PMU contexts (pmu_ctx.c),
 * TAP.  Two or three "threads" (contexts) take turns on one PMU; the
 * signals they produce while loaded are known, so each one's counts are.
 */
#include <string.h>
#include "pmu/pmu_ctx.h"
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
	tap_plan(51);
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
		/* Q's handler stops counter 12 to re-arm it; LP0 switches W
		 * and M meanwhile: M's stopped counter is loaded over Q's
		 * stopped one; Q, running again, takes its own back */
		wr(nb_counters[12].cccr_msr, CCCR_ON(4) & ~NB_CCCR_ENABLE);
		nb_pmu_ctx_note(&P, &Q, &M);
		nb_pmu_ctx_switch(&P, &M, &W, &Q, sig);
		nb_pmu_ctx_switch(&P, &W, &M, &Q, sig);
		TAP_EQ(ctr(12), 100, "HT: Q's counter 12 stopped: M's loaded over it");
		tap_ok(nb_pmu_ctx_reclaim(&P, &Q, &M, sig) == 1 && ctr(12) == 55 &&
		       !(M.live & (1u << 12)) && M.ctr[12] == 100,
		       "HT: Q runs again: its 55 back, M's 100 saved");
		nb_pmu_reg_of(nb_counters[12].cccr_msr, &cm, &em);
		nb_pmu_ctx_claim(&P, &M, cm, em);
		wr(nb_counters[12].cccr_msr, CCCR_ON(4));
		nb_pmu_ctx_note(&P, &Q, &M);
		produce(7);
		TAP_EQ(ctr(12), 62, "HT: ... and counts on from it (55 + 7)");
		TAP_EQ(nb_pmu_ctx_reclaim(&P, &Q, &M, sig), 0, "HT: nothing lost: no reclaim");
		nb_pmu_ctx_switch(&P, &Q, &N, &M, sig); /* Q exits */
		TAP_EQ(ctr(12), 100, "HT: Q gone, M gets counter 12 back with its 100");
	}

	/* Migration (--nbsim-ht-place=migrate): X counts on LP0 with counter
	 * 12 / CRU_ESCR0 T0_USR, moves to LP1, where Y counts with their
	 * mirrors 14 / CRU_ESCR1 T1_USR; its context is re-targeted */
	{
		struct nb_pmu_ctx X, Y, Z, N;

		TAP_EQ(nb_pmu_mirror_escr(NB_ESCR_CRU_ESCR0), NB_ESCR_CRU_ESCR1,
		       "mirror: CRU_ESCR0 <-> CRU_ESCR1");
		TAP_EQ(nb_pmu_mirror_escr(NB_ESCR_SSU_ESCR0), -1, "mirror: SSU_ESCR0 has none");
		tap_ok(nb_pmu_mirror_ctr(12) == 14 && nb_pmu_mirror_ctr(1) == 3 &&
		       nb_pmu_mirror_ctr(16) == 17 && nb_pmu_mirror_ctr(17) == 16,
		       "mirror counters: 12 <-> 14, 1 <-> 3, 16 <-> 17");
		{
			unsigned bad = 0;
			for (unsigned e = 0; e < nb_num_escrs; e++) {
				int m = nb_pmu_mirror_escr(e);
				if (e != NB_ESCR_SSU_ESCR0 &&
				    (m < 0 || nb_pmu_mirror_escr((unsigned)m) != (int)e ||
				     nb_escrs[m].select != nb_escrs[e].select))
					bad++;
			}
			TAP_EQ(bad, 0, "mirror: every ESCR but SSU_ESCR0 has one, the same select, "
			       "mirrored back to itself");
		}
		TAP_EQ(nb_pmu_mirror_escr_val(NB_ESCR_T0_USR | NB_ESCR_T1_OS | 0x7e000000u),
		       NB_ESCR_T1_USR | NB_ESCR_T0_OS | 0x7e000000u, "mirror: ESCR T0/T1 bits swap");
		TAP_EQ(nb_pmu_mirror_cccr_val(NB_CCCR_OVF_PMI_T0 | NB_CCCR_ENABLE),
		       NB_CCCR_OVF_PMI_T1 | NB_CCCR_ENABLE, "mirror: CCCR OVF_PMI_T0 -> T1");

		memset(sig, 0, sizeof sig);
		nb_pmu_init(&P, 2, 1, NULL, sig);
		nb_pmu_ctx_init(&X);
		nb_pmu_ctx_init(&Y);
		nb_pmu_ctx_init(&Z);
		nb_pmu_ctx_init(&N);
		nb_pmu_set_lp(&P, 0, 3, sig);
		prog12(0, NB_CCCR_OVF_PMI_T0);
		nb_pmu_ctx_note(&P, &X, &N);            /* X on LP0 */
		produce(100);
		nb_pmu_set_lp(&P, 1, 3, sig);           /* Y on LP1 */
		wr(nb_counters[14].cccr_msr, CCCR_ON(4) & ~NB_CCCR_ENABLE);
		wr(nb_escrs[NB_ESCR_CRU_ESCR1].msr,
		   nb_pmu_mirror_escr_val(escr_val(NB_EV_INSTR_RETIRED, 1)));
		wr(nb_counters[14].msr, 0);
		wr(nb_counters[14].cccr_msr, CCCR_ON(4));
		nb_pmu_ctx_note(&P, &Y, &X);
		produce(40);
		TAP_EQ(ctr(12) * 1000 + ctr(14), 100040, "migration: X 100 on LP0, Y 40 on LP1");
		/* X leaves LP0 (Z comes), is re-targeted, runs on LP1 */
		nb_pmu_set_lp(&P, 0, 3, sig);
		nb_pmu_ctx_switch(&P, &X, &Z, &Y, sig);
		tap_ok(nb_pmu_ctx_can_mirror(&X) && nb_pmu_ctx_mirror(&X) == 0, "migration: X mirrors");
		tap_ok(X.used == (1u << 14) && X.ctr[14] == 100 &&
		       (X.escr[NB_ESCR_CRU_ESCR1] & (NB_ESCR_T1_USR | NB_ESCR_T0_USR)) == NB_ESCR_T1_USR &&
		       (X.cccr[14] & NB_CCCR_OVF_PMI_T1) && !(X.cccr[14] & NB_CCCR_OVF_PMI_T0),
		       "migration: X holds counter 14 = 100, CRU_ESCR1 with T1_USR, OVF_PMI_T1");
		produce(7);                               /* Z on LP0 */
		nb_pmu_set_lp(&P, 1, 3, sig);
		nb_pmu_ctx_switch(&P, &Y, &X, &Z, sig);   /* X replaces Y on LP1 */
		produce(30);
		TAP_EQ(ctr(14), 130, "migration: X counts its own 30 on LP1 (100 + 30)");
		nb_pmu_set_lp(&P, 0, 3, sig);
		produce(9);                               /* Z again */
		TAP_EQ(ctr(14), 130, "migration: LP0's events do not reach X's counter");
		nb_pmu_set_lp(&P, 1, 3, sig);
		nb_pmu_ctx_switch(&P, &X, &Y, &Z, sig);
		TAP_EQ(ctr(14), 40, "migration: Y back on LP1 with its 40");
		{
			struct nb_pmu_ctx S;
			nb_pmu_ctx_init(&S);
			S.used_escr = UINT64_C(1) << NB_ESCR_SSU_ESCR0;
			tap_ok(!nb_pmu_ctx_can_mirror(&S) && nb_pmu_ctx_mirror(&S) == -1 &&
			       S.used_escr == UINT64_C(1) << NB_ESCR_SSU_ESCR0,
			       "migration: a context holding SSU_ESCR0 cannot move (unchanged)");
		}
	}
	return tap_done();
}
