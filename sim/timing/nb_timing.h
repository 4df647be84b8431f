/*
 * nb_timing.h - the NetBurst timing model (README.md "Timing model"): a
 * dataflow schedule of each superblock's uops (dependencies through guest
 * registers, flags and the loads' results), per-class latencies and
 * execution-unit throughput per model, a 126-uop window, in-order
 * allocation and retirement at 3 uops per cycle, up to four outstanding
 * L1D load misses, and the misprediction penalty.  Pure module (no libc,
 * no valgrind): the tool (nb_tmbuild.c builds the blocks, nb_cycles.c reads
 * the clock) and the native unit tests link it.  The replay of recorded
 * schedules (nb_tmmemo.h) and the sampled clock (nb_tmsample.h) are built
 * on it; it knows neither.
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
	/* classes measured apart from the above (InstLatX64, nb_tmparams.c) */
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
	NB_TM_SHUF,      /* pshufd, pslldq/psrldq, psadbw                    */
	NB_TM_SHIFT64,   /* shr/sar/rol/ror/rcl/rcr and bswap on 64 bits     */
	NB_TM_BSWAP,     /* bswap r32                                        */
	NB_TM_RDTSC,     /* rdtsc: its microcode, in order as the fences     */
	NB_TM_SHIFTCL,   /* shifts and rotates by cl (32-bit; shl r64, cl)   */
	NB_TM_LEA3,      /* lea base + index + displacement                  */
	NB_TM_LEASC,     /* lea with a scaled index, no displacement         */
	NB_TM_LEASCD,    /* lea with a scaled index and a displacement       */
	NB_TM_RC1,       /* rcl/rcr by 1                                     */
	NB_TM_RCN,       /* rcl/rcr by imm8 or cl: microcode                 */
	NB_TM_SHXD,      /* shld/shrd (r32; imm8 or cl)                      */
	NB_TM_BTR,       /* bt/bts/btr/btc r, r (register bit string)        */
	NB_TM_BTI,       /* bt/bts/btr/btc r, imm8                           */
	NB_TM_STR,       /* movs/lods/stos/scas without rep                  */
	NB_TM_SIMDX,     /* NB_TM_SIMD on XMM: 128 bits, two passes of the   */
	NB_TM_SIMULX,    /* NB_TM_SIMUL on XMM  64-bit unit (interval 2)     */
	NB_TM_IDIVS,     /* idiv r8, r16                                     */
	NB_TM_IDIV64,    /* idiv r64                                         */
	NB_TM_DIV64,     /* div r64                                          */
	NB_TM_SHXD64,    /* shld/shrd r64 by imm8                            */
	NB_TM_SHXD64CL,  /* shld/shrd r64 by cl                              */
	NB_TM_FWD,       /* store-to-load forwarding: from the store's data  */
			 /* to the load's start (a NB_TM_LAT's class only)   */
	NB_TM_RCL64N,    /* rcl r64 by imm8 or cl                            */
	NB_TM_SHXD16,    /* shld/shrd r16 by imm8                            */
	NB_TM_SHXD16CL,  /* shld/shrd r16 by cl                              */
	NB_TM_PSADMM,    /* psadbw mm (its xmm form: NB_TM_SHUF)             */
	NB_TM_REPSCAN,   /* an iteration of rep lods, repe/repne scas        */
	NB_TM_REPCMPS,   /* an iteration of repe/repne cmps                  */
	NB_TM_NCLS,
	/* no uop of its own: store-to-load forwarding across superblock
	 * runs (nb_tmbuild.c), through a memory slot NB_TM_MEM + m keyed
	 * by a base register R the block does not write, a displacement
	 * and a check byte (the uop's ld field).  MST: srcs [the store's
	 * forwarded data, R], dst [the memory slot]: the slot is ready when
	 * the data is, tagged with R's ready tick and the check.  MLD: srcs
	 * [R, the memory slot], dst [a scratch slot]: the slot's tick when
	 * its tag and check match (R not written since the store), else 0 */
	NB_TM_MLD = 0xfc,
	/* no uop of its own: an iteration of rep movs or rep stos, first of
	 * its uops (nb_tmbuild.c).  Outside the fast strings' block mode
	 * (t->str_block clear) nothing: the iteration's uops follow.  In
	 * it, the string engine moves p->str_tpb[kind] / 256 ticks per
	 * byte, the front end and retirement wait for it, and the
	 * iteration's uops are skipped.  In slot: bits 0-3 the element's
	 * bytes, bit 4 movs, bits 8- the uops it stands for; ld the
	 * element's load (movs, as its load uop's) */
	NB_TM_REPB = 0xfb,
	NB_TM_MST = 0xfd,
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
	/* rep stos [0] and rep movs [1] in block mode: ticks per byte, in
	 * 1/256 (NB_TM_REPB) */
	unsigned str_tpb[2];
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
/* the memory slots of forwarding across superblock runs (NB_TM_MST) */
#define NB_TM_MEM    (NB_TM_ORD + 1)
#define NB_TM_NMEM   64u
#define NB_TM_NSLOT  (NB_TM_MEM + NB_TM_NMEM)
#define NB_TM_MAXLD  64u         /* loads of a block with their own latency */

struct nb_tm_uop {
	uint8_t cls;             /* enum nb_tm_cls or NB_TM_COPY              */
	uint8_t nsrc, ndst;
	uint8_t ld;              /* load: 1 + its index in the block (< 64), else 0 */
	uint32_t slot;           /* srcs then dsts at slots[slot..]           */
};

struct nb_tm_cost;               /* the sampled clock's (nb_tmsample.h) */

struct nb_tm_block {
	uint32_t n, nslots;      /* uops, slot entries                        */
	struct nb_tm_uop *u;
	uint16_t *slots;
	uint32_t *real;          /* real[i]: uops before uop i (not COPY, LAT, MST, MLD, REPB),
				  * n + 1 entries; NULL: count them (tests) */
	struct nb_tm_cost *cost; /* the sampled clock (nb_tmsample.c): what it
				  * learned, NB_TMS_EXITS entries, twice that
				  * under --ht=yes (zeroed: none yet); NULL:
				  * always walk */
	uint64_t key;            /* its place in the replay's table (nb_tmmemo.c):
				  * the tool numbers its blocks in the order it
				  * makes them; 0: the descriptor's address (tests) */
};

/* ---- the clock of one logical processor ---- */

#define NB_TM_ROB 128u           /* ring of retirement cycles (>= window) */
#define NB_TM_MAXMISS 8u
#define NB_TM_STEPREC 256u
#define NB_TM_URING 8192u         /* ticks of unit reservations kept     */
#define NB_TM_MAXRL 64u           /* reservations logged (nb_tmmemo.c)   */

/*
 * The clock's state, by owner.  struct nb_tm is the walk's (nb_timing.c);
 * each concern around it keeps its own part in a member of its own, which
 * only its module writes:
 *   log    what the walk logs for the replay (nb_timing.c writes, nb_tmmemo.c reads)
 *   step   step mode's retirement cycles (the walk and the replay write,
 *          the tool's nb_step reads)
 *   smt    Hyper-Threading's sharing of the package (nb_smt.c writes, the
 *          walk reads; the walk's own use, for the other LP's profile;
 *          nb_smt_state.h)
 *   memo   the replay of recorded schedules (nb_tmmemo.c; nb_tmmemo_state.h)
 *   smp    the sampled clock (nb_tmsample.c; nb_tmsample_state.h)
 * The model (nb_timing.c) reads and writes none of memo and smp: the
 * optimisations sit above it and call down (timing/README.md).
 */

/* what the walk logs for the replay (nb_tmmemo.c) */
struct nb_tm_log {
	/* changes by the walk (a replay's stamp is stale after one) */
	uint64_t mut;
	/* the miss slots' ends the last walk set, in order */
	unsigned nmlog;
	uint64_t mlog[NB_TM_MAXMISS];
	/* with rlog, the walk logs its first NB_TM_MAXRL unit reservations:
	 * unit instance x0 = unit * 2 (n instances), the tick from which it
	 * looked, the tick k taken on instance best, and the bits it
	 * examined: [from, from + len0) of instance x0 (the first free run
	 * there ends there) and [from, from + len1) of x0 + 1 (len 0xff:
	 * more than 64) */
	unsigned rlog, nrl;
	struct nb_tm_rl {
		uint8_t x0, n, best, intv, len0, len1;
		uint64_t from, k, bits0, bits1;
	} rl[NB_TM_MAXRL];
};

/* step mode: the retirement cycles of the uops of the last run (the
 * walk's first NB_TM_STEPREC; a replay's, nb_tmmemo.c, all) */
struct nb_tm_step {
	unsigned nrec;
	uint64_t rec[NB_TM_STEPREC];
	unsigned record;         /* record them                                */
};



/* The parts of the clock's state that the modules above the walk own,
 * each defined in its owner's state header.  struct nb_tm holds them by
 * value (one clock per logical processor, no pointer to follow on the
 * hot path), so their types are complete here; the model reads and
 * writes neither memo nor smp, and reads smt as nb_smt.c set it. */
#include "nb_smt_state.h"
#include "nb_tmmemo_state.h"
#include "nb_tmsample_state.h"

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
	unsigned odirty;         /* smt.oth changed since every word was reset
				  * (nb_smt.c sets it) */
	uint64_t uhi;            /* end tick of the latest reservation (no bit
				  * at or past it is set) */
	uint64_t div_free;       /* the divider (not pipelined): in order  */
	/* the front-side bus's data transfers (NB_TM_BUS): the tick the
	 * last one ends; they are moved one at a time, in program order */
	uint64_t bus_free;
	/* ticks a 64-byte line's transfer takes (2 bus clocks; the tool
	 * sets it, nb_bus.c's ratio): the slots of HT's bus pattern (0:
	 * no pattern, unit tests) */
	uint64_t bus_line;
	uint64_t miss[NB_TM_MAXMISS]; /* tick each miss slot frees           */
	uint64_t last_done;      /* tick the last uop's result was ready      */
	uint64_t misp_seen;      /* mispredictions already charged            */
	/* loads of the running block that missed the L1D: bit i = load i,
	 * lat[i] its latency in cycles and its bus cycles (NB_TM_BUS; set
	 * by the cache model) */
	uint64_t ld_mask;
	uint32_t ld_lat[NB_TM_MAXLD];
	/* the memory slots' tags (NB_TM_MST): the base register's ready
	 * tick and the check byte of the store that set each */
	uint64_t mtag[NB_TM_NMEM];
	uint8_t mchk[NB_TM_NMEM];
	/* the string engine (NB_TM_REPB): the tick its last element was
	 * issued at, and the fraction of a tick (1/256) carried */
	uint64_t str_at;
	unsigned str_acc;
	/* the rep movs/stos execution under way: in block mode; the address
	 * and the RCX its next iteration will have (nb_tm_rep_visit) */
	unsigned str_block;
	uint64_t str_pc, str_next;
	uint64_t uops;           /* uops retired (statistics)                 */
	struct nb_tm_log log;
	struct nb_tm_step step;
	struct nb_tm_smt smt;
	struct nb_tm_memo memo;
	struct nb_tms smp;
	/* the lockstep's limit on this LP's clock as its guard reads it,
	 * ret + (smp.acc >> 8) (sim/tool/nb_lockstep.c; ~0: none), and the
	 * same limit on smp.acc alone for the ret of now, (ls_lim - ret) <<
	 * 8 (0 once ret reaches it), which every change of ret sets again
	 * (nb_tm_ls_set): the guard at each superblock's start compares
	 * smp.acc with it, two loads and a compare (nb_instr.c) */
	uint64_t ls_lim, ls_acc;
};

void nb_tm_init(struct nb_tm *t, const struct nb_tm_params *p, unsigned penalty);

/* ret moved, or ls_lim: ls_acc again.  ret + (acc >> 8) >= ls_lim
 * exactly when acc >= ls_acc (a limit 2^56 cycles away or more is
 * never reached) */
static inline void nb_tm_ls_set(struct nb_tm *t)
{
	uint64_t d = t->ls_lim > t->ret ? t->ls_lim - t->ret : 0;

	t->ls_acc = d >> 56 ? ~(uint64_t)0 : d << 8;
}

/*
 * The model's entry points.  They read and write the clock's own fields
 * and the walk's arrays and call nothing above them: the replay
 * (nb_tmmemo.h) and the sampled clock (nb_tmsample.h) call down into them
 * and keep their deferred work (the steady state's array writes, the
 * sampled streak's charges) in their own state.  So whoever calls these
 * on a clock that has either in use makes the clock current first
 * (nb_tm_memo_current, nb_tms_sync): the sampled clock and the replay do
 * it before every call they make, and nb_tm_run (nb_tmmemo.h) is the
 * entry for a caller that does not know which is in use.
 */

/* The reference: schedule uops [from, to) one by one (the walk; no
 * misprediction charge; t->ld_mask cleared). */
void nb_tm_walk(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to);

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

/* Charge the mispredictions up to the count misp (see nb_tm_run) that
 * the clock has not seen yet; fast: the cheap clock's rule (a stall of
 * retirement).  nb_tm_run and nb_tm_run_fast end with it. */
void nb_tm_misp(struct nb_tm *t, uint64_t misp, int fast);

/*
 * A load's latency word (ld_lat): bits 0-19 its latency in cycles; bits
 * 20-31 the cycles its transfer holds the front-side bus (a last-level
 * miss's sector; 0 for an L2 or L3 hit).  The walk moves the transfers
 * one at a time in program order (t->bus_free): a load's data comes no
 * earlier than its latency after its start, nor before the transfers
 * before it and its own have been moved, so that loads from memory
 * cannot exceed the bus's bytes per cycle however many miss slots they
 * hold (README "Bus model", "Bandwidth").
 */
#define NB_TM_LAT_MASK 0xfffffu
#define NB_TM_BUS_SHIFT 20
static inline uint32_t nb_tm_lat_bus(uint32_t lat, uint32_t bus)
{
	return (lat & NB_TM_LAT_MASK) | bus << NB_TM_BUS_SHIFT;
}

/* `bus` ticks of transfers that an idle bus of its own would start at
 * tick `from` go after those before them (t->bus_free), and under HT
 * (nb_smt.c) in the line slots the other LP's pattern leaves free, whole
 * slots from the first at or after their start; their end tick (the new
 * bus_free).  Counts them (t->smt.bus_ticks) and those that waited for
 * the ones before (bus_waits), for the other LP's profile. */
static inline uint64_t nb_tm_bus_take(struct nb_tm *t, uint64_t from, uint64_t bus)
{
	uint64_t pat = t->smt.bus_oth, L = t->bus_line, s = from, e, i, k;

	if (t->bus_free > s) {
		s = t->bus_free;
		t->smt.bus_waits++;
	}
	t->smt.bus_ticks += bus;
	t->smt.bus_n++;
	e = s + bus;
	if (pat && L)
		for (k = (bus + L - 1) / L, i = (s + L - 1) / L;; i++)
			if (!(pat >> (i & 63) & 1) && !--k) {
				e = (i + 1) * L;
				break;
			}
	t->bus_free = e;
	return e;
}

/* A load (index ix in the running block) missed the L1D: latency word
 * lat (the cache model's L2/L3/memory latency, cycles; its bus cycles:
 * nb_tm_lat_bus). */
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
		t->smt.ld_alias[ix] = (uint16_t)((k & (NB_TM_L1SETS - 1)) |
					     (((k >> 5) ^ (k >> 10) ^ (k >> 15)) & 31) << 5);
}

/* Cycles elapsed: through the last retirement cycle, or to the front
 * end's restart after a misprediction if later (a serializing point, which
 * also ends the open retirement cycle: nothing allocates or retires before
 * the cycles returned).  Reads the scalar fields only (the replay keeps
 * them current); the sampled clock's serializing point is nb_tms_serialize. */
uint64_t nb_tm_serialize(struct nb_tm *t);

/* ---- classification of an instruction (opcode bytes) ---- */

/* the class of the computational uop of the instruction at code[0..len)
 * with prefix bytes npfx (nb_insn.len_prefix) and FP class fp (enum
 * nb_fp_class) */
unsigned nb_tm_classify(const uint8_t *code, unsigned len, unsigned npfx, unsigned fp);

#endif /* NB_TIMING_H */
