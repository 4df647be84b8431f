/*
 * nb_simtime.c - the simulated machine's time: what the guest's clocks
 * (clock_gettime, gettimeofday, time, clock, times, getrusage) and its
 * time-stamp counter (RDTSC) read, derived from the timing model's cycles
 * at the modelled part's clock, so that a program that times itself
 * reports the simulated Pentium 4's figures (docs/simulated-time.md).
 *
 * The time base starts with the program: the timing model runs from its
 * first instruction (a lazy start at the first read would gain nothing:
 * the dynamic loader reads the TSC in its first function, glibc's rtld
 * start-up timing).  Then:
 *   - wall time (REALTIME, MONOTONIC, BOOTTIME, the TSC) advances with the
 *     package: the furthest logical processor's clock, plus the time the
 *     program asked to sleep (nanosleep, clock_nanosleep);
 *   - a thread's CPU time is the cycles its logical processor's clock ran
 *     while the thread ran; the process's is the sum over its threads;
 *   - the absolute values start from the host's clocks as nbsim started,
 *     so REALTIME stays a plausible date, each rounded down to a whole
 *     second (the TSC to a second of the model's clock): the phase of
 *     every reading within its second, and so how many times a program's
 *     loop that waits for the next microsecond or tick runs, is then the
 *     simulated cycles' alone, not the host's start time's.
 * The TSC: on family 15 models 0-2 it counts core clocks, on models 3 and
 * later at a constant rate, the part's maximum core ratio (Intel SDM vol. 3B,
 * "Time-Stamp Counter", seed 006); nbsim models no frequency change, so
 * both count the modelled part's nominal clock (nb_cpu->mhz).
 *
 * Interval and POSIX timers run on this time base (nb_itimer.c,
 * nb_ptimer.c); the front-end (nb_front.c) calls them.
 *
 * What the simulated time leaves out: the kernel (system time reads 0),
 * page faults, and blocking waits other than sleeps, waits that run out
 * their timeout (nb_timeout.c) and waits for ITIMER_REAL (a read of a
 * pipe, a futex wait for another thread: the other side's simulated
 * cycles are what advance the package's clock).
 */
#include "tool/nb_tool.h"
#include "nb_simtime.h"
#include "pub_tool_vkiscnums.h"



static Bool started;                    /* the time base runs            */
static uint64_t org_lp[2];              /* each LP's clock at the start  */
static ULong host_real_ns, host_mono_ns, host_tsc;  /* the host's, at start */
static ULong slept_ns;                  /* wall time slept since start   */
static ULong cpu_base_ns;               /* CPU time before an exec       */
static ThreadId run_tid;                /* the thread whose CPU time runs */
static ULong cpu_cyc[NB_HT_MAXT];       /* each thread's CPU cycles      */
static uint64_t cpu_mark[NB_HT_MAXT];   /* its LP's clock when it began  */

static ULong ts_ns(const struct vki_timespec *ts)
{
	return (ULong)ts->tv_sec * 1000000000ULL + (ULong)ts->tv_nsec;
}

static uint64_t lp_clock(unsigned lp);

/* A fork's child starts with no CPU time (Linux zeroes the child's times)
 * and no interval timer (POSIX fork: not inherited). */
static void time_after_fork(ThreadId tid)
{
	VG_(memset)(cpu_cyc, 0, sizeof cpu_cyc);
	cpu_base_ns = 0;
	run_tid = tid;
	if (tid < NB_HT_MAXT)
		cpu_mark[tid] = lp_clock(nb_lp_of(tid));
}

void nb_time_init(void)
{
	struct vki_timespec ts;

	VG_(clock_gettime)(&ts, VKI_CLOCK_REALTIME);
	host_real_ns = ts_ns(&ts) / 1000000000ULL * 1000000000ULL;
	VG_(clock_gettime)(&ts, VKI_CLOCK_MONOTONIC);
	host_mono_ns = ts_ns(&ts) / 1000000000ULL * 1000000000ULL;
	/* the host's TSC as the origin: a plausible, non-zero start value */
	host_tsc = __builtin_ia32_rdtsc() / ((ULong)nb_cpu->mhz * 1000000ULL) *
		   ((ULong)nb_cpu->mhz * 1000000ULL);
	started = !clo_time_host;
	run_tid = 1;
	VG_(atfork)(NULL, NULL, time_after_fork);
	/* the timing model from the first instruction (declared before the
	 * tool sets its needs: nothing is translated yet) */
	nb_need_clock = nb_time_need();
	nb_cold = clo_cold && nb_need_clock != 0;
	nb_need_preload = True;
	nb_update_need();
	nb_need_preload = False;
}

/* The clock of logical processor lp so far (0 before the time base runs). */
static uint64_t lp_clock(unsigned lp)
{
	if (!started)
		return 0;
	return nb_tms_peek(&nb_tm_lp[lp]) - org_lp[lp];
}

Bool nb_time_running(void)
{
	return started;
}

UInt nb_time_need(void)
{
	if (clo_time_host)
		return 0;
	return NEED_TIME | NEED_BR | (clo_mem_timing != MT_NO ? NEED_CACHE : 0);
}

static ULong wall_cycles(void)
{
	uint64_t a, b;

	nb_lean_fold();
	a = lp_clock(0);
	b = clo_ht ? lp_clock(1) : 0;
	return a > b ? a : b;
}

static ULong cyc_ns(ULong c)
{
	/* c * 1000 / mhz without overflow for any run (2^64 ns is 584 years) */
	return c / nb_cpu->mhz * 1000 + c % nb_cpu->mhz * 1000 / nb_cpu->mhz;
}

static ULong thread_cycles(ThreadId tid)
{
	ULong c;

	if (tid >= NB_HT_MAXT)
		return 0;
	c = cpu_cyc[tid];
	if (tid == run_tid)
		c += lp_clock(nb_lp_of(tid)) - cpu_mark[tid];
	return c;
}

static ULong process_cycles(void)
{
	ULong c = 0;

	for (ThreadId t = 0; t < NB_HT_MAXT; t++)
		c += cpu_cyc[t];
	if (run_tid < NB_HT_MAXT)
		c += lp_clock(nb_lp_of(run_tid)) - cpu_mark[run_tid];
	return c;
}

static Bool writable(UWord addr, SizeT len);

Bool nb_time_quiet(ThreadId tid)
{
	return !started || tid == run_tid;
}

void nb_time_switch(ThreadId tid)
{
	if (!started)
		return;
	if (tid == run_tid)
		return;
	nb_lean_fold();
	if (run_tid < NB_HT_MAXT)
		cpu_cyc[run_tid] += lp_clock(nb_lp_of(run_tid)) - cpu_mark[run_tid];
	run_tid = tid;
	if (tid < NB_HT_MAXT)
		cpu_mark[tid] = lp_clock(nb_lp_of(tid));
}

/* Running thread tid moved from LP `from` to the other (its binding,
 * nb_affinity.c): its CPU time so far is the old LP's clock's, from
 * here the new one's. */
void nb_time_moved(ThreadId tid, unsigned from)
{
	if (!started || tid != run_tid || tid >= NB_HT_MAXT)
		return;
	cpu_cyc[tid] += lp_clock(from) - cpu_mark[tid];
	cpu_mark[tid] = lp_clock(nb_lp_of(tid));
}

/* The wall time since the start, in ns. */
static ULong wall_ns(void)
{
	return cyc_ns(wall_cycles()) + slept_ns;
}

ULong nb_time_wall_ns(void)
{
	return wall_ns();
}

ULong nb_time_cpu_ns(void)
{
	nb_lean_fold();
	return cpu_base_ns + cyc_ns(process_cycles());
}

void nb_time_abs(ULong *real, ULong *mono, ULong *tsc)
{
	ULong w = wall_ns();

	*real = host_real_ns + w;
	*mono = host_mono_ns + w;
	*tsc = host_tsc + wall_cycles() + slept_ns / 1000 * nb_cpu->mhz;
}

void nb_time_origin(ULong real, ULong mono, ULong tsc, ULong cpu_ns)
{
	host_real_ns = real;
	host_mono_ns = mono;
	host_tsc = tsc;
	cpu_base_ns = cpu_ns;
}

void nb_time_pass(ULong ns)
{
	slept_ns += ns;
}

Bool nb_time_read(ThreadId tid, Long clock_id, ULong *ns)
{
	if (clo_time_host)
		return False;
	switch (clock_id) {
	case NBSIM_TIME_TSC:
		/* (wall cycles; a sleep's time at the same rate) */
		*ns = host_tsc + wall_cycles() + slept_ns / 1000 * nb_cpu->mhz;
		return True;
	case VKI_CLOCK_REALTIME: case 5 /* REALTIME_COARSE */:
		*ns = host_real_ns + wall_ns();
		return True;
	case VKI_CLOCK_MONOTONIC: case 4 /* MONOTONIC_RAW */: case 6 /* MONOTONIC_COARSE */:
	case 7 /* BOOTTIME */:
		*ns = host_mono_ns + wall_ns();
		return True;
	case VKI_CLOCK_PROCESS_CPUTIME_ID:
		*ns = nb_time_cpu_ns();
		return True;

	case VKI_CLOCK_THREAD_CPUTIME_ID:
		nb_lean_fold();
		*ns = cyc_ns(thread_cycles(tid));
		return True;
	default:                /* another process's or thread's clock, TAI, ... */
		return False;
	}
}

/* (--nbsim-time=host: the host's TSC, as valgrind's own RDTSC helper reads) */
ULong nb_rdtsc_helper(void)
{
	ULong v;

	if (!nb_time_read(VG_(get_running_tid)(), NBSIM_TIME_TSC, &v))
		v = __builtin_ia32_rdtsc();
	return v;
}

/* ---- the client requests (the preload library's wrappers) ---- */

Bool nb_time_request(ThreadId tid, UWord *arg, UWord *ret)
{
	ULong ns;

	if (arg[0] != NBSIM_REQ_TIME)
		return False;
	if (!nb_time_read(tid, (Long)arg[1], &ns)) {
		*ret = NBSIM_TIME_HOST;
	} else if (!writable(arg[2], sizeof(ULong))) {
		VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf,
			      "TIME: %#lx is not a writable address", arg[2]);
		*ret = NBSIM_GP;
	} else {
		*(ULong *)arg[2] = ns;
		*ret = NBSIM_OK;
	}
	return True;
}

/* ---- the clocks' system calls ---- */

static Bool writable(UWord addr, SizeT len)
{
	return addr != 0 && VG_(am_is_valid_for_client)((Addr)addr, len, VKI_PROT_WRITE);
}

static void put_timespec(UWord addr, ULong ns)
{
	struct vki_timespec *ts = (struct vki_timespec *)addr;

	if (!writable(addr, sizeof *ts))
		return;
	ts->tv_sec = (Long)(ns / 1000000000ULL);
	ts->tv_nsec = (Long)(ns % 1000000000ULL);
}

static void put_timeval(UWord addr, ULong ns)
{
	struct vki_timeval *tv = (struct vki_timeval *)addr;

	if (!writable(addr, sizeof *tv))
		return;
	tv->tv_sec = (Long)(ns / 1000000000ULL);
	tv->tv_usec = (Long)(ns % 1000000000ULL / 1000);
}

void nb_time_post_syscall(ThreadId tid, UInt sysno, UWord *args, SysRes res)
{
	ULong ns;

	if (clo_time_host)
		return;
	if (sr_isError(res))
		return;
	switch (sysno) {
	case __NR_clock_gettime:
		if (nb_time_read(tid, (Long)(Int)args[0], &ns))
			put_timespec(args[1], ns);
		break;
	case __NR_gettimeofday:
		if (nb_time_read(tid, VKI_CLOCK_REALTIME, &ns))
			put_timeval(args[0], ns);
		break;
	default:
		break;
	}
}
