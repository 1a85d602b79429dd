/* SPDX-License-Identifier: MIT */
/*
 * arch/asm.h - the assembler macros every assembler file of arch/<arch>/ uses:
 * function framing and the exception table of the fault-tolerant calls
 * (hl_try_zero, hl_try_copy, hl_try_load64). Included through the C
 * preprocessor; GNU as syntax that both x86-64 and arm64 accept
 * (`%function`, `%progbits`: `@` starts a comment on arm64).
 *
 * The table is the section hl_extable, which each file adds its entries
 * to and the linker gathers into one: it names its bounds
 * __start_hl_extable and __stop_hl_extable, because the section's name is
 * a C identifier. Each entry is a range of instructions and its fixup as
 * 32-bit offsets from the entry itself, and its kind (arch.h, struct
 * hl_extable), so the table needs no relocation: one table, one handler
 * (src/fault.c), one search (src/extable.c), whichever file an entry
 * comes from.
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
	.pushsection hl_extable, "a"
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
 * FUNC name[, public]: start a function, hidden unless exported, on a
 * 64-byte boundary.
 */
.macro FUNC name, vis=hidden
	.globl \name
.ifc \vis, hidden
	.hidden \name
.endif
	.type \name, %function
	.balign 64
\name:
.endm

.macro ENDFUNC name
	.size \name, . - \name
.endm

/* CONST8 name, value: a hidden 8-byte constant the C side reads (arch.h). */
.macro CONST8 name, value
	.pushsection .rodata
	.balign 8
	.globl \name
	.hidden \name
	.type \name, %object
	.size \name, 8
\name:
	.quad \value
	.popsection
.endm

/* The end of every file: a stack that is not executable. */
.macro ASM_FILE_END
	.section .note.GNU-stack, "", %progbits
.endm
