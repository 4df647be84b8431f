/*
 * nb_cpulist.h - the kernel's CPU lists of the simulated machine
 * (nb_cpulist.c).
 */
#ifndef NB_CPULIST_H
#define NB_CPULIST_H

#include "tool/nb_tool.h"

void nb_cpulist_post_syscall(UInt sysno, UWord *args, SysRes res);

#endif
