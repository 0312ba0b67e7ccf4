/* test/test_values_time.c — dates and times of docs/format.md §14 with the
 * validation of docs/schema.md §11.8/§12: every example encoded and decoded with
 * exact bytes, truncation at every byte, each invalid component with its
 * status and offset, writers rejecting out-of-range input without writing.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "desert/values.h"
#include "codec_testlib.h"
#include "test_util.h"

/* ---- harness ---------------------------------------------------------------------- */

typedef desert_status (*write_fn)(desert_writer *w);
typedef desert_status (*read_fn)(desert_reader *r); /* reads and checks the value */

typedef struct example {
  const char *name;
  const char *hex;
  write_fn write;
  read_fn read;
  size_t starts[16]; /* first byte of each item, ascending, from 0 */
  size_t nstarts;
} example;

/* codec_testlib callbacks that call the function an example, a bad read
 * or a bad write case holds. */
static desert_status ex_write(desert_writer *w, const void *ex) {
  return ((const example *)ex)->write(w);
}
static desert_status ex_read(desert_reader *r, const void *ex) {
  return ((const example *)ex)->read(r);
}
static desert_status call_read(desert_reader *r, const void *fn) {
  return (*(const read_fn *)fn)(r);
}
static desert_status call_write(desert_writer *w, const void *fn) {
  return (*(const write_fn *)fn)(w);
}

/* Encodes (growable, size-only, fixed buffers), decodes (alone, after a
 * prefix), and cuts the bytes at every position. */
static void run_example(const example *ex) {
  ct_run_example_checked(ex->name, ex->hex, ex_write, ex_read, ex, ex->starts, ex->nstarts,
                         CT_CHECK_SHORT_BUFFER_EMPTY | CT_CHECK_AFTER_PREFIX);
}

typedef struct bad_read {
  const char *hex;
  size_t skip;
  read_fn read;
  desert_status status;
  size_t offset;
} bad_read;

static void run_bad_read(const bad_read *b) {
  ct_run_bad_read(b->hex, b->skip, call_read, &b->read, b->status, b->offset);
}

/* The write must fail with `want` and leave the writer empty; the error is
 * sticky. */
static void run_bad_write(write_fn fn, desert_status want) {
  ct_run_bad_write_checked(call_write, &fn, want, CT_CHECK_WRITER_STATUS);
}

/* ---- value comparison ------------------------------------------------------------------ */

static void eq_date(desert_local_date a, desert_local_date b) {
  assert_int_equal(a.year, b.year);
  assert_int_equal(a.month, b.month);
  assert_int_equal(a.day, b.day);
}
static void eq_time(desert_local_time a, desert_local_time b) {
  assert_int_equal(a.hour, b.hour);
  assert_int_equal(a.minute, b.minute);
  assert_int_equal(a.second, b.second);
  assert_int_equal(a.nano, b.nano);
}
static void eq_ldt(desert_local_date_time a, desert_local_date_time b) {
  eq_date(a.date, b.date);
  eq_time(a.time, b.time);
}
static void eq_str(desert_str a, desert_str b) {
  assert_int_equal(a.len, b.len);
  if (a.len) assert_memory_equal(a.ptr, b.ptr, a.len);
}
static void eq_zone(const desert_zone_id *a, const desert_zone_id *b) {
  assert_int_equal(a->is_region, b->is_region);
  if (a->is_region)
    eq_str(a->region, b->region);
  else
    assert_int_equal(a->offset_seconds, b->offset_seconds);
}

#define S(lit) ((desert_str){(lit), sizeof(lit) - 1})

/* ---- examples ------------------------------------------------------------------------------ */

/* docs/format.md §14: LocalDate 2024-06-22 -> e8 0f 06 16. */
static const desert_local_date date_2024 = {2024, 6, 22};
static desert_status w_date(desert_writer *w) { return desert_write_local_date(w, date_2024); }
static desert_status r_date(desert_reader *r) {
  desert_local_date v;
  desert_status st = desert_read_local_date(r, &v);
  if (!st) eq_date(date_2024, v);
  return st;
}

/* docs/format.md §14: LocalTime 09:30:05.000000125 -> 09 1e 05 7d. */
static const desert_local_time time_0930 = {9, 30, 5, 125};
static desert_status w_time(desert_writer *w) { return desert_write_local_time(w, time_0930); }
static desert_status r_time(desert_reader *r) {
  desert_local_time v;
  desert_status st = desert_read_local_time(r, &v);
  if (!st) eq_time(time_0930, v);
  return st;
}

/* docs/format.md §14: ZoneId +01:00 -> 00 a0 38. */
static const desert_zone_id zone_p1 = {false, 3600, {NULL, 0}};
static desert_status w_zone_p1(desert_writer *w) { return desert_write_zone_id(w, &zone_p1); }
static desert_status r_zone_p1(desert_reader *r) {
  desert_zone_id v;
  desert_status st = desert_read_zone_id(r, &v);
  if (!st) eq_zone(&zone_p1, &v);
  return st;
}

static const desert_zone_id zone_bud = {true, 0, {"Europe/Budapest", 15}};
static desert_status w_zone_bud(desert_writer *w) { return desert_write_zone_id(w, &zone_bud); }
static desert_status r_zone_bud(desert_reader *r) {
  desert_zone_id v;
  desert_status st = desert_read_zone_id(r, &v);
  if (!st) eq_zone(&zone_bud, &v);
  return st;
}

static const desert_zone_id zone_m18 = {false, -64800, {NULL, 0}};
static desert_status w_zone_m18(desert_writer *w) { return desert_write_zone_id(w, &zone_m18); }
static desert_status r_zone_m18(desert_reader *r) {
  desert_zone_id v;
  desert_status st = desert_read_zone_id(r, &v);
  if (!st) eq_zone(&zone_m18, &v);
  return st;
}

static desert_status w_dow7(desert_writer *w) { return desert_write_day_of_week(w, 7); }
static desert_status r_dow7(desert_reader *r) {
  uint8_t v = 0;
  desert_status st = desert_read_day_of_week(r, &v);
  if (!st) assert_int_equal(v, 7);
  return st;
}
static desert_status r_dow(desert_reader *r) {
  uint8_t v;
  return desert_read_day_of_week(r, &v);
}

static desert_status w_month12(desert_writer *w) { return desert_write_month(w, 12); }
static desert_status r_month12(desert_reader *r) {
  uint8_t v = 0;
  desert_status st = desert_read_month(r, &v);
  if (!st) assert_int_equal(v, 12);
  return st;
}
static desert_status r_month(desert_reader *r) {
  uint8_t v;
  return desert_read_month(r, &v);
}

static desert_status w_year_neg1(desert_writer *w) { return desert_write_year(w, -1); }
static desert_status r_year_neg1(desert_reader *r) {
  int32_t v = 0;
  desert_status st = desert_read_year(r, &v);
  if (!st) assert_int_equal(v, -1);
  return st;
}
static desert_status w_year_min(desert_writer *w) { return desert_write_year(w, -999999999); }
static desert_status r_year_min(desert_reader *r) {
  int32_t v = 0;
  desert_status st = desert_read_year(r, &v);
  if (!st) assert_int_equal(v, -999999999);
  return st;
}
static desert_status r_year(desert_reader *r) {
  int32_t v;
  return desert_read_year(r, &v);
}

static desert_status w_md_0229(desert_writer *w) {
  return desert_write_month_day(w, (desert_month_day){2, 29});
}
static desert_status r_md_0229(desert_reader *r) {
  desert_month_day v = {0, 0};
  desert_status st = desert_read_month_day(r, &v);
  if (!st) {
    assert_int_equal(v.month, 2);
    assert_int_equal(v.day, 29);
  }
  return st;
}
static desert_status r_md(desert_reader *r) {
  desert_month_day v;
  return desert_read_month_day(r, &v);
}

static desert_status w_ym(desert_writer *w) {
  return desert_write_year_month(w, (desert_year_month){2024, 6});
}
static desert_status r_ym(desert_reader *r) {
  desert_year_month v = {0, 0};
  desert_status st = desert_read_year_month(r, &v);
  if (!st) {
    assert_int_equal(v.year, 2024);
    assert_int_equal(v.month, 6);
  }
  return st;
}
static desert_status r_ym_any(desert_reader *r) {
  desert_year_month v;
  return desert_read_year_month(r, &v);
}

static desert_status w_period(desert_writer *w) {
  return desert_write_period(w, (desert_period){1, -2, 3});
}
static desert_status r_period(desert_reader *r) {
  desert_period v = {0, 0, 0};
  desert_status st = desert_read_period(r, &v);
  if (!st) {
    assert_int_equal(v.years, 1);
    assert_int_equal(v.months, -2);
    assert_int_equal(v.days, 3);
  }
  return st;
}
static desert_status w_period_ext(desert_writer *w) {
  return desert_write_period(w, (desert_period){INT32_MIN, INT32_MAX, 0});
}
static desert_status r_period_ext(desert_reader *r) {
  desert_period v = {0, 0, 1};
  desert_status st = desert_read_period(r, &v);
  if (!st) {
    assert_int_equal(v.years, INT32_MIN);
    assert_int_equal(v.months, INT32_MAX);
    assert_int_equal(v.days, 0);
  }
  return st;
}

static desert_status w_zo(desert_writer *w) { return desert_write_zone_offset(w, -3600); }
static desert_status r_zo(desert_reader *r) {
  int32_t v = 0;
  desert_status st = desert_read_zone_offset(r, &v);
  if (!st) assert_int_equal(v, -3600);
  return st;
}
static desert_status w_zo_max(desert_writer *w) { return desert_write_zone_offset(w, 64800); }
static desert_status r_zo_max(desert_reader *r) {
  int32_t v = 0;
  desert_status st = desert_read_zone_offset(r, &v);
  if (!st) assert_int_equal(v, 64800);
  return st;
}
static desert_status r_zo_any(desert_reader *r) {
  int32_t v;
  return desert_read_zone_offset(r, &v);
}

static const desert_local_date_time ldt = {{2024, 6, 22}, {9, 30, 5, 125}};
static desert_status w_ldt(desert_writer *w) { return desert_write_local_date_time(w, ldt); }
static desert_status r_ldt(desert_reader *r) {
  desert_local_date_time v;
  desert_status st = desert_read_local_date_time(r, &v);
  if (!st) eq_ldt(ldt, v);
  return st;
}

static const desert_local_date_time ldt_ext = {{999999999, 12, 31}, {23, 59, 59, 999999999}};
static desert_status w_ldt_ext(desert_writer *w) {
  return desert_write_local_date_time(w, ldt_ext);
}
static desert_status r_ldt_ext(desert_reader *r) {
  desert_local_date_time v;
  desert_status st = desert_read_local_date_time(r, &v);
  if (!st) eq_ldt(ldt_ext, v);
  return st;
}

static desert_status w_ot(desert_writer *w) {
  return desert_write_offset_time(w, (desert_offset_time){{9, 30, 5, 125}, 3600});
}
static desert_status r_ot(desert_reader *r) {
  desert_offset_time v;
  desert_status st = desert_read_offset_time(r, &v);
  if (!st) {
    eq_time(time_0930, v.time);
    assert_int_equal(v.offset_seconds, 3600);
  }
  return st;
}

static desert_status w_odt(desert_writer *w) {
  return desert_write_offset_date_time(w, (desert_offset_date_time){ldt, 3600});
}
static desert_status r_odt(desert_reader *r) {
  desert_offset_date_time v;
  desert_status st = desert_read_offset_date_time(r, &v);
  if (!st) {
    eq_ldt(ldt, v.date_time);
    assert_int_equal(v.offset_seconds, 3600);
  }
  return st;
}

/* Conformance s1000-0169: 1952-05-30T00:54:18.845079145-05:00[Asia/Kolkata]. */
static const desert_zoned_date_time zdt = {
    {{1952, 5, 30}, {0, 54, 18, 845079145}}, -18000, {true, 0, {"Asia/Kolkata", 12}}};
static desert_status w_zdt(desert_writer *w) { return desert_write_zoned_date_time(w, &zdt); }
static desert_status r_zdt(desert_reader *r) {
  desert_zoned_date_time v;
  desert_status st = desert_read_zoned_date_time(r, &v);
  if (!st) {
    eq_ldt(zdt.date_time, v.date_time);
    assert_int_equal(v.offset_seconds, -18000);
    eq_zone(&zdt.zone, &v.zone);
  }
  return st;
}
static const desert_zoned_date_time zdt_fixed = {
    {{2024, 6, 22}, {9, 30, 5, 125}}, 3600, {false, 3600, {NULL, 0}}};
static desert_status w_zdt_fixed(desert_writer *w) {
  return desert_write_zoned_date_time(w, &zdt_fixed);
}
static desert_status r_zdt_fixed(desert_reader *r) {
  desert_zoned_date_time v;
  desert_status st = desert_read_zoned_date_time(r, &v);
  if (!st) {
    eq_ldt(zdt_fixed.date_time, v.date_time);
    assert_int_equal(v.offset_seconds, 3600);
    eq_zone(&zdt_fixed.zone, &v.zone);
  }
  return st;
}

static desert_status w_rfo(desert_writer *w) {
  return desert_write_rust_datetime_fixed_offset(w, (desert_offset_date_time){ldt, -86399});
}
static desert_status r_rfo(desert_reader *r) {
  desert_offset_date_time v;
  desert_status st = desert_read_rust_datetime_fixed_offset(r, &v);
  if (!st) {
    eq_ldt(ldt, v.date_time);
    assert_int_equal(v.offset_seconds, -86399);
  }
  return st;
}

/* Conformance s1000-0209: 1953-05-22T10:30:01.035020930 UTC, Europe/Budapest. */
static const desert_local_date_time tz_utc = {{1953, 5, 22}, {10, 30, 1, 35020930}};
static desert_status w_rtz(desert_writer *w) {
  return desert_write_rust_datetime_tz(w, tz_utc, S("Europe/Budapest"));
}
static desert_status r_rtz(desert_reader *r) {
  desert_local_date_time v;
  desert_str z;
  desert_status st = desert_read_rust_datetime_tz(r, &v, &z);
  if (!st) {
    eq_ldt(tz_utc, v);
    eq_str(S("Europe/Budapest"), z);
  }
  return st;
}

static const example examples[] = {
    {"local_date", "e8 0f 06 16", w_date, r_date, {0, 2, 3}, 3},
    {"local_time", "09 1e 05 7d", w_time, r_time, {0, 1, 2, 3}, 4},
    {"zone_id +01:00", "00 a0 38", w_zone_p1, r_zone_p1, {0, 1}, 2},
    {"zone_id -18:00", "00 bf f4 07", w_zone_m18, r_zone_m18, {0, 1}, 2},
    {"zone_id region",
     "01 1e 45 75 72 6f 70 65 2f 42 75 64 61 70 65 73 74",
     w_zone_bud,
     r_zone_bud,
     {0, 1, 2},
     3},
    {"day_of_week", "07", w_dow7, r_dow7, {0}, 1},
    {"month", "0c", w_month12, r_month12, {0}, 1},
    {"year -1", "ff ff ff ff 0f", w_year_neg1, r_year_neg1, {0}, 1},
    {"year min", "81 ec 94 a3 0c", w_year_min, r_year_min, {0}, 1},
    {"month_day", "02 1d", w_md_0229, r_md_0229, {0, 1}, 2},
    {"year_month", "e8 0f 06", w_ym, r_ym, {0, 2}, 2},
    {"period", "01 fe ff ff ff 0f 03", w_period, r_period, {0, 1, 6}, 3},
    {"period extremes",
     "80 80 80 80 08 ff ff ff ff 07 00",
     w_period_ext,
     r_period_ext,
     {0, 5, 10},
     3},
    {"zone_offset", "9f 38", w_zo, r_zo, {0}, 1},
    {"zone_offset max", "c0 f4 07", w_zo_max, r_zo_max, {0}, 1},
    {"local_date_time", "e8 0f 06 16 09 1e 05 7d", w_ldt, r_ldt, {0, 2, 3, 4, 5, 6, 7}, 7},
    {"local_date_time max",
     "ff 93 eb dc 03 0c 1f 17 3b 3b ff 93 eb dc 03",
     w_ldt_ext,
     r_ldt_ext,
     {0, 5, 6, 7, 8, 9, 10},
     7},
    {"offset_time", "09 1e 05 7d a0 38", w_ot, r_ot, {0, 1, 2, 3, 4}, 5},
    {"offset_date_time",
     "e8 0f 06 16 09 1e 05 7d a0 38",
     w_odt,
     r_odt,
     {0, 2, 3, 4, 5, 6, 7, 8},
     8},
    {"zoned_date_time",
     "a0 0f 05 1e 00 36 12 e9 c4 fb 92 03 9f 99 02 01 18 41 73 69 61 2f 4b 6f 6c 6b 61 74 61",
     w_zdt,
     r_zdt,
     {0, 2, 3, 4, 5, 6, 7, 12, 15, 16, 17},
     11},
    {"zoned_date_time fixed",
     "e8 0f 06 16 09 1e 05 7d a0 38 00 a0 38",
     w_zdt_fixed,
     r_zdt_fixed,
     {0, 2, 3, 4, 5, 6, 7, 8, 10, 11},
     10},
    {"rust fixed offset",
     "e8 0f 06 16 09 1e 05 7d 00 fd c5 0a",
     w_rfo,
     r_rfo,
     {0, 2, 3, 4, 5, 6, 7, 8, 9},
     9},
    {"rust tz",
     "a1 0f 05 16 0a 1e 01 82 c1 d9 10 01 1e 45 75 72 6f 70 65 2f 42 75 64 61 70 65 73 74",
     w_rtz,
     r_rtz,
     {0, 2, 3, 4, 5, 6, 7, 11, 12, 13},
     10},
};

static void test_examples(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) run_example(&examples[i]);
}

/* ---- calendar rules ---------------------------------------------------------------------------
 */

static void test_calendar(void **state) {
  (void)state;
  static const struct {
    int32_t y;
    uint8_t m, d;
    bool ok;
  } cases[] = {
      {2024, 2, 29, true},      {2023, 2, 29, false},      {2000, 2, 29, true},
      {1900, 2, 29, false},     {1900, 2, 28, true},       {-4, 2, 29, true},
      {-100, 2, 29, false},     {-400, 2, 29, true},       {0, 2, 29, true},
      {2024, 4, 30, true},      {2024, 4, 31, false},      {2024, 1, 31, true},
      {2024, 12, 31, true},     {2024, 12, 32, false},     {2024, 1, 0, false},
      {2024, 0, 1, false},      {2024, 13, 1, false},      {999999999, 12, 31, true},
      {-999999999, 1, 1, true}, {1000000000, 1, 1, false}, {-1000000000, 1, 1, false},
      {INT32_MIN, 1, 1, false}, {INT32_MAX, 1, 1, false},  {2024, 6, 30, true},
      {2024, 6, 31, false},     {2024, 9, 31, false},      {2024, 11, 31, false},
  };
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    desert_local_date v = {cases[i].y, cases[i].m, cases[i].d};
    desert_writer_reset(w);
    desert_status st = desert_write_local_date(w, v);
    assert_int_equal(st, cases[i].ok ? DESERT_OK : DESERT_E_ARGUMENT);
    /* The same bytes, built by hand, read back. */
    desert_writer_reset(w);
    assert_int_equal(desert_write_var_u32(w, (uint32_t)v.year), DESERT_OK);
    assert_int_equal(desert_write_u8(w, v.month), DESERT_OK);
    assert_int_equal(desert_write_u8(w, v.day), DESERT_OK);
    size_t n;
    const uint8_t *d = desert_writer_data(w, &n);
    assert_int_equal(desert_reader_begin(r, d, n), DESERT_OK);
    desert_local_date got = {7, 7, 7};
    st = desert_read_local_date(r, &got);
    if (cases[i].ok) {
      assert_int_equal(st, DESERT_OK);
      eq_date(v, got);
    } else {
      assert_int_equal(st, DESERT_E_INVALID_VALUE);
      assert_int_equal(desert_reader_error_offset(r), 0);
      eq_date((desert_local_date){7, 7, 7}, got); /* untouched */
    }
  }
  /* Month-day allows Feb 29 whatever the year, nothing else out of range. */
  for (uint8_t m = 0; m <= 13; m++)
    for (uint8_t d = 0; d <= 32; d++) {
      static const uint8_t dim[13] = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
      bool ok = m >= 1 && m <= 12 && d >= 1 && d <= dim[m];
      desert_writer_reset(w);
      assert_int_equal(desert_write_month_day(w, (desert_month_day){m, d}),
                       ok ? DESERT_OK : DESERT_E_ARGUMENT);
      uint8_t in[2] = {m, d};
      assert_int_equal(desert_reader_begin(r, in, 2), DESERT_OK);
      desert_month_day got;
      assert_int_equal(desert_read_month_day(r, &got), ok ? DESERT_OK : DESERT_E_INVALID_VALUE);
    }
  /* Every time-of-day boundary. */
  for (unsigned h = 22; h <= 24; h++)
    for (unsigned mi = 58; mi <= 60; mi++)
      for (unsigned s = 58; s <= 60; s++)
        for (uint32_t nn = 999999998u; nn <= 1000000000u; nn++) {
          desert_local_time t = {(uint8_t)h, (uint8_t)mi, (uint8_t)s, nn};
          bool ok = h <= 23 && mi <= 59 && s <= 59 && nn <= 999999999u;
          desert_writer_reset(w);
          assert_int_equal(desert_write_local_time(w, t), ok ? DESERT_OK : DESERT_E_ARGUMENT);
          desert_writer_reset(w);
          assert_int_equal(desert_write_u8(w, t.hour), DESERT_OK);
          assert_int_equal(desert_write_u8(w, t.minute), DESERT_OK);
          assert_int_equal(desert_write_u8(w, t.second), DESERT_OK);
          assert_int_equal(desert_write_var_u32(w, t.nano), DESERT_OK);
          size_t n;
          const uint8_t *d = desert_writer_data(w, &n);
          assert_int_equal(desert_reader_begin(r, d, n), DESERT_OK);
          desert_local_time got;
          assert_int_equal(desert_read_local_time(r, &got),
                           ok ? DESERT_OK : DESERT_E_INVALID_VALUE);
        }
  desert_reader_free(r);
  desert_writer_free(w);
}

/* ---- invalid stored values ---------------------------------------------------------------------
 */

static desert_status r_date_any(desert_reader *r) {
  desert_local_date v;
  return desert_read_local_date(r, &v);
}
static desert_status r_time_any(desert_reader *r) {
  desert_local_time v;
  return desert_read_local_time(r, &v);
}
static desert_status r_ldt_any(desert_reader *r) {
  desert_local_date_time v;
  return desert_read_local_date_time(r, &v);
}
static desert_status r_ot_any(desert_reader *r) {
  desert_offset_time v;
  return desert_read_offset_time(r, &v);
}
static desert_status r_odt_any(desert_reader *r) {
  desert_offset_date_time v;
  return desert_read_offset_date_time(r, &v);
}
static desert_status r_zdt_any(desert_reader *r) {
  desert_zoned_date_time v;
  return desert_read_zoned_date_time(r, &v);
}
static desert_status r_zone_any(desert_reader *r) {
  desert_zone_id v;
  return desert_read_zone_id(r, &v);
}
static desert_status r_rfo_any(desert_reader *r) {
  desert_offset_date_time v;
  return desert_read_rust_datetime_fixed_offset(r, &v);
}
static desert_status r_rtz_any(desert_reader *r) {
  desert_local_date_time v;
  desert_str z;
  return desert_read_rust_datetime_tz(r, &v, &z);
}

#define INV DESERT_E_INVALID_VALUE
static const bad_read bad_reads[] = {
    /* Scalars, at their byte / varint. */
    {"aa 00", 1, r_dow, INV, 1},
    {"aa 08", 1, r_dow, INV, 1},
    {"aa ff", 1, r_dow, INV, 1},
    {"000100ff", 3, r_dow, INV, 3}, /* conformance s1000-0336 */
    {"aa 00", 1, r_month, INV, 1},
    {"aa 0d", 1, r_month, INV, 1},
    {"aa 80 94 eb dc 03", 1, r_year, INV, 1}, /* 1000000000 */
    {"aa 80 ec 94 a3 0c", 1, r_year, INV, 1}, /* -1000000000 */
    {"aa ff ff ff ff 07", 1, r_year, INV, 1}, /* INT32_MAX */
    {"aa 80 80 80 80 80", 1, r_year, DESERT_E_VARINT_TOO_LONG, 1},
    {"aa c2 f4 07", 1, r_zo_any, INV, 1},       /* 64801 */
    {"aa c1 f4 07", 1, r_zo_any, INV, 1},       /* -64801 */
    {"aa fe ff ff ff 0f", 1, r_zo_any, INV, 1}, /* INT32_MAX */
    /* Month-day and year-month as a whole, at their first byte. */
    {"01 04 1f", 1, r_md, INV, 1}, /* conformance s1000-0025: April 31 */
    {"aa 02 1e", 1, r_md, INV, 1},
    {"aa 00 01", 1, r_md, INV, 1},
    {"aa 0d 01", 1, r_md, INV, 1},
    {"aa 01 00", 1, r_md, INV, 1},
    {"aa e8 0f 00", 1, r_ym_any, INV, 1},
    {"aa e8 0f 0d", 1, r_ym_any, INV, 1},
    {"aa 80 94 eb dc 03 01", 1, r_ym_any, INV, 1},
    /* Whole components are read before they are checked: a bad month with a
     * missing day is InputEnded at the day. */
    {"aa 0d", 1, r_md, DESERT_E_INPUT_ENDED, 2},
    {"aa e7 0f 02", 1, r_date_any, DESERT_E_INPUT_ENDED, 4},
    /* Dates. */
    {"aa e7 0f 02 1d", 1, r_date_any, INV, 1}, /* 2023-02-29 */
    {"aa ec 0e 02 1d", 1, r_date_any, INV, 1}, /* 1900-02-29 */
    {"aa e8 0f 00 01", 1, r_date_any, INV, 1},
    {"aa e8 0f 0d 01", 1, r_date_any, INV, 1},
    {"aa e8 0f 06 00", 1, r_date_any, INV, 1},
    {"aa e8 0f 06 1f", 1, r_date_any, INV, 1},
    {"aa 80 94 eb dc 03 01 01", 1, r_date_any, INV, 1},
    /* Times: conformance s1000-0213 (second 60) and s1000-0376 (nano 10^9). */
    {"01100afffffc6100003c00083f0dcf8d", 7, r_time_any, INV, 7},
    {"0101060a117d01002b1fe2a1c8cc01010102038094ebdc03", 16, r_time_any, INV, 16},
    {"aa 18 00 00 00", 1, r_time_any, INV, 1},
    {"aa 00 3c 00 00", 1, r_time_any, INV, 1},
    {"aa 17 3b 3b 80 94 eb dc 03", 1, r_time_any, INV, 1},
    {"aa 17 3b 3b ff ff ff ff 0f", 1, r_time_any, INV, 1},
    /* Date-time: the date is checked before the time is read. */
    {"aa e8 0f 06 1f 09 1e 05 7d", 1, r_ldt_any, INV, 1},
    {"aa e8 0f 06 1f", 1, r_ldt_any, INV, 1},
    {"aa e8 0f 06 16 18 1e 05 7d", 1, r_ldt_any, INV, 5},
    {"aa e8 0f 06 16 09 1e 05 7d", 1, r_ldt_any, DESERT_OK, 0},
    /* Offsets, at the var_i32. */
    {"aa 09 1e 05 7d c2 f4 07", 1, r_ot_any, INV, 5},
    {"aa 18 1e 05 7d a0 38", 1, r_ot_any, INV, 1},
    {"aa e8 0f 06 16 09 1e 05 7d c1 f4 07", 1, r_odt_any, INV, 9},
    {"aa e8 0f 06 16 09 1e 05 7d c1 f4 07", 1, r_zdt_any, INV, 9},
    /* Zone ids: a type byte other than 00/01 is InvalidConstructorId; an
     * offset out of range is an invalid zone id (at its type byte). */
    {"aa 02", 1, r_zone_any, DESERT_E_INVALID_CONSTRUCTOR_ID, 1},
    {"aa ff 00", 1, r_zone_any, DESERT_E_INVALID_CONSTRUCTOR_ID, 1},
    {"aa 00 c2 f4 07", 1, r_zone_any, INV, 1},
    {"aa 00 80 80 80 80 80", 1, r_zone_any, DESERT_E_VARINT_TOO_LONG, 2},
    {"aa 01 01", 1, r_zone_any, DESERT_E_NEGATIVE_LENGTH, 2},
    {"aa 01 04 ff 41", 1, r_zone_any, DESERT_E_INVALID_UTF8, 3},
    {"aa 01 06 41", 1, r_zone_any, DESERT_E_INPUT_ENDED, 3},
    {"aa e8 0f 06 16 09 1e 05 7d a0 38 05", 1, r_zdt_any, DESERT_E_INVALID_CONSTRUCTOR_ID, 11},
    {"aa e8 0f 06 16 09 1e 05 7d a0 38 00 c2 f4 07", 1, r_zdt_any, INV, 11},
    /* Rust DateTime<FixedOffset>: type byte must be 00 (DeserializationFailure),
     * offset within +-86399. */
    {"aa e8 0f 06 16 09 1e 05 7d 01 a0 38", 1, r_rfo_any, INV, 9},
    {"aa e8 0f 06 16 09 1e 05 7d 02", 1, r_rfo_any, INV, 9},
    {"aa e8 0f 06 16 09 1e 05 7d 00 80 c6 0a", 1, r_rfo_any, INV, 9},
    {"aa e8 0f 06 16 09 1e 05 7d 00 ff c5 0a", 1, r_rfo_any, INV, 9},
    {"aa e8 0f 06 16 09 1e 05 7d 00 fe c5 0a", 1, r_rfo_any, DESERT_OK, 0},
    {"aa e8 0f 06 00 09 1e 05 7d 00 a0 38", 1, r_rfo_any, INV, 1},
    /* Rust DateTime<Tz>: type byte must be 01. */
    {"aa e8 0f 06 16 09 1e 05 7d 00 02 41", 1, r_rtz_any, INV, 9},
    {"aa e8 0f 06 16 09 1e 05 7d 02 02 41", 1, r_rtz_any, INV, 9},
    {"aa e8 0f 06 16 09 1e 05 7d 01 02 c3", 1, r_rtz_any, DESERT_E_INVALID_UTF8, 11},
    {"aa e8 0f 06 16 09 1e 05 7d 01 02 41 42", 1, r_rtz_any, DESERT_OK, 0},
};

static void test_bad_reads(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_reads / sizeof bad_reads[0]; i++) run_bad_read(&bad_reads[i]);
}

static void test_outputs_untouched(void **state) {
  (void)state;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  /* A date-time whose time is invalid leaves the whole output alone. */
  static const uint8_t in[] = {0xe8, 0x0f, 0x06, 0x16, 0x18, 0x1e, 0x05, 0x7d};
  assert_int_equal(desert_reader_begin(r, in, sizeof in), DESERT_OK);
  desert_offset_date_time v = {{{1, 1, 1}, {1, 1, 1, 1}}, 77};
  assert_int_equal(desert_read_offset_date_time(r, &v), DESERT_E_INVALID_VALUE);
  eq_ldt((desert_local_date_time){{1, 1, 1}, {1, 1, 1, 1}}, v.date_time);
  assert_int_equal(v.offset_seconds, 77);
  /* A zone region read is a view into the input. */
  static const uint8_t zin[] = {0x01, 0x02, 'U', 'T'};
  assert_int_equal(desert_reader_begin(r, zin, sizeof zin), DESERT_OK);
  desert_zone_id z;
  assert_int_equal(desert_read_zone_id(r, &z), DESERT_OK);
  assert_true(z.is_region);
  assert_ptr_equal(z.region.ptr, (const char *)zin + 2);
  /* NULL outputs. */
  assert_int_equal(desert_reader_begin(r, in, sizeof in), DESERT_OK);
  assert_int_equal(desert_read_local_date(r, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_read_local_date(NULL, NULL), DESERT_E_ARGUMENT);
  desert_reader_free(r);
}

/* ---- writers reject out-of-range input
 * ------------------------------------------------------------ */

static desert_status bw_dow0(desert_writer *w) { return desert_write_day_of_week(w, 0); }
static desert_status bw_dow8(desert_writer *w) { return desert_write_day_of_week(w, 8); }
static desert_status bw_month0(desert_writer *w) { return desert_write_month(w, 0); }
static desert_status bw_month13(desert_writer *w) { return desert_write_month(w, 13); }
static desert_status bw_year_hi(desert_writer *w) { return desert_write_year(w, 1000000000); }
static desert_status bw_year_lo(desert_writer *w) { return desert_write_year(w, -1000000000); }
static desert_status bw_md(desert_writer *w) {
  return desert_write_month_day(w, (desert_month_day){4, 31});
}
static desert_status bw_ym(desert_writer *w) {
  return desert_write_year_month(w, (desert_year_month){2024, 13});
}
static desert_status bw_ym_year(desert_writer *w) {
  return desert_write_year_month(w, (desert_year_month){INT32_MIN, 1});
}
static desert_status bw_zo(desert_writer *w) { return desert_write_zone_offset(w, 64801); }
static desert_status bw_zo_neg(desert_writer *w) { return desert_write_zone_offset(w, -64801); }
static desert_status bw_zone_off(desert_writer *w) {
  desert_zone_id z = {false, -64801, {NULL, 0}};
  return desert_write_zone_id(w, &z);
}
static desert_status bw_zone_utf8(desert_writer *w) {
  desert_zone_id z = {true, 0, {"\xc3", 1}};
  return desert_write_zone_id(w, &z);
}
static desert_status bw_zone_nullstr(desert_writer *w) {
  desert_zone_id z = {true, 0, {NULL, 3}};
  return desert_write_zone_id(w, &z);
}
static desert_status bw_zone_null(desert_writer *w) { return desert_write_zone_id(w, NULL); }
static desert_status bw_date(desert_writer *w) {
  return desert_write_local_date(w, (desert_local_date){2023, 2, 29});
}
static desert_status bw_time(desert_writer *w) {
  return desert_write_local_time(w, (desert_local_time){23, 59, 59, 1000000000});
}
static desert_status bw_ldt(desert_writer *w) {
  return desert_write_local_date_time(w, (desert_local_date_time){{2024, 6, 22}, {24, 0, 0, 0}});
}
static desert_status bw_ot(desert_writer *w) {
  return desert_write_offset_time(w, (desert_offset_time){{9, 30, 5, 125}, 64801});
}
static desert_status bw_odt(desert_writer *w) {
  return desert_write_offset_date_time(w, (desert_offset_date_time){ldt, -64801});
}
static desert_status bw_odt_date(desert_writer *w) {
  return desert_write_offset_date_time(w,
                                       (desert_offset_date_time){{{2024, 2, 30}, {0, 0, 0, 0}}, 0});
}
static desert_status bw_zdt_null(desert_writer *w) { return desert_write_zoned_date_time(w, NULL); }
static desert_status bw_zdt_zone(desert_writer *w) {
  desert_zoned_date_time z = zdt;
  z.zone = (desert_zone_id){false, 70000, {NULL, 0}};
  return desert_write_zoned_date_time(w, &z);
}
static desert_status bw_zdt_region(desert_writer *w) {
  desert_zoned_date_time z = zdt;
  z.zone.region = (desert_str){"\xed\xa0\x80", 3}; /* a surrogate */
  return desert_write_zoned_date_time(w, &z);
}
static desert_status bw_zdt_offset(desert_writer *w) {
  desert_zoned_date_time z = zdt;
  z.offset_seconds = 64801;
  return desert_write_zoned_date_time(w, &z);
}
static desert_status bw_rfo(desert_writer *w) {
  return desert_write_rust_datetime_fixed_offset(w, (desert_offset_date_time){ldt, 86400});
}
static desert_status bw_rfo_neg(desert_writer *w) {
  return desert_write_rust_datetime_fixed_offset(w, (desert_offset_date_time){ldt, -86400});
}
static desert_status bw_rtz_date(desert_writer *w) {
  return desert_write_rust_datetime_tz(w, (desert_local_date_time){{2024, 0, 1}, {0, 0, 0, 0}},
                                       S("UTC"));
}
static desert_status bw_rtz_zone(desert_writer *w) {
  return desert_write_rust_datetime_tz(w, ldt, (desert_str){"\xff", 1});
}

static void test_bad_writes(void **state) {
  (void)state;
  static const struct {
    write_fn fn;
    desert_status st;
  } cases[] = {
      {bw_dow0, DESERT_E_ARGUMENT},
      {bw_dow8, DESERT_E_ARGUMENT},
      {bw_month0, DESERT_E_ARGUMENT},
      {bw_month13, DESERT_E_ARGUMENT},
      {bw_year_hi, DESERT_E_ARGUMENT},
      {bw_year_lo, DESERT_E_ARGUMENT},
      {bw_md, DESERT_E_ARGUMENT},
      {bw_ym, DESERT_E_ARGUMENT},
      {bw_ym_year, DESERT_E_ARGUMENT},
      {bw_zo, DESERT_E_ARGUMENT},
      {bw_zo_neg, DESERT_E_ARGUMENT},
      {bw_zone_off, DESERT_E_ARGUMENT},
      {bw_zone_utf8, DESERT_E_INVALID_UTF8},
      {bw_zone_nullstr, DESERT_E_ARGUMENT},
      {bw_zone_null, DESERT_E_ARGUMENT},
      {bw_date, DESERT_E_ARGUMENT},
      {bw_time, DESERT_E_ARGUMENT},
      {bw_ldt, DESERT_E_ARGUMENT},
      {bw_ot, DESERT_E_ARGUMENT},
      {bw_odt, DESERT_E_ARGUMENT},
      {bw_odt_date, DESERT_E_ARGUMENT},
      {bw_zdt_null, DESERT_E_ARGUMENT},
      {bw_zdt_zone, DESERT_E_ARGUMENT},
      {bw_zdt_region, DESERT_E_INVALID_UTF8},
      {bw_zdt_offset, DESERT_E_ARGUMENT},
      {bw_rfo, DESERT_E_ARGUMENT},
      {bw_rfo_neg, DESERT_E_ARGUMENT},
      {bw_rtz_date, DESERT_E_ARGUMENT},
      {bw_rtz_zone, DESERT_E_INVALID_UTF8},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    run_bad_write(cases[i].fn, cases[i].st);
  /* A writer already in error writes nothing and keeps its first error. */
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_write_month(w, 0), DESERT_E_ARGUMENT);
  assert_int_equal(desert_write_local_date(w, date_2024), DESERT_E_ARGUMENT);
  assert_int_equal(desert_write_zoned_date_time(w, &zdt), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_free(w);
  assert_int_equal(desert_write_local_date(NULL, date_2024), DESERT_E_ARGUMENT);
}

/* ---- random round trips
 * ------------------------------------------------------------------------------ */

static void test_random_roundtrip(void **state) {
  (void)state;
  desert_rng rng;
  desert_rng_init_test(&rng, 0x71);
  static const uint8_t dim[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  for (int i = 0; i < 3000; i++) {
    desert_zoned_date_time v;
    memset(&v, 0, sizeof v);
    v.date_time.date.year = (int32_t)desert_rng_range(&rng, 0, 1999999998) - 999999999;
    v.date_time.date.month = (uint8_t)desert_rng_range(&rng, 1, 12);
    v.date_time.date.day = (uint8_t)desert_rng_range(&rng, 1, dim[v.date_time.date.month]);
    v.date_time.time.hour = (uint8_t)desert_rng_below(&rng, 24);
    v.date_time.time.minute = (uint8_t)desert_rng_below(&rng, 60);
    v.date_time.time.second = (uint8_t)desert_rng_below(&rng, 60);
    v.date_time.time.nano = desert_rng_below(&rng, 1000000000u);
    v.offset_seconds = (int32_t)desert_rng_range(&rng, 0, 129600) - 64800;
    v.zone.is_region = desert_rng_below(&rng, 2) != 0;
    v.zone.offset_seconds =
        v.zone.is_region ? 0 : (int32_t)desert_rng_range(&rng, 0, 129600) - 64800;
    v.zone.region =
        v.zone.is_region ? S("America/Argentina/ComodRivadavia") : (desert_str){NULL, 0};
    desert_writer_reset(w);
    assert_int_equal(desert_write_zoned_date_time(w, &v), DESERT_OK);
    size_t n;
    const uint8_t *d = desert_writer_data(w, &n);
    assert_int_equal(desert_reader_begin(r, d, n), DESERT_OK);
    desert_zoned_date_time got;
    assert_int_equal(desert_read_zoned_date_time(r, &got), DESERT_OK);
    eq_ldt(v.date_time, got.date_time);
    assert_int_equal(v.offset_seconds, got.offset_seconds);
    eq_zone(&v.zone, &got.zone);
    assert_int_equal(desert_reader_offset(r), n);
  }
  desert_reader_free(r);
  desert_writer_free(w);
}

/* ---- random input never crashes
 * ------------------------------------------------------------------ */

static void test_random_garbage(void **state) {
  (void)state;
  static const read_fn readers[] = {r_dow,    r_month,    r_year,     r_md,       r_ym_any,
                                    r_zo_any, r_zone_any, r_date_any, r_time_any, r_ldt_any,
                                    r_ot_any, r_odt_any,  r_zdt_any,  r_rfo_any,  r_rtz_any};
  desert_rng rng;
  desert_rng_init_test(&rng, 0x72);
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  for (int iter = 0; iter < 20000; iter++) {
    size_t len = desert_rng_range(&rng, 0, 40);
    uint8_t *in = malloc(len ? len : 1);
    assert_non_null(in);
    desert_rng_fill(&rng, in, len);
    /* Bias towards plausible values so the checks after reading run too. */
    for (size_t i = 0; i < len; i++)
      if (desert_rng_below(&rng, 2)) in[i] &= 0x1f;
    read_fn fn = readers[desert_rng_below(&rng, sizeof readers / sizeof readers[0])];
    assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
    desert_status st = fn(r);
    assert_true(st == DESERT_OK || st == DESERT_E_INPUT_ENDED || st == DESERT_E_INVALID_VALUE ||
                st == DESERT_E_VARINT_TOO_LONG || st == DESERT_E_INVALID_CONSTRUCTOR_ID ||
                st == DESERT_E_NEGATIVE_LENGTH || st == DESERT_E_INVALID_UTF8);
    assert_true(desert_reader_offset(r) <= len);
    if (st) assert_true(desert_reader_error_offset(r) <= len);
    free(in);
  }
  desert_reader_free(r);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_examples),       cmocka_unit_test(test_calendar),
      cmocka_unit_test(test_bad_reads),      cmocka_unit_test(test_outputs_untouched),
      cmocka_unit_test(test_bad_writes),     cmocka_unit_test(test_random_roundtrip),
      cmocka_unit_test(test_random_garbage),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
