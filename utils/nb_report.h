/*
 * nb_report.h - what nb_report's parts share: the profile in memory
 * (nb_report.c reads it), the rows the views tally, and the views.
 *   nb_report.c        command line, the profile read into memory
 *   nb_report_views.c  the tables (--sort), folded stacks, the callgrind
 *                      format
 *   nb_report_html.c   --annotate (objdump's disassembly with the samples)
 *                      and the HTML report
 */
#ifndef NB_REPORT_H
#define NB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#define EXIT_READ    1           /* FILE cannot be read                   */
#define EXIT_USAGE   2
#define EXIT_FORMAT  3           /* not a profile, or another version     */
#define EXIT_NOSYM   4           /* --annotate: no sample in SYM; --event: none such */
#define EXIT_WRITE   5           /* --html: DIR or its files cannot be written */

/* ---- the profile in memory (nb_report.c) ---- */

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

extern struct sym *syms;
extern size_t nsyms;
extern struct sample *samples;
extern size_t nsamples;
extern struct event events[64];
extern int nevents;
extern long *spaces;             /* space -> pid */
extern char *command;            /* PROGRAM ARGS, as recorded */
extern FILE *out;                /* where the views go: stdout, or a page's block */
extern int nspaces;

/* a message naming the cause on stderr; returns STATUS */
int fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* realloc and strdup that exit on failure */
void *xalloc(void *p, size_t n);
char *xstrdup(const char *s);
/* the symbol of IP in process image SPACE, or NULL */
const struct sym *sym_of(int space, uint64_t ip);

/* ---- rows (nb_report_views.c) ---- */

enum { K_SYM, K_LINE, K_IP, K_DSO, K_DATA, K_THREAD, K_PAGE, K_N };

struct row {
	char *key, *where;
	uint64_t n;
};

/* rows keyed by string: a linear-probing table over the keys */
struct tally {
	struct row *r;
	size_t n, cap;
	size_t *tab, size;
};


/* qsort's order of rows: the most first, then by key */
int by_count(const void *a, const void *b);
void tally_add(struct tally *t, const char *key, const char *where, uint64_t w);
long tally_find(const struct tally *t, const char *key);
uint64_t tally_get(const struct tally *t, const char *key);
void tally_free(struct tally *t);
/* the last path component */
const char *base(const char *p);
/* Y's function, or [OBJECT] if it has none, in B */
const char *fn_name(const struct sym *y, char *b, size_t len);

/* ---- the views ---- */

/* event EV's samples by KEY (K_*), the most first; TSV: tab-separated */
void table(int ev, int key, int tsv);
/* event EV's folded stacks */
void folded(int ev);
/* the callgrind format of every event (CMD: the profiled command) */
void callgrind(const char *cmd);
/* --annotate=FN of event EV, FROM 0 or the address distances are from */
int annotate(int ev, const char *fn, uint64_t from);
/* --html=DIR; ONLY: one event's index, or -1 */
int html(const char *dir, int only);

#endif
