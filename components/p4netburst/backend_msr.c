/*
 * backend_msr.c - the PMU through the Linux msr driver (/dev/cpu/N/msr:
 * pread/pwrite of 8 bytes at offset = MSR address; needs root or
 * CAP_SYS_RAWIO and `modprobe msr`).  P4NETBURST_MSR_DEV overrides the
 * device path, a printf format with one %d for the CPU (for example
 * "/dev/cpu/%d/msr_safe" for LLNL's msr-safe driver).
 *
 * The registers belong to a logical CPU, not to a thread: like perfex on
 * perfctr-less kernels, this backend counts everything that runs on the
 * CPU.  program() binds the calling thread to the CPU it runs on, so that
 * the registers it programs are the ones it reads; the binding stays until
 * the thread unbinds itself.  Nothing saves the registers per thread (no
 * kernel help, unlike the perf backend and nbsim): two threads of the
 * process counting on one CPU would share the counters, so program()
 * refuses a CPU on which another thread of the process counts (from its
 * program() to its stop, enable(0)).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

/* The thread (kernel tid) of this process counting on each CPU, 0: none. */
#define MSR_MAX_CPUS 4096
static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t cpu_owner[MSR_MAX_CPUS];

static int own_cpu(int cpu, char *err, size_t len)
{
	pid_t me = gettid(), o;

	if (cpu < 0 || cpu >= MSR_MAX_CPUS)
		return 0;
	pthread_mutex_lock(&own_lock);
	o = cpu_owner[cpu];
	if (!o || o == me)
		cpu_owner[cpu] = me;
	pthread_mutex_unlock(&own_lock);
	if (o && o != me) {
		snprintf(err, len, "CPU %d already counts for thread %d of this process: the msr "
			 "backend counts by CPU, nothing saves the registers per thread; bind the "
			 "counting threads to distinct CPUs (at most one per logical processor), or "
			 "use the perf backend", cpu, (int)o);
		return -1;
	}
	return 0;
}

static void disown_cpu(void)
{
	pthread_mutex_lock(&own_lock);
	if (msr_cpu >= 0 && msr_cpu < MSR_MAX_CPUS && cpu_owner[msr_cpu] == gettid())
		cpu_owner[msr_cpu] = 0;
	pthread_mutex_unlock(&own_lock);
}

static const char *dev_format(void)
{
	const char *f = getenv("P4NETBURST_MSR_DEV");

	return f && *f ? f : "/dev/cpu/%d/msr";
}

static int open_dev(int cpu, char *err, size_t len)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), dev_format(), cpu);
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
	if (attach(err, len) || own_cpu(msr_cpu, err, len))
		return -1;
	return msr_regs_program(r, n, err, len);
}

/* Stopping gives the CPU back to the process's other threads. */
static int msr_enable(const struct nb_regs *r, int n, int on, char *err, size_t len)
{
	int rc = msr_regs_enable(r, n, on, err, len);

	if (!on)
		disown_cpu();
	return rc;
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
	.enable = msr_enable,
	.read = msr_regs_read,
	.zero = msr_regs_zero,
	.write_msrs = msr_regs_write_msrs,
};
