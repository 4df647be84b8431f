/*
 * nb_stat_stdin.c - standard input when PROGRAM runs several times (the
 * events take several runs): every run reads the same bytes.
 *
 * A regular file (or a block device) is read by each run from the offset
 * nb_stat was given it at.  A pipe, FIFO or socket streams to the first
 * run through a copier (a child of nb_stat) that keeps every byte it
 * passes on in an anonymous memory file (memfd); after the first run the
 * copier stops, and that file, rewound, is the later runs' standard
 * input: they read what the first run was given (a deterministic program
 * reads no more).  Not read to its end first: a pipe whose writer never
 * closes it (mpirun's, for the ranks other than 0) hung nb_stat before
 * the first run.  A terminal or another character device (/dev/null,
 * /dev/zero) is left as it is: nothing to replay.  With one run nothing
 * is done, and a pipe streams to the program as without nb_stat.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nb_stat_stdin.h"

static off_t start = -1;         /* where each run starts reading, or -1 */
static pid_t copier = -1;        /* the first run's copier, or -1        */
static int kept = -1;            /* the memfd it fills                   */
static int runs;                 /* runs started                          */

static int write_all(int fd, const char *b, ssize_t n)
{
	for (ssize_t o = 0; o < n;) {
		ssize_t w = write(fd, b + o, (size_t)(n - o));

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		o += w;
	}
	return 0;
}

/* the copier: standard input to the memfd m, then to the pipe w, until
 * the end of either (the program gone: EPIPE) */
static void copy(int m, int w)
{
	char buf[65536];

	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		ssize_t n = read(0, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || write_all(m, buf, n) || write_all(w, buf, n))
			_exit(0);
	}
}

/* nb_stat ends before a second run (a failure, a signal): the copier
 * must not outlive it, waiting on a pipe that never ends */
static void stop_copier(void)
{
	if (copier > 0) {
		kill(copier, SIGKILL);
		while (waitpid(copier, NULL, 0) < 0 && errno == EINTR)
			;
		copier = -1;
	}
}

int st_stdin_prepare(char *err, size_t len)
{
	struct stat st;
	int m, p[2];
	pid_t pid;

	if (fstat(0, &st))
		return 0;                /* closed: nothing to replay */
	if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) {
		start = lseek(0, 0, SEEK_CUR);
		return 0;
	}
	if (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode))
		return 0;
	m = memfd_create("nb_stat-stdin", MFD_CLOEXEC);
	if (m < 0 || pipe2(p, O_CLOEXEC)) {
		snprintf(err, len, "cannot keep standard input for the runs: %s", strerror(errno));
		if (m >= 0)
			close(m);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "cannot keep standard input for the runs: fork: %s",
			 strerror(errno));
		close(m);
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		/* (nb_stat's handlers forward signals to PROGRAM: not ours) */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		close(p[0]);
		copy(m, p[1]);
	}
	close(p[1]);
	if (dup2(p[0], 0) < 0) {
		snprintf(err, len, "cannot keep standard input for the runs: %s", strerror(errno));
		close(p[0]);
		close(m);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(p[0]);                     /* dup2 cleared close-on-exec on 0 */
	copier = pid;
	atexit(stop_copier);
	kept = m;
	start = 0;
	return 0;
}

int st_stdin_rewind(char *err, size_t len)
{
	if (runs++ && copier > 0) {
		/* the first run is over: the copier stops (it may wait on a
		 * pipe that never ends), its copy becomes standard input */
		stop_copier();
		if (dup2(kept, 0) < 0) {
			snprintf(err, len, "cannot rewind standard input for the run: %s",
				 strerror(errno));
			return -1;
		}
		close(kept);
		kept = -1;
	}
	if (runs > 1 || copier < 0)
		if (start >= 0 && lseek(0, start, SEEK_SET) != start) {
			snprintf(err, len, "cannot rewind standard input for the run: %s",
				 strerror(errno));
			return -1;
		}
	return 0;
}
