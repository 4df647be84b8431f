/*
 * nb_smt.h - Hyper-Threading in the timing model (README.md "Timing
 * model", "Hyper-Threading"): what each logical processor's clock
 * (struct nb_tm, nb_timing.h) gets of the package while both are active.
 * Pure module (no libc, no valgrind): nb_cycles.c and the native unit test
 * t_smt link it.
 *
 * Valgrind runs one guest thread at a time, so the two clocks run one
 * after the other, a segment (the time between two switches) each.  While
 * both LPs are active, the running LP's clock sees:
 *  - its half of the partitioned structures: 63 of the 126 uops of the
 *    window [MARR02: the reorder buffer, load and store buffers are
 *    partitioned, each LP at most half];
 *  - allocation and retirement in the cycles the other LP does not
 *    take: its share of the cycles (its uops / 3 per cycle of its last
 *    segment, at most half), evenly spread [MARR02: both alternate
 *    between the logical processors that have uops];
 *  - the shared execution units less the other LP's use: each unit
 *    instance's reservations start from a 64-tick pattern as busy as the
 *    other LP kept it in its last segment [MARR02: execution units
 *    shared], at most half of each, its busy ticks grouped so that the
 *    free ones come in runs as long as the unit's longest issue
 *    interval (every uop of this LP fits in them);
 *  - the miss slots (outstanding L1D misses, shared): half if the other
 *    LP was short of them in its last segment, else what it left free on
 *    average, but at least half (a max-min fair share);
 *  - a load that finds no free slot of its share goes round the replay
 *    loop and dispatches again, taking the load port each time, and
 *    takes the port again for the pass that finds its data [HIN01: the
 *    replay of uops that dispatched before their data was ready];
 *  - the front-side bus (one per package: a line's transfer, 2 bus
 *    clocks, is the bus's whole width [P4DS]): its transfers go in the
 *    line slots a pattern of the other LP's use leaves free: half of
 *    them when the other LP wanted more of the bus than it had in its
 *    last segment (a quarter of its transfers waited for those before
 *    them: our threshold), else as busy as it kept the bus, at most half
 *    (a max-min fair share, as the miss slots'; half when not seen yet), so two
 *    LPs streaming at once share the bus's bytes per cycle rather than
 *    each having all of them;
 *  - the L1D's data conflicts [ORM-A]: it holds one line per alias class
 *    (linear address bits 15:6 on models 0-2, 21:6 on model 3), so a
 *    missing load that meets a miss of its class under way on the other
 *    LP cannot begin until that line is kicked out, and goes round the
 *    replay loop meanwhile; at the rate the other LP had the class under
 *    way in its last segment.  Two instances of one program (Sprunt's two
 *    copies of l1_miss) use the same linear addresses and so the same
 *    classes.
 * With one LP running none of this applies (identical to the model
 * alone).  "Running": nb_cycles.c's caller says which LPs have a thread
 * that is not blocked in the kernel.
 *
 * [MARR02] Marr et al., "Hyper-Threading Technology Architecture and
 *          Microarchitecture", Intel Technology Journal Q1 2002.
 * [HIN01]  Hinton et al., "The Microarchitecture of the Pentium 4
 *          Processor", Intel Technology Journal Q1 2001.
 * [ORM-A]  IA-32 Intel Architecture Optimization Reference Manual
 *          (248966), pp. 2-45 and 7-43 (nb_tmparams.c).
 * [P4DS]   the Pentium 4 datasheets: D[63:0]#, the data bus the package's
 *          two LPs share, driven four times a bus clock (sim/cpu/nb_bus.c).
 */
#ifndef NB_SMT_H
#define NB_SMT_H

#include <stdint.h>
#include "nb_timing.h"

/* what one LP did in a segment, as the other LP's clock sees it */
struct nb_smt_prof {
	uint64_t ticks;                 /* the segment's length (ticks)     */
	uint64_t unit[NB_TMU_N];        /* ticks each unit was taken         */
	uint64_t miss;                  /* miss-slot ticks held              */
	uint64_t uops;                  /* uops allocated (and retired)      */
	uint64_t bus;                   /* ticks its bus transfers took      */
	int short_of_bus;               /* a quarter of them waited          */
	int short_of_slots;             /* it replayed loads for want of one */
	uint32_t alias[NB_TM_NALIAS];   /* missing loads per L1D alias class */
	/* masked: bit c of amask is set when alias[c] is not 0 (nb_smt_learn
	 * sets both); without it nb_smt_share reads every class */
	int masked;
	uint64_t amask[NB_TM_NALIAS / 64];
};

/* a segment's start: the clock's counters then */
struct nb_smt_mark {
	uint64_t ret, unit[NB_TMU_N], miss, replays, seq, skip, bus, bus_n, bus_waits;
};

/* the replay loop (cycles): a model parameter, see nb_smt.c */
#define NB_SMT_REPLAY 7u

/* the longest a line is taken to stay in the L1D until evicted (replay
 * loops): a bound of the model, see nb_smt.c */
#define NB_SMT_EVICT_MAX 8u

/* (the alias classes' counts start again from 0: t->smt.alias_n) */
void nb_smt_mark(struct nb_tm *t, struct nb_smt_mark *m);

/* The segment since m of clock t: *out (nothing when it took no cycles:
 * the previous profile stays). */
void nb_smt_learn(const struct nb_tm *t, const struct nb_smt_mark *m, struct nb_smt_prof *out);

/* Give clock t (logical processor lp) its share of the package: both
 * LPs active (other: what the other LP did in its last segment, NULL if
 * unknown yet; self: what this LP did in its own last segment, NULL if
 * unknown) or not (the whole package). */
void nb_smt_share(struct nb_tm *t, unsigned lp, int both, const struct nb_smt_prof *other,
		  const struct nb_smt_prof *self);

/* a 64-tick pattern with busy ticks in runs of g (1 or 2), as close to a
 * fraction num/den of the ticks as runs of g allow, spread evenly */
uint64_t nb_smt_pattern(uint64_t num, uint64_t den, unsigned g);

/* the same with the busy runs of g grouped, at most G runs a group and
 * at least G runs free between two groups (num/den at most a half; G = 1
 * is nb_smt_pattern; G is rounded up to a power of two, at most 16) */
uint64_t nb_smt_pattern_grouped(uint64_t num, uint64_t den, unsigned g, unsigned G);

#endif /* NB_SMT_H */
