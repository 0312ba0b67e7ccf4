/* src/json/json_encode_text.c — desert_json_encode_text: JSON text to desert
 * bytes without a tree of the whole value. Records, tuples, enums, lists,
 * sets, maps and options are walked in the text itself (a record's fields
 * are found by key and written in declaration order, whatever order the
 * object gives them); every other value (numbers, strings, dates, ...) goes
 * through a JSON tree and a value tree of its own, dropped as soon as it is
 * written. So the memory is the output plus one leaf value, not a tree of
 * the whole input, which for a large file is many times the text.
 *
 * The walk is an accelerator, not a second definition of the JSON value
 * language: it takes only the plain forms, and anything else — a syntax
 * error, an unknown or repeated key, an escaped key, a missing field, a
 * value that does not fit, a nesting near the limit — stops it. The call
 * then parses the whole text and runs desert_json_encode_ex, whose result
 * (bytes or the exact error) is the answer. What the walk writes when it
 * succeeds is therefore held to equal that path's bytes (test_json_encode_text
 * and the fuzz_schema_json harness compare the two).
 * SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "desert/kernels.h"
#include "json_internal.h"

/* Spans of one record's field values, per declaration index, kept on a
 * growable stack shared by the nesting levels (indices, not pointers: a
 * nested record may grow it). */
typedef struct span {
  const char *b, *e; /* trimmed value text; b == NULL: key absent */
} span;

typedef struct walk {
  desert_writer *w;
  desert_value_arena *a;
  desert_codec_limits lim; /* the encode limits of the whole value */
  unsigned jdepth;         /* JSON containers entered */
  unsigned tdepth;         /* composite types entered, as desert_type_encode counts */
  span *stack;
  size_t top, cap;
} walk;

static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static const char *skip_ws(const char *p, const char *end) {
  while (p < end && is_ws(*p)) p++;
  return p;
}

/* From the first byte of a value, the byte that ends it: the ',' or the
 * closing bracket of the container it sits in, or `end`. Strings and
 * brackets only; the value's own syntax is checked when it is encoded. */
enum { SCAN_PLAIN = 0, SCAN_QUOTE, SCAN_OPEN, SCAN_CLOSE, SCAN_COMMA };
static const unsigned char scan_class[256] = {
    ['"'] = SCAN_QUOTE, ['['] = SCAN_OPEN,  ['{'] = SCAN_OPEN,
    [']'] = SCAN_CLOSE, ['}'] = SCAN_CLOSE, [','] = SCAN_COMMA,
};

static const char *value_end(const char *p, const char *end) {
  size_t depth = 0;
  for (; p < end; p++) {
    /* every walked level scans its text again: one table load per byte
     * outside strings, memchr to the closing quote inside them */
    switch (scan_class[(unsigned char)*p]) {
    case SCAN_PLAIN:
      break;
    case SCAN_QUOTE:
      for (;;) {
        const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
        if (!q) return NULL;
        size_t slashes = 0;
        while (q - slashes > p + 1 && q[-1 - (ptrdiff_t)slashes] == '\\') slashes++;
        p = q;
        if (slashes % 2 == 0) break; /* not escaped */
      }
      break;
    case SCAN_OPEN:
      depth++;
      break;
    case SCAN_CLOSE:
      if (depth == 0) return p;
      depth--;
      break;
    default: /* SCAN_COMMA */
      if (depth == 0) return p;
      break;
    }
  }
  return depth == 0 ? end : NULL;
}

/* The next member value or element from p (after whitespace): its trimmed
 * span and the byte that ends it. False when there is none. */
static bool next_value(const char *p, const char *end, span *v, const char **stop) {
  p = skip_ws(p, end);
  const char *e = value_end(p, end);
  if (!e) return false;
  const char *last = e;
  while (last > p && is_ws(last[-1])) last--;
  if (last == p) return false;
  v->b = p;
  v->e = last;
  *stop = e;
  return true;
}

static bool span_is(const span *v, const char *lit) {
  size_t n = strlen(lit);
  return (size_t)(v->e - v->b) == n && memcmp(v->b, lit, n) == 0;
}

/* A plain key or constructor name: no escapes and no control bytes (either
 * sends the value to the whole-tree path), valid UTF-8 as the parser
 * requires. */
static bool plain_text(const char *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (b[i] == '\\' || b[i] == '"' || (unsigned char)b[i] < 0x20) return false;
  return desert_utf8_validate(b, n, NULL) == DESERT_OK;
}

/* The members of one object, in text order, strictly: '{' (key ':' value)
 * separated by ',' '}', nothing after. */
typedef struct members {
  const char *p, *end;
  bool done;
} members;

static bool members_begin(members *m, const span *v) {
  m->p = v->b;
  m->end = v->e;
  if (m->p >= m->end || *m->p != '{') return false;
  m->p = skip_ws(m->p + 1, m->end);
  m->done = m->p < m->end && *m->p == '}';
  if (m->done) return m->p + 1 == m->end;
  return true;
}

/* 1: a member (key kb, kn bytes; value val); 0: the object ended; -1: not
 * a plain object. */
static int members_next(members *m, const char **kb, size_t *kn, span *val) {
  if (m->done) return 0;
  const char *p = m->p, *end = m->end, *q, *stop;
  if (p >= end || *p != '"') return -1;
  for (q = p + 1; q < end && *q != '"' && *q != '\\'; q++) {
  }
  if (q >= end || *q != '"' || !plain_text(p + 1, (size_t)(q - p - 1))) return -1;
  *kb = p + 1;
  *kn = (size_t)(q - p - 1);
  p = skip_ws(q + 1, end);
  if (p >= end || *p != ':' || !next_value(p + 1, end, val, &stop) || stop == end) return -1;
  if (*stop == '}') {
    if (stop + 1 != end) return -1;
    m->done = true;
  } else if (*stop != ',') {
    return -1;
  }
  m->p = skip_ws(stop + 1, end);
  return 1;
}

static bool enc_value(walk *x, const desert_type *t, const span *v);

/* Some of a nullable type, {"some": v}: v's span. */
static bool some_inner(const span *v, span *inner) {
  members m;
  const char *kb;
  size_t kn;
  return members_begin(&m, v) && members_next(&m, &kb, &kn, inner) == 1 && kn == 4 &&
         memcmp(kb, "some", 4) == 0 && members_next(&m, &kb, &kn, inner) == 0;
}

/* Checks the syntax of a value the encoding ignores (a transient field's),
 * as the whole-tree path's parser would. */
static bool check_syntax(walk *x, const span *v) {
  desert_json *j = NULL;
  desert_json_error jerr;
  unsigned room = x->lim.max_depth - x->jdepth;
  bool ok =
      desert_json_parse_depth(v->b, (size_t)(v->e - v->b), x->a, room, &j, &jerr) == DESERT_OK;
  desert_value_arena_reset(x->a);
  return ok;
}

/* A value written through its own JSON and value trees. */
static bool enc_leaf(walk *x, const desert_type *t, const span *v) {
  desert_json *j = NULL;
  desert_value *val = NULL;
  desert_json_error jerr;
  desert_type_error terr;
  desert_codec_limits lim = x->lim;
  lim.max_depth = x->lim.max_depth - x->tdepth;
  bool ok = desert_json_parse_depth(v->b, (size_t)(v->e - v->b), x->a, x->lim.max_depth - x->jdepth,
                                    &j, &jerr) == DESERT_OK &&
            desert_json_to_value(t, j, x->a, &val, &jerr) == DESERT_OK &&
            desert_type_encode(x->w, t, val, &lim, &terr) == DESERT_OK;
  desert_value_arena_reset(x->a);
  return ok;
}

/* Enters one nesting level of JSON (json: 1 for an object or array) and of
 * types; a level short of either limit stops the walk, so that the limits
 * themselves are judged by the whole-tree path alone. */
static bool enter(walk *x, unsigned json) {
  if (x->tdepth + 2 >= x->lim.max_depth || x->jdepth + json + 2 >= x->lim.max_depth) return false;
  x->tdepth++;
  x->jdepth += json;
  return true;
}

static void leave(walk *x, unsigned json) {
  x->tdepth--;
  x->jdepth -= json;
}

/* ---- arrays -----------------------------------------------------------------------------------
 */

/* Calls fn on each element of the array v, or (fn NULL) only counts them. */
typedef bool (*element_fn)(walk *x, const desert_type *t, const span *e);

static bool for_elements(walk *x, const desert_type *t, const span *v, element_fn fn,
                         size_t *count) {
  const char *p = v->b, *end = v->e;
  if (p >= end || *p != '[') return false;
  p = skip_ws(p + 1, end);
  size_t n = 0;
  if (p < end && *p == ']') {
    p++;
  } else {
    for (;;) {
      span el;
      const char *stop;
      if (!next_value(p, end, &el, &stop) || stop == end) return false;
      if (fn && !fn(x, t, &el)) return false;
      n++;
      p = stop + 1;
      if (*stop == ']') break;
      if (*stop != ',') return false;
    }
  }
  if (p != end) return false;
  *count = n;
  return true;
}

static bool list_element(walk *x, const desert_type *t, const span *e) {
  if (t->u.coll.unknown_form && desert_write_stream_item(x->w)) return false;
  return enc_value(x, t->u.coll.element, e);
}

/* A map entry: the two-element array [key, value]. */
static bool map_entry(walk *x, const desert_type *t, const span *e) {
  const char *p = e->b, *end = e->e;
  span k, v;
  const char *stop;
  if (*p != '[' || !next_value(p + 1, end, &k, &stop) || *stop != ',' ||
      !next_value(stop + 1, end, &v, &stop) || *stop != ']' || stop + 1 != end)
    return false;
  if (t->u.coll.unknown_form && desert_write_stream_item(x->w)) return false;
  desert_record_writer rw;
  if (!enter(x, 1)) return false;
  bool ok = desert_type_write_begin(x->w, t, &rw) == DESERT_OK &&
            desert_record_write_field(&rw, 0) == DESERT_OK && enc_value(x, t->u.coll.element, &k) &&
            desert_record_write_field(&rw, 1) == DESERT_OK && enc_value(x, t->u.coll.value, &v) &&
            desert_record_write_end(&rw) == DESERT_OK;
  leave(x, 1);
  return ok;
}

static bool enc_collection(walk *x, const desert_type *t, const span *v) {
  size_t n = 0;
  if (!for_elements(x, t, v, NULL, &n)) return false;
  if (t->u.coll.non_empty && n == 0) return false;
  if (t->kind == DESERT_TYPE_LIST && t->u.coll.has_length && n != t->u.coll.length) return false;
  if (t->u.coll.unknown_form ? desert_write_stream_begin(x->w) : desert_write_count(x->w, n))
    return false;
  if (!for_elements(x, t, v, t->kind == DESERT_TYPE_MAP ? map_entry : list_element, &n))
    return false;
  return !t->u.coll.unknown_form || desert_write_stream_end(x->w) == DESERT_OK;
}

static bool enc_tuple(walk *x, const desert_type *t, const span *v) {
  const char *p = v->b, *end = v->e;
  if (*p != '[') return false;
  desert_record_writer rw;
  if (desert_type_write_begin(x->w, t, &rw)) return false;
  const size_t n = t->u.tuple.count;
  p++;
  for (size_t i = 0; i < n; i++) {
    span el;
    const char *stop;
    if (!next_value(p, end, &el, &stop) || stop == end || *stop != (i + 1 < n ? ',' : ']'))
      return false;
    if (desert_record_write_field(&rw, i) || !enc_value(x, t->u.tuple.elements[i], &el))
      return false;
    p = stop + 1;
  }
  if (n == 0) {
    p = skip_ws(p, end);
    if (p >= end || *p != ']') return false;
    p++;
  }
  return p == end && desert_record_write_end(&rw) == DESERT_OK;
}

/* ---- objects ----------------------------------------------------------------------------------
 */

/* Reads the members of object v into the stack at x->top (one span per
 * field of record type rt, NULL when absent). skip_case: "$case" (an enum's
 * constructor) is allowed and its span returned in *case_span. */
static bool read_members(walk *x, const desert_type *rt, const span *v, bool skip_case,
                         span *case_span) {
  const size_t nf = rt ? rt->u.record.field_count : 0;
  if (x->cap - x->top < nf) {
    size_t cap = x->cap ? x->cap : 64;
    while (cap - x->top < nf) cap *= 2;
    span *s = realloc(x->stack, cap * sizeof *s);
    if (!s) return false;
    x->stack = s;
    x->cap = cap;
  }
  span *f = nf ? x->stack + x->top : NULL; /* no stack yet for a field-less record */
  for (size_t i = 0; i < nf; i++) f[i].b = f[i].e = NULL;
  if (case_span) case_span->b = case_span->e = NULL;
  members m;
  if (!members_begin(&m, v)) return false;
  const char *kb;
  size_t kn;
  span val;
  int more;
  while ((more = members_next(&m, &kb, &kn, &val)) == 1) {
    span *slot = NULL;
    if (skip_case && kn == 5 && memcmp(kb, "$case", 5) == 0) {
      slot = case_span;
    } else {
      for (size_t i = 0; i < nf && !slot; i++) {
        const char *name = rt->u.record.fields[i].name;
        if (strlen(name) == kn && memcmp(name, kb, kn) == 0) slot = &f[i];
      }
    }
    if (!slot || slot->b) return false; /* unknown or repeated key */
    *slot = val;
  }
  return more == 0;
}

/* The fields of record type rt from the spans read at x->top. */
static bool write_fields(walk *x, const desert_type *rt) {
  const size_t nf = rt->u.record.field_count;
  const size_t base = x->top;
  x->top += nf;
  desert_record_writer rw;
  bool ok = desert_type_write_begin(x->w, rt, &rw) == DESERT_OK;
  for (size_t i = 0; i < nf && ok; i++) {
    const desert_type_field *fd = &rt->u.record.fields[i];
    const span fv = x->stack[base + i];
    if (fd->flags & DESERT_FIELD_TRANSIENT) {
      ok = !fv.b || check_syntax(x, &fv);
    } else if (fd->flags & DESERT_FIELD_OPTIONAL) {
      const bool some = fv.b && !span_is(&fv, "null");
      span inner = fv;
      ok = (!some || !desert_type_nullable(fd->type) || some_inner(&fv, &inner)) &&
           desert_record_write_field_option(&rw, i, some) == DESERT_OK &&
           (!some || enc_value(x, fd->type, &inner));
    } else {
      ok = fv.b && desert_record_write_field(&rw, i) == DESERT_OK && enc_value(x, fd->type, &fv);
    }
  }
  x->top = base;
  return ok && desert_record_write_end(&rw) == DESERT_OK;
}

static bool enc_record(walk *x, const desert_type *t, const span *v) {
  return read_members(x, t, v, false, NULL) && write_fields(x, t);
}

/* {"$case": "Name", fields...} for a record payload, {"$case": "Name",
 * "value": v} for any other. */
static bool enc_enum(walk *x, const desert_type *t, const span *v) {
  /* The constructor first: the payload's fields are only known after it. */
  span cs = {NULL, NULL}, val = {NULL, NULL};
  size_t count = 0;
  members m;
  if (!members_begin(&m, v)) return false;
  const char *kb;
  size_t kn;
  span mv;
  int more;
  while ((more = members_next(&m, &kb, &kn, &mv)) == 1) {
    count++;
    if (kn == 5 && memcmp(kb, "$case", 5) == 0) {
      if (cs.b) return false;
      cs = mv;
    } else if (kn == 5 && memcmp(kb, "value", 5) == 0) {
      val = mv;
    }
  }
  if (more != 0 || !cs.b || cs.e - cs.b < 2 || *cs.b != '"' || cs.e[-1] != '"') return false;
  const char *nb = cs.b + 1;
  const size_t nn = (size_t)(cs.e - cs.b - 2);
  if (!plain_text(nb, nn)) return false;
  size_t idx = SIZE_MAX;
  for (size_t i = 0; i < t->u.enumeration.count && idx == SIZE_MAX; i++) {
    const char *name = t->u.enumeration.ctors[i].name;
    if (strlen(name) == nn && memcmp(name, nb, nn) == 0) idx = i;
  }
  uint32_t id;
  if (idx == SIZE_MAX || desert_type_enum_id(t, idx, &id)) return false;
  const desert_type *pt = desert_type_resolve(t->u.enumeration.ctors[idx].payload);
  if (!pt) return false;
  if (pt->kind == DESERT_TYPE_RECORD) {
    span c2;
    if (!read_members(x, pt, v, true, &c2) || desert_enum_write_id(x->w, id)) return false;
    /* the payload record is one more type level, at the same JSON level */
    if (!enter(x, 0)) return false;
    bool ok = write_fields(x, pt);
    leave(x, 0);
    return ok;
  }
  /* exactly "$case" and "value" */
  if (count != 2 || !val.b) return false;
  return desert_enum_write_id(x->w, id) == DESERT_OK &&
         enc_value(x, t->u.enumeration.ctors[idx].payload, &val);
}

/* ---- dispatch ---------------------------------------------------------------------------------
 */

/* A composite written in its own JSON container: one level of each. */
static bool nested(walk *x, bool (*fn)(walk *, const desert_type *, const span *),
                   const desert_type *t, const span *v) {
  if (!enter(x, 1)) return false;
  bool ok = fn(x, t, v);
  leave(x, 1);
  return ok;
}

/* JSON levels the walk goes down before it hands a value to enc_leaf as a
 * whole. Each walked level scans its text again (to find its members, to
 * count its elements), so a walk as deep as max_depth would scan crafted
 * text hundreds of times; real documents are seldom this deep, and below
 * it the leaf's tree is small. */
#define WALK_MAX_JSON_DEPTH 16u

static bool enc_value(walk *x, const desert_type *type, const span *v) {
  const desert_type *t = desert_type_resolve(type);
  if (!t) return false;
  if (x->jdepth >= WALK_MAX_JSON_DEPTH) return enc_leaf(x, t, v);
  bool ok;
  switch (t->kind) {
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP:
    return nested(x, enc_collection, t, v);
  case DESERT_TYPE_TUPLE:
    return nested(x, enc_tuple, t, v);
  case DESERT_TYPE_RECORD:
    return nested(x, enc_record, t, v);
  case DESERT_TYPE_ENUM:
    return nested(x, enc_enum, t, v);
  case DESERT_TYPE_OPTION:
    if (span_is(v, "null")) return desert_write_option(x->w, false) == DESERT_OK;
    if (!desert_type_nullable(t->u.inner)) {
      if (!enter(x, 0)) return false;
      ok = desert_write_option(x->w, true) == DESERT_OK && enc_value(x, t->u.inner, v);
      leave(x, 0);
      return ok;
    }
    /* Some of a nullable type is {"some": v}, one JSON level more */
    span inner;
    if (!some_inner(v, &inner) || !enter(x, 1)) return false;
    ok = desert_write_option(x->w, true) == DESERT_OK && enc_value(x, t->u.inner, &inner);
    leave(x, 1);
    return ok;
  /* clang-format off */
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY:
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    break;
    /* clang-format on */
  }
  return enc_leaf(x, t, v);
}

/* ---- the call ---------------------------------------------------------------------------------
 */

desert_status desert_json_encode_text(const desert_schema *s, const char *text, size_t len,
                                      desert_writer *w, desert_value_arena *scratch,
                                      const desert_json_limits *limits, desert_json_error *err) {
  desert_json_error local;
  if (!err) err = &local;
  err->kind = DESERT_JSON_ERR_NONE;
  err->status = DESERT_OK;
  err->has_offset = false;
  err->offset = 0;
  err->message[0] = '\0';
  if (!s || (!text && len) || !w || !scratch) {
    err->kind = DESERT_JSON_ERR_STATUS;
    err->status = DESERT_E_ARGUMENT;
    return DESERT_E_ARGUMENT;
  }
  if (!text) text = "";
  if (desert_json_encode_text_walk(s, text, len, w, scratch, limits)) return DESERT_OK;
  /* The whole-tree path: the reference, and the one that words errors. */
  desert_value_arena_reset(scratch);
  desert_codec_limits lim;
  desert_json_limits_resolve(limits, 0, &lim);
  desert_json *value = NULL;
  desert_status st = desert_json_parse_depth(text, len, scratch, lim.max_depth, &value, err);
  if (!st) st = desert_json_encode_ex(s, value, w, scratch, limits, err);
  desert_value_arena_reset(scratch);
  return st;
}

bool desert_json_encode_text_walk(const desert_schema *s, const char *text, size_t len,
                                  desert_writer *w, desert_value_arena *scratch,
                                  const desert_json_limits *limits) {
  walk x = {0};
  x.w = w;
  x.a = scratch;
  desert_json_limits_resolve(limits, 0, &x.lim);
  desert_writer_reset(w);
  span root;
  const char *stop;
  bool ok = next_value(text, text + len, &root, &stop) && stop == text + len &&
            enc_value(&x, s->root, &root) && desert_writer_status(w) == DESERT_OK;
  free(x.stack);
  desert_value_arena_reset(scratch);
  if (!ok) desert_writer_reset(w);
  return ok;
}
