/*
 * nb_decode.c - opcode classification (see nb_decode.h).
 * Opcode facts: Intel SDM Vol. 2, Appendix A (opcode map).
 */
#include "nb_decode.h"

static int is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
	case 0x2e: case 0x3e: case 0x26: case 0x36: case 0x64: case 0x65:
		return 1;
	}
	return 0;
}

void nb_decode(const uint8_t *c, unsigned len, struct nb_insn *o)
{
	unsigned i = 0;
	int rep = 0;
	uint8_t op, reg;

	o->br = NB_BR_NONE;
	o->cls = 0;
	while (i < len && is_legacy_prefix(c[i])) {
		if (c[i] == 0xf2 || c[i] == 0xf3)
			rep = 1;
		i++;
	}
	if (i < len && (c[i] & 0xf0) == 0x40)   /* REX */
		i++;
	o->len_prefix = (uint8_t)i;
	if (i >= len)
		return;
	op = c[i];
	reg = (i + 1 < len) ? (uint8_t)((c[i + 1] >> 3) & 7) : 0;

	if (op == 0x0f) {
		uint8_t op2;
		if (i + 1 >= len)
			return;
		op2 = c[i + 1];
		if (op2 >= 0x80 && op2 <= 0x8f) {
			o->br = NB_BR_COND;
			return;
		}
		switch (op2) {
		case 0xb6: case 0xb7: case 0xbe: case 0xbf:  /* movzx/movsx */
		case 0x10: case 0x11: case 0x12: case 0x13:  /* movups/ss/sd, movlps */
		case 0x16: case 0x17: case 0x28: case 0x29:  /* movhps, movaps/apd */
		case 0x2b: case 0xe7: case 0xc3:             /* movnt*             */
		case 0x6e: case 0x7e: case 0x6f: case 0x7f:  /* movd/q, movdq[au]  */
		case 0xd6: case 0x18: case 0x0d: case 0x1f:  /* movq, prefetch, nop */
		case 0xf0:                                   /* lddqu               */
			o->cls |= NB_IC_MOVE;
			break;
		case 0xa2: case 0x31: case 0x05: case 0x34:  /* cpuid rdtsc syscall sysenter */
			o->cls |= NB_IC_MCODE;
			break;
		case 0xa3: case 0xab: case 0xb3: case 0xbb:  /* bt* m,r: bit string */
			if (i + 2 < len && (c[i + 2] >> 6) != 3)
				o->cls |= NB_IC_MCODE;
			break;
		}
		return;
	}
	if (op >= 0x70 && op <= 0x7f) {
		o->br = NB_BR_COND;
		return;
	}
	switch (op) {
	case 0xe0: case 0xe1: case 0xe2: case 0xe3:          /* loop*, jrcxz */
		o->br = NB_BR_COND;
		return;
	case 0xe9: case 0xeb:
		o->br = NB_BR_JMP;
		return;
	case 0xe8:
		o->br = NB_BR_CALL;
		return;
	case 0xc2: case 0xc3:
		o->br = NB_BR_RET;
		return;
	case 0xff:
		if (reg == 2)
			o->br = NB_BR_ICALL;
		else if (reg == 4)
			o->br = NB_BR_IJMP;
		else if (reg == 6)
			o->cls |= NB_IC_MOVE;                /* push r/m */
		return;
	case 0x6c: case 0x6d: case 0x6e: case 0x6f:          /* ins/outs */
	case 0xa4: case 0xa5: case 0xa6: case 0xa7:          /* movs/cmps */
	case 0xaa: case 0xab: case 0xac: case 0xad:          /* stos/lods */
	case 0xae: case 0xaf:                                /* scas */
		if (rep)
			o->cls |= NB_IC_REP;
		return;
	case 0x88: case 0x89: case 0x8a: case 0x8b:          /* mov */
	case 0x8c: case 0x8e: case 0xa0: case 0xa1: case 0xa2: case 0xa3:
	case 0xc6: case 0xc7: case 0x63:                     /* mov imm, movsxd */
	case 0x8f: case 0x68: case 0x6a: case 0x90:          /* pop r/m, push imm, nop */
		o->cls |= NB_IC_MOVE;
		return;
	case 0xf6: case 0xf7:                                /* div, idiv */
		if (reg == 6 || reg == 7)
			o->cls |= NB_IC_MCODE;
		return;
	case 0xcc: case 0xcd: case 0xce: case 0xc8:          /* int3, int, into, enter */
		o->cls |= NB_IC_MCODE;
		return;
	}
	if (op >= 0x50 && op <= 0x5f)                        /* push/pop r */
		o->cls |= NB_IC_MOVE;
	else if (op >= 0xb0 && op <= 0xbf)                   /* mov r, imm */
		o->cls |= NB_IC_MOVE;
}
