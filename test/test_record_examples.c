/* test/test_record_examples.c — every worked record example, both ways
 * (written byte for byte, and read by the writer's own and by other
 * versions' readers). The letters below: (a) version 0 (docs/format.md
 * §9.3), (b)–(e) the examples docs/format.md §9.9 (a)–(d) (with the Rust
 * and Scala halves of (e)), (f) the golden header of §9.9 (f); then the
 * transient fields of §9.9 (e), a truncated record (docs/schema.md §14.5)
 * and the rules around them: unit fields take a position, nested versioned
 * records, tuples read as full records, string-table order (§9.8) and
 * legacy header scoping.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "record_testlib.h"
#include "test_util.h"
#include "core/writer_internal.h"

/* ---- the records of docs/format.md §9.3, §9.9 ------------------------------------------- */

static const rt_type T_II[] = {RT_I32, RT_I32};
static const rt_type T_ISI[] = {RT_I32, RT_STR, RT_I32};
static const rt_type T_III[] = {RT_I32, RT_I32, RT_I32};

/* (a) Point { x: i32, y: i32 } */
static const desert_field_desc point_f[] = {{"x", 0}, {"y", 0}};
static const desert_record_desc point_d = DESERT_RECORD_DESC_V0("Point", point_f);
static const rt_rec point = {&point_d, T_II};

/* (b) PointV2 { x, label: String, y } + FieldAdded("label", "origin") */
static const desert_field_desc v2_f[] = {{"x", 0}, {"label", 0}, {"y", 0}};
static const desert_evolution_step v2_s[] = {{DESERT_STEP_FIELD_ADDED, "label", true}};
static const desert_record_desc v2_d = DESERT_RECORD_DESC("PointV2", v2_f, v2_s);
static const rt_rec point_v2 = {&v2_d, T_ISI};

/* (c) { x, y: Option<i32> } + FieldMadeOptional("y") */
static const desert_field_desc c_f[] = {{"x", 0}, {"y", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step c_s[] = {{DESERT_STEP_FIELD_MADE_OPTIONAL, "y", false}};
static const desert_record_desc c_d = DESERT_RECORD_DESC("PointOptY", c_f, c_s);
static const rt_rec point_opt_y = {&c_d, T_II};

/* PointV3 { x, label: Option<String>, y } + FieldAdded(label), FieldMadeOptional(label) */
static const desert_field_desc v3_f[] = {{"x", 0}, {"label", DESERT_FIELD_OPTIONAL}, {"y", 0}};
static const desert_evolution_step v3_s[] = {{DESERT_STEP_FIELD_ADDED, "label", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "label", false}};
static const desert_record_desc v3_d = DESERT_RECORD_DESC("PointV3", v3_f, v3_s);
static const rt_rec point_v3 = {&v3_d, T_ISI};

/* (d) { x, y } + FieldRemoved("z") */
static const desert_evolution_step d_s[] = {{DESERT_STEP_FIELD_REMOVED, "z", false}};
static const desert_record_desc d_d = DESERT_RECORD_DESC("PointNoZ", point_f, d_s);
static const rt_rec point_no_z = {&d_d, T_II};
/* old readers of (d): z required, z optional, z optional before y */
static const desert_field_desc xyz_f[] = {{"x", 0}, {"y", 0}, {"z", 0}};
static const desert_record_desc xyz_d = DESERT_RECORD_DESC_V0("PointXYZ", xyz_f);
static const rt_rec point_xyz = {&xyz_d, T_III};
static const desert_field_desc xyzo_f[] = {{"x", 0}, {"y", 0}, {"z", DESERT_FIELD_OPTIONAL}};
static const desert_record_desc xyzo_d = DESERT_RECORD_DESC_V0("PointXYZo", xyzo_f);
static const rt_rec point_xyz_opt = {&xyzo_d, T_III};
static const desert_field_desc xzy_f[] = {{"x", 0}, {"z", DESERT_FIELD_OPTIONAL}, {"y", 0}};
static const desert_record_desc xzy_d = DESERT_RECORD_DESC_V0("PointXZoY", xzy_f);
static const rt_rec point_xzy = {&xzy_d, T_III};

/* (e) PointV4 { x, y } + FieldAdded(label), FieldMadeOptional(label), FieldRemoved(label) */
static const desert_evolution_step v4_s[] = {{DESERT_STEP_FIELD_ADDED, "label", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "label", false},
                                             {DESERT_STEP_FIELD_REMOVED, "label", false}};
static const desert_record_desc v4_d = DESERT_RECORD_DESC("PointV4", point_f, v4_s);
static const rt_rec point_v4 = {&v4_d, T_II};

/* Values for a record: vals[0..n) from a compact spec. */
static void set_i(rt_val *v, int32_t i) {
  memset(v, 0, sizeof *v);
  v->i = i;
  v->some = true;
}
static void set_s(rt_val *v, const char *s) {
  memset(v, 0, sizeof *v);
  snprintf(v->s, sizeof v->s, "%s", s);
  v->some = true;
}
static void set_none(rt_val *v) { memset(v, 0, sizeof *v); }

static const char A_BYTES[] = "00 | 00 00 00 0a | 00 00 00 14";
static const char B_BYTES[] = "01 | 10 | 0e | 00 00 00 0a 00 00 00 14 | 0c 6f 72 69 67 69 6e";

/* ---- (a) ------------------------------------------------------------------ */

static void test_a_version0(void **state) {
  (void)state;
  desert_writer *w = rt_writer(0);
  desert_reader *r = rt_reader(0);
  rt_val v[3];
  set_i(&v[0], 10);
  set_i(&v[1], 20);
  assert_int_equal(rt_write(w, &point, v), DESERT_OK);
  rt_expect_out(w, A_BYTES);
  rt_expect_read(r, &point, A_BYTES, v, DESERT_OK, 9);
  assert_int_equal(v[0].i, 10);
  assert_int_equal(v[1].i, 20);
  /* The version-0 example of docs/format.md §9.3: the same bytes. Readers of
   * every later version of Point read them too (each test below). */
  desert_writer_free(w);
  desert_reader_free(r);
}

/* ---- (b) ------------------------------------------------------------------ */

static void test_b_field_added(void **state) {
  (void)state;
  desert_writer *w = rt_writer(0);
  desert_reader *r = rt_reader(0);
  rt_val v[3];
  set_i(&v[0], 10);
  set_s(&v[1], "origin");
  set_i(&v[2], 20);
  assert_int_equal(rt_write(w, &point_v2, v), DESERT_OK);
  rt_expect_out(w, B_BYTES); /* E2 */
  /* own reader */
  rt_expect_read(r, &point_v2, B_BYTES, v, DESERT_OK, 18);
  assert_string_equal(v[1].s, "origin");
  assert_int_equal(v[2].i, 20);
  /* E3: Point skips chunk 1 and ends at byte 18, trailing byte untouched */
  char e3[256];
  snprintf(e3, sizeof e3, "%s ff", B_BYTES);
  rt_expect_read(r, &point, e3, v, DESERT_OK, 18);
  assert_int_equal(v[0].i, 10);
  assert_int_equal(v[1].i, 20);
  /* E4: PointV2 reads (a): label takes the FieldAdded default */
  rt_expect_read(r, &point_v2, A_BYTES, v, DESERT_OK, 9);
  assert_int_equal(v[1].action, DESERT_FIELD_DEFAULT);
  assert_int_equal(v[0].i, 10);
  assert_int_equal(v[2].i, 20);
  /* E23: chunk 1 cut short: InputEnded at the start of the chunk (11) */
  rt_expect_read(r, &point_v2, "01100e0000000a00000014", v, DESERT_E_INPUT_ENDED, 11);
  /* and a string cut inside a complete chunk: at the string's bytes */
  rt_expect_read(r, &point_v2, "01 10 04 0000000a 00000014 0c 6f", v, DESERT_E_INPUT_ENDED, 12);
  desert_writer_free(w);
  desert_reader_free(r);
}

/* ---- (c) ------------------------------------------------------------------ */

static void test_c_made_optional(void **state) {
  (void)state;
  desert_writer *w = rt_writer(0);
  desert_reader *r = rt_reader(0);
  rt_val v[3];
  set_i(&v[0], 10);
  set_i(&v[1], 20);
  assert_int_equal(rt_write(w, &point_opt_y, v), DESERT_OK);
  const char *some = "01 | 12 | 01 ff | 00 00 00 0a 01 00 00 00 14";
  rt_expect_out(w, some);
  desert_writer_reset(w);
  set_none(&v[1]);
  assert_int_equal(rt_write(w, &point_opt_y, v), DESERT_OK);
  const char *none = "01 | 0a | 01 ff | 00 00 00 0a 00";
  rt_expect_out(w, none); /* E5 */

  /* own reader */
  rt_expect_read(r, &point_opt_y, some, v, DESERT_OK, 13);
  assert_true(v[1].some);
  assert_int_equal(v[1].i, 20);
  rt_expect_read(r, &point_opt_y, none, v, DESERT_OK, 9);
  assert_int_equal(v[1].action, DESERT_FIELD_NONE);
  /* old reader with y: i32 — Some reads, None fails at the tag (E6) */
  rt_expect_read(r, &point, some, v, DESERT_OK, 13);
  assert_int_equal(v[1].i, 20);
  rt_expect_read(r, &point, none, v, DESERT_E_NONOPTIONAL_NONE, 8);
  /* the made-optional tag is read as a Boolean: 02 means Some */
  rt_expect_read(r, &point, "01 | 12 | 01 ff | 00 00 00 0a 02 00 00 00 14", v, DESERT_OK, 13);
  assert_int_equal(v[1].i, 20);
  /* an optional field's own tag is strict: 02 is an invalid tag */
  rt_expect_read(r, &point_opt_y, "01 | 12 | 01 ff | 00 00 00 0a 02 00 00 00 14", v,
                 DESERT_E_INVALID_TAG, 8);
  /* new reader of old (a) data: the plain value is wrapped as Some */
  rt_expect_read(r, &point_opt_y, A_BYTES, v, DESERT_OK, 9);
  assert_int_equal(v[1].action, DESERT_FIELD_READ);
  assert_int_equal(v[1].i, 20);
  desert_writer_free(w);
  desert_reader_free(r);
}

static void test_c_point_v3(void **state) {
  (void)state;
  desert_writer *w = rt_writer(0);
  desert_reader *r = rt_reader(0);
  rt_val v[3];
  set_i(&v[0], 10);
  set_none(&v[1]);
  set_i(&v[2], 20);
  assert_int_equal(rt_write(w, &point_v3, v), DESERT_OK);
  const char *v3none = "02 | 10 | 02 | 01 01 | 00 00 00 0a 00 00 00 14 | 00";
  rt_expect_out(w, v3none);
  desert_writer_reset(w);
  set_s(&v[1], "hi");
  assert_int_equal(rt_write(w, &point_v3, v), DESERT_OK);
  const char *v3hi = "02 | 10 | 08 | 01 01 | 00 00 00 0a 00 00 00 14 | 01 04 68 69";
  rt_expect_out(w, v3hi);

  rt_expect_read(r, &point_v3, v3none, v, DESERT_OK, 14);
  assert_int_equal(v[1].action, DESERT_FIELD_NONE);
  rt_expect_read(r, &point_v3, v3hi, v, DESERT_OK, 17);
  assert_string_equal(v[1].s, "hi");
  /* PointV2 (label required, chunk 1 position 0 made optional): */
  rt_expect_read(r, &point_v2, v3hi, v, DESERT_OK, 17);
  assert_string_equal(v[1].s, "hi");
  rt_expect_read(r, &point_v2, v3none, v, DESERT_E_NONOPTIONAL_NONE, 13);
  /* Point ignores chunk 1 altogether */
  rt_expect_read(r, &point, v3none, v, DESERT_OK, 14);
  /* PointV3 reads (b): version 1 < made-optional index 2: plain string */
  rt_expect_read(r, &point_v3, B_BYTES, v, DESERT_OK, 18);
  assert_int_equal(v[1].action, DESERT_FIELD_READ);
  assert_string_equal(v[1].s, "origin");
  /* PointV3 reads (a): the FieldAdded default */
  rt_expect_read(r, &point_v3, A_BYTES, v, DESERT_OK, 9);
  assert_int_equal(v[1].action, DESERT_FIELD_DEFAULT);
  desert_writer_free(w);
  desert_reader_free(r);
}

/* ---- (d) ------------------------------------------------------------------ */

static void test_d_field_removed(void **state) {
  (void)state;
  desert_writer *w = rt_writer(0);
  desert_reader *r = rt_reader(0);
  rt_val v[3];
  set_i(&v[0], 10);
  set_i(&v[1], 20);
  assert_int_equal(rt_write(w, &point_no_z, v), DESERT_OK);
  const char *d = "01 | 10 | 03 02 7a | 00 00 00 0a 00 00 00 14";
  rt_expect_out(w, d);                   /* E7 */
  assert_int_equal(w->strings.count, 1); /* "z" got id 1 */

  rt_expect_read(r, &point_no_z, d, v, DESERT_OK, 13);
  rt_expect_read(r, &point, d, v, DESERT_OK, 13);
  /* E8: z required → FieldRemovedInSerializedVersion at the version byte */
  rt_expect_read(r, &point_xyz, d, v, DESERT_E_FIELD_REMOVED, 0);
  /* z optional → None */
  rt_expect_read(r, &point_xyz_opt, d, v, DESERT_OK, 13);
  assert_int_equal(v[2].action, DESERT_FIELD_NONE);
  assert_int_equal(v[1].i, 20);
  /* z before y: removed fields take no position, y still follows x */
  rt_expect_read(r, &point_xzy, d, v, DESERT_OK, 13);
  assert_int_equal(v[1].action, DESERT_FIELD_NONE);
  assert_int_equal(v[0].i, 10);
  assert_int_equal(v[2].i, 20);
  /* The same record as the second value of a stream: "z" is then a
   * back-reference, and readers resolve it. */
  desert_writer_reset(w);
  set_i(&v[0], 10);
  set_i(&v[1], 20);
  assert_int_equal(rt_write(w, &point_no_z, v), DESERT_OK);
  assert_int_equal(rt_write(w, &point_no_z, v), DESERT_OK);
  rt_expect_out(w, "01 10 03 02 7a 0000000a 00000014 | 01 10 03 01 0000000a 00000014");
  desert_writer_free(w);
  desert_reader_free(r);
}

/* ---- (e) ------------------------------------------------------------------ */

static const char E_RUST[] =
    "03 | 10 | 00 | 03 0a 6c 61 62 65 6c | 03 01 | 00 00 00 0a 00 00 00 14";
static const char E_SCALA[] =
    "03 | 10 | 00 | 01 80 | 03 0a 6c 61 62 65 6c | 00 00 00 0a 00 00 00 14";

static void check_e_readers(desert_reader *r, const char *bytes) {
  rt_val v[3];
  rt_expect_read(r, &point_v4, bytes, v, DESERT_OK, 20);
  assert_int_equal(v[0].i, 10);
  assert_int_equal(v[1].i, 20);
  rt_expect_read(r, &point, bytes, v, DESERT_OK, 20);
  assert_int_equal(v[1].i, 20);
  /* PointV3: label is optional and listed as removed → None */
  rt_expect_read(r, &point_v3, bytes, v, DESERT_OK, 20);
  assert_int_equal(v[1].action, DESERT_FIELD_NONE);
  assert_int_equal(v[2].i, 20);
  /* PointV2: label required and removed */
  rt_expect_read(r, &point_v2, bytes, v, DESERT_E_FIELD_REMOVED, 0);
}

static void test_e_optional_then_removed(void **state) {
  (void)state;
  desert_reader *r = rt_reader(0);
  rt_val v[2];
  set_i(&v[0], 10);
  set_i(&v[1], 20);
  /* Rust writer */
  desert_writer *w = rt_writer(0);
  assert_int_equal(rt_write(w, &point_v4, v), DESERT_OK);
  rt_expect_out(w, E_RUST);
  assert_int_equal(w->strings.count, 1);
  desert_writer_free(w);
  /* Scala writer */
  w = rt_writer(DESERT_OPT_SCALA_REMOVED_OPTIONAL);
  assert_int_equal(rt_write(w, &point_v4, v), DESERT_OK);
  rt_expect_out(w, E_SCALA);
  desert_writer_free(w);
  /* Rust style under legacy scoping: the second name is a back-reference
   * into the header's own copy of the table; afterwards the table is
   * empty again (the registration is discarded). */
  w = rt_writer(DESERT_OPT_LEGACY_HEADER_STRINGS);
  assert_int_equal(rt_write(w, &point_v4, v), DESERT_OK);
  rt_expect_out(w, E_RUST);
  assert_int_equal(w->strings.count, 0);
  desert_writer_free(w);

  check_e_readers(r, E_RUST);
  check_e_readers(r, E_SCALA);
  desert_reader_free(r);
}

/* ---- (f) ------------------------------------------------------------------ */

/* The golden TestModel1's shape: 18 fields, `option` at chunk-0 position
 * 15 (unit takes position 7), `string` in chunk 2, `set` in chunk 3. */
static const desert_field_desc f_f[] = {
    {"byte", 0},    {"short", 0},     {"int", 0},
    {"long", 0},    {"float", 0},     {"double", 0},
    {"boolean", 0}, {"unit", 0},      {"string", 0},
    {"uuid", 0},    {"exception", 0}, {"list", 0},
    {"array", 0},   {"vector", 0},    {"set", 0},
    {"either", 0},  {"tried", 0},     {"option", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step f_s[] = {{DESERT_STEP_FIELD_MADE_OPTIONAL, "option", false},
                                            {DESERT_STEP_FIELD_ADDED, "string", true},
                                            {DESERT_STEP_FIELD_ADDED, "set", true}};
static const desert_record_desc f_d = DESERT_RECORD_DESC("TestModel1", f_f, f_s);
static const rt_type f_t[] = {RT_I32, RT_I32,  RT_I32, RT_I32, RT_I32, RT_I32,
                              RT_I32, RT_UNIT, RT_STR, RT_I32, RT_I32, RT_I32,
                              RT_I32, RT_I32,  RT_STR, RT_I32, RT_I32, RT_I32};
static const rt_rec model_f = {&f_d, f_t};

static void test_f_golden_header(void **state) {
  (void)state;
  desert_writer *w = rt_writer(0);
  desert_reader *r = rt_reader(0);
  rt_val v[18];
  for (int i = 0; i < 18; i++) set_i(&v[i], i);
  set_s(&v[8], "Example data set"); /* 17 bytes → 22 */
  set_s(&v[14], "hello world!");    /* 13 bytes → 1a */
  set_none(&v[17]);
  assert_int_equal(rt_write(w, &model_f, v), DESERT_OK);
  size_t n;
  const uint8_t *out = desert_writer_data(w, &n);
  /* chunk 0: 14 i32 fields + unit + the None tag = 57 bytes = var_i32 72 */
  static const uint8_t header[] = {0x03, 0x72, 0x01, 0xf1, 0x22, 0x1a};
  assert_int_equal(n, sizeof header + 57 + 17 + 13);
  assert_memory_equal(out, header, sizeof header);
  /* and the real header of dataset1.bin parses the same way */
  rt_val back[18];
  uint8_t copy[128];
  memcpy(copy, out, n);
  desert_reader_begin(r, copy, n);
  assert_int_equal(rt_read(r, &model_f, back), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), n);
  assert_string_equal(back[8].s, "Example data set");
  assert_string_equal(back[14].s, "hello world!");
  assert_int_equal(back[17].action, DESERT_FIELD_NONE);
  assert_int_equal(back[16].i, 16);
  desert_writer_free(w);
  desert_reader_free(r);
}

/* ---- transient fields (docs/format.md §9.9 (e)) ---------------------------------- */

static const desert_field_desc entry_f[] = {
    {"key", 0}, {"cached", DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT}};
static const desert_evolution_step entry_s[] = {
    {DESERT_STEP_FIELD_MADE_TRANSIENT, "cached", false}};
static const desert_record_desc entry_d = DESERT_RECORD_DESC("Entry", entry_f, entry_s);
static const rt_type T_SS[] = {RT_STR, RT_STR};
static const rt_rec entry = {&entry_d, T_SS};

static void test_transient_e9_e10(void **state) {
  (void)state;
  const char *e9 = "04 | 01 04 03 0c 63 61 63 68 65 64 02 61 | 01 04 03 01 02 62";
  for (int legacy = 0; legacy < 2; legacy++) {
    desert_writer *w = rt_writer(legacy ? DESERT_OPT_LEGACY_HEADER_STRINGS : 0);
    rt_val v[2];
    assert_int_equal(desert_write_count(w, 2), DESERT_OK);
    set_s(&v[0], "a");
    set_s(&v[1], "ignored"); /* transient: never written */
    assert_int_equal(rt_write(w, &entry, v), DESERT_OK);
    set_s(&v[0], "b");
    set_none(&v[1]);
    assert_int_equal(rt_write(w, &entry, v), DESERT_OK);
    if (legacy) /* Scala 0.2.x sends the name in full both times (as in dataset1.bin) */
      rt_expect_out(
          w, "04 | 01 04 03 0c 63 61 63 68 65 64 02 61 | 01 04 03 0c 63 61 63 68 65 64 02 62");
    else
      rt_expect_out(w, e9);
    desert_writer_free(w);
  }
  /* E10: reading, with the back-reference */
  desert_reader *r = rt_reader(0);
  uint8_t in[64];
  size_t n = rt_hex(e9, in, sizeof in);
  desert_reader_begin(r, in, n);
  desert_seq seq;
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  const char *keys[] = {"a", "b"};
  for (int i = 0; i < 2; i++) {
    assert_true(desert_read_seq_next(r, &seq));
    rt_val v[2];
    assert_int_equal(rt_read(r, &entry, v), DESERT_OK);
    assert_string_equal(v[0].s, keys[i]);
    assert_int_equal(v[1].action, DESERT_FIELD_TRANSIENT_DEFAULT);
    assert_int_equal(v[1].action, DESERT_FIELD_TRANSIENT); /* the same value */
  }
  assert_false(desert_read_seq_next(r, &seq));
  assert_int_equal(desert_reader_offset(r), n);
  desert_reader_free(r);
}

/* ---- unit fields, positions ------------------------------------------------------ */

static void test_unit_takes_a_position(void **state) {
  (void)state;
  static const desert_field_desc f[] = {
      {"a", 0}, {"u", 0}, {"t", DESERT_FIELD_TRANSIENT}, {"b", DESERT_FIELD_OPTIONAL}};
  static const desert_evolution_step s[] = {{DESERT_STEP_FIELD_MADE_OPTIONAL, "b", false}};
  static const desert_record_desc d = DESERT_RECORD_DESC("U", f, s);
  static const rt_type t[] = {RT_I32, RT_UNIT, RT_I32, RT_I32};
  const rt_rec rec = {&d, t};
  desert_writer *w = rt_writer(0);
  rt_val v[4];
  set_i(&v[0], 1);
  set_none(&v[1]);
  set_i(&v[2], 99);
  set_i(&v[3], 2);
  assert_int_equal(rt_write(w, &rec, v), DESERT_OK);
  /* b is chunk-0 position 2 (a = 0, unit u = 1; transient t has none): fe */
  rt_expect_out(w, "01 | 12 | 01 fe | 00 00 00 01 01 00 00 00 02");
  desert_reader *r = rt_reader(0);
  rt_expect_read(r, &rec, "01 | 12 | 01 fe | 00 00 00 01 01 00 00 00 02", v, DESERT_OK, 13);
  assert_int_equal(v[2].action, DESERT_FIELD_TRANSIENT_DEFAULT);
  assert_int_equal(v[3].i, 2);
  /* an old reader with b required finds b's position in the made-optional set */
  static const desert_field_desc f_old[] = {{"a", 0}, {"u", 0}, {"b", 0}};
  static const desert_record_desc d_old = DESERT_RECORD_DESC_V0("Uold", f_old);
  static const rt_type t_old[] = {RT_I32, RT_UNIT, RT_I32};
  const rt_rec old = {&d_old, t_old};
  rt_expect_read(r, &old, "01 | 0a | 01 fe | 00 00 00 01 00", v, DESERT_E_NONOPTIONAL_NONE, 8);
  rt_expect_read(r, &old, "01 | 12 | 01 fe | 00 00 00 01 01 00 00 00 02", v, DESERT_OK, 13);
  assert_int_equal(v[2].i, 2);
  /* a position byte naming the unit field (ff): u is then "made optional",
   * its tag 01 is consumed and b is read from the next bytes */
  rt_expect_read(r, &old, "01 | 12 | 01 ff | 00 00 00 01 01 00 00 00 02", v, DESERT_OK, 13);
  assert_int_equal(v[2].i, 2);
  desert_writer_free(w);
  desert_reader_free(r);
}

/* ---- nesting -------------------------------------------------------------------- */

/* Outer { a: i32, inner: PointV2 (added in step 1), b: i32 }: the inner
 * record's own header and chunks live inside the outer's chunk 1. */
static void test_nested_versioned(void **state) {
  (void)state;
  static const desert_field_desc f[] = {{"a", 0}, {"inner", 0}, {"b", 0}};
  static const desert_evolution_step s[] = {{DESERT_STEP_FIELD_ADDED, "inner", false}};
  static const desert_record_desc d = DESERT_RECORD_DESC("Outer", f, s);
  desert_writer *w = rt_writer(0);
  for (int round = 0; round < 3; round++) {
    desert_writer_reset(w);
    desert_record_writer rw;
    assert_int_equal(desert_record_write_begin(w, &d, &rw), DESERT_OK);
    assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
    desert_write_i32(w, 1);
    assert_int_equal(desert_record_write_field(&rw, 1), DESERT_OK);
    rt_val v[3];
    set_i(&v[0], 10);
    set_s(&v[1], "origin");
    set_i(&v[2], 20);
    assert_int_equal(rt_write(w, &point_v2, v), DESERT_OK);
    assert_int_equal(desert_record_write_field(&rw, 2), DESERT_OK);
    desert_write_i32(w, 2);
    assert_int_equal(desert_record_write_end(&rw), DESERT_OK);
    /* chunk 0 = a, b (8 bytes); chunk 1 = the inner record (18 bytes) */
    rt_expect_out(w, "01 | 10 | 24 | 00 00 00 01 00 00 00 02 | "
                     "01 10 0e 00 00 00 0a 00 00 00 14 0c 6f 72 69 67 69 6e");
  }
  /* read it back: inner limited to chunk 1, b read from chunk 0 after it */
  desert_reader *r = rt_reader(0);
  uint8_t in[64];
  size_t n = rt_hex("01 10 24 00000001 00000002 01 10 0e 0000000a 00000014 0c6f726967696e ee", in,
                    sizeof in);
  desert_reader_begin(r, in, n);
  desert_record_reader rr;
  desert_field_action a;
  int32_t x;
  assert_int_equal(desert_record_read_begin(r, &d, &rr), DESERT_OK);
  assert_int_equal(desert_record_read_field(&rr, 0, &a), DESERT_OK);
  assert_int_equal(desert_read_i32(r, &x), DESERT_OK);
  assert_int_equal(x, 1);
  assert_int_equal(desert_record_read_field(&rr, 1, &a), DESERT_OK);
  assert_int_equal(a, DESERT_FIELD_READ);
  assert_int_equal(desert_reader_remaining(r), 18); /* limited to chunk 1 */
  rt_val v[3];
  assert_int_equal(rt_read(r, &point, v), DESERT_OK); /* an older inner reader */
  assert_int_equal(v[1].i, 20);
  assert_int_equal(desert_reader_offset(r), 29); /* after the inner record */
  assert_int_equal(desert_record_read_field(&rr, 2, &a), DESERT_OK);
  assert_int_equal(desert_read_i32(r, &x), DESERT_OK);
  assert_int_equal(x, 2);
  assert_int_equal(desert_record_read_end(&rr), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), 29);
  assert_int_equal(desert_reader_remaining(r), 1); /* the trailing ee */
  /* Data older than `inner` without a default: FieldWithoutDefaultValueIsMissing */
  static const rt_type t3[] = {RT_I32, RT_I32, RT_I32};
  const rt_rec outer_flat = {&d, t3};
  rt_expect_read(r, &outer_flat, "00 00000001 00000002", v, DESERT_E_FIELD_MISSING, 0);
  desert_writer_free(w);
  desert_reader_free(r);
}

/* ---- tuples ----------------------------------------------------------------------- */

static void test_tuples(void **state) {
  (void)state;
  assert_null(desert_tuple_desc(0));
  assert_null(desert_tuple_desc(23));
  assert_int_equal(desert_tuple_desc(22)->field_count, 22);
  assert_string_equal(desert_tuple_desc(22)->fields[21].name, "_22");
  assert_int_equal(desert_record_desc_check(desert_tuple_desc(7)), DESERT_OK);
  const rt_rec tup2 = {desert_tuple_desc(2), T_II};
  desert_reader *r = rt_reader(0);
  rt_val v[2];
  /* (1, "x")-style: a tuple is a version-0 record */
  desert_writer *w = rt_writer(0);
  set_i(&v[0], 10);
  set_i(&v[1], 20);
  assert_int_equal(rt_write(w, &tup2, v), DESERT_OK);
  rt_expect_out(w, A_BYTES);
  desert_writer_reset(w);
  desert_write_tuple_begin(w);
  desert_write_i32(w, 10);
  desert_write_i32(w, 20);
  rt_expect_out(w, A_BYTES);
  /* the tuple reader accepts evolved record data: PointV2's bytes */
  rt_expect_read(r, &tup2, B_BYTES, v, DESERT_OK, 18);
  assert_int_equal(v[0].i, 10);
  assert_int_equal(v[1].i, 20);
  /* a FieldRemoved("_2") entry: the required element fails */
  rt_expect_read(r, &tup2, "01 | 08 | 03 04 5f 32 | 00 00 00 0a", v, DESERT_E_FIELD_REMOVED, 0);
  desert_writer_free(w);
  desert_reader_free(r);
}

/* ---- string-table order (docs/format.md §9.8) ------------------------------------------------ */

/* { a: DeduplicatedString } + FieldRemoved("gone"), a = "x": the writer
 * registers "x" (1) before "gone" (2); the reader "gone" (1) before "x"
 * (2). A later back-reference 03 (id 2) therefore means "gone" to the
 * writer and "x" to the reader — the latent bug both libraries share. */
static void test_string_table_order(void **state) {
  (void)state;
  static const desert_field_desc f[] = {{"a", 0}};
  static const desert_evolution_step s[] = {{DESERT_STEP_FIELD_REMOVED, "gone", false}};
  static const desert_record_desc d = DESERT_RECORD_DESC("Dedup", f, s);
  static const rt_type t[] = {RT_DSTR};
  const rt_rec rec = {&d, t};
  rt_val v[1];
  set_s(&v[0], "x");
  desert_writer *w = rt_writer(0);
  assert_int_equal(rt_write(w, &rec, v), DESERT_OK);
  assert_int_equal(desert_write_dedup_string(w, "gone", 4), DESERT_OK);
  assert_int_equal(desert_write_dedup_string(w, "x", 1), DESERT_OK);
  rt_expect_out(w, "01 | 04 | 03 08 67 6f 6e 65 | 02 78 | 03 | 01");
  desert_writer_free(w);

  desert_reader *r = rt_reader(0);
  uint8_t in[32];
  size_t n = rt_hex("01 04 03 08 67 6f 6e 65 02 78 03 01", in, sizeof in);
  desert_reader_begin(r, in, n);
  assert_int_equal(rt_read(r, &rec, v), DESERT_OK);
  assert_string_equal(v[0].s, "x");
  desert_str a, b;
  assert_int_equal(desert_read_dedup_string(r, &a), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &b), DESERT_OK);
  assert_int_equal(a.len, 1); /* the writer meant "gone" */
  assert_memory_equal(a.ptr, "x", 1);
  assert_int_equal(b.len, 4); /* the writer meant "x" */
  assert_memory_equal(b.ptr, "gone", 4);

  /* Legacy scoping: the header name is looked up in the table as it was
   * when the record started and its registration is dropped, so "gone" is
   * sent in full again afterwards and "x" keeps id 1. */
  w = rt_writer(DESERT_OPT_LEGACY_HEADER_STRINGS);
  assert_int_equal(rt_write(w, &rec, v), DESERT_OK);
  assert_int_equal(desert_write_dedup_string(w, "gone", 4), DESERT_OK);
  assert_int_equal(desert_write_dedup_string(w, "x", 1), DESERT_OK);
  rt_expect_out(w, "01 | 04 | 03 08 67 6f 6e 65 | 02 78 | 08 67 6f 6e 65 | 01");
  /* a name known before the record started is a back-reference in legacy
   * mode too; one registered by this record's own fields is not */
  desert_writer_reset(w);
  assert_int_equal(desert_write_dedup_string(w, "gone", 4), DESERT_OK); /* id 1 */
  set_s(&v[0], "gone");
  assert_int_equal(rt_write(w, &rec, v), DESERT_OK);
  rt_expect_out(w, "08 67 6f 6e 65 | 01 | 02 | 03 01 | 01");
  desert_writer_reset(w);
  assert_int_equal(desert_write_dedup_string(w, "zz", 2), DESERT_OK); /* id 1 */
  set_s(&v[0], "gone"); /* id 2, registered by the field */
  assert_int_equal(rt_write(w, &rec, v), DESERT_OK);
  rt_expect_out(w, "04 7a 7a | 01 | 0a | 03 08 67 6f 6e 65 | 08 67 6f 6e 65");
  assert_int_equal(w->strings.count, 2);
  desert_writer_free(w);
  desert_reader_free(r);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_version0),
      cmocka_unit_test(test_b_field_added),
      cmocka_unit_test(test_c_made_optional),
      cmocka_unit_test(test_c_point_v3),
      cmocka_unit_test(test_d_field_removed),
      cmocka_unit_test(test_e_optional_then_removed),
      cmocka_unit_test(test_f_golden_header),
      cmocka_unit_test(test_transient_e9_e10),
      cmocka_unit_test(test_unit_takes_a_position),
      cmocka_unit_test(test_nested_versioned),
      cmocka_unit_test(test_tuples),
      cmocka_unit_test(test_string_table_order),
  };
  return rt_run_both_modes("record_examples", tests, sizeof tests / sizeof tests[0]);
}
