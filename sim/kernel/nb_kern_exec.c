/*
 * nb_kern_exec.c - the emulated perf driver across an exec: the events
 * that outlive an execve go to the new image's nbsim through a file,
 * enable_on_exec enables them there (nb_kern_task.c has inherit and the
 * fork).
 */
#include "nb_kern_int.h"

/* ---- exec (fs/exec.c begin_new_exec: perf_event_exec) ----
 *
 * Under nbsim an exec starts a new nbsim for the new image
 * (--trace-children=yes, the launcher's default), whose emulated kernel
 * starts empty.  So before the execve the process's events that outlive
 * it are written to exec_path(pid); the new nbsim reads them back before
 * its guest runs (nb_kern_init) and removes the file; a failed execve
 * removes it.  What outlives an exec, as on Linux: the events whose
 * descriptor is not close-on-exec (the others are released with it) and
 * the inherited copies of the thread that execs; the other threads die
 * (de_thread): their copies are summed into their originals, their own
 * events keep their final counts.  perf_event_enable_on_exec: an event
 * with enable_on_exec that is off is enabled, and the flag is cleared.
 * Ring buffers go with the old address space.
 */
struct exec_hdr {
	ULong magic, nobj, when_ns, nbk_inh_off;
	Int nbk_inh_mine, pad;
	ULong start;                      /* the process's start time (proc_start) */
};
struct exec_obj {
	struct kobj o;
	Bool alive;                       /* the thread that execs owns it */
	ULong leader_seq;
};
#define EXEC_MAGIC 0x6e6273696d657863ULL  /* "nbsimexc" */
static Bool exec_pending;

static void exec_path(Int pid, HChar *buf, SizeT len)
{
	VG_(snprintf)(buf, (Int)len, "%s/nbsim-kern-%u-%d.exec", VG_(tmpdir)(),
		      (UInt)nb_euid(), pid);
}

static Bool survives(const struct kobj *e)
{
	Int fl;

	if (e->fd < 0)
		return e->kind == K_PERF && e->rpid != 0;
	fl = VG_(fcntl)(e->fd, VKI_F_GETFD, 0);
	return fl >= 0 && !(fl & VKI_FD_CLOEXEC);
}

static void kern_pre_exec(ThreadId tid)
{
	HChar path[256];
	struct exec_hdr h = { EXEC_MAGIC, 0, nbk_now_ns(), (ULong)nbk_inh_off, nbk_inh_mine, 0, nbk_proc_start(0) };
	ULong now = h.when_ns;
	SysRes f;
	Int fd;

	/* events opened on this process since the last slice (the
	 * perf-stat pattern: opened on the child just before its exec) */
	if (VG_(gettid)() == nb_pid())
		(void)nbk_attach_poll(tid, nbk_now_ns());
	/* --trace-children=no: the new image runs on the host's CPU, where
	 * no emulated kernel waits for the events */
	if ((!nperf && !nbk_ko_any()) || !VG_(clo_trace_children))
		return;
	nb_pmu_access();
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF) {
			nbk_sync(&ko[i]);
			nbk_upd_times(&ko[i], now);
		}
	exec_path(nb_pid(), path, sizeof path);
	f = VG_(open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0600);
	if (sr_isError(f))
		return;
	fd = (Int)sr_Res(f);
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind != K_FREE && survives(&ko[i]))
			h.nobj++;
	(void)VG_(write)(fd, &h, (Int)sizeof h);
	for (int i = 0; i < NOBJ; i++) {
		struct exec_obj x;

		if (ko[i].kind == K_FREE || !survives(&ko[i]))
			continue;
		VG_(memset)(&x, 0, sizeof x);
		x.o = ko[i];
		x.alive = ko[i].kind == K_PERF && ko[i].owner == tid;
		x.leader_seq = ko[ko[i].leader].seq;
		if (ko[i].kind == K_PERF) {
			ULong ten, trun;

			/* the other threads' copies end with them (de_thread) */
			x.o.count = nbk_total(&ko[i], &ten, &trun) - ko[i].child_count;
			x.o.child_count = ko[i].child_count;
			x.o.t_enabled = ten - ko[i].child_ten;
			x.o.t_running = trun - ko[i].child_trun;
			x.o.active = False;
			x.o.rb = 0;
			x.o.rb_len = 0;
			x.o.rbfd = 0;
			x.o.parent = -1;
			if (x.o.attr.enable_on_exec) {      /* event_enable_on_exec */
				x.o.attr.enable_on_exec = 0;
				x.o.enabled = True;
			}
		}
		(void)VG_(write)(fd, &x, (Int)sizeof x);
	}
	VG_(close)(fd);
	exec_pending = True;
}

/* The execve failed: the old image goes on, its events as they were. */
static void kern_exec_failed(void)
{
	HChar path[256];

	if (!exec_pending)
		return;
	exec_pending = False;
	exec_path(nb_pid(), path, sizeof path);
	VG_(unlink)(path);
}

/* SIGNAL sent to this process by system call SYSNO (ARGS); 0 none */
static Bool to_self(UInt sysno, UWord *args, UInt nargs)
{
	Int me = nb_pid();

	if (nargs < 2)
		return False;
	switch (sysno) {
	case __NR_kill:
		return args[1] != 0 && ((Int)args[0] == me || (Int)args[0] == 0);
	case __NR_tgkill:
		return nargs >= 3 && args[2] != 0 && (Int)args[0] == me;
	case __NR_tkill:
		return args[1] != 0 && (Int)args[0] == VG_(gettid)();
	}
	return False;
}

void nb_kern_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
	nbk_ptrace_pre_syscall(sysno, args, nargs);
	if (sysno == __NR_execve || sysno == __NR_execveat)
		kern_pre_exec(tid);
	/* a process that stops itself (raise(SIGSTOP), its tracer's stop
	 * at a signal): its copies' counts so far reach the opener, which
	 * may read them while it is stopped (multiattach, zero_attach) */
	if (to_self(sysno, args, nargs)) {
		nbk_stack_premap();      /* (a tracer's stop: no fault stops) */
		if (nperf)
			nbk_report_live();
	}
}

void nb_kern_post_syscall(UInt sysno, SysRes res)
{
	if ((sysno == __NR_execve || sysno == __NR_execveat) && sr_isError(res)) {
		kern_exec_failed();
		nbk_ptrace_exec_failed();
	}
	if (sysno == __NR_mmap && !sr_isError(res) && nperf)
		nbk_rb_mmap((Addr)sr_Res(res));
}

/* The new image's nbsim: the events of the image before the exec. */
void nbk_exec_load(void)
{
	HChar path[256];
	struct exec_hdr h;
	SysRes f;
	Int fd;

	exec_path(nb_pid(), path, sizeof path);
	f = VG_(open)(path, VKI_O_RDONLY, 0);
	if (sr_isError(f))
		return;
	fd = (Int)sr_Res(f);
	VG_(unlink)(path);
	/* a file another process left with this pid (its exec never reached a
	 * new nbsim: killed on the way, or a program nbsim does not run) is
	 * not ours: its start time is another.  (The test was "older than a
	 * minute", a guess about the host's speed: a busy host can start the
	 * new image later than that, and reuse a pid sooner.) */
	if (VG_(read)(fd, &h, (Int)sizeof h) != (Int)sizeof h || h.magic != EXEC_MAGIC ||
	    h.start == 0 || h.start != nbk_proc_start(0)) {
		VG_(close)(fd);
		return;
	}
	nbk_inh_mine = h.nbk_inh_mine;
	nbk_inh_off = (Off64T)h.nbk_inh_off;
	for (ULong k = 0; k < h.nobj; k++) {
		struct exec_obj x;
		int i;

		if (VG_(read)(fd, &x, (Int)sizeof x) != (Int)sizeof x)
			break;
		i = nbk_new_obj(x.o.kind);
		if (i < 0)
			break;
		ko[i] = x.o;
		ko[i].leader = (int)x.leader_seq;   /* resolved below */
		ko[i].owner = x.alive ? 1 : 0;      /* valgrind's first thread */
		ko[i].t_stamp = nbk_now_ns();
		if (ko[i].fd >= 0 && ko[i].fd < NBSIM_KERN_MAXFD)
			fd_obj[ko[i].fd] = i + 1;
		if (ko[i].kind == K_PERF) {
			nperf++;
			if (ko[i].seq >= next_seq)
				next_seq = ko[i].seq + 1;
			if (ko[i].id >= next_id)
				next_id = ko[i].id + 1;
		}
	}
	VG_(close)(fd);
	for (int i = 0; i < NOBJ; i++)          /* leaders: by their open order */
		if (ko[i].kind == K_PERF) {
			ULong ls = (ULong)ko[i].leader;

			ko[i].leader = i;
			for (int j = 0; j < NOBJ; j++)
				if (ko[j].kind == K_PERF && ko[j].seq == ls)
					ko[i].leader = j;
		}
	if (nperf) {
		/* on the PMU before the guest's first instruction: nothing
		 * is translated yet, so the needs change without a discard
		 * (as --nbsim-program's registers, nb_progfile.c) */
		nbk_place_thread(1);
		nbk_rb_exec();                   /* COMM, MMAP2 of the new image */
		nb_need_preload = True;
		nbk_sched_in_thread(1, nbk_now_ns());
		nb_pmu_written(NB_PMU_NO_WRITE);
		nb_need_preload = False;
	}
}

