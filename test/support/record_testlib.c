/* test/support/record_testlib.c — see record_testlib.h. The generic codec
 * drives the record API exactly as generated code would: begin, one
 * field call per field in declaration order, end.
 * SPDX-License-Identifier: MIT */
#include "record_testlib.h"

#include <stdio.h>
#include <string.h>

#include "test_util.h"

bool rt_plan_mode = false;

int rt_run_both_modes(const char *name, const struct CMUnitTest *tests, size_t count) {
  char plan_name[128];
  snprintf(plan_name, sizeof plan_name, "%s_plan", name);
  rt_plan_mode = false;
  int failed = _cmocka_run_group_tests(name, tests, count, NULL, NULL);
  rt_plan_mode = true;
  failed += _cmocka_run_group_tests(plan_name, tests, count, NULL, NULL);
  rt_plan_mode = false;
  return failed;
}

/* The plan of d in plan mode (NULL otherwise, or when d fails the check). */
static desert_record_plan *mode_plan(const desert_record_desc *d) {
  desert_record_plan *p = NULL;
  if (rt_plan_mode && desert_record_desc_check(d) == DESERT_OK)
    assert_int_equal(desert_record_plan_create(d, NULL, &p), DESERT_OK);
  return p;
}

desert_writer *rt_writer(unsigned flags) {
  desert_options o;
  desert_options_init(&o);
  o.flags = flags;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  return w;
}

desert_reader *rt_reader(unsigned flags) {
  desert_options o;
  desert_options_init(&o);
  o.flags = flags;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  return r;
}

static desert_status write_value(desert_writer *w, rt_type t, const rt_val *v) {
  switch (t) {
  case RT_I32:
    return desert_write_i32(w, v->i);
  case RT_STR:
    return desert_write_cstring(w, v->s);
  case RT_BOOL:
    return desert_write_bool(w, v->b);
  case RT_DSTR:
    return desert_write_dedup_string(w, v->s, strlen(v->s));
  case RT_UNIT:
    return desert_writer_status(w);
  }
  return DESERT_E_ARGUMENT;
}

desert_status rt_write(desert_writer *w, const rt_rec *rec, const rt_val *vals) {
  const desert_record_desc *d = rec->desc;
  desert_record_writer rw;
  desert_record_plan *plan = mode_plan(d);
  desert_status st = plan ? desert_record_write_begin_plan(w, plan, &rw)
                          : desert_record_write_begin(w, d, &rw);
  if (st) {
    desert_record_plan_free(plan);
    return desert_writer_status(w);
  }
  for (size_t i = 0; i < d->field_count; i++) {
    unsigned fl = d->fields[i].flags;
    if (fl & DESERT_FIELD_TRANSIENT) continue;
    if (fl & DESERT_FIELD_OPTIONAL) {
      if (desert_record_write_field_option(&rw, i, vals[i].some)) break;
      if (vals[i].some && write_value(w, rec->types[i], &vals[i])) break;
    } else {
      if (desert_record_write_field(&rw, i)) break;
      if (write_value(w, rec->types[i], &vals[i])) break;
    }
  }
  st = desert_record_write_end(&rw);
  desert_record_plan_free(plan);
  return st;
}

static desert_status read_value(desert_reader *r, rt_type t, rt_val *v) {
  desert_str s;
  switch (t) {
  case RT_I32:
    return desert_read_i32(r, &v->i);
  case RT_BOOL:
    return desert_read_bool(r, &v->b);
  case RT_STR:
  case RT_DSTR:
    if ((t == RT_STR ? desert_read_string(r, &s) : desert_read_dedup_string(r, &s)))
      return desert_reader_status(r);
    if (s.len >= sizeof v->s) return desert_reader_fail(r, DESERT_E_LIMIT, desert_reader_offset(r));
    memcpy(v->s, s.ptr, s.len);
    v->s[s.len] = '\0';
    return DESERT_OK;
  case RT_UNIT:
    return desert_reader_status(r);
  }
  return DESERT_E_ARGUMENT;
}

static desert_status read_fields(desert_reader *r, const rt_rec *rec, rt_val *vals,
                                 const desert_record_plan *plan) {
  const desert_record_desc *d = rec->desc;
  desert_record_reader rr;
  if (plan ? desert_record_read_begin_plan(r, plan, &rr) : desert_record_read_begin(r, d, &rr))
    return desert_reader_status(r);
  for (size_t i = 0; i < d->field_count; i++) {
    if (desert_record_read_field(&rr, i, &vals[i].action)) return desert_reader_status(r);
    if (vals[i].action == DESERT_FIELD_READ) {
      vals[i].some = true;
      if (read_value(r, rec->types[i], &vals[i])) return desert_reader_status(r);
    }
  }
  return desert_record_read_end(&rr);
}

desert_status rt_read(desert_reader *r, const rt_rec *rec, rt_val *vals) {
  memset(vals, 0, rec->desc->field_count * sizeof *vals);
  desert_record_plan *plan = mode_plan(rec->desc);
  desert_status st = read_fields(r, rec, vals, plan);
  desert_record_plan_free(plan);
  return st;
}

size_t rt_hex(const char *hex, uint8_t *out, size_t cap) {
  char tmp[8192];
  size_t j = 0;
  for (const char *p = hex; *p && j + 1 < sizeof tmp; p++)
    if (*p != '|') tmp[j++] = *p;
  tmp[j] = '\0';
  size_t n = desert_hex_decode(tmp, out, cap);
  if (n == SIZE_MAX) fail_msg("bad hex in test: %s", hex);
  return n;
}

void rt_expect_out_at(desert_writer *w, const char *hex, const char *file, int line) {
  uint8_t want[4096];
  size_t n = rt_hex(hex, want, sizeof want);
  if (desert_writer_status(w) != DESERT_OK)
    fail_msg("%s:%d: writer failed with %s", file, line,
             desert_status_name(desert_writer_status(w)));
  size_t len;
  const uint8_t *got = desert_writer_data(w, &len);
  desert_assert_bytes_equal_at(want, n, got, len, hex, file, line);
}

void rt_expect_read_at(desert_reader *r, const rt_rec *rec, const char *hex, rt_val *vals,
                       desert_status st, size_t at, const char *file, int line) {
  static uint8_t buf[4096];
  size_t n = rt_hex(hex, buf, sizeof buf);
  /* A copy of exactly n bytes so ASan sees any read past the input. */
  uint8_t *in = test_malloc(n ? n : 1);
  memcpy(in, buf, n);
  desert_reader_begin(r, in, n);
  desert_status got = rt_read(r, rec, vals);
  size_t where = got ? desert_reader_error_offset(r) : desert_reader_offset(r);
  test_free(in);
  if (got != st || where != at)
    fail_msg("%s:%d: reading %s: got %s at %zu, want %s at %zu", file, line, hex,
             desert_status_name(got), where, desert_status_name(st), at);
}
