/*
 * bench.c - nbsim speed workloads (sim/bench/run.sh; not a test).
 *
 *   bench WORKLOAD NCOUNTERS
 *
 * WORKLOAD: loops   dense loop nest (double matrix multiply, 200 x 200, x40)
 *           branchy branchy integer code (LCG-driven data-dependent branches,
 *                   insertion into a small sorted array, switch)
 *           chase   pointer chasing through a random cyclic permutation of
 *                   1M nodes (4 MB of 32-bit next indices, 4 MB of permutation)
 *           empty   nothing: the tool's start and exit alone (the part of
 *                   every other row that is not the workload)
 * NCOUNTERS: 0, 1, 2, 3, 4 or 5: counter sets programmed through nbsim_client.h when
 * running under nbsim (ignored elsewhere):
 *   2: instr_retired:NBOGUSNTAG + global_power_events:RUNNING
 *      (= PAPI_TOT_INS + PAPI_TOT_CYC)
 *   3: the 2 plus SSE_input_assist:ALL + x87_assist:POAO,POAU,PREA (4 counters)
 *   5: the 2 plus MOB_load_replay:PARTIAL_DATA,UNALGN_ADDR +
 *      memory_cancel:64K_CONF (the store buffer; 4 counters)
 *   4: PAPI_TOT_CYC + PAPI_L1_DCM + PAPI_BR_MSP + PAPI_LD_INS as the
 *      component maps them (native_events/presets.txt):
 *      global_power_events:RUNNING, replay_event:NBOGUS with
 *      1stL_cache_load_miss_retired (IA32_PEBS_ENABLE 0x01000001,
 *      MATRIX_VERT 1), mispred_branch_retired:NBOGUS, front_end_event:NBOGUS
 *      with uop_type:TAGLOADS (Memory_loads)
 *   6, 7: see set7 (the bus model)
 * Prints a checksum and, under nbsim, the counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "../tests/guest/randcycle.h"

struct cfg { unsigned escr, ev, mask, ctr; uint64_t cccr; };

static const struct cfg set2[] = {
	{ NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 1, 12, 0 },
	{ NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1, 0, 0 },
};
/* "1": stall cycles, uops_retired NBOGUS with Compare, Complement,
 * Threshold 0 (cycles retiring no uop): a filter whose condition depends
 * on the per-cycle output, so nbsim runs its per-cycle step mode.  (The
 * cycles alias, Complement with Threshold 15, is true every cycle and is
 * counted from the cycle count, without step mode.) */
static const struct cfg set1[] = {
	{ NB_ESCR_CRU_ESCR0, NB_EV_UOPS_RETIRED, 1, 12,
	  NB_CCCR_COMPARE | NB_CCCR_COMPLEMENT },
};
/* "3": set2 plus SSE_input_assist and x87_assist (FP operand checks,
 * README "FP assists") */
static const struct cfg set3[] = {
	{ NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 1, 12, 0 },
	{ NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1, 0, 0 },
	{ NB_ESCR_FIRM_ESCR0, NB_EV_SSE_INPUT_ASSIST, 1u << 15, 8, 0 },
	{ NB_ESCR_CRU_ESCR2, NB_EV_X87_ASSIST, 0x1c, 13, 0 },
};
/* "5": set2 plus MOB_load_replay PARTIAL_DATA|UNALGN_ADDR and
 * memory_cancel 64K_CONF (the store buffer, README "Store buffer") */
static const struct cfg set5[] = {
	{ NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 1, 12, 0 },
	{ NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1, 0, 0 },
	{ NB_ESCR_MOB_ESCR0, NB_EV_MOB_LOAD_REPLAY, 0x30, 1, 0 },
	{ NB_ESCR_DAC_ESCR0, NB_EV_MEMORY_CANCEL, 0x8, 8, 0 },
};
/* "7": set2 plus BSQ_cache_reference RD_2ndL_MISS (the cache model with
 * its lean helpers); "6": the same plus IOQ_allocation, every transaction
 * (TYPE_BIT0|ALL_READ|ALL_WRITE|MEM_WB|OWN|PREFETCH): the bus model (README
 * "Bus model"), every L1D miss through nb_mem */
static const struct cfg set7[] = {
	{ NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 1, 12, 0 },
	{ NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1, 0, 0 },
	{ NB_ESCR_BSU_ESCR1, NB_EV_BSQ_CACHE_REFERENCE, 1u << 8, 3, 0 },
	{ NB_ESCR_FSB_ESCR1, NB_EV_IOQ_ALLOCATION, 0xa861, 2, 0 },
};
static const struct cfg set4[] = {
	{ NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1, 0, 0 },
	{ NB_ESCR_CRU_ESCR2, NB_EV_REPLAY_EVENT, 1, 13, 0 },
	{ NB_ESCR_CRU_ESCR0, NB_EV_MISPRED_BRANCH_RETIRED, 1, 12, 0 },
	{ NB_ESCR_CRU_ESCR3, NB_EV_FRONT_END_EVENT, 1, 15, 0 },
};

static void program(const struct cfg *c, unsigned n, int on)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t escr = ((uint64_t)nb_events[c[i].ev].event_select << NB_ESCR_EVSEL_SHIFT) |
			((uint64_t)c[i].mask << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR;
		uint64_t cccr = NB_CCCR_ENABLE |
			((uint64_t)nb_escrs[c[i].escr].select << NB_CCCR_ESCRSEL_SHIFT) |
			((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT) | c[i].cccr;
		if (on) {
			nbsim_wrmsr(nb_escrs[c[i].escr].msr, escr);
			nbsim_wrmsr(nb_counters[c[i].ctr].msr, 0);
			nbsim_wrmsr(nb_counters[c[i].ctr].cccr_msr, cccr);
		} else {
			uint64_t v = 0;
			nbsim_wrmsr(nb_counters[c[i].ctr].cccr_msr, 0);
			nbsim_rdmsr(nb_counters[c[i].ctr].msr, &v);
			fprintf(stderr, "  %s: %llu\n", nb_events[c[i].ev].name,
				(unsigned long long)v);
		}
	}
}

#define MN 200
static double A[MN][MN], B[MN][MN], C[MN][MN];

static uint64_t w_loops(void)
{
	for (int i = 0; i < MN; i++)
		for (int j = 0; j < MN; j++) {
			A[i][j] = i + j;
			B[i][j] = i - j;
		}
	for (int r = 0; r < 40; r++) {
		__asm__ volatile("" ::: "memory");
		for (int i = 0; i < MN; i++)
			for (int j = 0; j < MN; j++) {
				double s = 0;
				for (int k = 0; k < MN; k++)
					s += A[i][k] * B[k][j];
				C[i][j] = s + r;
			}
	}
	return (uint64_t)(int64_t)C[MN - 1][MN - 2];
}

static uint64_t w_branchy(void)
{
	uint64_t x = 42, sum = 0;
	unsigned arr[16] = { 0 }, n = 0;
	for (unsigned it = 0; it < 20000000; it++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned v = (unsigned)(x >> 40);
		switch (v & 7) {
		case 0: sum += v; break;
		case 1: sum ^= v << 3; break;
		case 2: sum -= v >> 2; break;
		case 3: if (v & 0x100) sum++; else sum--; break;
		default:
			if (n < 16) {
				unsigned j = n++;
				while (j > 0 && arr[j - 1] > v) {
					arr[j] = arr[j - 1];
					j--;
				}
				arr[j] = v;
			} else {
				sum += arr[v & 15];
				n = 0;
			}
		}
	}
	return sum;
}

#define CN (1u << 20)
static uint64_t w_chase(void)
{
	uint32_t *next = malloc(CN * sizeof *next), *perm = malloc(CN * sizeof *perm);
	uint64_t s = 0;
	uint32_t p = 0;
	nb_random_order(perm, CN, 7);
	for (uint32_t i = 0; i < CN; i++)
		next[perm[i]] = perm[(i + 1) % CN];
	for (unsigned it = 0; it < 4 * CN; it++) {
		p = next[p];
		s += p;
	}
	free(next);
	free(perm);
	return s;
}

int main(int argc, char **argv)
{
	const char *w = argc > 1 ? argv[1] : "loops";
	unsigned nc = argc > 2 ? (unsigned)atoi(argv[2]) : 0;
	const struct cfg *set = nc == 1 ? set1 : nc == 2 ? set2 : nc == 3 ? set3 :
		nc == 4 ? set4 : nc == 5 ? set5 : nc == 6 || nc == 7 ? set7 : NULL;
	unsigned n = nc == 3 || nc == 5 || nc == 6 ? 4 : nc == 7 ? 3 : nc;
	int sim = nbsim_present();
	uint64_t r;

	if (sim && set) {
		if (nc == 4) {
			/* uop_type TAGLOADS (RAT_ESCR0); replay tagging: L1D load misses */
			nbsim_wrmsr(nb_escrs[NB_ESCR_RAT_ESCR0].msr,
				    ((uint64_t)nb_events[NB_EV_UOP_TYPE].event_select << NB_ESCR_EVSEL_SHIFT) |
				    (UINT64_C(2) << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR);
			nbsim_wrmsr(NB_MSR_IA32_PEBS_ENABLE, 0x01000001u);
			nbsim_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 1);
		}
		program(set, n, 1);
	}
	if (!strcmp(w, "loops"))
		r = w_loops();
	else if (!strcmp(w, "branchy"))
		r = w_branchy();
	else if (!strcmp(w, "empty"))
		r = 0;
	else if (!strcmp(w, "chase"))
		r = w_chase();
	else {
		fprintf(stderr, "bench: unknown workload %s\n", w);
		return 2;
	}
	if (sim && set)
		program(set, n, 0);
	printf("%s %llu\n", w, (unsigned long long)r);
	return 0;
}
