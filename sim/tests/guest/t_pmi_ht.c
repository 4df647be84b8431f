/*
 * t_pmi_ht.c - overflow interrupts for logical processor 1 (OVF_PMI_T1)
 * under nbsim --ht=yes (TAP guest; run by t_pmi_ht.sh).
 *
 * The main thread runs on LP0, the thread it creates on LP1 (sim/README.md
 * "Hyper-Threading").  instr_retired:NBOGUSNTAG counts on IQ_COUNTER0 (12)
 * through CRU_ESCR0, preset to 2^40 - T.  The signal handler counts PMIs
 * per thread; the LP1 thread's handler re-arms the counter as t_pmi.c does
 * (so the next overflow comes exactly T events after this one).  Checked:
 *  - T1_USR with OVF_PMI_T1, run by the LP1 thread while the LP0 thread
 *    waits in pthread_join: PMIs on LP1 = floor(C / T) exactly at two loop
 *    lengths, none on LP0; by the difference method C grows by
 *    iterations x 7 plus a constant handler prologue per extra PMI; the
 *    skid is the instructions retired in the PMI latency and spreads
 *    with the bus-clock wait (pmi_skid.h), every
 *    interrupted PC in the loop (but a run's last: the skid may carry it
 *    past the loop's end);
 *  - OVF_PMI_T0 and OVF_PMI_T1 both set: every overflow interrupts both
 *    threads (LP0's while it waits: PMIs on LP0 = PMIs on LP1);
 *  - T0_USR with OVF_PMI_T1, run by the LP0 thread while the LP1 thread
 *    waits in read(): the one overflow interrupts the LP1 thread, not the
 *    running LP0 thread.
 * The PMI signal is a real-time one, so that interrupts sent to a thread
 * that is not running queue instead of merging.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sched.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include "guest.h"
#include "nb_events.h"
#include "pmi_skid.h"

#define CTR 12
#define T 1000

static volatile unsigned long pmis[2];    /* PMIs per LP (handler's thread) */
static volatile uint64_t max_past, min_past = ~0ull;
static volatile uint64_t min_full = ~0ull;   /* the least past a whole skid (pmi_skid.h) */
static volatile unsigned long pc_out;     /* LP1 PMIs outside the loop, not a run's last */
static volatile unsigned long pc_past;    /* a run's last LP1 PMI taken past the loop */
static volatile int prev_out;             /* the run's previous LP1 PMI was outside */
static volatile pid_t lp1_tid;
static volatile int rearm;                /* LP1's handler re-arms the counter */
static uint64_t cccr_on;
static int pmi_sig;
extern char ht_loop_start[], ht_loop_end[];

static uint64_t escr_value(uint64_t usr)
{
	return ((uint64_t)nb_events[NB_EV_INSTR_RETIRED].event_select << NB_ESCR_EVSEL_SHIFT) |
	       ((uint64_t)1 << NB_ESCR_EMASK_SHIFT) | usr;
}

static void pmi(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	uint64_t v = 0, pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	int lp = (pid_t)syscall(SYS_gettid) == lp1_tid;
	(void)sig; (void)si;

	if (!lp || !rearm) {
		pmis[lp]++;
		return;
	}
	nbsim_wrmsr(nb_counters[CTR].cccr_msr, 0);          /* stop, clear OVF */
	nbsim_rdmsr(nb_counters[CTR].msr, &v);               /* events past 0 */
	nbsim_wrmsr(nb_counters[CTR].msr, (v - T) & NB_COUNTER_MASK);
	pmis[1]++;
	if (v > max_past)
		max_past = v;
	if (v < min_past)
		min_past = v;
	if (v >= PMI_FULL && v < min_full)
		min_full = v;
	if (prev_out)
		pc_out++;
	prev_out = pc < (uint64_t)ht_loop_start || pc >= (uint64_t)ht_loop_end;
	pc_past += prev_out;
	nbsim_wrmsr(nb_counters[CTR].cccr_msr, cccr_on);
}

/* 7 instructions per iteration: add, xor, sub, load, store, dec, jnz */
static uint64_t buf[4];
static __attribute__((noinline)) void k_basic(uint64_t n)
{
	uint64_t a = 1, b = 2, c = 3, t;
	__asm__ volatile(
		"ht_loop_start:\n\t"
		"add %[a], %[b]\n\t"
		"xor %[b], %[c]\n\t"
		"sub %[c], %[a]\n\t"
		"mov (%[p]), %[t]\n\t"
		"mov %[t], 8(%[p])\n\t"
		"dec %[n]\n\t"
		"jnz ht_loop_start\n\t"
		"ht_loop_end:\n\t"
		: [a] "+r"(a), [b] "+r"(b), [c] "+r"(c), [t] "=&r"(t), [n] "+r"(n)
		: [p] "r"(buf)
		: "memory", "cc");
}

/* Count k_basic(n) on the calling thread's events (ESCR bit USR) with
 * CCCR PMI bits PMI_BITS.  Returns C, the events counted, assuming the
 * LP1 handler re-arms (see t_pmi.c); the raw counter in *RAW. */
static uint64_t run(uint64_t n, uint64_t usr, uint64_t pmi_bits, uint64_t *raw)
{
	unsigned long p0 = pmis[1];

	prev_out = 0;
	cccr_on = NB_CCCR_ENABLE | ((uint64_t)nb_escrs[NB_ESCR_CRU_ESCR0].select << NB_CCCR_ESCRSEL_SHIFT) |
		  ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT) | pmi_bits;
	guest_wrmsr(nb_escrs[NB_ESCR_CRU_ESCR0].msr, escr_value(usr));
	guest_wrmsr(nb_counters[CTR].msr, (UINT64_C(1) << 40) - T);
	guest_wrmsr(nb_counters[CTR].cccr_msr, cccr_on);
	k_basic(n);
	nbsim_wrmsr(nb_counters[CTR].cccr_msr, 0);
	nbsim_rdmsr(nb_counters[CTR].msr, raw);
	return (*raw + (uint64_t)(pmis[1] - p0 + 1) * T - (UINT64_C(1) << 40)) & NB_COUNTER_MASK;
}

/* The LP1 thread: the T1-only and both-bits runs. */
static int pipefd[2];
static uint64_t c1, c2, cb;
static unsigned long q1, q2, qb, q0_t1;
static const uint64_t n1 = 10000, n2 = 30000;
static struct nbsim_info lp1_info;

static void *lp1_main(void *arg)
{
	uint64_t raw;
	unsigned long s;
	(void)arg;

	lp1_tid = (pid_t)syscall(SYS_gettid);
	nbsim_info(&lp1_info);
	rearm = 1;
	s = pmis[1];
	run(n1, NB_ESCR_T1_USR, NB_CCCR_OVF_PMI_T1, &raw);     /* warm-up */
	s = pmis[1];
	c1 = run(n1, NB_ESCR_T1_USR, NB_CCCR_OVF_PMI_T1, &raw);
	q1 = pmis[1] - s;
	s = pmis[1];
	c2 = run(n2, NB_ESCR_T1_USR, NB_CCCR_OVF_PMI_T1, &raw);
	q2 = pmis[1] - s;
	q0_t1 = pmis[0];
	s = pmis[1];
	cb = run(n1, NB_ESCR_T1_USR, NB_CCCR_OVF_PMI_T0 | NB_CCCR_OVF_PMI_T1, &raw);
	qb = pmis[1] - s;
	rearm = 0;
	return NULL;
}

/* The LP1 thread of the last part: waits in read() for the LP0 thread. */
static void *lp1_wait(void *arg)
{
	char ch;
	(void)arg;

	lp1_tid = (pid_t)syscall(SYS_gettid);
	while (read(pipefd[0], &ch, 1) != 1)
		;
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	struct nbsim_info info;
	pthread_t th;
	uint64_t raw = 0;

	if (!nbsim_present()) {
		printf("Bail out! not running under nbsim (run it with sim/tests/guest/t_pmi_ht.sh)\n");
		return 1;
	}
	if (nbsim_info(&info) != NBSIM_OK || !info.ht) {
		printf("Bail out! needs nbsim --ht=yes (run it with sim/tests/guest/t_pmi_ht.sh)\n");
		return 1;
	}
	pmi_sig = SIGRTMIN + 4;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = pmi;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(pmi_sig, &sa, NULL);
	tap_ok(nbsim_pmi_signal(pmi_sig) == NBSIM_OK, "PMI_SIGNAL SIGRTMIN+4 accepted");

	pthread_create(&th, NULL, lp1_main, NULL);
	pthread_join(th, NULL);
	/* PMIs sent to this thread while it waited are delivered by now or
	 * at its next system calls */
	for (int i = 0; i < 100 && pmis[0] < q0_t1 + qb; i++)
		sched_yield();
	TAP_EQ(lp1_info.logical_cpu, 1, "the created thread runs on LP1");
	TAP_EQ(q1, c1 / T, "LP1, OVF_PMI_T1, n=%llu: PMIs on LP1 = floor(events / %d) (%llu events)",
	       (unsigned long long)n1, T, (unsigned long long)c1);
	TAP_EQ(q2, c2 / T, "LP1, OVF_PMI_T1, n=%llu: PMIs on LP1 = floor(events / %d) (%llu events)",
	       (unsigned long long)n2, T, (unsigned long long)c2);
	TAP_EQ(q0_t1, 0, "OVF_PMI_T1: no PMI on LP0");
	pmi_check_skid(" on LP1", n1, n2, c1, c2, q1, q2, min_past, max_past, min_full);
	TAP_EQ(pc_out, 0, "every interrupted PC on LP1 lies in the counted loop, but a run's last "
	       "(the skid carries it past the loop's end: %lu)", pc_past);
	TAP_EQ(qb, cb / T, "OVF_PMI_T0|T1: PMIs on LP1 = floor(events / %d) (%llu events)",
	       T, (unsigned long long)cb);
	TAP_EQ(pmis[0] - q0_t1, qb, "OVF_PMI_T0|T1: as many PMIs on LP0 (waiting) as on LP1");

	/* LP0 counts its own events with OVF_PMI_T1: the LP1 thread, waiting
	 * in read(), gets the interrupt */
	{
		unsigned long p0 = pmis[0], p1 = pmis[1];
		uint64_t cccr = 0;

		if (pipe(pipefd) != 0) {
			printf("Bail out! pipe failed\n");
			return 1;
		}
		lp1_tid = 0;
		pthread_create(&th, NULL, lp1_wait, NULL);
		while (!lp1_tid)
			sched_yield();
		rearm = 0;
		run(n1, NB_ESCR_T0_USR, NB_CCCR_OVF_PMI_T1, &raw);
		nbsim_rdmsr(nb_counters[CTR].cccr_msr, &cccr);
		if (write(pipefd[1], "x", 1) != 1)
			tap_diag("write failed");
		pthread_join(th, NULL);
		tap_ok(raw < 7 * n1, "LP0 counted %llu events past the overflow (no re-arm)",
		       (unsigned long long)raw);
		TAP_EQ(pmis[1] - p1, 1, "T0_USR with OVF_PMI_T1: the one overflow interrupts LP1's thread");
		TAP_EQ(pmis[0] - p0, 0, "and not the running LP0 thread");
	}
	printf("1..%d\n", tap_n);
	return tap_done();
}
