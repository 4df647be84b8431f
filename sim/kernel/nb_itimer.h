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
/* before a system call: a wait while ITIMER_REAL runs arms the host's
 * ITIMER_REAL for the simulated time left */
void nb_itimer_pre_syscall(ThreadId tid, UInt sysno);
/* after it: True if the call was such a wait (its time accounted) */
Bool nb_itimer_wait_end(ThreadId tid);
/* a fork's child: none armed */
void nb_itimer_fork(void);

#endif /* NB_ITIMER_H */
