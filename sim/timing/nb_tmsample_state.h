/*
 * nb_tmsample_state.h - the sampled clock's state in each clock (t->smp
 * of struct nb_tm, nb_timing.h), which only nb_tmsample.c (nb_tmsample.h)
 * reads and writes.  Included by nb_timing.h, which defines the sizes it
 * uses (NB_TM_MAXLD) and struct nb_tm_block before.
 */
#ifndef NB_TMSAMPLE_STATE_H
#define NB_TMSAMPLE_STATE_H

#include <stdint.h>

/* the sampled clock (nb_tmsample.c): its phase (skip, warm, measure) and
 * the runs left in it, the fraction of a cycle the skipped runs carry,
 * what the warm phase's runs cost beyond their learned costs, not yet
 * taken back from the skipped runs' charges (both 1/256 cycles), the
 * generator of the skip phases' lengths, whether the last run ended in a
 * mispredicted branch; runs skipped, walked, measured, skip phases cut
 * short by a run without a cost for its variant (statistics) */
struct nb_tms {
	unsigned phase, mp, refill;
	unsigned cut;            /* the warm phase began at a cut skip phase */
	uint32_t skip;           /* mean runs of a skip phase (set before use) */
	uint32_t left, frac;
	int64_t skew;
	uint64_t rng, skipped, walked, measured, cold;
	/* a streak of skipped runs (nb_tms_skip): lazy, whether the next run
	 * may join it; pend, its runs not yet in the clock's fields; acc,
	 * their charges (1/256 cycles); accu, their uops */
	uint32_t lazy, pend;
	/* a store held the front end (nb_tms_store_bus) since the last run
	 * started: where the next run's learned advance starts */
	uint32_t hold;
	uint64_t acc, accu;
	/* the anchors (nb_tms_anchor): twice how many, plus the package's
	 * state the costs are learned for (coff); and the runs before the
	 * last one */
	uint64_t gen;
	uint64_t from;
	/* the runs before the last anchor, where the skip phases' lengths
	 * start again from short (nb_tmsample.c skip_mean; from: the last
	 * anchor's or forgetting's, for the next forgetting) */
	uint64_t rfrom;
	/* forgetting without an anchor (nb_tmsample.c forget): after
	 * `forget` runs from the last anchor or forgetting (0: never); how
	 * many times (statistics); the other LP's clock, which takes the
	 * same generation (NULL without --ht=yes) */
	uint64_t forget, forgot;
	struct nb_tm *peer;
	/* this clock's cost entries in a block's b->cost: from entry coff
	 * on.  Under --ht=yes a block has two sets, the package whole (0)
	 * and shared by both LPs (NB_TMS_EXITS), and gen's low bit says
	 * which (nb_cycles.c nb_tm_switch), so that no entry, nor a call
	 * site's memory of one (nb_tmsample.h), learned in one state is
	 * charged in the other */
	uint32_t coff;
	/* a run that arrives in segments (nb_tm_seg_sampled: PMI checks,
	 * step mode), open until the next run's first segment or
	 * nb_tms_close: open, 0 none, NB_SEG_WALK (walked segment by segment
	 * from before, its loads' missing latencies os so far), NB_SEG_DEFER
	 * (skipped or walked whole when it closes) or NB_SEG_EXACT (walked in
	 * a skip phase, nb_tms_exact; exact: its setting); its block, the
	 * uops reached, the mispredictions at its last segment; a held-back
	 * run's L1D misses (omask, olat: the next run's loads run before it
	 * ends) */
	unsigned open, oto, exact;
	const struct nb_tm_block *ob;
	uint64_t obefore, os, omisp, omask;
	uint32_t olat[NB_TM_MAXLD];
};

#endif /* NB_TMSAMPLE_STATE_H */
