/*
 * nb_itimer.c - interval timers in simulated time (--nbsim-time=simulated):
 * setitimer, getitimer, alarm and ualarm reach it through the preload
 * library's wrappers (vg_preload_time.c, NBSIM_REQ_ITIMER); the time base
 * is nb_simtime.c's.  The timers expire in simulated time: ITIMER_VIRTUAL and
 * ITIMER_PROF on the process's CPU time (the kernel is not simulated, so
 * both count user time), ITIMER_REAL on the wall time.  Expiry is checked
 * at each entry of valgrind's scheduler (every system call and client
 * request, and, as an expiry nears, every few superblocks: itimer_budget).
 * A thread that blocks in a system call (pause, sigsuspend, a read, a
 * futex wait...) while ITIMER_REAL is armed runs no code to advance the
 * clock: the host's ITIMER_REAL is then armed for the simulated time left,
 * and the wait's host time is added to the wall time 1:1 (as a sleep's),
 * so that `alarm(1); pause();` returns after one second on both clocks.
 * A wait that runs out its own time first (a sleep, a poll's timeout)
 * passes that time, not the host's.
 * A process that can do nothing but wait for a signal (its only thread in
 * pause or sigsuspend, and no child process whose exit could end it) is
 * idle: nothing in it runs before the first
 * wall-clock timer's expiry, nor would on the simulated machine.  The
 * preload library's pause and sigsuspend ask first (nb_itimer_idle): the
 * wall time passes exactly to the expiry, the timer's signal is sent, and
 * the wrapper has it delivered and returns EINTR without waiting on the
 * host: the same every run, whatever the host's load.  (A host timer armed
 * "at once" cannot do this: a signal that comes before the system call
 * starts is delivered first and valgrind restarts the call, which then
 * waits for ever.)
 */
#include "tool/nb_tool.h"
#include "nb_simtime.h"
#include "nb_itimer.h"
#include "nb_ptimer.h"
#include "pub_tool_vkiscnums.h"

extern Int VG_(tkill)(Int lwpid, Int signo);   /* (coregrind; as nb_pmi.c) */
extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3, UWord a4,
			      UWord a5, UWord a6, UWord a7, UWord a8);  /* (coregrind) */

/* ITIMER_REAL (0): expiry in wall ns; ITIMER_VIRTUAL (1) and ITIMER_PROF
 * (2): in the process's CPU ns */
static struct { Bool armed; ULong at, interval; } itimer[3];
/* a wait with host stand-ins armed for it: its thread, the host's
 * monotonic ns as it began, the wall time left of ITIMER_REAL and of the
 * earliest POSIX timer (~0: none) */
static ThreadId wait_tid = VG_INVALID_THREADID;
static ULong wait_host_ns, wait_real_ns, wait_pt_ns;
/* the process's live threads (valgrind's thread ids) */
static Bool live[NB_HT_MAXT];

static ULong ts_ns(const struct vki_timespec *ts)
{
	return (ULong)ts->tv_sec * 1000000000ULL + (ULong)ts->tv_nsec;
}

static Bool writable(UWord addr, SizeT len)
{
	return addr != 0 && VG_(am_is_valid_for_client)((Addr)addr, len, VKI_PROT_WRITE);
}

void nb_itimer_fork(ThreadId tid)
{
	nb_ptimer_fork();
	VG_(memset)(itimer, 0, sizeof itimer);
	wait_tid = VG_INVALID_THREADID;
	VG_(memset)(live, 0, sizeof live);      /* (the child has one thread) */
	if (tid < NB_HT_MAXT)
		live[tid] = True;
}

void nb_itimer_thread_create(ThreadId parent, ThreadId child)
{
	if (parent < NB_HT_MAXT && parent != VG_INVALID_THREADID)
		live[parent] = True;
	if (child < NB_HT_MAXT)
		live[child] = True;
}

void nb_itimer_thread_exit(ThreadId tid)
{
	if (tid < NB_HT_MAXT)
		live[tid] = False;
}

/* the clock timer W runs on, in ns */
static ULong timer_now(unsigned w)
{
	return w == 0 ? nb_time_wall_ns() : nb_time_cpu_ns();
}

/* Bring valgrind's scheduler back within LEFT superblocks: the running
 * thread's event counter cut to it.  The scheduler is where expiries are
 * checked (nb_front.c, at each thread switch) and where the signal VG_(tkill) sent is
 * polled and delivered. */
static void evc_cut(ULong left)
{
	ThreadId tid = VG_(get_running_tid)();
	Int ctr;

	if (tid == VG_INVALID_THREADID)
		return;
	VG_(get_shadow_regs_area)(tid, (UChar *)&ctr, 0,
				  offsetof(VexGuestAMD64State, host_EvC_COUNTER), sizeof ctr);
	if (ctr > 0 && (ULong)ctr > left) {
		ctr = (Int)left;
		VG_(set_shadow_regs_area)(tid, 0, offsetof(VexGuestAMD64State, host_EvC_COUNTER),
					  sizeof ctr, (const UChar *)&ctr);
	}
}

/* Before the next expiry: the cycles left over 256, so a check falls at
 * most one superblock late unless superblocks take over 256 cycles each;
 * the checks thicken as the expiry nears (about 15 per factor e). */
static void itimer_budget(void)
{
	ULong left = ~0ULL;

	for (unsigned w = 0; w <= 2; w++)
		if (itimer[w].armed) {
			ULong now = timer_now(w);
			ULong l = itimer[w].at > now ? itimer[w].at - now : 0;

			if (l < left)
				left = l;
		}
	{
		ULong l = nb_ptimer_left_ns(False), k = nb_kin_left_ns();

		if (l < left)
			left = l;
		if (k < left)           /* (a waiting ancestor's expiry) */
			left = k;
	}
	if (left != ~0ULL)
		evc_cut(left / 1000 * nb_cpu->mhz / 256 + 1);
}

/* Timer W expired at NOW: re-armed by its interval (intervals that passed
 * whole are overruns, not more signals, as Linux) or disarmed. */
static void itimer_rearm(unsigned w, ULong now)
{
	if (itimer[w].interval) {
		ULong late = now - itimer[w].at;

		itimer[w].at += (late / itimer[w].interval + 1) * itimer[w].interval;
	} else {
		itimer[w].armed = False;
	}
}

/* An expired timer sends its signal to the running thread (POSIX: to the
 * process) and is re-armed. */
Bool nb_itimer_quiet(void)
{
	return !itimer[0].armed && !itimer[1].armed && !itimer[2].armed &&
		nb_ptimer_left_ns(False) == ~0ULL;
}

void nb_itimer_check(void)
{
	static const Int sig[3] = { VKI_SIGALRM, VKI_SIGVTALRM, VKI_SIGPROF };

	if (nb_ptimer_check())
		evc_cut(1);
	for (unsigned w = 0; w <= 2; w++) {
		ULong now;

		if (!itimer[w].armed || (now = timer_now(w)) < itimer[w].at)
			continue;
		itimer_rearm(w, now);
		VG_(tkill)(VG_(gettid)(), sig[w]);
		evc_cut(1);             /* (delivered at the next superblock) */
	}
	itimer_budget();
}

static ULong tv_ns_of(const struct vki_timeval *tv)
{
	return (ULong)tv->tv_sec * 1000000000ULL + (ULong)tv->tv_usec * 1000ULL;
}

static void ns_tv(struct vki_timeval *tv, ULong ns)
{
	tv->tv_sec = (Long)(ns / 1000000000ULL);
	tv->tv_usec = (Long)(ns % 1000000000ULL / 1000);
}

UWord nb_itimer_request(Int which, UWord new_value, UWord old_value)
{
	struct vki_itimerval *nv = (struct vki_itimerval *)new_value;
	struct vki_itimerval *ov = (struct vki_itimerval *)old_value;
	ULong now;

	if (clo_time_host || which < 0 || which > 2)
		return NBSIM_TIME_HOST;
	if ((nv && !VG_(am_is_valid_for_client)((Addr)nv, sizeof *nv, VKI_PROT_READ)) ||
	    (ov && !writable(old_value, sizeof *ov)))
		return NBSIM_GP;
	if (nv && (nv->it_value.tv_sec < 0 || nv->it_value.tv_usec < 0 ||
		   nv->it_value.tv_usec >= 1000000 || nv->it_interval.tv_sec < 0 ||
		   nv->it_interval.tv_usec < 0 || nv->it_interval.tv_usec >= 1000000))
		return NBSIM_GP;
	nb_itimer_check();              /* (a tick due before the change) */
	now = timer_now((unsigned)which);
	if (ov) {
		ns_tv(&ov->it_interval, itimer[which].armed ? itimer[which].interval : 0);
		ns_tv(&ov->it_value, itimer[which].armed ? itimer[which].at - now : 0);
	}
	if (nv) {
		ULong v = tv_ns_of(&nv->it_value);

		itimer[which].armed = v != 0;
		itimer[which].at = now + v;
		itimer[which].interval = tv_ns_of(&nv->it_interval);
		itimer_budget();
	}
	return NBSIM_OK;
}

static ULong host_mono(void)
{
	struct vki_timespec ts;

	VG_(clock_gettime)(&ts, VKI_CLOCK_MONOTONIC);
	return ts_ns(&ts);
}

static void host_real_timer(ULong ns, struct vki_itimerval *old)
{
	struct vki_itimerval v;

	v.it_interval.tv_sec = v.it_interval.tv_usec = 0;
	ns_tv(&v.it_value, ns);
	if (ns && !v.it_value.tv_sec && !v.it_value.tv_usec)
		v.it_value.tv_usec = 1;         /* (0 would disarm it) */
	VG_(do_syscall)(__NR_setitimer, 0 /* ITIMER_REAL */, (UWord)&v, (UWord)old,
			0, 0, 0, 0, 0);
}

/* TID is the process's only live thread */
static Bool only_thread(ThreadId tid)
{
	for (ThreadId t = 1; t < NB_HT_MAXT; t++)
		if (live[t] && t != tid)
			return False;
	return True;
}

/* Before a system call: a wait while a wall-clock timer runs gets host
 * stand-ins for the simulated time left: the host's ITIMER_REAL for
 * ITIMER_REAL, a kernel timer for the earliest POSIX timer (nb_ptimer.c).
 * One wait at a time: with several threads waiting, the later ones wait on
 * the first one's stand-ins. */
void nb_itimer_pre_syscall(ThreadId tid, UInt sysno)
{
	ULong now;

	if (clo_time_host || wait_tid != VG_INVALID_THREADID || !nb_sys_may_wait(sysno))
		return;
	if (!itimer[0].armed && nb_ptimer_left_ns(True) == ~0ULL)
		return;
	nb_itimer_check();
	/* a wait for a child while it runs under nbsim: the expiry when a
	 * descendant's simulated clock reaches it (nb_simkin.c); its signal
	 * then comes as the call starts: the handler, then the call again or
	 * EINTR, as the program's SA_RESTART says */
	if ((sysno == __NR_wait4 || sysno == __NR_waitid) && only_thread(tid)) {
		ULong first = nb_ptimer_left_ns(True);

		now = nb_time_wall_ns();
		if (itimer[0].armed && (itimer[0].at > now ? itimer[0].at - now : 0) < first)
			first = itimer[0].at > now ? itimer[0].at - now : 0;
		if (nb_kin_wait(first)) {
			nb_itimer_check();
			return;
		}
	}
	wait_real_ns = wait_pt_ns = ~0ULL;
	if (itimer[0].armed) {
		now = nb_time_wall_ns();
		wait_real_ns = itimer[0].at > now ? itimer[0].at - now : 0;
		host_real_timer(wait_real_ns, NULL);
	}
	wait_pt_ns = nb_ptimer_standin();
	if (wait_real_ns == ~0ULL && wait_pt_ns == ~0ULL)
		return;
	wait_tid = tid;
	wait_host_ns = host_mono();
}

/* After it: the stand-ins disarmed.  One that expired sent its signal
 * itself, and the wall time reaches its expiry; else the wait's host time
 * passes (short of the first expiry, which the timers' own check decides).
 * True: the call's time is accounted (a sleep's request is not added). */
Bool nb_itimer_wait_end(ThreadId tid, ULong passed)
{
	struct vki_itimerval old;
	ULong waited = 0, first = wait_real_ns < wait_pt_ns ? wait_real_ns : wait_pt_ns;
	Bool fired = False;

	if (tid != wait_tid)
		return False;
	wait_tid = VG_INVALID_THREADID;
	if (wait_real_ns != ~0ULL) {
		host_real_timer(0, &old);
		if (!old.it_value.tv_sec && !old.it_value.tv_usec) {
			waited = wait_real_ns;
			fired = True;
			if (itimer[0].armed)
				itimer_rearm(0, nb_time_wall_ns() + waited);
		}
	}
	if (wait_pt_ns != ~0ULL && nb_ptimer_standin_end()) {
		if (wait_pt_ns > waited)
			waited = wait_pt_ns;
		fired = True;
	}
	if (!fired) {
		/* a wait that ran out its time before the timer: its own
		 * length (nb_timeout.c) */
		waited = passed < first ? passed : host_mono() - wait_host_ns;
		if (waited >= first)
			waited = first ? first - 1 : 0;
	}
	nb_time_pass(waited);
	return True;
}

/* The calling thread has a child process (running, or a zombie not yet
 * reaped), or it cannot be told: a child's exit (SIGCHLD) can end the
 * wait, at a moment of its own simulation.  coreutils' timeout(1) waits
 * so in sigsuspend with its timer armed: taking the timer's expiry at
 * once killed the command it runs. */
static Bool has_children(void)
{
	HChar path[64], buf[8];
	SysRes r;
	Int fd, n;

	VG_(snprintf)(path, sizeof path, "/proc/self/task/%d/children", VG_(gettid)());
	r = VG_(open)(path, VKI_O_RDONLY, 0);
	if (sr_isError(r))
		return True;            /* (no CONFIG_PROC_CHILDREN: the host's wait) */
	fd = (Int)sr_Res(r);
	n = VG_(read)(fd, buf, sizeof buf);
	VG_(close)(fd);
	return n != 0;
}

/* NBSIM_REQ_TIME NBSIM_TIME_IDLE from the preload's pause and sigsuspend
 * (the thread's signal mask during the wait at MASK_ADDR): if the process
 * is idle (TID its only thread, no child process) and the first
 * wall-clock timer's signal is
 * not blocked, the wall time passes to its expiry and the timer fires
 * (its signal sent to TID, for the wrapper to have it delivered). */
UWord nb_itimer_idle(ThreadId tid, UWord mask_addr)
{
	ULong mask, now, real_left = ~0ULL, pt_left, first;
	Int pt_sig = 0;

	if (clo_time_host)
		return NBSIM_TIME_HOST;
	if (!mask_addr || !VG_(am_is_valid_for_client)((Addr)mask_addr, sizeof mask, VKI_PROT_READ))
		return NBSIM_GP;
	mask = *(const ULong *)mask_addr;
	if (!only_thread(tid))
		return NBSIM_TIME_HOST;
	nb_itimer_check();
	if (itimer[0].armed) {
		now = nb_time_wall_ns();
		real_left = itimer[0].at > now ? itimer[0].at - now : 0;
	}
	pt_left = nb_ptimer_next(&pt_sig);
	first = real_left < pt_left ? real_left : pt_left;
	if (first == ~0ULL)
		return NBSIM_TIME_HOST;
	/* (the first timer's signal blocked: the host's wait, as before) */
	if (mask & (1ULL << ((real_left <= pt_left ? VKI_SIGALRM : pt_sig) - 1)))
		return NBSIM_TIME_HOST;
	/* a child's exit can end the wait first: the expiry comes when a
	 * descendant's simulated clock reaches it (nb_simkin.c) */
	if (has_children()) {
		if (!nb_kin_wait(first))
			return NBSIM_TIME_HOST;
		nb_itimer_check();
		return NBSIM_OK;
	}
	nb_time_pass(first);
	nb_itimer_check();
	return NBSIM_OK;
}
