/*
 * nb_simwait.c - the simulated time between processes
 * (--nbsim-time=simulated; docs/simulated-time.md "Processes"): an exec
 * keeps the process's clocks, and a parent that waits for a child sees
 * its wall clock reach the child's end.
 *
 * Each process under nbsim has its own time base (nb_simtime.c).  A fork's
 * child shares its parent's up to the fork (valgrind forks the tool with
 * it).  An execve starts a new nbsim (--trace-children=yes), which would
 * start a new time base from the host's clocks, hours ahead of the
 * simulated ones; and a parent blocked in wait4 runs no code, so its
 * simulated clock stood still while the child ran (`perf stat` printed
 * about 1 us elapsed for a child of seconds).  So:
 *
 *  - exec: before the execve the process's simulated REALTIME, MONOTONIC
 *    and TSC, its CPU time and its children's, whom it reports to and how
 *    far it read its children's records (below) are written to $TMPDIR/nbsim-time-UID-PID.exec; the new image's nbsim
 *    reads and removes it before its guest runs (its start time must be
 *    the process's, as nb_kern_exec.c checks its own file: a file another
 *    process left with a reused pid is not ours); a failed execve removes
 *    it.  Linux keeps a process's CPU time across an exec: so does this.
 *  - exit: a process forked by one under simulated time (directly, or
 *    before an exec) appends a record to its parent's
 *    $TMPDIR/nbsim-time-UID-PPID.wait: its pid, its parent's start time,
 *    its simulated MONOTONIC at exit, its CPU time and its waited-for
 *    children's.  The parent removes the file at its own exit.
 *  - wait: when wait4 or waitid reaps a child whose record is there, the
 *    parent's wall time moves to the child's end if it is behind (the
 *    time the parent spent waiting; as nanosleep's time, nb_time_pass),
 *    and the child's CPU time (with its children's) is added to the
 *    children's CPU time (getrusage RUSAGE_CHILDREN, times()' tms_cutime,
 *    wait4's rusage).  The parent's own CPU clocks do not move.
 *
 * A file per parent rather than per child: a child whose parent never
 * waits for it (SIGCHLD ignored, a daemon's double fork) leaves no file
 * behind.  A child that is not under nbsim (--trace-children=no,
 * --nbsim-trace-forked=no) writes nothing: the parent's clock then stands
 * still for it, as before.
 */
#include "tool/nb_tool.h"
#include "nb_simtime.h"
#include "nb_kern_int.h"
#include "nb_handover.h"

#define EXEC_MAGIC 0x6e627469656d6578ULL  /* "nbtiemex" */
#define END_MAGIC  0x6e6274696d65656eULL  /* "nbtimeen" */

struct time_exec {
	ULong magic, start;             /* the process's start time        */
	ULong real_ns, mono_ns, tsc;    /* the simulated clocks at the exec */
	ULong cpu_ns, child_cpu_ns;
	ULong report_start;             /* the parent's start time (0: none) */
	Int report_pid, forked;         /* (its .wait file is the new image's) */
	ULong wait_off;
	Int kin_pid[4];                 /* the ancestors' pages (nb_simkin.c) */
	ULong kin_start[4];
};

struct time_end {                       /* 64 bytes: never across a page */
	ULong magic, parent_start;
	Int pid, pad;
	ULong mono_ns, cpu_ns, child_cpu_ns;
	ULong spare[2];
};

static Int report_pid;                  /* the parent under simulated time */
static ULong report_start;              /* its start time                  */
static ULong my_start;                  /* this process's (once known)     */
static Bool forked;                     /* a child may report to us        */
static Bool exec_pending;
static ULong child_cpu_ns;              /* the reaped children's CPU time  */
static Off64T wait_off;                 /* records read so far             */

/* the records read but not yet reaped (a child's exit comes before its
 * parent's wait, maybe several waits later) */
#define NPEND 64
static struct time_end pend[NPEND];
static UInt npend;

static void path_of(Int pid, const HChar *what, HChar *buf, SizeT len)
{
	VG_(snprintf)(buf, (Int)len, "%s/nbsim-time-%u-%d.%s", VG_(tmpdir)(),
		      (UInt)nb_euid(), pid, what);
}

static ULong start_time(void)
{
	if (!my_start)
		my_start = nbk_proc_start(0);
	return my_start;
}

/* ---- fork ---- */

static void before_fork(ThreadId tid)
{
	(void)tid;
	if (nb_time_running()) {
		nb_kin_before_fork(start_time());  /* (the child takes it as its parent's) */
		forked = True;
	}
}

/* the child: its parent is the process that forked (with simulated time) */
static void after_fork_child(ThreadId tid)
{
	if (nb_time_running()) {
		report_pid = VG_(getppid)();
		report_start = my_start;
		nb_kin_after_fork(tid, report_pid, report_start);
	}
	my_start = 0;
	forked = False;
	exec_pending = False;
	child_cpu_ns = 0;
	npend = 0;
	wait_off = 0;
}

/* ---- exec ---- */

/* at start (nb_front.c, after nb_time_init): the clocks of the image
 * before the exec, if any */
void nb_simwait_init(void)
{
	HChar path[256];
	struct time_exec x;

	VG_(atfork)(before_fork, NULL, after_fork_child);
	if (clo_time_host)
		return;
	path_of(nb_pid(), "exec", path, sizeof path);
	if (!nb_handover_take(path, &x, (Int)sizeof x) || x.magic != EXEC_MAGIC || x.start == 0 ||
	    x.start != start_time())
		return;
	nb_time_origin(x.real_ns, x.mono_ns, x.tsc, x.cpu_ns);
	child_cpu_ns = x.child_cpu_ns;
	report_pid = x.report_pid;
	report_start = x.report_start;
	forked = x.forked != 0;
	wait_off = (Off64T)x.wait_off;
	nb_kin_set(x.kin_pid, x.kin_start, x.start);
}

static void pre_exec(void)
{
	HChar path[256];
	struct time_exec x;

	/* the new image runs on the host (--trace-children=no, or
	 * --nbsim-trace-forked=no in a forked child): no nbsim reads it, nor
	 * removes the children's file at its exit */
	if (!VG_(clo_trace_children)) {
		if (forked) {
			path_of(nb_pid(), "wait", path, sizeof path);
			VG_(unlink)(path);
		}
		nb_kin_leave();
		return;
	}
	VG_(memset)(&x, 0, sizeof x);
	x.magic = EXEC_MAGIC;
	x.start = start_time();
	if (!x.start)
		return;
	nb_time_abs(&x.real_ns, &x.mono_ns, &x.tsc);
	x.cpu_ns = nb_time_cpu_ns();
	x.child_cpu_ns = child_cpu_ns;
	x.report_pid = report_pid;
	x.report_start = report_start;
	x.forked = forked;
	x.wait_off = (ULong)wait_off;
	nb_kin_get(x.kin_pid, x.kin_start);
	nb_kin_exec();
	path_of(nb_pid(), "exec", path, sizeof path);
	exec_pending = nb_handover_put(path, &x, (Int)sizeof x);
}

/* ---- exit ---- */

void nb_simwait_fini(void)
{
	HChar path[256];
	struct time_end e;
	ULong real, tsc;
	SysRes f;
	Int fd;

	if (clo_time_host)
		return;
	nb_kin_fini();
	if (forked) {
		path_of(nb_pid(), "wait", path, sizeof path);
		VG_(unlink)(path);
	}
	if (!report_pid || report_pid != VG_(getppid)())
		return;         /* (no parent, or it died: the child was adopted) */
	VG_(memset)(&e, 0, sizeof e);
	e.magic = END_MAGIC;
	e.parent_start = report_start;
	e.pid = nb_pid();
	nb_time_abs(&real, &e.mono_ns, &tsc);
	e.cpu_ns = nb_time_cpu_ns();
	e.child_cpu_ns = child_cpu_ns;
	path_of(report_pid, "wait", path, sizeof path);
	f = VG_(open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_APPEND, 0600);
	if (sr_isError(f))
		return;
	fd = (Int)sr_Res(f);
	(void)VG_(write)(fd, &e, (Int)sizeof e);
	VG_(close)(fd);
}

/* ---- wait ---- */

/* the records appended since the last read */
static void read_records(void)
{
	HChar path[256];
	struct time_end e;
	SysRes f;
	Int fd;

	path_of(nb_pid(), "wait", path, sizeof path);
	f = VG_(open)(path, VKI_O_RDONLY, 0);
	if (sr_isError(f))
		return;
	fd = (Int)sr_Res(f);
	if (VG_(lseek)(fd, wait_off, VKI_SEEK_SET) == wait_off)
		while (VG_(read)(fd, &e, (Int)sizeof e) == (Int)sizeof e) {
			wait_off += (Off64T)sizeof e;
			if (e.magic != END_MAGIC || e.parent_start != start_time())
				continue;       /* (another process's with our pid) */
			if (npend == NPEND) {   /* the oldest goes: never waited for */
				VG_(memmove)(pend, pend + 1, sizeof pend[0] * (NPEND - 1));
				npend--;
			}
			pend[npend++] = e;
		}
	VG_(close)(fd);
}

/* child PID was reaped (REAP: not a WNOWAIT look); RU: wait4's rusage */
static void reaped(Int pid, Bool reap, UWord ru)
{
	ULong mono, real, tsc;
	UInt i;

	read_records();
	for (i = npend; i-- > 0;)
		if (pend[i].pid == pid)
			break;
	if (i == ~0U)
		return;
	nb_time_abs(&real, &mono, &tsc);
	if (pend[i].mono_ns > mono)
		nb_time_pass(pend[i].mono_ns - mono);
	if (ru && VG_(am_is_valid_for_client)((Addr)ru, sizeof(struct vki_rusage), VKI_PROT_WRITE)) {
		struct vki_rusage *r = (struct vki_rusage *)ru;
		ULong ns = pend[i].cpu_ns + pend[i].child_cpu_ns;

		r->ru_utime.tv_sec = (Long)(ns / 1000000000ULL);
		r->ru_utime.tv_usec = (Long)(ns % 1000000000ULL / 1000);
		r->ru_stime.tv_sec = r->ru_stime.tv_usec = 0;
	}
	if (!reap)
		return;
	child_cpu_ns += pend[i].cpu_ns + pend[i].child_cpu_ns;
	VG_(memmove)(pend + i, pend + i + 1, sizeof pend[0] * (npend - i - 1));
	npend--;
}

/* a wait4 status or a waitid si_code of a child that ended (not one that
 * stopped or continued) */
static Bool ended_status(Int st)
{
	return (st & 0x7f) != 0x7f && st != 0xffff;
}

#define CLD_EXITED_ 1           /* (asm-generic/siginfo.h: CLD_EXITED, */
#define CLD_DUMPED_ 3           /*  CLD_KILLED, CLD_DUMPED)            */
#define WNOWAIT_ 0x01000000     /* (linux/wait.h) */

void nb_simwait_pre_syscall(UInt sysno)
{
	if (!clo_time_host && (sysno == __NR_execve || sysno == __NR_execveat))
		pre_exec();
}

void nb_simwait_post_syscall(UInt sysno, UWord *args, SysRes res)
{
	if (clo_time_host)
		return;
	switch (sysno) {
	case __NR_execve: case __NR_execveat:
		if (exec_pending && sr_isError(res)) {
			HChar path[256];

			path_of(nb_pid(), "exec", path, sizeof path);
			VG_(unlink)(path);
		}
		exec_pending = False;
		break;
	case __NR_wait4:
		if (!forked || sr_isError(res) || (Int)sr_Res(res) <= 0)
			break;
		if (args[1] && VG_(am_is_valid_for_client)((Addr)args[1], sizeof(Int), VKI_PROT_READ) &&
		    !ended_status(*(const Int *)args[1]))
			break;
		reaped((Int)sr_Res(res), True, args[3]);
		break;
	case __NR_waitid: {
		const vki_siginfo_t *si = (const vki_siginfo_t *)args[2];

		if (!forked || sr_isError(res) || !si ||
		    !VG_(am_is_valid_for_client)((Addr)si, sizeof *si, VKI_PROT_READ) ||
		    si->si_code < CLD_EXITED_ || si->si_code > CLD_DUMPED_ ||
		    si->_sifields._sigchld._pid <= 0)
			break;
		reaped(si->_sifields._sigchld._pid, !(args[3] & WNOWAIT_), args[4]);
		break;
	}
	default:
		break;
	}
}

/* getrusage(RUSAGE_CHILDREN), times(): the reaped children's CPU time */
Bool nb_simwait_request(UWord *arg, UWord *ret)
{
	if (arg[0] != NBSIM_REQ_TIME || (Long)arg[1] != NBSIM_TIME_CHILDREN)
		return False;
	if (clo_time_host) {
		*ret = NBSIM_TIME_HOST;
	} else if (!arg[2] || !VG_(am_is_valid_for_client)((Addr)arg[2], sizeof(ULong), VKI_PROT_WRITE)) {
		VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf,
			      "TIME: %#lx is not a writable address", arg[2]);
		*ret = NBSIM_GP;
	} else {
		*(ULong *)arg[2] = child_cpu_ns;
		*ret = NBSIM_OK;
	}
	return True;
}
