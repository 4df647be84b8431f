/*
 * nb_samples.h - sampling a whole program without its help (nb_record):
 * the overflow interrupts and PEBS assists of the counters that the
 * --nbsim-program file armed are taken by nbsim itself, which writes one
 * sample line per interrupt or PEBS record to --nbsim-samples=FILE
 * (nb_samples.c has the format).
 */
#ifndef NB_SAMPLES_H
#define NB_SAMPLES_H

#include "nb_tool.h"

/* --nbsim-samples=FILE (NULL: none), --nbsim-sample-stack=N (nb_opts.c) */
extern const HChar *clo_samples;
extern UInt clo_sample_stack;
#define NB_SAMPLE_MAXDEPTH 64           /* callers a sample can carry */
/* --nbsim-sample-random=BITS, --nbsim-sample-seed=N (nb_opts.c) */
extern UInt clo_sample_random;
extern ULong clo_sample_seed;
#define NB_SAMPLE_MAXRANDOM 24

/* After nb_stat_init (the program file applied): the periods */
void nb_samples_init(void);
void nb_samples_fini(void);
/* before a system call: an execve flushes what was sampled so far */
void nb_samples_pre_syscall(UInt sysno);

/* The PMI of logical processor LP for the counters PEND, taken at the
 * instruction boundary IP of guest thread TID: the counters that sample
 * for nb_record are re-armed and their samples written.  Returns the
 * counters it took. */
uint32_t nb_samples_pmi(uint32_t pend, unsigned lp, Addr ip, ThreadId tid);

/* A PEBS record (NB_PEBS_NREGS registers, nb_ds.h order) of LP when the
 * guest has no DS save area: written as a sample; *RESET gets the value
 * the counter is reloaded with (the program file's initial value). */
void nb_samples_pebs(unsigned lp, const uint64_t *regs, uint64_t *reset);

/* the effective address of the load being sampled (nb_exec.c), written
 * beside the record so that nb_record can check its own decoding */
extern Addr nb_samples_ea;

#endif
