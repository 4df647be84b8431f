/*
 * nb_cycles.c - the timing model: cycles (global_power_events RUNNING)
 * from retired uops, mispredictions and memory stalls, lazily at each PMU
 * access or cycle by cycle in step mode.  See README.md "Timing model".
 */
#include "nb_tool.h"

ULong nb_cyc;                     /* cycles so far (RUNNING)        */
ULong nb_u_seen, nb_m_seen;       /* uops, mispredicts in nb_cyc    */
Bool nb_stepping;                 /* NEED_STEP: nb_step reports cycles */
UInt nb_fill;                     /* uops in the open retirement cycle */

/* ---- timing model ---- */

/* Memory stall cycles since the last call (0 with --nbsim-mem-timing=no). */
static ULong nb_s_seen;
static ULong new_stalls(void)
{
	ULong s;

	nb_lean_fold();
	s = clo_mem_timing == MT_NO ? 0 : nb_stall - nb_s_seen;

	nb_s_seen = nb_stall;
	return s;
}

/* Step mode: one cycle of the bus model passes (README "Bus model"): its
 * outputs of this cycle go to the signals before the cycle is reported */
static void bus_tick(void)
{
	if (nb_need & NEED_BUS) {
		(void)nb_bus_advance(&nb_bus_state);
		nb_bus_derive();
	}
}

/* Step mode: n cycles in which signal s (NB_NSIG: none) outputs v and
 * RUNNING 1, added to nb_sig here.  While the bus model has misses queued,
 * cycle by cycle with the bus outputs of each; then at once. */
static void step_cycles(ULong n, unsigned s, ULong v)
{
	for (; n && (nb_need & NEED_BUS) && nb_bus_state.qn; n--) {
		bus_tick();
		if (s < NB_NSIG)
			nb_sig[s] += v;
		nb_pmu_cycle(&nb_pmu_state, nb_sig);
	}
	if (!n)
		return;
	nb_bus_state.now += n;          /* an idle bus: time passes */
	if (s < NB_NSIG)
		nb_sig[s] += n * v;
	nb_pmu_cycles_const(&nb_pmu_state, n, s, v);
}

/* Step mode: the stall cycles of mispredicts and memory since the last
 * call, in which only RUNNING outputs (and the bus model), reported at once. */
static void stall_cycles(void)
{
	ULong m = nb_sig[SIG_MISP] - nb_m_seen, n;

	nb_m_seen += m;
	n = m * nb_cpu->mispredict_penalty + new_stalls();
	if (n) {
		nb_cyc += n;
		step_cycles(n, NB_NSIG, 0);
	}
}

/*
 * Cycles (global_power_events RUNNING): uops retire `retire_width` per
 * cycle in program order; a mispredicted branch adds `mispredict_penalty`
 * stall cycles when it retires; a client request (RDMSR/WRMSR/RDPMC: the
 * serializing accesses of the PMU) ends the open retirement cycle.  So
 * between two client requests: ceil(uops / width) + mispredicts x penalty
 * + the memory stall cycles of the cache model (nb_mem) while it runs
 * (--nbsim-mem-timing; README "Timing model"), added like mispredict
 * stalls.
 *
 * Lazy mode: computed from the signals at each client request.  Step mode
 * (a counter filters per cycle): nb_step runs this model instruction by
 * instruction and reports every cycle to the PMU; both give the same count.
 */
void nb_update_cycles(void)
{
	UInt w = nb_cpu->retire_width;

	if (!nb_stepping) {
		ULong du = nb_sig[SIG_UOPS] - nb_u_seen;
		nb_cyc += (du + w - 1) / w + (nb_sig[SIG_MISP] - nb_m_seen) * nb_cpu->mispredict_penalty
			+ new_stalls();
		nb_m_seen = nb_sig[SIG_MISP];
	} else {
		/* end the open cycle, then the stalls of its instructions */
		if (nb_fill) {
			nb_cyc++;
			bus_tick();
			nb_pmu_cycle(&nb_pmu_state, nb_sig);
			nb_fill = 0;
		}
		stall_cycles();
	}
	nb_u_seen = nb_sig[SIG_UOPS];
	nb_sig[NB_SIG_CYCLES] = nb_cyc;
}

/* Cycles so far without ending the open retirement cycle (not a
 * serializing point): the whole cycles only.  Monotonic: a later
 * nb_update_cycles() gives at least as many. */
void nb_peek_cycles(void)
{
	ULong c = nb_cyc;

	nb_lean_fold();
	if (!nb_stepping)
		c += (nb_sig[SIG_UOPS] - nb_u_seen) / nb_cpu->retire_width +
			(nb_sig[SIG_MISP] - nb_m_seen) * nb_cpu->mispredict_penalty +
			(clo_mem_timing == MT_NO ? 0 : nb_stall - nb_s_seen);
	nb_sig[NB_SIG_CYCLES] = c;
}

/*
 * Step mode: one instruction retired (every raw count since the previous
 * step is its, or of earlier instructions of the open cycle).  Its uops
 * fill the open retirement cycle and then whole cycles.  Its other events
 * are output in the cycle of its first uop: they stay raw while that cycle
 * is open and are folded in (nb_derive) when it ends, so most steps cost a
 * few adds.  Stall cycles (mispredicts, memory) (only RUNNING outputs in them) follow
 * the cycles of the branch's uops.  See README "Filtering".
 */
VG_REGPARM(0) void nb_step(void)
{
	struct nb_pmu *P = &nb_pmu_state;
	UInt w = nb_cpu->retire_width;
	ULong u = nb_raw[RAW_UOPS] - nb_raw_last[RAW_UOPS], take, left, q;

	nb_raw_last[RAW_UOPS] = nb_raw[RAW_UOPS];
	if (nb_fill + u < w) {
		/* the open cycle stays open */
		nb_sig[SIG_UOPS] += u;
		nb_fill += (UInt)u;
		return;
	}
	if (nb_need & NEED_BUS)
		(void)nb_bus_advance(&nb_bus_state);
	nb_derive();
	take = w - nb_fill;
	left = u - take;
	nb_sig[SIG_UOPS] += take;
	nb_cyc++;
	nb_pmu_cycle(P, nb_sig);
	q = left / w;
	if (q) {
		nb_cyc += q;
		step_cycles(q, SIG_UOPS, w);
	}
	nb_sig[SIG_UOPS] += left % w;
	nb_fill = (UInt)(left % w);
	stall_cycles();
	nb_u_seen = nb_sig[SIG_UOPS];
}

