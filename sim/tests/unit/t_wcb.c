/*
 * t_wcb.c - native unit test of the write-combining buffer model
 * (nb_wcb.c) (TAP).  Every expectation is worked out by hand from the
 * rules in nb_wcb.c: merge into the buffer holding the line, allocate a
 * free one, evict the oldest allocation when none is free (NO_FREE),
 * evict a buffer whose 64 bytes are written (FULL_LINE), a fence evicts
 * all (FENCE).
 */
#include <stdio.h>
#include "cpu/nb_wcb.h"
#include "tap.h"

static struct nb_wcb w;
static struct nb_wcb_evict ev[NB_WCB_MAX];

/* a store: its evictions into ev[], their number */
static unsigned st(uint64_t a, unsigned size)
{
	return nb_wcb_store(&w, a, size, ev);
}

/* n 16-byte stores from a (movntdq) */
static unsigned st16(uint64_t a, unsigned n)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++)
		k += st(a + 16 * i, 16);
	return k;
}

int main(void)
{
	unsigned k;

	/* per-model buffer counts [OPTWC]: 6; 8 on model 3 (and our 4, 6) */
	TAP_EQ(nb_wcb_buffers(1), 6, "Willamette (model 1): 6 WC buffers");
	TAP_EQ(nb_wcb_buffers(2), 6, "Northwood / Gallatin (model 2): 6 WC buffers");
	TAP_EQ(nb_wcb_buffers(3), 8, "Prescott (model 3): 8 WC buffers");
	TAP_EQ(nb_wcb_buffers(6), 8, "Cedar Mill (model 6): 8 WC buffers (our choice)");
	TAP_EQ(nb_wcb_buffers(5), 0, "model 5: unknown");
	tap_ok(!nb_wcb_init(&w, 0) && !nb_wcb_init(&w, NB_WCB_MAX + 1), "0 or > %d buffers refused",
	       NB_WCB_MAX);
	tap_ok(nb_wcb_init(&w, 6), "6 buffers");

	/* allocation and merge */
	TAP_EQ(st(0x1000, 8), 0, "first store: allocates, no eviction");
	TAP_EQ(w.used, 1, "one buffer in use");
	TAP_EQ(st(0x1008, 8), 0, "same line, next 8 bytes: merges");
	TAP_EQ(w.used, 1, "still one buffer");
	TAP_EQ(w.bytes[0], 0xffff, "valid bytes 0-15");
	TAP_EQ(st(0x1000, 4), 0, "rewriting written bytes: collapses");
	TAP_EQ(w.bytes[0], 0xffff, "valid bytes still 0-15");
	tap_ok(nb_wcb_holds(&w, 0x103f) && !nb_wcb_holds(&w, 0x1040), "holds line 0x1000 only");

	/* full line: bytes 16..63 complete it */
	k = st16(0x1010, 3);
	TAP_EQ(k, 1, "48 more bytes complete the line: one eviction");
	tap_ok(ev[0].cause == NB_WCB_FULL_LINE && ev[0].line == 0x1000 >> 6 &&
	       ev[0].bytes == NB_WCB_ALL_BYTES, "  FULL_LINE, line 0x1000, all 64 bytes");
	TAP_EQ(w.used, 0, "the buffer is free again");
	k = st16(0x2000, 4);
	TAP_EQ(k, 1, "4 x movntdq to one line: one full-line eviction");
	TAP_EQ(st(0x3000, 64), 1, "one 64-byte store: allocated and evicted at once");
	TAP_EQ(ev[0].cause, NB_WCB_FULL_LINE, "  FULL_LINE");
	TAP_EQ(w.used, 0, "nothing left");

	/* no free buffer: 7 lines round-robin, 8 bytes at offset 0 each */
	k = 0;
	for (unsigned i = 0; i < 6; i++)
		k += st(0x10000 + 64 * i, 8);
	TAP_EQ(k, 0, "6 lines: 6 buffers, no eviction");
	TAP_EQ(st(0x10000 + 64 * 6, 8), 1, "7th line: one eviction");
	tap_ok(ev[0].cause == NB_WCB_NO_FREE && ev[0].line == 0x10000 >> 6 && ev[0].bytes == 0xff,
	       "  NO_FREE, the oldest allocation (line 0 of 7), bytes 0-7");
	TAP_EQ(st(0x10000, 8), 1, "line 0 again: not held, evicts line 1");
	TAP_EQ(ev[0].line, (0x10000 >> 6) + 1, "  line 1 left");
	k = 0;
	for (unsigned r = 0; r < 10; r++)       /* lines 1..6, 0, 1..6, 0 ... */
		for (unsigned j = 1; j <= 7; j++)
			k += st(0x10000 + 64 * (j % 7) + 8 * (r % 2), 8);
	TAP_EQ(k, 70, "round-robin on 7 lines with 6 buffers: every store evicts (70 of 70)");
	/* FIFO, not LRU: a merge does not make a buffer younger */
	nb_wcb_flush(&w, ev);
	for (unsigned i = 0; i < 6; i++)
		st(0x20000 + 64 * i, 8);
	TAP_EQ(st(0x20000 + 8, 8), 0, "merge into the oldest buffer");
	TAP_EQ(st(0x20000 + 64 * 6, 8), 1, "a 7th line then evicts the oldest allocation");
	tap_ok(ev[0].line == 0x20000 >> 6 && ev[0].bytes == 0xffff,
	       "  line 0 (bytes 0-15), although it was written last");
	TAP_EQ(w.used, 6, "6 in use");

	/* a no-free eviction and a full-line one from one store */
	nb_wcb_flush(&w, ev);
	for (unsigned i = 0; i < 6; i++)
		st(0x30000 + 64 * i, 8);
	TAP_EQ(st(0x40000, 64), 2, "a 64-byte store to a 7th line: 2 evictions");
	tap_ok(ev[0].cause == NB_WCB_NO_FREE && ev[1].cause == NB_WCB_FULL_LINE &&
	       ev[1].line == 0x40000 >> 6, "  NO_FREE (oldest), then FULL_LINE (the new line)");
	TAP_EQ(w.used, 5, "5 in use");

	/* fences */
	k = nb_wcb_flush(&w, ev);
	TAP_EQ(k, 5, "a fence evicts the 5 partial buffers");
	tap_ok(ev[0].cause == NB_WCB_FENCE && ev[0].line == (0x30000 >> 6) + 1 &&
	       ev[4].line == (0x30000 >> 6) + 5, "  FENCE, oldest first");
	TAP_EQ(nb_wcb_flush(&w, ev), 0, "a second fence: nothing");
	st(0x50000, 8);
	TAP_EQ(nb_wcb_flush(&w, ev), 1, "one partial line, fence: one eviction");
	TAP_EQ(ev[0].bytes, 0xff, "  bytes 0-7");

	/* a store crossing a line: two buffers */
	TAP_EQ(st(0x6000 + 60, 8), 0, "8 bytes at 60: two lines allocated");
	TAP_EQ(w.used, 2, "2 in use");
	tap_ok(w.bytes[0] == UINT64_C(0xf) << 60 && w.bytes[1] == 0xf,
	       "  bytes 60-63 of the first, 0-3 of the second");
	TAP_EQ(nb_wcb_flush(&w, ev), 2, "fence: 2 evictions");

	/* 8 buffers (Prescott) */
	tap_ok(nb_wcb_init(&w, 8), "8 buffers");
	k = 0;
	for (unsigned r = 0; r < 5; r++)
		for (unsigned i = 0; i < 7; i++)
			k += st(0x70000 + 64 * i, 8);
	TAP_EQ(k, 0, "7 lines round-robin with 8 buffers: no eviction");
	k = 0;
	for (unsigned r = 0; r < 5; r++)
		for (unsigned i = 0; i < 9; i++)
			k += st(0x80000 + 64 * i, 8);
	/* the 7 old lines fill 7 buffers; 45 stores to 9 new lines: the
	 * 8th buffer is free for the first, then every store finds none */
	TAP_EQ(k, 44, "then 9 lines round-robin: 44 of 45 stores evict");
	return tap_done_plan();
}
