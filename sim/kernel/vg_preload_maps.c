/*
 * vg_preload_maps.c - the preload library's side of the program's own
 * /proc/self/maps (nb_kern_maps.c): which paths name this process's maps,
 * and a memory file holding what the tool answers, for the open, openat
 * (vg_preload_nbsim.c) and fopen (vg_preload_sysfs.c) wrappers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "nbsim_kern.h"
#include "vg_preload_sysfs.h"

/* the decimal number at *P (advanced past it); -1 if none */
static long number(const char **p)
{
	long v = -1;

	for (; **p >= '0' && **p <= '9'; (*p)++)
		v = (v < 0 ? 0 : v * 10) + (**p - '0');
	return v;
}

int nbsim_is_maps(const char *path)
{
	const char *p;

	if (!path || strncmp(path, "/proc/", 6))
		return 0;
	p = path + 6;
	if (!strcmp(p, "thread-self/maps"))
		return 1;
	if (!strncmp(p, "self", 4) && (p[4] == '/'))
		p += 4;
	else if (number(&p) != (long)getpid() || *p != '/')
		return 0;
	if (!strcmp(p, "/maps"))
		return 1;
	if (strncmp(p, "/task/", 6))
		return 0;
	p += 6;
	return number(&p) > 0 && !strcmp(p, "/maps");
}

int nbsim_maps_fd(int cloexec)
{
	size_t cap = 1 << 16;

	for (;;) {
		char *b = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		long n;
		int fd;

		if (b == MAP_FAILED)
			return -1;
		n = nbsim_kern(KOP_MAPS, (unsigned long)b, cap, 0, 0);
		if (n == NBSIM_KERN_PASS || n < 0) {
			munmap(b, cap);
			if (n == NBSIM_KERN_PASS)
				return -2;
			errno = (int)-n;
			return -1;
		}
		if ((size_t)n > cap) {
			/* (grew meanwhile: the mapping above is one line more) */
			munmap(b, cap);
			cap = ((size_t)n + 8192 + 4095) & ~(size_t)4095;
			continue;
		}
		fd = memfd_create("maps", cloexec ? MFD_CLOEXEC : 0);
		if (fd >= 0) {
			for (long off = 0; off < n; ) {
				ssize_t w = write(fd, b + off, (size_t)(n - off));
				if (w <= 0)
					break;
				off += w;
			}
			lseek(fd, 0, SEEK_SET);
		}
		munmap(b, cap);
		return fd;
	}
}
