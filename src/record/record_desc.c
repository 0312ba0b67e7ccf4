/* src/record/record_desc.c — derived data of a record description (docs/format.md
 * §9.1): version, chunk of each field, made-optional indexes, removed
 * names, positions; plus the full description check.
 *
 * Everything is recomputed from the steps on each call rather than cached:
 * descriptions may be built at run time (the schema layer does) and freed,
 * and a cache keyed by address could then hand out another description's
 * data. Records have few fields and steps, so the O(fields x steps) name
 * comparisons cost less than hashing a description would.
 * SPDX-License-Identifier: MIT */
#include "record/record_derived.h"
#include "scalar/scalar.h"

desert_status desert_rec_quick_check_steps(const desert_record_desc *d) {
  if (d->step_count > DESERT_RECORD_MAX_VERSION) return DESERT_E_ARGUMENT;
  if (d->step_count && !d->steps) return DESERT_E_ARGUMENT;
  for (size_t s = 0; s < d->step_count; s++)
    if (!d->steps[s].field) return DESERT_E_ARGUMENT;
  return DESERT_OK;
}

/* Same text; the same pointer first (a step naming a field of the same
 * static description usually shares its literal), then the first bytes
 * inline because most names differ there. */
static inline bool same_name(const char *a, const char *b) {
  return a == b || (a[0] == b[0] && strcmp(a, b) == 0);
}

/* Index + 1 of the last step of kind `kind` that names `name`, else 0. */
static unsigned last_step_naming(const desert_record_desc *d, int kind, const char *name) {
  for (size_t s = d->step_count; s-- > 0;) {
    const desert_evolution_step *st = &d->steps[s];
    if ((int)st->kind == kind && same_name(st->field, name)) return (unsigned)(s + 1);
  }
  return 0;
}

/* The comparisons the quick scan could not make; out of line so that the
 * common path below is a tail call away from it (no saved registers). */
DESERT_NOINLINE static unsigned field_chunk_slow(const desert_record_desc *d,
                                                           const char *name, bool *has_default) {
  unsigned c = last_step_naming(d, DESERT_STEP_FIELD_ADDED, name);
  if (has_default) *has_default = c ? d->steps[c - 1].has_default : false;
  return c;
}

unsigned desert_rec_field_chunk(const desert_record_desc *d, size_t index, bool *has_default) {
  /* If two FieldAdded steps name the field, the later one wins. */
  const char *name = d->fields[index].name;
  unsigned c = desert_rec_field_quick_chunk(d, name);
  if (c == DESERT_REC_CHUNK_UNSURE) return field_chunk_slow(d, name, has_default);
  if (has_default) *has_default = c ? d->steps[c - 1].has_default : false;
  return c;
}

unsigned desert_rec_made_optional_index(const desert_record_desc *d, size_t index) {
  return last_step_naming(d, DESERT_STEP_FIELD_MADE_OPTIONAL, d->fields[index].name);
}

size_t desert_rec_find_field(const desert_record_desc *d, const char *name) {
  for (size_t i = 0; i < d->field_count; i++)
    if (d->fields[i].name && same_name(d->fields[i].name, name)) return i;
  return SIZE_MAX;
}

bool desert_rec_is_removed(const desert_record_desc *d, const char *name, bool with_transient) {
  for (size_t s = 0; s < d->step_count; s++) {
    const desert_evolution_step *st = &d->steps[s];
    if ((st->kind == DESERT_STEP_FIELD_REMOVED ||
         (with_transient && st->kind == DESERT_STEP_FIELD_MADE_TRANSIENT)) &&
        same_name(st->field, name))
      return true;
  }
  return false;
}

size_t desert_rec_field_position(const desert_record_desc *d, size_t index, unsigned chunk) {
  size_t p = 0;
  for (size_t j = 0; j < index; j++) {
    if (d->fields[j].flags & DESERT_FIELD_TRANSIENT) continue;
    if (desert_rec_field_chunk(d, j, NULL) == chunk) p++;
  }
  return p;
}

static bool valid_name(const char *s) {
  if (!s || !s[0]) return false;
  size_t pos;
  return desert_scalar_utf8_validate((const uint8_t *)s, strlen(s), &pos) == DESERT_OK;
}

desert_status desert_record_desc_check(const desert_record_desc *d) {
  desert_status st = desert_rec_quick_check(d);
  if (st) return st;
  const unsigned known = DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT;
  for (size_t i = 0; i < d->field_count; i++) {
    if (!valid_name(d->fields[i].name) || (d->fields[i].flags & ~known)) return DESERT_E_ARGUMENT;
    for (size_t j = 0; j < i; j++)
      if (strcmp(d->fields[i].name, d->fields[j].name) == 0) return DESERT_E_ARGUMENT;
  }
  for (size_t s = 0; s < d->step_count; s++) {
    const desert_evolution_step *stp = &d->steps[s];
    if (stp->kind < DESERT_STEP_FIELD_ADDED || stp->kind > DESERT_STEP_FIELD_MADE_TRANSIENT)
      return DESERT_E_ARGUMENT;
    if (!valid_name(stp->field)) return DESERT_E_ARGUMENT;
    /* A written field made optional needs a representable position byte:
     * chunk-0 positions above 127 would collide with Scala's 80 marker. */
    if (stp->kind == DESERT_STEP_FIELD_MADE_OPTIONAL) {
      size_t f = desert_rec_find_field(d, stp->field);
      if (f != SIZE_MAX && !(d->fields[f].flags & DESERT_FIELD_TRANSIENT)) {
        unsigned c = desert_rec_field_chunk(d, f, NULL);
        if (c == 0 && desert_rec_field_position(d, f, 0) > 127) return DESERT_E_ARGUMENT;
      }
    }
  }
  return DESERT_OK;
}
