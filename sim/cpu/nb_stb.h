/*
 * nb_stb.h - store buffer model: store-to-load forwarding and 64 KB
 * aliasing (README "Store buffer").  Pure module (no libc, no valgrind).
 *
 * The buffer holds the last `entries` stores in program order (address and
 * size).  A load looks for the newest buffered store that either overlaps
 * it or conflicts with it through address aliasing, and is classified by
 * that store alone (nb_stb.c has the rules and their sources).
 */
#ifndef NB_STB_H
#define NB_STB_H

#include <stdint.h>

#define NB_STB_MAX 32
#define NB_STB_BUCKETS 1024           /* filter: line address bits 6..15  */

struct nb_stb {
	unsigned entries;             /* <= NB_STB_MAX                        */
	unsigned alias_bits;          /* aliasing compares bits 6..bits-1     */
	unsigned head;                /* next slot to write                   */
	unsigned count;               /* valid slots (< entries until full)   */
	unsigned bmask;               /* bucket index mask (NB_STB_BUCKETS-1, */
				      /* fewer with alias_bits < 16)          */
	uint64_t addr[NB_STB_MAX];
	uint32_t size[NB_STB_MAX];
	/* per value of line address bits 6..15 (6..alias_bits-1 if fewer):
	 * the slots whose store has a line there.  Only those stores can
	 * concern a load: overlap needs a common line, aliasing equal bits
	 * 6..alias_bits-1. */
	uint32_t bucket[NB_STB_BUCKETS];
};

/* What a load finds in the store buffer. */
enum nb_stb_result {
	NB_STB_NONE,                  /* no buffered store concerns it        */
	NB_STB_FORWARD,               /* forwarded from a store               */
	NB_STB_PARTIAL,               /* same start, data not contained:      */
				      /* MOB_load_replay PARTIAL_DATA         */
	NB_STB_UNALIGNED,             /* overlaps a store that starts         */
				      /* elsewhere: UNALGN_ADDR               */
	NB_STB_ALIAS                  /* another line with the same aliasing  */
				      /* bits: memory_cancel 64K_CONF         */
};

/* Returns 0 if entries is 0 or above NB_STB_MAX, or alias_bits is not in
 * 7..63.  The buffer starts empty. */
int nb_stb_init(struct nb_stb *b, unsigned entries, unsigned alias_bits);

/* A store of size bytes at addr retires into the buffer (the oldest
 * store leaves a full buffer).  size <= 64 (x86 stores are; larger ones
 * are taken as 64 bytes). */
void nb_stb_store(struct nb_stb *b, uint64_t addr, uint32_t size);

/* nb_stb_load's search of the candidate slots cand (a bucket mask) */
enum nb_stb_result nb_stb_scan(const struct nb_stb *b, uint64_t addr, uint64_t end, uint32_t cand);

/* Classify a load of size bytes at addr (the buffer does not change).
 * (Inline: most loads have no candidate, a look at two buckets.) */
static inline enum nb_stb_result nb_stb_load(const struct nb_stb *b, uint64_t addr, uint32_t size)
{
	uint64_t end = addr + (size ? size : 1);
	uint32_t cand = b->bucket[(addr >> 6) & b->bmask] |
		b->bucket[((end - 1) >> 6) & b->bmask];

	return cand ? nb_stb_scan(b, addr, end, cand) : NB_STB_NONE;
}

#endif /* NB_STB_H */
