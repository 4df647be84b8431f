/*
 * nb_timing.c - the NetBurst timing model: the latency/throughput table
 * per model (data), the classification of an instruction's computational
 * uop, and the schedule of a superblock's uops on a logical processor's
 * clock.  See nb_timing.h and README.md "Timing model".
 *
 * Sources (every figure below names one):
 *  [ORM-C]  IA-32 Intel Architecture Optimization Reference Manual
 *           (248966, 2004), Appendix C "IA-32 Instruction Latency and
 *           Throughput", columns CPUID 0F3n (Prescott) / 0F2n (Northwood);
 *           reproduced per instruction at c9x.me/x86 (e.g. SUBSD xmm,xmm:
 *           latency 5/4, throughput 2/2; SQRTSD 39/38, 39/38).
 *  [DLI]    Intel, "A Detailed Look Inside the Intel NetBurst
 *           Micro-Architecture of the Intel Pentium 4 Processor" (2000):
 *           p. 15 Table 1: L1D load latency 2 (integer) / 6 (FP) clocks,
 *           L2 7/7; ports 0/1 dispatch up to two uops per cycle each
 *           (double-speed ALUs), port 2 one load, port 3 one store
 *           address per cycle; p. 17: "up to four outstanding load misses
 *           that can be serviced either by on-chip caches or by memory".
 *  [HIN01]  Hinton et al., "The Microarchitecture of the Pentium 4
 *           Processor", Intel Technology Journal Q1 2001: 126 uops in
 *           flight, trace cache delivery and retirement of 3 uops per
 *           cycle, double-pumped ALUs (0.5-cycle add), 20-stage
 *           misprediction pipeline.
 *  [BOG04]  Boggs et al., "The Microarchitecture of the Intel Pentium 4
 *           Processor on 90nm Technology", Intel Technology Journal Q1
 *           2004: 31-stage pipeline, L1D load-to-use 4 cycles (integer),
 *           shifts and rotates on the fast ALU (1 cycle), integer
 *           multiply in 10 cycles, 8 outstanding L1D misses (was 4).
 *  [FOG]    Agner Fog, "Instruction tables", Pentium 4 (family 15 models
 *           0-2 and 3/4/6) sections: measured values where [ORM-C] gives
 *           ranges (IDIV r32) and the FP load latency of Prescott (12).
 *  [ORM-A]  IA-32 Intel Architecture Optimization Reference Manual
 *           (248966), "Aliasing Cases in the Pentium 4 and Intel Xeon
 *           Processors" (p. 2-45): the first-level cache holds one
 *           instance of data per data conflict condition; a reference
 *           matching a reference under way cannot begin until the first
 *           is kicked out of the cache; the condition is identical linear
 *           address bits 15:6 on CPUID family 15 models 0-2 ("64K
 *           aliasing"), bits 21:6 on model 3.  "Preventing Excessive
 *           Evictions in First-Level Data Cache" (p. 7-43): the L1D is
 *           indexed by linear address, so two instances of one program
 *           on the two logical processors, at the same linear addresses,
 *           evict each other's lines (nb_smt.c).
 *  [CPUID]  Intel SDM Vol. 2A, CPUID leaf 2 descriptors 0x66 (L1D 8 KB
 *           4-way, 64 B lines) and 0x60 (16 KB 8-way, 64 B lines).
 *  [F29]    InstLatX64's measurements of a Pentium 4 2.80 GHz, CPUID
 *           0F29 (Northwood), repository InstLatx64/InstLatx64, file
 *           GenuineIntel/GenuineIntel0000F29_P4_Northwood_InstLatX86.txt;
 *           a figure names the row's number (first column) and text, and
 *           is its latency column unless said.
 *  [F43]    The same of a Pentium 4 3.20 GHz, CPUID 0F43 (Prescott),
 *           GenuineIntel/GenuineIntel0000F43_P4_Prescott_InstLatX86.txt.
 *  [F13]    The same of a Pentium 4 1.7 GHz, CPUID 0F13 (Willamette),
 *           GenuineIntel/GenuineIntel0000F13_P4_Willamette_InstLatX86.txt.
 *  [F43X64] The same Prescott part measured in 64-bit mode,
 *           GenuineIntel/GenuineIntel0000F43_P4_Prescott_InstLatX64.txt
 *           (the r64 forms; its r32 rows repeat the X86 file's, within
 *           its run-to-run spread: SHL r32, imm8 1.0 here, 1.4 there).
 *  [F24], [F25], [F27], [F41], [F44], [F4A], [F62]  The repository's
 *           other family-15 files, GenuineIntel0000Fnn_*_InstLatX86.txt
 *           (Northwood, Gallatin, Prescott, Smithfield, Irwindale,
 *           Presler): cited for a row that every part measures alike.
 *  [F29M], [F43M]  The same parts' *_MemLatX86.txt (load-to-use by block
 *           size and stride; nb_tlb.c).
 *  Where a documented figure and a measured one disagree the table holds
 *  the measured one (sim/tests/guest/t_measured.c checks them).
 */
#include "nb_timing.h"
#include "cpu/nb_idecode.h"

#define T(c) ((uint16_t)(2 * (c)))      /* cycles -> ticks */

/* Northwood's PMI latency (cycles; see nb_tm_northwood) */
#define NB_PMI_LATENCY_NW 48

/* latency, interval (reciprocal throughput), unit */
static const struct nb_tm_params nb_tm_northwood = {
	"northwood (0F2n)",
	{
		/* ADD/SUB/AND/OR/XOR/CMP/MOV r,r: 0.5 / 0.5 [ORM-C], two
		 * double-speed ALUs [DLI], [HIN01] */
		[NB_TM_ALU]     = { 1, 1, NB_TMU_ALU },
		/* SHL/SHR/SAR/ROL r,imm: 4 / 1 [ORM-C] (0F2n) */
		[NB_TM_SHIFT]   = { T(4), T(1), NB_TMU_INT },
		/* IMUL r32: 14 / 3 [ORM-C] (0F2n); measured 15 [F29 328 "IMUL
		 * r32, r32"]; on the FP multiplier */
		[NB_TM_IMUL]    = { T(15), T(3), NB_TMU_FPMUL },
		/* IDIV r32: 56-70 [ORM-C]; measured 57 [F29 377 "IDIV r32
		 * 62/31b (full)"] (DIV r32 59 [F29 430]), not pipelined */
		[NB_TM_IDIV]    = { T(57), T(57), NB_TMU_FPDIV },
		/* FADD/FSUB: 5 / 1 [ORM-C] (0F2n); Sprunt 2002: "each FP add
		 * has a latency of five cycles", a new one every cycle */
		[NB_TM_FADD]    = { T(5), T(1), NB_TMU_FPADD },
		/* FMUL: 7 / 2 [ORM-C] (0F2n) */
		[NB_TM_FMUL]    = { T(7), T(2), NB_TMU_FPMUL },
		/* FDIV (extended precision, the x87 default): 43 / 43 [ORM-C] */
		[NB_TM_FDIV]    = { T(43), T(43), NB_TMU_FPDIV },
		/* ADDSD/SUBSD/ADDPD: 4 / 2 [ORM-C] (0F2n) */
		[NB_TM_SADD]    = { T(4), T(2), NB_TMU_FPADD },
		/* MULSD/MULPD: 6 / 2 [ORM-C] (0F2n) */
		[NB_TM_SMUL]    = { T(6), T(2), NB_TMU_FPMUL },
		/* DIVSD: 38 / 38 [ORM-C] (0F2n; SQRTSD 38 / 38 likewise) */
		[NB_TM_SDIV]    = { T(38), T(38), NB_TMU_FPDIV },
		/* MOVAPD/logic on XMM: 6 / 1 [ORM-C] (0F2n MOVAPD xmm,xmm) */
		[NB_TM_FPOTHER] = { T(6), T(1), NB_TMU_FPMOV },
		/* L1D hit: 2 (integer) / 6 (FP) [DLI Table 1]; one load per
		 * cycle (port 2) [DLI] */
		[NB_TM_LOAD]    = { T(2), T(1), NB_TMU_LOAD },
		[NB_TM_FLOAD]   = { T(6), T(1), NB_TMU_LOAD },
		/* one store address per cycle (port 3) [DLI]; the data on
		 * port 0 */
		[NB_TM_STA]     = { T(1), T(1), NB_TMU_STORE },
		[NB_TM_STD]     = { T(1), T(1), NB_TMU_FPMOV },
		/* ADC/SBB r32, r32: 7 [F29 118 "ADC r32, r32", 122 "SBB
		 * r32, r32"] (latency and throughput: the carry chains) */
		[NB_TM_ADC]     = { T(7), 1, NB_TMU_ALU },
		/* CMOVNZ r32, r32: 6.1 [F29 41] */
		[NB_TM_CMOV]    = { T(6), 1, NB_TMU_ALU },
		/* SETC r8: 1.0 [F29 200] (a byte write: it merges into the
		 * register, nb_tmbuild.c) */
		[NB_TM_SETCC]   = { T(1), 1, NB_TMU_ALU },
		/* MUL r32: 16 to eax [F29 350 "MUL r32 (eax)"], 18 to edx
		 * [F29 342]; the multiplier's interval as IMUL's */
		[NB_TM_MUL]     = { T(16), T(3), NB_TMU_FPMUL },
		/* XCHG r32, r32: 1.0 [F29 60 "XCHG r1_32, r2_32"] */
		[NB_TM_XCHG]    = { T(1), 1, NB_TMU_ALU },
		/* CMPXCHG r32, r32: 11 [F29 551] */
		[NB_TM_CMPXCHG] = { T(11), 1, NB_TMU_ALU },
		/* fences back to back (latency = throughput): LFENCE 40 [F29
		 * 770], SFENCE 39.1 [F29 769], MFENCE 100 [F29 771]; fences
		 * and locked operations complete in order (the ordering
		 * slot NB_TM_ORD); other loads and stores do not wait for
		 * them (not modelled) */
		[NB_TM_LFENCE]  = { T(40), T(1), NB_TMU_LOAD },
		[NB_TM_SFENCE]  = { T(39), T(1), NB_TMU_STORE },
		[NB_TM_MFENCE]  = { T(100), T(1), NB_TMU_LOAD },
		/* LOCK ADD [m32], r32: 124.1 [F29 86] (XCHG r32, [m32]: 125.0
		 * [F29 64]), latency = throughput (in order, as the fences) */
		[NB_TM_LOCK]    = { T(124), T(1), NB_TMU_LOAD },
		/* MOVD xmm, r32 and back: 18 [F29 981 "MOVD r32, xmm+MOVD
		 * xmm, r32"], the round trip only: 9 each way */
		[NB_TM_XFER]    = { T(9), T(1), NB_TMU_FPMOV },
		/* PADDD xmm: 2 [F29 1013] (mm: 2 [F29 643]; xmm's
		 * throughput is 2 [F29 1013 "T"], mm's 1) */
		[NB_TM_SIMD]    = { T(2), T(1), NB_TMU_FPADD },
		/* PMULLW xmm: 6 [F29 1062] (mm: 6 [F29 689]) */
		[NB_TM_SIMUL]   = { T(6), T(1), NB_TMU_FPMUL },
		/* PSHUFD: 4 [F29 1144] (PSLLDQ 4 [F29 1074]) */
		[NB_TM_SHUF]    = { T(4), T(1), NB_TMU_FPADD },
		/* 64-bit shifts: Northwood has no 64-bit mode; as its 32-bit
		 * shifts (the model runs x86-64 code on every part) */
		[NB_TM_SHIFT64] = { T(4), T(1), NB_TMU_INT },
		/* BSWAP r32: 4, throughput 1 [F29 319], as the shifts */
		[NB_TM_BSWAP]   = { T(4), T(1), NB_TMU_INT },
		/* RDTSC back to back: 80 [F29 555 "RDTSC" T] (no latency
		 * measured: "no true dep."); 80 on every model 1 and 2
		 * part measured [F24, F25, F27 555]; in order with the
		 * fences (NB_TM_ORD), so two reads are 80 cycles apart */
		[NB_TM_RDTSC]   = { T(80), T(1), NB_TMU_ALU },
		/* SHL/SHR/SAR/ROL/ROR r32, cl: 6, throughput 6 [F29 227,
		 * 239, 251, 275, 287] (by imm8: 4, NB_TM_SHIFT) */
		[NB_TM_SHIFTCL] = { T(6), T(6), NB_TMU_INT },
		/* LEA r32, [r+r+disp8]: 1, throughput 0.69 [F29 209] (two
		 * ALU steps; [r+r] 0.5 [F29 206] is NB_TM_ALU); [r+r*8]: 4,
		 * throughput 1 [F29 212]; [r+r*8+disp8]: 5, throughput 1 [F29
		 * 215] (the scaled forms as the shifts, on the integer unit) */
		[NB_TM_LEA3]    = { T(1), 1, NB_TMU_ALU },
		[NB_TM_LEASC]   = { T(4), T(1), NB_TMU_INT },
		[NB_TM_LEASCD]  = { T(5), T(1), NB_TMU_INT },
	},
	126, 3, 4,                      /* [HIN01], [HIN01], [DLI p. 17] */
	/* PMI latency: no published figure.  Calibrated on Sprunt 2002
	 * (seed 000, "Benchmark program"): IEBS on a load that misses the
	 * L1D between long blocks of L1D-hitting loads lands 65 or more
	 * instructions after it, 46.5% at +69.  With one load per cycle
	 * (port 2 [DLI]) the hitting loads retire one per cycle once the
	 * miss has retired, so the skid in instructions is about the
	 * latency in cycles plus the 17 loads that complete during the
	 * miss (its L2 hit, 18 cycles load to use [F29M]; 59 when the
	 * model's L2 latency was 7 and 6 completed).  The PMI then waits 0 to 13 cycles for the local APIC's
	 * bus-clock edge (nb_pmi.c, pmi_due); this value, the latency
	 * without that wait, gives Sprunt's floor, +65, on the model
	 * (sim/tests/guest/t_iebs.c). */
	NB_PMI_LATENCY_NW,
	16, 4,                          /* bits 15:6 [ORM-A]; 4 ways [CPUID] 0x66 */
	/* an L2 hit: 18 cycles load-to-use measured [F29M] (nb_tlb.c), the
	 * L2's access 7 [DLI Table 1]: a miss slot is held 7 cycles, free
	 * 11 before the data is used (Sprunt's l1_miss, 4 slots: 1.23 uops
	 * per cycle, t_timing) */
	11
};

/* Willamette (CPUID 0F1n): InstLatX64's Willamette [F13] measures
 * Northwood's figures row for row but bswap, lfence and mfence; each row
 * names the F13 row it was checked against (sim/tests/guest/t_measured.c). */
static const struct nb_tm_params nb_tm_willamette = {
	"willamette (0F1n)",
	{
		[NB_TM_ALU]     = { 1, 1, NB_TMU_ALU },             /* F13 72: 0.5 */
		[NB_TM_SHIFT]   = { T(4), T(1), NB_TMU_INT },       /* F13 223, 235, 271: 4 */
		[NB_TM_IMUL]    = { T(15), T(3), NB_TMU_FPMUL },    /* F13 328: 15 */
		[NB_TM_IDIV]    = { T(57), T(57), NB_TMU_FPDIV },   /* F13 430: 57 */
		[NB_TM_FADD]    = { T(5), T(1), NB_TMU_FPADD },     /* F13 577: 5 */
		[NB_TM_FMUL]    = { T(7), T(2), NB_TMU_FPMUL },     /* F13 580: 7 */
		[NB_TM_FDIV]    = { T(43), T(43), NB_TMU_FPDIV },   /* F13 586: 43 */
		[NB_TM_SADD]    = { T(4), T(2), NB_TMU_FPADD },     /* F13 912: 4 */
		[NB_TM_SMUL]    = { T(6), T(2), NB_TMU_FPMUL },     /* F13 914: 6 */
		[NB_TM_SDIV]    = { T(38), T(38), NB_TMU_FPDIV },   /* F13 932, 942: 38 */
		[NB_TM_FPOTHER] = { T(6), T(1), NB_TMU_FPMOV },     /* as Northwood's */
		[NB_TM_LOAD]    = { T(2), T(1), NB_TMU_LOAD },      /* F13 26: 2 */
		[NB_TM_FLOAD]   = { T(6), T(1), NB_TMU_LOAD },      /* [DLI Table 1] */
		[NB_TM_STA]     = { T(1), T(1), NB_TMU_STORE },
		[NB_TM_STD]     = { T(1), T(1), NB_TMU_FPMOV },
		[NB_TM_ADC]     = { T(7), 1, NB_TMU_ALU },          /* F13 118, 122: 7 */
		[NB_TM_CMOV]    = { T(6), 1, NB_TMU_ALU },          /* F13 41: 6.3 */
		[NB_TM_SETCC]   = { T(1), 1, NB_TMU_ALU },          /* F13 200: 1 */
		[NB_TM_MUL]     = { T(16), T(3), NB_TMU_FPMUL },    /* F13 350: 16 */
		[NB_TM_XCHG]    = { T(1), 1, NB_TMU_ALU },          /* F13 60: 1 */
		[NB_TM_CMPXCHG] = { T(11), 1, NB_TMU_ALU },         /* F13 551: 11 */
		[NB_TM_LFENCE]  = { T(36), T(1), NB_TMU_LOAD },     /* F13 770: 36 */
		[NB_TM_SFENCE]  = { T(39), T(1), NB_TMU_STORE },    /* F13 769: 39.1 */
		[NB_TM_MFENCE]  = { T(98), T(1), NB_TMU_LOAD },     /* F13 771: 98 */
		[NB_TM_LOCK]    = { T(124), T(1), NB_TMU_LOAD },    /* F13 86: 124.2, 64: 124.9 */
		[NB_TM_XFER]    = { T(9), T(1), NB_TMU_FPMOV },     /* F13 981: 18 round trip */
		[NB_TM_SIMD]    = { T(2), T(1), NB_TMU_FPADD },     /* F13 1013: 2 */
		[NB_TM_SIMUL]   = { T(6), T(1), NB_TMU_FPMUL },     /* F13 1062: 6 */
		[NB_TM_SHUF]    = { T(4), T(1), NB_TMU_FPADD },     /* F13 1144: 4 */
		[NB_TM_SHIFT64] = { T(4), T(1), NB_TMU_INT },       /* no 64-bit mode: as r32 */
		[NB_TM_BSWAP]   = { T(7), T(1), NB_TMU_INT },       /* F13 319: 7, throughput 0.76 */
		[NB_TM_RDTSC]   = { T(80), T(1), NB_TMU_ALU },      /* F13 555: T 80 */
		[NB_TM_SHIFTCL] = { T(6), T(6), NB_TMU_INT },       /* F13 227, 239, 251, 275, 287: 6 */
		[NB_TM_LEA3]    = { T(1), 1, NB_TMU_ALU },          /* F13 209: 1 */
		[NB_TM_LEASC]   = { T(4), T(1), NB_TMU_INT },       /* F13 212: 4 */
		[NB_TM_LEASCD]  = { T(5), T(1), NB_TMU_INT },       /* F13 215: 5 */
	},
	126, 3, 4,                      /* as Northwood's: [HIN01], [DLI p. 17] */
	NB_PMI_LATENCY_NW,              /* Northwood's (no measurement) */
	16, 4,                          /* bits 15:6 [ORM-A]; 4 ways [CPUID] 0x66 */
	11                              /* L2 18 measured [F13M], access 7 [DLI] */
};

static const struct nb_tm_params nb_tm_prescott = {
	"prescott (0F3n)",
	{
		/* ADD/SUB: 1 / 0.5 [ORM-C] (0F3n) */
		[NB_TM_ALU]     = { T(1), 1, NB_TMU_ALU },
		/* SHL/SHR/SAR: 1 / 0.5 [ORM-C] (0F3n), [BOG04]: one shift
		 * unit, a uop every half cycle */
		[NB_TM_SHIFT]   = { T(1), 1, NB_TMU_INT },
		/* IMUL r32: 10 / 1 [ORM-C] (0F3n), [BOG04] */
		[NB_TM_IMUL]    = { T(10), T(1), NB_TMU_FPMUL },
		/* IDIV r32: 66-80 [ORM-C]; DIV r32 measured 76 [F43 430 "DIV
		 * r32 64/32b (full)"] (IDIV r32 80 [F43 377]) */
		[NB_TM_IDIV]    = { T(76), T(76), NB_TMU_FPDIV },
		/* FADD: 6 / 1 [ORM-C] (0F3n) */
		[NB_TM_FADD]    = { T(6), T(1), NB_TMU_FPADD },
		/* FMUL: 8 / 2 [ORM-C] (0F3n) */
		[NB_TM_FMUL]    = { T(8), T(2), NB_TMU_FPMUL },
		/* FDIV: 45 / 45 [FOG] (0F3n) */
		[NB_TM_FDIV]    = { T(45), T(45), NB_TMU_FPDIV },
		/* ADDSD/SUBSD: 5 / 2 [ORM-C] (0F3n) */
		[NB_TM_SADD]    = { T(5), T(2), NB_TMU_FPADD },
		/* MULSD: 7 / 2 [ORM-C] (0F3n) */
		[NB_TM_SMUL]    = { T(7), T(2), NB_TMU_FPMUL },
		/* DIVSD: 40 / 40 [ORM-C] (0F3n) */
		[NB_TM_SDIV]    = { T(40), T(40), NB_TMU_FPDIV },
		/* MOVAPD xmm,xmm: 7 / 1 [ORM-C] (0F3n) */
		[NB_TM_FPOTHER] = { T(7), T(1), NB_TMU_FPMOV },
		/* L1D hit: 4 (integer) [BOG04] / 12 (FP) [FOG] */
		[NB_TM_LOAD]    = { T(4), T(1), NB_TMU_LOAD },
		[NB_TM_FLOAD]   = { T(12), T(1), NB_TMU_LOAD },
		[NB_TM_STA]     = { T(1), T(1), NB_TMU_STORE },
		[NB_TM_STD]     = { T(1), T(1), NB_TMU_FPMOV },
		/* ADC/SBB r32, r32: 10 [F43 118, 122] */
		[NB_TM_ADC]     = { T(10), 1, NB_TMU_ALU },
		/* CMOVNZ r32, r32: 9.5 [F43 41] */
		[NB_TM_CMOV]    = { 19, 1, NB_TMU_ALU },
		/* SETC r8: 1.3 [F43 200]: 1.5 in half cycles */
		[NB_TM_SETCC]   = { 3, 1, NB_TMU_ALU },
		/* MUL r32: 12 to eax [F43 350], 11 to edx [F43 342] */
		[NB_TM_MUL]     = { T(12), T(1), NB_TMU_FPMUL },
		/* XCHG r32, r32: 1.5 [F43 60 "XCHG r1_32, r2_32"] */
		[NB_TM_XCHG]    = { 3, 1, NB_TMU_ALU },
		/* CMPXCHG r32, r32: 19 [F43 551] */
		[NB_TM_CMPXCHG] = { T(19), 1, NB_TMU_ALU },
		/* LFENCE 52 [F43 772], SFENCE 54.3 [F43 771], MFENCE 124
		 * [F43 773], back to back (as Northwood's) */
		[NB_TM_LFENCE]  = { T(52), T(1), NB_TMU_LOAD },
		[NB_TM_SFENCE]  = { 109, T(1), NB_TMU_STORE },
		[NB_TM_MFENCE]  = { T(124), T(1), NB_TMU_LOAD },
		/* LOCK ADD [m32], r32: 88.6 [F43 86] (XCHG r32, [m32]: 81.5
		 * [F43 64]) */
		[NB_TM_LOCK]    = { 177, T(1), NB_TMU_LOAD },
		/* MOVD round trip: 13 [F43 1171]: 6.5 each way */
		[NB_TM_XFER]    = { 13, T(1), NB_TMU_FPMOV },
		/* PADDD xmm: 2 [F43 1234] */
		[NB_TM_SIMD]    = { T(2), T(1), NB_TMU_FPADD },
		/* PMULLW xmm: 7 [F43 1332] */
		[NB_TM_SIMUL]   = { T(7), T(1), NB_TMU_FPMUL },
		/* PSHUFD: 4 [F43 1482] */
		[NB_TM_SHUF]    = { T(4), T(1), NB_TMU_FPADD },
		/* SHR/SAR/ROL r64, imm8: 7, throughput 1 [F43X64 236 "SHR r64,
		 * imm8", 248 "SAR r64, imm8"; ROL 272 7, throughput 7]; SHL
		 * r64 stays 1 [F43X64 224] (NB_TM_SHIFT); BSWAP r64 8 [F43X64
		 * 320] */
		[NB_TM_SHIFT64] = { T(7), T(1), NB_TMU_INT },
		/* BSWAP r32: 1, throughput 0.5 [F43 319] */
		[NB_TM_BSWAP]   = { T(1), 1, NB_TMU_INT },
		/* RDTSC back to back: 100 [F43X64 555 "RDTSC" T; the X86
		 * file 102.2], as every model 4 and 6 part measured [F41,
		 * F44, F4A, F62 555: 100] (as Northwood's, in order) */
		[NB_TM_RDTSC]   = { T(100), T(1), NB_TMU_ALU },
		/* SHL/SHR/SAR/ROL/ROR r32, cl and SHL r64, cl: 2, throughput
		 * 2 [F43 227, 239, 251, 275, 287; F43X64 228]; Presler the
		 * same [F62 227-287] (by imm8: 1, NB_TM_SHIFT) */
		[NB_TM_SHIFTCL] = { T(2), T(2), NB_TMU_INT },
		/* LEA r32, [r+r+disp8]: 2, [r+r*8]: 2, [r+r*8+disp8]: 3
		 * (throughputs 0.8, 0.81, 1.25) [F43 209, 212, 215; F43X64
		 * 210, 213, 216 for r64; F62 the same]: one ALU step per
		 * component beyond the first ([r+r]: 1, NB_TM_ALU) */
		[NB_TM_LEA3]    = { T(2), 1, NB_TMU_ALU },
		[NB_TM_LEASC]   = { T(2), 1, NB_TMU_ALU },
		[NB_TM_LEASCD]  = { T(3), T(1), NB_TMU_ALU },
	},
	126, 3, 8,                      /* [HIN01], [HIN01], [BOG04] */
	/* PMI latency: not measured on Prescott.  Northwood's figure
	 * (without the bus-clock wait, which is the part's own: nb_pmi.c)
	 * scaled by the pipeline depth, 31 stages against 20 (the
	 * misprediction pipelines [BOG04], [HIN01]): the overflow travels
	 * from retirement to the local APIC and back to the front end
	 * through the deeper pipeline.  An assumption, untested. */
	(NB_PMI_LATENCY_NW * 31 + 10) / 20,
	22, 8,                          /* bits 21:6 [ORM-A]; 8 ways [CPUID] 0x60 */
	/* an L2 hit: 28 measured [F43M] (nb_tlb.c), the L2's access 18
	 * [ORM Table 1-1, nb_tlb.c OPT04]: 10 after the slot frees */
	10
};

const struct nb_tm_params *nb_tm_params_for(unsigned cpuid_model)
{
	return cpuid_model >= 3 ? &nb_tm_prescott : cpuid_model == 2 ? &nb_tm_northwood
		: &nb_tm_willamette;
}

void nb_tm_init(struct nb_tm *t, const struct nb_tm_params *p, unsigned penalty)
{
	uint8_t *b = (uint8_t *)t;

	for (unsigned long i = 0; i < sizeof *t; i++)
		b[i] = 0;
	t->p = p;
	t->penalty = penalty;
}

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* ---- the units' reservations: a bitmap per unit instance over the
 * ticks [t->lo, t->lo + NB_TM_URING) (nb_timing.h) ---- */

#define URW (NB_TM_URING / 64u)

static inline uint64_t ones(uint64_t n)          /* n < 64 or 64 */
{
	return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

/* Nothing dispatches before tick `tick` any more: forget the words of
 * ticks below it (t->lo stays a multiple of 64): each starts again as the
 * other LP's pattern.  Only words of ticks below uhi hold reservations, so
 * while every other word holds the pattern already (odirty clear: the
 * pattern has not changed since every word was last reset) only those are
 * written: a long miss moves the horizon far, and rewriting the whole
 * ring cost 10% of bench chase. */
static void units_forget_words(struct nb_tm *t, uint64_t lo)
{
	uint64_t *bm = &t->busy[0][0][0];
	const uint64_t *oth = &t->smt.oth[0][0];    /* 0 unless HT (nb_smt.c) */
	const unsigned nw = NB_TMU_N * 2 * URW;
	uint64_t n = (lo - t->lo) / 64;

	if (!t->odirty) {
		uint64_t hi = (t->uhi + 63) & ~UINT64_C(63);
		n = hi <= t->lo ? 0 : ((hi < lo ? hi : lo) - t->lo) / 64;
		if (n > URW)
			n = URW;
	} else if (n >= URW) {
		for (unsigned w = 0; w < nw; w++)
			bm[w] = oth[w / URW];
		t->odirty = 0;
		n = 0;
	}
	for (uint64_t k = t->lo / 64; n--; k++)
		for (unsigned w = (unsigned)(k % URW); w < nw; w += URW)
			bm[w] = oth[w / URW];
	t->lo = lo;
}

static inline void units_forget(struct nb_tm *t, uint64_t tick)
{
	if ((tick & ~UINT64_C(63)) > t->lo)
		units_forget_words(t, tick & ~UINT64_C(63));
}

void nb_tm_units_forget(struct nb_tm *t, uint64_t tick)
{
	units_forget(t, tick);
}

/* The first tick in [k, e) whose bit in bm is `busy` (1) or clear (0),
 * or e. */
static uint64_t next_bit(const uint64_t *bm, uint64_t k, uint64_t e, int busy)
{
	while (k < e) {
		unsigned p = (unsigned)(k % NB_TM_URING), off = p % 64;
		uint64_t word = (busy ? bm[p / 64] : ~bm[p / 64]) >> off;
		if (word) {
			uint64_t b = k + (uint64_t)__builtin_ctzll(word);
			return b < e ? b : e;
		}
		k += 64 - off;
	}
	return e;
}

/* the starts of the runs of intv (<= 4) free ticks of word w from bit
 * off that end inside it: bit j set for a run from off + j */
static inline uint64_t runs_in(uint64_t w, unsigned off, unsigned intv)
{
	uint64_t f = ~w >> off, g = f;

	for (unsigned j = 1; j < intv; j++)
		g &= f >> j;
	return g;
}

/* the bits of bm at the 64 ticks from k (the ring wraps) */
static inline uint64_t bits64(const uint64_t *bm, uint64_t k)
{
	unsigned p = (unsigned)(k % NB_TM_URING), i = p / 64, off = p % 64;
	uint64_t w = bm[i] >> off;

	if (off)
		w |= bm[(i + 1) % URW] << (64 - off);
	return w;
}

/* The first tick from k at which bm is free for intv ticks (the ticks past
 * the horizon lo + NB_TM_URING count as free).  Intervals up to 4 ticks
 * (all but the divider's and the slow multiplies'): 64 ticks at a time,
 * the runs that end inside them; the next look starts where a run could
 * still begin (intv - 1 ticks before the end).  A queue of uops waiting
 * for one port (12 loads at once) is crossed 61 ticks a step. */
static uint64_t first_run(const uint64_t *bm, uint64_t lo, uint64_t k, unsigned intv)
{
	const uint64_t end = lo + NB_TM_URING;

	if (intv <= 4) {
		/* (the usual case first: a run ending in k's word) */
		if (k < end) {
			uint64_t g = runs_in(bm[(k % NB_TM_URING) / 64], (unsigned)(k % 64), intv);
			if (g)
				return k + (uint64_t)__builtin_ctzll(g);
		}
		for (;;) {
			uint64_t busy, g;
			if (k >= end)
				return k;
			busy = bits64(bm, k);
			if (end - k < 64)
				busy &= ones(end - k);
			g = runs_in(busy, 0, intv);
			if (g)
				return k + (uint64_t)__builtin_ctzll(g);
			k += 64 - intv + 1;
		}
	}
	if (k < end && k % 64 + intv <= 64 && k + intv <= end &&
	    !(bm[(k % NB_TM_URING) / 64] >> (k % 64) & ones(intv)))
		return k;       /* free at once */
	for (;;) {
		uint64_t e, b;
		if (k >= end)
			return k;
		e = k + intv < end ? k + intv : end;
		b = next_bit(bm, k, e, 1);
		if (b == e)
			return k;
		k = next_bit(bm, b + 1, end, 0);
	}
}

uint64_t nb_tm_first_free(const uint64_t *bm, uint64_t lo, uint64_t k, unsigned intv)
{
	return first_run(bm, lo, k, intv);
}

/* The first tick from `from` (>= t->lo) at which an instance of unit u (n
 * instances, the first preferred) is free for intv ticks; taken. */
/* the bits of bm at ticks [k, k + len) (len <= 64) */
static uint64_t bits_at(const uint64_t *bm, uint64_t k, unsigned len)
{
	unsigned p = (unsigned)(k % NB_TM_URING), i = p / 64, off = p % 64;
	uint64_t w = bm[i] >> off;

	if (off)
		w |= bm[(i + 1) % URW] << (64 - off);
	return w & ones(len);
}

/* log a reservation that looked from `from` (k0, k1: the first free runs
 * of the two instances) for the replay (nb_tmmemo.c) */
static void rlog(struct nb_tm *t, unsigned u, unsigned n, uint64_t from, unsigned intv,
		 uint64_t k0, uint64_t k1, unsigned best)
{
	struct nb_tm_rl *e = &t->log.rl[t->log.nrl++];
	uint64_t l0 = k0 + intv - from, l1 = k1 + intv - from;

	e->x0 = (uint8_t)(2 * u);
	e->n = (uint8_t)n;
	e->best = (uint8_t)best;
	e->intv = (uint8_t)intv;
	e->from = from;
	e->k = best ? k1 : k0;
	e->len0 = l0 > 64 ? 0xff : (uint8_t)l0;
	e->len1 = n < 2 ? 0 : l1 > 64 ? 0xff : (uint8_t)l1;
	e->bits0 = l0 > 64 ? 0 : bits_at(t->busy[u][0], from, (unsigned)l0);
	e->bits1 = n < 2 || l1 > 64 ? 0 : bits_at(t->busy[u][1], from, (unsigned)l1);
}

static uint64_t reserve(struct nb_tm *t, unsigned u, unsigned n, uint64_t from, unsigned intv)
{
	unsigned best = 0;
	uint64_t k = first_run(t->busy[u][0], t->lo, from, intv), end = t->lo + NB_TM_URING;
	uint64_t k0 = k, k1 = from - intv;

	/* (instance 0 free at once: instance 1 cannot start earlier, and is
	 * not looked at; the log says so with len1 0) */
	if (n > 1 && k != from) {
		k1 = first_run(t->busy[u][1], t->lo, from, intv);
		if (k1 < k) {
			k = k1;
			best = 1;
		}
	}
	if (t->log.rlog && t->log.nrl < NB_TM_MAXRL)
		rlog(t, u, n, from, intv, k0, k1, best);
	uint64_t e = k + intv < end ? k + intv : end;
	if (e > k && e > t->uhi)
		t->uhi = e;     /* (the replay's bound, nb_tmmemo.c) */
	for (uint64_t j = k; j < e;) {
		unsigned off = (unsigned)(j % 64);
		uint64_t n = 64 - off < e - j ? 64 - off : e - j;
		t->busy[u][best][(j % NB_TM_URING) / 64] |= ones(n) << off;
		j += n;
	}
	return k;
}

/* A uop of row r whose sources are ready at `start`: reserve's choice
 * made here without a call when it lies in start's bitmap word (the
 * usual case): the first run of free ticks of the first instance, or of
 * the second (the double-speed ALU) when it starts strictly earlier.  A
 * run that ends inside the word starts before any that crosses its end,
 * so the first such run of an instance is its first run when there is
 * one; the second instance is looked at only when the first is not free
 * at once, as reserve does.  Else (runs across words, intervals over 4
 * ticks, the replay's log) reserve. */
static inline uint64_t take(struct nb_tm *t, const struct nb_tm_row *r, uint64_t start)
{
	const unsigned off = (unsigned)(start % 64), intv = r->intv, u = r->unit;
	const unsigned i = (unsigned)((start % NB_TM_URING) / 64);

	if (!t->log.rlog && intv <= 4 && start < t->lo + NB_TM_URING) {
		uint64_t g = runs_in(t->busy[u][0][i], off, intv), g1;
		unsigned k, best = 0;
		if (g & 1)
			k = 0;
		else if (u != NB_TMU_ALU) {
			if (!g)
				goto slow;
			k = (unsigned)__builtin_ctzll(g);
		} else {
			g1 = runs_in(t->busy[u][1][i], off, intv);
			if (!g)
				goto slow;
			k = (unsigned)__builtin_ctzll(g);
			if (g1 && (unsigned)__builtin_ctzll(g1) < k) {
				k = (unsigned)__builtin_ctzll(g1);
				best = 1;
			}
		}
		t->busy[u][best][i] |= ones(intv) << (off + k);
		if (start + k + intv > t->uhi)
			t->uhi = start + k + intv;
		return start + k;
	}
slow:
	return reserve(t, u, u == NB_TMU_ALU ? 2 : 1, start, intv);
}

/* HT (nb_smt.c): a missing load whose alias class matches a miss of the
 * other LP under way cannot begin until that line is kicked out of the
 * L1D [ORM-A]: it goes round the replay loop, taking its port at each
 * pass, until the other LP's miss is done (half of one under way on
 * average: it meets it at a point spread evenly over it) and its line has
 * been evicted (conf_res of its set).  Loads meet a class under way at the
 * rate the other LP had it under way in its last segment: conf_hold[c]
 * ticks of conf_span, summed in conf_acc, one conflict each time the sum
 * passes conf_span. */
static uint64_t alias_wait(struct nb_tm *t, const struct nb_tm_row *r, unsigned ix, uint64_t start)
{
	unsigned c = t->smt.ld_alias[ix];
	uint64_t until;

	if (!t->smt.conf_hold[c])
		return start;
	t->smt.conf_acc += t->smt.conf_hold[c];
	if (t->smt.conf_acc < t->smt.conf_span)
		return start;
	t->smt.conf_acc -= t->smt.conf_span;    /* (conf_hold[c] <= conf_span) */
	t->smt.conflicts++;
	until = start + t->smt.conf_way / 2 + t->smt.conf_res[c % NB_TM_L1SETS];
	do {
		start = reserve(t, r->unit, 1, start + t->smt.replay, r->intv);
		t->smt.unit_ticks[r->unit] += r->intv;
		t->smt.replays++;
	} while (start < until);
	return start;
}

/* HT (nb_smt.c): this LP allocates and retires only in the cycles the
 * other LP does not take (Marr et al. 2002: the allocator and retirement
 * alternate between the logical processors that have uops) */
static inline uint64_t own_cycle(const struct nb_tm *t, uint64_t c)
{
	while (t->smt.alt >> (c & 63) & 1)
		c++;
	return c;
}

void nb_tm_walk(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to)
{
	const struct nb_tm_params *p = t->p;
	const unsigned w = p->width, win = t->smt.win ? t->smt.win : p->window;
	const unsigned nmiss = t->smt.miss_n ? t->smt.miss_n : p->miss_slots;
	uint64_t fe = t->fe, ret = t->ret, seq = t->seq, done = t->last_done;
	unsigned fe_n = t->fe_n, ret_n = t->ret_n;

	t->log.mut++;
	t->step.nrec = 0;
	t->log.nmlog = 0;
	t->log.nrl = 0;
	for (unsigned i = from; i < to; i++) {
		const struct nb_tm_uop *u = &b->u[i];
		const uint16_t *s = &b->slots[u->slot];
		const struct nb_tm_row *r;
		uint64_t start, lat, rc;
		unsigned k;

		if (u->cls == NB_TM_COPY) {
			uint64_t m = 0;
			for (k = 0; k < u->nsrc; k++)
				m = max64(m, t->ready[s[k]]);
			for (; k < (unsigned)u->nsrc + u->ndst; k++)
				t->ready[s[k]] = m;
			continue;
		}
		if (u->cls == NB_TM_LAT) {
			uint64_t m = 2 * fe;
			for (k = 0; k < u->nsrc; k++)
				m = max64(m, t->ready[s[k]]);
			m += p->row[u->ld].lat;
			for (; k < (unsigned)u->nsrc + u->ndst; k++)
				t->ready[s[k]] = m;
			continue;
		}
		/* allocation: in order, w per cycle, a window of p->window */
		if (fe_n == w) {
			fe = own_cycle(t, fe + 1);
			fe_n = 0;
		}
		if (seq >= win) {
			uint64_t free_at = t->rob[(seq - win) % NB_TM_ROB];
			if (fe < free_at) {
				fe = own_cycle(t, free_at);
				fe_n = 0;
			}
		}
		fe_n++;
		/* dispatch: when the sources are ready and the unit is free */
		start = 2 * fe;
		units_forget(t, start);
		for (k = 0; k < u->nsrc; k++)
			start = max64(start, t->ready[s[k]]);
		r = &p->row[u->cls];
		if (r->unit == NB_TMU_FPDIV) {
			start = max64(start, t->div_free);
			t->div_free = start + r->intv;
		} else
			start = take(t, r, start);
		t->smt.unit_ticks[r->unit] += r->intv;
		lat = r->lat;
		if (u->ld && (t->ld_mask & (UINT64_C(1) << (u->ld - 1)))) {
			/* an L1D miss: wait for a miss slot, hold it */
			unsigned ix = u->ld - 1, m = 0;
			t->ld_mask &= ~(UINT64_C(1) << ix);
			if (t->smt.conf_span)       /* HT: the L1D's conflicts */
				start = alias_wait(t, r, ix, start);
			for (unsigned j = 1; j < nmiss; j++)
				if (t->miss[j] < t->miss[m])
					m = j;
			if (t->smt.replay)          /* HT: round the replay loop */
				while (start < t->miss[m]) {
					start = reserve(t, r->unit, 1, start + t->smt.replay, r->intv);
					t->smt.unit_ticks[r->unit] += r->intv;
					t->smt.replays++;
				}
			start = max64(start, t->miss[m]);
			lat = 2 * (uint64_t)t->ld_lat[ix];
			if (t->smt.replay) {        /* HT: the pass that finds the data */
				lat = reserve(t, r->unit, 1, start + lat, r->intv) - start;
				t->smt.unit_ticks[r->unit] += r->intv;
				t->smt.alias_n[t->smt.ld_alias[ix]]++;
			}
			{       /* the slot frees p->miss_free cycles early */
				uint64_t f = 2 * (uint64_t)p->miss_free;
				uint64_t hold = lat > f ? lat - f : lat;
				t->miss[m] = start + hold;
				t->smt.miss_ticks += hold;
				if (t->log.nmlog < NB_TM_MAXMISS)
					t->log.mlog[t->log.nmlog++] = start + hold;
			}
		}
		done = start + lat;
		for (; k < (unsigned)u->nsrc + u->ndst; k++)
			t->ready[s[k]] = done;
		/* retirement: in order, w per cycle, after the result */
		rc = (done + 1) / 2;
		if (rc < ret)
			rc = ret;
		rc = own_cycle(t, rc);
		if (rc == ret) {
			if (ret_n == w) {
				rc = own_cycle(t, rc + 1);
				ret_n = 0;
			}
		} else
			ret_n = 0;
		ret = rc;
		ret_n++;
		t->rob[seq % NB_TM_ROB] = rc;
		seq++;
		if (t->step.record && t->step.nrec < NB_TM_STEPREC)
			t->step.rec[t->step.nrec++] = rc;
	}
	t->uops += seq - t->seq;
	t->ld_mask = 0;         /* (misses of loads not run: none left) */
	t->fe = fe;
	t->fe_n = fe_n;
	t->ret = ret;
	t->ret_n = ret_n;
	t->seq = seq;
	t->last_done = done;
}

void nb_tm_misp(struct nb_tm *t, uint64_t misp, int fast)
{
	uint64_t k = misp - t->misp_seen;

	if (misp == t->misp_seen)
		return;
	t->misp_seen = misp;
	if (fast) {
		/* the cheap clock: the penalty is a stall of retirement */
		t->ret += k * t->penalty;
		t->ret_n = 0;
		t->fe = t->ret;
		t->fe_n = 0;
	} else {
		/* a mispredicted branch (the last uop run): the front end
		 * restarts `penalty` cycles after it resolves [HIN01], [BOG04] */
		uint64_t at = (t->last_done + 1) / 2 + k * t->penalty;
		if (t->fe < at) {
			t->fe = at;
			t->fe_n = 0;
		}
	}
}

void nb_tm_run_fast(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
		    uint64_t misp)
{
	const unsigned w = t->p->width;
	uint64_t n = 0, stall = 0;

	t->log.mut++;
	t->step.nrec = 0;
	if (b->real && !t->step.record)
		n = (uint64_t)b->real[to] - b->real[from];
	else for (unsigned i = from; i < to; i++) {
		uint8_t c = b->u[i].cls;
		if (c == NB_TM_COPY || c == NB_TM_LAT)
			continue;
		n++;
		if (t->step.record) {
			/* step mode: each uop's retirement cycle (the clock
			 * advances past the NB_TM_STEPREC recorded too) */
			if (t->ret_n == w) {
				t->ret++;
				t->ret_n = 0;
			}
			t->ret_n++;
			if (t->step.nrec < NB_TM_STEPREC)
				t->step.rec[t->step.nrec++] = t->ret;
		}
	}
	if (!t->step.record && n) {
		/* (every model retires 3 a cycle: a division by the constant,
		 * a multiply; a 64-bit divide was half of this function) */
		uint64_t k = t->ret_n + n - 1, q = w == 3 ? k / 3 : k / w;
		t->ret += q;
		t->ret_n = (unsigned)(k - q * w) + 1;
	}
	for (uint64_t m = t->ld_mask; m; m &= m - 1)
		stall += t->ld_lat[__builtin_ctzll(m)];
	t->ld_mask = 0;
	if (stall) {
		t->ret += stall;
		t->ret_n = 0;
	}
	t->fe = t->ret;
	t->fe_n = 0;
	t->seq += n;
	t->uops += n;
	nb_tm_misp(t, misp, 1);
}

uint64_t nb_tm_serialize(struct nb_tm *t)
{
	uint64_t c = t->ret + (t->ret_n ? 1 : 0);

	/* a front end restarting after a misprediction: the serializing
	 * instruction is fetched no earlier */
	if (t->fe > c)
		c = t->fe;
	t->ret = c;
	t->ret_n = 0;
	if (t->fe < c) {
		t->fe = c;
		t->fe_n = 0;
	}
	return c;
}

/* ---- classification ---- */

/* ModRM reg field of the byte at code[i], or 8 when past the end */
static unsigned modrm_reg(const uint8_t *code, unsigned len, unsigned i)
{
	return i < len ? (code[i] >> 3) & 7u : 8u;
}

/* a prefix byte among the instruction's prefixes code[0..npfx) (REX is
 * never 0x66 or 0xf0) */
static int has_prefix(const uint8_t *code, unsigned npfx, uint8_t b)
{
	for (unsigned i = 0; i < npfx; i++)
		if (code[i] == b)
			return 1;
	return 0;
}

/* MMX/SSE2 integer operations (0F map, NB_FP_MMX64/128) [SDM Vol. 2
 * Appendix A, table A-3]: multiplies pmullw D5, pmulhuw E4, pmulhw E5,
 * pmuludq F4, pmaddwd F5; pshufd 66 0F 70; pslldq/psrldq 66 0F 73 /7, /3 */
static unsigned simd_class(const uint8_t *code, unsigned len, unsigned i, unsigned npfx)
{
	unsigned op2 = i + 1 < len ? code[i + 1] : 0, reg;

	switch (op2) {
	case 0xd5: case 0xe4: case 0xe5: case 0xf4: case 0xf5:
		return NB_TM_SIMUL;
	case 0x70:
		return has_prefix(code, npfx, 0x66) ? NB_TM_SHUF : NB_TM_SIMD;
	case 0x73:
		reg = modrm_reg(code, len, i + 2);
		return has_prefix(code, npfx, 0x66) && (reg == 3 || reg == 7) ? NB_TM_SHUF
			: NB_TM_SIMD;
	default:
		return NB_TM_SIMD;
	}
}

/* LEA (8D) by its address [SDM Vol. 2, 2.1.5 tables 2-2, 2-3; 2.2.1 REX.X]:
 * base + index + displacement, a scaled index with or without a
 * displacement; base + index, base + displacement, RIP + displacement
 * stay one ALU step.  m: the ModRM byte's index in code. */
static unsigned lea_class(const uint8_t *code, unsigned len, unsigned m, unsigned npfx)
{
	unsigned mod, rm, sib, base, index, disp, rex;

	if (m >= len)
		return NB_TM_ALU;
	mod = code[m] >> 6;
	rm = code[m] & 7;
	if (mod == 3 || rm != 4 || m + 1 >= len)
		return NB_TM_ALU;       /* no SIB: one register at most */
	rex = npfx && (code[npfx - 1] & 0xf0) == 0x40 ? code[npfx - 1] : 0;
	sib = code[m + 1];
	base = sib & 7;
	index = (sib >> 3) & 7;
	disp = mod != 0 || base == 5;
	if (index == 4 && !(rex & 2))
		return NB_TM_ALU;       /* no index */
	if (sib >> 6)
		return disp ? NB_TM_LEASCD : NB_TM_LEASC;
	return disp && !(mod == 0 && base == 5) ? NB_TM_LEA3 : NB_TM_ALU;
}

unsigned nb_tm_classify(const uint8_t *code, unsigned len, unsigned npfx, unsigned fp)
{
	unsigned i = npfx, op, op2, reg;

	if (i >= len)
		return NB_TM_ALU;
	op = code[i];
	/* locked read-modify-writes: the lock prefix, xchg with memory
	 * (locked without it [SDM Vol. 2 XCHG]) */
	if (has_prefix(code, npfx, 0xf0) ||
	    ((op == 0x86 || op == 0x87) && i + 1 < len && (code[i + 1] >> 6) != 3))
		return NB_TM_LOCK;
	/* pause (F3 90) back to back measures lfence's throughput, 36 /
	 * 40 / 54.25 cycles [F13, F29, F43 row 15 "PAUSE"; lfence: 36, 40,
	 * 52]: it waits as lfence does */
	if (op == 0x90 && has_prefix(code, npfx, 0xf3))
		return NB_TM_LFENCE;
	/* movd/movq between the general and MMX/XMM registers: 0F 6E, 0F
	 * 7E (none or 66; F3 0F 7E is movq xmm, xmm), register forms */
	if (op == 0x0f && i + 2 < len && (code[i + 1] == 0x6e || code[i + 1] == 0x7e) &&
	    !has_prefix(code, npfx, 0xf3) && (code[i + 2] >> 6) == 3)
		return NB_TM_XFER;
	switch (fp) {
	case NB_FP_X87:
		reg = modrm_reg(code, len, i + 1);
		if (op == 0xd9 && i + 1 < len && code[i + 1] == 0xfa)
			return NB_TM_FDIV;              /* fsqrt */
		if (op != 0xd8 && op != 0xda && op != 0xdc && op != 0xde)
			return NB_TM_FPOTHER;
		if (reg == 1)
			return NB_TM_FMUL;
		if (reg == 6 || reg == 7)
			return NB_TM_FDIV;
		return reg < 8 ? NB_TM_FADD : NB_TM_FPOTHER;
	case NB_FP_SSP: case NB_FP_SDP: case NB_FP_PSP: case NB_FP_PDP:
		if (op != 0x0f || i + 1 >= len)
			return NB_TM_FPOTHER;
		switch (code[i + 1]) {
		case 0x58: case 0x5c: case 0x5d: case 0x5f: case 0xc2: case 0x2e: case 0x2f:
			return NB_TM_SADD;
		case 0x59:
			return NB_TM_SMUL;
		case 0x5e: case 0x51:
			return NB_TM_SDIV;
		default:
			return NB_TM_FPOTHER;
		}
	case NB_FP_MMX64: case NB_FP_MMX128:
		return simd_class(code, len, i, npfx);
	case NB_FP_NONE:
		break;
	default:
		return NB_TM_FPOTHER;
	}
	/* [SDM Vol. 2 Appendix A, table A-2]: adc 10-15 and 80/81/83 /2,
	 * sbb 18-1D and /3; xchg 86/87 (register form here), 91-97 */
	if (op <= 0x1d && (op & 7) <= 5 && (op >> 3 == 2 || op >> 3 == 3))
		return NB_TM_ADC;
	if (op >= 0x91 && op <= 0x97)
		return NB_TM_XCHG;
	switch (op) {
	case 0x80: case 0x81: case 0x83:
		reg = modrm_reg(code, len, i + 1);
		return reg == 2 || reg == 3 ? NB_TM_ADC : NB_TM_ALU;
	case 0x86: case 0x87:
		return NB_TM_XCHG;
	case 0xc0: case 0xc1: case 0xd0: case 0xd1: case 0xd2: case 0xd3:
		/* with REX.W (the last prefix byte 48-4F), all but shl/sal
		 * (/4, /6) are Prescott's slow 64-bit forms [F43X64]; the
		 * others by cl (D2, D3) their own class [F29, F43 227-287] */
		reg = modrm_reg(code, len, i + 1);
		if (npfx && (code[npfx - 1] & 0xf8) == 0x48 && (op & 1) && reg != 4 && reg != 6)
			return NB_TM_SHIFT64;
		return op == 0xd2 || op == 0xd3 ? NB_TM_SHIFTCL : NB_TM_SHIFT;
	case 0x8d:
		return lea_class(code, len, i + 1, npfx);
	case 0x69: case 0x6b:
		return NB_TM_IMUL;
	case 0xf6: case 0xf7:
		reg = modrm_reg(code, len, i + 1);
		return reg == 4 || reg == 5 ? NB_TM_MUL : reg == 6 || reg == 7 ? NB_TM_IDIV
			: NB_TM_ALU;
	case 0x0f:
		op2 = i + 1 < len ? code[i + 1] : 0;
		if (op2 == 0xaf)
			return NB_TM_IMUL;
		if (op2 == 0xa4 || op2 == 0xa5 || op2 == 0xac || op2 == 0xad)
			return NB_TM_SHIFT;
		/* bswap 0F C8-CF (r64: as Prescott's 64-bit shifts, 8
		 * measured [F43X64 320]) */
		if (op2 >= 0xc8 && op2 <= 0xcf)
			return npfx && (code[npfx - 1] & 0xf8) == 0x48 ? NB_TM_SHIFT64 : NB_TM_BSWAP;
		if (op2 >= 0x40 && op2 <= 0x4f)
			return NB_TM_CMOV;
		if (op2 >= 0x90 && op2 <= 0x9f)
			return NB_TM_SETCC;
		if (op2 == 0xb0 || op2 == 0xb1)
			return NB_TM_CMPXCHG;
		if (op2 == 0x31)
			return NB_TM_RDTSC;
		/* 0F AE with ModRM E8-EF lfence, F0-F7 mfence, F8-FF sfence */
		if (op2 == 0xae && i + 2 < len && code[i + 2] >= 0xe8)
			return code[i + 2] < 0xf0 ? NB_TM_LFENCE : code[i + 2] < 0xf8 ? NB_TM_MFENCE
				: NB_TM_SFENCE;
		return NB_TM_ALU;
	default:
		return NB_TM_ALU;
	}
}
