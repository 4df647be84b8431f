/*
 * nb_util.c - shared by the nb_* tools (see nb_util.h).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "nb_util.h"
#include "nb_encode.h"

void nb_util_defaults(struct nb_util_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cpu.model = 2;
	o->dom = NB_DOM_USER;
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
	char *end;

	if (strncmp(arg, "--model=", 8) == 0) {
		unsigned long v = strtoul(arg + 8, &end, 0);

		if (*end || end == arg + 8 || v > 31)
			return -1;
		o->cpu.model = (unsigned)v;
		return 1;
	}
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
		 struct nb_util_events *ev, nb_util_tool_option tool_opt, void *ctx,
		 void (*usage)(FILE *))
{
	nb_util_defaults(o);
	for (int i = 1; i < argc; i++) {
		int r = nb_util_option(argv[i], o);

		if (r < 0) {
			fprintf(stderr, "%s: bad value in '%s'\n", prog, argv[i]);
			return NB_EXIT_USAGE;
		}
		if (r)
			continue;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return NB_EXIT_OK;
		}
		if (tool_opt && (r = tool_opt(argv[i], ctx)) != 0) {
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
