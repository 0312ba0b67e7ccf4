/* src/types/types_struct.c — C-struct descriptors (include/desert/types.h): a
 * record mapped onto a C struct by field offsets, written and read through
 * the records layer like a derived codec. Scalars are copied with memcpy (no
 * alignment assumptions), strings and byte blocks are views, lists grow in
 * the reader's arena as elements arrive (a count is never trusted for an
 * allocation; runs of fixed-width numbers are read in bulk once the input is
 * known to hold them), pointed-to structs are allocated in the arena as
 * their bytes arrive, nested records and enums recurse under the records
 * layer's depth bound. The value ctypes (char16, dates, big numbers, ...)
 * are delegated to types_struct_values.c. desert_cstruct_check
 * (types_struct_check.c) validates descriptors; the codecs here only check
 * what memory safety needs.
 * SPDX-License-Identifier: MIT */
#include "core/reader_internal.h"
#include "types/types_struct_internal.h"
#include "core/writer_internal.h"

/* The record a case without fields is (the byte 00 when written). */
static const desert_record_desc empty_record = {NULL, NULL, 0, NULL, 0};

/* A list without `sub` describes its elements by elem/nested: the same as a
 * slot-relative field at offset 0. */
static void legacy_elem(const desert_cfield *f, desert_cfield *out, size_t *esz) {
  memset(out, 0, sizeof *out);
  out->ctype = f->elem;
  out->present = DESERT_CFIELD_NO_FLAG;
  out->nested = f->nested;
  *esz = desert_cstruct_csize(out);
}

/* Bytes per element of a contiguous fixed-width number run (bulk path); 0
 * for other element kinds. */
static size_t bulk_width(const desert_cfield *e, size_t esz) {
  if (e->offset != 0) return 0;
  size_t w;
  switch (e->ctype) {
  case DESERT_C_I16:
  case DESERT_C_U16:
  case DESERT_C_CHAR16: /* any 16-bit unit, big-endian: the same bytes as u16 */
    w = 2;
    break;
  case DESERT_C_I32:
  case DESERT_C_U32:
  case DESERT_C_F32:
    w = 4;
    break;
  case DESERT_C_I64:
  case DESERT_C_U64:
  case DESERT_C_F64:
    w = 8;
    break;
  default:
    return 0;
  }
  return w == esz ? w : 0;
}

/* "Is Some" of an optional value: its flag, or for a pointer without flag
 * whether it is set. */
static bool is_some(size_t present, const desert_cfield *val, const uint8_t *base) {
  if (present != DESERT_CFIELD_NO_FLAG) {
    bool some;
    memcpy(&some, base + present, sizeof some);
    return some;
  }
  void *q = NULL;
  if (val->ctype == DESERT_C_PTR) memcpy(&q, base + val->offset, sizeof q);
  return q != NULL;
}

/* ---- encoding -------------------------------------------------------------------------------- */

static desert_status enc_struct(desert_writer *w, const desert_cstruct *d, const uint8_t *obj);
static desert_status enc_value(desert_writer *w, const desert_cfield *f, const uint8_t *base,
                               unsigned vd);

static desert_status enc_list(desert_writer *w, const desert_cfield *f, const uint8_t *p,
                              unsigned vd) {
  desert_clist l;
  memcpy(&l, p, sizeof l);
  if (l.count && !l.items) return desert_w_fail(w, DESERT_E_ARGUMENT);
  desert_cfield tmp;
  const desert_cfield *e = f->sub;
  size_t esz = f->sub_size;
  if (!e) {
    legacy_elem(f, &tmp, &esz);
    e = &tmp;
  }
  if (!f->unknown_form) {
    size_t bw = bulk_width(e, esz);
    if (desert_write_count(w, l.count)) return w->status;
    if (bw == 8) return desert_write_u64_array(w, l.items, l.count);
    if (bw == 4) return desert_write_u32_array(w, l.items, l.count);
    if (bw == 2) return desert_write_u16_array(w, l.items, l.count);
    const uint8_t *it = l.items;
    for (size_t i = 0; i < l.count; i++)
      if (enc_value(w, e, it + i * esz, vd + 1)) return w->status;
    return DESERT_OK;
  }
  if (desert_write_stream_begin(w)) return w->status;
  const uint8_t *it = l.items;
  for (size_t i = 0; i < l.count; i++)
    if (desert_write_stream_item(w) || enc_value(w, e, it + i * esz, vd + 1)) return w->status;
  return desert_write_stream_end(w);
}

/* p: the enum's struct. */
static desert_status enc_enum(desert_writer *w, const desert_cenum *ce, const uint8_t *p) {
  if (!ce || !ce->cases) return desert_w_fail(w, DESERT_E_ARGUMENT);
  uint32_t tag;
  memcpy(&tag, p + ce->tag_offset, sizeof tag);
  if (tag >= ce->desc.case_count) return desert_w_fail(w, DESERT_E_ARGUMENT);
  if (desert_enum_write_begin(w, &ce->desc, tag)) return w->status;
  const desert_ccase *cc = &ce->cases[tag];
  if (cc->payload) return enc_struct(w, cc->payload, p + cc->offset);
  desert_record_writer rw;
  if (desert_record_write_begin(w, &empty_record, &rw)) return w->status;
  return desert_record_write_end(&rw);
}

/* Writes the value f describes in base (f->offset is from base). */
static desert_status enc_value(desert_writer *w, const desert_cfield *f, const uint8_t *base,
                               unsigned vd) {
  const uint8_t *p = base + f->offset;
  if (desert_cstruct_is_value_ctype(f->ctype)) return desert_cstruct_enc_value_type(w, f->ctype, p);
  switch (f->ctype) {
  case DESERT_C_BOOL: {
    bool v;
    memcpy(&v, p, sizeof v);
    return desert_write_bool(w, v);
  }
  case DESERT_C_I8:
  case DESERT_C_U8:
    return desert_write_u8(w, p[0]);
  case DESERT_C_I16:
  case DESERT_C_U16: {
    uint16_t v;
    memcpy(&v, p, 2);
    return desert_write_u16(w, v);
  }
  case DESERT_C_I32:
  case DESERT_C_U32:
  case DESERT_C_F32: {
    uint32_t v;
    memcpy(&v, p, 4);
    return f->ctype == DESERT_C_F32 ? desert_write_f32_bits(w, v) : desert_write_u32(w, v);
  }
  case DESERT_C_I64:
  case DESERT_C_U64:
  case DESERT_C_F64: {
    uint64_t v;
    memcpy(&v, p, 8);
    return f->ctype == DESERT_C_F64 ? desert_write_f64_bits(w, v) : desert_write_u64(w, v);
  }
  case DESERT_C_VAR_U32: {
    uint32_t v;
    memcpy(&v, p, 4);
    return desert_write_var_u32(w, v);
  }
  case DESERT_C_VAR_I32: {
    int32_t v;
    memcpy(&v, p, 4);
    return desert_write_var_i32(w, v);
  }
  case DESERT_C_CHAR: {
    uint32_t v;
    memcpy(&v, p, 4);
    return desert_write_char(w, v);
  }
  case DESERT_C_STRING:
  case DESERT_C_DEDUP_STRING: {
    desert_str s;
    memcpy(&s, p, sizeof s);
    return f->ctype == DESERT_C_STRING ? desert_write_string(w, s.ptr, s.len)
                                       : desert_write_dedup_string(w, s.ptr, s.len);
  }
  case DESERT_C_BYTES: {
    desert_bytes b;
    memcpy(&b, p, sizeof b);
    return desert_write_bytes(w, b.ptr, b.len);
  }
  case DESERT_C_UUID:
    return desert_write_uuid(w, p);
  case DESERT_C_UNIT:
    return w->status;
  case DESERT_C_RECORD:
    return enc_struct(w, f->nested, p);
  case DESERT_C_PTR: {
    const uint8_t *q;
    memcpy(&q, p, sizeof q);
    if (!q) return desert_w_fail(w, DESERT_E_ARGUMENT); /* a required value */
    return enc_struct(w, f->nested, q);
  }
  default:
    break;
  }
  /* Composites that nest values without a record in between. */
  if (vd >= DESERT_CSTRUCT_VALUE_DEPTH) return desert_w_fail(w, DESERT_E_DEPTH);
  switch (f->ctype) {
  case DESERT_C_LIST:
    return enc_list(w, f, p, vd);
  case DESERT_C_OPTION: {
    if (!f->sub) return desert_w_fail(w, DESERT_E_ARGUMENT);
    bool some = is_some(f->present, f->sub, base);
    if (desert_write_option(w, some) || !some) return w->status;
    return enc_value(w, f->sub, base, vd + 1);
  }
  case DESERT_C_EITHER:
  case DESERT_C_TRY: {
    if (!f->sub) return desert_w_fail(w, DESERT_E_ARGUMENT);
    bool right;
    memcpy(&right, base + f->present, sizeof right);
    if (f->ctype == DESERT_C_EITHER ? desert_write_either(w, right) : desert_write_try(w, right))
      return w->status;
    return enc_value(w, &f->sub[right ? 1 : 0], base, vd + 1);
  }
  case DESERT_C_ENUM:
    return enc_enum(w, f->cenum, p);
  default:
    return desert_w_fail(w, DESERT_E_ARGUMENT);
  }
}

/* The descriptor's plan if it is one of its own record (see types.h). */
static const desert_record_plan *cplan(const desert_cstruct *d) {
  return d->plan && desert_record_plan_desc(d->plan) == &d->record ? d->plan : NULL;
}

static desert_status enc_struct(desert_writer *w, const desert_cstruct *d, const uint8_t *obj) {
  if (!d || !obj || (d->record.field_count && !d->cfields))
    return desert_w_fail(w, DESERT_E_ARGUMENT);
  desert_record_writer rw;
  const desert_record_plan *plan = cplan(d);
  if (plan ? desert_record_write_begin_plan(w, plan, &rw)
           : desert_record_write_begin(w, &d->record, &rw))
    return w->status;
  const desert_field_desc *fd = d->record.fields;
  for (size_t i = 0; i < d->record.field_count; i++) {
    unsigned flags = fd[i].flags;
    if (flags & DESERT_FIELD_TRANSIENT) continue;
    const desert_cfield *f = &d->cfields[i];
    if (flags & DESERT_FIELD_OPTIONAL) {
      bool some = is_some(f->present, f, obj);
      if (desert_record_write_field_option(&rw, i, some)) break;
      if (!some) continue;
    } else if (desert_record_write_field(&rw, i)) {
      break;
    }
    if (enc_value(w, f, obj, 0)) break;
  }
  return desert_record_write_end(&rw);
}

desert_status desert_cstruct_encode(desert_writer *w, const desert_cstruct *d, const void *obj) {
  if (!w) return DESERT_E_ARGUMENT;
  desert_w_live(w);
  return enc_struct(w, d, obj);
}

/* ---- decoding -------------------------------------------------------------------------------- */

static desert_status dec_struct(desert_reader *r, const desert_cstruct *d, uint8_t *obj);
static desert_status dec_value(desert_reader *r, const desert_cfield *f, uint8_t *base,
                               unsigned vd);

/* A known-size run of n fixed-width numbers of width bw into a new arena
 * array. The run is checked against the input before anything is
 * allocated: a short input fails at the first element that does not fit
 * (the array reader reports it), as element-by-element reading would. */
static desert_status dec_bulk(desert_reader *r, size_t n, size_t bw, void **items) {
  *items = NULL;
  if (n == 0) return DESERT_OK;
  desert_r_want(r, n > SIZE_MAX / bw ? SIZE_MAX : n * bw); /* streaming */
  if (n > desert_r_avail(r) / bw) {
    /* Streaming: the array reader below could refill and then succeed, so
     * report its error (the first element that does not fit) here. */
    if (r->stream_fill)
      return desert_reader_fail(r, DESERT_E_INPUT_ENDED, r->pos + desert_r_avail(r) / bw * bw);
    uint64_t dummy;
    return bw == 8   ? desert_read_u64_array(r, &dummy, n)
           : bw == 4 ? desert_read_u32_array(r, (uint32_t *)(void *)&dummy, n)
                     : desert_read_u16_array(r, (uint16_t *)(void *)&dummy, n);
  }
  void *a = desert_reader_alloc(r, n * bw, 16);
  if (!a) return r->status;
  desert_status st = bw == 8   ? desert_read_u64_array(r, a, n)
                     : bw == 4 ? desert_read_u32_array(r, a, n)
                               : desert_read_u16_array(r, a, n);
  if (st) return st;
  *items = a;
  return DESERT_OK;
}

static desert_status dec_list(desert_reader *r, const desert_cfield *f, uint8_t *p, unsigned vd) {
  desert_seq seq;
  if (desert_read_seq_begin(r, &seq)) return r->status;
  desert_cfield tmp;
  const desert_cfield *e = f->sub;
  size_t esz = f->sub_size;
  if (!e) {
    legacy_elem(f, &tmp, &esz);
    e = &tmp;
  }
  if (esz == 0 || esz == SIZE_MAX) return desert_reader_fail(r, DESERT_E_ARGUMENT, r->pos);
  desert_clist l = {NULL, 0};
  size_t bw = seq.known ? bulk_width(e, esz) : 0;
  if (bw) {
    if (dec_bulk(r, seq.count, bw, &l.items)) return r->status;
    l.count = seq.count;
    memcpy(p, &l, sizeof l);
    return DESERT_OK;
  }
  /* Grow by doubling as elements arrive; the old blocks stay in the arena
   * until the next message (bounded by twice the final array). */
  size_t cap = seq.known ? (seq.count < 16 ? seq.count : 16) : 16, n = 0;
  uint8_t *items = NULL;
  while (desert_read_seq_next(r, &seq)) {
    if (n == cap || !items) {
      size_t ncap = items ? cap * 2 : (cap ? cap : 1);
      if (ncap > SIZE_MAX / esz) return desert_reader_fail(r, DESERT_E_LIMIT, r->pos);
      uint8_t *ni = desert_reader_alloc(r, ncap * esz, 16);
      if (!ni) return r->status;
      if (n) memcpy(ni, items, n * esz);
      items = ni;
      cap = ncap;
    }
    uint8_t *slot = items + n * esz;
    memset(slot, 0, esz);
    if (dec_value(r, e, slot, vd + 1)) return r->status;
    n++;
  }
  if (r->status) return r->status;
  l.items = n ? items : NULL;
  l.count = n;
  memcpy(p, &l, sizeof l);
  return DESERT_OK;
}

/* p: the enum's struct (zeroed by the caller). */
static desert_status dec_enum(desert_reader *r, const desert_cenum *ce, uint8_t *p) {
  if (!ce || !ce->cases) return desert_reader_fail(r, DESERT_E_ARGUMENT, r->pos);
  size_t index;
  if (desert_enum_read_begin(r, &ce->desc, &index)) return r->status;
  uint32_t tag = (uint32_t)index;
  memcpy(p + ce->tag_offset, &tag, sizeof tag);
  const desert_ccase *cc = &ce->cases[index];
  if (cc->payload) {
    dec_struct(r, cc->payload, p + cc->offset);
  } else {
    desert_record_reader rr;
    if (!desert_record_read_begin(r, &empty_record, &rr)) desert_record_read_end(&rr);
  }
  /* Leaves the enum's nesting level (and an evolved enum's chunk) also
   * after a failed payload; the status stays the first error. */
  return desert_enum_read_end(r, &ce->desc);
}

/* Reads the value f describes into base (zeroed by the caller). */
static desert_status dec_value(desert_reader *r, const desert_cfield *f, uint8_t *base,
                               unsigned vd) {
  uint8_t *p = base + f->offset;
  if (desert_cstruct_is_value_ctype(f->ctype)) return desert_cstruct_dec_value_type(r, f->ctype, p);
  switch (f->ctype) {
  case DESERT_C_BOOL: {
    bool v;
    if (desert_read_bool(r, &v)) return r->status;
    memcpy(p, &v, sizeof v);
    return DESERT_OK;
  }
  case DESERT_C_I8:
  case DESERT_C_U8:
    return desert_read_u8(r, p);
  case DESERT_C_I16:
  case DESERT_C_U16: {
    uint16_t v;
    if (desert_read_u16(r, &v)) return r->status;
    memcpy(p, &v, 2);
    return DESERT_OK;
  }
  case DESERT_C_I32:
  case DESERT_C_U32:
  case DESERT_C_F32: {
    uint32_t v;
    if (desert_read_u32(r, &v)) return r->status;
    memcpy(p, &v, 4);
    return DESERT_OK;
  }
  case DESERT_C_VAR_U32:
  case DESERT_C_CHAR: {
    uint32_t v;
    if (f->ctype == DESERT_C_VAR_U32 ? desert_read_var_u32(r, &v) : desert_read_char(r, &v))
      return r->status;
    memcpy(p, &v, 4);
    return DESERT_OK;
  }
  case DESERT_C_VAR_I32: {
    int32_t v;
    if (desert_read_var_i32(r, &v)) return r->status;
    memcpy(p, &v, 4);
    return DESERT_OK;
  }
  case DESERT_C_I64:
  case DESERT_C_U64:
  case DESERT_C_F64: {
    uint64_t v;
    if (desert_read_u64(r, &v)) return r->status;
    memcpy(p, &v, 8);
    return DESERT_OK;
  }
  case DESERT_C_STRING:
  case DESERT_C_DEDUP_STRING: {
    desert_str s;
    if (f->ctype == DESERT_C_STRING ? desert_read_string(r, &s) : desert_read_dedup_string(r, &s))
      return r->status;
    memcpy(p, &s, sizeof s);
    return DESERT_OK;
  }
  case DESERT_C_BYTES: {
    desert_bytes b;
    if (desert_read_bytes(r, &b)) return r->status;
    memcpy(p, &b, sizeof b);
    return DESERT_OK;
  }
  case DESERT_C_UUID:
    return desert_read_uuid(r, p);
  case DESERT_C_UNIT:
    return r->status;
  case DESERT_C_RECORD:
    return dec_struct(r, f->nested, p);
  case DESERT_C_PTR: {
    /* Allocated only once the record's first byte is known to be there, so
     * a hostile input cannot make a chain of pointers allocate ahead of
     * its bytes; the record layer bounds the chain's depth. */
    if (!f->nested) return desert_reader_fail(r, DESERT_E_ARGUMENT, r->pos);
    if (!desert_r_want(r, 1)) return desert_reader_fail(r, DESERT_E_INPUT_ENDED, r->pos);
    uint8_t *q = desert_reader_alloc(r, f->nested->size, 16);
    if (!q) return r->status;
    if (dec_struct(r, f->nested, q)) return r->status;
    memcpy(p, &q, sizeof q);
    return DESERT_OK;
  }
  default:
    break;
  }
  if (vd >= DESERT_CSTRUCT_VALUE_DEPTH) return desert_reader_fail(r, DESERT_E_DEPTH, r->pos);
  switch (f->ctype) {
  case DESERT_C_LIST:
    return dec_list(r, f, p, vd);
  case DESERT_C_OPTION: {
    if (!f->sub) return desert_reader_fail(r, DESERT_E_ARGUMENT, r->pos);
    bool some;
    if (desert_read_option(r, &some)) return r->status;
    if (f->present != DESERT_CFIELD_NO_FLAG) memcpy(base + f->present, &some, sizeof some);
    return some ? dec_value(r, f->sub, base, vd + 1) : DESERT_OK;
  }
  case DESERT_C_EITHER:
  case DESERT_C_TRY: {
    if (!f->sub) return desert_reader_fail(r, DESERT_E_ARGUMENT, r->pos);
    bool right;
    if (f->ctype == DESERT_C_EITHER ? desert_read_either(r, &right) : desert_read_try(r, &right))
      return r->status;
    memcpy(base + f->present, &right, sizeof right);
    return dec_value(r, &f->sub[right ? 1 : 0], base, vd + 1);
  }
  case DESERT_C_ENUM:
    return dec_enum(r, f->cenum, p);
  default:
    return desert_reader_fail(r, DESERT_E_ARGUMENT, r->pos);
  }
}

/* Version-0 data of a descriptor without evolution steps: every field sits
 * in the stream in declaration order (transient ones take no position,
 * optional ones are a tag and the value), exactly what the records layer
 * does for such data, without its per-field bookkeeping (a record per
 * stack trace element dominates small-record decoding otherwise). Same
 * depth accounting as desert_record_read_begin/_end. */
static desert_status dec_struct_v0(desert_reader *r, const desert_cstruct *d, uint8_t *obj) {
  if (desert_reader_enter(r)) return r->status;
  r->pos++; /* the version byte, 00 */
  const desert_field_desc *fd = d->record.fields;
  for (size_t i = 0; i < d->record.field_count; i++) {
    const desert_cfield *f = &d->cfields[i];
    const unsigned flags = fd[i].flags;
    if (flags & DESERT_FIELD_TRANSIENT) {
      if (d->defaults) d->defaults(obj, i);
      continue;
    }
    if (flags & DESERT_FIELD_OPTIONAL) {
      bool some;
      if (desert_r_tag(r, &some)) break;
      if (!some) continue;
      if (f->present != DESERT_CFIELD_NO_FLAG) memcpy(obj + f->present, &some, sizeof some);
    }
    if (dec_value(r, f, obj, 0)) break;
  }
  desert_reader_leave(r);
  return r->status;
}

static desert_status dec_struct(desert_reader *r, const desert_cstruct *d, uint8_t *obj) {
  if (!d || !obj || (d->record.field_count && (!d->cfields || !d->record.fields)))
    return desert_reader_fail(r, DESERT_E_ARGUMENT, r->pos);
  memset(obj, 0, d->size);
  if (d->record.step_count == 0 && r->status == DESERT_OK && desert_r_want(r, 1) &&
      r->base[r->pos] == 0)
    return dec_struct_v0(r, d, obj);
  desert_record_reader rr;
  const desert_record_plan *plan = cplan(d);
  if (plan ? desert_record_read_begin_plan(r, plan, &rr)
           : desert_record_read_begin(r, &d->record, &rr))
    return r->status;
  const desert_field_desc *fd = d->record.fields;
  for (size_t i = 0; i < d->record.field_count; i++) {
    const desert_cfield *f = &d->cfields[i];
    desert_field_action act;
    if (desert_record_read_field(&rr, i, &act)) break;
    if (act == DESERT_FIELD_READ) {
      if ((fd[i].flags & DESERT_FIELD_OPTIONAL) && f->present != DESERT_CFIELD_NO_FLAG) {
        bool some = true;
        memcpy(obj + f->present, &some, sizeof some);
      }
      if (dec_value(r, f, obj, 0)) break;
    } else if (act != DESERT_FIELD_NONE && d->defaults) {
      d->defaults(obj, i);
    }
  }
  return desert_record_read_end(&rr);
}

desert_status desert_cstruct_decode(desert_reader *r, const desert_cstruct *d, void *obj) {
  if (!r) return DESERT_E_ARGUMENT;
  return dec_struct(r, d, obj);
}
