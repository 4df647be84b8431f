/*
 * nb_cycles.c - the clock: cycles (global_power_events RUNNING) from the
 * timing model (nb_timing.c) of each logical processor, read lazily at
 * each PMU access; the helpers the generated code calls at the end of each
 * superblock run (nb_tm_sb and its combined forms with the branch); the
 * logical processors' switch.  Step mode, which reports the cycles one by
 * one to the PMU, is below it (nb_step.c).  See README.md "Timing model".
 */
#include "nb_tool.h"
#include "timing/nb_smt.h"

static uint64_t tm_seen[2];       /* cycles of each clock in nb_cyc     */
/* Hyper-Threading (nb_smt.c): what each LP did in its last segment, and
 * where its running segment began */
static struct nb_smt_prof smt_prof[2];
static int smt_have[2];
static struct nb_smt_mark smt_mark[2];
/* both LPs have run user code at once (--ht=yes): from then on the
 * sampled clock is the model (its profiles of the other LP, nb_smt.c,
 * need every run walked) */
static Bool smt_both;

static void tm_seg(const struct nb_tm_block *b, ULong range);

void nb_tm_setup(void)
{
	nb_step_seg = tm_seg;
	for (unsigned lp = 0; lp < 2; lp++) {
		nb_tm_init(&nb_tm_lp[lp], nb_tm_params_for(nb_cpu->model), nb_cpu->mispredict_penalty);
		/* replay (nb_tmmemo.c); not with --ht=yes: its key and
		 * effect do not hold the package sharing's state (nb_smt.c:
		 * window, alternation, the other LP's unit pattern) nor the
		 * unit use the other LP's profile is learned from.  The
		 * sampled clock walks its samples without it (nb_tmsample.c)
		 * and uses it where it runs every run (PMIs, step mode) */
		nb_tm_lp[lp].memo.on = clo_clock != NB_CLOCK_WALK && !clo_ht;
		nb_tm_lp[lp].smp.skip = clo_sample_skip;
		nb_tm_lp[lp].smp.forget = clo_sample_forget;
		nb_tm_lp[lp].smp.peer = clo_ht ? &nb_tm_lp[lp ^ 1] : NULL;
		/* a line's transfer: 2 bus clocks, in ticks (nb_bus.c; the
		 * slots of HT's bus pattern, nb_smt.c) */
		nb_tm_lp[lp].bus_line = 4 * (uint64_t)nb_bus_ratio(nb_cpu->model, nb_cpu->l3_kb != 0);
		/* (the program's start: as after a PMU access) */
		if (clo_clock == NB_CLOCK_SAMPLED)
			nb_tms_anchor(&nb_tm_lp[lp]);
	}
}

/* step mode's take (nb_step.c) resolved before any clock work */
static inline void tk_resolve(void)
{
	if (nb_step_tk_armed)
		nb_step_resolve();
}

/* One superblock ran through uops [range & 0xffffffff, range >> 32) of b;
 * seg: the run may come in segments (nb_tm_rest, step mode) */
static inline __attribute__((always_inline)) void tm_sb(const struct nb_tm_block *b, ULong range,
							 Bool seg)
{
	UInt to = (UInt)(range >> 32);

	if (to > b->n)
		to = b->n;
	if (clo_mem_timing == MT_NO)
		nb_tmp->ld_mask = 0;    /* memory-blind: every load hits */
	switch (clo_clock) {
	case NB_CLOCK_FAST:
		nb_tm_run_fast(nb_tmp, b, (UInt)range, to, nb_misp_total());
		return;
	case NB_CLOCK_SAMPLED:
		/* (with --ht=yes, once both LPs have run user code at once,
		 * nb_smt.c shares the package between the LPs' walked runs,
		 * whose costs the skipped ones are charged, PMIs or not; until
		 * then the running LP has the whole package, as without
		 * Hyper-Threading: nb_tm_switch.  The model on every run while
		 * both share it with --nbsim-smt-clock=walk) */
		if (smt_both && clo_smt_walk) {
			nb_tms_sync(nb_tmp);    /* (nb_tm_run, below this clock, charges no streak) */
			break;
		}
		if (seg) {
			/* (runs in segments: at PMI checks, instruction by instruction) */
			if (nb_step_held && !(UInt)range)
				nb_step_close_held(0);  /* (a new run: the one held back ends) */
			else if (nb_tms_seg_held(nb_tmp, b, (UInt)range, to, nb_misp_total()))
				return;         /* (step mode's common case, without the call) */
			nb_tm_seg_sampled(nb_tmp, b, (UInt)range, to, nb_misp_total());
		} else {
			/* (a thin translation's whole run while a PMI is possible,
			 * nb_instr.c: after the checked copy's run, still open) */
			if ((nb_need & NEED_PMI) && nb_tmp->smp.open != NB_SEG_NONE)
				nb_tms_close(nb_tmp);
			nb_tm_run_sampled(nb_tmp, b, (UInt)range, to, nb_misp_total());
		}
		return;
	case NB_CLOCK_MODEL:
	case NB_CLOCK_WALK:     /* (the replay off: nb_tm_lp[].memo.on) */
		break;
	}
	/* (a PMI check's segment inside a run leaves the run's
	 * mispredictions to its end, where a whole run takes them:
	 * nb_pmi_check, nb_tm_mid) */
	nb_tm_run(nb_tmp, b, (UInt)range, to, nb_tm_mid ? nb_tmp->misp_seen : nb_misp_total());
}

/*
 * The fast strings' block mode (nb_timing.h NB_TM_REPB) is the
 * execution's, decided at its start: forward (DF clear) and 64 elements
 * or more, where the parts count their loads and stores per 64-byte
 * block (docs/counting-rules.md, rep movs, rep stos: "from 64
 * iterations on"; backward stores one per element).  VEX runs each
 * iteration as a visit of the instruction (RCX = n, ..., 1, and a last
 * visit with 0); a visit that is not the next of the execution under way
 * (same address, RCX one less) starts one.
 */
void nb_tm_rep_visit(ULong pc, ULong rcx, ULong dflag)
{
	struct nb_tm *t = nb_tmp;

	if (t->str_pc != pc || t->str_next != rcx)
		t->str_block = rcx >= 64 && (Long)dflag > 0;
	t->str_pc = rcx ? pc : 0;
	t->str_next = rcx - 1;
}

/* a held run that was not held after all (nb_step_end, through
 * nb_step_seg): its last segment */
static void tm_seg(const struct nb_tm_block *b, ULong range)
{
	tm_sb(b, range, True);
}

VG_REGPARM(2) void nb_tm_sb(const struct nb_tm_block *b, ULong range)
{
	tk_resolve();
	tm_sb(b, range, (nb_need & NEED_STEP) != 0);
}

VG_REGPARM(2) void nb_tm_step(const struct nb_tm_block *b, ULong range)
{
	tk_resolve();
	tm_sb(b, range, True);
	nb_step();
}

/* A superblock that ends with a call, a return or an indirect jump: the
 * branch (nb_branch) and the clock (nb_tm_sb) in one call instead of two,
 * in that order.  Start-up code is translated about once per five runs
 * (bench empty: 13,000 runs, 2,800 translations): a call less in its IR
 * is a call less for VEX to allocate registers around. */
void nb_branch_tm(ULong packed, ULong target, const struct nb_tm_block *b, ULong range)
{
	nb_branch(packed, 1, target);
	tm_sb(b, range, False);
}

/* A run from the superblock's start that ends without a conditional
 * branch: the branch, if any (a call, a return, an indirect jump), then
 * the clock, whose sampled common case finds its cost entry at the site
 * instead of searching the block's entries (nb_tms_find: 2-3% of nbsim
 * on awk and sort, whose runs end so about one in five).  The same skips
 * and walks as nb_tm_sb: the entry is the one nb_tms_find would find. */
static inline __attribute__((always_inline)) void tm_site_rest_in(struct nb_tm_site *s)
{
	if (clo_mem_timing == MT_NO)
		nb_tmp->ld_mask = 0;
	if ((nb_need & NEED_PMI) && clo_clock == NB_CLOCK_SAMPLED && nb_tmp->smp.open != NB_SEG_NONE)
		nb_tms_close(nb_tmp);   /* (as tm_sb: a checked copy's run before) */
	if (nb_tms_site_hit(nb_tmp, &s->site) &&
	    nb_tms_skip(nb_tmp, s->site.k, s->site.n, nb_misp_total()))
		return;
	tm_sb(s->b, (ULong)s->site.to << 32, False);
	if (clo_clock == NB_CLOCK_SAMPLED && s->b->real)
		nb_tms_site_find(nb_tmp, &s->site, s->b);
}

static void __attribute__((noinline)) tm_site_rest(struct nb_tm_site *s)
{
	tm_site_rest_in(s);
}

/* the skipped run's common case first (nb_tms_site_skip), without the
 * rest's registers saved and restored at every call (GCC saved six for
 * the whole helper on its every path); under --nbsim-mem-timing=no,
 * whose ld_mask the rest clears, the rest.  While a PMI is possible
 * (a thin translation's runs, thin), the fast path too unless a checked
 * run's segments are still open (the rest closes them first: no_open);
 * when it takes the run it does what the rest's nb_tms_site_hit and
 * nb_tms_skip would (with no missing load), and else nothing */
static inline Bool no_open(void)
{
	return !(nb_need & NEED_PMI) || nb_tmp->smp.open == NB_SEG_NONE;
}

static inline __attribute__((always_inline)) void tm_site(struct nb_tm_site *s, ULong target,
							  Bool thin)
{
	(void)thin;
	if (s->br)
		nb_branch(s->br, 1, target);
	if (no_open() && clo_mem_timing != MT_NO &&
	    nb_tms_site_skip(nb_tmp, &s->site, nb_misp_total()))
		return;
	tm_site_rest(s);
}

VG_REGPARM(2) void nb_tm_site(struct nb_tm_site *s, ULong target)
{
	tm_site(s, target, False);
}

/* nb_tm_site in a thin translation (nb_instr_pmi.c): the same, unless a
 * check inside ran the clock part of the way (nb_tm_thin): then the
 * branch and the rest of the run in segments */
VG_REGPARM(2) void nb_tm_site_thin(struct nb_tm_site *s, ULong target)
{
	if (!nb_tm_p) {
		tm_site(s, target, True);
		return;
	}
	if (s->br)
		nb_branch(s->br, 1, target);
	nb_tm_rest(s->b, s->site.to);
}

/* A superblock that ends with a conditional branch, both of whose ways
 * run the same uops (nb_instr.c): the branch (nb_cond) and the clock
 * (nb_tm_sb) in one call instead of two (a call per superblock run less:
 * bench branchy's runs are five uops long) */
static inline __attribute__((always_inline)) void cond_tm_rest_in(struct nb_cond_tm *s, ULong misp)
{
	if ((nb_need & NEED_PMI) && clo_clock == NB_CLOCK_SAMPLED && nb_tmp->smp.open != NB_SEG_NONE)
		nb_tms_close(nb_tmp);   /* (as tm_sb: a checked copy's run before) */
	/* the sampled clock's common case here, without its call (its
	 * entry found after the first run) */
	if (nb_tms_site_hit(nb_tmp, &s->site) &&
	    nb_tms_skip(nb_tmp, s->site.k, s->site.n, misp))
		return;
	tm_sb(s->b, (ULong)s->site.to << 32, False);
	if (clo_clock == NB_CLOCK_SAMPLED && s->b->real)
		nb_tms_site_find(nb_tmp, &s->site, s->b);
}

static void __attribute__((noinline)) cond_tm_rest(struct nb_cond_tm *s, ULong misp)
{
	cond_tm_rest_in(s, misp);
}

/* thin: as tm_site's */
static inline __attribute__((always_inline)) void cond_tm(struct nb_cond_tm *s, ULong taken, Bool thin)
{
	/* the mispredictions before this branch's: read before its count's
	 * store, whose slot the prediction chooses (read after it, they
	 * waited for the prediction's loads) */
	ULong misp = nb_misp_total(), miss;

	miss = (ULong)nb_bpred_cond_at(&nb_bp, &s->br, (int)taken);

	nb_raw[RAW_CBR0 + 2 * (ULong)(taken != 0) + miss]++;
	/* (nb_irule_bound; not while no PMI is possible: nb_stat) */
	if (nb_need & NEED_PMI)
		nb_pmi_budget -= (Long)(-miss & (ULong)nb_pmi_misp_debit);
	(void)thin;
	/* the skipped run's common case first, as tm_site's; the rest,
	 * called, keeps its registers off this path */
	if (no_open() && nb_tms_site_skip(nb_tmp, &s->site, misp + miss))
		return;
	cond_tm_rest(s, misp + miss);
}

VG_REGPARM(2) void nb_cond_tm(struct nb_cond_tm *s, ULong taken)
{
	cond_tm(s, taken, False);
}

/* The program accessed the PMU (nb_main.c, a client request, after
 * nb_update_cycles): the sampled clock starts again (nb_tms_anchor) */
void nb_tm_anchor(void)
{
	tk_resolve();
	if (clo_clock == NB_CLOCK_SAMPLED) {
		struct nb_tm *o = &nb_tm_lp[(nb_tmp - nb_tm_lp) ^ 1];

		nb_tms_anchor(nb_tmp);
		/* the other LP's clock takes the same generation: the two
		 * clocks learn into one table of cost entries per block
		 * (nb_tmsample.h), where an entry of another generation is
		 * free; with the anchors of each LP apart, the two evicted
		 * each other's entries and walked almost every run after
		 * (nb_stat --ht=yes of sort: 24.6 M runs walked of 234 M,
		 * 1.33 M entries evicted).  What it learned before is
		 * forgotten (a cost of the old generation is not found): its
		 * next runs start a warm phase */
		nb_tms_sync(o);
		o->smp.gen = nb_tmp->smp.gen;
	}
}

/*
 * While a PMI is possible (README "Overflow interrupts (PMI)"): the clock
 * runs a superblock's uops as far as the path has gone, from where it got
 * to (nb_tm_p, set to 0 at the superblock's start): at its exits and end,
 * and at every PMI check (nb_pmi_check), which must know the retirement
 * cycle of the instruction just before it.  Between checks the clock runs
 * once per segment, as without PMIs.
 */
ULong nb_tm_p;

VG_REGPARM(2) void nb_tm_rest(const struct nb_tm_block *b, ULong to)
{
	tk_resolve();
	if (to > nb_tm_p)
		tm_sb(b, (to << 32) | nb_tm_p, (nb_need & (NEED_PMI | NEED_STEP)) != 0);
	nb_tm_p = to;
}

/* A thin translation's clock (nb_instr_pmi.c): on the whole run, as
 * nb_tm_sb, unless a check inside it ran the clock part of the way
 * (nb_tm_p, 0 at its start): then the rest in segments, as nb_tm_rest */
VG_REGPARM(2) void nb_tm_thin(const struct nb_tm_block *b, ULong range)
{
	if (nb_tm_p)
		nb_tm_rest(b, range >> 32);
	else
		tm_sb(b, range, False);
}

/* nb_branch_tm in a thin translation: the branch, then the clock as
 * nb_tm_thin (the two calls it made before, in that order, as one: in
 * sort, PAPI_TOT_CYC sampled, about a fifth of the superblocks run end
 * with a call, a return or an indirect jump) */
void nb_branch_tm_thin(ULong packed, ULong target, const struct nb_tm_block *b, ULong range)
{
	nb_branch(packed, 1, target);
	nb_tm_thin(b, range);
}

/* nb_cond_tm in a thin translation: the same, unless a check inside ran
 * the clock part of the way (nb_tm_thin): then the branch (as nb_cond)
 * and the rest of the run */
VG_REGPARM(2) void nb_cond_tm_thin(struct nb_cond_tm *s, ULong taken)
{
	if (!nb_tm_p) {
		cond_tm(s, taken, True);
		return;
	}
	nb_cond(&s->br, taken);
	nb_tm_rest(s->b, s->site.to);
}

/* The running LP changes, or the set of active LPs does (nb_main.c,
 * after nb_update_cycles, which charged the outgoing clock its
 * mispredictions).  The branch counts are the package's: the
 * mispredictions so far are not the incoming LP's.  The outgoing LP's
 * segment becomes its profile; the incoming LP's clock gets its share of
 * the package: with both LPs active, its half of the partitioned
 * structures and what the other LP's profile leaves of the shared ones
 * (nb_smt.h); with one, all of it. */
void nb_tm_switch(unsigned lp, unsigned active)
{
	unsigned old = (unsigned)(nb_tmp - nb_tm_lp);

	tk_resolve();
	lp &= 1;
	nb_tms_close(nb_tmp);
	nb_tms_sync(nb_tmp);
	nb_smt_learn(nb_tmp, &smt_mark[old], &smt_prof[old]);
	smt_have[old] = 1;
	if ((active & 3) == 3 && !smt_both) {
		/* the sharing begins (tm_sb).  A profile learned before it
		 * is of a package one LP had whole: none is kept (the
		 * incoming LP alternates strictly until the other has run a
		 * segment, nb_smt_share) */
		smt_both = True;
		if (clo_clock == NB_CLOCK_SAMPLED)
			for (unsigned i = 0; i < 2; i++) {
				nb_tms_close(&nb_tm_lp[i]);
				nb_tms_sync(&nb_tm_lp[i]);
				smt_have[i] = 0;
			}
	}
	nb_tmp = &nb_tm_lp[lp];
	if (clo_clock == NB_CLOCK_SAMPLED && clo_ht) {
		/* the costs of the package's state from here: shared while
		 * both LPs run (a cost learned with the whole package charged
		 * while both run, or the reverse, made an OpenMP program's
		 * cycles 1.5% short) */
		unsigned both = (active & 3) == 3;
		for (unsigned i = 0; i < 2; i++) {
			nb_tms_sync(&nb_tm_lp[i]);
			nb_tm_lp[i].smp.gen = (nb_tm_lp[i].smp.gen & ~(uint64_t)1) | both;
			nb_tm_lp[i].smp.coff = both ? NB_TMS_EXITS : 0;
		}
	}
	nb_smt_share(nb_tmp, lp, (active & 3) == 3, smt_have[lp ^ 1] ? &smt_prof[lp ^ 1] : NULL,
		     smt_have[lp] ? &smt_prof[lp] : NULL);
	nb_smt_mark(nb_tmp, &smt_mark[lp]);
	nb_tmp->misp_seen = nb_misp_total();
	if (nb_stepping)
		nb_step_open = nb_tmp->ret;
}

/* LP lp's clock passed the other LP's (nb_lockstep.c): its profile from here */
void nb_tm_cross(unsigned lp)
{
	if (nb_tmp != &nb_tm_lp[lp & 1])
		return;
	nb_tms_close(nb_tmp);
	nb_tms_sync(nb_tmp);
	nb_smt_mark(nb_tmp, &smt_mark[lp & 1]);
}

/* The clock starts (nb_need.c: a counter selects cycles for the first
 * time): the mispredictions so far happened while nothing was timed. */
void nb_tm_time_on(void)
{
	tk_resolve();
	for (unsigned lp = 0; lp < 2; lp++) {
		nb_tms_close(&nb_tm_lp[lp]);
		nb_tms_sync(&nb_tm_lp[lp]);
		nb_tm_lp[lp].misp_seen = nb_misp_total();
	}
}

/* Step mode begins (nb_need.c, after nb_update_cycles) */
void nb_tm_step_on(void)
{
	tk_resolve();
	for (unsigned lp = 0; lp < 2; lp++) {
		nb_tms_close(&nb_tm_lp[lp]);
		nb_tms_sync(&nb_tm_lp[lp]);
		nb_tm_lp[lp].step.record = 1;
	}
	nb_step_open = nb_tmp->ret;
}

/*
 * Cycles (global_power_events RUNNING): the cycles of the running LP's
 * clock (nb_timing.c) through the last retirement; a client request
 * (RDMSR/WRMSR/RDPMC: the serializing accesses of the PMU) ends the open
 * retirement cycle, and nothing of what follows allocates before it.
 *
 * Lazy mode: the clock's new cycles are added at each client request.
 * Step mode (a counter filters per cycle): nb_step reports every cycle to
 * the PMU as the clock retires each instruction's uops; both give the
 * same count.
 */
void nb_update_cycles(void)
{
	unsigned lp = (unsigned)(nb_tmp - nb_tm_lp);
	uint64_t c;

	tk_resolve();
	nb_lean_fold();
	nb_tms_close(nb_tmp);   /* (the run before this point has ended) */
	if (nb_step_held)
		nb_step_close_held(1);
	/* a misprediction at the last branch before this point delays it */
	nb_tms_sync(nb_tmp);
	nb_tm_misp(nb_tmp, nb_misp_total(), clo_clock == NB_CLOCK_FAST);
	if (!nb_stepping) {
		c = nb_tms_serialize(nb_tmp);
		nb_cyc += c - tm_seen[lp];
		tm_seen[lp] = c;
	} else
		tm_seen[lp] = nb_step_access(nb_tmp);
	nb_m_seen = nb_sig[SIG_MISP];
	nb_u_seen = nb_sig[SIG_UOPS];
	nb_sig[NB_SIG_CYCLES] = nb_cyc;
}

/* Cycles so far without ending the open retirement cycle (not a
 * serializing point): the whole cycles only.  Monotonic: a later
 * nb_update_cycles() gives at least as many. */
void nb_peek_cycles(void)
{
	ULong c = nb_cyc;
	unsigned lp = (unsigned)(nb_tmp - nb_tm_lp);

	nb_step_resolve_mid();
	nb_lean_fold();
	if (!nb_stepping && nb_tms_peek(nb_tmp) > tm_seen[lp])
		c += nb_tms_peek(nb_tmp) - tm_seen[lp];
	nb_sig[NB_SIG_CYCLES] = c;
}

/* The same cycles, not written to the signals (the PMI check's pre-check,
 * nb_pmi.c: the lean fold adds only to the statistics' stall cycles and
 * other signals, none of which the clock reads) */
ULong nb_cycles_now(void)
{
	ULong c = nb_cyc;
	unsigned lp = (unsigned)(nb_tmp - nb_tm_lp);

	nb_step_resolve_mid();
	if (!nb_stepping && nb_tms_peek(nb_tmp) > tm_seen[lp])
		c += nb_tms_peek(nb_tmp) - tm_seen[lp];
	return c;
}
