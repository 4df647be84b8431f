/*
 * backend_regs.h - the register sequences shared by the backends that own
 * the PMU's MSRs directly (sim: nbsim client requests; msr: /dev/cpu/N/msr).
 * A backend supplies two primitives; these functions do the rest, in the
 * order the SDM asks for (CCCR disabled before its ESCR is written, counters
 * zeroed before Enable).
 */
#ifndef NB_BACKEND_REGS_H
#define NB_BACKEND_REGS_H

#include "nb_backend.h"

struct nb_msr_io {
	/* WRMSR; 0, or -1 with a message naming the register in ERR. */
	int (*wrmsr)(uint32_t msr, uint64_t v, char *err, size_t len);
	/* The raw 40-bit value of counter CTR (0-17). */
	int (*rdctr)(unsigned ctr, uint64_t *v, char *err, size_t len);
};

int nb_regs_program(const struct nb_msr_io *io, const struct nb_regs *r, int n,
		    char *err, size_t len);
int nb_regs_enable(const struct nb_msr_io *io, const struct nb_regs *r, int n, int on,
		   char *err, size_t len);
int nb_regs_read(const struct nb_msr_io *io, const struct nb_regs *r, int n, uint64_t *raw,
		 char *err, size_t len);
int nb_regs_zero(const struct nb_msr_io *io, const struct nb_regs *r, int n,
		 char *err, size_t len);
int nb_regs_write_msrs(const struct nb_msr_io *io, const struct nb_msr_image *w, int n,
		       char *err, size_t len);

/* The backend functions of an nb_msr_io, as static wrappers NAME_program ... */
#define NB_REGS_BACKEND_FUNCS(name, io)                                                      \
	static int name##_program(const struct nb_regs *r, int n, char *err, size_t len)     \
	{ return nb_regs_program(&(io), r, n, err, len); }                                    \
	static int name##_enable(const struct nb_regs *r, int n, int on, char *err, size_t len) \
	{ return nb_regs_enable(&(io), r, n, on, err, len); }                                 \
	static int name##_read(const struct nb_regs *r, int n, uint64_t *raw, char *err,     \
			       size_t len)                                                    \
	{ return nb_regs_read(&(io), r, n, raw, err, len); }                                  \
	static int name##_zero(const struct nb_regs *r, int n, char *err, size_t len)        \
	{ return nb_regs_zero(&(io), r, n, err, len); }                                       \
	static int name##_write_msrs(const struct nb_msr_image *w, int n, char *err, size_t len) \
	{ return nb_regs_write_msrs(&(io), w, n, err, len); }

#endif
