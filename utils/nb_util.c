/*
 * nb_util.c - shared by the nb_* tools (see nb_util.h).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "nb_util.h"
#include "nb_encode.h"
#include "nb_presets.h"

void nb_util_defaults(struct nb_util_opts *o)
{
	const struct nb_part *p = nb_part_find(NB_PART_DEFAULT);

	memset(o, 0, sizeof(*o));
	o->cpu.model = p->model;
	o->feats = p->feats;
	o->dom = NB_DOM_USER;
}

/* --model=NAME (nbsim's names) or a family-15 model number that NetBurst
 * parts have (0-4, 6); 1 if taken, 0 if unknown. */
static int set_model(const char *v, struct nb_util_opts *o)
{
	const struct nb_part *p = nb_part_find(v);
	char *end;
	unsigned long m;

	if (p) {
		o->cpu.model = p->model;
		o->feats = p->feats;
		return 1;
	}
	m = strtoul(v, &end, 10);
	if (!*v || *end || m > 6 || m == 5)
		return 0;
	o->cpu.model = (unsigned)m;
	o->feats &= ~(unsigned)NB_FEAT_L3;
	return 1;
}

static void unknown_model(const char *prog, const char *v)
{
	fprintf(stderr, "%s: unknown model '%s': give one of", prog, v);
	for (unsigned i = 0; i < nb_num_parts; i++)
		fprintf(stderr, "%s %s", i ? "," : "", nb_parts[i].name);
	fprintf(stderr, " (as nbsim --model=), or a family-15 model number 0-4 or 6\n");
}

int nb_util_request(const char *name, const struct nb_util_opts *o, struct nb_evsel *out,
		    char *err, size_t len)
{
	const char *n = name;

	if (strncasecmp(n, "p4netburst:::", 13) == 0)
		n += 13;
	for (unsigned m = 0; m < nb_num_metrics; m++) {
		if (strcasecmp(n, nb_metrics[m].name) == 0) {
			memset(out, 0, sizeof(*out));
			out->kind = NB_SEL_METRIC;
			out->event = (uint16_t)m;
			if (!((nb_metrics[m].models >> o->cpu.model) & 1)) {
				snprintf(err, len, "%s: not available on CPU model %u", nb_metrics[m].name,
					 o->cpu.model);
				return -1;
			}
			return 0;
		}
	}
	if (nb_evsel_parse(name, o->cpu.model, o->feats, out, err, len))
		return -1;
	return nb_evsel_check(out, err, len) ? -1 : 0;
}

int nb_util_option(const char *arg, struct nb_util_opts *o)
{
	if (strncmp(arg, "--model=", 8) == 0)
		return set_model(arg + 8, o) ? 1 : -2;
	if (strncmp(arg, "--thread=", 9) == 0) {
		if (strcmp(arg + 9, "0") && strcmp(arg + 9, "1"))
			return -1;
		o->cpu.thread = (unsigned)(arg[9] - '0');
		return 1;
	}
	if (strcmp(arg, "--allow-ctr1") == 0) {
		o->cpu.flags |= NB_SCHED_ALLOW_CTR1;
		return 1;
	}
	if (strcmp(arg, "--l3") == 0) {
		o->feats |= NB_FEAT_L3;
		return 1;
	}
	if (strncmp(arg, "--dom=", 6) == 0) {
		const char *d = arg + 6;

		if (!strcmp(d, "user"))
			o->dom = NB_DOM_USER;
		else if (!strcmp(d, "kernel"))
			o->dom = NB_DOM_KERNEL;
		else if (!strcmp(d, "all"))
			o->dom = NB_DOM_USER | NB_DOM_KERNEL;
		else
			return -1;
		return 1;
	}
	return 0;
}

int nb_util_operand(const char *prog, const char *arg, const struct nb_util_opts *o,
		    struct nb_util_events *ev)
{
	char err[512];

	if (arg[0] == '-') {
		fprintf(stderr, "%s: unknown option '%s'\n", prog, arg);
		return NB_UTIL_BAD_OPTION;
	}
	if (ev->n == ev->max) {
		fprintf(stderr, "%s: more than %d events%s\n", prog, ev->max,
			ev->max == NB_SCHED_MAX ? "; see nb_schedule --partition" : "");
		return NB_EXIT_USAGE;
	}
	if (nb_util_request(arg, o, &ev->req[ev->n], err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return NB_EXIT_FAIL;
	}
	ev->names[ev->n++] = arg;
	return 0;
}

int nb_util_args(const char *prog, int argc, char **argv, struct nb_util_opts *o,
		 struct nb_util_events *ev, const struct option *tool_opts,
		 nb_util_tool_option tool_opt, void *ctx, void (*usage)(FILE *))
{
	static const struct option common[] = {
		{ "model", required_argument, NULL, 0 },
		{ "thread", required_argument, NULL, 0 },
		{ "allow-ctr1", no_argument, NULL, 0 },
		{ "dom", required_argument, NULL, 0 },
		{ "l3", no_argument, NULL, 0 },
		{ "help", no_argument, NULL, 'h' },
	};
	const size_t nc = sizeof(common) / sizeof(common[0]);
	struct option all[64];
	size_t na = 0;
	int c, idx;

	nb_util_defaults(o);
	for (size_t i = 0; i < nc; i++)
		all[na++] = common[i];
	for (size_t i = 0; tool_opts && tool_opts[i].name && na < 63; i++)
		all[na++] = tool_opts[i];
	memset(&all[na], 0, sizeof(all[na]));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", all, &idx)) != -1) {
		char arg[512];
		int r;

		if (c == 'h') {
			usage(stdout);
			return NB_EXIT_OK;
		}
		if (c == '?' || c == ':') {
			const char *bad = argv[optind - 1];

			if (c == ':')
				fprintf(stderr, "%s: option '%s' needs a value\n", prog, bad);
			else
				fprintf(stderr, "%s: unknown option '%s'\n", prog, bad);
			usage(stderr);
			return NB_EXIT_USAGE;
		}
		/* the option as "--name[=value]", for the handlers */
		snprintf(arg, sizeof(arg), "--%s%s%s", all[idx].name, optarg ? "=" : "",
			 optarg ? optarg : "");
		if ((size_t)idx < nc) {
			r = nb_util_option(arg, o);
			if (r == -2) {
				unknown_model(prog, optarg);
				return NB_EXIT_MODEL;
			}
			if (r < 0) {
				fprintf(stderr, "%s: bad value in '%s'\n", prog, arg);
				return NB_EXIT_USAGE;
			}
			continue;
		}
		r = tool_opt ? tool_opt(arg, ctx) : 0;
		if (r != 1)
			return r ? r : NB_EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++) {
		int r;

		if (tool_opt && argv[i][0] != '-' && (r = tool_opt(argv[i], ctx)) != 0) {
			if (r == 1)
				continue;
			return r;
		}
		r = nb_util_operand(prog, argv[i], o, ev);
		if (r == NB_UTIL_BAD_OPTION) {
			usage(stderr);
			return NB_EXIT_USAGE;
		}
		if (r)
			return r;
	}
	return -1;
}

int nb_util_preset(const char *name)
{
	if (strncasecmp(name, "p4netburst:::", 13) == 0)
		name += 13;
	return strncasecmp(name, "PAPI_", 5) ? -1 : nb_preset_lookup(name, strlen(name));
}

int nb_util_requests(const char *prog, const char *const *names, int n,
		     const struct nb_util_opts *o, struct nb_req *req, int max)
{
	char err[1024];
	int nr = 0;

	for (int i = 0; i < n; i++) {
		int p = nb_util_preset(names[i]), slots;

		if (p < 0) {
			if (nr == max)
				goto many;
			memset(&req[nr], 0, sizeof(req[nr]));
			req[nr].kind = NB_REQ_SEL;
			if (nb_util_request(names[i], o, &req[nr].sel, err, sizeof(err))) {
				fprintf(stderr, "%s: %s\n", prog, err);
				return -1;
			}
			nr++;
			continue;
		}
		slots = nb_preset_slots((unsigned)p, o->cpu.model, o->feats);
		if (!slots) {
			fprintf(stderr, "%s: %s: no alternative this CPU model can count\n", prog,
				nb_presets[p].name);
			return -1;
		}
		for (int k = 0; k < slots; k++) {
			if (nr == max)
				goto many;
			memset(&req[nr], 0, sizeof(req[nr]));
			req[nr].kind = NB_REQ_PRESET;
			req[nr].preset = (uint16_t)p;
			req[nr].slot = (uint8_t)k;
			nr++;
		}
	}
	return nr;
many:
	fprintf(stderr, "%s: more than %d requests (a preset takes one per term)\n", prog, max);
	return -1;
}
