/*
 * nb_record_sim.c - nb_record's nbsim backend: the samples.PID files that
 * nbsim writes (sim/tool/nb_samples.c, --nbsim-samples) into the profile
 * (nb_record.5).  IEBS lines are copied; a PEBS record's data address is
 * decoded from the sampled instruction's bytes (Capstone) and the
 * record's registers, as Sprunt's data-address profiles were.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nb_record_sim.h"
#include "nb_tsv.h"

void nbr_sim_begin(struct rec_ctx *x)
{
	x->cs_ok = cs_open(CS_ARCH_X86, CS_MODE_64, &x->cs) == CS_ERR_OK &&
		   cs_option(x->cs, CS_OPT_DETAIL, CS_OPT_ON) == CS_ERR_OK;
}

void nbr_sim_end(struct rec_ctx *x)
{
	if (x->cs_ok)
		cs_close(&x->cs);
	x->cs_ok = 0;
}

/* a capstone register as a PEBS record index (nb_ds.h order), or -1; *WIDTH 4
 * for a 32-bit register */
static int reg_index(unsigned r, int *w32)
{
	static const struct { unsigned r64, r32; int idx; } map[] = {
		{ X86_REG_RAX, X86_REG_EAX, 2 }, { X86_REG_RBX, X86_REG_EBX, 3 },
		{ X86_REG_RCX, X86_REG_ECX, 4 }, { X86_REG_RDX, X86_REG_EDX, 5 },
		{ X86_REG_RSI, X86_REG_ESI, 6 }, { X86_REG_RDI, X86_REG_EDI, 7 },
		{ X86_REG_RBP, X86_REG_EBP, 8 }, { X86_REG_RSP, X86_REG_ESP, 9 },
		{ X86_REG_R8, X86_REG_R8D, 10 }, { X86_REG_R9, X86_REG_R9D, 11 },
		{ X86_REG_R10, X86_REG_R10D, 12 }, { X86_REG_R11, X86_REG_R11D, 13 },
		{ X86_REG_R12, X86_REG_R12D, 14 }, { X86_REG_R13, X86_REG_R13D, 15 },
		{ X86_REG_R14, X86_REG_R14D, 16 }, { X86_REG_R15, X86_REG_R15D, 17 },
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (r == map[i].r64 || r == map[i].r32) {
			*w32 = r == map[i].r32;
			return map[i].idx;
		}
	return -1;
}

/* The data address of the load at IP (BYTES: its instruction) with the
 * registers REGS of its PEBS record: its memory operand's base + index *
 * scale + displacement (RIP-relative: from the next instruction), and in
 * *LEN the operand's bytes.  1, or 0 if it cannot be told (no explicit
 * memory operand, an FS/GS segment, whose base the record does not
 * have).  The model's address of the tagged load is the uop's, which in
 * an operand over a line (fxrstor's 512 bytes: glibc's lazy binding runs
 * it on a part without XSAVE) can lie past the operand's start. */
static int data_address(struct rec_ctx *x, uint64_t ip, const char *hex, const uint64_t *regs,
			uint64_t *ea, uint64_t *len)
{
	uint8_t code[16];
	size_t n = 0;
	cs_insn *insn;
	int ok = 0;

	if (!x->cs_ok)
		return 0;
	while (n < sizeof(code) && hex[2 * n] && hex[2 * n + 1]) {
		unsigned b;

		if (sscanf(hex + 2 * n, "%2x", &b) != 1)
			return 0;
		code[n++] = (uint8_t)b;
	}
	if (cs_disasm(x->cs, code, n, ip, 1, &insn) != 1)
		return 0;
	for (int i = 0; i < insn->detail->x86.op_count && !ok; i++) {
		const cs_x86_op *op = &insn->detail->x86.operands[i];
		uint64_t a;
		int w, k;

		/* the operand the load reads: a string instruction (movs,
		 * cmps) has two, the store's [rdi] first */
		if (op->type != X86_OP_MEM || (op->access && !(op->access & CS_AC_READ)))
			continue;
		if (op->mem.segment != X86_REG_INVALID && op->mem.segment != X86_REG_DS &&
		    op->mem.segment != X86_REG_SS && op->mem.segment != X86_REG_ES &&
		    op->mem.segment != X86_REG_CS)
			break;
		a = (uint64_t)op->mem.disp;
		if (op->mem.base == X86_REG_RIP) {
			a += ip + insn->size;
		} else if (op->mem.base != X86_REG_INVALID) {
			if ((k = reg_index(op->mem.base, &w)) < 0)
				break;
			a += w ? (uint32_t)regs[k] : regs[k];
		}
		if (op->mem.index != X86_REG_INVALID) {
			if ((k = reg_index(op->mem.index, &w)) < 0)
				break;
			a += (w ? (uint32_t)regs[k] : regs[k]) * (uint64_t)op->mem.scale;
		}
		*ea = a;
		/* (Capstone gives fxrstor's operand 8 bytes: the SDM's FXRSTOR
		 * reads a 512-byte image) */
		*len = insn->id == X86_INS_FXRSTOR || insn->id == X86_INS_FXRSTOR64 ? 512
		       : op->size ? op->size : 1;
		ok = 1;
	}
	cs_free(insn, 1);
	return ok;
}

static int one_file(struct rec_ctx *x, const char *path, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *fl[12];  /* (the longest line: 9 fields) */
	size_t cap = 0;
	int space = -1;

	if (!f) {
		snprintf(err, len, "cannot read nbsim's samples %s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		int n;

		if (!strncmp(line, "nbsim-samples ", 14)) {
			if (strcmp(line, "nbsim-samples 1\n")) {
				snprintf(err, len, "%s: samples format %s", path, line + 14);
				fclose(f);
				free(line);
				return -1;
			}
			space = x->spaces++;
			continue;
		}
		n = nb_tsv_split(line, fl, 12);
		if (space < 0)
			break;
		if (!strcmp(fl[0], "pid") && n == 2) {
			fprintf(x->out, "space\t%d\t%s\n", space, fl[1]);
		} else if (!strcmp(fl[0], "s") && n == 7) {
			fprintf(x->out, "sym\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", space, fl[1], fl[2],
				fl[3], fl[4], fl[5], fl[6]);
		} else if (!strcmp(fl[0], "i") && n == 7) {
			unsigned c = (unsigned)atoi(fl[1]);
			int e = c < 18 ? x->ev_of_counter[c] : -1;
			uint64_t w = strtoull(fl[4], NULL, 10);

			if (e < 0) {
				x->bad_lines++;
				continue;
			}
			x->ev[e].samples++;
			x->ev[e].weight += w;
			x->nsamples++;
			fprintf(x->out, "sample\t%d\t%d\t%s\t%s\t%s\t%s\t-\t%s\t-\t-\n", e, space,
				fl[2], fl[3], fl[4], fl[5], fl[6]);
		} else if (!strcmp(fl[0], "p") && n == 9) {
			unsigned c = (unsigned)atoi(fl[1]);
			int e = c < 18 ? x->ev_of_counter[c] : -1;
			uint64_t regs[18] = { 0 }, ea = 0, oplen = 1, model_ea = strtoull(fl[5], NULL, 16);
			char *s = fl[4], addr[24] = "-";
			const char *dsym = "-";
			int k;

			for (k = 0; k < 18 && *s; k++) {
				regs[k] = strtoull(s, &s, 16);
				if (*s == ',')
					s++;
			}
			if (e < 0 || k != 18) {
				x->bad_lines++;
				continue;
			}
			x->ev[e].samples++;
			x->ev[e].weight++;
			x->nsamples++;
			x->pebs++;
			if (data_address(x, regs[1], fl[6], regs, &ea, &oplen)) {
				x->decoded++;
				x->differ += model_ea < ea || model_ea - ea >= oplen;
				snprintf(addr, sizeof(addr), "%" PRIx64, ea);
				/* nbsim's data symbol is of the model's address */
				if (ea == model_ea)
					dsym = fl[8];
			}
			fprintf(x->out, "sample\t%d\t%d\t%s\t%s\t1\t%" PRIx64 "\t%s\t%s\t%s\t%s\n", e,
				space, fl[2], fl[3], regs[1], addr, fl[7], fl[4], dsym);
		} else if (!strcmp(fl[0], "model") || !strcmp(fl[0], "counter") ||
			   !strcmp(fl[0], "exec") || !strcmp(fl[0], "end")) {
			continue;
		} else {
			x->bad_lines++;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the run's samples.PID files, in name order (the same profile for the same run) */
int nbr_sim_samples(const char *dir, pid_t child, void *ctx, char *err, size_t len)
{
	struct rec_ctx *x = ctx;
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, p[4200];
	int n = 0, rc = 0;

	while (d && (e = readdir(d))) {
		char *end;

		if (strncmp(e->d_name, "samples.", 8))
			continue;
		/* without --follow a forked child runs under nbsim until its
		 * execve (nb_stat's --nbsim-trace-forked=no): its samples are
		 * not PROGRAM's */
		if (!x->follow && (strtol(e->d_name + 8, &end, 10) != (long)child || *end))
			continue;
		char **more = realloc(names, (size_t)(n + 1) * sizeof(*names));

		if (more)
			names = more;
		if (!more || !(names[n] = strdup(e->d_name))) {
			snprintf(err, len, "out of memory");
			rc = -1;
			break;
		}
		n++;
	}
	if (d)
		closedir(d);
	if (rc == 0 && n == 0) {
		snprintf(err, len, "nbsim wrote no samples (the program did not start?)");
		rc = -1;
	}
	if (names)
		qsort(names, (size_t)n, sizeof(*names), cmp_str);
	for (int i = 0; i < n && rc == 0; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		rc = one_file(x, p, err, len);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}
