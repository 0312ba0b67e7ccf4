/* test/test_copy_stream.c — desert_copy_stream (src/base/copy_stream.c),
 * the streaming copy behind large outputs, against memcpy as the oracle:
 * every length from 0 to 300 and a spread of larger ones, at every
 * destination and source alignment within 64 bytes, with guard bytes on
 * both sides of the destination that must stay untouched. Then the two
 * writer paths that call it with the threshold forced to 1 byte (so every
 * block of 4 KiB or more streams): byte blocks and the later chunks of an
 * evolved record, whose bytes must equal those written with streaming
 * off. Runs on any CPU: without SSE2 the function is a memcpy.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "base/internal.h"
#include "desert/record.h"
#include "desert/writer.h"
#include "test_util.h"

enum { GUARD = 64, MAXN = 70000 };

static void check_copy(const uint8_t *src, uint8_t *buf, size_t dalign, size_t n) {
  uint8_t *dst = buf + GUARD + dalign;
  memset(buf, 0xa5, GUARD + 64 + MAXN + GUARD);
  desert_copy_stream(dst, src, n);
  if (n) assert_memory_equal(dst, src, n);
  for (size_t i = 0; i < GUARD + dalign; i++) assert_int_equal(buf[i], 0xa5);
  for (size_t i = 0; i < GUARD; i++) assert_int_equal(dst[n + i], 0xa5);
}

static void test_against_memcpy(void **state) {
  (void)state;
  uint8_t *src = malloc(MAXN + 64), *buf = malloc(GUARD + 64 + MAXN + GUARD);
  assert_non_null(src);
  assert_non_null(buf);
  for (size_t i = 0; i < MAXN + 64; i++) src[i] = (uint8_t)(i * 167u + (i >> 8) + 1u);
  static const size_t big[] = {4095, 4096, 4097, 8191, 12345, 65536, MAXN};
  for (size_t sa = 0; sa < 64; sa += 7) {
    for (size_t da = 0; da < 64; da++) {
      for (size_t n = 0; n <= 300; n++) check_copy(src + sa, buf, da, n);
      for (size_t k = 0; k < sizeof big / sizeof big[0]; k++) check_copy(src + sa, buf, da, big[k]);
    }
  }
  free(buf);
  free(src);
}

/* A copy of w's output (w is freed), the policy restored to `saved`. */
static uint8_t *take_output(desert_writer *w, size_t saved, size_t *len) {
  const uint8_t *d = desert_writer_data(w, len);
  uint8_t *out = malloc(*len);
  assert_non_null(out);
  memcpy(out, d, *len);
  desert_writer_free(w);
  atomic_store(&desert_copy_stream_after, saved);
  return out;
}

/* The bytes of `blocks` byte blocks of n bytes each (and a u8 between
 * them), written with streaming after `after` bytes of output. */
static uint8_t *write_blocks(size_t after, const uint8_t *src, size_t n, size_t blocks,
                             size_t *len) {
  const size_t saved = atomic_load(&desert_copy_stream_after);
  atomic_store(&desert_copy_stream_after, after);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  for (size_t b = 0; b < blocks; b++) {
    assert_int_equal(desert_write_u8(w, (uint8_t)b), DESERT_OK);
    assert_int_equal(desert_write_bytes(w, src + b, n), DESERT_OK);
  }
  return take_output(w, saved, len);
}

static void test_writer_blocks(void **state) {
  (void)state;
  uint8_t *src = malloc(MAXN + 64);
  assert_non_null(src);
  for (size_t i = 0; i < MAXN + 64; i++) src[i] = (uint8_t)(i * 29u + 3u);
  static const size_t sizes[] = {4095, 4096, 5000, 65536};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    size_t la, lb;
    uint8_t *a = write_blocks(0, src, sizes[k], 40, &la);
    uint8_t *b = write_blocks(1, src, sizes[k], 40, &lb);
    desert_assert_bytes_equal(a, la, b, lb);
    /* and the bytes are the blocks themselves, not only equal to each other */
    size_t off = 0;
    for (size_t blk = 0; blk < 40; blk++) {
      assert_int_equal(b[off], (uint8_t)blk);
      off += 1;
      while (b[off] & 0x80u) off++; /* the var_u32 length */
      off++;
      assert_memory_equal(b + off, src + blk, sizes[k]);
      off += sizes[k];
    }
    assert_int_equal(off, lb);
    free(a);
    free(b);
  }
  free(src);
}

/* An evolved record whose added field (chunk 1) holds a 20,000-byte block:
 * chunk 1 is copied into place when the record ends (record_writer.c). */
static const desert_field_desc rec_fields[] = {{"a", 0}, {"blob", 0}};
static const desert_evolution_step rec_steps[] = {{DESERT_STEP_FIELD_ADDED, "blob", false}};
static const desert_record_desc rec = {"R", rec_fields, 2, rec_steps, 1};

static uint8_t *write_record(size_t after, const uint8_t *blob, size_t n, size_t *len) {
  const size_t saved = atomic_load(&desert_copy_stream_after);
  atomic_store(&desert_copy_stream_after, after);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  desert_record_writer rw;
  assert_int_equal(desert_record_write_begin(w, &rec, &rw), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
  assert_int_equal(desert_write_i32(w, 7), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 1), DESERT_OK);
  assert_int_equal(desert_write_bytes(w, blob, n), DESERT_OK);
  assert_int_equal(desert_record_write_end(&rw), DESERT_OK);
  return take_output(w, saved, len);
}

static void test_record_chunks(void **state) {
  (void)state;
  enum { N = 20000 };
  uint8_t *blob = malloc(N);
  assert_non_null(blob);
  for (size_t i = 0; i < N; i++) blob[i] = (uint8_t)(i * 13u + 5u);
  size_t la, lb;
  uint8_t *a = write_record(0, blob, N, &la);
  uint8_t *b = write_record(1, blob, N, &lb);
  desert_assert_bytes_equal(a, la, b, lb);
  /* the block is there, at the end (chunk 1 is the last thing written) */
  assert_true(lb > N);
  assert_memory_equal(b + lb - N, blob, N);
  /* and it reads back */
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  assert_int_equal(desert_reader_begin(r, b, lb), DESERT_OK);
  desert_record_reader rr;
  desert_field_action act;
  int32_t x = 0;
  desert_bytes got = {0};
  assert_int_equal(desert_record_read_begin(r, &rec, &rr), DESERT_OK);
  assert_int_equal(desert_record_read_field(&rr, 0, &act), DESERT_OK);
  assert_int_equal(desert_read_i32(r, &x), DESERT_OK);
  assert_int_equal(desert_record_read_field(&rr, 1, &act), DESERT_OK);
  assert_int_equal(desert_read_bytes(r, &got), DESERT_OK);
  assert_int_equal(desert_record_read_end(&rr), DESERT_OK);
  assert_int_equal(x, 7);
  assert_int_equal(got.len, N);
  assert_memory_equal(got.ptr, blob, N);
  desert_reader_free(r);
  free(a);
  free(b);
  free(blob);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_against_memcpy),
      cmocka_unit_test(test_writer_blocks),
      cmocka_unit_test(test_record_chunks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
