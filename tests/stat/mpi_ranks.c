/* mpi_ranks: rank r runs ITER*(r+1) packed-single adds (addps), which MPI
 * itself never executes, so each rank's packed_SP_uop count is exact
 * whatever MPI's progress loops do.  Usage: mpi_ranks ITER */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank = 0;
	long n;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	n = (argc > 1 ? atol(argv[1]) : 1000) * (rank + 1);
	__asm__ volatile("1: addps %%xmm1, %%xmm2\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc", "xmm2");
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
