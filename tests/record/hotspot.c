/*
 * hotspot.c - an ordinary program (no nbsim client request, no PAPI) with
 * L1D misses whose places are known, for nb_record (tests/record/t_nb_record.t);
 * run on Northwood (8 KB 4-way L1D: eight lines 8 KB apart share a set
 * and thrash it, every load of them misses and hits the L2).
 *
 *   hotspot sprunt   Sprunt's benchmark (IEEE Micro 2002, seed 000; the
 *                    kernel of sim/tests/guest/t_iebs.c): ITER times 100 hitting
 *                    loads, the chasing load `mov (%rax),%rax` over the
 *                    eight lines (label sprunt_target), 100 hitting loads
 *                    (7 bytes each, from sprunt_after): the only misses
 *                    of the loop are the chasing load's, ITER of them
 *   hotspot two      miss3() chases the eight lines 3 * K times, miss1()
 *                    K times (K = 24000): 72000 and 24000 misses, and a
 *                    cold() loop with none
 *   hotspot rec      walk() calls itself 3 times, then chases K times:
 *                    24000 misses under 4 levels of walk
 *   hotspot clock    miss1() between two readings of CLOCK_MONOTONIC: prints
 *                    the nanoseconds between (the same in every run when
 *                    the program's clocks read simulated time)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ITER 19400               /* 200 samples at a period of 97 */
#define K 24000

/* the hitting loads' lines (heap, 8 KB-aligned: a static array so
 * aligned gives the executable a segment valgrind's debug-info reader
 * does not take, and no symbols) */
static uint64_t *hot;

/* eight 8-byte nodes 8 KB apart in one ring: node i points to node i+1;
 * in a global variable (the data view names it), 8 KB-aligned by hand (an
 * aligned attribute would cost the debug info, above) */
char ringmem[9 * 8192];

static void *ring(void)
{
	char *p = (char *)(((uintptr_t)ringmem + 8191) & ~(uintptr_t)8191);

	for (int i = 0; i < 8; i++)
		*(void **)(p + i * 8192 + 0x7c0) = p + ((i + 1) % 8) * 8192 + 0x7c0;
	return p + 0x7c0;
}

__attribute__((noinline)) void *sprunt(void *p, uint64_t n)
{
	__asm__ volatile(
		"1:\n\t"
		".set off, 128\n\t"
		".rept 100\n\t"
		"mov off(%%rsi), %%rdx\n\t"
		".set off, off + 8\n\t"
		".endr\n\t"
		".globl sprunt_target\n"
		"sprunt_target:\n\t"
		"mov (%%rax), %%rax\n\t"
		".globl sprunt_after\n"
		"sprunt_after:\n\t"
		".rept 100\n\t"
		"mov off(%%rsi), %%rdx\n\t"
		".set off, off + 8\n\t"
		".endr\n\t"
		"dec %%rcx\n\t"
		"jnz 1b\n\t"
		: "+a"(p), "+c"(n)
		: "S"(hot)
		: "rdx", "memory", "cc");
	return p;
}

/* read the hitting loads' lines once, so that in sprunt() they hit from
 * the first iteration on (the L1D does not allocate on the stores that
 * zeroed them): its misses are then the chasing load's only */
static __attribute__((noinline)) uint64_t warm(void)
{
	uint64_t s = 0;

	for (int i = 0; i < 8192 / 8; i += 8)
		s += ((volatile uint64_t *)hot)[i];
	return s;
}

static __attribute__((noinline)) void *chase(void *p, uint64_t n)
{
	__asm__ volatile("1:\n\tmov (%%rax), %%rax\n\tdec %%rcx\n\tjnz 1b"
			 : "+a"(p), "+c"(n) : : "memory", "cc");
	return p;
}

/* the tagged loads of each are its chase's: 3 K and K */
__attribute__((noinline)) void *miss3(void *p)
{
	return chase(p, 3 * K);
}

__attribute__((noinline)) void *miss1(void *p)
{
	return chase(p, K);
}

__attribute__((noinline)) void *walk(void *p, int depth)
{
	void *q = depth ? walk(p, depth - 1) : chase(p, K);

	__asm__ volatile("" : : : "memory");     /* no tail call */
	return q;
}

__attribute__((noinline)) uint64_t cold(uint64_t n)
{
	uint64_t s = 1;

	for (uint64_t i = 0; i < n; i++)
		s = s * 6364136223846793005u + i;
	return s;
}

int main(int argc, char **argv)
{
	void *p = ring();

	hot = aligned_alloc(8192, 8192);
	if (!hot)
		abort();
	memset(hot, 0, 8192);

	if (argc == 2 && !strcmp(argv[1], "sprunt")) {
		/* cold() between: an IEBS sample of a miss before the loop lands
		 * within the skid (78 instructions at most), in cold(), not in
		 * sprunt() */
		if (warm() + (cold(1000) == 0))
			abort();
		p = sprunt(p, ITER);
	} else if (argc == 2 && !strcmp(argv[1], "rec")) {
		p = walk(p, 3);
	} else if (argc == 2 && !strcmp(argv[1], "clock")) {
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		p = miss1(p);
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("ns %lld\n", (long long)(b.tv_sec - a.tv_sec) * 1000000000LL +
		       (b.tv_nsec - a.tv_nsec));
	} else if (argc == 2 && !strcmp(argv[1], "two")) {
		p = miss3(p);
		p = miss1(p);
		printf("%llu\n", (unsigned long long)cold(100000));
	} else {
		fprintf(stderr, "usage: hotspot sprunt|two|rec|clock\n");
		return 2;
	}
	printf("%p\n", p);
	return 0;
}
