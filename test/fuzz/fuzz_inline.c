/* test/fuzz/fuzz_inline.c — libFuzzer harness: the inline fast paths of
 * desert/reader_inline.h and desert/writer_inline.h against the exported
 * functions they stand for, on readers and writers in caller storage.
 * SPDX-License-Identifier: MIT
 *
 * Also the inline enum-by-id calls of record.h and
 * desert_read_seq_next_inline, as item kinds of their own, and record.h's
 * version-0 record and one-room enum case calls against the record reader
 * and writer and the two-call enum form.
 *
 * Input: byte 0 = option flags (fz_flags_from; bit 4: max_length 5, which
 * puts the inline string limit below 63), byte 1 = writer mode (bits 0-1:
 * heap vs storage growable, fixed buffers, size-only; bits 2-7: the fixed
 * capacity; in storage mode bit 2 set: options NULL for both writers and
 * the storage one built by desert_writer_init_inline), then the data.
 *
 * Read phase: the data is read twice in lockstep, by a counted heap reader
 * through the exported desert_read_* and by a reader in caller storage
 * through desert_read_*_inline; then both start over, the heap reader
 * through desert_reader_begin and the storage reader (whatever its first
 * pass left: an error, arena copies, dedup entries) through
 * desert_reader_begin_inline, and the lockstep read runs again over the
 * second half of the data. The item kinds come from a selector stream
 * (the data read backwards, so every input byte is both data and choice).
 * After every item both must agree on status, error offset, position and
 * value (strings: the same view, or equal text for lenient copies); once
 * failed, both stay failed with the first error.
 *
 * Write phase: the data drives a sequence of writes (kind, then the value's
 * bytes) done through desert_write_* on one writer and desert_write_*_inline
 * on another in the same output mode; after every write the statuses and
 * sizes agree, at the end the bytes do (desert_writer_data on one,
 * desert_writer_data_inline on the other). The sequence runs twice, the
 * second time after desert_writer_reset on one writer and
 * desert_writer_reset_inline on the other. Fixed buffers are heap blocks of
 * exactly their capacity, so a write past one is an ASan report. When the
 * whole sequence succeeded with a growable writer, the inline reader reads
 * it back to the same values. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

enum {
  K_U8,
  K_I8,
  K_U16,
  K_I16,
  K_U32,
  K_I32,
  K_U64,
  K_I64,
  K_F32,
  K_F64,
  K_BOOL,
  K_VAR_U32,
  K_VAR_I32,
  K_OPTION,
  K_EITHER,
  K_TRY,
  K_STRING,
  K_ENUM,  /* enum header by id (record.h's inline forms): begin, then end */
  K_SEQ,   /* a collection of u8 through desert_read_seq_next(_inline) */
  K_REC0,  /* a field-less record: desert_record_read_v0_begin/_end_inline
            * (falling back to the record reader) against the record
            * reader; desert_record_write_v0_begin/_end_inline against the
            * record writer */
  K_ENUM_U32, /* an enum case with a u32 payload: written under one room
               * check (desert_enum_write_id_room_inline) against the id
               * and payload calls; read as id, u32, end */
  K_DEDUP, /* DeduplicatedString: no inline form; both sides call the
            * exported function, whose table entries make the next message
            * boundary take the exported reset / begin */
  K_COUNT,
  /* the bytes of K_ENUM_U32 through the direct-store calls generated lists
   * use: written at desert_writer_room_inline and counted with
   * desert_writer_advance_inline when the room holds all 6 bytes, read
   * through desert_enum_read_peek_inline and _skip_inline when the limit
   * does; else the K_ENUM_U32 calls */
  K_ENUM_DIRECT,
  K_KINDS
};

/* Every value kind as the bytes of one union, so a read and the value
 * that was written compare as one 64-bit word. */
typedef union value_bits {
  uint8_t u8;
  int8_t i8;
  uint16_t u16;
  int16_t i16;
  uint32_t u32;
  int32_t i32;
  uint64_t u64;
  int64_t i64;
  float f32;
  double f64;
  bool b;
} value_bits;

/* The record of K_REC0: no name, no fields, no steps. */
static const desert_record_desc empty_record = {NULL, NULL, 0, NULL, 0};

/* Enum ids written and read: both sides of 128 (one- and two-byte varints). */
#define ENUM_IDS 200u
/* A written collection: x % 5 elements, element i = byte i of x. */
static uint64_t seq_bits(uint64_t x) {
  uint64_t h = 0;
  for (unsigned i = 0; i < x % 5; i++) h = h * 31u + ((x >> (8 * i)) & 0xffu);
  return h;
}

/* The value write_item writes for input word x, as read_item reports it. */
static uint64_t written_bits(int kind, uint64_t x) {
  value_bits v;
  memset(&v, 0, sizeof v);
  uint32_t x32 = (uint32_t)x;
  switch (kind) {
  case K_U8:
    v.u8 = (uint8_t)x;
    break;
  case K_I8:
    v.i8 = (int8_t)(uint8_t)x;
    break;
  case K_U16:
    v.u16 = (uint16_t)x;
    break;
  case K_I16:
    v.i16 = (int16_t)(uint16_t)x;
    break;
  case K_U32:
  case K_VAR_U32:
    v.u32 = x32;
    break;
  case K_I32:
  case K_VAR_I32:
    v.i32 = (int32_t)x32;
    break;
  case K_U64:
    v.u64 = x;
    break;
  case K_I64:
    v.i64 = (int64_t)x;
    break;
  case K_F32:
    memcpy(&v.f32, &x32, 4);
    break;
  case K_F64:
    memcpy(&v.f64, &x, 8);
    break;
  case K_ENUM:
    v.u32 = x32 % ENUM_IDS;
    break;
  case K_ENUM_U32:
  case K_ENUM_DIRECT:
    v.u64 = (x32 % ENUM_IDS) | (x >> 32) << 32;
    break;
  case K_REC0:
    break;
  case K_SEQ:
    v.u64 = seq_bits(x);
    break;
  default:
    v.b = (x & 1u) != 0;
  }
  uint64_t r;
  memcpy(&r, &v, sizeof r);
  return r;
}

/* The result of one read, in comparable form. */
typedef struct got {
  desert_status st;
  uint64_t v;
  desert_str s;
} got;

static got read_item(desert_reader *r, int kind, bool inl) {
  got g = {DESERT_OK, 0, {NULL, 0}};
  value_bits v;
  memset(&v, 0, sizeof v);
#define RD(fn, field) \
  g.st = inl ? desert_read_##fn##_inline(r, &v.field) : desert_read_##fn(r, &v.field)
  switch (kind) {
  case K_U8:
    RD(u8, u8);
    break;
  case K_I8:
    RD(i8, i8);
    break;
  case K_U16:
    RD(u16, u16);
    break;
  case K_I16:
    RD(i16, i16);
    break;
  case K_U32:
    RD(u32, u32);
    break;
  case K_I32:
    RD(i32, i32);
    break;
  case K_U64:
    RD(u64, u64);
    break;
  case K_I64:
    RD(i64, i64);
    break;
  case K_F32:
    RD(f32, f32);
    break;
  case K_F64:
    RD(f64, f64);
    break;
  case K_BOOL:
    RD(bool, b);
    break;
  case K_VAR_U32:
    RD(var_u32, u32);
    break;
  case K_VAR_I32:
    RD(var_i32, i32);
    break;
  case K_OPTION:
    RD(option, b);
    break;
  case K_EITHER:
    RD(either, b);
    break;
  case K_TRY:
    RD(try, b);
    break;
  case K_DEDUP:
    g.st = desert_read_dedup_string(r, &g.s);
    break;
  case K_ENUM:
    g.st = inl ? desert_enum_read_begin_id_inline(r, ENUM_IDS, &v.u32)
               : desert_enum_read_begin_id(r, ENUM_IDS, &v.u32);
    if (!g.st) g.st = inl ? desert_enum_read_end_id_inline(r) : desert_enum_read_end_id(r);
    break;
  case K_ENUM_DIRECT:
  case K_ENUM_U32: {
    uint32_t id = 0, payload = 0;
    if (inl && kind == K_ENUM_DIRECT) {
      size_t avail = 1;
      const uint8_t *p = desert_enum_read_peek_inline(r, ENUM_IDS, &avail);
      FZ_CHECK(p ? avail >= 2 && p[0] == 0 && p[1] < ENUM_IDS : avail == 0);
      if (p && avail >= 6) {
        id = p[1];
        payload = (uint32_t)p[2] << 24 | (uint32_t)p[3] << 16 | (uint32_t)p[4] << 8 | p[5];
        desert_enum_read_skip_inline(r, 6);
        g.st = DESERT_OK;
        v.u64 = id | (uint64_t)payload << 32;
        break;
      }
    }
    g.st = inl ? desert_enum_read_begin_id_inline(r, ENUM_IDS, &id)
               : desert_enum_read_begin_id(r, ENUM_IDS, &id);
    if (!g.st) g.st = inl ? desert_read_u32_inline(r, &payload) : desert_read_u32(r, &payload);
    if (!g.st) g.st = inl ? desert_enum_read_end_id_inline(r) : desert_enum_read_end_id(r);
    v.u64 = id | (uint64_t)payload << 32;
    break;
  }
  case K_REC0: {
    desert_record_reader rr;
    if (inl && desert_record_read_v0_begin_inline(r)) {
      g.st = desert_record_read_v0_end_inline(r);
    } else {
      g.st = desert_record_read_begin(r, &empty_record, &rr);
      if (!g.st) g.st = desert_record_read_end(&rr);
    }
    break;
  }
  case K_SEQ: {
    desert_seq sq;
    g.st = desert_read_seq_begin(r, &sq);
    for (unsigned k = 0; !g.st && k < 8 &&
                         (inl ? desert_read_seq_next_inline(r, &sq) : desert_read_seq_next(r, &sq));
         k++) {
      uint8_t b = 0;
      g.st = inl ? desert_read_u8_inline(r, &b) : desert_read_u8(r, &b);
      v.u64 = v.u64 * 31u + b;
    }
    if (!g.st) g.st = desert_reader_status(r);
    break;
  }
  default:
    g.st = inl ? desert_read_string_inline(r, &g.s) : desert_read_string(r, &g.s);
  }
#undef RD
  memcpy(&g.v, &v, sizeof g.v);
  return g;
}

static void lockstep(desert_reader *ex, desert_reader *in, const uint8_t *data, size_t n);

static void read_phase(const desert_options *base, const uint8_t *data, size_t n) {
  desert_options o = *base;
  desert_reader *ex = fz_reader_new(&o);
  desert_reader_storage rs;
  desert_reader *in = NULL;
  desert_options so; /* the caller's allocator (malloc) for the storage reader */
  desert_options_init(&so);
  so.flags = base->flags;
  so.max_length = base->max_length;
  FZ_CHECK(desert_reader_init(&rs, sizeof rs, &so, &in) == DESERT_OK);
  fz_decode_begin(ex, data, n);
  FZ_CHECK(desert_reader_begin_inline(in, data, n) == DESERT_OK);
  lockstep(ex, in, data, n);
  /* Second message: the inline begin must leave the storage reader as the
   * exported begin leaves the heap one, whatever the first pass did.
   * The second input is the second half of the data, so dedup ids left
   * over from the first would resolve differently. */
  const uint8_t *d2 = data + n / 2;
  size_t n2 = n - n / 2;
  fz_decode_end(ex);
  fz_decode_begin(ex, d2, n2);
  { /* the head invariant the inline begin relies on */
    const desert_reader_fast *f = (const desert_reader_fast *)(const void *)in;
    FZ_CHECK(f->busy != 0 || f->status == DESERT_OK);
  }
  FZ_CHECK(desert_reader_begin_inline(in, d2, n2) == DESERT_OK);
  FZ_CHECK(desert_reader_status(in) == DESERT_OK && desert_reader_error_offset(in) == 0);
  FZ_CHECK(desert_reader_offset(in) == 0 && desert_reader_remaining(in) == n2);
  lockstep(ex, in, d2, n2);
  fz_decode_end(ex);
  fz_reader_free(ex);
  desert_reader_free(in);
}

/* Reads the item sequence the data selects on both readers, comparing
 * every result. */
static void lockstep(desert_reader *ex, desert_reader *in, const uint8_t *data, size_t n) {
  size_t sel = n;
  for (unsigned steps = 0; steps < 4096; steps++) {
    int kind = sel ? data[--sel] % K_COUNT : K_STRING;
    got a = read_item(ex, kind, false);
    got b = read_item(in, kind, true);
    FZ_CHECK_MSG(a.st == b.st, "kind %d: exported %s, inline %s", kind, desert_status_name(a.st),
                 desert_status_name(b.st));
    FZ_CHECK(desert_reader_error_offset(ex) == desert_reader_error_offset(in));
    FZ_CHECK(desert_reader_offset(ex) == desert_reader_offset(in));
    if (a.st) break;
    FZ_CHECK_MSG(a.v == b.v, "kind %d: values differ", kind);
    if (kind == K_STRING || kind == K_DEDUP) {
      FZ_CHECK(a.s.len == b.s.len && (a.s.len == 0 || !memcmp(a.s.ptr, b.s.ptr, a.s.len)));
      /* a view into the input is the same view in both */
      if (fz_inside(a.s.ptr, a.s.len, data, n)) FZ_CHECK(a.s.ptr == b.s.ptr);
    }
    if (desert_reader_remaining(ex) == 0 && sel == 0) break;
  }
}

/* ---- write phase ---------------------------------------------------------------- */

typedef struct wpair {
  desert_writer *w[2]; /* [0] exported, [1] inline */
  desert_writer_storage ws;
  uint8_t *buf[2];
  bool fixed, count;
} wpair;

/* Writes one item of `kind` whose value comes from src; *xo = the value
 * word, *text / *text_len = a string's text (a view into the input). */
static desert_status write_item(desert_writer *w, int kind, fz_in *src, bool inl, char *tmp,
                                uint64_t *xo, const uint8_t **text, size_t *text_len) {
  uint64_t x = fz_u64(src);
  *xo = x;
  *text = NULL;
  *text_len = 0;
  uint32_t x32 = (uint32_t)x;
  bool b = (x & 1u) != 0;
  float f;
  double d;
  memcpy(&f, &x32, 4);
  memcpy(&d, &x, 8);
#define WR(fn, val) return inl ? desert_write_##fn##_inline(w, val) : desert_write_##fn(w, val)
  switch (kind) {
  case K_U8:
    WR(u8, (uint8_t)x);
  case K_I8:
    WR(i8, (int8_t)(uint8_t)x);
  case K_U16:
    WR(u16, (uint16_t)x);
  case K_I16:
    WR(i16, (int16_t)(uint16_t)x);
  case K_U32:
    WR(u32, x32);
  case K_I32:
    WR(i32, (int32_t)x32);
  case K_U64:
    WR(u64, x);
  case K_I64:
    WR(i64, (int64_t)x);
  case K_F32:
    WR(f32, f);
  case K_F64:
    WR(f64, d);
  case K_BOOL:
    WR(bool, b);
  case K_VAR_U32:
    WR(var_u32, x32);
  case K_VAR_I32:
    WR(var_i32, (int32_t)x32);
  case K_OPTION:
    WR(option, b);
  case K_EITHER:
    WR(either, b);
  case K_TRY:
    WR(try, b);
  case K_ENUM:
    return inl ? desert_enum_write_id_inline(w, x32 % ENUM_IDS)
               : desert_enum_write_id(w, x32 % ENUM_IDS);
  case K_ENUM_DIRECT:
  case K_ENUM_U32: {
    uint32_t id = x32 % ENUM_IDS, payload = (uint32_t)(x >> 32);
    if (inl && kind == K_ENUM_DIRECT) {
      size_t room = 1;
      uint8_t *q = desert_writer_room_inline(w, &room);
      FZ_CHECK(q ? room > 0 : room == 0);
      if (q && room >= 6) {
        q[0] = 0;
        q[1] = (uint8_t)id;
        q[2] = (uint8_t)(payload >> 24);
        q[3] = (uint8_t)(payload >> 16);
        q[4] = (uint8_t)(payload >> 8);
        q[5] = (uint8_t)payload;
        desert_writer_advance_inline(w, 6);
        return DESERT_OK;
      }
    }
    if (inl) {
      uint8_t *q = desert_enum_write_id_room_inline(w, id, 4);
      if (q) {
        q[0] = (uint8_t)(payload >> 24);
        q[1] = (uint8_t)(payload >> 16);
        q[2] = (uint8_t)(payload >> 8);
        q[3] = (uint8_t)payload;
        return DESERT_OK;
      }
      desert_status st = desert_enum_write_id_inline(w, id);
      return st ? st : desert_write_u32_inline(w, payload);
    }
    desert_status st = desert_enum_write_id(w, id);
    return st ? st : desert_write_u32(w, payload);
  }
  case K_REC0: {
    if (inl) {
      desert_status st = desert_record_write_v0_begin_inline(w);
      return st ? st : desert_record_write_v0_end_inline(w);
    }
    desert_record_writer rw;
    desert_status st = desert_record_write_begin(w, &empty_record, &rw);
    return st ? st : desert_record_write_end(&rw);
  }
  case K_SEQ: {
    desert_status st = inl ? desert_write_count_inline(w, (size_t)(x % 5))
                           : desert_write_count(w, (size_t)(x % 5));
    for (unsigned i = 0; !st && i < x % 5; i++) {
      uint8_t e = (uint8_t)(x >> (8 * i));
      st = inl ? desert_write_u8_inline(w, e) : desert_write_u8(w, e);
    }
    return st;
  }
  case K_DEDUP: {
    /* short texts, so that repeats (back-references) happen */
    size_t got_n;
    const uint8_t *t = fz_bytes(src, (size_t)(x % 4), &got_n);
    if (got_n) memcpy(tmp, t, got_n);
    *text = t;
    *text_len = got_n;
    return desert_write_dedup_string(w, tmp, got_n);
  }
  default: {
    /* lengths around the inline limit (63) and the odd huge count */
    if ((x & 0xff) == 0xff) WR(count, (size_t)x);
    size_t len = (size_t)(x % 80), got_n;
    const uint8_t *t = fz_bytes(src, len, &got_n);
    if (got_n) memcpy(tmp, t, got_n);
    *text = t;
    *text_len = got_n;
    return inl ? desert_write_string_inline(w, tmp, got_n) : desert_write_string(w, tmp, got_n);
  }
  }
#undef WR
}

/* One written item, for the read-back. */
typedef struct witem {
  int kind;
  uint64_t x;
  const uint8_t *text;
  size_t len;
} witem;

/* Writes the sequence the data describes on both writers (exported /
 * inline), comparing statuses and sizes after every item; returns the
 * item count. */
static size_t write_round(wpair *p, const uint8_t *data, size_t n, witem *items, size_t max) {
  char tmp[80];
  fz_in src = {data, n};
  size_t nk = 0;
  while (src.n && nk < max) {
    int kind = fz_u8(&src) % K_COUNT;
    fz_in copy = src;
    witem *it = &items[nk++];
    uint64_t x2;
    const uint8_t *t2;
    size_t l2;
    desert_status a = write_item(p->w[0], kind, &src, false, tmp, &it->x, &it->text, &it->len);
    desert_status b = write_item(p->w[1], kind, &copy, true, tmp, &x2, &t2, &l2);
    it->kind = kind;
    FZ_CHECK_MSG(a == b, "write kind %d: exported %s, inline %s", kind, desert_status_name(a),
                 desert_status_name(b));
    FZ_CHECK(desert_writer_size(p->w[0]) == desert_writer_size(p->w[1]));
  }
  return nk;
}

static void write_phase(const desert_options *o, uint8_t mode, const uint8_t *data, size_t n) {
  wpair p;
  memset(&p, 0, sizeof p);
  size_t cap = (size_t)(mode >> 2);
  /* Storage mode with bit 2 set: both writers get options NULL and the
   * storage one is built by desert_writer_init_inline (its own path is
   * taken for options NULL only). */
  const bool init_inline = (mode & 3u) == 1 && (mode & 4u) != 0;
  if (init_inline) o = NULL;
  FZ_CHECK(desert_writer_create(o, &p.w[0]) == DESERT_OK);
  if (init_inline)
    FZ_CHECK(desert_writer_init_inline(&p.ws, sizeof p.ws, NULL, &p.w[1]) == DESERT_OK);
  else if ((mode & 3u) == 1)
    FZ_CHECK(desert_writer_init(&p.ws, sizeof p.ws, o, &p.w[1]) == DESERT_OK);
  else
    FZ_CHECK(desert_writer_create(o, &p.w[1]) == DESERT_OK);
  p.fixed = (mode & 3u) == 2;
  p.count = (mode & 3u) == 3;
  for (int i = 0; i < 2; i++) {
    if (p.fixed) {
      p.buf[i] = malloc(cap ? cap : 1); /* exactly cap bytes: ASan sees any overflow */
      FZ_CHECK(p.buf[i] != NULL);
      FZ_CHECK(desert_writer_use_buffer(p.w[i], p.buf[i], cap) == DESERT_OK);
    } else if (p.count) {
      desert_writer_count_only(p.w[i]);
    }
  }
  witem items[256];
  size_t nk = 0, la = 0, lb = 0;
  const uint8_t *db = NULL;
  for (int round = 0; round < 2; round++) {
    if (round) {                    /* the same sequence again as a second message */
      for (int i = 0; i < 2; i++) { /* the head invariant the inline reset relies on */
        const desert_writer_fast *f = (const desert_writer_fast *)(const void *)p.w[i];
        FZ_CHECK(f->busy != 0 || (f->status == DESERT_OK && f->t == &f->main));
      }
      desert_writer_reset(p.w[0]);
      desert_writer_reset_inline(p.w[1]);
      FZ_CHECK(desert_writer_status(p.w[1]) == DESERT_OK && desert_writer_size(p.w[1]) == 0);
    }
    nk = write_round(&p, data, n, items, 256);
    const uint8_t *da = desert_writer_data(p.w[0], &la);
    db = desert_writer_data_inline(p.w[1], &lb);
    FZ_CHECK(la == lb && (da == NULL) == (db == NULL));
    if (da && la) FZ_CHECK(memcmp(da, db, la) == 0);
    if (p.fixed) FZ_CHECK(la <= cap);
  }

  /* Read back a complete growable message with the inline reader: the same
   * kinds in the same order succeed, give the written values and consume
   * every byte. */
  if (!p.fixed && !p.count && desert_writer_status(p.w[1]) == DESERT_OK) {
    desert_reader_storage rs;
    desert_reader *r = NULL;
    FZ_CHECK(desert_reader_init(&rs, sizeof rs, o, &r) == DESERT_OK);
    FZ_CHECK(desert_reader_begin_inline(r, db, lb) == DESERT_OK);
    for (size_t i = 0; i < nk; i++) {
      const witem *it = &items[i];
      if (it->kind == K_STRING && (it->x & 0xff) == 0xff) { /* a count */
        int32_t c = -1;
        FZ_CHECK(desert_read_var_i32_inline(r, &c) == DESERT_OK);
        FZ_CHECK((uint64_t)c == it->x);
      } else if (it->kind == K_STRING || it->kind == K_DEDUP) {
        desert_str t = {NULL, 0};
        FZ_CHECK((it->kind == K_DEDUP ? desert_read_dedup_string(r, &t)
                                      : desert_read_string_inline(r, &t)) == DESERT_OK);
        FZ_CHECK(t.len == it->len && (t.len == 0 || !memcmp(t.ptr, it->text, t.len)));
      } else {
        got g = read_item(r, it->kind, true);
        FZ_CHECK(g.st == DESERT_OK);
        FZ_CHECK_MSG(g.v == written_bits(it->kind, it->x), "read back kind %d differs", it->kind);
      }
    }
    FZ_CHECK(desert_reader_status(r) == DESERT_OK && desert_reader_remaining(r) == 0);
    desert_reader_free(r);
  }
  desert_writer_free(p.w[0]);
  desert_writer_free_inline(p.w[1]);
  for (int i = 0; i < 2; i++) free(p.buf[i]);
}

FZ_TARGET(inline) {
  if (size < 2) return 0;
  desert_options o;
  fz_options(&o, fz_flags_from(data[0]));
  if (data[0] & 0x10u) o.max_length = 5;
  read_phase(&o, data + 2, size - 2);
  desert_options wo;
  desert_options_init(&wo);
  wo.flags = o.flags;
  write_phase(&wo, data[1], data + 2, size - 2);
  return 0;
}
