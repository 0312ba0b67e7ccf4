/* src/json/json_value.c — JSON values into value trees under a desert_type,
 * with every input rule of docs/schema.md §11: integer ranges from the exact
 * text (any size), floats converted directly from their decimal text with
 * strtod/strtof, the NaN/Infinity strings and exact bit patterns, one-scalar
 * chars, hex byte strings, UUIDs, big numbers, the fixed objects of the
 * date/time types with their ranges, options with the nullable rule,
 * records (optional, transient, unknown keys) and enums ($case). Errors carry
 * the JSON path of the offending value.
 * SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_internal.h"

/* ---- fixed-layout objects ---------------------------------------------------------------- */

#define Y         999999999
#define DATE_KEYS "year", "month", "day"
#define TIME_KEYS "hour", "minute", "second", "nano"
#define DATE_LO   -Y, 1, 1
#define DATE_HI   Y, 12, 31
#define TIME_LO   0, 0, 0, 0
#define TIME_HI   23, 59, 59, 999999999
#define I7                                                                                \
  DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT, \
      DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT

static const desert_json_fixed fx_duration = {2,
                                              {"seconds", "nanos"},
                                              {DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT},
                                              {INT64_MIN, 0},
                                              {INT64_MAX, 999999999},
                                              -1,
                                              -1,
                                              -1};
static const desert_json_fixed fx_bigdec = {2,
                                            {"unscaled", "scale"},
                                            {DESERT_JSON_COMP_BIGINT, DESERT_JSON_COMP_INT},
                                            {0, INT64_MIN},
                                            {0, INT64_MAX},
                                            -1,
                                            -1,
                                            -1};
static const desert_json_fixed fx_month_day = {
    2, {"month", "day"}, {DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT}, {1, 1}, {12, 31}, -1, 0, 1};
static const desert_json_fixed fx_year_month = {
    2, {"year", "month"}, {DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT}, {-Y, 1}, {Y, 12}, -1, -1,
    -1};
static const desert_json_fixed fx_period = {
    3,
    {"years", "months", "days"},
    {DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT},
    {INT32_MIN, INT32_MIN, INT32_MIN},
    {INT32_MAX, INT32_MAX, INT32_MAX},
    -1,
    -1,
    -1};
static const desert_json_fixed fx_date = {
    3,
    {DATE_KEYS},
    {DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT},
    {DATE_LO},
    {DATE_HI},
    0,
    1,
    2};
static const desert_json_fixed fx_time = {
    4,
    {TIME_KEYS},
    {DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT},
    {TIME_LO},
    {TIME_HI},
    -1,
    -1,
    -1};
static const desert_json_fixed fx_date_time = {
    7, {DATE_KEYS, TIME_KEYS}, {I7}, {DATE_LO, TIME_LO}, {DATE_HI, TIME_HI}, 0, 1, 2};
static const desert_json_fixed fx_offset_time = {5,
                                                 {TIME_KEYS, "offset"},
                                                 {DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT,
                                                  DESERT_JSON_COMP_INT, DESERT_JSON_COMP_INT,
                                                  DESERT_JSON_COMP_INT},
                                                 {TIME_LO, -64800},
                                                 {TIME_HI, 64800},
                                                 -1,
                                                 -1,
                                                 -1};
static const desert_json_fixed fx_offset_date_time = {8,
                                                      {DATE_KEYS, TIME_KEYS, "offset"},
                                                      {I7, DESERT_JSON_COMP_INT},
                                                      {DATE_LO, TIME_LO, -64800},
                                                      {DATE_HI, TIME_HI, 64800},
                                                      0,
                                                      1,
                                                      2};
static const desert_json_fixed fx_zoned = {9,
                                           {DATE_KEYS, TIME_KEYS, "offset", "zone"},
                                           {I7, DESERT_JSON_COMP_INT, DESERT_JSON_COMP_ZONE},
                                           {DATE_LO, TIME_LO, -64800, 0},
                                           {DATE_HI, TIME_HI, 64800, 0},
                                           0,
                                           1,
                                           2};
static const desert_json_fixed fx_rust_fixed = {8,
                                                {DATE_KEYS, TIME_KEYS, "offset"},
                                                {I7, DESERT_JSON_COMP_INT},
                                                {DATE_LO, TIME_LO, -86399},
                                                {DATE_HI, TIME_HI, 86399},
                                                0,
                                                1,
                                                2};
static const desert_json_fixed fx_rust_tz = {8,
                                             {DATE_KEYS, TIME_KEYS, "zone"},
                                             {I7, DESERT_JSON_COMP_STRING},
                                             {DATE_LO, TIME_LO, 0},
                                             {DATE_HI, TIME_HI, 0},
                                             0,
                                             1,
                                             2};

const desert_json_fixed *desert_json_fixed_of(desert_type_kind kind) {
  switch (kind) {
  case DESERT_TYPE_DURATION:
  case DESERT_TYPE_INSTANT:
    return &fx_duration;
  case DESERT_TYPE_BIGDECIMAL_BINARY:
    return &fx_bigdec;
  case DESERT_TYPE_MONTH_DAY:
    return &fx_month_day;
  case DESERT_TYPE_YEAR_MONTH:
    return &fx_year_month;
  case DESERT_TYPE_PERIOD:
    return &fx_period;
  case DESERT_TYPE_LOCAL_DATE:
    return &fx_date;
  case DESERT_TYPE_LOCAL_TIME:
    return &fx_time;
  case DESERT_TYPE_LOCAL_DATE_TIME:
    return &fx_date_time;
  case DESERT_TYPE_OFFSET_TIME:
    return &fx_offset_time;
  case DESERT_TYPE_OFFSET_DATE_TIME:
    return &fx_offset_date_time;
  case DESERT_TYPE_ZONED_DATE_TIME:
    return &fx_zoned;
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET:
    return &fx_rust_fixed;
  case DESERT_TYPE_RUST_DATETIME_TZ:
    return &fx_rust_tz;
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_BOOL: case DESERT_TYPE_I8: case DESERT_TYPE_I16:
  case DESERT_TYPE_I32: case DESERT_TYPE_I64: case DESERT_TYPE_U8: case DESERT_TYPE_U16:
  case DESERT_TYPE_U32: case DESERT_TYPE_U64: case DESERT_TYPE_F32: case DESERT_TYPE_F64:
  case DESERT_TYPE_UNIT: case DESERT_TYPE_CHAR: case DESERT_TYPE_CHAR16: case DESERT_TYPE_STRING:
  case DESERT_TYPE_DEDUP_STRING: case DESERT_TYPE_VAR_U32: case DESERT_TYPE_VAR_I32:
  case DESERT_TYPE_BYTES: case DESERT_TYPE_UUID: case DESERT_TYPE_BIGINT:
  case DESERT_TYPE_BIGDECIMAL: case DESERT_TYPE_COMPRESSED: case DESERT_TYPE_DAY_OF_WEEK:
  case DESERT_TYPE_MONTH: case DESERT_TYPE_YEAR: case DESERT_TYPE_ZONE_OFFSET:
  case DESERT_TYPE_ZONE_ID: case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return NULL;
}

int desert_json_days_in_month(int64_t year, int64_t month, bool year_known) {
  static const int days[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return 0;
  if (month != 2) return days[month];
  if (!year_known) return 29;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return leap ? 29 : 28;
}

/* ---- conversion context --------------------------------------------------------------------- */

typedef struct convctx {
  desert_value_arena *a;
  desert_json_error *err;
  unsigned depth;
  size_t plen;
  char path[384];
} convctx;

static size_t push_key(convctx *cv, const char *k, size_t n) {
  size_t old = cv->plen;
  size_t room = sizeof cv->path - cv->plen - 1;
  if (room > 1) {
    cv->path[cv->plen++] = '.';
    room--;
    size_t m = n < room ? n : room;
    memcpy(cv->path + cv->plen, k, m);
    cv->plen += m;
  }
  cv->path[cv->plen] = '\0';
  return old;
}

static size_t push_index(convctx *cv, size_t i) {
  size_t old = cv->plen;
  char tmp[32];
  int n = snprintf(tmp, sizeof tmp, "[%zu]", i);
  if (cv->plen + (size_t)n < sizeof cv->path) {
    memcpy(cv->path + cv->plen, tmp, (size_t)n);
    cv->plen += (size_t)n;
  }
  cv->path[cv->plen] = '\0';
  return old;
}

static void pop_to(convctx *cv, size_t old) {
  cv->plen = old;
  cv->path[old] = '\0';
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static desert_status
fail(convctx *cv, desert_json_error_kind kind, desert_status st, const char *fmt, ...) {
  desert_json_error *e = cv->err;
  if (e && e->kind == DESERT_JSON_ERR_NONE) {
    e->kind = kind;
    e->status = st;
    e->has_offset = false;
    char tmp[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    snprintf(e->message, sizeof e->message, "%.200s: %.300s", cv->path, tmp);
  }
  return st ? st : DESERT_E_ARGUMENT;
}

#define BADV(...) fail(cv, DESERT_JSON_ERR_BAD_VALUE, DESERT_E_ARGUMENT, __VA_ARGS__)

static desert_value *vals(convctx *cv, size_t n) {
  desert_value *v = desert_value_arena_values(cv->a, n);
  if (!v) fail(cv, DESERT_JSON_ERR_STATUS, DESERT_E_NOMEM, "out of memory");
  return v;
}

static const char *copy_text(convctx *cv, const char *s, size_t n) {
  char *d = desert_value_arena_alloc(cv->a, n + 1, 1);
  if (!d) {
    fail(cv, DESERT_JSON_ERR_STATUS, DESERT_E_NOMEM, "out of memory");
    return NULL;
  }
  if (n) memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

static const char *jkind(const desert_json *j) {
  switch (j->kind) {
  case DESERT_JSON_NULL:
    return "null";
  case DESERT_JSON_BOOL:
    return "a bool";
  case DESERT_JSON_NUMBER:
    return j->integer ? "an integer" : "a number";
  case DESERT_JSON_STRING:
    return "a string";
  case DESERT_JSON_ARRAY:
    return "an array";
  case DESERT_JSON_OBJECT:
    break;
  }
  return "an object";
}

/* ---- scalars ------------------------------------------------------------------------------------
 */

/* Sign and magnitude of an integer's text; big = the magnitude exceeds 2^64-1. */
static void int_text(const desert_json *j, bool *neg, uint64_t *mag, bool *big) {
  const char *s = j->str;
  *neg = *s == '-';
  if (*neg) s++;
  uint64_t m = 0;
  *big = false;
  for (; *s; s++) {
    unsigned d = (unsigned)(*s - '0');
    if (m > (UINT64_MAX - d) / 10) {
      *big = true;
      break;
    }
    m = m * 10 + d;
  }
  *mag = m;
  if (m == 0 && !*big) *neg = false; /* -0 is 0 */
}

static desert_status conv_int(convctx *cv, const desert_json *j, int64_t lo, int64_t hi,
                              int64_t *out) {
  if (j->kind != DESERT_JSON_NUMBER || !j->integer) return BADV("expected an integer");
  bool neg, big;
  uint64_t m;
  int_text(j, &neg, &m, &big);
  bool ok = !big;
  int64_t v = 0;
  if (ok) {
    if (neg) {
      if (m > (uint64_t)INT64_MAX + 1u)
        ok = false;
      else
        v = m == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)m;
    } else {
      if (m > (uint64_t)INT64_MAX)
        ok = false;
      else
        v = (int64_t)m;
    }
  }
  if (!ok || v < lo || v > hi)
    return BADV("integer %.40s out of range [%lld, %lld]", j->str, (long long)lo, (long long)hi);
  *out = v;
  return DESERT_OK;
}

/* An integer kind's value: j within [lo, hi]. */
static desert_status conv_signed(convctx *cv, const desert_json *j, int64_t lo, int64_t hi,
                                 desert_value *out) {
  int64_t i = 0;
  desert_status st = conv_int(cv, j, lo, hi, &i);
  if (st) return st;
  out->kind = DESERT_VALUE_INT;
  out->as.i = i;
  return DESERT_OK;
}

static desert_status conv_uint(convctx *cv, const desert_json *j, uint64_t hi, uint64_t *out) {
  if (j->kind != DESERT_JSON_NUMBER || !j->integer) return BADV("expected an integer");
  bool neg, big;
  uint64_t m;
  int_text(j, &neg, &m, &big);
  if (big || neg || m > hi)
    return BADV("integer %.40s out of range [0, %llu]", j->str, (unsigned long long)hi);
  *out = m;
  return DESERT_OK;
}

static int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool hex_decode(const char *s, size_t n, unsigned char *out) {
  if (n % 2) return false;
  for (size_t i = 0; i < n; i += 2) {
    int h = hexv(s[i]), l = hexv(s[i + 1]);
    if (h < 0 || l < 0) return false;
    out[i / 2] = (unsigned char)(h << 4 | l);
  }
  return true;
}

static desert_status conv_float(convctx *cv, const desert_json *j, bool is_f32, desert_value *out) {
  out->kind = DESERT_VALUE_FLOAT;
  if (j->kind == DESERT_JSON_NUMBER) {
    bool zero_int = false;
    if (j->integer) {
      zero_int = true;
      for (const char *s = j->str; *s; s++)
        if (*s >= '1' && *s <= '9') zero_int = false;
    }
    if (zero_int) {
      out->as.bits = 0;
      return DESERT_OK;
    }
    if (is_f32) {
      float f = strtof(j->str, NULL);
      if (isinf(f)) return BADV("%.40s is out of the f32 range", j->str);
      uint32_t u;
      memcpy(&u, &f, 4);
      out->as.bits = u;
    } else {
      double d = strtod(j->str, NULL);
      if (isinf(d)) return BADV("%.40s is out of the f64 range", j->str);
      memcpy(&out->as.bits, &d, 8);
    }
    return DESERT_OK;
  }
  if (j->kind == DESERT_JSON_STRING) {
    if (strcmp(j->str, "NaN") == 0 && j->len == 3) {
      out->as.bits = is_f32 ? 0x7FC00000u : 0x7FF8000000000000ull;
    } else if (strcmp(j->str, "Infinity") == 0 && j->len == 8) {
      out->as.bits = is_f32 ? 0x7F800000u : 0x7FF0000000000000ull;
    } else if (strcmp(j->str, "-Infinity") == 0 && j->len == 9) {
      out->as.bits = is_f32 ? 0xFF800000u : 0xFFF0000000000000ull;
    } else {
      return BADV("a float string is \"NaN\", \"Infinity\" or \"-Infinity\"");
    }
    return DESERT_OK;
  }
  if (j->kind == DESERT_JSON_OBJECT) {
    const char *key = is_f32 ? "f32_bits" : "f64_bits";
    const size_t nd = is_f32 ? 8 : 16;
    if (j->count != 1 || strcmp(j->members[0].key.str, key) != 0 || j->members[0].key.len != 8)
      return BADV("expected {\"%s\": hex}", key);
    const desert_json *h = &j->members[0].value;
    unsigned char b[8];
    if (h->kind != DESERT_JSON_STRING || h->len != nd || !hex_decode(h->str, nd, b))
      return BADV("%s holds exactly %zu hex digits", key, nd);
    uint64_t bits = 0;
    for (size_t i = 0; i < nd / 2; i++) bits = bits << 8 | b[i];
    out->as.bits = bits;
    return DESERT_OK;
  }
  return BADV("expected a number, \"NaN\", \"Infinity\", \"-Infinity\" or the bits, got %s",
              jkind(j));
}

/* Decodes one code point of valid UTF-8 (WTF-8 surrogates included). */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp) {
  unsigned char b = s[0];
  if (b < 0x80 || n < 2) {
    *cp = b;
    return 1;
  }
  if (b < 0xE0) {
    *cp = (uint32_t)(b & 0x1F) << 6 | (s[1] & 0x3Fu);
    return 2;
  }
  if (b < 0xF0 || n < 4) {
    if (n < 3) {
      *cp = b;
      return 1;
    }
    *cp = (uint32_t)(b & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3Fu);
    return 3;
  }
  *cp = (uint32_t)(b & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 | (uint32_t)(s[2] & 0x3F) << 6 |
        (s[3] & 0x3Fu);
  return 4;
}

static desert_status conv_string(convctx *cv, const desert_json *j, desert_value *out) {
  if (j->kind != DESERT_JSON_STRING) return BADV("expected a string, got %s", jkind(j));
  if (j->lone) return BADV("string holds a lone surrogate");
  const char *p = copy_text(cv, j->str, j->len);
  if (!p) return DESERT_E_NOMEM;
  out->kind = DESERT_VALUE_STRING;
  out->as.str.ptr = p;
  out->as.str.len = j->len;
  return DESERT_OK;
}

static bool bigint_syntax(const char *s, size_t n) {
  size_t i = 0;
  if (i < n && s[i] == '-') i++;
  if (i >= n) return false;
  if (s[i] == '0') return i + 1 == n && i == 0; /* "0" only, not "-0" or "01" */
  for (; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

#define DESERT_JSON_BIGINT_MAX_DIGITS 40000u

static desert_status conv_bigint(convctx *cv, const desert_json *j, desert_value *out) {
  const char *s;
  size_t n;
  if (j->kind == DESERT_JSON_STRING && !j->lone && bigint_syntax(j->str, j->len)) {
    s = j->str;
    n = j->len;
  } else if (j->kind == DESERT_JSON_NUMBER && j->integer) {
    s = j->str;
    n = j->len;
    if (n == 2 && s[0] == '-' && s[1] == '0') {
      s = "0";
      n = 1;
    }
  } else {
    return BADV("expected a big integer as a decimal string or an integer");
  }
  if (n > DESERT_JSON_BIGINT_MAX_DIGITS)
    return BADV("big integer longer than %u digits", DESERT_JSON_BIGINT_MAX_DIGITS);
  size_t cap = desert_bigint_bytes_bound(n);
  uint8_t *b = desert_value_arena_alloc(cv->a, cap ? cap : 1, 1);
  if (!b) return fail(cv, DESERT_JSON_ERR_STATUS, DESERT_E_NOMEM, "out of memory");
  size_t len = 0;
  if (desert_bigint_from_decimal(s, n, b, cap, &len)) return BADV("invalid big integer");
  out->kind = DESERT_VALUE_BIGINT;
  out->as.str.ptr = (const char *)b;
  out->as.str.len = len;
  return DESERT_OK;
}

static bool bigdecimal_syntax(const char *s, size_t n) {
  size_t i = 0;
  if (i < n && (s[i] == '+' || s[i] == '-')) i++;
  size_t d1 = 0, d2 = 0;
  while (i < n && s[i] >= '0' && s[i] <= '9') {
    i++;
    d1++;
  }
  if (i < n && s[i] == '.') {
    i++;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      i++;
      d2++;
    }
  }
  if (d1 == 0 && d2 == 0) return false;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    size_t d3 = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      i++;
      d3++;
    }
    if (d3 == 0) return false;
  }
  return i == n;
}

static desert_status conv_zone(convctx *cv, const desert_json *j, desert_value *out) {
  if (j->kind != DESERT_JSON_OBJECT || j->count != 1)
    return BADV("a zone id is {\"offset\": seconds} or {\"region\": name}");
  const desert_json_member *m = &j->members[0];
  desert_value *child = vals(cv, 1);
  if (!child) return DESERT_E_NOMEM;
  out->kind = DESERT_VALUE_ALT;
  out->as.child = child;
  size_t old = push_key(cv, m->key.str, m->key.len);
  desert_status st;
  if (m->key.len == 6 && strcmp(m->key.str, "offset") == 0) {
    out->index = 0;
    int64_t v;
    st = conv_int(cv, &m->value, -64800, 64800, &v);
    if (!st) {
      child->kind = DESERT_VALUE_INT;
      child->as.i = v;
    }
  } else if (m->key.len == 6 && strcmp(m->key.str, "region") == 0) {
    out->index = 1;
    st = conv_string(cv, &m->value, child);
  } else {
    pop_to(cv, old);
    return BADV("a zone id is {\"offset\": seconds} or {\"region\": name}");
  }
  if (!st) pop_to(cv, old);
  return st;
}

static desert_status conv_fixed(convctx *cv, const desert_type *t, const desert_json *j,
                                desert_value *out) {
  const desert_json_fixed *fx = desert_json_fixed_of(t->kind);
  const char *tn = desert_type_kind_name(t->kind);
  if (j->kind != DESERT_JSON_OBJECT) return BADV("expected a %s object, got %s", tn, jkind(j));
  for (size_t m = 0; m < j->count; m++) {
    bool known = false;
    for (size_t i = 0; i < fx->count && !known; i++)
      known = strcmp(j->members[m].key.str, fx->keys[i]) == 0 &&
              j->members[m].key.len == strlen(fx->keys[i]);
    if (!known) return BADV("unknown key '%.64s' for %s", j->members[m].key.str, tn);
  }
  desert_value *items = vals(cv, fx->count);
  if (!items) return DESERT_E_NOMEM;
  for (size_t i = 0; i < fx->count; i++) {
    const desert_json *c = desert_json_get(j, fx->keys[i]);
    if (!c) return BADV("missing key '%s' for %s", fx->keys[i], tn);
    size_t old = push_key(cv, fx->keys[i], strlen(fx->keys[i]));
    desert_status st;
    switch (fx->comp[i]) {
    case DESERT_JSON_COMP_ZONE:
      st = conv_zone(cv, c, &items[i]);
      break;
    case DESERT_JSON_COMP_STRING:
      st = conv_string(cv, c, &items[i]);
      break;
    case DESERT_JSON_COMP_BIGINT:
      st = conv_bigint(cv, c, &items[i]);
      break;
    case DESERT_JSON_COMP_INT:
      st = conv_signed(cv, c, fx->lo[i], fx->hi[i], &items[i]);
      break;
    }
    if (st) return st;
    pop_to(cv, old);
  }
  if (fx->day >= 0) {
    int64_t y = fx->year >= 0 ? items[fx->year].as.i : 0;
    int64_t mo = items[fx->month].as.i, d = items[fx->day].as.i;
    int dim = desert_json_days_in_month(y, mo, fx->year >= 0);
    if (d > dim) {
      if (fx->year >= 0)
        return BADV("day %lld out of range for %lld-%02lld", (long long)d, (long long)y,
                    (long long)mo);
      return BADV("day %lld out of range for month %lld", (long long)d, (long long)mo);
    }
  }
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = fx->count;
  return DESERT_OK;
}

/* ---- composites -------------------------------------------------------------------------------
 */

static desert_status conv(convctx *cv, const desert_type *t, const desert_json *j,
                          desert_value *out);

static desert_status conv_option(convctx *cv, const desert_type *inner, const desert_json *j,
                                 desert_value *out) {
  if (j->kind == DESERT_JSON_NULL) {
    out->kind = DESERT_VALUE_NULL;
    return DESERT_OK;
  }
  desert_value *child = vals(cv, 1);
  if (!child) return DESERT_E_NOMEM;
  out->kind = DESERT_VALUE_SOME;
  out->as.child = child;
  if (desert_type_nullable(inner)) {
    if (j->kind != DESERT_JSON_OBJECT || j->count != 1 ||
        strcmp(j->members[0].key.str, "some") != 0 || j->members[0].key.len != 4)
      return BADV("Some of a nullable type is written {\"some\": value}");
    size_t old = push_key(cv, "some", 4);
    desert_status st = conv(cv, inner, &j->members[0].value, child);
    if (!st) pop_to(cv, old);
    return st;
  }
  return conv(cv, inner, j, child);
}

/* The fields of record type rt from object j (skipping "$case" for enums). */
static desert_status conv_fields(convctx *cv, const desert_type *rt, const desert_json *j,
                                 bool skip_case, desert_value *out) {
  if (j->kind != DESERT_JSON_OBJECT)
    return BADV("expected an object for %s, got %s", rt->name ? rt->name : "a record", jkind(j));
  const size_t nf = rt->u.record.field_count;
  for (size_t m = 0; m < j->count; m++) {
    const desert_json *k = &j->members[m].key;
    if (skip_case && k->len == 5 && strcmp(k->str, "$case") == 0) continue;
    bool known = false;
    for (size_t i = 0; i < nf && !known; i++)
      known = !k->lone && strcmp(rt->u.record.fields[i].name, k->str) == 0 &&
              strlen(rt->u.record.fields[i].name) == k->len;
    if (!known) return BADV("unknown field '%.64s'", k->str);
  }
  desert_value *items = vals(cv, nf);
  if (!items) return DESERT_E_NOMEM;
  for (size_t i = 0; i < nf; i++) {
    const desert_type_field *f = &rt->u.record.fields[i];
    if (f->flags & DESERT_FIELD_TRANSIENT) {
      if (f->transient_default) items[i] = *f->transient_default;
      continue;
    }
    const desert_json *fj = desert_json_get(j, f->name);
    if (!fj) {
      if (f->flags & DESERT_FIELD_OPTIONAL) {
        items[i].kind = DESERT_VALUE_NULL;
        continue;
      }
      return BADV("missing field '%s'", f->name);
    }
    size_t old = push_key(cv, f->name, strlen(f->name));
    desert_status st = (f->flags & DESERT_FIELD_OPTIONAL) ? conv_option(cv, f->type, fj, &items[i])
                                                          : conv(cv, f->type, fj, &items[i]);
    if (st) return st;
    pop_to(cv, old);
  }
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = nf;
  return DESERT_OK;
}

static desert_status conv_enum(convctx *cv, const desert_type *t, const desert_json *j,
                               desert_value *out) {
  const char *en = t->name ? t->name : "enum";
  if (j->kind != DESERT_JSON_OBJECT)
    return BADV("expected an object with \"$case\", got %s", jkind(j));
  const desert_json *cj = desert_json_get(j, "$case");
  if (!cj || cj->kind != DESERT_JSON_STRING) return BADV("missing \"$case\" (a string)");
  size_t idx = SIZE_MAX;
  for (size_t i = 0; i < t->u.enumeration.count && !cj->lone; i++) {
    const char *nm = t->u.enumeration.ctors[i].name;
    if (strlen(nm) == cj->len && memcmp(nm, cj->str, cj->len) == 0) idx = i;
  }
  if (idx == SIZE_MAX)
    return fail(cv, DESERT_JSON_ERR_STATUS, DESERT_E_INVALID_CONSTRUCTOR_NAME,
                "'%.64s' is not a constructor of %s", cj->str, en);
  const desert_type_ctor *k = &t->u.enumeration.ctors[idx];
  if (k->transient)
    return fail(cv, DESERT_JSON_ERR_STATUS, DESERT_E_SERIALIZING_TRANSIENT, "%s.%s", en, k->name);
  desert_value *child = vals(cv, 1);
  if (!child) return DESERT_E_NOMEM;
  out->kind = DESERT_VALUE_ALT;
  out->index = (uint32_t)idx;
  out->as.child = child;
  const desert_type *pt = desert_type_resolve(k->payload);
  if (pt && pt->kind == DESERT_TYPE_RECORD) return conv_fields(cv, pt, j, true, child);
  const desert_json *vj = desert_json_get(j, "value");
  if (!vj || j->count != 2)
    return BADV("constructor %s takes exactly \"$case\" and \"value\"", k->name);
  size_t old = push_key(cv, "value", 5);
  desert_status st = conv(cv, k->payload, vj, child);
  if (!st) pop_to(cv, old);
  return st;
}

static desert_status conv_coll(convctx *cv, const desert_type *t, const desert_json *j,
                               desert_value *out) {
  if (j->kind != DESERT_JSON_ARRAY) return BADV("expected an array, got %s", jkind(j));
  const size_t n = j->count;
  if (t->u.coll.non_empty && n == 0) return BADV("empty array for a non-empty collection");
  if (t->kind == DESERT_TYPE_LIST && t->u.coll.has_length && n != t->u.coll.length)
    return BADV("%zu elements, expected exactly %u", n, (unsigned)t->u.coll.length);
  desert_value *items = vals(cv, n);
  if (!items) return DESERT_E_NOMEM;
  for (size_t i = 0; i < n; i++) {
    size_t old = push_index(cv, i);
    const desert_json *e = &j->items[i];
    desert_status st;
    if (t->kind == DESERT_TYPE_MAP) {
      if (e->kind != DESERT_JSON_ARRAY || e->count != 2) return BADV("a map entry is [key, value]");
      desert_value *kv = vals(cv, 2);
      if (!kv) return DESERT_E_NOMEM;
      size_t o2 = push_index(cv, 0);
      st = conv(cv, t->u.coll.element, &e->items[0], &kv[0]);
      if (st) return st;
      pop_to(cv, o2);
      o2 = push_index(cv, 1);
      st = conv(cv, t->u.coll.value, &e->items[1], &kv[1]);
      if (st) return st;
      pop_to(cv, o2);
      items[i].kind = DESERT_VALUE_SEQ;
      items[i].as.seq.items = kv;
      items[i].as.seq.count = 2;
    } else {
      st = conv(cv, t->u.coll.element, e, &items[i]);
      if (st) return st;
    }
    pop_to(cv, old);
  }
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = n;
  return DESERT_OK;
}

static desert_status conv_alt(convctx *cv, const desert_type *t, const desert_json *j,
                              desert_value *out) {
  const bool is_either = t->kind == DESERT_TYPE_EITHER;
  const char *k0 = is_either ? "left" : "failure", *k1 = is_either ? "right" : "success";
  if (j->kind != DESERT_JSON_OBJECT || j->count != 1)
    return BADV("expected {\"%s\": v} or {\"%s\": v}", k0, k1);
  const desert_json_member *m = &j->members[0];
  unsigned idx;
  if (strcmp(m->key.str, k0) == 0 && m->key.len == strlen(k0))
    idx = 0;
  else if (strcmp(m->key.str, k1) == 0 && m->key.len == strlen(k1))
    idx = 1;
  else
    return BADV("expected {\"%s\": v} or {\"%s\": v}", k0, k1);
  desert_value *child = vals(cv, 1);
  if (!child) return DESERT_E_NOMEM;
  out->kind = DESERT_VALUE_ALT;
  out->index = idx;
  out->as.child = child;
  size_t old = push_key(cv, m->key.str, m->key.len);
  desert_status st = conv(cv, idx ? t->u.alt.right : t->u.alt.left, &m->value, child);
  if (!st) pop_to(cv, old);
  return st;
}

static desert_status conv(convctx *cv, const desert_type *t, const desert_json *j,
                          desert_value *out) {
  t = desert_type_resolve(t);
  if (!t) return BADV("unresolved type");
  if (cv->depth > 2 * DESERT_JSON_MAX_DEPTH) return BADV("value nested too deeply");
  memset(out, 0, sizeof *out);
  uint64_t u = 0;
  desert_status st;
  switch (t->kind) {
  case DESERT_TYPE_BOOL:
    if (j->kind != DESERT_JSON_BOOL) return BADV("expected true or false, got %s", jkind(j));
    out->kind = DESERT_VALUE_BOOL;
    out->as.b = j->b;
    return DESERT_OK;
  case DESERT_TYPE_I8:
    return conv_signed(cv, j, INT8_MIN, INT8_MAX, out);
  case DESERT_TYPE_I16:
    return conv_signed(cv, j, INT16_MIN, INT16_MAX, out);
  case DESERT_TYPE_I32:
  case DESERT_TYPE_VAR_I32:
    return conv_signed(cv, j, INT32_MIN, INT32_MAX, out);
  case DESERT_TYPE_I64:
    return conv_signed(cv, j, INT64_MIN, INT64_MAX, out);
  case DESERT_TYPE_DAY_OF_WEEK:
    return conv_signed(cv, j, 1, 7, out);
  case DESERT_TYPE_MONTH:
    return conv_signed(cv, j, 1, 12, out);
  case DESERT_TYPE_YEAR:
    return conv_signed(cv, j, -Y, Y, out);
  case DESERT_TYPE_ZONE_OFFSET:
    return conv_signed(cv, j, -64800, 64800, out);
  case DESERT_TYPE_U8:
  case DESERT_TYPE_U16:
  case DESERT_TYPE_U32:
  case DESERT_TYPE_U64:
  case DESERT_TYPE_VAR_U32: {
    uint64_t hi = t->kind == DESERT_TYPE_U8    ? UINT8_MAX
                  : t->kind == DESERT_TYPE_U16 ? UINT16_MAX
                  : t->kind == DESERT_TYPE_U64 ? UINT64_MAX
                                               : UINT32_MAX;
    st = conv_uint(cv, j, hi, &u);
    if (st) return st;
    out->kind = DESERT_VALUE_UINT;
    out->as.u = u;
    return DESERT_OK;
  }
  case DESERT_TYPE_F32:
  case DESERT_TYPE_F64:
    return conv_float(cv, j, t->kind == DESERT_TYPE_F32, out);
  case DESERT_TYPE_UNIT:
    if (j->kind != DESERT_JSON_NULL) return BADV("unit is null");
    out->kind = DESERT_VALUE_NULL;
    return DESERT_OK;
  case DESERT_TYPE_CHAR:
  case DESERT_TYPE_CHAR16: {
    uint32_t cp = 0;
    if (j->kind != DESERT_JSON_STRING || j->lone || j->len == 0 ||
        utf8_next((const unsigned char *)j->str, j->len, &cp) != j->len)
      return BADV("a char is a string holding exactly one Unicode scalar value");
    out->kind = DESERT_VALUE_CHAR;
    out->as.cp = cp;
    return DESERT_OK;
  }
  case DESERT_TYPE_STRING:
  case DESERT_TYPE_DEDUP_STRING:
    return conv_string(cv, j, out);
  case DESERT_TYPE_BIGDECIMAL:
    if (j->kind != DESERT_JSON_STRING || j->lone || !bigdecimal_syntax(j->str, j->len))
      return BADV("expected a decimal number as a string, e.g. \"-12.5E+3\"");
    return conv_string(cv, j, out);
  case DESERT_TYPE_BYTES:
  case DESERT_TYPE_COMPRESSED: {
    if (j->kind != DESERT_JSON_STRING) return BADV("expected a hex string (pairs of hex digits)");
    unsigned char *b = desert_value_arena_alloc(cv->a, j->len / 2 + 1, 1);
    if (!b) return fail(cv, DESERT_JSON_ERR_STATUS, DESERT_E_NOMEM, "out of memory");
    if (!hex_decode(j->str, j->len, b)) return BADV("expected a hex string (pairs of hex digits)");
    size_t n = j->len / 2;
    if (t->kind == DESERT_TYPE_BYTES) {
      if (t->u.bytes.non_empty && n == 0) return BADV("empty bytes for a non-empty type");
      if (t->u.bytes.has_length && n != t->u.bytes.length)
        return BADV("%zu bytes, expected exactly %u", n, (unsigned)t->u.bytes.length);
    }
    out->kind = DESERT_VALUE_BYTES;
    out->as.str.ptr = (const char *)b;
    out->as.str.len = n;
    return DESERT_OK;
  }
  case DESERT_TYPE_UUID: {
    static const char layout[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
    if (j->kind != DESERT_JSON_STRING || j->len != 36) return BADV("expected a UUID string");
    unsigned char *b = desert_value_arena_alloc(cv->a, 16, 1);
    if (!b) return fail(cv, DESERT_JSON_ERR_STATUS, DESERT_E_NOMEM, "out of memory");
    size_t k = 0;
    for (size_t p = 0; p < 36; p++) {
      if (layout[p] == '-') {
        if (j->str[p] != '-') return BADV("expected a UUID string");
        continue;
      }
      int h = hexv(j->str[p]), l = hexv(j->str[p + 1]);
      if (h < 0 || l < 0 || layout[p + 1] == '-') return BADV("expected a UUID string");
      b[k++] = (unsigned char)(h << 4 | l);
      p++;
    }
    out->kind = DESERT_VALUE_BYTES;
    out->as.str.ptr = (const char *)b;
    out->as.str.len = 16;
    return DESERT_OK;
  }
  case DESERT_TYPE_BIGINT:
    return conv_bigint(cv, j, out);
  case DESERT_TYPE_ZONE_ID:
    return conv_zone(cv, j, out);
  case DESERT_TYPE_DURATION:
  case DESERT_TYPE_INSTANT:
  case DESERT_TYPE_BIGDECIMAL_BINARY:
  case DESERT_TYPE_MONTH_DAY:
  case DESERT_TYPE_YEAR_MONTH:
  case DESERT_TYPE_PERIOD:
  case DESERT_TYPE_LOCAL_DATE:
  case DESERT_TYPE_LOCAL_TIME:
  case DESERT_TYPE_LOCAL_DATE_TIME:
  case DESERT_TYPE_OFFSET_TIME:
  case DESERT_TYPE_OFFSET_DATE_TIME:
  case DESERT_TYPE_ZONED_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET:
  case DESERT_TYPE_RUST_DATETIME_TZ:
    return conv_fixed(cv, t, j, out);
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  if (!desert_type_kind_name(t->kind)) return BADV("unsupported type");
  cv->depth++;
  st = DESERT_E_ARGUMENT; /* set by every case */
  switch (t->kind) {
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP:
    st = conv_coll(cv, t, j, out);
    break;
  case DESERT_TYPE_OPTION:
    st = conv_option(cv, t->u.inner, j, out);
    break;
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY:
    st = conv_alt(cv, t, j, out);
    break;
  case DESERT_TYPE_TUPLE: {
    const size_t n = t->u.tuple.count;
    if (j->kind != DESERT_JSON_ARRAY || j->count != n) {
      st = BADV("expected an array of %zu elements", n);
      break;
    }
    desert_value *items = vals(cv, n);
    if (!items) {
      st = DESERT_E_NOMEM;
      break;
    }
    st = DESERT_OK;
    for (size_t k = 0; k < n && !st; k++) {
      size_t old = push_index(cv, k);
      st = conv(cv, t->u.tuple.elements[k], &j->items[k], &items[k]);
      if (!st) pop_to(cv, old);
    }
    out->kind = DESERT_VALUE_SEQ;
    out->as.seq.items = items;
    out->as.seq.count = n;
    break;
  }
  case DESERT_TYPE_RECORD:
    st = conv_fields(cv, t, j, false, out);
    break;
  case DESERT_TYPE_ENUM:
    st = conv_enum(cv, t, j, out);
    break;
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    st = BADV("unsupported type");
    break;
  }
  cv->depth--;
  return st;
}

desert_status desert_json_to_value_opt(const desert_type *t, bool optional, const desert_json *j,
                                       desert_value_arena *a, desert_value **out,
                                       desert_json_error *err, const char *path) {
  convctx cv;
  memset(&cv, 0, offsetof(convctx, path));
  cv.a = a;
  cv.err = err;
  /* a bounded copy, not snprintf: the text encoder calls this per leaf */
  const char *pp = path ? path : "$";
  size_t pl = strlen(pp);
  if (pl > sizeof cv.path - 1) pl = sizeof cv.path - 1;
  memcpy(cv.path, pp, pl);
  cv.path[pl] = '\0';
  cv.plen = pl;
  if (err) {
    err->kind = DESERT_JSON_ERR_NONE;
    err->status = DESERT_OK;
    err->has_offset = false;
    err->message[0] = '\0';
  }
  if (!t || !j || !a || !out) return DESERT_E_ARGUMENT;
  *out = NULL;
  desert_value *v = vals(&cv, 1);
  if (!v) return DESERT_E_NOMEM;
  desert_status st = optional ? conv_option(&cv, t, j, v) : conv(&cv, t, j, v);
  if (st) return st;
  *out = v;
  return DESERT_OK;
}

desert_status desert_json_to_value(const desert_type *t, const desert_json *j,
                                   desert_value_arena *a, desert_value **out,
                                   desert_json_error *err) {
  return desert_json_to_value_opt(t, false, j, a, out, err, "$");
}
