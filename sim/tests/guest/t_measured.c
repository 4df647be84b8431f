/*
 * t_measured.c - the timing model against latencies measured on real
 * parts (TAP); run by t_measured.sh as `nbsim --model=M -- t_measured M`,
 * M = northwood, prescott, willamette or cedarmill.
 *
 * Each row is a dependent chain (every instruction needs the previous
 * one's result), 32 links per loop iteration (16 for a two-instruction
 * link), timed by the difference method: cycles (global_power_events
 * RUNNING) of the kernel at n1 and 3 n1 iterations after a warm-up run,
 * so set-up, the PMU accesses and the loop's own dec/jnz overlap cancel
 * (the loop branch is off every chain).  Operand sizes are those of the
 * measured rows (r32: the tables were taken in 32-bit code).  A few rows
 * time independent operations instead (eight chains: the unit's
 * throughput, the tables' "T" column), and the rep rows the bytes of a
 * rep string (cycles per byte: the tables' "BW in L1D" inverted).
 *
 * The rows (the chains, their measured figures and sources, the
 * tolerances) are measured_rows.h's, the chains measured_kern.h's; here
 * the driver, and the bandwidth checks of streams from memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "guest.h"
#include "kernels.h"
#include "measured_kern.h"

/* a ring of k pointers stride bytes apart, in address order */
static char *ring(unsigned k, unsigned stride)
{
	char *buf = fresh((size_t)k * stride + 8);
	for (unsigned i = 0; i < k; i++)
		memcpy(buf + (size_t)i * stride, &(void *){ buf + (size_t)((i + 1) % k) * stride },
		       sizeof(void *));
	return buf;
}

/*
 * Streams from memory (README "Bus model", "Bandwidth"): each call moves
 * fresh bytes (a cursor through buffers larger than any modelled cache,
 * so the difference method's runs see no line the run before brought in):
 * a rep movsb of n KB, a rep stosb of n KB, and a STREAM triad a[i] =
 * b[i] + 3 c[i] of n x 128 doubles.  The bus moves 8 bytes per transfer; a copy reads and writes
 * each byte (2 bytes on the bus a byte copied, 3 with the destination's
 * read for ownership), a triad 3 doubles an element as STREAM counts it.
 */
#define BW_BYTES (8u << 20)
static char *bw_src, *bw_dst;
static size_t bw_at;

static void k_movsb_mem(char *p, uint64_t n)
{
	char *s = bw_src + bw_at, *d = bw_dst + bw_at;
	uint64_t c = n << 10;

	(void)p;
	bw_at += c;
	__asm__ volatile("cld; rep movsb" : "+S"(s), "+D"(d), "+c"(c) : : "memory");
}

static char *st_dst;
static size_t st_at;

static void k_stosb_mem(char *p, uint64_t n)
{
	char *d = st_dst + st_at;
	uint64_t c = n << 10;

	(void)p;
	st_at += c;
	__asm__ volatile("cld; rep stosb" : "+D"(d), "+c"(c) : "a"(0) : "memory");
}

static double *tr_a, *tr_b, *tr_c;
static size_t tr_at;

static void k_triad_mem(char *p, uint64_t n)
{
	double *a = tr_a + tr_at, *b = tr_b + tr_at, *c = tr_c + tr_at;

	(void)p;
	tr_at += n * 128;
	for (uint64_t i = 0; i < n * 128; i++)
		a[i] = b[i] + 3.0 * c[i];
	__asm__ volatile("" : : "r"(a) : "memory");
}

#include "measured_rows.h"

static const struct cnt CYC = { NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1 };

int main(int argc, char **argv)
{
	static const char *const models[4] = { "northwood", "prescott", "willamette", "cedarmill" };
	static const double ghz[4] = { 2.8, 3.4, 2.0, 3.6 };    /* nb_cpu.c */
	int m = -1;

	for (int i = 0; i < 4; i++)
		if (argc > 1 && !strcmp(argv[1], models[i]))
			m = i;
	if (m < 0 || !nbsim_present()) {
		printf("1..0 # SKIP needs nbsim and a model argument (northwood|prescott|willamette|cedarmill)\n");
		return 0;
	}
	tap_plan((int)(sizeof rows / sizeof rows[0]) + 5);

	char *word = fresh(64);
	char *self = fresh(64);
	memcpy(self, &self, sizeof self);
	char *cur_l1 = fresh(8), *cur_l2 = fresh(8), *cur_mem = fresh(8);
	memcpy(cur_l1, &self, sizeof self);
	char *l2ring = ring(128 * 1024 / 256, 256);
	memcpy(cur_l2, &l2ring, sizeof l2ring);
	char *memring = ring(16 * 1024, 1024);
	memcpy(cur_mem, &memring, sizeof memring);
	char *buf = fresh(2048);
	char *data[] = { NULL, word, cur_l1, cur_l2, cur_mem, buf };

	for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		double want = r->want[m] ? r->want[m] : r->ns[m] * ghz[m];
		uint64_t d = guest_diff(&CYC, NULL, NULL, r->fn, data[r->data], r->n1, 3 * r->n1);
		double got = (double)d / (2.0 * r->n1 * r->k);
		int ok = got >= want * (1 - r->tol) && got <= want * (1 + r->tol);
		char what[160];

		if (r->ns[m])
			snprintf(what, sizeof what, "%.1f ns at %.1f GHz = %.0f cycles", r->ns[m],
				 ghz[m], want);
		else
			snprintf(what, sizeof what, want < 1 ? "%.3f cycles" : "%.1f cycles", want);
		if (r->todo[m])
			tap_ok_todo(ok, r->todo[m], "%s: simulated %.3f cycles per link, measured %s %s "
				    "(%.0f%%)", r->what, got, what, r->src[m], r->tol * 100);
		else
			tap_ok(ok, "%s: simulated %.3f cycles per link, measured %s %s (%.0f%%)",
			       r->what, got, what, r->src[m], r->tol * 100);
	}

	/* the bus's limit: 8 bytes x the transfer rate (400 MT/s on
	 * Willamette, 800 on the others: sim/cpu/nb_bus.c), in bytes per
	 * core cycle.  A copy from memory reads and writes each byte (the
	 * limit of the bytes it copies is half the bus's), and with the
	 * destination's read for ownership puts 3 bytes on the bus a byte
	 * copied: bound by the bus, it moves them at the bus's rate (5%).
	 * The triad puts 32 bytes on the bus (its RFO's 8 with STREAM's
	 * 24) an element: at or under the bus; it is bound by the window
	 * (the misses the 126 uops in flight reach: no hardware prefetcher
	 * is modelled), over a quarter of the bus */
	static const double mts[4] = { 800, 800, 400, 800 };
	double fsb = 8 * mts[m] / (ghz[m] * 1000);
	bw_src = fresh(BW_BYTES);
	bw_dst = fresh(BW_BYTES);
	uint64_t d = guest_diff(&CYC, NULL, NULL, k_movsb_mem, NULL, 1024, 3 * 1024);
	double cp = (double)(2 << 20) / (double)d;      /* bytes copied a cycle */
	tap_ok(2 * cp <= fsb, "rep movsb, 2 MB from memory: %.3f bytes a cycle copied, %.3f read and "
	       "written, at or under the bus's %.3f (%.0f MT/s x 8 B at %.1f GHz)", cp, 2 * cp, fsb,
	       mts[m], ghz[m]);
	tap_ok(3 * cp >= fsb * 0.95 && 3 * cp <= fsb * 1.05, "rep movsb, 2 MB from memory: %.3f bytes "
	       "a cycle on the bus with the reads for ownership, the bus's %.3f (5%%)", 3 * cp, fsb);
	/* stores alone: each byte stored is read for ownership and
	 * written back, 2 bytes on the bus; the front end waits for the
	 * bus (it ran at the string engine's 4.25 bytes a cycle before) */
	st_dst = fresh(BW_BYTES);
	d = guest_diff(&CYC, NULL, NULL, k_stosb_mem, NULL, 1024, 3 * 1024);
	double st = (double)(2 << 20) / (double)d;      /* bytes stored a cycle */
	tap_ok(2 * st >= fsb * 0.95 && 2 * st <= fsb * 1.05, "rep stosb, 2 MB to memory: %.3f bytes a "
	       "cycle stored, %.3f on the bus with the reads for ownership, the bus's %.3f (5%%)", st,
	       2 * st, fsb);
	tr_a = (double *)(void *)fresh(BW_BYTES);
	tr_b = (double *)(void *)fresh(BW_BYTES);
	tr_c = (double *)(void *)fresh(BW_BYTES);
	d = guest_diff(&CYC, NULL, NULL, k_triad_mem, NULL, 1024, 3 * 1024);
	double tr = 24.0 * 2 * 1024 * 128 / (double)d;    /* STREAM's bytes a cycle */
	tap_ok(tr * 32 / 24 <= fsb, "triad, 3 x 2 MB from memory: %.3f bytes a cycle as STREAM counts "
	       "them (%.2f GB/s), %.3f on the bus, at or under the bus's %.3f", tr, tr * ghz[m],
	       tr * 32 / 24, fsb);
	tap_ok(tr * 32 / 24 >= fsb / 4, "triad from memory: %.3f bytes a cycle on the bus, over a "
	       "quarter of the bus's %.3f", tr * 32 / 24, fsb);
	return tap_done();
}
