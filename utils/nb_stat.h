/*
 * nb_stat.h - what nb_stat's parts share: the events asked for, the runs
 * they are partitioned into, and the counts each run gives back.
 *   nb_stat.c       command line, events, partition, output
 *   nb_stat_out.c   -o FILE
 *   nb_stat_stdin.c standard input, the same for every run
 *   nb_stat_run.c   the backends: nbsim (program and counts files) and the
 *                   Linux perf backend of a real NetBurst
 */
#ifndef NB_STAT_H
#define NB_STAT_H

#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
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

/* -o FILE (nb_stat_out.c): opened before PROGRAM runs (0, or -1 with
 * errno, and the reason in WHY if errno's text is not it), begun when the
 * counts are ready (0, or -1 with errno), written through FD, then
 * committed (0, or -1 with errno) or abandoned (a temporary file
 * removed). */
struct st_out {
	const char *path;        /* as given (expanded)                      */
	int fd;
	int fifo;                /* a FIFO: opened by st_out_begin           */
	int truncate;            /* through a link: truncated by st_out_begin */
	char target[4096];       /* the plain file replaced at the end, or "" */
	char tmp[4096 + 8];      /* its temporary file, or "": written in place */
	char why[4400];
};
int st_out_open(struct st_out *o, const char *path);
int st_out_begin(struct st_out *o);
int st_out_commit(struct st_out *o, FILE *f);
void st_out_abandon(struct st_out *o);

/* Standard input for several runs (nb_stat_stdin.c): made replayable
 * before the first (0, or -1 with a message), rewound before each. */
int st_stdin_prepare(char *err, size_t len);
int st_stdin_rewind(char *err, size_t len);

/* SIGINT, SIGTERM and SIGHUP while a run's process runs are passed on to
 * it; the first one caught is in st_interrupted (nb_stat_run.c). */
extern volatile sig_atomic_t st_interrupted;
void st_signals_init(void);

/* --time=auto (the default): the simulated part's time when a run needs
 * the timing model from the start anyway (a cycle event, a per-cycle
 * filter, a sampling counter), so it costs nothing; the host's otherwise,
 * since the model would then cost several times the run (nb_prog.c). */
void st_time_resolve(struct st_config *c, const struct st_run *runs, int nruns);

/* Run PROGRAM once for RUN under nbsim: 0, or -1 with a message in ERR. */
int st_run_nbsim(const struct st_config *c, struct st_run *run, char *err, size_t len);

/* The run's process (nb_stat_run.c): forked with the signals held until
 * its pid is known (st_interrupted passed on to it), and waited for (after
 * a signal, every process it started too). */
pid_t st_fork_child(void);
void st_wait_child(pid_t pid, int *status);

/* The same through perf_event_open on the host's NetBurst. */
int st_run_perf(const struct st_config *c, struct st_run *run, char *err, size_t len);

/* An error message "TOOL: ..." on stderr, its control bytes as \xHH
 * (nb_prog.c). */
void st_vmessage(const char *tool, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* The defaults nb_stat and nb_record share; --model=NAME (0, or -1 with
 * the known models in WHY) (nb_prog.c). */
void st_config_init(struct st_config *c);
int st_config_model(struct st_config *c, const char *name, char *why, size_t len);

/* PROGRAM as execvp finds it (nb_prog.c): 0 with its stat in *PST, or
 * ST_EXIT_NOTFOUND / ST_EXIT_NOEXEC after a message prefixed with TOOL
 * (SIM: valgrind cannot run set-ID programs). */
struct stat;
/* the usage errors nb_stat and nb_record share; each returns ST_EXIT_USAGE */
int st_option_error(const char *tool, const char *valued, int optopt, char **argv,
		    void (*usage)(FILE *));
int st_no_program(const char *tool, const char *what, void (*usage)(FILE *));
int st_check_program(const char *tool, const char *prog, int sim, struct stat *pst);

/* FMT (-o) with %r (the MPI rank: PMI_RANK, OMPI_COMM_WORLD_RANK ...; 0
 * outside MPI), %p (the pid), %% expanded into OUT: 0, or -1 for a bad
 * sequence or a result too long, -2 for an empty result (nb_prog.c). */
int st_expand_output(const char *fmt, char *out, size_t len);

/* The nbsim launcher: $NBSIM, else beside the tool (installed) or in the
 * build tree (build/utils/../sim/nbsim), else "nbsim" on the PATH. */
const char *st_find_nbsim(char *buf, size_t len);

/* Is the host a NetBurst?  1 (model in *MODEL), or 0 with the reason. */
int st_host_netburst(unsigned *model, char *why, size_t len);

/* ---- what nb_stat prints (nb_stat_print.c) ---- */

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
