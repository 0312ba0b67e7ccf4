/* src/record/record_plan.c — prepared record plans (record.h): the derived
 * data of a description (chunk, position byte, made-optional index,
 * default of each field; the header entry of each step) computed once into
 * one block, either the caller's storage or an allocation. Also the
 * functions that compute one field or entry for the description-based
 * calls, and the tuple descriptions (docs/format.md §8) with their static plans.
 * SPDX-License-Identifier: MIT */
#include "record/record_plan.h"

desert_rec_pfield desert_rec_compute_field(const desert_record_desc *d, size_t i) {
  desert_rec_pfield f;
  bool has_default = false;
  f.name_len = (uint32_t)strlen(d->fields[i].name);
  f.min_next = 0;
  for (size_t j = i; j-- > 0;)
    if (!(d->fields[j].flags & DESERT_FIELD_TRANSIENT)) {
      f.min_next = (uint32_t)(j + 1);
      break;
    }
  f.flags = (uint8_t)d->fields[i].flags;
  f.chunk = (uint8_t)(d->step_count ? desert_rec_field_chunk(d, i, &has_default) : 0);
  f.mo_index = (uint8_t)(d->step_count ? desert_rec_made_optional_index(d, i) : 0);
  f.has_default = has_default;
  return f;
}

desert_rec_hentry desert_rec_compute_entry(const desert_record_desc *d, size_t s) {
  const desert_evolution_step *st = &d->steps[s];
  desert_rec_hentry e = {REC_H_REMOVED, 0};
  if (st->kind == DESERT_STEP_FIELD_ADDED) {
    e.kind = REC_H_CHUNK;
  } else if (st->kind == DESERT_STEP_FIELD_MADE_OPTIONAL) {
    size_t f = desert_rec_find_field(d, st->field);
    if (f != SIZE_MAX && !(d->fields[f].flags & DESERT_FIELD_TRANSIENT)) {
      unsigned c = desert_rec_field_chunk(d, f, NULL);
      if (c == 0) {
        size_t p = desert_rec_field_position(d, f, 0);
        e.kind = p > 127 ? REC_H_MO_FAR : REC_H_MO;
        e.byte = (uint8_t)(0x100u - p); /* -p as a signed byte; p = 0 gives 00 */
      } else {
        e.kind = REC_H_MO;
        e.byte = (uint8_t)c; /* position in an added chunk is always 0: not stored */
      }
    } else if (desert_rec_is_removed(d, st->field, false)) {
      e.kind = REC_H_MO_REMOVED;
    } else if (desert_rec_is_removed(d, st->field, true)) {
      e.kind = REC_H_MO_TRANSIENT;
    } else {
      e.kind = REC_H_MO_UNKNOWN;
    }
  }
  /* FieldRemoved, FieldMadeTransient (and, defensively, unknown kinds,
   * which desert_record_desc_check rejects) stay REC_H_REMOVED. */
  return e;
}

unsigned desert_rec_min_header(const desert_record_desc *d) {
  unsigned n = 1; /* chunk 0's size */
  for (size_t s = 0; s < d->step_count; s++)
    n += d->steps[s].kind == DESERT_STEP_FIELD_ADDED ? 1u : 2u;
  return n;
}

/* ---- plan blocks -------------------------------------------------------------
 * [struct][fields][entries], each part pointer-aligned. */

static size_t round_up(size_t n) { return (n + sizeof(void *) - 1) & ~(sizeof(void *) - 1); }

static size_t block_size(const desert_record_desc *d) {
  return round_up(sizeof(desert_record_plan)) + round_up(d->field_count * sizeof(desert_rec_pfield)) +
         round_up(d->step_count * sizeof(desert_rec_hentry));
}

/* DESERT_RECORD_PLAN_BYTES must bound block_size for every description. */
_Static_assert(sizeof(desert_record_plan) <= DESERT_RECORD_PLAN_FIXED_BYTES,
               "DESERT_RECORD_PLAN_BYTES: fixed part too small");
_Static_assert(sizeof(desert_rec_pfield) <= 12, "DESERT_RECORD_PLAN_BYTES: 12 bytes per field");
_Static_assert(sizeof(desert_rec_hentry) <= 2, "DESERT_RECORD_PLAN_BYTES: 2 bytes per step");

/* Fills the block at mem (block_size(d) bytes, pointer-aligned) for a
 * checked description. */
static desert_record_plan *build(const desert_record_desc *d, void *mem) {
  uint8_t *base = mem;
  desert_record_plan *p = mem;
  desert_rec_pfield *fields = (desert_rec_pfield *)(void *)(base + round_up(sizeof *p));
  desert_rec_hentry *entries =
      (desert_rec_hentry *)(void *)((uint8_t *)fields + round_up(d->field_count * sizeof *fields));
  unsigned flags = d->step_count ? 0u : REC_PLAN_PLAIN;
  for (size_t i = 0; i < d->field_count; i++) {
    fields[i] = desert_rec_compute_field(d, i);
    if (fields[i].flags) flags &= ~(unsigned)REC_PLAN_PLAIN;
  }
  if (d->step_count) flags |= REC_PLAN_FIXED_HEADER;
  for (size_t s = 0; s < d->step_count; s++) {
    entries[s] = desert_rec_compute_entry(d, s);
    if (entries[s].kind != REC_H_CHUNK && entries[s].kind != REC_H_MO)
      flags &= ~(unsigned)REC_PLAN_FIXED_HEADER;
  }
  if (flags & REC_PLAN_FIXED_HEADER) {
    unsigned last = 0;
    flags |= REC_PLAN_ORDERED;
    for (size_t i = 0; i < d->field_count; i++) {
      if (fields[i].flags & DESERT_FIELD_TRANSIENT) continue;
      if (fields[i].chunk < last) flags &= ~(unsigned)REC_PLAN_ORDERED;
      last = fields[i].chunk;
    }
    if ((flags & REC_PLAN_ORDERED) && d->step_count <= REC_SEQ_MAX) flags |= REC_PLAN_SEQ;
  }
  p->desc = d;
  p->fields = fields;
  p->entries = entries;
  p->field_count = d->field_count;
  p->version = (unsigned)d->step_count;
  p->flags = flags;
  p->min_header = desert_rec_min_header(d);
  p->alloc = (desert_allocator){NULL, NULL, NULL};
  p->bytes = block_size(d);
  p->owned = false;
  return p;
}

/* desert_record_desc_check, and field indexes that fit the plan's 32-bit
 * fields. */
static desert_status plan_check(const desert_record_desc *d) {
  desert_status st = desert_record_desc_check(d);
  if (st == DESERT_OK && d->field_count >= UINT32_MAX) return DESERT_E_ARGUMENT;
  return st;
}

size_t desert_record_plan_size(const desert_record_desc *d) {
  return plan_check(d) ? 0 : block_size(d);
}

desert_status desert_record_plan_init(const desert_record_desc *d, void *storage, size_t size,
                                      const desert_record_plan **out) {
  if (!out) return DESERT_E_ARGUMENT;
  *out = NULL;
  if (!storage || ((uintptr_t)storage & (sizeof(void *) - 1))) return DESERT_E_ARGUMENT;
  desert_status st = plan_check(d);
  if (st) return st;
  if (size < block_size(d)) return DESERT_E_DST_TOO_SMALL;
  *out = build(d, storage);
  return DESERT_OK;
}

desert_status desert_record_plan_create(const desert_record_desc *d,
                                        const desert_allocator *alloc,
                                        desert_record_plan **out) {
  if (!out) return DESERT_E_ARGUMENT;
  *out = NULL;
  desert_status st = plan_check(d);
  if (st) return st;
  desert_allocator a = alloc ? *alloc : (desert_allocator){NULL, NULL, NULL};
  size_t n = block_size(d);
  void *mem = desert_mem_alloc(&a, n);
  if (!mem) return DESERT_E_NOMEM;
  desert_record_plan *p = build(d, mem);
  p->alloc = a;
  p->owned = true;
  *out = p;
  return DESERT_OK;
}

void desert_record_plan_free(desert_record_plan *p) {
  if (!p || !p->owned) return;
  desert_allocator a = p->alloc;
  desert_mem_free(&a, p, p->bytes);
}

const desert_record_desc *desert_record_plan_desc(const desert_record_plan *p) {
  return p ? p->desc : NULL;
}

/* ---- tuples ------------------------------------------------------------------
 * One field array "_1".."_22" shared by the 22 descriptions: the n-tuple
 * uses its first n entries. */
static const desert_field_desc tuple_fields[DESERT_TUPLE_MAX_ARITY] = {
    {"_1", 0},  {"_2", 0},  {"_3", 0},  {"_4", 0},  {"_5", 0},  {"_6", 0},  {"_7", 0},  {"_8", 0},
    {"_9", 0},  {"_10", 0}, {"_11", 0}, {"_12", 0}, {"_13", 0}, {"_14", 0}, {"_15", 0}, {"_16", 0},
    {"_17", 0}, {"_18", 0}, {"_19", 0}, {"_20", 0}, {"_21", 0}, {"_22", 0}};

#define DESERT_TUPLE_DESC(n) \
  { "Tuple" #n, tuple_fields, n, NULL, 0 }
/* Not static: record_plan.h's desert_rec_static_plan tests addresses
 * against it inline. */
const desert_record_desc desert_rec_tuple_descs[DESERT_TUPLE_MAX_ARITY] = {
    DESERT_TUPLE_DESC(1),  DESERT_TUPLE_DESC(2),  DESERT_TUPLE_DESC(3),  DESERT_TUPLE_DESC(4),
    DESERT_TUPLE_DESC(5),  DESERT_TUPLE_DESC(6),  DESERT_TUPLE_DESC(7),  DESERT_TUPLE_DESC(8),
    DESERT_TUPLE_DESC(9),  DESERT_TUPLE_DESC(10), DESERT_TUPLE_DESC(11), DESERT_TUPLE_DESC(12),
    DESERT_TUPLE_DESC(13), DESERT_TUPLE_DESC(14), DESERT_TUPLE_DESC(15), DESERT_TUPLE_DESC(16),
    DESERT_TUPLE_DESC(17), DESERT_TUPLE_DESC(18), DESERT_TUPLE_DESC(19), DESERT_TUPLE_DESC(20),
    DESERT_TUPLE_DESC(21), DESERT_TUPLE_DESC(22)};


/* Their static plans: plain, every field in chunk 0; the name lengths are
 * those of "_1".."_9" and "_10".."_22", min_next the field's index. */
#define TF(len, i) {len, i, 0, 0, 0, 0}
static const desert_rec_pfield tuple_pfields[DESERT_TUPLE_MAX_ARITY] = {
    TF(2, 0), TF(2, 1), TF(2, 2), TF(2, 3), TF(2, 4), TF(2, 5), TF(2, 6), TF(2, 7), TF(2, 8),
    TF(3, 9), TF(3, 10), TF(3, 11), TF(3, 12), TF(3, 13), TF(3, 14), TF(3, 15), TF(3, 16), 
    TF(3, 17), TF(3, 18), TF(3, 19), TF(3, 20), TF(3, 21)};

#define TUPLE_PLAN(n)                                                            \
  {&desert_rec_tuple_descs[n - 1], tuple_pfields, NULL, n, 0, REC_PLAN_PLAIN, 1, \
   {NULL, NULL, NULL}, 0, false}
const desert_record_plan desert_rec_tuple_plans[DESERT_TUPLE_MAX_ARITY] = {
    TUPLE_PLAN(1),  TUPLE_PLAN(2),  TUPLE_PLAN(3),  TUPLE_PLAN(4),  TUPLE_PLAN(5),
    TUPLE_PLAN(6),  TUPLE_PLAN(7),  TUPLE_PLAN(8),  TUPLE_PLAN(9),  TUPLE_PLAN(10),
    TUPLE_PLAN(11), TUPLE_PLAN(12), TUPLE_PLAN(13), TUPLE_PLAN(14), TUPLE_PLAN(15),
    TUPLE_PLAN(16), TUPLE_PLAN(17), TUPLE_PLAN(18), TUPLE_PLAN(19), TUPLE_PLAN(20),
    TUPLE_PLAN(21), TUPLE_PLAN(22)};

const desert_record_desc *desert_tuple_desc(size_t arity) {
  if (arity == 0 || arity > DESERT_TUPLE_MAX_ARITY) return NULL;
  return &desert_rec_tuple_descs[arity - 1];
}

const desert_record_plan *desert_tuple_plan(size_t arity) {
  if (arity == 0 || arity > DESERT_TUPLE_MAX_ARITY) return NULL;
  return &desert_rec_tuple_plans[arity - 1];
}
