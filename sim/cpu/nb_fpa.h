/*
 * nb_fpa.h - floating-point assists (README "FP assists"): classification
 * of IEEE-754 single/double values and the rules that make an instruction
 * need a microcode assist.  Pure module (no libc, no valgrind).
 *
 * nb_instr.c checks SSE operands inline in IR with the same masks and
 * formulas (nb_fpa_denormal: (|x| - 1) < mant, unsigned); the x87 output
 * rule runs as a clean helper calling nb_fpa_x87_out.
 */
#ifndef NB_FPA_H
#define NB_FPA_H

#include <stdint.h>

/* An IEEE-754 binary format, its bit pattern in the low bits of a
 * uint64_t [IEEE 754-1985 sec. 3; SDM Vol. 1 4.2.2, Table 4-3]. */
struct nb_fpa_fmt {
	uint64_t abs;      /* all bits but the sign                         */
	uint64_t inf;      /* exponent all ones, fraction 0: +infinity      */
	uint64_t mant;     /* fraction field                                */
};
extern const struct nb_fpa_fmt nb_fpa_f32, nb_fpa_f64;

/* Denormal: exponent field 0, fraction not 0 [SDM Vol. 1 4.8.3.2]. */
static inline int nb_fpa_denormal(const struct nb_fpa_fmt *f, uint64_t x)
{
	return ((x & f->abs) - 1) < f->mant;
}
static inline int nb_fpa_zero(const struct nb_fpa_fmt *f, uint64_t x)
{
	return (x & f->abs) == 0;
}
static inline int nb_fpa_finite(const struct nb_fpa_fmt *f, uint64_t x)
{
	return (x & f->abs) < f->inf;
}
static inline int nb_fpa_infinite(const struct nb_fpa_fmt *f, uint64_t x)
{
	return (x & f->abs) == f->inf;
}
/* finite and not zero */
static inline int nb_fpa_nzfinite(const struct nb_fpa_fmt *f, uint64_t x)
{
	return ((x & f->abs) - 1) < f->inf - 1;
}

/* x87_assist mask bits [events.txt: x87_assist; SDM at-retirement events
 * table]: FPSU 0, FPSO 1, POAO 2 (output overflow), POAU 3 (output
 * underflow), PREA 4 (input assist). */
#define NB_FPA_FPSU 0x01u
#define NB_FPA_FPSO 0x02u
#define NB_FPA_POAO 0x04u
#define NB_FPA_POAU 0x08u
#define NB_FPA_PREA 0x10u

/* x87 operations whose result nbsim checks (README "FP assists") */
enum nb_fpa_op {
	NB_FPA_ADD, NB_FPA_SUB, NB_FPA_MUL, NB_FPA_DIV,
	NB_FPA_SQRT,       /* a only                                         */
	NB_FPA_CVT,        /* double a to single r (fst/fstp m32)            */
	NB_FPA_NOPS
};

/*
 * The output assists of one x87 operation r = a op b (doubles; r single
 * for NB_FPA_CVT): POAO when r is infinite from finite operands (a
 * division by a nonzero divisor: x/0 is the zero-divide exception, not an
 * overflow), POAU when r is denormal, or zero although the exact result is
 * not (a product of nonzero finite operands, a quotient of a nonzero
 * finite dividend by a finite divisor, a nonzero conversion) [SDM Vol. 1
 * 4.9.1.4 numeric overflow, 4.9.1.5 numeric underflow].  Returns
 * NB_FPA_POAO / NB_FPA_POAU bits.
 */
unsigned nb_fpa_x87_out(unsigned op, uint64_t a, uint64_t b, uint64_t r);

/* Is the instruction at code (len bytes, prefixes including REX first)
 * an x87 instruction (opcode D8-DF) [SDM Vol. 2 Appendix A.4]? */
int nb_fpa_is_x87(const uint8_t *code, unsigned len, unsigned len_prefix);

#endif /* NB_FPA_H */
