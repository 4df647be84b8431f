/*
 * tp_omp.c - an OpenMP program for the bench's third-party section
 * (sim/bench/thirdparty.sh): two threads (OMP_NUM_THREADS=2) share a
 * stencil sweep and a reduction, so the tools run both threads and
 * libgomp's barriers.  Prints the sum so that nothing is optimised away.
 *
 *   tp_omp [N [SWEEPS]]
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	int sweeps = argc > 2 ? atoi(argv[2]) : 40;
	double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
	double sum = 0;

	if (!a || !b || n < 3)
		return 1;
	for (long i = 0; i < n; i++)
		a[i] = (double)(i % 97);
	for (int s = 0; s < sweeps; s++) {
#pragma omp parallel for schedule(static)
		for (long i = 1; i < n - 1; i++)
			b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
		for (long i = 1; i < n - 1; i++) {
			a[i] = b[i];
			sum += b[i];
		}
	}
	printf("%.6g\n", sum);
	free(a);
	free(b);
	return 0;
}
