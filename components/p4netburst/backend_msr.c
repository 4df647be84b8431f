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
 * the thread unbinds itself.  Nothing saves the registers per thread (no
 * kernel help, unlike the perf backend and nbsim): two threads of the
 * process counting on one CPU would share the counters, so program()
 * refuses a CPU on which another thread of the process counts (from its
 * program() to its stop, enable(0)).
 *
 * It writes only the NetBurst PMU's MSRs, reserved bits zero (pmu_msr, from
 * the generated tables), and puts back what it found: the registers a
 * thread changed at its stop, all of them at PAPI's shutdown, at exit, on
 * a crash and on a signal whose default action ends the process (restore,
 * catch_signals).  What no code of the process sees, _exit(2) and SIGKILL,
 * leaves the PMU programmed, counting on for whatever runs next:
 * nb_msr_reset (utils/nb_msr_reset_main.c, nb_msr_clear below) puts every
 * CCCR, ESCR and PEBS MSR back to its power-on value.  No overflow
 * interrupt reaches user space through the msr driver: PAPI emulates
 * overflow in software.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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

static pid_t owner_pid;          /* the process cpu_owner describes */

static int own_cpu(int cpu, char *err, size_t len)
{
	pid_t me = gettid(), o;

	if (cpu < 0 || cpu >= MSR_MAX_CPUS)
		return 0;
	pthread_mutex_lock(&own_lock);
	/* a forked child inherits the table, not the threads it names:
	 * its own counting starts from none (zero_fork) */
	if (owner_pid != getpid()) {
		memset(cpu_owner, 0, sizeof cpu_owner);
		owner_pid = getpid();
	}
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

/*
 * The whitelist: only the NetBurst PMU's MSRs, from the generated tables
 * (native_events/pmu.txt: ESCRs, counters, CCCRs, the other PMU MSRs with
 * their writable bits), and in each only the bits that are not reserved.
 * WRITABLE gets the valid bits of MSR; 0 if MSR is not a PMU MSR.
 */
static int pmu_msr(uint32_t msr, uint64_t *writable)
{
	for (unsigned i = 0; i < nb_num_escrs; i++)
		if (nb_escrs[i].msr == msr) {
			*writable = NB_ESCR_VALID;
			return 1;
		}
	for (unsigned i = 0; i < NB_NUM_COUNTERS; i++) {
		if (nb_counters[i].msr == msr) {
			*writable = NB_COUNTER_MASK;
			return 1;
		}
		if (nb_counters[i].cccr_msr == msr) {
			*writable = NB_CCCR_VALID;
			return 1;
		}
	}
	for (unsigned i = 0; i < nb_num_msrs; i++)
		if (nb_msrs[i].addr == msr && nb_msrs[i].writable) {
			*writable = nb_msrs[i].writable;
			return 1;
		}
	return 0;
}

/*
 * What the backend found: the first write to (CPU, MSR) records the
 * register's value before it; msr_restore() writes them all back (stop,
 * the PAPI shutdown path, atexit).
 */
#define SAVED_MAX 256
static struct saved { int cpu; uint32_t msr; uint64_t v; pid_t tid; } saved[SAVED_MAX];
static int nsaved;
static pthread_mutex_t saved_lock = PTHREAD_MUTEX_INITIALIZER;

static void msr_restore_all(void);
static void restore(int all);

/*
 * A crash of the counting program (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
 * SIGABRT) must not leave the CPU's PMU programmed: the first save
 * installs handlers that put everything back and then hand the signal to
 * what was there before (the program's handler, or the default action,
 * re-raised).  A program that installs its own handlers later replaces
 * these (its handler may call PAPI_shutdown).
 *
 * A signal that ends the process by default (kill's SIGTERM, Ctrl-C's
 * SIGINT, a closed terminal's SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1/2,
 * SIGXCPU, SIGXFSZ; signal(7)) runs no atexit handler: where its action is
 * still the default at the first save, the same handler restores and then
 * re-raises it with the default action, so the process ends as it would
 * have (its wait status names the signal).  Where the program has a
 * handler of its own, that handler decides whether the process ends (and
 * the counting may go on): it is left alone, and an exit() from it
 * restores through atexit.  SIGPROF and SIGVTALRM are not taken: PAPI's
 * software overflow and multiplexing use their timers.
 */
static const int crash_sig[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
static const int term_sig[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ,
};
#define NCRASH ((int)(sizeof(crash_sig) / sizeof(crash_sig[0])))
#define NTERM ((int)(sizeof(term_sig) / sizeof(term_sig[0])))
static struct sigaction crash_old[NCRASH];

static void restore_if_free(void)
{
	/* not under saved_lock if the signal interrupted a save: skip then */
	if (pthread_mutex_trylock(&saved_lock) == 0) {
		pthread_mutex_unlock(&saved_lock);
		restore(1);
	}
}

static void on_crash(int sig, siginfo_t *si, void *uc)
{
	int k = 0;

	while (k < NCRASH && crash_sig[k] != sig)
		k++;
	restore_if_free();
	if (k == NCRASH)
		return;
	sigaction(sig, &crash_old[k], NULL);
	if ((crash_old[k].sa_flags & SA_SIGINFO) && crash_old[k].sa_sigaction)
		crash_old[k].sa_sigaction(sig, si, uc);
	else if (crash_old[k].sa_handler != SIG_DFL && crash_old[k].sa_handler != SIG_IGN)
		crash_old[k].sa_handler(sig);
	else
		raise(sig);               /* the default action, now reinstalled */
}

static void on_term(int sig)
{
	sigset_t one;

	restore_if_free();
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	/* raised while blocked (this handler's own mask): delivered, with the
	 * default action, when the unblock returns */
	raise(sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
}

static void catch_signals(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_crash;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (int k = 0; k < NCRASH; k++)
		sigaction(crash_sig[k], &sa, &crash_old[k]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigemptyset(&sa.sa_mask);
	for (int k = 0; k < NTERM; k++) {
		if (sigaction(term_sig[k], NULL, &old) || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO))
			continue;
		sigaction(term_sig[k], &sa, NULL);
	}
}

static int save_once(uint32_t msr, char *err, size_t len)
{
	static int registered;
	uint64_t v;
	int r = 0, i;

	pthread_mutex_lock(&saved_lock);
	for (i = 0; i < nsaved && (saved[i].cpu != msr_cpu || saved[i].msr != msr); i++)
		;
	if (i == nsaved) {
		if (nsaved == SAVED_MAX ||
		    nb_msr_sys.pread(msr_fd, &v, sizeof(v), msr) != (ssize_t)sizeof(v)) {
			snprintf(err, len, "RDMSR 0x%x on CPU %d (to restore it later) failed: %s", msr,
				 msr_cpu, nsaved == SAVED_MAX ? "too many registers" : strerror(errno));
			r = -1;
		} else {
			saved[nsaved].tid = (pid_t)syscall(SYS_gettid);
			saved[nsaved].cpu = msr_cpu;
			saved[nsaved].msr = msr;
			saved[nsaved++].v = v;
			if (!registered) {
				registered = atexit(msr_restore_all) == 0;
				catch_signals();
			}
		}
	}
	pthread_mutex_unlock(&saved_lock);
	return r;
}

/* Put back the registers the calling thread changed (ALL: every thread's),
 * CCCRs first (so that no counter runs on a half-restored configuration),
 * and forget them: the next write saves again. */
static void restore(int all)
{
	pid_t me = (pid_t)syscall(SYS_gettid);
	int k = 0;

	pthread_mutex_lock(&saved_lock);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < nsaved; i++) {
			char path[256];
			uint64_t w;
			int is_cccr = pmu_msr(saved[i].msr, &w) && w == NB_CCCR_VALID;
			int fd;

			if (is_cccr != (pass == 0) || (!all && saved[i].tid != me))
				continue;
			char why[256];

			if (nb_msr_dev_path(saved[i].cpu, path, sizeof(path), why, sizeof(why)))
				continue;
			fd = nb_msr_sys.open(path, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			(void)nb_msr_sys.pwrite(fd, &saved[i].v, sizeof(saved[i].v), saved[i].msr);
			nb_msr_sys.close(fd);
		}
	for (int i = 0; i < nsaved; i++)
		if (!all && saved[i].tid != me)
			saved[k++] = saved[i];
	nsaved = k;
	pthread_mutex_unlock(&saved_lock);
}

static void msr_restore_all(void)
{
	restore(1);
}

static int msr_wr(uint32_t msr, uint64_t v, char *err, size_t len)
{
	uint64_t writable;

	if (!pmu_msr(msr, &writable)) {
		snprintf(err, len, "WRMSR 0x%x refused: not a NetBurst PMU MSR (the msr backend "
			 "writes only those)", msr);
		return -1;
	}
	if (v & ~writable) {
		snprintf(err, len, "WRMSR 0x%x refused: value 0x%llx sets reserved bits 0x%llx", msr,
			 (unsigned long long)v, (unsigned long long)(v & ~writable));
		return -1;
	}
	if ((msr_fd < 0 && attach(err, len)) || save_once(msr, err, len) ||
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

/*
 * Every CCCR first (no counter runs on a half-cleared configuration), then
 * every ESCR and the other writable PMU MSRs (the PEBS and tagging MSRs,
 * IA32_DS_AREA), to 0: a CCCR without Enable (bit 12) stops its counter,
 * an ESCR with none of T0/T1 OS/USR (bits 0-3) counts in no privilege
 * level, IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT at 0 tag no uop and
 * arm no PEBS [SDM Vol. 3B 18.15 (the 2008 edition's NetBurst PMU
 * sections): CCCR and ESCR fields; native_events/pmu.txt]; 0 is also
 * what nbsim's PMU starts from.  The counters are left: disabled, they
 * count nothing.  An MSR the model lacks (IQ_ESCR0/1 after model 2)
 * fails its read and is passed over.  FD is CPU's device.  The number of
 * registers that were not 0, or -1 with the reason.
 */
int nb_msr_clear(int fd, char *err, size_t len)
{
	uint32_t m[NB_NUM_COUNTERS + 64 + 16];
	int n = 0, changed = 0;

	for (unsigned i = 0; i < NB_NUM_COUNTERS; i++)
		m[n++] = nb_counters[i].cccr_msr;
	for (unsigned i = 0; i < nb_num_escrs && n < (int)(sizeof(m) / sizeof(m[0])); i++)
		m[n++] = nb_escrs[i].msr;
	for (unsigned i = 0; i < nb_num_msrs && n < (int)(sizeof(m) / sizeof(m[0])); i++) {
		uint64_t w;

		if (nb_msrs[i].writable && pmu_msr(nb_msrs[i].addr, &w) && w != NB_CCCR_VALID &&
		    w != NB_ESCR_VALID && w != NB_COUNTER_MASK)
			m[n++] = nb_msrs[i].addr;
	}
	for (int i = 0; i < n; i++) {
		uint64_t v, zero = 0;

		if (nb_msr_sys.pread(fd, &v, sizeof(v), m[i]) != (ssize_t)sizeof(v) || !v)
			continue;
		if (nb_msr_sys.pwrite(fd, &zero, sizeof(zero), m[i]) != (ssize_t)sizeof(zero)) {
			snprintf(err, len, "WRMSR 0x%x: %s", m[i], strerror(errno));
			return -1;
		}
		changed++;
	}
	return changed;
}

static void msr_restore(int all)
{
	restore(all);
}

const struct nb_backend nb_backend_msr = {
	.name = "msr",
	.probe = msr_probe,
	.program = msr_program,
	.enable = msr_enable,
	.read = msr_regs_read,
	.zero = msr_regs_zero,
	.write_msrs = msr_regs_write_msrs,
	.restore = msr_restore,
};
