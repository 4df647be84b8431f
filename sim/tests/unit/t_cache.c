/*
 * t_cache.c - native unit test of the cache model (nb_cache.c) and of the
 * L1D with its generated hit path (nb_l1.c) (TAP).
 */
#include <stdio.h>
#include <string.h>
#include "cpu/nb_cache.h"
#include "cpu/nb_l1.h"
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
	/* the 8-way reference (branch-free search and move) = the general
	 * one: same states returned and same tags, with every kind of
	 * allocation and write, on a small sectored cache (every way hit,
	 * sector misses in present lines, victims) and on the Prescott L2 */
	{
		static const unsigned geo[2][3] = { { 16, 128, 64 }, { 1024, 128, 64 } };
		static struct nb_cache a8, aa;
		for (unsigned g = 0; g < 2; g++) {
			uint64_t x = 11 + g;
			unsigned same = 1, i, hits[3] = { 0, 0, 0 }, deep = 0, inval = 0;
			nb_cache_init(&a8, geo[g][0], 8, geo[g][1], geo[g][2]);
			nb_cache_init(&aa, geo[g][0], 8, geo[g][1], geo[g][2]);
			aa.perm = 0;    /* the reference: ways in recency order */
			for (i = 0; i < 400000 && same; i++) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				/* 4x the cache's size, and lines whose
				 * fingerprints are equal (256 tags apart) */
				uint64_t a = ((x >> 24) & ((uint64_t)geo[g][0] * 4096 - 1)) | 0x10000000u;
				a += ((x >> 61) & 3) << (aa.line_shift + aa.set_shift + 8);
				int al = (int)((x >> 20) & 3) % 3, wr = (x >> 23) & 1;
				unsigned set = (unsigned)((a >> aa.line_shift) & (aa.sets - 1)) * 8, w;
				for (w = 0; w < 8 && (aa.tag[set + w] & NB_TAG_KEY) !=
					     (((a >> aa.line_shift) + 1) & NB_TAG_KEY); w++)
					;
				deep += w >= 4 && w < 8;
				if (((x >> 56) & 15) == 0) {
					/* 1 in 16: invalidate the sector (a
					 * non-temporal store), both caches */
					int va = nb_cache_invalidate(&aa, a);
					inval += va != NB_CACHE_MISS;
					same = nb_cache_invalidate(&a8, a) == va &&
						nb_cache_ref_any(&aa, a, 0, 0) == NB_CACHE_MISS;
					continue;
				}
				int r8 = nb_cache_ref8(&a8, a, al, wr), ra = nb_cache_ref_any(&aa, a, al, wr);
				hits[ra]++;
				same = r8 == ra;
			}
			for (unsigned k = 0; same && k < aa.sets * 8; k++)
				same = nb_cache_rank_tag(&a8, k / 8, k % 8) == aa.tag[k];
			tap_ok(same, "%u KB 8-way: nb_cache_ref8 = nb_cache_ref_any (states, and tags "
			       "rank by rank), 400000 references and invalidations, stopped at %u",
			       geo[g][0], i);
			tap_ok(inval > 1000, "%u KB: %u invalidations of present sectors", geo[g][0],
			       inval);
			/* each set's order is a permutation of its 8 ways */
			unsigned perms = 0;
			for (unsigned k = 0; k < a8.sets; k++) {
				unsigned seen = 0;
				for (unsigned r = 0; r < 8; r++)
					seen |= 1u << ((a8.order[k] >> (4 * r)) & 15);
				perms += seen == 0xff;
			}
			tap_ok(perms == a8.sets, "%u KB: every set's recency order is a permutation "
			       "of its ways (%u of %u)", geo[g][0], perms, a8.sets);
			/* its fingerprints follow the ways' order */
			unsigned fps = 0;
			for (unsigned k = 0; k < a8.sets * 8; k++) {
				uint64_t key = a8.tag[k] & NB_TAG_KEY;
				fps += ((a8.fp[k / 8] >> (8 * (k % 8))) & 0xff) ==
					(key ? NB_CACHE_FP(key - 1, a8.set_shift) : 0);
			}
			tap_ok(fps == a8.sets * 8, "%u KB: every way's fingerprint byte is its line's "
			       "(%u of %u)", geo[g][0], fps, a8.sets * 8);
			tap_ok(hits[0] > 1000 && hits[1] > 1000 && hits[2] > 1000 && deep > 1000,
			       "%u KB: misses %u, clean hits %u, dirty hits %u, hits in ways 4-7 %u",
			       geo[g][0], hits[0], hits[1], hits[2], deep);
		}
	}
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
	 * behaves as true LRU, with invalidations (nb_l1_invalidate), on both L1D geometries, with allocating and
	 * non-allocating (store) misses; the fast path must both hit and
	 * decline hits (stale hints) for the comparison to mean anything */
	{
		static const unsigned geo[2][2] = { { 8, 4 }, { 16, 8 } };
		static struct nb_l1 l1;
		for (unsigned g = 0; g < 2; g++) {
			uint64_t x = 3 + g;
			unsigned same = 1, fast = 0, slow_hits = 0, i, splits = 0, split_fast = 0;
			unsigned l1_inval = 0;
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
				/* 1 to 16 bytes: some cross into the next line,
				 * which nbsim's helper accesses line by line */
				unsigned size = 1 + ((x >> 10) & 15);
				uint64_t l0 = a & ~UINT64_C(63), l1n = (a + size - 1) & ~UINT64_C(63);
				int al = (x >> 20) & 1, want = 1, got = 1;
				if (((x >> 56) & 15) == 0) {
					/* 1 in 16: invalidate the line (a
					 * non-temporal store) in both */
					int hc = nb_cache_invalidate(&c, a) != NB_CACHE_MISS;
					l1_inval += (unsigned)hc;
					same = nb_l1_invalidate(&l1, a) == hc;
					continue;
				}
				for (uint64_t l = l0; l <= l1n; l += 64)
					want &= nb_cache_access(&c, l, al);
				splits += l0 != l1n;
				if (nb_l1_fast(&l1, a, size)) {
					fast++;
					split_fast += l0 != l1n;
				} else if (l0 == l1n) {
					/* nbsim's lean helper: no second
					 * clock step after the fast path */
					got = nb_l1_after_fast_w(&l1, l0, al, l1.ways);
					slow_hits += (unsigned)got;
				} else {
					for (uint64_t l = l0; l <= l1n; l += 64)
						got &= nb_l1_access(&l1, l, al);
					slow_hits += (unsigned)got;
				}
				same = got == want;
			}
			tap_ok(same, "%u KB: fast path + nb_l1_access (clock step once per access in one line) = true LRU (nb_cache_access): "
			       "%u accesses, stopped at %u", geo[g][0], 400000u, i);
			tap_ok(fast > 10000 && slow_hits > 1000 && l1_inval > 1000,
			       "%u KB: both paths find hits (fast %u, after a stale hint %u); "
			       "%u lines invalidated", geo[g][0], fast, slow_hits, l1_inval);
			unsigned fps = 0, lines = l1.sets * l1.ways;
			for (unsigned k = 0; k < lines; k++) {
				uint64_t key = l1.tag[k];
				fps += ((l1.fp[k >> l1.way_shift] >> (8 * (k & (l1.ways - 1)))) & 0xff) ==
					(key != NB_L1_NO_LINE ? NB_CACHE_FP(key, l1.set_shift) : 0);
			}
			tap_ok(fps == lines, "%u KB: every way's fingerprint byte is its line's (%u of %u)",
			       geo[g][0], fps, lines);
			tap_ok(splits > 10000 && split_fast == 0,
			       "%u KB: no access crossing a line (%u) passes the fast path",
			       geo[g][0], splits);
		}
		/* nb_l1_access alone (nbsim's general path while every access
		 * calls it: the store buffer, --nbsim-cache=cachegrind) steps
		 * the clock itself: true LRU without the fast path */
		for (unsigned g = 0; g < 2; g++) {
			uint64_t x = 7 + g;
			unsigned same = 1, i, hits = 0;
			nb_cache_init(&c, geo[g][0], geo[g][1], 64, 64);
			nb_l1_init(&l1, geo[g][0], geo[g][1]);
			for (i = 0; i < 200000 && same; i++) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				uint64_t a = ((x >> 30) & 0xfff) + ((x >> 50) & 7) * 0x40000;
				int al = (x >> 20) & 1, want = nb_cache_access(&c, a, al);
				same = nb_l1_access(&l1, a, al) == want;
				hits += (unsigned)want;
			}
			tap_ok(same && hits > 1000, "%u KB: nb_l1_access alone = true LRU: %u accesses "
			       "(%u hits), stopped at %u", geo[g][0], 200000u, hits, i);
		}
		/* nb_l1_access_hinted_w (nbsim's general helper, one line)
		 * = nb_l1_access_w with its clock step: the same result on
		 * every access, and the same state, byte for byte (tags,
		 * stamps, fingerprints, hints, clock), with stale hints
		 * (lines 256 KB apart share hint and set) and invalidations */
		for (unsigned g = 0; g < 2; g++) {
			static struct nb_l1 l1h;
			uint64_t x = 11 + g;
			unsigned same = 1, i, hits = 0, hinted = 0;
			nb_l1_init(&l1, geo[g][0], geo[g][1]);
			nb_l1_init(&l1h, geo[g][0], geo[g][1]);
			for (i = 0; i < 200000 && same; i++) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				uint64_t a = ((x >> 30) & 0xfff) + ((x >> 50) & 7) * 0x40000, ln = a >> 6;
				int al = (x >> 20) & 1, want, got;
				if (((x >> 56) & 31) == 0) {
					same = nb_l1_invalidate(&l1, a) == nb_l1_invalidate(&l1h, a);
					continue;
				}
				hinted += l1h.tag[nb_l1_slot(&l1h, a)] == ln;
				want = nb_l1_access_w(&l1, a, al, l1.ways, 1);
				got = l1.ways == 8 ? nb_l1_access_hinted_w(&l1h, a, al, 8)
					: nb_l1_access_hinted_w(&l1h, a, al, 4);
				hits += (unsigned)want;
				same = got == want && ((i & 63) || !memcmp(&l1, &l1h, sizeof l1));
			}
			same = same && !memcmp(&l1, &l1h, sizeof l1);
			tap_ok(same && hinted > 10000 && hits > hinted + 1000,
			       "%u KB: nb_l1_access_hinted_w = nb_l1_access_w (result, state): %u accesses "
			       "(%u hits, %u in the hinted way), stopped at %u", geo[g][0], 200000u,
			       hits, hinted, i);
		}
		tap_ok(!nb_l1_init(&l1, 12, 4) && !nb_l1_init(&l1, 16, 3) && !nb_l1_init(&l1, 64, 8),
		       "nb_l1_init refuses sets or ways not a power of two, and too many lines");
	}
	return tap_done_plan();
}
