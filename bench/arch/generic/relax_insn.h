/* SPDX-License-Identifier: MIT */
/*
 * arch/generic/relax_insn.h - the spin-wait instruction where there is no
 * hint: none (the library's cpu_relax is only a compiler barrier), and no
 * other to compare. Included via arch/arch.h.
 */
#ifndef HOTLINE_BENCH_ARCH_RELAX_INSN_H
#define HOTLINE_BENCH_ARCH_RELAX_INSN_H

#define BENCH_RELAX_LABEL    "nothing"
#define BENCH_RELAX_VARIANTS 0

#endif /* HOTLINE_BENCH_ARCH_RELAX_INSN_H */
