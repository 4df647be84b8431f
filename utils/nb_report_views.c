/*
 * nb_report_views.c - nb_report's text views of the profile: the tables
 * (--sort: by function, line, instruction, object, data line, page,
 * thread), folded stacks for a flame-graph renderer (--folded), and the
 * callgrind format (--callgrind) that callgrind_annotate and KCachegrind
 * read.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "nb_report_views.h"
#include "nb_tsv.h"

/* ---- tables ---------------------------------------------------------------- */


int by_count(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

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

void tally_add(struct tally *t, const char *key, const char *where, uint64_t w)
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
long tally_find(const struct tally *t, const char *key)
{
	if (t->size)
		for (size_t k = str_hash(key) & (t->size - 1); t->tab[k]; k = (k + 1) & (t->size - 1))
			if (!strcmp(t->r[t->tab[k] - 1].key, key))
				return (long)(t->tab[k] - 1);
	return -1;
}

uint64_t tally_get(const struct tally *t, const char *key)
{
	long i = tally_find(t, key);

	return i < 0 ? 0 : t->r[i].n;
}

void tally_free(struct tally *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->r[i].key);
		free(t->r[i].where);
	}
	free(t->r);
	free(t->tab);
	memset(t, 0, sizeof(*t));
}

const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* a function's name, or "[OBJECT]" for an address no symbol covers (a
 * stripped program: Debian's, without its -dbgsym package) */
const char *fn_name(const struct sym *y, char *b, size_t len)
{
	if (strcmp(y->fn, "?"))
		return y->fn;
	snprintf(b, len, "[%s]", base(y->obj));
	return b;
}

void table(int ev, int key, int tsv)
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

void folded(int ev)
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

void callgrind(const char *cmd)
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
