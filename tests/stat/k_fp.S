/* k_fp: N iterations of scalar double add and multiply (SSE2) and a
 * packed single add.  scalar DP uops 2N, packed SP uops N. */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
	.globl _start
	.text
_start:
	mov $N, %ecx
	pxor %xmm0, %xmm0
	pxor %xmm1, %xmm1
1:	addsd %xmm1, %xmm0
	mulsd %xmm1, %xmm0
	addps %xmm1, %xmm2
	dec %ecx
	jnz 1b
	mov $60, %eax
	xor %edi, %edi
	syscall
