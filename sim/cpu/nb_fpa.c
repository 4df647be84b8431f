/*
 * nb_fpa.c - floating-point assist rules (nb_fpa.h, README "FP assists").
 * Pure module (no libc, no valgrind).
 */
#include "nb_fpa.h"

/* single: 1 sign, 8 exponent, 23 fraction bits; double: 1, 11, 52
 * [SDM Vol. 1 4.2.2 Table 4-3] */
const struct nb_fpa_fmt nb_fpa_f32 = { 0x7fffffffu, 0x7f800000u, 0x007fffffu };
const struct nb_fpa_fmt nb_fpa_f64 = {
	UINT64_C(0x7fffffffffffffff), UINT64_C(0x7ff0000000000000), UINT64_C(0x000fffffffffffff)
};

unsigned nb_fpa_x87_out(unsigned op, uint64_t a, uint64_t b, uint64_t r)
{
	const struct nb_fpa_fmt *d = &nb_fpa_f64;
	const struct nb_fpa_fmt *o = op == NB_FPA_CVT ? &nb_fpa_f32 : d;
	unsigned m = 0;
	int ovf = 0, lost = 0;

	switch (op) {
	case NB_FPA_ADD: case NB_FPA_SUB:
		ovf = nb_fpa_finite(d, a) && nb_fpa_finite(d, b);
		break;
	case NB_FPA_MUL:
		ovf = nb_fpa_finite(d, a) && nb_fpa_finite(d, b);
		lost = nb_fpa_nzfinite(d, a) && nb_fpa_nzfinite(d, b);
		break;
	case NB_FPA_DIV:
		ovf = nb_fpa_finite(d, a) && nb_fpa_nzfinite(d, b);
		lost = nb_fpa_nzfinite(d, a) && nb_fpa_finite(d, b);
		break;
	case NB_FPA_CVT:
		ovf = nb_fpa_finite(d, a);
		lost = nb_fpa_nzfinite(d, a);
		break;
	default:           /* NB_FPA_SQRT: never overflows nor underflows */
		return 0;
	}
	if (ovf && nb_fpa_infinite(o, r))
		m |= NB_FPA_POAO;
	if (nb_fpa_denormal(o, r) || (lost && nb_fpa_zero(o, r)))
		m |= NB_FPA_POAU;
	return m;
}

int nb_fpa_is_x87(const uint8_t *code, unsigned len, unsigned len_prefix)
{
	return len_prefix < len && (code[len_prefix] & 0xf8) == 0xd8;
}
