/* src/json/json_out.c — the canonical JSON text of a value tree (docs/schema.md
 * §11.2–§11.8): output buffer, string escapes of §11.5, the float text of §11.4
 * (shortest round-trip digits found with "%.*e" and strtod/strtof, exactly as
 * the spec describes), hex, UUID, big integers and the fixed objects of the
 * date/time types.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_internal.h"

/* ---- buffer -------------------------------------------------------------------------- */

void desert_json_buf_free(desert_json_buf *b) {
  if (!b) return;
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
  b->failed = false;
}

static bool reserve(desert_json_buf *b, size_t n) {
  if (b->failed) return false;
  if (b->cap - b->len > n) return true;
  if (n > SIZE_MAX / 4 - b->len) {
    b->failed = true;
    return false;
  }
  size_t ncap = b->cap ? b->cap : 256;
  while (ncap - b->len <= n) ncap *= 2;
  char *d = realloc(b->data, ncap);
  if (!d) {
    b->failed = true;
    return false;
  }
  b->data = d;
  b->cap = ncap;
  return true;
}

void desert_json_buf_put(desert_json_buf *b, const char *s, size_t n) {
  if (!reserve(b, n)) return;
  if (n) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static void put_c(desert_json_buf *b, char c) { desert_json_buf_put(b, &c, 1); }
static void put_s(desert_json_buf *b, const char *s) { desert_json_buf_put(b, s, strlen(s)); }

/* Length of the valid UTF-8 sequence at s (s[0] >= 0x80), or 0. */
static size_t utf8_valid_len(const unsigned char *s, size_t n) {
  unsigned char b = s[0], lo = 0x80, hi = 0xBF;
  size_t need;
  if (b >= 0xC2 && b <= 0xDF) {
    need = 1;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 2;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 3;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (n <= need) return 0;
  for (size_t j = 1; j <= need; j++)
    if (s[j] < (j == 1 ? lo : 0x80) || s[j] > (j == 1 ? hi : 0xBF)) return 0;
  return need + 1;
}

void desert_json_buf_string(desert_json_buf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  if (!reserve(b, n + 2)) return;
  put_c(b, '"');
  size_t run = 0; /* start of the pending run of plain bytes */
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    const char *esc = NULL;
    char tmp[8];
    if (c == '"') {
      esc = "\\\"";
    } else if (c == '\\') {
      esc = "\\\\";
    } else if (c < 0x20) {
      switch (c) {
      case '\b':
        esc = "\\b";
        break;
      case '\f':
        esc = "\\f";
        break;
      case '\n':
        esc = "\\n";
        break;
      case '\r':
        esc = "\\r";
        break;
      case '\t':
        esc = "\\t";
        break;
      default:
        memcpy(tmp, "\\u00", 4);
        tmp[4] = hex[c >> 4];
        tmp[5] = hex[c & 15];
        tmp[6] = '\0';
        esc = tmp;
      }
    } else if (c >= 0x80) {
      size_t k = utf8_valid_len((const unsigned char *)s + i, n - i);
      if (k) {
        i += k - 1; /* a valid sequence stays in the run */
        continue;
      }
      unsigned char c1 = i + 1 < n ? (unsigned char)s[i + 1] : 0;
      unsigned char c2 = i + 2 < n ? (unsigned char)s[i + 2] : 0;
      desert_json_buf_put(b, s + run, i - run);
      if (c == 0xED && c1 >= 0xA0 && c1 <= 0xBF && c2 >= 0x80 && c2 <= 0xBF) {
        /* A lone surrogate kept as WTF-8: written as its escape. */
        snprintf(tmp, sizeof tmp, "\\u%04x", 0xD000u | ((c1 & 0x3Fu) << 6) | (c2 & 0x3Fu));
        put_s(b, tmp);
        i += 2;
      } else {
        /* Not UTF-8 (only possible in messages cut by truncation). */
        put_s(b, "\\ufffd");
      }
      run = i + 1;
      continue;
    }
    if (esc) {
      desert_json_buf_put(b, s + run, i - run);
      put_s(b, esc);
      run = i + 1;
    }
  }
  desert_json_buf_put(b, s + run, n - run);
  put_c(b, '"');
}

void desert_json_print(desert_json_buf *b, const desert_json *j) {
  switch (j->kind) {
  case DESERT_JSON_NULL:
    desert_json_buf_put(b, "null", 4);
    break;
  case DESERT_JSON_BOOL:
    desert_json_buf_put(b, j->b ? "true" : "false", j->b ? 4 : 5);
    break;
  case DESERT_JSON_NUMBER:
    desert_json_buf_put(b, j->str, j->len);
    break;
  case DESERT_JSON_STRING:
    desert_json_buf_string(b, j->str, j->len);
    break;
  case DESERT_JSON_ARRAY:
    desert_json_buf_put(b, "[", 1);
    for (size_t i = 0; i < j->count; i++) {
      if (i) desert_json_buf_put(b, ",", 1);
      desert_json_print(b, &j->items[i]);
    }
    desert_json_buf_put(b, "]", 1);
    break;
  case DESERT_JSON_OBJECT:
    desert_json_buf_put(b, "{", 1);
    for (size_t i = 0; i < j->count; i++) {
      if (i) desert_json_buf_put(b, ",", 1);
      desert_json_print(b, &j->members[i].key);
      desert_json_buf_put(b, ":", 1);
      desert_json_print(b, &j->members[i].value);
    }
    desert_json_buf_put(b, "}", 1);
    break;
  }
}

/* ---- floats (docs/schema.md §11.4) ----------------------------------------------------------- */

size_t desert_json_format_float(double v, bool is_f32, char *out) {
  char buf[48];
  const int maxp = is_f32 ? 9 : 17;
  int p = 1;
  for (; p <= maxp; p++) {
    snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    if (is_f32) {
      float f = strtof(buf, NULL);
      if ((double)f == v) break;
    } else if (strtod(buf, NULL) == v) {
      break;
    }
  }
  if (p > maxp) snprintf(buf, sizeof buf, "%.*e", maxp - 1, v);
  /* buf: [-]d[.ddd]e[+-]XX */
  const char *q = buf;
  bool neg = false;
  if (*q == '-') {
    neg = true;
    q++;
  }
  char digits[24];
  size_t k = 0;
  for (; *q && *q != 'e'; q++)
    if (*q >= '0' && *q <= '9' && k < sizeof digits - 1) digits[k++] = *q;
  long e10 = *q == 'e' ? strtol(q + 1, NULL, 10) : 0;
  while (k > 1 && digits[k - 1] == '0') k--;
  digits[k] = '\0';
  size_t n = 0;
  if (neg) out[n++] = '-';
  if (e10 >= -4 && e10 < 16) {
    if (e10 < 0) {
      out[n++] = '0';
      out[n++] = '.';
      for (long z = -1; z > e10; z--) out[n++] = '0';
      memcpy(out + n, digits, k);
      n += k;
    } else {
      size_t ip = (size_t)e10 + 1; /* digits before the point */
      for (size_t i = 0; i < ip; i++) out[n++] = i < k ? digits[i] : '0';
      out[n++] = '.';
      if (k > ip) {
        memcpy(out + n, digits + ip, k - ip);
        n += k - ip;
      } else {
        out[n++] = '0';
      }
    }
  } else {
    out[n++] = digits[0];
    if (k > 1) {
      out[n++] = '.';
      memcpy(out + n, digits + 1, k - 1);
      n += k - 1;
    }
    n += (size_t)snprintf(out + n, 32 - n, "e%c%02ld", e10 < 0 ? '-' : '+', e10 < 0 ? -e10 : e10);
  }
  out[n] = '\0';
  return n;
}

static void put_float(desert_json_buf *b, uint64_t bits, bool is_f32) {
  char tmp[40];
  if (is_f32) {
    uint32_t u = (uint32_t)bits;
    uint32_t ex = (u >> 23) & 0xFFu, man = u & 0x7FFFFFu;
    if (ex == 0xFF) {
      if (man == 0) {
        put_s(b, u >> 31 ? "\"-Infinity\"" : "\"Infinity\"");
      } else if (u == 0x7FC00000u) {
        put_s(b, "\"NaN\"");
      } else {
        snprintf(tmp, sizeof tmp, "{\"f32_bits\":\"%08x\"}", (unsigned)u);
        put_s(b, tmp);
      }
      return;
    }
    if ((u & 0x7FFFFFFFu) == 0) {
      put_s(b, u >> 31 ? "-0.0" : "0.0");
      return;
    }
    float f;
    memcpy(&f, &u, 4);
    desert_json_buf_put(b, tmp, desert_json_format_float((double)f, true, tmp));
    return;
  }
  uint64_t ex = (bits >> 52) & 0x7FFu, man = bits & 0xFFFFFFFFFFFFFull;
  if (ex == 0x7FF) {
    if (man == 0) {
      put_s(b, bits >> 63 ? "\"-Infinity\"" : "\"Infinity\"");
    } else if (bits == 0x7FF8000000000000ull) {
      put_s(b, "\"NaN\"");
    } else {
      snprintf(tmp, sizeof tmp, "{\"f64_bits\":\"%016llx\"}", (unsigned long long)bits);
      put_s(b, tmp);
    }
    return;
  }
  if ((bits & 0x7FFFFFFFFFFFFFFFull) == 0) {
    put_s(b, bits >> 63 ? "-0.0" : "0.0");
    return;
  }
  double d;
  memcpy(&d, &bits, 8);
  desert_json_buf_put(b, tmp, desert_json_format_float(d, false, tmp));
}

/* ---- values -----------------------------------------------------------------------------------
 */

static void put_i64(desert_json_buf *b, int64_t v) {
  char tmp[24];
  put_s(b, (snprintf(tmp, sizeof tmp, "%lld", (long long)v), tmp));
}
static void put_u64(desert_json_buf *b, uint64_t v) {
  char tmp[24];
  put_s(b, (snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v), tmp));
}

static void put_hex(desert_json_buf *b, const char *p, size_t n) {
  static const char hex[] = "0123456789abcdef";
  if (!reserve(b, 2 * n + 2)) return;
  char *d = b->data + b->len;
  *d++ = '"';
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    *d++ = hex[c >> 4];
    *d++ = hex[c & 15];
  }
  *d++ = '"';
  b->len += 2 * n + 2;
  b->data[b->len] = '\0';
}

static void put_key(desert_json_buf *b, const char *k, bool first) {
  if (!first) put_c(b, ',');
  desert_json_buf_string(b, k, strlen(k));
  put_c(b, ':');
}

static desert_status put_bigint(desert_json_buf *b, const desert_value *v) {
  size_t n = v->as.str.len;
  if (n == 0) {
    put_s(b, "\"0\"");
    return DESERT_OK;
  }
  size_t cap = desert_bigint_text_bound(n);
  char *t = malloc(cap);
  if (!t) {
    b->failed = true;
    return DESERT_E_NOMEM;
  }
  size_t len = 0;
  desert_status st = desert_bigint_to_decimal((const uint8_t *)v->as.str.ptr, n, t, cap, &len);
  if (!st) {
    put_c(b, '"');
    desert_json_buf_put(b, t, len);
    put_c(b, '"');
  }
  free(t);
  return st;
}

static void put_zone(desert_json_buf *b, const desert_value *z) {
  if (z->kind != DESERT_VALUE_ALT || !z->as.child) {
    put_s(b, "null");
    return;
  }
  const desert_value *ch = z->as.child;
  if (z->index == 0) {
    put_s(b, "{\"offset\":");
    put_i64(b, ch->as.i);
  } else {
    put_s(b, "{\"region\":");
    desert_json_buf_string(b, ch->as.str.ptr, ch->as.str.len);
  }
  put_c(b, '}');
}

static desert_status write_value(desert_json_buf *b, const desert_type *t, const desert_value *v,
                                 unsigned depth);

/* An optional value: null, or Some as the plain value or {"some": v}. */
static desert_status write_option(desert_json_buf *b, const desert_type *inner,
                                  const desert_value *v, unsigned depth) {
  if (v->kind == DESERT_VALUE_NULL) {
    put_s(b, "null");
    return DESERT_OK;
  }
  if (v->kind != DESERT_VALUE_SOME || !v->as.child) return DESERT_E_ARGUMENT;
  if (desert_type_nullable(inner)) {
    put_s(b, "{\"some\":");
    desert_status st = write_value(b, inner, v->as.child, depth + 1);
    put_c(b, '}');
    return st;
  }
  return write_value(b, inner, v->as.child, depth + 1);
}

/* The fields of a record, without braces (first: no comma before the first). */
static desert_status write_fields(desert_json_buf *b, const desert_type *t, const desert_value *v,
                                  bool first, unsigned depth) {
  if (v->kind != DESERT_VALUE_SEQ || v->as.seq.count != t->u.record.field_count)
    return DESERT_E_ARGUMENT;
  for (size_t i = 0; i < t->u.record.field_count; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    put_key(b, f->name, first && i == 0);
    desert_status st = (f->flags & DESERT_FIELD_OPTIONAL)
                           ? write_option(b, f->type, &v->as.seq.items[i], depth)
                           : write_value(b, f->type, &v->as.seq.items[i], depth + 1);
    if (st) return st;
  }
  return DESERT_OK;
}

static desert_status write_value(desert_json_buf *b, const desert_type *t, const desert_value *v,
                                 unsigned depth) {
  t = desert_type_resolve(t);
  if (!t || !v || depth > 4 * DESERT_JSON_MAX_DEPTH) return DESERT_E_ARGUMENT;
  const desert_value *it = v->as.seq.items;
  switch (t->kind) {
  case DESERT_TYPE_BOOL:
    put_s(b, v->as.b ? "true" : "false");
    return DESERT_OK;
  case DESERT_TYPE_I8:
  case DESERT_TYPE_I16:
  case DESERT_TYPE_I32:
  case DESERT_TYPE_I64:
  case DESERT_TYPE_VAR_I32:
  case DESERT_TYPE_DAY_OF_WEEK:
  case DESERT_TYPE_MONTH:
  case DESERT_TYPE_YEAR:
  case DESERT_TYPE_ZONE_OFFSET:
  case DESERT_TYPE_U8:
  case DESERT_TYPE_U16:
  case DESERT_TYPE_U32:
  case DESERT_TYPE_U64:
  case DESERT_TYPE_VAR_U32:
    if (v->kind == DESERT_VALUE_UINT)
      put_u64(b, v->as.u);
    else
      put_i64(b, v->as.i);
    return DESERT_OK;
  case DESERT_TYPE_F32:
  case DESERT_TYPE_F64:
    put_float(b, v->as.bits, t->kind == DESERT_TYPE_F32);
    return DESERT_OK;
  case DESERT_TYPE_UNIT:
    put_s(b, "null");
    return DESERT_OK;
  case DESERT_TYPE_CHAR:
  case DESERT_TYPE_CHAR16: {
    char tmp[4];
    uint32_t cp = v->as.cp;
    size_t n;
    if (cp < 0x80) {
      tmp[0] = (char)cp;
      n = 1;
    } else if (cp < 0x800) {
      tmp[0] = (char)(0xC0 | (cp >> 6));
      tmp[1] = (char)(0x80 | (cp & 0x3F));
      n = 2;
    } else if (cp < 0x10000) {
      tmp[0] = (char)(0xE0 | (cp >> 12));
      tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
      tmp[2] = (char)(0x80 | (cp & 0x3F));
      n = 3;
    } else {
      tmp[0] = (char)(0xF0 | (cp >> 18));
      tmp[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
      tmp[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
      tmp[3] = (char)(0x80 | (cp & 0x3F));
      n = 4;
    }
    desert_json_buf_string(b, tmp, n);
    return DESERT_OK;
  }
  case DESERT_TYPE_STRING:
  case DESERT_TYPE_DEDUP_STRING:
  case DESERT_TYPE_BIGDECIMAL:
    desert_json_buf_string(b, v->as.str.ptr, v->as.str.len);
    return DESERT_OK;
  case DESERT_TYPE_BYTES:
  case DESERT_TYPE_COMPRESSED:
    put_hex(b, v->as.str.ptr, v->as.str.len);
    return DESERT_OK;
  case DESERT_TYPE_UUID: {
    static const char hex[] = "0123456789abcdef";
    char tmp[40];
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)v->as.str.ptr;
    if (v->as.str.len != 16) return DESERT_E_ARGUMENT;
    tmp[n++] = '"';
    for (size_t i = 0; i < 16; i++) {
      if (i == 4 || i == 6 || i == 8 || i == 10) tmp[n++] = '-';
      tmp[n++] = hex[p[i] >> 4];
      tmp[n++] = hex[p[i] & 15];
    }
    tmp[n++] = '"';
    desert_json_buf_put(b, tmp, n);
    return DESERT_OK;
  }
  case DESERT_TYPE_BIGINT:
    return put_bigint(b, v);
  case DESERT_TYPE_BIGDECIMAL_BINARY: {
    put_s(b, "{\"unscaled\":");
    desert_status st = put_bigint(b, &it[0]);
    put_s(b, ",\"scale\":");
    put_i64(b, it[1].as.i);
    put_c(b, '}');
    return st;
  }
  case DESERT_TYPE_ZONE_ID:
    put_zone(b, v);
    return DESERT_OK;
  case DESERT_TYPE_DURATION:
  case DESERT_TYPE_INSTANT:
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
  case DESERT_TYPE_RUST_DATETIME_TZ: {
    const desert_json_fixed *fx = desert_json_fixed_of(t->kind);
    if (!fx || v->kind != DESERT_VALUE_SEQ || v->as.seq.count != fx->count)
      return DESERT_E_ARGUMENT;
    put_c(b, '{');
    for (size_t i = 0; i < fx->count; i++) {
      put_key(b, fx->keys[i], i == 0);
      if (fx->comp[i] == DESERT_JSON_COMP_ZONE)
        put_zone(b, &it[i]);
      else if (fx->comp[i] == DESERT_JSON_COMP_STRING)
        desert_json_buf_string(b, it[i].as.str.ptr, it[i].as.str.len);
      else
        put_i64(b, it[i].as.i);
    }
    put_c(b, '}');
    return DESERT_OK;
  }
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP:
  case DESERT_TYPE_TUPLE: {
    if (v->kind != DESERT_VALUE_SEQ) return DESERT_E_ARGUMENT;
    put_c(b, '[');
    for (size_t i = 0; i < v->as.seq.count; i++) {
      if (i) put_c(b, ',');
      desert_status st;
      if (t->kind == DESERT_TYPE_MAP) {
        const desert_value *e = &it[i];
        if (e->kind != DESERT_VALUE_SEQ || e->as.seq.count != 2) return DESERT_E_ARGUMENT;
        put_c(b, '[');
        st = write_value(b, t->u.coll.element, &e->as.seq.items[0], depth + 1);
        put_c(b, ',');
        if (!st) st = write_value(b, t->u.coll.value, &e->as.seq.items[1], depth + 1);
        put_c(b, ']');
      } else if (t->kind == DESERT_TYPE_TUPLE) {
        if (i >= t->u.tuple.count) return DESERT_E_ARGUMENT;
        st = write_value(b, t->u.tuple.elements[i], &it[i], depth + 1);
      } else {
        st = write_value(b, t->u.coll.element, &it[i], depth + 1);
      }
      if (st) return st;
    }
    put_c(b, ']');
    return DESERT_OK;
  }
  case DESERT_TYPE_OPTION:
    return write_option(b, t->u.inner, v, depth);
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY: {
    if (v->kind != DESERT_VALUE_ALT || v->index > 1 || !v->as.child) return DESERT_E_ARGUMENT;
    bool one = v->index == 1;
    put_s(b, t->kind == DESERT_TYPE_EITHER ? (one ? "{\"right\":" : "{\"left\":")
                                           : (one ? "{\"success\":" : "{\"failure\":"));
    desert_status st = write_value(b, one ? t->u.alt.right : t->u.alt.left, v->as.child, depth + 1);
    put_c(b, '}');
    return st;
  }
  case DESERT_TYPE_RECORD: {
    put_c(b, '{');
    desert_status st = write_fields(b, t, v, true, depth);
    put_c(b, '}');
    return st;
  }
  case DESERT_TYPE_ENUM: {
    if (v->kind != DESERT_VALUE_ALT || v->index >= t->u.enumeration.count || !v->as.child)
      return DESERT_E_ARGUMENT;
    const desert_type_ctor *k = &t->u.enumeration.ctors[v->index];
    put_s(b, "{\"$case\":");
    desert_json_buf_string(b, k->name, strlen(k->name));
    const desert_type *pt = desert_type_resolve(k->payload);
    desert_status st;
    if (pt && pt->kind == DESERT_TYPE_RECORD) {
      st = write_fields(b, pt, v->as.child, false, depth);
    } else {
      put_s(b, ",\"value\":");
      st = write_value(b, k->payload, v->as.child, depth + 1);
    }
    put_c(b, '}');
    return st;
  }
  case DESERT_TYPE_TRANSPARENT: /* resolved above */
  case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return DESERT_E_ARGUMENT;
}

desert_status desert_json_write_value(desert_json_buf *b, const desert_type *t,
                                      const desert_value *v) {
  if (!b || !t || !v) return DESERT_E_ARGUMENT;
  desert_status st = write_value(b, t, v, 0);
  if (!st && b->failed) st = DESERT_E_NOMEM;
  return st;
}
