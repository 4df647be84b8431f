/*
 * t_ds.c - native unit test of the DS save area / PEBS record module
 * (nb_ds.c), TAP.  Guest memory is a byte array here.
 */
#include <string.h>
#include "pmu/nb_ds.h"
#include "tap.h"

static uint8_t mem[4096];
#define BASE 0x10000u          /* guest address of mem[0] */

static uint8_t *map(void *cookie, uint64_t addr, uint64_t len)
{
	(void)cookie;
	if (addr < BASE || addr + len > BASE + sizeof mem)
		return NULL;
	return mem + (addr - BASE);
}

static uint64_t rd(uint64_t addr, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = n; i-- > 0;)
		v = (v << 8) | mem[addr - BASE + i];
	return v;
}

static void wr(uint64_t addr, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		mem[addr - BASE + i] = (uint8_t)v;
}

/* DS area at BASE, PEBS buffer at BASE+0x100 with room for NREC records,
 * threshold after THR records, reset value RESET. */
static void setup(int fmt64, unsigned nrec, unsigned thr, uint64_t reset)
{
	unsigned w = fmt64 ? 8 : 4, sz = fmt64 ? NB_PEBS_REC64 : NB_PEBS_REC32;
	memset(mem, 0, sizeof mem);
	wr(BASE + 4 * w, w, BASE + 0x100);                 /* PEBS base      */
	wr(BASE + 5 * w, w, BASE + 0x100);                 /* PEBS index     */
	wr(BASE + 6 * w, w, BASE + 0x100 + nrec * sz);     /* absolute max   */
	wr(BASE + 7 * w, w, BASE + 0x100 + thr * sz);      /* int threshold  */
	wr(BASE + 8 * w, 8, reset);                        /* counter reset  */
}

int main(void)
{
	uint64_t regs[NB_PEBS_NREGS], reset = 0;
	struct nb_ds ds;
	int r;

	for (unsigned i = 0; i < NB_PEBS_NREGS; i++)
		regs[i] = 0x1111111100000000ull * (i + 1) + 0x100 + i;

	/* 64-bit format */
	setup(1, 3, 2, (UINT64_C(1) << 40) - 1000);
	tap_ok(nb_ds_read(map, 0, BASE, 1, &ds) == 0 && ds.pebs_base == BASE + 0x100 &&
	       ds.pebs_max == BASE + 0x100 + 3 * 144 && ds.pebs_thresh == BASE + 0x100 + 2 * 144 &&
	       ds.pebs_reset == (UINT64_C(1) << 40) - 1000,
	       "64-bit DS area: PEBS base 0x20, index 0x28, max 0x30, threshold 0x38, reset 0x40");
	r = nb_ds_pebs_store(map, 0, BASE, 1, regs, &reset);
	tap_ok(r == NB_PEBS_STORED && reset == (UINT64_C(1) << 40) - 1000,
	       "first record stored, below the threshold; counter reset value returned");
	TAP_EQ(rd(BASE + 0x28, 8), BASE + 0x100 + 144, "PEBS index advanced by 144 bytes");
	TAP_EQ(rd(BASE + 0x100, 8), regs[NB_PEBS_FLAGS], "record offset 0: RFLAGS");
	TAP_EQ(rd(BASE + 0x108, 8), regs[NB_PEBS_IP], "record offset 8: RIP");
	TAP_EQ(rd(BASE + 0x100 + 0x48, 8), regs[NB_PEBS_SP], "record offset 0x48: RSP");
	TAP_EQ(rd(BASE + 0x100 + 0x88, 8), regs[NB_PEBS_R8 + 7], "record offset 0x88: R15");
	r = nb_ds_pebs_store(map, 0, BASE, 1, regs, &reset);
	TAP_EQ(r, NB_PEBS_PMI, "second record reaches the interrupt threshold: PMI");
	r = nb_ds_pebs_store(map, 0, BASE, 1, regs, &reset);
	TAP_EQ(r, NB_PEBS_PMI, "third record: still at/above the threshold");
	r = nb_ds_pebs_store(map, 0, BASE, 1, regs, &reset);
	TAP_EQ(r, NB_PEBS_FULL, "fourth: no room below the absolute maximum, nothing stored");
	TAP_EQ(rd(BASE + 0x28, 8), BASE + 0x100 + 3 * 144, "index unchanged when full");

	/* 32-bit format */
	setup(0, 2, 1, 12345);
	tap_ok(nb_ds_read(map, 0, BASE, 0, &ds) == 0 && ds.pebs_base == BASE + 0x100 &&
	       ds.pebs_max == BASE + 0x100 + 2 * 40 && ds.pebs_reset == 12345,
	       "32-bit DS area: PEBS base 0x10, index 0x14, max 0x18, threshold 0x1c, reset 0x20");
	r = nb_ds_pebs_store(map, 0, BASE, 0, regs, &reset);
	TAP_EQ(r, NB_PEBS_PMI, "32-bit: threshold after one record");
	TAP_EQ(rd(BASE + 0x14, 4), BASE + 0x100 + 40, "32-bit: index advanced by 40 bytes");
	TAP_EQ(rd(BASE + 0x104, 4), regs[NB_PEBS_IP] & 0xffffffffu, "32-bit record offset 4: EIP (low 32 bits)");
	TAP_EQ(rd(BASE + 0x124, 4), regs[NB_PEBS_SP] & 0xffffffffu, "32-bit record offset 0x24: ESP");
	TAP_EQ(rd(BASE + 0x128, 4), 0, "32-bit record is 40 bytes: nothing written after ESP");

	/* bad areas */
	TAP_EQ(nb_ds_pebs_store(map, 0, 0x10, 1, regs, &reset), NB_PEBS_BADAREA,
	       "DS area outside guest memory: refused");
	setup(1, 3, 2, 0);
	wr(BASE + 0x20, 8, 0x999999);
	wr(BASE + 0x28, 8, 0x999999);
	wr(BASE + 0x30, 8, 0x999999 + 1000);
	TAP_EQ(nb_ds_pebs_store(map, 0, BASE, 1, regs, &reset), NB_PEBS_BADAREA,
	       "PEBS buffer outside guest memory: refused");
	printf("1..%d\n", tap_n);
	return tap_done();
}
