/* test/test_codec_writer_modes.c — the writer's output modes: growable
 * (owned, grows), fixed caller buffer (exact fit succeeds, one byte short
 * fails with DESERT_E_DST_TOO_SMALL, never a byte past the end: guard
 * pages), size-only counting (exact sizes, no output memory), reset and
 * mode switches that keep memory (counting allocator), sticky errors, and
 * allocation failures at every allocation.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/reader.h"
#include "desert/writer.h"
#include "codec_testlib.h"
#include "guarded.h"
#include "oracle.h"
#include "test_util.h"

/* ---- example messages ---------------------------------------------------------- */

static int ref_objs[4];

static void ex_primitives(desert_writer *w) {
  desert_write_u8(w, 0xfe);
  desert_write_i16(w, -3);
  desert_write_u32(w, 0xdeadbeefu);
  desert_write_i64(w, -5);
  desert_u128 v = {1, 2};
  desert_write_u128(w, v);
  desert_write_f32(w, 1.25f);
  desert_write_f64_bits(w, 0x7ff4000000000001ull);
  desert_write_bool(w, true);
}
static void ex_varints(desert_writer *w) {
  desert_write_var_u32(w, 0);
  desert_write_var_u32(w, 300);
  desert_write_var_u32(w, UINT32_MAX);
  desert_write_var_i32(w, -65);
  desert_write_var_i32(w, INT32_MIN);
  desert_write_type_id(w, 16384);
  desert_write_char(w, 0x1F600);
  desert_write_char16(w, 0xD800);
}
static void ex_scala_chars(desert_writer *w) {
  desert_write_char(w, 'A');
  desert_write_char(w, 0xFFFF);
}
static void ex_strings(desert_writer *w) {
  desert_write_cstring(w, "hello");
  desert_write_cstring(w, "");
  desert_write_string(w, "\xc3\xa9", 2);
  static const char long_s[] = "a fairly long string, longer than sixteen bytes, \xe2\x82\xac!";
  desert_write_string(w, long_s, sizeof long_s - 1);
}
static void ex_utf16(desert_writer *w) {
  static const uint16_t u[] = {'h', 0xe9, 0x20ac, 0xD83D, 0xDE00, 'x', 'y', 'z', 'w', 'v',
                               'u', 't', 's', 'r', 'q', 'p', 'o', 'n', 'm', 'l'};
  desert_write_string_utf16(w, u, 3);
  desert_write_string_utf16(w, u, sizeof u / sizeof u[0]);
  desert_write_string_utf16(w, NULL, 0);
}
static void ex_utf16_lenient(desert_writer *w) {
  static const uint16_t u[] = {'a', 0xD800, 'b', 0xDC00, 'c', 'd', 'e', 'f', 'g', 'h',
                               'i', 'j', 'k', 'l', 'm', 'n', 'o', 0xDBFF};
  desert_write_string_utf16(w, u, sizeof u / sizeof u[0]);
}
static void ex_latin1(desert_writer *w) {
  uint8_t l[40];
  for (int i = 0; i < 40; i++) l[i] = (uint8_t)(0x60 + i * 5);
  desert_write_string_latin1(w, l, 3);
  desert_write_string_latin1(w, l, 40);
}
static void ex_dedup(desert_writer *w) {
  desert_write_dedup_string(w, "same", 4);
  desert_write_dedup_string(w, "other", 5);
  desert_write_dedup_string(w, "same", 4);
  desert_write_dedup_string(w, "other", 5);
}
static void ex_bytes(desert_writer *w) {
  uint8_t b[200];
  for (int i = 0; i < 200; i++) b[i] = (uint8_t)i;
  desert_write_bytes(w, b, 3);
  desert_write_bytes(w, b, 0);
  desert_write_bytes(w, b, 200);
  desert_write_raw(w, b + 7, 6);
}
static void ex_collections(desert_writer *w) {
  desert_write_count(w, 2);
  desert_write_i32(w, 1);
  desert_write_i32(w, 2);
  desert_write_stream_begin(w);
  desert_write_stream_item(w);
  desert_write_i32(w, 1);
  desert_write_stream_item(w);
  desert_write_i32(w, 2);
  desert_write_stream_end(w);
  desert_write_count(w, 1);
  desert_write_tuple_begin(w);
  desert_write_i32(w, 1);
  desert_write_i32(w, 2);
  desert_write_option(w, true);
  desert_write_either(w, false);
  desert_write_try(w, true);
  uint8_t uuid[16];
  for (int i = 0; i < 16; i++) uuid[i] = (uint8_t)(0xd0 + i);
  desert_write_uuid(w, uuid);
}
static void ex_arrays(desert_writer *w) {
  uint16_t a16[40];
  uint32_t a32[40];
  uint64_t a64[40];
  for (int i = 0; i < 40; i++) {
    a16[i] = (uint16_t)(i * 1000);
    a32[i] = (uint32_t)i * 0x01020304u;
    a64[i] = (uint64_t)i * UINT64_C(0x0102030405060708);
  }
  desert_write_u16_array(w, a16, 3);
  desert_write_u16_array(w, a16, 40);
  desert_write_i32_array(w, (const int32_t *)a32, 17);
  desert_write_u64_array(w, a64, 40);
  desert_write_f32_array(w, (const float *)(const void *)a32, 20);
  desert_write_f64_array(w, (const double *)(const void *)a64, 2);
  desert_write_var_u32_array(w, a32, 40);
  desert_write_var_i32_array(w, (const int32_t *)a32, 5);
}
static void ex_refs(desert_writer *w) {
  bool is_new;
  desert_write_ref(w, &ref_objs[0], &is_new);
  desert_write_u8(w, 10);
  desert_write_ref(w, &ref_objs[1], &is_new);
  desert_write_u8(w, 11);
  desert_write_ref(w, &ref_objs[0], &is_new);
  desert_write_ref(w, &ref_objs[1], &is_new);
}

typedef struct example {
  const char *name;
  void (*write)(desert_writer *w);
  unsigned flags;
} example;

static const example examples[] = {
    {"primitives", ex_primitives, 0},
    {"varints", ex_varints, 0},
    {"scala chars", ex_scala_chars, DESERT_OPT_SCALA_CHARS},
    {"strings", ex_strings, 0},
    {"utf16", ex_utf16, 0},
    {"utf16 lenient", ex_utf16_lenient, DESERT_OPT_LENIENT_UTF8},
    {"latin1", ex_latin1, 0},
    {"dedup", ex_dedup, 0},
    {"bytes", ex_bytes, 0},
    {"collections", ex_collections, 0},
    {"arrays", ex_arrays, 0},
    {"refs", ex_refs, 0},
};
#define N_EXAMPLES (sizeof examples / sizeof examples[0])

/* Full output of an example in growable mode (malloc'd copy). */
static uint8_t *reference_bytes(const example *ex, size_t *len) {
  desert_writer *w = ct_new_writer(ex->flags);
  ex->write(w);
  assert_int_equal(desert_writer_status(w), DESERT_OK);
  const uint8_t *d = desert_writer_data(w, len);
  uint8_t *copy = malloc(*len ? *len : 1);
  assert_non_null(copy);
  memcpy(copy, d, *len);
  desert_writer_free(w);
  return copy;
}

/* ---- growable ------------------------------------------------------------------- */

static void test_growable_grows(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  for (uint32_t i = 0; i < 100000; i++) assert_int_equal(desert_write_u32(w, i * 2654435761u), DESERT_OK);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(len, 400000);
  assert_int_equal(desert_writer_size(w), 400000);
  for (uint32_t i = 0; i < 100000; i++) {
    uint32_t v = i * 2654435761u;
    const uint8_t *p = d + 4 * i;
    assert_int_equal(((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3], v);
  }
  /* one big bulk write after small ones */
  desert_writer_reset(w);
  size_t big = 3u << 20;
  uint8_t *blob = malloc(big);
  assert_non_null(blob);
  for (size_t i = 0; i < big; i++) blob[i] = (uint8_t)(i ^ (i >> 8));
  assert_int_equal(desert_write_u8(w, 7), DESERT_OK);
  assert_int_equal(desert_write_bytes(w, blob, big), DESERT_OK);
  d = desert_writer_data(w, &len);
  assert_int_equal(len, 1 + 4 + big);
  assert_int_equal(d[0], 7);
  assert_memory_equal(d + 5, blob, big);
  free(blob);
  /* data(w, NULL) is allowed */
  assert_non_null(desert_writer_data(w, NULL));
  desert_writer_free(w);
}

/* ---- short values at every cursor position (issue 11) ---------------------------- *
 * Varints, string bodies and short varint runs take a one-check path when
 * the writer's own buffer has room for an 8-byte store, and the exact path
 * otherwise. After every prefix length from 0 to 600 bytes (across the
 * inline buffer's end and the first growth), in a heap writer and one in
 * caller storage, the bytes equal the oracle's; in a fixed caller buffer
 * with room to spare the bytes after the message stay untouched. */
static const uint32_t short_vals[] = {0, 1, 127, 128, 16383, 16384, 2097151, 2097152,
                                      268435455, 268435456, UINT32_MAX};
#define N_SHORT_VALS (sizeof short_vals / sizeof short_vals[0])

static void ex_short_values(desert_writer *w) {
  for (size_t i = 0; i < N_SHORT_VALS; i++) {
    desert_write_var_u32(w, short_vals[i]);
    desert_write_var_i32(w, (int32_t)short_vals[i]);
    desert_write_string(w, "term", (size_t)(i % 5));
    desert_write_var_u32_array(w, short_vals + i, N_SHORT_VALS - i);
    desert_write_var_i32_array(w, (const int32_t *)(const void *)short_vals, i);
  }
}

/* The same message, byte by byte from the oracle. */
static size_t short_values_oracle(uint8_t *out) {
  size_t n = 0;
  for (size_t i = 0; i < N_SHORT_VALS; i++) {
    n += desert_oracle_var_u32_encode(out + n, short_vals + i, 1);
    const int32_t si = (int32_t)short_vals[i];
    n += desert_oracle_var_i32_encode(out + n, &si, 1);
    const int32_t len = (int32_t)(i % 5);
    n += desert_oracle_var_i32_encode(out + n, &len, 1);
    memcpy(out + n, "term", (size_t)len);
    n += (size_t)len;
    n += desert_oracle_var_u32_encode(out + n, short_vals + i, N_SHORT_VALS - i);
    n += desert_oracle_var_i32_encode(out + n, (const int32_t *)(const void *)short_vals, i);
  }
  return n;
}

static void test_short_values_every_offset(void **state) {
  (void)state;
  enum { MAXPRE = 600 };
  uint8_t *want = malloc(MAXPRE + 1024);
  assert_non_null(want);
  size_t body = short_values_oracle(want + MAXPRE);
  assert_true(body < 1024);
  desert_writer_storage storage;
  desert_writer *heap = ct_new_writer(0), *st = NULL;
  assert_int_equal(desert_writer_init(&storage, sizeof storage, NULL, &st), DESERT_OK);
  desert_writer *ws[2] = {heap, st};
  for (size_t pre = 0; pre <= MAXPRE; pre++) {
    for (int k = 0; k < 2; k++) {
      desert_writer *w = ws[k];
      desert_writer_reset(w);
      for (size_t i = 0; i < pre; i++) desert_write_u8(w, (uint8_t)(0x40 + i % 7));
      ex_short_values(w);
      assert_int_equal(desert_writer_status(w), DESERT_OK);
      size_t len;
      const uint8_t *d = desert_writer_data(w, &len);
      assert_int_equal(len, pre + body);
      for (size_t i = 0; i < pre; i++) assert_int_equal(d[i], 0x40 + i % 7);
      desert_assert_bytes_equal(want + MAXPRE, body, d + pre, len - pre);
    }
  }
  /* fixed buffers: exact bytes, nothing touched after the message */
  uint8_t *buf = malloc(body + 64);
  assert_non_null(buf);
  for (size_t spare = 0; spare <= 64; spare += 8) {
    memset(buf, 0xa5, body + 64);
    assert_int_equal(desert_writer_use_buffer(heap, buf, body + spare), DESERT_OK);
    ex_short_values(heap);
    assert_int_equal(desert_writer_status(heap), DESERT_OK);
    assert_int_equal(desert_writer_size(heap), body);
    desert_assert_bytes_equal(want + MAXPRE, body, buf, body);
    for (size_t i = body; i < body + 64; i++) assert_int_equal(buf[i], 0xa5);
  }
  free(buf);
  desert_writer_free(st);
  desert_writer_free(heap);
  free(want);
}

/* ---- fixed buffers ---------------------------------------------------------------- */

/* Every capacity from 0 to the exact size: exact fit succeeds with the
 * same bytes; anything shorter fails with DESERT_E_DST_TOO_SMALL, keeps a
 * correct prefix and never writes past the buffer (a guard page follows it,
 * and the buffer is pre-filled to check untouched bytes). */
static void test_fixed_exact_fit_and_short(void **state) {
  (void)state;
  desert_guarded g;
  assert_int_equal(desert_guarded_init(&g, 8192, DESERT_GUARD_AFTER), 0);
  for (size_t e = 0; e < N_EXAMPLES; e++) {
    size_t full;
    uint8_t *want = reference_bytes(&examples[e], &full);
    assert_true(full <= 8192);
    desert_writer *w = ct_new_writer(examples[e].flags);
    for (size_t cap = 0; cap <= full; cap++) {
      uint8_t *buf = desert_guarded_place(&g, cap);
      memset(buf, 0xa5, cap);
      assert_int_equal(desert_writer_use_buffer(w, cap ? buf : NULL, cap), DESERT_OK);
      examples[e].write(w);
      desert_status st = desert_writer_status(w);
      size_t len;
      const uint8_t *d = desert_writer_data(w, &len);
      if (cap == full) {
        if (st != DESERT_OK) {
          print_error("%s: exact fit (%zu bytes) failed: %s\n", examples[e].name, cap,
                      desert_status_name(st));
          fail();
        }
        assert_ptr_equal(d, cap ? buf : NULL);
        desert_assert_bytes_equal(want, full, d, len);
      } else {
        if (st != DESERT_E_DST_TOO_SMALL) {
          print_error("%s: %zu of %zu bytes: %s, want DESERT_E_DST_TOO_SMALL\n",
                      examples[e].name, cap, full, desert_status_name(st));
          fail();
        }
        assert_true(len <= cap);
        assert_int_equal(len, desert_writer_size(w));
        if (len) desert_assert_bytes_equal(want, len, buf, len);
        /* sticky: one more write changes nothing */
        assert_int_equal(desert_write_u8(w, 0), DESERT_E_DST_TOO_SMALL);
        assert_int_equal(desert_writer_size(w), len);
      }
    }
    /* a bigger buffer works too, and reset reuses it */
    uint8_t *buf = desert_guarded_place(&g, full + 10);
    assert_int_equal(desert_writer_use_buffer(w, buf, full + 10), DESERT_OK);
    examples[e].write(w);
    size_t len;
    const uint8_t *d = desert_writer_data(w, &len);
    desert_assert_bytes_equal(want, full, d, len);
    desert_writer_reset(w);
    examples[e].write(w);
    d = desert_writer_data(w, &len);
    desert_assert_bytes_equal(want, full, d, len);
    assert_ptr_equal(d, buf);
    desert_writer_free(w);
    free(want);
  }
  desert_guarded_free(&g);
}

/* The documented partial output: what was written before the error stays. */
static void test_fixed_partial_output(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  uint8_t buf[8];
  memset(buf, 0xee, sizeof buf);
  assert_int_equal(desert_writer_use_buffer(w, buf, 4), DESERT_OK);
  assert_int_equal(desert_write_u16(w, 0x0102), DESERT_OK);
  assert_int_equal(desert_write_u32(w, 0x03040506), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(desert_writer_size(w), 2);
  assert_int_equal(buf[0], 1);
  assert_int_equal(buf[1], 2);
  assert_int_equal(buf[4], 0xee);
  /* a short var_u32 needs only its own size: 1 byte left is enough for 5 */
  assert_int_equal(desert_writer_use_buffer(w, buf, 1), DESERT_OK);
  assert_int_equal(desert_write_var_u32(w, 5), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 1);
  assert_int_equal(buf[0], 5);
  assert_int_equal(desert_write_var_u32(w, 5), DESERT_E_DST_TOO_SMALL);
  /* a var_u32 array sized exactly */
  const uint32_t vals[3] = {1, 300, 70000}; /* 1 + 2 + 3 bytes */
  assert_int_equal(desert_writer_use_buffer(w, buf, 6), DESERT_OK);
  assert_int_equal(desert_write_var_u32_array(w, vals, 3), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 6);
  desert_writer_free(w);
}

static void test_fixed_null_and_arguments(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_writer_use_buffer(w, NULL, 0), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 0);
  assert_int_equal(desert_write_cstring(w, ""), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(desert_writer_use_buffer(w, NULL, 5), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_use_buffer(NULL, NULL, 0), DESERT_E_ARGUMENT);
  /* an empty message in a zero-sized buffer is fine */
  assert_int_equal(desert_writer_use_buffer(w, NULL, 0), DESERT_OK);
  assert_int_equal(desert_writer_status(w), DESERT_OK);
  assert_int_equal(desert_write_raw(w, NULL, 0), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_free(w);
}

/* ---- size-only mode ---------------------------------------------------------------- */

static void test_count_only_sizes(void **state) {
  (void)state;
  for (size_t e = 0; e < N_EXAMPLES; e++) {
    size_t full;
    uint8_t *want = reference_bytes(&examples[e], &full);
    desert_writer *w = ct_new_writer(examples[e].flags);
    desert_writer_count_only(w);
    examples[e].write(w);
    assert_int_equal(desert_writer_status(w), DESERT_OK);
    if (desert_writer_size(w) != full) {
      print_error("%s: size-only %zu, real %zu\n", examples[e].name, desert_writer_size(w), full);
      fail();
    }
    size_t len = 12345;
    assert_null(desert_writer_data(w, &len));
    assert_int_equal(len, full);
    /* reset stays in size-only mode */
    desert_writer_reset(w);
    assert_int_equal(desert_writer_size(w), 0);
    examples[e].write(w);
    assert_int_equal(desert_writer_size(w), full);
    assert_null(desert_writer_data(w, NULL));
    desert_writer_free(w);
    free(want);
  }
}

/* Size-only mode never allocates output memory, even for huge runs. */
static void test_count_only_no_output_memory(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_writer *w = ct_new_writer_opt(&o);
  desert_writer_count_only(w);
  size_t allocs = ca.allocs;
  size_t big = 16u << 20;
  uint8_t *blob = malloc(big);
  assert_non_null(blob);
  memset(blob, 'x', big);
  assert_int_equal(desert_write_bytes(w, blob, big), DESERT_OK);
  assert_int_equal(desert_write_string(w, (const char *)blob, big), DESERT_OK);
  assert_int_equal(desert_write_string_latin1(w, blob, big), DESERT_OK);
  assert_int_equal(desert_write_raw(w, blob, big), DESERT_OK);
  assert_int_equal(desert_write_u64_array(w, (const uint64_t *)(const void *)blob, big / 8), DESERT_OK);
  for (int i = 0; i < 1000; i++) assert_int_equal(desert_write_u128(w, (desert_u128){1, 2}), DESERT_OK);
  size_t want = (4 + big) + (4 + big) + (4 + big) + big + big + 16000;
  assert_int_equal(desert_writer_size(w), want);
  assert_int_equal(ca.allocs, allocs);
  free(blob);
  desert_writer_free(w);
  assert_int_equal(ca.live_blocks, 0);
}

/* ---- reset and mode switches keep memory ------------------------------------------------ */

static void big_message(desert_writer *w) {
  for (int i = 0; i < 2000; i++) {
    char s[32];
    snprintf(s, sizeof s, "key-%d", i % 300);
    desert_write_dedup_string(w, s, strlen(s));
    desert_write_i64(w, i);
  }
  uint8_t blob[20000];
  memset(blob, 3, sizeof blob);
  desert_write_bytes(w, blob, sizeof blob);
  bool is_new;
  for (int i = 0; i < 4; i++) desert_write_ref(w, &ref_objs[i], &is_new);
}

static void test_reset_keeps_memory(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_writer *w = ct_new_writer_opt(&o);
  big_message(w);
  assert_int_equal(desert_writer_status(w), DESERT_OK);
  size_t len1;
  const uint8_t *d = desert_writer_data(w, &len1);
  uint8_t *first = malloc(len1);
  assert_non_null(first);
  memcpy(first, d, len1);
  size_t allocs = ca.allocs, frees = ca.frees;
  for (int round = 0; round < 3; round++) {
    desert_writer_reset(w);
    assert_int_equal(desert_writer_size(w), 0);
    big_message(w);
    size_t len2;
    d = desert_writer_data(w, &len2);
    desert_assert_bytes_equal(first, len1, d, len2);
    assert_int_equal(ca.allocs, allocs);
    assert_int_equal(ca.frees, frees);
  }
  /* fixed, size-only and back: the growable buffer survives */
  uint8_t fixed[64];
  assert_int_equal(desert_writer_use_buffer(w, fixed, sizeof fixed), DESERT_OK);
  assert_int_equal(desert_write_cstring(w, "fixed"), DESERT_OK);
  desert_writer_count_only(w);
  big_message(w);
  assert_int_equal(desert_writer_size(w), len1);
  desert_writer_use_growable(w);
  assert_int_equal(desert_writer_size(w), 0);
  big_message(w);
  size_t len3;
  d = desert_writer_data(w, &len3);
  desert_assert_bytes_equal(first, len1, d, len3);
  assert_int_equal(ca.allocs, allocs);
  desert_writer_free(w);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
  free(first);
}

/* ---- sticky errors -------------------------------------------------------------------- */

static void test_sticky_writer_errors(void **state) {
  (void)state;
  for (int mode = 0; mode < 3; mode++) {
    /* mode 0: DST_TOO_SMALL in a fixed buffer; 1: INVALID_CHAR (growable);
     * 2: UNSUPPORTED_CHAR in size-only mode */
    desert_writer *w = ct_new_writer(mode == 2 ? DESERT_OPT_SCALA_CHARS : 0);
    uint8_t buf[8];
    memset(buf, 0x99, sizeof buf);
    desert_status E;
    if (mode == 0) {
      assert_int_equal(desert_writer_use_buffer(w, buf, 3), DESERT_OK);
      assert_int_equal(desert_write_u16(w, 0x0102), DESERT_OK);
      E = desert_write_u16(w, 0x0304);
      assert_int_equal(E, DESERT_E_DST_TOO_SMALL);
    } else if (mode == 1) {
      assert_int_equal(desert_write_u16(w, 0x0102), DESERT_OK);
      E = desert_write_char(w, 0xDFFF);
      assert_int_equal(E, DESERT_E_INVALID_CHAR);
    } else {
      desert_writer_count_only(w);
      assert_int_equal(desert_write_u16(w, 0x0102), DESERT_OK);
      E = desert_write_char(w, 0x10000);
      assert_int_equal(E, DESERT_E_UNSUPPORTED_CHAR);
    }
    size_t size = desert_writer_size(w);
    assert_int_equal(size, 2);
    const uint16_t u16[2] = {'a', 'b'};
    const uint8_t l1[2] = {'a', 0xe9};
    const uint32_t a32[20] = {0};
    const uint64_t a64[20] = {0};
    const uint16_t a16[20] = {0};
    const uint8_t uuid[16] = {0};
    int obj;
    bool is_new = true;
    for (int round = 0; round < 2; round++) {
      assert_int_equal(desert_write_u8(w, 1), E);
      assert_int_equal(desert_write_i8(w, 1), E);
      assert_int_equal(desert_write_u16(w, 1), E);
      assert_int_equal(desert_write_i16(w, 1), E);
      assert_int_equal(desert_write_u32(w, 1), E);
      assert_int_equal(desert_write_i32(w, 1), E);
      assert_int_equal(desert_write_u64(w, 1), E);
      assert_int_equal(desert_write_i64(w, 1), E);
      assert_int_equal(desert_write_u128(w, (desert_u128){0, 1}), E);
      assert_int_equal(desert_write_f32(w, 1.0f), E);
      assert_int_equal(desert_write_f64(w, 1.0), E);
      assert_int_equal(desert_write_f32_bits(w, 1), E);
      assert_int_equal(desert_write_f64_bits(w, 1), E);
      assert_int_equal(desert_write_bool(w, true), E);
      assert_int_equal(desert_write_raw(w, "x", 1), E);
      assert_int_equal(desert_write_var_u32(w, 1), E);
      assert_int_equal(desert_write_var_i32(w, 1), E);
      assert_int_equal(desert_write_char(w, 'a'), E);
      assert_int_equal(desert_write_char16(w, 'a'), E);
      assert_int_equal(desert_write_string(w, "a", 1), E);
      assert_int_equal(desert_write_cstring(w, "a"), E);
      assert_int_equal(desert_write_string_utf16(w, u16, 2), E);
      assert_int_equal(desert_write_string_latin1(w, l1, 2), E);
      assert_int_equal(desert_write_dedup_string(w, "a", 1), E);
      assert_int_equal(desert_write_bytes(w, "ab", 2), E);
      assert_int_equal(desert_write_count(w, 2), E);
      assert_int_equal(desert_write_stream_begin(w), E);
      assert_int_equal(desert_write_stream_item(w), E);
      assert_int_equal(desert_write_stream_end(w), E);
      assert_int_equal(desert_write_u16_array(w, a16, 20), E);
      assert_int_equal(desert_write_i16_array(w, (const int16_t *)a16, 20), E);
      assert_int_equal(desert_write_u32_array(w, a32, 20), E);
      assert_int_equal(desert_write_i32_array(w, (const int32_t *)a32, 20), E);
      assert_int_equal(desert_write_u64_array(w, a64, 20), E);
      assert_int_equal(desert_write_i64_array(w, (const int64_t *)a64, 20), E);
      assert_int_equal(desert_write_f32_array(w, (const float *)(const void *)a32, 20), E);
      assert_int_equal(desert_write_f64_array(w, (const double *)(const void *)a64, 20), E);
      assert_int_equal(desert_write_var_u32_array(w, a32, 20), E);
      assert_int_equal(desert_write_var_i32_array(w, (const int32_t *)a32, 20), E);
      assert_int_equal(desert_write_option(w, true), E);
      assert_int_equal(desert_write_either(w, true), E);
      assert_int_equal(desert_write_try(w, true), E);
      assert_int_equal(desert_write_tuple_begin(w), E);
      assert_int_equal(desert_write_uuid(w, uuid), E);
      assert_int_equal(desert_write_ref(w, &obj, &is_new), E);
      assert_true(is_new); /* untouched */
      assert_int_equal(desert_write_type_id(w, 1), E);
      assert_int_equal(desert_writer_status(w), E);
      assert_int_equal(desert_writer_size(w), size);
    }
    if (mode == 0) {
      assert_int_equal(buf[0], 1);
      assert_int_equal(buf[1], 2);
      for (int i = 2; i < 8; i++) assert_int_equal(buf[i], 0x99);
    }
    /* reset clears the error and the output; the mode stays */
    desert_writer_reset(w);
    assert_int_equal(desert_writer_status(w), DESERT_OK);
    assert_int_equal(desert_writer_size(w), 0);
    assert_int_equal(desert_write_u16(w, 0x0a0b), DESERT_OK);
    /* the object was not registered while the error was set */
    assert_int_equal(desert_write_ref(w, &obj, &is_new), DESERT_OK);
    assert_true(is_new);
    assert_int_equal(desert_writer_size(w), 3);
    if (mode == 0) {
      assert_int_equal(buf[0], 0x0a);
      assert_int_equal(buf[1], 0x0b);
      assert_int_equal(buf[2], 0x00);
    } else if (mode == 1) {
      size_t len;
      const uint8_t *d = desert_writer_data(w, &len);
      const uint8_t want[3] = {0x0a, 0x0b, 0x00};
      desert_assert_bytes_equal(want, 3, d, len);
    }
    desert_writer_free(w);
  }
}

/* ---- allocation failure at every allocation --------------------------------------------- */

static void test_allocation_failures(void **state) {
  (void)state;
  /* reference run: how many allocations the message needs */
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_writer *w = ct_new_writer_opt(&o);
  big_message(w);
  size_t full;
  const uint8_t *d = desert_writer_data(w, &full);
  uint8_t *want = malloc(full);
  assert_non_null(want);
  memcpy(want, d, full);
  size_t needed = ca.allocs;
  desert_writer_free(w);
  assert_int_equal(ca.live_blocks, 0);
  assert_true(needed >= 2);

  for (size_t k = 0; k < needed; k++) {
    desert_counting_allocator_init(&ca);
    o.allocator = ca.allocator;
    desert_counting_allocator_fail_after(&ca, k);
    w = NULL;
    desert_status st = desert_writer_create(&o, &w);
    if (st != DESERT_OK) {
      assert_int_equal(st, DESERT_E_NOMEM);
      assert_null(w);
      assert_int_equal(ca.live_blocks, 0);
      continue;
    }
    big_message(w);
    st = desert_writer_status(w);
    assert_int_equal(st, DESERT_E_NOMEM);
    size_t len;
    d = desert_writer_data(w, &len);
    assert_true(len <= full);
    if (len) desert_assert_bytes_equal(want, len, d, len);
    /* after reset, with memory available again, the message is complete */
    desert_counting_allocator_fail_after(&ca, SIZE_MAX);
    desert_writer_reset(w);
    big_message(w);
    assert_int_equal(desert_writer_status(w), DESERT_OK);
    d = desert_writer_data(w, &len);
    desert_assert_bytes_equal(want, full, d, len);
    desert_writer_free(w);
    assert_int_equal(ca.live_blocks, 0);
    assert_int_equal(ca.bad_frees, 0);
  }
  free(want);
}

int main(void) {
  desert_test_check_expected_isa();
  (void)desert_test_seed();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_growable_grows),
      cmocka_unit_test(test_short_values_every_offset),
      cmocka_unit_test(test_fixed_exact_fit_and_short),
      cmocka_unit_test(test_fixed_partial_output),
      cmocka_unit_test(test_fixed_null_and_arguments),
      cmocka_unit_test(test_count_only_sizes),
      cmocka_unit_test(test_count_only_no_output_memory),
      cmocka_unit_test(test_reset_keeps_memory),
      cmocka_unit_test(test_sticky_writer_errors),
      cmocka_unit_test(test_allocation_failures),
  };
  return cmocka_run_group_tests_name("codec_writer_modes", tests, NULL, NULL);
}
