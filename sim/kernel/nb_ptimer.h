/*
 * nb_ptimer.h - POSIX timers in simulated time (nb_ptimer.c), for the
 * front-end's clock requests (nb_front.c) and the interval timers' checks
 * and waits (nb_itimer.c); they read the time base (nb_simtime.c).
 */
#ifndef NB_PTIMER_H
#define NB_PTIMER_H

#include "tool/nb_tool.h"

/* NBSIM_REQ_PTIMER (nbsim_client.h): ARG[1] the operation, ARG[2..5] its
 * arguments; the result, -errno or NBSIM_PT_HOST */
Word nb_ptimer_request(ThreadId tid, const UWord *arg);
/* expired timers signal; True if any signal was sent */
Bool nb_ptimer_check(void);
/* ns to the earliest expiry (~0: none armed); WALL_ONLY: of the wall-clock
 * timers that signal */
ULong nb_ptimer_left_ns(Bool wall_only);
/* ns to the earliest expiry of the wall-clock timers that signal, and
 * its signal in *SIGNO (~0: none) */
ULong nb_ptimer_next(Int *signo);
/* a wait begins: the earliest signalling wall-clock timer gets a host
 * stand-in; its ns left (~0: none) */
ULong nb_ptimer_standin(void);
/* the wait ended: the stand-in deleted; True if it fired (its signal sent) */
Bool nb_ptimer_standin_end(void);
/* a fork's child: none */
void nb_ptimer_fork(void);

#endif /* NB_PTIMER_H */
