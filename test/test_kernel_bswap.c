/* test/test_kernel_bswap.c — bswap16/32/64 of every runnable kernel table
 * against the oracle: known vectors, every lane count 0..260, input/output
 * misalignment 0..63, in-place operation, NaN payloads, guard pages on
 * both sides of input and output, random differential, and the public
 * store/load big-endian wrappers.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guarded.h"
#include "oracle.h"
#include "test_util.h"

#define MAXN   260        /* lanes */
#define MAXB   (8 * 4096) /* bytes of the largest random case */
#define CANARY 16

static desert_guarded g_in_after, g_in_before, g_out_after, g_out_before;
_Alignas(64) static uint8_t g_src[64 + MAXB];
_Alignas(64) static uint8_t g_dst[64 + MAXB + 2 * CANARY];
static uint8_t g_exp[MAXB];

typedef void (*bswap_fn)(void *dst, const void *src, size_t n);

static bswap_fn pick(const desert_kernels *k, size_t width) {
  return width == 2 ? k->bswap16 : width == 4 ? k->bswap32 : k->bswap64;
}

static void guards_init(void) {
  if (g_in_after.map != NULL) return;
  if (desert_guarded_init(&g_in_after, MAXB, DESERT_GUARD_AFTER) != 0 ||
      desert_guarded_init(&g_in_before, MAXB, DESERT_GUARD_BEFORE) != 0 ||
      desert_guarded_init(&g_out_after, MAXB, DESERT_GUARD_AFTER) != 0 ||
      desert_guarded_init(&g_out_before, MAXB, DESERT_GUARD_BEFORE) != 0) {
    print_error("cannot map guard pages\n");
    fail();
  }
}

/* Swaps n lanes of data (n*width bytes) with the kernel: out of place at
 * the given misalignments with canaries around the output, then in place,
 * then (guards) with input and output touching guard pages. */
static void check(const desert_kernels *k, size_t width, const uint8_t *data, size_t n,
                  size_t in_mis, size_t out_mis, int guards, const char *file, int line) {
  const size_t bytes = n * width;
  const bswap_fn fn = pick(k, width);
  desert_oracle_bswap(g_exp, data, n, width);

  uint8_t *src = g_src + in_mis;
  memcpy(src, data, bytes);
  uint8_t *dst = g_dst + CANARY + out_mis;
  memset(dst - CANARY, 0xa7, bytes + 2 * CANARY);
  fn(dst, src, n);
  desert_assert_bytes_equal_at(g_exp, bytes, dst, bytes, "bswap output", file, line);
  desert_assert_bytes_equal_at(data, bytes, src, bytes, "bswap input (must be unchanged)", file,
                               line);
  for (size_t i = 0; i < CANARY; i++)
    if (dst[-1 - (ptrdiff_t)i] != 0xa7 || dst[bytes + i] != 0xa7) {
      print_error("[%s] bswap%zu(n=%zu) wrote outside its output\n", k->name, width * 8, n);
      _fail(file, line);
    }

  fn(src, src, n); /* in place */
  desert_assert_bytes_equal_at(g_exp, bytes, src, bytes, "bswap in-place output", file, line);

  if (!guards) return;
  const uint8_t *gin = (const uint8_t *)desert_guarded_place_copy(&g_in_after, data, bytes);
  uint8_t *gout = (uint8_t *)desert_guarded_place(&g_out_after, bytes);
  fn(gout, gin, n);
  desert_assert_bytes_equal_at(g_exp, bytes, gout, bytes, "bswap output (guard after)", file, line);
  gin = (const uint8_t *)desert_guarded_place_copy(&g_in_before, data, bytes);
  gout = (uint8_t *)desert_guarded_place(&g_out_before, bytes);
  fn(gout, gin, n);
  desert_assert_bytes_equal_at(g_exp, bytes, gout, bytes, "bswap output (guard before)", file,
                               line);
  uint8_t *gio = (uint8_t *)desert_guarded_place_copy(&g_out_after, data, bytes);
  fn(gio, gio, n); /* in place, ending at the guard */
  desert_assert_bytes_equal_at(g_exp, bytes, gio, bytes, "bswap in place (guard after)", file,
                               line);
}
#define CHECK(k, w, d, n, im, om, g) check((k), (w), (d), (n), (im), (om), (g), __FILE__, __LINE__)

static void test_known_vectors(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  const uint8_t in[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const uint8_t w16[16] = {2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15};
  const uint8_t w32[16] = {4, 3, 2, 1, 8, 7, 6, 5, 12, 11, 10, 9, 16, 15, 14, 13};
  const uint8_t w64[16] = {8, 7, 6, 5, 4, 3, 2, 1, 16, 15, 14, 13, 12, 11, 10, 9};
  uint8_t out[16];
  k->bswap16(out, in, 8);
  assert_memory_equal(out, w16, 16);
  k->bswap32(out, in, 4);
  assert_memory_equal(out, w32, 16);
  k->bswap64(out, in, 2);
  assert_memory_equal(out, w64, 16);
  /* n = 0 touches nothing (NULL-free: the pointers must not be used). */
  memset(out, 0xee, sizeof out);
  k->bswap16(out, in, 0);
  k->bswap32(out, in, 0);
  k->bswap64(out, in, 0);
  for (size_t i = 0; i < sizeof out; i++) assert_int_equal(out[i], 0xee);
  /* Host values to big-endian bytes (on a little-endian host). */
  const uint32_t v = 0x11223344u;
  uint8_t be[4];
  k->bswap32(be, &v, 1);
  uint32_t back;
  k->bswap32(&back, be, 1);
  assert_int_equal(back, v);
}

/* Floats travel as bit patterns: signalling/quiet NaNs with payloads,
 * negative zero and denormals survive a round trip bit for bit. */
static void test_float_bit_patterns(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  static const uint32_t f32[] = {0x7f800001u, 0x7fc00001u, 0xffbfffffu, 0x80000000u, 0x00000001u,
                                 0x7f7fffffu, 0xff800000u, 0x7fa5a5a5u, 0x3f800000u};
  static const uint64_t f64[] = {0x7ff0000000000001u, 0x7ff8000000000001u, 0xfff7ffffffffffffu,
                                 0x8000000000000000u, 0x0000000000000001u, 0x7ff5a5a5a5a5a5a5u};
  uint8_t be[sizeof f64];
  uint32_t r32[DESERT_TEST_COUNT(f32)];
  uint64_t r64[DESERT_TEST_COUNT(f64)];
  uint8_t exp[sizeof f64];
  k->bswap32(be, f32, DESERT_TEST_COUNT(f32));
  desert_oracle_bswap(exp, f32, DESERT_TEST_COUNT(f32), 4);
  assert_memory_equal(be, exp, sizeof f32);
  k->bswap32(r32, be, DESERT_TEST_COUNT(f32));
  assert_memory_equal(r32, f32, sizeof f32);
  k->bswap64(be, f64, DESERT_TEST_COUNT(f64));
  desert_oracle_bswap(exp, f64, DESERT_TEST_COUNT(f64), 8);
  assert_memory_equal(be, exp, sizeof f64);
  k->bswap64(r64, be, DESERT_TEST_COUNT(f64));
  assert_memory_equal(r64, f64, sizeof f64);
}

/* Every lane count 0..MAXN for each width, misalignments rotating through
 * 0..63, guard pages for every count. */
static void test_every_length(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static uint8_t data[8 * MAXN];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 131 + 7);
  static const size_t widths[] = {2, 4, 8};
  for (size_t w = 0; w < 3; w++)
    for (size_t n = 0; n <= MAXN; n++)
      CHECK(k, widths[w], data, n, (n * 3) % 64, (n * 5 + w) % 64, 1);
}

/* Every input x output misalignment for a few lane counts around block
 * sizes. */
static void test_misalignment(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  static uint8_t data[8 * 70];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(255 - i);
  static const size_t widths[] = {2, 4, 8};
  static const size_t counts[] = {1, 7, 17, 33, 67};
  for (size_t w = 0; w < 3; w++)
    for (size_t c = 0; c < DESERT_TEST_COUNT(counts); c++)
      for (size_t im = 0; im < 64; im += desert_test_stride(k))
        for (size_t om = 0; om < 64; om++) CHECK(k, widths[w], data, counts[c], im, om, 0);
}

static void test_random_differential(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  desert_rng r;
  desert_rng_init_test(&r, 0x6273776170u);
  static uint8_t data[MAXB];
  static const size_t widths[] = {2, 4, 8};
  for (int it = 0; it < 600; it++) {
    const size_t width = widths[desert_rng_below(&r, 3)];
    const size_t n = desert_rng_range(&r, 0, (it % 4 == 0 ? MAXB : 600) / width);
    desert_rng_fill(&r, data, n * width);
    CHECK(k, width, data, n, desert_rng_below(&r, 64), desert_rng_below(&r, 64), it % 4 == 1);
  }
}

/* The public wrappers go through the process default table; they must
 * produce big-endian bytes and read them back. */
static void test_public_api(void **state) {
  (void)state;
  const uint16_t a16[3] = {0x0102, 0xa0b0, 0xfffe};
  const uint32_t a32[2] = {0x01020304u, 0xdeadbeefu};
  const uint64_t a64[2] = {0x0102030405060708u, 0x8000000000000001u};
  uint8_t be[16];
  uint16_t b16[3];
  uint32_t b32[2];
  uint64_t b64[2];
  desert_store_be16(be, a16, 3);
  const uint8_t e16[] = {0x01, 0x02, 0xa0, 0xb0, 0xff, 0xfe};
  assert_memory_equal(be, e16, 6);
  desert_load_be16(b16, be, 3);
  assert_memory_equal(b16, a16, sizeof a16);
  desert_store_be32(be, a32, 2);
  const uint8_t e32[] = {1, 2, 3, 4, 0xde, 0xad, 0xbe, 0xef};
  assert_memory_equal(be, e32, 8);
  desert_load_be32(b32, be, 2);
  assert_memory_equal(b32, a32, sizeof a32);
  desert_store_be64(be, a64, 2);
  const uint8_t e64[] = {1, 2, 3, 4, 5, 6, 7, 8, 0x80, 0, 0, 0, 0, 0, 0, 1};
  assert_memory_equal(be, e64, 16);
  desert_load_be64(b64, be, 2);
  assert_memory_equal(b64, a64, sizeof a64);
  /* n = 0 and NULL pointers are no-ops, never crashes. */
  desert_store_be16(NULL, NULL, 0);
  desert_store_be32(NULL, a32, 2);
  desert_load_be64(b64, NULL, 2);
  assert_memory_equal(b64, a64, sizeof a64);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known_vectors),       cmocka_unit_test(test_float_bit_patterns),
      cmocka_unit_test(test_every_length),        cmocka_unit_test(test_misalignment),
      cmocka_unit_test(test_random_differential), cmocka_unit_test(test_public_api),
  };
  const int failed = desert_test_run_per_isa("bswap", tests, DESERT_TEST_COUNT(tests));
  desert_guarded_free(&g_in_after);
  desert_guarded_free(&g_in_before);
  desert_guarded_free(&g_out_after);
  desert_guarded_free(&g_out_before);
  return failed == 0 ? 0 : 1;
}
