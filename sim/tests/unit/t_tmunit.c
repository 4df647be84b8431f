/*
 * t_tmunit.c - native unit test of the timing model (nb_timing.c, TAP):
 * hand-built uop blocks scheduled on a clock, against the rules of
 * README.md "Timing model" worked out by hand: dependent chains take the
 * class latency per link, independent uops retire 3 per cycle, the
 * 126-uop window, the outstanding-miss slots (4 Northwood, 8 Prescott),
 * the misprediction redirect, the serializing point, the opcode classes;
 * and the cheap clock (nb_tm_run_fast, --nbsim-clock=fast).
 */
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "timing/nb_tmmemo.h"
#include "cpu/nb_idecode.h"

#define MAXU 512
static struct nb_tm_uop U[MAXU];
static uint16_t S[MAXU * 4];
static unsigned nu, ns;

static void reset(void)
{
	nu = ns = 0;
}

/* a uop of class c reading slot src (or none: -1) and writing dst (or none) */
static void uop(unsigned c, int src, int dst, unsigned ld)
{
	struct nb_tm_uop *u = &U[nu++];
	u->cls = (uint8_t)c;
	u->ld = (uint8_t)ld;
	u->slot = ns;
	u->nsrc = src >= 0;
	u->ndst = dst >= 0;
	if (src >= 0)
		S[ns++] = (uint16_t)src;
	if (dst >= 0)
		S[ns++] = (uint16_t)dst;
}

static struct nb_tm_block blk(void)
{
	struct nb_tm_block b = { nu, ns, U, S, NULL, NULL, 0 };
	return b;
}

/* cycles per run of the block, in the steady state (runs 100..1100) */
static double steady(struct nb_tm *t, const struct nb_tm_block *b, void (*pre)(struct nb_tm *))
{
	uint64_t c0 = 0;
	for (int r = 0; r < 1100; r++) {
		if (r == 100)
			c0 = t->ret;
		if (pre)
			pre(t);
		nb_tm_run(t, b, 0, b->n, 0);
	}
	return (double)(t->ret - c0) / 1000.0;
}

/* the reservation search against its definition, tick by tick: the
 * first k' >= k whose intv ticks are free or past the horizon, on random
 * bitmaps from empty to full (a port's queue of waiting uops), starts
 * anywhere in the ring and past it, intervals 1 to 8; returns the
 * searches that differ */
static unsigned long first_free_vs_def(unsigned long *n)
{
	static uint64_t bm[NB_TM_URING / 64];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned long bad = 0;
#define R64() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
	*n = 0;
	for (unsigned it = 0; it < 3000; it++) {
		unsigned dens = (unsigned)(R64() % 5);
		uint64_t lo = (R64() % 100000) * 64, end = lo + NB_TM_URING;
		for (unsigned i = 0; i < NB_TM_URING / 64; i++) {
			uint64_t w = R64();
			bm[i] = dens == 0 ? 0 : dens == 1 ? w & R64() : dens == 2 ? w : dens == 3 ? w | R64()
				: ~(w & R64() & R64());
		}
		for (unsigned q = 0; q < 100; q++) {
			uint64_t k = lo + R64() % (NB_TM_URING + 200), want = k;
			unsigned intv = 1 + (unsigned)(R64() % 8);
			for (;; want++) {
				unsigned j = 0;
				while (j < intv && (want + j >= end ||
						    !(bm[(want + j) % NB_TM_URING / 64] >> ((want + j) % 64) & 1)))
					j++;
				if (j == intv)
					break;
			}
			++*n;
			bad += nb_tm_first_free(bm, lo, k, intv) != want;
		}
	}
#undef R64
	return bad;
}

static void miss_all(struct nb_tm *t)
{
	for (unsigned i = 0; i < 16; i++)
		nb_tm_load_miss(t, i, 7);
}

int main(void)
{
	static struct nb_tm t;
	const struct nb_tm_params *nw = nb_tm_params_for(2), *pr = nb_tm_params_for(3);
	struct nb_tm_block b;
	double c;

	tap_plan(28);

	/* a chain of 10 FP adds through slot 0 */
	reset();
	for (int i = 0; i < 10; i++)
		uop(NB_TM_FADD, 0, 0, 0);
	b = blk();
	nb_tm_init(&t, nw, 20);
	TAP_EQ((uint64_t)steady(&t, &b, NULL), 50, "Northwood: 10 dependent fadds take 10 x 5 cycles");
	nb_tm_init(&t, pr, 31);
	TAP_EQ((uint64_t)steady(&t, &b, NULL), 60, "Prescott: 10 dependent fadds take 10 x 6 cycles");

	/* 30 independent ALU uops: retirement, 3 per cycle */
	reset();
	for (int i = 0; i < 30; i++)
		uop(NB_TM_ALU, -1, (int)(10 + i % 8), 0);
	b = blk();
	nb_tm_init(&t, nw, 20);
	TAP_EQ((uint64_t)steady(&t, &b, NULL), 10, "30 independent ALU uops retire in 10 cycles (3 per cycle)");

	/* a chain of 30 ALU adds on Northwood: 0.5 per link */
	reset();
	for (int i = 0; i < 30; i++)
		uop(NB_TM_ALU, 1, 1, 0);
	b = blk();
	nb_tm_init(&t, nw, 20);
	c = steady(&t, &b, NULL);
	tap_ok(c == 15.0, "Northwood: 30 dependent adds take 30 x 0.5 cycles (%.2f)", c);

	/* independent shifts: Northwood's shift unit, one per cycle */
	reset();
	for (int i = 0; i < 12; i++)
		uop(NB_TM_SHIFT, -1, 20 + i, 0);
	b = blk();
	nb_tm_init(&t, nw, 20);
	TAP_EQ((uint64_t)steady(&t, &b, NULL), 12, "12 independent shifts: 12 cycles on Northwood's shift unit");

	/* the window: a 120-cycle divide chain head blocks retirement; 300
	 * independent uops behind it: the window (126) stops allocation */
	reset();
	uop(NB_TM_SDIV, 2, 2, 0);
	uop(NB_TM_SDIV, 2, 2, 0);
	uop(NB_TM_SDIV, 2, 2, 0);
	for (int i = 0; i < 300; i++)
		uop(NB_TM_ALU, -1, 30 + i % 8, 0);
	b = blk();
	nb_tm_init(&t, nw, 20);
	nb_tm_run(&t, &b, 0, b.n, 0);
	/* divides done at 38, 76, 114 (+ alloc): the 126th uop after the
	 * first allocates when the first retires; the last ALU uops retire
	 * after the third divide, then 3 per cycle */
	tap_ok(t.ret >= 114 && t.ret <= 114 + 300 / 3 + 2,
	       "window: 3 chained divides then 300 ALU uops end at cycle %llu (114..216)",
	       (unsigned long long)t.ret);
	tap_ok(t.seq == 303, "303 uops allocated (%llu)", (unsigned long long)t.seq);

	/* 16 independent loads, all L1D misses of 7 cycles: 4 slots */
	reset();
	for (int i = 0; i < 16; i++)
		uop(NB_TM_LOAD, 5, 40 + i, (unsigned)i + 1);
	b = blk();
	nb_tm_init(&t, nw, 20);
	c = steady(&t, &b, miss_all);
	tap_ok(c == 28.0, "Northwood: 16 independent L1D misses (7 cycles) take 16 / 4 x 7 = 28 cycles (%.2f)", c);
	nb_tm_init(&t, pr, 31);
	c = steady(&t, &b, miss_all);
	tap_ok(c == 16.0, "Prescott (8 slots: 16 / 8 x 7 = 14): the load port, one per cycle, "
	       "binds first: 16 cycles (%.2f)", c);

	/* dependent loads (a chase through slot 6), all missing: no overlap */
	reset();
	for (int i = 0; i < 16; i++)
		uop(NB_TM_LOAD, 6, 6, (unsigned)i + 1);
	b = blk();
	nb_tm_init(&t, nw, 20);
	c = steady(&t, &b, miss_all);
	tap_ok(c == 112.0, "16 dependent missing loads take 16 x 7 = 112 cycles (%.2f)", c);

	/* loads that hit: 2 (Northwood) / 4 (Prescott) per link */
	nb_tm_init(&t, nw, 20);
	c = steady(&t, &b, NULL);
	tap_ok(c == 32.0, "Northwood: 16 dependent L1D hits take 16 x 2 cycles (%.2f)", c);

	/* a misprediction: the next uops allocate `penalty` cycles after the
	 * branch resolved */
	reset();
	uop(NB_TM_ALU, -1, 7, 0);
	b = blk();
	nb_tm_init(&t, nw, 20);
	nb_tm_run(&t, &b, 0, 1, 0);
	uint64_t r0 = t.ret;
	nb_tm_run(&t, &b, 0, 1, 1);         /* this one mispredicted */
	nb_tm_run(&t, &b, 0, 1, 1);
	tap_ok(t.ret >= r0 + 20 && t.ret <= r0 + 22,
	       "a misprediction delays the next uop's retirement by the 20-cycle penalty (%llu -> %llu)",
	       (unsigned long long)r0, (unsigned long long)t.ret);

	/* serializing: the cycles through the last retirement, then nothing
	 * before them */
	nb_tm_init(&t, nw, 20);
	nb_tm_run(&t, &b, 0, 1, 0);
	uint64_t s1 = nb_tm_serialize(&t);
	tap_ok(s1 == t.ret && nb_tm_serialize(&t) == s1,
	       "serialize: cycles %llu, again the same without uops", (unsigned long long)s1);

	/* the cheap clock: no dependencies, 3 uops per cycle, a miss adds its
	 * latency, a misprediction the penalty; renaming copies are no uops */
	reset();
	for (int i = 0; i < 10; i++)
		uop(NB_TM_FDIV, 0, 0, 0);
	uop(NB_TM_COPY, 0, 1, 0);
	uop(NB_TM_LOAD, 1, 2, 1);
	b = blk();
	nb_tm_init(&t, nw, 20);
	for (int r = 0; r < 3; r++)
		nb_tm_run_fast(&t, &b, 0, b.n, 0);
	uint64_t f0 = nb_tm_serialize(&t);
	tap_ok(f0 == 11 && t.uops == 33,
	       "fast clock: 3 runs of 10 dependent divides + a load (33 uops) retire in 11 cycles (%llu)",
	       (unsigned long long)f0);
	{
		/* the same with the block's prefix counts (as nb_tmbuild.c
		 * builds them): the counts come from real[], not the loop */
		static uint32_t real[MAXU + 1];
		struct nb_tm_block br = b;
		static struct nb_tm t2;
		for (unsigned i = 0; i < b.n; i++)
			real[i + 1] = real[i] + (U[i].cls != NB_TM_COPY && U[i].cls != NB_TM_LAT);
		br.real = real;
		nb_tm_init(&t2, nw, 20);
		for (int r = 0; r < 3; r++)
			nb_tm_run_fast(&t2, &br, 0, br.n, 0);
		nb_tm_run_fast(&t2, &br, 2, 12, 0);
		tap_ok(nb_tm_serialize(&t2) == 11 + 3 && t2.uops == 33 + 9,
		       "fast clock from the prefix counts: the same 11 cycles, then uops 2-11 (9, the copy is none) in 3 more");
	}
	nb_tm_load_miss(&t, 0, 100);
	nb_tm_run_fast(&t, &b, 0, b.n, 0);
	tap_ok(t.ret == 11 + 3 + 100, "fast clock: then 11 uops in cycles 11-14, and a load missing with "
	       "latency 100 adds 100 cycles (%llu)", (unsigned long long)t.ret);
	f0 = t.ret;
	nb_tm_run_fast(&t, &b, 0, 3, 2);
	tap_ok(t.ret == f0 + 2 * 20, "fast clock: 3 uops in the open cycle and 2 mispredictions: 2 x 20 "
	       "cycles more (%llu)",
	       (unsigned long long)(t.ret - f0));
	nb_tm_init(&t, nw, 20);
	t.step.record = 1;
	nb_tm_run_fast(&t, &b, 0, 5, 0);
	tap_ok(t.step.nrec == 5 && t.step.rec[0] == 0 && t.step.rec[2] == 0 && t.step.rec[3] == 1 && t.step.rec[4] == 1 && t.ret == 1,
	       "fast clock, step mode: each uop's retirement cycle recorded (0 0 0 1 1)");

	{
		unsigned long n, bad = first_free_vs_def(&n);
		tap_ok(bad == 0, "unit search: the first free run of 1-8 ticks, as defined tick by tick, "
		       "in %lu searches on random bitmaps (%lu differ)", n, bad);
	}

	/* classification */
	static const uint8_t shl[] = { 0x48, 0xc1, 0xe0, 0x01 }, imul[] = { 0x48, 0x0f, 0xaf, 0xc3 },
		fadd[] = { 0xd8, 0xc1 }, divsd[] = { 0xf2, 0x0f, 0x5e, 0xc1 }, add[] = { 0x48, 0x01, 0xd8 };
	tap_ok(nb_tm_classify(shl, 4, 1, NB_FP_NONE) == NB_TM_SHIFT &&
	       nb_tm_classify(imul, 4, 1, NB_FP_NONE) == NB_TM_IMUL &&
	       nb_tm_classify(add, 3, 1, NB_FP_NONE) == NB_TM_ALU,
	       "classes: shl -> SHIFT, imul -> IMUL, add -> ALU");
	/* shl %cl, %eax; shr %cl, %rax (REX.W: Prescott's slow 64-bit
	 * form); shl %cl, %rax */
	static const uint8_t shlcl[] = { 0xd3, 0xe0 }, shrcl64[] = { 0x48, 0xd3, 0xe8 },
		shlcl64[] = { 0x48, 0xd3, 0xe0 };
	tap_ok(nb_tm_classify(shlcl, 2, 0, NB_FP_NONE) == NB_TM_SHIFTCL &&
	       nb_tm_classify(shlcl64, 3, 1, NB_FP_NONE) == NB_TM_SHIFTCL &&
	       nb_tm_classify(shrcl64, 3, 1, NB_FP_NONE) == NB_TM_SHIFT64,
	       "classes: shl r32, cl and shl r64, cl -> SHIFTCL, shr r64, cl -> SHIFT64");
	/* lea (%rax,%rbx), lea 8(%rax,%rbx), lea (%rax,%rbx,8), lea
	 * 8(%rax,%rbx,8), lea 8(%rax) (no SIB), lea (,%rbx,8) (disp32, no
	 * base), lea (%rax,%r12) (REX.X: an index numbered 4) */
	static const uint8_t lea2[] = { 0x48, 0x8d, 0x04, 0x18 },
		lea3[] = { 0x48, 0x8d, 0x44, 0x18, 0x08 },
		leasc[] = { 0x48, 0x8d, 0x04, 0xd8 },
		leascd[] = { 0x48, 0x8d, 0x44, 0xd8, 0x08 },
		leabd[] = { 0x48, 0x8d, 0x40, 0x08 },
		leaxd[] = { 0x48, 0x8d, 0x04, 0xdd, 0, 0, 0, 0 },
		leax4[] = { 0x4a, 0x8d, 0x04, 0x20 };
	tap_ok(nb_tm_classify(lea2, 4, 1, NB_FP_NONE) == NB_TM_ALU &&
	       nb_tm_classify(lea3, 5, 1, NB_FP_NONE) == NB_TM_LEA3 &&
	       nb_tm_classify(leasc, 4, 1, NB_FP_NONE) == NB_TM_LEASC &&
	       nb_tm_classify(leascd, 5, 1, NB_FP_NONE) == NB_TM_LEASCD &&
	       nb_tm_classify(leabd, 4, 1, NB_FP_NONE) == NB_TM_ALU &&
	       nb_tm_classify(leaxd, 8, 1, NB_FP_NONE) == NB_TM_LEASCD &&
	       nb_tm_classify(leax4, 4, 1, NB_FP_NONE) == NB_TM_ALU,
	       "classes: lea by address: b+i ALU, b+i+d LEA3, b+i*8 LEASC, b+i*8+d and "
	       "i*8+d32 LEASCD, b+d ALU, b+r12 ALU");
	tap_ok(nb_tm_classify(fadd, 2, 0, NB_FP_X87) == NB_TM_FADD &&
	       nb_tm_classify(divsd, 4, 1, NB_FP_SDP) == NB_TM_SDIV,
	       "classes: fadd st(1) -> FADD, divsd -> SDIV");
	/* rcl $1, %eax; rcl $3, %eax; rcr %cl, %eax; rcl $1, %rax (not the
	 * 64-bit shifts' SHIFT64); shld $1, %eax, %eax; shrd %cl, %eax, %eax */
	static const uint8_t rcl1[] = { 0xd1, 0xd0 }, rcli[] = { 0xc1, 0xd0, 0x03 },
		rcrcl[] = { 0xd3, 0xd8 }, rcl64[] = { 0x48, 0xd1, 0xd0 },
		shld[] = { 0x0f, 0xa4, 0xc0, 0x01 }, shrdcl[] = { 0x0f, 0xad, 0xc0 };
	tap_ok(nb_tm_classify(rcl1, 2, 0, NB_FP_NONE) == NB_TM_RC1 &&
	       nb_tm_classify(rcli, 3, 0, NB_FP_NONE) == NB_TM_RCN &&
	       nb_tm_classify(rcrcl, 2, 0, NB_FP_NONE) == NB_TM_RCN &&
	       nb_tm_classify(rcl64, 3, 1, NB_FP_NONE) == NB_TM_RC1 &&
	       nb_tm_classify(shld, 4, 0, NB_FP_NONE) == NB_TM_SHXD &&
	       nb_tm_classify(shrdcl, 3, 0, NB_FP_NONE) == NB_TM_SHXD,
	       "classes: rcl/rcr by 1 RC1 (r64 too), by imm8/cl RCN; shld, shrd SHXD");
	/* shld $1, %rax, %rax; shrd %cl, %rax, %rax */
	static const uint8_t shld64[] = { 0x48, 0x0f, 0xa4, 0xc0, 0x01 },
		shrdcl64[] = { 0x48, 0x0f, 0xad, 0xc0 };
	tap_ok(nb_tm_classify(shld64, 5, 1, NB_FP_NONE) == NB_TM_SHXD64 &&
	       nb_tm_classify(shrdcl64, 4, 1, NB_FP_NONE) == NB_TM_SHXD64CL,
	       "classes: shld r64 by imm8 SHXD64, shrd r64 by cl SHXD64CL");
	/* bts %ebx, %eax; bts $5, %eax; bt $5, %eax; bt %ebx, (%rax) (a
	 * bit string in memory: unchanged); stosl; rep stosl */
	static const uint8_t btsr[] = { 0x0f, 0xab, 0xd8 }, btsi[] = { 0x0f, 0xba, 0xe8, 0x05 },
		bti[] = { 0x0f, 0xba, 0xe0, 0x05 }, btm[] = { 0x0f, 0xa3, 0x18 },
		stos[] = { 0xab }, repstos[] = { 0xf3, 0xab };
	tap_ok(nb_tm_classify(btsr, 3, 0, NB_FP_NONE) == NB_TM_BTR &&
	       nb_tm_classify(btsi, 4, 0, NB_FP_NONE) == NB_TM_BTI &&
	       nb_tm_classify(bti, 4, 0, NB_FP_NONE) == NB_TM_BTI &&
	       nb_tm_classify(btm, 3, 0, NB_FP_NONE) == NB_TM_ALU &&
	       nb_tm_classify(stos, 1, 0, NB_FP_NONE) == NB_TM_STR &&
	       nb_tm_classify(repstos, 2, 1, NB_FP_NONE) == NB_TM_ALU,
	       "classes: bts r, r BTR; bts/bt r, imm8 BTI; bt m, r ALU; stos STR, rep stos ALU");
	/* paddd %xmm1, %xmm0; paddd %mm1, %mm0; pmullw %xmm1, %xmm0;
	 * psadbw %xmm1, %xmm0 */
	static const uint8_t padx[] = { 0x66, 0x0f, 0xfe, 0xc1 }, padm[] = { 0x0f, 0xfe, 0xc1 },
		pmulx[] = { 0x66, 0x0f, 0xd5, 0xc1 }, psad[] = { 0x66, 0x0f, 0xf6, 0xc1 };
	tap_ok(nb_tm_classify(padx, 4, 1, NB_FP_MMX128) == NB_TM_SIMDX &&
	       nb_tm_classify(padm, 3, 0, NB_FP_MMX64) == NB_TM_SIMD &&
	       nb_tm_classify(pmulx, 4, 1, NB_FP_MMX128) == NB_TM_SIMULX &&
	       nb_tm_classify(psad, 4, 1, NB_FP_MMX128) == NB_TM_SHUF,
	       "classes: paddd xmm SIMDX, paddd mm SIMD, pmullw xmm SIMULX, psadbw SHUF");
	/* idiv %cl; idiv %cx; idiv %rcx; div %rcx; div %ecx; div %cl */
	static const uint8_t idiv8[] = { 0xf6, 0xf9 }, idiv16[] = { 0x66, 0xf7, 0xf9 },
		idiv64[] = { 0x48, 0xf7, 0xf9 }, div64[] = { 0x48, 0xf7, 0xf1 },
		div32[] = { 0xf7, 0xf1 }, div8[] = { 0xf6, 0xf1 };
	tap_ok(nb_tm_classify(idiv8, 2, 0, NB_FP_NONE) == NB_TM_IDIVS &&
	       nb_tm_classify(idiv16, 3, 1, NB_FP_NONE) == NB_TM_IDIVS &&
	       nb_tm_classify(idiv64, 3, 1, NB_FP_NONE) == NB_TM_IDIV64 &&
	       nb_tm_classify(div64, 3, 1, NB_FP_NONE) == NB_TM_DIV64 &&
	       nb_tm_classify(div32, 2, 0, NB_FP_NONE) == NB_TM_IDIV &&
	       nb_tm_classify(div8, 2, 0, NB_FP_NONE) == NB_TM_IDIV,
	       "classes: idiv r8/r16 IDIVS, idiv r64 IDIV64, div r64 DIV64, div r32/r8 IDIV");
	return tap_done();
}
