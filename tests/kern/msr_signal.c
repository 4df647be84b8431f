/*
 * msr_signal.c - the msr backend puts every PMU register back when the
 * counting process ends by a signal it can catch, and nb_msr_clear resets
 * what _exit() and SIGKILL leave (run under nbsim, which gives the CPUID
 * of a NetBurst; tests/kern/t_kern_msr_signal.t).
 *
 * The registers must outlive the process that counts, so the device is a
 * stand-in (backend_msr.h, nb_msr_sys): every PMU MSR of the tables in a
 * shared mapping, read and written by a forked child that counts
 * (P4NETBURST_BACKEND=msr) and ends in one of the ways under test; the
 * parent then compares every register with the values it put there
 * first, as another user would have left them.
 *
 * Ways: exit() (the atexit restore, for reference), SIGTERM, SIGINT,
 * SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1 by default action (restored, the
 * process dies of the signal: the backend's handler re-raises it); SIGTERM
 * with the program's own handler, installed before PAPI, that calls
 * exit() (the handler is the program's, the atexit restore runs); SIGTERM
 * with a handler that returns (counting goes on: nothing restored before
 * the program stops); _exit() and SIGKILL (nothing can run: registers left
 * programmed, then nb_msr_clear puts every CCCR, ESCR and PEBS MSR at 0).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "papi.h"
#include "nbtap.h"
#include "nb_backend.h"
#include "nb_events.h"
#include "backend_msr.h"

#define NMSR 0x400               /* the PMU's MSRs are all below 0x400 */

static uint64_t *dev;            /* shared: the registers by address */
static unsigned char has[NMSR];  /* the MSRs the stand-in has */
static uint64_t prior[NMSR];

static int sd_open(const char *path, int flags, ...)
{
	(void)path;
	(void)flags;
	return open("/dev/null", O_RDWR | O_CLOEXEC);
}

static ssize_t sd_pread(int fd, void *buf, size_t n, off_t off)
{
	(void)fd;
	if (n != 8 || off < 0 || off >= NMSR || !has[off]) {
		errno = EIO;
		return -1;
	}
	memcpy(buf, &dev[off], 8);
	return 8;
}

static ssize_t sd_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	(void)fd;
	if (n != 8 || off < 0 || off >= NMSR || !has[off]) {
		errno = EIO;
		return -1;
	}
	memcpy(&dev[off], buf, 8);
	return 8;
}

static void stand_in(void)
{
	nb_msr_sys.open = sd_open;
	nb_msr_sys.pread = sd_pread;
	nb_msr_sys.pwrite = sd_pwrite;
}

/* what another user left: distinctive values within each register's
 * valid bits, CCCRs disabled */
static void seed(void)
{
	uint64_t k = 0x9e3779b97f4a7c15ull;

	for (int m = 0; m < NMSR; m++) {
		uint64_t w = 0;

		if (!has[m])
			continue;
		for (unsigned i = 0; i < nb_num_escrs; i++)
			if (nb_escrs[i].msr == (uint32_t)m)
				w = NB_ESCR_VALID;
		for (unsigned i = 0; i < NB_NUM_COUNTERS; i++) {
			if (nb_counters[i].msr == (uint32_t)m)
				w = NB_COUNTER_MASK;
			if (nb_counters[i].cccr_msr == (uint32_t)m)
				w = NB_CCCR_VALID & ~NB_CCCR_ENABLE;
		}
		for (unsigned i = 0; i < nb_num_msrs; i++)
			if (nb_msrs[i].addr == (uint32_t)m && nb_msrs[i].writable)
				w = nb_msrs[i].writable;
		k = k * 6364136223846793005ull + 1442695040888963407ull;
		dev[m] = prior[m] = (k >> 11) & w;
	}
}

/* registers that differ from PRIOR (WHEN: say which, else quiet) */
static int changed(const char *when)
{
	int n = 0;

	for (int m = 0; m < NMSR; m++)
		if (has[m] && dev[m] != prior[m] && n++ < 3 && when)
			tap_diag("  %s: MSR 0x%x is 0x%llx, was 0x%llx", when, m,
				 (unsigned long long)dev[m], (unsigned long long)prior[m]);
	return n;
}

static void loop(long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static void exit_handler(int sig)
{
	(void)sig;
	exit(0);
}

static volatile sig_atomic_t got;

static void note_handler(int sig)
{
	got = sig;
}

enum how { H_EXIT, H_SIG, H_SIG_EXIT_HANDLER, H_SIG_RETURN_HANDLER, H_UNDERSCORE_EXIT, H_KILL };

/* the child: count, then end as HOW says (SIG) */
static void child(enum how how, int sig)
{
	int es = PAPI_NULL;
	long long v[2];

	stand_in();
	/* "the default action": whatever this test was started with (a
	 * shell's background job starts with SIGINT and SIGQUIT ignored,
	 * POSIX 2.11; a CI runner may block signals) */
	if (how == H_SIG) {
		sigset_t one;

		signal(sig, SIG_DFL);
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
	}
	if (how == H_SIG_EXIT_HANDLER)
		signal(sig, exit_handler);
	if (how == H_SIG_RETURN_HANDLER)
		signal(sig, note_handler);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		_exit(90);
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, "PAPI_TOT_INS") != PAPI_OK ||
	    PAPI_add_named_event(es, "PAPI_TOT_CYC") != PAPI_OK || PAPI_start(es) != PAPI_OK)
		_exit(91);
	loop(10000);
	if (!changed(NULL))
		_exit(92);                       /* the set is not in the registers */
	switch (how) {
	case H_EXIT:
		exit(0);
	case H_SIG:
	case H_SIG_EXIT_HANDLER:
		raise(sig);
		_exit(93);                       /* not reached */
	case H_SIG_RETURN_HANDLER:
		raise(sig);
		if (got != sig)
			_exit(94);
		/* the program goes on counting: the registers are still the set's */
		if (!changed(NULL))
			_exit(95);
		loop(1000);
		/* (the stand-in's counters do not count: no value to check) */
		if (PAPI_stop(es, v) != PAPI_OK)
			_exit(96);
		_exit(changed(NULL) ? 97 : 0);
	case H_UNDERSCORE_EXIT:
		_exit(0);
	case H_KILL:
		kill(getpid(), SIGKILL);
		_exit(98);
	}
}

static int run(enum how how, int sig)
{
	pid_t pid;
	int st;

	seed();
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail("fork");
	if (pid == 0) {
		child(how, sig);
		_exit(99);
	}
	if (waitpid(pid, &st, 0) != pid)
		tap_bail("waitpid");
	return st;
}

int main(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1 };
	char err[256];
	int st;

	dev = mmap(NULL, NMSR * sizeof(*dev), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (dev == MAP_FAILED)
		tap_bail("mmap");
	for (unsigned i = 0; i < nb_num_escrs; i++)
		has[nb_escrs[i].msr] = 1;
	for (unsigned i = 0; i < NB_NUM_COUNTERS; i++)
		has[nb_counters[i].msr] = has[nb_counters[i].cccr_msr] = 1;
	for (unsigned i = 0; i < nb_num_msrs; i++)
		if (nb_msrs[i].addr < NMSR)
			has[nb_msrs[i].addr] = 1;
	setenv("P4NETBURST_BACKEND", "msr", 1);
	{
		/* SIGQUIT's default action dumps core: none (valgrind's vgcore) */
		struct rlimit rl = { 0, 0 };

		setrlimit(RLIMIT_CORE, &rl);
	}

	st = run(H_EXIT, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exit(): the child counted and exited (status %#x)", st);
	tap_is(changed("exit"), 0, "exit(): every PMU register as it was (atexit)");

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		const char *ab = sigabbrev_np(sigs[i]);

		st = run(H_SIG, sigs[i]);
		tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i],
		       "SIG%s, default action: the process dies of SIG%s (status %#x)", ab, ab, st);
		tap_is(changed(ab), 0, "SIG%s, default action: every PMU register as it was", ab);
	}

	st = run(H_SIG_EXIT_HANDLER, SIGTERM);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "SIGTERM, the program's handler (before PAPI) calls exit(): it ran (status %#x)", st);
	tap_is(changed("handler exit"), 0, "SIGTERM, the program's handler calls exit(): every PMU "
	       "register as it was");

	st = run(H_SIG_RETURN_HANDLER, SIGTERM);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "SIGTERM, the program's handler returns: the "
	       "registers stay the set's, PAPI_stop restores them (status %#x: 0 ok, 95 restored "
	       "under the running set, 97 not restored at the stop)", st);

	/* what nothing in the process sees: the documented reset */
	for (int k = 0; k < 2; k++) {
		const char *what = k ? "SIGKILL" : "_exit()";
		int fd, n;

		st = run(k ? H_KILL : H_UNDERSCORE_EXIT, 0);
		tap_ok(k ? WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL : WIFEXITED(st) && WEXITSTATUS(st) == 0,
		       "%s: the child ended so (status %#x)", what, st);
		n = changed(what);
		tap_ok(n > 0, "%s: the registers are left programmed (%d differ): no code of the "
		       "process ran", what, n);
		stand_in();
		fd = nb_msr_sys.open("/dev/cpu/0/msr", O_RDWR);
		n = nb_msr_clear(fd, err, sizeof(err));
		close(fd);
		tap_ok(n > 0, "%s: nb_msr_clear (nb_msr_reset) cleared %d registers", what, n);
		{
			int bad = 0;

			for (unsigned i = 0; i < NB_NUM_COUNTERS; i++)
				bad += dev[nb_counters[i].cccr_msr] != 0;
			for (unsigned i = 0; i < nb_num_escrs; i++)
				bad += dev[nb_escrs[i].msr] != 0;
			bad += dev[0x3f1] != 0 || dev[0x3f2] != 0;
			tap_is(bad, 0, "%s, then nb_msr_clear: every CCCR, ESCR, IA32_PEBS_ENABLE and "
			       "MSR_PEBS_MATRIX_VERT at 0 (power-on)", what);
		}
		nb_msr_sys.open = open;
	}
	return tap_done_plan();
}
