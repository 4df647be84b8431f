/* k_spin: loops until a signal ends it (nb_stat's signal tests). */
	.globl _start
	.text
_start:
1:	dec %ecx
	jmp 1b
