/* SPDX-License-Identifier: MIT */
/*
 * x86_64/vec.h - the vector moves of zero.S and copy.S, written once: an
 * assembler macro, included through the C preprocessor.
 *
 * VMOV evex, w, a, i, load, mem: one move of vector register i of width w
 * (64, 32 or 16 bytes) from memory (load = 1) or to it (load = 0),
 * unaligned (a = u) or aligned (a = a). evex = 1: the EVEX forms
 * (vmovdqu64 and vmovdqa64; AVX512VL for ymm and xmm), which registers
 * 16-31 need and which leave no dirty upper state; evex = 0: the VEX
 * forms (vmovdqu, vmovdqa), registers 0-15, 32 bytes at most.
 */

/* Assembler, not C: clang-format must leave it alone. */
/* clang-format off */
.macro VMOV_OP op, reg, load, mem:vararg
.if \load
	\op	\mem, \reg
.else
	\op	\reg, \mem
.endif
.endm

.macro VMOV evex, w, a, i, load, mem:vararg
.if \evex && \w == 64
	VMOV_OP	vmovdq\a\()64, %zmm\i, \load, \mem
.elseif \evex && \w == 32
	VMOV_OP	vmovdq\a\()64, %ymm\i, \load, \mem
.elseif \evex
	VMOV_OP	vmovdq\a\()64, %xmm\i, \load, \mem
.elseif \w == 32
	VMOV_OP	vmovdq\a, %ymm\i, \load, \mem
.else
	VMOV_OP	vmovdq\a, %xmm\i, \load, \mem
.endif
.endm

/*
 * One 64-byte line as four 16-byte moves (SSE2, baseline x86-64): LINE_LD
 * loads [base, base + 64) into xmm r0-r3; LINE_ST stores xmm r0-r3 there
 * with op (movdqu, or movntdq for a streaming store).
 */
.macro LINE_LD base, r0, r1, r2, r3
	movdqu	(\base), %xmm\r0
	movdqu	16(\base), %xmm\r1
	movdqu	32(\base), %xmm\r2
	movdqu	48(\base), %xmm\r3
.endm
.macro LINE_ST op, base, r0, r1, r2, r3
	\op	%xmm\r0, (\base)
	\op	%xmm\r1, 16(\base)
	\op	%xmm\r2, 32(\base)
	\op	%xmm\r3, 48(\base)
.endm
