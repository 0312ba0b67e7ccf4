/* test/fuzz/fuzz_temporal.c — libFuzzer harness: the composite values of
 * values.h (durations, instants, dates and times, zones, big numbers, IP/MAC
 * addresses, URLs).
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 = option flags, then (kind byte, value bytes)* — each kind
 * byte selects the next value read from the data that follows it. Every
 * value the reader accepts must be inside the documented ranges (the writer
 * takes it back without DESERT_E_ARGUMENT), and must be stable: bytes1 =
 * write(v), v2 = read(bytes1) consuming exactly bytes1, write(v2) == bytes1.
 * Big integers also go through their decimal text and back. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

typedef union value {
  desert_duration dur;
  uint8_t u8;
  int32_t i32;
  desert_month_day md;
  desert_year_month ym;
  desert_period period;
  desert_zone_id zone;
  desert_local_date date;
  desert_local_time time;
  desert_local_date_time ldt;
  desert_offset_time ot;
  desert_offset_date_time odt;
  desert_zoned_date_time zdt;
  struct {
    desert_local_date_time utc;
    desert_str zone;
  } tz;
  desert_bytes bytes;
  int64_t i64;
  desert_str str;
  struct {
    int64_t scale;
    desert_bytes unscaled;
  } bdb;
  desert_ip_addr ip;
  uint8_t mac[6];
} value;

typedef desert_status (*read_fn)(desert_reader *, value *);
typedef desert_status (*write_fn)(desert_writer *, const value *);

#define ADAPT(name, member)                                                            \
  static desert_status rd_##name(desert_reader *r, value *v) {                         \
    return desert_read_##name(r, &v->member);                                          \
  }                                                                                    \
  static desert_status wr_##name(desert_writer *w, const value *v) {                   \
    return desert_write_##name(w, v->member);                                          \
  }
#define ADAPT_PTR(name, member)                                                        \
  static desert_status rd_##name(desert_reader *r, value *v) {                         \
    return desert_read_##name(r, &v->member);                                          \
  }                                                                                    \
  static desert_status wr_##name(desert_writer *w, const value *v) {                   \
    return desert_write_##name(w, &v->member);                                         \
  }

ADAPT(duration, dur)
ADAPT(instant, dur)
ADAPT(day_of_week, u8)
ADAPT(month, u8)
ADAPT(year, i32)
ADAPT(month_day, md)
ADAPT(year_month, ym)
ADAPT(period, period)
ADAPT(zone_offset, i32)
ADAPT_PTR(zone_id, zone)
ADAPT(local_date, date)
ADAPT(local_time, time)
ADAPT(local_date_time, ldt)
ADAPT(offset_time, ot)
ADAPT(offset_date_time, odt)
ADAPT_PTR(zoned_date_time, zdt)
ADAPT(rust_datetime_fixed_offset, odt)
ADAPT(bigint_i64, i64)
ADAPT_PTR(ip_addr, ip)
static desert_status rd_mac_address(desert_reader *r, value *v) {
  return desert_read_mac_address(r, v->mac);
}
static desert_status wr_mac_address(desert_writer *w, const value *v) {
  return desert_write_mac_address(w, v->mac);
}

static desert_status rd_rust_datetime_tz(desert_reader *r, value *v) {
  return desert_read_rust_datetime_tz(r, &v->tz.utc, &v->tz.zone);
}
static desert_status wr_rust_datetime_tz(desert_writer *w, const value *v) {
  return desert_write_rust_datetime_tz(w, v->tz.utc, v->tz.zone);
}
static desert_status rd_bigint(desert_reader *r, value *v) {
  return desert_read_bigint(r, &v->bytes);
}
static desert_status wr_bigint(desert_writer *w, const value *v) {
  /* The writer needs n >= 1; an empty block is 0. */
  static const uint8_t zero = 0;
  return v->bytes.len ? desert_write_bigint(w, v->bytes.ptr, v->bytes.len)
                      : desert_write_bigint(w, &zero, 1);
}
static desert_status rd_bigdecimal(desert_reader *r, value *v) {
  return desert_read_bigdecimal(r, &v->str);
}
static desert_status wr_bigdecimal(desert_writer *w, const value *v) {
  return desert_write_bigdecimal(w, v->str.ptr, v->str.len);
}
static desert_status rd_bigdecimal_binary(desert_reader *r, value *v) {
  return desert_read_bigdecimal_binary(r, &v->bdb.scale, &v->bdb.unscaled);
}
static desert_status wr_bigdecimal_binary(desert_writer *w, const value *v) {
  static const uint8_t zero = 0;
  return v->bdb.unscaled.len ? desert_write_bigdecimal_binary(w, v->bdb.scale, v->bdb.unscaled.ptr,
                                                              v->bdb.unscaled.len)
                             : desert_write_bigdecimal_binary(w, v->bdb.scale, &zero, 1);
}
static desert_status rd_url(desert_reader *r, value *v) { return desert_read_url(r, &v->str); }
static desert_status wr_url(desert_writer *w, const value *v) {
  return desert_write_url(w, v->str.ptr, v->str.len);
}

typedef struct kind {
  const char *name;
  read_fn rd;
  write_fn wr;
} kind;

#define K(name) {#name, rd_##name, wr_##name}
static const kind kinds[] = {
    K(duration),         K(instant),          K(day_of_week),
    K(month),            K(year),             K(month_day),
    K(year_month),       K(period),           K(zone_offset),
    K(zone_id),          K(local_date),       K(local_time),
    K(local_date_time),  K(offset_time),      K(offset_date_time),
    K(zoned_date_time),  K(rust_datetime_fixed_offset), K(rust_datetime_tz),
    K(bigint),           K(bigint_i64),       K(bigdecimal),
    K(bigdecimal_binary), K(ip_addr),         K(mac_address),
    K(url)};
#define KIND_COUNT (sizeof kinds / sizeof kinds[0])

static bool leap(int32_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
static unsigned days_in(int32_t y, unsigned m) {
  static const unsigned d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap(y) ? 29 : d[m - 1];
}
static void check_date(desert_local_date d) {
  FZ_CHECK(d.year >= -999999999 && d.year <= 999999999);
  FZ_CHECK(d.month >= 1 && d.month <= 12);
  FZ_CHECK(d.day >= 1 && d.day <= days_in(d.year, d.month));
}
static void check_time(desert_local_time t) {
  FZ_CHECK(t.hour <= 23 && t.minute <= 59 && t.second <= 59 && t.nano <= 999999999u);
}

/* Range checks of docs/schema.md §11.8 on an accepted value. */
static void check_ranges(size_t k, const value *v) {
  const char *n = kinds[k].name;
  if (!strcmp(n, "duration") || !strcmp(n, "instant")) FZ_CHECK(v->dur.nanos < 1000000000u);
  if (!strcmp(n, "day_of_week")) FZ_CHECK(v->u8 >= 1 && v->u8 <= 7);
  if (!strcmp(n, "month")) FZ_CHECK(v->u8 >= 1 && v->u8 <= 12);
  if (!strcmp(n, "month_day"))
    FZ_CHECK(v->md.month >= 1 && v->md.month <= 12 && v->md.day >= 1 &&
             v->md.day <= days_in(2000, v->md.month));
  if (!strcmp(n, "year_month")) FZ_CHECK(v->ym.month >= 1 && v->ym.month <= 12);
  if (!strcmp(n, "zone_offset")) FZ_CHECK(v->i32 >= -64800 && v->i32 <= 64800);
  if (!strcmp(n, "local_date")) check_date(v->date);
  if (!strcmp(n, "local_time")) check_time(v->time);
  if (!strcmp(n, "local_date_time")) {
    check_date(v->ldt.date);
    check_time(v->ldt.time);
  }
  if (!strcmp(n, "offset_time")) {
    check_time(v->ot.time);
    FZ_CHECK(v->ot.offset_seconds >= -64800 && v->ot.offset_seconds <= 64800);
  }
  if (!strcmp(n, "offset_date_time") || !strcmp(n, "zoned_date_time")) {
    desert_local_date_time dt = !strcmp(n, "zoned_date_time") ? v->zdt.date_time : v->odt.date_time;
    int32_t off = !strcmp(n, "zoned_date_time") ? v->zdt.offset_seconds : v->odt.offset_seconds;
    check_date(dt.date);
    check_time(dt.time);
    FZ_CHECK(off >= -64800 && off <= 64800);
  }
  if (!strcmp(n, "rust_datetime_fixed_offset")) {
    check_date(v->odt.date_time.date);
    check_time(v->odt.date_time.time);
    FZ_CHECK(v->odt.offset_seconds >= -86399 && v->odt.offset_seconds <= 86399);
  }
  if (!strcmp(n, "rust_datetime_tz")) {
    check_date(v->tz.utc.date);
    check_time(v->tz.utc.time);
  }
  if (!strcmp(n, "zone_id") && !v->zone.is_region)
    FZ_CHECK(v->zone.offset_seconds >= -64800 && v->zone.offset_seconds <= 64800);
}

/* Minimal two's complement form of b (a view into b). */
static desert_bytes minimal(desert_bytes b) {
  while (b.len > 1 && ((b.ptr[0] == 0x00 && !(b.ptr[1] & 0x80)) ||
                       (b.ptr[0] == 0xff && (b.ptr[1] & 0x80)))) {
    b.ptr++;
    b.len--;
  }
  return b;
}

static void bigint_text_roundtrip(desert_bytes b) {
  if (b.len > 512) return; /* decimal conversion is quadratic */
  size_t tcap = desert_bigint_text_bound(b.len);
  char *text = malloc(tcap ? tcap : 1);
  FZ_CHECK(text != NULL);
  size_t tlen = 0;
  FZ_CHECK(desert_bigint_to_decimal(b.ptr, b.len, text, tcap, &tlen) == DESERT_OK);
  FZ_CHECK(tlen > 0 && tlen <= tcap);
  size_t bcap = desert_bigint_bytes_bound(tlen);
  uint8_t *back = malloc(bcap ? bcap : 1);
  FZ_CHECK(back != NULL);
  size_t blen = 0;
  FZ_CHECK_MSG(desert_bigint_from_decimal(text, tlen, back, bcap, &blen) == DESERT_OK,
               "decimal text %.*s not accepted back", (int)(tlen < 80 ? tlen : 80), text);
  desert_bytes want = b.len ? minimal(b) : b;
  desert_bytes got = {back, blen};
  /* 0: the empty block and the single byte 00 are the same value. */
  bool zero_want = want.len == 0 || (want.len == 1 && want.ptr[0] == 0);
  bool zero_got = got.len == 0 || (got.len == 1 && got.ptr[0] == 0);
  if (!(zero_want && zero_got))
    FZ_CHECK_MSG(want.len == got.len && memcmp(want.ptr, got.ptr, got.len) == 0,
                 "bigint -> decimal -> bigint changed the value");
  free(back);
  free(text);
}

FZ_TARGET(temporal) {
  fz_in in = {data, size};
  unsigned flags = fz_flags_from(fz_u8(&in));
  desert_options o;
  fz_options(&o, flags);
  desert_reader *r = fz_reader_new(&o);
  desert_writer *w = NULL;
  desert_reader *r2 = NULL;
  desert_options plain;
  desert_options_init(&plain);
  plain.flags = flags;
  FZ_CHECK(desert_writer_create(&plain, &w) == DESERT_OK);
  FZ_CHECK(desert_reader_create(&plain, &r2) == DESERT_OK);

  /* Items: a kind byte then the value's bytes, all in one stream. The
   * reader decodes the whole rest; kind bytes are read with read_u8. */
  fz_decode_begin(r, in.p, in.n);
  for (unsigned i = 0; i < 4096 && desert_reader_remaining(r) > 0; i++) {
    uint8_t kb;
    if (desert_read_u8(r, &kb)) break;
    size_t k = kb % KIND_COUNT;
    value v;
    memset(&v, 0, sizeof v);
    size_t before = desert_reader_offset(r);
    desert_status st = kinds[k].rd(r, &v);
    if (st) {
      size_t eo = desert_reader_error_offset(r);
      FZ_CHECK_MSG(eo >= before && eo <= in.n, "%s: %s at %zu outside [%zu, %zu]", kinds[k].name,
                   desert_status_name(st), eo, before, in.n);
      break;
    }
    check_ranges(k, &v);
    if (!strcmp(kinds[k].name, "bigint")) bigint_text_roundtrip(v.bytes);
    if (!strcmp(kinds[k].name, "bigdecimal_binary")) bigint_text_roundtrip(v.bdb.unscaled);

    desert_writer_reset(w);
    desert_status ws = kinds[k].wr(w, &v);
    FZ_CHECK_MSG(ws == DESERT_OK, "%s accepted by the reader, refused by the writer: %s",
                 kinds[k].name, desert_status_name(ws));
    size_t n1;
    const uint8_t *b1 = desert_writer_data(w, &n1);
    uint8_t *copy = malloc(n1 ? n1 : 1);
    FZ_CHECK(copy != NULL);
    memcpy(copy, b1, n1);
    value v2;
    memset(&v2, 0, sizeof v2);
    FZ_CHECK(desert_reader_begin(r2, copy, n1) == DESERT_OK);
    desert_status st2 = kinds[k].rd(r2, &v2);
    FZ_CHECK_MSG(st2 == DESERT_OK, "%s: written form not readable: %s", kinds[k].name,
                 desert_status_name(st2));
    FZ_CHECK(desert_reader_offset(r2) == n1);
    desert_writer_reset(w);
    FZ_CHECK(kinds[k].wr(w, &v2) == DESERT_OK);
    size_t n2;
    const uint8_t *b2 = desert_writer_data(w, &n2);
    FZ_CHECK_MSG(n1 == n2 && memcmp(copy, b2, n1) == 0, "%s: write(read(write(v))) != write(v)",
                 kinds[k].name);
    free(copy);
  }
  fz_decode_end(r);
  fz_reader_free(r);
  desert_reader_free(r2);
  desert_writer_free(w);
  return 0;
}
