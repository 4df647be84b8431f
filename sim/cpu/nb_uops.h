/*
 * nb_uops.h - the uops of the MMX, SSE, SSE2 and SSE3 instructions as
 * measured on the two NetBurst cores, per instruction form: the uop
 * model's general rule (C + L + 2 S, docs/counting-rules.md "uop model")
 * counts a 128-bit operation, a conversion or a shuffle as one uop, the
 * parts retire several for some.  Data: nb_uops.c cites the row of each
 * entry.  Pure module (no libc, no valgrind).
 */
#ifndef NB_UOPS_H
#define NB_UOPS_H

#include <stdint.h>

/* Agner Fog's two NetBurst sheets: "Intel Pentium 4" (measured on a model
 * 2 part) and "Intel Pentium 4 w. EM64T (Prescott)" (model 4). */
enum nb_uops_sheet { NB_UOPS_P4 = 0, NB_UOPS_P4E = 1, NB_UOPS_NSHEETS = 2 };

/* The sheet of the model of CPUID family-15 model `model`: models 0-2
 * (Willamette, Northwood, Gallatin) are the core Agner measured as model
 * 2; models 3, 4 and 6 Prescott's ("Timings for model 3 may be more like
 * the values for P4E", the P4 sheet's preamble). */
static inline enum nb_uops_sheet nb_uops_sheet(unsigned model)
{
	return model >= 3 ? NB_UOPS_P4E : NB_UOPS_P4;
}

/* The measured uops (decoder uops + microcode uops) on sheet `sh` of the
 * instruction at c[0..len) into *uops: 1, or 0 if the sheet has no row
 * for its form (the general rule stands). */
int nb_uops_measured(enum nb_uops_sheet sh, const uint8_t *c, unsigned len,
		     unsigned *uops);

#endif /* NB_UOPS_H */
