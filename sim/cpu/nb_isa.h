/*
 * nb_isa.h - which x86-64 instructions a NetBurst model does not have.
 * Pure module (no libc, no valgrind).
 *
 * VEX decodes what the host has (AVX2, SSE4.2, POPCNT ...), and glibc
 * picks its code by the CPUID nbsim answers, so most programs never
 * run an instruction a Pentium 4 lacks.  A program built for a newer CPU
 * (-march=native, -mavx2) does, and the hardware raises #UD on it: the
 * tool ends the superblock before such an instruction with valgrind's
 * "no decode" exit, so the guest gets SIGILL at that instruction, as it
 * would on the hardware (sim/README "Instructions the model lacks").
 *
 * The model's capabilities come from its own CPUID (nb_cpu.c): SSE3,
 * CMPXCHG16B (leaf 1 ECX bits 0, 13), LAHF/SAHF in 64-bit mode (leaf
 * 0x80000001 ECX bit 0).  Everything later than SSE3 is absent from every
 * family-15 model [SDM Vol. 2A CPUID: none of SSSE3, SSE4.1/4.2, POPCNT,
 * AVX, XSAVE, RDRAND, RDTSCP (0x80000001 EDX bit 27) is set by nb_cpu.c
 * for any model; each instruction's page names the feature flag whose
 * absence makes it #UD].
 */
#ifndef NB_ISA_H
#define NB_ISA_H

#include <stdint.h>

enum nb_isa_ext {
	NB_ISA_OK = 0,          /* the model has it (or it is not ours to judge) */
	NB_ISA_SSE3,            /* haddpd ... fisttp, movddup: Prescott on        */
	NB_ISA_CX16,            /* cmpxchg16b: Prescott on                        */
	NB_ISA_LAHF64,          /* lahf/sahf in 64-bit mode: Cedar Mill (model 6) */
	NB_ISA_VEX,             /* VEX-encoded: AVX, AVX2, FMA, BMI1/2, F16C      */
	NB_ISA_EVEX,            /* EVEX-encoded: AVX-512                          */
	NB_ISA_XOP,             /* AMD XOP                                        */
	NB_ISA_0F38,            /* 0F 38 map: SSSE3, SSE4.1/4.2, MOVBE, CRC32, AES, SHA, ADX */
	NB_ISA_0F3A,            /* 0F 3A map: SSSE3 palignr, SSE4.1/4.2, PCLMULQDQ */
	NB_ISA_POPCNT,          /* F3 0F B8                                       */
	NB_ISA_SSE4A,           /* AMD extrq/insertq/movntsd/movntss              */
	NB_ISA_XSAVE,           /* xsave family, xgetbv/xsetbv                    */
	NB_ISA_RDRAND,          /* rdrand, rdseed, rdpid                          */
	NB_ISA_RDTSCP,
	NB_ISA_TSX,             /* xbegin, xend, xabort, xtest                    */
	NB_ISA_FSGSBASE,        /* rd/wr fs/gs base                               */
	NB_ISA_CLFLUSHOPT,      /* clflushopt, clwb                               */
	NB_ISA_NEXT
};

/* what the model has, from its CPUID */
struct nb_isa_caps {
	unsigned sse3, cx16, lahf64;
};

/* The extension instruction `code` (len bytes, at most 15) needs that the
 * model lacks, or NB_ISA_OK. */
enum nb_isa_ext nb_isa_missing(const uint8_t *code, unsigned len, const struct nb_isa_caps *caps);

/* the extension's name, for the message */
const char *nb_isa_name(enum nb_isa_ext e);

#endif
