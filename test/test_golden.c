/* test/test_golden.c — desert-scala's golden dataset (../shared/golden):
 * decoded through the hand-written model of examples/golden_model.c, every
 * value of the golden dataset's README (DESERT_GOLDEN_DIR) asserted, re-encoded byte-identically with
 * legacy header string scoping and to the pinned 242534-byte modern form,
 * and cut short everywhere: every proper prefix, plus a sweep of truncated
 * chunks that makes each item inside the record run out of input.
 *
 * The file is read from DESERT_GOLDEN_DIR (never copied into the repo). If
 * it is missing the suite prints a loud SKIP and passes, unless
 * DESERT_REQUIRE_GOLDEN=1 (CI), where it fails.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/reader.h"
#include "desert/record.h"
#include "desert/writer.h"
#include "desert_build_config.h"
#include "golden_model.h"
#include "core/reader_internal.h"
#include "core/writer_internal.h"
#include "sha256.h"
#include "test_util.h"

#define GOLDEN_LEN 242540u
#define MODERN_LEN 242534u
static const char golden_sha[] = "859c64f2968df629eb52f52920f1c4cd66cea0e2cd3a7576436d83237d5cf8fd";
static const char modern_sha[] = "035c37a27b526accc933f271327f54db22695fa8e6a100058f1257db922ad079";

static uint8_t *golden;
static size_t golden_len;

/* ---- helpers ---------------------------------------------------------------- */

static desert_reader *new_reader(desert_counting_allocator *ca) {
  desert_options o;
  desert_options_init(&o);
  if (ca) o.allocator = ca->allocator;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  return r;
}

static desert_writer *new_writer(unsigned flags, desert_counting_allocator *ca) {
  desert_options o;
  desert_options_init(&o);
  o.flags = flags;
  if (ca) o.allocator = ca->allocator;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  return w;
}

static void decode_ok(desert_reader *r, const uint8_t *data, size_t len, golden_model *m) {
  assert_int_equal(desert_reader_begin(r, data, len), DESERT_OK);
  desert_status st = golden_model_read(r, m);
  if (st)
    fail_msg("decode failed: %s at %zu", desert_status_name(st), desert_reader_error_offset(r));
  assert_int_equal(desert_reader_offset(r), len);
}

static void assert_str(desert_str s, const char *want) {
  size_t n = strlen(want);
  if (s.len != n || (n && memcmp(s.ptr, want, n) != 0))
    fail_msg("got \"%.*s\", want \"%s\"", (int)s.len, s.ptr ? s.ptr : "", want);
}

typedef struct frame_want {
  const char *cls, *method, *file;
  uint32_t line;
} frame_want;

static const frame_want frames_want[16] = {
    {"io.github.vigoo.desert.golden.TestModel1$", "generateException", "TestModel1.scala", 67},
    {"io.github.vigoo.desert.golden.TestModel1$", "<clinit>", "TestModel1.scala", 84},
    {"io.github.vigoo.desert.golden.Main$", "$anonfun$run$3", "Main.scala", 31},
    {"zio.ZIO$FlatMap", "apply", "ZIO.scala", 5210},
    {"zio.ZIO$FlatMap", "apply", "ZIO.scala", 5199},
    {"zio.internal.FiberContext", "runUntil", "FiberContext.scala", 901},
    {"zio.internal.FiberContext", "run", "FiberContext.scala", 111},
    {"zio.Runtime", "unsafeRunWithRefs", "Runtime.scala", 400},
    {"zio.Runtime", "unsafeRunWith", "Runtime.scala", 355},
    {"zio.Runtime", "unsafeRunAsyncCancelable", "Runtime.scala", 308},
    {"zio.Runtime", "unsafeRunAsyncCancelable$", "Runtime.scala", 304},
    {"zio.Runtime$$anon$2", "unsafeRunAsyncCancelable", "Runtime.scala", 425},
    {"zio.Runtime", "$anonfun$run$2", "Runtime.scala", 78},
    {"zio.internal.FiberContext", "runUntil", "FiberContext.scala", 316},
    {"zio.internal.FiberContext", "run", "FiberContext.scala", 111},
    {"zio.internal.ZScheduler$$anon$3", "run", "ZScheduler.scala", 415}};

static void assert_frames(const golden_throwable *t) {
  assert_int_equal(t->stack_trace_len, 16);
  for (size_t i = 0; i < 16; i++) {
    const golden_stack_frame *f = &t->stack_trace[i];
    assert_int_equal(f->leading, 0);
    assert_true(f->has_class_name && f->has_method_name && f->has_file_name);
    assert_str(f->class_name, frames_want[i].cls);
    assert_str(f->method_name, frames_want[i].method);
    assert_str(f->file_name, frames_want[i].file);
    assert_int_equal(f->line_number, frames_want[i].line);
  }
}

static const uint8_t uuid_main[16] = {0xd9, 0x0c, 0x42, 0x85, 0x54, 0x4d, 0x42, 0x4d,
                                      0x88, 0x5c, 0x39, 0x40, 0xfe, 0x00, 0x88, 0x3d};
static const uint8_t uuid_second[16] = {0x0c, 0xa2, 0x66, 0x48, 0xed, 0xee, 0x4a, 0x2d,
                                        0xbd, 0x88, 0xee, 0xbf, 0x92, 0xd1, 0x9c, 0x30};

/* Every value of the expected value in the golden dataset's README. */
static void assert_model(const golden_model *m) {
  assert_int_equal(m->byte_, -10);
  assert_int_equal(m->short_, 10000);
  assert_int_equal(m->int_, -2000000000);
  assert_true(m->long_ == INT64_C(100000000001));
  uint32_t fb;
  uint64_t db;
  memcpy(&fb, &m->float_, 4);
  memcpy(&db, &m->double_, 8);
  assert_int_equal(fb, 0x4048f5c3u);
  assert_true(db == UINT64_C(0x3dab22cd6bbd390c));
  assert_false(m->boolean_);
  assert_str(m->string, "Example data set");
  assert_memory_equal(m->uuid, uuid_main, 16);

  const golden_throwable *e = &m->exception;
  assert_str(e->class_name, "java.lang.RuntimeException");
  assert_str(e->message, "Example exception");
  assert_frames(e);
  assert_non_null(e->cause);
  assert_str(e->cause->class_name, "java.lang.IllegalArgumentException");
  assert_str(e->cause->message, "param should not be negative");
  assert_frames(e->cause);
  assert_null(e->cause->cause);

  assert_int_equal(m->list_len, 3);
  assert_false(m->list_known_size);
  assert_str(m->list[0].id, "a");
  assert_str(m->list[1].id, "aa");
  assert_str(m->list[2].id, "aaa");

  assert_int_equal(m->array_len, 30000);
  for (size_t i = 0; i < 30000; i++)
    if (m->array[i] != (int64_t)i + 1) fail_msg("array[%zu] = %lld", i, (long long)m->array[i]);

  assert_int_equal(m->vector_len, 100);
  for (size_t i = 0; i < 100; i++) {
    char want[8];
    snprintf(want, sizeof want, "%zu", i + 1);
    assert_str(m->vector[i].id, want);
  }

  assert_int_equal(m->set_len, 2);
  assert_str(m->set[0], "hello");
  assert_str(m->set[1], "world");

  assert_true(m->either_right);
  assert_true(m->either_right_value);

  assert_true(m->tried_success);
  assert_int_equal(m->tried_value.kind, GOLDEN_FIRST);
  assert_str(m->tried_value.first.id, "");

  assert_true(m->has_option);
  assert_int_equal(m->option_len, 3);
  assert_str(m->option[0].key, "first");
  assert_int_equal(m->option[0].value.kind, GOLDEN_FIRST);
  assert_str(m->option[0].value.first.id, "1st");
  assert_str(m->option[1].key, "second");
  assert_int_equal(m->option[1].value.kind, GOLDEN_SECOND);
  assert_memory_equal(m->option[1].value.uuid, uuid_second, 16);
  assert_false(m->option[1].value.has_desc);
  assert_false(m->option[1].value.has_cached);
  assert_str(m->option[2].key, "third");
  assert_int_equal(m->option[2].value.kind, GOLDEN_SECOND);
  assert_memory_equal(m->option[2].value.uuid, uuid_second, 16);
  assert_true(m->option[2].value.has_desc);
  assert_str(m->option[2].value.desc, "some description");
  assert_false(m->option[2].value.has_cached);
}

/* ---- tests ------------------------------------------------------------------- */

static void test_sha256_vectors(void **state) {
  (void)state;
  char hex[65];
  desert_test_sha256_hex("", 0, hex);
  assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  desert_test_sha256_hex("abc", 3, hex);
  assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  desert_test_sha256_hex(two, strlen(two), hex);
  assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_file_identity(void **state) {
  (void)state;
  assert_int_equal(golden_len, GOLDEN_LEN);
  char hex[65];
  desert_test_sha256_hex(golden, golden_len, hex);
  assert_string_equal(hex, golden_sha);
}

static void test_decode_values(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_reader *r = new_reader(&ca);
  golden_model m;
  decode_ok(r, golden, golden_len, &m); /* consumed == 242540 checked there */
  assert_model(&m);
  /* the golden dataset's README (deduplicated strings): after decoding, the string table is exactly {1: "cached"}. */
  assert_int_equal(r->strings.count, 1);
  const desert_strtab_entry *e = desert_strtab_get(&r->strings, 1);
  assert_non_null(e);
  assert_int_equal(e->len, 6);
  assert_memory_equal(e->ptr, "cached", 6);
  /* A warm reader decodes again without allocating. */
  size_t allocs = ca.allocs;
  decode_ok(r, golden, golden_len, &m);
  assert_model(&m);
  assert_int_equal(ca.allocs, allocs);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

static void test_reencode_legacy(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_reader *r = new_reader(NULL);
  desert_writer *w = new_writer(DESERT_OPT_LEGACY_HEADER_STRINGS, &ca);
  golden_model m;
  decode_ok(r, golden, golden_len, &m);
  assert_int_equal(golden_model_write(w, &m), DESERT_OK);
  size_t n;
  const uint8_t *out = desert_writer_data(w, &n);
  desert_assert_bytes_equal(golden, golden_len, out, n);
  /* Legacy scoping discards header registrations: the table is empty. */
  desert_writer_reset(w);
  size_t allocs = ca.allocs;
  assert_int_equal(golden_model_write(w, &m), DESERT_OK);
  out = desert_writer_data(w, &n);
  desert_assert_bytes_equal(golden, golden_len, out, n);
  assert_int_equal(ca.allocs, allocs); /* warm writer: chunk buffers reused */
  desert_writer_free(w);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

static void test_reencode_modern(void **state) {
  (void)state;
  desert_reader *r = new_reader(NULL);
  desert_writer *w = new_writer(0, NULL);
  golden_model m;
  decode_ok(r, golden, golden_len, &m);
  assert_int_equal(golden_model_write(w, &m), DESERT_OK);
  size_t n;
  const uint8_t *out = desert_writer_data(w, &n);
  assert_int_equal(n, MODERN_LEN);
  static const uint8_t header[8] = {0x03, 0x80, 0xcd, 0x1d, 0x01, 0xf1, 0x22, 0x1a};
  assert_memory_equal(out, header, 8);
  char hex[65];
  desert_test_sha256_hex(out, n, hex);
  assert_string_equal(hex, modern_sha);
  /* The modern writer's table: "cached" registered by the first header. */
  assert_int_equal(desert_strtab_find(&w->strings, "cached", 6), 1);

  /* The modern form decodes to the same values, all bytes used. */
  uint8_t *copy = malloc(n);
  assert_non_null(copy);
  memcpy(copy, out, n);
  desert_reader *r2 = new_reader(NULL);
  golden_model m2;
  decode_ok(r2, copy, n, &m2);
  assert_model(&m2);

  /* Size-only mode counts the same bytes; a fixed buffer of exactly that
   * size works and one byte less fails cleanly. */
  desert_writer_count_only(w);
  assert_int_equal(golden_model_write(w, &m), DESERT_OK);
  assert_int_equal(desert_writer_size(w), MODERN_LEN);
  uint8_t *fixed = malloc(MODERN_LEN);
  assert_non_null(fixed);
  assert_int_equal(desert_writer_use_buffer(w, fixed, MODERN_LEN), DESERT_OK);
  assert_int_equal(golden_model_write(w, &m), DESERT_OK);
  assert_memory_equal(fixed, copy, MODERN_LEN);
  assert_int_equal(desert_writer_use_buffer(w, fixed, MODERN_LEN - 1), DESERT_OK);
  assert_int_equal(golden_model_write(w, &m), DESERT_E_DST_TOO_SMALL);
  free(fixed);
  free(copy);
  desert_reader_free(r2);
  desert_writer_free(w);
  desert_reader_free(r);
}

/* Every proper prefix of the file fails with InputEndedUnexpectedly, at an
 * offset inside the prefix, without leaking (one reader reused). */
static void test_every_prefix_fails(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_reader *r = new_reader(&ca);
  uint8_t *copy = malloc(golden_len); /* exact-size buffers catch any overread under ASan */
  assert_non_null(copy);
  memcpy(copy, golden, golden_len);
  golden_model m;
  for (size_t k = 0; k < golden_len; k++) {
    desert_reader_begin(r, copy, k);
    desert_status st = golden_model_read(r, &m);
    if (st != DESERT_E_INPUT_ENDED)
      fail_msg("prefix %zu: %s, want DESERT_E_INPUT_ENDED", k, desert_status_name(st));
    if (desert_reader_error_offset(r) > k)
      fail_msg("prefix %zu: offset %zu", k, desert_reader_error_offset(r));
  }
  desert_reader_free(r);
  free(copy);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

/* The prefixes above all fail in the header walk (chunk 0 does not fit).
 * Here chunk 0 itself is cut: the header is rewritten to announce k bytes
 * of chunk 0, followed by those k bytes and the intact chunks 2 and 3, so
 * each field read runs into the chunk's end. Every k < 242502 must fail
 * with InputEndedUnexpectedly at an offset inside the shortened chunk;
 * the whole range around the small fields and the tail is swept, the
 * 240 kB array in steps. */
static void test_truncated_chunk0_sweep(void **state) {
  (void)state;
  const size_t c0 = 242502, c0_at = 8;
  const uint8_t *tail = golden + c0_at + c0; /* chunks 2 and 3: 30 bytes */
  const size_t tail_len = golden_len - c0_at - c0;
  uint8_t *buf = malloc(golden_len);
  assert_non_null(buf);
  desert_reader *r = new_reader(NULL);
  golden_model m;
  size_t tested = 0;
  for (size_t k = 0; k < c0; k += (k < 2100 || k > c0 - 700) ? 1 : 997) {
    size_t n = 0;
    buf[n++] = 0x03;
    uint32_t v = (uint32_t)k << 1; /* var_i32(k) */
    while (v >= 0x80) {
      buf[n++] = (uint8_t)(v | 0x80);
      v >>= 7;
    }
    buf[n++] = (uint8_t)v;
    buf[n++] = 0x01;
    buf[n++] = 0xf1;
    buf[n++] = 0x22;
    buf[n++] = 0x1a;
    size_t start = n;
    memcpy(buf + n, golden + c0_at, k);
    n += k;
    memcpy(buf + n, tail, tail_len);
    n += tail_len;
    desert_reader_begin(r, buf, n);
    desert_status st = golden_model_read(r, &m);
    size_t off = desert_reader_error_offset(r);
    if (st != DESERT_E_INPUT_ENDED || off < start || off > start + k)
      fail_msg("chunk 0 cut at %zu: %s at %zu (chunk %zu..%zu)", k, desert_status_name(st), off,
               start, start + k);
    tested++;
  }
  if (tested < 2400) fail_msg("only %zu cuts tested", tested);
  desert_reader_free(r);
  free(buf);
}

/* Inner values on their own: every prefix of the exception record
 * (offset 52, 1929 bytes) and of the map's last value (a Second with a
 * header) fails with InputEndedUnexpectedly. */
static void test_inner_prefixes(void **state) {
  (void)state;
  desert_reader *r = new_reader(NULL);
  golden_throwable t;
  uint8_t *buf = malloc(1929);
  assert_non_null(buf);
  memcpy(buf, golden + 52, 1929);
  desert_reader_begin(r, buf, 1929);
  assert_int_equal(golden_throwable_read(r, &t), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), 1929);
  assert_frames(&t);
  for (size_t k = 0; k < 1929; k++) {
    desert_reader_begin(r, buf, k);
    assert_int_equal(golden_throwable_read(r, &t), DESERT_E_INPUT_ENDED);
    assert_true(desert_reader_error_offset(r) <= k);
  }
  /* The "third" entry's value: ListElement2 Second with a v1 header; it
   * starts right after the key "third" (00 0a "third"). */
  const uint8_t pat[] = {0x00, 0x0a, 't', 'h', 'i', 'r', 'd'};
  size_t at = 0;
  for (size_t i = 242403; i + sizeof pat <= golden_len; i++)
    if (memcmp(golden + i, pat, sizeof pat) == 0) at = i + sizeof pat;
  assert_true(at > 0);
  size_t len = golden_len - 30 - at; /* chunks 2 and 3 (30 bytes) follow */
  memcpy(buf, golden + at, len);
  golden_element2 e;
  desert_reader_begin(r, buf, len);
  assert_int_equal(golden_element2_read(r, &e), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), len);
  assert_int_equal(e.kind, GOLDEN_SECOND);
  assert_str(e.desc, "some description");
  for (size_t k = 0; k < len; k++) {
    desert_reader_begin(r, buf, k);
    assert_int_equal(golden_element2_read(r, &e), DESERT_E_INPUT_ENDED);
  }
  free(buf);
  desert_reader_free(r);
}

/* A few bytes flipped in the header give clean errors, never a crash. */
static void test_corrupted_header(void **state) {
  (void)state;
  uint8_t *buf = malloc(golden_len);
  assert_non_null(buf);
  desert_reader *r = new_reader(NULL);
  golden_model m;
  /* entry 1 code 05 = var_i32(-3): UnknownSerializedEvolutionStep at 4 */
  memcpy(buf, golden, golden_len);
  buf[4] = 0x05;
  desert_reader_begin(r, buf, golden_len);
  assert_int_equal(golden_model_read(r, &m), DESERT_E_UNKNOWN_EVOLUTION_STEP);
  assert_int_equal(desert_reader_error_offset(r), 4);
  /* chunk 2 one byte longer than what is left: InputEnded at its start */
  memcpy(buf, golden, golden_len);
  buf[6] = 0x24;
  buf[7] = 0x18; /* keep the total: chunk 3 one byte shorter */
  desert_reader_begin(r, buf, golden_len);
  desert_status st = golden_model_read(r, &m);
  assert_int_equal(st, DESERT_E_INPUT_ENDED); /* the set's last string is cut */
  /* version byte 7: 8 entries expected, the walk fails somewhere cleanly */
  memcpy(buf, golden, golden_len);
  buf[0] = 0x07;
  desert_reader_begin(r, buf, golden_len);
  assert_int_not_equal(golden_model_read(r, &m), DESERT_OK);
  /* position byte f0 (chunk 0, position 16) matches no field: ignored
   * (`option` is an optional field, read through the reader's own step) */
  memcpy(buf, golden, golden_len);
  buf[5] = 0xf0;
  decode_ok(r, buf, golden_len, &m);
  assert_model(&m);
  /* Scala's 80 marker matches nothing either */
  buf[5] = 0x80;
  decode_ok(r, buf, golden_len, &m);
  assert_model(&m);
  /* ff names `short` (position 1): a tag byte is expected before it, so the
   * rest of chunk 0 is misread; whatever happens, it is a clean status */
  buf[5] = 0xff;
  desert_reader_begin(r, buf, golden_len);
  assert_int_not_equal(golden_model_read(r, &m), DESERT_OK);
  free(buf);
  desert_reader_free(r);
}

int main(void) {
  desert_test_check_expected_isa();
  const char *path = DESERT_GOLDEN_DIR "/dataset1.bin";
  FILE *f = fopen(path, "rb");
  if (!f) {
    const char *req = getenv("DESERT_REQUIRE_GOLDEN");
    bool required = req && strcmp(req, "1") == 0;
    fprintf(stderr,
            "\n*****************************************************************\n"
            "*** %s: golden dataset not found at\n***   %s\n"
            "*** (set -DDESERT_GOLDEN_DIR=... to desert-scala's golden folder)\n"
            "*****************************************************************\n\n",
            required ? "FAIL (DESERT_REQUIRE_GOLDEN=1)" : "SKIP", path);
    return required ? 1 : 0;
  }
  golden = malloc(GOLDEN_LEN + 1);
  if (!golden) return 1;
  golden_len = fread(golden, 1, GOLDEN_LEN + 1, f);
  fclose(f);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sha256_vectors),         cmocka_unit_test(test_file_identity),
      cmocka_unit_test(test_decode_values),          cmocka_unit_test(test_reencode_legacy),
      cmocka_unit_test(test_reencode_modern),        cmocka_unit_test(test_every_prefix_fails),
      cmocka_unit_test(test_truncated_chunk0_sweep), cmocka_unit_test(test_inner_prefixes),
      cmocka_unit_test(test_corrupted_header),
  };
  int rc = cmocka_run_group_tests_name("golden", tests, NULL, NULL);
  free(golden);
  return rc;
}
