/* test/fuzz/fuzz_enum.c — libFuzzer harness: enums with transient
 * constructors (docs/format.md §11), in declaration and in sorted id order,
 * including Scala's enum-level evolution layout, and the type registry
 * framing (docs/format.md §12).
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 selects the description (bit 0: sorted ids) and the option
 * flags (bits 4..7); then a sequence of values, each a registry type id
 * (checked against the registry {1, 2, 5}) followed by one Shape enum
 * value. Cases:
 *   Circle {r: i32}      Square (transient)    Blob {data: bytes, label: Option[String]}
 *   Empty {}             Raw (transparent i64) Zed (transient)
 * A transient case must never come out of a read. Every decoded value is
 * written again and read back to the same value. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

enum { C_CIRCLE, C_SQUARE, C_BLOB, C_EMPTY, C_RAW, C_ZED, C_COUNT };

static const desert_case_desc shape_cases[] = {
    {"Circle", 0}, {"Square", DESERT_CASE_TRANSIENT}, {"Blob", 0},
    {"Empty", 0},  {"Raw", 0},                        {"Zed", DESERT_CASE_TRANSIENT}};
static const desert_enum_desc shape_decl = DESERT_ENUM_DESC("Shape", shape_cases, false);
static const desert_enum_desc shape_sorted = DESERT_ENUM_DESC("ShapeSorted", shape_cases, true);

static const desert_field_desc circle_fields[] = {{"r", 0}};
static const desert_record_desc circle_desc = DESERT_RECORD_DESC_V0("Circle", circle_fields);
static const desert_field_desc blob_fields[] = {{"data", 0}, {"label", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step blob_steps[] = {{DESERT_STEP_FIELD_ADDED, "label", true}};
static const desert_record_desc blob_desc = DESERT_RECORD_DESC("Blob", blob_fields, blob_steps);
static const desert_record_desc empty_desc = {"Empty", NULL, 0, NULL, 0};

static const uint32_t registry[] = {1, 2, 5};

typedef struct shape {
  size_t kind;
  int32_t r;
  desert_bytes data;
  bool has_label;
  desert_str label;
  int64_t raw;
} shape;

static desert_status read_shape(desert_reader *r, const desert_enum_desc *d, shape *s) {
  memset(s, 0, sizeof *s);
  size_t index = SIZE_MAX;
  if (desert_enum_read_begin(r, d, &index)) return desert_reader_status(r);
  FZ_CHECK_MSG(index < C_COUNT, "case index %zu", index);
  FZ_CHECK_MSG(!(shape_cases[index].flags & DESERT_CASE_TRANSIENT),
               "a transient constructor (%s) was decoded", shape_cases[index].name);
  s->kind = index;
  desert_record_reader rr;
  desert_field_action a;
  switch (index) {
  case C_CIRCLE:
    if (!desert_record_read_begin(r, &circle_desc, &rr)) {
      if (!desert_record_read_field(&rr, 0, &a)) desert_read_i32(r, &s->r);
      desert_record_read_end(&rr);
    }
    break;
  case C_BLOB:
    if (!desert_record_read_begin(r, &blob_desc, &rr)) {
      if (!desert_record_read_field(&rr, 0, &a)) desert_read_bytes(r, &s->data);
      if (!desert_record_read_field(&rr, 1, &a)) {
        s->has_label = a == DESERT_FIELD_READ;
        if (s->has_label) desert_read_string(r, &s->label);
      }
      desert_record_read_end(&rr);
    }
    break;
  case C_EMPTY:
    if (!desert_record_read_begin(r, &empty_desc, &rr)) desert_record_read_end(&rr);
    break;
  default: /* C_RAW: transparent payload */
    desert_read_i64(r, &s->raw);
    break;
  }
  desert_enum_read_end(r, d);
  return desert_reader_status(r);
}

static desert_status write_shape(desert_writer *w, const desert_enum_desc *d, const shape *s) {
  if (desert_enum_write_begin(w, d, s->kind)) return desert_writer_status(w);
  desert_record_writer rw;
  switch (s->kind) {
  case C_CIRCLE:
    if (!desert_record_write_begin(w, &circle_desc, &rw)) {
      desert_record_write_field(&rw, 0);
      desert_write_i32(w, s->r);
      desert_record_write_end(&rw);
    }
    break;
  case C_BLOB:
    if (!desert_record_write_begin(w, &blob_desc, &rw)) {
      desert_record_write_field(&rw, 0);
      desert_write_bytes(w, s->data.ptr, s->data.len);
      desert_record_write_field_option(&rw, 1, s->has_label);
      if (s->has_label) desert_write_string(w, s->label.ptr, s->label.len);
      desert_record_write_end(&rw);
    }
    break;
  case C_EMPTY:
    if (!desert_record_write_begin(w, &empty_desc, &rw)) desert_record_write_end(&rw);
    break;
  default:
    desert_write_i64(w, s->raw);
    break;
  }
  return desert_writer_status(w);
}

static bool shape_eq(const shape *a, const shape *b) {
  if (a->kind != b->kind || a->r != b->r || a->raw != b->raw || a->has_label != b->has_label ||
      a->data.len != b->data.len || a->label.len != b->label.len)
    return false;
  if (a->data.len && memcmp(a->data.ptr, b->data.ptr, a->data.len)) return false;
  if (a->label.len && memcmp(a->label.ptr, b->label.ptr, a->label.len)) return false;
  return true;
}

static void check_ids(const desert_enum_desc *d) {
  for (size_t i = 0; i < d->case_count; i++) {
    uint32_t id;
    desert_status st = desert_enum_case_id(d, i, &id);
    if (d->cases[i].flags & DESERT_CASE_TRANSIENT) {
      FZ_CHECK(st == DESERT_E_SERIALIZING_TRANSIENT);
      continue;
    }
    FZ_CHECK(st == DESERT_OK && id < 4);
    size_t back;
    FZ_CHECK(desert_enum_case_index(d, id, &back) == DESERT_OK && back == i);
  }
  size_t idx;
  FZ_CHECK(desert_enum_case_index(d, 4, &idx) == DESERT_E_INVALID_CONSTRUCTOR_ID);
}

FZ_TARGET(enum) {
  static int ids_checked;
  if (!ids_checked) {
    check_ids(&shape_decl);
    check_ids(&shape_sorted);
    ids_checked = 1;
  }
  if (size < 1) return 0;
  const desert_enum_desc *d = (data[0] & 1u) ? &shape_sorted : &shape_decl;
  desert_options o;
  fz_options(&o, fz_flags_from((uint8_t)(data[0] >> 4)));
  desert_reader *r = fz_reader_new(&o);
  desert_reader *r2 = fz_reader_new(&o);
  desert_writer *w = NULL;
  FZ_CHECK(desert_writer_create(NULL, &w) == DESERT_OK);

  fz_decode_begin(r, data + 1, size - 1);
  for (unsigned i = 0; i < 1024 && desert_reader_remaining(r) > 0; i++) {
    size_t reg = SIZE_MAX;
    if (desert_registry_read_type(r, registry, 3, &reg)) break;
    FZ_CHECK(reg < 3);
    shape s;
    size_t before = desert_reader_offset(r);
    if (read_shape(r, d, &s)) {
      FZ_CHECK(desert_reader_error_offset(r) >= before);
      break;
    }
    desert_writer_reset(w);
    desert_status ws = write_shape(w, d, &s);
    FZ_CHECK_MSG(ws == DESERT_OK, "decoded %s not writable: %s", shape_cases[s.kind].name,
                 desert_status_name(ws));
    size_t n;
    const uint8_t *p = desert_writer_data(w, &n);
    uint8_t *copy = malloc(n ? n : 1);
    FZ_CHECK(copy != NULL);
    memcpy(copy, p, n);
    shape back;
    fz_decode_begin(r2, copy, n);
    desert_status st = read_shape(r2, d, &back);
    FZ_CHECK_MSG(st == DESERT_OK, "own output does not decode: %s", desert_status_name(st));
    FZ_CHECK(desert_reader_offset(r2) == n);
    FZ_CHECK_MSG(shape_eq(&s, &back), "value changed through write + read");
    fz_decode_end(r2);
    free(copy);
  }
  fz_decode_end(r);
  desert_writer_free(w);
  fz_reader_free(r2);
  fz_reader_free(r);
  return 0;
}
