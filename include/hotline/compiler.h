/* SPDX-License-Identifier: MIT */
/*
 * hotline/compiler.h - the few compiler words every hotline header uses.
 *
 * Included by the other public headers; nothing here is needed by callers.
 * Kept separate so that each primitive's header stays about the primitive.
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
 * hl_acquire_after_rmw(obj): acquire ordering after a read-modify-write of
 * the atomic *obj that decided we need it (a count reaching zero). A fence
 * normally; under ThreadSanitizer an acquire load of the same object, which
 * reads our RMW (the tail of every earlier release sequence on it) and so
 * gives the same happens-before in a form TSan understands.
 */
#ifdef HL_TSAN
#define hl_acquire_after_rmw(obj) ((void)atomic_load_explicit((obj), memory_order_acquire))
#else
#define hl_acquire_after_rmw(obj) atomic_thread_fence(memory_order_acquire)
#endif

#endif /* HOTLINE_COMPILER_H */
