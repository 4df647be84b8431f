/*
 * nb_timing.h - the NetBurst timing model (README.md "Timing model"): a
 * dataflow schedule of each superblock's uops (dependencies through guest
 * registers, flags and the loads' results), per-class latencies and
 * execution-unit throughput per model, a 126-uop window, in-order
 * allocation and retirement at 3 uops per cycle, up to four outstanding
 * L1D load misses, and the misprediction penalty.  Pure module (no libc,
 * no valgrind): the tool (nb_instr.c builds the blocks, nb_cycles.c reads
 * the clock) and the native unit test t_timing link it.
 *
 * Time inside the model is in ticks, half core cycles (the double-speed
 * ALUs of NetBurst start a uop every half cycle [HIN01]); allocation and
 * retirement are in whole cycles.
 */
#ifndef NB_TIMING_H
#define NB_TIMING_H

#include <stdint.h>

/* latency classes of a uop */
enum nb_tm_cls {
	NB_TM_ALU,       /* add/sub/logic/mov/cmp/jcc/lea: double-speed ALU  */
	NB_TM_SHIFT,     /* shifts and rotates                               */
	NB_TM_IMUL,      /* integer multiply (on the FP multiplier)          */
	NB_TM_IDIV,      /* integer divide                                   */
	NB_TM_FADD,      /* x87 fadd/fsub/fcom                               */
	NB_TM_FMUL,      /* x87 fmul                                         */
	NB_TM_FDIV,      /* x87 fdiv/fsqrt                                   */
	NB_TM_SADD,      /* SSE/SSE2 add/sub/min/max/cmp (scalar, packed)    */
	NB_TM_SMUL,      /* SSE/SSE2 mul                                     */
	NB_TM_SDIV,      /* SSE/SSE2 div/sqrt                                */
	NB_TM_FPOTHER,   /* other x87/MMX/SSE operations and register moves  */
	NB_TM_LOAD,      /* integer load, L1D hit                            */
	NB_TM_FLOAD,     /* x87/MMX/SSE load, L1D hit                        */
	NB_TM_STA,       /* store address                                    */
	NB_TM_STD,       /* store data                                       */
	/* classes measured apart from the above (InstLatX64, nb_timing.c) */
	NB_TM_ADC,       /* adc/sbb: the carry's multi-uop flow              */
	NB_TM_CMOV,      /* cmovcc                                           */
	NB_TM_SETCC,     /* setcc                                            */
	NB_TM_MUL,       /* one-operand mul/imul (edx:eax)                   */
	NB_TM_XCHG,      /* xchg r, r                                        */
	NB_TM_CMPXCHG,   /* cmpxchg without lock                             */
	NB_TM_LFENCE,    /* lfence (in order with the fences and locked      */
	NB_TM_SFENCE,    /* sfence  operations: NB_TM_ORD)                   */
	NB_TM_MFENCE,    /* mfence                                           */
	NB_TM_LOCK,      /* a locked read-modify-write (lock prefix, xchg    */
			 /* with memory), in order as the fences             */
	NB_TM_XFER,      /* movd/movq between the integer and MMX/XMM files  */
	NB_TM_SIMD,      /* MMX/SSE2 integer ALU (padd, pand, psll, punpck)  */
	NB_TM_SIMUL,     /* MMX/SSE2 integer multiply (pmul*, pmaddwd)       */
	NB_TM_SHUF,      /* pshufd, pslldq/psrldq                            */
	NB_TM_SHIFT64,   /* shr/sar/rol/ror/rcl/rcr and bswap on 64 bits     */
	NB_TM_BSWAP,     /* bswap r32                                        */
	NB_TM_NCLS,
	NB_TM_COPY = 0xff, /* no uop: dst ready when the srcs are (renaming) */
	NB_TM_LAT = 0xfe  /* no uop of its own: one result of the previous   */
			  /* uop, ready its class's latency (ld: the class)  */
			  /* after its own srcs and the uop's allocation     */
};

/* execution units (one queue each; NB_TMU_ALU has two instances) */
enum nb_tm_unit {
	NB_TMU_ALU, NB_TMU_INT, NB_TMU_FPADD, NB_TMU_FPMUL, NB_TMU_FPDIV,
	NB_TMU_FPMOV, NB_TMU_LOAD, NB_TMU_STORE, NB_TMU_N
};

struct nb_tm_row {
	uint16_t lat;            /* ticks from start to result                */
	uint16_t intv;           /* ticks between two starts on its unit      */
	uint8_t unit;            /* enum nb_tm_unit                           */
};

struct nb_tm_params {
	const char *name;
	struct nb_tm_row row[NB_TM_NCLS];
	unsigned window;         /* uops in flight (ROB)                      */
	unsigned width;          /* uops allocated / retired per cycle        */
	unsigned miss_slots;     /* outstanding L1D load misses               */
	unsigned pmi_latency;    /* cycles from the retirement of the uop that
				  * overflows a counter to the instruction
				  * boundary where its PMI is taken (README
				  * "Overflow interrupts (PMI)", skid)        */
	/* the L1D's data conflict condition (HT, nb_smt.c): two lines
	 * conflict when their linear addresses agree in bits
	 * [alias_bits - 1 : 6]; the L1D's ways */
	unsigned alias_bits, l1_ways;
	/* cycles of an L1D-missing load's latency after its miss slot is
	 * free again: an L2 hit holds a slot for the L2's access, the rest
	 * of its load-to-use latency (the replay that picks the data up) is
	 * the load's own (nb_timing.c) */
	unsigned miss_free;
};

/* the parameters of a CPUID family-15 model (0, 1: Willamette; 2:
 * Northwood/Gallatin; 3, 4, 6: Prescott/Cedar Mill) */
const struct nb_tm_params *nb_tm_params_for(unsigned cpuid_model);

/* ---- a superblock's uops, built at translation time ---- */

#define NB_TM_NREG   232u        /* guest state slots: byte offset / 8   */
#define NB_TM_SCR    (NB_TM_NREG) /* scratch: temporaries' producers  */
#define NB_TM_NSCR   512u        /* (rotating over a superblock)       */
/* the memory-ordering slot: fences and locked operations read and write
 * it, so they complete in program order, each its latency after the one
 * before (nb_tmbuild.c) */
#define NB_TM_ORD    (NB_TM_NREG + NB_TM_NSCR)
#define NB_TM_NSLOT  (NB_TM_ORD + 1)
#define NB_TM_MAXLD  64u         /* loads of a block with their own latency */

struct nb_tm_uop {
	uint8_t cls;             /* enum nb_tm_cls or NB_TM_COPY              */
	uint8_t nsrc, ndst;
	uint8_t ld;              /* load: 1 + its index in the block (< 64), else 0 */
	uint32_t slot;           /* srcs then dsts at slots[slot..]           */
};

struct nb_tm_block {
	uint32_t n, nslots;      /* uops, slot entries                        */
	struct nb_tm_uop *u;
	uint16_t *slots;
	uint32_t *real;          /* real[i]: uops (not COPY/LAT) before uop i,
				  * n + 1 entries; NULL: count them (tests) */
	struct nb_tm_cost *cost; /* the sampled clock (nb_tmsample.c): what it
				  * learned, NB_TMS_EXITS entries (zeroed: none
				  * yet); NULL: always walk */
};

/* what the sampled clock learned of the runs [0, to) of a block
 * (nb_tmsample.c), kept for NB_TMS_EXITS values of `to` (its exits):
 * base[mp]: the mean advance of the clock, in 1/256 cycles plus 1 (0:
 * none), of its runs without an L1D-missing load, mp: whether the run
 * before ended in a mispredicted branch, with the sum and count it is the
 * mean of; miss: of its runs with L1D-missing loads, the advance beyond
 * the base per cycle of the missing loads' latencies (f, 1/256; none
 * while n is 0), from the sums of their advances and latencies, n of
 * them, n1 after a misprediction; prov: which of them
 * (bit 0, 1: base[0], base[1]; bit 2: miss) hold a first value from a
 * run not measured (nb_tmsample.c), which the first measured run
 * replaces */
#define NB_TMS_EXITS 4u
struct nb_tm_cost {
	uint32_t to;             /* + 1; 0: a free entry                      */
	uint32_t prov;
	uint64_t gen;            /* the clock's smp_gen it was learned in (an
				  * older one: a free entry, nb_tms_anchor) */
	struct {
		uint32_t c, n;
		uint64_t sum;
	} base[2];
	struct {
		int32_t f;
		uint32_t n, n1;
		uint64_t sum, lat;
	} miss;
};

/* ---- the clock of one logical processor ---- */

#define NB_TM_ROB 128u           /* ring of retirement cycles (>= window) */
#define NB_TM_MAXMISS 8u
#define NB_TM_STEPREC 256u
#define NB_TM_URING 8192u         /* ticks of unit reservations kept     */
#define NB_TM_MAXRL 64u           /* reservations logged (nb_tmmemo.c)   */
#define NB_TM_MEMO_MINR 8u        /* ranges of fewer real uops: the walk */
#define NB_TM_NALIAS 1024u        /* the L1D's alias classes kept (HT)   */
#define NB_TM_L1SETS 32u          /* the L1D's sets (8 KB 4-way and 16 KB
				   * 8-way of 64 B lines: 32 both)      */

struct nb_tm {
	const struct nb_tm_params *p;
	unsigned penalty;        /* misprediction penalty (cycles)            */
	uint64_t ready[NB_TM_NSLOT]; /* tick each slot's value is ready      */
	uint64_t fe;             /* allocation cycle                          */
	unsigned fe_n;           /* uops allocated in it                      */
	uint64_t ret;            /* last retirement cycle                     */
	unsigned ret_n;          /* uops retired in it                        */
	uint64_t seq;            /* uops allocated so far                     */
	uint64_t rob[NB_TM_ROB]; /* retirement cycle of uop seq % NB_TM_ROB   */
	/* the units' reservations: bit (tick % NB_TM_URING) of busy[u][i]
	 * is set while instance i of unit u is taken at that tick, for the
	 * ticks [lo, lo + NB_TM_URING) (lo: twice the allocation cycle, below
	 * which no uop dispatches; later ticks count as free).  Uops dispatch
	 * out of order: a uop waiting for a late source does not hold up a
	 * later one whose sources are ready. */
	uint64_t busy[NB_TMU_N][2][NB_TM_URING / 64];
	uint64_t lo;
	unsigned odirty;         /* oth changed since every word was reset
				  * (nb_smt.c sets it) */
	uint64_t uhi;            /* end tick of the latest reservation (no bit
				  * at or past it is set) */
	uint64_t div_free;       /* the divider (not pipelined): in order  */
	uint64_t miss[NB_TM_MAXMISS]; /* tick each miss slot frees           */
	uint64_t last_done;      /* tick the last uop's result was ready      */
	uint64_t misp_seen;      /* mispredictions already charged            */
	/* loads of the running block that missed the L1D: bit i = load i,
	 * lat[i] its latency in cycles (set by the cache model) */
	uint64_t ld_mask;
	uint32_t ld_lat[NB_TM_MAXLD];
	/* the miss slots' ends the last walk set, in order (nb_tmmemo.c) */
	unsigned nmlog;
	uint64_t mlog[NB_TM_MAXMISS];
	/* with rlog, the walk logs its first NB_TM_MAXRL unit reservations
	 * (nb_tmmemo.c): unit instance x0 = unit * 2 (n instances), the
	 * tick from which it looked, the tick k taken on instance best,
	 * and the bits it examined: [from, from + len0) of instance x0 (the
	 * first free run there ends there) and [from, from + len1) of x0 + 1
	 * (len 0xff: more than 64) */
	unsigned rlog, nrl;
	struct nb_tm_rl {
		uint8_t x0, n, best, intv, len0, len1;
		uint64_t from, k, bits0, bits1;
	} rl[NB_TM_MAXRL];
	/* replay of recorded schedules (nb_tmmemo.c): on (1) or the walk
	 * alone (0, nb_tm_init's default; the reference) */
	unsigned memo;
	uint64_t memo_runs, memo_hits; /* block runs tried, replayed (stats) */
	/* steady state (nb_tmmemo.c): a range replayed from the same
	 * recorded state run after run is fast-forwarded: its clock fields
	 * advance, its writes to the arrays (slots, window, reservations) are
	 * made at nb_tm_memo_sync, for the last runs whose writes still
	 * matter.  mut: changes by the walk (a replay's stamp is stale after
	 * one); ff_*: the range and way, the replays of it in a row, the
	 * reservations' end before them, the runs not yet written (the last
	 * at allocation cycle ff_F, sequence number ff_seq), and the state
	 * the last replay left (a next run continues it only if unchanged) */
	uint64_t mut;
	const void *ff_set;
	unsigned ff_way, ff_on;
	uint64_t ff_streak, ff_uhi_pre, ff_m, ff_F, ff_seq;
	uint64_t ff_fe, ff_ret, ff_seqx, ff_mut;
	unsigned ff_fe_n, ff_ret_n;
	uint64_t memo_ff;        /* runs fast-forwarded (stats)               */
	/* step mode: the retirement cycles of the uops of the last run (the
	 * walk's first NB_TM_STEPREC; a replay's, nb_tmmemo.c, all) */
	unsigned nrec;
	uint64_t rec[NB_TM_STEPREC];
	unsigned record;         /* record them                                */
	uint64_t uops;           /* uops retired (statistics)                 */
	/* Hyper-Threading (nb_smt.c sets these while both logical
	 * processors are active; all 0 with one: the model above unchanged).
	 * win: uops in flight (0: p->window); alt: the other LP's
	 * allocation/retirement cycles, bit c % 64 set: this LP neither
	 * allocates nor retires in cycle c (never all 64); miss_n: miss
	 * slots this LP may hold (0: p->miss_slots); replay: a load that
	 * finds none free goes round the replay loop of `replay` ticks and
	 * dispatches again (0: it waits for the first to free); oth: the
	 * other LP's use of each unit instance, a 64-tick pattern that
	 * recycled reservation words start with.  (The replay of recorded
	 * schedules, nb_tmmemo.c, is off with --ht=yes: none of this is in
	 * its key.) */
	unsigned win, miss_n, replay;
	uint64_t alt, oth[NB_TMU_N][2];
	/* own use, for the other LP's profile: ticks each unit was taken,
	 * miss-slot ticks held, load dispatches that were replays */
	uint64_t unit_ticks[NB_TMU_N], miss_ticks, replays;
	/* HT, the L1D's data conflicts between the LPs (nb_smt.c):
	 * ld_alias[i]: the alias class of the line missing load i of the
	 * running block missed (nb_tm_load_alias); alias_n[c]: this LP's
	 * missing loads of class c while both LPs ran (for the other LP's
	 * profile); conf_hold[c]: the ticks of the other LP's last segment
	 * in which it had a miss of class c under way; conf_way: one such
	 * miss under way (ticks, its mean); conf_res[s]: how long a line of
	 * set s then stays in the L1D until evicted (ticks); conf_span: that
	 * segment's ticks (0: no conflicts); conf_acc: the running sum that
	 * spreads the conflicts at their rate; conflicts: loads that met one
	 * (statistics) */
	uint16_t ld_alias[NB_TM_MAXLD];
	uint32_t alias_n[NB_TM_NALIAS], conf_hold[NB_TM_NALIAS], conf_res[NB_TM_L1SETS];
	uint64_t conf_span, conf_way, conf_acc, conflicts;
	/* the sampled clock (nb_tmsample.c): its phase (skip, warm,
	 * measure) and the runs left in it, the fraction of a
	 * cycle the skipped runs carry, what the warm phase's runs cost
	 * beyond their learned costs, not yet taken back from the skipped
	 * runs' charges (both 1/256 cycles), the
	 * generator of the skip phases' lengths, whether the last run ended in
	 * a mispredicted branch; runs skipped, walked,
	 * measured, skip phases cut short by a run without a cost for its
	 * variant (statistics) */
	unsigned smp_phase, smp_mp, smp_refill;
	uint32_t smp_skip;       /* mean runs of a skip phase (set before use) */
	uint32_t smp_left, smp_frac;
	int64_t smp_skew;
	uint64_t smp_rng, smp_skipped, smp_walked, smp_measured, smp_cold;
	/* a streak of skipped runs (nb_tms_skip): lazy, whether the next
	 * run may join it; pend, its runs not yet in the clock's fields;
	 * acc, their charges (1/256 cycles); accu, their uops */
	uint32_t smp_lazy, smp_pend;
	uint64_t smp_acc, smp_accu;
	/* the anchors (nb_tms_anchor): how many, and the runs before the
	 * last one */
	uint64_t smp_gen;
	uint64_t smp_from;
	/* a run that arrives in segments (nb_tm_seg_sampled: PMI checks,
	 * step mode), open until the next run's first segment or
	 * nb_tms_close: open, 0 none, NB_SEG_WALK (walked segment by segment
	 * from before, its loads' missing latencies os so far), NB_SEG_DEFER
	 * (skipped or walked whole when it closes) or NB_SEG_EXACT (walked in a
	 * skip phase, nb_tms_exact; exact: its setting); its block, the uops
	 * reached, the mispredictions at its last segment; a held-back
	 * run's L1D misses (ld_mask, ld_lat: the next run's loads run before
	 * it ends) */
	unsigned smp_open, smp_oto, smp_exact;
	const struct nb_tm_block *smp_ob;
	uint64_t smp_obefore, smp_os, smp_omisp, smp_omask;
	uint32_t smp_olat[NB_TM_MAXLD];
};

/* The program accessed the PMU (a serializing point, after
 * nb_tm_serialize): the sampled clock starts again from here as from
 * the program's start: what it learned forgotten, its generator
 * reseeded, a warm phase (nb_tmsample.c).  What it charges from here on
 * then depends on the code run from here, not on what ran before (the
 * event set's programming): the same region gets the same cycles. */
void nb_tms_anchor(struct nb_tm *t);

/* The streak's runs into the clock's fields (nb_tmsample.c); every
 * reader of the clock's state but nb_tms_skip calls it first
 * (nb_tm_sync). */
void nb_tms_flush(struct nb_tm *t);

static inline void nb_tm_sync(struct nb_tm *t)
{
	if (t->smp_lazy | t->smp_pend)
		nb_tms_flush(t);
}

#define NB_TMS_MAX    0xfffffff0u /* a cost's ceiling (1/256 cycles + 1)  */

/* the cycles the running block's L1D-missing loads hold their miss
 * slots (the latency less p->miss_free, nb_tm_walk): what the sampled
 * clock's miss factor scales (independent misses cost in proportion to
 * it, so misses to the L2 and to memory share one factor) */
static inline uint64_t nb_tms_miss_lat(const struct nb_tm *t)
{
	uint64_t s = 0, f = t->p->miss_free;

	for (uint64_t m = t->ld_mask; m; m &= m - 1) {
		uint64_t l = t->ld_lat[__builtin_ctzll(m)];
		s += l > f ? l - f : l;
	}
	return s;
}

/* the learned advance (1/256 cycles + 1) of a run of k with missing
 * loads' latencies s (cycles) after mp (a mispredicted branch); 0: none
 * learned (nb_tmsample.c) */
static inline uint32_t nb_tms_cost(const struct nb_tm_cost *k, unsigned mp, uint64_t s)
{
	int64_t c;

	if (!s)
		return k->base[mp].c;
	if (!k->miss.n)
		return 0;
	c = (int64_t)(k->base[mp].c ? k->base[mp].c - 1 : 0) + (int64_t)k->miss.f * (int64_t)s;
	if (c < 0)
		c = 0;
	return (uint32_t)(c < (int64_t)NB_TMS_MAX - 1 ? c : (int64_t)NB_TMS_MAX - 1) + 1;
}

/* The sampled clock's common case without a call (nb_cycles.c): a run
 * [0, n real uops) of the cost entry k, in a skip phase, after a
 * skipped run, with a learned cost (for its L1D-missing loads too),
 * joins the streak: charged as nb_tmsample.c's skip() charges it, its
 * sums into the fields at the next nb_tm_sync.  0: not taken (the
 * caller runs nb_tm_run_sampled). */
static inline int nb_tms_skip(struct nb_tm *t, const struct nb_tm_cost *k, uint32_t n,
			      uint64_t misp)
{
	uint32_t c;

	if (!t->smp_lazy || k->gen != t->smp_gen)
		return 0;
	c = t->ld_mask ? nb_tms_cost(k, t->smp_mp, nb_tms_miss_lat(t)) : k->base[t->smp_mp].c;
	if (!c)
		return 0;
	t->ld_mask = 0;
	t->smp_mp = misp != t->misp_seen;
	t->misp_seen = misp;
	t->smp_acc += c - 1;
	t->smp_accu += n;
	t->smp_pend++;
	if (!--t->smp_left)
		t->smp_lazy = 0;
	return 1;
}

/* The sampled clock with runs in segments (nb_tmsample.c): while a PMI
 * is possible (a check at a boundary inside a run runs the clock up to
 * it) and in step mode (the clock runs one instruction at a time), a
 * run [0, to) arrives as segments [from, to) in order, from 0 first.
 * The clock decides on the run as a whole, as nb_tm_run_sampled does on
 * an unsplit one, with the same result: the same runs skipped, walked
 * and learned, the same cycles, wherever its segments end.  In a walk
 * phase the segments are walked as they come (a check or a step record
 * sees the walk's retirement cycles); in a skip phase the run waits for
 * its end (the next run's first segment, or nb_tms_close), and the
 * clock stands at its start meanwhile (nb_tm_at: an estimate inside it). */
void nb_tm_seg_sampled(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
		       uint64_t misp);
/* the open run ends (a serializing point, a switch of logical processor) */
void nb_tms_close(struct nb_tm *t);
enum { NB_SEG_NONE, NB_SEG_WALK, NB_SEG_DEFER, NB_SEG_EXACT };
/* the clock holds the open run back (its uops have no retirement cycles
 * yet: step mode reports them when it ends, nb_cycles.c) */
static inline int nb_tms_holding(const struct nb_tm *t)
{
	return t->smp_open == NB_SEG_DEFER;
}
/* While a PMI is in flight (on: nb_pmi.c), the skid's instructions get
 * the walk's retirement cycles: runs in a skip phase, the open one from
 * its start, are walked (NB_SEG_EXACT), and counted down as skipped runs,
 * learning nothing; the phases then go on as they would have.  Their
 * cycles are the walk's, not their learned costs: a program that takes
 * a PMI (and runs its handler) is not the same program. */
void nb_tms_exact(struct nb_tm *t, int on);
/* The retirement cycle of the last uop the clock ran: t->ret, or in a
 * run the sampled clock holds back (NB_SEG_DEFER) its start plus the share
 * of the run's learned cost its uops so far take (an estimate: where a
 * PMI's skid ends; never read as cycles). */
uint64_t nb_tm_at(struct nb_tm *t);

/* the cost entry of the runs [0, to) of b, if it has one (nb_tmsample.c) */
const struct nb_tm_cost *nb_tms_find(const struct nb_tm *t, const struct nb_tm_block *b,
				     unsigned to);

void nb_tm_init(struct nb_tm *t, const struct nb_tm_params *p, unsigned penalty);

/* Run uops [from, to) of b.  misp: the count of mispredicted branches so
 * far (a new one redirects the front end after the last uop run).  With
 * t->memo, a run whose state relative to the clock repeats one recorded
 * is replayed (nb_tmmemo.c), with the same cycles as the walk. */
void nb_tm_run(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
	       uint64_t misp);

/* The reference: schedule uops [from, to) one by one (the walk; no
 * misprediction charge; t->ld_mask cleared). */
void nb_tm_walk(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to);

/* nb_tmmemo.c: the same as nb_tm_walk, by replay when it can.  A block's
 * uops must not change while it is in use: nb_tm_memo_flush forgets every
 * recorded schedule (a test reusing a block's storage). */
void nb_tm_memo_walk(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to);
void nb_tm_memo_flush(void);

/* Make the arrays of t (ready, rob, busy, uhi, lo) what the walk would
 * have left: the writes of the runs the steady state fast-forwarded
 * (nb_tmmemo.c).  The walk and every reader of the arrays call it first;
 * the clock's scalar fields (fe, ret, seq, last_done, miss, div_free)
 * are always current. */
void nb_tm_memo_sync(struct nb_tm *t);

/* The first tick from k at which the reservation bitmap bm of one unit
 * instance (ticks [lo, lo + NB_TM_URING), a ring of NB_TM_URING / 64
 * words; later ticks free) is free for intv ticks (the walk's search;
 * exported for t_tmunit). */
uint64_t nb_tm_first_free(const uint64_t *bm, uint64_t lo, uint64_t k, unsigned intv);

/* Nothing dispatches before tick `tick` any more (nb_timing.c; the
 * replay moves the units' horizon as the walk does). */
void nb_tm_units_forget(struct nb_tm *t, uint64_t tick);

/* The same with the cheap clock (--nbsim-clock=fast, README "Timing
 * model"): no dependencies, units or window: the uops retire in order, w
 * per cycle, each L1D-missing load adds its latency and each new
 * misprediction the penalty.  O(1) per call outside step mode. */
void nb_tm_run_fast(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
		    uint64_t misp);

/* The sampled clock (--nbsim-clock=sampled, nb_tmsample.c, README
 * "Timing model"): nb_tm_run on a sample of the runs (those with from 0
 * and b->cost; step mode's runs always), a cost learned per (b, to) on
 * the others.  Deterministic; not exact. */
void nb_tm_run_sampled(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
		       uint64_t misp);

/* Charge the mispredictions up to the count misp (see nb_tm_run) that
 * the clock has not seen yet; fast: the cheap clock's rule (a stall of
 * retirement).  nb_tm_run and nb_tm_run_fast end with it. */
void nb_tm_misp(struct nb_tm *t, uint64_t misp, int fast);

/* A load (index ix in the running block) missed the L1D: latency lat
 * cycles (the cache model's L2/L3/memory latency). */
static inline void nb_tm_load_miss(struct nb_tm *t, unsigned ix, uint32_t lat)
{
	if (ix >= NB_TM_MAXLD)
		return;         /* a load without an index of its own */
	t->ld_mask |= UINT64_C(1) << ix;
	t->ld_lat[ix] = lat;
}

/* The line of load ix's miss (nb_tm_load_miss) is at linear address a:
 * its alias class (HT, nb_smt.c).  The class bits [alias_bits - 1 : 6]
 * are 10 on models 0-2 (kept whole) and 16 on model 3 (folded into
 * NB_TM_NALIAS classes, keeping the 5 set bits: lines that do not
 * conflict may share a class). */
static inline void nb_tm_load_alias(struct nb_tm *t, unsigned ix, uint64_t a)
{
	uint64_t k = (a >> 6) & ((UINT64_C(1) << (t->p->alias_bits - 6)) - 1);

	if (ix < NB_TM_MAXLD)
		t->ld_alias[ix] = (uint16_t)((k & (NB_TM_L1SETS - 1)) |
					     (((k >> 5) ^ (k >> 10) ^ (k >> 15)) & 31) << 5);
}

/* Cycles elapsed: through the last retirement cycle, or to the front
 * end's restart after a misprediction if later (a serializing point, which
 * also ends the open retirement cycle: nothing allocates or retires before
 * the cycles returned). */
uint64_t nb_tm_serialize(struct nb_tm *t);

/* Whole cycles elapsed without ending the open one (<= a later
 * nb_tm_serialize). */
static inline uint64_t nb_tm_peek(struct nb_tm *t)
{
	nb_tm_sync(t);
	return t->ret;
}

/* ---- classification of an instruction (opcode bytes) ---- */

/* the class of the computational uop of the instruction at code[0..len)
 * with prefix bytes npfx (nb_insn.len_prefix) and FP class fp (enum
 * nb_fp_class) */
unsigned nb_tm_classify(const uint8_t *code, unsigned len, unsigned npfx, unsigned fp);

#endif /* NB_TIMING_H */
