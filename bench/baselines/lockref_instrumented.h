/* SPDX-License-Identifier: MIT */
/*
 * baselines/lockref_instrumented.h - HL_LOCKREF_INSTRUMENT for the bench's
 * second compile of src/lockref.c (see lockref_probe.h for what it is).
 *
 * Included by that one translation unit only, before <hotline/lockref.h>:
 * the renames below therefore apply to the header's declarations as well
 * as to the definitions in lockref.c. It also defines the per-thread
 * probe, which is why no other file may include it.
 */
#ifndef HOTLINE_BENCH_LOCKREF_INSTRUMENTED_H
#define HOTLINE_BENCH_LOCKREF_INSTRUMENTED_H

#define hl_lockref_init		   hlb_lockref_init
#define hl_lockref_get		   hlb_lockref_get
#define hl_lockref_get_not_zero	   hlb_lockref_get_not_zero
#define hl_lockref_get_not_dead	   hlb_lockref_get_not_dead
#define hl_lockref_put_return	   hlb_lockref_put_return
#define hl_lockref_put_or_lock	   hlb_lockref_put_or_lock
#define hl_lockref_mark_dead	   hlb_lockref_mark_dead
#define hl_lockref_is_dead	   hlb_lockref_is_dead
#define hl_lockref_count	   hlb_lockref_count
#define hl_lockref_set_count	   hlb_lockref_set_count
#define hl_lockref_set_retry_limit hlb_lockref_set_retry_limit
#define hl_lockref_retry_limit	   hlb_lockref_retry_limit

#include "lockref_probe.h"

_Thread_local struct lockref_probe lockref_probe;

#define HL_LR_HOOK_SUCCESS(tries)  lockref_probe_success(tries)
#define HL_LR_HOOK_FAILED(tries, limit) lockref_probe_failed(tries, limit)
#define HL_LR_HOOK_FALLBACK(tries) lockref_probe_fallback(tries)

#endif /* HOTLINE_BENCH_LOCKREF_INSTRUMENTED_H */
