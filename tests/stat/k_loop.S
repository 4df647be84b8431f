/* k_loop: N iterations of dec/jnz (a conditional branch taken N-1 times,
 * not taken once), then exit(0).  Instructions: 1 + 2N + 3. */
#ifndef N
#define N 1000
#endif
	.globl _start
	.text
_start:
	mov $N, %ecx
1:	dec %ecx
	jnz 1b
	mov $60, %eax
	xor %edi, %edi
	syscall
