/*
 * vg_preload_time.c - the program's clocks in nbsim's preload library:
 * glibc answers clock_gettime, gettimeofday and time from the vDSO,
 * without a system call the tool could see, so these entry points (and
 * clock, times, getrusage, which glibc builds on them or on system calls)
 * are wrapped (valgrind.h I_WRAP_SONAME_FNNAME_ZU) to ask the tool for the
 * simulated time (NBSIM_REQ_TIME, nb_simtime.c).  A clock the tool does
 * not simulate, or --nbsim-time=host, goes to the real function.  System
 * calls made directly (syscall(SYS_clock_gettime, ...)) are answered by
 * the tool after the call (nb_simtime.c nb_time_post_syscall).  The
 * interval timers (setitimer, getitimer, alarm, ualarm: ITIMER_REAL,
 * ITIMER_VIRTUAL, ITIMER_PROF) run in the tool on simulated time, and the
 * host's are not armed (the tool arms the host's ITIMER_REAL itself while
 * the program waits in a system call).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>
#include "nbsim_kern.h"

#define LIBC libcZdsoZa
#define WRAP(fn) I_WRAP_SONAME_FNNAME_ZU(LIBC, fn)

static int sim_ns(clockid_t id, uint64_t *ns)
{
	return nbsim_time((long)id, ns) == NBSIM_OK;
}

int WRAP(clock_gettime)(clockid_t id, struct timespec *ts);
int WRAP(clock_gettime)(clockid_t id, struct timespec *ts)
{
	OrigFn o;
	long r;
	uint64_t ns;

	VALGRIND_GET_ORIG_FN(o);
	if (ts && sim_ns(id, &ns)) {
		ts->tv_sec = (time_t)(ns / 1000000000u);
		ts->tv_nsec = (long)(ns % 1000000000u);
		return 0;
	}
	CALL_FN_W_WW(r, o, id, ts);
	return (int)r;
}

int WRAP(gettimeofday)(struct timeval *tv, void *tz);
int WRAP(gettimeofday)(struct timeval *tv, void *tz)
{
	OrigFn o;
	long r;
	uint64_t ns;

	VALGRIND_GET_ORIG_FN(o);
	/* the time zone (obsolete) from the real call */
	CALL_FN_W_WW(r, o, tv, tz);
	if (r == 0 && tv && sim_ns(CLOCK_REALTIME, &ns)) {
		tv->tv_sec = (time_t)(ns / 1000000000u);
		tv->tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
	}
	return (int)r;
}

time_t WRAP(time)(time_t *t);
time_t WRAP(time)(time_t *t)
{
	OrigFn o;
	long r;
	uint64_t ns;

	VALGRIND_GET_ORIG_FN(o);
	if (sim_ns(CLOCK_REALTIME, &ns)) {
		r = (long)(ns / 1000000000u);
		if (t)
			*t = (time_t)r;
		return (time_t)r;
	}
	CALL_FN_W_W(r, o, t);
	return (time_t)r;
}

/* clock(3): the process's CPU time in CLOCKS_PER_SEC units (POSIX: 10^6) */
clock_t WRAP(clock)(void);
clock_t WRAP(clock)(void)
{
	OrigFn o;
	long r;
	uint64_t ns;

	VALGRIND_GET_ORIG_FN(o);
	if (sim_ns(CLOCK_PROCESS_CPUTIME_ID, &ns))
		return (clock_t)(ns / (1000000000u / CLOCKS_PER_SEC));
	CALL_FN_W_v(r, o);
	return (clock_t)r;
}

/* times(2): CPU times and the elapsed time in clock ticks; the simulated
 * kernel takes no time (tms_stime, tms_cstime 0); the children's are those
 * of the children waited for, as their nbsim reported them at exit
 * (nb_simwait.c) */
clock_t WRAP(times)(struct tms *buf);
clock_t WRAP(times)(struct tms *buf)
{
	OrigFn o;
	long r;
	uint64_t cpu, wall, kids;
	long hz = sysconf(_SC_CLK_TCK);

	VALGRIND_GET_ORIG_FN(o);
	CALL_FN_W_W(r, o, buf);
	if (r == -1 || hz <= 0 || !sim_ns(CLOCK_PROCESS_CPUTIME_ID, &cpu) ||
	    !sim_ns(CLOCK_MONOTONIC, &wall) || !sim_ns(NBSIM_TIME_CHILDREN, &kids))
		return (clock_t)r;
	if (buf) {
		buf->tms_utime = (clock_t)(cpu / (1000000000u / (uint64_t)hz));
		buf->tms_stime = 0;
		buf->tms_cutime = (clock_t)(kids / (1000000000u / (uint64_t)hz));
		buf->tms_cstime = 0;
	}
	return (clock_t)(wall / (1000000000u / (uint64_t)hz));
}

/* getrusage(2): user time simulated (the process's, with RUSAGE_THREAD
 * the thread's, with RUSAGE_CHILDREN the children's waited for), system
 * time 0; the other fields are the host's */
int WRAP(getrusage)(int who, struct rusage *ru);
int WRAP(getrusage)(int who, struct rusage *ru)
{
	OrigFn o;
	long r;
	uint64_t ns;
	clockid_t id = who == RUSAGE_SELF ? CLOCK_PROCESS_CPUTIME_ID :
		       who == RUSAGE_THREAD ? CLOCK_THREAD_CPUTIME_ID :
		       who == RUSAGE_CHILDREN ? (clockid_t)NBSIM_TIME_CHILDREN : (clockid_t)-1;

	VALGRIND_GET_ORIG_FN(o);
	CALL_FN_W_WW(r, o, who, ru);
	if (r == 0 && ru && id != (clockid_t)-1 && sim_ns(id, &ns)) {
		ru->ru_utime.tv_sec = (time_t)(ns / 1000000000u);
		ru->ru_utime.tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
		ru->ru_stime.tv_sec = 0;
		ru->ru_stime.tv_usec = 0;
	}
	return (int)r;
}

int WRAP(setitimer)(int which, const struct itimerval *nv, struct itimerval *ov);
int WRAP(setitimer)(int which, const struct itimerval *nv, struct itimerval *ov)
{
	OrigFn o;
	long r;
	int s;

	VALGRIND_GET_ORIG_FN(o);
	s = nbsim_itimer(which, nv, ov);
	if (s == NBSIM_OK)
		return 0;
	if (s == NBSIM_GP) {
		errno = EINVAL;         /* (a bad pointer: the kernel's EFAULT) */
		return -1;
	}
	CALL_FN_W_WWW(r, o, which, nv, ov);
	return (int)r;
}

int WRAP(getitimer)(int which, struct itimerval *cur);
int WRAP(getitimer)(int which, struct itimerval *cur)
{
	OrigFn o;
	long r;
	int s;

	VALGRIND_GET_ORIG_FN(o);
	s = nbsim_itimer(which, 0, cur);
	if (s == NBSIM_OK)
		return 0;
	if (s == NBSIM_GP) {
		errno = EFAULT;
		return -1;
	}
	CALL_FN_W_WW(r, o, which, cur);
	return (int)r;
}

/* alarm(2) (a system call of its own in glibc): ITIMER_REAL in whole
 * seconds; the seconds left of the previous one, rounded as Linux's
 * alarm_setitimer does (to the nearest, and at least 1 while any is left) */
unsigned int WRAP(alarm)(unsigned int seconds);
unsigned int WRAP(alarm)(unsigned int seconds)
{
	OrigFn o;
	long r;
	struct itimerval nv = { { 0, 0 }, { (time_t)seconds, 0 } }, ov;

	VALGRIND_GET_ORIG_FN(o);
	if (nbsim_itimer(ITIMER_REAL, &nv, &ov) == NBSIM_OK) {
		unsigned int left = (unsigned int)ov.it_value.tv_sec;

		if ((!left && ov.it_value.tv_usec) || ov.it_value.tv_usec >= 500000)
			left++;
		return left;
	}
	CALL_FN_W_W(r, o, seconds);
	return (unsigned int)r;
}

/* ualarm(3): ITIMER_REAL in microseconds, with an interval; the
 * microseconds left of the previous one */
useconds_t WRAP(ualarm)(useconds_t value, useconds_t interval);
useconds_t WRAP(ualarm)(useconds_t value, useconds_t interval)
{
	OrigFn o;
	long r;
	struct itimerval nv = { { (time_t)(interval / 1000000), (suseconds_t)(interval % 1000000) },
				{ (time_t)(value / 1000000), (suseconds_t)(value % 1000000) } }, ov;

	VALGRIND_GET_ORIG_FN(o);
	if (nbsim_itimer(ITIMER_REAL, &nv, &ov) == NBSIM_OK)
		return (useconds_t)(ov.it_value.tv_sec * 1000000 + ov.it_value.tv_usec);
	CALL_FN_W_WW(r, o, value, interval);
	return (useconds_t)r;
}

/* pause(2) and sigsuspend(2) in an idle process (its only thread waits
 * for a signal; nb_itimer.c nb_itimer_idle): the tool passes the wall time
 * to the first wall-clock timer's expiry and sends its signal.  It is
 * delivered here, under the wait's mask, by a system call that valgrind
 * follows with a look for pending signals (tgkill with signal 0, to this
 * thread), and the wait returns EINTR as Linux's would after the handler.
 * Else the real call waits on the host (another thread could end the
 * wait, or only a signal from outside can). */
static int idle_wait(const sigset_t *mask)
{
	sigset_t old;

	if (VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_TIME_HOST, NBSIM_REQ_TIME, NBSIM_TIME_IDLE,
					    mask, 0, 0, 0) != NBSIM_OK)
		return 0;
	sigprocmask(SIG_SETMASK, mask, &old);
	syscall(SYS_tgkill, (long)getpid(), (long)gettid(), 0L);
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = EINTR;
	return 1;
}

int WRAP(pause)(void);
int WRAP(pause)(void)
{
	OrigFn o;
	long r;
	sigset_t cur;

	VALGRIND_GET_ORIG_FN(o);
	if (sigprocmask(SIG_BLOCK, NULL, &cur) == 0 && idle_wait(&cur))
		return -1;
	CALL_FN_W_v(r, o);
	return (int)r;
}

int WRAP(sigsuspend)(const sigset_t *mask);
int WRAP(sigsuspend)(const sigset_t *mask)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	if (mask && idle_wait(mask))
		return -1;
	CALL_FN_W_W(r, o, mask);
	return (int)r;
}

/* POSIX timers (timer_create(2) and kin) on a clock nbsim simulates, with
 * a signal or no notification, run in the tool (nb_ptimer.c); their
 * timer_t is the tool's id, as glibc's is the kernel's.  A request the
 * tool gives back (NBSIM_PT_HOST: SIGEV_THREAD, another clock, a host
 * timer's id) goes to the real function. */
static int pt_result(long r)
{
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return (int)r;
}

int WRAP(timer_create)(clockid_t clock, struct sigevent *sev, timer_t *id);
int WRAP(timer_create)(clockid_t clock, struct sigevent *sev, timer_t *id)
{
	OrigFn o;
	long r;
	int kid = 0;

	VALGRIND_GET_ORIG_FN(o);
	r = nbsim_ptimer(NBSIM_PT_CREATE, (long)clock, sev, &kid, 0);
	if (r != NBSIM_PT_HOST) {
		if (r == 0) {
			if (!id)
				return pt_result(-EFAULT);
			*id = (timer_t)(intptr_t)kid;
		}
		return pt_result(r);
	}
	CALL_FN_W_WWW(r, o, clock, sev, id);
	return (int)r;
}

int WRAP(timer_settime)(timer_t id, int flags, const struct itimerspec *nv, struct itimerspec *ov);
int WRAP(timer_settime)(timer_t id, int flags, const struct itimerspec *nv, struct itimerspec *ov)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	r = nbsim_ptimer(NBSIM_PT_SET, (long)(intptr_t)id, (const void *)(intptr_t)flags, nv, ov);
	if (r != NBSIM_PT_HOST)
		return pt_result(r);
	CALL_FN_W_WWWW(r, o, id, flags, nv, ov);
	return (int)r;
}

int WRAP(timer_gettime)(timer_t id, struct itimerspec *cur);
int WRAP(timer_gettime)(timer_t id, struct itimerspec *cur)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	r = nbsim_ptimer(NBSIM_PT_GET, (long)(intptr_t)id, cur, 0, 0);
	if (r != NBSIM_PT_HOST)
		return pt_result(r);
	CALL_FN_W_WW(r, o, id, cur);
	return (int)r;
}

int WRAP(timer_getoverrun)(timer_t id);
int WRAP(timer_getoverrun)(timer_t id)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	r = nbsim_ptimer(NBSIM_PT_OVERRUN, (long)(intptr_t)id, 0, 0, 0);
	if (r != NBSIM_PT_HOST)
		return pt_result(r);
	CALL_FN_W_W(r, o, id);
	return (int)r;
}

int WRAP(timer_delete)(timer_t id);
int WRAP(timer_delete)(timer_t id)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	r = nbsim_ptimer(NBSIM_PT_DELETE, (long)(intptr_t)id, 0, 0, 0);
	if (r != NBSIM_PT_HOST)
		return pt_result(r);
	CALL_FN_W_W(r, o, id);
	return (int)r;
}
