/*
 * nb_kern_ptrace.c - ptrace(2) as a traced program sees it under nbsim.
 *
 * PTRACE_TRACEME then execve (PAPI's attach ctests, a debugger's child):
 * on Linux the child stops once, with SIGTRAP, before the new image's
 * first instruction (fs/exec.c: ptrace_event(PTRACE_EVENT_EXEC), the
 * legacy SIGTRAP without PTRACE_O_TRACEEXEC).  Under nbsim the guest's
 * execve is valgrind's two (its launcher, which execs the tool binary),
 * and valgrind's own start takes signals: a child traced from the
 * PTRACE_TRACEME on stops at each of them.  So the request is emulated
 * (the preload's ptrace wrapper asks KOP_PTRACE): nothing reaches the
 * host kernel; at the execve the fact goes to the new image's nbsim in
 * $TMPDIR/nbsim-kern-UID-PID.traceme (with the process's start time, as
 * the .exec file), and that nbsim, after valgrind's execs and before the
 * guest's first instruction (nb_kern_init), makes the real PTRACE_TRACEME
 * and sends itself a SIGTRAP with the default action: the parent sees
 * one SIGTRAP stop; PTRACE_CONT with 0 discards it, with SIGTRAP the
 * default action kills the child (as the SIGTRAP of a traced exec does).
 * Events opened on the child during that stop (PAPI_attach, PAPI_start)
 * are taken after it (nb_kern_attach.c), before the first instruction.
 *
 * Before the exec the request is real as soon as the process sends itself
 * a signal (kill, tgkill, tkill on itself: attach_validate's
 * raise(SIGSTOP) after PTRACE_TRACEME), so that signal stops it as on
 * Linux.  An exec that the new image runs natively (--trace-children=no,
 * --trace-children-skip, --nbsim-trace-forked=no) gets the real request
 * just before it: the host's exec gives its one SIGTRAP.
 *
 * Refused with EIO ("request is invalid") on a tracee that is itself
 * under nbsim (its /proc/PID/exe is this tool): the requests that read or
 * write the tracee's registers or step it (PEEKUSER, POKEUSER, GETREGS,
 * SETREGS, GETFPREGS, SETFPREGS, GETFPXREGS, SETFPXREGS, GETREGSET,
 * SETREGSET, SINGLESTEP, SINGLEBLOCK, SYSCALL, SYSEMU): the host's
 * registers there are valgrind's, not the simulated program's, and a step
 * is one of valgrind's instructions.  Memory requests (PEEKDATA) pass:
 * the guest's memory is at its own addresses in that process.
 *
 * Limits: between PTRACE_TRACEME and the exec (or the first signal it
 * sends itself) the process is not yet traced, so a signal from another
 * process does not stop it; a process traced for real that execs again
 * stops at valgrind's two execs (and PTRACE_O_TRACEEXEC gives two event
 * stops): the kernel's stops cannot be hidden from the tracer.
 */
#include "nb_kern_int.h"
#include "pub_tool_aspacemgr.h"

extern Bool VG_(should_we_trace_this_child)(const HChar *child_exe_name, const HChar **child_argv);
extern ThreadId VG_(lwpid_to_vgtid)(Int lwpid);   /* valgrind core */
extern Bool VG_(extend_stack)(ThreadId tid, Addr addr);
extern Addr VG_(clstk_start_base);

/* <sys/ptrace.h> (x86-64) */
enum { PT_TRACEME = 0, PT_PEEKUSER = 3, PT_POKEUSER = 6, PT_SINGLESTEP = 9, PT_GETREGS = 12,
       PT_SETREGS = 13, PT_GETFPREGS = 14, PT_SETFPREGS = 15, PT_GETFPXREGS = 18,
       PT_SETFPXREGS = 19, PT_SYSCALL = 24, PT_SYSEMU = 31, PT_SYSEMU_SINGLESTEP = 32,
       PT_SINGLEBLOCK = 33, PT_GETREGSET = 0x4204, PT_SETREGSET = 0x4205 };
#define SIG_TRAP 5

static Bool traceme_pending;   /* PTRACE_TRACEME asked, not yet made real */
static Bool traceme_real;      /* made real by this nbsim */
Bool nbk_ptrace_stopped;       /* this image stopped for its tracer at its start */

struct tm_hdr {
	ULong magic, start;
};
#define TM_MAGIC 0x6e6273696d74726dULL  /* "nbsimtrm" */

static void traceme_path(Int pid, HChar *buf, SizeT len)
{
	VG_(snprintf)(buf, (Int)len, "%s/nbsim-kern-%u-%d.traceme", VG_(tmpdir)(),
		      (UInt)nb_euid(), pid);
}

/* TracerPid of /proc/self/status: the host's tracer (strace, gdb), 0 none */
static Int tracer_pid(void)
{
	HChar buf[2048];
	const HChar *p;
	Int v = 0;

	if (!nb_read_file("/proc/self/status", buf, sizeof buf) ||
	    !(p = nbk_proc_field(buf, "TracerPid:")))
		return 0;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (*p - '0');
	return v;
}

/* The main thread's stack mapped to its limit now.  Valgrind maps the
 * client's stack as it grows, at each fault below it (a SIGSEGV its
 * handler serves): in a traced process each such fault is a stop the
 * tracer sees, which Linux, growing the stack in its page-fault handler,
 * never gives.  (The pages are the kernel's zero-fill-on-demand ones:
 * nothing is allocated before the program touches them.) */
void nbk_stack_premap(void)
{
	const NSegment *r;

	if (!VG_(clstk_start_base))
		return;
	/* below the mapped part (grown since, in a forked child): the
	 * reservation */
	r = VG_(am_find_nsegment)(VG_(clstk_start_base));
	while (r && r->kind == SkAnonC && r->start > PAGE)
		r = VG_(am_find_nsegment)(r->start - 1);
	if (r && r->kind == SkResvn && r->end - r->start > 4 * PAGE)
		(void)VG_(extend_stack)(1, r->start + 2 * PAGE);
}

static Word real_traceme(void)
{
	SysRes r = VG_(do_syscall)(__NR_ptrace, PT_TRACEME, 0, 0, 0, 0, 0, 0, 0);

	traceme_pending = False;
	if (sr_isError(r))
		return -(Word)sr_Err(r);
	traceme_real = True;
	nbk_stack_premap();
	return 0;
}

/* Process PID runs this tool (valgrind's tool binary is its exe). */
static Bool under_nbsim(Int pid)
{
	HChar path[64], mine[512], theirs[512];
	SSizeT a, b;

	VG_(snprintf)(path, sizeof path, "/proc/%d/exe", pid);
	a = VG_(readlink)("/proc/self/exe", mine, sizeof mine - 1);
	b = VG_(readlink)(path, theirs, sizeof theirs - 1);
	if (a <= 0 || b <= 0 || a != b)
		return False;
	return VG_(memcmp)(mine, theirs, (SizeT)a) == 0;
}

/* KOP_PTRACE (request, pid, addr, data): -errno, 0, or PASS (the real
 * call). */
Word nbk_ptrace(UWord req, UWord pid)
{
	switch (req) {
	case PT_TRACEME:
		/* kernel/ptrace.c ptrace_traceme: EPERM when already traced */
		if (traceme_pending || traceme_real || tracer_pid() != 0)
			return -E_PERM;
		traceme_pending = True;
		return 0;
	case PT_PEEKUSER: case PT_POKEUSER: case PT_SINGLESTEP: case PT_GETREGS:
	case PT_SETREGS: case PT_GETFPREGS: case PT_SETFPREGS: case PT_GETFPXREGS:
	case PT_SETFPXREGS: case PT_SYSCALL: case PT_SYSEMU: case PT_SYSEMU_SINGLESTEP:
	case PT_SINGLEBLOCK: case PT_GETREGSET: case PT_SETREGSET:
		if ((Word)pid > 0 && under_nbsim((Int)pid))
			return -E_IO;
		return NBSIM_KERN_PASS;
	default:
		return NBSIM_KERN_PASS;
	}
}

/* The guest's system call SYSNO (ARGS): a pending PTRACE_TRACEME becomes
 * real at a signal to itself, and goes with an execve. */
void nbk_ptrace_pre_syscall(UInt sysno, UWord *args, UInt nargs)
{
	Int me = nb_pid();

	if (!traceme_pending || nargs < 2)
		return;
	switch (sysno) {
	case __NR_kill:
		if (args[1] != 0 && ((Int)args[0] == me || (Int)args[0] == 0))
			(void)real_traceme();
		break;
	case __NR_tgkill:
		if (nargs >= 3 && args[2] != 0 && (Int)args[0] == me)
			(void)real_traceme();
		break;
	case __NR_tkill:
		if (args[1] != 0 && VG_(lwpid_to_vgtid)((Int)args[0]) != 0)
			(void)real_traceme();
		break;
	case __NR_execve: {
		const HChar *path = (const HChar *)args[0];
		struct tm_hdr h = { TM_MAGIC, nbk_proc_start(0) };
		HChar file[256];
		SysRes f;

		if (!VG_(clo_trace_children) || !path ||
		    !VG_(should_we_trace_this_child)(path, (const HChar **)args[1])) {
			(void)real_traceme();        /* the host's exec stops it */
			break;
		}
		traceme_path(me, file, sizeof file);
		f = VG_(open)(file, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0600);
		if (sr_isError(f))
			break;
		(void)VG_(write)((Int)sr_Res(f), &h, (Int)sizeof h);
		VG_(close)((Int)sr_Res(f));
		break;
	}
	case __NR_execveat:
		(void)real_traceme();                /* (not followed: rare) */
		break;
	}
}

/* A failed execve: the request stays pending in the old image. */
void nbk_ptrace_exec_failed(void)
{
	HChar file[256];

	traceme_path(nb_pid(), file, sizeof file);
	VG_(unlink)(file);
}

/* A forked child is not traced (its parent's request is the parent's). */
void nbk_ptrace_after_fork(void)
{
	traceme_pending = False;
	traceme_real = False;
}

/* The new image, before the guest's first instruction: the image before
 * the exec asked to be traced.  The real request, then a SIGTRAP with the
 * default action, unblocked: the tracer sees the stop at once. */
void nbk_ptrace_init(void)
{
	HChar file[256];
	struct tm_hdr h;
	SysRes f;
	Int fd;
	struct { UWord handler, flags, restorer, mask; } dfl = { 0, 0, 0, 0 }, old;
	UWord set = 1UL << (SIG_TRAP - 1), oldset = 0;

	traceme_path(nb_pid(), file, sizeof file);
	f = VG_(open)(file, VKI_O_RDONLY, 0);
	if (sr_isError(f))
		return;
	fd = (Int)sr_Res(f);
	VG_(unlink)(file);
	if (VG_(read)(fd, &h, (Int)sizeof h) != (Int)sizeof h || h.magic != TM_MAGIC ||
	    h.start == 0 || h.start != nbk_proc_start(0)) {
		VG_(close)(fd);
		return;                          /* another process's, with this pid */
	}
	VG_(close)(fd);
	if (real_traceme() != 0)
		return;
	if (sr_isError(VG_(do_syscall)(__NR_rt_sigaction, SIG_TRAP, (UWord)&dfl, (UWord)&old, 8,
				       0, 0, 0, 0)))
		return;
	(void)VG_(do_syscall)(__NR_rt_sigprocmask, VKI_SIG_UNBLOCK, (UWord)&set, (UWord)&oldset, 8,
			      0, 0, 0, 0);
	(void)VG_(do_syscall)(__NR_tgkill, (UWord)nb_pid(), (UWord)VG_(gettid)(), SIG_TRAP,
			      0, 0, 0, 0, 0);
	/* stopped until the tracer's PTRACE_CONT; it discarded the signal */
	(void)VG_(do_syscall)(__NR_rt_sigprocmask, VKI_SIG_SETMASK, (UWord)&oldset, 0, 8,
			      0, 0, 0, 0);
	(void)VG_(do_syscall)(__NR_rt_sigaction, SIG_TRAP, (UWord)&old, 0, 8, 0, 0, 0, 0);
	nbk_ptrace_stopped = True;
}
