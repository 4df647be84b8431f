/*
 * t_cache.c - native unit test of the cache model (nb_cache.c) and of the
 * L1D with its generated hit path (nb_l1.c) (TAP).
 */
#include <stdio.h>
#include "nb_cache.h"
#include "nb_l1.h"
#include "tap.h"

static struct nb_cache c;

/* misses of `rounds` passes over k addresses `stride` apart */
static unsigned passes(unsigned k, unsigned stride, unsigned rounds)
{
	unsigned m = 0;
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned i = 0; i < k; i++)
			m += !nb_cache_access(&c, 0x100000u + (uint64_t)i * stride, 1);
	return m;
}

int main(void)
{
	tap_ok(!nb_cache_init(&c, 4096, 8, 128, 64), "4 MB of 128-byte lines does not fit: refused");
	tap_ok(!nb_cache_init(&c, 8, 4, 64, 128), "sector larger than the line: refused");

	/* Northwood L1D: 8 KB, 4-way, 64-byte lines: 32 sets, 2 KB apart */
	nb_cache_init(&c, 8, 4, 64, 64);
	tap_ok(c.sets == 32, "8 KB 4-way 64 B: %u sets", c.sets);
	TAP_EQ(passes(8, 8192, 10), 80, "8 lines 8 KB apart, 10 passes: all 80 miss (Sprunt l1_miss)");
	nb_cache_init(&c, 8, 4, 64, 64);
	TAP_EQ(passes(4, 8192, 10), 4, "4 lines 8 KB apart: 4 cold misses only");
	nb_cache_init(&c, 8, 4, 64, 64);
	TAP_EQ(passes(128, 64, 3), 128, "8 KB contiguous: fits (128 cold misses in 3 passes)");
	/* LRU: A B C D, touch A, E evicts B */
	nb_cache_init(&c, 8, 4, 64, 64);
	passes(4, 2048, 1);
	nb_cache_access(&c, 0x100000u, 1);
	nb_cache_access(&c, 0x100000u + 4 * 2048, 1);
	tap_ok(nb_cache_access(&c, 0x100000u, 0) && !nb_cache_access(&c, 0x100000u + 2048, 0) &&
	       nb_cache_access(&c, 0x100000u + 2 * 2048, 0),
	       "LRU: the least recently used way is the victim");
	tap_ok(!nb_cache_access(&c, 0x900000u, 0) && !nb_cache_access(&c, 0x900000u, 0),
	       "no allocation without allocate");

	/* Prescott L1D: 16 KB 8-way: 8 lines 8 KB apart fit */
	nb_cache_init(&c, 16, 8, 64, 64);
	TAP_EQ(passes(8, 8192, 10), 8, "16 KB 8-way: 8 lines 8 KB apart: 8 cold misses only");

	/* sectored L2: 128-byte lines of two 64-byte sectors */
	nb_cache_init(&c, 512, 8, 128, 64);
	tap_ok(c.sets == 512, "512 KB 8-way 128 B lines: %u sets", c.sets);
	tap_ok(!nb_cache_access(&c, 0x4000, 1) && !nb_cache_access(&c, 0x4040, 1) &&
	       nb_cache_access(&c, 0x4000, 1) && nb_cache_access(&c, 0x4040, 1),
	       "sector miss: the other half of a present line misses once, then both hit");
	/* a sectored L2 read miss fetches the whole 128-byte sector */
	nb_cache_init(&c, 512, 8, 128, 64);
	tap_ok(nb_cache_ref(&c, 0x8040, NB_FILL_LINE, 0) == NB_CACHE_MISS &&
	       nb_cache_ref(&c, 0x8000, NB_FILL_LINE, 0) == NB_CACHE_CLEAN,
	       "NB_FILL_LINE: a miss fills both 64-byte halves");
	/* line state: clean (Exclusive) until written (Modified) */
	tap_ok(nb_cache_ref(&c, 0x8000, NB_FILL_LINE, 1) == NB_CACHE_CLEAN &&
	       nb_cache_ref(&c, 0x8040, 0, 0) == NB_CACHE_DIRTY,
	       "a write makes the line dirty: the next reference sees Modified");
	tap_ok(nb_cache_ref(&c, 0x9000, NB_FILL_SECTOR, 1) == NB_CACHE_MISS &&
	       nb_cache_ref(&c, 0x9000, 0, 0) == NB_CACHE_DIRTY &&
	       nb_cache_ref(&c, 0x9040, 0, 0) == NB_CACHE_MISS,
	       "a write miss allocates its sector, dirty");
	/* the unsectored fast path behaves as nb_cache_access (L1D geometry) */
	{
		static struct nb_cache c2;
		uint64_t x = 1;
		unsigned same = 1;
		nb_cache_init(&c, 8, 4, 64, 64);
		nb_cache_init(&c2, 8, 4, 64, 64);
		for (unsigned i = 0; i < 200000 && same; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			uint64_t a = (x >> 30) & 0x7fff;     /* 32 KB: 4x the cache */
			int al = (x >> 20) & 1;
			same = nb_cache_access(&c, a, al) == nb_cache_access_unsectored(&c2, a, al);
		}
		tap_ok(same, "nb_cache_access_unsectored = nb_cache_access on 200000 random accesses");
	}
	/* the L1D (nb_l1: stamps, way hints, the generated hit path first)
	 * behaves as true LRU, on both L1D geometries, with allocating and
	 * non-allocating (store) misses; the fast path must both hit and
	 * decline hits (stale hints) for the comparison to mean anything */
	{
		static const unsigned geo[2][2] = { { 8, 4 }, { 16, 8 } };
		static struct nb_l1 l1;
		for (unsigned g = 0; g < 2; g++) {
			uint64_t x = 3 + g;
			unsigned same = 1, fast = 0, slow_hits = 0, i;
			nb_cache_init(&c, geo[g][0], geo[g][1], 64, 64);
			tap_ok(nb_l1_init(&l1, geo[g][0], geo[g][1]), "nb_l1_init %u KB %u-way",
			       geo[g][0], geo[g][1]);
			for (i = 0; i < 400000 && same; i++) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				/* a 4 KB region 3/4 of the time, else lines
				 * 256 KB apart (the same hint and set): hits in
				 * every way, misses, stale hints that hit */
				uint64_t a = (x >> 62) ? (x >> 30) & 0xfff
					: ((x >> 30) & 0xfff) + ((x >> 50) & 7) * 0x40000;
				int al = (x >> 20) & 1, want = nb_cache_access(&c, a, al), got;
				if (nb_l1_fast(&l1, a)) {
					got = 1;
					fast++;
				} else {
					got = nb_l1_access(&l1, a, al);
					slow_hits += (unsigned)got;
				}
				same = got == want;
			}
			tap_ok(same, "%u KB: fast path + nb_l1_access = true LRU (nb_cache_access): "
			       "%u accesses, stopped at %u", geo[g][0], 400000u, i);
			tap_ok(fast > 10000 && slow_hits > 1000,
			       "%u KB: both paths find hits (fast %u, after a stale hint %u)",
			       geo[g][0], fast, slow_hits);
		}
		tap_ok(!nb_l1_init(&l1, 12, 4) && !nb_l1_init(&l1, 16, 3) && !nb_l1_init(&l1, 64, 8),
		       "nb_l1_init refuses sets or ways not a power of two, and too many lines");
	}
	return tap_done_plan();
}
