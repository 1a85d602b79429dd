/* SPDX-License-Identifier: MIT */
/*
 * zero_plan.h - hl_zero's thresholds: derived from a description of the
 * machine, then HOTLINE_ZERO_TUNABLES, each with where it came from.
 *
 * The derivation (hl__zero_derive) is a pure function of a struct
 * hl_zero_machine, so tests can run it on machines they describe; the
 * library fills the description for the machine it runs on
 * (hl__zero_machine_probe: CPUID, then sysfs, then sysconf). docs/zero.md
 * gives the rules and the measurements behind them.
 *
 * Internal to the library: hidden in libhotline.so, not in any public
 * header (the tests link the static library).
 */
#ifndef HOTLINE_SRC_ZERO_PLAN_H
#define HOTLINE_SRC_ZERO_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include <hotline/cpu.h>

enum hl_zero_isa { HL_ZERO_ISA_OTHER, HL_ZERO_ISA_X86_64, HL_ZERO_ISA_AARCH64 };
enum hl_zero_vendor { HL_ZERO_VENDOR_OTHER, HL_ZERO_VENDOR_INTEL, HL_ZERO_VENDOR_AMD };

/*
 * What the thresholds depend on. Cache sizes are in bytes, 0 when unknown;
 * l1d and l2 are one core's, l3 the instance this core uses (one chiplet's
 * on a many-chiplet part, when the source can say so), l3_sharing the
 * logical CPUs that share that instance (0: unknown). caches_from names
 * where the sizes came from ("CPUID leaf 4", "CPUID 0x8000001D", "sysfs",
 * "sysconf"; several joined by "+"), or NULL.
 */
struct hl_zero_machine {
	enum hl_zero_isa isa;
	enum hl_zero_vendor vendor;
	unsigned family, model;
	bool erms, fsrm, avx2, avx512; /* x86-64; avx512: F + VL, the avx512 variant */
	unsigned dczva_block;	       /* arm64: DC ZVA block in bytes, 0 if not usable */
	bool mops;		       /* arm64: FEAT_MOPS */
	size_t l1d, l2, l3;
	unsigned l3_sharing;
	char caches_from[48];
};

/* Where a threshold in force came from. */
enum hl_zero_source { HL_ZERO_DEFAULT, HL_ZERO_DERIVED, HL_ZERO_TUNABLE, HL_ZERO_UNUSED };

/* The sizes the plan switches at; SIZE_MAX: never. why: the reasoning, for humans. */
struct hl_zero_threshold {
	size_t value;
	enum hl_zero_source source;
	char why[128];
};

/*
 * vec_max: the largest size cleared by vector stores (x86-64) or plain
 * stores (arm64). rep_max: the largest cleared by rep stosb; beyond it,
 * streaming stores (x86-64). On arm64 both are where dc_zva starts.
 */
struct hl_zero_thresholds {
	struct hl_zero_threshold vec_max, rep_max;
	size_t vec_floor; /* the least vec_max the plan's code allows (arm64: 2 ZVA blocks - 1) */
};

/* The thresholds for machine m: a pure function (no CPUID, no files). */
void hl__zero_derive(const struct hl_zero_machine *m, struct hl_zero_thresholds *t);

/* The description of the machine this process runs on. */
void hl__zero_machine_probe(const struct hl_cpu *cpu, struct hl_zero_machine *m);

/*
 * The architecture's part of the probe (src/arch/<arch>/zero.c): cache
 * sizes from the CPU itself where it can say (x86-64: CPUID), else nothing.
 */
void hl_arch_zero_caches(struct hl_zero_machine *m);

/*
 * hl__zero_machine_sysfs - fill the caches m does not know yet from the
 * cache directories under dir (/sys/devices/system/cpu/cpu0/cache in the
 * library; tests pass their own). Returns whether it found any.
 */
bool hl__zero_machine_sysfs(struct hl_zero_machine *m, const char *dir);

/*
 * hl__zero_tunables - apply HOTLINE_ZERO_TUNABLES' value to t:
 * "name=size[:name=size...]", names vec_max and rep_max, sizes decimal
 * digits with an optional K, M or G (powers of 1024), at least 1, or "max"
 * (SIZE_MAX: never switch), vec_max at least t->vec_floor and at most
 * rep_max. Returns
 * true and updates t (each given threshold's source becomes tunable); or
 * false, t unchanged, with what is wrong in err (one line, no newline).
 */
bool hl__zero_tunables(const char *value, struct hl_zero_thresholds *t, char *err, size_t err_size);

/* "vec_max=262144 (derived: ...); rep_max=..." into buf, like snprintf. */
int hl__zero_sources(const struct hl_zero_thresholds *t, char *buf, size_t size);

#endif /* HOTLINE_SRC_ZERO_PLAN_H */
