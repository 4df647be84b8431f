/*
 * nb_rawsh.h - the batched static counts in the running thread's shadow
 * guest state (nb_rawsh.c).
 */
#ifndef NB_RAWSH_H
#define NB_RAWSH_H

#include "nb_tool.h"

/* the guest-state offset (for IR Get/Put) of nb_raw[raw]'s word, -1 if
 * nb_raw[raw] is not one held there */
Int nb_rawsh_offset(UInt raw);
/* tid starts running client code */
void nb_rawsh_start(ThreadId tid);
/* inside generated code (a helper): what the running thread's words
 * gained since the last pull, into nb_raw */
void nb_rawsh_pull(void);
/* tid stops running client code: its words into nb_raw, zeroed */
void nb_rawsh_stop(ThreadId tid);

#endif /* NB_RAWSH_H */
