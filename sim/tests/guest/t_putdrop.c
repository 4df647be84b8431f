/*
 * t_putdrop.c - the guest's registers at a fault inside a superblock, while
 * something is counted (sim/tool/nb_putdrop.c drops the register writes a
 * later write overwrites before anything can read them; at a guest memory
 * access and at a division the state must stay exact: the signal frame is
 * built from it).
 *
 * Each case writes r8-r10 twice or more before the faulting instruction
 * and again after it, in one superblock: a write dropped across the fault
 * shows in the handler's context as the register's older value.  A #DE
 * (divq by 0: SIGFPE) and a load from an unmapped page (SIGSEGV), each 3
 * times (the first run of the code and its translation's later runs).
 * The counter (branch_retired:MMTP, T0 user) makes nbsim keep every
 * register update and so run the pass.  Under simulated time the cache
 * model's call after each load is itself a point the pass keeps the
 * state exact at; under --nbsim-time=host there is none, and the load's
 * own is the one that counts (t_putdrop.sh runs both).  argv[1]: the
 * number of the first TAP test (the driver prints the plan).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>
#include "guest.h"

static sigjmp_buf jb;
static volatile greg_t seen[5];
/* (outside main: siglongjmp returns into it) */
static volatile int div_ok = 1, ld_ok = 1, got = 1, i;

static void on_fault(int sig, siginfo_t *si, void *uc_)
{
	const greg_t *g = ((ucontext_t *)uc_)->uc_mcontext.gregs;

	(void)sig; (void)si;
	seen[0] = g[REG_R8];
	seen[1] = g[REG_R9];
	seen[2] = g[REG_R10];
	seen[3] = g[REG_RAX];
	seen[4] = g[REG_RDX];
	siglongjmp(jb, 1);
}

static int check(const char *what, int i, const greg_t *want)
{
	int ok = 1;

	for (int r = 0; r < 5; r++)
		ok &= seen[r] == want[r];
	if (!ok)
		printf("# %s %d: r8 %lld r9 %lld r10 %lld rax %lld rdx %lld; wanted %lld %lld %lld %lld %lld\n",
		       what, i, (long long)seen[0], (long long)seen[1], (long long)seen[2],
		       (long long)seen[3], (long long)seen[4], (long long)want[0], (long long)want[1],
		       (long long)want[2], (long long)want[3], (long long)want[4]);
	return ok;
}

static const struct cnt brs = { NB_ESCR_CRU_ESCR2, NB_EV_BRANCH_RETIRED, 1u << 2 };

int main(int argc, char **argv)
{
	struct sigaction sa = { 0 };
	volatile uint64_t zero = 0;
	uint64_t n;
	int t = argc > 1 ? atoi(argv[1]) : 1;
	static const greg_t want_div[5] = { 2, 4, 0, 100, 0 };
	static const greg_t want_ld[5] = { 4, 40, 2, 0, 7 };

	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGFPE, &sa, 0);
	sigaction(SIGSEGV, &sa, 0);
	if (!guest_count_start(&brs, NULL)) {
		printf("not ok %d - the counter started\nnot ok %d - the counter started\n", t, t + 1);
		return 0;
	}
	for (i = 0; i < 3; i++) {
		seen[0] = seen[1] = seen[2] = seen[3] = seen[4] = -1;
		if (!sigsetjmp(jb, 1)) {
			__asm__ volatile("mov $1, %%r8\n\tadd $5, %%r8\n\tmov $2, %%r8\n\t"
					 "mov $7, %%r9\n\tsub $3, %%r9\n\t"
					 "mov $11, %%r10\n\txor %%r10, %%r10\n\tcmp %%r8, %%r9\n\t"
					 "mov $100, %%rax\n\tmov $0, %%rdx\n\t"
					 "divq %0\n\t"
					 "mov $9, %%r8\n\tmov $9, %%r9\n\tmov $9, %%r10\n\t"
					 :: "r"(zero) : "r8", "r9", "r10", "rax", "rdx", "cc");
			got = 0;
		}
		div_ok &= check("div", i, want_div);
		seen[0] = seen[1] = seen[2] = seen[3] = seen[4] = -1;
		if (!sigsetjmp(jb, 1)) {
			__asm__ volatile("mov $3, %%r8\n\tadd $9, %%r8\n\tmov $4, %%r8\n\t"
					 "mov $70, %%r9\n\tsub $30, %%r9\n\t"
					 "mov $1, %%r10\n\tinc %%r10\n\tmov $0, %%rax\n\tmov $7, %%rdx\n\t"
					 "mov (%0), %%rax\n\t"
					 "mov $9, %%r8\n\tmov $9, %%r9\n\tmov $9, %%r10\n\tmov $9, %%rdx\n\t"
					 :: "r"((uint64_t *)16 + i) : "r8", "r9", "r10", "rax", "rdx", "cc");
			got = 0;
		}
		ld_ok &= check("load", i, want_ld);
	}
	guest_count_stop(&brs, NULL, &n);
	printf("%s %d - registers at a #DE inside a superblock, 3 runs\n", div_ok && got ? "ok" : "not ok", t);
	printf("%s %d - registers at a faulting load inside a superblock, 3 runs\n", ld_ok && got ? "ok" : "not ok",
	       t + 1);
	fflush(stdout);
	return 0;
}
