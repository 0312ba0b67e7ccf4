/* src/types/types_struct_check.c — desert_cstruct_check: validates a C-struct
 * descriptor graph once, so that the codecs (src/types/types_struct.c) can rely on
 * it and only do the cheap checks memory safety needs. Besides each
 * descriptor's own consistency (record description, offsets inside the
 * struct or slot, flags where options need them, enum cases), it finds
 * cycles: a descriptor may reach itself again only through a PTR or a list,
 * whose storage is out of line; a cycle through embedded values (RECORD,
 * enum payloads, option/either/try parts) would describe an infinite struct
 * and could not be bounded. Also home of the tuple field names.
 * SPDX-License-Identifier: MIT */
#include "types/types_struct_internal.h"

const desert_field_desc desert_ctuple_fields[22] = {
    {"_1", 0},  {"_2", 0},  {"_3", 0},  {"_4", 0},  {"_5", 0},  {"_6", 0},  {"_7", 0},  {"_8", 0},
    {"_9", 0},  {"_10", 0}, {"_11", 0}, {"_12", 0}, {"_13", 0}, {"_14", 0}, {"_15", 0}, {"_16", 0},
    {"_17", 0}, {"_18", 0}, {"_19", 0}, {"_20", 0}, {"_21", 0}, {"_22", 0}};

/* Distinct descriptors on one path; deeper graphs are refused (the records
 * layer's depth bound would stop their data long before anyway). */
#define CHECK_PATH_MAX 64u

typedef struct chk {
  const desert_cstruct *path[CHECK_PATH_MAX];
  bool indirect[CHECK_PATH_MAX]; /* the edge into path[i] went through a PTR or list */
  unsigned n;
} chk;

static desert_status chk_struct(chk *c, const desert_cstruct *d);

/* Follows an edge to descriptor d: a repeated descriptor is fine when the
 * cycle it closes has an out-of-line edge (this one or one after the first
 * occurrence on the path). */
static desert_status chk_edge(chk *c, const desert_cstruct *d, bool indirect) {
  if (!d) return DESERT_E_ARGUMENT;
  for (unsigned i = 0; i < c->n; i++) {
    if (c->path[i] != d) continue;
    bool ok = indirect;
    for (unsigned j = i + 1; j < c->n && !ok; j++) ok = c->indirect[j];
    return ok ? DESERT_OK : DESERT_E_ARGUMENT;
  }
  if (c->n == CHECK_PATH_MAX) return DESERT_E_ARGUMENT;
  c->path[c->n] = d;
  c->indirect[c->n] = indirect;
  c->n++;
  desert_status st = chk_struct(c, d);
  c->n--;
  return st;
}

static bool flag_ok(size_t at, size_t base_size) {
  return at != DESERT_CFIELD_NO_FLAG && at < base_size && base_size - at >= sizeof(bool);
}

static bool span_ok(size_t off, size_t sz, size_t base_size) {
  return off <= base_size && base_size - off >= sz;
}

/* Every case has a non-empty name, names are unique, ids resolve, and the
 * tag and each payload sit inside the enum's struct. */
static desert_status chk_enum(chk *c, const desert_cenum *ce, bool indirect) {
  const desert_enum_desc *d = &ce->desc;
  if (!d->cases || !ce->cases || d->case_count == 0 || d->case_count > UINT32_MAX)
    return DESERT_E_ARGUMENT;
  if (!span_ok(ce->tag_offset, sizeof(uint32_t), ce->size)) return DESERT_E_ARGUMENT;
  for (size_t i = 0; i < d->case_count; i++) {
    const char *name = d->cases[i].name;
    if (!name || !*name || (d->cases[i].flags & ~(unsigned)DESERT_CASE_TRANSIENT))
      return DESERT_E_ARGUMENT;
    for (size_t j = 0; j < i; j++)
      if (!strcmp(d->cases[j].name, name)) return DESERT_E_ARGUMENT;
  }
  for (size_t i = 0; i < d->case_count; i++) {
    const desert_ccase *cc = &ce->cases[i];
    if (!(d->cases[i].flags & DESERT_CASE_TRANSIENT)) {
      uint32_t id;
      size_t back;
      if (desert_enum_case_id(d, i, &id) || desert_enum_case_index(d, id, &back) || back != i)
        return DESERT_E_ARGUMENT;
    }
    if (!cc->payload) continue;
    if (!span_ok(cc->offset, cc->payload->size, ce->size)) return DESERT_E_ARGUMENT;
    if (chk_edge(c, cc->payload, indirect)) return DESERT_E_ARGUMENT;
  }
  return DESERT_OK;
}

/* A value described by f inside a base of base_size bytes; vdepth counts
 * the values nested since the last record. */
static desert_status chk_value(chk *c, const desert_cfield *f, size_t base_size, bool indirect,
                               unsigned vdepth) {
  if (!f || vdepth > DESERT_CSTRUCT_VALUE_DEPTH) return DESERT_E_ARGUMENT;
  size_t sz = desert_cstruct_csize(f);
  if (sz == SIZE_MAX) return DESERT_E_ARGUMENT;
  if (sz && !span_ok(f->offset, sz, base_size)) return DESERT_E_ARGUMENT;
  switch (f->ctype) {
  case DESERT_C_RECORD:
    return chk_edge(c, f->nested, indirect);
  case DESERT_C_PTR:
    return chk_edge(c, f->nested, true);
  case DESERT_C_LIST: {
    if (f->sub) { /* general element: relative to a slot of sub_size bytes */
      if (f->sub_size == 0 || f->sub->ctype == DESERT_C_UNIT) return DESERT_E_ARGUMENT;
      return chk_value(c, f->sub, f->sub_size, true, vdepth + 1);
    }
    if (f->elem == DESERT_C_LIST || f->elem == DESERT_C_UNIT || f->elem == DESERT_C_OPTION ||
        f->elem == DESERT_C_EITHER || f->elem == DESERT_C_TRY || f->elem == DESERT_C_ENUM)
      return DESERT_E_ARGUMENT; /* these need `sub` */
    desert_cfield e = {f->elem, 0,   DESERT_CFIELD_NO_FLAG, (desert_ctype)0, f->nested, false, NULL,
                       0,       NULL};
    size_t esz = desert_cstruct_csize(&e);
    if (esz == SIZE_MAX || esz == 0) return DESERT_E_ARGUMENT;
    if (f->elem == DESERT_C_RECORD || f->elem == DESERT_C_PTR) return chk_edge(c, f->nested, true);
    return DESERT_OK;
  }
  case DESERT_C_OPTION:
    if (!f->sub) return DESERT_E_ARGUMENT;
    if (!flag_ok(f->present, base_size) &&
        !(f->present == DESERT_CFIELD_NO_FLAG && f->sub->ctype == DESERT_C_PTR))
      return DESERT_E_ARGUMENT;
    return chk_value(c, f->sub, base_size, indirect, vdepth + 1);
  case DESERT_C_EITHER:
  case DESERT_C_TRY:
    if (!f->sub || !flag_ok(f->present, base_size)) return DESERT_E_ARGUMENT;
    if (chk_value(c, &f->sub[0], base_size, indirect, vdepth + 1)) return DESERT_E_ARGUMENT;
    return chk_value(c, &f->sub[1], base_size, indirect, vdepth + 1);
  case DESERT_C_ENUM:
    if (!f->cenum) return DESERT_E_ARGUMENT;
    return chk_enum(c, f->cenum, indirect);
  default:
    /* Leaves, the value ctypes (char16, dates, big numbers, ...) included:
     * a known kind whose storage fits was all there is to check; their
     * contents are the values.h writers' business at encode time. */
    return DESERT_OK;
  }
}

static desert_status chk_struct(chk *c, const desert_cstruct *d) {
  if (desert_record_desc_check(&d->record)) return DESERT_E_ARGUMENT;
  if (d->plan && desert_record_plan_desc(d->plan) != &d->record) return DESERT_E_ARGUMENT;
  if (d->record.field_count && !d->cfields) return DESERT_E_ARGUMENT;
  for (size_t i = 0; i < d->record.field_count; i++) {
    const desert_cfield *f = &d->cfields[i];
    bool optional = (d->record.fields[i].flags & DESERT_FIELD_OPTIONAL) != 0;
    /* An optional field needs a flag, except a pointer (NULL is None). */
    if (optional && !flag_ok(f->present, d->size) &&
        !(f->present == DESERT_CFIELD_NO_FLAG && f->ctype == DESERT_C_PTR))
      return DESERT_E_ARGUMENT;
    if (chk_value(c, f, d->size, false, 0)) return DESERT_E_ARGUMENT;
  }
  return DESERT_OK;
}

desert_status desert_cstruct_check(const desert_cstruct *d) {
  chk c;
  c.n = 0;
  return chk_edge(&c, d, false);
}
