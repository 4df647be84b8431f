/* k_simd: N iterations of an x87 add, an MMX add (64-bit SIMD integer), an
 * SSE2 integer add (128-bit SIMD integer) and a packed double multiply.
 * By execution class [sim/README.md "FP/SIMD classes"]: x87 N + 2 (the two
 * fldz), 64-bit MMX N, 128-bit MMX N, packed DP N; instructions
 * 3 + 6N + 4. */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
	.globl _start
	.text
_start:
	fldz
	fldz
	mov $N, %ecx
1:	fadd %st(1), %st(0)
	paddd %mm1, %mm0
	paddd %xmm1, %xmm0
	mulpd %xmm3, %xmm2
	dec %ecx
	jnz 1b
	emms
	mov $60, %eax
	xor %edi, %edi
	syscall
