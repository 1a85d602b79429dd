/* SPDX-License-Identifier: MIT */
/*
 * baselines/lockref_instrumented.h - HL_LOCKREF_INSTRUMENT for the bench's
 * further compiles of src/lockref.c (see lockref_probe.h for what they are).
 *
 * Included by those compiles of lockref.c only, before <hotline/lockref.h>:
 * the renames below therefore apply to the header's declarations as well
 * as to the definitions in lockref.c. The first (unsuffixed) copy also
 * defines the per-thread probe, which is why no other file may include it.
 */
#ifndef HOTLINE_BENCH_LOCKREF_INSTRUMENTED_H
#define HOTLINE_BENCH_LOCKREF_INSTRUMENTED_H

/*
 * HLB_LOCKREF_SUFFIX (e.g. _llsc): a further copy, compiled with other
 * atomics (bench/CMakeLists.txt), named hlb_lockref_*_llsc. Only the
 * unsuffixed copy defines the probe.
 */
#ifdef HLB_LOCKREF_SUFFIX
#define HLB_PASTE_(a, b) a##b
#define HLB_PASTE(a, b)	 HLB_PASTE_(a, b)
#define HLB_NAME(f)	 HLB_PASTE(hlb_lockref_##f, HLB_LOCKREF_SUFFIX)
#else
#define HLB_NAME(f) hlb_lockref_##f
#endif

#define hl_lockref_init		   HLB_NAME(init)
#define hl_lockref_get		   HLB_NAME(get)
#define hl_lockref_get_not_zero	   HLB_NAME(get_not_zero)
#define hl_lockref_get_not_dead	   HLB_NAME(get_not_dead)
#define hl_lockref_put_return	   HLB_NAME(put_return)
#define hl_lockref_put_or_lock	   HLB_NAME(put_or_lock)
#define hl_lockref_mark_dead	   HLB_NAME(mark_dead)
#define hl_lockref_is_dead	   HLB_NAME(is_dead)
#define hl_lockref_count	   HLB_NAME(count)
#define hl_lockref_set_count	   HLB_NAME(set_count)
#define hl_lockref_set_retry_limit HLB_NAME(set_retry_limit)
#define hl_lockref_retry_limit	   HLB_NAME(retry_limit)

#include "lockref_probe.h"

#ifndef HLB_LOCKREF_SUFFIX
_Thread_local struct lockref_probe lockref_probe;
#endif

#define HL_LR_HOOK_SUCCESS(tries)	lockref_probe_success(tries)
#define HL_LR_HOOK_FAILED(tries, limit) lockref_probe_failed(tries, limit)
#define HL_LR_HOOK_FALLBACK(tries)	lockref_probe_fallback(tries)

#endif /* HOTLINE_BENCH_LOCKREF_INSTRUMENTED_H */
