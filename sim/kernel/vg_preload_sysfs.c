/*
 * vg_preload_sysfs.c - the preload library's view of the P4 PMU's sysfs
 * description: paths under /sys/bus/event_source/devices/cpu and
 * /sys/devices/cpu, the list of PMUs /sys/bus/event_source/devices (a
 * Pentium 4's), and the CPUs, their topology and NUMA node under
 * /sys/devices/system/cpu and /sys/devices/system/node (nb_kern_topo.c),
 * and /proc/cpuinfo (nb_kern_cpuinfo.c) lead to the tree the tool writes (nb_kern_sysfs.c, request KOP_SYSFS),
 * in the libc calls perf, libgomp, hwloc and PAPI make on them: fopen,
 * opendir, access, faccessat, stat, chdir here; open and openat in
 * vg_preload_nbsim.c (nbsim_sysfs_map).  glibc's internal calls bypass
 * the wrappers, as for the other emulated files
 * (docs/kernel-emulation.md "Mechanism").
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nbsim_kern.h"
#include "vg_preload_sysfs.h"

static char dir[256];    /* the tree; "" not asked yet, "-" none */

/* a path under PREFIX (the whole name, or a directory's) -> DIR + TO */
static const struct {
	const char *prefix, *to;
} maps[] = {
	{ "/sys/bus/event_source/devices/cpu", "/cpu" },
	{ "/sys/devices/cpu", "/cpu" },
	/* the CPU lists and the topology (nb_kern_topo.c): a cpuN the
	 * simulated machine lacks is not in the tree (ENOENT) */
	{ "/sys/devices/system/cpu", "/system/cpu" },
	{ "/sys/devices/system/node", "/system/node" },
	/* the list of PMUs, and any other under it (after cpu above): a
	 * P4's are links in it, one a P4 lacks is not there */
	{ "/sys/bus/event_source/devices", "/devices" },
};

/* DIR TO REST in BUF (the tree asked for once), or ORIG if there is no
 * tree */
static const char *tree_path(const char *orig, const char *to, const char *rest, char *buf, size_t n)
{
	if (!dir[0]) {
		long r = nbsim_kern(KOP_SYSFS, (unsigned long)dir, sizeof dir, 0, 0);

		if (r <= 0 || r == NBSIM_KERN_PASS)
			strcpy(dir, "-");
	}
	if (dir[0] == '-' || (size_t)snprintf(buf, n, "%s%s%s", dir, to, rest) >= n)
		return orig;
	return buf;
}

/* PATH rewritten to the tree in BUF if it is under one of the prefixes
 * above (the first that matches), else PATH. */
const char *nbsim_sysfs_map(const char *path, char *buf, size_t n)
{
	const char *orig = path;
	char norm[512];

	if (path && !strcmp(path, "/proc/cpuinfo"))
		return tree_path(path, "/proc/cpuinfo", "", buf, n);
	if (!path || strncmp(path, "/sys/", 5))
		return path;
	/* "//" is "/" to the kernel: PAPI's sysdetect asks for
	 * "/sys/devices/system//cpu/cpu0" */
	if (strstr(path, "//")) {
		size_t j = 0;

		if (strlen(path) >= sizeof norm)
			return orig;
		for (const char *c = path; *c; c++)
			if (c[0] != '/' || c[1] != '/')
				norm[j++] = *c;
		norm[j] = 0;
		path = norm;
	}
	for (unsigned i = 0; i < sizeof maps / sizeof maps[0]; i++) {
		size_t k = strlen(maps[i].prefix);

		if (strncmp(path, maps[i].prefix, k) || (path[k] && path[k] != '/'))
			continue;
		return tree_path(orig, maps[i].to, path + k, buf, n);
	}
	return orig;
}

/* PATH relative to DIRFD: "cpuinfo" in a descriptor of /proc (lscpu's
 * util-linux path handles open their files so) is /proc/cpuinfo; an
 * absolute PATH as nbsim_sysfs_map */
const char *nbsim_sysfs_map_at(int dirfd, const char *path, char *buf, size_t n)
{
	char fdp[40], to[16];
	ssize_t k;

	if (!path || path[0] == '/' || dirfd < 0 || strcmp(path, "cpuinfo"))
		return nbsim_sysfs_map(path, buf, n);
	snprintf(fdp, sizeof fdp, "/proc/self/fd/%d", dirfd);
	k = readlink(fdp, to, sizeof to - 1);
	if (k != 5 || memcmp(to, "/proc", 5))
		return path;
	return nbsim_sysfs_map("/proc/cpuinfo", buf, n);
}

#define LIBC libcZdsoZa
#define WRAP(fn) I_WRAP_SONAME_FNNAME_ZU(LIBC, fn)

#define FOPEN_WRAPPER(fn)                                                  \
	FILE *WRAP(fn)(const char *path, const char *mode);               \
	FILE *WRAP(fn)(const char *path, const char *mode)                \
	{                                                                  \
		OrigFn o;                                                  \
		FILE *r;                                                   \
		char buf[512];                                             \
		VALGRIND_GET_ORIG_FN(o);                                   \
		path = nbsim_sysfs_map(path, buf, sizeof buf);             \
		if (nbsim_is_maps(path)) {                                 \
			int fd = nbsim_maps_fd(strchr(mode, 'e') != NULL); \
			if (fd >= 0)                                       \
				return fdopen(fd, mode);                   \
			if (fd == -1)                                      \
				return NULL;                               \
		}                                                          \
		CALL_FN_W_WW(r, o, path, mode);                            \
		return r;                                                  \
	}
FOPEN_WRAPPER(fopen)
FOPEN_WRAPPER(fopen64)

DIR *WRAP(opendir)(const char *path);
DIR *WRAP(opendir)(const char *path)
{
	OrigFn o;
	DIR *r;
	char buf[512];

	VALGRIND_GET_ORIG_FN(o);
	path = nbsim_sysfs_map(path, buf, sizeof buf);
	CALL_FN_W_W(r, o, path);
	return r;
}

int WRAP(access)(const char *path, int mode);
int WRAP(access)(const char *path, int mode)
{
	OrigFn o;
	long r;
	char buf[512];

	VALGRIND_GET_ORIG_FN(o);
	path = nbsim_sysfs_map(path, buf, sizeof buf);
	CALL_FN_W_WW(r, o, path, mode);
	return (int)r;
}

/* hwloc asks faccessat with an absolute path (its file-system root is
 * "/"): a relative one, or one under a directory descriptor, passes */
int WRAP(faccessat)(int dirfd, const char *path, int mode, int flags);
int WRAP(faccessat)(int dirfd, const char *path, int mode, int flags)
{
	OrigFn o;
	long r;
	char buf[512];

	VALGRIND_GET_ORIG_FN(o);
	path = nbsim_sysfs_map_at(dirfd, path, buf, sizeof buf);
	CALL_FN_W_WWWW(r, o, dirfd, path, mode, flags);
	return (int)r;
}

/* a shell's cd into the tree's directories: relative names then open
 * the tree's files (getcwd names the tree) */
int WRAP(chdir)(const char *path);
int WRAP(chdir)(const char *path)
{
	OrigFn o;
	long r;
	char buf[512];

	VALGRIND_GET_ORIG_FN(o);
	path = nbsim_sysfs_map(path, buf, sizeof buf);
	CALL_FN_W_W(r, o, path);
	return (int)r;
}

#define STAT_WRAPPER(fn, st)                                               \
	int WRAP(fn)(const char *path, struct st *sb);                    \
	int WRAP(fn)(const char *path, struct st *sb)                     \
	{                                                                  \
		OrigFn o;                                                  \
		long r;                                                    \
		char buf[512];                                             \
		VALGRIND_GET_ORIG_FN(o);                                   \
		path = nbsim_sysfs_map(path, buf, sizeof buf);             \
		CALL_FN_W_WW(r, o, path, sb);                              \
		return (int)r;                                             \
	}
STAT_WRAPPER(stat, stat)
STAT_WRAPPER(stat64, stat64)
STAT_WRAPPER(lstat, stat)
STAT_WRAPPER(lstat64, stat64)
