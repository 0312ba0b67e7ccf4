/* test/test_codec_boundaries.c — the inline message boundaries
 * (desert_writer_reset_inline, desert_writer_data_inline,
 * desert_reader_begin_inline) against the exported functions they stand
 * for. Every case runs the same message sequence twice, once through the
 * exported boundaries and once through the inline ones, and compares
 * status, size, bytes, error offset and position after every step; the
 * expected bytes are built here from the docs/format.md rules. The sequences
 * leave behind what the inline forms must hand to the exported ones:
 * session table entries (DeduplicatedString, references), an abandoned
 * record (nesting), arena memory, nesting through desert_reader_enter,
 * sticky errors, and NULL / empty arguments.
 * Runs once per runnable ISA (name test_codec_*).
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/reader.h"
#include "desert/record.h"
#include "desert/writer.h"
#include "test_util.h"

/* ---- independent encoders (docs/format.md §2, §3, §5.2) ----------------------------- */

static size_t put_be32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (24 - 8 * i));
  return 4;
}
/* var_i32 of small values: zig-zag, one byte (|v| < 64 here). */
static size_t put_small_var_i32(uint8_t *p, int v) {
  p[0] = (uint8_t)(v >= 0 ? 2 * v : -2 * v - 1);
  return 1;
}
/* A DeduplicatedString written in full: var_i32(length) + bytes. */
static size_t put_new_string(uint8_t *p, const char *s) {
  size_t n = strlen(s);
  size_t k = put_small_var_i32(p, (int)n);
  memcpy(p + k, s, n);
  return k + n;
}

/* ---- writer ------------------------------------------------------------------------ */

/* A writer pair in one output mode: [0] exported boundaries (heap), [1]
 * inline boundaries (caller storage). */
typedef struct wpair {
  desert_writer *w[2];
  desert_writer_storage ws;
  uint8_t buf[2][16];
} wpair;

enum { M_GROW, M_FIXED, M_COUNT };

static void wpair_open(wpair *p, int mode, unsigned max_depth) {
  desert_options o;
  desert_options_init(&o);
  o.max_depth = max_depth;
  assert_int_equal(desert_writer_create(&o, &p->w[0]), DESERT_OK);
  assert_int_equal(desert_writer_init(&p->ws, sizeof p->ws, &o, &p->w[1]), DESERT_OK);
  for (int i = 0; i < 2; i++) {
    if (mode == M_FIXED)
      assert_int_equal(desert_writer_use_buffer(p->w[i], p->buf[i], sizeof p->buf[i]), DESERT_OK);
    if (mode == M_COUNT) desert_writer_count_only(p->w[i]);
  }
}

static void wpair_reset(wpair *p) {
  desert_writer_reset(p->w[0]);
  desert_writer_reset_inline(p->w[1]);
  for (int i = 0; i < 2; i++) {
    assert_int_equal(desert_writer_status(p->w[i]), DESERT_OK);
    assert_int_equal(desert_writer_size(p->w[i]), 0);
  }
}

/* Both writers hold `want` (status st); data through both forms. */
static void wpair_check(wpair *p, int mode, desert_status st, const uint8_t *want, size_t n) {
  size_t la = 99, lb = 98;
  const uint8_t *da = desert_writer_data(p->w[0], &la);
  const uint8_t *db = desert_writer_data_inline(p->w[1], &lb);
  /* the inline form gives what the exported one gives on the same writer */
  size_t lc = 97;
  assert_ptr_equal(desert_writer_data(p->w[1], &lc), db);
  assert_int_equal(lc, lb);
  assert_ptr_equal(desert_writer_data_inline(p->w[1], NULL), db);
  for (int i = 0; i < 2; i++) assert_int_equal(desert_writer_status(p->w[i]), st);
  assert_int_equal(la, n);
  assert_int_equal(lb, n);
  if (mode == M_COUNT) {
    assert_null(da);
    assert_null(db);
    return;
  }
  assert_non_null(da);
  assert_non_null(db);
  if (mode == M_FIXED) assert_ptr_equal(db, p->buf[1]);
  assert_memory_equal(da, want, n);
  assert_memory_equal(db, want, n);
}

static void wpair_close(wpair *p) {
  desert_writer_free(p->w[0]);
  desert_writer_free(p->w[1]);
}

/* The session tables: the second message writes "ab" in full again only
 * if the reset cleared the table (docs/format.md §1: one session per message). */
static void writer_tables(int mode) {
  wpair p;
  wpair_open(&p, mode, 0);
  uint8_t want[16];
  for (int round = 0; round < 3; round++) {
    wpair_reset(&p);
    size_t n = 0;
    if (round == 1) { /* plain values only: the inline reset's own case */
      for (int i = 0; i < 2; i++) assert_int_equal(desert_write_i32_inline(p.w[i], -2), DESERT_OK);
      n = put_be32(want, 0xfffffffeu);
    } else {
      for (int i = 0; i < 2; i++) {
        assert_int_equal(desert_write_dedup_string(p.w[i], "ab", 2), DESERT_OK);
        assert_int_equal(desert_write_dedup_string(p.w[i], "ab", 2), DESERT_OK);
      }
      n = put_new_string(want, "ab");
      n += put_small_var_i32(want + n, -1); /* back-reference to id 1 */
    }
    wpair_check(&p, mode, DESERT_OK, want, n);
  }
  /* references: id 1 again after the reset, not a back-reference */
  static const int obj = 7;
  for (int round = 0; round < 2; round++) {
    wpair_reset(&p);
    for (int i = 0; i < 2; i++) {
      bool fresh = false;
      assert_int_equal(desert_write_ref(p.w[i], &obj, &fresh), DESERT_OK);
      assert_true(fresh);
      assert_int_equal(desert_write_ref(p.w[i], &obj, &fresh), DESERT_OK);
      assert_false(fresh);
    }
    want[0] = 0x00; /* var_u32(0): a new object follows */
    want[1] = 0x01; /* var_u32(1): the object registered first */
    wpair_check(&p, mode, DESERT_OK, want, 2);
  }
  wpair_close(&p);
}

/* A record left open (no write_end) leaves nesting and a chunk target
 * behind: after the reset, plain values go to the output and a record
 * opens again at max_depth 1. */
static const desert_field_desc one_field[] = {{"x", 0}};
static const desert_record_desc one_desc = DESERT_RECORD_DESC_V0("One", one_field);

static void writer_abandoned_record(int mode) {
  wpair p;
  wpair_open(&p, mode, 1);
  uint8_t want[16];
  for (int round = 0; round < 2; round++) {
    wpair_reset(&p);
    for (int i = 0; i < 2; i++) {
      desert_record_writer rw;
      assert_int_equal(desert_record_write_begin(p.w[i], &one_desc, &rw), DESERT_OK);
      assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
      assert_int_equal(desert_write_i32_inline(p.w[i], 5), DESERT_OK);
    }
  }
  wpair_reset(&p);
  for (int i = 0; i < 2; i++) assert_int_equal(desert_write_i32_inline(p.w[i], 9), DESERT_OK);
  wpair_check(&p, mode, DESERT_OK, want, put_be32(want, 9));
  /* and a whole record (version 0: the fields alone, docs/format.md §9) */
  wpair_reset(&p);
  for (int i = 0; i < 2; i++) {
    desert_record_writer rw;
    assert_int_equal(desert_record_write_begin(p.w[i], &one_desc, &rw), DESERT_OK);
    assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
    assert_int_equal(desert_write_i32_inline(p.w[i], 6), DESERT_OK);
    assert_int_equal(desert_record_write_end(&rw), DESERT_OK);
  }
  want[0] = 0x00; /* version byte */
  wpair_check(&p, mode, DESERT_OK, want, 1 + put_be32(want + 1, 6));
  wpair_close(&p);
}

/* A sticky error is cleared by either reset; in a fixed buffer the failed
 * write leaves the bytes that fitted. */
static void writer_errors(int mode) {
  wpair p;
  wpair_open(&p, mode, 0);
  uint8_t want[16];
  for (int i = 0; i < 2; i++) {
    assert_int_equal(desert_write_i32_inline(p.w[i], 1), DESERT_OK);
    assert_int_equal(desert_write_string_inline(p.w[i], "\xff", 1), DESERT_E_INVALID_UTF8);
  }
  wpair_check(&p, mode, DESERT_E_INVALID_UTF8, want, put_be32(want, 1));
  wpair_reset(&p);
  if (mode == M_FIXED) { /* 16 bytes: four i32 fit, the fifth does not */
    for (int i = 0; i < 2; i++) {
      for (int k = 0; k < 4; k++) assert_int_equal(desert_write_i32_inline(p.w[i], k), DESERT_OK);
      assert_int_equal(desert_write_i32_inline(p.w[i], 4), DESERT_E_DST_TOO_SMALL);
    }
    for (int k = 0; k < 4; k++) put_be32(want + 4 * k, (uint32_t)k);
    wpair_check(&p, mode, DESERT_E_DST_TOO_SMALL, want, 16);
    wpair_reset(&p);
  }
  for (int i = 0; i < 2; i++) assert_int_equal(desert_write_u8_inline(p.w[i], 0x5a), DESERT_OK);
  want[0] = 0x5a;
  wpair_check(&p, mode, DESERT_OK, want, 1);
  wpair_close(&p);
}

static void test_writer_boundaries(void **state) {
  (void)state;
  for (int mode = M_GROW; mode <= M_COUNT; mode++) {
    writer_tables(mode);
    writer_abandoned_record(mode);
    writer_errors(mode);
  }
  /* NULL writer: as the exported functions */
  desert_writer_reset_inline(NULL);
  size_t len = 5;
  assert_null(desert_writer_data_inline(NULL, &len));
  assert_int_equal(len, 0);
  assert_null(desert_writer_data_inline(NULL, NULL));
}

/* ---- reader ------------------------------------------------------------------------ */

typedef struct rpair {
  desert_reader *r[2]; /* [0] exported begin (heap), [1] inline begin (storage) */
  desert_reader_storage rs;
} rpair;

static void rpair_open(rpair *p, unsigned max_depth) {
  desert_options o;
  desert_options_init(&o);
  o.max_depth = max_depth;
  assert_int_equal(desert_reader_create(&o, &p->r[0]), DESERT_OK);
  assert_int_equal(desert_reader_init(&p->rs, sizeof p->rs, &o, &p->r[1]), DESERT_OK);
}

/* Both begin on data[0..n): same status and a clean start. */
static void rpair_begin(rpair *p, const void *data, size_t n, desert_status st) {
  assert_int_equal(desert_reader_begin(p->r[0], data, n), st);
  assert_int_equal(desert_reader_begin_inline(p->r[1], data, n), st);
  if (st) return;
  for (int i = 0; i < 2; i++) {
    assert_int_equal(desert_reader_status(p->r[i]), DESERT_OK);
    assert_int_equal(desert_reader_error_offset(p->r[i]), 0);
    assert_int_equal(desert_reader_offset(p->r[i]), 0);
    assert_int_equal(desert_reader_remaining(p->r[i]), n);
  }
}

/* Same status, error offset and position on both. */
static void rpair_same(rpair *p, desert_status st, size_t err_off, size_t pos) {
  for (int i = 0; i < 2; i++) {
    assert_int_equal(desert_reader_status(p->r[i]), st);
    assert_int_equal(desert_reader_error_offset(p->r[i]), err_off);
    assert_int_equal(desert_reader_offset(p->r[i]), pos);
  }
}

static void rpair_close(rpair *p) {
  desert_reader_free(p->r[0]);
  desert_reader_free(p->r[1]);
}

static void test_reader_boundaries(void **state) {
  (void)state;
  rpair p;
  rpair_open(&p, 2);
  /* dedup: "ab" registered as id 1, then referenced */
  static const uint8_t m1[] = {0x04, 'a', 'b', 0x01};
  /* a back-reference to id 1 in a new message: unknown there */
  static const uint8_t m2[] = {0x01};
  for (int round = 0; round < 2; round++) {
    rpair_begin(&p, m1, sizeof m1, DESERT_OK);
    for (int i = 0; i < 2; i++) {
      desert_str s = {NULL, 0}, t = {NULL, 0};
      assert_int_equal(desert_read_dedup_string(p.r[i], &s), DESERT_OK);
      assert_int_equal(desert_read_dedup_string(p.r[i], &t), DESERT_OK);
      assert_int_equal(t.len, 2);
      assert_memory_equal(t.ptr, "ab", 2);
    }
    rpair_begin(&p, m2, sizeof m2, DESERT_OK);
    for (int i = 0; i < 2; i++) {
      desert_str s = {NULL, 0};
      assert_int_equal(desert_read_dedup_string(p.r[i], &s), DESERT_E_INVALID_STRING_ID);
    }
    rpair_same(&p, DESERT_E_INVALID_STRING_ID, 0, 1);
  }
  /* after the error: a plain message, read inline */
  static const uint8_t m3[] = {0x80, 0x00, 0x00, 0x01, 0x07};
  for (int round = 0; round < 3; round++) {
    rpair_begin(&p, m3, sizeof m3, DESERT_OK);
    for (int i = 0; i < 2; i++) {
      int32_t v = 0;
      assert_int_equal(desert_read_i32_inline(p.r[i], &v), DESERT_OK);
      assert_int_equal(v, INT32_MIN + 1);
    }
    rpair_same(&p, DESERT_OK, 0, 4);
  }
  /* truncated input: the error, then a clean begin */
  rpair_begin(&p, m3, 3, DESERT_OK);
  for (int i = 0; i < 2; i++) {
    int32_t v = 0;
    assert_int_equal(desert_read_i32_inline(p.r[i], &v), DESERT_E_INPUT_ENDED);
  }
  rpair_same(&p, DESERT_E_INPUT_ENDED, 0, 0);
  /* nesting left open (max_depth 2): the begin restores depth 0 */
  for (int round = 0; round < 3; round++) {
    rpair_begin(&p, m3, sizeof m3, DESERT_OK);
    for (int i = 0; i < 2; i++) {
      assert_int_equal(desert_reader_enter(p.r[i]), DESERT_OK);
      assert_int_equal(desert_reader_enter(p.r[i]), DESERT_OK);
      if (round == 2) assert_int_equal(desert_reader_enter(p.r[i]), DESERT_E_DEPTH);
    }
  }
  rpair_same(&p, DESERT_E_DEPTH, 0, 0);
  /* arena memory: released by the next begin, handed out again */
  void *first[2];
  for (int round = 0; round < 2; round++) {
    rpair_begin(&p, m3, sizeof m3, DESERT_OK);
    for (int i = 0; i < 2; i++) {
      void *a = desert_reader_alloc(p.r[i], 64, 8);
      assert_non_null(a);
      if (round == 0) first[i] = a;
      else assert_ptr_equal(a, first[i]); /* the arena was reset */
    }
  }
  /* references registered in one message are gone in the next */
  static const uint8_t r1[] = {0x00, 0x01};
  static int obj;
  rpair_begin(&p, r1, sizeof r1, DESERT_OK);
  for (int i = 0; i < 2; i++) {
    void *o = &obj;
    assert_int_equal(desert_read_ref(p.r[i], &o), DESERT_OK);
    assert_null(o);
    assert_int_equal(desert_reader_register_ref(p.r[i], &obj), DESERT_OK);
    assert_int_equal(desert_read_ref(p.r[i], &o), DESERT_OK);
    assert_ptr_equal(o, &obj);
  }
  rpair_begin(&p, r1 + 1, 1, DESERT_OK);
  for (int i = 0; i < 2; i++) {
    void *o = NULL;
    assert_int_equal(desert_read_ref(p.r[i], &o), DESERT_E_INVALID_REF_ID);
  }
  rpair_same(&p, DESERT_E_INVALID_REF_ID, 0, 1);
  /* arguments: empty input (NULL or not), NULL with a length */
  rpair_begin(&p, NULL, 0, DESERT_OK);
  rpair_begin(&p, m3, 0, DESERT_OK);
  for (int i = 0; i < 2; i++) {
    uint8_t b = 0;
    assert_int_equal(desert_read_u8_inline(p.r[i], &b), DESERT_E_INPUT_ENDED);
  }
  rpair_begin(&p, NULL, 3, DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_begin_inline(NULL, m3, 1), DESERT_E_ARGUMENT);
  rpair_close(&p);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_writer_boundaries),
      cmocka_unit_test(test_reader_boundaries),
  };
  return cmocka_run_group_tests_name("codec_boundaries", tests, NULL, NULL);
}
