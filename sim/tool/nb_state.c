/*
 * nb_state.c - the simulated machine's state that the tool's modules share
 * (declared in nb_tool.h): the event signals and raw counts the generated
 * code adds to, the PMU's registers, the predictor, the part, the bus, the
 * clock of each logical processor, what the PMU needs modelled.  It is
 * defined here, below every module that reads or writes it, so that no
 * module reaches up to the tool's entry point (nb_main.c) for its data.
 */
#include "nb_tool.h"
#include "nb_samples.h"

uint64_t nb_sig[NB_NSIG];
ULong nb_raw[RAW_N], nb_raw_last[RAW_N];
ULong nb_mc_n, nb_mc_n_last;
ULong nb_stall;
ULong nb_tc_built, nb_tc_built_last;
struct nb_pmu nb_pmu_state;
struct nb_bpred nb_bp;
const struct nb_cpu_model *nb_cpu;
HChar nb_fault_buf[200];
struct nb_ht nb_ht_state;
UInt nb_need;
ULong nb_discards;
ULong nb_warned;
/* The host thread (LWP) of each valgrind thread, 0 not known yet: the
 * scheduler's every entry asks (nb_start_client, nb_progfile.c), and
 * gettid is a system call (while a PMI is possible the checked copies of
 * superblocks enter it at each of their runs: nb_instr.c).  Forgotten at
 * the thread's exit and in a forked child. */
#define NB_LWP_MAX 1024
static Int lwp_of[NB_LWP_MAX];

Int nb_lwp(ThreadId tid)
{
	if (tid >= NB_LWP_MAX)
		return VG_(gettid)();
	if (!lwp_of[tid])
		lwp_of[tid] = VG_(gettid)();
	return lwp_of[tid];
}

/* The process's id and effective user id, asked once: the emulated
 * kernel names its files by them at its requests (each read(2) of the
 * guest makes one: nbk_attach_take), and each is a system call.  The pid
 * is forgotten in a forked child (nb_lwp_forget, all threads), the euid
 * after a system call that may set it (nb_main.c nb_post_syscall). */
static Int pid_of;
static Int euid_of = -1;

Int nb_pid(void)
{
	if (!pid_of)
		pid_of = VG_(getpid)();
	return pid_of;
}

UInt nb_euid(void)
{
	if (euid_of < 0)
		euid_of = (Int)VG_(geteuid)();
	return (UInt)euid_of;
}

void nb_euid_forget(void)
{
	euid_of = -1;
}

void nb_lwp_forget(ThreadId tid)
{
	if (tid != VG_INVALID_THREADID && tid < NB_LWP_MAX) {
		lwp_of[tid] = 0;
	} else {
		VG_(memset)(lwp_of, 0, sizeof lwp_of);
		pid_of = 0;
	}
}

ULong nb_bound_mem;               /* BOUND_INSN's memory stall (nb_main.c sets it) */
struct nb_bus nb_bus_state;
struct nb_bus nb_bus_last;

/* the clock (nb_cycles.c owns its updates) */
ULong nb_cyc;                     /* cycles so far (RUNNING), nb_cycles.c */
ULong nb_u_seen, nb_m_seen;       /* uops, mispredicts in nb_cyc    */
Bool nb_stepping;                 /* NEED_STEP: nb_step reports cycles */
UInt nb_fill;                     /* uops in the open retirement cycle */

struct nb_tm nb_tm_lp[2];         /* the clock of each logical processor */
struct nb_tm *nb_tmp = &nb_tm_lp[0]; /* ... of the running one          */
ULong nb_tm_ldix;                 /* index of the load being modelled   */
struct nb_pmu_run nb_step_run;    /* step mode: cycles held back        */
struct nb_pmu_hist nb_step_hist;  /* ... counted by output (held_bulk)  */
UInt nb_step_tk;                   /* step mode's take (nb_step.c tk_take) */
struct nb_tm *nb_step_tk_t;
struct nb_tms_undo nb_step_tk_sv;
Bool nb_step_tk_undone;
/* the PMI checks' budget and whether load misses debit it (nb_pmi_arm.c) */
Long nb_pmi_budget = 0x7fffffffffffffffLL;
/* nb_pmi_check runs the clock up to a boundary inside a run (nb_cycles.c
 * tm_sb: the run's mispredictions wait for its end) */
Bool nb_tm_mid;
Bool nb_pmi_memdyn;
Long nb_pmi_misp_debit;

/* the front-ends' hooks (kernel/nb_front.c, through nb_tool_start) */
const struct nb_front *nb_front;

/* the effective address of the load being sampled: nb_exec.c writes it,
 * nb_samples.c writes it beside the sample */
Addr nb_samples_ea;

/*
 * The guest thread that stands for each logical processor: with HT, the
 * one that ran on it last (valgrind ThreadId and its kernel thread id,
 * recorded when it starts running: nb_start_client); 0 = none yet.
 */
ThreadId nb_lp_tid[2];
Int nb_lp_lwpid[2];

/* PEBS's conditions (nb_pmi_arm.c sets them; the memory helpers of
 * nb_exec.c read them at each load) and its assist (nb_pmi.c, registered
 * by nb_main.c: the helpers are below the PMU-access protocol it uses) */
Bool nb_pebs_on;                  /* PEBS on for either LP          */
unsigned nb_pebs_sel;             /* MC_* conditions that tag a load */
void (*nb_pebs_assist)(ULong pc, VexGuestAMD64State *st);
