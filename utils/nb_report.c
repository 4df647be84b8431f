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
 * line and the profile; the views are in nb_report_views.c and
 * nb_report_html.c (nb_report.h).
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
#include "nb_report.h"

static const char *prog_name = "nb_report";

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

int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

void *xalloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "%s: out of memory\n", prog_name);
		exit(EXIT_READ);
	}
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		xalloc(NULL, (size_t)-1);
	return d;
}

/* ---- the profile in memory -------------------------------------------------- */

struct sym *syms;
size_t nsyms;
static size_t capsyms;
static size_t *symtab;           /* open addressing: index + 1, 0 empty */
static size_t symtab_size;
struct sample *samples;
size_t nsamples;
static size_t capsamples;
struct event events[64];
int nevents;
long *spaces;             /* space -> pid */
char *command;            /* PROGRAM ARGS, as recorded */
FILE *out;                /* where the views go: stdout, or a page's block */
int nspaces;

static size_t hash(int space, uint64_t ip)
{
	uint64_t h = ip * UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)space * 0x85ebca6bu;

	return (size_t)(h ^ (h >> 29));
}

static void sym_index(size_t i)
{
	size_t k = hash(syms[i].space, syms[i].ip) & (symtab_size - 1);

	while (symtab[k])
		k = (k + 1) & (symtab_size - 1);
	symtab[k] = i + 1;
}

static void sym_add(const struct sym *s)
{
	if (nsyms == capsyms) {
		capsyms = capsyms ? 2 * capsyms : 1024;
		syms = xalloc(syms, capsyms * sizeof(*syms));
	}
	syms[nsyms] = *s;
	if (2 * (nsyms + 1) > symtab_size) {
		symtab_size = symtab_size ? 2 * symtab_size : 4096;
		symtab = xalloc(symtab, symtab_size * sizeof(*symtab));
		memset(symtab, 0, symtab_size * sizeof(*symtab));
		for (size_t i = 0; i < nsyms; i++)
			sym_index(i);
	}
	sym_index(nsyms++);
}

const struct sym *sym_of(int space, uint64_t ip)
{
	static struct sym unknown = { 0, 0, 0, "?", "?", "?", 0, -1 };

	if (symtab_size)
		for (size_t k = hash(space, ip) & (symtab_size - 1); symtab[k];
		     k = (k + 1) & (symtab_size - 1)) {
			const struct sym *s = &syms[symtab[k] - 1];

			if (s->space == space && s->ip == ip)
				return s;
		}
	return &unknown;
}

static int load(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *fl[12];
	size_t cap = 0;
	int lno = 0;

	if (!f)
		return fail(EXIT_READ, "cannot read %s: %s", path, strerror(errno));
	while (getline(&line, &cap, f) > 0) {
		int n = nb_tsv_split(line, fl, 12);

		if (++lno == 1) {
			if (n != 2 || strcmp(fl[0], "nb-profile")) {
				free(line);
				fclose(f);
				return fail(EXIT_FORMAT, "%s: not an nb_record profile", path);
			}
			if (strcmp(fl[1], "1")) {
				fail(EXIT_FORMAT, "%s: profile version %s; this nb_report reads version 1",
				     path, fl[1]);
				free(line);
				fclose(f);
				return EXIT_FORMAT;
			}
			continue;
		}
		if (!strcmp(fl[0], "event") && n == 6) {
			int id = atoi(fl[1]);

			if (id < 0 || id >= 64 || id != nevents)
				goto bad;
			events[id].name = xstrdup(fl[2]);
			events[id].period = strtoull(fl[3], NULL, 10);
			events[id].mode = xstrdup(fl[4]);
			nevents++;
		} else if (!strcmp(fl[0], "sym") && n == 8) {
			struct sym s;

			s.space = atoi(fl[1]);
			s.ip = strtoull(fl[2], NULL, 16);
			s.obj = xstrdup(fl[3]);
			s.svma = strtoull(fl[4], NULL, 16);
			s.fn = xstrdup(fl[5]);
			s.file = xstrdup(fl[6]);
			s.line = (unsigned)strtoul(fl[7], NULL, 10);
			s.wid = -1;
			sym_add(&s);
		} else if (!strcmp(fl[0], "sample") && n == 11) {
			struct sample s;
			char *p = fl[8];

			memset(&s, 0, sizeof(s));
			s.ev = atoi(fl[1]);
			if (s.ev < 0 || s.ev >= nevents)
				goto bad;
			s.space = atoi(fl[2]);
			s.tid = (unsigned)strtoul(fl[3], NULL, 10);
			s.lwp = strtol(fl[4], NULL, 10);
			s.weight = strtoull(fl[5], NULL, 10);
			s.ip = strtoull(fl[6], NULL, 16);
			s.has_addr = strcmp(fl[7], "-") != 0;
			s.addr = s.has_addr ? strtoull(fl[7], NULL, 16) : 0;
			s.dsym = strcmp(fl[10], "-") ? xstrdup(fl[10]) : NULL;
			if (strcmp(p, "-")) {
				for (char *q = p; *q; q++)
					s.depth += *q == ',';
				s.depth++;
				s.stack = xalloc(NULL, (size_t)s.depth * sizeof(*s.stack));
				for (int k = 0; k < s.depth; k++) {
					s.stack[k] = strtoull(p, &p, 16);
					if (*p == ',')
						p++;
				}
			}
			if (nsamples == capsamples) {
				capsamples = capsamples ? 2 * capsamples : 4096;
				samples = xalloc(samples, capsamples * sizeof(*samples));
			}
			samples[nsamples++] = s;
		} else if (!strcmp(fl[0], "space") && n == 3) {
			int sp = atoi(fl[1]);

			if (sp < 0 || sp != nspaces)
				goto bad;
			spaces = xalloc(spaces, (size_t)(nspaces + 1) * sizeof(*spaces));
			spaces[nspaces++] = strtol(fl[2], NULL, 10);
		} else if (!strcmp(fl[0], "command")) {
			size_t len = 1;

			for (int i = 1; i < n; i++)
				len += strlen(fl[i]) + 1;
			free(command);
			command = xalloc(NULL, len);
			command[0] = 0;
			for (int i = 1; i < n; i++)
				strcat(strcat(command, i > 1 ? " " : ""), fl[i]);
		} else if (!strcmp(fl[0], "model")) {
			continue;
		} else {
			goto bad;
		}
	}
	free(line);
	fclose(f);
	if (lno == 0)
		return fail(EXIT_FORMAT, "%s: empty, not an nb_record profile", path);
	return 0;
bad:
	free(line);
	fclose(f);
	return fail(EXIT_FORMAT, "%s line %d: not a line of an nb_record profile", path, lno);
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
	if ((rc = load(in)))
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
