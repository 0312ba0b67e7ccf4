/* src/types/types_encode.c — the generic encoder: a value tree under a desert_type
 * into bytes through the public writer, value, record and enum calls. Every
 * value is checked against its type first (kind, range, constraints): a
 * mismatch is DESERT_E_ARGUMENT with the value path; failures of the writer
 * keep their own status. Any failure is also recorded in the writer.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>

#include "types/types_internal.h"
#include "core/writer_internal.h"

static desert_status enc(desert_types_ctx *c, const desert_type *t, const desert_value *v);

/* The writer's (sticky) failure, with the current path. */
static desert_status wnote(desert_types_ctx *c) {
  desert_status st = desert_writer_status(c->w);
  return desert_types_note(c, st ? st : DESERT_E_STATE);
}

#define BAD(...) desert_types_fail(c, DESERT_E_ARGUMENT, __VA_ARGS__)

static const char *kind_text(desert_value_kind k) {
  static const char *const names[] = {"null",   "bool",  "int",    "uint", "float", "char",
                                      "string", "bytes", "bigint", "seq",  "some",  "alt"};
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* Integer value of v within [lo, hi] (signed view). */
static bool get_int(const desert_value *v, int64_t lo, int64_t hi, int64_t *out) {
  if (v->kind == DESERT_VALUE_INT) {
    if (v->as.i < lo || v->as.i > hi) return false;
    *out = v->as.i;
    return true;
  }
  if (v->kind == DESERT_VALUE_UINT) {
    if (v->as.u > (uint64_t)INT64_MAX || (int64_t)v->as.u < lo || (int64_t)v->as.u > hi)
      return false;
    *out = (int64_t)v->as.u;
    return true;
  }
  return false;
}

static bool get_uint(const desert_value *v, uint64_t hi, uint64_t *out) {
  if (v->kind == DESERT_VALUE_UINT) {
    if (v->as.u > hi) return false;
    *out = v->as.u;
    return true;
  }
  if (v->kind == DESERT_VALUE_INT) {
    if (v->as.i < 0 || (uint64_t)v->as.i > hi) return false;
    *out = (uint64_t)v->as.i;
    return true;
  }
  return false;
}

/* The n INT components of a fixed-layout value. */
static desert_status comps(desert_types_ctx *c, const desert_type *t, const desert_value *v,
                           size_t n, int64_t *out) {
  if (v->kind != DESERT_VALUE_SEQ || v->as.seq.count != n)
    return BAD("%s needs %zu components", desert_type_kind_name(t->kind), n);
  for (size_t i = 0; i < n; i++) {
    int64_t x;
    const desert_value *e = &v->as.seq.items[i];
    if (e->kind == DESERT_VALUE_ALT || e->kind == DESERT_VALUE_STRING) continue; /* zones */
    if (!get_int(e, INT64_MIN, INT64_MAX, &x))
      return BAD("%s component %zu is not an integer", desert_type_kind_name(t->kind), i);
    out[i] = x;
  }
  return DESERT_OK;
}

static bool fits_u8(int64_t x) { return x >= 0 && x <= 255; }
static bool fits_i32(int64_t x) { return x >= INT32_MIN && x <= INT32_MAX; }

static desert_status mk_date(desert_types_ctx *c, const int64_t *x, desert_local_date *d) {
  if (!fits_i32(x[0]) || !fits_u8(x[1]) || !fits_u8(x[2])) return BAD("date out of range");
  d->year = (int32_t)x[0];
  d->month = (uint8_t)x[1];
  d->day = (uint8_t)x[2];
  return DESERT_OK;
}
static desert_status mk_time(desert_types_ctx *c, const int64_t *x, desert_local_time *t) {
  if (!fits_u8(x[0]) || !fits_u8(x[1]) || !fits_u8(x[2]) || x[3] < 0 || x[3] > UINT32_MAX)
    return BAD("time out of range");
  t->hour = (uint8_t)x[0];
  t->minute = (uint8_t)x[1];
  t->second = (uint8_t)x[2];
  t->nano = (uint32_t)x[3];
  return DESERT_OK;
}

static desert_status mk_zone(desert_types_ctx *c, const desert_value *v, desert_zone_id *z) {
  memset(z, 0, sizeof *z);
  if (v->kind != DESERT_VALUE_ALT || v->index > 1 || !v->as.child)
    return BAD("a zone id is an offset or a region");
  const desert_value *ch = v->as.child;
  if (v->index == 0) {
    int64_t off;
    if (!get_int(ch, INT32_MIN, INT32_MAX, &off)) return BAD("zone offset out of range");
    z->offset_seconds = (int32_t)off;
  } else {
    if (ch->kind != DESERT_VALUE_STRING) return BAD("zone region must be a string");
    z->is_region = true;
    z->region.ptr = ch->as.str.ptr;
    z->region.len = ch->as.str.len;
  }
  return DESERT_OK;
}

/* A writer call of the values layer: its DESERT_E_ARGUMENT means the value is
 * out of its domain. */
static desert_status wcall(desert_types_ctx *c, desert_status st) {
  if (st == DESERT_OK) return DESERT_OK;
  return desert_types_note(c, st);
}

static desert_status enc_builtin(desert_types_ctx *c, const desert_type *t, const desert_value *v) {
  desert_writer *w = c->w;
  int64_t i;
  uint64_t u;
  switch (t->kind) {
  case DESERT_TYPE_BOOL:
    if (v->kind != DESERT_VALUE_BOOL) return BAD("expected a bool, got %s", kind_text(v->kind));
    return wcall(c, desert_write_bool(w, v->as.b));
  case DESERT_TYPE_I8:
    if (!get_int(v, INT8_MIN, INT8_MAX, &i)) return BAD("expected an i8");
    return wcall(c, desert_write_i8(w, (int8_t)i));
  case DESERT_TYPE_I16:
    if (!get_int(v, INT16_MIN, INT16_MAX, &i)) return BAD("expected an i16");
    return wcall(c, desert_write_i16(w, (int16_t)i));
  case DESERT_TYPE_I32:
    if (!get_int(v, INT32_MIN, INT32_MAX, &i)) return BAD("expected an i32");
    return wcall(c, desert_write_i32(w, (int32_t)i));
  case DESERT_TYPE_I64:
    if (!get_int(v, INT64_MIN, INT64_MAX, &i)) return BAD("expected an i64");
    return wcall(c, desert_write_i64(w, i));
  case DESERT_TYPE_U8:
    if (!get_uint(v, UINT8_MAX, &u)) return BAD("expected a u8");
    return wcall(c, desert_write_u8(w, (uint8_t)u));
  case DESERT_TYPE_U16:
    if (!get_uint(v, UINT16_MAX, &u)) return BAD("expected a u16");
    return wcall(c, desert_write_u16(w, (uint16_t)u));
  case DESERT_TYPE_U32:
    if (!get_uint(v, UINT32_MAX, &u)) return BAD("expected a u32");
    return wcall(c, desert_write_u32(w, (uint32_t)u));
  case DESERT_TYPE_U64:
    if (!get_uint(v, UINT64_MAX, &u)) return BAD("expected a u64");
    return wcall(c, desert_write_u64(w, u));
  case DESERT_TYPE_F32:
    if (v->kind != DESERT_VALUE_FLOAT || v->as.bits > UINT32_MAX) return BAD("expected an f32");
    return wcall(c, desert_write_f32_bits(w, (uint32_t)v->as.bits));
  case DESERT_TYPE_F64:
    if (v->kind != DESERT_VALUE_FLOAT) return BAD("expected an f64");
    return wcall(c, desert_write_f64_bits(w, v->as.bits));
  case DESERT_TYPE_UNIT:
    if (v->kind != DESERT_VALUE_NULL) return BAD("unit is null");
    return DESERT_OK;
  case DESERT_TYPE_CHAR:
  case DESERT_TYPE_CHAR16: {
    if (v->kind != DESERT_VALUE_CHAR) return BAD("expected a char");
    uint32_t cp = v->as.cp;
    if ((cp >= 0xD800u && cp <= 0xDFFFu) || cp > 0x10FFFFu)
      return BAD("U+%04X is not a Unicode scalar value", (unsigned)cp);
    if (t->kind == DESERT_TYPE_CHAR) return wcall(c, desert_write_char(w, cp));
    if (cp > 0xFFFFu)
      return desert_types_fail(c, DESERT_E_UNSUPPORTED_CHAR, "U+%04X", (unsigned)cp);
    return wcall(c, desert_write_char16(w, (uint16_t)cp));
  }
  case DESERT_TYPE_STRING:
    if (v->kind != DESERT_VALUE_STRING) return BAD("expected a string");
    return wcall(c, desert_write_string(w, v->as.str.ptr, v->as.str.len));
  case DESERT_TYPE_DEDUP_STRING:
    if (v->kind != DESERT_VALUE_STRING) return BAD("expected a string");
    return wcall(c, desert_write_dedup_string(w, v->as.str.ptr, v->as.str.len));
  case DESERT_TYPE_BIGDECIMAL:
    if (v->kind != DESERT_VALUE_STRING) return BAD("expected a decimal string");
    return wcall(c, desert_write_bigdecimal(w, v->as.str.ptr, v->as.str.len));
  case DESERT_TYPE_VAR_U32:
    if (!get_uint(v, UINT32_MAX, &u)) return BAD("expected a var_u32");
    return wcall(c, desert_write_var_u32(w, (uint32_t)u));
  case DESERT_TYPE_VAR_I32:
    if (!get_int(v, INT32_MIN, INT32_MAX, &i)) return BAD("expected a var_i32");
    return wcall(c, desert_write_var_i32(w, (int32_t)i));
  case DESERT_TYPE_BYTES:
    if (v->kind != DESERT_VALUE_BYTES) return BAD("expected bytes");
    if (t->u.bytes.non_empty && v->as.str.len == 0) return BAD("empty bytes for a non-empty type");
    if (t->u.bytes.has_length && v->as.str.len != t->u.bytes.length)
      return BAD("%zu bytes, expected exactly %u", v->as.str.len, (unsigned)t->u.bytes.length);
    return wcall(c, desert_write_bytes(w, v->as.str.ptr, v->as.str.len));
  case DESERT_TYPE_UUID:
    if (v->kind != DESERT_VALUE_BYTES || v->as.str.len != 16) return BAD("expected 16 uuid bytes");
    return wcall(c, desert_write_uuid(w, (const uint8_t *)v->as.str.ptr));
  case DESERT_TYPE_DURATION:
  case DESERT_TYPE_INSTANT: {
    int64_t x[2];
    if (comps(c, t, v, 2, x)) return DESERT_E_ARGUMENT;
    if (x[1] < 0 || x[1] > 999999999) return BAD("nanos out of range");
    desert_duration d = {x[0], (uint32_t)x[1]};
    return wcall(c, t->kind == DESERT_TYPE_DURATION ? desert_write_duration(w, d)
                                                    : desert_write_instant(w, d));
  }
  case DESERT_TYPE_BIGINT:
    if (v->kind != DESERT_VALUE_BIGINT) return BAD("expected a bigint");
    if (v->as.str.len == 0) return wcall(c, desert_write_bigint_i64(w, 0));
    return wcall(c, desert_write_bigint(w, (const uint8_t *)v->as.str.ptr, v->as.str.len));
  case DESERT_TYPE_BIGDECIMAL_BINARY: {
    if (v->kind != DESERT_VALUE_SEQ || v->as.seq.count != 2 ||
        v->as.seq.items[0].kind != DESERT_VALUE_BIGINT ||
        !get_int(&v->as.seq.items[1], INT64_MIN, INT64_MAX, &i))
      return BAD("expected [unscaled, scale]");
    const desert_value *un = &v->as.seq.items[0];
    if (un->as.str.len == 0) {
      static const uint8_t zero = 0;
      return wcall(c, desert_write_bigdecimal_binary(w, i, &zero, 1));
    }
    return wcall(
        c, desert_write_bigdecimal_binary(w, i, (const uint8_t *)un->as.str.ptr, un->as.str.len));
  }
  case DESERT_TYPE_COMPRESSED: {
    if (v->kind != DESERT_VALUE_BYTES) return BAD("expected bytes");
    int fl = t->u.compressed.flavour;
    desert_compression flavour =
        fl < 0 ? desert_writer_options(w)->compression : (desert_compression)fl;
    return wcall(c, desert_write_compressed(w, flavour, t->u.compressed.level, v->as.str.ptr,
                                            v->as.str.len));
  }
  case DESERT_TYPE_DAY_OF_WEEK:
    if (!get_int(v, 1, 7, &i)) return BAD("day of week out of range");
    return wcall(c, desert_write_day_of_week(w, (uint8_t)i));
  case DESERT_TYPE_MONTH:
    if (!get_int(v, 1, 12, &i)) return BAD("month out of range");
    return wcall(c, desert_write_month(w, (uint8_t)i));
  case DESERT_TYPE_YEAR:
    if (!get_int(v, INT32_MIN, INT32_MAX, &i)) return BAD("year out of range");
    return wcall(c, desert_write_year(w, (int32_t)i));
  case DESERT_TYPE_ZONE_OFFSET:
    if (!get_int(v, INT32_MIN, INT32_MAX, &i)) return BAD("offset out of range");
    return wcall(c, desert_write_zone_offset(w, (int32_t)i));
  case DESERT_TYPE_MONTH_DAY: {
    int64_t x[2];
    if (comps(c, t, v, 2, x)) return DESERT_E_ARGUMENT;
    if (!fits_u8(x[0]) || !fits_u8(x[1])) return BAD("month_day out of range");
    desert_month_day md = {(uint8_t)x[0], (uint8_t)x[1]};
    return wcall(c, desert_write_month_day(w, md));
  }
  case DESERT_TYPE_YEAR_MONTH: {
    int64_t x[2];
    if (comps(c, t, v, 2, x)) return DESERT_E_ARGUMENT;
    if (!fits_i32(x[0]) || !fits_u8(x[1])) return BAD("year_month out of range");
    desert_year_month ym = {(int32_t)x[0], (uint8_t)x[1]};
    return wcall(c, desert_write_year_month(w, ym));
  }
  case DESERT_TYPE_PERIOD: {
    int64_t x[3];
    if (comps(c, t, v, 3, x)) return DESERT_E_ARGUMENT;
    if (!fits_i32(x[0]) || !fits_i32(x[1]) || !fits_i32(x[2])) return BAD("period out of range");
    desert_period p = {(int32_t)x[0], (int32_t)x[1], (int32_t)x[2]};
    return wcall(c, desert_write_period(w, p));
  }
  case DESERT_TYPE_ZONE_ID: {
    desert_zone_id z;
    if (mk_zone(c, v, &z)) return DESERT_E_ARGUMENT;
    return wcall(c, desert_write_zone_id(w, &z));
  }
  case DESERT_TYPE_LOCAL_DATE: {
    int64_t x[3];
    desert_local_date d;
    if (comps(c, t, v, 3, x) || mk_date(c, x, &d)) return DESERT_E_ARGUMENT;
    return wcall(c, desert_write_local_date(w, d));
  }
  case DESERT_TYPE_LOCAL_TIME: {
    int64_t x[4];
    desert_local_time tm;
    if (comps(c, t, v, 4, x) || mk_time(c, x, &tm)) return DESERT_E_ARGUMENT;
    return wcall(c, desert_write_local_time(w, tm));
  }
  case DESERT_TYPE_LOCAL_DATE_TIME: {
    int64_t x[7];
    desert_local_date_time dt;
    if (comps(c, t, v, 7, x) || mk_date(c, x, &dt.date) || mk_time(c, x + 3, &dt.time))
      return DESERT_E_ARGUMENT;
    return wcall(c, desert_write_local_date_time(w, dt));
  }
  case DESERT_TYPE_OFFSET_TIME: {
    int64_t x[5];
    desert_offset_time ot;
    if (comps(c, t, v, 5, x) || mk_time(c, x, &ot.time)) return DESERT_E_ARGUMENT;
    if (!fits_i32(x[4])) return BAD("offset out of range");
    ot.offset_seconds = (int32_t)x[4];
    return wcall(c, desert_write_offset_time(w, ot));
  }
  case DESERT_TYPE_OFFSET_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: {
    int64_t x[8];
    desert_offset_date_time odt;
    if (comps(c, t, v, 8, x) || mk_date(c, x, &odt.date_time.date) ||
        mk_time(c, x + 3, &odt.date_time.time))
      return DESERT_E_ARGUMENT;
    if (!fits_i32(x[7])) return BAD("offset out of range");
    odt.offset_seconds = (int32_t)x[7];
    return wcall(c, t->kind == DESERT_TYPE_OFFSET_DATE_TIME
                        ? desert_write_offset_date_time(w, odt)
                        : desert_write_rust_datetime_fixed_offset(w, odt));
  }
  case DESERT_TYPE_ZONED_DATE_TIME: {
    int64_t x[9];
    desert_zoned_date_time z;
    if (comps(c, t, v, 9, x) || mk_date(c, x, &z.date_time.date) ||
        mk_time(c, x + 3, &z.date_time.time) || mk_zone(c, &v->as.seq.items[8], &z.zone))
      return DESERT_E_ARGUMENT;
    if (!fits_i32(x[7])) return BAD("offset out of range");
    z.offset_seconds = (int32_t)x[7];
    return wcall(c, desert_write_zoned_date_time(w, &z));
  }
  case DESERT_TYPE_RUST_DATETIME_TZ: {
    int64_t x[8];
    desert_local_date_time dt;
    if (comps(c, t, v, 8, x) || mk_date(c, x, &dt.date) || mk_time(c, x + 3, &dt.time))
      return DESERT_E_ARGUMENT;
    const desert_value *zv = &v->as.seq.items[7];
    if (zv->kind != DESERT_VALUE_STRING) return BAD("zone must be a string");
    desert_str zone = {zv->as.str.ptr, zv->as.str.len};
    return wcall(c, desert_write_rust_datetime_tz(w, dt, zone));
  }
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return BAD("not a built-in type");
}

/* ---- composites ---------------------------------------------------------------------- */

static desert_status enc_tuple_like(desert_types_ctx *c, const desert_types_record_impl *im,
                                    const desert_type *const *types, const desert_value *v) {
  const size_t n = im->desc.field_count;
  if (v->kind != DESERT_VALUE_SEQ || v->as.seq.count != n) return BAD("expected %zu elements", n);
  desert_record_writer rw;
  if (desert_types_write_begin(c->w, im, &rw)) return wnote(c);
  for (size_t i = 0; i < n; i++) {
    desert_types_push_index(c, i);
    if (desert_record_write_field(&rw, i)) return wnote(c);
    desert_status st = enc(c, types[i], &v->as.seq.items[i]);
    if (st) return st;
    desert_types_pop(c);
  }
  if (desert_record_write_end(&rw)) return wnote(c);
  return DESERT_OK;
}

static desert_status enc_record(desert_types_ctx *c, const desert_type *t, const desert_value *v) {
  const desert_types_record_impl *im = t->impl_;
  const size_t n = t->u.record.field_count;
  if (v->kind != DESERT_VALUE_SEQ || v->as.seq.count != n)
    return BAD("a %s value has %zu fields", im->desc.name, n);
  desert_record_writer rw;
  if (desert_types_write_begin(c->w, im, &rw)) return wnote(c);
  for (size_t i = 0; i < n; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    if (f->flags & DESERT_FIELD_TRANSIENT) continue;
    const desert_value *fv = &v->as.seq.items[i];
    desert_types_push_name(c, f->name);
    desert_status st;
    const bool some = fv->kind == DESERT_VALUE_SOME && fv->as.child;
    if ((f->flags & DESERT_FIELD_OPTIONAL) && (some || fv->kind == DESERT_VALUE_NULL)) {
      /* the tag with the field: the record writer's fast path, which an
       * optional field started without its tag leaves for its check */
      if (desert_record_write_field_option(&rw, i, some)) return wnote(c);
      st = some ? enc(c, f->type, fv->as.child) : DESERT_OK;
    } else {
      if (desert_record_write_field(&rw, i)) return wnote(c);
      st = f->flags & DESERT_FIELD_OPTIONAL ? BAD("an optional field holds null or some")
                                            : enc(c, f->type, fv);
    }
    if (st) return st;
    desert_types_pop(c);
  }
  if (desert_record_write_end(&rw)) return wnote(c);
  return DESERT_OK;
}

static desert_status enc_enum(desert_types_ctx *c, const desert_type *t, const desert_value *v) {
  const desert_types_enum_impl *im = t->impl_;
  if (v->kind != DESERT_VALUE_ALT || v->index >= t->u.enumeration.count || !v->as.child)
    return BAD("expected a constructor of %s", im->desc.name);
  const desert_type_ctor *k = &t->u.enumeration.ctors[v->index];
  if (k->transient)
    return desert_types_fail(c, DESERT_E_SERIALIZING_TRANSIENT, "%s.%s", im->desc.name, k->name);
  if (desert_enum_write_id(c->w, im->ids[v->index])) return wnote(c);
  const desert_type *pt = desert_type_resolve(k->payload);
  bool merged = pt && pt->kind == DESERT_TYPE_RECORD;
  if (!merged) desert_types_push_name(c, "value");
  desert_status st = enc(c, k->payload, v->as.child);
  if (st) return st;
  if (!merged) desert_types_pop(c);
  return DESERT_OK;
}

#define DESERT_TYPES_BULK_CHUNK 512u

/* Writes items[0..k) of fixed-width number type et (16 bits and wider)
 * through the writer's bulk array calls when every item converts exactly as
 * enc_builtin would and the writer cannot fail on the run (size-only mode, or
 * the bytes fit where the output is now). Returns true when it wrote them;
 * false (nothing written) sends the caller to the element-by-element path,
 * which then reports any failure with its exact element and path. */
static bool enc_fixed_chunk(desert_types_ctx *c, const desert_type *et, const desert_value *items,
                            size_t k) {
  desert_writer *w = c->w;
  size_t width = desert_types_fixed_width(et->kind);
  if (width < 2) return false;
  if (w->status) return false;
  const desert_wtarget *tg = w->t;
  if (tg->mode != DESERT_WMODE_COUNT && (tg->len > tg->cap || k * width > tg->cap - tg->len))
    return false;
  union {
    uint64_t u64[DESERT_TYPES_BULK_CHUNK];
    int64_t i64[DESERT_TYPES_BULK_CHUNK];
    uint32_t u32[DESERT_TYPES_BULK_CHUNK];
    int32_t i32[DESERT_TYPES_BULK_CHUNK];
    uint16_t u16[DESERT_TYPES_BULK_CHUNK];
    int16_t i16[DESERT_TYPES_BULK_CHUNK];
  } buf;
  int64_t i;
  uint64_t u;
  desert_status st = DESERT_E_ARGUMENT; /* set by every case the width lets through */
  switch (et->kind) {
  case DESERT_TYPE_I16:
    for (size_t j = 0; j < k; j++) {
      if (!get_int(&items[j], INT16_MIN, INT16_MAX, &i)) return false;
      buf.i16[j] = (int16_t)i;
    }
    st = desert_write_i16_array(w, buf.i16, k);
    break;
  case DESERT_TYPE_U16:
    for (size_t j = 0; j < k; j++) {
      if (!get_uint(&items[j], UINT16_MAX, &u)) return false;
      buf.u16[j] = (uint16_t)u;
    }
    st = desert_write_u16_array(w, buf.u16, k);
    break;
  case DESERT_TYPE_I32:
    for (size_t j = 0; j < k; j++) {
      if (!get_int(&items[j], INT32_MIN, INT32_MAX, &i)) return false;
      buf.i32[j] = (int32_t)i;
    }
    st = desert_write_i32_array(w, buf.i32, k);
    break;
  case DESERT_TYPE_U32:
    for (size_t j = 0; j < k; j++) {
      if (!get_uint(&items[j], UINT32_MAX, &u)) return false;
      buf.u32[j] = (uint32_t)u;
    }
    st = desert_write_u32_array(w, buf.u32, k);
    break;
  case DESERT_TYPE_F32: /* the bits, as desert_write_f32_bits writes them */
    for (size_t j = 0; j < k; j++) {
      if (items[j].kind != DESERT_VALUE_FLOAT || items[j].as.bits > UINT32_MAX) return false;
      buf.u32[j] = (uint32_t)items[j].as.bits;
    }
    st = desert_write_u32_array(w, buf.u32, k);
    break;
  case DESERT_TYPE_I64:
    for (size_t j = 0; j < k; j++) {
      if (!get_int(&items[j], INT64_MIN, INT64_MAX, &i)) return false;
      buf.i64[j] = i;
    }
    st = desert_write_i64_array(w, buf.i64, k);
    break;
  case DESERT_TYPE_U64:
    for (size_t j = 0; j < k; j++) {
      if (!get_uint(&items[j], UINT64_MAX, &u)) return false;
      buf.u64[j] = u;
    }
    st = desert_write_u64_array(w, buf.u64, k);
    break;
  case DESERT_TYPE_F64:
    for (size_t j = 0; j < k; j++) {
      if (items[j].kind != DESERT_VALUE_FLOAT) return false;
      buf.u64[j] = items[j].as.bits;
    }
    st = desert_write_u64_array(w, buf.u64, k);
    break;
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_BOOL: case DESERT_TYPE_I8: case DESERT_TYPE_U8:
  case DESERT_TYPE_UNIT: case DESERT_TYPE_CHAR: case DESERT_TYPE_CHAR16:
  case DESERT_TYPE_STRING: case DESERT_TYPE_DEDUP_STRING: case DESERT_TYPE_VAR_U32:
  case DESERT_TYPE_VAR_I32: case DESERT_TYPE_BYTES: case DESERT_TYPE_UUID:
  case DESERT_TYPE_DURATION: case DESERT_TYPE_INSTANT: case DESERT_TYPE_BIGINT:
  case DESERT_TYPE_BIGDECIMAL: case DESERT_TYPE_BIGDECIMAL_BINARY: case DESERT_TYPE_COMPRESSED:
  case DESERT_TYPE_DAY_OF_WEEK: case DESERT_TYPE_MONTH: case DESERT_TYPE_YEAR:
  case DESERT_TYPE_MONTH_DAY: case DESERT_TYPE_YEAR_MONTH: case DESERT_TYPE_PERIOD:
  case DESERT_TYPE_ZONE_OFFSET: case DESERT_TYPE_ZONE_ID: case DESERT_TYPE_LOCAL_DATE:
  case DESERT_TYPE_LOCAL_TIME: case DESERT_TYPE_LOCAL_DATE_TIME: case DESERT_TYPE_OFFSET_TIME:
  case DESERT_TYPE_OFFSET_DATE_TIME: case DESERT_TYPE_ZONED_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: case DESERT_TYPE_RUST_DATETIME_TZ:
  case DESERT_TYPE_KIND_COUNT_:
    return false; /* width 0 or 1: not here */
  }
  /* Cannot fail (checked above); should it, the element path sees the
   * sticky status at the chunk's first element. */
  return st == DESERT_OK;
}

static desert_status enc_coll(desert_types_ctx *c, const desert_type *t, const desert_value *v) {
  if (v->kind != DESERT_VALUE_SEQ) return BAD("expected an array");
  const size_t n = v->as.seq.count;
  if (t->u.coll.non_empty && n == 0) return BAD("empty collection for a non-empty type");
  if (t->kind == DESERT_TYPE_LIST && t->u.coll.has_length && n != t->u.coll.length)
    return BAD("%zu elements, expected exactly %u", n, (unsigned)t->u.coll.length);
  desert_writer *w = c->w;
  if (t->u.coll.unknown_form) {
    if (desert_write_stream_begin(w)) return wnote(c);
  } else if (desert_write_count(w, n)) {
    return wnote(c);
  }
  const desert_type *pair[2] = {t->u.coll.element, t->u.coll.value};
  if (!t->u.coll.unknown_form && t->kind != DESERT_TYPE_MAP) {
    /* Known-size runs of fixed-width numbers: chunks through the bulk array
     * writers; a chunk that cannot go that way takes the element path. */
    const desert_type *et = desert_type_resolve(t->u.coll.element);
    if (et && et->kind >= DESERT_TYPE_I16 && et->kind <= DESERT_TYPE_F64) {
      for (size_t base = 0; base < n; base += DESERT_TYPES_BULK_CHUNK) {
        size_t k = n - base < DESERT_TYPES_BULK_CHUNK ? n - base : DESERT_TYPES_BULK_CHUNK;
        if (enc_fixed_chunk(c, et, v->as.seq.items + base, k)) continue;
        for (size_t i = base; i < base + k; i++) {
          desert_types_push_index(c, i);
          desert_status st = enc(c, et, &v->as.seq.items[i]);
          if (st) return st;
          desert_types_pop(c);
        }
      }
      return DESERT_OK;
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (t->u.coll.unknown_form && desert_write_stream_item(w)) return wnote(c);
    desert_types_push_index(c, i);
    desert_status st = t->kind == DESERT_TYPE_MAP
                           ? enc_tuple_like(c, &desert_types_map_entry, pair, &v->as.seq.items[i])
                           : enc(c, t->u.coll.element, &v->as.seq.items[i]);
    if (st) return st;
    desert_types_pop(c);
  }
  if (t->u.coll.unknown_form && desert_write_stream_end(w)) return wnote(c);
  return DESERT_OK;
}

static desert_status enc(desert_types_ctx *c, const desert_type *t, const desert_value *v) {
  t = desert_type_resolve(t);
  if (!t) return BAD("unresolved type");
  if (!v) return BAD("missing value");
  /* enc_builtin also reports a number that is no kind */
  if (desert_type_builtin(t->kind) || !desert_type_kind_name(t->kind)) return enc_builtin(c, t, v);
  if (c->depth >= c->max_depth) return desert_types_fail(c, DESERT_E_DEPTH, "nesting too deep");
  c->depth++;
  desert_status st = DESERT_E_ARGUMENT; /* set by every case (a non-kind went to enc_builtin) */
  switch (t->kind) {
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP:
    st = enc_coll(c, t, v);
    break;
  case DESERT_TYPE_OPTION:
    if (v->kind == DESERT_VALUE_NULL) {
      st = desert_write_option(c->w, false) ? wnote(c) : DESERT_OK;
    } else if (v->kind == DESERT_VALUE_SOME && v->as.child) {
      bool wrapped = desert_type_nullable(t->u.inner);
      if (desert_write_option(c->w, true)) {
        st = wnote(c);
        break;
      }
      if (wrapped) desert_types_push_name(c, "some");
      st = enc(c, t->u.inner, v->as.child);
      if (!st && wrapped) desert_types_pop(c);
    } else {
      st = BAD("an option is null or some");
    }
    break;
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY: {
    if (v->kind != DESERT_VALUE_ALT || v->index > 1 || !v->as.child) {
      st = BAD("expected one of two alternatives");
      break;
    }
    bool one = v->index == 1;
    desert_status ws = t->kind == DESERT_TYPE_EITHER ? desert_write_either(c->w, one)
                                                     : desert_write_try(c->w, one);
    if (ws) {
      st = wnote(c);
      break;
    }
    desert_types_push_name(c, t->kind == DESERT_TYPE_EITHER ? (one ? "right" : "left")
                                                            : (one ? "success" : "failure"));
    st = enc(c, one ? t->u.alt.right : t->u.alt.left, v->as.child);
    if (!st) desert_types_pop(c);
    break;
  }
  case DESERT_TYPE_TUPLE:
    st = t->impl_ ? enc_tuple_like(c, t->impl_, t->u.tuple.elements, v)
                  : desert_types_fail(c, DESERT_E_STATE, "type set not sealed");
    break;
  case DESERT_TYPE_RECORD:
    st = t->impl_ ? enc_record(c, t, v)
                  : desert_types_fail(c, DESERT_E_STATE, "type set not sealed");
    break;
  case DESERT_TYPE_ENUM:
    st = t->impl_ ? enc_enum(c, t, v) : desert_types_fail(c, DESERT_E_STATE, "type set not sealed");
    break;
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    st = BAD("unknown type kind %d", (int)t->kind);
    break;
  }
  c->depth--;
  return st;
}

desert_status desert_type_encode(desert_writer *w, const desert_type *t, const desert_value *v,
                                 const desert_codec_limits *limits, desert_type_error *err) {
  desert_w_live(w);
  desert_types_ctx c;
  desert_types_ctx_init(&c, err, limits);
  if (!w || !t || !v) {
    if (err) err->status = DESERT_E_ARGUMENT;
    return DESERT_E_ARGUMENT;
  }
  c.w = w;
  desert_status st = desert_writer_status(w);
  if (st) return desert_types_note(&c, st);
  st = enc(&c, t, v);
  if (!st) st = desert_writer_status(w);
  /* A value the encoder refused leaves the writer failed too (sticky), so the
   * partial output is never taken for a message. */
  if (st) desert_w_fail(w, st);
  if (st && err) err->status = st;
  return st;
}

desert_status desert_type_write_begin(desert_writer *w, const desert_type *t,
                                      desert_record_writer *rw) {
  if (!w || !t || !rw) return DESERT_E_ARGUMENT;
  desert_w_live(w);
  t = desert_type_resolve(t);
  if (!t) return DESERT_E_ARGUMENT;
  if (t->kind == DESERT_TYPE_MAP) return desert_types_write_begin(w, &desert_types_map_entry, rw);
  if (t->kind != DESERT_TYPE_RECORD && t->kind != DESERT_TYPE_TUPLE) return DESERT_E_ARGUMENT;
  if (!t->impl_) return DESERT_E_STATE;
  return desert_types_write_begin(w, t->impl_, rw);
}
