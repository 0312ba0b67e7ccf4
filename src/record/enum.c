/* src/record/enum.c — enums / sealed traits (docs/format.md §11): constructor ids in
 * declaration or sorted order with transient cases skipped, the 00 + id
 * writer, the reader with Scala's enum-level evolution layout (docs/format.md §11.5), and
 * the type registry framing helpers (docs/format.md §12).
 *
 * The description-based calls compute ids per call instead of tabulating
 * them, for the same reason record derived data is (record_desc.c):
 * descriptions may be built at run time and freed, so nothing is cached by
 * address. Callers that tabulate ids themselves (the runtime types, generated
 * code) use the *_id calls, which take the id directly.
 * SPDX-License-Identifier: MIT */
#include "core/reader_internal.h"
#include "record/record_versioned.h"
#include "core/writer_internal.h"

/* Byte-wise order of case names (docs/schema.md §6: UTF-8 bytes compared);
 * equal names, which desert_enum_desc does not allow but may meet, keep
 * declaration order so ids stay distinct. */
static bool sorts_before(const desert_case_desc *c, size_t a, size_t b) {
  int k = strcmp(c[a].name, c[b].name);
  return k < 0 || (k == 0 && a < b);
}

static bool names_present(const desert_enum_desc *d) {
  for (size_t i = 0; i < d->case_count; i++)
    if (!d->cases[i].name) return false;
  return true;
}

/* Id of non-transient case `index`: the non-transient cases before it. */
static uint32_t case_rank(const desert_enum_desc *d, size_t index) {
  uint32_t id = 0;
  for (size_t j = 0; j < d->case_count; j++) {
    if (j == index || (d->cases[j].flags & DESERT_CASE_TRANSIENT)) continue;
    if (d->sorted ? sorts_before(d->cases, j, index) : j < index) id++;
  }
  return id;
}

desert_status desert_enum_case_id(const desert_enum_desc *d, size_t index, uint32_t *id) {
  if (!d || !id || index >= d->case_count || (d->case_count && !d->cases)) return DESERT_E_ARGUMENT;
  if (d->cases[index].flags & DESERT_CASE_TRANSIENT) return DESERT_E_SERIALIZING_TRANSIENT;
  if (d->sorted && !names_present(d)) return DESERT_E_ARGUMENT;
  *id = case_rank(d, index);
  return DESERT_OK;
}

desert_status desert_enum_case_index(const desert_enum_desc *d, uint32_t id, size_t *index) {
  if (!d || !index || (d->case_count && !d->cases)) return DESERT_E_ARGUMENT;
  if (!d->sorted) {
    uint32_t k = 0;
    for (size_t i = 0; i < d->case_count; i++) {
      if (d->cases[i].flags & DESERT_CASE_TRANSIENT) continue;
      if (k++ == id) {
        *index = i;
        return DESERT_OK;
      }
    }
    return DESERT_E_INVALID_CONSTRUCTOR_ID;
  }
  if (!names_present(d)) return DESERT_E_ARGUMENT;
  if (id >= d->case_count) return DESERT_E_INVALID_CONSTRUCTOR_ID;
  for (size_t i = 0; i < d->case_count; i++) {
    if (d->cases[i].flags & DESERT_CASE_TRANSIENT) continue;
    if (case_rank(d, i) == id) {
      *index = i;
      return DESERT_OK;
    }
  }
  return DESERT_E_INVALID_CONSTRUCTOR_ID;
}

desert_status desert_enum_write_begin(desert_writer *w, const desert_enum_desc *d, size_t index) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  uint32_t id;
  desert_status st = desert_enum_case_id(d, index, &id);
  if (st) return desert_w_fail(w, st);
  if (desert_w_byte(w, 0x00)) return w->status; /* no enum-level steps: version 0 */
  return desert_w_var_u32(w, id);
}

desert_status desert_enum_write_id(desert_writer *w, uint32_t id) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  if (desert_w_byte(w, 0x00)) return w->status;
  return desert_w_var_u32(w, id);
}

/* The shared part of both read begins: version byte (and the evolved
 * header), then the id varint; *id_at its offset. On failure everything
 * entered is left again. */
static desert_status enum_read_id(desert_reader *r, uint32_t *id, size_t *id_at, bool *evolved) {
  if (desert_r_enter(r)) return r->status;
  size_t at = r->pos;
  const uint8_t *v = desert_r_take(r, 1);
  *evolved = false;
  if (!v) goto fail;
  if (*v) {
    /* Scala's layout: a record header whose chunk 0 holds id + payload. */
    if (desert_rec_enum_begin(r, *v, at)) goto fail;
    *evolved = true;
  } else {
    /* A frame left at this depth by an abandoned value would otherwise be
     * taken for ours by desert_enum_read_end. */
    desert_rec_prune(r);
  }
  *id_at = r->pos;
  if (desert_r_var_u32(r, id)) goto fail;
  return DESERT_OK;

fail:
  if (*evolved) desert_rec_enum_end(r);
  desert_r_leave(r);
  return r->status;
}

/* Undoes a successful enum_read_id after a caller-detected error at at. */
static desert_status enum_read_fail(desert_reader *r, desert_status st, size_t at, bool evolved) {
  desert_r_fail(r, st, at);
  if (evolved) desert_rec_enum_end(r);
  desert_r_leave(r);
  return r->status;
}

desert_status desert_enum_read_begin(desert_reader *r, const desert_enum_desc *d, size_t *index) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!d || !index || (d->case_count && !d->cases))
    return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  uint32_t id;
  /* set by enum_read_id on success; initialised for gcc -O3, which cannot
   * see that and warns (-Wmaybe-uninitialized) in release builds */
  size_t id_at = 0;
  bool evolved = false;
  if (enum_read_id(r, &id, &id_at, &evolved)) return r->status;
  /* DESERT_E_INVALID_CONSTRUCTOR_ID, or DESERT_E_ARGUMENT for a NULL name. */
  desert_status st = desert_enum_case_index(d, id, index);
  if (st) return enum_read_fail(r, st, id_at, evolved);
  return DESERT_OK;
}

desert_status desert_enum_read_begin_id(desert_reader *r, uint32_t id_count, uint32_t *id) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!id) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  size_t id_at = 0; /* as above */
  bool evolved = false;
  if (enum_read_id(r, id, &id_at, &evolved)) return r->status;
  if (*id >= id_count) return enum_read_fail(r, DESERT_E_INVALID_CONSTRUCTOR_ID, id_at, evolved);
  return DESERT_OK;
}

desert_status desert_enum_read_end(desert_reader *r, const desert_enum_desc *d) {
  if (!r || !d) return DESERT_E_ARGUMENT;
  return desert_enum_read_end_id(r);
}

desert_status desert_enum_read_end_id(desert_reader *r) {
  if (!r) return DESERT_E_ARGUMENT;
  /* After an error the message is lost; begin may not even have entered. */
  if (r->status) return r->status;
  desert_rec_enum_end(r);
  desert_r_leave(r);
  return DESERT_OK;
}

/* ---- type registry framing ---------------------------------------------------- */

desert_status desert_registry_write_type(desert_writer *w, const uint32_t *ids, size_t count,
                                         size_t index) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  if (!ids && count) return desert_w_fail(w, DESERT_E_ARGUMENT);
  if (index >= count) return desert_w_fail(w, DESERT_E_TYPE_NOT_REGISTERED);
  return desert_w_var_u32(w, ids[index]);
}

desert_status desert_registry_read_type(desert_reader *r, const uint32_t *ids, size_t count,
                                        size_t *index) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!index || (!ids && count)) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  size_t at = r->pos;
  uint32_t id;
  if (desert_r_var_u32(r, &id)) return r->status;
  for (size_t i = 0; i < count; i++) {
    if (ids[i] == id) {
      *index = i;
      return DESERT_OK;
    }
  }
  return desert_r_fail(r, DESERT_E_INVALID_TYPE_ID, at);
}
