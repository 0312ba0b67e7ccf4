/* test/test_codec_collections.c — byte blocks, generic collections in the
 * known-size and unknown-size forms, maps as tuples, fixed-width and varint
 * element runs (short inline path and long kernel path, every runnable ISA),
 * Option/Either/Try tags, tuples and collection limits (docs/format.md §6–§8).
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/internal.h" /* desert_copy_large_whole, desert_copy_stream_after */
#include "desert/reader.h"
#include "desert/writer.h"
#include "codec_testlib.h"
#include "oracle.h"
#include "test_util.h"

/* ---- byte blocks (docs/format.md §6.1) ------------------------------------------------ */

static void test_byte_blocks(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  const uint8_t b123[] = {1, 2, 3};
  assert_int_equal(desert_write_bytes(w, b123, 3), DESERT_OK);
  ct_expect_out(w, "03 01 02 03");
  desert_writer_reset(w);
  assert_int_equal(desert_write_bytes(w, NULL, 0), DESERT_OK);
  assert_int_equal(desert_write_bytes(w, b123, 0), DESERT_OK);
  ct_expect_out(w, "00 00");
  /* 128 and 300 bytes: unsigned var_u32 lengths (80 01, ac 02), not zig-zag */
  uint8_t big[300];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 7);
  desert_writer_reset(w);
  assert_int_equal(desert_write_bytes(w, big, 128), DESERT_OK);
  assert_int_equal(desert_write_bytes(w, big, 300), DESERT_OK);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(len, 2 + 128 + 2 + 300);
  assert_int_equal(d[0], 0x80);
  assert_int_equal(d[1], 0x01);
  assert_memory_equal(d + 2, big, 128);
  assert_int_equal(d[130], 0xac);
  assert_int_equal(d[131], 0x02);
  assert_memory_equal(d + 132, big, 300);

  desert_reader *r = ct_new_reader(0);
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  desert_bytes b = {NULL, 7};
  assert_int_equal(desert_read_bytes(r, &b), DESERT_OK);
  assert_int_equal(b.len, 128);
  assert_ptr_equal(b.ptr, d + 2); /* zero-copy */
  assert_int_equal(desert_read_bytes(r, &b), DESERT_OK);
  assert_int_equal(b.len, 300);
  assert_ptr_equal(b.ptr, d + 132);
  ct_expect_fully_read(r, len);

  uint8_t buf[16];
  size_t n = ct_begin_hex(r, "03 01 02 03 | 00", buf, sizeof buf);
  assert_int_equal(desert_read_bytes(r, &b), DESERT_OK);
  assert_int_equal(b.len, 3);
  assert_memory_equal(b.ptr, b123, 3);
  b.len = 9;
  assert_int_equal(desert_read_bytes(r, &b), DESERT_OK);
  assert_int_equal(b.len, 0);
  ct_expect_fully_read(r, n);
  /* Vec<u8> [1,2,3] = byte block; Vec<i8> / Scala Array[Byte] = collection */
  desert_writer_reset(w);
  assert_int_equal(desert_write_bytes(w, b123, 3), DESERT_OK);
  assert_int_equal(desert_write_count(w, 3), DESERT_OK);
  for (int i = 1; i <= 3; i++) assert_int_equal(desert_write_i8(w, (int8_t)i), DESERT_OK);
  ct_expect_out(w, "03 01 02 03 | 06 01 02 03");
  desert_reader_free(r);
  desert_writer_free(w);
}

/* Byte blocks around the sizes where the writer's copy changes strategy
 * (one call up to 2 KiB, equal pieces of at most 2 KiB up to 8 KiB, one
 * call above; issue 11), after prefixes of 0-3 bytes so the block starts
 * at every alignment: the output is the var_u32 length (built here by
 * hand) and the bytes, in a growable writer and in a fixed buffer of the
 * exact size. */
/* Every copy policy of base/internal.h runs here, whichever ones this CPU
 * selected: desert_copy's two large-block forms, and streaming copies off
 * (0) or on from the first byte of output (1: every block of 4 KiB or
 * more then streams, since a length or prefix precedes it). */
static void byte_block_copy_sizes(void);
static void test_byte_block_copy_sizes(void **state) {
  (void)state;
  const unsigned char chosen = atomic_load(&desert_copy_large_whole);
  const size_t chosen_after = atomic_load(&desert_copy_stream_after);
  for (unsigned char whole = 0; whole < 2; whole++) {
    for (size_t after = 0; after < 2; after++) {
      atomic_store(&desert_copy_large_whole, whole);
      atomic_store(&desert_copy_stream_after, after);
      byte_block_copy_sizes();
    }
  }
  atomic_store(&desert_copy_large_whole, chosen);
  atomic_store(&desert_copy_stream_after, chosen_after);
}

static void byte_block_copy_sizes(void) {
  static const size_t sizes[] = {2047, 2048, 2049, 3000, 4095, 4096, 4097, 6143,
                                 8191, 8192, 8193, 12289, 65536};
  enum { MAXB = 65536 };
  uint8_t *src = malloc(MAXB + 16), *want = malloc(MAXB + 8), *fixed = malloc(MAXB + 8);
  assert_non_null(src);
  assert_non_null(want);
  assert_non_null(fixed);
  for (size_t i = 0; i < MAXB + 16; i++) src[i] = (uint8_t)(i * 131u + (i >> 9));
  desert_writer *w = ct_new_writer(0), *wf = ct_new_writer(0);
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    const size_t n = sizes[si];
    for (size_t pre = 0; pre < 4; pre++) {
      size_t wl = 0;
      for (size_t i = 0; i < pre; i++) want[wl++] = (uint8_t)(0x70 + i);
      uint32_t v = (uint32_t)n; /* var_u32: 7 bits a byte, low group first */
      while (v >= 0x80u) {
        want[wl++] = (uint8_t)(v | 0x80u);
        v >>= 7;
      }
      want[wl++] = (uint8_t)v;
      memcpy(want + wl, src + si, n);
      wl += n;
      assert_int_equal(desert_writer_use_buffer(wf, fixed, wl), DESERT_OK);
      desert_writer *ws[2] = {w, wf};
      for (int k = 0; k < 2; k++) {
        if (k == 0) desert_writer_reset(w);
        for (size_t i = 0; i < pre; i++) desert_write_u8(ws[k], (uint8_t)(0x70 + i));
        assert_int_equal(desert_write_bytes(ws[k], src + si, n), DESERT_OK);
        size_t len;
        const uint8_t *d = desert_writer_data(ws[k], &len);
        desert_assert_bytes_equal(want, wl, d, len);
      }
    }
  }
  desert_writer_free(wf);
  desert_writer_free(w);
  free(fixed);
  free(want);
  free(src);
}

/* ---- generic collections (docs/format.md §6.2) ------------------------------------- */

static void test_known_size_form(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_count(w, 2), DESERT_OK);
  assert_int_equal(desert_write_i32(w, 1), DESERT_OK);
  assert_int_equal(desert_write_i32(w, 2), DESERT_OK);
  ct_expect_out(w, "04 | 00 00 00 01 | 00 00 00 02");
  desert_writer_reset(w);
  assert_int_equal(desert_write_count(w, 0), DESERT_OK);
  ct_expect_out(w, "00");
  /* the same [1,2] through the array call */
  desert_writer_reset(w);
  const int32_t v[2] = {1, 2};
  assert_int_equal(desert_write_count(w, 2), DESERT_OK);
  assert_int_equal(desert_write_i32_array(w, v, 2), DESERT_OK);
  ct_expect_out(w, "04 | 00 00 00 01 | 00 00 00 02");
  /* counts use var_i32: 64 -> 80 01 */
  desert_writer_reset(w);
  assert_int_equal(desert_write_count(w, 64), DESERT_OK);
  assert_int_equal(desert_write_count(w, 2147483647u), DESERT_OK);
  ct_expect_out(w, "80 01 | fe ff ff ff 0f");
  desert_writer_free(w);

  desert_reader *r = ct_new_reader(0);
  uint8_t buf[32];
  size_t n = ct_begin_hex(r, "aa | 04 | 00 00 00 01 | 00 00 00 02", buf, sizeof buf);
  uint8_t skip;
  assert_int_equal(desert_read_u8(r, &skip), DESERT_OK);
  desert_seq seq;
  memset(&seq, 0xff, sizeof seq);
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  assert_true(seq.known);
  assert_int_equal(seq.count, 2);
  assert_int_equal(seq.index, 0);
  assert_int_equal(seq.offset, 1);
  int32_t got[2] = {0, 0};
  size_t k = 0;
  while (desert_read_seq_next(r, &seq)) {
    assert_true(k < 2);
    assert_int_equal(desert_read_i32(r, &got[k]), DESERT_OK);
    k++;
  }
  assert_int_equal(k, 2);
  assert_int_equal(got[0], 1);
  assert_int_equal(got[1], 2);
  ct_expect_fully_read(r, n);
  /* finished sequences stay finished */
  assert_false(desert_read_seq_next(r, &seq));
  assert_int_equal(desert_reader_status(r), DESERT_OK);

  n = ct_begin_hex(r, "00", buf, sizeof buf);
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  assert_true(seq.known);
  assert_int_equal(seq.count, 0);
  assert_false(desert_read_seq_next(r, &seq));
  ct_expect_fully_read(r, n);
  desert_reader_free(r);
}

static void test_unknown_size_form(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_stream_begin(w), DESERT_OK);
  assert_int_equal(desert_write_stream_item(w), DESERT_OK);
  assert_int_equal(desert_write_i32(w, 1), DESERT_OK);
  assert_int_equal(desert_write_stream_item(w), DESERT_OK);
  assert_int_equal(desert_write_i32(w, 2), DESERT_OK);
  assert_int_equal(desert_write_stream_end(w), DESERT_OK);
  ct_expect_out(w, "01 | 01 00 00 00 01 | 01 00 00 00 02 | 00");
  desert_writer_reset(w);
  assert_int_equal(desert_write_stream_begin(w), DESERT_OK);
  assert_int_equal(desert_write_stream_end(w), DESERT_OK);
  ct_expect_out(w, "01 00");
  desert_writer_free(w);

  desert_reader *r = ct_new_reader(0);
  uint8_t buf[32];
  size_t n = ct_begin_hex(r, "01 | 01 00 00 00 01 | 01 00 00 00 02 | 00", buf, sizeof buf);
  desert_seq seq;
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  assert_false(seq.known);
  assert_int_equal(seq.offset, 0);
  int32_t got[3] = {0, 0, 0};
  size_t k = 0;
  while (desert_read_seq_next(r, &seq)) {
    assert_true(k < 2);
    assert_int_equal(desert_read_i32(r, &got[k]), DESERT_OK);
    k++;
    assert_int_equal(seq.index, k);
  }
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(k, 2);
  assert_int_equal(seq.count, 2);
  assert_int_equal(got[0], 1);
  assert_int_equal(got[1], 2);
  ct_expect_fully_read(r, n);

  n = ct_begin_hex(r, "01 00 | 7e", buf, sizeof buf);
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  assert_false(seq.known);
  assert_false(desert_read_seq_next(r, &seq));
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(seq.count, 0);
  assert_int_equal(desert_reader_offset(r), 2); /* the 7e is not consumed */
  (void)n;
  desert_reader_free(r);
}

/* ---- maps (docs/format.md §6.4), tuples (§8), Vec<String> etc. ------------------------ */

static void test_map_as_tuples(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_count(w, 1), DESERT_OK);
  assert_int_equal(desert_write_tuple_begin(w), DESERT_OK);
  assert_int_equal(desert_write_i32(w, 1), DESERT_OK);
  assert_int_equal(desert_write_i32(w, 2), DESERT_OK);
  ct_expect_out(w, "02 | 00 00 00 00 01 00 00 00 02");

  /* Map[String, List[Int]] {"a" -> [7], "b" -> []} with a Scala List */
  desert_writer_reset(w);
  desert_write_count(w, 2);
  desert_write_tuple_begin(w);
  desert_write_cstring(w, "a");
  desert_write_stream_begin(w);
  desert_write_stream_item(w);
  desert_write_i32(w, 7);
  desert_write_stream_end(w);
  desert_write_tuple_begin(w);
  desert_write_cstring(w, "b");
  desert_write_count(w, 0);
  ct_expect_out(w, "04 | 00 02 61 01 01 00 00 00 07 00 | 00 02 62 00");

  desert_reader *r = ct_new_reader(0);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  desert_seq m;
  assert_int_equal(desert_read_seq_begin(r, &m), DESERT_OK);
  assert_int_equal(m.count, 2);
  const char *keys[2] = {"a", "b"};
  size_t e = 0;
  while (desert_read_seq_next(r, &m)) {
    uint8_t ver = 9;
    desert_str key;
    assert_int_equal(desert_read_u8(r, &ver), DESERT_OK);
    assert_int_equal(ver, 0);
    assert_int_equal(desert_read_string(r, &key), DESERT_OK);
    assert_int_equal(key.len, 1);
    assert_int_equal(key.ptr[0], keys[e][0]);
    desert_seq l;
    assert_int_equal(desert_read_seq_begin(r, &l), DESERT_OK);
    assert_int_equal(l.known, e == 1);
    size_t k = 0;
    while (desert_read_seq_next(r, &l)) {
      int32_t v;
      assert_int_equal(desert_read_i32(r, &v), DESERT_OK);
      assert_int_equal(v, 7);
      k++;
    }
    assert_int_equal(k, e == 0 ? 1 : 0);
    e++;
  }
  assert_int_equal(e, 2);
  ct_expect_fully_read(r, len);
  desert_reader_free(r);
  desert_writer_free(w);
}

static void test_tuple_example(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_tuple_begin(w), DESERT_OK);
  assert_int_equal(desert_write_i32(w, 1), DESERT_OK);
  assert_int_equal(desert_write_cstring(w, "x"), DESERT_OK);
  ct_expect_out(w, "00 | 00 00 00 01 | 02 78");
  desert_writer_free(w);
  desert_reader *r = ct_new_reader(0);
  uint8_t buf[16];
  size_t n = ct_begin_hex(r, "00 00 00 00 01 02 78", buf, sizeof buf);
  uint8_t ver = 1;
  int32_t a = 0;
  desert_str s;
  assert_int_equal(desert_read_u8(r, &ver), DESERT_OK);
  assert_int_equal(ver, 0);
  assert_int_equal(desert_read_i32(r, &a), DESERT_OK);
  assert_int_equal(a, 1);
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, 1);
  assert_int_equal(s.ptr[0], 'x');
  ct_expect_fully_read(r, n);
  desert_reader_free(r);
}

/* ---- Option / Either / Try (docs/format.md §7) ------------------------------------- */

static void test_tags(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_option(w, false), DESERT_OK);
  assert_int_equal(desert_write_option(w, true), DESERT_OK);
  assert_int_equal(desert_write_i32(w, 5), DESERT_OK);
  assert_int_equal(desert_write_either(w, false), DESERT_OK); /* Left */
  assert_int_equal(desert_write_cstring(w, "l"), DESERT_OK);
  assert_int_equal(desert_write_either(w, true), DESERT_OK); /* Right */
  assert_int_equal(desert_write_i8(w, -1), DESERT_OK);
  assert_int_equal(desert_write_try(w, true), DESERT_OK);
  assert_int_equal(desert_write_try(w, false), DESERT_OK);
  ct_expect_out(w, "00 | 01 00 00 00 05 | 00 02 6c | 01 ff | 01 | 00");
  desert_writer_free(w);

  for (int lenient = 0; lenient < 2; lenient++) {
    desert_reader *r = ct_new_reader(lenient ? DESERT_OPT_LENIENT_TAGS : 0);
    uint8_t buf[16];
    size_t n = ct_begin_hex(r, "00 01 00 01 00 01", buf, sizeof buf);
    bool b = true;
    assert_int_equal(desert_read_option(r, &b), DESERT_OK);
    assert_false(b);
    assert_int_equal(desert_read_option(r, &b), DESERT_OK);
    assert_true(b);
    assert_int_equal(desert_read_either(r, &b), DESERT_OK);
    assert_false(b);
    assert_int_equal(desert_read_either(r, &b), DESERT_OK);
    assert_true(b);
    assert_int_equal(desert_read_try(r, &b), DESERT_OK);
    assert_false(b);
    assert_int_equal(desert_read_try(r, &b), DESERT_OK);
    assert_true(b);
    ct_expect_fully_read(r, n);
    desert_reader_free(r);
  }
}

/* DESERT_OPT_LENIENT_TAGS: any non-zero tag or stream marker means 01. */
static void test_lenient_tags(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(DESERT_OPT_LENIENT_TAGS);
  uint8_t buf[32];
  size_t n = ct_begin_hex(r, "02 | 7f | ff | 80 | 01 | 05 00 00 00 01 | ff 00 00 00 02 | 00", buf,
                          sizeof buf);
  bool b = false;
  assert_int_equal(desert_read_option(r, &b), DESERT_OK);
  assert_true(b);
  b = false;
  assert_int_equal(desert_read_either(r, &b), DESERT_OK);
  assert_true(b);
  b = false;
  assert_int_equal(desert_read_try(r, &b), DESERT_OK);
  assert_true(b);
  b = false;
  assert_int_equal(desert_read_option(r, &b), DESERT_OK);
  assert_true(b);
  desert_seq seq;
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  assert_false(seq.known);
  int32_t v;
  assert_true(desert_read_seq_next(r, &seq));
  assert_int_equal(desert_read_i32(r, &v), DESERT_OK);
  assert_int_equal(v, 1);
  assert_true(desert_read_seq_next(r, &seq));
  assert_int_equal(desert_read_i32(r, &v), DESERT_OK);
  assert_int_equal(v, 2);
  assert_false(desert_read_seq_next(r, &seq));
  assert_int_equal(seq.count, 2);
  ct_expect_fully_read(r, n);
  desert_reader_free(r);
}

/* ---- fixed-width runs, every type, every length, every ISA --------------------- */

enum { T_U16, T_I16, T_U32, T_I32, T_U64, T_I64, T_F32, T_F64, T_COUNT_ };
static const size_t t_width[T_COUNT_] = {2, 2, 4, 4, 8, 8, 4, 8};
static const char *const t_name[T_COUNT_] = {"u16", "i16", "u32", "i32", "u64", "i64", "f32", "f64"};

static desert_status write_array(desert_writer *w, int t, const void *v, size_t n) {
  switch (t) {
  case T_U16: return desert_write_u16_array(w, v, n);
  case T_I16: return desert_write_i16_array(w, v, n);
  case T_U32: return desert_write_u32_array(w, v, n);
  case T_I32: return desert_write_i32_array(w, v, n);
  case T_U64: return desert_write_u64_array(w, v, n);
  case T_I64: return desert_write_i64_array(w, v, n);
  case T_F32: return desert_write_f32_array(w, v, n);
  default: return desert_write_f64_array(w, v, n);
  }
}

static desert_status read_array(desert_reader *r, int t, void *v, size_t n) {
  switch (t) {
  case T_U16: return desert_read_u16_array(r, v, n);
  case T_I16: return desert_read_i16_array(r, v, n);
  case T_U32: return desert_read_u32_array(r, v, n);
  case T_I32: return desert_read_i32_array(r, v, n);
  case T_U64: return desert_read_u64_array(r, v, n);
  case T_I64: return desert_read_i64_array(r, v, n);
  case T_F32: return desert_read_f32_array(r, v, n);
  default: return desert_read_f64_array(r, v, n);
  }
}

/* Big-endian bytes of n host values of width wd. */
static void to_be(uint8_t *out, const uint8_t *host, size_t n, size_t wd) {
  for (size_t i = 0; i < n; i++) {
    uint64_t v = 0;
    if (wd == 2) {
      uint16_t x;
      memcpy(&x, host + 2 * i, 2);
      v = x;
    } else if (wd == 4) {
      uint32_t x;
      memcpy(&x, host + 4 * i, 4);
      v = x;
    } else {
      memcpy(&v, host + 8 * i, 8);
    }
    for (size_t b = 0; b < wd; b++) out[i * wd + b] = (uint8_t)(v >> (8 * (wd - 1 - b)));
  }
}

static void test_fixed_arrays_every_isa(void **state) {
  (void)state;
  enum { MAXN = 1100 };
  uint64_t *src = malloc(MAXN * 8), *dst = malloc((MAXN + 4) * 8);
  uint8_t *be = malloc(MAXN * 8 + 16);
  assert_non_null(src);
  assert_non_null(dst);
  assert_non_null(be);
  int ran = 0;
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    ran++;
    desert_writer *w = ct_new_writer_isa(0, (desert_isa)isa);
    desert_reader *r = ct_new_reader_isa(0, (desert_isa)isa);
    desert_rng g;
    desert_rng_init_test(&g, 0xa77a0000u + (unsigned)isa);
    for (int t = 0; t < T_COUNT_; t++) {
      size_t wd = t_width[t];
      for (size_t n = 0; n <= 1030; n = n < 70 ? n + 1 : n * 2 + 3) {
        desert_rng_fill(&g, src, n * wd);
        /* prefix byte so the run starts at an odd offset in both buffers */
        desert_writer_reset(w);
        assert_int_equal(desert_write_u8(w, 0xab), DESERT_OK);
        assert_int_equal(desert_write_count(w, n), DESERT_OK);
        assert_int_equal(write_array(w, t, src, n), DESERT_OK);
        size_t len;
        const uint8_t *d = desert_writer_data(w, &len);
        uint8_t hdr[6];
        hdr[0] = 0xab;
        uint32_t zz = desert_oracle_zigzag((int32_t)n);
        size_t hl = 1 + desert_oracle_var_u32_encode(hdr + 1, &zz, 1);
        to_be(be, (const uint8_t *)src, n, wd);
        if (len != hl + n * wd || memcmp(d, hdr, hl) != 0 || memcmp(d + hl, be, n * wd) != 0) {
          print_error("%s array, n %zu, isa %s: wrong bytes\n", t_name[t], n,
                      desert_isa_name((desert_isa)isa));
          desert_assert_bytes_equal(be, n * wd, d + hl, len - hl);
          fail();
        }
        /* read back, with a canary after the n elements */
        assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
        uint8_t pre;
        desert_seq seq;
        assert_int_equal(desert_read_u8(r, &pre), DESERT_OK);
        assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
        assert_int_equal(seq.count, n);
        memset(dst, 0xcd, (MAXN + 4) * 8);
        assert_int_equal(read_array(r, t, dst, n), DESERT_OK);
        desert_assert_bytes_equal(src, n * wd, dst, n * wd);
        for (size_t c = n * wd; c < n * wd + 16; c++)
          assert_int_equal(((const uint8_t *)dst)[c], 0xcd);
        ct_expect_fully_read(r, len);
      }
    }
    desert_reader_free(r);
    desert_writer_free(w);
  }
  assert_true(ran >= 1);
  free(src);
  free(dst);
  free(be);
}

/* Truncated fixed-width runs: DESERT_E_INPUT_ENDED at the first element that
 * does not fit (docs/schema.md §14.5), for short and kernel-length runs. */
static void test_fixed_arrays_truncated(void **state) {
  (void)state;
  uint8_t in[8 * 80 + 8];
  for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)(i * 13 + 1);
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    desert_reader *r = ct_new_reader_isa(0, (desert_isa)isa);
    for (int t = 0; t < T_COUNT_; t++) {
      size_t wd = t_width[t];
      for (size_t n = 1; n <= 70; n += (n < 20 ? 1 : 7)) {
        for (size_t shortby = 1; shortby <= wd + 1 && shortby <= n * wd; shortby++) {
          size_t avail = n * wd - shortby;
          /* 2 bytes before the run */
          assert_int_equal(desert_reader_begin(r, in, 2 + avail), DESERT_OK);
          const uint8_t *p;
          assert_int_equal(desert_read_raw(r, 2, &p), DESERT_OK);
          uint64_t dst[80];
          memset(dst, 0x5a, sizeof dst);
          desert_status st = read_array(r, t, dst, n);
          size_t want = 2 + (avail / wd) * wd;
          if (st != DESERT_E_INPUT_ENDED || desert_reader_error_offset(r) != want) {
            print_error("%s array n %zu short by %zu (isa %s): %s at %zu, want INPUT_ENDED at %zu\n",
                        t_name[t], n, shortby, desert_isa_name((desert_isa)isa),
                        desert_status_name(st), desert_reader_error_offset(r), want);
            fail();
          }
          /* sticky: the next read fails the same way and reads nothing */
          uint8_t b = 0x77;
          assert_int_equal(desert_read_u8(r, &b), DESERT_E_INPUT_ENDED);
          assert_int_equal(b, 0x77);
          assert_int_equal(desert_reader_error_offset(r), want);
        }
      }
    }
    desert_reader_free(r);
  }
}

/* ---- varint runs ------------------------------------------------------------------ */

static uint32_t rand_var(desert_rng *g) {
  switch (desert_rng_below(g, 6)) {
  case 0: return desert_rng_below(g, 128);
  case 1: return desert_rng_below(g, 1u << 14);
  case 2: return desert_rng_below(g, 1u << 21);
  case 3: return desert_rng_below(g, 1u << 28);
  case 4: return (uint32_t)desert_rng_next(g);
  default: return desert_rng_below(g, 3) == 0 ? UINT32_MAX : 0;
  }
}

static void test_var_arrays_every_isa(void **state) {
  (void)state;
  enum { MAXN = 600 };
  uint32_t *u = malloc(MAXN * 4), *gu = malloc((MAXN + 4) * 4);
  uint8_t *want = malloc(MAXN * 5 + 8);
  assert_non_null(u);
  assert_non_null(gu);
  assert_non_null(want);
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    for (int lenient = 0; lenient < 2; lenient++) {
      unsigned fl = lenient ? DESERT_OPT_LENIENT_VARINT : 0;
      desert_writer *w = ct_new_writer_isa(fl, (desert_isa)isa);
      desert_reader *r = ct_new_reader_isa(fl, (desert_isa)isa);
      desert_rng g;
      desert_rng_init_test(&g, 0x7a70000u + (unsigned)isa);
      for (size_t n = 0; n <= MAXN; n = n < 70 ? n + 1 : n * 2 + 1) {
        for (int mode = 0; mode < 3; mode++) {
          /* mode 0: all one-byte values (8-at-once path), 1: mixed, 2: all 5-byte */
          for (size_t i = 0; i < n; i++)
            u[i] = mode == 0 ? desert_rng_below(&g, 128)
                   : mode == 1 ? rand_var(&g)
                               : 0xF0000000u | (uint32_t)desert_rng_next(&g);
          for (int zz = 0; zz < 2; zz++) {
            desert_writer_reset(w);
            assert_int_equal(desert_write_u8(w, 0xee), DESERT_OK);
            if (zz)
              assert_int_equal(desert_write_var_i32_array(w, (const int32_t *)(const void *)u, n),
                               DESERT_OK);
            else
              assert_int_equal(desert_write_var_u32_array(w, u, n), DESERT_OK);
            want[0] = 0xee;
            size_t wn = 1 + (zz ? desert_oracle_var_i32_encode(want + 1,
                                                               (const int32_t *)(const void *)u, n)
                                : desert_oracle_var_u32_encode(want + 1, u, n));
            size_t len;
            const uint8_t *d = desert_writer_data(w, &len);
            desert_assert_bytes_equal(want, wn, d, len);
            assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
            uint8_t pre;
            assert_int_equal(desert_read_u8(r, &pre), DESERT_OK);
            memset(gu, 0xcd, (MAXN + 4) * 4);
            if (zz)
              assert_int_equal(desert_read_var_i32_array(r, (int32_t *)(void *)gu, n), DESERT_OK);
            else
              assert_int_equal(desert_read_var_u32_array(r, gu, n), DESERT_OK);
            desert_assert_bytes_equal(u, 4 * n, gu, 4 * n);
            assert_int_equal(gu[n], 0xcdcdcdcdu);
            ct_expect_fully_read(r, len);
          }
        }
      }
      desert_reader_free(r);
      desert_writer_free(w);
    }
  }
  free(u);
  free(gu);
  free(want);
}

/* Varint runs with a bad value at position k: a continuation bit on the 5th
 * byte is DESERT_E_VARINT_TOO_LONG at the value's first byte (accepted in
 * lenient mode), input ending inside a value or before it starts is
 * DESERT_E_INPUT_ENDED at the value's first byte. */
static void test_var_arrays_errors(void **state) {
  (void)state;
  static const size_t ns[] = {1, 2, 7, 8, 9, 15, 16, 17, 24, 33, 64, 100};
  uint8_t in[1200];
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    desert_reader *r = ct_new_reader_isa(0, (desert_isa)isa);
    desert_reader *rl = ct_new_reader_isa(DESERT_OPT_LENIENT_VARINT, (desert_isa)isa);
    desert_rng g;
    desert_rng_init_test(&g, 0xbad0000u + (unsigned)isa);
    for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
      size_t n = ns[ni];
      for (size_t k = 0; k < n; k++) {
        /* values before k: random; value k: 80 80 80 80 80; after: small */
        size_t o = 3;
        in[0] = in[1] = in[2] = 0;
        size_t starts[128];
        uint32_t vals[128];
        for (size_t i = 0; i < n; i++) {
          starts[i] = o;
          if (i == k) {
            memcpy(in + o, "\x80\x80\x80\x80\x80", 5);
            o += 5;
            vals[i] = 0;
          } else {
            vals[i] = i < k ? rand_var(&g) : (uint32_t)(i & 0x7f);
            o += desert_oracle_var_u32_encode(in + o, &vals[i], 1);
          }
        }
        uint32_t dst[128];
        const uint8_t *p;
        /* strict: too long at starts[k] */
        assert_int_equal(desert_reader_begin(r, in, o), DESERT_OK);
        assert_int_equal(desert_read_raw(r, 3, &p), DESERT_OK);
        desert_status st = desert_read_var_u32_array(r, dst, n);
        if (st != DESERT_E_VARINT_TOO_LONG || desert_reader_error_offset(r) != starts[k]) {
          print_error("isa %s n %zu k %zu: %s at %zu, want VARINT_TOO_LONG at %zu\n",
                      desert_isa_name((desert_isa)isa), n, k, desert_status_name(st),
                      desert_reader_error_offset(r), starts[k]);
          fail();
        }
        assert_int_equal(desert_reader_begin(r, in, o), DESERT_OK);
        assert_int_equal(desert_read_raw(r, 3, &p), DESERT_OK);
        assert_int_equal(desert_read_var_i32_array(r, (int32_t *)dst, n), DESERT_E_VARINT_TOO_LONG);
        assert_int_equal(desert_reader_error_offset(r), starts[k]);
        /* lenient: accepted; the 5-byte value is 0 and the run ends at o */
        assert_int_equal(desert_reader_begin(rl, in, o), DESERT_OK);
        assert_int_equal(desert_read_raw(rl, 3, &p), DESERT_OK);
        assert_int_equal(desert_read_var_u32_array(rl, dst, n), DESERT_OK);
        assert_memory_equal(dst, vals, 4 * n);
        assert_int_equal(desert_reader_offset(rl), o);
        /* truncations: cut inside value k (after its 1st..4th byte) and right
         * before it: INPUT_ENDED at starts[k] */
        for (size_t cut = starts[k]; cut < starts[k] + 5; cut++) {
          assert_int_equal(desert_reader_begin(r, in, cut), DESERT_OK);
          assert_int_equal(desert_read_raw(r, 3, &p), DESERT_OK);
          st = desert_read_var_u32_array(r, dst, n);
          if (st != DESERT_E_INPUT_ENDED || desert_reader_error_offset(r) != starts[k]) {
            print_error("isa %s n %zu k %zu cut %zu: %s at %zu, want INPUT_ENDED at %zu\n",
                        desert_isa_name((desert_isa)isa), n, k, cut, desert_status_name(st),
                        desert_reader_error_offset(r), starts[k]);
            fail();
          }
          assert_int_equal(desert_reader_begin(rl, in, cut), DESERT_OK);
          assert_int_equal(desert_read_raw(rl, 3, &p), DESERT_OK);
          assert_int_equal(desert_read_var_i32_array(rl, (int32_t *)dst, n), DESERT_E_INPUT_ENDED);
          assert_int_equal(desert_reader_error_offset(rl), starts[k]);
        }
      }
    }
    desert_reader_free(rl);
    desert_reader_free(r);
  }
}

/* Random byte soup decoded as varint runs: status, error offset and values
 * agree with the oracle (strict) and with a one-value-at-a-time model of
 * Scala's reader (lenient), under every ISA. */
static desert_status lenient_model(const uint8_t *s, size_t len, uint32_t *dst, size_t n,
                                   size_t *consumed) {
  size_t i = 0;
  for (size_t k = 0; k < n; k++) {
    size_t start = i;
    uint32_t v = 0;
    for (unsigned b = 0; b < 5; b++) {
      if (i >= len) {
        *consumed = start;
        return DESERT_E_INPUT_ENDED;
      }
      uint8_t c = s[i++];
      v |= (uint32_t)(c & 0x7f) << (7 * b);
      if (!(c & 0x80)) break;
    }
    dst[k] = v;
  }
  *consumed = i;
  return DESERT_OK;
}

static void test_var_arrays_random(void **state) {
  (void)state;
  enum { ROUNDS = 4000 };
  uint8_t in[400];
  uint32_t got[80], want[80];
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    desert_reader *r = ct_new_reader_isa(0, (desert_isa)isa);
    desert_reader *rl = ct_new_reader_isa(DESERT_OPT_LENIENT_VARINT, (desert_isa)isa);
    desert_rng g;
    desert_rng_init_test(&g, 0x5a5a0000u);
    for (int round = 0; round < ROUNDS; round++) {
      size_t len = desert_rng_range(&g, 0, 300);
      unsigned hi = desert_rng_below(&g, 100); /* percent of bytes with the top bit */
      in[0] = in[1] = 0x55;
      for (size_t i = 0; i < len; i++) {
        uint8_t b = (uint8_t)desert_rng_below(&g, 128);
        if (desert_rng_below(&g, 100) < hi) b |= 0x80;
        in[2 + i] = b;
      }
      size_t n = desert_rng_range(&g, 0, 80);
      for (int zz = 0; zz < 2; zz++) {
        size_t used;
        desert_status ws = zz ? desert_oracle_var_i32_decode(in + 2, len, (int32_t *)want, n, &used)
                              : desert_oracle_var_u32_decode(in + 2, len, want, n, &used);
        const uint8_t *p;
        assert_int_equal(desert_reader_begin(r, in, 2 + len), DESERT_OK);
        assert_int_equal(desert_read_raw(r, 2, &p), DESERT_OK);
        desert_status st = zz ? desert_read_var_i32_array(r, (int32_t *)got, n)
                              : desert_read_var_u32_array(r, got, n);
        if (st != ws || (st != DESERT_OK && desert_reader_error_offset(r) != 2 + used) ||
            (st == DESERT_OK && (desert_reader_offset(r) != 2 + used ||
                                 memcmp(got, want, 4 * n) != 0))) {
          print_error("[%s] round %d zz %d n %zu len %zu: %s at %zu (offset %zu), want %s at %zu\n",
                      desert_isa_name((desert_isa)isa), round, zz, n, len, desert_status_name(st),
                      desert_reader_error_offset(r), desert_reader_offset(r),
                      desert_status_name(ws), 2 + used);
          fail();
        }
      }
      /* lenient */
      size_t used;
      desert_status ws = lenient_model(in + 2, len, want, n, &used);
      const uint8_t *p;
      assert_int_equal(desert_reader_begin(rl, in, 2 + len), DESERT_OK);
      assert_int_equal(desert_read_raw(rl, 2, &p), DESERT_OK);
      desert_status st = desert_read_var_u32_array(rl, got, n);
      assert_int_equal(st, ws);
      if (st == DESERT_OK) {
        assert_int_equal(desert_reader_offset(rl), 2 + used);
        assert_memory_equal(got, want, 4 * n);
      } else {
        assert_int_equal(desert_reader_error_offset(rl), 2 + used);
      }
    }
    desert_reader_free(rl);
    desert_reader_free(r);
  }
}

/* ---- limits and nested use ---------------------------------------------------------- */

static void test_max_collection(void **state) {
  (void)state;
  desert_options o;
  desert_options_init(&o);
  o.max_collection = 2;
  desert_reader *r = ct_new_reader_opt(&o);
  uint8_t buf[32];
  desert_seq seq;
  /* count 2: fine */
  ct_begin_hex(r, "04", buf, sizeof buf);
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  assert_int_equal(seq.count, 2);
  /* count 3: LIMIT at the count */
  ct_begin_hex(r, "ff | 06 01 02 03", buf, sizeof buf);
  uint8_t b;
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_E_LIMIT);
  ct_expect_error(r, DESERT_E_LIMIT, 1);
  /* unknown-size form: two elements fine, a third is LIMIT at its marker */
  ct_begin_hex(r, "01 | 01 0a | 01 0b | 00", buf, sizeof buf);
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  size_t k = 0;
  while (desert_read_seq_next(r, &seq)) {
    assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
    k++;
  }
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(k, 2);
  ct_begin_hex(r, "01 | 01 0a | 01 0b | 01 0c | 00", buf, sizeof buf);
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  k = 0;
  while (desert_read_seq_next(r, &seq)) {
    assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
    k++;
  }
  assert_int_equal(k, 2);
  ct_expect_error(r, DESERT_E_LIMIT, 5);
  desert_reader_free(r);
}

/* Option<Vec<Option<String>>> and Either<Vec<u8 block>, Map> nest freely. */
static void test_nested(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  desert_write_option(w, true);
  desert_write_count(w, 3);
  desert_write_option(w, true);
  desert_write_cstring(w, "hi");
  desert_write_option(w, false);
  desert_write_option(w, true);
  desert_write_cstring(w, "");
  desert_write_either(w, false);
  const uint8_t blk[2] = {9, 8};
  desert_write_bytes(w, blk, 2);
  ct_expect_out(w, "01 06 | 01 04 68 69 | 00 | 01 00 | 00 02 09 08");
  desert_reader *r = ct_new_reader(0);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  bool some;
  desert_seq seq;
  desert_str s;
  assert_int_equal(desert_read_option(r, &some), DESERT_OK);
  assert_true(some);
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  assert_int_equal(seq.count, 3);
  int idx = 0;
  while (desert_read_seq_next(r, &seq)) {
    assert_int_equal(desert_read_option(r, &some), DESERT_OK);
    assert_int_equal(some, idx != 1);
    if (some) {
      assert_int_equal(desert_read_string(r, &s), DESERT_OK);
      assert_int_equal(s.len, idx == 0 ? 2 : 0);
    }
    idx++;
  }
  bool right = true;
  desert_bytes b;
  assert_int_equal(desert_read_either(r, &right), DESERT_OK);
  assert_false(right);
  assert_int_equal(desert_read_bytes(r, &b), DESERT_OK);
  assert_int_equal(b.len, 2);
  assert_memory_equal(b.ptr, blk, 2);
  ct_expect_fully_read(r, len);
  desert_reader_free(r);
  desert_writer_free(w);
}

int main(void) {
  desert_test_check_expected_isa();
  (void)desert_test_seed();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_byte_blocks),
      cmocka_unit_test(test_byte_block_copy_sizes),
      cmocka_unit_test(test_known_size_form),
      cmocka_unit_test(test_unknown_size_form),
      cmocka_unit_test(test_map_as_tuples),
      cmocka_unit_test(test_tuple_example),
      cmocka_unit_test(test_tags),
      cmocka_unit_test(test_lenient_tags),
      cmocka_unit_test(test_fixed_arrays_every_isa),
      cmocka_unit_test(test_fixed_arrays_truncated),
      cmocka_unit_test(test_var_arrays_every_isa),
      cmocka_unit_test(test_var_arrays_errors),
      cmocka_unit_test(test_var_arrays_random),
      cmocka_unit_test(test_max_collection),
      cmocka_unit_test(test_nested),
  };
  return cmocka_run_group_tests_name("codec_collections", tests, NULL, NULL);
}
