/* k_argc: exit(argc mod 256), argc being the word at the stack pointer
 * at _start (the arguments nb_stat passed on).  Instructions: 3. */
	.globl _start
	.text
_start:
	mov (%rsp), %rdi
	mov $60, %eax
	syscall
