/* src/values/values_time.c — java.time / chrono values of docs/format.md §14: day of
 * week, month, year, month-day, year-month, period, zone offsets and ids,
 * local/offset/zoned dates and times, and the two Rust-only DateTime forms.
 * SPDX-License-Identifier: MIT
 *
 * Writers validate the ranges of docs/schema.md §11.8 before writing (out of
 * range: DESERT_E_ARGUMENT, nothing written) and emit each value with one
 * reservation, so a full fixed buffer never receives half a value.
 * Readers validate every component right after reading it, as a whole
 * (docs/schema.md §12): DESERT_E_INVALID_VALUE at the component's first byte;
 * a zone_id type byte other than 00/01 is DESERT_E_INVALID_CONSTRUCTOR_ID at
 * that byte. The offset part of a zone_id and of a Rust FixedOffset is one
 * component with its type byte, so its errors point at the type byte.
 * Outputs are only stored when the whole value was read. */
#include "desert/values.h"
#include "core/reader_internal.h"
#include "scalar/scalar.h"
#include "core/writer_internal.h"

#define YEAR_MIN         (-999999999)
#define YEAR_MAX         999999999
#define ZONE_OFFSET_MAX  64800 /* java.time ZoneOffset: +-18:00 */
#define FIXED_OFFSET_MAX 86399 /* chrono FixedOffset: < 1 day */

/* ---- validation -------------------------------------------------------------- */

static bool is_leap(int32_t y) { return (y % 4 == 0) && (y % 100 != 0 || y % 400 == 0); }

static unsigned days_in_month(int32_t year, unsigned month, bool any_year) {
  static const uint8_t days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && (any_year || is_leap(year))) return 29;
  return days[month - 1];
}

static bool year_ok(int32_t y) { return y >= YEAR_MIN && y <= YEAR_MAX; }
static bool month_ok(unsigned m) { return m >= 1 && m <= 12; }
static bool offset_ok(int32_t s) { return s >= -ZONE_OFFSET_MAX && s <= ZONE_OFFSET_MAX; }
static bool fixed_offset_ok(int32_t s) { return s >= -FIXED_OFFSET_MAX && s <= FIXED_OFFSET_MAX; }

static bool date_ok(desert_local_date d) {
  return year_ok(d.year) && month_ok(d.month) && d.day >= 1 &&
         d.day <= days_in_month(d.year, d.month, false);
}

static bool time_ok(desert_local_time t) {
  return t.hour <= 23 && t.minute <= 59 && t.second <= 59 && t.nano <= 999999999u;
}

static bool month_day_ok(desert_month_day v) {
  return month_ok(v.month) && v.day >= 1 && v.day <= days_in_month(0, v.month, true);
}

/* ---- writing: values are assembled in a small buffer, then appended ------- */

typedef struct enc {
  uint8_t b[48]; /* the longest fixed part: zoned date-time, 26 bytes */
  size_t n;
} enc;

static void put_u8(enc *e, uint8_t v) { e->b[e->n++] = v; }
static void put_var(enc *e, uint32_t v) { e->n += desert_put_var_u32(e->b + e->n, v); }
static void put_var_i(enc *e, int32_t v) { put_var(e, desert_zigzag32(v)); }

static void put_date(enc *e, desert_local_date d) {
  put_var(e, (uint32_t)d.year);
  put_u8(e, d.month);
  put_u8(e, d.day);
}

static void put_time(enc *e, desert_local_time t) {
  put_u8(e, t.hour);
  put_u8(e, t.minute);
  put_u8(e, t.second);
  put_var(e, t.nano);
}

/* Appends e and then a String body (var_i32 length + UTF-8 already
 * validated) in one reservation. */
static desert_status emit_str(desert_writer *w, const enc *e, const char *s, size_t len,
                              bool with_str) {
  uint8_t hdr[5];
  size_t h = 0;
  if (with_str) {
    if (len > (size_t)INT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
    h = desert_put_var_u32(hdr, desert_zigzag32((int32_t)len));
  } else {
    len = 0;
  }
  size_t total = e->n + h + len;
  uint8_t *p = NULL;
  desert_status st = desert_w_reserve_bulk(w, total, &p);
  if (st) return st;
  if (p) {
    memcpy(p, e->b, e->n);
    if (h) memcpy(p + e->n, hdr, h);
    if (len) memcpy(p + e->n + h, s, len);
  }
  desert_w_commit(w, total);
  return DESERT_OK;
}

static desert_status emit(desert_writer *w, const enc *e) { return emit_str(w, e, NULL, 0, false); }

/* Checks a string argument before anything is written. */
static desert_status check_str(desert_writer *w, const char *s, size_t len) {
  if (!s && len) return desert_w_fail(w, DESERT_E_ARGUMENT);
  if (len > (size_t)INT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  size_t bad;
  desert_status st = len < DESERT_BULK_THRESHOLD
                         ? desert_scalar_utf8_validate((const uint8_t *)s, len, &bad)
                         : w->k->utf8_validate((const uint8_t *)s, len, &bad);
  if (st) return desert_w_fail(w, st);
  return DESERT_OK;
}

#define W_BEGIN(w)                       \
  do {                                   \
    if (!(w)) return DESERT_E_ARGUMENT;  \
    if ((w)->status) return (w)->status; \
  } while (0)
#define W_CHECK(w, cond)                                       \
  do {                                                         \
    if (!(cond)) return desert_w_fail((w), DESERT_E_ARGUMENT); \
  } while (0)

desert_status desert_write_day_of_week(desert_writer *w, uint8_t dow) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, dow >= 1 && dow <= 7);
  return desert_w_byte(w, dow);
}

desert_status desert_write_month(desert_writer *w, uint8_t month) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, month_ok(month));
  return desert_w_byte(w, month);
}

desert_status desert_write_year(desert_writer *w, int32_t year) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, year_ok(year));
  return desert_w_var_u32(w, (uint32_t)year);
}

desert_status desert_write_month_day(desert_writer *w, desert_month_day v) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, month_day_ok(v));
  enc e = {.n = 0};
  put_u8(&e, v.month);
  put_u8(&e, v.day);
  return emit(w, &e);
}

desert_status desert_write_year_month(desert_writer *w, desert_year_month v) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, year_ok(v.year) && month_ok(v.month));
  enc e = {.n = 0};
  put_var(&e, (uint32_t)v.year);
  put_u8(&e, v.month);
  return emit(w, &e);
}

desert_status desert_write_period(desert_writer *w, desert_period v) {
  desert_w_live(w);
  W_BEGIN(w);
  enc e = {.n = 0};
  put_var(&e, (uint32_t)v.years);
  put_var(&e, (uint32_t)v.months);
  put_var(&e, (uint32_t)v.days);
  return emit(w, &e);
}

desert_status desert_write_zone_offset(desert_writer *w, int32_t seconds) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, offset_ok(seconds));
  return desert_w_var_u32(w, desert_zigzag32(seconds));
}

/* Validates a zone id (offset range, region text) without writing. */
static desert_status check_zone(desert_writer *w, const desert_zone_id *z) {
  if (z->is_region) return check_str(w, z->region.ptr, z->region.len);
  W_CHECK(w, offset_ok(z->offset_seconds));
  return DESERT_OK;
}

static void put_zone_head(enc *e, const desert_zone_id *z) {
  if (z->is_region) {
    put_u8(e, 0x01);
  } else {
    put_u8(e, 0x00);
    put_var_i(e, z->offset_seconds);
  }
}

desert_status desert_write_zone_id(desert_writer *w, const desert_zone_id *v) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, v != NULL);
  if (check_zone(w, v)) return w->status;
  enc e = {.n = 0};
  put_zone_head(&e, v);
  return emit_str(w, &e, v->region.ptr, v->region.len, v->is_region);
}

desert_status desert_write_local_date(desert_writer *w, desert_local_date v) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, date_ok(v));
  enc e = {.n = 0};
  put_date(&e, v);
  return emit(w, &e);
}

desert_status desert_write_local_time(desert_writer *w, desert_local_time v) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, time_ok(v));
  enc e = {.n = 0};
  put_time(&e, v);
  return emit(w, &e);
}

desert_status desert_write_local_date_time(desert_writer *w, desert_local_date_time v) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, date_ok(v.date) && time_ok(v.time));
  enc e = {.n = 0};
  put_date(&e, v.date);
  put_time(&e, v.time);
  return emit(w, &e);
}

desert_status desert_write_offset_time(desert_writer *w, desert_offset_time v) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, time_ok(v.time) && offset_ok(v.offset_seconds));
  enc e = {.n = 0};
  put_time(&e, v.time);
  put_var_i(&e, v.offset_seconds);
  return emit(w, &e);
}

desert_status desert_write_offset_date_time(desert_writer *w, desert_offset_date_time v) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, date_ok(v.date_time.date) && time_ok(v.date_time.time) && offset_ok(v.offset_seconds));
  enc e = {.n = 0};
  put_date(&e, v.date_time.date);
  put_time(&e, v.date_time.time);
  put_var_i(&e, v.offset_seconds);
  return emit(w, &e);
}

desert_status desert_write_zoned_date_time(desert_writer *w, const desert_zoned_date_time *v) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, v != NULL);
  W_CHECK(w,
          date_ok(v->date_time.date) && time_ok(v->date_time.time) && offset_ok(v->offset_seconds));
  if (check_zone(w, &v->zone)) return w->status;
  enc e = {.n = 0};
  put_date(&e, v->date_time.date);
  put_time(&e, v->date_time.time);
  put_var_i(&e, v->offset_seconds);
  put_zone_head(&e, &v->zone);
  return emit_str(w, &e, v->zone.region.ptr, v->zone.region.len, v->zone.is_region);
}

desert_status desert_write_rust_datetime_fixed_offset(desert_writer *w, desert_offset_date_time v) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, date_ok(v.date_time.date) && time_ok(v.date_time.time) &&
                 fixed_offset_ok(v.offset_seconds));
  enc e = {.n = 0};
  put_date(&e, v.date_time.date);
  put_time(&e, v.date_time.time);
  put_u8(&e, 0x00);
  put_var_i(&e, v.offset_seconds);
  return emit(w, &e);
}

desert_status desert_write_rust_datetime_tz(desert_writer *w, desert_local_date_time utc,
                                            desert_str zone) {
  desert_w_live(w);
  W_BEGIN(w);
  W_CHECK(w, date_ok(utc.date) && time_ok(utc.time));
  if (check_str(w, zone.ptr, zone.len)) return w->status;
  enc e = {.n = 0};
  put_date(&e, utc.date);
  put_time(&e, utc.time);
  put_u8(&e, 0x01);
  return emit_str(w, &e, zone.ptr, zone.len, true);
}

/* ---- reading ------------------------------------------------------------------ */

#define R_BEGIN(r, out)                                                 \
  do {                                                                  \
    if (!(r)) return DESERT_E_ARGUMENT;                                 \
    if ((r)->status) return (r)->status;                                \
    if (!(out)) return desert_r_fail((r), DESERT_E_ARGUMENT, (r)->pos); \
  } while (0)

static desert_status get_u8(desert_reader *r, uint8_t *v) {
  const uint8_t *p = desert_r_take(r, 1);
  if (!p) return r->status;
  *v = *p;
  return DESERT_OK;
}

static desert_status get_i32_pattern(desert_reader *r, int32_t *v) {
  uint32_t u;
  if (desert_r_var_u32(r, &u)) return r->status;
  memcpy(v, &u, sizeof u);
  return DESERT_OK;
}

static desert_status invalid(desert_reader *r, size_t at) {
  return desert_r_fail(r, DESERT_E_INVALID_VALUE, at);
}

static desert_status get_date(desert_reader *r, desert_local_date *d) {
  size_t at = r->pos;
  desert_local_date v;
  if (get_i32_pattern(r, &v.year) || get_u8(r, &v.month) || get_u8(r, &v.day)) return r->status;
  if (!date_ok(v)) return invalid(r, at);
  *d = v;
  return DESERT_OK;
}

static desert_status get_time(desert_reader *r, desert_local_time *t) {
  size_t at = r->pos;
  desert_local_time v;
  if (get_u8(r, &v.hour) || get_u8(r, &v.minute) || get_u8(r, &v.second) ||
      desert_r_var_u32(r, &v.nano))
    return r->status;
  if (!time_ok(v)) return invalid(r, at);
  *t = v;
  return DESERT_OK;
}

static desert_status get_offset(desert_reader *r, int32_t *s) {
  size_t at = r->pos;
  int32_t v;
  if (desert_r_var_i32(r, &v)) return r->status;
  if (!offset_ok(v)) return invalid(r, at);
  *s = v;
  return DESERT_OK;
}

static desert_status get_date_time(desert_reader *r, desert_local_date_time *dt) {
  desert_local_date_time v;
  if (get_date(r, &v.date) || get_time(r, &v.time)) return r->status;
  *dt = v;
  return DESERT_OK;
}

static desert_status get_zone(desert_reader *r, desert_zone_id *z) {
  size_t at = r->pos;
  uint8_t type = 0;
  if (get_u8(r, &type)) return r->status;
  desert_zone_id v;
  memset(&v, 0, sizeof v);
  if (type == 0x00) {
    if (desert_r_var_i32(r, &v.offset_seconds)) return r->status;
    if (!offset_ok(v.offset_seconds)) return invalid(r, at);
  } else if (type == 0x01) {
    v.is_region = true;
    if (desert_read_string(r, &v.region)) return r->status;
  } else {
    return desert_r_fail(r, DESERT_E_INVALID_CONSTRUCTOR_ID, at);
  }
  *z = v;
  return DESERT_OK;
}

desert_status desert_read_day_of_week(desert_reader *r, uint8_t *dow) {
  R_BEGIN(r, dow);
  size_t at = r->pos;
  uint8_t v = 0;
  if (get_u8(r, &v)) return r->status;
  if (v < 1 || v > 7) return invalid(r, at);
  *dow = v;
  return DESERT_OK;
}

desert_status desert_read_month(desert_reader *r, uint8_t *month) {
  R_BEGIN(r, month);
  size_t at = r->pos;
  uint8_t v = 0;
  if (get_u8(r, &v)) return r->status;
  if (!month_ok(v)) return invalid(r, at);
  *month = v;
  return DESERT_OK;
}

desert_status desert_read_year(desert_reader *r, int32_t *year) {
  R_BEGIN(r, year);
  size_t at = r->pos;
  int32_t v = 0;
  if (get_i32_pattern(r, &v)) return r->status;
  if (!year_ok(v)) return invalid(r, at);
  *year = v;
  return DESERT_OK;
}

desert_status desert_read_month_day(desert_reader *r, desert_month_day *out) {
  R_BEGIN(r, out);
  size_t at = r->pos;
  desert_month_day v;
  if (get_u8(r, &v.month) || get_u8(r, &v.day)) return r->status;
  if (!month_day_ok(v)) return invalid(r, at);
  *out = v;
  return DESERT_OK;
}

desert_status desert_read_year_month(desert_reader *r, desert_year_month *out) {
  R_BEGIN(r, out);
  size_t at = r->pos;
  desert_year_month v;
  if (get_i32_pattern(r, &v.year) || get_u8(r, &v.month)) return r->status;
  if (!year_ok(v.year) || !month_ok(v.month)) return invalid(r, at);
  *out = v;
  return DESERT_OK;
}

desert_status desert_read_period(desert_reader *r, desert_period *out) {
  R_BEGIN(r, out);
  desert_period v;
  if (get_i32_pattern(r, &v.years) || get_i32_pattern(r, &v.months) || get_i32_pattern(r, &v.days))
    return r->status;
  *out = v;
  return DESERT_OK;
}

desert_status desert_read_zone_offset(desert_reader *r, int32_t *seconds) {
  R_BEGIN(r, seconds);
  return get_offset(r, seconds);
}

desert_status desert_read_zone_id(desert_reader *r, desert_zone_id *out) {
  R_BEGIN(r, out);
  return get_zone(r, out);
}

desert_status desert_read_local_date(desert_reader *r, desert_local_date *out) {
  R_BEGIN(r, out);
  return get_date(r, out);
}

desert_status desert_read_local_time(desert_reader *r, desert_local_time *out) {
  R_BEGIN(r, out);
  return get_time(r, out);
}

desert_status desert_read_local_date_time(desert_reader *r, desert_local_date_time *out) {
  R_BEGIN(r, out);
  return get_date_time(r, out);
}

desert_status desert_read_offset_time(desert_reader *r, desert_offset_time *out) {
  R_BEGIN(r, out);
  desert_offset_time v;
  if (get_time(r, &v.time) || get_offset(r, &v.offset_seconds)) return r->status;
  *out = v;
  return DESERT_OK;
}

desert_status desert_read_offset_date_time(desert_reader *r, desert_offset_date_time *out) {
  R_BEGIN(r, out);
  desert_offset_date_time v;
  if (get_date_time(r, &v.date_time) || get_offset(r, &v.offset_seconds)) return r->status;
  *out = v;
  return DESERT_OK;
}

desert_status desert_read_zoned_date_time(desert_reader *r, desert_zoned_date_time *out) {
  R_BEGIN(r, out);
  desert_zoned_date_time v;
  if (get_date_time(r, &v.date_time) || get_offset(r, &v.offset_seconds) || get_zone(r, &v.zone))
    return r->status;
  *out = v;
  return DESERT_OK;
}

desert_status desert_read_rust_datetime_fixed_offset(desert_reader *r,
                                                     desert_offset_date_time *out) {
  R_BEGIN(r, out);
  desert_offset_date_time v;
  if (get_date_time(r, &v.date_time)) return r->status;
  size_t at = r->pos;
  uint8_t type = 0;
  if (get_u8(r, &type)) return r->status;
  if (type != 0x00) return invalid(r, at); /* Rust: DeserializationFailure */
  if (desert_r_var_i32(r, &v.offset_seconds)) return r->status;
  if (!fixed_offset_ok(v.offset_seconds)) return invalid(r, at);
  *out = v;
  return DESERT_OK;
}

desert_status desert_read_rust_datetime_tz(desert_reader *r, desert_local_date_time *utc,
                                           desert_str *zone) {
  R_BEGIN(r, utc);
  if (!zone) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  desert_local_date_time v;
  if (get_date_time(r, &v)) return r->status;
  size_t at = r->pos;
  uint8_t type = 0;
  if (get_u8(r, &type)) return r->status;
  if (type != 0x01) return invalid(r, at);
  desert_str z;
  if (desert_read_string(r, &z)) return r->status;
  *utc = v;
  *zone = z;
  return DESERT_OK;
}
