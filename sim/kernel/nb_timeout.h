/*
 * nb_timeout.h - the simulated time a wait that runs out its time passes
 * (nb_timeout.c), for the front-end and the interval timers.
 */
#ifndef NB_TIMEOUT_H
#define NB_TIMEOUT_H

#include "tool/nb_tool.h"

/* before a system call: TID's wait's timeout, read while the arguments
 * still hold it */
void nb_timeout_pre_syscall(ThreadId tid, UInt sysno, const UWord *args);
/* after it (result RES): the ns of wall time it passed, ~0 if it did not
 * run out its time (or was no wait with a timeout) */
ULong nb_timeout_passed(ThreadId tid, UInt sysno, SysRes res);

#endif /* NB_TIMEOUT_H */
