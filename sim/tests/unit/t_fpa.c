/*
 * t_fpa.c - native unit test of the FP assist rules (nb_fpa.c) (TAP).
 */
#include <string.h>
#include <float.h>
#include <math.h>
#include "cpu/nb_fpa.h"
#include "tap.h"

static uint64_t d(double x) { uint64_t b; memcpy(&b, &x, 8); return b; }
static uint64_t f(float x) { uint32_t b; memcpy(&b, &x, 4); return b; }

/* the output rule on what the host computes */
static unsigned out(unsigned op, double a, double b)
{
	volatile double va = a, vb = b;
	double r = op == NB_FPA_ADD ? va + vb : op == NB_FPA_SUB ? va - vb :
		op == NB_FPA_MUL ? va * vb : op == NB_FPA_DIV ? va / vb : va;  /* sqrt: r unused */
	if (op == NB_FPA_CVT)
		return nb_fpa_x87_out(op, d(a), 0, f((float)va));
	return nb_fpa_x87_out(op, d(a), d(b), d(r));
}

int main(void)
{
	const struct nb_fpa_fmt *D = &nb_fpa_f64, *F = &nb_fpa_f32;
	static const uint8_t fadd[] = { 0xdc, 0x05, 0, 0, 0, 0 };
	static const uint8_t rex_fld[] = { 0x41, 0xdd, 0x00 };
	static const uint8_t addsd[] = { 0xf2, 0x0f, 0x58, 0xc0 };

	tap_plan(30);
	/* classification, double */
	tap_ok(nb_fpa_denormal(D, d(DBL_MIN / 2)) && nb_fpa_denormal(D, d(-DBL_MIN / 4)),
	       "double: DBL_MIN/2, -DBL_MIN/4 are denormal");
	tap_ok(nb_fpa_denormal(D, 1) && nb_fpa_denormal(D, D->mant),
	       "double: smallest and largest denormal bit patterns");
	tap_ok(!nb_fpa_denormal(D, d(DBL_MIN)) && !nb_fpa_denormal(D, d(0.0)) &&
	       !nb_fpa_denormal(D, d(-0.0)), "double: DBL_MIN, +0, -0 are not denormal");
	tap_ok(!nb_fpa_denormal(D, d(INFINITY)) && !nb_fpa_denormal(D, d(NAN)) &&
	       !nb_fpa_denormal(D, d(1.0)), "double: inf, NaN, 1.0 are not denormal");
	tap_ok(nb_fpa_infinite(D, d(-INFINITY)) && !nb_fpa_finite(D, d(NAN)) &&
	       nb_fpa_finite(D, d(DBL_MAX)), "double: -inf infinite, NaN not finite, DBL_MAX finite");
	tap_ok(nb_fpa_nzfinite(D, d(DBL_MAX)) && nb_fpa_nzfinite(D, d(-DBL_MIN / 2)) &&
	       !nb_fpa_nzfinite(D, d(-0.0)) && !nb_fpa_nzfinite(D, d(INFINITY)),
	       "double: nonzero finite");
	/* classification, single */
	tap_ok(nb_fpa_denormal(F, f(FLT_MIN / 2)) && !nb_fpa_denormal(F, f(FLT_MIN)) &&
	       !nb_fpa_denormal(F, f(0.0f)), "single: FLT_MIN/2 denormal, FLT_MIN and 0 not");
	tap_ok(nb_fpa_infinite(F, f(INFINITY)) && !nb_fpa_denormal(F, f(NAN)),
	       "single: inf infinite, NaN not denormal");
	tap_ok(nb_fpa_denormal(F, F->mant) && !nb_fpa_denormal(F, 0x00800000u) && nb_fpa_denormal(F, 0x80000001u),
	       "single: largest denormal pattern, smallest normal, -smallest denormal");
	tap_ok(nb_fpa_denormal(D, d(FLT_MIN / 2)) == 0,
	       "a single denormal is a normal double (cvtss2sd, fld m32 inputs are checked as singles)");
	/* x87 output rule */
	TAP_EQ(out(NB_FPA_MUL, 1e-160, 1e-160), NB_FPA_POAU, "mul 1e-160 x 1e-160: denormal: POAU");
	TAP_EQ(out(NB_FPA_MUL, 1e-200, 1e-200), NB_FPA_POAU, "mul 1e-200 x 1e-200: lost to 0: POAU");
	TAP_EQ(out(NB_FPA_MUL, 1e200, 1e200), NB_FPA_POAO, "mul 1e200 x 1e200: inf: POAO");
	TAP_EQ(out(NB_FPA_MUL, 0.0, 5.0), 0, "mul 0 x 5: exact 0: none");
	TAP_EQ(out(NB_FPA_MUL, INFINITY, 5.0), 0, "mul inf x 5: inf from inf: none");
	TAP_EQ(out(NB_FPA_MUL, 3.0, 5.0), 0, "mul 3 x 5: none");
	TAP_EQ(out(NB_FPA_DIV, 1.0, 0.0), 0, "div 1 / 0: zero divide, not overflow: none");
	TAP_EQ(out(NB_FPA_DIV, 1e300, 1e-300), NB_FPA_POAO, "div 1e300 / 1e-300: POAO");
	TAP_EQ(out(NB_FPA_DIV, 1e-300, 1e300), NB_FPA_POAU, "div 1e-300 / 1e300: POAU");
	TAP_EQ(out(NB_FPA_DIV, 1.0, INFINITY), 0, "div 1 / inf: exact 0: none");
	TAP_EQ(out(NB_FPA_ADD, DBL_MAX, DBL_MAX), NB_FPA_POAO, "add DBL_MAX + DBL_MAX: POAO");
	TAP_EQ(out(NB_FPA_SUB, 3 * DBL_MIN / 2, DBL_MIN), NB_FPA_POAU,
	       "sub 1.5 DBL_MIN - DBL_MIN: denormal: POAU");
	TAP_EQ(out(NB_FPA_SUB, 1.0, 1.0), 0, "sub 1 - 1: exact 0: none");
	TAP_EQ(out(NB_FPA_SQRT, DBL_MIN / 2, 0), 0, "sqrt: never an output assist");
	TAP_EQ(out(NB_FPA_CVT, 1e-40, 0), NB_FPA_POAU, "double 1e-40 to single: denormal: POAU");
	TAP_EQ(out(NB_FPA_CVT, 1e-50, 0), NB_FPA_POAU, "double 1e-50 to single: lost to 0: POAU");
	TAP_EQ(out(NB_FPA_CVT, 1e39, 0), NB_FPA_POAO, "double 1e39 to single: inf: POAO");
	TAP_EQ(out(NB_FPA_CVT, 1.5, 0), 0, "double 1.5 to single: none");
	/* x87 opcodes */
	tap_ok(nb_fpa_is_x87(fadd, sizeof fadd, 0) && nb_fpa_is_x87(rex_fld, sizeof rex_fld, 1),
	       "fadd m64, REX fld: x87");
	tap_ok(!nb_fpa_is_x87(addsd, sizeof addsd, 1) && !nb_fpa_is_x87(fadd, 1, 1),
	       "addsd: not x87; opcode past the end: not x87");
	return tap_fail != 0;
}
