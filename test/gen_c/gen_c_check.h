/* test/gen_c/gen_c_check.h — the check counter of the gen-c test programs
 * (test/gen_c/test_gen_c_*.c, test/test_golden_corpus_gen_c.c): plain
 * executables without cmocka, since they link only the generated code and
 * libdesert. CHECK counts every check, and a failed one prints its place
 * and message and counts as a failure; each program reports the totals
 * itself. Include once per program.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TEST_GEN_C_CHECK_H
#define DESERT_TEST_GEN_C_CHECK_H

#include <stddef.h>
#include <stdio.h>

static int failures;
static size_t checks;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    checks++;                                              \
    if (!(cond)) {                                         \
      failures++;                                          \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                        \
      fputc('\n', stderr);                                 \
    }                                                      \
  } while (0)

#endif
