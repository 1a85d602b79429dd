/* SPDX-License-Identifier: MIT */
/*
 * baselines/library_noprobes.h - the names of the bench's second copy of
 * the library's probed code, compiled without its static probes.
 *
 * The bench compiles src/lockref.c, src/qspinlock.c, src/refcount.c and
 * src/rcuref.c a second time, as the library is compiled but without
 * HOTLINE_PROBES (bench/CMakeLists.txt, target hotline_bench_noprobes),
 * with this header forced in first (-include): every function they
 * define, hl_* and hl__*, is renamed hlnp_* / hlnp__*, so that the copy
 * links into the bench beside libhotline.a. scenarios/contend_noprobes.c
 * includes it before any header too, so that the inline fast paths it
 * compiles (<hotline/qspinlock.h>'s hl_qspin_lock, the refcount's and
 * rcuref's) call this copy's slow paths. contend's *_noprobes subjects
 * (bench/README.md, contend) run it beside the library's own build, in one
 * run: what the probes cost when nobody traces.
 *
 * A name missing here is caught by the link: the library's object that
 * defines it is pulled in too, and the two definitions collide.
 */
#ifndef HOTLINE_BENCH_LIBRARY_NOPROBES_H
#define HOTLINE_BENCH_LIBRARY_NOPROBES_H

/* src/lockref.c */
#define hl_lockref_init		   hlnp_lockref_init
#define hl_lockref_get		   hlnp_lockref_get
#define hl_lockref_get_not_zero	   hlnp_lockref_get_not_zero
#define hl_lockref_get_not_dead	   hlnp_lockref_get_not_dead
#define hl_lockref_put_return	   hlnp_lockref_put_return
#define hl_lockref_put_or_lock	   hlnp_lockref_put_or_lock
#define hl_lockref_mark_dead	   hlnp_lockref_mark_dead
#define hl_lockref_is_dead	   hlnp_lockref_is_dead
#define hl_lockref_count	   hlnp_lockref_count
#define hl_lockref_set_count	   hlnp_lockref_set_count
#define hl_lockref_set_retry_limit hlnp_lockref_set_retry_limit
#define hl_lockref_retry_limit	   hlnp_lockref_retry_limit

/* src/qspinlock.c */
#define hl__qspin_lock_slow hlnp__qspin_lock_slow

/* src/refcount.c */
#define hl__refcount_default_report    hlnp__refcount_default_report
#define hl__refcount_report	       hlnp__refcount_report
#define hl__refcount_saturate	       hlnp__refcount_saturate
#define hl__refcount_sub_and_test_uaf  hlnp__refcount_sub_and_test_uaf
#define hl_refcount_dec_and_lock       hlnp_refcount_dec_and_lock
#define hl_refcount_dec_and_mutex_lock hlnp_refcount_dec_and_mutex_lock
#define hl_refcount_dec_not_one	       hlnp_refcount_dec_not_one
#define hl_refcount_set_handler	       hlnp_refcount_set_handler

/* src/rcuref.c */
#define hl__rcuref_get_negative hlnp__rcuref_get_negative
#define hl__rcuref_get_slow	hlnp__rcuref_get_slow
#define hl__rcuref_put_negative hlnp__rcuref_put_negative
#define hl__rcuref_put_slow	hlnp__rcuref_put_slow
#define hl_rcuref_set_handler	hlnp_rcuref_set_handler

#endif /* HOTLINE_BENCH_LIBRARY_NOPROBES_H */
