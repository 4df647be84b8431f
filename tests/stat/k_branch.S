/* k_branch: N iterations of a direct call, an indirect call (each with its
 * return), an indirect jump and the loop's conditional branch.  By
 * retired_branch_type mask [events.txt]: CONDITIONAL N, CALL (indirect
 * calls) N, RETURN 2N, INDIRECT (returns, indirect calls and jumps) 4N;
 * all branches 6N.  The calls store and the returns load the return
 * address: loads 2N, stores 2N. */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
	.globl _start
	.text
_start:
	lea stack_top(%rip), %rsp
	mov $N, %ecx
	lea 2f(%rip), %rdx
	lea f(%rip), %r8
1:	call f
	call *%r8
	jmp *%rdx
2:	dec %ecx
	jnz 1b
	mov $60, %eax
	xor %edi, %edi
	syscall
f:	ret
	.bss
	.align 64
	.skip 4096
stack_top:
