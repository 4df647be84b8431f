/*
 * nb_smt_state.h - a logical processor's share of the package under
 * Hyper-Threading, as its clock keeps it (t->smt of struct nb_tm,
 * nb_timing.h): nb_smt.c (nb_smt.h) writes it, the walk (nb_timing.c)
 * reads it.  Included by nb_timing.h, which defines the sizes it uses
 * (NB_TMU_N, NB_TM_MAXLD) before.
 */
#ifndef NB_SMT_STATE_H
#define NB_SMT_STATE_H

#include <stdint.h>

/* the L1D's alias classes and sets (nb_smt.c: the data conflicts) */
#define NB_TM_NALIAS 1024u        /* the L1D's alias classes kept (HT)   */
#define NB_TM_L1SETS 32u          /* the L1D's sets (8 KB 4-way and 16 KB
				   * 8-way of 64 B lines: 32 both)      */

/* Hyper-Threading (nb_smt.c sets these while both logical processors
 * are active; all 0 with one: the model unchanged).  win: uops in flight
 * (0: p->window); alt: the other LP's allocation/retirement cycles, bit
 * c % 64 set: this LP neither allocates nor retires in cycle c (never
 * all 64); miss_n: miss slots this LP may hold (0: p->miss_slots);
 * replay: a load that finds none free goes round the replay loop of
 * `replay` ticks and dispatches again (0: it waits for the first to
 * free); oth: the other LP's use of each unit instance, a 64-tick pattern
 * that recycled reservation words start with (odirty, beside the words).
 * (The replay of recorded schedules, nb_tmmemo.c,
 * is off with --ht=yes: none of this is in its key.) */
struct nb_tm_smt {
	unsigned win, miss_n, replay;
	uint64_t alt, oth[NB_TMU_N][2];
	/* own use, for the other LP's profile: ticks each unit was taken,
	 * miss-slot ticks held, load dispatches that were replays */
	uint64_t unit_ticks[NB_TMU_N], miss_ticks, replays;
	/* the cycles the sampled clock charged skipped runs, whose unit use
	 * it does not know (nb_smt_learn scales the walked runs' use) */
	uint64_t skip_cyc;
	/* the L1D's data conflicts between the LPs: ld_alias[i]: the alias
	 * class of the line missing load i of the running block missed
	 * (nb_tm_load_alias); alias_n[c]: this LP's missing loads of class c
	 * while both LPs ran in its segment (for the other LP's profile),
	 * alias_seen bit c set when it is not 0 (nb_smt_mark zeroes those:
	 * a lockstep turn every 50,000 cycles or so touches a few of the
	 * 1,024); conf_hold[c]: the
	 * ticks of the other LP's last segment in which it had a miss of
	 * class c under way; conf_way: one such miss under way (ticks, its
	 * mean); conf_res[s]: how long a line of set s then stays in the L1D
	 * until evicted (ticks); conf_span: that segment's ticks (0: no
	 * conflicts); conf_acc: the running sum that spreads the conflicts at
	 * their rate; conflicts: loads that met one (statistics); conf_mask:
	 * the classes conf_hold may be set for (the others are 0) */
	uint16_t ld_alias[NB_TM_MAXLD];
	uint32_t alias_n[NB_TM_NALIAS], conf_hold[NB_TM_NALIAS], conf_res[NB_TM_L1SETS];
	uint64_t alias_seen[NB_TM_NALIAS / 64], conf_mask[NB_TM_NALIAS / 64];
	uint64_t conf_span, conf_way, conf_acc, conflicts;
	/* the front-side bus, the package's: bus_oth, the other LP's
	 * transfers, a 64-slot pattern of line slots (t->bus_line ticks
	 * each; bit (slot % 64) set: the slot is the other LP's) that this
	 * LP's transfers go round (nb_tm_bus_end); bus_ticks, this LP's own
	 * transfers' ticks, their number and how many waited for those
	 * before them (for the other LP's profile) */
	uint64_t bus_oth, bus_ticks, bus_n, bus_waits;
};

#endif /* NB_SMT_STATE_H */
