/* k_deadload: N iterations of eight loads into one register, each from a
 * line not touched before (stride 64), in one block: every load is
 * retired and misses the L1D, although only the last result is used.
 * Loads: 8N; L1D load misses: 8N. */
#ifndef SCALE
#define SCALE 1
#endif
#define N (100*SCALE)
	.globl _start
	.text
_start:
	lea buf(%rip), %rsi
	mov $N, %ecx
1:	mov 0(%rsi), %rax
	mov 64(%rsi), %rax
	mov 128(%rsi), %rax
	mov 192(%rsi), %rax
	mov 256(%rsi), %rax
	mov 320(%rsi), %rax
	mov 384(%rsi), %rax
	mov 448(%rsi), %rax
	add $512, %rsi
	dec %ecx
	jnz 1b
	mov $60, %eax
	xor %edi, %edi
	syscall
	.bss
	.align 4096
buf:	.skip 512*N
