/*
 * tp_ctest.c - PAPI's ctest `burn` with a fixed amount of work, for the
 * bench's third-party section (sim/bench/thirdparty.sh).  burn runs
 * PAPI's testlib loops (do_flops, do_reads, do_misses) for 2 seconds of
 * wall-clock time, so each tool would run another amount of work; this
 * runs the same loop body, from the same testlib object, N times.
 *
 *   tp_ctest [N]
 */
#include <stdlib.h>
#include "do_loops.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;

	for (int i = 0; i < n; i++) {
		do_flops(NUM_FLOPS);
		do_reads(NUM_READS);
		do_misses(1, 1024 * 1024);
	}
	return 0;
}
