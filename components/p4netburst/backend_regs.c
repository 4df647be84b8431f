/*
 * backend_regs.c - register sequences of the MSR-owning backends
 * (backend_regs.h).
 */
#include "backend_regs.h"

static int zero_ctr(const struct nb_msr_io *io, unsigned ctr, char *err, size_t len)
{
	uint32_t msr = nb_counters[ctr].msr;

	/* Pentium 4 erratum N15 (specification update): a write to a
	 * counter may not take; write it twice. */
	return io->wrmsr(msr, 0, err, len) || io->wrmsr(msr, 0, err, len) ? -1 : 0;
}

/* A cascaded pair is zeroed stopped: low counter Enable and OVF clear
 * (OVF is what keeps the alternate counting [SDM 18.15.6.5]), alternate
 * Cascade clear; nb_regs_enable starts it again. */
int nb_regs_zero(const struct nb_msr_io *io, const struct nb_regs *r, int n,
		 char *err, size_t len)
{
	for (int i = 0; i < n; i++) {
		if (r[i].cascade &&
		    (io->wrmsr(r[i].cccr_msr, r[i].cccr & ~(NB_CCCR_ENABLE | NB_CCCR_OVF), err, len) ||
		     io->wrmsr(r[i].hi_cccr_msr, r[i].hi_cccr & ~(NB_CCCR_CASCADE | NB_CCCR_OVF),
			       err, len) ||
		     zero_ctr(io, r[i].hi_counter, err, len)))
			return -1;
		if (zero_ctr(io, r[i].counter, err, len))
			return -1;
	}
	return 0;
}

int nb_regs_program(const struct nb_msr_io *io, const struct nb_regs *r, int n,
		    char *err, size_t len)
{
	for (int i = 0; i < n; i++) {
		if (io->wrmsr(r[i].cccr_msr, r[i].cccr & ~NB_CCCR_ENABLE, err, len) ||
		    io->wrmsr(r[i].escr_msr, r[i].escr, err, len))
			return -1;
		if (r[i].cascade &&
		    (io->wrmsr(r[i].hi_cccr_msr, r[i].hi_cccr & ~NB_CCCR_CASCADE, err, len) ||
		     io->wrmsr(r[i].hi_escr_msr, r[i].hi_escr, err, len)))
			return -1;
	}
	return nb_regs_zero(io, r, n, err, len);
}

int nb_regs_enable(const struct nb_msr_io *io, const struct nb_regs *r, int n, int on,
		   char *err, size_t len)
{
	for (int i = 0; i < n; i++) {
		uint64_t v = on ? r[i].cccr : r[i].cccr & ~NB_CCCR_ENABLE;

		/* a cascaded alternate counts by Cascade (with Enable clear) */
		if (r[i].cascade &&
		    io->wrmsr(r[i].hi_cccr_msr, on ? r[i].hi_cccr : r[i].hi_cccr & ~NB_CCCR_CASCADE,
			      err, len))
			return -1;
		if (io->wrmsr(r[i].cccr_msr, v, err, len))
			return -1;
	}
	return 0;
}

int nb_regs_read(const struct nb_msr_io *io, const struct nb_regs *r, int n, uint64_t *raw,
		 char *err, size_t len)
{
	for (int i = 0; i < n; i++) {
		if (io->rdctr(r[i].counter, &raw[i], err, len))
			return -1;
		raw[n + i] = 0;
		if (r[i].cascade && io->rdctr(r[i].hi_counter, &raw[n + i], err, len))
			return -1;
	}
	return 0;
}

int nb_regs_write_msrs(const struct nb_msr_io *io, const struct nb_msr_image *w, int n,
		       char *err, size_t len)
{
	for (int i = 0; i < n; i++)
		if (io->wrmsr(w[i].msr, w[i].value, err, len))
			return -1;
	return 0;
}
