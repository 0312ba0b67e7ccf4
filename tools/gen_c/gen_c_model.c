/* tools/gen_c/gen_c_model.c — from a schema document to the C types of
 * `desert gen-c`: loads the document with the JSON layer (invalid documents
 * fail with its BadSchema message), walks the type graph and gives every
 * record, enum, tuple, collection, option, either and try a struct with a
 * stable name derived from its place in the document; definitions and the
 * root get P_<name> (a typedef when they are another type). Recursion: the
 * struct graph is split into strongly connected components, and a
 * reference to a definition of the same component is held through a
 * pointer, which is exactly what keeps every struct finite.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_c.h"

/* Anonymous types nested deeper than this cannot be generated (names and
 * the generated functions would become unwieldy long before). */
#define GC_MAX_NESTING 64

bool gc_is_struct_kind(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP:
  case DESERT_TYPE_OPTION:
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY:
  case DESERT_TYPE_TUPLE:
  case DESERT_TYPE_RECORD:
  case DESERT_TYPE_ENUM:
    return true;
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return false;
}

const char *gc_builtin_ctype(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_BOOL: return "bool";
  case DESERT_TYPE_I8: return "int8_t";
  case DESERT_TYPE_I16: return "int16_t";
  case DESERT_TYPE_I32: return "int32_t";
  case DESERT_TYPE_I64: return "int64_t";
  case DESERT_TYPE_U8: return "uint8_t";
  case DESERT_TYPE_U16: return "uint16_t";
  case DESERT_TYPE_U32: return "uint32_t";
  case DESERT_TYPE_U64: return "uint64_t";
  case DESERT_TYPE_F32: return "float";
  case DESERT_TYPE_F64: return "double";
  case DESERT_TYPE_UNIT: return "uint8_t";
  case DESERT_TYPE_CHAR: return "uint32_t";
  case DESERT_TYPE_CHAR16: return "uint32_t"; /* a code point: the writer refuses > U+FFFF */
  case DESERT_TYPE_STRING:
  case DESERT_TYPE_DEDUP_STRING:
  case DESERT_TYPE_BIGDECIMAL: return "desert_str";
  case DESERT_TYPE_VAR_U32: return "uint32_t";
  case DESERT_TYPE_VAR_I32: return "int32_t";
  case DESERT_TYPE_BYTES:
  case DESERT_TYPE_COMPRESSED:
  case DESERT_TYPE_BIGINT: return "desert_bytes";
  case DESERT_TYPE_UUID: return "desert_gen_uuid";
  case DESERT_TYPE_DURATION:
  case DESERT_TYPE_INSTANT: return "desert_duration";
  case DESERT_TYPE_BIGDECIMAL_BINARY: return "desert_cbigdecimal";
  case DESERT_TYPE_DAY_OF_WEEK:
  case DESERT_TYPE_MONTH: return "uint8_t";
  case DESERT_TYPE_YEAR:
  case DESERT_TYPE_ZONE_OFFSET: return "int32_t";
  case DESERT_TYPE_MONTH_DAY: return "desert_month_day";
  case DESERT_TYPE_YEAR_MONTH: return "desert_year_month";
  case DESERT_TYPE_PERIOD: return "desert_period";
  case DESERT_TYPE_ZONE_ID: return "desert_zone_id";
  case DESERT_TYPE_LOCAL_DATE: return "desert_local_date";
  case DESERT_TYPE_LOCAL_TIME: return "desert_local_time";
  case DESERT_TYPE_LOCAL_DATE_TIME: return "desert_local_date_time";
  case DESERT_TYPE_OFFSET_TIME: return "desert_offset_time";
  case DESERT_TYPE_OFFSET_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: return "desert_offset_date_time";
  case DESERT_TYPE_ZONED_DATE_TIME: return "desert_zoned_date_time";
  case DESERT_TYPE_RUST_DATETIME_TZ: return "desert_cdatetime_tz";
  DESERT_TYPE_CASES(COMPOSITE) case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return NULL;
}

const desert_type *gc_skip_transparent(const desert_type *t) {
  while (t && t->kind == DESERT_TYPE_TRANSPARENT) t = t->u.inner;
  return t;
}

/* ---- nodes ------------------------------------------------------------------------------ */

static gc_node *find_node(const gc_model *m, const desert_type *t, gc_node_kind kind) {
  for (size_t i = 0; i < m->count; i++)
    if (m->nodes[i]->t == t && m->nodes[i]->kind == kind) return m->nodes[i];
  return NULL;
}

/* The node of definition REF d (its body's struct or its alias). */
static gc_node *def_node(const gc_model *m, const desert_type *ref) {
  for (size_t i = 0; i < m->npublic; i++) {
    gc_node *n = m->publics[i];
    if (n->def && !n->is_root && strcmp(n->def, ref->name) == 0) return n;
  }
  return NULL;
}

gc_node *gc_model_node_of(const gc_model *m, const desert_type *t) {
  t = gc_skip_transparent(t);
  if (!t) return NULL;
  if (t->kind == DESERT_TYPE_REF) return def_node(m, t);
  if (gc_is_struct_kind(t->kind)) return find_node(m, t, GC_STRUCT);
  return NULL;
}

gc_node *gc_model_struct_of(const gc_model *m, const desert_type *t) {
  for (int guard = 0; guard < 10000; guard++) {
    gc_node *n = gc_model_node_of(m, t);
    if (!n || n->kind == GC_STRUCT) return n;
    t = n->t; /* an alias: the type it names */
  }
  return NULL;
}

bool gc_model_is_pointer(const gc_model *m, const gc_node *owner, const desert_type *t) {
  t = gc_skip_transparent(t);
  if (!t || t->kind != DESERT_TYPE_REF) return false;
  gc_node *n = gc_model_node_of(m, t);
  return n && n->scc == owner->scc;
}

const char *gc_model_ctype(const gc_model *m, const desert_type *t) {
  t = gc_skip_transparent(t);
  if (!t) return "void";
  const char *b = gc_builtin_ctype(t->kind);
  if (b) return b;
  gc_node *n = gc_model_node_of(m, t);
  return n ? n->name : "void";
}

/* An error message (not generated code): a path or reason too long for
 * m->error is cut at the stated precision (16 + 300 + 2 + 200 + 1 bytes fit). */
static bool fail(gc_model *m, const char *path, const char *why) {
  snprintf(m->error, sizeof m->error, "cannot generate %.300s: %.200s", path, why);
  return false;
}

static gc_node *add_node(gc_model *m, gc_node_kind kind, const desert_type *t, const char *want,
                         const char *path) {
  gc_node *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  n->kind = kind;
  n->t = t;
  n->name = gc_scope_claim(&m->global, want);
  n->path = gc_strdup(path);
  if (m->count == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 64;
    gc_node **nn = realloc(m->nodes, cap * sizeof *nn);
    if (!nn) n->path = (free(n->path), NULL);
    else {
      m->nodes = nn;
      m->cap = cap;
    }
  }
  if (!n->name || !n->path) {
    free(n->name);
    free(n->path);
    free(n);
    return NULL;
  }
  m->nodes[m->count++] = n;
  return n;
}

static char *join(const char *a, const char *sep, const char *b) {
  size_t x = strlen(a), y = strlen(sep), z = strlen(b);
  char *s = malloc(x + y + z + 1);
  if (!s) return NULL;
  memcpy(s, a, x);
  memcpy(s + x, sep, y);
  memcpy(s + x + y, b, z + 1);
  return s;
}

static bool walk(gc_model *m, const desert_type *t, gc_node *named, const char *name,
                 const char *path, unsigned depth);

bool gc_enum_case_has_member(const desert_type_ctor *c) {
  const desert_type *p = c->payload;
  if (c->transient || !p) return false;
  /* A case without fields: an anonymous empty record, just the byte 00. */
  return !(p->kind == DESERT_TYPE_RECORD && p->u.record.field_count == 0);
}

/* Walks a child type: its struct (if it is one) is named <owner>_<suffix>. */
static bool walk_child(gc_model *m, const desert_type *t, const char *owner, const char *suffix,
                       const char *path, const char *path_suffix, unsigned depth) {
  char *name = join(owner, "_", suffix);
  char *p = join(path, "", path_suffix);
  bool ok = name && p && walk(m, t, NULL, name, p, depth + 1);
  if (!name || !p) snprintf(m->error, sizeof m->error, "out of memory");
  free(name);
  free(p);
  return ok;
}

static bool claim_members(gc_node *n, size_t count) {
  n->members = calloc(count ? count : 1, sizeof *n->members);
  n->flags = calloc(count ? count : 1, sizeof *n->flags);
  return n->members && n->flags;
}

static bool walk_record(gc_model *m, gc_node *n, const desert_type *t, const char *path,
                        unsigned depth) {
  size_t nf = t->u.record.field_count;
  if (!claim_members(n, nf)) return false;
  gc_scope members = {0};
  bool ok = true;
  for (size_t i = 0; i < nf && ok; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    char *mangled = gc_mangle(f->name);
    n->members[i] = mangled ? gc_scope_claim(&members, mangled) : NULL;
    if (n->members[i] && (f->flags & DESERT_FIELD_OPTIONAL)) {
      char *flag = join("has_", "", n->members[i]);
      n->flags[i] = flag ? gc_scope_claim(&members, flag) : NULL;
      free(flag);
      ok = n->flags[i] != NULL;
    }
    ok = ok && n->members[i];
    char idx[48]; /* with a size_t of 20 digits, at most 35 bytes */
    snprintf(idx, sizeof idx, ".fields[%zu].type", i);
    ok = ok && mangled && walk_child(m, f->type, n->name, mangled, path, idx, depth);
    free(mangled);
  }
  gc_scope_free(&members);
  return ok;
}

static bool walk_enum(gc_model *m, gc_node *n, const desert_type *t, const char *path,
                      unsigned depth) {
  size_t nc = t->u.enumeration.count;
  if (!claim_members(n, nc)) return false;
  char *tt = join(n->name, "_", "tag");
  n->tag_type = tt ? gc_scope_claim(&m->global, tt) : NULL;
  free(tt);
  if (!n->tag_type) return false;
  gc_scope members = {0};
  char *tag = gc_scope_claim(&members, "tag"); /* the tag member's name is taken */
  bool ok = tag != NULL;
  free(tag);
  for (size_t i = 0; i < nc && ok; i++) {
    const desert_type_ctor *c = &t->u.enumeration.ctors[i];
    char *mangled = gc_mangle(c->name);
    char *member = mangled ? gc_scope_claim(&members, mangled) : NULL;
    char *cst = member ? join(n->tag_type, "_", member) : NULL;
    n->members[i] = member;
    n->flags[i] = cst ? gc_scope_claim(&m->global, cst) : NULL; /* the tag constant */
    free(cst);
    ok = mangled && n->flags[i];
    char idx[64]; /* with a size_t of 20 digits, at most 41 bytes */
    const desert_type *p = c->payload;
    bool inline_fields = p && p->kind == DESERT_TYPE_RECORD;
    snprintf(idx, sizeof idx, inline_fields ? ".constructors[%zu]" : ".constructors[%zu].type", i);
    if (ok && gc_enum_case_has_member(c)) ok = walk_child(m, p, n->name, mangled, path, idx, depth);
    free(mangled);
  }
  gc_scope_free(&members);
  return ok;
}

static bool walk(gc_model *m, const desert_type *t, gc_node *named, const char *name,
                 const char *path, unsigned depth) {
  char *p = gc_strdup(path);
  if (!p) return false;
  while (t && t->kind == DESERT_TYPE_TRANSPARENT) {
    char *q = join(p, "", ".inner");
    free(p);
    if (!(p = q)) return false;
    t = t->u.inner;
  }
  bool ok = true;
  if (!t) {
    ok = fail(m, p, "missing type");
  } else if (!gc_is_struct_kind(t->kind)) {
    ok = true; /* built-ins and references: nothing of their own */
  } else if (depth > GC_MAX_NESTING) {
    ok = fail(m, p, "anonymous types nested more than 64 levels deep");
  } else {
    gc_node *n = named;
    if (n) {
      n->t = t;
      n->kind = GC_STRUCT;
    } else {
      n = add_node(m, GC_STRUCT, t, name, p);
    }
    if (!n) {
      snprintf(m->error, sizeof m->error, "out of memory");
      free(p);
      return false;
    }
    switch (t->kind) {
    case DESERT_TYPE_RECORD:
      ok = walk_record(m, n, t, p, depth);
      break;
    case DESERT_TYPE_ENUM:
      ok = walk_enum(m, n, t, p, depth);
      break;
    case DESERT_TYPE_TUPLE:
      ok = claim_members(n, t->u.tuple.count);
      for (size_t i = 0; ok && i < t->u.tuple.count; i++) {
        char mem[32], idx[48]; /* with a size_t of 20 digits, 22 and 32 bytes at most */
        snprintf(mem, sizeof mem, "_%zu", i + 1);
        snprintf(idx, sizeof idx, ".elements[%zu]", i);
        n->members[i] = gc_strdup(mem);
        ok = n->members[i] && walk_child(m, t->u.tuple.elements[i], n->name, mem + 1, p, idx,
                                         depth);
      }
      break;
    case DESERT_TYPE_LIST:
    case DESERT_TYPE_SET:
      ok = walk_child(m, t->u.coll.element, n->name, "elem", p, ".element", depth);
      break;
    case DESERT_TYPE_MAP: {
      char *en = join(n->name, "_", "entry");
      n->entry = en ? add_node(m, GC_ENTRY, t, en, p) : NULL;
      free(en);
      ok = n->entry && walk_child(m, t->u.coll.element, n->name, "key", p, ".key", depth) &&
           walk_child(m, t->u.coll.value, n->name, "value", p, ".value", depth);
      break;
    }
    case DESERT_TYPE_OPTION:
      ok = walk_child(m, t->u.inner, n->name, "value", p, ".inner", depth);
      break;
    case DESERT_TYPE_EITHER:
      ok = walk_child(m, t->u.alt.left, n->name, "left", p, ".left", depth) &&
           walk_child(m, t->u.alt.right, n->name, "right", p, ".right", depth);
      break;
    case DESERT_TYPE_TRY:
      ok = walk_child(m, t->u.alt.right, n->name, "success", p, ".success", depth) &&
           walk_child(m, t->u.alt.left, n->name, "failure", p, ".failure", depth);
      break;
    DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
    case DESERT_TYPE_KIND_COUNT_:
      break;
    }
  }
  if (!ok && !m->error[0]) snprintf(m->error, sizeof m->error, "out of memory");
  free(p);
  return ok;
}

/* ---- recursion: Tarjan's strongly connected components over by-value edges ------------- */

typedef struct edges {
  gc_node **to;
  size_t n, cap;
} edges;

static void edge_add(const gc_model *m, edges *e, const desert_type *t) {
  gc_node *n = gc_model_node_of(m, t);
  if (!n) return;
  if (e->n == e->cap) {
    size_t cap = e->cap ? 2 * e->cap : 8;
    gc_node **nn = realloc(e->to, cap * sizeof *nn);
    if (!nn) return;
    e->to = nn;
    e->cap = cap;
  }
  e->to[e->n++] = n;
}

/* The nodes whose values a node's struct holds by value. */
static void by_value(const gc_model *m, const gc_node *n, edges *e) {
  e->n = 0;
  const desert_type *t = n->t;
  if (n->kind == GC_ALIAS) {
    edge_add(m, e, t);
    return;
  }
  if (n->kind == GC_ENTRY) {
    edge_add(m, e, t->u.coll.element);
    edge_add(m, e, t->u.coll.value);
    return;
  }
  switch (t->kind) {
  case DESERT_TYPE_RECORD:
    for (size_t i = 0; i < t->u.record.field_count; i++) edge_add(m, e, t->u.record.fields[i].type);
    break;
  case DESERT_TYPE_TUPLE:
    for (size_t i = 0; i < t->u.tuple.count; i++) edge_add(m, e, t->u.tuple.elements[i]);
    break;
  case DESERT_TYPE_ENUM:
    for (size_t i = 0; i < t->u.enumeration.count; i++) {
      const desert_type_ctor *c = &t->u.enumeration.ctors[i];
      if (gc_enum_case_has_member(c)) edge_add(m, e, c->payload);
    }
    break;
  case DESERT_TYPE_OPTION:
    edge_add(m, e, t->u.inner);
    break;
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY:
    edge_add(m, e, t->u.alt.left);
    edge_add(m, e, t->u.alt.right);
    break;
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_LIST: case DESERT_TYPE_SET: case DESERT_TYPE_MAP:
  case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF: case DESERT_TYPE_KIND_COUNT_: /* lists, sets, maps hold their elements out of line */
    break;
  }
}

typedef struct tarjan {
  const gc_model *m;
  gc_node **stack;
  size_t sp, index, scc;
} tarjan;

static void strongconnect(tarjan *T, gc_node *v, unsigned depth) {
  v->index = v->low = T->index++;
  v->visited = true;
  v->on_stack = true;
  T->stack[T->sp++] = v;
  edges e = {0};
  by_value(T->m, v, &e);
  for (size_t i = 0; i < e.n; i++) {
    gc_node *w = e.to[i];
    if (!w->visited) {
      strongconnect(T, w, depth + 1);
      if (w->low < v->low) v->low = w->low;
    } else if (w->on_stack && w->index < v->low) {
      v->low = w->index;
    }
  }
  free(e.to);
  if (v->low == v->index) {
    gc_node *w;
    do {
      w = T->stack[--T->sp];
      w->on_stack = false;
      w->scc = T->scc;
    } while (w != v);
    T->scc++;
  }
}

static bool compute_sccs(gc_model *m) {
  tarjan T = {m, calloc(m->count + 1, sizeof(gc_node *)), 0, 0, 1};
  if (!T.stack) return false;
  for (size_t i = 0; i < m->count; i++)
    if (!m->nodes[i]->visited) strongconnect(&T, m->nodes[i], 0);
  free(T.stack);
  return true;
}

/* ---- function names ------------------------------------------------------------------- */

static bool name_taken(const gc_model *m, const char *name) {
  for (size_t i = 0; i < m->global.count; i++)
    if (strcmp(m->global.names[i], name) == 0) return true;
  return false;
}

/* The generated functions must not clash with a generated type or constant
 * (a definition named "encode_X" next to one named "X", say): refused with
 * the path of the public type, rather than renamed behind the user's back. */
static bool check_function_names(gc_model *m) {
  /* P<before><T><after> for each public type T; P<after> once. */
  static const char *const per_type[][2] = {
      {"_encode_", ""},  {"_encode_", "_ex"},   {"_decode_", ""}, {"_decode_", "_ex"},
      {"_", "_to_json"}, {"_", "_from_json"}, {"_", "_type"},   {"_", "_fast"}};
  static const char *const global[] = {"_init", "_cleanup", "_schema", "_schema_json"};
  gc_buf name = {0}; /* each function name in turn */
  bool ok = true;
  for (size_t g = 0; ok && g < sizeof global / sizeof global[0]; g++) {
    name.len = 0;
    gc_printf(&name, "%s%s", m->prefix, global[g]);
    if (!name.failed && name_taken(m, name.data))
      ok = fail(m, "$", "a type name clashes with a generated function");
  }
  for (size_t i = 0; ok && !name.failed && i < m->npublic; i++) {
    const gc_node *n = m->publics[i];
    const char *s = n->name + strlen(m->prefix) + 1;
    for (size_t k = 0; ok && k < sizeof per_type / sizeof per_type[0]; k++) {
      name.len = 0;
      gc_printf(&name, "%s%s%s%s", m->prefix, per_type[k][0], s, per_type[k][1]);
      if (name.failed || !name_taken(m, name.data)) continue;
      gc_buf why = {0};
      gc_printf(&why, "its function %s clashes with a generated type name", name.data);
      ok = fail(m, n->path, why.failed ? "its function clashes with a generated type name"
                                       : why.data);
      gc_buf_free(&why);
    }
  }
  if (name.failed) {
    snprintf(m->error, sizeof m->error, "out of memory");
    ok = false;
  }
  gc_buf_free(&name);
  return ok;
}

/* ---- the document ------------------------------------------------------------------------- */

/* The document P.c embeds: the same options and definitions, and a tuple of
 * the root and every definition as the root, so one load gives the type of
 * each public C type (element 0 the root, element i the i-th definition). */
static char *runtime_document(const desert_json *doc) {
  gc_buf b = {0};
  gc_printf(&b, "{\"desert_schema\":1");
  const desert_json *opts = desert_json_get(doc, "options");
  const desert_json *defs = desert_json_get(doc, "definitions");
  if (opts) {
    gc_printf(&b, ",\"options\":");
    gc_canonical_json(&b, opts);
  }
  if (defs) {
    gc_printf(&b, ",\"definitions\":");
    gc_canonical_json(&b, defs);
  }
  gc_printf(&b, ",\"root\":{\"type\":\"tuple\",\"elements\":[");
  gc_canonical_json(&b, desert_json_get(doc, "root"));
  for (size_t i = 0; defs && i < defs->count; i++) {
    gc_put(&b, ",", 1);
    gc_canonical_json(&b, &defs->members[i].key);
  }
  gc_printf(&b, "]}}");
  char *s = gc_buf_take(&b);
  gc_buf_free(&b);
  return s;
}

bool gc_model_build(gc_model *m, const char *file, const char *text, size_t len,
                    const char *prefix) {
  memset(m, 0, sizeof *m);
  m->file = file;
  if (desert_value_arena_create(NULL, &m->arena)) {
    snprintf(m->error, sizeof m->error, "out of memory");
    return false;
  }
  char msg[300]; /* the parser cuts its message to fit; m->error holds 32 + 299 bytes */
  desert_json *doc;
  if (desert_json_parse(text, len, m->arena, &doc, msg, sizeof msg)) {
    snprintf(m->error, sizeof m->error, "BadSchema: not a JSON document: %s", msg);
    return false;
  }
  /* The document as it is: its BadSchema message names the real path. */
  desert_json_error err;
  desert_schema *orig = NULL;
  if (desert_schema_load(doc, NULL, &orig, &err)) {
    snprintf(m->error, sizeof m->error, "BadSchema: %s", err.message);
    return false;
  }
  desert_schema_free(orig);
  gc_buf cb = {0};
  gc_canonical_json(&cb, doc);
  m->canonical = gc_buf_take(&cb);
  gc_buf_free(&cb);
  m->runtime_doc = runtime_document(doc);
  m->prefix = gc_strdup(prefix);
  if (!m->canonical || !m->runtime_doc || !m->prefix) {
    snprintf(m->error, sizeof m->error, "out of memory");
    return false;
  }
  desert_json *rdoc;
  if (desert_json_parse(m->runtime_doc, strlen(m->runtime_doc), m->arena, &rdoc, msg,
                        sizeof msg) ||
      desert_schema_load(rdoc, NULL, &m->schema, &err)) {
    snprintf(m->error, sizeof m->error, "internal error: the runtime document does not load");
    return false;
  }
  const desert_type *tup = m->schema->root;
  const desert_json *defs = desert_json_get(doc, "definitions");
  size_t ndefs = defs ? defs->count : 0;
  m->publics = calloc(ndefs + 1, sizeof *m->publics);
  if (!m->publics) return false;
  /* Public names first, in document order: P_<definition>, then P_root. */
  for (size_t i = 0; i <= ndefs; i++) {
    bool root = i == ndefs;
    const desert_type *ref = tup->u.tuple.elements[root ? 0 : i + 1];
    const char *dname = root ? NULL : ref->name;
    char *mangled = gc_mangle(root ? "root" : dname);
    char *want = mangled ? join(prefix, "_", mangled) : NULL;
    char *path = root ? gc_strdup("$.root") : join("$.definitions.", "", dname);
    const desert_type *body = gc_skip_transparent(root ? ref : ref->u.inner);
    bool is_struct = body && gc_is_struct_kind(body->kind);
    gc_node *n = want && path ? add_node(m, is_struct ? GC_STRUCT : GC_ALIAS,
                                         is_struct ? body : (root ? ref : ref->u.inner), want,
                                         path)
                              : NULL;
    free(mangled);
    free(want);
    free(path);
    if (!n) {
      snprintf(m->error, sizeof m->error, "out of memory");
      return false;
    }
    n->def = dname;
    n->is_root = root;
    m->publics[m->npublic++] = n;
  }
  for (size_t i = 0; i < m->npublic; i++) {
    gc_node *n = m->publics[i];
    if (n->kind == GC_STRUCT && !walk(m, n->t, n, n->name, n->path, 0)) return false;
  }
  if (!check_function_names(m)) return false;
  /* A root that is an anonymous struct is P_root itself (walked above); a
   * root naming a definition or a built-in is an alias. */
  if (!compute_sccs(m)) {
    snprintf(m->error, sizeof m->error, "out of memory");
    return false;
  }
  return true;
}

void gc_model_free(gc_model *m) {
  for (size_t i = 0; i < m->count; i++) {
    gc_node *n = m->nodes[i];
    size_t k = 0;
    if (n->kind == GC_STRUCT && n->t->kind == DESERT_TYPE_RECORD) k = n->t->u.record.field_count;
    if (n->kind == GC_STRUCT && n->t->kind == DESERT_TYPE_ENUM) k = n->t->u.enumeration.count;
    if (n->kind == GC_STRUCT && n->t->kind == DESERT_TYPE_TUPLE) k = n->t->u.tuple.count;
    for (size_t j = 0; j < k; j++) {
      if (n->members) free(n->members[j]);
      if (n->flags) free(n->flags[j]);
    }
    free(n->members);
    free(n->flags);
    free(n->tag_type);
    free(n->name);
    free(n->path);
    free(n);
  }
  free(m->nodes);
  free(m->publics);
  free(m->canonical);
  free(m->runtime_doc);
  free(m->prefix);
  desert_schema_free(m->schema);
  desert_value_arena_free(m->arena);
  gc_scope_free(&m->global);
  memset(m, 0, sizeof *m);
}
