/*
 * t_mob.c - events of nbsim's store buffer model (TAP), on Northwood
 * (t_mob.sh: 24 store buffers, data conflicts on address bits 15:6) and
 * Prescott (t_mob_prescott.sh: 32, bits 21:6) (README "Store buffer").
 *
 * Every count is a difference: the same kernel at N1 and N2 iterations
 * (after a warm-up run), so set-up and register accesses cancel.  Each
 * kernel iteration is a store then a load, in inline asm:
 *   unalgn   store 8 bytes at p, load 4 at p + 2     UNALGN_ADDR
 *   partial  store 4 bytes at p, load 8 at p         PARTIAL_DATA
 *   alias    store 8 bytes at p, load 8 at p + A     memory_cancel 64K_CONF
 *            (A = 64 KB on Northwood, 4 MB on Prescott; and 64 KB: none)
 *   forward  store 8 bytes at p, load 4 at p         forwarded: nothing
 *   capacity store 8 at p, k stores to other lines, load 4 at p + 2:
 *            UNALGN_ADDR while k < the model's store buffers
 * Checked: MOB_load_replay PARTIAL_DATA, UNALGN_ADDR (each kernel exactly
 * one or none per iteration), memory_cancel 64K_CONF, the
 * MOB_load_replay_retired metric (replay_event NBOGUS with IA32_PEBS_ENABLE
 * bits 9 and 24, MATRIX_VERT bit 0 and its helper ESCR) and its tags in
 * instr_retired NBOGUSTAG.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "guest.h"

#define N1 4000
#define N2 12000
#define DN (N2 - N1)

typedef guest_kern_fn kern_fn;

static __attribute__((noinline)) void unalgn(char *p, uint64_t n)
{
	uint64_t v;
	__asm__ volatile("1:\n\t"
			 "mov %[n], (%[p])\n\t"
			 "movl 2(%[p]), %k[v]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [v] "=&r"(v) : [p] "r"(p) : "memory", "cc");
}

static __attribute__((noinline)) void partial(char *p, uint64_t n)
{
	uint64_t v;
	__asm__ volatile("1:\n\t"
			 "movl %k[n], (%[p])\n\t"
			 "mov (%[p]), %[v]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [v] "=&r"(v) : [p] "r"(p) : "memory", "cc");
}

static uint64_t alias_dist = 65536;     /* alias: load distance           */
static uint64_t cap_k = 1;              /* capacity: stores in between    */

static __attribute__((noinline)) void alias(char *p, uint64_t n)
{
	uint64_t v;
	__asm__ volatile("1:\n\t"
			 "mov %[n], (%[p])\n\t"
			 "mov (%[p], %[d]), %[v]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [v] "=&r"(v) : [p] "r"(p), [d] "r"(alias_dist) : "memory", "cc");
}

static __attribute__((noinline)) void capacity(char *p, uint64_t n)
{
	uint64_t v, q, c;
	__asm__ volatile("1:\n\t"
			 "mov %[n], (%[p])\n\t"
			 "lea 64(%[p]), %[q]\n\t"
			 "mov %[k], %[c]\n\t"
			 "2:\n\t"
			 "mov %[n], (%[q])\n\t"
			 "add $64, %[q]\n\t"
			 "dec %[c]\n\t"
			 "jnz 2b\n\t"
			 "movl 2(%[p]), %k[v]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [v] "=&r"(v), [q] "=&r"(q), [c] "=&r"(c)
			 : [p] "r"(p), [k] "r"(cap_k) : "memory", "cc");
}

static __attribute__((noinline)) void forward(char *p, uint64_t n)
{
	uint64_t v;
	__asm__ volatile("1:\n\t"
			 "mov %[n], (%[p])\n\t"
			 "movl (%[p]), %k[v]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [v] "=&r"(v) : [p] "r"(p) : "memory", "cc");
}

/* the difference method over N1 and N2 iterations (guest.h) */
static uint64_t diff(const struct cnt *c, const struct setup *s, kern_fn fn, char *p)
{
	return guest_diff(c, s, NULL, fn, p, N1, N2);
}

int main(void)
{
	struct nbsim_info inf;
	const size_t len = (4u << 20) + 4096;
	char *buf = aligned_alloc(4096, len);
	unsigned entries;
	const struct setup none = { 0, 0, { 0, 0, 0 } };
	/* MOB_load_replay masks: PARTIAL_DATA bit 4, UNALGN_ADDR bit 5; memory_cancel 64K_CONF bit 3 [events.txt] */
	const struct cnt pd = { NB_ESCR_MOB_ESCR0, NB_EV_MOB_LOAD_REPLAY, 1u << 4 };
	const struct cnt ua = { NB_ESCR_MOB_ESCR0, NB_EV_MOB_LOAD_REPLAY, 1u << 5 };
	const struct cnt both = { NB_ESCR_MOB_ESCR1, NB_EV_MOB_LOAD_REPLAY, (1u << 4) | (1u << 5) };
	const struct cnt k64 = { NB_ESCR_DAC_ESCR0, NB_EV_MEMORY_CANCEL, 1u << 3 };
	const struct cnt replay = { NB_ESCR_CRU_ESCR2, NB_EV_REPLAY_EVENT, 1 };
	const struct cnt tagged = { NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 2 };
	/* MOB_load_replay_retired [metrics.txt]: 0x01000200 / 1, helper MOB_load_replay PARTIAL_DATA|UNALGN_ADDR */
	const struct setup mob = { 0x01000200, 1, { NB_ESCR_MOB_ESCR0, NB_EV_MOB_LOAD_REPLAY, (1u << 4) | (1u << 5) } };
	const struct setup mob_pd = { 0x01000200, 1, { NB_ESCR_MOB_ESCR1, NB_EV_MOB_LOAD_REPLAY, 1u << 4 } };
	const struct setup mob_nohelp = { 0x01000200, 1, { 0, 0, 0 } };
	const struct setup mob_st = { 0x01000200, 2, { NB_ESCR_MOB_ESCR0, NB_EV_MOB_LOAD_REPLAY, (1u << 4) | (1u << 5) } };
	static const struct { const char *name; kern_fn fn; uint64_t pd, ua, k64; } kern[] = {
		{ "store 8 / load 4 at +2", unalgn, 0, DN, 0 },
		{ "store 4 / load 8 at +0", partial, DN, 0, 0 },
		{ "store 8 / load 8 at +64 KB (Northwood), +4 MB (Prescott)", alias, 0, 0, DN },
		{ "store 8 / load 4 at +0 (forwarded)", forward, 0, 0, 0 },
	};

	if (!tap_ok(nbsim_present() && buf, "running under nbsim"))
		return 1;
	memset(buf, 0, len);
	memset(&inf, 0, sizeof inf);
	tap_ok(nbsim_info(&inf) == NBSIM_OK && (inf.model == 2 || inf.model == 3) && !inf.l3_kb,
	       "model 2 or 3 without L3 (Northwood or Prescott): %s", inf.model_name);
	/* [README "Store buffer"; nb_tlb.c: OPT06, SDM1, XT04] */
	entries = inf.model == 3 ? 32 : 24;
	alias_dist = inf.model == 3 ? 4u << 20 : 65536;
	for (unsigned i = 0; i < sizeof kern / sizeof kern[0]; i++) {
		char *p = buf + 64;
		TAP_EQ(diff(&pd, &none, kern[i].fn, p), kern[i].pd, "%s: MOB_load_replay PARTIAL_DATA",
		       kern[i].name);
		TAP_EQ(diff(&ua, &none, kern[i].fn, p), kern[i].ua, "%s: MOB_load_replay UNALGN_ADDR",
		       kern[i].name);
		TAP_EQ(diff(&both, &none, kern[i].fn, p), kern[i].pd + kern[i].ua,
		       "%s: MOB_load_replay PARTIAL_DATA|UNALGN_ADDR (MOB_ESCR1)", kern[i].name);
		TAP_EQ(diff(&k64, &none, kern[i].fn, p), kern[i].k64, "%s: memory_cancel 64K_CONF",
		       kern[i].name);
		TAP_EQ(diff(&replay, &mob, kern[i].fn, p), kern[i].pd + kern[i].ua,
		       "%s: MOB_load_replay_retired", kern[i].name);
		TAP_EQ(diff(&tagged, &mob, kern[i].fn, p), kern[i].pd + kern[i].ua,
		       "%s: instr_retired NBOGUSTAG under MOB_load_replay_retired", kern[i].name);
	}
	if (inf.model == 3) {
		alias_dist = 65536;
		TAP_EQ(diff(&k64, &none, alias, buf + 64), 0,
		       "Prescott (bits 21:6): store / load 64 KB apart: no 64K_CONF");
	}
	cap_k = entries - 1;
	TAP_EQ(diff(&ua, &none, capacity, buf + 64), DN,
	       "%u stores between: the store is still in the %u-entry buffer, UNALGN_ADDR",
	       entries - 1, entries);
	cap_k = entries;
	TAP_EQ(diff(&ua, &none, capacity, buf + 64), 0, "%u stores between: it has left, none",
	       entries);
	TAP_EQ(diff(&replay, &mob_nohelp, unalgn, buf + 64), 0,
	       "MOB_load_replay_retired without its helper ESCR: 0");
	TAP_EQ(diff(&replay, &mob_pd, unalgn, buf + 64), 0,
	       "helper selecting PARTIAL_DATA only: unaligned loads not tagged");
	TAP_EQ(diff(&replay, &mob_pd, partial, buf + 64), DN,
	       "helper selecting PARTIAL_DATA only: partial-data loads tagged");
	TAP_EQ(diff(&replay, &mob_st, unalgn, buf + 64), 0,
	       "MATRIX_VERT bit 1 (stores) only: blocked loads not tagged");

	guest_wrmsr(NB_MSR_IA32_PEBS_ENABLE, 0);
	guest_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 0);
	return tap_done_plan();
}
