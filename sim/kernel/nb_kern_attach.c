/*
 * nb_kern_attach.c - the emulated perf driver's events on another task
 * (perf_event_open with pid > 0): a thread of this process is the
 * event's owner as any; another process (the perf-stat pattern: a forked
 * child, opened before its exec with enable_on_exec and inherit) counts
 * under its own nbsim.
 *
 * Another process: the opener keeps the event (never on its own PMU; its
 * count and times are what the target reports) and publishes its events
 * on that process in $TMPDIR/nbsim-kern-UID-TPID.attach (written to a
 * temporary name and renamed: a reader sees a whole set or none).  The
 * target's nbsim reads the file after each read(2) of its main thread
 * and at its execve, and makes each record it does not yet have a copy of
 * the opener's event, a remote copy like a forked child's inherited one
 * (nb_kern_task.c: rpid, rid): it counts there, follows the exec (with
 * enable_on_exec) and its own children (inherit), and reports its count
 * and times to the opener's .inherit file when it ends, which the
 * opener's read(2) folds in.  The file's header carries the target's
 * start time (/proc/PID/stat field 22), so that a process that gets the
 * pid later takes nothing.  The opener's ENABLE and DISABLE republish the
 * file with their count, and the target's copy follows at its next look
 * when the count moved (an enable_on_exec enables the copy alone).  Limits: RESET,
 * REFRESH and PERIOD on the opener's event do not reach the target's
 * copy, and a target not running under nbsim never counts (its count
 * stays 0).
 */
#include "nb_kern_int.h"

extern ThreadId VG_(lwpid_to_vgtid)(Int lwpid);   /* valgrind core */

struct att_hdr {
	ULong magic, start, nrec;
	Int opener, pad;
};
struct att_rec {
	ULong id, leader_id, seq;
	uint64_t config;
	Int enabled;
	UInt toggles;
	struct perf_event_attr attr;
};
#define ATT_MAGIC 0x6e6273696d617474ULL  /* "nbsimatt" */

static void attach_path(Int pid, HChar *buf, SizeT len)
{
	VG_(snprintf)(buf, (Int)len, "%s/nbsim-kern-%u-%d.attach", VG_(tmpdir)(),
		      (UInt)nb_euid(), pid);
}

/* The numbers after "KEY:" in /proc/PID/status (Uid: real, effective,
 * saved, fs).  False if the process does not exist. */
static Bool proc_ids(Int pid, const HChar *key, UInt v[4])
{
	HChar path[64], buf[2048];
	SysRes r;
	Int fd, n;
	const HChar *p;

	VG_(snprintf)(path, sizeof path, "/proc/%d/status", pid);
	r = VG_(open)(path, VKI_O_RDONLY, 0);
	if (sr_isError(r))
		return False;
	fd = (Int)sr_Res(r);
	n = VG_(read)(fd, buf, sizeof buf - 1);
	VG_(close)(fd);
	if (n <= 0)
		return False;
	buf[n] = 0;
	p = VG_(strstr)(buf, key);
	for (int k = 0; k < 4; k++)
		v[k] = (UInt)-1;
	if (!p)
		return True;
	p += VG_(strlen)(key);
	for (int k = 0; k < 4; k++) {
		UInt x = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		for (; *p >= '0' && *p <= '9'; p++)
			x = x * 10 + (UInt)(*p - '0');
		v[k] = x;
	}
	return True;
}

/* The task PID (> 0) of perf_event_open: *OWNER a thread of this process,
 * or *TPID another process.  kernel/events/core.c perf_event_open:
 * find_lively_task_by_vpid (ESRCH), then perf_check_permission:
 * perfmon_capable() or ptrace_may_access(PTRACE_MODE_READ_REALCREDS),
 * whose test (kernel/ptrace.c __ptrace_may_access) is the caller's real
 * uid and gid equal to the target's real, effective and saved ones, and
 * the target dumpable (SUID_DUMP_USER: not after prctl(PR_SET_DUMPABLE,
 * 0) or a set-id exec) (EACCES otherwise).  Nothing else: a task of the
 * same user need not be the caller's child nor traced (PTRACE_MODE_READ;
 * Yama's ptrace_scope restricts only PTRACE_MODE_ATTACH).  Dumpable is
 * read from the owner of /proc/PID/stat, which fs/proc/base.c
 * task_dump_owner makes root for a task that is not (its files; the
 * directory keeps the effective uid). */
Word nbk_target(Int pid, Bool priv, ThreadId *owner, Int *tpid)
{
	UInt u[4], g[4];
	/* the caller's real ids (the tool API has only the effective ones) */
	UInt ru = (UInt)sr_Res(VG_(do_syscall)(__NR_getuid, 0, 0, 0, 0, 0, 0, 0, 0));
	UInt rg = (UInt)sr_Res(VG_(do_syscall)(__NR_getgid, 0, 0, 0, 0, 0, 0, 0, 0));
	ThreadId t = VG_(lwpid_to_vgtid)(pid);

	*owner = 0;
	*tpid = 0;
	if (t != 0 && pid != 0) {
		*owner = t;
		return 0;
	}
	if (!proc_ids(pid, "Uid:", u) || !proc_ids(pid, "Gid:", g))
		return -E_SRCH;
	if (!priv && (u[0] != ru || u[1] != ru || u[2] != ru || g[0] != rg || g[1] != rg || g[2] != rg))
		return -E_ACCES;
	if (!priv) {
		HChar path[32];
		struct vg_stat st;

		VG_(snprintf)(path, sizeof path, "/proc/%d/stat", pid);
		if (!sr_isError(VG_(stat)(path, &st)) && st.uid != u[1])
			return -E_ACCES;        /* not dumpable */
	}
	*tpid = pid;
	return 0;
}

/* The opener: publish its events on process TPID (all of them, in open
 * order; none left: the file goes). */
void nbk_attach_publish(Int tpid)
{
	HChar path[256], tmp[280];
	struct att_hdr h = { ATT_MAGIC, nbk_proc_start(tpid), 0, nb_pid(), 0 };
	SysRes f;
	Int fd;
	ULong last = 0;

	attach_path(tpid, path, sizeof path);
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF && ko[i].tpid == tpid && !ko[i].foreign)
			h.nrec++;
	if (!h.nrec) {
		VG_(unlink)(path);
		return;
	}
	VG_(snprintf)(tmp, sizeof tmp, "%s.%d", path, nb_pid());
	f = VG_(open)(tmp, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0600);
	if (sr_isError(f))
		return;
	fd = (Int)sr_Res(f);
	(void)VG_(write)(fd, &h, (Int)sizeof h);
	for (;;) {
		int m = -1;
		struct att_rec r;

		for (int i = 0; i < NOBJ; i++)
			if (ko[i].kind == K_PERF && ko[i].tpid == tpid && !ko[i].foreign &&
			    ko[i].seq > last && (m < 0 || ko[i].seq < ko[m].seq))
				m = i;
		if (m < 0)
			break;
		last = ko[m].seq;
		VG_(memset)(&r, 0, sizeof r);
		r.id = ko[m].id;
		r.leader_id = ko[ko[m].leader].id;
		r.seq = ko[m].seq;
		r.config = ko[m].config;
		r.enabled = ko[m].enabled;
		r.toggles = ko[m].toggles;
		r.attr = ko[m].attr;
		(void)VG_(write)(fd, &r, (Int)sizeof r);
	}
	VG_(close)(fd);
	VG_(rename)(tmp, path);
}

/* The target: the opener's events it has no copy of yet become copies
 * owned by thread TID (the task the pid names: the main thread).  True if
 * some were made. */
Bool nbk_attach_poll(ThreadId tid, ULong now)
{
	HChar path[256];
	struct att_hdr h;
	SysRes f;
	Int fd;
	Bool made = False;

	attach_path(nb_pid(), path, sizeof path);
	f = VG_(open)(path, VKI_O_RDONLY, 0);
	if (sr_isError(f))
		return False;
	fd = (Int)sr_Res(f);
	if (VG_(read)(fd, &h, (Int)sizeof h) != (Int)sizeof h || h.magic != ATT_MAGIC ||
	    h.start == 0 || h.start != nbk_proc_start(0)) {
		VG_(close)(fd);
		return False;
	}
	for (ULong k = 0; k < h.nrec; k++) {
		struct att_rec r;
		int i, have = 0;

		if (VG_(read)(fd, &r, (Int)sizeof r) != (Int)sizeof r)
			break;
		for (int j = 0; j < NOBJ; j++)
			if (ko[j].kind == K_PERF && ko[j].rpid == h.opener && ko[j].rid == r.id) {
				have = 1;
				/* the opener's ENABLE / DISABLE since (its ioctl
				 * republishes the file); not its state alone: an
				 * event opened disabled with enable_on_exec is on
				 * at the exec, in the copy, while the opener's
				 * record still says off (perf stat's pattern: its
				 * count stopped at the first read after the exec) */
				if (ko[j].toggles != r.toggles) {
					ko[j].toggles = r.toggles;
					if (ko[j].enabled != (r.enabled != 0)) {
						nbk_upd_times(&ko[j], now);
						ko[j].enabled = r.enabled != 0;
						made = True;
					}
				}
			}
		if (have)
			continue;
		i = nbk_new_obj(K_PERF);
		if (i < 0)
			break;
		ko[i].seq = next_seq++;
		ko[i].id = next_id++;
		ko[i].owner = tid;
		ko[i].lwpid = VG_(gettid)();
		ko[i].leader = i;
		for (int j = 0; j < NOBJ; j++)      /* the leader's copy, made before */
			if (r.leader_id != r.id && ko[j].kind == K_PERF && ko[j].rpid == h.opener &&
			    ko[j].rid == r.leader_id)
				ko[i].leader = j;
		ko[i].config = r.config;
		ko[i].attr = r.attr;
		ko[i].thread = clo_ht ? nb_lp_of(tid) & 1 : 0;
		ko[i].enabled = r.enabled != 0;
		ko[i].toggles = r.toggles;
		ko[i].period = r.attr.freq ? 1 : r.attr.sample_period;
		ko[i].left = (Long)ko[i].period;
		ko[i].t_stamp = now;
		ko[i].counter = -1;
		ko[i].rpid = h.opener;
		ko[i].rid = r.id;
		nperf++;
		made = True;
	}
	VG_(close)(fd);
	if (made)
		nbk_place_thread(tid);
	return made;
}

/* After each read(2) of the guest (KOP_ATTACH, from the preload's read
 * wrapper: a client request, where the tool may re-instrument; valgrind's
 * syscall and thread-start hooks may not discard translations): events
 * opened on this process meanwhile come on the PMU (the kernel installs
 * them at once, perf_install_in_context).  The return of a blocking
 * read is the point that does not depend on the host's timing: a child
 * blocked on a pipe until its parent has opened the events (perf stat's
 * and PAPI_attach's pattern) takes them as the read returns, the first
 * instruction it counts the one after it, as on Linux.  A process that
 * neither reads nor execs takes none.  One stat(2) each time; the file
 * is read again only when it changed. */
void nbk_attach_take(ThreadId tid)
{
	static ULong seen_ino, seen_mtime, seen_ns, seen_size;
	HChar path[256];
	struct vg_stat st;
	ULong now;

	if (VG_(gettid)() != nb_pid())
		return;                          /* the pid names the main thread */
	attach_path(nb_pid(), path, sizeof path);
	if (sr_isError(VG_(stat)(path, &st)))
		return;
	if (st.ino == seen_ino && st.mtime == seen_mtime && st.mtime_nsec == seen_ns &&
	    (ULong)st.size == seen_size)
		return;
	seen_ino = st.ino;
	seen_mtime = st.mtime;
	seen_ns = st.mtime_nsec;
	seen_size = (ULong)st.size;
	nb_pmu_access();
	nb_tm_anchor();                  /* (a PMU access: nb_kern_request_pmu) */
	now = nbk_now_ns();
	if (nbk_attach_poll(tid, now)) {
		nbk_sched_out_all(now);
		nbk_sched_in_thread(tid, now);
	}
	nb_pmu_written(NB_PMU_NO_WRITE);
}

/* The opener's exit: its files go (the targets' copies then have no
 * original to report to, as on Linux when the event is closed). */
void nbk_attach_fini(void)
{
	HChar path[256];

	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF && ko[i].tpid && !ko[i].foreign) {
			attach_path(ko[i].tpid, path, sizeof path);
			VG_(unlink)(path);
			nbk_rb_path(nb_pid(), ko[i].id, "rb", path, sizeof path);
			VG_(unlink)(path);
			nbk_rb_path(nb_pid(), ko[i].id, "fifo", path, sizeof path);
			VG_(unlink)(path);
		}
}

/* The new image of a traced exec, after its stop and before its first
 * instruction (nb_kern_ptrace.c): the events its tracer opened on it
 * during the stop (attach2, attach3: PAPI_attach then PAPI_start while
 * the child waits at its exec's SIGTRAP) are on the PMU from that first
 * instruction, as on Linux.  Nothing is translated yet (as
 * nbk_exec_load). */
void nbk_attach_init(void)
{
	ULong now = nbk_now_ns();

	nb_pmu_access();
	nb_need_preload = True;
	if (nbk_attach_poll(1, now)) {
		nbk_sched_out_all(now);
		nbk_sched_in_thread(1, now);
	}
	nb_pmu_written(NB_PMU_NO_WRITE);
	nb_need_preload = False;
}
