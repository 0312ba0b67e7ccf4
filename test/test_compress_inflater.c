/* test/test_compress_inflater.c — zlib-flavour blocks read as desert-scala
 * reads them (docs/schema.md §12, issue 12): java.util.zip.Inflater fed the
 * whole block once, so an incomplete stream is zero-padded output, not an
 * error. Known answers worked out by hand from the rule, then sweeps over
 * zlib streams (stored, fixed, dynamic and multi-block; announced length
 * exact, shorter and longer) cut at every byte and corrupted at every byte,
 * each judged against test/support/inflater_model.c, an independent model
 * that drives zlib differently from the reader. Also the memory bounds of
 * the slow path (lying lengths, long outputs) with the counting allocator.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "desert/reader.h"
#include "desert/writer.h"
#include "codec_testlib.h"
#include "inflater_model.h"
#include "test_util.h"

/* ---- helpers -------------------------------------------------------------------- */

/* A zlib stream of src at `level` (0..9), or with a full flush after `split`
 * bytes and the level switched to `level2` there (split < n), giving a
 * stream of several blocks of different types. */
static uint8_t *zlib_stream(const uint8_t *src, size_t n, int level, size_t split, int level2,
                            size_t *out_len) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  assert_int_equal(deflateInit(&zs, level), Z_OK);
  size_t cap = deflateBound(&zs, (uLong)n) + 64;
  uint8_t *out = malloc(cap);
  assert_non_null(out);
  zs.next_out = out;
  zs.avail_out = (uInt)cap;
  zs.next_in = (Bytef *)(uintptr_t)src;
  if (split < n) {
    zs.avail_in = (uInt)split;
    assert_int_equal(deflate(&zs, Z_FULL_FLUSH), Z_OK);
    assert_int_equal(deflateParams(&zs, level2, Z_DEFAULT_STRATEGY), Z_OK);
    zs.avail_in = (uInt)(n - split);
  } else {
    zs.avail_in = (uInt)n;
  }
  assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
  *out_len = cap - zs.avail_out;
  deflateEnd(&zs);
  return out;
}

/* Text of words: compressible, with matches, dynamic blocks at level >= 1. */
static uint8_t *word_text(size_t n, uint32_t seed) {
  static const char *const words[] = {"alpha ", "beta ", "gamma ", "delta ", "\"id\":", "{", "}",
                                      "12345", ", ", "true", "\n", "zeta-omega "};
  uint8_t *t = malloc(n ? n : 1);
  assert_non_null(t);
  size_t p = 0;
  while (p < n) {
    seed = seed * 1103515245u + 12345u;
    const char *w = words[(seed >> 16) % 12];
    size_t l = strlen(w);
    if (l > n - p) l = n - p;
    memcpy(t + p, w, l);
    p += l;
  }
  return t;
}

/* Block bytes: a prefix byte 0x7e, var_u32(plain), var_u32(csize), the
 * stream, then the sentinel 0x5a. *data_at = offset of the stream. */
static uint8_t *make_block(uint32_t plain, const uint8_t *stream, size_t csize, size_t *len,
                           size_t *data_at) {
  uint8_t *b = malloc(csize + 16);
  assert_non_null(b);
  size_t p = 0;
  b[p++] = 0x7e;
  for (uint32_t v = plain;; v >>= 7) {
    b[p++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    if (v <= 0x7f) break;
  }
  for (size_t v = csize;; v >>= 7) {
    b[p++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    if (v <= 0x7f) break;
  }
  *data_at = p;
  if (csize) memcpy(b + p, stream, csize);
  p += csize;
  b[p++] = 0x5a;
  *len = p;
  return b;
}

typedef struct sweep_counts {
  size_t ok, corrupt; /* verdicts of the model */
} sweep_counts;

/* Reads the block (stream, csize, plain) and checks it against the model:
 * same verdict; OK -> the model's bytes, the sentinel next; corrupt ->
 * DESERT_E_ZLIB_BLOCK at the stream's first byte. */
static void judge(desert_reader *r, const uint8_t *stream, size_t csize, uint32_t plain,
                  sweep_counts *c, const char *what, size_t where) {
  size_t len, data_at;
  uint8_t *in = make_block(plain, stream, csize, &len, &data_at);
  uint8_t *want = malloc(plain ? plain : 1);
  assert_non_null(want);
  model_verdict v = model_java_inflate(stream, csize, want, plain);
  assert_int_not_equal(v, MODEL_NOMEM);
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  const uint8_t *pre;
  assert_int_equal(desert_read_raw(r, 1, &pre), DESERT_OK);
  desert_bytes b = {NULL, 0};
  desert_status st = desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b);
  if (v == MODEL_OK) {
    if (st != DESERT_OK)
      fail_msg("%s %zu (csize %zu, plain %u): model inflates, reader says %s", what, where, csize,
               (unsigned)plain, desert_status_name(st));
    desert_assert_bytes_equal(want, plain, b.ptr, b.len);
    assert_int_equal(desert_reader_offset(r), len - 1);
    uint8_t s = 0;
    assert_int_equal(desert_read_u8(r, &s), DESERT_OK);
    assert_int_equal(s, 0x5a);
    c->ok++;
  } else {
    if (st != DESERT_E_ZLIB_BLOCK)
      fail_msg("%s %zu (csize %zu, plain %u): model says corrupt, reader says %s", what, where,
               csize, (unsigned)plain, desert_status_name(st));
    assert_int_equal(desert_reader_error_offset(r), data_at);
    c->corrupt++;
  }
  free(want);
  free(in);
}

/* Every cut of the stream and every corruption of every byte (each single
 * bit flipped, all bits flipped, zeroed), at the
 * announced lengths n (exact), n/2 (shorter: the rest is not all read) and
 * n + 9 (longer: padded). */
static void sweep(const uint8_t *stream, size_t slen, size_t n, sweep_counts *c) {
  desert_reader *r = ct_new_reader(0);
  const uint32_t plains[3] = {(uint32_t)n, (uint32_t)(n / 2 ? n / 2 : 1), (uint32_t)n + 9};
  uint8_t *m = malloc(slen);
  assert_non_null(m);
  for (int p = 0; p < 3; p++) {
    for (size_t k = 0; k <= slen; k++) judge(r, stream, k, plains[p], c, "cut at", k);
    /* every single bit, and all bits at once */
    static const uint8_t flips[9] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff};
    for (size_t i = 0; i < slen; i++) {
      for (int f = 0; f < 9; f++) {
        memcpy(m, stream, slen);
        m[i] ^= flips[f];
        judge(r, m, slen, plains[p], c, "corrupt byte", i);
      }
      if (stream[i] != 0) { /* a zeroed byte, as cut data often looks */
        memcpy(m, stream, slen);
        m[i] = 0;
        judge(r, m, slen, plains[p], c, "zeroed byte", i);
      }
    }
  }
  free(m);
  desert_reader_free(r);
}

/* Decodes hex as one zlib block and expects `plain` bytes and `consumed`. */
static void expect_zlib(const char *hex, const void *plain, size_t n, size_t consumed) {
  size_t len;
  uint8_t *in = ct_dup_hex(hex, &len);
  desert_reader *r = ct_new_reader(0);
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  desert_bytes b = {NULL, 0};
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b), DESERT_OK);
  desert_assert_bytes_equal(plain, n, b.ptr, b.len);
  assert_int_equal(desert_reader_offset(r), consumed);
  desert_reader_free(r);
  free(in);
}

static void expect_fail_as(desert_compression fl, const char *hex, desert_status st,
                           size_t offset) {
  size_t len;
  uint8_t *in = ct_dup_hex(hex, &len);
  desert_reader *r = ct_new_reader(0);
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  desert_bytes b = {NULL, 0};
  assert_int_equal(desert_read_compressed(r, fl, &b), st);
  assert_int_equal(desert_reader_error_offset(r), offset);
  desert_reader_free(r);
  free(in);
}

static void expect_zlib_fail(const char *hex, desert_status st, size_t offset) {
  expect_fail_as(DESERT_COMPRESSION_ZLIB, hex, st, offset);
}

/* ---- known answers ---------------------------------------------------------------- */

/* zlib stream of "hello" (header 78 9c, fixed-Huffman literals, end of
 * block, Adler-32 062c0215 = 0x062c0215 computed by hand: a = 1+532 = 533 =
 * 0x215, b = sum of the running a values = 1580 = 0x62c). */
#define HELLO "789ccb48cdc9c90700062c0215"

static void test_known_answers(void **state) {
  (void)state;
  static const uint8_t z41[41] = {0};
  /* docs/schema.md §12: one stream byte 07 (inside the header): 41 zeros. */
  expect_zlib("29 01 07", z41, 41, 3);
  /* No stream bytes, header only, header cut: zeros, every byte consumed. */
  expect_zlib("05 00", z41, 5, 2);
  expect_zlib("05 02 78 9c", z41, 5, 4);
  expect_zlib("05 01 78", z41, 5, 3);
  /* Complete; cut inside the trailer (all data out): "hello". */
  expect_zlib("05 0d" HELLO, "hello", 5, 15);
  expect_zlib("05 0b 789ccb48cdc9c90700062c", "hello", 5, 13);
  expect_zlib("05 09 789ccb48cdc9c90700", "hello", 5, 11);
  /* Cut inside the literals: what came out, then zeros. */
  expect_zlib("05 04 789ccb48", "h\0\0\0\0", 5, 6);
  /* Announced longer: padded; shorter: cut, and a wrong trailer is never
   * reached (zlib stops at the first literal it has no room for). */
  expect_zlib("08 0d" HELLO, "hello\0\0\0", 8, 15);
  expect_zlib("03 0d 789ccb48cdc9c90700062c0214", "hel", 3, 15);
  /* Exactly filled: zlib still decodes the end of block and checks the
   * trailer, so a wrong Adler-32 is corrupt, as Inflater reports. */
  expect_zlib_fail("05 0d 789ccb48cdc9c90700062c0214", DESERT_E_ZLIB_BLOCK, 2);
  /* A preset-dictionary header (78 20, FDICT): Inflater returns nothing
   * and asks for a dictionary; Scala keeps the zeroed buffer. */
  expect_zlib("05 06 7820 00000001", z41, 5, 8);
  expect_zlib("05 02 7820", z41, 5, 4);
  /* Corrupt: header check, method, window size, block type. */
  expect_zlib_fail("05 02 789d", DESERT_E_ZLIB_BLOCK, 2);
  expect_zlib_fail("05 02 7709", DESERT_E_ZLIB_BLOCK, 2);
  expect_zlib_fail("05 02 881c", DESERT_E_ZLIB_BLOCK, 2);
  expect_zlib_fail("05 03 789c07", DESERT_E_ZLIB_BLOCK, 2);
  /* A dynamic header whose last code-length repeat runs one past the
   * announced count (level-1 zlib stream of the 41 bytes below, one bit
   * flipped): zlib says "invalid bit length repeat"; libdeflate 1.14
   * ignores the overrun and inflates the text, Adler-32 and all. */
  expect_zlib("29 29 78011588490100201002ab580d5660fb27105f738cc1dd497c4f52976c09f4afa2034ce6"
              "014b1b0fda",
              "cfabhhcggfd ggabheeffeeabfggababfheeabggc", 41, 43);
  expect_zlib_fail("29 29 78011588490100201002ab580d5660fb27105f738dc1dd497c4f52976c09f4afa2034ce6"
                   "014b1b0fda",
                   DESERT_E_ZLIB_BLOCK, 2);
  /* The block's length still has to be in the input. */
  expect_zlib_fail("05 05 789c", DESERT_E_INPUT_ENDED, 2);
}

/* Issue 12: blocks in a row; one cut inside its stream decodes, and the
 * reader goes on to fail where the input really ends. */
static void test_cut_block_then_input_ends(void **state) {
  (void)state;
  size_t len;
  uint8_t *in = ct_dup_hex("05 0d" HELLO "05 01 78", &len);
  desert_reader *r = ct_new_reader(0);
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  desert_bytes b;
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b), DESERT_OK);
  desert_assert_bytes_equal("hello", 5, b.ptr, b.len);
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b), DESERT_OK);
  desert_assert_bytes_equal("\0\0\0\0\0", 5, b.ptr, b.len);
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), len);
  desert_reader_free(r);
  free(in);
}

/* The raw (Rust) flavour keeps its rule: incomplete is DecompressionFailure. */
static void test_raw_flavour_unchanged(void **state) {
  (void)state;
  expect_fail_as(DESERT_COMPRESSION_RAW, "05 03 cb48cd", DESERT_E_DECOMPRESSION, 2);
}

/* ---- sweeps against the model ------------------------------------------------------- */

/* Sweeps the zlib stream of src (see zlib_stream for level/split/level2). */
static void sweep_source(const uint8_t *src, size_t n, int level, size_t split, int level2,
                         sweep_counts *c) {
  size_t slen;
  uint8_t *s = zlib_stream(src, n, level, split, level2, &slen);
  sweep(s, slen, n, c);
  free(s);
}

/* Both verdicts must occur, so neither half of the rule goes untested. */
static void check_counts(const char *what, sweep_counts c) {
  print_message("%s: %zu inflated, %zu corrupt\n", what, c.ok, c.corrupt);
  assert_true(c.ok > 100 && c.corrupt > 100);
}

static void test_sweep_fixed_and_stored(void **state) {
  (void)state;
  sweep_counts c = {0, 0};
  sweep_source((const uint8_t *)"hello hello hello", 17, 6, SIZE_MAX, 0, &c);
  uint8_t *t = word_text(300, 7);
  sweep_source(t, 300, 0, SIZE_MAX, 0, &c); /* stored block */
  free(t);
  check_counts("fixed/stored", c);
}

/* Dynamic blocks (levels 1 and 9), and several blocks of different types:
 * stored then compressed, compressed then stored (a full flush between). */
static void test_sweep_dynamic_and_multi_block(void **state) {
  (void)state;
  static const struct {
    size_t n, split;
    uint32_t seed;
    int level, level2;
  } cases[] = {{1500, SIZE_MAX, 11, 1, 0}, {1500, SIZE_MAX, 11, 9, 0}, {700, 200, 3, 0, 6},
               {700, 450, 3, 9, 0}};
  sweep_counts c = {0, 0};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t *t = word_text(cases[i].n, cases[i].seed);
    sweep_source(t, cases[i].n, cases[i].level, cases[i].split, cases[i].level2, &c);
    free(t);
  }
  /* The source of test_known_answers' repeat-overrun stream: one of its
   * single-bit flips makes libdeflate and zlib disagree. */
  sweep_source((const uint8_t *)"cfabhhcggfd ggabheeffeeabfggababfheeabggc", 41, 1, SIZE_MAX, 0, &c);
  check_counts("dynamic and multi-block", c);
}

/* Outputs far larger than the first piece of room: the slow path grows its
 * buffer several times (cut streams of 256 KiB of text and of zeros). */
static void test_long_outputs(void **state) {
  (void)state;
  sweep_counts c = {0, 0};
  const size_t n = (size_t)256 << 10;
  uint8_t *t = word_text(n, 5);
  uint8_t *zeros = calloc(1, n);
  assert_non_null(zeros);
  desert_reader *r = ct_new_reader(0);
  for (int which = 0; which < 2; which++) {
    size_t slen;
    uint8_t *s = zlib_stream(which ? zeros : t, n, 6, SIZE_MAX, 0, &slen);
    for (size_t k = slen; k + 40 > slen && k > 0; k -= 7)
      judge(r, s, k, (uint32_t)n, &c, "long cut at", k);
    /* Half of the text; not of the zeros, whose missing half would need
     * more padding than the budget of test_padding_budget allows. */
    if (!which) judge(r, s, slen / 2, (uint32_t)n, &c, "long cut at", slen / 2);
    s[slen - 1] ^= 1;
    judge(r, s, slen, (uint32_t)n, &c, "long corrupt trailer", slen - 1);
    free(s);
  }
  assert_true(c.ok > 5 && c.corrupt == 2);
  desert_reader_free(r);
  free(zeros);
  free(t);
}

/* ---- memory ----------------------------------------------------------------------- */

/* Lying lengths on incomplete streams: padding is limited to 64 KiB + 8
 * bytes per input byte (DESERT_E_LIMIT at the plain length), and what is
 * allocated follows the padding, not the announced size. */
static void test_padding_budget(void **state) {
  (void)state;
  /* 30 MiB announced (var_u32 80 80 80 0f), 2 stream bytes. */
  expect_zlib_fail("80 80 80 0f 02 789c", DESERT_E_LIMIT, 0);
  /* 65000 announced: within budget, zeros, memory about the output. */
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_reader *r = ct_new_reader_opt(&o);
  size_t len;
  uint8_t *in = ct_dup_hex("e8 fb 03 04 789ccb48", &len); /* 65000, "h" then cut */
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  desert_bytes b;
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b), DESERT_OK);
  assert_int_equal(b.len, 65000);
  assert_int_equal(b.ptr[0], 'h');
  for (size_t i = 1; i < b.len; i++) assert_int_equal(b.ptr[i], 0);
  assert_true(ca.peak_bytes < (size_t)(200 << 10));
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
  free(in);
}

/* The padding budget covers a whole message, not each block: blocks that
 * each announce 64 KiB with a two-byte stream may not add up to more than
 * 64 KiB + 8 bytes per input byte (so 30,000 bytes of them cannot take
 * hundreds of megabytes), and the next message starts a fresh budget,
 * through the exported and the inline begin alike. */
static void test_padding_budget_per_message(void **state) {
  (void)state;
  static const uint8_t block[6] = {0xff, 0xff, 0x03, 0x02, 0x78, 0x9c}; /* 65535, "789c", cut */
  enum { K = 5000 };
  uint8_t *in = malloc(sizeof block * K);
  assert_non_null(in);
  for (size_t i = 0; i < K; i++) memcpy(in + i * sizeof block, block, sizeof block);
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_reader *r = ct_new_reader_opt(&o);
  for (int round = 0; round < 4; round++) {
    /* 0: exported begin; 1: inline begin after an error; 2 and 3: one
     * block each, inline begin after a message that padded without error
     * (round 3 would fail if round 2's padding still counted) */
    const size_t len = round >= 2 ? sizeof block : sizeof block * K;
    if (round == 0)
      assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
    else
      assert_int_equal(desert_reader_begin_inline(r, in, len), DESERT_OK);
    desert_bytes b;
    /* budget 64 KiB + 8 * len >= 65535: the first block is zeros */
    assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b), DESERT_OK);
    assert_int_equal(b.len, 65535);
    assert_int_equal(b.ptr[0], 0);
    assert_int_equal(b.ptr[65534], 0);
    if (round >= 2) {
      assert_int_equal(desert_reader_remaining(r), 0);
      continue;
    }
    /* 8 * 30,000 bytes of budget are left after it: three more blocks,
     * then the limit at the plain length of the one that would pass it */
    size_t ok = 1;
    desert_status st;
    while ((st = desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b)) == DESERT_OK) ok++;
    assert_int_equal(st, DESERT_E_LIMIT);
    assert_int_equal(ok, 4);
    assert_int_equal(desert_reader_error_offset(r), 4 * sizeof block);
    assert_true(ca.peak_bytes < (size_t)(600 << 10));
  }
  /* Blocks whose padding stays within the budget together all inflate. */
  static const uint8_t two[12] = {0xb0, 0xea, 0x01, 0x02, 0x78, 0x9c,  /* 30000, "789c" */
                                  0xb0, 0xea, 0x01, 0x02, 0x78, 0x9c}; /* the same */
  assert_int_equal(desert_reader_begin(r, two, sizeof two), DESERT_OK);
  for (int i = 0; i < 2; i++) {
    desert_bytes b;
    assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b), DESERT_OK);
    assert_int_equal(b.len, 30000);
  }
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
  free(in);
}

/* Every allocation of the slow path failing in turn: NOMEM or success,
 * never a leak or a wrong verdict. */
static void test_slow_path_out_of_memory(void **state) {
  (void)state;
  size_t len;
  uint8_t *in = ct_dup_hex("08 0b 789ccb48cdc9c90700062c", &len); /* cut trailer */
  bool succeeded = false;
  for (size_t k = 0; k < 64 && !succeeded; k++) {
    desert_counting_allocator ca;
    desert_options o;
    ct_counting_options(&o, &ca);
    desert_reader *r = ct_new_reader_opt(&o);
    desert_counting_allocator_fail_after(&ca, k);
    desert_bytes b;
    desert_status st = desert_reader_begin(r, in, len);
    if (!st) st = desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b);
    if (st == DESERT_OK) {
      desert_assert_bytes_equal("hello\0\0\0", 8, b.ptr, b.len);
      succeeded = true;
    } else {
      assert_int_equal(st, DESERT_E_NOMEM);
    }
    desert_reader_free(r);
    assert_int_equal(ca.live_blocks, 0);
    assert_int_equal(ca.bad_frees, 0);
  }
  assert_true(succeeded);
  free(in);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known_answers),
      cmocka_unit_test(test_cut_block_then_input_ends),
      cmocka_unit_test(test_raw_flavour_unchanged),
      cmocka_unit_test(test_sweep_fixed_and_stored),
      cmocka_unit_test(test_sweep_dynamic_and_multi_block),
      cmocka_unit_test(test_long_outputs),
      cmocka_unit_test(test_padding_budget),
      cmocka_unit_test(test_padding_budget_per_message),
      cmocka_unit_test(test_slow_path_out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
