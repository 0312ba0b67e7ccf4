/* tools/gen_c/gen_c_source.c — emits P.c of `desert gen-c`: the embedded
 * schema document, lazy loading, one pair of conversion functions per
 * generated C type (struct <-> desert_value tree, tv_* and fv_*), and the
 * public functions, which run libdesert's type codec and JSON layer on the
 * tree (see gen_c.h for why).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_c_emit.h"

typedef struct gen {
  const gc_model *m;
  gc_buf *b;
  bool used[DESERT_TYPE_KIND_COUNT_];
} gen;

/* An expression (a desert_status) converting the C lvalue `e` of type t into
 * the desert_value *dst. */
static void enc_expr(gen *g, const gc_node *owner, const desert_type *t, const char *e,
                     const char *dst) {
  t = gc_skip_transparent(t);
  if (gc_builtin_ctype(t->kind)) {
    g->used[t->kind] = true;
    gc_printf(g->b, "gc_tv_%s(c, &(%s), %s)", desert_type_kind_name(t->kind), e, dst);
  } else if (owner && gc_model_is_pointer(g->m, owner, t)) {
    const char *s = gc_model_struct_of(g->m, t)->name;
    gc_printf(g->b, "(%s ? tv_%s(c, %s, %s) : DESERT_E_ARGUMENT)", e, s, e, dst);
  } else {
    gc_printf(g->b, "tv_%s(c, &(%s), %s)", gc_model_node_of(g->m, t)->name, e, dst);
  }
}

/* An expression converting the const desert_value *src into the lvalue e. */
static void dec_expr(gen *g, const gc_node *owner, const desert_type *t, const char *src,
                     const char *e) {
  t = gc_skip_transparent(t);
  if (gc_builtin_ctype(t->kind)) {
    g->used[t->kind] = true;
    gc_printf(g->b, "gc_fv_%s(c, %s, &(%s))", desert_type_kind_name(t->kind), src, e);
  } else if (owner && gc_model_is_pointer(g->m, owner, t)) {
    const char *s = gc_model_struct_of(g->m, t)->name;
    gc_printf(g->b,
              "((%s = (%s *)gc_alloc(c, 1, sizeof(%s), _Alignof(%s))) != NULL ? fv_%s(c, %s, %s) "
              ": DESERT_E_NOMEM)",
              e, s, s, s, s, src, e);
  } else {
    gc_printf(g->b, "fv_%s(c, %s, &(%s))", gc_model_node_of(g->m, t)->name, src, e);
  }
}

static void enc_stmt(gen *g, const gc_node *owner, const desert_type *t, const char *e,
                     const char *dst, const char *indent) {
  gc_printf(g->b, "%sif ((st = ", indent);
  enc_expr(g, owner, t, e, dst);
  gc_printf(g->b, ")) return st;\n");
}

static void dec_stmt(gen *g, const gc_node *owner, const desert_type *t, const char *src,
                     const char *e, const char *indent) {
  gc_printf(g->b, "%sif ((st = ", indent);
  dec_expr(g, owner, t, src, e);
  gc_printf(g->b, ")) return st;\n");
}

static void emit_record(gen *g, const gc_node *n) {
  const desert_type *t = n->t;
  size_t nf = t->u.record.field_count;
  char s[64]; /* "&it[<size_t>]": with a size_t of 20 digits, at most 26 bytes */
  gc_printf(g->b, "  desert_value *it = gc_seq(c, out, %zu);\n  if (!it) return DESERT_E_NOMEM;\n",
            nf);
  for (size_t i = 0; i < nf; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    char *e = gc_fmt(g->b, "in->%s", n->members[i]);
    if (n->flags[i]) {
      gc_printf(g->b,
                "  if (in->%s) {\n"
                "    desert_value *s = gc_child(c, &it[%zu], DESERT_VALUE_SOME, 0);\n"
                "    if (!s) return DESERT_E_NOMEM;\n",
                n->flags[i], i);
      enc_stmt(g, n, f->type, e, "s", "    ");
      gc_printf(g->b, "  }\n");
    } else {
      snprintf(s, sizeof s, "&it[%zu]", i);
      enc_stmt(g, n, f->type, e, s, "  ");
    }
    gc_fmt_free(e);
  }
}

static void emit_record_dec(gen *g, const gc_node *n) {
  const desert_type *t = n->t;
  size_t nf = t->u.record.field_count;
  /* "v->as.seq.items[<size_t>].as.child": with a size_t of 20 digits, at most 47 bytes */
  char s[64];
  gc_printf(g->b, "  if (!gc_is_seq(v, %zu)) return DESERT_E_ARGUMENT;\n", nf);
  for (size_t i = 0; i < nf; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    char *e = gc_fmt(g->b, "out->%s", n->members[i]);
    if (n->flags[i]) {
      gc_printf(g->b,
                "  if (v->as.seq.items[%zu].kind == DESERT_VALUE_SOME) {\n"
                "    out->%s = true;\n",
                i, n->flags[i]);
      snprintf(s, sizeof s, "v->as.seq.items[%zu].as.child", i);
      dec_stmt(g, n, f->type, s, e, "    ");
      gc_printf(g->b,
                "  } else if (v->as.seq.items[%zu].kind != DESERT_VALUE_NULL) {\n"
                "    return DESERT_E_ARGUMENT;\n  }\n",
                i);
    } else {
      snprintf(s, sizeof s, "&v->as.seq.items[%zu]", i);
      dec_stmt(g, n, f->type, s, e, "  ");
    }
    gc_fmt_free(e);
  }
}

static void emit_enum(gen *g, const gc_node *n, bool dec) {
  const desert_type *t = n->t;
  if (dec) {
    gc_printf(g->b, "  if (v->kind != DESERT_VALUE_ALT || !v->as.child) return DESERT_E_ARGUMENT;\n"
                    "  switch (v->index) {\n");
  } else {
    gc_printf(g->b, "  desert_value *ch = gc_child(c, out, DESERT_VALUE_ALT, (uint32_t)in->tag);\n"
                    "  if (!ch) return DESERT_E_NOMEM;\n  switch (in->tag) {\n");
  }
  for (size_t i = 0; i < t->u.enumeration.count; i++) {
    const desert_type_ctor *c = &t->u.enumeration.ctors[i];
    if (dec && c->transient) continue;
    /* Decoding switches on the ALT index, encoding on the tag constant. */
    if (dec)
      gc_printf(g->b, "  case %zu:\n    out->tag = %s;\n", i, n->flags[i]);
    else
      gc_printf(g->b, "  case %s:\n", n->flags[i]);
    if (gc_enum_case_has_member(c)) {
      char *e = gc_fmt(g->b, "%s->%s", dec ? "out" : "in", n->members[i]);
      if (dec)
        dec_stmt(g, n, c->payload, "v->as.child", e, "    ");
      else
        enc_stmt(g, n, c->payload, e, "ch", "    ");
      gc_fmt_free(e);
    } else if (!dec && !c->transient) {
      gc_printf(g->b, "    if (!gc_seq(c, ch, 0)) return DESERT_E_NOMEM;\n");
    }
    /* A transient case keeps a null payload: the codec refuses to write it
     * (SerializingTransientConstructor), as for any value tree. */
    gc_printf(g->b, "    return DESERT_OK;\n");
  }
  gc_printf(g->b, "  default:\n    return DESERT_E_ARGUMENT;\n  }\n");
}

static void emit_tuple(gen *g, const gc_node *n, bool dec) {
  const desert_type *t = n->t;
  char s[64]; /* "&v->as.seq.items[<size_t>]": with a size_t of 20 digits, at most 39 bytes */
  if (dec)
    gc_printf(g->b, "  if (!gc_is_seq(v, %zu)) return DESERT_E_ARGUMENT;\n", t->u.tuple.count);
  else
    gc_printf(g->b, "  desert_value *it = gc_seq(c, out, %zu);\n  if (!it) return DESERT_E_NOMEM;\n",
              t->u.tuple.count);
  for (size_t i = 0; i < t->u.tuple.count; i++) {
    char *e = gc_fmt(g->b, "%s->%s", dec ? "out" : "in", n->members[i]);
    snprintf(s, sizeof s, dec ? "&v->as.seq.items[%zu]" : "&it[%zu]", i);
    if (dec)
      dec_stmt(g, n, t->u.tuple.elements[i], s, e, "  ");
    else
      enc_stmt(g, n, t->u.tuple.elements[i], e, s, "  ");
    gc_fmt_free(e);
  }
}

static void emit_collection(gen *g, const gc_node *n, bool dec) {
  const desert_type *t = n->t;
  bool map = t->kind == DESERT_TYPE_MAP;
  const char *elem = map ? n->entry->name : gc_model_ctype(g->m, t->u.coll.element);
  if (dec) {
    gc_printf(g->b,
              "  if (v->kind != DESERT_VALUE_SEQ || (v->as.seq.count && !v->as.seq.items))\n"
              "    return DESERT_E_ARGUMENT;\n"
              "  if (v->as.seq.count == 0) return DESERT_OK;\n"
              "  out->items = (%s *)gc_alloc(c, v->as.seq.count, sizeof(%s), _Alignof(%s));\n"
              "  if (!out->items) return DESERT_E_NOMEM;\n"
              "  out->count = v->as.seq.count;\n"
              "  for (size_t i = 0; i < out->count; i++) {\n",
              elem, elem, elem);
    if (map) {
      gc_printf(g->b, "    const desert_value *e = &v->as.seq.items[i];\n"
                      "    if (!gc_is_seq(e, 2)) return DESERT_E_ARGUMENT;\n");
      dec_stmt(g, n->entry, t->u.coll.element, "&e->as.seq.items[0]", "out->items[i].key", "    ");
      dec_stmt(g, n->entry, t->u.coll.value, "&e->as.seq.items[1]", "out->items[i].value", "    ");
    } else {
      dec_stmt(g, NULL, t->u.coll.element, "&v->as.seq.items[i]", "out->items[i]", "    ");
    }
  } else {
    gc_printf(g->b,
              "  if (in->count && !in->items) return DESERT_E_ARGUMENT;\n"
              "  desert_value *it = gc_seq(c, out, in->count);\n"
              "  if (!it) return DESERT_E_NOMEM;\n"
              "  for (size_t i = 0; i < in->count; i++) {\n");
    if (map) {
      gc_printf(g->b, "    desert_value *e = gc_seq(c, &it[i], 2);\n"
                      "    if (!e) return DESERT_E_NOMEM;\n");
      enc_stmt(g, n->entry, t->u.coll.element, "in->items[i].key", "&e[0]", "    ");
      enc_stmt(g, n->entry, t->u.coll.value, "in->items[i].value", "&e[1]", "    ");
    } else {
      enc_stmt(g, NULL, t->u.coll.element, "in->items[i]", "&it[i]", "    ");
    }
  }
  gc_printf(g->b, "  }\n");
}

static void emit_option(gen *g, const gc_node *n, bool dec) {
  const desert_type *t = n->t;
  if (dec) {
    gc_printf(g->b, "  if (v->kind == DESERT_VALUE_NULL) return DESERT_OK;\n"
                    "  if (v->kind != DESERT_VALUE_SOME || !v->as.child) return DESERT_E_ARGUMENT;\n"
                    "  out->has_value = true;\n");
    dec_stmt(g, n, t->u.inner, "v->as.child", "out->value", "  ");
  } else {
    gc_printf(g->b, "  if (!in->has_value) {\n    out->kind = DESERT_VALUE_NULL;\n"
                    "    return DESERT_OK;\n  }\n"
                    "  desert_value *s = gc_child(c, out, DESERT_VALUE_SOME, 0);\n"
                    "  if (!s) return DESERT_E_NOMEM;\n");
    enc_stmt(g, n, t->u.inner, "in->value", "s", "  ");
  }
}

/* Either: ALT 0 = left, 1 = right; Try: ALT 0 = failure, 1 = success. */
static void emit_alt(gen *g, const gc_node *n, bool dec) {
  const desert_type *t = n->t;
  bool e = t->kind == DESERT_TYPE_EITHER;
  const char *flag = e ? "is_right" : "is_success";
  /* the members as lvalues: out-> when decoding, in-> when encoding */
  const char *a = e ? (dec ? "out->right" : "in->right") : (dec ? "out->success" : "in->success");
  const char *bb = e ? (dec ? "out->left" : "in->left") : (dec ? "out->failure" : "in->failure");
  if (dec) {
    gc_printf(g->b,
              "  if (v->kind != DESERT_VALUE_ALT || !v->as.child || v->index > 1)\n"
              "    return DESERT_E_ARGUMENT;\n"
              "  out->%s = v->index == 1;\n  if (out->%s) {\n",
              flag, flag);
    dec_stmt(g, n, t->u.alt.right, "v->as.child", a, "    ");
    gc_printf(g->b, "  } else {\n");
    dec_stmt(g, n, t->u.alt.left, "v->as.child", bb, "    ");
  } else {
    gc_printf(g->b,
              "  desert_value *ch = gc_child(c, out, DESERT_VALUE_ALT, in->%s ? 1u : 0u);\n"
              "  if (!ch) return DESERT_E_NOMEM;\n  if (in->%s) {\n",
              flag, flag);
    enc_stmt(g, n, t->u.alt.right, a, "ch", "    ");
    gc_printf(g->b, "  } else {\n");
    enc_stmt(g, n, t->u.alt.left, bb, "ch", "    ");
  }
  gc_printf(g->b, "  }\n");
}

static void emit_conversions(gen *g, const gc_node *n) {
  if (n->kind == GC_ENTRY) return; /* inside its map's functions */
  for (int dec = 0; dec < 2; dec++) {
    if (dec)
      gc_printf(g->b,
                "static desert_status fv_%s(gc_dec *c, const desert_value *v, %s *out) {\n"
                "  desert_status st = DESERT_OK;\n",
                n->name, n->name);
    else
      gc_printf(g->b,
                "\n/* %s (%s) */\n"
                "static desert_status tv_%s(gc_enc *c, const %s *in, desert_value *out) {\n"
                "  desert_status st = DESERT_OK;\n",
                n->name, n->path, n->name, n->name);
    if (dec && n->kind == GC_STRUCT) gc_printf(g->b, "  memset(out, 0, sizeof *out);\n");
    if (n->kind == GC_ALIAS) {
      if (dec)
        dec_stmt(g, NULL, n->t, "v", "*out", "  ");
      else
        enc_stmt(g, NULL, n->t, "*in", "out", "  ");
    } else {
      switch (n->t->kind) {
      case DESERT_TYPE_RECORD:
        if (dec)
          emit_record_dec(g, n);
        else
          emit_record(g, n);
        break;
      case DESERT_TYPE_ENUM:
        emit_enum(g, n, dec);
        break;
      case DESERT_TYPE_TUPLE:
        emit_tuple(g, n, dec);
        break;
      case DESERT_TYPE_LIST:
      case DESERT_TYPE_SET:
      case DESERT_TYPE_MAP:
        emit_collection(g, n, dec);
        break;
      case DESERT_TYPE_OPTION:
        emit_option(g, n, dec);
        break;
      DESERT_TYPE_CASES(BUILTIN) case DESERT_TYPE_EITHER: case DESERT_TYPE_TRY:
      case DESERT_TYPE_TRANSPARENT: case DESERT_TYPE_REF: case DESERT_TYPE_KIND_COUNT_:
        emit_alt(g, n, dec);
        break;
      }
    }
    gc_printf(g->b, "  (void)c;\n  (void)%s;\n  return st;\n}\n", dec ? "v" : "in");
  }
}

/* The record or tuple whose C-struct descriptor runs a public type, or NULL. */
static const gc_node *fast_node(const gc_model *m, const gc_node *n) {
  const gc_node *f = n->kind == GC_ALIAS ? gc_model_struct_of(m, n->t) : n;
  return f && gc_cstruct_has(m, f) ? f : NULL;
}

/* The one-shot functions of public type i (P_T_decode, P_T_encode,
 * P_T_encode_alloc): a reader or writer in stack storage with the
 * document's options around P_decode_T / P_encode_T, so ownership is the
 * caller's: decoded memory in the arena it passes, encoded bytes in its
 * buffer or a malloc'ed one. */
static void emit_oneshot(gen *g, size_t i, const gc_node *n) {
  const char *P = g->m->prefix, *s = gc_public_suffix(g->m, n), *N = n->name;
  (void)i;
  gc_printf(g->b,
            "\ndesert_status %s_%s_decode(const void *data, size_t len, desert_decode_arena *arena,\n"
            "    %s *out, size_t *used) {\n"
            "  static const uint8_t none[1] = {0};\n"
            "  if (used) *used = 0;\n"
            "  if (!arena || !out || (!data && len)) return DESERT_E_ARGUMENT;\n"
            "  desert_status st = %s_init();\n"
            "  if (st) return st;\n"
            "  desert_options o;\n"
            "  desert_schema_options_apply(&gc_schema_->options, NULL, &o);\n"
            "  desert_reader_storage rs;\n"
            "  desert_reader *r;\n"
            "  st = desert_reader_init(&rs, sizeof rs, &o, &r);\n"
            "  if (st) return st;\n"
            "  desert_reader_set_output_arena(r, arena);\n"
            "  st = desert_reader_begin(r, data ? data : none, len);\n"
            "  if (!st) st = %s_decode_%s(r, out);\n"
            "  size_t at = desert_reader_offset(r);\n"
            "  if (!st && !used && at != len) st = DESERT_E_DESERIALIZATION; /* bytes after the value */\n"
            "  if (!st && used) *used = at;\n"
            "  desert_reader_free(r);\n"
            "  return st;\n}\n\n",
            P, s, N, P, P, s);
  gc_printf(g->b,
            "/* A writer in stack storage with the document's options, into buf[0..cap)\n"
            " * or, buf NULL, counting only. */\n"
            "static desert_status gc_encode_%zu(const %s *value, void *buf, size_t cap, size_t *len) {\n"
            "  desert_options o;\n"
            "  desert_schema_options_apply(&gc_schema_->options, NULL, &o);\n"
            "  desert_writer_storage ws;\n"
            "  desert_writer *w;\n"
            "  desert_status st = desert_writer_init(&ws, sizeof ws, &o, &w);\n"
            "  if (st) return st;\n"
            "  if (buf)\n    st = desert_writer_use_buffer(w, buf, cap);\n"
            "  else\n    desert_writer_count_only(w);\n"
            "  if (!st) st = %s_encode_%s(w, value);\n"
            "  if (!st) st = desert_writer_status(w);\n"
            "  *len = st ? 0 : desert_writer_size(w);\n"
            "  desert_writer_free(w);\n"
            "  return st;\n}\n\n",
            i, N, P, s);
  gc_printf(g->b,
            "desert_status %s_%s_encode(const %s *value, void *buf, size_t cap, size_t *len) {\n"
            "  if (len) *len = 0;\n"
            "  if (!value || !len || (!buf && cap)) return DESERT_E_ARGUMENT;\n"
            "  desert_status st = %s_init();\n"
            "  if (st) return st;\n"
            "  if (cap) {\n"
            "    st = gc_encode_%zu(value, buf, cap, len);\n"
            "    if (st != DESERT_E_DST_TOO_SMALL) return st;\n"
            "  }\n"
            "  /* too small (or cap 0): say how much it takes */\n"
            "  desert_status cs = gc_encode_%zu(value, NULL, 0, len);\n"
            "  return cs ? cs : DESERT_E_DST_TOO_SMALL;\n}\n\n",
            P, s, N, P, i, i);
  gc_printf(g->b,
            "desert_status %s_%s_encode_alloc(const %s *value, uint8_t **out, size_t *len) {\n"
            "  if (out) *out = NULL;\n"
            "  if (len) *len = 0;\n"
            "  if (!value || !out || !len) return DESERT_E_ARGUMENT;\n"
            "  desert_status st = %s_init();\n"
            "  if (st) return st;\n"
            "  size_t n;\n"
            "  if ((st = gc_encode_%zu(value, NULL, 0, &n)) != DESERT_OK) return st;\n"
            "  uint8_t *buf = (uint8_t *)malloc(n ? n : 1);\n"
            "  if (!buf) return DESERT_E_NOMEM;\n"
            "  if ((st = gc_encode_%zu(value, buf, n, len)) != DESERT_OK) {\n"
            "    free(buf);\n    *len = 0;\n    return st;\n  }\n"
            "  *out = buf;\n"
            "  return DESERT_OK;\n}\n",
            P, s, N, P, i, i);
}

static void emit_publics(gen *g) {
  const gc_model *m = g->m;
  const char *P = m->prefix;
  for (size_t i = 0; i < m->npublic; i++) {
    const gc_node *n = m->publics[i];
    const char *s = gc_public_suffix(m, n), *N = n->name;
    const gc_node *fast = fast_node(m, n);
    bool direct = gc_direct_public(m, n);
    char *fast_enc = NULL, *fast_dec = NULL;
    if (fast || direct) {
      /* The direct functions (gen_c_direct.c), else the C-struct codec on
       * the descriptor: the same bytes, statuses and offsets. */
      char *enc_call, *dec_call;
      if (direct) {
        enc_call = gc_fmt(g->b, "gpw_%zu(w, value)", i);
        dec_call = gc_fmt(g->b, "gpr_%zu(r, out)", i);
      } else {
        enc_call = gc_fmt(g->b, "desert_cstruct_encode(w, &cs_%s, value)", fast->name);
        dec_call = gc_fmt(g->b, "desert_cstruct_decode(r, &cs_%s, out)", fast->name);
      }
      fast_enc = gc_fmt(g->b,
                        "  if (!limits && gc_fast[%zu]) {\n"
                        "    st = %s;\n"
                        "    if (st && err) {\n"
                        "      memset(err, 0, sizeof *err);\n"
                        "      err->status = st;\n"
                        "    }\n"
                        "    return st;\n"
                        "  }\n",
                        i, enc_call);
      fast_dec = gc_fmt(g->b,
                        "  if (!limits && gc_fast[%zu]) {\n"
                        "    st = %s;\n"
                        "    if (st && err) {\n"
                        "      memset(err, 0, sizeof *err);\n"
                        "      err->status = st;\n"
                        "      err->has_offset = true;\n"
                        "      err->offset = desert_reader_error_offset(r);\n"
                        "    }\n"
                        "    return st;\n"
                        "  }\n",
                        i, dec_call);
      gc_fmt_free(enc_call);
      gc_fmt_free(dec_call);
    }
    gc_printf(g->b, "\n/* ---- %s ---- */\n\n", N);
    gc_printf(g->b,
              "bool %s_%s_fast(void) {\n"
              "  return %s_init() == DESERT_OK && gc_fast[%zu];\n}\n\n",
              P, s, P, i);
    gc_printf(g->b,
              "desert_status %s_encode_%s_ex(desert_writer *w, const %s *value,\n"
              "    const desert_codec_limits *limits, desert_type_error *err) {\n"
              "  desert_status st = %s_init();\n"
              "  if (st) return st;\n"
              "  if (!w || !value) return DESERT_E_ARGUMENT;\n"
              "%s"
              "  gc_enc c;\n"
              "  if (desert_value_arena_create(NULL, &c.a)) return DESERT_E_NOMEM;\n"
              "  desert_value root;\n"
              "  memset(&root, 0, sizeof root);\n"
              "  st = tv_%s(&c, value, &root);\n"
              "  if (!st) {\n"
              "    st = desert_type_encode(w, gc_types[%zu], &root, limits, err);\n"
              "  } else if (err) {\n"
              "    memset(err, 0, sizeof *err);\n"
              "    err->status = st;\n"
              "    strcpy(err->message, \"the C value does not fit its type\");\n"
              "  }\n"
              "  desert_value_arena_free(c.a);\n"
              "  return st;\n}\n\n"
              "desert_status %s_encode_%s(desert_writer *w, const %s *value) {\n"
              "  return %s_encode_%s_ex(w, value, NULL, NULL);\n}\n\n",
              P, s, N, P, fast_enc ? fast_enc : "", N, i, P, s, N, P, s);
    gc_printf(g->b,
              "desert_status %s_decode_%s_ex(desert_reader *r, %s *out,\n"
              "    const desert_codec_limits *limits, desert_type_error *err) {\n"
              "  desert_status st = %s_init();\n"
              "  if (st) return st;\n"
              "  if (!r || !out) return DESERT_E_ARGUMENT;\n"
              "  memset(out, 0, sizeof *out);\n"
              "%s"
              "  desert_value_arena *a;\n"
              "  if (desert_value_arena_create(NULL, &a)) return DESERT_E_NOMEM;\n"
              "  desert_value *v = NULL;\n"
              "  st = desert_type_decode(r, gc_types[%zu], a, limits, &v, err);\n"
              "  if (!st) {\n"
              "    gc_dec c = {gc_reader_alloc, r};\n"
              "    st = fv_%s(&c, v, out);\n"
              "  }\n"
              "  desert_value_arena_free(a);\n"
              "  return st;\n}\n\n"
              "desert_status %s_decode_%s(desert_reader *r, %s *out) {\n"
              "  return %s_decode_%s_ex(r, out, NULL, NULL);\n}\n\n",
              P, s, N, P, fast_dec ? fast_dec : "", i, N, P, s, N, P, s);
    gc_fmt_free(fast_enc);
    gc_fmt_free(fast_dec);
    gc_printf(g->b,
              "const desert_type *%s_%s_type(void) {\n"
              "  return %s_init() ? NULL : gc_types[%zu];\n}\n\n",
              P, s, P, i);
    gc_printf(g->b,
              "desert_status %s_%s_to_json(const %s *value, desert_json_buf *out) {\n"
              "  desert_status st = %s_init();\n"
              "  if (st) return st;\n"
              "  if (!value || !out) return DESERT_E_ARGUMENT;\n"
              "  gc_enc c;\n"
              "  if (desert_value_arena_create(NULL, &c.a)) return DESERT_E_NOMEM;\n"
              "  desert_value root;\n"
              "  memset(&root, 0, sizeof root);\n"
              "  st = tv_%s(&c, value, &root);\n"
              "  if (!st) st = desert_json_write_value(out, gc_types[%zu], &root);\n"
              "  desert_value_arena_free(c.a);\n"
              "  return st;\n}\n\n",
              P, s, N, P, N, i);
    gc_printf(g->b,
              "desert_status %s_%s_from_json(const desert_json *json, desert_value_arena *arena,\n"
              "    %s *out, desert_json_error *err) {\n"
              "  desert_status st = %s_init();\n"
              "  if (st) return st;\n"
              "  if (!json || !arena || !out) return DESERT_E_ARGUMENT;\n"
              "  memset(out, 0, sizeof *out);\n"
              "  desert_value *v = NULL;\n"
              "  st = desert_json_to_value(gc_types[%zu], json, arena, &v, err);\n"
              "  if (st) return st;\n"
              "  gc_dec c = {gc_arena_alloc, arena};\n"
              "  st = fv_%s(&c, v, out);\n"
              "  if (st && err) {\n"
              "    memset(err, 0, sizeof *err);\n"
              "    err->kind = st == DESERT_E_ARGUMENT ? DESERT_JSON_ERR_BAD_VALUE : "
              "DESERT_JSON_ERR_STATUS;\n"
              "    err->status = st;\n"
              "    strcpy(err->message, \"$: the value does not fit its C type\");\n"
              "  }\n"
              "  return st;\n}\n",
              P, s, N, P, i, N);
    emit_oneshot(g, i, n);
  }
}

/* The type set index of record node n's type in the loaded runtime
 * document, SIZE_MAX when it is not there. */
static size_t runtime_index(const gc_model *m, const gc_node *n) {
  size_t count = desert_type_set_count(m->schema->set);
  for (size_t k = 0; k < count; k++)
    if (desert_type_set_at(m->schema->set, k) == n->t) return k;
  return SIZE_MAX;
}

/* gd_d_<T>(r, o, index): field `index` of the direct record T gets the
 * default the runtime codec fills in (gc_default_of on the record's
 * runtime type, found again at load by its type set index), converted as
 * the value-tree path converts it, with memory from the reader. For the
 * defaults the constant callback cs_d_<T> cannot assign. */
static void emit_defaults_fns(gen *g) {
  const gc_model *m = g->m;
  for (size_t k = 0; k < m->count; k++) {
    const gc_node *n = m->nodes[k];
    if (!gc_direct_needs_runtime_defaults(n)) continue;
    const desert_type *t = n->t;
    gc_printf(g->b,
              "\n/* %s: its runtime type (gc_resolve_defaults) and its non-constant defaults */\n"
              "static const desert_type *gd_rt_%s;\n"
              "static desert_status gd_d_%s(desert_reader *r, %s *out, size_t index) {\n"
              "  gc_dec cc = {gc_reader_alloc, r};\n  gc_dec *c = &cc;\n"
              "  const desert_value *v = gc_default_of(gd_rt_%s, index);\n"
              "  desert_status st = DESERT_OK;\n"
              "  if (!v) return desert_reader_fail(r, DESERT_E_FIELD_MISSING, desert_reader_offset(r));\n"
              "  switch (index) {\n",
              n->name, n->name, n->name, n->name, n->name);
    for (size_t i = 0; i < t->u.record.field_count; i++) {
      if (!gc_direct_runtime_default(n, i)) continue;
      const desert_type_field *f = &t->u.record.fields[i];
      char *e = gc_fmt(g->b, "out->%s", n->members[i]);
      gc_printf(g->b, "  case %zu:\n", i);
      if (n->flags[i]) {
        gc_printf(g->b, "    if (v->kind == DESERT_VALUE_SOME) {\n      out->%s = true;\n",
                  n->flags[i]);
        gc_printf(g->b, "      st = ");
        dec_expr(g, n, f->type, "v->as.child", e);
        gc_printf(g->b, ";\n    }\n    break;\n");
      } else {
        gc_printf(g->b, "    st = ");
        dec_expr(g, n, f->type, "v", e);
        gc_printf(g->b, ";\n    break;\n");
      }
      gc_fmt_free(e);
    }
    gc_printf(g->b, "  default:\n    break;\n  }\n"
                    "  (void)c;\n"
                    "  if (st) desert_reader_fail(r, st, desert_reader_offset(r));\n"
                    "  return st;\n}\n");
  }
  /* Finds each such record's runtime type again (P_init); a document that
   * loads differently keeps the public types off the direct path. */
  gc_printf(g->b, "\nstatic void gc_resolve_defaults(const desert_schema *s) {\n"
                  "  const desert_type *t = NULL;\n  (void)s;\n  (void)t;\n");
  for (size_t k = 0; k < m->count; k++) {
    const gc_node *n = m->nodes[k];
    if (!gc_direct_needs_runtime_defaults(n)) continue;
    size_t idx = runtime_index(m, n);
    gc_printf(g->b,
              "  t = desert_type_set_at(s->set, %zu);\n"
              "  if (t && t->kind == DESERT_TYPE_RECORD && t->u.record.field_count == %zu)\n"
              "    gd_rt_%s = t;\n  else\n    gc_plans_ok = false;\n",
              idx == SIZE_MAX ? (size_t)0 : idx, n->t->u.record.field_count, n->name);
    if (idx == SIZE_MAX) gc_printf(g->b, "  gc_plans_ok = false; /* not found at generation */\n");
  }
  gc_printf(g->b, "}\n");
}

static void emit_init(gen *g) {
  const gc_model *m = g->m;
  const char *P = m->prefix;
  gc_printf(g->b, "\n/* The C-struct fast path of each public type, once its descriptor checks. */\n"
                  "static void gc_check_fast(void) {\n");
  for (size_t i = 0; i < m->npublic; i++) {
    const gc_node *f = fast_node(m, m->publics[i]);
    if (gc_direct_public(m, m->publics[i]))
      gc_printf(g->b, "  gc_fast[%zu] = gc_plans_ok;\n", i);
    else if (f)
      gc_printf(g->b, "  gc_fast[%zu] = desert_cstruct_check(&cs_%s) == DESERT_OK;\n", i, f->name);
  }
  gc_printf(g->b, "}\n");
  gc_printf(g->b,
            "\n/* ---- the schema ---- */\n\n"
            "/* Concatenates the pieces of an embedded text (malloc'ed). */\n"
            "static char *gc_join(const char *const *parts, size_t n) {\n"
            "  size_t len = 0, k = 0;\n"
            "  for (size_t i = 0; i < n; i++) len += strlen(parts[i]);\n"
            "  char *s = (char *)malloc(len + 1);\n"
            "  if (!s) return NULL;\n"
            "  for (size_t i = 0; i < n; i++) {\n"
            "    size_t l = strlen(parts[i]);\n"
            "    memcpy(s + k, parts[i], l);\n"
            "    k += l;\n  }\n"
            "  s[k] = '\\0';\n  return s;\n}\n\n"
            "/* Loads the document and prepares the fast paths (under P_init's guard). */\n"
            "static desert_status gc_load(void) {\n"
            "  char *doc = gc_join(gc_doc_parts, sizeof gc_doc_parts / sizeof gc_doc_parts[0]);\n"
            "  char *canon = gc_join(gc_canon_parts, sizeof gc_canon_parts / sizeof "
            "gc_canon_parts[0]);\n"
            "  desert_value_arena *a = NULL;\n"
            "  desert_schema *s = NULL;\n"
            "  desert_status st = DESERT_E_NOMEM;\n"
            "  if (doc && canon && !desert_value_arena_create(NULL, &a)) {\n"
            "    desert_json *j;\n"
            "    char msg[256];\n"
            "    st = DESERT_E_STATE;\n"
            "    desert_status ls = desert_json_parse(doc, strlen(doc), a, &j, msg, sizeof msg);\n"
            "    if (!ls) ls = desert_schema_load(j, NULL, &s, NULL);\n"
            "    if (!ls)\n"
            "      st = DESERT_OK;\n"
            "    else if (ls == DESERT_E_NOMEM)\n"
            "      st = DESERT_E_NOMEM;\n"
            "  }\n"
            "  if (st) {\n"
            "    free(doc);\n    free(canon);\n    desert_value_arena_free(a);\n"
            "    return st;\n  }\n"
            "  /* The root of the embedded document is a tuple: the schema's root, then\n"
            "   * each definition in document order. */\n"
            "  const desert_type *const *el = s->root->u.tuple.elements;\n"
            "  for (size_t i = 0; i < sizeof gc_types / sizeof gc_types[0]; i++)\n"
            "    gc_types[i] = el[i + 1 < sizeof gc_types / sizeof gc_types[0] ? i + 1 : 0];\n"
            "  gc_doc_ = doc;\n  gc_canon_ = canon;\n  gc_arena_ = a;\n  gc_schema_ = s;\n"
            "  gc_prepare_plans();\n"
            "  gc_resolve_defaults(s);\n"
            "  gc_check_fast();\n"
            "  return DESERT_OK;\n}\n\n"
            "/* 0: not loaded, 1: a thread is loading, 2: loaded. The first caller\n"
            " * loads; callers that arrive meanwhile wait for it (the load takes\n"
            " * microseconds); a failed load leaves 0, so a later call tries again. */\n"
            "static atomic_int gc_state_;\n\n"
            "desert_status %s_init(void) {\n"
            "  for (;;) {\n"
            "    int s = atomic_load_explicit(&gc_state_, memory_order_acquire);\n"
            "    if (s == 2) return DESERT_OK;\n"
            "    if (s == 0 && atomic_compare_exchange_weak_explicit(&gc_state_, &s, 1,\n"
            "                                                        memory_order_acquire,\n"
            "                                                        memory_order_relaxed))\n"
            "      break;\n"
            "  }\n"
            "  desert_status st = gc_load();\n"
            "  atomic_store_explicit(&gc_state_, st ? 0 : 2, memory_order_release);\n"
            "  return st;\n}\n\n"
            "void %s_cleanup(void) {\n"
            "  desert_schema_free(gc_schema_);\n  desert_value_arena_free(gc_arena_);\n"
            "  free(gc_doc_);\n  free(gc_canon_);\n"
            "  gc_schema_ = NULL;\n  gc_arena_ = NULL;\n  gc_doc_ = NULL;\n  gc_canon_ = NULL;\n"
            "  atomic_store_explicit(&gc_state_, 0, memory_order_release);\n}\n\n"
            "const desert_schema *%s_schema(void) {\n"
            "  return %s_init() ? NULL : gc_schema_;\n}\n\n"
            "const char *%s_schema_json(void) {\n"
            "  return %s_init() ? NULL : gc_canon_;\n}\n",
            P, P, P, P, P, P);
}

bool gc_emit_source(const gc_model *m, gc_buf *out) {
  gen g;
  memset(&g, 0, sizeof g);
  g.m = m;
  gc_cstruct_analyse(m);
  gc_direct_analyse(m);
  gc_buf body = {0};
  g.b = &body;
  for (size_t i = 0; i < m->count; i++) {
    const gc_node *n = m->nodes[i];
    if (n->kind == GC_ENTRY) continue;
    gc_printf(&body, "static desert_status tv_%s(gc_enc *c, const %s *in, desert_value *out);\n",
              n->name, n->name);
    gc_printf(&body, "static desert_status fv_%s(gc_dec *c, const desert_value *v, %s *out);\n",
              n->name, n->name);
  }
  for (size_t i = 0; i < m->count; i++) emit_conversions(&g, m->nodes[i]);
  emit_defaults_fns(&g);
  emit_init(&g);
  emit_publics(&g);

  gc_printf(out,
            "/* %s.c — generated by `desert gen-c` from %s. Do not edit.\n"
            " * Each C type converts to and from a desert_value tree that libdesert's type\n"
            " * codec (desert_type_encode / desert_type_decode) and JSON layer run under the\n"
            " * embedded schema document: bytes, statuses, error offsets and options are the\n"
            " * runtime path's. */\n"
            "#include \"%s.h\"\n\n#include \"desert/stream.h\" /* desert_reader_ensure */\n\n#include <stdatomic.h>\n#include <stdlib.h>\n#include <string.h>\n\n",
            m->prefix, m->file, m->prefix);
  gc_printf(out, "/* The schema document, with a tuple of the root and every definition as its\n"
                 " * root (element 0 the root, then the definitions). */\n"
                 "static const char *const gc_doc_parts[] = {\n");
  gc_c_string_array(out, m->runtime_doc, strlen(m->runtime_doc), "    ");
  gc_printf(out, "};\n/* The document as the schema file has it, as canonical JSON. */\n"
                 "static const char *const gc_canon_parts[] = {\n");
  gc_c_string_array(out, m->canonical, strlen(m->canonical), "    ");
  gc_printf(out,
            "};\n\nstatic desert_schema *gc_schema_;\nstatic desert_value_arena *gc_arena_;\n"
            "static char *gc_doc_, *gc_canon_;\n"
            "static const desert_type *gc_types[%zu]; /* the public types, header order */\n"
            "static bool gc_fast[%zu]; /* their C-struct descriptor passed desert_cstruct_check */\n\n",
            m->npublic, m->npublic);
  gc_emit_runtime(out, g.used);
  gc_printf(out, "\n/* ---- C-struct descriptors: the fast path of encode/decode ---- */\n\n");
  gc_cstruct_emit(m, out);
  gc_printf(out, "\n/* ---- direct functions: the fastest path of encode/decode ---- */\n\n");
  gc_direct_emit(m, out);
  gc_printf(out, "\n/* ---- conversions ---- */\n\n");
  gc_append(out, &body);
  bool ok = !out->failed;
  gc_buf_free(&body);
  return ok;
}
