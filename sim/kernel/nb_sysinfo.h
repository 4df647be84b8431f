/*
 * nb_sysinfo.h - sysinfo(2)'s figures of the simulated machine
 * (nb_sysinfo.c), called by the front-end after each system call.
 */
#ifndef NB_SYSINFO_H
#define NB_SYSINFO_H

#include "tool/nb_tool.h"

void nb_sysinfo_post_syscall(ThreadId tid, UInt sysno, UWord *args, SysRes res);

#endif /* NB_SYSINFO_H */
