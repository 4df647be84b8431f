/*
 * nb_kern_task.c - the emulated perf driver across task boundaries:
 * inherit (copies of a creator's inheriting events for the threads and
 * forked processes created afterwards, summed into the original when they
 * exit; a forked child's nbsim reports through a file); exec is
 * nb_kern_exec.c.  nb_kern.c has the rest of the emulated kernel.
 */
#include "nb_kern_int.h"

struct inh_rec {
	ULong magic, id, count, ten, trun, src_id;
	Int src, pad;
};
#define INH_MAGIC 0x6e6273696d696e68ULL  /* "nbsiminh" */
#define INH_LIVE 0x6e6273696d6c6976ULL   /* "nbsimliv" */
static struct inh_rec live[32];          /* live copies' last counts; id 0 free */

/* ---- inherit (kernel/events/core.c: inherit_task_group, inherit_event,
 * perf_event_exit_task / sync_child_event, perf_event_read_value) ---- */

/* A copy of event P for thread TID (inherit_event): its own count from 0,
 * P's enabled state and period; the copy of a copy is its original's (the
 * kernel's child events all point at the original).  REMOTE: the copy
 * lives in a forked child, the original in process RPID. */
static int copy_event(int p, ThreadId tid, int leader, Bool remote, Int rpid)
{
	int i = nbk_new_obj(K_PERF);
	struct kobj *e, *o = &ko[p];

	if (i < 0)
		return -1;
	e = &ko[i];
	e->seq = next_seq++;
	e->id = next_id++;
	e->owner = tid;
	e->lwpid = o->lwpid;             /* replaced once the thread runs */
	e->leader = leader < 0 ? i : leader;
	e->config = o->config;
	e->attr = o->attr;
	e->pcpu = o->pcpu;
	e->thread = clo_ht ? nb_lp_of(tid) & 1 : 0;
	e->enabled = o->enabled;
	e->period = o->period;
	e->left = (Long)o->period;
	e->t_stamp = nbk_now_ns();
	e->counter = -1;
	if (o->rpid) {                   /* a copy already: its original */
		e->rpid = o->rpid;
		e->rid = o->rid;
	} else if (remote) {
		e->rpid = rpid;
		e->rid = o->parent >= 0 ? ko[o->parent].id : o->id;
	} else {
		e->parent = o->parent >= 0 ? o->parent : p;
	}
	nperf++;
	return i;
}

/* The groups of thread FROM that inherit (the leader's attr.inherit;
 * inherit_thread: threads only) copied for thread TO, in open order. */
static void copy_groups(ThreadId from, ThreadId to, Bool fork, Int rpid)
{
	ULong last = 0, top = next_seq;

	for (;;) {
		int l = -1, cl;

		for (int i = 0; i < NOBJ; i++)
			if (ko[i].kind == K_PERF && ko[i].owner == from && ko[i].leader == i &&
			    ko[i].seq > last && ko[i].seq < top && (l < 0 || ko[i].seq < ko[l].seq))
				l = i;
		if (l < 0)
			break;
		last = ko[l].seq;
		if (!ko[l].attr.inherit || (fork && ko[l].attr.inherit_thread))
			continue;
		cl = copy_event(l, to, -1, fork, rpid);
		if (cl < 0)
			break;
		for (ULong s = 0;;) {             /* the members, in open order */
			int m = -1;

			for (int i = 0; i < NOBJ; i++)
				if (ko[i].kind == K_PERF && ko[i].leader == l && i != l && ko[i].seq > s &&
				    ko[i].seq < top && (m < 0 || ko[i].seq < ko[m].seq))
					m = i;
			if (m < 0)
				break;
			s = ko[m].seq;
			if (copy_event(m, to, cl, fork, rpid) < 0)
				break;
		}
	}
}

/* The count of event E as read(2) gives it: its own, its exited copies'
 * and its live copies' (perf_event_read_value); the same for the times. */
ULong nbk_total(const struct kobj *e, ULong *ten, ULong *trun)
{
	int self = (int)(e - ko);
	ULong v = e->count + e->child_count;

	if (ten)
		*ten = e->t_enabled + e->child_ten;
	if (trun)
		*trun = e->t_running + e->child_trun;
	for (unsigned k = 0; k < sizeof live / sizeof live[0]; k++)
		if (live[k].id && live[k].id == e->id && !e->rpid && e->parent < 0 && !e->foreign) {
			v += live[k].count;
			if (ten)
				*ten += live[k].ten;
			if (trun)
				*trun += live[k].trun;
		}
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF && ko[i].parent == self) {
			v += ko[i].count + ko[i].child_count;
			if (ten)
				*ten += ko[i].t_enabled;
			if (trun)
				*trun += ko[i].t_running;
		}
	return v;
}

/*
 * A forked child's copies report to their original's process when they
 * exit: a record (id, count, times) appended to the file inherit_path(pid)
 * of that process, which folds them into the original at its next read
 * (the kernel adds them in the child's exit, before the parent's wait
 * returns: the child's nbsim writes before it exits).  A live record
 * (INH_LIVE) is a copy's count so far, written when its process stops
 * itself (a signal to itself: raise(SIGSTOP), where its tracer reads the
 * events it attached, multiattach): it replaces that copy's previous live
 * record, and the copy's final record removes it.  SRC, SRC_ID: the
 * copy's process and id.
 */
/* (struct inh_rec, below) */
Off64T nbk_inh_off;                       /* this process's file: read so far */
Bool nbk_inh_mine;                        /* ... made (unlinked at exit) */

static void inherit_path(Int pid, HChar *buf, SizeT len)
{
	VG_(snprintf)(buf, (Int)len, "%s/nbsim-kern-%u-%d.inherit", VG_(tmpdir)(),
		      (UInt)nb_euid(), pid);
}

static void report(const struct kobj *e, ULong magic)
{
	HChar path[256];
	struct inh_rec r = { magic, e->rid, e->count + e->child_count, e->t_enabled + e->child_ten,
			     e->t_running + e->child_trun, e->id, nb_pid(), 0 };
	SysRes f;

	inherit_path(e->rpid, path, sizeof path);
	f = VG_(open)(path, VKI_O_WRONLY | VKI_O_APPEND | VKI_O_CREAT, 0600);
	if (sr_isError(f))
		return;
	(void)VG_(write)((Int)sr_Res(f), &r, (Int)sizeof r);
	VG_(close)((Int)sr_Res(f));
}

static void report_exit(const struct kobj *e)
{
	report(e, INH_MAGIC);
}

/* This process stops itself: its copies' counts so far, to their
 * originals (a live record each). */
void nbk_report_live(void)
{
	ULong now = nbk_now_ns();

	nb_pmu_access();
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF && ko[i].rpid) {
			nbk_sync(&ko[i]);
			nbk_upd_times(&ko[i], now);
			report(&ko[i], INH_LIVE);
		}
}

/* Record R from the file: a live one replaces its copy's last; a final
 * one ends it (its count goes to the original's child_count). */
static void live_rec(const struct inh_rec *r, Bool final)
{
	unsigned k, n = sizeof live / sizeof live[0], fr = n;

	for (k = 0; k < n; k++) {
		if (live[k].id && live[k].src == r->src && live[k].src_id == r->src_id)
			break;
		if (!live[k].id && fr == n)
			fr = k;
	}
	if (final) {
		if (k < n)
			live[k].id = 0;
		return;
	}
	if (k == n)
		k = fr;
	if (k < n)
		live[k] = *r;
}

/* An inheriting event is opened: this process's records file, none left
 * from an earlier one. */
void nbk_inherit_open(void)
{
	HChar path[256];

	if (nbk_inh_mine)
		return;
	inherit_path(nb_pid(), path, sizeof path);
	VG_(unlink)(path);
	nbk_inh_mine = True;
	nbk_inh_off = 0;
}

/* The records of this process's exited remote copies. */
void nbk_inherit_drain(void)
{
	HChar path[256];
	struct inh_rec r[16];
	SysRes f;
	Int fd, n;

	if (!nbk_inh_mine)
		return;
	inherit_path(nb_pid(), path, sizeof path);
	f = VG_(open)(path, VKI_O_RDONLY, 0);
	if (sr_isError(f))
		return;
	fd = (Int)sr_Res(f);
	VG_(lseek)(fd, nbk_inh_off, VKI_SEEK_SET);
	while ((n = VG_(read)(fd, r, (Int)sizeof r)) >= (Int)sizeof r[0]) {
		n /= (Int)sizeof r[0];
		nbk_inh_off += (Off64T)n * (Off64T)sizeof r[0];
		for (Int k = 0; k < n; k++) {
			if (r[k].magic == INH_LIVE || r[k].magic == INH_MAGIC)
				live_rec(&r[k], r[k].magic == INH_MAGIC);
			for (int i = 0; i < NOBJ; i++)
				if (r[k].magic == INH_MAGIC && ko[i].kind == K_PERF && !ko[i].foreign &&
				    !ko[i].rpid && ko[i].parent < 0 && ko[i].id == r[k].id) {
					ko[i].child_count += r[k].count;
					ko[i].child_ten += r[k].ten;
					ko[i].child_trun += r[k].trun;
				}
		}
		VG_(lseek)(fd, nbk_inh_off, VKI_SEEK_SET);
	}
	VG_(close)(fd);
}

/* An inherited copy ends (its thread or process exits): its counts go to
 * its original (sync_child_event). */
static void copy_exit(struct kobj *e, ULong now)
{
	nbk_sched_out(e, now);
	nbk_upd_times(e, now);
	if (e->parent >= 0) {
		struct kobj *o = &ko[e->parent];

		o->child_count += e->count + e->child_count;
		o->child_ten += e->t_enabled + e->child_ten;
		o->child_trun += e->t_running + e->child_trun;
	} else if (e->rpid) {
		report_exit(e);
	}
	e->kind = K_FREE;
	nperf--;
}

void nb_kern_thread_create(ThreadId parent, ThreadId child)
{
	if (!nperf)
		return;
	copy_groups(parent, child, False, 0);
	nbk_place_thread(child);
}

/* Thread TID exits (perf_event_exit_task): its copies report to their
 * originals; the events it opened stay readable, their counts final. */
void nb_kern_thread_exit(ThreadId tid)
{
	ULong now;

	if (!nperf)
		return;
	nb_pmu_access();
	now = nbk_now_ns();
	nbk_sched_out_all(now);
	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];

		if (e->kind != K_PERF || e->owner != tid)
			continue;
		if (e->parent >= 0 || e->rpid)
			copy_exit(e, now);
		else
			e->owner = 0;            /* never runs again */
	}
	on_pmu = 0;
	nb_pmu_written(NB_PMU_NO_WRITE);
}

/* In a forked child, thread TID (the one that forked): the parent's
 * events become its descriptors' only (they run nowhere here); the
 * forking thread's inheriting groups get copies that report to the
 * parent process when this one exits. */
void nbk_task_after_fork(ThreadId tid)
{
	ULong now = nbk_now_ns();
	Int ppid = VG_(getppid)();
	ULong top = next_seq;

	nbk_ptrace_after_fork();
	if (!nperf)
		return;
	nb_pmu_access();
	nbk_sched_out_all(now);
	copy_groups(tid, tid, True, ppid);
	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];

		if (e->kind != K_PERF || e->seq >= top)
			continue;
		if (e->fd < 0) {                 /* copies of the parent's: theirs to report */
			e->kind = K_FREE;
			nperf--;
		} else {
			e->foreign = True;
			e->owner = 0;
			e->rb = 0;
		}
	}
	for (int i = 0; i < NOBJ; i++)     /* no descriptor may point at a freed copy */
		if (ko[i].kind == K_PERF && ko[i].parent >= 0 && ko[ko[i].parent].kind != K_PERF)
			ko[i].parent = -1;
	nbk_inh_mine = False;
	nbk_inh_off = 0;
	on_pmu = 0;
	nbk_place_thread(tid);
	nbk_sched_in_thread(tid, now);
	nb_pmu_written(NB_PMU_NO_WRITE);
	nbk_rb_fork();                   /* the new task, to the parent's buffers */
}


/* At exit: the copies still alive report (their process ends). */
void nb_kern_fini(void)
{
	HChar path[256];
	ULong now = nbk_now_ns();

	nbk_rb_exit();
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF && ko[i].rpid) {
			nbk_sync(&ko[i]);
			nbk_upd_times(&ko[i], now);
			report_exit(&ko[i]);
		}
	if (nbk_inh_mine) {
		inherit_path(nb_pid(), path, sizeof path);
		VG_(unlink)(path);
	}
	nbk_attach_fini();
}

