/*
 * nb_wcb.h - write-combining (WC) buffer model for non-temporal stores
 * (README "Write-combining buffers").  Pure module (no libc, no valgrind).
 *
 * n buffers of one 64-byte line each, with a valid-byte mask.  A
 * non-temporal store merges into the buffer holding its line, or
 * allocates one (evicting the oldest allocation when none is free); a
 * buffer whose 64 bytes are all written is evicted at once; a fence
 * evicts them all.  nb_wcb.c has the rules and their sources.
 */
#ifndef NB_WCB_H
#define NB_WCB_H

#include <stdint.h>

#define NB_WCB_MAX 8                  /* buffers (8 on CPUID model 3)     */
#define NB_WCB_LINE_SHIFT 6           /* 64-byte buffers                  */
#define NB_WCB_ALL_BYTES (~UINT64_C(0))

/* Why a buffer left (WC_Buffer counts every eviction as WCB_EVICTS, the
 * NB_WCB_NO_FREE ones also as WCB_FULL_EVICT). */
enum nb_wcb_cause {
	NB_WCB_FULL_LINE = 1,         /* all 64 bytes written              */
	NB_WCB_NO_FREE,               /* a new line found no free buffer   */
	NB_WCB_FENCE                  /* sfence, mfence, lock, cpuid ...   */
};

/* One eviction: the line (address >> 6), its written bytes (bit i: byte
 * i of the line; NB_WCB_ALL_BYTES: a full line, one burst write) and
 * the cause. */
struct nb_wcb_evict {
	uint64_t line;
	uint64_t bytes;
	unsigned cause;               /* enum nb_wcb_cause                 */
};

/* At most 2 lines per store, each at most one no-free and one full-line
 * eviction. */
#define NB_WCB_STORE_EVICTS_MAX 4

struct nb_wcb {
	unsigned n;                   /* buffers, <= NB_WCB_MAX            */
	unsigned used;                /* allocated: slots 0..used-1,       */
				      /* oldest allocation first           */
	uint64_t line[NB_WCB_MAX];
	uint64_t bytes[NB_WCB_MAX];
};

/* The number of WC buffers of a family-15 CPUID model (0 if unknown). */
unsigned nb_wcb_buffers(unsigned cpuid_model);

/* Returns 0 if n is 0 or above NB_WCB_MAX.  The buffers start free. */
int nb_wcb_init(struct nb_wcb *w, unsigned n);

/* A non-temporal store of size bytes (1..64; 0 is taken as 1, more as
 * 64) at addr: the evictions it causes, in order, go to out[]; returns
 * their number (<= NB_WCB_STORE_EVICTS_MAX). */
unsigned nb_wcb_store(struct nb_wcb *w, uint64_t addr, unsigned size,
		      struct nb_wcb_evict out[NB_WCB_STORE_EVICTS_MAX]);

/* A fence: every allocated buffer is evicted (oldest first) into out[];
 * returns their number (<= n).  All buffers are free afterwards. */
unsigned nb_wcb_flush(struct nb_wcb *w, struct nb_wcb_evict out[NB_WCB_MAX]);

/* Is the line of addr held in a buffer? */
int nb_wcb_holds(const struct nb_wcb *w, uint64_t addr);

#endif /* NB_WCB_H */
