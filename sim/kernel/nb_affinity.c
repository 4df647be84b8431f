/*
 * nb_affinity.c - the guest's CPU affinity, emulated: the CPUs of the
 * simulated machine are its logical processors (LPs: CPU 0, and CPU 1
 * with --ht=yes), not the host's, and a thread's binding decides where
 * the model runs it, never where the host runs nbsim.
 *
 * sched_setaffinity(2) (glibc's sched_setaffinity, pthread_setaffinity_np
 * and the attribute's affinity applied at thread creation all end in
 * this system call): the mask asked for is recorded for the target
 * thread (pid 0: the caller; the host thread id of one of the process's
 * threads; any other pid is left to the host), restricted to the
 * modelled LPs (nb_ht.h, through the tool's nb_thread_bind).  A thread
 * whose mask excludes the LP it runs on moves to the other (docs/
 * threads.md "Placement").  The host must not see the guest's mask: it
 * would pin nbsim's host thread (a guest's "CPU 0" is the host's CPU 0)
 * or refuse a CPU the host does not give nbsim (CPU 1 under `taskset -c
 * 0`: EINVAL).  The tool's hook cannot change the call's arguments, but
 * the mask is in guest memory: before the call the buffer is rewritten
 * to what the host is to do, and restored after it, byte for byte (the
 * caller's buffer is const): a mask with a modelled LP becomes the
 * target host thread's current host affinity (the call succeeds and
 * changes nothing on the host); one without (Linux's EINVAL for a mask
 * with no online CPU: no bit of CPU 0, or of CPUs 0-1 with HT) becomes
 * all zero bytes, and the host's EINVAL is the guest's.
 *
 * The window: between the rewrite and the restore the buffer holds the
 * host's bytes, and a guest thread that read it then would see them.
 * None can: valgrind's wrapper of the call (syswrap-linux.c
 * PRE(sys_sched_setaffinity)) does not mark it as one that may block,
 * so valgrind keeps its lock through the host call and no other guest
 * thread runs from the pre-syscall hook to the post-syscall hook, with
 * or without the lockstep; a signal's handler runs after the post hook.
 * Were that to change (a valgrind that releases its lock there), two
 * calls on one buffer at once (a mask shared by threads that bind
 * themselves together) share one saved copy (`flight`): the second
 * reads the guest's bytes from it, not the first's rewrite, and the
 * last to return restores them; a reader other than the call would
 * then see the host's bytes for the host call's time.
 *
 * sched_getaffinity(2): the host's answer is replaced by the target
 * thread's recorded mask (every modelled LP until it binds; a thread
 * inherits its creator's), another process's by the modelled LPs.
 * libgomp sizes its default team and its spinning by it, GNU sort its
 * threads (gnulib num_processors), Python's os.sched_getaffinity and
 * coreutils' nproc print it: tp_omp counted 115,840,823 instructions
 * under --ht=yes on a 2-CPU host and 115,841,141 pinned to one CPU when
 * the host's answer reached it.
 *
 * execve keeps the caller's binding, as Linux keeps a task's affinity
 * (`taskset -c 1 prog` under nbsim binds, then execs): the new image's
 * nbsim (--trace-children=yes) reads it from $TMPDIR/nbsim-affinity-
 * UID-PID.exec, written before the call, checked to be this process's
 * by its start time (as nb_simwait.c's clocks), removed when read or
 * when the execve fails, and binds its main thread before it runs.  An
 * image run untraced (--trace-children=no) runs on the host, unbound.
 *
 * Not emulated: a mask in read-only memory cannot be rewritten and goes
 * to the host as the guest wrote it (glibc's callers pass writable
 * copies); the host CPUs of a thread bound on the host beyond the first
 * 8 * len CPUs (a host call with the guest's short mask length) make the
 * host refuse it.
 */
#include "tool/nb_tool.h"
#include "nb_kern.h"
#include "nb_kern_int.h"
#include "nb_simtime.h"
#include "nb_affinity.h"
#include "nb_handover.h"
#include "pub_tool_vkiscnums.h"

/* valgrind's core (pub_core_threadstate.h, pub_core_syscall.h) */
extern ThreadId VG_(lwpid_to_vgtid)(Int lwpid);
extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3, UWord a4, UWord a5,
			      UWord a6, UWord a7, UWord a8);

#define CLONE_THREAD 0x00010000
#define AFF_MAX 1024             /* bytes: the kernel reads at most NR_CPUS (8192) bits */

/* The host thread of each thread created by clone, from clone's result
 * in its creator: glibc applies a thread attribute's affinity from the
 * creator (create_thread: sched_setaffinity on the new thread's id)
 * before the new thread has run, when valgrind does not know its host
 * thread yet (VG_(lwpid_to_vgtid) answers 0). */
static Int lwp_of[NB_HT_MAXT];
static ThreadId last_child[NB_HT_MAXT];

/* the saved bytes of a buffer under a call (above) */
#define NFLIGHT 8
static struct flight {
	Addr a;
	UWord n;
	UInt refs;
	UChar orig[AFF_MAX];
} flight[NFLIGHT];

/* each thread's sched_setaffinity in progress */
static struct call {
	struct flight *f;
	ThreadId target;
	UInt mask;
} call[NB_HT_MAXT];

static ThreadId target_of(ThreadId tid, Int pid)
{
	ThreadId t;

	if (pid == 0)
		return tid;
	if (pid < 0)
		return VG_INVALID_THREADID;
	t = VG_(lwpid_to_vgtid)(pid);
	if (t)
		return t;
	for (t = 1; t < NB_HT_MAXT; t++)
		if (lwp_of[t] == pid)
			return t;
	return VG_INVALID_THREADID;
}

/* May thread t move by its binding, as far as the emulated kernel's
 * objects are concerned? */
static Bool kern_ok(ThreadId t)
{
	return !nb_kern_thread_events(t);
}

static struct flight *flight_of(Addr a, UWord n)
{
	struct flight *free_f = NULL;

	for (UInt i = 0; i < NFLIGHT; i++) {
		if (flight[i].refs && flight[i].a == a && flight[i].n == n)
			return &flight[i];
		if (!flight[i].refs && !free_f)
			free_f = &flight[i];
	}
	if (free_f) {
		free_f->a = a;
		free_f->n = n;
		VG_(memcpy)(free_f->orig, (const void *)a, n);
	}
	return free_f;
}

static void set_pre(ThreadId tid, UWord *args)
{
	ThreadId target = target_of(tid, (Int)args[0]);
	UWord n = args[1] < AFF_MAX ? args[1] : AFF_MAX;
	Addr a = args[2];
	UChar *m = (UChar *)a;
	struct flight *f;
	UInt mask;

	if (!target || tid >= NB_HT_MAXT || n == 0 ||
	    !VG_(am_is_valid_for_client)(a, n, VKI_PROT_READ | VKI_PROT_WRITE) ||
	    !(f = flight_of(a, n)))
		return;
	mask = f->orig[0] & nb_thread_lps(0);     /* (the modelled LPs) */
	if (mask) {
		static UChar host[AFF_MAX];
		Int lwp = args[0] ? (Int)args[0] : VG_(gettid)();
		SysRes r = VG_(do_syscall)(__NR_sched_getaffinity, (UWord)lwp, sizeof host,
					   (UWord)host, 0, 0, 0, 0, 0);
		UWord got = sr_isError(r) ? 0 : sr_Res(r);

		if (!got)
			return;          /* (the host's answer stands) */
		for (UWord i = 0; i < n; i++)
			m[i] = i < got ? host[i] : 0;
	} else {
		for (UWord i = 0; i < n; i++)
			m[i] = 0;
	}
	f->refs++;
	call[tid].f = f;
	call[tid].target = target;
	call[tid].mask = mask;
}

static void set_post(ThreadId tid, SysRes res)
{
	struct call *c = &call[tid];
	struct flight *f = c->f;
	unsigned from;

	if (!f)
		return;
	c->f = NULL;
	if (!--f->refs && VG_(am_is_valid_for_client)(f->a, f->n, VKI_PROT_WRITE))
		VG_(memcpy)((void *)f->a, f->orig, f->n);
	if (sr_isError(res) || !c->mask)
		return;
	from = nb_lp_of(c->target);
	(void)nb_thread_bind(c->target, c->mask, kern_ok(c->target));
	if (nb_lp_of(c->target) != from)
		nb_time_moved(c->target, from);
}

/* the mask the kernel copied out (its result: the bytes copied): the
 * target thread's */
static void get_post(ThreadId tid, UWord *args, SysRes res)
{
	UChar *m = (UChar *)args[2];
	UWord n = sr_Res(res);
	ThreadId target = target_of(tid, (Int)args[0]);

	if (sr_isError(res) || n == 0 || n > args[1] ||
	    !VG_(am_is_valid_for_client)((Addr)m, n, VKI_PROT_WRITE))
		return;
	for (UWord i = 0; i < n; i++)
		m[i] = 0;
	m[0] = (UChar)(target ? nb_thread_lps(target) : nb_thread_lps(0));
}

/* ---- across an execve (above) ---- */

#define AFF_MAGIC 0x6e626166u           /* "nbaf" */
struct aff_exec {
	UInt magic, mask;
	ULong start;                     /* the process's start time      */
};
static Bool exec_pending;
static UInt exec_mask;                   /* the image's inherited binding */

static void exec_path(HChar *buf, SizeT len)
{
	VG_(snprintf)(buf, (Int)len, "%s/nbsim-affinity-%u-%d.exec", VG_(tmpdir)(),
		      (UInt)nb_euid(), nb_pid());
}

static void pre_exec(ThreadId tid)
{
	HChar path[256];
	struct aff_exec x;

	exec_pending = False;
	x.mask = nb_thread_lps(tid);
	if (!VG_(clo_trace_children) || x.mask == nb_thread_lps(0))
		return;
	x.magic = AFF_MAGIC;
	x.start = nbk_proc_start(0);
	exec_path(path, sizeof path);
	exec_pending = nb_handover_put(path, &x, (Int)sizeof x);
}

/* at start (nb_front.c): the binding the image before the exec had */
void nb_affinity_init(void)
{
	HChar path[256];
	struct aff_exec x;

	exec_path(path, sizeof path);
	if (!nb_handover_take(path, &x, (Int)sizeof x) || x.magic != AFF_MAGIC || !x.start ||
	    x.start != nbk_proc_start(0))
		return;
	exec_mask = x.mask;
	(void)nb_thread_bind(1, exec_mask, True);
}

void nb_affinity_pre_syscall(ThreadId tid, UInt sysno, UWord *args)
{
	if (sysno == __NR_sched_setaffinity)
		set_pre(tid, args);
	else if (sysno == __NR_execve || sysno == __NR_execveat)
		pre_exec(tid);
}

void nb_affinity_post_syscall(ThreadId tid, UInt sysno, UWord *args, SysRes res)
{
	if (tid >= NB_HT_MAXT)
		return;
	switch (sysno) {
	case __NR_execve: case __NR_execveat:
		if (exec_pending && sr_isError(res)) {
			HChar path[256];
			exec_path(path, sizeof path);
			VG_(unlink)(path);
		}
		exec_pending = False;
		break;
	case __NR_sched_setaffinity:
		set_post(tid, res);
		return;
	case __NR_sched_getaffinity:
		get_post(tid, args, res);
		return;
	case __NR_clone:
		if ((args[0] & CLONE_THREAD) && !sr_isError(res) && last_child[tid] &&
		    last_child[tid] < NB_HT_MAXT)
			lwp_of[last_child[tid]] = (Int)sr_Res(res);
		last_child[tid] = 0;
		break;
	case 435:                         /* clone3 (its flags: the first word) */
		if (!sr_isError(res) && sr_Res(res) && last_child[tid] && last_child[tid] < NB_HT_MAXT &&
		    VG_(am_is_valid_for_client)(args[0], 8, VKI_PROT_READ) &&
		    (((const ULong *)args[0])[0] & CLONE_THREAD))
			lwp_of[last_child[tid]] = (Int)sr_Res(res);
		last_child[tid] = 0;
		break;
	default:
		break;
	}
	/* a thread whose move was refused moves at the first system call
	 * after which it may (nb_ctx_rebind: no PMU register held under
	 * fixed placement, its PMI handler left, its perf events closed) */
	if (nb_thread_misplaced(tid)) {
		unsigned from = nb_lp_of(tid);
		if (nb_thread_settle(tid, kern_ok(tid)))
			nb_time_moved(tid, from);
	}
}

void nb_affinity_thread_create(ThreadId parent, ThreadId child)
{
	/* (valgrind announces the main thread too: placed afresh) */
	if (!parent && child == 1 && exec_mask)
		(void)nb_thread_bind(1, exec_mask, True);
	if (parent < NB_HT_MAXT)
		last_child[parent] = child;
	if (child < NB_HT_MAXT)
		lwp_of[child] = 0;
}

void nb_affinity_thread_exit(ThreadId tid)
{
	if (tid < NB_HT_MAXT)
		lwp_of[tid] = 0;
}

/* a forked child: its threads' host ids are new */
void nb_affinity_fork(void)
{
	VG_(memset)(lwp_of, 0, sizeof lwp_of);
	VG_(memset)(last_child, 0, sizeof last_child);
}
