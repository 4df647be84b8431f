/*
 * nb_wpath.h - the wrong-path (bogus uop) model (README, "Wrong-path
 * model").  Pure module (no libc, no valgrind).
 *
 * valgrind runs the committed path only, so nbsim never sees the uops a
 * NetBurst front end fetches down a mispredicted path.  This module stands
 * in for them:
 *  - each mispredicted branch lets (penalty - NB_WP_FETCH_STAGES) cycles of
 *    wrong-path uops into the machine, allocated at NB_WP_WIDTH uops per
 *    cycle, before the branch check at the end of the pipeline flushes them;
 *  - those bogus uops look like the committed path of the same interval:
 *    a quantity X (loads, instructions, tagged uops of a class ...) gets
 *    floor(bogus x X / committed uops) bogus occurrences.
 */
#ifndef NB_WPATH_H
#define NB_WPATH_H

#include <stdint.h>

/* Front-end stages before allocation in the 20-stage misprediction
 * pipeline of Hinton et al. 2001 (Figure 3: TC Nxt IP 2, TC Fetch 2, Drive
 * 1, then Alloc): wrong-path uops enter the machine in the other stages. */
#define NB_WP_FETCH_STAGES 5
/* Allocation width: the allocator handles up to 3 uops per cycle [HIN01]. */
#define NB_WP_WIDTH 3

struct nb_wpath {
	uint64_t per_mispredict;   /* bogus uops per mispredicted branch   */
};

/* penalty: the model's misprediction pipeline depth in cycles (nb_cpu.c). */
void nb_wpath_init(struct nb_wpath *w, unsigned penalty);

/* Bogus uops for this many mispredicted branches. */
uint64_t nb_wpath_uops(const struct nb_wpath *w, uint64_t mispredicts);

/* Bogus share of a quantity: floor(bogus_uops x part / committed_uops);
 * 0 when committed_uops is 0 (nothing to take the mix from). */
uint64_t nb_wpath_share(uint64_t bogus_uops, uint64_t part, uint64_t committed_uops);

/* The same, carrying the fraction (in 1/2^32 units) in *frac from one call
 * to the next: summed over many short intervals (frequent counter reads)
 * the shares lose less than 1 in total instead of up to 1 per interval. */
uint64_t nb_wpath_share_carry(uint64_t bogus_uops, uint64_t part, uint64_t committed_uops,
			      uint32_t *frac);

#endif /* NB_WPATH_H */
