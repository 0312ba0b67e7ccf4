/* test/test_record_errors.c — the records layer under hostile input and
 * misuse: corrupt headers (chunks past the input, codes below -2, bad
 * removed names, position bytes matching nothing, huge versions), nesting
 * limits, every writer-side failure (version above 127, unknown field
 * references, out-of-order fields, positions above 127), description
 * checks, recovery after abandoned records, allocation behaviour (warm
 * contexts allocate nothing, allocation failures are clean) and seeded
 * random mutations of valid records — always a status and an offset,
 * never a crash, a leak or an unbounded allocation.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_testlib.h"
#include "test_util.h"

static const rt_type T_II[] = {RT_I32, RT_I32};
static const rt_type T_ISI[] = {RT_I32, RT_STR, RT_I32};
static const desert_field_desc point_f[] = {{"x", 0}, {"y", 0}};
static const desert_record_desc point_d = DESERT_RECORD_DESC_V0("Point", point_f);
static const rt_rec point = {&point_d, T_II};
static const desert_field_desc v3_f[] = {{"x", 0}, {"label", DESERT_FIELD_OPTIONAL}, {"y", 0}};
static const desert_evolution_step v3_s[] = {{DESERT_STEP_FIELD_ADDED, "label", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "label", false}};
static const desert_record_desc v3_d = DESERT_RECORD_DESC("PointV3", v3_f, v3_s);
static const rt_rec point_v3 = {&v3_d, T_ISI};

static desert_reader *reader_with(desert_counting_allocator *ca, unsigned max_depth) {
  desert_options o;
  desert_options_init(&o);
  if (ca) o.allocator = ca->allocator;
  o.max_depth = max_depth;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  return r;
}

static desert_writer *writer_with(desert_counting_allocator *ca, unsigned flags,
                                  unsigned max_depth) {
  desert_options o;
  desert_options_init(&o);
  if (ca) o.allocator = ca->allocator;
  o.flags = flags;
  o.max_depth = max_depth;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  return w;
}

/* ---- corrupt headers ------------------------------------------------------------ */

static void test_corrupt_headers(void **state) {
  (void)state;
  desert_reader *r = rt_reader(0);
  rt_val v[3];
  /* the header itself cut short */
  rt_expect_read(r, &point, "01", v, DESERT_E_INPUT_ENDED, 1);
  rt_expect_read(r, &point, "01 10", v, DESERT_E_INPUT_ENDED, 2);
  rt_expect_read(r, &point, "01 10 01", v, DESERT_E_INPUT_ENDED, 3); /* position byte */
  rt_expect_read(r, &point, "01 10 03", v, DESERT_E_INPUT_ENDED, 3); /* removed name */
  rt_expect_read(r, &point, "01 10 03 0a 6c 61", v, DESERT_E_INPUT_ENDED, 4);
  /* a chunk longer than the rest of the input: at the chunk's start */
  rt_expect_read(r, &point, "01 10 00 | 00 00 00 01", v, DESERT_E_INPUT_ENDED, 3);
  rt_expect_read(r, &point, "01 10 0e | 00 00 00 0a 00 00 00 14 0c 6f", v, DESERT_E_INPUT_ENDED,
                 11);
  rt_expect_read(r, &point, "01 fe ff ff ff 0f 00 | 00", v, DESERT_E_INPUT_ENDED, 7);
  /* codes below -2 */
  rt_expect_read(r, &point, "01 05 10", v, DESERT_E_UNKNOWN_EVOLUTION_STEP, 1);
  rt_expect_read(r, &point, "01 10 7f", v, DESERT_E_UNKNOWN_EVOLUTION_STEP, 2);
  rt_expect_read(r, &point, "01 10 ff ff ff ff 0f", v, DESERT_E_UNKNOWN_EVOLUTION_STEP, 2);
  /* a var_i32 code with a continuation bit on its 5th byte */
  rt_expect_read(r, &point, "01 80 80 80 80 80 01", v, DESERT_E_VARINT_TOO_LONG, 1);
  /* removed names: unknown back-reference, invalid UTF-8, negative length */
  rt_expect_read(r, &point, "01 10 03 05 | 00 00 00 01 00 00 00 02", v, DESERT_E_INVALID_STRING_ID,
                 3);
  rt_expect_read(r, &point, "01 10 03 04 c3 28 | 00 00 00 01 00 00 00 02", v, DESERT_E_INVALID_UTF8,
                 4);
  /* position bytes that match nothing, and Scala's 80 marker: ignored */
  rt_expect_read(r, &point, "01 10 01 f0 | 00 00 00 01 00 00 00 02", v, DESERT_OK, 12);
  rt_expect_read(r, &point, "01 10 01 80 | 00 00 00 01 00 00 00 02", v, DESERT_OK, 12);
  rt_expect_read(r, &point, "01 10 01 05 | 00 00 00 01 00 00 00 02", v, DESERT_OK, 12);
  assert_int_equal(v[1].i, 2);
  /* chunk 0 missing (entry 0 is not a chunk): empty range at the walk
   * position, reading x fails there */
  rt_expect_read(r, &point, "01 00 10 | 00 00 00 01 00 00 00 02", v, DESERT_E_INPUT_ENDED, 3);
  rt_expect_read(r, &point, "01 01 ff 10 | 00 00 00 01 00 00 00 02", v, DESERT_E_INPUT_ENDED, 4);
  /* a required field in an empty chunk the header says exists */
  rt_expect_read(r, &point_v3, "02 10 00 00 | 00 00 00 01 00 00 00 02", v, DESERT_E_INPUT_ENDED,
                 12);
  /* a field past its chunk's end inside a record: at the field */
  rt_expect_read(r, &point, "01 0a 00 | 00 00 00 01 00 | 00 00 00 02", v, DESERT_E_INPUT_ENDED, 7);
  desert_reader_free(r);
}

/* Version 255 (the largest byte; Rust reads it unsigned): 256 entries.
 * Nothing is allocated in proportion to declared sizes. */
static void test_huge_versions(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_reader *r = reader_with(&ca, 0);
  uint8_t in[600];
  size_t n = 0;
  in[n++] = 0xff;
  in[n++] = 0x10;                                               /* chunk 0: 8 bytes */
  for (int i = 1; i < 256; i++) in[n++] = 0xfe, in[n++] = 0x03; /* chunks of 255 bytes */
  /* those do not fit: InputEnded at chunk 1's start, right after chunk 0 */
  for (int i = 0; i < 8; i++) in[n++] = (uint8_t)i;
  desert_reader_begin(r, in, n);
  rt_val v[3];
  assert_int_equal(rt_read(r, &point, v), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), n);
  /* all-empty entries: valid, chunk 0 empty → x fails at the walk's end */
  n = 0;
  in[n++] = 0xff;
  for (int i = 0; i < 256; i++) in[n++] = 0x00;
  desert_reader_begin(r, in, n);
  assert_int_equal(rt_read(r, &point, v), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), n);
  /* 256 entries with chunk 0 real: reads fine */
  n = 0;
  in[n++] = 0xff;
  in[n++] = 0x10;
  for (int i = 1; i < 256; i++) in[n++] = 0x00;
  for (int i = 0; i < 8; i++) in[n++] = (uint8_t)(i == 3 ? 7 : 0);
  desert_reader_begin(r, in, n);
  assert_int_equal(rt_read(r, &point, v), DESERT_OK);
  assert_int_equal(v[0].i, 7);
  assert_int_equal(desert_reader_offset(r), n);
  /* the version byte alone */
  desert_reader_begin(r, in, 1);
  assert_int_equal(rt_read(r, &point, v), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), 1);
  desert_reader_free(r);
  assert_true(ca.peak_bytes < 64 * 1024);
  assert_int_equal(ca.live_blocks, 0);
}

/* Node { value: i32, next: Option<Node> }: recursion bounded by max_depth
 * on both sides. */
static const desert_field_desc node_f[] = {{"value", 0}, {"next", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step node_s[] = {{DESERT_STEP_FIELD_MADE_OPTIONAL, "next", false}};
static const desert_record_desc node_d = DESERT_RECORD_DESC("Node", node_f, node_s);

static desert_status write_chain(desert_writer *w, int len) {
  desert_record_writer rw;
  if (desert_record_write_begin(w, &node_d, &rw)) return desert_writer_status(w);
  desert_record_write_field(&rw, 0);
  desert_write_i32(w, len);
  desert_record_write_field_option(&rw, 1, len > 1);
  if (len > 1) write_chain(w, len - 1);
  return desert_record_write_end(&rw);
}

static desert_status read_chain(desert_reader *r, int *count) {
  desert_record_reader rr;
  desert_field_action a;
  int32_t value;
  if (desert_record_read_begin(r, &node_d, &rr)) return desert_reader_status(r);
  (*count)++;
  if (desert_record_read_field(&rr, 0, &a) || desert_read_i32(r, &value))
    return desert_reader_status(r);
  if (desert_record_read_field(&rr, 1, &a)) return desert_reader_status(r);
  if (a == DESERT_FIELD_READ && read_chain(r, count)) return desert_reader_status(r);
  return desert_record_read_end(&rr);
}

static void test_depth_limits(void **state) {
  (void)state;
  desert_writer *w = writer_with(NULL, 0, 8);
  assert_int_equal(write_chain(w, 8), DESERT_OK);
  size_t n;
  const uint8_t *out = desert_writer_data(w, &n);
  uint8_t *in = malloc(n);
  assert_non_null(in);
  memcpy(in, out, n);
  desert_writer_reset(w);
  assert_int_equal(write_chain(w, 9), DESERT_E_DEPTH);
  /* after the error, a reset writer works again (stale pool frames) */
  desert_writer_reset(w);
  assert_int_equal(write_chain(w, 8), DESERT_OK);
  assert_int_equal(desert_writer_size(w), n);
  assert_memory_equal(desert_writer_data(w, NULL), in, n);

  desert_reader *r = reader_with(NULL, 8);
  int count = 0;
  desert_reader_begin(r, in, n);
  assert_int_equal(read_chain(r, &count), DESERT_OK);
  assert_int_equal(count, 8);
  assert_int_equal(desert_reader_offset(r), n);
  desert_reader_free(r);
  r = reader_with(NULL, 7);
  count = 0;
  desert_reader_begin(r, in, n);
  assert_int_equal(read_chain(r, &count), DESERT_E_DEPTH);
  assert_int_equal(count, 7);
  /* the failed reader is fine for the next message */
  desert_reader_begin(r, in, n);
  desert_reader_free(r);
  r = reader_with(NULL, 0);
  count = 0;
  desert_reader_begin(r, in, n);
  assert_int_equal(read_chain(r, &count), DESERT_OK);
  desert_reader_free(r);
  free(in);
  desert_writer_free(w);
}

/* ---- writer-side failures ------------------------------------------------------- */

static void test_writer_errors(void **state) {
  (void)state;
  rt_val v[3];
  memset(v, 0, sizeof v);
  /* version above 127 */
  static desert_evolution_step many[128];
  for (int i = 0; i < 128; i++)
    many[i] = (desert_evolution_step){DESERT_STEP_FIELD_REMOVED, "gone", false};
  const desert_record_desc big = {"Big", point_f, 2, many, 128};
  desert_writer *w = rt_writer(0);
  desert_record_writer rw;
  assert_int_equal(desert_record_write_begin(w, &big, &rw), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_free(w);
  /* ... 127 is fine */
  const desert_record_desc ok127 = {"Ok", point_f, 2, many, 127};
  w = rt_writer(0);
  v[0].i = 1;
  v[1].i = 2;
  assert_int_equal(rt_write(w, &(rt_rec){&ok127, T_II}, v), DESERT_OK);
  size_t n;
  const uint8_t *out = desert_writer_data(w, &n);
  assert_int_equal(out[0], 0x7f);
  assert_int_equal(n, 1 + 1 + (1 + 5) + 126 * 2 + 8); /* name once, then back-references */
  desert_writer_free(w);

  /* FieldMadeOptional naming nothing */
  static const desert_evolution_step bad_s[] = {{DESERT_STEP_FIELD_MADE_OPTIONAL, "nope", false}};
  const desert_record_desc bad = DESERT_RECORD_DESC("Bad", point_f, bad_s);
  w = rt_writer(0);
  assert_int_equal(rt_write(w, &(rt_rec){&bad, T_II}, v), DESERT_E_UNKNOWN_FIELD_REFERENCE);
  desert_writer_free(w);

  /* FieldMadeOptional of a field later made transient: Rust fails, Scala
   * counts FieldMadeTransient as removal and writes 01 80 */
  static const desert_field_desc tf[] = {{"x", 0},
                                         {"y", DESERT_FIELD_TRANSIENT | DESERT_FIELD_OPTIONAL}};
  static const desert_evolution_step ts[] = {{DESERT_STEP_FIELD_MADE_OPTIONAL, "y", false},
                                             {DESERT_STEP_FIELD_MADE_TRANSIENT, "y", false}};
  const desert_record_desc td = DESERT_RECORD_DESC("T", tf, ts);
  w = rt_writer(0);
  assert_int_equal(rt_write(w, &(rt_rec){&td, T_II}, v), DESERT_E_UNKNOWN_FIELD_REFERENCE);
  desert_writer_free(w);
  w = rt_writer(DESERT_OPT_SCALA_REMOVED_OPTIONAL);
  assert_int_equal(rt_write(w, &(rt_rec){&td, T_II}, v), DESERT_OK);
  rt_expect_out(w, "02 08 01 80 03 02 79 00 00 00 01");
  desert_writer_free(w);

  /* field order and presence */
  w = rt_writer(0);
  assert_int_equal(desert_record_write_begin(w, &v3_d, &rw), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 2), DESERT_E_FIELD_SKIPPED); /* skips 0 and 1 */
  desert_record_write_end(&rw);
  desert_writer_reset(w);
  assert_int_equal(desert_record_write_begin(w, &v3_d, &rw), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 3), DESERT_E_ARGUMENT);
  desert_record_write_end(&rw);
  desert_writer_reset(w);
  assert_int_equal(desert_record_write_begin(w, &v3_d, &rw), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 0), DESERT_E_FIELD_ORDER); /* twice */
  desert_record_write_end(&rw);
  desert_writer_reset(w);
  assert_int_equal(desert_record_write_begin(w, &v3_d, &rw), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
  assert_int_equal(desert_record_write_field_option(&rw, 2, true),
                   DESERT_E_FIELD_NOT_OPTIONAL); /* y not optional */
  desert_record_write_end(&rw);
  desert_writer_reset(w);
  assert_int_equal(desert_record_write_begin(w, &v3_d, &rw), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
  desert_write_i32(w, 1);
  assert_int_equal(desert_record_write_end(&rw), DESERT_E_FIELD_SKIPPED); /* label, y never started */
  assert_int_equal(desert_record_write_end(&rw), DESERT_E_FIELD_SKIPPED); /* ended twice: sticky */
  desert_writer_reset(w);
  static const desert_field_desc trf[] = {{"x", 0}, {"t", DESERT_FIELD_TRANSIENT}};
  const desert_record_desc trd = DESERT_RECORD_DESC_V0("Tr", trf);
  assert_int_equal(desert_record_write_begin(w, &trd, &rw), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 1), DESERT_E_FIELD_TRANSIENT); /* transient */
  desert_record_write_end(&rw);
  desert_writer_reset(w);
  assert_int_equal(desert_record_write_begin(w, &trd, &rw), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
  assert_int_equal(desert_record_write_end(&rw), DESERT_OK); /* trailing transient: fine */
  /* a record left open across desert_writer_reset: its late calls fail
   * with DESERT_E_STATE and do not disturb the next message's records */
  desert_writer_reset(w);
  desert_record_writer stale, fresh;
  assert_int_equal(desert_record_write_begin(w, &v3_d, &stale), DESERT_OK);
  assert_int_equal(desert_record_write_field(&stale, 0), DESERT_OK);
  desert_write_i32(w, 1);
  desert_writer_reset(w);
  assert_int_equal(desert_record_write_begin(w, &v3_d, &fresh), DESERT_OK);
  assert_int_equal(desert_record_write_end(&stale), DESERT_E_STATE);
  desert_writer_reset(w);
  rt_val pv[3];
  memset(pv, 0, sizeof pv);
  pv[0].i = 10;
  pv[2].i = 20;
  assert_int_equal(rt_write(w, &point_v3, pv), DESERT_OK);
  rt_expect_out(w, "02 10 02 01 01 00 00 00 0a 00 00 00 14 00");
  desert_writer_reset(w);
  /* NULLs */
  assert_int_equal(desert_record_write_begin(NULL, &trd, &rw), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_write_begin(w, &trd, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_write_field(NULL, 0), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_write_end(NULL), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(desert_record_write_begin(w, NULL, &rw), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  const desert_record_desc nulls = {"N", NULL, 2, NULL, 0};
  assert_int_equal(desert_record_write_begin(w, &nulls, &rw), DESERT_E_ARGUMENT);
  desert_writer_free(w);
}

/* A made-optional field at chunk-0 position 128 cannot be represented. */
static void test_position_limit(void **state) {
  (void)state;
  static desert_field_desc f[130];
  static char names[130][8];
  for (int i = 0; i < 130; i++) {
    snprintf(names[i], sizeof names[i], "f%d", i);
    f[i].name = names[i];
    f[i].flags = 0;
  }
  f[128].flags = DESERT_FIELD_OPTIONAL;
  f[127].flags = DESERT_FIELD_OPTIONAL;
  static const desert_evolution_step s128[] = {{DESERT_STEP_FIELD_MADE_OPTIONAL, "f128", false}};
  static const desert_evolution_step s127[] = {{DESERT_STEP_FIELD_MADE_OPTIONAL, "f127", false}};
  const desert_record_desc d128 = {"P", f, 130, s128, 1};
  const desert_record_desc d127 = {"P", f, 130, s127, 1};
  assert_int_equal(desert_record_desc_check(&d128), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_desc_check(&d127), DESERT_OK);
  static rt_type t[130];
  static rt_val v[130];
  for (int i = 0; i < 130; i++) t[i] = RT_I32, v[i].some = false, v[i].i = i;
  desert_writer *w = rt_writer(0);
  assert_int_equal(rt_write(w, &(rt_rec){&d128, t}, v), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(rt_write(w, &(rt_rec){&d127, t}, v), DESERT_OK);
  const uint8_t *out = desert_writer_data(w, NULL);
  /* 01 | var_i32(size) (2 bytes) | 01 81: position 127 */
  assert_int_equal(out[3], 0x01);
  assert_int_equal(out[4], 0x81);
  /* an old reader (f127 required) reads through the tag; a new one too */
  size_t n;
  out = desert_writer_data(w, &n);
  uint8_t *in = malloc(n);
  memcpy(in, out, n);
  desert_reader *r = rt_reader(0);
  const desert_record_desc old = {"P", f, 127, NULL, 0}; /* f0..f126 */
  desert_reader_begin(r, in, n);
  assert_int_equal(rt_read(r, &(rt_rec){&d127, t}, v), DESERT_OK);
  assert_int_equal(v[127].action, DESERT_FIELD_NONE);
  assert_int_equal(v[129].i, 129);
  desert_reader_begin(r, in, n);
  assert_int_equal(rt_read(r, &(rt_rec){&old, t}, v), DESERT_OK);
  desert_reader_free(r);
  free(in);
  desert_writer_free(w);
}

static void test_desc_check(void **state) {
  (void)state;
  assert_int_equal(desert_record_desc_check(NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_desc_check(&v3_d), DESERT_OK);
  static const desert_field_desc dup[] = {{"x", 0}, {"x", 0}};
  const desert_record_desc d1 = DESERT_RECORD_DESC_V0("Dup", dup);
  assert_int_equal(desert_record_desc_check(&d1), DESERT_E_ARGUMENT);
  static const desert_field_desc nul[] = {{"x", 0}, {NULL, 0}};
  const desert_record_desc d2 = DESERT_RECORD_DESC_V0("Nul", nul);
  assert_int_equal(desert_record_desc_check(&d2), DESERT_E_ARGUMENT);
  static const desert_field_desc empty[] = {{"", 0}};
  const desert_record_desc d3 = DESERT_RECORD_DESC_V0("Empty", empty);
  assert_int_equal(desert_record_desc_check(&d3), DESERT_E_ARGUMENT);
  static const desert_field_desc flags[] = {{"x", 4}};
  const desert_record_desc d4 = DESERT_RECORD_DESC_V0("Flags", flags);
  assert_int_equal(desert_record_desc_check(&d4), DESERT_E_ARGUMENT);
  static const desert_field_desc utf[] = {{"\xc3\x28", 0}};
  const desert_record_desc d5 = DESERT_RECORD_DESC_V0("Utf", utf);
  assert_int_equal(desert_record_desc_check(&d5), DESERT_E_ARGUMENT);
  static const desert_evolution_step kind[] = {{(desert_step_kind)9, "x", false}};
  const desert_record_desc d6 = DESERT_RECORD_DESC("Kind", point_f, kind);
  assert_int_equal(desert_record_desc_check(&d6), DESERT_E_ARGUMENT);
  static const desert_evolution_step nulstep[] = {{DESERT_STEP_FIELD_REMOVED, NULL, false}};
  const desert_record_desc d7 = DESERT_RECORD_DESC("NulStep", point_f, nulstep);
  assert_int_equal(desert_record_desc_check(&d7), DESERT_E_ARGUMENT);
  /* the reader refuses a NULL step name too (it would be dereferenced) */
  desert_reader *r = rt_reader(0);
  uint8_t in[] = {0x00, 0, 0, 0, 1, 0, 0, 0, 2};
  desert_reader_begin(r, in, sizeof in);
  desert_record_reader rr;
  assert_int_equal(desert_record_read_begin(r, &d7, &rr), DESERT_E_ARGUMENT);
  desert_reader_free(r);
  /* steps naming fields that do not exist are data, not errors */
  static const desert_evolution_step ghost[] = {{DESERT_STEP_FIELD_ADDED, "ghost", true},
                                                {DESERT_STEP_FIELD_REMOVED, "ghost", false}};
  const desert_record_desc d8 = DESERT_RECORD_DESC("Ghost", point_f, ghost);
  assert_int_equal(desert_record_desc_check(&d8), DESERT_OK);
}

/* ---- reader misuse ----------------------------------------------------------------- */

static void test_reader_misuse(void **state) {
  (void)state;
  desert_reader *r = rt_reader(0);
  uint8_t in[] = {0x01, 0x10, 0x00, 0, 0, 0, 1, 0, 0, 0, 2};
  desert_record_reader rr;
  desert_field_action a;
  desert_reader_begin(r, in, sizeof in);
  assert_int_equal(desert_record_read_begin(r, &point_d, &rr), DESERT_OK);
  assert_int_equal(desert_record_read_version(&rr), 1);
  assert_int_equal(desert_record_read_field(&rr, 1, &a), DESERT_E_STATE); /* skips x */
  assert_int_equal(desert_reader_status(r), DESERT_E_STATE);
  desert_reader_begin(r, in, sizeof in);
  assert_int_equal(desert_record_read_begin(r, &point_d, &rr), DESERT_OK);
  assert_int_equal(desert_record_read_field(&rr, 2, &a), DESERT_E_ARGUMENT);
  desert_reader_begin(r, in, sizeof in);
  assert_int_equal(desert_record_read_begin(r, &point_d, &rr), DESERT_OK);
  assert_int_equal(desert_record_read_field(&rr, 0, NULL), DESERT_E_ARGUMENT);
  /* between fields the reader is parked on an empty range: a stray read
   * fails cleanly instead of reading header or chunk bytes */
  desert_reader_begin(r, in, sizeof in);
  assert_int_equal(desert_record_read_begin(r, &point_d, &rr), DESERT_OK);
  int32_t x;
  assert_int_equal(desert_read_i32(r, &x), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), sizeof in);
  /* reading only a prefix of the fields is fine; end twice is not */
  desert_reader_begin(r, in, sizeof in);
  assert_int_equal(desert_record_read_begin(r, &point_d, &rr), DESERT_OK);
  assert_int_equal(desert_record_read_field(&rr, 0, &a), DESERT_OK);
  assert_int_equal(desert_read_i32(r, &x), DESERT_OK);
  assert_int_equal(desert_record_read_end(&rr), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), sizeof in);
  assert_int_equal(desert_record_read_end(&rr), DESERT_E_STATE);
  /* NULLs */
  assert_int_equal(desert_record_read_begin(NULL, &point_d, &rr), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_read_begin(r, &point_d, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_read_field(NULL, 0, &a), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_read_end(NULL), DESERT_E_ARGUMENT);
  desert_reader_begin(r, in, sizeof in);
  assert_int_equal(desert_record_read_begin(r, NULL, &rr), DESERT_E_ARGUMENT);
  /* an abandoned versioned record (error mid-way, no end), then the next
   * message reads normally */
  desert_reader_begin(r, in, sizeof in);
  assert_int_equal(desert_record_read_begin(r, &point_d, &rr), DESERT_OK);
  desert_reader_begin(r, in, sizeof in);
  rt_val v[2];
  assert_int_equal(rt_read(r, &point, v), DESERT_OK);
  assert_int_equal(v[1].i, 2);
  desert_reader_free(r);
}

/* ---- allocation ------------------------------------------------------------------------ */

/* Nested versioned records: the pool and the record stack are allocated
 * once; warm contexts then allocate nothing per message. */
static void test_warm_contexts_do_not_allocate(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_writer *w = writer_with(&ca, 0, 0);
  desert_reader *r = reader_with(&ca, 0);
  uint8_t in[512];
  size_t n = 0;
  for (int round = 0; round < 4; round++) {
    size_t before = ca.allocs;
    desert_writer_reset(w);
    assert_int_equal(write_chain(w, 20), DESERT_OK);
    const uint8_t *out = desert_writer_data(w, &n);
    assert_true(n <= sizeof in);
    memcpy(in, out, n);
    desert_reader_begin(r, in, n);
    int count = 0;
    assert_int_equal(read_chain(r, &count), DESERT_OK);
    assert_int_equal(count, 20);
    if (round > 0) assert_int_equal(ca.allocs, before);
  }
  /* size-only mode measures the same bytes */
  desert_writer_count_only(w);
  assert_int_equal(write_chain(w, 20), DESERT_OK);
  assert_int_equal(desert_writer_size(w), n);
  desert_writer_free(w);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

/* Every allocation failing in turn: a clean status, no leak, no crash. */
static void test_allocation_failures(void **state) {
  (void)state;
  uint8_t ref[512];
  size_t ref_len;
  {
    desert_writer *w = rt_writer(0);
    assert_int_equal(write_chain(w, 6), DESERT_OK);
    const uint8_t *out = desert_writer_data(w, &ref_len);
    memcpy(ref, out, ref_len);
    desert_writer_free(w);
  }
  for (size_t k = 0; k < 40; k++) {
    desert_counting_allocator ca;
    desert_counting_allocator_init(&ca);
    desert_writer *w = writer_with(&ca, 0, 0);
    desert_reader *r = reader_with(&ca, 0);
    desert_counting_allocator_fail_after(&ca, k);
    desert_status st = write_chain(w, 6);
    assert_true(st == DESERT_OK || st == DESERT_E_NOMEM);
    if (st == DESERT_OK) {
      size_t n;
      const uint8_t *out = desert_writer_data(w, &n);
      desert_assert_bytes_equal(ref, ref_len, out, n);
    }
    desert_reader_begin(r, ref, ref_len);
    int count = 0;
    st = read_chain(r, &count);
    assert_true(st == DESERT_OK || st == DESERT_E_NOMEM);
    desert_writer_free(w);
    desert_reader_free(r);
    assert_int_equal(ca.live_blocks, 0);
    assert_int_equal(ca.bad_frees, 0);
  }
}

/* ---- random mutations -------------------------------------------------------------------- */

/* Valid records with one to three random byte changes (and random cuts),
 * read by several descriptions: any status is fine, crashes and
 * out-of-range offsets are not (ASan/UBSan builds check the rest). */
static void test_random_mutations(void **state) {
  (void)state;
  desert_rng rng;
  desert_rng_init_test(&rng, 0x7265636fu);
  static const char *const seeds[] = {
      "01 10 0e 00 00 00 0a 00 00 00 14 0c 6f 72 69 67 69 6e",
      "02 10 08 01 01 00 00 00 0a 00 00 00 14 01 04 68 69",
      "03 10 00 03 0a 6c 61 62 65 6c 03 01 00 00 00 0a 00 00 00 14",
      "03 10 00 01 80 03 0a 6c 61 62 65 6c 00 00 00 0a 00 00 00 14",
      "01 12 01 ff 00 00 00 0a 01 00 00 00 14",
      "01 0a 00 01 00 04 68 69 01 14 00 02 00 00 00 00 01 00 00 00 02"};
  const rt_rec *readers[] = {&point, &point_v3};
  desert_reader *r = rt_reader(0);
  uint8_t base[64], buf[64];
  for (int iter = 0; iter < 20000; iter++) {
    size_t n = rt_hex(seeds[desert_rng_below(&rng, 6)], base, sizeof base);
    memcpy(buf, base, n);
    unsigned muts = 1 + desert_rng_below(&rng, 3);
    for (unsigned m = 0; m < muts; m++)
      buf[desert_rng_below(&rng, (uint32_t)n)] = (uint8_t)desert_rng_next(&rng);
    if (desert_rng_below(&rng, 4) == 0) n = desert_rng_below(&rng, (uint32_t)n + 1);
    uint8_t *in = malloc(n ? n : 1);
    memcpy(in, buf, n);
    for (int k = 0; k < 2; k++) {
      desert_reader_begin(r, in, n);
      rt_val v[3];
      desert_status st = rt_read(r, readers[k], v);
      if (st)
        assert_true(desert_reader_error_offset(r) <= n);
      else
        assert_true(desert_reader_offset(r) <= n);
    }
    free(in);
  }
  desert_reader_free(r);
}

int main(void) {
  desert_test_check_expected_isa();
  (void)desert_test_seed();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_corrupt_headers),
      cmocka_unit_test(test_huge_versions),
      cmocka_unit_test(test_depth_limits),
      cmocka_unit_test(test_writer_errors),
      cmocka_unit_test(test_position_limit),
      cmocka_unit_test(test_desc_check),
      cmocka_unit_test(test_reader_misuse),
      cmocka_unit_test(test_warm_contexts_do_not_allocate),
      cmocka_unit_test(test_allocation_failures),
      cmocka_unit_test(test_random_mutations),
  };
  return rt_run_both_modes("record_errors", tests, sizeof tests / sizeof tests[0]);
}
