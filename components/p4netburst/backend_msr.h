/*
 * backend_msr.h - the system calls of the msr backend, replaceable so that
 * a test can stand in for /dev/cpu/N/msr (where every 8-byte access at
 * offset M is MSR M, which no regular file can imitate).
 */
#ifndef NB_BACKEND_MSR_H
#define NB_BACKEND_MSR_H

#include <sys/types.h>

struct nb_msr_sys {
	int (*open)(const char *path, int flags, ...);
	ssize_t (*pread)(int fd, void *buf, size_t n, off_t off);
	ssize_t (*pwrite)(int fd, const void *buf, size_t n, off_t off);
	int (*close)(int fd);
};

extern struct nb_msr_sys nb_msr_sys;

#endif
