/*
 * vg_preload_nbsim.c - nbsim's preload library (vgpreload_nbsim-amd64-linux.so,
 * which valgrind loads into every guest of the tool): the guest's view of
 * a Linux kernel on a NetBurst, for the p4netburst component's msr and
 * perf backends, whose code must not know it is simulated.
 *
 * Valgrind function wrapping (valgrind.h I_WRAP_SONAME_FNNAME_ZU) of libc's
 * open/openat, read/pread/pwrite, close, ioctl, fcntl, mmap/munmap,
 * syscall (perf_event_open and ptrace only), sched_getcpu, ptrace (its
 * PTRACE_TRACEME, nb_kern_ptrace.c), raise and kill.  Each wrapper asks the
 * tool's emulated kernel (nb_kern.c, request NBSIM_REQ_KERN of
 * nbsim_kern.h) only for the paths and descriptors it emulates and calls
 * the real function for everything else.  Why wrapping and not the
 * syscalls: a valgrind tool cannot change a system call's result, while a
 * wrapper runs on the simulated CPU like any library code and the
 * backends' calls go through these libc entry points (sim/README.md
 * "Emulated kernel").  glibc's internal calls (fopen's open, for example)
 * bypass the wrappers: only direct calls see the emulated files.
 *
 * The descriptors are real (/dev/null, or a memfd for an emulated regular
 * file), so select, dup and the fd numbering behave; `mine` marks the ones
 * the tool knows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "nbsim_kern.h"
#include "vg_preload_sysfs.h"

static unsigned char mine[NBSIM_KERN_MAXFD];

/* An exec'd image inherits descriptors of the emulated kernel (those not
 * close-on-exec): ask which, once, as the image starts. */
__attribute__((constructor)) static void nbsim_preload_init(void)
{
	long r = nbsim_kern(KOP_FDS, (unsigned long)mine, sizeof(mine), 0, 0);

	if (r != 0)
		memset(mine, 0, sizeof(mine));
}

static long raw6(long n, long a, long b, long c, long d, long e, long f)
{
	long r;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;

	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			 "r"(r9) : "rcx", "r11", "memory");
	return r;
}

static int is_mine(long fd)
{
	return fd >= 0 && fd < NBSIM_KERN_MAXFD && mine[fd];
}

static long fail(long r)
{
	errno = (int)-r;
	return -1;
}

/* A real descriptor for emulated object H (handle from KOP_OPEN or
 * KOP_PERF_OPEN): /dev/null, or a memfd holding an emulated file. */
static long bind_fd(long h, int cloexec)
{
	long fd;

	if (h == NBSIM_KERN_FILE) {
		char buf[256];
		long n = nbsim_kern(KOP_FILE, (unsigned long)buf, sizeof(buf), 0, 0);

		fd = raw6(SYS_memfd_create, (long)"nbsim-kern", cloexec ? MFD_CLOEXEC : 0, 0, 0, 0, 0);
		if (fd < 0)
			return fail(fd);
		if (n > 0)
			raw6(SYS_write, fd, (long)buf, n, 0, 0, 0);
		raw6(SYS_lseek, fd, 0, SEEK_SET, 0, 0, 0);
		return fd;
	}
	{
		/* an event on another process: the FIFO its wakeups come by */
		char path[256];
		long n = nbsim_kern(KOP_EVPATH, (unsigned long)h, (unsigned long)path, sizeof(path), 0);

		fd = raw6(SYS_openat, AT_FDCWD,
			  (long)(n > 0 && n != NBSIM_KERN_PASS ? path : "/dev/null"),
			  O_RDWR | O_NONBLOCK | (cloexec ? O_CLOEXEC : 0), 0, 0, 0);
	}
	if (fd < 0) {
		nbsim_kern(KOP_CLOSE, (unsigned long)-h, 0, 0, 0);
		return fail(fd);
	}
	if (fd >= NBSIM_KERN_MAXFD) {
		raw6(SYS_close, fd, 0, 0, 0, 0, 0);
		nbsim_kern(KOP_CLOSE, (unsigned long)-h, 0, 0, 0);
		return fail(-EMFILE);
	}
	nbsim_kern(KOP_BIND, (unsigned long)fd, (unsigned long)h, 0, 0);
	mine[fd] = 1;
	return fd;
}

/* open(2) of PATH: the emulated kernel's answer, or PASS. */
static long kopen(const char *path, int flags)
{
	long h;

	if (!path || (strncmp(path, "/dev/cpu/", 9) && strncmp(path, "/proc/sys/kernel/perf_event", 27)))
		return NBSIM_KERN_PASS;
	h = nbsim_kern(KOP_OPEN, (unsigned long)path, (unsigned long)flags, 0, 0);
	if (h == NBSIM_KERN_PASS)
		return h;
	if (h < 0)
		return fail(h);
	return bind_fd(h, (flags & O_CLOEXEC) != 0);
}

#define LIBC libcZdsoZa
#define WRAP(fn) I_WRAP_SONAME_FNNAME_ZU(LIBC, fn)

#define OPEN_WRAPPER(fn)                                                   \
	int WRAP(fn)(const char *path, int flags, ...);                   \
	int WRAP(fn)(const char *path, int flags, ...)                    \
	{                                                                  \
		OrigFn o;                                                  \
		long r, mode = 0;                                          \
		va_list ap;                                                \
		char sbuf[512];                                            \
		VALGRIND_GET_ORIG_FN(o);                                   \
		va_start(ap, flags);                                       \
		if (flags & (O_CREAT | __O_TMPFILE))                       \
			mode = va_arg(ap, int);                            \
		va_end(ap);                                                \
		path = nbsim_sysfs_map(path, sbuf, sizeof sbuf);           \
		if (nbsim_is_maps(path) &&                                 \
		    (r = nbsim_maps_fd((flags & O_CLOEXEC) != 0)) != -2)  \
			return (int)r;                                     \
		r = kopen(path, flags);                                    \
		if (r != NBSIM_KERN_PASS)                                  \
			return (int)r;                                     \
		CALL_FN_W_WWW(r, o, path, flags, mode);                    \
		return (int)r;                                             \
	}
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)
OPEN_WRAPPER(__open_2)
OPEN_WRAPPER(__open64_2)

#define OPENAT_WRAPPER(fn)                                                 \
	int WRAP(fn)(int dirfd, const char *path, int flags, ...);        \
	int WRAP(fn)(int dirfd, const char *path, int flags, ...)         \
	{                                                                  \
		OrigFn o;                                                  \
		long r, mode = 0;                                          \
		va_list ap;                                                \
		char sbuf[512];                                            \
		VALGRIND_GET_ORIG_FN(o);                                   \
		va_start(ap, flags);                                       \
		if (flags & (O_CREAT | __O_TMPFILE))                       \
			mode = va_arg(ap, int);                            \
		va_end(ap);                                                \
		path = nbsim_sysfs_map_at(dirfd, path, sbuf, sizeof sbuf); \
		if (nbsim_is_maps(path) &&                                 \
		    (r = nbsim_maps_fd((flags & O_CLOEXEC) != 0)) != -2)  \
			return (int)r;                                     \
		r = path && path[0] == '/' ? kopen(path, flags) : NBSIM_KERN_PASS; \
		if (r != NBSIM_KERN_PASS)                                  \
			return (int)r;                                     \
		CALL_FN_W_WWWW(r, o, dirfd, path, flags, mode);            \
		return (int)r;                                             \
	}
OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)
OPENAT_WRAPPER(__openat_2)
OPENAT_WRAPPER(__openat64_2)

#define PRW_WRAPPER(fn, op, cbuf)                                          \
	ssize_t WRAP(fn)(int fd, cbuf void *buf, size_t n, off_t off);    \
	ssize_t WRAP(fn)(int fd, cbuf void *buf, size_t n, off_t off)     \
	{                                                                  \
		OrigFn o;                                                  \
		long r;                                                    \
		VALGRIND_GET_ORIG_FN(o);                                   \
		if (is_mine(fd)) {                                         \
			r = nbsim_kern(op, (unsigned long)fd, (unsigned long)buf, n, (unsigned long)off); \
			return r < 0 ? fail(r) : r;                        \
		}                                                          \
		CALL_FN_W_WWWW(r, o, fd, buf, n, off);                     \
		return r;                                                  \
	}
PRW_WRAPPER(pread, KOP_PREAD, )
PRW_WRAPPER(pread64, KOP_PREAD, )
PRW_WRAPPER(pwrite, KOP_PWRITE, const)
PRW_WRAPPER(pwrite64, KOP_PWRITE, const)

ssize_t WRAP(read)(int fd, void *buf, size_t n);
ssize_t WRAP(read)(int fd, void *buf, size_t n)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	if (is_mine(fd)) {
		r = nbsim_kern(KOP_PREAD, (unsigned long)fd, (unsigned long)buf, n, (unsigned long)-1L);
		return r < 0 ? fail(r) : r;
	}
	CALL_FN_W_WWW(r, o, fd, buf, n);
	{
		/* events another process opened on this one while it waited
		 * (nb_kern_attach.c); errno kept */
		int e = errno;

		nbsim_kern(KOP_ATTACH, 0, 0, 0, 0);
		errno = e;
	}
	return r;
}

int WRAP(close)(int fd);
int WRAP(close)(int fd)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	if (is_mine(fd)) {
		nbsim_kern(KOP_CLOSE, (unsigned long)fd, 0, 0, 0);
		mine[fd] = 0;
	}
	CALL_FN_W_W(r, o, fd);
	return (int)r;
}

int WRAP(ioctl)(int fd, unsigned long req, ...);
int WRAP(ioctl)(int fd, unsigned long req, ...)
{
	OrigFn o;
	long r;
	unsigned long arg;
	va_list ap;

	VALGRIND_GET_ORIG_FN(o);
	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (is_mine(fd)) {
		r = nbsim_kern(KOP_IOCTL, (unsigned long)fd, req, arg, 0);
		return r < 0 ? (int)fail(r) : (int)r;
	}
	CALL_FN_W_WWW(r, o, fd, req, arg);
	return (int)r;
}

#define FCNTL_WRAPPER(fn)                                                  \
	int WRAP(fn)(int fd, int cmd, ...);                               \
	int WRAP(fn)(int fd, int cmd, ...)                                \
	{                                                                  \
		OrigFn o;                                                  \
		long r;                                                    \
		unsigned long arg;                                         \
		va_list ap;                                                \
		VALGRIND_GET_ORIG_FN(o);                                   \
		va_start(ap, cmd);                                         \
		arg = va_arg(ap, unsigned long);                           \
		va_end(ap);                                                \
		if (is_mine(fd)) {                                         \
			r = nbsim_kern(KOP_FCNTL, (unsigned long)fd, (unsigned long)cmd, arg, 0); \
			if (r != NBSIM_KERN_PASS)                          \
				return r < 0 ? (int)fail(r) : (int)r;      \
		}                                                          \
		CALL_FN_W_WWW(r, o, fd, cmd, arg);                         \
		return (int)r;                                             \
	}
FCNTL_WRAPPER(fcntl)
FCNTL_WRAPPER(fcntl64)
FCNTL_WRAPPER(__fcntl)

/* The ring buffer of emulated event FD: anonymous shared memory, or for
 * an event on another process the file its nbsim writes (KOP_RBFILE),
 * mapped shared. */
static long rb_map(int fd, void *addr, size_t len)
{
	char path[256];
	long n = nbsim_kern(KOP_RBFILE, (unsigned long)fd, (unsigned long)path, sizeof(path), 0);
	long f, r;

	if (n <= 0 || n == NBSIM_KERN_PASS)
		return raw6(SYS_mmap, (long)addr, (long)len, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	f = raw6(SYS_openat, AT_FDCWD, (long)path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600, 0, 0);
	if (f < 0)
		return f;
	r = raw6(SYS_ftruncate, f, (long)len, 0, 0, 0, 0);
	if (r == 0)
		r = raw6(SYS_mmap, (long)addr, (long)len, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	raw6(SYS_close, f, 0, 0, 0, 0, 0);
	return r;
}

#define MMAP_WRAPPER(fn)                                                   \
	void *WRAP(fn)(void *addr, size_t len, int prot, int flags, int fd, off_t off); \
	void *WRAP(fn)(void *addr, size_t len, int prot, int flags, int fd, off_t off) \
	{                                                                  \
		OrigFn o;                                                  \
		long r;                                                    \
		VALGRIND_GET_ORIG_FN(o);                                   \
		if (is_mine(fd)) {                                         \
			r = rb_map(fd, addr, len);                         \
			if (r < 0 && r > -4096)                            \
				return (void *)fail(r);                    \
			{                                                  \
				long k = nbsim_kern(KOP_MMAP, (unsigned long)fd, (unsigned long)r, len, 0); \
				if (k < 0) {                               \
					raw6(SYS_munmap, r, (long)len, 0, 0, 0, 0); \
					return (void *)fail(k);            \
				}                                          \
			}                                                  \
			(void)prot;                                        \
			return (void *)r;                                  \
		}                                                          \
		CALL_FN_W_6W(r, o, addr, len, prot, flags, fd, off);       \
		return (void *)r;                                          \
	}
MMAP_WRAPPER(mmap)
MMAP_WRAPPER(mmap64)

int WRAP(munmap)(void *addr, size_t len);
int WRAP(munmap)(void *addr, size_t len)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	nbsim_kern(KOP_MUNMAP, (unsigned long)addr, len, 0, 0);
	CALL_FN_W_WW(r, o, addr, len);
	return (int)r;
}

/* syscall(2): perf_event_open is the emulated kernel's; the rest pass. */
long WRAP(syscall)(long n, long a, long b, long c, long d, long e, long f);
long WRAP(syscall)(long n, long a, long b, long c, long d, long e, long f)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	if (n == SYS_ptrace) {
		r = nbsim_kern(KOP_PTRACE, (unsigned long)a, (unsigned long)b, (unsigned long)c,
			       (unsigned long)d);
		if (r != NBSIM_KERN_PASS)
			return r < 0 ? fail(r) : r;
	}
	if (n == SYS_perf_event_open) {
		r = nbsim_kern(KOP_PERF_OPEN, (unsigned long)a,
			       ((unsigned long)(uint32_t)b) | ((unsigned long)(uint32_t)c << 32),
			       (unsigned long)d, (unsigned long)e);
		if (r != NBSIM_KERN_PASS) {
			if (r < 0)
				return fail(r);
			return bind_fd(r, (e & 8 /* PERF_FLAG_FD_CLOEXEC */) != 0);
		}
	}
	CALL_FN_W_7W(r, o, n, a, b, c, d, e, f);
	return r;
}

/* ptrace(2): PTRACE_TRACEME is emulated until the exec, whose new image
 * stops once (nb_kern_ptrace.c); requests on a tracee's registers are
 * refused when it is under nbsim; the rest is the real call. */
long WRAP(ptrace)(long req, ...);
long WRAP(ptrace)(long req, ...)
{
	OrigFn o;
	long r, pid;
	void *addr, *data;
	va_list ap;

	VALGRIND_GET_ORIG_FN(o);
	va_start(ap, req);
	pid = va_arg(ap, long);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);
	r = nbsim_kern(KOP_PTRACE, (unsigned long)req, (unsigned long)pid, (unsigned long)addr,
		       (unsigned long)data);
	if (r != NBSIM_KERN_PASS)
		return r < 0 ? fail(r) : r;
	CALL_FN_W_WWWW(r, o, req, pid, addr, data);
	return r;
}

/* raise(3), kill(2): a process that stopped itself (raise(SIGSTOP) for
 * its tracer) takes, as it goes on, the events opened on it meanwhile
 * (nb_kern_attach.c; as after a read).  errno kept. */
int WRAP(raise)(int sig);
int WRAP(raise)(int sig)
{
	OrigFn o;
	long r;
	int e;

	VALGRIND_GET_ORIG_FN(o);
	CALL_FN_W_W(r, o, sig);
	e = errno;
	nbsim_kern(KOP_ATTACH, 0, 0, 0, 0);
	errno = e;
	return (int)r;
}

int WRAP(kill)(pid_t pid, int sig);
int WRAP(kill)(pid_t pid, int sig)
{
	OrigFn o;
	long r;
	int e;

	VALGRIND_GET_ORIG_FN(o);
	CALL_FN_W_WW(r, o, pid, sig);
	e = errno;
	if (sig != 0 && (pid == 0 || pid == getpid()))
		nbsim_kern(KOP_ATTACH, 0, 0, 0, 0);
	errno = e;
	return (int)r;
}

/* poll(2), ppoll(2): an emulated event's descriptor that is readable
 * (a FIFO with its target's wakeups) is drained once reported, so that
 * a wakeup is reported once, as perf_poll does. */
static void drain(struct pollfd *p, nfds_t n)
{
	char b[64];

	for (nfds_t i = 0; i < n; i++)
		if (is_mine(p[i].fd) && (p[i].revents & POLLIN))
			while (raw6(SYS_read, p[i].fd, (long)b, sizeof(b), 0, 0, 0) > 0)
				;
}

int WRAP(poll)(struct pollfd *p, nfds_t n, int timeout);
int WRAP(poll)(struct pollfd *p, nfds_t n, int timeout)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	CALL_FN_W_WWW(r, o, p, n, timeout);
	if (r > 0)
		drain(p, n);
	return (int)r;
}

int WRAP(ppoll)(struct pollfd *p, nfds_t n, const struct timespec *t, const sigset_t *m);
int WRAP(ppoll)(struct pollfd *p, nfds_t n, const struct timespec *t, const sigset_t *m)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	CALL_FN_W_WWWW(r, o, p, n, t, m);
	if (r > 0)
		drain(p, n);
	return (int)r;
}

/* The simulated machine's logical processor of the calling thread. */
int WRAP(sched_getcpu)(void);
int WRAP(sched_getcpu)(void)
{
	OrigFn o;
	long r;

	VALGRIND_GET_ORIG_FN(o);
	r = nbsim_kern(KOP_GETCPU, 0, 0, 0, 0);
	if (r != NBSIM_KERN_PASS)
		return (int)r;
	CALL_FN_W_v(r, o);
	return (int)r;
}
