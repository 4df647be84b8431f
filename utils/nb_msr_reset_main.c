/*
 * nb_msr_reset - put the NetBurst PMU of every CPU back to its power-on
 * state through the msr driver: every CCCR (Enable and all), every ESCR,
 * IA32_PEBS_ENABLE, MSR_PEBS_MATRIX_VERT and the other writable PMU MSRs
 * at 0 (nb_msr_clear, backend_msr.c).
 *
 * The msr backend puts back what it found when the counting program
 * stops, exits, crashes or dies of a signal it can catch; what no code of
 * the program sees, _exit(2) and SIGKILL, leaves the counters configured
 * and counting for whatever runs next on the CPU.  This is the reset for
 * that case (root or CAP_SYS_RAWIO, `modprobe msr`; P4NETBURST_MSR_DEV as
 * for the backend).  It refuses a CPU that is not a NetBurst: the same
 * addresses are other registers there.
 * Exit: 0 reset (or nothing to reset), 1 a device failed, 2 usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "nb_backend.h"
#include "backend_msr.h"

int main(int argc, char **argv)
{
	struct nb_cpu cpu;
	char why[512];
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int bad = 0, seen = 0;

	if (argc > 1) {
		int help = !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help");

		fprintf(help ? stdout : stderr,
			"usage: nb_msr_reset\n"
			"Put every CCCR, ESCR and PEBS MSR of the NetBurst PMU of every CPU back to\n"
			"0, its power-on value, through /dev/cpu/N/msr: what a counting program\n"
			"ended by _exit() or SIGKILL left.  exit status: 0 done, 1 a CPU failed, 2 usage\n");
		return help ? 0 : 2;
	}
	if (nb_native_cpu(&cpu, why, sizeof(why))) {
		fprintf(stderr, "nb_msr_reset: %s: not resetting (these MSR addresses are other "
			"registers on other CPUs)\n", why);
		return 1;
	}
	for (int c = 0; c < (ncpu > 0 ? ncpu : 1); c++) {
		char path[256], err[256];
		int fd, n;

		if (nb_msr_dev_path(c, path, sizeof(path), err, sizeof(err))) {
			fprintf(stderr, "nb_msr_reset: %s\n", err);
			return 1;
		}
		fd = nb_msr_sys.open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT && seen)
			continue;          /* a CPU the driver (or the model) lacks */
		if (fd < 0) {
			fprintf(stderr, "nb_msr_reset: cannot open %s: %s%s\n", path, strerror(errno),
				errno == ENOENT ? " (load the msr driver: modprobe msr)" :
				errno == EACCES || errno == EPERM ? " (needs root or CAP_SYS_RAWIO)" : "");
			return 1;
		}
		seen = 1;
		n = nb_msr_clear(fd, err, sizeof(err));
		nb_msr_sys.close(fd);
		if (n < 0) {
			fprintf(stderr, "nb_msr_reset: CPU %d: %s\n", c, err);
			bad = 1;
			continue;
		}
		printf("cpu %d: %d PMU register%s cleared\n", c, n, n == 1 ? "" : "s");
	}
	return bad;
}
