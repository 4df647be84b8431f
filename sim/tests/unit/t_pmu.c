/*
 * t_pmu.c - native unit test of the PMU register model (pmu.c), TAP.
 */
#include <string.h>
#include "pmu/pmu.h"
#include "tap.h"

static uint64_t sig[NB_NSIG];
static struct nb_pmu P;

#define T0U NB_ESCR_T0_USR
#define CCCR_ON(sel) (NB_CCCR_ENABLE | ((uint64_t)(sel) << NB_CCCR_ESCRSEL_SHIFT) | \
		      ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT))

static uint64_t escr_val(unsigned ev, unsigned mask, uint64_t flags)
{
	return ((uint64_t)nb_events[ev].event_select << NB_ESCR_EVSEL_SHIFT) |
	       ((uint64_t)mask << NB_ESCR_EMASK_SHIFT) | flags;
}

static uint32_t escr_msr(unsigned e) { return nb_escrs[e].msr; }
static uint32_t ctr_msr(unsigned c) { return nb_counters[c].msr; }
static uint32_t cccr_msr(unsigned c) { return nb_counters[c].cccr_msr; }

static int wr(uint32_t msr, uint64_t v) { return nb_pmu_wrmsr(&P, msr, v, sig); }
static uint64_t rd(uint32_t msr)
{
	uint64_t v = 0xdeadbeef;
	if (nb_pmu_rdmsr(&P, msr, &v, sig) != NB_PMU_OK)
		return 0xdeadbeefdeadbeefull;
	return v;
}

static void reset(unsigned model, int ht)
{
	memset(sig, 0, sizeof sig);
	nb_pmu_init(&P, model, ht, NULL, sig);
}

/* Snapshot of all PMU registers, to check "state unchanged". */
struct snap { uint64_t escr[NB_NUM_ESCRS], cccr[18], ctr[18], other[NB_PMU_MAX_OTHER]; };
static void take(struct snap *s)
{
	memcpy(s->escr, P.escr, sizeof s->escr);
	memcpy(s->cccr, P.cccr, sizeof s->cccr);
	memcpy(s->ctr, P.ctr, sizeof s->ctr);
	memcpy(s->other, P.other, sizeof s->other);
}
static int same(const struct snap *s)
{
	struct snap t;
	take(&t);
	return memcmp(s, &t, sizeof t) == 0;
}

/* expect #GP, unchanged state, and a reason containing `needle` */
static void gp(uint32_t msr, uint64_t v, const char *needle, const char *what)
{
	struct snap s;
	int r;
	take(&s);
	r = wr(msr, v);
	if (!tap_ok(r == NB_PMU_GP && same(&s) && strstr(nb_pmu_fault(&P), needle),
		    "#GP, state unchanged: %s", what))
		tap_diag("  r=%d reason \"%s\"", r, nb_pmu_fault(&P));
}

static void okw(uint32_t msr, uint64_t v, const char *what)
{
	int r = wr(msr, v);
	if (!tap_ok(r == NB_PMU_OK && rd(msr) == v, "accepted and reads back: %s", what))
		tap_diag("  r=%d reason \"%s\"", r, nb_pmu_fault(&P));
}

#define INSTR NB_SIG(NB_EV_INSTR_RETIRED, 0)
#define UOPS  NB_SIG(NB_EV_UOPS_RETIRED, 0)
#define BR(b) NB_SIG(NB_EV_BRANCH_RETIRED, (b))
#define CYC   NB_SIG_CYCLES

int main(void)
{
	char buf[200];



	/* ---- reset state, MISC_ENABLE ---- */
	reset(3, 0);
	tap_ok(rd(0x300) == 0 && rd(0x360) == 0 && rd(0x3b8) == 0, "registers are 0 after reset");
	TAP_EQ(rd(NB_MSR_IA32_MISC_ENABLE), 0x80,
	       "IA32_MISC_ENABLE: bit 7 (PM available) = 1, bit 12 (PEBS unavailable) = 0");
	tap_ok(wr(NB_MSR_IA32_MISC_ENABLE, 0x80) == NB_PMU_OK, "IA32_MISC_ENABLE: writing back its value is accepted");
	gp(NB_MSR_IA32_MISC_ENABLE, 0, "read-only", "IA32_MISC_ENABLE: clearing read-only bit 7");

	/* ---- unknown MSRs ---- */
	gp(0x3bf, 0, "unknown MSR", "WRMSR 0x3bf (hole between SSU_ESCR0 and MS_ESCR0)");
	gp(0x186, 0, "unknown MSR", "WRMSR 0x186 (P6 PerfEvtSel0 does not exist)");
	{
		uint64_t v;
		tap_ok(nb_pmu_rdmsr(&P, 0x3c6, &v, sig) == NB_PMU_GP &&
		       strstr(nb_pmu_fault(&P), "unknown MSR"), "RDMSR 0x3c6 (unknown): #GP");
	}

	/* ---- ESCR reserved bits ---- */
	okw(escr_msr(NB_ESCR_CRU_ESCR0), 0x7fffffff, "CRU_ESCR0 = 0x7fffffff (bits 0-30)");
	gp(escr_msr(NB_ESCR_CRU_ESCR0), UINT64_C(1) << 31,
	   "WRMSR 0x3b8 (CRU_ESCR0): reserved bits 0x80000000 set", "ESCR bit 31");
	gp(escr_msr(NB_ESCR_CRU_ESCR0), UINT64_C(1) << 32 | 4, "reserved bits 0x100000000", "ESCR bit 32");
	gp(escr_msr(NB_ESCR_FSB_ESCR0), UINT64_C(1) << 63, "FSB_ESCR0", "ESCR bit 63");
	TAP_EQ(rd(escr_msr(NB_ESCR_CRU_ESCR0)), 0x7fffffff, "CRU_ESCR0 still holds the last good value");

	/* ---- CCCR reserved bits, ActiveThread ---- */
	reset(3, 0);
	for (unsigned b = 0; b < 64; b++) {
		uint64_t v = UINT64_C(1) << b;
		int want = (NB_CCCR_VALID & v) ? NB_PMU_OK : NB_PMU_GP;
		if (b == 12)
			v |= UINT64_C(3) << 16;   /* Enable needs ActiveThread 11b */
		if (wr(cccr_msr(4), v) != want) {
			tap_ok(0, "CCCR bit %u: %s", b, want ? "#GP" : "accepted");
			goto cccr_done;
		}
	}
	tap_ok(1, "CCCR: bits 0-11, 28-29, 32-63 raise #GP; 12-27, 30, 31 are accepted");
cccr_done:
	gp(cccr_msr(4), NB_CCCR_ENABLE, "ActiveThread", "non-HT: Enable with ActiveThread 00b");
	gp(cccr_msr(4), NB_CCCR_ENABLE | (UINT64_C(1) << 16), "must be 11b", "non-HT: Enable with ActiveThread 01b");
	okw(cccr_msr(4), 0, "CCCR = 0 (disabled, ActiveThread 00b) on non-HT");

	/* ---- counters: 40 bits ---- */
	okw(ctr_msr(12), NB_COUNTER_MASK, "counter = 2^40-1");
	gp(ctr_msr(12), UINT64_C(1) << 40, "reserved bits 0x10000000000", "counter bit 40");
	gp(ctr_msr(12), ~UINT64_C(0), "counters are 40 bits", "counter = -1 (64-bit)");

	/* ---- IQ_ESCR0/1 on models 1-2 only ---- */
	for (unsigned m = 0; m <= 6; m++) {
		if (m != 1 && m != 2 && m != 3 && m != 6)
			continue;
		reset(m, 0);
		if (m <= 2) {
			tap_ok(wr(0x3ba, escr_val(NB_EV_INSTR_RETIRED, 1, T0U)) == NB_PMU_OK &&
			       wr(0x3bb, 4) == NB_PMU_OK, "model %u: IQ_ESCR0/1 writable", m);
		} else {
			uint64_t v;
			snprintf(buf, sizeof buf, "model %u", m);
			gp(0x3ba, 4, "ESCR absent on family 15 model", buf);
			tap_ok(nb_pmu_rdmsr(&P, 0x3bb, &v, sig) == NB_PMU_GP, "model %u: RDMSR IQ_ESCR1: #GP", m);
		}
	}

	/* ---- counting: enable, wiring, qualification, masks ---- */
	reset(3, 0);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	wr(escr_msr(NB_ESCR_CRU_ESCR1), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	wr(cccr_msr(12), CCCR_ON(4));                   /* CRU_ESCR0 -> counter 12: wired */
	wr(cccr_msr(13), CCCR_ON(4) & ~NB_CCCR_ENABLE); /* not enabled */
	wr(cccr_msr(14), CCCR_ON(4));                   /* ESCRSelect 4 on 14 = CRU_ESCR1 */
	wr(cccr_msr(16), CCCR_ON(7));                   /* no IQ ESCR has select 7 */
	sig[INSTR] += 100;
	TAP_EQ(rd(ctr_msr(12)), 100, "CRU_ESCR0 instr_retired via counter 12 (wired) counts");
	TAP_EQ(rd(ctr_msr(13)), 0, "Enable clear: counts nothing");
	TAP_EQ(rd(ctr_msr(14)), 100, "counter 14 with ESCRSelect 4 counts through CRU_ESCR1");
	TAP_EQ(rd(ctr_msr(16)), 0, "ESCRSelect naming no ESCR wired to counter 16: counts nothing");
	/* global_power_events on FSB_ESCR0: counters 0,1 wired, 2,3 not */
	wr(escr_msr(NB_ESCR_FSB_ESCR0), escr_val(NB_EV_GLOBAL_POWER_EVENTS, 1, T0U));
	wr(cccr_msr(0), CCCR_ON(6));
	wr(cccr_msr(2), CCCR_ON(6));                    /* selects FSB_ESCR1 (unprogrammed) */
	sig[CYC] += 77;
	TAP_EQ(rd(ctr_msr(0)), 77, "FSB_ESCR0 through counter 0 (wired) counts cycles");
	TAP_EQ(rd(ctr_msr(2)), 0, "counter 2 cannot reach FSB_ESCR0 (selects FSB_ESCR1): nothing");
	/* counts before enable / after disable are not counted */
	wr(cccr_msr(12), 0);
	sig[INSTR] += 50;
	TAP_EQ(rd(ctr_msr(12)), 100, "disabled counter keeps its value");
	wr(cccr_msr(12), CCCR_ON(4));
	sig[INSTR] += 5;
	TAP_EQ(rd(ctr_msr(12)), 105, "re-enabled: only events after enabling count");

	/* USR/OS qualification */
	wr(ctr_msr(12), 0);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, NB_ESCR_T0_OS));
	sig[INSTR] += 10;
	TAP_EQ(rd(ctr_msr(12)), 0, "T0_OS only: counts nothing (guest code is user mode)");
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, NB_ESCR_T1_USR | NB_ESCR_T1_OS));
	sig[INSTR] += 10;
	TAP_EQ(rd(ctr_msr(12)), 0, "T1_USR|T1_OS: counts nothing (logical processor 1 runs no guest code)");
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, NB_ESCR_T0_OS | T0U));
	sig[INSTR] += 10;
	TAP_EQ(rd(ctr_msr(12)), 10, "T0_USR|T0_OS: counts user-mode events");

	/* event select mismatch */
	wr(ctr_msr(12), 0);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_BRANCH_RETIRED, 0xf, T0U));
	sig[BR(0)] += 3; sig[BR(2)] += 4; sig[INSTR] += 9;
	TAP_EQ(rd(ctr_msr(12)), 0, "branch_retired select on CRU_ESCR0 (it only lives on CRU_ESCR2/3): nothing");
	wr(escr_msr(NB_ESCR_CRU_ESCR0), ((uint64_t)0x3f << NB_ESCR_EVSEL_SHIFT) | (1 << 9) | T0U);
	sig[INSTR] += 9;
	TAP_EQ(rd(ctr_msr(12)), 0, "EventSelect 0x3f (no event): nothing");
	/* undefined mask bits of a real event count nothing */
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_UOPS_RETIRED, 0xfffc, T0U));
	sig[UOPS] += 9;
	TAP_EQ(rd(ctr_msr(12)), 0, "uops_retired with only undefined mask bits: nothing");

	/* masks combine */
	wr(escr_msr(NB_ESCR_CRU_ESCR2), escr_val(NB_EV_BRANCH_RETIRED, 0x5, T0U)); /* MMNP|MMTP */
	wr(escr_msr(NB_ESCR_CRU_ESCR3), escr_val(NB_EV_BRANCH_RETIRED, 0x2, T0U)); /* MMNM */
	wr(cccr_msr(13), CCCR_ON(5));
	wr(cccr_msr(15), CCCR_ON(5));
	sig[BR(0)] += 11; sig[BR(1)] += 13; sig[BR(2)] += 17; sig[BR(3)] += 19;
	TAP_EQ(rd(ctr_msr(13)), 28, "branch_retired MMNP|MMTP = 11 + 17");
	TAP_EQ(rd(ctr_msr(15)), 13, "branch_retired MMNM alone = 13");
	tap_ok((P.events_in_use >> NB_EV_BRANCH_RETIRED) & 1,
	       "events_in_use reports branch_retired (for selective instrumentation)");

	/* ---- wrap and OVF ---- */
	reset(2, 0);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	wr(ctr_msr(12), NB_COUNTER_MASK - 4);
	wr(cccr_msr(12), CCCR_ON(4));
	sig[INSTR] += 4;
	tap_ok(rd(ctr_msr(12)) == NB_COUNTER_MASK && !(rd(cccr_msr(12)) & NB_CCCR_OVF),
	       "2^40-5 + 4 = 2^40-1, no OVF");
	sig[INSTR] += 6;
	TAP_EQ(rd(ctr_msr(12)), 5, "40-bit wrap: 2^40-1 + 6 = 5");
	tap_ok(rd(cccr_msr(12)) & NB_CCCR_OVF, "OVF set in the CCCR on wrap");
	sig[INSTR] += 1;
	tap_ok((rd(cccr_msr(12)) & NB_CCCR_OVF) && rd(ctr_msr(12)) == 6, "OVF is sticky, counting goes on");
	wr(cccr_msr(12), CCCR_ON(4));
	tap_ok(!(rd(cccr_msr(12)) & NB_CCCR_OVF), "software clears OVF by writing the CCCR");
	wr(cccr_msr(12), CCCR_ON(4) | NB_CCCR_FORCE_OVF);
	tap_ok(!(rd(cccr_msr(12)) & NB_CCCR_OVF), "FORCE_OVF: no OVF without an increment");
	sig[INSTR] += 1;
	tap_ok(rd(cccr_msr(12)) & NB_CCCR_OVF, "FORCE_OVF: OVF on the next increment");

	/* ---- overflow interrupts (OVF_PMI_T0 / T1) ---- */
	reset(3, 0);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	wr(ctr_msr(12), NB_COUNTER_MASK - 9);                     /* 10 to overflow */
	wr(cccr_msr(12), CCCR_ON(4) | NB_CCCR_OVF_PMI_T0);
	wr(ctr_msr(13), NB_COUNTER_MASK - 9);
	wr(cccr_msr(13), CCCR_ON(4));                              /* no PMI bit */
	wr(ctr_msr(16), NB_COUNTER_MASK - 9);
	wr(cccr_msr(16), CCCR_ON(4) | NB_CCCR_OVF_PMI_T1);         /* PMI to T1 */
	TAP_EQ(P.pmi_armed, 1u << 12, "pmi_armed: only the counter with OVF_PMI_T0");
	sig[INSTR] += 9;
	nb_pmu_sync(&P, sig);
	TAP_EQ(nb_pmu_take_pmi(&P), 0, "no PMI before the overflow (2^40-10 + 9)");
	sig[INSTR] += 1;
	nb_pmu_sync(&P, sig);
	TAP_EQ(P.pmi_pending, 1u << 12,
	       "overflow: PMI pending for OVF_PMI_T0 only (13 has no PMI bit, 16 asks for T1)");
	tap_ok((rd(cccr_msr(12)) & NB_CCCR_OVF) && (rd(cccr_msr(13)) & NB_CCCR_OVF) &&
	       (rd(cccr_msr(16)) & NB_CCCR_OVF), "OVF set on all three");
	TAP_EQ(nb_pmu_take_pmi(&P), 1u << 12, "take_pmi returns counter 12");
	TAP_EQ(nb_pmu_take_pmi(&P), 0, "and clears it");
	sig[INSTR] += 5;
	nb_pmu_sync(&P, sig);
	TAP_EQ(nb_pmu_take_pmi(&P), 0, "counting on after the overflow: no new PMI");
	wr(cccr_msr(12), CCCR_ON(4));
	TAP_EQ(P.pmi_armed, 0, "OVF_PMI_T0 cleared: not armed");
	wr(cccr_msr(12), NB_CCCR_OVF_PMI_T0);
	TAP_EQ(P.pmi_armed, 0, "OVF_PMI_T0 with Enable clear: not armed");
	wr(cccr_msr(12), CCCR_ON(4) | NB_CCCR_OVF_PMI_T0 | NB_CCCR_FORCE_OVF);
	sig[INSTR] += 1;
	nb_pmu_sync(&P, sig);
	TAP_EQ(nb_pmu_take_pmi(&P), 1u << 12, "FORCE_OVF with OVF_PMI_T0: PMI on an increment");

	/* HT: OVF_PMI_T1 requests a PMI for LP1, both bits one for each LP
	 * [SDM 18.15.3 CCCR bits 26/27]; without HT, T1 requests nothing */
	reset(3, 1);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, T0U | NB_ESCR_T1_USR));
	wr(ctr_msr(12), NB_COUNTER_MASK - 9);
	wr(cccr_msr(12), CCCR_ON(4) | NB_CCCR_OVF_PMI_T1);
	wr(ctr_msr(13), NB_COUNTER_MASK - 9);
	wr(cccr_msr(13), CCCR_ON(4) | NB_CCCR_OVF_PMI_T0 | NB_CCCR_OVF_PMI_T1);
	wr(ctr_msr(16), NB_COUNTER_MASK - 9);
	wr(cccr_msr(16), CCCR_ON(4) | NB_CCCR_OVF_PMI_T0);
	TAP_EQ(P.pmi_armed, (1u << 12) | (1u << 13) | (1u << 16), "HT: pmi_armed with OVF_PMI_T0 or T1");
	sig[INSTR] += 10;
	nb_pmu_sync(&P, sig);
	TAP_EQ(nb_pmu_take_pmi_lp(&P, 1), (1u << 12) | (1u << 13), "HT: PMI for LP1: the T1 and T0+T1 counters");
	TAP_EQ(nb_pmu_take_pmi_lp(&P, 1), 0, "HT: LP1's PMIs cleared");
	TAP_EQ(nb_pmu_take_pmi_lp(&P, 0), (1u << 13) | (1u << 16), "HT: PMI for LP0: the T0 and T0+T1 counters");
	reset(3, 0);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	wr(ctr_msr(12), NB_COUNTER_MASK - 9);
	wr(cccr_msr(12), CCCR_ON(4) | NB_CCCR_OVF_PMI_T1);
	TAP_EQ(P.pmi_armed, 0, "no HT: OVF_PMI_T1 alone does not arm");
	sig[INSTR] += 10;
	nb_pmu_sync(&P, sig);
	tap_ok((rd(cccr_msr(12)) & NB_CCCR_OVF) && nb_pmu_take_pmi_lp(&P, 1) == 0 &&
	       nb_pmu_take_pmi_lp(&P, 0) == 0, "no HT: OVF_PMI_T1: OVF set, no PMI for either LP");

	/* ---- RDPMC ---- */
	{
		uint64_t v = 0;
		wr(ctr_msr(12), UINT64_C(0x2345678abc));
		tap_ok(nb_pmu_rdpmc(&P, 12, &v, sig) == NB_PMU_OK && v == UINT64_C(0x2345678abc),
		       "RDPMC 12: full 40-bit read");
		tap_ok(nb_pmu_rdpmc(&P, 12 | 0x80000000u, &v, sig) == NB_PMU_OK && v == 0x45678abcull,
		       "RDPMC 12|bit31: fast read, low 32 bits");
		tap_ok(nb_pmu_rdpmc(&P, 17, &v, sig) == NB_PMU_OK, "RDPMC 17 (last counter) ok");
		tap_ok(nb_pmu_rdpmc(&P, 18, &v, sig) == NB_PMU_GP && strstr(nb_pmu_fault(&P), "RDPMC"),
		       "RDPMC 18: #GP");
		tap_ok(nb_pmu_rdpmc(&P, 0x80000012u, &v, sig) == NB_PMU_GP, "RDPMC 18|bit31: #GP");
	}

	/* ---- PEBS and tagging MSRs (writable masks from pmu.txt) ---- */
	for (unsigned i = 0; i < nb_num_msrs; i++) {
		const struct nb_msr *m = &nb_msrs[i];
		uint64_t bad = ~m->writable & ~(UINT64_C(0));
		if (m->addr == NB_MSR_IA32_MISC_ENABLE)
			continue;
		snprintf(buf, sizeof buf, "%s = writable mask %#llx", m->name,
			 (unsigned long long)m->writable);
		okw(m->addr, m->writable, buf);
		if (bad) {
			uint64_t low = bad & -bad;
			snprintf(buf, sizeof buf, "%s: first reserved bit %#llx", m->name,
				 (unsigned long long)low);
			gp(m->addr, low, "reserved bits", buf);
		} else {
			tap_ok(1, "%s: no reserved bits", m->name);
		}
	}
	/* seed 003 sec. 9: IA32_PEBS_ENABLE bits 3-8 reserved, 24 tag, 25 enable_pebs */
	gp(NB_MSR_IA32_PEBS_ENABLE, 1 << 3, "reserved bits 0x8", "IA32_PEBS_ENABLE bit 3 (seed 003)");
	okw(NB_MSR_IA32_PEBS_ENABLE, (1u << 24) | (1u << 25) | 1, "IA32_PEBS_ENABLE bits 0, 24, 25 (seed 003)");
	gp(NB_MSR_MSR_PEBS_MATRIX_VERT, 4, "reserved", "MSR_PEBS_MATRIX_VERT bit 2 (seed 003)");

	/* ---- Hyper-Threading: ActiveThread ---- */
	reset(3, 1);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	tap_ok(wr(cccr_msr(12), NB_CCCR_ENABLE | (4u << 13) | (UINT64_C(1) << 16)) == NB_PMU_OK &&
	       wr(cccr_msr(13), NB_CCCR_ENABLE | (4u << 13) | (UINT64_C(2) << 16)) == NB_PMU_OK,
	       "HT: ActiveThread 01b and 10b accepted");
	sig[INSTR] += 8;
	tap_ok(rd(ctr_msr(12)) == 8 && rd(ctr_msr(13)) == 0,
	       "HT, only logical processor 0 active: ActiveThread 01b (single) counts, 10b (both) not");

	/* ---- Compare / Complement / Threshold / Edge ---- */
	reset(3, 0);
	wr(escr_msr(NB_ESCR_FSB_ESCR0), escr_val(NB_EV_GLOBAL_POWER_EVENTS, 1, T0U));
	wr(cccr_msr(0), CCCR_ON(6) | NB_CCCR_COMPARE);  /* cycles with > 0 */
	wr(escr_msr(NB_ESCR_CRU_ESCR1), escr_val(NB_EV_UOPS_RETIRED, 1, T0U));
	wr(cccr_msr(14), CCCR_ON(4) | NB_CCCR_COMPARE | NB_CCCR_COMPLEMENT); /* cycles with <= 0 uops */
	wr(cccr_msr(15), CCCR_ON(4) | NB_CCCR_COMPARE | (UINT64_C(2) << NB_CCCR_THR_SHIFT)); /* > 2 */
	wr(cccr_msr(17), CCCR_ON(4) | NB_CCCR_COMPARE | NB_CCCR_EDGE);
	sig[CYC] += 100;
	sig[UOPS] += 31;        /* packed at 3/cycle: 10 cycles of 3, 1 of 1, 89 idle */
	TAP_EQ(rd(ctr_msr(0)), 100, "Compare, threshold 0 on global_power_events: every cycle");
	TAP_EQ(rd(ctr_msr(14)), 89, "Compare+Complement threshold 0 on uops: cycles retiring none");
	TAP_EQ(rd(ctr_msr(15)), 10, "Compare threshold 2 on uops: cycles retiring 3");
	TAP_EQ(rd(ctr_msr(17)), 1, "Compare+Edge: one rising edge per burst");

	/* ---- per-cycle counting (the CPU model reports cycles) ---- */
	reset(3, 0);
	nb_pmu_cycle_input(&P, 1);
	wr(escr_msr(NB_ESCR_FSB_ESCR0), escr_val(NB_EV_GLOBAL_POWER_EVENTS, 1, T0U));
	wr(cccr_msr(0), CCCR_ON(6) | NB_CCCR_COMPARE | NB_CCCR_COMPLEMENT |
	   (UINT64_C(15) << NB_CCCR_THR_SHIFT));                 /* every cycle */
	wr(escr_msr(NB_ESCR_CRU_ESCR1), escr_val(NB_EV_UOPS_RETIRED, 1, T0U));
	wr(cccr_msr(14), CCCR_ON(4) | NB_CCCR_COMPARE | NB_CCCR_COMPLEMENT); /* <= 0 uops */
	wr(cccr_msr(15), CCCR_ON(4) | NB_CCCR_COMPARE | (UINT64_C(2) << NB_CCCR_THR_SHIFT)); /* > 2 */
	wr(cccr_msr(17), CCCR_ON(4) | NB_CCCR_COMPARE | NB_CCCR_EDGE);   /* rising > 0 */
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	wr(cccr_msr(12), CCCR_ON(4));                            /* lazy */
	TAP_EQ(P.cycle_counters, (1u << 14) | (1u << 15) | (1u << 17),
	       "per-cycle counters: the three whose Compare condition depends on the output "
	       "(Complement threshold 15 is true every cycle: counted from the cycle count)");
	/* 4 cycles of 3 uops, 1 of 1, 5 idle, 1 of 3 */
	sig[UOPS] += 12; nb_pmu_cycles_const(&P, 4, UOPS, 3);
	sig[UOPS] += 1;  nb_pmu_cycle(&P, sig);
	nb_pmu_cycles_const(&P, 5, UOPS, 0);
	sig[UOPS] += 3;  nb_pmu_cycle(&P, sig);
	sig[INSTR] += 5;
	sig[CYC] += 11;
	TAP_EQ(rd(ctr_msr(0)), 11, "cycle input: Complement threshold 15 counts every reported cycle");
	TAP_EQ(rd(ctr_msr(14)), 5, "cycle input: idle cycles (<= 0 uops)");
	TAP_EQ(rd(ctr_msr(15)), 5, "cycle input: cycles retiring 3 uops");
	TAP_EQ(rd(ctr_msr(17)), 2, "cycle input: Edge counts the two bursts");
	TAP_EQ(rd(ctr_msr(12)), 5, "cycle input: an unfiltered counter stays lazy");
	sig[UOPS] += 2; sig[CYC] += 5;
	TAP_EQ(rd(ctr_msr(14)), 5, "cycle input: a sync adds nothing to per-cycle counters");
	nb_pmu_cycle(&P, sig);
	TAP_EQ(rd(ctr_msr(15)) * 100 + rd(ctr_msr(14)) * 10 + rd(ctr_msr(17)), 552,
	       "cycle input: a cycle of 2 uops (neither idle nor > 2; no edge)");

	/* ---- Cascade [SDM 18.15.5.6]: counter 14 from its alternate 12 ---- */
	reset(3, 0);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	wr(escr_msr(NB_ESCR_CRU_ESCR1), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	wr(ctr_msr(12), NB_COUNTER_MASK - 9);                  /* overflows after 10 */
	wr(cccr_msr(12), CCCR_ON(4));
	wr(cccr_msr(14), (CCCR_ON(4) & ~NB_CCCR_ENABLE) | NB_CCCR_CASCADE);
	sig[INSTR] += 6;
	TAP_EQ(rd(ctr_msr(14)), 0, "cascade: 14 idle until 12 overflows");
	sig[INSTR] += 19;
	TAP_EQ(rd(ctr_msr(12)), 15, "cascade: 12 wrapped (2^40-10 + 25 = 15)");
	tap_ok((rd(cccr_msr(12)) & NB_CCCR_OVF) && !(rd(cccr_msr(14)) & NB_CCCR_OVF),
	       "cascade: OVF set on 12 only");
	TAP_EQ(rd(ctr_msr(14)), 15, "cascade (lazy, same event): 14 counts the 15 events after 12 overflowed");
	sig[INSTR] += 5;
	TAP_EQ(rd(ctr_msr(14)), 20, "cascade: 14 keeps counting");
	wr(cccr_msr(12), CCCR_ON(4));                          /* clear OVF */
	sig[INSTR] += 5;
	tap_ok(rd(ctr_msr(12)) == 25 && rd(ctr_msr(14)) == 20,
	       "cascade: clearing the alternate's OVF halts 14 [SDM 18.15.6.5]");
	/* per cycle, different events: 12 instr (1/cycle), 14 uops (2/cycle) */
	reset(3, 0);
	nb_pmu_cycle_input(&P, 1);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	wr(escr_msr(NB_ESCR_CRU_ESCR1), escr_val(NB_EV_UOPS_RETIRED, 1, T0U));
	wr(ctr_msr(12), NB_COUNTER_MASK - 2);                  /* overflows in cycle 3 */
	wr(cccr_msr(12), CCCR_ON(4));
	wr(cccr_msr(14), (CCCR_ON(4) & ~NB_CCCR_ENABLE) | NB_CCCR_CASCADE);
	TAP_EQ(P.cycle_counters, (1u << 12) | (1u << 14), "cascade: 14 and its alternate 12 per cycle");
	for (int i = 0; i < 10; i++) {
		sig[INSTR] += 1; sig[UOPS] += 2;
		nb_pmu_cycle(&P, sig);
	}
	tap_ok(rd(ctr_msr(12)) == 7 && rd(ctr_msr(14)) == 14,
	       "cascade per cycle: 12 wraps in cycle 3, 14 counts cycles 4-10 (7 x 2 uops)");

	/* ---- Hyper-Threading: T0/T1 qualification and ActiveThread ---- */
	reset(3, 1);
	wr(escr_msr(NB_ESCR_CRU_ESCR0), escr_val(NB_EV_INSTR_RETIRED, 1, T0U));
	wr(escr_msr(NB_ESCR_CRU_ESCR1), escr_val(NB_EV_INSTR_RETIRED, 1, NB_ESCR_T1_USR));
	wr(escr_msr(NB_ESCR_CRU_ESCR2), escr_val(NB_EV_BRANCH_RETIRED, 1u << 2, T0U | NB_ESCR_T1_USR));
	wr(cccr_msr(12), CCCR_ON(4));
	wr(cccr_msr(14), CCCR_ON(4));
	wr(cccr_msr(13), (CCCR_ON(5) & ~NB_CCCR_ACTIVE_MASK) | ((uint64_t)NB_ACTIVE_SINGLE << NB_CCCR_ACTIVE_SHIFT));
	wr(cccr_msr(16), (CCCR_ON(5) & ~NB_CCCR_ACTIVE_MASK) | ((uint64_t)NB_ACTIVE_BOTH << NB_CCCR_ACTIVE_SHIFT));
	nb_pmu_set_lp(&P, 0, 1, sig);
	sig[INSTR] += 10; sig[BR(2)] += 4;
	nb_pmu_set_lp(&P, 1, 3, sig);       /* LP0's interval ends; LP1 starts, both active */
	sig[INSTR] += 7; sig[BR(2)] += 2;
	nb_pmu_set_lp(&P, 0, 3, sig);
	sig[INSTR] += 1;
	TAP_EQ(rd(ctr_msr(12)), 11, "HT: T0_USR counts LP0's instructions (10 + 1)");
	TAP_EQ(rd(ctr_msr(14)), 7, "HT: T1_USR counts LP1's instructions");
	TAP_EQ(rd(ctr_msr(13)), 4, "HT: T0|T1 with ActiveThread 01 (single): only while one LP is active");
	TAP_EQ(rd(ctr_msr(16)), 2, "HT: ActiveThread 10 (both): only while both LPs are active");
	reset(3, 0);
	wr(escr_msr(NB_ESCR_CRU_ESCR1), escr_val(NB_EV_INSTR_RETIRED, 1, NB_ESCR_T1_USR));
	wr(cccr_msr(14), CCCR_ON(4));
	sig[INSTR] += 3;
	TAP_EQ(rd(ctr_msr(14)), 0, "no HT: T1_USR counts nothing");

	return tap_done_plan();
}
