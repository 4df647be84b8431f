/*
 * nb_kern.h - nbsim's emulated kernel (nb_kern.c): the msr driver and the
 * Linux P4 perf driver behind the preload library's wrappers
 * (vg_preload_nbsim.c, nbsim_kern.h).  sim/README.md "Emulated kernel".
 */
#ifndef NB_KERN_H
#define NB_KERN_H

#include "tool/nb_tool.h"
#include "nbsim_kern.h"

/* NBSIM_REQ_KERN: ARG[1] the op, ARG[2..5] its arguments. */
Word nb_kern_request(ThreadId tid, UWord *arg);
Bool nb_kern_request_pmu(const UWord *arg);
/* TID starts running: perf events of the thread that ran go off the PMU,
 * TID's come on. */
void nb_kern_switch(ThreadId tid);
/* Between scheduler slices of TID: the perf driver's tick, when due,
 * which ends throttling (nb_kern.c). */
void nb_kern_tick(ThreadId tid);
/* no perf event open: nb_kern_switch and nb_kern_tick do nothing */
Bool nb_kern_quiet(void);
extern ULong nbk_throttles, nbk_interrupts, nbk_ticks; /* (statistics) */
/* Thread CHILD created by PARENT (clone: a thread): copies of PARENT's
 * inheriting events (attr.inherit).  Thread TID exits: its copies report
 * to their originals.  At exit (nb_fini): a forked child's copies report
 * to the parent process. */
void nb_kern_thread_create(ThreadId parent, ThreadId child);
void nb_kern_thread_exit(ThreadId tid);
void nb_kern_fini(void);
/* Once, before the guest runs: the fork handler, and the events of the
 * image before an exec. */
void nb_kern_init(void);
/* execve: the events that outlive it go to the new image's nbsim. */
void nb_kern_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs);
void nb_kern_post_syscall(UInt sysno, SysRes res);
/* The PMI claim (struct nb_front): the perf driver takes the counters its
 * sampling events own. */
uint32_t nb_kern_pmi(uint32_t pend, unsigned lp, Addr ip, int *here);
/* Thread TID owns perf events (bound to its LP's T0/T1 bits). */
Bool nb_kern_thread_events(ThreadId tid);
/* --nbsim-stats: the driver's interrupts, throttles and ticks */
void nb_kern_stats(void);

#endif
