/*
 * t_events_pfm_dump.c - list libpfm4's NetBurst tables through its public
 * API, for t_events_libpfm4_xcheck.t.  Usage: t_events_pfm_dump PMU
 * (netburst or netburst_p); forces that PMU with LIBPFM_FORCE_PMU.
 *   L event select escrsel            (pfm_event_info_t.code = sel | esel << 8)
 *   U event mask code is_dfl          (umask attributes; code = mask bit,
 *                                      16-19 for the TAGn virtual masks)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib.h>

int main(int argc, char **argv)
{
	pfm_pmu_info_t pinfo;
	pfm_pmu_t pmu;
	int i, ret;

	if (argc != 2)
		return 2;
	pmu = strcmp(argv[1], "netburst_p") == 0 ? PFM_PMU_INTEL_NETBURST_P : PFM_PMU_INTEL_NETBURST;
	setenv("LIBPFM_FORCE_PMU", argv[1], 1);
	if ((ret = pfm_initialize()) != PFM_SUCCESS) {
		fprintf(stderr, "pfm_initialize: %s\n", pfm_strerror(ret));
		return 1;
	}
	memset(&pinfo, 0, sizeof pinfo);
	pinfo.size = sizeof pinfo;
	if ((ret = pfm_get_pmu_info(pmu, &pinfo)) != PFM_SUCCESS || !pinfo.is_present) {
		fprintf(stderr, "pmu %s not available: %s\n", argv[1], pfm_strerror(ret));
		return 1;
	}
	printf("N %s %d\n", pinfo.name, pinfo.nevents);
	for (i = pinfo.first_event; i != -1; i = pfm_get_event_next(i)) {
		pfm_event_info_t info;
		int a;
		memset(&info, 0, sizeof info);
		info.size = sizeof info;
		if ((ret = pfm_get_event_info(i, PFM_OS_NONE, &info)) != PFM_SUCCESS) {
			fprintf(stderr, "pfm_get_event_info(%d): %s\n", i, pfm_strerror(ret));
			return 1;
		}
		printf("L %s 0x%02x %u\n", info.name, (unsigned)(info.code & 0xff), (unsigned)((info.code >> 8) & 0xff));
		for (a = 0; a < info.nattrs; a++) {
			pfm_event_attr_info_t ai;
			memset(&ai, 0, sizeof ai);
			ai.size = sizeof ai;
			if ((ret = pfm_get_event_attr_info(i, a, PFM_OS_NONE, &ai)) != PFM_SUCCESS) {
				fprintf(stderr, "pfm_get_event_attr_info: %s\n", pfm_strerror(ret));
				return 1;
			}
			if (ai.type == PFM_ATTR_UMASK)
				printf("U %s %s %u %d\n", info.name, ai.name, (unsigned)ai.code, ai.is_dfl ? 1 : 0);
		}
	}
	return 0;
}
