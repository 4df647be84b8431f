/* k_mem: N iterations of a load, a store and a load-op, in one line of a
 * buffer.  Loads 2N, stores N; uops 7 per iteration (load 1, store 2,
 * load-op 2, dec 1, jnz 1: the uop model of sim/README.md). */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
	.globl _start
	.text
_start:
	lea buf(%rip), %rsi
	mov $N, %ecx
1:	mov (%rsi), %rax
	mov %rax, 8(%rsi)
	add 16(%rsi), %rbx
	dec %ecx
	jnz 1b
	mov $60, %eax
	xor %edi, %edi
	syscall
	.bss
	.align 64
buf:	.skip 64
