/* k_pdrule: one Pentium D counting rule (docs/counting-rules.md "Pentium D
 * counting rules"), chosen by argc (nb_stat -- k_pdrule [x ...]: argc 1
 * runs rule 1, argc 2 rule 2, ...; argc beyond the last rule exits at
 * once).  Each rule is N executions of its instruction in a loop
 *     insn(s); dec %r12; jnz 1b
 * with the same code on every model: tests/sim/t_pdrules.t counts it on
 * --model=cedarmill (the rules apply) and --model=prescott (they do not)
 * and checks the difference, N x the rule's published figure.  Data are
 * prepared in .data (a valid x87 environment, FSAVE and FXSAVE images), so
 * no setup instruction is itself a rule's.
 *   rule  instruction                       Pentium D
 *    1    emms                              +1 instruction
 *    2    maskmovq %mm1, %mm0               +1 instruction
 *    3    sfence                            +1 instruction, 1 store
 *    4    mfence                            +1 instruction, 1 store
 *    5    cvtpd2pi m128, %mm0               +1 instruction
 *    6    cvttpd2pi m128, %mm0              +1 instruction
 *    7    fldcw m16                         +1 instruction
 *    8    fldenv m                          +1 instruction, 7 loads
 *    9    fnstenv m                         7 stores
 *   10    frstor m                          +1 instruction, 23 loads
 *   11    fnsave m (then frstor: rule 10)   23 stores (+ rule 10)
 *   12    fxsave m                          25 stores
 *   13    fxrstor m                         26 loads
 *   14    movups m128 -> xmm                2 loads
 *   15    movups xmm -> m128                2 stores
 *   16    movupd m128 -> xmm                2 loads
 *   17    movupd xmm -> m128                2 stores
 *   18    movdqu m128 -> xmm                2 loads
 *   19    movdqu xmm -> m128                2 stores
 *   20    lddqu m128 -> xmm                 2 loads
 *   21    maskmovdqu %xmm1, %xmm0           2 stores
 *   22    fldt m80; fstp %st(0)             2 loads
 *   23    fld1; fstpt m80                   2 stores
 *   24    cpuid (eax = 0)                   1 store
 *   25    clflush m8                        1 store
 *   26    prefetcht0 m8                     0 loads (IR has none either)
 *   27    syscall (getpid)                  1 retired branch
 *   28    rep movsb, RCX = 100              40 loads (64 B: 4; 36), 40 stores
 *   29    rep movsw, RCX = 72               16 loads (128 B: 8; 8), 16 stores
 *   30    rep movsq, RCX = 5                8 loads (at least 8), 5 stores
 *   31    rep movsb, RCX = 2                3 loads (at least 3), 2 stores
 *   32    rep movsb, RCX = 0                3 loads, no store
 *   33    rep stosl, RCX = 64 forward       16 stores (16-byte blocks)
 *   34    rep stosl, RCX = 64 backward      64 stores (one per element)
 *   35    repe scasb, RCX = 64, all equal   64 loads (one per element)
 *   36    repe cmpsb, RCX = 64, all equal   128 loads (two per element)
 * (each rep: RCX, RSI, RDI set before it; the loads and stores are
 * nb_pd_rep's, from Weaver's measurements, see tests/sim/t_pdrules.t; rules
 * 35 and 36 are every model's plain counts, which the Pentium D's match.
 * rep lods: tests/sim/t_sim_replods.t, one load an element.)
 * (fbstp, 2 stores on the Pentium D, has no kernel: VEX does not decode it.)
 */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
	.globl _start
	.text
_start:
	mov (%rsp), %rax
	lea buf(%rip), %rdi
	mov $N, %r12
	cmp $36, %rax
	ja done
	lea table(%rip), %rbx
	jmp *-8(%rbx,%rax,8)

r1:	emms
	dec %r12
	jnz r1
	jmp done
r2:	maskmovq %mm1, %mm0
	dec %r12
	jnz r2
	jmp done
r3:	sfence
	dec %r12
	jnz r3
	jmp done
r4:	mfence
	dec %r12
	jnz r4
	jmp done
r5:	cvtpd2pi buf(%rip), %mm0
	dec %r12
	jnz r5
	jmp done
r6:	cvttpd2pi buf(%rip), %mm0
	dec %r12
	jnz r6
	jmp done
r7:	fldcw fpenv(%rip)
	dec %r12
	jnz r7
	jmp done
r8:	fldenv fpenv(%rip)
	dec %r12
	jnz r8
	jmp done
r9:	fnstenv buf(%rip)
	dec %r12
	jnz r9
	jmp done
r10:	frstor fpsave(%rip)
	dec %r12
	jnz r10
	jmp done
r11:	fnsave buf(%rip)
	frstor fpsave(%rip)
	dec %r12
	jnz r11
	jmp done
r12:	fxsave buf(%rip)
	dec %r12
	jnz r12
	jmp done
r13:	fxrstor fxsave_img(%rip)
	dec %r12
	jnz r13
	jmp done
r14:	movups buf(%rip), %xmm0
	dec %r12
	jnz r14
	jmp done
r15:	movups %xmm0, buf(%rip)
	dec %r12
	jnz r15
	jmp done
r16:	movupd buf(%rip), %xmm0
	dec %r12
	jnz r16
	jmp done
r17:	movupd %xmm0, buf(%rip)
	dec %r12
	jnz r17
	jmp done
r18:	movdqu buf(%rip), %xmm0
	dec %r12
	jnz r18
	jmp done
r19:	movdqu %xmm0, buf(%rip)
	dec %r12
	jnz r19
	jmp done
r20:	lddqu buf(%rip), %xmm0
	dec %r12
	jnz r20
	jmp done
r21:	maskmovdqu %xmm1, %xmm0
	dec %r12
	jnz r21
	jmp done
r22:	fldt f80(%rip)
	fstp %st(0)
	dec %r12
	jnz r22
	jmp done
r23:	fld1
	fstpt buf(%rip)
	dec %r12
	jnz r23
	jmp done
r24:	xor %eax, %eax
	cpuid
	dec %r12
	jnz r24
	jmp done
r25:	clflush buf(%rip)
	dec %r12
	jnz r25
	jmp done
r26:	prefetcht0 buf(%rip)
	dec %r12
	jnz r26
	jmp done
r27:	mov $39, %eax
	syscall
	dec %r12
	jnz r27
	jmp done

/* REP strings: source buf, destination buf + 512 (or buf + 512 down) */
	.macro REPK lbl, n, setup, insn, after
\lbl:	mov $\n, %ecx
	lea buf(%rip), %rsi
	lea buf+512(%rip), %rdi
	\setup
	\insn
	\after
	dec %r12
	jnz \lbl
	jmp done
	.endm
	REPK r28, 100, "", "rep movsb"
	REPK r29, 72, "", "rep movsw"
	REPK r30, 5, "", "rep movsq"
	REPK r31, 2, "", "rep movsb"
	REPK r32, 0, "", "rep movsb"
	REPK r33, 64, "", "rep stosl"
	REPK r34, 64, "std", "rep stosl", "cld"
	REPK r35, 64, "xor %eax, %eax", "repe scasb"
	REPK r36, 64, "lea buf(%rip), %rdi", "repe cmpsb"
done:
	mov $60, %eax
	xor %edi, %edi
	syscall

	.section .rodata
	.p2align 3
table:
	.quad r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14
	.quad r15, r16, r17, r18, r19, r20, r21, r22, r23, r24, r25, r26, r27
	.quad r28, r29, r30, r31, r32, r33, r34, r35, r36

	.data
	.p2align 4
/* x87 environment, 64-bit mode 28-byte format: control word 0x37f (all
 * exceptions masked), status 0, tag word 0xffff (all empty) [SDM Vol. 1
 * 8.1.10, figure 8-10] */
fpenv:	.word 0x37f, 0, 0, 0, 0xffff, 0
	.fill 16, 1, 0
	.p2align 4
/* FSAVE image: the environment, then 8 x 80-bit registers */
fpsave:	.word 0x37f, 0, 0, 0, 0xffff, 0
	.fill 16 + 80, 1, 0
	.p2align 4
/* FXSAVE image: FCW 0x37f, MXCSR 0x1f80 at byte 24 [SDM Vol. 1 10.5.1] */
fxsave_img:
	.word 0x37f
	.fill 22, 1, 0
	.long 0x1f80, 0xffff
	.fill 512 - 32, 1, 0
	.p2align 4
f80:	.tfloat 1.5
	.p2align 6
buf:	.fill 1024, 1, 0
