/*
 * nb_stat_print.h - what nb_stat prints (nb_stat_print.c).
 */
#ifndef NB_STAT_PRINT_H
#define NB_STAT_PRINT_H

#include <stdio.h>
#include "nb_stat_types.h"

/* the whole report of a count */
struct report {
	const struct st_config *c;
	const char *backend;
	struct st_event *ev;
	int n;
	struct st_run *runs;
	int nruns, minimal, diverged, status;
	char divergence[512];
	double seconds;
	int64_t cycles;          /* cycles counted by the set's cycle event, or -1 */
};

/* the value of request I of run R from counters CTR (cascade folded,
 * preset coefficient applied); an event's total over the processes */
int64_t st_req_value(const struct st_run *r, int i, const uint64_t *ctr);
int64_t st_ev_total(const struct st_event *e, const struct st_run *runs);

/* an event's role in the derived lines (R_CYC: the cycles), or -1 */
enum { R_INS, R_CYC, R_UOPS, R_MSP, R_L1, R_L2, R_N };
int st_role_of(const struct st_event *e, const struct st_config *c);

/* the report as a table (perf stat's layout), SEP-separated values, JSON */
void st_out_table(FILE *f, const struct report *R);
void st_out_csv(FILE *f, const struct report *R, const char *sep);
void st_out_json(FILE *f, const struct report *R);

#endif
