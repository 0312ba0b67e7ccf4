/* src/base/assert.c — the failure path of DESERT_ASSERT (base/assert.h): the
 * one place the library prints or aborts, and only in builds with
 * assertions, where a failed one means a library bug.
 * SPDX-License-Identifier: MIT */
#include "base/assert.h"

#if defined(DESERT_ENABLE_ASSERTS) && DESERT_ENABLE_ASSERTS
#include <stdio.h>
#include <stdlib.h>

void desert_assert_fail(const char *expr, const char *file, int line) {
  fprintf(stderr, "desert: %s:%d: assertion failed: %s\n", file, line, expr);
  fflush(stderr);
  abort();
}
#endif
