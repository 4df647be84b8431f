/*
 * nb_tmparams.c - the NetBurst timing model's data: the latency and
 * throughput table of each model, one row per class of nb_timing.h
 * (latency, interval between two starts on its unit, unit), and the
 * window, widths and miss slots.  The walk (nb_timing.c) reads them; the
 * classification (nb_tmclass.c) names the class of an instruction.
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
 *  the measured one (sim/tests/guest/t_measured.c checks them: its rows,
 *  sim/tests/guest/measured_rows.h).
 */
#include "nb_timing.h"

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
		/* PSHUFD: 4, throughput 2 [F29 1144] (PSLLDQ 4, 2 [F29
		 * 1074]; PSADBW xmm 4, 2 [F29 1140]; PSADBW mm: NB_TM_PSADMM) */
		[NB_TM_SHUF]    = { T(4), T(2), NB_TMU_FPADD },
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
		/* RCL/RCR r32, 1: 4, throughput 4 [F29 291, 303]; by imm8
		 * and cl: 19, throughput 19 [F29 295, 299, 307, 311] (the
		 * same for r8 and r16 [F29 289-310]) */
		[NB_TM_RC1]     = { T(4), T(4), NB_TMU_INT },
		[NB_TM_RCN]     = { T(19), T(19), NB_TMU_INT },
		/* SHLD/SHRD r32, r32, imm8 and cl: 8, throughput 4 [F29 254,
		 * 257, 260, 263] */
		[NB_TM_SHXD]    = { T(8), T(4), NB_TMU_INT },
		/* BTS/BTR/BTC r32, r32: 6, throughput 6 (BT r32, r32 the
		 * same throughput, no result but the flags) [F29 177, 183,
		 * 189, 195]; by imm8: 4, throughput 4 [F29 180, 186, 192,
		 * 198] */
		[NB_TM_BTR]     = { T(6), T(6), NB_TMU_INT },
		[NB_TM_BTI]     = { T(4), T(4), NB_TMU_INT },
		/* MOVSD, LODSD, STOSD, SCASD (no rep): 6, throughput 6, the
		 * chain through esi/edi [F29 531, 515, 523, 539]; the B and
		 * W forms the same [F29 513-538] */
		[NB_TM_STR]     = { T(6), T(1), NB_TMU_ALU },
		/* on XMM registers each integer operation takes its unit 2
		 * cycles: PADDD xmm throughput 2 (mm: 1) [F29 1013, 643 T];
		 * PMULLW xmm 6, throughput 2 [F29 1062] (latencies as
		 * NB_TM_SIMD, NB_TM_SIMUL) */
		[NB_TM_SIMDX]   = { T(2), T(2), NB_TMU_FPADD },
		[NB_TM_SIMULX]  = { T(6), T(2), NB_TMU_FPMUL },
		/* IDIV r8: 70 [F29 363 "IDIV r8 1/1 ax upd"] (69 [F29 352
		 * "(full)"]); IDIV r16: 67 [F29 376 "IDIV r16 1/1 ax/dx upd"]
		 * (65 [F29 364]); not pipelined.  DIV r8, r16 (61, 60 [F29
		 * 405, 417]) are NB_TM_IDIV's.  No 64-bit mode: the r64
		 * forms as r32's */
		[NB_TM_IDIVS]   = { T(68), T(68), NB_TMU_FPDIV },
		[NB_TM_IDIV64]  = { T(57), T(57), NB_TMU_FPDIV },
		[NB_TM_DIV64]   = { T(57), T(57), NB_TMU_FPDIV },
		/* SHLD/SHRD r64: as r32 (no 64-bit mode) */
		[NB_TM_SHXD64]  = { T(8), T(4), NB_TMU_INT },
		[NB_TM_SHXD64CL] = { T(8), T(4), NB_TMU_INT },
		/* store-to-load forwarding (nb_tmbuild.c): ADD [m32], r32
		 * back to back, each add's load reading the previous add's
		 * store, 8.8 [F29 80] (8.8 for m8, m16 [F29 78, 79]): the
		 * load (2) and the add (0.5) leave 6.3 from the data to the
		 * load's start, 6.5 in half cycles */
		[NB_TM_FWD]     = { 13, 1, NB_TMU_ALU },
		/* RCL r64 by imm8, cl: no 64-bit mode: as r32 (NB_TM_RCN) */
		[NB_TM_RCL64N]  = { T(19), T(19), NB_TMU_INT },
		/* SHLD r16, r16, imm8 and cl: 14, SHRD 16, throughput the
		 * same [F29 253, 256, 259, 262]: one class, 15 (each within
		 * 7%) */
		[NB_TM_SHXD16]  = { T(15), T(15), NB_TMU_INT },
		[NB_TM_SHXD16CL] = { T(15), T(15), NB_TMU_INT },
		/* PSADBW mm: 4, throughput 1 [F29 763] (xmm: 2, NB_TM_SHUF) */
		[NB_TM_PSADMM]  = { T(4), T(1), NB_TMU_FPADD },
		/* an iteration of REPNE SCAS, REP LODS: 4 cycles an element,
		 * 0.99 B/c for dwords [F29 543 "REPNE SCASD", 519 "REP
		 * LODSD"]; bytes 0.25 B/c, words 0.50 [F29 541, 542, 517,
		 * 518]; REPE CMPS: 2 an element, 0.50 B/c for bytes, 0.99
		 * for words [F29 509, 510] (dwords 1.59: 2.5).  The microcode
		 * loop issues an iteration that often: an interval on one
		 * unit, so the next rep's iterations do not start under this
		 * one's (a latency alone let two executions overlap by the
		 * window: 3.1 cycles an element) */
		[NB_TM_REPSCAN] = { T(4), T(4), NB_TMU_INT },
		[NB_TM_REPCMPS] = { T(2), T(2), NB_TMU_INT },
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
	11,
	/* fast strings: REP STOSW 4.25 B/c, REP MOVSW 7.40 B/c in the L1D
	 * [F29 526, 534] (2 x 256 / B/c ticks per byte in 1/256); the B and
	 * D rows, measured apart, are t_measured's (STOSB 4.04, STOSD 4.25,
	 * MOVSB 6.75, MOVSD 7.56 [F29 525, 527, 533, 535]) */
	{ 120, 69 }
};

/* Willamette (CPUID 0F1n): InstLatX64's Willamette [F13] measures
 * Northwood's figures row for row but bswap, lfence and mfence; each row
 * names the F13 row it was checked against (sim/tests/guest/measured_rows.h). */
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
		[NB_TM_SHUF]    = { T(4), T(2), NB_TMU_FPADD },     /* F13 1144, 1140: 4, T 2 */
		[NB_TM_SHIFT64] = { T(4), T(1), NB_TMU_INT },       /* no 64-bit mode: as r32 */
		[NB_TM_BSWAP]   = { T(7), T(1), NB_TMU_INT },       /* F13 319: 7, throughput 0.76 */
		[NB_TM_RDTSC]   = { T(80), T(1), NB_TMU_ALU },      /* F13 555: T 80 */
		[NB_TM_SHIFTCL] = { T(6), T(6), NB_TMU_INT },       /* F13 227, 239, 251, 275, 287: 6 */
		[NB_TM_LEA3]    = { T(1), 1, NB_TMU_ALU },          /* F13 209: 1 */
		[NB_TM_LEASC]   = { T(4), T(1), NB_TMU_INT },       /* F13 212: 4 */
		[NB_TM_LEASCD]  = { T(5), T(1), NB_TMU_INT },       /* F13 215: 5 */
		[NB_TM_RC1]     = { T(4), T(4), NB_TMU_INT },       /* F13 291, 303: 4 */
		[NB_TM_RCN]     = { T(19), T(19), NB_TMU_INT },     /* F13 295, 311: 19 */
		[NB_TM_SHXD]    = { T(12), T(12), NB_TMU_INT },     /* F13 254-263: 12, T 12 */
		[NB_TM_BTR]     = { T(6), T(6), NB_TMU_INT },       /* F13 195: 6 */
		[NB_TM_BTI]     = { T(6), T(6), NB_TMU_INT },       /* F13 198: 6 (Northwood 4) */
		[NB_TM_STR]     = { T(6), T(1), NB_TMU_ALU },       /* F13 515, 523, 531: 6 */
		[NB_TM_SIMDX]   = { T(2), T(2), NB_TMU_FPADD },     /* F13 1013: 2, T 2 */
		[NB_TM_SIMULX]  = { T(6), T(2), NB_TMU_FPMUL },     /* F13 1062: 6, T 2 */
		[NB_TM_IDIVS]   = { T(66), T(66), NB_TMU_FPDIV },   /* F13 363, 376: 66 */
		[NB_TM_IDIV64]  = { T(57), T(57), NB_TMU_FPDIV },   /* no 64-bit mode: r32's */
		[NB_TM_DIV64]   = { T(57), T(57), NB_TMU_FPDIV },
		[NB_TM_SHXD64]  = { T(12), T(12), NB_TMU_INT },     /* as r32 */
		[NB_TM_SHXD64CL] = { T(12), T(12), NB_TMU_INT },
		[NB_TM_FWD]     = { 13, 1, NB_TMU_ALU },            /* F13 80: 8.9 */
		[NB_TM_RCL64N]  = { T(19), T(19), NB_TMU_INT },     /* no 64-bit mode: r32's */
		[NB_TM_SHXD16]  = { T(12), T(12), NB_TMU_INT },     /* F13 253, 259: 12, T 12 */
		[NB_TM_SHXD16CL] = { T(12), T(12), NB_TMU_INT },    /* F13 256, 262: 12, T 12 */
		[NB_TM_PSADMM]  = { T(4), T(1), NB_TMU_FPADD },     /* F13 763: 4, T 1 */
		[NB_TM_REPSCAN] = { T(4), T(4), NB_TMU_INT },          /* F13 541, 543: 0.25, 0.99 B/c */
		[NB_TM_REPCMPS] = { T(2), T(2), NB_TMU_INT },          /* F13 509-511: 0.50-1.96 B/c */
	},
	126, 3, 4,                      /* as Northwood's: [HIN01], [DLI p. 17] */
	NB_PMI_LATENCY_NW,              /* Northwood's (no measurement) */
	16, 4,                          /* bits 15:6 [ORM-A]; 4 ways [CPUID] 0x66 */
	11,                             /* L2 18 measured [F13M], access 7 [DLI] */
	{ 120, 69 }                     /* F13 526, 534: 4.26, 7.42 B/c */
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
		/* PSHUFD: 4, throughput 2 [F43 1482] (PSADBW xmm 4, 2 [F43
		 * 1474]) */
		[NB_TM_SHUF]    = { T(4), T(2), NB_TMU_FPADD },
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
		/* RCL/RCR r32, 1: 7, throughput 7 [F43 291, 303]; by imm8
		 * and cl: 25 (cl 25.3), throughput 25 [F43 295, 299, 307,
		 * 311]; Presler the same [F62 291-311].  r64 [F43X64 292-312]:
		 * by 1 7, RCR by imm8/cl 25; RCL by imm8/cl: NB_TM_RCL64N */
		[NB_TM_RC1]     = { T(7), T(7), NB_TMU_INT },
		[NB_TM_RCN]     = { T(25), T(25), NB_TMU_INT },
		/* SHLD/SHRD r32, r32, imm8: 9, throughput 7; by cl: 9,
		 * throughput 8 [F43 254, 257, 260, 263; F62 the same] */
		[NB_TM_SHXD]    = { T(9), T(7), NB_TMU_INT },
		/* BTS/BTR/BTC r32, r32: 9, throughput 9; by imm8: 8,
		 * throughput 8 [F43 183-198; F43X64 r64 the same; F62] */
		[NB_TM_BTR]     = { T(9), T(9), NB_TMU_INT },
		[NB_TM_BTI]     = { T(8), T(8), NB_TMU_INT },
		/* MOVSD, LODSD, STOSD, SCASD: 8, throughput 8 [F43 531, 515,
		 * 523, 539; F43X64 MOVSQ-SCASQ 532-540 the same; F62] */
		[NB_TM_STR]     = { T(8), T(1), NB_TMU_ALU },
		/* PADDD xmm: 2, throughput 2 [F43 1234]; PMULLW xmm: 7,
		 * throughput 2 [F43 1332] (mm: throughput 1 [F43 643, 689]) */
		[NB_TM_SIMDX]   = { T(2), T(2), NB_TMU_FPADD },
		[NB_TM_SIMULX]  = { T(7), T(2), NB_TMU_FPMUL },
		/* IDIV r8: 78 [F43 363 "IDIV r8 1/1 ax upd"]; IDIV r16: 81
		 * [F43 376 "IDIV r16 1/1 ax/dx upd"] (80 [F43 364]).  The
		 * 64-bit divides depend on the operands' widths [F43X64
		 * 391-457]: with a dividend that fits in rax (rdx its sign
		 * or 0, the compilers' `cqo; idiv`, `xor edx, edx; div`),
		 * IDIV r64 107 [F43X64 394, 399, 403 "IDIV r64 1/1 rax
		 * upd"], DIV r64 52 [F43X64 447, 452, 456 "DIV r64 1/1 rax
		 * upd" 52.1]; a 128-bit dividend takes up to 206 */
		[NB_TM_IDIVS]   = { T(80), T(80), NB_TMU_FPDIV },
		[NB_TM_IDIV64]  = { T(107), T(107), NB_TMU_FPDIV },
		[NB_TM_DIV64]   = { T(52), T(52), NB_TMU_FPDIV },
		/* SHLD/SHRD r64 by imm8: 10, throughput 10 [F43X64 255, 261
		 * (r1, r1: 12.1), 4356, 4362]; by cl: SHLD 14, SHRD 12,
		 * throughputs the same [F43X64 258, 264, 4359, 4365]: 13;
		 * Presler the same [F62X64 255-264] */
		[NB_TM_SHXD64]  = { T(10), T(10), NB_TMU_INT },
		[NB_TM_SHXD64CL] = { T(13), T(13), NB_TMU_INT },
		/* store-to-load forwarding: ADD [m32], r32 back to back 5.0
		 * [F43X64 80] (5.0 for m8, m16, m64 [F43X64 78, 79, 82]; the
		 * 32-bit run 5.7 [F43 80]; Presler 5.1 [F62 80]): the load
		 * (4) and the add (1): the data is forwarded at once */
		[NB_TM_FWD]     = { 0, 1, NB_TMU_ALU },
		/* RCL r64 by imm8 and cl: 31, throughput 31 [F43X64 296,
		 * 300]; Presler the same [F62X64 296, 300] (RCR r64: 25,
		 * NB_TM_RCN) */
		[NB_TM_RCL64N]  = { T(31), T(31), NB_TMU_INT },
		/* SHLD/SHRD r16, r16, imm8: 10, throughput 10 [F43 253, 259];
		 * by cl: 12, throughput 12 [F43 256, 262]; Presler 10.0-10.7
		 * and 12 [F62 253-262] */
		[NB_TM_SHXD16]  = { T(10), T(10), NB_TMU_INT },
		[NB_TM_SHXD16CL] = { T(12), T(12), NB_TMU_INT },
		/* PSADBW mm: 4, throughput 1 [F43 765]; Presler the same [F62
		 * 763] (xmm: 2, NB_TM_SHUF) */
		[NB_TM_PSADMM]  = { T(4), T(1), NB_TMU_FPADD },
		/* REPNE SCAS, REP LODS: 4 an element, as Northwood: 0.24,
		 * 0.50, 1.00, 1.98 B/c for B, W, D, Q [F43X64 541-544, 517-520];
		 * REPE CMPS: 2, 0.49 B/c for bytes, 0.97 for words, 1.89 for
		 * dwords [F43 509-511]; Presler the same [F62 509-543] */
		[NB_TM_REPSCAN] = { T(4), T(4), NB_TMU_INT },
		[NB_TM_REPCMPS] = { T(2), T(2), NB_TMU_INT },
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
	10,
	/* fast strings: REP STOSW 3.44 B/c, REP MOVSW 6.61 B/c [F43X64 526,
	 * 534]; Presler 3.45, 6.52 [F62 526, 534] */
	{ 149, 77 }
};

const struct nb_tm_params *nb_tm_params_for(unsigned cpuid_model)
{
	return cpuid_model >= 3 ? &nb_tm_prescott : cpuid_model == 2 ? &nb_tm_northwood
		: &nb_tm_willamette;
}
