/*
 * nb_lockstep.c - which guest thread may run, decided in simulated time
 * (docs/threads.md "Lockstep"): valgrind runs one thread at a time and
 * hands its lock round as the host schedules the threads; here the
 * threads' interleaving is made a function of the program alone.
 *
 * Each logical processor has a time (under HT its clock's cycles while
 * the timing model runs, else the guest instructions it ran; plus what
 * it spent halted) and one thread that owns it (round robin among its runnable
 * threads, a quantum of NB_LS_QUANTUM each).  While both LPs have a
 * runnable thread, one of them has the turn; it keeps it until its time
 * passes the other's by NB_LS_BOUND, so that the two clocks stay within
 * NB_LS_BOUND (plus one superblock run) of each other.  A thread that
 * gets valgrind's lock without being allowed to run leaves before its
 * first superblock, nothing counted (leave_now: valgrind's scheduler then
 * ends the time slice and, with --fair-sched=yes, hands the lock to the
 * next waiter); one that reaches its limit leaves at a superblock's start
 * by a guarded exit back to the scheduler (nb_lsguard.c nb_ls_guard_emit).
 *
 * A thread blocks, in the model, in a futex wait whose word holds the
 * expected value, and wakes at the futex wake that releases it (FIFO per
 * word, as the kernel's futex queue), at the waker's time: the wait is a
 * property of the program.  The exit of a thread created with
 * CLONE_CHILD_CLEARTID wakes its clear-tid word (pthread_join).  Other
 * system calls that can wait for another thread or for the outside
 * (blocking()) block until they return, as the host has them;
 * sched_yield passes the LP to its next runnable thread; every other
 * system call takes no simulated time.  A thread the model takes for
 * runnable but that stays in the kernel (a wait the model does not know)
 * is taken as blocked after NB_LS_VALVE_MS of the host's time.
 */
#include "nb_tool.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_libcfile.h"

/* valgrind's core (m_transtab.c): True while a discard is safe */
extern Bool VG_(ok_to_discard_translations);

#define CLONE_CHILD_CLEARTID 0x00200000
#define FX_WAIT 0
#define FX_WAKE 1
#define FX_REQUEUE 3
#define FX_CMP_REQUEUE 4
#define FX_WAKE_OP 5
#define FX_WAIT_BITSET 9
#define FX_WAKE_BITSET 10

#define NB_LS_BOUND    clo_lockstep_bound /* cycles (or instructions) of lead */
#define NB_LS_QUANTUM  200000   /* a thread's share of its LP            */
#define NB_LS_VALVE_MS 100
#define NB_LS_SETTLE_MS 50
#define NB_LS_STUCK_MS 10000     /* a settling wait's bound, progress or not */

Bool nb_ls_on;                           /* a second thread was created    */
ULong nb_ls_lim = ~0ULL;                 /* the running LP holds at this   */
static ULong nb_ls_ic;                   /* instructions of the running LP */
ULong nb_ls_holds, nb_ls_turns, nb_ls_valves, nb_ls_pauses, nb_ls_crossings;
ULong nb_ls_guarded_sbs, nb_ls_unguarded_sbs;
/* settling waits that ran out of host time: a futex wait not seen queued,
 * a thread's exit not seen done (the next thread then ran first, as the
 * host's timing had it: the one way left for the host to reach the counts) */
static ULong settle_outs, exit_outs;
static ULong lead_max;                   /* the largest lead at a turn    */

enum { LS_RUN, LS_FUTEX, LS_SYS };       /* runnable; blocked (model; host) */

static struct {
	UChar alive, state, in_kernel;
	UInt sysno;                      /* the system call it is in      */
	ULong sysseq;                    /* its system calls so far       */
	UChar unsettled;                 /* its futex wait not yet seen   */
					 /* blocked in the host's kernel  */
	Int lwp;
	Addr word;                       /* the futex word it waits on     */
	ULong seq;                       /* the order it began to wait     */
	Addr ctid;                       /* CLONE_CHILD_CLEARTID word      */
} th[NB_HT_MAXT];
static ULong seq;
static Addr pending_ctid;
static ULong ic[2], off_t[2], off_i[2], qend[2];
static ThreadId owner[2];
static unsigned turn, cur_lp;
static UInt valve_from, spins;
static Bool nb_ls_unsettled;
static Addr exit_word;            /* an exited thread's clear-tid word */
static Int exit_lwp;              /* ... and its host thread (it waits */
				  /* not for itself)                  */
static Bool valve_on;
static ThreadId valve_tid;
static ULong valve_seq;

/* valgrind's core (pub_core_syscall.h) */
extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3, UWord a4, UWord a5,
			      UWord a6, UWord a7, UWord a8);

static void pause_host(ULong us)
{
	struct vki_timespec ts = { 0, (long)(us * 1000) };

	(void)VG_(do_syscall)(__NR_nanosleep, (UWord)&ts, 0, 0, 0, 0, 0, 0, 0);
}

/*
 * A thread held (nb_ls_enter) waits out of valgrind's lock, on a futex
 * of ours, until the lockstep's state changes (park_wake) or
 * NB_LS_PARK_MS pass.  Left in the lock's queue instead (leave_now
 * alone), it was handed the lock at every end of the running thread's
 * time slice (valgrind's scheduler yields every 100,000 superblocks,
 * scheduler.c SCHEDULING_QUANTUM) and at each of its system calls, only
 * to be held again: two host context switches each time, with nothing
 * run.  The decisions are nb_ls_start's either way; parking changes only
 * when the held thread asks again.  The timeout bounds any wake this
 * file misses (the process's exit: valgrind's exit waits for every
 * thread to see it).
 */
#define NB_LS_PARK_MS 5
#define FX_PRIVATE 128
/* valgrind's core (pub_core_scheduler.h; ThreadStatus in
 * pub_core_threadstate.h, VgTs_Yielding its fifth value): the lock's
 * release and acquisition with the thread's status and the running
 * thread kept as the scheduler keeps them */
extern void VG_(acquire_BigLock)(ThreadId tid, const HChar *who);
extern void VG_(release_BigLock)(ThreadId tid, Int sleepstate, const HChar *who);
#define VGTS_YIELDING 4
static volatile Int park_word;
static UInt parked;                      /* threads parked now            */
static Bool parking;                     /* nb_ls_enter's nb_ls_start     */
static ThreadId next_up;                 /* the thread a hold waits for   */

static void park_wake(void)
{
	if (!parked)
		return;
	park_word++;
	(void)VG_(do_syscall)(__NR_futex, (UWord)&park_word, FX_WAKE | FX_PRIVATE, 0x7fffffff,
			      0, 0, 0, 0, 0);
}

/* Thread tid parks, the parked threads woken (if any) once valgrind's
 * lock is released: woken before, the thread whose turn it is found the
 * lock still held and slept again on it, a second host context switch
 * and two more system calls for each lockstep turn (perf stat of nb_stat
 * --ht=yes on tp_omp: 1.5 context switches a turn). */
static void park(ThreadId tid)
{
	struct vki_timespec ts = { 0, NB_LS_PARK_MS * 1000000L };
	Bool wake = parked != 0;
	Int v;

	/* (the word changes under valgrind's lock only; its value after
	 * this thread's own wake is the one it waits on) */
	if (wake)
		park_word++;
	v = park_word;
	parked++;
	nb_lsh_parking(tid);
	if (wake)
		nb_lsh_handoff(tid, next_up);
	VG_(release_BigLock)(tid, VGTS_YIELDING, "nbsim lockstep: parked");
	if (wake)
		(void)VG_(do_syscall)(__NR_futex, (UWord)&park_word, FX_WAKE | FX_PRIVATE,
				      0x7fffffff, 0, 0, 0, 0, 0);
	(void)VG_(do_syscall)(__NR_futex, (UWord)&park_word, FX_WAIT | FX_PRIVATE, (UWord)v,
			      (UWord)&ts, 0, 0, 0, 0);
	VG_(acquire_BigLock)(tid, "nbsim lockstep: parked");
	nb_lsh_running(tid);
	parked--;
}

/*
 * A thread that may not run leaves before its first superblock: its
 * event-check counter, which valgrind's scheduler has just set from the
 * time slice's (run_thread_for_a_while, before the start_client_code
 * hook), is zeroed, so the check at the translation's entry fails, the
 * slice ends with nothing run and valgrind's lock goes to the next
 * waiter.  (The guard's exit that got it here leaves with Ijk_Yield:
 * back to the scheduler, which calls the hook again.)  Valgrind counts
 * the slice's remaining superblocks as run (its blocks_done); how many
 * times a thread is held follows the host's timing, so what it counted
 * that way is kept apart (nb_ls_unrun) for what is decided on the
 * count (nb_main.c nb_start_client: the cold phase's end).
 */
ULong nb_ls_unrun;
static ULong unrun_pend[NB_HT_MAXT];     /* counted at the slice's end  */

static void leave_now(ThreadId tid)
{
	UInt zero = 0, left;

	VG_(get_shadow_regs_area)(tid, (UChar *)&left, 0, offsetof(VexGuestAMD64State, host_EvC_COUNTER),
				  sizeof left);
	if ((Int)left > 0 && tid < NB_HT_MAXT)
		unrun_pend[tid] += left;
	VG_(set_shadow_regs_area)(tid, 0, offsetof(VexGuestAMD64State, host_EvC_COUNTER),
				  sizeof zero, (const UChar *)&zero);
}

/* Thread tid's slice ended: valgrind has just added its superblocks to
 * blocks_done, the unrun ones too (not before: a thread parked in its
 * start hook ends its slice after others ran) */
void nb_ls_slice_end(ThreadId tid)
{
	if (tid < NB_HT_MAXT) {
		nb_ls_unrun += unrun_pend[tid];
		unrun_pend[tid] = 0;
	}
}

/*
 * Without the clock, the running thread counts down the instructions it
 * may still run in a word of its shadow guest state (NB_LS_SLOT; the
 * guard, nb_instr.c, leaves when it is <= 0).  The lockstep reads it
 * back into nb_ls_ic whenever it decides (ic_sync), and sets it for the
 * thread that runs next (ic_arm).  Valgrind saves the shadow state in a
 * signal frame and restores it at rt_sigreturn: the word is then stale
 * until the thread is armed again.
 */
#define LEFT_MAX (1LL << 62)
static ThreadId slot_tid;                /* the thread counting down       */
static Long slot_set;                    /* its word when read or set      */
static Bool slot_stale;                  /* rt_sigreturn restores the word */

static Long slot_get(ThreadId t)
{
	Long v;

	VG_(get_shadow_regs_area)(t, (UChar *)&v, 1, NB_LS_SLOT, sizeof v);
	return v;
}

static void ic_sync(void)
{
	Long v;

	if (!slot_tid || slot_stale)
		return;
	v = slot_get(slot_tid);
	nb_ls_ic += (ULong)(slot_set - v);
	slot_set = v;
}

/* tid runs next, until its LP's instructions reach nb_ls_lim */
static void ic_arm(ThreadId tid)
{
	Long left = nb_ls_lim <= nb_ls_ic ? 0 :
		nb_ls_lim - nb_ls_ic > (ULong)LEFT_MAX ? LEFT_MAX : (Long)(nb_ls_lim - nb_ls_ic);

	if (!nb_ls_on)
		return;
	if (tid >= NB_HT_MAXT || !th[tid].alive) {
		/* (an exiting thread, one the lockstep does not follow: not
		 * held by its guard, not read back) */
		left = LEFT_MAX;
		slot_tid = 0;
	} else {
		slot_tid = tid;
		slot_set = left;
	}
	VG_(set_shadow_regs_area)(tid, 1, NB_LS_SLOT, sizeof left, (const UChar *)&left);
}

/* Thread tid runs client code from here: the clock the guard reads
 * (nb_lsguard.c nb_ls_guard_emit) in its shadow state.  nb_tmp changes only
 * outside generated code (nb_main.c, at a start), and every run of
 * generated code begins with a start: valgrind's restore of the shadow
 * state at rt_sigreturn and its copy into a new thread are set again
 * before they run. */
void nb_ls_tmp_set(ThreadId tid)
{
	ULong p = (ULong)(HWord)nb_tmp;

	if (nb_ls_on)
		VG_(set_shadow_regs_area)(tid, 1, NB_LS_TMP_SLOT, sizeof p, (const UChar *)&p);
}

/* The time the lockstep keeps: under HT the LPs' clocks while the
 * timing model runs (something counts cycles), else instructions; so
 * without HT the threads' order is the same whichever events are counted
 * (nb_stat's runs of one program agree).  (Running the clock under HT
 * for the lockstep alone cost 6x on a program that counts nothing.) */
static Bool timed(void)
{
	return clo_ht && (nb_need & NEED_TIME);
}

static ULong raw(unsigned lp)
{
	/* (the clock as the guard reads it: the retirement cycle plus the
	 * sampled clock's streak of skipped runs not yet folded into it
	 * (nb_tms_skip; 0 under the model), so that an LP's time moves in a
	 * skip phase and the bound holds.  Not synced, which would end the
	 * streak at a point the host chooses, how often a held thread asks,
	 * and move its charges) */
	if (timed())
		return nb_tm_lp[lp].ret + (nb_tm_lp[lp].smp.acc >> 8);
	return lp == cur_lp ? nb_ls_ic : ic[lp];
}

static ULong t_of(unsigned lp)
{
	return raw(lp) + (timed() ? off_t[lp] : off_i[lp]);
}

/* an LP's time with the sampled clock's charges read apart from raw(),
 * the fraction of a cycle too: the statistics' check of the guard and
 * raw() */
static ULong t_true(unsigned lp)
{
	const struct nb_tm *t = &nb_tm_lp[lp];

	if (!timed())
		return t_of(lp);
	return t->ret + ((t->smp.frac + t->smp.acc) >> 8) + off_t[lp];
}

static void t_raise(unsigned lp, ULong t)
{
	ULong now = t_of(lp);

	if (t > now) {
		off_t[lp] += timed() ? t - now : 0;
		off_i[lp] += timed() ? 0 : t - now;
	}
}

static Bool alive(ThreadId t)
{
	return t && t < NB_HT_MAXT && th[t].alive;
}

static unsigned nlp(void)
{
	return clo_ht ? 2 : 1;
}

static unsigned lp_of(ThreadId t)
{
	return clo_ht ? nb_lp_of(t) : 0;
}

static Bool runnable(ThreadId t)
{
	return alive(t) && th[t].state == LS_RUN;
}

/* the next runnable thread of LP lp after thread `after` (round robin by
 * ThreadId), or 0.  Over the ThreadIds up to the highest that lived
 * (valgrind reuses the lowest free one), not all NB_HT_MAXT: it is asked
 * at every turn (3% of the lockstep's cost on a two-thread program). */
static ThreadId tid_end = 2;             /* above every ThreadId that lived */

static ThreadId next_of(unsigned lp, ThreadId after)
{
	for (unsigned i = 1; i < tid_end; i++) {
		ThreadId t = (ThreadId)((after + i) % tid_end);
		if (runnable(t) && lp_of(t) == lp)
			return t;
	}
	return 0;
}

/* An LP whose owner cannot run passes to its next runnable thread; one
 * that had none (halted) takes up at time `at` */
static void refresh(unsigned lp, ULong at)
{
	/* (a thread moved to the other LP, --nbsim-ht-place=migrate, owns
	 * this one no more) */
	if (runnable(owner[lp]) && lp_of(owner[lp]) == lp)
		return;
	owner[lp] = next_of(lp, owner[lp]);
	if (owner[lp]) {
		t_raise(lp, at);
		qend[lp] = t_of(lp) + NB_LS_QUANTUM;
	}
}

unsigned nb_ls_lps_running(void)
{
	unsigned m = 0;

	for (unsigned lp = 0; lp < nlp(); lp++)
		if (owner[lp])
			m |= 1u << lp;
	return m;
}

/* The LP time of the running LP, for waking another: the greatest of the
 * LPs' that run */
static ULong now_running(void)
{
	ULong t = 0;

	for (unsigned lp = 0; lp < nlp(); lp++)
		if (owner[lp] && t_of(lp) > t)
			t = t_of(lp);
	return t;
}

/* the LP whose thread runs: the one with a runnable thread, or of two
 * the one whose turn it is, until it leads by more than NB_LS_BOUND */
static void set_turn(void)
{
	unsigned o = turn ^ 1;

	if (nlp() == 1) {
		turn = 0;
		return;
	}
	if (!owner[turn]) {
		if (owner[o])
			turn = o;
		return;
	}
	if (owner[o] && t_of(turn) > t_of(o) + NB_LS_BOUND) {
		/* (statistics: how far past the bound the guard let it go,
		 * one superblock run at most; t_smt_sampled.sh checks it) */
		ULong lead = t_true(turn) - t_true(o);
		if ((Long)lead > 0 && lead > lead_max)
			lead_max = lead;
		turn = o;
		nb_ls_turns++;
	}
}

/*
 * A thread that began a futex wait the model has it blocked in releases
 * valgrind's lock before it enters the host's kernel.  Were another
 * thread to run at once, it could change the word (and wake) before the
 * wait is queued: the wait would then return EAGAIN instead of 0, and
 * the waiter's library code take another path, as the host's timing has
 * it (nb_stat saw 2 instructions between runs).  So the next thread runs
 * only when the waiter is in the kernel's futex wait on its word (or has
 * come back: it then waits for valgrind's lock on another word), as
 * /proc/self/task/LWP/syscall shows (nb_lstask.c), at most NB_LS_SETTLE_MS.
 */
static void settle(void)
{
	Int self = VG_(gettid)();

	for (unsigned t = 1; t < NB_HT_MAXT; t++) {
		UInt from, start;
		if (!th[t].unsettled)
			continue;
		if (th[t].lwp == self) {
			/* (its own pre-syscall hook: the next thread settles it) */
			nb_ls_unsettled = True;
			continue;
		}
		th[t].unsettled = 0;
		from = start = VG_(read_millisecond_timer)();
		while (th[t].in_kernel && !nb_lst_in_wait(th[t].lwp)) {
			UInt now = VG_(read_millisecond_timer)();
			if (nb_lst_progressing(th[t].lwp) && now - start < NB_LS_STUCK_MS)
				from = now;
			if (now - from >= NB_LS_SETTLE_MS) {
				settle_outs++;
				if (VG_(clo_verbosity) > 1)
					VG_(umsg)("nbsim: lockstep: thread %u not seen in its "
						  "futex wait after %u ms\n", t, NB_LS_SETTLE_MS);
				break;
			}
			pause_host(20);
		}
	}
}

/* The lockstep decides who runs from the second thread on, overflow
 * interrupts or not: nb_record's samples (taken inside nbsim), PAPI_overflow's
 * PMI signals and the perf emulation's sampling all keep the threads'
 * order (docs/threads.md "overflow interrupts"). */
Bool nb_ls_active(void)
{
	return nb_ls_on && clo_lockstep;
}

/*
 * A wrapper's call of the function it wraps (valgrind's CALL_FN_*) is a
 * no-redirect jump: valgrind's scheduler runs that one translation at
 * once (handle_noredir_jump), through the thread-start hook, and must
 * run it then: the fact that it is to run without the redirection is
 * kept nowhere else, so it asserts (scheduler.c, trc[0] !=
 * VG_TRC_INNER_COUNTERZERO) when the translation leaves at its event
 * check, as a thread the lockstep holds does (leave_now).  Its guard
 * must not leave either (the redirected function would run again, as a
 * new call).  So the exits that jump there mark it (nb_instr.c), and it
 * runs unheld: one superblock, after which the thread is held or not as
 * before.  (Holds at these points were rare until a store's wait for
 * the bus moved the clock by whole transfers inside a run: thread_counts
 * 8 under --ht=yes asserted in its mmap wrapper, vg_preload_nbsim.c.)
 */
static Bool noredir;

void nb_ls_noredir_mark(void)
{
	noredir = True;
}

/* Thread tid of LP lp runs until LP lp's raw clock reaches v: the
 * guard's limit, for the clock in the LP's own fields (nb_timing.h
 * ls_lim, ls_acc) */
static ThreadId lim_tid;                 /* runs() set the limit of ...   */
static unsigned lim_lp;                  /* ... this thread on this LP    */

static void set_lim(unsigned lp, ULong v)
{
	lim_tid = 0;
	nb_ls_lim = v;
	nb_tm_lp[lp & 1].ls_lim = v;
	nb_tm_ls_set(&nb_tm_lp[lp & 1]);
}

/* Thread tid of LP lp asks to run: the LPs' owners and the turn brought
 * up to now; may it run?  (Asked again with nothing run between, it
 * decides the same, with nothing more changed.) */
static Bool decide(ThreadId tid, unsigned lp)
{
	for (unsigned l = 0; l < nlp(); l++) {
		refresh(l, now_running());
		/* the owner's quantum is over: the LP's next runnable thread,
		 * its quantum from where the last one ended, not from where
		 * this start saw it end (the starts fall where valgrind's
		 * time slices end, too: the limit would follow them) */
		if (owner[l] && t_of(l) >= qend[l]) {
			ThreadId n = next_of(l, owner[l]);
			if (n)
				owner[l] = n;
			qend[l] += ((t_of(l) - qend[l]) / NB_LS_QUANTUM + 1) * NB_LS_QUANTUM;
		}
	}
	set_turn();
	return owner[lp] == tid && !(nlp() == 2 && turn != lp && owner[turn]);
}

/*
 * The profile the other LP's clock is given (nb_cycles.c nb_tm_switch,
 * timing-model.md "Hyper-Threading: the package shared") is of this LP's
 * segment from where its time passed the other LP's: the window the
 * other LP runs through next, not the whole segment, half of which lies
 * behind the other LP's time.  So a turn of an LP that starts behind
 * runs first to the other LP's time (the crossing), where nb_tm_cross
 * marks the profile's start, then to the bound past it.  The guard leaves
 * at the crossing as at any limit, and the thread-start hook (nb_ls_start)
 * marks and lets it run on: a round trip through valgrind's scheduler a
 * turn, in the same time slice (nb_lsguard.c: the guard's exit kind).
 * (Decided in the generated code instead, by a call the guard made at its
 * limit, the guard's longer code in every run cost more: sort -n under
 * the four presets, 1.02 of the CPU time.)
 */
static Bool cross_pend[2];
static void (*cross_cb)(unsigned lp);

void nb_ls_on_cross(void (*f)(unsigned lp))
{
	cross_cb = f;
}

/* LP lp's limit, in the lockstep's time: its quantum's end; with the
 * other LP running, the crossing while behind it, else the bound past
 * it (the crossing's mark made on the way) */
static ULong lim_of(unsigned lp)
{
	ULong lim = qend[lp], o;

	if (nlp() != 2 || !owner[lp ^ 1])
		return lim;
	o = t_of(lp ^ 1);
	if (cross_cb && timed() && t_of(lp) < o) {
		cross_pend[lp] = True;
		return o < lim ? o : lim;
	}
	if (cross_pend[lp]) {
		cross_pend[lp] = False;
		nb_ls_crossings++;
		cross_cb(lp);
		o = t_of(lp ^ 1);
	}
	return o + NB_LS_BOUND < lim ? o + NB_LS_BOUND : lim;
}

/* Thread tid of LP lp runs: nb_ls_lim, the raw clock (nb_tmp's or
 * nb_ls_ic) at which it must give way */
static void runs(ThreadId tid, unsigned lp)
{
	ULong lim;

	valve_on = False;
	spins = 0;
	/* the LP of the running thread: its instructions in nb_ls_ic */
	if (lp != cur_lp) {
		ic[cur_lp] = nb_ls_ic;
		nb_ls_ic = ic[lp];
		cur_lp = lp;
	}
	lim = lim_of(lp);
	NB_LS_TRACE("runs %u lp%u t0 %llu t1 %llu ic %llu lim %llu\n", tid, lp, t_of(0), t_of(1), nb_ls_ic, lim);
	lim -= timed() ? off_t[lp] : off_i[lp];
	set_lim(lp, lim + 1);
	lim_tid = tid, lim_lp = lp;
	ic_arm(tid);
}

/*
 * Thread tid, allowed to run (nb_ls_enter), has had its start's work
 * done (nb_main.c nb_start_client): the LP switch folds the outgoing
 * LP's streak of sampled charges into its clock, which moves its time
 * by a few cycles from the raw() the limit was computed on.  The limit
 * is set again from the times as they now stand, so that it does not
 * depend on whether valgrind's time slice happens to end (and the
 * start hook to run again) before the thread reaches it.
 */
void nb_ls_relimit(ThreadId tid)
{
	if (lim_tid && lim_tid == tid && nb_ls_active())
		runs(tid, lim_lp);
}

/* Thread tid gets valgrind's lock: may it run?  Sets nb_ls_lim (runs). */
Bool nb_ls_start(ThreadId tid)
{
	unsigned lp = lp_of(tid);

	if (slot_stale)
		slot_stale = False, slot_tid = 0;
	ic_sync();
	if (noredir) {
		noredir = False;
		set_lim(lp, ~0ULL);
		ic_arm(tid);
		return True;
	}
	if (!nb_ls_active()) {
		set_lim(lp, ~0ULL);
		ic_arm(tid);
		return True;
	}
	if (nb_ls_unsettled) {
		nb_ls_unsettled = False;
		settle();
	}
	if (exit_word && VG_(gettid)() != exit_lwp) {
		/* a thread exited: its clear-tid word is zeroed by the host's
		 * kernel when its host thread is gone, after valgrind's lock
		 * was released; a thread that ran before would find it set
		 * (pthread_join's loop one futex wait longer), as the host's
		 * timing has it */
		UInt from = VG_(read_millisecond_timer)(), start = from;
		while (VG_(am_is_valid_for_client)(exit_word, 4, VKI_PROT_READ) &&
		       *(volatile Int *)exit_word != 0) {
			UInt now = VG_(read_millisecond_timer)();
			if (nb_lst_progressing(exit_lwp) && now - start < NB_LS_STUCK_MS)
				from = now;
			if (now - from >= NB_LS_SETTLE_MS) {
				exit_outs++;
				if (VG_(clo_verbosity) > 1)
					VG_(umsg)("nbsim: lockstep: an exited thread's clear-tid "
						  "word still set after %u ms\n", NB_LS_SETTLE_MS);
				break;
			}
			pause_host(20);
		}
		exit_word = 0;
	}
	/* it runs guest code inside a wait the model has it blocked in: a
	 * signal's handler (a PMI sent to a waiting thread), as the host
	 * delivers it; it goes back into its wait after */
	if (tid < NB_HT_MAXT && th[tid].alive && th[tid].state != LS_RUN) {
		if (lp != cur_lp) {
			ic[cur_lp] = nb_ls_ic;
			nb_ls_ic = ic[lp];
			cur_lp = lp;
		}
		set_lim(lp, ~0ULL);
		ic_arm(tid);
		return True;
	}
	if (!decide(tid, lp)) {
		ThreadId w = owner[turn] ? owner[turn] : owner[lp];
		/* the thread that should run is still in the kernel: a wait
		 * the model does not know, once the valve's time is out */
		if (!w || !th[w].in_kernel || w != valve_tid || th[w].sysseq != valve_seq)
			valve_on = False;
		if (w && th[w].in_kernel) {
			UInt ms = VG_(read_millisecond_timer)();
			/* (the host's load is no wait the model lacks) */
			if (valve_on && nb_lst_progressing(th[w].lwp))
				valve_from = ms;
			if (!valve_on) {
				/* (the same system call of the same thread all along) */
				valve_on = True, valve_from = ms;
				valve_tid = w, valve_seq = th[w].sysseq;
			} else if (ms - valve_from > NB_LS_VALVE_MS) {
				th[w].state = LS_SYS;
				nb_ls_valves++;
				if (VG_(clo_verbosity) > 1)
					VG_(umsg)("nbsim: lockstep: thread %u taken as blocked in "
						  "system call %u\n", w, th[w].sysno);
				valve_on = False;
				return nb_ls_start(tid);
			}
		}
		nb_ls_holds++;
		next_up = w;
		set_lim(lp, 0);
		ic_arm(tid);
		leave_now(tid);
		/* held again at once: the thread that should run was not
		 * waiting for valgrind's lock (not yet back from the kernel,
		 * or not yet started); let the host run it before the lock
		 * is released again (a parked thread waits out of the lock) */
		if (!parking && ++spins > 2)
			pause_host(spins > 20 ? 200 : 20);
		return False;
	}
	runs(tid, lp);
	return True;
}

/*
 * A PAUSE (the spin-wait hint) ends its superblock with Ijk_Yield, back
 * to valgrind's scheduler, whose thread-start hook asks nb_ls_start
 * again.  Under the lockstep the other thread may not run until this
 * one's turn ends, so the round trip (the hook, the dispatcher's exit and
 * entry, valgrind's signal poll every few hundred of them) only finds,
 * nearly always, that the thread runs on: a thread spinning at a barrier
 * while the other LP works made one per PAUSE for the whole of its turn
 * (tp_omp 200000 40 under --ht=yes: 150,000 more thread starts than
 * without the lockstep).  The PAUSE's superblock now ends with a call of
 * this function instead (nb_instr.c emit_pause): it takes the decision
 * the hook's nb_ls_start would take there, where nothing else has run
 * since the superblock's end, and the superblock goes on as a plain jump
 * when the thread runs on (its limit set again, as the hook sets it: the
 * other LP's time moves at its own switch, after the limit was computed),
 * else leaves as before (1), and the hook decides again, the same way,
 * and holds it.  Whatever else the hook would do at this start (a
 * translation's discard, a timer's signal, another thread's PMU context,
 * the perf emulation's tick) leaves too (start_again, nb_main.c's): the counts are
 * the same as with every PAUSE's round trip.
 */
static Bool (*start_again)(ThreadId);   /* nb_ls_on_start_again */

void nb_ls_on_start_again(Bool (*f)(ThreadId tid))
{
	start_again = f;
}

ULong nb_ls_pause(void)
{
	ThreadId tid = VG_(get_running_tid)();
	unsigned lp = lp_of(tid);

	if (!nb_ls_active() || slot_stale || noredir || nb_ls_unsettled || exit_word ||
	    !runnable(tid) || lp != cur_lp || !start_again || !start_again(tid))
		return 1;
	ic_sync();
	if (!decide(tid, lp))
		return 1;
	nb_ls_pauses++;
	runs(tid, lp);
	return 0;
}

/* The start of a thread's run (nb_main.c's hook): nb_ls_start; a thread
 * held parks (above), the others woken once valgrind's lock is released
 * (park): being held is the running thread's hand-off, its quantum over.
 * Back, it leaves all the same:
 * the translation valgrind looked up before the hook may have been
 * discarded while it was parked; its next run looks it up again. */
Bool nb_ls_enter(ThreadId tid)
{
	Bool run;

	parking = True;
	run = nb_ls_start(tid);
	parking = False;
	if (run || !nb_ls_active())
		return run;
	park(tid);
	return False;
}

static void (*lps_changed)(void);        /* nb_ls_on_change */

void nb_ls_on_change(void (*f)(void))
{
	lps_changed = f;
}

/* The lockstep's state changed: the running thread's limit again, and
 * what the tool's thread hooks do when the LPs running user code changed
 * (a wake of the other LP's thread, the running thread's wait). */
void nb_ls_changed(void)
{
	ThreadId tid = VG_(get_running_tid)();

	park_wake();
	if (!tid)
		return;
	(void)nb_ls_start(tid);
	if (lps_changed)
		lps_changed();
}

/* NEED_TIME turned on (nb_need.c): the LPs' times in cycles from here,
 * level with each other as they were in instructions */
void nb_ls_time_on(void)
{
	ULong t = 0;

	ic_sync();

	for (unsigned lp = 0; lp < 2; lp++)
		if (nb_tm_lp[lp].ret + off_t[lp] > t)
			t = nb_tm_lp[lp].ret + off_t[lp];
	for (unsigned lp = 0; lp < 2; lp++) {
		off_t[lp] = t - nb_tm_lp[lp].ret;
		qend[lp] = t + NB_LS_QUANTUM;
	}
}

/* wake up to n threads waiting on word (FIFO); the rest up to m move to
 * word2 (FUTEX_CMP_REQUEUE) */
static void wake(Addr word, ULong n, Addr word2, ULong m)
{
	ULong at = now_running();
	Bool any = False;

	while (n || m) {
		ThreadId best = 0;
		for (unsigned t = 1; t < NB_HT_MAXT; t++)
			if (alive(t) && th[t].state == LS_FUTEX && th[t].word == word &&
			    (!best || th[t].seq < th[best].seq))
				best = t;
		if (!best)
			break;
		NB_LS_TRACE("wake %u n %llu\n", best, n);
		if (n) {
			th[best].state = LS_RUN;
			refresh(lp_of(best), at);
			any = True;
			n--;
		} else {
			th[best].word = word2;
			m--;
		}
	}
	if (any)
		nb_ls_changed();
}

/* system calls that can wait on another thread or the outside, other
 * than the futex waits the model follows */
static Bool blocking(UInt sysno)
{
	switch (sysno) {
	case __NR_read: case __NR_readv: case __NR_recvfrom: case __NR_recvmsg:
	case __NR_accept: case __NR_accept4: case __NR_connect:
	case __NR_poll: case __NR_ppoll: case __NR_select: case __NR_pselect6:
	case __NR_epoll_wait: case __NR_epoll_pwait:
	case __NR_nanosleep: case __NR_clock_nanosleep: case __NR_pause:
	case __NR_wait4: case __NR_waitid: case __NR_rt_sigsuspend: case __NR_rt_sigtimedwait:
	case __NR_msgrcv: case __NR_semop: case __NR_semtimedop: case __NR_flock:
		return True;
	default:
		return False;
	}
}


/* FUTEX_WAKE_OP's condition on the old value of the second word (man 2
 * futex: the operation and comparison encoded in val3) */
static Bool wake_op_cond(UInt val3, Int old)
{
	Int cmparg = (Int)(val3 & 0xfff);

	switch ((val3 >> 24) & 15) {
	case 0: return old == cmparg;
	case 1: return old != cmparg;
	case 2: return old < cmparg;
	case 3: return old <= cmparg;
	case 4: return old > cmparg;
	case 5: return old >= cmparg;
	default: return True;
	}
}

void nb_ls_pre_syscall(ThreadId tid, UInt sysno, UWord *args)
{
	if (tid >= NB_HT_MAXT)
		return;
	ic_sync();
	if (sysno == __NR_rt_sigreturn)
		slot_stale = True;
	NB_LS_TRACE("pre %u sys %u a0 %#lx a1 %#lx t0 %llu t1 %llu\n", tid, sysno, args[0], args[1],
		    t_of(0), t_of(1));
	th[tid].in_kernel = 1;
	th[tid].sysno = sysno;
	th[tid].sysseq++;
	/* (a new process or image would inherit a hand-off's one host CPU) */
	if (sysno == __NR_fork || sysno == __NR_vfork || sysno == __NR_execve ||
	    sysno == __NR_execveat || sysno == __NR_clone3 ||
	    (sysno == __NR_clone && !(args[0] & VKI_CLONE_THREAD)))
		nb_lsh_release(tid);
	if (sysno == __NR_clone)
		pending_ctid = (args[0] & CLONE_CHILD_CLEARTID) ? args[3] : 0;
	/* clone3: struct clone_args { u64 flags, pidfd, child_tid, ... } */
	if (sysno == 435 /* __NR_clone3 */ &&
	    VG_(am_is_valid_for_client)(args[0], 24, VKI_PROT_READ))
		pending_ctid = (((const ULong *)args[0])[0] & CLONE_CHILD_CLEARTID)
			? (Addr)((const ULong *)args[0])[2] : 0;
	if (!nb_ls_on)
		return;
	if (sysno == __NR_exit_group)
		park_wake();    /* (valgrind's exit waits for every thread) */
	if (sysno == __NR_futex) {
		UInt cmd = (UInt)args[1] & 0x7f;
		Addr w = args[0];
		switch (cmd) {
		case FX_WAIT: case FX_WAIT_BITSET:
			/* (the guest's word, read while no guest thread runs) */
			if (VG_(am_is_valid_for_client)(w, 4, VKI_PROT_READ) &&
			    *(volatile Int *)w == (Int)args[2]) {
				th[tid].state = LS_FUTEX;
				th[tid].word = w;
				th[tid].seq = ++seq;
				th[tid].unsettled = 1;
				th[tid].lwp = VG_(gettid)();
				nb_ls_unsettled = True;
			}
			break;
		case FX_WAKE: case FX_WAKE_BITSET:
			wake(w, args[2], 0, 0);
			break;
		case FX_REQUEUE: case FX_CMP_REQUEUE:
			if (cmd == FX_CMP_REQUEUE && VG_(am_is_valid_for_client)(w, 4, VKI_PROT_READ) &&
			    *(volatile Int *)w != (Int)args[5])
				break;
			wake(w, args[2], args[4], args[3]);
			break;
		case FX_WAKE_OP: {
			Addr w2 = args[4];
			Bool c = VG_(am_is_valid_for_client)(w2, 4, VKI_PROT_READ) &&
				wake_op_cond((UInt)args[5], *(volatile Int *)w2);
			wake(w, args[2], 0, 0);
			if (c)
				wake(w2, args[3], 0, 0);
			break;
		}
		default:
			break;
		}
	} else if (sysno == __NR_sched_yield) {
		/* the LP's next runnable thread runs (Linux puts the task at
		 * the end of its CPU's run queue) */
		unsigned lp = lp_of(tid);
		ThreadId n = next_of(lp, tid);
		if (owner[lp] == tid && n && n != tid) {
			owner[lp] = n;
			qend[lp] = t_of(lp) + NB_LS_QUANTUM;
			nb_ls_changed();
		}
	} else if (blocking(sysno))
		th[tid].state = LS_SYS;
	if (th[tid].state != LS_RUN) {
		owner[lp_of(tid)] = tid;        /* (refresh passes it on) */
		refresh(lp_of(tid), 0);
		nb_ls_changed();
	}
}

void nb_ls_post_syscall(ThreadId tid)
{
	if (tid >= NB_HT_MAXT)
		return;
	ic_sync();
	th[tid].in_kernel = 0;
	th[tid].unsettled = 0;
	NB_LS_TRACE("post %u sys %u state %u\n", tid, th[tid].sysno, th[tid].state);
	if (!nb_ls_on || th[tid].state == LS_RUN)
		return;
	/* back from a wait the model did not end (the host's timing) */
	if (VG_(clo_verbosity) > 1)
		VG_(umsg)("nbsim: lockstep: thread %u back from system call %u the model "
			  "had it wait in (word %#lx)\n", tid, th[tid].sysno, th[tid].word);
	th[tid].state = LS_RUN;
	refresh(lp_of(tid), now_running());
	nb_ls_changed();
}

void nb_ls_created(ThreadId parent, ThreadId child)
{
	ULong at;

	if (child >= NB_HT_MAXT || !parent)     /* (the main thread) */
		return;
	ic_sync();
	if (!nb_ls_on && clo_lockstep) {
		/* the guards from here on (nb_instr.c) */
		nb_ls_on = True;
		for (unsigned lp = 0; lp < 2; lp++)
			qend[lp] = t_of(lp) + NB_LS_QUANTUM;
		owner[cur_lp] = parent;
		th[parent].alive = 1;
		turn = cur_lp;
		/* (valgrind allows a tool's discard inside its client
		 * requests only, asserting that no translation runs; none
		 * does in a thread-creation hook, called from the clone
		 * system call's wrapper in the scheduler) */
		nb_discards++;
		VG_(ok_to_discard_translations) = True;
		VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "nbsim lockstep");
		VG_(ok_to_discard_translations) = False;
	}
	at = now_running();
	th[child].alive = 1;
	if (child >= tid_end)
		tid_end = child + 1;
	th[child].state = LS_RUN;
	th[child].in_kernel = 0;
	th[child].ctid = pending_ctid;
	pending_ctid = 0;
	refresh(lp_of(child), at);
}

void nb_ls_exit(ThreadId tid)
{
	if (tid >= NB_HT_MAXT || !nb_ls_on)
		return;
	ic_sync();
	if (slot_tid == tid)
		slot_tid = 0;
	th[tid].state = LS_SYS;
	th[tid].alive = 0;
	if (VG_(clo_verbosity) > 1)
		VG_(umsg)("nbsim: lockstep: thread %u exits, clear-tid word %#lx\n", tid, th[tid].ctid);
	if (th[tid].ctid) {
		wake(th[tid].ctid, ~0ULL, 0, 0);
		exit_word = th[tid].ctid;
		exit_lwp = VG_(gettid)();
	}
	th[tid].ctid = 0;
	for (unsigned lp = 0; lp < nlp(); lp++)
		refresh(lp, now_running());
	nb_ls_changed();
}

/* In a forked child, thread tid is not there (only the forking thread
 * is): it leaves the lockstep as at its exit, but nothing clears its
 * clear-tid word (the host's kernel does that for threads that exit,
 * and this one never ran in the child).  Kept, the child's only thread
 * waited for its turn after a thread that did not exist: a threaded
 * program's fork under --ht=yes hung. */
void nb_ls_vanish(ThreadId tid)
{
	if (tid >= NB_HT_MAXT || !th[tid].alive)
		return;
	th[tid].ctid = 0;
	th[tid].in_kernel = 0;
	th[tid].unsettled = 0;
	nb_ls_exit(tid);
}

void nb_ls_stats(void)
{
	if (!nb_ls_on)
		return;
	VG_(umsg)("nbsim: lockstep: %llu holds, %llu turns passed, %llu waits taken as blocked "
		  "after %u ms\n", nb_ls_holds, nb_ls_turns, nb_ls_valves, NB_LS_VALVE_MS);
	VG_(umsg)("nbsim: lockstep: the largest lead at a turn %llu (bound %u %s)\n", lead_max,
		  NB_LS_BOUND, timed() ? "cycles" : "instructions");
	VG_(umsg)("nbsim: lockstep: translations with the guard %llu, without (no way back) %llu\n",
		  nb_ls_guarded_sbs, nb_ls_unguarded_sbs);
	VG_(umsg)("nbsim: lockstep: %llu PAUSEs ran on without the scheduler\n", nb_ls_pauses);
	VG_(umsg)("nbsim: lockstep: %llu crossings of the other LP's time (where a profile "
		  "starts)\n", nb_ls_crossings);
	VG_(umsg)("nbsim: lockstep: settling waits out of time (%u ms): %llu futex waits, %llu "
		  "thread exits\n", NB_LS_SETTLE_MS, settle_outs, exit_outs);
	VG_(umsg)("nbsim: lockstep: %llu hand-offs, %llu of them moved the next thread to the "
		  "waker's host CPU (nb_lshand.c)\n", nb_lsh_handoffs, nb_lsh_pins);
}
