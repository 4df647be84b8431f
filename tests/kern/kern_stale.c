/*
 * kern_stale.c - the exec hand-off file of nbsim's emulated perf driver
 * (sim/kernel/nb_kern_exec.c) and another process that gets its pid
 * (tests/kern/t_kern_exec_stale.t).  Run under nbsim:
 *   kern_stale leave PROGRAM ARGS  opens a counting event whose descriptor
 *                                  survives an exec, prints "fd N", and execs
 *                                  PROGRAM (one nbsim does not run leaves the
 *                                  hand-off file behind)
 *   kern_stale probe N             reads descriptor N as an event: prints
 *                                  "probe N count" if the emulated driver
 *                                  has it, "probe N errno E" if not
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "leave")) {
		struct perf_event_attr a;
		int fd;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_HARDWARE;
		a.config = PERF_COUNT_HW_INSTRUCTIONS;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (fd < 0) {
			printf("open errno %d\n", errno);
			return 1;
		}
		printf("fd %d\n", fd);
		fflush(stdout);
		execv(argv[2], argv + 2);
		printf("exec errno %d\n", errno);
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "probe")) {
		uint64_t v;
		int fd = atoi(argv[2]);

		if (read(fd, &v, sizeof v) == (ssize_t)sizeof v)
			printf("probe %d count\n", fd);
		else
			printf("probe %d errno %d\n", fd, errno);
		return 0;
	}
	fprintf(stderr, "usage: kern_stale leave PROGRAM ARGS | probe FD\n");
	return 2;
}
