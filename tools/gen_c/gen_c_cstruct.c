/* tools/gen_c/gen_c_cstruct.c — the fast path of generated code: static
 * C-struct descriptors (desert_cstruct, include/desert/types.h) for the
 * records, tuples and enums whose whole reachable graph the generic C-struct
 * codec can run with the generated C layout. Not representable (those types
 * keep the value-tree path): collection and byte-block constraints
 * (non_empty, length), compressed blocks with their own flavour or level,
 * char16 (stored as a code point here, a 16-bit unit there), optional
 * fields whose value is itself an option/either/try, enum cases whose
 * payload is not a record, pointers to non-records, and defaults that are
 * not all-zero (transient fields, FieldAdded fields of older data: the
 * codec leaves them zeroed). Decided by a fixpoint over the model: a type is
 * representable when everything it holds is, assuming so for recursion.
 * The record and tuple descriptors are writable tables: P_init (once,
 * under its guard) builds the prepared plan of each into static storage
 * sized by DESERT_RECORD_PLAN_BYTES (no allocation, nothing to free) and
 * sets its `plan`, which the codec and the direct functions
 * (gen_c_direct.c) then use; enum descriptors stay static const.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_c_emit.h"

/* ---- what the C-struct codec can run --------------------------------------------- */

/* The desert_ctype name of a built-in kind with no per-type parameters. */
static const char *builtin_ctype(const desert_type *t) {
  switch (t->kind) {
  case DESERT_TYPE_BOOL: return "DESERT_C_BOOL";
  case DESERT_TYPE_I8: return "DESERT_C_I8";
  case DESERT_TYPE_I16: return "DESERT_C_I16";
  case DESERT_TYPE_I32: return "DESERT_C_I32";
  case DESERT_TYPE_I64: return "DESERT_C_I64";
  case DESERT_TYPE_U8: return "DESERT_C_U8";
  case DESERT_TYPE_U16: return "DESERT_C_U16";
  case DESERT_TYPE_U32: return "DESERT_C_U32";
  case DESERT_TYPE_U64: return "DESERT_C_U64";
  case DESERT_TYPE_F32: return "DESERT_C_F32";
  case DESERT_TYPE_F64: return "DESERT_C_F64";
  case DESERT_TYPE_UNIT: return "DESERT_C_UNIT";
  case DESERT_TYPE_CHAR: return "DESERT_C_CHAR";
  case DESERT_TYPE_STRING: return "DESERT_C_STRING";
  case DESERT_TYPE_DEDUP_STRING: return "DESERT_C_DEDUP_STRING";
  case DESERT_TYPE_VAR_U32: return "DESERT_C_VAR_U32";
  case DESERT_TYPE_VAR_I32: return "DESERT_C_VAR_I32";
  case DESERT_TYPE_BYTES:
    return t->u.bytes.non_empty || t->u.bytes.has_length ? NULL : "DESERT_C_BYTES";
  case DESERT_TYPE_UUID: return "DESERT_C_UUID";
  case DESERT_TYPE_DURATION: return "DESERT_C_DURATION";
  case DESERT_TYPE_INSTANT: return "DESERT_C_INSTANT";
  case DESERT_TYPE_BIGINT: return "DESERT_C_BIGINT";
  case DESERT_TYPE_BIGDECIMAL: return "DESERT_C_BIGDECIMAL";
  case DESERT_TYPE_BIGDECIMAL_BINARY: return "DESERT_C_BIGDECIMAL_BINARY";
  case DESERT_TYPE_COMPRESSED:
    return t->u.compressed.flavour < 0 && t->u.compressed.level < 0 ? "DESERT_C_COMPRESSED" : NULL;
  case DESERT_TYPE_DAY_OF_WEEK: return "DESERT_C_DAY_OF_WEEK";
  case DESERT_TYPE_MONTH: return "DESERT_C_MONTH";
  case DESERT_TYPE_YEAR: return "DESERT_C_YEAR";
  case DESERT_TYPE_MONTH_DAY: return "DESERT_C_MONTH_DAY";
  case DESERT_TYPE_YEAR_MONTH: return "DESERT_C_YEAR_MONTH";
  case DESERT_TYPE_PERIOD: return "DESERT_C_PERIOD";
  case DESERT_TYPE_ZONE_OFFSET: return "DESERT_C_ZONE_OFFSET";
  case DESERT_TYPE_ZONE_ID: return "DESERT_C_ZONE_ID";
  case DESERT_TYPE_LOCAL_DATE: return "DESERT_C_LOCAL_DATE";
  case DESERT_TYPE_LOCAL_TIME: return "DESERT_C_LOCAL_TIME";
  case DESERT_TYPE_LOCAL_DATE_TIME: return "DESERT_C_LOCAL_DATE_TIME";
  case DESERT_TYPE_OFFSET_TIME: return "DESERT_C_OFFSET_TIME";
  case DESERT_TYPE_OFFSET_DATE_TIME: return "DESERT_C_OFFSET_DATE_TIME";
  case DESERT_TYPE_ZONED_DATE_TIME: return "DESERT_C_ZONED_DATE_TIME";
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: return "DESERT_C_RUST_DATETIME_FIXED_OFFSET";
  case DESERT_TYPE_RUST_DATETIME_TZ: return "DESERT_C_RUST_DATETIME_TZ";
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_CHAR16: case DESERT_TYPE_KIND_COUNT_:
    break; /* char16 and the composites */
  }
  return NULL;
}

/* A default the codec's zeroed storage already equals. */
static bool zero_value(const desert_value *v) {
  if (!v) return true;
  switch (v->kind) {
  case DESERT_VALUE_NULL: return true;
  case DESERT_VALUE_BOOL: return !v->as.b;
  case DESERT_VALUE_INT: return v->as.i == 0;
  case DESERT_VALUE_UINT: return v->as.u == 0;
  case DESERT_VALUE_FLOAT: return v->as.bits == 0;
  case DESERT_VALUE_CHAR: return v->as.cp == 0;
  case DESERT_VALUE_STRING:
  case DESERT_VALUE_BYTES: return v->as.str.len == 0;
  case DESERT_VALUE_SEQ:
    for (size_t i = 0; i < v->as.seq.count; i++)
      if (!zero_value(&v->as.seq.items[i])) return false;
    return true;
  case DESERT_VALUE_BIGINT:
  case DESERT_VALUE_SOME:
  case DESERT_VALUE_ALT: /* taken as non-zero (ALT index 0 with a zero child would do; rare) */
    break;
  }
  return false;
}

static bool value_ok(const gc_model *m, const gc_node *owner, const desert_type *t);
static bool holder_ok(const gc_model *m, gc_node *s, const desert_type *st);

/* The default a reader fills into field f when the data does not hold it
 * (transient fields; FieldAdded fields of older data), NULL when none;
 * *several: more than one FieldAdded step with a default names the field. */
static const desert_value *field_default(const desert_type *rec, const desert_type_field *f,
                                         bool *several) {
  *several = false;
  if (f->flags & DESERT_FIELD_TRANSIENT) return f->transient_default;
  const desert_value *d = NULL;
  for (size_t k = 0; k < rec->u.record.step_count; k++) {
    const desert_type_step *st = &rec->u.record.steps[k];
    if (st->kind != DESERT_STEP_FIELD_ADDED || !st->default_value || strcmp(st->field, f->name))
      continue;
    if (d) *several = true;
    d = st->default_value;
  }
  return d;
}

/* Built-in kinds whose default the generated callback can assign as a
 * constant (numbers, text and byte views into static literals). */
static bool constant_kind(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_BOOL: case DESERT_TYPE_I8: case DESERT_TYPE_I16: case DESERT_TYPE_I32:
  case DESERT_TYPE_I64: case DESERT_TYPE_U8: case DESERT_TYPE_U16: case DESERT_TYPE_U32:
  case DESERT_TYPE_U64: case DESERT_TYPE_F32: case DESERT_TYPE_F64: case DESERT_TYPE_UNIT:
  case DESERT_TYPE_CHAR: case DESERT_TYPE_STRING: case DESERT_TYPE_DEDUP_STRING:
  case DESERT_TYPE_VAR_U32: case DESERT_TYPE_VAR_I32: case DESERT_TYPE_BYTES:
  case DESERT_TYPE_BIGINT: case DESERT_TYPE_BIGDECIMAL: case DESERT_TYPE_DAY_OF_WEEK:
  case DESERT_TYPE_MONTH: case DESERT_TYPE_YEAR: case DESERT_TYPE_ZONE_OFFSET:
    return true;
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_CHAR16: case DESERT_TYPE_UUID:
  case DESERT_TYPE_DURATION: case DESERT_TYPE_INSTANT: case DESERT_TYPE_BIGDECIMAL_BINARY:
  case DESERT_TYPE_COMPRESSED: case DESERT_TYPE_MONTH_DAY: case DESERT_TYPE_YEAR_MONTH:
  case DESERT_TYPE_PERIOD: case DESERT_TYPE_ZONE_ID: case DESERT_TYPE_LOCAL_DATE:
  case DESERT_TYPE_LOCAL_TIME: case DESERT_TYPE_LOCAL_DATE_TIME: case DESERT_TYPE_OFFSET_TIME:
  case DESERT_TYPE_OFFSET_DATE_TIME: case DESERT_TYPE_ZONED_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: case DESERT_TYPE_RUST_DATETIME_TZ:
  case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return false;
}

/* A field's default is one the codec's zeroed storage already equals, or a
 * constant of a built-in type (for an optional field: None or Some of one). */
static bool defaults_ok(const desert_type *rec, const desert_type_field *f) {
  bool several;
  const desert_value *d = field_default(rec, f, &several);
  if (several) return false;
  if (zero_value(d)) return true;
  const desert_type *ft = gc_skip_transparent(f->type);
  if (f->flags & DESERT_FIELD_OPTIONAL) {
    if (d->kind != DESERT_VALUE_SOME || !d->as.child) return false;
    d = d->as.child;
  }
  return constant_kind(ft->kind) && d->kind != DESERT_VALUE_SOME && d->kind != DESERT_VALUE_SEQ &&
         (d->kind != DESERT_VALUE_STRING && d->kind != DESERT_VALUE_BYTES &&
                  d->kind != DESERT_VALUE_BIGINT
              ? true
              : d->as.str.len < 1500);
}

bool gc_cstruct_defaults_ok(const desert_type *rec, const desert_type_field *f) {
  return defaults_ok(rec, f);
}

/* A struct node's own verdict (records, tuples, enums carry it in `mark`
 * during the fixpoint: 0 = representable so far, 1 = not). */
static bool node_ok(const gc_model *m, const gc_node *n) {
  const desert_type *t = n->t;
  if (n->kind == GC_ENTRY) return value_ok(m, n, t->u.coll.element) && value_ok(m, n, t->u.coll.value);
  switch (t->kind) {
  case DESERT_TYPE_RECORD:
    for (size_t i = 0; i < t->u.record.field_count; i++) {
      const desert_type_field *f = &t->u.record.fields[i];
      const desert_type *ft = gc_skip_transparent(f->type);
      if (!defaults_ok(t, f)) return false;
      if (f->flags & DESERT_FIELD_OPTIONAL) {
        gc_node *s = gc_model_is_pointer(m, n, ft) ? NULL : gc_model_struct_of(m, ft);
        if (s && s->kind == GC_STRUCT &&
            (s->t->kind == DESERT_TYPE_OPTION || s->t->kind == DESERT_TYPE_EITHER ||
             s->t->kind == DESERT_TYPE_TRY))
          return false; /* they use the flag slot themselves */
      }
      if (!value_ok(m, n, f->type)) return false;
    }
    return true;
  case DESERT_TYPE_TUPLE:
    if (t->u.tuple.count > 22) return false;
    for (size_t i = 0; i < t->u.tuple.count; i++)
      if (!value_ok(m, n, t->u.tuple.elements[i])) return false;
    return true;
  case DESERT_TYPE_ENUM:
    for (size_t i = 0; i < t->u.enumeration.count; i++) {
      const desert_type_ctor *c = &t->u.enumeration.ctors[i];
      if (!gc_enum_case_has_member(c)) continue;
      if (gc_model_is_pointer(m, n, c->payload)) return false;
      gc_node *s = gc_model_struct_of(m, c->payload);
      if (!s || s->kind != GC_STRUCT || s->t->kind != DESERT_TYPE_RECORD || s->mark) return false;
    }
    return true;
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_LIST: case DESERT_TYPE_SET: case DESERT_TYPE_MAP:
  case DESERT_TYPE_OPTION: case DESERT_TYPE_EITHER: case DESERT_TYPE_TRY:
  case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF: case DESERT_TYPE_KIND_COUNT_:
    break; /* an embedded list, option, either, try */
  }
  return value_ok(m, n, t);
}

static bool value_ok(const gc_model *m, const gc_node *owner, const desert_type *t) {
  t = gc_skip_transparent(t);
  if (gc_builtin_ctype(t->kind)) return builtin_ctype(t) != NULL;
  gc_node *s = gc_model_struct_of(m, t);
  if (!s) return false;
  if (owner && gc_model_is_pointer(m, owner, t))
    return s->kind == GC_STRUCT && s->t->kind == DESERT_TYPE_RECORD && !s->mark;
  const desert_type *st = s->t;
  if (st->kind == DESERT_TYPE_RECORD || st->kind == DESERT_TYPE_TUPLE ||
      st->kind == DESERT_TYPE_ENUM)
    return !s->mark;
  /* A list, set, option, either or try: decided by what it holds. Their
   * descriptors are inlined into their owner's, so one that holds itself
   * again (a definition that is a list of options of itself) cannot be
   * written as static tables: not representable. */
  if (s->on_stack) return false;
  s->on_stack = true;
  bool ok = holder_ok(m, s, st);
  s->on_stack = false;
  return ok;
}

static bool holder_ok(const gc_model *m, gc_node *s, const desert_type *st) {
  switch (st->kind) {
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP:
    if (st->u.coll.non_empty || st->u.coll.has_length) return false;
    if (st->kind == DESERT_TYPE_MAP) return !s->entry->mark;
    return value_ok(m, NULL, st->u.coll.element);
  case DESERT_TYPE_OPTION:
    return value_ok(m, s, st->u.inner);
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY:
    return value_ok(m, s, st->u.alt.left) && value_ok(m, s, st->u.alt.right);
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TUPLE: case DESERT_TYPE_RECORD:
  case DESERT_TYPE_ENUM: case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return false;
}

static bool is_desc_node(const gc_node *n) {
  return n->kind == GC_ENTRY ||
         (n->kind == GC_STRUCT &&
          (n->t->kind == DESERT_TYPE_RECORD || n->t->kind == DESERT_TYPE_TUPLE ||
           n->t->kind == DESERT_TYPE_ENUM));
}

void gc_cstruct_analyse(const gc_model *m) {
  for (size_t i = 0; i < m->count; i++) m->nodes[i]->mark = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < m->count; i++) {
      gc_node *n = m->nodes[i];
      if (is_desc_node(n) && !n->mark && !node_ok(m, n)) {
        n->mark = 1;
        changed = true;
      }
    }
  }
}

bool gc_cstruct_has(const gc_model *m, const gc_node *n) {
  (void)m;
  return is_desc_node(n) && !n->mark && n->kind == GC_STRUCT &&
         n->t->kind != DESERT_TYPE_ENUM;
}

/* ---- emission ------------------------------------------------------------------------ */

typedef struct cs {
  const gc_model *m;
  gc_buf *pre; /* sub-field arrays, emitted before the descriptor that uses them */
  unsigned subs;
} cs;

static void cfield(cs *c, gc_buf *b, const char *base, const char *path, const desert_type *t,
                   const gc_node *owner, const char *flag);

static void off(gc_buf *b, const char *base, const char *path) {
  if (path)
    gc_printf(b, "offsetof(%s, %s)", base, path);
  else
    gc_printf(b, "0");
}

/* path.member (gc_fmt: free with gc_fmt_free; b failed when it cannot). */
static char *join_path(gc_buf *b, const char *path, const char *member) {
  return gc_fmt(b, "%s%s%s", path ? path : "", path ? "." : "", member);
}

/* Writes a sub-field array of `count` fields and returns its number. */
static unsigned sub_array(cs *c, const char *base, const char *const *paths,
                          const desert_type *const *types, size_t count, const gc_node *owner) {
  unsigned id = c->subs++;
  gc_buf body = {0};
  for (size_t i = 0; i < count; i++) {
    gc_printf(&body, "    ");
    cfield(c, &body, base, paths[i], types[i], owner, NULL);
    gc_printf(&body, ",\n");
  }
  gc_printf(c->pre, "static const desert_cfield cs_sub%u[] = {\n", id);
  gc_append(c->pre, &body);
  gc_printf(c->pre, "};\n");
  gc_buf_free(&body);
  return id;
}

static void cfield_of(cs *c, gc_buf *b, const char *base, const char *path, const desert_type *t,
                      const gc_node *owner, const char *pres);

static void cfield(cs *c, gc_buf *b, const char *base, const char *path, const desert_type *t,
                   const gc_node *owner, const char *flag) {
  char *pres = flag ? gc_fmt(b, "offsetof(%s, %s)", base, flag) : NULL;
  cfield_of(c, b, base, path, gc_skip_transparent(t), owner, pres ? pres : "DESERT_CFIELD_NO_FLAG");
  gc_fmt_free(pres);
}

/* The entry of cfield with its presence flag as C text (pres). */
static void cfield_of(cs *c, gc_buf *b, const char *base, const char *path, const desert_type *t,
                      const gc_node *owner, const char *pres) {
  const gc_model *m = c->m;
  if (gc_builtin_ctype(t->kind)) {
    gc_printf(b, "{%s, ", builtin_ctype(t));
    off(b, base, path);
    gc_printf(b, ", %s, (desert_ctype)0, NULL, false, NULL, 0, NULL}", pres);
    return;
  }
  gc_node *s = gc_model_struct_of(m, t);
  if (owner && gc_model_is_pointer(m, owner, t)) {
    gc_printf(b, "{DESERT_C_PTR, ");
    off(b, base, path);
    gc_printf(b, ", %s, (desert_ctype)0, &cs_%s, false, NULL, 0, NULL}", pres, s->name);
    return;
  }
  const desert_type *st = s->t;
  switch (st->kind) {
  case DESERT_TYPE_RECORD:
  case DESERT_TYPE_TUPLE:
    gc_printf(b, "{DESERT_C_RECORD, ");
    off(b, base, path);
    gc_printf(b, ", %s, (desert_ctype)0, &cs_%s, false, NULL, 0, NULL}", pres, s->name);
    return;
  case DESERT_TYPE_ENUM:
    gc_printf(b, "{DESERT_C_ENUM, ");
    off(b, base, path);
    gc_printf(b, ", %s, (desert_ctype)0, NULL, false, NULL, 0, &cs_%s}", pres, s->name);
    return;
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP: {
    const char *form = st->u.coll.unknown_form ? "true" : "false";
    gc_printf(b, "{DESERT_C_LIST, ");
    off(b, base, path);
    if (st->kind == DESERT_TYPE_MAP) {
      gc_printf(b, ", %s, DESERT_C_RECORD, &cs_%s, %s, NULL, 0, NULL}", pres, s->entry->name,
                form);
      return;
    }
    const desert_type *et = gc_skip_transparent(st->u.coll.element);
    gc_node *es = gc_builtin_ctype(et->kind) ? NULL : gc_model_struct_of(m, et);
    /* (a unit element is a uint8_t slot here, no storage for the codec's
     * element form: it goes through the general element descriptor) */
    if (!es && et->kind != DESERT_TYPE_UNIT) {
      gc_printf(b, ", %s, %s, NULL, %s, NULL, 0, NULL}", pres, builtin_ctype(et), form);
    } else if (es && (es->t->kind == DESERT_TYPE_RECORD || es->t->kind == DESERT_TYPE_TUPLE)) {
      gc_printf(b, ", %s, DESERT_C_RECORD, &cs_%s, %s, NULL, 0, NULL}", pres, es->name, form);
    } else {
      const char *ct = gc_model_ctype(m, et);
      const char *paths[1] = {NULL};
      const desert_type *types[1] = {et};
      unsigned id = sub_array(c, ct, paths, types, 1, NULL);
      gc_printf(b, ", %s, (desert_ctype)0, NULL, %s, cs_sub%u, sizeof(%s), NULL}", pres, form, id,
                ct);
    }
    return;
  }
  case DESERT_TYPE_OPTION: {
    char *fp = join_path(b, path, "has_value"), *vp = join_path(b, path, "value");
    const char *paths[1] = {vp};
    const desert_type *types[1] = {st->u.inner};
    unsigned id = sub_array(c, base, paths, types, 1, s);
    gc_printf(b, "{DESERT_C_OPTION, 0, offsetof(%s, %s), (desert_ctype)0, NULL, false, cs_sub%u, 0, "
                 "NULL}",
              base, fp, id);
    gc_fmt_free(fp);
    gc_fmt_free(vp);
    return;
  }
  DESERT_TYPE_CASES(BUILTIN) /* holders only: a leaf never gets here */
  case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF: case DESERT_TYPE_KIND_COUNT_:
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY: {
    bool e = st->kind == DESERT_TYPE_EITHER;
    char *fp = join_path(b, path, e ? "is_right" : "is_success");
    char *lp = join_path(b, path, e ? "left" : "failure");
    char *rp = join_path(b, path, e ? "right" : "success");
    const char *paths[2] = {lp, rp};
    const desert_type *types[2] = {st->u.alt.left, st->u.alt.right};
    unsigned id = sub_array(c, base, paths, types, 2, s);
    gc_printf(b, "{%s, 0, offsetof(%s, %s), (desert_ctype)0, NULL, false, cs_sub%u, 0, NULL}",
              e ? "DESERT_C_EITHER" : "DESERT_C_TRY", base, fp, id);
    gc_fmt_free(fp);
    gc_fmt_free(lp);
    gc_fmt_free(rp);
    return;
  }
  }
}

static void c_name(gc_buf *b, const char *name) {
  if (!name) {
    gc_printf(b, "NULL");
    return;
  }
  gc_c_string(b, name, strlen(name), "");
}

static const char *step_kind(desert_step_kind k) {
  switch (k) {
  case DESERT_STEP_FIELD_ADDED: return "DESERT_STEP_FIELD_ADDED";
  case DESERT_STEP_FIELD_MADE_OPTIONAL: return "DESERT_STEP_FIELD_MADE_OPTIONAL";
  case DESERT_STEP_FIELD_REMOVED: return "DESERT_STEP_FIELD_REMOVED";
  case DESERT_STEP_FIELD_MADE_TRANSIENT: break;
  }
  return "DESERT_STEP_FIELD_MADE_TRANSIENT";
}

/* Assigns the constant v to the lvalue `e` of built-in kind k. */
static void assign_constant(gc_buf *b, const char *e, desert_type_kind k, const desert_value *v) {
  switch (v->kind) {
  case DESERT_VALUE_BOOL:
    gc_printf(b, "      %s = %s;\n", e, v->as.b ? "true" : "false");
    break;
  case DESERT_VALUE_INT:
    if (v->as.i == INT64_MIN)
      gc_printf(b, "      %s = (%s)(-INT64_C(9223372036854775807) - 1);\n", e, gc_builtin_ctype(k));
    else
      gc_printf(b, "      %s = (%s)INT64_C(%lld);\n", e, gc_builtin_ctype(k), (long long)v->as.i);
    break;
  case DESERT_VALUE_UINT:
    gc_printf(b, "      %s = (%s)UINT64_C(%llu);\n", e, gc_builtin_ctype(k),
              (unsigned long long)v->as.u);
    break;
  case DESERT_VALUE_CHAR:
    gc_printf(b, "      %s = %luu;\n", e, (unsigned long)v->as.cp);
    break;
  case DESERT_VALUE_FLOAT:
    gc_printf(b, "      {\n        %s bits = %s(%llu);\n        memcpy(&%s, &bits, sizeof bits);\n      }\n",
              k == DESERT_TYPE_F32 ? "uint32_t" : "uint64_t", k == DESERT_TYPE_F32 ? "UINT32_C" : "UINT64_C",
              (unsigned long long)v->as.bits, e);
    break;
  case DESERT_VALUE_STRING:
  case DESERT_VALUE_BYTES:
  case DESERT_VALUE_BIGINT:
    gc_printf(b, "      %s.ptr = (%s)", e, v->kind == DESERT_VALUE_STRING ? "const char *" : "const uint8_t *");
    gc_c_string(b, v->as.str.ptr, v->as.str.len, "");
    gc_printf(b, ";\n      %s.len = %zu;\n", e, v->as.str.len);
    break;
  case DESERT_VALUE_NULL: /* unit */
    break;
  case DESERT_VALUE_SEQ: /* not a constant of a built-in kind */
  case DESERT_VALUE_SOME:
  case DESERT_VALUE_ALT:
    break;
  }
}

bool gc_cstruct_has_default(const gc_node *n, size_t index) {
  const desert_type *t = n->t;
  if (n->kind != GC_STRUCT || t->kind != DESERT_TYPE_RECORD) return false;
  for (size_t i = 0; i < t->u.record.field_count; i++) {
    bool several;
    if ((index == SIZE_MAX || index == i) &&
        !zero_value(field_default(t, &t->u.record.fields[i], &several)))
      return true;
  }
  return false;
}

/* The `defaults` callback of a record whose fields have non-zero defaults;
 * returns whether one was written (cs_d_<name>). */
static bool emit_defaults(gc_buf *b, const gc_node *n) {
  const desert_type *t = n->t;
  bool any = false;
  for (size_t i = 0; i < t->u.record.field_count; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    bool several;
    const desert_value *d = field_default(t, f, &several);
    if (zero_value(d) || !defaults_ok(t, f)) continue; /* the latter: gd_d_<T> (direct) */
    if (!any)
      gc_printf(b, "static void cs_d_%s(void *obj, size_t index) {\n  %s *o = (%s *)obj;\n"
                   "  switch (index) {\n",
                n->name, n->name, n->name);
    any = true;
    gc_printf(b, "    case %zu:\n", i);
    if (f->flags & DESERT_FIELD_OPTIONAL) {
      gc_printf(b, "      o->%s = true;\n", n->flags[i]);
      d = d->as.child;
    }
    char *e = gc_fmt(b, "o->%s", n->members[i]);
    assign_constant(b, e, gc_skip_transparent(f->type)->kind, d);
    gc_fmt_free(e);
    gc_printf(b, "      break;\n");
  }
  if (any) gc_printf(b, "    default:\n      break;\n  }\n}\n");
  return any;
}

/* cfields: the field table of the C-struct codec too (else NULL: a node
 * only the direct functions run). */
static void emit_record(cs *c, gc_buf *b, const gc_node *n, bool cfields) {
  const desert_type *t = n->t;
  size_t nf = t->u.record.field_count, ns = t->u.record.step_count;
  bool defaults = emit_defaults(b, n);
  if (nf) {
    gc_printf(b, "static const desert_field_desc cs_f_%s[] = {\n", n->name);
    for (size_t i = 0; i < nf; i++) {
      const desert_type_field *f = &t->u.record.fields[i];
      gc_printf(b, "    {");
      c_name(b, f->name);
      gc_printf(b, ", %s%s%s},\n", f->flags & DESERT_FIELD_OPTIONAL ? "DESERT_FIELD_OPTIONAL" : "",
                (f->flags & DESERT_FIELD_OPTIONAL) && (f->flags & DESERT_FIELD_TRANSIENT) ? " | "
                                                                                          : "",
                f->flags & DESERT_FIELD_TRANSIENT ? "DESERT_FIELD_TRANSIENT"
                : f->flags & DESERT_FIELD_OPTIONAL ? ""
                                                   : "0");
    }
    gc_printf(b, "};\n");
    if (cfields) {
      gc_printf(b, "static const desert_cfield cs_c_%s[] = {\n", n->name);
      for (size_t i = 0; i < nf; i++) {
        gc_printf(b, "    ");
        cfield(c, b, n->name, n->members[i], t->u.record.fields[i].type, n, n->flags[i]);
        gc_printf(b, ",\n");
      }
      gc_printf(b, "};\n");
    }
  }
  if (ns) {
    gc_printf(b, "static const desert_evolution_step cs_s_%s[] = {\n", n->name);
    for (size_t i = 0; i < ns; i++) {
      const desert_type_step *s = &t->u.record.steps[i];
      gc_printf(b, "    {%s, ", step_kind(s->kind));
      c_name(b, s->field);
      gc_printf(b, ", %s},\n", s->default_value ? "true" : "false");
    }
    gc_printf(b, "};\n");
  }
  gc_printf(b, "static void *cs_pm_%s[DESERT_RECORD_PLAN_BYTES(%zu, %zu) / sizeof(void *)];\n",
            n->name, nf, ns);
  gc_printf(b, "static desert_cstruct cs_%s = {{", n->name);
  c_name(b, t->name);
  /* plan NULL until gc_prepare_plans (see the top of this file). */
  gc_printf(b, ", %s%s, %zu, %s%s, %zu}, %s%s, sizeof(%s), %s%s, NULL};\n", nf ? "cs_f_" : "NULL",
            nf ? n->name : "", nf, ns ? "cs_s_" : "NULL", ns ? n->name : "", ns,
            nf && cfields ? "cs_c_" : "NULL", nf && cfields ? n->name : "", n->name,
            defaults ? "cs_d_" : "NULL",
            defaults ? n->name : "");
}

static void emit_tuple(cs *c, gc_buf *b, const gc_node *n, bool cfields) {
  const desert_type *t = n->t;
  bool entry = n->kind == GC_ENTRY;
  size_t count = entry ? 2 : t->u.tuple.count;
  if (cfields) {
    gc_printf(b, "static const desert_cfield cs_c_%s[] = {\n", n->name);
    for (size_t i = 0; i < count; i++) {
      const desert_type *et =
          entry ? (i ? t->u.coll.value : t->u.coll.element) : t->u.tuple.elements[i];
      gc_printf(b, "    ");
      cfield(c, b, n->name, entry ? (i ? "value" : "key") : n->members[i], et, n, NULL);
      gc_printf(b, ",\n");
    }
    gc_printf(b, "};\n");
  }
  gc_printf(b, "static void *cs_pm_%s[DESERT_RECORD_PLAN_BYTES(%zu, 0) / sizeof(void *)];\n",
            n->name, count);
  gc_printf(b, "static desert_cstruct cs_%s = {{\"Tuple\", desert_ctuple_fields, %zu, "
               "NULL, 0}, %s%s, sizeof(%s), NULL, NULL};\n",
            n->name, count, cfields ? "cs_c_" : "NULL", cfields ? n->name : "", n->name);
}

static void emit_enum(cs *c, gc_buf *b, const gc_node *n) {
  (void)c;
  const desert_type *t = n->t;
  gc_printf(b, "static const desert_case_desc cs_n_%s[] = {\n", n->name);
  for (size_t i = 0; i < t->u.enumeration.count; i++) {
    gc_printf(b, "    {");
    c_name(b, t->u.enumeration.ctors[i].name);
    gc_printf(b, ", %s},\n", t->u.enumeration.ctors[i].transient ? "DESERT_CASE_TRANSIENT" : "0");
  }
  gc_printf(b, "};\nstatic const desert_ccase cs_k_%s[] = {\n", n->name);
  for (size_t i = 0; i < t->u.enumeration.count; i++) {
    const desert_type_ctor *k = &t->u.enumeration.ctors[i];
    if (gc_enum_case_has_member(k))
      gc_printf(b, "    {&cs_%s, offsetof(%s, %s)},\n", gc_model_struct_of(c->m, k->payload)->name,
                n->name, n->members[i]);
    else
      gc_printf(b, "    {NULL, 0},\n");
  }
  /* The codec reads and writes the tag as 4 bytes (a C enum is an int
   * unless the compiler is told to pack enums, e.g. -fshort-enums). */
  gc_printf(b, "};\n_Static_assert(sizeof(%s) == 4, \"%s: the C-struct codec needs a 4-byte tag\");\n",
            n->tag_type, n->tag_type);
  gc_printf(b, "static const desert_cenum cs_%s = {{", n->name);
  c_name(b, t->name);
  gc_printf(b, ", cs_n_%s, %zu, %s}, cs_k_%s, offsetof(%s, tag), sizeof(%s)};\n", n->name,
            t->u.enumeration.count, t->u.enumeration.sorted ? "true" : "false", n->name, n->name,
            n->name);
}

/* Nodes with a descriptor: those the C-struct codec runs, and the records,
 * tuples and entries only the direct functions run (their record
 * description, plan and defaults, without field tables). */
static bool has_desc(const gc_node *n) {
  if (!is_desc_node(n)) return false;
  if (!n->mark) return true;
  return n->direct && !(n->kind == GC_STRUCT && n->t->kind == DESERT_TYPE_ENUM);
}

void gc_cstruct_emit(const gc_model *m, gc_buf *out) {
  gc_buf pre = {0}, body = {0};
  cs c = {m, &pre, 0};
  bool any = false;
  for (size_t i = 0; i < m->count; i++) {
    const gc_node *n = m->nodes[i];
    if (!has_desc(n)) continue;
    any = true;
    /* Declarations first: descriptors refer to each other in any order. */
    gc_printf(out, "GC_UNUSED static %s cs_%s;\n",
              n->kind == GC_STRUCT && n->t->kind == DESERT_TYPE_ENUM ? "const desert_cenum"
                                                                      : "desert_cstruct",
              n->name);
  }
  /* gc_plans_ok: every record plan was built; the public types' direct
   * functions run only then (a description the plan builder refuses keeps
   * its users on the runtime path, which reports it). */
  gc_printf(out, "GC_UNUSED static bool gc_plans_ok = true;\n");
  if (!any) {
    gc_printf(out, "static void gc_prepare_plans(void) {}\n");
    return;
  }
  for (size_t i = 0; i < m->count; i++) {
    const gc_node *n = m->nodes[i];
    if (!has_desc(n)) continue;
    gc_printf(&body, "\n/* %s (%s) */\n", n->name, n->path);
    if (n->kind == GC_ENTRY || n->t->kind == DESERT_TYPE_TUPLE)
      emit_tuple(&c, &body, n, !n->mark);
    else if (n->t->kind == DESERT_TYPE_RECORD)
      emit_record(&c, &body, n, !n->mark);
    else
      emit_enum(&c, &body, n);
    gc_append(out, &pre);
    gc_append(out, &body);
    pre.len = 0;
    body.len = 0;
  }
  gc_buf_free(&pre);
  gc_buf_free(&body);
  /* A description the plan builder refuses keeps plan NULL: the codec then
   * takes the description-based calls (and desert_cstruct_check refuses
   * it, so the public functions stay on the runtime path). */
  gc_printf(out, "\n/* Builds each record's plan into its static storage (P_init, once). */\n"
                 "static void gc_prepare_plans(void) {\n  const desert_record_plan *p = NULL;\n  (void)p;\n");
  for (size_t i = 0; i < m->count; i++) {
    const gc_node *n = m->nodes[i];
    if (!has_desc(n) || (n->kind == GC_STRUCT && n->t->kind == DESERT_TYPE_ENUM))
      continue;
    gc_printf(out,
              "  if (desert_record_plan_init(&cs_%s.record, cs_pm_%s, sizeof cs_pm_%s, &p) == "
              "DESERT_OK)\n    cs_%s.plan = p;\n  else\n    gc_plans_ok = false;\n",
              n->name, n->name, n->name, n->name);
  }
  gc_printf(out, "}\n");
}
