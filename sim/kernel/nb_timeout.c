/*
 * nb_timeout.c - the simulated time a wait passes when it runs its whole
 * length (--nbsim-time=simulated).  The host's kernel runs the wait, on
 * the host's clock; the simulated clock, which advances only with the
 * cycles run, would stand still across it.  A program that waits "until a
 * deadline" by its own clock then never reaches it: Python's
 * asyncio.sleep(0.05) waits in epoll_wait with the time left, finds its
 * clock unmoved, and waits again, for ever.  So a wait that ran out its
 * time passes that time on the simulated wall clock (nb_time_pass), as
 * a sleep's does:
 *   nanosleep, clock_nanosleep   (success; TIMER_ABSTIME: up to the
 *                                deadline read on the simulated clock)
 *   poll, ppoll, select, pselect6, epoll_wait, epoll_pwait, epoll_pwait2
 *                                (0 ready: the timeout ran out)
 *   rt_sigtimedwait              (EAGAIN: no signal came in time)
 * Its timeout is read before the call (select, pselect6 and ppoll write
 * back the time left), and the wall time passes to the wait's end: less,
 * or nothing, if other threads' cycles moved it meanwhile.  A wait that ends early (a descriptor ready, a
 * signal) passes none: what ended it was the host's, at a moment the
 * simulation does not know.
 *
 * Futex waits with a timeout (pthread_cond_timedwait, sem_timedwait,
 * pthread_mutex_timedlock, futex_waitv) pass their time the same way when
 * they return ETIMEDOUT.  Most carry an absolute deadline computed on the
 * program's clock, the simulated one, which lags the host's: the host's
 * kernel would read it as past and return at once, with no time passed
 * and no chance for another thread to wake the waiter.  So for the call
 * the deadline is rewritten in place to the host's clock, the host's now
 * plus what is left of it on the simulated clock, and the program's value
 * put back after (a call that valgrind restarts without its post-syscall
 * hook finds it still rewritten: put back first).  Which operations wait
 * on which clock (kernel/futex/syscalls.c, futex_init_timeout; man 2
 * futex): FUTEX_WAIT, relative; FUTEX_WAIT_BITSET, FUTEX_WAIT_REQUEUE_PI
 * and FUTEX_LOCK_PI2, absolute, CLOCK_MONOTONIC unless
 * FUTEX_CLOCK_REALTIME; FUTEX_LOCK_PI, absolute on CLOCK_REALTIME;
 * futex_waitv, absolute on the clock its last argument names.
 */
#include "tool/nb_tool.h"
#include "nb_simtime.h"
#include "nb_timeout.h"
#include "pub_tool_vkiscnums.h"

#define TIMER_ABSTIME_FLAG 1    /* uapi/linux/time.h TIMER_ABSTIME */
#define NONE (~0ULL)

/* uapi/linux/futex.h */
#define FX_WAIT 0
#define FX_LOCK_PI 6
#define FX_WAIT_BITSET 9
#define FX_WAIT_REQUEUE_PI 11
#define FX_LOCK_PI2 13
#define FX_CMD_MASK 0x7f        /* ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME) */
#define FX_CLOCK_REALTIME 256
#define NR_FUTEX_WAITV 449      /* (Linux 5.16) */
#define FAR_S (1LL << 33)       /* s: a deadline past the year 2242, "never" */
#define ETIMEDOUT_ 110          /* uapi/asm-generic/errno.h ETIMEDOUT */

/* each thread's wait: the ns it passes if it runs out (NONE: none), and
 * the wall time as it began */
static ULong want[NB_HT_MAXT], began[NB_HT_MAXT];

/* each thread's futex deadline rewritten to the host's clock: where (0:
 * none), and the program's value */
static UWord fx_at[NB_HT_MAXT];
static struct vki_timespec fx_was[NB_HT_MAXT];

static Bool readable(UWord addr, SizeT len)
{
	return addr != 0 && VG_(am_is_valid_for_client)((Addr)addr, len, VKI_PROT_READ);
}

static ULong ts_at(UWord addr)
{
	const struct vki_timespec *ts = (const struct vki_timespec *)addr;

	if (!readable(addr, sizeof *ts) || ts->tv_sec < 0 || ts->tv_nsec < 0)
		return NONE;
	return (ULong)ts->tv_sec * 1000000000ULL + (ULong)ts->tv_nsec;
}

static ULong tv_at(UWord addr)
{
	const struct vki_timeval *tv = (const struct vki_timeval *)addr;

	if (!readable(addr, sizeof *tv) || tv->tv_sec < 0 || tv->tv_usec < 0)
		return NONE;
	return (ULong)tv->tv_sec * 1000000000ULL + (ULong)tv->tv_usec * 1000ULL;
}

static ULong ms_of(UWord ms)
{
	Int v = (Int)ms;

	return v < 0 ? NONE : (ULong)v * 1000000ULL;
}

/* clock_nanosleep to an absolute DEADLINE on CLOCK: what is left of it by
 * the simulated clock */
static ULong until(ThreadId tid, Long clock, ULong deadline)
{
	ULong now;

	if (deadline == NONE || !nb_time_read(tid, clock, &now))
		return NONE;
	return deadline > now ? deadline - now : 0;
}

/* The host's CLOCK now, in ns */
static ULong host_now(Long clock)
{
	struct vki_timespec ts;

	VG_(clock_gettime)(&ts, (vki_clockid_t)clock);
	return (ULong)ts.tv_sec * 1000000000ULL + (ULong)ts.tv_nsec;
}

/* A futex wait's absolute deadline at ADDR on CLOCK: rewritten to the
 * host's clock for the call (left as it is if it cannot be written: a
 * deadline in read-only memory); what is left of it on the simulated
 * clock, NONE if it is none */
static ULong fx_deadline(ThreadId tid, Long clock, UWord addr)
{
	struct vki_timespec *ts = (struct vki_timespec *)addr;
	ULong left = until(tid, clock, ts_at(addr)), h;

	if (left == NONE || ts->tv_nsec >= 1000000000L)
		return NONE;    /* (the host's kernel says EINVAL) */
	if (ts->tv_sec >= FAR_S)
		return NONE;    /* (as far on the host's clock: ns would overflow) */
	if (VG_(am_is_valid_for_client)((Addr)addr, sizeof *ts, VKI_PROT_WRITE)) {
		fx_at[tid] = addr;
		fx_was[tid] = *ts;
		h = host_now(clock) + left;
		ts->tv_sec = (Long)(h / 1000000000ULL);
		ts->tv_nsec = (Long)(h % 1000000000ULL);
	}
	return left;
}

/* after the call (or before its restart): the program's deadline back */
static void fx_restore(ThreadId tid)
{
	if (!fx_at[tid])
		return;
	if (VG_(am_is_valid_for_client)((Addr)fx_at[tid], sizeof fx_was[tid], VKI_PROT_WRITE))
		*(struct vki_timespec *)fx_at[tid] = fx_was[tid];
	fx_at[tid] = 0;
}

static ULong futex_timeout(ThreadId tid, const UWord *args)
{
	UWord op = args[1];
	Long clock = op & FX_CLOCK_REALTIME ? VKI_CLOCK_REALTIME : VKI_CLOCK_MONOTONIC;

	if (!args[3])
		return NONE;    /* (no timeout: waits until woken) */
	switch (op & FX_CMD_MASK) {
	case FX_WAIT:
		return ts_at(args[3]);
	case FX_WAIT_BITSET: case FX_WAIT_REQUEUE_PI: case FX_LOCK_PI2:
		return fx_deadline(tid, clock, args[3]);
	case FX_LOCK_PI:
		return fx_deadline(tid, VKI_CLOCK_REALTIME, args[3]);
	default:
		return NONE;
	}
}

static ULong timeout_of(ThreadId tid, UInt sysno, const UWord *args)
{
	switch (sysno) {
	case __NR_futex:
		return futex_timeout(tid, args);
	case NR_FUTEX_WAITV:
		if (!args[3] || ((Long)(Int)args[4] != VKI_CLOCK_MONOTONIC &&
				 (Long)(Int)args[4] != VKI_CLOCK_REALTIME))
			return NONE;
		return fx_deadline(tid, (Long)(Int)args[4], args[3]);
	case __NR_nanosleep:
		return ts_at(args[0]);
	case __NR_clock_nanosleep:
		if (args[1] & TIMER_ABSTIME_FLAG)
			return until(tid, (Long)(Int)args[0], ts_at(args[2]));
		return ts_at(args[2]);
	case __NR_poll:
		return ms_of(args[2]);
	case __NR_ppoll:
		return ts_at(args[2]);
	case __NR_select:
		return tv_at(args[4]);
	case __NR_pselect6:
		return ts_at(args[4]);
	case __NR_epoll_wait: case __NR_epoll_pwait:
		return ms_of(args[3]);
	case 441 /* __NR_epoll_pwait2 (Linux 5.11) */:
		return ts_at(args[3]);
	case __NR_rt_sigtimedwait:
		return ts_at(args[2]);
	default:
		return NONE;
	}
}

void nb_timeout_pre_syscall(ThreadId tid, UInt sysno, const UWord *args)
{
	if (tid >= NB_HT_MAXT)
		return;
	fx_restore(tid);
	want[tid] = clo_time_host ? NONE : timeout_of(tid, sysno, args);
	if (want[tid] != NONE)
		began[tid] = nb_time_wall_ns();
}

/* What the wait passes: up to its end, BEGAN + W, on the wall clock; what
 * other threads ran meanwhile already moved it (its time overlapped
 * theirs, as on the machine: the wall clock is the furthest of them). */
static ULong rest(ThreadId tid, ULong w)
{
	ULong end = began[tid] + w, now = nb_time_wall_ns();

	return end > now ? end - now : 0;
}

ULong nb_timeout_passed(ThreadId tid, UInt sysno, SysRes res)
{
	ULong w;

	if (tid >= NB_HT_MAXT)
		return NONE;
	fx_restore(tid);
	if ((w = want[tid]) == NONE)
		return NONE;
	want[tid] = NONE;
	w = rest(tid, w);
	switch (sysno) {
	case __NR_nanosleep: case __NR_clock_nanosleep:
		return sr_isError(res) ? NONE : w;
	case __NR_rt_sigtimedwait:
		return sr_isError(res) && sr_Err(res) == VKI_EAGAIN ? w : NONE;
	case __NR_futex: case NR_FUTEX_WAITV:
		return sr_isError(res) && sr_Err(res) == ETIMEDOUT_ ? w : NONE;
	default:                /* the poll family: 0 descriptors ready */
		return !sr_isError(res) && sr_Res(res) == 0 ? w : NONE;
	}
}
