/*
 * nb_stat - count events of an unmodified program on the simulated NetBurst
 * (nbsim), or on a real one through Linux perf: perf stat for family 15.
 *
 *   nb_stat [--model=NAME] [--ht=yes|no] [--clock=sampled|model] [--time=simulated|host]
 *           [-e EVENT[,EVENT...]]... [-x SEP | --json]
 *           [-o FILE] [--per-thread] [--follow] [--backend=auto|nbsim|perf]
 *           [--] PROGRAM [ARGS...]
 *
 * Events are parsed by the component's parser (presets, native events with
 * masks and modifiers, tagged metrics, libpfm4 spellings), placed by its
 * scheduler (presets: nb_plan_run), split into runs when they do not fit at
 * once (first fit over runs; for events alone nb_partition's minimum), and
 * encoded by its encoder (nb_stat_run.c).  Everything is checked before
 * PROGRAM runs.  See nb_stat.1.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "nb_stat_types.h"
#include "nb_prog.h"
#include "nb_stat_run.h"
#include "nb_stat_out.h"
#include "nb_stat_stdin.h"
#include "nb_stat_print.h"
#include "nb_partition.h"
#include "nb_encode.h"
#include "nb_util.h"

static const char *prog_name = "nb_stat";

/* nbsim's models: the parts the component and the other tools know
 * (nb_evsel.c nb_parts, the same names, CPUID models and features as
 * sim/cpu/nb_cpu.c), so one list and one default (NB_PART_DEFAULT) serve all. */

/* perf stat's default set, for NetBurst [issue 13] */
static const char *const default_events[] = {
	"PAPI_TOT_CYC", "PAPI_TOT_INS", "uops_retired:NBOGUS", "PAPI_BR_INS", "PAPI_BR_MSP",
	"PAPI_L1_LDM", "PAPI_L2_LDM",
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nb_stat [options] [--] PROGRAM [ARGS...]\n"
		"Count events of PROGRAM, from its first instruction to its exit, in user mode,\n"
		"on a simulated NetBurst (nbsim) or, on a real one, through Linux perf.\n"
		"  --model=NAME        willamette, northwood, prescott (default), cedarmill, xeonmp\n"
		"  --ht=yes|no         model Hyper-Threading (default no)\n"
		"  --clock=sampled|model  cycles from the timing model run on a sample of the\n"
		"                      uops (default; about 1%% off the model's on long programs,\n"
		"                      2%% on short ones), or on every one: 2-6x slower (nbsim)\n"
		"  --time=auto|simulated|host  what PROGRAM's own clocks read (RDTSC,\n"
		"                      clock_gettime, gettimeofday, clock...) on nbsim: the\n"
		"                      simulated part's time, or the host's; auto (default):\n"
		"                      simulated when an event needs the timing model anyway\n"
		"                      (cycles, a per-cycle filter), else the host's\n"
		"  -e, --event=EV[,EV...]  events: PAPI presets, event[:MASK...][:mods], tagged\n"
		"                      metrics, with or without p4netburst:::, libpfm4 spellings\n"
		"                      (default: cycles, instructions, uops, branches,\n"
		"                      mispredictions, L1D and L2 load misses)\n"
		"  -x, --field-separator=SEP  one line per event: COUNT SEP EVENT SEP RUN SEP PID SEP TID\n"
		"  -j, --json          one JSON object\n"
		"  -o, --output=FILE   write the counts to FILE (%%r: MPI rank, %%p: pid, %%%%: %%)\n"
		"  --per-thread        also a row per thread\n"
		"  --follow            count children too (one process each; totals are sums)\n"
		"  --backend=auto|nbsim|perf  auto: perf on a real NetBurst, else nbsim\n"
		"  -h, --help          this text\n"
		"exit status: PROGRAM's (128+N if killed by signal N); nb_stat's own failures:\n"
		"  121 counting failed, 122 -o FILE not writable, 123 event not on this model,\n"
		"  124 unknown event or one that cannot be counted, 125 usage, 126 PROGRAM not\n"
		"  executable, 127 PROGRAM not found\n");
}

static int fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	st_vmessage(prog_name, fmt, ap);       /* (control bytes escaped) */
	va_end(ap);
	return status;
}

/* ---- events --------------------------------------------------------------- */

static int preset_index(const char *n)
{
	if (strncasecmp(n, "p4netburst:::", 13) == 0)
		n += 13;
	return strncasecmp(n, "PAPI_", 5) ? -1 : nb_preset_lookup(n, strlen(n));
}

/* Which models have event NAME?  "northwood, xeonmp" or "" */
static void models_with(const char *name, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (unsigned m = 0; m < nb_num_parts; m++) {
		struct nb_util_opts u;
		struct nb_evsel s;
		char err[256];
		int p = preset_index(name), ok;

		nb_util_defaults(&u);
		u.cpu.model = nb_parts[m].model;
		u.feats = nb_parts[m].feats;
		if (p >= 0)
			ok = nb_preset_slots((unsigned)p, u.cpu.model, u.feats) > 0;
		else
			ok = nb_util_request(name, &u, &s, err, sizeof(err)) == 0;
		if (ok && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", nb_parts[m].name);
	}
}

static int parse_event(const char *name, const struct st_config *c, struct st_event *e)
{
	struct nb_util_opts u;
	char err[512], have[128];
	int p = preset_index(name);

	memset(e, 0, sizeof(*e));
	e->name = name;
	e->preset = p;
	nb_util_defaults(&u);
	u.cpu.model = c->model;
	u.feats = c->feats;
	if (p >= 0) {
		if (nb_preset_slots((unsigned)p, c->model, c->feats) > 0)
			return 0;
		models_with(name, have, sizeof(have));
		return fail(ST_EXIT_MODEL, "%s: not available on model %s%s%s", name, c->model_name,
			    *have ? "; models that have it: " : "", have);
	}
	if (nb_util_request(name, &u, &e->sel, err, sizeof(err)) == 0)
		return 0;
	models_with(name, have, sizeof(have));
	if (*have)
		return fail(ST_EXIT_MODEL, "%s: not available on model %s (%s); models that have it: %s",
			    name, c->model_name, err, have);
	return fail(ST_EXIT_EVENT, "%s", err);
}

/* The requests of event E (a preset: one per slot). */
static int event_reqs(const struct st_event *e, const struct st_config *c, struct nb_req *out)
{
	if (e->preset < 0) {
		memset(out, 0, sizeof(*out));
		out->kind = NB_REQ_SEL;
		out->sel = e->sel;
		return 1;
	}
	int k = nb_preset_slots((unsigned)e->preset, c->model, c->feats);
	for (int i = 0; i < k; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].kind = NB_REQ_PRESET;
		out[i].preset = (uint16_t)e->preset;
		out[i].slot = (uint8_t)i;
	}
	return k;
}

static int plan(const struct st_config *c, struct st_run *r, char *why, size_t len)
{
	struct nb_sched_cpu cpu;

	memset(&cpu, 0, sizeof(cpu));
	cpu.model = c->model;
	return nb_plan_run(r->req, r->nreq, &cpu, c->feats, NULL, &r->plan, why, len);
}

/* Add event E to run R if the set still fits. */
static int try_add(const struct st_config *c, struct st_run *r, struct st_event *e, char *why,
		   size_t len)
{
	struct nb_req q[NB_SCHED_MAX];
	int k = event_reqs(e, c, q);

	if (r->nreq + k > NB_SCHED_MAX) {
		snprintf(why, len, "more than %d requests", NB_SCHED_MAX);
		return -1;
	}
	memcpy(&r->req[r->nreq], q, (size_t)k * sizeof(q[0]));
	r->nreq += k;
	if (plan(c, r, why, len)) {
		r->nreq -= k;
		return -1;
	}
	e->req0 = r->nreq - k;
	e->nreq = k;
	return 0;
}

/* Split the events into runs.  Returns the number of runs; *MINIMAL says
 * whether it is proven the fewest. */
static int partition(const struct st_config *c, struct st_event *ev, int n, struct st_run *runs,
		     int *minimal)
{
	char why[2048];
	int nr = 0, all_sel = 1, part[NB_PART_MAX];

	for (int i = 0; i < n; i++)
		all_sel &= ev[i].preset < 0;
	*minimal = 0;
	if (all_sel && n > 1 && n <= NB_PART_MAX) {
		/* events and metrics alone: nb_schedule --partition's code */
		struct nb_evsel sel[NB_PART_MAX];
		struct nb_sched_cpu cpu;
		int exact = 0, k;

		memset(&cpu, 0, sizeof(cpu));
		cpu.model = c->model;
		for (int i = 0; i < n; i++)
			sel[i] = ev[i].sel;
		k = nb_partition(sel, n, &cpu, part, &exact, why, sizeof(why));
		if (k > 0 && k <= ST_MAXRUNS) {
			for (int r = 0; r < k; r++)
				memset(&runs[r], 0, sizeof(runs[r]));
			for (int i = 0; i < n; i++) {
				ev[i].run = part[i];
				if (try_add(c, &runs[part[i]], &ev[i], why, sizeof(why)))
					return fail(ST_EXIT_EVENT, "%s: %s", ev[i].name, why), -1;
			}
			*minimal = exact;
			return k;
		}
	}
	/* first fit, a TAGn event with the execution_event requests counting
	 * its tag as one unit (nb_sched_tag_bonds: counted apart, those would
	 * miss the tagged uops) */
	{
		struct nb_evsel sel[NB_PART_MAX];
		int lead[NB_PART_MAX];

		if (n > NB_PART_MAX)
			return fail(ST_EXIT_EVENT, "%d events; at most %d", n, NB_PART_MAX), -1;
		for (int i = 0; i < n; i++) {
			memset(&sel[i], 0, sizeof(sel[i]));
			if (ev[i].preset < 0)
				sel[i] = ev[i].sel;
		}
		if (nb_sched_tag_pairing(sel, n, why, sizeof(why)))
			return fail(ST_EXIT_EVENT, "%s", why), -1;
		nb_sched_tag_bonds(sel, n, lead);
		for (int u = 0; u < n; u++) {
			int r, bad = -1, size = 0;

			if (lead[u] != u)
				continue;
			for (int i = u; i < n; i++)
				size += lead[i] == u;
			for (r = 0; r <= nr; r++) {
				struct st_run keep;

				if (r == nr) {
					if (nr == ST_MAXRUNS)
						return fail(ST_EXIT_EVENT, "more than %d runs", ST_MAXRUNS), -1;
					memset(&runs[nr], 0, sizeof(runs[nr]));
				}
				keep = runs[r];
				bad = -1;
				for (int i = u; i < n && bad < 0; i++)
					if (lead[i] == u && try_add(c, &runs[r], &ev[i], why, sizeof(why)))
						bad = i;
				if (bad < 0)
					break;
				runs[r] = keep;
			}
			if (bad >= 0)
				return fail(ST_EXIT_EVENT, "%s cannot be counted%s: %s", ev[bad].name,
					    size > 1 ? " in one run with the TAGn events "
					    "and execution_event requests of its tag" : "", why), -1;
			if (r == nr)
				nr++;
			for (int i = u; i < n; i++)
				if (lead[i] == u)
					ev[i].run = r;
		}
	}
	*minimal = nr == 1;
	return nr;
}

/* With several runs, each also counts instructions if they fit: the runs
 * must agree on them (a deterministic program). */
static void add_instr_check(const struct st_config *c, struct st_run *r)
{
	struct st_event e;
	char why[1024];

	r->ins_req = -1;
	memset(&e, 0, sizeof(e));
	e.preset = nb_preset_lookup("PAPI_TOT_INS", 12);
	if (try_add(c, r, &e, why, sizeof(why)) == 0)
		r->ins_req = e.req0;
	else
		plan(c, r, why, sizeof(why));
}

/* ---- MPI ------------------------------------------------------------------- */

/* The MPI launcher's variable PROGRAM runs under, or NULL.  Under one,
 * PROGRAM can run only once per rank: a second MPI_Init in one job fails
 * (mpich's second run died of SIGPIPE on the PMI connection the first
 * closed).  Not SLURM_PROCID: srun runs programs that are not MPI's. */
static const char *mpi_launcher(void)
{
	static const char *const vars[] = {
		"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "MV2_COMM_WORLD_RANK",
	};
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return vars[i];
	}
	return NULL;
}

/* the events of each run as -e lists: " -e A,B (run 1), -e C (run 2)" */
static void runs_as_lists(const struct st_event *ev, int n, int nruns, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (int r = 0; r < nruns && o < len; r++) {
		int first = 1;

		o += (size_t)snprintf(buf + o, len - o, "%s -e ", r ? "," : "");
		for (int i = 0; i < n && o < len; i++)
			if (ev[i].run == r) {
				o += (size_t)snprintf(buf + o, len - o, "%s%s", first ? "" : ",",
						      ev[i].name);
				first = 0;
			}
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, " (run %d)", r + 1);
	}
}


/* A signal stopped a run with runs left (or one that gave no counts): no
 * counts are reported, and nb_stat ends by the signal. */
static int interrupted(int run, int nruns, struct st_out *of)
{
	int sig = st_interrupted;
	const char *name = sigabbrev_np(sig);

	st_out_abandon(of);
	if (run)
		fprintf(stderr, "%s: interrupted by SIG%s in run %d of %d: no counts reported\n",
			prog_name, name ? name : "?", run, nruns);
	else
		fprintf(stderr, "%s: interrupted by SIG%s before the first run\n", prog_name,
			name ? name : "?");
	signal(sig, SIG_DFL);
	raise(sig);
	return 128 + sig;
}

/* ---- main --------------------------------------------------------------------- */

enum { O_MODEL = 256, O_HT, O_CLOCK, O_TIME, O_PER_THREAD, O_FOLLOW, O_BACKEND };

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "model", required_argument, NULL, O_MODEL },
		{ "ht", required_argument, NULL, O_HT },
		{ "clock", required_argument, NULL, O_CLOCK },
		{ "time", required_argument, NULL, O_TIME },
		{ "event", required_argument, NULL, 'e' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "per-thread", no_argument, NULL, O_PER_THREAD },
		{ "follow", no_argument, NULL, O_FOLLOW },
		{ "backend", required_argument, NULL, O_BACKEND },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct st_event ev[ST_MAXEV];
	static struct st_run runs[ST_MAXRUNS];
	const char *names[ST_MAXEV];
	struct st_config c;
	struct report R;
	const char *sep = NULL, *out = NULL, *backend = "auto";
	char outpath[PATH_MAX], nbsim_buf[PATH_MAX], why[512];
	struct stat prog_st = { 0 };
	struct st_out of = { .fd = -1 };
	int json = 0, n = 0, opt, rc;
	unsigned host_model = 0;
	FILE *f;

	st_config_init(&c);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+e:x:jo:h", lo, NULL)) != -1) {
		switch (opt) {
		case O_MODEL: {
			char known[128];

			if (st_config_model(&c, optarg, known, sizeof(known)))
				return fail(ST_EXIT_USAGE, "unknown model '%s' (%s)", optarg, known);
			break;
		}
		case O_HT:
			if (strcmp(optarg, "yes") && strcmp(optarg, "no"))
				return fail(ST_EXIT_USAGE, "--ht takes yes or no, not '%s'", optarg);
			c.ht = !strcmp(optarg, "yes");
			break;
		case O_CLOCK:
			if (st_config_clock(&c, optarg))
				return fail(ST_EXIT_USAGE, "--clock takes model or sampled, not '%s'",
					    optarg);
			break;
		case O_TIME:
			if (st_config_time(&c, optarg))
				return fail(ST_EXIT_USAGE, "--time takes auto, simulated or host, not '%s'",
					    optarg);
			break;
		case 'e': {
			/* the list is split in place in a copy: its length is
			 * bounded by the events (ST_MAXEV) and each name's
			 * (NB_NAME_MAX), not by a buffer of the lists; the
			 * copies stay on a list (names point into them) */
			static struct evlist { struct evlist *next; char s[]; } *lists;
			size_t l = strlen(optarg) + 1;
			struct evlist *el = malloc(sizeof(*el) + l);
			char *s, *save = NULL;
			int n0 = n;

			if (!el)
				return fail(ST_EXIT_USAGE, "-e: out of memory");
			el->next = lists;
			lists = el;
			s = memcpy(el->s, optarg, l);
			for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				size_t l = strlen(t);

				if (l >= NB_NAME_MAX)
					return fail(ST_EXIT_EVENT, "event name too long (%zu characters, "
						    "at most %d): %.40s...", l, NB_NAME_MAX - 1, t);
				if (n == ST_MAXEV)
					return fail(ST_EXIT_USAGE, "more than %d events", ST_MAXEV);
				names[n++] = t;
			}
			/* '' or only commas: not the default set */
			if (n == n0)
				return fail(ST_EXIT_USAGE, "-e: empty event list");
			break;
		}
		case 'x':
			if (!*optarg)
				return fail(ST_EXIT_USAGE, "-x: empty separator");
			sep = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case O_PER_THREAD:
			c.per_thread = 1;
			break;
		case O_FOLLOW:
			c.follow = 1;
			break;
		case O_BACKEND:
			if (strcmp(optarg, "auto") && strcmp(optarg, "nbsim") && strcmp(optarg, "perf"))
				return fail(ST_EXIT_USAGE, "--backend takes auto, nbsim or perf, not '%s'",
					    optarg);
			backend = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return st_option_error(prog_name, "exo", optopt, argv, usage);
		}
	}
	if (sep && json)
		return fail(ST_EXIT_USAGE, "-x and --json exclude each other");
	if (optind >= argc)
		return st_no_program(prog_name, "count", usage);
	c.argv = argv + optind;

	/* the backend */
	if (!strcmp(backend, "auto"))
		backend = st_host_netburst(&host_model, why, sizeof(why)) ? "perf" : "nbsim";
	else if (!strcmp(backend, "perf") && !st_host_netburst(&host_model, why, sizeof(why)))
		return fail(ST_EXIT_BACKEND, "--backend=perf: %s; count on the simulated NetBurst "
			    "with --backend=nbsim", why);
	if (!strcmp(backend, "perf")) {
		c.model = host_model;
		c.model_name = "host";
		if (c.ht || c.per_thread || c.clock_given)
			return fail(ST_EXIT_BACKEND, "--ht, --per-thread, --clock and --time need the "
				    "nbsim backend");
	} else {
		c.nbsim = st_find_nbsim(nbsim_buf, sizeof(nbsim_buf));
	}

	/* the events, checked before anything runs */
	if (n == 0)
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
			names[n++] = default_events[i];
	for (int i = 0; i < n; i++)
		if ((rc = parse_event(names[i], &c, &ev[i])))
			return rc;
	{
		int minimal, nr = partition(&c, ev, n, runs, &minimal);

		if (nr < 0)
			return ST_EXIT_EVENT;
		memset(&R, 0, sizeof(R));
		R.nruns = nr;
		R.minimal = minimal;
	}
	for (int r = 0; r < R.nruns; r++) {
		runs[r].ins_req = -1;
		if (R.nruns > 1)
			add_instr_check(&c, &runs[r]);
	}
	/* one time base for every run: a program that reads its clocks must
	 * run the same way in each */
	st_time_resolve(&c, runs, R.nruns);

	/* under mpirun PROGRAM runs once: the set must fit one run */
	if (R.nruns > 1 && mpi_launcher()) {
		char lists[4096];

		runs_as_lists(ev, n, R.nruns, lists, sizeof(lists));
		return fail(ST_EXIT_USAGE, "under an MPI launcher (%s is set) PROGRAM can run only "
			    "once per rank (a second MPI_Init in one job fails), and these events take "
			    "%d runs: count them in %d launches:%s", mpi_launcher(), R.nruns, R.nruns,
			    lists);
	}

	/* the program, and the output file */
	if ((rc = st_check_program(prog_name, c.argv[0], strcmp(backend, "perf") != 0, &prog_st)))
		return rc;
	if (out) {
		struct stat ost;
		int e = st_expand_output(out, outpath, sizeof(outpath));

		if (e == -2)
			return fail(ST_EXIT_USAGE, "-o: empty file name (an unset variable?); "
				    "leave -o out to write to standard error");
		if (e)
			return fail(ST_EXIT_USAGE, "-o %s: bad %% sequence (%%r, %%p, %%%%) or too long",
				    out);
		/* the report must never replace the program it counts */
		if (stat(outpath, &ost) == 0 && ost.st_dev == prog_st.st_dev &&
		    ost.st_ino == prog_st.st_ino)
			return fail(ST_EXIT_OUTPUT, "-o %s: that is PROGRAM (%s) itself; not "
				    "overwriting it", outpath, c.argv[0]);
		if (st_out_open(&of, outpath))
			return fail(ST_EXIT_OUTPUT, "cannot write %s: %s", outpath,
				    of.why[0] ? of.why : strerror(errno));
	}

	/* count */
	R.c = &c;
	R.backend = backend;
	R.ev = ev;
	R.n = n;
	R.runs = runs;
	st_signals_init();
	if (R.nruns > 1 && st_stdin_prepare(why, sizeof(why))) {
		if (st_interrupted)
			return interrupted(0, R.nruns, &of);
		st_out_abandon(&of);
		return fail(ST_EXIT_BACKEND, "%s", why);
	}
	for (int r = 0; r < R.nruns; r++) {
		char err[1024];

		if (R.nruns > 1 && st_stdin_rewind(err, sizeof(err))) {
			st_out_abandon(&of);
			return fail(ST_EXIT_BACKEND, "run %d: %s", r + 1, err);
		}
		rc = !strcmp(backend, "perf") ? st_run_perf(&c, &runs[r], err, sizeof(err))
					      : st_run_nbsim(&c, &runs[r], err, sizeof(err));
		/* a signal in the last run: its counts so far and PROGRAM's status */
		if (st_interrupted && (rc || r < R.nruns - 1))
			return interrupted(r + 1, R.nruns, &of);
		if (rc) {
			st_out_abandon(&of);
			/* the program's own failure to start (exec) is its status */
			if (WIFEXITED(runs[r].status) && WEXITSTATUS(runs[r].status) >= 126)
				return fail(WEXITSTATUS(runs[r].status), "run %d: %s", r + 1, err);
			/* killed before it wrote any counts (kill -9 from outside):
			 * the status a shell gives, the signal named */
			if (WIFSIGNALED(runs[r].status)) {
				const int sig = WTERMSIG(runs[r].status);
				const char *ab = sigabbrev_np(sig);

				return fail(128 + sig, "run %d: killed by SIG%s (signal %d) before it "
					    "wrote any counts", r + 1, ab ? ab : "?", sig);
			}
			return fail(ST_EXIT_BACKEND, "run %d: %s", r + 1, err);
		}
		R.seconds += runs[r].seconds;
	}
	for (int p = 0; p < runs[0].nproc; p++)
		if (!runs[0].proc[p].final && st_interrupted)
			/* the signal nb_stat passed on may have come while nbsim
			 * started the new program (before it runs, nbsim writes
			 * no counts): not a program nbsim did not run */
			fprintf(stderr, "%s: warning: process %ld: its counts end at its exec (SIG%s "
				"ended it before nbsim ran the program it exec'd, or nbsim could not "
				"run that program)\n", prog_name, runs[0].proc[p].pid,
				sigabbrev_np(st_interrupted) ? sigabbrev_np(st_interrupted) : "?");
		else if (!runs[0].proc[p].final)
			fprintf(stderr, "%s: warning: process %ld exec'd a program nbsim did not run "
				"(not followed: a child without --follow, or one nbsim cannot run): "
				"its counts end at the exec\n", prog_name,
				runs[0].proc[p].pid);
	R.cycles = -1;
	for (int i = 0; i < n; i++)
		if (st_role_of(&ev[i], &c) == R_CYC) {
			R.cycles = st_ev_total(&ev[i], runs);
			break;
		}
	R.status = WIFEXITED(runs[0].status) ? WEXITSTATUS(runs[0].status)
					     : WIFSIGNALED(runs[0].status) ? 128 + WTERMSIG(runs[0].status) : 1;
	if (R.nruns > 1) {
		int64_t ins0 = -1;
		int checked = 0;

		for (int r = 0; r < R.nruns; r++) {
			if (runs[r].status != runs[0].status) {
				R.diverged = 1;
				snprintf(R.divergence, sizeof(R.divergence),
					 "run %d ended with wait status %#x, run 1 with %#x", r + 1,
					 runs[r].status, runs[0].status);
				break;
			}
			if (runs[r].nproc != runs[0].nproc) {
				R.diverged = 1;
				snprintf(R.divergence, sizeof(R.divergence), "run %d had %d processes, run 1 %d",
					 r + 1, runs[r].nproc, runs[0].nproc);
				break;
			}
			if (runs[r].ins_req < 0)
				continue;
			int64_t v = 0;

			for (int p = 0; p < runs[r].nproc; p++)
				v += st_req_value(&runs[r], runs[r].ins_req, runs[r].proc[p].total);
			if (ins0 >= 0 && v != ins0) {
				R.diverged = 1;
				snprintf(R.divergence, sizeof(R.divergence),
					 "instructions: %lld in run %d, %lld in an earlier run", (long long)v,
					 r + 1, (long long)ins0);
				break;
			}
			ins0 = v;
			checked++;
		}
		if (!R.diverged)
			snprintf(R.divergence, sizeof(R.divergence),
				 checked > 1 ? "the runs agree on instructions (%lld), exit status and processes"
					     : "the runs agree on exit status and processes (instructions "
					       "could not be counted beside the events of every run)",
				 (long long)ins0);
		if (R.diverged)
			fprintf(stderr, "%s: warning: the runs diverged: %s\n", prog_name, R.divergence);
	}

	if (out && st_out_begin(&of)) {
		rc = errno;
		st_out_abandon(&of);
		return fail(ST_EXIT_OUTPUT, "cannot write %s: %s", outpath, strerror(rc));
	}
	f = of.fd >= 0 ? fdopen(of.fd, "w") : stderr;
	if (!f) {
		rc = errno;
		st_out_abandon(&of);
		return fail(ST_EXIT_OUTPUT, "cannot write %s: %s", outpath, strerror(rc));
	}
	if (json)
		st_out_json(f, &R);
	else if (sep)
		st_out_csv(f, &R, sep);
	else
		st_out_table(f, &R);
	if (of.fd >= 0 && st_out_commit(&of, f))
		return fail(ST_EXIT_OUTPUT, "cannot write %s: %s", outpath, strerror(errno));
	return R.status;
}
