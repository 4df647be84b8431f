/* k_loopfold: loop/loopz/loopnz whose outcome VEX's optimiser knows (RCX
 * and the flags set just before, in the same superblock), so it removes
 * their exits: the first `loop` after `mov $10, %rcx` is always taken,
 * `loopnz` after `xor %rax, %rax` never.  The hardware retires each as a
 * conditional branch [SDM Vol. 2 LOOP/LOOPcc]; the 77th branch of Weaver's
 * BRANCHES segment (deater/deterministic @ 6cb9ac2,
 * static/src/retired_instr.x86_64.s, "loop loop1", Branch 11).
 * Per iteration: loop 10 (9 taken), loopnz 1 (not taken), loopz 10 (9
 * taken), the outer jnz.  Conditional branches: 22N; taken: 19N - 1;
 * not taken: 3N + 1; instructions 47N + 4. */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
	.globl _start
	.text
_start:
	mov $N, %r8
0:	mov $10, %rcx
1:	xor %rax, %rax
	loop 1b                 /* the first always taken: folded */
	mov $10, %rcx
2:	xor %rax, %rax          /* ZF set */
	loopnz 2b               /* never taken: folded */
	mov $10, %rcx
3:	xor %rax, %rax
	loopz 3b
	dec %r8
	jnz 0b
	mov $60, %eax
	xor %edi, %edi
	syscall
