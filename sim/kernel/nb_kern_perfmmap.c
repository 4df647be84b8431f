/*
 * nb_kern_perfmmap.c - the emulated perf driver's ring buffer: its
 * records as kernel/events/core.c writes them (PERF_RECORD_SAMPLE with
 * the sample_type fields perf asks for, COMM, MMAP2, EXIT, THROTTLE /
 * UNTHROTTLE, each non-sample record with its sample_id when
 * sample_id_all), and where they go: the mapping of this process (an
 * event of ours or an inherited copy's original, perf_output_begin) or,
 * for an event another process opened on us (nb_kern_attach.c), the
 * opener's mapping, a file in $TMPDIR both processes share
 * (nbsim-kern-UID-OPENER-ID.rb: the opener's preload maps it MAP_SHARED,
 * KOP_RBFILE; this side writes it with pwrite, the data first, then
 * data_head, as perf_output_put_handle publishes the head after the
 * data).  The layout: struct perf_event_mmap_page, then data_size bytes
 * (/usr/include/linux/perf_event.h).
 */
#include "nb_kern_int.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_stacktrace.h"
#include "nb_simtime.h"

#define HDR_OFF offsetof(struct perf_event_mmap_page, data_head)

/* The TIME of samples and records (perf_event_clock: the kernel's
 * local_clock, at CLOCK_MONOTONIC's rate).  With --nbsim-time=simulated
 * the simulated machine's CLOCK_MONOTONIC (nb_simtime.c), which the
 * program's own clock_gettime reads: its samples fall between its own
 * readings, at the same times run after run whatever the host's load.
 * Otherwise (nbsim's default) the host's, NOW: perf record's own
 * side-band event is the host kernel's, its records of the child on the
 * host's clock. */
static ULong rec_ns(ULong now)
{
	ULong ns;

	return nb_time_read(VG_(get_running_tid)(), VKI_CLOCK_MONOTONIC, &ns) ? ns : now;
}

/* The files of event ID opened by process OPENER on another process:
 * SUFFIX "rb" its ring buffer, "fifo" its descriptor (poll) */
void nbk_rb_path(Int opener, ULong id, const HChar *suffix, HChar *buf, SizeT len)
{
	VG_(snprintf)(buf, (Int)len, "%s/nbsim-kern-%u-%d-%llu.%s", VG_(tmpdir)(),
		      (UInt)nb_euid(), opener, id, suffix);
}

/* A wakeup of the opener's pollers (perf_event_wakeup): a byte into the
 * FIFO its descriptor is (the preload's poll wrapper drains it, so that
 * each wakeup is reported once, as perf_poll's atomic_xchg of rb->poll) */
static void wake_remote(struct kobj *e)
{
	HChar path[256];
	SysRes f;
	UChar b = 1;

	nbk_rb_path(e->rpid, e->rid, "fifo", path, sizeof path);
	f = VG_(open)(path, VKI_O_WRONLY | VKI_O_NONBLOCK, 0);
	if (sr_isError(f))
		return;
	(void)VG_(write)((Int)sr_Res(f), &b, 1);
	VG_(close)((Int)sr_Res(f));
}

/* NW words into the opener's file (a remote copy E); False if they do
 * not fit (or there is no file) */
static Bool put_file(struct kobj *e, const ULong *w, unsigned nw)
{
	ULong hd[4];            /* data_head, data_tail, data_offset, data_size */
	ULong n = nw * 8ULL, at, first;
	SysRes r;

	if (!e->rbfd) {
		HChar path[256];
		SysRes f;

		nbk_rb_path(e->rpid, e->rid, "rb", path, sizeof path);
		f = VG_(open)(path, VKI_O_RDWR, 0);
		if (sr_isError(f))
			return False;
		e->rbfd = (Int)sr_Res(f) + 1;
	}
	r = VG_(do_syscall)(__NR_pread64, (UWord)(e->rbfd - 1), (UWord)hd, sizeof hd, HDR_OFF, 0, 0, 0, 0);
	if (sr_isError(r) || sr_Res(r) != sizeof hd || !hd[3] ||
	    (hd[3] & (hd[3] - 1)) || hd[3] - (hd[0] - hd[1]) < n)
		return False;
	at = hd[0] & (hd[3] - 1);
	first = hd[3] - at < n ? hd[3] - at : n;
	(void)VG_(do_syscall)(__NR_pwrite64, (UWord)(e->rbfd - 1), (UWord)w, first, hd[2] + at, 0, 0, 0, 0);
	if (first < n)
		(void)VG_(do_syscall)(__NR_pwrite64, (UWord)(e->rbfd - 1), (UWord)((const UChar *)w + first),
				      n - first, hd[2], 0, 0, 0, 0);
	hd[0] += n;
	(void)VG_(do_syscall)(__NR_pwrite64, (UWord)(e->rbfd - 1), (UWord)&hd[0], 8, HDR_OFF, 0, 0, 0, 0);
	/* the wakeup (perf_output_wakeup): every wakeup_events samples, or
	 * with watermark past wakeup_watermark bytes, else (the kernel's
	 * default watermark) half the buffer */
	if (e->attr.watermark ? hd[0] - e->wake_head >= (e->attr.wakeup_watermark ? e->attr.wakeup_watermark : hd[3] / 2)
	    : e->attr.wakeup_events ? ++e->wakeups >= e->attr.wakeup_events
	    : hd[0] - e->wake_head >= hd[3] / 2) {
		e->wake_head = hd[0];
		e->wakeups = 0;
		wake_remote(e);
	}
	return True;
}

/* NW words into this process's mapping of event O; False if they do not
 * fit */
static Bool put_mem(struct kobj *o, const ULong *w, unsigned nw)
{
	struct perf_event_mmap_page *h = (struct perf_event_mmap_page *)o->rb;
	ULong size = o->rb_len - PAGE, head, tail;
	UChar *data = (UChar *)(o->rb + PAGE);
	const UChar *src = (const UChar *)w;

	if (!o->rb || !size)
		return True;            /* no buffer mapped: nothing to lose */
	head = h->data_head;
	tail = h->data_tail;
	if (size - (head - tail) < nw * 8ULL)
		return False;
	for (unsigned b = 0; b < nw * 8; b++)
		data[(head + b) & (size - 1)] = src[b];
	h->data_head = head + nw * 8;
	return True;
}

/* The id perf knows the event by: the original's (primary_event_id) */
static ULong primary_id(const struct kobj *e)
{
	return e->rpid ? e->rid : e->parent >= 0 ? ko[e->parent].id : e->id;
}

static ULong pid_tid(const struct kobj *e)
{
	return (ULong)(UInt)nb_pid() | (ULong)(UInt)e->lwpid << 32;
}

/* struct sample_id (perf_event__id_header_size): appended to non-sample
 * records when sample_id_all */
static unsigned sample_id(const struct kobj *e, ULong now, ULong *w)
{
	uint64_t st = e->attr.sample_type;
	unsigned k = 0;

	if (!e->attr.sample_id_all)
		return 0;
	if (st & PERF_SAMPLE_TID)
		w[k++] = pid_tid(e);
	if (st & PERF_SAMPLE_TIME)
		w[k++] = now;
	if (st & PERF_SAMPLE_ID)
		w[k++] = primary_id(e);
	if (st & PERF_SAMPLE_STREAM_ID)
		w[k++] = e->id;
	if (st & PERF_SAMPLE_CPU)
		w[k++] = e->thread;
	if (st & PERF_SAMPLE_IDENTIFIER)
		w[k++] = primary_id(e);
	return k;
}

#define HDR(type, misc, words) ((ULong)(type) | (ULong)(misc) << 32 | (ULong)((words) * 8) << 48)
#define CALLCHAIN_MAX 64

/* A record of event E: a copy's goes to its original's buffer, a remote
 * copy's to its opener's file.  A record that does not fit is lost
 * (read_format LOST, the event's lost_samples), and the buffer counts it
 * (rb->lost): the next record that fits is preceded by a PERF_RECORD_LOST
 * of the count so far, which then starts again (kernel/events/
 * ring_buffer.c __perf_output_begin: the two reserved together, so both
 * or neither).  Its id: the original's, the one perf knows (Linux writes
 * the writing event's own, an inherited copy's unknown to perf). */
void nbk_rb_write(struct kobj *e, const ULong *w, unsigned nw)
{
	struct kobj *b = e->rpid ? e : e->parent >= 0 ? &ko[e->parent] : e;
	ULong all[3 + 8 + 16 + CALLCHAIN_MAX + 2];
	const ULong *out = w;
	unsigned n = nw;
	Bool ok;

	if (b->rb_lost && nw + 3 + 8 <= sizeof all / sizeof all[0]) {
		ULong now = rec_ns(nbk_now_ns());
		unsigned k = 3;

		all[1] = primary_id(e);
		all[2] = b->rb_lost;
		k += sample_id(e, now, all + k);
		all[0] = HDR(PERF_RECORD_LOST, 0, k);
		for (unsigned i = 0; i < nw; i++)
			all[k + i] = w[i];
		out = all;
		n = k + nw;
	}
	ok = e->rpid ? put_file(e, out, n) : put_mem(b, out, n);
	if (ok && out == all)
		b->rb_lost = 0;
	if (!ok) {
		b->lost++;
		b->rb_lost++;
	}
}

/* PERF_RECORD_SAMPLE of event E at IP (perf_output_sample's order). */
void nbk_rb_sample(struct kobj *e, Addr ip, ULong now)
{
	ULong w[16 + CALLCHAIN_MAX + 2];
	unsigned k = 1;
	uint64_t st = e->attr.sample_type;

	now = rec_ns(now);
	if (st & PERF_SAMPLE_IDENTIFIER)
		w[k++] = primary_id(e);
	if (st & PERF_SAMPLE_IP)
		w[k++] = ip;
	if (st & PERF_SAMPLE_TID)
		w[k++] = pid_tid(e);
	if (st & PERF_SAMPLE_TIME)
		w[k++] = now;
	if (st & PERF_SAMPLE_ADDR)
		w[k++] = 0;
	if (st & PERF_SAMPLE_ID)
		w[k++] = primary_id(e);
	if (st & PERF_SAMPLE_STREAM_ID)
		w[k++] = e->id;
	if (st & PERF_SAMPLE_CPU)
		w[k++] = e->thread;
	if (st & PERF_SAMPLE_PERIOD)
		w[k++] = e->period;             /* hwc->last_period */
	if (st & PERF_SAMPLE_READ) {
		/* a single event's read_format (not GROUP: refused at open) */
		uint64_t rf = e->attr.read_format;

		w[k++] = e->count;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			w[k++] = e->t_enabled;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			w[k++] = e->t_running;
		if (rf & PERF_FORMAT_ID)
			w[k++] = primary_id(e);
		if (rf & PERF_FORMAT_LOST)
			w[k++] = e->lost;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		/* user-mode only (exclude_callchain_kernel, no kernel
		 * samples): PERF_CONTEXT_USER, then the IPs.  Linux walks
		 * the frame pointers (perf_callchain_user); valgrind's
		 * unwinder (CFI, then frame pointers) walks the same stack
		 * where the program keeps them, and further where it has no
		 * frame pointers. */
		Addr ips[CALLCHAIN_MAX];
		UInt n = VG_(get_StackTrace)(VG_(get_running_tid)(), ips, CALLCHAIN_MAX - 1, NULL, NULL, 0);
		unsigned nrpos = k++;

		w[k++] = (ULong)PERF_CONTEXT_USER;
		/* the first the sampled IP; the others valgrind's, inside
		 * their call instructions */
		for (UInt i = 0; i < n; i++) {
			const NSegment *sg = VG_(am_find_nsegment)(ips[i]);

			/* past the outermost frame the unwinder reads stack
			 * junk; Linux's walk ends there (_start's frame
			 * pointer 0): stop at an address in no code */
			if (i && (!sg || !sg->hasX || (sg->kind != SkFileC && sg->kind != SkAnonC)))
				break;
			w[k++] = i ? ips[i] : ip;
		}
		w[nrpos] = k - nrpos - 1;
	}
	w[0] = HDR(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, k);
	nbk_rb_write(e, w, k);
}

/* PERF_RECORD_THROTTLE / UNTHROTTLE: time, id, stream_id (perf_log_throttle) */
void nbk_rb_throttle(struct kobj *e, ULong now, Bool enable)
{
	ULong w[4 + 8];
	unsigned k = 4;

	now = rec_ns(now);
	w[1] = now;
	w[2] = primary_id(e);
	w[3] = e->id;
	k += sample_id(e, now, w + k);
	w[0] = HDR(enable ? PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE, 0, k);
	nbk_rb_write(e, w, k);
}

/* Events that take side-band records: an original whose buffer is here,
 * or a remote copy (an inherited copy's records are its original's) */
static Bool sideband(const struct kobj *e)
{
	return e->kind == K_PERF && e->parent < 0 && !e->foreign && !e->tpid;
}

/* PERF_RECORD_MMAP2 of segment S to the events with attr.mmap2
 * (perf_event_mmap_output) */
static void mmap2(const NSegment *s, ULong now)
{
	const HChar *fn = VG_(am_get_filename)(s);
	ULong w[13 + 512 / 8 + 8];
	SizeT fl;

	if (!fn)
		return;
	fl = VG_(strlen)(fn);
	if (fl > 500)
		return;
	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];
		unsigned k;

		if (!sideband(e) || !e->attr.mmap2 || (!e->rb && !e->rpid))
			continue;
		w[1] = pid_tid(e);
		w[2] = s->start;
		w[3] = s->end - s->start + 1;
		w[4] = (ULong)s->offset;
		/* maj, min (new_encode_dev's parts), ino, ino_generation */
		w[5] = (ULong)(UInt)((s->dev >> 8) & 0xfff) | (ULong)(UInt)((s->dev & 0xff) | ((s->dev >> 12) & 0xfff00)) << 32;
		w[6] = s->ino;
		w[7] = 0;
		/* prot, flags (MAP_PRIVATE) */
		w[8] = (ULong)((s->hasR ? 1 : 0) | (s->hasW ? 2 : 0) | (s->hasX ? 4 : 0)) | (ULong)2 << 32;
		k = 9;
		VG_(memset)(&w[k], 0, (fl / 8 + 1) * 8);
		VG_(memcpy)(&w[k], fn, fl);
		k += (unsigned)(fl / 8 + 1);
		k += sample_id(e, now, w + k);
		w[0] = HDR(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, k);
		nbk_rb_write(e, w, k);
	}
}

/* After an mmap(2) of the guest at A: its executable file mapping */
void nbk_rb_mmap(Addr a)
{
	const NSegment *s = VG_(am_find_nsegment)(a);

	if (s && s->kind == SkFileC && s->hasX)
		mmap2(s, rec_ns(nbk_now_ns()));
}

/* The new image (an exec): PERF_RECORD_COMM (comm_exec) and the MMAP2 of
 * its executable mappings (the program, its interpreter), as the
 * kernel's exec and ELF loader write them. */
void nbk_rb_exec(void)
{
	ULong now = rec_ns(nbk_now_ns()), w[8 + 8];
	const HChar *exe = VG_(args_the_exename), *b;
	HChar comm[16];
	Addr starts[256];
	Int n;

	if (!exe)
		return;
	for (b = exe + VG_(strlen)(exe); b > exe && b[-1] != '/'; b--)
		;
	VG_(memset)(comm, 0, sizeof comm);
	VG_(strncpy)(comm, b, 15);       /* TASK_COMM_LEN */
	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];
		unsigned k;

		if (!sideband(e) || !e->attr.comm || (!e->rb && !e->rpid))
			continue;
		w[1] = pid_tid(e);
		VG_(memset)(&w[2], 0, 16);
		VG_(memcpy)(&w[2], comm, VG_(strlen)(comm));
		k = 4;
		k += sample_id(e, now, w + k);
		w[0] = HDR(PERF_RECORD_COMM, e->attr.comm_exec ? PERF_RECORD_MISC_COMM_EXEC : 0, k);
		nbk_rb_write(e, w, k);
	}
	n = VG_(am_get_segment_starts)(SkFileC, starts, 256);
	for (Int j = 0; j < n; j++) {
		const NSegment *s = VG_(am_find_nsegment)(starts[j]);

		if (s && s->hasX)
			mmap2(s, now);
	}
}

/* A task record (FORK, EXIT) into each buffer that follows the task:
 * pid, ppid, tid of the event's task (tid_of_event) or the running
 * thread, ptid (the parent), time */
static void task_record(unsigned type, Bool tid_of_event)
{
	ULong now = rec_ns(nbk_now_ns()), w[6 + 8];

	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];
		UInt tid = tid_of_event ? (UInt)e->lwpid : (UInt)VG_(gettid)();
		unsigned k;

		if (!sideband(e) || !e->attr.task || (!e->rb && !e->rpid))
			continue;
		w[1] = (ULong)(UInt)nb_pid() | (ULong)(UInt)VG_(getppid)() << 32;
		w[2] = (ULong)tid | (ULong)(UInt)VG_(getppid)() << 32;
		w[3] = now;
		k = 4;
		k += sample_id(e, now, w + k);
		w[0] = HDR(type, 0, k);
		nbk_rb_write(e, w, k);
	}
}

/* PERF_RECORD_FORK (attr.task) in a forked child, through the copies
 * that report to the parent (nbk_task_after_fork): pid, ppid, tid, ptid,
 * time, as perf_event_fork writes it for the new task into the buffers
 * of the events that follow it (kernel/events/core.c perf_event_task).
 * A single-threaded parent's forking thread is its pid (ptid). */
void nbk_rb_fork(void)
{
	task_record(PERF_RECORD_FORK, False);
}

/* PERF_RECORD_EXIT (attr.task) at the process's exit: pid, ppid, tid,
 * ptid, time */
void nbk_rb_exit(void)
{
	task_record(PERF_RECORD_EXIT, True);
	/* the task's end wakes the pollers (perf_event_exit_event) */
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF && ko[i].rpid && ko[i].parent < 0)
			wake_remote(&ko[i]);
}
