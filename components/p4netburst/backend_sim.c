/*
 * backend_sim.c - the PMU of nbsim, through valgrind client requests
 * (sim/nbsim_client.h).  Every register access that nbsim refuses (#GP)
 * becomes an error naming the register and nbsim's reason.
 */
#include <stdio.h>
#include <string.h>
#include "backend_regs.h"
#include "nbsim_client.h"

static int fault(const char *op, uint32_t msr, char *err, size_t len)
{
	char why[160];

	nbsim_last_fault(why, sizeof(why));
	snprintf(err, len, "nbsim refused %s 0x%x: %s", op, msr,
		 why[0] ? why : "general protection fault");
	return -1;
}

static int wr(uint32_t msr, uint64_t v, char *err, size_t len)
{
	if (nbsim_wrmsr(msr, v) != NBSIM_OK)
		return fault("WRMSR", msr, err, len);
	return 0;
}

static int sim_probe(struct nb_cpu *cpu, char *why, size_t len)
{
	struct nbsim_info info;

	if (!nbsim_present()) {
		snprintf(why, len, "not running under nbsim");
		return -1;
	}
	memset(&info, 0, sizeof(info));
	if (nbsim_info(&info) != NBSIM_OK || info.version != NBSIM_INFO_VERSION) {
		snprintf(why, len, "nbsim answered with an unknown interface version");
		return -1;
	}
	cpu->family = info.family;
	cpu->model = info.model;
	cpu->stepping = info.stepping;
	cpu->mhz = info.mhz;
	cpu->ht = info.ht;
	cpu->ht_halves = info.ht && info.ht_place == 1;
	cpu->l3 = info.l3_kb > 0;
	snprintf(cpu->model_name, sizeof(cpu->model_name), "%.*s",
		 (int)sizeof(info.model_name), info.model_name);
	snprintf(cpu->brand, sizeof(cpu->brand), "%.*s",
		 (int)sizeof(info.brand), info.brand);
	return 0;
}

static int sim_rdctr(unsigned ctr, uint64_t *v, char *err, size_t len)
{
	if (nbsim_rdpmc(ctr, v) != NBSIM_OK)
		return fault("RDPMC", ctr, err, len);
	return 0;
}

/* nbsim places each guest thread on a logical processor (sim/README.md
 * "Hyper-Threading"); INFO tells the calling thread which: the LP it was
 * created on, whose registers it programs (a thread that moved runs on
 * the other, and nbsim re-targets its registers there). */
static unsigned sim_thread_lp(void)
{
	struct nbsim_info info;

	memset(&info, 0, sizeof(info));
	if (nbsim_info(&info) != NBSIM_OK || !info.ht)
		return 0;
	return info.logical_cpu & 1;
}

static const struct nb_msr_io sim_io = { wr, sim_rdctr };

NB_REGS_BACKEND_FUNCS(sim, sim_io)

static int sim_pmi_signal(int sig, char *err, size_t len)
{
	if (nbsim_pmi_signal(sig) != NBSIM_OK) {
		char why[160];

		nbsim_last_fault(why, sizeof(why));
		snprintf(err, len, "nbsim refused PMI signal %d: %s", sig, why);
		return -1;
	}
	return 0;
}

static int sim_set_counters(const struct nb_regs *r, int n, uint32_t mask, const uint64_t *raw,
			    char *err, size_t len)
{
	for (int i = 0; i < n; i++) {
		uint32_t msr = nb_counters[r[i].counter].msr;

		if (!((mask >> i) & 1))
			continue;
		/* erratum N15: write twice (backend_regs.c) */
		if (wr(msr, raw[i] & NB_COUNTER_MASK, err, len) ||
		    wr(msr, raw[i] & NB_COUNTER_MASK, err, len))
			return -1;
	}
	return 0;
}

/* nbsim keeps a PMU context per guest thread; counters named here leave
 * it and count by CPU (sim/README.md "Per-thread counting"). */
static int sim_cpu_wide(const struct nb_regs *r, int n, int on, char *err, size_t len)
{
	uint32_t mask = 0;

	for (int i = 0; i < n; i++) {
		mask |= 1u << r[i].counter;
		if (r[i].cascade)
			mask |= 1u << r[i].hi_counter;
	}
	if (nbsim_cpu_wide(mask, on) != NBSIM_OK) {
		char why[160];

		nbsim_last_fault(why, sizeof(why));
		snprintf(err, len, "nbsim refused counting by CPU: %s", why);
		return -1;
	}
	return 0;
}

const struct nb_backend nb_backend_sim = {
	.name = "sim",
	.probe = sim_probe,
	.program = sim_program,
	.enable = sim_enable,
	.read = sim_read,
	.zero = sim_zero,
	.write_msrs = sim_write_msrs,
	.pmi_signal = sim_pmi_signal,
	.set_counters = sim_set_counters,
	.thread_lp = sim_thread_lp,
	.cpu_wide = sim_cpu_wide,
};
