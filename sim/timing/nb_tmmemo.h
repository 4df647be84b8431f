/*
 * nb_tmmemo.h - the replay of recorded schedules (nb_tmmemo.c): the
 * timing model's walk (nb_timing.h) at the cost of a comparison when a
 * block runs again from the same relative state, with the walk's cycles
 * bit for bit.  Above the model, below the sampled clock (nb_tmsample.h).
 * Its state is t->memo; the walk's log it reads is t->log.
 */
#ifndef NB_TMMEMO_H
#define NB_TMMEMO_H

#include "nb_timing.h"

/* Run uops [from, to) of b.  misp: the count of mispredicted branches so
 * far (a new one redirects the front end after the last uop run).  With
 * t->memo.on, a run whose state relative to the clock repeats one recorded
 * is replayed, with the same cycles as the walk.  The sampled clock's
 * streak, if any, is in the clock's fields (nb_tms_sync). */
void nb_tm_run(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
	       uint64_t misp);

/* The same as nb_tm_walk, by replay when it can.  A block's
 * uops must not change while it is in use: nb_tm_memo_flush forgets every
 * recorded schedule (a test reusing a block's storage). */
void nb_tm_memo_walk(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to);
void nb_tm_memo_flush(void);

/* Make the arrays of t (ready, rob, busy, uhi, lo) what the walk would
 * have left: the writes of the runs the steady state fast-forwarded
 * (nb_tmmemo.c).  Every reader of the arrays calls it first (the walk's
 * callers: nb_tm_memo_current);
 * the clock's scalar fields (fe, ret, seq, last_done, miss, div_free)
 * are always current. */
void nb_tm_memo_sync(struct nb_tm *t);

/* The arrays current (nb_tm_memo_sync) if the steady state has writes
 * pending: before a call into the model that reads them (nb_timing.h) */
static inline void nb_tm_memo_current(struct nb_tm *t)
{
	if (t->memo.ff_m)
		nb_tm_memo_sync(t);
}

#endif /* NB_TMMEMO_H */
