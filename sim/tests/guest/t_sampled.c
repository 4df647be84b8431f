/*
 * t_sampled.c - a workload for the sampled clock's guest test
 * (t_sampled.sh): `t_sampled SET` programs the counters of SET (cyc:
 * global_power_events RUNNING and instr_retired NBOGUS; pre: those
 * and PAPI_L1_DCM, PAPI_BR_MSP, PAPI_LD_INS as the component maps them;
 * bus: cyc and IOQ_allocation; fpa: cyc and SSE_input_assist, which
 * makes VEX keep every register update, so the blocks' IR changes), then
 * runs 16 regions of a mixed kernel (LCG-driven branches, a chase through
 * 512 KB: L1D misses, L2 hits; a pass over 16 MB with a stride of 4 KB:
 * memory misses; an addsd chain) and prints, per region, the cycles and
 * instructions it took (each read is a serializing RDMSR; instr_retired
 * NBOGUSNTAG: with the presets' replay tagging on, the tagged ones are
 * not in it).  Not TAP.
 *
 * t_sampled_reads.c builds it with T_SAMPLED_READS: the same regions with
 * a read(2) of a byte of /dev/zero every 200 iterations, as a program
 * reads its input (the emulated kernel's bookkeeping after each read
 * must not anchor the sampled clock).  Apart, so that this program's
 * kernel, which t_sampled.sh's bounds were measured on, stays as it is.
 */
#include <stdio.h>
#include <string.h>
#include "guest.h"
#include "randcycle.h"
#ifdef T_SAMPLED_READS
#include <fcntl.h>
#include <unistd.h>
static int rd_fd = -1;
#endif

struct xcfg { unsigned escr, ev, mask, ctr; };

static const struct xcfg base[] = {
	{ NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1, 0 },
	{ NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 1, 12 },
};
static const struct xcfg presets[] = {
	{ NB_ESCR_CRU_ESCR2, NB_EV_REPLAY_EVENT, 1, 13 },
	{ NB_ESCR_CRU_ESCR1, NB_EV_MISPRED_BRANCH_RETIRED, 1, 14 },
	{ NB_ESCR_CRU_ESCR3, NB_EV_FRONT_END_EVENT, 1, 15 },
};
static const struct xcfg bus[] = { { NB_ESCR_FSB_ESCR1, NB_EV_IOQ_ALLOCATION, 0xa861, 2 } };
static const struct xcfg fpa[] = { { NB_ESCR_FIRM_ESCR0, NB_EV_SSE_INPUT_ASSIST, 1u << 15, 8 } };

static int program(const struct xcfg *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t escr = ((uint64_t)nb_events[c[i].ev].event_select << NB_ESCR_EVSEL_SHIFT) |
			((uint64_t)c[i].mask << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR;
		uint64_t cccr = NB_CCCR_ENABLE |
			((uint64_t)nb_escrs[c[i].escr].select << NB_CCCR_ESCRSEL_SHIFT) |
			((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT);
		if (!guest_wrmsr(nb_escrs[c[i].escr].msr, escr) ||
		    !guest_wrmsr(nb_counters[c[i].ctr].msr, 0) ||
		    !guest_wrmsr(nb_counters[c[i].ctr].cccr_msr, cccr))
			return 0;
	}
	return 1;
}

#define RING  (512u * 1024u / 64u)      /* 512 KB of 64-byte nodes     */
#define BIG   (16u << 20)               /* 16 MB                       */

static uint64_t x = 42;
static double f = 1.0;
/* static, not malloc'd: the same addresses whatever the tool's options
 * (a malloc'd block moved with --nbsim-stats, and with it the cache
 * sets the program used: other misses, other cycles) */
static void *ring[RING * 8];
static unsigned char big[BIG];
static uint32_t perm[RING];

static uint64_t region(void **q, const unsigned char *big, unsigned r)
{
	uint64_t sum = 0;
	void *p = *q;

	for (unsigned it = 0; it < 40000; it++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned v = (unsigned)(x >> 40);
		switch (v & 3) {
		case 0: sum += v; break;
		case 1: sum ^= v << 3; break;
		case 2: p = *(void **)p; break;
		default: f += 1.5; break;
		}
		if ((it & 15) == 0)
			sum += big[((size_t)(it / 16) * 4096 + r * 64) % BIG];
#ifdef T_SAMPLED_READS
		if (it % 200 == 0) {
			unsigned char b = 1;
			if (read(rd_fd, &b, 1) == 1)
				sum += b;
		}
#endif
	}
	*q = p;
	return sum;
}

int main(int argc, char **argv)
{
	const char *set = argc > 1 ? argv[1] : "cyc";
	void **q;
	uint64_t c0 = 0, i0 = 0, sum = 0;

	if (!nbsim_present())
		return 2;
	memset(big, 1, BIG);
	/* a random cycle through the ring's nodes */
	nb_random_order(perm, RING, 42);
	for (unsigned i = 0; i < RING; i++)
		ring[perm[i] * 8] = &ring[perm[(i + 1) % RING] * 8];
	q = &ring[0];
#ifdef T_SAMPLED_READS
	if ((rd_fd = open("/dev/zero", O_RDONLY)) < 0)
		return 5;
#endif
	if (!program(base, 2) ||
	    (!strcmp(set, "pre") && (!guest_wrmsr(NB_MSR_IA32_PEBS_ENABLE, 0x01000001u) ||
					 !guest_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 1) ||
					 !program(presets, 3))) ||
	    (!strcmp(set, "bus") && !program(bus, 1)) || (!strcmp(set, "fpa") && !program(fpa, 1)))
		return 3;
	for (unsigned r = 0; r < 16; r++) {
		uint64_t c, i;
		sum += region((void **)&q, big, r);
		if (nbsim_rdmsr(nb_counters[0].msr, &c) != NBSIM_OK ||
		    nbsim_rdmsr(nb_counters[12].msr, &i) != NBSIM_OK)
			return 4;
		printf("region %u cycles %llu instructions %llu\n", r, (unsigned long long)(c - c0),
		       (unsigned long long)(i - i0));
		c0 = c;
		i0 = i;
	}
	printf("total cycles %llu instructions %llu checksum %llu %g\n", (unsigned long long)c0,
	       (unsigned long long)i0, (unsigned long long)sum, f);
	return 0;
}
