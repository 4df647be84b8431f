/*
 * nb_affinity.h - the guest's CPU affinity (nb_affinity.c):
 * sched_setaffinity(2) binds a guest thread to the modelled logical
 * processors without reaching the host, sched_getaffinity(2) reports the
 * thread's binding; called by the front-end (nb_front.c).
 */
#ifndef NB_AFFINITY_H
#define NB_AFFINITY_H

#include "tool/nb_tool.h"

/* at start: the binding an execve kept */
void nb_affinity_init(void);
void nb_affinity_pre_syscall(ThreadId tid, UInt sysno, UWord *args);
void nb_affinity_post_syscall(ThreadId tid, UInt sysno, UWord *args, SysRes res);
void nb_affinity_thread_create(ThreadId parent, ThreadId child);
void nb_affinity_thread_exit(ThreadId tid);
void nb_affinity_fork(void);

#endif /* NB_AFFINITY_H */
