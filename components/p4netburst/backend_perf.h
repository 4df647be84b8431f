/*
 * backend_perf.h - the system calls of the perf backend, replaceable so
 * that a test can check what the backend asks the kernel for.
 */
#ifndef NB_BACKEND_PERF_H
#define NB_BACKEND_PERF_H

#include <linux/perf_event.h>
#include <sys/types.h>

struct nb_perf_sys {
	int (*open)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags);
	int (*ioctl)(int fd, unsigned long req, unsigned long arg);
	ssize_t (*read)(int fd, void *buf, size_t n);
	int (*close)(int fd);
};

extern struct nb_perf_sys nb_perf_sys;

#endif
