/*
 * nb_stat_out.h - -o FILE (nb_stat_out.c).
 */
#ifndef NB_STAT_OUT_H
#define NB_STAT_OUT_H

#include <stdio.h>

/* -o FILE (nb_stat_out.c): opened before PROGRAM runs (0, or -1 with
 * errno, and the reason in WHY if errno's text is not it), begun when the
 * counts are ready (0, or -1 with errno), written through FD, then
 * committed (0, or -1 with errno) or abandoned (a temporary file
 * removed). */
struct st_out {
	const char *path;        /* as given (expanded)                      */
	int fd;
	int fifo;                /* a FIFO: opened by st_out_begin           */
	int truncate;            /* through a link: truncated by st_out_begin */
	char target[4096];       /* the plain file replaced at the end, or "" */
	char tmp[4096 + 8];      /* its temporary file, or "": written in place */
	char why[4400];
};
int st_out_open(struct st_out *o, const char *path);
int st_out_begin(struct st_out *o);
int st_out_commit(struct st_out *o, FILE *f);
void st_out_abandon(struct st_out *o);

#endif
