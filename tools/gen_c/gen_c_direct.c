/* tools/gen_c/gen_c_direct.c — the fastest path of generated code: straight
 * C functions per record, tuple, map entry and enum that the C-struct codec
 * can run (gen_c_cstruct.c decides which), calling libdesert's reader,
 * writer and record API directly with the prepared plan of each record
 * instead of interpreting the descriptor tables field by field (measured
 * on the golden dataset: bench rows c16_golden_*_gen against the
 * descriptor rows c16_golden_*_cstruct and the hand-written codec).
 *
 * gw_<T> writes and gr_<T> reads what desert_cstruct_encode /
 * desert_cstruct_decode (src/types/types_struct.c) do for the descriptor
 * cs_<T>: the same value calls in the same order, through the public record
 * API also where that codec takes its internal shortcut for version-0 data
 * (which the library keeps equivalent), so the same bytes, statuses and
 * error offsets; test/gen_c's public-case, differential and mutated-input
 * tests and fuzz_gen_c compare them with the runtime path. A node whose fields hold a value type
 * with no public per-value call (dates, big numbers, compressed blocks...)
 * or composites nested deeper than the codec's value depth gets no direct
 * functions: its callers run desert_cstruct_* on its descriptor instead.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_c_emit.h"

/* The codec's bound on composites nested without a record in between
 * (DESERT_CSTRUCT_VALUE_DEPTH, src/types/types_struct_internal.h): deeper
 * values fail there with DESERT_E_DEPTH, so they stay on that path. */
#define GC_VALUE_DEPTH 32u

/* The <name> of desert_read_<name> / desert_write_<name> for the built-in
 * kinds read and written by one public call each; NULL for the others
 * (they stay on the descriptor path). */
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
  case DESERT_TYPE_F32: return "f32_bits"; /* the bits, as the codec copies them */
  case DESERT_TYPE_F64: return "f64_bits";
  case DESERT_TYPE_UNIT: return ""; /* nothing on the wire */
  case DESERT_TYPE_CHAR: return "char";
  case DESERT_TYPE_STRING: return "string";
  case DESERT_TYPE_DEDUP_STRING: return "dedup_string";
  case DESERT_TYPE_VAR_U32: return "var_u32";
  case DESERT_TYPE_VAR_I32: return "var_i32";
  case DESERT_TYPE_BYTES: return "bytes";
  case DESERT_TYPE_UUID: return "uuid";
  default: return NULL;
  }
}

/* Bytes per element of a list read and written in bulk (the codec's
 * bulk_width for the generated element types); 0 for other elements. */
static unsigned bulk_width(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_I16: case DESERT_TYPE_U16: return 2;
  case DESERT_TYPE_I32: case DESERT_TYPE_U32: case DESERT_TYPE_F32: return 4;
  case DESERT_TYPE_I64: case DESERT_TYPE_U64: case DESERT_TYPE_F64: return 8;
  default: return 0;
  }
}

static bool is_desc_node(const gc_node *n) {
  return !n->mark && (n->kind == GC_ENTRY ||
                      (n->kind == GC_STRUCT && (n->t->kind == DESERT_TYPE_RECORD ||
                                                n->t->kind == DESERT_TYPE_TUPLE ||
                                                n->t->kind == DESERT_TYPE_ENUM)));
}

/* ---- which nodes get direct functions ------------------------------------------------ */

/* A value inside a node that is direct (records and enums it holds are
 * called, through their direct functions or their descriptors). */
static bool value_direct(const gc_model *m, const gc_node *owner, const desert_type *t,
                         unsigned vd) {
  t = gc_skip_transparent(t);
  if (gc_builtin_ctype(t->kind)) return simple_name(t->kind) != NULL;
  gc_node *s = gc_model_struct_of(m, t);
  if (owner && gc_model_is_pointer(m, owner, t)) return true;
  const desert_type *st = s->t;
  switch (st->kind) {
  case DESERT_TYPE_RECORD:
  case DESERT_TYPE_TUPLE:
    return true;
  default:
    break;
  }
  if (vd >= GC_VALUE_DEPTH) return false;
  switch (st->kind) {
  case DESERT_TYPE_ENUM:
  case DESERT_TYPE_MAP:
    return true;
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
    return value_direct(m, NULL, st->u.coll.element, vd + 1);
  case DESERT_TYPE_OPTION:
    return value_direct(m, s, st->u.inner, vd + 1);
  default: /* EITHER, TRY */
    return value_direct(m, s, st->u.alt.left, vd + 1) &&
           value_direct(m, s, st->u.alt.right, vd + 1);
  }
}

static bool node_direct(const gc_model *m, const gc_node *n) {
  if (!is_desc_node(n)) return false;
  const desert_type *t = n->t;
  if (n->kind == GC_ENTRY)
    return value_direct(m, n, t->u.coll.element, 0) && value_direct(m, n, t->u.coll.value, 0);
  if (t->kind == DESERT_TYPE_ENUM) return true;
  size_t count = t->kind == DESERT_TYPE_TUPLE ? t->u.tuple.count : t->u.record.field_count;
  for (size_t i = 0; i < count; i++)
    if (!value_direct(m, n,
                      t->kind == DESERT_TYPE_TUPLE ? t->u.tuple.elements[i]
                                                   : t->u.record.fields[i].type,
                      0))
      return false;
  return true;
}

/* ---- emission ---------------------------------------------------------------------- */

typedef struct dx {
  const gc_model *m;
  gc_buf *b;
  unsigned tmp; /* numbers the locals of nested loops */
} dx;

static void ind(dx *x, unsigned depth) {
  for (unsigned i = 0; i < depth; i++) gc_printf(x->b, "  ");
}

/* The reader (dec) or writer call of a simple kind on the lvalue e. */
static void simple(dx *x, desert_type_kind k, const char *e, bool dec, unsigned d) {
  const char *fn = simple_name(k);
  if (!*fn) return; /* unit */
  ind(x, d);
  switch (k) {
  case DESERT_TYPE_F32:
  case DESERT_TYPE_F64: {
    const char *bt = k == DESERT_TYPE_F32 ? "uint32_t" : "uint64_t";
    if (dec)
      gc_printf(x->b, "{\n  %*s%s bits;\n  %*sif (desert_read_%s(r, &bits)) goto end;\n"
                      "  %*smemcpy(&%s, &bits, sizeof bits);\n%*s}\n",
                (int)d * 2, "", bt, (int)d * 2, "", fn, (int)d * 2, "", e, (int)d * 2, "");
    else
      gc_printf(x->b, "{\n  %*s%s bits;\n  %*smemcpy(&bits, &%s, sizeof bits);\n"
                      "  %*sif (desert_write_%s(w, bits)) goto end;\n%*s}\n",
                (int)d * 2, "", bt, (int)d * 2, "", e, (int)d * 2, "", fn, (int)d * 2, "");
    return;
  }
  case DESERT_TYPE_UUID:
    gc_printf(x->b, "if (desert_%s_uuid(%s, %s.bytes)) goto end;\n", dec ? "read" : "write",
              dec ? "r" : "w", e);
    return;
  case DESERT_TYPE_STRING:
  case DESERT_TYPE_DEDUP_STRING:
  case DESERT_TYPE_BYTES:
    if (!dec) {
      gc_printf(x->b, "if (desert_write_%s(w, %s.ptr, %s.len)) goto end;\n", fn, e, e);
      return;
    }
    break;
  default:
    break;
  }
  if (dec)
    gc_printf(x->b, "if (desert_read_%s(r, &%s)) goto end;\n", fn, e);
  else
    gc_printf(x->b, "if (desert_write_%s(w, %s)) goto end;\n", fn, e);
}

/* A record, tuple or entry of node s at the address expression a. */
static void call_struct(dx *x, const gc_node *s, const char *a, bool dec, unsigned d) {
  ind(x, d);
  if (s->direct)
    gc_printf(x->b, "if (g%s_%s(%s, %s)) goto end;\n", dec ? "r" : "w", s->name, dec ? "r" : "w",
              a);
  else
    gc_printf(x->b, "if (desert_cstruct_%s(%s, &cs_%s, %s)) goto end;\n",
              dec ? "decode" : "encode", dec ? "r" : "w", s->name, a);
}

static void value(dx *x, const gc_node *owner, const desert_type *t, const char *e, bool dec,
                  unsigned d);

/* One element el of list/set/map node s (element type et): a map entry is
 * a struct called by address, anything else a value. */
static void element(dx *x, const gc_node *s, const desert_type *et, const char *el, bool dec,
                    unsigned d) {
  if (s->t->kind == DESERT_TYPE_MAP) {
    char a[720];
    snprintf(a, sizeof a, "&%s", el);
    call_struct(x, s->entry, a, dec, d);
  } else {
    value(x, NULL, et, el, dec, d);
  }
}

/* The elements of a list, set or map at the lvalue e (items, count), as
 * the codec's enc_list / dec_list: known-size or unknown-size form, runs
 * of fixed-width numbers in bulk, other elements grown by doubling in the
 * reader's arena as they arrive (a count is never trusted for an
 * allocation). */
static void list(dx *x, const gc_node *s, const char *e, bool dec, unsigned d) {
  const desert_type *st = s->t;
  bool map = st->kind == DESERT_TYPE_MAP;
  const desert_type *et = map ? NULL : gc_skip_transparent(st->u.coll.element);
  const char *ct = map ? s->entry->name : gc_model_ctype(x->m, et);
  unsigned bw = !map && gc_builtin_ctype(et->kind) ? bulk_width(et->kind) : 0;
  unsigned k = x->tmp++;
  char el[700];
  gc_buf *b = x->b;
  if (!dec) {
    bool stream = st->u.coll.unknown_form;
    snprintf(el, sizeof el, "%s.items[i%u]", e, k);
    ind(x, d);
    gc_printf(b, "if (%s.count && !%s.items) {\n", e, e);
    ind(x, d + 1);
    gc_printf(b, "gc_wfail(w);\n");
    ind(x, d + 1);
    gc_printf(b, "goto end;\n");
    ind(x, d);
    gc_printf(b, "}\n");
    ind(x, d);
    if (stream)
      gc_printf(b, "if (desert_write_stream_begin(w)) goto end;\n");
    else
      gc_printf(b, "if (desert_write_count(w, %s.count)) goto end;\n", e);
    if (bw && !stream) {
      ind(x, d);
      gc_printf(b,
                "if (desert_write_u%u_array(w, (const uint%u_t *)(const void *)%s.items, "
                "%s.count))\n",
                bw * 8, bw * 8, e, e);
      ind(x, d + 1);
      gc_printf(b, "goto end;\n");
      return;
    }
    ind(x, d);
    gc_printf(b, "for (size_t i%u = 0; i%u < %s.count; i%u++) {\n", k, k, e, k);
    if (stream) {
      ind(x, d + 1);
      gc_printf(b, "if (desert_write_stream_item(w)) goto end;\n");
    }
    element(x, s, et, el, false, d + 1);
    ind(x, d);
    gc_printf(b, "}\n");
    if (stream) {
      ind(x, d);
      gc_printf(b, "if (desert_write_stream_end(w)) goto end;\n");
    }
    return;
  }
  ind(x, d);
  gc_printf(b, "{\n");
  d++;
  ind(x, d);
  gc_printf(b, "desert_seq sq%u;\n", k);
  ind(x, d);
  gc_printf(b, "if (desert_read_seq_begin(r, &sq%u)) goto end;\n", k);
  if (bw) {
    ind(x, d);
    gc_printf(b, "if (sq%u.known) {\n", k);
    ind(x, d + 1);
    gc_printf(b, "if (sq%u.count) {\n", k);
    ind(x, d + 2);
    gc_printf(b,
              "if (sq%u.count > SIZE_MAX / %u || !desert_reader_ensure(r, sq%u.count * %u)) {\n",
              k, bw, k, bw);
    ind(x, d + 3);
    gc_printf(b,
              "desert_reader_fail(r, DESERT_E_INPUT_ENDED,\n");
    ind(x, d + 3);
    gc_printf(b, "                   desert_reader_offset(r) + desert_reader_remaining(r) / %u * %u);\n",
              bw, bw);
    ind(x, d + 3);
    gc_printf(b, "goto end;\n");
    ind(x, d + 2);
    gc_printf(b, "}\n");
    ind(x, d + 2);
    gc_printf(b, "%s *a%u = (%s *)desert_reader_alloc(r, sq%u.count * %u, 16);\n", ct, k, ct, k,
              bw);
    ind(x, d + 2);
    gc_printf(b, "if (!a%u) goto end;\n", k);
    ind(x, d + 2);
    gc_printf(b, "if (desert_read_u%u_array(r, (uint%u_t *)(void *)a%u, sq%u.count)) goto end;\n",
              bw * 8, bw * 8, k, k);
    ind(x, d + 2);
    gc_printf(b, "%s.items = a%u;\n", e, k);
    ind(x, d + 2);
    gc_printf(b, "%s.count = sq%u.count;\n", e, k);
    ind(x, d + 1);
    gc_printf(b, "}\n");
    ind(x, d);
    gc_printf(b, "} else {\n");
    d++;
  }
  ind(x, d);
  gc_printf(b, "size_t c%u = sq%u.known ? (sq%u.count < 16 ? sq%u.count : 16) : 16, n%u = 0;\n", k,
            k, k, k, k);
  ind(x, d);
  gc_printf(b, "%s *it%u = NULL;\n", ct, k);
  ind(x, d);
  gc_printf(b, "while (desert_read_seq_next(r, &sq%u)) {\n", k);
  ind(x, d + 1);
  gc_printf(b, "if (n%u == c%u || !it%u) {\n", k, k, k);
  ind(x, d + 2);
  gc_printf(b, "size_t nc = it%u ? c%u * 2 : (c%u ? c%u : 1);\n", k, k, k, k);
  ind(x, d + 2);
  gc_printf(b, "if (nc > SIZE_MAX / sizeof(%s)) {\n", ct);
  ind(x, d + 3);
  gc_printf(b, "desert_reader_fail(r, DESERT_E_LIMIT, desert_reader_offset(r));\n");
  ind(x, d + 3);
  gc_printf(b, "goto end;\n");
  ind(x, d + 2);
  gc_printf(b, "}\n");
  ind(x, d + 2);
  gc_printf(b, "%s *ni = (%s *)desert_reader_alloc(r, nc * sizeof(%s), 16);\n", ct, ct, ct);
  ind(x, d + 2);
  gc_printf(b, "if (!ni) goto end;\n");
  ind(x, d + 2);
  gc_printf(b, "if (n%u) memcpy(ni, it%u, n%u * sizeof(%s));\n", k, k, k, ct);
  ind(x, d + 2);
  gc_printf(b, "it%u = ni;\n", k);
  ind(x, d + 2);
  gc_printf(b, "c%u = nc;\n", k);
  ind(x, d + 1);
  gc_printf(b, "}\n");
  ind(x, d + 1);
  gc_printf(b, "memset(&it%u[n%u], 0, sizeof(%s));\n", k, k, ct);
  snprintf(el, sizeof el, "it%u[n%u]", k, k);
  element(x, s, et, el, true, d + 1);
  ind(x, d + 1);
  gc_printf(b, "n%u++;\n", k);
  ind(x, d);
  gc_printf(b, "}\n");
  ind(x, d);
  gc_printf(b, "if (desert_reader_status(r)) goto end;\n");
  ind(x, d);
  gc_printf(b, "%s.items = n%u ? it%u : NULL;\n", e, k, k);
  ind(x, d);
  gc_printf(b, "%s.count = n%u;\n", e, k);
  if (bw) {
    d--;
    ind(x, d);
    gc_printf(b, "}\n");
  }
  d--;
  ind(x, d);
  gc_printf(b, "}\n");
}

/* An option, either or try struct at the lvalue e: the tag into its flag,
 * then the branch it selects (owner s: members that point back). */
static void alternative(dx *x, const gc_node *s, const char *e, bool dec, unsigned d) {
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
  char m1[720], m0[720];
  snprintf(m1, sizeof m1, "%s.%s", e, one);
  ind(x, d);
  if (dec)
    gc_printf(x->b, "if (desert_read_%s(r, &%s.%s)) goto end;\n", fn, e, flag);
  else
    gc_printf(x->b, "if (desert_write_%s(w, %s.%s)) goto end;\n", fn, e, flag);
  ind(x, d);
  gc_printf(x->b, "if (%s.%s) {\n", e, flag);
  value(x, s, t1, m1, dec, d + 1);
  if (zero) {
    snprintf(m0, sizeof m0, "%s.%s", e, zero);
    ind(x, d);
    gc_printf(x->b, "} else {\n");
    value(x, s, t0, m0, dec, d + 1);
  }
  ind(x, d);
  gc_printf(x->b, "}\n");
}

/* The value of type t at the lvalue e, inside a function of node owner
 * (NULL for list elements, as the codec sees them). */
static void value(dx *x, const gc_node *owner, const desert_type *t, const char *e, bool dec,
                  unsigned d) {
  t = gc_skip_transparent(t);
  if (gc_builtin_ctype(t->kind)) {
    simple(x, t->kind, e, dec, d);
    return;
  }
  gc_node *s = gc_model_struct_of(x->m, t);
  char a[720];
  if (owner && gc_model_is_pointer(x->m, owner, t)) {
    /* Allocated only once the record's first byte is there (as the codec),
     * so a chain of pointers cannot allocate ahead of its bytes. */
    unsigned k = x->tmp++;
    snprintf(a, sizeof a, "q%u", k);
    ind(x, d);
    if (!dec) {
      gc_printf(x->b, "if (!%s) {\n", e);
      ind(x, d + 1);
      gc_printf(x->b, "gc_wfail(w);\n");
      ind(x, d + 1);
      gc_printf(x->b, "goto end;\n");
      ind(x, d);
      gc_printf(x->b, "}\n");
      call_struct(x, s, e, false, d);
      return;
    }
    gc_printf(x->b, "{\n");
    ind(x, d + 1);
    gc_printf(x->b, "if (!desert_reader_ensure(r, 1)) {\n");
    ind(x, d + 2);
    gc_printf(x->b, "desert_reader_fail(r, DESERT_E_INPUT_ENDED, desert_reader_offset(r));\n");
    ind(x, d + 2);
    gc_printf(x->b, "goto end;\n");
    ind(x, d + 1);
    gc_printf(x->b, "}\n");
    ind(x, d + 1);
    gc_printf(x->b, "%s *q%u = (%s *)desert_reader_alloc(r, sizeof(%s), 16);\n", s->name, k,
              s->name, s->name);
    ind(x, d + 1);
    gc_printf(x->b, "if (!q%u) goto end;\n", k);
    call_struct(x, s, a, true, d + 1);
    ind(x, d + 1);
    gc_printf(x->b, "%s = q%u;\n", e, k);
    ind(x, d);
    gc_printf(x->b, "}\n");
    return;
  }
  snprintf(a, sizeof a, "&%s", e);
  switch (s->t->kind) {
  case DESERT_TYPE_RECORD:
  case DESERT_TYPE_TUPLE:
    call_struct(x, s, a, dec, d);
    return;
  case DESERT_TYPE_ENUM:
    ind(x, d);
    gc_printf(x->b, "if (g%s_%s(%s, %s)) goto end;\n", dec ? "r" : "w", s->name, dec ? "r" : "w",
              a);
    return;
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
  case DESERT_TYPE_MAP:
    list(x, s, e, dec, d);
    return;
  default:
    alternative(x, s, e, dec, d);
    return;
  }
}

/* Appends the function body in `body` and its `end:` label when a goto
 * uses it (an unused label is a warning). */
static void finish(gc_buf *out, gc_buf *body, const char *tail) {
  gc_put(out, body->data ? body->data : "", body->len);
  if (body->data && strstr(body->data, "goto end;")) gc_printf(out, "end:\n");
  gc_printf(out, "%s}\n\n", tail);
  if (body->failed) out->failed = true;
  gc_buf_free(body);
}

/* The head of gr_<name> (dec) or gw_<name>; the body then goes to x->b. */
static void open_fn(dx *x, gc_buf *out, gc_buf *body, const gc_node *n, bool dec) {
  gc_printf(out, "static desert_status g%s_%s(desert_%s *%s, %s%s *o) {\n", dec ? "r" : "w",
            n->name, dec ? "reader" : "writer", dec ? "r" : "w", dec ? "" : "const ", n->name);
  x->b = body;
  x->tmp = 0;
}

/* A record, tuple or map entry: the members in declaration order. */
static void emit_struct(dx *x, gc_buf *out, const gc_node *n, bool dec) {
  const desert_type *t = n->t;
  bool entry = n->kind == GC_ENTRY, tuple = !entry && t->kind == DESERT_TYPE_TUPLE;
  size_t count = entry ? 2 : tuple ? t->u.tuple.count : t->u.record.field_count;
  gc_buf body = {0};
  open_fn(x, out, &body, n, dec);
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
    const desert_type *ft = entry   ? (i ? t->u.coll.value : t->u.coll.element)
                            : tuple ? t->u.tuple.elements[i]
                                    : t->u.record.fields[i].type;
    unsigned flags = entry || tuple ? 0 : t->u.record.fields[i].flags;
    const char *flag = entry || tuple ? NULL : n->flags[i];
    char e[600];
    snprintf(e, sizeof e, "o->%s", entry ? (i ? "value" : "key") : n->members[i]);
    bool has_default = gc_cstruct_has_default(n, i);
    if (dec) {
      gc_printf(&body, "  if (desert_record_read_field(&rr, %zu, &a)) goto end;\n", i);
      if (flags & DESERT_FIELD_TRANSIENT) {
        /* never READ: only its transient default, if not zero */
        if (has_default) gc_printf(&body, "  if (a != DESERT_FIELD_NONE) cs_d_%s(o, %zu);\n", n->name, i);
        continue;
      }
      gc_printf(&body, "  if (a == DESERT_FIELD_READ) {\n");
      if ((flags & DESERT_FIELD_OPTIONAL) && flag) gc_printf(&body, "    o->%s = true;\n", flag);
      value(x, n, ft, e, true, 2);
      if (has_default)
        gc_printf(&body, "  } else if (a != DESERT_FIELD_NONE) {\n    cs_d_%s(o, %zu);\n", n->name, i);
      gc_printf(&body, "  }\n");
    } else {
      if (flags & DESERT_FIELD_TRANSIENT) continue;
      if (flags & DESERT_FIELD_OPTIONAL) {
        gc_printf(&body, "  if (desert_record_write_field_option(&rw, %zu, o->%s)) goto end;\n"
                         "  if (o->%s) {\n",
                  i, flag, flag);
        value(x, n, ft, e, false, 2);
        gc_printf(&body, "  }\n");
      } else {
        gc_printf(&body, "  if (desert_record_write_field(&rw, %zu)) goto end;\n", i);
        value(x, n, ft, e, false, 1);
      }
    }
  }
  if (dec && count == 0) gc_printf(&body, "  (void)a;\n");
  if (!dec && !(body.data && strstr(body.data, "o->"))) /* no field is written */
    gc_printf(&body, "  (void)o;\n");
  finish(out, &body, dec ? "  return desert_record_read_end(&rr);\n"
                            : "  return desert_record_write_end(&rw);\n");
}

static void emit_enum(dx *x, gc_buf *out, const gc_node *n, bool dec) {
  const desert_type *t = n->t;
  gc_buf body = {0};
  open_fn(x, out, &body, n, dec);
  if (dec)
    gc_printf(out,
              "  size_t index;\n"
              "  if (desert_enum_read_begin(r, &cs_%s.desc, &index)) return desert_reader_status(r);\n"
              "  o->tag = (%s)index;\n",
              n->name, n->tag_type);
  else
    gc_printf(out,
              "  uint32_t tag = (uint32_t)o->tag;\n"
              "  if (tag >= %zu) return gc_wfail(w);\n"
              "  if (desert_enum_write_begin(w, &cs_%s.desc, tag)) return desert_writer_status(w);\n",
              t->u.enumeration.count, n->name);
  gc_printf(&body, "  switch (%s) {\n", dec ? "index" : "tag");
  for (size_t i = 0; i < t->u.enumeration.count; i++) {
    const desert_type_ctor *c = &t->u.enumeration.ctors[i];
    if (!gc_enum_case_has_member(c)) continue;
    char a[600];
    snprintf(a, sizeof a, "&o->%s", n->members[i]);
    gc_printf(&body, "  case %zu:\n", i);
    call_struct(x, gc_model_struct_of(x->m, c->payload), a, dec, 2);
    gc_printf(&body, "    break;\n");
  }
  /* a case without fields: the empty record (00) */
  if (dec)
    gc_printf(&body, "  default: {\n    desert_record_reader rr;\n"
                     "    if (!desert_record_read_begin(r, &gc_empty_record, &rr)) "
                     "desert_record_read_end(&rr);\n    break;\n  }\n  }\n");
  else
    gc_printf(&body, "  default: {\n    desert_record_writer rw;\n"
                     "    if (!desert_record_write_begin(w, &gc_empty_record, &rw)) "
                     "desert_record_write_end(&rw);\n    break;\n  }\n  }\n");
  char tail[400];
  if (dec)
    snprintf(tail, sizeof tail, "  return desert_enum_read_end(r, &cs_%s.desc);\n", n->name);
  else
    snprintf(tail, sizeof tail, "  return desert_writer_status(w);\n");
  finish(out, &body, tail);
}

void gc_direct_analyse(const gc_model *m) {
  for (size_t i = 0; i < m->count; i++) m->nodes[i]->direct = node_direct(m, m->nodes[i]);
}

void gc_direct_emit(const gc_model *m, gc_buf *out) {
  bool any = false;
  for (size_t i = 0; i < m->count && !any; i++) any = m->nodes[i]->direct;
  if (!any) return;
  gc_printf(out,
            "/* Records a DESERT_E_ARGUMENT in the writer (unless it holds an error\n"
            " * already), as the C-struct codec does for a value its C type cannot\n"
            " * hold: desert_write_raw refuses NULL with a length. */\n"
            "GC_UNUSED static desert_status gc_wfail(desert_writer *w) {\n"
            "  return desert_write_raw(w, NULL, 1);\n}\n"
            "/* The record of an enum case without fields (the byte 00). */\n"
            "GC_UNUSED static const desert_record_desc gc_empty_record = {NULL, NULL, 0, NULL, 0};\n\n");
  for (size_t i = 0; i < m->count; i++) {
    const gc_node *n = m->nodes[i];
    if (!n->direct) continue;
    gc_printf(out, "GC_UNUSED static desert_status gw_%s(desert_writer *w, const %s *o);\n", n->name,
              n->name);
    gc_printf(out, "GC_UNUSED static desert_status gr_%s(desert_reader *r, %s *o);\n", n->name,
              n->name);
  }
  gc_printf(out, "\n");
  dx x = {m, NULL, 0};
  for (size_t i = 0; i < m->count; i++) {
    const gc_node *n = m->nodes[i];
    if (!n->direct) continue;
    gc_printf(out, "/* %s (%s) */\n", n->name, n->path);
    for (int dec = 0; dec < 2; dec++) {
      if (n->kind == GC_STRUCT && n->t->kind == DESERT_TYPE_ENUM)
        emit_enum(&x, out, n, dec);
      else
        emit_struct(&x, out, n, dec);
    }
  }
}
