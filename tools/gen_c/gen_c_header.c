/* tools/gen_c/gen_c_header.c — emits P.h of `desert gen-c`: the C types of
 * one schema document (tag enums, forward typedefs, aliases, then struct
 * definitions in dependency order so every member's type is complete) and
 * the prototypes of the generated functions. The header compiles as C11 and
 * as C++ (anonymous unions only, extern "C").
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_c.h"
#include "gen_c_emit.h"

const char *gc_public_suffix(const gc_model *m, const gc_node *n) {
  return n->name + strlen(m->prefix) + 1;
}

static void comment(gc_buf *b, const gc_node *n) {
  const char *what = n->kind == GC_ENTRY ? "map entry" : desert_type_kind_name(n->t->kind);
  if (n->kind == GC_ALIAS) what = "alias";
  gc_printf(b, "\n/* %s", n->path);
  if (n->kind == GC_ENTRY) gc_printf(b, " (entries)");
  gc_printf(b, ": %s", what ? what : "type");
  if (n->def) gc_printf(b, ", definition '%s'", n->def);
  if (n->is_root) gc_printf(b, ", the root");
  gc_printf(b, " */\n");
}

/* A member declaration: "T name" or "struct TAG *name" for recursion. */
void gc_member_decl(const gc_model *m, gc_buf *b, const gc_node *owner, const desert_type *t,
                    const char *name) {
  if (owner && gc_model_is_pointer(m, owner, t)) {
    gc_printf(b, "struct %s *%s", gc_model_struct_of(m, t)->name, name);
  } else {
    gc_printf(b, "%s %s", gc_model_ctype(m, t), name);
  }
}

static void emit_tag_enum(const gc_model *m, gc_buf *b, const gc_node *n) {
  (void)m;
  const desert_type *t = n->t;
  gc_printf(b, "\n/* %s: the cases of %s (declaration index; not the wire id) */\n", n->path,
            n->name);
  gc_printf(b, "typedef enum %s {\n", n->tag_type);
  for (size_t i = 0; i < t->u.enumeration.count; i++) {
    const desert_type_ctor *c = &t->u.enumeration.ctors[i];
    gc_printf(b, "  %s = %zu%s%s\n", n->flags[i], i, i + 1 < t->u.enumeration.count ? "," : "",
              c->transient ? " /* transient: never written */" : "");
  }
  gc_printf(b, "} %s;\n", n->tag_type);
}

static void emit_struct(const gc_model *m, gc_buf *b, const gc_node *n) {
  comment(b, n);
  const desert_type *t = n->t;
  gc_printf(b, "struct %s {\n", n->name);
  if (n->kind == GC_ENTRY) {
    gc_printf(b, "  ");
    gc_member_decl(m, b, n, t->u.coll.element, "key");
    gc_printf(b, ";\n  ");
    gc_member_decl(m, b, n, t->u.coll.value, "value");
    gc_printf(b, ";\n};\n");
    return;
  }
  switch (t->kind) {
  case DESERT_TYPE_RECORD:
    if (t->u.record.field_count == 0) gc_printf(b, "  uint8_t unused_; /* no fields */\n");
    for (size_t i = 0; i < t->u.record.field_count; i++) {
      const desert_type_field *f = &t->u.record.fields[i];
      if (n->flags[i]) gc_printf(b, "  bool %s;\n", n->flags[i]);
      gc_printf(b, "  ");
      gc_member_decl(m, b, n, f->type, n->members[i]);
      gc_printf(b, ";");
      if (f->flags & DESERT_FIELD_TRANSIENT) gc_printf(b, " /* transient: not written */");
      if (strcmp(f->name, n->members[i]) != 0) gc_printf(b, " /* field \"%s\" */", f->name);
      gc_printf(b, "\n");
    }
    break;
  case DESERT_TYPE_ENUM: {
    gc_printf(b, "  %s tag;\n", n->tag_type);
    bool any = false;
    for (size_t i = 0; i < t->u.enumeration.count; i++)
      any = any || gc_enum_case_has_member(&t->u.enumeration.ctors[i]);
    if (any) {
      gc_printf(b, "  union {\n");
      for (size_t i = 0; i < t->u.enumeration.count; i++) {
        const desert_type_ctor *c = &t->u.enumeration.ctors[i];
        if (!gc_enum_case_has_member(c)) continue;
        gc_printf(b, "    ");
        gc_member_decl(m, b, n, c->payload, n->members[i]);
        gc_printf(b, ";\n");
      }
      gc_printf(b, "  };\n");
    }
    break;
  }
  case DESERT_TYPE_TUPLE:
    for (size_t i = 0; i < t->u.tuple.count; i++) {
      gc_printf(b, "  ");
      gc_member_decl(m, b, n, t->u.tuple.elements[i], n->members[i]);
      gc_printf(b, ";\n");
    }
    break;
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
    gc_printf(b, "  %s *items;\n  size_t count;\n", gc_model_ctype(m, t->u.coll.element));
    break;
  case DESERT_TYPE_MAP:
    gc_printf(b, "  %s *items; /* in wire order, duplicates kept */\n  size_t count;\n",
              n->entry->name);
    break;
  case DESERT_TYPE_OPTION:
    gc_printf(b, "  bool has_value;\n  ");
    gc_member_decl(m, b, n, t->u.inner, "value");
    gc_printf(b, ";\n");
    break;
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY: {
    bool e = t->kind == DESERT_TYPE_EITHER;
    gc_printf(b, "  bool %s;\n  union {\n    ", e ? "is_right" : "is_success");
    gc_member_decl(m, b, n, t->u.alt.left, e ? "left" : "failure");
    gc_printf(b, ";\n    ");
    gc_member_decl(m, b, n, t->u.alt.right, e ? "right" : "success");
    gc_printf(b, ";\n  };\n");
    break;
  }
  DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF:
  case DESERT_TYPE_KIND_COUNT_:
    break;
  }
  gc_printf(b, "};\n");
}

/* Calls fn for every type a node's struct holds by value (not through a
 * pointer): those structs must be defined first. */
static void each_by_value(const gc_model *m, const gc_node *n,
                          void (*fn)(const gc_model *, const desert_type *, void *), void *ctx) {
  const desert_type *t = n->t;
  const desert_type *list[3] = {NULL, NULL, NULL};
  if (n->kind == GC_ENTRY) {
    list[0] = t->u.coll.element;
    list[1] = t->u.coll.value;
  } else if (t->kind == DESERT_TYPE_OPTION) {
    list[0] = t->u.inner;
  } else if (t->kind == DESERT_TYPE_EITHER || t->kind == DESERT_TYPE_TRY) {
    list[0] = t->u.alt.left;
    list[1] = t->u.alt.right;
  } else if (t->kind == DESERT_TYPE_RECORD) {
    for (size_t i = 0; i < t->u.record.field_count; i++)
      if (!gc_model_is_pointer(m, n, t->u.record.fields[i].type))
        fn(m, t->u.record.fields[i].type, ctx);
  } else if (t->kind == DESERT_TYPE_TUPLE) {
    for (size_t i = 0; i < t->u.tuple.count; i++)
      if (!gc_model_is_pointer(m, n, t->u.tuple.elements[i])) fn(m, t->u.tuple.elements[i], ctx);
  } else if (t->kind == DESERT_TYPE_ENUM) {
    for (size_t i = 0; i < t->u.enumeration.count; i++) {
      const desert_type_ctor *c = &t->u.enumeration.ctors[i];
      if (gc_enum_case_has_member(c) && !gc_model_is_pointer(m, n, c->payload))
        fn(m, c->payload, ctx);
    }
  }
  for (int i = 0; list[i]; i++)
    if (!gc_model_is_pointer(m, n, list[i])) fn(m, list[i], ctx);
}

typedef struct order_ctx {
  gc_buf *b;
} order_ctx;

static void emit_in_order(const gc_model *m, gc_node *n, gc_buf *b);

static void dep_visit(const gc_model *m, const desert_type *t, void *ctx) {
  gc_node *s = gc_model_struct_of(m, t);
  if (s) emit_in_order(m, s, ((order_ctx *)ctx)->b);
}

static void emit_in_order(const gc_model *m, gc_node *n, gc_buf *b) {
  if (n->mark) return; /* 1: in progress (cannot happen: cycles go through pointers), 2: done */
  n->mark = 1;
  order_ctx ctx = {b};
  each_by_value(m, n, dep_visit, &ctx);
  emit_struct(m, b, n);
  /* an empty value: every member zero (no memset needed) */
  gc_printf(b, "#define %s_INIT DESERT_GEN_ZERO_\n", n->name);
  n->mark = 2;
}

static void emit_alias(const gc_model *m, gc_node *n, gc_buf *b) {
  if (n->mark) return;
  n->mark = 1;
  gc_node *target = gc_model_node_of(m, n->t);
  if (target && target->kind == GC_ALIAS) emit_alias(m, target, b);
  comment(b, n);
  gc_printf(b, "typedef %s %s;\n", gc_model_ctype(m, n->t), n->name);
  n->mark = 2;
}

static void upper_guard(gc_buf *b, const char *prefix) {
  for (const char *p = prefix; *p; p++) {
    char c = *p;
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    gc_put(b, &c, 1);
  }
}

bool gc_emit_header(const gc_model *m, gc_buf *b) {
  gc_cstruct_analyse(m); /* which types run the direct path (uses mark: reset below) */
  gc_direct_analyse(m);
  bool all_direct = true;
  for (size_t i = 0; i < m->npublic; i++)
    if (!gc_direct_public(m, m->publics[i])) all_direct = false;
  for (size_t i = 0; i < m->count; i++) m->nodes[i]->mark = 0;
  gc_printf(b,
            "/* %s.h — generated by `desert gen-c` from %s. Do not edit.\n"
            " * C types of the schema document, their desert codecs and JSON conversion\n"
            " * (libdesert's desert::json). Where decoded memory lives: strings and byte\n"
            " * blocks are views into the input; arrays and copies are in the reader's\n"
            " * arena until its next desert_reader_begin, reset or free — or, through\n"
            " * the one-shot %s_<T>_decode, in the desert_decode_arena you pass, until\n"
            " * you free or reset it; %s_*_from_json memory is in the value arena passed.\n"
            " * %s\n"
            " * Thread safety: any number of threads may call these functions at the\n"
            " * same time (each with its own reader, writer, arena or JSON buffer, as\n"
            " * libdesert requires). The first call loads the embedded document through\n"
            " * %s_init(), which is guarded: one thread loads, threads arriving\n"
            " * meanwhile wait for it, and a failed load (DESERT_E_NOMEM) is reported to\n"
            " * its caller and tried again by the next call. %s_cleanup() must not run\n"
            " * at the same time as any other function of this file. */\n",
            m->prefix, m->file, m->prefix, m->prefix,
            all_direct ? "Every type runs straight-line generated code (P_<T>_fast())."
                       : "Types marked below run the runtime value tree instead of\n"
                         " * straight-line generated code (P_<T>_fast() is false).",
            m->prefix, m->prefix);
  gc_printf(b, "#ifndef ");
  upper_guard(b, m->prefix);
  gc_printf(b, "_GEN_H\n#define ");
  upper_guard(b, m->prefix);
  gc_printf(b, "_GEN_H\n\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
               "#include \"desert/json.h\"\n\n"
               "#ifndef DESERT_GEN_UUID_DEFINED\n#define DESERT_GEN_UUID_DEFINED\n"
               "/* A uuid value: its 16 bytes in wire order. */\n"
               "typedef struct desert_gen_uuid {\n  uint8_t bytes[16];\n} desert_gen_uuid;\n"
               "#endif\n"
               "#ifndef DESERT_GEN_ZERO_\n"
               "/* The initialiser of the P_T_INIT macros: every member zero. */\n"
               "#ifdef __cplusplus\n#define DESERT_GEN_ZERO_ {}\n#else\n#define DESERT_GEN_ZERO_ {0}\n#endif\n"
               "#endif\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
  for (size_t i = 0; i < m->count; i++) {
    const gc_node *n = m->nodes[i];
    if (n->kind == GC_STRUCT && n->t->kind == DESERT_TYPE_ENUM) emit_tag_enum(m, b, n);
  }
  gc_printf(b, "\n");
  for (size_t i = 0; i < m->count; i++) {
    const gc_node *n = m->nodes[i];
    if (n->kind != GC_ALIAS) gc_printf(b, "typedef struct %s %s;\n", n->name, n->name);
  }
  for (size_t i = 0; i < m->count; i++)
    if (m->nodes[i]->kind == GC_ALIAS) emit_alias(m, m->nodes[i], b);
  for (size_t i = 0; i < m->count; i++)
    if (m->nodes[i]->kind != GC_ALIAS) emit_in_order(m, m->nodes[i], b);

  gc_printf(b,
            "\n/* ---- functions ---- */\n\n"
            "/* Loads the embedded schema document and prepares the record plans of the\n"
            " * fast path (in static storage: nothing to free), once; thread-safe (see\n"
            " * the top of this file). DESERT_OK, DESERT_E_NOMEM (nothing kept: a later\n"
            " * call tries again), or DESERT_E_STATE if the document does not load with\n"
            " * this libdesert. Every other function calls it. */\n"
            "desert_status %s_init(void);\n"
            "/* Frees what %s_init allocated; a later call loads again. Not thread-safe:\n"
            " * no other function of this file may run at the same time. */\n"
            "void %s_cleanup(void);\n"
            "/* The loaded document, NULL if it cannot be loaded: its options (for\n"
            " * desert_schema_options_apply) and, as its root, a tuple of the schema's root\n"
            " * and every definition (use the P_<T>_type functions for the types). */\n"
            "const desert_schema *%s_schema(void);\n"
            "/* The document as canonical JSON (compact, keys sorted), NULL if not loaded. */\n"
            "const char *%s_schema_json(void);\n",
            m->prefix, m->prefix, m->prefix, m->prefix, m->prefix);
  for (size_t i = 0; i < m->npublic; i++) {
    const gc_node *n = m->publics[i];
    const char *s = gc_public_suffix(m, n);
    const char *P = m->prefix, *N = n->name;
    const char *why = gc_direct_why(m, n);
    gc_printf(b, "\n/* %s (%s)%s%s */\n", N, n->path, why ? ": runs the value tree: " : "",
              why ? why : "");
    gc_printf(b,
              "/* Writes *value through w: the bytes, statuses and sticky writer failures of\n"
              " * desert_type_encode; DESERT_E_ARGUMENT also for a value its C type cannot\n"
              " * hold (a NULL pointer with a count, an unknown tag). */\n"
              "desert_status %s_encode_%s(desert_writer *w, const %s *value);\n"
              "desert_status %s_encode_%s_ex(desert_writer *w, const %s *value,\n"
              "    const desert_codec_limits *limits, desert_type_error *err);\n"
              "/* Reads one value at the reader's position (after desert_reader_begin) into\n"
              " * *out (zeroed first): statuses and error offsets of desert_type_decode.\n"
              " * The fast path (generated direct code, %s_%s_fast()) gives the same\n"
              " * status and offset; the _ex form's desert_type_error gets a value path and\n"
              " * a message only from the runtime path, which any limits select. */\n"
              "desert_status %s_decode_%s(desert_reader *r, %s *out);\n"
              "desert_status %s_decode_%s_ex(desert_reader *r, %s *out,\n"
              "    const desert_codec_limits *limits, desert_type_error *err);\n"
              "/* True when %s_encode_%s / _decode_%s (and the _ex forms without limits)\n"
              " * run the fast path (straight-line generated code: constructor ids fixed,\n"
              " * prepared record plans, no allocation but the decoded data), else the\n"
              " * runtime type codec on a value tree. */\n"
              "bool %s_%s_fast(void);\n"
              "/* The runtime type (desert_type_decode, desert_json_write_value...); NULL if\n"
              " * the schema cannot be loaded. */\n"
              "const desert_type *%s_%s_type(void);\n"
              "/* Appends the canonical JSON text (docs/schema.md §11) of *value. */\n"
              "desert_status %s_%s_to_json(const %s *value, desert_json_buf *out);\n"
              "/* Reads a JSON value (docs/schema.md §11 input rules) into *out; memory and\n"
              " * copied strings live in `arena`. Failures as desert_json_to_value. */\n"
              "desert_status %s_%s_from_json(const desert_json *json, desert_value_arena *arena,\n"
              "    %s *out, desert_json_error *err);\n",
              P, s, N, P, s, N, P, s, P, s, N, P, s, N, P, s, s, P, s, P, s, P, s, N, P, s, N);
    gc_printf(b,
              "/* One-shot forms, ownership explicit, the document's options applied.\n"
              " * _decode reads data[0..len) into *out: its arrays, copies and inflated blocks\n"
              " * live in `arena` (desert_decode_arena_create; one desert_decode_arena_free or\n"
              " * _reset releases every value decoded into it) and its strings and byte\n"
              " * blocks point into data, so *out is valid while both are. used NULL: bytes\n"
              " * after the value are DESERT_E_DESERIALIZATION; else *used = the value's size.\n"
              " * _encode writes into buf[0..cap): *len = the bytes written, or with\n"
              " * DESERT_E_DST_TOO_SMALL the bytes needed (buf NULL and cap 0 ask the size).\n"
              " * _encode_alloc returns a malloc'ed buffer the caller frees with free(). */\n"
              "desert_status %s_%s_decode(const void *data, size_t len, desert_decode_arena *arena,\n"
              "    %s *out, size_t *used);\n"
              "desert_status %s_%s_encode(const %s *value, void *buf, size_t cap, size_t *len);\n"
              "desert_status %s_%s_encode_alloc(const %s *value, uint8_t **out, size_t *len);\n",
              P, s, N, P, s, N, P, s, N);
  }
  gc_printf(b, "\n#ifdef __cplusplus\n}\n#endif\n#endif\n");
  return !b->failed;
}
