/*
 * nb_report_prof.h - nb_report's profile in memory (nb_report_prof.c),
 * which every view reads.  nb_report's parts, from the bottom up:
 *   nb_report_prof.c   the profile read into memory, its symbols
 *   nb_report_views.c  the tables (--sort), folded stacks, the callgrind
 *                      format (nb_report_views.h)
 *   nb_report_html.c   --annotate (objdump's disassembly with the samples)
 *                      and the HTML report (nb_report_html.h)
 *   nb_report.c        the command line
 */
#ifndef NB_REPORT_PROF_H
#define NB_REPORT_PROF_H

#include <stdint.h>
#include <stdio.h>

#define EXIT_READ    1           /* FILE cannot be read                   */
#define EXIT_USAGE   2
#define EXIT_FORMAT  3           /* not a profile, or another version     */
#define EXIT_NOSYM   4           /* --annotate: no sample in SYM; --event: none such */
#define EXIT_WRITE   5           /* --html: DIR or its files cannot be written */

/* ---- the profile in memory ---- */

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
/* read PATH into memory; 0, or an EXIT_* status after a message */
int prof_load(const char *path);

#endif
