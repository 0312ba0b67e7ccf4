/* tools/gen_c/gen_c_text.c — text helpers of `desert gen-c`: the growable
 * buffer every emitter writes through (a failed allocation or format marks
 * it failed, and gen-c then writes no file), canonical JSON (how a testee
 * recognises its schemas: compact, keys sorted, numbers verbatim) and C
 * string literals of embedded documents.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_c.h"

void gc_buf_fail(gc_buf *b, const char *why) {
  if (!b->failed) b->why = why;
  b->failed = true;
}

/* Room for n more bytes and the NUL; false (b failed) when it cannot grow. */
static bool reserve(gc_buf *b, size_t n) {
  if (b->failed) return false;
  if (n > SIZE_MAX - 1 - b->len) {
    gc_buf_fail(b, NULL);
    return false;
  }
  if (b->len + n + 1 <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->len + n + 1) cap = cap > SIZE_MAX / 2 ? b->len + n + 1 : cap * 2;
  char *d = realloc(b->data, cap);
  if (!d) {
    gc_buf_fail(b, NULL);
    return false;
  }
  b->data = d;
  b->cap = cap;
  return true;
}

void gc_put(gc_buf *b, const char *s, size_t n) {
  if (!reserve(b, n)) return;
  if (n) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 0)))
#endif
static void vprint(gc_buf *b, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n < 0) {
    gc_buf_fail(b, GC_FORMAT_FAILED);
  } else if (reserve(b, (size_t)n)) {
    /* formatted in place: the room is exactly the length just measured */
    if (vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again) == n)
      b->len += (size_t)n;
    else
      gc_buf_fail(b, GC_FORMAT_FAILED);
    b->data[b->len] = '\0';
  }
  va_end(again);
}

void gc_vprintf(gc_buf *b, const char *fmt, va_list ap) { vprint(b, fmt, ap); }

void gc_printf(gc_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint(b, fmt, ap);
  va_end(ap);
}

void gc_append(gc_buf *b, const gc_buf *src) {
  if (src->failed) gc_buf_fail(b, src->why);
  gc_put(b, src->data ? src->data : "", src->len);
}

static char fmt_empty[1];

char *gc_fmt(gc_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    gc_buf_fail(b, GC_FORMAT_FAILED);
    return fmt_empty;
  }
  char *s = malloc((size_t)n + 1);
  if (!s) {
    gc_buf_fail(b, NULL);
    return fmt_empty;
  }
  va_start(ap, fmt);
  int again = vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  if (again == n) return s;
  free(s);
  gc_buf_fail(b, GC_FORMAT_FAILED);
  return fmt_empty;
}

void gc_fmt_free(char *s) {
  if (s != fmt_empty) free(s);
}

void gc_buf_free(gc_buf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

char *gc_buf_take(gc_buf *b) {
  if (b->failed) return NULL;
  char *s = malloc(b->len + 1);
  if (!s) return NULL;
  if (b->len) memcpy(s, b->data, b->len);
  s[b->len] = '\0';
  return s;
}

static int member_cmp(const void *a, const void *b) {
  const desert_json_member *x = *(const desert_json_member *const *)a;
  const desert_json_member *y = *(const desert_json_member *const *)b;
  size_t n = x->key.len < y->key.len ? x->key.len : y->key.len;
  int c = memcmp(x->key.str, y->key.str, n);
  if (c) return c;
  return x->key.len < y->key.len ? -1 : x->key.len > y->key.len;
}

/* The same rule is emitted into every testee (gen_c_testee.c): keep both in
 * step. Keys are unique (the parser rejects duplicates), so the order is
 * total. */
void gc_canonical_json(gc_buf *out, const desert_json *j) {
  desert_json_buf b = {0};
  switch (j->kind) {
  case DESERT_JSON_ARRAY:
    gc_put(out, "[", 1);
    for (size_t i = 0; i < j->count; i++) {
      if (i) gc_put(out, ",", 1);
      gc_canonical_json(out, &j->items[i]);
    }
    gc_put(out, "]", 1);
    return;
  case DESERT_JSON_OBJECT: {
    const desert_json_member **ms = malloc((j->count ? j->count : 1) * sizeof *ms);
    if (!ms) {
      gc_buf_fail(out, NULL);
      return;
    }
    for (size_t i = 0; i < j->count; i++) ms[i] = &j->members[i];
    qsort(ms, j->count, sizeof *ms, member_cmp);
    gc_put(out, "{", 1);
    for (size_t i = 0; i < j->count; i++) {
      if (i) gc_put(out, ",", 1);
      desert_json_print(&b, &ms[i]->key);
      if (b.failed) gc_buf_fail(out, NULL);
      gc_put(out, b.data ? b.data : "", b.len);
      b.len = 0;
      gc_put(out, ":", 1);
      gc_canonical_json(out, &ms[i]->value);
    }
    gc_put(out, "}", 1);
    free(ms);
    break;
  }
  default:
    desert_json_print(&b, j);
    if (b.failed) gc_buf_fail(out, NULL);
    gc_put(out, b.data ? b.data : "", b.len);
    break;
  }
  desert_json_buf_free(&b);
}

/* s as C string literals of about 72 columns a line: one literal continued
 * over lines (array false), or one array element per line (array true). */
static void c_literals(gc_buf *b, const char *s, size_t n, const char *indent, bool array) {
  size_t col = 0, piece = 0;
  gc_printf(b, "%s\"", indent);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (col >= 72) {
      /* A new array element every ~2000 characters: ISO C only promises
       * string literals of 4095 characters (-Woverlength-strings). */
      piece += col;
      gc_printf(b, array || piece >= 2000 ? "\",\n%s\"" : "\"\n%s\"", indent);
      if (piece >= 2000) piece = 0;
      col = 0;
    }
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      gc_put(b, e, 2);
      col += 2;
    } else if (c < 0x20 || c >= 0x7f || c == '?') {
      /* Octal escapes: never continued by a following hex digit (unlike \x),
       * and '?' escaped so no trigraph can form. */
      gc_printf(b, "\\%03o", c);
      col += 4;
    } else {
      gc_put(b, (const char *)&c, 1);
      col++;
    }
  }
  gc_put(b, "\"", 1);
}

void gc_c_string(gc_buf *b, const char *s, size_t n, const char *indent) {
  c_literals(b, s, n, indent, false);
}

void gc_c_string_array(gc_buf *b, const char *s, size_t n, const char *indent) {
  /* no element made of concatenated literals: clang's -Wstring-concatenation
   * takes one among unconcatenated ones for a missing comma */
  c_literals(b, s, n, indent, true);
}
