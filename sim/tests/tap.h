/* tap.h - minimal TAP producer for the nbsim tests. */
#ifndef NB_TAP_H
#define NB_TAP_H

#include <stdio.h>
#include <stdarg.h>
#include <stdint.h>

static int tap_n, tap_fail;

static inline void tap_plan(int n) { printf("1..%d\n", n); fflush(stdout); }

static inline int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_fail++;
	return cond;
}

static void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

#define TAP_EQ(got, want, ...) do { \
	uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
	if (!tap_ok(g_ == w_, __VA_ARGS__)) \
		tap_diag("  got %llu (%#llx), want %llu (%#llx)", \
			 (unsigned long long)g_, (unsigned long long)g_, \
			 (unsigned long long)w_, (unsigned long long)w_); \
} while (0)

/* A check not yet expected to pass: TAP "# TODO REASON"; a failure does
 * not fail the test file (prove reports it as a TODO, and a pass as
 * "unexpectedly succeeded"). */
#define TAP_EQ_TODO(reason, got, want, desc) do { \
	uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
	printf("%sok %d - %s # TODO %s\n", g_ == w_ ? "" : "not ", ++tap_n, (desc), (reason)); \
	if (g_ != w_) \
		tap_diag("  got %llu, want %llu", (unsigned long long)g_, (unsigned long long)w_); \
	fflush(stdout); \
} while (0)

/* tap_ok's TODO form: a condition not yet expected to hold */
static inline void tap_ok_todo(int cond, const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void tap_ok_todo(int cond, const char *reason, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # TODO %s\n", reason);
	fflush(stdout);
}

static inline int tap_done(void) { return tap_fail ? 1 : 0; }

/* Trailing plan: print "1..N" after the tests, then exit status. */
static inline int tap_done_plan(void)
{
	printf("1..%d\n", tap_n);
	return tap_done();
}

#endif
