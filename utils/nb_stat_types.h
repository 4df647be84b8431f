/*
 * nb_stat_types.h - what nb_stat, nb_record and their parts share: the
 * events asked for, the runs they are partitioned into, the counts each
 * run gives back, the configuration, and nb_stat's exit statuses.  The
 * parts, each with its header:
 *   nb_stat.c, nb_record.c  command lines, events, partition, output
 *   nb_prog.c        PROGRAM, the options and defaults both tools share
 *   nb_stat_run.c    the backends: nbsim (program and counts files) and
 *                    the Linux perf backend of a real NetBurst
 *   nb_stat_out.c    -o FILE
 *   nb_stat_stdin.c  standard input, the same for every run
 *   nb_stat_print.c  what nb_stat prints
 */
#ifndef NB_STAT_TYPES_H
#define NB_STAT_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "nb_presets.h"

/* exit statuses of nb_stat's own failures (else PROGRAM's status) */
#define ST_EXIT_BACKEND  121     /* counting failed or the backend refused   */
#define ST_EXIT_OUTPUT   122     /* -o FILE cannot be written                */
#define ST_EXIT_MODEL    123     /* an event the chosen model does not have  */
#define ST_EXIT_EVENT    124     /* unknown event, or one that cannot be counted */
#define ST_EXIT_USAGE    125     /* bad option, no program                   */
#define ST_EXIT_NOEXEC   126     /* PROGRAM cannot be executed               */
#define ST_EXIT_NOTFOUND 127     /* PROGRAM not found                        */

#define ST_MAXEV 64
#define ST_MAXRUNS 64

struct st_event {
	const char *name;        /* as given                                 */
	int preset;              /* index into nb_presets, or -1             */
	struct nb_evsel sel;     /* preset < 0: the event or metric          */
	int run;                 /* run that counts it                       */
	int req0, nreq;          /* its requests in that run                 */
};

struct st_thread {
	unsigned tid;
	long lwp;
	int lp_first, lp_last;   /* logical processors it ran on (--ht), or -1 */
	uint64_t ctr[18];
};

struct st_proc {
	long pid;
	int exit;                /* -1: not known (an image that exec'd)    */
	int execs;               /* images before an exec (counts.PID.execN) */
	int final;               /* the last image's counts are here: 0 if
				    it exec'd a program nbsim did not follow */
	uint64_t cycles;
	unsigned mhz;            /* the modelled part's clock                */
	uint64_t total[18];      /* by counter                               */
	int nthr;
	struct st_thread *thr;
};

struct st_run {
	struct nb_req req[NB_SCHED_MAX];
	int nreq;
	int ins_req;             /* hidden instructions request (divergence), or -1 */
	struct nb_plan plan;
	/* nb_record: hw event h samples every period[h] events (its counter
	 * starts at 2^40 - period; an interrupt at each overflow, or PEBS on
	 * a precise request); 0: it counts */
	uint64_t period[NB_SCHED_MAX];
	/* nb_record --ht=yes: hw event h counts and interrupts logical
	 * processor lp[h] - 1 only; 0: both, as nb_stat counts */
	int lp[NB_SCHED_MAX];
	/* results */
	int status;              /* wait status of PROGRAM                   */
	int nproc;
	struct st_proc *proc;    /* sorted by pid; [0] is PROGRAM's process  */
	double seconds;          /* host time                                */
};

struct st_config {
	const char *model_name;  /* nbsim --model= name                      */
	unsigned model;          /* CPUID model                              */
	unsigned feats;
	int ht, follow, per_thread;
	int sampled;             /* nbsim's sampled clock (the default; 0:
				  * --clock=model)                           */
	int clock_given;         /* --clock or --time was given              */
	int host_time;           /* PROGRAM's clocks: 1 the host's, 0 the
				  * simulated part's, -1 auto (st_time_resolve) */
	int time_auto;           /* host_time was chosen by st_time_resolve   */
	const char *nbsim;       /* path of the nbsim launcher               */
	char **argv;             /* PROGRAM ARGS                              */
	/* nb_record: nbsim writes samples (--nbsim-samples) to DIR/samples.PID,
	 * handed to SAMPLES before the run's directory is removed (0, or -1
	 * with a message in ERR); SAMPLE_DEPTH callers each (-g) */
	int (*samples)(const char *dir, pid_t child, void *ctx, char *err, size_t len);
	void *samples_ctx;
	int sample_depth;
	/* nb_record --random-period=BITS (0: fixed periods), --random-seed */
	int random_bits;
	uint64_t random_seed;
};

#endif
