/*
 * nb_progfile.c - counting a whole program without its help (utils/nb_stat):
 *
 *  --nbsim-program=FILE  register images computed outside the tool (by the
 *                        component's scheduler and encoder, in nb_stat),
 *                        written into the PMU before the guest's first
 *                        instruction, in order.
 *  --nbsim-counts=FILE   at exit, the counters (valgrind's %p/%q{VAR}
 *                        expansion applies: one file per process with
 *                        --trace-children=yes), written to FILE.tmp and
 *                        renamed, so a reader never sees half a file.
 *                        "exit" is -1 in a FILE.execN (exec_snapshot); the
 *                        "lp" line of a thread (--ht=yes) names the logical
 *                        processor it first ran on and the one it ran on
 *                        last (they differ if it moved, --nbsim-ht-place=
 *                        migrate; sim/README.md "Hyper-Threading").
 *
 * Both formats: sim/nbsim_counts.h, which utils/nb_stat_run.c shares.
 *
 * Per-thread rows: the counter deltas between two thread switches belong to
 * the thread that ran (nbsim's thread hooks call nb_progfile_switch and
 * nb_progfile_thread_exit).  A forked child starts its rows and totals at zero
 * (the counters it inherits hold the parent's counts so far).
 *
 *  --nbsim-trace-forked=no   (with valgrind's --trace-children=yes: nb_stat
 *                        without --follow) the program's own execve stays
 *                        under nbsim, as a per-task counter stays with the
 *                        task across execve (a wrapper script that ends in
 *                        `exec prog`, a pyenv shim: the program counted is
 *                        the one they exec), while a forked child's execve
 *                        runs natively, as with --trace-children=no: its
 *                        counts are not wanted, and it costs no start of
 *                        valgrind.  Valgrind's tool API has no switch for
 *                        this; the child clears the core's own option
 *                        (VG_(clo_trace_children), m_options.c, declared
 *                        here: valgrind 3.19 as Debian 12 ships it), which
 *                        the core reads at each execve (PRE(sys_execve)).
 */
#include "nb_progfile.h"
#include "nbsim_counts.h"
#include "pub_tool_libcfile.h"

struct stat_row {
	UInt tid;
	Int lwp;
	ULong seq;               /* order of first run (the file's row order) */
	UChar lp_first, lp_last;
	ULong ctr[NB_NUM_COUNTERS];
};

static ULong base[NB_NUM_COUNTERS];      /* counter values at the start (fork) */
static ULong last[NB_NUM_COUNTERS];      /* ... at the last switch             */
static struct stat_row *live;            /* per ThreadId, VG_N_THREADS rows    */
static struct stat_row *done;            /* threads that exited                */
static UInt ndone, maxdone;
static ThreadId cur;                     /* thread running since the last switch */
static ULong n_switches;
static Int exit_status;                 /* the last exit/exit_group's status  */
static ULong base_cyc;                  /* cycles at the start (fork)         */
static ULong row_seq;                   /* rows started so far                */

#define CTR_MASK ((1ULL << 40) - 1)

/* (at every thread switch: one sync, not one per counter, which cost 18
 * syncs a lockstep hand-off, 1.5 us) */
static void read_counters(ULong *v)
{
	uint64_t x[NB_NUM_COUNTERS];

	nb_pmu_access();
	nb_pmu_read_all(&nb_pmu_state, x, nb_sig);
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		v[c] = (ULong)x[c];
}

/* The deltas since the last switch go to the thread that ran. */
static void attribute(void)
{
	ULong now[NB_NUM_COUNTERS];

	read_counters(now);
	if (cur && cur < VG_N_THREADS)
		for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
			live[cur].ctr[c] += (now[c] - last[c]) & CTR_MASK;
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		last[c] = now[c];
}

Bool nb_progfile_current(ThreadId tid)
{
	return !clo_counts || (tid == cur && tid < VG_N_THREADS && live[tid].tid == tid &&
			       live[tid].lp_last == (UChar)nb_lp_of(tid) &&
			       live[tid].lwp == nb_lwp(tid));
}

void nb_progfile_switch(ThreadId tid)
{
	if (!clo_counts)
		return;
	if (tid != cur) {
		attribute();
		n_switches++;
		cur = tid;
	}
	if (tid < VG_N_THREADS) {
		if (!live[tid].tid) {
			live[tid].lp_first = (UChar)nb_lp_of(tid);
			live[tid].seq = ++row_seq;
		}
		live[tid].lp_last = (UChar)nb_lp_of(tid);
		live[tid].tid = tid;
		live[tid].lwp = nb_lwp(tid);
	}
}

void nb_progfile_thread_exit(ThreadId tid)
{
	if (!clo_counts || tid >= VG_N_THREADS)
		return;
	if (tid == cur) {
		attribute();
		cur = 0;
	}
	if (!live[tid].tid)
		return;
	if (ndone == maxdone) {
		maxdone = maxdone ? 2 * maxdone : 16;
		done = VG_(realloc)("nbsim.stat.rows", done, maxdone * sizeof *done);
	}
	done[ndone++] = live[tid];
	VG_(memset)(&live[tid], 0, sizeof live[tid]);
}

/* In a forked child: the counts so far are the parent's. */
static void after_fork_child(ThreadId tid)
{
	read_counters(base);
	base_cyc = (ULong)nb_sig[NB_SIG_CYCLES];
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		last[c] = base[c];
	VG_(memset)(live, 0, VG_N_THREADS * sizeof *live);
	ndone = 0;
	cur = tid;
	if (tid < VG_N_THREADS) {
		if (!live[tid].tid)
			live[tid].lp_first = (UChar)nb_lp_of(tid);
		live[tid].lp_last = (UChar)nb_lp_of(tid);
		live[tid].tid = tid;
		live[tid].lwp = VG_(gettid)();
	}
}

extern Bool VG_(clo_trace_children);

static void untrace_child(ThreadId tid)
{
	(void)tid;
	VG_(clo_trace_children) = False;
}

static ULong hex_value(const HChar **s, Bool *ok)
{
	const HChar *p = *s;
	ULong v = 0;
	Int n = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (;; p++, n++) {
		HChar c = *p;
		UInt d;
		if (c >= '0' && c <= '9')
			d = (UInt)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (UInt)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (UInt)(c - 'A' + 10);
		else
			break;
		if (n == 16)
			*ok = False;
		v = v * 16 + d;
	}
	if (n == 0)
		*ok = False;
	*s = p;
	return v;
}

static void program_fail(Int line, const HChar *why)
{
	VG_(fmsg)("nbsim: %s line %d: %s\n", clo_program, line, why);
	VG_(exit)(1);
}

/* --nbsim-program: the MSR writes, applied as the guest's WRMSR would be. */
static void load_program(void)
{
	SysRes r = VG_(open)(clo_program, VKI_O_RDONLY, 0);
	struct vg_stat st;
	HChar *buf;
	Int fd, n = 0, got = 0, line = 1;
	const Int max = 1 << 16;

	if (sr_isError(r)) {
		VG_(fmsg)("nbsim: cannot open --nbsim-program file '%s'\n", clo_program);
		VG_(exit)(1);
	}
	fd = (Int)sr_Res(r);
	/* a directory opens, and its read fails: not an empty program */
	if (VG_(fstat)(fd, &st) == 0 && VKI_S_ISDIR(st.mode)) {
		VG_(fmsg)("nbsim: cannot read --nbsim-program file '%s': it is a directory\n",
			  clo_program);
		VG_(exit)(1);
	}
	buf = VG_(malloc)("nbsim.stat.prog", max + 1);
	while (n < max && (got = VG_(read)(fd, buf + n, max - n)) > 0)
		n += got;
	VG_(close)(fd);
	if (got < 0) {
		VG_(fmsg)("nbsim: cannot read --nbsim-program file '%s'\n", clo_program);
		VG_(exit)(1);
	}
	if (n == max)
		program_fail(0, "file too large");
	buf[n] = 0;
	for (HChar *p = buf; *p; line++) {
		HChar *e = p;
		while (*e && *e != '\n')
			e++;
		if (*e)
			*e++ = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p && *p != '#') {
			const HChar *q = p;
			Bool ok = True;
			ULong msr, val;
			if (VG_(strncmp)(q, NB_PROG_WRMSR, sizeof NB_PROG_WRMSR - 1) != 0)
				program_fail(line, "expected 'wrmsr 0xMSR 0xVALUE'");
			q += sizeof NB_PROG_WRMSR - 1;
			msr = hex_value(&q, &ok);
			val = hex_value(&q, &ok);
			while (*q == ' ' || *q == '\t')
				q++;
			if (!ok || *q || msr > 0xffffffffULL)
				program_fail(line, "expected 'wrmsr 0xMSR 0xVALUE'");
			if (nb_pmu_wrmsr(&nb_pmu_state, (uint32_t)msr, (uint64_t)val, nb_sig) != NB_PMU_OK)
				program_fail(line, nb_pmu_fault(&nb_pmu_state));
			if ((uint32_t)msr == NB_MSR_IA32_DS_AREA)
				nb_ds_area[0] = (uint64_t)val;
			nb_pebs_update((uint32_t)msr);
		}
		p = e;
	}
	VG_(free)(buf);
	nb_warn_unmodelled();
	nb_need_preload = True;
	nb_pmu_written(NB_PMU_NO_WRITE);        /* (each write's PEBS: above) */
	nb_need_preload = False;
}

void nb_progfile_init(void)
{
	/* whole-program counting: the counters belong to the CPU and every
	 * thread counts on them; the rows per thread come from attributing
	 * their deltas at thread switches (attribute), not from per-thread
	 * contexts (nb_ctx.c), which step aside as with --nbsim-pmu-ctx=cpu */
	if (clo_program)
		clo_ctx_cpu = True;
	if (clo_program)
		load_program();
	if (!clo_trace_forked)
		VG_(atfork)(NULL, NULL, untrace_child);
	if (!clo_counts)
		return;
	live = VG_(calloc)("nbsim.stat.live", VG_N_THREADS, sizeof *live);
	read_counters(base);
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		last[c] = base[c];
	VG_(atfork)(NULL, NULL, after_fork_child);
}

static void put(Int fd, const HChar *fmt, ...) PRINTF_CHECK(2, 3);
static void put(Int fd, const HChar *fmt, ...)
{
	HChar b[512];
	va_list ap;
	Int n;

	va_start(ap, fmt);
	n = (Int)VG_(vsnprintf)(b, sizeof b, fmt, ap);
	va_end(ap);
	VG_(write)(fd, b, n);
}

static void put_ctrs(Int fd, const ULong *v)
{
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		put(fd, " %llu", v[c]);
	put(fd, "\n");
}


static Int by_seq(const void *a, const void *b)
{
	const struct stat_row *x = *(const struct stat_row *const *)a;
	const struct stat_row *y = *(const struct stat_row *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Which logical processor(s) a thread ran on (--ht=yes). */
static void put_lp(Int fd, const struct stat_row *r)
{
	if (clo_ht)
		put(fd, NB_COUNTS_LP " %u %u %u\n", r->tid, (UInt)r->lp_first, (UInt)r->lp_last);
}

/* The counts so far to PATH (through PATH.tmp and a rename). */
static void write_counts(const HChar *path, Int exitcode)
{
	ULong tot[NB_NUM_COUNTERS];
	HChar *tmp;
	SysRes r;
	Int fd;

	attribute();
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		tot[c] = (last[c] - base[c]) & CTR_MASK;
	tmp = VG_(malloc)("nbsim.stat.tmp", VG_(strlen)(path) + 8);
	VG_(sprintf)(tmp, "%s.tmp", path);
	r = VG_(open)(tmp, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0644);
	if (sr_isError(r)) {
		VG_(umsg)("nbsim: cannot write --nbsim-counts file '%s'\n", tmp);
		return;
	}
	fd = (Int)sr_Res(r);
	put(fd, NB_COUNTS_HEAD2 NB_COUNTS_PID " %d\n" NB_COUNTS_MODEL " %s\n" NB_COUNTS_CYCLES " %llu\n"
	    NB_COUNTS_MHZ " %u\n" NB_COUNTS_EXIT " %d\n", nb_pid(),
	    nb_cpu->name, (ULong)nb_sig[NB_SIG_CYCLES] - base_cyc, (UInt)nb_cpu->mhz,
	    exitcode < 0 ? -1 : exitcode ? exitcode : exit_status);
	put(fd, NB_COUNTS_TOTAL);
	put_ctrs(fd, tot);
	/* the rows in the order the threads first ran: the main thread
	 * first, then creation order.  (Not by LWP: with pid_max 32768 LWP
	 * numbers wrap, and nb_stat, which sorted by them, once put a thread
	 * before the main one.) */
	{
		UInt n = 0;
		const struct stat_row **rows = VG_(malloc)("nbsim.stat.order",
			(ndone + VG_N_THREADS) * sizeof *rows);
		for (UInt i = 0; i < ndone; i++)
			rows[n++] = &done[i];
		for (UInt t = 1; t < VG_N_THREADS; t++)
			if (live[t].tid)
				rows[n++] = &live[t];
		VG_(ssort)(rows, n, sizeof *rows, by_seq);
		for (UInt i = 0; i < n; i++) {
			put(fd, NB_COUNTS_THREAD " %u %d", rows[i]->tid, rows[i]->lwp);
			put_ctrs(fd, rows[i]->ctr);
			put_lp(fd, rows[i]);
		}
		VG_(free)(rows);
	}
	VG_(close)(fd);
	if (VG_(rename)(tmp, path) != 0)
		VG_(umsg)("nbsim: cannot rename '%s' to '%s'\n", tmp, path);
	VG_(free)(tmp);
}

void nb_progfile_fini(Int exitcode)
{
	if (clo_counts)
		write_counts(VG_(expand_file_name)("--nbsim-counts", clo_counts), exitcode);
}

/* An execve ends this nbsim instance without its fini: the image that
 * follows runs under a new nbsim (--trace-children=yes), which counts from
 * zero, or natively.  The counts so far go to FILE.execN (N = 1, 2 ... for
 * a chain of execs of one process), which nb_stat adds to the process's;
 * if the execve fails, the file is removed and the process counts on. */
static HChar *exec_file;

static void exec_snapshot(void)
{
	HChar *path = VG_(expand_file_name)("--nbsim-counts", clo_counts);
	Int len = (Int)VG_(strlen)(path) + 16;

	exec_file = VG_(malloc)("nbsim.stat.exec", len);
	for (UInt n = 1; n < 10000; n++) {
		struct vg_stat st;

		VG_(snprintf)(exec_file, len, "%s.exec%u", path, n);
		if (sr_isError(VG_(stat)(exec_file, &st)))
			break;
	}
	write_counts(exec_file, -1);
	VG_(free)(path);
}

/* valgrind passes tools' fini 0 whatever the exit status: the status is
 * taken from the guest's exit (60) or exit_group (231) system call. */
void nb_progfile_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
	(void)tid;
	if ((sysno == 60 || sysno == 231) && nargs >= 1)
		exit_status = (Int)(args[0] & 0xff);
	if ((sysno == 59 || sysno == 322) && clo_counts && !exec_file)
		exec_snapshot();
}

void nb_progfile_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs, SysRes res)
{
	(void)tid; (void)args; (void)nargs;
	/* only a failed execve returns */
	if ((sysno == 59 || sysno == 322) && exec_file) {
		(void)res;
		VG_(unlink)(exec_file);
		VG_(free)(exec_file);
		exec_file = NULL;
	}
}
