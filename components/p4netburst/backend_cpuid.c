/*
 * backend_cpuid.c - is the machine we run on natively a NetBurst?  Used by
 * the msr and perf backends (under nbsim the sim backend answers first).
 * CPUID leaf 0 vendor, leaf 1 family/model/stepping and HTT with the
 * logical-processor count (SDM Vol. 2A, CPUID), leaf 2 descriptors for an
 * L3 (0x22, 0x23, 0x25, 0x29: the NetBurst parts' L3 descriptors, as
 * nbsim's xeonmp model reports 0x25).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* secure_getenv */
#endif
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nb_backend.h"
#include "nbsim_client.h"

static int has_l3_descriptor(void)
{
	unsigned r[4];

	if (!__get_cpuid(2, &r[0], &r[1], &r[2], &r[3]))
		return 0;
	for (int i = 0; i < 4; i++) {
		if (r[i] & 0x80000000u)          /* register holds no descriptors */
			continue;
		for (int b = i == 0 ? 1 : 0; b < 4; b++) {  /* AL is the count */
			unsigned d = (r[i] >> (8 * b)) & 0xff;

			if (d == 0x22 || d == 0x23 || d == 0x25 || d == 0x29)
				return 1;
		}
	}
	return 0;
}

/* P4NETBURST_BACKEND=msr|perf: the native backends run even under nbsim,
 * against its emulated msr device and perf driver (sim/README.md
 * "Emulated kernel"), seeing what a kernel on a NetBurst shows.  Read with
 * secure_getenv, as p4netburst.c reads it: in a setuid or setgid program
 * neither honours it (it once was getenv here, so such a program chose the
 * sim backend's answer by p4netburst.c's rules but this probe's by the
 * caller's environment). */
static int forced(void)
{
	const char *b = secure_getenv("P4NETBURST_BACKEND");

	return b && (!strcmp(b, "msr") || !strcmp(b, "perf"));
}

int nb_native_cpu(struct nb_cpu *cpu, char *why, size_t len)
{
	unsigned a, b, c, d;
	char vendor[13];

	if (nbsim_present() && !forced()) {
		/* nbsim's CPUID is simulated; the registers are nbsim's */
		snprintf(why, len, "running under nbsim, whose PMU the sim backend owns "
			 "(P4NETBURST_BACKEND=msr or perf uses nbsim's emulated kernel)");
		return -1;
	}
	if (!__get_cpuid(0, &a, &b, &c, &d)) {
		snprintf(why, len, "no CPUID");
		return -1;
	}
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	__get_cpuid(1, &a, &b, &c, &d);
	memset(cpu, 0, sizeof(*cpu));
	cpu->family = (a >> 8) & 0xf;
	cpu->model = (a >> 4) & 0xf;
	cpu->stepping = a & 0xf;
	if (strcmp(vendor, "GenuineIntel") || cpu->family != 15 || ((a >> 20) & 0xff)) {
		/* the displayed family: base, plus the extended family when the
		 * base is 15 (SDM Vol. 2A, CPUID leaf 1) */
		snprintf(why, len, "this CPU (%s family %u) is not a NetBurst (Intel family 15)",
			 vendor, cpu->family + (cpu->family == 15 ? (a >> 20) & 0xff : 0));
		return -1;
	}
	cpu->ht = (d >> 28) & 1 && ((b >> 16) & 0xff) > 1;
	cpu->l3 = has_l3_descriptor();
	snprintf(cpu->model_name, sizeof(cpu->model_name), "family 15 model %u", cpu->model);
	snprintf(cpu->brand, sizeof(cpu->brand), "Intel NetBurst model %u", cpu->model);
	return 0;
}
