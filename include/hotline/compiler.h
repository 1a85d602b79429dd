/* SPDX-License-Identifier: MIT */
/*
 * hotline/compiler.h - the few compiler words every hotline header uses.
 *
 * Included by the other public headers; nothing here is needed by callers.
 * Kept separate so that each primitive's header stays about the primitive.
 * It is also where C and C++ part ways (the atomics, below): every header
 * works from C++17 on with GCC and Clang, with the layout C gives it.
 */
#ifndef HOTLINE_COMPILER_H
#define HOTLINE_COMPILER_H

#if defined(__GNUC__) || defined(__clang__)
#define hl_likely(x)   __builtin_expect(!!(x), 1)
#define hl_unlikely(x) __builtin_expect(!!(x), 0)
/* Exported from libhotline.so; everything else in the library is hidden. */
#define HL_API __attribute__((visibility("default")))
/* A rare path: placed out of line, in .text.unlikely, away from fast paths. */
#define HL_COLD __attribute__((cold, noinline))
#else
#define hl_likely(x)   (x)
#define hl_unlikely(x) (x)
#define HL_API
#define HL_COLD
#endif

/*
 * HL_TSAN: built with ThreadSanitizer, which does not model standalone
 * fences; the few places that use one take an equivalent TSan can see.
 */
#if defined(__SANITIZE_THREAD__)
#define HL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HL_TSAN 1
#endif
#endif

/*
 * HL_VERIFY: built for the GenMC model checker (make verify; see
 * docs/verification.md), never by users. GenMC runs LLVM IR under a memory
 * model and has no inline assembly nor mixed-size accesses, so the headers
 * take their portable C paths, as under ThreadSanitizer.
 */

/*
 * Atomics, in C and in C++: where the C++ mechanism lives.
 *
 * The words hotline's inline functions touch (hl_refcount_t, hl_qspinlock_t,
 * struct hl_lockref) are declared with HL_ATOMIC(T) and accessed only
 * through the hl__atomic_*() words below, whose ordering argument is one of
 * relaxed, acquire, release.
 *
 *  - C: HL_ATOMIC(T) is _Atomic(T), the type the headers always had
 *    (_Atomic(int) is atomic_int), and hl__atomic_*() are <stdatomic.h>'s
 *    atomic_*_explicit(): C users see no difference.
 *  - C++ (GCC or Clang; C++17 and later): HL_ATOMIC(T) is plain T and
 *    hl__atomic_*() are the compilers' __atomic builtins, which <stdatomic.h>
 *    is made of in GCC and which give the same instructions in Clang. Not
 *    std::atomic<T>: from C++20 on its default constructor is not trivial,
 *    which would delete struct hl_lockref's (its lock shares a union with
 *    the whole word) and make the types unlike C's aggregates. Plain T has
 *    _Atomic T's size and alignment for these types on the ABIs hotline
 *    supports (x86-64, aarch64); tests/cxx checks every size and offset
 *    against what the C compiler computes. The members are hotline's: use
 *    the functions, never a plain access.
 *
 * HL_ALIGNAS(n) is _Alignas(n) in C and alignas(n) in C++. The inline
 * functions' casts are HL__CAST (a value conversion), HL__PUN (a pointer to
 * another type) and HL__UNCONST: C casts in C, and in C++ the named casts,
 * so that the headers stay quiet under -Wold-style-cast and -Wcast-qual.
 */
#ifdef __cplusplus
#if !defined(__GNUC__) && !defined(__clang__)
#error "hotline's headers need GCC or Clang (their __atomic builtins) in C++"
#endif
#define HL_ATOMIC(T)		       T
#define HL_ALIGNAS(n)		       alignas(n)
#define HL__MO_relaxed		       __ATOMIC_RELAXED
#define HL__MO_acquire		       __ATOMIC_ACQUIRE
#define HL__MO_release		       __ATOMIC_RELEASE
#define hl__atomic_load(p, mo)	       __atomic_load_n((p), HL__MO_##mo)
#define hl__atomic_store(p, v, mo)     __atomic_store_n((p), (v), HL__MO_##mo)
#define hl__atomic_fetch_add(p, v, mo) __atomic_fetch_add((p), (v), HL__MO_##mo)
#define hl__atomic_fetch_sub(p, v, mo) __atomic_fetch_sub((p), (v), HL__MO_##mo)
#define hl__atomic_fetch_and(p, v, mo) __atomic_fetch_and((p), (v), HL__MO_##mo)
/* cmpxchg(p, expected, desired, success order, failure order) */
#define hl__atomic_cmpxchg_strong(p, e, d, s, f)                                                   \
	__atomic_compare_exchange_n((p), (e), (d), false, HL__MO_##s, HL__MO_##f)
#define hl__atomic_cmpxchg_weak(p, e, d, s, f)                                                     \
	__atomic_compare_exchange_n((p), (e), (d), true, HL__MO_##s, HL__MO_##f)
#define hl__atomic_fence(mo) __atomic_thread_fence(HL__MO_##mo)
#define HL__CAST(T, x)	     static_cast<T>(x)
#define HL__PUN(T, x)	     reinterpret_cast<T>(x)
#define HL__UNCONST(T, x)    const_cast<T>(x)
#else
#include <stdatomic.h>
#define HL_ATOMIC(T)		       _Atomic(T)
#define HL_ALIGNAS(n)		       _Alignas(n)
#define hl__atomic_load(p, mo)	       atomic_load_explicit((p), memory_order_##mo)
#define hl__atomic_store(p, v, mo)     atomic_store_explicit((p), (v), memory_order_##mo)
#define hl__atomic_fetch_add(p, v, mo) atomic_fetch_add_explicit((p), (v), memory_order_##mo)
#define hl__atomic_fetch_sub(p, v, mo) atomic_fetch_sub_explicit((p), (v), memory_order_##mo)
#define hl__atomic_fetch_and(p, v, mo) atomic_fetch_and_explicit((p), (v), memory_order_##mo)
#define hl__atomic_cmpxchg_strong(p, e, d, s, f)                                                   \
	atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_##s, memory_order_##f)
#define hl__atomic_cmpxchg_weak(p, e, d, s, f)                                                     \
	atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_##s, memory_order_##f)
#define hl__atomic_fence(mo) atomic_thread_fence(memory_order_##mo)
#define HL__CAST(T, x)	     ((T)(x))
#define HL__PUN(T, x)	     ((T)(x))
#define HL__UNCONST(T, x)    ((T)(x))
#endif

/*
 * hl_acquire_after_rmw(obj): acquire ordering after a read-modify-write of
 * the atomic *obj that decided we need it (a count reaching zero). A fence
 * normally; under ThreadSanitizer an acquire load of the same object, which
 * reads our RMW (the tail of every earlier release sequence on it) and so
 * gives the same happens-before in a form TSan understands.
 */
#ifdef HL_TSAN
#define hl_acquire_after_rmw(obj) ((void)hl__atomic_load((obj), acquire))
#else
#define hl_acquire_after_rmw(obj) hl__atomic_fence(acquire)
#endif

#endif /* HOTLINE_COMPILER_H */
