/*
 * nb_derive.c - signal derivation: folds the raw counts of the CPU model
 * into the PMU's event signals with the tagging configuration of the
 * interval (front-end, execution and replay tagging, the wrong path, the
 * bus model's outputs).  See README.md "Tagging".
 */
#include "nb_tool.h"
#include "nb_rawsh.h"

/* the execution-tagging upstream events, by enum nb_fp_class */
static const unsigned fp_event[NB_FP_NCLASSES] = {
	[NB_FP_X87] = NB_EV_X87_FP_UOP, [NB_FP_SSP] = NB_EV_SCALAR_SP_UOP,
	[NB_FP_SDP] = NB_EV_SCALAR_DP_UOP, [NB_FP_PSP] = NB_EV_PACKED_SP_UOP,
	[NB_FP_PDP] = NB_EV_PACKED_DP_UOP, [NB_FP_MMX64] = NB_EV_64BIT_MMX_UOP,
	[NB_FP_MMX128] = NB_EV_128BIT_MMX_UOP, [NB_FP_MOVE] = NB_EV_X87_SIMD_MOVES_UOP,
};
#define SIG_FP_ALL(fc) NB_SIG(fp_event[fc], 15)            /* mask ALL   */

/* ---- tagging (README "Tagging") ---- */

/* Front-end tagging: TAGLOADS (bit 0) / TAGSTORES (bit 1) selected by a
 * uop_type ESCR (RAT_ESCR0/1) qualified for the running thread's user mode
 * (the guest runs on logical processor 0 in user mode: T0_USR).  The
 * tagging is the ESCR's: no CCCR needs to count uop_type. */
static unsigned fe_tags(void)
{
	unsigned t = 0;
	for (unsigned i = 0; i < 2; i++) {
		uint64_t e = nb_pmu_state.escr[i ? NB_ESCR_RAT_ESCR1 : NB_ESCR_RAT_ESCR0];
		if (((e & NB_ESCR_EVSEL_MASK) >> NB_ESCR_EVSEL_SHIFT) !=
		    nb_events[NB_EV_UOP_TYPE].event_select || !(e & nb_usr_bit()))
			continue;
		t |= (unsigned)((e >> (NB_ESCR_EMASK_SHIFT + 1)) & 3);
	}
	return t;
}

/* Execution tagging: the tag bits (TagValue) each FP/SIMD class gets from
 * the upstream ESCRs FIRM_ESCR0/1 that select its event with mask ALL,
 * TagEnable and T0_USR.  Several ESCRs tagging one class OR their values. */
static void exec_tags(uint8_t tag[NB_FP_NCLASSES + 1])
{
	for (unsigned fc = 0; fc <= NB_FP_NCLASSES; fc++)
		tag[fc] = 0;
	for (unsigned i = 0; i < 2; i++) {
		uint64_t e = nb_pmu_state.escr[i ? NB_ESCR_FIRM_ESCR1 : NB_ESCR_FIRM_ESCR0];
		unsigned sel = (unsigned)((e & NB_ESCR_EVSEL_MASK) >> NB_ESCR_EVSEL_SHIFT);
		uint8_t tv = (uint8_t)((e & NB_ESCR_TAG_MASK) >> NB_ESCR_TAG_SHIFT);
		if (!(e & NB_ESCR_TAG_ENABLE) || !(e & nb_usr_bit()))
			continue;
		/* x87_SIMD_moves_uop tags the moves of its selected masks */
		if (sel == nb_events[NB_EV_X87_SIMD_MOVES_UOP].event_select) {
			if (e & (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + NB_MOVE_P0_BIT)))
				tag[NB_FP_MOVE] |= tv;
			if (e & (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + NB_MOVE_P2_BIT)))
				tag[XT_MOVE_P2] |= tv;
			continue;
		}
		if (!(e & (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + 15))))
			continue;
		for (unsigned fc = 1; fc < NB_FP_MOVE; fc++)
			if (nb_events[fp_event[fc]].event_select == sel)
				tag[fc] |= (uint8_t)((e & NB_ESCR_TAG_MASK) >> NB_ESCR_TAG_SHIFT);
	}
}

/* Value of a PMU MSR other than counters/CCCRs/ESCRs (PEBS MSRs). */
uint64_t nb_other_msr(uint32_t msr)
{
	for (unsigned i = 0; i < nb_num_msrs && i < NB_PMU_MAX_OTHER; i++)
		if (nb_msrs[i].addr == msr)
			return nb_pmu_state.other[i];
	return 0;
}

/* Is escr programmed with event ev, mask bit `bit` and T0_USR? */
Bool nb_escr_selects(unsigned escr, unsigned ev, unsigned bit)
{
	return nb_pmu_escr_selects(&nb_pmu_state, escr, ev, bit) != 0;
}

/*
 * Replay tagging [metrics.txt: SDM replay metrics table; S003 l.3824-3846]:
 * with IA32_PEBS_ENABLE bit 24, the PEBS_ENABLE bits choose the conditions
 * (bit 0 L1D miss, bit 1 L2 miss, bit 2 DTLB miss, bit 10 split access) and
 * MSR_PEBS_MATRIX_VERT the uops (bit 0 loads, bit 1 stores).  A split uop is
 * tagged only while its helper ESCR selects the replay (load_port_replay
 * SPLIT_LD in SAAT_ESCR1, store_port_replay SPLIT_ST in SAAT_ESCR0; SDM
 * replay metrics table "additional MSRs").  A uop with several selected
 * conditions is tagged once.  Bit 9: loads blocked by the store buffer
 * (nb_mob_tags, pmu.c).  out[0]: tagged loads, out[1]: tagged stores.
 */
void replay_tagged(const ULong *d, ULong out[2])
{
	uint64_t pe = nb_other_msr(NB_MSR_IA32_PEBS_ENABLE);
	uint64_t mv = nb_other_msr(NB_MSR_MSR_PEBS_MATRIX_VERT);
	unsigned sel = 0;

	out[0] = out[1] = 0;
	if (!(pe & (UINT64_C(1) << 24)))
		return;
	sel = (pe & 1 ? MC_L1 : 0) | (pe & 2 ? MC_L2 : 0) | (pe & 4 ? MC_DTLB : 0);
	for (unsigned st = 0; st < 2; st++) {
		unsigned s = sel;
		if (!(mv & (1u << st)))
			continue;
		if ((pe & (UINT64_C(1) << 10)) &&
		    (st ? nb_escr_selects(NB_ESCR_SAAT_ESCR0, NB_EV_STORE_PORT_REPLAY, 1)
			: nb_escr_selects(NB_ESCR_SAAT_ESCR1, NB_EV_LOAD_PORT_REPLAY, 1)))
			s |= MC_SPLIT;
		if (!st)
			s |= nb_mob_tags(pe);
		for (unsigned cond = 1; cond < MC_N; cond++)
			if (cond & s)
				out[st] += d[RAW_MC(st, cond)];
	}
}

/* Replay tagging of mispredicted branches (Tagged_mispred_branch
 * [metrics.txt: SDM replay-metric table; Linux p4.c 0x18000/0x10]):
 * IA32_PEBS_ENABLE bits 15, 16 and 24, MSR_PEBS_MATRIX_VERT bit 4.  Each
 * retired mispredicted branch is one tagged uop. */
int nb_mispred_tagging(void)
{
	uint64_t need = (UINT64_C(1) << 15) | (UINT64_C(1) << 16) | (UINT64_C(1) << 24);
	return (nb_other_msr(NB_MSR_IA32_PEBS_ENABLE) & need) == need &&
		(nb_other_msr(NB_MSR_MSR_PEBS_MATRIX_VERT) & (1u << 4));
}

/* Fold the raw counts since the last PMU access into the signals, with the
 * tagging configuration of that interval (called before every access). */
static ULong wp_last_misp, wp_last_uops;
struct nb_wpath nb_wp;
static uint32_t wp_frac[9];            /* fractions carried by the shares */

/* The tagging configuration as nb_derive uses it, recomputed only after a
 * client request (an ESCR or PEBS MSR may have changed) or a switch of LP:
 * step mode derives once per cycle. */
static Bool nb_tags_valid;
static unsigned nb_fe_cached;
static uint8_t nb_xt_cached[NB_FP_NCLASSES + 1];

void nb_tags_changed(void)
{
	nb_tags_valid = False;
}

/* ---- bus model signals (README "Bus model") ---- */

/* The event-mask bits event ev defines (on every model: the bus events
 * have no per-model masks) */
static uint32_t ev_defined(unsigned ev)
{
	uint32_t m = 0;

	for (unsigned k = 0; k < nb_events[ev].nmasks; k++)
		m |= 1u << nb_events[ev].masks[k].bit;
	return m;
}

/*
 * The IOQ/BSQ events combine their mask bits into one selection (nb_bus.c)
 * while the PMU adds one signal per selected bit (pmu.h).  So the count an
 * ESCR's mask selects goes to the signal of one of its bits: with one ESCR
 * programmed for the event, its lowest bit; with two (IOQ_allocation on
 * FSB_ESCR0 and FSB_ESCR1), each a bit the other does not select; nested
 * masks (one a subset of the other) give the smaller one its lowest bit and
 * the larger one the difference of the counts on a bit of its own (0 if
 * negative: a documented limit).
 */
static void bus_sig(unsigned ev, const uint64_t *w, int ioq)
{
	uint32_t m[2] = { 0, 0 }, def = ev_defined(ev);
	ULong c[2] = { 0, 0 };
	unsigned n = 0;

	for (unsigned i = 0; i < nb_events[ev].nescrs && n < 2; i++) {
		uint64_t e = nb_pmu_state.escr[nb_events[ev].escrs[i]];
		if (((e & NB_ESCR_EVSEL_MASK) >> NB_ESCR_EVSEL_SHIFT) != nb_events[ev].event_select)
			continue;
		m[n] = (uint32_t)(e >> NB_ESCR_EMASK_SHIFT) & def;
		if (!m[n])
			continue;
		c[n] = ioq ? nb_bus_ioq_count(nb_cpu->model, m[n], w) : nb_bus_bsq_count(m[n], w);
		n++;
	}
	if (n == 2 && m[0] != m[1]) {
		uint32_t a = m[0] & ~m[1], b = m[1] & ~m[0];
		if (!a) {               /* m[0] within m[1] */
			nb_sig[NB_SIG(ev, __builtin_ctz(m[0]))] += c[0];
			nb_sig[NB_SIG(ev, __builtin_ctz(b))] += c[1] > c[0] ? c[1] - c[0] : 0;
		} else if (!b) {        /* m[1] within m[0] */
			nb_sig[NB_SIG(ev, __builtin_ctz(m[1]))] += c[1];
			nb_sig[NB_SIG(ev, __builtin_ctz(a))] += c[0] > c[1] ? c[0] - c[1] : 0;
		} else {
			nb_sig[NB_SIG(ev, __builtin_ctz(a))] += c[0];
			nb_sig[NB_SIG(ev, __builtin_ctz(b))] += c[1];
		}
	} else if (n) {
		nb_sig[NB_SIG(ev, __builtin_ctz(m[0]))] += c[0];
	}
}

/* Fold the bus model's totals since the last call into the signals, with
 * the ESCRs of the interval (they change only at client requests, which
 * derive first). */
void nb_bus_derive(void)
{
	struct nb_bus *b = &nb_bus_state, *l = &nb_bus_last;
	uint64_t w[4][NB_BUS_NCLASS], any[4] = { 0, 0, 0, 0 };

	/* (the totals only: l's queue is not used; in step mode this runs
	 * every cycle, and in most cycles no transaction is queued: a group
	 * whose totals did not move adds nothing, as the counts are sums of
	 * its classes', so it is not selected per ESCR) */
	for (unsigned k = 0; k < NB_BUS_NCLASS; k++) {
		w[0][k] = b->ioq_alloc[k] - l->ioq_alloc[k];
		w[1][k] = b->ioq_cyc[k] - l->ioq_cyc[k];
		w[2][k] = b->bsq_alloc[k] - l->bsq_alloc[k];
		w[3][k] = b->bsq_cyc[k] - l->bsq_cyc[k];
		any[0] |= w[0][k];
		any[1] |= w[1][k];
		any[2] |= w[2][k];
		any[3] |= w[3][k];
		l->ioq_alloc[k] = b->ioq_alloc[k];
		l->ioq_cyc[k] = b->ioq_cyc[k];
		l->bsq_alloc[k] = b->bsq_alloc[k];
		l->bsq_cyc[k] = b->bsq_cyc[k];
	}
	for (unsigned i = 0; i < NB_FSB_NBITS; i++) {
		nb_sig[NB_SIG(NB_EV_FSB_DATA_ACTIVITY, i)] += b->fsb[i] - l->fsb[i];
		l->fsb[i] = b->fsb[i];
	}
	if (any[0])
		bus_sig(NB_EV_IOQ_ALLOCATION, w[0], 1);
	if (any[1])
		bus_sig(NB_EV_IOQ_ACTIVE_ENTRIES, w[1], 1);
	if (any[2])
		bus_sig(NB_EV_BSQ_ALLOCATION, w[2], 0);
	if (any[3])
		bus_sig(NB_EV_BSQ_ACTIVE_ENTRIES, w[3], 0);
}

/* The raw counts fold reads, by nb_need and nb_stepping (the loop that
 * decided per count, at every fold, was a tenth of step mode's time on
 * bench branchy: a fold per mispredicting cycle): a count nothing
 * instrumented counts has not moved (raw_need in nb_instr.c; needs only
 * grow): 0, and the instruction classes are not read then; RAW_UOPS in
 * step mode is nb_step's (it retires uops cycle by cycle); RAW_MC apart
 * (fold: only when it moved) */
static unsigned fold_ix[RAW_N], fold_nx, fold_zx[RAW_N], fold_nz;
static UInt fold_need = ~0u;
static Bool fold_step;

static void fold_list(void)
{
	unsigned n = 0, z = 0;

	for (unsigned i = 0; i < RAW_N; i++) {
		UInt need = i <= RAW_STORES ? NEED_MEM : i < RAW_ROM_UOPS ? 0
			: i < RAW_IC0 ? NEED_ROM : i < RAW_IC_END ? NEED_INSTR
			: i == RAW_UOPS ? 0 : i < RAW_SSE_ASSIST ? NEED_BR : NEED_FPA;

		if (i == RAW_MC0) {
			i = RAW_MC(2, 0) - 1;
			continue;
		}
		if (need && !(nb_need & need)) {
			if (need == NEED_INSTR) {
				i = RAW_IC_END - 1;
				continue;
			}
			fold_zx[z++] = i;
			continue;
		}
		if (i == RAW_UOPS && nb_stepping) {
			fold_zx[z++] = i;
			continue;
		}
		fold_ix[n++] = i;
	}
	fold_nx = n;
	fold_nz = z;
	fold_need = nb_need;
	fold_step = nb_stepping;
}

/*
 * One derivation: fold the raw counts from nb_raw_last up to `to` (the
 * entries outside RAW_MC; RAW_MC up to nb_raw, when it moved), with
 * SIG_UOPS at `uops_end` (step mode: nb_step maintains it) and the trace
 * lines' uops at `built_end`, into the signals.
 */
static void fold(const ULong *to, ULong uops_end, ULong built_end)
{
	ULong d[RAW_N], tagged_i = 0, tagged_u = 0, instr = 0, xtag[4] = { 0 }, rp[2];
	ULong bogus, du, replay, misp, cmiss;
	unsigned fe;
	uint8_t xt[NB_FP_NCLASSES + 1];

	fe = nb_fe_cached;
	for (unsigned i = 0; i <= NB_FP_NCLASSES; i++)
		xt[i] = nb_xt_cached[i];
	if (fold_need != nb_need || fold_step != nb_stepping)
		fold_list();
	if (nb_mc_n != nb_mc_n_last)    /* (else not read below) */
		for (unsigned i = RAW_MC0; i < RAW_MC(2, 0); i++) {
			d[i] = nb_raw[i] - nb_raw_last[i];
			nb_raw_last[i] = nb_raw[i];
		}
	for (unsigned j = 0; j < fold_nz; j++)
		d[fold_zx[j]] = 0;
	for (unsigned j = 0; j < fold_nx; j++) {
		unsigned i = fold_ix[j];
		d[i] = to[i] - nb_raw_last[i];
		nb_raw_last[i] = to[i];
	}
	if (!nb_stepping) {
		nb_sig[SIG_UOPS] += d[RAW_UOPS];
		uops_end = nb_sig[SIG_UOPS];
	}
	if (fe & 1)
		tagged_u += d[RAW_LOADS];
	if (fe & 2)
		tagged_u += d[RAW_STORES];
	for (unsigned mem = 0; mem < 4 && (nb_need & NEED_INSTR); mem++)
		for (unsigned fc = 0; fc < NB_FP_NCLASSES; fc++) {
			ULong n = d[RAW_IC(mem, fc)];
			if (!n)
				continue;
			unsigned x = fc == NB_FP_MOVE && (mem & MEM_L) ? XT_MOVE_P2 : fc;
			instr += n;
			if ((mem & fe) || xt[x])
				tagged_i += n;
			if (fc == NB_FP_MOVE)
				/* one move uop per instruction, port by direction */
				nb_sig[NB_SIG(NB_EV_X87_SIMD_MOVES_UOP, x == XT_MOVE_P2
					      ? NB_MOVE_P2_BIT : NB_MOVE_P0_BIT)] += n;
			else if (fc)
				/* one computational uop per instruction */
				nb_sig[SIG_FP_ALL(fc)] += n;
			for (unsigned b = 0; b < 4; b++)
				if (xt[x] & (1u << b))
					xtag[b] += n;
		}
	for (unsigned b = 0; b < 4; b++)
	{
		nb_sig[SIG_BR(b)] += d[RAW_BR0 + b] + d[RAW_CBR0 + b];
		nb_sig[SIG_EXEC(b)] += xtag[b];
	}
	/* conditional branches (nb_cond): retired_branch_type and
	 * retired_mispred_branch_type CONDITIONAL, and the mispredicted ones */
	cmiss = d[RAW_CBR0 + 1] + d[RAW_CBR0 + 3];
	nb_sig[SIG_RBT(1)] += d[RAW_CBR0] + d[RAW_CBR0 + 2] + cmiss;
	nb_sig[SIG_RMBT(1)] += cmiss;
	misp = d[RAW_MISP] + cmiss;
	nb_sig[SIG_MISP] += misp;
	/* FP assists (README "FP assists"): SSE_input_assist ALL (bit 15),
	 * x87_assist POAO, POAU, PREA */
	nb_sig[NB_SIG(NB_EV_SSE_INPUT_ASSIST, 15)] += d[RAW_SSE_ASSIST];
	for (unsigned b = 2; b < 5; b++)
		nb_sig[NB_SIG(NB_EV_X87_ASSIST, b)] += d[RAW_X87_ASSIST + b];
	rp[0] = rp[1] = 0;
	if (nb_mc_n != nb_mc_n_last)
		replay_tagged(d, rp);
	nb_mc_n_last = nb_mc_n;
	replay = rp[0] + rp[1];
	if (nb_mispred_tagging()) {
		/* a mispredicted branch is one instruction: tagged */
		replay += misp;
		tagged_i += misp;
	}
	/* replay-tagged uops make their instruction tagged: one memory uop per
	 * instruction is assumed; loads/stores already front-end tagged are
	 * not counted twice; overlap with execution tags is not known (a
	 * model approximation, README "Tagging") */
	tagged_i += (fe & 1 ? 0 : rp[0]) + (fe & 2 ? 0 : rp[1]);
	if (tagged_i > instr)
		tagged_i = instr;
	nb_sig[NB_SIG(NB_EV_REPLAY_EVENT, 0)] += replay;

	/* wrong path (nb_wpath.c): bogus uops per mispredicted branch, with
	 * the committed mix of this interval */
	du = uops_end - wp_last_uops;
	bogus = nb_wpath_uops(&nb_wp, nb_sig[SIG_MISP] - wp_last_misp);
	wp_last_uops = uops_end;
	wp_last_misp = nb_sig[SIG_MISP];
	nb_sig[NB_SIG(NB_EV_UOPS_RETIRED, 1)] += bogus;
	/* (nothing to share, the carry untouched: without the call, which
	 * step mode made nine times per mispredicting cycle) */
#define WP_SHARE(i, x) ((x) && bogus ? nb_wpath_share_carry(bogus, (x), du, &wp_frac[i]) : 0)
	nb_sig[NB_SIG(NB_EV_FRONT_END_EVENT, 1)] += WP_SHARE(0, tagged_u);
	nb_sig[NB_SIG(NB_EV_REPLAY_EVENT, 1)] += WP_SHARE(1, replay);
	nb_sig[NB_SIG(NB_EV_INSTR_RETIRED, 3)] += WP_SHARE(2, tagged_i);
	nb_sig[NB_SIG(NB_EV_INSTR_RETIRED, 2)] += WP_SHARE(3, instr - tagged_i);
	for (unsigned b = 0; b < 4; b++)
		nb_sig[SIG_EXEC(4 + b)] += WP_SHARE(4 + b, xtag[b]);
	/* instr_completed (models 3, 4, 6): retired instructions */
	nb_sig[NB_SIG(NB_EV_INSTR_COMPLETED, 0)] += instr;
	nb_sig[NB_SIG(NB_EV_INSTR_COMPLETED, 1)] += WP_SHARE(8, instr);
#undef WP_SHARE
	/* uop_queue_writes: MS ROM uops; the others (and the wrong path)
	 * come from the trace cache, in build mode those of the lines the
	 * trace-cache model built (nb_tc_sb), else in deliver mode */
	nb_sig[NB_SIG(NB_EV_UOP_QUEUE_WRITES, 2)] += d[RAW_ROM_UOPS];
	{
		ULong tcu = (du > d[RAW_ROM_UOPS] ? du - d[RAW_ROM_UOPS] : 0) + bogus;
		ULong built = built_end - nb_tc_built_last;
		nb_tc_built_last = built_end;
		if (built > tcu)
			built = tcu;
		nb_sig[NB_SIG(NB_EV_UOP_QUEUE_WRITES, 0)] += built;
		nb_sig[NB_SIG(NB_EV_UOP_QUEUE_WRITES, 1)] += tcu - built;
	}
	nb_sig[NB_SIG(NB_EV_TC_MS_XFER, 0)] += d[RAW_MS_XFER];
	nb_sig[SIG_UOPTYPE(1)] += d[RAW_LOADS];
	nb_sig[SIG_UOPTYPE(2)] += d[RAW_STORES];
	nb_sig[SIG_FE_NBOGUS] += tagged_u;
	nb_sig[SIG_INSTR_TAG] += tagged_i;
	nb_sig[SIG_INSTR] += instr - tagged_i;
	/* the Pentium D's second counts (RAW_XINS): untagged */
	if (nb_need & NEED_INSTR)
		nb_sig[SIG_INSTR] += d[RAW_XINS];
	if (nb_need & NEED_BUS)
		nb_bus_derive();
}


/* ---- step mode: derivation deferred over linear pieces ----
 *
 * Step mode derives at the end of every retirement cycle (close_open in
 * nb_cycles.c), and at every PMU access (nb_derive): the raw counts
 * between two such points are one *piece*.  Most of the derivation is
 * linear in a piece's counts; what is not (the wrong path's bogus uops
 * and its shares with their carried fractions, the tagged-instruction
 * clamp, the uop_queue_writes split) is the identity or zero in a piece
 * with no mispredicted branch, no MS ROM uop, no trace line built and no
 * replay tagging (IA32_PEBS_ENABLE bit 24, also needed by the
 * mispredicted-branch tagging).  So such *linear* pieces can be folded
 * together, later, with the same signals as one by one; a non-linear
 * piece is folded on its own (after the linear ones before it), from a
 * copy of the raw counts at its start (`piece`).  This holds while every
 * signal a per-cycle counter reads (the PMU's cused_list) is one that
 * step mode keeps current without nb_derive: uops_retired NBOGUS (nb_step),
 * RUNNING (one per cycle) and the bus model's signals (nb_bus_derive at
 * every cycle); otherwise every cycle is derived, as before.
 */
static ULong piece[RAW_N];       /* nb_raw at the start of the open piece */
static ULong piece_uops, piece_built;
static Bool piece_valid;         /* piece[] is that copy                  */
static Bool deferred;            /* linear pieces before it not folded    */
static Bool lazy_ok;             /* deferring is allowed (with the tags)  */
static uint32_t lazy_gen;        /* nb_pmu_state.cfg_gen lazy_ok is of    */

static inline ULong misp_raw(const ULong *r)
{
	return r[RAW_MISP] + r[RAW_CBR0 + 1] + r[RAW_CBR0 + 3];
}

/* Is each signal the per-cycle counters read current without nb_derive,
 * and is replay tagging off? */
static Bool lazy_allowed(void)
{
	const struct nb_pmu *p = &nb_pmu_state;

	if (clo_step_each || (nb_other_msr(NB_MSR_IA32_PEBS_ENABLE) & (UINT64_C(1) << 24)))
		return False;
	for (unsigned i = 0; i < p->ncused; i++) {
		unsigned s = p->cused_list[i], ev = s / NB_MAX_MASKS;
		if (s == SIG_UOPS || s == NB_SIG_CYCLES)
			continue;
		if (ev == NB_EV_IOQ_ALLOCATION || ev == NB_EV_IOQ_ACTIVE_ENTRIES ||
		    ev == NB_EV_BSQ_ALLOCATION || ev == NB_EV_BSQ_ACTIVE_ENTRIES ||
		    ev == NB_EV_FSB_DATA_ACTIVITY)
			continue;
		return False;
	}
	return True;
}

Bool nb_tagging_programmed(void)
{
	uint8_t xt[NB_FP_NCLASSES + 1];

	if (fe_tags())
		return True;
	exec_tags(xt);
	for (unsigned fc = 0; fc <= NB_FP_NCLASSES; fc++)
		if (xt[fc])
			return True;
	return False;
}

/* the tagging configuration and lazy_ok, if a client request (or a switch
 * of LP) may have changed them */
static void __attribute__((noinline)) tags_refresh_slow(void)
{
	if (!nb_tags_valid) {
		nb_fe_cached = fe_tags();
		exec_tags(nb_xt_cached);
		nb_tags_valid = True;
		lazy_gen = nb_pmu_state.cfg_gen - 1;
	}
	if (lazy_gen != nb_pmu_state.cfg_gen) {
		lazy_ok = lazy_allowed();
		lazy_gen = nb_pmu_state.cfg_gen;
	}
}

/* (inline: step mode asks twice per held run, where nothing changed) */
static inline void tags_refresh(void)
{
	if (!nb_tags_valid || lazy_gen != nb_pmu_state.cfg_gen)
		tags_refresh_slow();
}

/* A piece starts: copy the raw counts the next piece may need on its own:
 * all but RAW_MC, which only replay tagging reads, and RAW_UOPS, which
 * nb_step folds; of the others those that something instrumented counts
 * (raw_need in nb_instr.c: needs only grow, and a count nothing counts
 * keeps the value of the last whole copy) */
static void piece_start(void)
{
	UInt n = piece_valid ? nb_need : ~0u;

	if (n & NEED_MEM) {
		piece[RAW_LOADS] = nb_raw[RAW_LOADS];
		piece[RAW_STORES] = nb_raw[RAW_STORES];
	}
	if (n & NEED_ROM) {
		piece[RAW_ROM_UOPS] = nb_raw[RAW_ROM_UOPS];
		piece[RAW_MS_XFER] = nb_raw[RAW_MS_XFER];
	}
	if (n & NEED_INSTR)
		for (unsigned i = RAW_IC0; i < RAW_IC_END; i++)
			piece[i] = nb_raw[i];
	if (n & NEED_BR)                /* nb_branch, nb_cond */
		for (unsigned i = RAW_BR0; i < RAW_SSE_ASSIST; i++)
			piece[i] = nb_raw[i];
	if (n & NEED_FPA)               /* the assist checks */
		for (unsigned i = RAW_SSE_ASSIST; i < RAW_N; i++)
			piece[i] = nb_raw[i];
	piece_uops = nb_sig[SIG_UOPS];
	piece_built = nb_tc_built;
	piece_valid = True;
}

/*
 * Is the fold additive, and unobserved between the PMU accesses?  Then
 * no close needs a fold: the signals of pieces folded one by one are
 * those of their sum folded at the next access (nb_derive), and nothing
 * reads them before it.  Additive: what is not in fold() is the wrong
 * path's shares (of the front-end tagged uops, the replay- and
 * execution-tagged instructions, the instructions), the clamps of the
 * tagged instructions, of the trace cache's built uops and of the MS ROM
 * uops in uop_queue_writes, and the bus model's derivation; under the
 * lazy folding (no replay or mispredicted-branch tagging: lazy_allowed)
 * they are all zero or absent when nothing counts instructions by
 * class, MS ROM uops or built trace lines, no front-end tag is set and
 * the bus model is off.  Unobserved: the per-cycle counters read none of
 * the folded signals (lazy_allowed), and no PMI can read the counters
 * inside a run (its handler's access would fold the raw counts as they
 * stand mid-run).  The raw counts then need no per-cycle shares either
 * (nb_step.c step_held): only their totals reach the signals.
 */
static inline Bool fold_additive(void)
{
	return !nb_fe_cached && !(nb_need & (NEED_INSTR | NEED_ROM | NEED_TC | NEED_BUS | NEED_PMI));
}

/* (nb_step.c: a held run's raw counts need no shares) */
Bool nb_derive_additive(void)
{
	tags_refresh();
	return lazy_ok && fold_additive();
}

/* Is the open piece linear (see above)? */
static inline Bool piece_linear(void)
{
	return misp_raw(nb_raw) == misp_raw(piece) && nb_raw[RAW_ROM_UOPS] == piece[RAW_ROM_UOPS] &&
		nb_tc_built == piece_built;
}

/* Fold the raw counts since the last PMU access into the signals, with the
 * tagging configuration of that interval (called before every access). */
void nb_derive(void)
{
	nb_rawsh_pull();        /* (a helper inside generated code) */
	nb_cycles_flush();
	nb_lean_fold();
	tags_refresh();
	if (deferred && !piece_linear())
		fold(piece, piece_uops, piece_built);   /* the linear pieces */
	fold(nb_raw, nb_sig[SIG_UOPS], nb_tc_built);
	deferred = False;
	piece_valid = False;
	if (nb_stepping && lazy_ok)
		piece_start();
}

/* Step mode: the open retirement cycle ends (nb_step.c, close_open).
 * Returns whether the folding is lazy: then the signals the per-cycle
 * counters read are the only ones current. */
/* Would nb_derive_cycle, called now, defer a linear piece (and so do
 * nothing but start the next piece)?  (nb_step.c held_bulk: a held
 * run's cycles closed at once)  0: no; 1: yes; 2: it would do nothing,
 * whatever the pieces (fold_additive) */
unsigned nb_derive_linear_now(void)
{
	tags_refresh();
	if (!lazy_ok || !piece_valid)
		return 0;
	if (fold_additive())
		return 2;
	return piece_linear();
}

Bool nb_derive_cycle(void)
{
	tags_refresh();
	if (!lazy_ok || !piece_valid) {
		nb_derive();
		return False;
	}
	if (fold_additive())
		return True;    /* (folded at the next access, nb_derive) */
	if (piece_linear()) {
		deferred = True;        /* folded with the next non-linear one */
		piece_start();
		return True;
	}
	nb_lean_fold();
	if (deferred)
		fold(piece, piece_uops, piece_built);
	fold(nb_raw, nb_sig[SIG_UOPS], nb_tc_built);
	deferred = False;
	piece_start();
	return True;
}
