/*
 * nb_filter.h - CCCR filtering of an ESCR's per-cycle output, counter
 * increment with 40-bit wrap and OVF, and counter cascading.
 *
 * A pure module (no libc, no valgrind), used by pmu.c and unit-tested on
 * synthetic per-cycle streams by tests/unit/t_filter.c.
 *
 * Facts [SDM Vol. 3B 18.15.5.2 "Filtering Events" and 18.15.3 CCCR flags;
 * CCCR layout: seed 003 sec. 6/9 <cccr_config>, DESIGN.md]:
 *  - an ESCR outputs at most 15 events per clock (its output is a 4-bit
 *    value; seed 003: "un valor entre 0 y 15"; SDM 18.15.5.2);
 *  - Compare (bit 18) clear: the counter adds the ESCR output each cycle;
 *  - Compare set: per cycle, the output is compared with Threshold (bits
 *    20-23): Complement (bit 19) clear -> the condition is output >
 *    Threshold, set -> output <= Threshold; the counter adds 1 per cycle in
 *    which the condition holds;
 *  - Edge (bit 24, with Compare): the counter adds 1 per false-to-true
 *    transition of the condition (from one cycle to the next);
 *  - OVF (bit 31): set when the counter wraps past 2^40 - 1; sticky;
 *    FORCE_OVF (bit 25): overflow on every counter increment [SDM 18.15.3];
 *  - Cascade (bit 30): the counter counts once its alternate counter has
 *    overflowed, i.e. while that counter's OVF flag is set; clearing the
 *    Cascade flag or the alternate's OVF stops it [SDM 18.15.3 Cascade flag,
 *    18.15.5.6 "Cascading Counters" and 18.15.6.5 "Halting Event Counting";
 *    Sprunt, seed 000: "the second counter does not begin counting until the
 *    first counter overflows"].  Alternates [SDM 18.15.5.6; seed 003 sec. 4:
 *    counters in the same position of the two pairs of a block]: 0<->2,
 *    1<->3, 4<->6, 5<->7, 8<->10, 9<->11, 12<->14, 13<->15; counter 16 can
 *    only be cascaded from 14 and 17 only from 15 (14 and 15 never from 16
 *    or 17).
 */
#ifndef NB_FILTER_H
#define NB_FILTER_H

#include <stdint.h>

#define NB_FILTER_MAX_OUT  15                       /* ESCR output per cycle */
#define NB_FILTER_CTR_MASK ((UINT64_C(1) << 40) - 1)   /* 40-bit counters    */

struct nb_filter {
	uint8_t compare, complement, edge, force_ovf;
	uint8_t threshold;                           /* 0-15                  */
};

/* The filter fields of a CCCR value. */
struct nb_filter nb_filter_from_cccr(uint64_t cccr);

/* ESCR output of one cycle: the event count clamped to 15. */
static inline unsigned nb_filter_clamp(uint64_t events)
{
	return events > NB_FILTER_MAX_OUT ? NB_FILTER_MAX_OUT : (unsigned)events;
}

/* The Compare condition for one cycle's (clamped) output. */
int nb_filter_cond(const struct nb_filter *f, unsigned out);

/*
 * A Compare filter whose condition does not depend on the ESCR output:
 * Threshold 15 without Edge, as the output is at most 15 (Complement: true
 * every cycle, so the counter counts cycles; else never true).  Returns 1
 * (always), 0 (never) or -1 (depends on the output, or no Compare).  The
 * Linux and PAPI "cycles" alias on NetBurst is the always case
 * (execution_event, every mask, Compare, Complement, Threshold 15):
 * nbsim counts it from the cycle count, without its per-cycle mode.
 */
static inline int nb_filter_const(const struct nb_filter *f)
{
	if (!f->compare || f->edge || f->threshold < NB_FILTER_MAX_OUT)
		return -1;
	return f->complement ? 1 : 0;
}

/* Counter increment of one cycle whose ESCR produced `events` events;
 * *prev holds the condition of the previous cycle (for Edge) and is
 * updated. */
unsigned nb_filter_cycle(const struct nb_filter *f, uint64_t events, uint8_t *prev);

/*
 * Count n consecutive cycles that each produce `events` events into the
 * 40-bit counter *ctr.  Returns the total increment.  *ovf is set to 1 when
 * the counter overflows (wraps, or any increment with FORCE_OVF) during the
 * run, and *ovf_cycle to the number of cycles of the run up to and
 * including the first such cycle (both left unchanged when it does not
 * overflow).
 */
uint64_t nb_filter_count(const struct nb_filter *f, uint64_t events, uint64_t n,
			 uint8_t *prev, uint64_t *ctr, int *ovf, uint64_t *ovf_cycle);

/* Add inc to a 40-bit counter; returns 1 if it wrapped past 2^40 - 1. */
int nb_counter_add(uint64_t *ctr, uint64_t inc);

/* The alternate counter whose overflow starts counter c when c's Cascade
 * flag is set, or -1 (c out of range). */
int nb_cascade_alternate(unsigned c);

#endif /* NB_FILTER_H */
