/* test/test_record_matrix.c — a record in five versions, after the Product
 * example of desert-rust's book and tests/evolution.rs:
 *   v1 { field_a: String, field_b: i32 }
 *   v2 + FieldAdded("new_field_1", true)           (new_field_1: bool)
 *   v3 + FieldMadeOptional("field_b")              (field_b: Option<i32>)
 *   v4 + FieldRemoved("field_b")
 *   v5 + FieldMadeTransient("field_a")             (field_a transient, "unset")
 * Data of every version is read by every version: the 25 pairs (plus v3
 * with None) with the expected values, consumed bytes, or status and
 * offset, for both the Rust-style and the Scala-style writer.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "record_testlib.h"
#include "test_util.h"

static const desert_field_desc v1_f[] = {{"field_a", 0}, {"field_b", 0}};
static const desert_record_desc v1_d = DESERT_RECORD_DESC_V0("ProdV1", v1_f);

static const desert_field_desc v2_f[] = {{"field_a", 0}, {"new_field_1", 0}, {"field_b", 0}};
static const desert_evolution_step v2_s[] = {{DESERT_STEP_FIELD_ADDED, "new_field_1", true}};
static const desert_record_desc v2_d = DESERT_RECORD_DESC("ProdV2", v2_f, v2_s);

static const desert_field_desc v3_f[] = {
    {"field_a", 0}, {"new_field_1", 0}, {"field_b", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step v3_s[] = {{DESERT_STEP_FIELD_ADDED, "new_field_1", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "field_b", false}};
static const desert_record_desc v3_d = DESERT_RECORD_DESC("ProdV3", v3_f, v3_s);

static const desert_field_desc v4_f[] = {{"field_a", 0}, {"new_field_1", 0}};
static const desert_evolution_step v4_s[] = {{DESERT_STEP_FIELD_ADDED, "new_field_1", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "field_b", false},
                                             {DESERT_STEP_FIELD_REMOVED, "field_b", false}};
static const desert_record_desc v4_d = DESERT_RECORD_DESC("ProdV4", v4_f, v4_s);

static const desert_field_desc v5_f[] = {{"field_a", DESERT_FIELD_TRANSIENT}, {"new_field_1", 0}};
static const desert_evolution_step v5_s[] = {{DESERT_STEP_FIELD_ADDED, "new_field_1", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "field_b", false},
                                             {DESERT_STEP_FIELD_REMOVED, "field_b", false},
                                             {DESERT_STEP_FIELD_MADE_TRANSIENT, "field_a", false}};
static const desert_record_desc v5_d = DESERT_RECORD_DESC("ProdV5", v5_f, v5_s);

static const rt_type t_sb[] = {RT_STR, RT_I32};
static const rt_type t_sbi[] = {RT_STR, RT_BOOL, RT_I32};
static const rt_type t_sb2[] = {RT_STR, RT_BOOL};

static const rt_rec versions[5] = {
    {&v1_d, t_sb}, {&v2_d, t_sbi}, {&v3_d, t_sbi}, {&v4_d, t_sb2}, {&v5_d, t_sb2}};

/* Field indexes of field_a / new_field_1 / field_b per version (-1: none). */
static const int idx_a[5] = {0, 0, 0, 0, 0};
static const int idx_n[5] = {-1, 1, 1, 1, 1};
static const int idx_b[5] = {1, 2, 2, -1, -1};

/* The values every writer writes: "hello", false, 200 (Some(200) for v3
 * unless `b_none`). */
static void values_for(int v, bool b_none, rt_val *vals) {
  memset(vals, 0, 3 * sizeof *vals);
  snprintf(vals[idx_a[v]].s, sizeof vals[0].s, "hello");
  vals[idx_a[v]].some = true;
  if (idx_n[v] >= 0) vals[idx_n[v]].b = false;
  if (idx_b[v] >= 0) {
    vals[idx_b[v]].i = 200;
    vals[idx_b[v]].some = !b_none;
  }
}

/* Rows: data of v1, v2, v3 Some, v3 None, v4, v5. */
enum { ROWS = 6 };
static const int row_version[ROWS] = {0, 1, 2, 2, 3, 4};
static const bool row_none[ROWS] = {false, false, false, true, false, false};
static const char *const rust_bytes[ROWS] = {
    "00 | 0a 68 65 6c 6c 6f 00 00 00 c8",
    "01 | 14 | 02 | 0a 68 65 6c 6c 6f 00 00 00 c8 | 00",
    "02 | 16 | 02 | 01 ff | 0a 68 65 6c 6c 6f 01 00 00 00 c8 | 00",
    "02 | 0e | 02 | 01 ff | 0a 68 65 6c 6c 6f 00 | 00",
    "03 | 0c | 02 | 03 0e 66 69 65 6c 64 5f 62 | 03 01 | 0a 68 65 6c 6c 6f | 00",
    "04 | 00 | 02 | 03 0e 66 69 65 6c 64 5f 62 | 03 01 | 03 0e 66 69 65 6c 64 5f 61 | 00"};
/* Scala style: FieldMadeOptional of the removed field_b is 01 80. */
static const char *const scala_bytes[ROWS] = {
    NULL,
    NULL,
    NULL,
    NULL,
    "03 | 0c | 02 | 01 80 | 03 0e 66 69 65 6c 64 5f 62 | 0a 68 65 6c 6c 6f | 00",
    "04 | 00 | 02 | 01 80 | 03 0e 66 69 65 6c 64 5f 62 | 03 0e 66 69 65 6c 64 5f 61 | 00"};

/* What a reader gets from one row. For success: consumed bytes and each
 * field's action (b: READ with 200, or NONE). */
typedef struct outcome {
  desert_status st;
  size_t at; /* consumed (OK) or error offset */
  desert_field_action a, n, b;
} outcome;

#define OK_(at, a, n, b) \
  { DESERT_OK, at, a, n, b }
#define ERR_(st, at) \
  { st, at, DESERT_FIELD_READ, DESERT_FIELD_READ, DESERT_FIELD_READ }
#define R  DESERT_FIELD_READ
#define D  DESERT_FIELD_DEFAULT
#define NO DESERT_FIELD_NONE
#define T  DESERT_FIELD_TRANSIENT_DEFAULT
#define X  DESERT_FIELD_READ /* field absent in that reader */

static const outcome expected[ROWS][5] = {
    /* v1 data: new readers default new_field_1; v4 leaves field_b unread
     * (fast path: only field_a is consumed), v5 reads nothing at all. */
    {OK_(11, R, X, R), OK_(11, R, D, R), OK_(11, R, D, R), OK_(7, R, D, X), OK_(1, T, D, X)},
    /* v2 data: v1 skips chunk 1; v3 reads the plain i32 as Some */
    {OK_(14, R, X, R), OK_(14, R, R, R), OK_(14, R, R, R), OK_(14, R, R, X), OK_(14, T, R, X)},
    /* v3 data, Some(200): old readers read through the made-optional tag */
    {OK_(17, R, X, R), OK_(17, R, R, R), OK_(17, R, R, R), OK_(17, R, R, X), OK_(17, T, R, X)},
    /* v3 data, None: old readers fail at the tag byte (offset 11) */
    {ERR_(DESERT_E_NONOPTIONAL_NONE, 11), ERR_(DESERT_E_NONOPTIONAL_NONE, 11), OK_(13, R, R, NO),
     OK_(13, R, R, X), OK_(13, T, R, X)},
    /* v4 data: field_b removed — required in v1/v2 (fails at the version
     * byte), optional in v3 (None) */
    {ERR_(DESERT_E_FIELD_REMOVED, 0), ERR_(DESERT_E_FIELD_REMOVED, 0), OK_(21, R, R, NO),
     OK_(21, R, R, X), OK_(21, T, R, X)},
    /* v5 data: field_a removed (made transient) — required everywhere but v5 */
    {ERR_(DESERT_E_FIELD_REMOVED, 0), ERR_(DESERT_E_FIELD_REMOVED, 0),
     ERR_(DESERT_E_FIELD_REMOVED, 0), ERR_(DESERT_E_FIELD_REMOVED, 0), OK_(24, T, R, X)},
};

static void check_cell(desert_reader *r, int row, int rv, const char *hex) {
  const outcome *o = &expected[row][rv];
  rt_val got[3];
  char where[96];
  snprintf(where, sizeof where, "data row %d read by v%d", row, rv + 1);
  uint8_t in[128];
  size_t n = rt_hex(hex, in, sizeof in);
  desert_reader_begin(r, in, n);
  desert_status st = rt_read(r, &versions[rv], got);
  size_t at = st ? desert_reader_error_offset(r) : desert_reader_offset(r);
  if (st != o->st || at != o->at)
    fail_msg("%s: %s at %zu, want %s at %zu", where, desert_status_name(st), at,
             desert_status_name(o->st), o->at);
  if (st) return;
  /* field_a */
  if (got[idx_a[rv]].action != o->a) fail_msg("%s: field_a action %d", where, got[0].action);
  if (o->a == R && strcmp(got[idx_a[rv]].s, "hello") != 0) fail_msg("%s: field_a", where);
  /* new_field_1: false when read, the default otherwise */
  if (idx_n[rv] >= 0) {
    const rt_val *nv = &got[idx_n[rv]];
    if (nv->action != o->n) fail_msg("%s: new_field_1 action %d", where, nv->action);
    if (o->n == R && nv->b) fail_msg("%s: new_field_1 value", where);
  }
  if (idx_b[rv] >= 0) {
    const rt_val *bv = &got[idx_b[rv]];
    if (bv->action != o->b) fail_msg("%s: field_b action %d", where, bv->action);
    if (o->b == R && bv->i != 200) fail_msg("%s: field_b = %d", where, bv->i);
  }
}

static void run_matrix(unsigned flags, const char *const *bytes_override) {
  desert_writer *w = rt_writer(flags);
  desert_reader *r = rt_reader(0);
  size_t cells = 0;
  for (int row = 0; row < ROWS; row++) {
    int v = row_version[row];
    rt_val vals[3];
    values_for(v, row_none[row], vals);
    desert_writer_reset(w);
    assert_int_equal(rt_write(w, &versions[v], vals), DESERT_OK);
    const char *hex = bytes_override && bytes_override[row] ? bytes_override[row] : rust_bytes[row];
    rt_expect_out(w, hex);
    for (int rv = 0; rv < 5; rv++) {
      check_cell(r, row, rv, hex);
      cells++;
    }
  }
  assert_int_equal(cells, 30); /* the 25 pairs plus v3-None read by all five */
  desert_writer_free(w);
  desert_reader_free(r);
}

static void test_matrix_rust_writer(void **state) {
  (void)state;
  run_matrix(0, NULL);
}

static void test_matrix_scala_writer(void **state) {
  (void)state;
  run_matrix(DESERT_OPT_SCALA_REMOVED_OPTIONAL, scala_bytes);
}

/* Legacy header scoping changes nothing here: every removed name is new to
 * its record, and back-references inside one header resolve in the
 * header's own copy (v4/v5: 03 01). */
static void test_matrix_legacy_writer(void **state) {
  (void)state;
  run_matrix(DESERT_OPT_LEGACY_HEADER_STRINGS, NULL);
}

/* Several records in one stream: the second v5 record back-references both
 * removed names (ids 1 and 2) in the modern form, and sends them in full
 * again in the legacy form; readers read both streams alike. */
static void test_matrix_stream(void **state) {
  (void)state;
  rt_val vals[3];
  values_for(4, false, vals);
  desert_writer *w = rt_writer(0);
  assert_int_equal(rt_write(w, &versions[4], vals), DESERT_OK);
  assert_int_equal(rt_write(w, &versions[4], vals), DESERT_OK);
  rt_expect_out(w, "04 00 02 03 0e 66 69 65 6c 64 5f 62 03 01 03 0e 66 69 65 6c 64 5f 61 00 |"
                   "04 00 02 03 01 03 01 03 03 00");
  size_t n;
  const uint8_t *out = desert_writer_data(w, &n);
  uint8_t in[64];
  memcpy(in, out, n);
  desert_reader *r = rt_reader(0);
  desert_reader_begin(r, in, n);
  rt_val got[3];
  for (int i = 0; i < 2; i++) {
    assert_int_equal(rt_read(r, &versions[3], got), DESERT_E_FIELD_REMOVED);
    desert_reader_begin(r, in, n);
    assert_int_equal(rt_read(r, &versions[4], got), DESERT_OK);
    assert_int_equal(rt_read(r, &versions[4], got), DESERT_OK);
    assert_int_equal(got[1].action, DESERT_FIELD_READ);
    assert_int_equal(desert_reader_offset(r), n);
    desert_reader_begin(r, in, n);
  }
  desert_writer_free(w);
  desert_reader_free(r);
}

int main(void) {
  desert_test_check_expected_isa();
  for (int v = 0; v < 5; v++)
    if (desert_record_desc_check(versions[v].desc) != DESERT_OK) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matrix_rust_writer),
      cmocka_unit_test(test_matrix_scala_writer),
      cmocka_unit_test(test_matrix_legacy_writer),
      cmocka_unit_test(test_matrix_stream),
  };
  return rt_run_both_modes("record_matrix", tests, sizeof tests / sizeof tests[0]);
}
