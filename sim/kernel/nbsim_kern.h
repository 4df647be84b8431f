/*
 * nbsim_kern.h - the client requests between nbsim's preload library
 * (vg_preload_nbsim.c, loaded into every guest) and the tool's emulated
 * kernel (nb_kern.c): the msr driver (/dev/cpu/N/msr), the Linux P4 perf
 * driver (perf_event_open) and /proc/sys/kernel/perf_event_paranoid.
 *
 * One request, NBSIM_REQ_KERN (op, a, b, c, d): the result is >= 0, or
 * -errno as the kernel would return it, or NBSIM_KERN_PASS ("not mine":
 * the preload calls the real libc function).  Emulated files are real
 * descriptors (opened on /dev/null by the preload) that the tool knows by
 * number (KOP_BIND); the preload marks them so that it asks the tool only
 * for those.  Not for programs: only the preload uses these.
 */
#ifndef NBSIM_KERN_H
#define NBSIM_KERN_H

#include "nbsim_client.h"

#define NBSIM_KERN_PASS (-100000)
/* NBSIM_REQ_TIME's pseudo-clock for the preload's getrusage(RUSAGE_CHILDREN)
 * and times(): the CPU time of the children waited for (nb_simwait.c) */
#define NBSIM_TIME_CHILDREN (-101)
/* NBSIM_REQ_TIME's pseudo-clock for the preload's pause and sigsuspend
 * (the ns argument: the wait's signal mask): NBSIM_OK if the process was
 * idle and the first wall-clock timer fired at once (nb_itimer.c), its
 * signal pending; else wait on the host */
#define NBSIM_TIME_IDLE (-102)
/* the emulated kernel's descriptors are below this */
#define NBSIM_KERN_MAXFD 1024

enum nbsim_kop {
	/* (path, flags) -> object handle > 0 | -errno | PASS */
	KOP_OPEN = 1,
	/* (fd, handle) -> 0: fd now stands for the object */
	KOP_BIND,
	/* (fd) -> 0 */
	KOP_CLOSE,
	/* (fd, buf, n, off) -> bytes | -errno; off -1: read(2) (file position) */
	KOP_PREAD,
	/* (fd, buf, n, off) -> bytes | -errno */
	KOP_PWRITE,
	/* (attr, pid | cpu << 32, group_fd, flags) -> handle > 0 | -errno */
	KOP_PERF_OPEN,
	/* (fd, request, arg) -> result | -errno */
	KOP_IOCTL,
	/* (fd, cmd, arg) -> result | -errno | PASS */
	KOP_FCNTL,
	/* (fd, addr, len) -> 0 | -errno: the preload mapped LEN anonymous
	 * shared bytes at ADDR for the event's ring buffer */
	KOP_MMAP,
	/* (addr) -> 0 */
	KOP_MUNMAP,
	/* () -> the calling thread's logical processor (sched_getcpu) */
	KOP_GETCPU,
	/* (buf, len) -> bytes: the content of an emulated regular file
	 * opened by KOP_OPEN with handle NBSIM_KERN_FILE */
	KOP_FILE,
	/* (map, len) -> 0: map[fd] = 1 for each descriptor the emulated
	 * kernel knows (the preload, at the start of an exec'd image) */
	KOP_FDS,
	/* (buf, len) -> length: the directory standing for
	 * /sys/bus/event_source/devices (the P4 PMU's "cpu" description,
	 * nb_kern_sysfs.c), made if absent */
	KOP_SYSFS,
	/* (fd, buf, len) -> length | PASS: the file the ring buffer of an
	 * event on another process lives in (the preload maps it shared, the
	 * target's nbsim writes it); PASS: an anonymous mapping */
	KOP_RBFILE,
	/* (handle, buf, len) -> length | PASS: the FIFO that an event on
	 * another process is as a descriptor (poll waits for its target's
	 * wakeups); PASS: /dev/null */
	KOP_EVPATH,
	/* () -> 0: after a read(2) of the guest, events another process
	 * opened on this one meanwhile come on (nb_kern_attach.c) */
	KOP_ATTACH,
	/* (request, pid, addr, data) -> 0 | -errno | PASS: ptrace(2)'s
	 * PTRACE_TRACEME (emulated until the exec: nb_kern_ptrace.c), and
	 * the refusals on a tracee under nbsim */
	KOP_PTRACE,
	/* (buf, len) -> length | -errno: the process's /proc/self/maps
	 * without valgrind's own mappings (nb_kern_maps.c); the whole
	 * length, which may exceed len */
	KOP_MAPS,
};

/* KOP_OPEN's handle of an emulated regular file (perf_event_paranoid):
 * the preload makes a memfd with the content KOP_FILE gives. */
#define NBSIM_KERN_FILE 0x7fffffff

static inline long nbsim_kern(long op, unsigned long a, unsigned long b, unsigned long c,
			      unsigned long d)
{
	return (long)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_KERN_PASS, NBSIM_REQ_KERN,
						     op, a, b, c, d);
}

#endif
