/*
 * nb_prog.h - what nb_stat and nb_record share about PROGRAM and their
 * options (nb_prog.c).
 */
#ifndef NB_PROG_H
#define NB_PROG_H

#include <stdarg.h>
#include <stdio.h>
#include "nb_stat_types.h"

/* --time=auto (the default): the simulated part's time when a run needs
 * the timing model from the start anyway (a cycle event, a per-cycle
 * filter, a sampling counter), so it costs nothing; the host's otherwise,
 * since the model would then cost several times the run (nb_prog.c). */
void st_time_resolve(struct st_config *c, const struct st_run *runs, int nruns);

/* An error message "TOOL: ..." on stderr, its control bytes as \xHH
 * (nb_prog.c). */
void st_vmessage(const char *tool, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* The defaults nb_stat and nb_record share; --model=NAME (0, or -1 with
 * the known models in WHY) (nb_prog.c). */
void st_config_init(struct st_config *c);
int st_config_model(struct st_config *c, const char *name, char *why, size_t len);
/* --clock=sampled|model and --time=auto|simulated|host (nbsim's): 0, or -1
 * for another value */
int st_config_clock(struct st_config *c, const char *arg);
int st_config_time(struct st_config *c, const char *arg);

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

#endif
