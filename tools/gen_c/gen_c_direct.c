/* tools/gen_c/gen_c_direct.c — the fast path of generated code: straight C
 * functions per record, tuple, map entry and enum (gw_<T> writes, gr_<T>
 * reads), and per public type whose value they can carry (gpw_<i> /
 * gpr_<i>), calling libdesert's reader, writer, record and enum API
 * directly: records through their prepared plans, enums through constructor
 * ids fixed at generation time (desert_enum_write_id /
 * desert_enum_read_begin_id: no id is derived per value), every payload
 * form inline (record cases, transparent cases of any type, unit cases,
 * cases without fields), recursion through pointers, lists, options and
 * alternatives. Nothing is allocated per call beyond the decoded data
 * itself, which goes where the reader puts arena data.
 *
 * Equivalence with the runtime path. The public functions take this path
 * only where it gives what desert_type_encode / desert_type_decode (no
 * limits) give: the same bytes, statuses and error offsets, the same value.
 * The calls are the ones the runtime codec makes, in the same order; the
 * runtime's nesting bound (desert_codec_limits.max_depth, default 256
 * composite values, map entries not counted) is kept by a depth argument
 * checked before each composite is entered, where the runtime checks it.
 * test/gen_c's public-case, differential and mutated-input tests and
 * fuzz_gen_c compare the two paths. A type holding a value with no
 * public per-value call (dates, big numbers, compressed blocks, char16),
 * a collection with a size constraint, a field default that is not a
 * constant, or composites nested deeper than GC_VALUE_DEPTH without a
 * record, tuple or enum between them gets no direct functions: its users
 * run the C-struct codec (gen_c_cstruct.c) or the value tree instead.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_c_emit.h"

/* Holders (lists, options, alternatives) nested without a record, tuple or
 * enum between them are emitted inline; beyond this depth a type keeps the
 * other paths, which bounds the emitted code of a holder that reaches
 * itself. */
#define GC_VALUE_DEPTH 32u

/* The <name> of desert_read_<name> / desert_write_<name> for the built-in
 * kinds read and written by one public call each; NULL for the others. */
static const char *simple_name(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_BOOL: return "bool";
  case DESERT_TYPE_I8: return "i8";
  case DESERT_TYPE_I16: return "i16";
  case DESERT_TYPE_I32: return "i32";
  case DESERT_TYPE_I64: return "i64";
  case DESERT_TYPE_U8: return "u8";
  case DESERT_TYPE_U16: return "u16";
  case DESERT_TYPE_U32: return "u32";
  case DESERT_TYPE_U64: return "u64";
  case DESERT_TYPE_F32: return "f32_bits"; /* the bits, as the runtime copies them */
  case DESERT_TYPE_F64: return "f64_bits";
  case DESERT_TYPE_UNIT: return ""; /* nothing on the wire */
  case DESERT_TYPE_CHAR: return "char";
  case DESERT_TYPE_STRING: return "string";
  case DESERT_TYPE_DEDUP_STRING: return "dedup_string";
  case DESERT_TYPE_VAR_U32: return "var_u32";
  case DESERT_TYPE_VAR_I32: return "var_i32";
  case DESERT_TYPE_BYTES: return "bytes";
  case DESERT_TYPE_UUID: return "uuid";
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_CHAR16: case DESERT_TYPE_DURATION:
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
  return NULL;
}

/* Kinds with desert_read_<name>_inline and desert_write_<name>_inline
 * (reader_inline.h, writer_inline.h: the exported call's behaviour, inline
 * while the value fits; strings: the reader's only). */
static bool has_inline(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_BOOL: case DESERT_TYPE_I8: case DESERT_TYPE_I16: case DESERT_TYPE_I32:
  case DESERT_TYPE_I64: case DESERT_TYPE_U8: case DESERT_TYPE_U16: case DESERT_TYPE_U32:
  case DESERT_TYPE_U64: case DESERT_TYPE_VAR_U32: case DESERT_TYPE_VAR_I32:
  case DESERT_TYPE_STRING:
    return true;
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_F32: case DESERT_TYPE_F64: case DESERT_TYPE_UNIT:
  case DESERT_TYPE_CHAR: case DESERT_TYPE_CHAR16: case DESERT_TYPE_DEDUP_STRING:
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
    break;
  }
  return false;
}

/* Bytes per element of a list read and written in bulk (the runtime's
 * fixed-width runs); 0 for other elements. */
static unsigned bulk_width(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_I16: case DESERT_TYPE_U16: return 2;
  case DESERT_TYPE_I32: case DESERT_TYPE_U32: case DESERT_TYPE_F32: return 4;
  case DESERT_TYPE_I64: case DESERT_TYPE_U64: case DESERT_TYPE_F64: return 8;
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_BOOL: case DESERT_TYPE_I8: case DESERT_TYPE_U8:
  case DESERT_TYPE_UNIT: case DESERT_TYPE_CHAR: case DESERT_TYPE_CHAR16: case DESERT_TYPE_STRING:
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
    break;
  }
  return 0;
}

/* The values.h call pair of a built-in kind that is one C value written
 * and read whole (the calls the runtime codec and the C-struct codec make):
 * desert_write_<name>(w, V) and desert_read_<name>(r, &V), V passed by
 * address to the writer when `by_ref`. NULL name: not such a kind. */
typedef struct value_call {
  const char *name;
  bool by_ref;
} value_call;

static value_call value_call_of(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_DURATION: return (value_call){"duration", false};
  case DESERT_TYPE_INSTANT: return (value_call){"instant", false};
  case DESERT_TYPE_DAY_OF_WEEK: return (value_call){"day_of_week", false};
  case DESERT_TYPE_MONTH: return (value_call){"month", false};
  case DESERT_TYPE_YEAR: return (value_call){"year", false};
  case DESERT_TYPE_ZONE_OFFSET: return (value_call){"zone_offset", false};
  case DESERT_TYPE_MONTH_DAY: return (value_call){"month_day", false};
  case DESERT_TYPE_YEAR_MONTH: return (value_call){"year_month", false};
  case DESERT_TYPE_PERIOD: return (value_call){"period", false};
  case DESERT_TYPE_ZONE_ID: return (value_call){"zone_id", true};
  case DESERT_TYPE_LOCAL_DATE: return (value_call){"local_date", false};
  case DESERT_TYPE_LOCAL_TIME: return (value_call){"local_time", false};
  case DESERT_TYPE_LOCAL_DATE_TIME: return (value_call){"local_date_time", false};
  case DESERT_TYPE_OFFSET_TIME: return (value_call){"offset_time", false};
  case DESERT_TYPE_OFFSET_DATE_TIME: return (value_call){"offset_date_time", false};
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET:
    return (value_call){"rust_datetime_fixed_offset", false};
  case DESERT_TYPE_ZONED_DATE_TIME: return (value_call){"zoned_date_time", true};
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_BOOL: case DESERT_TYPE_I8: case DESERT_TYPE_I16:
  case DESERT_TYPE_I32: case DESERT_TYPE_I64: case DESERT_TYPE_U8: case DESERT_TYPE_U16:
  case DESERT_TYPE_U32: case DESERT_TYPE_U64: case DESERT_TYPE_F32: case DESERT_TYPE_F64:
  case DESERT_TYPE_UNIT: case DESERT_TYPE_CHAR: case DESERT_TYPE_CHAR16: case DESERT_TYPE_STRING:
  case DESERT_TYPE_DEDUP_STRING: case DESERT_TYPE_VAR_U32: case DESERT_TYPE_VAR_I32:
  case DESERT_TYPE_BYTES: case DESERT_TYPE_UUID: case DESERT_TYPE_BIGINT:
  case DESERT_TYPE_BIGDECIMAL: case DESERT_TYPE_BIGDECIMAL_BINARY: case DESERT_TYPE_COMPRESSED:
  case DESERT_TYPE_RUST_DATETIME_TZ: case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return (value_call){NULL, false};
}

/* Built-in kinds the direct code reads and writes: every kind with a C
 * type in generated code. */
static bool builtin_direct(const desert_type *c) {
  if (simple_name(c->kind) || value_call_of(c->kind).name) return true;
  switch (c->kind) {
  case DESERT_TYPE_CHAR16:
  case DESERT_TYPE_BIGINT:
  case DESERT_TYPE_BIGDECIMAL:
  case DESERT_TYPE_BIGDECIMAL_BINARY:
  case DESERT_TYPE_COMPRESSED:
  case DESERT_TYPE_RUST_DATETIME_TZ:
    return true;
  DESERT_TYPE_CASES(COMPOSITE) /* the kinds of simple_name and value_call_of: taken above */
  case DESERT_TYPE_BOOL: case DESERT_TYPE_I8: case DESERT_TYPE_I16: case DESERT_TYPE_I32:
  case DESERT_TYPE_I64: case DESERT_TYPE_U8: case DESERT_TYPE_U16: case DESERT_TYPE_U32:
  case DESERT_TYPE_U64: case DESERT_TYPE_F32: case DESERT_TYPE_F64: case DESERT_TYPE_UNIT:
  case DESERT_TYPE_CHAR: case DESERT_TYPE_STRING: case DESERT_TYPE_DEDUP_STRING:
  case DESERT_TYPE_VAR_U32: case DESERT_TYPE_VAR_I32: case DESERT_TYPE_BYTES:
  case DESERT_TYPE_UUID: case DESERT_TYPE_DURATION: case DESERT_TYPE_INSTANT:
  case DESERT_TYPE_DAY_OF_WEEK: case DESERT_TYPE_MONTH: case DESERT_TYPE_YEAR:
  case DESERT_TYPE_MONTH_DAY: case DESERT_TYPE_YEAR_MONTH: case DESERT_TYPE_PERIOD:
  case DESERT_TYPE_ZONE_OFFSET: case DESERT_TYPE_ZONE_ID: case DESERT_TYPE_LOCAL_DATE:
  case DESERT_TYPE_LOCAL_TIME: case DESERT_TYPE_LOCAL_DATE_TIME: case DESERT_TYPE_OFFSET_TIME:
  case DESERT_TYPE_OFFSET_DATE_TIME: case DESERT_TYPE_ZONED_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return false;
}

static bool is_enum(const gc_node *n) {
  return n->kind == GC_STRUCT && n->t->kind == DESERT_TYPE_ENUM;
}

/* Records, tuples, map entries and enums: the nodes with functions. */
static bool is_fn_node(const gc_node *n) {
  return n->kind == GC_ENTRY ||
         (n->kind == GC_STRUCT &&
          (n->t->kind == DESERT_TYPE_RECORD || n->t->kind == DESERT_TYPE_TUPLE || is_enum(n)));
}

/* Lists, sets, maps, options, eithers and tries: emitted inline where they
 * occur, and also as functions of their own for where they recur through a
 * pointer or nest deeper than GC_VALUE_DEPTH. */
static bool is_holder(const gc_node *n) {
  if (n->kind != GC_STRUCT) return false;
  switch (n->t->kind) {
  case DESERT_TYPE_LIST: case DESERT_TYPE_SET: case DESERT_TYPE_MAP: case DESERT_TYPE_OPTION:
  case DESERT_TYPE_EITHER: case DESERT_TYPE_TRY:
    return true;
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TUPLE: case DESERT_TYPE_RECORD:
  case DESERT_TYPE_ENUM: case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return false;
}

/* ---- which nodes get direct functions ------------------------------------------------ */

static bool value_direct(const gc_model *m, const gc_node *owner, const desert_type *t,
                         unsigned vd, const char **why);

/* What holder s holds, inline at holder depth vd. */
static bool holder_contents_direct(const gc_model *m, const gc_node *s, unsigned vd,
                                   const char **why) {
  const desert_type *st = s->t;
  switch (st->kind) {
  case DESERT_TYPE_MAP:
    if (!s->entry->direct) *why = s->entry->why;
    return s->entry->direct;
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
    return value_direct(m, NULL, st->u.coll.element, vd + 1, why);
  case DESERT_TYPE_OPTION:
    return value_direct(m, s, st->u.inner, vd + 1, why);
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY:
    return value_direct(m, s, st->u.alt.left, vd + 1, why) &&
           value_direct(m, s, st->u.alt.right, vd + 1, why);
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TUPLE: case DESERT_TYPE_RECORD:
  case DESERT_TYPE_ENUM: case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return (*why = "an unknown composite"), false;
}

/* A value of type t inside a function of node owner (NULL: a list element
 * or a public type's top level) that the direct code can carry, given the
 * current verdicts of the function nodes. */
static bool value_direct(const gc_model *m, const gc_node *owner, const desert_type *t,
                         unsigned vd, const char **why) {
  t = gc_skip_transparent(t);
  const desert_type *c = desert_type_resolve(t);
  if (!c) return (*why = "an unresolved type"), false;
  if (gc_builtin_ctype(c->kind))
    return builtin_direct(c) || ((*why = "a built-in type without a direct call"), false);
  gc_node *s = gc_model_struct_of(m, t);
  if (!s) return (*why = "a type without a C struct"), false;
  if (is_fn_node(s)) {
    if (!s->direct) *why = s->why;
    return s->direct;
  }
  if ((owner && gc_model_is_pointer(m, owner, t)) || vd >= GC_VALUE_DEPTH) {
    /* through the holder's own functions */
    if (!s->direct) *why = s->why;
    return s->direct;
  }
  return holder_contents_direct(m, s, vd, why);
}

static bool node_direct(const gc_model *m, const gc_node *n, const char **why) {
  const desert_type *t = n->t;
  if (is_holder(n)) return holder_contents_direct(m, n, 0, why);
  if (n->kind == GC_ENTRY)
    return value_direct(m, n, t->u.coll.element, 0, why) &&
           value_direct(m, n, t->u.coll.value, 0, why);
  switch (t->kind) {
  case DESERT_TYPE_ENUM:
    for (size_t i = 0; i < t->u.enumeration.count; i++) {
      const desert_type_ctor *c = &t->u.enumeration.ctors[i];
      if (gc_enum_case_has_member(c) && !value_direct(m, n, c->payload, 0, why)) return false;
    }
    return true;
  case DESERT_TYPE_TUPLE:
    if (t->u.tuple.count > 22) /* desert_ctuple_fields names 22 */
      return (*why = "a tuple of more than 22 elements"), false;
    for (size_t i = 0; i < t->u.tuple.count; i++)
      if (!value_direct(m, n, t->u.tuple.elements[i], 0, why)) return false;
    return true;
  case DESERT_TYPE_RECORD:
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_LIST: case DESERT_TYPE_SET: case DESERT_TYPE_MAP:
  case DESERT_TYPE_OPTION: case DESERT_TYPE_EITHER: case DESERT_TYPE_TRY:
  case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF: case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  /* RECORD */
  for (size_t i = 0; i < t->u.record.field_count; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    if (!(f->flags & DESERT_FIELD_TRANSIENT) && !value_direct(m, n, f->type, 0, why))
      return false;
  }
  return true;
}

void gc_direct_analyse(const gc_model *m) {
  /* Greatest fixpoint: assume every function node direct (recursion), then
   * drop the ones holding something that is not, until nothing changes. */
  for (size_t i = 0; i < m->count; i++) {
    m->nodes[i]->direct = is_fn_node(m->nodes[i]) || is_holder(m->nodes[i]);
    m->nodes[i]->why = m->nodes[i]->direct ? NULL : "an alias";
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < m->count; i++) {
      gc_node *n = m->nodes[i];
      const char *why = NULL;
      if (n->direct && !node_direct(m, n, &why)) {
        n->direct = false;
        n->why = why ? why : "it holds a type without direct functions";
        changed = true;
      }
    }
  }
}

bool gc_direct_runtime_default(const gc_node *n, size_t i) {
  if (n->kind != GC_STRUCT || n->t->kind != DESERT_TYPE_RECORD || !n->direct) return false;
  return !gc_cstruct_defaults_ok(n->t, &n->t->u.record.fields[i]);
}

bool gc_direct_needs_runtime_defaults(const gc_node *n) {
  if (n->kind != GC_STRUCT || n->t->kind != DESERT_TYPE_RECORD) return false;
  for (size_t i = 0; i < n->t->u.record.field_count; i++)
    if (gc_direct_runtime_default(n, i)) return true;
  return false;
}

/* The type a public node stands for (an alias: the type it names). */
static const desert_type *public_type(const gc_node *n) { return n->t; }

bool gc_direct_public(const gc_model *m, const gc_node *n) { return !gc_direct_why(m, n); }

const char *gc_direct_why(const gc_model *m, const gc_node *n) {
  if (is_fn_node(n)) return n->direct ? NULL : n->why;
  const char *why = "unknown";
  /* an alias, a list, an option... */
  return value_direct(m, NULL, public_type(n), 0, &why) ? NULL : why;
}

/* ---- emission ---------------------------------------------------------------------- */

typedef struct dx {
  const gc_model *m;
  gc_buf *b;
  unsigned tmp; /* numbers the locals of nested blocks */
} dx;

/* Formatted strings (lvalues, calls) are gc_fmt's, marking the output
 * failed on error; xs/xfree name them for the emitters below. */
#define xs(x, ...) gc_fmt((x)->b, __VA_ARGS__)
#define xfree gc_fmt_free

static void ind(dx *x, unsigned depth) {
  for (unsigned i = 0; i < depth; i++) gc_printf(x->b, "  ");
}

/* One line at indentation d (the text ends without a newline). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void line(dx *x, unsigned d, const char *fmt, ...) {
  ind(x, d);
  va_list ap;
  va_start(ap, fmt);
  gc_vprintf(x->b, fmt, ap);
  va_end(ap);
  gc_put(x->b, "\n", 1);
}

/* The runtime's nesting check before a composite is entered at depth
 * `dp + lvl` (dp: the function's depth argument). */
static void depth_check(dx *x, unsigned lvl, bool dec, unsigned d) {
  line(x, d, "if (dp + %uu >= GC_MAX_DEPTH) {", lvl);
  line(x, d + 1, dec ? "gc_rdeep(r);" : "gc_wdeep(w);");
  line(x, d + 1, "goto end;");
  line(x, d, "}");
}

/* A built-in value other than the one-call kinds: as the runtime codec
 * reads and writes it (its checks, statuses and offsets). */
static void special(dx *x, const desert_type *c, const char *e, bool dec, unsigned d) {
  switch (c->kind) {
  case DESERT_TYPE_CHAR16:
    /* a code point in the C type, one UTF-16 unit on the wire */
    if (dec) {
      line(x, d, "{");
      line(x, d + 1, "size_t at = desert_reader_offset(r);");
      line(x, d + 1, "uint16_t u;");
      line(x, d + 1, "if (desert_read_char16(r, &u)) goto end;");
      line(x, d + 1, "if (u >= 0xD800u && u <= 0xDFFFu) {");
      line(x, d + 2, "desert_reader_fail(r, DESERT_E_INVALID_CHAR, at);");
      line(x, d + 2, "goto end;");
      line(x, d + 1, "}");
      line(x, d + 1, "%s = u;", e);
      line(x, d, "}");
    } else {
      line(x, d, "if ((%s >= 0xD800u && %s <= 0xDFFFu) || %s > 0x10FFFFu) {", e, e, e);
      line(x, d + 1, "gc_wfail(w);");
      line(x, d + 1, "goto end;");
      line(x, d, "}");
      line(x, d, "if (%s > 0xFFFFu) {", e);
      line(x, d + 1, "desert_writer_fail(w, DESERT_E_UNSUPPORTED_CHAR);");
      line(x, d + 1, "goto end;");
      line(x, d, "}");
      line(x, d, "if (desert_write_char16(w, (uint16_t)%s)) goto end;", e);
    }
    return;
  case DESERT_TYPE_BIGINT:
    /* a length-0 view is BigInt 0, written as its one-byte block */
    if (dec)
      line(x, d, "if (desert_read_bigint(r, &%s)) goto end;", e);
    else
      line(x, d, "if (%s.len ? desert_write_bigint(w, %s.ptr, %s.len) : desert_write_bigint(w, "
                 "&gc_bigint_zero, 1)) goto end;", e, e, e);
    return;
  case DESERT_TYPE_BIGDECIMAL:
    if (dec)
      line(x, d, "if (desert_read_bigdecimal(r, &%s)) goto end;", e);
    else
      line(x, d, "if (desert_write_bigdecimal(w, %s.ptr, %s.len)) goto end;", e, e);
    return;
  case DESERT_TYPE_BIGDECIMAL_BINARY:
    if (dec)
      line(x, d, "if (desert_read_bigdecimal_binary(r, &%s.scale, &%s.unscaled)) goto end;", e, e);
    else
      line(x, d, "if (%s.unscaled.len ? desert_write_bigdecimal_binary(w, %s.scale, "
                 "%s.unscaled.ptr, %s.unscaled.len) : desert_write_bigdecimal_binary(w, %s.scale, "
                 "&gc_bigint_zero, 1)) goto end;", e, e, e, e, e);
    return;
  case DESERT_TYPE_COMPRESSED: {
    /* the type's flavour, else the context's; the type's level (-1: default) */
    int fl = c->u.compressed.flavour;
    char *flavour = fl < 0 ? xs(x, "desert_%s_options(%s)->compression", dec ? "reader" : "writer",
                                dec ? "r" : "w")
                           : xs(x, "(desert_compression)%d", fl);
    if (dec)
      line(x, d, "if (desert_read_compressed(r, %s, &%s)) goto end;", flavour, e);
    else
      line(x, d, "if (desert_write_compressed(w, %s, %d, %s.ptr, %s.len)) goto end;", flavour,
           c->u.compressed.level, e, e);
    xfree(flavour);
    return;
  }
  case DESERT_TYPE_RUST_DATETIME_TZ:
    if (dec)
      line(x, d, "if (desert_read_rust_datetime_tz(r, &%s.utc, &%s.zone)) goto end;", e, e);
    else
      line(x, d, "if (desert_write_rust_datetime_tz(w, %s.utc, %s.zone)) goto end;", e, e);
    return;
  DESERT_TYPE_CASES(COMPOSITE) /* the kinds of value_call_of; simple_name's never get here */
  case DESERT_TYPE_BOOL: case DESERT_TYPE_I8: case DESERT_TYPE_I16: case DESERT_TYPE_I32:
  case DESERT_TYPE_I64: case DESERT_TYPE_U8: case DESERT_TYPE_U16: case DESERT_TYPE_U32:
  case DESERT_TYPE_U64: case DESERT_TYPE_F32: case DESERT_TYPE_F64: case DESERT_TYPE_UNIT:
  case DESERT_TYPE_CHAR: case DESERT_TYPE_STRING: case DESERT_TYPE_DEDUP_STRING:
  case DESERT_TYPE_VAR_U32: case DESERT_TYPE_VAR_I32: case DESERT_TYPE_BYTES:
  case DESERT_TYPE_UUID: case DESERT_TYPE_DURATION: case DESERT_TYPE_INSTANT:
  case DESERT_TYPE_DAY_OF_WEEK: case DESERT_TYPE_MONTH: case DESERT_TYPE_YEAR:
  case DESERT_TYPE_MONTH_DAY: case DESERT_TYPE_YEAR_MONTH: case DESERT_TYPE_PERIOD:
  case DESERT_TYPE_ZONE_OFFSET: case DESERT_TYPE_ZONE_ID: case DESERT_TYPE_LOCAL_DATE:
  case DESERT_TYPE_LOCAL_TIME: case DESERT_TYPE_LOCAL_DATE_TIME: case DESERT_TYPE_OFFSET_TIME:
  case DESERT_TYPE_OFFSET_DATE_TIME: case DESERT_TYPE_ZONED_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  value_call vc = value_call_of(c->kind);
  if (dec)
    line(x, d, "if (desert_read_%s(r, &%s)) goto end;", vc.name, e);
  else
    line(x, d, "if (desert_write_%s(w, %s%s)) goto end;", vc.name, vc.by_ref ? "&" : "", e);
}

/* A byte block's size constraints, checked where the runtime checks them:
 * encode before the write (DESERT_E_ARGUMENT), decode after the read
 * (DESERT_E_INVALID_VALUE at the block's offset, kept in `at`). */
static void bytes_constraint(dx *x, const desert_type *c, const char *e, bool dec, unsigned d) {
  char *bad = c->u.bytes.has_length ? xs(x, "%s.len != %luu", e, (unsigned long)c->u.bytes.length)
                                    : xs(x, "%s.len == 0", e);
  line(x, d, "if (%s) {", bad);
  if (dec)
    line(x, d + 1, "desert_reader_fail(r, DESERT_E_INVALID_VALUE, at);");
  else
    line(x, d + 1, "gc_wfail(w);");
  line(x, d + 1, "goto end;");
  line(x, d, "}");
  xfree(bad);
}

/* The reader (dec) or writer call of a built-in type c on the lvalue e. */
static void simple(dx *x, const desert_type *c, const char *e, bool dec, unsigned d) {
  desert_type_kind k = c->kind;
  const char *fn = simple_name(k);
  if (!fn) {
    special(x, c, e, dec, d);
    return;
  }
  if (!*fn) return; /* unit */
  if (k == DESERT_TYPE_BYTES && (c->u.bytes.non_empty || c->u.bytes.has_length)) {
    if (dec) {
      line(x, d, "{");
      line(x, d + 1, "size_t at = desert_reader_offset(r);");
      line(x, d + 1, "if (desert_read_bytes(r, &%s)) goto end;", e);
      bytes_constraint(x, c, e, true, d + 1);
      line(x, d, "}");
    } else {
      bytes_constraint(x, c, e, false, d);
      line(x, d, "if (desert_write_bytes(w, %s.ptr, %s.len)) goto end;", e, e);
    }
    return;
  }
  switch (k) {
  case DESERT_TYPE_F32:
  case DESERT_TYPE_F64: {
    const char *bt = k == DESERT_TYPE_F32 ? "uint32_t" : "uint64_t";
    line(x, d, "{");
    line(x, d + 1, "%s bits;", bt);
    /* the bits, through the inline u32/u64 calls (same bytes and errors) */
    const char *un = k == DESERT_TYPE_F32 ? "u32" : "u64";
    if (dec) {
      line(x, d + 1, "if (desert_read_%s_inline(r, &bits)) goto end;", un);
      line(x, d + 1, "memcpy(&%s, &bits, sizeof bits);", e);
    } else {
      line(x, d + 1, "memcpy(&bits, &%s, sizeof bits);", e);
      line(x, d + 1, "if (desert_write_%s_inline(w, bits)) goto end;", un);
    }
    line(x, d, "}");
    return;
  }
  case DESERT_TYPE_UUID:
    line(x, d, "if (desert_%s_uuid(%s, %s.bytes)) goto end;", dec ? "read" : "write",
         dec ? "r" : "w", e);
    return;
  case DESERT_TYPE_STRING:
    if (!dec) {
      line(x, d, "if (desert_write_string_inline(w, %s.ptr, %s.len)) goto end;", e, e);
      return;
    }
    break;
  case DESERT_TYPE_DEDUP_STRING:
  case DESERT_TYPE_BYTES:
    if (!dec) {
      line(x, d, "if (desert_write_%s(w, %s.ptr, %s.len)) goto end;", fn, e, e);
      return;
    }
    break;
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_BOOL: case DESERT_TYPE_I8: case DESERT_TYPE_I16:
  case DESERT_TYPE_I32: case DESERT_TYPE_I64: case DESERT_TYPE_U8: case DESERT_TYPE_U16:
  case DESERT_TYPE_U32: case DESERT_TYPE_U64: case DESERT_TYPE_UNIT: case DESERT_TYPE_CHAR:
  case DESERT_TYPE_CHAR16: case DESERT_TYPE_VAR_U32: case DESERT_TYPE_VAR_I32:
  case DESERT_TYPE_DURATION: case DESERT_TYPE_INSTANT: case DESERT_TYPE_BIGINT:
  case DESERT_TYPE_BIGDECIMAL: case DESERT_TYPE_BIGDECIMAL_BINARY: case DESERT_TYPE_COMPRESSED:
  case DESERT_TYPE_DAY_OF_WEEK: case DESERT_TYPE_MONTH: case DESERT_TYPE_YEAR:
  case DESERT_TYPE_MONTH_DAY: case DESERT_TYPE_YEAR_MONTH: case DESERT_TYPE_PERIOD:
  case DESERT_TYPE_ZONE_OFFSET: case DESERT_TYPE_ZONE_ID: case DESERT_TYPE_LOCAL_DATE:
  case DESERT_TYPE_LOCAL_TIME: case DESERT_TYPE_LOCAL_DATE_TIME: case DESERT_TYPE_OFFSET_TIME:
  case DESERT_TYPE_OFFSET_DATE_TIME: case DESERT_TYPE_ZONED_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: case DESERT_TYPE_RUST_DATETIME_TZ:
  case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  /* the reader.h/writer.h inline forms where they exist: same behaviour,
   * no call while the value fits */
  const char *inl = has_inline(k) ? "_inline" : "";
  if (dec)
    line(x, d, "if (desert_read_%s%s(r, &%s)) goto end;", fn, inl, e);
  else
    line(x, d, "if (desert_write_%s%s(w, %s)) goto end;", fn, inl, e);
}

/* A call of node s's function on the address expression a, the callee
 * entered at depth dp + lvl + 1 (a map entry: not counted, dp + lvl). */
static void call_fn(dx *x, const gc_node *s, const char *a, bool dec, unsigned lvl, unsigned d) {
  unsigned inner = s->kind == GC_ENTRY ? lvl : lvl + 1;
  line(x, d, "if (g%s_%s(%s, %s, dp + %uu)) goto end;", dec ? "r" : "w", s->name, dec ? "r" : "w",
       a, inner);
}

static void value(dx *x, const gc_node *owner, const desert_type *t, const char *e, bool dec,
                  unsigned lvl, unsigned d);
static bool enum_run(dx *x, const desert_type *et, const char *e, unsigned k, unsigned lvl,
                     unsigned d);
static void enum_peek(dx *x, const desert_type *et, unsigned k, unsigned lvl, unsigned d);

/* The elements of a list, set or map at the lvalue e (items, count), as the
 * runtime codec's collection code: known-size or unknown-size form, runs of
 * fixed-width numbers in bulk, other elements grown by doubling in the
 * reader's arena as they arrive (a count is never trusted for an
 * allocation). The collection was entered at depth dp + lvl + 1. */
static void list(dx *x, const gc_node *s, const char *e, bool dec, unsigned lvl, unsigned d) {
  const desert_type *st = s->t;
  bool map = st->kind == DESERT_TYPE_MAP;
  const desert_type *et = map ? NULL : gc_skip_transparent(st->u.coll.element);
  const char *ct = map ? s->entry->name : gc_model_ctype(x->m, et);
  const desert_type *ec = map ? NULL : desert_type_resolve(et);
  unsigned bw = !map && gc_builtin_ctype(ec->kind) ? bulk_width(ec->kind) : 0;
  unsigned k = x->tmp++;
  /* the size constraints (non_empty; length: lists only), as the runtime
   * checks them: before writing, after reading */
  char *bad = NULL;
  if (st->kind == DESERT_TYPE_LIST && st->u.coll.has_length)
    bad = xs(x, "%s.count != %luu", e, (unsigned long)st->u.coll.length);
  else if (st->u.coll.non_empty)
    bad = xs(x, "%s.count == 0", e);
  if (!dec) {
    bool stream = st->u.coll.unknown_form;
    line(x, d, "if (%s.count && !%s.items) {", e, e);
    line(x, d + 1, "gc_wfail(w);");
    line(x, d + 1, "goto end;");
    line(x, d, "}");
    if (bad) {
      line(x, d, "if (%s) {", bad);
      line(x, d + 1, "gc_wfail(w);");
      line(x, d + 1, "goto end;");
      line(x, d, "}");
    }
    xfree(bad);
    if (stream)
      line(x, d, "if (desert_write_stream_begin(w)) goto end;");
    else
      line(x, d, "if (desert_write_count_inline(w, %s.count)) goto end;", e);
    if (bw && !stream) {
      line(x, d,
           "if (desert_write_u%u_array(w, (const uint%u_t *)(const void *)%s.items, %s.count))",
           bw * 8, bw * 8, e, e);
      line(x, d + 1, "goto end;");
      return;
    }
    if (!stream && !map && enum_run(x, et, e, k, lvl, d)) return;
    line(x, d, "for (size_t i%u = 0; i%u < %s.count; i%u++) {", k, k, e, k);
    if (stream) line(x, d + 1, "if (desert_write_stream_item(w)) goto end;");
    char *el = xs(x, "%s.items[i%u]", e, k);
    if (map) {
      char *a = xs(x, "&%s", el);
      call_fn(x, s->entry, a, false, lvl + 1, d + 1);
      xfree(a);
    } else {
      value(x, NULL, et, el, false, lvl + 1, d + 1);
    }
    xfree(el);
    line(x, d, "}");
    if (stream) line(x, d, "if (desert_write_stream_end(w)) goto end;");
    return;
  }
  line(x, d, "{");
  d++;
  line(x, d, "desert_seq sq%u;", k);
  line(x, d, "if (desert_read_seq_begin(r, &sq%u)) goto end;", k);
  if (bw) {
    line(x, d, "if (sq%u.known) {", k);
    line(x, d + 1, "if (sq%u.count) {", k);
    line(x, d + 2, "if (sq%u.count > SIZE_MAX / %u || !desert_reader_ensure(r, sq%u.count * %u)) {",
         k, bw, k, bw);
    line(x, d + 3, "desert_reader_fail(r, DESERT_E_INPUT_ENDED,");
    line(x, d + 3, "                   desert_reader_offset(r) + desert_reader_remaining(r) / %u * %u);",
         bw, bw);
    line(x, d + 3, "goto end;");
    line(x, d + 2, "}");
    line(x, d + 2, "%s *a%u = (%s *)desert_reader_alloc(r, sq%u.count * %u, 16);", ct, k, ct, k, bw);
    line(x, d + 2, "if (!a%u) goto end;", k);
    line(x, d + 2, "if (desert_read_u%u_array(r, (uint%u_t *)(void *)a%u, sq%u.count)) goto end;",
         bw * 8, bw * 8, k, k);
    line(x, d + 2, "%s.items = a%u;", e, k);
    line(x, d + 2, "%s.count = sq%u.count;", e, k);
    line(x, d + 1, "}");
    line(x, d, "} else {");
    d++;
  }
  /* A known count is trusted for the first allocation only as far as the
   * input could hold that many elements of one byte: never more items than
   * bytes left. */
  line(x, d, "size_t c%u = 16, n%u = 0;", k, k);
  line(x, d, "if (sq%u.known) {", k);
  line(x, d + 1, "size_t left = desert_reader_remaining(r);");
  line(x, d + 1, "c%u = sq%u.count < left ? sq%u.count : left;", k, k, k);
  line(x, d, "}");
  line(x, d, "%s *it%u = NULL;", ct, k);
  line(x, d, "while (desert_read_seq_next_inline(r, &sq%u)) {", k);
  line(x, d + 1, "if (n%u == c%u || !it%u) {", k, k, k);
  line(x, d + 2, "size_t nc = it%u ? c%u * 2 : (c%u ? c%u : 1);", k, k, k, k);
  line(x, d + 2, "if (nc > SIZE_MAX / sizeof(%s)) {", ct);
  line(x, d + 3, "desert_reader_fail(r, DESERT_E_LIMIT, desert_reader_offset(r));");
  line(x, d + 3, "goto end;");
  line(x, d + 2, "}");
  line(x, d + 2, "%s *ni = (%s *)desert_reader_alloc(r, nc * sizeof(%s), 16);", ct, ct, ct);
  line(x, d + 2, "if (!ni) goto end;");
  line(x, d + 2, "if (n%u) memcpy(ni, it%u, n%u * sizeof(%s));", k, k, k, ct);
  line(x, d + 2, "it%u = ni;", k);
  line(x, d + 2, "c%u = nc;", k);
  line(x, d + 1, "}");
  line(x, d + 1, "memset(&it%u[n%u], 0, sizeof(%s));", k, k, ct);
  if (!map) enum_peek(x, et, k, lvl, d + 1);
  char *el = xs(x, "it%u[n%u]", k, k);
  if (map) {
    char *a = xs(x, "&%s", el);
    call_fn(x, s->entry, a, true, lvl + 1, d + 1);
    xfree(a);
  } else {
    value(x, NULL, et, el, true, lvl + 1, d + 1);
  }
  xfree(el);
  line(x, d + 1, "n%u++;", k);
  line(x, d, "}");
  line(x, d, "if (desert_reader_status(r)) goto end;");
  line(x, d, "%s.items = n%u ? it%u : NULL;", e, k, k);
  line(x, d, "%s.count = n%u;", e, k);
  if (bw) {
    d--;
    line(x, d, "}");
  }
  if (bad) {
    line(x, d, "if (%s) {", bad);
    line(x, d + 1, "desert_reader_fail(r, DESERT_E_INVALID_VALUE, sq%u.offset);", k);
    line(x, d + 1, "goto end;");
    line(x, d, "}");
  }
  xfree(bad);
  d--;
  line(x, d, "}");
}

/* An option, either or try struct at the lvalue e: the tag into its flag,
 * then the branch it selects (owner s: members that point back). Entered
 * at depth dp + lvl + 1. */
static void alternative(dx *x, const gc_node *s, const char *e, bool dec, unsigned lvl,
                        unsigned d) {
  const desert_type *st = s->t;
  const char *flag, *fn, *one, *zero = NULL;
  const desert_type *t1, *t0 = NULL;
  if (st->kind == DESERT_TYPE_OPTION) {
    flag = "has_value", fn = "option", one = "value", t1 = st->u.inner;
  } else {
    bool ei = st->kind == DESERT_TYPE_EITHER;
    flag = ei ? "is_right" : "is_success";
    fn = ei ? "either" : "try";
    one = ei ? "right" : "success";
    zero = ei ? "left" : "failure";
    t1 = st->u.alt.right;
    t0 = st->u.alt.left;
  }
  if (dec)
    line(x, d, "if (desert_read_%s_inline(r, &%s.%s)) goto end;", fn, e, flag);
  else
    line(x, d, "if (desert_write_%s_inline(w, %s.%s)) goto end;", fn, e, flag);
  line(x, d, "if (%s.%s) {", e, flag);
  char *m1 = xs(x, "%s.%s", e, one);
  value(x, s, t1, m1, dec, lvl + 1, d + 1);
  xfree(m1);
  if (zero) {
    line(x, d, "} else {");
    char *m0 = xs(x, "%s.%s", e, zero);
    value(x, s, t0, m0, dec, lvl + 1, d + 1);
    xfree(m0);
  }
  line(x, d, "}");
}

/* The value of type t at the lvalue e inside a function of node owner
 * (NULL for list elements and public types), a composite entered at depth
 * dp + lvl + 1 after the runtime's check at dp + lvl. */
static void value(dx *x, const gc_node *owner, const desert_type *t, const char *e, bool dec,
                  unsigned lvl, unsigned d) {
  t = gc_skip_transparent(t);
  const desert_type *c = desert_type_resolve(t);
  if (gc_builtin_ctype(c->kind)) {
    simple(x, c, e, dec, d);
    return;
  }
  gc_node *s = gc_model_struct_of(x->m, t);
  depth_check(x, lvl, dec, d);
  if (owner && gc_model_is_pointer(x->m, owner, t)) {
    if (!dec) {
      line(x, d, "if (!%s) {", e);
      line(x, d + 1, "gc_wfail(w);");
      line(x, d + 1, "goto end;");
      line(x, d, "}");
      call_fn(x, s, e, false, lvl, d);
      return;
    }
    /* Allocated only once the value's first byte is there (as the runtime
     * reads it), so a chain of pointers cannot allocate ahead of its bytes. */
    unsigned k = x->tmp++;
    line(x, d, "{");
    line(x, d + 1, "if (!desert_reader_ensure(r, 1)) {");
    line(x, d + 2, "desert_reader_fail(r, DESERT_E_INPUT_ENDED, desert_reader_offset(r));");
    line(x, d + 2, "goto end;");
    line(x, d + 1, "}");
    line(x, d + 1, "%s *q%u = (%s *)desert_reader_alloc(r, sizeof(%s), 16);", s->name, k, s->name,
         s->name);
    line(x, d + 1, "if (!q%u) goto end;", k);
    line(x, d + 1, "memset(q%u, 0, sizeof *q%u);", k, k);
    char *a = xs(x, "q%u", k);
    call_fn(x, s, a, true, lvl, d + 1);
    xfree(a);
    line(x, d + 1, "%s = q%u;", e, k);
    line(x, d, "}");
    return;
  }
  if (is_fn_node(s) || lvl >= GC_VALUE_DEPTH) { /* the latter: a holder's own function */
    char *a = xs(x, "&%s", e);
    call_fn(x, s, a, dec, lvl, d);
    xfree(a);
    return;
  }
  switch (s->t->kind) {
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP:
    list(x, s, e, dec, lvl, d);
    return;
  case DESERT_TYPE_OPTION: case DESERT_TYPE_EITHER: case DESERT_TYPE_TRY:
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TUPLE: case DESERT_TYPE_RECORD:
  case DESERT_TYPE_ENUM: case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  alternative(x, s, e, dec, lvl, d);
}

/* Appends the function body in `body` and its `end:` label when a goto
 * uses it (an unused label is a warning). */
static void finish(gc_buf *out, gc_buf *body, const char *tail) {
  gc_put(out, body->data ? body->data : "", body->len);
  if (body->data && strstr(body->data, "goto end;")) gc_printf(out, "end:\n");
  gc_printf(out, "%s}\n\n", tail);
  if (body->failed) gc_buf_fail(out, body->why); /* the first failure's reason with it */
  gc_buf_free(body);
}

/* Function bodies are emitted into `body` (the caller's) until finish. */
static void use_body(dx *x, gc_buf *body) {
  x->b = body;
  x->tmp = 0;
}

/* The head of gr_<name> (dec) or gw_<name>; the body then goes to x->b. */
static void open_fn_as(dx *x, gc_buf *out, gc_buf *body, const gc_node *n, bool dec,
                       const char *prefix, const char *suffix) {
  /* (void): enums of unit or transient cases and records of built-ins use
   * neither the value nor the depth in every direction. */
  gc_printf(out,
            "%sstatic desert_status g%s_%s%s(desert_%s *%s, %s%s *o, unsigned dp) {\n"
            "  (void)o;\n  (void)dp;\n",
            prefix, dec ? "r" : "w", n->name, suffix, dec ? "reader" : "writer", dec ? "r" : "w",
            dec ? "" : "const ", n->name);
  use_body(x, body);
}
static void open_fn(dx *x, gc_buf *out, gc_buf *body, const gc_node *n, bool dec) {
  open_fn_as(x, out, body, n, dec, "", "");
}

/* Member i of a record, tuple or map entry: its type, record field flags
 * (0 for tuples and entries), optional-field flag member (or NULL) and
 * access expression (to free). */
static const desert_type *member(dx *x, const gc_node *n, size_t i, unsigned *flags,
                                 const char **flag, char **e) {
  const desert_type *t = n->t;
  bool entry = n->kind == GC_ENTRY, tuple = !entry && t->kind == DESERT_TYPE_TUPLE;
  *flags = entry || tuple ? 0 : t->u.record.fields[i].flags;
  *flag = entry || tuple ? NULL : n->flags[i];
  *e = xs(x, "o->%s", entry ? (i ? "value" : "key") : n->members[i]);
  return entry   ? (i ? t->u.coll.value : t->u.coll.element)
         : tuple ? t->u.tuple.elements[i]
                 : t->u.record.fields[i].type;
}

static size_t member_count(const gc_node *n) {
  const desert_type *t = n->t;
  if (n->kind == GC_ENTRY) return 2;
  return t->kind == DESERT_TYPE_TUPLE ? t->u.tuple.count : t->u.record.field_count;
}

/* A record without evolution steps (tuples and map entries are such
 * records): on the wire always 00 and then its non-transient members in
 * declaration order (docs/format.md §13.2), whatever its runtime plan. */
static bool struct_is_v0(const gc_node *n) {
  return n->kind == GC_ENTRY || n->t->kind == DESERT_TYPE_TUPLE || n->t->u.record.step_count == 0;
}

/* The straight-line form of a version-0 record. Writing, the version byte
 * and the members, nothing else: the record writer would add no byte; its
 * nesting check (options.max_depth open records) is the inline begin's,
 * the codec's composite bound the depth argument's. Reading, version-0
 * data goes the same way; data of a later version (a writer that added
 * fields) has a header, and gr_<name>_ev, the record reader's path, reads
 * it. */
static void emit_struct_v0(dx *x, gc_buf *out, const gc_node *n, bool dec) {
  gc_buf body = {0};
  open_fn(x, out, &body, n, dec);
  if (dec)
    gc_printf(out,
              "  if (!desert_record_read_v0_begin_inline(r)) return gr_%s_ev(r, o, dp);\n"
              "  memset(o, 0, sizeof *o);\n",
              n->name);
  else
    gc_printf(out, "  if (desert_record_write_v0_begin_inline(w)) return desert_writer_status(w);\n");
  for (size_t i = 0; i < member_count(n); i++) {
    unsigned flags;
    const char *flag;
    char *e;
    const desert_type *ft = member(x, n, i, &flags, &flag, &e);
    if (flags & DESERT_FIELD_TRANSIENT) {
      /* not on the wire; read: its transient default, if not zero */
      if (dec && gc_direct_runtime_default(n, i))
        line(x, 1, "if (gd_d_%s(r, o, %zu)) goto end;", n->name, i);
      else if (dec && gc_cstruct_has_default(n, i))
        line(x, 1, "cs_d_%s(o, %zu);", n->name, i);
    } else if (flags & DESERT_FIELD_OPTIONAL) {
      line(x, 1, dec ? "if (desert_read_option_inline(r, &o->%s)) goto end;"
                     : "if (desert_write_option_inline(w, o->%s)) goto end;",
           flag);
      line(x, 1, "if (o->%s) {", flag);
      value(x, n, ft, e, dec, 0, 2);
      line(x, 1, "}");
    } else {
      value(x, n, ft, e, dec, 0, 1);
    }
    xfree(e);
  }
  finish(out, &body, dec ? "  return desert_record_read_v0_end_inline(r);\n"
                            : "  return desert_record_write_v0_end_inline(w);\n");
}

/* A record, tuple or map entry through the record writer and reader: the
 * members in declaration order. Version-0 types take emit_struct_v0, and
 * this only reads their data of later versions (as gr_<name>_ev). */
static void emit_struct(dx *x, gc_buf *out, const gc_node *n, bool dec) {
  size_t count = member_count(n);
  gc_buf body = {0};
  if (struct_is_v0(n)) {
    if (dec) {
      open_fn_as(x, out, &body, n, dec, "GC_NOINLINE ", "_ev");
    } else {
      emit_struct_v0(x, out, n, dec);
      return;
    }
  } else {
    open_fn(x, out, &body, n, dec);
  }
  if (dec)
    gc_printf(out,
              "  desert_record_reader rr;\n"
              "  desert_field_action a;\n"
              "  memset(o, 0, sizeof *o);\n"
              "  if (cs_%s.plan ? desert_record_read_begin_plan(r, cs_%s.plan, &rr)\n"
              "                 : desert_record_read_begin(r, &cs_%s.record, &rr))\n"
              "    return desert_reader_status(r);\n",
              n->name, n->name, n->name);
  else
    gc_printf(out,
              "  desert_record_writer rw;\n"
              "  if (cs_%s.plan ? desert_record_write_begin_plan(w, cs_%s.plan, &rw)\n"
              "                 : desert_record_write_begin(w, &cs_%s.record, &rw))\n"
              "    return desert_writer_status(w);\n",
              n->name, n->name, n->name);
  for (size_t i = 0; i < count; i++) {
    unsigned flags;
    const char *flag;
    char *e;
    const desert_type *ft = member(x, n, i, &flags, &flag, &e);
    bool has_default = gc_cstruct_has_default(n, i);
    bool runtime_default = gc_direct_runtime_default(n, i);
    if (dec) {
      line(x, 1, "if (desert_record_read_field(&rr, %zu, &a)) goto end;", i);
      if (flags & DESERT_FIELD_TRANSIENT) {
        /* never read: only its transient default, if not zero */
        if (runtime_default)
          line(x, 1, "if (a != DESERT_FIELD_NONE && gd_d_%s(r, o, %zu)) goto end;", n->name, i);
        else if (has_default)
          line(x, 1, "if (a != DESERT_FIELD_NONE) cs_d_%s(o, %zu);", n->name, i);
        xfree(e);
        continue;
      }
      line(x, 1, "if (a == DESERT_FIELD_READ) {");
      if ((flags & DESERT_FIELD_OPTIONAL) && flag) line(x, 2, "o->%s = true;", flag);
      value(x, n, ft, e, true, 0, 2);
      if (runtime_default) {
        line(x, 1, "} else if (a != DESERT_FIELD_NONE) {");
        line(x, 2, "if (gd_d_%s(r, o, %zu)) goto end;", n->name, i);
      } else if (has_default) {
        line(x, 1, "} else if (a != DESERT_FIELD_NONE) {");
        line(x, 2, "cs_d_%s(o, %zu);", n->name, i);
      }
      line(x, 1, "}");
    } else if (!(flags & DESERT_FIELD_TRANSIENT)) {
      if (flags & DESERT_FIELD_OPTIONAL) {
        line(x, 1, "if (desert_record_write_field_option(&rw, %zu, o->%s)) goto end;", i, flag);
        line(x, 1, "if (o->%s) {", flag);
        value(x, n, ft, e, false, 0, 2);
        line(x, 1, "}");
      } else {
        line(x, 1, "if (desert_record_write_field(&rw, %zu)) goto end;", i);
        value(x, n, ft, e, false, 0, 1);
      }
    }
    xfree(e);
  }
  if (dec && count == 0) line(x, 1, "(void)a;");
  finish(out, &body, dec ? "  return desert_record_read_end(&rr);\n"
                            : "  return desert_record_write_end(&rw);\n");
  if (dec && struct_is_v0(n)) emit_struct_v0(x, out, n, dec);
}

/* Constructor id of case i, fixed by the schema (declaration or sorted order
 * of the non-transient cases, names compared as UTF-8 bytes). */
static uint32_t case_id(const desert_type *t, size_t i) {
  const desert_type_ctor *c = t->u.enumeration.ctors;
  uint32_t id = 0;
  for (size_t j = 0; j < t->u.enumeration.count; j++) {
    if (j == i || c[j].transient) continue;
    bool before = t->u.enumeration.sorted ? strcmp(c[j].name, c[i].name) < 0 : j < i;
    if (before) id++;
  }
  return id;
}

/* The payload of case i at o->member (or none): a record payload through its
 * function, any other type inline; a case without fields is the empty
 * record's single 00 byte (data of a later version, where the case gained
 * fields, read through the record reader as the runtime does). */
static void enum_payload(dx *x, const gc_node *n, size_t i, bool dec, unsigned d) {
  const desert_type_ctor *c = &n->t->u.enumeration.ctors[i];
  if (!gc_enum_case_has_member(c)) {
    depth_check(x, 0, dec, d);
    if (dec) {
      line(x, d, "if (desert_record_read_v0_begin_inline(r)) {");
      line(x, d + 1, "if (desert_record_read_v0_end_inline(r)) goto end;");
      line(x, d, "} else {");
      line(x, d + 1, "desert_record_reader rr;");
      line(x, d + 1, "if (desert_record_read_begin(r, &gc_empty_record, &rr)) goto end;");
      line(x, d + 1, "if (desert_record_read_end(&rr)) goto end;");
      line(x, d, "}");
    } else {
      line(x, d, "if (desert_record_write_v0_begin_inline(w)) goto end;");
      line(x, d, "if (desert_record_write_v0_end_inline(w)) goto end;");
    }
    return;
  }
  char *e = xs(x, "o->%s", n->members[i]);
  value(x, n, c->payload, e, dec, 0, d);
  xfree(e);
}

/* A case the enum function handles itself: a built-in payload (unit
 * included) or, when writing, a transient case. The others (records,
 * holders, cases without fields) go to g?_<T>_rest when both kinds exist,
 * so the function that every value enters stays small: no callee-saved
 * registers to push for a U8 of a list of values. */
static bool leaf_case(const gc_node *n, size_t i, bool dec) {
  const desert_type_ctor *c = &n->t->u.enumeration.ctors[i];
  if (c->transient) return !dec;
  if (!gc_enum_case_has_member(c)) return false;
  const desert_type *p = desert_type_resolve(c->payload);
  return p && gc_builtin_ctype(p->kind) != NULL;
}

/* The size of a built-in payload kind written as a fixed number of bytes
 * (bool and the fixed-width numbers), 0 for any other kind. */
static size_t fixed_width(desert_type_kind k) {
  if (k == DESERT_TYPE_BOOL || k == DESERT_TYPE_U8 || k == DESERT_TYPE_I8) return 1;
  if (k == DESERT_TYPE_U16 || k == DESERT_TYPE_I16) return 2;
  if (k == DESERT_TYPE_U32 || k == DESERT_TYPE_I32 || k == DESERT_TYPE_F32) return 4;
  if (k == DESERT_TYPE_U64 || k == DESERT_TYPE_I64 || k == DESERT_TYPE_F64) return 8;
  return 0;
}

/* The stores of a fixed-width payload kind k (fixed_width(k) > 0) of the
 * value v at the byte pointer p: the bytes of the inline writer calls
 * (big-endian, IEEE bits, bool as 00/01). */
static void fixed_store(dx *x, desert_type_kind k, const char *p, const char *v, unsigned d) {
  size_t width = fixed_width(k);
  if (k == DESERT_TYPE_BOOL)
    line(x, d, "%s[0] = (uint8_t)(%s ? 1u : 0u);", p, v);
  else if (width == 1)
    line(x, d, "%s[0] = (uint8_t)%s;", p, v);
  else if (k == DESERT_TYPE_F32 || k == DESERT_TYPE_F64) {
    const char *bt = width == 4 ? "uint32_t" : "uint64_t";
    line(x, d, "{");
    line(x, d + 1, "%s bits;", bt);
    line(x, d + 1, "memcpy(&bits, &%s, sizeof bits);", v);
    line(x, d + 1, "gc_put%zu(%s, bits);", width * 8, p);
    line(x, d, "}");
  } else
    line(x, d, "gc_put%zu(%s, (uint%zu_t)%s);", width * 8, p, width * 8, v);
}

/* The case of enum n at index i when its value is written as 00, a one-byte
 * id and a fixed-width built-in payload (what fixed_case stores under one
 * room check): the payload's width, else 0. */
static size_t fixed_case_width(const gc_node *n, size_t i) {
  const desert_type_ctor *c = &n->t->u.enumeration.ctors[i];
  if (c->transient || !gc_enum_case_has_member(c)) return 0;
  const desert_type *p = desert_type_resolve(c->payload);
  size_t width = p ? fixed_width(p->kind) : 0;
  return width && case_id(n->t, i) < 0x80u ? width : 0;
}

/* Writing case i of enum n whose payload is fixed-width: id and payload
 * stored under one room check; when there is no room the arm goes on to
 * the ordinary calls emitted after this. The bytes are those of the
 * inline writer calls (big-endian, IEEE bits, bool as 00/01). */
static void fixed_case(dx *x, const gc_node *n, size_t i, unsigned d) {
  const desert_type_ctor *c = &n->t->u.enumeration.ctors[i];
  if (!gc_enum_case_has_member(c)) return;
  const desert_type *p = desert_type_resolve(c->payload);
  size_t width = p ? fixed_width(p->kind) : 0;
  uint32_t id = case_id(n->t, i);
  if (!width || id >= 0x80u) return;
  char *v = xs(x, "o->%s", n->members[i]);
  line(x, d, "{");
  line(x, d + 1, "uint8_t *p = desert_enum_write_id_room_inline(w, %luu, %zu);", (unsigned long)id,
       width);
  line(x, d + 1, "if (p) {");
  fixed_store(x, p->kind, "p", v, d + 2);
  line(x, d + 2, "break;");
  line(x, d + 1, "}");
  line(x, d, "}");
  xfree(v);
}

/* The node of et when et is an enum with direct functions and at least
 * one case fixed_case stores (the element types whose lists go in runs),
 * with the widest such payload in *widest; else NULL. */
static const gc_node *fixed_enum(dx *x, const desert_type *et, size_t *widest) {
  const desert_type *ec = desert_type_resolve(et);
  if (!ec || ec->kind != DESERT_TYPE_ENUM) return NULL;
  const gc_node *n = gc_model_struct_of(x->m, et);
  if (!n || !n->direct) return NULL;
  *widest = 0;
  for (size_t i = 0; i < ec->u.enumeration.count; i++) {
    size_t w = fixed_case_width(n, i);
    if (w > *widest) *widest = w;
  }
  return *widest ? n : NULL;
}

/* Writing the elements of a list or set (the lvalue e: items, count; loop
 * variables numbered k; entered at depth dp + lvl + 1) whose element type et
 * is an enum with cases fixed_case stores under one room check: those
 * elements go in runs, as many as the writer's room holds of the widest such
 * case (desert_writer_room_inline), each stored as fixed_case would (00,
 * the id, the payload); any other case, or no room, takes the
 * ordinary call for one element (which grows the buffer, counts or fails),
 * then the runs go on. The bytes are the same; a Value list of a thousand
 * U8s costs a few stores per element instead of a call each. False when et
 * has no such case (the caller emits the plain loop). */
static bool enum_run(dx *x, const desert_type *et, const char *e, unsigned k, unsigned lvl,
                     unsigned d) {
  size_t widest = 0;
  const gc_node *n = fixed_enum(x, et, &widest);
  if (!n) return false;
  const desert_type *ec = n->t;
  /* the items in a local: the byte stores may alias the holder */
  line(x, d, "const %s *const a%u = %s.items;", n->name, k, e);
  line(x, d, "for (size_t i%u = 0; i%u < %s.count;) {", k, k, e);
  /* the depth check of the ordinary element, made once for the run */
  line(x, d + 1, "if (dp + %uu < GC_MAX_DEPTH) {", lvl + 1);
  line(x, d + 2, "size_t r%u;", k);
  line(x, d + 2, "uint8_t *p%u = desert_writer_room_inline(w, &r%u);", k, k);
  line(x, d + 2, "size_t k%u = %s.count - i%u;", k, e, k);
  line(x, d + 2, "if (k%u > r%u / %zuu) k%u = r%u / %zuu;", k, k, widest + 2, k, k, widest + 2);
  line(x, d + 2, "if (k%u) {", k);
  line(x, d + 3, "uint8_t *q%u = p%u;", k, k);
  line(x, d + 3, "const size_t e%u = i%u + k%u;", k, k, k);
  line(x, d + 3, "for (; i%u < e%u; i%u++) {", k, k, k);
  line(x, d + 4, "const %s *v%u = &a%u[i%u];", n->name, k, k, k);
  line(x, d + 4, "switch ((uint32_t)v%u->tag) {", k);
  for (size_t i = 0; i < ec->u.enumeration.count; i++) {
    size_t w = fixed_case_width(n, i);
    if (!w) continue;
    const desert_type *p = desert_type_resolve(ec->u.enumeration.ctors[i].payload);
    char *q = xs(x, "(q%u + 2)", k);
    char *v = xs(x, "v%u->%s", k, n->members[i]);
    line(x, d + 4, "case %zuu: /* %s */", i, n->members[i]);
    line(x, d + 5, "q%u[0] = 0;", k);
    line(x, d + 5, "q%u[1] = %luu;", k, (unsigned long)case_id(ec, i));
    fixed_store(x, p->kind, q, v, d + 5);
    line(x, d + 5, "q%u += %zu;", k, w + 2);
    line(x, d + 5, "continue;");
    xfree(q);
    xfree(v);
  }
  line(x, d + 4, "default:");
  line(x, d + 5, "break;");
  line(x, d + 4, "}");
  line(x, d + 4, "break; /* a case the run does not store */");
  line(x, d + 3, "}");
  line(x, d + 3, "desert_writer_advance_inline(w, (size_t)(q%u - p%u));", k, k);
  line(x, d + 3, "if (i%u == e%u) continue;", k, k);
  line(x, d + 2, "}");
  line(x, d + 1, "}");
  char *el = xs(x, "%s.items[i%u]", e, k);
  value(x, NULL, et, el, false, lvl + 1, d + 1);
  xfree(el);
  line(x, d + 1, "i%u++;", k);
  line(x, d, "}");
  return true;
}

/* Reading an element of a list or set (it<k>[n<k>], zeroed; entered at
 * depth dp + lvl + 1) whose element type et is an enum with cases
 * fixed_case stores: a value of such a case whose bytes are all there is
 * decoded in place (desert_enum_read_peek_inline: the checks of the inline
 * begin), the element counted and the loop continued; anything else goes
 * on to the ordinary call emitted after this, which reads or reports it
 * exactly as before. Emits nothing when et has no such case. */
static void enum_peek(dx *x, const desert_type *et, unsigned k, unsigned lvl, unsigned d) {
  size_t widest = 0;
  const gc_node *n = fixed_enum(x, et, &widest);
  if (!n) return;
  const desert_type *ec = n->t;
  uint32_t ids = 0;
  for (size_t i = 0; i < ec->u.enumeration.count; i++)
    if (!ec->u.enumeration.ctors[i].transient) ids++;
  line(x, d, "if (dp + %uu < GC_MAX_DEPTH) {", lvl + 1);
  line(x, d + 1, "size_t av%u;", k);
  line(x, d + 1, "const uint8_t *p%u = desert_enum_read_peek_inline(r, %luu, &av%u);", k,
       (unsigned long)ids, k);
  line(x, d + 1, "if (p%u) {", k);
  line(x, d + 2, "%s *v%u = &it%u[n%u];", n->name, k, k, k);
  line(x, d + 2, "switch (p%u[1]) {", k);
  for (size_t i = 0; i < ec->u.enumeration.count; i++) {
    size_t w = fixed_case_width(n, i);
    if (!w) continue;
    desert_type_kind pk = desert_type_resolve(ec->u.enumeration.ctors[i].payload)->kind;
    const char *m = n->members[i];
    line(x, d + 2, "case %luu: /* %s */", (unsigned long)case_id(ec, i), m);
    line(x, d + 3, "if (av%u >= %zuu) {", k, w + 2);
    line(x, d + 4, "v%u->tag = (%s)%zu;", k, n->tag_type, i);
    if (pk == DESERT_TYPE_BOOL)
      line(x, d + 4, "v%u->%s = p%u[2] != 0;", k, m, k);
    else if (pk == DESERT_TYPE_U8)
      line(x, d + 4, "v%u->%s = p%u[2];", k, m, k);
    else if (w == 1)
      line(x, d + 4, "memcpy(&v%u->%s, p%u + 2, 1);", k, m, k);
    else if (pk == DESERT_TYPE_U16 || pk == DESERT_TYPE_U32 || pk == DESERT_TYPE_U64)
      line(x, d + 4, "v%u->%s = gc_get%zu(p%u + 2);", k, m, w * 8, k);
    else {
      /* signed and floating kinds: the bits, as the inline reads convert them */
      line(x, d + 4, "{");
      line(x, d + 5, "uint%zu_t u = gc_get%zu(p%u + 2);", w * 8, w * 8, k);
      line(x, d + 5, "memcpy(&v%u->%s, &u, sizeof u);", k, m);
      line(x, d + 4, "}");
    }
    line(x, d + 4, "desert_enum_read_skip_inline(r, %zuu);", w + 2);
    line(x, d + 4, "n%u++;", k);
    line(x, d + 4, "continue;");
    line(x, d + 3, "}");
    line(x, d + 3, "break;");
  }
  line(x, d + 2, "default:");
  line(x, d + 3, "break;");
  line(x, d + 2, "}");
  line(x, d + 1, "}");
  line(x, d, "}");
}

/* The cases of enum n for which leaf_case(...) == leaf, as switch arms. */
static void enum_arms(dx *x, const gc_node *n, bool dec, bool leaf) {
  const desert_type *t = n->t;
  for (size_t i = 0; i < t->u.enumeration.count; i++) {
    const desert_type_ctor *c = &t->u.enumeration.ctors[i];
    if (leaf_case(n, i, dec) != leaf || (dec && c->transient)) continue;
    if (dec) {
      line(x, 1, "case %luu: /* %s */", (unsigned long)case_id(t, i), n->members[i]);
      line(x, 2, "o->tag = (%s)%zu;", n->tag_type, i);
    } else {
      line(x, 1, "case %zuu: /* %s */", i, n->members[i]);
      if (c->transient) {
        line(x, 2, "return desert_writer_fail(w, DESERT_E_SERIALIZING_TRANSIENT);");
        continue;
      }
      fixed_case(x, n, i, 2);
      line(x, 2, "if (desert_enum_write_id_inline(w, %luu)) goto end;",
           (unsigned long)case_id(t, i));
    }
    enum_payload(x, n, i, dec, 2);
    line(x, 2, "break;");
  }
}

static void emit_enum(dx *x, gc_buf *out, const gc_node *n, bool dec) {
  const desert_type *t = n->t;
  size_t count = t->u.enumeration.count, leaves = 0;
  uint32_t ids = 0;
  for (size_t i = 0; i < count; i++) {
    if (!t->u.enumeration.ctors[i].transient) ids++;
    if (leaf_case(n, i, dec)) leaves++;
  }
  bool split = leaves && leaves < count; /* (decoding: transient cases count as neither) */
  if (dec) {
    size_t others = 0;
    for (size_t i = 0; i < count; i++)
      if (!t->u.enumeration.ctors[i].transient && !leaf_case(n, i, true)) others++;
    split = leaves && others;
  }
  const char *D = dec ? "r" : "w";
  gc_buf body = {0};
  if (split) {
    /* the rest first: its cases, then the value's end */
    gc_printf(out,
              "GC_NOINLINE static desert_status g%s_%s_rest(desert_%s *%s, %s%s *o, unsigned dp%s) {\n"
              "  (void)o;\n  (void)dp;\n",
              D, n->name, dec ? "reader" : "writer", D, dec ? "" : "const ", n->name,
              dec ? ", uint32_t id" : "");
    use_body(x, &body);
    line(x, 1, "switch (%s) {", dec ? "id" : "(uint32_t)o->tag");
    enum_arms(x, n, dec, false);
    line(x, 1, "default:");
    line(x, 2, dec ? "break;" : "return gc_wfail(w);");
    line(x, 1, "}");
    line(x, 1, dec ? "return desert_enum_read_end_id_inline(r);" : "return DESERT_OK;");
    finish(out, &body, dec ? "  return desert_enum_read_end_id(r);\n"
                              : "  return desert_writer_status(w);\n");
    body = (gc_buf){0};
  }
  open_fn(x, out, &body, n, dec);
  if (dec)
    gc_printf(out, "  uint32_t id;\n"
                   "  if (desert_enum_read_begin_id_inline(r, %luu, &id)) return desert_reader_status(r);\n",
              (unsigned long)ids);
  line(x, 1, "switch (%s) {", dec ? "id" : "(uint32_t)o->tag");
  enum_arms(x, n, dec, true);
  if (!split) enum_arms(x, n, dec, false);
  line(x, 1, "default:");
  if (split)
    line(x, 2, dec ? "return gr_%s_rest(r, o, dp, id);" : "return gw_%s_rest(w, o, dp);", n->name);
  else
    line(x, 2, dec ? "break;" : "return gc_wfail(w);");
  line(x, 1, "}");
  /* success leaves through the inline end; an error (end:) through the
   * exported one, which returns the sticky status */
  line(x, 1, dec ? "return desert_enum_read_end_id_inline(r);" : "return DESERT_OK;");
  finish(out, &body, dec ? "  return desert_enum_read_end_id(r);\n"
                            : "  return desert_writer_status(w);\n");
}

/* gw_<H> / gr_<H> of a holder entered at depth dp1 (>= 1): its contents as
 * they are emitted inline, one level below. */
static void emit_holder(dx *x, gc_buf *out, const gc_node *n, bool dec) {
  gc_buf body = {0};
  gc_printf(out,
            "static desert_status g%s_%s(desert_%s *%s, %s%s *o, unsigned dp1) {\n"
            "  const unsigned dp = dp1 - 1u; /* the depth the holder was entered from */\n"
            "  (void)dp;\n",
            dec ? "r" : "w", n->name, dec ? "reader" : "writer", dec ? "r" : "w", dec ? "" : "const ",
            n->name);
  use_body(x, &body);
  if (n->t->kind == DESERT_TYPE_LIST || n->t->kind == DESERT_TYPE_SET ||
      n->t->kind == DESERT_TYPE_MAP)
    list(x, n, "(*o)", dec, 0, 1);
  else
    alternative(x, n, "(*o)", dec, 0, 1);
  finish(out, &body, dec ? "  return desert_reader_status(r);\n"
                            : "  return desert_writer_status(w);\n");
}

/* gpw_<i> / gpr_<i>: public type i at the top level (depth 0), for
 * aliases of built-ins and of holders as much as for the function nodes. */
static void emit_public(dx *x, gc_buf *out, size_t i, const gc_node *n, bool dec) {
  const char *ct = gc_model_ctype(x->m, public_type(n));
  if (n->kind != GC_ALIAS) ct = n->name;
  gc_buf body = {0};
  gc_printf(out, "GC_UNUSED static desert_status gp%s_%zu(desert_%s *%s, %s%s *o) {\n",
            dec ? "r" : "w", i, dec ? "reader" : "writer", dec ? "r" : "w", dec ? "" : "const ", ct);
  use_body(x, &body);
  line(x, 1, "const unsigned dp = 0;");
  line(x, 1, "(void)o;");
  value(x, NULL, public_type(n), "(*o)", dec, 0, 1);
  line(x, 1, "(void)dp;");
  finish(out, &body, dec ? "  return desert_reader_status(r);\n"
                            : "  return desert_writer_status(w);\n");
}

void gc_direct_emit(const gc_model *m, gc_buf *out) {
  gc_printf(out,
            "#if defined(__GNUC__)\n#define GC_NOINLINE __attribute__((noinline))\n#else\n"
            "#define GC_NOINLINE\n#endif\n"
            "/* The runtime codec's default nesting bound (desert_codec_limits.max_depth\n"
            " * 0: 256 composite values), kept by the direct functions' depth argument. */\n"
            "#define GC_MAX_DEPTH 256u\n"
            "/* Records a DESERT_E_ARGUMENT in the writer (unless it holds an error\n"
            " * already), as the runtime path does for a value its C type cannot hold. */\n"
            "GC_UNUSED static desert_status gc_wfail(desert_writer *w) {\n"
            "  return desert_writer_fail(w, DESERT_E_ARGUMENT);\n}\n"
            "/* Nesting deeper than GC_MAX_DEPTH, where the runtime codec reports it. */\n"
            "GC_UNUSED static desert_status gc_wdeep(desert_writer *w) {\n"
            "  return desert_writer_fail(w, DESERT_E_DEPTH);\n}\n"
            "GC_UNUSED static desert_status gc_rdeep(desert_reader *r) {\n"
            "  return desert_reader_fail(r, DESERT_E_DEPTH, desert_reader_offset(r));\n}\n"
            "/* Big-endian stores for the enum cases written under one room check. */\n"
            "GC_UNUSED static void gc_put16(uint8_t *p, uint16_t v) {\n"
            "  p[0] = (uint8_t)(v >> 8);\n  p[1] = (uint8_t)v;\n}\n"
            "GC_UNUSED static void gc_put32(uint8_t *p, uint32_t v) {\n"
            "  gc_put16(p, (uint16_t)(v >> 16));\n  gc_put16(p + 2, (uint16_t)v);\n}\n"
            "GC_UNUSED static void gc_put64(uint8_t *p, uint64_t v) {\n"
            "  gc_put32(p, (uint32_t)(v >> 32));\n  gc_put32(p + 4, (uint32_t)v);\n}\n"
            "/* Big-endian loads for the enum cases of a list read in place. */\n"
            "GC_UNUSED static uint16_t gc_get16(const uint8_t *p) {\n"
            "  return (uint16_t)((unsigned)p[0] << 8 | p[1]);\n}\n"
            "GC_UNUSED static uint32_t gc_get32(const uint8_t *p) {\n"
            "  return (uint32_t)gc_get16(p) << 16 | gc_get16(p + 2);\n}\n"
            "GC_UNUSED static uint64_t gc_get64(const uint8_t *p) {\n"
            "  return (uint64_t)gc_get32(p) << 32 | gc_get32(p + 4);\n}\n"
            "/* BigInt 0 as a block: the writers take at least one byte. */\n"
            "GC_UNUSED static const uint8_t gc_bigint_zero = 0;\n"
            "/* The record of an enum case without fields (the byte 00). */\n"
            "GC_UNUSED static const desert_record_desc gc_empty_record = {NULL, NULL, 0, NULL, 0};\n"
            "/* The default the runtime codec fills into field i of record type rt:\n"
            " * the transient default, else the last FieldAdded step's (NULL: none). */\n"
            "GC_UNUSED static const desert_value *gc_default_of(const desert_type *rt, size_t i) {\n"
            "  const desert_type_field *f = &rt->u.record.fields[i];\n"
            "  if (f->flags & DESERT_FIELD_TRANSIENT) return f->transient_default;\n"
            "  const desert_value *d = NULL;\n"
            "  for (size_t k = 0; k < rt->u.record.step_count; k++) {\n"
            "    const desert_type_step *s = &rt->u.record.steps[k];\n"
            "    if (s->kind == DESERT_STEP_FIELD_ADDED && strcmp(s->field, f->name) == 0)\n"
            "      d = s->default_value;\n"
            "  }\n  return d;\n}\n\n");
  for (size_t i = 0; i < m->count; i++)
    if (gc_direct_needs_runtime_defaults(m->nodes[i]))
      gc_printf(out, "static desert_status gd_d_%s(desert_reader *r, %s *out, size_t index);\n",
                m->nodes[i]->name, m->nodes[i]->name);
  for (size_t i = 0; i < m->count; i++) {
    const gc_node *n = m->nodes[i];
    if (!n->direct) continue;
    gc_printf(out,
              "GC_UNUSED static desert_status gw_%s(desert_writer *w, const %s *o, unsigned dp);\n",
              n->name, n->name);
    gc_printf(out, "GC_UNUSED static desert_status gr_%s(desert_reader *r, %s *o, unsigned dp);\n",
              n->name, n->name);
  }
  gc_printf(out, "\n");
  dx x = {m, NULL, 0};
  for (size_t i = 0; i < m->count; i++) {
    const gc_node *n = m->nodes[i];
    if (!n->direct) continue;
    gc_printf(out, "/* %s (%s) */\n", n->name, n->path);
    for (int dec = 0; dec < 2; dec++) {
      if (is_enum(n))
        emit_enum(&x, out, n, dec);
      else if (is_holder(n))
        emit_holder(&x, out, n, dec);
      else
        emit_struct(&x, out, n, dec);
    }
  }
  for (size_t i = 0; i < m->npublic; i++) {
    const gc_node *n = m->publics[i];
    if (!gc_direct_public(m, n)) continue;
    gc_printf(out, "/* public type %zu: %s */\n", i, n->name);
    for (int dec = 0; dec < 2; dec++) emit_public(&x, out, i, n, dec);
  }
}
