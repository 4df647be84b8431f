/*
 * nbsim_counts.h - the two files between nbsim and nb_stat (utils/nb_stat,
 * which writes the first and reads the second; sim/kernel/nb_progfile.c,
 * which reads the first and writes the second).  Plain text, one item a
 * line; both sides take the keywords from here.
 *
 * The program file (--nbsim-program=FILE): register images written into
 * the PMU before the guest's first instruction, in order; '#' starts a
 * comment.
 *
 *     wrmsr 0xMSR 0xVALUE
 *
 * The counts file (--nbsim-counts=FILE), written at exit:
 *
 *     nbsim-counts 2
 *     pid PID
 *     model NAME
 *     cycles N                  simulated cycles (RUNNING)
 *     mhz N                     the modelled part's clock, MHz
 *     exit STATUS               (-1 in a FILE.execN)
 *     total C0 C1 ... C17       every counter (40-bit values)
 *     thread TID LWPID C0 ... C17   one row per guest thread that ran
 *     lp TID FIRST LAST         with --ht=yes, after its thread row
 *
 * Version 1 is version 2 without the lp lines; a reader takes both.
 */
#ifndef NBSIM_COUNTS_H
#define NBSIM_COUNTS_H

#define NB_PROG_WRMSR     "wrmsr"
/* a program line, printf format: the MSR (unsigned), the value (unsigned long long) */
#define NB_PROG_LINE      NB_PROG_WRMSR " %#x %#llx\n"

#define NB_COUNTS_MAGIC   "nbsim-counts"
#define NB_COUNTS_HEAD1   NB_COUNTS_MAGIC " 1\n"
#define NB_COUNTS_HEAD2   NB_COUNTS_MAGIC " 2\n"   /* the version written */
#define NB_COUNTS_PID     "pid"
#define NB_COUNTS_MODEL   "model"
#define NB_COUNTS_CYCLES  "cycles"
#define NB_COUNTS_MHZ     "mhz"
#define NB_COUNTS_EXIT    "exit"
#define NB_COUNTS_TOTAL   "total"
#define NB_COUNTS_THREAD  "thread"
#define NB_COUNTS_LP      "lp"
/* The length of keyword K with the space that follows it (K a literal). */
#define NB_COUNTS_KEYLEN(k) (sizeof(k))

#endif /* NBSIM_COUNTS_H */
