/*
 * chase.h - the pointer chase of the PEBS tests (pebs_overflow,
 * ht_overflow): a ring of 1024 pointers 64 bytes apart in 64 KB, so that
 * under nbsim every load of the chase misses the 16 KB L1D, and a chase
 * function whose one load carries a global label (the address PEBS
 * samples must give).
 */
#ifndef NB_CHASE_H
#define NB_CHASE_H

#include <stdlib.h>

/* a ring in a fresh 64 KB buffer; NULL if out of memory */
static inline char *chase_ring(void)
{
	char *b = aligned_alloc(4096, 65536);

	if (b)
		for (unsigned i = 0; i < 1024; i++)
			*(void **)(b + i * 64) = b + ((i + 1) % 1024) * 64;
	return b;
}

/* static void NAME(void *p, long n): n dependent loads from p; the load
 * is at the global label LABEL (declare it: extern char LABEL[];) */
#define CHASE_FN(name, label)							\
	static __attribute__((noinline)) void name(void *p, long n)		\
	{									\
		__asm__ volatile("1:\n\t"					\
				 #label ":\n\t"					\
				 "mov (%%rax), %%rax\n\t"			\
				 "dec %[n]\n\t"					\
				 "jnz 1b\n\t"					\
				 : "+a"(p), [n] "+r"(n) : : "memory", "cc");	\
	}

#endif /* NB_CHASE_H */
