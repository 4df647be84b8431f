/*
 * nb_uops.h - the uops of the MMX, SSE, SSE2 and SSE3 instructions as
 * measured on a Prescott-class part (family 15, models 3, 4 and 6), per
 * instruction form: the uop model's general rule (C + L + 2 S, README
 * "uop model") counts a 128-bit operation, a conversion or a shuffle as
 * one uop, the part retires several for some.  Data: nb_uops.c cites the
 * row of each entry.  Pure module (no libc, no valgrind).
 */
#ifndef NB_UOPS_H
#define NB_UOPS_H

#include <stdint.h>

/* Does the model of CPUID family-15 model `model` follow the measured
 * table?  The table is Prescott's (model 4); models 3 and 6 have the same
 * core (Agner Fog: "Timings for model 3 may be more like the values for
 * P4E").  Models 0-2 keep the general rule (their sheet is not tabled). */
static inline int nb_uops_apply(unsigned model)
{
	return model >= 3;
}

/* The measured uops (decoder uops + microcode uops) of the instruction at
 * c[0..len) into *uops: 1, or 0 if the table has no row for its form
 * (the general rule stands). */
int nb_uops_measured(const uint8_t *c, unsigned len, unsigned *uops);

#endif /* NB_UOPS_H */
