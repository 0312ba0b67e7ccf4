/* src/types/types_decode.c — the generic decoder: bytes under a desert_type into a
 * value tree (layout in include/desert/types.h). Reads go through the public
 * reader, value, record and enum calls, so every failure carries the offset
 * rules of docs/schema.md §14.5; checks of its own (char16 surrogates, byte-block
 * and collection constraints) are reported through desert_reader_fail at the
 * first byte of the item, as the spec asks. Collections grow their item
 * arrays geometrically (a count is never trusted for an allocation) and a
 * node budget bounds the tree a hostile input can make.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>

#include "types/types_internal.h"

static desert_status dec(desert_types_ctx *c, const desert_type *t, desert_value *out);

/* ---- failure helpers ----------------------------------------------------------- */

/* A failure the reader already recorded: keep the path. */
static desert_status rnote(desert_types_ctx *c) {
  desert_status st = desert_reader_status(c->r);
  return desert_types_note(c, st ? st : DESERT_E_STATE);
}

/* A failure found here: record it in the reader at `at`, then the path. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static desert_status
rfail(desert_types_ctx *c, desert_status st, size_t at, const char *fmt, ...) {
  desert_reader_fail(c->r, st, at);
  desert_status rs = desert_reader_status(c->r);
  if (c->err && !c->captured) {
    desert_types_note(c, rs);
    if (fmt) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(c->err->message, sizeof c->err->message, fmt, ap);
      va_end(ap);
    }
  }
  return rs;
}

/* n fresh value nodes, charged to the budget. */
static desert_value *nodes(desert_types_ctx *c, size_t n) {
  if (n > c->budget) {
    rfail(c, DESERT_E_LIMIT, desert_reader_offset(c->r), "more than the allowed number of values");
    return NULL;
  }
  desert_value *v = desert_value_arena_values(c->a, n);
  if (!v) {
    rfail(c, DESERT_E_NOMEM, desert_reader_offset(c->r), "out of memory");
    return NULL;
  }
  c->budget -= n;
  return v;
}

static void set_int(desert_value *v, int64_t i) {
  v->kind = DESERT_VALUE_INT;
  v->as.i = i;
}
static void set_uint(desert_value *v, uint64_t u) {
  v->kind = DESERT_VALUE_UINT;
  v->as.u = u;
}
static void set_float_bits(desert_value *v, uint64_t bits) {
  v->kind = DESERT_VALUE_FLOAT;
  v->as.bits = bits;
}

/* A SEQ of n INT components. */
static desert_value *seq_ints(desert_types_ctx *c, desert_value *out, size_t n) {
  desert_value *items = nodes(c, n);
  if (!items) return NULL;
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = n;
  return items;
}

static void put_date(desert_value *it, const desert_local_date *d) {
  set_int(&it[0], d->year);
  set_int(&it[1], d->month);
  set_int(&it[2], d->day);
}
static void put_time(desert_value *it, const desert_local_time *t) {
  set_int(&it[0], t->hour);
  set_int(&it[1], t->minute);
  set_int(&it[2], t->second);
  set_int(&it[3], t->nano);
}

static desert_status put_zone(desert_types_ctx *c, desert_value *v, const desert_zone_id *z) {
  desert_value *child = nodes(c, 1);
  if (!child) return rnote(c);
  v->kind = DESERT_VALUE_ALT;
  v->as.child = child;
  if (z->is_region) {
    v->index = 1;
    child->kind = DESERT_VALUE_STRING;
    child->as.str.ptr = z->region.ptr;
    child->as.str.len = z->region.len;
  } else {
    v->index = 0;
    set_int(child, z->offset_seconds);
  }
  return DESERT_OK;
}

/* ---- scalars -------------------------------------------------------------------- */

static desert_status dec_builtin(desert_types_ctx *c, const desert_type *t, desert_value *out) {
  desert_reader *r = c->r;
  const size_t at = desert_reader_offset(r);
  switch (t->kind) {
  case DESERT_TYPE_BOOL: {
    bool b;
    if (desert_read_bool(r, &b)) return rnote(c);
    out->kind = DESERT_VALUE_BOOL;
    out->as.b = b;
    return DESERT_OK;
  }
  /* Fixed-width numbers: read, then store as an int, uint or float bit
   * pattern (floats keep their exact bits, NaN payloads included). */
#define DEC_NUM(KIND, T, READ, STORE) \
  case KIND: {                        \
    T v;                              \
    if (READ(r, &v)) return rnote(c); \
    STORE;                            \
    return DESERT_OK;                 \
  }
    DEC_NUM(DESERT_TYPE_I8, int8_t, desert_read_i8, set_int(out, v))
    DEC_NUM(DESERT_TYPE_I16, int16_t, desert_read_i16, set_int(out, v))
    DEC_NUM(DESERT_TYPE_I32, int32_t, desert_read_i32, set_int(out, v))
    DEC_NUM(DESERT_TYPE_I64, int64_t, desert_read_i64, set_int(out, v))
    DEC_NUM(DESERT_TYPE_U8, uint8_t, desert_read_u8, set_uint(out, v))
    DEC_NUM(DESERT_TYPE_U16, uint16_t, desert_read_u16, set_uint(out, v))
    DEC_NUM(DESERT_TYPE_U32, uint32_t, desert_read_u32, set_uint(out, v))
    DEC_NUM(DESERT_TYPE_U64, uint64_t, desert_read_u64, set_uint(out, v))
    DEC_NUM(DESERT_TYPE_F32, uint32_t, desert_read_f32_bits, set_float_bits(out, v))
    DEC_NUM(DESERT_TYPE_F64, uint64_t, desert_read_f64_bits, set_float_bits(out, v))
#undef DEC_NUM
  case DESERT_TYPE_UNIT:
    out->kind = DESERT_VALUE_NULL;
    return DESERT_OK;
  case DESERT_TYPE_CHAR: {
    uint32_t cp;
    if (desert_read_char(r, &cp)) return rnote(c);
    out->kind = DESERT_VALUE_CHAR;
    out->as.cp = cp;
    return DESERT_OK;
  }
  case DESERT_TYPE_CHAR16: {
    uint16_t u;
    if (desert_read_char16(r, &u)) return rnote(c);
    if (u >= 0xD800u && u <= 0xDFFFu)
      return rfail(c, DESERT_E_INVALID_CHAR, at, "char16 %04x is a surrogate", (unsigned)u);
    out->kind = DESERT_VALUE_CHAR;
    out->as.cp = u;
    return DESERT_OK;
  }
  case DESERT_TYPE_STRING:
  case DESERT_TYPE_DEDUP_STRING:
  case DESERT_TYPE_BIGDECIMAL: {
    desert_str s;
    desert_status st = t->kind == DESERT_TYPE_STRING         ? desert_read_string(r, &s)
                       : t->kind == DESERT_TYPE_DEDUP_STRING ? desert_read_dedup_string(r, &s)
                                                             : desert_read_bigdecimal(r, &s);
    if (st) return rnote(c);
    out->kind = DESERT_VALUE_STRING;
    out->as.str.ptr = s.ptr;
    out->as.str.len = s.len;
    return DESERT_OK;
  }
  case DESERT_TYPE_VAR_U32: {
    uint32_t v;
    if (desert_read_var_u32(r, &v)) return rnote(c);
    set_uint(out, v);
    return DESERT_OK;
  }
  case DESERT_TYPE_VAR_I32: {
    int32_t v;
    if (desert_read_var_i32(r, &v)) return rnote(c);
    set_int(out, v);
    return DESERT_OK;
  }
  case DESERT_TYPE_BYTES: {
    desert_bytes b;
    if (desert_read_bytes(r, &b)) return rnote(c);
    if (t->u.bytes.non_empty && b.len == 0)
      return rfail(c, DESERT_E_INVALID_VALUE, at, "empty byte block for a non-empty type");
    if (t->u.bytes.has_length && b.len != t->u.bytes.length)
      return rfail(c, DESERT_E_INVALID_VALUE, at, "byte block of length %zu, expected %u", b.len,
                   (unsigned)t->u.bytes.length);
    out->kind = DESERT_VALUE_BYTES;
    out->as.str.ptr = (const char *)b.ptr;
    out->as.str.len = b.len;
    return DESERT_OK;
  }
  case DESERT_TYPE_UUID: {
    const uint8_t *p;
    if (desert_read_raw(r, 16, &p)) return rnote(c);
    out->kind = DESERT_VALUE_BYTES;
    out->as.str.ptr = (const char *)p;
    out->as.str.len = 16;
    return DESERT_OK;
  }
  case DESERT_TYPE_DURATION:
  case DESERT_TYPE_INSTANT: {
    desert_duration d;
    desert_status st =
        t->kind == DESERT_TYPE_DURATION ? desert_read_duration(r, &d) : desert_read_instant(r, &d);
    if (st) return rnote(c);
    desert_value *it = seq_ints(c, out, 2);
    if (!it) return rnote(c);
    set_int(&it[0], d.seconds);
    set_int(&it[1], d.nanos);
    return DESERT_OK;
  }
  case DESERT_TYPE_BIGINT: {
    desert_bytes b;
    if (desert_read_bigint(r, &b)) return rnote(c);
    if (b.len > c->max_bigint)
      return rfail(c, DESERT_E_LIMIT, at, "big integer of more than %zu bytes", c->max_bigint);
    out->kind = DESERT_VALUE_BIGINT;
    out->as.str.ptr = (const char *)b.ptr;
    out->as.str.len = b.len;
    return DESERT_OK;
  }
  case DESERT_TYPE_BIGDECIMAL_BINARY: {
    int64_t scale;
    desert_bytes b;
    if (desert_read_bigdecimal_binary(r, &scale, &b)) return rnote(c);
    if (b.len > c->max_bigint)
      return rfail(c, DESERT_E_LIMIT, at + 8, "big integer of more than %zu bytes", c->max_bigint);
    desert_value *it = seq_ints(c, out, 2);
    if (!it) return rnote(c);
    it[0].kind = DESERT_VALUE_BIGINT;
    it[0].as.str.ptr = (const char *)b.ptr;
    it[0].as.str.len = b.len;
    set_int(&it[1], scale);
    return DESERT_OK;
  }
  case DESERT_TYPE_COMPRESSED: {
    int fl = t->u.compressed.flavour;
    desert_compression flavour =
        fl < 0 ? desert_reader_options(r)->compression : (desert_compression)fl;
    desert_bytes b;
    if (desert_read_compressed(r, flavour, &b)) return rnote(c);
    /* The inflated bytes live in the reader's arena; keep a copy with the tree. */
    char *copy = desert_value_arena_alloc(c->a, b.len, 1);
    if (!copy) return rfail(c, DESERT_E_NOMEM, at, "out of memory");
    if (b.len) memcpy(copy, b.ptr, b.len);
    out->kind = DESERT_VALUE_BYTES;
    out->as.str.ptr = copy;
    out->as.str.len = b.len;
    return DESERT_OK;
  }
  case DESERT_TYPE_DAY_OF_WEEK:
  case DESERT_TYPE_MONTH: {
    uint8_t v;
    desert_status st =
        t->kind == DESERT_TYPE_MONTH ? desert_read_month(r, &v) : desert_read_day_of_week(r, &v);
    if (st) return rnote(c);
    set_int(out, v);
    return DESERT_OK;
  }
  case DESERT_TYPE_YEAR:
  case DESERT_TYPE_ZONE_OFFSET: {
    int32_t v;
    desert_status st =
        t->kind == DESERT_TYPE_YEAR ? desert_read_year(r, &v) : desert_read_zone_offset(r, &v);
    if (st) return rnote(c);
    set_int(out, v);
    return DESERT_OK;
  }
  case DESERT_TYPE_MONTH_DAY: {
    desert_month_day v;
    if (desert_read_month_day(r, &v)) return rnote(c);
    desert_value *it = seq_ints(c, out, 2);
    if (!it) return rnote(c);
    set_int(&it[0], v.month);
    set_int(&it[1], v.day);
    return DESERT_OK;
  }
  case DESERT_TYPE_YEAR_MONTH: {
    desert_year_month v;
    if (desert_read_year_month(r, &v)) return rnote(c);
    desert_value *it = seq_ints(c, out, 2);
    if (!it) return rnote(c);
    set_int(&it[0], v.year);
    set_int(&it[1], v.month);
    return DESERT_OK;
  }
  case DESERT_TYPE_PERIOD: {
    desert_period v;
    if (desert_read_period(r, &v)) return rnote(c);
    desert_value *it = seq_ints(c, out, 3);
    if (!it) return rnote(c);
    set_int(&it[0], v.years);
    set_int(&it[1], v.months);
    set_int(&it[2], v.days);
    return DESERT_OK;
  }
  case DESERT_TYPE_ZONE_ID: {
    desert_zone_id z;
    if (desert_read_zone_id(r, &z)) return rnote(c);
    return put_zone(c, out, &z);
  }
  case DESERT_TYPE_LOCAL_DATE: {
    desert_local_date v;
    if (desert_read_local_date(r, &v)) return rnote(c);
    desert_value *it = seq_ints(c, out, 3);
    if (!it) return rnote(c);
    put_date(it, &v);
    return DESERT_OK;
  }
  case DESERT_TYPE_LOCAL_TIME: {
    desert_local_time v;
    if (desert_read_local_time(r, &v)) return rnote(c);
    desert_value *it = seq_ints(c, out, 4);
    if (!it) return rnote(c);
    put_time(it, &v);
    return DESERT_OK;
  }
  case DESERT_TYPE_LOCAL_DATE_TIME: {
    desert_local_date_time v;
    if (desert_read_local_date_time(r, &v)) return rnote(c);
    desert_value *it = seq_ints(c, out, 7);
    if (!it) return rnote(c);
    put_date(it, &v.date);
    put_time(it + 3, &v.time);
    return DESERT_OK;
  }
  case DESERT_TYPE_OFFSET_TIME: {
    desert_offset_time v;
    if (desert_read_offset_time(r, &v)) return rnote(c);
    desert_value *it = seq_ints(c, out, 5);
    if (!it) return rnote(c);
    put_time(it, &v.time);
    set_int(&it[4], v.offset_seconds);
    return DESERT_OK;
  }
  case DESERT_TYPE_OFFSET_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: {
    desert_offset_date_time v;
    desert_status st = t->kind == DESERT_TYPE_OFFSET_DATE_TIME
                           ? desert_read_offset_date_time(r, &v)
                           : desert_read_rust_datetime_fixed_offset(r, &v);
    if (st) return rnote(c);
    desert_value *it = seq_ints(c, out, 8);
    if (!it) return rnote(c);
    put_date(it, &v.date_time.date);
    put_time(it + 3, &v.date_time.time);
    set_int(&it[7], v.offset_seconds);
    return DESERT_OK;
  }
  case DESERT_TYPE_ZONED_DATE_TIME: {
    desert_zoned_date_time v;
    if (desert_read_zoned_date_time(r, &v)) return rnote(c);
    desert_value *it = seq_ints(c, out, 9);
    if (!it) return rnote(c);
    put_date(it, &v.date_time.date);
    put_time(it + 3, &v.date_time.time);
    set_int(&it[7], v.offset_seconds);
    return put_zone(c, &it[8], &v.zone);
  }
  case DESERT_TYPE_RUST_DATETIME_TZ: {
    desert_local_date_time v;
    desert_str zone;
    if (desert_read_rust_datetime_tz(r, &v, &zone)) return rnote(c);
    desert_value *it = seq_ints(c, out, 8);
    if (!it) return rnote(c);
    put_date(it, &v.date);
    put_time(it + 3, &v.time);
    it[7].kind = DESERT_VALUE_STRING;
    it[7].as.str.ptr = zone.ptr;
    it[7].as.str.len = zone.len;
    return DESERT_OK;
  }
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return rfail(c, DESERT_E_ARGUMENT, at, "not a built-in type");
}

/* ---- records, tuples, map entries ------------------------------------------------- */

/* Reads a record whose fields are all plain required fields (tuples, map
 * entries): the record reader still handles evolved data (docs/format.md §8). */
static desert_status dec_tuple_like(desert_types_ctx *c, const desert_types_record_impl *im,
                                    const desert_type *const *types, desert_value *out) {
  const size_t n = im->desc.field_count;
  desert_value *items = nodes(c, n);
  if (!items) return rnote(c);
  desert_record_reader rr;
  if (desert_types_read_begin(c->r, im, &rr)) return rnote(c);
  for (size_t i = 0; i < n; i++) {
    desert_types_push_index(c, i);
    desert_field_action act;
    if (desert_record_read_field(&rr, i, &act)) return rnote(c);
    if (act != DESERT_FIELD_READ)
      return rfail(c, DESERT_E_STATE, desert_reader_offset(c->r), "unexpected field action %d",
                   (int)act);
    desert_status dst_ = dec(c, types[i], &items[i]);
    if (dst_) return dst_;
    desert_types_pop(c);
  }
  if (desert_record_read_end(&rr)) return rnote(c);
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = n;
  return DESERT_OK;
}

static desert_status dec_record(desert_types_ctx *c, const desert_type *t, desert_value *out) {
  const desert_types_record_impl *im = t->impl_;
  const size_t n = t->u.record.field_count;
  desert_value *items = nodes(c, n);
  if (!items) return rnote(c);
  desert_record_reader rr;
  if (desert_types_read_begin(c->r, im, &rr)) return rnote(c);
  for (size_t i = 0; i < n; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    desert_types_push_name(c, f->name);
    desert_field_action act;
    if (desert_record_read_field(&rr, i, &act)) return rnote(c);
    switch (act) {
    case DESERT_FIELD_READ:
      if (f->flags & DESERT_FIELD_OPTIONAL) {
        desert_value *child = nodes(c, 1);
        if (!child) return rnote(c);
        desert_status dst_ = dec(c, f->type, child);
        if (dst_) return dst_;
        items[i].kind = DESERT_VALUE_SOME;
        items[i].as.child = child;
      } else {
        desert_status fst = dec(c, f->type, &items[i]);
        if (fst) return fst;
      }
      break;
    case DESERT_FIELD_NONE:
      items[i].kind = DESERT_VALUE_NULL;
      break;
    case DESERT_FIELD_DEFAULT:
      if (!im->added_default || !im->added_default[i])
        return rfail(c, DESERT_E_FIELD_MISSING, desert_reader_offset(c->r), "%s", f->name);
      items[i] = *im->added_default[i];
      break;
    case DESERT_FIELD_TRANSIENT:
      if (!f->transient_default)
        return rfail(c, DESERT_E_STATE, desert_reader_offset(c->r), "no transient default");
      items[i] = *f->transient_default;
      break;
    default:
      return rfail(c, DESERT_E_STATE, desert_reader_offset(c->r), "unknown field action");
    }
    desert_types_pop(c);
  }
  if (desert_record_read_end(&rr)) return rnote(c);
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = n;
  return DESERT_OK;
}

static desert_status dec_enum(desert_types_ctx *c, const desert_type *t, desert_value *out) {
  const desert_types_enum_impl *im = t->impl_;
  uint32_t id;
  if (desert_enum_read_begin_id(c->r, im->id_count, &id)) return rnote(c);
  size_t idx = im->case_of[id];
  if (idx >= t->u.enumeration.count || !t->u.enumeration.ctors[idx].payload)
    return rfail(c, DESERT_E_INVALID_CONSTRUCTOR_ID, desert_reader_offset(c->r), "bad case index");
  const desert_type_ctor *k = &t->u.enumeration.ctors[idx];
  desert_value *child = nodes(c, 1);
  if (!child) return rnote(c);
  const desert_type *pt = desert_type_resolve(k->payload);
  bool merged = pt && pt->kind == DESERT_TYPE_RECORD;
  if (!merged) desert_types_push_name(c, "value");
  desert_status dst_ = dec(c, k->payload, child);
  if (dst_) return dst_;
  if (!merged) desert_types_pop(c);
  if (desert_enum_read_end_id(c->r)) return rnote(c);
  out->kind = DESERT_VALUE_ALT;
  out->index = (uint32_t)idx;
  out->as.child = child;
  return DESERT_OK;
}

/* ---- collections -------------------------------------------------------------------- */


/* The item capacity the element-by-element path below ends with for a
 * known count n, if every allocation it makes fits the budget; 0 if not. */
static size_t coll_plan(size_t budget, size_t n) {
  size_t cap = n < 64 ? n : 64;
  if (cap == 0 || cap > budget) return 0;
  budget -= cap;
  while (cap < n) {
    if (cap > SIZE_MAX / 2) return 0;
    size_t ncap = cap * 2;
    if (ncap > budget) return 0;
    budget = budget - ncap + cap;
    cap = ncap;
  }
  return cap;
}

#define DESERT_TYPES_BULK_CHUNK 512u

/* Reads n fixed-width numbers of type et (width w, all present in the input)
 * into items[0..n) in chunks through the reader's bulk array calls. The
 * values, offsets and node charges are those of the element-by-element path. */
static desert_status dec_fixed_run(desert_types_ctx *c, const desert_type *et, size_t w,
                                   desert_value *items, size_t n) {
  desert_reader *r = c->r;
  union {
    uint64_t u64[DESERT_TYPES_BULK_CHUNK];
    int64_t i64[DESERT_TYPES_BULK_CHUNK];
    uint32_t u32[DESERT_TYPES_BULK_CHUNK];
    int32_t i32[DESERT_TYPES_BULK_CHUNK];
    uint16_t u16[DESERT_TYPES_BULK_CHUNK];
    int16_t i16[DESERT_TYPES_BULK_CHUNK];
  } buf;
  for (size_t base = 0; base < n; base += DESERT_TYPES_BULK_CHUNK) {
    size_t k = n - base < DESERT_TYPES_BULK_CHUNK ? n - base : DESERT_TYPES_BULK_CHUNK;
    size_t at = desert_reader_offset(r);
    desert_status st = DESERT_OK;
    desert_value *it = items + base;
    switch (et->kind) {
    case DESERT_TYPE_I8:
      for (size_t i = 0; i < k && !st; i++) {
        int8_t v;
        st = desert_read_i8(r, &v);
        if (!st) set_int(&it[i], v);
      }
      break;
    case DESERT_TYPE_U8:
      for (size_t i = 0; i < k && !st; i++) {
        uint8_t v;
        st = desert_read_u8(r, &v);
        if (!st) set_uint(&it[i], v);
      }
      break;
    case DESERT_TYPE_I16:
      st = desert_read_i16_array(r, buf.i16, k);
      if (!st)
        for (size_t i = 0; i < k; i++) set_int(&it[i], buf.i16[i]);
      break;
    case DESERT_TYPE_U16:
      st = desert_read_u16_array(r, buf.u16, k);
      if (!st)
        for (size_t i = 0; i < k; i++) set_uint(&it[i], buf.u16[i]);
      break;
    case DESERT_TYPE_I32:
      st = desert_read_i32_array(r, buf.i32, k);
      if (!st)
        for (size_t i = 0; i < k; i++) set_int(&it[i], buf.i32[i]);
      break;
    case DESERT_TYPE_U32:
      st = desert_read_u32_array(r, buf.u32, k);
      if (!st)
        for (size_t i = 0; i < k; i++) set_uint(&it[i], buf.u32[i]);
      break;
    case DESERT_TYPE_F32: /* the bits, as desert_read_f32_bits reads them */
      st = desert_read_u32_array(r, buf.u32, k);
      if (!st)
        for (size_t i = 0; i < k; i++) {
          it[i].kind = DESERT_VALUE_FLOAT;
          it[i].as.bits = buf.u32[i];
        }
      break;
    case DESERT_TYPE_I64:
      st = desert_read_i64_array(r, buf.i64, k);
      if (!st)
        for (size_t i = 0; i < k; i++) set_int(&it[i], buf.i64[i]);
      break;
    case DESERT_TYPE_U64:
      st = desert_read_u64_array(r, buf.u64, k);
      if (!st)
        for (size_t i = 0; i < k; i++) set_uint(&it[i], buf.u64[i]);
      break;
    case DESERT_TYPE_F64:
      st = desert_read_u64_array(r, buf.u64, k);
      if (!st)
        for (size_t i = 0; i < k; i++) {
          it[i].kind = DESERT_VALUE_FLOAT;
          it[i].as.bits = buf.u64[i];
        }
      break;
    DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_BOOL: case DESERT_TYPE_UNIT:
    case DESERT_TYPE_CHAR: case DESERT_TYPE_CHAR16: case DESERT_TYPE_STRING:
    case DESERT_TYPE_DEDUP_STRING: case DESERT_TYPE_VAR_U32: case DESERT_TYPE_VAR_I32:
    case DESERT_TYPE_BYTES: case DESERT_TYPE_UUID: case DESERT_TYPE_DURATION:
    case DESERT_TYPE_INSTANT: case DESERT_TYPE_BIGINT: case DESERT_TYPE_BIGDECIMAL:
    case DESERT_TYPE_BIGDECIMAL_BINARY: case DESERT_TYPE_COMPRESSED: case DESERT_TYPE_DAY_OF_WEEK:
    case DESERT_TYPE_MONTH: case DESERT_TYPE_YEAR: case DESERT_TYPE_MONTH_DAY:
    case DESERT_TYPE_YEAR_MONTH: case DESERT_TYPE_PERIOD: case DESERT_TYPE_ZONE_OFFSET:
    case DESERT_TYPE_ZONE_ID: case DESERT_TYPE_LOCAL_DATE: case DESERT_TYPE_LOCAL_TIME:
    case DESERT_TYPE_LOCAL_DATE_TIME: case DESERT_TYPE_OFFSET_TIME:
    case DESERT_TYPE_OFFSET_DATE_TIME: case DESERT_TYPE_ZONED_DATE_TIME:
    case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: case DESERT_TYPE_RUST_DATETIME_TZ:
    case DESERT_TYPE_KIND_COUNT_:
      return rfail(c, DESERT_E_STATE, at, "bad bulk element type");
    }
    if (st) {
      /* Not expected (the input was checked to hold the run): report it at
       * the element the reader names, as the element path would. */
      size_t eo = desert_reader_error_offset(r);
      size_t idx = base + (eo > at ? (eo - at) / w : 0);
      desert_types_push_index(c, idx);
      return rnote(c);
    }
  }
  return DESERT_OK;
}

static desert_status dec_coll(desert_types_ctx *c, const desert_type *t, desert_value *out) {
  desert_reader *r = c->r;
  desert_seq seq;
  if (desert_read_seq_begin(r, &seq)) return rnote(c);
  /* Known-size runs of fixed-width numbers: one block of nodes filled from
   * bulk reads, when the input holds the whole run and the element path
   * would not run out of budget (otherwise that path finds the failure). */
  if (seq.known && !c->trace && t->kind != DESERT_TYPE_MAP) {
    const desert_type *et = desert_type_resolve(t->u.coll.element);
    size_t w = et ? desert_types_fixed_width(et->kind) : 0;
    size_t fcap = w && seq.count <= desert_reader_remaining(r) / w ? coll_plan(c->budget, seq.count) : 0;
    if (fcap) {
      desert_value *fi = nodes(c, fcap);
      if (!fi) return rnote(c);
      desert_status fst = dec_fixed_run(c, et, w, fi, seq.count);
      if (fst) return fst;
      if (t->u.coll.non_empty && seq.count == 0)
        return rfail(c, DESERT_E_INVALID_VALUE, seq.offset, "empty collection for a non-empty type");
      if (t->kind == DESERT_TYPE_LIST && t->u.coll.has_length && seq.count != t->u.coll.length)
        return rfail(c, DESERT_E_INVALID_VALUE, seq.offset,
                     "collection of %zu elements, expected %u", seq.count,
                     (unsigned)t->u.coll.length);
      out->kind = DESERT_VALUE_SEQ;
      out->as.seq.items = fi;
      out->as.seq.count = seq.count;
      return DESERT_OK;
    }
  }
  size_t cap = seq.known ? (seq.count < 64 ? seq.count : 64) : 16;
  desert_value *items = nodes(c, cap);
  if (!items) return rnote(c);
  size_t n = 0;
  const desert_type *pair[2] = {t->u.coll.element, t->u.coll.value};
  while (desert_read_seq_next(r, &seq)) {
    if (n == cap) {
      size_t ncap = cap * 2;
      desert_value *ni = nodes(c, ncap);
      if (!ni) return rnote(c);
      memcpy(ni, items, n * sizeof *ni);
      c->budget += n; /* the old array is garbage: charge only the growth */
      items = ni;
      cap = ncap;
    }
    desert_types_push_index(c, n);
    desert_status st = t->kind == DESERT_TYPE_MAP
                           ? dec_tuple_like(c, &desert_types_map_entry, pair, &items[n])
                           : dec(c, t->u.coll.element, &items[n]);
    if (st) return st;
    desert_types_pop(c);
    n++;
  }
  if (desert_reader_status(r)) return rnote(c);
  if (t->u.coll.non_empty && n == 0)
    return rfail(c, DESERT_E_INVALID_VALUE, seq.offset, "empty collection for a non-empty type");
  if (t->kind == DESERT_TYPE_LIST && t->u.coll.has_length && n != t->u.coll.length)
    return rfail(c, DESERT_E_INVALID_VALUE, seq.offset, "collection of %zu elements, expected %u",
                 n, (unsigned)t->u.coll.length);
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = n;
  return DESERT_OK;
}

/* ---- dispatch ------------------------------------------------------------------------- */

static desert_status dec_inner(desert_types_ctx *c, const desert_type *t, desert_value *out);

static desert_status dec(desert_types_ctx *c, const desert_type *t, desert_value *out) {
  if (!c->trace) return dec_inner(c, t, out);
  size_t start = desert_reader_offset(c->r);
  desert_status st = dec_inner(c, t, out);
  if (!st) {
    char path[512];
    const desert_type *rt = desert_type_resolve(t);
    desert_types_path_render(c, path, sizeof path);
    c->trace(c->trace_ctx, start, desert_reader_offset(c->r), path, rt->kind,
             desert_type_builtin(rt->kind) != NULL);
  }
  return st;
}

static desert_status dec_inner(desert_types_ctx *c, const desert_type *t, desert_value *out) {
  desert_reader *r = c->r;
  /* References and wrappers are free: follow them without nesting. */
  t = desert_type_resolve(t);
  if (!t) return rfail(c, DESERT_E_ARGUMENT, desert_reader_offset(r), "unresolved type");
  /* dec_builtin also reports a number that is no kind */
  if (desert_type_builtin(t->kind) || !desert_type_kind_name(t->kind))
    return dec_builtin(c, t, out);
  if (c->depth >= c->max_depth)
    return rfail(c, DESERT_E_DEPTH, desert_reader_offset(r), "nesting deeper than %u",
                 c->max_depth);
  c->depth++;
  desert_status st = DESERT_E_ARGUMENT; /* set by every case (a non-kind went to dec_builtin) */
  switch (t->kind) {
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP:
    st = dec_coll(c, t, out);
    break;
  case DESERT_TYPE_OPTION: {
    bool some;
    if (desert_read_option(r, &some)) {
      st = rnote(c);
      break;
    }
    if (!some) {
      out->kind = DESERT_VALUE_NULL;
      st = DESERT_OK;
      break;
    }
    desert_value *child = nodes(c, 1);
    if (!child) {
      st = rnote(c);
      break;
    }
    bool wrapped = desert_type_nullable(t->u.inner);
    if (wrapped) desert_types_push_name(c, "some");
    st = dec(c, t->u.inner, child);
    if (st) break;
    if (wrapped) desert_types_pop(c);
    out->kind = DESERT_VALUE_SOME;
    out->as.child = child;
    break;
  }
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY: {
    bool one;
    desert_status rs =
        t->kind == DESERT_TYPE_EITHER ? desert_read_either(r, &one) : desert_read_try(r, &one);
    if (rs) {
      st = rnote(c);
      break;
    }
    desert_value *child = nodes(c, 1);
    if (!child) {
      st = rnote(c);
      break;
    }
    const char *key =
        t->kind == DESERT_TYPE_EITHER ? (one ? "right" : "left") : (one ? "success" : "failure");
    desert_types_push_name(c, key);
    st = dec(c, one ? t->u.alt.right : t->u.alt.left, child);
    if (st) break;
    desert_types_pop(c);
    out->kind = DESERT_VALUE_ALT;
    out->index = one ? 1u : 0u;
    out->as.child = child;
    break;
  }
  case DESERT_TYPE_TUPLE:
    if (!t->impl_) {
      st = rfail(c, DESERT_E_STATE, desert_reader_offset(r), "type set not sealed");
      break;
    }
    st = dec_tuple_like(c, t->impl_, t->u.tuple.elements, out);
    break;
  case DESERT_TYPE_RECORD:
    if (!t->impl_) {
      st = rfail(c, DESERT_E_STATE, desert_reader_offset(r), "type set not sealed");
      break;
    }
    st = dec_record(c, t, out);
    break;
  case DESERT_TYPE_ENUM:
    if (!t->impl_) {
      st = rfail(c, DESERT_E_STATE, desert_reader_offset(r), "type set not sealed");
      break;
    }
    st = dec_enum(c, t, out);
    break;
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    st = rfail(c, DESERT_E_ARGUMENT, desert_reader_offset(r), "unknown type kind %d", (int)t->kind);
    break;
  }
  c->depth--;
  return st;
}

desert_status desert_type_decode(desert_reader *r, const desert_type *t, desert_value_arena *a,
                                 const desert_codec_limits *limits, desert_value **out,
                                 desert_type_error *err) {
  return desert_type_decode_traced(r, t, a, limits, NULL, NULL, out, err);
}

desert_status desert_type_decode_traced(desert_reader *r, const desert_type *t,
                                        desert_value_arena *a, const desert_codec_limits *limits,
                                        desert_decode_trace fn, void *fn_ctx, desert_value **out,
                                        desert_type_error *err) {
  desert_types_ctx c;
  desert_types_ctx_init(&c, err, limits);
  c.trace = fn;
  c.trace_ctx = fn_ctx;
  if (!r || !t || !a || !out) {
    if (err) err->status = DESERT_E_ARGUMENT;
    return DESERT_E_ARGUMENT;
  }
  *out = NULL;
  c.r = r;
  c.a = a;
  desert_status st = desert_reader_status(r);
  if (st) {
    desert_types_note(&c, st);
  } else {
    desert_value *root = nodes(&c, 1);
    if (root && dec(&c, t, root) == DESERT_OK) *out = root;
    st = desert_reader_status(r);
    if (!st && !*out) st = err && err->status ? err->status : DESERT_E_STATE;
  }
  if (err && st) {
    err->status = st;
    err->has_offset = desert_reader_status(r) != DESERT_OK;
    err->offset = desert_reader_error_offset(r);
  }
  return st;
}
