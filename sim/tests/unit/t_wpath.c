/*
 * t_wpath.c - native unit test of the wrong-path model (nb_wpath.c, TAP).
 */
#include <stdio.h>
#include "cpu/nb_wpath.h"
#include "cpu/nb_cpu.h"
#include "tap.h"

int main(void)
{
	struct nb_wpath w;
	const struct nb_cpu_model *nw = nb_cpu_find("northwood");
	const struct nb_cpu_model *pr = nb_cpu_find("prescott");

	/* 20-cycle pipeline: 15 wrong-path cycles x 3 uops */
	nb_wpath_init(&w, nw->mispredict_penalty);
	TAP_EQ(w.per_mispredict, 45, "northwood (penalty %u): 45 bogus uops per mispredict",
	       nw->mispredict_penalty);
	TAP_EQ(nb_wpath_uops(&w, 1000), 45000, "1000 mispredicts: 45000 bogus uops");
	TAP_EQ(nb_wpath_uops(&w, 0), 0, "no mispredict, no bogus uop");
	/* 31-cycle pipeline: 26 x 3 */
	nb_wpath_init(&w, pr->mispredict_penalty);
	TAP_EQ(w.per_mispredict, 78, "prescott (penalty %u): 78 bogus uops per mispredict",
	       pr->mispredict_penalty);
	nb_wpath_init(&w, 3);
	TAP_EQ(w.per_mispredict, 0, "a penalty shorter than the front end: no bogus uop");

	/* shares: the committed mix */
	TAP_EQ(nb_wpath_share(78, 1, 4), 19, "a quarter of 78 bogus uops are loads: floor 19");
	TAP_EQ(nb_wpath_share(78, 4, 4), 78, "all uops: all bogus uops");
	TAP_EQ(nb_wpath_share(78, 0, 4), 0, "no loads committed: no bogus load");
	TAP_EQ(nb_wpath_share(78, 5, 0), 0, "no committed uop: no mix, 0");
	TAP_EQ(nb_wpath_share(UINT64_C(1) << 40, UINT64_C(3) << 40, UINT64_C(1) << 42),
	       UINT64_C(3) << 38, "no overflow with large counts (2^40 x 3*2^40 / 2^42)");
	/* sums of shares never exceed the bogus total */
	{
		uint64_t parts[3] = { 7, 11, 13 }, sum = 0;
		for (int i = 0; i < 3; i++)
			sum += nb_wpath_share(1000, parts[i], 31);
		tap_ok(sum <= 1000 && sum >= 1000 - 3, "shares of a partition add up to the bogus total (%llu, at most 1 lost per part)",
		       (unsigned long long)sum);
	}
	/* carried fractions: 1000 intervals of 7 bogus uops, 1 part in 3
	 * committed uops: floor loses 1/3 per interval, the carry nothing */
	{
		uint64_t plain = 0, carry = 0;
		uint32_t frac = 0;
		for (int i = 0; i < 1000; i++) {
			plain += nb_wpath_share(7, 1, 3);
			carry += nb_wpath_share_carry(7, 1, 3, &frac);
		}
		TAP_EQ(plain, 2000, "floor per interval: 1000 x floor(7/3) = 2000");
		TAP_EQ(carry, 2333, "carried fraction: floor(7000/3) = 2333");
		frac = 0;
		TAP_EQ(nb_wpath_share_carry(78, 1, 4, &frac), 19, "carry: first share floor(78/4) = 19");
		TAP_EQ(nb_wpath_share_carry(78, 1, 4, &frac), 20, "carry: second share 19.5 + the half carried = 20");
		TAP_EQ(nb_wpath_share_carry(5, 1, 0, &frac), 0, "carry: no committed uop, 0");
	}
	return tap_done_plan();
}
