/*
 * backend_msr.c - the PMU through the Linux msr driver (/dev/cpu/N/msr:
 * pread/pwrite of 8 bytes at offset = MSR address; needs root or
 * CAP_SYS_RAWIO and `modprobe msr`).  P4NETBURST_MSR_DEV overrides the
 * device path: an absolute path with exactly one %d, replaced by the CPU
 * number (for example "/dev/cpu/%d/msr_safe" for LLNL's msr-safe driver),
 * and no other '%'.  It is read with secure_getenv (ignored in a setuid or
 * setgid program) and never used as a format: anything else disables the
 * backend with the reason.
 *
 * The registers belong to a logical CPU, not to a thread: like perfex on
 * perfctr-less kernels, this backend counts everything that runs on the
 * CPU.  program() binds the calling thread to the CPU it runs on, so that
 * the registers it programs are the ones it reads; the binding stays until
 * the thread unbinds itself.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "backend_regs.h"
#include "backend_msr.h"

struct nb_msr_sys nb_msr_sys = { open, pread, pwrite, close };

static __thread int msr_fd = -1;
static __thread int msr_cpu = -1;

#define MSR_DEV_DEFAULT "/dev/cpu/%d/msr"
#define MSR_DEV_MAX 200

/* The device path of CPU into PATH: P4NETBURST_MSR_DEV (validated) or the
 * default.  -1 with the reason in ERR if the variable is not acceptable. */
int nb_msr_dev_path(int cpu, char *path, size_t plen, char *err, size_t len)
{
	const char *f = secure_getenv("P4NETBURST_MSR_DEV"), *d;
	size_t n;

	if (!f || !*f)
		f = MSR_DEV_DEFAULT;
	n = strnlen(f, MSR_DEV_MAX + 1);
	d = strstr(f, "%d");
	if (n > MSR_DEV_MAX || f[0] != '/' || !d || strchr(f, '%') != d ||
	    strchr(d + 2, '%')) {
		snprintf(err, len, "P4NETBURST_MSR_DEV='%.*s%s' is not accepted: it must be an "
			 "absolute path of at most %d characters with exactly one %%d (the CPU) "
			 "and no other %%, e.g. /dev/cpu/%%d/msr_safe", MSR_DEV_MAX, f,
			 n > MSR_DEV_MAX ? "..." : "", MSR_DEV_MAX);
		return -1;
	}
	/* prefix, the CPU number, suffix: F is never a format */
	if ((size_t)snprintf(path, plen, "%.*s%d%s", (int)(d - f), f, cpu, d + 2) >= plen) {
		snprintf(err, len, "P4NETBURST_MSR_DEV: the path for CPU %d is too long", cpu);
		return -1;
	}
	return 0;
}

static int open_dev(int cpu, char *err, size_t len)
{
	char path[256];
	int fd;

	if (nb_msr_dev_path(cpu, path, sizeof(path), err, len))
		return -1;
	fd = nb_msr_sys.open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		snprintf(err, len, "cannot open %s: %s%s", path, strerror(errno),
			 errno == ENOENT ? " (load the msr driver: modprobe msr)" :
			 errno == EACCES || errno == EPERM ? " (needs root or CAP_SYS_RAWIO)" : "");
	return fd;
}

/* Bind the thread to its current CPU and open that CPU's device. */
static int attach(char *err, size_t len)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0) {
		snprintf(err, len, "sched_getcpu: %s", strerror(errno));
		return -1;
	}
	if (msr_fd >= 0 && cpu == msr_cpu)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		snprintf(err, len, "cannot bind the thread to CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	if (msr_fd >= 0)
		nb_msr_sys.close(msr_fd);
	msr_fd = open_dev(cpu, err, len);
	msr_cpu = msr_fd >= 0 ? cpu : -1;
	return msr_fd >= 0 ? 0 : -1;
}

static int msr_wr(uint32_t msr, uint64_t v, char *err, size_t len)
{
	if ((msr_fd < 0 && attach(err, len)) ||
	    nb_msr_sys.pwrite(msr_fd, &v, sizeof(v), msr) != (ssize_t)sizeof(v)) {
		if (msr_fd >= 0)
			snprintf(err, len, "WRMSR 0x%x on CPU %d failed: %s", msr, msr_cpu,
				 strerror(errno));
		return -1;
	}
	return 0;
}

static int msr_rdctr(unsigned ctr, uint64_t *v, char *err, size_t len)
{
	uint32_t msr = nb_counters[ctr].msr;

	if ((msr_fd < 0 && attach(err, len)) ||
	    nb_msr_sys.pread(msr_fd, v, sizeof(*v), msr) != (ssize_t)sizeof(*v)) {
		if (msr_fd >= 0)
			snprintf(err, len, "RDMSR 0x%x on CPU %d failed: %s", msr, msr_cpu,
				 strerror(errno));
		return -1;
	}
	*v &= NB_COUNTER_MASK;
	return 0;
}

static const struct nb_msr_io msr_io = { msr_wr, msr_rdctr };

NB_REGS_BACKEND_FUNCS(msr_regs, msr_io)

/* program() first binds the thread, so that every later access goes to
 * the CPU whose registers were programmed. */
static int msr_program(const struct nb_regs *r, int n, char *err, size_t len)
{
	if (attach(err, len))
		return -1;
	return msr_regs_program(r, n, err, len);
}

static int msr_probe(struct nb_cpu *cpu, char *why, size_t len)
{
	int fd;

	if (nb_native_cpu(cpu, why, len))
		return -1;
	fd = open_dev(sched_getcpu() < 0 ? 0 : sched_getcpu(), why, len);
	if (fd < 0)
		return -1;
	nb_msr_sys.close(fd);
	return 0;
}

const struct nb_backend nb_backend_msr = {
	.name = "msr",
	.probe = msr_probe,
	.program = msr_program,
	.enable = msr_regs_enable,
	.read = msr_regs_read,
	.zero = msr_regs_zero,
	.write_msrs = msr_regs_write_msrs,
};
