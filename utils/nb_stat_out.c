/*
 * nb_stat_out.c - nb_stat's -o FILE: opened before PROGRAM runs, committed
 * after the report is written.
 *
 * A plain file (or a new one) is written as FILE.XXXXXX beside it and
 * renamed over FILE at the end, so a failed count leaves no half-written
 * file.  rename(2) replaces the name FILE, never what a link there names.
 *
 * A symbolic link is followed by open(2), not resolved and renamed over:
 * the file it names is opened (created if the link dangles) before the
 * run, truncated and written in place when the counts are ready (as a
 * shell's `>` would: the file keeps its inode, owner and mode; a failed
 * count leaves it as it was).  A link in a sticky world-writable
 * directory (/tmp) is followed only if the user or the directory's owner
 * owns it: the rule of Linux's fs.protected_symlinks, applied here too
 * because it guards open(2) only where the sysctl is on.  Without it, a
 * link another user planted as /tmp/report sends root's
 * -o /tmp/report to the file the link names (nb_stat once resolved links
 * with realpath(3) and renamed over the target, which the sysctl does not
 * guard at all).
 *
 * Anything else that exists is written in place: a device (/dev/null,
 * /dev/full) and an open descriptor named by /dev/stdout, /dev/stderr,
 * /dev/fd/N or /proc/self/fd/N (a shell's >(command)) are used as they
 * are, as a shell's redirection would: renaming a file over those would
 * replace the node (as root, /dev/null itself).  A FIFO is checked before
 * the run and opened when the counts are ready: opening it blocks until a
 * reader comes, and the program should not wait for that.  A directory is
 * refused.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nb_stat_out.h"

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

/* The fs.protected_symlinks rule (Documentation/admin-guide/sysctl/fs.rst,
 * fs/namei.c may_follow_link): a link in a sticky world-writable directory
 * is followed only by its owner, or when it belongs to the directory's
 * owner.  1 (and a reason in O->why) if LINK, with status LST, is not. */
static int protected_link(struct st_out *o, const char *link, const struct stat *lst)
{
	char dir[4096];
	const char *slash = strrchr(link, '/');
	struct stat ds;

	if (!slash)
		strcpy(dir, ".");
	else if (slash == link)
		strcpy(dir, "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - link), link);
	if (stat(dir, &ds))
		return 0;               /* the open below fails alike */
	if (!(ds.st_mode & S_ISVTX) || !(ds.st_mode & S_IWOTH))
		return 0;
	if (lst->st_uid == geteuid() || lst->st_uid == ds.st_uid)
		return 0;
	snprintf(o->why, sizeof(o->why), "a symbolic link owned by uid %u in the sticky "
		 "world-writable directory %s: not followed (another user may have planted it; "
		 "the rule of fs.protected_symlinks)", (unsigned)lst->st_uid, dir);
	return 1;
}

int st_out_open(struct st_out *o, const char *path)
{
	struct stat st, lst;
	int n = named_fd(path), islink;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->fd = -1;
	if (n >= 0) {
		o->fd = fcntl(n, F_DUPFD_CLOEXEC, 3);
		return o->fd < 0 ? -1 : 0;
	}
	islink = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
	if (islink && protected_link(o, path, &lst)) {
		errno = EACCES;
		return -1;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		if (S_ISFIFO(st.st_mode)) {
			/* opened when the counts are ready (st_out_begin) */
			if (access(path, W_OK))
				return -1;
			o->fifo = 1;
			return 0;
		}
		if (!S_ISREG(st.st_mode)) {
			o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
			return o->fd < 0 ? -1 : 0;
		}
	}
	if (islink) {
		/* through the link, truncated only when the counts are ready */
		o->fd = open(path, O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC, 0666);
		if (o->fd < 0)
			return -1;
		o->truncate = 1;
		return 0;
	}
	if (strlen(path) >= sizeof(o->target)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(o->target, path);
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

int st_out_begin(struct st_out *o)
{
	if (o->fifo) {
		o->fifo = 0;
		o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		return o->fd < 0 ? -1 : 0;
	}
	if (o->truncate && (ftruncate(o->fd, 0) || lseek(o->fd, 0, SEEK_SET) < 0))
		return -1;
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
