/* src/types_struct.c — C-struct descriptors (include/desert/types.h): a
 * record mapped onto a C struct by field offsets, written and read through
 * the records layer like a derived codec. Scalars are copied with memcpy (no
 * alignment assumptions), strings and byte blocks are views, lists grow in
 * the reader's arena as elements arrive (a count is never trusted for an
 * allocation), nested records recurse under the records layer's depth bound.
 * SPDX-License-Identifier: MIT */
#include "reader_internal.h"
#include "types_internal.h"
#include "writer_internal.h"

static size_t csize(desert_ctype t, const desert_cstruct *nested) {
  switch (t) {
  case DESERT_C_BOOL:
    return sizeof(bool);
  case DESERT_C_I8:
  case DESERT_C_U8:
    return 1;
  case DESERT_C_I16:
  case DESERT_C_U16:
    return 2;
  case DESERT_C_I32:
  case DESERT_C_U32:
  case DESERT_C_F32:
  case DESERT_C_VAR_U32:
  case DESERT_C_VAR_I32:
  case DESERT_C_CHAR:
    return 4;
  case DESERT_C_I64:
  case DESERT_C_U64:
  case DESERT_C_F64:
    return 8;
  case DESERT_C_STRING:
  case DESERT_C_DEDUP_STRING:
    return sizeof(desert_str);
  case DESERT_C_BYTES:
    return sizeof(desert_bytes);
  case DESERT_C_UUID:
    return 16;
  case DESERT_C_UNIT:
    return 0;
  case DESERT_C_RECORD:
    return nested ? nested->size : 0;
  case DESERT_C_LIST:
    return sizeof(desert_clist);
  default:
    return SIZE_MAX;
  }
}

/* ---- checking -------------------------------------------------------------------------- */

static desert_status check(const desert_cstruct *d, unsigned depth) {
  if (!d || depth > 64) return DESERT_E_ARGUMENT;
  if (desert_record_desc_check(&d->record)) return DESERT_E_ARGUMENT;
  if (d->record.field_count && !d->cfields) return DESERT_E_ARGUMENT;
  for (size_t i = 0; i < d->record.field_count; i++) {
    const desert_cfield *f = &d->cfields[i];
    size_t sz = csize(f->ctype, f->nested);
    if (sz == SIZE_MAX) return DESERT_E_ARGUMENT;
    if (f->ctype != DESERT_C_UNIT && (f->offset > d->size || d->size - f->offset < sz))
      return DESERT_E_ARGUMENT;
    bool optional = (d->record.fields[i].flags & DESERT_FIELD_OPTIONAL) != 0;
    if (optional && (f->present == DESERT_CFIELD_NO_FLAG || f->present >= d->size))
      return DESERT_E_ARGUMENT;
    if (f->ctype == DESERT_C_RECORD && (!f->nested || check(f->nested, depth + 1)))
      return DESERT_E_ARGUMENT;
    if (f->ctype == DESERT_C_LIST) {
      if (f->elem == DESERT_C_LIST || f->elem == DESERT_C_UNIT) return DESERT_E_ARGUMENT;
      if (csize(f->elem, f->nested) == SIZE_MAX) return DESERT_E_ARGUMENT;
      if (f->elem == DESERT_C_RECORD && (!f->nested || check(f->nested, depth + 1)))
        return DESERT_E_ARGUMENT;
    }
  }
  return DESERT_OK;
}

desert_status desert_cstruct_check(const desert_cstruct *d) { return check(d, 0); }

/* ---- encoding -------------------------------------------------------------------------------- */

static desert_status enc_struct(desert_writer *w, const desert_cstruct *d, const uint8_t *obj);

static desert_status enc_value(desert_writer *w, desert_ctype t, const desert_cfield *f,
                               const uint8_t *p) {
  switch (t) {
  case DESERT_C_BOOL: {
    bool v;
    memcpy(&v, p, sizeof v);
    return desert_write_bool(w, v);
  }
  case DESERT_C_I8:
    return desert_write_u8(w, p[0]);
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
    return t == DESERT_C_F32 ? desert_write_f32_bits(w, v) : desert_write_u32(w, v);
  }
  case DESERT_C_I64:
  case DESERT_C_U64:
  case DESERT_C_F64: {
    uint64_t v;
    memcpy(&v, p, 8);
    return t == DESERT_C_F64 ? desert_write_f64_bits(w, v) : desert_write_u64(w, v);
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
    return t == DESERT_C_STRING ? desert_write_string(w, s.ptr, s.len)
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
    return desert_writer_status(w);
  case DESERT_C_RECORD:
    return enc_struct(w, f->nested, p);
  case DESERT_C_LIST: {
    desert_clist l;
    memcpy(&l, p, sizeof l);
    size_t esz = csize(f->elem, f->nested);
    if (l.count && !l.items) return desert_w_fail(w, DESERT_E_ARGUMENT);
    desert_status st =
        f->unknown_form ? desert_write_stream_begin(w) : desert_write_count(w, l.count);
    for (size_t i = 0; !st && i < l.count; i++) {
      if (f->unknown_form) st = desert_write_stream_item(w);
      if (!st) st = enc_value(w, f->elem, f, (const uint8_t *)l.items + i * esz);
    }
    if (!st && f->unknown_form) st = desert_write_stream_end(w);
    return st;
  }
  default:
    return desert_w_fail(w, DESERT_E_ARGUMENT);
  }
}

static desert_status enc_struct(desert_writer *w, const desert_cstruct *d, const uint8_t *obj) {
  if (!d || !obj) return desert_w_fail(w, DESERT_E_ARGUMENT);
  desert_record_writer rw;
  if (desert_record_write_begin(w, &d->record, &rw)) return desert_writer_status(w);
  for (size_t i = 0; i < d->record.field_count; i++) {
    unsigned flags = d->record.fields[i].flags;
    if (flags & DESERT_FIELD_TRANSIENT) continue;
    const desert_cfield *f = &d->cfields[i];
    if (flags & DESERT_FIELD_OPTIONAL) {
      bool some;
      memcpy(&some, obj + f->present, sizeof some);
      if (desert_record_write_field_option(&rw, i, some)) break;
      if (!some) continue;
    } else if (desert_record_write_field(&rw, i)) {
      break;
    }
    if (enc_value(w, f->ctype, f, obj + f->offset)) break;
  }
  return desert_record_write_end(&rw);
}

desert_status desert_cstruct_encode(desert_writer *w, const desert_cstruct *d, const void *obj) {
  if (!w) return DESERT_E_ARGUMENT;
  if (!d || !obj || (d->record.field_count && !d->cfields))
    return desert_w_fail(w, DESERT_E_ARGUMENT);
  return enc_struct(w, d, obj);
}

/* ---- decoding -------------------------------------------------------------------------------- */

static desert_status dec_struct(desert_reader *r, const desert_cstruct *d, uint8_t *obj);

static desert_status dec_value(desert_reader *r, desert_ctype t, const desert_cfield *f,
                               uint8_t *p) {
  switch (t) {
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
  case DESERT_C_F32:
  case DESERT_C_VAR_U32:
  case DESERT_C_VAR_I32:
  case DESERT_C_CHAR: {
    uint32_t v;
    desert_status st;
    if (t == DESERT_C_VAR_U32) {
      st = desert_read_var_u32(r, &v);
    } else if (t == DESERT_C_VAR_I32) {
      int32_t s;
      st = desert_read_var_i32(r, &s);
      memcpy(&v, &s, 4);
    } else if (t == DESERT_C_CHAR) {
      st = desert_read_char(r, &v);
    } else {
      st = desert_read_u32(r, &v);
    }
    if (st) return st;
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
    desert_status st =
        t == DESERT_C_STRING ? desert_read_string(r, &s) : desert_read_dedup_string(r, &s);
    if (st) return st;
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
  case DESERT_C_LIST: {
    desert_seq seq;
    if (desert_read_seq_begin(r, &seq)) return r->status;
    const size_t esz = csize(f->elem, f->nested);
    size_t cap = seq.known ? (seq.count < 16 ? seq.count : 16) : 16, n = 0;
    uint8_t *items = desert_reader_alloc(r, cap * esz, 16);
    if (!items) return r->status;
    while (desert_read_seq_next(r, &seq)) {
      if (n == cap) {
        if (cap > SIZE_MAX / 2 / (esz ? esz : 1))
          return desert_reader_fail(r, DESERT_E_LIMIT, r->pos);
        uint8_t *ni = desert_reader_alloc(r, 2 * cap * esz, 16);
        if (!ni) return r->status;
        memcpy(ni, items, n * esz);
        items = ni;
        cap *= 2;
      }
      memset(items + n * esz, 0, esz);
      if (dec_value(r, f->elem, f, items + n * esz)) return r->status;
      n++;
    }
    if (r->status) return r->status;
    desert_clist l = {n ? items : NULL, n};
    memcpy(p, &l, sizeof l);
    return DESERT_OK;
  }
  default:
    return desert_reader_fail(r, DESERT_E_ARGUMENT, r->pos);
  }
}

static desert_status dec_struct(desert_reader *r, const desert_cstruct *d, uint8_t *obj) {
  if (!d || !obj) return desert_reader_fail(r, DESERT_E_ARGUMENT, r->pos);
  memset(obj, 0, d->size);
  desert_record_reader rr;
  if (desert_record_read_begin(r, &d->record, &rr)) return r->status;
  for (size_t i = 0; i < d->record.field_count; i++) {
    const desert_cfield *f = &d->cfields[i];
    const bool optional = (d->record.fields[i].flags & DESERT_FIELD_OPTIONAL) != 0;
    desert_field_action act;
    if (desert_record_read_field(&rr, i, &act)) break;
    if (act == DESERT_FIELD_READ) {
      if (optional) {
        bool some = true;
        memcpy(obj + f->present, &some, sizeof some);
      }
      if (dec_value(r, f->ctype, f, obj + f->offset)) break;
    } else if (act != DESERT_FIELD_NONE && d->defaults) {
      d->defaults(obj, i);
    }
  }
  return desert_record_read_end(&rr);
}

desert_status desert_cstruct_decode(desert_reader *r, const desert_cstruct *d, void *obj) {
  if (!r) return DESERT_E_ARGUMENT;
  if (!d || !obj || (d->record.field_count && !d->cfields))
    return desert_reader_fail(r, DESERT_E_ARGUMENT, r->pos);
  return dec_struct(r, d, obj);
}
