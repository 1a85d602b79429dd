/* SPDX-License-Identifier: MIT */
/*
 * hotline/cpu.h - what the CPU offers, as hotline's variants need to know it.
 *
 * hl_cpu() reads the processor once (CPUID on x86-64; HWCAP, DCZID_EL0 and
 * CTR_EL0 on arm64) and returns the same immutable description for the rest
 * of the process. The library uses it to pick variants (like the kernel's
 * alternatives or a glibc ifunc); the benchmarks record it with every result.
 *
 * Fields that do not apply to the running architecture are false or 0.
 */
#ifndef HOTLINE_CPU_H
#define HOTLINE_CPU_H

#include <stdbool.h>
#include <stddef.h>

#include <hotline/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hl_cpu {
	const char *arch;  /* "x86_64" or "aarch64" */
	const char *model; /* brand string (x86) or "implementer:part" name (arm64) */

	/* x86-64: string instructions and vector width */
	bool erms;    /* Enhanced REP MOVSB/STOSB */
	bool fsrm;    /* Fast Short REP MOVSB */
	bool fsrs;    /* Fast Short REP STOSB */
	bool avx2;    /* AVX2, and the OS saves YMM state */
	bool avx512f; /* AVX-512 Foundation, and the OS saves ZMM state */

	/* arm64 */
	bool lse;	      /* LSE atomics (LDADD, CAS, SWP): HWCAP_ATOMICS */
	bool mops;	      /* FEAT_MOPS memory copy/set instructions (SETP/SETM/SETE) */
	unsigned dczva_block; /* bytes cleared by DC ZVA; 0 if prohibited or absent */

	unsigned cacheline; /* L1 data cache line size in bytes */

	/* Added beyond the design's minimum; names follow the kernel's flags. */
	bool rep_good;	    /* REP STOSQ/MOVSQ are fast (the kernel's X86_FEATURE_REP_GOOD) */
	bool fzrm;	    /* Fast Zero-length REP MOVSB */
	bool avx512vl;	    /* AVX-512 on 128/256-bit registers (EVEX xmm16-31, ymm16-31) */
	const char *vendor; /* "GenuineIntel", "AuthenticAMD", "arm", ... or "unknown" */
	unsigned family, model_id, stepping; /* x86 display family/model; arm64 MIDR fields */
	bool avx512bw; /* AVX-512 byte and word instructions (byte-masked stores) */
};

/*
 * hl_cpu - describe the CPU this process runs on.
 *
 * Returns a pointer to a static description, filled on the first call and
 * never changed afterwards; safe to call from any thread at any time.
 * Never returns NULL.
 */
#ifdef __cplusplus
/* As stat() and struct stat: C++ code names the type "struct hl_cpu". */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#endif
HL_API const struct hl_cpu *hl_cpu(void);
#ifdef __cplusplus
#pragma GCC diagnostic pop
#endif

/*
 * hl_cpu_flags - the names of the features hl_cpu() found, for logs.
 *
 * Writes the names of the true boolean fields ("erms fsrm avx2 ...")
 * separated by single spaces into buf (at most size bytes, always
 * NUL-terminated when size > 0) and returns the length the full string
 * needs, like snprintf.
 */
HL_API int hl_cpu_flags(char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* HOTLINE_CPU_H */
