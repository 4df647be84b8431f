/*
 * nb_probe.c - guest helper for t_nbsim_cli.sh: prints what the CPU says
 * about itself, one "key value" per line.
 */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <cpuid.h>
#include <unistd.h>
#include "nbsim_client.h"

/* "tier": 10,000 runs of one superblock with a load and a store (not
 * inlined: both calls run the same code) */
static __attribute__((noinline)) uint64_t tier_loop(volatile uint64_t *buf)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < 10000; i++) {
		s += buf[(i * 67) & 4095] + 1;
		buf[(i * 131) & 4095] = s;
	}
	return s;
}

int main(int argc, char **argv)
{
	unsigned a, b, c, d, fam, model, step;
	char vendor[13], brand[49];
	struct nbsim_info inf;

	if (argc > 1 && !strcmp(argv[1], "memstats")) {
		/* the cache model's totals over the start-up (the dynamic
		 * loader, libc's init): with simulated time, its cold phase */
		struct nbsim_memstats ms;
		int r = nbsim_memstats(&ms);
		printf("memstats %d l1ld %llu l1st %llu l2ld %llu l2st %llu splits %llu %llu\n", r,
		       (unsigned long long)ms.l1_load_miss, (unsigned long long)ms.l1_store_miss,
		       (unsigned long long)ms.l2_load_miss, (unsigned long long)ms.l2_store_miss,
		       (unsigned long long)ms.split_loads, (unsigned long long)ms.split_stores);
		return r;
	}
	if (argc > 1 && !strcmp(argv[1], "tier")) {
		/* cycles (global_power_events RUNNING: FSB_ESCR0 0x3a2, select
		 * 0x13, mask bit 0, T0_USR; counter 0, CCCR 0x360 with ESCR
		 * select 6) over a loop of loads and stores whose superblock
		 * runs 10,000 times, twice: its cold translation is made hot
		 * in the first round, translated again in the second
		 * (nb_need.c) */
		static uint64_t buf[4096];
		struct nbsim_memstats ms;
		uint64_t cyc = 0, s = 0;
		int r = nbsim_wrmsr(0x3a2, (UINT64_C(0x13) << 25) | (1u << 9) | 4);
		r |= nbsim_wrmsr(0x300, 0);
		r |= nbsim_wrmsr(0x360, (1u << 12) | (6u << 13) | (3u << 16));
		/* (a system call between: valgrind's scheduler, where a cold
		 * translation made hot is discarded) */
		s += tier_loop(buf);
		(void)getppid();
		s += tier_loop(buf);
		r |= nbsim_rdpmc(0, &cyc);
		r |= nbsim_memstats(&ms);
		printf("tier %d cycles %llu l1ld %llu l1st %llu l2ld %llu sum %llu\n", r,
		       (unsigned long long)cyc, (unsigned long long)ms.l1_load_miss,
		       (unsigned long long)ms.l1_store_miss, (unsigned long long)ms.l2_load_miss,
		       (unsigned long long)s);
		return r;
	}
	if (argc > 1 && !strcmp(argv[1], "unmodelled")) {
		/* response (select 0x04, mask BIT1), not modelled, on FSB_ESCR0
		 * (0x3a2, CCCR select 6) -> counter 0 */
		int r = nbsim_wrmsr(0x3a2, (UINT64_C(0x04) << 25) | (1u << 10) | 4);
		r |= nbsim_wrmsr(0x360, (1u << 12) | (6u << 13) | (3u << 16));
		printf("programmed %d\n", r);
		return r;
	}
	__cpuid(0, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	printf("vendor %s\nmax_leaf %u\n", vendor, a);
	__cpuid(1, a, b, c, d);
	fam = (a >> 8) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	model = (a >> 4) & 0xf;
	if (fam == 6 || fam == 15)
		model |= ((a >> 16) & 0xf) << 4;
	step = a & 0xf;
	printf("family %u\nmodel %u\nstepping %u\n", fam, model, step);
	printf("sse2 %u\nsse3 %u\nssse3 %u\nsse41 %u\navx %u\nhtt %u\n",
	       (d >> 26) & 1, c & 1, (c >> 9) & 1, (c >> 19) & 1, (c >> 28) & 1, (d >> 28) & 1);
	__cpuid(2, a, b, c, d);
	printf("leaf2 %08x %08x %08x %08x\n", a, b, c, d);
	__cpuid(0x80000000, a, b, c, d);
	if (a >= 0x80000004) {
		unsigned *p = (unsigned *)brand;
		for (unsigned l = 0; l < 3; l++)
			__cpuid(0x80000002 + l, p[4 * l], p[4 * l + 1], p[4 * l + 2], p[4 * l + 3]);
		brand[48] = 0;
		printf("brand %s\n", brand);
	}
	__cpuid(0x80000001, a, b, c, d);
	printf("lm %u\n", (d >> 29) & 1);
	printf("nbsim %d\n", nbsim_present());
	if (nbsim_present() && nbsim_info(&inf) == NBSIM_OK)
		printf("info_model %u\ninfo_name %s\ninfo_brand %s\ninfo_ht %u\ninfo_mhz %u\n"
		       "info_l3_kb %u\n",
		       inf.model, inf.model_name, inf.brand, inf.ht, inf.mhz, inf.l3_kb);
	return 0;
}
