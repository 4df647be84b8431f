/* k_jnext2: conditional jumps to the next instruction whose condition VEX
 * can fold (flags known from the instruction before): N never taken
 * (xor; jnz), N always taken (xor; jz).  Conditional branches: 3N;
 * taken: N + N-1; not taken: N + 1. */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
	.globl _start
	.text
_start:
	mov $N, %ecx
1:	xor %eax, %eax
	jnz 2f                  /* never taken */
2:	xor %edx, %edx
	jz 3f                   /* always taken */
3:	dec %ecx
	jnz 1b
	mov $60, %eax
	xor %edi, %edi
	syscall
