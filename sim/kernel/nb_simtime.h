/*
 * nb_simtime.h - the simulated machine's time (nb_simtime.c): what the
 * guest's clocks and its time-stamp counter read under
 * --nbsim-time=simulated.  See docs/simulated-time.md.
 */
#ifndef NB_SIMTIME_H
#define NB_SIMTIME_H

#include "tool/nb_tool.h"
#include "nbsim_kern.h"
#include "pub_tool_vkiscnums.h"


void nb_time_init(void);
/* the time base runs (--nbsim-time=simulated) */
Bool nb_time_running(void);
/* NBSIM_REQ_TIME: clock clock_id in ns into *ns; False: the host's */
Bool nb_time_read(ThreadId tid, Long clock_id, ULong *ns);
/* NBSIM_REQ_TIME answered; False for any other request */
Bool nb_time_request(ThreadId tid, UWord *arg, UWord *ret);
/* the generated code's RDTSC (instead of VEX's amd64g_dirtyhelper_RDTSC) */
ULong nb_rdtsc_helper(void);
/* a thread starts running (track_start_client_code): CPU-time accounting */
void nb_time_switch(ThreadId tid);
Bool nb_time_quiet(ThreadId tid);        /* ... would do nothing          */
/* the running thread moved from LP FROM to the other (nb_affinity.c) */
void nb_time_moved(ThreadId tid, unsigned from);
/* after a system call: the clock system calls' results become the
 * simulated ones */
void nb_time_post_syscall(ThreadId tid, UInt sysno, UWord *args, SysRes res);
/* for the interval timers (nb_itimer.c): the wall time and the process's
 * CPU time in ns since the start; NS of wall time passes (a wait) */
ULong nb_time_wall_ns(void);
ULong nb_time_cpu_ns(void);
void nb_time_pass(ULong ns);
/* the simulated REALTIME, MONOTONIC and TSC now; an exec's new image
 * starts from the old one's clocks and CPU time (nb_simwait.c) */
void nb_time_abs(ULong *real, ULong *mono, ULong *tsc);
void nb_time_origin(ULong real, ULong mono, ULong tsc, ULong cpu_ns);
/* the time between processes (nb_simwait.c): an exec keeps the clocks, a
 * wait for a child moves the wall time to the child's end */
void nb_simwait_init(void);
void nb_simwait_fini(void);
void nb_simwait_pre_syscall(UInt sysno);
void nb_simwait_post_syscall(UInt sysno, UWord *args, SysRes res);
/* NBSIM_REQ_TIME for NBSIM_TIME_CHILDREN (the preload's getrusage
 * RUSAGE_CHILDREN and times()); False for any other request */
Bool nb_simwait_request(UWord *arg, UWord *ret);
/* a waiting parent's timers on its descendants' simulated time
 * (nb_simkin.c): the pages shared across fork and exec (nb_simwait.c
 * calls these), a descendant's progress, the parent's wait */
void nb_kin_before_fork(ULong my_start);
void nb_kin_after_fork(ThreadId tid, Int ppid, ULong pstart);
void nb_kin_get(Int *pid, ULong *start);
void nb_kin_set(const Int *pid, const ULong *start, ULong my_start);
void nb_kin_exec(void);
void nb_kin_leave(void);
void nb_kin_fini(void);
void nb_kin_pre_syscall(ThreadId tid, UInt sysno);
void nb_kin_runs(ThreadId tid);
void nb_kin_thread_create(void);
void nb_kin_thread_exit(ThreadId tid);
void nb_kin_tick(void);
/* nb_kin_runs(tid) and nb_kin_tick would do nothing */
Bool nb_kin_quiet(ThreadId tid);
/* the wall ns before the nearest waiting ancestor's expiry (~0: none) */
ULong nb_kin_left_ns(void);
/* pause/sigsuspend with a child: True if a descendant's clock reached the
 * first timer's expiry FIRST ns ahead (the wall time passed to it) */
Bool nb_kin_wait(ULong first);
/* the needs the time base adds (nb_need.c): the timing model */
UInt nb_time_need(void);

/* sysno is a system call that can block until a signal comes, or on
 * something outside the process (nb_itimer.c, nb_simkin.c) */
static inline Bool nb_sys_may_wait(UInt sysno)
{
	switch (sysno) {
	case __NR_pause: case __NR_rt_sigsuspend: case __NR_rt_sigtimedwait:
	case __NR_nanosleep: case __NR_clock_nanosleep:
	case __NR_select: case __NR_pselect6: case __NR_poll: case __NR_ppoll:
	case __NR_epoll_wait: case __NR_epoll_pwait: case __NR_futex:
	case __NR_wait4: case __NR_waitid: case __NR_read: case __NR_readv:
	case __NR_recvfrom: case __NR_recvmsg: case __NR_accept: case __NR_accept4:
	case __NR_connect: case __NR_msgrcv: case __NR_semop: case __NR_semtimedop:
	case __NR_flock:
		return True;
	default:
		return False;
	}
}

#endif /* NB_SIMTIME_H */
