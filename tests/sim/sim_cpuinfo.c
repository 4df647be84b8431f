/*
 * sim_cpuinfo.c - guest helper for t_sim_cpuinfo.t: what the CPUID
 * instruction says of the part, and the "model name" line of
 * /proc/cpuinfo as stdio's fopen reads it, so that the test holds the
 * emulated file against the CPU's own answer.
 */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	unsigned a, b, c, d, r[12];
	char brand[49], line[256];
	const char *p;
	FILE *f;

	__cpuid(1, a, b, c, d);
	printf("cpuid family %u model %u stepping %u\n", a >> 8 & 15, a >> 4 & 15, a & 15);
	for (unsigned l = 0; l < 3; l++)
		__cpuid(0x80000002 + l, r[4 * l], r[4 * l + 1], r[4 * l + 2], r[4 * l + 3]);
	memcpy(brand, r, 48);
	brand[48] = 0;
	for (p = brand; *p == ' '; p++)
		;
	printf("cpuid brand %s\n", p);
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "model name", 10)) {
			printf("fopen %s", line);
			break;
		}
	fclose(f);
	return 0;
}
