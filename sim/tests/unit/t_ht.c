/*
 * t_ht.c - native unit test of the Hyper-Threading placement (nb_ht.c) and
 * of the PMU's LP qualification with it (TAP): two "threads" interleaved
 * on LP0 and LP1 count into T0/T1-qualified counters.
 */
#include <string.h>
#include "pmu/nb_ht.h"
#include "pmu/pmu.h"
#include "tap.h"

static uint64_t sig[NB_NSIG];
static struct nb_pmu P;

#define INSTR NB_SIG(NB_EV_INSTR_RETIRED, 0)
#define CCCR(sel, at) (NB_CCCR_ENABLE | ((uint64_t)(sel) << NB_CCCR_ESCRSEL_SHIFT) | \
		       ((uint64_t)(at) << NB_CCCR_ACTIVE_SHIFT))

static uint64_t escr_instr(uint64_t t)
{
	return ((uint64_t)nb_events[NB_EV_INSTR_RETIRED].event_select << NB_ESCR_EVSEL_SHIFT) |
	       (UINT64_C(1) << NB_ESCR_EMASK_SHIFT) | t;
}

static uint64_t rd(unsigned c)
{
	uint64_t v = 0;
	nb_pmu_rdmsr(&P, nb_counters[c].msr, &v, sig);
	return v;
}

/* thread tid runs n instructions */
static void run(struct nb_ht *h, unsigned tid, uint64_t n)
{
	nb_pmu_set_lp(&P, nb_ht_lp(h, tid), nb_ht_active(h), sig);
	sig[INSTR] += n;
}

static int not7(unsigned tid, void *arg)
{
	(void)arg;
	return tid != 7;
}

int main(void)
{
	struct nb_ht h;

	nb_ht_init(&h, 0);
	tap_ok(nb_ht_lp(&h, 1) == 0 && nb_ht_lp(&h, 2) == 0 && nb_ht_lp(&h, 3) == 0,
	       "no HT: every thread on LP0");
	nb_ht_create(&h, 2);
	TAP_EQ(nb_ht_active(&h), 1, "no HT: only LP0 is ever active");

	nb_ht_init(&h, 1);
	tap_ok(nb_ht_lp(&h, 1) == 0 && nb_ht_lp(&h, 2) == 1 && nb_ht_lp(&h, 3) == 0 &&
	       nb_ht_lp(&h, 4) == 1, "HT: ThreadId 1, 3 on LP0; 2, 4 on LP1");
	TAP_EQ(nb_ht_active(&h), 1, "HT: at start only LP0 (main thread) is active");
	nb_ht_create(&h, 2);
	TAP_EQ(nb_ht_active(&h), 3, "HT: the second thread activates LP1");
	nb_ht_create(&h, 3);
	nb_ht_exit(&h, 2);
	TAP_EQ(nb_ht_active(&h), 1, "HT: LP1 idle again when its only thread exits");
	nb_ht_exit(&h, 3);
	TAP_EQ(nb_ht_active(&h), 1, "HT: LP0 stays active with the main thread");
	nb_ht_exit(&h, 3);
	TAP_EQ(h.live[0], 1, "a second exit of the same thread changes nothing");
	nb_ht_exit(&h, 1);
	nb_ht_exit(&h, 1);
	tap_ok(h.live[0] == 0 && h.live[1] == 0, "exits never underflow");
	tap_ok(nb_ht_balance(&h, NULL, NULL) == 0 && h.moves == 0,
	       "fixed placement: no thread ever moves");

	/* --nbsim-ht-place=migrate: fork placement and idle balancing */
	nb_ht_init(&h, 1);
	nb_ht_set_place(&h, NB_HT_MIGRATE);
	for (unsigned t = 2; t <= 5; t++)
		nb_ht_create(&h, t);
	tap_ok(nb_ht_lp(&h, 2) == 1 && nb_ht_lp(&h, 3) == 0 && nb_ht_lp(&h, 4) == 1 &&
	       nb_ht_lp(&h, 5) == 0, "migrate: threads 2-5 created on LP 1, 0, 1, 0 (fewer "
	       "live first, ties (t-1) mod 2)");
	nb_ht_exit(&h, 2);
	TAP_EQ(nb_ht_balance(&h, NULL, NULL), 5, "migrate: thread 2 exits, LP0 has 3 to LP1's 1: "
	       "thread 5 (highest of LP0) moves");
	tap_ok(nb_ht_lp(&h, 5) == 1 && nb_ht_home(&h, 5) == 0 && h.live[0] == 2 && h.live[1] == 2,
	       "migrate: thread 5 runs on LP1, created on LP0; 2 live threads on each LP");
	nb_ht_exit(&h, 4);
	TAP_EQ(nb_ht_balance(&h, NULL, NULL), 0, "migrate: 2 to 1 is balanced enough: no move");
	nb_ht_create(&h, 2);
	TAP_EQ(nb_ht_lp(&h, 2), 1, "migrate: a new thread goes to the LP with fewer (a reused "
	       "ThreadId too)");
	TAP_EQ(nb_ht_home(&h, 2), 1, "migrate: its home is where it was created");
	{
		/* the caller may refuse a candidate: the next highest moves */
		struct nb_ht g;
		nb_ht_init(&g, 1);
		nb_ht_set_place(&g, NB_HT_MIGRATE);
		for (unsigned t = 2; t <= 7; t++)
			nb_ht_create(&g, t);       /* LP0: 1 3 5 7, LP1: 2 4 6 */
		nb_ht_exit(&g, 2);
		nb_ht_exit(&g, 4);             /* LP0 4, LP1 1 */
		TAP_EQ(nb_ht_balance(&g, not7, NULL), 5, "migrate: thread 7 may not move: 5 does");
		TAP_EQ(nb_ht_balance(&g, not7, NULL), 0, "migrate: LP0 3, LP1 2: no second move");
		TAP_EQ(g.moves, 1, "migrate: one move counted");
	}

	/* the binding (sched_setaffinity): masks, inheritance, moves */
	nb_ht_init(&h, 0);
	TAP_EQ(nb_ht_set_mask(&h, 1, 2), 0, "no HT: a mask of CPU 1 only has no modelled LP (EINVAL)");
	TAP_EQ(nb_ht_set_mask(&h, 1, 3), 1, "no HT: {0,1} is {0}");
	TAP_EQ(nb_ht_want(&h, 1), 0, "no HT: nothing moves");
	TAP_EQ(nb_ht_move(&h, 1, 1, 1), 0, "no HT: nb_ht_move refuses LP1");
	nb_ht_init(&h, 1);
	TAP_EQ(nb_ht_mask(&h, 1), 3, "HT: the main thread may run on both LPs");
	TAP_EQ(nb_ht_set_mask(&h, 1, 0xfc), 0, "HT: a mask without CPU 0 or 1 is refused");
	TAP_EQ(nb_ht_mask(&h, 1), 3, "HT: ... and records nothing");
	TAP_EQ(nb_ht_set_mask(&h, 1, 0x6), 2, "HT: {1,2} binds to LP1");
	TAP_EQ(nb_ht_want(&h, 1), 1, "HT: the main thread, on LP0, wants LP1");
	nb_ht_create_by(&h, 3, 1);
	tap_ok(nb_ht_lp(&h, 3) == 1 && nb_ht_home(&h, 3) == 1 && nb_ht_mask(&h, 3) == 2,
	       "fixed: thread 3 created by a thread bound to LP1 inherits the mask and is "
	       "placed on LP1, not (3-1) mod 2");
	TAP_EQ(nb_ht_move(&h, 1, 1, 1), 1, "HT: the main thread moves to LP1");
	tap_ok(nb_ht_lp(&h, 1) == 1 && nb_ht_home(&h, 1) == 1 && h.live[0] == 0 && h.live[1] == 2 &&
	       nb_ht_active(&h) == 2 && nb_ht_want(&h, 1) == 1,
	       "HT: rehomed on LP1; LP0 has no live thread and is inactive");
	nb_ht_set_mask(&h, 3, 1);
	TAP_EQ(nb_ht_move(&h, 3, nb_ht_want(&h, 3), 0), 1, "HT: thread 3 bound to LP0 moves");
	tap_ok(nb_ht_lp(&h, 3) == 0 && nb_ht_home(&h, 3) == 1 && h.live[0] == 1 && h.live[1] == 1,
	       "HT: moved without rehome: runs on LP0, programs LP1's registers");
	TAP_EQ(nb_ht_move(&h, 3, 0, 0), 0, "HT: a move to its own LP is none");
	TAP_EQ(nb_ht_move(&h, 9, 0, 0), 0, "HT: a thread not alive does not move");
	nb_ht_init(&h, 1);
	nb_ht_set_place(&h, NB_HT_MIGRATE);
	nb_ht_set_mask(&h, 1, 1);
	nb_ht_create_by(&h, 2, 1);
	nb_ht_create_by(&h, 3, 1);
	tap_ok(nb_ht_lp(&h, 2) == 0 && nb_ht_lp(&h, 3) == 0 && h.live[0] == 3,
	       "migrate: threads created by a thread bound to LP0 stay on LP0 (fork placement "
	       "would take LP1)");
	nb_ht_create(&h, 4);
	TAP_EQ(nb_ht_lp(&h, 4), 1, "migrate: an unbound thread goes to the LP with fewer");
	TAP_EQ(nb_ht_balance(&h, NULL, NULL), 0, "migrate: LP0 3 bound threads, LP1 1: none of "
	       "them moves against its mask");
	nb_ht_set_mask(&h, 2, 3);
	TAP_EQ(nb_ht_balance(&h, NULL, NULL), 2, "migrate: thread 2 unbound: it moves, not 3 "
	       "(higher, bound to LP0)");

	/* two threads interleaved; counters qualified by LP */
	memset(sig, 0, sizeof sig);
	nb_pmu_init(&P, 3, 1, NULL, sig);
	nb_ht_init(&h, 1);
	nb_pmu_wrmsr(&P, nb_escrs[NB_ESCR_CRU_ESCR0].msr, escr_instr(NB_ESCR_T0_USR), sig);
	nb_pmu_wrmsr(&P, nb_escrs[NB_ESCR_CRU_ESCR1].msr, escr_instr(NB_ESCR_T1_USR), sig);
	nb_pmu_wrmsr(&P, nb_counters[12].cccr_msr, CCCR(4, NB_ACTIVE_ANY), sig);
	nb_pmu_wrmsr(&P, nb_counters[13].cccr_msr, CCCR(4, NB_ACTIVE_SINGLE), sig);
	nb_pmu_wrmsr(&P, nb_counters[14].cccr_msr, CCCR(4, NB_ACTIVE_ANY), sig);
	nb_pmu_wrmsr(&P, nb_counters[15].cccr_msr, CCCR(4, NB_ACTIVE_BOTH), sig);
	run(&h, 1, 100);                 /* alone */
	nb_ht_create(&h, 2);
	run(&h, 1, 10);
	run(&h, 2, 20);
	run(&h, 1, 30);
	run(&h, 2, 40);
	nb_ht_exit(&h, 2);
	run(&h, 1, 5);                   /* alone again */
	nb_pmu_set_lp(&P, 0, nb_ht_active(&h), sig);
	TAP_EQ(rd(12), 145, "T0_USR, any: LP0's 100 + 10 + 30 + 5");
	TAP_EQ(rd(13), 105, "T0_USR, single: LP0 while alone (100 + 5)");
	TAP_EQ(rd(14), 60, "T1_USR, any: LP1's 20 + 40");
	TAP_EQ(rd(15), 60, "T1_USR, both: LP1 ran only while both were active");
	return tap_done_plan();
}
