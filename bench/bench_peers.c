/* bench/bench_peers.c — the peer libraries in the same binary:
 * the values of the desert rows (bench_values.h) encoded with msgpack-c
 * (Debian libmsgpack-dev 4.0, C API: msgpack_sbuffer / msgpack_packer /
 * msgpack_unpack_next) and protobuf-c (libprotobuf-c-dev 1.4, messages of
 * proto/desert_bench.proto generated at build time), under the same row
 * keys, so the report can put them side by side.
 *
 * Same rules as the desert rows:
 *   ser fresh   a new output buffer per op (msgpack: sbuffer init/destroy;
 *               protobuf-c: get_packed_size + malloc + pack + free);
 *   ser reused  one buffer per row (msgpack_sbuffer_clear; protobuf-c:
 *               get_packed_size + pack into the row's buffer);
 *   de          msgpack: msgpack_unpack_next into the row's
 *               msgpack_unpacked (strings and binaries stay views into the
 *               input), then the values are taken out into the
 *               application's struct, since a msgpack_object tree is not
 *               typed data; protobuf-c: <msg>__unpack with the default
 *               allocator (its messages are the typed structs), one field
 *               read, free_unpacked;
 *   rt          ser then de of the bytes just written.
 * Messages for protobuf-c are built from the application values in setup
 * (the application is assumed to hold protobuf-c structs already), which
 * favours protobuf-c. msgpack encodes records positionally (arrays), its
 * most compact and fastest form; neither peer has desert's evolution
 * header or string deduplication (case 9 writes 100 plain strings).
 * Every row checks its output once: the decoded values equal the source.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_values.h"

#if defined(DESERT_BENCH_HAVE_MSGPACK) || defined(DESERT_BENCH_HAVE_PROTOBUF_C)

#ifdef DESERT_BENCH_HAVE_MSGPACK
#include <msgpack.h>
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
#include "desert_bench.pb-c.h"
#endif

#define K CODEC_K

/* ---- value types ------------------------------------------------------------------ */

enum vt {
  VT_I32,
  VT_VARI32,
  VT_STR,
  VT_I32ARR_1K,
  VT_I32ARR_10K,
  VT_BYTES_4K,
  VT_BYTES_64K,
  VT_REC8,
  VT_DEDUP,
  VT_STR100,
  VT_MAP100,
  VT_OPT,
  VT_WIDE16,
  VT_WIDE256,
  VT_TERMS100,
  VT_TERMS500,
  VT_TERMS1000,
  VT_TERMS5000,
  VT_COUNT_
};

enum op { OP_SER_FRESH, OP_SER_REUSED, OP_DE, OP_RT_FRESH, OP_RT_REUSED, OP_SIZE };
enum lib { LIB_MSGPACK = 1, LIB_PROTOBUF = 2 };

static size_t vt_n(int vt) {
  switch (vt) {
  case VT_I32ARR_1K:
    return 1000;
  case VT_I32ARR_10K:
    return 10000;
  case VT_BYTES_4K:
    return 4096;
  case VT_BYTES_64K:
    return 65536;
  case VT_DEDUP:
  case VT_STR100:
  case VT_MAP100:
  case VT_TERMS100:
    return 100;
  case VT_WIDE16:
    return 16;
  case VT_WIDE256:
    return 256;
  case VT_TERMS500:
    return 500;
  case VT_TERMS1000:
    return 1000;
  case VT_TERMS5000:
    return 5000;
  default:
    return 1;
  }
}

typedef struct view {
  const char *p;
  size_t len;
} view;

/* Application values (the source of encoding, the target of msgpack's
 * extraction). One struct type per value type; a union keeps it simple. */
typedef struct app_term {
  view term;
  int32_t doc_freq;
  size_t npost;
  uint32_t post[BV_MAX_POSTINGS];
} app_term;

typedef struct app_rec8 {
  int32_t id;
  view name;
  double score;
  bool active;
  size_t ntags;
  view tags[8];
} app_rec8;

/* Variant value: what bench_values makes. */
typedef struct val {
  int32_t i32;
  char text[BV_FOX_LEN + 1]; /* fox or dedup text */
  int32_t *arr;
  uint8_t *bytes;
  bv_rec8 rec;
  bv_strlist list;
  bv_strmap map;
  bv_wide *wide;
  bv_terms terms;
} val;

static void val_free(val *v) {
  if (!v) return;
  free(v->arr);
  free(v->bytes);
  free(v->wide);
  bv_terms_free(&v->terms);
  free(v);
}

static val *val_make(int vt, unsigned k) {
  val *v = calloc(1, sizeof *v);
  if (!v) return NULL;
  size_t n = vt_n(vt);
  switch (vt) {
  case VT_I32:
    v->i32 = bv_i32(k);
    break;
  case VT_VARI32:
    v->i32 = bv_var_i32(k);
    break;
  case VT_OPT:
    v->i32 = bv_opt_i32(k);
    break;
  case VT_STR:
    bv_fox(k, v->text);
    break;
  case VT_DEDUP:
    bv_dedup(k, v->text);
    break;
  case VT_I32ARR_1K:
  case VT_I32ARR_10K:
    if (!(v->arr = malloc(n * sizeof *v->arr))) goto fail;
    bv_i32_array(k, n, v->arr);
    break;
  case VT_BYTES_4K:
  case VT_BYTES_64K:
    if (!(v->bytes = malloc(n))) goto fail;
    bv_bytes(k, n, v->bytes);
    break;
  case VT_REC8:
    bv_record8(k, &v->rec);
    break;
  case VT_STR100:
    bv_strlist_make(k, &v->list);
    break;
  case VT_MAP100:
    bv_strmap_make(k, &v->map);
    break;
  case VT_WIDE16:
  case VT_WIDE256:
    if (!(v->wide = malloc(sizeof *v->wide))) goto fail;
    bv_wide_make(k, n, v->wide);
    break;
  default:
    if (bv_terms_make(k, n, &v->terms)) goto fail;
  }
  return v;
fail:
  val_free(v);
  return NULL;
}

/* Application output struct for msgpack extraction, big enough for every type. */
typedef struct app_out {
  int32_t i32;
  bool some;
  view str;
  int32_t *arr;   /* n */
  view *strs;     /* n */
  int32_t *ivals; /* n (map values) */
  app_rec8 rec;
  bv_wide wide;
  app_term *terms; /* n */
} app_out;

static void out_free(app_out *o) {
  if (!o) return;
  free(o->arr);
  free(o->strs);
  free(o->ivals);
  free(o->terms);
  free(o);
}

static app_out *out_make(size_t n) {
  app_out *o = calloc(1, sizeof *o);
  if (!o) return NULL;
  o->arr = malloc(n * sizeof *o->arr);
  o->strs = malloc(n * sizeof *o->strs);
  o->ivals = malloc(n * sizeof *o->ivals);
  o->terms = malloc(n * sizeof *o->terms);
  if (!o->arr || !o->strs || !o->ivals || !o->terms) {
    out_free(o);
    return NULL;
  }
  return o;
}

#ifdef DESERT_BENCH_HAVE_MSGPACK
static int view_is(view a, const char *s, size_t len) {
  return a.len == len && !memcmp(a.p, s, len);
}
#endif

/* ---- row state ------------------------------------------------------------------- */

typedef struct ps {
  int vt, op, lib;
  size_t n;
  val *v[K];
  uint8_t *enc[K]; /* this library's encoding of variant k (decode rows) */
  size_t enc_len[K];
  app_out *out;
  uint8_t *buf; /* reused output buffer (protobuf-c) */
  size_t buf_cap;
#ifdef DESERT_BENCH_HAVE_MSGPACK
  msgpack_sbuffer sb;
  msgpack_unpacked up;
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
  ProtobufCMessage *msg[K];
  void *aux[K][3]; /* storage the messages point into */
  const ProtobufCMessageDescriptor *desc;
#endif
} ps;

/* ================================ msgpack-c ================================= */
#ifdef DESERT_BENCH_HAVE_MSGPACK

static void mp_pack(msgpack_packer *pk, int vt, const val *v, size_t n) {
  switch (vt) {
  case VT_I32:
  case VT_VARI32:
    msgpack_pack_int32(pk, v->i32);
    break;
  case VT_OPT:
    msgpack_pack_int32(pk, v->i32);
    break; /* Some(x) = x, None = nil */
  case VT_STR:
    msgpack_pack_str_with_body(pk, v->text, BV_FOX_LEN);
    break;
  case VT_I32ARR_1K:
  case VT_I32ARR_10K:
    msgpack_pack_array(pk, n);
    for (size_t j = 0; j < n; j++) msgpack_pack_int32(pk, v->arr[j]);
    break;
  case VT_BYTES_4K:
  case VT_BYTES_64K:
    msgpack_pack_bin_with_body(pk, v->bytes, n);
    break;
  case VT_REC8:
    msgpack_pack_array(pk, 5);
    msgpack_pack_int32(pk, v->rec.id);
    msgpack_pack_str_with_body(pk, v->rec.name, v->rec.name_len);
    msgpack_pack_double(pk, v->rec.score);
    if (v->rec.active)
      msgpack_pack_true(pk);
    else
      msgpack_pack_false(pk);
    msgpack_pack_array(pk, 4);
    for (int t = 0; t < 4; t++) msgpack_pack_str_with_body(pk, v->rec.tag[t], v->rec.tag_len[t]);
    break;
  case VT_DEDUP:
    msgpack_pack_array(pk, 100);
    for (int j = 0; j < 100; j++) msgpack_pack_str_with_body(pk, v->text, BV_DEDUP_LEN);
    break;
  case VT_STR100:
    msgpack_pack_array(pk, 100);
    for (int j = 0; j < 100; j++) msgpack_pack_str_with_body(pk, v->list.s[j], v->list.len[j]);
    break;
  case VT_MAP100:
    msgpack_pack_map(pk, 100);
    for (int j = 0; j < 100; j++) {
      msgpack_pack_str_with_body(pk, v->map.key[j], v->map.len[j]);
      msgpack_pack_int32(pk, v->map.val[j]);
    }
    break;
  case VT_WIDE16:
  case VT_WIDE256: {
    const bv_wide *w = v->wide;
    msgpack_pack_array(pk, w->fields);
    for (size_t i = 0; i < w->fields; i++) {
      size_t s = i / 4;
      switch (i % 4) {
      case 0:
        msgpack_pack_int64(pk, w->i64[s]);
        break;
      case 1:
        msgpack_pack_bin_with_body(pk, w->bin[s], 16);
        break;
      case 2:
        if (w->b[s])
          msgpack_pack_true(pk);
        else
          msgpack_pack_false(pk);
        break;
      default:
        msgpack_pack_array(pk, 3);
        for (int j = 0; j < 3; j++) msgpack_pack_int64(pk, w->list[s][j]);
      }
    }
    break;
  }
  default: {
    const bv_terms *d = &v->terms;
    msgpack_pack_array(pk, d->n);
    for (size_t i = 0; i < d->n; i++) {
      const bv_term *t = &d->t[i];
      msgpack_pack_array(pk, 3);
      msgpack_pack_str_with_body(pk, t->s, t->len);
      msgpack_pack_int32(pk, t->doc_freq);
      msgpack_pack_array(pk, t->npost);
      for (size_t j = 0; j < t->npost; j++) msgpack_pack_uint32(pk, t->post[j]);
    }
  }
  }
}

static int mp_int(const msgpack_object *o, int64_t *out) {
  if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
    *out = (int64_t)o->via.u64;
    return 0;
  }
  if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
    *out = o->via.i64;
    return 0;
  }
  return 1;
}

static int mp_str(const msgpack_object *o, view *out) {
  if (o->type != MSGPACK_OBJECT_STR) return 1;
  out->p = o->via.str.ptr;
  out->len = o->via.str.size;
  return 0;
}

/* Takes the values out of the object tree into the application struct; 0 on success. */
static int mp_get(const msgpack_object *o, int vt, size_t n, app_out *a) {
  int64_t x;
  switch (vt) {
  case VT_I32:
  case VT_VARI32:
    if (mp_int(o, &x)) return 1;
    a->i32 = (int32_t)x;
    return 0;
  case VT_OPT:
    a->some = o->type != MSGPACK_OBJECT_NIL;
    if (a->some && mp_int(o, &x)) return 1;
    a->i32 = a->some ? (int32_t)x : 0;
    return 0;
  case VT_STR:
    return mp_str(o, &a->str);
  case VT_I32ARR_1K:
  case VT_I32ARR_10K: {
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != n) return 1;
    const msgpack_object *e = o->via.array.ptr;
    for (size_t j = 0; j < n; j++) {
      if (mp_int(&e[j], &x)) return 1;
      a->arr[j] = (int32_t)x;
    }
    return 0;
  }
  case VT_BYTES_4K:
  case VT_BYTES_64K:
    if (o->type != MSGPACK_OBJECT_BIN) return 1;
    a->str.p = o->via.bin.ptr;
    a->str.len = o->via.bin.size;
    return 0;
  case VT_REC8: {
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 5) return 1;
    const msgpack_object *f = o->via.array.ptr;
    if (mp_int(&f[0], &x) || mp_str(&f[1], &a->rec.name)) return 1;
    a->rec.id = (int32_t)x;
    if (f[2].type != MSGPACK_OBJECT_FLOAT64 || f[3].type != MSGPACK_OBJECT_BOOLEAN ||
        f[4].type != MSGPACK_OBJECT_ARRAY || f[4].via.array.size > 8)
      return 1;
    a->rec.score = f[2].via.f64;
    a->rec.active = f[3].via.boolean;
    a->rec.ntags = f[4].via.array.size;
    for (size_t t = 0; t < a->rec.ntags; t++)
      if (mp_str(&f[4].via.array.ptr[t], &a->rec.tags[t])) return 1;
    return 0;
  }
  case VT_DEDUP:
  case VT_STR100: {
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != n) return 1;
    for (size_t j = 0; j < n; j++)
      if (mp_str(&o->via.array.ptr[j], &a->strs[j])) return 1;
    return 0;
  }
  case VT_MAP100: {
    if (o->type != MSGPACK_OBJECT_MAP || o->via.map.size != n) return 1;
    const msgpack_object_kv *kv = o->via.map.ptr;
    for (size_t j = 0; j < n; j++) {
      if (mp_str(&kv[j].key, &a->strs[j]) || mp_int(&kv[j].val, &x)) return 1;
      a->ivals[j] = (int32_t)x;
    }
    return 0;
  }
  case VT_WIDE16:
  case VT_WIDE256: {
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != n) return 1;
    const msgpack_object *f = o->via.array.ptr;
    a->wide.fields = n;
    for (size_t i = 0; i < n; i++) {
      size_t s = i / 4;
      switch (i % 4) {
      case 0:
        if (mp_int(&f[i], &a->wide.i64[s])) return 1;
        break;
      case 1:
        if (f[i].type != MSGPACK_OBJECT_BIN || f[i].via.bin.size != 16) return 1;
        memcpy(a->wide.bin[s], f[i].via.bin.ptr, 16);
        break;
      case 2:
        if (f[i].type != MSGPACK_OBJECT_BOOLEAN) return 1;
        a->wide.b[s] = f[i].via.boolean;
        break;
      default:
        if (f[i].type != MSGPACK_OBJECT_ARRAY || f[i].via.array.size != 3) return 1;
        for (int j = 0; j < 3; j++)
          if (mp_int(&f[i].via.array.ptr[j], &a->wide.list[s][j])) return 1;
      }
    }
    return 0;
  }
  default: {
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != n) return 1;
    for (size_t i = 0; i < n; i++) {
      const msgpack_object *t = &o->via.array.ptr[i];
      app_term *at = &a->terms[i];
      if (t->type != MSGPACK_OBJECT_ARRAY || t->via.array.size != 3) return 1;
      const msgpack_object *f = t->via.array.ptr;
      if (mp_str(&f[0], &at->term) || mp_int(&f[1], &x)) return 1;
      at->doc_freq = (int32_t)x;
      if (f[2].type != MSGPACK_OBJECT_ARRAY || f[2].via.array.size > BV_MAX_POSTINGS) return 1;
      at->npost = f[2].via.array.size;
      for (size_t j = 0; j < at->npost; j++) {
        if (mp_int(&f[2].via.array.ptr[j], &x)) return 1;
        at->post[j] = (uint32_t)x;
      }
    }
    return 0;
  }
  }
}

/* Compares extracted values with the source (msgpack rows). */
static int out_equal(int vt, size_t n, const app_out *a, const val *v) {
  switch (vt) {
  case VT_I32:
  case VT_VARI32:
    return a->i32 == v->i32;
  case VT_OPT:
    return a->some && a->i32 == v->i32;
  case VT_STR:
    return view_is(a->str, v->text, BV_FOX_LEN);
  case VT_I32ARR_1K:
  case VT_I32ARR_10K:
    return !memcmp(a->arr, v->arr, n * 4);
  case VT_BYTES_4K:
  case VT_BYTES_64K:
    return view_is(a->str, (const char *)v->bytes, n);
  case VT_REC8:
    if (a->rec.id != v->rec.id || !view_is(a->rec.name, v->rec.name, v->rec.name_len) ||
        memcmp(&a->rec.score, &v->rec.score, 8) || a->rec.active != v->rec.active ||
        a->rec.ntags != 4)
      return 0;
    for (int t = 0; t < 4; t++)
      if (!view_is(a->rec.tags[t], v->rec.tag[t], v->rec.tag_len[t])) return 0;
    return 1;
  case VT_DEDUP:
    for (size_t j = 0; j < n; j++)
      if (!view_is(a->strs[j], v->text, BV_DEDUP_LEN)) return 0;
    return 1;
  case VT_STR100:
    for (size_t j = 0; j < n; j++)
      if (!view_is(a->strs[j], v->list.s[j], v->list.len[j])) return 0;
    return 1;
  case VT_MAP100:
    for (size_t j = 0; j < n; j++)
      if (!view_is(a->strs[j], v->map.key[j], v->map.len[j]) || a->ivals[j] != v->map.val[j])
        return 0;
    return 1;
  case VT_WIDE16:
  case VT_WIDE256: {
    const bv_wide *w = v->wide;
    for (size_t i = 0; i < n; i++) {
      size_t s = i / 4;
      switch (i % 4) {
      case 0:
        if (a->wide.i64[s] != w->i64[s]) return 0;
        break;
      case 1:
        if (memcmp(a->wide.bin[s], w->bin[s], 16)) return 0;
        break;
      case 2:
        if (a->wide.b[s] != w->b[s]) return 0;
        break;
      default:
        if (memcmp(a->wide.list[s], w->list[s], 24)) return 0;
      }
    }
    return 1;
  }
  default:
    for (size_t i = 0; i < n; i++) {
      const bv_term *t = &v->terms.t[i];
      const app_term *at = &a->terms[i];
      if (!view_is(at->term, t->s, t->len) || at->doc_freq != t->doc_freq ||
          at->npost != t->npost || memcmp(at->post, t->post, t->npost * 4))
        return 0;
    }
    return 1;
  }
}

#endif /* DESERT_BENCH_HAVE_MSGPACK */

/* ================================ protobuf-c ================================ */
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C

static const ProtobufCMessageDescriptor *pb_descriptor(int vt) {
  switch (vt) {
  case VT_I32:
    return &dbench__i32__descriptor;
  case VT_VARI32:
    return &dbench__var_i32__descriptor;
  case VT_OPT:
    return &dbench__opt_i32__descriptor;
  case VT_STR:
    return &dbench__str__descriptor;
  case VT_I32ARR_1K:
  case VT_I32ARR_10K:
    return &dbench__i32_array__descriptor;
  case VT_BYTES_4K:
  case VT_BYTES_64K:
    return &dbench__bytes__descriptor;
  case VT_REC8:
    return &dbench__record__descriptor;
  case VT_DEDUP:
  case VT_STR100:
    return &dbench__strings__descriptor;
  case VT_MAP100:
    return &dbench__str_i32_map__descriptor;
  case VT_WIDE16:
    return &dbench__wide16__descriptor;
  case VT_WIDE256:
    return &dbench__wide256__descriptor;
  default:
    return &dbench__term_dict__descriptor;
  }
}

/* Builds the message of variant value v; storage it points into goes to aux. */
static ProtobufCMessage *pb_build(int vt, val *v, size_t n, void *aux[3]) {
  const ProtobufCMessageDescriptor *d = pb_descriptor(vt);
  ProtobufCMessage *m = calloc(1, d->sizeof_message);
  if (!m) return NULL;
  d->message_init(m);
  switch (vt) {
  case VT_I32:
    ((Dbench__I32 *)m)->v = v->i32;
    break;
  case VT_VARI32:
    ((Dbench__VarI32 *)m)->v = v->i32;
    break;
  case VT_OPT:
    ((Dbench__OptI32 *)m)->value_case = DBENCH__OPT_I32__VALUE_V;
    ((Dbench__OptI32 *)m)->v = v->i32;
    break;
  case VT_STR:
    ((Dbench__Str *)m)->s = v->text;
    break;
  case VT_I32ARR_1K:
  case VT_I32ARR_10K:
    ((Dbench__I32Array *)m)->n_v = n;
    ((Dbench__I32Array *)m)->v = v->arr;
    break;
  case VT_BYTES_4K:
  case VT_BYTES_64K:
    ((Dbench__Bytes *)m)->b.len = n;
    ((Dbench__Bytes *)m)->b.data = v->bytes;
    break;
  case VT_REC8: {
    Dbench__Record *r = (Dbench__Record *)m;
    char **tags = aux[0] = malloc(4 * sizeof *tags);
    if (!tags) goto fail;
    r->id = v->rec.id;
    r->name = v->rec.name;
    r->score = v->rec.score;
    r->active = v->rec.active;
    for (int t = 0; t < 4; t++) tags[t] = v->rec.tag[t];
    r->n_tags = 4;
    r->tags = tags;
    break;
  }
  case VT_DEDUP:
  case VT_STR100: {
    Dbench__Strings *s = (Dbench__Strings *)m;
    char **p = aux[0] = malloc(n * sizeof *p);
    if (!p) goto fail;
    for (size_t j = 0; j < n; j++) p[j] = vt == VT_DEDUP ? v->text : v->list.s[j];
    s->n_s = n;
    s->s = p;
    break;
  }
  case VT_MAP100: {
    Dbench__StrI32Map *s = (Dbench__StrI32Map *)m;
    Dbench__StrI32Map__MEntry *e = aux[0] = malloc(n * sizeof *e);
    Dbench__StrI32Map__MEntry **p = aux[1] = malloc(n * sizeof *p);
    if (!e || !p) goto fail;
    for (size_t j = 0; j < n; j++) {
      dbench__str_i32_map__mentry__init(&e[j]);
      e[j].key = v->map.key[j];
      e[j].value = v->map.val[j];
      p[j] = &e[j];
    }
    s->n_m = n;
    s->m = p;
    break;
  }
  case VT_WIDE16:
  case VT_WIDE256: {
    /* Field i of the generated struct, found through the descriptor
     * (fields are f0..fN in number order). */
    const bv_wide *w = v->wide;
    for (size_t i = 0; i < n; i++) {
      const ProtobufCFieldDescriptor *f = &d->fields[i];
      char *base = (char *)m;
      size_t s = i / 4;
      switch (i % 4) {
      case 0:
        memcpy(base + f->offset, &w->i64[s], 8);
        break;
      case 1: {
        ProtobufCBinaryData b = {16, (uint8_t *)w->bin[s]};
        memcpy(base + f->offset, &b, sizeof b);
        break;
      }
      case 2: {
        protobuf_c_boolean b = w->b[s];
        memcpy(base + f->offset, &b, sizeof b);
        break;
      }
      default: {
        size_t three = 3;
        const int64_t *lp = w->list[s];
        memcpy(base + f->quantifier_offset, &three, sizeof three);
        memcpy(base + f->offset, &lp, sizeof lp);
      }
      }
    }
    break;
  }
  default: {
    Dbench__TermDict *td = (Dbench__TermDict *)m;
    Dbench__Term *t = aux[0] = malloc(n * sizeof *t);
    Dbench__Term **p = aux[1] = malloc(n * sizeof *p);
    if (!t || !p) goto fail;
    for (size_t i = 0; i < n; i++) {
      const bv_term *s = &v->terms.t[i];
      dbench__term__init(&t[i]);
      t[i].term = (char *)s->s;
      t[i].doc_freq = s->doc_freq;
      t[i].n_postings = s->npost;
      t[i].postings = (uint32_t *)s->post;
      p[i] = &t[i];
    }
    td->n_terms = n;
    td->terms = p;
  }
  }
  return m;
fail:
  free(m);
  return NULL;
}

static int cstr_is(const char *a, const char *b, size_t len) {
  return strlen(a) == len && !memcmp(a, b, len);
}

/* Compares an unpacked message with the source value. */
static int pb_equal(int vt, size_t n, const ProtobufCMessage *m, const val *v) {
  switch (vt) {
  case VT_I32:
    return ((const Dbench__I32 *)m)->v == v->i32;
  case VT_VARI32:
    return ((const Dbench__VarI32 *)m)->v == v->i32;
  case VT_OPT:
    return ((const Dbench__OptI32 *)m)->value_case == DBENCH__OPT_I32__VALUE_V &&
           ((const Dbench__OptI32 *)m)->v == v->i32;
  case VT_STR:
    return cstr_is(((const Dbench__Str *)m)->s, v->text, BV_FOX_LEN);
  case VT_I32ARR_1K:
  case VT_I32ARR_10K: {
    const Dbench__I32Array *a = (const Dbench__I32Array *)m;
    return a->n_v == n && !memcmp(a->v, v->arr, n * 4);
  }
  case VT_BYTES_4K:
  case VT_BYTES_64K: {
    const Dbench__Bytes *b = (const Dbench__Bytes *)m;
    return b->b.len == n && !memcmp(b->b.data, v->bytes, n);
  }
  case VT_REC8: {
    const Dbench__Record *r = (const Dbench__Record *)m;
    if (r->id != v->rec.id || !cstr_is(r->name, v->rec.name, v->rec.name_len) ||
        memcmp(&r->score, &v->rec.score, 8) || (r->active != 0) != v->rec.active || r->n_tags != 4)
      return 0;
    for (int t = 0; t < 4; t++)
      if (!cstr_is(r->tags[t], v->rec.tag[t], v->rec.tag_len[t])) return 0;
    return 1;
  }
  case VT_DEDUP:
  case VT_STR100: {
    const Dbench__Strings *s = (const Dbench__Strings *)m;
    if (s->n_s != n) return 0;
    for (size_t j = 0; j < n; j++)
      if (vt == VT_DEDUP ? !cstr_is(s->s[j], v->text, BV_DEDUP_LEN)
                         : !cstr_is(s->s[j], v->list.s[j], v->list.len[j]))
        return 0;
    return 1;
  }
  case VT_MAP100: {
    const Dbench__StrI32Map *s = (const Dbench__StrI32Map *)m;
    if (s->n_m != n) return 0;
    for (size_t j = 0; j < n; j++)
      if (!cstr_is(s->m[j]->key, v->map.key[j], v->map.len[j]) || s->m[j]->value != v->map.val[j])
        return 0;
    return 1;
  }
  case VT_WIDE16:
  case VT_WIDE256: {
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const char *base = (const char *)m;
    const bv_wide *w = v->wide;
    for (size_t i = 0; i < n; i++) {
      const ProtobufCFieldDescriptor *f = &d->fields[i];
      size_t s = i / 4;
      switch (i % 4) {
      case 0:
        if (memcmp(base + f->offset, &w->i64[s], 8)) return 0;
        break;
      case 1: {
        ProtobufCBinaryData b;
        memcpy(&b, base + f->offset, sizeof b);
        if (b.len != 16 || memcmp(b.data, w->bin[s], 16)) return 0;
        break;
      }
      case 2: {
        protobuf_c_boolean b;
        memcpy(&b, base + f->offset, sizeof b);
        if ((b != 0) != w->b[s]) return 0;
        break;
      }
      default: {
        size_t cnt;
        const int64_t *lp;
        memcpy(&cnt, base + f->quantifier_offset, sizeof cnt);
        memcpy(&lp, base + f->offset, sizeof lp);
        if (cnt != 3 || memcmp(lp, w->list[s], 24)) return 0;
      }
      }
    }
    return 1;
  }
  default: {
    const Dbench__TermDict *td = (const Dbench__TermDict *)m;
    if (td->n_terms != n) return 0;
    for (size_t i = 0; i < n; i++) {
      const bv_term *s = &v->terms.t[i];
      const Dbench__Term *t = td->terms[i];
      if (!cstr_is(t->term, s->s, s->len) || t->doc_freq != s->doc_freq ||
          t->n_postings != s->npost || memcmp(t->postings, s->post, s->npost * 4))
        return 0;
    }
    return 1;
  }
  }
}

/* One field read after unpacking, so the decode is used. */
static uint64_t pb_touch(int vt, const ProtobufCMessage *m) {
  switch (vt) {
  case VT_I32:
    return (uint32_t)((const Dbench__I32 *)m)->v;
  case VT_VARI32:
    return (uint32_t)((const Dbench__VarI32 *)m)->v;
  case VT_OPT:
    return (uint32_t)((const Dbench__OptI32 *)m)->v;
  case VT_STR:
    return (uint8_t)((const Dbench__Str *)m)->s[0];
  case VT_I32ARR_1K:
  case VT_I32ARR_10K:
    return ((const Dbench__I32Array *)m)->n_v;
  case VT_BYTES_4K:
  case VT_BYTES_64K:
    return ((const Dbench__Bytes *)m)->b.len;
  case VT_REC8:
    return (uint32_t)((const Dbench__Record *)m)->id;
  case VT_DEDUP:
  case VT_STR100:
    return ((const Dbench__Strings *)m)->n_s;
  case VT_MAP100:
    return ((const Dbench__StrI32Map *)m)->n_m;
  case VT_WIDE16:
  case VT_WIDE256:
    return (uint64_t)((const Dbench__Wide16 *)m)->f0;
  default:
    return ((const Dbench__TermDict *)m)->n_terms;
  }
}

#endif /* DESERT_BENCH_HAVE_PROTOBUF_C */

/* ---- setup / teardown --------------------------------------------------------------- */

static void ps_free(void *p) {
  ps *s = p;
  if (!s) return;
  for (unsigned k = 0; k < K; k++) {
    val_free(s->v[k]);
    free(s->enc[k]);
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
    free(s->msg[k]);
    for (int a = 0; a < 3; a++) free(s->aux[k][a]);
#endif
  }
  out_free(s->out);
  free(s->buf);
#ifdef DESERT_BENCH_HAVE_MSGPACK
  if (s->lib == LIB_MSGPACK) {
    msgpack_sbuffer_destroy(&s->sb);
    msgpack_unpacked_destroy(&s->up);
  }
#endif
  free(s);
}

/* param = lib * 10000 + vt * 100 + op */
static void *setup_peer(desert_isa isa, size_t param, codec_info *info) {
  (void)isa;
  ps *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->lib = (int)(param / 10000);
  s->vt = (int)(param / 100 % 100);
  s->op = (int)(param % 100);
  s->n = vt_n(s->vt);
  s->out = out_make(s->n);
  if (!s->out) goto fail;
#ifdef DESERT_BENCH_HAVE_MSGPACK
  if (s->lib == LIB_MSGPACK) {
    msgpack_sbuffer_init(&s->sb);
    msgpack_unpacked_init(&s->up);
  }
#endif
  size_t total = 0;
  for (unsigned k = 0; k < K; k++) {
    if (!(s->v[k] = val_make(s->vt, k))) goto fail;
    const uint8_t *d = NULL;
    size_t len = 0;
#ifdef DESERT_BENCH_HAVE_MSGPACK
    if (s->lib == LIB_MSGPACK) {
      msgpack_packer pk;
      msgpack_sbuffer_clear(&s->sb);
      msgpack_packer_init(&pk, &s->sb, msgpack_sbuffer_write);
      mp_pack(&pk, s->vt, s->v[k], s->n);
      d = (const uint8_t *)s->sb.data;
      len = s->sb.size;
    }
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
    uint8_t *tmp = NULL;
    if (s->lib == LIB_PROTOBUF) {
      s->desc = pb_descriptor(s->vt);
      if (!(s->msg[k] = pb_build(s->vt, s->v[k], s->n, s->aux[k]))) goto fail;
      len = protobuf_c_message_get_packed_size(s->msg[k]);
      if (!(tmp = malloc(len ? len : 1))) goto fail;
      protobuf_c_message_pack(s->msg[k], tmp);
      d = tmp;
      if (len > s->buf_cap) s->buf_cap = len;
    }
#endif
    if (!d && len) goto fail;
    s->enc[k] = malloc(len ? len : 1);
    if (!s->enc[k]) goto fail;
    if (len) memcpy(s->enc[k], d, len);
    s->enc_len[k] = len;
    total += len;
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
    free(tmp);
#endif
  }
  if (s->buf_cap && !(s->buf = malloc(s->buf_cap))) goto fail;
  info->bytes_per_op = total / K;
  if (s->vt >= VT_WIDE16) info->items_per_op = s->n;
  return s;
fail:
  ps_free(s);
  return NULL;
}

/* ---- msgpack ops ------------------------------------------------------------------- */
#ifdef DESERT_BENCH_HAVE_MSGPACK

static uint64_t mp_ser_fresh(void *p, size_t i) {
  ps *s = p;
  msgpack_sbuffer sb;
  msgpack_packer pk;
  msgpack_sbuffer_init(&sb);
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  mp_pack(&pk, s->vt, s->v[i % K], s->n);
  uint64_t r = sb.size ? (uint8_t)sb.data[sb.size - 1] + sb.size : 0;
  msgpack_sbuffer_destroy(&sb);
  return r;
}

static uint64_t mp_ser_reused(void *p, size_t i) {
  ps *s = p;
  msgpack_packer pk;
  msgpack_sbuffer_clear(&s->sb);
  msgpack_packer_init(&pk, &s->sb, msgpack_sbuffer_write);
  mp_pack(&pk, s->vt, s->v[i % K], s->n);
  return s->sb.size ? (uint8_t)s->sb.data[s->sb.size - 1] + s->sb.size : 0;
}

static int mp_decode(ps *s, const char *d, size_t len) {
  size_t off = 0;
  if (msgpack_unpack_next(&s->up, d, len, &off) != MSGPACK_UNPACK_SUCCESS || off != len) return 1;
  return mp_get(&s->up.data, s->vt, s->n, s->out);
}

static uint64_t mp_de(void *p, size_t i) {
  ps *s = p;
  unsigned k = (unsigned)(i % K);
  if (mp_decode(s, (const char *)s->enc[k], s->enc_len[k])) return 0;
  return (uint64_t)s->out->i32 + s->out->str.len + s->out->rec.ntags;
}

static uint64_t mp_rt(ps *s, size_t i, int fresh) {
  msgpack_sbuffer local, *sb = fresh ? &local : &s->sb;
  msgpack_packer pk;
  if (fresh)
    msgpack_sbuffer_init(sb);
  else
    msgpack_sbuffer_clear(sb);
  msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
  mp_pack(&pk, s->vt, s->v[i % K], s->n);
  uint64_t r = mp_decode(s, sb->data, sb->size) ? 0 : (uint64_t)s->out->i32 + sb->size;
  if (fresh) msgpack_sbuffer_destroy(sb);
  return r;
}
static uint64_t mp_rt_fresh(void *p, size_t i) { return mp_rt(p, i, 1); }
static uint64_t mp_rt_reused(void *p, size_t i) { return mp_rt(p, i, 0); }

static int mp_verify(void *p, char *msg, size_t cap) {
  ps *s = p;
  for (unsigned k = 0; k < K; k++) {
    /* the timed encode path gives the setup bytes; they decode to the source */
    mp_ser_reused(s, k);
    if (codec_check_bytes("msgpack", (const uint8_t *)s->sb.data, s->sb.size, s->enc[k],
                          s->enc_len[k], msg, cap))
      return 1;
    memset(s->out->arr, 0, s->n * sizeof *s->out->arr);
    if (mp_decode(s, (const char *)s->enc[k], s->enc_len[k]) ||
        !out_equal(s->vt, s->n, s->out, s->v[k]))
      return codec_fail(msg, cap, "msgpack variant %u: decoded values differ", k);
  }
  return 0;
}

#endif /* DESERT_BENCH_HAVE_MSGPACK */

/* ---- protobuf-c ops ----------------------------------------------------------------- */
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C

static uint64_t pb_ser_fresh(void *p, size_t i) {
  ps *s = p;
  const ProtobufCMessage *m = s->msg[i % K];
  size_t len = protobuf_c_message_get_packed_size(m);
  uint8_t *b = malloc(len ? len : 1);
  if (!b) return 0;
  protobuf_c_message_pack(m, b);
  uint64_t r = len ? b[len - 1] + len : 0;
  free(b);
  return r;
}

static uint64_t pb_ser_reused(void *p, size_t i) {
  ps *s = p;
  const ProtobufCMessage *m = s->msg[i % K];
  size_t len = protobuf_c_message_get_packed_size(m);
  if (len > s->buf_cap) return 0;
  protobuf_c_message_pack(m, s->buf);
  return len ? s->buf[len - 1] + len : 0;
}

static uint64_t pb_de(void *p, size_t i) {
  ps *s = p;
  unsigned k = (unsigned)(i % K);
  ProtobufCMessage *m = protobuf_c_message_unpack(s->desc, NULL, s->enc_len[k], s->enc[k]);
  if (!m) return 0;
  uint64_t r = pb_touch(s->vt, m);
  protobuf_c_message_free_unpacked(m, NULL);
  return r;
}

static uint64_t pb_rt(ps *s, size_t i, int fresh) {
  const ProtobufCMessage *m = s->msg[i % K];
  size_t len = protobuf_c_message_get_packed_size(m);
  uint8_t *b = fresh ? malloc(len ? len : 1) : s->buf;
  if (!b || len > s->buf_cap) {
    if (fresh) free(b);
    return 0;
  }
  protobuf_c_message_pack(m, b);
  ProtobufCMessage *u = protobuf_c_message_unpack(s->desc, NULL, len, b);
  uint64_t r = u ? pb_touch(s->vt, u) + len : 0;
  if (u) protobuf_c_message_free_unpacked(u, NULL);
  if (fresh) free(b);
  return r;
}
static uint64_t pb_rt_fresh(void *p, size_t i) { return pb_rt(p, i, 1); }
static uint64_t pb_rt_reused(void *p, size_t i) { return pb_rt(p, i, 0); }

static uint64_t pb_size(void *p, size_t i) {
  ps *s = p;
  return protobuf_c_message_get_packed_size(s->msg[i % K]);
}

static int pb_verify(void *p, char *msg, size_t cap) {
  ps *s = p;
  for (unsigned k = 0; k < K; k++) {
    size_t len = protobuf_c_message_get_packed_size(s->msg[k]);
    if (len != s->enc_len[k] || len > s->buf_cap)
      return codec_fail(msg, cap, "protobuf-c variant %u: size %zu, packed %zu", k, len,
                        s->enc_len[k]);
    protobuf_c_message_pack(s->msg[k], s->buf);
    if (codec_check_bytes("protobuf-c", s->buf, len, s->enc[k], s->enc_len[k], msg, cap)) return 1;
    ProtobufCMessage *m = protobuf_c_message_unpack(s->desc, NULL, s->enc_len[k], s->enc[k]);
    int ok = m && pb_equal(s->vt, s->n, m, s->v[k]);
    if (m) protobuf_c_message_free_unpacked(m, NULL);
    if (!ok) return codec_fail(msg, cap, "protobuf-c variant %u: decoded values differ", k);
  }
  return 0;
}

#endif /* DESERT_BENCH_HAVE_PROTOBUF_C */

/* ---- the table ------------------------------------------------------------------------
 * Keys are the desert rows' keys; the report puts each peer next to them. */

// clang-format off
#define P(lib, vt, op) ((size_t)(lib) * 10000 + (size_t)(vt) * 100 + (size_t)(op))

#ifdef DESERT_BENCH_HAVE_MSGPACK
CODEC_BATCH(mp_ser_fresh)
CODEC_BATCH(mp_ser_reused)
CODEC_BATCH(mp_de)
CODEC_BATCH(mp_rt_fresh)
CODEC_BATCH(mp_rt_reused)
#define MP_ROW(key, no, fl, vt, op, fn, desc) \
  {key, "msgpack", desc, no, fl, 0, P(LIB_MSGPACK, vt, op), setup_peer, mp_verify, fn, ps_free, fn##_batch},
#else
#define MP_ROW(key, no, fl, vt, op, fn, desc)
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
CODEC_BATCH(pb_ser_fresh)
CODEC_BATCH(pb_ser_reused)
CODEC_BATCH(pb_de)
CODEC_BATCH(pb_rt_fresh)
CODEC_BATCH(pb_rt_reused)
CODEC_BATCH(pb_size)
#define PB_ROW(key, no, fl, vt, op, fn, desc) \
  {key, "protobuf-c", desc, no, fl, 0, P(LIB_PROTOBUF, vt, op), setup_peer, pb_verify, fn, ps_free, fn##_batch},
#else
#define PB_ROW(key, no, fl, vt, op, fn, desc)
#endif

/* Both peers for one key: op kind selects the functions. */
#define BOTH_SER_FRESH(key, no, fl, vt, d) \
  MP_ROW(key, no, fl, vt, OP_SER_FRESH, mp_ser_fresh, d) PB_ROW(key, no, fl, vt, OP_SER_FRESH, pb_ser_fresh, d)
#define BOTH_SER_REUSED(key, no, fl, vt, d) \
  MP_ROW(key, no, fl, vt, OP_SER_REUSED, mp_ser_reused, d) PB_ROW(key, no, fl, vt, OP_SER_REUSED, pb_ser_reused, d)
#define BOTH_DE(key, no, fl, vt, d) \
  MP_ROW(key, no, fl, vt, OP_DE, mp_de, d) PB_ROW(key, no, fl, vt, OP_DE, pb_de, d)
#define BOTH_RT_FRESH(key, no, fl, vt, d) \
  MP_ROW(key, no, fl, vt, OP_RT_FRESH, mp_rt_fresh, d) PB_ROW(key, no, fl, vt, OP_RT_FRESH, pb_rt_fresh, d)
#define BOTH_RT_REUSED(key, no, fl, vt, d) \
  MP_ROW(key, no, fl, vt, OP_RT_REUSED, mp_rt_reused, d) PB_ROW(key, no, fl, vt, OP_RT_REUSED, pb_rt_reused, d)

#define F CODEC_FAULTS

const codec_case bench_peer_cases[] = {
    BOTH_SER_FRESH("c01_i32_ser", 1, 0, VT_I32, "i32, fresh buffer")
    BOTH_DE("c02_i32_de", 2, 0, VT_I32, "i32 decode")
    BOTH_SER_FRESH("c03_str_ser", 3, 0, VT_STR, "43-char string, fresh buffer")
    BOTH_SER_REUSED("c03_str_ser_reused", 3, 0, VT_STR, "43-char string, reused buffer")
    BOTH_DE("c04_str_de", 4, 0, VT_STR, "string decode")
    BOTH_SER_FRESH("c05_vari32_ser", 5, 0, VT_VARI32, "-123456789 (msgpack int32 / sint32), fresh buffer")
    BOTH_RT_FRESH("c06_i32x1000_rt", 6, F, VT_I32ARR_1K, "i32 x1000 roundtrip, fresh buffer")
    BOTH_RT_REUSED("c06_i32x1000_rt_reused", 6, F, VT_I32ARR_1K, "i32 x1000 roundtrip, reused buffer")
    BOTH_SER_REUSED("c06_i32x1000_ser", 6, 0, VT_I32ARR_1K, "i32 x1000 serialize, reused buffer")
    BOTH_DE("c06_i32x1000_de", 6, 0, VT_I32ARR_1K, "i32 x1000 decode")
    BOTH_RT_FRESH("c07_bytes4k_rt", 7, F, VT_BYTES_4K, "byte block 4096 B roundtrip, fresh buffer")
    BOTH_RT_REUSED("c07_bytes4k_rt_reused", 7, F, VT_BYTES_4K, "byte block 4096 B roundtrip, reused buffer")
    BOTH_SER_REUSED("c07_bytes4k_ser", 7, 0, VT_BYTES_4K, "byte block 4096 B serialize, reused buffer")
    BOTH_DE("c07_bytes4k_de", 7, 0, VT_BYTES_4K, "byte block 4096 B decode")
    BOTH_RT_FRESH("c08_record_rt", 8, 0, VT_REC8, "record roundtrip, fresh buffer")
    BOTH_RT_REUSED("c08_record_rt_reused", 8, 0, VT_REC8, "record roundtrip, reused buffer")
    BOTH_SER_FRESH("c08_record_ser", 8, 0, VT_REC8, "record serialize, fresh buffer")
    BOTH_SER_REUSED("c08_record_ser_reused", 8, 0, VT_REC8, "record serialize, reused buffer")
    BOTH_DE("c08_record_de", 8, 0, VT_REC8, "record decode")
    BOTH_SER_FRESH("c09_dedup100_ser", 9, 0, VT_DEDUP, "100 copies of a 28-char string (no dedup), fresh buffer")
    BOTH_SER_REUSED("c09_dedup100_ser_reused", 9, 0, VT_DEDUP, "100 copies of a string, reused buffer")
    BOTH_DE("c09_dedup100_de", 9, 0, VT_DEDUP, "100 copies of a string, decode")
    PB_ROW("c10_record_size", 10, 0, VT_REC8, OP_SIZE, pb_size, "protobuf_c_message_get_packed_size of the record")
    BOTH_RT_FRESH("c11_str100_rt", 11, 0, VT_STR100, "strings x100 roundtrip, fresh buffer")
    BOTH_RT_REUSED("c11_str100_rt_reused", 11, 0, VT_STR100, "strings x100 roundtrip, reused buffer")
    BOTH_RT_FRESH("c12_map100_rt", 12, 0, VT_MAP100, "map String->i32 x100 roundtrip, fresh buffer")
    BOTH_RT_REUSED("c12_map100_rt_reused", 12, 0, VT_MAP100, "map x100 roundtrip, reused buffer")
    BOTH_RT_FRESH("c13_opt_i32_rt", 13, 0, VT_OPT, "Some(42) roundtrip, fresh buffer")
    BOTH_RT_REUSED("c13_opt_i32_rt_reused", 13, 0, VT_OPT, "Some(42) roundtrip, reused buffer")
    BOTH_RT_FRESH("c14_i32x10000_rt", 14, F, VT_I32ARR_10K, "i32 x10000 roundtrip, fresh buffer")
    BOTH_RT_REUSED("c14_i32x10000_rt_reused", 14, F, VT_I32ARR_10K, "i32 x10000 roundtrip, reused buffer")
    BOTH_SER_REUSED("c14_i32x10000_ser", 14, 0, VT_I32ARR_10K, "i32 x10000 serialize, reused buffer")
    BOTH_DE("c14_i32x10000_de", 14, 0, VT_I32ARR_10K, "i32 x10000 decode")
    BOTH_RT_FRESH("c15_bytes64k_rt", 15, F, VT_BYTES_64K, "byte block 64 KiB roundtrip, fresh buffer")
    BOTH_RT_REUSED("c15_bytes64k_rt_reused", 15, F, VT_BYTES_64K, "byte block 64 KiB roundtrip, reused buffer")
    BOTH_SER_REUSED("c15_bytes64k_ser", 15, 0, VT_BYTES_64K, "byte block 64 KiB serialize, reused buffer")
    BOTH_DE("c15_bytes64k_de", 15, 0, VT_BYTES_64K, "byte block 64 KiB decode")
    BOTH_SER_REUSED("c17_i32_ser_reused", 17, 0, VT_I32, "i32, reused buffer")
    BOTH_SER_REUSED("w_wide16_enc", -1, 0, VT_WIDE16, "wide record 16 fields, reused buffer")
    BOTH_DE("w_wide16_dec", -1, 0, VT_WIDE16, "wide record 16 fields, decode")
    BOTH_SER_REUSED("w_wide256_enc", -1, 0, VT_WIDE256, "wide record 256 fields, reused buffer")
    BOTH_DE("w_wide256_dec", -1, 0, VT_WIDE256, "wide record 256 fields, decode")
    BOTH_SER_REUSED("w_terms100_ser", -1, 0, VT_TERMS100, "term dictionary N=100, reused buffer")
    BOTH_DE("w_terms100_de", -1, 0, VT_TERMS100, "term dictionary N=100, decode")
    BOTH_SER_REUSED("w_terms500_ser", -1, 0, VT_TERMS500, "term dictionary N=500, reused buffer")
    BOTH_DE("w_terms500_de", -1, 0, VT_TERMS500, "term dictionary N=500, decode")
    BOTH_SER_REUSED("w_terms1000_ser", -1, 0, VT_TERMS1000, "term dictionary N=1000, reused buffer")
    BOTH_DE("w_terms1000_de", -1, 0, VT_TERMS1000, "term dictionary N=1000, decode")
    BOTH_SER_REUSED("w_terms5000_ser", -1, F, VT_TERMS5000, "term dictionary N=5000, reused buffer")
    BOTH_DE("w_terms5000_de", -1, F, VT_TERMS5000, "term dictionary N=5000, decode")
};
// clang-format on
const size_t bench_peer_case_count = sizeof bench_peer_cases / sizeof bench_peer_cases[0];

#else /* no peer library: an empty table */

static void *setup_none(desert_isa isa, size_t param, codec_info *info) {
  (void)isa;
  (void)param;
  snprintf(info->skip, sizeof info->skip, "no peer library compiled in");
  return NULL;
}
const codec_case bench_peer_cases[] = {
    {"none", "none", "no peer library compiled in", -1, 0, 0, 0, setup_none, NULL, NULL, NULL, NULL}};
const size_t bench_peer_case_count = 0;

#endif
