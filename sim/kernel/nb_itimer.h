/*
 * nb_itimer.h - interval timers in simulated time (nb_itimer.c), for the
 * front-end (nb_front.c), which calls them; they read the time base.
 */
#ifndef NB_ITIMER_H
#define NB_ITIMER_H

#include "tool/nb_tool.h"

/* NBSIM_REQ_ITIMER: setitimer's WHICH (ITIMER_REAL, _VIRTUAL, _PROF), new
 * and old values (client addresses, each may be 0); NBSIM_OK, NBSIM_GP or
 * NBSIM_TIME_HOST (nbsim_client.h) */
UWord nb_itimer_request(Int which, UWord new_value, UWord old_value);
/* at each entry of valgrind's scheduler: expired timers signal */
void nb_itimer_check(void);
/* no interval or POSIX timer armed: nb_itimer_check does nothing */
Bool nb_itimer_quiet(void);
/* before a system call: a wait while ITIMER_REAL runs arms the host's
 * ITIMER_REAL for the simulated time left */
void nb_itimer_pre_syscall(ThreadId tid, UInt sysno);
/* after it: True if the call was such a wait (its time accounted; PASSED:
 * what nb_timeout.c gives it if it ran out its own time, else ~0) */
Bool nb_itimer_wait_end(ThreadId tid, ULong passed);
/* NBSIM_TIME_IDLE (nbsim_kern.h): TID waits for a signal with the mask at
 * MASK_ADDR; NBSIM_OK: the first timer fired at once (the process idle),
 * NBSIM_TIME_HOST: wait on the host, NBSIM_GP: a bad address */
UWord nb_itimer_idle(ThreadId tid, UWord mask_addr);
/* a fork's child (TID the thread that forked): none armed */
void nb_itimer_fork(ThreadId tid);
/* the process's threads: CHILD created by PARENT, TID gone */
void nb_itimer_thread_create(ThreadId parent, ThreadId child);
void nb_itimer_thread_exit(ThreadId tid);

#endif /* NB_ITIMER_H */
