/* test/test_types_cstruct_values.c — the value ctypes of C-struct
 * descriptors (include/desert/types.h, src/types/types_struct_values.c): char16,
 * duration, instant, BigInt (bytes and i64), BigDecimal (text and Rust
 * binary), compressed blocks (raw and zlib, from the context's options),
 * every java.time / chrono type, IP and MAC addresses and URLs. One record
 * holds a field of each, some of them also as optional record fields, as
 * Option values and inside lists; it is encoded and compared with bytes
 * built independently through the desert_write_* calls of values.h (and a
 * few hand-computed hex checks), then decoded and compared field by field.
 * Invalid values fail on encode with the values.h writer's status, hostile
 * values on decode with the values.h reader's status and offset; every
 * truncated prefix fails without leaking; allocation failures are NOMEM;
 * desert_cstruct_check accepts the new kinds and rejects bad uses.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cstruct_testlib.h"
#include "desert/types.h"
#include "test_util.h"

/* ---- helpers ------------------------------------------------------------------ */

static desert_str S(const char *t) {
  desert_str s = {t, strlen(t)};
  return s;
}

static desert_bytes B(const void *p, size_t n) {
  desert_bytes b = {p, n};
  return b;
}

static void eq_str(desert_str a, desert_str b) {
  assert_int_equal(a.len, b.len);
  if (a.len) assert_memory_equal(a.ptr, b.ptr, a.len);
}

static void eq_bytes(desert_bytes a, desert_bytes b) {
  assert_int_equal(a.len, b.len);
  if (a.len) assert_memory_equal(a.ptr, b.ptr, a.len);
}

/* Field by field: the structs have padding, which decoding need not zero. */
static void eq_date(desert_local_date a, desert_local_date b) {
  assert_int_equal(a.year, b.year);
  assert_int_equal(a.month, b.month);
  assert_int_equal(a.day, b.day);
}

static bool inside(const void *p, const uint8_t *buf, size_t n) {
  const uint8_t *q = p;
  return q >= buf && q <= buf + n;
}

/* ---- the record --------------------------------------------------------------- */

typedef struct opt_time {
  bool has;
  desert_local_time t;
} opt_time;

typedef struct vals {
  uint16_t c16;
  desert_duration dur;
  desert_duration inst;
  desert_bytes big;
  int64_t big64;
  desert_str dec;
  desert_cbigdecimal decb;
  desert_bytes comp;
  uint8_t dow;
  uint8_t month;
  int32_t year;
  desert_month_day md;
  desert_year_month ym;
  desert_period per;
  int32_t zoff;
  desert_zone_id zid;
  desert_local_date ld;
  desert_local_time lt;
  desert_local_date_time ldt;
  desert_offset_time ot;
  desert_offset_date_time odt;
  desert_zoned_date_time zdt;
  desert_offset_date_time rfo;
  desert_cdatetime_tz rtz;
  desert_ip_addr ip;
  uint8_t mac[6];
  desert_str url;
  /* optional record fields */
  bool has_odate;
  desert_local_date odate; /* Some */
  bool has_ozid;
  desert_zone_id ozid; /* None */
  bool has_obig;
  desert_bytes obig; /* Some */
  /* Option[Instant] as a value */
  bool has_oinst;
  desert_duration oinst;
  /* lists */
  desert_clist dates;     /* List[LocalDate] (LISTOF / CELEM) */
  desert_clist chars;     /* Array[Char] as char16 (legacy element form: bulk) */
  desert_clist zones;     /* List[ZoneId] (LISTOF) */
  desert_clist bigs;      /* List[BigInt] (legacy element form) */
  desert_clist opt_times; /* List[Option[LocalTime]] */
  desert_clist comps;     /* List[compressed] in the unknown-size form */
} vals;

enum { N_FIELDS = 39 };

static const desert_field_desc vals_fields[N_FIELDS] = {
    {"c16", 0},
    {"dur", 0},
    {"inst", 0},
    {"big", 0},
    {"big64", 0},
    {"dec", 0},
    {"decb", 0},
    {"comp", 0},
    {"dow", 0},
    {"month", 0},
    {"year", 0},
    {"md", 0},
    {"ym", 0},
    {"per", 0},
    {"zoff", 0},
    {"zid", 0},
    {"ld", 0},
    {"lt", 0},
    {"ldt", 0},
    {"ot", 0},
    {"odt", 0},
    {"zdt", 0},
    {"rfo", 0},
    {"rtz", 0},
    {"ip", 0},
    {"mac", 0},
    {"url", 0},
    {"odate", DESERT_FIELD_OPTIONAL},
    {"ozid", DESERT_FIELD_OPTIONAL},
    {"obig", DESERT_FIELD_OPTIONAL},
    {"oinst", 0},
    {"dates", 0},
    {"chars", 0},
    {"zones", 0},
    {"bigs", 0},
    {"opt_times", 0},
    {"comps", 0},
    {"tail_year", 0},
    {"tail_c16", 0},
};

/* The last two fields repeat two kinds at the very end of the record, so
 * truncations cut inside them too. */
typedef struct vals_box {
  vals v;
  int32_t tail_year;
  uint16_t tail_c16;
} vals_box;

static const desert_cfield vals_c[N_FIELDS] = {
    DESERT_CFIELD(vals_box, v.c16, DESERT_C_CHAR16),
    DESERT_CFIELD(vals_box, v.dur, DESERT_C_DURATION),
    DESERT_CFIELD(vals_box, v.inst, DESERT_C_INSTANT),
    DESERT_CFIELD(vals_box, v.big, DESERT_C_BIGINT),
    DESERT_CFIELD(vals_box, v.big64, DESERT_C_BIGINT_I64),
    DESERT_CFIELD(vals_box, v.dec, DESERT_C_BIGDECIMAL),
    DESERT_CFIELD(vals_box, v.decb, DESERT_C_BIGDECIMAL_BINARY),
    DESERT_CFIELD(vals_box, v.comp, DESERT_C_COMPRESSED),
    DESERT_CFIELD(vals_box, v.dow, DESERT_C_DAY_OF_WEEK),
    DESERT_CFIELD(vals_box, v.month, DESERT_C_MONTH),
    DESERT_CFIELD(vals_box, v.year, DESERT_C_YEAR),
    DESERT_CFIELD(vals_box, v.md, DESERT_C_MONTH_DAY),
    DESERT_CFIELD(vals_box, v.ym, DESERT_C_YEAR_MONTH),
    DESERT_CFIELD(vals_box, v.per, DESERT_C_PERIOD),
    DESERT_CFIELD(vals_box, v.zoff, DESERT_C_ZONE_OFFSET),
    DESERT_CFIELD(vals_box, v.zid, DESERT_C_ZONE_ID),
    DESERT_CFIELD(vals_box, v.ld, DESERT_C_LOCAL_DATE),
    DESERT_CFIELD(vals_box, v.lt, DESERT_C_LOCAL_TIME),
    DESERT_CFIELD(vals_box, v.ldt, DESERT_C_LOCAL_DATE_TIME),
    DESERT_CFIELD(vals_box, v.ot, DESERT_C_OFFSET_TIME),
    DESERT_CFIELD(vals_box, v.odt, DESERT_C_OFFSET_DATE_TIME),
    DESERT_CFIELD(vals_box, v.zdt, DESERT_C_ZONED_DATE_TIME),
    DESERT_CFIELD(vals_box, v.rfo, DESERT_C_RUST_DATETIME_FIXED_OFFSET),
    DESERT_CFIELD(vals_box, v.rtz, DESERT_C_RUST_DATETIME_TZ),
    DESERT_CFIELD(vals_box, v.ip, DESERT_C_IP_ADDR),
    DESERT_CFIELD(vals_box, v.mac, DESERT_C_MAC_ADDRESS),
    DESERT_CFIELD(vals_box, v.url, DESERT_C_URL),
    DESERT_CFIELD_OPT(vals_box, v.odate, DESERT_C_LOCAL_DATE, v.has_odate),
    DESERT_CFIELD_OPT(vals_box, v.ozid, DESERT_C_ZONE_ID, v.has_ozid),
    DESERT_CFIELD_OPT(vals_box, v.obig, DESERT_C_BIGINT, v.has_obig),
    DESERT_CFIELD_OPTION(vals_box, v.has_oinst, DESERT_CFIELD(vals_box, v.oinst, DESERT_C_INSTANT)),
    DESERT_CFIELD_LISTOF(vals_box, v.dates, desert_local_date, DESERT_CELEM(DESERT_C_LOCAL_DATE)),
    DESERT_CFIELD_LIST(vals_box, v.chars, DESERT_C_CHAR16, NULL),
    DESERT_CFIELD_LISTOF(vals_box, v.zones, desert_zone_id, DESERT_CELEM(DESERT_C_ZONE_ID)),
    DESERT_CFIELD_LIST(vals_box, v.bigs, DESERT_C_BIGINT, NULL),
    DESERT_CFIELD_LISTOF(
        vals_box, v.opt_times, opt_time,
        DESERT_CFIELD_OPTION(opt_time, has, DESERT_CFIELD(opt_time, t, DESERT_C_LOCAL_TIME))),
    DESERT_CFIELD_LIST_STREAM(vals_box, v.comps, DESERT_C_COMPRESSED, NULL),
    DESERT_CFIELD(vals_box, tail_year, DESERT_C_YEAR),
    DESERT_CFIELD(vals_box, tail_c16, DESERT_C_CHAR16),
};

static const desert_cstruct vals_desc =
    DESERT_CSTRUCT_V0(vals_box, "Values", vals_fields, vals_c, NULL);

/* Sample data (static: the views in the struct point at it). */
static const uint8_t big_bytes[] = {0x00, 0x00, 0xff, 0x01, 0x02}; /* not minimal: 00ff0102 */
static const uint8_t neg_bytes[] = {0xff, 0xff, 0x80};             /* -128, minimal 80 */
static const uint8_t unscaled[] = {0x30, 0x39};                    /* 12345 */
static const char plain[] = "hello hello hello hello compressed world";
static desert_local_date dates_arr[3] = {{2024, 2, 29}, {-999999999, 1, 1}, {1970, 12, 31}};
static uint16_t chars_arr[3] = {0x0041, 0xd800, 0xffff}; /* a lone surrogate is a Scala Char */
static desert_zone_id zones_arr[2];
static desert_bytes bigs_arr[3];
static opt_time opt_times_arr[2] = {{true, {23, 59, 59, 999999999}}, {false, {0, 0, 0, 0}}};
static desert_bytes comps_arr[2];

static void sample(vals_box *b) {
  memset(b, 0, sizeof *b);
  vals *v = &b->v;
  v->c16 = 0x00e9;
  v->dur = (desert_duration){-5, 123456789};
  v->inst = (desert_duration){1700000000, 1};
  v->big = B(big_bytes, sizeof big_bytes);
  v->big64 = INT64_MIN;
  v->dec = S("-12.3400e-5");
  v->decb.scale = -3;
  v->decb.unscaled = B(unscaled, sizeof unscaled);
  v->comp = B(plain, sizeof plain - 1);
  v->dow = 7;
  v->month = 12;
  v->year = -44;
  v->md = (desert_month_day){2, 29};
  v->ym = (desert_year_month){999999999, 1};
  v->per = (desert_period){-1, 14, INT32_MIN};
  v->zoff = -64800;
  v->zid.is_region = true;
  v->zid.region = S("Europe/Budapest");
  v->ld = (desert_local_date){2000, 2, 29};
  v->lt = (desert_local_time){12, 34, 56, 789};
  v->ldt.date = (desert_local_date){1, 1, 1};
  v->ldt.time = (desert_local_time){0, 0, 0, 0};
  v->ot.time = (desert_local_time){1, 2, 3, 4};
  v->ot.offset_seconds = 3600;
  v->odt.date_time.date = (desert_local_date){2023, 6, 30};
  v->odt.date_time.time = (desert_local_time){18, 0, 0, 500};
  v->odt.offset_seconds = 64800;
  v->zdt.date_time = v->odt.date_time;
  v->zdt.offset_seconds = 7200;
  v->zdt.zone.is_region = false;
  v->zdt.zone.offset_seconds = 7200;
  v->rfo.date_time = v->ldt;
  v->rfo.offset_seconds = -86399;
  v->rtz.utc.date = (desert_local_date){2022, 11, 6};
  v->rtz.utc.time = (desert_local_time){9, 30, 0, 0};
  v->rtz.zone = S("America/New_York");
  v->ip.is_v6 = true;
  for (int i = 0; i < 16; i++) v->ip.bytes[i] = (uint8_t)(0xf0 + i);
  static const uint8_t mac[6] = {0x00, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e};
  memcpy(v->mac, mac, 6);
  v->url = S("https://example.com/a?b=c");
  v->has_odate = true;
  v->odate = (desert_local_date){1999, 12, 31};
  v->has_ozid = false;
  v->has_obig = true;
  v->obig = B(neg_bytes, sizeof neg_bytes);
  v->has_oinst = true;
  v->oinst = (desert_duration){-1, 999999999};
  v->dates = (desert_clist){dates_arr, 3};
  v->chars = (desert_clist){chars_arr, 3};
  zones_arr[0].is_region = false;
  zones_arr[0].offset_seconds = -3600;
  zones_arr[1].is_region = true;
  zones_arr[1].region = S("UTC");
  v->zones = (desert_clist){zones_arr, 2};
  bigs_arr[0] = B(NULL, 0); /* zero */
  bigs_arr[1] = B(neg_bytes, sizeof neg_bytes);
  bigs_arr[2] = B(big_bytes + 2, 3);
  v->bigs = (desert_clist){bigs_arr, 3};
  v->opt_times = (desert_clist){opt_times_arr, 2};
  comps_arr[0] = B(NULL, 0);
  comps_arr[1] = B(plain, 5);
  v->comps = (desert_clist){comps_arr, 2};
  b->tail_year = 2025;
  b->tail_c16 = 0x20ac;
}

/* The expected bytes of a vals_box, written independently of the cstruct
 * code: the version byte, then each field through its values.h (or
 * writer.h) call; flavour: the compressed blocks' flavour. */
static void expected(desert_writer *w, const vals_box *b, desert_compression flavour) {
  const vals *v = &b->v;
  assert_int_equal(desert_write_u8(w, 0), DESERT_OK);
  assert_int_equal(desert_write_char16(w, v->c16), DESERT_OK);
  assert_int_equal(desert_write_duration(w, v->dur), DESERT_OK);
  assert_int_equal(desert_write_instant(w, v->inst), DESERT_OK);
  assert_int_equal(desert_write_bigint(w, v->big.ptr, v->big.len), DESERT_OK);
  assert_int_equal(desert_write_bigint_i64(w, v->big64), DESERT_OK);
  assert_int_equal(desert_write_bigdecimal(w, v->dec.ptr, v->dec.len), DESERT_OK);
  assert_int_equal(
      desert_write_bigdecimal_binary(w, v->decb.scale, v->decb.unscaled.ptr, v->decb.unscaled.len),
      DESERT_OK);
  assert_int_equal(desert_write_compressed(w, flavour, -1, v->comp.ptr, v->comp.len), DESERT_OK);
  assert_int_equal(desert_write_day_of_week(w, v->dow), DESERT_OK);
  assert_int_equal(desert_write_month(w, v->month), DESERT_OK);
  assert_int_equal(desert_write_year(w, v->year), DESERT_OK);
  assert_int_equal(desert_write_month_day(w, v->md), DESERT_OK);
  assert_int_equal(desert_write_year_month(w, v->ym), DESERT_OK);
  assert_int_equal(desert_write_period(w, v->per), DESERT_OK);
  assert_int_equal(desert_write_zone_offset(w, v->zoff), DESERT_OK);
  assert_int_equal(desert_write_zone_id(w, &v->zid), DESERT_OK);
  assert_int_equal(desert_write_local_date(w, v->ld), DESERT_OK);
  assert_int_equal(desert_write_local_time(w, v->lt), DESERT_OK);
  assert_int_equal(desert_write_local_date_time(w, v->ldt), DESERT_OK);
  assert_int_equal(desert_write_offset_time(w, v->ot), DESERT_OK);
  assert_int_equal(desert_write_offset_date_time(w, v->odt), DESERT_OK);
  assert_int_equal(desert_write_zoned_date_time(w, &v->zdt), DESERT_OK);
  assert_int_equal(desert_write_rust_datetime_fixed_offset(w, v->rfo), DESERT_OK);
  assert_int_equal(desert_write_rust_datetime_tz(w, v->rtz.utc, v->rtz.zone), DESERT_OK);
  assert_int_equal(desert_write_ip_addr(w, &v->ip), DESERT_OK);
  assert_int_equal(desert_write_mac_address(w, v->mac), DESERT_OK);
  assert_int_equal(desert_write_url(w, v->url.ptr, v->url.len), DESERT_OK);
  assert_int_equal(desert_write_option(w, v->has_odate), DESERT_OK);
  if (v->has_odate) assert_int_equal(desert_write_local_date(w, v->odate), DESERT_OK);
  assert_int_equal(desert_write_option(w, v->has_ozid), DESERT_OK);
  if (v->has_ozid) assert_int_equal(desert_write_zone_id(w, &v->ozid), DESERT_OK);
  assert_int_equal(desert_write_option(w, v->has_obig), DESERT_OK);
  if (v->has_obig) assert_int_equal(desert_write_bigint(w, v->obig.ptr, v->obig.len), DESERT_OK);
  assert_int_equal(desert_write_option(w, v->has_oinst), DESERT_OK);
  if (v->has_oinst) assert_int_equal(desert_write_instant(w, v->oinst), DESERT_OK);
  const desert_local_date *d = v->dates.items;
  assert_int_equal(desert_write_count(w, v->dates.count), DESERT_OK);
  for (size_t i = 0; i < v->dates.count; i++)
    assert_int_equal(desert_write_local_date(w, d[i]), DESERT_OK);
  const uint16_t *c = v->chars.items;
  assert_int_equal(desert_write_count(w, v->chars.count), DESERT_OK);
  for (size_t i = 0; i < v->chars.count; i++)
    assert_int_equal(desert_write_char16(w, c[i]), DESERT_OK);
  const desert_zone_id *z = v->zones.items;
  assert_int_equal(desert_write_count(w, v->zones.count), DESERT_OK);
  for (size_t i = 0; i < v->zones.count; i++)
    assert_int_equal(desert_write_zone_id(w, &z[i]), DESERT_OK);
  const desert_bytes *bi = v->bigs.items;
  assert_int_equal(desert_write_count(w, v->bigs.count), DESERT_OK);
  for (size_t i = 0; i < v->bigs.count; i++) {
    if (bi[i].len == 0)
      assert_int_equal(desert_write_bigint_i64(w, 0), DESERT_OK);
    else
      assert_int_equal(desert_write_bigint(w, bi[i].ptr, bi[i].len), DESERT_OK);
  }
  const opt_time *ot = v->opt_times.items;
  assert_int_equal(desert_write_count(w, v->opt_times.count), DESERT_OK);
  for (size_t i = 0; i < v->opt_times.count; i++) {
    assert_int_equal(desert_write_option(w, ot[i].has), DESERT_OK);
    if (ot[i].has) assert_int_equal(desert_write_local_time(w, ot[i].t), DESERT_OK);
  }
  const desert_bytes *cb = v->comps.items;
  assert_int_equal(desert_write_stream_begin(w), DESERT_OK);
  for (size_t i = 0; i < v->comps.count; i++) {
    assert_int_equal(desert_write_stream_item(w), DESERT_OK);
    assert_int_equal(desert_write_compressed(w, flavour, -1, cb[i].ptr, cb[i].len), DESERT_OK);
  }
  assert_int_equal(desert_write_stream_end(w), DESERT_OK);
  assert_int_equal(desert_write_year(w, b->tail_year), DESERT_OK);
  assert_int_equal(desert_write_char16(w, b->tail_c16), DESERT_OK);
}

/* Field by field; views compare by content. */
static void eq_vals(const vals_box *got, const vals_box *want) {
  const vals *a = &got->v, *e = &want->v;
  static const uint8_t zero = 0;
  assert_int_equal(a->c16, e->c16);
  assert_int_equal(a->dur.seconds, e->dur.seconds);
  assert_int_equal(a->dur.nanos, e->dur.nanos);
  assert_int_equal(a->inst.seconds, e->inst.seconds);
  assert_int_equal(a->inst.nanos, e->inst.nanos);
  eq_bytes(a->big, B(big_bytes + 1, sizeof big_bytes - 1)); /* minimal form: 00 ff 01 02 */
  assert_true(a->big64 == e->big64);
  eq_str(a->dec, e->dec);
  assert_int_equal(a->decb.scale, e->decb.scale);
  eq_bytes(a->decb.unscaled, e->decb.unscaled);
  eq_bytes(a->comp, e->comp);
  assert_int_equal(a->dow, e->dow);
  assert_int_equal(a->month, e->month);
  assert_int_equal(a->year, e->year);
  assert_int_equal(a->md.month, e->md.month);
  assert_int_equal(a->md.day, e->md.day);
  assert_int_equal(a->ym.year, e->ym.year);
  assert_int_equal(a->ym.month, e->ym.month);
  assert_int_equal(a->per.years, e->per.years);
  assert_int_equal(a->per.months, e->per.months);
  assert_int_equal(a->per.days, e->per.days);
  assert_int_equal(a->zoff, e->zoff);
  assert_true(a->zid.is_region);
  eq_str(a->zid.region, e->zid.region);
  eq_date(a->ld, e->ld);
  assert_int_equal(a->lt.hour, e->lt.hour);
  assert_int_equal(a->lt.minute, e->lt.minute);
  assert_int_equal(a->lt.second, e->lt.second);
  assert_int_equal(a->lt.nano, e->lt.nano);
  assert_int_equal(a->ldt.date.year, e->ldt.date.year);
  assert_int_equal(a->ldt.time.nano, e->ldt.time.nano);
  assert_int_equal(a->ot.time.nano, e->ot.time.nano);
  assert_int_equal(a->ot.time.hour, e->ot.time.hour);
  assert_int_equal(a->ot.offset_seconds, e->ot.offset_seconds);
  assert_int_equal(a->odt.date_time.date.month, e->odt.date_time.date.month);
  assert_int_equal(a->odt.date_time.date.day, e->odt.date_time.date.day);
  assert_int_equal(a->odt.date_time.time.nano, e->odt.date_time.time.nano);
  assert_int_equal(a->odt.offset_seconds, e->odt.offset_seconds);
  assert_int_equal(a->zdt.date_time.date.year, e->zdt.date_time.date.year);
  assert_int_equal(a->zdt.offset_seconds, e->zdt.offset_seconds);
  assert_false(a->zdt.zone.is_region);
  assert_int_equal(a->zdt.zone.offset_seconds, e->zdt.zone.offset_seconds);
  assert_int_equal(a->rfo.date_time.date.year, e->rfo.date_time.date.year);
  assert_int_equal(a->rfo.offset_seconds, e->rfo.offset_seconds);
  assert_int_equal(a->rtz.utc.date.year, e->rtz.utc.date.year);
  assert_int_equal(a->rtz.utc.date.month, e->rtz.utc.date.month);
  assert_int_equal(a->rtz.utc.time.minute, e->rtz.utc.time.minute);
  eq_str(a->rtz.zone, e->rtz.zone);
  assert_int_equal(a->ip.is_v6, e->ip.is_v6);
  assert_memory_equal(a->ip.bytes, e->ip.bytes, 16);
  assert_memory_equal(a->mac, e->mac, 6);
  eq_str(a->url, e->url);
  assert_true(a->has_odate);
  eq_date(a->odate, e->odate);
  assert_false(a->has_ozid);
  assert_true(a->has_obig);
  eq_bytes(a->obig, B(neg_bytes + 2, 1)); /* -128 minimal: 80 */
  assert_true(a->has_oinst);
  assert_int_equal(a->oinst.seconds, e->oinst.seconds);
  assert_int_equal(a->oinst.nanos, e->oinst.nanos);
  assert_int_equal(a->dates.count, e->dates.count);
  for (size_t i = 0; i < e->dates.count; i++)
    eq_date(((const desert_local_date *)a->dates.items)[i],
            ((const desert_local_date *)e->dates.items)[i]);
  assert_int_equal(a->chars.count, e->chars.count);
  assert_memory_equal(a->chars.items, e->chars.items, e->chars.count * sizeof(uint16_t));
  assert_int_equal(a->zones.count, 2);
  const desert_zone_id *z = a->zones.items;
  assert_false(z[0].is_region);
  assert_int_equal(z[0].offset_seconds, -3600);
  assert_true(z[1].is_region);
  eq_str(z[1].region, S("UTC"));
  assert_int_equal(a->bigs.count, 3);
  const desert_bytes *bi = a->bigs.items;
  eq_bytes(bi[0], B(&zero, 1)); /* 0 is written as the block 00 */
  eq_bytes(bi[1], B(neg_bytes + 2, 1));
  eq_bytes(bi[2], B(big_bytes + 2, 3));
  assert_int_equal(a->opt_times.count, 2);
  const opt_time *ot = a->opt_times.items;
  assert_true(ot[0].has);
  assert_int_equal(ot[0].t.nano, 999999999);
  assert_int_equal(ot[0].t.hour, 23);
  assert_false(ot[1].has);
  assert_int_equal(a->comps.count, 2);
  const desert_bytes *cb = a->comps.items;
  assert_int_equal(cb[0].len, 0);
  eq_bytes(cb[1], B(plain, 5));
  assert_int_equal(got->tail_year, want->tail_year);
  assert_int_equal(got->tail_c16, want->tail_c16);
}

/* Encodes the sample with the given flavour in the context options,
 * compares with the independent bytes, decodes them back. */
static void roundtrip_flavour(desert_compression flavour) {
  desert_options o;
  desert_options_init(&o);
  o.compression = flavour;
  desert_writer *w, *we;
  desert_reader *r;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  assert_int_equal(desert_writer_create(&o, &we), DESERT_OK);
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  assert_int_equal(desert_cstruct_check(&vals_desc), DESERT_OK);
  vals_box in, out;
  sample(&in);
  assert_int_equal(desert_cstruct_encode(w, &vals_desc, &in), DESERT_OK);
  size_t n, en;
  const uint8_t *got = desert_writer_data(w, &n);
  expected(we, &in, flavour);
  const uint8_t *want = desert_writer_data(we, &en);
  desert_assert_bytes_equal(want, en, got, n);
  /* A few fields by hand, so the comparison is not writer against itself:
   * version, char16 e9, duration -5 s + 123456789 ns, the instant. */
  uint8_t head[64];
  size_t hn = desert_hex_decode("00 00e9 fffffffffffffffb 075bcd15 000000006553f100 00000001"
                                " 04 00ff0102", /* BigInt: minimal block */
                                head, sizeof head);
  assert_true(hn != SIZE_MAX && hn <= n);
  desert_assert_bytes_equal(head, hn, got, hn);
  /* ... and the tail: the zlib/raw comps stream ends 00, year 2025 as
   * var_u32 e9 0f, char16 20ac. */
  uint8_t tail[8];
  size_t tn = desert_hex_decode("00 e90f 20ac", tail, sizeof tail);
  desert_assert_bytes_equal(tail, tn, got + n - tn, tn);

  uint8_t *buf = malloc(n);
  assert_non_null(buf);
  memcpy(buf, got, n);
  assert_int_equal(desert_reader_begin(r, buf, n), DESERT_OK);
  assert_int_equal(desert_cstruct_decode(r, &vals_desc, &out), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), n);
  eq_vals(&out, &in);
  /* Lifetimes: strings and BigInts are views into the input; inflated
   * blocks live in the reader's arena. */
  assert_true(inside(out.v.url.ptr, buf, n));
  assert_true(inside(out.v.dec.ptr, buf, n));
  assert_true(inside(out.v.rtz.zone.ptr, buf, n));
  assert_true(inside(out.v.zid.region.ptr, buf, n));
  assert_true(inside(out.v.big.ptr, buf, n));
  assert_true(inside(out.v.decb.unscaled.ptr, buf, n));
  assert_false(inside(out.v.comp.ptr, buf, n));
  /* decoded values re-encode byte for byte */
  desert_writer_reset(w);
  assert_int_equal(desert_cstruct_encode(w, &vals_desc, &out), DESERT_OK);
  got = desert_writer_data(w, &n);
  desert_assert_bytes_equal(want, en, got, n);
  /* Data written in one flavour does not decode as the other. */
  desert_options o2 = o;
  o2.compression =
      flavour == DESERT_COMPRESSION_RAW ? DESERT_COMPRESSION_ZLIB : DESERT_COMPRESSION_RAW;
  desert_reader *r2;
  assert_int_equal(desert_reader_create(&o2, &r2), DESERT_OK);
  assert_int_equal(desert_reader_begin(r2, buf, en), DESERT_OK);
  assert_int_not_equal(desert_cstruct_decode(r2, &vals_desc, &out), DESERT_OK);
  desert_reader_free(r2);
  free(buf);
  desert_reader_free(r);
  desert_writer_free(we);
  desert_writer_free(w);
}

static void test_roundtrip_raw(void **state) {
  (void)state;
  roundtrip_flavour(DESERT_COMPRESSION_RAW);
}

static void test_roundtrip_zlib(void **state) {
  (void)state;
  roundtrip_flavour(DESERT_COMPRESSION_ZLIB);
}

/* ---- one value at a time ---------------------------------------------------------- */

/* A slot big and aligned enough for any value ctype. */
typedef union slot {
  desert_zoned_date_time z;
  desert_cdatetime_tz tz;
  desert_cbigdecimal bd;
  desert_ip_addr ip;
  int64_t i;
  uint8_t raw[96];
} slot;

static const desert_field_desc one_field[] = {{"x", 0}};

/* A record of one field of ctype t at offset 0 of a slot (descriptors are
 * plain data: built at run time here so one helper covers every kind). */
static void one_desc(desert_ctype t, desert_cfield *cf, desert_cstruct *d) {
  memset(cf, 0, sizeof *cf);
  cf->ctype = t;
  cf->present = DESERT_CFIELD_NO_FLAG;
  memset(d, 0, sizeof *d);
  d->record.name = "One";
  d->record.fields = one_field;
  d->record.field_count = 1;
  d->cfields = cf;
  d->size = sizeof(slot);
  assert_int_equal(desert_cstruct_check(d), DESERT_OK);
}

/* The value at val (sz bytes) as ctype t must fail to encode with the
 * status `want` the values.h writer gave for it, sticky in the writer. */
static void bad_enc(desert_ctype t, const void *val, size_t sz, desert_status want) {
  assert_int_not_equal(want, DESERT_OK);
  desert_cfield cf;
  desert_cstruct d;
  one_desc(t, &cf, &d);
  slot s;
  memset(&s, 0, sizeof s);
  memcpy(&s, val, sz);
  desert_writer *w;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  desert_status st = desert_cstruct_encode(w, &d, &s);
  if (st != want)
    fail_msg("ctype %d: encode gave %s, the writer %s", (int)t, desert_status_name(st),
             desert_status_name(want));
  assert_int_equal(desert_writer_status(w), want);
  desert_writer_free(w);
}

/* `call` is the values.h writer on the same value, through a writer named w. */
#define BAD_ENC(t, val, call)                                    \
  do {                                                           \
    desert_writer *w;                                            \
    assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK); \
    desert_status want_ = (call);                                \
    desert_writer_free(w);                                       \
    bad_enc((t), &(val), sizeof(val), want_);                    \
  } while (0)

static void test_invalid_encode(void **state) {
  (void)state;
  /* (char16, period and MAC addresses have no invalid values) */
  desert_duration dur = {0, 1000000000u};
  BAD_ENC(DESERT_C_DURATION, dur, desert_write_duration(w, dur));
  BAD_ENC(DESERT_C_INSTANT, dur, desert_write_instant(w, dur));
  desert_bytes nb = {NULL, 3}; /* a length without bytes */
  BAD_ENC(DESERT_C_BIGINT, nb, desert_write_bigint(w, nb.ptr, nb.len));
  desert_cbigdecimal bd = {1, {NULL, 2}};
  BAD_ENC(DESERT_C_BIGDECIMAL_BINARY, bd,
          desert_write_bigdecimal_binary(w, bd.scale, bd.unscaled.ptr, bd.unscaled.len));
  desert_str dec = S("1.2.3");
  BAD_ENC(DESERT_C_BIGDECIMAL, dec, desert_write_bigdecimal(w, dec.ptr, dec.len));
  desert_str empty = {NULL, 0};
  BAD_ENC(DESERT_C_BIGDECIMAL, empty, desert_write_bigdecimal(w, empty.ptr, empty.len));
  desert_bytes cb = {NULL, 4};
  BAD_ENC(DESERT_C_COMPRESSED, cb,
          desert_write_compressed(w, DESERT_COMPRESSION_RAW, -1, cb.ptr, cb.len));
  uint8_t dow = 0, dow8 = 8, m = 13;
  BAD_ENC(DESERT_C_DAY_OF_WEEK, dow, desert_write_day_of_week(w, dow));
  BAD_ENC(DESERT_C_DAY_OF_WEEK, dow8, desert_write_day_of_week(w, dow8));
  BAD_ENC(DESERT_C_MONTH, m, desert_write_month(w, m));
  int32_t year = 1000000000, off = 64801;
  BAD_ENC(DESERT_C_YEAR, year, desert_write_year(w, year));
  BAD_ENC(DESERT_C_ZONE_OFFSET, off, desert_write_zone_offset(w, off));
  desert_month_day md = {2, 30};
  BAD_ENC(DESERT_C_MONTH_DAY, md, desert_write_month_day(w, md));
  desert_year_month ym = {2020, 0};
  BAD_ENC(DESERT_C_YEAR_MONTH, ym, desert_write_year_month(w, ym));
  desert_zone_id zo = {false, -64801, {NULL, 0}};
  BAD_ENC(DESERT_C_ZONE_ID, zo, desert_write_zone_id(w, &zo));
  desert_zone_id zr = {true, 0, {"\xff", 1}}; /* not UTF-8 */
  BAD_ENC(DESERT_C_ZONE_ID, zr, desert_write_zone_id(w, &zr));
  desert_local_date ld = {2023, 2, 29};
  BAD_ENC(DESERT_C_LOCAL_DATE, ld, desert_write_local_date(w, ld));
  desert_local_time lt = {24, 0, 0, 0};
  BAD_ENC(DESERT_C_LOCAL_TIME, lt, desert_write_local_time(w, lt));
  desert_local_date_time ldt = {{2024, 4, 31}, {0, 0, 0, 0}};
  BAD_ENC(DESERT_C_LOCAL_DATE_TIME, ldt, desert_write_local_date_time(w, ldt));
  desert_offset_time ot = {{0, 60, 0, 0}, 0};
  BAD_ENC(DESERT_C_OFFSET_TIME, ot, desert_write_offset_time(w, ot));
  desert_offset_date_time odt = {{{2024, 1, 1}, {0, 0, 0, 1000000000u}}, 0};
  BAD_ENC(DESERT_C_OFFSET_DATE_TIME, odt, desert_write_offset_date_time(w, odt));
  /* 86399 is a valid Rust FixedOffset but not a java ZoneOffset, and 86400
   * is neither. */
  desert_offset_date_time fo = {{{2024, 1, 1}, {0, 0, 0, 0}}, 86399};
  BAD_ENC(DESERT_C_OFFSET_DATE_TIME, fo, desert_write_offset_date_time(w, fo));
  fo.offset_seconds = 86400;
  BAD_ENC(DESERT_C_RUST_DATETIME_FIXED_OFFSET, fo, desert_write_rust_datetime_fixed_offset(w, fo));
  desert_zoned_date_time zdt;
  memset(&zdt, 0, sizeof zdt);
  zdt.date_time.date = (desert_local_date){2024, 1, 1};
  zdt.zone.is_region = true;
  zdt.zone.region = (desert_str){NULL, 5};
  BAD_ENC(DESERT_C_ZONED_DATE_TIME, zdt, desert_write_zoned_date_time(w, &zdt));
  desert_cdatetime_tz tz;
  memset(&tz, 0, sizeof tz); /* month 0 */
  BAD_ENC(DESERT_C_RUST_DATETIME_TZ, tz, desert_write_rust_datetime_tz(w, tz.utc, tz.zone));
  desert_str url = S("no-scheme");
  BAD_ENC(DESERT_C_URL, url, desert_write_url(w, url.ptr, url.len));

  /* Inside an option and a list the status is the same. */
  vals_box b;
  sample(&b);
  b.v.oinst.nanos = 1000000000u;
  desert_writer *w;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_cstruct_encode(w, &vals_desc, &b), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  sample(&b);
  desert_local_date bad_dates[1] = {{2023, 2, 29}};
  b.v.dates = (desert_clist){bad_dates, 1};
  assert_int_equal(desert_cstruct_encode(w, &vals_desc, &b), DESERT_E_ARGUMENT);
  desert_writer_free(w);
}

/* Body bytes (after the record's version byte) that the values.h reader
 * rejects: the cstruct decode fails with its status, one byte later. */
static void bad_dec(desert_ctype t, const char *hex, desert_status (*direct)(desert_reader *),
                    desert_status expect) {
  uint8_t body[64], rec[65];
  size_t n = desert_hex_decode(hex, body, sizeof body);
  assert_true(n != SIZE_MAX);
  desert_reader *r;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  assert_int_equal(desert_reader_begin(r, body, n), DESERT_OK);
  desert_status want = direct(r);
  if (want != expect)
    fail_msg("%s: the reader gave %s, not %s", hex, desert_status_name(want),
             desert_status_name(expect));
  size_t at = desert_reader_error_offset(r);
  rec[0] = 0x00;
  memcpy(rec + 1, body, n);
  desert_cfield cf;
  desert_cstruct d;
  one_desc(t, &cf, &d);
  slot s;
  assert_int_equal(desert_reader_begin(r, rec, n + 1), DESERT_OK);
  desert_status st = desert_cstruct_decode(r, &d, &s);
  if (st != want)
    fail_msg("ctype %d, %s: decode gave %s, the reader %s", (int)t, hex, desert_status_name(st),
             desert_status_name(want));
  assert_int_equal(desert_reader_error_offset(r), at + 1);
  desert_reader_free(r);
}

/* Direct reader calls with a throwaway output. */
static desert_status rd_duration(desert_reader *r) {
  desert_duration v;
  return desert_read_duration(r, &v);
}
static desert_status rd_bigint_i64(desert_reader *r) {
  int64_t v;
  return desert_read_bigint_i64(r, &v);
}
static desert_status rd_bigdecimal(desert_reader *r) {
  desert_str v;
  return desert_read_bigdecimal(r, &v);
}
static desert_status rd_compressed_raw(desert_reader *r) {
  desert_bytes v;
  return desert_read_compressed(r, DESERT_COMPRESSION_RAW, &v);
}
static desert_status rd_dow(desert_reader *r) {
  uint8_t v;
  return desert_read_day_of_week(r, &v);
}
static desert_status rd_month(desert_reader *r) {
  uint8_t v;
  return desert_read_month(r, &v);
}
static desert_status rd_month_day(desert_reader *r) {
  desert_month_day v;
  return desert_read_month_day(r, &v);
}
static desert_status rd_zone_id(desert_reader *r) {
  desert_zone_id v;
  return desert_read_zone_id(r, &v);
}
static desert_status rd_local_date(desert_reader *r) {
  desert_local_date v;
  return desert_read_local_date(r, &v);
}
static desert_status rd_local_time(desert_reader *r) {
  desert_local_time v;
  return desert_read_local_time(r, &v);
}
static desert_status rd_offset_time(desert_reader *r) {
  desert_offset_time v;
  return desert_read_offset_time(r, &v);
}
static desert_status rd_zoned(desert_reader *r) {
  desert_zoned_date_time v;
  return desert_read_zoned_date_time(r, &v);
}
static desert_status rd_fixed(desert_reader *r) {
  desert_offset_date_time v;
  return desert_read_rust_datetime_fixed_offset(r, &v);
}
static desert_status rd_tz(desert_reader *r) {
  desert_local_date_time v;
  desert_str z;
  return desert_read_rust_datetime_tz(r, &v, &z);
}
static desert_status rd_ip(desert_reader *r) {
  desert_ip_addr v;
  return desert_read_ip_addr(r, &v);
}
static desert_status rd_url(desert_reader *r) {
  desert_str v;
  return desert_read_url(r, &v);
}

static void test_invalid_decode(void **state) {
  (void)state;
  /* duration: seconds carry past i64 */
  bad_dec(DESERT_C_DURATION, "7fffffffffffffff ffffffff", rd_duration, DESERT_E_INVALID_VALUE);
  /* a BigInt of 9 significant bytes does not fit int64_t */
  bad_dec(DESERT_C_BIGINT_I64, "09 010000000000000000", rd_bigint_i64, DESERT_E_INVALID_VALUE);
  bad_dec(DESERT_C_BIGDECIMAL, "06 312e2e", rd_bigdecimal, DESERT_E_INVALID_VALUE); /* "1.." */
  bad_dec(DESERT_C_COMPRESSED, "0a 04 ffffffff", rd_compressed_raw, DESERT_E_DECOMPRESSION);
  bad_dec(DESERT_C_DAY_OF_WEEK, "08", rd_dow, DESERT_E_INVALID_VALUE);
  bad_dec(DESERT_C_MONTH, "00", rd_month, DESERT_E_INVALID_VALUE);
  bad_dec(DESERT_C_MONTH_DAY, "02 1e", rd_month_day, DESERT_E_INVALID_VALUE);
  bad_dec(DESERT_C_ZONE_ID, "02", rd_zone_id, DESERT_E_INVALID_CONSTRUCTOR_ID);
  bad_dec(DESERT_C_LOCAL_DATE, "e70f 02 1e", rd_local_date,
          DESERT_E_INVALID_VALUE); /* 2023-02-30 */
  bad_dec(DESERT_C_LOCAL_TIME, "17 3c 00 00", rd_local_time,
          DESERT_E_INVALID_VALUE); /* minute 60 */
  bad_dec(DESERT_C_OFFSET_TIME, "00 00 00 00 c2f407", rd_offset_time,
          DESERT_E_INVALID_VALUE); /* offset 64801 */
  bad_dec(DESERT_C_ZONED_DATE_TIME, "e70f 01 01 00 00 00 00 00 05", rd_zoned,
          DESERT_E_INVALID_CONSTRUCTOR_ID);
  bad_dec(DESERT_C_RUST_DATETIME_FIXED_OFFSET, "e70f 01 01 00 00 00 00 01 00", rd_fixed,
          DESERT_E_INVALID_VALUE);
  bad_dec(DESERT_C_RUST_DATETIME_TZ, "e70f 01 01 00 00 00 00 00 00", rd_tz, DESERT_E_INVALID_VALUE);
  bad_dec(DESERT_C_IP_ADDR, "02 00000000", rd_ip, DESERT_E_INVALID_CONSTRUCTOR_ID);
  bad_dec(DESERT_C_URL, "0a 6e6f706521", rd_url, DESERT_E_INVALID_VALUE); /* "nope!" */
}

/* ---- truncation and allocation failures ---------------------------------------------- */

static size_t sample_bytes(uint8_t *out, size_t cap) {
  vals_box b;
  sample(&b);
  desert_writer *w;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_cstruct_encode(w, &vals_desc, &b), DESERT_OK);
  size_t n;
  const uint8_t *d = desert_writer_data(w, &n);
  assert_true(n <= cap);
  memcpy(out, d, n);
  desert_writer_free(w);
  return n;
}

static void test_truncation(void **state) {
  (void)state;
  uint8_t buf[2048];
  size_t n = sample_bytes(buf, sizeof buf);
  vals_box m;
  desert_test_cstruct_hostile(&vals_desc, buf, n, &m);
  /* the writer side: allocation failures while encoding are NOMEM */
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options o;
  desert_options_init(&o);
  o.allocator = ca.allocator;
  vals_box b;
  sample(&b);
  for (size_t k = 0;; k++) {
    desert_counting_allocator_fail_after(&ca, SIZE_MAX);
    desert_writer *w = NULL;
    desert_counting_allocator_fail_after(&ca, k);
    if (desert_writer_create(&o, &w)) {
      assert_int_equal(ca.live_blocks, 0);
      continue;
    }
    desert_status st = desert_cstruct_encode(w, &vals_desc, &b);
    desert_counting_allocator_fail_after(&ca, SIZE_MAX);
    if (st == DESERT_OK) {
      size_t wn;
      const uint8_t *d = desert_writer_data(w, &wn);
      desert_assert_bytes_equal(buf, n, d, wn);
      desert_writer_free(w);
      assert_int_equal(ca.live_blocks, 0);
      break;
    }
    assert_int_equal(st, DESERT_E_NOMEM);
    desert_writer_free(w);
    assert_int_equal(ca.live_blocks, 0);
    assert_true(k < 1000);
  }
}

/* ---- desert_cstruct_check ------------------------------------------------------------------ */

typedef struct small_s {
  bool flag;
  int32_t x;
  desert_clist l;
} small_s;

#define BAD1(name, ...)                                  \
  static const desert_cfield name##_c[] = {__VA_ARGS__}; \
  static const desert_cstruct name = DESERT_CSTRUCT_V0(small_s, "Bad", one_field, name##_c, NULL)

/* value structs larger than the room left at their offset */
BAD1(bad_zdt_offset, {DESERT_C_ZONED_DATE_TIME, offsetof(small_s, x), DESERT_CFIELD_NO_FLAG,
                      (desert_ctype)0, NULL, false, NULL, 0, NULL});
BAD1(bad_mac_offset, {DESERT_C_MAC_ADDRESS, sizeof(small_s) - 5, DESERT_CFIELD_NO_FLAG,
                      (desert_ctype)0, NULL, false, NULL, 0, NULL});
BAD1(bad_tz_offset, {DESERT_C_RUST_DATETIME_TZ, sizeof(small_s), DESERT_CFIELD_NO_FLAG,
                     (desert_ctype)0, NULL, false, NULL, 0, NULL});
/* a list element slot too small for its value */
BAD1(bad_slot, {DESERT_C_LIST, offsetof(small_s, l), DESERT_CFIELD_NO_FLAG, (desert_ctype)0, NULL,
                false, (const desert_cfield[]){DESERT_CELEM(DESERT_C_LOCAL_DATE_TIME)},
                sizeof(desert_local_date), NULL});
/* past the last kind */
BAD1(bad_kind, {(desert_ctype)(DESERT_C_URL + 1), 0, DESERT_CFIELD_NO_FLAG, (desert_ctype)0, NULL,
                false, NULL, 0, NULL});
/* an Option of a value needs its flag */
BAD1(bad_opt, {DESERT_C_OPTION, 0, DESERT_CFIELD_NO_FLAG, (desert_ctype)0, NULL, false,
               (const desert_cfield[]){DESERT_CFIELD(small_s, x, DESERT_C_YEAR)}, 0, NULL});
/* an optional record field of a value kind without a flag */
static const desert_field_desc one_opt_field[] = {{"x", DESERT_FIELD_OPTIONAL}};
static const desert_cfield bad_optfield_c[] = {DESERT_CFIELD(small_s, x, DESERT_C_ZONE_OFFSET)};
static const desert_cstruct bad_optfield =
    DESERT_CSTRUCT_V0(small_s, "Bad", one_opt_field, bad_optfield_c, NULL);

/* fine: the same kinds where they fit, also as list elements */
static const desert_cfield good_c[] = {DESERT_CFIELD(small_s, x, DESERT_C_ZONE_OFFSET)};
static const desert_cstruct good = DESERT_CSTRUCT_V0(small_s, "Good", one_field, good_c, NULL);
static const desert_cfield good_list_c[] = {
    DESERT_CFIELD_LIST(small_s, l, DESERT_C_ZONED_DATE_TIME, NULL)};
static const desert_cstruct good_list =
    DESERT_CSTRUCT_V0(small_s, "Good", one_field, good_list_c, NULL);
static const desert_cfield good_opt_c[] = {DESERT_CFIELD_OPT(small_s, x, DESERT_C_YEAR, flag)};
static const desert_cstruct good_opt =
    DESERT_CSTRUCT_V0(small_s, "Good", one_opt_field, good_opt_c, NULL);

static void test_check(void **state) {
  (void)state;
  const desert_cstruct *bad[] = {&bad_zdt_offset, &bad_mac_offset, &bad_tz_offset, &bad_slot,
                                 &bad_kind,       &bad_opt,        &bad_optfield};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (desert_cstruct_check(bad[i]) != DESERT_E_ARGUMENT)
      fail_msg("bad descriptor %zu accepted", i);
  }
  assert_int_equal(desert_cstruct_check(&good), DESERT_OK);
  assert_int_equal(desert_cstruct_check(&good_list), DESERT_OK);
  assert_int_equal(desert_cstruct_check(&good_opt), DESERT_OK);
  assert_int_equal(desert_cstruct_check(&vals_desc), DESERT_OK);
  /* every value kind on its own */
  for (int t = DESERT_C_CHAR16; t <= DESERT_C_URL; t++) {
    desert_cfield cf;
    desert_cstruct d;
    one_desc((desert_ctype)t, &cf, &d);
    /* ... and not in a struct without room for it */
    desert_cfield cf2 = cf;
    desert_cstruct d2 = d;
    d2.cfields = &cf2;
    d2.size = 0;
    assert_int_equal(desert_cstruct_check(&d2), DESERT_E_ARGUMENT);
  }
  /* An unknown kind fails the codecs too, not only the check. */
  small_s s;
  memset(&s, 0, sizeof s);
  desert_writer *w;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_cstruct_encode(w, &bad_kind, &s), DESERT_E_ARGUMENT);
  desert_writer_free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roundtrip_raw),  cmocka_unit_test(test_roundtrip_zlib),
      cmocka_unit_test(test_invalid_encode), cmocka_unit_test(test_invalid_decode),
      cmocka_unit_test(test_truncation),     cmocka_unit_test(test_check),
  };
  return cmocka_run_group_tests_name("types_cstruct_values", tests, NULL, NULL);
}
