/*
 * t_replods.c - REP LODS under nbsim as the CPU runs it (nb_replods.c;
 * tests/sim/t_sim_replods.t runs it under several event sets).
 *
 * No argument: TAP.  Each case runs a REP LODS on a buffer of known bytes
 * and checks RCX, RSI and RAX against what the SDM's LODS and REP
 * descriptions give (vol. 2A "LODS/LODSB/LODSW/LODSD/LODSQ", vol. 2B
 * "REP/REPE/REPZ/REPNE/REPNZ"): RCX elements loaded, RCX 0 after, RSI
 * moved by RCX elements (backwards with DF set), the last element in
 * AL/AX/EAX/RAX (a dword load zeroes RAX's upper half; a byte or word
 * leaves the rest of RAX); RCX = 0: nothing loaded, nothing moved.
 * Under plain valgrind the first case fails (RCX 10, RSI + 1).
 *
 * One case is written for VEX's optimiser: a register written before the
 * REP LODS and read and overwritten after it in the same superblock
 * (mov $7, %rdx; rep lodsb; add %rdx, %rbx; xor %edx, %edx).  VEX's
 * looser update policies fold the read and drop the first write; a
 * superblock cut after the REP LODS without every update kept loses it,
 * and the add after the loop reads the old RDX.
 *
 * "count N K": K REP LODSB of N bytes each (for the difference method:
 * instructions do not depend on N, loads are N a REP LODS).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"

static unsigned char buf[256] __attribute__((aligned(64)));

struct regs { uint64_t rcx, rsi, rax; };

#define LODS(insn, r) \
	__asm__ volatile(insn : "+c"((r).rcx), "+S"((r).rsi), "+a"((r).rax) : : "memory")

static void check(const char *what, struct regs got, struct regs want)
{
	tap_ok(got.rcx == want.rcx && got.rsi == want.rsi && got.rax == want.rax,
	       "%s: rcx %llu rsi +%lld rax %#llx (want %llu, +%lld, %#llx)", what,
	       (unsigned long long)got.rcx, (long long)(got.rsi - (uint64_t)(uintptr_t)buf),
	       (unsigned long long)got.rax, (unsigned long long)want.rcx,
	       (long long)(want.rsi - (uint64_t)(uintptr_t)buf), (unsigned long long)want.rax);
}

static uint64_t at(unsigned off, unsigned size)
{
	uint64_t v = 0;

	memcpy(&v, buf + off, size);
	return v;
}

int main(int argc, char **argv)
{
	const uint64_t b = (uint64_t)(uintptr_t)buf;
	const uint64_t fill = UINT64_C(0xa5a5a5a5a5a5a5a5);
	struct regs r;

	for (unsigned i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 7 + 1);
	if (argc == 4 && !strcmp(argv[1], "count")) {
		long n = atol(argv[2]), k = atol(argv[3]);
		for (long i = 0; i < k; i++) {
			r = (struct regs){ (uint64_t)n, b, 0 };
			LODS("rep lodsb", r);
		}
		return 0;
	}

	r = (struct regs){ 10, b, fill };
	LODS("rep lodsb", r);
	check("rep lodsb, 10", r, (struct regs){ 0, b + 10, (fill & ~UINT64_C(0xff)) | at(9, 1) });
	r = (struct regs){ 0, b, fill };
	LODS("rep lodsb", r);
	check("rep lodsb, rcx 0: nothing", r, (struct regs){ 0, b, fill });
	r = (struct regs){ 7, b + 2, fill };
	LODS("rep lodsw", r);
	check("rep lodsw, 7", r, (struct regs){ 0, b + 16, (fill & ~UINT64_C(0xffff)) | at(14, 2) });
	r = (struct regs){ 5, b + 4, fill };
	LODS("rep lodsl", r);
	check("rep lodsl, 5 (rax's upper half zeroed)", r, (struct regs){ 0, b + 24, at(20, 4) });
	r = (struct regs){ 9, b + 8, fill };
	LODS("rep lodsq", r);
	check("rep lodsq, 9", r, (struct regs){ 0, b + 80, at(72, 8) });
	r = (struct regs){ 12, b + 100, fill };
	LODS("std\n\trep lodsb\n\tcld", r);
	check("std; rep lodsb, 12: backwards", r,
	      (struct regs){ 0, b + 88, (fill & ~UINT64_C(0xff)) | at(89, 1) });
	r = (struct regs){ 3, b, fill };
	LODS("repne lodsb", r);
	check("repne lodsb, 3: F2 repeats LODS as F3 does", r,
	      (struct regs){ 0, b + 3, (fill & ~UINT64_C(0xff)) | at(2, 1) });
	{
		uint64_t rbx = 100, rdx = 1;
		r = (struct regs){ 4, b, 0 };
		__asm__ volatile("mov $7, %%rdx\n\trep lodsb\n\tadd %%rdx, %%rbx\n\txor %%edx, %%edx"
				 : "+c"(r.rcx), "+S"(r.rsi), "+a"(r.rax), "+b"(rbx), "+d"(rdx) : : "memory");
		tap_ok(rbx == 107 && rdx == 0 && r.rcx == 0 && r.rsi == b + 4,
		       "a write before it, read and overwritten after it: rbx %llu (want 107)",
		       (unsigned long long)rbx);
	}
	printf("1..%d\n", tap_n);
	return tap_done();
}
