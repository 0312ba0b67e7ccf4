/* tools/gen_c/gen_c_runtime.c — the static helpers at the top of every
 * generated P.c: value-tree building blocks, and one pair of conversions
 * (C value <-> desert_value) per built-in type that the schema uses, with
 * the C storage of include/desert/types.h's value ctypes. A value the C
 * type cannot hold (or a tree of the wrong shape) is DESERT_E_ARGUMENT.
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include "gen_c_emit.h"

static const char common[] =
    "#if defined(__GNUC__)\n"
    "#define GC_UNUSED __attribute__((unused))\n"
    "#else\n"
    "#define GC_UNUSED\n"
    "#endif\n"
    "\n"
    "/* Encoding builds a value tree in a scratch arena; decoding fills structs\n"
    " * with memory from `alloc` (the reader's arena, or a JSON value arena). */\n"
    "typedef struct gc_enc {\n  desert_value_arena *a;\n} gc_enc;\n"
    "typedef struct gc_dec {\n  void *(*alloc)(void *ctx, size_t size, size_t align);\n"
    "  void *ctx;\n} gc_dec;\n\n"
    "GC_UNUSED static void *gc_reader_alloc(void *ctx, size_t size, size_t align) {\n"
    "  return desert_reader_alloc((desert_reader *)ctx, size, align);\n}\n"
    "GC_UNUSED static void *gc_arena_alloc(void *ctx, size_t size, size_t align) {\n"
    "  return desert_value_arena_alloc((desert_value_arena *)ctx, size, align);\n}\n"
    "/* n items of size bytes (NULL on overflow or failure). */\n"
    "GC_UNUSED static void *gc_alloc(gc_dec *c, size_t n, size_t size, size_t align) {\n"
    "  if (size && n > SIZE_MAX / size) return NULL;\n"
    "  return c->alloc(c->ctx, n * size != 0 ? n * size : 1, align);\n}\n"
    "/* Makes out a SEQ of n zeroed items. */\n"
    "GC_UNUSED static desert_value *gc_seq(gc_enc *c, desert_value *out, size_t n) {\n"
    "  desert_value *it = desert_value_arena_values(c->a, n ? n : 1);\n"
    "  if (!it) return NULL;\n"
    "  out->kind = DESERT_VALUE_SEQ;\n  out->as.seq.items = it;\n  out->as.seq.count = n;\n"
    "  return it;\n}\n"
    "/* Makes out a SOME or ALT with a zeroed child. */\n"
    "GC_UNUSED static desert_value *gc_child(gc_enc *c, desert_value *out, desert_value_kind k,\n"
    "                                        uint32_t index) {\n"
    "  desert_value *ch = desert_value_arena_values(c->a, 1);\n"
    "  if (!ch) return NULL;\n"
    "  out->kind = k;\n  out->index = index;\n  out->as.child = ch;\n  return ch;\n}\n"
    "GC_UNUSED static bool gc_is_seq(const desert_value *v, size_t n) {\n"
    "  return v->kind == DESERT_VALUE_SEQ && v->as.seq.count == n && (n == 0 || v->as.seq.items);\n"
    "}\n"
    "GC_UNUSED static void gc_int(desert_value *out, int64_t i) {\n"
    "  out->kind = DESERT_VALUE_INT;\n  out->as.i = i;\n}\n"
    "GC_UNUSED static bool gc_get_int(const desert_value *v, int64_t lo, int64_t hi, int64_t *out) {\n"
    "  if (v->kind != DESERT_VALUE_INT || v->as.i < lo || v->as.i > hi) return false;\n"
    "  *out = v->as.i;\n  return true;\n}\n"
    "GC_UNUSED static bool gc_get_uint(const desert_value *v, uint64_t hi, uint64_t *out) {\n"
    "  if (v->kind != DESERT_VALUE_UINT || v->as.u > hi) return false;\n"
    "  *out = v->as.u;\n  return true;\n}\n"
    "GC_UNUSED static void gc_text(desert_value *out, desert_value_kind k, const void *p, size_t n) {\n"
    "  out->kind = k;\n  out->as.str.ptr = (const char *)p;\n  out->as.str.len = n;\n}\n"
    "GC_UNUSED static bool gc_get_text(const desert_value *v, desert_value_kind k, desert_str *out) {\n"
    "  if (v->kind != k || (v->as.str.len && !v->as.str.ptr)) return false;\n"
    "  out->ptr = v->as.str.ptr;\n  out->len = v->as.str.len;\n  return true;\n}\n"
    "";
/* (split: ISO C only promises string literals of 4095 characters) */
static const char common2[] =
    "/* The integer components of the date/time values, in SEQ order. */\n"
    "GC_UNUSED static desert_status gc_ints_out(gc_enc *c, desert_value *out, const int64_t *x, size_t n,\n"
    "                                          size_t extra) {\n"
    "  desert_value *it = gc_seq(c, out, n + extra);\n"
    "  if (!it) return DESERT_E_NOMEM;\n"
    "  for (size_t i = 0; i < n; i++) gc_int(&it[i], x[i]);\n"
    "  return DESERT_OK;\n}\n"
    "/* Reads n INT components, each within [lo[i], hi[i]]. */\n"
    "GC_UNUSED static bool gc_ints_in(const desert_value *v, size_t n, size_t extra, const int64_t *lo,\n"
    "                                 const int64_t *hi, int64_t *x) {\n"
    "  if (!gc_is_seq(v, n + extra)) return false;\n"
    "  for (size_t i = 0; i < n; i++)\n"
    "    if (!gc_get_int(&v->as.seq.items[i], lo[i], hi[i], &x[i])) return false;\n"
    "  return true;\n}\n"
    "#define GC_DATE_LO INT32_MIN, 0, 0\n#define GC_DATE_HI INT32_MAX, 255, 255\n"
    "#define GC_TIME_LO 0, 0, 0, 0\n#define GC_TIME_HI 255, 255, 255, UINT32_MAX\n"
    "GC_UNUSED static void gc_dt_split(const desert_local_date_time *d, int64_t *x) {\n"
    "  x[0] = d->date.year; x[1] = d->date.month; x[2] = d->date.day;\n"
    "  x[3] = d->time.hour; x[4] = d->time.minute; x[5] = d->time.second; x[6] = d->time.nano;\n}\n"
    "GC_UNUSED static void gc_dt_join(const int64_t *x, desert_local_date_time *d) {\n"
    "  d->date.year = (int32_t)x[0]; d->date.month = (uint8_t)x[1]; d->date.day = (uint8_t)x[2];\n"
    "  d->time.hour = (uint8_t)x[3]; d->time.minute = (uint8_t)x[4];\n"
    "  d->time.second = (uint8_t)x[5]; d->time.nano = (uint32_t)x[6];\n}\n"
    "GC_UNUSED static desert_status gc_zone_out(gc_enc *c, const desert_zone_id *z, desert_value *out) {\n"
    "  desert_value *ch = gc_child(c, out, DESERT_VALUE_ALT, z->is_region ? 1u : 0u);\n"
    "  if (!ch) return DESERT_E_NOMEM;\n"
    "  if (z->is_region) gc_text(ch, DESERT_VALUE_STRING, z->region.ptr, z->region.len);\n"
    "  else gc_int(ch, z->offset_seconds);\n"
    "  return DESERT_OK;\n}\n"
    "GC_UNUSED static desert_status gc_zone_in(const desert_value *v, desert_zone_id *z) {\n"
    "  int64_t x;\n"
    "  if (v->kind != DESERT_VALUE_ALT || !v->as.child || v->index > 1) return DESERT_E_ARGUMENT;\n"
    "  z->is_region = v->index == 1;\n"
    "  if (z->is_region) return gc_get_text(v->as.child, DESERT_VALUE_STRING, &z->region) ? DESERT_OK : DESERT_E_ARGUMENT;\n"
    "  if (!gc_get_int(v->as.child, INT32_MIN, INT32_MAX, &x)) return DESERT_E_ARGUMENT;\n"
    "  z->offset_seconds = (int32_t)x;\n  return DESERT_OK;\n}\n";

/* One built-in kind: its C type's conversions. %s is never used: the code
 * names the kind itself. */
typedef struct builtin_code {
  desert_type_kind kind;
  const char *code;
} builtin_code;

#define INT_CONV(name, ctype, lo, hi)                                                           \
  "static desert_status gc_tv_" name "(gc_enc *c, const " ctype " *in, desert_value *out) {\n" \
  "  (void)c;\n  gc_int(out, *in);\n  return DESERT_OK;\n}\n"                                  \
  "static desert_status gc_fv_" name "(gc_dec *c, const desert_value *v, " ctype " *out) {\n"  \
  "  int64_t x;\n  (void)c;\n"                                                                 \
  "  if (!gc_get_int(v, " lo ", " hi ", &x)) return DESERT_E_ARGUMENT;\n"                      \
  "  *out = (" ctype ")x;\n  return DESERT_OK;\n}\n"
#define UINT_CONV(name, ctype, hi)                                                              \
  "static desert_status gc_tv_" name "(gc_enc *c, const " ctype " *in, desert_value *out) {\n" \
  "  (void)c;\n  out->kind = DESERT_VALUE_UINT;\n  out->as.u = *in;\n  return DESERT_OK;\n}\n"   \
  "static desert_status gc_fv_" name "(gc_dec *c, const desert_value *v, " ctype " *out) {\n"  \
  "  uint64_t x;\n  (void)c;\n"                                                                \
  "  if (!gc_get_uint(v, " hi ", &x)) return DESERT_E_ARGUMENT;\n"                             \
  "  *out = (" ctype ")x;\n  return DESERT_OK;\n}\n"
#define TEXT_CONV(name, vkind)                                                                   \
  "static desert_status gc_tv_" name "(gc_enc *c, const desert_str *in, desert_value *out) {\n" \
  "  (void)c;\n  if (in->len && !in->ptr) return DESERT_E_ARGUMENT;\n"                          \
  "  gc_text(out, " vkind ", in->ptr, in->len);\n  return DESERT_OK;\n}\n"                      \
  "static desert_status gc_fv_" name "(gc_dec *c, const desert_value *v, desert_str *out) {\n"  \
  "  (void)c;\n  return gc_get_text(v, " vkind ", out) ? DESERT_OK : DESERT_E_ARGUMENT;\n}\n"
#define BYTES_CONV(name, vkind, copy)                                                              \
  "static desert_status gc_tv_" name "(gc_enc *c, const desert_bytes *in, desert_value *out) {\n" \
  "  (void)c;\n  if (in->len && !in->ptr) return DESERT_E_ARGUMENT;\n"                            \
  "  gc_text(out, " vkind ", in->ptr, in->len);\n  return DESERT_OK;\n}\n"                        \
  "static desert_status gc_fv_" name "(gc_dec *c, const desert_value *v, desert_bytes *out) {\n"  \
  "  desert_str s;\n  (void)c;\n"                                                                 \
  "  if (!gc_get_text(v, " vkind ", &s)) return DESERT_E_ARGUMENT;\n"                             \
  "  out->ptr = (const uint8_t *)s.ptr;\n  out->len = s.len;\n" copy "  return DESERT_OK;\n}\n"
/* Inflated bytes live in the decoder's scratch tree: keep a copy. */
#define COPY_BYTES                                                                               \
  "  if (s.len) {\n    uint8_t *p = (uint8_t *)gc_alloc(c, s.len, 1, 1);\n"                     \
  "    if (!p) return DESERT_E_NOMEM;\n    memcpy(p, s.ptr, s.len);\n    out->ptr = p;\n  }\n"
/* A date/time value: split into n ints (+ extra items), join back. */
#define DT_CONV(name, ctype, n, extra, split, lo, hi, join, extra_out, extra_in)                  \
  "static desert_status gc_tv_" name "(gc_enc *c, const " ctype " *in, desert_value *out) {\n"   \
  "  int64_t x[" #n "];\n  desert_status st;\n" split                                             \
  "  st = gc_ints_out(c, out, x, " #n ", " #extra ");\n  if (st) return st;\n" extra_out         \
  "  return DESERT_OK;\n}\n"                                                                      \
  "static desert_status gc_fv_" name "(gc_dec *c, const desert_value *v, " ctype " *out) {\n"    \
  "  static const int64_t lo[" #n "] = {" lo "}, hi[" #n "] = {" hi "};\n  int64_t x[" #n "];\n" \
  "  (void)c;\n"                                                                                  \
  "  if (!gc_ints_in(v, " #n ", " #extra ", lo, hi, x)) return DESERT_E_ARGUMENT;\n" join extra_in \
  "  return DESERT_OK;\n}\n"

#define CHAR_CONV(name)                                                                      \
  "static desert_status gc_tv_" name "(gc_enc *c, const uint32_t *in, desert_value *out) {\n" \
  "  (void)c;\n  out->kind = DESERT_VALUE_CHAR;\n  out->as.cp = *in;\n  return DESERT_OK;\n}\n"     \
  "static desert_status gc_fv_" name "(gc_dec *c, const desert_value *v, uint32_t *out) {\n"  \
  "  (void)c;\n  if (v->kind != DESERT_VALUE_CHAR) return DESERT_E_ARGUMENT;\n"                  \
  "  *out = v->as.cp;\n  return DESERT_OK;\n}\n"
/* Two kinds with one C storage each (duration/instant, the two offset
 * date-times): one template. */
#define DURATION_CONV(name)                                                                  \
  DT_CONV(name, "desert_duration", 2, 0, "  x[0] = in->seconds;\n  x[1] = in->nanos;\n",      \
          "INT64_MIN, 0", "INT64_MAX, UINT32_MAX",                                             \
          "  out->seconds = x[0];\n  out->nanos = (uint32_t)x[1];\n", "", "")
#define OFFSET_DT_CONV(name)                                                                  \
  DT_CONV(name, "desert_offset_date_time", 8, 0,                                              \
          "  gc_dt_split(&in->date_time, x);\n  x[7] = in->offset_seconds;\n",                \
          "GC_DATE_LO, GC_TIME_LO, INT32_MIN", "GC_DATE_HI, GC_TIME_HI, INT32_MAX",            \
          "  gc_dt_join(x, &out->date_time);\n  out->offset_seconds = (int32_t)x[7];\n", "", "")

static const builtin_code builtins[] = {
    {DESERT_TYPE_BOOL,
     "static desert_status gc_tv_bool(gc_enc *c, const bool *in, desert_value *out) {\n"
     "  (void)c;\n  out->kind = DESERT_VALUE_BOOL;\n  out->as.b = *in;\n  return DESERT_OK;\n}\n"
     "static desert_status gc_fv_bool(gc_dec *c, const desert_value *v, bool *out) {\n"
     "  (void)c;\n  if (v->kind != DESERT_VALUE_BOOL) return DESERT_E_ARGUMENT;\n"
     "  *out = v->as.b;\n  return DESERT_OK;\n}\n"},
    {DESERT_TYPE_I8, INT_CONV("i8", "int8_t", "INT8_MIN", "INT8_MAX")},
    {DESERT_TYPE_I16, INT_CONV("i16", "int16_t", "INT16_MIN", "INT16_MAX")},
    {DESERT_TYPE_I32, INT_CONV("i32", "int32_t", "INT32_MIN", "INT32_MAX")},
    {DESERT_TYPE_I64, INT_CONV("i64", "int64_t", "INT64_MIN", "INT64_MAX")},
    {DESERT_TYPE_VAR_I32, INT_CONV("var_i32", "int32_t", "INT32_MIN", "INT32_MAX")},
    {DESERT_TYPE_YEAR, INT_CONV("year", "int32_t", "INT32_MIN", "INT32_MAX")},
    {DESERT_TYPE_ZONE_OFFSET, INT_CONV("zone_offset", "int32_t", "INT32_MIN", "INT32_MAX")},
    {DESERT_TYPE_DAY_OF_WEEK, INT_CONV("day_of_week", "uint8_t", "0", "UINT8_MAX")},
    {DESERT_TYPE_MONTH, INT_CONV("month", "uint8_t", "0", "UINT8_MAX")},
    {DESERT_TYPE_U8, UINT_CONV("u8", "uint8_t", "UINT8_MAX")},
    {DESERT_TYPE_U16, UINT_CONV("u16", "uint16_t", "UINT16_MAX")},
    {DESERT_TYPE_U32, UINT_CONV("u32", "uint32_t", "UINT32_MAX")},
    {DESERT_TYPE_U64, UINT_CONV("u64", "uint64_t", "UINT64_MAX")},
    {DESERT_TYPE_VAR_U32, UINT_CONV("var_u32", "uint32_t", "UINT32_MAX")},
    {DESERT_TYPE_F32,
     "static desert_status gc_tv_f32(gc_enc *c, const float *in, desert_value *out) {\n"
     "  uint32_t bits;\n  (void)c;\n  memcpy(&bits, in, 4);\n"
     "  out->kind = DESERT_VALUE_FLOAT;\n  out->as.bits = bits;\n  return DESERT_OK;\n}\n"
     "static desert_status gc_fv_f32(gc_dec *c, const desert_value *v, float *out) {\n"
     "  uint32_t bits;\n  (void)c;\n"
     "  if (v->kind != DESERT_VALUE_FLOAT || v->as.bits > UINT32_MAX) return DESERT_E_ARGUMENT;\n"
     "  bits = (uint32_t)v->as.bits;\n  memcpy(out, &bits, 4);\n  return DESERT_OK;\n}\n"},
    {DESERT_TYPE_F64,
     "static desert_status gc_tv_f64(gc_enc *c, const double *in, desert_value *out) {\n"
     "  uint64_t bits;\n  (void)c;\n  memcpy(&bits, in, 8);\n"
     "  out->kind = DESERT_VALUE_FLOAT;\n  out->as.bits = bits;\n  return DESERT_OK;\n}\n"
     "static desert_status gc_fv_f64(gc_dec *c, const desert_value *v, double *out) {\n"
     "  (void)c;\n  if (v->kind != DESERT_VALUE_FLOAT) return DESERT_E_ARGUMENT;\n"
     "  memcpy(out, &v->as.bits, 8);\n  return DESERT_OK;\n}\n"},
    {DESERT_TYPE_UNIT,
     "static desert_status gc_tv_unit(gc_enc *c, const uint8_t *in, desert_value *out) {\n"
     "  (void)c;\n  (void)in;\n  out->kind = DESERT_VALUE_NULL;\n  return DESERT_OK;\n}\n"
     "static desert_status gc_fv_unit(gc_dec *c, const desert_value *v, uint8_t *out) {\n"
     "  (void)c;\n  *out = 0;\n"
     "  return v->kind == DESERT_VALUE_NULL ? DESERT_OK : DESERT_E_ARGUMENT;\n}\n"},
    {DESERT_TYPE_CHAR, CHAR_CONV("char")},
    /* char16 keeps a code point too: one above U+FFFF must reach the writer,
     * which refuses it with UnsupportedCharacter as the runtime path does. */
    {DESERT_TYPE_CHAR16, CHAR_CONV("char16")},

    {DESERT_TYPE_STRING, TEXT_CONV("string", "DESERT_VALUE_STRING")},
    {DESERT_TYPE_DEDUP_STRING, TEXT_CONV("dedup_string", "DESERT_VALUE_STRING")},
    {DESERT_TYPE_BIGDECIMAL, TEXT_CONV("bigdecimal", "DESERT_VALUE_STRING")},
    {DESERT_TYPE_BYTES, BYTES_CONV("bytes", "DESERT_VALUE_BYTES", "")},
    {DESERT_TYPE_BIGINT, BYTES_CONV("bigint", "DESERT_VALUE_BIGINT", "")},
    {DESERT_TYPE_COMPRESSED, BYTES_CONV("compressed", "DESERT_VALUE_BYTES", COPY_BYTES)},
    {DESERT_TYPE_UUID,
     "static desert_status gc_tv_uuid(gc_enc *c, const desert_gen_uuid *in, desert_value *out) {\n"
     "  (void)c;\n  gc_text(out, DESERT_VALUE_BYTES, in->bytes, 16);\n  return DESERT_OK;\n}\n"
     "static desert_status gc_fv_uuid(gc_dec *c, const desert_value *v, desert_gen_uuid *out) {\n"
     "  desert_str s;\n  (void)c;\n"
     "  if (!gc_get_text(v, DESERT_VALUE_BYTES, &s) || s.len != 16) return DESERT_E_ARGUMENT;\n"
     "  memcpy(out->bytes, s.ptr, 16);\n  return DESERT_OK;\n}\n"},
    {DESERT_TYPE_DURATION, DURATION_CONV("duration")},
    {DESERT_TYPE_INSTANT, DURATION_CONV("instant")},
    {DESERT_TYPE_BIGDECIMAL_BINARY,
     "static desert_status gc_tv_bigdecimal_binary(gc_enc *c, const desert_cbigdecimal *in,\n"
     "                                             desert_value *out) {\n"
     "  desert_value *it = gc_seq(c, out, 2);\n  if (!it) return DESERT_E_NOMEM;\n"
     "  if (in->unscaled.len && !in->unscaled.ptr) return DESERT_E_ARGUMENT;\n"
     "  gc_text(&it[0], DESERT_VALUE_BIGINT, in->unscaled.ptr, in->unscaled.len);\n"
     "  gc_int(&it[1], in->scale);\n  return DESERT_OK;\n}\n"
     "static desert_status gc_fv_bigdecimal_binary(gc_dec *c, const desert_value *v,\n"
     "                                             desert_cbigdecimal *out) {\n"
     "  desert_str s;\n  (void)c;\n"
     "  if (!gc_is_seq(v, 2) || !gc_get_text(&v->as.seq.items[0], DESERT_VALUE_BIGINT, &s) ||\n"
     "      !gc_get_int(&v->as.seq.items[1], INT64_MIN, INT64_MAX, &out->scale))\n"
     "    return DESERT_E_ARGUMENT;\n"
     "  out->unscaled.ptr = (const uint8_t *)s.ptr;\n  out->unscaled.len = s.len;\n"
     "  return DESERT_OK;\n}\n"},
    {DESERT_TYPE_MONTH_DAY,
     DT_CONV("month_day", "desert_month_day", 2, 0, "  x[0] = in->month;\n  x[1] = in->day;\n",
             "0, 0", "255, 255",
             "  out->month = (uint8_t)x[0];\n  out->day = (uint8_t)x[1];\n", "", "")},
    {DESERT_TYPE_YEAR_MONTH,
     DT_CONV("year_month", "desert_year_month", 2, 0, "  x[0] = in->year;\n  x[1] = in->month;\n",
             "INT32_MIN, 0", "INT32_MAX, 255",
             "  out->year = (int32_t)x[0];\n  out->month = (uint8_t)x[1];\n", "", "")},
    {DESERT_TYPE_PERIOD,
     DT_CONV("period", "desert_period", 3, 0,
             "  x[0] = in->years;\n  x[1] = in->months;\n  x[2] = in->days;\n",
             "INT32_MIN, INT32_MIN, INT32_MIN", "INT32_MAX, INT32_MAX, INT32_MAX",
             "  out->years = (int32_t)x[0];\n  out->months = (int32_t)x[1];\n"
             "  out->days = (int32_t)x[2];\n",
             "", "")},
    {DESERT_TYPE_ZONE_ID,
     "static desert_status gc_tv_zone_id(gc_enc *c, const desert_zone_id *in, desert_value *out) {\n"
     "  return gc_zone_out(c, in, out);\n}\n"
     "static desert_status gc_fv_zone_id(gc_dec *c, const desert_value *v, desert_zone_id *out) {\n"
     "  (void)c;\n  return gc_zone_in(v, out);\n}\n"},
    {DESERT_TYPE_LOCAL_DATE,
     DT_CONV("local_date", "desert_local_date", 3, 0,
             "  x[0] = in->year;\n  x[1] = in->month;\n  x[2] = in->day;\n", "GC_DATE_LO",
             "GC_DATE_HI",
             "  out->year = (int32_t)x[0];\n  out->month = (uint8_t)x[1];\n"
             "  out->day = (uint8_t)x[2];\n",
             "", "")},
    {DESERT_TYPE_LOCAL_TIME,
     DT_CONV("local_time", "desert_local_time", 4, 0,
             "  x[0] = in->hour;\n  x[1] = in->minute;\n  x[2] = in->second;\n  x[3] = in->nano;\n",
             "GC_TIME_LO", "GC_TIME_HI",
             "  out->hour = (uint8_t)x[0];\n  out->minute = (uint8_t)x[1];\n"
             "  out->second = (uint8_t)x[2];\n  out->nano = (uint32_t)x[3];\n",
             "", "")},
    {DESERT_TYPE_LOCAL_DATE_TIME,
     DT_CONV("local_date_time", "desert_local_date_time", 7, 0, "  gc_dt_split(in, x);\n",
             "GC_DATE_LO, GC_TIME_LO", "GC_DATE_HI, GC_TIME_HI", "  gc_dt_join(x, out);\n", "",
             "")},
    {DESERT_TYPE_OFFSET_TIME,
     DT_CONV("offset_time", "desert_offset_time", 5, 0,
             "  x[0] = in->time.hour;\n  x[1] = in->time.minute;\n  x[2] = in->time.second;\n"
             "  x[3] = in->time.nano;\n  x[4] = in->offset_seconds;\n",
             "GC_TIME_LO, INT32_MIN", "GC_TIME_HI, INT32_MAX",
             "  out->time.hour = (uint8_t)x[0];\n  out->time.minute = (uint8_t)x[1];\n"
             "  out->time.second = (uint8_t)x[2];\n  out->time.nano = (uint32_t)x[3];\n"
             "  out->offset_seconds = (int32_t)x[4];\n",
             "", "")},
    {DESERT_TYPE_OFFSET_DATE_TIME, OFFSET_DT_CONV("offset_date_time")},
    {DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET, OFFSET_DT_CONV("rust_datetime_fixed_offset")},
    {DESERT_TYPE_ZONED_DATE_TIME,
     DT_CONV("zoned_date_time", "desert_zoned_date_time", 8, 1,
             "  gc_dt_split(&in->date_time, x);\n  x[7] = in->offset_seconds;\n",
             "GC_DATE_LO, GC_TIME_LO, INT32_MIN", "GC_DATE_HI, GC_TIME_HI, INT32_MAX",
             "  gc_dt_join(x, &out->date_time);\n  out->offset_seconds = (int32_t)x[7];\n",
             "  if ((st = gc_zone_out(c, &in->zone, &out->as.seq.items[8]))) return st;\n",
             "  if (gc_zone_in(&v->as.seq.items[8], &out->zone)) return DESERT_E_ARGUMENT;\n")},
    {DESERT_TYPE_RUST_DATETIME_TZ,
     DT_CONV("rust_datetime_tz", "desert_cdatetime_tz", 7, 1, "  gc_dt_split(&in->utc, x);\n",
             "GC_DATE_LO, GC_TIME_LO", "GC_DATE_HI, GC_TIME_HI", "  gc_dt_join(x, &out->utc);\n",
             "  if (in->zone.len && !in->zone.ptr) return DESERT_E_ARGUMENT;\n"
             "  gc_text(&out->as.seq.items[7], DESERT_VALUE_STRING, in->zone.ptr, in->zone.len);\n",
             "  if (!gc_get_text(&v->as.seq.items[7], DESERT_VALUE_STRING, &out->zone))\n"
             "    return DESERT_E_ARGUMENT;\n")},
};

void gc_emit_runtime(gc_buf *b, const bool *used) {
  gc_put(b, common, sizeof common - 1);
  gc_put(b, common2, sizeof common2 - 1);
  for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
    if (!used[builtins[i].kind]) continue;
    gc_put(b, "\n", 1);
    gc_put(b, builtins[i].code, strlen(builtins[i].code));
  }
}
