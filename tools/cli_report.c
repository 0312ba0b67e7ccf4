/* tools/cli_report.c — how the `desert` tool words its messages, in one
 * place so every subcommand says what failed, where and why the same way:
 * file errors end with the operating system's reason (strerror), JSON
 * syntax errors name FILE:LINE:COLUMN, value paths are JSONPath-like ("$",
 * "$.exception.className", "$[211731].tags") whether they come from a
 * decode, an encode or an element of --stream, and input that ends early
 * says how much input there was and where the unfinished value began.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli_schema.h"

void cli_io_error(const char *cmd, int err, const char *fmt, ...) {
  fprintf(stderr, "%s%s%s: ", cli_progname, cmd ? " " : "", cmd ? cmd : "");
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  /* errno 0 after a failed stdio call: a short write with no reason given. */
  fprintf(stderr, ": %s\n", err ? strerror(err) : "short read or write (no reason reported)");
}

void cli_value_path(char *out, size_t cap, size_t element, const char *path) {
  if (!out || cap == 0) return;
  char idx[32] = "";
  if (element != SIZE_MAX) snprintf(idx, sizeof idx, "[%zu]", element);
  if (!path || !path[0])
    snprintf(out, cap, "$%s", idx);
  else
    snprintf(out, cap, "$%s%s%s", idx, path[0] == '[' ? "" : ".", path);
}

void cli_json_syntax_error(const char *cmd, const char *file, size_t line,
                           const desert_json_error *e) {
  /* The parser's nesting bound is the --max-depth of encode. */
  bool depth = strncmp(e->message, "nesting deeper than ", 20) == 0;
  cli_error(cmd, "%s:%zu:%zu: not JSON: %s%s%s%s", file, line ? line : e->line, e->column,
            e->message, depth ? " (limit --max-depth " : "", depth ? e->message + 20 : "",
            depth ? ")" : "");
}

/* Bytes a value of kind k always takes, 0 when it varies. */
static size_t fixed_width(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_BOOL:
  case DESERT_TYPE_I8:
  case DESERT_TYPE_U8:
    return 1;
  case DESERT_TYPE_I16:
  case DESERT_TYPE_U16:
  case DESERT_TYPE_CHAR16:
    return 2;
  case DESERT_TYPE_I32:
  case DESERT_TYPE_U32:
  case DESERT_TYPE_F32:
    return 4;
  case DESERT_TYPE_I64:
  case DESERT_TYPE_U64:
  case DESERT_TYPE_F64:
    return 8;
  case DESERT_TYPE_UUID:
    return 16;
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_UNIT: case DESERT_TYPE_CHAR:
  case DESERT_TYPE_STRING: case DESERT_TYPE_DEDUP_STRING: case DESERT_TYPE_VAR_U32:
  case DESERT_TYPE_VAR_I32: case DESERT_TYPE_BYTES: case DESERT_TYPE_DURATION:
  case DESERT_TYPE_INSTANT: case DESERT_TYPE_BIGINT: case DESERT_TYPE_BIGDECIMAL:
  case DESERT_TYPE_BIGDECIMAL_BINARY: case DESERT_TYPE_COMPRESSED: case DESERT_TYPE_DAY_OF_WEEK:
  case DESERT_TYPE_MONTH: case DESERT_TYPE_YEAR: case DESERT_TYPE_MONTH_DAY:
  case DESERT_TYPE_YEAR_MONTH: case DESERT_TYPE_PERIOD: case DESERT_TYPE_ZONE_OFFSET:
  case DESERT_TYPE_ZONE_ID: case DESERT_TYPE_LOCAL_DATE: case DESERT_TYPE_LOCAL_TIME:
  case DESERT_TYPE_LOCAL_DATE_TIME: case DESERT_TYPE_OFFSET_TIME:
  case DESERT_TYPE_OFFSET_DATE_TIME: case DESERT_TYPE_ZONED_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: case DESERT_TYPE_RUST_DATETIME_TZ:
  case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return 0;
}

/* Steps one path segment (a field name or "[i]") into the type it names.
 * Knows records (by field name) and lists, sets and maps (by index, a map
 * entry being the key/value pair); anything else: NULL (unknown). */
static const desert_type *step(const desert_type *t, const char *seg, size_t n) {
  t = desert_type_resolve(t);
  while (t && t->kind == DESERT_TYPE_OPTION) t = desert_type_resolve(t->u.inner);
  if (!t) return NULL;
  if (seg[0] == '[') {
    if (t->kind == DESERT_TYPE_LIST || t->kind == DESERT_TYPE_SET) return t->u.coll.element;
    return NULL;
  }
  if (t->kind != DESERT_TYPE_RECORD) return NULL;
  for (size_t i = 0; i < t->u.record.field_count; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    if (strlen(f->name) == n && memcmp(f->name, seg, n) == 0) return f->type;
  }
  return NULL;
}

/* The type at a library path ("a.b[3].c"), or NULL when the walk cannot
 * follow it (names with '.' or '[', enums, tuples, either...). */
static const desert_type *type_at(const desert_type *root, const char *path) {
  const desert_type *t = root;
  const char *p = path;
  while (t && *p) {
    if (*p == '.') p++;
    size_t n = *p == '[' ? strcspn(p, "]") + 1 : strcspn(p, ".[");
    if (n == 0 || (p[0] == '[' && p[n - 1] != ']')) return NULL;
    t = step(t, p, n);
    p += n;
  }
  t = desert_type_resolve(t);
  while (t && t->kind == DESERT_TYPE_OPTION) t = desert_type_resolve(t->u.inner);
  return t;
}

/* Composite kinds: a failure "at" one of them is in one of its parts (a
 * record's header entry or chunk, a collection's count, an enum's id...). */
static bool composite(desert_type_kind k) {
  return k >= DESERT_TYPE_LIST || k == DESERT_TYPE_DURATION || k == DESERT_TYPE_INSTANT ||
         k == DESERT_TYPE_BIGDECIMAL_BINARY || (k >= DESERT_TYPE_MONTH_DAY && k != DESERT_TYPE_ZONE_OFFSET);
}

void cli_input_ended_detail(char *out, size_t cap, const desert_type *root, const char *path,
                            size_t item, size_t len) {
  const desert_type *t = type_at(root, path ? path : "");
  size_t avail = item <= len ? len - item : 0;
  size_t need = t ? fixed_width(t->kind) : 0;
  const char *kn = t ? desert_type_kind_name(t->kind) : NULL;
  char what[96];
  if (!t)
    snprintf(what, sizeof what, "a value");
  else if (composite(t->kind))
    snprintf(what, sizeof what, "a part of a %s", kn);
  else
    snprintf(what, sizeof what, "%s %s", strchr("aeiou", kn[0]) ? "an" : "a", kn);
  if (need > avail)
    snprintf(out, cap,
             "input ends at byte %zu of %zu while reading %s at offset %zu: it needs %zu "
             "byte%s, %zu available (a file cut short, or data of another schema)",
             len, len, what, item, need, need == 1 ? "" : "s", avail);
  else
    snprintf(out, cap,
             "input ends at byte %zu of %zu while reading %s at offset %zu (%zu byte%s "
             "available from there; a file cut short, or data of another schema)",
             len, len, what, item, avail, avail == 1 ? "" : "s");
}

void cli_limit_why(char *out, size_t cap, desert_status st, const desert_type_error *terr,
                   const desert_codec_limits *lim, const desert_options *o) {
  const char *m = terr && terr->message[0] ? terr->message : desert_status_message(st);
  if (st == DESERT_E_LIMIT && strstr(m, "number of values")) {
    snprintf(out, cap, "more than %zu values (limit --max-values %zu)", lim->max_values,
             lim->max_values);
  } else if (st == DESERT_E_DEPTH) {
    unsigned d = o && o->max_depth && o->max_depth < lim->max_depth ? o->max_depth : lim->max_depth;
    snprintf(out, cap, "nesting deeper than %u (limit --max-depth %u)", d, d);
  } else if (st == DESERT_E_LIMIT && o && !(terr && terr->message[0])) {
    /* The reader's own bounds: strings, byte blocks and collections hold
     * up to 2^31 by default; an inflated block is the one a file can pass. */
    snprintf(out, cap, "%s (a reader limit: an inflated block may hold %zu bytes, "
             "--max-decompressed N raises it)", m, o->max_decompressed);
  } else {
    snprintf(out, cap, "%s", m);
  }
}
