/*
 * randcycle.h - the random order of the pointer-chasing workloads (bench
 * chase, cg_prog chase, t_sampled): perm[0..n) a Fisher-Yates shuffle of
 * 0..n-1 driven by Knuth's MMIX LCG from `seed` (deterministic: the same
 * chase for every run and every tool); a workload links node perm[i] to
 * perm[i + 1], the last to the first: one cycle through all n nodes.
 */
#ifndef NB_RANDCYCLE_H
#define NB_RANDCYCLE_H

#include <stdint.h>

static inline void nb_random_order(uint32_t *perm, uint32_t n, uint64_t seed)
{
	uint64_t x = seed;

	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		uint32_t j = (uint32_t)((x >> 33) % (i + 1)), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
}

#endif
