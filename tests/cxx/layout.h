// SPDX-License-Identifier: MIT
/*
 * layout.h - the sizes, alignments and offsets of every public type, as one
 * list that layout.c evaluates in C and test_cxx.cpp in C++, so that the
 * C++ test compares each value with what the C compiler computed.
 */
#ifndef HL_TEST_CXX_LAYOUT_H
#define HL_TEST_CXX_LAYOUT_H

#include <stddef.h>

#include <hotline/cpu.h>
#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/rcuref.h>
#include <hotline/refcount.h>
#include <hotline/zero.h>

#ifdef __cplusplus
#define HL_T_ALIGNOF(T) alignof(T)
#else
#define HL_T_ALIGNOF(T) _Alignof(T)
#endif

/* X(EXPRESSION) for each value; the expression's text is its name. */
#define HL_LAYOUT_LIST(X)                                                                          \
	X(sizeof(bool))                                                                            \
	X(sizeof(hl_refcount_t))                                                                   \
	X(HL_T_ALIGNOF(hl_refcount_t))                                                             \
	X(offsetof(hl_refcount_t, refs))                                                           \
	X(sizeof(enum hl_refcount_saturation))                                                     \
	X(sizeof(hl_refcount_handler_t))                                                           \
	X(sizeof(hl_rcuref_t))                                                                     \
	X(HL_T_ALIGNOF(hl_rcuref_t))                                                               \
	X(offsetof(hl_rcuref_t, refcnt))                                                           \
	X(sizeof(hl_rcuref_handler_t))                                                             \
	X(HL_RCUREF_GET_OVF)                                                                       \
	X(HL_RCUREF_PUT_UAF)                                                                       \
	X(HL_RCUREF_SATURATED)                                                                     \
	X(HL_RCUREF_DEAD)                                                                          \
	X(sizeof(hl_qspinlock_t))                                                                  \
	X(HL_T_ALIGNOF(hl_qspinlock_t))                                                            \
	X(offsetof(hl_qspinlock_t, val))                                                           \
	X(sizeof(struct hl_lockref))                                                               \
	X(HL_T_ALIGNOF(struct hl_lockref))                                                         \
	X(offsetof(struct hl_lockref, lock_count))                                                 \
	X(offsetof(struct hl_lockref, lock))                                                       \
	X(offsetof(struct hl_lockref, count))                                                      \
	X(sizeof(struct hl_cpu))                                                                   \
	X(HL_T_ALIGNOF(struct hl_cpu))                                                             \
	X(offsetof(struct hl_cpu, arch))                                                           \
	X(offsetof(struct hl_cpu, model))                                                          \
	X(offsetof(struct hl_cpu, erms))                                                           \
	X(offsetof(struct hl_cpu, fsrm))                                                           \
	X(offsetof(struct hl_cpu, fsrs))                                                           \
	X(offsetof(struct hl_cpu, avx2))                                                           \
	X(offsetof(struct hl_cpu, avx512f))                                                        \
	X(offsetof(struct hl_cpu, lse))                                                            \
	X(offsetof(struct hl_cpu, mops))                                                           \
	X(offsetof(struct hl_cpu, dczva_block))                                                    \
	X(offsetof(struct hl_cpu, cacheline))                                                      \
	X(offsetof(struct hl_cpu, rep_good))                                                       \
	X(offsetof(struct hl_cpu, fzrm))                                                           \
	X(offsetof(struct hl_cpu, avx512vl))                                                       \
	X(offsetof(struct hl_cpu, vendor))                                                         \
	X(offsetof(struct hl_cpu, family))                                                         \
	X(offsetof(struct hl_cpu, model_id))                                                       \
	X(offsetof(struct hl_cpu, stepping))                                                       \
	X(HL_REFCOUNT_SATURATED)                                                                   \
	X(HL_TRY_ZERO_HANDLER_STACK)                                                               \
	X(HL__LOCKREF_COUNT_SHIFT)

struct hl_layout_value {
	const char *name;
	long long value;
};

#ifdef __cplusplus
extern "C" {
#endif
/* layout.c: the list as the C compiler sees it, and its length. */
extern const struct hl_layout_value hl_c_layout[];
extern const size_t hl_c_layout_n;
#ifdef __cplusplus
}
#endif

#endif /* HL_TEST_CXX_LAYOUT_H */
