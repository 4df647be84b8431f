/*
 * nbtap.h - TAP for our PAPI-level C tests: the project's TAP producer
 * (sim/tests/tap.h) plus what these tests need beyond it.
 */
#ifndef NBTAP_H
#define NBTAP_H

#include <stdlib.h>
#include "../sim/tests/tap.h"

/* Equality of two signed 64-bit counts (differences may be negative). */
#define tap_is(got, want, ...)                                              \
	do {                                                                \
		long long g_ = (long long)(got), w_ = (long long)(want);    \
		if (!tap_ok(g_ == w_, __VA_ARGS__))                         \
			tap_diag("  got %lld, expected %lld", g_, w_);        \
	} while (0)

static inline void tap_bail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_bail(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(1);
}

static inline int tap_exit(void) { return tap_done(); }

#endif
