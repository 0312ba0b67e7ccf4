/* test/test_resource_bounds.c — the decoder memory bound: with default
 * options, decoding any input of n bytes allocates at most
 *
 *     64 * n + 512 KiB + 4 * d        bytes (peak of live allocations)
 *
 * where d is the number of bytes the input's compressed blocks really
 * decompress to (0 without compressed blocks; padding and announced sizes do
 * not count). Measured with a counting allocator over every fuzz corpus
 * (each harness compiled in, fuzz_common.c checks every decode) and over
 * crafted inputs: huge counts and lengths, deep nesting, many session
 * entries, lenient UTF-8 growth, and compression bombs (a block claiming
 * 4 GiB, a zlib block announcing 64 MiB from a few bytes, lying raw and
 * zstd blocks, and real 64 MiB bombs whose d is 64 MiB).
 * SPDX-License-Identifier: MIT
 *
 * The bound and its rationale are in test/fuzz/README.md ("Memory bound").
 * The constants are those of test/fuzz/fuzz_common.h. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "desert/reader.h"
#include "desert/record.h"
#include "desert/values.h"
#include "desert/writer.h"
#include "fuzz_common.h"
#include "golden_model.h"
#include "test_util.h"

/* The harnesses, compiled with FZ_NO_ENTRY (test/fuzz.cmake). */
int fz_target_values(const uint8_t *data, size_t size);
int fz_target_strings(const uint8_t *data, size_t size);
int fz_target_temporal(const uint8_t *data, size_t size);
int fz_target_golden(const uint8_t *data, size_t size);
int fz_target_evolution(const uint8_t *data, size_t size);
int fz_target_enum(const uint8_t *data, size_t size);
int fz_target_compressed(const uint8_t *data, size_t size);
int fz_target_refs(const uint8_t *data, size_t size);
int fz_target_roundtrip(const uint8_t *data, size_t size);
int fz_target_inline(const uint8_t *data, size_t size);
#ifdef DESERT_FUZZ_HAVE_JSON
int fz_target_types(const uint8_t *data, size_t size);
int fz_target_schema_json(const uint8_t *data, size_t size);
int fz_target_stream(const uint8_t *data, size_t size);
int fz_target_gen_c(const uint8_t *data, size_t size);
#endif

static size_t bound(size_t n, size_t d) { return fz_bound(n, d); }

/* ---- the corpora ------------------------------------------------------------------ */

typedef struct target {
  const char *name;
  int (*fn)(const uint8_t *, size_t);
} target;

static const target targets[] = {
    {"values", fz_target_values},     {"strings", fz_target_strings},
    {"temporal", fz_target_temporal}, {"golden", fz_target_golden},
    {"evolution", fz_target_evolution}, {"enum", fz_target_enum},
    {"compressed", fz_target_compressed}, {"refs", fz_target_refs},
    {"roundtrip", fz_target_roundtrip}, {"inline", fz_target_inline},
#ifdef DESERT_FUZZ_HAVE_JSON
    {"types", fz_target_types},       {"schema_json", fz_target_schema_json},
    {"stream", fz_target_stream},     {"gen_c", fz_target_gen_c},
#endif
};

static void test_corpora(void **state) {
  (void)state;
  fz_enforce_bound = 0; /* record; assert below with the file name */
  size_t total_files = 0;
  int violations = 0;
  fprintf(stderr, "[resource_bounds] %-11s %6s %9s %12s %14s\n", "target", "files", "decodes",
              "worst peak", "B/byte>const");
  for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", DESERT_FUZZ_CORPUS_DIR, targets[t].name);
    DIR *d = opendir(dir);
    assert_non_null(d);
    memset(&fz_stats, 0, sizeof fz_stats);
    size_t files = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.') continue;
      char path[2048];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      struct stat st;
      if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
      size_t len = 0;
      uint8_t *buf = (uint8_t *)desert_test_read_file(path, &len);
      assert_non_null(buf);
      size_t before = fz_stats.worst_excess;
      targets[t].fn(buf, len);
      if (fz_stats.worst_excess > before) {
        fprintf(stderr, "[resource_bounds] BOUND EXCEEDED by %s/%s (%zu bytes): %zu bytes over\n",
                targets[t].name, e->d_name, len, fz_stats.worst_excess);
        violations++;
        fz_stats.worst_excess = 0;
      }
      free(buf);
      files++;
    }
    closedir(d);
    total_files += files;
    fprintf(stderr, "[resource_bounds] %-11s %6zu %9zu %12zu %14.1f\n", targets[t].name, files,
            fz_stats.decodes, fz_stats.worst_peak, fz_stats.worst_ratio);
  }
  fz_enforce_bound = 1;
  assert_true(total_files > 0);
  assert_int_equal(violations, 0);
}

/* ---- crafted inputs ------------------------------------------------------------------ */

/* One measured decode with a counting allocator: fn reads from a fresh
 * reader; returns the peak and sets *st. */
typedef void (*decode_fn)(desert_reader *r, void *ctx);

static size_t measure(const uint8_t *data, size_t len, decode_fn fn, void *ctx, desert_status *st,
                      unsigned flags) {
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options o;
  desert_options_init(&o);
  o.allocator = ca.allocator;
  o.flags = flags;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  assert_int_equal(desert_reader_begin(r, data, len), DESERT_OK);
  fn(r, ctx);
  *st = desert_reader_status(r);
  if (*st) assert_true(desert_reader_error_offset(r) <= len);
  assert_true(desert_reader_offset(r) <= len);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
  return ca.peak_bytes;
}

static int report(const char *what, size_t n, size_t d, size_t peak, desert_status st) {
  size_t b = bound(n, d);
  fprintf(stderr, "[resource_bounds] %-44s n=%-9zu d=%-9zu peak=%-10zu bound=%-10zu %s %s\n", what,
          n, d, peak, b, desert_status_name(st), peak <= b ? "ok" : "EXCEEDED");
  return peak <= b;
}

#define CHECK_BOUND(what, n, d, peak, st)                                                   \
  do {                                                                                      \
    if (!report((what), (n), (d), (peak), (st)))                                            \
      fail_msg("%s: decoding %zu bytes (%zu decompressed) allocated %zu bytes, bound %zu", \
               (what), (size_t)(n), (size_t)(d), (size_t)(peak), bound((n), (d)));          \
  } while (0)

/* Reads items of one kind until the reader fails or the input ends. */
typedef enum { K_SEQ_BULK, K_STRING, K_DEDUP, K_REF, K_BYTES, K_COMP_RAW, K_COMP_ZLIB,
               K_COMP_ZSTD, K_GOLDEN, K_THROWABLE } item_kind;

static void read_items(desert_reader *r, void *ctx) {
  item_kind k = *(item_kind *)ctx;
  static uint8_t obj;
  for (size_t i = 0; i < 100000000 && desert_reader_remaining(r) && !desert_reader_status(r); i++) {
    switch (k) {
    case K_SEQ_BULK: {
      desert_seq seq;
      if (desert_read_seq_begin(r, &seq) || !seq.known) break;
      if (seq.count > desert_reader_remaining(r) / 8) {
        int64_t dummy;
        desert_read_i64_array(r, &dummy, seq.count);
        break;
      }
      int64_t *a = desert_reader_alloc(r, seq.count * 8, 16);
      if (a) desert_read_i64_array(r, a, seq.count);
      break;
    }
    case K_STRING: { desert_str s; desert_read_string(r, &s); break; }
    case K_DEDUP: { desert_str s; desert_read_dedup_string(r, &s); break; }
    case K_REF: {
      void *o = NULL;
      if (!desert_read_ref(r, &o) && !o) desert_reader_register_ref(r, &obj);
      break;
    }
    case K_BYTES: { desert_bytes b; desert_read_bytes(r, &b); break; }
    case K_COMP_RAW: { desert_bytes b; desert_read_compressed(r, DESERT_COMPRESSION_RAW, &b); break; }
    case K_COMP_ZLIB: { desert_bytes b; desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &b); break; }
    case K_COMP_ZSTD: { desert_bytes b; desert_read_compressed_zstd(r, &b); break; }
    case K_GOLDEN: { golden_model m; golden_model_read(r, &m); return; }
    default: { golden_throwable t; golden_throwable_read(r, &t); return; }
    }
  }
}

static size_t run_items(const uint8_t *data, size_t len, item_kind k, desert_status *st,
                        unsigned flags) {
  return measure(data, len, read_items, &k, st, flags);
}

static void test_huge_counts_and_lengths(void **state) {
  (void)state;
  desert_status st;
  /* count 2^31-1 with nothing behind it, as a known-size seq and as a golden
   * model's array. */
  static const uint8_t count_max[] = {0xfe, 0xff, 0xff, 0xff, 0x0f};
  size_t peak = run_items(count_max, sizeof count_max, K_SEQ_BULK, &st, 0);
  CHECK_BOUND("seq count 2^31-1, no elements", sizeof count_max, 0, peak, st);
  assert_int_equal(st, DESERT_E_INPUT_ENDED);
  peak = run_items(count_max, sizeof count_max, K_STRING, &st, 0);
  CHECK_BOUND("string length 2^31-1", sizeof count_max, 0, peak, st);
  static const uint8_t bytes_max[] = {0xff, 0xff, 0xff, 0xff, 0x0f};
  peak = run_items(bytes_max, sizeof bytes_max, K_BYTES, &st, 0);
  CHECK_BOUND("byte block length 2^32-1", sizeof bytes_max, 0, peak, st);
  assert_true(st == DESERT_E_INPUT_ENDED || st == DESERT_E_LIMIT);
  peak = run_items(count_max, sizeof count_max, K_DEDUP, &st, 0);
  CHECK_BOUND("dedup string length 2^31-1", sizeof count_max, 0, peak, st);
}

static void test_deep_nesting(void **state) {
  (void)state;
  /* A PersistedThrowable whose cause chain is 100000 levels deep: each level
   * 00 (version) 00 (className "") 00 (message "") 00 (no frames) 01 (Some). */
  size_t levels = 100000, n = levels * 5;
  uint8_t *buf = malloc(n);
  assert_non_null(buf);
  for (size_t i = 0; i < levels; i++) memcpy(buf + i * 5, "\x00\x00\x00\x00\x01", 5);
  desert_status st;
  size_t peak = run_items(buf, n, K_THROWABLE, &st, 0);
  free(buf);
  CHECK_BOUND("throwable cause chain 100000 deep", n, 0, peak, st);
  assert_int_equal(st, DESERT_E_DEPTH);
}

static void test_many_session_entries(void **state) {
  (void)state;
  /* 300000 distinct 3-byte dedup strings (4 input bytes each). */
  size_t count = 300000, n = count * 4;
  uint8_t *buf = malloc(n);
  assert_non_null(buf);
  for (size_t i = 0; i < count; i++) {
    buf[i * 4] = 0x06; /* var_i32(3) */
    buf[i * 4 + 1] = (uint8_t)(0x21 + i % 90);
    buf[i * 4 + 2] = (uint8_t)(0x21 + i / 90 % 90);
    buf[i * 4 + 3] = (uint8_t)(0x21 + i / 8100 % 90);
  }
  desert_status st;
  size_t peak = run_items(buf, n, K_DEDUP, &st, 0);
  free(buf);
  CHECK_BOUND("300000 distinct dedup strings", n, 0, peak, st);
  assert_int_equal(st, DESERT_OK);
  /* 1000000 new object references (one 00 byte each). */
  n = 1000000;
  buf = calloc(n, 1);
  assert_non_null(buf);
  peak = run_items(buf, n, K_REF, &st, 0);
  free(buf);
  CHECK_BOUND("1000000 new object references", n, 0, peak, st);
  /* Lenient UTF-8: 1 MB of invalid bytes becomes 3 MB of U+FFFD. */
  n = (size_t)1 << 20;
  buf = malloc(n + 5);
  assert_non_null(buf);
  buf[0] = 0x80, buf[1] = 0x80, buf[2] = 0x80, buf[3] = 0x01; /* var_i32(2^20) */
  memset(buf + 4, 0xff, n);
  peak = run_items(buf, n + 4, K_STRING, &st, DESERT_OPT_LENIENT_UTF8);
  free(buf);
  CHECK_BOUND("lenient UTF-8, 1 MiB of invalid bytes", n + 4, 0, peak, st);
}

static void test_golden_model_collections(void **state) {
  (void)state;
  /* Collections of the golden model grow by doubling in the arena: a list of
   * 100000 minimal ListElement1 records in the unknown-size form. Built from
   * a real model so the header is valid. */
  size_t count = 100000;
  golden_element1 *list = calloc(count, sizeof *list);
  assert_non_null(list);
  golden_model m;
  memset(&m, 0, sizeof m);
  m.list = list;
  m.list_len = count;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(golden_model_write(w, &m), DESERT_OK);
  size_t n;
  const uint8_t *p = desert_writer_data(w, &n);
  uint8_t *buf = malloc(n);
  assert_non_null(buf);
  memcpy(buf, p, n);
  desert_status st;
  size_t peak = run_items(buf, n, K_GOLDEN, &st, 0);
  free(buf);
  desert_writer_free(w);
  free(list);
  CHECK_BOUND("golden model, 100000-element list", n, 0, peak, st);
  assert_int_equal(st, DESERT_OK);
}

/* var_u32 into b; returns its length. */
static size_t put_var(uint8_t *b, uint32_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    b[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  b[n++] = (uint8_t)v;
  return n;
}

/* A block: var_u32 plain, var_u32 csize, data. */
static size_t block(uint8_t *out, uint32_t plain, const uint8_t *data, size_t csize) {
  size_t n = put_var(out, plain);
  n += put_var(out + n, (uint32_t)csize);
  memcpy(out + n, data, csize);
  return n + csize;
}

static void test_compressed_claims_4gib(void **state) {
  (void)state;
  static const uint8_t empty_zlib[] = {0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01};
  static const uint8_t empty_raw[] = {0x03, 0x00};
  uint8_t b[32];
  desert_status st;
  size_t n = block(b, 0xffffffffu, empty_raw, sizeof empty_raw);
  size_t peak = run_items(b, n, K_COMP_RAW, &st, 0);
  CHECK_BOUND("raw block claiming 4 GiB", n, 0, peak, st);
  n = block(b, 0xffffffffu, empty_zlib, sizeof empty_zlib);
  peak = run_items(b, n, K_COMP_ZLIB, &st, 0);
  CHECK_BOUND("zlib block claiming 4 GiB", n, 0, peak, st);
  assert_int_equal(st, DESERT_E_LIMIT);
}

/* The case of the brief: a zlib block announcing 64 MiB whose compressed
 * part is 4 bytes (not a complete stream: d = 0). */
static void test_zlib_announces_64mib_from_4_bytes(void **state) {
  (void)state;
  static const uint8_t four[] = {0x78, 0x9c, 0x03, 0x00};
  uint8_t b[32];
  size_t n = block(b, 64u << 20, four, sizeof four);
  desert_status st;
  size_t peak = run_items(b, n, K_COMP_ZLIB, &st, 0);
  CHECK_BOUND("zlib: 64 MiB announced, 4 compressed bytes", n, 0, peak, st);
}

/* A complete empty zlib stream (8 bytes) announcing 64 MiB: docs/schema.md §12
 * pads the result to the announced length with zeros, so the library must
 * either allocate 64 MiB for 13 input bytes or refuse the padding. */
static void test_zlib_padding_bomb(void **state) {
  (void)state;
  static const uint8_t empty_zlib[] = {0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01};
  uint8_t b[32];
  size_t n = block(b, 64u << 20, empty_zlib, sizeof empty_zlib);
  desert_status st;
  size_t peak = run_items(b, n, K_COMP_ZLIB, &st, 0);
  CHECK_BOUND("zlib: 64 MiB announced, empty stream", n, 0, peak, st);
}

/* Raw flavour: 64 MiB announced, 64 KiB of data that is not DEFLATE. The
 * first buffer is min(announced, 1032 * csize) = 64 MiB. */
static void test_raw_lying_length(void **state) {
  (void)state;
  size_t csize = 65536;
  uint8_t *b = malloc(csize + 16);
  uint8_t *junk = malloc(csize);
  assert_non_null(b);
  assert_non_null(junk);
  memset(junk, 0xff, csize); /* block type 11: invalid at once */
  size_t n = block(b, 64u << 20, junk, csize);
  desert_status st;
  size_t peak = run_items(b, n, K_COMP_RAW, &st, 0);
  free(junk);
  free(b);
  CHECK_BOUND("raw: 64 MiB announced, 64 KiB of junk", n, 0, peak, st);
  assert_int_equal(st, DESERT_E_DECOMPRESSION);
}

/* zstd: a 13-byte frame whose header says 64 MiB and whose only block
 * holds one byte. */
static void test_zstd_lying_frame(void **state) {
  (void)state;
  static const uint8_t frame[] = {0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0x00, 0x00, 0x00,
                                  0x04, 0x09, 0x00, 0x00, 0x41};
  uint8_t b[32];
  size_t n = block(b, 64u << 20, frame, sizeof frame);
  desert_status st;
  size_t peak = run_items(b, n, K_COMP_ZSTD, &st, 0);
  CHECK_BOUND("zstd: frame header says 64 MiB, 1 byte of data", n, 1, peak, st);
  assert_int_equal(st, DESERT_E_DECOMPRESSION);
}

/* Real bombs: 64 MiB of zeros in each flavour. d = 64 MiB, so the bound
 * allows the output; the library must still not need more than 4 d. */
static void test_real_bombs(void **state) {
  (void)state;
  size_t plain = (size_t)64 << 20;
  uint8_t *zeros = calloc(plain, 1);
  assert_non_null(zeros);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  int bad = 0;
  static const item_kind kinds[3] = {K_COMP_RAW, K_COMP_ZLIB, K_COMP_ZSTD};
  static const char *const names[3] = {"raw: real 64 MiB bomb", "zlib: real 64 MiB bomb",
                                        "zstd: real 64 MiB bomb"};
  for (int f = 0; f < 3; f++) {
    desert_writer_reset(w);
    desert_status ws = f == 2 ? desert_write_compressed_zstd(w, 19, zeros, plain)
                              : desert_write_compressed(w, (desert_compression)f, 12, zeros, plain);
    assert_int_equal(ws, DESERT_OK);
    size_t n;
    const uint8_t *p = desert_writer_data(w, &n);
    uint8_t *copy = malloc(n);
    assert_non_null(copy);
    memcpy(copy, p, n);
    desert_status st;
    size_t peak = run_items(copy, n, kinds[f], &st, 0);
    free(copy);
    if (st != DESERT_OK || !report(names[f], n, plain, peak, st)) bad++;
  }
  desert_writer_free(w);
  free(zeros);
  assert_int_equal(bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_corpora),
      cmocka_unit_test(test_huge_counts_and_lengths),
      cmocka_unit_test(test_deep_nesting),
      cmocka_unit_test(test_many_session_entries),
      cmocka_unit_test(test_golden_model_collections),
      cmocka_unit_test(test_compressed_claims_4gib),
      cmocka_unit_test(test_zlib_announces_64mib_from_4_bytes),
      cmocka_unit_test(test_zlib_padding_bomb),
      cmocka_unit_test(test_raw_lying_length),
      cmocka_unit_test(test_zstd_lying_frame),
      cmocka_unit_test(test_real_bombs),
  };
  return cmocka_run_group_tests_name("resource_bounds", tests, NULL, NULL);
}
