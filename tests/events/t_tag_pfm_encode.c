/*
 * t_tag_pfm_encode.c - libpfm4's own encoding of NetBurst event names, for
 * t_tag_libpfm4.t: "C NAME ESCR CCCR" per name (PMU netburst_p forced with
 * LIBPFM_FORCE_PMU, user level), "E NAME error" when libpfm4 refuses it.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib.h>

int main(int argc, char **argv)
{
	int ret;

	setenv("LIBPFM_FORCE_PMU", "netburst_p", 1);
	if ((ret = pfm_initialize()) != PFM_SUCCESS) {
		fprintf(stderr, "pfm_initialize: %s\n", pfm_strerror(ret));
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		pfm_pmu_encode_arg_t arg;
		uint64_t codes[4] = { 0 };
		char name[512];

		memset(&arg, 0, sizeof arg);
		arg.size = sizeof arg;
		arg.codes = codes;
		arg.count = 4;
		snprintf(name, sizeof name, "netburst_p::%s", argv[i]);
		ret = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_NONE, &arg);
		if (ret != PFM_SUCCESS)
			printf("E %s %s\n", argv[i], pfm_strerror(ret));
		else
			printf("C %s 0x%08" PRIx64 " 0x%08" PRIx64 "\n", argv[i], codes[0], codes[1]);
	}
	return 0;
}
