/*
 * t_iebs.c - IEBS skid against PEBS on Sprunt's benchmark (TAP guest;
 * t_iebs.sh runs it with --model=northwood, 32-bit DS format).
 *
 * Sprunt 2002 (seed 000, "Benchmark program" and the l1_miss address
 * profile): a nested loop in which one load, `mov (%eax),%eax`, misses
 * the L1D (it walks eight lines 8 KB apart, which thrash the 4-way 8 KB
 * L1D and hit the L2), between "large sequential blocks of loads that
 * always hit the cache"; L1D misses profiled with replay tagging
 * (1stL_cache_load_miss_retired: IA32_PEBS_ENABLE bits 0 and 24,
 * MSR_PEBS_MATRIX_VERT bit 0, replay_event NBOGUS).  Measured on a
 * Pentium 4: PEBS 100% on the missing load; IEBS none on it, every sample
 * 65 or more instructions after it, 46.5% at +69.
 *
 * Here: the inner body is BEFORE hitting loads, the chasing load, AFTER
 * hitting loads (all `mov disp32(%rsi),%rdx`, 7 bytes each, so a PC in
 * the block gives its distance from the chasing load), dec, jnz.
 * Counter 16 counts the tagged loads, preset 2^40 - R:
 *  - IEBS (OVF_PMI_T0, no PEBS): the SIGPROF handler (the PMI) takes the
 *    interrupted PC from its context and re-arms the counter; checked: a
 *    PMI per R misses (floor, at most one less: the last may fall after
 *    the kernel), no sample on the chasing load or before it, and the
 *    skid's distribution (sim/README "Overflow interrupts (PMI)"): the
 *    latency is the model's fixed part L (48 cycles on Northwood,
 *    calibrated on Sprunt's floor) plus the wait for the local APIC's
 *    next bus-clock edge, 0 to RATIO - 1 cycles; after the chasing load
 *    the hitting loads retire one per cycle (one load port) once the 17
 *    that completed during the miss (an L2 hit, 18 cycles) have, so the
 *    skid is L + 17 + the
 *    wait: every sample at +65 to +65 + RATIO - 1 (exact: the model's
 *    bounds), the nearest at +65 or +66 (Sprunt: "65 or more"), more
 *    than one distance (the spread: the constant latency before gave
 *    100% at one), +69 among them (Sprunt's mode) or both +68 and +70.
 *    Samples a constant number of cycles apart (R passes of the loop
 *    and the handler) meet the bus clock at the phases of a lattice,
 *    14 / gcd(cycles, 14) of them, each as often: at R = 97 every
 *    phase, one sample in 14 at each of +65 ... +78;
 *  - Sprunt's peak (46.5% at +69, about half his samples): at R = 99
 *    the cycles between samples are 7 mod 14, so the samples meet two
 *    phases 7 cycles apart: two distances 7 apart, each 46.5% +- 10
 *    points (3 binomial standard deviations of 200 samples at 46.5%;
 *    his sample count is not given), and one of them within 3 of +69.
 *    Which two depends on the bus phase at the loop's start, so on the
 *    cycles before it (the program's layout, its environment's size):
 *    +65 + a and +72 + a, one of which is within 3 of +69 for every a.
 *    His period is not published; a period that meets two phases is
 *    what his share implies;
 *  - the exact counts do not change: instructions retired over the
 *    kernel (counter 12) with IEBS sampling equal those without (the
 *    handler runs uncounted at CPL 0);
 *  - PEBS (bit 25 too, a DS area with reset 2^40 - R): floor(misses / R)
 *    records, every one with the chasing load's IP.
 */
#define _GNU_SOURCE
#include <alloca.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "tap.h"

#define R_SPREAD 97             /* misses per sample: every bus phase */
#define R_PEAK 99               /* ... two phases (below) */
#define ITER 19400              /* inner iterations: 200 samples */
#define BEFORE 100
#define AFTER 100
#define INSN 7                  /* bytes of a hitting load */
#define NREC 400
#define RATIO 14                /* Northwood's core/bus clock ratio (sim/cpu/nb_bus.c:
				 * 2.8 GHz, 200 MHz bus clock) */
#define FLOOR 65                /* L + 17: Sprunt's "65 or more" */
#define REC32 40                /* 32-bit PEBS record */

extern char iebs_target[], iebs_after[], iebs_after_end[];

static char *nodes;             /* 8 lines 8 KB apart: one L1D set */
static uint64_t hot[8192 / 8] __attribute__((aligned(8192)));

/* ITER iterations of: BEFORE hitting loads, the chasing load, AFTER
 * hitting loads.  The hitting loads read hot[16..215] (lines 2-26 of an
 * 8 KB-aligned page: L1D sets 2-26; the chased lines are at 0x7c0 in
 * their 8 KB page, set 31). */
static __attribute__((noinline)) void sprunt(void *p, uint64_t n)
{
	__asm__ volatile(
		"1:\n\t"
		".set off, 128\n\t"
		".rept " "100" "\n\t"
		"mov off(%%rsi), %%rdx\n\t"
		".set off, off + 8\n\t"
		".endr\n\t"
		"iebs_target:\n\t"
		"mov (%%rax), %%rax\n\t"
		"iebs_after:\n\t"
		".rept " "100" "\n\t"
		"mov off(%%rsi), %%rdx\n\t"
		".set off, off + 8\n\t"
		".endr\n\t"
		"iebs_after_end:\n\t"
		"dec %%rcx\n\t"
		"jnz 1b\n\t"
		: "+a"(p), "+c"(n)
		: "S"(hot)
		: "rdx", "memory", "cc");
}

static uint64_t cccr16;
static unsigned R = R_SPREAD;   /* the period of the run under way */
static volatile unsigned long pmis, at_target, before_target, beyond;
static volatile unsigned long hist[AFTER + 1];

static void pmi(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	uint64_t pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	(void)sig; (void)si;

	nbsim_wrmsr(nb_counters[16].cccr_msr, 0);          /* stop, clear OVF */
	nbsim_wrmsr(nb_counters[16].msr, (UINT64_C(1) << 40) - R);
	pmis++;
	if (pc == (uint64_t)iebs_target)
		at_target++;
	else if (pc >= (uint64_t)iebs_after && pc < (uint64_t)iebs_after_end &&
		 (pc - (uint64_t)iebs_after) % INSN == 0)
		hist[1 + (pc - (uint64_t)iebs_after) / INSN]++;
	else if (pc < (uint64_t)iebs_target && pc >= (uint64_t)iebs_target - BEFORE * INSN)
		before_target++;
	else
		beyond++;
	nbsim_wrmsr(nb_counters[16].cccr_msr, cccr16);
}

/* 32-bit DS save area: BTS (4 fields), PEBS base, index, maximum,
 * threshold (4 bytes each), PEBS counter reset (8 bytes) */
static uint32_t ds[10];
static uint32_t *pebs;          /* below 4 GB: the 32-bit format's fields */

/* replay_event NBOGUS on counter 16 (CRU_ESCR2), preset 2^40 - R, with
 * IA32_PEBS_ENABLE pe; instructions retired on counter 12 (CRU_ESCR0);
 * the kernel; returns the instructions counted */
static uint64_t run(uint64_t pe, uint64_t pmi_bits)
{
	uint64_t ins = 0;

	memset(ds, 0, sizeof ds);
	ds[4] = ds[5] = (uint32_t)(uintptr_t)pebs;
	ds[6] = (uint32_t)(uintptr_t)pebs + NREC * REC32;
	ds[7] = (uint32_t)(uintptr_t)pebs + NREC * REC32 + REC32;    /* no PMI */
	ds[8] = (uint32_t)(((UINT64_C(1) << 40) - R) & 0xffffffffu);
	ds[9] = (uint32_t)(((UINT64_C(1) << 40) - R) >> 32);
	nbsim_wrmsr(NB_MSR_IA32_DS_AREA, (uint64_t)(uintptr_t)ds);
	nbsim_wrmsr(NB_MSR_IA32_PEBS_ENABLE, pe);
	nbsim_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 1);
	nbsim_wrmsr(nb_escrs[NB_ESCR_CRU_ESCR2].msr,
		    ((uint64_t)nb_events[NB_EV_REPLAY_EVENT].event_select << NB_ESCR_EVSEL_SHIFT) |
		    (UINT64_C(1) << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR);
	nbsim_wrmsr(nb_escrs[NB_ESCR_CRU_ESCR0].msr,
		    ((uint64_t)nb_events[NB_EV_INSTR_RETIRED].event_select << NB_ESCR_EVSEL_SHIFT) |
		    (UINT64_C(1) << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR);
	cccr16 = NB_CCCR_ENABLE | ((uint64_t)nb_escrs[NB_ESCR_CRU_ESCR2].select << NB_CCCR_ESCRSEL_SHIFT) |
		 ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT) | pmi_bits;
	nbsim_wrmsr(nb_counters[16].msr, (UINT64_C(1) << 40) - R);
	nbsim_wrmsr(nb_counters[12].msr, 0);
	nbsim_wrmsr(nb_counters[16].cccr_msr, cccr16);
	nbsim_wrmsr(nb_counters[12].cccr_msr, NB_CCCR_ENABLE |
		    ((uint64_t)nb_escrs[NB_ESCR_CRU_ESCR0].select << NB_CCCR_ESCRSEL_SHIFT) |
		    ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT));
	sprunt(nodes + 0x7c0, ITER);
	nbsim_wrmsr(nb_counters[12].cccr_msr, 0);
	nbsim_wrmsr(nb_counters[16].cccr_msr, 0);
	nbsim_rdmsr(nb_counters[12].msr, &ins);
	nbsim_wrmsr(NB_MSR_IA32_PEBS_ENABLE, 0);
	return ins;
}

/* a histogram count as a share of the run's samples, in percent */
static double share(unsigned long n)
{
	return 100.0 * (double)n / (double)(pmis ? pmis : 1);
}

static int __attribute__((noinline)) tests(void)
{
	struct sigaction sa;
	uint64_t ins0, ins1;
	unsigned long records, bad_ip = 0, first = 0;
	const unsigned long want = ITER / R;

	if (!nbsim_present()) {
		printf("Bail out! not running under nbsim (run it with sim/tests/guest/t_iebs.sh)\n");
		return 1;
	}
	/* the chased lines: 8 KB apart, a ring; each holds the next's address */
	nodes = aligned_alloc(8192, 9 * 8192);
	if (!nodes) {
		printf("Bail out! no memory\n");
		return 1;
	}
	pebs = mmap((void *)0x20000000, NREC * REC32 + 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pebs == MAP_FAILED || (uintptr_t)pebs + NREC * REC32 > 0xffffffffu) {
		printf("Bail out! no PEBS buffer below 4 GB (%p)\n", (void *)pebs);
		return 1;
	}
	for (unsigned i = 0; i < 8; i++)
		*(char **)(nodes + i * 8192 + 0x7c0) = nodes + ((i + 1) % 8) * 8192 + 0x7c0;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = pmi;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGPROF, &sa, NULL);
	tap_ok(nbsim_pmi_signal(SIGPROF) == NBSIM_OK, "PMI_SIGNAL SIGPROF accepted");

	/* warm-up, and the instructions without sampling */
	(void)run(UINT64_C(1) << 24 | 1, 0);
	ins0 = run(UINT64_C(1) << 24 | 1, 0);

	/* IEBS: replay tagging of L1D-missing loads, no PEBS */
	pmis = at_target = before_target = beyond = 0;
	memset((void *)hist, 0, sizeof hist);
	ins1 = run(UINT64_C(1) << 24 | 1, NB_CCCR_OVF_PMI_T0);
	tap_ok(pmis <= want && pmis + 1 >= want, "IEBS: %lu PMIs for %d misses, one per %u (%lu)",
	       pmis, ITER, R, want);
	TAP_EQ(ins1, ins0, "instructions retired over the kernel with IEBS sampling = without "
	       "(%llu)", (unsigned long long)ins0);
	TAP_EQ(at_target, 0, "IEBS: no sample on the missing load");
	TAP_EQ(before_target, 0, "IEBS: no sample before it");
	TAP_EQ(beyond, 0, "IEBS: every sample in the block of %d loads after it", AFTER);
	for (unsigned d = 1; d <= AFTER && !first; d++)
		if (hist[d])
			first = d;
	for (unsigned d = 1; d <= AFTER; d++)
		if (hist[d])
			tap_diag("+%u: %lu samples (%.1f%%)", d, hist[d], 100.0 * hist[d] / (pmis ? pmis : 1));
	{
		unsigned long n = 0, out = 0, last = 0;
		for (unsigned d = 1; d <= AFTER; d++) {
			if (hist[d])
				n++, last = d;
			if (hist[d] && (d < FLOOR || d > FLOOR + RATIO - 1))
				out += hist[d];
		}
		TAP_EQ(out, 0, "IEBS: every sample +%d to +%d: the fixed latency plus 0 to %d "
		       "cycles to the APIC's bus-clock edge, one load retiring a cycle "
		       "(+%lu to +%lu)", FLOOR, FLOOR + RATIO - 1, RATIO - 1, first, last);
		tap_ok(first == FLOOR || first == FLOOR + 1,
		       "IEBS: the nearest sample +%d or +%d instructions after the missing load "
		       "(Sprunt: 65 or more): +%lu", FLOOR, FLOOR + 1, first);
		tap_ok(n >= 2, "IEBS: the skid spreads: %lu distances (Sprunt: 46.5%% at one, the "
		       "rest elsewhere at 65 or more)", n);
		tap_ok(hist[69] > 0 || (hist[68] > 0 && hist[70] > 0),
		       "IEBS: samples at +69, Sprunt's mode, or at both its neighbours (%lu; %lu, "
		       "%lu)", hist[69], hist[68], hist[70]);
	}

	/* PEBS: the same with ENABLE_PEBS_MY_THR */
	(void)run(UINT64_C(1) << 25 | UINT64_C(1) << 24 | 1, 0);
	records = (ds[5] - ds[4]) / REC32;
	for (unsigned long i = 0; i < records && i < NREC; i++)
		bad_ip += pebs[i * (REC32 / 4) + 1] != (uint32_t)(uintptr_t)iebs_target;
	TAP_EQ(records, want, "PEBS: floor(%d misses / %u) records", ITER, R);
	TAP_EQ(bad_ip, 0, "PEBS: every record's IP is the missing load (100%%, as Sprunt)");
	/* Sprunt's peak: the same at a period whose samples meet two bus
	 * phases (the cycles from one sample to the next, R_PEAK passes and
	 * the handler, are 7 mod 14): two distances 7 apart, half the
	 * samples each; one of them within 3 of his +69 (which two depends
	 * on the bus phase at the loop's start).  (A few samples off the
	 * lattice, the first and the handler's own misses, are left out:
	 * distances with one sample.) */
	R = R_PEAK;
	pmis = at_target = before_target = beyond = 0;
	memset((void *)hist, 0, sizeof hist);
	(void)run(UINT64_C(1) << 24 | 1, NB_CCCR_OVF_PMI_T0);
	{
		unsigned long d1 = 0, d2 = 0, n = 0;
		for (unsigned d = 1; d <= AFTER; d++) {
			if (hist[d])
				tap_diag("every %u: +%u: %lu samples", R, d, hist[d]);
			if (hist[d] > 1 && n++ == 0)
				d1 = d;
			else if (hist[d] > 1)
				d2 = d;
		}
		tap_ok(n == 2 && d2 - d1 == 7 && d1 >= FLOOR && d2 <= FLOOR + RATIO - 1,
		       "IEBS every %u misses: two distances 7 apart (+%lu, +%lu), in +%d to +%d",
		       R, d1, d2, FLOOR, FLOOR + RATIO - 1);
		tap_ok(n == 2 && share(hist[d1]) >= 36.5 && share(hist[d1]) <= 56.5 &&
		       share(hist[d2]) >= 36.5 && share(hist[d2]) <= 56.5,
		       "... each with 46.5%% +- 10 points of the samples, Sprunt's share at his mode "
		       "(%.1f%%, %.1f%%)", share(hist[d1]), share(hist[d2]));
		tap_ok(n == 2 && ((d1 >= 66 && d1 <= 72) || (d2 >= 66 && d2 <= 72)),
		       "... one of them within 3 of +69, Sprunt's mode");
	}
	printf("1..%d\n", tap_n);
	return tap_done();
}

/* The tests on a stack at the same address modulo 8 KB whatever the size
 * of the environment and arguments above it: the PMI handler's frame and
 * the loop's locals share the L1D's sets with the chased lines (8 KB
 * apart), so where the stack lies changed the cycles from one sample to
 * the next, hence the bus phases they meet: with `make check TESTS=...`
 * naming two files every 99 misses met all 14 phases instead of two. */
int main(void)
{
	volatile char *pad = alloca(((uintptr_t)__builtin_frame_address(0) & 8191) + 256);

	pad[0] = 0;
	return tests();
}
