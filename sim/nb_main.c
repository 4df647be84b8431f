/*
 * nb_main.c - nbsim, a valgrind tool modelling an Intel NetBurst CPU
 * (family 15) and its performance-monitoring unit.  See README.md.
 *
 * Structure:
 *  - signals: nb_sig[NB_SIG(event, mask bit)] count the events the CPU model
 *    produces on the committed path.  Instrumentation adds static counts per
 *    superblock segment with inline IR (load, add, store); the branch model
 *    runs in a helper called once per retired branch.
 *  - the PMU (pmu.c) folds signal deltas into its counters on every
 *    register access (lazy sync), so counts are exact.
 *  - CPUID: the VEX CPUID dirty helper is replaced by ours (nb_cpu.c).
 *  - client requests (nbsim_client.h) give the guest RDMSR/WRMSR/RDPMC.
 *
 * All guest threads run on logical processor 0: the PMU belongs to the
 * package, as on hardware without an OS that saves counters per thread.
 */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_options.h"
#include "pub_tool_machine.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#include "pub_tool_transtab.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_libcproc.h"
#include "libvex_guest_amd64.h"

#include "nbsim_client.h"
#include "pmu.h"
#include "nb_cpu.h"
#include "nb_decode.h"
#include "nb_bpred.h"
#include "nb_cache.h"
#include "nb_l1.h"
#include "nb_ds.h"
#include "nb_ht.h"
#include "nb_wpath.h"
#include "nb_tlb.h"
#include "nb_stb.h"
#include "nb_fpa.h"
#include "nb_wcb.h"
#include "nb_bus.h"

#define NB_VERSION "0.1"

/* ---- state ---- */

static uint64_t nb_sig[NB_NSIG];            /* event signals (see pmu.h)     */

/*
 * Raw counts of the CPU model, from which signals that depend on the
 * tagging configuration are derived at every PMU access (nb_derive):
 * between two accesses the configuration is constant.
 */
enum {
	RAW_LOADS,              /* retired load uops                           */
	RAW_STORES,             /* retired stores (one tagged uop each)        */
	RAW_MC0,                /* memory uops by condition (cache model):     */
				/* RAW_MC0 + store * MC_N + MC_* bits          */
	RAW_ROM_UOPS = RAW_MC0 + 2 * 64, /* uops from the microcode ROM (NB_IC_ROM) */
	RAW_MS_XFER,            /* retired instructions run from the MS ROM    */
	RAW_IC0,                /* retired instructions by class: RAW_IC0 +    */
				/* mem * NB_FP_NCLASSES + fp, mem = MEM_*,     */
				/* fp = enum nb_fp_class                       */
	RAW_IC_END = RAW_IC0 + 4 * NB_FP_NCLASSES,
	RAW_UOPS = RAW_IC_END,  /* uops (folded into SIG_UOPS; in step mode by */
				/* nb_step, per retirement cycle)              */
	RAW_BR0,                /* branch_retired MMNP..MMTM: RAW_BR0 + mask bit */
	RAW_MISP = RAW_BR0 + 4, /* mispredicted branches                       */
	RAW_CBR0,               /* conditional branches (nb_cond): RAW_CBR0 +  */
				/* 2 x taken + mispredicted; folded into the   */
				/* RAW_BR0/RAW_MISP signals and retired_(mis-  */
				/* pred_)branch_type CONDITIONAL by nb_derive, */
				/* so that nb_cond makes one count, not four   */
	RAW_SSE_ASSIST_ = RAW_CBR0 + 4,
	RAW_SSE_ASSIST = RAW_SSE_ASSIST_, /* SSE instructions with a denormal input */
	RAW_X87_ASSIST,         /* x87 assists: RAW_X87_ASSIST + mask bit      */
				/* (POAO 2, POAU 3, PREA 4; README "FP assists") */
	RAW_N = RAW_X87_ASSIST + 5
};
#define MEM_L  1                /* has load uop(s)                             */
#define MEM_S  2                /* has store(s)                                */
#define RAW_IC(mem, fp) (RAW_IC0 + (mem) * NB_FP_NCLASSES + (fp))
/* replay conditions of one memory uop (README "Replay tagging") */
#define MC_L1    1u             /* missed the L1D                              */
#define MC_L2    2u             /* missed the L2                               */
#define MC_DTLB  4u             /* missed the DTLB                             */
#define MC_SPLIT 8u             /* crossed a 64-byte line                      */
#define MC_MOBP  16u            /* load blocked by the store buffer:           */
#define MC_MOBU  32u            /* partial data (MOBP), unaligned start (MOBU) */
#define MC_N     64u            /* conditions 0..MC_N-1                        */
#define RAW_MC(st, cond) (RAW_MC0 + (st) * MC_N + (cond))
static ULong nb_raw[RAW_N], nb_raw_last[RAW_N];
/* memory uops with any condition (the RAW_MC total): nb_derive skips the
 * RAW_MC range while it has not moved (step mode derives every cycle) */
static ULong nb_mc_n, nb_mc_n_last;
static ULong nb_stall;                   /* memory stall cycles (nb_mem)  */
static ULong nb_tc_built, nb_tc_built_last; /* uops of trace lines built   */
static struct nb_pmu nb_pmu_state;
static struct nb_bpred nb_bp;
static const struct nb_cpu_model *nb_cpu;
static HChar nb_fault_buf[200];

static const HChar *clo_model = NB_CPU_DEFAULT;
static Bool clo_ht = False;
static Bool clo_stats = False;
static Bool clo_warn = True;
static Bool clo_list = False;
static ULong nb_warned;                  /* events already warned about   */
/* --nbsim-mem-timing: do cache-model stalls add cycles? (README "Timing
 * model") auto: while the cache model runs for another event; yes: counting
 * cycles also runs the cache model; no: never */
enum { MT_AUTO, MT_YES, MT_NO };
static UInt clo_mem_timing = MT_AUTO;

/* Hyper-Threading: guest threads on logical processors (nb_ht.h). */
static struct nb_ht nb_ht_state;

static unsigned nb_lp_of(ThreadId tid)
{
	return nb_ht_lp(&nb_ht_state, (unsigned)tid);
}

/* ESCR bit that qualifies user-mode events of the running LP. */
static uint64_t nb_usr_bit(void)
{
	return nb_pmu_state.lp ? NB_ESCR_T1_USR : NB_ESCR_T0_USR;
}

/*
 * What the instrumentation produces (README "Speed"): only the signals the
 * enabled counters need.  nb_need is recomputed when the PMU's
 * events_in_use grows beyond it (a WRMSR); then every translation is
 * discarded so that code is re-instrumented for the larger set.  Needs
 * never shrink (see nb_update_need).  With no
 * counter enabled the code is not instrumented at all (except the CPUID
 * hook); the model state (branch predictor) is then not trained.
 */
#define NEED_INSTR 0x1u          /* RAW_IC(*): instructions by class      */
#define NEED_MEM   0x8u          /* RAW_LOADS, RAW_STORES                 */
#define NEED_CACHE 0x10u         /* cache model: helper per load/store    */
#define NEED_TLB   0x100u        /* DTLB model; the inline L1D-hit skip   */
				 /* also requires the DTLB's MRU page     */
#define NEED_UOPS  0x2u          /* SIG_UOPS                              */
#define NEED_BR    0x4u          /* branch model: SIG_BR(*), SIG_MISP     */
#define NEED_STEP  0x20u         /* per-retirement step helper (cycles)   */
#define NEED_PMI   0x40u         /* overflow check after each segment     */
#define NEED_ROM   0x80u         /* RAW_ROM_UOPS, RAW_MS_XFER             */
#define NEED_TC    0x200u        /* trace cache: helper per superblock    */
#define NEED_PEBS  0x400u        /* load helper gets the PC and registers */
#define NEED_STB   0x800u        /* store buffer: every load/store calls  */
				 /* the helper (no inline L1D-hit path)   */
#define NEED_FPA   0x1000u       /* FP operand checks (README "FP assists") */
#define NEED_WCB   0x2000u       /* WC buffers: a helper per non-temporal */
				 /* store and per fence (README           */
				 /* "Write-combining buffers")            */
#define NEED_BUS   0x4000u       /* bus model (README "Bus model"): L1D   */
				 /* misses take nb_mem_bus (no lean path) */
#define NEED_ALL   (NEED_INSTR | NEED_UOPS | NEED_BR | NEED_MEM | NEED_CACHE | NEED_ROM | NEED_TLB | \
		    NEED_TC | NEED_STB | NEED_FPA | NEED_WCB | NEED_BUS)
static UInt nb_need;
static ULong nb_discards;                /* translation flushes            */
static struct nb_bus nb_bus_state;       /* NEED_BUS: totals of nb_bus.c  */
static struct nb_bus nb_bus_last;        /* ... at the last nb_derive      */

/* Timing model state (README "Timing model"). */
static ULong nb_cyc;                     /* cycles so far (RUNNING)        */
static ULong nb_u_seen, nb_m_seen;       /* uops, mispredicts in nb_cyc    */
static Bool nb_stepping;                 /* NEED_STEP: nb_step reports cycles */
static UInt nb_fill;                     /* uops in the open retirement cycle */

#define SIG_INSTR   NB_SIG(NB_EV_INSTR_RETIRED, 0)        /* NBOGUSNTAG */
#define SIG_INSTR_TAG NB_SIG(NB_EV_INSTR_RETIRED, 1)      /* NBOGUSTAG  */
#define SIG_FE_NBOGUS NB_SIG(NB_EV_FRONT_END_EVENT, 0)
#define SIG_UOPTYPE(b) NB_SIG(NB_EV_UOP_TYPE, (b))        /* 1 loads, 2 stores */
#define SIG_UOPS    NB_SIG(NB_EV_UOPS_RETIRED, 0)         /* NBOGUS     */
#define SIG_BR(b)   NB_SIG(NB_EV_BRANCH_RETIRED, (b))     /* MMNP..MMTM */
#define SIG_MISP    NB_SIG(NB_EV_MISPRED_BRANCH_RETIRED, 0)

/* the execution-tagging upstream events, by enum nb_fp_class */
static const unsigned fp_event[NB_FP_NCLASSES] = {
	[NB_FP_X87] = NB_EV_X87_FP_UOP, [NB_FP_SSP] = NB_EV_SCALAR_SP_UOP,
	[NB_FP_SDP] = NB_EV_SCALAR_DP_UOP, [NB_FP_PSP] = NB_EV_PACKED_SP_UOP,
	[NB_FP_PDP] = NB_EV_PACKED_DP_UOP, [NB_FP_MMX64] = NB_EV_64BIT_MMX_UOP,
	[NB_FP_MMX128] = NB_EV_128BIT_MMX_UOP, [NB_FP_MOVE] = NB_EV_X87_SIMD_MOVES_UOP,
};
/* x87_SIMD_moves_uop masks: ALLP0 (register copies, stores), ALLP2 (loads)
 * [events.txt]; exec_tags() index of the ALLP2 moves */
#define MOVE_P0_BIT 3
#define MOVE_P2_BIT 4
#define XT_MOVE_P2 NB_FP_NCLASSES
#define FP_EVENTS ((1ULL << NB_EV_X87_FP_UOP) | (1ULL << NB_EV_SCALAR_SP_UOP) | \
		   (1ULL << NB_EV_SCALAR_DP_UOP) | (1ULL << NB_EV_PACKED_SP_UOP) | \
		   (1ULL << NB_EV_PACKED_DP_UOP) | (1ULL << NB_EV_64BIT_MMX_UOP) | \
		   (1ULL << NB_EV_128BIT_MMX_UOP) | (1ULL << NB_EV_X87_SIMD_MOVES_UOP))
/* events of the cache/TLB model (README "Cache model", "TLBs") */
#define MEM_EVENTS ((1ULL << NB_EV_REPLAY_EVENT) | (1ULL << NB_EV_LOAD_PORT_REPLAY) | \
		    (1ULL << NB_EV_STORE_PORT_REPLAY) | (1ULL << NB_EV_MEMORY_COMPLETE) | \
		    (1ULL << NB_EV_PAGE_WALK_TYPE) | (1ULL << NB_EV_BSQ_CACHE_REFERENCE))
/* events of the store buffer model (README "Store buffer") */
#define STB_EVENTS ((1ULL << NB_EV_MOB_LOAD_REPLAY) | (1ULL << NB_EV_MEMORY_CANCEL))
/* events of the trace-cache model (README "Trace cache") */
/* events of the FP operand checks (README "FP assists") */
#define FPA_EVENTS ((1ULL << NB_EV_SSE_INPUT_ASSIST) | (1ULL << NB_EV_X87_ASSIST))
/* events of the bus model (README "Bus model") */
#define BUS_EVENTS ((1ULL << NB_EV_IOQ_ALLOCATION) | (1ULL << NB_EV_IOQ_ACTIVE_ENTRIES) | \
		    (1ULL << NB_EV_FSB_DATA_ACTIVITY) | (1ULL << NB_EV_BSQ_ALLOCATION) | \
		    (1ULL << NB_EV_BSQ_ACTIVE_ENTRIES))
#define TC_EVENTS ((1ULL << NB_EV_TC_DELIVER_MODE) | (1ULL << NB_EV_BPU_FETCH_REQUEST) | \
		   (1ULL << NB_EV_ITLB_REFERENCE) | (1ULL << NB_EV_UOP_QUEUE_WRITES))
#define SIG_FP_ALL(fc) NB_SIG(fp_event[fc], 15)            /* mask ALL   */
#define SIG_EXEC(b)    NB_SIG(NB_EV_EXECUTION_EVENT, (b))  /* NBOGUS0-3, BOGUS0-3: 4-7 */
#define SIG_RBT(b)     NB_SIG(NB_EV_RETIRED_BRANCH_TYPE, (b))
#define SIG_RMBT(b)    NB_SIG(NB_EV_RETIRED_MISPRED_BRANCH_TYPE, (b))

/* Events with BOGUS masks, produced by the wrong-path model (nb_wpath.c),
 * and their BOGUS mask bits [events.txt]. */
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
 * (tests/t_sim_coverage.t compares it with sim/coverage.txt). */
static void nb_list_events(void)
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

static void nb_warn_unmodelled(void)
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
	if (used & (1ULL << NB_EV_GLOBAL_POWER_EVENTS))   /* cycles: uops + mispredicts */
		n |= NEED_UOPS | NEED_BR | (clo_mem_timing == MT_YES ? NEED_CACHE : 0);
	return n;
}

/* ---- overflow interrupts (README "Overflow interrupts") ---- */

/* Valgrind core functions (pub_core_libcsignal.h, pub_core_signals.h of
 * valgrind 3.19; libcoregrind exports them, the tool API does not). */
extern Int VG_(tkill)(Int lwpid, Int signo);

static Int nb_pmi_sig;                   /* NBSIM_REQ_PMI_SIGNAL; 0 = none */
static Bool nb_pmi_on;                   /* a PMI can be sent               */
static ULong nb_pmi_sent;                /* PMIs delivered (stats)          */
static ULong nb_pmi_sent_other;          /* of which to a thread not running */
static ULong nb_pmi_lost;                /* for an LP no thread has run on  */
static ULong nb_pmi_syncs;               /* nb_pmi_check calls (stats)      */
/*
 * Events that may still be counted before an armed counter can overflow,
 * less an upper bound of what each superblock segment since the last check
 * added to any counter (generated code subtracts it; see BOUND_INSN); the
 * check runs when it drops to 0 or below.  Huge while no PMI is possible.
 */
static Long nb_pmi_budget = 0x7fffffffffffffffLL;

static void nb_derive(void);
static void nb_lean_fold(void);
static void nb_update_cycles(void);
static void nb_peek_cycles(void);

/* The budget from the (synced) PMU: the distance to overflow of the
 * nearest armed counter (1 with FORCE_OVF: any increment overflows). */
static void nb_pmi_budget_set(void)
{
	ULong b = 0x7fffffffffffffffULL;

	for (unsigned c = 0; nb_pmi_on && c < NB_NUM_COUNTERS; c++) {
		ULong d;
		if (!((nb_pmu_state.pmi_armed >> c) & 1))
			continue;
		d = (nb_pmu_state.cccr[c] & NB_CCCR_FORCE_OVF) ? 1
			: NB_COUNTER_MASK + 1 - nb_pmu_state.ctr[c];
		if (d < b)
			b = d;
	}
	nb_pmi_budget = (Long)b;
}

/* After a register access or NBSIM_REQ_PMI_SIGNAL (the PMU is synced). */
static void nb_pmi_update(void)
{
	nb_pmi_on = nb_pmi_sig != 0 && nb_pmu_state.pmi_armed != 0;
	nb_pmi_budget_set();
}

/*
 * The guest thread that stands for each logical processor: with HT, the
 * one that ran on it last (valgrind ThreadId and its kernel thread id,
 * recorded when it starts running: nb_start_client); 0 = none yet.
 */
static ThreadId nb_lp_tid[2];
static Int nb_lp_lwpid[2];

/*
 * Send the PMI signal for logical processor LP.  Without HT every thread
 * is on LP0 and the running thread gets it.  With HT: the running thread
 * if it is on LP, else the thread that ran on LP last (the signal waits,
 * pending, until that thread runs again: it has executed nothing since).
 * Returns 1 if the running thread was signalled.
 */
static int nb_pmi_send(unsigned lp, ThreadId running)
{
	if (!clo_ht || nb_lp_of(running) == lp) {
		nb_pmi_sent++;
		VG_(tkill)(VG_(gettid)(), nb_pmi_sig);
		return 1;
	}
	if (nb_lp_lwpid[lp]) {
		nb_pmi_sent++;
		nb_pmi_sent_other++;
		VG_(tkill)(nb_lp_lwpid[lp], nb_pmi_sig);
	} else {
		nb_pmi_lost++;
	}
	return 0;
}

/*
 * Called at the end of a superblock segment, after its counts were added,
 * when the budget is spent: sync the PMU; if a counter with OVF_PMI_T0 has
 * overflowed, send the PMI signal to the thread on logical processor 0,
 * with OVF_PMI_T1 to the one on LP1 (both bits: both; nb_pmi_send).  The
 * signal is blocked while generated code runs, so make valgrind's
 * scheduler look at once: with the thread's event-check counter
 * (host_EvC_COUNTER) at 0 the next superblock's event check returns to
 * the scheduler, which polls pending signals and delivers it with the
 * guest state at that superblock's start.  Skid: the rest of the
 * superblock in which the counter overflowed.
 */
static VG_REGPARM(1) void nb_pmi_check(VexGuestAMD64State *st)
{
	UInt pend0, pend1;
	ThreadId running;
	int here = 0;

	nb_pmi_syncs++;
	nb_derive();
	nb_peek_cycles();
	nb_pmu_sync(&nb_pmu_state, nb_sig);
	pend0 = nb_pmu_take_pmi_lp(&nb_pmu_state, 0);
	pend1 = nb_pmu_take_pmi_lp(&nb_pmu_state, 1);
	nb_pmi_budget_set();
	if (!(pend0 | pend1) || !nb_pmi_on)
		return;
	running = VG_(get_running_tid)();
	if (pend0)
		here |= nb_pmi_send(0, running);
	if (pend1)
		here |= nb_pmi_send(1, running);
	if (here)
		st->host_EvC_COUNTER = 0;
}

/* A BOGUS mask selected by an active counter needs the wrong-path model:
 * mispredicted branches (branch model) and the committed mix (uops), also
 * when no other mask of the event needs them. */
static int mispred_tagging(void);

static UInt bogus_need(void)
{
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		const struct nb_pmu_cfg *g = &nb_pmu_state.cfg[c];
		if (g->active && (g->mask & bogus_masks(g->ev)))
			return NEED_BR | NEED_UOPS;
	}
	/* Tagged_mispred_branch: replay_event counts mispredicted branches */
	if ((nb_pmu_state.events_in_use & (1ULL << NB_EV_REPLAY_EVENT)) && mispred_tagging())
		return NEED_BR;
	return 0;
}

/* ---- PEBS (README "PEBS") ---- */

/* The PEBS counters: MSR_IQ_COUNTER4 (16) for logical processor 0,
 * MSR_IQ_COUNTER5 (17) for logical processor 1 [SDM 18.16.3: "PEBS can
 * be carried out only with two performance counters: MSR_IQ_CCCR4 (MSR
 * address 370H) for logical processor 0 and MSR_IQ_CCCR5 (MSR address
 * 371H) for logical processor 1"; seed 003 l.1914 names 16 only]. */
#define PEBS_CTR(lp) (16 + (lp))
static Bool nb_pebs_on;                  /* PEBS on for either LP          */
static Bool nb_pebs_lp_on[2];            /* ... for LP lp                  */
static unsigned nb_pebs_sel;             /* MC_* conditions that tag a load */
static Long nb_pebs_left[2];             /* tagged uops until PEBS_CTR(lp) overflows */
static Bool nb_pebs_armed[2];            /* overflowed: sample the next one */
static Bool nb_pebs_fmt64;               /* DS format: 64-bit with DTES64   */
/* IA32_PEBS_ENABLE bits 25/26 (ENABLE_PEBS_MY_THR / _OTH_THR) name the
 * writer's logical processor and the other one [SDM 18.16.3]: which LPs
 * the last write enabled */
static Bool nb_pebs_lp_en[2];
/* IA32_DS_AREA of each logical processor (an architectural MSR per
 * logical processor) */
static uint64_t nb_ds_area[2];
static ULong nb_pebs_records, nb_pebs_full;
static uint64_t other_msr(uint32_t msr);
static Bool escr_selects(unsigned escr, unsigned ev, unsigned bit);

/* Replay tagging of loads blocked by the store buffer: IA32_PEBS_ENABLE
 * bit 9 with the helper ESCR of MOB_load_replay_retired (MOB_ESCR0 or 1
 * selecting MOB_load_replay) [metrics.txt: SDM replay-metric table,
 * "additional ESCR: MOB_load_replay with PARTIAL_DATA and UNALGN_ADDR"];
 * each mask the helper selects tags its kind of blocked load. */
static unsigned mob_sel(uint64_t pe)
{
	unsigned s = 0;

	if (!(pe & (UINT64_C(1) << 9)))
		return 0;
	for (unsigned e = 0; e < 2; e++) {
		unsigned escr = e ? NB_ESCR_MOB_ESCR1 : NB_ESCR_MOB_ESCR0;
		if (escr_selects(escr, NB_EV_MOB_LOAD_REPLAY, 4))
			s |= MC_MOBP;
		if (escr_selects(escr, NB_EV_MOB_LOAD_REPLAY, 5))
			s |= MC_MOBU;
	}
	return s;
}

/* After a register access (the PMU is synced).  PEBS samples the uops of
 * logical processor lp when IA32_PEBS_ENABLE has bit 24 (uop tagging) and
 * enables lp (bits 25/26 as written, nb_pebs_lp_en) [SDM IA32_PEBS_ENABLE;
 * seed 003 sec. 9 enable_pebs], MSR_PEBS_MATRIX_VERT bit 0 (loads), lp's
 * IA32_DS_AREA is set and counter PEBS_CTR(lp) counts replay_event NBOGUS
 * for lp's user mode (T<lp>_USR) without a Compare filter.  The tagging
 * conditions are those of replay_tagged() for loads. */
static void nb_pebs_update(uint32_t written)
{
	uint64_t pe = other_msr(NB_MSR_IA32_PEBS_ENABLE);

	if (written == NB_MSR_IA32_PEBS_ENABLE) {
		unsigned me = nb_pmu_state.lp & 1;
		nb_pebs_lp_en[me] = (pe >> 25) & 1;
		nb_pebs_lp_en[me ^ 1] = (pe >> 26) & 1;
	}
	nb_pebs_sel = (pe & 1 ? MC_L1 : 0) | (pe & 2 ? MC_L2 : 0) | (pe & 4 ? MC_DTLB : 0);
	if ((pe & (UINT64_C(1) << 10)) && escr_selects(NB_ESCR_SAAT_ESCR1, NB_EV_LOAD_PORT_REPLAY, 1))
		nb_pebs_sel |= MC_SPLIT;
	nb_pebs_sel |= mob_sel(pe);
	if (!(other_msr(NB_MSR_MSR_PEBS_MATRIX_VERT) & 1))
		nb_pebs_sel = 0;
	nb_pebs_on = False;
	for (unsigned lp = 0; lp < 2; lp++) {
		const struct nb_pmu_cfg *g = &nb_pmu_state.cfg[PEBS_CTR(lp)];
		nb_pebs_lp_on[lp] = nb_pebs_lp_en[lp] && (pe & (UINT64_C(1) << 24)) &&
			nb_pebs_sel && nb_ds_area[lp] != 0 && (g->lpmask & (1u << lp)) &&
			g->active && g->ev == NB_EV_REPLAY_EVENT && !g->compare && (g->mask & 1);
		nb_pebs_on |= nb_pebs_lp_on[lp];
		nb_pebs_left[lp] = (Long)(NB_COUNTER_MASK + 1 - nb_pmu_state.ctr[PEBS_CTR(lp)]);
		if (written == nb_counters[PEBS_CTR(lp)].msr ||
		    written == nb_counters[PEBS_CTR(lp)].cccr_msr)
			nb_pebs_armed[lp] = False;
	}
}

static uint8_t *nb_guest_map(void *cookie, uint64_t addr, uint64_t len)
{
	(void)cookie;
	return addr && VG_(am_is_valid_for_client)((Addr)addr, (SizeT)len, VKI_PROT_WRITE)
		? (uint8_t *)(Addr)addr : NULL;
}

/* A replay-tagged load uop of the instruction at PC retires (called
 * before it is counted).  After its PEBS counter (16 or 17) overflowed, the next tagged uop
 * is sampled [Sprunt 2002, seed 000: "Once the counter overflows ... when
 * it finds a tagged retiring uop, it forces a microassist just before the
 * tagged uop retires"]: a PEBS record with the registers as the load sees
 * them and the IP of its instruction; the counter is reloaded with the DS
 * area's counter reset value; a PMI when the buffer reaches its interrupt
 * threshold. */
static __attribute__((noinline)) void nb_pebs_uop(ULong pc, VexGuestAMD64State *st)
{
	uint64_t r[NB_PEBS_NREGS], reset = 0;
	unsigned lp = nb_pmu_state.lp & 1;      /* the running thread's */
	int res;

	if (!nb_pebs_lp_on[lp])
		return;
	if (!nb_pebs_armed[lp]) {
		if (--nb_pebs_left[lp] <= 0)
			nb_pebs_armed[lp] = True;
		return;
	}
	r[NB_PEBS_FLAGS] = LibVEX_GuestAMD64_get_rflags(st);
	r[NB_PEBS_IP] = pc;
	r[NB_PEBS_AX] = st->guest_RAX; r[NB_PEBS_BX] = st->guest_RBX;
	r[NB_PEBS_CX] = st->guest_RCX; r[NB_PEBS_DX] = st->guest_RDX;
	r[NB_PEBS_SI] = st->guest_RSI; r[NB_PEBS_DI] = st->guest_RDI;
	r[NB_PEBS_BP] = st->guest_RBP; r[NB_PEBS_SP] = st->guest_RSP;
	r[NB_PEBS_R8 + 0] = st->guest_R8;  r[NB_PEBS_R8 + 1] = st->guest_R9;
	r[NB_PEBS_R8 + 2] = st->guest_R10; r[NB_PEBS_R8 + 3] = st->guest_R11;
	r[NB_PEBS_R8 + 4] = st->guest_R12; r[NB_PEBS_R8 + 5] = st->guest_R13;
	r[NB_PEBS_R8 + 6] = st->guest_R14; r[NB_PEBS_R8 + 7] = st->guest_R15;
	res = nb_ds_pebs_store(nb_guest_map, NULL, nb_ds_area[lp], nb_pebs_fmt64, r, &reset);
	nb_pebs_armed[lp] = False;
	if (res == NB_PEBS_STORED || res == NB_PEBS_PMI)
		nb_pebs_records++;
	else
		nb_pebs_full++;
	/* reload the counter (synced first: the earlier uops are in) */
	nb_derive();
	nb_update_cycles();
	(void)nb_pmu_wrmsr(&nb_pmu_state, nb_counters[PEBS_CTR(lp)].msr, reset, nb_sig);
	nb_pebs_left[lp] = (Long)(NB_COUNTER_MASK + 1 - reset);
	if (--nb_pebs_left[lp] <= 0)  /* this uop retires after the assist */
		nb_pebs_armed[lp] = True;
	if (res == NB_PEBS_PMI && nb_pmi_sig) {
		nb_pmi_sent++;
		VG_(tkill)(VG_(gettid)(), nb_pmi_sig);
		st->host_EvC_COUNTER = 0;
	}
}

/* After a PMU reprogramming: re-instrument if the needs changed.  Called
 * from a client request, i.e. between superblocks: the superblock that made
 * the request has finished (its counts are in). */
static uint64_t other_msr(uint32_t msr);

static void nb_update_need(void)
{
	/* Needs only grow: once code is instrumented for a signal it stays so.
	 * Otherwise every PAPI_start/PAPI_stop pair (Enable on, Enable off)
	 * would flush and re-translate all code: papi_cost's loop of 10^5
	 * start/stop pairs ran 40x slower.  Signals that no enabled counter
	 * selects are still gathered, and ignored by the PMU. */
	UInt n = nb_need | (clo_stats ? NEED_ALL : 
			    need_of(nb_pmu_state.events_in_use) | bogus_need());
	/* counters that filter or cascade per cycle: the retirement model
	 * reports every cycle (README "Filtering") */
	if (nb_pmu_state.cycle_counters)
		n |= NEED_STEP | NEED_UOPS | NEED_BR;
	if (nb_pmi_on)
		n |= NEED_PMI;
	if (nb_pebs_on)
		n |= NEED_PEBS | NEED_CACHE;
	/* DTLB replay metrics (IA32_PEBS_ENABLE bit 2) */
	if ((nb_pmu_state.events_in_use & (1ULL << NB_EV_REPLAY_EVENT)) &&
	    (other_msr(NB_MSR_IA32_PEBS_ENABLE) & 4))
		n |= NEED_TLB;
	/* MOB replay metric (IA32_PEBS_ENABLE bit 9) */
	if ((nb_pmu_state.events_in_use & (1ULL << NB_EV_REPLAY_EVENT)) &&
	    (other_msr(NB_MSR_IA32_PEBS_ENABLE) & (UINT64_C(1) << 9)))
		n |= NEED_STB | NEED_CACHE;
	if (n == nb_need)
		return;
	if ((n & NEED_STEP) && !(nb_need & NEED_STEP)) {
		/* called after nb_update_cycles: the retirement cycle is
		 * closed and every raw count folded in */
		nb_stepping = True;
		nb_fill = 0;
		nb_bus_set_timed(&nb_bus_state, 1);
		nb_pmu_cycle_input(&nb_pmu_state, 1);
	}
	if ((n & NEED_FPA) && !(nb_need & NEED_FPA)) {
		/* keep every guest register update (README "FP assists"):
		 * otherwise VEX's optimiser drops an FP operation whose result
		 * register is overwritten later in the superblock before nbsim
		 * sees it.  VEX copied the default policy at start-up; the
		 * policy for code in file-backed mappings (--px-file-backed)
		 * is passed with each translation, so setting it takes effect
		 * for the translations made after the discard below. */
		VG_(clo_px_file_backed) = VexRegUpdAllregsAtEachInsn;
	}
	nb_need = n;
	nb_discards++;
	VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "nbsim");
}

/* ---- tagging (README "Tagging") ---- */

/* Front-end tagging: TAGLOADS (bit 0) / TAGSTORES (bit 1) selected by a
 * uop_type ESCR (RAT_ESCR0/1) qualified for the running thread's user mode
 * (the guest runs on logical processor 0 in user mode: T0_USR).  The
 * tagging is the ESCR's: no CCCR needs to count uop_type. */
static unsigned fe_tags(void)
{
	unsigned t = 0;
	for (unsigned i = 0; i < 2; i++) {
		uint64_t e = nb_pmu_state.escr[i ? NB_ESCR_RAT_ESCR1 : NB_ESCR_RAT_ESCR0];
		if (((e & NB_ESCR_EVSEL_MASK) >> NB_ESCR_EVSEL_SHIFT) !=
		    nb_events[NB_EV_UOP_TYPE].event_select || !(e & nb_usr_bit()))
			continue;
		t |= (unsigned)((e >> (NB_ESCR_EMASK_SHIFT + 1)) & 3);
	}
	return t;
}

/* Execution tagging: the tag bits (TagValue) each FP/SIMD class gets from
 * the upstream ESCRs FIRM_ESCR0/1 that select its event with mask ALL,
 * TagEnable and T0_USR.  Several ESCRs tagging one class OR their values. */
static void exec_tags(uint8_t tag[NB_FP_NCLASSES + 1])
{
	for (unsigned fc = 0; fc <= NB_FP_NCLASSES; fc++)
		tag[fc] = 0;
	for (unsigned i = 0; i < 2; i++) {
		uint64_t e = nb_pmu_state.escr[i ? NB_ESCR_FIRM_ESCR1 : NB_ESCR_FIRM_ESCR0];
		unsigned sel = (unsigned)((e & NB_ESCR_EVSEL_MASK) >> NB_ESCR_EVSEL_SHIFT);
		uint8_t tv = (uint8_t)((e & NB_ESCR_TAG_MASK) >> NB_ESCR_TAG_SHIFT);
		if (!(e & NB_ESCR_TAG_ENABLE) || !(e & nb_usr_bit()))
			continue;
		/* x87_SIMD_moves_uop tags the moves of its selected masks */
		if (sel == nb_events[NB_EV_X87_SIMD_MOVES_UOP].event_select) {
			if (e & (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + MOVE_P0_BIT)))
				tag[NB_FP_MOVE] |= tv;
			if (e & (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + MOVE_P2_BIT)))
				tag[XT_MOVE_P2] |= tv;
			continue;
		}
		if (!(e & (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + 15))))
			continue;
		for (unsigned fc = 1; fc < NB_FP_MOVE; fc++)
			if (nb_events[fp_event[fc]].event_select == sel)
				tag[fc] |= (uint8_t)((e & NB_ESCR_TAG_MASK) >> NB_ESCR_TAG_SHIFT);
	}
}

/* Value of a PMU MSR other than counters/CCCRs/ESCRs (PEBS MSRs). */
static uint64_t other_msr(uint32_t msr)
{
	for (unsigned i = 0; i < nb_num_msrs && i < NB_PMU_MAX_OTHER; i++)
		if (nb_msrs[i].addr == msr)
			return nb_pmu_state.other[i];
	return 0;
}

/* Is escr programmed with event ev, mask bit `bit` and T0_USR? */
static Bool escr_selects(unsigned escr, unsigned ev, unsigned bit)
{
	uint64_t e = nb_pmu_state.escr[escr];
	return ((e & NB_ESCR_EVSEL_MASK) >> NB_ESCR_EVSEL_SHIFT) == nb_events[ev].event_select &&
		(e & NB_ESCR_T0_USR) && (e & (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + bit)));
}

/*
 * Replay tagging [metrics.txt: SDM replay metrics table; S003 l.3824-3846]:
 * with IA32_PEBS_ENABLE bit 24, the PEBS_ENABLE bits choose the conditions
 * (bit 0 L1D miss, bit 1 L2 miss, bit 2 DTLB miss, bit 10 split access) and
 * MSR_PEBS_MATRIX_VERT the uops (bit 0 loads, bit 1 stores).  A split uop is
 * tagged only while its helper ESCR selects the replay (load_port_replay
 * SPLIT_LD in SAAT_ESCR1, store_port_replay SPLIT_ST in SAAT_ESCR0; SDM
 * replay metrics table "additional MSRs").  A uop with several selected
 * conditions is tagged once.  Bit 9: loads blocked by the store buffer
 * (mob_sel).  out[0]: tagged loads, out[1]: tagged stores.
 */
static void replay_tagged(const ULong *d, ULong out[2])
{
	uint64_t pe = other_msr(NB_MSR_IA32_PEBS_ENABLE);
	uint64_t mv = other_msr(NB_MSR_MSR_PEBS_MATRIX_VERT);
	unsigned sel = 0;

	out[0] = out[1] = 0;
	if (!(pe & (UINT64_C(1) << 24)))
		return;
	sel = (pe & 1 ? MC_L1 : 0) | (pe & 2 ? MC_L2 : 0) | (pe & 4 ? MC_DTLB : 0);
	for (unsigned st = 0; st < 2; st++) {
		unsigned s = sel;
		if (!(mv & (1u << st)))
			continue;
		if ((pe & (UINT64_C(1) << 10)) &&
		    (st ? escr_selects(NB_ESCR_SAAT_ESCR0, NB_EV_STORE_PORT_REPLAY, 1)
			: escr_selects(NB_ESCR_SAAT_ESCR1, NB_EV_LOAD_PORT_REPLAY, 1)))
			s |= MC_SPLIT;
		if (!st)
			s |= mob_sel(pe);
		for (unsigned cond = 1; cond < MC_N; cond++)
			if (cond & s)
				out[st] += d[RAW_MC(st, cond)];
	}
}

/* Replay tagging of mispredicted branches (Tagged_mispred_branch
 * [metrics.txt: SDM replay-metric table; Linux p4.c 0x18000/0x10]):
 * IA32_PEBS_ENABLE bits 15, 16 and 24, MSR_PEBS_MATRIX_VERT bit 4.  Each
 * retired mispredicted branch is one tagged uop. */
static int mispred_tagging(void)
{
	uint64_t need = (UINT64_C(1) << 15) | (UINT64_C(1) << 16) | (UINT64_C(1) << 24);
	return (other_msr(NB_MSR_IA32_PEBS_ENABLE) & need) == need &&
		(other_msr(NB_MSR_MSR_PEBS_MATRIX_VERT) & (1u << 4));
}

/* Fold the raw counts since the last PMU access into the signals, with the
 * tagging configuration of that interval (called before every access). */
static ULong wp_last_misp, wp_last_uops;
static struct nb_wpath nb_wp;
static uint32_t wp_frac[9];            /* fractions carried by the shares */

/* The tagging configuration as nb_derive uses it, recomputed only after a
 * client request (an ESCR or PEBS MSR may have changed) or a switch of LP:
 * step mode derives once per cycle. */
static Bool nb_tags_valid;
static unsigned nb_fe_cached;
static uint8_t nb_xt_cached[NB_FP_NCLASSES + 1];

static void nb_tags_changed(void)
{
	nb_tags_valid = False;
}

/* ---- bus model signals (README "Bus model") ---- */

/* The event-mask bits event ev defines (on every model: the bus events
 * have no per-model masks) */
static uint32_t ev_defined(unsigned ev)
{
	uint32_t m = 0;

	for (unsigned k = 0; k < nb_events[ev].nmasks; k++)
		m |= 1u << nb_events[ev].masks[k].bit;
	return m;
}

/*
 * The IOQ/BSQ events combine their mask bits into one selection (nb_bus.c)
 * while the PMU adds one signal per selected bit (pmu.h).  So the count an
 * ESCR's mask selects goes to the signal of one of its bits: with one ESCR
 * programmed for the event, its lowest bit; with two (IOQ_allocation on
 * FSB_ESCR0 and FSB_ESCR1), each a bit the other does not select; nested
 * masks (one a subset of the other) give the smaller one its lowest bit and
 * the larger one the difference of the counts on a bit of its own (0 if
 * negative: a documented limit).
 */
static void bus_sig(unsigned ev, const uint64_t *w, int ioq)
{
	uint32_t m[2] = { 0, 0 }, def = ev_defined(ev);
	ULong c[2] = { 0, 0 };
	unsigned n = 0;

	for (unsigned i = 0; i < nb_events[ev].nescrs && n < 2; i++) {
		uint64_t e = nb_pmu_state.escr[nb_events[ev].escrs[i]];
		if (((e & NB_ESCR_EVSEL_MASK) >> NB_ESCR_EVSEL_SHIFT) != nb_events[ev].event_select)
			continue;
		m[n] = (uint32_t)(e >> NB_ESCR_EMASK_SHIFT) & def;
		if (!m[n])
			continue;
		c[n] = ioq ? nb_bus_ioq_count(nb_cpu->model, m[n], w) : nb_bus_bsq_count(m[n], w);
		n++;
	}
	if (n == 2 && m[0] != m[1]) {
		uint32_t a = m[0] & ~m[1], b = m[1] & ~m[0];
		if (!a) {               /* m[0] within m[1] */
			nb_sig[NB_SIG(ev, __builtin_ctz(m[0]))] += c[0];
			nb_sig[NB_SIG(ev, __builtin_ctz(b))] += c[1] > c[0] ? c[1] - c[0] : 0;
		} else if (!b) {        /* m[1] within m[0] */
			nb_sig[NB_SIG(ev, __builtin_ctz(m[1]))] += c[1];
			nb_sig[NB_SIG(ev, __builtin_ctz(a))] += c[0] > c[1] ? c[0] - c[1] : 0;
		} else {
			nb_sig[NB_SIG(ev, __builtin_ctz(a))] += c[0];
			nb_sig[NB_SIG(ev, __builtin_ctz(b))] += c[1];
		}
	} else if (n) {
		nb_sig[NB_SIG(ev, __builtin_ctz(m[0]))] += c[0];
	}
}

/* Fold the bus model's totals since the last call into the signals, with
 * the ESCRs of the interval (they change only at client requests, which
 * derive first). */
static void nb_bus_derive(void)
{
	struct nb_bus *b = &nb_bus_state, *l = &nb_bus_last;
	uint64_t w[4][NB_BUS_NCLASS];

	/* (the totals only: l's queue is not used; in step mode this runs
	 * every cycle) */
	for (unsigned k = 0; k < NB_BUS_NCLASS; k++) {
		w[0][k] = b->ioq_alloc[k] - l->ioq_alloc[k];
		w[1][k] = b->ioq_cyc[k] - l->ioq_cyc[k];
		w[2][k] = b->bsq_alloc[k] - l->bsq_alloc[k];
		w[3][k] = b->bsq_cyc[k] - l->bsq_cyc[k];
		l->ioq_alloc[k] = b->ioq_alloc[k];
		l->ioq_cyc[k] = b->ioq_cyc[k];
		l->bsq_alloc[k] = b->bsq_alloc[k];
		l->bsq_cyc[k] = b->bsq_cyc[k];
	}
	for (unsigned i = 0; i < NB_FSB_NBITS; i++) {
		nb_sig[NB_SIG(NB_EV_FSB_DATA_ACTIVITY, i)] += b->fsb[i] - l->fsb[i];
		l->fsb[i] = b->fsb[i];
	}
	bus_sig(NB_EV_IOQ_ALLOCATION, w[0], 1);
	bus_sig(NB_EV_IOQ_ACTIVE_ENTRIES, w[1], 1);
	bus_sig(NB_EV_BSQ_ALLOCATION, w[2], 0);
	bus_sig(NB_EV_BSQ_ACTIVE_ENTRIES, w[3], 0);
}

static void nb_derive(void)
{
	ULong d[RAW_N], tagged_i = 0, tagged_u = 0, instr = 0, xtag[4] = { 0 }, rp[2];
	ULong bogus, du, replay, misp, cmiss;
	unsigned fe;
	uint8_t xt[NB_FP_NCLASSES + 1];

	nb_lean_fold();
	if (!nb_tags_valid) {
		nb_fe_cached = fe_tags();
		exec_tags(nb_xt_cached);
		nb_tags_valid = True;
	}
	fe = nb_fe_cached;
	for (unsigned i = 0; i <= NB_FP_NCLASSES; i++)
		xt[i] = nb_xt_cached[i];
	for (unsigned i = 0; i < RAW_N; i++) {
		if (i == RAW_MC0 && nb_mc_n == nb_mc_n_last) {
			i = RAW_MC(2, 0) - 1;     /* d[RAW_MC] not read below */
			continue;
		}
		d[i] = 0;
		if (i == RAW_UOPS && nb_stepping)
			continue;          /* nb_step retires uops cycle by cycle */
		d[i] = nb_raw[i] - nb_raw_last[i];
		nb_raw_last[i] = nb_raw[i];
	}
	if (!nb_stepping)
		nb_sig[SIG_UOPS] += d[RAW_UOPS];
	if (fe & 1)
		tagged_u += d[RAW_LOADS];
	if (fe & 2)
		tagged_u += d[RAW_STORES];
	for (unsigned mem = 0; mem < 4; mem++)
		for (unsigned fc = 0; fc < NB_FP_NCLASSES; fc++) {
			ULong n = d[RAW_IC(mem, fc)];
			if (!n)
				continue;
			unsigned x = fc == NB_FP_MOVE && (mem & MEM_L) ? XT_MOVE_P2 : fc;
			instr += n;
			if ((mem & fe) || xt[x])
				tagged_i += n;
			if (fc == NB_FP_MOVE)
				/* one move uop per instruction, port by direction */
				nb_sig[NB_SIG(NB_EV_X87_SIMD_MOVES_UOP, x == XT_MOVE_P2
					      ? MOVE_P2_BIT : MOVE_P0_BIT)] += n;
			else if (fc)
				/* one computational uop per instruction */
				nb_sig[SIG_FP_ALL(fc)] += n;
			for (unsigned b = 0; b < 4; b++)
				if (xt[x] & (1u << b))
					xtag[b] += n;
		}
	for (unsigned b = 0; b < 4; b++)
	{
		nb_sig[SIG_BR(b)] += d[RAW_BR0 + b] + d[RAW_CBR0 + b];
		nb_sig[SIG_EXEC(b)] += xtag[b];
	}
	/* conditional branches (nb_cond): retired_branch_type and
	 * retired_mispred_branch_type CONDITIONAL, and the mispredicted ones */
	cmiss = d[RAW_CBR0 + 1] + d[RAW_CBR0 + 3];
	nb_sig[SIG_RBT(1)] += d[RAW_CBR0] + d[RAW_CBR0 + 2] + cmiss;
	nb_sig[SIG_RMBT(1)] += cmiss;
	misp = d[RAW_MISP] + cmiss;
	nb_sig[SIG_MISP] += misp;
	/* FP assists (README "FP assists"): SSE_input_assist ALL (bit 15),
	 * x87_assist POAO, POAU, PREA */
	nb_sig[NB_SIG(NB_EV_SSE_INPUT_ASSIST, 15)] += d[RAW_SSE_ASSIST];
	for (unsigned b = 2; b < 5; b++)
		nb_sig[NB_SIG(NB_EV_X87_ASSIST, b)] += d[RAW_X87_ASSIST + b];
	rp[0] = rp[1] = 0;
	if (nb_mc_n != nb_mc_n_last)
		replay_tagged(d, rp);
	nb_mc_n_last = nb_mc_n;
	replay = rp[0] + rp[1];
	if (mispred_tagging()) {
		/* a mispredicted branch is one instruction: tagged */
		replay += misp;
		tagged_i += misp;
	}
	/* replay-tagged uops make their instruction tagged: one memory uop per
	 * instruction is assumed; loads/stores already front-end tagged are
	 * not counted twice; overlap with execution tags is not known (a
	 * model approximation, README "Tagging") */
	tagged_i += (fe & 1 ? 0 : rp[0]) + (fe & 2 ? 0 : rp[1]);
	if (tagged_i > instr)
		tagged_i = instr;
	nb_sig[NB_SIG(NB_EV_REPLAY_EVENT, 0)] += replay;

	/* wrong path (nb_wpath.c): bogus uops per mispredicted branch, with
	 * the committed mix of this interval */
	du = nb_sig[SIG_UOPS] - wp_last_uops;
	bogus = nb_wpath_uops(&nb_wp, nb_sig[SIG_MISP] - wp_last_misp);
	wp_last_uops = nb_sig[SIG_UOPS];
	wp_last_misp = nb_sig[SIG_MISP];
	nb_sig[NB_SIG(NB_EV_UOPS_RETIRED, 1)] += bogus;
#define WP_SHARE(i, x) nb_wpath_share_carry(bogus, (x), du, &wp_frac[i])
	nb_sig[NB_SIG(NB_EV_FRONT_END_EVENT, 1)] += WP_SHARE(0, tagged_u);
	nb_sig[NB_SIG(NB_EV_REPLAY_EVENT, 1)] += WP_SHARE(1, replay);
	nb_sig[NB_SIG(NB_EV_INSTR_RETIRED, 3)] += WP_SHARE(2, tagged_i);
	nb_sig[NB_SIG(NB_EV_INSTR_RETIRED, 2)] += WP_SHARE(3, instr - tagged_i);
	for (unsigned b = 0; b < 4; b++)
		nb_sig[SIG_EXEC(4 + b)] += WP_SHARE(4 + b, xtag[b]);
	/* instr_completed (models 3, 4, 6): retired instructions */
	nb_sig[NB_SIG(NB_EV_INSTR_COMPLETED, 0)] += instr;
	nb_sig[NB_SIG(NB_EV_INSTR_COMPLETED, 1)] += WP_SHARE(8, instr);
#undef WP_SHARE
	/* uop_queue_writes: MS ROM uops; the others (and the wrong path)
	 * come from the trace cache, in build mode those of the lines the
	 * trace-cache model built (nb_tc_sb), else in deliver mode */
	nb_sig[NB_SIG(NB_EV_UOP_QUEUE_WRITES, 2)] += d[RAW_ROM_UOPS];
	{
		ULong tcu = (du > d[RAW_ROM_UOPS] ? du - d[RAW_ROM_UOPS] : 0) + bogus;
		ULong built = nb_tc_built - nb_tc_built_last;
		nb_tc_built_last = nb_tc_built;
		if (built > tcu)
			built = tcu;
		nb_sig[NB_SIG(NB_EV_UOP_QUEUE_WRITES, 0)] += built;
		nb_sig[NB_SIG(NB_EV_UOP_QUEUE_WRITES, 1)] += tcu - built;
	}
	nb_sig[NB_SIG(NB_EV_TC_MS_XFER, 0)] += d[RAW_MS_XFER];
	nb_sig[SIG_UOPTYPE(1)] += d[RAW_LOADS];
	nb_sig[SIG_UOPTYPE(2)] += d[RAW_STORES];
	nb_sig[SIG_FE_NBOGUS] += tagged_u;
	nb_sig[SIG_INSTR_TAG] += tagged_i;
	nb_sig[SIG_INSTR] += instr - tagged_i;
	if (nb_need & NEED_BUS)
		nb_bus_derive();
}

/* ---- timing model ---- */

/* Memory stall cycles since the last call (0 with --nbsim-mem-timing=no). */
static ULong nb_s_seen;
static ULong new_stalls(void)
{
	ULong s;

	nb_lean_fold();
	s = clo_mem_timing == MT_NO ? 0 : nb_stall - nb_s_seen;

	nb_s_seen = nb_stall;
	return s;
}

/* Step mode: one cycle of the bus model passes (README "Bus model"): its
 * outputs of this cycle go to the signals before the cycle is reported */
static void bus_tick(void)
{
	if (nb_need & NEED_BUS) {
		(void)nb_bus_advance(&nb_bus_state);
		nb_bus_derive();
	}
}

/* Step mode: n cycles in which signal s (NB_NSIG: none) outputs v and
 * RUNNING 1, added to nb_sig here.  While the bus model has misses queued,
 * cycle by cycle with the bus outputs of each; then at once. */
static void step_cycles(ULong n, unsigned s, ULong v)
{
	for (; n && (nb_need & NEED_BUS) && nb_bus_state.qn; n--) {
		bus_tick();
		if (s < NB_NSIG)
			nb_sig[s] += v;
		nb_pmu_cycle(&nb_pmu_state, nb_sig);
	}
	if (!n)
		return;
	nb_bus_state.now += n;          /* an idle bus: time passes */
	if (s < NB_NSIG)
		nb_sig[s] += n * v;
	nb_pmu_cycles_const(&nb_pmu_state, n, s, v);
}

/* Step mode: the stall cycles of mispredicts and memory since the last
 * call, in which only RUNNING outputs (and the bus model), reported at once. */
static void stall_cycles(void)
{
	ULong m = nb_sig[SIG_MISP] - nb_m_seen, n;

	nb_m_seen += m;
	n = m * nb_cpu->mispredict_penalty + new_stalls();
	if (n) {
		nb_cyc += n;
		step_cycles(n, NB_NSIG, 0);
	}
}

/*
 * Cycles (global_power_events RUNNING): uops retire `retire_width` per
 * cycle in program order; a mispredicted branch adds `mispredict_penalty`
 * stall cycles when it retires; a client request (RDMSR/WRMSR/RDPMC: the
 * serializing accesses of the PMU) ends the open retirement cycle.  So
 * between two client requests: ceil(uops / width) + mispredicts x penalty
 * + the memory stall cycles of the cache model (nb_mem) while it runs
 * (--nbsim-mem-timing; README "Timing model"), added like mispredict
 * stalls.
 *
 * Lazy mode: computed from the signals at each client request.  Step mode
 * (a counter filters per cycle): nb_step runs this model instruction by
 * instruction and reports every cycle to the PMU; both give the same count.
 */
static void nb_update_cycles(void)
{
	UInt w = nb_cpu->retire_width;

	if (!nb_stepping) {
		ULong du = nb_sig[SIG_UOPS] - nb_u_seen;
		nb_cyc += (du + w - 1) / w + (nb_sig[SIG_MISP] - nb_m_seen) * nb_cpu->mispredict_penalty
			+ new_stalls();
		nb_m_seen = nb_sig[SIG_MISP];
	} else {
		/* end the open cycle, then the stalls of its instructions */
		if (nb_fill) {
			nb_cyc++;
			bus_tick();
			nb_pmu_cycle(&nb_pmu_state, nb_sig);
			nb_fill = 0;
		}
		stall_cycles();
	}
	nb_u_seen = nb_sig[SIG_UOPS];
	nb_sig[NB_SIG_CYCLES] = nb_cyc;
}

/* Cycles so far without ending the open retirement cycle (not a
 * serializing point): the whole cycles only.  Monotonic: a later
 * nb_update_cycles() gives at least as many. */
static void nb_peek_cycles(void)
{
	ULong c = nb_cyc;

	nb_lean_fold();
	if (!nb_stepping)
		c += (nb_sig[SIG_UOPS] - nb_u_seen) / nb_cpu->retire_width +
			(nb_sig[SIG_MISP] - nb_m_seen) * nb_cpu->mispredict_penalty +
			(clo_mem_timing == MT_NO ? 0 : nb_stall - nb_s_seen);
	nb_sig[NB_SIG_CYCLES] = c;
}

/*
 * Step mode: one instruction retired (every raw count since the previous
 * step is its, or of earlier instructions of the open cycle).  Its uops
 * fill the open retirement cycle and then whole cycles.  Its other events
 * are output in the cycle of its first uop: they stay raw while that cycle
 * is open and are folded in (nb_derive) when it ends, so most steps cost a
 * few adds.  Stall cycles (mispredicts, memory) (only RUNNING outputs in them) follow
 * the cycles of the branch's uops.  See README "Filtering".
 */
static VG_REGPARM(0) void nb_step(void)
{
	struct nb_pmu *P = &nb_pmu_state;
	UInt w = nb_cpu->retire_width;
	ULong u = nb_raw[RAW_UOPS] - nb_raw_last[RAW_UOPS], take, left, q;

	nb_raw_last[RAW_UOPS] = nb_raw[RAW_UOPS];
	if (nb_fill + u < w) {
		/* the open cycle stays open */
		nb_sig[SIG_UOPS] += u;
		nb_fill += (UInt)u;
		return;
	}
	if (nb_need & NEED_BUS)
		(void)nb_bus_advance(&nb_bus_state);
	nb_derive();
	take = w - nb_fill;
	left = u - take;
	nb_sig[SIG_UOPS] += take;
	nb_cyc++;
	nb_pmu_cycle(P, nb_sig);
	q = left / w;
	if (q) {
		nb_cyc += q;
		step_cycles(q, SIG_UOPS, w);
	}
	nb_sig[SIG_UOPS] += left % w;
	nb_fill = (UInt)(left % w);
	stall_cycles();
	nb_u_seen = nb_sig[SIG_UOPS];
}

/* ---- branch helper ---- */

/* packed: pc (bits 0-47) | length (48-55) | kind (56-63) */
static VG_REGPARM(3) void nb_branch(ULong packed, ULong taken, ULong target)
{
	ULong pc = packed & 0xffffffffffffULL;
	ULong next = pc + ((packed >> 48) & 0xff);
	unsigned kind = (unsigned)(packed >> 56);
	int miss = nb_bpred_branch(&nb_bp, kind, pc, next, (int)taken, target);
	/* retired_(mispred_)branch_type masks by kind [events.txt]: bit 1
	 * CONDITIONAL, 2 CALL (indirect calls), 3 RETURN, 4 INDIRECT (returns,
	 * indirect calls and jumps); direct jmp/call: none */
	static const UChar type_bits[NB_BR_NKINDS] = {
		[NB_BR_COND] = 1u << 1, [NB_BR_ICALL] = (1u << 2) | (1u << 4),
		[NB_BR_RET] = (1u << 3) | (1u << 4), [NB_BR_IJMP] = 1u << 4,
	};

	nb_raw[RAW_BR0 + (taken ? 2 : 0) + (miss ? 1 : 0)]++;
	nb_raw[RAW_MISP] += (ULong)miss;
	for (unsigned b = 1, t = kind < NB_BR_NKINDS ? type_bits[kind] : 0; t >> b; b++)
		if (t & (1u << b)) {
			nb_sig[SIG_RBT(b)]++;
			nb_sig[SIG_RMBT(b)] += (ULong)miss;
		}
}

/* nb_branch for a conditional branch (most branches): no call inside;
 * its site (struct nb_cond_site) made when the branch was translated */
static VG_REGPARM(2) void nb_cond(const struct nb_cond_site *site, ULong taken)
{
	ULong miss = (ULong)nb_bpred_cond_at(&nb_bp, site, (int)taken);

	nb_raw[RAW_CBR0 + (taken ? 2 : 0) + miss]++;
}

/* ---- cache model (README "Cache model") ---- */

static struct nb_l1 nb_l1d;
static struct nb_cache nb_l2, nb_l3;
static struct nb_tlb nb_dtlb;
static struct nb_stb nb_stb;             /* store buffer (NEED_STB)        */
static ULong nb_stb_fwd;                 /* loads forwarded (stats)        */
static Bool nb_has_l3;
static const struct nb_mem_params *nb_memp;
static struct nbsim_memstats nb_ms;      /* NBSIM_REQ_MEMSTATS            */

#define SIG_SPLIT_LD   NB_SIG(NB_EV_LOAD_PORT_REPLAY, 1)    /* SPLIT_LD  */
#define SIG_SPLIT_ST   NB_SIG(NB_EV_STORE_PORT_REPLAY, 1)   /* SPLIT_ST  */
#define SIG_LSC        NB_SIG(NB_EV_MEMORY_COMPLETE, 0)
#define SIG_SSC        NB_SIG(NB_EV_MEMORY_COMPLETE, 1)
#define SIG_DTMISS     NB_SIG(NB_EV_PAGE_WALK_TYPE, 0)
#define SIG_MOB_PD     NB_SIG(NB_EV_MOB_LOAD_REPLAY, 4)     /* PARTIAL_DATA */
#define SIG_MOB_UA     NB_SIG(NB_EV_MOB_LOAD_REPLAY, 5)     /* UNALGN_ADDR  */
#define SIG_64K        NB_SIG(NB_EV_MEMORY_CANCEL, 3)       /* 64K_CONF     */
#define SIG_BSQ(b)     NB_SIG(NB_EV_BSQ_CACHE_REFERENCE, (b))

/* BSQ_cache_reference mask bit of a read reaching the L2 (level 0) or the
 * L3 (level 1) in state st (NB_CACHE_*) [events.txt]: HITS is never
 * produced (no other caching agent shares a line) */
static unsigned bsq_bit(unsigned level, int st)
{
	if (st == NB_CACHE_MISS)
		return level ? 9 : 8;
	return (level ? 3 : 0) + (st == NB_CACHE_DIRTY ? 2 : 1);
}

/*
 * --nbsim-cache=cachegrind (a test mode, README "Cache model"): the
 * policies of valgrind's cachegrind, so that its counts can be compared
 * exactly: the L1D allocates on store misses, stores and loads take the
 * same path, the L2 has 64-byte non-sectored lines and is looked up only
 * when the L1D missed, for every line of the access.
 */
static Bool clo_cg_compat = False;

static unsigned nb_mem_cg(Addr first, Addr last)
{
	Bool l1m = False, l2m = False;

	for (Addr l = first; l <= last; l += 64)
		if (!nb_l1_access(&nb_l1d, l, 1))
			l1m = True;
	if (l1m)
		for (Addr l = first; l <= last; l += 64)
			if (!nb_cache_access(&nb_l2, l, 1))
				l2m = True;
	return (l1m ? MC_L1 : 0) | (l2m ? MC_L2 : 0);
}

/*
 * One load or store of size bytes at a (README "Cache model").  Accesses
 * crossing a 64-byte line access both lines (a split uop misses if either
 * line misses).  Loads allocate in every level that missed; stores: the
 * L1D is write-through without write-allocate (a hit refreshes LRU), a
 * store missing the L1D writes the L2 (write-allocate, the line becomes
 * Modified).  Loads hitting the L1D do not reach the L2.  An L2 or L3 miss
 * fetches the whole 128-byte sector (both 64-byte lines) [IA-32
 * Optimization Reference Manual, Table 1-1 note 1: "each read due to a
 * cache miss fetches a sector, consisting of two adjacent cache lines"; a
 * read for ownership is a bus read too].
 */
/* The L2 line (address >> line_shift, + 1; 0 = none) of the last access,
 * if it was a store that missed the L1D in one line: the line is then the
 * most recently used of its L2 set, all sectors present, dirty.  Until the
 * next access reaches the L2, a store to the same line that misses the
 * L1D (no write-allocate) changes no cache state and counts the same
 * events, so the generated code counts them itself (emit_mem_call). */
static ULong nb_st_line;

/* other L1D geometries (none of the models has one) */
static __attribute__((noinline)) int nb_l1d_access_any(Addr l, int allocate)
{
	return nb_l1_access(&nb_l1d, l, allocate);
}

/* The L1D access, with the model's way count as a constant (4: 8 KB
 * L1D, 8: 16 KB) so that the search is unrolled */
static inline __attribute__((always_inline)) int nb_l1d_access(Addr l, int allocate)
{
	switch (nb_l1d.ways) {
	case 4:
		return nb_l1_access_w(&nb_l1d, l, allocate, 4, 1);
	case 8:
		return nb_l1_access_w(&nb_l1d, l, allocate, 8, 1);
	default:
		return nb_l1d_access_any(l, allocate);
	}
}

/* The L2 and L3 lines of NetBurst mode: 128 bytes, two 64-byte sectors
 * (nb_post_clo_init; --nbsim-cache=cachegrind has 64-byte L2 lines but
 * does not come here) */
#define NB_L2_LINE_SHIFT 7

/* nb_mem_line_miss's counts (its comment), and those nb_lean_fold has
 * folded in */
#define NB_LEAN_L3 3
#define NB_LEAN_K 6
static ULong nb_lean[2][NB_LEAN_K], nb_lean_seen[2][NB_LEAN_K];

/* Fold nb_lean's new counts into the signals, RAW_MC and nb_stall (before
 * anything reads them: nb_derive, the stall cycles, the statistics) */
static void nb_lean_fold(void)
{
	if (!(nb_need & NEED_CACHE))
		return;         /* nothing counted (needs never shrink) */
	for (unsigned st = 0; st < 2; st++)
		for (unsigned k = 0; k < NB_LEAN_K; k++) {
			ULong n = nb_lean[st][k] - nb_lean_seen[st][k], lat;
			int l2 = k < NB_LEAN_L3 ? (int)k : NB_CACHE_MISS;
			if (!n)
				continue;
			lat = nb_memp->l2_latency;
			nb_lean_seen[st][k] += n;
			nb_sig[SIG_BSQ(bsq_bit(0, l2))] += n;
			if (k >= NB_LEAN_L3) {
				nb_sig[SIG_BSQ(bsq_bit(1, (int)(k - NB_LEAN_L3)))] += n;
				lat += nb_memp->l3_latency;
			}
			if (k == NB_CACHE_MISS || k == NB_LEAN_L3 + NB_CACHE_MISS)
				lat += nb_memp->mem_latency;
			nb_raw[RAW_MC(st, MC_L1 | (l2 == NB_CACHE_MISS ? MC_L2 : 0))] += n;
			nb_mc_n += n;
			if (!st)
				nb_stall += n * lat;
		}
}

/* The L1D missed line l: the L2 (a load's read, a store's RFO), and the
 * L3 if the L2 missed; adds MC_L2 to *cond on an L2 miss; returns the
 * latency.  (Every modelled L2 and L3 has 8 ways: nb_post_clo_init.) */
static inline __attribute__((always_inline)) ULong nb_mem_l2(Addr l, Bool store, unsigned *cond)
{
	int st = nb_cache_ref8_geo(&nb_l2, l, NB_FILL_LINE, store, NB_L2_LINE_SHIFT, 6);
	ULong lat = nb_memp->l2_latency;

	nb_sig[SIG_BSQ(bsq_bit(0, st))]++;
	if (st == NB_CACHE_MISS) {
		*cond |= MC_L2;
		if (nb_has_l3) {
			st = nb_cache_ref8_geo(&nb_l3, l, NB_FILL_LINE, store, NB_L2_LINE_SHIFT, 6);
			nb_sig[SIG_BSQ(bsq_bit(1, st))]++;
			lat += nb_memp->l3_latency;
		}
		if (st == NB_CACHE_MISS)
			lat += nb_memp->mem_latency;
	}
	return lat;
}

/*
 * nb_mem_l2 with the bus model (NEED_BUS, README "Bus model"): the L2 and
 * L3 sets are looked at first (nb_cache_peek changes nothing) for the
 * outcome and the line each would evict; then the reference itself, as
 * without the bus model, so the cache state is the same with or without
 * bus events.  An L2 miss is a BSQ request (the demand line and the
 * adjacent-sector prefetch); a last-level miss reads the sector on the
 * bus.  A Modified victim of the last level is written back to memory;
 * with an L3, a Modified L2 victim is a BSQ writeback into the L3 (the
 * cache model does not update the L3's copy: README "Bus model").
 */
static __attribute__((noinline)) ULong nb_mem_l2_bus(Addr l, Bool store, unsigned *cond)
{
	uint64_t v2, v3 = 0;
	int s2 = nb_cache_peek(&nb_l2, l, &v2), s3 = NB_CACHE_MISS;
	ULong lat;
	unsigned d2, d3;

	if (s2 == NB_CACHE_MISS && nb_has_l3)
		s3 = nb_cache_peek(&nb_l3, l, &v3);
	lat = nb_mem_l2(l, store, cond);
	if (s2 != NB_CACHE_MISS)
		return lat;
	d2 = nb_cache_dirty_sectors(v2);
	d3 = nb_cache_dirty_sectors(v3);
	nb_bus_miss(&nb_bus_state, store, !nb_has_l3 || s3 == NB_CACHE_MISS,
		    nb_has_l3 ? d2 : 0, nb_has_l3 ? d3 : d2);
	return lat;
}

/* What a memory uop meets before the caches: the store buffer, a line
 * crossing, the DTLB; returns its MC_* conditions (first, last: its first
 * and last 64-byte lines).  nb_mem, and nb_store_nt for non-temporal
 * stores (README "Write-combining buffers"); inline, so that nb_mem's
 * code is what it was before this part had a name of its own. */
static inline __attribute__((always_inline))
unsigned nb_mem_uop(Addr a, ULong size, Bool store, Addr first, Addr last)
{
	unsigned cond = 0;

	/* the store buffer (README "Store buffer", nb_stb.c): stores enter
	 * it in program order, loads are checked against it */
	if (nb_need & NEED_STB) {
		if (store)
			nb_stb_store(&nb_stb, a, (uint32_t)size);
		else switch (nb_stb_load(&nb_stb, a, (uint32_t)size)) {
		case NB_STB_PARTIAL:
			nb_sig[SIG_MOB_PD]++;
			cond |= MC_MOBP;
			break;
		case NB_STB_UNALIGNED:
			nb_sig[SIG_MOB_UA]++;
			cond |= MC_MOBU;
			break;
		case NB_STB_ALIAS:
			nb_sig[SIG_64K]++;
			break;
		case NB_STB_FORWARD:
			nb_stb_fwd++;
			break;
		default:
			break;
		}
	}
	if (first != last) {
		cond |= MC_SPLIT;
		nb_sig[store ? SIG_SPLIT_ST : SIG_SPLIT_LD]++;
		nb_sig[store ? SIG_SSC : SIG_LSC]++;
		if (store)
			nb_ms.split_stores++;
		else
			nb_ms.split_loads++;
	}
	/* the DTLB only while a DTLB event needs it (its fully associative
	 * lookup is the costliest part of a miss) */
	if ((nb_need & NEED_TLB) &&
	    (!nb_tlb_access(&nb_dtlb, a) || (first != last && !nb_tlb_access(&nb_dtlb, last)))) {
		cond |= MC_DTLB;
		nb_sig[SIG_DTMISS]++;
		if (store)
			nb_ms.dtlb_store_miss++;
		else
			nb_ms.dtlb_load_miss++;
	}
	return cond;
}

/* (bus: the bus model runs, NEED_BUS: nb_mem_bus; nb_mem is the same
 * code without it) */
static inline __attribute__((always_inline))
void nb_mem_any(Addr a, ULong size, Bool store, ULong pc, VexGuestAMD64State *gst, Bool bus)
{
	Addr first = a & ~(Addr)63, last = (a + (size ? size - 1 : 0)) & ~(Addr)63;
	unsigned cond;
	ULong stall = 0;

	nb_st_line = 0;
	cond = nb_mem_uop(a, size, store, first, last);
	if (clo_cg_compat)
		cond |= nb_mem_cg(first, last);
	else for (Addr l = first; l <= last; l += 64) {
		ULong lat;
		if (nb_l1d_access(l, !store))
			continue;
		cond |= MC_L1;
		lat = bus ? nb_mem_l2_bus(l, store, &cond) : nb_mem_l2(l, store, &cond);
		if (lat > stall)
			stall = lat;    /* the lines of a split load in parallel */
	}
	if (store && first == last && (cond & MC_L1) && !clo_cg_compat)
		nb_st_line = (first >> nb_l2.line_shift) + 1;
	if (!store)
		nb_stall += stall;      /* stores retire into the store buffer */
	if (!store && gst && nb_pebs_on && (cond & nb_pebs_sel))
		nb_pebs_uop(pc, gst);
	if (cond) {
		nb_raw[RAW_MC(store ? 1 : 0, cond)]++;
		nb_mc_n++;
	}
}

static void nb_mem(Addr a, ULong size, Bool store, ULong pc, VexGuestAMD64State *gst)
{
	nb_mem_any(a, size, store, pc, gst, False);
}

/* nb_mem with the bus model (README "Bus model") */
static void nb_mem_bus(Addr a, ULong size, Bool store, ULong pc, VexGuestAMD64State *gst)
{
	nb_mem_any(a, size, store, pc, gst, True);
}

/* The L1D/L2 miss totals of NBSIM_REQ_MEMSTATS and --nbsim-stats, from
 * the per-condition raw counts (nb_mem counts each access once there) */
static void nb_memstats_fill(void)
{
	ULong m[2][2] = { { 0, 0 }, { 0, 0 } };

	nb_lean_fold();
	for (unsigned st = 0; st < 2; st++)
		for (unsigned c = 1; c < MC_N; c++) {
			if (c & MC_L1)
				m[st][0] += nb_raw[RAW_MC(st, c)];
			if (c & MC_L2)
				m[st][1] += nb_raw[RAW_MC(st, c)];
		}
	nb_ms.l1_load_miss = m[0][0];
	nb_ms.l2_load_miss = m[0][1];
	nb_ms.l1_store_miss = m[1][0];
	nb_ms.l2_store_miss = m[1][1];
}

/* nb_mem for the common access: within one line, with neither the store
 * buffer nor the DTLB enabled, NetBurst policies (what is left of nb_mem
 * then, without its loop and tests) */
/* (the L1D missed: a function of its own, entered by a jump, so that the
 * L1D part needs no saved registers.)  It makes one count, nb_lean[store]
 * [k] (k: the L2's state, NB_CACHE_*, or on a model with an L3 after an
 * L2 miss 3 + the L3's), from which nb_lean_fold derives what nb_mem_l2
 * and nb_mem count: BSQ_cache_reference, the RAW_MC condition, the stall
 * cycles of a load. */
/* the common end of nb_mem_line_miss: count */
static inline __attribute__((always_inline)) void nb_mem_line_count(Addr l, Bool store, unsigned k)
{
	if (store)
		nb_st_line = (l >> NB_L2_LINE_SHIFT) + 1;
	nb_lean[store ? 1 : 0][k]++;
}

/* (the L3 after an L2 miss, xeonmp only: out of line and entered by a
 * jump, so that the L2's reference needs no saved registers) */
static __attribute__((noinline)) void nb_mem_line_l3(Addr l, Bool store)
{
	nb_mem_line_count(l, store, NB_LEAN_L3 + (unsigned)nb_cache_ref8_geo(&nb_l3, l, NB_FILL_LINE,
									    store, NB_L2_LINE_SHIFT, 6));
}

static inline __attribute__((always_inline)) void nb_mem_line_miss_body(Addr l, Bool store)
{
	unsigned k = (unsigned)nb_cache_ref8_geo(&nb_l2, l, NB_FILL_LINE, store, NB_L2_LINE_SHIFT, 6);

	if (k == NB_CACHE_MISS && nb_has_l3)
		nb_mem_line_l3(l, store);
	else
		nb_mem_line_count(l, store, k);
}

/* (one for loads, one for stores: store a constant in each) */
static __attribute__((noinline)) void nb_mem_line_miss_ld(Addr l)
{
	nb_mem_line_miss_body(l, False);
}

static __attribute__((noinline)) void nb_mem_line_miss_st(Addr l)
{
	nb_mem_line_miss_body(l, True);
}

static inline __attribute__((always_inline)) void nb_mem_line_miss(Addr l, Bool store)
{
	if (store)
		nb_mem_line_miss_st(l);
	else
		nb_mem_line_miss_ld(l);
}

/* (ways: the L1D's, as a constant) */
static inline __attribute__((always_inline)) void nb_mem_line(Addr a, Bool store, unsigned ways)
{
	Addr l = a & ~(Addr)63;

	nb_st_line = 0;
	/* (the inline hit path declined this access) */
	if (!nb_l1_after_fast_w(&nb_l1d, l, !store, ways))
		nb_mem_line_miss(l, store);
}

static VG_REGPARM(2) void nb_load(Addr a, ULong size)
{
	nb_mem(a, size, False, 0, NULL);
}

static VG_REGPARM(2) void nb_store(Addr a, ULong size)
{
	nb_mem(a, size, True, 0, NULL);
}

/* The helpers while neither the store buffer nor the DTLB is enabled, with
 * NetBurst policies and an L1D of 4 or 8 ways (nb_mem_lean(), chosen when
 * the code is translated): an access within one line takes nb_mem_line,
 * with the way count of the model as a constant */
static Bool nb_mem_lean(void)
{
	return !(nb_need & (NEED_STB | NEED_TLB | NEED_BUS)) && !clo_cg_compat &&
		(nb_l1d.ways == 4 || nb_l1d.ways == 8);
}

#define NB_LEAN_HELPER(name, store, ways)				\
	static VG_REGPARM(2) void name(Addr a, ULong size)		\
	{								\
		if (LIKELY((a & 63) + size <= 64))			\
			nb_mem_line(a, store, ways);			\
		else							\
			nb_mem(a, size, store, 0, NULL);		\
	}
NB_LEAN_HELPER(nb_load_lean4, False, 4)
NB_LEAN_HELPER(nb_load_lean8, False, 8)
NB_LEAN_HELPER(nb_store_lean4, True, 4)
NB_LEAN_HELPER(nb_store_lean8, True, 8)

/* the load helper while PEBS is on: with the instruction's PC and the
 * guest registers (declared read, so they are in memory) */
static void nb_load_pebs(Addr a, ULong size, ULong pc, VexGuestAMD64State *st)
{
	nb_mem(a, size, False, pc, st);
}

/* ---- write-combining buffers (README "Write-combining buffers") ---- */

static struct nb_wcb nb_wcbs;            /* the package's WC buffers (NEED_WCB) */
static ULong nb_wcb_nt, nb_wcb_fences;   /* non-temporal stores, fences (stats) */
static ULong nb_wcb_bursts;              /* evictions of full lines (stats)     */
#define SIG_WCB_EVICTS NB_SIG(NB_EV_WC_BUFFER, 0)     /* WCB_EVICTS     */
#define SIG_WCB_FULL   NB_SIG(NB_EV_WC_BUFFER, 1)     /* WCB_FULL_EVICT */

/*
 * A WC buffer is written out: line (its address), bytes (the bytes
 * written, bit i = byte i of the line; all ones: a full line), cause
 * (enum nb_wcb_cause).  Every eviction is WCB_EVICTS; the one made to free
 * a buffer for a new line is also WCB_FULL_EVICT ("no WC buffer is
 * available" [SDM Vol. 3B, NetBurst non-retirement events, WC_Buffer;
 * libpfm4 intel_netburst_events.h]; nb_wcb.c).  This is the one place
 * that knows a write leaves the WC buffers: a bus model counts its write
 * transaction here (a full line: one burst write; otherwise partial
 * writes [SDM Vol. 3A 11.3.1]).
 */
static void nb_wcb_evicted(Addr line, ULong bytes, UInt cause)
{
	(void)line;
	nb_sig[SIG_WCB_EVICTS]++;
	if (cause == NB_WCB_NO_FREE)
		nb_sig[SIG_WCB_FULL]++;
	if (bytes == NB_WCB_ALL_BYTES)
		nb_wcb_bursts++;
}

static void nb_wcb_report(const struct nb_wcb_evict *e, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		nb_wcb_evicted((Addr)(e[i].line << NB_WCB_LINE_SHIFT), e[i].bytes, e[i].cause);
}

/*
 * A non-temporal store (NB_IC_NT) of size bytes at a, while WC_Buffer is
 * counted.  With the cache model it is a store uop (store buffer, split,
 * DTLB: nb_mem_uop) that neither reads nor allocates a line: a line
 * present in the L1D, L2 or L3 is evicted from all of them and the data
 * go to the WC buffers [IA-32 Optimization Reference Manual 248966-013,
 * ch. 6 "Memory Type and Non-temporal Stores": the Pentium 4 evicts the
 * data from all caches and writes the new data with WC semantics; a line
 * not cached is not write-allocated].  A Modified line's write-back is not
 * modelled (no write-backs are, "Cache model").
 */
static VG_REGPARM(2) void nb_store_nt(Addr a, ULong size)
{
	struct nb_wcb_evict e[NB_WCB_STORE_EVICTS_MAX];

	if (nb_need & NEED_CACHE) {
		Addr first = a & ~(Addr)63, last = (a + (size ? size - 1 : 0)) & ~(Addr)63;
		unsigned cond;

		nb_st_line = 0;         /* its L2 line may lose a sector */
		cond = nb_mem_uop(a, size, True, first, last);
		for (Addr l = first; l <= last; l += 64) {
			nb_l1_invalidate(&nb_l1d, l);
			nb_cache_invalidate(&nb_l2, l);
			if (nb_has_l3)
				nb_cache_invalidate(&nb_l3, l);
		}
		if (cond) {
			nb_raw[RAW_MC(1, cond)]++;
			nb_mc_n++;
		}
	}
	nb_wcb_nt++;
	nb_wcb_report(e, nb_wcb_store(&nb_wcbs, a, (unsigned)size, e));
}

/* An instruction that empties the WC buffers (NB_IC_WCFLUSH: sfence,
 * mfence, lock, xchg with memory, cpuid, iret), called only while a
 * buffer is in use */
static VG_REGPARM(0) void nb_wcb_fence(void)
{
	struct nb_wcb_evict e[NB_WCB_MAX];

	nb_wcb_fences++;
	nb_wcb_report(e, nb_wcb_flush(&nb_wcbs, e));
}

/* the helpers while a bus event is enabled (NEED_BUS): every access that
 * the inline L1D hit path does not take comes here */
static VG_REGPARM(2) void nb_load_bus(Addr a, ULong size)
{
	nb_mem_bus(a, size, False, 0, NULL);
}

static VG_REGPARM(2) void nb_store_bus(Addr a, ULong size)
{
	nb_mem_bus(a, size, True, 0, NULL);
}

static void nb_load_pebs_bus(Addr a, ULong size, ULong pc, VexGuestAMD64State *st)
{
	nb_mem_bus(a, size, False, pc, st);
}

/* ---- trace cache (README "Trace cache") ---- */

/*
 * 12K uops [HIN01; CPUID descriptor 0x70: 12K uops, 8-way] in trace lines
 * of 6 uops [HIN01] = 2048 lines, 8-way: 256 sets.  A trace line is named
 * by the address of its first instruction, mixed by a bijection of 48-bit
 * values (x odd constant, so names stay distinct and lines spread over the
 * sets; nb_tc holds name << 6 as a 64-byte "line").  Instructions of more than 4
 * uops come from the microcode ROM [HIN01] and take no line slot.
 */
#define TC_LINE_UOPS 6
#define TC_MS_MIN    5          /* uops from which an instruction is in the MS ROM */
static struct nb_cache nb_tc;
static struct nb_tlb nb_itlb;

struct tc_line { ULong key, pc; UInt uops, ninstr; };
struct tc_desc {                /* a superblock's trace lines              */
	UInt nlines;
	struct tc_line line[];
};

#define SIG_TC_DI      NB_SIG(NB_EV_TC_DELIVER_MODE, 2)
#define SIG_TC_BI      NB_SIG(NB_EV_TC_DELIVER_MODE, 5)
#define SIG_TCMISS     NB_SIG(NB_EV_BPU_FETCH_REQUEST, 0)
#define SIG_ITLB(b)    NB_SIG(NB_EV_ITLB_REFERENCE, (b))
#define SIG_ITMISS     NB_SIG(NB_EV_PAGE_WALK_TYPE, 1)

/* One execution of a superblock: its trace lines are looked up in order.
 * A hit delivers the line (3 uops per cycle [HIN01]); a miss is a fetch
 * request to the L2 through the ITLB, and the line is built by the
 * decoder (one instruction per cycle [HIN01]) and filled. */
static VG_REGPARM(1) void nb_tc_sb(const struct tc_desc *d)
{
	for (UInt i = 0; i < d->nlines; i++) {
		const struct tc_line *l = &d->line[i];
		if (nb_cache_access_unsectored(&nb_tc, l->key << 6, 1)) {
			nb_sig[SIG_TC_DI] += (l->uops + 2) / 3;
			continue;
		}
		nb_sig[SIG_TCMISS]++;
		nb_tc_built += l->uops;
		nb_sig[SIG_TC_BI] += l->ninstr;
		if (nb_tlb_access(&nb_itlb, l->pc)) {
			nb_sig[SIG_ITLB(0)]++;
		} else {
			nb_sig[SIG_ITLB(1)]++;
			nb_sig[SIG_ITMISS]++;
		}
	}
}

/* Add an instruction at pc with uops (REP: per iteration) to d. */
static void tc_add(struct tc_desc *d, Addr pc, UInt uops, Bool ms)
{
	struct tc_line *l = d->nlines ? &d->line[d->nlines - 1] : 0;

	if (ms || uops >= TC_MS_MIN)
		return;         /* from the MS ROM (TC_ms_xfer: NB_IC_ROM) */
	if (!l || l->uops + uops > TC_LINE_UOPS) {
		l = &d->line[d->nlines++];
		l->key = ((ULong)pc * 0x9e3779b97f4a7c15ULL) & 0xffffffffffffULL;
		l->pc = (ULong)pc;
		l->uops = 0;
		l->ninstr = 0;
	}
	l->uops += uops;
	l->ninstr++;
}

/* ---- CPUID ---- */

static void nb_cpuid_helper(VexGuestAMD64State *st)
{
	uint32_t o[4];
	nb_cpuid(nb_cpu, clo_ht, nb_lp_of(VG_(get_running_tid)()), (uint32_t)st->guest_RAX, (uint32_t)st->guest_RCX, o);
	st->guest_RAX = o[0];
	st->guest_RBX = o[1];
	st->guest_RCX = o[2];
	st->guest_RDX = o[3];
}

/* ---- instrumentation ---- */

static IRExpr *c64(ULong v)
{
	return IRExpr_Const(IRConst_U64(v));
}

/* *c += e  (e: an I64 atom) */
static void emit_add_at(IRSB *sb, ULong *c, IRExpr *e)
{
	IRTemp t1 = newIRTemp(sb->tyenv, Ity_I64);
	IRTemp t2 = newIRTemp(sb->tyenv, Ity_I64);

	addStmtToIRSB(sb, IRStmt_WrTmp(t1, IRExpr_Load(Iend_LE, Ity_I64,
						       mkIRExpr_HWord((HWord)c))));
	addStmtToIRSB(sb, IRStmt_WrTmp(t2, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(t1), e)));
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)c), IRExpr_RdTmp(t2)));
}

/* I64 temp = 1Uto64(guard) or 1Uto64(!guard) */
static IRExpr *guard64(IRSB *sb, IRExpr *guard, Bool invert)
{
	IRTemp g = newIRTemp(sb->tyenv, Ity_I1);
	IRTemp t = newIRTemp(sb->tyenv, Ity_I64);

	addStmtToIRSB(sb, IRStmt_WrTmp(g, invert ? IRExpr_Unop(Iop_Not1, guard) : guard));
	addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Unop(Iop_1Uto64, IRExpr_RdTmp(g))));
	return IRExpr_RdTmp(t);
}

static void emit_branch_call(IRSB *sb, unsigned kind, Addr pc, UInt len,
			     IRExpr *taken, IRExpr *target)
{
	ULong packed = ((ULong)pc & 0xffffffffffffULL) | ((ULong)(len & 0xff) << 48)
		| ((ULong)kind << 56);
	IRDirty *d;

	if (!(nb_need & NEED_BR))
		return;
	if (kind == NB_BR_JMP) {
		/* direct jmp: always predicted, taken (nb_bpred.c): no call */
		emit_add_at(sb, &nb_raw[RAW_BR0 + 2], c64(1));
		return;
	}
	if (kind == NB_BR_COND && target->tag == Iex_Const) {
		/* the site outlives the translation (a few bytes, not freed,
		 * as the trace-cache descriptors) */
		struct nb_cond_site *site = VG_(malloc)("nbsim.br", sizeof *site);
		nb_cond_site_init(&nb_bp, site, (uint64_t)pc, target->Iex.Const.con->Ico.U64);
		d = unsafeIRDirty_0_N(2, "nb_cond", VG_(fnptr_to_fnentry)(&nb_cond),
				      mkIRExprVec_2(mkIRExpr_HWord((HWord)site), taken));
	} else
		d = unsafeIRDirty_0_N(3, "nb_branch", VG_(fnptr_to_fnentry)(&nb_branch),
				      mkIRExprVec_3(c64(packed), taken, target));
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* Step mode: nb_step() after an instruction retires (guard: NULL or an
 * I1 atom, the exit taken). */
static void emit_step(IRSB *sb, IRExpr *guard)
{
	IRDirty *d;

	if (!(nb_need & NEED_STEP))
		return;
	d = unsafeIRDirty_0_N(0, "nb_step", VG_(fnptr_to_fnentry)(&nb_step), mkIRExprVec_0());
	if (guard)
		d->guard = guard;
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

static IRExpr *tmp(IRSB *sb, IRType ty, IRExpr *e)
{
	IRTemp t = newIRTemp(sb->tyenv, ty);
	addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

/*
 * A call of the cache model for one access (addr: an atom).  The L1D hit
 * path is inline (nb_l1.h, nb_l1_fast): the way the set's hint names is
 * compared with the access's line and, on a hit, given a new LRU stamp;
 * the call is guarded, made only when the hinted way does not hold the
 * line or the access crosses a 64-byte line.  The call repeats the lookup
 * (a stale hint) or misses, with true LRU either way.  The DTLB is looked
 * up in the call only (README "TLBs").  This inline hit path is most of
 * the speed of the model: a dense loop nest hits the L1D in ways other
 * than the most recently used one on most loads.
 */
static void emit_mem_call(IRSB *sb, IRExpr *addr, IRType ty, Bool store, Addr pc)
{
	ULong sz = (ULong)sizeofIRType(ty);
	IRDirty *d;

	if (store && nb_mem_lean())
		d = nb_l1d.ways == 8
			? unsafeIRDirty_0_N(2, "nb_store_lean8", VG_(fnptr_to_fnentry)(&nb_store_lean8),
					    mkIRExprVec_2(addr, c64(sz)))
			: unsafeIRDirty_0_N(2, "nb_store_lean4", VG_(fnptr_to_fnentry)(&nb_store_lean4),
					    mkIRExprVec_2(addr, c64(sz)));
	else if (store && (nb_need & NEED_BUS))
		d = unsafeIRDirty_0_N(2, "nb_store_bus", VG_(fnptr_to_fnentry)(&nb_store_bus),
				      mkIRExprVec_2(addr, c64(sz)));
	else if (store)
		d = unsafeIRDirty_0_N(2, "nb_store", VG_(fnptr_to_fnentry)(&nb_store),
				      mkIRExprVec_2(addr, c64(sz)));
	else if (!(nb_need & NEED_PEBS) && nb_mem_lean())
		d = nb_l1d.ways == 8
			? unsafeIRDirty_0_N(2, "nb_load_lean8", VG_(fnptr_to_fnentry)(&nb_load_lean8),
					    mkIRExprVec_2(addr, c64(sz)))
			: unsafeIRDirty_0_N(2, "nb_load_lean4", VG_(fnptr_to_fnentry)(&nb_load_lean4),
					    mkIRExprVec_2(addr, c64(sz)));
	else if (!(nb_need & NEED_PEBS) && (nb_need & NEED_BUS))
		d = unsafeIRDirty_0_N(2, "nb_load_bus", VG_(fnptr_to_fnentry)(&nb_load_bus),
				      mkIRExprVec_2(addr, c64(sz)));
	else if (!(nb_need & NEED_PEBS))
		d = unsafeIRDirty_0_N(2, "nb_load", VG_(fnptr_to_fnentry)(&nb_load),
				      mkIRExprVec_2(addr, c64(sz)));
	else {
		if (nb_need & NEED_BUS)
			d = unsafeIRDirty_0_N(0, "nb_load_pebs_bus", VG_(fnptr_to_fnentry)(&nb_load_pebs_bus),
					      mkIRExprVec_4(addr, c64(sz), c64((ULong)pc), IRExpr_GSPTR()));
		else
			d = unsafeIRDirty_0_N(0, "nb_load_pebs", VG_(fnptr_to_fnentry)(&nb_load_pebs),
					      mkIRExprVec_4(addr, c64(sz), c64((ULong)pc), IRExpr_GSPTR()));
		/* reads the integer registers and the flags thunk (RAX at 16
		 * .. CC_NDEP, before DFLAG), writes the event-check counter */
		d->nFxState = 2;
		VG_(memset)(&d->fxState, 0, sizeof d->fxState);
		d->fxState[0].fx = Ifx_Read;
		d->fxState[0].offset = offsetof(VexGuestAMD64State, guest_RAX);
		d->fxState[0].size = offsetof(VexGuestAMD64State, guest_DFLAG) -
			offsetof(VexGuestAMD64State, guest_RAX);
		d->fxState[1].fx = Ifx_Write;
		d->fxState[1].offset = offsetof(VexGuestAMD64State, host_EvC_COUNTER);
		d->fxState[1].size = sizeof(UInt);
	}
	/* with the store buffer every access calls (nb_mem runs it) */
	if (sz <= 64 && !(nb_need & NEED_STB)) {
		IRExpr *line, *last, *slot, *off, *way, *tag, *clk, *hit, *sa, *call;
		line = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, addr,
						      IRExpr_Const(IRConst_U8(NB_L1_LINE_SHIFT))));
		/* the hinted way of the last byte's line: an access crossing
		 * into the next line then never hits (nb_l1_fast) */
		last = sz == 1 ? line : tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64,
			tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, addr, c64(sz - 1))),
			IRExpr_Const(IRConst_U8(NB_L1_LINE_SHIFT))));
		/* slot = (set << way_shift) + hint[last & mask] (nb_l1_slot) */
		off = tmp(sb, Ity_I64, IRExpr_Binop(Iop_And64, last, c64((1u << NB_L1_HINT_BITS) - 1)));
		off = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, off, c64((ULong)(HWord)&nb_l1d.hint[0])));
		off = tmp(sb, Ity_I8, IRExpr_Load(Iend_LE, Ity_I8, off));
		way = tmp(sb, Ity_I64, IRExpr_Unop(Iop_8Uto64, off));
		slot = tmp(sb, Ity_I64, IRExpr_Binop(Iop_And64, last, c64(nb_l1d.sets - 1)));
		slot = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shl64, slot,
						      IRExpr_Const(IRConst_U8((UChar)nb_l1d.way_shift))));
		slot = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, slot, way));
		off = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shl64, slot, IRExpr_Const(IRConst_U8(3))));
		tag = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
			  tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, off, c64((ULong)(HWord)&nb_l1d.tag[0])))));
		hit = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, tag,
			  tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, line, c64(1)))));
		if (nb_need & NEED_TLB) {
			/* exact DTLB: skip only when the page is the DTLB's MRU one */
			IRExpr *pg = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, addr,
								    IRExpr_Const(IRConst_U8(12))));
			IRExpr *v0 = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
						mkIRExpr_HWord((HWord)&nb_dtlb.vpn[0])));
			pg = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, pg, c64(1)));
			hit = tmp(sb, Ity_I1, IRExpr_Binop(Iop_And1, hit,
				  tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, pg, v0))));
		}
		/* the use: stamp[slot] = (clock += 8) | way on a hit, else the
		 * store goes to the sink and the helper does the access
		 * (nb_l1_fast) */
		clk = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&nb_l1d.clock)));
		clk = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, clk, c64(NB_L1_STAMP_STEP)));
		addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&nb_l1d.clock), clk));
		clk = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Or64, clk, way));
		sa = tmp(sb, Ity_I64, IRExpr_ITE(hit,
			 tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, off, c64((ULong)(HWord)&nb_l1d.stamp[0]))),
			 c64((ULong)(HWord)&nb_l1d.sink)));
		addStmtToIRSB(sb, IRStmt_Store(Iend_LE, sa, clk));
		call = tmp(sb, Ity_I1, IRExpr_Unop(Iop_Not1, hit));
		if (store && !(nb_need & NEED_TLB) && !clo_cg_compat) {
			/* an L1D miss to the L2 line of the last store
			 * (nb_st_line): no call; count what nb_mem counts for
			 * it (an RFO hitting a Modified line) */
			IRExpr *l2 = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, addr,
						IRExpr_Const(IRConst_U8((UChar)nb_l2.line_shift))));
			IRExpr *same, *n;
			l2 = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, l2, c64(1)));
			same = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, l2, tmp(sb, Ity_I64,
				   IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&nb_st_line)))));
			/* only when the L1D missed and the access is in one line */
			same = tmp(sb, Ity_I1, IRExpr_Binop(Iop_And1, same, tmp(sb, Ity_I1,
				   IRExpr_Binop(Iop_CmpEQ64, line, last))));
			same = tmp(sb, Ity_I1, IRExpr_Binop(Iop_And1, same, call));
			n = tmp(sb, Ity_I64, IRExpr_Unop(Iop_1Uto64, same));
			/* (nb_mc_n is left alone: no replay metric tags a
			 * store for MC_L1 alone, and the RAW_MC deltas wait) */
			emit_add_at(sb, &nb_raw[RAW_MC(1, MC_L1)], n);
			emit_add_at(sb, (ULong *)&nb_sig[SIG_BSQ(bsq_bit(0, NB_CACHE_DIRTY))], n);
			call = tmp(sb, Ity_I1, IRExpr_Binop(Iop_And1, call,
				   tmp(sb, Ity_I1, IRExpr_Unop(Iop_Not1, same))));
		}
		d->guard = call;
	}
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* A non-temporal store (NEED_WCB): nb_store_nt instead of the cache
 * model's store helper */
static void emit_nt_store(IRSB *sb, IRExpr *addr, IRType ty)
{
	addStmtToIRSB(sb, IRStmt_Dirty(unsafeIRDirty_0_N(2, "nb_store_nt",
		VG_(fnptr_to_fnentry)(&nb_store_nt),
		mkIRExprVec_2(addr, c64((ULong)sizeofIRType(ty))))));
}

/* An instruction that empties the WC buffers (NEED_WCB): if a buffer is
 * in use (an inline test), nb_wcb_fence */
static void emit_wcb_fence(IRSB *sb)
{
	IRExpr *used = tmp(sb, Ity_I32, IRExpr_Load(Iend_LE, Ity_I32,
						    mkIRExpr_HWord((HWord)&nb_wcbs.used)));
	IRDirty *d = unsafeIRDirty_0_N(0, "nb_wcb_fence", VG_(fnptr_to_fnentry)(&nb_wcb_fence),
				       mkIRExprVec_0());

	d->guard = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpNE32, used, IRExpr_Const(IRConst_U32(0))));
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* nb_pmi_budget -= bound; if (nb_pmi_budget <= 0) nb_pmi_check(guest state) */
static void emit_pmi_check(IRSB *sb, ULong bound)
{
	IRExpr *b, *g;
	IRDirty *d;

	if (!(nb_need & NEED_PMI))
		return;
	b = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&nb_pmi_budget)));
	b = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Sub64, b, c64(bound)));
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&nb_pmi_budget), b));
	g = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpLT64S, b, c64(1)));
	d = unsafeIRDirty_0_N(1, "nb_pmi_check", VG_(fnptr_to_fnentry)(&nb_pmi_check),
			      mkIRExprVec_1(IRExpr_GSPTR()));
	d->guard = g;
	/* it writes the event-check counter (host_EvC_COUNTER) only */
	d->nFxState = 1;
	VG_(memset)(&d->fxState, 0, sizeof d->fxState);
	d->fxState[0].fx = Ifx_Write;
	d->fxState[0].offset = offsetof(VexGuestAMD64State, host_EvC_COUNTER);
	d->fxState[0].size = sizeof(UInt);
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* ---- FP assists (README "FP assists") ---- */

/*
 * While SSE_input_assist or x87_assist is enabled (NEED_FPA), the FP IR
 * operations of each instruction are checked: SSE instructions inline
 * (a denormal lane of a source operand: nb_fpa_denormal's formula), x87
 * instructions for denormal single/double memory operands (inline, PREA)
 * and for results leaving the double (single: fst m32) range (a clean
 * helper, nb_fpa_x87_out: POAU, POAO).  One assist per instruction and
 * kind, however many operations or lanes qualify: the results are ORed
 * into an I64 per instruction (fpa_acc) and added when it ends.
 */
enum fpa_lanes { FL_F64, FL_F32, FL_V64x1, FL_V64x2, FL_V32x1, FL_V32x4 };

static ULong nb_fpa_x87_out_h(ULong op, ULong a, ULong b, ULong r)
{
	return nb_fpa_x87_out((unsigned)op, a, b, r);
}

/* I64 0/1: the I64 atom x (a value of format f) is denormal */
static IRExpr *fpa_den(IRSB *sb, IRExpr *x, const struct nb_fpa_fmt *f)
{
	IRExpr *a = tmp(sb, Ity_I64, IRExpr_Binop(Iop_And64, x, c64(f->abs)));
	a = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Sub64, a, c64(1)));
	a = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpLT64U, a, c64(f->mant)));
	return tmp(sb, Ity_I64, IRExpr_Unop(Iop_1Uto64, a));
}

static IRExpr *fpa_or(IRSB *sb, IRExpr *acc, IRExpr *v)
{
	return acc ? tmp(sb, Ity_I64, IRExpr_Binop(Iop_Or64, acc, v)) : v;
}

/* I64 bits of an F64 / F32 atom */
static IRExpr *bits64(IRSB *sb, IRExpr *e)
{
	return tmp(sb, Ity_I64, IRExpr_Unop(Iop_ReinterpF64asI64, e));
}
static IRExpr *bits32(IRSB *sb, IRExpr *e)
{
	IRExpr *t = tmp(sb, Ity_I32, IRExpr_Unop(Iop_ReinterpF32asI32, e));
	return tmp(sb, Ity_I64, IRExpr_Unop(Iop_32Uto64, t));
}

/* I64 0/1: a lane of the atom e (lanes l) is denormal */
static IRExpr *fpa_lanes_den(IRSB *sb, IRExpr *e, enum fpa_lanes l)
{
	IRExpr *h[2], *r = NULL;
	unsigned nh;

	switch (l) {
	case FL_F64:
		return fpa_den(sb, bits64(sb, e), &nb_fpa_f64);
	case FL_F32:
		return fpa_den(sb, bits32(sb, e), &nb_fpa_f32);
	default:
		break;
	}
	nh = l == FL_V64x2 || l == FL_V32x4 ? 2 : 1;
	h[0] = tmp(sb, Ity_I64, IRExpr_Unop(Iop_V128to64, e));
	if (nh == 2)
		h[1] = tmp(sb, Ity_I64, IRExpr_Unop(Iop_V128HIto64, e));
	for (unsigned i = 0; i < nh; i++) {
		if (l == FL_V64x1 || l == FL_V64x2) {
			r = fpa_or(sb, r, fpa_den(sb, h[i], &nb_fpa_f64));
			continue;
		}
		r = fpa_or(sb, r, fpa_den(sb, tmp(sb, Ity_I64, IRExpr_Binop(Iop_And64, h[i],
						 c64(0xffffffffULL))), &nb_fpa_f32));
		if (l == FL_V32x4)
			r = fpa_or(sb, r, fpa_den(sb, tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, h[i],
							 IRExpr_Const(IRConst_U8(32)))), &nb_fpa_f32));
	}
	return r;
}

/*
 * The source operands of an SSE operation that can take a denormal input
 * assist, i.e. signal the denormal-operand exception (#D): add, sub, mul,
 * div, sqrt, min, max, compares (CMPxx, COMIS, UCOMIS), CVTSD2SS,
 * CVTSS2SD, CVTPD2PS, CVTPS2PD [SDM Vol. 2, "SIMD Floating-Point
 * Exceptions" of each instruction; Vol. 1 11.5.2.1], as VEX 3.19 writes
 * them (libvex_ir.h: the F0x2/F0x4 forms use the low lane only; the
 * packed add/sub/mul/div and sqrt take a rounding mode first).  Conversions
 * to integers, RCP/RSQRT and logic ops raise no #D.  Returns the number of
 * operands (args[], lanes[]).
 */
static unsigned sse_operands(const IRExpr *e, IRExpr *args[2], enum fpa_lanes lanes[2])
{
	IROp op;
	unsigned n = 0, a0 = 0;
	enum fpa_lanes l;

	switch (e->tag) {
	case Iex_Unop:
		op = e->Iex.Unop.op;
		switch (op) {
		case Iop_Sqrt64F0x2: l = FL_V64x1; break;
		case Iop_Sqrt32F0x4: l = FL_V32x1; break;
		case Iop_F32toF64:   l = FL_F32; break;
		default: return 0;
		}
		args[0] = e->Iex.Unop.arg;
		lanes[0] = l;
		return 1;
	case Iex_Binop:
		op = e->Iex.Binop.op;
		switch (op) {
		case Iop_Add64F0x2: case Iop_Sub64F0x2: case Iop_Mul64F0x2: case Iop_Div64F0x2:
		case Iop_Max64F0x2: case Iop_Min64F0x2: case Iop_CmpEQ64F0x2: case Iop_CmpLT64F0x2:
		case Iop_CmpLE64F0x2: case Iop_CmpUN64F0x2:
			l = FL_V64x1; n = 2; break;
		case Iop_Add32F0x4: case Iop_Sub32F0x4: case Iop_Mul32F0x4: case Iop_Div32F0x4:
		case Iop_Max32F0x4: case Iop_Min32F0x4: case Iop_CmpEQ32F0x4: case Iop_CmpLT32F0x4:
		case Iop_CmpLE32F0x4: case Iop_CmpUN32F0x4:
			l = FL_V32x1; n = 2; break;
		case Iop_Max64Fx2: case Iop_Min64Fx2: case Iop_CmpEQ64Fx2: case Iop_CmpLT64Fx2:
		case Iop_CmpLE64Fx2: case Iop_CmpUN64Fx2:
			l = FL_V64x2; n = 2; break;
		case Iop_Max32Fx4: case Iop_Min32Fx4: case Iop_CmpEQ32Fx4: case Iop_CmpLT32Fx4:
		case Iop_CmpLE32Fx4: case Iop_CmpUN32Fx4:
			l = FL_V32x4; n = 2; break;
		case Iop_Sqrt64Fx2: l = FL_V64x2; n = 1; a0 = 1; break;
		case Iop_Sqrt32Fx4: l = FL_V32x4; n = 1; a0 = 1; break;
		case Iop_F64toF32:  l = FL_F64; n = 1; a0 = 1; break;
		case Iop_CmpF64:    l = FL_F64; n = 2; break;
		default: return 0;
		}
		for (unsigned i = 0; i < n; i++) {
			args[i] = a0 + i ? e->Iex.Binop.arg2 : e->Iex.Binop.arg1;
			lanes[i] = l;
		}
		return n;
	case Iex_Triop:
		op = e->Iex.Triop.details->op;
		switch (op) {
		case Iop_Add64Fx2: case Iop_Sub64Fx2: case Iop_Mul64Fx2: case Iop_Div64Fx2:
			l = FL_V64x2; break;
		case Iop_Add32Fx4: case Iop_Sub32Fx4: case Iop_Mul32Fx4: case Iop_Div32Fx4:
			l = FL_V32x4; break;
		case Iop_AddF64: case Iop_SubF64: case Iop_MulF64: case Iop_DivF64:
			l = FL_F64; break;
		default: return 0;
		}
		args[0] = e->Iex.Triop.details->arg2;
		args[1] = e->Iex.Triop.details->arg3;
		lanes[0] = lanes[1] = l;
		return 2;
	default:
		return 0;
	}
}

/* x87 operation of an IR expression (nb_fpa_op), or NB_FPA_NOPS */
static unsigned x87_op(const IRExpr *e)
{
	if (e->tag == Iex_Triop)
		switch (e->Iex.Triop.details->op) {
		case Iop_AddF64: return NB_FPA_ADD;
		case Iop_SubF64: return NB_FPA_SUB;
		case Iop_MulF64: return NB_FPA_MUL;
		case Iop_DivF64: return NB_FPA_DIV;
		default: break;
		}
	if (e->tag == Iex_Binop && e->Iex.Binop.op == Iop_F64toF32)
		return NB_FPA_CVT;
	return NB_FPA_NOPS;
}

/*
 * After the guest statement t = e of the current instruction (x87 or
 * not): the checks of e, ORed into *acc (SSE: 0/1; x87: NB_FPA_* bits).
 */
static void fpa_check(IRSB *sb, IRTemp t, const IRExpr *e, Bool x87, IRExpr **acc)
{
	IRExpr *args[2];
	enum fpa_lanes lanes[2];
	unsigned n, op;

	if (!x87) {
		n = sse_operands(e, args, lanes);
		for (unsigned i = 0; i < n; i++)
			*acc = fpa_or(sb, *acc, fpa_lanes_den(sb, args[i], lanes[i]));
		return;
	}
	/* PREA: a denormal single/double memory operand [SDM Vol. 1 8.5.2:
	 * #D on loading a denormal]; the x87 registers (80-bit, 15-bit
	 * exponent) hold no denormal nbsim can see (README "FP assists") */
	if (e->tag == Iex_Load && (e->Iex.Load.ty == Ity_F64 || e->Iex.Load.ty == Ity_F32)) {
		IRExpr *d = e->Iex.Load.ty == Ity_F64
			? fpa_den(sb, bits64(sb, IRExpr_RdTmp(t)), &nb_fpa_f64)
			: fpa_den(sb, bits32(sb, IRExpr_RdTmp(t)), &nb_fpa_f32);
		d = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shl64, d, IRExpr_Const(IRConst_U8(4))));
		*acc = fpa_or(sb, *acc, d);
		return;
	}
	op = x87_op(e);
	if (op != NB_FPA_NOPS) {
		IRExpr *a, *b, *r, *m;
		if (op == NB_FPA_CVT) {
			a = bits64(sb, e->Iex.Binop.arg2);
			b = c64(0);
			r = bits32(sb, IRExpr_RdTmp(t));
		} else {
			a = bits64(sb, e->Iex.Triop.details->arg2);
			b = bits64(sb, e->Iex.Triop.details->arg3);
			r = bits64(sb, IRExpr_RdTmp(t));
		}
		m = tmp(sb, Ity_I64, mkIRExprCCall(Ity_I64, 0, "nb_fpa_x87_out_h",
			VG_(fnptr_to_fnentry)(&nb_fpa_x87_out_h), mkIRExprVec_4(c64(op), a, b, r)));
		*acc = fpa_or(sb, *acc, m);
	}
}

/* The instruction ends: count its assists. */
static void fpa_flush(IRSB *sb, Bool x87, IRExpr **acc)
{
	if (!*acc)
		return;
	if (!x87)
		emit_add_at(sb, &nb_raw[RAW_SSE_ASSIST], *acc);
	else
		for (unsigned b = 2; b < 5; b++) {
			IRExpr *v = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, *acc,
								   IRExpr_Const(IRConst_U8((UChar)b))));
			emit_add_at(sb, &nb_raw[RAW_X87_ASSIST + b],
				    tmp(sb, Ity_I64, IRExpr_Binop(Iop_And64, v, c64(1))));
		}
	*acc = NULL;
}

/* Pending unconditional counts of the current superblock segment. */
struct pend {
	ULong uops;
	ULong raw[RAW_N];
	ULong bound;            /* most any counter can gain (BOUND_INSN) */
};

/*
 * BOUND_INSN: an upper bound of the increment of any one counter from one
 * instruction, for the PMI budget: every signal grows by at most its uops
 * or 1 (execution_event with four NBOGUSn bits: 4 x), cycles by
 * uops / width + 1, a misprediction penalty per branch (<= 32 cycles; its
 * wrong-path uops, <= 3 per penalty cycle, x 4 mask bits: 420), and the
 * memory stall of each memory uop (at most L2 + L3 + memory latency); a
 * per-cycle filter counts at most one per cycle.
 */
static ULong nb_bound_mem;               /* set at init from nb_memp       */
#define BOUND_INSN(uops, br, mem) (4 * ((ULong)(uops) + 1) + ((br) ? 420 : 1) + \
				   (ULong)(mem) * nb_bound_mem)

/* what gathering nb_raw[i] inline needs */
static UInt raw_need(unsigned i)
{
	return i >= RAW_IC0 ? NEED_INSTR : i == RAW_ROM_UOPS || i == RAW_MS_XFER ? NEED_ROM
		: NEED_MEM;
}

static void flush(IRSB *sb, struct pend *p)
{
	for (unsigned i = 0; i < RAW_IC_END; i++)
		if (p->raw[i] && (nb_need & raw_need(i)))
			emit_add_at(sb, &nb_raw[i], c64(p->raw[i]));
	if (p->uops && (nb_need & NEED_UOPS))
		emit_add_at(sb, &nb_raw[RAW_UOPS], c64(p->uops));
	p->uops = 0;
	for (unsigned i = 0; i < RAW_N; i++)
		p->raw[i] = 0;
}

/* MEM_* of an instruction with these memory uops */
static unsigned mem_class(UInt loads, UInt stores)
{
	return (loads ? MEM_L : 0) | (stores ? MEM_S : 0);
}

/* Does a control transfer of this kind complete the instruction? */
static Bool jk_retires(IRJumpKind jk)
{
	switch (jk) {
	case Ijk_NoDecode: case Ijk_EmFail: case Ijk_MapFail:
	case Ijk_SigILL: case Ijk_SigTRAP: case Ijk_SigSEGV: case Ijk_SigBUS:
	case Ijk_SigFPE: case Ijk_SigFPE_IntDiv: case Ijk_SigFPE_IntOvf:
		return False;
	default:
		return True;
	}
}

static Bool is_cpuid_dirty(const IRDirty *d)
{
	return d->cee && d->cee->name &&
		VG_(strncmp)(d->cee->name, "amd64g_dirtyhelper_CPUID", 24) == 0;
}

/* The CPUID dirty call, calling our helper instead. */
static IRStmt *cpuid_stmt(IRStmt *st)
{
	IRDirty *nd = emptyIRDirty();
	*nd = *st->Ist.Dirty.details;
	nd->cee = mkIRCallee(0, "nb_cpuid_helper", VG_(fnptr_to_fnentry)(&nb_cpuid_helper));
	nd->args = mkIRExprVec_1(IRExpr_GSPTR());
	return IRStmt_Dirty(nd);
}

struct insn {
	Bool valid;
	Addr addr;
	UInt len;
	struct nb_insn dec;
	UInt uops;
	UInt loads, stores;     /* memory uops per execution (REP: per iteration) */
	Bool uops_deferred;     /* REP string: uops counted after the first exit */
	Bool rom;               /* uops from the MS ROM (NB_IC_ROM, dirty helper) */
};

static void add_uops(struct pend *p, const struct insn *k)
{
	p->bound += BOUND_INSN(k->uops, k->dec.br != NB_BR_NONE, k->loads + k->stores);
	p->uops += k->uops;
	p->raw[RAW_LOADS] += k->loads;
	p->raw[RAW_STORES] += k->stores;
	if (k->rom)
		p->raw[RAW_ROM_UOPS] += k->uops;
}

static void retire(struct pend *p, const struct insn *k)
{
	p->raw[RAW_IC(mem_class(k->loads, k->stores), k->dec.fp)]++;
	if (k->rom)
		p->raw[RAW_MS_XFER]++;
}

/* uop model (README "uop model"), from the instruction's IR stmts [from, to). */
static UInt uop_count(IRSB *sb, Int from, Int to, const struct nb_insn *dec,
		      UInt *nloads, UInt *nstores, Bool *rom)
{
	UInt loads = 0, stores = 0, dirty = 0, c;

	for (Int j = from; j < to; j++) {
		IRStmt *st = sb->stmts[j];
		switch (st->tag) {
		case Ist_WrTmp:
			if (st->Ist.WrTmp.data->tag == Iex_Load)
				loads++;
			break;
		case Ist_LoadG:
			loads++;
			break;
		case Ist_Store: case Ist_StoreG:
			stores++;
			break;
		case Ist_CAS:
			loads++;
			stores++;
			break;
		case Ist_Dirty:
			dirty++;
			break;
		default:
			break;
		}
	}
	*nloads = loads;
	*nstores = stores;
	*rom = dirty || (dec->cls & NB_IC_ROM);
	if (dirty || (dec->cls & NB_IC_MCODE))
		return nb_cpu->ms_uops;
	c = (dec->cls & NB_IC_MOVE) ? 0 : 1;
	c += loads + 2 * stores;
	return c ? c : 1;
}

/* Where control goes when the exit at stmts[i] is not taken: the next
 * IMark (a loop unrolled by iropt), else the superblock's constant next. */
static ULong continuation(IRSB *in, Int i, ULong fallback)
{
	for (Int j = i + 1; j < in->stmts_used; j++)
		if (in->stmts[j]->tag == Ist_IMark)
			return in->stmts[j]->Ist.IMark.addr + (ULong)in->stmts[j]->Ist.IMark.delta;
	if (in->next->tag == Iex_Const)
		return in->next->Iex.Const.con->Ico.U64;
	return fallback;
}

static IRSB *nb_instrument(VgCallbackClosure *closure, IRSB *in,
			   const VexGuestLayout *layout, const VexGuestExtents *vge,
			   const VexArchInfo *archinfo_host, IRType gWordTy, IRType hWordTy)
{
	IRSB *out;
	struct pend p = { 0 };
	struct insn k = { 0 };
	struct tc_desc *tcd = 0;
	Bool exit_seen = False;
	ULong bound;
	Int i;
	IRExpr *fpa_acc = NULL;         /* FP assists of instruction k */
	Bool fpa_x87 = False;           /* k is an x87 instruction     */

	(void)closure; (void)layout; (void)vge; (void)archinfo_host;
	if (gWordTy != Ity_I64 || hWordTy != Ity_I64)
		VG_(tool_panic)("nbsim: amd64 guests only");

	out = deepCopyIRSBExceptStmts(in);
	if (nb_need == 0) {
		/* nothing to count: only the CPUID hook */
		for (i = 0; i < in->stmts_used; i++) {
			IRStmt *st = in->stmts[i];
			if (st && st->tag == Ist_Dirty && is_cpuid_dirty(st->Ist.Dirty.details))
				st = cpuid_stmt(st);
			addStmtToIRSB(out, st);
		}
		return out;
	}
	for (i = 0; i < in->stmts_used && in->stmts[i]->tag != Ist_IMark; i++)
		addStmtToIRSB(out, in->stmts[i]);
	if (nb_need & NEED_TC) {
		/* one call per superblock execution, at its start; the lines
		 * are filled in below, before the code ever runs.  Descriptors
		 * of discarded translations are not freed (a few bytes each). */
		Int nim = 0;
		for (Int j = i; j < in->stmts_used; j++)
			nim += in->stmts[j]->tag == Ist_IMark;
		tcd = VG_(malloc)("nbsim.tc", sizeof *tcd + (SizeT)(nim ? nim : 1) * sizeof tcd->line[0]);
		tcd->nlines = 0;
		addStmtToIRSB(out, IRStmt_Dirty(unsafeIRDirty_0_N(1, "nb_tc_sb",
			VG_(fnptr_to_fnentry)(&nb_tc_sb), mkIRExprVec_1(mkIRExpr_HWord((HWord)tcd)))));
	}

	for (; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];
		if (!st || st->tag == Ist_NoOp)
			continue;
		switch (st->tag) {
		case Ist_IMark: {
			Int j;
			Addr a = (Addr)(st->Ist.IMark.addr + st->Ist.IMark.delta);
			UInt len = st->Ist.IMark.len;
			fpa_flush(out, fpa_x87, &fpa_acc);
			if (k.valid) {
				/* Control reached the next IMark.  If it is k
				 * again (a REP iteration in a loop unrolled by
				 * iropt), k did not retire; otherwise it did. */
				if (k.uops_deferred && !exit_seen)
					add_uops(&p, &k);
				if (a != k.addr || k.dec.br != NB_BR_NONE) {
					retire(&p, &k);
					if (k.dec.br != NB_BR_NONE && k.dec.br != NB_BR_COND)
						/* only with guest chasing:
						 * target = here */
						emit_branch_call(out, k.dec.br, k.addr, k.len,
								 c64(1), c64(a));
					if (nb_need & NEED_STEP) {
						flush(out, &p);
						emit_step(out, NULL);
					}
				}
			}
			k.valid = True;
			k.addr = a;
			k.len = len;
			nb_decode((const uint8_t *)a, len > 16 ? 16 : len, &k.dec);
			fpa_x87 = (nb_need & NEED_FPA) &&
				nb_fpa_is_x87((const uint8_t *)a, len > 16 ? 16 : len, k.dec.len_prefix);
			for (j = i + 1; j < in->stmts_used && in->stmts[j]->tag != Ist_IMark; j++)
				;
			k.uops = uop_count(in, i + 1, j, &k.dec, &k.loads, &k.stores, &k.rom);
			k.uops_deferred = (k.dec.cls & NB_IC_REP) != 0;
			if (tcd)
				/* REP strings run from the microcode ROM: one
				 * transfer per iteration (one superblock run) */
				tc_add(tcd, a, k.uops, k.uops_deferred);
			if (!k.uops_deferred)
				add_uops(&p, &k);
			exit_seen = False;
			addStmtToIRSB(out, st);
			if ((nb_need & NEED_WCB) && (k.dec.cls & NB_IC_WCFLUSH))
				emit_wcb_fence(out);
			break;
		}
		case Ist_WrTmp:
			/* the model's call after the guest's load, not before:
			 * the host then overlaps the load's cache miss with the
			 * model's work (pointer chasing: each load's address is
			 * the previous load's value) */
			addStmtToIRSB(out, st);
			if ((nb_need & NEED_FPA) && k.valid)
				fpa_check(out, st->Ist.WrTmp.tmp, st->Ist.WrTmp.data, fpa_x87, &fpa_acc);
			/* (with the WC model on, a non-temporal store's IR
			 * load, VEX's emulation of maskmov*'s byte mask,
			 * reads no cache) */
			if ((nb_need & NEED_CACHE) && st->Ist.WrTmp.data->tag == Iex_Load &&
			    !((nb_need & NEED_WCB) && (k.dec.cls & NB_IC_NT)))
				emit_mem_call(out, st->Ist.WrTmp.data->Iex.Load.addr,
					      st->Ist.WrTmp.data->Iex.Load.ty, False, k.addr);
			break;
		case Ist_Store:
			if ((nb_need & NEED_WCB) && (k.dec.cls & NB_IC_NT))
				emit_nt_store(out, st->Ist.Store.addr,
					      typeOfIRExpr(in->tyenv, st->Ist.Store.data));
			else if (nb_need & NEED_CACHE)
				emit_mem_call(out, st->Ist.Store.addr,
					      typeOfIRExpr(in->tyenv, st->Ist.Store.data), True, k.addr);
			addStmtToIRSB(out, st);
			break;
		case Ist_CAS:
			if (nb_need & NEED_CACHE) {
				IRCAS *cas = st->Ist.CAS.details;
				IRType ty = typeOfIRExpr(in->tyenv, cas->dataLo);
				emit_mem_call(out, cas->addr, ty, False, k.addr);
				emit_mem_call(out, cas->addr, ty, True, k.addr);
			}
			addStmtToIRSB(out, st);
			break;
		case Ist_Dirty:
			if (is_cpuid_dirty(st->Ist.Dirty.details))
				st = cpuid_stmt(st);
			addStmtToIRSB(out, st);
			break;
		case Ist_Exit: {
			IRExpr *g = st->Ist.Exit.guard;
			ULong dst = st->Ist.Exit.dst->tag == Ico_U64 ? st->Ist.Exit.dst->Ico.U64 : 0;
			Addr next = k.addr + k.len;
			fpa_flush(out, fpa_x87, &fpa_acc);
			flush(out, &p);
			bound = p.bound + (k.valid ? BOUND_INSN(k.uops, k.dec.br != NB_BR_NONE,
							       k.loads + k.stores) : 0);
			p.bound = 0;
			if (k.valid && k.dec.br == NB_BR_COND) {
				/* VEX may invert the condition: the exit then goes
				 * to the fall-through and the taken target is the
				 * superblock's next. */
				Bool inv = dst == next;
				ULong tgt = dst;
				if (inv)
					tgt = continuation(in, i, next);
				emit_branch_call(out, NB_BR_COND, k.addr, k.len,
						 guard64(out, g, inv), c64(tgt));
			}
			/* An exit back to the instruction itself (REP
			 * iteration, failed CAS retry) is no retirement,
			 * unless the instruction is a branch (jmp $, loop $). */
			if (k.valid && jk_retires(st->Ist.Exit.jk) &&
			    (dst != k.addr || k.dec.br != NB_BR_NONE)) {
				if (nb_need & NEED_INSTR)
					emit_add_at(out, &nb_raw[RAW_IC(mem_class(k.loads, k.stores),
									 k.dec.fp)],
						    guard64(out, g, False));
				emit_step(out, g);
			}
			if (k.valid && k.rom && (nb_need & NEED_ROM) && jk_retires(st->Ist.Exit.jk) &&
			    (dst != k.addr || k.dec.br != NB_BR_NONE))
				emit_add_at(out, &nb_raw[RAW_MS_XFER], guard64(out, g, False));
			emit_pmi_check(out, bound);
			addStmtToIRSB(out, st);
			if (k.valid && k.uops_deferred && !exit_seen)
				add_uops(&p, &k);
			exit_seen = True;
			break;
		}
		default:
			addStmtToIRSB(out, st);
			break;
		}
	}

	fpa_flush(out, fpa_x87, &fpa_acc);
	if (k.valid) {
		Bool self = in->next->tag == Iex_Const &&
			in->next->Iex.Const.con->Ico.U64 == (ULong)k.addr &&
			k.dec.br == NB_BR_NONE;
		if (k.uops_deferred && !exit_seen)
			add_uops(&p, &k);
		if (jk_retires(in->jumpkind) && !self) {
			retire(&p, &k);
			if (k.dec.br != NB_BR_NONE && k.dec.br != NB_BR_COND)
				emit_branch_call(out, k.dec.br, k.addr, k.len, c64(1), in->next);
			flush(out, &p);
			emit_step(out, NULL);
		}
	}
	flush(out, &p);
	emit_pmi_check(out, p.bound + 1);
	return out;
}

/* ---- client requests ---- */

static Bool guest_writable(UWord addr, SizeT len)
{
	return addr != 0 && VG_(am_is_valid_for_client)((Addr)addr, len, VKI_PROT_WRITE);
}

static UWord gp_from_pmu(void)
{
	VG_(strlcpy)(nb_fault_buf, nb_pmu_fault(&nb_pmu_state), sizeof nb_fault_buf);
	return NBSIM_GP;
}

static UWord bad_pointer(const HChar *req, UWord addr)
{
	VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf,
		      "%s: output pointer %#lx is not writable guest memory", req, addr);
	return NBSIM_GP;
}

static void copy_str(char *dst, SizeT n, const char *src)
{
	SizeT i = 0;
	while (src[i] == ' ')
		src++;
	for (; i + 1 < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
}

static Bool nb_client_request(ThreadId tid, UWord *arg, UWord *ret)
{
	uint64_t v;

	if (!VG_IS_TOOL_USERREQ('N', 'B', arg[0]))
		return False;
	nb_derive();
	nb_update_cycles();
	switch (arg[0]) {
	case NBSIM_REQ_PROBE:
		*ret = NBSIM_MAGIC;
		break;
	case NBSIM_REQ_RDMSR:
		if (!guest_writable(arg[2], sizeof(ULong))) {
			*ret = bad_pointer("RDMSR", arg[2]);
			break;
		}
		if (nb_pmu_rdmsr(&nb_pmu_state, (uint32_t)arg[1], &v, nb_sig) != NB_PMU_OK) {
			*ret = gp_from_pmu();
			break;
		}
		if ((uint32_t)arg[1] == NB_MSR_IA32_DS_AREA)
			v = nb_ds_area[nb_pmu_state.lp & 1];
		*(ULong *)arg[2] = (ULong)v;
		*ret = NBSIM_OK;
		break;
	case NBSIM_REQ_WRMSR:
		*ret = nb_pmu_wrmsr(&nb_pmu_state, (uint32_t)arg[1], (uint64_t)arg[2], nb_sig)
			== NB_PMU_OK ? NBSIM_OK : gp_from_pmu();
		if (*ret == NBSIM_OK && (uint32_t)arg[1] == NB_MSR_IA32_DS_AREA)
			nb_ds_area[nb_pmu_state.lp & 1] = (uint64_t)arg[2];
		nb_warn_unmodelled();
		nb_pmi_update();
		nb_pebs_update((uint32_t)arg[1]);
		nb_update_need();
		break;
	case NBSIM_REQ_RDPMC:
		if (!guest_writable(arg[2], sizeof(ULong))) {
			*ret = bad_pointer("RDPMC", arg[2]);
			break;
		}
		if (nb_pmu_rdpmc(&nb_pmu_state, (uint32_t)arg[1], &v, nb_sig) != NB_PMU_OK) {
			*ret = gp_from_pmu();
			break;
		}
		*(ULong *)arg[2] = (ULong)v;
		*ret = NBSIM_OK;
		break;
	case NBSIM_REQ_INFO: {
		struct nbsim_info *inf = (struct nbsim_info *)arg[1];
		if (!guest_writable(arg[1], sizeof *inf)) {
			*ret = bad_pointer("INFO", arg[1]);
			break;
		}
		inf->version = NBSIM_INFO_VERSION;
		inf->family = 15;
		inf->model = nb_cpu->model;
		inf->stepping = nb_cpu->stepping;
		inf->ht = clo_ht ? 1 : 0;
		inf->logical_cpu = nb_lp_of(tid);
		inf->mhz = nb_cpu->mhz;
		inf->l3_kb = nb_cpu->l3_kb;
		copy_str(inf->model_name, sizeof inf->model_name, nb_cpu->name);
		copy_str(inf->brand, sizeof inf->brand, nb_cpu->brand);
		*ret = NBSIM_OK;
		break;
	}
	case NBSIM_REQ_PMI_SIGNAL:
		if (arg[1] > 64) {
			VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf,
				      "PMI_SIGNAL: %lu is not a signal number (0-64)", arg[1]);
			*ret = NBSIM_GP;
			break;
		}
		nb_pmi_sig = (Int)arg[1];
		nb_pmi_update();
		nb_update_need();
		*ret = NBSIM_OK;
		break;
	case NBSIM_REQ_MEMSTATS: {
		struct nbsim_memstats *ms = (struct nbsim_memstats *)arg[1];
		if (!guest_writable(arg[1], sizeof *ms)) {
			*ret = bad_pointer("MEMSTATS", arg[1]);
			break;
		}
		nb_memstats_fill();
		*ms = nb_ms;
		ms->active = (nb_need & NEED_CACHE) != 0;
		*ret = NBSIM_OK;
		break;
	}
	case NBSIM_REQ_LAST_FAULT:
		if (arg[2] && guest_writable(arg[1], arg[2]))
			copy_str((char *)arg[1], arg[2], nb_fault_buf);
		*ret = NBSIM_OK;
		break;
	default:
		VG_(message)(Vg_UserMsg, "nbsim: unknown client request %#lx\n", arg[0]);
		*ret = NBSIM_GP;
		break;
	}
	nb_tags_changed();
	return True;
}

/* ---- Hyper-Threading: thread placement ---- */

/* Fold what ran so far into the running LP's counts, then count for LP
 * lp with the current set of active LPs.  A thread switch ends the open
 * retirement cycle (the LPs' cycles are not interleaved). */
static void nb_lp_switch(unsigned lp)
{
	nb_derive();
	nb_update_cycles();
	nb_pmu_set_lp(&nb_pmu_state, lp, nb_ht_active(&nb_ht_state), nb_sig);
	nb_tags_changed();
}

static void nb_start_client(ThreadId tid, ULong blocks_done)
{
	(void)blocks_done;
	/* the thread that stands for its LP (nb_pmi_send) */
	nb_lp_tid[nb_lp_of(tid)] = tid;
	nb_lp_lwpid[nb_lp_of(tid)] = VG_(gettid)();
	if (clo_ht && nb_lp_of(tid) != nb_pmu_state.lp)
		nb_lp_switch(nb_lp_of(tid));
}

static void nb_thread_create(ThreadId parent, ThreadId child)
{
	(void)parent;
	if (!clo_ht)
		return;
	nb_ht_create(&nb_ht_state, child);
	nb_lp_switch(nb_pmu_state.lp);
}

static void nb_thread_exit(ThreadId tid)
{
	if (nb_lp_tid[nb_lp_of(tid)] == tid)
		nb_lp_tid[nb_lp_of(tid)] = 0, nb_lp_lwpid[nb_lp_of(tid)] = 0;
	if (!clo_ht)
		return;
	nb_ht_exit(&nb_ht_state, tid);
	nb_lp_switch(nb_pmu_state.lp);
}

/* ---- options, init, fini ---- */

static Bool nb_process_cmd_line_option(const HChar *arg)
{
	if VG_STR_CLO(arg, "--model", clo_model) {
		if (!nb_cpu_find(clo_model)) {
			HChar known[200];
			Int n = 0;
			known[0] = 0;
			for (unsigned i = 0; i < nb_num_cpu_models; i++)
				n += VG_(snprintf)(known + n, (Int)sizeof known - n, "%s%s",
						   i ? ", " : "", nb_cpu_models[i].name);
			VG_(fmsg_bad_option)(arg, "unknown NetBurst model '%s' (known: %s)\n",
					     clo_model, known);
		}
	}
	else if VG_BOOL_CLO(arg, "--ht", clo_ht) {}
	else if VG_BOOL_CLO(arg, "--nbsim-stats", clo_stats) {}
	else if VG_BOOL_CLO(arg, "--nbsim-warn-unmodelled", clo_warn) {}
	else if VG_BOOL_CLO(arg, "--nbsim-list-events", clo_list) {}
	else if VG_XACT_CLO(arg, "--nbsim-cache=netburst", clo_cg_compat, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-cache=cachegrind", clo_cg_compat, True) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=auto", clo_mem_timing, MT_AUTO) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=yes", clo_mem_timing, MT_YES) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=no", clo_mem_timing, MT_NO) {}
	else
		return False;
	return True;
}

static void nb_print_usage(void)
{
	VG_(printf)(
"    --model=NAME              willamette|northwood|prescott|cedarmill|xeonmp\n"
"                              [%s]\n"
"    --ht=yes|no               model Hyper-Threading: two logical processors,\n"
"                              thread t on LP (t-1) mod 2 [no: all on LP0]\n"
"    --nbsim-stats=yes|no      print signal totals at exit [no]\n"
"    --nbsim-warn-unmodelled=yes|no  warn once when a counter is programmed\n"
"                              for an event the model does not produce [yes]\n"
"    --nbsim-list-events=yes|no  print every event:MASK the model produces\n"
"                              (lines 'nbsim-event EVENT:MASK') and exit [no]\n"
"    --nbsim-mem-timing=auto|yes|no  cache-model stalls add cycles: while the\n"
"                              cache model runs for another event / counting\n"
"                              cycles runs it too / never [auto]\n"
"    --nbsim-cache=netburst|cachegrind  cache policies; cachegrind: write-\n"
"                              allocate L1D, 64-byte L2 lines (a test mode) [netburst]\n",
		NB_CPU_DEFAULT);
}

static void nb_print_debug_usage(void)
{
	VG_(printf)("    (none)\n");
}

static void nb_post_clo_init(void)
{
	uint8_t rate[NB_NUM_EVENTS_MAX];

	nb_cpu = nb_cpu_find(clo_model);
	tl_assert(nb_cpu);
	nb_ht_init(&nb_ht_state, clo_ht);
	/* Every branch must end a superblock (branch and retirement
	 * accounting rely on it); overrides --vex-guest-chase. */
	VG_(clo_vex_control).guest_chase = False;

	for (unsigned ev = 0; ev < NB_NUM_EVENTS_MAX; ev++)
		rate[ev] = (nb_events[ev].flags & NB_EV_RETIREMENT)
			? (uint8_t)nb_cpu->retire_width : 1;
	nb_pmu_init(&nb_pmu_state, nb_cpu->model, clo_ht, rate, nb_sig);
	nb_pmu_set_features(&nb_pmu_state, nb_cpu->l3_kb ? NB_FEAT_L3 : 0);
	nb_bpred_init(&nb_bp, nb_cpu->btb_entries, nb_cpu->rsb_entries);
	/* geometry from the model's CPUID leaf-2 descriptors (nb_cpu.c): L1D
	 * 64-byte lines, 4-way (8 KB, 0x66) or 8-way (16 KB, 0x60); L2 and L3
	 * 8-way, 64-byte lines, 2 lines per sector: 128-byte tags, 64-byte fills */
	tl_assert(nb_l1_init(&nb_l1d, nb_cpu->l1d_kb, nb_cpu->l1d_kb == 8 ? 4 : 8));
	tl_assert(nb_cache_init(&nb_l2, nb_cpu->l2_kb, 8, clo_cg_compat ? 64 : 1u << NB_L2_LINE_SHIFT, 64));
	nb_has_l3 = nb_cpu->l3_kb != 0 && !clo_cg_compat;
	nb_memp = nb_mem_params_find(nb_cpu->model, nb_cpu->l3_kb != 0);
	nb_bound_mem = nb_memp ? (ULong)nb_memp->l2_latency + nb_memp->l3_latency +
		nb_memp->mem_latency : 1000;
	tl_assert(nb_memp);
	/* bus model: the part's bus clock ratio (nb_bus.c) */
	tl_assert(nb_bus_init(&nb_bus_state, nb_cpu->model, nb_cpu->l3_kb != 0));
	nb_bus_last = nb_bus_state;
	/* DTLB: CPUID leaf-2 descriptor 0x5b, 64 entries, 4 KB pages (nb_tlb.c) */
	tl_assert(nb_tlb_init(&nb_dtlb, nb_memp->dtlb_entries, 12));
	/* WC buffers: 6, 8 on models 3, 4, 6 (nb_wcb.c) */
	tl_assert(nb_wcb_init(&nb_wcbs, nb_wcb_buffers(nb_cpu->model)));
	/* store buffer: per-model entries and aliasing bits (nb_tlb.c) */
	tl_assert(nb_stb_init(&nb_stb, nb_memp->stb_entries, nb_memp->alias_bits));
	/* ITLB: descriptor 0x50, 64 entries; trace cache 12K uops 8-way (0x70):
	 * 2048 six-uop lines, 256 sets (nb_tc_sb) */
	tl_assert(nb_tlb_init(&nb_itlb, nb_memp->itlb_entries, 12));
	tl_assert(nb_cache_init(&nb_tc, 128, 8, 64, 64));
	if (nb_has_l3)
		tl_assert(nb_cache_init(&nb_l3, nb_cpu->l3_kb, 8, 1u << NB_L2_LINE_SHIFT, 64));
	{
		uint32_t o[4];
		/* DS format: 64-bit when CPUID.1:ECX.DTES64 (bit 2) [SDM DS save area] */
		nb_cpuid(nb_cpu, clo_ht, 0, 1, 0, o);
		nb_pebs_fmt64 = (o[2] & 4) != 0;
	}
	nb_need = clo_stats ? NEED_ALL : 0;
	nb_wpath_init(&nb_wp, nb_cpu->mispredict_penalty);
	if (clo_list) {
		nb_list_events();
		VG_(exit)(0);
	}
	if (VG_(clo_verbosity) > 1)
		VG_(umsg)("nbsim: modelling %s (family 15 model %u stepping %u), HT %s\n",
			  nb_cpu->desc, nb_cpu->model, nb_cpu->stepping, clo_ht ? "on" : "off");
}

static void nb_fini(Int exitcode)
{
	(void)exitcode;
	if (!clo_stats)
		return;
	nb_derive();
	nb_update_cycles();
#define S(x) ((ULong)nb_sig[x])
	VG_(umsg)("nbsim: %s: instructions %llu, uops %llu, branches %llu "
		  "(NP %llu NM %llu TP %llu TM %llu), mispredicted %llu, cycles %llu\n",
		  nb_cpu->name, S(SIG_INSTR) + S(SIG_INSTR_TAG), S(SIG_UOPS),
		  S(SIG_BR(0)) + S(SIG_BR(1)) + S(SIG_BR(2)) + S(SIG_BR(3)),
		  S(SIG_BR(0)), S(SIG_BR(1)), S(SIG_BR(2)), S(SIG_BR(3)),
		  S(SIG_MISP), S(NB_SIG_CYCLES));
#undef S
	nb_memstats_fill();
	VG_(umsg)("nbsim: cache model: L1D load misses %llu, store misses %llu; "
		  "L2 load misses %llu, store misses %llu; DTLB load misses %llu, "
		  "store misses %llu; split loads %llu, stores %llu; stall cycles %llu\n",
		  (ULong)nb_ms.l1_load_miss, (ULong)nb_ms.l1_store_miss, (ULong)nb_ms.l2_load_miss,
		  (ULong)nb_ms.l2_store_miss, (ULong)nb_ms.dtlb_load_miss, (ULong)nb_ms.dtlb_store_miss,
		  (ULong)nb_ms.split_loads, (ULong)nb_ms.split_stores, nb_stall);
	VG_(umsg)("nbsim: store buffer: loads forwarded %llu, blocked PARTIAL_DATA %llu, "
		  "UNALGN_ADDR %llu, cancelled 64K_CONF %llu\n", nb_stb_fwd,
		  (ULong)nb_sig[SIG_MOB_PD], (ULong)nb_sig[SIG_MOB_UA], (ULong)nb_sig[SIG_64K]);
	VG_(umsg)("nbsim: WC buffers (%u): non-temporal stores %llu, evictions %llu "
		  "(no free buffer %llu, full lines %llu), flushing instructions with a "
		  "buffer in use %llu\n", nb_wcbs.n, nb_wcb_nt, (ULong)nb_sig[SIG_WCB_EVICTS],
		  (ULong)nb_sig[SIG_WCB_FULL], nb_wcb_bursts, nb_wcb_fences);
	{
		const struct nb_bus *b = &nb_bus_state;
		VG_(umsg)("nbsim: bus model: IOQ reads %llu (prefetches %llu), writebacks %llu; "
			  "BSQ writebacks into the L3 %llu; in step mode %llu misses counted at once "
			  "(queue full)\n",
			  (ULong)(b->ioq_alloc[NB_BUS_RD] + b->ioq_alloc[NB_BUS_RD_PF] +
				  b->ioq_alloc[NB_BUS_RFO] + b->ioq_alloc[NB_BUS_RFO_PF]),
			  (ULong)(b->ioq_alloc[NB_BUS_RD_PF] + b->ioq_alloc[NB_BUS_RFO_PF]),
			  (ULong)b->ioq_alloc[NB_BUS_WB], (ULong)b->bsq_alloc[NB_BUS_WB_L3],
			  (ULong)b->dropped);
	}
	VG_(umsg)("nbsim: translation flushes (PMU reprogrammed): %llu\n", nb_discards);
	VG_(umsg)("nbsim: overflow interrupts (PMI) sent: %llu (PMU syncs for them: %llu)\n",
		  nb_pmi_sent, nb_pmi_syncs);
	if (clo_ht)
		VG_(umsg)("nbsim: PMIs sent to the other LP's thread: %llu; for an LP no thread ran on: %llu\n",
			  nb_pmi_sent_other, nb_pmi_lost);
	VG_(umsg)("nbsim: PEBS records %llu (%s format), not stored (buffer full/unmapped) %llu\n",
		  nb_pebs_records, nb_pebs_fmt64 ? "64-bit" : "32-bit", nb_pebs_full);
}

static void nb_pre_clo_init(void)
{
	VG_(details_name)("nbsim");
	VG_(details_version)(NB_VERSION);
	VG_(details_description)("an Intel NetBurst (Pentium 4) CPU and PMU model");
	VG_(details_copyright_author)("Copyright (C) the p4netburst authors.");
	VG_(details_bug_reports_to)("the p4netburst project");
	VG_(details_avg_translation_sizeB)(275);

	VG_(basic_tool_funcs)(nb_post_clo_init, nb_instrument, nb_fini);
	VG_(needs_command_line_options)(nb_process_cmd_line_option,
					nb_print_usage, nb_print_debug_usage);
	VG_(needs_client_requests)(nb_client_request);
	VG_(track_start_client_code)(nb_start_client);
	VG_(track_pre_thread_ll_create)(nb_thread_create);
	VG_(track_pre_thread_ll_exit)(nb_thread_exit);
	VG_(clo_vex_control).guest_chase = False;
}

VG_DETERMINE_INTERFACE_VERSION(nb_pre_clo_init)
