/*
 * sim_cascade.c - a cascaded counter pair under nbsim, programmed with the
 * component's own images (nb_evsel_parse -> nb_sched_run -> nb_encode_ex),
 * counts past 2^40 (TAP guest; run by tests/sim/t_sim_cascade.t).
 *
 * instr_retired:NBOGUSNTAG:cascade, user level.  The low counter is preset
 * to 2^40 - D: it overflows after D events, from then on the alternate
 * (Cascade set, Enable clear) counts the same events [SDM 18.15.5.6; seed
 * 000].  Events of a run = D + high once the low counter has overflowed,
 * else low - (2^40 - D).  Checked by the difference method: two loop
 * lengths n1, n2 of 7 instructions per iteration (t_pmi.c's loop) differ
 * by exactly 7 (n2 - n1) events, each run crossing 2^40; the low counter
 * agrees modulo 2^40; the alternate stays 0 without the overflow.
 */
#define _GNU_SOURCE
#include <string.h>
#include "guest.h"
#include "nb_encode.h"

#define T40 (UINT64_C(1) << 40)

static uint64_t buf[4];

/* 7 instructions per iteration: add, xor, sub, load, store, dec, jnz */
static __attribute__((noinline)) void loop7(uint64_t n)
{
	uint64_t a = 1, b = 2, c = 3, t;
	__asm__ volatile(
		"1:\n\t"
		"add %[a], %[b]\n\t"
		"xor %[b], %[c]\n\t"
		"sub %[c], %[a]\n\t"
		"mov (%[p]), %[t]\n\t"
		"mov %[t], 8(%[p])\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [a] "+r"(a), [b] "+r"(b), [c] "+r"(c), [t] "=&r"(t), [n] "+r"(n)
		: [p] "r"(buf)
		: "memory", "cc");
}

struct run {
	uint64_t low, high, cccr_low;
	uint64_t events;         /* from the pair */
};

/* Program the pair from G, preset the low counter to 2^40 - D, run N
 * iterations, stop, read. */
static int run(const struct nb_regs *g, uint64_t d, uint64_t n, struct run *r)
{
	uint64_t start = T40 - d;

	if (!guest_wrmsr(g->cccr_msr, g->cccr & ~NB_CCCR_ENABLE) ||
	    !guest_wrmsr(g->hi_cccr_msr, g->hi_cccr & ~NB_CCCR_CASCADE) ||
	    !guest_wrmsr(g->escr_msr, g->escr) || !guest_wrmsr(g->hi_escr_msr, g->hi_escr) ||
	    !guest_wrmsr(nb_counters[g->counter].msr, start) ||
	    !guest_wrmsr(nb_counters[g->hi_counter].msr, 0) ||
	    !guest_wrmsr(g->hi_cccr_msr, g->hi_cccr) || !guest_wrmsr(g->cccr_msr, g->cccr))
		return -1;
	loop7(n);
	nbsim_rdmsr(g->cccr_msr, &r->cccr_low);
	nbsim_wrmsr(g->cccr_msr, g->cccr & ~NB_CCCR_ENABLE);
	nbsim_wrmsr(g->hi_cccr_msr, g->hi_cccr & ~NB_CCCR_CASCADE);
	nbsim_rdpmc(g->counter, &r->low);
	nbsim_rdpmc(g->hi_counter, &r->high);
	if ((r->cccr_low & NB_CCCR_OVF) || r->high)
		r->events = d + r->high;
	else
		r->events = (r->low - start) & NB_COUNTER_MASK;
	return 0;
}

int main(void)
{
	struct nbsim_info info;
	struct nb_evsel sel;
	struct nb_sched_cpu cpu;
	struct nb_assign a;
	struct nb_regs g;
	struct run r1, r2, r0;
	char err[512];
	const uint64_t n1 = 10000, n2 = 30000, d = 1000;

	if (!nbsim_present()) {
		printf("1..0 # SKIP not running under nbsim\n");
		return 0;
	}
	memset(&info, 0, sizeof info);
	nbsim_info(&info);
	memset(&cpu, 0, sizeof cpu);
	cpu.model = info.model;
	if (nb_evsel_parse("instr_retired:NBOGUSNTAG:cascade", cpu.model, 0, &sel, err, sizeof err) ||
	    nb_sched_run(&sel, 1, &cpu, &a, NULL, err, sizeof err)) {
		printf("1..1\nnot ok 1 - parse and schedule the cascaded event: %s\n", err);
		return 1;
	}
	nb_encode_ex(&sel, &a.slot[0], NB_DOM_USER, 0, 0, &g);
	tap_ok(g.cascade && nb_sched_cascade_alt(g.hi_counter) == g.counter,
	       "the encoder gives a pair: counter %u, cascaded counter %u", g.counter, g.hi_counter);

	if (run(&g, d, n1, &r1) || run(&g, d, n1, &r1) || run(&g, d, n2, &r2)) {
		tap_ok(0, "program the pair");
		tap_plan(tap_n);
		return 1;
	}
	tap_ok((r1.cccr_low & NB_CCCR_OVF) && (r2.cccr_low & NB_CCCR_OVF) && r1.high > 0 && r2.high > 0,
	       "both runs cross 2^40: low counter OVF set, the alternate counts (high %llu, %llu)",
	       (unsigned long long)r1.high, (unsigned long long)r2.high);
	TAP_EQ(r2.events - r1.events, 7 * (n2 - n1),
	       "difference method: events(n=%llu) - events(n=%llu) = 7 x %llu",
	       (unsigned long long)n2, (unsigned long long)n1, (unsigned long long)(n2 - n1));
	/* The wrapped low counter and the alternate count the same events
	 * since 2^40, up to the stop: two WRMSRs, not one instant (nbsim
	 * gives the low counter one event more: the stopping WRMSR clears
	 * its OVF, and the alternate's share of the last interval is not
	 * synced first).  The gap is the same at both lengths. */
	tap_ok(r1.low - r1.high == r2.low - r2.high && r1.low - r1.high <= 2,
	       "the wrapped low counter and the alternate differ by the same stop gap at both "
	       "lengths (%lld, %lld)", (long long)(r1.low - r1.high), (long long)(r2.low - r2.high));
	/* no overflow: the alternate does not count */
	if (run(&g, UINT64_C(1) << 30, n1, &r0) == 0)
		tap_ok(r0.high == 0 && !(r0.cccr_low & NB_CCCR_OVF) &&
		       r0.events == r1.events + (r1.low - r1.high),
		       "without the overflow the alternate stays 0 (%llu) and the low counter has "
		       "the same events (%llu = %llu + stop gap)", (unsigned long long)r0.high,
		       (unsigned long long)r0.events, (unsigned long long)r1.events);
	else
		tap_ok(0, "program the pair (no overflow)");
	/* the component's fold of a pair that started at 0 and is read
	 * first after 2^40 + x events: 2^40 + x */
	{
		struct nb_cascade_state st;

		memset(&st, 0, sizeof st);
		TAP_EQ(nb_cascade_fold(&st, r2.low, r2.high), T40 + r2.high,
		       "nb_cascade_fold of a read after the overflow: 2^40 + alternate");
	}
	tap_plan(tap_n);
	return tap_done();
}
