/*
 * nb_front.c - nbsim's front-ends as the tool sees them: the emulated
 * kernel (nb_kern.c, nb_kern_task.c) and the program and counts files
 * (nb_progfile.c) behind one table of hooks (struct nb_front, nb_tool.h),
 * and the tool's entry point, which hands the table to the tool.
 *
 * Where both front-ends take an event, the order is the one each needs:
 *  - a thread runs: the perf driver first moves the events (sched out
 *    the last thread's, sched in this one's; then its tick), and only
 *    then the counts file reads the counters for the thread that ran
 *    before (its deltas are those of the PMU as the switch leaves it);
 *  - at init the program is written before the perf driver brings in the
 *    events that outlived an exec; at exit the driver reports its copies
 *    before the counts file is written;
 *  - a system call and a thread's exit: the counts file first (the exit
 *    status; the exiting thread's last deltas), then the driver (an
 *    execve's events, the exiting thread's copies);
 *  - the program's clocks (nb_simtime.c) come first at init (their need
 *    of the timing model is set before any counter is written) and last
 *    after a system call and at a thread switch (they read the clock the
 *    others left); their timers (nb_itimer.c, nb_ptimer.c) are checked
 *    there, before the switching thread's CPU time is accounted; a
 *    reaped child's end (nb_simwait.c) comes after a wait's own time;
 *    at exit the process's end goes to its parent first (its clocks as
 *    the guest left them).
 */
#include "nb_kern.h"
#include "nb_progfile.h"
#include "nb_simtime.h"
#include "nb_itimer.h"
#include "nb_ptimer.h"
#include "nb_sysinfo.h"
#include "nb_affinity.h"
#include "nb_cpulist.h"
#include "nb_entropy.h"
#include "nb_timeout.h"

/* A fork's child: no interval or POSIX timer (POSIX fork: not inherited) */
static void fr_before_fork(ThreadId tid)
{
	(void)tid;
	nb_entropy_pre_fork();
}

static void fr_after_fork(ThreadId tid)
{
	nb_entropy_child();
	nb_itimer_fork(tid);
	nb_affinity_fork();
}

/* the program's clock requests: the time base, its interval timers, its
 * POSIX timers */
static Bool fr_clock_request(ThreadId tid, UWord *arg, UWord *ret)
{
	if (arg[0] == NBSIM_REQ_PTIMER) {
		*ret = (UWord)nb_ptimer_request(tid, arg);
		return True;
	}
	if (arg[0] == NBSIM_REQ_TIME && (Long)arg[1] == NBSIM_TIME_IDLE) {
		*ret = nb_itimer_idle(tid, arg[2]);
		return True;
	}
	if (arg[0] == NBSIM_REQ_ITIMER) {
		*ret = nb_itimer_request((Int)arg[1], arg[2], arg[3]);
		return True;
	}
	return nb_simwait_request(arg, ret) || nb_time_request(tid, arg, ret);
}

static void fr_init(void)
{
	nb_time_init();
	nb_entropy_init();
	nb_simwait_init();               /* (the clocks an exec kept) */
	VG_(atfork)(fr_before_fork, NULL, fr_after_fork);
	nb_progfile_init();
	nb_kern_init();
	nb_affinity_init();              /* (an exec's binding) */
}

static void fr_fini(Int exitcode)
{
	nb_simwait_fini();
	nb_kern_fini();
	nb_progfile_fini(exitcode);
}

static void fr_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
	nb_progfile_pre_syscall(tid, sysno, args, nargs);
	nb_kern_pre_syscall(tid, sysno, args, nargs);
	nb_timeout_pre_syscall(tid, sysno, args);
	nb_itimer_pre_syscall(tid, sysno);
	nb_simwait_pre_syscall(sysno);
	nb_kin_pre_syscall(tid, sysno);
	nb_affinity_pre_syscall(tid, sysno, args);
}

static void fr_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs, SysRes res)
{
	nb_progfile_post_syscall(tid, sysno, args, nargs, res);
	nb_kern_post_syscall(sysno, res);
	{
		/* (before the timers: an expiry during the wait caps it) */
		ULong passed = nb_timeout_passed(tid, sysno, res);

		if (clo_time_host || !nb_itimer_wait_end(tid, passed))
			nb_time_pass(passed == ~0ULL ? 0 : passed);
		nb_time_post_syscall(tid, sysno, args, res);
	}
	nb_simwait_post_syscall(sysno, args, res);     /* (a child's end) */
	nb_kin_runs(tid);
	nb_sysinfo_post_syscall(tid, sysno, args, res);
	nb_entropy_post_syscall(sysno, args, res);
	nb_affinity_post_syscall(tid, sysno, args, res);   /* (a move: after the time's) */
	nb_cpulist_post_syscall(sysno, args, res);
}

static void fr_runs(ThreadId tid)
{
	static Bool at_random_done;

	if (!at_random_done) {           /* (before the process's first instruction) */
		at_random_done = True;
		nb_entropy_at_random();
	}
	nb_kern_switch(tid);             /* perf events follow their thread */
	nb_kern_tick(tid);               /* the perf driver's throttling */
	nb_progfile_switch(tid);
	if (nb_time_running()) {
		nb_kin_runs(tid);        /* (its clock to the waiting ancestors) */
		nb_kin_tick();
		nb_itimer_check();       /* expired timers (the time the others left) */
	}
	nb_time_switch(tid);             /* CPU time */
}

/* fr_runs for the thread that runs already: nothing to do?  (nb_tool.h) */
static Bool fr_runs_again(ThreadId tid)
{
	return nb_kern_quiet() && nb_progfile_current(tid) && nb_time_quiet(tid) &&
		(!nb_time_running() || (nb_kin_quiet(tid) && nb_itimer_quiet()));
}

static void fr_thread_create(ThreadId parent, ThreadId child)
{
	nb_itimer_thread_create(parent, child);
	nb_kin_thread_create();
	nb_kern_thread_create(parent, child);
	nb_affinity_thread_create(parent, child);
}

static void fr_thread_exit(ThreadId tid)
{
	nb_itimer_thread_exit(tid);
	nb_kin_thread_exit(tid);
	nb_progfile_thread_exit(tid);
	nb_kern_thread_exit(tid);
	nb_affinity_thread_exit(tid);
}

static const struct nb_front fronts = {
	.init = fr_init,
	.fini = fr_fini,
	.stats = nb_kern_stats,
	.request = nb_kern_request,
	.request_pmu = nb_kern_request_pmu,
	.pre_syscall = fr_pre_syscall,
	.post_syscall = fr_post_syscall,
	.runs = fr_runs,
	.runs_again = fr_runs_again,
	.thread_create = fr_thread_create,
	.thread_exit = fr_thread_exit,
	.pmi_claim = nb_kern_pmi,
	.clock_request = fr_clock_request,
	.rdtsc = nb_rdtsc_helper,
};

static void nb_front_start(void)
{
	nb_tool_start(&fronts);
}

VG_DETERMINE_INTERFACE_VERSION(nb_front_start)
