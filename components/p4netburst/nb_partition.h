/*
 * nb_partition.h - split requests that cannot be counted at once into the
 * fewest runs (sets the scheduler places).  Pure code.
 */
#ifndef NB_PARTITION_H
#define NB_PARTITION_H

#include "nb_sched.h"

#define NB_PART_MAX 64           /* requests accepted                 */
#define NB_PART_EXACT_MAX 16     /* exact (branch and bound) up to this many */

/*
 * Assign each of the N requests a run number in RUN[0..N-1] (0-based,
 * runs numbered in order of first use).  Returns the number of runs, or
 * -1 with a message in WHY if some request cannot be placed even alone.
 * *EXACT is set to 1 when the count is proven minimal (N <=
 * NB_PART_EXACT_MAX, and the search finished within its budget), else 0
 * (first-fit result).
 */
int nb_partition(const struct nb_evsel *req, int n, const struct nb_sched_cpu *cpu,
		 int *run, int *exact, char *why, size_t whylen);

#endif
