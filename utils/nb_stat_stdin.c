/*
 * nb_stat_stdin.c - standard input when PROGRAM runs several times (the
 * events take several runs): every run reads the same bytes.
 *
 * A regular file (or a block device) is read by each run from the offset
 * nb_stat was given it at.  A pipe, FIFO or socket is read to its end
 * before the first run into an anonymous memory file (memfd), which
 * becomes nb_stat's standard input and is rewound before each run.  A
 * terminal or another character device (/dev/null, /dev/zero) is left as
 * it is: nothing to replay.  With one run nothing is done, and a pipe
 * streams to the program as without nb_stat.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nb_stat.h"

static off_t start = -1;         /* where each run starts reading, or -1 */

int st_stdin_prepare(char *err, size_t len)
{
	struct stat st;
	char buf[65536];
	ssize_t n;
	int m;

	if (fstat(0, &st))
		return 0;                /* closed: nothing to replay */
	if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) {
		start = lseek(0, 0, SEEK_CUR);
		return 0;
	}
	if (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode))
		return 0;
	m = memfd_create("nb_stat-stdin", MFD_CLOEXEC);
	if (m < 0) {
		snprintf(err, len, "cannot keep standard input for the runs: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		n = read(0, buf, sizeof(buf));
		if (n == 0)
			break;
		if (n < 0 && errno == EINTR && !st_interrupted)
			continue;
		if (n < 0) {
			snprintf(err, len, "reading standard input: %s", strerror(errno));
			close(m);
			return -1;
		}
		for (ssize_t o = 0; o < n;) {
			ssize_t w = write(m, buf + o, (size_t)(n - o));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				snprintf(err, len, "cannot keep standard input for the runs: %s",
					 strerror(errno));
				close(m);
				return -1;
			}
			o += w;
		}
	}
	if (dup2(m, 0) < 0) {
		snprintf(err, len, "cannot keep standard input for the runs: %s", strerror(errno));
		close(m);
		return -1;
	}
	close(m);                        /* dup2 cleared close-on-exec on 0 */
	start = 0;
	return 0;
}

int st_stdin_rewind(char *err, size_t len)
{
	if (start >= 0 && lseek(0, start, SEEK_SET) != start) {
		snprintf(err, len, "cannot rewind standard input for the run: %s", strerror(errno));
		return -1;
	}
	return 0;
}
