/*
 * nb_stat_run.h - the runs of PROGRAM (nb_stat_run.c): under nbsim or
 * through perf_event_open, its process, the signals passed on to it.
 */
#ifndef NB_STAT_RUN_H
#define NB_STAT_RUN_H

#include <signal.h>
#include <sys/types.h>
#include "nb_stat_types.h"

/* SIGINT, SIGTERM and SIGHUP while a run's process runs are passed on to
 * it; the first one caught is in st_interrupted (nb_stat_run.c). */
extern volatile sig_atomic_t st_interrupted;
void st_signals_init(void);

/* Run PROGRAM once for RUN under nbsim: 0, or -1 with a message in ERR. */
int st_run_nbsim(const struct st_config *c, struct st_run *run, char *err, size_t len);

/* The run's process (nb_stat_run.c): forked with the signals held until
 * its pid is known (st_interrupted passed on to it), and waited for (after
 * a signal, every process it started too). */
pid_t st_fork_child(void);
void st_wait_child(pid_t pid, int *status);

/* The same through perf_event_open on the host's NetBurst. */
int st_run_perf(const struct st_config *c, struct st_run *run, char *err, size_t len);

/* Is the host a NetBurst?  1 (model in *MODEL), or 0 with the reason. */
int st_host_netburst(unsigned *model, char *why, size_t len);

#endif
