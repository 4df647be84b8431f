/*
 * kern_exec.c - enable_on_exec and events across an exec in nbsim's
 * emulated perf driver, against Linux's semantics (run under nbsim;
 * tests/kern/t_kern_exec.t).  fs/exec.c and kernel/events/core.c as facts: an
 * event whose descriptor survives the exec (not close-on-exec) stays with
 * the task; perf_event_enable_on_exec enables the ones opened disabled
 * with enable_on_exec, once; an enabled event goes on counting; a
 * close-on-exec descriptor's event is released.
 *
 * Three images of this program: A opens the events and execs B; B reads
 * them, opens another enable_on_exec event and execs C.  B and C run the
 * same path from their start to their first read (same argument widths),
 * with loops of N1 and N2: the difference method gives 2 (N2 - N1)
 * exactly.  Under nbsim each image is a new nbsim (--trace-children=yes).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "nbtap.h"

#define RAW(ev, mask) ((uint64_t)(((uint32_t)(ev) << 25) | ((uint32_t)(mask) << 9)) << 32)
#define K_INSTR_RETIRED 38
#define K_BRANCH_RETIRED 41
#define K_UOPS_RETIRED 39
#define N1 20000L
#define N2 50000L

static void __attribute__((noinline)) loop(long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static int open_ev(uint64_t config, int disabled, int on_exec, int cloexec)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = config;
	a.disabled = disabled;
	a.enable_on_exec = on_exec;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, cloexec ? PERF_FLAG_FD_CLOEXEC : 0);
}

struct rv {
	uint64_t v, en;
};

static struct rv rd(int fd)
{
	struct rv r = { ~0ull, ~0ull };

	if (read(fd, &r, sizeof(r)) != sizeof(r))
		r.v = ~0ull;
	return r;
}

/* argv: self, fd, n, mode, then the values passed on (fixed widths) */
static void next_image(const char *self, int fd, long n, const char *mode, uint64_t x, uint64_t y,
		       int fd2)
{
	char a[16], b[16], c[24], d[24], e[16], t[16];
	char *av[] = { (char *)self, a, b, (char *)mode, c, d, e, t, NULL };

	snprintf(a, sizeof(a), "%02d", fd);
	snprintf(b, sizeof(b), "%06ld", n);
	snprintf(c, sizeof(c), "%020llu", (unsigned long long)x);
	snprintf(d, sizeof(d), "%020llu", (unsigned long long)y);
	snprintf(e, sizeof(e), "%02d", fd2);
	snprintf(t, sizeof(t), "%d", tap_n);
	fflush(stdout);
	execv(self, av);
	tap_bail("execv: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	struct rv r1, r2;

	if (argc > 1) {
		/* B and C: the same path up to the read */
		int fd = atoi(argv[1]);
		long n = atol(argv[2]);

		loop(n);
		r1 = rd(fd);
		tap_n = atoi(argv[7]);
		if (!strcmp(argv[3], "B")) {
			int fd3 = atoi(argv[6]), fd4;
			uint64_t before = strtoull(argv[5], NULL, 10);

			tap_ok(r1.v != ~0ull && r1.v > 2 * (uint64_t)n,
			       "enable_on_exec: enabled by the exec, counts the new image (%llu)",
			       (unsigned long long)r1.v);
			r2 = rd(fd3);
			tap_ok(r2.v != ~0ull && r2.v >= before + (uint64_t)n,
			       "an enabled event goes on counting across the exec (%llu before, "
			       "%llu after)", (unsigned long long)before, (unsigned long long)r2.v);
			/* C's event takes the ESCR of FD: the old ones go first */
			close(fd);
			close(fd3);
			fd4 = open_ev(RAW(K_INSTR_RETIRED, 3), 1, 1, 0);
			if (fd4 < 0)
				tap_bail("perf_event_open in B: %s", strerror(errno));
			next_image(argv[0], fd4, N2, "C", r1.v, 0, fd4);
		}
		{
			uint64_t b = strtoull(argv[4], NULL, 10);

			tap_is(r1.v - b, 2 * (N2 - N1), "enable_on_exec, difference method: images of "
			       "%ld and %ld iterations count %llu and %llu", N1, N2,
			       (unsigned long long)b, (unsigned long long)r1.v);
			tap_ok(r1.en > 0, "time enabled runs from the exec (%llu ns)",
			       (unsigned long long)r1.en);
		}
		printf("1..%d\n", tap_n);
		return tap_exit();
	}
	/* A */
	{
		int fd1 = open_ev(RAW(K_INSTR_RETIRED, 3), 1, 1, 0);
		int fd3 = open_ev(RAW(K_BRANCH_RETIRED, 15), 0, 0, 0);
		/* close-on-exec: released by the exec (its ESCR is fd3's: it
		 * would not run anyway) */
		int fdc = open_ev(RAW(K_UOPS_RETIRED, 3), 1, 1, 1);

		if (fd1 < 0 || fd3 < 0 || fdc < 0)
			tap_bail("perf_event_open: %s (run under nbsim)", strerror(errno));
		loop(N1);
		r1 = rd(fd1);
		tap_ok(r1.v == 0 && r1.en == 0, "enable_on_exec: off before the exec (count %llu, "
		       "enabled %llu ns)", (unsigned long long)r1.v, (unsigned long long)r1.en);
		r2 = rd(fd3);
		tap_ok(r2.v >= N1, "an enabled event counts before the exec (%llu)",
		       (unsigned long long)r2.v);
		next_image(argv[0], fd1, N1, "B", 0, r2.v, fd3);
	}
	return 1;
}
