/*
 * nb_ptimer.c - POSIX timers (timer_create(2) and its kin) in simulated
 * time (--nbsim-time=simulated), reached through the preload library's
 * wrappers (vg_preload_time.c, NBSIM_REQ_PTIMER).
 *
 * nbsim runs the timers whose clock it simulates (REALTIME, MONOTONIC,
 * BOOTTIME on the wall time; PROCESS_CPUTIME_ID, THREAD_CPUTIME_ID on the
 * CPU time) and whose notification is a signal (SIGEV_SIGNAL, to the
 * process; SIGEV_THREAD_ID, to one thread) or none (SIGEV_NONE).  Others
 * stay the host's: SIGEV_THREAD (glibc starts a helper thread that waits for
 * a signal from the kernel's timer), other clocks (the _ALARM ones, another
 * process's CPU clock).  A timer's ids are apart from the kernel's (which
 * counts from 0), so the wrappers can give any other id to the host.
 *
 * Expiry: as the interval timers (nb_itimer.c), checked at each entry of
 * valgrind's scheduler, which is brought back within a superblock of the
 * next expiry.  The signal carries what Linux's does (si_code SI_TIMER,
 * the timer's id, its overrun, sigev_value: timer_create(2)), sent to the
 * thread with rt_tgsigqueueinfo, which Linux allows with any si_code for a
 * thread of the sender's own process.  Intervals that passed whole before
 * a check are overruns (timer_getoverrun), not more signals.
 *
 * While a thread waits in a system call, the earliest wall-clock timer has
 * a host stand-in (a kernel timer with the same signal and value, armed
 * for the simulated time left; nb_itimer.c keeps the wait's accounts).
 */
#include "tool/nb_tool.h"
#include "nb_simtime.h"
#include "nb_ptimer.h"
#include "pub_tool_vkiscnums.h"

extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3, UWord a4,
			      UWord a5, UWord a6, UWord a7, UWord a8);  /* (coregrind) */

#define PT_MAX     64
#define PT_ID_BASE 0x4e420000           /* ("NB"): far from the kernel's ids */
#define SI_TIMER   (-2)                 /* (Linux's si_code for a POSIX timer) */
#define SIGEV_SIGNAL_ 0
#define SIGEV_NONE_   1

static struct ptimer {
	Bool used, armed, host_fired;
	Int clock;                      /* the clockid                        */
	ThreadId owner;                 /* THREAD_CPUTIME_ID: whose CPU time  */
	Int notify, signo, target;      /* target: SIGEV_THREAD_ID's thread   */
	UWord value;                    /* sigev_value                        */
	ULong at, interval;             /* absolute ns on the timer's clock   */
	Int overrun;                    /* of the last expiry                 */
} pt[PT_MAX];
/* one past the highest slot ever created since the start or the fork:
 * the checks at every entry of the scheduler (nb_itimer.c) look at no
 * slot in a program that creates no timer */
static Int pt_hi;

/* the host stand-in of a wait: its kernel timer id and which timer */
static Int standin_kid = -1, standin_of = -1;

static Bool wall_clock(Int clock)
{
	return clock == VKI_CLOCK_REALTIME || clock == VKI_CLOCK_MONOTONIC || clock == 7;
}

static Bool simulated_clock(Int clock)
{
	return wall_clock(clock) || clock == VKI_CLOCK_PROCESS_CPUTIME_ID ||
	       clock == VKI_CLOCK_THREAD_CPUTIME_ID;
}

static ULong now_of(const struct ptimer *t)
{
	ULong ns = 0;

	(void)nb_time_read(t->owner, t->clock, &ns);
	return ns;
}

static struct ptimer *lookup(Long id)
{
	Long i = id - PT_ID_BASE;

	if (i < 0 || i >= PT_MAX || !pt[i].used)
		return NULL;
	return &pt[i];
}

static ULong ts_ns(const struct vki_timespec *ts)
{
	return (ULong)ts->tv_sec * 1000000000ULL + (ULong)ts->tv_nsec;
}

static void ns_ts(struct vki_timespec *ts, ULong ns)
{
	ts->tv_sec = (Long)(ns / 1000000000ULL);
	ts->tv_nsec = (Long)(ns % 1000000000ULL);
}

static Bool readable(UWord a, SizeT n)
{
	return a && VG_(am_is_valid_for_client)((Addr)a, n, VKI_PROT_READ);
}

static Bool writable(UWord a, SizeT n)
{
	return a && VG_(am_is_valid_for_client)((Addr)a, n, VKI_PROT_WRITE);
}

static Long pt_create(ThreadId tid, Int clock, UWord sevp, UWord idp)
{
	Int notify = SIGEV_SIGNAL_, signo = VKI_SIGALRM, target = 0;
	UWord value = 0;
	Int i;

	if (!simulated_clock(clock))
		return NBSIM_PT_HOST;
	if (sevp) {
		const vki_sigevent_t *sev = (const vki_sigevent_t *)sevp;

		if (!readable(sevp, sizeof *sev))
			return -VKI_EFAULT;
		notify = sev->sigev_notify;
		if (notify != SIGEV_SIGNAL_ && notify != SIGEV_NONE_ && notify != VKI_SIGEV_THREAD_ID)
			return NBSIM_PT_HOST;   /* SIGEV_THREAD: glibc's helper thread */
		signo = sev->sigev_signo;
		value = (UWord)sev->sigev_value.sival_ptr;
		target = sev->vki_sigev_notify_thread_id;
		if (notify != SIGEV_NONE_ && (signo < 1 || signo > VKI_SIGRTMAX))
			return -VKI_EINVAL;
		if (notify == VKI_SIGEV_THREAD_ID && target <= 0)
			return -VKI_EINVAL;
	}
	if (!writable(idp, sizeof(Int)))
		return -VKI_EFAULT;
	for (i = 0; i < PT_MAX && pt[i].used; i++)
		;
	if (i == PT_MAX)
		return -VKI_EAGAIN;     /* (Linux: the signal queue's limit) */
	VG_(memset)(&pt[i], 0, sizeof pt[i]);
	pt[i].used = True;
	if (i >= pt_hi)
		pt_hi = i + 1;
	pt[i].clock = clock;
	pt[i].owner = tid;
	pt[i].notify = notify;
	pt[i].signo = signo;
	pt[i].target = target;
	/* no sigevent: the value is the timer's id (timer_create(2)) */
	pt[i].value = sevp ? value : (UWord)(PT_ID_BASE + i);
	*(Int *)idp = PT_ID_BASE + i;   /* (glibc: timer_t is the id, as a pointer) */
	return 0;
}

static void get(const struct ptimer *t, struct vki_itimerspec *v)
{
	ULong now = now_of(t);

	ns_ts(&v->it_interval, t->armed ? t->interval : 0);
	ns_ts(&v->it_value, t->armed ? (t->at > now ? t->at - now : 1) : 0);
}

static Long pt_set(struct ptimer *t, UWord flags, UWord newp, UWord oldp)
{
	const struct vki_itimerspec *nv = (const struct vki_itimerspec *)newp;
	ULong v;

	if (!readable(newp, sizeof *nv) || (oldp && !writable(oldp, sizeof *nv)))
		return -VKI_EFAULT;
	if (nv->it_value.tv_sec < 0 || nv->it_value.tv_nsec < 0 ||
	    nv->it_value.tv_nsec >= 1000000000 || nv->it_interval.tv_sec < 0 ||
	    nv->it_interval.tv_nsec < 0 || nv->it_interval.tv_nsec >= 1000000000)
		return -VKI_EINVAL;
	nb_ptimer_check();              /* (an expiry due before the change) */
	if (oldp)
		get(t, (struct vki_itimerspec *)oldp);
	v = ts_ns(&nv->it_value);
	t->armed = v != 0;
	t->interval = ts_ns(&nv->it_interval);
	t->at = (flags & 1 /* TIMER_ABSTIME */) ? v : now_of(t) + v;
	t->overrun = 0;
	t->host_fired = False;
	return 0;
}

Word nb_ptimer_request(ThreadId tid, const UWord *arg)
{
	struct ptimer *t;

	if (clo_time_host)
		return NBSIM_PT_HOST;
	if (arg[1] == NBSIM_PT_CREATE)
		return pt_create(tid, (Int)arg[2], arg[3], arg[4]);
	t = lookup((Long)(Int)arg[2]);
	if (!t)
		return NBSIM_PT_HOST;
	switch (arg[1]) {
	case NBSIM_PT_SET:
		return pt_set(t, arg[3], arg[4], arg[5]);
	case NBSIM_PT_GET:
		if (!writable(arg[3], sizeof(struct vki_itimerspec)))
			return -VKI_EFAULT;
		nb_ptimer_check();
		get(t, (struct vki_itimerspec *)arg[3]);
		return 0;
	case NBSIM_PT_OVERRUN:
		return t->overrun;
	case NBSIM_PT_DELETE:
		t->used = t->armed = False;
		return 0;
	default:
		return -VKI_EINVAL;
	}
}

/* the signal of timer T's expiry, as Linux sends it */
static void notify(const struct ptimer *t)
{
	vki_siginfo_t si;
	Int to = t->notify == VKI_SIGEV_THREAD_ID ? t->target : VG_(gettid)();

	VG_(memset)(&si, 0, sizeof si);
	si.si_signo = t->signo;
	si.si_code = SI_TIMER;
	si._sifields._timer._tid = (vki_timer_t)(Word)(PT_ID_BASE + (t - pt));
	si._sifields._timer._overrun = t->overrun;
	si._sifields._timer._sigval.sival_ptr = (void *)t->value;
	VG_(do_syscall)(__NR_rt_tgsigqueueinfo, (UWord)nb_pid(), (UWord)to,
			(UWord)t->signo, (UWord)&si, 0, 0, 0, 0);
}

Bool nb_ptimer_check(void)
{
	Bool sent = False;

	for (Int i = 0; i < pt_hi; i++) {
		struct ptimer *t = &pt[i];
		ULong now;

		if (!t->armed || (now = now_of(t)) < t->at)
			continue;
		if (t->interval) {
			ULong missed = (now - t->at) / t->interval;

			t->overrun = missed > 0x7fffffff ? 0x7fffffff : (Int)missed;
			t->at += (missed + 1) * t->interval;
		} else {
			t->overrun = 0;
			t->armed = False;
		}
		if (t->host_fired) {            /* (the stand-in sent it) */
			t->host_fired = False;
			continue;
		}
		if (t->notify != SIGEV_NONE_) {
			notify(t);
			sent = True;
		}
	}
	return sent;
}

ULong nb_ptimer_left_ns(Bool wall_only)
{
	ULong left = ~0ULL;

	for (Int i = 0; i < pt_hi; i++) {
		const struct ptimer *t = &pt[i];
		ULong now, l;

		if (!t->armed || (wall_only && (!wall_clock(t->clock) || t->notify == SIGEV_NONE_)))
			continue;
		now = now_of(t);
		l = t->at > now ? t->at - now : 0;
		if (l < left)
			left = l;
	}
	return left;
}

/* the armed wall-clock timer that signals first (-1: none), its ns left */
static Int earliest_wall(ULong *left)
{
	Int best = -1;

	*left = ~0ULL;
	for (Int i = 0; i < pt_hi; i++) {
		const struct ptimer *t = &pt[i];
		ULong now, l;

		if (!t->armed || !wall_clock(t->clock) || t->notify == SIGEV_NONE_)
			continue;
		now = now_of(t);
		l = t->at > now ? t->at - now : 0;
		if (l < *left) {
			*left = l;
			best = i;
		}
	}
	return best;
}

ULong nb_ptimer_next(Int *signo)
{
	ULong left;
	Int best = earliest_wall(&left);

	if (best >= 0)
		*signo = pt[best].signo;
	return left;
}

ULong nb_ptimer_standin(void)
{
	ULong left;
	Int best = earliest_wall(&left);
	vki_sigevent_t sev;
	struct vki_itimerspec v;
	Int kid = -1;
	SysRes r;

	if (best < 0)
		return ~0ULL;
	VG_(memset)(&sev, 0, sizeof sev);
	sev.sigev_notify = pt[best].notify;
	sev.sigev_signo = pt[best].signo;
	sev.sigev_value.sival_ptr = (void *)pt[best].value;
	sev.vki_sigev_notify_thread_id = pt[best].target;
	r = VG_(do_syscall)(__NR_timer_create, VKI_CLOCK_MONOTONIC, (UWord)&sev, (UWord)&kid,
			    0, 0, 0, 0, 0);
	if (sr_isError(r))
		return ~0ULL;
	VG_(memset)(&v, 0, sizeof v);
	ns_ts(&v.it_value, left ? left : 1);
	VG_(do_syscall)(__NR_timer_settime, (UWord)kid, 0, (UWord)&v, 0, 0, 0, 0, 0);
	standin_kid = kid;
	standin_of = best;
	return left;
}

Bool nb_ptimer_standin_end(void)
{
	struct vki_itimerspec v;
	Bool fired;

	if (standin_kid < 0)
		return False;
	VG_(memset)(&v, 0, sizeof v);
	VG_(do_syscall)(__NR_timer_gettime, (UWord)standin_kid, (UWord)&v, 0, 0, 0, 0, 0, 0);
	VG_(do_syscall)(__NR_timer_delete, (UWord)standin_kid, 0, 0, 0, 0, 0, 0, 0);
	fired = !v.it_value.tv_sec && !v.it_value.tv_nsec;
	if (fired && pt[standin_of].armed)
		pt[standin_of].host_fired = True;
	standin_kid = standin_of = -1;
	return fired;
}

void nb_ptimer_fork(void)
{
	/* POSIX fork: the child has none of the parent's timers */
	VG_(memset)(pt, 0, sizeof pt);
	pt_hi = 0;
	standin_kid = standin_of = -1;
}
