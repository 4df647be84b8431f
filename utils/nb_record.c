/*
 * nb_record - sample an unmodified program on the simulated NetBurst: where
 * its events happen (perf record for family 15, with the PEBS that Linux's
 * P4 driver never offered).
 *
 *   nb_record [--model=NAME] [--ht=yes|no] -e EVENT[/PERIOD]... [-c PERIOD]
 *             [--precise|--no-precise] [-g] [--follow] [-o FILE] [--backend=auto|nbsim|perf]
 *             [--] PROGRAM [ARGS...]
 *
 * The events are parsed, placed and encoded as nb_stat's are (one run: a
 * sampled set must fit the PMU at once); each counter starts a period short
 * of overflow.  nbsim takes the interrupts and PEBS records itself
 * (sim/nb_samples.c: --nbsim-samples) and writes the samples with their
 * symbols, which nb_record_sim.c turns into the profile (nb_record.5 has
 * the format; nb_report reads it); on a real part nb_record_perf.c samples
 * through perf_event_open instead.  See nb_record.1.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "nb_record_sim.h"
#include "nb_record_perf.h"
#include "nb_prog.h"
#include "nb_stat_run.h"
#include "nb_stat_out.h"
#include "nb_encode.h"
#include "nb_util.h"

static const char *prog_name = "nb_record";

#define DEFAULT_PERIOD 100003    /* a prime: no aliasing with a loop's trip count */
#define DEFAULT_DEPTH 32         /* -g: callers per sample */
#define PROFILE_VERSION 1

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nb_record [options] -e EVENT[/PERIOD] [--] PROGRAM [ARGS...]\n"
		"Sample PROGRAM on a simulated NetBurst (nbsim), from its first instruction to its\n"
		"exit, in user mode: where its events happen.  nb_report reads the profile.\n"
		"  -e, --event=EV[/PERIOD][,...]  events to sample (PAPI presets of one term,\n"
		"                      event[:MASK...][:mods], tagged metrics); all at once\n"
		"  -c, --count=PERIOD  a sample every PERIOD events (default %d; 1 to 2^39)\n"
		"  --random-period[=BITS]  each period's BITS low bits random (default 4, as\n"
		"                      perf's AMD IBS rand_en; 1 to 24), centred on PERIOD,\n"
		"                      so that no period stays in step with a loop\n"
		"  --random-seed=N     their generator's seed (default 1): the same seed, the\n"
		"                      same periods and profile\n"
		"  -F, --freq=N        about N samples per simulated second of each event\n"
		"                      without its own /PERIOD: PROGRAM is first run once to\n"
		"                      count the events and the cycles (simulated time),\n"
		"                      then sampled with the period that gives N (on the\n"
		"                      perf backend: the kernel's frequency mode)\n"
		"  --precise           PEBS: the sample is the event-causing load itself, with\n"
		"                      its registers and data address (the default for the\n"
		"                      replay-tagged metrics, the events nbsim's PEBS samples)\n"
		"  --no-precise        the overflow interrupt's IP (IEBS), after the model's skid\n"
		"  -g, --call-graph    the callers of each sample (valgrind's unwinder)\n"
		"  -o, --output=FILE   the profile (default nb.profile; %%r: MPI rank, %%p: pid)\n"
		"  --follow            sample forked children too (each sample names its\n"
		"                      process and thread; a process's exec'd images always)\n"
		"  --model=NAME        willamette, northwood, prescott (default), cedarmill, xeonmp\n"
		"  --ht=yes|no         model Hyper-Threading (default no): two logical\n"
		"                      processors, each IEBS event sampled on each by a\n"
		"                      counter of its own\n"
		"  --clock=sampled|model  nbsim's clock (the skid follows it; default sampled)\n"
		"  --time=auto|simulated|host  what PROGRAM's own clocks read (RDTSC,\n"
		"                      clock_gettime...) on nbsim: the simulated part's time,\n"
		"                      or the host's; auto (default): simulated when an event\n"
		"                      needs the timing model anyway (cycles, an interrupt's\n"
		"                      skid: every IEBS event), else the host's (PEBS alone)\n"
		"  --backend=auto|nbsim|perf  nbsim: the simulated NetBurst; perf: Linux's\n"
		"                      perf_event_open on a real one (IEBS only: its P4 driver\n"
		"                      samples no PEBS); auto (default): perf on a NetBurst\n"
		"  -h, --help          this text\n"
		"exit status: PROGRAM's (128+N if killed by signal N); nb_record's own failures:\n"
		"  121 sampling failed or the backend refused, 122 -o FILE not writable, 123 event not on this model,\n"
		"  124 unknown event or one that cannot sample (so), 125 usage or bad period,\n"
		"  126 PROGRAM not executable, 127 PROGRAM not found\n", DEFAULT_PERIOD);
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

/* ---- events ------------------------------------------------------------- */

/* A period: 1 to 2^39 (a counter starts at 2^40 - PERIOD; more than 2^39
 * would start it in the lower half, where it could not be told from a
 * count).  0, or -1. */
static int parse_period(const char *s, uint64_t *out)
{
	char *e;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &e, 0);
	if (errno || *e || v == 0 || v > (UINT64_C(1) << 39))
		return -1;
	*out = v;
	return 0;
}

/* Does nbsim's PEBS sample this request?  The model takes PEBS records of
 * the replay-tagged loads (sim/nb_pmi.c nb_pebs_update: replay_event
 * NBOGUS on counter 16 with the L1, L2, DTLB, split or MOB tagging of
 * IA32_PEBS_ENABLE); the front-end and execution tagging metrics can be
 * precise on the hardware, but the model does not sample them. */
static int pebs_modelled(const struct nb_evsel *s, char *why, size_t len)
{
	if (!nb_evsel_pebs_capable(s)) {
		snprintf(why, len, "PEBS samples only front_end_event, execution_event, "
			 "replay_event and the tagged metrics");
		return 0;
	}
	if (s->kind != NB_SEL_METRIC || nb_metrics[s->event].type != NB_TAG_REPLAY) {
		snprintf(why, len, "nbsim's PEBS samples the replay-tagged load metrics "
			 "(1stL_cache_load_miss_retired, 2ndL_cache_load_miss_retired, "
			 "DTLB_load_miss_retired, split_load_retired, MOB_load_replay_retired); "
			 "sample this one with --no-precise");
		return 0;
	}
	return 1;
}

/*
 * --ht=yes, a precise event: PEBS of logical processor 1 samples on
 * counter 17 (MSR_IQ_COUNTER5) with its own enable, IA32_PEBS_ENABLE bit
 * 26 as logical processor 0 writes it [SDM Vol. 3B 18.16.3: PEBS "only
 * with ... MSR_IQ_CCCR4 ... for logical processor 0 and MSR_IQ_CCCR5 ...
 * for logical processor 1"; bit 25 ENABLE_PEBS_MY_THR, bit 26
 * ENABLE_PEBS_OTH_THR].  The scheduler places one precise request a call,
 * on the PEBS counter of the logical processor it is asked for, so the
 * twin is placed by a second call as logical processor 1, beside what
 * the first plan holds (its counters, ESCRs and replay MSR values: the
 * sibling's, as the component places a second thread's set).  Hardware
 * event H (the first plan's) samples logical processor 0 from then on;
 * the twin is appended to the plan.  Returns its index, or -1 with WHY.
 */
static int precise_twin(struct st_run *run, int h, unsigned model, char *why, size_t len)
{
	struct nb_plan *p = &run->plan;
	struct nb_sched_cpu cpu;
	struct nb_evsel q = p->hw[h];
	struct nb_assign a;
	int h2 = p->nhw;

	if (h2 == NB_SCHED_MAX) {
		snprintf(why, len, "no request left for it (%d at most)", NB_SCHED_MAX);
		return -1;
	}
	memset(&cpu, 0, sizeof(cpu));
	cpu.model = model;
	cpu.thread = 1;
	cpu.busy_escrs = p->assign.escrs_used;
	cpu.busy_counters = p->assign.counters_used;
	/* (its tagging bits: PEBS itself is enabled per logical processor,
	 * as the component passes a sibling's, nb_comp_lp.c) */
	cpu.busy_pebs_enable = p->assign.pebs_enable & ~(NB_PEBS_ENABLE_PEBS | NB_PEBS_ENABLE_PEBS_OTH);
	cpu.busy_matrix_vert = p->assign.matrix_vert;
	q.twin = 1;
	if (nb_sched_run(&q, 1, &cpu, &a, NULL, why, len))
		return -1;
	p->hw[h2] = q;
	p->hw_req[h2] = p->hw_req[h];
	p->assign.slot[h2] = a.slot[0];
	p->assign.escrs_used |= a.escrs_used;
	p->assign.counters_used |= a.counters_used;
	p->assign.pebs_enable |= NB_PEBS_ENABLE_PEBS_OTH;
	p->nhw++;
	run->lp[h] = 1;
	run->lp[h2] = 2;
	run->period[h2] = run->period[h];
	return h2;
}

/* the profile's event lines */
static void put_events(FILE *out, const struct rec_event *ev, int n)
{
	for (int i = 0; i < n; i++)
		fprintf(out, "event\t%d\t%s\t%" PRIu64 "\t%s\t%u\n", i, ev[i].name, ev[i].period,
			ev[i].precise ? "pebs" : "iebs", ev[i].counter);
}

/* ---- main ------------------------------------------------------------------ */

enum { O_MODEL = 256, O_PRECISE, O_NO_PRECISE, O_CLOCK, O_FOLLOW, O_BACKEND, O_HT, O_RANDOM,
	O_SEED, O_TIME };
#define DEFAULT_RANDOM_BITS 4
#define MAX_RANDOM_BITS 24       /* nbsim's NB_SAMPLE_MAXRANDOM */

static void free_procs(struct st_run *r)
{
	for (int k = 0; k < r->nproc; k++)
		free(r->proc[k].thr);
	free(r->proc);
	r->proc = NULL;
	r->nproc = 0;
}

/* -F N: PROGRAM run once to count (the same events on the same counters,
 * none sampling; the program's clocks simulated, so that nbsim's clock runs
 * and the run's cycles are known), then each -F event's period is the one
 * that gives N samples per simulated second over that run: count x 10^6 /
 * (N x cycles / MHz), at least 1, at most 2^39. */
static int freq_periods(const struct st_config *c0, struct st_run *run, struct rec_event *ev,
			int n, uint64_t freq)
{
	struct st_config c = *c0;
	struct st_run r = *run;
	char err[2048];
	uint64_t cycles = 0;
	unsigned mhz = 0;

	memset(r.period, 0, sizeof(r.period));
	r.proc = NULL;
	r.nproc = 0;
	c.samples = NULL;
	c.host_time = 0;
	if (st_run_nbsim(&c, &r, err, sizeof(err))) {
		if (st_interrupted)
			return 128 + st_interrupted;
		return fail(ST_EXIT_BACKEND, "-F: the counting run: %s", err);
	}
	for (int p = 0; p < r.nproc; p++) {
		cycles += r.proc[p].cycles;
		if (!mhz)
			mhz = r.proc[p].mhz;
	}
	if (!cycles || !mhz) {
		free_procs(&r);
		return fail(ST_EXIT_BACKEND, "-F: the counting run gave no simulated time (cycles %"
			    PRIu64 ", %u MHz)", cycles, mhz);
	}
	for (int i = 0; i < n; i++) {
		uint64_t count = 0;
		double p;

		if (!ev[i].by_freq)
			continue;
		for (int k = 0; k < r.nproc; k++)
			count += r.proc[k].total[ev[i].counter];
		if (!count) {
			free_procs(&r);
			return fail(ST_EXIT_EVENT, "-F: %s counted 0 in the counting run: nothing "
				    "to sample", ev[i].name);
		}
		p = (double)count * (double)mhz * 1e6 / ((double)freq * (double)cycles);
		ev[i].period = p < 1 ? 1 : p > (double)(UINT64_C(1) << 39) ? UINT64_C(1) << 39 :
			(uint64_t)(p + 0.5);
		run->period[ev[i].hw] = ev[i].period;
		if (c0->random_bits && ev[i].period <= UINT64_C(1) << c0->random_bits)
			return fail(ST_EXIT_USAGE, "-F: %s's period %" PRIu64 " has no %d random low "
				    "bits to spare (--random-period needs a period above 2^%d)",
				    ev[i].name, ev[i].period, c0->random_bits, c0->random_bits);
		fprintf(stderr, "%s: -F %" PRIu64 ": %s counted %" PRIu64 " in %.6f simulated "
			"seconds: a sample every %" PRIu64 "\n", prog_name, freq, ev[i].name, count,
			(double)cycles / ((double)mhz * 1e6), ev[i].period);
	}
	free_procs(&r);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "model", required_argument, NULL, O_MODEL },
		{ "event", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'c' },
		{ "freq", required_argument, NULL, 'F' },
		{ "precise", no_argument, NULL, O_PRECISE },
		{ "no-precise", no_argument, NULL, O_NO_PRECISE },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "output", required_argument, NULL, 'o' },
		{ "clock", required_argument, NULL, O_CLOCK },
		{ "time", required_argument, NULL, O_TIME },
		{ "follow", no_argument, NULL, O_FOLLOW },
		{ "backend", required_argument, NULL, O_BACKEND },
		{ "ht", required_argument, NULL, O_HT },
		{ "random-period", optional_argument, NULL, O_RANDOM },
		{ "random-seed", required_argument, NULL, O_SEED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct rec_event ev[ST_MAXEV];
	static struct st_run run;
	static char evbuf[8192];
	struct st_config c;
	struct rec_ctx x;
	struct st_out of = { .fd = -1 };
	struct stat prog_st;
	const char *out = "nb.profile";
	char nbsim_buf[PATH_MAX], err[2048], outpath[PATH_MAX];
	uint64_t period = DEFAULT_PERIOD, freq = 0;
	int period_given = 0, seed_given = 0;
	size_t evo = 0;
	int n = 0, opt, rc, precise = -1, depth = 0, status, perf = 0, model_given = 0;
	const char *backend = "auto";
	unsigned host_model = 0;
	struct nbr_perf_event pev[ST_MAXEV];
	struct nbr_perf_stats pst;

	st_config_init(&c);
	c.random_seed = 1;
	memset(&x, 0, sizeof(x));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+e:c:F:go:h", lo, NULL)) != -1) {
		switch (opt) {
		case O_MODEL: {
			char known[128];

			if (st_config_model(&c, optarg, known, sizeof(known)))
				return fail(ST_EXIT_USAGE, "unknown model '%s' (%s)", optarg, known);
			model_given = 1;
			break;
		}
		case 'e': {
			size_t l = strlen(optarg) + 1;
			char *s, *save = NULL;
			int n0 = n;

			if (evo + l > sizeof(evbuf))
				return fail(ST_EXIT_USAGE, "too many events");
			s = memcpy(evbuf + evo, optarg, l);
			evo += l;
			for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				char *sl = strrchr(t, '/');

				if (n == ST_MAXEV)
					return fail(ST_EXIT_USAGE, "more than %d events", ST_MAXEV);
				memset(&ev[n], 0, sizeof(ev[n]));
				if (sl) {
					*sl = 0;
					if (parse_period(sl + 1, &ev[n].period))
						return fail(ST_EXIT_USAGE, "%s: bad period '%s' (a whole "
							    "number from 1 to 2^39)", t, sl + 1);
				}
				ev[n++].name = t;
			}
			if (n == n0)
				return fail(ST_EXIT_USAGE, "-e: empty event list");
			break;
		}
		case 'F': {
			char *e;

			errno = 0;
			freq = strtoull(optarg, &e, 10);
			if (errno || *e || !*optarg || *optarg == '-' || freq == 0 || freq > 1000000000)
				return fail(ST_EXIT_USAGE, "-F: bad rate '%s' (samples per simulated "
					    "second, 1 to 10^9)", optarg);
			break;
		}
		case 'c':
			period_given = 1;
			if (parse_period(optarg, &period))
				return fail(ST_EXIT_USAGE, "-c: bad period '%s' (a whole number from 1 "
					    "to 2^39)", optarg);
			break;
		case O_PRECISE:
			precise = 1;
			break;
		case O_NO_PRECISE:
			precise = 0;
			break;
		case 'g':
			depth = DEFAULT_DEPTH;
			break;
		case 'o':
			out = optarg;
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
		case O_HT:
			if (strcmp(optarg, "yes") && strcmp(optarg, "no"))
				return fail(ST_EXIT_USAGE, "--ht takes yes or no, not '%s'", optarg);
			c.ht = !strcmp(optarg, "yes");
			break;
		case O_BACKEND:
			if (strcmp(optarg, "auto") && strcmp(optarg, "nbsim") && strcmp(optarg, "perf"))
				return fail(ST_EXIT_USAGE, "--backend takes auto, nbsim or perf, not '%s'",
					    optarg);
			backend = optarg;
			break;
		case O_FOLLOW:
			c.follow = 1;
			break;
		case O_RANDOM: {
			char *e;
			long b = DEFAULT_RANDOM_BITS;

			errno = 0;
			if (optarg)
				b = strtol(optarg, &e, 10);
			if (optarg && (errno || *e || !*optarg || b < 1 || b > MAX_RANDOM_BITS))
				return fail(ST_EXIT_USAGE, "--random-period: bad number of bits '%s' "
					    "(1 to %d)", optarg, MAX_RANDOM_BITS);
			c.random_bits = (int)b;
			break;
		}
		case O_SEED: {
			char *e;

			errno = 0;
			c.random_seed = strtoull(optarg, &e, 10);
			if (errno || *e || !*optarg || *optarg == '-' || c.random_seed > 0xffffffffULL)
				return fail(ST_EXIT_USAGE, "--random-seed: bad seed '%s' (0 to "
					    "4294967295)", optarg);
			seed_given = 1;
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		default:
			return st_option_error(prog_name, "ecoF", optopt, argv, usage);
		}
	}
	if (n == 0)
		return fail(ST_EXIT_USAGE, "no event to sample (-e EVENT[/PERIOD])");
	if (freq && period_given)
		return fail(ST_EXIT_USAGE, "-c and -F exclude each other (a period, or a rate)");
	if (seed_given && !c.random_bits)
		return fail(ST_EXIT_USAGE, "--random-seed without --random-period: there is "
			    "nothing random to seed");
	if (optind >= argc)
		return st_no_program(prog_name, "sample", usage);
	{
		int e = st_expand_output(out, outpath, sizeof(outpath));

		if (e == -2)
			return fail(ST_EXIT_USAGE, "-o: empty file name (an unset variable?)");
		if (e)
			return fail(ST_EXIT_USAGE, "-o %s: bad %% sequence (%%r, %%p, %%%%) or too long",
				    out);
		out = outpath;
	}
	c.argv = argv + optind;

	/* the backend, as nb_stat's: perf on a real NetBurst (or under nbsim,
	 * whose CPUID is one: its emulated perf driver), else nbsim */
	{
		char why[512];

		if (!strcmp(backend, "auto"))
			backend = st_host_netburst(&host_model, why, sizeof(why)) ? "perf" : "nbsim";
		else if (!strcmp(backend, "perf") && !st_host_netburst(&host_model, why, sizeof(why)))
			return fail(ST_EXIT_BACKEND, "--backend=perf: %s; sample on the simulated "
				    "NetBurst with --backend=nbsim", why);
		perf = !strcmp(backend, "perf");
		if (perf) {
			if (model_given || c.clock_given || c.ht)
				return fail(ST_EXIT_BACKEND, "--model, --ht, --clock and --time need the "
					    "nbsim backend (the perf backend samples the host's NetBurst)");
			if (c.random_bits)
				return fail(ST_EXIT_BACKEND, "--random-period needs the nbsim backend "
					    "(Linux's P4 driver reloads every period whole: "
					    "perf_event_attr has no random bits but AMD IBS's)");
			c.model = host_model;
			c.model_name = "host";
		}
	}

	/* the events, checked before anything runs */
	for (int i = 0; i < n; i++) {
		struct nb_util_opts u;
		char why[512];
		int p = strncasecmp(ev[i].name, "PAPI_", 5) ? -1
			: nb_preset_lookup(ev[i].name, strlen(ev[i].name));
		struct nb_req *q = &run.req[run.nreq];

		ev[i].by_freq = freq && !ev[i].period;
		if (!ev[i].period)
			ev[i].period = period;
		if (c.random_bits && !ev[i].by_freq && ev[i].period <= UINT64_C(1) << c.random_bits)
			return fail(ST_EXIT_USAGE, "%s: a period of %" PRIu64 " has no %d random low "
				    "bits to spare (--random-period needs a period above 2^%d)",
				    ev[i].name, ev[i].period, c.random_bits, c.random_bits);
		ev[i].preset = p;
		memset(q, 0, sizeof(*q));
		if (p >= 0) {
			int k = nb_preset_slots((unsigned)p, c.model, c.feats);

			if (k == 0)
				return fail(ST_EXIT_MODEL, "%s: not available on model %s", ev[i].name,
					    c.model_name);
			if (k > 1)
				return fail(ST_EXIT_EVENT, "%s: a preset of %d terms cannot sample (its "
					    "count is a sum); sample its events", ev[i].name, k);
			if (precise == 1)
				return fail(ST_EXIT_EVENT, "%s cannot sample precisely: PEBS samples "
					    "the tagged metrics, not presets", ev[i].name);
			q->kind = NB_REQ_PRESET;
			q->preset = (uint16_t)p;
		} else {
			nb_util_defaults(&u);
			u.cpu.model = c.model;
			u.feats = c.feats;
			if (nb_util_request(ev[i].name, &u, &ev[i].sel, why, sizeof(why)))
				return fail(ST_EXIT_EVENT, "%s", why);
			ev[i].precise = (ev[i].sel.cccr & NB_CCCR_MOD_PRECISE) != 0;
			if (ev[i].precise && precise == 0)
				return fail(ST_EXIT_USAGE, "%s: its :precise and --no-precise say "
					    "opposite things", ev[i].name);
			if (perf && (precise == 1 || ev[i].precise))
				return fail(ST_EXIT_EVENT, "%s cannot sample precisely on the perf "
					    "backend: Linux's P4 driver offers no PEBS sampling (it uses "
					    "PEBS only to tag replay events for counting); sample it with "
					    "--no-precise, or precisely with --backend=nbsim", ev[i].name);
			if (perf) {
				if (precise < 0 && pebs_modelled(&ev[i].sel, why, sizeof(why)))
					fprintf(stderr, "%s: %s: IEBS (the overflow interrupt's IP): "
						"the perf backend samples no PEBS\n", prog_name, ev[i].name);
				ev[i].precise = 0;
			} else if (precise == 1 || ev[i].precise) {
				if (!pebs_modelled(&ev[i].sel, why, sizeof(why)))
					return fail(ST_EXIT_EVENT, "%s cannot sample precisely: %s",
						    ev[i].name, why);
				ev[i].precise = 1;
			} else if (precise < 0) {
				ev[i].precise = pebs_modelled(&ev[i].sel, why, sizeof(why));
			}
			if (ev[i].precise)
				ev[i].sel.cccr |= NB_CCCR_MOD_PRECISE;
			q->kind = NB_REQ_SEL;
			q->sel = ev[i].sel;
		}
		run.nreq++;
	}
	{
		int np = 0;

		for (int i = 0; i < n; i++)
			np += ev[i].precise;
		if (np > 1)
			return fail(ST_EXIT_EVENT, "%d precise events: PEBS has one counter (16) per "
				    "logical processor; sample them in separate runs", np);
	}
	/* --ht=yes: an IEBS event is sampled on each logical processor by a
	 * counter of its own, which counts that LP's events and interrupts
	 * it (ESCR T0 or T1 bits, CCCR OVF_PMI_T0 or T1), as Linux's driver
	 * gives each CPU its own event: the interrupt is taken on the LP
	 * whose thread caused the overflow, and samples its IP.  One
	 * counter for both would interrupt one LP for the other's events. */
	{
		struct nb_sched_cpu cpu;
		char why[2048];

		memset(&cpu, 0, sizeof(cpu));
		cpu.model = c.model;
		if (nb_plan_run(run.req, run.nreq, &cpu, c.feats, NULL, &run.plan, why, sizeof(why)))
			return fail(ST_EXIT_EVENT, "these events cannot be sampled at once: %s", why);
		/* the twins: each IEBS event's hardware request as the first
		 * plan chose it (a preset's alternative), marked apart */
		if (c.ht) {
			for (int i = 0; i < n; i++) {
				struct nb_req *q = &run.req[run.nreq];

				if (ev[i].precise || run.plan.hw_of[i] < 0)
					continue;
				if (run.nreq == NB_SCHED_MAX)
					return fail(ST_EXIT_EVENT, "too many events to sample on both "
						    "logical processors (--ht=yes)");
				memset(q, 0, sizeof(*q));
				q->kind = NB_REQ_SEL;
				q->sel = run.plan.hw[run.plan.hw_of[i]];
				q->sel.twin = 1;
				run.nreq++;
			}
			if (nb_plan_run(run.req, run.nreq, &cpu, c.feats, NULL, &run.plan, why,
					sizeof(why)))
				return fail(ST_EXIT_EVENT, "these events cannot be sampled at once on "
					    "both logical processors (--ht=yes: a counter each): %s", why);
		}
	}
	for (int i = 0; i < 18; i++)
		x.ev_of_counter[i] = -1;
	for (int i = 0; i < n; i++) {
		int h = run.plan.hw_of[i];

		if (h < 0)
			return fail(ST_EXIT_EVENT, "%s: reads 0 on this model; nothing to sample",
				    ev[i].name);
		ev[i].hw = h;
		ev[i].counter = run.plan.assign.slot[h].counter;
		if (run.plan.assign.slot[h].cascade)
			return fail(ST_EXIT_EVENT, "%s: a cascaded counter pair cannot sample",
				    ev[i].name);
		run.period[h] = ev[i].period;
		x.ev_of_counter[ev[i].counter] = i;
		if (c.ht && !ev[i].precise) {
			/* its LP 1 twin: the requests after the n events' */
			int k = n, h2;

			for (int j = 0; j < i; j++)
				k += !ev[j].precise;
			h2 = run.plan.hw_of[k];
			if (h2 < 0 || h2 == h || run.plan.assign.slot[h2].cascade)
				return fail(ST_EXIT_EVENT, "%s: no second counter to sample it on the "
					    "second logical processor (--ht=yes)", ev[i].name);
			run.lp[h] = 1;
			run.lp[h2] = 2;
			run.period[h2] = ev[i].period;
			x.ev_of_counter[run.plan.assign.slot[h2].counter] = i;
		}
		if (c.ht && ev[i].precise && !perf) {
			char why[2048];
			int h2 = precise_twin(&run, h, c.model, why, sizeof(why));

			if (h2 < 0)
				return fail(ST_EXIT_EVENT, "%s: cannot sample it precisely on the second "
					    "logical processor too (--ht=yes): %s", ev[i].name, why);
			x.ev_of_counter[run.plan.assign.slot[h2].counter] = i;
		}
		if (perf) {
			char why[512];

			memset(&pev[i], 0, sizeof(pev[i]));
			pev[i].period = ev[i].period;
			pev[i].freq = ev[i].by_freq ? freq : 0;
			pev[i].config = nb_perf_raw_why(&run.plan.hw[h], NB_DOM_USER, why, sizeof(why));
			if (!pev[i].config)
				return fail(ST_EXIT_EVENT, "%s: %s", ev[i].name, why);
		}
	}
	if (perf && run.plan.assign.nhelpers)
		return fail(ST_EXIT_EVENT, "a tagged metric of this set needs helper ESCRs, which "
			    "the kernel's P4 driver cannot program (sample it with --backend=nbsim)");
	run.ins_req = -1;
	st_time_resolve(&c, &run, 1);

	if ((rc = st_check_program(prog_name, c.argv[0], !perf, &prog_st)))
		return rc;
	{
		struct stat ost;

		if (stat(out, &ost) == 0 && ost.st_dev == prog_st.st_dev && ost.st_ino == prog_st.st_ino)
			return fail(ST_EXIT_OUTPUT, "-o %s: that is PROGRAM (%s) itself; not "
				    "overwriting it", out, c.argv[0]);
		if (st_out_open(&of, out))
			return fail(ST_EXIT_OUTPUT, "cannot write %s: %s", out, strerror(errno));
	}
	x.out = fdopen(of.fd, "w");
	if (!x.out) {
		st_out_abandon(&of);
		return fail(ST_EXIT_OUTPUT, "cannot write %s: %s", out, strerror(errno));
	}
	if (!perf)
		c.nbsim = st_find_nbsim(nbsim_buf, sizeof(nbsim_buf));
	if (freq && !perf && (rc = freq_periods(&c, &run, ev, n, freq))) {
		fclose(x.out);
		of.fd = -1;
		st_out_abandon(&of);
		return rc;
	}
	x.ev = ev;
	x.nev = n;
	nbr_sim_begin(&x);

	fprintf(x.out, "nb-profile\t%d\nmodel\t%s\ncommand", PROFILE_VERSION, c.model_name);
	for (char **a = c.argv; *a; a++) {
		fputc('\t', x.out);
		for (const char *s = *a; *s; s++)
			fputc(*s == '\t' || *s == '\n' ? ' ' : *s, x.out);
	}
	fputc('\n', x.out);
	/* (the perf path's -F periods are known after the run: its events
	 * follow it, its samples held back until then) */
	if (!perf || !freq)
		put_events(x.out, ev, n);

	c.samples = nbr_sim_samples;
	c.samples_ctx = &x;
	x.follow = c.follow;
	c.sample_depth = depth;
	st_signals_init();
	if (perf) {
		FILE *body = freq ? tmpfile() : x.out;
		int prc = body ? nbr_run_perf(&c, pev, n, depth, body, &pst, &run.status, err,
					      sizeof(err)) : -1;

		if (!body)
			snprintf(err, sizeof(err), "a temporary file: %s", strerror(errno));
		if (prc == 0)
			for (int i = 0; i < n; i++) {
				ev[i].samples = pev[i].samples;
				x.nsamples += pev[i].samples;
				/* -F: the kernel's periods on average (perf
				 * report's event count is their sum) */
				if (ev[i].by_freq)
					ev[i].period = pev[i].samples ? (pev[i].period_sum +
						pev[i].samples / 2) / pev[i].samples : 1;
			}
		if (prc == 0 && body != x.out) {
			char cb[65536];
			size_t k;

			put_events(x.out, ev, n);
			rewind(body);
			while ((k = fread(cb, 1, sizeof(cb), body)) > 0)
				fwrite(cb, 1, k, x.out);
		}
		if (body && body != x.out)
			fclose(body);
		if (prc && !st_interrupted && WIFEXITED(run.status) &&
		    WEXITSTATUS(run.status) >= ST_EXIT_NOEXEC) {
			fclose(x.out);
			of.fd = -1;
			st_out_abandon(&of);
			return fail(WEXITSTATUS(run.status), "%s", err);
		}
		rc = prc;
	} else {
		rc = st_run_nbsim(&c, &run, err, sizeof(err));
	}
	if (rc) {
		fclose(x.out);
		of.fd = -1;
		st_out_abandon(&of);
		nbr_sim_end(&x);
		if (st_interrupted)
			return 128 + st_interrupted;
		return fail(ST_EXIT_BACKEND, "%s", err);
	}
	nbr_sim_end(&x);
	if (st_out_commit(&of, x.out))
		return fail(ST_EXIT_OUTPUT, "cannot write %s: %s", out, strerror(errno));

	for (int i = 0; i < n; i++)
		if (perf)
			fprintf(stderr, "%s: %" PRIu64 " samples of %s (every %" PRIu64 "%s, IEBS through "
				"perf_event_open; it counted %" PRIu64 ")\n", prog_name, ev[i].samples,
				ev[i].name, ev[i].period, ev[i].by_freq ? " on average, the kernel's "
				"frequency mode" : "", pev[i].count);
		else
			fprintf(stderr, "%s: %" PRIu64 " samples of %s (every %" PRIu64 "%s, %s)\n",
				prog_name, ev[i].samples, ev[i].name, ev[i].period,
				c.random_bits ? " on average, its low bits random" : "",
				ev[i].precise ? "PEBS" : "IEBS");
	if (perf && c.follow)
		fprintf(stderr, "%s: %" PRIu64 " forked process%s followed (PERF_RECORD_FORK)\n",
			prog_name, pst.forks, pst.forks == 1 ? "" : "es");
	if (perf && (pst.lost || pst.throttles))
		fprintf(stderr, "%s: the kernel lost %" PRIu64 " samples (a full ring buffer) and "
			"throttled %" PRIu64 " times (too many interrupts a tick): the profile "
			"misses them\n", prog_name, pst.lost, pst.throttles);
	if (x.pebs)
		fprintf(stderr, "%s: data addresses decoded for %" PRIu64 " of %" PRIu64
			" PEBS samples, %" PRIu64 " differing from the model's (outside the operand)\n", prog_name,
			x.decoded, x.pebs, x.differ);
	if (x.bad_lines)
		fprintf(stderr, "%s: %" PRIu64 " sample lines from nbsim not understood\n",
			prog_name, x.bad_lines);
	fprintf(stderr, "%s: profile written to %s\n", prog_name, out);

	status = run.status;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return ST_EXIT_BACKEND;
}
