/* src/types/types.c — runtime type descriptors: built-in singletons, kind names,
 * type sets (node ownership, sealing: checks and derived record/enum
 * descriptors), value arenas, and the error/path helpers of the codec.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "types/types_internal.h"

/* ---- built-ins ------------------------------------------------------------------ */

/* The kind list has one entry per number from 1 up: a gap or a repeated
 * number would leave a hole in (or override an entry of) the tables below. */
#define DESERT_TYPES_ONE_(kind, value, name, group, components) +1
_Static_assert(0 DESERT_TYPE_KINDS(DESERT_TYPES_ONE_) == DESERT_TYPE_KIND_COUNT_ - 1,
               "DESERT_TYPE_KINDS numbers its kinds 1..n without gaps");
#undef DESERT_TYPES_ONE_

#define DESERT_TYPES_NAME_(kind, value, name, group, components) [kind] = name,
static const char *const desert_types_kind_names[DESERT_TYPE_KIND_COUNT_] = {
    DESERT_TYPE_KINDS(DESERT_TYPES_NAME_)};
#undef DESERT_TYPES_NAME_

#define DESERT_TYPES_COMPONENTS_(kind, value, name, group, components) [kind] = components,
static const unsigned char desert_types_components[DESERT_TYPE_KIND_COUNT_] = {
    DESERT_TYPE_KINDS(DESERT_TYPES_COMPONENTS_)};
#undef DESERT_TYPES_COMPONENTS_

/* The static node of every BUILTIN kind; COMPRESSED starts with the session
 * flavour and the flavour's default level (-1, -1). */
#define DESERT_TYPES_NODE_BUILTIN(k)                                                             \
  [k] = {.kind = (k),                                                                            \
         .u.compressed = {.flavour = (k) == DESERT_TYPE_COMPRESSED ? -1 : 0,                     \
                          .level = (k) == DESERT_TYPE_COMPRESSED ? -1 : 0}},
#define DESERT_TYPES_NODE_COMPOSITE(k)
#define DESERT_TYPES_NODE_(kind, value, name, group, components) DESERT_TYPES_NODE_##group(kind)
static const desert_type desert_types_builtins[DESERT_TYPE_KIND_COUNT_] = {
    DESERT_TYPE_KINDS(DESERT_TYPES_NODE_)};
#undef DESERT_TYPES_NODE_
#undef DESERT_TYPES_NODE_COMPOSITE
#undef DESERT_TYPES_NODE_BUILTIN

/* 1 for the BUILTIN kinds. */
#define DESERT_TYPES_IS_BUILTIN_BUILTIN 1
#define DESERT_TYPES_IS_BUILTIN_COMPOSITE 0
#define DESERT_TYPES_IS_BUILTIN_(kind, value, name, group, components)                           \
  [kind] = DESERT_TYPES_IS_BUILTIN_##group,
static const bool desert_types_is_builtin[DESERT_TYPE_KIND_COUNT_] = {
    DESERT_TYPE_KINDS(DESERT_TYPES_IS_BUILTIN_)};
#undef DESERT_TYPES_IS_BUILTIN_

const desert_type *desert_type_builtin(desert_type_kind kind) {
  if ((unsigned)kind == 0 || (unsigned)kind >= (unsigned)DESERT_TYPE_KIND_COUNT_) return NULL;
  return desert_types_is_builtin[kind] ? &desert_types_builtins[kind] : NULL;
}

const char *desert_type_kind_name(desert_type_kind kind) {
  if ((unsigned)kind == 0 || (unsigned)kind >= (unsigned)DESERT_TYPE_KIND_COUNT_) return NULL;
  return desert_types_kind_names[kind];
}

const desert_type *desert_type_resolve(const desert_type *t) {
  /* Sealed sets have no REF/TRANSPARENT cycles; the bound protects unsealed
   * graphs. */
  for (unsigned n = 0; t && n < 100000u; n++) {
    if (t->kind != DESERT_TYPE_REF && t->kind != DESERT_TYPE_TRANSPARENT) return t;
    t = t->u.inner;
  }
  return NULL;
}

bool desert_type_nullable(const desert_type *t) {
  t = desert_type_resolve(t);
  return t && (t->kind == DESERT_TYPE_UNIT || t->kind == DESERT_TYPE_OPTION);
}

size_t desert_type_component_count(desert_type_kind kind) {
  if ((unsigned)kind == 0 || (unsigned)kind >= (unsigned)DESERT_TYPE_KIND_COUNT_) return 0;
  return desert_types_components[kind];
}

/* Width in bytes of a fixed-width number type, 0 for anything else. */
size_t desert_types_fixed_width(desert_type_kind kind) {
  switch (kind) {
  case DESERT_TYPE_I8:
  case DESERT_TYPE_U8:
    return 1;
  case DESERT_TYPE_I16:
  case DESERT_TYPE_U16:
    return 2;
  case DESERT_TYPE_I32:
  case DESERT_TYPE_U32:
  case DESERT_TYPE_F32:
    return 4;
  case DESERT_TYPE_I64:
  case DESERT_TYPE_U64:
  case DESERT_TYPE_F64:
    return 8;
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_BOOL: case DESERT_TYPE_UNIT: case DESERT_TYPE_CHAR:
  case DESERT_TYPE_CHAR16: case DESERT_TYPE_STRING: case DESERT_TYPE_DEDUP_STRING:
  case DESERT_TYPE_VAR_U32: case DESERT_TYPE_VAR_I32: case DESERT_TYPE_BYTES:
  case DESERT_TYPE_UUID: case DESERT_TYPE_DURATION: case DESERT_TYPE_INSTANT:
  case DESERT_TYPE_BIGINT: case DESERT_TYPE_BIGDECIMAL: case DESERT_TYPE_BIGDECIMAL_BINARY:
  case DESERT_TYPE_COMPRESSED: case DESERT_TYPE_DAY_OF_WEEK: case DESERT_TYPE_MONTH:
  case DESERT_TYPE_YEAR: case DESERT_TYPE_MONTH_DAY: case DESERT_TYPE_YEAR_MONTH:
  case DESERT_TYPE_PERIOD: case DESERT_TYPE_ZONE_OFFSET: case DESERT_TYPE_ZONE_ID:
  case DESERT_TYPE_LOCAL_DATE: case DESERT_TYPE_LOCAL_TIME: case DESERT_TYPE_LOCAL_DATE_TIME:
  case DESERT_TYPE_OFFSET_TIME: case DESERT_TYPE_OFFSET_DATE_TIME:
  case DESERT_TYPE_ZONED_DATE_TIME: case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET:
  case DESERT_TYPE_RUST_DATETIME_TZ: case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return 0;
}

/* ---- value arenas -------------------------------------------------------------------- */

static void *desert_types_default_alloc(void *opaque, size_t size) {
  (void)opaque;
  return malloc(size);
}
static void desert_types_default_free(void *opaque, void *p, size_t size) {
  (void)opaque;
  (void)size;
  free(p);
}

static desert_allocator desert_types_allocator(const desert_allocator *a) {
  desert_allocator r;
  if (a && a->alloc && a->free) return *a;
  r.alloc = desert_types_default_alloc;
  r.free = desert_types_default_free;
  r.opaque = NULL;
  return r;
}

desert_status desert_value_arena_create(const desert_allocator *alloc, desert_value_arena **out) {
  if (!out) return DESERT_E_ARGUMENT;
  *out = NULL;
  desert_allocator al = desert_types_allocator(alloc);
  desert_value_arena *a = al.alloc(al.opaque, sizeof *a);
  if (!a) return DESERT_E_NOMEM;
  a->alloc = al;
  desert_arena_init(&a->arena, &a->alloc);
  *out = a;
  return DESERT_OK;
}

void desert_value_arena_reset(desert_value_arena *a) {
  if (a) desert_arena_reset(&a->arena);
}

void desert_value_arena_free(desert_value_arena *a) {
  if (!a) return;
  desert_arena_free(&a->arena);
  desert_allocator al = a->alloc;
  al.free(al.opaque, a, sizeof *a);
}

void *desert_value_arena_alloc(desert_value_arena *a, size_t size, size_t align) {
  if (!a) return NULL;
  return desert_arena_alloc(&a->arena, size, align);
}

desert_value *desert_value_arena_values(desert_value_arena *a, size_t n) {
  if (!a || n > SIZE_MAX / sizeof(desert_value)) return NULL;
  desert_value *v = desert_arena_alloc(&a->arena, n * sizeof(desert_value), _Alignof(desert_value));
  if (v && n) memset(v, 0, n * sizeof(desert_value));
  return v;
}

size_t desert_value_arena_size(const desert_value_arena *a) { return a ? a->arena.total : 0; }

/* ---- type sets ------------------------------------------------------------------------ */

struct desert_type_set {
  desert_allocator alloc;
  desert_value_arena values; /* nodes, names, arrays, default values */
  desert_type **nodes;       /* every node created, for the seal */
  size_t count, cap;
  size_t sealed; /* nodes [0, sealed) are sealed */
};

desert_status desert_type_set_create(const desert_allocator *alloc, desert_type_set **out) {
  if (!out) return DESERT_E_ARGUMENT;
  *out = NULL;
  desert_allocator al = desert_types_allocator(alloc);
  desert_type_set *s = al.alloc(al.opaque, sizeof *s);
  if (!s) return DESERT_E_NOMEM;
  memset(s, 0, sizeof *s);
  s->alloc = al;
  s->values.alloc = al;
  desert_arena_init(&s->values.arena, &s->values.alloc);
  *out = s;
  return DESERT_OK;
}

void desert_type_set_free(desert_type_set *s) {
  if (!s) return;
  desert_arena_free(&s->values.arena);
  if (s->nodes) s->alloc.free(s->alloc.opaque, s->nodes, s->cap * sizeof *s->nodes);
  desert_allocator al = s->alloc;
  al.free(al.opaque, s, sizeof *s);
}

void *desert_type_set_alloc(desert_type_set *s, size_t size, size_t align) {
  if (!s) return NULL;
  void *p = desert_arena_alloc(&s->values.arena, size, align);
  if (p && size) memset(p, 0, size);
  return p;
}

size_t desert_type_set_count(const desert_type_set *s) { return s ? s->count : 0; }

const desert_type *desert_type_set_at(const desert_type_set *s, size_t i) {
  return s && i < s->count ? s->nodes[i] : NULL;
}

char *desert_type_set_strdup(desert_type_set *s, const char *str, size_t len) {
  if (!s || len == SIZE_MAX) return NULL;
  char *p = desert_arena_alloc(&s->values.arena, len + 1, 1);
  if (!p) return NULL;
  if (len) memcpy(p, str, len);
  p[len] = '\0';
  return p;
}

desert_value_arena *desert_type_set_arena(desert_type_set *s) { return s ? &s->values : NULL; }

desert_type *desert_type_set_new(desert_type_set *s, desert_type_kind kind) {
  if (!s || (unsigned)kind == 0 || (unsigned)kind >= (unsigned)DESERT_TYPE_KIND_COUNT_) return NULL;
  if (s->count == s->cap) {
    size_t ncap = s->cap ? s->cap * 2 : 32;
    desert_type **nn = s->alloc.alloc(s->alloc.opaque, ncap * sizeof *nn);
    if (!nn) return NULL;
    if (s->count) memcpy(nn, s->nodes, s->count * sizeof *nn);
    if (s->nodes) s->alloc.free(s->alloc.opaque, s->nodes, s->cap * sizeof *s->nodes);
    s->nodes = nn;
    s->cap = ncap;
  }
  desert_type *t = desert_type_set_alloc(s, sizeof *t, _Alignof(desert_type));
  if (!t) return NULL;
  t->kind = kind;
  if (kind == DESERT_TYPE_COMPRESSED) {
    t->u.compressed.flavour = -1;
    t->u.compressed.level = -1;
  }
  s->nodes[s->count++] = t;
  return t;
}

/* ---- sealing ------------------------------------------------------------------------ */

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static desert_status
seal_fail(char *msg, size_t cap, const char *fmt, ...) {
  if (msg && cap) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
  }
  return DESERT_E_ARGUMENT;
}

static const char *tname(const desert_type *t) {
  return t->name ? t->name : desert_type_kind_name(t->kind);
}

static const desert_field_desc desert_types_pair_fields[2] = {{"_1", 0}, {"_2", 0}};
const desert_types_record_impl desert_types_map_entry = {
    {"Tuple2", desert_types_pair_fields, 2, NULL, 0}, NULL, NULL};

/* Builds im's plan in the set's memory (freed with the set); a description
 * that desert_record_desc_check refuses keeps none (see types_internal.h). */
static desert_status attach_plan(desert_type_set *s, desert_types_record_impl *im) {
  im->plan = NULL;
  size_t n = desert_record_plan_size(&im->desc);
  if (n == 0) return DESERT_OK;
  void *mem = desert_type_set_alloc(s, n, _Alignof(void *));
  if (!mem) return DESERT_E_NOMEM;
  return desert_record_plan_init(&im->desc, mem, n, &im->plan);
}

static desert_status seal_record(desert_type_set *s, desert_type *t, char *msg, size_t cap) {
  const size_t nf = t->u.record.field_count, ns = t->u.record.step_count;
  if (nf && !t->u.record.fields) return seal_fail(msg, cap, "%s: fields missing", tname(t));
  if (ns && !t->u.record.steps) return seal_fail(msg, cap, "%s: steps missing", tname(t));
  if (ns > 127) return seal_fail(msg, cap, "%s: more than 127 evolution steps", tname(t));
  desert_types_record_impl *im =
      desert_type_set_alloc(s, sizeof *im, _Alignof(desert_types_record_impl));
  desert_field_desc *fd =
      desert_type_set_alloc(s, (nf ? nf : 1) * sizeof *fd, _Alignof(desert_field_desc));
  desert_evolution_step *sd =
      desert_type_set_alloc(s, (ns ? ns : 1) * sizeof *sd, _Alignof(desert_evolution_step));
  const desert_value **ad = desert_type_set_alloc(s, (nf ? nf : 1) * sizeof *ad, _Alignof(void *));
  if (!im || !fd || !sd || !ad) return DESERT_E_NOMEM;
  for (size_t i = 0; i < nf; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    if (!f->name || !f->type) return seal_fail(msg, cap, "%s: field %zu incomplete", tname(t), i);
    if (f->flags & ~(unsigned)(DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT))
      return seal_fail(msg, cap, "%s.%s: unknown field flags", tname(t), f->name);
    if ((f->flags & DESERT_FIELD_TRANSIENT) && !f->transient_default)
      return seal_fail(msg, cap, "%s.%s: transient field without default", tname(t), f->name);
    for (size_t j = 0; j < i; j++)
      if (strcmp(t->u.record.fields[j].name, f->name) == 0)
        return seal_fail(msg, cap, "%s: duplicate field name '%s'", tname(t), f->name);
    fd[i].name = f->name;
    fd[i].flags = f->flags;
  }
  for (size_t k = 0; k < ns; k++) {
    const desert_type_step *st = &t->u.record.steps[k];
    if (!st->field) return seal_fail(msg, cap, "%s: step %zu without a field", tname(t), k + 1);
    if (st->kind < DESERT_STEP_FIELD_ADDED || st->kind > DESERT_STEP_FIELD_MADE_TRANSIENT)
      return seal_fail(msg, cap, "%s: step %zu has an unknown kind", tname(t), k + 1);
    sd[k].kind = st->kind;
    sd[k].field = st->field;
    sd[k].has_default = st->kind == DESERT_STEP_FIELD_ADDED && st->default_value != NULL;
    if (st->kind == DESERT_STEP_FIELD_ADDED) {
      for (size_t i = 0; i < nf; i++)
        if (strcmp(t->u.record.fields[i].name, st->field) == 0) ad[i] = st->default_value;
    }
  }
  im->desc.name = t->name ? t->name : "record";
  im->desc.fields = fd;
  im->desc.field_count = nf;
  im->desc.steps = ns ? sd : NULL;
  im->desc.step_count = ns;
  im->added_default = ad;
  t->impl_ = im;
  return attach_plan(s, im);
}

static desert_status seal_tuple(desert_type_set *s, desert_type *t, char *msg, size_t cap) {
  const size_t n = t->u.tuple.count;
  if (n == 0 || !t->u.tuple.elements) return seal_fail(msg, cap, "tuple without elements");
  desert_types_record_impl *im =
      desert_type_set_alloc(s, sizeof *im, _Alignof(desert_types_record_impl));
  desert_field_desc *fd = desert_type_set_alloc(s, n * sizeof *fd, _Alignof(desert_field_desc));
  if (!im || !fd) return DESERT_E_NOMEM;
  for (size_t i = 0; i < n; i++) {
    if (!t->u.tuple.elements[i]) return seal_fail(msg, cap, "tuple element %zu missing", i + 1);
    char buf[32];
    int len = snprintf(buf, sizeof buf, "_%zu", i + 1);
    fd[i].name = desert_type_set_strdup(s, buf, (size_t)len);
    if (!fd[i].name) return DESERT_E_NOMEM;
    fd[i].flags = 0;
  }
  im->desc.name = "Tuple";
  im->desc.fields = fd;
  im->desc.field_count = n;
  im->desc.steps = NULL;
  im->desc.step_count = 0;
  im->added_default = NULL;
  t->impl_ = im;
  return attach_plan(s, im);
}

static int ctor_name_cmp(const char *a, const char *b) {
  /* Byte-wise UTF-8 comparison (strcmp compares as unsigned char). */
  return strcmp(a, b);
}

static desert_status seal_enum(desert_type_set *s, desert_type *t, char *msg, size_t cap) {
  const size_t n = t->u.enumeration.count;
  if (n == 0 || !t->u.enumeration.ctors)
    return seal_fail(msg, cap, "%s: no constructors", tname(t));
  desert_types_enum_impl *im =
      desert_type_set_alloc(s, sizeof *im, _Alignof(desert_types_enum_impl));
  desert_case_desc *cd = desert_type_set_alloc(s, n * sizeof *cd, _Alignof(desert_case_desc));
  uint32_t *ids = desert_type_set_alloc(s, n * sizeof *ids, _Alignof(uint32_t));
  uint32_t *case_of = desert_type_set_alloc(s, n * sizeof *case_of, _Alignof(uint32_t));
  if (!im || !cd || !ids || !case_of) return DESERT_E_NOMEM;
  if (n > UINT32_MAX) return seal_fail(msg, cap, "%s: too many constructors", tname(t));
  for (size_t i = 0; i < n; i++) {
    const desert_type_ctor *c = &t->u.enumeration.ctors[i];
    if (!c->name) return seal_fail(msg, cap, "%s: constructor %zu without a name", tname(t), i);
    if (!c->transient && !c->payload)
      return seal_fail(msg, cap, "%s.%s: constructor without payload type", tname(t), c->name);
    for (size_t j = 0; j < i; j++)
      if (strcmp(t->u.enumeration.ctors[j].name, c->name) == 0)
        return seal_fail(msg, cap, "%s: duplicate constructor name '%s'", tname(t), c->name);
    cd[i].name = c->name;
    cd[i].flags = c->transient ? DESERT_CASE_TRANSIENT : 0;
  }
  /* Ids: non-transient constructors in declaration or sorted order, once
   * here so that encode and decode never derive them per value. */
  uint32_t id_count = 0;
  for (size_t i = 0; i < n; i++) {
    const desert_type_ctor *c = &t->u.enumeration.ctors[i];
    if (c->transient) {
      ids[i] = UINT32_MAX;
      continue;
    }
    uint32_t id = 0;
    for (size_t j = 0; j < n; j++) {
      const desert_type_ctor *o = &t->u.enumeration.ctors[j];
      if (o->transient || j == i) continue;
      bool before = t->u.enumeration.sorted ? ctor_name_cmp(o->name, c->name) < 0 : j < i;
      if (before) id++;
    }
    ids[i] = id;
    case_of[id] = (uint32_t)i; /* ids of distinct names are distinct and < n */
    id_count++;
  }
  im->desc.name = t->name ? t->name : "enum";
  im->desc.cases = cd;
  im->desc.case_count = n;
  im->desc.sorted = t->u.enumeration.sorted;
  im->ids = ids;
  im->case_of = case_of;
  im->id_count = id_count;
  t->impl_ = im;
  return DESERT_OK;
}

/* True when following REF/TRANSPARENT from t comes back to t. */
static bool alias_cycle(const desert_type *t, size_t limit) {
  const desert_type *p = t->u.inner;
  for (size_t n = 0; p && n <= limit; n++) {
    if (p == t) return true;
    if (p->kind != DESERT_TYPE_REF && p->kind != DESERT_TYPE_TRANSPARENT) return false;
    p = p->u.inner;
  }
  return p != NULL; /* longer than every node: a cycle not through t */
}

desert_status desert_type_set_seal(desert_type_set *s, char *msg, size_t cap) {
  if (!s) return DESERT_E_ARGUMENT;
  if (msg && cap) msg[0] = '\0';
  for (size_t i = s->sealed; i < s->count; i++) {
    desert_type *t = s->nodes[i];
    desert_status st = DESERT_OK;
    switch (t->kind) {
    case DESERT_TYPE_LIST:
    case DESERT_TYPE_SET:
      if (!t->u.coll.element) st = seal_fail(msg, cap, "%s without element type", tname(t));
      break;
    case DESERT_TYPE_MAP:
      if (!t->u.coll.element || !t->u.coll.value)
        st = seal_fail(msg, cap, "map without key or value type");
      break;
    case DESERT_TYPE_OPTION:
      if (!t->u.inner) st = seal_fail(msg, cap, "option without inner type");
      break;
    case DESERT_TYPE_EITHER:
    case DESERT_TYPE_TRY:
      if (!t->u.alt.left || !t->u.alt.right)
        st = seal_fail(msg, cap, "%s without both alternatives", tname(t));
      break;
    case DESERT_TYPE_TRANSPARENT:
    case DESERT_TYPE_REF:
      if (!t->u.inner)
        st = seal_fail(msg, cap, "%s '%s' unresolved", tname(t), t->name ? t->name : "");
      else if (alias_cycle(t, s->count))
        st = seal_fail(msg, cap, "alias cycle through '%s'", t->name ? t->name : "?");
      break;
    case DESERT_TYPE_TUPLE:
      st = seal_tuple(s, t, msg, cap);
      break;
    case DESERT_TYPE_RECORD:
      st = seal_record(s, t, msg, cap);
      break;
    case DESERT_TYPE_ENUM:
      st = seal_enum(s, t, msg, cap);
      break;
    case DESERT_TYPE_BYTES:
      break;
    case DESERT_TYPE_COMPRESSED:
      if (t->u.compressed.flavour < -1 || t->u.compressed.flavour > 1 ||
          t->u.compressed.level < -1 || t->u.compressed.level > 12)
        st = seal_fail(msg, cap, "compressed: bad flavour or level");
      break;
    case DESERT_TYPE_BOOL: case DESERT_TYPE_I8: case DESERT_TYPE_I16: case DESERT_TYPE_I32:
    case DESERT_TYPE_I64: case DESERT_TYPE_U8: case DESERT_TYPE_U16: case DESERT_TYPE_U32:
    case DESERT_TYPE_U64: case DESERT_TYPE_F32: case DESERT_TYPE_F64: case DESERT_TYPE_UNIT:
    case DESERT_TYPE_CHAR: case DESERT_TYPE_CHAR16: case DESERT_TYPE_STRING:
    case DESERT_TYPE_DEDUP_STRING: case DESERT_TYPE_VAR_U32: case DESERT_TYPE_VAR_I32:
    case DESERT_TYPE_UUID: case DESERT_TYPE_DURATION: case DESERT_TYPE_INSTANT:
    case DESERT_TYPE_BIGINT: case DESERT_TYPE_BIGDECIMAL: case DESERT_TYPE_BIGDECIMAL_BINARY:
    case DESERT_TYPE_DAY_OF_WEEK: case DESERT_TYPE_MONTH: case DESERT_TYPE_YEAR:
    case DESERT_TYPE_MONTH_DAY: case DESERT_TYPE_YEAR_MONTH: case DESERT_TYPE_PERIOD:
    case DESERT_TYPE_ZONE_OFFSET: case DESERT_TYPE_ZONE_ID: case DESERT_TYPE_LOCAL_DATE:
    case DESERT_TYPE_LOCAL_TIME: case DESERT_TYPE_LOCAL_DATE_TIME: case DESERT_TYPE_OFFSET_TIME:
    case DESERT_TYPE_OFFSET_DATE_TIME: case DESERT_TYPE_ZONED_DATE_TIME:
    case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: case DESERT_TYPE_RUST_DATETIME_TZ:
      break;
    case DESERT_TYPE_KIND_COUNT_:
      break; /* not a kind: caught below */
    }
    if (!st && !desert_type_kind_name(t->kind))
      st = seal_fail(msg, cap, "node of unknown kind %u", (unsigned)t->kind);
    if (st) return st;
  }
  s->sealed = s->count;
  return DESERT_OK;
}

desert_status desert_type_enum_id(const desert_type *t, size_t i, uint32_t *id) {
  if (!t || t->kind != DESERT_TYPE_ENUM || !t->impl_ || !id) return DESERT_E_ARGUMENT;
  const desert_types_enum_impl *im = t->impl_;
  if (i >= t->u.enumeration.count) return DESERT_E_ARGUMENT;
  if (im->ids[i] == UINT32_MAX) return DESERT_E_SERIALIZING_TRANSIENT;
  *id = im->ids[i];
  return DESERT_OK;
}

/* ---- errors and paths ------------------------------------------------------------------- */

void desert_types_ctx_init(desert_types_ctx *c, desert_type_error *err,
                           const desert_codec_limits *limits) {
  memset(c, 0, offsetof(desert_types_ctx, seg));
  c->err = err;
  c->max_depth = limits && limits->max_depth ? limits->max_depth : DESERT_TYPES_DEFAULT_DEPTH;
  c->budget = limits && limits->max_values ? limits->max_values : DESERT_TYPES_DEFAULT_VALUES;
  c->max_bigint = limits && limits->max_bigint ? limits->max_bigint : SIZE_MAX;
  if (err) {
    err->status = DESERT_OK;
    err->has_offset = false;
    err->offset = 0;
    err->path[0] = '\0';
    err->message[0] = '\0';
  }
}

/* Appends text to buf[*len..cap), marking truncation with "...". */
static void path_put(char *buf, size_t cap, size_t *len, const char *s, size_t n) {
  if (*len + 4 >= cap) return;
  size_t room = cap - *len - 4;
  if (n > room) {
    memcpy(buf + *len, s, room);
    *len += room;
    memcpy(buf + *len, "...", 4);
    *len = cap - 1;
    return;
  }
  memcpy(buf + *len, s, n);
  *len += n;
  buf[*len] = '\0';
}

void desert_types_path_render(const desert_types_ctx *c, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  unsigned n = c->nseg < DESERT_TYPES_PATH_MAX ? c->nseg : DESERT_TYPES_PATH_MAX;
  for (unsigned i = 0; i < n; i++) {
    const desert_types_seg *s = &c->seg[i];
    if (s->name) {
      if (len) path_put(buf, cap, &len, ".", 1);
      path_put(buf, cap, &len, s->name, strlen(s->name));
    } else {
      char tmp[32];
      int k = snprintf(tmp, sizeof tmp, "[%zu]", s->index);
      path_put(buf, cap, &len, tmp, (size_t)k);
    }
  }
  if (c->nseg > DESERT_TYPES_PATH_MAX) path_put(buf, cap, &len, "...", 3);
}

static void capture_path(desert_types_ctx *c) {
  if (c->captured || !c->err) return;
  c->captured = true;
  desert_types_path_render(c, c->err->path, sizeof c->err->path);
}

desert_status desert_types_fail(desert_types_ctx *c, desert_status st, const char *fmt, ...) {
  if (c->err && !c->captured) {
    capture_path(c);
    c->err->status = st;
    if (fmt) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(c->err->message, sizeof c->err->message, fmt, ap);
      va_end(ap);
    }
  }
  return st;
}

desert_status desert_types_note(desert_types_ctx *c, desert_status st) {
  if (st && c->err && !c->captured) {
    capture_path(c);
    c->err->status = st;
  }
  return st;
}

void desert_type_error_json_path(const desert_type_error *err, char *out, size_t cap) {
  if (!out || cap == 0) return;
  if (!err || err->path[0] == '\0') {
    snprintf(out, cap, "$");
    return;
  }
  snprintf(out, cap, "$%s%s", err->path[0] == '[' ? "" : ".", err->path);
}
