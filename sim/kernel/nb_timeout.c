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
 * simulation does not know.  Futex waits with a timeout
 * (pthread_cond_timedwait) are left to the host: their deadline is the
 * program's (simulated) clock read by the host's kernel, which returns at
 * once, and the thread's next wait is its own.
 */
#include "tool/nb_tool.h"
#include "nb_simtime.h"
#include "nb_timeout.h"
#include "pub_tool_vkiscnums.h"

#define TIMER_ABSTIME_FLAG 1    /* uapi/linux/time.h TIMER_ABSTIME */
#define NONE (~0ULL)

/* each thread's wait: the ns it passes if it runs out (NONE: none), and
 * the wall time as it began */
static ULong want[NB_HT_MAXT], began[NB_HT_MAXT];

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

static ULong timeout_of(ThreadId tid, UInt sysno, const UWord *args)
{
	switch (sysno) {
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

	if (tid >= NB_HT_MAXT || (w = want[tid]) == NONE)
		return NONE;
	want[tid] = NONE;
	w = rest(tid, w);
	switch (sysno) {
	case __NR_nanosleep: case __NR_clock_nanosleep:
		return sr_isError(res) ? NONE : w;
	case __NR_rt_sigtimedwait:
		return sr_isError(res) && sr_Err(res) == VKI_EAGAIN ? w : NONE;
	default:                /* the poll family: 0 descriptors ready */
		return !sr_isError(res) && sr_Res(res) == 0 ? w : NONE;
	}
}
