/* test/test_types_codec.c — the types layer without JSON: type graphs built
 * through the public builder, value trees encoded and decoded byte for byte
 * (records with evolution, enums, maps, nullable options, dates, big
 * numbers), error statuses with docs/schema.md §14.5 offsets and value paths,
 * resource bounds (depth, node budget), the seal's checks, the decode trace,
 * and the C-struct descriptor API.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/types.h"
#include "test_util.h"

/* ---- helpers ------------------------------------------------------------------ */

typedef struct fixture {
  desert_type_set *set;
  desert_value_arena *arena;
  desert_writer *w;
  desert_reader *r;
} fixture;

static void fx_init(fixture *f, unsigned flags) {
  desert_options o;
  desert_options_init(&o);
  o.flags = flags;
  assert_int_equal(desert_type_set_create(NULL, &f->set), DESERT_OK);
  assert_int_equal(desert_value_arena_create(NULL, &f->arena), DESERT_OK);
  assert_int_equal(desert_writer_create(&o, &f->w), DESERT_OK);
  assert_int_equal(desert_reader_create(&o, &f->r), DESERT_OK);
}

static void fx_free(fixture *f) {
  desert_reader_free(f->r);
  desert_writer_free(f->w);
  desert_value_arena_free(f->arena);
  desert_type_set_free(f->set);
}

static void seal_ok(fixture *f) {
  char msg[200];
  desert_status st = desert_type_set_seal(f->set, msg, sizeof msg);
  if (st) fail_msg("seal: %s", msg);
}

static const desert_type *B(desert_type_kind k) { return desert_type_builtin(k); }

static desert_value vint(int64_t i) {
  desert_value v;
  memset(&v, 0, sizeof v);
  v.kind = DESERT_VALUE_INT;
  v.as.i = i;
  return v;
}

static desert_value vstr(const char *s) {
  desert_value v;
  memset(&v, 0, sizeof v);
  v.kind = DESERT_VALUE_STRING;
  v.as.str.ptr = s;
  v.as.str.len = strlen(s);
  return v;
}

static desert_value vseq(desert_value *items, size_t n) {
  desert_value v;
  memset(&v, 0, sizeof v);
  v.kind = DESERT_VALUE_SEQ;
  v.as.seq.items = items;
  v.as.seq.count = n;
  return v;
}

/* Encodes v under t and compares with the expected hex. */
static void expect_bytes(fixture *f, const desert_type *t, const desert_value *v, const char *hex) {
  uint8_t want[512];
  size_t n = desert_hex_decode(hex, want, sizeof want);
  assert_true(n != SIZE_MAX);
  desert_writer_reset(f->w);
  desert_type_error err;
  desert_status st = desert_type_encode(f->w, t, v, NULL, &err);
  if (st) fail_msg("encode: %s at %s: %s", desert_status_name(st), err.path, err.message);
  size_t len;
  const uint8_t *got = desert_writer_data(f->w, &len);
  desert_assert_bytes_equal(want, n, got, len);
}

/* Decodes hex under t; returns the status and fills *out / err. */
static desert_status decode_hex(fixture *f, const desert_type *t, const char *hex, uint8_t *buf,
                                size_t cap, desert_value **out, desert_type_error *err) {
  size_t n = desert_hex_decode(hex, buf, cap);
  assert_true(n != SIZE_MAX);
  assert_int_equal(desert_reader_begin(f->r, buf, n), DESERT_OK);
  return desert_type_decode(f->r, t, f->arena, NULL, out, err);
}

/* ---- records with evolution (docs/format.md §9.9 (a)) ------------------------------ */

static const desert_type *point_v2(fixture *f) {
  desert_type *t = desert_type_set_new(f->set, DESERT_TYPE_RECORD);
  desert_type_field *fields = desert_type_set_alloc(f->set, 3 * sizeof *fields, 8);
  desert_type_step *steps = desert_type_set_alloc(f->set, sizeof *steps, 8);
  desert_value *dflt = desert_value_arena_values(desert_type_set_arena(f->set), 1);
  assert_non_null(t);
  *dflt = vstr("origin");
  fields[0] = (desert_type_field){"x", B(DESERT_TYPE_I32), 0, NULL};
  fields[1] = (desert_type_field){"label", B(DESERT_TYPE_STRING), 0, NULL};
  fields[2] = (desert_type_field){"y", B(DESERT_TYPE_I32), 0, NULL};
  steps[0] = (desert_type_step){DESERT_STEP_FIELD_ADDED, "label", dflt};
  t->name = "PointV2";
  t->u.record.fields = fields;
  t->u.record.field_count = 3;
  t->u.record.steps = steps;
  t->u.record.step_count = 1;
  return t;
}

static void test_record_evolution(void **state) {
  (void)state;
  fixture f;
  fx_init(&f, 0);
  const desert_type *t = point_v2(&f);
  seal_ok(&f);
  desert_value items[3] = {vint(10), vstr("origin"), vint(20)};
  desert_value v = vseq(items, 3);
  expect_bytes(&f, t, &v, "01100e0000000a000000140c6f726967696e");

  /* A new reader of version-0 data takes the FieldAdded default (E4). */
  uint8_t buf[64];
  desert_value *out;
  desert_type_error err;
  assert_int_equal(decode_hex(&f, t, "000000000a00000014", buf, sizeof buf, &out, &err), DESERT_OK);
  assert_int_equal(out->kind, DESERT_VALUE_SEQ);
  assert_int_equal(out->as.seq.count, 3);
  assert_int_equal(out->as.seq.items[0].as.i, 10);
  assert_int_equal(out->as.seq.items[1].kind, DESERT_VALUE_STRING);
  assert_memory_equal(out->as.seq.items[1].as.str.ptr, "origin", 6);
  assert_int_equal(out->as.seq.items[2].as.i, 20);
  assert_int_equal(desert_reader_offset(f.r), 9);

  /* Truncated (E23): InputEndedUnexpectedly at the start of the cut chunk. */
  assert_int_equal(decode_hex(&f, t, "01100e0000000a00000014", buf, sizeof buf, &out, &err),
                   DESERT_E_INPUT_ENDED);
  assert_true(err.has_offset);
  assert_int_equal(err.offset, 11);
  fx_free(&f);
}

/* ---- paths and offsets of nested failures ------------------------------------------- */

static void test_error_path(void **state) {
  (void)state;
  fixture f;
  fx_init(&f, 0);
  /* Elem { fileName: Option<string> }, Exc { stackTrace: list<Elem> }, Root { exception: Exc } */
  desert_type *elem = desert_type_set_new(f.set, DESERT_TYPE_RECORD);
  desert_type_field *ef = desert_type_set_alloc(f.set, sizeof *ef, 8);
  ef[0] = (desert_type_field){"fileName", B(DESERT_TYPE_STRING), DESERT_FIELD_OPTIONAL, NULL};
  elem->u.record.fields = ef;
  elem->u.record.field_count = 1;
  desert_type *list = desert_type_set_new(f.set, DESERT_TYPE_LIST);
  list->u.coll.element = elem;
  desert_type *exc = desert_type_set_new(f.set, DESERT_TYPE_RECORD);
  desert_type_field *xf = desert_type_set_alloc(f.set, sizeof *xf, 8);
  xf[0] = (desert_type_field){"stackTrace", list, 0, NULL};
  exc->u.record.fields = xf;
  exc->u.record.field_count = 1;
  desert_type *root = desert_type_set_new(f.set, DESERT_TYPE_RECORD);
  desert_type_field *rf = desert_type_set_alloc(f.set, sizeof *rf, 8);
  rf[0] = (desert_type_field){"exception", exc, 0, NULL};
  root->u.record.fields = rf;
  root->u.record.field_count = 1;
  seal_ok(&f);

  uint8_t buf[64];
  desert_value *out;
  desert_type_error err;
  /* 00 00 | count 2 | 00 01 "a" | 00 01 <bad utf-8 "\xff"> */
  desert_status st =
      decode_hex(&f, root, "00 00 04 00 01 02 61 00 01 02 ff", buf, sizeof buf, &out, &err);
  assert_int_equal(st, DESERT_E_INVALID_UTF8);
  assert_string_equal(err.path, "exception.stackTrace[1].fileName");
  assert_true(err.has_offset);
  assert_int_equal(err.offset, 10); /* the first string byte */
  char jp[256];
  desert_type_error_json_path(&err, jp, sizeof jp);
  assert_string_equal(jp, "$.exception.stackTrace[1].fileName");

  /* Encoding: a value of the wrong kind is DESERT_E_ARGUMENT with its path. */
  desert_value fname = vint(5); /* should be NULL or SOME */
  desert_value e1 = vseq(&fname, 1);
  desert_value l = vseq(&e1, 1);
  desert_value x = vseq(&l, 1);
  desert_value r = vseq(&x, 1);
  desert_writer_reset(f.w);
  assert_int_equal(desert_type_encode(f.w, root, &r, NULL, &err), DESERT_E_ARGUMENT);
  assert_string_equal(err.path, "exception.stackTrace[0].fileName");
  assert_int_equal(desert_writer_status(f.w), DESERT_E_ARGUMENT); /* sticky */
  fx_free(&f);
}

/* ---- enums, maps, options ------------------------------------------------------------ */

static void test_enum_sorted(void **state) {
  (void)state;
  fixture f;
  fx_init(&f, 0);
  /* E12: Square(f64), Circle(f64), Blob transient, None(unit); sorted ids. */
  desert_type *e = desert_type_set_new(f.set, DESERT_TYPE_ENUM);
  desert_type_ctor *c = desert_type_set_alloc(f.set, 4 * sizeof *c, 8);
  c[0] = (desert_type_ctor){"Square", false, B(DESERT_TYPE_F64)};
  c[1] = (desert_type_ctor){"Circle", false, B(DESERT_TYPE_F64)};
  c[2] = (desert_type_ctor){"Blob", true, NULL};
  c[3] = (desert_type_ctor){"None", false, B(DESERT_TYPE_UNIT)};
  e->name = "Shape";
  e->u.enumeration.ctors = c;
  e->u.enumeration.count = 4;
  e->u.enumeration.sorted = true;
  desert_type *l = desert_type_set_new(f.set, DESERT_TYPE_LIST);
  l->u.coll.element = e;
  seal_ok(&f);
  uint32_t id;
  assert_int_equal(desert_type_enum_id(e, 0, &id), DESERT_OK);
  assert_int_equal(id, 2);
  assert_int_equal(desert_type_enum_id(e, 1, &id), DESERT_OK);
  assert_int_equal(id, 0);
  assert_int_equal(desert_type_enum_id(e, 2, &id), DESERT_E_SERIALIZING_TRANSIENT);
  assert_int_equal(desert_type_enum_id(e, 3, &id), DESERT_OK);
  assert_int_equal(id, 1);

  desert_value payload[2];
  memset(payload, 0, sizeof payload);
  payload[0].kind = DESERT_VALUE_FLOAT;
  payload[0].as.bits = 0x4004000000000000ull; /* 2.5 */
  payload[1].kind = DESERT_VALUE_NULL;
  desert_value items[2];
  memset(items, 0, sizeof items);
  items[0].kind = DESERT_VALUE_ALT;
  items[0].index = 0;
  items[0].as.child = &payload[0];
  items[1].kind = DESERT_VALUE_ALT;
  items[1].index = 3;
  items[1].as.child = &payload[1];
  desert_value v = vseq(items, 2);
  expect_bytes(&f, l, &v, "04000240040000000000000001");

  /* Writing the transient constructor fails. */
  items[1].index = 2;
  desert_type_error err;
  desert_writer_reset(f.w);
  assert_int_equal(desert_type_encode(f.w, l, &v, NULL, &err), DESERT_E_SERIALIZING_TRANSIENT);
  assert_string_equal(err.path, "[1]");

  /* An unknown id (E13 style): offset of the id varint. */
  uint8_t buf[16];
  desert_value *out;
  assert_int_equal(decode_hex(&f, e, "0007", buf, sizeof buf, &out, &err),
                   DESERT_E_INVALID_CONSTRUCTOR_ID);
  assert_int_equal(err.offset, 1);
  fx_free(&f);
}

static void test_map_and_nullable_option(void **state) {
  (void)state;
  fixture f;
  fx_init(&f, 0);
  desert_type *m = desert_type_set_new(f.set, DESERT_TYPE_MAP);
  m->u.coll.element = B(DESERT_TYPE_STRING);
  m->u.coll.value = B(DESERT_TYPE_I32);
  desert_type *o1 = desert_type_set_new(f.set, DESERT_TYPE_OPTION);
  o1->u.inner = B(DESERT_TYPE_I32);
  desert_type *o2 = desert_type_set_new(f.set, DESERT_TYPE_OPTION);
  o2->u.inner = o1;
  desert_type *lo = desert_type_set_new(f.set, DESERT_TYPE_LIST);
  lo->u.coll.element = o2;
  seal_ok(&f);
  assert_true(desert_type_nullable(o1));
  assert_false(desert_type_nullable(m));

  /* E18 */
  desert_value kv1[2] = {vstr("b"), vint(2)}, kv2[2] = {vstr("a"), vint(1)};
  desert_value entries[2] = {vseq(kv1, 2), vseq(kv2, 2)};
  desert_value mv = vseq(entries, 2);
  expect_bytes(&f, m, &mv, "040002620000000200026100000001");

  /* E19: [None, Some(None), Some(Some(5))] */
  desert_value five = vint(5), none, some_none, inner_some, some_some;
  memset(&none, 0, sizeof none);
  some_none = none;
  some_none.kind = DESERT_VALUE_SOME;
  some_none.as.child = &none;
  inner_some = none;
  inner_some.kind = DESERT_VALUE_SOME;
  inner_some.as.child = &five;
  some_some = none;
  some_some.kind = DESERT_VALUE_SOME;
  some_some.as.child = &inner_some;
  desert_value li[3] = {none, some_none, some_some};
  desert_value lv = vseq(li, 3);
  expect_bytes(&f, lo, &lv, "06000100010100000005");

  /* Decoding gives the same tree back. */
  uint8_t buf[32];
  desert_value *out;
  desert_type_error err;
  assert_int_equal(decode_hex(&f, lo, "06000100010100000005", buf, sizeof buf, &out, &err),
                   DESERT_OK);
  assert_int_equal(out->as.seq.count, 3);
  assert_int_equal(out->as.seq.items[0].kind, DESERT_VALUE_NULL);
  assert_int_equal(out->as.seq.items[1].kind, DESERT_VALUE_SOME);
  assert_int_equal(out->as.seq.items[1].as.child->kind, DESERT_VALUE_NULL);
  assert_int_equal(out->as.seq.items[2].as.child->as.child->as.i, 5);

  /* A tag other than 00/01 under strict tags: DeserializationFailure at the tag. */
  assert_int_equal(decode_hex(&f, lo, "02 02", buf, sizeof buf, &out, &err), DESERT_E_INVALID_TAG);
  assert_int_equal(err.offset, 1);
  assert_string_equal(err.path, "[0]");
  fx_free(&f);
}

/* ---- built-ins with constraints and composite layouts -------------------------------- */

static void test_builtins(void **state) {
  (void)state;
  fixture f;
  fx_init(&f, 0);
  desert_type *b3 = desert_type_set_new(f.set, DESERT_TYPE_BYTES);
  b3->u.bytes.has_length = true;
  b3->u.bytes.length = 3;
  desert_type *ne = desert_type_set_new(f.set, DESERT_TYPE_LIST);
  ne->u.coll.element = B(DESERT_TYPE_I32);
  ne->u.coll.non_empty = true;
  desert_type *unk = desert_type_set_new(f.set, DESERT_TYPE_LIST);
  unk->u.coll.element = B(DESERT_TYPE_I32);
  unk->u.coll.unknown_form = true;
  seal_ok(&f);
  uint8_t buf[64];
  desert_value *out;
  desert_type_error err;
  /* [u8; 3] with 2 stored bytes: DeserializationFailure at the length. */
  assert_int_equal(decode_hex(&f, b3, "02 01 02", buf, sizeof buf, &out, &err),
                   DESERT_E_INVALID_VALUE);
  assert_int_equal(err.offset, 0);
  assert_int_equal(decode_hex(&f, ne, "00", buf, sizeof buf, &out, &err), DESERT_E_INVALID_VALUE);
  /* E16 / E17 */
  desert_value items[2] = {vint(1), vint(2)};
  desert_value v = vseq(items, 2);
  expect_bytes(&f, unk, &v, "010100000001010000000200");
  assert_int_equal(decode_hex(&f, ne, "010100000001010000000200", buf, sizeof buf, &out, &err),
                   DESERT_OK);
  assert_int_equal(out->as.seq.count, 2);

  /* char16 surrogates fail to decode at the char's first byte. */
  assert_int_equal(decode_hex(&f, B(DESERT_TYPE_CHAR16), "d800", buf, sizeof buf, &out, &err),
                   DESERT_E_INVALID_CHAR);
  /* A non-BMP char16 cannot be written. */
  desert_value ch;
  memset(&ch, 0, sizeof ch);
  ch.kind = DESERT_VALUE_CHAR;
  ch.as.cp = 0x1F600;
  desert_writer_reset(f.w);
  assert_int_equal(desert_type_encode(f.w, B(DESERT_TYPE_CHAR16), &ch, NULL, &err),
                   DESERT_E_UNSUPPORTED_CHAR);
  /* local_date 2024-06-22 -> e8 0f 06 16 */
  desert_value d[3] = {vint(2024), vint(6), vint(22)};
  desert_value dv = vseq(d, 3);
  expect_bytes(&f, B(DESERT_TYPE_LOCAL_DATE), &dv, "e80f0616");
  /* zone_id +01:00 -> 00 a0 38 */
  desert_value off = vint(3600), z;
  memset(&z, 0, sizeof z);
  z.kind = DESERT_VALUE_ALT;
  z.index = 0;
  z.as.child = &off;
  expect_bytes(&f, B(DESERT_TYPE_ZONE_ID), &z, "00a038");
  /* bigint -129 -> 02 ff 7f */
  desert_value bi;
  memset(&bi, 0, sizeof bi);
  bi.kind = DESERT_VALUE_BIGINT;
  bi.as.str.ptr = "\xff\x7f";
  bi.as.str.len = 2;
  expect_bytes(&f, B(DESERT_TYPE_BIGINT), &bi, "02ff7f");
  fx_free(&f);
}

/* ---- bounds ----------------------------------------------------------------------------- */

static void test_bounds(void **state) {
  (void)state;
  fixture f;
  fx_init(&f, 0);
  desert_type *lu = desert_type_set_new(f.set, DESERT_TYPE_LIST);
  lu->u.coll.element = B(DESERT_TYPE_UNIT);
  /* T = option<T>-like chain through a REF: Opt -> option(Opt) */
  desert_type *ref = desert_type_set_new(f.set, DESERT_TYPE_REF);
  desert_type *opt = desert_type_set_new(f.set, DESERT_TYPE_OPTION);
  ref->name = "Opt";
  ref->u.inner = opt;
  opt->u.inner = ref;
  seal_ok(&f);
  uint8_t buf[4096];
  desert_value *out;
  desert_type_error err;
  /* 2^31-1 units from 5 bytes: the node budget ends it. */
  size_t n = desert_hex_decode("feffffff0f", buf, sizeof buf);
  desert_codec_limits lim = {0, 1000, 0};
  assert_int_equal(desert_reader_begin(f.r, buf, n), DESERT_OK);
  assert_int_equal(desert_type_decode(f.r, lu, f.arena, &lim, &out, &err), DESERT_E_LIMIT);
  /* Deep nesting: Some(Some(...)) 2000 levels. */
  memset(buf, 1, 2000);
  buf[2000] = 0;
  lim.max_depth = 100;
  lim.max_values = 0;
  assert_int_equal(desert_reader_begin(f.r, buf, 2001), DESERT_OK);
  assert_int_equal(desert_type_decode(f.r, ref, f.arena, &lim, &out, &err), DESERT_E_DEPTH);
  assert_int_equal(err.offset, 100);
  fx_free(&f);
}

static void test_seal_checks(void **state) {
  (void)state;
  char msg[200];
  desert_type_set *s;
  assert_int_equal(desert_type_set_create(NULL, &s), DESERT_OK);
  desert_type *a = desert_type_set_new(s, DESERT_TYPE_REF);
  desert_type *b = desert_type_set_new(s, DESERT_TYPE_TRANSPARENT);
  a->name = "A";
  a->u.inner = b;
  b->u.inner = a;
  assert_int_equal(desert_type_set_seal(s, msg, sizeof msg), DESERT_E_ARGUMENT);
  assert_non_null(strstr(msg, "alias cycle"));
  desert_type_set_free(s);

  assert_int_equal(desert_type_set_create(NULL, &s), DESERT_OK);
  desert_type *r = desert_type_set_new(s, DESERT_TYPE_RECORD);
  desert_type_field *fl = desert_type_set_alloc(s, 2 * sizeof *fl, 8);
  fl[0] = (desert_type_field){"a", B(DESERT_TYPE_I32), 0, NULL};
  fl[1] = (desert_type_field){"a", B(DESERT_TYPE_I64), 0, NULL};
  r->u.record.fields = fl;
  r->u.record.field_count = 2;
  assert_int_equal(desert_type_set_seal(s, msg, sizeof msg), DESERT_E_ARGUMENT);
  assert_non_null(strstr(msg, "duplicate field"));
  desert_type_set_free(s);
}

/* ---- trace ------------------------------------------------------------------------------- */

typedef struct trace_log {
  size_t n;
  size_t start[16], end[16];
  char path[16][64];
} trace_log;

static void on_trace(void *ctx, size_t start, size_t end, const char *path, desert_type_kind kind,
                     bool leaf) {
  (void)kind;
  (void)leaf;
  trace_log *t = ctx;
  if (t->n < 16) {
    t->start[t->n] = start;
    t->end[t->n] = end;
    snprintf(t->path[t->n], sizeof t->path[0], "%s", path);
  }
  t->n++;
}

static void test_trace(void **state) {
  (void)state;
  fixture f;
  fx_init(&f, 0);
  const desert_type *t = point_v2(&f);
  seal_ok(&f);
  uint8_t buf[64];
  size_t n = desert_hex_decode("01100e0000000a000000140c6f726967696e", buf, sizeof buf);
  trace_log log;
  memset(&log, 0, sizeof log);
  desert_value *out;
  desert_type_error err;
  assert_int_equal(desert_reader_begin(f.r, buf, n), DESERT_OK);
  assert_int_equal(desert_type_decode_traced(f.r, t, f.arena, NULL, on_trace, &log, &out, &err),
                   DESERT_OK);
  assert_int_equal(log.n, 4);
  assert_string_equal(log.path[0], "x");
  assert_int_equal(log.start[0], 3);
  assert_int_equal(log.end[0], 7);
  assert_string_equal(log.path[1], "label");
  assert_int_equal(log.start[1], 11);
  assert_int_equal(log.end[1], 18);
  assert_string_equal(log.path[2], "y");
  assert_string_equal(log.path[3], "");
  assert_int_equal(log.start[3], 0);
  assert_int_equal(log.end[3], 18);
  fx_free(&f);
}

/* ---- C-struct descriptors ------------------------------------------------------------------- */

typedef struct tag {
  desert_str name;
  uint32_t weight;
} tag;

typedef struct item {
  int32_t x;
  desert_str label;
  bool has_label;
  int32_t y;
  desert_clist tags; /* of tag */
  int64_t cached;    /* transient */
  uint8_t id[16];
} item;

static const desert_field_desc tag_fields[] = {{"name", 0}, {"weight", 0}};
static const desert_cfield tag_cfields[] = {DESERT_CFIELD(tag, name, DESERT_C_STRING),
                                            DESERT_CFIELD(tag, weight, DESERT_C_VAR_U32)};
static const desert_cstruct tag_desc = DESERT_CSTRUCT_V0(tag, "Tag", tag_fields, tag_cfields, NULL);

static const desert_field_desc item_fields[] = {
    {"x", 0},    {"label", DESERT_FIELD_OPTIONAL},   {"y", 0},
    {"tags", 0}, {"cached", DESERT_FIELD_TRANSIENT}, {"id", 0}};
static const desert_evolution_step item_steps[] = {
    {DESERT_STEP_FIELD_ADDED, "label", true},
    {DESERT_STEP_FIELD_MADE_TRANSIENT, "cached", false},
    {DESERT_STEP_FIELD_ADDED, "tags", true}};
static const desert_cfield item_cfields[] = {
    DESERT_CFIELD(item, x, DESERT_C_I32),
    DESERT_CFIELD_OPT(item, label, DESERT_C_STRING, has_label),
    DESERT_CFIELD(item, y, DESERT_C_I32),
    DESERT_CFIELD_LIST(item, tags, DESERT_C_RECORD, &tag_desc),
    DESERT_CFIELD(item, cached, DESERT_C_I64),
    DESERT_CFIELD(item, id, DESERT_C_UUID)};

static void item_defaults(void *obj, size_t index) {
  item *it = obj;
  if (index == 4) it->cached = -1;
  if (index == 1) {
    it->label.ptr = "origin";
    it->label.len = 6;
    it->has_label = true;
  }
}

static const desert_cstruct item_desc =
    DESERT_CSTRUCT(item, "Item", item_fields, item_steps, item_cfields, item_defaults);

static void test_cstruct(void **state) {
  (void)state;
  fixture f;
  fx_init(&f, 0);
  assert_int_equal(desert_cstruct_check(&item_desc), DESERT_OK);
  tag tags[2] = {{{"a", 1}, 7}, {{"bb", 2}, 300}};
  item it;
  memset(&it, 0, sizeof it);
  it.x = 10;
  it.label.ptr = "hi";
  it.label.len = 2;
  it.has_label = true;
  it.y = -1;
  it.tags.items = tags;
  it.tags.count = 2;
  it.cached = 99;
  for (int i = 0; i < 16; i++) it.id[i] = (uint8_t)i;
  assert_int_equal(desert_cstruct_encode(f.w, &item_desc, &it), DESERT_OK);
  size_t n;
  const uint8_t *bytes = desert_writer_data(f.w, &n);
  /* version 3; chunk 0 = x, y, id (24 bytes); chunk 1 = Some("hi") (4 bytes);
   * FieldRemoved "cached"; chunk 3 = the tags list. */
  uint8_t want[128];
  size_t wn = desert_hex_decode("03 30 08 03 0c 63 61 63 68 65 64 16"
                                " 0000000a ffffffff 000102030405060708090a0b0c0d0e0f"
                                " 01 04 6869"
                                " 04 00 02 61 07 00 04 62 62 ac 02",
                                want, sizeof want);
  desert_assert_bytes_equal(want, wn, bytes, n);

  uint8_t copy[128];
  memcpy(copy, bytes, n);
  item back;
  assert_int_equal(desert_reader_begin(f.r, copy, n), DESERT_OK);
  assert_int_equal(desert_cstruct_decode(f.r, &item_desc, &back), DESERT_OK);
  assert_int_equal(back.x, 10);
  assert_true(back.has_label);
  assert_int_equal(back.label.len, 2);
  assert_memory_equal(back.label.ptr, "hi", 2);
  assert_int_equal(back.y, -1);
  assert_int_equal(back.tags.count, 2);
  const tag *bt = back.tags.items;
  assert_int_equal(bt[1].weight, 300);
  assert_memory_equal(bt[1].name.ptr, "bb", 2);
  assert_int_equal(back.cached, -1); /* transient: the defaults callback */
  assert_memory_equal(back.id, it.id, 16);
  assert_int_equal(desert_reader_offset(f.r), n);

  /* Version-0 data (x, y, id): label and tags take their defaults. */
  uint8_t v0[32];
  size_t v0n =
      desert_hex_decode("00 0000000a 00000014 000102030405060708090a0b0c0d0e0f", v0, sizeof v0);
  assert_int_equal(desert_reader_begin(f.r, v0, v0n), DESERT_OK);
  assert_int_equal(desert_cstruct_decode(f.r, &item_desc, &back), DESERT_OK);
  assert_int_equal(back.y, 20);
  assert_true(back.has_label);
  assert_memory_equal(back.label.ptr, "origin", 6);
  assert_int_equal(back.tags.count, 0);

  /* Cut short: the reader's error and offset. */
  assert_int_equal(desert_reader_begin(f.r, copy, n - 1), DESERT_OK);
  assert_int_equal(desert_cstruct_decode(f.r, &item_desc, &back), DESERT_E_INPUT_ENDED);
  fx_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_record_evolution), cmocka_unit_test(test_error_path),
      cmocka_unit_test(test_enum_sorted),      cmocka_unit_test(test_map_and_nullable_option),
      cmocka_unit_test(test_builtins),         cmocka_unit_test(test_bounds),
      cmocka_unit_test(test_seal_checks),      cmocka_unit_test(test_trace),
      cmocka_unit_test(test_cstruct),
  };
  return cmocka_run_group_tests_name("types_codec", tests, NULL, NULL);
}
