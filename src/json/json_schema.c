/* src/json/json_schema.c — schema documents (docs/schema.md §2) into
 * desert_type graphs: every rejection rule of docs/schema.md §9 with a "$.path: why"
 * message, definitions as REF nodes (any order, recursion allowed), alias
 * cycles through references and transparent wrappers rejected, transient and
 * FieldAdded defaults checked as values of their field's type once the whole
 * graph exists, and the options of docs/schema.md §8.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_internal.h"

/* ---- options (docs/schema.md §8) ------------------------------------------------------------- */

static bool jstr_is(const desert_json *j, const char *s) {
  return j->kind == DESERT_JSON_STRING && j->len == strlen(s) && memcmp(j->str, s, j->len) == 0;
}

bool desert_schema_options_parse(const desert_json *obj, desert_schema_options *o, char *msg,
                                 size_t cap) {
  o->scala_chars = o->legacy_header_strings = o->scala_removed_optional = -1;
  o->zlib_compression = o->strict_tags = o->strict_varint = -1;
  if (!obj || obj->kind != DESERT_JSON_OBJECT) {
    /* The loader calls this with (NULL, 0) only to reset *o: snprintf with a
     * zero size writes nothing and may take a null buffer (C11 7.21.6.5). */
    /* cppcheck-suppress nullPointer */
    snprintf(msg, cap, "options must be an object");
    return false;
  }
  for (size_t i = 0; i < obj->count; i++) {
    const desert_json *k = &obj->members[i].key, *v = &obj->members[i].value;
    int *bslot = NULL;
    if (jstr_is(k, "scala_chars"))
      bslot = &o->scala_chars;
    else if (jstr_is(k, "legacy_header_strings"))
      bslot = &o->legacy_header_strings;
    else if (jstr_is(k, "strict_tags"))
      bslot = &o->strict_tags;
    else if (jstr_is(k, "strict_varint"))
      bslot = &o->strict_varint;
    if (bslot) {
      if (v->kind != DESERT_JSON_BOOL) {
        snprintf(msg, cap, "option %s must be true or false", k->str);
        return false;
      }
      *bslot = v->b;
    } else if (jstr_is(k, "removed_optional_style")) {
      if (jstr_is(v, "rust"))
        o->scala_removed_optional = 0;
      else if (jstr_is(v, "scala"))
        o->scala_removed_optional = 1;
      else {
        snprintf(msg, cap, "option removed_optional_style must be \"rust\" or \"scala\"");
        return false;
      }
    } else if (jstr_is(k, "compression")) {
      if (jstr_is(v, "raw"))
        o->zlib_compression = 0;
      else if (jstr_is(v, "zlib"))
        o->zlib_compression = 1;
      else {
        snprintf(msg, cap, "option compression must be \"raw\" or \"zlib\"");
        return false;
      }
    } else {
      snprintf(msg, cap, "unknown option '%.64s'", k->str);
      return false;
    }
  }
  return true;
}

static int pick(const desert_schema_options *doc, const desert_schema_options *req, size_t off,
                int dflt) {
  int v = -1;
  if (req) memcpy(&v, (const char *)req + off, sizeof v);
  if (v < 0 && doc) memcpy(&v, (const char *)doc + off, sizeof v);
  return v < 0 ? dflt : v;
}

void desert_schema_options_apply(const desert_schema_options *doc, const desert_schema_options *req,
                                 desert_options *out) {
  desert_options_init(out);
#define P(field, d) pick(doc, req, offsetof(desert_schema_options, field), d)
  if (P(scala_chars, 0)) out->flags |= DESERT_OPT_SCALA_CHARS;
  if (P(legacy_header_strings, 0)) out->flags |= DESERT_OPT_LEGACY_HEADER_STRINGS;
  if (P(scala_removed_optional, 0)) out->flags |= DESERT_OPT_SCALA_REMOVED_OPTIONAL;
  if (!P(strict_tags, 1)) out->flags |= DESERT_OPT_LENIENT_TAGS;
  if (!P(strict_varint, 1)) out->flags |= DESERT_OPT_LENIENT_VARINT;
  out->compression = P(zlib_compression, 0) ? DESERT_COMPRESSION_ZLIB : DESERT_COMPRESSION_RAW;
#undef P
}

/* ---- the loader ----------------------------------------------------------------------------- */

typedef struct pending {
  const desert_value **slot; /* where the converted default goes */
  const desert_type *type;
  bool optional;
  const desert_json *json;
  const char *path;
} pending;

typedef struct loader {
  desert_type_set *set;
  desert_json_error *err;
  size_t plen;
  char path[512];
  const desert_json *defs; /* the "definitions" object or NULL */
  desert_type **def_refs;  /* one REF node per definition */
  pending *pend;
  size_t npend, cappend;
  unsigned depth;
} loader;

static size_t lpush(loader *L, const char *sep, const char *s, size_t n) {
  size_t old = L->plen;
  size_t room = sizeof L->path - L->plen - 1;
  size_t a = strlen(sep);
  if (a + n <= room) {
    memcpy(L->path + L->plen, sep, a);
    memcpy(L->path + L->plen + a, s, n);
    L->plen += a + n;
  }
  L->path[L->plen] = '\0';
  return old;
}
static size_t lpush_key(loader *L, const char *k) { return lpush(L, ".", k, strlen(k)); }
static size_t lpush_index(loader *L, size_t i) {
  char tmp[32];
  int n = snprintf(tmp, sizeof tmp, "[%zu]", i);
  return lpush(L, "", tmp, (size_t)n);
}
static void lpop(loader *L, size_t old) {
  L->plen = old;
  L->path[old] = '\0';
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static desert_type *
lfail(loader *L, const char *fmt, ...) {
  desert_json_error *e = L->err;
  if (e->kind == DESERT_JSON_ERR_NONE) {
    char tmp[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    e->kind = DESERT_JSON_ERR_BAD_SCHEMA;
    e->status = DESERT_E_ARGUMENT;
    snprintf(e->message, sizeof e->message, "%.200s: %.300s", L->path, tmp);
  }
  return NULL;
}

static desert_type *nomem(loader *L) { return lfail(L, "out of memory"); }

static const char *const composite_names[] = {"list", "set",   "map",    "option", "either",
                                              "try",  "tuple", "record", "enum",   "transparent"};
#define N_COMPOSITE (sizeof composite_names / sizeof composite_names[0])

static desert_type_kind builtin_kind(const desert_json *s) {
  if (s->kind != DESERT_JSON_STRING || s->lone) return (desert_type_kind)0;
  for (unsigned k = DESERT_TYPE_BOOL; k < DESERT_TYPE_LIST; k++) {
    const char *n = desert_type_kind_name((desert_type_kind)k);
    if (n && strlen(n) == s->len && memcmp(n, s->str, s->len) == 0) return (desert_type_kind)k;
  }
  return (desert_type_kind)0;
}

static desert_type_kind composite_kind(const desert_json *s) {
  static const desert_type_kind kinds[N_COMPOSITE] = {
      DESERT_TYPE_LIST,   DESERT_TYPE_SET,        DESERT_TYPE_MAP,   DESERT_TYPE_OPTION,
      DESERT_TYPE_EITHER, DESERT_TYPE_TRY,        DESERT_TYPE_TUPLE, DESERT_TYPE_RECORD,
      DESERT_TYPE_ENUM,   DESERT_TYPE_TRANSPARENT};
  if (s->kind != DESERT_JSON_STRING || s->lone) return (desert_type_kind)0;
  for (size_t i = 0; i < N_COMPOSITE; i++)
    if (jstr_is(s, composite_names[i])) return kinds[i];
  return (desert_type_kind)0;
}

/* Index of the definition named s, or SIZE_MAX. */
static size_t def_index(loader *L, const desert_json *s) {
  if (!L->defs || s->kind != DESERT_JSON_STRING || s->lone) return SIZE_MAX;
  for (size_t i = 0; i < L->defs->count; i++) {
    const desert_json *k = &L->defs->members[i].key;
    if (k->len == s->len && memcmp(k->str, s->str, s->len) == 0) return i;
  }
  return SIZE_MAX;
}

/* First key of obj not in allowed[0..n) (NULL: none). */
static const desert_json *unknown_key(const desert_json *obj, const char *const *allowed,
                                      size_t n) {
  for (size_t i = 0; i < obj->count; i++) {
    bool ok = false;
    for (size_t k = 0; k < n && !ok; k++) ok = jstr_is(&obj->members[i].key, allowed[k]);
    if (!ok) return &obj->members[i].key;
  }
  return NULL;
}

#define CHECK_KEYS(L, obj, ...)                                                                 \
  do {                                                                                          \
    static const char *const allowed_[] = {__VA_ARGS__};                                        \
    const desert_json *bad_ = unknown_key((obj), allowed_, sizeof allowed_ / sizeof *allowed_); \
    if (bad_) return lfail((L), "unknown key '%.64s'", bad_->str);                              \
  } while (0)

/* Every name of the document (definition, record, enum, transparent,
 * field, step field, constructor) is copied here. A name holding U+0000
 * makes the document BadSchema (docs/schema.md §9): the C interfaces take
 * names as NUL-terminated strings, so it would be cut at the NUL -- and
 * neither reference library can declare such a name. NULL after lfail
 * (which keeps this first message over the callers' nomem). */
static const char *name_copy(loader *L, const desert_json *s) {
  if (s->len && memchr(s->str, 0, s->len)) {
    lfail(L, "the name '%.64s...' contains U+0000", s->str);
    return NULL;
  }
  return desert_type_set_strdup(L->set, s->str, s->len);
}

static bool valid_name(const desert_json *s) {
  return s && s->kind == DESERT_JSON_STRING && !s->lone && s->len > 0;
}

static const desert_type *parse_type(loader *L, const desert_json *j, const char *def_name);

/* A required sub-type at key `key` of obj. */
static const desert_type *sub_type(loader *L, const desert_json *obj, const char *key) {
  const desert_json *v = desert_json_get(obj, key);
  if (!v) return lfail(L, "missing '%s'", key);
  size_t old = lpush_key(L, key);
  const desert_type *t = parse_type(L, v, NULL);
  if (t) lpop(L, old);
  return t;
}

static bool opt_bool(loader *L, const desert_json *obj, const char *key, bool *out) {
  const desert_json *v = desert_json_get(obj, key);
  if (!v) return true;
  if (v->kind != DESERT_JSON_BOOL) {
    lfail(L, "'%s' must be true or false", key);
    return false;
  }
  *out = v->b;
  return true;
}

/* Optional integer in [lo, hi]. */
static bool opt_int(loader *L, const desert_json *obj, const char *key, long long lo, long long hi,
                    bool *present, long long *out) {
  const desert_json *v = desert_json_get(obj, key);
  *present = v != NULL;
  if (!v) return true;
  bool ok = v->kind == DESERT_JSON_NUMBER && v->integer && v->len <= 12;
  long long x = ok ? strtoll(v->str, NULL, 10) : 0;
  if (!ok || x < lo || x > hi) {
    lfail(L, "'%s' must be an integer in %lld...%lld", key, lo, hi);
    return false;
  }
  *out = x;
  return true;
}

static bool parse_form(loader *L, const desert_json *obj, desert_type *t) {
  const desert_json *v = desert_json_get(obj, "form");
  if (v) {
    if (jstr_is(v, "known"))
      t->u.coll.unknown_form = false;
    else if (jstr_is(v, "unknown"))
      t->u.coll.unknown_form = true;
    else {
      lfail(L, "'form' must be \"known\" or \"unknown\"");
      return false;
    }
  }
  return opt_bool(L, obj, "non_empty", &t->u.coll.non_empty);
}

static bool add_pending(loader *L, const desert_value **slot, const desert_type *type,
                        bool optional, const desert_json *json, const char *what) {
  if (L->npend == L->cappend) {
    size_t ncap = L->cappend ? L->cappend * 2 : 16;
    pending *n = realloc(L->pend, ncap * sizeof *n);
    if (!n) {
      nomem(L);
      return false;
    }
    L->pend = n;
    L->cappend = ncap;
  }
  char tmp[600];
  int k = snprintf(tmp, sizeof tmp, "%s%s", L->path, what);
  const char *path = desert_type_set_strdup(L->set, tmp, k < 0 ? 0 : (size_t)k);
  if (!path) {
    nomem(L);
    return false;
  }
  pending *p = &L->pend[L->npend++];
  p->slot = slot;
  p->type = type;
  p->optional = optional;
  p->json = json;
  p->path = path;
  return true;
}

/* The fields (and evolution) of a record or of an enum constructor's inline
 * record (where "fields" may be left out: no fields). */
static const desert_type *parse_record_body(loader *L, const desert_json *obj, const char *name,
                                            bool fields_required) {
  static const desert_json no_fields = {
      DESERT_JSON_ARRAY, false, false, false, NULL, 0, 0, NULL, NULL};
  desert_type *t = desert_type_set_new(L->set, DESERT_TYPE_RECORD);
  if (!t) return nomem(L);
  t->name = name;
  const desert_json *fj = desert_json_get(obj, "fields");
  if (!fj && fields_required) return lfail(L, "missing 'fields'");
  if (!fj) fj = &no_fields;
  if (fj->kind != DESERT_JSON_ARRAY) return lfail(L, "'fields' must be an array");
  const size_t nf = fj->count;
  desert_type_field *fields =
      desert_type_set_alloc(L->set, (nf ? nf : 1) * sizeof *fields, _Alignof(desert_type_field));
  if (!fields) return nomem(L);
  size_t old = lpush_key(L, "fields");
  for (size_t i = 0; i < nf; i++) {
    const desert_json *f = &fj->items[i];
    size_t o2 = lpush_index(L, i);
    if (f->kind != DESERT_JSON_OBJECT) return lfail(L, "a field is an object");
    CHECK_KEYS(L, f, "name", "type", "optional", "transient", "default");
    const desert_json *nm = desert_json_get(f, "name");
    if (!nm) return lfail(L, "a field needs a \"name\"");
    if (!valid_name(nm)) return lfail(L, "a field name is a non-empty string");
    if (nm->str[0] == '$') return lfail(L, "field name '%.64s' starts with '$'", nm->str);
    for (size_t k = 0; k < i; k++)
      if (strlen(fields[k].name) == nm->len && memcmp(fields[k].name, nm->str, nm->len) == 0)
        return lfail(L, "duplicate field name '%.64s'", nm->str);
    fields[i].name = name_copy(L, nm);
    if (!fields[i].name) return nomem(L);
    const desert_json *ty = desert_json_get(f, "type");
    if (!ty) return lfail(L, "a field needs a \"type\"");
    bool optional = false, transient = false;
    if (!opt_bool(L, f, "optional", &optional) || !opt_bool(L, f, "transient", &transient))
      return NULL;
    if (!optional && ty->kind == DESERT_JSON_OBJECT) {
      const desert_json *tk = desert_json_get(ty, "type");
      if (tk && jstr_is(tk, "option"))
        return lfail(L, "an Option field is written with \"optional\": true");
    }
    size_t o3 = lpush_key(L, "type");
    fields[i].type = parse_type(L, ty, NULL);
    if (!fields[i].type) return NULL;
    lpop(L, o3);
    fields[i].flags =
        (optional ? DESERT_FIELD_OPTIONAL : 0u) | (transient ? DESERT_FIELD_TRANSIENT : 0u);
    const desert_json *dv = desert_json_get(f, "default");
    if (transient && !dv) return lfail(L, "a transient field needs a \"default\"");
    if (!transient && dv)
      return lfail(L, "only transient fields have a default here (FieldAdded carries its own)");
    if (transient &&
        !add_pending(L, &fields[i].transient_default, fields[i].type, optional, dv, ".default"))
      return NULL;
    lpop(L, o2);
  }
  lpop(L, old);
  t->u.record.fields = fields;
  t->u.record.field_count = nf;

  const desert_json *ej = desert_json_get(obj, "evolution");
  if (ej) {
    if (ej->kind != DESERT_JSON_ARRAY) return lfail(L, "'evolution' must be an array");
    if (ej->count > 127) return lfail(L, "more than 127 evolution steps");
    const size_t ns = ej->count;
    desert_type_step *steps =
        desert_type_set_alloc(L->set, (ns ? ns : 1) * sizeof *steps, _Alignof(desert_type_step));
    if (!steps) return nomem(L);
    old = lpush_key(L, "evolution");
    for (size_t k = 0; k < ns; k++) {
      const desert_json *s = &ej->items[k];
      size_t o2 = lpush_index(L, k);
      if (s->kind != DESERT_JSON_OBJECT) return lfail(L, "an evolution step is an object");
      CHECK_KEYS(L, s, "step", "field", "default");
      const desert_json *sk = desert_json_get(s, "step");
      if (!sk) return lfail(L, "missing 'step'");
      if (jstr_is(sk, "FieldAdded"))
        steps[k].kind = DESERT_STEP_FIELD_ADDED;
      else if (jstr_is(sk, "FieldMadeOptional"))
        steps[k].kind = DESERT_STEP_FIELD_MADE_OPTIONAL;
      else if (jstr_is(sk, "FieldRemoved"))
        steps[k].kind = DESERT_STEP_FIELD_REMOVED;
      else if (jstr_is(sk, "FieldMadeTransient"))
        steps[k].kind = DESERT_STEP_FIELD_MADE_TRANSIENT;
      else
        return lfail(L, "unknown evolution step");
      const desert_json *fn = desert_json_get(s, "field");
      if (!valid_name(fn)) return lfail(L, "a step needs a non-empty \"field\"");
      steps[k].field = name_copy(L, fn);
      if (!steps[k].field) return nomem(L);
      const desert_json *dv = desert_json_get(s, "default");
      if (dv && steps[k].kind != DESERT_STEP_FIELD_ADDED)
        return lfail(L, "only FieldAdded steps have a default");
      if (dv) {
        for (size_t i = 0; i < nf; i++) {
          if (strcmp(fields[i].name, steps[k].field) != 0) continue;
          char what[160];
          snprintf(what, sizeof what, ".FieldAdded(%.64s).default", steps[k].field);
          /* Messages name the record, as in "$.root.FieldAdded(a).default". */
          size_t here = L->plen;
          char saved = L->path[old];
          L->path[old] = '\0';
          L->plen = old;
          bool ok = add_pending(L, &steps[k].default_value, fields[i].type,
                                (fields[i].flags & DESERT_FIELD_OPTIONAL) != 0, dv, what);
          L->path[old] = saved;
          L->plen = here;
          if (!ok) return NULL;
          break;
        }
      }
      lpop(L, o2);
    }
    lpop(L, old);
    t->u.record.steps = steps;
    t->u.record.step_count = ns;
  }
  return t;
}

static const desert_type *parse_record(loader *L, const desert_json *obj, const char *def_name) {
  CHECK_KEYS(L, obj, "type", "fields", "evolution", "name");
  const char *name = def_name;
  const desert_json *nm = desert_json_get(obj, "name");
  if (nm) {
    if (nm->kind != DESERT_JSON_STRING || nm->lone) return lfail(L, "'name' must be a string");
    name = name_copy(L, nm);
    if (!name) return nomem(L);
  }
  return parse_record_body(L, obj, name, true);
}

static const desert_type *parse_enum(loader *L, const desert_json *obj, const char *def_name) {
  CHECK_KEYS(L, obj, "type", "constructors", "order", "name");
  desert_type *t = desert_type_set_new(L->set, DESERT_TYPE_ENUM);
  if (!t) return nomem(L);
  t->name = def_name;
  const desert_json *nm = desert_json_get(obj, "name");
  if (nm) {
    if (nm->kind != DESERT_JSON_STRING || nm->lone) return lfail(L, "'name' must be a string");
    t->name = name_copy(L, nm);
    if (!t->name) return nomem(L);
  }
  const desert_json *ord = desert_json_get(obj, "order");
  if (ord) {
    if (jstr_is(ord, "sorted"))
      t->u.enumeration.sorted = true;
    else if (!jstr_is(ord, "declaration"))
      return lfail(L, "'order' must be \"declaration\" or \"sorted\"");
  }
  const desert_json *cj = desert_json_get(obj, "constructors");
  if (!cj) return lfail(L, "missing 'constructors'");
  if (cj->kind != DESERT_JSON_ARRAY) return lfail(L, "'constructors' must be an array");
  if (cj->count == 0) return lfail(L, "an enum needs at least one constructor");
  const size_t n = cj->count;
  desert_type_ctor *ctors =
      desert_type_set_alloc(L->set, n * sizeof *ctors, _Alignof(desert_type_ctor));
  if (!ctors) return nomem(L);
  size_t old = lpush_key(L, "constructors");
  for (size_t i = 0; i < n; i++) {
    const desert_json *c = &cj->items[i];
    size_t o2 = lpush_index(L, i);
    if (c->kind != DESERT_JSON_OBJECT) return lfail(L, "a constructor is an object");
    CHECK_KEYS(L, c, "name", "fields", "evolution", "type", "transient");
    const desert_json *cn = desert_json_get(c, "name");
    if (!valid_name(cn)) return lfail(L, "a constructor needs a non-empty \"name\"");
    for (size_t k = 0; k < i; k++)
      if (strlen(ctors[k].name) == cn->len && memcmp(ctors[k].name, cn->str, cn->len) == 0)
        return lfail(L, "duplicate constructor name '%.64s'", cn->str);
    ctors[i].name = name_copy(L, cn);
    if (!ctors[i].name) return nomem(L);
    bool transient = false;
    if (!opt_bool(L, c, "transient", &transient)) return NULL;
    ctors[i].transient = transient;
    const desert_json *ty = desert_json_get(c, "type");
    const desert_json *fl = desert_json_get(c, "fields");
    const desert_json *ev = desert_json_get(c, "evolution");
    if (ty && (fl || ev)) return lfail(L, "a constructor has either \"type\" or \"fields\"");
    if (transient) {
      /* No id, never written or read: its payload keys are ignored. */
      ctors[i].payload = NULL;
    } else if (ty) {
      size_t o3 = lpush_key(L, "type");
      ctors[i].payload = parse_type(L, ty, NULL);
      if (!ctors[i].payload) return NULL;
      lpop(L, o3);
    } else if (fl || ev) {
      ctors[i].payload = parse_record_body(L, c, ctors[i].name, false);
      if (!ctors[i].payload) return NULL;
    } else {
      desert_type *e = desert_type_set_new(L->set, DESERT_TYPE_RECORD);
      if (!e) return nomem(L);
      e->name = ctors[i].name;
      ctors[i].payload = e;
    }
    lpop(L, o2);
  }
  lpop(L, old);
  t->u.enumeration.ctors = ctors;
  t->u.enumeration.count = n;
  return t;
}

static const desert_type *parse_object_type(loader *L, const desert_json *obj,
                                            const char *def_name) {
  const desert_json *tk = desert_json_get(obj, "type");
  if (!tk || tk->kind != DESERT_JSON_STRING)
    return lfail(L, "a type is a name or an object with a \"type\" key");
  desert_type_kind bk = builtin_kind(tk);
  if (bk) {
    if (bk == DESERT_TYPE_BYTES) {
      CHECK_KEYS(L, obj, "type", "non_empty", "length");
      bool ne = false, has_len;
      long long len = 0;
      if (!opt_bool(L, obj, "non_empty", &ne) ||
          !opt_int(L, obj, "length", 0, 2147483647LL, &has_len, &len))
        return NULL;
      if (!ne && !has_len) return desert_type_builtin(bk);
      desert_type *t = desert_type_set_new(L->set, bk);
      if (!t) return nomem(L);
      t->u.bytes.non_empty = ne;
      t->u.bytes.has_length = has_len;
      t->u.bytes.length = (uint32_t)len;
      return t;
    }
    if (bk == DESERT_TYPE_COMPRESSED) {
      CHECK_KEYS(L, obj, "type", "flavour", "level");
      desert_type *t = desert_type_set_new(L->set, bk);
      if (!t) return nomem(L);
      const desert_json *fv = desert_json_get(obj, "flavour");
      if (fv) {
        if (jstr_is(fv, "raw"))
          t->u.compressed.flavour = DESERT_COMPRESSION_RAW;
        else if (jstr_is(fv, "zlib"))
          t->u.compressed.flavour = DESERT_COMPRESSION_ZLIB;
        else
          return lfail(L, "'flavour' must be \"raw\" or \"zlib\"");
      }
      bool has;
      long long lv = -1;
      if (!opt_int(L, obj, "level", 0, 9, &has, &lv)) return NULL;
      t->u.compressed.level = has ? (int)lv : -1;
      return t;
    }
    CHECK_KEYS(L, obj, "type");
    return desert_type_builtin(bk);
  }
  desert_type_kind ck = composite_kind(tk);
  if (!ck) {
    if (def_index(L, tk) != SIZE_MAX)
      return lfail(L, "the object form cannot name a definition (write \"%.64s\")", tk->str);
    return lfail(L, "unknown type name '%.64s'", tk->str);
  }
  desert_type *t;
  switch (ck) {
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP: {
    if (ck == DESERT_TYPE_LIST)
      CHECK_KEYS(L, obj, "type", "element", "form", "non_empty", "length");
    else if (ck == DESERT_TYPE_SET)
      CHECK_KEYS(L, obj, "type", "element", "form", "non_empty");
    else
      CHECK_KEYS(L, obj, "type", "key", "value", "form", "non_empty");
    t = desert_type_set_new(L->set, ck);
    if (!t) return nomem(L);
    if (!parse_form(L, obj, t)) return NULL;
    if (ck == DESERT_TYPE_LIST) {
      bool has;
      long long len = 0;
      if (!opt_int(L, obj, "length", 0, 2147483647LL, &has, &len)) return NULL;
      t->u.coll.has_length = has;
      t->u.coll.length = (uint32_t)len;
    }
    if (ck == DESERT_TYPE_MAP) {
      if (!(t->u.coll.element = sub_type(L, obj, "key"))) return NULL;
      if (!(t->u.coll.value = sub_type(L, obj, "value"))) return NULL;
    } else if (!(t->u.coll.element = sub_type(L, obj, "element"))) {
      return NULL;
    }
    return t;
  }
  case DESERT_TYPE_OPTION:
    CHECK_KEYS(L, obj, "type", "inner");
    t = desert_type_set_new(L->set, ck);
    if (!t) return nomem(L);
    if (!(t->u.inner = sub_type(L, obj, "inner"))) return NULL;
    return t;
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY: {
    const char *a = ck == DESERT_TYPE_EITHER ? "left" : "failure";
    const char *b = ck == DESERT_TYPE_EITHER ? "right" : "success";
    if (ck == DESERT_TYPE_EITHER)
      CHECK_KEYS(L, obj, "type", "left", "right");
    else
      CHECK_KEYS(L, obj, "type", "success", "failure");
    t = desert_type_set_new(L->set, ck);
    if (!t) return nomem(L);
    if (ck == DESERT_TYPE_EITHER) {
      if (!(t->u.alt.left = sub_type(L, obj, a))) return NULL;
      if (!(t->u.alt.right = sub_type(L, obj, b))) return NULL;
    } else {
      if (!(t->u.alt.right = sub_type(L, obj, b))) return NULL;
      if (!(t->u.alt.left = sub_type(L, obj, a))) return NULL;
    }
    return t;
  }
  case DESERT_TYPE_TUPLE: {
    CHECK_KEYS(L, obj, "type", "elements");
    const desert_json *el = desert_json_get(obj, "elements");
    if (!el) return lfail(L, "missing 'elements'");
    if (el->kind != DESERT_JSON_ARRAY || el->count == 0)
      return lfail(L, "'elements' must be a non-empty array of types");
    t = desert_type_set_new(L->set, ck);
    if (!t) return nomem(L);
    const desert_type **els =
        desert_type_set_alloc(L->set, el->count * sizeof *els, _Alignof(desert_type *));
    if (!els) return nomem(L);
    size_t old = lpush_key(L, "elements");
    for (size_t i = 0; i < el->count; i++) {
      size_t o2 = lpush_index(L, i);
      if (!(els[i] = parse_type(L, &el->items[i], NULL))) return NULL;
      lpop(L, o2);
    }
    lpop(L, old);
    t->u.tuple.elements = els;
    t->u.tuple.count = el->count;
    return t;
  }
  case DESERT_TYPE_RECORD:
    return parse_record(L, obj, def_name);
  case DESERT_TYPE_ENUM:
    return parse_enum(L, obj, def_name);
  case DESERT_TYPE_TRANSPARENT: {
    CHECK_KEYS(L, obj, "type", "inner", "name");
    t = desert_type_set_new(L->set, ck);
    if (!t) return nomem(L);
    t->name = def_name;
    const desert_json *nm = desert_json_get(obj, "name");
    if (nm) {
      if (nm->kind != DESERT_JSON_STRING || nm->lone) return lfail(L, "'name' must be a string");
      t->name = name_copy(L, nm);
      if (!t->name) return nomem(L);
    }
    if (!(t->u.inner = sub_type(L, obj, "inner"))) return NULL;
    return t;
  }
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_REF: case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  return lfail(L, "unsupported type");
}

static const desert_type *parse_type(loader *L, const desert_json *j, const char *def_name) {
  if (L->depth > DESERT_JSON_MAX_DEPTH) return lfail(L, "type nested too deeply");
  if (j->kind == DESERT_JSON_STRING) {
    desert_type_kind bk = builtin_kind(j);
    if (bk) return desert_type_builtin(bk);
    if (composite_kind(j))
      return lfail(L, "'%.64s' needs the object form {\"type\": \"%.64s\", ...}", j->str, j->str);
    size_t di = def_index(L, j);
    if (di == SIZE_MAX) return lfail(L, "unknown type name '%.64s'", j->str);
    return L->def_refs[di];
  }
  if (j->kind != DESERT_JSON_OBJECT)
    return lfail(L, "a type is a name or an object with a \"type\" key");
  L->depth++;
  const desert_type *t = parse_object_type(L, j, def_name);
  L->depth--;
  return t;
}

/* ---- the document -----------------------------------------------------------------------------
 */

void desert_schema_free(desert_schema *s) {
  if (!s) return;
  desert_type_set_free(s->set);
  free(s);
}

static bool load(loader *L, const desert_json *doc, desert_schema *s) {
  snprintf(L->path, sizeof L->path, "$");
  L->plen = 1;
  if (doc->kind != DESERT_JSON_OBJECT) return lfail(L, "a schema document is an object") != NULL;
  {
    static const char *const allowed[] = {"desert_schema", "options", "definitions", "root"};
    const desert_json *bad = unknown_key(doc, allowed, 4);
    if (bad) return lfail(L, "unknown key '%.64s'", bad->str) != NULL;
  }
  const desert_json *ver = desert_json_get(doc, "desert_schema");
  if (!ver) return lfail(L, "missing 'desert_schema'") != NULL;
  if (ver->kind != DESERT_JSON_NUMBER || !ver->integer || strcmp(ver->str, "1") != 0)
    return lfail(L, "'desert_schema' must be the integer 1") != NULL;
  const desert_json *root = desert_json_get(doc, "root");
  if (!root) return lfail(L, "missing 'root'") != NULL;
  const desert_json *opts = desert_json_get(doc, "options");
  if (opts) {
    char msg[256];
    size_t old = lpush_key(L, "options");
    if (!desert_schema_options_parse(opts, &s->options, msg, sizeof msg))
      return lfail(L, "%s", msg) != NULL;
    lpop(L, old);
  } else {
    desert_schema_options_parse(NULL, &s->options, NULL, 0);
  }
  const desert_json *defs = desert_json_get(doc, "definitions");
  if (defs) {
    if (defs->kind != DESERT_JSON_OBJECT)
      return lfail(L, "'definitions' must be an object") != NULL;
    L->defs = defs;
    L->def_refs = desert_type_set_alloc(
        L->set, (defs->count ? defs->count : 1) * sizeof *L->def_refs, _Alignof(desert_type *));
    if (!L->def_refs) return nomem(L) != NULL;
    size_t old = lpush_key(L, "definitions");
    for (size_t i = 0; i < defs->count; i++) {
      const desert_json *k = &defs->members[i].key;
      size_t o2 = lpush(L, ".", k->str, k->len);
      if (!valid_name(k)) return lfail(L, "a definition name is a non-empty string") != NULL;
      if (builtin_kind(k) || composite_kind(k))
        return lfail(L, "'%.64s' is a built-in name", k->str) != NULL;
      desert_type *ref = desert_type_set_new(L->set, DESERT_TYPE_REF);
      if (!ref) return nomem(L) != NULL;
      ref->name = name_copy(L, k);
      if (!ref->name) return nomem(L) != NULL;
      L->def_refs[i] = ref;
      lpop(L, o2);
    }
    for (size_t i = 0; i < defs->count; i++) {
      const desert_json *k = &defs->members[i].key;
      size_t o2 = lpush(L, ".", k->str, k->len);
      const desert_type *body = parse_type(L, &defs->members[i].value, L->def_refs[i]->name);
      if (!body) return false;
      L->def_refs[i]->u.inner = body;
      lpop(L, o2);
    }
    /* Alias cycles: a definition leading back to itself through references
     * and transparent wrappers only (docs/schema.md §7). */
    for (size_t i = 0; i < defs->count; i++) {
      const desert_type *start = L->def_refs[i];
      const desert_type *p = start->u.inner;
      size_t steps = 0, limit = defs->count + 1;
      while (p && (p->kind == DESERT_TYPE_REF || p->kind == DESERT_TYPE_TRANSPARENT)) {
        if (p == start || steps > 4 * limit + 16) {
          const desert_json *k = &defs->members[i].key;
          size_t o2 = lpush(L, ".", k->str, k->len);
          (void)o2;
          return lfail(L, "alias cycle through '%.64s'", k->str) != NULL;
        }
        if (p->kind == DESERT_TYPE_REF) steps++;
        p = p->u.inner;
      }
    }
    lpop(L, old);
  }
  size_t old = lpush_key(L, "root");
  s->root = parse_type(L, root, NULL);
  if (!s->root) return false;
  lpop(L, old);
  /* Defaults, now that every type exists. */
  for (size_t i = 0; i < L->npend; i++) {
    pending *p = &L->pend[i];
    desert_json_error verr;
    desert_value *v;
    if (desert_json_to_value_opt(p->type, p->optional, p->json, desert_type_set_arena(L->set), &v,
                                 &verr, p->path)) {
      lfail(L, "default is not a valid value: %s: %s", desert_json_error_kind_name(&verr),
            verr.message);
      return false;
    }
    *p->slot = v;
  }
  char msg[256];
  if (desert_type_set_seal(L->set, msg, sizeof msg)) return lfail(L, "%s", msg) != NULL;
  return true;
}

desert_status desert_schema_load(const desert_json *doc, const desert_allocator *alloc,
                                 desert_schema **out, desert_json_error *err) {
  desert_json_error local;
  if (!err) err = &local;
  err->kind = DESERT_JSON_ERR_NONE;
  err->status = DESERT_OK;
  err->has_offset = false;
  err->message[0] = '\0';
  if (!doc || !out) return DESERT_E_ARGUMENT;
  *out = NULL;
  desert_schema *s = calloc(1, sizeof *s);
  if (!s) return DESERT_E_NOMEM;
  if (desert_type_set_create(alloc, &s->set)) {
    free(s);
    return DESERT_E_NOMEM;
  }
  loader L;
  memset(&L, 0, sizeof L);
  L.set = s->set;
  L.err = err;
  bool ok = load(&L, doc, s);
  free(L.pend);
  if (!ok) {
    if (err->kind == DESERT_JSON_ERR_NONE) {
      err->kind = DESERT_JSON_ERR_BAD_SCHEMA;
      snprintf(err->message, sizeof err->message, "invalid schema");
    }
    desert_schema_free(s);
    return DESERT_E_ARGUMENT;
  }
  *out = s;
  return DESERT_OK;
}
