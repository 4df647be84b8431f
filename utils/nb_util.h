/*
 * nb_util.h - what the nb_* command-line tools share: reading a request
 * (an event name as the component spells it, or a metric name), the CPU
 * options, and exit codes.
 */
#ifndef NB_UTIL_H
#define NB_UTIL_H

#include <getopt.h>
#include <stdio.h>
#include "nb_sched.h"
#include "nb_evsel.h"

#define NB_EXIT_OK       0
#define NB_EXIT_FAIL     1   /* a conflict, an unknown event, a bad value */
#define NB_EXIT_USAGE    2
#define NB_EXIT_MODEL    3   /* --model names no NetBurst part          */

struct nb_util_opts {
	struct nb_sched_cpu cpu;
	unsigned dom;            /* NB_DOM_* */
	unsigned feats;
};

/* Parse a request: "p4netburst:::" optional, a metric name
 * (case-insensitive) or an event name.  0, or -1 with a message in ERR. */
int nb_util_request(const char *name, const struct nb_util_opts *o, struct nb_evsel *out,
		    char *err, size_t len);

/* Handle a common option (--model=NAME|N, --thread=N, --allow-ctr1,
 * --dom=user|kernel|all, --l3): 1 if it was one, 0 if not, -1 if bad,
 * -2 for an unknown model. */
int nb_util_option(const char *arg, struct nb_util_opts *o);

void nb_util_defaults(struct nb_util_opts *o);

/* The events named on a command line. */
struct nb_util_events {
	const char **names;      /* as given                                 */
	struct nb_evsel *req;    /* parsed                                   */
	int n, max;
};

/* A command-line word that is not a tool option: an unknown "-option"
 * (returns NB_UTIL_BAD_OPTION: the caller prints its usage, exits
 * NB_EXIT_USAGE) or an event, parsed and appended to EV.  Messages are
 * prefixed with PROG.  0, or the exit code after printing the error. */
#define NB_UTIL_BAD_OPTION (-1)
int nb_util_operand(const char *prog, const char *arg, const struct nb_util_opts *o,
		    struct nb_util_events *ev);

/* A tool's own option: 1 if ARG was one (handled), 0 if not, or an exit
 * code >= NB_EXIT_USAGE after printing the error. */
typedef int (*nb_util_tool_option)(const char *arg, void *ctx);

/* The whole command line of a tool, parsed with getopt_long (options
 * anywhere, "--opt=V" or "--opt V", unambiguous prefixes): the common
 * options, --help/-h (usage on stdout), the tool's options TOOL_OPTS
 * (NULL-terminated; flag NULL, val 0), each handed to TOOL_OPT as
 * "--name[=value]", then the operands in order: TOOL_OPT first (it may
 * take them: nb_schedule's presets), else events into EV.  Returns -1 to
 * go on (the caller checks that it has something to do), or the exit code
 * the tool must return now (NB_EXIT_MODEL for an unknown --model). */
int nb_util_args(const char *prog, int argc, char **argv, struct nb_util_opts *o,
		 struct nb_util_events *ev, const struct option *tool_opts,
		 nb_util_tool_option tool_opt, void *ctx, void (*usage)(FILE *));

/* Events and presets (PAPI_X, presets.txt) into requests for nb_plan_run:
 * a preset takes one request per slot.  Returns the number of requests, or
 * -1 after printing the error (prefixed with PROG). */
struct nb_req;
int nb_util_requests(const char *prog, const char *const *names, int n,
		     const struct nb_util_opts *o, struct nb_req *req, int max);

/* Is NAME a preset of presets.txt ("PAPI_X", prefix optional)?  Its index or -1. */
int nb_util_preset(const char *name);

#define NB_UTIL_COMMON_HELP \
	"  --model=NAME|N   the CPU: prescott (default, as nbsim), northwood, willamette,\n" \
	"                   cedarmill, xeonmp (L3), or a family-15 model number 0-4, 6\n" \
	"  --thread=0|1     logical processor (Hyper-Threading: T0/T1 ESCR bits)\n" \
	"  --allow-ctr1     allow counter 1 (avoided by default: CCCR1 erratum)\n" \
	"  --dom=user|kernel|all  privilege levels when an event names none (default user)\n" \
	"  --l3             the CPU has an on-die L3 (Xeon MP)\n"

#endif
