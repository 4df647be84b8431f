/*
 * nb_progfile.h - the tool side of nb_stat (nb_progfile.c): the register
 * images of --nbsim-program written before the guest's first instruction,
 * and the counts file of --nbsim-counts written at exit.  Called through
 * the front-ends' hooks (nb_front.c).
 */
#ifndef NB_PROGFILE_H
#define NB_PROGFILE_H

#include "tool/nb_tool.h"

void nb_progfile_init(void);             /* after the PMU is set up        */
void nb_progfile_switch(ThreadId tid);   /* tid runs from now on           */
Bool nb_progfile_current(ThreadId tid);  /* ... it did already: nothing to do */
void nb_progfile_thread_exit(ThreadId tid);
void nb_progfile_fini(Int exitcode);
void nb_progfile_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs);
void nb_progfile_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs, SysRes res);

#endif
