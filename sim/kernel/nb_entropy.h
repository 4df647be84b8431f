/*
 * nb_entropy.h - the kernel's random bytes on the simulated machine
 * (nb_entropy.c), for the front-end (nb_front.c).
 */
#ifndef NB_ENTROPY_H
#define NB_ENTROPY_H

#include "tool/nb_tool.h"

/* at start-up (after the options): the stream from --nbsim-seed and the
 * program's name */
void nb_entropy_init(void);
void nb_entropy_at_random(void);
/* fork: before it, in the parent; after it, in the child */
void nb_entropy_pre_fork(void);
void nb_entropy_child(void);
/* after a system call: getrandom's bytes, and reads of /dev/urandom and
 * /dev/random, from the stream; descriptors of those files followed */
void nb_entropy_post_syscall(UInt sysno, UWord *args, SysRes res);

#endif /* NB_ENTROPY_H */
