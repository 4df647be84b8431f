/*
 * nb_pdrules.h - the counting rules measured on a Pentium D (family 15,
 * model 6) by V. Weaver: instructions that INSTR_RETIRED counts twice,
 * instructions whose load or store uops the front-end tagging counts more
 * than once (or not at all), REP MOVS / REP STOS counted by blocks, and
 * `syscall` counted as a retired branch.
 * docs/counting-rules.md "Pentium D counting rules" cites each row.
 * Pure module (no libc, no valgrind).
 */
#ifndef NB_PDRULES_H
#define NB_PDRULES_H

#include <stdint.h>

#define NB_PD_KEEP 0xffffu      /* loads/stores: the IR's count stands */

struct nb_pd_adj {
	uint8_t extra_ins;      /* INSTR_RETIRED counts 1 + extra_ins     */
	uint8_t branch;         /* a retired branch (taken) with no branch */
				/* model of its own: syscall, sysenter    */
	uint16_t loads;         /* load uops, or NB_PD_KEEP               */
	uint16_t stores;        /* store uops, or NB_PD_KEEP              */
	uint8_t rep;            /* REP MOVS / REP STOS: the element size  */
				/* (1, 2, 4, 8); their loads and stores   */
				/* per execution are nb_pd_rep's          */
	uint8_t rep_movs;       /* ... 1 for MOVS, 0 for STOS             */
};

/* The load and store uops the Pentium D counts for one execution of REP
 * MOVS (movs != 0) or REP STOS with element size z (1, 2, 4, 8), RCX = n
 * at its start, backward (DF = 1) or not. */
void nb_pd_rep(int movs, unsigned z, uint64_t n, int backward, uint64_t *loads,
	       uint64_t *stores);

/* Does the model of CPUID family-15 model `model` follow these rules?
 * Only the measured part's: model 6 (Cedar Mill / Presler). */
static inline int nb_pd_rules_apply(unsigned model)
{
	return model == 6;
}

/* The rules for the instruction at c[0..len); 0 if none applies (then
 * *a is { 0, 0, KEEP, KEEP }). */
int nb_pd_rules(const uint8_t *c, unsigned len, struct nb_pd_adj *a);

#endif /* NB_PDRULES_H */
