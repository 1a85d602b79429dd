/* SPDX-License-Identifier: MIT */
/*
 * arch/zero_asm.h - the assembler macros both architectures' zero.S use:
 * function framing and hl_try_zero's exception table. Included (through the
 * C preprocessor) by arch/<arch>/zero.S; GNU as syntax that both x86-64 and
 * arm64 accept (`%function`, `%progbits`: `@` starts a comment on arm64).
 *
 * The table lives in .rodata.hl_zero_extable between the labels
 * hl__zero_extable_start and hl__zero_extable_end (ZERO_EXTABLE_BEGIN and
 * ZERO_EXTABLE_FINISH, at the top and bottom of the file); each entry is a
 * range of instructions and its fixup as 32-bit offsets from the entry
 * itself, and its kind (arch.h, struct hl_zero_extable), so the table needs
 * no relocation. hl_try_copy's variants (copy.S) add their entries to the
 * same table: one handler, one search.
 */

/* Assembler, not C: clang-format must leave it alone. */
/* clang-format off */

/*
 * EXTABLE from, to, fixup[, kind]: faults at addresses in [from, to)
 * continue at fixup; kind (arch.h, enum hl_extable_kind) says which
 * registers hold the range the code works on: 0 hl_try_zero's, 1
 * hl_try_copy's, 2 hl_try_load64's.
 */
.macro EXTABLE from, to, fixup, kind=0
	.pushsection .rodata.hl_zero_extable, "a"
	.balign 4
	.long \from - ., \to - ., \fixup - ., \kind
	.popsection
.endm

/*
 * XT from, to, fixup: EXTABLE, in the hl_try_zero copy of a variant only
 * (the file sets .Ltry_copy to 0 or 1 around each copy).
 */
.macro XT from, to, fixup
.if .Ltry_copy
	EXTABLE \from, \to, \fixup, 0
.endif
.endm

/*
 * FUNC name[, public[, skip]]: start a function, hidden unless exported,
 * on a 64-byte boundary, or skip bytes after one (nops, never run).
 */
.macro FUNC name, vis=hidden, skip=0
	.globl \name
.ifc \vis, hidden
	.hidden \name
.endif
	.type \name, %function
	.balign 64
.if \skip
	.nops \skip
.endif
\name:
.endm

.macro ENDFUNC name
	.size \name, . - \name
.endm

/* ZERO_TABLE_LABEL name: a hidden label in the table's section. */
.macro ZERO_TABLE_LABEL name
	.pushsection .rodata.hl_zero_extable, "a"
	.balign 4
	.globl \name
	.hidden \name
\name:
	.popsection
.endm

.macro ZERO_EXTABLE_BEGIN
	ZERO_TABLE_LABEL hl__zero_extable_start
.endm

/* The end of the table, and a stack that is not executable. */
.macro ZERO_EXTABLE_FINISH
	ZERO_TABLE_LABEL hl__zero_extable_end
	.section .note.GNU-stack, "", %progbits
.endm
