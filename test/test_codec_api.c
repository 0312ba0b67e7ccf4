/* test/test_codec_api.c — the public surface around the codec core: option
 * defaults and validation, create/free/reset with NULLs and failing
 * allocators, getters, reader arena allocations, status names and docs/format.md
 * §18 kinds, pinned status values, version and per-context ISA pinning.
 * SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/reader.h"
#include "desert/writer.h"
#include "codec_testlib.h"
#include "test_util.h"

/* Status values are pinned forever (common.h). */
_Static_assert(DESERT_OK == 0, "pinned");
_Static_assert(DESERT_E_ARGUMENT == 1 && DESERT_E_NOMEM == 2 && DESERT_E_DST_TOO_SMALL == 3, "pinned");
_Static_assert(DESERT_E_STATE == 4 && DESERT_E_ISA_UNAVAILABLE == 5 && DESERT_E_LIMIT == 6, "pinned");
_Static_assert(DESERT_E_DEPTH == 7 && DESERT_E_INPUT_ENDED == 10, "pinned");
_Static_assert(DESERT_E_VARINT_TOO_LONG == 11 && DESERT_E_NEGATIVE_LENGTH == 12, "pinned");
_Static_assert(DESERT_E_INVALID_TAG == 13 && DESERT_E_INVALID_VALUE == 14, "pinned");
_Static_assert(DESERT_E_DESERIALIZATION == 15 && DESERT_E_INVALID_UTF8 == 16, "pinned");
_Static_assert(DESERT_E_INVALID_UTF16 == 17 && DESERT_E_NOT_LATIN1 == 18, "pinned");
_Static_assert(DESERT_E_INVALID_CHAR == 19 && DESERT_E_UNSUPPORTED_CHAR == 20, "pinned");
_Static_assert(DESERT_E_LENGTH_TOO_LARGE == 21 && DESERT_E_INVALID_STRING_ID == 22, "pinned");
_Static_assert(DESERT_E_INVALID_REF_ID == 23 && DESERT_E_COMPRESSION == 24, "pinned");
_Static_assert(DESERT_E_DECOMPRESSION == 25 && DESERT_E_UNKNOWN_FIELD_REFERENCE == 26, "pinned");
_Static_assert(DESERT_E_UNKNOWN_EVOLUTION_STEP == 27 && DESERT_E_NONEXISTING_CHUNK == 28, "pinned");
_Static_assert(DESERT_E_FIELD_REMOVED == 29 && DESERT_E_FIELD_MISSING == 30, "pinned");
_Static_assert(DESERT_E_NONOPTIONAL_NONE == 31 && DESERT_E_INVALID_CONSTRUCTOR_NAME == 32, "pinned");
_Static_assert(DESERT_E_INVALID_CONSTRUCTOR_ID == 33 && DESERT_E_SERIALIZING_TRANSIENT == 34, "pinned");
_Static_assert(DESERT_E_DESERIALIZING_TRANSIENT == 35 && DESERT_E_TYPE_NOT_REGISTERED == 36, "pinned");
_Static_assert(DESERT_E_INVALID_TYPE_ID == 37 && DESERT_E_UPCAST == 38, "pinned");
_Static_assert(DESERT_E_INVALID_TIME_ZONE == 39 && DESERT_E_SERIALIZATION == 40, "pinned");
_Static_assert(DESERT_E_READ_INPUT == 41 && DESERT_E_WRITE_OUTPUT == 42, "pinned");
_Static_assert(DESERT_E_ZLIB_BLOCK == 43 && DESERT_E_FIELD_ORDER == 44, "pinned");
_Static_assert(DESERT_E_FIELD_SKIPPED == 45 && DESERT_E_FIELD_TRANSIENT == 46, "pinned");
_Static_assert(DESERT_E_FIELD_NOT_OPTIONAL == 47 && DESERT_E_OPTION_TAG_MISSING == 48, "pinned");
_Static_assert(DESERT_STATUS_COUNT_ == 49, "pinned");
_Static_assert(DESERT_ISA_AUTO == 0 && DESERT_ISA_SCALAR == 1 && DESERT_ISA_NEON == 4, "pinned");

/* ---- options ------------------------------------------------------------------ */

static void test_options_init(void **state) {
  (void)state;
  desert_options o;
  memset(&o, 0x5a, sizeof o);
  desert_options_init(&o);
  assert_int_equal(o.struct_size, sizeof(desert_options));
  assert_null(o.allocator.alloc);
  assert_null(o.allocator.free);
  assert_null(o.allocator.opaque);
  assert_int_equal(o.isa, DESERT_ISA_AUTO);
  assert_int_equal(o.flags, 0);
  assert_int_equal(o.compression, DESERT_COMPRESSION_RAW);
  assert_int_equal(o.compression_level, -1);
  assert_int_equal(o.max_length, 0);
  assert_int_equal(o.max_collection, 0);
  assert_int_equal(o.max_depth, 0);
  assert_int_equal(o.max_decompressed, 0);
  desert_options_init(NULL); /* must not crash */
}

/* Creates both kinds of context with o; both must give `want`, and on
 * failure leave *out NULL. */
static void expect_create(const desert_options *o, desert_status want, const char *what) {
  desert_writer *w = (desert_writer *)(uintptr_t)0x1;
  desert_reader *r = (desert_reader *)(uintptr_t)0x1;
  desert_status sw = desert_writer_create(o, &w);
  desert_status sr = desert_reader_create(o, &r);
  if (sw != want || sr != want) {
    print_error("%s: writer %s, reader %s, want %s\n", what, desert_status_name(sw),
                desert_status_name(sr), desert_status_name(want));
    fail();
  }
  if (want == DESERT_OK) {
    assert_non_null(w);
    assert_non_null(r);
    desert_writer_free(w);
    desert_reader_free(r);
  } else {
    assert_null(w);
    assert_null(r);
  }
}

static void test_options_validation(void **state) {
  (void)state;
  desert_options o;
  desert_options_init(&o);
  expect_create(&o, DESERT_OK, "defaults");
  expect_create(NULL, DESERT_OK, "NULL options");

  desert_options_init(&o);
  o.struct_size = 0;
  expect_create(&o, DESERT_E_ARGUMENT, "struct_size 0");
  o.struct_size = sizeof(desert_options) - 1;
  expect_create(&o, DESERT_E_ARGUMENT, "struct_size too small");
  o.struct_size = offsetof(desert_options, flags);
  expect_create(&o, DESERT_E_ARGUMENT, "struct_size of an older, shorter struct");

  desert_options_init(&o);
  o.flags = 1u << 6;
  expect_create(&o, DESERT_E_ARGUMENT, "unknown flag 1<<6");
  o.flags = 1u << 31;
  expect_create(&o, DESERT_E_ARGUMENT, "unknown flag 1<<31");
  o.flags = DESERT_OPT_SCALA_CHARS | DESERT_OPT_LENIENT_UTF8 | DESERT_OPT_LENIENT_TAGS |
            DESERT_OPT_LENIENT_VARINT | DESERT_OPT_LEGACY_HEADER_STRINGS |
            DESERT_OPT_SCALA_REMOVED_OPTIONAL;
  expect_create(&o, DESERT_OK, "every known flag");

  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options_init(&o);
  o.allocator.alloc = ca.allocator.alloc;
  o.allocator.opaque = &ca;
  expect_create(&o, DESERT_E_ARGUMENT, "alloc without free");
  desert_options_init(&o);
  o.allocator.free = ca.allocator.free;
  o.allocator.opaque = &ca;
  expect_create(&o, DESERT_E_ARGUMENT, "free without alloc");
  assert_int_equal(ca.allocs, 0);

  desert_options_init(&o);
  o.compression = (desert_compression)2;
  expect_create(&o, DESERT_E_ARGUMENT, "compression 2");
  o.compression = DESERT_COMPRESSION_ZLIB;
  expect_create(&o, DESERT_OK, "compression zlib");

  static const int bad_levels[] = {-2, 23, INT_MAX, INT_MIN};
  for (size_t i = 0; i < 4; i++) {
    desert_options_init(&o);
    o.compression_level = bad_levels[i];
    expect_create(&o, DESERT_E_ARGUMENT, "bad compression level");
  }
  static const int good_levels[] = {-1, 0, 1, 6, 12, 22};
  for (size_t i = 0; i < 6; i++) {
    desert_options_init(&o);
    o.compression_level = good_levels[i];
    expect_create(&o, DESERT_OK, "good compression level");
  }

  desert_options_init(&o);
  o.isa = DESERT_ISA_COUNT_;
  expect_create(&o, DESERT_E_ARGUMENT, "isa COUNT_");
  o.isa = (desert_isa)99;
  expect_create(&o, DESERT_E_ARGUMENT, "isa 99");
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    o.isa = (desert_isa)isa;
    char what[64];
    snprintf(what, sizeof what, "isa %s", desert_isa_name((desert_isa)isa));
    expect_create(&o, desert_isa_runnable((desert_isa)isa) ? DESERT_OK : DESERT_E_ISA_UNAVAILABLE,
                  what);
  }
  /* large limits are fine */
  desert_options_init(&o);
  o.max_length = SIZE_MAX;
  o.max_collection = SIZE_MAX;
  o.max_depth = UINT_MAX;
  o.max_decompressed = SIZE_MAX;
  expect_create(&o, DESERT_OK, "huge limits");
}

/* Options NULL resolve to exactly what desert_options_init resolves to
 * (the NULL case takes a constant shortcut), field by field, for heap and
 * caller-storage contexts alike. */
static void expect_default_options(const desert_options *got) {
  assert_non_null(got);
  assert_int_equal(got->struct_size, sizeof(desert_options));
  assert_null(got->allocator.alloc);
  assert_null(got->allocator.free);
  assert_null(got->allocator.opaque);
  assert_int_equal(got->isa, DESERT_ISA_AUTO);
  assert_int_equal(got->flags, 0);
  assert_int_equal(got->compression, DESERT_COMPRESSION_RAW);
  assert_int_equal(got->compression_level, -1);
  assert_int_equal(got->max_length, DESERT_DEFAULT_MAX_LENGTH);
  assert_int_equal(got->max_collection, DESERT_DEFAULT_MAX_COLLECTION);
  assert_int_equal(got->max_depth, DESERT_DEFAULT_MAX_DEPTH);
  assert_int_equal(got->max_decompressed, DESERT_DEFAULT_MAX_DECOMPRESSED);
}

static void test_null_options_are_the_defaults(void **state) {
  (void)state;
  desert_options o;
  desert_options_init(&o);
  desert_writer *wn = NULL, *wo = NULL;
  desert_reader *rn = NULL;
  assert_int_equal(desert_writer_create(NULL, &wn), DESERT_OK);
  assert_int_equal(desert_writer_create(&o, &wo), DESERT_OK);
  assert_int_equal(desert_reader_create(NULL, &rn), DESERT_OK);
  expect_default_options(desert_writer_options(wn));
  expect_default_options(desert_writer_options(wo));
  expect_default_options(desert_reader_options(rn));
  assert_int_equal(desert_writer_isa(wn), desert_writer_isa(wo));
  assert_int_equal(desert_writer_isa(wn), desert_active_isa());
  desert_writer_storage ws;
  desert_reader_storage rs;
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, NULL, &w), DESERT_OK);
  assert_int_equal(desert_reader_init(&rs, sizeof rs, NULL, &r), DESERT_OK);
  expect_default_options(desert_writer_options(w));
  expect_default_options(desert_reader_options(r));
  desert_writer_free(w);
  desert_reader_free(r);
  desert_writer_free(wn);
  desert_writer_free(wo);
  desert_reader_free(rn);
}

static void test_options_resolved_and_copied(void **state) {
  (void)state;
  desert_options o;
  desert_options_init(&o);
  o.flags = DESERT_OPT_SCALA_CHARS;
  o.max_depth = 7;
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  /* the caller's struct is copied */
  o.flags = 0;
  o.max_depth = 1;
  const desert_options *wo = desert_writer_options(w), *ro = desert_reader_options(r);
  assert_non_null(wo);
  assert_non_null(ro);
  assert_int_equal(wo->flags, DESERT_OPT_SCALA_CHARS);
  assert_int_equal(ro->flags, DESERT_OPT_SCALA_CHARS);
  assert_int_equal(ro->max_depth, 7);
  assert_int_equal(wo->struct_size, sizeof(desert_options));
  /* zero limits resolve to the documented defaults */
  assert_int_equal(ro->max_length, DESERT_DEFAULT_MAX_LENGTH);
  assert_int_equal(ro->max_collection, DESERT_DEFAULT_MAX_COLLECTION);
  assert_int_equal(ro->max_decompressed, DESERT_DEFAULT_MAX_DECOMPRESSED);
  assert_int_equal(wo->max_length, DESERT_DEFAULT_MAX_LENGTH);
  assert_int_equal(wo->max_depth, 7);
  /* behaviour follows the copy */
  assert_int_equal(desert_write_char(w, 'A'), DESERT_OK);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(len, 2);
  assert_int_equal(d[0], 0);
  assert_int_equal(d[1], 0x41);
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  uint32_t cp;
  assert_int_equal(desert_read_char(r, &cp), DESERT_OK);
  assert_int_equal(cp, 'A');
  for (int i = 0; i < 7; i++) assert_int_equal(desert_reader_enter(r), DESERT_OK);
  assert_int_equal(desert_reader_enter(r), DESERT_E_DEPTH);
  desert_reader_free(r);
  desert_writer_free(w);
}

/* Every runnable ISA can pin a context; AUTO gives the process default. */
static void test_isa_pinning(void **state) {
  (void)state;
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  assert_int_equal(desert_writer_isa(w), desert_active_isa());
  assert_int_equal(desert_reader_isa(r), desert_active_isa());
  desert_writer_free(w);
  desert_reader_free(r);
  int n = 0;
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    n++;
    desert_options o;
    desert_options_init(&o);
    o.isa = (desert_isa)isa;
    assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
    assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
    assert_int_equal(desert_writer_isa(w), isa);
    assert_int_equal(desert_reader_isa(r), isa);
    desert_writer_free(w);
    desert_reader_free(r);
  }
  assert_true(desert_isa_runnable(DESERT_ISA_SCALAR));
  assert_true(n >= 1);
}

/* ---- create / free / NULL handling ---------------------------------------------- */

static void test_create_null_out(void **state) {
  (void)state;
  assert_int_equal(desert_writer_create(NULL, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_create(NULL, NULL), DESERT_E_ARGUMENT);
  desert_options o;
  desert_options_init(&o);
  assert_int_equal(desert_writer_create(&o, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_create(&o, NULL), DESERT_E_ARGUMENT);
}

static void test_null_contexts(void **state) {
  (void)state;
  desert_writer_free(NULL);
  desert_reader_free(NULL);
  desert_writer_reset(NULL);
  desert_reader_reset(NULL);
  desert_writer_use_growable(NULL);
  desert_writer_count_only(NULL);
  assert_int_equal(desert_writer_use_buffer(NULL, NULL, 0), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_size(NULL), 0);
  size_t len = 77;
  assert_null(desert_writer_data(NULL, &len));
  assert_int_equal(len, 0);
  assert_null(desert_writer_data(NULL, NULL));
  assert_int_equal(desert_writer_status(NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_isa(NULL), DESERT_ISA_AUTO);
  assert_null(desert_writer_options(NULL));
  assert_int_equal(desert_reader_begin(NULL, NULL, 0), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_status(NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_error_offset(NULL), 0);
  assert_int_equal(desert_reader_offset(NULL), 0);
  assert_int_equal(desert_reader_remaining(NULL), 0);
  assert_int_equal(desert_reader_isa(NULL), DESERT_ISA_AUTO);
  assert_null(desert_reader_options(NULL));
  assert_int_equal(desert_reader_fail(NULL, DESERT_E_INVALID_VALUE, 0), DESERT_E_ARGUMENT);
  assert_null(desert_reader_alloc(NULL, 8, 8));
}

static void test_create_with_failing_allocator(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_counting_allocator_fail_after(&ca, 0);
  expect_create(&o, DESERT_E_NOMEM, "allocator that always fails");
  assert_int_equal(ca.live_blocks, 0);
  assert_true(ca.failed >= 2);
}

/* Every block handed out is given back with its own size. */
static void test_allocator_contract(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  o.flags = DESERT_OPT_LENIENT_UTF8;
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  int objs[100];
  bool is_new;
  for (int round = 0; round < 3; round++) {
    desert_writer_reset(w);
    for (int i = 0; i < 500; i++) {
      char s[32];
      snprintf(s, sizeof s, "s%d", i * (round + 1));
      assert_int_equal(desert_write_dedup_string(w, s, strlen(s)), DESERT_OK);
      assert_int_equal(desert_write_ref(w, &objs[i % 100], &is_new), DESERT_OK);
    }
    assert_int_equal(desert_write_bytes(w, objs, sizeof objs), DESERT_OK);
    size_t len;
    const uint8_t *d = desert_writer_data(w, &len);
    assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
    desert_str s;
    void *obj;
    for (int i = 0; i < 500; i++) {
      assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
      assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
      if (obj == NULL) assert_int_equal(desert_reader_register_ref(r, &objs[i]), DESERT_OK);
    }
    for (int i = 0; i < 10; i++) assert_non_null(desert_reader_alloc(r, 5000u * (unsigned)i + 1, 8));
  }
  /* a replaced (lenient) string lives in the arena too */
  uint8_t bad[4] = {0x06, 'a', 0x80, 'b'};
  assert_int_equal(desert_reader_begin(r, bad, 4), DESERT_OK);
  desert_str s;
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, 5);
  desert_writer_free(w);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.live_bytes, 0);
  assert_int_equal(ca.bad_frees, 0);
  assert_true(ca.allocs > 0);
}

/* Reader allocation failures surface as DESERT_E_NOMEM with the offset of
 * the item being read. */
static void test_reader_nomem(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  o.flags = DESERT_OPT_LENIENT_UTF8;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  desert_counting_allocator_fail_after(&ca, 0);
  /* begin never allocates */
  uint8_t in[] = {0xaa, 0x06, 'a', 0x80, 'b'};
  assert_int_equal(desert_reader_begin(r, in, sizeof in), DESERT_OK);
  uint8_t b;
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  desert_str s = {"keep", 4};
  assert_int_equal(desert_read_string(r, &s), DESERT_E_NOMEM);
  assert_int_equal(desert_reader_error_offset(r), 2); /* the string's bytes */
  assert_int_equal(s.len, 4);
  /* dedup registration */
  uint8_t in2[] = {0x02, 'a', 0x01};
  assert_int_equal(desert_reader_begin(r, in2, sizeof in2), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_NOMEM);
  assert_int_equal(desert_reader_status(r), DESERT_E_NOMEM);
  /* reference registration */
  uint8_t in3[] = {0x00, 0x01};
  void *obj;
  int x;
  assert_int_equal(desert_reader_begin(r, in3, sizeof in3), DESERT_OK);
  assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
  assert_int_equal(desert_reader_register_ref(r, &x), DESERT_E_NOMEM);
  /* arena */
  assert_int_equal(desert_reader_begin(r, in3, sizeof in3), DESERT_OK);
  assert_null(desert_reader_alloc(r, 10, 1));
  assert_int_equal(desert_reader_status(r), DESERT_E_NOMEM);
  /* memory back: everything works on the same reader */
  desert_counting_allocator_fail_after(&ca, SIZE_MAX);
  assert_int_equal(desert_reader_begin(r, in2, sizeof in2), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, 1);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

/* ---- reader input edge cases ------------------------------------------------------- */

static void test_reader_begin_arguments(void **state) {
  (void)state;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  /* before any begin: an empty input */
  uint8_t b = 9;
  assert_int_equal(desert_read_u8(r, &b), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), 0);
  assert_int_equal(b, 9);
  assert_int_equal(desert_reader_begin(r, NULL, 5), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_begin(r, NULL, 0), DESERT_OK);
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_reader_remaining(r), 0);
  /* zero-length reads of an empty input succeed, and a successful read
   * stores its output (a view of 0 bytes: NULL or any pointer, but not the
   * caller's stale value) */
  static const uint8_t stale[1] = {0};
  const uint8_t *p = stale;
  assert_int_equal(desert_read_raw(r, 0, &p), DESERT_OK);
  const bool raw_stored = p != stale; /* checked after freeing the reader */
  int32_t dst[1] = {5};
  assert_int_equal(desert_read_i32_array(r, dst, 0), DESERT_OK);
  uint32_t dv[1] = {5};
  assert_int_equal(desert_read_var_u32_array(r, dv, 0), DESERT_OK);
  assert_int_equal(desert_read_var_u32_array(r, NULL, 0), DESERT_OK);
  assert_int_equal(desert_read_u16_array(r, NULL, 0), DESERT_OK);
  assert_int_equal(dst[0], 5);
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_read_u8(r, &b), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), 0);
  /* reset forgets the input */
  uint8_t in[3] = {1, 2, 3};
  assert_int_equal(desert_reader_begin(r, in, 3), DESERT_OK);
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), 1);
  assert_int_equal(desert_reader_remaining(r), 2);
  desert_reader_reset(r);
  assert_int_equal(desert_reader_offset(r), 0);
  assert_int_equal(desert_reader_remaining(r), 0);
  assert_int_equal(desert_read_u8(r, &b), DESERT_E_INPUT_ENDED);
  /* NULL destinations with n > 0 are argument errors */
  assert_int_equal(desert_reader_begin(r, in, 3), DESERT_OK);
  assert_int_equal(desert_read_u16_array(r, NULL, 1), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_begin(r, in, 3), DESERT_OK);
  assert_int_equal(desert_read_var_u32_array(r, NULL, 1), DESERT_E_ARGUMENT);
  desert_reader_free(r);
  if (!raw_stored) {
    print_error("desert_read_raw(r, 0, &p) on an empty (NULL, 0) input returned DESERT_OK "
                "without storing *p\n");
    fail();
  }
}

/* desert_reader_alloc: aligned, writable, unique, reused after begin. */
static void test_reader_alloc(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  uint8_t in[1] = {0};
  size_t allocs = 0;
  for (int round = 0; round < 3; round++) {
    assert_int_equal(desert_reader_begin(r, in, 1), DESERT_OK);
    void *prev[40];
    size_t sizes[40];
    int k = 0;
    for (size_t align = 1; align <= 64; align *= 2) {
      for (size_t size = 1; size <= 4097; size = size * 3 + 1) {
        void *p = desert_reader_alloc(r, size, align);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % align, 0);
        memset(p, k, size);
        if (k < 40) {
          prev[k] = p;
          sizes[k] = size;
        }
        k++;
      }
    }
    /* earlier blocks were not overwritten by later ones */
    for (int i = 0; i < 40 && i < k; i++) {
      const uint8_t *q = prev[i];
      for (size_t j = 0; j < sizes[i]; j++) assert_int_equal(q[j], (uint8_t)i);
    }
    void *big = desert_reader_alloc(r, 3u << 20, 64);
    assert_non_null(big);
    memset(big, 1, 3u << 20);
    if (round == 0) allocs = ca.allocs;
    else assert_int_equal(ca.allocs, allocs); /* warm: reused */
  }
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

/* "size 0 returns a valid unique pointer" (reader.h). */
static void test_reader_alloc_zero_size_unique(void **state) {
  (void)state;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  uint8_t in[1] = {0};
  assert_int_equal(desert_reader_begin(r, in, 1), DESERT_OK);
  void *a = desert_reader_alloc(r, 0, 1);
  void *b = desert_reader_alloc(r, 0, 1);
  void *c = desert_reader_alloc(r, 1, 1);
  desert_reader_free(r);
  assert_non_null(a);
  assert_non_null(b);
  assert_non_null(c);
  assert_ptr_not_equal(a, b);
  assert_ptr_not_equal(b, c);
}

/* ---- status names and kinds ---------------------------------------------------------- */

static const struct {
  desert_status st;
  const char *name;
  const char *kind; /* desert_status_kind: a docs/format.md §18 kind or the API kind */
} status_table[] = {
    {DESERT_OK, "DESERT_OK", "Ok"},
    {DESERT_E_ARGUMENT, "DESERT_E_ARGUMENT", "InvalidArgument"},
    {DESERT_E_NOMEM, "DESERT_E_NOMEM", "OutOfMemory"},
    {DESERT_E_DST_TOO_SMALL, "DESERT_E_DST_TOO_SMALL", "BufferTooSmall"},
    {DESERT_E_STATE, "DESERT_E_STATE", "InvalidState"},
    {DESERT_E_ISA_UNAVAILABLE, "DESERT_E_ISA_UNAVAILABLE", "IsaUnavailable"},
    {DESERT_E_LIMIT, "DESERT_E_LIMIT", "DeserializationFailure"}, /* docs/schema.md §14.6 */
    {DESERT_E_DEPTH, "DESERT_E_DEPTH", "DeserializationFailure"},
    {DESERT_E_INPUT_ENDED, "DESERT_E_INPUT_ENDED", "InputEndedUnexpectedly"},
    {DESERT_E_VARINT_TOO_LONG, "DESERT_E_VARINT_TOO_LONG", "DeserializationFailure"},
    {DESERT_E_NEGATIVE_LENGTH, "DESERT_E_NEGATIVE_LENGTH", "DeserializationFailure"},
    {DESERT_E_INVALID_TAG, "DESERT_E_INVALID_TAG", "DeserializationFailure"},
    {DESERT_E_INVALID_VALUE, "DESERT_E_INVALID_VALUE", "DeserializationFailure"},
    {DESERT_E_DESERIALIZATION, "DESERT_E_DESERIALIZATION", "DeserializationFailure"},
    {DESERT_E_INVALID_UTF8, "DESERT_E_INVALID_UTF8", "FailedToDecodeString"},
    {DESERT_E_INVALID_UTF16, "DESERT_E_INVALID_UTF16", "SerializationFailure"},
    {DESERT_E_NOT_LATIN1, "DESERT_E_NOT_LATIN1", "SerializationFailure"},
    {DESERT_E_INVALID_CHAR, "DESERT_E_INVALID_CHAR", "FailedToDecodeCharacter"},
    {DESERT_E_UNSUPPORTED_CHAR, "DESERT_E_UNSUPPORTED_CHAR", "UnsupportedCharacter"},
    {DESERT_E_LENGTH_TOO_LARGE, "DESERT_E_LENGTH_TOO_LARGE", "LengthTooLarge"},
    {DESERT_E_INVALID_STRING_ID, "DESERT_E_INVALID_STRING_ID", "InvalidStringId"},
    {DESERT_E_INVALID_REF_ID, "DESERT_E_INVALID_REF_ID", "InvalidRefId"},
    {DESERT_E_COMPRESSION, "DESERT_E_COMPRESSION", "CompressionFailure"},
    {DESERT_E_DECOMPRESSION, "DESERT_E_DECOMPRESSION", "DecompressionFailure"},
    {DESERT_E_UNKNOWN_FIELD_REFERENCE, "DESERT_E_UNKNOWN_FIELD_REFERENCE",
     "UnknownFieldReferenceInEvolutionStep"},
    {DESERT_E_UNKNOWN_EVOLUTION_STEP, "DESERT_E_UNKNOWN_EVOLUTION_STEP",
     "UnknownSerializedEvolutionStep"},
    {DESERT_E_NONEXISTING_CHUNK, "DESERT_E_NONEXISTING_CHUNK", "DeserializingNonExistingChunk"},
    {DESERT_E_FIELD_REMOVED, "DESERT_E_FIELD_REMOVED", "FieldRemovedInSerializedVersion"},
    {DESERT_E_FIELD_MISSING, "DESERT_E_FIELD_MISSING", "FieldWithoutDefaultValueIsMissing"},
    {DESERT_E_NONOPTIONAL_NONE, "DESERT_E_NONOPTIONAL_NONE", "NonOptionalFieldSerializedAsNone"},
    {DESERT_E_INVALID_CONSTRUCTOR_NAME, "DESERT_E_INVALID_CONSTRUCTOR_NAME",
     "InvalidConstructorName"},
    {DESERT_E_INVALID_CONSTRUCTOR_ID, "DESERT_E_INVALID_CONSTRUCTOR_ID", "InvalidConstructorId"},
    {DESERT_E_SERIALIZING_TRANSIENT, "DESERT_E_SERIALIZING_TRANSIENT",
     "SerializingTransientConstructor"},
    {DESERT_E_DESERIALIZING_TRANSIENT, "DESERT_E_DESERIALIZING_TRANSIENT",
     "DeserializingTransientConstructor"},
    {DESERT_E_TYPE_NOT_REGISTERED, "DESERT_E_TYPE_NOT_REGISTERED", "TypeNotRegistered"},
    {DESERT_E_INVALID_TYPE_ID, "DESERT_E_INVALID_TYPE_ID", "InvalidTypeId"},
    {DESERT_E_UPCAST, "DESERT_E_UPCAST", "SerializationUpcastError"},
    {DESERT_E_INVALID_TIME_ZONE, "DESERT_E_INVALID_TIME_ZONE", "InvalidTimeZone"},
    {DESERT_E_SERIALIZATION, "DESERT_E_SERIALIZATION", "SerializationFailure"},
    {DESERT_E_READ_INPUT, "DESERT_E_READ_INPUT", "FailedToReadInput"},
    {DESERT_E_WRITE_OUTPUT, "DESERT_E_WRITE_OUTPUT", "FailedToWriteOutput"},
    {DESERT_E_ZLIB_BLOCK, "DESERT_E_ZLIB_BLOCK", "DeserializationFailure"},
    {DESERT_E_FIELD_ORDER, "DESERT_E_FIELD_ORDER", "SerializationFailure"},
    {DESERT_E_FIELD_SKIPPED, "DESERT_E_FIELD_SKIPPED", "SerializationFailure"},
    {DESERT_E_FIELD_TRANSIENT, "DESERT_E_FIELD_TRANSIENT", "SerializationFailure"},
    {DESERT_E_FIELD_NOT_OPTIONAL, "DESERT_E_FIELD_NOT_OPTIONAL", "SerializationFailure"},
    {DESERT_E_OPTION_TAG_MISSING, "DESERT_E_OPTION_TAG_MISSING", "SerializationFailure"},
};

/* The 27 kinds of docs/format.md §18. */
static const char *const format_kinds[] = {
    "InputEndedUnexpectedly", "FailedToReadInput", "FailedToWriteOutput",
    "DeserializationFailure", "SerializationFailure", "UnsupportedCharacter",
    "FailedToDecodeCharacter", "FailedToDecodeString", "LengthTooLarge", "InvalidTimeZone",
    "CompressionFailure", "DecompressionFailure", "InvalidStringId", "InvalidRefId",
    "UnknownFieldReferenceInEvolutionStep", "UnknownSerializedEvolutionStep",
    "DeserializingNonExistingChunk", "FieldRemovedInSerializedVersion",
    "FieldWithoutDefaultValueIsMissing", "NonOptionalFieldSerializedAsNone",
    "InvalidConstructorName", "InvalidConstructorId", "SerializingTransientConstructor",
    "DeserializingTransientConstructor", "TypeNotRegistered", "InvalidTypeId",
    "SerializationUpcastError",
};

static void test_status_names_and_kinds(void **state) {
  (void)state;
  size_t n = sizeof status_table / sizeof status_table[0];
  assert_int_equal(n, DESERT_STATUS_COUNT_ - 2); /* 8 and 9 are gaps */
  for (size_t i = 0; i < n; i++) {
    desert_status st = status_table[i].st;
    const char *name = desert_status_name(st), *kind = desert_status_kind(st),
               *msg = desert_status_message(st);
    assert_non_null(name);
    assert_non_null(kind);
    assert_non_null(msg);
    assert_string_equal(name, status_table[i].name);
    assert_string_equal(kind, status_table[i].kind);
    assert_true(kind[0] != '\0');
    assert_true(strlen(msg) > 3);
    assert_string_not_equal(name, "DESERT_E_UNKNOWN");
  }
  /* every docs/format.md §18.1 kind is named by some status */
  for (size_t k = 0; k < sizeof format_kinds / sizeof format_kinds[0]; k++) {
    bool found = false;
    for (int s = 0; s < DESERT_STATUS_COUNT_; s++)
      if (strcmp(desert_status_kind((desert_status)s), format_kinds[k]) == 0) found = true;
    if (!found) {
      print_error("docs/format.md §18 kind %s has no status\n", format_kinds[k]);
      fail();
    }
  }
  /* statuses of the desert format map to docs/format.md §18.1 kinds; the two transcoder
   * statuses too (they are raised while serializing) */
  for (int s = DESERT_E_INPUT_ENDED; s < DESERT_STATUS_COUNT_; s++) {
    const char *kind = desert_status_kind((desert_status)s);
    bool ok = false;
    for (size_t k = 0; k < sizeof format_kinds / sizeof format_kinds[0]; k++)
      if (strcmp(kind, format_kinds[k]) == 0) ok = true;
    if (!ok) {
      print_error("%s has kind %s, not a docs/format.md §18 kind\n",
                  desert_status_name((desert_status)s), kind);
      fail();
    }
  }
  /* names are unique */
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++)
      assert_string_not_equal(status_table[i].name, status_table[j].name);
  /* not statuses */
  static const int bogus[] = {8, 9, DESERT_STATUS_COUNT_, 50, 1000, -1, INT_MAX, INT_MIN};
  for (size_t i = 0; i < sizeof bogus / sizeof bogus[0]; i++) {
    desert_status st = (desert_status)bogus[i];
    assert_string_equal(desert_status_name(st), "DESERT_E_UNKNOWN");
    assert_non_null(desert_status_kind(st));
    assert_non_null(desert_status_message(st));
    assert_true(desert_status_message(st)[0] != '\0');
  }
}

static void test_version(void **state) {
  (void)state;
  assert_int_equal(desert_version_number(), DESERT_VERSION_NUMBER);
  assert_string_equal(desert_version_string(), DESERT_VERSION_STRING);
  char buf[32];
  snprintf(buf, sizeof buf, "%d.%d.%d", DESERT_VERSION_MAJOR, DESERT_VERSION_MINOR,
           DESERT_VERSION_PATCH);
  assert_string_equal(buf, DESERT_VERSION_STRING);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_options_init),
      cmocka_unit_test(test_options_validation),
      cmocka_unit_test(test_options_resolved_and_copied),
      cmocka_unit_test(test_null_options_are_the_defaults),
      cmocka_unit_test(test_isa_pinning),
      cmocka_unit_test(test_create_null_out),
      cmocka_unit_test(test_null_contexts),
      cmocka_unit_test(test_create_with_failing_allocator),
      cmocka_unit_test(test_allocator_contract),
      cmocka_unit_test(test_reader_nomem),
      cmocka_unit_test(test_reader_begin_arguments),
      cmocka_unit_test(test_reader_alloc),
      cmocka_unit_test(test_reader_alloc_zero_size_unique),
      cmocka_unit_test(test_status_names_and_kinds),
      cmocka_unit_test(test_version),
  };
  return cmocka_run_group_tests_name("codec_api", tests, NULL, NULL);
}
