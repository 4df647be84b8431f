/*
 * t_fpassist.c - FP assists under nbsim (TAP): SSE_input_assist ALL and
 * x87_assist PREA, POAU, POAO (README "FP assists").
 *
 * Every count is a difference: the same kernel at N1 and N2 iterations
 * (after a warm-up run), so set-up and register accesses cancel.  Each
 * kernel is an inline-asm loop with one FP instruction of interest per
 * iteration, run on operands that need an assist and on operands that do
 * not (same code).
 */
#include <stdio.h>
#include <string.h>
#include <float.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "guest.h"

#define N1 4000
#define N2 12000
#define DN (N2 - N1)

/* operands of a kernel: a op b -> r; v[] for packed kernels */
struct ops {
	double a, b, r;
	double v[2] __attribute__((aligned(16)));
	float f[4] __attribute__((aligned(16)));
	float fr;
};
typedef void (*kern_fn)(struct ops *o, uint64_t n);

/* addsd a(m64), xmm0 = 1.0 */
static __attribute__((noinline)) void k_addsd(struct ops *o, uint64_t n)
{
	__asm__ volatile("movsd %[b], %%xmm1\n\t"
			 "1:\n\t"
			 "movapd %%xmm1, %%xmm0\n\t"
			 "addsd %[a], %%xmm0\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [a] "m"(o->a), [b] "m"(o->b) : "xmm0", "xmm1", "cc");
}

/* addsd a(m64) whose result register is overwritten at once (a dead
 * result in the superblock: VEX's optimiser would drop the addsd) */
static __attribute__((noinline)) void k_deadsd(struct ops *o, uint64_t n)
{
	__asm__ volatile("movsd %[b], %%xmm1\n\t"
			 "1:\n\t"
			 "movapd %%xmm1, %%xmm0\n\t"
			 "addsd %[a], %%xmm0\n\t"
			 "movapd %%xmm1, %%xmm0\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [a] "m"(o->a), [b] "m"(o->b) : "xmm0", "xmm1", "cc");
}

/* mulsd xmm1(b), xmm0(a): a product; the output is not an input */
static __attribute__((noinline)) void k_mulsd(struct ops *o, uint64_t n)
{
	__asm__ volatile("movsd %[b], %%xmm1\n\t"
			 "1:\n\t"
			 "movsd %[a], %%xmm0\n\t"
			 "mulsd %%xmm1, %%xmm0\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [a] "m"(o->a), [b] "m"(o->b) : "xmm0", "xmm1", "cc");
}

/* addpd v, xmm0 = (1, 1) */
static __attribute__((noinline)) void k_addpd(struct ops *o, uint64_t n)
{
	__asm__ volatile("movsd %[b], %%xmm1\n\t"
			 "unpcklpd %%xmm1, %%xmm1\n\t"
			 "1:\n\t"
			 "movapd %%xmm1, %%xmm0\n\t"
			 "addpd %[v], %%xmm0\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [v] "m"(o->v), [b] "m"(o->b) : "xmm0", "xmm1", "cc");
}

/* mulps f, xmm0 = f */
static __attribute__((noinline)) void k_mulps(struct ops *o, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "movaps %[f], %%xmm0\n\t"
			 "mulps %[f], %%xmm0\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [f] "m"(o->f) : "xmm0", "cc");
}

/* cvtsd2ss a -> xmm0 */
static __attribute__((noinline)) void k_cvtsd2ss(struct ops *o, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "cvtsd2ss %[a], %%xmm0\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [a] "m"(o->a) : "xmm0", "cc");
}

/* x87: 1 + a(m64), popped */
static __attribute__((noinline)) void k_fadd(struct ops *o, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "fld1\n\t"
			 "faddl %[a]\n\t"
			 "fstp %%st(0)\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [a] "m"(o->a) : "st", "cc");
}

/* x87: r = a * b (fld m64, fmul m64, fstp m64) */
static __attribute__((noinline)) void k_fmul(struct ops *o, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "fldl %[a]\n\t"
			 "fmull %[b]\n\t"
			 "fstpl %[r]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [r] "=m"(o->r) : [a] "m"(o->a), [b] "m"(o->b) : "st", "cc");
}

/* x87: fr = (float)a (fld m64, fstp m32) */
static __attribute__((noinline)) void k_fst32(struct ops *o, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "fldl %[a]\n\t"
			 "fstps %[fr]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [fr] "=m"(o->fr) : [a] "m"(o->a) : "st", "cc");
}

static int measure(const struct cnt *c, kern_fn fn, struct ops *o, uint64_t n, uint64_t *out)
{
	int ok = guest_count_start(c, NULL);

	fn(o, n);
	return ok && guest_count_stop(c, NULL, out);
}

/* warm-up, N1, N2: the difference of the counts (~0 on failure) */
static uint64_t diff(const struct cnt *c, kern_fn fn, struct ops *o)
{
	uint64_t w, x, y;
	if (!measure(c, fn, o, N1, &w) || !measure(c, fn, o, N1, &x) || !measure(c, fn, o, N2, &y))
		return ~0ULL;
	return y - x;
}

static const struct cnt SSE = { NB_ESCR_FIRM_ESCR0, NB_EV_SSE_INPUT_ASSIST, 1u << 15 };
static const struct cnt PREA = { NB_ESCR_CRU_ESCR2, NB_EV_X87_ASSIST, 1u << 4 };
static const struct cnt POAU = { NB_ESCR_CRU_ESCR2, NB_EV_X87_ASSIST, 1u << 3 };
static const struct cnt POAO = { NB_ESCR_CRU_ESCR2, NB_EV_X87_ASSIST, 1u << 2 };
static const struct cnt X87ALL = { NB_ESCR_CRU_ESCR3, NB_EV_X87_ASSIST, 0x1c };  /* POAO POAU PREA */

int main(void)
{
	const double den = DBL_MIN / 4, big = 1e200;
	struct ops o;
	uint64_t d, nd, y, x;

	if (!tap_ok(nbsim_present(), "running under nbsim"))
		return 1;
	/* SSE_input_assist */
	memset(&o, 0, sizeof o);
	o.a = den; o.b = 1.0;
	TAP_EQ(diff(&SSE, k_addsd, &o), DN, "addsd of a denormal (DBL_MIN/4): one assist per addsd");
	o.a = 3.0;
	TAP_EQ(diff(&SSE, k_addsd, &o), 0, "addsd of normal operands: none");
	o.a = den;
	if (measure(&SSE, k_addsd, &o, N2, &d) && (o.a = 3.0, measure(&SSE, k_addsd, &o, N2, &nd)))
		TAP_EQ(d - nd, N2, "the same loop: denormal run - normal run = N (%d)", N2);
	else
		tap_ok(0, "the same loop: denormal run - normal run = N");
	o.a = 0.0;
	TAP_EQ(diff(&SSE, k_addsd, &o), 0, "addsd of zero: none");
	o.a = den;
	TAP_EQ(diff(&SSE, k_deadsd, &o), DN, "addsd of a denormal whose result is overwritten: counted");
	o.a = 1e-160; o.b = 1e-160;
	TAP_EQ(diff(&SSE, k_mulsd, &o), 0, "mulsd 1e-160 x 1e-160: a denormal output is no input assist");
	o.b = den;
	TAP_EQ(diff(&SSE, k_mulsd, &o), DN, "mulsd by a denormal register operand: one per mulsd");
	o.b = 1.0; o.v[0] = den; o.v[1] = den;
	TAP_EQ(diff(&SSE, k_addpd, &o), DN, "addpd with two denormal lanes: one per instruction");
	o.v[0] = 2.0;
	TAP_EQ(diff(&SSE, k_addpd, &o), DN, "addpd with the high lane denormal: one per instruction");
	o.v[1] = 2.0;
	TAP_EQ(diff(&SSE, k_addpd, &o), 0, "addpd, normal lanes: none");
	o.f[0] = 1.0f; o.f[1] = 2.0f; o.f[2] = FLT_MIN / 8; o.f[3] = 4.0f;
	TAP_EQ(diff(&SSE, k_mulps, &o), DN, "mulps with lane 2 a single denormal: one per mulps");
	o.f[2] = FLT_MIN;
	TAP_EQ(diff(&SSE, k_mulps, &o), 0, "mulps, lane 2 FLT_MIN (normal): none");
	o.a = den;
	TAP_EQ(diff(&SSE, k_cvtsd2ss, &o), DN, "cvtsd2ss of a denormal: one per cvtsd2ss");
	TAP_EQ(diff(&SSE, k_fadd, &o), 0, "x87 fadd of a denormal: no SSE assist");

	/* x87_assist */
	o.a = den;
	TAP_EQ(diff(&PREA, k_fadd, &o), DN, "x87_assist PREA: fadd m64 of a denormal, one per fadd");
	o.a = 3.0;
	TAP_EQ(diff(&PREA, k_fadd, &o), 0, "PREA: fadd m64 of a normal operand: none");
	o.a = den; o.b = 1.0;
	TAP_EQ(diff(&PREA, k_fmul, &o), DN, "PREA: fld m64 of a denormal (fmul by 1 normal): one per iteration");
	TAP_EQ(diff(&PREA, k_addsd, &o), 0, "PREA: SSE addsd of a denormal: none");
	o.a = 1e-160; o.b = 1e-160;
	TAP_EQ(diff(&POAU, k_fmul, &o), DN, "POAU: fmul 1e-160 x 1e-160 (denormal double): one per iteration");
	o.a = 1e-200; o.b = 1e-200;
	TAP_EQ(diff(&POAU, k_fmul, &o), DN, "POAU: fmul 1e-200 x 1e-200 (below the double range): one per iteration");
	TAP_EQ(diff(&PREA, k_fmul, &o), 0, "... PREA 0 (normal inputs)");
	o.a = 3.0; o.b = 5.0;
	TAP_EQ(diff(&POAU, k_fmul, &o), 0, "POAU: fmul 3 x 5: none");
	o.a = big; o.b = big;
	TAP_EQ(diff(&POAO, k_fmul, &o), DN, "POAO: fmul 1e200 x 1e200 (overflow to inf): one per iteration");
	TAP_EQ(diff(&POAU, k_fmul, &o), 0, "... POAU 0");
	o.a = 3.0; o.b = 5.0;
	TAP_EQ(diff(&POAO, k_fmul, &o), 0, "POAO: fmul 3 x 5: none");
	o.a = 1e-40;
	TAP_EQ(diff(&POAU, k_fst32, &o), DN, "POAU: fstp m32 of 1e-40 (a single denormal): one per fstp");
	o.a = 1e39;
	TAP_EQ(diff(&POAO, k_fst32, &o), DN, "POAO: fstp m32 of 1e39 (single overflow): one per fstp");
	o.a = 0.5;
	TAP_EQ(diff(&POAO, k_fst32, &o), 0, "fstp m32 of 0.5: none");
	/* the modelled masks together: PREA (fld of a denormal) + POAU (the product) per iteration */
	o.a = den; o.b = 0.5;
	TAP_EQ(diff(&X87ALL, k_fmul, &o), 2 * DN,
	       "POAO|POAU|PREA: fld m64 of DBL_MIN/4 (PREA) and fmul by 0.5 (POAU): two per iteration");
	/* hardware counts retired x87 instructions: per instruction, not per uop */
	o.a = den; o.b = den;
	if (measure(&X87ALL, k_fmul, &o, N1, &x) && measure(&X87ALL, k_fmul, &o, N2, &y))
		TAP_EQ(y - x, 3 * DN, "fld m64 and fmul m64 of denormals (2 PREA), product 0 (POAU): "
		       "three per iteration");
	else
		tap_ok(0, "fld/fmul of denormals");
	return tap_done_plan();
}
