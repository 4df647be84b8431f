/*
 * nb_idecode.h - just enough x86-64 decoding to classify an instruction for
 * the branch and uop models.  Pure module (no libc, no valgrind).
 */
#ifndef NB_IDECODE_H
#define NB_IDECODE_H

#include <stdint.h>

enum nb_br_kind {
	NB_BR_NONE = 0,
	NB_BR_COND,      /* jcc rel8/rel32, loop/loope/loopne, jrcxz        */
	NB_BR_JMP,       /* jmp rel8/rel32                                  */
	NB_BR_CALL,      /* call rel32                                      */
	NB_BR_RET,       /* ret, ret imm16 (near)                           */
	NB_BR_IJMP,      /* jmp r/m (FF /4)                                 */
	NB_BR_ICALL,     /* call r/m (FF /2)                                */
	NB_BR_NKINDS
};

/* Instruction classes for the uop model (README, "uop model"). */
#define NB_IC_MOVE   0x01   /* data movement: no ALU uop of its own        */
#define NB_IC_REP    0x02   /* REP/REPE/REPNE string instruction          */
#define NB_IC_MCODE  0x04   /* microcoded (MS ROM) by opcode               */
/* Its uops come from the microcode ROM (uop_queue_writes FROM_ROM, one
 * tc_ms_xfer per retirement): NB_IC_MCODE and REP strings, which NetBurst
 * runs as MS ROM flows [Intel IA-32 Optimization Reference Manual (2004),
 * "Microcode sequencer": string instructions with a REP prefix and complex
 * instructions are sequenced from the MS ROM]. */
#define NB_IC_ROM    0x08
/* A non-temporal store: movntps/movntpd (0F 2B, 66 0F 2B), movnti (0F
 * C3), movntq/movntdq (0F E7, 66 0F E7) to memory, maskmovq/maskmovdqu
 * (0F F7, 66 0F F7) [SDM Vol. 2 instruction pages: the non-temporal hint
 * uses the write-combining protocol]; README "Write-combining buffers" */
#define NB_IC_NT     0x10
/* Evicts the write-combining buffers: sfence (0F AE F8-FF), mfence (0F AE
 * F0-F7), a LOCK prefix, xchg with memory (86/87, locked without the
 * prefix [SDM Vol. 2 XCHG]), cpuid (0F A2) and iret (CF), serializing
 * [SDM Vol. 3A 11.3 "Methods of Caching Available", WC: SFENCE, MFENCE,
 * CPUID, LOCK; 8.3 "Serializing Instructions"].  Not lfence. */
#define NB_IC_WCFLUSH 0x20

/*
 * FP/SIMD class of the instruction's computational uop (README "FP/SIMD
 * classes"), the execution-tagging upstream events x87_FP_uop,
 * scalar_SP_uop, ... 128bit_MMX_uop, and NB_FP_MOVE for x87/MMX/SSE data
 * movement (fld/fst, movaps, movq ...), x87_SIMD_moves_uop's: ALLP2 if the
 * instruction loads, ALLP0 otherwise (register copies and stores).
 */
enum nb_fp_class {
	NB_FP_NONE = 0,
	NB_FP_X87,       /* D8-DF except loads/stores/control               */
	NB_FP_SSP,       /* scalar single (F3 0F ..)                        */
	NB_FP_SDP,       /* scalar double (F2 0F ..)                        */
	NB_FP_PSP,       /* packed single (0F ..)                           */
	NB_FP_PDP,       /* packed double (66 0F ..)                        */
	NB_FP_MMX64,     /* SIMD integer on MMX registers (0F ..)           */
	NB_FP_MMX128,    /* SIMD integer on XMM registers (66 0F ..)        */
	NB_FP_MOVE,      /* x87/MMX/SSE load, store or register move        */
	NB_FP_NCLASSES
};

struct nb_insn {
	uint8_t br;             /* enum nb_br_kind                             */
	uint8_t cls;            /* NB_IC_*                                     */
	uint8_t len_prefix;     /* bytes of prefixes (incl. REX)               */
	uint8_t fp;             /* enum nb_fp_class                            */
};

/* A legacy prefix byte (operand/address size, LOCK, REP/REPNE, segment)
 * [SDM Vol. 2, 2.1.1] */
int nb_is_legacy_prefix(uint8_t b);

/* Classify the instruction at code[0..len). */
void nb_decode(const uint8_t *code, unsigned len, struct nb_insn *out);

#endif /* NB_IDECODE_H */
