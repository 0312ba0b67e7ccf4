/* src/base/assert.h — DESERT_ASSERT, the library's internal assertions: an
 * invariant that only a library bug can break, checked when the build
 * defines DESERT_ENABLE_ASSERTS (the CMake option of that name, ON in the
 * dev, ci and asan presets) and compiled to nothing otherwise. Anything a
 * caller or an input can cause is a status, never an assertion
 * (CONTRIBUTING.md, "Assertions and statuses").
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BASE_ASSERT_H
#define DESERT_BASE_ASSERT_H

/* Prints "desert: file:line: assertion failed: expr" to stderr and aborts.
 * Defined only in builds with assertions (src/base/assert.c). */
__attribute__((noreturn, cold)) void desert_assert_fail(const char *expr, const char *file,
                                                        int line);

#if defined(DESERT_ENABLE_ASSERTS) && DESERT_ENABLE_ASSERTS
#define DESERT_ASSERT(c) \
  (__builtin_expect(!!(c), 1) ? (void)0 : desert_assert_fail(#c, __FILE__, __LINE__))
#else
/* sizeof: the expression is still type-checked and the variables in it
 * count as used (no warning for a local only an assertion reads), but it
 * is never evaluated, so it costs nothing and has no side effects. */
#define DESERT_ASSERT(c) ((void)sizeof(!(c)))
#endif

#endif
