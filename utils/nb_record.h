/*
 * nb_record.h - what nb_record's parts share.
 *   nb_record.c       command line, events, placement, the profile's header
 *   nb_record_sim.c   the nbsim backend's samples: nbsim's files into the
 *                     profile, PEBS data addresses decoded
 *   nb_record_perf.c  the perf backend: perf_event_open sampling events,
 *                     their mmap ring buffers, PERF_RECORD_SAMPLE, COMM
 *                     and MMAP2 records, the ELF symbol tables
 */
#ifndef NB_RECORD_H
#define NB_RECORD_H

#include <capstone/capstone.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>
#include "nb_stat.h"

/* one sampled event, as the command line gave it and where it was placed */
struct rec_event {
	const char *name;        /* as given, without /PERIOD               */
	uint64_t period;         /* 0: -c's                                 */
	int preset;              /* index into nb_presets, or -1            */
	struct nb_evsel sel;
	int precise;
	int hw;                  /* its counter's hw index in the plan      */
	unsigned counter;
	uint64_t samples, weight;
	int by_freq;             /* its period from -F                      */
};

/* the nbsim backend's reader: the profile being written and what it met */
struct rec_ctx {
	FILE *out;
	struct rec_event *ev;
	int nev;
	int ev_of_counter[18];   /* counter -> event, -1 */
	int spaces;              /* process images seen   */
	int follow;              /* every process's samples, not PROGRAM's only */
	uint64_t nsamples, pebs, decoded, differ, bad_lines;
	csh cs;                  /* Capstone, for the data addresses */
	int cs_ok;
};

/* Open X's disassembler (without it PEBS samples keep no data address);
 * nbr_sim_end closes it. */
void nbr_sim_begin(struct rec_ctx *x);
void nbr_sim_end(struct rec_ctx *x);

/* st_config's samples hook: the run's samples.PID files in DIR (CHILD's
 * only, unless X follows every process), in name order so that the same
 * run gives the same profile, into X's profile.  0, or -1 with ERR. */
int nbr_sim_samples(const char *dir, pid_t child, void *ctx, char *err, size_t len);

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
