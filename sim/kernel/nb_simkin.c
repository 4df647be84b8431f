/*
 * nb_simkin.c - a waiting parent's timers on its children's simulated
 * time (--nbsim-time=simulated; docs/simulated-time.md "Processes").
 *
 * A parent that waits for a signal while a wall-clock timer runs and a
 * child works (coreutils' timeout(1): timer_create or alarm, then
 * sigsuspend until SIGCHLD or the timer's signal) runs no code, so its
 * simulated clock cannot reach the expiry by itself; the host's timer that
 * stood in for it (nb_itimer.c) fired after the host's seconds, in which
 * the child, simulated 20-100 times slower, did a small part of its own:
 * `timeout 5 cmd` killed cmd after some 50-250 ms of cmd's simulated time.
 * On the machine the two share the clock: the parent's timer expires when
 * the time the child has run reaches it.
 *
 * So each process that forks under simulated time has a page,
 * $TMPDIR/nbsim-time-UID-PID.kin, mapped shared by it and by its
 * descendants under nbsim (up to KIN_DEPTH generations: a shell between
 * timeout and the command).  A descendant writes there, at each entry of
 * valgrind's scheduler, how far its simulated MONOTONIC has come (its
 * clocks go on from its parent's at the fork: nb_simwait.c), and counts
 * its threads that run guest code (not blocked in a system call that can
 * wait).  The parent, about to wait in pause or sigsuspend with a
 * wall-clock timer armed and a child running (nb_itimer_idle), or in
 * wait4 or waitid (nb_itimer_pre_syscall), waits on
 * the host until a descendant's clock passes the expiry: its wall time
 * then moves exactly to the expiry and the timer fires, as in an idle
 * process.  It stops waiting so, and waits on the host as before (the
 * host's timer for the simulated time left), with its wall time moved to
 * the furthest descendant's clock, when a child has exited, a signal is
 * pending, no descendant runs (all blocked: only the host can end that
 * wait), or none has moved for KIN_STALL_MS of host time (one killed
 * without its exit, or a system call of minutes).
 *
 * What stays host-timed: where the child is when the parent's handler
 * acts on it (the child runs on while the parent wakes), as on the
 * machine the two run side by side; the counts of either never depend
 * on it.
 */
#include "tool/nb_tool.h"
#include "nb_simtime.h"
#include "nb_kern_int.h"
#include "pub_tool_vkiscnums.h"

/* (coregrind's pub_core_aspacemgr.h; libcoregrind exports it) */
extern SysRes VG_(am_shared_mmap_file_float_valgrind)(SizeT length, UInt prot, Int fd,
						       Off64T offset);

#define KIN_MAGIC 0x6e626b696e706167ULL     /* "nbkinpag" */
#define KIN_DEPTH 4
#define KIN_SIZE 4096
#define KIN_POLL_NS 1000000ULL              /* the waiting parent's look: 1 ms */
#define KIN_STALL_MS 2000ULL              /* no descendant moved: the host's wait */

struct kin_page {
	ULong magic, start;             /* the owner and its start time      */
	volatile ULong progress;        /* the furthest descendant's MONOTONIC */
	volatile ULong deadline;        /* the owner's expiry while it waits  */
	volatile Int running;           /* descendants' threads running code  */
};

static struct kin_page *own;            /* this process's page (once it forks) */
static struct kin_page *anc[KIN_DEPTH]; /* its parent's, grandparent's ...     */
static Int anc_pid[KIN_DEPTH];
static ULong anc_start[KIN_DEPTH];
static Int nrun;                        /* this process's share of running     */
static Bool blocked[NB_HT_MAXT];        /* its threads in a wait               */

static void path_of(Int pid, HChar *buf, SizeT len)
{
	VG_(snprintf)(buf, (Int)len, "%s/nbsim-time-%u-%d.kin", VG_(tmpdir)(),
		      (UInt)nb_euid(), pid);
}

static struct kin_page *map_page(Int fd)
{
	SysRes m = VG_(am_shared_mmap_file_float_valgrind)(KIN_SIZE, VKI_PROT_READ | VKI_PROT_WRITE,
							   fd, 0);

	return sr_isError(m) ? NULL : (struct kin_page *)sr_Res(m);
}

/* the page of PID started at START, if it is there and its own */
static struct kin_page *open_page(Int pid, ULong start)
{
	HChar path[256];
	struct kin_page *p;
	SysRes f;

	path_of(pid, path, sizeof path);
	f = VG_(open)(path, VKI_O_RDWR, 0);
	if (sr_isError(f))
		return NULL;
	p = map_page((Int)sr_Res(f));
	VG_(close)((Int)sr_Res(f));
	if (p && (p->magic != KIN_MAGIC || p->start != start))
		return NULL;            /* (another process's, a reused pid) */
	return p;
}

static void add_running(Int d)
{
	nrun += d;
	for (unsigned i = 0; i < KIN_DEPTH; i++)
		if (anc[i])
			__atomic_add_fetch(&anc[i]->running, d, __ATOMIC_SEQ_CST);
}

/* ---- fork and exec (nb_simwait.c calls these) ---- */

/* before a fork: the page the child will write to */
void nb_kin_before_fork(ULong my_start)
{
	HChar path[256];
	static UChar zero[KIN_SIZE];
	SysRes f;
	Int fd;

	if (own || !my_start)
		return;
	path_of(nb_pid(), path, sizeof path);
	f = VG_(open)(path, VKI_O_RDWR | VKI_O_CREAT | VKI_O_TRUNC, 0600);
	if (sr_isError(f))
		return;
	fd = (Int)sr_Res(f);
	if (VG_(write)(fd, zero, KIN_SIZE) == KIN_SIZE)
		own = map_page(fd);
	VG_(close)(fd);
	if (!own) {
		VG_(unlink)(path);
		return;
	}
	own->start = my_start;
	own->magic = KIN_MAGIC;
}

/* the child: its parent's page first, then the parent's ancestors' */
void nb_kin_after_fork(ThreadId tid, Int ppid, ULong pstart)
{
	for (unsigned i = KIN_DEPTH - 1; i > 0; i--) {
		anc[i] = anc[i - 1];
		anc_pid[i] = anc_pid[i - 1];
		anc_start[i] = anc_start[i - 1];
	}
	anc[0] = own;
	anc_pid[0] = own ? ppid : 0;
	anc_start[0] = own ? pstart : 0;
	own = NULL;
	nrun = 0;
	VG_(memset)(blocked, 0, sizeof blocked);
	(void)tid;
	add_running(1);
}

/* the ancestors an exec hands to the new image */
void nb_kin_get(Int *pid, ULong *start)
{
	for (unsigned i = 0; i < KIN_DEPTH; i++) {
		pid[i] = anc[i] ? anc_pid[i] : 0;
		start[i] = anc[i] ? anc_start[i] : 0;
	}
}

/* the new image (nb_simwait_init): the ancestors' pages and its own
 * again; the thread that exec'd counted as running in them (nb_kin_exec) */
void nb_kin_set(const Int *pid, const ULong *start, ULong my_start)
{
	for (unsigned i = 0; i < KIN_DEPTH; i++) {
		anc_pid[i] = pid[i];
		anc_start[i] = start[i];
		anc[i] = pid[i] ? open_page(pid[i], start[i]) : NULL;
	}
	own = open_page(nb_pid(), my_start);
	nrun = 1;
}

/* an exec to a new image under nbsim: only the thread that calls it
 * runs on (as the new image's); its count stays while the new nbsim
 * starts, which takes longer than the waiting parent's look for none */
void nb_kin_exec(void)
{
	add_running(1 - nrun);
}

/* the image ends (the exit, an exec off nbsim): it runs no more code */
void nb_kin_leave(void)
{
	add_running(-nrun);
}

/* the exit: the process's own page goes (its descendants keep their mapping) */
void nb_kin_fini(void)
{
	HChar path[256];

	nb_kin_leave();
	if (own) {
		path_of(nb_pid(), path, sizeof path);
		VG_(unlink)(path);
	}
}

/* ---- a descendant: how far it has come ---- */

void nb_kin_pre_syscall(ThreadId tid, UInt sysno)
{
	if (!anc[0] && !anc[1] && !anc[2] && !anc[3])
		return;
	if (tid < NB_HT_MAXT && !blocked[tid] && nb_sys_may_wait(sysno)) {
		blocked[tid] = True;
		add_running(-1);
	}
}

/* after a system call, and as a thread runs: it runs code again */
void nb_kin_runs(ThreadId tid)
{
	if (tid < NB_HT_MAXT && blocked[tid]) {
		blocked[tid] = False;
		add_running(1);
	}
}

void nb_kin_thread_create(void)
{
	add_running(1);
}

void nb_kin_thread_exit(ThreadId tid)
{
	if (tid < NB_HT_MAXT && blocked[tid])
		blocked[tid] = False;
	else
		add_running(-1);
}

/* at each entry of valgrind's scheduler: the clock into the ancestors'
 * pages */
Bool nb_kin_quiet(ThreadId tid)
{
	return !anc[0] && !anc[1] && !anc[2] && !anc[3] && !(tid < NB_HT_MAXT && blocked[tid]);
}

void nb_kin_tick(void)
{
	ULong real, mono, tsc;

	if (!anc[0] && !anc[1] && !anc[2] && !anc[3])
		return;
	nb_time_abs(&real, &mono, &tsc);
	for (unsigned i = 0; i < KIN_DEPTH; i++) {
		ULong p;

		if (!anc[i])
			continue;
		p = anc[i]->progress;
		while (p < mono && !__atomic_compare_exchange_n(&anc[i]->progress, &p, mono, False,
								__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			;
	}
}

/* the wall ns left before the nearest ancestor's expiry (~0: none): the
 * scheduler comes back near it (nb_itimer.c itimer_budget) */
ULong nb_kin_left_ns(void)
{
	ULong real, mono, tsc, left = ~0ULL, d[KIN_DEPTH];
	Bool any = False;

	for (unsigned i = 0; i < KIN_DEPTH; i++) {
		d[i] = anc[i] ? anc[i]->deadline : 0;
		any |= d[i] != 0;
	}
	if (!any)
		return left;
	nb_time_abs(&real, &mono, &tsc);
	for (unsigned i = 0; i < KIN_DEPTH; i++) {
		ULong l = d[i] > mono ? d[i] - mono : 0;

		if (d[i] && l < left)
			left = l;
	}
	return left;
}

/* ---- the waiting parent ---- */

static ULong host_ms(void)
{
	return VG_(read_millisecond_timer)();
}

/* a child of this process has ended (a zombie), or a signal is pending */
static Bool woken(void)
{
	vki_siginfo_t si;
	ULong set[2] = { 0, 0 };
	SysRes r;

	VG_(memset)(&si, 0, sizeof si);
	r = VG_(do_syscall)(__NR_waitid, 0 /* P_ALL */, 0, (UWord)&si,
			    4 /* WEXITED */ | 1 /* WNOHANG */ | 0x01000000 /* WNOWAIT */, 0, 0, 0, 0);
	if (!sr_isError(r) && si._sifields._sigchld._pid > 0)
		return True;
	r = VG_(do_syscall)(__NR_rt_sigpending, (UWord)set, sizeof(vki_sigset_t), 0, 0, 0, 0, 0, 0);
	return !sr_isError(r) && (set[0] | set[1]) != 0;
}

/* The process waits for a signal, the first wall-clock timer FIRST ns
 * ahead; it has a child.  True: a descendant's clock reached the expiry,
 * and the wall time passed to it.  False: wait on the host (the wall time
 * moved to the furthest descendant's clock, short of the expiry).  No
 * descendant running is taken as such after KIN_IDLE_POLLS looks in a
 * row: a child just forked counts itself a moment after the fork
 * returns, and a read of a file counts as a wait while it lasts. */
#define KIN_IDLE_POLLS 50
Bool nb_kin_wait(ULong first)
{
	ULong real, mono, tsc, deadline, seen, from;
	struct vki_timespec ts = { 0, (Long)KIN_POLL_NS };
	unsigned idle = 0;

	if (!own || first == ~0ULL)
		return False;
	nb_time_abs(&real, &mono, &tsc);
	deadline = mono + first;
	own->deadline = deadline;
	seen = own->progress;
	from = host_ms();
	for (;;) {
		ULong p = own->progress;

		if (p >= deadline)
			break;
		if (p != seen)
			seen = p, from = host_ms();
		idle = own->running > 0 ? 0 : idle + 1;
		if (idle > KIN_IDLE_POLLS || woken() || host_ms() - from > KIN_STALL_MS) {
			own->deadline = 0;
			if (p > mono)
				nb_time_pass(p - mono < first ? p - mono : first - 1);
			return False;
		}
		(void)VG_(do_syscall)(__NR_nanosleep, (UWord)&ts, 0, 0, 0, 0, 0, 0, 0);
	}
	own->deadline = 0;
	nb_time_pass(first);
	return True;
}
