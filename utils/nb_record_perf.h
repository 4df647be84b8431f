/*
 * nb_record_perf.h - nb_record's perf backend (nb_record_perf.c):
 * perf_event_open sampling events, their mmap ring buffers,
 * PERF_RECORD_SAMPLE, COMM and MMAP2 records, the ELF symbol tables.
 */
#ifndef NB_RECORD_PERF_H
#define NB_RECORD_PERF_H

#include <stdint.h>
#include <stdio.h>
#include "nb_stat_types.h"

/* one sampled event on the perf backend */
struct nbr_perf_event {
	uint64_t config;         /* PERF_TYPE_RAW config (nb_perf_raw)       */
	uint64_t period;         /* sample_period                            */
	uint64_t freq;           /* -F: sample_freq (attr.freq: the kernel
				  * adjusts the period), 0: sample_period    */
	/* results */
	uint64_t samples;        /* PERF_RECORD_SAMPLEs of PROGRAM's         */
	uint64_t count;          /* the events' count at the end (read)      */
	uint64_t period_sum;     /* the samples' periods (PERF_SAMPLE_PERIOD) */
};

struct nbr_perf_stats {
	uint64_t lost;           /* PERF_RECORD_LOST's sum                   */
	uint64_t throttles;      /* PERF_RECORD_THROTTLEs                    */
	uint64_t other;          /* samples of other processes (no --follow) */
	uint64_t unresolved;     /* IPs in no mapping PERF_RECORD_MMAP2 gave */
	uint64_t forks;          /* PERF_RECORD_FORKs of followed processes   */
	int ncpus;               /* events per sampled event (one per CPU)   */
};

/* Sample PROGRAM (C->argv) through perf_event_open: for each of the N
 * events one per online CPU on PROGRAM's process (disabled,
 * enable_on_exec, inherit, user mode), each with its ring buffer, drained
 * while PROGRAM runs; the profile's space, sym and sample lines to OUT
 * (its header is the caller's), DEPTH callers per sample (-g: the
 * kernel's user call chain).  0 with PROGRAM's wait status in *STATUS, or
 * -1 with a message in ERR. */
int nbr_run_perf(const struct st_config *c, struct nbr_perf_event *ev, int n, int depth,
		 FILE *out, struct nbr_perf_stats *st, int *status, char *err, size_t len);

#endif
