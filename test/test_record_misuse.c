/* test/test_record_misuse.c — the record writer's misuse statuses and
 * their messages (record.h: desert_record_write_field, _field_option,
 * _end, desert_record_error_message). Every call sequence that does not
 * match the description fails at the earliest call that can see it, with
 * a status of its own and a message naming the record and the field, in
 * every output mode (growable, caller buffer, stream, size-only) and on
 * both the description and the plan path; the documented ways to write an
 * optional field (desert_record_write_field + desert_write_option, or
 * desert_record_write_field_option) still give the bytes derived by hand
 * from docs/format.md §9.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/stream.h"
#include "record_testlib.h"
#include "test_util.h"

/* Two records with the same fields x (i32), label (optional), y (i32): a
 * version-0 one (fields straight to the output; a trailing transient t)
 * and PointV3 (label added by FieldAdded then made optional: chunk 0 holds
 * x and y, chunk 1 label). */
static const desert_field_desc o0_f[] = {
    {"x", 0}, {"label", DESERT_FIELD_OPTIONAL}, {"y", 0}, {"t", DESERT_FIELD_TRANSIENT}};
static const desert_record_desc o0_d = DESERT_RECORD_DESC_V0("Opt0", o0_f);
static const desert_field_desc pt_f[] = {{"x", 0}, {"label", DESERT_FIELD_OPTIONAL}, {"y", 0}};
static const desert_evolution_step pt_s[] = {{DESERT_STEP_FIELD_ADDED, "label", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "label", false}};
static const desert_record_desc pt_d = DESERT_RECORD_DESC("PointV3", pt_f, pt_s);

enum { REC_V0, REC_V3, REC_COUNT };
static const desert_record_desc *const recs[REC_COUNT] = {&o0_d, &pt_d};

/* ---- writers in every output mode --------------------------------------------------- */

enum { M_GROW, M_FIXED, M_STREAM, M_COUNT, M_MODES };
static const char *const mode_names[M_MODES] = {"grow", "fixed", "stream", "count"};

typedef struct mem_sink {
  uint8_t buf[4096];
  size_t len;
} mem_sink;

static int mem_write(void *ctx, const void *buf, size_t n) {
  mem_sink *s = ctx;
  if (n > sizeof s->buf - s->len) return -1;
  memcpy(s->buf + s->len, buf, n);
  s->len += n;
  return 0;
}

typedef struct env {
  desert_writer *w;
  int mode;
  uint8_t fixed[512];
  mem_sink sink;
} env;

static void env_open(env *e, int mode, size_t stream_buffer) {
  memset(e, 0, sizeof *e);
  e->mode = mode;
  assert_int_equal(desert_writer_create(NULL, &e->w), DESERT_OK);
  if (mode == M_FIXED)
    assert_int_equal(desert_writer_use_buffer(e->w, e->fixed, sizeof e->fixed), 0);
  if (mode == M_COUNT) desert_writer_count_only(e->w);
  if (mode == M_STREAM)
    assert_int_equal(
        desert_writer_begin_stream(e->w, (desert_sink){mem_write, &e->sink}, stream_buffer),
        DESERT_OK);
}

/* The output must be exactly `hex` (size-only mode: its length). */
static void env_expect(env *e, const char *hex) {
  uint8_t want[256];
  const size_t n = rt_hex(hex, want, sizeof want);
  assert_int_equal(desert_writer_status(e->w), DESERT_OK);
  if (e->mode == M_COUNT) {
    assert_int_equal(desert_writer_size(e->w), n);
    return;
  }
  if (e->mode == M_STREAM) {
    assert_int_equal(desert_writer_flush(e->w), DESERT_OK);
    assert_int_equal(e->sink.len, n);
    assert_memory_equal(e->sink.buf, want, n);
    return;
  }
  size_t len = 0;
  const uint8_t *data = desert_writer_data(e->w, &len);
  assert_int_equal(len, n);
  assert_memory_equal(data, want, n);
}

static void env_close(env *e) { desert_writer_free(e->w); }

static desert_status begin(desert_writer *w, int rec, const desert_record_plan *plan,
                           desert_record_writer *rw) {
  return plan ? desert_record_write_begin_plan(w, plan, rw)
              : desert_record_write_begin(w, recs[rec], rw);
}

/* ---- the misuse matrix ------------------------------------------------------------ */

/* A call sequence on a record of fields x, label (optional), y; returns
 * the status of the call that must fail (the last one made). */
typedef desert_status (*misuse_fn)(desert_writer *w, desert_record_writer *rw);

/* x written (the prefix of every sequence below). */
static void x_done(desert_writer *w, desert_record_writer *rw) {
  desert_record_write_field(rw, 0);
  desert_write_i32(w, 1);
}
/* x, then label started without its tag and the i32 5 (00 00 00 05) in it. */
static void label_untagged(desert_writer *w, desert_record_writer *rw) {
  x_done(w, rw);
  desert_record_write_field(rw, 1);
  desert_write_i32(w, 5);
}

static desert_status mu_none_then_value(desert_writer *w, desert_record_writer *rw) {
  label_untagged(w, rw);
  return desert_record_write_field(rw, 2);
}
static desert_status mu_bad_first_byte(desert_writer *w, desert_record_writer *rw) {
  x_done(w, rw);
  desert_record_write_field(rw, 1);
  desert_write_string(w, "a", 1); /* 02 61 */
  return desert_record_write_field(rw, 2);
}
static desert_status mu_nothing(desert_writer *w, desert_record_writer *rw) {
  x_done(w, rw);
  desert_record_write_field(rw, 1);
  return desert_record_write_field(rw, 2);
}
static desert_status mu_tag_at_end(desert_writer *w, desert_record_writer *rw) {
  label_untagged(w, rw);
  return desert_record_write_end(rw); /* the tag is checked before the missing y */
}
static desert_status mu_tag_before_order(desert_writer *w, desert_record_writer *rw) {
  label_untagged(w, rw);
  return desert_record_write_field(rw, 1); /* also twice: the tag is seen first */
}
static desert_status mu_tag_before_not_optional(desert_writer *w, desert_record_writer *rw) {
  label_untagged(w, rw);
  return desert_record_write_field_option(rw, 2, true);
}
static desert_status mu_option_on_required(desert_writer *w, desert_record_writer *rw) {
  (void)w;
  return desert_record_write_field_option(rw, 0, true);
}
static desert_status mu_twice(desert_writer *w, desert_record_writer *rw) {
  x_done(w, rw);
  return desert_record_write_field(rw, 0);
}
static desert_status mu_backwards(desert_writer *w, desert_record_writer *rw) {
  x_done(w, rw);
  desert_record_write_field_option(rw, 1, false);
  desert_record_write_field(rw, 2);
  desert_write_i32(w, 2);
  return desert_record_write_field(rw, 0);
}
static desert_status mu_skipped(desert_writer *w, desert_record_writer *rw) {
  x_done(w, rw);
  return desert_record_write_field(rw, 2);
}
static desert_status mu_end_missing(desert_writer *w, desert_record_writer *rw) {
  x_done(w, rw);
  return desert_record_write_end(rw);
}

typedef struct misuse_case {
  const char *what;
  misuse_fn run;
  desert_status want;
  const char *msg; /* after `record "<name>", ` */
  /* The check reads the field's first byte: size-only mode, which keeps
   * none, passes it and stops at what follows (DESERT_OK: nothing). */
  bool needs_bytes;
  desert_status count_want;
  const char *count_msg;
} misuse_case;

static const misuse_case cases[] = {
    {"write_field on an optional field, then its value (00 00 00 05)", mu_none_then_value,
     DESERT_E_OPTION_TAG_MISSING,
     "field \"label\" (#1): optional field written without its option tag (first byte 00 is "
     "None, yet 3 more bytes follow)",
     true, DESERT_OK, NULL},
    {"write_field on an optional field, then a string (02 61)", mu_bad_first_byte,
     DESERT_E_OPTION_TAG_MISSING,
     "field \"label\" (#1): optional field written without its option tag (first byte 0x02, not "
     "00 or 01)",
     true, DESERT_OK, NULL},
    {"write_field on an optional field, then nothing", mu_nothing, DESERT_E_OPTION_TAG_MISSING,
     "field \"label\" (#1): optional field written without its option tag (no bytes at all)", false,
     DESERT_OK, NULL},
    {"the untagged optional field is the last before write_end", mu_tag_at_end,
     DESERT_E_OPTION_TAG_MISSING,
     "field \"label\" (#1): optional field written without its option tag (first byte 00 is "
     "None, yet 3 more bytes follow)",
     true, DESERT_E_FIELD_SKIPPED, "field \"y\" (#2): not written: the record ended before it"},
    {"the untagged field started again", mu_tag_before_order, DESERT_E_OPTION_TAG_MISSING,
     "field \"label\" (#1): optional field written without its option tag (first byte 00 is "
     "None, yet 3 more bytes follow)",
     true, DESERT_E_FIELD_ORDER, "field \"label\" (#1): started twice"},
    {"then write_field_option on a required field", mu_tag_before_not_optional,
     DESERT_E_OPTION_TAG_MISSING,
     "field \"label\" (#1): optional field written without its option tag (first byte 00 is "
     "None, yet 3 more bytes follow)",
     true, DESERT_E_FIELD_NOT_OPTIONAL,
     "field \"y\" (#2): option tag for a field that is not optional (start it with "
     "desert_record_write_field)"},
    {"write_field_option on a required field", mu_option_on_required, DESERT_E_FIELD_NOT_OPTIONAL,
     "field \"x\" (#0): option tag for a field that is not optional (start it with "
     "desert_record_write_field)",
     false, DESERT_OK, NULL},
    {"a field started twice", mu_twice, DESERT_E_FIELD_ORDER, "field \"x\" (#0): started twice",
     false, DESERT_OK, NULL},
    {"a field started after a later one", mu_backwards, DESERT_E_FIELD_ORDER,
     "field \"x\" (#0): started after field \"y\" (#2); fields go in declaration order", false,
     DESERT_OK, NULL},
    {"a field skipped", mu_skipped, DESERT_E_FIELD_SKIPPED,
     "field \"label\" (#1): not written: field \"y\" (#2) was started before it", false, DESERT_OK,
     NULL},
    {"write_end before a field", mu_end_missing, DESERT_E_FIELD_SKIPPED,
     "field \"label\" (#1): not written: the record ended before it", false, DESERT_OK, NULL},
};

static void check_misuse(const misuse_case *c, int rec, int mode, bool use_plan) {
  desert_record_plan *plan = NULL;
  if (use_plan) assert_int_equal(desert_record_plan_create(recs[rec], NULL, &plan), DESERT_OK);
  env e;
  env_open(&e, mode, 0);
  desert_record_writer rw;
  assert_int_equal(begin(e.w, rec, plan, &rw), DESERT_OK);
  const desert_status got = c->run(e.w, &rw);
  const bool counted = mode == M_COUNT && c->needs_bytes;
  const desert_status want = counted ? c->count_want : c->want;
  if (got != want) {
    print_error("%s (%s, %s, %s path): %s, want %s\n", c->what, recs[rec]->name, mode_names[mode],
                use_plan ? "plan" : "description", desert_status_name(got),
                desert_status_name(want));
    fail();
  }
  if (want) {
    char msg[320];
    snprintf(msg, sizeof msg, "record \"%s\", %s", recs[rec]->name,
             counted ? c->count_msg : c->msg);
    assert_string_equal(desert_record_error_message(e.w), msg);
    /* sticky: the end (which restores the writer) returns it, the message stays */
    desert_record_write_end(&rw);
    assert_int_equal(desert_writer_status(e.w), want);
    assert_string_equal(desert_record_error_message(e.w), msg);
    /* a reset clears it */
    desert_writer_reset(e.w);
    assert_string_equal(desert_record_error_message(e.w), "success");
  }
  env_close(&e);
  desert_record_plan_free(plan);
}

static void test_misuse_matrix(void **state) {
  (void)state;
  for (size_t i = 0; i < DESERT_COUNTOF(cases); i++)
    for (int rec = 0; rec < REC_COUNT; rec++)
      for (int mode = 0; mode < M_MODES; mode++)
        for (int p = 0; p < 2; p++) check_misuse(&cases[i], rec, mode, p != 0);
}

/* A transient field has no bytes: starting one is an error of its own. */
static void test_transient_started(void **state) {
  (void)state;
  for (int mode = 0; mode < M_MODES; mode++)
    for (int p = 0; p < 2; p++) {
      desert_record_plan *plan = NULL;
      if (p) assert_int_equal(desert_record_plan_create(&o0_d, NULL, &plan), DESERT_OK);
      env e;
      env_open(&e, mode, 0);
      desert_record_writer rw;
      assert_int_equal(begin(e.w, REC_V0, plan, &rw), DESERT_OK);
      assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
      desert_write_i32(e.w, 1);
      assert_int_equal(desert_record_write_field_option(&rw, 1, false), DESERT_OK);
      assert_int_equal(desert_record_write_field(&rw, 2), DESERT_OK);
      desert_write_i32(e.w, 2);
      assert_int_equal(desert_record_write_field(&rw, 3), DESERT_E_FIELD_TRANSIENT);
      assert_string_equal(desert_record_error_message(e.w),
                          "record \"Opt0\", field \"t\" (#3): started, but a transient field is "
                          "never written");
      assert_int_equal(desert_record_write_end(&rw), DESERT_E_FIELD_TRANSIENT);
      env_close(&e);
      desert_record_plan_free(plan);
    }
}

/* ---- correct uses: the bytes of docs/format.md §9 ---------------------------------------- */

typedef enum { OPT_SHORTCUT, OPT_FIELD_THEN_TAG } opt_style;

/* x, label, y with label written either way; the label of Opt0 is an i32,
 * PointV3's a string. */
static void write_xly(desert_writer *w, desert_record_writer *rw, int rec, opt_style style,
                      bool some) {
  assert_int_equal(desert_record_write_field(rw, 0), DESERT_OK);
  desert_write_i32(w, 10);
  if (style == OPT_SHORTCUT) {
    assert_int_equal(desert_record_write_field_option(rw, 1, some), DESERT_OK);
  } else {
    assert_int_equal(desert_record_write_field(rw, 1), DESERT_OK);
    desert_write_option(w, some);
  }
  if (some) {
    if (rec == REC_V0)
      desert_write_i32(w, 5);
    else
      desert_write_string(w, "a", 1);
  }
  assert_int_equal(desert_record_write_field(rw, 2), DESERT_OK);
  desert_write_i32(w, 20);
  assert_int_equal(desert_record_write_end(rw), DESERT_OK);
}

static void test_correct_uses_round_trip(void **state) {
  (void)state;
  /* version 0: 00, then the fields; PointV3: 02, header (chunk 0 size 8 =
   * zigzag 10, chunk 1 size, made-optional entry 01 01), chunk 0 (x, y),
   * chunk 1 (label: 01 02 61 for Some("a"), 00 for None) */
  static const char *const want[REC_COUNT][2] = {
      {"00 00 00 00 0a 00 00 00 00 14", "00 00 00 00 0a 01 00 00 00 05 00 00 00 14"},
      {"02 10 02 01 01 00 00 00 0a 00 00 00 14 00",
       "02 10 06 01 01 00 00 00 0a 00 00 00 14 01 02 61"},
  };
  for (int rec = 0; rec < REC_COUNT; rec++)
    for (int mode = 0; mode < M_MODES; mode++)
      for (int p = 0; p < 2; p++)
        for (int style = 0; style < 2; style++)
          for (int some = 0; some < 2; some++) {
            desert_record_plan *plan = NULL;
            if (p) assert_int_equal(desert_record_plan_create(recs[rec], NULL, &plan), DESERT_OK);
            env e;
            env_open(&e, mode, 0);
            desert_record_writer rw;
            assert_int_equal(begin(e.w, rec, plan, &rw), DESERT_OK);
            write_xly(e.w, &rw, rec, (opt_style)style, some != 0);
            env_expect(&e, want[rec][some]);
            env_close(&e);
            desert_record_plan_free(plan);
          }
}

/* An optional field holding a record: the tag, then the nested record
 * (versioned: its header is moved into room reserved in the same output,
 * after the tag the check reads). */
static void test_optional_record_field(void **state) {
  (void)state;
  static const desert_field_desc out_f[] = {{"inner", DESERT_FIELD_OPTIONAL}, {"n", 0}};
  static const desert_record_desc out_d = DESERT_RECORD_DESC_V0("Outer", out_f);
  for (int mode = 0; mode < M_MODES; mode++) {
    env e;
    env_open(&e, mode, 0);
    for (int round = 0; round < 2; round++) { /* the second with the header hint warm */
      desert_writer_reset(e.w);
      if (mode == M_STREAM) {
        env_close(&e);
        env_open(&e, mode, 0);
      }
      desert_record_writer ro, ri;
      assert_int_equal(desert_record_write_begin(e.w, &out_d, &ro), DESERT_OK);
      assert_int_equal(desert_record_write_field(&ro, 0), DESERT_OK);
      desert_write_option(e.w, true);
      assert_int_equal(desert_record_write_begin(e.w, &pt_d, &ri), DESERT_OK);
      write_xly(e.w, &ri, REC_V3, OPT_FIELD_THEN_TAG, true);
      assert_int_equal(desert_record_write_field(&ro, 1), DESERT_OK);
      desert_write_i32(e.w, 3);
      assert_int_equal(desert_record_write_end(&ro), DESERT_OK);
      env_expect(&e, "00 01 02 10 06 01 01 00 00 00 0a 00 00 00 14 01 02 61 00 00 00 03");
    }
    env_close(&e);
  }
}

/* ---- streams: the byte is checked while it is still buffered ------------------------------ */

static void test_stream_flushed_byte(void **state) {
  (void)state;
  /* buffered: caught */
  env e;
  env_open(&e, M_STREAM, DESERT_STREAM_MIN_BUFFER);
  desert_record_writer rw;
  assert_int_equal(desert_record_write_begin(e.w, &o0_d, &rw), DESERT_OK);
  desert_record_write_field(&rw, 0);
  desert_write_i32(e.w, 1);
  desert_record_write_field(&rw, 1);
  for (int i = 0; i < 8; i++) desert_write_i32(e.w, i); /* 32 bytes: 00 00 00 00 first */
  assert_int_equal(e.sink.len, 0);
  assert_int_equal(desert_record_write_field(&rw, 2), DESERT_E_OPTION_TAG_MISSING);
  assert_string_equal(desert_record_error_message(e.w),
                      "record \"Opt0\", field \"label\" (#1): optional field written without its "
                      "option tag (first byte 00 is None, yet 31 more bytes follow)");
  env_close(&e);
  /* the field's first byte flushed to the sink before the field ended:
   * only its length is seen (record.h), so this passes */
  env_open(&e, M_STREAM, DESERT_STREAM_MIN_BUFFER);
  assert_int_equal(desert_record_write_begin(e.w, &o0_d, &rw), DESERT_OK);
  desert_record_write_field(&rw, 0);
  desert_write_i32(e.w, 1);
  desert_record_write_field(&rw, 1);
  for (int i = 0; i < 40; i++) desert_write_i32(e.w, i);
  assert_true(e.sink.len > 5); /* the byte after 00 + x left */
  assert_int_equal(desert_record_write_field(&rw, 2), DESERT_OK);
  env_close(&e);
}

/* ---- desert_record_error_message ---------------------------------------------------------- */

static bool valid_utf8(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    size_t n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;
    for (size_t i = 1; i < n; i++)
      if ((p[i] & 0xC0) != 0x80) return false;
    p += n;
  }
  return true;
}

static void test_error_message(void **state) {
  (void)state;
  assert_string_equal(desert_record_error_message(NULL), desert_status_message(DESERT_E_ARGUMENT));
  /* a writer in caller storage, nothing exported called yet */
  desert_writer_storage ws;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, NULL, &w), DESERT_OK);
  assert_string_equal(desert_record_error_message(w), "success");
  /* an error of another layer: the status's own message */
  desert_writer_fail(w, DESERT_E_INVALID_UTF8);
  assert_string_equal(desert_record_error_message(w), desert_status_message(DESERT_E_INVALID_UTF8));
  desert_writer_reset(w);
  /* a record without a name; then a later error replaces the message */
  static const desert_record_desc anon = {NULL, pt_f, 3, NULL, 0};
  desert_record_writer rw;
  assert_int_equal(desert_record_write_begin(w, &anon, &rw), DESERT_OK);
  assert_int_equal(desert_record_write_field(&rw, 1), DESERT_E_FIELD_SKIPPED);
  assert_string_equal(desert_record_error_message(w),
                      "record \"?\", field \"x\" (#0): not written: field \"label\" (#1) was "
                      "started before it");
  desert_record_write_end(&rw);
  desert_writer_reset(w);
  assert_int_equal(desert_record_write_begin(w, &pt_d, &rw), DESERT_OK);
  assert_int_equal(desert_record_write_field_option(&rw, 2, false), DESERT_E_FIELD_NOT_OPTIONAL);
  assert_string_equal(desert_record_error_message(w),
                      "record \"PointV3\", field \"y\" (#2): option tag for a field that is not "
                      "optional (start it with desert_record_write_field)");
  desert_record_write_end(&rw);
  desert_writer_free(w);
  /* names longer than the message: cut whole characters only */
  char name[602];
  name[0] = 'a';
  for (size_t i = 1; i < 601; i += 2) memcpy(name + i, "\xc3\xa9", 2); /* é */
  name[601] = '\0';
  for (size_t shift = 0; shift < 2; shift++) { /* the cut inside a character, then after one */
    const desert_record_desc longd = {name + shift, pt_f, 3, NULL, 0};
    assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
    assert_int_equal(desert_record_write_begin(w, &longd, &rw), DESERT_OK);
    assert_int_equal(desert_record_write_field(&rw, 2), DESERT_E_FIELD_SKIPPED);
    const char *m = desert_record_error_message(w);
    assert_true(strncmp(m, "record \"", 8) == 0);
    assert_true(strncmp(m + 8, name + shift, 16) == 0);
    assert_true(strlen(m) >= 250 && strlen(m) <= 255);
    assert_true(valid_utf8(m));
    desert_record_write_end(&rw);
    desert_writer_free(w);
  }
}

/* Without memory for the explanation the status stands, with its generic
 * message; nothing leaks. */
static void test_message_without_memory(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options o;
  desert_options_init(&o);
  o.allocator = ca.allocator;
  for (size_t ok = 0; ok < 3; ok++) {
    desert_writer *w = NULL;
    assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
    desert_counting_allocator_fail_after(&ca, ok); /* 0: no pool; 1: pool, no message */
    desert_record_writer rw;
    assert_int_equal(desert_record_write_begin(w, &o0_d, &rw), DESERT_OK);
    assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
    assert_int_equal(desert_record_write_field(&rw, 0), DESERT_E_FIELD_ORDER);
    assert_string_equal(desert_record_error_message(w),
                        ok < 2 ? desert_status_message(DESERT_E_FIELD_ORDER)
                               : "record \"Opt0\", field \"x\" (#0): started twice");
    assert_int_equal(desert_record_write_end(&rw), DESERT_E_FIELD_ORDER);
    desert_counting_allocator_fail_after(&ca, SIZE_MAX);
    desert_writer_free(w);
  }
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_misuse_matrix),           cmocka_unit_test(test_transient_started),
      cmocka_unit_test(test_correct_uses_round_trip), cmocka_unit_test(test_optional_record_field),
      cmocka_unit_test(test_stream_flushed_byte),     cmocka_unit_test(test_error_message),
      cmocka_unit_test(test_message_without_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
