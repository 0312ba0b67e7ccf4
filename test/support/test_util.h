/* test/support/test_util.h — shared helpers for the cmocka suites: seeded
 * RNG, hex helpers and byte-diff assertions, the per-ISA test runner, the
 * DESERT_TEST_EXPECT_ISA / DESERT_TEST_REQUIRE_ISAS checks, and a counting
 * allocator with failure injection.
 * SPDX-License-Identifier: MIT
 *
 * Environment variables understood here:
 *   DESERT_TEST_SEED=<n>          replay a random run (decimal or 0x hex);
 *                                 the seed in use is printed once per process.
 *   DESERT_TEST_EXPECT_ISA=<isa>  desert_test_check_expected_isa() exits 1
 *                                 unless that ISA is the active process table
 *                                 chosen through DESERT_FORCE_ISA (APPLIED).
 *   DESERT_TEST_REQUIRE_ISAS=a,b  every listed table (scalar, avx2, avx512,
 *                                 avx512emu, neon) must run: a skipped one
 *                                 is a failure. Unset: every table this
 *                                 machine can run plus the emulated ones of
 *                                 the build (desert_test_required_isas).
 *   DESERT_TEST_FILTER=<pattern>  run only the tests whose name matches
 *                                 (cmocka_set_test_filter: '*' and '?').
 *   DESERT_TEST_EXHAUSTIVE=1|0    run the largest exhaustive domains and
 *                                 sweeps in full (1) or reduced (0) for every
 *                                 table, whatever the build (see
 *                                 desert_test_full_domain, _sweep_pos); e.g.
 *                                 0 for slow emulators such as qemu-user.
 */
#ifndef DESERT_TEST_UTIL_H
#define DESERT_TEST_UTIL_H

/* cmocka.h needs these first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "desert/common.h"
#include "desert/kernels.h"
#include "base/kernels.h"

/* ---- random numbers ---------------------------------------------------------
 * xoshiro256** seeded through splitmix64. Deterministic for a given seed on
 * every platform. */
typedef struct desert_rng {
  uint64_t s[4];
} desert_rng;

/* The process seed: DESERT_TEST_SEED if set, else a fresh one. Printed to
 * stderr on first use ("replay with DESERT_TEST_SEED=..."). */
uint64_t desert_test_seed(void);
/* Seeds r from seed (any value, 0 included). */
void desert_rng_init(desert_rng *r, uint64_t seed);
/* Seeds r from the process seed mixed with `stream`, so each test gets its
 * own reproducible sequence independent of test order. */
void desert_rng_init_test(desert_rng *r, uint64_t stream);
uint64_t desert_rng_next(desert_rng *r);
/* Uniform in [0, bound); bound > 0. */
uint32_t desert_rng_below(desert_rng *r, uint32_t bound);
/* Uniform in [lo, hi] (inclusive); lo <= hi. */
size_t desert_rng_range(desert_rng *r, size_t lo, size_t hi);
void desert_rng_fill(desert_rng *r, void *buf, size_t len);

/* ---- files ---------------------------------------------------------------------- */

/* The whole file at path in a malloc'd buffer with a NUL after its len
 * bytes (so text files are C strings); NULL when it cannot be opened or
 * read, or memory runs out. The caller frees it. */
char *desert_test_read_file(const char *path, size_t *len);

/* ---- hex ----------------------------------------------------------------------- */

/* Parses hex digits ("0a 68 69", "0A6869"; whitespace ignored) into out.
 * Returns the byte count, or SIZE_MAX for a bad digit, an odd digit count or
 * more than cap bytes. */
size_t desert_hex_decode(const char *hex, uint8_t *out, size_t cap);
/* Writes "0a 68 69" (lowercase, space separated) into out, always
 * NUL-terminated when cap > 0; a text that does not fit ends in "...".
 * Returns out. 3*len+1 bytes always suffice. */
char *desert_hex_encode(const void *data, size_t len, char *out, size_t cap);

/* Fails the current cmocka test (at the caller's file:line) unless the two
 * byte ranges are equal, printing the lengths, the first differing offset
 * and a hex window of both around it. */
void desert_assert_bytes_equal_at(const void *expected, size_t expected_len, const void *actual,
                                  size_t actual_len, const char *what, const char *file, int line);
#define desert_assert_bytes_equal(expected, expected_len, actual, actual_len)               \
  desert_assert_bytes_equal_at((expected), (expected_len), (actual), (actual_len), #actual, \
                               __FILE__, __LINE__)

/* ---- ISA iteration ------------------------------------------------------------
 * Kernel suites are written once and run for every runnable table:
 *
 *   static void test_x(void **state) {
 *     const desert_kernels *k = desert_test_kernels(state);
 *     ...
 *   }
 *   int main(void) {
 *     const struct CMUnitTest tests[] = {cmocka_unit_test(test_x), ...};
 *     return desert_test_run_per_isa("utf8", tests, DESERT_TEST_COUNT(tests)) == 0 ? 0 : 1;
 *   }
 *
 * Each ISA is one cmocka group named "<suite>[<isa>]" whose tests receive
 * the table as their state. Compiled-but-not-runnable and not-built ISAs are
 * printed as skipped; DESERT_TEST_REQUIRE_ISAS turns a skip into a failure.
 * The runner also calls desert_test_check_expected_isa(). */
#define DESERT_TEST_COUNT(tests) (sizeof(tests) / sizeof((tests)[0]))

/* The table a per-ISA test runs against. */
const desert_kernels *desert_test_kernels(void **state);
/* Returns the number of failed tests (0 = all passed), plus one per
 * required ISA that is missing. */
int desert_test_run_per_isa(const char *suite, const struct CMUnitTest *tests, size_t count);
/* 1 when the biggest exhaustive domains (e.g. all 2^24 three-byte strings)
 * should run in full for table k: always for scalar, for native SIMD tables
 * in optimised builds, for everything with DESERT_TEST_EXHAUSTIVE=1 (and
 * for nothing with DESERT_TEST_EXHAUSTIVE=0). In unoptimised builds SIMD
 * intrinsics cost ~10x more per byte, so suites use a documented classed
 * subset there to stay within seconds. */
int desert_test_full_domain(const desert_kernels *k);
/* Step for the middle part of boundary sweeps (positions near either end
 * are always all visited): 1 when desert_test_full_domain(k), 2 for native
 * SIMD tables in unoptimised builds, 3 for emulated ones. */
size_t desert_test_stride(const desert_kernels *k);
/* Whether a boundary sweep visits the item of sl units at position p of a
 * run of len units. Native tables in optimised builds (or anything with
 * DESERT_TEST_EXHAUSTIVE=1): every position. Otherwise (unoptimised builds,
 * where the oracle and SIMD intrinsics are slow, and emulated tables):
 * every position of runs up to 40 units and within 4 units of either end;
 * elsewhere the positions around 8- and 16-unit block edges (p mod 16 in
 * {0,1,7,8,13,14,15}; {0,15} for emulated tables). */
int desert_test_sweep_pos(const desert_kernels *k, size_t p, size_t sl, size_t len);
/* Room for every table desert_kernels_runnable() can list. */
#define DESERT_TEST_MAX_TABLES 8
/* desert_kernels_runnable() into out[0..max); returns how many. */
size_t desert_test_isas(const desert_kernels **out, size_t max);

/* When DESERT_TEST_EXPECT_ISA is set: exits 1 (after printing why) unless
 * desert_active_isa() is that ISA and the DESERT_FORCE_ISA outcome is
 * APPLIED. If the expected ISA is compiled in but this CPU cannot run it,
 * prints a skip note and exits 77 (ctest SKIP_RETURN_CODE), unless it is
 * listed in DESERT_TEST_REQUIRE_ISAS (then exits 1). No-op when unset. */
void desert_test_check_expected_isa(void);
/* The required tables: DESERT_TEST_REQUIRE_ISAS if set, else computed
 * for this machine without the library's CPU detection (the compiler
 * runtime's __builtin_cpu_supports, which checks XCR0 too): scalar, avx2
 * and avx512 when the CPU and OS support them and they are compiled in,
 * plus the emulated tables of this build (avx512emu on AVX2 hosts, neon
 * through SIMDe). Comma separated. */
const char *desert_test_required_isas(void);
/* Prints and counts every table of desert_test_required_isas() that the
 * per-ISA runner does not run here (unknown names count too). */
int desert_test_check_required_isas(void);

/* ---- counting allocator ----------------------------------------------------------
 * A desert_allocator that counts what the library does with it and can be
 * told to fail. Not thread-safe (one context per allocator).
 *
 *   desert_counting_allocator ca;
 *   desert_counting_allocator_init(&ca);
 *   opts.allocator = ca.allocator;              // by value
 *   ... use the library ...
 *   assert_int_equal(ca.live_blocks, 0);       // no leak
 *   assert_int_equal(ca.bad_frees, 0);         // sizes given to free matched
 *
 * desert_counting_allocator_fail_after(&ca, n): the next n allocations
 * succeed and every later one returns NULL (n = 0: fail from now on);
 * SIZE_MAX disables failures again. Every block carries a hidden header so
 * frees with a wrong size or a foreign pointer are detected (and counted in
 * bad_frees; a foreign pointer is not passed to free()). */
typedef struct desert_counting_allocator {
  desert_allocator allocator; /* alloc/free/opaque pointing at this struct */
  size_t allocs;              /* successful allocations */
  size_t frees;               /* frees of non-NULL pointers */
  size_t failed;              /* allocations refused by failure injection */
  size_t live_blocks;         /* allocs - frees */
  size_t live_bytes;
  size_t peak_bytes;   /* highest live_bytes */
  size_t total_bytes;  /* sum of all successful allocation sizes */
  size_t bad_frees;    /* free with a size different from alloc's, or a foreign pointer */
  size_t remaining_ok; /* allocations left before failures (SIZE_MAX: never fail) */
} desert_counting_allocator;

void desert_counting_allocator_init(desert_counting_allocator *a);
void desert_counting_allocator_fail_after(desert_counting_allocator *a, size_t n);

#endif /* DESERT_TEST_UTIL_H */
