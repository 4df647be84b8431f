/*
 * nb_pmi_arm.c - when an overflow interrupt or a PEBS assist can happen,
 * and how far the next one is: what follows from the PMU's registers after
 * each write (nb_pmu_written calls nb_pmi_update and nb_pebs_update), the
 * budget generated code counts down to the next check, the cheap
 * pre-check for plain cycle counters, PEBS's conditions and countdown per
 * logical processor.  Their delivery (nb_pmi.c) is above the PMU-access
 * protocol, which calls this file: hence two files.  See README.md
 * "Overflow interrupts" and "PEBS".
 */
#include "nb_tool.h"
#include "nb_samples.h"

Int nb_pmi_sig;                   /* NBSIM_REQ_PMI_SIGNAL; 0 = none */
Bool nb_pmi_on;                   /* a PMI can be sent               */
Bool nb_pmi_front;                /* a front-end's events sample      */
/*
 * Events that may still be counted before an armed counter can overflow,
 * less an upper bound of what each superblock segment since the last check
 * added to any counter (generated code subtracts it; see BOUND_INSN); the
 * check runs when it drops to 0 or below.  Huge while no PMI is possible.
 * (nb_pmi_budget and nb_pmi_memdyn are in nb_state.c: nb_exec.c debits
 * load misses from it, below this file's layer.)
 */
/* the counters of the PMI in flight (nb_pmi.c's skid), 0 none: the budget
 * is 0 while one is */
UInt nb_pmi_skid_pend;

/*
 * --nbsim-pmi-verify=yes: is every debit an upper bound?  At each check
 * outside a skid, the cycles the clock ran since the budget was last set
 * must be at most what the budget lost since (the bounds the
 * instructions subtracted and the debits made as things happened); a
 * check where they are more is short: an overflow could have come
 * earlier than the check that finds it, and the sample lands late.
 * Meaningful where a cycle counter sets the budget (NB_PMIB_CYC) and
 * under --nbsim-clock=model (the sampled clock estimates skipped runs,
 * so its readings move by more than what ran).  --nbsim-stats prints the
 * figures; a short check is also reported on stderr (the first few).
 */
ULong nb_pmi_vf_checks, nb_pmi_vf_short, nb_pmi_vf_max;
static ULong vf_cyc;
static Long vf_bud;
static Bool vf_on;

static void vf_note(ULong ovh)
{
	vf_on = nb_pmi_on && !nb_pmi_skid_pend && nb_pmi_bclass == NB_PMIB_CYC;
	if (!vf_on)
		return;
	vf_cyc = nb_cycles_now();
	vf_bud = nb_pmi_budget + (Long)ovh;
}

/*
 * What the pipeline owes already when a budget is set: the bounds
 * (nb_irule_bound) hold for a run that starts from a pipeline whose
 * older work is done by its last retirement; a check re-bases the budget
 * at a boundary, and what older instructions left in flight there is
 * not in any later instruction's bound.
 */
static ULong overhang(void)
{
	const struct nb_tm *t = nb_tmp;

	if (nb_pmi_bclass != NB_PMIB_CYC)
		return 0;
	return t->fe > t->ret ? t->fe - t->ret : 0;
}

/* at a check, the clock run up to its boundary (nb_pmi_check) */
void nb_pmi_verify(ULong at)
{
	ULong c;
	Long lost;

	if (!vf_on || nb_pmi_skid_pend)
		return;
	c = nb_cycles_now() - vf_cyc;
	lost = vf_bud - nb_pmi_budget;
	nb_pmi_vf_checks++;
	if ((Long)c <= lost)
		return;
	nb_pmi_vf_short++;
	if ((ULong)((Long)c - lost) > nb_pmi_vf_max)
		nb_pmi_vf_max = (ULong)((Long)c - lost);
	if (nb_pmi_vf_short <= 20)
		VG_(message)(Vg_UserMsg, "nbsim: pmi-verify: check %llu at %#llx short by %lld "
			     "(clock +%llu, budget -%lld since set)\n", nb_pmi_vf_checks,
			     at & ((1ULL << NB_PMI_TO_SHIFT) - 1), (Long)c - lost, c, lost);
}

/*
 * While a PMI is in flight its skid ends at the first boundary at which
 * the clock has reached skid_at (nb_pmi.c).  With a cycle counter's
 * bounds, which are strict (--nbsim-pmi-verify), the budget can be the
 * cycles left to it less what the pipeline owes (overhang): the check
 * that finds the end is still made, and those before it are not (a
 * budget of 0 checked every boundary: 1.1 M of sort's 3.0 M checks).  At
 * most NB_PMI_SKID_MAX, which the compares before an instruction that
 * leaves generated code allow for (nb_instr_pmi.c skid_slack); 0 for any
 * other class, and with HT.
 */
Long nb_pmi_skid_budget(ULong skid_at)
{
	ULong r, o, b;

	if (nb_pmi_bclass != NB_PMIB_CYC || clo_ht)
		return 0;
	r = nb_tm_at(nb_tmp);
	o = overhang();
	if (skid_at <= r + o)
		return 0;
	b = skid_at - r - o;
	return (Long)(b < NB_PMI_SKID_MAX ? b : NB_PMI_SKID_MAX);
}

#define NB_PMI_NEAR 4096u        /* counts before an overflow (below)   */

/* The budget from the (synced) PMU: the distance to overflow of the
 * nearest armed counter (1 with FORCE_OVF: any increment overflows).
 * 0 while a PMI is in flight: every check looks at the skid. */
void nb_pmi_budget_set(void)
{
	ULong b = 0x7fffffffffffffffULL, ovh;
	Bool near;

	for (unsigned c = 0; nb_pmi_on && c < NB_NUM_COUNTERS; c++) {
		ULong d;
		if (!((nb_pmu_state.pmi_armed >> c) & 1))
			continue;
		d = (nb_pmu_state.cccr[c] & NB_CCCR_FORCE_OVF) ? 1
			: NB_COUNTER_MASK + 1 - nb_pmu_state.ctr[c];
		if (d < b)
			b = d;
	}
	/* the sampled clock walks the last NB_PMI_NEAR counts before an
	 * overflow and the skid (nb_tms_exact): the overflow finds the
	 * pipeline as the walk leaves it, and the skid gets the walk's
	 * retirement cycles (t_iebs: without the first, the samples fall
	 * one instruction later than the model's, at +66 to +78) */
	near = b <= NB_PMI_NEAR;
	if (clo_clock == NB_CLOCK_SAMPLED)
		nb_tms_exact(nb_tmp, nb_pmi_skid_pend || near);
	ovh = nb_pmi_skid_pend ? 0 : overhang();
	nb_pmi_budget = nb_pmi_skid_pend ? 0 : (Long)(near ? b : b - NB_PMI_NEAR) - (Long)ovh;
	if (clo_pmi_verify)
		vf_note(ovh);
}

/*
 * The pre-check (nb_pmi_check): when every active counter is an armed
 * counter of plain cycles (global_power_events RUNNING: no filter, no
 * cascade, FORCE_OVF clear; with HT, each gaining the cycles since the
 * last sync only if it counts the running LP: cyc_counts_now), the distance to the
 * nearest overflow follows from the clock alone, and a check that finds
 * no counter overflowed sets the budget from it without deriving the
 * signals and syncing the PMU: the counts are added at the next full
 * check or access (a plain counter's sync adds), and the clock's exact
 * mode is set as nb_pmi_budget_set would set it (on within NB_PMI_NEAR
 * of the overflow).  With the bound per instruction (BOUND_INSN) far
 * above a cycle counter's increment, such checks were nearly all of
 * them: on sort, 1,200 a sample; with the bound per armed event most of
 * those left are within NB_PMI_NEAR, where this pre-check once gave way
 * to the full check (its derivation and PMU sync: a tenth of what
 * nb_record's checks cost on sort beyond nb_stat).
 */
Bool nb_pmi_cyc_only;

static Bool cyc_plain(const struct nb_pmu_cfg *g)
{
	return g->ev == NB_EV_GLOBAL_POWER_EVENTS && g->mask == 1 && !g->compare &&
		g->enable && !g->cascade && !g->force_ovf && !g->percycle &&
		(g->lpmask & (clo_ht ? 3 : 1));
}

/* Does plain cycle counter G gain the running LP's cycles now (pmu.c's
 * lp_counts: its T0/T1 bits, the LP not in its handler, ActiveThread)?
 * With HT the PMU folds at every change of the running LP or of the
 * active ones (nb_pmu_set_lp), so the cycles since its last sync are
 * the running LP's, under the LP state as it stands. */
static Bool cyc_counts_now(const struct nb_pmu *p, const struct nb_pmu_cfg *g)
{
	unsigned n = (p->lp_active & 1) + ((p->lp_active >> 1) & 1);

	if (!clo_ht)
		return True;    /* (one LP: as the pre-check always took it) */
	if (!((g->lpmask >> p->lp) & 1) || ((p->cpl0 >> p->lp) & 1))
		return False;
	switch (g->at) {
	case NB_ACTIVE_SINGLE: return n == 1;
	case NB_ACTIVE_BOTH:   return n == 2;
	case NB_ACTIVE_ANY:    return n >= 1;
	default:               return False;
	}
}

Bool nb_pmi_far(void)
{
	const struct nb_pmu *p = &nb_pmu_state;
	ULong inc = nb_cycles_now() - p->last[NB_SIG_CYCLES], b = 0x7fffffffffffffffULL, ovh;
	Bool near;

	if (inc >> 63)
		inc = 0;
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		ULong d, i;
		if (!((p->pmi_armed >> c) & 1))
			continue;
		d = NB_COUNTER_MASK + 1 - p->ctr[c];
		i = cyc_counts_now(p, &p->cfg[c]) ? inc : 0;
		if (i >= d)
			return False;
		if (d - i < b)
			b = d - i;
	}
	/* near an overflow too (nb_pmi_budget_set's budget and exact
	 * phase, from the same distance) */
	near = b <= NB_PMI_NEAR;
	if (clo_clock == NB_CLOCK_SAMPLED)
		nb_tms_exact(nb_tmp, near);
	ovh = overhang();
	nb_pmi_budget = (Long)(near ? b : b - NB_PMI_NEAR) - (Long)ovh;
	if (clo_pmi_verify)
		vf_note(ovh);
	return True;
}

/*
 * The bound the instrumentation debits per instruction (nb_irule_bound):
 * what the armed counters can gain, not what any counter can.  Checks
 * come due where the sum of the bounds reaches the distance to the
 * nearest overflow: with BOUND_INSN's every-signal bound a cycle
 * counter's check came about 1,000 times a sample (bench-log), and each
 * cut the clock.  NB_PMIB_INS: every armed counter counts non-bogus
 * instr_retired (NBOGUSNTAG, NBOGUSTAG: one per retired instruction, two
 * with the Pentium D's second count), so an instruction adds at most
 * that.  NB_PMIB_CYC: plain cycles or those: an instruction's cycles are
 * bounded by its uops' issue, latencies and unit intervals, the
 * misprediction penalty if the branch was mispredicted, and its loads'
 * miss latencies; the last two are debited from the budget as they
 * happen (nb_pmi_memdyn: the predictor's misses, nb_pmi_misp_debit; the
 * cache model's, the miss's own latency and what is ahead of it instead
 * of the worst per memory uop).
 *
 * With HT the LPs take turns (valgrind runs one thread at a time) and a
 * counter counts only the running LP's events (pmu.c lp_counts; a switch
 * folds what ran into the LP that ran it, nb_pmu_set_lp): a counter of
 * instr_retired gains at most one (two) per instruction the running LP
 * retires, whatever its T0/T1 bits and ActiveThread, and every
 * instruction of either LP debits the one budget.  So NB_PMIB_INS holds
 * under HT too.  NB_PMIB_CYC does not: while both LPs run, the running
 * LP's clock gets what the other LP leaves of the package (nb_smt.c:
 * allocation and retirement in alternate cycles, half the units, the
 * miss slots and the replays for want of one, the L1D's conflicts, the
 * bus), which the single LP's latencies do not bound.
 * The class only widens (INS, CYC, ALL): a translation made for a
 * narrower one would debit too little, so a wider one discards them
 * (nb_update_need); a narrower one keeps the wider, which debit more.
 */
UInt nb_pmi_bclass = NB_PMIB_INS;

static Bool ins_plain(const struct nb_pmu_cfg *g)
{
	return g->ev == NB_EV_INSTR_RETIRED && !(g->mask & ~3u) && !g->compare &&
		g->enable && !g->cascade && !g->force_ovf && !g->percycle;
}

static UInt bclass_of(void)
{
	UInt k = NB_PMIB_INS;

	if (!clo_pmi_bound_armed)
		return NB_PMIB_ALL;
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		const struct nb_pmu_cfg *g = &nb_pmu_state.cfg[c];
		if (!((nb_pmu_state.pmi_armed >> c) & 1) || ins_plain(g))
			continue;
		if (clo_ht || !cyc_plain(g))
			return NB_PMIB_ALL;
		k = NB_PMIB_CYC;
	}
	return k;
}

/* After a register access or NBSIM_REQ_PMI_SIGNAL (the PMU is synced). */
void nb_pmi_update(void)
{
	/* a front-end's sampling events take PMIs too (the perf driver's),
	 * and so do nb_record's (nb_samples.c) */
	nb_pmi_on = (nb_pmi_sig != 0 || nb_pmi_front || clo_samples) && nb_pmu_state.pmi_armed != 0;
	if (nb_pmi_on) {
		UInt k = bclass_of();
		if (k > nb_pmi_bclass)
			nb_pmi_bclass = k;
		nb_pmi_memdyn = nb_pmi_bclass == NB_PMIB_CYC;
		nb_pmi_misp_debit = nb_pmi_memdyn ? (Long)nb_cpu->mispredict_penalty : 0;
	}
	nb_pmi_budget_set();
	nb_pmi_cyc_only = nb_pmi_on && nb_pmu_state.cycle_counters == 0;
	for (unsigned c = 0; nb_pmi_cyc_only && c < NB_NUM_COUNTERS; c++) {
		const struct nb_pmu_cfg *g = &nb_pmu_state.cfg[c];
		if (g->active && (!((nb_pmu_state.pmi_armed >> c) & 1) || !cyc_plain(g)))
			nb_pmi_cyc_only = False;
	}
}

/* ---- PEBS's conditions (README "PEBS") ---- */

Bool nb_pebs_lp_on[2];            /* ... for LP lp                  */
Long nb_pebs_left[2];             /* tagged uops until NB_PEBS_CTR(lp) overflows */
Bool nb_pebs_armed[2];            /* overflowed: sample the next one */
Bool nb_pebs_fmt64;               /* DS format: 64-bit with DTES64   */
/* IA32_PEBS_ENABLE bits 25/26 (ENABLE_PEBS_MY_THR / _OTH_THR) name the
 * writer's logical processor and the other one [SDM 18.16.3]: which LPs
 * the last write enabled */
static Bool nb_pebs_lp_en[2];
/* IA32_DS_AREA of each logical processor (an architectural MSR per
 * logical processor) */
uint64_t nb_ds_area[2];

/* After a register access (the PMU is synced).  PEBS samples the uops of
 * logical processor lp when IA32_PEBS_ENABLE has bit 24 (uop tagging) and
 * enables lp (bits 25/26 as written, nb_pebs_lp_en) [SDM IA32_PEBS_ENABLE;
 * seed 003 sec. 9 enable_pebs], MSR_PEBS_MATRIX_VERT bit 0 (loads), lp's
 * IA32_DS_AREA is set and counter NB_PEBS_CTR(lp) counts replay_event NBOGUS
 * for lp's user mode (T<lp>_USR) without a Compare filter.  The tagging
 * conditions are those of replay_tagged() for loads. */
void nb_pebs_update(uint32_t written)
{
	uint64_t pe = nb_other_msr(NB_MSR_IA32_PEBS_ENABLE);

	if (written == NB_MSR_IA32_PEBS_ENABLE) {
		unsigned me = nb_pmu_state.lp & 1;
		nb_pebs_lp_en[me] = (pe >> 25) & 1;
		nb_pebs_lp_en[me ^ 1] = (pe >> 26) & 1;
	}
	nb_pebs_sel = (pe & 1 ? MC_L1 : 0) | (pe & 2 ? MC_L2 : 0) | (pe & 4 ? MC_DTLB : 0);
	if ((pe & (UINT64_C(1) << 10)) && nb_escr_selects(NB_ESCR_SAAT_ESCR1, NB_EV_LOAD_PORT_REPLAY, 1))
		nb_pebs_sel |= MC_SPLIT;
	nb_pebs_sel |= nb_mob_tags(pe);
	if (!(nb_other_msr(NB_MSR_MSR_PEBS_MATRIX_VERT) & 1))
		nb_pebs_sel = 0;
	nb_pebs_on = False;
	for (unsigned lp = 0; lp < 2; lp++) {
		const struct nb_pmu_cfg *g = &nb_pmu_state.cfg[NB_PEBS_CTR(lp)];
		nb_pebs_lp_on[lp] = nb_pebs_lp_en[lp] && (pe & (UINT64_C(1) << 24)) &&
			nb_pebs_sel && (nb_ds_area[lp] != 0 || clo_samples) && (g->lpmask & (1u << lp)) &&
			g->active && g->ev == NB_EV_REPLAY_EVENT && !g->compare && (g->mask & 1);
		nb_pebs_on |= nb_pebs_lp_on[lp];
		nb_pebs_left[lp] = (Long)(NB_COUNTER_MASK + 1 - nb_pmu_state.ctr[NB_PEBS_CTR(lp)]);
		if (written == nb_counters[NB_PEBS_CTR(lp)].msr ||
		    written == nb_counters[NB_PEBS_CTR(lp)].cccr_msr)
			nb_pebs_armed[lp] = False;
	}
}

/* The PEBS arming of LP lp, saved and restored with a thread's context
 * (nb_ctx.c): the countdown follows from the restored counter. */
Bool nb_pebs_armed_get(unsigned lp)
{
	return nb_pebs_armed[lp & 1];
}

void nb_pebs_armed_set(unsigned lp, Bool armed)
{
	nb_pebs_armed[lp & 1] = armed;
}

