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

/* CPU's device path into PATH: P4NETBURST_MSR_DEV (an absolute path with
 * exactly one %d and no other '%', read with secure_getenv) or
 * /dev/cpu/%d/msr; -1 with the reason in ERR if the variable is refused. */
int nb_msr_dev_path(int cpu, char *path, size_t plen, char *err, size_t len);

/* Put every CCCR, ESCR and PEBS MSR of the device open on FD back to its
 * power-on value, 0: what _exit() or SIGKILL of a counting program left
 * (utils/nb_msr_reset).  The number of registers changed, or -1 with the
 * reason in ERR. */
int nb_msr_clear(int fd, char *err, size_t len);

#endif
