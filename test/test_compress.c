/* test/test_compress.c — compressed byte blocks (docs/format.md §16, docs/schema.md
 * §12): the docs/format.md and conformance example bytes, round trips at every
 * level of both DEFLATE flavours and of the zstd extension, corrupt and
 * truncated blocks with their error offsets, zip-bomb limits checked with
 * the counting allocator, size-only and fixed-buffer writers.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "desert/reader.h"
#include "desert/writer.h"
#include "codec_testlib.h"
#include "test_util.h"

/* ---- helpers ------------------------------------------------------------------- */

static desert_reader *new_reader(const desert_options *o) {
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(o, &r), DESERT_OK);
  return r;
}

static desert_writer *new_writer(const desert_options *o) {
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(o, &w), DESERT_OK);
  return w;
}

typedef enum { K_RAW, K_ZLIB, K_ZSTD } kind;

static desert_status read_block(desert_reader *r, kind k, desert_bytes *out) {
  switch (k) {
  case K_RAW:
    return desert_read_compressed(r, DESERT_COMPRESSION_RAW, out);
  case K_ZLIB:
    return desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, out);
  default:
    return desert_read_compressed_zstd(r, out);
  }
}

static desert_status write_block(desert_writer *w, kind k, int level, const void *src, size_t n) {
  switch (k) {
  case K_RAW:
    return desert_write_compressed(w, DESERT_COMPRESSION_RAW, level, src, n);
  case K_ZLIB:
    return desert_write_compressed(w, DESERT_COMPRESSION_ZLIB, level, src, n);
  default:
    return desert_write_compressed_zstd(w, level, src, n);
  }
}

/* Decodes hex (after `skip` leading bytes read raw) and expects `plain`,
 * consuming exactly `consumed` bytes (0: all). */
static void expect_decode(kind k, const char *hex, size_t skip, const void *plain, size_t n,
                          size_t consumed) {
  size_t len;
  uint8_t *in = ct_dup_hex(hex, &len);
  desert_reader *r = new_reader(NULL);
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  const uint8_t *pre;
  assert_int_equal(desert_read_raw(r, skip, &pre), DESERT_OK);
  desert_bytes b = {NULL, 0};
  assert_int_equal(read_block(r, k, &b), DESERT_OK);
  desert_assert_bytes_equal(plain, n, b.ptr, b.len);
  assert_int_equal(desert_reader_offset(r), consumed ? consumed : len);
  desert_reader_free(r);
  free(in);
}

/* Decodes hex (after `skip` raw bytes) and expects status st at offset. */
static void expect_fail(kind k, const char *hex, size_t skip, desert_status st, size_t offset) {
  size_t len;
  uint8_t *in = ct_dup_hex(hex, &len);
  desert_reader *r = new_reader(NULL);
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  const uint8_t *pre;
  assert_int_equal(desert_read_raw(r, skip, &pre), DESERT_OK);
  desert_bytes b = {(const uint8_t *)"x", 1};
  assert_int_equal(read_block(r, k, &b), st);
  assert_int_equal(desert_reader_status(r), st);
  assert_int_equal(desert_reader_error_offset(r), offset);
  /* Output untouched, error sticky. */
  assert_int_equal(b.len, 1);
  assert_int_equal(read_block(r, k, &b), st);
  assert_int_equal(desert_reader_error_offset(r), offset);
  desert_reader_free(r);
  free(in);
}

/* read_block as a codec_testlib read callback; k points at the kind. */
static desert_status read_kind(desert_reader *r, const void *k) {
  desert_bytes b;
  return read_block(r, *(const kind *)k, &b);
}

/* Every proper prefix of hex must fail with DESERT_E_INPUT_ENDED at the
 * start of the item holding the first missing byte: items start at
 * starts[0..n) (ascending, starts[0] = 0). */
static void expect_truncations(kind k, const char *hex, const size_t *starts, size_t nstarts) {
  size_t len;
  uint8_t *full = ct_dup_hex(hex, &len);
  desert_reader *r = new_reader(NULL);
  ct_expect_truncations(r, full, len, starts, nstarts, read_kind, &k, NULL);
  desert_reader_free(r);
  free(full);
}

static uint8_t *repeat_hex(const char *unit_hex, size_t times, size_t *n) {
  size_t ul;
  uint8_t *unit = ct_dup_hex(unit_hex, &ul);
  uint8_t *out = malloc(ul * times + 1);
  assert_non_null(out);
  for (size_t i = 0; i < times; i++) memcpy(out + i * ul, unit, ul);
  free(unit);
  *n = ul * times;
  return out;
}

/* Test inputs: empty, short text, compressible text, random bytes, zeros. */
typedef struct sample {
  uint8_t *data;
  size_t len;
} sample;

static size_t make_samples(sample *s, size_t max) {
  size_t k = 0;
  static const char hello[] = "hello hello hello";
  s[k].len = 0;
  s[k++].data = malloc(1);
  s[k].len = sizeof hello - 1;
  s[k].data = malloc(s[k].len);
  memcpy(s[k++].data, hello, sizeof hello - 1);
  /* Text-like: words from a small vocabulary (compresses well). */
  desert_rng rng;
  desert_rng_init_test(&rng, 0xc0);
  static const char *const words[] = {"desert ", "record ",    "chunk ", "varint ",
                                      "zlib ",   "evolution ", "field ", "\n"};
  s[k].len = 100000;
  s[k].data = malloc(s[k].len);
  for (size_t i = 0; i < s[k].len;) {
    const char *wd = words[desert_rng_below(&rng, 8)];
    size_t wl = strlen(wd);
    if (wl > s[k].len - i) wl = s[k].len - i;
    memcpy(s[k].data + i, wd, wl);
    i += wl;
  }
  k++;
  s[k].len = 5000;
  s[k].data = malloc(s[k].len);
  desert_rng_fill(&rng, s[k].data, s[k].len);
  k++;
  s[k].len = 70000;
  s[k].data = calloc(1, s[k].len);
  k++;
  for (size_t i = 0; i < k; i++) assert_non_null(s[i].data);
  assert_true(k <= max);
  return k;
}

static void free_samples(sample *s, size_t n) {
  for (size_t i = 0; i < n; i++) free(s[i].data);
}

/* ---- docs/format.md and conformance example bytes -------------------------------- */

static void test_raw_format_example(void **state) {
  (void)state;
  /* docs/format.md §16.1: "hello hello hello" at flate2's fast level. */
  expect_decode(K_RAW, "11 09 cb 48 cd c9 c9 57 40 22 01", 0, "hello hello hello", 17, 0);
  /* Same block after a prefix and followed by other data. */
  expect_decode(K_RAW, "aa bb 11 09 cb 48 cd c9 c9 57 40 22 01 ff", 2, "hello hello hello", 17, 13);
  static const size_t starts[] = {0, 1, 2};
  expect_truncations(K_RAW, "11 09 cb 48 cd c9 c9 57 40 22 01", starts, 3);
}

static void test_raw_empty_example(void **state) {
  (void)state;
  /* docs/format.md §16.1: empty input at the default level. */
  expect_decode(K_RAW, "00 02 03 00", 0, "", 0, 0);
  static const size_t starts[] = {0, 1, 2};
  expect_truncations(K_RAW, "00 02 03 00", starts, 3);
  /* Our writer produces exactly these bytes at the default level (and
   * flate2's stored form at level 0); both decode to nothing. */
  desert_writer *w = new_writer(NULL);
  assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_RAW, -1, NULL, 0), DESERT_OK);
  size_t n;
  const uint8_t *d = desert_writer_data(w, &n);
  desert_assert_bytes_equal("\x00\x02\x03\x00", 4, d, n);
  desert_writer_reset(w);
  assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_RAW, 0, "", 0), DESERT_OK);
  d = desert_writer_data(w, &n);
  desert_assert_bytes_equal("\x00\x05\x01\x00\x00\xff\xff", 7, d, n);
  expect_decode(K_RAW, "00 05 01 00 00 ff ff", 0, "", 0, 0);
  desert_writer_reset(w);
  assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_RAW, -1, NULL, 0), DESERT_OK);
  d = desert_writer_data(w, &n);
  desert_reader *r = new_reader(NULL);
  assert_int_equal(desert_reader_begin(r, d, n), DESERT_OK);
  desert_bytes b;
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_RAW, &b), DESERT_OK);
  assert_int_equal(b.len, 0);
  assert_int_equal(desert_reader_offset(r), n);
  desert_reader_free(r);
  desert_writer_free(w);
}

static void test_zlib_empty(void **state) {
  (void)state;
  /* docs/format.md §16.2: Scala writes an empty array as the single byte 00 and
   * reads nothing after a plain length of 0. */
  expect_decode(K_ZLIB, "00", 0, "", 0, 0);
  expect_decode(K_ZLIB, "00 ff ff", 0, "", 0, 1);
  expect_fail(K_ZLIB, "", 0, DESERT_E_INPUT_ENDED, 0);
  desert_writer *w = new_writer(NULL);
  assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_ZLIB, -1, NULL, 0), DESERT_OK);
  size_t n;
  const uint8_t *d = desert_writer_data(w, &n);
  desert_assert_bytes_equal("\x00", 1, d, n);
  desert_writer_free(w);
}

/* Blocks taken from the public conformance cases (reference writers). */
static const char zlib_0009[] =
    "a801b301780101a80057ff6d5f66442d735b4e615b576e592e6d5f66442d735b4e615b576e592e6d5f66442d73"
    "5b4e615b576e592e6d5f66442d735b4e615b576e592e6d5f66442d735b4e615b576e592e6d5f66442d735b4e61"
    "5b576e592e6d5f66442d735b4e615b576e592e6d5f66442d735b4e615b576e592e6d5f66442d735b4e615b576e"
    "592e6d5f66442d735b4e615b576e592e6d5f66442d735b4e615b576e592e6d5f66442d735b4e615b576e592efa"
    "0e3955";
static const char zlib_0281[] =
    "b2023f7801538afb307fced6aa572ba79f69bfb1e7c3fc190d1fe6af5e63f0617effca24fd0485c71bb63c6a58"
    "11cc0324c222e4814a7717a52b8d6c2d00eac7b2a5";
static const char raw_0032[] = "171adb77e522477af8af92eed515161eb2531daf9fbb657228c20900";

static void test_conformance_blocks(void **state) {
  (void)state;
  size_t n;
  uint8_t *plain = repeat_hex("6d5f66442d735b4e615b576e592e", 12, &n);
  assert_int_equal(n, 168);
  expect_decode(K_ZLIB, zlib_0009, 0, plain, n, 0);
  static const size_t s0009[] = {0, 2, 4};
  expect_truncations(K_ZLIB, zlib_0009, s0009, 3);
  free(plain);

  plain = repeat_hex("225ef09f9cb57aeaa997cc87d8bcf09f9880f09fabac30f09f8fa9622f6020e3b0b4e280a8"
                     "530ce280a856581ff09f9cbb7267",
                     6, &n);
  assert_int_equal(n, 306);
  expect_decode(K_ZLIB, zlib_0281, 0, plain, n, 0);
  static const size_t s0281[] = {0, 2, 3};
  expect_truncations(K_ZLIB, zlib_0281, s0281, 3);
  free(plain);

  plain = ct_dup_hex("bed4d1086757fa748bab7838481d9541d7ceda34c25842", &n);
  expect_decode(K_RAW, raw_0032, 0, plain, n, 0);
  static const size_t s0032[] = {0, 1, 2};
  expect_truncations(K_RAW, raw_0032, s0032, 3);
  free(plain);
}

/* ---- round trips ------------------------------------------------------------------- */

static void roundtrip(kind k, int level, const sample *s) {
  desert_writer *w = new_writer(NULL);
  /* Two blocks in one message, with a marker between them. */
  assert_int_equal(write_block(w, k, level, s->data, s->len), DESERT_OK);
  assert_int_equal(desert_write_u8(w, 0x5a), DESERT_OK);
  assert_int_equal(write_block(w, k, level, s->data, s->len), DESERT_OK);
  size_t n;
  const uint8_t *d = desert_writer_data(w, &n);
  uint8_t *copy = malloc(n);
  assert_non_null(copy);
  memcpy(copy, d, n);

  /* Size-only mode counts exactly the same bytes. */
  desert_writer *c = new_writer(NULL);
  desert_writer_count_only(c);
  assert_int_equal(write_block(c, k, level, s->data, s->len), DESERT_OK);
  assert_int_equal(desert_write_u8(c, 0x5a), DESERT_OK);
  assert_int_equal(write_block(c, k, level, s->data, s->len), DESERT_OK);
  assert_int_equal(desert_writer_size(c), n);
  assert_null(desert_writer_data(c, NULL));
  desert_writer_free(c);

  desert_reader *r = new_reader(NULL);
  assert_int_equal(desert_reader_begin(r, copy, n), DESERT_OK);
  desert_bytes a, b;
  uint8_t mark;
  assert_int_equal(read_block(r, k, &a), DESERT_OK);
  assert_int_equal(desert_read_u8(r, &mark), DESERT_OK);
  assert_int_equal(mark, 0x5a);
  assert_int_equal(read_block(r, k, &b), DESERT_OK);
  desert_assert_bytes_equal(s->data, s->len, a.ptr, a.len);
  desert_assert_bytes_equal(s->data, s->len, b.ptr, b.len);
  assert_int_equal(desert_reader_offset(r), n);
  desert_reader_free(r);
  free(copy);
  desert_writer_free(w);
}

static void test_roundtrip_deflate_levels(void **state) {
  (void)state;
  sample s[8];
  size_t ns = make_samples(s, 8);
  for (int level = -1; level <= 12; level++)
    for (size_t i = 0; i < ns; i++) {
      roundtrip(K_RAW, level, &s[i]);
      roundtrip(K_ZLIB, level, &s[i]);
    }
  free_samples(s, ns);
}

static void test_roundtrip_zstd_levels(void **state) {
  (void)state;
  sample s[8];
  size_t ns = make_samples(s, 8);
  static const int levels[] = {-1, 0, 1, 3, 9, 19};
  for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
    for (size_t i = 0; i < ns; i++) roundtrip(K_ZSTD, levels[l], &s[i]);
  free_samples(s, ns);
}

static void test_header_layout(void **state) {
  (void)state;
  /* raw: var_u32 plain, var_u32 compressed, raw DEFLATE (no zlib header);
   * zlib: same lengths, then a zlib header (CMF 0x78) and Adler-32;
   * zstd: same lengths, then a frame (magic 28 b5 2f fd). */
  static const char text[] = "hello hello hello";
  desert_writer *w = new_writer(NULL);
  size_t n;
  const uint8_t *d;

  assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_ZLIB, -1, text, 17), DESERT_OK);
  d = desert_writer_data(w, &n);
  assert_int_equal(d[0], 17);
  assert_int_equal(d[1], n - 2);
  assert_int_equal(d[2], 0x78);
  assert_int_equal(d[3], 0x01); /* level 1 = BEST_SPEED, as java.util.zip */
  assert_int_equal((d[2] * 256 + d[3]) % 31, 0);

  desert_writer_reset(w);
  assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_RAW, 6, text, 17), DESERT_OK);
  d = desert_writer_data(w, &n);
  assert_int_equal(d[0], 17);
  assert_int_equal(d[1], n - 2);
  assert_true(d[2] != 0x78); /* no zlib header */

  desert_writer_reset(w);
  assert_int_equal(desert_write_compressed_zstd(w, -1, text, 17), DESERT_OK);
  d = desert_writer_data(w, &n);
  assert_int_equal(d[0], 17);
  assert_int_equal(d[1], n - 2);
  desert_assert_bytes_equal("\x28\xb5\x2f\xfd", 4, d + 2, 4);
  desert_writer_free(w);
}

/* ---- lengths that do not match the stream --------------------------------------- */

static void test_raw_plain_length_is_a_hint(void **state) {
  (void)state;
  /* Announced 0, 1 and 1000 instead of 17: still the whole stream. */
  expect_decode(K_RAW, "00 09 cb 48 cd c9 c9 57 40 22 01", 0, "hello hello hello", 17, 0);
  expect_decode(K_RAW, "01 09 cb 48 cd c9 c9 57 40 22 01", 0, "hello hello hello", 17, 0);
  expect_decode(K_RAW, "e8 07 09 cb 48 cd c9 c9 57 40 22 01", 0, "hello hello hello", 17, 0);
  /* Bytes after the end of the stream inside the block are ignored. */
  expect_decode(K_RAW, "11 0c cb 48 cd c9 c9 57 40 22 01 de ad be", 0, "hello hello hello", 17, 0);
  /* A stream longer than the default first buffer, announced as 1 byte. */
  sample s[8];
  size_t ns = make_samples(s, 8);
  desert_writer *w = new_writer(NULL);
  assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_RAW, 6, s[2].data, s[2].len),
                   DESERT_OK);
  size_t n;
  const uint8_t *d = desert_writer_data(w, &n);
  /* Re-frame with plain length 1. */
  size_t hl = 0;
  while (d[hl] & 0x80) hl++;
  hl++;
  uint8_t *in = malloc(n - hl + 1);
  assert_non_null(in);
  in[0] = 0x01;
  memcpy(in + 1, d + hl, n - hl);
  desert_reader *r = new_reader(NULL);
  assert_int_equal(desert_reader_begin(r, in, n - hl + 1), DESERT_OK);
  desert_bytes b;
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_RAW, &b), DESERT_OK);
  desert_assert_bytes_equal(s[2].data, s[2].len, b.ptr, b.len);
  desert_reader_free(r);
  free(in);
  desert_writer_free(w);
  free_samples(s, ns);
}

/* A zlib block of "hello hello hello" re-framed with another plain length. */
static uint8_t *zlib_hello_with_plain(uint32_t plain, size_t *n) {
  desert_writer *w = new_writer(NULL);
  assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_ZLIB, 6, "hello hello hello", 17),
                   DESERT_OK);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(d[0], 17);
  desert_writer *w2 = new_writer(NULL);
  assert_int_equal(desert_write_var_u32(w2, plain), DESERT_OK);
  assert_int_equal(desert_write_raw(w2, d + 1, len - 1), DESERT_OK);
  const uint8_t *d2 = desert_writer_data(w2, n);
  uint8_t *out = malloc(*n);
  assert_non_null(out);
  memcpy(out, d2, *n);
  desert_writer_free(w2);
  desert_writer_free(w);
  return out;
}

static void test_zlib_exact_announced_length(void **state) {
  (void)state;
  /* Java inflates into exactly the announced size: shorter output is
   * padded with zeros, longer output is cut (docs/schema.md §12). */
  static const struct {
    uint32_t plain;
    const char *want;
    size_t want_len;
  } cases[] = {
      {5, "hello", 5},
      {1, "h", 1},
      {17, "hello hello hello", 17},
      {20, "hello hello hello\0\0\0", 20},
      {300, NULL, 300},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t n;
    uint8_t *in = zlib_hello_with_plain(cases[i].plain, &n);
    desert_reader *r = new_reader(NULL);
    assert_int_equal(desert_reader_begin(r, in, n), DESERT_OK);
    desert_bytes b;
    assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b), DESERT_OK);
    assert_int_equal(b.len, cases[i].want_len);
    if (cases[i].want) {
      desert_assert_bytes_equal(cases[i].want, cases[i].want_len, b.ptr, b.len);
    } else {
      assert_memory_equal(b.ptr, "hello hello hello", 17);
      for (size_t k = 17; k < b.len; k++) assert_int_equal(b.ptr[k], 0);
    }
    assert_int_equal(desert_reader_offset(r), n);
    desert_reader_free(r);
    free(in);
  }
}

/* ---- corrupt blocks ------------------------------------------------------------------ */

static void test_corrupt_raw(void **state) {
  (void)state;
  /* Conformance s1000-0034 / -0049 / -0245: invalid block type, reported at
   * the first compressed byte. */
  expect_fail(K_RAW, "25 02 ff ff", 0, DESERT_E_DECOMPRESSION, 2);
  expect_fail(K_RAW, "28 01 07", 0, DESERT_E_DECOMPRESSION, 2);
  expect_fail(K_RAW, "16 01 07", 0, DESERT_E_DECOMPRESSION, 2);
  /* s1000-0176 / -0046: the same inside a larger message. */
  expect_fail(K_RAW, "04 27 02 ff ff", 1, DESERT_E_DECOMPRESSION, 3);
  expect_fail(K_RAW, "00 01 00 32 01 07", 3, DESERT_E_DECOMPRESSION, 5);
  /* s1000-0360: an incomplete stream (a zlib header read as raw DEFLATE). */
  expect_fail(K_RAW, "02 00 02 6b 05 04 78 9c ff ff", 4, DESERT_E_DECOMPRESSION, 6);
  /* Empty compressed bytes, and a stream cut short inside the block. */
  expect_fail(K_RAW, "11 00", 0, DESERT_E_DECOMPRESSION, 2);
  expect_fail(K_RAW, "11 08 cb 48 cd c9 c9 57 40 22", 0, DESERT_E_DECOMPRESSION, 2);
  expect_fail(K_RAW, "11 01 cb", 0, DESERT_E_DECOMPRESSION, 2);
  /* A zlib stream is not a raw stream. */
  expect_fail(K_RAW, "03 0b 78 01 4b 4c 4a 06 00 02 4d 01 27", 0, DESERT_E_DECOMPRESSION, 2);
}

static void test_corrupt_raw_every_prefix(void **state) {
  (void)state;
  /* Every shortened stream (lengths adjusted to match) is incomplete. */
  sample s[8];
  size_t ns = make_samples(s, 8);
  for (size_t i = 1; i < ns; i++) {
    desert_writer *w = new_writer(NULL);
    assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_RAW, 6, s[i].data, s[i].len),
                     DESERT_OK);
    size_t n;
    const uint8_t *d = desert_writer_data(w, &n);
    size_t at = 0;
    while (d[at] & 0x80) at++;
    at++;
    size_t cl_at = at;
    while (d[at] & 0x80) at++;
    at++;
    size_t clen = n - at;
    (void)cl_at;
    /* Sample a subset of prefixes for long streams. */
    size_t step = clen > 400 ? clen / 97 : 1;
    for (size_t cut = 0; cut < clen; cut += step) {
      desert_writer *f = new_writer(NULL);
      assert_int_equal(desert_write_var_u32(f, (uint32_t)s[i].len), DESERT_OK);
      assert_int_equal(desert_write_bytes(f, d + at, cut), DESERT_OK);
      size_t fn;
      const uint8_t *fd = desert_writer_data(f, &fn);
      desert_reader *r = new_reader(NULL);
      assert_int_equal(desert_reader_begin(r, fd, fn), DESERT_OK);
      desert_bytes b;
      desert_status st = desert_read_compressed(r, DESERT_COMPRESSION_RAW, &b);
      if (st != DESERT_E_DECOMPRESSION)
        fail_msg("sample %zu cut %zu/%zu: %s", i, cut, clen, desert_status_name(st));
      assert_int_equal(desert_reader_error_offset(r), fn - cut);
      desert_reader_free(r);
      desert_writer_free(f);
    }
    desert_writer_free(w);
  }
  free_samples(s, ns);
}

static void test_corrupt_zlib(void **state) {
  (void)state;
  /* Conformance s1000-0151 / -0026: "incorrect header check", reported as a
   * DeserializationFailure at the first compressed byte. */
  expect_fail(K_ZLIB, "1e 04 00 05 00 ff", 0, DESERT_E_ZLIB_BLOCK, 2);
  expect_fail(K_ZLIB, "01 14 06 00 00 01 3f 1e 04 00 05 00 ff 04 7f 60", 7, DESERT_E_ZLIB_BLOCK, 9);
  /* A raw stream is not a zlib stream. */
  expect_fail(K_ZLIB, "11 09 cb 48 cd c9 c9 57 40 22 01", 0, DESERT_E_ZLIB_BLOCK, 2);
  /* No compressed bytes for a non-empty array: incomplete, not corrupt --
   * Inflater returns nothing and the result is 5 zeros (docs/schema.md §12;
   * test_compress_inflater.c has the rest of that rule). */
  expect_decode(K_ZLIB, "05 00", 0, "\0\0\0\0\0", 5, 0);
  /* Bad Adler-32 trailer. */
  size_t n;
  uint8_t *in = zlib_hello_with_plain(17, &n);
  in[n - 1] ^= 0x01;
  desert_reader *r = new_reader(NULL);
  assert_int_equal(desert_reader_begin(r, in, n), DESERT_OK);
  desert_bytes b;
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b), DESERT_E_ZLIB_BLOCK);
  assert_int_equal(desert_reader_error_offset(r), 2);
  desert_reader_free(r);
  free(in);
}

static void test_corrupt_zstd(void **state) {
  (void)state;
  static const char text[] = "hello hello hello hello hello";
  desert_writer *w = new_writer(NULL);
  assert_int_equal(desert_write_compressed_zstd(w, 3, text, 29), DESERT_OK);
  size_t n;
  const uint8_t *d = desert_writer_data(w, &n);
  uint8_t *in = malloc(n + 16);
  assert_non_null(in);
  desert_reader *r = new_reader(NULL);
  desert_bytes b;

  /* Valid, then every truncation. */
  memcpy(in, d, n);
  assert_int_equal(desert_reader_begin(r, in, n), DESERT_OK);
  assert_int_equal(desert_read_compressed_zstd(r, &b), DESERT_OK);
  desert_assert_bytes_equal(text, 29, b.ptr, b.len);
  char hex[256];
  desert_hex_encode(d, n, hex, sizeof hex);
  static const size_t starts[] = {0, 1, 2};
  expect_truncations(K_ZSTD, hex, starts, 3);

  /* Announced length differs from the frame's content size. */
  in[0] = 28;
  assert_int_equal(desert_reader_begin(r, in, n), DESERT_OK);
  assert_int_equal(desert_read_compressed_zstd(r, &b), DESERT_E_DECOMPRESSION);
  assert_int_equal(desert_reader_error_offset(r), 2);

  /* Corrupt magic number. */
  memcpy(in, d, n);
  in[2] ^= 0xff;
  assert_int_equal(desert_reader_begin(r, in, n), DESERT_OK);
  assert_int_equal(desert_read_compressed_zstd(r, &b), DESERT_E_DECOMPRESSION);
  assert_int_equal(desert_reader_error_offset(r), 2);

  /* Corrupt payload byte: any failure must be DECOMPRESSION, never a crash;
   * sweep every byte of the frame. */
  for (size_t i = 2; i < n; i++) {
    memcpy(in, d, n);
    in[i] ^= 0x5a;
    assert_int_equal(desert_reader_begin(r, in, n), DESERT_OK);
    desert_status st = desert_read_compressed_zstd(r, &b);
    if (st == DESERT_OK) {
      assert_int_equal(b.len, 29);
    } else {
      assert_int_equal(st, DESERT_E_DECOMPRESSION);
      assert_int_equal(desert_reader_error_offset(r), 2);
    }
  }

  /* Extra bytes after the frame inside the block. */
  memcpy(in, d, n);
  in[1] = (uint8_t)(in[1] + 3);
  in[n] = in[n + 1] = in[n + 2] = 0;
  assert_int_equal(desert_reader_begin(r, in, n + 3), DESERT_OK);
  assert_int_equal(desert_read_compressed_zstd(r, &b), DESERT_E_DECOMPRESSION);
  assert_int_equal(desert_reader_error_offset(r), 2);

  /* Not a zstd frame at all. */
  expect_fail(K_ZSTD, "11 09 cb 48 cd c9 c9 57 40 22 01", 0, DESERT_E_DECOMPRESSION, 2);
  expect_fail(K_ZSTD, "00 00", 0, DESERT_E_DECOMPRESSION, 2);

  desert_reader_free(r);
  free(in);
  desert_writer_free(w);
}

static void test_length_errors(void **state) {
  (void)state;
  /* Compressed length beyond the input: InputEnded at the compressed bytes,
   * before anything is allocated. */
  expect_fail(K_RAW, "11 20 cb 48", 0, DESERT_E_INPUT_ENDED, 2);
  expect_fail(K_ZLIB, "11 20 cb 48", 0, DESERT_E_INPUT_ENDED, 2);
  expect_fail(K_ZSTD, "11 20 cb 48", 0, DESERT_E_INPUT_ENDED, 2);
  expect_fail(K_RAW, "aa 11 ff ff ff ff 0f", 1, DESERT_E_INPUT_ENDED, 7);
  /* Varints with a continuation bit on the 5th byte. */
  expect_fail(K_RAW, "80 80 80 80 80 00", 0, DESERT_E_VARINT_TOO_LONG, 0);
  expect_fail(K_ZLIB, "05 80 80 80 80 80 00", 0, DESERT_E_VARINT_TOO_LONG, 1);
  expect_fail(K_ZSTD, "00 80 80 80 80 80 00", 0, DESERT_E_VARINT_TOO_LONG, 1);
}

/* ---- limits and allocation ------------------------------------------------------------ */

static void expect_limit_without_alloc(kind k, const char *hex, size_t skip, size_t max,
                                       size_t offset) {
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  o.max_decompressed = max;
  desert_reader *r = new_reader(&o);
  size_t len;
  uint8_t *in = ct_dup_hex(hex, &len);
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  const uint8_t *pre;
  assert_int_equal(desert_read_raw(r, skip, &pre), DESERT_OK);
  size_t before = ca.allocs;
  desert_bytes b;
  assert_int_equal(read_block(r, k, &b), DESERT_E_LIMIT);
  assert_int_equal(desert_reader_error_offset(r), offset);
  assert_int_equal(ca.allocs, before); /* rejected before allocating */
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
  free(in);
}

static void test_zip_bomb_announced(void **state) {
  (void)state;
  /* A block claiming 4 GiB - 1 of plain data. */
  expect_limit_without_alloc(K_RAW, "ff ff ff ff 0f 02 03 00", 0, 0, 0);
  expect_limit_without_alloc(K_ZLIB, "ff ff ff ff 0f 02 03 00", 0, 0, 0);
  expect_limit_without_alloc(K_ZSTD, "ff ff ff ff 0f 02 03 00", 0, 0, 0);
  expect_limit_without_alloc(K_RAW, "aa ff ff ff ff 0f 02 03 00", 1, 0, 1);
  /* Just above a small configured limit (exactly at it is fine). */
  expect_limit_without_alloc(K_RAW, "e9 07 02 03 00", 0, 1000, 0);
  expect_limit_without_alloc(K_ZLIB, "e9 07 02 03 00", 0, 1000, 0);
  expect_limit_without_alloc(K_ZSTD, "e9 07 02 03 00", 0, 1000, 0);
}

static void test_zip_bomb_actual(void **state) {
  (void)state;
  /* 4 MiB of zeros announced as 16 bytes, read with a 64 KiB limit: the
   * raw reader grows its buffer up to the limit and stops there; the zlib
   * reader, like Inflater, stops once 16 bytes are out (docs/schema.md §12). */
  const size_t big = (size_t)4 << 20;
  uint8_t *zeros = calloc(1, big);
  assert_non_null(zeros);
  for (int z = 0; z < 2; z++) {
    desert_compression fl = z ? DESERT_COMPRESSION_ZLIB : DESERT_COMPRESSION_RAW;
    desert_writer *w = new_writer(NULL);
    assert_int_equal(desert_write_compressed(w, fl, 9, zeros, big), DESERT_OK);
    size_t n;
    const uint8_t *d = desert_writer_data(w, &n);
    size_t hl = 0;
    while (d[hl] & 0x80) hl++;
    hl++;
    uint8_t *in = malloc(n - hl + 1);
    assert_non_null(in);
    in[0] = 16;
    memcpy(in + 1, d + hl, n - hl);
    size_t clen_len = 0;
    while (in[1 + clen_len] & 0x80) clen_len++;
    clen_len++;

    desert_counting_allocator ca;
    desert_options o;
    ct_counting_options(&o, &ca);
    o.max_decompressed = 64 << 10;
    desert_reader *r = new_reader(&o);
    assert_int_equal(desert_reader_begin(r, in, n - hl + 1), DESERT_OK);
    desert_bytes b;
    if (z) {
      assert_int_equal(desert_read_compressed(r, fl, &b), DESERT_OK);
      assert_int_equal(b.len, 16);
      for (size_t i = 0; i < b.len; i++) assert_int_equal(b.ptr[i], 0);
    } else {
      assert_int_equal(desert_read_compressed(r, fl, &b), DESERT_E_LIMIT);
      assert_int_equal(desert_reader_error_offset(r), 1 + clen_len);
    }
    assert_true(ca.peak_bytes < (size_t)(256 << 10));
    desert_reader_free(r);
    assert_int_equal(ca.live_blocks, 0);
    assert_int_equal(ca.bad_frees, 0);

    /* With the default limit it inflates fully (raw) / is cut to 16 (zlib). */
    r = new_reader(NULL);
    assert_int_equal(desert_reader_begin(r, in, n - hl + 1), DESERT_OK);
    assert_int_equal(desert_read_compressed(r, fl, &b), DESERT_OK);
    assert_int_equal(b.len, z ? 16 : big);
    for (size_t i = 0; i < b.len; i += 4093) assert_int_equal(b.ptr[i], 0);
    desert_reader_free(r);
    free(in);
    desert_writer_free(w);
  }
  free(zeros);
}

/* A truncated raw stream that libdeflate keeps decoding past its end (as
 * implicit zero bits) until every buffer up to 32 KiB is full: 19 bytes of
 * garbage found by test_random_garbage. No valid 19-byte stream inflates
 * past inflate_bound(), so this is bad data at the first compressed byte,
 * not the DESERT_E_LIMIT of options.max_decompressed; with a configured
 * limit below that bound it stays DESERT_E_LIMIT. */
static void test_truncated_stream_past_bound(void **state) {
  (void)state;
  static const char hex[] = "3f 13 a9 9f d4 60 2b ed f1 aa a7 f7 71 64 d1 c7 9c 28 37 e5 0d";
  expect_fail(K_RAW, hex, 0, DESERT_E_DECOMPRESSION, 2);
  size_t len;
  uint8_t *in = ct_dup_hex(hex, &len);
  desert_options o;
  desert_options_init(&o);
  o.max_decompressed = 4096;
  desert_reader *r = new_reader(&o);
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  desert_bytes b;
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_RAW, &b), DESERT_E_LIMIT);
  assert_int_equal(desert_reader_error_offset(r), 2);
  desert_reader_free(r);
  free(in);
}

static void test_allocator_honoured(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  sample s[8];
  size_t ns = make_samples(s, 8);
  desert_writer *w = new_writer(&o);
  desert_reader *r = new_reader(&o);
  for (kind k = K_RAW; k <= K_ZSTD; k++) {
    desert_writer_reset(w);
    size_t before = ca.allocs;
    assert_int_equal(write_block(w, k, -1, s[2].data, s[2].len), DESERT_OK);
    if (k == K_ZSTD) assert_true(ca.allocs > before); /* the ZSTD_CCtx came from us */
    size_t n;
    const uint8_t *d = desert_writer_data(w, &n);
    assert_int_equal(desert_reader_begin(r, d, n), DESERT_OK);
    desert_bytes b;
    before = ca.allocs;
    assert_int_equal(read_block(r, k, &b), DESERT_OK);
    desert_assert_bytes_equal(s[2].data, s[2].len, b.ptr, b.len);
    assert_true(ca.allocs > before || k != K_ZSTD);
  }
  desert_reader_free(r);
  desert_writer_free(w);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
  free_samples(s, ns);
}

static void test_out_of_memory(void **state) {
  (void)state;
  /* Every allocation point fails cleanly with NOMEM (no leak, no crash). */
  sample s[8];
  size_t ns = make_samples(s, 8);
  for (kind k = K_RAW; k <= K_ZSTD; k++) {
    /* Encoded once with plain malloc. */
    desert_writer *pw = new_writer(NULL);
    assert_int_equal(write_block(pw, k, -1, s[2].data, s[2].len), DESERT_OK);
    size_t n;
    const uint8_t *d = desert_writer_data(pw, &n);
    for (size_t budget = 0; budget < 64; budget++) {
      desert_counting_allocator ca;
      desert_options o;
      ct_counting_options(&o, &ca);
      desert_writer *w = new_writer(&o);
      desert_reader *r = new_reader(&o);
      desert_counting_allocator_fail_after(&ca, budget);
      desert_status st = write_block(w, k, -1, s[2].data, s[2].len);
      assert_true(st == DESERT_OK || st == DESERT_E_NOMEM);
      if (st == DESERT_OK) assert_int_equal(desert_writer_size(w), n);
      if (st == DESERT_E_NOMEM) assert_int_equal(desert_writer_size(w), 0);
      desert_counting_allocator_fail_after(&ca, budget);
      assert_int_equal(desert_reader_begin(r, d, n), DESERT_OK);
      desert_bytes b;
      st = read_block(r, k, &b);
      assert_true(st == DESERT_OK || st == DESERT_E_NOMEM);
      if (st == DESERT_OK) desert_assert_bytes_equal(s[2].data, s[2].len, b.ptr, b.len);
      desert_counting_allocator_fail_after(&ca, SIZE_MAX);
      desert_reader_free(r);
      desert_writer_free(w);
      assert_int_equal(ca.live_blocks, 0);
      assert_int_equal(ca.bad_frees, 0);
    }
    desert_writer_free(pw);
  }
  free_samples(s, ns);
}

/* ---- writer arguments and output modes ------------------------------------------------- */

static void test_writer_arguments(void **state) {
  (void)state;
  static const char text[] = "abc";
  static const struct {
    kind k;
    int level;
  } bad[] = {{K_RAW, 13}, {K_RAW, -2}, {K_ZLIB, 13}, {K_ZLIB, -5}, {K_ZSTD, 23}, {K_ZSTD, -2}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    desert_writer *w = new_writer(NULL);
    assert_int_equal(write_block(w, bad[i].k, bad[i].level, text, 3), DESERT_E_ARGUMENT);
    assert_int_equal(desert_writer_size(w), 0);
    /* Sticky. */
    assert_int_equal(write_block(w, bad[i].k, -1, text, 3), DESERT_E_ARGUMENT);
    assert_int_equal(desert_write_u8(w, 1), DESERT_E_ARGUMENT);
    assert_int_equal(desert_writer_size(w), 0);
    desert_writer_free(w);
  }
  desert_writer *w = new_writer(NULL);
  assert_int_equal(desert_write_compressed(w, (desert_compression)7, -1, text, 3),
                   DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_RAW, -1, NULL, 3),
                   DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(desert_write_compressed_zstd(w, -1, NULL, 3), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  /* Inputs above 2^32-1 bytes: rejected before the data is touched. */
  if (SIZE_MAX > UINT32_MAX) {
    size_t huge = (size_t)UINT32_MAX + 1;
    assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_RAW, -1, text, huge),
                     DESERT_E_LENGTH_TOO_LARGE);
    desert_writer_reset(w);
    assert_int_equal(desert_write_compressed_zstd(w, -1, text, huge), DESERT_E_LENGTH_TOO_LARGE);
    assert_int_equal(desert_writer_size(w), 0);
  }
  desert_writer_free(w);
  /* NULL writer / reader. */
  assert_int_equal(desert_write_compressed(NULL, DESERT_COMPRESSION_RAW, -1, text, 3),
                   DESERT_E_ARGUMENT);
  assert_int_equal(desert_write_compressed_zstd(NULL, -1, text, 3), DESERT_E_ARGUMENT);
  desert_bytes b;
  assert_int_equal(desert_read_compressed(NULL, DESERT_COMPRESSION_RAW, &b), DESERT_E_ARGUMENT);
  assert_int_equal(desert_read_compressed_zstd(NULL, &b), DESERT_E_ARGUMENT);
  desert_reader *r = new_reader(NULL);
  assert_int_equal(desert_reader_begin(r, "\x00", 1), DESERT_OK);
  assert_int_equal(desert_read_compressed(r, (desert_compression)9, &b), DESERT_E_ARGUMENT);
  desert_reader_free(r);
}

static void test_fixed_buffer(void **state) {
  (void)state;
  /* A fixed buffer one byte too small receives nothing; an exact one works. */
  sample s[8];
  size_t ns = make_samples(s, 8);
  for (kind k = K_RAW; k <= K_ZSTD; k++) {
    for (size_t i = 0; i < ns; i++) {
      desert_writer *w = new_writer(NULL);
      assert_int_equal(write_block(w, k, -1, s[i].data, s[i].len), DESERT_OK);
      size_t n = desert_writer_size(w);
      uint8_t *want = malloc(n);
      assert_non_null(want);
      memcpy(want, desert_writer_data(w, NULL), n);
      uint8_t *buf = malloc(n);
      assert_non_null(buf);
      assert_int_equal(desert_writer_use_buffer(w, buf, n - 1), DESERT_OK);
      assert_int_equal(write_block(w, k, -1, s[i].data, s[i].len), DESERT_E_DST_TOO_SMALL);
      assert_int_equal(desert_writer_size(w), 0);
      assert_int_equal(desert_writer_use_buffer(w, buf, n), DESERT_OK);
      assert_int_equal(write_block(w, k, -1, s[i].data, s[i].len), DESERT_OK);
      desert_assert_bytes_equal(want, n, buf, desert_writer_size(w));
      free(buf);
      free(want);
      desert_writer_free(w);
    }
  }
  free_samples(s, ns);
}

static void test_random_garbage(void **state) {
  (void)state;
  /* Random blocks never crash; every failure is one of the block errors. */
  desert_rng rng;
  desert_rng_init_test(&rng, 0xc1);
  uint8_t buf[96];
  desert_reader *r = new_reader(NULL);
  for (int iter = 0; iter < 6000; iter++) {
    size_t len = desert_rng_range(&rng, 0, sizeof buf);
    desert_rng_fill(&rng, buf, len);
    if (len > 2) {
      buf[0] = (uint8_t)desert_rng_below(&rng, 128);
      buf[1] = (uint8_t)desert_rng_below(&rng, (uint32_t)len - 1);
    }
    kind k = (kind)(iter % 3);
    uint8_t *in = malloc(len ? len : 1);
    assert_non_null(in);
    memcpy(in, buf, len);
    assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
    desert_bytes b;
    desert_status st = read_block(r, k, &b);
    assert_true(st == DESERT_OK || st == DESERT_E_INPUT_ENDED || st == DESERT_E_DECOMPRESSION ||
                st == DESERT_E_ZLIB_BLOCK || st == DESERT_E_VARINT_TOO_LONG);
    if (st == DESERT_OK && len) {
      volatile uint8_t sink = 0;
      for (size_t i = 0; i < b.len; i++) sink ^= b.ptr[i];
      (void)sink;
    }
    free(in);
  }
  desert_reader_free(r);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_raw_format_example),
      cmocka_unit_test(test_raw_empty_example),
      cmocka_unit_test(test_zlib_empty),
      cmocka_unit_test(test_conformance_blocks),
      cmocka_unit_test(test_roundtrip_deflate_levels),
      cmocka_unit_test(test_roundtrip_zstd_levels),
      cmocka_unit_test(test_header_layout),
      cmocka_unit_test(test_raw_plain_length_is_a_hint),
      cmocka_unit_test(test_zlib_exact_announced_length),
      cmocka_unit_test(test_corrupt_raw),
      cmocka_unit_test(test_corrupt_raw_every_prefix),
      cmocka_unit_test(test_corrupt_zlib),
      cmocka_unit_test(test_corrupt_zstd),
      cmocka_unit_test(test_length_errors),
      cmocka_unit_test(test_zip_bomb_announced),
      cmocka_unit_test(test_zip_bomb_actual),
      cmocka_unit_test(test_allocator_honoured),
      cmocka_unit_test(test_out_of_memory),
      cmocka_unit_test(test_writer_arguments),
      cmocka_unit_test(test_fixed_buffer),
      cmocka_unit_test(test_truncated_stream_past_bound),
      cmocka_unit_test(test_random_garbage),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
