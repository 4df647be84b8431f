/*
 * nb_pmi.c - overflow interrupts and PEBS delivered: the check from
 * generated code, the skid, the signal to the thread of the overflowing
 * logical processor, the handler at CPL 0, and the PEBS assist's record in
 * the guest's DS save area (or nb_record's sample).  When they can happen
 * and how far the next is: nb_pmi_arm.c.  See README.md "Overflow
 * interrupts" and "PEBS".
 */
#include "nb_tool.h"
#include "nb_samples.h"

/* ---- overflow interrupts (README "Overflow interrupts") ---- */

/* Valgrind core functions (pub_core_libcsignal.h, pub_core_signals.h of
 * valgrind 3.19; libcoregrind exports them, the tool API does not). */
extern Int VG_(tkill)(Int lwpid, Int signo);

ULong nb_pmi_sent;                /* PMIs delivered (stats)          */
ULong nb_pmi_sent_other;          /* of which to a thread not running */
ULong nb_pmi_lost;                /* for an LP no thread has run on  */
ULong nb_pmi_syncs;               /* nb_pmi_check calls (stats)      */


/*
 * The skid (README "Overflow interrupts (PMI)"): a PMI in flight, raised
 * by an overflow on logical processor skid_lp (its running thread
 * skid_tid, kernel thread skid_lwpid) and taken at the first instruction
 * boundary the check reaches once that LP's clock has retired an
 * instruction at or after cycle skid_at (the overflowing uop's
 * retirement cycle + the model's PMI latency, nb_tm_params.pmi_latency).
 * nb_pmi_skid_pend (nb_pmi_arm.c): its counters (OVF_PMI bits of that
 * LP), 0 = none in flight.
 */
static unsigned skid_lp;
static ThreadId skid_tid;
static Int skid_lwpid;
static ULong skid_at;
/* The PC where the next superblock must stop (the cut exit before that
 * instruction; 0 none): cleared when the thread next enters the
 * scheduler's run loop (nb_pmi_thread_runs). */
ULong nb_pmi_cut;
ULong nb_pmi_skid_insns;          /* boundaries passed in skids (stats) */
static ULong skid_count;          /* ... counted at the checks of one skid */


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

/* The PMI latency of the running model, in cycles */
static ULong pmi_latency(void)
{
	return clo_pmi_latency != ~0u ? clo_pmi_latency : nb_tmp->p->pmi_latency;
}

/*
 * The cycle at which a PMI raised by the retirement of the overflowing
 * uop in cycle R reaches the core (README "Overflow interrupts (PMI)",
 * "Skid"): R + L (the model's PMI latency) rounded up to the next edge of
 * the bus clock.  The PMI is a local interrupt of the local APIC (its LVT
 * performance-counter entry [SDM Vol. 3A 10.5.1]), and the local APIC
 * works on the bus clock (its timer's "time base ... is derived from the
 * processor's bus clock" [SDM Vol. 3A 10.5.4, editions of the P4 era]);
 * the overflow travels "out of the processor's microcode through the
 * interrupt controller (APIC) and back into the processor" [Intel VTune
 * User Guide, "Hardware Event Skid"].  So the request waits for the
 * APIC's next clock edge, 0 to ratio - 1 core cycles, however the
 * overflow falls in the bus cycle: the spread of the skid.  The core
 * clock is the bus clock times the part's ratio (nb_bus.c, 14 on
 * Northwood, 17 on Prescott [SDM MSR_EBC_FREQUENCY_ID: "Core Clock
 * Frequency to System Bus Frequency Ratio"]), locked to it; the model
 * puts a bus edge at every multiple of the ratio of the logical
 * processor's cycle count (with HT each LP's clock is the package's time
 * while its thread runs: README "Timing model"), so the phase is
 * the simulated time's and runs are reproducible.  Where in the latency
 * the wait falls is not published: the model puts it at the end (any
 * split shifts the phase by a constant, which the cycle count's origin
 * leaves arbitrary anyway).  --nbsim-pmi-sync=no: no wait (one distance
 * in a steady loop, the behaviour before).
 */

static ULong pmi_due(ULong r)
{
	ULong t = r + pmi_latency();
	ULong R = nb_bus_state.p.ratio;

	if (!clo_pmi_sync || R < 2)
		return t;
	return (t + R - 1) / R * R;
}

/*
 * Take the PMI in flight at the instruction boundary PC (the interrupted
 * PC the handler sees): overflows of that LP's counters during the skid
 * coalesce into it (the LVT holds one PMI; the SDM's P4 PMI masks the LVT
 * entry when it is raised [SDM Vol. 3B 18.16.5]).  The running thread
 * stops at PC: the cut exit there (nb_instr_pmi.c) leaves the superblock, and
 * the event check of the next one, with the counter at 0, returns to the
 * scheduler, which delivers the signal with the guest state at PC.
 */
/* ST, the running thread's guest state, or NULL: a thin translation's
 * check, whose call passes no pointer (a boundary's two host
 * instructions less): the same words through the tool interface */
static Addr guest_ip(VexGuestAMD64State *st, ThreadId running)
{
	return st ? (Addr)st->guest_RIP : VG_(get_IP)(running);
}

/* the thread leaves generated code at its next superblock (its event
 * check returns to the scheduler) */
static void evc_zero(VexGuestAMD64State *st)
{
	static const UInt zero;

	if (st)
		st->host_EvC_COUNTER = 0;
	else
		VG_(set_shadow_regs_area)(VG_(get_running_tid)(), 0,
					  offsetof(VexGuestAMD64State, host_EvC_COUNTER),
					  sizeof zero, (const UChar *)&zero);
}

static void skid_take(VexGuestAMD64State *st, ULong pc)
{
	UInt pend;
	int here = 0;

	nb_derive();
	nb_peek_cycles();
	nb_pmu_sync(&nb_pmu_state, nb_sig);
	pend = nb_pmi_skid_pend | nb_pmu_take_pmi_lp(&nb_pmu_state, skid_lp);
	nb_pmi_skid_pend = 0;
	nb_pmi_budget_set();
	nb_pmi_skid_insns += skid_count;
	if (!nb_pmi_on)
		return;
	pend &= ~nb_samples_pmi(pend, skid_lp, (Addr)pc, skid_tid);
	pend &= ~nb_front->pmi_claim(pend, skid_lp, (Addr)pc, &here);
	if (pend && nb_pmi_sig)
		here |= nb_pmi_send(skid_lp, VG_(get_running_tid)());
	if (here) {
		/* (the translations have the cut exits: NEED_CUT follows a
		 * signal or a front-end's sampling, nb_need.c) */
		tl_assert(nb_need & NEED_CUT);
		evc_zero(st);
		nb_pmi_cut = pc;
	}
}

/* The thread of a PMI in flight is switched out before its skid ends:
 * the PMI is taken where it stopped (the signal waits for it). */
static void skid_flush(void)
{
	UInt pend;

	nb_pmu_access();
	nb_pmu_sync(&nb_pmu_state, nb_sig);
	pend = nb_pmi_skid_pend | nb_pmu_take_pmi_lp(&nb_pmu_state, skid_lp);
	nb_pmi_skid_pend = 0;
	nb_pmi_budget_set();
	nb_pmi_skid_insns += skid_count;
	if (!nb_pmi_on || !pend)
		return;
	/* nb_record's and the perf driver's overflows are serviced as in
	 * skid_take, at the IP where the thread stopped (its context is still
	 * loaded: the counters are re-armed in it); left out, the counter
	 * stayed overflowed and that thread took no more samples */
	pend &= ~nb_samples_pmi(pend, skid_lp, VG_(get_IP)(skid_tid), skid_tid);
	{
		int here = 0;   /* (the thread is not running: no cut) */
		pend &= ~nb_front->pmi_claim(pend, skid_lp, VG_(get_IP)(skid_tid), &here);
	}
	if (!pend || !nb_pmi_sig)
		return;
	nb_pmi_sent++;
	VG_(tkill)(skid_lwpid, nb_pmi_sig);
}

/*
 * Called by generated code when the budget is spent (and at every check
 * while a PMI is in flight: the budget is then 0).  AT: the PC of the
 * instruction about to start (the check at its IMark: a boundary where a
 * PMI can be taken), 0 after a segment (an exit or the superblock's end:
 * the next boundary is not known here); bit 63 (NB_PMI_FORCE): that
 * instruction leaves generated code (a client request, a system call),
 * so the PMI in flight is taken before it; bits 48-62: how far the path
 * has gone in the superblock's timing block B (NULL: none; the clock is
 * run up to there first, so that it stands at the instruction just
 * before).
 *
 * No PMI in flight: sync the PMU; if a counter with OVF_PMI_T0 has
 * overflowed, the PMI of logical processor 0 (OVF_PMI_T1: LP1; both bits
 * both) is raised.  For the running thread's LP it goes in flight, to be
 * taken at the first bus-clock edge pmi_latency cycles or more after the
 * retirement of the instruction that overflowed the counter (pmi_due;
 * that instruction is the last one the clock ran: the checks run at
 * every instruction boundary while a PMI is possible); for the other
 * LP's thread (HT) it is sent at once (that thread has run nothing
 * since).
 */
VG_REGPARM(3) void nb_pmi_check(VexGuestAMD64State *st, ULong at, const struct nb_tm_block *b)
{
	UInt pend0, pend1, mine;
	ThreadId running;
	unsigned lp;
	int here = 0;
	ULong pc = at & ((1ULL << NB_PMI_TO_SHIFT) - 1);

	nb_pmi_syncs++;
	if (b) {        /* the clock up to this boundary */
		/* (the model clock charges a run's mispredictions after its
		 * last uop, nb_tm_run: a segment that ends at a boundary inside
		 * the run leaves them there, so that where checks fall moves no
		 * cycle; pc 0: the segment ends the run) */
		nb_tm_mid = pc != 0;
		nb_tm_rest(b, (at >> NB_PMI_TO_SHIFT) & NB_PMI_TO_MAX);
		nb_tm_mid = False;
	}
	nb_tms_sync(nb_tmp);
	if (nb_pmi_skid_pend) {
		/* (the budget: the cycles left to skid_at, nb_pmi_skid_budget) */
		if (!pc) {
			nb_pmi_budget = nb_pmi_skid_budget(skid_at);
			return;
		}
		if (!(at & NB_PMI_FORCE) && nb_tm_at(nb_tmp) < skid_at) {
			skid_count++;
			nb_pmi_budget = nb_pmi_skid_budget(skid_at);
			return;
		}
		skid_take(st, pc);
		return;
	}
	/* (with HT the signals' cycles and the lean fold are brought up to
	 * here at every check, as the full check does: the pre-check without
	 * them moved samples, tp_omp's 6,253 to 6,261; what reads them
	 * between checks under HT was not found) */
	if (clo_ht)
		nb_peek_cycles();
	if (clo_pmi_verify)
		nb_pmi_verify(at);
	if (nb_pmi_cyc_only && !nb_stepping && !nb_pmu_state.cpl0 &&
	    !(nb_pmu_state.pmi_pending | nb_pmu_state.pmi_pending_t1) && nb_pmi_far())
		return;
	nb_derive();
	nb_peek_cycles();
	nb_pmu_sync(&nb_pmu_state, nb_sig);
	pend0 = nb_pmu_take_pmi_lp(&nb_pmu_state, 0);
	pend1 = nb_pmu_take_pmi_lp(&nb_pmu_state, 1);
	nb_pmi_budget_set();
	if (!(pend0 | pend1) || !nb_pmi_on)
		return;
	running = VG_(get_running_tid)();
	lp = clo_ht ? nb_lp_of(running) : 0;
	mine = lp ? pend1 : pend0;
	if (lp)
		pend1 = 0;
	else
		pend0 = 0;
	/* the other LP's thread: at once, as it stopped */
	if (nb_lp_tid[0])
		pend0 &= ~nb_samples_pmi(pend0, 0, VG_(get_IP)(nb_lp_tid[0]), nb_lp_tid[0]);
	if (nb_lp_tid[1])
		pend1 &= ~nb_samples_pmi(pend1, 1, VG_(get_IP)(nb_lp_tid[1]), nb_lp_tid[1]);
	pend0 &= ~nb_front->pmi_claim(pend0, 0, guest_ip(st, running), &here);
	pend1 &= ~nb_front->pmi_claim(pend1, 1, guest_ip(st, running), &here);
	if (!nb_pmi_sig)
		pend0 = pend1 = 0;
	if (pend0)
		here |= nb_pmi_send(0, running);
	if (pend1)
		here |= nb_pmi_send(1, running);
	if (here)
		evc_zero(st);
	if (!mine)
		return;
	/* the running thread's: in flight */
	nb_pmi_skid_pend = mine;
	if (clo_clock == NB_CLOCK_SAMPLED)
		nb_tms_exact(nb_tmp, 1);        /* (the skid: the walk's cycles) */
	skid_lp = lp;
	skid_tid = running;
	skid_lwpid = VG_(gettid)();
	skid_at = pmi_due(nb_tm_at(nb_tmp));
	skid_count = 0;
	nb_pmi_budget = nb_pmi_skid_budget(skid_at);
	if (pc && (at & NB_PMI_FORCE || skid_at <= nb_tm_at(nb_tmp)))
		skid_take(st, pc);
}

/*
 * The guard of a superblock translated without checks at its instructions
 * (nb_instr_pmi.c, "thin"), called when the budget is at most BOUND, the
 * sum of what its checks would have subtracted: the check at its first
 * boundary (AT as nb_pmi_check's).  If it took a PMI there, it marks the
 * cut (nb_pmi_cut_mark: the superblock leaves); else the guard then
 * reads the budget it left (nb_pmi_budget).  If the budget is still at most BOUND,
 * a check inside it could come due: the superblock then leaves by its
 * split exit at that boundary, whose own superblock's guard makes it.
 * With the budget above BOUND no check of the superblock can come due:
 * the checks it has not are those that would have found nothing.
 */
ULong nb_pmi_sb_calls, nb_pmi_sb_near;
/* the thin translations' tables by number (nb_instr_pmi.c nb_ipmi_tab_add
 * fills it; its helpers and this read it) */
const void **nb_ipmi_tabs;

VG_REGPARM(1) void nb_pmi_sb(ULong id)
{
	const struct nb_sbguard *g = nb_ipmi_tabs[id];
	ULong at = g->at, bound = g->bound;
	ULong pc = at & ((1ULL << NB_PMI_TO_SHIFT) - 1);

	nb_pmi_sb_calls++;
	nb_pmi_check(NULL, at, NULL);
	if (nb_pmi_cut == pc) {
		nb_pmi_cut_mark();
		return;
	}
	nb_pmi_sb_near += nb_pmi_budget <= (Long)bound;
}

/* ---- the PMI handler: the interrupt service routine ---- */

/*
 * On the hardware the PMI's service routine runs in the kernel, at CPL 0,
 * where user-mode (T0_USR/T1_USR) counting does not see it, and the LVT
 * keeps further PMIs pending until it returns [SDM Vol. 3B 18.16.5, the
 * PMI; Vol. 3A 10.5.1, LVT mask].  Under nbsim the guest's handler of the
 * PMI signal plays that routine: from the signal's delivery to its
 * sigreturn the thread runs "at CPL 0", its events counted nowhere (OS-mode
 * counting is not modelled), and the signal stays blocked during the
 * handler, so overflows meanwhile coalesce into one pending PMI.  Without
 * this the handler's own instructions counted toward the next overflow: a
 * threshold below the handler's length re-overflowed inside it for ever.
 * A handler left with longjmp never returns: its thread stays at CPL 0.
 */
#define NB_ISR_MAXTID 1024
static Int nb_isr_sig[NB_ISR_MAXTID];  /* tid: the PMI signal it is handling; 0 none */
static Int nb_isr_pend[NB_ISR_MAXTID]; /* ... its frame pushed, the handler not yet run */
ULong nb_pmi_isr_runs;

/* The running thread's CPL onto its logical processor (synced first). */
static void cpl_apply(ThreadId tid)
{
	unsigned lp = nb_lp_of(tid);
	int on = tid < NB_ISR_MAXTID && nb_isr_sig[tid] != 0;

	if (((nb_pmu_state.cpl0 >> lp) & 1) == (unsigned)on)
		return;
	nb_pmu_access();
	nb_pmu_set_cpl0(&nb_pmu_state, lp, on, nb_sig);
	nb_tags_changed();
}

/* nb_pmi_enter and nb_pmi_thread_runs for the thread that runs already:
 * nothing to do? */
Bool nb_pmi_start_again(ThreadId tid)
{
	int on = tid < NB_ISR_MAXTID && nb_isr_sig[tid] != 0;

	return !nb_pmi_cut && !nb_pmi_skid_pend && !(tid < NB_ISR_MAXTID && nb_isr_pend[tid]) &&
		((nb_pmu_state.cpl0 >> nb_lp_of(tid)) & 1) == (unsigned)on;
}

Bool nb_pmi_in_handler(ThreadId tid)
{
	return tid < NB_ISR_MAXTID && nb_isr_sig[tid] != 0;
}

/* A thread enters the scheduler's run loop (nb_start_client, before
 * its PMU context is loaded): the cut of the last PMI is behind it; a PMI
 * in flight for another thread is taken where that thread stopped. */
void nb_pmi_cut_mark(void)
{
	static const ULong one = 1;

	VG_(set_shadow_regs_area)(VG_(get_running_tid)(), 1, NB_CUT_SLOT, sizeof one,
				  (const UChar *)&one);
}

void nb_pmi_enter(ThreadId tid)
{
	nb_pmi_cut = 0;
	if (nb_pmi_skid_pend && tid != skid_tid)
		skid_flush();
}

/* ... and its CPL onto its LP (after its context is loaded) */
void nb_pmi_thread_runs(ThreadId tid)
{
	if (tid < NB_ISR_MAXTID && nb_isr_pend[tid]) {
		nb_isr_sig[tid] = nb_isr_pend[tid];
		nb_isr_pend[tid] = 0;
		nb_pmi_isr_runs++;
	}
	cpl_apply(tid);
}

/*
 * Valgrind pushes a pending signal's frame when the thread next gets its
 * lock (VG_(poll_signals) after the time slice's release and acquire),
 * before the thread-start hook, so also when the lockstep then holds it:
 * at a point the host's scheduling chooses, maybe inside another
 * thread's run.  The handler starts only when the thread runs; its CPL,
 * and the PMU access that sets it (which closes the running LP's clock),
 * wait for that (nb_pmi_thread_runs).
 */
void nb_pmi_pre_deliver(ThreadId tid, Int sigNo, Bool alt_stack)
{
	(void)alt_stack;
	if (!nb_pmi_sig || sigNo != nb_pmi_sig || tid >= NB_ISR_MAXTID || nb_isr_sig[tid] ||
	    nb_isr_pend[tid])
		return;
	nb_isr_pend[tid] = sigNo;
}

void nb_pmi_post_deliver(ThreadId tid, Int sigNo)
{
	if (tid >= NB_ISR_MAXTID || !nb_isr_sig[tid] || sigNo != nb_isr_sig[tid])
		return;
	nb_isr_sig[tid] = 0;
	cpl_apply(tid);
}

/* ---- PEBS assists (README "PEBS"; their conditions: nb_pmi_arm.c) ---- */

ULong nb_pebs_records, nb_pebs_full;

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
__attribute__((noinline)) void nb_pebs_uop(ULong pc, VexGuestAMD64State *st)
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
	if (!nb_ds_area[lp] && clo_samples) {  /* nb_record: nbsim takes the record */
		nb_samples_pebs(lp, r, &reset);
		res = NB_PEBS_STORED;
	} else
		res = nb_ds_pebs_store(nb_guest_map, NULL, nb_ds_area[lp], nb_pebs_fmt64, r, &reset);
	nb_pebs_armed[lp] = False;
	if (res == NB_PEBS_STORED || res == NB_PEBS_PMI)
		nb_pebs_records++;
	else
		nb_pebs_full++;
	/* reload the counter (synced first: the earlier uops are in) */
	nb_pmu_access();
	(void)nb_pmu_wrmsr(&nb_pmu_state, nb_counters[NB_PEBS_CTR(lp)].msr, reset, nb_sig);
	nb_pebs_left[lp] = (Long)(NB_COUNTER_MASK + 1 - reset);
	if (--nb_pebs_left[lp] <= 0)  /* this uop retires after the assist */
		nb_pebs_armed[lp] = True;
	if (res == NB_PEBS_PMI && nb_pmi_sig) {
		nb_pmi_sent++;
		VG_(tkill)(VG_(gettid)(), nb_pmi_sig);
		st->host_EvC_COUNTER = 0;
	}
}

