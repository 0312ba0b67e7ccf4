/* bench/bench_golden_types.c — case 16 (golden dataset) through the type descriptors of types.h
 * SPDX-License-Identifier: MIT
 *
 * The golden TestModel1 (../shared/golden/README.md) as a desert_type graph
 * (the runtime descriptors of types.h), decoded into a value tree and encoded
 * back by desert_type_decode / desert_type_encode. The same K rotated inputs
 * as the hand-written rows of bench_codec.c (variant k: the 30000 longs
 * shifted by k * 10^6 and `int` + k, legacy form, 242,540 B; variant 0 IS the
 * file), built in setup with the hand-written codec.
 *
 * The same model through the static C-struct descriptors (desert_cstruct,
 * examples/golden_cstruct_model.h: enums with a transient constructor and a
 * transient field, Either, Try, Option[Map] as an optional list of 2-tuple
 * records, the recursive cause as a pointer to a record, NULL = None) runs
 * in the _cstruct rows: desert_cstruct_decode into C structs (lists and
 * causes in the reader's arena, the 30000 longs in one bulk read) and
 * desert_cstruct_encode back. StackTraceElement is described there as a
 * version-0 record with three optional String fields and a var_u32 field:
 * the hand-written layout (00, 3 x Option<String>, var_u32) byte for byte,
 * the 00 being the version byte — except that the hand-written codec keeps
 * whatever the leading byte is, a record reader rejects a non-zero byte
 * without a header (dataset1.bin has 00 everywhere). The runtime graph
 * below uses that same record for StackTraceElement.
 *
 * Rows: codec/c16_golden_decode_types/desert/<isa> (reused reader, value
 * arena reset per op), codec/c16_golden_encode_types/desert/<isa> (modern
 * form, 242,534 B, fresh heap writer per op like c16_golden_encode_heap) and
 * codec/c16_golden_encode_types_reused/desert/<isa> (reused writer, like
 * c16_golden_encode_reused: the fresh rows also time the writer's first-touch
 * page faults, which differ between the two rows' heaps); and for the
 * C-struct descriptors codec/c16_golden_decode_cstruct/desert/<isa> (reused
 * reader), codec/c16_golden_encode_cstruct/desert/<isa> (fresh writer) and
 * codec/c16_golden_encode_cstruct_reused/desert/<isa> (reused writer), the
 * counterparts of the hand-written c16_golden_decode / _encode_heap /
 * _encode_reused rows of bench_codec.c on the same inputs. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_golden_types.h"
#include "bench_golden_variants.h"
#include "desert.h"
#include "desert/types.h"
#include "desert_build_config.h"
#include "golden_cstruct_model.h"

#define K CODEC_K

/* ---- the type graph ---------------------------------------------------------------- */

static const desert_type *B(desert_type_kind k) { return desert_type_builtin(k); }

static desert_type_field *fields_new(desert_type_set *s, size_t n) {
  return desert_type_set_alloc(s, n * sizeof(desert_type_field), 16);
}

static void field_set(desert_type_field *f, const char *name, const desert_type *t, unsigned flags,
                      const desert_value *def) {
  f->name = name;
  f->type = t;
  f->flags = flags;
  f->transient_default = def;
}

/* Builds TestModel1; NULL with msg on failure. */
static const desert_type *golden_type_build(desert_type_set *s, char *msg, size_t cap) {
  desert_value *defs = desert_value_arena_values(desert_type_set_arena(s), 3);
  desert_type *ste = desert_type_set_new(s, DESERT_TYPE_RECORD);
  desert_type *ste_list = desert_type_set_new(s, DESERT_TYPE_LIST);
  desert_type *thr = desert_type_set_new(s, DESERT_TYPE_RECORD);
  desert_type *el1 = desert_type_set_new(s, DESERT_TYPE_RECORD);
  desert_type *first = desert_type_set_new(s, DESERT_TYPE_RECORD);
  desert_type *second = desert_type_set_new(s, DESERT_TYPE_RECORD);
  desert_type *el2 = desert_type_set_new(s, DESERT_TYPE_ENUM);
  desert_type *list = desert_type_set_new(s, DESERT_TYPE_LIST);
  desert_type *array = desert_type_set_new(s, DESERT_TYPE_LIST);
  desert_type *vector = desert_type_set_new(s, DESERT_TYPE_LIST);
  desert_type *set = desert_type_set_new(s, DESERT_TYPE_SET);
  desert_type *either = desert_type_set_new(s, DESERT_TYPE_EITHER);
  desert_type *tried = desert_type_set_new(s, DESERT_TYPE_TRY);
  desert_type *map = desert_type_set_new(s, DESERT_TYPE_MAP);
  desert_type *tm1 = desert_type_set_new(s, DESERT_TYPE_RECORD);
  desert_type_field *ste_f = fields_new(s, 4), *thr_f = fields_new(s, 4), *el1_f = fields_new(s, 1),
                    *first_f = fields_new(s, 1), *second_f = fields_new(s, 3),
                    *tm1_f = fields_new(s, 18);
  desert_type_step *second_st = desert_type_set_alloc(s, 1 * sizeof(desert_type_step), 16);
  desert_type_step *tm1_st = desert_type_set_alloc(s, 3 * sizeof(desert_type_step), 16);
  desert_type_ctor *ctors = desert_type_set_alloc(s, 3 * sizeof(desert_type_ctor), 16);
  if (!defs || !ste || !ste_list || !thr || !el1 || !first || !second || !el2 || !list || !array ||
      !vector || !set || !either || !tried || !map || !tm1 || !ste_f || !thr_f || !el1_f ||
      !first_f || !second_f || !tm1_f || !second_st || !tm1_st || !ctors) {
    snprintf(msg, cap, "golden types: out of memory");
    return NULL;
  }
  static const char def_string[] = "default string";
  defs[0].kind = DESERT_VALUE_STRING; /* TestModel1.string FieldAdded default */
  defs[0].as.str.ptr = def_string;
  defs[0].as.str.len = sizeof def_string - 1;
  defs[1].kind = DESERT_VALUE_SEQ;  /* TestModel1.set FieldAdded default: empty */
  defs[2].kind = DESERT_VALUE_NULL; /* Second.cached: transient, None */

  /* StackTraceElement: the hand-written layout is a version-0 record (see top). */
  field_set(&ste_f[0], "className", B(DESERT_TYPE_STRING), DESERT_FIELD_OPTIONAL, NULL);
  field_set(&ste_f[1], "methodName", B(DESERT_TYPE_STRING), DESERT_FIELD_OPTIONAL, NULL);
  field_set(&ste_f[2], "fileName", B(DESERT_TYPE_STRING), DESERT_FIELD_OPTIONAL, NULL);
  field_set(&ste_f[3], "lineNumber", B(DESERT_TYPE_VAR_U32), 0, NULL);
  ste->name = "StackTraceElement";
  ste->u.record.fields = ste_f;
  ste->u.record.field_count = 4;
  ste_list->u.coll.element = ste;

  field_set(&thr_f[0], "className", B(DESERT_TYPE_STRING), 0, NULL);
  field_set(&thr_f[1], "message", B(DESERT_TYPE_STRING), 0, NULL);
  field_set(&thr_f[2], "stackTrace", ste_list, 0, NULL);
  field_set(&thr_f[3], "cause", thr, DESERT_FIELD_OPTIONAL, NULL); /* recursive */
  thr->name = "PersistedThrowable";
  thr->u.record.fields = thr_f;
  thr->u.record.field_count = 4;

  field_set(&el1_f[0], "id", B(DESERT_TYPE_STRING), 0, NULL);
  el1->name = "ListElement1";
  el1->u.record.fields = el1_f;
  el1->u.record.field_count = 1;

  field_set(&first_f[0], "elem", el1, 0, NULL);
  first->name = "First";
  first->u.record.fields = first_f;
  first->u.record.field_count = 1;

  field_set(&second_f[0], "uuid", B(DESERT_TYPE_UUID), 0, NULL);
  field_set(&second_f[1], "desc", B(DESERT_TYPE_STRING), DESERT_FIELD_OPTIONAL, NULL);
  field_set(&second_f[2], "cached", B(DESERT_TYPE_STRING),
            DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT, &defs[2]);
  second_st[0] = (desert_type_step){DESERT_STEP_FIELD_MADE_TRANSIENT, "cached", NULL};
  second->name = "Second";
  second->u.record.fields = second_f;
  second->u.record.field_count = 3;
  second->u.record.steps = second_st;
  second->u.record.step_count = 1;

  ctors[0] = (desert_type_ctor){"First", false, first};
  ctors[1] = (desert_type_ctor){"Second", false, second};
  ctors[2] = (desert_type_ctor){"Third", true, NULL};
  el2->name = "ListElement2";
  el2->u.enumeration.ctors = ctors;
  el2->u.enumeration.count = 3;
  el2->u.enumeration.sorted = true;

  list->u.coll.element = el1;
  list->u.coll.unknown_form = true; /* Scala writes a List in the unknown-size form */
  array->u.coll.element = B(DESERT_TYPE_I64);
  vector->u.coll.element = el1;
  set->u.coll.element = B(DESERT_TYPE_STRING);
  either->u.alt.left = B(DESERT_TYPE_STRING);
  either->u.alt.right = B(DESERT_TYPE_BOOL);
  tried->u.alt.left = thr;
  tried->u.alt.right = el2;
  map->u.coll.element = B(DESERT_TYPE_STRING);
  map->u.coll.value = el2;

  static const char *const names[18] = {
      "byte", "short",     "int",  "long",  "float",  "double", "boolean", "unit",  "string",
      "uuid", "exception", "list", "array", "vector", "set",    "either",  "tried", "option"};
  const desert_type *types[18] = {B(DESERT_TYPE_I8),
                                  B(DESERT_TYPE_I16),
                                  B(DESERT_TYPE_I32),
                                  B(DESERT_TYPE_I64),
                                  B(DESERT_TYPE_F32),
                                  B(DESERT_TYPE_F64),
                                  B(DESERT_TYPE_BOOL),
                                  B(DESERT_TYPE_UNIT),
                                  B(DESERT_TYPE_STRING),
                                  B(DESERT_TYPE_UUID),
                                  thr,
                                  list,
                                  array,
                                  vector,
                                  set,
                                  either,
                                  tried,
                                  map};
  for (size_t i = 0; i < 18; i++)
    field_set(&tm1_f[i], names[i], types[i], i == 17 ? DESERT_FIELD_OPTIONAL : 0u, NULL);
  tm1_st[0] = (desert_type_step){DESERT_STEP_FIELD_MADE_OPTIONAL, "option", NULL};
  tm1_st[1] = (desert_type_step){DESERT_STEP_FIELD_ADDED, "string", &defs[0]};
  tm1_st[2] = (desert_type_step){DESERT_STEP_FIELD_ADDED, "set", &defs[1]};
  tm1->name = "TestModel1";
  tm1->u.record.fields = tm1_f;
  tm1->u.record.field_count = 18;
  tm1->u.record.steps = tm1_st;
  tm1->u.record.step_count = 3;

  char m[160];
  if (desert_type_set_seal(s, m, sizeof m)) {
    snprintf(msg, cap, "golden types: the type graph does not seal: %s", m);
    return NULL;
  }
  return tm1;
}

/* ---- state ----------------------------------------------------------------------------- */

typedef struct gt_state {
  desert_options opt, legacy;
  desert_type_set *set;
  const desert_type *tm1;
  desert_reader *r;      /* the decode row's reader */
  desert_value_arena *a; /* the decode row's value arena (reset per op) */
  desert_writer *w;      /* encode rows with fresh = 0 */
  int fresh;
  uint8_t *file;
  size_t file_len;
  uint8_t *var[K]; /* legacy bytes of variant k (var[0] = the file) */
  size_t var_len[K];
  desert_reader *vr[K]; /* value trees of the variants (views into var[k]) */
  desert_value_arena *va[K];
  desert_value *tree[K];
  desert_reader *cr[K]; /* C structs of the variants (cstruct rows; arrays in cr[k]) */
  gcs_model cm[K];
} gt_state;

static void gt_free(void *p) {
  gt_state *g = p;
  if (!g) return;
  for (unsigned k = 0; k < K; k++) {
    desert_reader_free(g->vr[k]);
    desert_reader_free(g->cr[k]);
    desert_value_arena_free(g->va[k]);
    free(g->var[k]);
  }
  desert_value_arena_free(g->a);
  desert_reader_free(g->r);
  desert_writer_free(g->w);
  desert_type_set_free(g->set);
  free(g->file);
  free(g);
}

static void *gt_setup(desert_isa isa, int fresh, codec_info *info) {
  char path[1024];
  const char *dir = getenv("DESERT_GOLDEN_DIR");
  snprintf(path, sizeof path, "%s/dataset1.bin", dir && *dir ? dir : DESERT_GOLDEN_DIR);
  size_t len = 0;
  uint8_t *file = codec_read_file(path, &len);
  if (!file) {
    snprintf(info->skip, sizeof info->skip,
             "golden dataset not found at %.120s (set DESERT_GOLDEN_DIR)", path);
    return NULL;
  }
  gt_state *g = calloc(1, sizeof *g);
  if (!g) {
    free(file);
    return NULL;
  }
  g->file = file;
  g->file_len = len;
  g->fresh = fresh;
  codec_options(&g->opt, isa, 0);
  codec_options(&g->legacy, isa, DESERT_OPT_LEGACY_HEADER_STRINGS);
  if (desert_type_set_create(NULL, &g->set) || desert_reader_create(&g->opt, &g->r) ||
      desert_value_arena_create(NULL, &g->a) || desert_writer_create(&g->opt, &g->w)) {
    snprintf(info->fail, sizeof info->fail, "golden types: cannot create contexts for ISA %s",
             desert_isa_name(isa));
    goto fail;
  }
  g->tm1 = golden_type_build(g->set, info->fail, sizeof info->fail);
  if (!g->tm1) goto fail;
  if (desert_cstruct_check(&gcs_model_desc)) {
    snprintf(info->fail, sizeof info->fail, "golden cstruct: the descriptors do not check");
    goto fail;
  }
  /* the K rotated inputs (bench_golden_variants.c, hand-written codec) */
  if (codec_golden_variants(isa, g->var, g->var_len, info)) goto fail;
  for (unsigned k = 0; k < K; k++) {
    /* the value tree the encode rows write (decoded by the type path itself) */
    desert_type_error err;
    if (desert_reader_create(&g->opt, &g->vr[k]) || desert_value_arena_create(NULL, &g->va[k]))
      goto fail;
    desert_reader_begin(g->vr[k], g->var[k], g->var_len[k]);
    if (desert_type_decode(g->vr[k], g->tm1, g->va[k], NULL, &g->tree[k], &err)) {
      snprintf(info->fail, sizeof info->fail,
               "golden types: variant %u does not decode: %s at offset %zu, path '%.80s' %.60s", k,
               desert_status_name(err.status), err.offset, err.path, err.message);
      goto fail;
    }
    /* the C structs the cstruct encode rows write */
    if (desert_reader_create(&g->opt, &g->cr[k])) goto fail;
    desert_reader_begin(g->cr[k], g->var[k], g->var_len[k]);
    if (desert_cstruct_decode(g->cr[k], &gcs_model_desc, &g->cm[k])) {
      snprintf(info->fail, sizeof info->fail,
               "golden cstruct: variant %u does not decode: %s at offset %zu", k,
               desert_status_name(desert_reader_status(g->cr[k])),
               desert_reader_error_offset(g->cr[k]));
      goto fail;
    }
  }
  info->bytes_per_op = g->file_len;
  return g;
fail:
  gt_free(g);
  return NULL;
}

static void *bench_golden_types_setup_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return gt_setup(isa, 0, info);
}
static void *bench_golden_types_setup_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return gt_setup(isa, 1, info);
}

/* ---- timed ops --------------------------------------------------------------------------- */

/* Reaches field i of the record value (SEQ). */
static const desert_value *fld(const desert_value *v, size_t i) {
  return v && v->kind == DESERT_VALUE_SEQ && i < v->as.seq.count ? &v->as.seq.items[i] : NULL;
}

static uint64_t bench_golden_types_run_decode(void *p, size_t i) {
  gt_state *g = p;
  unsigned k = (unsigned)(i % K);
  desert_value *v = NULL;
  desert_value_arena_reset(g->a);
  desert_reader_begin(g->r, g->var[k], g->var_len[k]);
  if (desert_type_decode(g->r, g->tm1, g->a, NULL, &v, NULL)) return 0;
  const desert_value *arr = fld(v, 12), *vec = fld(v, 13);
  return (uint64_t)arr->as.seq.items[arr->as.seq.count - 1].as.i + vec->as.seq.count;
}

static uint64_t bench_golden_types_run_encode(void *p, size_t i) {
  gt_state *g = p;
  desert_writer *w = g->w;
  if (g->fresh) {
    if (desert_writer_create(&g->opt, &w)) return 0;
  } else {
    desert_writer_reset(w);
  }
  desert_type_encode(w, g->tm1, g->tree[i % K], NULL, NULL);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint64_t r = d && len ? (uint64_t)d[len - 1] + len : 0;
  if (g->fresh) desert_writer_free(w);
  return r;
}

static uint64_t bench_golden_cstruct_run_decode(void *p, size_t i) {
  gt_state *g = p;
  unsigned k = (unsigned)(i % K);
  gcs_model m;
  desert_reader_begin(g->r, g->var[k], g->var_len[k]);
  if (desert_cstruct_decode(g->r, &gcs_model_desc, &m)) return 0;
  const int64_t *arr = m.array.items;
  return (uint64_t)arr[m.array.count - 1] + m.vector.count + m.option.count;
}

static uint64_t bench_golden_cstruct_run_encode(void *p, size_t i) {
  gt_state *g = p;
  desert_writer *w = g->w;
  if (g->fresh) {
    if (desert_writer_create(&g->opt, &w)) return 0;
  } else {
    desert_writer_reset(w);
  }
  desert_cstruct_encode(w, &gcs_model_desc, &g->cm[i % K]);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint64_t r = d && len ? (uint64_t)d[len - 1] + len : 0;
  if (g->fresh) desert_writer_free(w);
  return r;
}

/* ---- verification ---------------------------------------------------------------------------- */

static int str_is(const desert_value *v, const char *t) {
  return v && v->kind == DESERT_VALUE_STRING && v->as.str.len == strlen(t) &&
         !memcmp(v->as.str.ptr, t, v->as.str.len);
}

/* Spot checks of the expected value in the golden dataset's README on variant k's tree (the byte-for-byte
 * re-encoding below checks the rest). */
static int gt_check_tree(const desert_value *v, unsigned k, char *msg, size_t cap) {
  const desert_value *arr = fld(v, 12), *list = fld(v, 11), *set = fld(v, 14), *opt = fld(v, 17);
  if (!v || v->kind != DESERT_VALUE_SEQ || v->as.seq.count != 18)
    return codec_fail(msg, cap, "golden types variant %u: root is not an 18-field record", k);
  if (fld(v, 0)->as.i != -10 || fld(v, 2)->as.i != -2000000000 + (int64_t)k ||
      fld(v, 4)->as.bits != 0x4048f5c3u || fld(v, 5)->as.bits != 0x3dab22cd6bbd390cull ||
      !str_is(fld(v, 8), "Example data set"))
    return codec_fail(msg, cap, "golden types variant %u: scalar fields differ", k);
  if (!arr || arr->as.seq.count != 30000)
    return codec_fail(msg, cap, "golden types variant %u: array length differs", k);
  for (size_t j = 0; j < 30000; j++)
    if (arr->as.seq.items[j].as.i != (int64_t)j + 1 + (int64_t)k * 1000000)
      return codec_fail(msg, cap, "golden types variant %u: array[%zu] differs", k, j);
  if (!list || list->as.seq.count != 3 || !str_is(fld(&list->as.seq.items[2], 0), "aaa") || !set ||
      set->as.seq.count != 2 || !str_is(&set->as.seq.items[1], "world") || !opt ||
      opt->kind != DESERT_VALUE_SOME || opt->as.child->as.seq.count != 3)
    return codec_fail(msg, cap, "golden types variant %u: list/set/option differ", k);
  return 0;
}

static int bench_golden_types_verify(void *p, char *msg, size_t cap) {
  gt_state *g = p;
  if (g->file_len != 242540)
    return codec_fail(msg, cap, "golden types: file is %zu bytes, expected 242540", g->file_len);
  if (g->var_len[0] != g->file_len || memcmp(g->var[0], g->file, g->file_len))
    return codec_fail(msg, cap, "golden types: variant 0 is not the file");
  desert_writer *lw = NULL, *mw = NULL;
  desert_reader *chk = NULL;
  desert_value_arena *ca = NULL;
  if (desert_writer_create(&g->legacy, &lw) || desert_writer_create(&g->opt, &mw) ||
      desert_reader_create(&g->opt, &chk) || desert_value_arena_create(NULL, &ca)) {
    desert_writer_free(lw);
    desert_writer_free(mw);
    desert_reader_free(chk);
    return codec_fail(msg, cap, "golden types: cannot create contexts");
  }
  int bad = 0;
  for (unsigned k = 0; k < K && !bad; k++) {
    /* decode row: the timed path consumes every byte of variant k */
    if (!bench_golden_types_run_decode(g, k)) {
      bad = codec_fail(msg, cap, "golden types variant %u: decode failed: %s at offset %zu", k,
                       desert_status_name(desert_reader_status(g->r)),
                       desert_reader_error_offset(g->r));
      break;
    }
    desert_value *v = NULL;
    desert_type_error err;
    desert_value_arena_reset(g->a);
    desert_reader_begin(g->r, g->var[k], g->var_len[k]);
    if (desert_type_decode(g->r, g->tm1, g->a, NULL, &v, &err) ||
        desert_reader_offset(g->r) != g->var_len[k]) {
      bad = codec_fail(msg, cap, "golden types variant %u: consumed %zu of %zu bytes (%s, '%s')", k,
                       desert_reader_offset(g->r), g->var_len[k], desert_status_name(err.status),
                       err.path);
      break;
    }
    if ((bad = gt_check_tree(v, k, msg, cap))) break;
    /* the legacy re-encoding is the input byte for byte (variant 0: the file) */
    desert_writer_reset(lw);
    if (desert_type_encode(lw, g->tm1, v, NULL, &err)) {
      bad = codec_fail(msg, cap, "golden types variant %u: legacy encode failed: %s at '%s' %s", k,
                       desert_status_name(err.status), err.path, err.message);
      break;
    }
    size_t llen;
    const uint8_t *ld = desert_writer_data(lw, &llen);
    if ((bad = codec_check_bytes("golden types legacy re-encoding", ld, llen, g->var[k],
                                 g->var_len[k], msg, cap)))
      break;
    /* encode row: the timed path on the tree of variant k; the modern form
     * (242,534 B) decodes back and re-encodes in legacy form to variant k */
    (void)bench_golden_types_run_encode(g, k);
    desert_writer_reset(mw);
    desert_type_encode(mw, g->tm1, g->tree[k], NULL, &err);
    size_t mlen;
    const uint8_t *modern = desert_writer_data(mw, &mlen);
    if (desert_writer_status(mw) || mlen != 242534) {
      bad = codec_fail(msg, cap, "golden types variant %u: modern encoding is %zu bytes (%s)", k,
                       mlen, desert_status_name(desert_writer_status(mw)));
      break;
    }
    desert_value *v2 = NULL;
    desert_value_arena_reset(ca);
    desert_reader_begin(chk, modern, mlen);
    if (desert_type_decode(chk, g->tm1, ca, NULL, &v2, &err) || desert_reader_offset(chk) != mlen) {
      bad = codec_fail(msg, cap, "golden types variant %u: modern form does not decode fully", k);
      break;
    }
    desert_writer_reset(lw);
    desert_type_encode(lw, g->tm1, v2, NULL, &err);
    ld = desert_writer_data(lw, &llen);
    bad = codec_check_bytes("golden types modern -> legacy", ld, llen, g->var[k], g->var_len[k],
                            msg, cap);
  }
  desert_writer_free(lw);
  desert_writer_free(mw);
  desert_reader_free(chk);
  desert_value_arena_free(ca);
  return bad;
}

static int cs_str_is(desert_str s, const char *t) {
  return s.len == strlen(t) && !memcmp(s.ptr, t, s.len);
}

/* Spot checks of the expected value in the golden dataset's README on the C structs of variant k (the byte-for-byte
 * re-encodings check the rest). */
static int gcs_check(const gcs_model *m, unsigned k, char *msg, size_t cap) {
  const int64_t *arr = m->array.items;
  const gcs_element1 *list = m->list.items;
  const desert_str *set = m->set.items;
  if (m->byte_ != -10 || m->int_ != -2000000000 + (int32_t)k ||
      !cs_str_is(m->string, "Example data set"))
    return codec_fail(msg, cap, "golden cstruct variant %u: scalar fields differ", k);
  if (m->array.count != 30000)
    return codec_fail(msg, cap, "golden cstruct variant %u: array length differs", k);
  for (size_t j = 0; j < 30000; j++)
    if (arr[j] != (int64_t)j + 1 + (int64_t)k * 1000000)
      return codec_fail(msg, cap, "golden cstruct variant %u: array[%zu] differs", k, j);
  if (m->list.count != 3 || !cs_str_is(list[2].id, "aaa") || m->set.count != 2 ||
      !cs_str_is(set[1], "world") || !m->has_option || m->option.count != 3)
    return codec_fail(msg, cap, "golden cstruct variant %u: list/set/option differ", k);
  return 0;
}

static int bench_golden_cstruct_verify(void *p, char *msg, size_t cap) {
  gt_state *g = p;
  desert_writer *lw = NULL, *mw = NULL;
  desert_reader *chk = NULL;
  if (desert_writer_create(&g->legacy, &lw) || desert_writer_create(&g->opt, &mw) ||
      desert_reader_create(&g->opt, &chk)) {
    desert_writer_free(lw);
    desert_writer_free(mw);
    return codec_fail(msg, cap, "golden cstruct: cannot create contexts");
  }
  int bad = 0;
  for (unsigned k = 0; k < K && !bad; k++) {
    if (!bench_golden_cstruct_run_decode(g, k)) {
      bad = codec_fail(msg, cap, "golden cstruct variant %u: decode failed: %s at offset %zu", k,
                       desert_status_name(desert_reader_status(g->r)),
                       desert_reader_error_offset(g->r));
      break;
    }
    gcs_model m;
    desert_reader_begin(g->r, g->var[k], g->var_len[k]);
    if (desert_cstruct_decode(g->r, &gcs_model_desc, &m) ||
        desert_reader_offset(g->r) != g->var_len[k]) {
      bad = codec_fail(msg, cap, "golden cstruct variant %u: consumed %zu of %zu bytes", k,
                       desert_reader_offset(g->r), g->var_len[k]);
      break;
    }
    if ((bad = gcs_check(&m, k, msg, cap))) break;
    /* legacy re-encoding: the input byte for byte (variant 0: the file) */
    desert_writer_reset(lw);
    desert_cstruct_encode(lw, &gcs_model_desc, &m);
    size_t llen;
    const uint8_t *ld = desert_writer_data(lw, &llen);
    if ((bad = codec_check_bytes("golden cstruct legacy re-encoding", ld, llen, g->var[k],
                                 g->var_len[k], msg, cap)))
      break;
    /* encode rows: the timed path; its modern form (242,534 B) decodes back
     * and re-encodes in legacy form to variant k */
    (void)bench_golden_cstruct_run_encode(g, k);
    desert_writer_reset(mw);
    desert_cstruct_encode(mw, &gcs_model_desc, &g->cm[k]);
    size_t mlen;
    const uint8_t *modern = desert_writer_data(mw, &mlen);
    if (desert_writer_status(mw) || mlen != 242534) {
      bad = codec_fail(msg, cap, "golden cstruct variant %u: modern encoding is %zu bytes (%s)", k,
                       mlen, desert_status_name(desert_writer_status(mw)));
      break;
    }
    gcs_model m2;
    desert_reader_begin(chk, modern, mlen);
    if (desert_cstruct_decode(chk, &gcs_model_desc, &m2) || desert_reader_offset(chk) != mlen) {
      bad = codec_fail(msg, cap, "golden cstruct variant %u: modern form does not decode fully", k);
      break;
    }
    desert_writer_reset(lw);
    desert_cstruct_encode(lw, &gcs_model_desc, &m2);
    ld = desert_writer_data(lw, &llen);
    bad = codec_check_bytes("golden cstruct modern -> legacy", ld, llen, g->var[k], g->var_len[k],
                            msg, cap);
  }
  desert_writer_free(lw);
  desert_writer_free(mw);
  desert_reader_free(chk);
  return bad;
}

static void bench_golden_types_free(void *p) { gt_free(p); }

// clang-format off
CODEC_BATCH(bench_golden_types_run_decode)
CODEC_BATCH(bench_golden_types_run_encode)
CODEC_BATCH(bench_golden_cstruct_run_decode)
CODEC_BATCH(bench_golden_cstruct_run_encode)

const codec_case bench_golden_types_cases[] = {
    {"c16_golden_decode_types", "desert",
     "decode dataset1.bin (242,540 B) through the desert_type graph into a value tree", 16,
     CODEC_PER_ISA | CODEC_FAULTS, 0, 0, bench_golden_types_setup_reused,
     bench_golden_types_verify, bench_golden_types_run_decode, bench_golden_types_free, bench_golden_types_run_decode_batch},
    {"c16_golden_encode_types", "desert",
     "encode the golden value tree through the desert_type graph (modern form, 242,534 B), fresh writer",
     16, CODEC_PER_ISA | CODEC_FAULTS, 0, 0, bench_golden_types_setup_fresh,
     bench_golden_types_verify, bench_golden_types_run_encode, bench_golden_types_free, bench_golden_types_run_encode_batch},
    {"c16_golden_encode_types_reused", "desert",
     "encode the golden value tree through the desert_type graph, reused writer", 16,
     CODEC_PER_ISA | CODEC_FAULTS, 0, 0, bench_golden_types_setup_reused,
     bench_golden_types_verify, bench_golden_types_run_encode, bench_golden_types_free, bench_golden_types_run_encode_batch},
    {"c16_golden_decode_cstruct", "desert",
     "decode dataset1.bin (242,540 B) into C structs through desert_cstruct descriptors", 16,
     CODEC_PER_ISA | CODEC_FAULTS, 0, 0, bench_golden_types_setup_reused,
     bench_golden_cstruct_verify, bench_golden_cstruct_run_decode, bench_golden_types_free, bench_golden_cstruct_run_decode_batch},
    {"c16_golden_encode_cstruct", "desert",
     "encode the golden C structs through desert_cstruct descriptors (modern form, 242,534 B), fresh writer",
     16, CODEC_PER_ISA | CODEC_FAULTS, 0, 0, bench_golden_types_setup_fresh,
     bench_golden_cstruct_verify, bench_golden_cstruct_run_encode, bench_golden_types_free, bench_golden_cstruct_run_encode_batch},
    {"c16_golden_encode_cstruct_reused", "desert",
     "encode the golden C structs through desert_cstruct descriptors, reused writer", 16,
     CODEC_PER_ISA | CODEC_FAULTS, 0, 0, bench_golden_types_setup_reused,
     bench_golden_cstruct_verify, bench_golden_cstruct_run_encode, bench_golden_types_free, bench_golden_cstruct_run_encode_batch},
};
// clang-format on
const size_t bench_golden_types_case_count =
    sizeof bench_golden_types_cases / sizeof bench_golden_types_cases[0];
