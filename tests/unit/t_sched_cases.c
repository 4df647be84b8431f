/*
 * t_sched_cases.c - scheduler and encoder cases with known answers:
 * conflict reports name the events and the resource; metrics get their
 * helpers, tags and PEBS MSRs; counter 1; HT reservations; register images
 * against seed 003's worked perfex configurations.
 */
#include <stdio.h>
#include <string.h>
#include "nb_sched.h"
#include "nb_encode.h"

static int tests, failed;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++tests, what);
	failed += !cond;
}

static int metric(const char *name)
{
	for (unsigned i = 0; i < nb_num_metrics; i++)
		if (!strcmp(nb_metrics[i].name, name))
			return (int)i;
	return -1;
}

static unsigned escr(const char *name)
{
	for (unsigned i = 0; i < nb_num_escrs; i++)
		if (!strcmp(nb_escrs[i].name, name))
			return i;
	return 63;
}

static struct nb_evsel M(const char *name)
{
	struct nb_evsel s;

	memset(&s, 0, sizeof(s));
	s.kind = NB_SEL_METRIC;
	s.event = (uint16_t)metric(name);
	return s;
}

static struct nb_evsel E(const char *name)
{
	struct nb_evsel s;
	char err[256];

	memset(&s, 0, sizeof(s));
	if (nb_evsel_parse(name, 2, 0, &s, err, sizeof(err)))
		printf("# parse %s: %s\n", name, err);
	return s;
}

static int run(const struct nb_evsel *r, int n, const struct nb_sched_cpu *cpu,
	       struct nb_assign *a, char *why)
{
	int rc = nb_sched_run(r, n, cpu, a, NULL, why, 512);

	if (rc)
		printf("# %s\n", why);
	return rc;
}

int main(void)
{
	struct nb_sched_cpu cpu;
	struct nb_assign a;
	struct nb_evsel r[NB_SCHED_MAX];
	struct nb_regs g;
	struct nb_msr_image x[40];
	char why[512];
	int n;

	memset(&cpu, 0, sizeof(cpu));
	cpu.model = 2;

	/* replay: one MSR setting at a time */
	r[0] = M("1stL_cache_load_miss_retired");
	r[1] = M("DTLB_store_miss_retired");
	ok(run(r, 2, &cpu, &a, why) && strstr(why, "1stL_cache_load_miss_retired") &&
	   strstr(why, "DTLB_store_miss_retired") && strstr(why, "IA32_PEBS_ENABLE"),
	   "two replay metrics with different MSR values: conflict names both and IA32_PEBS_ENABLE");
	r[1] = r[0];
	ok(!run(r, 2, &cpu, &a, why) && a.pebs_enable == 0x01000001 && a.matrix_vert == 1 &&
	   a.slot[0].escr == a.slot[1].escr, "same replay metric twice: placed, sharing the ESCR");

	/* seed 003 l.2978-3010: 1stL_cache_load_miss_retired as perfex
	 * 0x0003B000/0x1200020C@12 with PEBS_ENABLE 0x01000001, MATRIX_VERT 1 */
	n = 1;
	ok(!run(r, n, &cpu, &a, why), "1stL_cache_load_miss_retired placed");
	nb_encode_ex(&r[0], &a.slot[0], NB_DOM_USER | NB_DOM_KERNEL, 0, 0, &g);
	ok(g.escr == 0x1200020C && g.cccr == 0x0003B000, "1stL: ESCR 1200020CH, CCCR 0003B000H (seed 003)");
	ok(nb_encode_extra(&a, NB_DOM_USER, 0, x, 40) == 2 && x[0].msr == 0x3f1 && x[0].value == 0x01000001 &&
	   x[1].msr == 0x3f2 && x[1].value == 1, "1stL: IA32_PEBS_ENABLE 01000001H, MSR_PEBS_MATRIX_VERT 1");

	/* front-end: one tag; seed 003 memory_loads: uop_type ESCR 04000405H
	 * (T0 and T1 USR), CCCR 00035000H; front_end_event 10000205H, 0003B000H */
	r[0] = M("Memory_loads");
	ok(!run(r, 1, &cpu, &a, why) && a.nhelpers == 1, "Memory_loads placed with one helper ESCR");
	ok(nb_encode_extra(&a, NB_DOM_USER, 0, x, 40) == 1 && (x[0].value | NB_ESCR_T1_USR) == 0x04000405,
	   "Memory_loads helper uop_type:TAGLOADS ESCR = 04000405H less T1_USR (seed 003)");
	nb_encode_ex(&r[0], &a.slot[0], NB_DOM_USER, 0, 0, &g);
	ok((g.escr | NB_ESCR_T1_USR) == 0x10000205 && g.cccr == 0x0003B000,
	   "Memory_loads count front_end_event:NBOGUS 10000205H, 0003B000H (seed 003)");
	r[1] = M("Memory_stores");
	ok(run(r, 2, &cpu, &a, why) && strstr(why, "front-end"), "Memory_loads + Memory_stores: front-end conflict");
	/* a counted uop_type tags too (no TagEnable in seed 003's example) */
	r[1] = E("uop_type:TAGSTORES");
	ok(run(r, 2, &cpu, &a, why) && strstr(why, "uop_type:TAGSTORES tags uops that Memory_loads"),
	   "Memory_loads + uop_type:TAGSTORES: the stores would be tagged too");
	r[1] = E("uop_type:TAGLOADS");
	ok(!run(r, 2, &cpu, &a, why), "Memory_loads + uop_type:TAGLOADS: the same tag, placed");
	r[0] = M("Memory_loads_stores");
	r[1] = E("uop_type:TAGSTORES");
	ok(!run(r, 2, &cpu, &a, why), "Memory_loads_stores + uop_type:TAGSTORES: placed");

	/* execution: distinct tags; execution_event has two ESCRs */
	r[0] = M("packed_SP_retired");
	r[1] = M("scalar_DP_retired");
	ok(!run(r, 2, &cpu, &a, why) && a.slot[0].masks != a.slot[1].masks && a.nhelpers == 2 &&
	   a.helper[0].tag != a.helper[1].tag && a.helper[0].tag < 4 && a.helper[1].tag < 4,
	   "two execution metrics: distinct tag bits, NBOGUSn masks and tagged helpers");
	nb_encode_extra(&a, NB_DOM_USER, 0, x, 40);
	ok((x[0].value & NB_ESCR_TAG_ENABLE) && (x[1].value & NB_ESCR_TAG_ENABLE),
	   "helpers have TagEnable");
	r[2] = M("X87_FP_retired");
	ok(run(r, 3, &cpu, &a, why) && strstr(why, "X87_FP_retired") && strstr(why, "FIRM_ESCR0"),
	   "a third execution metric: its helper x87_FP_uop needs FIRM_ESCR0/1, both taken: conflict names them");

	/* libpfm4's TAGn: the tag value kept as given, on the upstream
	 * event's own counter; metrics' tag bits around it; clashes */
	{
		struct nb_regs g;
		int cul;

		r[0] = E("x87_FP_uop:ALL:TAG1");
		r[1] = E("execution_event:NBOGUS1");
		r[2] = M("scalar_DP_retired");
		ok(!run(r, 3, &cpu, &a, why) && a.slot[0].tag_value == 0x2 &&
		   nb_counters[a.slot[0].counter].group == nb_escrs[escr("FIRM_ESCR0")].group &&
		   a.slot[1].tag_value == 0 && a.nhelpers == 1 && a.helper[0].tag != 1 &&
		   a.helper[0].tag < 4 && a.slot[2].masks == (1u << a.helper[0].tag),
		   "x87_FP_uop:ALL:TAG1 + NBOGUS1 + a metric: TagValue 0x2 kept, the metric's bit is another");
		nb_encode_ex(&r[0], &a.slot[0], NB_DOM_USER, 0, 0, &g);
		ok(g.escr == 0x09000054,
		   "its ESCR: select 4, ALL, TagEnable, TagValue 2, T0_USR = 0x09000054");
		ok((nb_perf_raw(&r[0], NB_DOM_USER) >> 32 & 0x1f0) == (NB_ESCR_TAG_ENABLE | (2u << NB_ESCR_TAG_SHIFT)),
		   "its perf raw config carries TagEnable and TagValue");
		r[1] = E("x87_FP_uop:ALL:TAG2");
		r[2] = E("scalar_SP_uop:ALL:TAG1:TAG2");
		ok(nb_sched_run(r, 3, &cpu, &a, &cul, why, 512) && cul == 2 && strstr(why, "share bits"),
		   "scalar_SP_uop:ALL:TAG1:TAG2 beside TAG1 and TAG2 of x87_FP_uop: overlapping values refused");
		r[1] = E("x87_FP_uop:ALL:TAG2");
		r[2] = E("execution_event:NBOGUS1:NBOGUS2");
		ok(!run(r, 3, &cpu, &a, why) && a.slot[0].tag_value == 2 && a.slot[1].tag_value == 4,
		   "one class tagged with two values (FIRM_ESCR0 and 1): both kept");
		r[0] = E("execution_event:NBOGUS0");
		r[1] = E("scalar_SP_uop:ALL:TAG3");
		ok(nb_sched_run(r, 2, &cpu, &a, &cul, why, 512) && cul == 1 &&
		   strstr(why, "execution_event:NBOGUS3"), "TAG3 beside NBOGUS0 alone: refused, naming NBOGUS3");
		r[2] = E("execution_event:NBOGUS3");
		ok(nb_sched_tag_pairing(r, 3, why, 512) == 0 && nb_sched_tag_pairing(r, 2, why, 512) == -1,
		   "pairing over a whole set: NBOGUS3 makes it right");
		{
			int lead[3];

			nb_sched_tag_bonds(r, 3, lead);
			ok(lead[0] == 0 && lead[1] == 1 && lead[2] == 1,
			   "bonds: TAG3 with NBOGUS3, NBOGUS0 alone");
		}
	}

	/* counter 1 (CCCR1 erratum) */
	r[0] = E("BSQ_allocation:REQ_TYPE0");
	r[1] = E("BSQ_allocation:REQ_TYPE0");
	ok(run(r, 2, &cpu, &a, why) && strstr(why, "counter 1"),
	   "BSQ_allocation (BSU_ESCR0: counters 0, 1) twice: counter 1 avoided, reason says so");
	cpu.flags = NB_SCHED_ALLOW_CTR1;
	ok(!run(r, 2, &cpu, &a, why) && (a.counters_used & 2), "... and placed when counter 1 is allowed");
	cpu.flags = 0;

	/* one configuration per ESCR */
	r[0] = E("BSQ_allocation:REQ_TYPE0");
	r[1] = E("BSQ_allocation:REQ_TYPE1");
	ok(run(r, 2, &cpu, &a, why) && strstr(why, "BSQ_allocation:REQ_TYPE1") &&
	   strstr(why, "BSQ_allocation:REQ_TYPE0") && strstr(why, "ESCR"),
	   "two BSQ_allocation configurations need BSU_ESCR0: conflict names both and the ESCRs");

	/* model-specific */
	cpu.model = 2;
	memset(&r[0], 0, sizeof(r[0]));
	r[0].event = NB_EV_INSTR_COMPLETED;
	r[0].masks = 1;
	ok(run(r, 1, &cpu, &a, why) && strstr(why, "model 2"), "instr_completed does not exist on model 2");
	cpu.model = 3;
	ok(!run(r, 1, &cpu, &a, why), "instr_completed placed on model 3");

	/* Hyper-Threading: the sibling's ESCRs, counters and PEBS MSRs */
	memset(&cpu, 0, sizeof(cpu));
	cpu.model = 3;
	cpu.thread = 1;
	r[0] = E("TC_deliver_mode:DD");
	cpu.busy_escrs = (UINT64_C(1) << escr("TC_ESCR0")) | (UINT64_C(1) << escr("TC_ESCR1"));
	ok(run(r, 1, &cpu, &a, why) &&
	   strstr(why, "other logical processor"), "HT: sibling holds TC_ESCR0/1: TC_deliver_mode rejected");
	cpu.busy_escrs = UINT64_C(1) << escr("TC_ESCR0");
	ok(!run(r, 1, &cpu, &a, why) && a.slot[0].escr == escr("TC_ESCR1"), "HT: sibling holds TC_ESCR0: TC_ESCR1 used");
	nb_encode_ex(&r[0], &a.slot[0], NB_DOM_USER, 1, NB_ENC_PMI, &g);
	ok((g.escr & 0xf) == NB_ESCR_T1_USR && (g.cccr & NB_CCCR_OVF_PMI_T1) && !(g.cccr & NB_CCCR_OVF_PMI_T0),
	   "thread 1: T1_USR, OVF_PMI_T1");
	cpu.busy_escrs = 0;
	cpu.busy_pebs_enable = 0x01000004;
	cpu.busy_matrix_vert = 2;
	r[0] = M("1stL_cache_load_miss_retired");
	ok(run(r, 1, &cpu, &a, why) && strstr(why, "other logical processor"),
	   "HT: sibling's replay MSR values differ: rejected");

	/* CCCR modifiers */
	r[0] = E("TC_deliver_mode:DD");
	r[0].cccr = NB_CCCR_MOD_CMP | NB_CCCR_MOD_CMPL | NB_CCCR_MOD_EDGE | NB_CCCR_MOD_ACTIVE;
	r[0].thr = 5;
	r[0].active = NB_ACTIVE_SINGLE;
	memset(&cpu, 0, sizeof(cpu));
	run(r, 1, &cpu, &a, why);
	nb_encode_ex(&r[0], &a.slot[0], NB_DOM_USER, 0, 0, &g);
	ok((g.cccr & (NB_CCCR_COMPARE | NB_CCCR_COMPLEMENT | NB_CCCR_EDGE)) ==
	   (NB_CCCR_COMPARE | NB_CCCR_COMPLEMENT | NB_CCCR_EDGE) &&
	   ((g.cccr & NB_CCCR_THR_MASK) >> NB_CCCR_THR_SHIFT) == 5 &&
	   ((g.cccr & NB_CCCR_ACTIVE_MASK) >> NB_CCCR_ACTIVE_SHIFT) == NB_ACTIVE_SINGLE &&
	   !(g.cccr & ~NB_CCCR_VALID), "CCCR: compare, threshold 5, complement, edge, ActiveThread 01b");

	/* perf raw: replay metric index in CCCR bits 0-6 [kernel_p4.txt]; the
	 * rest as libpfm4 writes replay_event:NBOGUS (0x4a0002050003b000) */
	r[0] = M("1stL_cache_load_miss_retired");
	ok(nb_perf_raw(&r[0], NB_DOM_USER) == (UINT64_C(0x4a0002050003b000) | 1),
	   "perf raw 1stL_cache_load_miss_retired = 0x4a0002050003b001");
	/* cascaded pairs [SDM 18.15.5.6; nb_sched.h] */
	memset(&cpu, 0, sizeof(cpu));
	cpu.model = 2;
	r[0] = E("instr_retired:NBOGUSNTAG:cascade");
	ok(!run(r, 1, &cpu, &a, why) && a.slot[0].cascade &&
	   nb_sched_cascade_alt(a.slot[0].hi_counter) == a.slot[0].counter &&
	   a.counters_used == ((1u << a.slot[0].counter) | (1u << a.slot[0].hi_counter)),
	   "cascade: instr_retired on a pair (low counter = alternate of the high one)");
	nb_encode_ex(&r[0], &a.slot[0], NB_DOM_USER, 0, 0, &g);
	ok(g.cascade && g.hi_escr == g.escr && (g.cccr & NB_CCCR_ENABLE) && !(g.cccr & NB_CCCR_CASCADE) &&
	   (g.hi_cccr & NB_CCCR_CASCADE) && !(g.hi_cccr & NB_CCCR_ENABLE) &&
	   ((g.hi_cccr & NB_CCCR_ESCRSEL_MASK) >> NB_CCCR_ESCRSEL_SHIFT) == nb_escrs[a.slot[0].hi_escr].select &&
	   g.hi_escr_msr == nb_escrs[a.slot[0].hi_escr].msr &&
	   g.hi_cccr_msr == nb_counters[a.slot[0].hi_counter].cccr_msr &&
	   !(g.hi_cccr & ~NB_CCCR_VALID),
	   "cascade: low CCCR Enable; alternate CCCR Cascade, Enable clear, its own ESCRSelect; same ESCR value");
	nb_encode_ex(&r[0], &a.slot[0], NB_DOM_USER, 0, NB_ENC_PMI, &g);
	ok((g.hi_cccr & NB_CCCR_OVF_PMI_T0) && !(g.cccr & NB_CCCR_OVF_PMI_T0),
	   "cascade: with PMI, the alternate (the pair) interrupts");
	ok(nb_perf_raw(&r[0], NB_DOM_USER) == 0, "cascade: no perf raw config");
	/* BPU group without counter 1: one pair {0,2}; two cascaded BPU-group events */
	r[0] = E("BPU_fetch_request:TCMISS:cascade");
	r[1] = E("BPU_fetch_request:TCMISS:u=1:cascade");
	r[1] = E("ITLB_reference:HIT:cascade");
	ok(run(r, 2, &cpu, &a, why) && strstr(why, "cascaded") && strstr(why, "pair") &&
	   strstr(why, "BPU"),
	   "cascade: two pairs in BPU without counter 1: rejected, the message names the cascade");
	cpu.flags = NB_SCHED_ALLOW_CTR1;
	ok(!run(r, 2, &cpu, &a, why) && a.counters_used == 0xf,
	   "cascade: with counter 1 allowed, pairs {0,2} and {1,3}");
	cpu.flags = 0;
	/* same configuration shares the ESCRs */
	r[1] = E("BPU_fetch_request:TCMISS");
	ok(!run(r, 2, &cpu, &a, why) && __builtin_popcount((unsigned)a.escrs_used) <= 2 &&
	   (a.slot[1].escr == a.slot[0].escr || a.slot[1].escr == a.slot[0].hi_escr),
	   "cascade: a plain event with the same configuration shares the pair's ESCR");
	/* IQ with 12, 13, 14, 16 held by the sibling: the pair {15, 17} (17 from 15) */
	r[0] = E("instr_retired:NBOGUSNTAG:cascade");
	cpu.busy_counters = (1u << 12) | (1u << 13) | (1u << 14) | (1u << 16);
	ok(!run(r, 1, &cpu, &a, why) && a.slot[0].counter == 15 && a.slot[0].hi_counter == 17 &&
	   a.slot[0].escr == a.slot[0].hi_escr,
	   "cascade: IQ pair 15 -> 17, one ESCR feeds both");
	cpu.busy_counters |= 1u << 17;
	ok(run(r, 1, &cpu, &a, why) && strstr(why, "cascade") && strstr(why, "IQ"),
	   "cascade: no IQ pair left: rejected naming the cascade");
	cpu.busy_counters = (1u << 14) | (1u << 15);
	ok(run(r, 1, &cpu, &a, why) && strstr(why, "cascade counter pair") &&
	   strstr(why, "0 usable disjoint pairs"),
	   "cascade: IQ counters 12, 13, 16, 17 free but no pair among them: the message says so");
	cpu.busy_counters = 0;
	r[1] = M("1stL_cache_load_miss_retired");
	r[1].cccr |= NB_CCCR_MOD_CASCADE;
	ok(run(r + 1, 1, &cpu, &a, why) && strstr(why, "cascade"), "cascade on a metric: rejected");

	/* precise (PEBS) requests count on counter 16, MSR_IQ_COUNTER4 [seed 003] */
	cpu.model = 3;
	r[0] = M("1stL_cache_load_miss_retired");
	r[0].cccr |= NB_CCCR_MOD_PRECISE;
	ok(!run(r, 1, &cpu, &a, why) && a.slot[0].counter == 16 && a.slot[0].escr == escr("CRU_ESCR2") &&
	   (a.pebs_enable & NB_PEBS_ENABLE_PEBS),
	   "precise replay metric: counter 16 through CRU_ESCR2, IA32_PEBS_ENABLE bit 25");
	r[1] = E("instr_retired:NBOGUSNTAG");
	r[2] = E("uops_retired:NBOGUS");
	r[3] = E("branch_retired:MMTP");
	r[4] = E("resource_stall:SBFULL");    /* on 16 when nothing is precise */
	ok(!run(r, 5, &cpu, &a, why) && a.slot[0].counter == 16 && a.slot[0].escr == escr("CRU_ESCR2") &&
	   a.slot[1].counter != 16 && a.slot[2].counter != 16 && a.slot[3].counter != 16 &&
	   a.slot[4].counter != 16 && a.slot[3].escr == escr("CRU_ESCR3"),
	   "precise metric beside four IQ events: it keeps counter 16, branch_retired moves to CRU_ESCR3");
	{
		int cul = -1;

		r[1] = E("front_end_event:NBOGUS:precise");
		ok(nb_sched_run(r, 2, &cpu, &a, &cul, why, sizeof(why)) && cul == 1 &&
		   strstr(why, "1stL_cache_load_miss_retired:precise and front_end_event:NBOGUS:precise "
			  "are both precise") && strstr(why, "counter 16"),
		   "two precise requests: rejected, the message names both and counter 16");
		printf("# %s\n", why);
	}
	cpu.busy_counters = 1u << 16;
	ok(run(r, 1, &cpu, &a, why) && strstr(why, "1stL_cache_load_miss_retired is precise") &&
	   strstr(why, "other logical processor holds"),
	   "precise request with counter 16 held by the sibling: rejected, saying so");
	cpu.busy_counters = 0;
	cpu.busy_escrs = UINT64_C(1) << escr("CRU_ESCR2");
	ok(run(r, 1, &cpu, &a, why) && strstr(why, "no ESCR of replay_event"),
	   "precise request whose ESCR to counter 16 the sibling holds: rejected, naming the event");
	cpu.busy_escrs = 0;
	r[0] = E("front_end_event:NBOGUS:precise");
	r[1] = E("front_end_event:NBOGUS");
	ok(!run(r, 2, &cpu, &a, why) && a.slot[0].counter == 16 && a.slot[1].counter != 16 &&
	   a.slot[0].escr == a.slot[1].escr,
	   "a precise event and the same event plain share the ESCR, the precise one on counter 16");
	/* a conflict beside a precise request: named by its ESCRs, and the note */
	r[0] = M("1stL_cache_load_miss_retired");
	r[0].cccr |= NB_CCCR_MOD_PRECISE;
	r[1] = E("instr_retired:NBOGUSNTAG");
	r[2] = E("uops_retired:NBOGUS");
	r[3] = E("branch_retired:MMTP");
	r[4] = E("resource_stall:SBFULL");
	r[5] = E("instr_retired:NBOGUSTAG");
	ok(run(r, 6, &cpu, &a, why) && strstr(why, "compete for ESCR CRU_ESCR0 or CRU_ESCR1") &&
	   strstr(why, "1stL_cache_load_miss_retired is precise (PEBS) and takes counter 16"),
	   "conflict beside a precise metric: the ESCRs, and that it holds counter 16");
	cpu.model = 2;

	printf("1..%d\n", tests);
	return failed != 0;
}
