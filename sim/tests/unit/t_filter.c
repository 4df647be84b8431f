/*
 * t_filter.c - native unit test of nb_filter.c on synthetic per-cycle ESCR
 * output streams, with hand-computed expectations (TAP).
 */
#include <string.h>
#include "pmu/nb_filter.h"
#include "tap.h"

/* events per cycle; clamped outputs 0,1,3,3,0,2,15,15,0,1 */
static const uint64_t S[] = { 0, 1, 3, 3, 0, 2, 15, 20, 0, 1 };
#define NS (sizeof S / sizeof S[0])

static struct nb_filter F(int compare, int complement, unsigned thr, int edge)
{
	struct nb_filter f;
	memset(&f, 0, sizeof f);
	f.compare = (uint8_t)compare;
	f.complement = (uint8_t)complement;
	f.threshold = (uint8_t)thr;
	f.edge = (uint8_t)edge;
	return f;
}

static uint64_t run(struct nb_filter f)
{
	uint8_t prev = 0;
	uint64_t n = 0;
	for (unsigned i = 0; i < NS; i++)
		n += nb_filter_cycle(&f, S[i], &prev);
	return n;
}

int main(void)
{
	struct nb_filter f;
	uint64_t ctr, oc;
	int ovf;
	uint8_t prev;

	TAP_EQ(nb_filter_clamp(20), 15, "output clamped to 15 per cycle");
	TAP_EQ(run(F(0, 0, 0, 0)), 40, "no Compare: sum of clamped outputs (20 counts 15)");
	TAP_EQ(run(F(1, 0, 1, 0)), 5, "Compare thr 1: cycles with output > 1 (3,3,2,15,15)");
	TAP_EQ(run(F(1, 1, 1, 0)), 5, "Complement thr 1: cycles with output <= 1 (0,1,0,0,1)");
	TAP_EQ(run(F(1, 0, 1, 1)), 2, "Edge thr 1: rising edges of > 1 (cycles 2 and 5)");
	TAP_EQ(run(F(1, 1, 1, 1)), 3, "Edge Complement thr 1: rising edges of <= 1 (cycles 0, 4, 8)");
	TAP_EQ(run(F(1, 0, 15, 0)), 0, "thr 15: no cycle has output > 15 (clamping)");
	TAP_EQ(run(F(1, 1, 15, 0)), NS, "Complement thr 15: every cycle (the cycles alias)");
	{
		/* nb_filter_const: the condition is constant exactly when no
		 * output 0..15 changes it (checked against nb_filter_cond) */
		unsigned agree = 0, total = 0;
		for (unsigned cmp = 0; cmp < 2; cmp++)
			for (unsigned cpl = 0; cpl < 2; cpl++)
				for (unsigned edge = 0; edge < 2; edge++)
					for (unsigned thr = 0; thr < 16; thr++) {
						struct nb_filter f = { (uint8_t)cmp, (uint8_t)cpl, (uint8_t)edge, 0,
								       (uint8_t)thr };
						unsigned n1 = 0;
						int k = nb_filter_const(&f), want;
						for (unsigned o = 0; o <= NB_FILTER_MAX_OUT; o++)
							n1 += (unsigned)nb_filter_cond(&f, o);
						want = !cmp || edge ? -1 : n1 == 16 ? 1 : n1 == 0 ? 0 : -1;
						agree += k == want;
						total++;
					}
		TAP_EQ(agree, total, "nb_filter_const: constant (always/never) exactly when "
		       "no output 0-15 changes the condition, %u filters", total);
	}
	TAP_EQ(run(F(1, 0, 0, 0)), 7, "thr 0: cycles with any event");
	TAP_EQ(run(F(1, 1, 0, 0)), 3, "Complement thr 0: idle cycles");
	TAP_EQ(run(F(1, 1, 0, 1)), 3, "Edge Complement thr 0: starts of idle runs (0, 4, 8)");
	f = nb_filter_from_cccr((UINT64_C(1) << 18) | (UINT64_C(1) << 19) | (UINT64_C(9) << 20) |
				(UINT64_C(1) << 24) | (UINT64_C(1) << 25));
	tap_ok(f.compare && f.complement && f.threshold == 9 && f.edge && f.force_ovf,
	       "CCCR bits 18, 19, 20-23, 24, 25 decoded");
	f = nb_filter_from_cccr(0xffffffffu & ~((UINT64_C(1) << 18) | (UINT64_C(0xf) << 20)));
	tap_ok(!f.compare && f.threshold == 0, "Compare and Threshold clear decoded as clear");

	/* runs of identical cycles */
	f = F(1, 0, 1, 1);
	prev = 0; ctr = 0; ovf = 0;
	TAP_EQ(nb_filter_count(&f, 3, 5, &prev, &ctr, &ovf, &oc), 1,
	       "Edge over a run of 5 busy cycles after an idle one: 1");
	TAP_EQ(nb_filter_count(&f, 3, 5, &prev, &ctr, &ovf, &oc), 0,
	       "Edge over a second busy run: 0 (no transition)");
	TAP_EQ(nb_filter_count(&f, 0, 2, &prev, &ctr, &ovf, &oc)
	       + nb_filter_count(&f, 2, 1, &prev, &ctr, &ovf, &oc), 1,
	       "Edge after an idle run: 1");
	f = F(1, 1, 15, 0);
	prev = 0; ctr = 7; ovf = 0;
	TAP_EQ(nb_filter_count(&f, 40, 1000, &prev, &ctr, &ovf, &oc), 1000,
	       "Complement thr 15 over 1000 cycles: 1000");
	TAP_EQ(ctr, 1007, "counter = preset + 1000");

	/* 40-bit wrap and OVF */
	f = F(0, 0, 0, 0);
	ctr = NB_FILTER_CTR_MASK - 2; ovf = 0; oc = 99; prev = 0;
	nb_filter_count(&f, 1, 4, &prev, &ctr, &ovf, &oc);
	tap_ok(ovf == 1 && oc == 3 && ctr == 1,
	       "2^40-3 + 4 x 1 event: wraps on the 3rd cycle, counter 1 (ovf %d cycle %llu ctr %llu)",
	       ovf, (unsigned long long)oc, (unsigned long long)ctr);
	ctr = NB_FILTER_CTR_MASK - 11; ovf = 0; oc = 99;
	nb_filter_count(&f, 5, 10, &prev, &ctr, &ovf, &oc);
	tap_ok(ovf == 1 && oc == 3 && ctr == 38,
	       "2^40-12 + 10 x 5 events: wraps on the 3rd cycle, counter 38");
	ctr = NB_FILTER_CTR_MASK - 100; ovf = 0; oc = 99;
	nb_filter_count(&f, 5, 10, &prev, &ctr, &ovf, &oc);
	tap_ok(ovf == 0 && oc == 99 && ctr == NB_FILTER_CTR_MASK - 50, "no wrap: no OVF");
	ctr = NB_FILTER_CTR_MASK;
	tap_ok(nb_counter_add(&ctr, 1) && ctr == 0, "2^40-1 + 1 = 0 with overflow");
	ctr = 5;
	tap_ok(!nb_counter_add(&ctr, 0) && ctr == 5, "+0: no overflow");

	/* FORCE_OVF: overflow on every increment, none without one */
	f = F(1, 0, 1, 0);
	f.force_ovf = 1;
	ctr = 0; ovf = 0; oc = 99; prev = 0;
	nb_filter_count(&f, 1, 10, &prev, &ctr, &ovf, &oc);
	tap_ok(ovf == 0 && ctr == 0, "FORCE_OVF without an increment: no OVF");
	nb_filter_count(&f, 2, 10, &prev, &ctr, &ovf, &oc);
	tap_ok(ovf == 1 && oc == 1 && ctr == 10, "FORCE_OVF: OVF on the first increment");

	/* cascade alternates [SDM 18.15.5.6] */
	{
		static const int alt[18] = { 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
					     14, 15, 12, 13, 14, 15 };
		int okc = 1;
		for (unsigned c = 0; c < 18; c++)
			okc &= nb_cascade_alternate(c) == alt[c];
		tap_ok(okc, "cascade alternates: 0<->2, 1<->3 per block; 16 from 14, 17 from 15");
		tap_ok(nb_cascade_alternate(18) == -1, "no counter 18");
	}
	return tap_done_plan();
}
