/* k_fwait: N iterations of fstsw %ax as assembled (9B DF E0: the fwait
 * instruction, then fnstsw) and of fnstsw %ax (DF E0): the former counts
 * two retired instructions, the latter one [Weaver, "Retired
 * Instructions": instructions incorporating fwait count as two].
 * Instructions: 1 + 5N + 3. */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
	.globl _start
	.text
_start:
	mov $N, %ecx
1:	fstsw %ax
	fnstsw %ax
	dec %ecx
	jnz 1b
	mov $60, %eax
	xor %edi, %edi
	syscall
