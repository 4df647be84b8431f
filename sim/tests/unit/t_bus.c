/*
 * t_bus.c - native unit test of the bus model (nb_bus.c) and of
 * nb_cache_peek (TAP).  Every expectation is worked out by hand from the
 * rules in nb_bus.c (README "Bus model").
 */
#include <stdio.h>
#include <string.h>
#include "cpu/nb_bus.h"
#include "cpu/nb_cache.h"
#include "cpu/nb_tlb.h"
#include "tap.h"

/* IOQ mask bits [events.txt] */
#define T0   (1u << 0)
#define T1   (1u << 1)
#define RD   (1u << 5)
#define WR   (1u << 6)
#define UC   (1u << 7)
#define WB   (1u << 11)
#define OWN  (1u << 13)
#define OTH  (1u << 14)
#define PF   (1u << 15)
/* BSQ encodings: length 8 chunks (bits 2-3 = 3), cacheable (7), demand
 * (9), WB = 6 in bits 11-13 */
#define B_LINE  (3u << 2)
#define B_CACHE (1u << 7)
#define B_DEM   (1u << 9)
#define B_WB    (6u << 11)

static struct nb_cache c;

static void test_params(void)
{
	static const unsigned models[][2] = { { 1, 0 }, { 2, 0 }, { 3, 0 }, { 6, 0 }, { 2, 1 } };
	static const unsigned ratio[] = { 20, 14, 17, 18, 28 };

	for (unsigned i = 0; i < 5; i++) {
		struct nb_bus b;
		const struct nb_mem_params *m = nb_mem_params_find(models[i][0], models[i][1]);
		int ok = nb_bus_init(&b, models[i][0], models[i][1]);
		tap_ok(ok && m && b.p.ratio == ratio[i] && b.p.mem_latency == m->mem_latency &&
		       b.p.l3_latency == m->l3_latency && b.p.l2_latency == m->l2_latency,
		       "model %u%s: bus ratio %u, the latencies of nb_tlb.c (memory %u)",
		       models[i][0], models[i][1] ? " L3" : "", ratio[i], m ? m->mem_latency : 0);
	}
	{
		struct nb_bus b;
		tap_ok(!nb_bus_init(&b, 4, 0) && !nb_bus_init(&b, 3, 1), "no parameters for an unknown part");
	}
}

static void test_ioq_rules(void)
{
	const uint32_t all = T0 | RD | WR | UC | (0xfu << 8) | OWN | PF;   /* ORM B-1, model >= 2 */

	/* model >= 2: type AND read/write AND memory AND agent */
	tap_ok(nb_bus_ioq_match(3, all, NB_BUS_RD) && nb_bus_ioq_match(3, all, NB_BUS_RFO_PF) &&
	       nb_bus_ioq_match(3, all, NB_BUS_WB) && !nb_bus_ioq_match(3, all, NB_BUS_WB_L3),
	       "model 3, ORM's 'all bus accesses' mask: reads, prefetches, writebacks; not L2->L3 writebacks");
	tap_ok(!nb_bus_ioq_match(3, all & ~PF, NB_BUS_RD_PF) && nb_bus_ioq_match(3, all & ~PF, NB_BUS_RD),
	       "without PREFETCH the adjacent-sector reads do not count, demand reads do");
	tap_ok(!nb_bus_ioq_match(3, T0 | RD | WB, NB_BUS_RD), "model 3: no agent bit: nothing");
	tap_ok(!nb_bus_ioq_match(3, T0 | RD | WB | OTH, NB_BUS_RD), "model 3: OTHER alone: nothing (one agent)");
	tap_ok(!nb_bus_ioq_match(3, RD | WB | OWN, NB_BUS_RD), "model 3: type field 0: nothing");
	tap_ok(!nb_bus_ioq_match(3, T1 | RD | WB | OWN, NB_BUS_RD) &&
	       !nb_bus_ioq_match(3, T0 | T1 | RD | WB | OWN, NB_BUS_RD),
	       "model 3: type fields other than 00001: nothing");
	tap_ok(!nb_bus_ioq_match(3, T0 | RD | UC | OWN, NB_BUS_RD), "model 3: memory type UC only: nothing (all WB)");
	tap_ok(nb_bus_ioq_match(3, T0 | RD | WB | OWN, NB_BUS_RFO) && !nb_bus_ioq_match(3, T0 | RD | WB | OWN, NB_BUS_WB),
	       "model 3: ALL_READ: RFOs yes, writebacks no");
	tap_ok(nb_bus_ioq_match(3, T0 | WR | WB | OWN, NB_BUS_WB) && !nb_bus_ioq_match(3, T0 | WR | WB | OWN, NB_BUS_RD),
	       "model 3: ALL_WRITE: writebacks yes, reads no");
	/* model 1: (type OR read/write OR memory) AND agent */
	tap_ok(nb_bus_ioq_match(1, T0 | OWN, NB_BUS_RD) && nb_bus_ioq_match(1, T0 | OWN, NB_BUS_WB),
	       "model 1: type 00001 alone selects all");
	tap_ok(nb_bus_ioq_match(1, RD | OWN, NB_BUS_RD) && !nb_bus_ioq_match(1, RD | OWN, NB_BUS_WB),
	       "model 1: ALL_READ alone: reads");
	tap_ok(nb_bus_ioq_match(1, WB | OWN, NB_BUS_WB) && !nb_bus_ioq_match(1, RD | WB | OWN, NB_BUS_WB),
	       "model 1: memory type counts alone, ignored with ALL_READ");
	tap_ok(!nb_bus_ioq_match(1, T0 | RD | WR | WB, NB_BUS_RD), "model 1: still needs the agent");
	tap_ok(nb_bus_ioq_match(1, T0 | RD | WR | OWN | PF, NB_BUS_RD_PF) &&
	       !nb_bus_ioq_match(1, T0 | RD | WR | OWN, NB_BUS_RD_PF),
	       "model 1: ORM's recipes with and without PREFETCH");
}

static void test_bsq_rules(void)
{
	uint64_t w[NB_BUS_NCLASS] = { 1, 10, 100, 1000, 10000, 100000 };
	const uint32_t rd = B_LINE | B_CACHE | B_DEM | B_WB;

	tap_ok(nb_bus_bsq_encoding(NB_BUS_RD) == rd && nb_bus_bsq_encoding(NB_BUS_RD_PF) == (rd & ~B_DEM) &&
	       nb_bus_bsq_encoding(NB_BUS_RFO) == (rd | 1) && nb_bus_bsq_encoding(NB_BUS_RFO_PF) == ((rd | 1) & ~B_DEM) &&
	       nb_bus_bsq_encoding(NB_BUS_WB) == (rd | 3) && nb_bus_bsq_encoding(NB_BUS_WB_L3) == (rd | 3),
	       "BSQ encodings: read 0x%x, prefetch without bit 9, RFO type 1, writeback type 3", rd);
	tap_ok(nb_bus_bsq_count(rd, w) == 1 && nb_bus_bsq_count(rd & ~B_DEM, w) == 10 &&
	       nb_bus_bsq_count(rd | 1, w) == 100 && nb_bus_bsq_count((rd | 1) & ~B_DEM, w) == 1000 &&
	       nb_bus_bsq_count(rd | 3, w) == 110000, "each sub-group must equal the transaction's encoding");
	tap_ok(nb_bus_bsq_count(rd | 3 | (1u << 4) | (3u << 14), w) == 110000,
	       "undefined bits 4, 14, 15 are ignored");
	tap_ok(nb_bus_bsq_count(rd | 2, w) == 0 && nb_bus_bsq_count(rd | (1u << 11), w) == 0 &&
	       nb_bus_bsq_count(rd | (1u << 6), w) == 0 && nb_bus_bsq_count(rd & ~B_CACHE, w) == 0 &&
	       nb_bus_bsq_count(rd & ~(1u << 2), w) == 0,
	       "writes other than writebacks, memory type 7, locks, uncacheable, 1 chunk: nothing");
}

static void test_miss(void)
{
	struct nb_bus b;

	/* Prescott (ratio 17, L2 28, memory 292): a load missing the L2 */
	nb_bus_init(&b, 3, 0);
	nb_bus_miss(&b, 0, 1, 0, 0);
	tap_ok(b.ioq_alloc[NB_BUS_RD] == 1 && b.ioq_alloc[NB_BUS_RD_PF] == 1 &&
	       b.ioq_cyc[NB_BUS_RD] == 280 && b.ioq_cyc[NB_BUS_RD_PF] == 280,
	       "prescott load miss: 2 IOQ reads (demand + adjacent prefetch), the memory latency less 12 = 280 cycles each");
	tap_ok(b.bsq_alloc[NB_BUS_RD] == 1 && b.bsq_alloc[NB_BUS_RD_PF] == 1 && b.bsq_cyc[NB_BUS_RD] == 292,
	       "... 2 BSQ entries, each the memory latency (292)");
	tap_ok(b.fsb[NB_FSB_DRDY_OWN] == 8 && b.fsb[NB_FSB_DBSY_OWN] == 4 && b.fsb[NB_FSB_DRDY_DRV] == 0,
	       "... DRDY_OWN 2 x 4 clocks, DBSY_OWN 2 x 2, nothing driven");
	/* a store missing the L2, evicting a Modified 128-byte line */
	nb_bus_miss(&b, 1, 1, 0, 2);
	tap_ok(b.ioq_alloc[NB_BUS_RFO] == 1 && b.ioq_alloc[NB_BUS_RFO_PF] == 1 && b.ioq_alloc[NB_BUS_WB] == 2 &&
	       b.ioq_cyc[NB_BUS_WB] == 2 * 4 * 17 && b.bsq_cyc[NB_BUS_WB] == 2 * (12 + 68),
	       "prescott RFO with a Modified victim: 2 read-invalidates, 2 writebacks of 4 bus clocks (68), BSQ 80 each");
	tap_ok(b.fsb[NB_FSB_DRDY_DRV] == 8 && b.fsb[NB_FSB_DRDY_OTHER] == 8 && b.fsb[NB_FSB_DBSY_DRV] == 4 &&
	       b.fsb[NB_FSB_DBSY_OTHER] == 8 && b.fsb[NB_FSB_DRDY_OWN] == 16,
	       "... writebacks drive DRDY (DRV and OTHER, 4 each) and DBSY (DRV 2, OTHER 4)");
	tap_ok(nb_bus_ioq_count(3, T0 | RD | WR | WB | OWN | PF, b.ioq_alloc) == 6 &&
	       nb_bus_ioq_count(3, T0 | RD | WR | WB | OWN, b.ioq_alloc) == 4 &&
	       nb_bus_ioq_count(3, T0 | WR | WB | OWN, b.ioq_alloc) == 2,
	       "IOQ_allocation: all 6, non-prefetch 4, writes 2");
	tap_ok(nb_bus_ioq_count(3, T0 | RD | WB | OWN | PF, b.ioq_cyc) == 4 * 280,
	       "IOQ_active_entries, reads: 4 x 280 entry-cycles");

	/* Xeon MP (L2 18, L3 25, memory 306, ratio 28): an L2 miss hitting the L3 */
	nb_bus_init(&b, 2, 1);
	nb_bus_miss(&b, 0, 0, 2, 0);
	tap_ok(b.ioq_alloc[NB_BUS_RD] == 0 && b.ioq_alloc[NB_BUS_RD_PF] == 0 && b.bsq_alloc[NB_BUS_RD] == 1 &&
	       b.bsq_alloc[NB_BUS_RD_PF] == 1 && b.bsq_cyc[NB_BUS_RD] == 25 && b.fsb[NB_FSB_DRDY_OWN] == 0,
	       "xeonmp L3 hit: 2 BSQ entries of 25 cycles, no bus transaction");
	tap_ok(b.bsq_alloc[NB_BUS_WB_L3] == 2 && b.bsq_cyc[NB_BUS_WB_L3] == 50 && b.ioq_alloc[NB_BUS_WB_L3] == 0,
	       "... a Modified L2 victim: 2 BSQ writebacks into the L3 (25 cycles), not on the bus");
	nb_bus_miss(&b, 0, 1, 0, 2);
	tap_ok(b.ioq_alloc[NB_BUS_RD] == 1 && b.ioq_cyc[NB_BUS_RD] == 306 - 12 && b.bsq_cyc[NB_BUS_RD] == 25 + 25 + 306 &&
	       b.ioq_alloc[NB_BUS_WB] == 2,
	       "xeonmp L3 miss: IOQ read 294 cycles, BSQ 25 + 306, a Modified L3 victim written back");
	tap_ok(nb_bus_bsq_count(B_LINE | B_CACHE | B_DEM | B_WB | 3, b.bsq_alloc) == 4,
	       "BSQ_allocation writebacks: 2 to the L3 + 2 to memory");
	/* Willamette: one BSQ entry for both sectors (SDM note 4), two IOQ */
	nb_bus_init(&b, 1, 0);
	nb_bus_miss(&b, 0, 1, 0, 0);
	tap_ok(b.bsq_alloc[NB_BUS_RD] == 1 && b.bsq_alloc[NB_BUS_RD_PF] == 0 &&
	       b.ioq_alloc[NB_BUS_RD] == 1 && b.ioq_alloc[NB_BUS_RD_PF] == 1 && b.ioq_cyc[NB_BUS_RD_PF] == 290,
	       "willamette: 1 BSQ entry, 2 IOQ reads of 290 cycles (memory 302 less 12)");
}

static int same_totals(const struct nb_bus *a, const struct nb_bus *b)
{
	for (unsigned c = 0; c < NB_BUS_NCLASS; c++)
		if (a->ioq_alloc[c] != b->ioq_alloc[c] || a->ioq_cyc[c] != b->ioq_cyc[c] ||
		    a->bsq_alloc[c] != b->bsq_alloc[c] || a->bsq_cyc[c] != b->bsq_cyc[c])
			return 0;
	for (unsigned i = 0; i < NB_FSB_NBITS; i++)
		if (a->fsb[i] != b->fsb[i])
			return 0;
	return 1;
}

/* step mode: per cycle, what a Compare filter sees */
struct trace {
	uint64_t cycles, ioq_busy, ioq_two, ioq_max, bsq_max, drdy_edges, dbsy, first_ioq, last_ioq;
};

static void run(struct nb_bus *b, struct trace *t, uint64_t limit)
{
	uint64_t prev_drdy = 0;
	int busy = 1;

	for (uint64_t n = 0; n < limit && busy; n++) {
		uint64_t io = 0, bs = 0, dr;
		for (unsigned c = 0; c < NB_BUS_NCLASS; c++) {
			io -= b->ioq_cyc[c];
			bs -= b->bsq_cyc[c];
		}
		dr = b->fsb[NB_FSB_DRDY_OWN] + b->fsb[NB_FSB_DRDY_DRV];
		busy = nb_bus_advance(b);
		for (unsigned c = 0; c < NB_BUS_NCLASS; c++) {
			io += b->ioq_cyc[c];
			bs += b->bsq_cyc[c];
		}
		dr = b->fsb[NB_FSB_DRDY_OWN] + b->fsb[NB_FSB_DRDY_DRV] - dr;
		t->cycles++;
		if (io) {
			if (!t->ioq_busy)
				t->first_ioq = n;
			t->last_ioq = n;
			t->ioq_busy++;
		}
		t->ioq_two += io >= 2;
		t->ioq_max = io > t->ioq_max ? io : t->ioq_max;
		t->bsq_max = bs > t->bsq_max ? bs : t->bsq_max;
		t->drdy_edges += dr && !prev_drdy;
		prev_drdy = dr;
	}
}

static void test_timed(void)
{
	struct nb_bus lazy, b;
	struct trace t = { 0 };

	/* Prescott load miss: IOQ reads active from 28 + 12 = 40 to 28 + 292 */
	nb_bus_init(&b, 3, 0);
	nb_bus_set_timed(&b, 1);
	nb_bus_miss(&b, 0, 1, 0, 0);
	tap_ok(b.ioq_alloc[NB_BUS_RD] == 0 && b.qn == 1, "step mode: a miss waits in the queue");
	run(&b, &t, 10000);
	tap_ok(t.cycles == 320 && t.first_ioq == 40 && t.last_ioq == 319 && t.ioq_busy == 280 && t.ioq_two == 280,
	       "prescott load miss: 320 cycles, 2 IOQ entries in cycles 40-319 (280 = the memory latency less 12)");
	tap_ok(t.ioq_max == 2 && t.bsq_max == 2 && t.drdy_edges == 4 && b.fsb[NB_FSB_DRDY_OWN] == 8,
	       "... at most 2 entries, DRDY_OWN 8 cycles in 4 pulses (an edge per bus clock of data)");
	nb_bus_init(&lazy, 3, 0);
	nb_bus_miss(&lazy, 0, 1, 0, 0);
	tap_ok(same_totals(&lazy, &b), "... the same totals as counted at once");

	/* two misses, the second with writebacks: one after the other */
	nb_bus_init(&b, 3, 0);
	nb_bus_set_timed(&b, 1);
	nb_bus_miss(&b, 0, 1, 0, 0);
	nb_bus_miss(&b, 1, 1, 0, 2);
	tap_ok(b.q[1].start == 320 && b.free_at == 320 + 320 + 2 * 68 + 12,
	       "a second miss starts when the first ends (320); it ends after 2 writebacks of 68 + 12");
	memset(&t, 0, sizeof t);
	run(&b, &t, 10000);
	nb_bus_init(&lazy, 3, 0);
	nb_bus_miss(&lazy, 0, 1, 0, 0);
	nb_bus_miss(&lazy, 1, 1, 0, 2);
	tap_ok(same_totals(&lazy, &b) && t.cycles == 788 && t.ioq_max == 2 && t.bsq_max == 2,
	       "... same totals as at once, 788 cycles, never more than 2 entries");
	tap_ok(t.drdy_edges == 12, "... DRDY edges: 4 per miss's reads, 2 per writeback: 12 (got %llu)", (unsigned long long)t.drdy_edges);

	/* Xeon MP: an L3 hit with 2 L2 victims into the L3, then a miss */
	nb_bus_init(&b, 2, 1);
	nb_bus_set_timed(&b, 1);
	nb_bus_miss(&b, 0, 0, 2, 0);
	nb_bus_miss(&b, 1, 1, 2, 2);
	memset(&t, 0, sizeof t);
	run(&b, &t, 10000);
	nb_bus_init(&lazy, 2, 1);
	nb_bus_miss(&lazy, 0, 0, 2, 0);
	nb_bus_miss(&lazy, 1, 1, 2, 2);
	tap_ok(same_totals(&lazy, &b) && t.bsq_max == 4 && t.ioq_max == 2,
	       "xeonmp: same totals as at once; BSQ at most 4 (2 reads + 2 L3 writebacks)");
	tap_ok(t.cycles == 43 + (18 + 25 + 306 + 2 * 112 + 12),
	       "... 43 cycles for the L3 hit, then 18 + 25 + 306 + 2 x 112 + 12");

	/* a full queue: counted at once; switching step mode off drains it */
	nb_bus_init(&b, 3, 0);
	nb_bus_set_timed(&b, 1);
	for (unsigned i = 0; i < NB_BUS_QMAX + 3; i++)
		nb_bus_miss(&b, 0, 1, 0, 0);
	tap_ok(b.qn == NB_BUS_QMAX && b.dropped == 3 && b.ioq_alloc[NB_BUS_RD] == 3,
	       "queue of %u full: 3 more misses counted at once", NB_BUS_QMAX);
	nb_bus_set_timed(&b, 0);
	tap_ok(b.qn == 0 && b.ioq_alloc[NB_BUS_RD] == NB_BUS_QMAX + 3 && !b.timed,
	       "step mode off: the queue is counted out");
}

static void test_peek(void)
{
	uint64_t v;

	/* 16 KB, 8 ways, 128-byte lines of two 64-byte sectors: 16 sets,
	 * lines 2 KB apart share a set */
	tap_ok(nb_cache_init(&c, 16, 8, 128, 64), "16 KB 8-way sectored cache");
	for (unsigned i = 0; i < 8; i++)
		nb_cache_ref(&c, (uint64_t)i * 2048, NB_FILL_LINE, i == 0);
	tap_ok(nb_cache_peek(&c, 0, &v) == NB_CACHE_DIRTY && v == 0 &&
	       nb_cache_peek(&c, 2048 + 64, &v) == NB_CACHE_CLEAN && v == 0,
	       "peek: present lines, their state, no victim");
	tap_ok(nb_cache_peek(&c, 8 * 2048, &v) == NB_CACHE_MISS && v == ((1 | (UINT64_C(3) << NB_TAG_VSHIFT) | NB_TAG_DIRTY)) &&
	       nb_cache_dirty_sectors(v) == 2,
	       "peek of a 9th line: the victim is the LRU line 0, Modified, 2 sectors");
	tap_ok(nb_cache_ref(&c, 8 * 2048, NB_FILL_LINE, 0) == NB_CACHE_MISS &&
	       nb_cache_peek(&c, 0, &v) == NB_CACHE_MISS && (v & NB_TAG_KEY) == 2048 / 128 + 1 &&
	       nb_cache_dirty_sectors(v) == 0,
	       "the reference evicted it; the next victim is line 1, clean");
	tap_ok(nb_cache_peek(&c, 128, &v) == NB_CACHE_MISS && nb_cache_peek(&c, 64 + 17 * 128, &v) == NB_CACHE_MISS &&
	       v == 0, "another set, empty: no victim");
}

int main(void)
{
	tap_plan(52);
	test_params();
	test_ioq_rules();
	test_bsq_rules();
	test_miss();
	test_timed();
	test_peek();
	return tap_fail != 0;
}
