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
 * profile format is in nb_record.1, FILES.
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

#define EXIT_READ    1           /* FILE cannot be read                   */
#define EXIT_USAGE   2
#define EXIT_FORMAT  3           /* not a profile, or another version     */
#define EXIT_NOSYM   4           /* --annotate: no sample in SYM; --event: none such */
#define EXIT_WRITE   5           /* --html: DIR or its files cannot be written */

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

static int fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

static void *xalloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "%s: out of memory\n", prog_name);
		exit(EXIT_READ);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		xalloc(NULL, (size_t)-1);
	return d;
}

/* ---- the profile in memory -------------------------------------------------- */

struct sym {
	int space;
	uint64_t ip, svma;
	char *obj, *fn, *file;
	unsigned line;
	long wid;                    /* --callgrind: its where's index, -1 not yet */
};

struct sample {
	int ev, space;
	unsigned tid;
	long lwp;
	uint64_t weight, ip, addr;   /* addr: UINT64_MAX none */
	int has_addr;
	uint64_t *stack;             /* callers, innermost first */
	int depth;
	char *dsym;                  /* the global variable ADDR is in, NAME+OFF, or NULL */
};

struct event {
	char *name, *mode;
	uint64_t period;
};

static struct sym *syms;
static size_t nsyms, capsyms;
static size_t *symtab;           /* open addressing: index + 1, 0 empty */
static size_t symtab_size;
static struct sample *samples;
static size_t nsamples, capsamples;
static struct event events[64];
static int nevents;
static long *spaces;             /* space -> pid */
static char *command;            /* PROGRAM ARGS, as recorded */
static FILE *out;                /* where the views go: stdout, or a page's block */
static int nspaces;

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

static const struct sym *sym_of(int space, uint64_t ip)
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

/* ---- tables ---------------------------------------------------------------- */

enum { K_SYM, K_LINE, K_IP, K_DSO, K_DATA, K_THREAD, K_PAGE, K_N };

struct row {
	char *key, *where;
	uint64_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* rows keyed by string: a linear-probing table over the keys */
struct tally {
	struct row *r;
	size_t n, cap;
	size_t *tab, size;
};

static size_t str_hash(const char *s)
{
	size_t h = 1469598103934665603u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

static void tally_index(struct tally *t, size_t i)
{
	size_t k = str_hash(t->r[i].key) & (t->size - 1);

	while (t->tab[k])
		k = (k + 1) & (t->size - 1);
	t->tab[k] = i + 1;
}

static void tally_add(struct tally *t, const char *key, const char *where, uint64_t w)
{
	if (t->size)
		for (size_t k = str_hash(key) & (t->size - 1); t->tab[k]; k = (k + 1) & (t->size - 1))
			if (!strcmp(t->r[t->tab[k] - 1].key, key)) {
				t->r[t->tab[k] - 1].n += w;
				return;
			}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->r = xalloc(t->r, t->cap * sizeof(*t->r));
	}
	t->r[t->n].key = xstrdup(key);
	t->r[t->n].where = xstrdup(where);
	t->r[t->n].n = w;
	if (2 * (t->n + 1) > t->size) {
		t->size = t->size ? 2 * t->size : 1024;
		t->tab = xalloc(t->tab, t->size * sizeof(*t->tab));
		memset(t->tab, 0, t->size * sizeof(*t->tab));
		for (size_t i = 0; i < t->n; i++)
			tally_index(t, i);
	}
	tally_index(t, t->n++);
}

/* the row of KEY, or -1 */
static long tally_find(const struct tally *t, const char *key)
{
	if (t->size)
		for (size_t k = str_hash(key) & (t->size - 1); t->tab[k]; k = (k + 1) & (t->size - 1))
			if (!strcmp(t->r[t->tab[k] - 1].key, key))
				return (long)(t->tab[k] - 1);
	return -1;
}

static uint64_t tally_get(const struct tally *t, const char *key)
{
	long i = tally_find(t, key);

	return i < 0 ? 0 : t->r[i].n;
}

static void tally_free(struct tally *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->r[i].key);
		free(t->r[i].where);
	}
	free(t->r);
	free(t->tab);
	memset(t, 0, sizeof(*t));
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* a function's name, or "[OBJECT]" for an address no symbol covers (a
 * stripped program: Debian's, without its -dbgsym package) */
static const char *fn_name(const struct sym *y, char *b, size_t len)
{
	if (strcmp(y->fn, "?"))
		return y->fn;
	snprintf(b, len, "[%s]", base(y->obj));
	return b;
}

static void table(int ev, int key, int tsv)
{
	static const char *const head[] = { "function", "source line", "instruction", "object",
					    "data line (64 bytes)", "process/thread", "data page (4 KB)" };
	struct tally t = { 0 };
	uint64_t total = 0, none = 0;
	char k[8192], w[4096], fb[1024];

	for (size_t i = 0; i < nsamples; i++) {
		const struct sample *s = &samples[i];
		const struct sym *y;

		if (s->ev != ev)
			continue;
		total += s->weight;
		y = sym_of(s->space, s->ip);
		switch (key) {
		case K_SYM:
			snprintf(k, sizeof(k), "%s", fn_name(y, fb, sizeof(fb)));
			snprintf(w, sizeof(w), "%s", base(y->obj));
			break;
		case K_LINE:
			snprintf(k, sizeof(k), "%s:%u", y->file, y->line);
			snprintf(w, sizeof(w), "%s", fn_name(y, fb, sizeof(fb)));
			break;
		case K_IP:
			snprintf(k, sizeof(k), "%s:%#" PRIx64, base(y->obj), y->svma);
			snprintf(w, sizeof(w), "%s %s:%u", fn_name(y, fb, sizeof(fb)), base(y->file),
				 y->line);
			break;
		case K_DSO:
			snprintf(k, sizeof(k), "%s", y->obj);
			w[0] = 0;
			break;
		case K_DATA:
		case K_PAGE:
			if (!s->has_addr) {
				none += s->weight;
				continue;
			}
			snprintf(k, sizeof(k), "%#" PRIx64,
				 s->addr & ~(uint64_t)(key == K_DATA ? 63 : 4095));
			/* the line's variable: the symbol and offset of its sample
			 * at the lowest address (the same line, the same variable) */
			snprintf(w, sizeof(w), "%s", fn_name(y, fb, sizeof(fb)));
			if (key == K_DATA && s->dsym) {
				size_t o = strlen(w);
				const char *plus = strrchr(s->dsym, '+');
				long off = plus ? strtol(plus + 1, NULL, 10) : 0;

				snprintf(w + o, sizeof(w) - o, "; in %.*s+%ld", plus ? (int)(plus - s->dsym) :
					 (int)strlen(s->dsym), s->dsym, off - (long)(s->addr & 63));
			}
			break;
		case K_THREAD:
			/* the kernel's ids, and valgrind's thread number */
			snprintf(k, sizeof(k), "%ld/%ld", s->space < nspaces ? spaces[s->space] : -1L,
				 s->lwp);
			snprintf(w, sizeof(w), "thread %u", s->tid);
			break;
		}
		tally_add(&t, k, w, s->weight);
	}
	qsort(t.r, t.n, sizeof(*t.r), by_count);
	if (tsv) {              /* (--html's blocks: samples, key, where) */
		for (size_t i = 0; i < t.n; i++)
			fprintf(out, "%" PRIu64 "\t%s\t%s\n", t.r[i].n, t.r[i].key, t.r[i].where);
		tally_free(&t);
		return;
	}
	fprintf(out, "# event %s (%s, a sample every %" PRIu64 "): %" PRIu64 " samples\n",
	       events[ev].name, !strcmp(events[ev].mode, "pebs") ? "PEBS" : "IEBS",
	       events[ev].period, total);
	if (key == K_DATA && none)
		fprintf(out, "# %" PRIu64 " samples without a data address (IEBS, or not decodable)\n", none);
	fprintf(out, "# %10s %8s  %s%s\n", "samples", "percent", head[key],
	       key == K_SYM ? "  (object)" : key == K_LINE || key == K_PAGE ? "  (function)" :
	       key == K_DATA ? "  (function; variable+offset of the line)" :
	       key == K_IP ? "  (function, line)" : key == K_THREAD ? "  (valgrind's number)" : "");
	for (size_t i = 0; i < t.n; i++)
		fprintf(out, "  %10" PRIu64 " %7.2f%%  %s%s%s%s\n", t.r[i].n,
		       total ? 100.0 * (double)t.r[i].n / (double)total : 0.0, t.r[i].key,
		       *t.r[i].where ? "  (" : "", t.r[i].where, *t.r[i].where ? ")" : "");
	tally_free(&t);
}

/* ---- folded stacks ------------------------------------------------------------ */

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->key, ((const struct row *)b)->key);
}

static void folded(int ev)
{
	struct tally t = { 0 };
	size_t cap = 1 << 16;
	char *k = xalloc(NULL, cap), fb[1024];

	for (size_t i = 0; i < nsamples; i++) {
		const struct sample *s = &samples[i];
		size_t o = 0;

		if (ev >= 0 && s->ev != ev)
			continue;
		/* outermost caller first, the sampled function last; ';' and
		 * ' ' would break the format's fields: none in C names, and
		 * C++ names' spaces are kept (the count is after the last) */
		for (int d = s->depth; d >= 0; d--) {
			const char *fn = fn_name(sym_of(s->space, d ? s->stack[d - 1] : s->ip), fb,
						 sizeof(fb));

			if (o + strlen(fn) + 2 >= cap)
				break;
			o += (size_t)snprintf(k + o, cap - o, "%s%s", o ? ";" : "", fn);
		}
		for (char *p = k; *p; p++)
			if (*p == '\n')
				*p = ' ';
		tally_add(&t, k, "", s->weight);
	}
	qsort(t.r, t.n, sizeof(*t.r), by_key);
	for (size_t i = 0; i < t.n; i++)
		fprintf(out, "%s %" PRIu64 "\n", t.r[i].key, t.r[i].n);
	tally_free(&t);
	free(k);
}

/* ---- the callgrind format ------------------------------------------------------- */

/*
 * The callgrind profile format [valgrind's docs/callgrind-format: "Callgrind
 * Format Specification", valgrind 3.19], which callgrind_annotate and
 * KCachegrind read: one event per sampled event (its name, characters other
 * than letters, digits, '_' and ':' as '_'), a sample's cost its weight
 * times its period, so the totals are samples x period; positions "instr
 * line" (the address in the object's own terms and the source line).  Self
 * cost at each sampled instruction; with -g, for each caller frame a call
 * from the caller's call site to the callee (the frame inside it) whose
 * inclusive cost is the sample's: every call instance on the stack holds
 * the sample, so a recursive function's calls to itself add up one per
 * level.  calls= counts the samples taken inside the call (samples cannot
 * count calls), and its target position is that of the first such sample
 * in the callee.  callgrind_annotate takes a function's inclusive cost as
 * its self cost plus its calls' costs, so a sample is put in one call of
 * each caller-callee pair of its stack (the innermost), and in none of a
 * function to itself (direct recursion: the call is written, its calls=
 * counted, with no cost): a recursive function's inclusive cost is then
 * the samples under it, once.  Mutual recursion (A calls B calls A) still
 * counts a sample in A's and B's calls to each other.
 */
static void cg_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == ':' ? *s : '_', f);
}

/* "ob\tfl\tfn" of a symbol (the grouping of the format's cost lines) */
static void cg_where(const struct sym *y, char *b, size_t len)
{
	char fb[1024];

	snprintf(b, len, "%s\t%s\t%s", y->obj, y->file, fn_name(y, fb, sizeof(fb)));
}

static int cmp_row_key(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->key, ((const struct row *)b)->key);
}

/* Each distinct "ob\tfl\tfn" once: the callgrind keys carry its index (a
 * 100,000-sample profile with stacks took 5 s with the strings in them) */
static struct tally wheres;

static size_t where_id(const struct sym *y)
{
	struct sym *w = (struct sym *)y;        /* the cache only */
	char a[4096];

	if (w->wid >= 0)
		return (size_t)w->wid;
	cg_where(y, a, sizeof(a));
	w->wid = tally_find(&wheres, a);
	if (w->wid < 0) {
		tally_add(&wheres, a, "", 0);      /* (appended: the last row) */
		w->wid = (long)wheres.n - 1;
	}
	return (size_t)w->wid;
}

/* the ob, fl and fn lines of where WID */
static void print_where(const char *pre, size_t wid)
{
	char b[4096], *f[3];

	snprintf(b, sizeof(b), "%s", wheres.r[wid].key);
	if (nb_tsv_split(b, f, 3) == 3)
		printf("%sob=%s\n%s%s=%s\n%sfn=%s\n", pre, f[0], pre, *pre ? "fi" : "fl", f[1], pre,
		       f[2]);
}

static void callgrind(const char *cmd)
{
	struct tally t = { 0 }, calls = { 0 };
	char k[256], pos[64];
	size_t pairs[64][2], last = (size_t)-1;

	for (size_t i = 0; i < nsamples; i++) {
		const struct sample *s = &samples[i];
		uint64_t cost = s->weight * events[s->ev].period;
		const struct sym *y = sym_of(s->space, s->ip), *callee = y;
		size_t a, c = where_id(y);

		/* self: where, "S", position, event */
		snprintf(k, sizeof(k), "%08zx\tS\t%016" PRIx64 "\t%u\t%d", c, y->svma, y->line, s->ev);
		tally_add(&t, k, "", cost);
		for (int d = 0, np = 0; d < s->depth; d++) {
			const struct sym *caller = sym_of(s->space, s->stack[d]);
			int seen = 0;

			a = where_id(caller);
			/* a call: caller's where, "C", call site, callee's where,
			 * event; its target position in "where" */
			snprintf(k, sizeof(k), "%08zx\tC\t%016" PRIx64 "\t%u\t%08zx\t%d", a,
				 caller->svma, caller->line, c, s->ev);
			snprintf(pos, sizeof(pos), "%#" PRIx64 " %u", callee->svma, callee->line);
			/* the pair (by function) once per sample, and no cost to itself */
			for (int j = 0; j < np && !seen; j++)
				seen = pairs[j][0] == a && pairs[j][1] == c;
			if (!seen && np < 64) {
				pairs[np][0] = a;
				pairs[np][1] = c;
				np++;
			}
			tally_add(&t, k, pos, seen || a == c ? 0 : cost);
			tally_add(&calls, k, "", s->weight);
			callee = caller;
			c = a;
		}
	}
	qsort(t.r, t.n, sizeof(*t.r), cmp_row_key);
	printf("# callgrind format\nversion: 1\ncreator: nb_report\ncmd: %s\n"
	       "positions: instr line\nevents:", cmd);
	for (int e = 0; e < nevents; e++) {
		putchar(' ');
		cg_name(stdout, events[e].name);
	}
	printf("\nsummary:");
	for (int e = 0; e < nevents; e++) {
		uint64_t tot = 0;

		for (size_t i = 0; i < nsamples; i++)
			if (samples[i].ev == e)
				tot += samples[i].weight * events[e].period;
		printf(" %" PRIu64, tot);
	}
	printf("\n");
	for (size_t i = 0; i < t.n; i++) {
		char *f[7];
		int n = nb_tsv_split(strcpy(k, t.r[i].key), f, 7), ev;
		size_t w = strtoul(f[0], NULL, 16);

		/* a new function: its ob, fl, fn */
		if (w != last) {
			printf("\n");
			print_where("", w);
			last = w;
		}
		if (!strcmp(f[1], "S") && n == 5) {
			ev = atoi(f[4]);
		} else if (!strcmp(f[1], "C") && n == 6) {
			ev = atoi(f[5]);
			print_where("c", strtoul(f[4], NULL, 16));
			printf("calls=%" PRIu64 " %s\n", tally_get(&calls, t.r[i].key), t.r[i].where);
		} else {
			continue;
		}
		printf("%#" PRIx64 " %s", (uint64_t)strtoull(f[2], NULL, 16), f[3]);
		for (int e = 0; e < nevents; e++)
			printf(" %" PRIu64, e == ev ? t.r[i].n : 0);
		printf("\n");
	}
	tally_free(&t);
	tally_free(&calls);
	tally_free(&wheres);
}

/* ---- annotate ----------------------------------------------------------------- */

/* FN's disassembly with the samples of each instruction; with FROM (an
 * address in the object's terms; 0 none), also the samples by distance in
 * instructions from it: the skid of IEBS samples from the instruction a
 * PEBS profile found (Sprunt's histogram) */
static int annotate(int ev, const char *fn, uint64_t from)
{
	const char *obj = NULL;
	uint64_t total = 0, in = 0, *cnt = NULL;
	long nins = 0, at = -1;
	struct tally t = { 0 };
	char k[64], cmd[8192], *line = NULL;
	size_t cap = 0;
	FILE *p;
	int st;

	for (size_t i = 0; i < nsamples; i++) {
		const struct sample *s = &samples[i];
		const struct sym *y = sym_of(s->space, s->ip);

		if (s->ev != ev)
			continue;
		total += s->weight;
		if (strcmp(y->fn, fn))
			continue;
		if (!obj)
			obj = y->obj;
		in += s->weight;
		snprintf(k, sizeof(k), "%" PRIx64, y->svma);
		tally_add(&t, k, "", s->weight);
	}
	if (!in)
		return fail(EXIT_NOSYM, "--annotate=%s: no sample of %s in that function", fn,
			    events[ev].name);
	fprintf(out, "# %s in %s: %" PRIu64 " of %" PRIu64 " samples of %s\n", fn, obj, in, total,
	       events[ev].name);
	/* objdump's own quoting: the names go through the shell */
	for (const char *q = fn; *q; q++)
		if (*q == '\'')
			return fail(EXIT_USAGE, "--annotate: a name with a quote");
	for (const char *q = obj; *q; q++)
		if (*q == '\'')
			return fail(EXIT_USAGE, "--annotate: an object name with a quote");
	snprintf(cmd, sizeof(cmd), "objdump -d -l --no-show-raw-insn --disassemble='%s' '%s'", fn,
		 obj);
	fflush(out);
	p = popen(cmd, "r");
	if (!p)
		return fail(EXIT_READ, "cannot run objdump: %s", strerror(errno));
	while (getline(&line, &cap, p) > 0) {
		char *end;
		uint64_t a;
		uint64_t n = 0;

		line[strcspn(line, "\n")] = 0;
		while (*line == ' ')
			memmove(line, line + 1, strlen(line));
		a = strtoull(line, &end, 16);
		if (end != line && *end == ':') {
			snprintf(k, sizeof(k), "%" PRIx64, a);
			for (size_t i = 0; i < t.n; i++)
				if (!strcmp(t.r[i].key, k))
					n = t.r[i].n;
			if (n)
				fprintf(out, "%10" PRIu64 " %6.2f%% | %s\n", n, 100.0 * (double)n / (double)in,
				       line);
			else
				fprintf(out, "%10s %7s | %s\n", "", "", line);
			cnt = xalloc(cnt, (size_t)(nins + 1) * sizeof(*cnt));
			cnt[nins] = n;
			if (a == from)
				at = nins;
			nins++;
		} else if (*line && strncmp(line, "Disassembly of section", 22) &&
			   !strstr(line, "file format")) {
			fprintf(out, "%18s | %s\n", "", line);
		}
	}
	free(line);
	st = pclose(p);
	tally_free(&t);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		free(cnt);
		return fail(EXIT_READ, "objdump failed on %s (binutils' objdump, 2.32 or later, "
			    "is needed for --annotate)", obj);
	}
	if (from && at < 0) {
		free(cnt);
		return fail(EXIT_NOSYM, "--distance-from=%#" PRIx64 ": no instruction of %s starts "
			    "there", from, fn);
	}
	if (from) {
		fprintf(out, "# samples of %s by distance in instructions from %#" PRIx64 "\n", fn, from);
		fprintf(out, "# %8s %10s %8s\n", "distance", "samples", "percent");
		for (long i = 0; i < nins; i++)
			if (cnt[i])
				fprintf(out, "  %+8ld %10" PRIu64 " %7.2f%%\n", i - at, cnt[i],
				       100.0 * (double)cnt[i] / (double)in);
	}
	free(cnt);
	return 0;
}

/* ---- the HTML report ------------------------------------------------------------ */

/*
 * --html=DIR: DIR/index.html from the page's template (utils/report/, installed
 * beside the tools), with each view of each event written into it as a
 * textarea block (tab-separated rows, as the tables and the folded stacks;
 * a textarea's text ends only at its end tag, and "&" and "<" are written as
 * entities, so no profile's names can end it early); report.js draws them
 * with d3-flame-graph and Chart.js, copied into DIR beside the page so that it
 * opens with no network.  The page is written under a temporary name and
 * renamed: a reader never sees half of it.
 */
static const char *const assets[] = { "report.js", "report.css", "d3.min.js", "d3-flamegraph.min.js",
				      "chart.umd.min.js", "LICENSES.txt" };

/* the template's folder: $NB_REPORT_ASSETS, or beside the tool, installed
 * (PREFIX/bin -> PREFIX/share/p4netburst/report) or in the build tree
 * (build/utils -> build/share/report) */
static const char *asset_dir(char *buf, size_t len)
{
	const char *env = getenv("NB_REPORT_ASSETS");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return NULL;
	self[n] = 0;
	if (!(slash = strrchr(self, '/')))
		return NULL;
	*slash = 0;
	snprintf(buf, len, "%.3900s/../share/p4netburst/report", self);
	if (access(buf, R_OK) == 0)
		return buf;
	snprintf(buf, len, "%.3900s/../share/report", self);
	return access(buf, R_OK) == 0 ? buf : NULL;
}

static void html_text(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '&')
			fputs("&amp;", f);
		else if (s[i] == '<')
			fputs("&lt;", f);
		else
			fputc(s[i], f);
}

/* a view into the page: what FN(EV, ARG) writes, as one block */
static void html_block(FILE *f, int ev, const char *kind, void (*fn)(int, int), int arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		xalloc(NULL, SIZE_MAX);         /* (says "out of memory" and exits) */
	out = m;
	fn(ev, arg);
	fclose(m);
	out = stdout;
	fprintf(f, "<textarea hidden class=\"nb-data\" data-ev=\"%d\" data-kind=\"%s\">", ev, kind);
	html_text(f, buf, len);
	fputs("</textarea>\n", f);
	free(buf);
}

static void view_table(int ev, int key)
{
	table(ev, key, 1);
}

static void view_folded(int ev, int unused)
{
	(void)unused;
	folded(ev);
}

/* the source file of EV's hottest function ("file\tPATH", then "N\tTEXT" per
 * line, tabs as spaces); nothing when it has no line information or its
 * file cannot be read here */
static void view_source(int ev, int unused)
{
	struct tally t = { 0 };
	char fb[1024], *line = NULL;
	const char *file = NULL;
	size_t cap = 0;
	FILE *src;
	int n = 0;

	(void)unused;
	for (size_t i = 0; i < nsamples; i++)
		if (samples[i].ev == ev)
			tally_add(&t, fn_name(sym_of(samples[i].space, samples[i].ip), fb, sizeof(fb)), "",
				  samples[i].weight);
	qsort(t.r, t.n, sizeof(*t.r), by_count);
	for (size_t i = 0; t.n && i < nsamples && !file; i++) {
		const struct sym *y = sym_of(samples[i].space, samples[i].ip);

		if (samples[i].ev == ev && y->line && strcmp(y->file, "?") &&
		    !strcmp(fn_name(y, fb, sizeof(fb)), t.r[0].key))
			file = y->file;
	}
	tally_free(&t);
	if (!file || !(src = fopen(file, "r")))
		return;
	fprintf(out, "file\t%s\n", file);
	while (getline(&line, &cap, src) > 0) {
		line[strcspn(line, "\n")] = 0;
		fprintf(out, "%d\t", ++n);
		for (char *c = line; *c; c++)
			fputs(*c == '\t' ? "        " : (char[]){ *c, 0 }, out);
		fputc('\n', out);
	}
	free(line);
	fclose(src);
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	size_t n;
	FILE *a = fopen(from, "rb"), *b;
	int bad;

	if (!a)
		return -1;
	if (!(b = fopen(to, "wb"))) {
		fclose(a);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), a)) > 0)
		if (fwrite(buf, 1, n, b) != n)
			break;
	bad = ferror(a) || ferror(b);
	fclose(a);
	return fclose(b) || bad ? -1 : 0;
}

static int html(const char *dir, int only)
{
	char ad[PATH_MAX], from[PATH_MAX + 64], to[PATH_MAX + 64], tmp[PATH_MAX + 64], *tpl = NULL;
	const char *a = asset_dir(ad, sizeof(ad));
	size_t cap = 0;
	ssize_t len;
	struct stat st;
	FILE *f, *page;
	char *mark;

	if (!a)
		return fail(EXIT_READ, "--html: the page's template and libraries are not installed "
			    "(share/p4netburst/report beside the tools; or set NB_REPORT_ASSETS)");
	if (mkdir(dir, 0755) && errno != EEXIST)
		return fail(EXIT_WRITE, "--html=%s: cannot make the folder: %s", dir, strerror(errno));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return fail(EXIT_WRITE, "--html=%s: not a folder", dir);
	snprintf(from, sizeof(from), "%s/report.html", a);
	if (!(f = fopen(from, "r")) || (len = getdelim(&tpl, &cap, 0, f)) <= 0) {
		if (f)
			fclose(f);
		return fail(EXIT_READ, "--html: cannot read the template %s", from);
	}
	fclose(f);
	if (!(mark = strstr(tpl, "<!-- NB_DATA -->")))
		return fail(EXIT_READ, "--html: %s has no NB_DATA mark", from);
	for (size_t i = 0; i < sizeof(assets) / sizeof(assets[0]); i++) {
		snprintf(from, sizeof(from), "%s/%s", a, assets[i]);
		snprintf(to, sizeof(to), "%s/%s", dir, assets[i]);
		if (copy_file(from, to))
			return fail(EXIT_WRITE, "--html: cannot copy %s to %s: %s", from, to,
				    strerror(errno));
	}
	snprintf(to, sizeof(to), "%s/index.html", dir);
	snprintf(tmp, sizeof(tmp), "%s/.index.html.%ld", dir, (long)getpid());
	if (!(page = fopen(tmp, "w")))
		return fail(EXIT_WRITE, "--html: cannot write %s: %s", tmp, strerror(errno));
	{
		char *t = strstr(tpl, "NB_TITLE");

		if (t && t < mark) {
			fwrite(tpl, 1, (size_t)(t - tpl), page);
			html_text(page, command ? command : "?", strlen(command ? command : "?"));
			fwrite(t + 8, 1, (size_t)(mark - t - 8), page);
		} else {
			fwrite(tpl, 1, (size_t)(mark - tpl), page);
		}
	}
	fputs("<textarea hidden id=\"nb-meta\">command\t", page);
	html_text(page, command ? command : "?", strlen(command ? command : "?"));
	fputc('\n', page);
	for (int i = 0; i < nevents; i++) {
		uint64_t total = 0;

		if (only >= 0 && i != only)
			continue;
		for (size_t k = 0; k < nsamples; k++)
			if (samples[k].ev == i)
				total += samples[k].weight;
		fprintf(page, "event\t%d\t", i);
		html_text(page, events[i].name, strlen(events[i].name));
		fprintf(page, "\t%s\t%" PRIu64 "\t%" PRIu64 "\n", events[i].mode, events[i].period, total);
	}
	fputs("</textarea>\n", page);
	for (int i = 0; i < nevents; i++) {
		if (only >= 0 && i != only)
			continue;
		html_block(page, i, "folded", view_folded, 0);
		html_block(page, i, "sym", view_table, K_SYM);
		html_block(page, i, "line", view_table, K_LINE);
		html_block(page, i, "ip", view_table, K_IP);
		html_block(page, i, "data", view_table, K_DATA);
		html_block(page, i, "source", view_source, 0);
	}
	fputs(mark + strlen("<!-- NB_DATA -->"), page);
	free(tpl);
	if (ferror(page) | fclose(page) || rename(tmp, to)) {
		unlink(tmp);
		return fail(EXIT_WRITE, "--html: cannot write %s: %s", to, strerror(errno));
	}
	return 0;
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
