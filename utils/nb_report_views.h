/*
 * nb_report_views.h - nb_report's text views (nb_report_views.c): the
 * rows they tally, the tables, folded stacks and the callgrind format.
 */
#ifndef NB_REPORT_VIEWS_H
#define NB_REPORT_VIEWS_H

#include "nb_report_prof.h"

/* ---- rows ---- */

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

#endif
