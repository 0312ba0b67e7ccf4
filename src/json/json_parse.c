/* src/json/json_parse.c — strict RFC 8259 parser for the JSON layer:
 * recursive descent over the whole text into a tree in a bump arena. Numbers
 * keep their exact text (docs/schema.md §11.1), strings are UTF-8 checked and
 * decoded (a lone surrogate escape is kept as WTF-8 and flagged), duplicate
 * keys and non-JSON literals are syntax errors, nesting is bounded. Children
 * of a container are collected on a shared scratch stack and copied into the
 * arena when the container closes, so parsing is linear in the input. A
 * syntax error keeps its byte offset apart from its message, so that
 * desert_json_parse_ex can give its line and column.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/json.h"

typedef struct parser {
  const unsigned char *p, *end, *start;
  desert_value_arena *a;
  char bare[256]; /* the first error's message, without its position */
  size_t err_at;   /* byte offset of the first error */
  bool failed;
  unsigned depth;
  unsigned max_depth; /* nesting bound (DESERT_JSON_MAX_DEPTH unless the caller's) */
  /* scratch stacks */
  desert_json *vals;
  size_t nvals, capvals;
  desert_json_member *mems;
  size_t nmems, capmems;
} parser;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
perr(parser *ps, const char *fmt, ...) {
  if (ps->failed) return;
  ps->failed = true;
  ps->err_at = (size_t)(ps->p - ps->start);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ps->bare, sizeof ps->bare, fmt, ap);
  va_end(ap);
}

static void skip_ws(parser *ps) {
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
    ps->p++;
}

static bool push_val(parser *ps, const desert_json *v) {
  if (ps->nvals == ps->capvals) {
    size_t ncap = ps->capvals ? ps->capvals * 2 : 64;
    desert_json *n = realloc(ps->vals, ncap * sizeof *n);
    if (!n) {
      perr(ps, "out of memory");
      return false;
    }
    ps->vals = n;
    ps->capvals = ncap;
  }
  ps->vals[ps->nvals++] = *v;
  return true;
}

static bool push_mem(parser *ps, const desert_json_member *m) {
  if (ps->nmems == ps->capmems) {
    size_t ncap = ps->capmems ? ps->capmems * 2 : 32;
    desert_json_member *n = realloc(ps->mems, ncap * sizeof *n);
    if (!n) {
      perr(ps, "out of memory");
      return false;
    }
    ps->mems = n;
    ps->capmems = ncap;
  }
  ps->mems[ps->nmems++] = *m;
  return true;
}

static int hexval(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool read_u4(parser *ps, const unsigned char *q, unsigned *out) {
  if (ps->end - q < 4) return false;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    int h = hexval(q[i]);
    if (h < 0) return false;
    v = v << 4 | (unsigned)h;
  }
  *out = v;
  return true;
}

static size_t put_utf8(char *d, unsigned cp) {
  if (cp < 0x80) {
    d[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    d[0] = (char)(0xC0 | (cp >> 6));
    d[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    d[0] = (char)(0xE0 | (cp >> 12));
    d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    d[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  d[0] = (char)(0xF0 | (cp >> 18));
  d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  d[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  d[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Length of the valid UTF-8 sequence at q (lead byte >= 0x80), or 0. */
static size_t utf8_seq(const unsigned char *q, const unsigned char *end) {
  unsigned char b = q[0];
  size_t need;
  unsigned char lo = 0x80, hi = 0xBF;
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
  if ((size_t)(end - q) <= need) return 0;
  for (size_t j = 1; j <= need; j++) {
    unsigned char c = q[j];
    if (c < (j == 1 ? lo : 0x80) || c > (j == 1 ? hi : 0xBF)) return 0;
  }
  return need + 1;
}

/* Parses a string literal at ps->p (the opening quote) into *out. */
static bool parse_string(parser *ps, desert_json *out) {
  const unsigned char *q = ps->p + 1;
  /* Find the closing quote to size the output (escapes never grow). */
  const unsigned char *s = q;
  while (s < ps->end && *s != '"') {
    if (*s == '\\') {
      s++;
      if (s >= ps->end) break;
    }
    s++;
  }
  if (s >= ps->end) {
    perr(ps, "unterminated string");
    return false;
  }
  size_t raw = (size_t)(s - q);
  char *d = desert_value_arena_alloc(ps->a, raw + 1, 1);
  if (!d) {
    perr(ps, "out of memory");
    return false;
  }
  size_t n = 0;
  bool lone = false;
  while (q < s) {
    unsigned char c = *q;
    if (c == '\\') {
      unsigned char e = q[1];
      q += 2;
      switch (e) {
      case '"':
        d[n++] = '"';
        break;
      case '\\':
        d[n++] = '\\';
        break;
      case '/':
        d[n++] = '/';
        break;
      case 'b':
        d[n++] = '\b';
        break;
      case 'f':
        d[n++] = '\f';
        break;
      case 'n':
        d[n++] = '\n';
        break;
      case 'r':
        d[n++] = '\r';
        break;
      case 't':
        d[n++] = '\t';
        break;
      case 'u': {
        unsigned u;
        if (!read_u4(ps, q, &u)) {
          ps->p = q;
          perr(ps, "invalid \\u escape");
          return false;
        }
        q += 4;
        if (u >= 0xD800 && u <= 0xDBFF && q + 6 <= s && q[0] == '\\' && q[1] == 'u') {
          unsigned lo2;
          if (read_u4(ps, q + 2, &lo2) && lo2 >= 0xDC00 && lo2 <= 0xDFFF) {
            q += 6;
            unsigned cp = 0x10000 + ((u - 0xD800) << 10) + (lo2 - 0xDC00);
            n += put_utf8(d + n, cp);
            break;
          }
        }
        if (u >= 0xD800 && u <= 0xDFFF) lone = true;
        n += put_utf8(d + n, u);
        break;
      }
      default:
        ps->p = q - 2;
        perr(ps, "invalid escape");
        return false;
      }
    } else if (c < 0x20) {
      ps->p = q;
      perr(ps, "control character in string");
      return false;
    } else if (c < 0x80) {
      d[n++] = (char)c;
      q++;
    } else {
      size_t k = utf8_seq(q, s);
      if (k == 0) {
        ps->p = q;
        perr(ps, "invalid UTF-8");
        return false;
      }
      memcpy(d + n, q, k);
      n += k;
      q += k;
    }
  }
  d[n] = '\0';
  memset(out, 0, sizeof *out);
  out->kind = DESERT_JSON_STRING;
  out->str = d;
  out->len = n;
  out->lone = lone;
  ps->p = s + 1;
  return true;
}

static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static bool parse_number(parser *ps, desert_json *out) {
  const unsigned char *q = ps->p, *b = q;
  bool integer = true;
  if (q < ps->end && *q == '-') q++;
  if (q >= ps->end || !is_digit(*q)) {
    perr(ps, "invalid number");
    return false;
  }
  if (*q == '0') {
    q++;
  } else {
    while (q < ps->end && is_digit(*q)) q++;
  }
  if (q < ps->end && *q == '.') {
    integer = false;
    q++;
    if (q >= ps->end || !is_digit(*q)) {
      ps->p = q;
      perr(ps, "invalid number");
      return false;
    }
    while (q < ps->end && is_digit(*q)) q++;
  }
  if (q < ps->end && (*q == 'e' || *q == 'E')) {
    integer = false;
    q++;
    if (q < ps->end && (*q == '+' || *q == '-')) q++;
    if (q >= ps->end || !is_digit(*q)) {
      ps->p = q;
      perr(ps, "invalid number");
      return false;
    }
    while (q < ps->end && is_digit(*q)) q++;
  }
  size_t n = (size_t)(q - b);
  char *t = desert_value_arena_alloc(ps->a, n + 1, 1);
  if (!t) {
    perr(ps, "out of memory");
    return false;
  }
  memcpy(t, b, n);
  t[n] = '\0';
  memset(out, 0, sizeof *out);
  out->kind = DESERT_JSON_NUMBER;
  out->integer = integer;
  out->str = t;
  out->len = n;
  ps->p = q;
  return true;
}

static bool literal(parser *ps, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, word, n) == 0) {
    ps->p += n;
    return true;
  }
  return false;
}

static int key_cmp(const void *a, const void *b) {
  const desert_json_member *x = *(desert_json_member *const *)a;
  const desert_json_member *y = *(desert_json_member *const *)b;
  size_t n = x->key.len < y->key.len ? x->key.len : y->key.len;
  int c = memcmp(x->key.str, y->key.str, n);
  if (c) return c;
  return x->key.len < y->key.len ? -1 : x->key.len > y->key.len ? 1 : 0;
}

static bool same_key(const desert_json_member *x, const desert_json_member *y) {
  return x->key.len == y->key.len && memcmp(x->key.str, y->key.str, x->key.len) == 0;
}

/* Duplicate keys among members[0..n). */
static bool has_duplicates(parser *ps, const desert_json_member *m, size_t n, size_t *dup) {
  if (n < 2) return false;
  if (n <= 16) {
    for (size_t i = 1; i < n; i++)
      for (size_t j = 0; j < i; j++)
        if (same_key(&m[i], &m[j])) {
          *dup = i;
          return true;
        }
    return false;
  }
  const desert_json_member **idx = malloc(n * sizeof *idx);
  if (!idx) {
    perr(ps, "out of memory");
    return true;
  }
  for (size_t i = 0; i < n; i++) idx[i] = &m[i];
  qsort(idx, n, sizeof *idx, key_cmp);
  bool found = false;
  for (size_t i = 1; i < n && !found; i++)
    if (same_key(idx[i], idx[i - 1])) {
      found = true;
      *dup = (size_t)(idx[i] - m);
    }
  free(idx);
  return found;
}

static bool parse_value(parser *ps, desert_json *out);

static bool parse_array(parser *ps, desert_json *out) {
  ps->p++; /* [ */
  size_t base = ps->nvals;
  skip_ws(ps);
  if (ps->p < ps->end && *ps->p == ']') {
    ps->p++;
  } else {
    for (;;) {
      desert_json v;
      if (!parse_value(ps, &v) || !push_val(ps, &v)) return false;
      skip_ws(ps);
      if (ps->p < ps->end && *ps->p == ',') {
        ps->p++;
        continue;
      }
      if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
        break;
      }
      perr(ps, "expected ',' or ']'");
      return false;
    }
  }
  size_t n = ps->nvals - base;
  memset(out, 0, sizeof *out);
  out->kind = DESERT_JSON_ARRAY;
  out->count = n;
  out->items = desert_value_arena_alloc(ps->a, n * sizeof *out->items, _Alignof(desert_json));
  if (!out->items) {
    perr(ps, "out of memory");
    return false;
  }
  if (n) memcpy(out->items, ps->vals + base, n * sizeof *out->items);
  ps->nvals = base;
  return true;
}

static bool parse_object(parser *ps, desert_json *out) {
  ps->p++; /* { */
  size_t base = ps->nmems;
  skip_ws(ps);
  if (ps->p < ps->end && *ps->p == '}') {
    ps->p++;
  } else {
    for (;;) {
      desert_json_member m;
      skip_ws(ps);
      if (ps->p >= ps->end || *ps->p != '"') {
        perr(ps, "expected a string key");
        return false;
      }
      if (!parse_string(ps, &m.key)) return false;
      skip_ws(ps);
      if (ps->p >= ps->end || *ps->p != ':') {
        perr(ps, "expected ':'");
        return false;
      }
      ps->p++;
      if (!parse_value(ps, &m.value) || !push_mem(ps, &m)) return false;
      skip_ws(ps);
      if (ps->p < ps->end && *ps->p == ',') {
        ps->p++;
        continue;
      }
      if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        break;
      }
      perr(ps, "expected ',' or '}'");
      return false;
    }
  }
  size_t n = ps->nmems - base;
  size_t dup = 0;
  /* n >= 2 first: for an empty object ps->mems may still be NULL, and
   * NULL + 0 is undefined behaviour (UBSan). */
  if (n >= 2 && has_duplicates(ps, ps->mems + base, n, &dup)) {
    if (!ps->failed) perr(ps, "duplicate key \"%.64s\"", ps->mems[base + dup].key.str);
    return false;
  }
  memset(out, 0, sizeof *out);
  out->kind = DESERT_JSON_OBJECT;
  out->count = n;
  out->members =
      desert_value_arena_alloc(ps->a, n * sizeof *out->members, _Alignof(desert_json_member));
  if (!out->members) {
    perr(ps, "out of memory");
    return false;
  }
  if (n) memcpy(out->members, ps->mems + base, n * sizeof *out->members);
  ps->nmems = base;
  return true;
}

static bool parse_value(parser *ps, desert_json *out) {
  skip_ws(ps);
  if (ps->p >= ps->end) {
    perr(ps, "expecting a value");
    return false;
  }
  unsigned char c = *ps->p;
  switch (c) {
  case '{':
  case '[': {
    if (ps->depth >= ps->max_depth) {
      perr(ps, "nesting deeper than %u", ps->max_depth);
      return false;
    }
    ps->depth++;
    bool ok = c == '{' ? parse_object(ps, out) : parse_array(ps, out);
    ps->depth--;
    return ok;
  }
  case '"':
    return parse_string(ps, out);
  case 't':
  case 'f':
  case 'n':
    memset(out, 0, sizeof *out);
    if (literal(ps, "true")) {
      out->kind = DESERT_JSON_BOOL;
      out->b = true;
      return true;
    }
    if (literal(ps, "false")) {
      out->kind = DESERT_JSON_BOOL;
      return true;
    }
    if (literal(ps, "null")) {
      out->kind = DESERT_JSON_NULL;
      return true;
    }
    perr(ps, "invalid literal");
    return false;
  default:
    if (c == '-' || is_digit(c)) return parse_number(ps, out);
    if (c == 'N' || c == 'I') {
      perr(ps, "NaN and Infinity are not JSON");
      return false;
    }
    perr(ps, "expecting a value");
    return false;
  }
}

/* Parses text into *out; on failure ps holds the message and its offset. */
static bool parse_text(parser *ps, const char *text, size_t len, desert_value_arena *a,
                       desert_json **out, unsigned max_depth) {
  memset(ps, 0, sizeof *ps);
  ps->max_depth = max_depth ? max_depth : DESERT_JSON_MAX_DEPTH;
  ps->p = ps->start = (const unsigned char *)text;
  ps->end = ps->p + len;
  ps->a = a;
  desert_json *root = desert_value_arena_alloc(a, sizeof *root, _Alignof(desert_json));
  bool ok = root != NULL;
  if (!ok) perr(ps, "out of memory");
  if (ok) ok = parse_value(ps, root);
  if (ok) {
    skip_ws(ps);
    if (ps->p != ps->end) {
      perr(ps, "extra data after the value");
      ok = false;
    }
  }
  free(ps->vals);
  free(ps->mems);
  if (ok) *out = root;
  return ok;
}

desert_status desert_json_parse(const char *text, size_t len, desert_value_arena *a,
                                desert_json **out, char *message, size_t message_cap) {
  if (message && message_cap) message[0] = '\0';
  if (!out || !a || (!text && len)) return DESERT_E_ARGUMENT;
  *out = NULL;
  parser ps;
  if (parse_text(&ps, text, len, a, out, 0)) return DESERT_OK;
  if (message && message_cap) snprintf(message, message_cap, "%s at char %zu", ps.bare, ps.err_at);
  return DESERT_E_ARGUMENT;
}

/* Line and column (1-based) of byte offset `at`: lines end at '\n' (a
 * "\r\n" pair is one end), columns count characters, i.e. bytes that are
 * not UTF-8 continuation bytes, so a column matches what an editor shows. */
static void line_column(const char *text, size_t at, size_t *line, size_t *column) {
  size_t ln = 1, col = 1;
  for (size_t i = 0; i < at; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '\n') {
      ln++;
      col = 1;
    } else if ((c & 0xC0) != 0x80 && c != '\r') {
      col++;
    }
  }
  *line = ln;
  *column = col;
}

desert_status desert_json_parse_ex(const char *text, size_t len, desert_value_arena *a,
                                   desert_json **out, desert_json_error *err) {
  return desert_json_parse_depth(text, len, a, 0, out, err);
}

desert_status desert_json_parse_depth(const char *text, size_t len, desert_value_arena *a,
                                      unsigned max_depth, desert_json **out,
                                      desert_json_error *err) {
  if (err) {
    memset(err, 0, sizeof *err);
    err->kind = DESERT_JSON_ERR_NONE;
  }
  if (!out || !a || (!text && len)) {
    if (err) {
      err->kind = DESERT_JSON_ERR_STATUS;
      err->status = DESERT_E_ARGUMENT;
      snprintf(err->message, sizeof err->message, "invalid arguments");
    }
    return DESERT_E_ARGUMENT;
  }
  *out = NULL;
  parser ps;
  if (parse_text(&ps, text, len, a, out, max_depth)) return DESERT_OK;
  desert_status st = strcmp(ps.bare, "out of memory") == 0 ? DESERT_E_NOMEM : DESERT_E_ARGUMENT;
  if (err) {
    err->kind = st == DESERT_E_NOMEM ? DESERT_JSON_ERR_STATUS : DESERT_JSON_ERR_BAD_REQUEST;
    err->status = st;
    err->has_offset = true;
    err->offset = ps.err_at;
    line_column(text, ps.err_at, &err->line, &err->column);
    snprintf(err->message, sizeof err->message, "%s", ps.bare);
  }
  return st;
}

const desert_json *desert_json_get(const desert_json *obj, const char *key) {
  if (!obj || obj->kind != DESERT_JSON_OBJECT || !key) return NULL;
  size_t n = strlen(key);
  for (size_t i = 0; i < obj->count; i++) {
    const desert_json *k = &obj->members[i].key;
    if (k->len == n && memcmp(k->str, key, n) == 0) return &obj->members[i].value;
  }
  return NULL;
}
