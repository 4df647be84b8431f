/*
 * vg_preload_sysfs.h - the preload library's rewriting of the emulated
 * sysfs paths (vg_preload_sysfs.c), for the open wrappers of
 * vg_preload_nbsim.c.
 */
#ifndef VG_PRELOAD_SYSFS_H
#define VG_PRELOAD_SYSFS_H
#include <stddef.h>

/* PATH rewritten into BUF (N bytes) when it is under the emulated sysfs
 * description (the cpu PMU's directory, the list of PMUs, the CPUs and
 * NUMA nodes of /sys/devices/system, /proc/cpuinfo); otherwise PATH itself. */
const char *nbsim_sysfs_map(const char *path, char *buf, size_t n);
/* the same for PATH relative to the directory DIRFD (openat, faccessat) */
const char *nbsim_sysfs_map_at(int dirfd, const char *path, char *buf, size_t n);

/* 1 if PATH names this process's maps (/proc/self/maps, thread-self,
 * /proc/PID/maps, .../task/TID/maps: vg_preload_maps.c) */
int nbsim_is_maps(const char *path);
/* a memory file holding the program's maps without valgrind's
 * (nb_kern_maps.c), read from its start; -2: the tool does not answer
 * (open the real file); -1: errno set */
int nbsim_maps_fd(int cloexec);

#endif
