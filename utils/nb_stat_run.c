/*
 * nb_stat_run.c - nb_stat's backends: run PROGRAM once for one run (a set
 * of events the PMU counts at once) and collect the counters.
 *
 * nbsim: the register images of the run (the component's encoder) go into
 * a program file that nbsim writes into the PMU before the guest's first
 * instruction (--nbsim-program); nbsim writes the counters at each
 * process's exit (--nbsim-counts, one file per pid), which are read back.
 *
 * perf: on a real NetBurst, one perf_event_open per placed event with the
 * raw config of nb_perf_raw (the kernel's P4 format: our scheduler's
 * choice of event masks, the replay metric index in CCCR bits 0-6),
 * enable_on_exec and inherit, on a child stopped before its exec.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "nb_stat.h"
#include "nb_encode.h"
#include "nb_backend.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* With Hyper-Threading both logical processors' user-mode events count
 * (the whole program, whichever LP a thread runs on): an ESCR that counts
 * T0 user mode also counts T1 user mode [SDM 18.15, ESCR T1_USR]. */
static uint64_t both_lps(int ht, uint32_t msr, uint64_t v)
{
	int escr = 0;

	for (unsigned e = 0; e < nb_num_escrs; e++)
		escr |= nb_escrs[e].msr == msr;
	if (ht && escr && (v & NB_ESCR_T0_USR))
		v |= NB_ESCR_T1_USR;
	return v;
}

/* The run's register images as nbsim program lines. */
static int write_program(const char *path, const struct st_run *run, int ht, char *err,
			 size_t len)
{
	const struct nb_plan *p = &run->plan;
	struct nb_msr_image x[NB_SCHED_MAX_HELPERS + 2];
	struct nb_regs g[NB_SCHED_MAX];
	FILE *f = fopen(path, "w");
	int nx;

	if (!f) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# nb_stat: %d events\n", p->nhw);
	for (int h = 0; h < p->nhw; h++) {
		/* a sampling counter interrupts at overflow, but not the PEBS
		 * counter of a precise request: its overflow arms PEBS */
		unsigned fl = run->period[h] && !(p->hw[h].cccr & NB_CCCR_MOD_PRECISE) ? NB_ENC_PMI : 0;

		nb_encode_ex(&p->hw[h], &p->assign.slot[h], NB_DOM_USER, 0, fl, &g[h]);
		fprintf(f, "wrmsr %#x %#llx\n", g[h].escr_msr,
			(unsigned long long)both_lps(ht, g[h].escr_msr, g[h].escr));
		if (g[h].cascade) {
			fprintf(f, "wrmsr %#x %#llx\n", g[h].hi_escr_msr,
				(unsigned long long)both_lps(ht, g[h].hi_escr_msr, g[h].hi_escr));
			fprintf(f, "wrmsr %#x %#llx\n", g[h].hi_cccr_msr, (unsigned long long)g[h].hi_cccr);
		}
	}
	nx = nb_encode_extra(&p->assign, NB_DOM_USER, 0, x, (int)(sizeof(x) / sizeof(x[0])));
	for (int i = 0; i < nx; i++)
		fprintf(f, "wrmsr %#x %#llx\n", x[i].msr,
			(unsigned long long)both_lps(ht, x[i].msr, x[i].value));
	/* a sampling counter starts a period short of overflow */
	for (int h = 0; h < p->nhw; h++)
		if (run->period[h])
			fprintf(f, "wrmsr %#x %#llx\n", nb_counters[g[h].counter].msr,
				(unsigned long long)((NB_COUNTER_MASK + 1 - run->period[h]) &
						     NB_COUNTER_MASK));
	/* the CCCRs last: Enable starts the counters */
	for (int h = 0; h < p->nhw; h++)
		fprintf(f, "wrmsr %#x %#llx\n", g[h].cccr_msr, (unsigned long long)g[h].cccr);
	if (fclose(f)) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int cmp_proc(const void *a, const void *b)
{
	const struct st_proc *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int parse_ctrs(char *s, uint64_t *v)
{
	for (int c = 0; c < 18; c++) {
		char *e;

		errno = 0;
		v[c] = strtoull(s, &e, 10);
		if (e == s || errno)
			return -1;
		s = e;
	}
	return 0;
}

/* One --nbsim-counts file. */
static int read_counts(const char *path, struct st_proc *pr, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int ok = 0, lno = 0;

	memset(pr, 0, sizeof(*pr));
	if (!f) {
		snprintf(err, len, "no counts from nbsim (%s: %s)", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lno++;
		if (lno == 1) {
			/* 2: 1 and the lp lines (--ht) */
			if (strcmp(line, "nbsim-counts 1\n") && strcmp(line, "nbsim-counts 2\n"))
				break;
			continue;
		}
		if (sscanf(line, "pid %ld", &pr->pid) == 1 || sscanf(line, "exit %d", &pr->exit) == 1)
			continue;
		if (!strncmp(line, "model ", 6))
			continue;
		if (!strncmp(line, "cycles ", 7)) {
			pr->cycles = strtoull(line + 7, NULL, 10);
			continue;
		}
		if (!strncmp(line, "total ", 6)) {
			if (parse_ctrs(line + 6, pr->total))
				break;
			ok = 1;
			continue;
		}
		if (!strncmp(line, "thread ", 7)) {
			struct st_thread t;
			char *s = line + 7, *e;

			memset(&t, 0, sizeof(t));
			t.lp_first = t.lp_last = -1;
			t.tid = (unsigned)strtoul(s, &e, 10);
			t.lwp = strtol(e, &s, 10);
			if (parse_ctrs(s, t.ctr))
				break;
			pr->thr = realloc(pr->thr, (size_t)(pr->nthr + 1) * sizeof(t));
			if (!pr->thr)
				break;
			pr->thr[pr->nthr++] = t;
			continue;
		}
		if (!strncmp(line, "lp ", 3)) {
			unsigned tid, a, b;

			/* after its thread's row */
			if (sscanf(line, "lp %u %u %u", &tid, &a, &b) != 3 || !pr->nthr ||
			    pr->thr[pr->nthr - 1].tid != tid || a > 1 || b > 1)
				break;
			pr->thr[pr->nthr - 1].lp_first = (int)a;
			pr->thr[pr->nthr - 1].lp_last = (int)b;
			continue;
		}
		ok = 0;
		break;
	}
	fclose(f);
	if (!ok) {
		snprintf(err, len, "%s: not an nbsim counts file (line %d)", path, lno);
		return -1;
	}
	/* (the rows stay in the file's order: the order the threads first
	 * ran, sim/nb_stat.c; LWP numbers wrap at pid_max) */
	return 0;
}

static void rm_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[4096];

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Add Q, the counts of an earlier or later image of the same process
 * (a counts.PID.execN file), to P: totals summed, threads of one lwp
 * summed, the final image's exit status kept. */
static int merge_image(struct st_proc *p, struct st_proc *q, int q_is_exec)
{
	for (int c = 0; c < 18; c++)
		p->total[c] += q->total[c];
	p->cycles += q->cycles;
	if (!q_is_exec)
		p->exit = q->exit;
	p->execs += q->execs;
	p->final |= q->final;
	for (int t = 0; t < q->nthr; t++) {
		int k;

		for (k = 0; k < p->nthr && p->thr[k].lwp != q->thr[t].lwp; k++)
			;
		if (k == p->nthr) {
			struct st_thread *n = realloc(p->thr, (size_t)(p->nthr + 1) * sizeof(*n));

			if (!n)
				return -1;
			p->thr = n;
			p->thr[p->nthr++] = q->thr[t];
			continue;
		}
		for (int c = 0; c < 18; c++)
			p->thr[k].ctr[c] += q->thr[t].ctr[c];
	}
	free(q->thr);
	/* the process's main thread first (its LWP is the pid in every image) */
	for (int k = 1; k < p->nthr; k++)
		if (p->thr[k].lwp == p->pid) {
			struct st_thread m = p->thr[k];

			memmove(p->thr + 1, p->thr, (size_t)k * sizeof(m));
			p->thr[0] = m;
			break;
		}
	return 0;
}

static int collect(const char *dir, pid_t child, int follow, struct st_run *run, char *err,
		   size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[4096];
	int found_main = 0;

	run->nproc = 0;
	run->proc = NULL;
	while (d && (e = readdir(d))) {
		struct st_proc q;
		char *end;
		long pid;
		int i, is_exec = 0;

		if (strncmp(e->d_name, "counts.", 7))
			continue;
		pid = strtol(e->d_name + 7, &end, 10);
		/* counts.PID.execN: the image before an exec (sim/nb_stat.c) */
		if (!strncmp(end, ".exec", 5) && end[5] >= '1' && end[5] <= '9' &&
		    end[5 + strspn(end + 5, "0123456789")] == 0)
			is_exec = 1;
		else if (*end)
			continue;               /* a .tmp left by a process killed while writing */
		if (!follow && pid != child)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (read_counts(p, &q, err, len)) {
			closedir(d);
			return -1;
		}
		q.execs = is_exec;
		q.final = !is_exec;
		for (i = 0; i < run->nproc && run->proc[i].pid != q.pid; i++)
			;
		if (i < run->nproc) {
			if (merge_image(&run->proc[i], &q, is_exec)) {
				closedir(d);
				snprintf(err, len, "out of memory");
				return -1;
			}
			continue;
		}
		run->proc = realloc(run->proc, (size_t)(run->nproc + 1) * sizeof(*run->proc));
		if (!run->proc)
			break;
		run->proc[run->nproc++] = q;
		found_main |= pid == child;
	}
	if (d)
		closedir(d);
	/* an image that exec'd a program nbsim did not follow: its counts end
	 * at the exec; PROGRAM's own status is the wait status's */
	for (int i = 0; i < run->nproc; i++)
		if (!run->proc[i].final && run->proc[i].pid == child)
			run->proc[i].exit = WIFEXITED(run->status) ? WEXITSTATUS(run->status)
				: WIFSIGNALED(run->status) ? 128 + WTERMSIG(run->status) : -1;
	if (!found_main) {
		snprintf(err, len, "nbsim wrote no counts for the program (pid %ld): it did not "
			 "start, or ended without exiting (exec of a program nbsim cannot run, "
			 "killed by SIGKILL)", (long)child);
		return -1;
	}
	qsort(run->proc, (size_t)run->nproc, sizeof(*run->proc), cmp_proc);
	/* the program's own process first */
	for (int i = 0; i < run->nproc; i++)
		if (run->proc[i].pid == child && i) {
			struct st_proc t = run->proc[i];

			memmove(run->proc + 1, run->proc, (size_t)i * sizeof(t));
			run->proc[0] = t;
		}
	return 0;
}

/* ---- signals to nb_stat ---------------------------------------------------- */

volatile sig_atomic_t st_interrupted;
static volatile pid_t st_child;              /* the run's process, or 0 */
static const int st_sigs[] = { SIGINT, SIGTERM, SIGHUP };

/* Ctrl-C or a kill while PROGRAM runs: passed on to it (nbsim delivers it
 * to the guest, which ends, and writes the counts), then waited for; nb_stat
 * decides what to report when the run is over. */
static void on_signal(int sig)
{
	if (!st_interrupted)
		st_interrupted = sig;
	if (st_child > 0)
		kill(st_child, sig);
}

void st_signals_init(void)
{
	for (size_t i = 0; i < sizeof(st_sigs) / sizeof(st_sigs[0]); i++) {
		struct sigaction sa, old;

		/* a signal ignored when nb_stat started (nohup, a background
		 * job of a non-interactive shell) stays ignored */
		if (sigaction(st_sigs[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(st_sigs[i], &sa, NULL);
	}
}

/* fork with the signals held until the parent knows the child's pid; the
 * child gets the default actions back (a signal pending then ends it) */
static pid_t fork_child(void)
{
	sigset_t set, old;
	pid_t pid;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(st_sigs) / sizeof(st_sigs[0]); i++)
		sigaddset(&set, st_sigs[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid == 0) {
		for (size_t i = 0; i < sizeof(st_sigs) / sizeof(st_sigs[0]); i++) {
			struct sigaction cur;

			if (sigaction(st_sigs[i], NULL, &cur) == 0 && cur.sa_handler == on_signal)
				signal(st_sigs[i], SIG_DFL);
		}
	} else if (pid > 0) {
		st_child = pid;
		if (st_interrupted)
			kill(pid, st_interrupted);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

static void wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR) {
			*status = -1;
			break;
		}
	st_child = 0;
}

int st_run_nbsim(const struct st_config *c, struct st_run *run, char *err, size_t len)
{
	char dir[] = "/tmp/nb_stat.XXXXXX", model[64], optp[4200], optc[4200], opts[4200], optd[64];
	const char *tmpdir = getenv("TMPDIR");
	char dirbuf[4096];
	char *dp;
	const char **args;
	int na = 0, nargv = 0, rc;
	pid_t pid;
	double t0;

	if (tmpdir && *tmpdir && strlen(tmpdir) < 3000) {
		snprintf(dirbuf, sizeof(dirbuf), "%s/nb_stat.XXXXXX", tmpdir);
		dp = mkdtemp(dirbuf);
	} else {
		dp = mkdtemp(dir);
	}
	if (!dp) {
		snprintf(err, len, "cannot create a temporary directory: %s", strerror(errno));
		return -1;
	}
	snprintf(optp, sizeof(optp), "--nbsim-program=%s/program", dp);
	snprintf(optc, sizeof(optc), "--nbsim-counts=%s/counts.%%p", dp);
	{
		char pf[4100];

		snprintf(pf, sizeof(pf), "%s/program", dp);
		if (write_program(pf, run, c->ht, err, len)) {
			rm_dir(dp);
			return -1;
		}
	}
	snprintf(model, sizeof(model), "--model=%s", c->model_name);
	while (c->argv[nargv])
		nargv++;
	args = calloc((size_t)nargv + 16, sizeof(*args));    /* every argument, ours, NULL */
	if (!args) {
		snprintf(err, len, "out of memory");
		rm_dir(dp);
		return -1;
	}
	args[na++] = c->nbsim;
	args[na++] = model;
	args[na++] = c->ht ? "--ht=yes" : "--ht=no";
	args[na++] = c->sampled ? "--nbsim-clock=sampled" : "--nbsim-clock=model";
	/* the program's own execve is followed either way (a wrapper that
	 * execs the real program); without --follow a forked child's is
	 * not (sim/nb_stat.c, --nbsim-trace-forked) */
	args[na++] = "--trace-children=yes";
	if (!c->follow)
		args[na++] = "--nbsim-trace-forked=no";
	args[na++] = optp;
	args[na++] = optc;
	if (c->samples) {
		snprintf(opts, sizeof(opts), "--nbsim-samples=%s/samples.%%p", dp);
		snprintf(optd, sizeof(optd), "--nbsim-sample-stack=%d", c->sample_depth);
		args[na++] = opts;
		args[na++] = optd;
	}
	args[na++] = "--";
	for (int i = 0; i < nargv; i++)
		args[na++] = c->argv[i];
	args[na] = NULL;
	fflush(NULL);
	t0 = now();
	pid = fork_child();
	if (pid < 0) {
		snprintf(err, len, "fork: %s", strerror(errno));
		free(args);
		rm_dir(dp);
		return -1;
	}
	if (pid == 0) {
		execv(c->nbsim, (char *const *)args);
		fprintf(stderr, "nb_stat: cannot run %s: %s\n", c->nbsim, strerror(errno));
		_exit(ST_EXIT_BACKEND);
	}
	free(args);
	wait_child(pid, &run->status);
	if (run->status == -1) {
		snprintf(err, len, "waitpid: %s", strerror(errno));
		rm_dir(dp);
		return -1;
	}
	run->seconds = now() - t0;
	rc = collect(dp, pid, c->follow, run, err, len);
	if (rc == 0 && c->samples)
		rc = c->samples(dp, pid, c->samples_ctx, err, len);
	rm_dir(dp);
	return rc;
}

/* ---- the perf backend ---------------------------------------------------- */

int st_host_netburst(unsigned *model, char *why, size_t len)
{
	struct nb_cpu cpu;

	if (nb_native_cpu(&cpu, why, len))
		return 0;
	*model = cpu.model;
	return 1;
}

int st_run_perf(const struct st_config *c, struct st_run *run, char *err, size_t len)
{
	const struct nb_plan *p = &run->plan;
	int fd[NB_SCHED_MAX], go[2];
	pid_t pid;
	double t0;
	char b;

	if (p->assign.nhelpers) {
		snprintf(err, len, "a tagged metric of this set needs helper ESCRs, which the "
			 "kernel's P4 driver cannot program (use the nbsim backend)");
		return -1;
	}
	for (int h = 0; h < p->nhw; h++) {
		if (p->assign.slot[h].cascade || !nb_perf_raw(&p->hw[h], NB_DOM_USER)) {
			char nm[NB_NAME_MAX];

			nb_sched_name(&p->hw[h], nm, sizeof(nm));
			snprintf(err, len, "%s has no Linux perf raw config (the kernel's P4 driver "
				 "does not know it, or it is cascaded)", nm);
			return -1;
		}
	}
	if (pipe(go)) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork_child();
	if (pid < 0) {
		snprintf(err, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(ST_EXIT_BACKEND);    /* the parent could not open the events */
		execvp(c->argv[0], c->argv);
		_exit(errno == ENOENT ? ST_EXIT_NOTFOUND : ST_EXIT_NOEXEC);
	}
	close(go[0]);
	for (int h = 0; h < p->nhw; h++) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_RAW;
		a.config = nb_perf_raw(&p->hw[h], NB_DOM_USER);
		a.disabled = 1;
		a.enable_on_exec = 1;
		a.inherit = 1;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd[h] = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd[h] < 0) {
			snprintf(err, len, "perf_event_open(raw %#llx): %s", (unsigned long long)a.config,
				 strerror(errno));
			for (int k = 0; k < h; k++)
				close(fd[k]);
			close(go[1]);
			wait_child(pid, &run->status);
			return -1;
		}
	}
	t0 = now();
	if (write(go[1], "g", 1) != 1) {
		snprintf(err, len, "cannot start the program: %s", strerror(errno));
		return -1;
	}
	close(go[1]);
	wait_child(pid, &run->status);
	run->seconds = now() - t0;
	run->nproc = 1;
	run->proc = calloc(1, sizeof(*run->proc));
	if (!run->proc) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	run->proc[0].pid = pid;
	for (int h = 0; h < p->nhw; h++) {
		uint64_t v = 0;

		if (read(fd[h], &v, sizeof(v)) != (ssize_t)sizeof(v)) {
			snprintf(err, len, "reading a perf counter: %s", strerror(errno));
			return -1;
		}
		run->proc[0].total[p->assign.slot[h].counter] = v;
		close(fd[h]);
	}
	return 0;
}
