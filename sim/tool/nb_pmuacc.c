/*
 * nb_pmuacc.c - the PMU-access protocol: what every access of the PMU's
 * registers from outside generated code (client requests, the emulated
 * kernel, the program file, thread switches, PMIs, PEBS) does before and
 * after it, and RDMSR/WRMSR as the CPU does them.  sim/README.md "Lazy
 * counting".
 */
#include "nb_tool.h"

/*
 * Before an access: the counts are lazy between accesses.  The raw counts
 * since the last access become event signals with the tagging
 * configuration that held while they accrued (nb_derive), then the clock
 * runs up to this point (nb_update_cycles), which reads the uops and
 * mispredictions nb_derive folded into the signals: so nb_derive first.
 */
void nb_pmu_access(void)
{
	nb_derive();
	nb_update_cycles();
}

/*
 * After a write of register MSR (0: several, as a context switch writes
 * them; NB_PMU_NO_WRITE: none, what the tool or a front-end declared
 * changed: the PMI signal, the perf driver's sampling), what follows from
 * the registers, in this order:
 *  1. nb_pmi_update: whether a PMI can be sent (an armed counter, and a
 *     signal or a front-end that claims PMIs) and the budget to the
 *     nearest overflow (the sampled clock walks near one);
 *  2. nb_pebs_update: PEBS's conditions, and what this write changes of
 *     it (the per-LP enable bits of IA32_PEBS_ENABLE as written, the
 *     arming a write of the PEBS counter clears).  Only after a write: a
 *     count since the last write is the PEBS countdown's, not the counter's;
 *  3. nb_update_need: reads nb_pmi_on (1) and nb_pebs_on (2), so after
 *     them; it may discard translations (re-instrumentation);
 *  4. nb_tags_changed: the tagging configuration is read again at the
 *     next nb_derive (a flag: any place after the write would do).
 * 1 and 2 read and set disjoint state.  The callers did these in four
 * orders, each with 1 before 2 before 3; some left out a step that then
 * had nothing to do (their counts are unchanged: make -C sim check, the
 * bench's counts).
 */
void nb_pmu_written(uint32_t msr)
{
	nb_pmi_update();
	if (msr != NB_PMU_NO_WRITE)
		nb_pebs_update(msr);
	nb_update_need();
	nb_tags_changed();
}

UWord nb_gp_from_pmu(void)
{
	VG_(strlcpy)(nb_fault_buf, nb_pmu_fault(&nb_pmu_state), sizeof nb_fault_buf);
	return NBSIM_GP;
}

/* RDMSR and WRMSR as the CPU does them: NBSIM_OK, or NBSIM_GP with the
 * reason in nb_fault_buf (the client requests; the emulated msr device and
 * perf driver, nb_kern.c). */
UWord nb_rdmsr_req(uint32_t msr, uint64_t *v)
{
	if (nb_pmu_rdmsr(&nb_pmu_state, msr, v, nb_sig) != NB_PMU_OK)
		return nb_gp_from_pmu();
	if (msr == NB_MSR_IA32_DS_AREA)
		*v = nb_ds_area[nb_pmu_state.lp & 1];
	return NBSIM_OK;
}

UWord nb_wrmsr_req(uint32_t msr, uint64_t v)
{
	UWord r = nb_pmu_wrmsr(&nb_pmu_state, msr, v, nb_sig) == NB_PMU_OK ? NBSIM_OK : nb_gp_from_pmu();

	if (r == NBSIM_OK && msr == NB_MSR_IA32_DS_AREA)
		nb_ds_area[nb_pmu_state.lp & 1] = v;
	nb_warn_unmodelled();
	nb_pmu_written(msr);
	return r;
}
