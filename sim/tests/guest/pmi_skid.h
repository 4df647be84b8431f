/*
 * pmi_skid.h - the check t_pmi.c (one LP) and t_pmi_ht.c (LP1 under
 * --ht=yes) share: the loop of 7 instructions per iteration counted at
 * n1 and n2 iterations with a PMI every T events, the handler stopping
 * the counter by WRMSR.  By the difference method the events beyond the
 * loop's are whole handler prologues (signal delivery to the stopping
 * WRMSR, the same every time), and the most events counted past an
 * overflow, less one prologue, is the skid: the instructions retired in
 * the PMI latency.
 */
#ifndef PMI_SKID_H
#define PMI_SKID_H

#include <stdint.h>
#include "tap.h"

/* Prescott's PMI latency, cycles (sim/timing/nb_tmparams.c; the default model),
 * and the most the PMI then waits for the local APIC's bus-clock edge
 * (ratio - 1: 17 core cycles per bus cycle on Prescott, sim/cpu/nb_bus.c;
 * nb_pmi.c pmi_due).  The skid is the instructions that retire in
 * PMI_LAT to PMI_LAT + PMI_WAIT cycles: the loop retires 7
 * instructions per 3 cycles (its add-xor-sub chain, 1 cycle a link on
 * Prescott [ORM-C]), so about 2.3 per cycle; never more than 3 a cycle
 * (3 uops retire a cycle [HIN01], each instruction at least one), + 3
 * for the retirement cycle the latency ends in. */
#define PMI_LAT 74
#define PMI_WAIT 16
/* Events past the overflow of a skid the latency ended (not one cut by
 * the run's stopping WRMSR): at least the 2 x PMI_LAT instructions that
 * retire in the latency */
#define PMI_FULL (2 * PMI_LAT)

/* c1, c2: events counted at n1, n2 iterations; p1, p2: the PMIs taken;
 * min_past, max_past: events past the overflow at the handler's WRMSR;
 * min_full: the least of them at or above PMI_FULL (whole skids).
 * where: "" or " on LP1" (in the skid check's name).  Three checks. */
static inline void pmi_check_skid(const char *where, uint64_t n1, uint64_t n2, uint64_t c1,
				  uint64_t c2, unsigned long p1, unsigned long p2,
				  uint64_t min_past, uint64_t max_past, uint64_t min_full)
{
	uint64_t extra = c2 - c1 - 7 * (n2 - n1);

	tap_ok(p2 > p1 && extra % (p2 - p1) == 0,
	       "difference method: events(n2) - events(n1) = 7 x %llu + %lu handler prologues "
	       "of %llu instructions", (unsigned long long)(n2 - n1), p2 - p1,
	       (unsigned long long)(p2 > p1 ? extra / (p2 - p1) : 0));
	tap_diag("past the overflow at the handler's WRMSR: %llu..%llu events",
		 (unsigned long long)min_past, (unsigned long long)max_past);
	if (p2 > p1)
		tap_ok(max_past - extra / (p2 - p1) >= 2 * PMI_LAT &&
		       max_past - extra / (p2 - p1) <= 3 * (PMI_LAT + PMI_WAIT) + 3,
		       "skid%s: the instructions retired in the PMI latency (%llu in %u to "
		       "%u cycles: 2 x %u to 3 x %u + 3)", where,
		       (unsigned long long)(max_past - extra / (p2 - p1)), PMI_LAT,
		       PMI_LAT + PMI_WAIT, PMI_LAT, PMI_LAT + PMI_WAIT);
	else
		tap_ok(0, "skid: no PMIs");
	/* the spread: the bus-clock wait varies by up to PMI_WAIT cycles, in
	 * which the loop retires 7 instructions per 3 (37 in 16); Prescott's
	 * ratio, 17, is prime, so periodic samples visit every phase (unless
	 * their period is a multiple of 17 cycles: one phase).  2 x PMI_WAIT
	 * leaves 5 instructions for the loop's phase at the ends.  A constant
	 * latency leaves only the loop's phase: 2 apart (measured with
	 * --nbsim-pmi-sync=no) */
	tap_ok(min_full != ~0ull && max_past - min_full >= 2 * PMI_WAIT,
	       "skid%s spreads: whole skids from %llu to %llu events past the overflow "
	       "(at least %u apart: the bus-clock wait, 0 to %u cycles)", where,
	       (unsigned long long)min_full, (unsigned long long)max_past, 2 * PMI_WAIT,
	       PMI_WAIT);
}

#endif
