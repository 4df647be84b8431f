/* k_pentd: a Weaver-style program (tests/sim/t_pentium_d.t), the segments of
 * V. Weaver's deterministic-counter benchmark that issue 34 compares with a
 * Pentium D (family 15 model 6): SSE (three loops: SSE1, SSE2, SSE3), MMX,
 * BRANCHES and OS, one per run, chosen by argc:
 *     argc 1: none (the baseline: start, dispatch, exit)
 *     argc 2: SSE   3: MMX   4: BRANCHES   5: OS
 * Our own code, written from the published instruction mix of each segment
 * (deater/deterministic @ 6cb9ac2, static/src/retired_instr.x86_64.s: the
 * header's per-segment totals and each segment's count of every instruction
 * form), not his source: the forms are grouped (RPT n, insn), their operands
 * are ours (XMM0-2, MM0-1, every memory operand (%rdi) = buf, 16-byte
 * aligned, or (%rdi,%rbx,2) with RBX = 0; every general register operand is
 * RAX of its width, so RBX, RDI and R15 keep their values), and the loop control
 * is ours (R15).  Per iteration, as published (Weaver's figures are per
 * 100,000 iterations, OS per 10,000; here SCALE x 1000 and SCALE x 100):
 *   SSE1  308 instructions (306 + dec + jnz), SSE2 405, SSE3 36: 749
 *         (+6 Pentium D overcounts: cvt(t)pd2pi m128 x 4, sfence, mfence)
 *   MMX   152 instructions (+3: emms x 2, maskmovq), 68 loads, 21 stores
 *   BRANCHES 167 instructions, 77 branches, 2 loads (ret), 2 stores (call)
 *   OS    19 instructions, 3 branches (syscall x 2, jnz), 2 loads (pop),
 *         4 stores (push x 2, movl x 2 to the page just mapped)
 * The order of the forms within a segment is ours except: stmxcsr before
 * ldmxcsr (the word it stored), fld1 x 3 before fisttp x 3, emms last.
 */
#ifndef SCALE
#define SCALE 1
#endif
#define N (1000*SCALE)
#define N_OS (100*SCALE)

	.macro RPT n, insn:vararg
	.rept \n
	\insn
	.endr
	.endm

/* a jcc taken and one not taken to the next instruction, as the BRANCHES
 * segment's 16 conditions: set flags; jcc; set flags; jcc; xor (5, 2 branches) */
	.macro JPAIR set1, jcc, set2
	\set1
	\jcc 1f
1:	\set2
	\jcc 2f
2:	xor %rax, %rax
	.endm

	.globl _start
	.text
_start:
	mov (%rsp), %rax
	lea buf(%rip), %rdi
	xor %ebx, %ebx
	cmp $5, %rax
	ja done
	lea table(%rip), %rcx
	jmp *-8(%rcx,%rax,8)

seg0:	jmp done

/* ---- SSE: 749 instructions per iteration of the three loops ---- */
seg_sse:
	mov $N, %r15
sse1:	xor %rax, %rax
	xor %rbx, %rbx
	stmxcsr (%rdi)
	ldmxcsr (%rdi)
	addps %xmm0, %xmm1
	addps (%rdi), %xmm0
	addps (%rdi,%rbx,2), %xmm2
	addss %xmm0, %xmm1
	addss (%rdi), %xmm0
	addss (%rdi,%rbx,2), %xmm2
	andnps %xmm0, %xmm1
	andnps (%rdi), %xmm0
	andnps (%rdi,%rbx,2), %xmm2
	andps %xmm0, %xmm1
	andps (%rdi), %xmm0
	andps (%rdi,%rbx,2), %xmm2
	cmpeqps %xmm0, %xmm1
	cmpeqps (%rdi), %xmm0
	cmpeqps (%rdi,%rbx,2), %xmm2
	cmpeqss %xmm0, %xmm1
	cmpeqss (%rdi), %xmm0
	cmpeqss (%rdi,%rbx,2), %xmm2
	cmpleps %xmm0, %xmm1
	cmpleps (%rdi), %xmm0
	cmpleps (%rdi,%rbx,2), %xmm2
	cmpless %xmm0, %xmm1
	cmpless (%rdi), %xmm0
	cmpless (%rdi,%rbx,2), %xmm2
	cmpltps %xmm0, %xmm1
	cmpltps (%rdi), %xmm0
	cmpltps (%rdi,%rbx,2), %xmm2
	cmpltss %xmm0, %xmm1
	cmpltss (%rdi), %xmm0
	cmpltss (%rdi,%rbx,2), %xmm2
	cmpneqps %xmm0, %xmm1
	cmpneqps (%rdi), %xmm0
	cmpneqps (%rdi,%rbx,2), %xmm2
	cmpneqss %xmm0, %xmm1
	cmpneqss (%rdi), %xmm0
	cmpneqss (%rdi,%rbx,2), %xmm2
	cmpnleps %xmm0, %xmm1
	cmpnleps (%rdi), %xmm0
	cmpnleps (%rdi,%rbx,2), %xmm2
	cmpnless %xmm0, %xmm1
	cmpnless (%rdi), %xmm0
	cmpnless (%rdi,%rbx,2), %xmm2
	cmpnltps %xmm0, %xmm1
	cmpnltps (%rdi), %xmm0
	cmpnltps (%rdi,%rbx,2), %xmm2
	cmpnltss %xmm0, %xmm1
	cmpnltss (%rdi), %xmm0
	cmpnltss (%rdi,%rbx,2), %xmm2
	cmpordps %xmm0, %xmm1
	cmpordps (%rdi), %xmm0
	cmpordps (%rdi,%rbx,2), %xmm2
	cmpordss %xmm0, %xmm1
	cmpordss (%rdi), %xmm0
	cmpordss (%rdi,%rbx,2), %xmm2
	cmpunordps %xmm0, %xmm1
	cmpunordps (%rdi), %xmm0
	cmpunordps (%rdi,%rbx,2), %xmm2
	cmpunordss %xmm0, %xmm1
	cmpunordss (%rdi), %xmm0
	cmpunordss (%rdi,%rbx,2), %xmm2
	comiss %xmm0, %xmm1
	comiss (%rdi), %xmm0
	comiss (%rdi,%rbx,2), %xmm2
	cvtpi2ps %mm0, %xmm1
	cvtpi2ps (%rdi), %xmm0
	cvtpi2ps (%rdi,%rbx,2), %xmm2
	cvtps2pi %xmm0, %mm1
	cvtps2pi (%rdi), %mm0
	cvtps2pi (%rdi,%rbx,2), %mm2
	cvtsi2ss %eax, %xmm0
	cvtsi2ss %rax, %xmm0
	cvtsi2ssl (%rdi), %xmm0
	cvtsi2ssl (%rdi), %xmm0
	cvtss2si %xmm0, %eax
	cvtss2si %xmm0, %rax
	cvtss2si (%rdi), %eax
	cvtss2si (%rdi), %rax
	cvttps2pi %xmm0, %mm1
	cvttps2pi (%rdi), %mm0
	cvttps2pi (%rdi,%rbx,2), %mm2
	cvttss2si %xmm0, %eax
	cvttss2si %xmm0, %rax
	cvttss2si (%rdi), %eax
	cvttss2si (%rdi), %rax
	divps %xmm1, %xmm0
	divps (%rdi), %xmm1
	divss %xmm1, %xmm0
	divss (%rdi), %xmm1
	maxpd %xmm0, %xmm1
	maxpd (%rdi), %xmm0
	maxpd (%rdi,%rbx,2), %xmm2
	maxss %xmm0, %xmm1
	maxss (%rdi), %xmm0
	maxss (%rdi,%rbx,2), %xmm2
	minps %xmm0, %xmm1
	minps (%rdi), %xmm0
	minps (%rdi,%rbx,2), %xmm2
	minss %xmm0, %xmm1
	minss (%rdi), %xmm0
	minss (%rdi,%rbx,2), %xmm2
	movapd %xmm0, %xmm1
	movapd %xmm0, (%rdi)
	movapd %xmm1, %xmm0
	movapd %xmm2, (%rdi,%rbx,2)
	movapd (%rdi), %xmm0
	movapd (%rdi,%rbx,2), %xmm2
	movd %eax, %xmm0
	movd %xmm0, %eax
	movd %xmm0, (%rdi)
	movd %xmm0, (%rdi)
	movd (%rdi), %xmm0
	movd (%rdi), %xmm0
	RPT 4, movdqu (%rdi), %xmm1
	movhlps %xmm0, %xmm1
	movhps %xmm0, (%rdi)
	movhps %xmm2, (%rdi,%rbx,2)
	movhps (%rdi), %xmm0
	movhps (%rdi,%rbx,2), %xmm2
	movlhps %xmm1, %xmm2
	movlps %xmm0, (%rdi)
	movlps %xmm2, (%rdi,%rbx,2)
	movlps (%rdi), %xmm0
	movlps (%rdi,%rbx,2), %xmm2
	movmskps %xmm1, %eax
	movntps %xmm0, (%rdi)
	movntps %xmm2, (%rdi,%rbx,2)
	movntq %mm0, (%rdi)
	movntq %mm2, (%rdi,%rbx,2)
	movq %rax, %xmm0
	movq %xmm0, %rax
	movss %xmm0, (%rdi)
	movss %xmm2, (%rdi,%rbx,2)
	movss (%rdi), %xmm0
	movss (%rdi,%rbx,2), %xmm2
	movups %xmm0, %xmm1
	movups %xmm0, (%rdi)
	movups %xmm1, %xmm0
	movups %xmm2, (%rdi,%rbx,2)
	movups (%rdi), %xmm0
	movups (%rdi,%rbx,2), %xmm2
	mulps %xmm0, %xmm1
	mulps (%rdi), %xmm0
	mulps (%rdi,%rbx,2), %xmm2
	mulss %xmm0, %xmm1
	mulss (%rdi), %xmm0
	mulss (%rdi,%rbx,2), %xmm2
	orps %xmm0, %xmm1
	orps (%rdi), %xmm0
	orps (%rdi,%rbx,2), %xmm2
	pavgb %mm0, %mm1
	pavgb %xmm0, %xmm1
	pavgb (%rdi), %mm0
	pavgb (%rdi), %xmm0
	pavgb (%rdi,%rbx,2), %mm2
	pavgb (%rdi,%rbx,2), %xmm2
	pavgw %mm0, %mm1
	pavgw %xmm0, %xmm1
	pavgw (%rdi), %mm0
	pavgw (%rdi), %xmm0
	pavgw (%rdi,%rbx,2), %mm2
	pavgw (%rdi,%rbx,2), %xmm2
	pextrw $0x0, %mm0, %eax
	pextrw $0x0, %xmm0, %eax
	pextrw $0x1, %mm0, %eax
	pextrw $0x1, %xmm0, %eax
	pextrw $0x2, %mm0, %eax
	pextrw $0x2, %xmm0, %eax
	pextrw $0x3, %mm0, %eax
	pextrw $0x3, %xmm0, %eax
	pextrw $0x4, %mm0, %eax
	pextrw $0x4, %xmm0, %eax
	pextrw $0x5, %mm0, %eax
	pextrw $0x5, %xmm0, %eax
	pextrw $0x6, %mm0, %eax
	pextrw $0x6, %xmm0, %eax
	pextrw $0x7, %mm0, %eax
	pextrw $0x7, %xmm0, %eax
	pinsrw $0x0, %eax, %mm0
	pinsrw $0x0, %eax, %xmm0
	pinsrw $0x0, (%rdi), %mm0
	pinsrw $0x0, (%rdi), %xmm0
	pinsrw $0x1, %eax, %mm0
	pinsrw $0x1, %eax, %xmm0
	pinsrw $0x1, (%rdi), %mm0
	pinsrw $0x1, (%rdi), %xmm0
	pinsrw $0x2, %eax, %mm0
	pinsrw $0x2, %eax, %xmm0
	pinsrw $0x2, (%rdi), %mm0
	pinsrw $0x2, (%rdi), %xmm0
	pinsrw $0x3, %eax, %mm0
	pinsrw $0x3, %eax, %xmm0
	pinsrw $0x3, (%rdi), %mm0
	pinsrw $0x3, (%rdi), %xmm0
	pinsrw $0x4, %eax, %mm0
	pinsrw $0x4, %eax, %xmm0
	pinsrw $0x4, (%rdi), %mm0
	pinsrw $0x4, (%rdi), %xmm0
	pinsrw $0x5, %eax, %mm0
	pinsrw $0x5, %eax, %xmm0
	pinsrw $0x5, (%rdi), %mm0
	pinsrw $0x5, (%rdi), %xmm0
	pinsrw $0x6, %eax, %mm0
	pinsrw $0x6, %eax, %xmm0
	pinsrw $0x6, (%rdi), %mm0
	pinsrw $0x6, (%rdi), %xmm0
	pinsrw $0x7, %eax, %mm0
	pinsrw $0x7, %eax, %xmm0
	pinsrw $0x7, (%rdi), %mm0
	pinsrw $0x7, (%rdi), %xmm0
	pmaxsw %mm0, %mm1
	pmaxsw %xmm0, %xmm1
	pmaxsw (%rdi), %mm0
	pmaxsw (%rdi), %xmm0
	pmaxsw (%rdi,%rbx,2), %mm2
	pmaxsw (%rdi,%rbx,2), %xmm2
	pmaxub %mm0, %mm1
	pmaxub %xmm0, %xmm1
	pmaxub (%rdi), %mm0
	pmaxub (%rdi), %xmm0
	pmaxub (%rdi,%rbx,2), %mm2
	pmaxub (%rdi,%rbx,2), %xmm2
	pminsw %mm0, %mm1
	pminsw %xmm0, %xmm1
	pminsw (%rdi), %mm0
	pminsw (%rdi), %xmm0
	pminsw (%rdi,%rbx,2), %mm2
	pminsw (%rdi,%rbx,2), %xmm2
	pminub %mm0, %mm1
	pminub %xmm0, %xmm1
	pminub (%rdi), %mm0
	pminub (%rdi), %xmm0
	pminub (%rdi,%rbx,2), %mm2
	pminub (%rdi,%rbx,2), %xmm2
	pmulhuw %mm0, %mm1
	pmulhuw %xmm0, %xmm1
	pmulhuw (%rdi), %mm0
	pmulhuw (%rdi), %xmm0
	pmulhuw (%rdi,%rbx,2), %mm2
	pmulhuw (%rdi,%rbx,2), %xmm2
	prefetchnta (%rdi)
	prefetchnta (%rdi)
	prefetcht0 (%rdi)
	prefetcht0 (%rdi)
	prefetcht1 (%rdi)
	prefetcht1 (%rdi)
	prefetcht2 (%rdi)
	prefetcht2 (%rdi)
	psadbw %mm0, %mm1
	psadbw %xmm0, %xmm1
	psadbw (%rdi), %mm0
	psadbw (%rdi), %xmm0
	psadbw (%rdi,%rbx,2), %mm2
	psadbw (%rdi,%rbx,2), %xmm2
	pshufw $0x0, %mm1, %mm2
	pshufw $0x0, (%rdi), %mm2
	pshufw $0x10, %mm1, %mm2
	pshufw $0x10, (%rdi), %mm2
	pshufw $0x2, %mm1, %mm2
	pshufw $0x2, (%rdi), %mm2
	pshufw $0x20, %mm1, %mm2
	pshufw $0x20, (%rdi), %mm2
	pshufw $0x4, %mm1, %mm2
	pshufw $0x4, (%rdi), %mm2
	pshufw $0x8, %mm1, %mm2
	pshufw $0x8, (%rdi), %mm2
	rcpps %xmm0, %xmm1
	rcpps (%rdi), %xmm1
	rcpss %xmm1, %xmm0
	rcpss (%rdi), %xmm1
	rsqrtps %xmm1, %xmm0
	rsqrtps (%rdi), %xmm1
	rsqrtss %xmm1, %xmm0
	rsqrtss (%rdi), %xmm1
	sfence
	shufps $0x0, %xmm0, %xmm1
	shufps $0x4, (%rdi), %xmm2
	shufps $0x8, (%rdi,%rbx,2), %xmm2
	sqrtps %xmm1, %xmm0
	sqrtps (%rdi), %xmm1
	sqrtss %xmm1, %xmm0
	sqrtss (%rdi), %xmm1
	subps %xmm0, %xmm1
	subps (%rdi), %xmm0
	subps (%rdi,%rbx,2), %xmm2
	subss %xmm0, %xmm1
	subss (%rdi), %xmm0
	subss (%rdi,%rbx,2), %xmm2
	ucomiss %xmm0, %xmm1
	ucomiss (%rdi), %xmm1
	ucomiss (%rdi,%rbx,2), %xmm2
	unpckhps %xmm0, %xmm1
	unpckhps (%rdi), %xmm2
	unpckhps (%rdi,%rbx,2), %xmm2
	unpcklps %xmm0, %xmm1
	unpcklps (%rdi), %xmm2
	unpcklps (%rdi,%rbx,2), %xmm2
	xorps %xmm0, %xmm1
	xorps (%rdi), %xmm0
	xorps (%rdi,%rbx,2), %xmm2
	dec %r15
	jnz sse1

	mov $N, %r15
sse2:	xor %rax, %rax
	xor %rbx, %rbx
	addpd %xmm0, %xmm1
	addpd (%rdi), %xmm0
	addpd (%rdi,%rbx,2), %xmm2
	addsd %xmm0, %xmm1
	addsd (%rdi), %xmm0
	addsd (%rdi,%rbx,2), %xmm2
	andnpd %xmm0, %xmm1
	andnpd (%rdi), %xmm0
	andnpd (%rdi,%rbx,2), %xmm2
	andpd %xmm0, %xmm1
	andpd (%rdi), %xmm0
	andpd (%rdi,%rbx,2), %xmm2
	clflush (%rdi)
	cmpeqpd %xmm0, %xmm1
	cmpeqpd (%rdi), %xmm0
	cmpeqpd (%rdi,%rbx,2), %xmm2
	cmpeqsd %xmm0, %xmm1
	cmpeqsd (%rdi), %xmm0
	cmpeqsd (%rdi,%rbx,2), %xmm2
	cmplepd %xmm0, %xmm1
	cmplepd (%rdi), %xmm0
	cmplepd (%rdi,%rbx,2), %xmm2
	cmplesd %xmm0, %xmm1
	cmplesd (%rdi), %xmm0
	cmplesd (%rdi,%rbx,2), %xmm2
	cmpltpd %xmm0, %xmm1
	cmpltpd (%rdi), %xmm0
	cmpltpd (%rdi,%rbx,2), %xmm2
	cmpltsd %xmm0, %xmm1
	cmpltsd (%rdi), %xmm0
	cmpltsd (%rdi,%rbx,2), %xmm2
	cmpneqpd %xmm0, %xmm1
	cmpneqpd (%rdi), %xmm0
	cmpneqpd (%rdi,%rbx,2), %xmm2
	cmpneqsd %xmm0, %xmm1
	cmpneqsd (%rdi), %xmm0
	cmpneqsd (%rdi,%rbx,2), %xmm2
	cmpnlepd %xmm0, %xmm1
	cmpnlepd (%rdi), %xmm0
	cmpnlepd (%rdi,%rbx,2), %xmm2
	cmpnlesd %xmm0, %xmm1
	cmpnlesd (%rdi), %xmm0
	cmpnlesd (%rdi,%rbx,2), %xmm2
	cmpnltpd %xmm0, %xmm1
	cmpnltpd (%rdi), %xmm0
	cmpnltpd (%rdi,%rbx,2), %xmm2
	cmpnltsd %xmm0, %xmm1
	cmpnltsd (%rdi), %xmm0
	cmpnltsd (%rdi,%rbx,2), %xmm2
	cmpordpd %xmm0, %xmm1
	cmpordpd (%rdi), %xmm0
	cmpordpd (%rdi,%rbx,2), %xmm2
	cmpordsd %xmm0, %xmm1
	cmpordsd (%rdi), %xmm0
	cmpordsd (%rdi,%rbx,2), %xmm2
	cmpunordpd %xmm0, %xmm1
	cmpunordpd (%rdi), %xmm0
	cmpunordpd (%rdi,%rbx,2), %xmm2
	cmpunordsd %xmm0, %xmm1
	cmpunordsd (%rdi), %xmm0
	cmpunordsd (%rdi,%rbx,2), %xmm2
	comisd %xmm0, %xmm1
	comisd (%rdi), %xmm0
	comisd (%rdi,%rbx,2), %xmm2
	cvtdq2pd %xmm0, %xmm1
	cvtdq2pd (%rdi), %xmm0
	cvtdq2pd (%rdi,%rbx,2), %xmm2
	cvtdq2ps %xmm0, %xmm1
	cvtdq2ps (%rdi), %xmm0
	cvtdq2ps (%rdi,%rbx,2), %xmm2
	cvtpd2dq %xmm0, %xmm1
	cvtpd2dq (%rdi), %xmm0
	cvtpd2dq (%rdi,%rbx,2), %xmm2
	cvtpd2pi %xmm0, %mm1
	cvtpd2pi (%rdi), %mm0
	cvtpd2pi (%rdi,%rbx,2), %mm2
	cvtpd2ps %xmm0, %xmm1
	cvtpd2ps (%rdi), %xmm0
	cvtpd2ps (%rdi,%rbx,2), %xmm2
	cvtpi2pd %mm0, %xmm1
	cvtpi2pd (%rdi), %xmm0
	cvtpi2pd (%rdi,%rbx,2), %xmm2
	cvtps2dq %xmm0, %xmm1
	cvtps2dq (%rdi), %xmm0
	cvtps2dq (%rdi,%rbx,2), %xmm2
	cvtps2pd %xmm0, %xmm1
	cvtps2pd (%rdi), %xmm0
	cvtps2pd (%rdi,%rbx,2), %xmm2
	cvtsd2si %xmm0, %eax
	cvtsd2si %xmm0, %rax
	cvtsd2si (%rdi), %eax
	cvtsd2si (%rdi), %rax
	cvtsd2ss %xmm0, %xmm1
	cvtsd2ss (%rdi), %xmm0
	cvtsd2ss (%rdi,%rbx,2), %xmm2
	cvtsi2sd %eax, %xmm0
	cvtsi2sd %rax, %xmm0
	cvtsi2sdl (%rdi), %xmm0
	cvtsi2sdl (%rdi), %xmm0
	cvtss2sd %xmm0, %xmm1
	cvtss2sd (%rdi), %xmm0
	cvtss2sd (%rdi,%rbx,2), %xmm2
	cvttpd2dq %xmm0, %xmm1
	cvttpd2dq (%rdi), %xmm0
	cvttpd2dq (%rdi,%rbx,2), %xmm2
	cvttpd2pi %xmm0, %mm1
	cvttpd2pi (%rdi), %mm0
	cvttpd2pi (%rdi,%rbx,2), %mm2
	cvttps2dq %xmm0, %xmm1
	cvttps2dq (%rdi), %xmm0
	cvttps2dq (%rdi,%rbx,2), %xmm2
	cvttsd2si %xmm0, %eax
	cvttsd2si %xmm0, %rax
	cvttsd2si (%rdi), %eax
	cvttsd2si (%rdi), %rax
	divpd %xmm1, %xmm0
	divpd (%rdi), %xmm1
	divsd %xmm1, %xmm0
	divsd (%rdi), %xmm1
	RPT 2, lddqu (%rdi), %xmm1
	lfence
	RPT 2, maskmovdqu %xmm1, %xmm0
	maxpd %xmm0, %xmm1
	maxpd (%rdi), %xmm0
	maxpd (%rdi,%rbx,2), %xmm2
	maxsd %xmm0, %xmm1
	maxsd (%rdi), %xmm0
	maxsd (%rdi,%rbx,2), %xmm2
	mfence
	minpd %xmm0, %xmm1
	minpd (%rdi), %xmm0
	minpd (%rdi,%rbx,2), %xmm2
	minsd %xmm0, %xmm1
	minsd (%rdi), %xmm0
	minsd (%rdi,%rbx,2), %xmm2
	mov $0x10, %rax
	movapd %xmm0, %xmm1
	movapd %xmm0, (%rdi)
	movapd %xmm1, %xmm0
	movapd %xmm2, (%rdi,%rbx,2)
	movapd (%rdi), %xmm0
	movapd (%rdi,%rbx,2), %xmm2
	movdq2q %xmm0, %mm0
	movdqa %xmm0, %xmm1
	movdqa %xmm0, (%rdi)
	movdqa %xmm1, %xmm0
	movdqa %xmm2, (%rdi,%rbx,2)
	movdqa (%rdi), %xmm0
	movdqa (%rdi,%rbx,2), %xmm2
	movdqu %xmm0, %xmm1
	RPT 2, movdqu %xmm0, (%rdi)
	movdqu %xmm1, %xmm0
	movdqu %xmm2, (%rdi,%rbx,2)
	RPT 2, movdqu (%rdi), %xmm0
	RPT 4, movdqu (%rdi), %xmm1
	movdqu (%rdi,%rbx,2), %xmm2
	movhpd %xmm0, (%rdi)
	movhpd %xmm2, (%rdi,%rbx,2)
	movhpd (%rdi), %xmm0
	movhpd (%rdi,%rbx,2), %xmm2
	movlpd %xmm0, (%rdi)
	movlpd %xmm2, (%rdi,%rbx,2)
	movlpd (%rdi), %xmm0
	movlpd (%rdi,%rbx,2), %xmm2
	movmskpd %xmm1, %eax
	movntdq %xmm0, (%rdi)
	movnti %eax, (%rdi)
	movnti %rax, (%rdi)
	movntpd %xmm0, (%rdi)
	movntpd %xmm2, (%rdi,%rbx,2)
	movq %xmm0, (%rdi)
	movq %xmm2, (%rdi,%rbx,2)
	movq (%rdi), %xmm0
	movq (%rdi,%rbx,2), %xmm2
	movq2dq %mm0, %xmm0
	movsd %xmm0, %xmm1
	movsd %xmm0, (%rdi)
	movsd %xmm1, %xmm0
	movsd %xmm2, (%rdi,%rbx,2)
	movsd (%rdi), %xmm0
	movsd (%rdi,%rbx,2), %xmm2
	movupd %xmm0, %xmm1
	movupd %xmm0, (%rdi)
	movupd %xmm1, %xmm0
	movupd %xmm2, (%rdi,%rbx,2)
	movupd (%rdi), %xmm0
	movupd (%rdi,%rbx,2), %xmm2
	mulpd %xmm0, %xmm1
	mulpd (%rdi), %xmm0
	mulpd (%rdi,%rbx,2), %xmm2
	mulsd %xmm0, %xmm1
	mulsd (%rdi), %xmm0
	mulsd (%rdi,%rbx,2), %xmm2
	orpd %xmm0, %xmm1
	orpd (%rdi), %xmm0
	orpd (%rdi,%rbx,2), %xmm2
	packssdw %xmm0, %xmm1
	packssdw (%rdi), %xmm1
	packsswb %xmm0, %xmm1
	packsswb (%rdi), %xmm1
	packuswb %xmm0, %xmm1
	packuswb (%rdi), %xmm1
	paddb %xmm0, %xmm1
	paddb (%rdi), %xmm1
	paddd %xmm0, %xmm1
	paddd (%rdi), %xmm1
	paddq %xmm0, %xmm1
	paddq (%rdi), %xmm1
	paddsb %xmm0, %xmm1
	paddsb (%rdi), %xmm1
	paddsw %xmm0, %xmm1
	paddsw (%rdi), %xmm1
	paddusb %xmm0, %xmm1
	paddusb (%rdi), %xmm1
	paddusw %xmm0, %xmm1
	paddusw (%rdi), %xmm1
	paddw %xmm0, %xmm1
	paddw (%rdi), %xmm1
	pand %xmm0, %xmm1
	pand (%rdi), %xmm1
	pand (%rdi,%rbx,2), %xmm2
	pandn %xmm0, %xmm1
	pandn (%rdi), %xmm1
	pandn (%rdi,%rbx,2), %xmm2
	pause
	pcmpeqb %xmm0, %xmm1
	pcmpeqb (%rdi), %xmm2
	pcmpeqb (%rdi,%rbx,2), %xmm2
	pcmpeqd %xmm0, %xmm1
	pcmpeqd (%rdi), %xmm2
	pcmpeqd (%rdi,%rbx,2), %xmm2
	pcmpeqw %xmm0, %xmm1
	pcmpeqw (%rdi), %xmm2
	pcmpeqw (%rdi,%rbx,2), %xmm2
	pcmpgtb %xmm0, %xmm1
	pcmpgtb (%rdi), %xmm2
	pcmpgtb (%rdi,%rbx,2), %xmm2
	pcmpgtd %xmm0, %xmm1
	pcmpgtd (%rdi), %xmm2
	pcmpgtd (%rdi,%rbx,2), %xmm2
	pcmpgtw %xmm0, %xmm1
	pcmpgtw (%rdi), %xmm2
	pcmpgtw (%rdi,%rbx,2), %xmm2
	pmaddwd %xmm0, %xmm1
	pmaddwd (%rdi), %xmm1
	pmovmskb %mm0, %eax
	pmovmskb %xmm0, %eax
	pmulhw %xmm0, %xmm1
	pmulhw (%rdi), %xmm0
	pmulhw (%rdi,%rbx,2), %xmm2
	pmullw %xmm0, %xmm1
	pmullw (%rdi), %xmm0
	pmullw (%rdi,%rbx,2), %xmm2
	pmuludq %mm0, %mm1
	pmuludq %xmm0, %xmm1
	pmuludq (%rdi), %mm0
	pmuludq (%rdi), %xmm0
	pmuludq (%rdi,%rbx,2), %mm2
	pmuludq (%rdi,%rbx,2), %xmm2
	por %xmm0, %xmm1
	por (%rdi), %xmm1
	por (%rdi,%rbx,2), %xmm2
	pshufd $0x0, %xmm1, %xmm2
	pshufd $0x0, (%rdi), %xmm2
	pshufd $0x10, %xmm1, %xmm2
	pshufd $0x10, (%rdi), %xmm2
	pshufd $0x2, %xmm1, %xmm2
	pshufd $0x2, (%rdi), %xmm2
	pshufd $0x20, %xmm1, %xmm2
	pshufd $0x20, (%rdi), %xmm2
	pshufd $0x4, %xmm1, %xmm2
	pshufd $0x4, (%rdi), %xmm2
	pshufd $0x8, %xmm1, %xmm2
	pshufd $0x8, (%rdi), %xmm2
	pshufhw $0x0, %xmm1, %xmm2
	pshufhw $0x0, (%rdi), %xmm2
	pshufhw $0x10, %xmm1, %xmm2
	pshufhw $0x10, (%rdi), %xmm2
	pshufhw $0x2, %xmm1, %xmm2
	pshufhw $0x2, (%rdi), %xmm2
	pshufhw $0x20, %xmm1, %xmm2
	pshufhw $0x20, (%rdi), %xmm2
	pshufhw $0x4, %xmm1, %xmm2
	pshufhw $0x4, (%rdi), %xmm2
	pshufhw $0x8, %xmm1, %xmm2
	pshufhw $0x8, (%rdi), %xmm2
	pshuflw $0x0, %xmm1, %xmm2
	pshuflw $0x0, (%rdi), %xmm2
	pshuflw $0x10, %xmm1, %xmm2
	pshuflw $0x10, (%rdi), %xmm2
	pshuflw $0x2, %xmm1, %xmm2
	pshuflw $0x2, (%rdi), %xmm2
	pshuflw $0x20, %xmm1, %xmm2
	pshuflw $0x20, (%rdi), %xmm2
	pshuflw $0x4, %xmm1, %xmm2
	pshuflw $0x4, (%rdi), %xmm2
	pshuflw $0x8, %xmm1, %xmm2
	pshuflw $0x8, (%rdi), %xmm2
	pslld $0x3, %xmm0
	pslld %xmm0, %xmm1
	pslld (%rdi), %xmm1
	pslldq $0x3, %xmm0
	psllq $0x3, %xmm0
	psllq %xmm0, %xmm1
	psllq (%rdi), %xmm1
	psllw $0x3, %xmm0
	psllw %xmm0, %xmm1
	psllw (%rdi), %xmm1
	psrad $0x3, %xmm0
	psrad %xmm0, %xmm1
	psrad (%rdi), %xmm1
	psraw $0x3, %xmm0
	psraw %xmm0, %xmm1
	psraw (%rdi), %xmm1
	psrld $0x3, %xmm0
	psrld %xmm0, %xmm1
	psrld (%rdi), %xmm1
	psrldq $0x3, %xmm0
	psrlq $0x3, %xmm0
	psrlq %xmm0, %xmm1
	psrlq (%rdi), %xmm1
	psrlw $0x3, %xmm0
	psrlw %xmm0, %xmm1
	psrlw (%rdi), %xmm1
	psubb %xmm0, %xmm1
	psubb (%rdi), %xmm1
	psubb (%rdi,%rbx,2), %xmm2
	psubd %xmm0, %xmm1
	psubd (%rdi), %xmm1
	psubd (%rdi,%rbx,2), %xmm2
	psubq %mm0, %mm1
	psubq %xmm0, %xmm1
	psubq (%rdi), %mm1
	psubq (%rdi), %xmm1
	psubq (%rdi,%rbx,2), %mm2
	psubq (%rdi,%rbx,2), %xmm2
	psubsb %xmm0, %xmm1
	psubsb (%rdi), %xmm1
	psubsb (%rdi,%rbx,2), %xmm2
	psubsw %xmm0, %xmm1
	psubsw (%rdi), %xmm1
	psubsw (%rdi,%rbx,2), %xmm2
	psubusb %xmm0, %xmm1
	psubusb (%rdi), %xmm1
	psubusb (%rdi,%rbx,2), %xmm2
	psubusw %xmm0, %xmm1
	psubusw (%rdi), %xmm1
	psubusw (%rdi,%rbx,2), %xmm2
	psubw %xmm0, %xmm1
	psubw (%rdi), %xmm1
	psubw (%rdi,%rbx,2), %xmm2
	punpckhbw %xmm0, %xmm1
	punpckhbw (%rdi), %xmm1
	punpckhdq %xmm0, %xmm1
	punpckhdq (%rdi), %xmm1
	punpckhqdq %xmm0, %xmm1
	punpckhqdq (%rdi), %xmm1
	punpckhwd %xmm0, %xmm1
	punpckhwd (%rdi), %xmm1
	punpcklbw %xmm0, %xmm1
	punpcklbw (%rdi), %xmm1
	punpckldq %xmm0, %xmm1
	punpckldq (%rdi), %xmm1
	punpcklqdq %xmm0, %xmm1
	punpcklqdq (%rdi), %xmm1
	punpcklwd %xmm0, %xmm1
	punpcklwd (%rdi), %xmm1
	pxor %xmm0, %xmm1
	pxor (%rdi), %xmm1
	pxor (%rdi,%rbx,2), %xmm2
	shufpd $0x0, %xmm0, %xmm1
	shufpd $0x4, (%rdi), %xmm2
	shufpd $0x8, (%rdi,%rbx,2), %xmm2
	sqrtpd %xmm1, %xmm0
	sqrtpd (%rdi), %xmm1
	sqrtsd %xmm1, %xmm0
	sqrtsd (%rdi), %xmm1
	subpd %xmm0, %xmm1
	subpd (%rdi), %xmm0
	subpd (%rdi,%rbx,2), %xmm2
	subsd %xmm0, %xmm1
	subsd (%rdi), %xmm0
	subsd (%rdi,%rbx,2), %xmm2
	ucomisd %xmm0, %xmm1
	ucomisd (%rdi), %xmm1
	unpckhpd %xmm0, %xmm1
	unpckhpd (%rdi), %xmm2
	unpckhpd (%rdi,%rbx,2), %xmm2
	unpcklpd %xmm0, %xmm1
	unpcklpd (%rdi), %xmm2
	unpcklpd (%rdi,%rbx,2), %xmm2
	xorpd %xmm0, %xmm1
	xorpd (%rdi), %xmm1
	xorpd (%rdi,%rbx,2), %xmm2
	dec %r15
	jnz sse2

	mov $N, %r15
sse3:	xor %rax, %rax
	xor %rbx, %rbx
	RPT 3, fld1
	addsubpd %xmm0, %xmm1
	addsubpd (%rdi), %xmm0
	addsubpd (%rdi,%rbx,2), %xmm2
	addsubps %xmm0, %xmm1
	addsubps (%rdi), %xmm0
	addsubps (%rdi,%rbx,2), %xmm2
	fisttpl (%rdi)
	fisttpll (%rdi)
	fisttps (%rdi)
	haddpd %xmm0, %xmm1
	haddpd (%rdi), %xmm0
	haddpd (%rdi,%rbx,2), %xmm2
	haddps %xmm0, %xmm1
	haddps (%rdi), %xmm0
	haddps (%rdi,%rbx,2), %xmm2
	hsubpd %xmm0, %xmm1
	hsubpd (%rdi), %xmm0
	hsubpd (%rdi,%rbx,2), %xmm2
	hsubps %xmm0, %xmm1
	hsubps (%rdi), %xmm0
	hsubps (%rdi,%rbx,2), %xmm2
	RPT 2, lddqu (%rdi), %xmm1
	movddup %xmm1, %xmm2
	movddup (%rdi), %xmm1
	movshdup %xmm1, %xmm2
	movshdup (%rdi), %xmm1
	movsldup %xmm1, %xmm2
	movsldup (%rdi), %xmm1
	dec %r15
	jnz sse3
	jmp done

/* ---- MMX: 152 instructions per iteration ---- */
seg_mmx:
	mov $N, %r15
mmx:
	maskmovq %mm0, %mm1
	RPT 2, mov $0x10, %rax
	mov $0x8, %rax
	movd %eax, %mm0
	movd %mm0, (%rdi)
	movd %mm0, (%rdi)
	movd %mm0, (%rdi)
	movd %mm0, (%rdi)
	movd %mm0, (%rdi)
	movd %mm1, (%rdi)
	movd %mm1, (%rdi)
	movd %mm1, (%rdi)
	movd %mm1, (%rdi)
	movd %mm1, (%rdi)
	movd (%rdi), %mm1
	movd (%rdi), %mm1
	movd (%rdi), %mm1
	movd (%rdi), %mm1
	movd (%rdi), %mm0
	movd (%rdi), %mm0
	movd (%rdi), %mm0
	movd (%rdi), %mm0
	movntq %mm1, (%rdi)
	movq %mm0, %mm1
	movq %mm0, (%rdi)
	movq %mm0, (%rdi)
	movq %mm0, (%rdi)
	movq %mm0, (%rdi)
	movq %mm0, (%rdi)
	movq %mm1, (%rdi)
	movq %mm1, (%rdi)
	movq %mm1, (%rdi)
	movq %mm1, (%rdi)
	RPT 2, movq %rax, %mm0
	movq (%rdi), %mm1
	movq (%rdi), %mm1
	movq (%rdi), %mm1
	movq (%rdi), %mm1
	movq (%rdi), %mm0
	movq (%rdi), %mm0
	movq (%rdi), %mm0
	movq (%rdi), %mm0
	packssdw %mm0, %mm1
	packssdw (%rdi), %mm1
	packsswb %mm0, %mm1
	packsswb (%rdi), %mm1
	packuswb %mm0, %mm1
	packuswb (%rdi), %mm1
	paddb %mm0, %mm1
	paddb (%rdi), %mm1
	paddd %mm0, %mm1
	paddd (%rdi), %mm1
	paddsb %mm0, %mm1
	paddsb (%rdi), %mm1
	paddsw %mm0, %mm1
	paddsw (%rdi), %mm1
	paddusb %mm0, %mm1
	paddusb (%rdi), %mm1
	paddusw %mm0, %mm1
	paddusw (%rdi), %mm1
	paddw %mm0, %mm1
	paddw (%rdi), %mm1
	pand %mm0, %mm1
	pand (%rdi), %mm1
	pand (%rdi), %mm3
	pand (%rdi), %mm3
	pandn %mm0, %mm1
	pandn (%rdi), %mm1
	pandn (%rdi), %mm3
	pandn (%rdi), %mm3
	pcmpeqb %mm0, %mm1
	pcmpeqb (%rdi), %mm2
	pcmpeqd %mm0, %mm1
	pcmpeqd (%rdi), %mm2
	pcmpeqw %mm0, %mm1
	pcmpeqw (%rdi), %mm2
	pcmpgtb %mm0, %mm1
	pcmpgtb (%rdi), %mm2
	pcmpgtd %mm0, %mm1
	pcmpgtd (%rdi), %mm2
	pcmpgtw %mm0, %mm1
	pcmpgtw (%rdi), %mm2
	pmaddwd %mm0, %mm1
	pmaddwd (%rdi), %mm1
	pmulhw %mm0, %mm1
	pmulhw (%rdi), %mm1
	pmullw %mm0, %mm1
	pmullw (%rdi), %mm1
	por %mm0, %mm1
	por (%rdi), %mm1
	por (%rdi), %mm3
	por (%rdi), %mm3
	pslld $0x3, %mm0
	pslld %mm0, %mm1
	pslld (%rdi), %mm1
	psllq $0x3, %mm0
	psllq %mm0, %mm1
	psllq (%rdi), %mm1
	psllw $0x3, %mm0
	psllw %mm0, %mm1
	psllw (%rdi), %mm1
	psrad $0x3, %mm0
	psrad %mm0, %mm1
	psrad (%rdi), %mm1
	psraw $0x3, %mm0
	psraw %mm0, %mm1
	psraw (%rdi), %mm1
	psrld $0x3, %mm0
	psrld %mm0, %mm1
	psrld (%rdi), %mm1
	psrlq $0x3, %mm0
	psrlq %mm0, %mm1
	psrlq (%rdi), %mm1
	psrlw $0x3, %mm0
	psrlw %mm0, %mm1
	psrlw (%rdi), %mm1
	psubb %mm0, %mm1
	psubb (%rdi), %mm1
	psubd %mm0, %mm1
	psubd (%rdi), %mm1
	psubsb %mm0, %mm1
	psubsb (%rdi), %mm1
	psubsw %mm0, %mm1
	psubsw (%rdi), %mm1
	psubusb %mm0, %mm1
	psubusb (%rdi), %mm1
	psubusw %mm0, %mm1
	psubusw (%rdi), %mm1
	psubw %mm0, %mm1
	psubw (%rdi), %mm1
	punpckhbw %mm0, %mm1
	punpckhbw (%rdi), %mm1
	punpckhdq %mm0, %mm1
	punpckhdq (%rdi), %mm1
	punpckhwd %mm0, %mm1
	punpckhwd (%rdi), %mm1
	punpcklbw %mm0, %mm1
	punpcklbw (%rdi), %mm1
	punpckldq %mm0, %mm1
	punpckldq (%rdi), %mm1
	punpcklwd %mm0, %mm1
	punpcklwd (%rdi), %mm1
	pxor %mm0, %mm1
	pxor (%rdi), %mm1
	pxor (%rdi), %mm3
	pxor (%rdi), %mm3
	RPT 2, emms
	dec %r15
	jnz mmx
	jmp done

/* ---- BRANCHES: 167 instructions, 77 branches per iteration ---- */
seg_br:
	mov $N, %r15
br:	jmp 3f                  /* five direct jumps */
2:	jmp 5f
4:	jmp 2b
3:	jmp 4b
	nop                     /* (not reached) */
5:	jmp 6f
	nop                     /* (not reached) */
6:	call sub                /* call, ret: a store, a load */
	lea sub(%rip), %rax
	call *%rax              /* indirect call, ret */
	jmp 7f
sub:	ret
7:	mov $10, %rcx           /* loop: 10 branches */
8:	xor %rax, %rax
	loop 8b
	mov $10, %rcx           /* loopz, ZF set: 10 */
9:	xor %rax, %rax
	loopz 9b
	mov $10, %rcx           /* loopz, ZF clear: 1 */
10:	or $1, %rax
	loopz 10b
	mov $10, %rcx           /* loopnz, ZF set: 1 */
11:	xor %rax, %rax
	loopnz 11b
	mov $10, %rcx           /* loopnz, ZF clear: 10 */
12:	or $1, %rax
	loopnz 12b
	xor %rcx, %rcx          /* jrcxz taken, not taken */
	jrcxz 13f
13:	or $1, %rcx
	jrcxz 14f
14:	xor %rcx, %rcx
	JPAIR "xor %rax, %rax", jo, "sub $1, %rax"
	JPAIR "xor %rax, %rax", jno, "sub $1, %rax"
	JPAIR stc, jc, clc
	JPAIR stc, jnc, clc
	JPAIR "xor %rax, %rax", jz, "or $1, %rax"
	JPAIR "xor %rax, %rax", jnz, "or $1, %rax"
	JPAIR stc, jbe, clc
	JPAIR stc, ja, clc
	JPAIR "neg %rax", js, "xor %rax, %rax"
	JPAIR "neg %rax", jns, "xor %rax, %rax"
	JPAIR "xor %rax, %rax", jp, "or $1, %rax"
	JPAIR "xor %rax, %rax", jnp, "or $1, %rax"
	JPAIR "sub $1, %rax", jl, "xor %rax, %rax"
	JPAIR "sub $1, %rax", jge, "xor %rax, %rax"
	JPAIR "sub $1, %rax", jle, "xor %rax, %rax"
	JPAIR "sub $1, %rax", jg, "xor %rax, %rax"
	dec %r15
	jnz br
	jmp done

/* ---- OS: 19 instructions, 3 branches per iteration ---- */
seg_os:
	mov $N_OS, %r15
os:	push $1                 /* write(1, msg, 16) */
	pop %rax
	lea msg(%rip), %rsi
	mov $1, %rdi
	mov $16, %rdx
	syscall
	push $9                 /* mmap(0, 8192, RW, PRIVATE|ANON, -1, 0) */
	pop %rax
	xor %rdi, %rdi
	mov $8192, %rsi
	mov $3, %rdx
	mov $0x22, %r10
	mov $-1, %r8
	mov $0, %r9
	syscall
	movl $0x600dcafe, (%rax) /* touch the new page: two stores */
	movl $0x600dcafe, 4(%rax)
	dec %r15
	jnz os

done:	mov $60, %eax
	xor %edi, %edi
	syscall

	.section .rodata
	.align 8
table:	.quad seg0, seg_sse, seg_mmx, seg_br, seg_os
msg:	.ascii "k_pentd os seg.\n"

	.data
	.align 64
buf:	.rept 16                /* 1.0f in every 32-bit lane */
	.long 0x3f800000
	.endr
	.fill 192, 1, 0
