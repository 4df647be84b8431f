/*
 * nb_sched.h - place NetBurst events on ESCRs and counters.
 *
 * A pure function: no I/O, no PAPI types.  Exhaustive (backtracking), so
 * it finds a placement whenever one exists.
 */
#ifndef NB_SCHED_H
#define NB_SCHED_H

#include <stddef.h>
#include "nb_evsel.h"

#define NB_SCHED_ALLOW_CTR1 0x1   /* allow counter 1 (CCCR1 erratum: off by default) */

struct nb_slot {
	uint8_t escr;            /* index into nb_escrs    */
	uint8_t counter;         /* 0..17                  */
};

/*
 * Place N events (N <= NB_NUM_COUNTERS).  Returns 0 and fills OUT[0..N-1],
 * or -1 with a message in WHY naming the event and the resource it lacks.
 */
int nb_schedule(const struct nb_evsel *ev, int n, unsigned model,
		unsigned flags, struct nb_slot *out, char *why, size_t whylen);

#endif
