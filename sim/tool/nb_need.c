/*
 * nb_need.c - what nbsim's instrumentation must produce: the events the CPU
 * model produces and the masks it does not (with the warnings), the needs
 * (NEED_*) of the enabled counters, and re-instrumentation when they grow
 * (nb_update_need).  See README.md "Speed" and "Events".
 */
#include "nb_tool.h"
#include "pub_tool_hashtable.h"
#include "nb_samples.h"

static UShort bogus_masks(unsigned ev)
{
	switch (ev) {
	case NB_EV_UOPS_RETIRED: case NB_EV_FRONT_END_EVENT: case NB_EV_REPLAY_EVENT:
	case NB_EV_INSTR_COMPLETED:
		return 1u << 1;
	case NB_EV_INSTR_RETIRED:
		return (1u << 2) | (1u << 3);
	case NB_EV_EXECUTION_EVENT:
		return 0xf0;
	}
	return 0;
}

/* Events the CPU model produces (README "Events"); a counter programmed
 * for any other event counts 0, and nbsim says so once per event. */
static ULong nb_produced_events(void)
{
	return (1ULL << NB_EV_INSTR_RETIRED) | (1ULL << NB_EV_UOPS_RETIRED) |
	       (1ULL << NB_EV_FRONT_END_EVENT) | (1ULL << NB_EV_UOP_TYPE) |
	       (1ULL << NB_EV_EXECUTION_EVENT) | FP_EVENTS | (1ULL << NB_EV_REPLAY_EVENT) |
	       (1ULL << NB_EV_BRANCH_RETIRED) | (1ULL << NB_EV_MISPRED_BRANCH_RETIRED) |
	       (1ULL << NB_EV_GLOBAL_POWER_EVENTS) |
	       (1ULL << NB_EV_RETIRED_BRANCH_TYPE) | (1ULL << NB_EV_RETIRED_MISPRED_BRANCH_TYPE) |
	       (1ULL << NB_EV_INSTR_COMPLETED) | (1ULL << NB_EV_UOP_QUEUE_WRITES) |
	       (1ULL << NB_EV_TC_MS_XFER) | MEM_EVENTS | TC_EVENTS | STB_EVENTS | FPA_EVENTS |
	       (1ULL << NB_EV_WC_BUFFER) | BUS_EVENTS;
}

/* Mask bits of produced events that the model does not produce (they
 * count 0, with a warning).  Masks whose condition the modelled machine
 * never has are not among them: they count 0 exactly, without a warning
 * (coverage.txt status "zero": BSQ_cache_reference's HITS, as no line is
 * ever Shared with one package, and WR_2ndL_MISS, as the write-through
 * L1D writes nothing back; IOQ_allocation/IOQ_active_entries OTHER, as
 * the package is alone on its bus). */
static UShort nb_unproduced_masks(unsigned ev)
{
	switch (ev) {
	case NB_EV_TC_DELIVER_MODE:     /* only DI and BI without HT */
		return (UShort)(0xff & ~((1u << 2) | (1u << 5)));
	case NB_EV_ITLB_REFERENCE:      /* HIT_UC: no uncacheable code */
		return 1u << 2;
	case NB_EV_MOB_LOAD_REPLAY:     /* NO_STA, NO_STD: no timing model */
		return (1u << 1) | (1u << 3);
	case NB_EV_MEMORY_CANCEL:       /* ST_RB_FULL: the buffer never fills */
		return 1u << 2;
	case NB_EV_X87_ASSIST:          /* FPSU, FPSO: no stack-fault model */
		return NB_FPA_FPSU | NB_FPA_FPSO;
	case NB_EV_IOQ_ALLOCATION:      /* request types other than the   */
	case NB_EV_IOQ_ACTIVE_ENTRIES:  /* default, UC/WC/WT/WP            */
		return 0x1e | (0xf << 7);
	case NB_EV_BSQ_ALLOCATION:      /* I/O, lock, split, ordered, a    */
	case NB_EV_BSQ_ACTIVE_ENTRIES:  /* memory type with bit 0 (not WB) */
		return (1u << 5) | (1u << 6) | (1u << 8) | (1u << 10) | (1u << 11);
	}
	return 0;
}

/* --nbsim-list-events=yes: every event:MASK the instrumentation produces
 * (tests/sim/t_sim_coverage.t compares it with sim/coverage.txt). */
void nb_list_events(void)
{
	ULong prod = nb_produced_events();
	for (unsigned ev = 0; ev < nb_num_events && ev < 64; ev++) {
		if (!(prod & (1ULL << ev)))
			continue;
		for (unsigned k = 0; k < nb_events[ev].nmasks; k++)
			if (!(nb_unproduced_masks(ev) & (1u << nb_events[ev].masks[k].bit)))
				VG_(umsg)("nbsim-event %s:%s\n", nb_events[ev].name,
					  nb_events[ev].masks[k].name);
	}
}

static UShort nb_warned_masks[NB_NUM_EVENTS_MAX];

void nb_warn_unmodelled(void)
{
	ULong missing = nb_pmu_state.events_in_use & ~nb_produced_events() & ~nb_warned;

	if (!clo_warn)
		return;
	for (unsigned ev = 0; ev < nb_num_events && ev < 64; ev++)
		if (missing & (1ULL << ev))
			VG_(umsg)("nbsim: warning: %s is not modelled yet: it counts 0 "
				  "(--nbsim-warn-unmodelled=no silences this)\n",
				  nb_events[ev].name);
	nb_warned |= missing;
	/* masks of produced events that are not produced */
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		const struct nb_pmu_cfg *g = &nb_pmu_state.cfg[c];
		UShort m = g->active ? (UShort)(g->mask & nb_unproduced_masks(g->ev) &
						  ~nb_warned_masks[g->ev]) : 0;
		for (unsigned k = 0; m && k < nb_events[g->ev].nmasks; k++)
			if (m & (1u << nb_events[g->ev].masks[k].bit))
				VG_(umsg)("nbsim: warning: %s:%s is not modelled yet: it counts 0 "
					  "(--nbsim-warn-unmodelled=no silences this)\n",
					  nb_events[g->ev].name, nb_events[g->ev].masks[k].name);
		if (g->active)
			nb_warned_masks[g->ev] |= m;
	}
}

static UInt need_of(ULong used)
{
	UInt n = 0;
	if (used & ((1ULL << NB_EV_INSTR_RETIRED) | (1ULL << NB_EV_EXECUTION_EVENT) | FP_EVENTS |
		    (1ULL << NB_EV_INSTR_COMPLETED)))
		n |= NEED_INSTR;
	if (used & ((1ULL << NB_EV_FRONT_END_EVENT) | (1ULL << NB_EV_UOP_TYPE)))
		n |= NEED_MEM;
	if (used & MEM_EVENTS)
		n |= NEED_CACHE;
	if (used & STB_EVENTS)
		n |= NEED_STB | NEED_CACHE;     /* the store buffer runs in nb_mem */
	if (used & (1ULL << NB_EV_PAGE_WALK_TYPE))
		n |= NEED_TLB | NEED_TC;        /* DTMISS and ITMISS */
	if (used & TC_EVENTS)
		n |= NEED_TC;
	if (used & (1ULL << NB_EV_UOPS_RETIRED))
		n |= NEED_UOPS;
	if (used & ((1ULL << NB_EV_BRANCH_RETIRED) | (1ULL << NB_EV_MISPRED_BRANCH_RETIRED) |
		    (1ULL << NB_EV_RETIRED_BRANCH_TYPE) | (1ULL << NB_EV_RETIRED_MISPRED_BRANCH_TYPE)))
		n |= NEED_BR;
	if (used & (1ULL << NB_EV_TC_MS_XFER))
		n |= NEED_ROM;
	if (used & FPA_EVENTS)
		n |= NEED_FPA;
	if (used & (1ULL << NB_EV_WC_BUFFER))
		n |= NEED_WCB;
	if (used & BUS_EVENTS)
		n |= NEED_BUS | NEED_CACHE;
	if (used & (1ULL << NB_EV_UOP_QUEUE_WRITES))    /* + bogus uops */
		n |= NEED_UOPS | NEED_ROM | NEED_BR;
	if (used & (1ULL << NB_EV_GLOBAL_POWER_EVENTS))   /* cycles: the timing model */
		n |= NEED_TIME | NEED_BR | (clo_mem_timing != MT_NO ? NEED_CACHE : 0);
	return n;
}

/* A BOGUS mask selected by an active counter needs the wrong-path model:
 * mispredicted branches (branch model) and the committed mix (uops), also
 * when no other mask of the event needs them. */

static UInt bogus_need(void)
{
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		const struct nb_pmu_cfg *g = &nb_pmu_state.cfg[c];
		if (g->active && (g->mask & bogus_masks(g->ev)))
			return NEED_BR | NEED_UOPS;
	}
	/* Tagged_mispred_branch: replay_event counts mispredicted branches */
	if ((nb_pmu_state.events_in_use & (1ULL << NB_EV_REPLAY_EVENT)) && nb_mispred_tagging())
		return NEED_BR;
	return 0;
}

/* VEX's register-update policy for code in files (--px-file-backed),
 * from the needs.  VEX copied the default policy at start-up; the policy
 * for code in file-backed mappings is passed with each translation, so
 * setting it takes effect for the translations made after a discard.
 * Every register update is kept at each instruction when anything is
 * counted (--nbsim-exact-ir, README "What VEX's optimiser must not
 * remove") and when FP assists are (README "FP assists": otherwise VEX's
 * optimiser drops an FP operation whose result register is overwritten
 * later in the superblock before nbsim sees it); with nothing counted,
 * the policy the user gave valgrind (VEX's default otherwise). */
VexRegisterUpdates nb_px_idle = VexRegUpd_INVALID;

/* Every register update kept from now on, whatever is counted: a REP LODS
 * was met in a superblock made without them (nb_replods.c) */
static Bool px_force_exact;

void nb_px_exact(void)
{
	if (!px_force_exact) {
		px_force_exact = True;
		nb_px_policy();
	}
}

void nb_px_policy(void)
{
	VG_(clo_px_file_backed) = (nb_need & (NEED_EXACT | NEED_FPA)) || px_force_exact
		? VexRegUpdAllregsAtEachInsn : nb_px_idle;
}

/*
 * Does what is counted need every register update kept (NEED_EXACT)?
 * Not when only retired instructions are counted (instr_retired,
 * instr_completed, NEED_INSTR alone) and no tagging is programmed: VEX's
 * optimiser removes Puts and the loads that fed them, never an IMark nor
 * an exit (a Put removed is one a later Put overwrites before any Get,
 * so no guard changes), so the instructions and the exits they retire
 * by are the same; what a removed load changes is the instruction's
 * memory class (RAW_IC), which only tagging and x87_SIMD_moves_uop read.
 * Counting retired instructions then costs what the idle PMU's code does
 * plus its adds (README "What VEX's optimiser must not remove").  Needs
 * only grow: a tag or another event programmed later makes it exact,
 * and every translation is made again.
 */
static Bool exact_needed(UInt n)
{
	const ULong ins = (1ULL << NB_EV_INSTR_RETIRED) | (1ULL << NB_EV_INSTR_COMPLETED);

	if (!clo_exact_ir || !n)
		return False;
	return (n & ~(NEED_INSTR | NEED_EXACT)) || (nb_pmu_state.events_in_use & ~ins) ||
		nb_tagging_programmed();
}

/*
 * Does something read retired instructions by class (NEED_ICLASS)?  The
 * classes become signals in nb_derive: front-end and execution tagging
 * (tagged instructions), the FP events and x87_SIMD_moves_uop (one uop
 * per instruction of the class), execution_event; instr_retired and
 * instr_completed untagged read their sum only.  Without a reader every
 * instruction is counted in RAW_IC(0, 0): one add per superblock instead
 * of one per class present (a superblock of sort's has three: PAPI_TOT_INS
 * alone cost 1.4x `--tool=none`).  Anything else needed keeps the classes
 * (as exact_needed), and so does Hyper-Threading (the tags are read with
 * the running LP's USR bit: the other LP's could be missed).  Needs only
 * grow, and each PMU write folds the counts made so far (nb_pmu_access)
 * before the needs change: counts in RAW_IC(0, 0) never meet a reader.
 */
static Bool iclass_needed(UInt n)
{
	const ULong ins = (1ULL << NB_EV_INSTR_RETIRED) | (1ULL << NB_EV_INSTR_COMPLETED);

	return clo_ht || (n & ~(NEED_INSTR | NEED_EXACT | NEED_ICLASS)) ||
		(nb_pmu_state.events_in_use & ~ins) || nb_tagging_programmed();
}

/* After a PMU reprogramming: re-instrument if the needs changed.  Called
 * from a client request, i.e. between superblocks: the superblock that made
 * the request has finished (its counts are in). */

UInt nb_need_front;
uint32_t nb_need_pmi_own;
UInt nb_need_clock;
Bool nb_need_preload;

/*
 * The cold phase: while the program's clocks are all that needs the
 * timing model (--nbsim-time=simulated, no counter enabled yet: the
 * dynamic loader, libc's and PAPI's start-up), memory accesses are
 * translated as one call each (nb_exec.c, nb_load_cold8...), without
 * the L1D's inline hit path, whose IR is most of what VEX's passes and
 * register allocator spend on a superblock.  Start-up code runs a few
 * times per translation (bench empty: 13,000 superblock runs for 2,800
 * translations), so the translation is most of its cost.  The calls do
 * what the inline path does, so nothing counted or timed depends on the
 * phase.  It ends when a counter is first enabled, or after
 * NB_COLD_RUNS superblock runs in a program that enables none
 * (nb_cold_check, on the superblocks run: valgrind's count less the
 * slices the lockstep's holds ended unrun, nb_ls_unrun): every
 * translation is made again, with the inline path, as a change of the
 * needs does.
 */
Bool nb_cold;
#define NB_COLD_RUNS 2000000ULL

static void discard_all(void)
{
	nb_discards++;
	VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "nbsim");
}

/*
 * Cold code after the cold phase: a superblock is translated first with
 * the cache model as one call per access (as in the cold phase) and a
 * count of its runs; its nb_tier_runs-th run marks its address hot, and
 * the translation is discarded at the next entry of valgrind's scheduler
 * (a thread's time slice, a system call, a missed indirect jump: it runs
 * cold until then): the next translation has the inline hit path.  A translation costs as many
 * cold accesses as some thousands of runs make, so code run fewer times
 * (a program's start-up, its error paths, most of an interpreter) is
 * translated once, cheaply.  Every translation takes over what the
 * sampled clock learned on the last one at its address (nb_tmb_adopt:
 * when they have the same uops; a hot one, and the others that held the
 * address and were discarded with the cold one), so the cycles do not
 * depend on the tier either.  Not while a PMI is
 * possible, in step mode or with PEBS: their calls read the state inside
 * a superblock (nb_tier_cold).
 */
ULong nb_tier_runs = 2048;

struct tier_node {                      /* a superblock's address (VgHashNode) */
	struct tier_node *next;
	UWord key;
	const struct nb_tm_block *tmb;  /* its last translation's clock uops */
	Bool hot;                       /* run nb_tier_runs times cold       */
};
static VgHashTable *tier_nodes;
ULong nb_tier_promoted;

static struct tier_node *tier_node(Addr a, Bool make)
{
	struct tier_node *h;

	if (!tier_nodes)
		tier_nodes = VG_(HT_construct)("nbsim.tier");
	h = VG_(HT_lookup)(tier_nodes, (UWord)a);
	if (!h && make) {
		h = VG_(malloc)("nbsim.tier", sizeof *h);
		h->key = (UWord)a;
		h->tmb = NULL;
		h->hot = False;
		VG_(HT_add_node)(tier_nodes, h);
	}
	return h;
}

Bool nb_tier_cold(Addr a, const struct nb_tm_block **tmb)
{
	const struct tier_node *h = tier_node(a, False);

	*tmb = h ? h->tmb : NULL;
	if (!clo_cold || !(nb_need & NEED_CACHE) || !nb_mem_lean() ||
	    (nb_need & (NEED_PEBS | NEED_PMI | NEED_STEP)))
		return False;
	return !h || !h->hot;
}

/* The translation at a has been made, its clock uops tmb (NULL: none) */
void nb_tier_made(Addr a, const struct nb_tm_block *tmb)
{
	if (tmb)
		tier_node(a, True)->tmb = tmb;
}

struct nb_tier *nb_tier_new(Addr a)
{
	/* (outlives the translation, as the clock's blocks) */
	struct nb_tier *d = VG_(malloc)("nbsim.tier", sizeof *d);

	d->runs = 0;
	d->addr = a;
	d->tmb = NULL;
	return d;
}

/* hot addresses whose cold translation is still there: discarded at the
 * next entry of the scheduler (nb_cold_check) */
#define TIER_PEND 256
static Addr tier_pend[TIER_PEND];
static UInt tier_npend;

/* The cold translation's nb_tier_runs-th run (nb_instr.c) */
VG_REGPARM(1) void nb_tier_promote(struct nb_tier *d)
{
	if (tier_npend == TIER_PEND)
		return;         /* (it stays cold; the others come first) */
	tier_node(d->addr, True)->hot = True;
	tier_pend[tier_npend++] = d->addr;
	nb_tier_promoted++;
}

/* valgrind's core flag that allows VG_(discard_translations_safely): set
 * only while a client request is handled.  nb_cold_check runs in the
 * scheduler before a thread's time slice, where no generated code runs
 * (the scheduler discards there itself for an InvalICache exit), so the
 * discard is as safe as in a client request. */
extern Bool VG_(ok_to_discard_translations);

/* A thread's time slice starts (nb_main.c) after runs superblock runs in
 * all: the cold phase ends after NB_COLD_RUNS (a program that enables no
 * counter, or not yet: its hot code gets the inline path) */
void nb_cold_check(ULong runs)
{
	Bool ok = VG_(ok_to_discard_translations);

	if (tier_npend) {
		/* the hot superblocks' cold translations (and any other
		 * holding their first instruction) */
		VG_(ok_to_discard_translations) = True;
		for (UInt i = 0; i < tier_npend; i++)
			VG_(discard_translations_safely)(tier_pend[i], 1, "nbsim.tier");
		VG_(ok_to_discard_translations) = ok;
		tier_npend = 0;
	}
	if (!nb_cold || runs < NB_COLD_RUNS)
		return;
	nb_cold = False;
	VG_(ok_to_discard_translations) = True;
	discard_all();
	VG_(ok_to_discard_translations) = ok;
}

Bool nb_cold_pending(void)
{
	return tier_npend || nb_cold;
}

static UInt need_bclass = NB_PMIB_INS;   /* the translations' nb_pmi_bclass */

void nb_update_need(void)
{
	/* Needs only grow: once code is instrumented for a signal it stays so.
	 * Otherwise every PAPI_start/PAPI_stop pair (Enable on, Enable off)
	 * would flush and re-translate all code: papi_cost's loop of 10^5
	 * start/stop pairs ran 40x slower.  Signals that no enabled counter
	 * selects are still gathered, and ignored by the PMU. */
	Bool time_on, warm, wider;
	UInt n = nb_need | (clo_stats ? NEED_ALL : 0) |
		need_of(nb_pmu_state.events_in_use) | bogus_need();
	/* what a front-end declared (the emulated perf driver's tick counts
	 * retired instructions while an event samples: nb_kern.c) */
	n |= nb_need_front | nb_need_clock;
	/* counters that filter or cascade per cycle: the retirement model
	 * reports every cycle (README "Filtering") */
	if (nb_pmu_state.cycle_counters)
		n |= NEED_STEP | NEED_TIME | NEED_UOPS | NEED_BR |
			(clo_mem_timing != MT_NO ? NEED_CACHE : 0);
	/* a PMI is taken pmi_latency cycles after the overflow: the clock
	 * runs (README "Overflow interrupts (PMI)").  Not the uops: nothing
	 * in the PMI's checks, skid or samples reads RAW_UOPS (a counter of
	 * uops_retired asks for them itself, need_of); a global add per run
	 * of every thin translation and per instruction of checked code
	 * for nothing (nb_irule_pd_rep still debits the budget of a REP) */
	if (nb_pmi_on)
		n |= NEED_PMI | NEED_TIME | NEED_BR |
			(clo_mem_timing != MT_NO ? NEED_CACHE : 0);
	/* a PMI taken can stop the running thread at its boundary (the
	 * cut: nb_pmi.c skid_take) only if it goes to a signal or a
	 * front-end, which nb_record's samples do not (they are taken where
	 * the skid ends and the thread runs on): while no armed counter
	 * but nb_record's can overflow, the translations leave the cut
	 * exits out (a third of the boundary checks' cost).  (A PAPI
	 * program under nb_record sets a signal but arms nothing for it
	 * unless it samples itself.) */
	if (nb_pmi_on && (nb_pmi_sig || nb_pmi_front) &&
	    (nb_pmu_state.pmi_armed & ~nb_need_pmi_own))
		n |= NEED_CUT;
	if (nb_pebs_on)
		n |= NEED_PEBS | NEED_CACHE;
	/* DTLB replay metrics (IA32_PEBS_ENABLE bit 2) */
	if ((nb_pmu_state.events_in_use & (1ULL << NB_EV_REPLAY_EVENT)) &&
	    (nb_other_msr(NB_MSR_IA32_PEBS_ENABLE) & 4))
		n |= NEED_TLB;
	/* MOB replay metric (IA32_PEBS_ENABLE bit 9) */
	if ((nb_pmu_state.events_in_use & (1ULL << NB_EV_REPLAY_EVENT)) &&
	    (nb_other_msr(NB_MSR_IA32_PEBS_ENABLE) & (UINT64_C(1) << 9)))
		n |= NEED_STB | NEED_CACHE;
	if (exact_needed(n))
		n |= NEED_EXACT;
	if ((n & NEED_INSTR) && iclass_needed(n))
		n |= NEED_ICLASS;
	/* the first counter enabled ends the cold phase: its code is
	 * translated again (as when the needs change) */
	warm = nb_cold && nb_pmu_state.events_in_use;
	if (warm)
		nb_cold = False;
	/* a wider PMI bound (nb_pmi_arm.c): the PMI checks' translations
	 * debit too little */
	wider = (n & NEED_PMI) && (nb_need & NEED_PMI) && nb_pmi_bclass != need_bclass;
	need_bclass = nb_pmi_bclass;
	if (n == nb_need && !warm && !wider)
		return;
	time_on = (n & NEED_TIME) && !(nb_need & NEED_TIME);
	if (time_on)
		nb_tm_time_on();
	if ((n & NEED_STEP) && !(nb_need & NEED_STEP)) {
		/* called after nb_update_cycles: the retirement cycle is
		 * closed and every raw count folded in */
		nb_stepping = True;
		nb_fill = 0;
		nb_tm_step_on();
		nb_bus_set_timed(&nb_bus_state, 1);
		nb_pmu_cycle_input(&nb_pmu_state, 1);
	}
	nb_need = n;
	if (time_on && clo_ht) {
		/* the lockstep's times in cycles from here (nb_lockstep.c) */
		nb_ls_time_on();
		nb_ls_changed();
	}
	nb_px_policy();
	if (nb_need_preload)    /* before the client starts: nothing translated */
		return;
	discard_all();
}

