/*
 * nb_tmmemo_state.h - the state of the replay of recorded schedules in
 * each clock (t->memo of struct nb_tm, nb_timing.h), which only
 * nb_tmmemo.c (nb_tmmemo.h) reads and writes.  Included by nb_timing.h.
 */
#ifndef NB_TMMEMO_STATE_H
#define NB_TMMEMO_STATE_H

#include <stdint.h>

#define NB_TM_MEMO_MINR 8u        /* ranges of fewer real uops: the walk */

/* the replay of recorded schedules (nb_tmmemo.c) */
struct nb_tm_memo {
	/* on (1) or the walk alone (0, nb_tm_init's default; the reference) */
	unsigned on;
	uint64_t runs, hits;     /* block runs tried, replayed (stats)        */
	/* steady state: a range replayed from the same recorded state run
	 * after run is fast-forwarded: its clock fields advance, its writes
	 * to the arrays (slots, window, reservations) are made at
	 * nb_tm_memo_sync, for the last runs whose writes still matter.
	 * ff_*: the range and way, the replays of it in a row, the
	 * reservations' end before them, the runs not yet written (the last
	 * at allocation cycle ff_F, sequence number ff_seq), and the state
	 * the last replay left (a next run continues it only if unchanged) */
	const void *ff_set;
	unsigned ff_way, ff_on;
	uint64_t ff_streak, ff_uhi_pre, ff_m, ff_F, ff_seq;
	uint64_t ff_fe, ff_ret, ff_seqx, ff_mut;
	unsigned ff_fe_n, ff_ret_n;
	uint64_t ffs;            /* runs fast-forwarded (stats)               */
};

#endif /* NB_TMMEMO_STATE_H */
