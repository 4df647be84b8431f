/*
 * nb_exec.c - the helpers generated code calls: the branch model, the
 * cache/TLB/store-buffer model per load and store (with the lean paths),
 * the write-combining buffers and the trace cache.  See README.md "Cache
 * model", "Write-combining buffers", "Trace cache".
 */
#include "nb_tool.h"
#include "nb_samples.h"

/* ---- branch helper ---- */

/* packed: pc (bits 0-47) | length (48-55) | kind (56-63) */
VG_REGPARM(3) void nb_branch(ULong packed, ULong taken, ULong target)
{
	ULong pc = packed & 0xffffffffffffULL;
	ULong next = pc + ((packed >> 48) & 0xff);
	unsigned kind = (unsigned)(packed >> 56);
	int miss = nb_bpred_branch(&nb_bp, kind, pc, next, (int)taken, target);
	/* retired_(mispred_)branch_type masks by kind [events.txt]: bit 1
	 * CONDITIONAL, 2 CALL (indirect calls), 3 RETURN, 4 INDIRECT (returns,
	 * indirect calls and jumps); direct jmp/call: none */
	static const UChar type_bits[NB_BR_NKINDS] = {
		[NB_BR_COND] = 1u << 1, [NB_BR_ICALL] = (1u << 2) | (1u << 4),
		[NB_BR_RET] = (1u << 3) | (1u << 4), [NB_BR_IJMP] = 1u << 4,
	};

	nb_raw[RAW_BR0 + (taken ? 2 : 0) + (miss ? 1 : 0)]++;
	nb_raw[RAW_MISP] += (ULong)miss;
	if (miss && (nb_need & NEED_PMI))       /* (nb_irule_bound) */
		nb_pmi_budget -= nb_pmi_misp_debit;
	for (unsigned b = 1, t = kind < NB_BR_NKINDS ? type_bits[kind] : 0; t >> b; b++)
		if (t & (1u << b)) {
			nb_sig[SIG_RBT(b)]++;
			nb_sig[SIG_RMBT(b)] += (ULong)miss;
		}
}

/* nb_branch for a conditional branch (most branches): no call inside;
 * its site (struct nb_cond_site) made when the branch was translated */
VG_REGPARM(2) void nb_cond(const struct nb_cond_site *site, ULong taken)
{
	ULong miss = (ULong)nb_bpred_cond_at(&nb_bp, site, (int)taken);

	nb_raw[RAW_CBR0 + 2 * (ULong)(taken != 0) + miss]++;
	if (nb_need & NEED_PMI)         /* (nb_irule_bound) */
		nb_pmi_budget -= (Long)(-miss & (ULong)nb_pmi_misp_debit);
}

/* ---- cache model (README "Cache model") ---- */

struct nb_l1 nb_l1d;
struct nb_cache nb_l2, nb_l3;
struct nb_tlb nb_dtlb;
struct nb_stb nb_stb;             /* store buffer (NEED_STB)        */
ULong nb_stb_fwd;                 /* loads forwarded (stats)        */
Bool nb_has_l3;
const struct nb_mem_params *nb_memp;
struct nbsim_memstats nb_ms;      /* NBSIM_REQ_MEMSTATS            */



/*
 * --nbsim-cache=cachegrind (a test mode, README "Cache model"): the
 * policies of valgrind's cachegrind, so that its counts can be compared
 * exactly: the L1D allocates on store misses, stores and loads take the
 * same path, the L2 has 64-byte non-sectored lines and is looked up only
 * when the L1D missed, for every line of the access.
 */
/* (clo_cg_compat: nb_opts.c) */

static unsigned nb_mem_cg(Addr first, Addr last)
{
	Bool l1m = False, l2m = False;

	for (Addr l = first; l <= last; l += 64)
		if (!nb_l1_access(&nb_l1d, l, 1))
			l1m = True;
	if (l1m)
		for (Addr l = first; l <= last; l += 64)
			if (!nb_cache_access(&nb_l2, l, 1))
				l2m = True;
	return (l1m ? MC_L1 : 0) | (l2m ? MC_L2 : 0);
}

/*
 * One load or store of size bytes at a (README "Cache model").  Accesses
 * crossing a 64-byte line access both lines (a split uop misses if either
 * line misses).  Loads allocate in every level that missed; stores: the
 * L1D is write-through without write-allocate (a hit refreshes LRU), a
 * store missing the L1D writes the L2 (write-allocate, the line becomes
 * Modified).  Loads hitting the L1D do not reach the L2.  An L2 or L3 miss
 * fetches the whole 128-byte sector (both 64-byte lines) [IA-32
 * Optimization Reference Manual, Table 1-1 note 1: "each read due to a
 * cache miss fetches a sector, consisting of two adjacent cache lines"; a
 * read for ownership is a bus read too].
 */
/* The L2 line (address >> line_shift, + 1; 0 = none) of the last access,
 * if it was a store that missed the L1D in one line: the line is then the
 * most recently used of its L2 set, all sectors present, dirty.  Until the
 * next access reaches the L2, a store to the same line that misses the
 * L1D (no write-allocate) changes no cache state and counts the same
 * events, so the store helpers count them first (nb_st_same). */
ULong nb_st_line;

/* other L1D geometries (none of the models has one) */
static __attribute__((noinline)) int nb_l1d_access_any(Addr l, int allocate)
{
	return nb_l1_access(&nb_l1d, l, allocate);
}

/* The L1D access, with the model's way count as a constant (4: 8 KB
 * L1D, 8: 16 KB) so that the search is unrolled */
static inline __attribute__((always_inline)) int nb_l1d_access(Addr l, int allocate)
{
	switch (nb_l1d.ways) {
	case 4:
		return nb_l1_access_w(&nb_l1d, l, allocate, 4, 1);
	case 8:
		return nb_l1_access_w(&nb_l1d, l, allocate, 8, 1);
	default:
		return nb_l1d_access_any(l, allocate);
	}
}

/* nb_l1d_access for an access within one line (nb_l1_access_hinted_w:
 * the hinted way first; the same result and state) */
static inline __attribute__((always_inline)) int nb_l1d_access1(Addr a, int allocate)
{
	switch (nb_l1d.ways) {
	case 4:
		return nb_l1_access_hinted_w(&nb_l1d, a, allocate, 4);
	case 8:
		return nb_l1_access_hinted_w(&nb_l1d, a, allocate, 8);
	default:
		return nb_l1d_access_any(a, allocate);
	}
}

/* The L2 and L3 lines of NetBurst mode: 128 bytes, two 64-byte sectors
 * (nb_post_clo_init; --nbsim-cache=cachegrind has 64-byte L2 lines but
 * does not come here) */

/* nb_mem_line_miss's counts (its comment), and those nb_lean_fold has
 * folded in */
#define NB_LEAN_L3 3
#define NB_LEAN_K 6
static ULong nb_lean[2][NB_LEAN_K], nb_lean_seen[2][NB_LEAN_K];

/* Fold nb_lean's new counts into the signals, RAW_MC and nb_stall (before
 * anything reads them: nb_derive, the stall cycles, the statistics) */
void nb_lean_fold(void)
{
	if (!(nb_need & NEED_CACHE))
		return;         /* nothing counted (needs never shrink) */
	for (unsigned st = 0; st < 2; st++)
		for (unsigned k = 0; k < NB_LEAN_K; k++) {
			ULong n = nb_lean[st][k] - nb_lean_seen[st][k], lat;
			int l2 = k < NB_LEAN_L3 ? (int)k : NB_CACHE_MISS;
			if (!n)
				continue;
			lat = nb_memp->l2_latency;
			nb_lean_seen[st][k] += n;
			nb_sig[SIG_BSQ(nb_bsq_bit(0, l2))] += n;
			if (k >= NB_LEAN_L3) {
				nb_sig[SIG_BSQ(nb_bsq_bit(1, (int)(k - NB_LEAN_L3)))] += n;
				lat += nb_memp->l3_latency;
			}
			if (k == NB_CACHE_MISS || k == NB_LEAN_L3 + NB_CACHE_MISS)
				lat += nb_memp->mem_latency;
			nb_raw[RAW_MC(st, MC_L1 | (l2 == NB_CACHE_MISS ? MC_L2 : 0))] += n;
			nb_mc_n += n;
			if (!st)
				nb_stall += n * lat;
		}
}

/*
 * What a load that missed the L1D, latency word lat (nb_tm_lat_bus),
 * can add to the cycles before the next PMI check (nb_pmi_memdyn; the
 * budget's bound, nb_irule_bound): its latency on an idle bus, plus what
 * it can wait for ahead of it.  The walk (nb_timing.c) starts it no
 * earlier than a miss slot frees and has its transfers wait for those
 * already on the bus (bus_free), and before it in this run the loads
 * that missed already (ld_mask: their slots and transfers are taken when
 * the clock runs the run, after this).  Measured from the clock's last
 * retirement (t->ret, no later than the load's start), each wait is at
 * most its end past there.  The whole latency word (about 16.7 M for a
 * load from memory, its bus cycles in bits 20-31) brought the next check
 * due at every memory miss: a far check, or a boundary check in a thin
 * run, per miss (sort: 505 K).  Under HT the other LP's bus pattern can
 * stretch a transfer past these ends: the whole word there, as before.
 */
static __attribute__((noinline)) Long nb_pmi_load_debit(ULong lat)
{
	const struct nb_tm *t = nb_tmp;
	const unsigned nmiss = t->smt.miss_n ? t->smt.miss_n : t->p->miss_slots;
	uint64_t r = 2 * t->ret, m = t->miss[0], w = 0;

	if (!(lat >> NB_TM_BUS_SHIFT))
		return (Long)lat;       /* an L2 or L3 hit: no bus (the whole word) */
	if (clo_ht || t->smt.bus_oth)
		return (Long)lat;
	for (unsigned j = 1; j < nmiss; j++)
		if (t->miss[j] < m)
			m = t->miss[j];
	if (t->bus_free > r)
		w += t->bus_free - r;
	if (m > r)
		w += m - r;
	for (uint64_t x = t->ld_mask; x; x &= x - 1) {
		uint32_t l = t->ld_lat[__builtin_ctzll(x)];
		w += 2 * (uint64_t)((l & NB_TM_LAT_MASK) + (l >> NB_TM_BUS_SHIFT));
	}
	return (Long)((lat & NB_TM_LAT_MASK) + (lat >> NB_TM_BUS_SHIFT) + (w + 1) / 2);
}

/*
 * A last-level miss (README "Bus model", "Bandwidth"): lat is the
 * load-to-use latency an idle bus gives.  A load's miss reads its
 * 128-byte sector, 2 lines of 2 bus clocks each: its latency word
 * carries those bus cycles, and the walk has it wait for the transfers
 * before it (nb_timing.h nb_tm_lat_bus).  A store's RFO reads the sector,
 * which will be written back (our choice: the writeback is charged with
 * the RFO that makes the line Modified, 2 + 2 lines; a line that a load
 * brought in and a store then dirties is not charged its writeback); the
 * store waits for them in the store buffer (nb_tms_store_bus; not on the
 * cheap clock, which has no bus).  Only last-level misses come here: hits
 * never touch the bus.
 */
static __attribute__((noinline)) ULong nb_bw_miss(ULong lat, Bool store)
{
	ULong line = 2 * (ULong)nb_bus_state.p.ratio;

	if (clo_mem_timing == MT_NO)
		return lat;     /* (memory-blind: no latency, no bus) */
	if (!store)
		return nb_tm_lat_bus((uint32_t)lat, (uint32_t)(2 * line));
	if (clo_clock != NB_CLOCK_FAST) {
		nb_step_tk_clock();     /* (step mode: a take undone first) */
		if (!nb_pmi_memdyn) {
			nb_tms_store_bus(nb_tmp, lat, 4 * line);
			return lat;
		}
		/* the PMI budget's bound (nb_irule_bound): the front end
		 * held past where it was, the run's instructions later by
		 * as much */
		{
			uint64_t fe0 = nb_tmp->fe > nb_tmp->ret ? nb_tmp->fe : nb_tmp->ret;
			nb_tms_store_bus(nb_tmp, lat, 4 * line);
			if (nb_tmp->fe > fe0)
				nb_pmi_budget -= (Long)(nb_tmp->fe - fe0);
		}
	}
	return lat;
}

/* The L1D missed line l: the L2 (a load's read, a store's RFO), and the
 * L3 if the L2 missed; adds MC_L2 to *cond on an L2 miss; returns the
 * latency.  (Every modelled L2 and L3 has 8 ways: nb_post_clo_init.) */
static inline __attribute__((always_inline)) ULong nb_mem_l2(Addr l, Bool store, unsigned *cond)
{
	int st = nb_cache_ref8_geo(&nb_l2, l, NB_FILL_LINE, store, NB_L2_LINE_SHIFT, 6);
	ULong lat = nb_memp->l2_latency;

	nb_sig[SIG_BSQ(nb_bsq_bit(0, st))]++;
	if (st == NB_CACHE_MISS) {
		*cond |= MC_L2;
		if (nb_has_l3) {
			st = nb_cache_ref8_geo(&nb_l3, l, NB_FILL_LINE, store, NB_L2_LINE_SHIFT, 6);
			nb_sig[SIG_BSQ(nb_bsq_bit(1, st))]++;
			lat += nb_memp->l3_latency;
		}
		if (st == NB_CACHE_MISS)
			lat = nb_bw_miss(lat + nb_memp->mem_latency, store);
	}
	return lat;
}

/*
 * nb_mem_l2 with the bus model (NEED_BUS, README "Bus model"): the L2 and
 * L3 sets are looked at first (nb_cache_peek changes nothing) for the
 * outcome and the line each would evict; then the reference itself, as
 * without the bus model, so the cache state is the same with or without
 * bus events.  An L2 miss is a BSQ request (the demand line and the
 * adjacent-sector prefetch); a last-level miss reads the sector on the
 * bus.  A Modified victim of the last level is written back to memory;
 * with an L3, a Modified L2 victim is a BSQ writeback into the L3 (the
 * cache model does not update the L3's copy: README "Bus model").
 */
static __attribute__((noinline)) ULong nb_mem_l2_bus(Addr l, Bool store, unsigned *cond)
{
	uint64_t v2, v3 = 0;
	int s2 = nb_cache_peek(&nb_l2, l, &v2), s3 = NB_CACHE_MISS;
	ULong lat;
	unsigned d2, d3;

	if (s2 == NB_CACHE_MISS && nb_has_l3)
		s3 = nb_cache_peek(&nb_l3, l, &v3);
	lat = nb_mem_l2(l, store, cond);
	if (s2 != NB_CACHE_MISS)
		return lat;
	d2 = nb_cache_dirty_sectors(v2);
	d3 = nb_cache_dirty_sectors(v3);
	nb_bus_miss(&nb_bus_state, store, !nb_has_l3 || s3 == NB_CACHE_MISS,
		    nb_has_l3 ? d2 : 0, nb_has_l3 ? d3 : d2);
	return lat;
}

/* What a memory uop meets before the caches: the store buffer, a line
 * crossing, the DTLB; returns its MC_* conditions (first, last: its first
 * and last 64-byte lines).  nb_mem, and nb_store_nt for non-temporal
 * stores (README "Write-combining buffers"); inline, so that nb_mem's
 * code is what it was before this part had a name of its own. */
static inline __attribute__((always_inline))
unsigned nb_mem_uop(Addr a, ULong size, Bool store, Addr first, Addr last)
{
	unsigned cond = 0;

	/* the store buffer (README "Store buffer", nb_stb.c): stores enter
	 * it in program order, loads are checked against it */
	if (nb_need & NEED_STB) {
		if (store)
			nb_stb_store(&nb_stb, a, (uint32_t)size);
		else switch (nb_stb_load(&nb_stb, a, (uint32_t)size)) {
		case NB_STB_PARTIAL:
			nb_sig[SIG_MOB_PD]++;
			cond |= MC_MOBP;
			break;
		case NB_STB_UNALIGNED:
			nb_sig[SIG_MOB_UA]++;
			cond |= MC_MOBU;
			break;
		case NB_STB_ALIAS:
			nb_sig[SIG_64K]++;
			break;
		case NB_STB_FORWARD:
			nb_stb_fwd++;
			break;
		default:
			break;
		}
	}
	if (first != last) {
		cond |= MC_SPLIT;
		nb_sig[store ? SIG_SPLIT_ST : SIG_SPLIT_LD]++;
		nb_sig[store ? SIG_SSC : SIG_LSC]++;
		if (store)
			nb_ms.split_stores++;
		else
			nb_ms.split_loads++;
	}
	/* the DTLB only while a DTLB event needs it (its fully associative
	 * lookup is the costliest part of a miss) */
	if ((nb_need & NEED_TLB) &&
	    (!nb_tlb_access(&nb_dtlb, a) || (first != last && !nb_tlb_access(&nb_dtlb, last)))) {
		cond |= MC_DTLB;
		nb_sig[SIG_DTMISS]++;
		if (store)
			nb_ms.dtlb_store_miss++;
		else
			nb_ms.dtlb_load_miss++;
	}
	return cond;
}

/* The caches for an access crossing lines (first < last), line by line;
 * returns the stall (out of line: rare, and its loop needs registers) */
static __attribute__((noinline)) ULong nb_mem_lines(Addr first, Addr last, Bool store, Bool bus,
						     unsigned *cond)
{
	ULong stall = 0;

	for (Addr l = first; l <= last; l += 64) {
		ULong lat;
		if (nb_l1d_access(l, !store))
			continue;
		*cond |= MC_L1;
		lat = bus ? nb_mem_l2_bus(l, store, cond) : nb_mem_l2(l, store, cond);
		if (lat > stall)
			stall = lat;    /* the lines of a split load in parallel */
	}
	return stall;
}

/* (bus: the bus model runs, NEED_BUS: nb_mem_bus; nb_mem is the same
 * code without it) */
static inline __attribute__((always_inline))
void nb_mem_any(Addr a, ULong size, Bool store, ULong pc, VexGuestAMD64State *gst, Bool bus)
{
	Addr first = a & ~(Addr)63, last = (a + (size ? size - 1 : 0)) & ~(Addr)63;
	unsigned cond;
	ULong stall = 0;

	nb_st_line = 0;
	cond = nb_mem_uop(a, size, store, first, last);
	if (clo_cg_compat)
		cond |= nb_mem_cg(first, last);
	else if (first == last) {       /* (most accesses: no loop) */
		if (!nb_l1d_access1(a, !store)) {
			cond |= MC_L1;
			stall = bus ? nb_mem_l2_bus(first, store, &cond) : nb_mem_l2(first, store, &cond);
		}
	} else
		stall = nb_mem_lines(first, last, store, bus, &cond);
	if (store && first == last && (cond & MC_L1) && !clo_cg_compat)
		nb_st_line = (first >> nb_l2.line_shift) + 1;
	if (!store) {
		nb_stall += stall & NB_TM_LAT_MASK;   /* stores retire into the store buffer */
		if (stall) {            /* the load's latency for the clock */
			if (nb_pmi_memdyn)      /* (nb_irule_bound) */
				nb_pmi_budget -= nb_pmi_load_debit(stall);
			nb_tm_load_miss(nb_tmp, (unsigned)nb_tm_ldix, (uint32_t)stall);
			nb_tm_load_alias(nb_tmp, (unsigned)nb_tm_ldix, a);
		}
	}
	if (!store && gst && nb_pebs_on && (cond & nb_pebs_sel)) {
		nb_samples_ea = a;     /* nb_samples.c */
		nb_pebs_assist(pc, gst);
	}
	if (cond) {
		nb_raw[RAW_MC(store ? 1 : 0, cond)]++;
		nb_mc_n++;
	}
}

static void nb_mem(Addr a, ULong size, Bool store, ULong pc, VexGuestAMD64State *gst)
{
	nb_mem_any(a, size, store, pc, gst, False);
}

/* nb_mem with the bus model (README "Bus model") */
static void nb_mem_bus(Addr a, ULong size, Bool store, ULong pc, VexGuestAMD64State *gst)
{
	nb_mem_any(a, size, store, pc, gst, True);
}

/* The L1D/L2 miss totals of NBSIM_REQ_MEMSTATS and --nbsim-stats, from
 * the per-condition raw counts (nb_mem counts each access once there) */
void nb_memstats_fill(void)
{
	ULong m[2][2] = { { 0, 0 }, { 0, 0 } };

	nb_lean_fold();
	for (unsigned st = 0; st < 2; st++)
		for (unsigned c = 1; c < MC_N; c++) {
			if (c & MC_L1)
				m[st][0] += nb_raw[RAW_MC(st, c)];
			if (c & MC_L2)
				m[st][1] += nb_raw[RAW_MC(st, c)];
		}
	nb_ms.l1_load_miss = m[0][0];
	nb_ms.l2_load_miss = m[0][1];
	nb_ms.l1_store_miss = m[1][0];
	nb_ms.l2_store_miss = m[1][1];
}

/* nb_mem for the common access: within one line, with neither the store
 * buffer nor the DTLB enabled, NetBurst policies (what is left of nb_mem
 * then, without its loop and tests) */
/* (the L1D missed: a function of its own, entered by a jump, so that the
 * L1D part needs no saved registers.)  It makes one count, nb_lean[store]
 * [k] (k: the L2's state, NB_CACHE_*, or on a model with an L3 after an
 * L2 miss 3 + the L3's), from which nb_lean_fold derives what nb_mem_l2
 * and nb_mem count: BSQ_cache_reference, the RAW_MC condition, the stall
 * cycles of a load. */
/* the common end of nb_mem_line_miss: count */
static inline __attribute__((always_inline)) void nb_mem_line_count(Addr l, Bool store, unsigned k)
{
	/* the load's latency for the clock (nb_lean_fold's sum), with the
	 * wait for the bus of a last-level miss (nb_bw_miss) */
	ULong lat = nb_memp->l2_latency;

	if (k >= NB_LEAN_L3)
		lat += nb_memp->l3_latency;
	if (k == NB_CACHE_MISS || k == NB_LEAN_L3 + NB_CACHE_MISS)
		lat = nb_bw_miss(lat + nb_memp->mem_latency, store);
	if (store)
		nb_st_line = (l >> NB_L2_LINE_SHIFT) + 1;
	else {
		if (nb_pmi_memdyn)      /* the PMI budget's bound (nb_pmi_load_debit) */
			nb_pmi_budget -= nb_pmi_load_debit(lat);
		nb_tm_load_miss(nb_tmp, (unsigned)nb_tm_ldix, (uint32_t)lat);
		nb_tm_load_alias(nb_tmp, (unsigned)nb_tm_ldix, l);
	}
	nb_lean[store ? 1 : 0][k]++;
}

/* (the L3 after an L2 miss, xeonmp only: out of line and entered by a
 * jump, so that the L2's reference needs no saved registers) */
static __attribute__((noinline)) void nb_mem_line_l3(Addr l, Bool store)
{
	nb_mem_line_count(l, store, NB_LEAN_L3 + (unsigned)nb_cache_ref8_geo(&nb_l3, l, NB_FILL_LINE,
									    store, NB_L2_LINE_SHIFT, 6));
}

static inline __attribute__((always_inline)) void nb_mem_line_miss_body(Addr l, Bool store)
{
	unsigned k = (unsigned)nb_cache_ref8_geo(&nb_l2, l, NB_FILL_LINE, store, NB_L2_LINE_SHIFT, 6);

	if (k == NB_CACHE_MISS && nb_has_l3)
		nb_mem_line_l3(l, store);
	else
		nb_mem_line_count(l, store, k);
}

/* (one for loads, one for stores: store a constant in each) */
static __attribute__((noinline)) void nb_mem_line_miss_ld(Addr l)
{
	nb_mem_line_miss_body(l, False);
}

static __attribute__((noinline)) void nb_mem_line_miss_st(Addr l)
{
	nb_mem_line_miss_body(l, True);
}

static inline __attribute__((always_inline)) void nb_mem_line_miss(Addr l, Bool store)
{
	if (store)
		nb_mem_line_miss_st(l);
	else
		nb_mem_line_miss_ld(l);
}

/* (ways: the L1D's, as a constant) */
static inline __attribute__((always_inline)) void nb_mem_line(Addr a, Bool store, unsigned ways)
{
	Addr l = a & ~(Addr)63;

	nb_st_line = 0;
	/* (the inline hit path declined this access) */
	if (!nb_l1_after_fast_w(&nb_l1d, l, !store, ways))
		nb_mem_line_miss(l, store);
}

/*
 * A store the inline hit path declined, to the L2 line of the last store
 * that missed the L1D (nb_st_line) and within one 64-byte line: it
 * changes no cache state, so count what nb_mem counts for it (an RFO
 * hitting a Modified line; nb_mc_n is left alone: no replay metric tags a
 * store for MC_L1 alone, and the RAW_MC deltas wait) and return 1.  The
 * helpers that follow the inline path call it first (the test was inline
 * code once, run at every store for the few that missed).
 */
static inline __attribute__((always_inline)) Bool nb_st_same(Addr a, ULong size)
{
	if (nb_st_line != (a >> nb_l2.line_shift) + 1 ||
	    a >> NB_L1_LINE_SHIFT != (a + size - 1) >> NB_L1_LINE_SHIFT)
		return False;
	nb_raw[RAW_MC(1, MC_L1)]++;
	nb_sig[SIG_BSQ(nb_bsq_bit(0, NB_CACHE_DIRTY))]++;
	return True;
}

/* (nb_mem_any inline in each helper: load or store, no PEBS, constants) */
VG_REGPARM(2) void nb_load(Addr a, ULong size)
{
	nb_mem_any(a, nb_ldix_take(size), False, 0, NULL, False);
}

VG_REGPARM(2) void nb_store(Addr a, ULong size)
{
	nb_mem_any(a, size, True, 0, NULL, False);
}

/* nb_store after the inline hit path (without the store buffer and the
 * DTLB: emit_mem_call) */
VG_REGPARM(2) void nb_store_st(Addr a, ULong size)
{
	if (!nb_st_same(a, size))
		nb_mem_any(a, size, True, 0, NULL, False);
}

/* The helpers while neither the store buffer nor the DTLB is enabled, with
 * NetBurst policies and an L1D of 4 or 8 ways (nb_mem_lean(), chosen when
 * the code is translated): an access within one line takes nb_mem_line,
 * with the way count of the model as a constant */
Bool nb_mem_lean(void)
{
	return !(nb_need & (NEED_STB | NEED_TLB | NEED_BUS)) && !clo_cg_compat &&
		(nb_l1d.ways == 4 || nb_l1d.ways == 8);
}

#define NB_LEAN_HELPER(name, store, ways)				\
	VG_REGPARM(2) void name(Addr a, ULong size)		\
	{								\
		if (!(store))						\
			size = nb_ldix_take(size);			\
		else if (nb_st_same(a, size))				\
			return;						\
		if (LIKELY((a & 63) + size <= 64))			\
			nb_mem_line(a, store, ways);			\
		else							\
			nb_mem(a, size, store, 0, NULL);		\
	}
NB_LEAN_HELPER(nb_load_lean4, False, 4)
NB_LEAN_HELPER(nb_load_lean8, False, 8)
NB_LEAN_HELPER(nb_store_lean4, True, 4)
NB_LEAN_HELPER(nb_store_lean8, True, 8)

/*
 * The cold path (nb_cold, nb_need.c): what emit_mem_call's inline code and
 * the lean helper it guards do, in one call, for code translated before
 * the first counter is enabled.  The same operations in the same order
 * (nb_l1_fast's hinted-way hit, its clock step and stamp; a store missing
 * the L1D to the L2 line of the last store counted without the model, as
 * the store helpers count it: nb_st_same), so the caches, the counts and the clock do
 * not depend on which translation ran.  The inline hit path is most of
 * the IR per access: VEX's passes and register allocator cost more on it
 * than code run a few times gains from it.
 */
static inline __attribute__((always_inline)) Bool nb_cold_fast(Addr a, ULong size, Bool store)
{
	if (nb_l1_fast(&nb_l1d, a, (unsigned)size))
		return True;
	return store && nb_st_same(a, size);
}

#define NB_COLD_HELPER(name, lean, store)				\
	VG_REGPARM(2) void name(Addr a, ULong arg)			\
	{								\
		ULong size = arg & ((1u << NB_LDIX_SHIFT) - 1);		\
		if (size > 64 || !nb_cold_fast(a, size, store))		\
			lean(a, arg);					\
	}
NB_COLD_HELPER(nb_load_cold4, nb_load_lean4, False)
NB_COLD_HELPER(nb_load_cold8, nb_load_lean8, False)
NB_COLD_HELPER(nb_store_cold4, nb_store_lean4, True)
NB_COLD_HELPER(nb_store_cold8, nb_store_lean8, True)

/* the load helper while PEBS is on: with the instruction's PC and the
 * guest registers (declared read, so they are in memory) */
void nb_load_pebs(Addr a, ULong size, ULong pc, VexGuestAMD64State *st)
{
	nb_mem(a, nb_ldix_take(size), False, pc, st);
}

/* ---- write-combining buffers (README "Write-combining buffers") ---- */

struct nb_wcb nb_wcbs;            /* the package's WC buffers (NEED_WCB) */
ULong nb_wcb_nt, nb_wcb_fences;   /* non-temporal stores, fences (stats) */
ULong nb_wcb_bursts;              /* evictions of full lines (stats)     */

/*
 * A WC buffer is written out: line (its address), bytes (the bytes
 * written, bit i = byte i of the line; all ones: a full line), cause
 * (enum nb_wcb_cause).  Every eviction is WCB_EVICTS; the one made to free
 * a buffer for a new line is also WCB_FULL_EVICT ("no WC buffer is
 * available" [SDM Vol. 3B, NetBurst non-retirement events, WC_Buffer;
 * libpfm4 intel_netburst_events.h]; nb_wcb.c).  This is the one place
 * that knows a write leaves the WC buffers: a bus model counts its write
 * transaction here (a full line: one burst write; otherwise partial
 * writes [SDM Vol. 3A 11.3.1]).
 */
static void nb_wcb_evicted(Addr line, ULong bytes, UInt cause)
{
	(void)line;
	nb_sig[SIG_WCB_EVICTS]++;
	if (cause == NB_WCB_NO_FREE)
		nb_sig[SIG_WCB_FULL]++;
	if (bytes == NB_WCB_ALL_BYTES)
		nb_wcb_bursts++;
}

static void nb_wcb_report(const struct nb_wcb_evict *e, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		nb_wcb_evicted((Addr)(e[i].line << NB_WCB_LINE_SHIFT), e[i].bytes, e[i].cause);
}

/*
 * A non-temporal store (NB_IC_NT) of size bytes at a, while WC_Buffer is
 * counted.  With the cache model it is a store uop (store buffer, split,
 * DTLB: nb_mem_uop) that neither reads nor allocates a line: a line
 * present in the L1D, L2 or L3 is evicted from all of them and the data
 * go to the WC buffers [IA-32 Optimization Reference Manual 248966-013,
 * ch. 6 "Memory Type and Non-temporal Stores": the Pentium 4 evicts the
 * data from all caches and writes the new data with WC semantics; a line
 * not cached is not write-allocated].  A Modified line's write-back is not
 * modelled (no write-backs are, "Cache model").
 */
VG_REGPARM(2) void nb_store_nt(Addr a, ULong size)
{
	struct nb_wcb_evict e[NB_WCB_STORE_EVICTS_MAX];

	if (nb_need & NEED_CACHE) {
		Addr first = a & ~(Addr)63, last = (a + (size ? size - 1 : 0)) & ~(Addr)63;
		unsigned cond;

		nb_st_line = 0;         /* its L2 line may lose a sector */
		cond = nb_mem_uop(a, size, True, first, last);
		for (Addr l = first; l <= last; l += 64) {
			nb_l1_invalidate(&nb_l1d, l);
			nb_cache_invalidate(&nb_l2, l);
			if (nb_has_l3)
				nb_cache_invalidate(&nb_l3, l);
		}
		if (cond) {
			nb_raw[RAW_MC(1, cond)]++;
			nb_mc_n++;
		}
	}
	nb_wcb_nt++;
	nb_wcb_report(e, nb_wcb_store(&nb_wcbs, a, (unsigned)size, e));
}

/* An instruction that empties the WC buffers (NB_IC_WCFLUSH: sfence,
 * mfence, lock, xchg with memory, cpuid, iret), called only while a
 * buffer is in use */
VG_REGPARM(0) void nb_wcb_fence(void)
{
	struct nb_wcb_evict e[NB_WCB_MAX];

	nb_wcb_fences++;
	nb_wcb_report(e, nb_wcb_flush(&nb_wcbs, e));
}

/* the helpers while a bus event is enabled (NEED_BUS): every access that
 * the inline L1D hit path does not take comes here */
VG_REGPARM(2) void nb_load_bus(Addr a, ULong size)
{
	nb_mem_any(a, nb_ldix_take(size), False, 0, NULL, True);
}

VG_REGPARM(2) void nb_store_bus(Addr a, ULong size)
{
	nb_mem_any(a, size, True, 0, NULL, True);
}

VG_REGPARM(2) void nb_store_bus_st(Addr a, ULong size)
{
	if (!nb_st_same(a, size))
		nb_mem_any(a, size, True, 0, NULL, True);
}

void nb_load_pebs_bus(Addr a, ULong size, ULong pc, VexGuestAMD64State *st)
{
	nb_mem_bus(a, nb_ldix_take(size), False, pc, st);
}

/* ---- trace cache (README "Trace cache") ---- */

/*
 * 12K uops [HIN01; CPUID descriptor 0x70: 12K uops, 8-way] in trace lines
 * of 6 uops [HIN01] = 2048 lines, 8-way: 256 sets.  A trace line is named
 * by the address of its first instruction, mixed by a bijection of 48-bit
 * values (x odd constant, so names stay distinct and lines spread over the
 * sets; nb_tc holds name << 6 as a 64-byte "line").  Instructions of more than 4
 * uops come from the microcode ROM [HIN01] and take no line slot.
 */
#define TC_LINE_UOPS 6
#define TC_MS_MIN    5          /* uops from which an instruction is in the MS ROM */
struct nb_cache nb_tc;
struct nb_tlb nb_itlb;


#define SIG_TC_DI      NB_SIG(NB_EV_TC_DELIVER_MODE, 2)
#define SIG_TC_BI      NB_SIG(NB_EV_TC_DELIVER_MODE, 5)
#define SIG_TCMISS     NB_SIG(NB_EV_BPU_FETCH_REQUEST, 0)
#define SIG_ITLB(b)    NB_SIG(NB_EV_ITLB_REFERENCE, (b))
#define SIG_ITMISS     NB_SIG(NB_EV_PAGE_WALK_TYPE, 1)

/* One execution of a superblock: its trace lines are looked up in order.
 * A hit delivers the line (3 uops per cycle [HIN01]); a miss is a fetch
 * request to the L2 through the ITLB, and the line is built by the
 * decoder (one instruction per cycle [HIN01]) and filled. */
VG_REGPARM(1) void nb_tc_sb(const struct nb_tc_desc *d)
{
	for (UInt i = 0; i < d->nlines; i++) {
		const struct nb_tc_line *l = &d->line[i];
		if (nb_cache_access_unsectored(&nb_tc, l->key << 6, 1)) {
			nb_sig[SIG_TC_DI] += (l->uops + 2) / 3;
			continue;
		}
		nb_sig[SIG_TCMISS]++;
		nb_tc_built += l->uops;
		nb_sig[SIG_TC_BI] += l->ninstr;
		if (nb_tlb_access(&nb_itlb, l->pc)) {
			nb_sig[SIG_ITLB(0)]++;
		} else {
			nb_sig[SIG_ITLB(1)]++;
			nb_sig[SIG_ITMISS]++;
		}
	}
}

/* Add an instruction at pc with uops (REP: per iteration) to d. */
void nb_tc_add(struct nb_tc_desc *d, Addr pc, UInt uops, Bool ms)
{
	struct nb_tc_line *l = d->nlines ? &d->line[d->nlines - 1] : 0;

	if (ms || uops >= TC_MS_MIN)
		return;         /* from the MS ROM (TC_ms_xfer: NB_IC_ROM) */
	if (!l || l->uops + uops > TC_LINE_UOPS) {
		l = &d->line[d->nlines++];
		l->key = ((ULong)pc * 0x9e3779b97f4a7c15ULL) & 0xffffffffffffULL;
		l->pc = (ULong)pc;
		l->uops = 0;
		l->ninstr = 0;
	}
	l->uops += uops;
	l->ninstr++;
}

