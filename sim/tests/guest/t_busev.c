/*
 * t_busev.c - bus events of nbsim's bus model (README "Bus model") under
 * nbsim (TAP): t_busev.sh runs it on Prescott (1 MB L2, bus ratio 17,
 * memory 292 cycles after the L2's 28) and on the Xeon MP (512 KB L2,
 * 2 MB L3, ratio 28, L3 25 and memory 306 cycles; sim/nb_tlb.c).  An IOQ
 * read lives the memory latency less the 12 cycles to the bus and back
 * (sim/nb_bus.c).
 *
 * Every count is a difference: the same kernel over N1 and N2 64-byte
 * lines of memory never touched before (after a warm-up run), so set-up
 * and register accesses cancel; DN = N2 - N1 lines.  Kernels:
 *   reads   a load per 64-byte line (stride 64) of fresh memory: every
 *           128-byte sector misses every level once (its first line), so
 *           per line one bus read: the sector's two lines, the demand one
 *           and the adjacent-sector prefetch (SDM BSQ_allocation note 3)
 *   writes  a store per 64-byte line of fresh memory (RFOs: the lines
 *           become Modified), then loads over fresh memory of twice the
 *           last level's size, which evict all of them: one writeback per
 *           line written
 * The last checks use CCCR filters (step mode: the bus model's outputs
 * cycle by cycle), over dep_reads: reads whose misses do not overlap.  Each run starts after a pass over fresh memory (twice the last level)
 * that leaves only clean lines in the caches.  Expectations are worked
 * out from nb_bus.c's rules.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "guest.h"

#define N1 2048
#define N2 6144
#define DN (N2 - N1)

/* IOQ mask bits, BSQ encodings [events.txt; nb_bus.c] */
#define IOQ_T0   (1u << 0)
#define IOQ_RD   (1u << 5)
#define IOQ_WR   (1u << 6)
#define IOQ_WB   (1u << 11)
#define IOQ_OWN  (1u << 13)
#define IOQ_PF   (1u << 15)
#define BSQ_LINE ((3u << 2) | (1u << 7) | (6u << 11))   /* 8 chunks, cacheable, WB */
#define BSQ_DEM  (1u << 9)

static char *arena, *cursor, *flush_buf;
static size_t evict_bytes;             /* twice the last level */

typedef void (*kern_fn)(uint64_t n);

static __attribute__((noinline)) void loads(char *p, uint64_t n)
{
	uint64_t t = 0;

	__asm__ volatile("1:\n\tmov (%[p]), %[t]\n\tadd $64, %[p]\n\tdec %[n]\n\tjnz 1b\n\t"
			 : [p] "+r"(p), [n] "+r"(n), [t] "+r"(t) : : "memory", "cc");
}

/* loads, each load's address depending on the previous load's value
 * (and-ed with a register holding 0): the timing model overlaps
 * independent misses (README "Timing model"); these do not */
static __attribute__((noinline)) void dep_loads(char *p, uint64_t n)
{
	uint64_t t = 0, z = 0;

	__asm__ volatile("1:\n\tmov (%[p]), %[t]\n\tand %[z], %[t]\n\tadd %[t], %[p]\n\t"
			 "add $64, %[p]\n\tdec %[n]\n\tjnz 1b\n\t"
			 : [p] "+r"(p), [n] "+r"(n), [t] "+r"(t) : [z] "r"(z) : "memory", "cc");
}

/* a pass over flush_buf (twice the last level): afterwards the caches hold
 * its lines only, clean (LRU); its misses one at a time (in step mode the
 * bus model then has no backlog when a measurement starts) */
static void flush(void)
{
	dep_loads(flush_buf, evict_bytes / 64);
}

static __attribute__((noinline)) void reads(uint64_t n)
{
	loads(cursor, n);
	cursor += n * 64;
}

/* reads one miss at a time (dep_loads): each sector's bus transactions
 * are alone on the bus */
static __attribute__((noinline)) void dep_reads(uint64_t n)
{
	dep_loads(cursor, n);
	cursor += n * 64;
}

static __attribute__((noinline)) void writes(uint64_t n)
{
	char *p = cursor;
	cursor += n * 64;
	__asm__ volatile("1:\n\tmovq $1, (%[p])\n\tadd $64, %[p]\n\tdec %[n]\n\tjnz 1b\n\t"
			 : [p] "+r"(p), [n] "+r"(n) : : "memory", "cc");
	flush();
}

/* every run starts from caches holding only clean lines: a pass over
 * fresh memory of twice the last level's size first (uncounted) */
static int measure(const struct cnt *c, kern_fn fn, uint64_t n, uint64_t *out)
{
	flush();
	return guest_count_start(c, NULL) && (fn(n), 1) && guest_count_stop(c, NULL, out);
}

/* the same with a CCCR filter (Compare, Threshold, Edge: cccr_f), which
 * puts nbsim in step mode (README "Filtering") */
static int measure_f(const struct cnt *c, uint64_t cccr_f, uint64_t n, uint64_t *out)
{
	unsigned ctr = guest_ctr_of(c->escr);
	uint64_t cccr = NB_CCCR_ENABLE | cccr_f |
		((uint64_t)nb_escrs[c->escr].select << NB_CCCR_ESCRSEL_SHIFT) |
		((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT);

	flush();
	if (!guest_wrmsr(nb_escrs[c->escr].msr, guest_escr_val(c)) ||
	    !guest_wrmsr(nb_counters[ctr].msr, 0) || !guest_wrmsr(nb_counters[ctr].cccr_msr, cccr))
		return 0;
	dep_reads(n);
	return guest_count_stop(c, NULL, out);
}

static uint64_t diff_f(unsigned escr, unsigned ev, uint32_t mask, uint64_t cccr_f)
{
	struct cnt c = { escr, ev, mask };
	uint64_t w, x, y;

	/* two warm-up runs: the first step-mode runs still see the bus
	 * queue of the lazy-mode past (writebacks of the measuring code's
	 * dirty lines that the flush evicts delay the next misses: one miss
	 * at a time on the bus) */
	if (!measure_f(&c, cccr_f, N1, &w) || !measure_f(&c, cccr_f, N1, &w) ||
	    !measure_f(&c, cccr_f, N1, &x) || !measure_f(&c, cccr_f, N2, &y))
		return ~0ULL;
	return y - x;
}

/* two IOQ_allocation counters at once, on FSB_ESCR0 (counter 0) and
 * FSB_ESCR1 (counter 2): their masks share the signals of one event
 * (README "Bus model", Masks); d[i]: the differences */
static int diff2(uint32_t m0, uint32_t m1, kern_fn fn, uint64_t d[2])
{
	struct cnt c[2] = { { NB_ESCR_FSB_ESCR0, NB_EV_IOQ_ALLOCATION, m0 },
			    { NB_ESCR_FSB_ESCR1, NB_EV_IOQ_ALLOCATION, m1 } };
	uint64_t v[3][2];

	for (unsigned r = 0; r < 3; r++) {
		flush();
		if (!guest_count_start(&c[0], NULL) || !guest_count_start(&c[1], NULL))
			return 0;
		fn(r < 2 ? N1 : N2);
		if (!guest_count_stop(&c[0], NULL, &v[r][0]) || !guest_count_stop(&c[1], NULL, &v[r][1]))
			return 0;
	}
	d[0] = v[2][0] - v[1][0];
	d[1] = v[2][1] - v[1][1];
	return 1;
}

#define THR(n) (NB_CCCR_COMPARE | ((uint64_t)(n) << NB_CCCR_THR_SHIFT))

/* warm-up, N1, N2: the difference (~0 on failure) */
static uint64_t diff(unsigned escr, unsigned ev, uint32_t mask, kern_fn fn)
{
	struct cnt c = { escr, ev, mask };
	uint64_t w, x, y;

	if (!measure(&c, fn, N1, &w) || !measure(&c, fn, N1, &x) || !measure(&c, fn, N2, &y))
		return ~0ULL;
	return y - x;
}

int main(void)
{
	struct nbsim_info inf;
	unsigned ratio, l3;
	uint64_t bsq_rd_life, wb_bsq, ioq_rd_life;
	const uint32_t ioq_rd = IOQ_T0 | IOQ_RD | IOQ_WB | IOQ_OWN;

	arena = mmap(NULL, (size_t)256 << 20, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!tap_ok(nbsim_present() && arena != MAP_FAILED, "running under nbsim"))
		return 1;
	memset(&inf, 0, sizeof inf);
	nbsim_info(&inf);
	l3 = inf.l3_kb != 0;
	if (!tap_ok((inf.model == 3 && !l3) || (inf.model == 2 && inf.l3_kb == 2048),
		    "Prescott or Xeon MP with a 2 MB L3: %s", inf.model_name))
		return 1;
	ratio = l3 ? 28 : 17;
	bsq_rd_life = l3 ? 25 + 306 : 292;
	ioq_rd_life = l3 ? 306 - 12 : 292 - 12;
	wb_bsq = l3 ? 2 : 1;            /* L2 -> L3 and L3 -> memory */
	evict_bytes = (size_t)2 * (l3 ? 2048 : 1024) * 1024;   /* L3 / L2 (README "Cache model") */
	flush_buf = arena;
	cursor = arena + evict_bytes;

	/* reads */
	TAP_EQ(diff(NB_ESCR_FSB_ESCR0, NB_EV_IOQ_ALLOCATION, ioq_rd | IOQ_PF, reads), DN,
	       "IOQ_allocation TYPE_BIT0|ALL_READ|MEM_WB|OWN|PREFETCH: a bus read per line (%u)", DN);
	TAP_EQ(diff(NB_ESCR_FSB_ESCR1, NB_EV_IOQ_ALLOCATION, ioq_rd, reads), DN / 2,
	       "... without PREFETCH (on FSB_ESCR1): the demand half, one per sector");
	TAP_EQ(diff(NB_ESCR_FSB_ESCR0, NB_EV_IOQ_ALLOCATION, IOQ_T0 | IOQ_WR | IOQ_WB | IOQ_OWN, reads), 0,
	       "... ALL_WRITE: no writeback (clean lines)");
	TAP_EQ(diff(NB_ESCR_FSB_ESCR0, NB_EV_IOQ_ALLOCATION, (ioq_rd | IOQ_PF | (1u << 14)) & ~IOQ_OWN, reads), 0,
	       "... OTHER instead of OWN: 0 (no other bus agent)");
	TAP_EQ(diff(NB_ESCR_FSB_ESCR1, NB_EV_IOQ_ACTIVE_ENTRIES, ioq_rd | IOQ_PF, reads),
	       (uint64_t)DN * ioq_rd_life, "IOQ_active_entries: %llu cycles per read",
	       (unsigned long long)ioq_rd_life);
	TAP_EQ(diff(NB_ESCR_BSU_ESCR0, NB_EV_BSQ_ALLOCATION, BSQ_LINE | BSQ_DEM, reads), DN / 2,
	       "BSQ_allocation demand reads: one per sector");
	TAP_EQ(diff(NB_ESCR_BSU_ESCR0, NB_EV_BSQ_ALLOCATION, BSQ_LINE, reads), DN / 2,
	       "BSQ_allocation prefetch reads (REQ_DEM_TYPE clear): one per sector");
	TAP_EQ(diff(NB_ESCR_BSU_ESCR1, NB_EV_BSQ_ACTIVE_ENTRIES, BSQ_LINE | BSQ_DEM, reads),
	       (uint64_t)DN / 2 * bsq_rd_life, "BSQ_active_entries demand reads: %llu cycles each",
	       (unsigned long long)bsq_rd_life);
	TAP_EQ(diff(NB_ESCR_FSB_ESCR0, NB_EV_FSB_DATA_ACTIVITY, 1u << 1, reads), 4 * DN,
	       "FSB_data_activity DRDY_OWN: 4 clocks per line read");
	TAP_EQ(diff(NB_ESCR_FSB_ESCR1, NB_EV_FSB_DATA_ACTIVITY, 1u << 4, reads), 2 * DN,
	       "FSB_data_activity DBSY_OWN: 2 clocks per line read");
	TAP_EQ(diff(NB_ESCR_FSB_ESCR0, NB_EV_FSB_DATA_ACTIVITY, 1u << 0, reads), 0,
	       "FSB_data_activity DRDY_DRV: 0 (nothing written)");

	/* writes, then evicted */
	TAP_EQ(diff(NB_ESCR_FSB_ESCR0, NB_EV_IOQ_ALLOCATION, IOQ_T0 | IOQ_WR | IOQ_WB | IOQ_OWN, writes), DN,
	       "written lines evicted: IOQ_allocation ALL_WRITE: a writeback per line");
	TAP_EQ(diff(NB_ESCR_BSU_ESCR0, NB_EV_BSQ_ALLOCATION, BSQ_LINE | BSQ_DEM | 3, writes), wb_bsq * DN,
	       "BSQ_allocation writebacks: %llu per line (%s)", (unsigned long long)wb_bsq,
	       l3 ? "into the L3, then to memory" : "to memory");
	TAP_EQ(diff(NB_ESCR_BSU_ESCR0, NB_EV_BSQ_ALLOCATION, BSQ_LINE | BSQ_DEM | 1, writes), DN / 2,
	       "BSQ_allocation read-invalidates (RFOs): one per sector");
	TAP_EQ(diff(NB_ESCR_FSB_ESCR0, NB_EV_FSB_DATA_ACTIVITY, 1u << 0, writes), 4 * DN,
	       "FSB_data_activity DRDY_DRV: 4 clocks per line written back");
	TAP_EQ(diff(NB_ESCR_FSB_ESCR1, NB_EV_IOQ_ACTIVE_ENTRIES, IOQ_T0 | IOQ_WR | IOQ_WB | IOQ_OWN, writes),
	       (uint64_t)DN * 4 * ratio, "IOQ_active_entries writes: 4 bus clocks (%u cycles) each", 4 * ratio);

	/* both FSB ESCRs counting IOQ_allocation with different masks */
	{
		uint64_t d[2] = { 0, 0 };
		int ok = diff2(ioq_rd | IOQ_PF, ioq_rd, reads, d);
		tap_ok(ok && d[0] == DN && d[1] == DN / 2,
		       "two IOQ_allocation counters, nested masks (with / without PREFETCH): %llu and %llu",
		       (unsigned long long)d[0], (unsigned long long)d[1]);
		ok = diff2(IOQ_T0 | IOQ_RD | IOQ_WB | IOQ_OWN | IOQ_PF, IOQ_T0 | IOQ_WR | IOQ_WB | IOQ_OWN,
			   writes, d);
		tap_ok(ok && d[0] == DN && d[1] == DN,
		       "... ALL_READ and ALL_WRITE at once over the writes: RFO reads %llu, writebacks %llu",
		       (unsigned long long)d[0], (unsigned long long)d[1]);
	}

	/* per cycle (step mode: a Compare filter): each sector's two reads
	 * are in the IOQ together for ioq_rd_life cycles; its 64-byte lines'
	 * data: DRDY in 2 bus clocks each, one edge per bus clock */
	TAP_EQ(diff_f(NB_ESCR_FSB_ESCR1, NB_EV_IOQ_ACTIVE_ENTRIES, ioq_rd | IOQ_PF, THR(0)),
	       (uint64_t)DN / 2 * ioq_rd_life, "step mode: cycles with an IOQ entry (Compare, threshold 0): "
	       "%llu per sector", (unsigned long long)ioq_rd_life);
	TAP_EQ(diff_f(NB_ESCR_FSB_ESCR1, NB_EV_IOQ_ACTIVE_ENTRIES, ioq_rd | IOQ_PF, THR(1)),
	       (uint64_t)DN / 2 * ioq_rd_life, "... with more than 1: the same (demand and prefetch together)");
	TAP_EQ(diff_f(NB_ESCR_FSB_ESCR1, NB_EV_IOQ_ACTIVE_ENTRIES, ioq_rd | IOQ_PF, THR(2)), 0,
	       "... with more than 2: none");
	TAP_EQ(diff_f(NB_ESCR_FSB_ESCR0, NB_EV_FSB_DATA_ACTIVITY, 1u << 1, THR(0) | NB_CCCR_EDGE), 2 * DN,
	       "FSB_data_activity DRDY_OWN with Edge (the SDM's advice): 2 per line, one per bus clock of data");
	TAP_EQ(diff_f(NB_ESCR_FSB_ESCR1, NB_EV_IOQ_ACTIVE_ENTRIES, ioq_rd | IOQ_PF, 0),
	       (uint64_t)DN * ioq_rd_life, "IOQ_active_entries unfiltered in step mode: as counted at once");
	return tap_done_plan();
}
