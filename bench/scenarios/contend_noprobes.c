// SPDX-License-Identifier: MIT
/*
 * scenarios/contend_noprobes.c - contend's library subjects once more,
 * against the bench's copy of the library's probed code built without its
 * static probes: what the probes cost when nobody traces, measured in one
 * run beside the library's own build.
 *
 * The library (libhotline.a, which the bench links) carries the static
 * probes (src/probes.h, docs/trace.md) where HOTLINE_PROBES is on. The
 * bench compiles src/lockref.c, src/qspinlock.c, src/refcount.c and
 * src/rcuref.c a second time with the library's flags but without
 * HOTLINE_PROBES, their functions renamed hlnp_* (baselines/
 * library_noprobes.h, forced in first: bench/CMakeLists.txt). This file
 * includes that header before any other, so the operations below
 * (contend_loop.h's, the same source as contend.c's subjects) call the
 * copy: hl_lockref_get is hlnp_lockref_get here, and the inline
 * hl_qspin_lock's slow path hlnp__qspin_lock_slow.
 *
 * The subjects (contend.c's table, run only when --subjects names them)
 * are the library's, each with "_noprobes" added to its name. The
 * refcount and rcuref ones run the same inline fast paths as their twins
 * (the headers never see the probes; only their out-of-line reports,
 * never reached here, differ): their ratio is the floor of what two copies
 * of one loop differ by.
 */
#include "../baselines/library_noprobes.h"

#include "contend_loop.h"

#if defined(HOTLINE_PROBES) && HOTLINE_PROBES
#error "contend_noprobes.c is the build without the library's probes"
#endif

/* contend_run_<name>_noprobes: contend's loop over this build's operations. */
#define NOPROBES_RUN(name, get, put, check)                                                        \
	void contend_run_##name##_noprobes(struct bench_worker *w)                                 \
	{                                                                                          \
		ct_loop(w, get, put, check);                                                       \
	}

NOPROBES_RUN(lockref_lib, lib_get, lib_put, lockref_check)
NOPROBES_RUN(lockref_get_not_dead, gnd_get, gnd_put, lockref_check)
NOPROBES_RUN(lockref_spinlock_only, spinlock_only_get, spinlock_only_put, lockref_check)
NOPROBES_RUN(qspinlock, qspin_get, qspin_put, qspin_check)
NOPROBES_RUN(refcount, refcount_get, refcount_put, refcount_check)
NOPROBES_RUN(refcount_inc_not_zero, inz_get, refcount_put, refcount_check)
NOPROBES_RUN(rcuref, rcuref_get, rcuref_put, rcuref_check)

/* The copy's retry limit (its own, read from HOTLINE_LOCKREF_RETRIES as the library's). */
unsigned int contend_noprobes_retry_limit(void)
{
	return hl_lockref_retry_limit();
}
