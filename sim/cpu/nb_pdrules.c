/*
 * nb_pdrules.c - the Pentium D counting rules (nb_pdrules.h).
 *
 * Sources (docs/counting-rules.md "Pentium D counting rules" has the
 * table): V. Weaver, repository deater/deterministic at commit 6cb9ac2,
 * [S] static/src/retired_instr.x86_64.s (per-instruction "PentiumD" and
 * "p4" annotations of the measured counts) and
 * [P] papers/deterministic_counters/03_evaluation.tex (V. Weaver, D. Terpstra,
 * S. Moore, ISPASS 2013, section "Sources of Instruction Overcount",
 * "Retired Load Overcount", "Retired Store Overcount"); for REP MOVS,
 * [M] static/mov_graph/results.movs* (below).  Measured with
 * INSTR_RETIRED:NBOGUSNTAG, front_end_event:NBOGUS with uop_type
 * TAGLOADS / TAGSTORES and branch_retired MMNP|MMNM|MMTP|MMTM on a
 * family 15 model 6 part (static/results/pentiumd/0/).
 */
#include "nb_pdrules.h"
#include "nb_idecode.h"

/*
 * REP MOVS and REP STOS [P] "Retired Load Overcount", "Retired Store
 * Overcount"; [M] static/mov_graph/results.movs{b,w,l,q} of the same
 * repository (the loads of one REP MOVS{B,W,L,Q} with RCX = 0 to 65535,
 * 0 to 8191, 0 to 4095, 0 to 4095, forward, 16-byte aligned buffers,
 * measured 10,000 times each with front_end_event + uop_type TAGLOADS;
 * mov_check.c): from 64 iterations on, 4 loads per 64-byte block and one
 * per element of the remainder; below 64, one per element, but at least
 * 8 (MOVSW/L/Q), and 3 for MOVSB of 0 to 3 bytes and 8 for 4 to 7.  This
 * formula gives every one of the 81,920 measured rows.  [S] STRING
 * segment: forward REP STOS and REP MOVS of 16 KB count 1,024 stores
 * ("+1023 Stores PentiumD"), "in 16B blocks" [P]; backward REP STOS one
 * per element ("+4095", [P] "unless storing backwards").  The stores of
 * a forward REP MOVS or STOS follow the loads' measured shape without
 * its minimum (a 64-byte block is four 16-byte stores); backward, and the
 * loads of a backward REP MOVS, one per element: model choices where the
 * sources give only the 16 KB totals.
 */
static uint64_t rep_blocks(unsigned z, uint64_t n)
{
	uint64_t b = n * z;

	return n < 64 ? n : b / 64 * 4 + b % 64 / z;
}

void nb_pd_rep(int movs, unsigned z, uint64_t n, int backward, uint64_t *loads,
	       uint64_t *stores)
{
	uint64_t l;

	if (backward) {
		*loads = movs ? n : 0;
		*stores = n;
		return;
	}
	*stores = rep_blocks(z, n);
	if (!movs) {
		*loads = 0;
		return;
	}
	l = rep_blocks(z, n);
	if (z > 1 && n < 8)
		l = 8;
	else if (z == 1 && n < 4)
		l = 3;
	else if (z == 1 && n < 8)
		l = 8;
	*loads = l;
}

int nb_pd_rules(const uint8_t *c, unsigned len, struct nb_pd_adj *a)
{
	unsigned i = 0;
	uint8_t pfx = 0, op, m, reg, rep = 0, osz = 0, rexw = 0;
	int mem;

	a->extra_ins = 0;
	a->branch = 0;
	a->loads = NB_PD_KEEP;
	a->stores = NB_PD_KEEP;
	a->rep = 0;
	a->rep_movs = 0;
	while (i < len && nb_is_legacy_prefix(c[i])) {
		if (c[i] == 0xf2 || c[i] == 0xf3 || c[i] == 0x66)
			pfx = c[i];
		if (c[i] == 0xf3)
			rep = 1;
		if (c[i] == 0x66)
			osz = 1;
		i++;
	}
	if (i < len && (c[i] & 0xf0) == 0x40) { /* REX */
		rexw = (c[i] & 8) != 0;
		i++;
	}
	if (i >= len)
		return 0;
	op = c[i];
	/* rep movs A4/A5, rep stos AA/AB: by blocks (nb_pd_rep) */
	if (rep && (op == 0xa4 || op == 0xa5 || op == 0xaa || op == 0xab)) {
		a->rep = !(op & 1) ? 1 : rexw ? 8 : osz ? 2 : 4;
		a->rep_movs = op < 0xa8;
		return 1;
	}
	if (op == 0x0f) {
		uint8_t op2;
		if (i + 1 >= len)
			return 0;
		op2 = c[i + 1];
		switch (op2) {
		case 0x05:                      /* syscall: a retired branch */
			a->branch = 1;
			return 1;
		case 0x77:                      /* emms: counted twice */
			a->extra_ins = 1;
			return 1;
		case 0xa2:                      /* cpuid: one store */
			a->stores = 1;
			return 1;
		case 0xa1: case 0xa9:           /* pop fs, pop gs: two loads */
			a->loads = 2;
			return 1;
		}
		if (i + 2 >= len)
			return 0;
		m = c[i + 2];
		mem = (m >> 6) != 3;
		reg = (m >> 3) & 7;
		switch (op2) {
		case 0x10:                      /* movups/movupd xmm, m128 */
			if (mem && (pfx == 0 || pfx == 0x66)) {
				a->loads = 2;
				return 1;
			}
			return 0;
		case 0x11:                      /* movups/movupd m128, xmm */
			if (mem && (pfx == 0 || pfx == 0x66)) {
				a->stores = 2;
				return 1;
			}
			return 0;
		case 0x6f:                      /* movdqu xmm, m128 */
			if (mem && pfx == 0xf3) {
				a->loads = 2;
				return 1;
			}
			return 0;
		case 0x7f:                      /* movdqu m128, xmm */
			if (mem && pfx == 0xf3) {
				a->stores = 2;
				return 1;
			}
			return 0;
		case 0xf0:                      /* lddqu */
			if (mem && pfx == 0xf2) {
				a->loads = 2;
				return 1;
			}
			return 0;
		case 0xf7:                      /* maskmovq: +1 instruction, */
			if (mem)                /* one store; maskmovdqu: two */
				return 0;       /* stores; no load (VEX reads */
			if (pfx == 0x66)        /* the old bytes to merge)    */
				a->stores = 2;
			else if (pfx == 0) {
				a->extra_ins = 1;
				a->stores = 1;
			} else
				return 0;
			a->loads = 0;
			return 1;
		case 0x2c: case 0x2d:           /* cvt(t)pd2pi mm, m128: +1 */
			if (mem && pfx == 0x66) {       /* instruction, one load */
				a->extra_ins = 1;       /* (VEX: two 64-bit)     */
				a->loads = 1;
				return 1;
			}
			if (mem && pfx == 0) {  /* cvt(t)ps2pi mm, m64: one */
				a->loads = 1;   /* load (VEX: two 32-bit)   */
				return 1;
			}
			return 0;
		case 0x5a:                      /* cvtps2pd xmm, m64: one load */
			if (mem && pfx == 0) {  /* (VEX: two 32-bit)           */
				a->loads = 1;
				return 1;
			}
			return 0;
		case 0x18:                      /* prefetch*: not a load */
			if (mem && reg < 4) {
				a->loads = 0;
				return 1;
			}
			return 0;
		case 0xae:
			if (!mem) {
				if (m >= 0xf0) {        /* mfence, sfence: counted */
					a->extra_ins = 1; /* twice, and a store */
					a->stores = 1;
					return 1;
				}
				return 0;
			}
			if (pfx)
				return 0;
			switch (reg) {
			case 0: a->stores = 25; return 1;   /* fxsave  */
			case 1: a->loads = 26; return 1;    /* fxrstor */
			case 7: a->stores = 1; return 1;    /* clflush */
			}
			return 0;
		}
		return 0;
	}
	if (op < 0xd8 || op > 0xdf || i + 1 >= len)
		return 0;
	m = c[i + 1];
	if ((m >> 6) == 3)
		return 0;
	reg = (m >> 3) & 7;
	switch (op) {
	case 0xd9:
		switch (reg) {
		case 4: a->extra_ins = 1; a->loads = 7; return 1;   /* fldenv  */
		case 5: a->extra_ins = 1; return 1;                 /* fldcw   */
		case 6: a->stores = 7; return 1;                    /* fnstenv */
		}
		return 0;
	case 0xdb:
		switch (reg) {
		case 5: a->loads = 2; return 1;                     /* fld m80  */
		case 7: a->stores = 2; return 1;                    /* fstp m80 */
		}
		return 0;
	case 0xdd:
		switch (reg) {
		case 4: a->extra_ins = 1; a->loads = 23; return 1;  /* frstor */
		case 6: a->stores = 23; return 1;                   /* fnsave */
		}
		return 0;
	case 0xdf:
		if (reg == 6) {                                     /* fbstp */
			a->stores = 2;
			return 1;
		}
		return 0;
	}
	return 0;
}
