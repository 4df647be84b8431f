/*
 * t_isa.c - instructions the model lacks raise #UD (TAP guest; t_isa.sh
 * runs it on several models, and with --nbsim-isa=host).
 *
 *   t_isa MODEL      MODEL: northwood, prescott, cedarmill (the expected
 *                    faults, from each model's CPUID in nb_cpu.c), or
 *                    host (--nbsim-isa=host: the SSE3, CMPXCHG16B and
 *                    LAHF probes run; every x86-64 host valgrind supports
 *                    has them)
 *
 * Each probe stores 1 to a flag, runs one instruction, stores 2.  Where
 * the model lacks it: SIGILL with si_addr and RIP at the instruction, the
 * flag 1 (what came before ran, nothing after); elsewhere the flag 2.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>
#include "tap.h"

static volatile uint64_t probe_flag;
static uint8_t buf[64] __attribute__((aligned(16)));
static sigjmp_buf jb;
static volatile uintptr_t f_rip, f_addr;

/* one probe: name, bytes (buf's address in rsi, x87 stack: 1.0 pushed) */
#define PROBE(name, bytes)                                                    \
	extern char name##_at[];                                              \
	static __attribute__((noinline)) void name(void)                     \
	{                                                                     \
		__asm__ volatile("fld1\n\t"                                   \
				 "movq $1, %[f]\n\t"                          \
				 ".globl " #name "_at\n"                      \
				 #name "_at:\n\t"                             \
				 ".byte " bytes "\n\t"                        \
				 "movq $2, %[f]\n\t"                          \
				 "fninit\n\t"                                 \
				 : [f] "=m"(probe_flag)                       \
				 : "S"(buf)                                   \
				 : "memory", "cc", "rax", "rbx", "rcx", "rdx", \
				   "xmm0", "xmm1", "st");                     \
	}

PROBE(p_addpd,   "0x66, 0x0f, 0x58, 0xc1")               /* addpd %xmm1,%xmm0 (SSE2) */
PROBE(p_lfence,  "0x0f, 0xae, 0xe8")                     /* lfence (SSE2) */
PROBE(p_clflush, "0x0f, 0xae, 0x3e")                     /* clflush (%rsi) */
PROBE(p_haddpd,  "0x66, 0x0f, 0x7c, 0xc1")               /* haddpd (SSE3) */
PROBE(p_movddup, "0xf2, 0x0f, 0x12, 0xc1")               /* movddup (SSE3) */
PROBE(p_fisttp,  "0xdb, 0x0e")                           /* fisttpl (%rsi) (SSE3) */
PROBE(p_cx16,    "0x48, 0x0f, 0xc7, 0x0e")               /* cmpxchg16b (%rsi) */
PROBE(p_lahf,    "0x9f")                                 /* lahf (64-bit mode) */
PROBE(p_pshufb,  "0x66, 0x0f, 0x38, 0x00, 0xc1")         /* pshufb (SSSE3) */
PROBE(p_roundsd, "0x66, 0x0f, 0x3a, 0x0b, 0xc1, 0x00")   /* roundsd (SSE4.1) */
PROBE(p_popcnt,  "0xf3, 0x48, 0x0f, 0xb8, 0xc0")         /* popcnt %rax,%rax */
PROBE(p_vaddpd,  "0xc5, 0xfd, 0x58, 0xc1")               /* vaddpd %ymm1,%ymm0,%ymm0 */
PROBE(p_rdtscp,  "0x0f, 0x01, 0xf9")                     /* rdtscp */
PROBE(p_crc32,   "0xf2, 0x48, 0x0f, 0x38, 0xf1, 0xc0")   /* crc32q %rax,%rax (SSE4.2) */

static void on_ill(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	f_rip = (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
	f_addr = (uintptr_t)si->si_addr;
	siglongjmp(jb, 1);
}

/* run fn: 1 if it raised SIGILL */
static __attribute__((noinline)) int faults(void (*fn)(void))
{
	if (sigsetjmp(jb, 1))
		return 1;
	fn();
	return 0;
}

struct probe {
	const char *name;
	void (*fn)(void);
	const char *at;
	const char *ud;         /* models on which it faults ("*": all) */
};

int main(int argc, char **argv)
{
	static const struct probe pr[] = {
		{ "addpd", p_addpd, p_addpd_at, "" },
		{ "lfence", p_lfence, p_lfence_at, "" },
		{ "clflush", p_clflush, p_clflush_at, "" },
		{ "haddpd", p_haddpd, p_haddpd_at, "northwood" },
		{ "movddup", p_movddup, p_movddup_at, "northwood" },
		{ "fisttp", p_fisttp, p_fisttp_at, "northwood" },
		{ "cmpxchg16b", p_cx16, p_cx16_at, "northwood" },
		{ "lahf", p_lahf, p_lahf_at, "northwood prescott" },
		{ "pshufb", p_pshufb, p_pshufb_at, "*" },
		{ "roundsd", p_roundsd, p_roundsd_at, "*" },
		{ "popcnt", p_popcnt, p_popcnt_at, "*" },
		{ "vaddpd", p_vaddpd, p_vaddpd_at, "*" },
		{ "rdtscp", p_rdtscp, p_rdtscp_at, "*" },
		{ "crc32", p_crc32, p_crc32_at, "*" },
	};
	const char *model = argc > 1 ? argv[1] : "";
	const int host = !strcmp(model, "host");
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_ill;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGILL, &sa, NULL);
	for (unsigned i = 0; i < sizeof pr / sizeof pr[0]; i++) {
		const struct probe *p = &pr[i];
		int want, got;
		if (host && p->ud[0] != 'n')
			continue;       /* (host mode: only what every host has) */
		want = !host && (p->ud[0] == '*' || (model[0] && strstr(p->ud, model)));
		probe_flag = 0;
		f_rip = f_addr = 0;
		got = faults(p->fn);
		tap_ok(got == want, "%s %s on %s", p->name, want ? "raises SIGILL" : "runs", model);
		if (want) {
			tap_ok(f_rip == (uintptr_t)p->at && f_addr == (uintptr_t)p->at,
			       "%s: RIP and si_addr at the instruction (%#lx, %#lx; want %p)",
			       p->name, (unsigned long)f_rip, (unsigned long)f_addr, (void *)p->at);
			tap_ok(probe_flag == 1, "%s: the store before it ran, the one after did not "
			       "(flag %lu)", p->name, (unsigned long)probe_flag);
			__asm__ volatile("fninit");
		} else
			tap_ok(probe_flag == 2, "%s: ran through (flag %lu)", p->name,
			       (unsigned long)probe_flag);
	}
	return tap_done_plan();
}
