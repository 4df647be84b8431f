/*
 * nb_smt.c - Hyper-Threading in the timing model: each logical
 * processor's share of the package while both are active, from the other
 * LP's use in its last segment.  See nb_smt.h and README.md "Timing
 * model".
 *
 * Sources:
 *  [MARR02] Marr et al., "Hyper-Threading Technology Architecture and
 *           Microarchitecture", Intel Technology Journal Q1 2002: the
 *           uop queue, reorder buffer (126 entries), load and store
 *           buffers are partitioned (each LP at most half) while both
 *           LPs are active; the allocator and the retirement logic
 *           alternate between the LPs cycle by cycle while both have
 *           uops (one alone gets every cycle); the schedulers and
 *           execution units and the caches are shared; with one LP
 *           active it has all of them (single-task mode).
 *  [SDM18]  Intel SDM Vol. 3B 18.x (seed 001), "Replay": uops are
 *           reissued when a condition for their execution was not met,
 *           among the causes "cache misses ... and unforeseen resource
 *           constraints".
 *  [HIN01]  Hinton et al., ITJ Q1 2001: the scheduler dispatches a load's
 *           dependents for an L1D hit; when it misses they are replayed.
 *
 * NB_SMT_REPLAY (7 cycles), the time round the replay loop, is a model
 * parameter: Intel does not publish it; 7 is the L2 hit latency of
 * Northwood [DLI, Table 1], the time for which a load that missed the L1D
 * is replayed when its data comes from the L2 (a replay that finds the
 * data).  The same value on Prescott (not checked against a published
 * figure).
 *
 * NB_SMT_CONFLICT (4) is a model parameter too, calibrated on Sprunt
 * 2002 (seed 000): two copies of l1_miss in dual-thread mode retire 0.65
 * uops per cycle combined, which Sprunt puts down to "excessive conflicts
 * in the memory system" once the demand of one copy (which already loads
 * it) doubles.  The rules above give 0.750: each LP bound by its half of
 * the load port at three passes per missing load (its dispatch, one
 * replay for want of a slot, the data pass).  Intel publishes nothing on
 * what else a load meets when both LPs' misses fill the slots (the
 * partitioned load buffers [MARR02] do not bind here: 24 loads per LP,
 * more than the port lets through); the model's reading: while both LPs
 * are short of slots, one in four of the loads that waited for a slot
 * misses its data on the loop's return (its line not yet in the L1D,
 * the fills of both LPs queueing in the shared L2 and L1D) and goes round
 * once more, holding its slot.  This gives 0.643 (1 in 3: 0.614, 1 in 5:
 * 0.662, 1 in 8: 0.692); the check against 0.65 is therefore a check of
 * the calibration, not an independent prediction.
 */
#include "nb_smt.h"

void nb_smt_mark(const struct nb_tm *t, struct nb_smt_mark *m)
{
	m->ret = t->ret;
	for (unsigned u = 0; u < NB_TMU_N; u++)
		m->unit[u] = t->unit_ticks[u];
	m->miss = t->miss_ticks;
	m->replays = t->replays;
	m->seq = t->seq;
}

void nb_smt_learn(const struct nb_tm *t, const struct nb_smt_mark *m, struct nb_smt_prof *out)
{
	if (t->ret <= m->ret)
		return;
	out->ticks = 2 * (t->ret - m->ret);
	for (unsigned u = 0; u < NB_TMU_N; u++)
		out->unit[u] = t->unit_ticks[u] - m->unit[u];
	out->miss = t->miss_ticks - m->miss;
	out->uops = t->seq - m->seq;
	out->short_of_slots = t->replays != m->replays;
}

uint64_t nb_smt_pattern(uint64_t num, uint64_t den, unsigned g)
{
	const unsigned runs = 64 / g;
	uint64_t k, pat = 0;

	if (!den || !num)
		return 0;
	if (num >= den)
		return ~UINT64_C(0);
	k = (num * runs + den / 2) / den;       /* busy runs, rounded */
	/* run j is busy when floor((j + 1) k / runs) > floor(j k / runs):
	 * k of the runs, evenly spread */
	for (unsigned j = 0; j < runs; j++)
		if (((j + 1) * k) / runs > (j * k) / runs)
			pat |= (g == 1 ? UINT64_C(1) : UINT64_C(3)) << (j * g);
	return pat;
}

void nb_smt_share(struct nb_tm *t, unsigned lp, int both, const struct nb_smt_prof *o)
{
	const struct nb_tm_params *p = t->p;

	(void)lp;
	for (unsigned u = 0; u < NB_TMU_N; u++)
		t->oth[u][0] = t->oth[u][1] = 0;
	t->alt = 0;
	if (!both) {
		/* single-task mode: the whole package [MARR02] */
		t->win = t->miss_n = t->replay = t->conflict = 0;
		return;
	}
	t->win = p->window / 2;                 /* [MARR02] partitioned */
	t->replay = 2 * NB_SMT_REPLAY;          /* [SDM18], [HIN01] */
	t->miss_n = p->miss_slots;
	t->conflict = 0;
	if (!o || !o->ticks) {
		/* the other LP not seen yet: strict alternation */
		t->alt = nb_smt_pattern(1, 2, 1);
		return;
	}
	/* allocation and retirement: the cycles the other LP took, its uops
	 * at p->width per cycle, at most half of them [MARR02] */
	{
		uint64_t cyc = o->ticks / 2, need = (o->uops + p->width - 1) / p->width;
		t->alt = nb_smt_pattern(need < cyc / 2 ? need : cyc / 2, cyc, 1);
	}
	/* the miss slots: half when the other LP wanted more than it had
	 * (it replayed loads for want of one); else what it left free on
	 * average, at least half (max-min fair) */
	{
		uint64_t held = (o->miss + o->ticks - 1) / o->ticks, half = (p->miss_slots + 1) / 2;
		uint64_t left = o->short_of_slots || held >= p->miss_slots ? 0 : p->miss_slots - held;
		t->miss_n = (unsigned)(left > half ? left : half);
		/* both LPs flooding the memory system: its conflicts
		 * (NB_SMT_CONFLICT, a calibrated model parameter) */
		t->conflict = o->short_of_slots ? NB_SMT_CONFLICT : 0;
	}
	/* the units: the other LP's use, spread over each instance, at
	 * most half of it (max-min fair, as the slots); the double-speed
	 * ALUs by the tick, the others by the cycle */
	for (unsigned u = 0; u < NB_TMU_N; u++) {
		unsigned n = u == NB_TMU_ALU ? 2 : 1;
		uint64_t use = o->unit[u] < o->ticks * n / 2 ? o->unit[u] : o->ticks * n / 2;
		uint64_t pat = nb_smt_pattern(use, o->ticks * n, u == NB_TMU_ALU ? 1 : 2);
		for (unsigned i = 0; i < n; i++)
			t->oth[u][i] = pat;
	}
}
