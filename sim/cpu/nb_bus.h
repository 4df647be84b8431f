/*
 * nb_bus.h - front-side bus and bus-queue model (README "Bus model"):
 * the bus transactions of the cache model's last-level misses and
 * writebacks, how the IOQ_allocation / IOQ_active_entries /
 * BSQ_allocation / BSQ_active_entries event masks select them, and their
 * queue occupancy and data-bus cycles.  Pure module (no libc, no
 * valgrind); nb_bus.c has the rules and their sources.
 */
#ifndef NB_BUS_H
#define NB_BUS_H

#include <stdint.h>

/* Transaction classes (all 64 bytes, write-back memory, this agent) */
enum {
	NB_BUS_RD,        /* read of the missed line (a load)                 */
	NB_BUS_RD_PF,     /* read of the other line of its 128-byte sector     */
	NB_BUS_RFO,       /* read-invalidate of the missed line (a store)      */
	NB_BUS_RFO_PF,    /* read-invalidate of the other line of the sector   */
	NB_BUS_WB,        /* writeback of a Modified line to memory            */
	NB_BUS_WB_L3,     /* writeback of a Modified L2 line to the L3 (BSQ    */
			  /* only, parts with an L3)                           */
	NB_BUS_NCLASS
};

/* FSB_data_activity mask bits [events.txt] */
enum { NB_FSB_DRDY_DRV, NB_FSB_DRDY_OWN, NB_FSB_DRDY_OTHER,
       NB_FSB_DBSY_DRV, NB_FSB_DBSY_OWN, NB_FSB_DBSY_OTHER, NB_FSB_NBITS };

/* Per-part parameters: the bus clock ratio (nb_bus.c) and the timing
 * model's latencies (struct nb_mem_params, nb_tlb.c) */
struct nb_bus_params {
	unsigned cpuid_model;
	unsigned ratio;           /* core clocks per bus clock                 */
	unsigned l2_latency;      /* core clocks of an L2 hit                  */
	unsigned mem_latency;     /* of a last-level miss                      */
	unsigned l3_latency;      /* of an L3 hit (0: no L3)                   */
};

/* Step mode (a filtering counter, README "Filtering"): the misses wait
 * in a queue and their entries, allocations and data cycles are added to
 * the totals cycle by cycle (nb_bus_advance).  One miss's transactions
 * at a time: a miss starts when the previous one has finished. */
#define NB_BUS_QMAX 64
struct nb_bus_batch {
	uint64_t start;           /* cycle of its BSQ allocation - L2 latency  */
	uint8_t store, mem, wb_l3, wb_mem;
};

/* Totals since init: what the PMU signals are derived from */
struct nb_bus {
	struct nb_bus_params p;
	uint64_t ioq_alloc[NB_BUS_NCLASS];   /* IOQ entries allocated          */
	uint64_t ioq_cyc[NB_BUS_NCLASS];     /* IOQ entry-cycles (active)      */
	uint64_t bsq_alloc[NB_BUS_NCLASS];   /* BSQ entries allocated          */
	uint64_t bsq_cyc[NB_BUS_NCLASS];     /* BSQ entry-cycles (active)      */
	uint64_t fsb[NB_FSB_NBITS];          /* FSB_data_activity cycles       */
	/* step mode */
	int timed;                           /* misses go to the queue         */
	uint64_t now;                        /* cycles advanced                */
	uint64_t free_at;                    /* end of the last queued miss    */
	unsigned qhead, qn;
	struct nb_bus_batch q[NB_BUS_QMAX];
	uint64_t dropped;                    /* queue full: counted at once    */
};

/* The bus clock ratio of a part (cpuid model, l3: it has one), 0 if
 * unknown */
unsigned nb_bus_ratio(unsigned cpuid_model, unsigned l3);

/* Empty totals, lazy mode, the part's parameters; 0 if the part is
 * unknown (to nb_bus.c or nb_tlb.c) */
int nb_bus_init(struct nb_bus *b, unsigned cpuid_model, unsigned l3);

/*
 * One last-level-cache lookup of the 64-byte line that missed the L1D
 * went to the BSQ (an L2 miss): store = an RFO; mem: it missed the last
 * level too (L2, or L3 when the part has one), so the sector is read on
 * the bus; wb_l3: Modified 64-byte lines the L2 evicted into the L3 (parts
 * with an L3); wb_mem: Modified 64-byte lines written back to memory.
 */
void nb_bus_miss(struct nb_bus *b, int store, int mem, unsigned wb_l3, unsigned wb_mem);

/* Step mode on (1) or off (0: what is queued is counted at once). */
void nb_bus_set_timed(struct nb_bus *b, int on);

/* Step mode: one cycle passes; the totals get that cycle's allocations,
 * active entries and data cycles.  Returns 1 while misses are queued
 * (the next cycle may have outputs), 0 when the bus is idle. */
int nb_bus_advance(struct nb_bus *b);

/*
 * How many of the allocations (weights = ioq_alloc / ioq_cyc) an
 * IOQ_allocation / IOQ_active_entries event mask selects, and the same for
 * BSQ_allocation / BSQ_active_entries (weights = bsq_*).
 */
uint64_t nb_bus_ioq_count(unsigned cpuid_model, uint32_t mask, const uint64_t w[NB_BUS_NCLASS]);
uint64_t nb_bus_bsq_count(uint32_t mask, const uint64_t w[NB_BUS_NCLASS]);

/* the rules, per class (exposed for the unit test) */
int nb_bus_ioq_match(unsigned cpuid_model, uint32_t mask, unsigned cls);
uint32_t nb_bus_bsq_encoding(unsigned cls);

#endif /* NB_BUS_H */
