/*
 * nb_cpu.h - the modelled NetBurst parts: identification (CPUID) and the
 * parameters of the timing and branch models.  Pure module (no libc, no
 * valgrind): used by the tool and by the native tests.
 */
#ifndef NB_CPU_H
#define NB_CPU_H

#include <stdint.h>

struct nb_cpu_model {
	const char *name;        /* --model= name                              */
	const char *desc;
	unsigned model;          /* CPUID family-15 model                      */
	unsigned stepping;
	unsigned mhz;            /* nominal clock                              */
	const char *brand;       /* CPUID brand string (without leading pad)   */
	unsigned em64t;          /* the real part has EM64T (long mode)        */
	unsigned sse3;           /* SSE3 (Prescott and later)                  */
	unsigned max_leaf;       /* CPUID.0:EAX                                */
	unsigned max_ext_leaf;   /* CPUID.80000000h:EAX                        */
	uint32_t leaf2[4];       /* CPUID.2 EAX..EDX cache/TLB descriptors     */
	unsigned l1d_kb, l2_kb, l3_kb;
	/* timing model */
	unsigned retire_width;   /* uops retired per cycle                     */
	unsigned mispredict_penalty; /* cycles lost per mispredicted branch    */
	unsigned ms_uops;        /* uops of a microcoded instruction           */
	/* branch model */
	unsigned btb_entries;    /* power of two                               */
	unsigned rsb_entries;    /* return stack buffer                        */
};

extern const struct nb_cpu_model nb_cpu_models[];
extern const unsigned nb_num_cpu_models;
#define NB_CPU_DEFAULT "prescott"

/* Model by name, or 0. */
const struct nb_cpu_model *nb_cpu_find(const char *name);

/* CPUID as the modelled part answers it (leaf in EAX, subleaf in ECX).
 * ht: Hyper-Threading modelled (two logical processors); lp: the logical
 * processor asking (its initial APIC ID). */
void nb_cpuid(const struct nb_cpu_model *m, int ht, unsigned lp, uint32_t leaf, uint32_t sub,
	      uint32_t out[4]);

#endif /* NB_CPU_H */
