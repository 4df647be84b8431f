/*
 * t_tlb.c - native unit test of the TLB model and the memory-hierarchy
 * parameters (nb_tlb.c) (TAP).
 */
#include <stdio.h>
#include <string.h>
#include "cpu/nb_tlb.h"
#include "cpu/nb_cpu.h"
#include "tap.h"

static struct nb_tlb t;

/* misses of `rounds` passes over k pages (one access per page) */
static unsigned pages(unsigned k, unsigned rounds)
{
	unsigned m = 0;
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned i = 0; i < k; i++)
			m += !nb_tlb_access(&t, 0x7f0000000000u + (uint64_t)i * 4096 + 8 * r);
	return m;
}

/*
 * The oracle: true LRU as the model first had it, an array in recency
 * order (page number + 1, 0 = empty; [0] most recent), searched in full
 * and shifted on every access.  nb_tlb.c's hash and list must give the
 * same hit or miss on every access and the same MRU page.
 */
struct ref_tlb {
	unsigned entries, page_shift;
	uint64_t vpn[NB_TLB_MAX];
};

static int ref_access(struct ref_tlb *r, uint64_t addr)
{
	uint64_t v = (addr >> r->page_shift) + 1;
	unsigned i, n = r->entries;
	int hit;

	for (i = 0; i < n && r->vpn[i] != v; i++)
		;
	hit = i < n;
	if (!hit)
		i = n - 1;
	for (; i > 0; i--)
		r->vpn[i] = r->vpn[i - 1];
	r->vpn[0] = v;
	return hit;
}

static uint64_t rng = 0x243f6a8885a308d3u;

static uint64_t rnd(void)             /* xorshift64 (Marsaglia 2003) */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* the hash's home slot as nb_tlb.c computes it (only to choose pages that
 * crowd a few slots: the check itself does not depend on it) */
static unsigned home_of(uint64_t v)
{
	return (unsigned)((v * UINT64_C(0x9e3779b97f4a7c15)) >> 56);
}

enum { RANDOM, STRIDE, CROWD, NKINDS };
static const char *const kind_name[NKINDS] = { "random pages", "strided passes", "crowded slots" };

/* n accesses of one kind over a pool of `pool` pages; returns the index of
 * the first access where model and oracle differ (n if none); *hits: the
 * oracle's hits */
static unsigned oracle_run(unsigned entries, unsigned shift, int kind, unsigned pool,
			   unsigned n, unsigned *hits)
{
	static uint64_t page[4 * NB_TLB_MAX + 8];
	struct ref_tlb r;
	uint64_t base = (rnd() >> 20) << shift, stride = 1 + rnd() % 5;
	unsigned k = 0;

	r.entries = entries;
	r.page_shift = shift;
	memset(r.vpn, 0, sizeof r.vpn);
	if (!nb_tlb_init(&t, entries, shift))
		return 0;
	for (unsigned i = 0; i < pool; i++) {
		uint64_t p = (base >> shift) + (kind == STRIDE ? i * stride : rnd() % (1u << 20));
		if (kind == CROWD)      /* homes 254, 255, 0, 1: long */
			while (((home_of(p + 1) + 2) & 255) >= 4) /* clusters that wrap */
				p = (base >> shift) + rnd() % (1u << 24);
		page[i] = p;
	}
	*hits = 0;
	for (unsigned a = 0; a < n; a++) {
		uint64_t pg;
		int want, got;
		if (kind == STRIDE) {           /* cyclic passes, some repeats */
			pg = page[k];
			if (rnd() % 8)
				k = k + 1 == pool ? 0 : k + 1;
		} else {                        /* a hot half, a cold half */
			unsigned h = pool / 2 ? pool / 2 : 1;
			pg = page[rnd() % 2 ? rnd() % h : rnd() % pool];
		}
		/* any byte of the page */
		uint64_t addr = (pg << shift) | (rnd() & ((UINT64_C(1) << shift) - 1));
		want = ref_access(&r, addr);
		got = nb_tlb_access(&t, addr);
		*hits += (unsigned)want;
		if (got != want || t.mru != r.vpn[0])
			return a;
	}
	return n;
}

int main(void)
{
	tap_ok(!nb_tlb_init(&t, 0, 12) && !nb_tlb_init(&t, NB_TLB_MAX + 1, 12),
	       "0 or too many entries: refused");
	nb_tlb_init(&t, 64, 12);
	TAP_EQ(pages(64, 10), 64, "64 pages, 10 passes: 64 cold misses only (64 entries)");
	nb_tlb_init(&t, 64, 12);
	TAP_EQ(pages(65, 10), 650, "65 pages cyclically: LRU misses every access");
	nb_tlb_init(&t, 64, 12);
	tap_ok(!nb_tlb_access(&t, 0x1000) && nb_tlb_access(&t, 0x1fff) && !nb_tlb_access(&t, 0x2000),
	       "4 KB pages: same page hits, next page misses");
	/* LRU: fill 64, touch the first, one new page evicts the second */
	nb_tlb_init(&t, 64, 12);
	pages(64, 1);
	nb_tlb_access(&t, 0x7f0000000000u);
	nb_tlb_access(&t, 0x7f0000000000u + 64 * 4096);
	tap_ok(nb_tlb_access(&t, 0x7f0000000000u) && !nb_tlb_access(&t, 0x7f0000000000u + 4096),
	       "LRU: the least recently used page is replaced");

	/* every modelled part: CPUID leaf-2 descriptors 0x5b (DTLB 64) and
	 * 0x50 (ITLB 64) [SDM Vol. 2A], parameters present */
	for (unsigned i = 0; i < nb_num_cpu_models; i++) {
		const struct nb_cpu_model *m = &nb_cpu_models[i];
		const struct nb_mem_params *p = nb_mem_params_find(m->model, m->l3_kb != 0);
		uint32_t eax = m->leaf2[0];
		tap_ok(p && p->dtlb_entries == 64 && p->itlb_entries == 64 &&
		       ((eax >> 8) & 0xff) == 0x50 && ((eax >> 16) & 0xff) == 0x5b,
		       "%s: DTLB/ITLB 64 entries, leaf-2 descriptors 0x5b/0x50", m->name);
		/* load-to-use measured on a part of each kind (InstLatX64's
		 * MemLatX86 files, nb_tlb.c [F13M] ... [F25M]): the L2 18
		 * cycles up to 512 KB (the 130/180 nm cores), 28 from 1 MB
		 * (90/65 nm); the L3 43 in all; memory in ns (the "Mem
		 * latency" line), converted at the model's clock, within a
		 * cycle of rounding */
		static const struct { const char *name; double ns; } mem[] = {
			{ "willamette", 159.764 }, { "northwood", 111.219 },
			{ "prescott", 93.993 }, { "cedarmill", 80.387 }, { "xeonmp", 124.775 },
		};
		double ns = 0, c;
		for (unsigned j = 0; j < sizeof mem / sizeof mem[0]; j++)
			if (!strcmp(mem[j].name, m->name))
				ns = mem[j].ns;
		c = ns * m->mhz / 1000.0;
		tap_ok(p && ns > 0 && p->l2_latency == (m->l2_kb <= 512 ? 18u : 28u) &&
		       (m->l3_kb ? p->l2_latency + p->l3_latency == 43 : p->l3_latency == 0) &&
		       p->l2_latency + p->l3_latency + p->mem_latency >= c - 1 &&
		       p->l2_latency + p->l3_latency + p->mem_latency <= c + 1,
		       "%s: L2 %u, L3 %u, memory %u cycles load to use: measured L2 %u, L3 43, "
		       "memory %.1f ns = %.1f cycles at %u MHz", m->name, p ? p->l2_latency : 0,
		       p ? p->l3_latency : 0,
		       p ? p->l2_latency + p->l3_latency + p->mem_latency : 0,
		       m->l2_kb <= 512 ? 18u : 28u, ns, c, m->mhz);
	}
	tap_ok(!nb_mem_params_find(5, 0), "unknown CPUID model: no parameters");

	/* the O(1) structure against the oracle: every access's hit or miss
	 * and the MRU page, for several sizes, page sizes, pools (fewer pages
	 * than entries, about as many, several times more) and patterns */
	{
		static const unsigned sizes[] = { 1, 2, 63, 64, 128 };
		static const unsigned shifts[] = { 12, 0, 22 };
		for (unsigned si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
			for (unsigned hi = 0; hi < sizeof shifts / sizeof shifts[0]; hi++)
				for (int kind = 0; kind < NKINDS; kind++) {
					unsigned e = sizes[si], total = 0, hits = 0, bad = 0, at = 0;
					const unsigned pools[] = { e / 2 + 1, e, e + 1, 2 * e + 3, 4 * e };
					for (unsigned pi = 0; pi < 5 && !bad; pi++) {
						unsigned h, n = 12000, got;
						got = oracle_run(e, shifts[hi], kind, pools[pi], n, &h);
						if (got != n) {
							bad = 1;
							at = got;
						}
						total += n;
						hits += h;
					}
					tap_ok(!bad && hits > 0 && hits < total,
					       "%u entries, %u-bit pages, %s: %u accesses, %u hits, "
					       "same as true LRU%s", e, shifts[hi], kind_name[kind],
					       total, hits, bad ? " (differs)" : "");
					if (bad)
						tap_diag("  first difference at access %u", at);
				}
	}
	return tap_done_plan();
}
