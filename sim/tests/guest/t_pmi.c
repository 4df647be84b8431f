/*
 * t_pmi.c - counter-overflow interrupts (PMI) under nbsim (TAP guest; run
 * by t_pmi.sh).
 *
 * instr_retired:NBOGUSNTAG counts on IQ_COUNTER0 (12) with OVF_PMI_T0,
 * preset to 2^40 - T.  The SIGPROF handler (the PMI) stops the counter,
 * reads how far it went past the overflow (the skid plus the handler's
 * own prologue), subtracts T (so the next overflow comes exactly T events
 * after this one, whatever the skid) and restarts it.  Checked:
 *  - the number of PMIs equals floor(C / T), C = events counted (exact:
 *    every overflow interrupts once);
 *  - by the difference method over two loop lengths, C grows by
 *    iterations x 7 plus the handler prologues of the extra PMIs;
 *  - every interrupted PC lies in the measured loop (but the last PMI of
 *    a run, which the skid may carry past the loop's end), and the
 *    distance past the overflow is the instructions that retire in the
 *    model's PMI latency, and spreads with the wait for the local APIC's
 *    bus-clock edge (sim/README.md "Overflow interrupts (PMI)");
 *  - no PMI without OVF_PMI_T0, with OVF_PMI_T1 only, or with no PMI
 *    signal chosen (OVF is still set); a bad signal number is refused.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "tap.h"
#include "pmi_skid.h"

#define CTR 12
#define T 1000

static volatile unsigned long pmis;
static volatile uint64_t max_past, min_past = ~0ull;
static volatile uint64_t min_full = ~0ull;   /* the least past a whole skid (pmi_skid.h) */
static volatile unsigned long pc_out;     /* PMIs outside the loop, not a run's last */
static volatile unsigned long pc_past;    /* a run's last PMI taken past the loop */
static volatile int prev_out;             /* the run's previous PMI was outside */
static uint64_t cccr_on;
extern char loop_start[], loop_end[];

static uint64_t escr_value(void)
{
	return ((uint64_t)nb_events[NB_EV_INSTR_RETIRED].event_select << NB_ESCR_EVSEL_SHIFT) |
	       ((uint64_t)1 << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR;
}

static void pmi(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	uint64_t v = 0, pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	(void)sig; (void)si;

	nbsim_wrmsr(nb_counters[CTR].cccr_msr, 0);          /* stop, clear OVF */
	nbsim_rdmsr(nb_counters[CTR].msr, &v);               /* events past 0 */
	nbsim_wrmsr(nb_counters[CTR].msr, (v - T) & NB_COUNTER_MASK);
	pmis++;
	if (v > max_past)
		max_past = v;
	if (v < min_past)
		min_past = v;
	if (v >= PMI_FULL && v < min_full)
		min_full = v;
	if (prev_out)
		pc_out++;
	prev_out = pc < (uint64_t)loop_start || pc >= (uint64_t)loop_end;
	pc_past += prev_out;
	nbsim_wrmsr(nb_counters[CTR].cccr_msr, cccr_on);
}

/* 7 instructions per iteration: add, xor, sub, load, store, dec, jnz */
static uint64_t buf[4];
static __attribute__((noinline)) void k_basic(uint64_t n)
{
	uint64_t a = 1, b = 2, c = 3, t;
	__asm__ volatile(
		"loop_start:\n\t"
		"add %[a], %[b]\n\t"
		"xor %[b], %[c]\n\t"
		"sub %[c], %[a]\n\t"
		"mov (%[p]), %[t]\n\t"
		"mov %[t], 8(%[p])\n\t"
		"dec %[n]\n\t"
		"jnz loop_start\n\t"
		"loop_end:\n\t"
		: [a] "+r"(a), [b] "+r"(b), [c] "+r"(c), [t] "=&r"(t), [n] "+r"(n)
		: [p] "r"(buf)
		: "memory", "cc");
}

/* Count k_basic(n) with PMIs every T events.  Returns C, the events
 * counted (n x 7 + handler prologues + the fixed start/stop code). */
static uint64_t run(uint64_t n, uint64_t pmi_bits, unsigned long *npmi)
{
	uint64_t raw = 0;

	pmis = 0;
	prev_out = 0;
	cccr_on = NB_CCCR_ENABLE | ((uint64_t)nb_escrs[NB_ESCR_CRU_ESCR0].select << NB_CCCR_ESCRSEL_SHIFT) |
		  ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT) | pmi_bits;
	nbsim_wrmsr(nb_escrs[NB_ESCR_CRU_ESCR0].msr, escr_value());
	nbsim_wrmsr(nb_counters[CTR].msr, (UINT64_C(1) << 40) - T);
	nbsim_wrmsr(nb_counters[CTR].cccr_msr, cccr_on);
	k_basic(n);
	nbsim_wrmsr(nb_counters[CTR].cccr_msr, 0);
	nbsim_rdmsr(nb_counters[CTR].msr, &raw);
	*npmi = pmis;
	/* raw = 2^40 - T + C - pmis x T (mod 2^40), and C - pmis x T < T */
	return (raw + (uint64_t)(pmis + 1) * T - (UINT64_C(1) << 40)) & NB_COUNTER_MASK;
}

int main(void)
{
	struct sigaction sa;
	unsigned long p1, p2, p;
	uint64_t c1, c2, raw = 0, cccr = 0;
	const uint64_t n1 = 10000, n2 = 30000;

	if (!nbsim_present()) {
		/* t_pmi.sh runs it under nbsim: anything else is a failure */
		printf("Bail out! not running under nbsim (run it with sim/tests/guest/t_pmi.sh)\n");
		return 1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = pmi;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGPROF, &sa, NULL);

	tap_ok(nbsim_pmi_signal(65) == NBSIM_GP, "PMI_SIGNAL 65: refused");
	tap_ok(nbsim_pmi_signal(SIGPROF) == NBSIM_OK, "PMI_SIGNAL SIGPROF accepted");

	run(n1, NB_CCCR_OVF_PMI_T0, &p);               /* warm-up */
	c1 = run(n1, NB_CCCR_OVF_PMI_T0, &p1);
	c2 = run(n2, NB_CCCR_OVF_PMI_T0, &p2);
	TAP_EQ(p1, c1 / T, "n=%llu: PMIs = floor(events / %d) (%llu events)",
	       (unsigned long long)n1, T, (unsigned long long)c1);
	TAP_EQ(p2, c2 / T, "n=%llu: PMIs = floor(events / %d) (%llu events)",
	       (unsigned long long)n2, T, (unsigned long long)c2);
	/* The handler's prologue (signal delivery to the stopping WRMSR) is
	 * the same every time: h = (c2 - c1 - 7 (n2 - n1)) / (p2 - p1) */
	pmi_check_skid("", n1, n2, c1, c2, p1, p2, min_past, max_past, min_full);
	TAP_EQ(pc_out, 0, "every interrupted PC lies in the counted loop, but a run's last "
	       "(the skid carries it past the loop's end: %lu)", pc_past);

	run(n1, 0, &p);
	TAP_EQ(p, 0, "no OVF_PMI_T0: no PMI");
	nbsim_rdmsr(nb_counters[CTR].cccr_msr, &cccr);
	run(n1, NB_CCCR_OVF_PMI_T1, &p);
	TAP_EQ(p, 0, "OVF_PMI_T1 only (no guest code on logical processor 1): no PMI");

	nbsim_pmi_signal(0);
	pmis = 0;
	cccr_on = NB_CCCR_ENABLE | ((uint64_t)nb_escrs[NB_ESCR_CRU_ESCR0].select << NB_CCCR_ESCRSEL_SHIFT) |
		  ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT) | NB_CCCR_OVF_PMI_T0;
	nbsim_wrmsr(nb_counters[CTR].msr, (UINT64_C(1) << 40) - T);
	nbsim_wrmsr(nb_counters[CTR].cccr_msr, cccr_on);
	k_basic(n1);
	nbsim_rdmsr(nb_counters[CTR].cccr_msr, &cccr);
	nbsim_wrmsr(nb_counters[CTR].cccr_msr, 0);
	nbsim_rdmsr(nb_counters[CTR].msr, &raw);
	tap_ok(pmis == 0 && (cccr & NB_CCCR_OVF) && raw > 7 * n1 - T,
	       "PMI signal 0: no signal, OVF set, counter wrapped past 0 (%llu)",
	       (unsigned long long)raw);
	printf("1..%d\n", tap_n);
	return tap_done();
}
