/*
 * nb_record_sim.h - nb_record's events and its nbsim backend's reader
 * (nb_record_sim.c: nbsim's sample files into the profile, PEBS data
 * addresses decoded).  nb_record's parts: nb_record.c (command line,
 * events, placement, the profile's header), nb_record_sim.c, and
 * nb_record_perf.c (the perf backend, nb_record_perf.h).
 */
#ifndef NB_RECORD_SIM_H
#define NB_RECORD_SIM_H

#include <capstone/capstone.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "nb_stat_types.h"

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

#endif
