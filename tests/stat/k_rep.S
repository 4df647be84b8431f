/* k_rep: N iterations of rep movsb copying 16 bytes: a REP string
 * instruction retires as one instruction whatever its iteration count
 * [Weaver, "Retired Instructions" (x86); sim/README.md "Counting rules"].
 * Instructions: 3 + 6N + 3. */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
	.globl _start
	.text
_start:
	lea src(%rip), %rbx
	lea dst(%rip), %rdx
	mov $N, %r8d
1:	mov %rbx, %rsi
	mov %rdx, %rdi
	mov $16, %ecx
	rep movsb
	dec %r8d
	jnz 1b
	mov $60, %eax
	xor %edi, %edi
	syscall
	.bss
	.align 64
src:	.skip 64
dst:	.skip 64
