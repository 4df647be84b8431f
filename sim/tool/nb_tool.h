/*
 * nb_tool.h - nbsim's internal interface between the modules of the tool
 * (not a public header): the raw counts of the CPU model, the
 * instrumentation needs, the event signals' names, and the state and
 * functions the modules share, grouped by the module that owns them (each
 * section names it).  What it exports carries the nb_ prefix (clo_ for
 * options, NB_/NEED_/RAW_/SIG_/MC_ for constants).
 *
 * The modules of sim/tool/, one job each (sim/tool/README.md):
 *   nb_main.c    the tool's state, client requests, thread hooks, init, fini
 *   nb_opts.c    command-line options
 *   nb_pmuacc.c  the PMU-access protocol (before an access, after a write)
 *   nb_instr.c   instrumentation of each superblock (rules: nb_instr_rules.c,
 *                branches: nb_instr_branch.c, FP assists: nb_instr_fpa.c)
 *   nb_exec.c    helpers called by generated code (branches, memory, WC, TC)
 *   nb_derive.c  raw counts -> event signals, with the tagging configuration
 *   nb_cycles.c  the clock (cycles) from the timing model
 *   nb_step.c    step mode: the clock's cycles reported one by one to the PMU
 *   nb_tmbuild.c the timing model's analysis of each superblock
 *   nb_pmi.c     overflow interrupts and PEBS delivery
 *   nb_need.c    what the enabled counters need; re-instrumentation
 *   nb_ctx.c     per-thread PMU contexts: the switch between guest threads
 *   nb_ud.c      #UD for the instructions a part lacks
 * They drive the pure models (sim/pmu/, sim/cpu/, sim/timing/), which the
 * native unit tests link too, and are driven by the front-ends
 * (sim/kernel/) through struct nb_front below.
 */
#ifndef NB_TOOL_H
#define NB_TOOL_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
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
#include "pmu/pmu.h"
#include "cpu/nb_cpu.h"
#include "cpu/nb_idecode.h"
#include "cpu/nb_bpred.h"
#include "cpu/nb_cache.h"
#include "cpu/nb_l1.h"
#include "pmu/nb_ds.h"
#include "pmu/nb_ht.h"
#include "cpu/nb_wpath.h"
#include "cpu/nb_tlb.h"
#include "cpu/nb_stb.h"
#include "cpu/nb_fpa.h"
#include "cpu/nb_wcb.h"
#include "cpu/nb_pdrules.h"
#include "cpu/nb_uops.h"
#include "cpu/nb_bus.h"
#include "timing/nb_tmsample.h"

#define NB_VERSION "0.1"

/* ---- raw counts (nb_main.c owns them; nb_derive.c folds them) ---- */

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
	/* INSTR_RETIRED's second count of an instruction the Pentium D
	 * counts twice (cpu/nb_pdrules.h; instr_completed does not): the
	 * last slot of the instruction range, gathered and held with it */
	RAW_XINS = RAW_IC0 + 4 * NB_FP_NCLASSES,
	RAW_IC_END,
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
extern ULong nb_raw[RAW_N], nb_raw_last[RAW_N];
/* memory uops with any condition (the RAW_MC total): nb_derive skips the
 * RAW_MC range while it has not moved (step mode derives every cycle) */
extern ULong nb_mc_n, nb_mc_n_last;
extern ULong nb_stall;                   /* memory stall cycles (nb_mem)  */
extern ULong nb_tc_built, nb_tc_built_last; /* uops of trace lines built   */
extern uint64_t nb_sig[NB_NSIG];         /* event signals (see pmu.h)     */
extern struct nb_pmu nb_pmu_state;
extern struct nb_bpred nb_bp;
extern const struct nb_cpu_model *nb_cpu;
extern HChar nb_fault_buf[200];

/* ---- options (nb_opts.c) ---- */

extern const HChar *clo_model;
extern Bool clo_ht, clo_stats, clo_warn, clo_list;
/* --nbsim-mem-timing: do loads take the cache model's latencies? (README
 * "Timing model") yes (and auto, its old name): always, counting cycles
 * runs the cache model; no: every load hits the L1D (memory-blind) */
enum { MT_AUTO, MT_YES, MT_NO };
extern UInt clo_mem_timing;
extern Bool clo_smt_walk;
extern Bool clo_step_each;      /* --nbsim-step-derive=cycle (nb_derive.c) */
#ifndef NB_SAMPLE_SKIP
#define NB_SAMPLE_SKIP 8000u
#endif
#ifndef NB_SAMPLE_FORGET
#define NB_SAMPLE_FORGET 4194304u
#endif
extern UInt clo_sample_skip;    /* --nbsim-sample: mean runs of a skip phase */
extern UInt clo_sample_forget;  /* --nbsim-sample-forget: runs between two forgettings */
extern const HChar *clo_sample_given; /* the sampled clock's option given, or NULL
					 * (nb_post_clo_init) */
/* --nbsim-clock: how the clock runs a superblock (nb_cycles.c tm_sb).
 * sampled, the default: the walk on a sample of the runs, costs learned
 * on the others (nb_tm_run_sampled); model: the timing model on every
 * run (nb_tm_run, with the replay of recorded schedules); walk: the model
 * without the replay (the reference the replay is checked against, and
 * the bench's nb2w); fast: O(1) per run (nb_tm_run_fast: 3 uops a cycle
 * plus miss and misprediction costs; the PAPI suite's tests that need
 * no cycles use it for speed). */
enum nb_clock { NB_CLOCK_SAMPLED, NB_CLOCK_MODEL, NB_CLOCK_WALK, NB_CLOCK_FAST };
extern enum nb_clock clo_clock;
extern Bool clo_cg_compat;               /* --nbsim-cache=cachegrind     */
extern Bool clo_exact_ir;                /* --nbsim-exact-ir             */
extern Bool clo_cold;                    /* --nbsim-cold                 */
extern Bool clo_ht_migrate;              /* --nbsim-ht-place=migrate     */
extern Bool clo_trace_forked;            /* --nbsim-trace-forked (nb_progfile.c) */
Bool nb_process_cmd_line_option(const HChar *arg);
void nb_print_usage(void);
void nb_print_debug_usage(void);

/* ---- Hyper-Threading: guest threads on logical processors (nb_ht.h) ---- */

extern struct nb_ht nb_ht_state;

/* The LP thread tid runs on now. */
static inline unsigned nb_lp_of(ThreadId tid)
{
	return nb_ht_lp(&nb_ht_state, (unsigned)tid);
}

/* The LP it was created on: whose registers it programs (NBSIM_REQ_INFO). */
static inline unsigned nb_home_lp_of(ThreadId tid)
{
	return nb_ht_home(&nb_ht_state, (unsigned)tid);
}

/* The guest's CPU affinity (nb_main.c; emulated by kernel/nb_affinity.c):
 * thread tid's mask of LPs (bit lp; 1 without HT); bind it to MASK (the
 * modelled LPs of it recorded and returned, 0: none, nothing recorded),
 * moving it now if it runs elsewhere and may (KERN_OK: the front-end's
 * objects allow it); misplaced: it runs on an LP its mask excludes (its
 * move was refused); settle: try that move again. */
UInt nb_thread_lps(ThreadId tid);
UInt nb_thread_bind(ThreadId tid, UInt mask, Bool kern_ok);
Bool nb_thread_misplaced(ThreadId tid);
Bool nb_thread_settle(ThreadId tid, Bool kern_ok);

/* ESCR bit that qualifies user-mode events of the running LP. */
static inline uint64_t nb_usr_bit(void)
{
	return nb_pmu_state.lp ? NB_ESCR_T1_USR : NB_ESCR_T0_USR;
}

/* ---- per-thread PMU contexts (nb_ctx.c, pmu_ctx.h) ---- */

extern Bool clo_ctx_cpu;                 /* --nbsim-pmu-ctx=cpu            */

/* ---- which thread may run, in simulated time (nb_lockstep.c) ---- */

extern Bool clo_lockstep;                /* --nbsim-lockstep               */
extern UInt clo_lockstep_bound;          /* --nbsim-lockstep-bound         */
extern Bool clo_lockstep_pause;          /* --nbsim-lockstep-pause         */
extern Bool nb_ls_on;                    /* guards in superblocks (a way back) */
extern ULong nb_ls_lim;                  /* the running LP's raw clock at  */
					 /* which it gives way             */
/* the lockstep's trace under -v -v -v: a line per decision, system call,
 * wake and slice, for two runs' traces to be compared (docs/threads.md
 * "Finding where two runs part"); host facts (ids, the order of
 * simultaneous wake-ups' lines) differ, the rest must not */
#define NB_LS_TRACE(...) do { if (VG_(clo_verbosity) > 2) VG_(umsg)("lstrace: " __VA_ARGS__); } while (0)
/* superblocks valgrind's blocks_done counts as run that the lockstep's
 * holds left unrun (nb_lockstep.c leave_now) */
extern ULong nb_ls_unrun;
void nb_ls_slice_end(ThreadId tid);
/* translations made with the guard and without (nb_lsguard.c) */
extern ULong nb_ls_guarded_sbs, nb_ls_unguarded_sbs;
/* the guard at the start of superblock sb made from in (nb_lsguard.c) */
void nb_ls_guard_emit(IRSB *sb, IRSB *in);
/* the guest-state writes nothing reads, dropped from a finished
 * translation (nb_putdrop.c); how many */
void nb_putdrop(IRSB *sb);
void nb_putdrop_guest(const IRSB *in);
extern ULong nb_putdrop_n;
/* without the clock, the running thread counts its instructions down in
 * this word of its shadow guest state (1): the guard leaves at <= 0 */
#define NB_LS_SLOT offsetof(VexGuestAMD64State, guest_RAX)
/* with the clock, the guard reads nb_tmp from this word of the running
 * thread's shadow state (1), set at each start of its run */
#define NB_LS_TMP_SLOT offsetof(VexGuestAMD64State, guest_RCX)
void nb_ls_tmp_set(ThreadId tid);
Bool nb_ls_start(ThreadId tid);
/* the host thread lwp is in a futex wait, or gone, or back waiting for
 * valgrind's lock; it is on its way there (nb_lstask.c) */
Bool nb_lst_in_wait(Int lwp);
Bool nb_lst_progressing(Int lwp);
/* the running thread took a no-redirect jump (nb_instr.c marks the
 * exits): valgrind runs that translation next, at once */
void nb_ls_noredir_mark(void);
/* the running thread's limit set again after its start's LP switch */
void nb_ls_relimit(ThreadId tid);
/* an LP passing the other LP's time calls f (nb_tm_cross: its profile's
 * start, nb_cycles.c) */
void nb_ls_on_cross(void (*f)(unsigned lp));
extern ULong nb_ls_crossings;
void nb_tm_cross(unsigned lp);
Bool nb_ls_enter(ThreadId tid);          /* nb_ls_start; held: parks      */
/* at a PAUSE's superblock end (nb_instr.c): 0, the thread runs on, its
 * limit set as the thread-start hook would; 1, it leaves to the hook */
ULong nb_ls_pause(void);
extern ULong nb_ls_pauses;
/* would the thread-start hook, for the thread that runs, do nothing but
 * ask the lockstep (no discard, PMI, context, timer...)?  nb_main.c's
 * answer, registered, since the lockstep is below the thread hooks */
void nb_ls_on_start_again(Bool (*f)(ThreadId tid));
/* ... its parts: nb_pmi.c (the cut, a PMI in flight, a signal handler's
 * CPL), nb_ctx.c (the thread whose context is loaded) */
Bool nb_pmi_start_again(ThreadId tid);
ThreadId nb_ctx_running(void);
Bool nb_ls_active(void);
void nb_ls_changed(void);
/* what the tool's thread hooks (nb_main.c) do when the LPs that run user
 * code change: registered, since the lockstep is below them */
void nb_ls_on_change(void (*f)(void));
void nb_ls_time_on(void);
unsigned nb_ls_lps_running(void);
void nb_ls_pre_syscall(ThreadId tid, UInt sysno, UWord *args);
void nb_ls_post_syscall(ThreadId tid);
void nb_ls_created(ThreadId parent, ThreadId child);
void nb_ls_exit(ThreadId tid);
void nb_ls_vanish(ThreadId tid);        /* a forked child's other threads */
void nb_ls_stats(void);
/* nb_lshand.c: the host CPU a lockstep turn's next thread wakes on */
void nb_lsh_parking(ThreadId tid);
void nb_lsh_handoff(ThreadId self, ThreadId next);
void nb_lsh_running(ThreadId tid);
/* ... before a fork or an exec: the process's start mask again */
void nb_lsh_release(ThreadId tid);
void nb_lsh_exit(ThreadId tid);
void nb_lsh_after_fork(void);
extern ULong nb_lsh_handoffs, nb_lsh_pins;
extern ULong nb_ctx_switches, nb_ctx_swaps, nb_ctx_counters;
void nb_ctx_start(ThreadId tid);         /* tid runs next                  */
void nb_ctx_created(ThreadId child);
void nb_ctx_exit(ThreadId tid);
void nb_ctx_wrote_ds_area(ThreadId tid, uint64_t v);
void nb_ctx_wrote_tagging(ThreadId tid);
void nb_ctx_before_write(ThreadId tid, uint32_t msr);
void nb_ctx_cpu_wide(ThreadId tid, uint32_t mask, Bool on);
void nb_ctx_stats(void);
/* HT migration (nb_ctx.c): may tid move; it moved; its view of the PMU */
extern ULong nb_ctx_moves;
Bool nb_ctx_may_move(ThreadId tid);
void nb_ctx_moved(ThreadId tid, unsigned from, ThreadId after);
int nb_ctx_rebind(ThreadId tid, unsigned from);
Bool nb_ctx_map_msr(ThreadId tid, uint32_t *msr, Int *kind);
uint64_t nb_ctx_map_val(Int kind, uint64_t v);
uint32_t nb_ctx_map_ctr(ThreadId tid, uint32_t idx);
uint32_t nb_ctx_map_mask(ThreadId tid, uint32_t mask);

/* ---- needs (nb_need.c) ---- */

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
#define NEED_TIME  0x8000u       /* timing model: nb_tm_sb per superblock, */
				 /* the load index before each load call  */
#define NEED_EXACT 0x10000u      /* every register update kept at each    */
				 /* instruction (--nbsim-exact-ir, README */
				 /* "What VEX's optimiser must not remove") */
#define NEED_ICLASS 0x20000u     /* retired instructions by class (RAW_IC  */
				 /* by memory and FP class), not only     */
				 /* their number in RAW_IC(0, 0)          */
#define NEED_CUT   0x40000u      /* a PMI may stop the thread (a signal,  */
				 /* a front-end's claim): the cut exits   */
				 /* (nb_instr_pmi.c); not for nb_record's */
				 /* samples alone, which stop nothing     */
#define NEED_ALL   (NEED_EXACT | NEED_ICLASS | NEED_INSTR | NEED_UOPS | NEED_BR | NEED_MEM | NEED_CACHE | NEED_ROM | NEED_TLB | \
		    NEED_TC | NEED_STB | NEED_FPA | NEED_WCB | NEED_BUS | NEED_TIME)
extern UInt nb_need;
extern ULong nb_discards;                /* translation flushes            */
extern ULong nb_warned;                  /* events already warned about   */
void nb_list_events(void);
extern VexRegisterUpdates nb_px_idle;     /* the policy with nothing counted */
void nb_px_policy(void);                 /* VEX's policy for code in files */
void nb_px_exact(void);                  /* ... every update kept, for good */
void nb_warn_unmodelled(void);
void nb_update_need(void);

/* ---- signals ---- */

#define SIG_INSTR   NB_SIG(NB_EV_INSTR_RETIRED, 0)        /* NBOGUSNTAG */
#define SIG_INSTR_TAG NB_SIG(NB_EV_INSTR_RETIRED, 1)      /* NBOGUSTAG  */
#define SIG_FE_NBOGUS NB_SIG(NB_EV_FRONT_END_EVENT, 0)
#define SIG_UOPTYPE(b) NB_SIG(NB_EV_UOP_TYPE, (b))        /* 1 loads, 2 stores */
#define SIG_UOPS    NB_SIG(NB_EV_UOPS_RETIRED, 0)         /* NBOGUS     */
#define SIG_BR(b)   NB_SIG(NB_EV_BRANCH_RETIRED, (b))     /* MMNP..MMTM */
#define SIG_MISP    NB_SIG(NB_EV_MISPRED_BRANCH_RETIRED, 0)

/* x87_SIMD_moves_uop masks: ALLP0 (register copies, stores), ALLP2 (loads)
 * [events.txt]; exec_tags() index of the ALLP2 moves */
#define NB_MOVE_P0_BIT 3
#define NB_MOVE_P2_BIT 4
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
#define SIG_EXEC(b)    NB_SIG(NB_EV_EXECUTION_EVENT, (b))  /* NBOGUS0-3, BOGUS0-3: 4-7 */
#define SIG_RBT(b)     NB_SIG(NB_EV_RETIRED_BRANCH_TYPE, (b))
#define SIG_RMBT(b)    NB_SIG(NB_EV_RETIRED_MISPRED_BRANCH_TYPE, (b))

#define SIG_SPLIT_LD   NB_SIG(NB_EV_LOAD_PORT_REPLAY, 1)    /* SPLIT_LD  */
#define SIG_SPLIT_ST   NB_SIG(NB_EV_STORE_PORT_REPLAY, 1)   /* SPLIT_ST  */
#define SIG_LSC        NB_SIG(NB_EV_MEMORY_COMPLETE, 0)
#define SIG_SSC        NB_SIG(NB_EV_MEMORY_COMPLETE, 1)
#define SIG_DTMISS     NB_SIG(NB_EV_PAGE_WALK_TYPE, 0)
#define SIG_MOB_PD     NB_SIG(NB_EV_MOB_LOAD_REPLAY, 4)     /* PARTIAL_DATA */
#define SIG_MOB_UA     NB_SIG(NB_EV_MOB_LOAD_REPLAY, 5)     /* UNALGN_ADDR  */
#define SIG_64K        NB_SIG(NB_EV_MEMORY_CANCEL, 3)       /* 64K_CONF     */
#define SIG_BSQ(b)     NB_SIG(NB_EV_BSQ_CACHE_REFERENCE, (b))
#define SIG_WCB_EVICTS NB_SIG(NB_EV_WC_BUFFER, 0)     /* WCB_EVICTS     */
#define SIG_WCB_FULL   NB_SIG(NB_EV_WC_BUFFER, 1)     /* WCB_FULL_EVICT */

/* BSQ_cache_reference mask bit of a read reaching the L2 (level 0) or the
 * L3 (level 1) in state st (NB_CACHE_*) [events.txt]: HITS is never
 * produced (no other caching agent shares a line) */
static inline unsigned nb_bsq_bit(unsigned level, int st)
{
	if (st == NB_CACHE_MISS)
		return level ? 9 : 8;
	return (level ? 3 : 0) + (st == NB_CACHE_DIRTY ? 2 : 1);
}

/* ---- the PMU-access protocol (nb_pmuacc.c) ---- */

/* Before an access of the PMU's registers: signals and cycles up to now. */
void nb_pmu_access(void);
/* After an access that wrote register MSR (0: several; NB_PMU_NO_WRITE:
 * none, a declaration changed): PMI, PEBS, needs, tags, in this order. */
#define NB_PMU_NO_WRITE 0xffffffffu
void nb_pmu_written(uint32_t msr);

/* ---- signal derivation (nb_derive.c) ---- */

extern struct nb_wpath nb_wp;
extern struct nb_bus nb_bus_state;       /* NEED_BUS: totals of nb_bus.c  */
extern struct nb_bus nb_bus_last;        /* ... at the last nb_derive      */
void nb_derive(void);
Bool nb_derive_cycle(void);             /* step mode: a cycle ends        */
unsigned nb_derive_linear_now(void);    /* ... and its piece is linear    */
Bool nb_derive_additive(void);          /* ... no close needs a fold      */
void nb_bus_derive(void);
void nb_tags_changed(void);
uint64_t nb_other_msr(uint32_t msr);
Bool nb_escr_selects(unsigned escr, unsigned ev, unsigned bit);
int nb_mispred_tagging(void);
/* is front-end or execution tagging programmed (an ESCR of uop_type or
 * of an FP/SIMD class with its tag on)? */
Bool nb_tagging_programmed(void);

/* ---- timing model (nb_cycles.c; step mode: nb_step.c) ---- */

extern ULong nb_cyc;                     /* cycles so far (RUNNING)        */
extern ULong nb_u_seen, nb_m_seen;       /* uops, mispredicts in nb_cyc    */
/* mispredicted branches so far (nb_branch; nb_cond's not yet folded) */
static inline ULong nb_misp_total(void)
{
	return nb_raw[RAW_MISP] + nb_raw[RAW_CBR0 + 1] + nb_raw[RAW_CBR0 + 3];
}
extern Bool nb_stepping;                 /* NEED_STEP: nb_step reports cycles */
extern UInt nb_fill;                     /* uops in the open retirement cycle */
void nb_update_cycles(void);
void nb_peek_cycles(void);
/* Step mode: consecutive cycles with equal outputs held back as one run
 * (nb_step.c batches them), reported before any PMU access */
extern struct nb_pmu_run nb_step_run;
/* ... and held-back runs' cycles counted by output (nb_step.c
 * held_bulk), reported before nb_step_run's, which come after them */
extern struct nb_pmu_hist nb_step_hist;
static inline void nb_cycles_flush(void)
{
	if (nb_step_hist.on)
		nb_pmu_hist_flush(&nb_pmu_state, &nb_step_hist);
	nb_pmu_run_flush(&nb_pmu_state, &nb_step_run);
}
/* the cycles nb_peek_cycles would give, not written to nb_sig (nb_pmi.c) */
ULong nb_cycles_now(void);
VG_REGPARM(0) void nb_step(void);
/* step mode: the run is held back and its later instructions' calls
 * skipped (nb_instr_tm.c); the uops so far at the last skipped step */
extern UInt nb_step_fast;
extern ULong nb_step_mark;
VG_REGPARM(2) void nb_step_end(const struct nb_tm_block *b, ULong arg);
/* step mode's state the clock reads (nb_step.c): the uops of the run
 * held back, the open retirement cycle, a take whose next run is not
 * opened yet (resolved before any clock work: nb_step_resolve; where a
 * run may be under way, nb_step_resolve_mid) */
extern ULong nb_step_held;
extern uint64_t nb_step_open;
extern Bool nb_step_tk_armed;
void nb_step_resolve(void);
void nb_step_resolve_mid(void);
/* the held run ends: its uops get retirement cycles (all: every one now) */
void nb_step_close_held(int all);
/* a PMU access: the open cycle ends, the batched cycles reported; the
 * clock's serialized cycles */
uint64_t nb_step_access(struct nb_tm *t);
/* the clock's last segment of a run not held after all (nb_cycles.c
 * registers it: step mode is below the clock) */
extern void (*nb_step_seg)(const struct nb_tm_block *b, ULong range);
/* a held run taken at its end (nb_step.c tk_take; nb_state.c): the
 * next run's first instruction makes no call while set, and clears it;
 * the clock the take charged (nb_step_tk_t), what the charge changed */
extern UInt nb_step_tk;
extern struct nb_tm *nb_step_tk_t;
extern struct nb_tms_undo nb_step_tk_sv;
extern Bool nb_step_tk_undone;
/* A last-level store miss reads the clock as it stands (the bus,
 * nb_tms_store_bus): before that instruction has passed, the take's
 * charge undone first (the close it stands for has not happened); the
 * rest of the undo (the held run's uops) at the clock's next entry
 * (nb_step_tk_undone).  Here, without a call into the clock: the cache
 * model (nb_exec.c) is below it. */
static inline void nb_step_tk_clock(void)
{
	if (nb_step_tk) {
		nb_tms_untake(nb_step_tk_t, &nb_step_tk_sv);
		nb_step_tk = 0;
		nb_step_tk_undone = True;
	}
}
extern struct nb_tm nb_tm_lp[2], *nb_tmp;
extern ULong nb_tm_ldix;                 /* the load being modelled        */
/* A load helper's size argument carries the load's index too (bits 16
 * up, nb_instr.c): the index is stored only when the call is made (an
 * L1D miss), not by generated code at every load */
#define NB_LDIX_SHIFT 16
static inline ULong nb_ldix_take(ULong arg)
{
	nb_tm_ldix = arg >> NB_LDIX_SHIFT;
	return arg & ((1u << NB_LDIX_SHIFT) - 1);
}
void nb_tm_setup(void);
void nb_tm_switch(unsigned lp, unsigned active);
void nb_tm_step_on(void);
void nb_tm_time_on(void);
VG_REGPARM(2) void nb_tm_sb(const struct nb_tm_block *b, ULong range);
/* step mode: nb_tm_sb(b, range) then nb_step(), an instruction's two
 * calls in one (nb_instr_tm.c nb_itm_tm_step) */
VG_REGPARM(2) void nb_tm_step(const struct nb_tm_block *b, ULong range);
/* nb_branch(packed, 1, target) then nb_tm_sb(b, range): a superblock's
 * last branch, a call, return or indirect jump (not in step mode nor
 * while a PMI is possible) */
void nb_branch_tm(ULong packed, ULong target, const struct nb_tm_block *b, ULong range);
/* nb_tm_sb of a run from the superblock's start (uops [0, site.to)) and,
 * with br set, nb_branch(br, 1, target) before it: the sampled clock's
 * entry kept at the call site, as nb_cond_tm keeps it (nb_ibr_site) */
struct nb_tm_site {
	struct nb_tms_site site;        /* the sampled clock's entry (nb_tmsample.h) */
	const struct nb_tm_block *b;
	ULong br;                       /* nb_branch's packed site, or 0   */
};
VG_REGPARM(2) void nb_tm_site(struct nb_tm_site *s, ULong target);
/* ... in a thin translation: nb_tm_rest after a check inside the run */
VG_REGPARM(2) void nb_tm_site_thin(struct nb_tm_site *s, ULong target);
/* ... in a thin translation: nb_branch then nb_tm_thin(b, range) */
void nb_branch_tm_thin(ULong packed, ULong target, const struct nb_tm_block *b, ULong range);
/* nb_cond then nb_tm_sb(b, site.to << 32): a superblock's last
 * conditional branch, its run from the superblock's start.  64 bytes, in
 * one host cache line (nb_ibr_site) */
struct nb_cond_tm {
	struct nb_cond_site br;
	struct nb_tms_site site;        /* the sampled clock's entry (nb_tmsample.h) */
	const struct nb_tm_block *b;
};
void nb_tm_anchor(void);
VG_REGPARM(2) void nb_cond_tm(struct nb_cond_tm *s, ULong taken);
/* while a PMI is possible: uops [nb_tm_p, to) of the running superblock
 * (nb_tm_p: how far the clock has run it; 0 at its start) */
extern ULong nb_tm_p;
VG_REGPARM(2) void nb_tm_rest(const struct nb_tm_block *b, ULong to);
/* a thin translation's nb_tm_sb and nb_cond_tm (nb_instr_pmi.c): the rest
 * of the run from nb_tm_p when a check inside ran the clock part of it */
VG_REGPARM(2) void nb_tm_thin(const struct nb_tm_block *b, ULong range);
VG_REGPARM(2) void nb_cond_tm_thin(struct nb_cond_tm *s, ULong taken);

/* ---- a small host file (/proc) read whole, without libc ---- */

/* PATH into BUF, NUL-terminated: its length, 0 if it cannot be read (the
 * lockstep's /proc/self/task reads, the kernel's /proc reads) */
static inline Int nb_read_file(const HChar *path, HChar *buf, Int len)
{
	SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
	Int fd, n;

	if (sr_isError(r))
		return 0;
	fd = (Int)sr_Res(r);
	n = VG_(read)(fd, buf, len - 1);
	VG_(close)(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	return n;
}

/* ---- the timing model's analysis of a superblock (nb_tmbuild.c) ---- */

struct nb_tm_block *nb_tmb_begin(IRSB *in);
UInt nb_tmb_insn(IRSB *in, Int from, Int to, const UChar *code, UInt len,
		 const struct nb_insn *dec, UInt uops);
void nb_tmb_end(void);
UInt nb_tmb_lat(UInt from, UInt to);     /* its uops' latencies (cycles) */
void nb_tmb_adopt(struct nb_tm_block *b, const struct nb_tm_block *old);
/* rep movs/stos at code: bit 4 movs, bits 0-3 the element's bytes; else 0 */
UInt nb_tmb_rep_kind(const UChar *code, UInt len, UInt npfx);
/* an iteration of rep movs/stos at pc starts (nb_cycles.c) */
void nb_tm_rep_visit(ULong pc, ULong rcx, ULong dflag);

/* ---- when overflow interrupts and PEBS assists can happen (nb_pmi_arm.c) ---- */

extern Int nb_pmi_sig;                   /* NBSIM_REQ_PMI_SIGNAL; 0 = none */
extern Bool nb_pmi_on;                   /* a PMI can be sent               */
extern Long nb_pmi_budget;
extern UInt nb_pmi_skid_pend;            /* the PMI in flight's counters    */
extern Bool nb_pmi_cyc_only;             /* every armed counter plain cycles */
Bool nb_pmi_far(void);                   /* the cycle pre-check: far, budget set */
void nb_pmi_budget_set(void);            /* from the synced PMU */
void nb_pmi_update(void);
/* what the instrumentation's bound covers (nb_pmi_arm.c): the armed
 * counters' events; only widens */
enum { NB_PMIB_INS, NB_PMIB_CYC, NB_PMIB_ALL };
extern UInt nb_pmi_bclass;
extern Bool nb_pmi_memdyn;               /* load misses debit the budget   */
/* what a mispredicted branch debits from the budget as the predictor
 * finds it (nb_irule_bound): the penalty while nb_pmi_memdyn, else 0 */
extern Long nb_pmi_misp_debit;
/* The PEBS counters: MSR_IQ_COUNTER4 (16) for logical processor 0,
 * MSR_IQ_COUNTER5 (17) for logical processor 1 [SDM 18.16.3: "PEBS can
 * be carried out only with two performance counters: MSR_IQ_CCCR4 (MSR
 * address 370H) for logical processor 0 and MSR_IQ_CCCR5 (MSR address
 * 371H) for logical processor 1"; seed 003 l.1914 names 16 only]. */
#define NB_PEBS_CTR(lp) (16 + (lp))
extern Bool nb_pebs_on;                  /* PEBS on for either LP          */
extern unsigned nb_pebs_sel;             /* MC_* conditions that tag a load */
extern Bool nb_pebs_lp_on[2];            /* ... for LP lp                  */
extern Long nb_pebs_left[2];             /* tagged uops until its counter overflows */
extern Bool nb_pebs_armed[2];            /* overflowed: sample the next one */
extern Bool nb_pebs_fmt64;               /* DS format: 64-bit with DTES64   */
extern uint64_t nb_ds_area[2];
void nb_pebs_update(uint32_t written);
Bool nb_pebs_armed_get(unsigned lp);
void nb_pebs_armed_set(unsigned lp, Bool armed);
/* the thread that stands for each LP (nb_state.c) */
extern ThreadId nb_lp_tid[2];
extern Int nb_lp_lwpid[2];

/* ---- overflow interrupts and PEBS delivered (nb_pmi.c) ---- */

extern ULong nb_pmi_sent, nb_pmi_sent_other, nb_pmi_lost, nb_pmi_syncs;
extern ULong nb_pebs_records, nb_pebs_full;
/* nb_pmi_check's AT: the PC of the instruction boundary, with this bit:
 * the instruction leaves generated code (take a PMI in flight first) */
#define NB_PMI_FORCE (1ULL << 63)
/* ... and bits 48-62: the uops of the superblock's timing block b run on
 * the path so far (the check runs the clock up to there) */
#define NB_PMI_TO_SHIFT 48
#define NB_PMI_TO_MAX 0x7fffu
VG_REGPARM(3) void nb_pmi_check(VexGuestAMD64State *st, ULong at, const struct nb_tm_block *b);
extern ULong nb_pmi_cut;                 /* stop before this PC (cut exit) */
extern UInt clo_pmi_latency;             /* --nbsim-pmi-latency; ~0 model  */
extern Bool clo_pmi_sync;                /* --nbsim-pmi-sync               */
extern Bool clo_pmi_thin;                /* --nbsim-pmi-thin               */
extern Bool clo_pmi_verify;              /* --nbsim-pmi-verify             */
/* the most a PMI in flight's budget is set to (nb_pmi_skid_budget) */
#define NB_PMI_SKID_MAX 128
Long nb_pmi_skid_budget(ULong skid_at);
extern Bool clo_pmi_bound_double;         /* --nbsim-pmi-bound=double       */
extern Bool nb_tm_mid;                    /* nb_pmi_check's segment in a run */
extern ULong nb_pmi_vf_checks, nb_pmi_vf_short, nb_pmi_vf_max;
void nb_pmi_verify(ULong at);
extern Bool clo_pmi_bound_armed;         /* --nbsim-pmi-bound=armed        */
/* the running thread tid's LWP (VG_(gettid), kept); forget: at its exit,
 * VG_INVALID_THREADID: all (a forked child) (nb_state.c) */
Int nb_lwp(ThreadId tid);
void nb_lwp_forget(ThreadId tid);
/* the process's id, its effective user id (asked once; nb_state.c) */
Int nb_pid(void);
UInt nb_euid(void);
void nb_euid_forget(void);
/* a superblock's guard (nb_instr_pmi.c, "thin"): the check at its start when
 * the budget is at most BOUND, the superblock's whole bound; if it took a
 * PMI there, the cut (nb_pmi_cut_mark); the budget it left in nb_pmi_budget */
struct nb_sbguard {
	ULong at, bound;         /* (one argument: a constant less to move) */
};
VG_REGPARM(1) void nb_pmi_sb(ULong id);
/* a thin translation's check's or guard's table by the number its call
 * passes (nb_ipmi_tab_add, nb_instr_pmi.c: its index in nb_ipmi_tabs,
 * nb_pmi.c's) */
extern const void **nb_ipmi_tabs;
ULong nb_ipmi_tab_add(const void *t);
/* A thin translation's check (nb_pmi_sb, nb_ipmi_bcheck) that took a PMI
 * marks it in this word of the thread's shadow guest state (1), which
 * the cut exit after the check reads: a compare of a word at the guest
 * state pointer, where a result would cost the call's not-made value, a
 * register move and a compare at every boundary.  Each thin run's guard
 * clears it first (nb_instr_pmi.c): a mark left when the thread stopped
 * could come back with the shadow state valgrind saves in a signal frame
 * and restores at rt_sigreturn. */
#define NB_CUT_SLOT offsetof(VexGuestAMD64State, guest_RBX)
void nb_pmi_cut_mark(void);
/* stats: thin and checked translations made while a PMI was possible
 * (nb_instr_pmi.c); guards that called nb_pmi_sb, those after which a
 * check inside could still come due; checks made inside */
extern ULong nb_pmi_thin_made, nb_pmi_near_made, nb_pmi_sb_calls, nb_pmi_sb_near, nb_pmi_bchecks;
extern ULong nb_pmi_skid_insns;          /* stats                           */
/* The PMI handler runs as the interrupt service routine, at CPL 0
 * (README "Overflow interrupts"): valgrind's signal delivery hooks, and
 * the thread switch (the running thread's state onto its LP). */
void nb_pmi_pre_deliver(ThreadId tid, Int sigNo, Bool alt_stack);
void nb_pmi_post_deliver(ThreadId tid, Int sigNo);
void nb_pmi_thread_runs(ThreadId tid);
Bool nb_pmi_in_handler(ThreadId tid);    /* inside its PMI handler     */
void nb_pmi_enter(ThreadId tid);       /* first thing when tid runs      */
extern ULong nb_pmi_isr_runs;            /* PMI handlers run (stats)         */
__attribute__((noinline)) void nb_pebs_uop(ULong pc, VexGuestAMD64State *st);
/* nb_pebs_uop, as the memory helpers call it (nb_state.c; set by nb_main.c) */
extern void (*nb_pebs_assist)(ULong pc, VexGuestAMD64State *st);
/* the MC_* kinds of blocked load IA32_PEBS_ENABLE pe tags (pmu.c) */
static inline unsigned nb_mob_tags(uint64_t pe)
{
	unsigned m = nb_pmu_mob_tags(&nb_pmu_state, pe);
	return (m & NB_PMU_MOB_PD ? MC_MOBP : 0) | (m & NB_PMU_MOB_UA ? MC_MOBU : 0);
}

/* ---- helpers of generated code (nb_exec.c) ---- */

/* The L2 and L3 lines of NetBurst mode: 128 bytes, two 64-byte sectors
 * (nb_post_clo_init; --nbsim-cache=cachegrind has 64-byte L2 lines but
 * does not come here) */
#define NB_L2_LINE_SHIFT 7

extern struct nb_l1 nb_l1d;
extern struct nb_cache nb_l2, nb_l3, nb_tc;
extern struct nb_tlb nb_dtlb, nb_itlb;
extern struct nb_stb nb_stb;
extern ULong nb_stb_fwd;
extern Bool nb_has_l3;
extern const struct nb_mem_params *nb_memp;
extern struct nbsim_memstats nb_ms;
extern ULong nb_st_line;
extern struct nb_wcb nb_wcbs;
extern ULong nb_wcb_nt, nb_wcb_fences, nb_wcb_bursts;

struct nb_tc_line { ULong key, pc; UInt uops, ninstr; };
struct nb_tc_desc {                /* a superblock's trace lines              */
	UInt nlines;
	struct nb_tc_line line[];
};

void nb_lean_fold(void);
void nb_memstats_fill(void);
Bool nb_mem_lean(void);
void nb_tc_add(struct nb_tc_desc *d, Addr pc, UInt uops, Bool ms);
VG_REGPARM(3) void nb_branch(ULong packed, ULong taken, ULong target);
VG_REGPARM(2) void nb_cond(const struct nb_cond_site *site, ULong taken);
VG_REGPARM(2) void nb_load(Addr a, ULong size);
VG_REGPARM(2) void nb_store(Addr a, ULong size);
VG_REGPARM(2) void nb_store_st(Addr a, ULong size);
VG_REGPARM(2) void nb_load_lean4(Addr a, ULong size);
VG_REGPARM(2) void nb_load_lean8(Addr a, ULong size);
VG_REGPARM(2) void nb_store_lean4(Addr a, ULong size);
VG_REGPARM(2) void nb_store_lean8(Addr a, ULong size);
VG_REGPARM(2) void nb_load_cold4(Addr a, ULong size);
VG_REGPARM(2) void nb_load_cold8(Addr a, ULong size);
VG_REGPARM(2) void nb_store_cold4(Addr a, ULong size);
VG_REGPARM(2) void nb_store_cold8(Addr a, ULong size);
VG_REGPARM(2) void nb_load_bus(Addr a, ULong size);
VG_REGPARM(2) void nb_store_bus(Addr a, ULong size);
VG_REGPARM(2) void nb_store_bus_st(Addr a, ULong size);
void nb_load_pebs(Addr a, ULong size, ULong pc, VexGuestAMD64State *st);
void nb_load_pebs_bus(Addr a, ULong size, ULong pc, VexGuestAMD64State *st);
VG_REGPARM(2) void nb_store_nt(Addr a, ULong size);
VG_REGPARM(0) void nb_wcb_fence(void);
VG_REGPARM(1) void nb_tc_sb(const struct nb_tc_desc *d);

/* ---- the front-ends (sim/kernel/): what they give the tool ---- */

/*
 * The front-ends (the emulated msr and perf drivers, nb_kern.c; the
 * program and counts files of nb_stat, nb_progfile.c) sit above the tool:
 * they call it (this header), and it calls them only through this table of
 * hooks, which kernel/nb_front.c fills, in the order each hook runs them,
 * and hands to nb_tool_start, the tool's entry point.  So no file of the
 * tool includes a front-end's header (tests/sim/t_sim_layers.t).
 */
struct nb_front {
	void (*init)(void);              /* after the PMU is set up        */
	void (*fini)(Int exitcode);      /* first thing at exit            */
	void (*stats)(void);             /* its line of --nbsim-stats      */
	Word (*request)(ThreadId tid, UWord *arg);       /* NBSIM_REQ_KERN */
	/* whether that request may access the PMU's registers: False for
	 * the bookkeeping the preload asks for after every read(2), open(2)
	 * and munmap(2), which must not anchor the sampled clock (what
	 * happens to install events there anchors it itself) */
	Bool (*request_pmu)(const UWord *arg);
	void (*pre_syscall)(ThreadId tid, UInt sysno, UWord *args, UInt nargs);
	void (*post_syscall)(ThreadId tid, UInt sysno, UWord *args, UInt nargs, SysRes res);
	void (*runs)(ThreadId tid);      /* tid runs from now on (its PMU context loaded) */
	void (*thread_create)(ThreadId parent, ThreadId child);
	void (*thread_exit)(ThreadId tid);
	/* The PMI claim: a PMI for counters PEND (bit c: counter c) of
	 * logical processor LP at guest address IP; the front-end takes the
	 * counters its sampling events own (returns those bits); *HERE set
	 * if it signalled the running thread. */
	uint32_t (*pmi_claim)(uint32_t pend, unsigned lp, Addr ip, int *here);
	/* The program's clocks (docs/simulated-time.md): a client request
	 * that reads or sets them (NBSIM_REQ_TIME, NBSIM_REQ_ITIMER), taken
	 * before the PMU-access protocol, as it accesses no PMU register
	 * (False: not one of them); and what RDTSC returns (called from the
	 * generated code, with --nbsim-time=simulated). */
	Bool (*clock_request)(ThreadId tid, UWord *arg, UWord *ret);
	ULong (*rdtsc)(void);
	/* would runs(tid), for the thread that runs already, change
	 * nothing?  (the lockstep's PAUSE, nb_lockstep.c nb_ls_pause) */
	Bool (*runs_again)(ThreadId tid);
};
extern const struct nb_front *nb_front;
void nb_tool_start(const struct nb_front *f);   /* valgrind's pre_clo_init */

/* What a front-end declares to the tool (set before the register writes
 * and the nb_pmu_written that follows them): */
extern UInt nb_need_front;      /* NEED_* it needs (the perf driver's tick: NEED_INSTR) */
extern UInt nb_need_clock;      /* NEED_* the program's clocks need (the timing
				 * model, with --nbsim-time=simulated)      */
extern Bool nb_pmi_front;       /* its events sample: PMIs go to pmi_claim
				 * without NBSIM_REQ_PMI_SIGNAL             */
extern uint32_t nb_need_pmi_own; /* the counters whose PMIs nb_record's
				 * samples take on either LP (its IEBS
				 * counters: nb_samples.c sets it), whose
				 * PMIs stop no thread (no NEED_CUT)       */
extern Bool nb_cold;            /* the cold phase (nb_need.c): set by the clocks'
				 * front-end with nb_need_clock           */
void nb_cold_check(ULong runs); /* at a thread's start: its end by runs     */
Bool nb_cold_pending(void);     /* ... would it do anything (or might it)   */
/* cold translations after the phase (nb_need.c): a count of the runs */
struct nb_tier {
	ULong runs;
	Addr addr;                      /* the superblock's first instruction */
	const struct nb_tm_block *tmb;  /* its clock uops (nb_tmbuild.c)      */
};
Bool nb_tier_cold(Addr a, const struct nb_tm_block **tmb);
void nb_tier_made(Addr a, const struct nb_tm_block *tmb);
struct nb_tier *nb_tier_new(Addr a);
VG_REGPARM(1) void nb_tier_promote(struct nb_tier *d);
extern ULong nb_tier_promoted;
extern ULong nb_tier_runs;            /* runs of a cold translation */
extern Bool nb_need_preload;    /* it writes the PMU before the guest's first
				 * instruction: nothing is translated yet, so
				 * the needs change without a discard        */

/* RDMSR/WRMSR as the client requests do them: NBSIM_OK or NBSIM_GP with
 * the reason in nb_fault_buf (nb_pmuacc.c). */
UWord nb_rdmsr_req(uint32_t msr, uint64_t *v);
UWord nb_wrmsr_req(uint32_t msr, uint64_t v);
UWord nb_gp_from_pmu(void);           /* NBSIM_GP, the PMU's reason in nb_fault_buf */

/* options of the front-ends (nb_opts.c) */
extern const HChar *clo_program;         /* --nbsim-program=FILE           */
extern const HChar *clo_counts;          /* --nbsim-counts=FILE            */
extern Int clo_perf_paranoid;            /* --perf-paranoid=N (2)          */
extern Bool clo_msr_driver;              /* --msr-driver=yes|no (yes)      */
extern Bool clo_time_host;               /* --nbsim-time=host (default: simulated) */
extern Bool clo_random_host;             /* --nbsim-random=host (default: seeded) */
extern ULong clo_random_seed;            /* --nbsim-seed=N */

/* ---- instructions the model lacks: #UD (nb_ud.c, nb_isa.h) ---- */

extern Bool clo_isa_host;                /* --nbsim-isa=host               */
IRSB *nb_ud_cut(IRSB *in);

/* ---- REP LODS as the CPU runs it (nb_replods.c) ---- */

IRSB *nb_rep_lods(IRSB *in, const VexGuestExtents *vge);

/* ---- instrumentation (nb_instr.c) ---- */

extern ULong nb_bound_mem;               /* set at init from nb_memp       */
IRSB *nb_instrument(VgCallbackClosure *closure, IRSB *in,
		    const VexGuestLayout *layout, const VexGuestExtents *vge,
		    const VexArchInfo *archinfo_host, IRType gWordTy, IRType hWordTy);

#endif
