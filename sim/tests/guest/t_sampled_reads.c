/*
 * t_sampled_reads.c - t_sampled.c's workload with a read(2) every 200
 * iterations of its kernel (t_sampled.sh: the emulated kernel's
 * bookkeeping after each read does not anchor the sampled clock).
 */
#define T_SAMPLED_READS 1
#include "t_sampled.c"
