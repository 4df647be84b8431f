/*
 * cg_prog.c - guest programs for the cachegrind comparison (t_cachegrind.sh).
 *
 *   cg_prog PROGRAM REPS
 *
 * PROGRAM: stride  reads a 2 MB array with a 64-byte stride, writes a 512 KB
 *                  array with a 32-byte stride
 *          random  loads and stores at LCG-random indices of a 4 MB array
 *          chase   pointer chasing through a random cyclic permutation of
 *                  256K 8-byte nodes (2 MB), 2^20 steps
 *          matmul  double matrix multiply, 96 x 96 (3 x 72 KB), ijk
 * The kernel runs REPS times after the same set-up, so the difference of two
 * runs at different REPS is the kernel's alone.  Static, page-aligned
 * arrays (global, so the compiler cannot fold them): the same addresses
 * under every tool.  The kernels contain no
 * read-modify-write memory instructions (cachegrind merges those into one
 * "modify" access; nbsim models a load and a store).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "randcycle.h"

#define ALIGN __attribute__((aligned(4096)))
double big[(2u << 20) / 8] ALIGN;
double out[(512u << 10) / 8] ALIGN;
uint32_t arr[(4u << 20) / 4] ALIGN;
uint64_t nodes[(2u << 20) / 8] ALIGN;
char flushbuf[4u << 20] ALIGN;
#define MN 96
double A[MN][MN] ALIGN, B[MN][MN] ALIGN, C[MN][MN] ALIGN;

static volatile uint64_t sink;

/* one load per line of 4 MB never used elsewhere: every load misses every
 * level whatever the state, and afterwards the caches hold only flushbuf.
 * Run before and after the kernels, it makes the kernels start from the
 * same state in every run and under every tool, and makes the exit path
 * independent of where the kernels left the caches (cachegrind's LL also
 * holds instruction lines, nbsim's L2 does not). */
static __attribute__((noinline)) void flush(void)
{
	uint64_t s = 0;
	for (size_t i = 0; i < sizeof flushbuf; i += 64)
		s += (unsigned char)flushbuf[i];
	sink = s;
}

static __attribute__((noinline)) void k_stride(void)
{
	double s = 0;
	for (size_t i = 0; i < sizeof big / sizeof big[0]; i += 8)
		s += big[i];
	for (size_t i = 0; i < sizeof out / sizeof out[0]; i += 4)
		out[i] = s;
	sink = (uint64_t)s;
}

static __attribute__((noinline)) void k_random(void)
{
	static uint64_t x = 12345;
	const size_t n = sizeof arr / sizeof arr[0];
	uint32_t v = 0;
	for (unsigned it = 0; it < 200000; it++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		v ^= arr[(x >> 20) % n];
		arr[(x >> 40) % n] = v;
	}
	sink = v;
}

static __attribute__((noinline)) void k_chase(void)
{
	uint64_t p = 0;
	for (unsigned it = 0; it < (1u << 20); it++)
		p = nodes[p];
	sink = p;
}

static __attribute__((noinline)) void k_matmul(void)
{
	for (int i = 0; i < MN; i++)
		for (int j = 0; j < MN; j++) {
			double s = 0;
			for (int k = 0; k < MN; k++)
				s += A[i][k] * B[k][j];
			C[i][j] = s;
		}
	sink = (uint64_t)C[MN - 1][MN - 1];
}

int main(int argc, char **argv)
{
	const char *p = argc > 1 ? argv[1] : "";
	int reps = argc > 2 ? atoi(argv[2]) : 1;
	void (*k)(void);

	if (!strcmp(p, "stride")) {
		k = k_stride;
	} else if (!strcmp(p, "random")) {
		k = k_random;
	} else if (!strcmp(p, "chase")) {
		const uint32_t n = sizeof nodes / sizeof nodes[0];
		uint32_t *perm = malloc(n * sizeof *perm);
		if (!perm)
			return 1;
		nb_random_order(perm, n, 7);
		for (uint32_t i = 0; i < n; i++)
			nodes[perm[i]] = perm[(i + 1) % n];
		free(perm);
		k = k_chase;
	} else if (!strcmp(p, "matmul")) {
		for (int i = 0; i < MN; i++)
			for (int j = 0; j < MN; j++) {
				A[i][j] = i + j;
				B[i][j] = i - j;
			}
		k = k_matmul;
	} else {
		fprintf(stderr, "cg_prog: unknown program '%s' (stride random chase matmul)\n", p);
		return 2;
	}
	flush();
	for (int r = 0; r < reps; r++)
		k();
	flush();
	printf("%s %d %llu\n", p, reps, (unsigned long long)sink);
	return 0;
}
