/* k_exec: 1000 iterations of dec/jnz, then execve(argv[1], argv + 1,
 * envp); if that fails, exit(99).  Instructions up to and with the
 * execve's syscall: 1 + 2000 + 6 = 2007; when it fails: 2010. */
	.globl _start
	.text
_start:
	mov $1000, %ecx
1:	dec %ecx
	jnz 1b
	mov 16(%rsp), %rdi
	lea 16(%rsp), %rsi
	mov (%rsp), %rax
	lea 16(%rsp,%rax,8), %rdx
	mov $59, %eax
	syscall
	mov $60, %eax
	mov $99, %edi
	syscall
