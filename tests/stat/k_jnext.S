/* k_jnext: N iterations of a conditional jump whose target is the next
 * instruction, with ZF clear (not taken) and with ZF set (taken).
 * Conditional branches: 3N (2N jump-to-next + N loop); taken: N + N-1. */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
	.globl _start
	.text
_start:
	mov $N, %ecx
1:	test %ecx, %ecx         /* ZF clear */
	jz 2f                   /* not taken */
2:	xor %eax, %eax          /* ZF set */
	jz 3f                   /* taken */
3:	dec %ecx
	jnz 1b
	mov $60, %eax
	xor %edi, %edi
	syscall
