/* k_loop: N iterations of dec/jnz (a conditional branch taken N-1 times,
 * not taken once), then exit(EXIT).  Instructions: 1 + 2N + 3. */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
#ifndef EXIT
#define EXIT 0
#endif
	.globl _start
	.text
_start:
	mov $N, %ecx
1:	dec %ecx
	jnz 1b
	mov $60, %eax
	mov $EXIT, %edi
	syscall
