/*
 * nb_schedule - place NetBurst events and metrics on ESCRs and counters
 * (or say why they cannot be counted together); with --partition, split
 * them into the fewest runs.  Exit: 0 placed (or partitioned), 1 conflict
 * or bad event, 2 usage.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "nb_util.h"
#include "nb_encode.h"
#include "nb_linux_sched.h"
#include "nb_partition.h"
#include "nb_presets.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: nb_schedule [options] EVENT|METRIC|PAPI_PRESET...\n"
		"Place the events on NetBurst ESCRs and counters, or report the conflict.\n"
		"A PAPI preset takes the first of its alternatives (presets.txt) that fits.\n"
		"With --partition and presets: first fit over whole event sets.\n"
		"options:\n" NB_UTIL_COMMON_HELP
		"  --busy-escr=NAME     an ESCR the other logical processor uses (repeatable)\n"
		"  --busy-counter=N     a counter the other logical processor uses (repeatable)\n"
		"  --partition          split into the fewest runs (exact up to %d events)\n"
		"  --policy=linux       place the set as the Linux P4 perf driver would\n"
		"                       (first fit, thread-0 half; nb_linux_sched.c)\n"
		"  --help               this text\n"
		"exit status: 0 placed, 1 conflict or unknown event, 2 usage error, 3 unknown model\n",
		NB_PART_EXACT_MAX);
}

static void name_of(const struct nb_evsel *r, const char *given, char *buf, size_t len)
{
	(void)r;
	snprintf(buf, len, "%s", given);
}

static void print_assign(const struct nb_evsel *req, const char *const *names, int n,
			 const struct nb_assign *a)
{
	char nm[NB_NAME_MAX];

	for (int i = 0; i < n; i++) {
		if (names)
			name_of(&req[i], names[i], nm, sizeof(nm));
		else
			nb_sched_name(&req[i], nm, sizeof(nm));
		printf("%-40s %-10s %s", nm, nb_escrs[a->slot[i].escr].name, nb_counters[a->slot[i].counter].name);
		if (req[i].kind == NB_SEL_METRIC && nb_metrics[req[i].event].type == NB_TAG_EXECUTION)
			/* its tag bit n: the counting mask NBOGUSn (event-mask bit n) */
			printf(" tag %u", a->slot[i].masks & 0xfu ?
			       (unsigned)__builtin_ctz(a->slot[i].masks & 0xfu) : 0u);
		if (a->slot[i].tag_value)     /* libpfm4's TAGn, as given */
			printf(" TagEnable TagValue %#x", a->slot[i].tag_value);
		printf("\n");
	}
	for (int h = 0; h < a->nhelpers; h++) {
		nb_sched_name(&req[a->helper[h].owner], nm, sizeof(nm));
		printf("%-40s %-10s (helper of %s%s)\n", nb_events[a->helper[h].event].name,
		       nb_escrs[a->helper[h].escr].name, nm,
		       a->helper[h].tag == NB_NO_TAG ? "" : ", tagging");
	}
	if (a->pebs_enable)
		printf("IA32_PEBS_ENABLE %#010x  MSR_PEBS_MATRIX_VERT %#010x\n", a->pebs_enable, a->matrix_vert);
}

/* --policy=linux: the kernel's placement of the set (the shared model of
 * p4.c, nb_linux_sched.c), or the events it refuses and why. */
static int run_linux(const struct nb_evsel *req, const char *const *names, int n,
		     const struct nb_sched_cpu *cpu)
{
	uint64_t cfg[NB_SCHED_MAX];
	int as[NB_SCHED_MAX], k;
	uint32_t es[NB_SCHED_MAX];
	char nm[NB_NAME_MAX];

	if (n > NB_SCHED_MAX) {
		fprintf(stderr, "nb_schedule: %d events; the PMU has %d counters\n", n, NB_SCHED_MAX);
		return NB_EXIT_FAIL;
	}
	for (int i = 0; i < n; i++) {
		int e;

		name_of(&req[i], names[i], nm, sizeof(nm));
		cfg[i] = nb_perf_raw(&req[i], NB_DOM_USER);
		if (!cfg[i]) {
			printf("linux: refuses %s: no raw config (not in the kernel's P4_EVENTS, cascaded, "
			       "or a tagging metric whose helper ESCRs it cannot program); the msr backend "
			       "can count it\n", nm);
			return NB_EXIT_FAIL;
		}
		if ((e = nb_kp4_validate(&cfg[i], cpu->model, 0))) {
			printf("linux: refuses %s: %s; the msr backend can count it\n", nm, nb_kp4_strerror(e));
			return NB_EXIT_FAIL;
		}
	}
	k = nb_kp4_place(cfg, n, 0, as, es);
	for (int i = 0; i < k; i++) {
		name_of(&req[i], names[i], nm, sizeof(nm));
		for (unsigned e = 0; e < nb_num_escrs; e++)
			if (nb_escrs[e].msr == es[i])
				printf("%-40s %-10s %s\n", nm, nb_escrs[e].name, nb_counters[as[i]].name);
	}
	if (k < n) {
		name_of(&req[k], names[k], nm, sizeof(nm));
		printf("linux: refuses %s: its thread-0 ESCR or counters are taken by the events "
		       "before it (first fit); the msr backend can count the set (nb_schedule "
		       "without --policy places it if the PMU can)\n", nm);
		return NB_EXIT_FAIL;
	}
	return NB_EXIT_OK;
}

/* Events and presets: choose the presets' alternatives, then place. */
static int run_presets(const char *const *names, int n, const struct nb_util_opts *o)
{
	static struct nb_req req[NB_SCHED_MAX];
	static struct nb_plan plan;
	char err[2048];
	int nr = nb_util_requests("nb_schedule", names, n, o, req, NB_SCHED_MAX);

	if (nr < 0)
		return NB_EXIT_FAIL;
	if (nb_plan_run(req, nr, &o->cpu, o->feats, NULL, &plan, err, sizeof(err))) {
		fprintf(stderr, "nb_schedule: %s\n", err);
		return NB_EXIT_FAIL;
	}
	for (int i = 0; i < nr; i++) {
		const struct nb_preset *p;
		char f[256];

		if (req[i].kind != NB_REQ_PRESET || req[i].slot != 0)
			continue;
		p = &nb_presets[req[i].preset];
		nb_preset_alt_format(&p->alts[plan.alt[i]], f, sizeof(f));
		printf("%-40s = %s (alternative %d of %u)\n", p->name, f, plan.alt[i] + 1, p->nalts);
	}
	print_assign(plan.hw, NULL, plan.nhw, &plan.assign);
	if (nb_plan_note(req, nr, &plan, &o->cpu, o->feats, err, sizeof(err)))
		printf("%s", err);
	return NB_EXIT_OK;
}

/* --partition with presets: first fit, in order, over whole event sets
 * (nb_plan_run: a preset's terms stay in one run, its alternative chosen
 * per run).  Not proven minimal. */
static int partition_presets(const char *const *names, int n, const struct nb_util_opts *o)
{
	static struct nb_req one[NB_SCHED_MAX], run_req[NB_PART_MAX][NB_SCHED_MAX];
	static struct nb_plan plan;
	static int run_n[NB_PART_MAX], run_of[NB_PART_MAX];
	char err[2048];
	int nruns = 0;

	for (int i = 0; i < n; i++) {
		int k = nb_util_requests("nb_schedule", &names[i], 1, o, one, NB_SCHED_MAX), r;

		if (k < 0)
			return NB_EXIT_FAIL;
		if (nb_plan_run(one, k, &o->cpu, o->feats, NULL, &plan, err, sizeof(err))) {
			fprintf(stderr, "nb_schedule: %s cannot be counted even alone: %s\n",
				names[i], err);
			return NB_EXIT_FAIL;
		}
		for (r = 0; r < nruns; r++) {
			if (run_n[r] + k > NB_SCHED_MAX)
				continue;
			memcpy(&run_req[r][run_n[r]], one, (size_t)k * sizeof(one[0]));
			if (nb_plan_run(run_req[r], run_n[r] + k, &o->cpu, o->feats, NULL, &plan,
					err, sizeof(err)) == 0)
				break;
		}
		if (r == nruns) {
			memcpy(run_req[r], one, (size_t)k * sizeof(one[0]));
			run_n[r] = 0;
			nruns++;
		}
		run_n[r] += k;
		run_of[i] = r;
	}
	printf("%d run%s (first fit; not proven minimal: presets choose alternatives per run)\n",
	       nruns, nruns == 1 ? "" : "s");
	for (int r = 0; r < nruns; r++) {
		printf("run %d:", r + 1);
		for (int i = 0; i < n; i++)
			if (run_of[i] == r)
				printf(" %s", names[i]);
		printf("\n");
	}
	return NB_EXIT_OK;
}

struct schedule_flags {
	struct nb_util_opts *o;
	int partition;
	int linux_policy;        /* --policy=linux */
	const char **pnames;     /* a preset and every word after it */
	int np;
};

static int schedule_option(const char *arg, void *ctx)
{
	struct schedule_flags *f = ctx;

	if (!strcmp(arg, "--partition")) {
		f->partition = 1;
	} else if (!strcmp(arg, "--policy=linux")) {
		f->linux_policy = 1;
	} else if (!strcmp(arg, "--policy=p4netburst")) {
		f->linux_policy = 0;
	} else if (!strncmp(arg, "--busy-escr=", 12)) {
		unsigned e;

		for (e = 0; e < nb_num_escrs && strcmp(nb_escrs[e].name, arg + 12); e++)
			;
		if (e == nb_num_escrs) {
			fprintf(stderr, "nb_schedule: no ESCR named '%s'\n", arg + 12);
			return NB_EXIT_USAGE;
		}
		f->o->cpu.busy_escrs |= UINT64_C(1) << e;
	} else if (!strncmp(arg, "--busy-counter=", 15)) {
		int c = -1;

		if (sscanf(arg + 15, "%d", &c) != 1 || c < 0 || c >= NB_NUM_COUNTERS) {
			fprintf(stderr, "nb_schedule: bad counter in '%s' (0-17)\n", arg);
			return NB_EXIT_USAGE;
		}
		f->o->cpu.busy_counters |= 1u << c;
	} else if (arg[0] != '-' && (nb_util_preset(arg) >= 0 || f->np)) {
		if (f->np == NB_PART_MAX) {
			fprintf(stderr, "nb_schedule: more than %d events\n", NB_PART_MAX);
			return NB_EXIT_USAGE;
		}
		f->pnames[f->np++] = arg;
	} else {
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct nb_util_opts o;
	static struct nb_evsel req[NB_PART_MAX];
	const char *names[NB_PART_MAX];
	char err[1024];
	int n, r;
	struct nb_util_events ev = { names, req, 0, NB_PART_MAX };
	const char *pnames[NB_PART_MAX];
	struct schedule_flags f = { &o, 0, 0, pnames, 0 };

	static const struct option opts[] = {
		{ "partition", no_argument, NULL, 0 },
		{ "busy-escr", required_argument, NULL, 0 },
		{ "busy-counter", required_argument, NULL, 0 },
		{ "policy", required_argument, NULL, 0 },
		{ NULL, 0, NULL, 0 },
	};

	r = nb_util_args("nb_schedule", argc, argv, &o, &ev, opts, schedule_option, &f, usage);
	if (r >= 0)
		return r;
	if (ev.n + f.np == 0) {
		usage(stderr);
		return NB_EXIT_USAGE;
	}
	if (f.np) {
		/* events named before the first preset, then the rest in order */
		const char *all[2 * NB_PART_MAX];
		int na = 0;

		for (int i = 0; i < ev.n; i++)
			all[na++] = names[i];
		for (int i = 0; i < f.np; i++)
			all[na++] = f.pnames[i];
		if (f.partition)
			return partition_presets(all, na, &o);
		return run_presets(all, na, &o);
	}
	n = ev.n;
	if (f.linux_policy)
		return run_linux(req, names, n, &o.cpu);
	if (f.partition) {
		int run[NB_PART_MAX], exact, k;

		k = nb_partition(req, n, &o.cpu, run, &exact, err, sizeof(err));
		if (k < 0) {
			fprintf(stderr, "nb_schedule: %s\n", err);
			return NB_EXIT_FAIL;
		}
		printf("%d run%s (%s)\n", k, k == 1 ? "" : "s", exact ? "minimum" : "first fit; not proven minimal");
		for (int r = 0; r < k; r++) {
			printf("run %d:", r + 1);
			for (int i = 0; i < n; i++)
				if (run[i] == r)
					printf(" %s", names[i]);
			printf("\n");
		}
		return NB_EXIT_OK;
	}
	if (n > NB_SCHED_MAX) {
		fprintf(stderr, "nb_schedule: %d events; the PMU has %d counters (try --partition)\n", n,
			NB_SCHED_MAX);
		return NB_EXIT_FAIL;
	}
	{
		struct nb_assign a;

		if (nb_sched_run(req, n, &o.cpu, &a, NULL, err, sizeof(err))) {
			fprintf(stderr, "nb_schedule: %s\n", err);
			return NB_EXIT_FAIL;
		}
		print_assign(req, names, n, &a);
	}
	return NB_EXIT_OK;
}
