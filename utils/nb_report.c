/*
 * nb_report - read nb_record's profile: the functions, lines, instructions,
 * objects and data addresses where the sampled events happened, folded
 * stacks for a flame-graph renderer, and annotated disassembly.
 *
 *   nb_report [-i FILE] [--sort=sym|line|ip|dso|data|page|thread] [--stdio]
 *             [--folded | --callgrind | --annotate=SYM] [--event=N|NAME]
 *
 * The symbols are in the profile (nbsim resolved them with valgrind's
 * debug-info reader while the program ran); --annotate disassembles with
 * binutils' objdump (--disassemble=SYM) the object the profile names, at
 * the addresses the profile gives in that object's own terms (SVMA).  The
 * profile format is in nb_record.1, FILES.  This file reads the command
 * line and runs the view it names; the profile in memory is
 * nb_report_prof.c's, the views are in nb_report_views.c and
 * nb_report_html.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "nb_tsv.h"
#include "nb_report_html.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nb_report [options]\n"
		"Read nb_record's profile and say where the events happened.\n"
		"  -i, --input=FILE    the profile (default nb.profile)\n"
		"  -s, --sort=KEY      sym (function, the default), line (source line), ip\n"
		"                      (instruction), dso (object), data (data address's\n"
		"                      64-byte line, PEBS samples; with the global variable it\n"
		"                      is in), page (its 4 KB page), thread (process and thread)\n"
		"  --stdio             text on standard output (the default)\n"
		"  --html=DIR          a page that opens with no network, DIR/index.html: per\n"
		"                      event a flame graph, the hottest functions, the hottest\n"
		"                      function's source with each line's samples as heat, its\n"
		"                      samples by instruction, the data lines\n"
		"  --folded            folded stacks, one 'caller;...;function COUNT' line per\n"
		"                      stack (the input of flamegraph.pl, speedscope, inferno)\n"
		"  --callgrind         the callgrind format on standard output (callgrind_annotate,\n"
		"                      KCachegrind): cost = samples x period, calls with -g\n"
		"  --annotate=SYM      SYM's disassembly (objdump) with the samples per\n"
		"                      instruction\n"
		"  --distance-from=ADDR  with --annotate, also SYM's samples by distance in\n"
		"                      instructions from ADDR (hex, as --sort=ip prints it):\n"
		"                      the skid of IEBS samples from a PEBS profile's load\n"
		"  --event=N|NAME      only that event of the profile (default: each in turn)\n"
		"  -h, --help          this text\n"
		"exit status: 0 done, 1 FILE unreadable, 2 usage, 3 not an nb_record profile\n"
		"  (or another version), 4 no such event, or no sample in --annotate's SYM,\n"
		"  5 --html's DIR or its files cannot be written\n");
}

/* ---- main --------------------------------------------------------------------- */

enum { O_STDIO = 256, O_FOLDED, O_ANNOTATE, O_EVENT, O_CALLGRIND, O_FROM, O_HTML };

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "stdio", no_argument, NULL, O_STDIO },
		{ "folded", no_argument, NULL, O_FOLDED },
		{ "callgrind", no_argument, NULL, O_CALLGRIND },
		{ "html", required_argument, NULL, O_HTML },
		{ "distance-from", required_argument, NULL, O_FROM },
		{ "annotate", required_argument, NULL, O_ANNOTATE },
		{ "event", required_argument, NULL, O_EVENT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const keys[] = { "sym", "line", "ip", "dso", "data", "thread", "page" };
	const char *in = "nb.profile", *ann = NULL, *evname = NULL, *hdir = NULL;
	int opt, key = K_SYM, fold = 0, cg = 0, rc, ev = -1;
	uint64_t from = 0;

	out = stdout;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "i:s:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'i':
			in = optarg;
			break;
		case 's':
			for (key = 0; key < K_N && strcmp(optarg, keys[key]); key++)
				;
			if (key == K_N)
				return fail(EXIT_USAGE, "--sort takes sym, line, ip, dso, data, page or "
					    "thread, not '%s'", optarg);
			break;
		case O_STDIO:
			break;
		case O_FOLDED:
			fold = 1;
			break;
		case O_CALLGRIND:
			cg = 1;
			break;
		case O_FROM: {
			char *e;

			errno = 0;
			from = strtoull(optarg, &e, 16);
			if (errno || *e || !from)
				return fail(EXIT_USAGE, "--distance-from takes an instruction's address "
					    "in hex (as --sort=ip prints it), not '%s'", optarg);
			break;
		}
		case O_ANNOTATE:
			ann = optarg;
			break;
		case O_HTML:
			if (!*optarg)
				return fail(EXIT_USAGE, "--html: empty folder name (an unset variable?)");
			hdir = optarg;
			break;
		case O_EVENT:
			evname = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			if (optopt && strchr("is", optopt))
				fail(EXIT_USAGE, "option -%c needs a value", optopt);
			else
				fail(EXIT_USAGE, "unknown option '%s'", argv[optind - 1]);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (optind + 1 < argc || strcmp(in, "nb.profile"))
			return fail(EXIT_USAGE, "one profile: '%s'", argv[optind]);
		in = argv[optind];
	}
	if (from && !ann)
		return fail(EXIT_USAGE, "--distance-from needs --annotate=SYM");
	if (fold + cg + !!ann + !!hdir > 1)
		return fail(EXIT_USAGE, "--folded, --callgrind, --annotate and --html exclude each other");
	if ((rc = prof_load(in)))
		return rc;
	if (evname) {
		char *e;
		long v = strtol(evname, &e, 10);

		for (int i = 0; i < nevents && ev < 0; i++)
			if (!strcmp(events[i].name, evname))
				ev = i;
		if (ev < 0 && !*e && v >= 0 && v < nevents)
			ev = (int)v;
		if (ev < 0)
			return fail(EXIT_NOSYM, "--event=%s: the profile has no such event", evname);
	}
	if (hdir)
		return html(hdir, ev);
	if (fold) {
		folded(ev);
		return 0;
	}
	if (cg) {
		callgrind(command ? command : "?");
		return 0;
	}
	for (int i = 0; i < nevents; i++) {
		if (ev >= 0 && i != ev)
			continue;
		if (ann) {
			if ((rc = annotate(i, ann, from)))
				return rc;
			continue;
		}
		table(i, key, 0);
		if (i + 1 < nevents && ev < 0)
			printf("\n");
	}
	return 0;
}
