/*
 * nb_prog.c - what nb_stat and nb_record share about PROGRAM: is it there
 * and executable (as execvp would find it), where the nbsim launcher is,
 * and the output file's name under an MPI launcher (%r).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nb_prog.h"

/* A message quotes the command line (paths, event names): its control
 * bytes are written as \xHH, so that none reaches the terminal (an escape
 * sequence in an argument would drive it) and the message stays one line. */
void st_vmessage(const char *tool, const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "%s: ", tool);
	for (const unsigned char *m = (const unsigned char *)msg; *m; m++)
		if (*m < 0x20 || *m == 0x7f)
			fprintf(stderr, "\\x%02x", *m);
		else
			fputc(*m, stderr);
	fputc('\n', stderr);
}

static int fail(const char *tool, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(const char *tool, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	st_vmessage(tool, fmt, ap);
	va_end(ap);
	return status;
}

/* getopt_long returned '?': an option that needs a value got none (its
 * letter in VALUED), or the option is unknown; then the usage on stderr */
int st_option_error(const char *tool, const char *valued, int optopt, char **argv,
		    void (*usage)(FILE *))
{
	if (optopt && strchr(valued, optopt))
		fail(tool, ST_EXIT_USAGE, "option -%c needs a value", optopt);
	else
		fail(tool, ST_EXIT_USAGE, "unknown option '%s'", argv[optind - 1]);
	usage(stderr);
	return ST_EXIT_USAGE;
}

/* no PROGRAM after the options: say what was to be done to it */
int st_no_program(const char *tool, const char *what, void (*usage)(FILE *))
{
	fail(tool, ST_EXIT_USAGE, "no program to %s", what);
	usage(stderr);
	return ST_EXIT_USAGE;
}

int st_check_program(const char *tool, const char *prog, int sim, struct stat *pst)
{
	char path[PATH_MAX];
	struct stat st;

	if (strchr(prog, '/')) {
		snprintf(path, sizeof(path), "%s", prog);
	} else {
		const char *pv = getenv("PATH");
		char *dirs = strdup(pv ? pv : "/usr/bin:/bin"), *save = NULL;
		int found = 0, noexec = 0;

		/* as execvp: the first executable file of the name; a file of
		 * the name that is not executable (or a directory) is passed
		 * over, and is the failure if no executable one follows */
		for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
			snprintf(path, sizeof(path), "%s/%s", *d ? d : ".", prog);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				found = access(path, X_OK) == 0;
				noexec |= !found;
			}
		}
		free(dirs);
		if (!found && noexec)
			return fail(tool, ST_EXIT_NOEXEC, "%s: not an executable file", prog);
		if (!found)
			return fail(tool, ST_EXIT_NOTFOUND, "%s: program not found", prog);
	}
	if (stat(path, &st))
		return fail(tool, ST_EXIT_NOTFOUND, "%s: program not found (%s)", prog, strerror(errno));
	if (!S_ISREG(st.st_mode) || access(path, X_OK))
		return fail(tool, ST_EXIT_NOEXEC, "%s: not an executable file", prog);
	*pst = st;
	/* valgrind refuses set-user-ID and set-group-ID programs (it could not
	 * keep the privilege and trace them); say so before anything runs */
	if (sim && (st.st_mode & (S_ISUID | S_ISGID)))
		return fail(tool, ST_EXIT_NOEXEC, "%s: set-%s-ID: valgrind, so nbsim, cannot run it (on a "
			    "real NetBurst the perf backend counts it)", prog,
			    st.st_mode & S_ISUID ? "user" : "group");
	return 0;
}

const char *st_find_nbsim(char *buf, size_t len)
{
	const char *env = getenv("NBSIM");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = 0;
		if ((slash = strrchr(self, '/'))) {
			*slash = 0;
			/* installed: PREFIX/bin/nbsim; build tree: build/utils/../sim/nbsim */
			if (snprintf(buf, len, "%.3900s/nbsim", self) < (int)len && access(buf, X_OK) == 0)
				return buf;
			if (snprintf(buf, len, "%.3900s/../sim/nbsim", self) < (int)len &&
			    access(buf, X_OK) == 0)
				return buf;
		}
	}
	return "nbsim";
}


/* ---- -o FILE: %r (the MPI rank), %p ------------------------------------------ */

static const char *mpi_rank(void)
{
	static const char *const vars[] = {
		"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "MPI_LOCALRANKID", "SLURM_PROCID",
		"MV2_COMM_WORLD_RANK",
	};
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return v;
	}
	return "0";
}

/* FMT with its %-sequences expanded into OUT: 0, or -1 for a bad sequence or
 * a result too long, -2 for an empty result (-o '' from an unset variable
 * names no file: writing it must never fall back to another path) */
int st_expand_output(const char *fmt, char *out, size_t len)
{
	size_t o = 0;

	if (!len)
		return -1;
	out[0] = 0;
	for (const char *p = fmt; *p; p++) {
		char piece[32];
		const char *s = piece;

		if (*p != '%') {
			piece[0] = *p;
			piece[1] = 0;
		} else if (p[1] == 'r') {
			s = mpi_rank();
			p++;
		} else if (p[1] == 'p') {
			snprintf(piece, sizeof(piece), "%ld", (long)getpid());
			p++;
		} else if (p[1] == '%') {
			strcpy(piece, "%");
			p++;
		} else {
			return -1;
		}
		if (o + strlen(s) >= len)
			return -1;
		strcpy(out + o, s);
		o += strlen(s);
	}
	return o ? 0 : -2;
}

/* A run's configuration with the defaults nb_stat and nb_record share:
 * the default model, nbsim's sampled clock, the time chosen by the
 * events (st_time_resolve). */
void st_config_init(struct st_config *c)
{
	const struct nb_part *d = nb_part_find(NB_PART_DEFAULT);

	memset(c, 0, sizeof(*c));
	c->sampled = 1;
	c->host_time = -1;
	c->model_name = d->name;
	c->model = d->model;
	c->feats = d->feats;
}

/* Does counter h of RUN make nbsim run its timing model?  What nbsim's
 * needs say (sim/tool/nb_need.c, sim/pmu/pmu.c): global_power_events
 * counts cycles, a Compare filter (and Edge, which needs it) or a cascaded
 * pair is counted per cycle, and an interrupt is taken a latency in
 * cycles after the overflow.  A precise (PEBS) counter of nb_record
 * interrupts nothing: its record is the first tagged uop's after the
 * overflow, where the clock plays no part (write_program gives it no
 * OVF_PMI). */
static int needs_clock(const struct st_run *run, int h)
{
	const struct nb_evsel *e = &run->plan.hw[h];

	if (e->kind == NB_SEL_EVENT && !strcmp(nb_events[e->event].name, "global_power_events"))
		return 1;
	if (e->cccr & (NB_CCCR_MOD_CMP | NB_CCCR_MOD_EDGE | NB_CCCR_MOD_CASCADE))
		return 1;
	return run->plan.assign.slot[h].cascade ||
	       (run->period[h] != 0 && !(e->cccr & NB_CCCR_MOD_PRECISE));
}

void st_time_resolve(struct st_config *c, const struct st_run *runs, int nruns)
{
	int need = 0;

	if (c->host_time >= 0)
		return;
	for (int r = 0; r < nruns; r++)
		for (int h = 0; h < runs[r].plan.nhw; h++)
			need |= needs_clock(&runs[r], h);
	c->host_time = !need;
	c->time_auto = 1;
}

int st_config_clock(struct st_config *c, const char *arg)
{
	if (strcmp(arg, "model") && strcmp(arg, "sampled"))
		return -1;
	c->sampled = !strcmp(arg, "sampled");
	c->clock_given = 1;
	return 0;
}

int st_config_time(struct st_config *c, const char *arg)
{
	if (strcmp(arg, "simulated") && strcmp(arg, "host") && strcmp(arg, "auto"))
		return -1;
	c->host_time = !strcmp(arg, "auto") ? -1 : !strcmp(arg, "host");
	c->clock_given |= c->host_time >= 0;
	return 0;
}

/* --model=NAME (a part's name or CPUID model number): 0, or -1 with the
 * known names in WHY */
int st_config_model(struct st_config *c, const char *name, char *why, size_t len)
{
	const struct nb_part *p = nb_part_find(name);
	size_t o = 0;

	if (p) {
		c->model_name = p->name;     /* nbsim's spelling */
		c->model = p->model;
		c->feats = p->feats;
		return 0;
	}
	if (len)
		why[0] = '\0';
	for (unsigned m = 0; m < nb_num_parts && o < len; m++)
		o += (size_t)snprintf(why + o, len - o, "%s%s", m ? ", " : "", nb_parts[m].name);
	return -1;
}
