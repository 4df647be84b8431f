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
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "nb_stat_run.h"
#include "nb_stat_stdin.h"
#include "nb_prog.h"
#include "nbsim_counts.h"
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
		/* nb_record --ht=yes: a counter of one logical processor's
		 * events, its interrupt to that one (ESCR T0 or T1 bits,
		 * CCCR OVF_PMI_T0 or T1) */
		int one = ht && run->lp[h] > 0;

		nb_encode_ex(&p->hw[h], &p->assign.slot[h], NB_DOM_USER, one ? run->lp[h] - 1u : 0, fl,
			     &g[h]);
		fprintf(f, NB_PROG_LINE, g[h].escr_msr,
			(unsigned long long)(one ? g[h].escr : both_lps(ht, g[h].escr_msr, g[h].escr)));
		if (g[h].cascade) {
			fprintf(f, NB_PROG_LINE, g[h].hi_escr_msr,
				(unsigned long long)both_lps(ht, g[h].hi_escr_msr, g[h].hi_escr));
			fprintf(f, NB_PROG_LINE, g[h].hi_cccr_msr, (unsigned long long)g[h].hi_cccr);
		}
	}
	nx = nb_encode_extra(&p->assign, NB_DOM_USER, 0, x, (int)(sizeof(x) / sizeof(x[0])));
	for (int i = 0; i < nx; i++)
		fprintf(f, NB_PROG_LINE, x[i].msr,
			(unsigned long long)both_lps(ht, x[i].msr, x[i].value));
	/* a sampling counter starts a period short of overflow */
	for (int h = 0; h < p->nhw; h++)
		if (run->period[h])
			fprintf(f, NB_PROG_LINE, nb_counters[g[h].counter].msr,
				(unsigned long long)((NB_COUNTER_MASK + 1 - run->period[h]) &
						     NB_COUNTER_MASK));
	/* the CCCRs last: Enable starts the counters */
	for (int h = 0; h < p->nhw; h++)
		fprintf(f, NB_PROG_LINE, g[h].cccr_msr, (unsigned long long)g[h].cccr);
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
			if (strcmp(line, NB_COUNTS_HEAD1) && strcmp(line, NB_COUNTS_HEAD2))
				break;
			continue;
		}
		if (sscanf(line, NB_COUNTS_PID " %ld", &pr->pid) == 1 ||
		    sscanf(line, NB_COUNTS_EXIT " %d", &pr->exit) == 1)
			continue;
		if (!strncmp(line, NB_COUNTS_MODEL " ", NB_COUNTS_KEYLEN(NB_COUNTS_MODEL)))
			continue;
		if (!strncmp(line, NB_COUNTS_CYCLES " ", NB_COUNTS_KEYLEN(NB_COUNTS_CYCLES))) {
			pr->cycles = strtoull(line + NB_COUNTS_KEYLEN(NB_COUNTS_CYCLES), NULL, 10);
			continue;
		}
		if (sscanf(line, NB_COUNTS_MHZ " %u", &pr->mhz) == 1)
			continue;
		if (!strncmp(line, NB_COUNTS_TOTAL " ", NB_COUNTS_KEYLEN(NB_COUNTS_TOTAL))) {
			if (parse_ctrs(line + NB_COUNTS_KEYLEN(NB_COUNTS_TOTAL), pr->total))
				break;
			ok = 1;
			continue;
		}
		if (!strncmp(line, NB_COUNTS_THREAD " ", NB_COUNTS_KEYLEN(NB_COUNTS_THREAD))) {
			struct st_thread t;
			char *s = line + NB_COUNTS_KEYLEN(NB_COUNTS_THREAD), *e;

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
		if (!strncmp(line, NB_COUNTS_LP " ", NB_COUNTS_KEYLEN(NB_COUNTS_LP))) {
			unsigned tid, a, b;

			/* after its thread's row */
			if (sscanf(line, NB_COUNTS_LP " %u %u %u", &tid, &a, &b) != 3 || !pr->nthr ||
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
	 * ran, sim/kernel/nb_progfile.c; LWP numbers wrap at pid_max) */
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
		/* counts.PID.execN: the image before an exec (sim/kernel/nb_progfile.c) */
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
		/* why, from the status: a launcher that failed has said so
		 * itself, and "killed" is said only of a process killed (a
		 * launcher's failure was once followed by "killed by SIGKILL") */
		if (WIFEXITED(run->status))
			snprintf(err, len, "nbsim wrote no counts for the program (pid %ld): nbsim "
				 "ended with status %d before the program did (its message above says "
				 "why), or the program exec'd one nbsim cannot run", (long)child,
				 WEXITSTATUS(run->status));
		else
			snprintf(err, len, "nbsim wrote no counts for the program (pid %ld): it ended "
				 "without exiting", (long)child);
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
 * to the guest, which ends, and writes the counts), then to every other
 * process the run started (end_descendants), all waited for; nb_stat
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
	/* the processes the run starts stay nb_stat's descendants when their
	 * parent ends (a script's background jobs): orphans come to nb_stat,
	 * not to init, so that a signal can reach every one of them and
	 * nb_stat can wait for them (prctl(2), PR_SET_CHILD_SUBREAPER) */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
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

/* The live processes that descend from nb_stat (through /proc/PID/stat's
 * parent field) into PIDS (at most MAX); their number. */
static int descendants(pid_t *pids, int max)
{
	struct pr { pid_t pid, ppid; int mine; } *t = NULL;
	int n = 0, cap = 0, k = 0, more = 1;
	DIR *d = opendir("/proc");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[64], buf[512], *rp, state;
		int ppid;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		buf[0] = 0;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
		/* "pid (comm) state ppid": comm may hold ')' and spaces */
		if (!(rp = strrchr(buf, ')')) || sscanf(rp + 1, " %c %d", &state, &ppid) != 2 ||
		    state == 'Z' || state == 'X')
			continue;
		if (n == cap) {
			struct pr *nt = realloc(t, (size_t)(cap = cap ? 2 * cap : 256) * sizeof(*t));

			if (!nt)
				break;
			t = nt;
		}
		t[n].pid = (pid_t)atoi(e->d_name);
		t[n].ppid = ppid;
		t[n++].mine = ppid == getpid();
	}
	if (d)
		closedir(d);
	while (more) {
		more = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n && !t[i].mine; j++)
				if (t[j].mine && t[i].ppid == t[j].pid)
					t[i].mine = more = 1;
	}
	for (int i = 0; i < n; i++)
		if (t[i].mine && k < max)
			pids[k++] = t[i].pid;
	free(t);
	return k;
}

/* After a signal: every process the run started gets it too (a script's
 * background jobs under --follow, each a simulated process of its own,
 * ran on after nb_stat had gone) and is waited for, so that their counts
 * are written before they are read and none is left running.  Orphans
 * are nb_stat's children (PR_SET_CHILD_SUBREAPER) and are reaped as they
 * end.  Once PROGRAM has ended the rest get the signal again, at growing
 * intervals (0.1 s doubling to 6.4 s), until they are gone: a signal that
 * came while one was between its execve and valgrind's start in the new
 * image could be lost (seen under load: a background `sleep 1000` ran on
 * and nb_stat waited for it). */
#define ST_MAXDESC 4096
static pid_t st_signalled[ST_MAXDESC];
static int st_nsignalled;

/* SIG to every descendant (ALL: again to those that had it); their number */
static int signal_descendants(int sig, int all)
{
	pid_t p[ST_MAXDESC];
	int n = descendants(p, ST_MAXDESC);

	for (int i = 0; i < n; i++) {
		int k;

		for (k = 0; k < st_nsignalled && st_signalled[k] != p[i]; k++)
			;
		if (k < st_nsignalled && !all)
			continue;
		kill(p[i], sig);
		if (k == st_nsignalled && st_nsignalled < ST_MAXDESC)
			st_signalled[st_nsignalled++] = p[i];
	}
	return n;
}

static void end_descendants(int sig)
{
	long wait_ns = 100000000;
	int status;

	while (signal_descendants(sig, 1) > 0) {
		struct timespec t = { wait_ns / 1000000000, wait_ns % 1000000000 };
		int reaped = 0;

		while (waitpid(-1, &status, WNOHANG) > 0)
			reaped = 1;
		if (reaped)
			continue;
		nanosleep(&t, NULL);
		if (wait_ns < 6400000000L)
			wait_ns *= 2;
	}
	while (waitpid(-1, &status, WNOHANG) > 0)
		;
}

/* fork with the signals held until the parent knows the child's pid; the
 * child gets the default actions back (a signal pending then ends it) */
pid_t st_fork_child(void)
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
		st_nsignalled = 0;
		if (st_interrupted)
			kill(pid, st_interrupted);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

/* Wait for the run's process; after a signal, for every process it
 * started too.  A signal interrupts the wait (on_signal is installed
 * without SA_RESTART): the others get it at once, not only when PROGRAM
 * has ended (a PROGRAM that waits for its children would wait for ever),
 * and all get it again at growing intervals until PROGRAM has ended
 * (end_descendants: a signal can be lost in an execve). */
void st_wait_child(pid_t pid, int *status)
{
	long wait_ns = 100000000;
	int resend = 0;

	st_signalled[0] = pid;
	st_nsignalled = 1;
	for (;;) {
		pid_t r;

		if (st_interrupted) {
			struct timespec t = { wait_ns / 1000000000, wait_ns % 1000000000 };

			signal_descendants(st_interrupted, resend);
			resend = 1;
			if ((r = waitpid(pid, status, WNOHANG)) == pid)
				break;
			if (r < 0 && errno != EINTR) {
				*status = -1;
				break;
			}
			nanosleep(&t, NULL);
			if (wait_ns < 6400000000L)
				wait_ns *= 2;
			continue;
		}
		if (waitpid(pid, status, 0) >= 0)
			break;
		if (errno != EINTR) {
			*status = -1;
			break;
		}
	}
	st_child = 0;
	if (st_interrupted)
		end_descendants(st_interrupted);
}

int st_run_nbsim(const struct st_config *c, struct st_run *run, char *err, size_t len)
{
	char dir[] = "/tmp/nb_stat.XXXXXX", model[64], optp[4200], optc[4200], opts[4200], optd[64],
		optr[64], optsd[64];
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
	args[na++] = c->host_time ? "--nbsim-time=host" : "--nbsim-time=simulated";
	/* the program's own execve is followed either way (a wrapper that
	 * execs the real program); without --follow a forked child's is
	 * not (sim/kernel/nb_progfile.c, --nbsim-trace-forked) */
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
		if (c->random_bits) {
			snprintf(optr, sizeof(optr), "--nbsim-sample-random=%d", c->random_bits);
			snprintf(optsd, sizeof(optsd), "--nbsim-sample-seed=%llu",
				 (unsigned long long)c->random_seed);
			args[na++] = optr;
			args[na++] = optsd;
		}
	}
	args[na++] = "--";
	for (int i = 0; i < nargv; i++)
		args[na++] = c->argv[i];
	args[na] = NULL;
	fflush(NULL);
	t0 = now();
	pid = st_fork_child();
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
	st_wait_child(pid, &run->status);
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

	/* the component's reasons and cures (nb_perf_raw_why), first: a
	 * metric without a raw config also has helpers */
	for (int h = 0; h < p->nhw; h++)
		if (!nb_perf_raw_why(&p->hw[h], NB_DOM_USER, err, len))
			return -1;
	if (p->assign.nhelpers) {
		snprintf(err, len, "a tagged metric of this set needs helper ESCRs, which the "
			 "kernel's P4 driver cannot program (use the nbsim backend)");
		return -1;
	}
	if (pipe(go)) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = st_fork_child();
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
			st_wait_child(pid, &run->status);
			return -1;
		}
	}
	t0 = now();
	if (write(go[1], "g", 1) != 1) {
		snprintf(err, len, "cannot start the program: %s", strerror(errno));
		return -1;
	}
	close(go[1]);
	st_wait_child(pid, &run->status);
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
