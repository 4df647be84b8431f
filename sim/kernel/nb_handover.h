/*
 * nb_handover.h - a record a process hands to its next image across an
 * execve (nb_handover.c): written before the exec, read once by the new
 * image and removed.
 */
#ifndef NB_HANDOVER_H
#define NB_HANDOVER_H

#include "tool/nb_tool.h"

/* Write the len bytes at rec to path (mode 0600, truncated): True if all
 * were written; else the file is removed. */
Bool nb_handover_put(const HChar *path, const void *rec, Int len);

/* Read len bytes of path into rec and remove the file: True if there were
 * len bytes (the caller checks its record's own magic and owner). */
Bool nb_handover_take(const HChar *path, void *rec, Int len);

#endif
