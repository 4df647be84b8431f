/*
 * nb_encode - place NetBurst events and metrics and print their register
 * images: ESCR and CCCR (MSR and value), the counter, perfex's
 * "cccr/escr@pmc" string, helper ESCRs and PEBS MSRs, and optionally the
 * Linux perf raw config.  Exit: 0 placed, 1 conflict or bad event, 2 usage.
 */
#include <stdio.h>
#include <string.h>
#include "nb_util.h"
#include "nb_encode.h"
#include "nb_presets.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: nb_encode [options] EVENT|METRIC|PAPI_PRESET...\n"
		"Place the events on the NetBurst PMU and print their register values.\n"
		"EVENT is event[:MASK...][:u=0|1][:k=0|1] as the p4netburst component names it;\n"
		"METRIC is a tagged at-retirement metric (e.g. 1stL_cache_load_miss_retired);\n"
		"a PAPI preset takes the first of its alternatives (presets.txt) that fits,\n"
		"as nb_schedule and the component choose it.\n"
		"options:\n" NB_UTIL_COMMON_HELP
		"  --perf           also print the Linux perf raw config (kernel P4 format)\n"
		"  --pmi            set the CCCR overflow-interrupt bit (sampling)\n"
		"  --help           this text\n"
		"exit status: 0 placed, 1 conflict or unknown event, 2 usage error, 3 unknown model\n");
}

struct encode_flags {
	int perf, pmi;
	const char **words;      /* every operand once a preset is seen */
	int nw;
};

static int encode_option(const char *arg, void *ctx)
{
	struct encode_flags *f = ctx;

	if (!strcmp(arg, "--perf"))
		f->perf = 1;
	else if (!strcmp(arg, "--pmi"))
		f->pmi = 1;
	else if (arg[0] != '-' && (nb_util_preset(arg) >= 0 || f->nw)) {
		if (f->nw == NB_SCHED_MAX) {
			fprintf(stderr, "nb_encode: more than %d events\n", NB_SCHED_MAX);
			return NB_EXIT_USAGE;
		}
		f->words[f->nw++] = arg;
	} else
		return 0;
	return 1;
}

int main(int argc, char **argv)
{
	struct nb_util_opts o;
	struct nb_evsel req[NB_SCHED_MAX];
	const char *names[NB_SCHED_MAX];
	struct nb_assign a;
	struct nb_msr_image x[NB_SCHED_MAX_HELPERS + 2];
	char err[512];
	int n, nx, r;
	const char *words[NB_SCHED_MAX];
	struct encode_flags f = { 0, 0, words, 0 };
	struct nb_util_events ev = { names, req, 0, NB_SCHED_MAX };
	static const struct option opts[] = {
		{ "perf", no_argument, NULL, 0 },
		{ "pmi", no_argument, NULL, 0 },
		{ NULL, 0, NULL, 0 },
	};

	r = nb_util_args("nb_encode", argc, argv, &o, &ev, opts, encode_option, &f, usage);
	if (r >= 0)
		return r;
	n = ev.n;
	if (n + f.nw == 0) {
		usage(stderr);
		return NB_EXIT_USAGE;
	}
	if (f.nw) {
		/* presets: their alternatives chosen as nb_schedule / the
		 * component choose them; then the hardware requests encoded */
		static struct nb_req rq[NB_SCHED_MAX];
		static struct nb_plan plan;
		const char *all[2 * NB_SCHED_MAX];
		int na = 0, nr;

		for (int i = 0; i < n; i++)
			all[na++] = names[i];
		for (int i = 0; i < f.nw; i++)
			all[na++] = words[i];
		nr = nb_util_requests("nb_encode", all, na, &o, rq, NB_SCHED_MAX);
		if (nr < 0)
			return NB_EXIT_FAIL;
		if (nb_plan_run(rq, nr, &o.cpu, o.feats, NULL, &plan, err, sizeof(err))) {
			fprintf(stderr, "nb_encode: %s\n", err);
			return NB_EXIT_FAIL;
		}
		for (int i = 0; i < nr; i++) {
			char fm[256];

			if (rq[i].kind != NB_REQ_PRESET || rq[i].slot != 0)
				continue;
			nb_preset_alt_format(&nb_presets[rq[i].preset].alts[plan.alt[i]], fm, sizeof(fm));
			printf("# %s = %s\n", nb_presets[rq[i].preset].name, fm);
		}
		n = plan.nhw;
		for (int h = 0; h < n; h++) {
			static char nm[NB_SCHED_MAX][NB_NAME_MAX];

			req[h] = plan.hw[h];
			nb_sched_name(&req[h], nm[h], sizeof(nm[h]));
			names[h] = nm[h];
		}
		a = plan.assign;
	} else if (nb_sched_run(req, n, &o.cpu, &a, NULL, err, sizeof(err))) {
		fprintf(stderr, "nb_encode: %s\n", err);
		return NB_EXIT_FAIL;
	}
	for (int i = 0; i < n; i++) {
		struct nb_regs g;
		const struct nb_slot *s = &a.slot[i];

		nb_encode_ex(&req[i], s, o.dom, o.cpu.thread, f.pmi ? NB_ENC_PMI : 0, &g);
		printf("%s\n  counter %u %s\n  ESCR %s msr %#x = %#010llx\n  CCCR %s msr %#x = %#010llx\n"
		       "  perfex 0x%08llx/0x%08llx@0x%08x\n", names[i], s->counter, nb_counters[s->counter].name,
		       nb_escrs[s->escr].name, g.escr_msr, (unsigned long long)g.escr,
		       nb_counters[s->counter].cccr_name, g.cccr_msr, (unsigned long long)g.cccr,
		       (unsigned long long)g.cccr, (unsigned long long)g.escr, 0x80000000u | s->counter);
		if (g.cascade) {
			/* the alternate of a cascaded pair: counts from the low
			 * counter's overflow on (Cascade set, Enable clear) */
			printf("  cascaded: counter %u %s counts after counter %u overflows\n"
			       "  ESCR %s msr %#x = %#010llx\n  CCCR %s msr %#x = %#010llx\n"
			       "  perfex 0x%08llx/0x%08llx@0x%08x\n", g.hi_counter,
			       nb_counters[g.hi_counter].name, s->counter, nb_escrs[s->hi_escr].name,
			       g.hi_escr_msr, (unsigned long long)g.hi_escr,
			       nb_counters[g.hi_counter].cccr_name, g.hi_cccr_msr,
			       (unsigned long long)g.hi_cccr, (unsigned long long)g.hi_cccr,
			       (unsigned long long)g.hi_escr, 0x80000000u | g.hi_counter);
		}
		if (f.perf) {
			uint64_t raw = nb_perf_raw(&req[i], o.dom);

			if (raw)
				printf("  perf raw config %#018llx\n", (unsigned long long)raw);
			else if (g.cascade)
				printf("  perf raw config: none (the kernel's P4 format has no CCCR Cascade bit)\n");
			else
				printf("  perf raw config: none (not expressible in the kernel's P4 format)\n");
		}
	}
	nx = nb_encode_extra(&a, o.dom, o.cpu.thread, x, (int)(sizeof(x) / sizeof(x[0])));
	for (int i = 0; i < nx; i++) {
		const char *nm = "?";

		for (unsigned e = 0; e < nb_num_escrs; e++)
			if (nb_escrs[e].msr == x[i].msr)
				nm = nb_escrs[e].name;
		for (unsigned m = 0; m < nb_num_msrs; m++)
			if (nb_msrs[m].addr == x[i].msr)
				nm = nb_msrs[m].name;
		printf("%s %s msr %#x = %#010llx\n", i < a.nhelpers ? "helper ESCR" : "MSR", nm, x[i].msr,
		       (unsigned long long)x[i].value);
	}
	return NB_EXIT_OK;
}
