/*
 * nb_bus.c - front-side bus and bus-queue model (README "Bus model").
 *
 * Sources (facts only; the tables are ours):
 *  [SDM-NR] Intel SDM Vol. 3B, "Performance Monitoring Events Supported by
 *          Intel NetBurst Microarchitecture for Non-Retirement Counting"
 *          (Table 19-28; A-9 in the 2008 edition): IOQ_allocation (notes
 *          1, 5a, 5b: how the mask fields combine; PREFETCH), BSQ_allocation
 *          (request type / length / memory type encodings, REQ_DEM_TYPE
 *          "demand if set, prefetch if 0", notes 2-4: L2 writebacks to the
 *          L3 are entries of their own, a WB read is the demand sector
 *          followed by a prefetch of the adjacent sector, one entry for
 *          both on models 0 and 1), FSB_data_activity (DRDY asserted 4
 *          processor clocks for a full-line transfer, DBSY_OWN 2,
 *          DBSY_OTHER 4; DRDY_OTHER: data not sampled by this processor,
 *          "may or may not be driven by this processor").
 *  [ORM]   IA-32 Optimization Reference Manual: Table 1-1 note 1 (a miss
 *          fetches the 128-byte sector, two 64-byte lines); "12 processor
 *          cycles to get to the bus and back ... 6-12 bus cycles to access
 *          memory" (the timing model's memory latency, nb_tlb.c); Table
 *          B-1 "Bus Accesses from the Processor" (IOQ_allocation with
 *          ReqA0 = TYPE_BIT0 for all request types).
 *  Bus clocks: Willamette 2.0 GHz / 100 MHz (400 MT/s), Northwood 2.8 GHz
 *          / 200 MHz (800 MT/s), Prescott 3.4 / 200, Cedar Mill 3.6 / 200,
 *          Gallatin 2.8 / 100 (the parts of README "Models"; the bus is
 *          quad-pumped and 64 bits wide: 32 bytes per bus clock, a 64-byte
 *          line in 2 bus clocks [Pentium 4 datasheets, D[63:0]# "driven
 *          four times in a common clock period"]).
 */
#include "nb_bus.h"
#include "nb_tlb.h"

/* core clocks per bus clock (the data transfers' timing) */
static const struct { unsigned model, l3, ratio; } ratios[] = {
	{ 1, 0, 20 },           /* Willamette 2.0 GHz, 100 MHz bus clock  */
	{ 2, 0, 14 },           /* Northwood 2.8 GHz, 200 MHz             */
	{ 3, 0, 17 },           /* Prescott 3.4 GHz, 200 MHz              */
	{ 6, 0, 18 },           /* Cedar Mill 3.6 GHz, 200 MHz            */
	{ 2, 1, 28 },           /* Gallatin Xeon MP 2.8 GHz, 100 MHz      */
};

unsigned nb_bus_ratio(unsigned cpuid_model, unsigned l3)
{
	for (unsigned i = 0; i < sizeof ratios / sizeof ratios[0]; i++)
		if (ratios[i].model == cpuid_model && ratios[i].l3 == (l3 != 0))
			return ratios[i].ratio;
	return 0;
}

int nb_bus_init(struct nb_bus *b, unsigned cpuid_model, unsigned l3)
{
	const struct nb_mem_params *m = nb_mem_params_find(cpuid_model, l3);

	b->p.cpuid_model = cpuid_model;
	b->p.ratio = nb_bus_ratio(cpuid_model, l3);
	if (!m || !b->p.ratio)
		return 0;
	b->p.l2_latency = m->l2_latency;
	b->p.l3_latency = m->l3_latency;
	b->p.mem_latency = m->mem_latency;
	for (unsigned c = 0; c < NB_BUS_NCLASS; c++)
		b->ioq_alloc[c] = b->ioq_cyc[c] = b->bsq_alloc[c] = b->bsq_cyc[c] = 0;
	for (unsigned i = 0; i < NB_FSB_NBITS; i++)
		b->fsb[i] = 0;
	b->timed = 0;
	b->now = b->free_at = 0;
	b->qhead = b->qn = 0;
	b->dropped = 0;
	return 1;
}

/* Lifetimes, in core clocks (a model: README "Bus model"):
 *  - an IOQ read lives from its request to its last data transfer: the
 *    memory latency (measured per part, nb_tlb.c) less the 12 core clocks
 *    to the bus and back [ORM] (it was 12 bus clocks, [ORM]'s upper end,
 *    when the memory latency was 12 + 12 bus clocks);
 *  - an IOQ write (writeback) lives 4 bus clocks: a 2-clock request phase
 *    and the 2-clock data phase of 64 bytes (our choice);
 *  - a BSQ entry lives from the L2 miss until its data is back: the L3
 *    latency on an L3 hit, else (L3 latency +) the memory latency, which
 *    includes the 12 core clocks to the bus and back [ORM]; a writeback's
 *    BSQ entry 12 core clocks + its IOQ life; an L2 writeback into the L3
 *    the L3 latency. */
#define BUS_TO_BUS 12u                  /* core clocks to reach the bus      */
#define IOQ_WR_BUSCLK 4u

/* an IOQ read's life (above) */
static inline uint64_t ioq_read_life(const struct nb_bus_params *p)
{
	return p->mem_latency > BUS_TO_BUS ? p->mem_latency - BUS_TO_BUS : 1;
}

static void alloc(struct nb_bus *b, unsigned cls, uint64_t n, uint64_t ioq_life, uint64_t bsq_life)
{
	if (ioq_life) {
		b->ioq_alloc[cls] += n;
		b->ioq_cyc[cls] += n * ioq_life;
	}
	b->bsq_alloc[cls] += n;
	b->bsq_cyc[cls] += n * bsq_life;
}

/* FSB_data_activity of n 64-byte transfers [SDM-NR FSB_data_activity]:
 * DRDY 4 processor clocks per full line; DBSY 2 (the DBSY_OWN figure;
 * DBSY_DRV the same, our choice), DBSY_OTHER 4.  A read: this processor
 * samples (OWN); a writeback: it drives (DRV) and the memory, not this
 * processor, samples (OTHER). */
static void data(struct nb_bus *b, int write, uint64_t n)
{
	if (write) {
		b->fsb[NB_FSB_DRDY_DRV] += 4 * n;
		b->fsb[NB_FSB_DRDY_OTHER] += 4 * n;
		b->fsb[NB_FSB_DBSY_DRV] += 2 * n;
		b->fsb[NB_FSB_DBSY_OTHER] += 4 * n;
	} else {
		b->fsb[NB_FSB_DRDY_OWN] += 4 * n;
		b->fsb[NB_FSB_DBSY_OWN] += 2 * n;
	}
}

static void count_miss(struct nb_bus *b, int store, int mem, unsigned wb_l3, unsigned wb_mem)
{
	const struct nb_bus_params *p = &b->p;
	unsigned dem = store ? NB_BUS_RFO : NB_BUS_RD;
	uint64_t bsq_life = p->l3_latency + (mem ? p->mem_latency : 0);
	uint64_t ioq_rd = mem ? ioq_read_life(p) : 0;
	uint64_t ioq_wr = (uint64_t)IOQ_WR_BUSCLK * p->ratio;

	/* the demand line, then the adjacent line of the sector as a
	 * prefetch [SDM-NR BSQ_allocation note 3; ORM Table 1-1 note 1]; in
	 * the BSQ one entry for both on model 1 [note 4] */
	alloc(b, dem, 1, ioq_rd, bsq_life);
	if (p->cpuid_model >= 2)
		alloc(b, dem + 1, 1, ioq_rd, bsq_life);
	else if (mem) {
		b->ioq_alloc[dem + 1]++;
		b->ioq_cyc[dem + 1] += ioq_rd;
	}
	if (mem)
		data(b, 0, 2);
	if (wb_l3)
		alloc(b, NB_BUS_WB_L3, wb_l3, 0, p->l3_latency);
	if (wb_mem) {
		alloc(b, NB_BUS_WB, wb_mem, ioq_wr, BUS_TO_BUS + ioq_wr);
		data(b, 1, wb_mem);
	}
}

/*
 * Step mode: the cycles of one miss, relative to its start (the access):
 *   T = L2 latency: the BSQ entries are allocated (the demand line, the
 *       prefetch on models >= 2, the L2 victims written into the L3) and
 *       live as in count_miss: reads until T + B, B = L3 latency (+ the
 *       memory latency if the L3 missed too), L3 writebacks the L3 latency;
 *   I = T + L3 latency + 12: the IOQ reads (demand and prefetch) are
 *       allocated and live the memory latency less 12, to E = T + B: the
 *       end of the load's stall in the timing model;
 *   data: the prefetch line in bus clocks E - 4R and E - 3R, the demand
 *       line in E - 2R and E - R (R = ratio), DRDY 2 cycles at the start
 *       of each, DBSY 2 cycles one bus clock before each line's first;
 *   writebacks one after the other from E: writeback k's BSQ entry from
 *       W = E + 4Rk for 12 + 4R cycles, its IOQ entry from W + 12 for 4R
 *       (a 2-clock request phase, then DRDY in bus clocks 2 and 3 and
 *       DBSY in clock 1: DBSY_DRV 2 cycles, DBSY_OTHER 2 + 2);
 * the miss ends with its last entry.  Totals are those of count_miss.
 */
static uint64_t batch_len(const struct nb_bus *b, const struct nb_bus_batch *x)
{
	const struct nb_bus_params *p = &b->p;
	uint64_t e = p->l2_latency + p->l3_latency + (x->mem ? p->mem_latency : 0);

	if (x->wb_mem)
		return e + (uint64_t)4 * p->ratio * x->wb_mem + BUS_TO_BUS;
	return e;
}

/* is r in [a, a + n) */
static int in(uint64_t r, uint64_t a, uint64_t n)
{
	return r >= a && r - a < n;
}

/* the outputs of miss x in its cycle r */
static void batch_cycle(struct nb_bus *b, const struct nb_bus_batch *x, uint64_t r)
{
	const struct nb_bus_params *p = &b->p;
	uint64_t R = p->ratio, T = p->l2_latency, B = p->l3_latency + (x->mem ? p->mem_latency : 0);
	uint64_t E = T + B, I = T + p->l3_latency + BUS_TO_BUS;
	unsigned dem = x->store ? NB_BUS_RFO : NB_BUS_RD;

	if (r == T) {
		b->bsq_alloc[dem]++;
		if (p->cpuid_model >= 2)
			b->bsq_alloc[dem + 1]++;
		b->bsq_alloc[NB_BUS_WB_L3] += x->wb_l3;
	}
	if (in(r, T, B)) {
		b->bsq_cyc[dem]++;
		if (p->cpuid_model >= 2)
			b->bsq_cyc[dem + 1]++;
	}
	if (in(r, T, p->l3_latency))
		b->bsq_cyc[NB_BUS_WB_L3] += x->wb_l3;
	if (x->mem) {
		if (r == I) {
			b->ioq_alloc[dem]++;
			b->ioq_alloc[dem + 1]++;
		}
		if (in(r, I, ioq_read_life(p))) {
			b->ioq_cyc[dem]++;
			b->ioq_cyc[dem + 1]++;
		}
		for (uint64_t k = 1; k <= 4; k++) {
			if (in(r, E - k * R, 2))
				b->fsb[NB_FSB_DRDY_OWN]++;
			if ((k == 2 || k == 4) && in(r, E - (k + 1) * R, 2))
				b->fsb[NB_FSB_DBSY_OWN]++;
		}
	}
	for (uint64_t k = 0; k < x->wb_mem; k++) {
		uint64_t W = E + 4 * R * k, Q = W + BUS_TO_BUS;
		if (r == W)
			b->bsq_alloc[NB_BUS_WB]++;
		if (in(r, W, BUS_TO_BUS + IOQ_WR_BUSCLK * R))
			b->bsq_cyc[NB_BUS_WB]++;
		if (r == Q)
			b->ioq_alloc[NB_BUS_WB]++;
		if (in(r, Q, IOQ_WR_BUSCLK * R))
			b->ioq_cyc[NB_BUS_WB]++;
		if (in(r, Q + 2 * R, 2) || in(r, Q + 3 * R, 2)) {
			b->fsb[NB_FSB_DRDY_DRV]++;
			b->fsb[NB_FSB_DRDY_OTHER]++;
			b->fsb[NB_FSB_DBSY_OTHER]++;
		}
		if (in(r, Q + R, 2))
			b->fsb[NB_FSB_DBSY_DRV]++;
	}
}

void nb_bus_miss(struct nb_bus *b, int store, int mem, unsigned wb_l3, unsigned wb_mem)
{
	struct nb_bus_batch *x;

	if (!b->timed || b->qn == NB_BUS_QMAX) {
		b->dropped += b->timed;       /* a full queue: at once */
		count_miss(b, store, mem, wb_l3, wb_mem);
		return;
	}
	x = &b->q[(b->qhead + b->qn++) % NB_BUS_QMAX];
	x->start = b->free_at > b->now ? b->free_at : b->now;
	x->store = (uint8_t)(store != 0);
	x->mem = (uint8_t)(mem != 0);
	x->wb_l3 = (uint8_t)wb_l3;
	x->wb_mem = (uint8_t)wb_mem;
	b->free_at = x->start + batch_len(b, x);
}

int nb_bus_advance(struct nb_bus *b)
{
	uint64_t t = b->now++;

	for (unsigned i = 0; i < b->qn; i++) {
		const struct nb_bus_batch *x = &b->q[(b->qhead + i) % NB_BUS_QMAX];
		if (x->start > t)
			break;          /* queued in order, the later ones too */
		batch_cycle(b, x, t - x->start);
	}
	while (b->qn && b->q[b->qhead].start + batch_len(b, &b->q[b->qhead]) <= b->now) {
		b->qhead = (b->qhead + 1) % NB_BUS_QMAX;
		b->qn--;
	}
	return b->qn != 0;
}

void nb_bus_set_timed(struct nb_bus *b, int on)
{
	if (!on) {
		while (b->qn)
			(void)nb_bus_advance(b);
	}
	b->timed = on;
}

/* ---- IOQ_allocation / IOQ_active_entries masks [events.txt, SDM-NR] ---- */

#define IOQ_TYPE     0x1fu              /* bits 0-4: one request-type field */
#define IOQ_TYPE_DEF 0x01u              /* "use 00001 for invalid or default" */
#define IOQ_READ     (1u << 5)
#define IOQ_WRITE    (1u << 6)
#define IOQ_MEM      (0x1fu << 7)       /* UC, WC, WT, WP, WB: bits 7-11   */
#define IOQ_MEM_WB   (1u << 11)
#define IOQ_OWN      (1u << 13)
#define IOQ_PREFETCH (1u << 15)

static int is_prefetch(unsigned cls)
{
	return cls == NB_BUS_RD_PF || cls == NB_BUS_RFO_PF;
}

static int is_write(unsigned cls)
{
	return cls == NB_BUS_WB || cls == NB_BUS_WB_L3;
}

/*
 * Does an IOQ event mask select a transaction of class cls?  Every
 * modelled transaction is this processor's (OWN; no other agent: OTHER
 * never), to write-back memory (MEM_WB; Linux maps user memory WB), and
 * full-line (64 bytes).  The request-type field (bits 0-4, one 5-bit
 * value) selects every type with the default value 00001 [SDM-NR; ORM
 * Table B-1 uses it for "all bus accesses"]; other values name bus request
 * encodings whose mapping to transactions the SDM leaves model-specific:
 * they select nothing here.  Prefetched sectors count only with PREFETCH
 * [SDM-NR note 1].  The fields combine [SDM-NR notes 5a, 5b]:
 *   CPUID model >= 2: type AND (ALL_READ / ALL_WRITE) AND memory type AND
 *                     agent;
 *   model < 2:        (type OR ALL_READ / ALL_WRITE OR memory type) AND
 *                     agent, the memory type ignored when ALL_READ or
 *                     ALL_WRITE is given.
 */
int nb_bus_ioq_match(unsigned cpuid_model, uint32_t mask, unsigned cls)
{
	int type = (mask & IOQ_TYPE) == IOQ_TYPE_DEF;
	int rw = is_write(cls) ? (mask & IOQ_WRITE) != 0 : (mask & IOQ_READ) != 0;
	int mem = (mask & IOQ_MEM_WB) != 0;
	int own = (mask & IOQ_OWN) != 0;

	if (cls == NB_BUS_WB_L3)
		return 0;               /* never on the bus */
	if (is_prefetch(cls) && !(mask & IOQ_PREFETCH))
		return 0;
	if (cpuid_model >= 2)
		return type && rw && mem && own;
	if (mask & (IOQ_READ | IOQ_WRITE))
		mem = 0;
	return (type || rw || mem) && own;
}

uint64_t nb_bus_ioq_count(unsigned cpuid_model, uint32_t mask, const uint64_t w[NB_BUS_NCLASS])
{
	uint64_t n = 0;

	for (unsigned c = 0; c < NB_BUS_NCLASS; c++)
		if (nb_bus_ioq_match(cpuid_model, mask, c))
			n += w[c];
	return n;
}

/* ---- BSQ_allocation / BSQ_active_entries masks [events.txt, SDM-NR] ---- */

/*
 * The BSQ mask is one encoding per sub-group ("specify an encoding for
 * each sub-group" [SDM-NR]): request type (bits 0-1: 0 read, 1 read
 * invalidate, 2 write, 3 writeback), length (bits 2-3: 3 = 8 chunks, a
 * full line), the single bits 5-10 (I/O, lock, cacheable, split, demand
 * (clear: prefetch), ordered), memory type (bits 11-13: 6 = WB).  A
 * transaction is selected when every sub-group equals its own: the mask
 * bits 0-3 and 5-13 equal the transaction's encoding.  Ours: full-line,
 * cacheable, WB, not I/O, not locked, not split, not ordered (our
 * choice: the SDM defines no ordered WB request); demand except the
 * adjacent-sector prefetches; writebacks are demand (our choice).
 */
#define BSQ_LEN_LINE (3u << 2)
#define BSQ_CACHE    (1u << 7)
#define BSQ_DEM      (1u << 9)
#define BSQ_MEM_WB   (6u << 11)
#define BSQ_DEFINED  (0x3fefu)          /* bits 0-3, 5-13 */

uint32_t nb_bus_bsq_encoding(unsigned cls)
{
	static const uint8_t type[NB_BUS_NCLASS] = {
		[NB_BUS_RD] = 0, [NB_BUS_RD_PF] = 0, [NB_BUS_RFO] = 1, [NB_BUS_RFO_PF] = 1,
		[NB_BUS_WB] = 3, [NB_BUS_WB_L3] = 3,
	};
	return type[cls] | BSQ_LEN_LINE | BSQ_CACHE | BSQ_MEM_WB | (is_prefetch(cls) ? 0 : BSQ_DEM);
}

uint64_t nb_bus_bsq_count(uint32_t mask, const uint64_t w[NB_BUS_NCLASS])
{
	uint64_t n = 0;

	for (unsigned c = 0; c < NB_BUS_NCLASS; c++)
		if ((mask & BSQ_DEFINED) == nb_bus_bsq_encoding(c))
			n += w[c];
	return n;
}
