/* k_stdin: reads standard input to its end in reads of up to 4096 bytes,
 * a loop iteration per byte read (dec/jnz), then exit(bytes read mod 256).
 * Instructions: 1; per read returning n > 0: 7 + 1 + 2n + 2; the read
 * returning 0: 7 + 3.  B bytes in R non-empty reads: 11 + 10R + 2B
 * (a file of 10000 bytes: R = 3, 20041). */
	.globl _start
	.text
_start:
	xor %r12d, %r12d
1:	xor %eax, %eax
	xor %edi, %edi
	lea buf(%rip), %rsi
	mov $4096, %edx
	syscall
	test %rax, %rax
	jle 3f
	mov %rax, %rcx
2:	dec %rcx
	jnz 2b
	add %rax, %r12
	jmp 1b
3:	mov $60, %eax
	mov %r12d, %edi
	syscall
	.bss
buf:	.space 4096
