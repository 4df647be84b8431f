/*
 * nb_stat_out.c - nb_stat's -o FILE: opened before PROGRAM runs, committed
 * after the report is written.
 *
 * A plain file (or a new one) is written as FILE.XXXXXX beside it and
 * renamed over FILE at the end, so a failed count leaves no half-written
 * file; a symbolic link is followed and the file it names replaced, the
 * link kept.  Anything else that exists is written in place: a device
 * (/dev/null, /dev/full), a FIFO, and an open descriptor named by
 * /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N (a shell's
 * >(command)) is used as it is, as a shell's redirection would: renaming
 * a file over those would replace the node (as root, /dev/null itself).
 * A directory is refused.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nb_stat.h"

/* The descriptor PATH names (/dev/fd/N and the like), or -1. */
static int named_fd(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	char *end;
	long n;

	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(path, dirs[i], strlen(dirs[i]))) {
			const char *s = path + strlen(dirs[i]);

			n = strtol(s, &end, 10);
			if (end != s && !*end && n >= 0 && n < INT_MAX)
				return (int)n;
		}
	return -1;
}

int st_out_open(struct st_out *o, const char *path)
{
	struct stat st;
	int n = named_fd(path);

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (n >= 0) {
		o->fd = fcntl(n, F_DUPFD_CLOEXEC, 3);
		return o->fd < 0 ? -1 : 0;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
			return o->fd < 0 ? -1 : 0;
		}
		/* a plain file, or a link to one: replace the file */
		if (!realpath(path, o->target))
			return -1;
	} else if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* a link to nothing yet: created through the link */
		o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
		return o->fd < 0 ? -1 : 0;
	} else {
		if (strlen(path) >= sizeof(o->target)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		strcpy(o->target, path);
	}
	snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", o->target);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		o->tmp[0] = 0;
		return -1;
	}
	{
		mode_t um = umask(0);

		umask(um);
		if (fchmod(o->fd, 0666 & ~um)) {
			st_out_abandon(o);
			return -1;
		}
	}
	return 0;
}

void st_out_abandon(struct st_out *o)
{
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = 0;
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
}

int st_out_commit(struct st_out *o, FILE *f)
{
	int bad = fflush(f) != 0;

	/* fsync: a plain file only (a pipe or a terminal has nothing to sync) */
	if (!bad && o->tmp[0])
		bad = fsync(o->fd) != 0;
	if (fclose(f) && !bad)
		bad = 1;
	o->fd = -1;
	if (!bad && o->tmp[0])
		bad = rename(o->tmp, o->target) != 0;
	if (bad) {
		int e = errno;

		if (o->tmp[0])
			unlink(o->tmp);
		errno = e;
		return -1;
	}
	return 0;
}
