/*
 * backend_regs.c - register sequences of the MSR-owning backends
 * (backend_regs.h).
 */
#include "backend_regs.h"

int nb_regs_zero(const struct nb_msr_io *io, const struct nb_regs *r, int n,
		 char *err, size_t len)
{
	for (int i = 0; i < n; i++) {
		uint32_t msr = nb_counters[r[i].counter].msr;

		/* Pentium 4 erratum N15 (specification update): a write to a
		 * counter may not take; write it twice. */
		if (io->wrmsr(msr, 0, err, len) || io->wrmsr(msr, 0, err, len))
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
	}
	return nb_regs_zero(io, r, n, err, len);
}

int nb_regs_enable(const struct nb_msr_io *io, const struct nb_regs *r, int n, int on,
		   char *err, size_t len)
{
	for (int i = 0; i < n; i++) {
		uint64_t v = on ? r[i].cccr : r[i].cccr & ~NB_CCCR_ENABLE;

		if (io->wrmsr(r[i].cccr_msr, v, err, len))
			return -1;
	}
	return 0;
}

int nb_regs_read(const struct nb_msr_io *io, const struct nb_regs *r, int n, uint64_t *raw,
		 char *err, size_t len)
{
	for (int i = 0; i < n; i++)
		if (io->rdctr(r[i].counter, &raw[i], err, len))
			return -1;
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
