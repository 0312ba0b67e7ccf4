/* test/fuzz/fuzz_evolution.c — libFuzzer harness: a record evolving through
 * five versions (docs/format.md §9), the input read by every version.
 * SPDX-License-Identifier: MIT
 *
 *   V1  {id: i32, name: String}                                  version 0
 *   V2  + qty: i32            FieldAdded(qty, default 1)
 *   V3  name: Option          FieldMadeOptional(name)
 *   V4  + tag: Option[String] FieldAdded(tag, default None)
 *       + sub: Option[Item]   FieldAdded(sub, default None)  (nests itself)
 *       + cache (transient field)
 *   V5  name removed          FieldRemoved(name)
 *       qty transient         FieldMadeTransient(qty)
 *
 * Each version decodes the input. When one succeeds, its value is written
 * by the same version; that output must decode to the same value and
 * re-encode to the same bytes, and every other version must decode it or
 * fail cleanly (reader invariants and the memory bound of fuzz_common).
 * Every version also reads the input through its prepared plan (record.h)
 * and must get the same status, offset and value as through its
 * description, and writing through the plan must give the same bytes;
 * a size-only writer (through the plan: V2-V4 are counted in place; and
 * through the description) must count exactly that many bytes. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

enum { FK_ID, FK_NAME, FK_QTY, FK_TAG, FK_SUB, FK_CACHE };

typedef struct version {
  desert_record_desc desc;
  const int *kinds; /* FK_* per field */
} version;

static const desert_field_desc v1_fields[] = {{"id", 0}, {"name", 0}};
static const int v1_kinds[] = {FK_ID, FK_NAME};

static const desert_field_desc v2_fields[] = {{"id", 0}, {"name", 0}, {"qty", 0}};
static const desert_evolution_step v2_steps[] = {{DESERT_STEP_FIELD_ADDED, "qty", true}};
static const int v2_kinds[] = {FK_ID, FK_NAME, FK_QTY};

static const desert_field_desc v3_fields[] = {
    {"id", 0}, {"name", DESERT_FIELD_OPTIONAL}, {"qty", 0}};
static const desert_evolution_step v3_steps[] = {{DESERT_STEP_FIELD_ADDED, "qty", true},
                                                 {DESERT_STEP_FIELD_MADE_OPTIONAL, "name", false}};
static const int v3_kinds[] = {FK_ID, FK_NAME, FK_QTY};

static const desert_field_desc v4_fields[] = {{"id", 0},
                                              {"name", DESERT_FIELD_OPTIONAL},
                                              {"qty", 0},
                                              {"tag", DESERT_FIELD_OPTIONAL},
                                              {"sub", DESERT_FIELD_OPTIONAL},
                                              {"cache", DESERT_FIELD_TRANSIENT}};
static const desert_evolution_step v4_steps[] = {{DESERT_STEP_FIELD_ADDED, "qty", true},
                                                 {DESERT_STEP_FIELD_MADE_OPTIONAL, "name", false},
                                                 {DESERT_STEP_FIELD_ADDED, "tag", true},
                                                 {DESERT_STEP_FIELD_ADDED, "sub", true}};
static const int v4_kinds[] = {FK_ID, FK_NAME, FK_QTY, FK_TAG, FK_SUB, FK_CACHE};

static const desert_field_desc v5_fields[] = {{"id", 0},
                                              {"qty", DESERT_FIELD_TRANSIENT},
                                              {"tag", DESERT_FIELD_OPTIONAL},
                                              {"sub", DESERT_FIELD_OPTIONAL},
                                              {"cache", DESERT_FIELD_TRANSIENT}};
static const desert_evolution_step v5_steps[] = {{DESERT_STEP_FIELD_ADDED, "qty", true},
                                                 {DESERT_STEP_FIELD_MADE_OPTIONAL, "name", false},
                                                 {DESERT_STEP_FIELD_ADDED, "tag", true},
                                                 {DESERT_STEP_FIELD_ADDED, "sub", true},
                                                 {DESERT_STEP_FIELD_REMOVED, "name", false},
                                                 {DESERT_STEP_FIELD_MADE_TRANSIENT, "qty", false}};
static const int v5_kinds[] = {FK_ID, FK_QTY, FK_TAG, FK_SUB, FK_CACHE};

static const version versions[5] = {
    {DESERT_RECORD_DESC_V0("ItemV1", v1_fields), v1_kinds},
    {DESERT_RECORD_DESC("ItemV2", v2_fields, v2_steps), v2_kinds},
    {DESERT_RECORD_DESC("ItemV3", v3_fields, v3_steps), v3_kinds},
    {DESERT_RECORD_DESC("ItemV4", v4_fields, v4_steps), v4_kinds},
    {DESERT_RECORD_DESC("ItemV5", v5_fields, v5_steps), v5_kinds}};

typedef struct item {
  int32_t id;
  bool has_name;
  desert_str name;
  int32_t qty;
  bool has_tag;
  desert_str tag;
  struct item *sub; /* reader arena */
  int32_t cache;
} item;

/* Plans of the five versions, in static storage; plan_mode routes
 * read_item and write_item through them. */
static const desert_record_plan *plans[5];
static bool plan_mode;

static void prepare_plans(void) {
  static void *mem[5][DESERT_RECORD_PLAN_BYTES(6, 6) / sizeof(void *)];
  for (size_t k = 0; k < 5 && !plans[k]; k++)
    FZ_CHECK(desert_record_plan_init(&versions[k].desc, mem[k], sizeof mem[k], &plans[k]) ==
             DESERT_OK);
}

static desert_status read_item(desert_reader *r, const version *v, item *it) {
  memset(it, 0, sizeof *it);
  desert_record_reader rr;
  if (plan_mode ? desert_record_read_begin_plan(r, plans[v - versions], &rr)
                : desert_record_read_begin(r, &v->desc, &rr))
    return desert_reader_status(r);
  for (size_t f = 0; f < v->desc.field_count; f++) {
    desert_field_action a;
    if (desert_record_read_field(&rr, f, &a)) break;
    bool read = a == DESERT_FIELD_READ;
    switch (v->kinds[f]) {
    case FK_ID:
      FZ_CHECK(read);
      desert_read_i32(r, &it->id);
      break;
    case FK_NAME:
      if (!(v->desc.fields[f].flags & DESERT_FIELD_OPTIONAL)) FZ_CHECK(read);
      it->has_name = read;
      if (read) desert_read_string(r, &it->name);
      break;
    case FK_QTY:
      if (v->desc.fields[f].flags & DESERT_FIELD_TRANSIENT) {
        FZ_CHECK(a == DESERT_FIELD_TRANSIENT_DEFAULT);
        it->qty = -1;
      } else if (a == DESERT_FIELD_DEFAULT) {
        it->qty = 1;
      } else {
        FZ_CHECK(read);
        desert_read_i32(r, &it->qty);
      }
      break;
    case FK_TAG:
      FZ_CHECK(a == DESERT_FIELD_READ || a == DESERT_FIELD_NONE || a == DESERT_FIELD_DEFAULT);
      it->has_tag = read;
      if (read) desert_read_string(r, &it->tag);
      break;
    case FK_SUB:
      FZ_CHECK(a == DESERT_FIELD_READ || a == DESERT_FIELD_NONE || a == DESERT_FIELD_DEFAULT);
      if (read) {
        item *s = desert_reader_alloc(r, sizeof *s, 16);
        if (s && read_item(r, v, s) == DESERT_OK) it->sub = s;
      }
      break;
    default: /* FK_CACHE */
      FZ_CHECK(a == DESERT_FIELD_TRANSIENT_DEFAULT);
      it->cache = 7;
      break;
    }
    if (desert_reader_status(r)) break;
  }
  desert_record_read_end(&rr);
  return desert_reader_status(r);
}

static desert_status write_item(desert_writer *w, const version *v, const item *it) {
  desert_record_writer rw;
  if (plan_mode ? desert_record_write_begin_plan(w, plans[v - versions], &rw)
                : desert_record_write_begin(w, &v->desc, &rw))
    return desert_writer_status(w);
  for (size_t f = 0; f < v->desc.field_count; f++) {
    unsigned fl = v->desc.fields[f].flags;
    if (fl & DESERT_FIELD_TRANSIENT) continue;
    switch (v->kinds[f]) {
    case FK_ID:
      desert_record_write_field(&rw, f);
      desert_write_i32(w, it->id);
      break;
    case FK_NAME:
      if (fl & DESERT_FIELD_OPTIONAL) {
        desert_record_write_field_option(&rw, f, it->has_name);
        if (it->has_name) desert_write_string(w, it->name.ptr, it->name.len);
      } else {
        desert_record_write_field(&rw, f);
        desert_write_string(w, it->name.ptr, it->name.len);
      }
      break;
    case FK_QTY:
      desert_record_write_field(&rw, f);
      desert_write_i32(w, it->qty);
      break;
    case FK_TAG:
      desert_record_write_field_option(&rw, f, it->has_tag);
      if (it->has_tag) desert_write_string(w, it->tag.ptr, it->tag.len);
      break;
    case FK_SUB:
      desert_record_write_field_option(&rw, f, it->sub != NULL);
      if (it->sub) write_item(w, v, it->sub);
      break;
    default:
      break;
    }
  }
  return desert_record_write_end(&rw);
}

static bool str_eq(desert_str a, desert_str b) {
  return a.len == b.len && (!a.len || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static bool item_eq(const item *a, const item *b) {
  if (a->id != b->id || a->has_name != b->has_name || a->qty != b->qty ||
      a->has_tag != b->has_tag || a->cache != b->cache)
    return false;
  if (a->has_name && !str_eq(a->name, b->name)) return false;
  if (a->has_tag && !str_eq(a->tag, b->tag)) return false;
  if ((a->sub == NULL) != (b->sub == NULL)) return false;
  return a->sub == NULL || item_eq(a->sub, b->sub);
}

static uint8_t *written_copy(desert_writer *w, size_t *n) {
  const uint8_t *p = desert_writer_data(w, n);
  uint8_t *c = malloc(*n ? *n : 1);
  FZ_CHECK(c != NULL);
  if (*n) memcpy(c, p, *n);
  return c;
}

FZ_TARGET(evolution) {
  desert_options o;
  fz_options(&o, size ? fz_flags_from(data[0] >> 4) : 0);
  desert_reader *r = fz_reader_new(&o);
  desert_reader *r2 = fz_reader_new(&o);
  /* Legacy header string scoping: with the default (current Scala / Rust)
   * scoping, a V5 record nested in a V5 record registers the removed names
   * while its chunk is written, so the outer header (written later, placed
   * earlier) refers to them before the stream defines them
   * (docs/format.md §9.8). That case is checked separately below. */
  desert_writer *w = NULL, *wm = NULL;
  desert_options wo;
  desert_options_init(&wo);
  FZ_CHECK(desert_writer_create(&wo, &wm) == DESERT_OK);
  wo.flags = DESERT_OPT_LEGACY_HEADER_STRINGS;
  FZ_CHECK(desert_writer_create(&wo, &w) == DESERT_OK);
  desert_writer *wc = NULL; /* size-only, w's options */
  FZ_CHECK(desert_writer_create(&wo, &wc) == DESERT_OK);
  desert_writer_count_only(wc);

  for (size_t k = 0; k < 5; k++) {
    const version *v = &versions[k];
    item it;
    fz_decode_begin(r, data, size);
    desert_status st = read_item(r, v, &it);
    size_t at = st ? desert_reader_error_offset(r) : desert_reader_offset(r);
    fz_decode_end(r);
    /* The plan path: same status, offset and value. */
    prepare_plans();
    item pit;
    plan_mode = true;
    fz_decode_begin(r2, data, size);
    desert_status pst = read_item(r2, v, &pit);
    size_t pat = pst ? desert_reader_error_offset(r2) : desert_reader_offset(r2);
    fz_decode_end(r2);
    plan_mode = false;
    FZ_CHECK_MSG(pst == st && pat == at, "V%zu: plan read %s at %zu, description read %s at %zu",
                 k + 1, desert_status_name(pst), pat, desert_status_name(st), at);
    if (st) continue;
    FZ_CHECK_MSG(item_eq(&it, &pit), "V%zu: plan read a different value", k + 1);
    FZ_CHECK(desert_reader_offset(r) <= size);

    desert_writer_reset(w);
    desert_status ws = write_item(w, v, &it);
    FZ_CHECK_MSG(ws == DESERT_OK, "V%zu: decoded value not writable: %s", k + 1,
                 desert_status_name(ws));
    size_t n1;
    uint8_t *b1 = written_copy(w, &n1);
    desert_writer_reset(w);
    plan_mode = true;
    FZ_CHECK(write_item(w, v, &it) == DESERT_OK);
    plan_mode = false;
    size_t np;
    const uint8_t *bp = desert_writer_data(w, &np);
    FZ_CHECK_MSG(np == n1 && memcmp(bp, b1, n1) == 0, "V%zu: plan write differs", k + 1);
    for (int pm = 0; pm < 2; pm++) {
      desert_writer_reset(wc);
      plan_mode = pm != 0;
      FZ_CHECK(write_item(wc, v, &it) == DESERT_OK);
      plan_mode = false;
      FZ_CHECK_MSG(desert_writer_size(wc) == n1, "V%zu: size-only (%s) counts %zu, wrote %zu",
                   k + 1, pm ? "plan" : "description", desert_writer_size(wc), n1);
    }

    /* Same version: identical value, identical bytes. */
    item back;
    fz_decode_begin(r2, b1, n1);
    st = read_item(r2, v, &back);
    FZ_CHECK_MSG(st == DESERT_OK, "V%zu: own output does not decode: %s at %zu", k + 1,
                 desert_status_name(st), desert_reader_error_offset(r2));
    FZ_CHECK(desert_reader_offset(r2) == n1);
    FZ_CHECK_MSG(item_eq(&it, &back), "V%zu: value changed through write + read", k + 1);
    desert_writer_reset(w);
    FZ_CHECK(write_item(w, v, &back) == DESERT_OK);
    size_t n2;
    const uint8_t *b2 = desert_writer_data(w, &n2);
    FZ_CHECK_MSG(n1 == n2 && memcmp(b1, b2, n1) == 0, "V%zu: write(read(write(x))) differs",
                 k + 1);
    fz_decode_end(r2);

    /* The default writer: same value unless the docs/format.md §9.8 case. */
    desert_writer_reset(wm);
    FZ_CHECK(write_item(wm, v, &it) == DESERT_OK);
    size_t nm;
    uint8_t *bm = written_copy(wm, &nm);
    fz_decode_begin(r2, bm, nm);
    st = read_item(r2, v, &back);
    fz_decode_end(r2);
    if (st == DESERT_OK)
      FZ_CHECK_MSG(item_eq(&it, &back), "V%zu: value changed through the default writer", k + 1);
    else
      FZ_CHECK_MSG(k == 4 && it.sub != NULL && st == DESERT_E_INVALID_STRING_ID,
                   "V%zu: default writer output does not decode: %s at %zu", k + 1,
                   desert_status_name(st), desert_reader_error_offset(r2));
    free(bm);

    /* Every other version reads the well-formed evolved data. */
    for (size_t j = 0; j < 5; j++) {
      if (j == k) continue;
      item other;
      fz_decode_begin(r2, b1, n1);
      st = read_item(r2, &versions[j], &other);
      fz_decode_end(r2);
      if (st == DESERT_OK) {
        FZ_CHECK_MSG(other.id == it.id, "V%zu data read by V%zu: id changed", k + 1, j + 1);
        /* Versioned data ends after its last chunk; version-0 data where
         * the reader's last field ended (docs/format.md §9.6). */
        if (k > 0) FZ_CHECK(desert_reader_offset(r2) == n1);
        else FZ_CHECK(desert_reader_offset(r2) <= n1);
      } else {
        /* Only the evolution errors the format defines can happen here. */
        FZ_CHECK_MSG(st == DESERT_E_FIELD_REMOVED || st == DESERT_E_FIELD_MISSING ||
                         st == DESERT_E_NONOPTIONAL_NONE || st == DESERT_E_DESERIALIZATION ||
                         st == DESERT_E_DEPTH,
                     "V%zu data read by V%zu: %s at %zu", k + 1, j + 1, desert_status_name(st),
                     desert_reader_error_offset(r2));
      }
    }
    free(b1);
  }
  desert_writer_free(wc);
  desert_writer_free(wm);
  desert_writer_free(w);
  fz_reader_free(r2);
  fz_reader_free(r);
  return 0;
}
