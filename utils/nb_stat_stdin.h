/*
 * nb_stat_stdin.h - standard input for several runs (nb_stat_stdin.c).
 */
#ifndef NB_STAT_STDIN_H
#define NB_STAT_STDIN_H

#include <stddef.h>

/* Standard input for several runs (nb_stat_stdin.c): made replayable
 * before the first (0, or -1 with a message), rewound before each. */
int st_stdin_prepare(char *err, size_t len);
int st_stdin_rewind(char *err, size_t len);

#endif
