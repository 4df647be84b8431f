/*
 * nb_pdrules.c - the Pentium D counting rules (nb_pdrules.h).
 *
 * Sources (docs/counting-rules.md "Pentium D counting rules" has the
 * table): V. Weaver, repository deater/deterministic at commit 6cb9ac2,
 * static/src/retired_instr.x86_64.s (per-instruction "PentiumD" and "p4"
 * annotations of the measured counts) and
 * papers/deterministic_counters/03_evaluation.tex (V. Weaver, D. Terpstra,
 * S. Moore, ISPASS 2013, section "Sources of Instruction Overcount",
 * "Retired Load Overcount", "Retired Store Overcount").  Measured with
 * INSTR_RETIRED:NBOGUSNTAG, front_end_event:NBOGUS with uop_type
 * TAGLOADS / TAGSTORES and branch_retired MMNP|MMNM|MMTP|MMTM on a
 * family 15 model 6 part (static/results/pentiumd/0/).
 */
#include "nb_pdrules.h"

static int is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
	case 0x2e: case 0x36: case 0x3e: case 0x26: case 0x64: case 0x65:
		return 1;
	}
	return 0;
}

int nb_pd_rules(const uint8_t *c, unsigned len, struct nb_pd_adj *a)
{
	unsigned i = 0;
	uint8_t pfx = 0, op, m, reg;
	int mem;

	a->extra_ins = 0;
	a->branch = 0;
	a->loads = NB_PD_KEEP;
	a->stores = NB_PD_KEEP;
	while (i < len && is_legacy_prefix(c[i])) {
		if (c[i] == 0xf2 || c[i] == 0xf3 || c[i] == 0x66)
			pfx = c[i];
		i++;
	}
	if (i < len && (c[i] & 0xf0) == 0x40)   /* REX */
		i++;
	if (i >= len)
		return 0;
	op = c[i];
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
