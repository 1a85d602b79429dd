/* SPDX-License-Identifier: MIT */
/*
 * probes.h - the library's static probes (USDT, provider "hotline"), on
 * slow paths only, for bpftrace, perf and SystemTap (docs/trace.md lists
 * every probe and its arguments).
 *
 * A probe is one nop in the code and a note in the ELF file (<sys/sdt.h>,
 * Debian's systemtap-sdt-dev): nothing runs when nobody traces. The CMake
 * option HOTLINE_PROBES (on where <sys/sdt.h> is found) defines
 * HOTLINE_PROBES to 1; without it every probe compiles to nothing.
 *
 *   HL_PROBE(name, args...)    a probe with up to 6 integer or pointer args
 *   HL_PROBE_ENABLED(name)     true while a tracer is attached to the probe:
 *                              guards arguments that cost something to
 *                              compute. Only in a file that defines
 *                              HL_PROBE_SEMAPHORES before including this
 *                              header and declares each of its probes'
 *                              semaphores with HL_PROBE_SEMAPHORE(name).
 *
 * Internal to the library: not installed, not included by any public header
 * (the inline fast paths in include/hotline/ never see it).
 */
#ifndef HOTLINE_SRC_PROBES_H
#define HOTLINE_SRC_PROBES_H

#if defined(HOTLINE_PROBES) && HOTLINE_PROBES

#ifdef HL_PROBE_SEMAPHORES
#define _SDT_HAS_SEMAPHORES 1
#endif
#define SDT_USE_VARIADIC 1
/*
 * Clang reads sdt.h's default constraint ("nor") as "put it in memory":
 * every argument would be stored to the stack, and the frame set up on the
 * fast paths too. Registers or constants only.
 */
#ifdef __clang__
#define STAP_SDT_ARG_CONSTRAINT nr
#endif
#include <sys/sdt.h>

#define HL_PROBE(...) STAP_PROBEV(hotline, __VA_ARGS__)
#define HL_PROBE_SEMAPHORE(name)                                                                   \
	__extension__ unsigned short hotline_##name##_semaphore                                    \
		__attribute__((unused, section(".probes")))
#define HL_PROBE_ENABLED(name) __builtin_expect(hotline_##name##_semaphore != 0, 0)

#else

#define HL_PROBE(...)		 ((void)0)
#define HL_PROBE_SEMAPHORE(name) extern int hl__probe_semaphore_unused_##name
#define HL_PROBE_ENABLED(name)	 0

#endif

#endif /* HOTLINE_SRC_PROBES_H */
