/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/relax_insn.h - the spin-wait instruction on x86-64: the
 * library's cpu_relax, PAUSE (on Zen and recent Intel cores tens to over a
 * hundred cycles), and no other: PAUSE is settled here, so contend has no
 * subjects that compare it with others. Included via arch/arch.h.
 */
#ifndef HOTLINE_BENCH_ARCH_RELAX_INSN_H
#define HOTLINE_BENCH_ARCH_RELAX_INSN_H

#define BENCH_RELAX_LABEL    "pause"
#define BENCH_RELAX_VARIANTS 0

#endif /* HOTLINE_BENCH_ARCH_RELAX_INSN_H */
