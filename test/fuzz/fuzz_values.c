/* test/fuzz/fuzz_values.c — libFuzzer harness: every desert_read_* of
 * reader.h driven by a "type program" taken from the front of the input.
 * SPDX-License-Identifier: MIT
 *
 * Input layout:
 *   byte 0        option flags (fz_flags_from: scala chars, lenient UTF-8,
 *                 lenient tags, lenient varint) and, in bit 4, a small
 *                 max_collection / max_length (exercises DESERT_E_LIMIT)
 *   byte 1        program length L
 *   L bytes       the program: one op byte per read, some followed by an
 *                 argument byte (counts) or a sub-program (length byte +
 *                 bytes) run per element / payload
 *   the rest      the data the reader decodes
 * Every read result is checked: views lie inside the input (or are valid
 * UTF-8 arena copies in lenient mode), positions only move forward and stay
 * in bounds, errors are sticky, failures report an offset inside the data. */
#include <string.h>

#include "fuzz_common.h"

enum {
  OP_U8, OP_I8, OP_U16, OP_I16, OP_U32, OP_I32, OP_U64, OP_I64, OP_U128, OP_F32, OP_F64,
  OP_F32_BITS, OP_F64_BITS, OP_BOOL, OP_RAW, OP_VAR_U32, OP_VAR_I32, OP_CHAR, OP_CHAR16,
  OP_STRING, OP_DEDUP, OP_BYTES, OP_SEQ, OP_A_U16, OP_A_I16, OP_A_U32, OP_A_I32, OP_A_U64,
  OP_A_I64, OP_A_F32, OP_A_F64, OP_A_VU32, OP_A_VI32, OP_OPTION, OP_EITHER, OP_TRY, OP_UUID,
  OP_COMP_RAW, OP_COMP_ZLIB, OP_COMP_ZSTD, OP_REF, OP_TYPE_ID, OP_REGISTRY, OP_NEST,
  OP_SEQ_BULK, OP_ALLOC, OP_COUNT_
};

#define MAX_STEPS 20000u
#define MAX_ARRAY 255u

typedef struct vm {
  desert_reader *r;
  const uint8_t *data; /* the decoded data */
  size_t len;
  unsigned steps;
  size_t last_pos;
  unsigned objects; /* registered reference objects */
  uint8_t objpool[64];
} vm;

static void run(vm *m, fz_in prog, unsigned depth);

/* Checks after every read: status sticky, position monotone and in range. */
static void after(vm *m, desert_status st) {
  desert_reader *r = m->r;
  FZ_CHECK(st == desert_reader_status(r));
  size_t pos = desert_reader_offset(r);
  FZ_CHECK_MSG(pos >= m->last_pos, "position went back from %zu to %zu", m->last_pos, pos);
  FZ_CHECK(pos <= m->len);
  m->last_pos = pos;
  if (st) FZ_CHECK(desert_reader_error_offset(r) <= m->len);
}

static void check_str(vm *m, desert_str s) {
  const desert_options *o = desert_reader_options(m->r);
  FZ_CHECK(s.ptr != NULL || s.len == 0);
  FZ_CHECK_MSG(fz_utf8_ok((const uint8_t *)s.ptr, s.len), "a string view is not valid UTF-8");
  if (!(o->flags & DESERT_OPT_LENIENT_UTF8))
    FZ_CHECK_MSG(fz_inside(s.ptr, s.len, m->data, m->len), "a strict string is not a view");
}

/* A sub-program: length byte (mod 32) then that many bytes. */
static fz_in sub(fz_in *prog) {
  size_t k = fz_u8(prog) % 32u, got;
  fz_in s;
  s.p = fz_bytes(prog, k, &got);
  s.n = got;
  return s;
}

static void array_op(vm *m, unsigned op, size_t n) {
  desert_reader *r = m->r;
  union {
    uint16_t u16[MAX_ARRAY];
    int16_t i16[MAX_ARRAY];
    uint32_t u32[MAX_ARRAY];
    int32_t i32[MAX_ARRAY];
    uint64_t u64[MAX_ARRAY];
    int64_t i64[MAX_ARRAY];
    float f32[MAX_ARRAY];
    double f64[MAX_ARRAY];
  } buf;
  size_t before = desert_reader_offset(r);
  desert_status st;
  size_t width = 0;
  switch (op) {
  case OP_A_U16: st = desert_read_u16_array(r, buf.u16, n); width = 2; break;
  case OP_A_I16: st = desert_read_i16_array(r, buf.i16, n); width = 2; break;
  case OP_A_U32: st = desert_read_u32_array(r, buf.u32, n); width = 4; break;
  case OP_A_I32: st = desert_read_i32_array(r, buf.i32, n); width = 4; break;
  case OP_A_U64: st = desert_read_u64_array(r, buf.u64, n); width = 8; break;
  case OP_A_I64: st = desert_read_i64_array(r, buf.i64, n); width = 8; break;
  case OP_A_F32: st = desert_read_f32_array(r, buf.f32, n); width = 4; break;
  case OP_A_F64: st = desert_read_f64_array(r, buf.f64, n); width = 8; break;
  case OP_A_VU32: st = desert_read_var_u32_array(r, buf.u32, n); break;
  default: st = desert_read_var_i32_array(r, buf.i32, n); break;
  }
  after(m, st);
  if (width && st == DESERT_OK) {
    FZ_CHECK(desert_reader_offset(r) == before + n * width);
    /* Elements equal the big-endian bytes (compare with single reads). */
    for (size_t i = 0; i < n; i++) {
      const uint8_t *b = m->data + before + i * width;
      uint64_t v = 0;
      for (size_t k = 0; k < width; k++) v = v << 8 | b[k];
      uint64_t got;
      if (width == 2) got = buf.u16[i];
      else if (width == 4) {
        uint32_t t;
        memcpy(&t, &buf.u32[i], 4);
        got = t;
      } else
        memcpy(&got, &buf.u64[i], 8);
      FZ_CHECK_MSG(got == v, "array element %zu differs from its bytes", i);
    }
  }
  if (width && st == DESERT_E_INPUT_ENDED) {
    /* The offset is the first element that does not fit. */
    size_t eo = desert_reader_error_offset(r);
    FZ_CHECK(eo >= before && (eo - before) % width == 0 && (eo - before) / width < n);
    FZ_CHECK(m->len - eo < width || eo + width > m->len);
  }
}

static void step(vm *m, fz_in *prog, unsigned depth) {
  desert_reader *r = m->r;
  desert_status st = DESERT_OK;
  unsigned op = fz_u8(prog) % OP_COUNT_;
  size_t before = desert_reader_offset(r);
  switch (op) {
  case OP_U8: { uint8_t v; st = desert_read_u8(r, &v); break; }
  case OP_I8: { int8_t v; st = desert_read_i8(r, &v); break; }
  case OP_U16: { uint16_t v; st = desert_read_u16(r, &v); break; }
  case OP_I16: { int16_t v; st = desert_read_i16(r, &v); break; }
  case OP_U32: { uint32_t v; st = desert_read_u32(r, &v); break; }
  case OP_I32: { int32_t v; st = desert_read_i32(r, &v); break; }
  case OP_U64: { uint64_t v; st = desert_read_u64(r, &v); break; }
  case OP_I64: { int64_t v; st = desert_read_i64(r, &v); break; }
  case OP_U128: { desert_u128 v; st = desert_read_u128(r, &v); break; }
  case OP_F32: { float v; st = desert_read_f32(r, &v); break; }
  case OP_F64: { double v; st = desert_read_f64(r, &v); break; }
  case OP_F32_BITS: {
    uint32_t v;
    st = desert_read_f32_bits(r, &v);
    if (!st) FZ_CHECK(v == ((uint32_t)m->data[before] << 24 | (uint32_t)m->data[before + 1] << 16 |
                            (uint32_t)m->data[before + 2] << 8 | m->data[before + 3]));
    break;
  }
  case OP_F64_BITS: { uint64_t v; st = desert_read_f64_bits(r, &v); break; }
  case OP_BOOL: {
    bool v;
    st = desert_read_bool(r, &v);
    if (!st) FZ_CHECK(v == (m->data[before] != 0));
    break;
  }
  case OP_RAW: {
    size_t n = fz_u8(prog);
    const uint8_t *p = NULL;
    st = desert_read_raw(r, n, &p);
    if (!st && n) FZ_CHECK(p == m->data + before);
    break;
  }
  case OP_VAR_U32: {
    uint32_t v;
    st = desert_read_var_u32(r, &v);
    if (!st) FZ_CHECK(desert_reader_offset(r) - before >= 1 && desert_reader_offset(r) - before <= 5);
    break;
  }
  case OP_VAR_I32: { int32_t v; st = desert_read_var_i32(r, &v); break; }
  case OP_CHAR: {
    uint32_t cp;
    st = desert_read_char(r, &cp);
    if (!st) FZ_CHECK(cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff));
    break;
  }
  case OP_CHAR16: { uint16_t u; st = desert_read_char16(r, &u); break; }
  case OP_STRING:
  case OP_DEDUP: {
    desert_str s = {NULL, 0};
    st = op == OP_STRING ? desert_read_string(r, &s) : desert_read_dedup_string(r, &s);
    if (!st) check_str(m, s);
    break;
  }
  case OP_BYTES: {
    desert_bytes b = {NULL, 0};
    st = desert_read_bytes(r, &b);
    if (!st) FZ_CHECK(fz_inside(b.ptr, b.len, m->data, m->len));
    break;
  }
  case OP_SEQ: {
    fz_in elem = sub(prog);
    desert_seq seq;
    st = desert_read_seq_begin(r, &seq);
    if (st) break;
    if (seq.known) FZ_CHECK(seq.count <= 0x7fffffffu);
    while (m->steps < MAX_STEPS && desert_read_seq_next(r, &seq)) {
      m->steps++; /* elements may consume nothing: count them too */
      if (seq.known) FZ_CHECK(seq.index <= seq.count);
      run(m, elem, depth + 1);
      if (desert_reader_status(r)) break;
    }
    st = desert_reader_status(r);
    break;
  }
  case OP_A_U16: case OP_A_I16: case OP_A_U32: case OP_A_I32: case OP_A_U64: case OP_A_I64:
  case OP_A_F32: case OP_A_F64: case OP_A_VU32: case OP_A_VI32:
    array_op(m, op, fz_u8(prog) % (MAX_ARRAY + 1));
    return;
  case OP_OPTION:
  case OP_TRY: {
    fz_in inner = sub(prog);
    bool one = false;
    st = op == OP_OPTION ? desert_read_option(r, &one) : desert_read_try(r, &one);
    if (!st) {
      uint8_t tag = m->data[before];
      FZ_CHECK(one == (tag != 0));
      if (!(desert_reader_options(r)->flags & DESERT_OPT_LENIENT_TAGS)) FZ_CHECK(tag <= 1);
      if (one) run(m, inner, depth + 1);
      st = desert_reader_status(r);
    } else if (st == DESERT_E_INVALID_TAG) {
      FZ_CHECK(desert_reader_error_offset(r) == before);
    }
    break;
  }
  case OP_EITHER: {
    fz_in left = sub(prog), right = sub(prog);
    bool is_right = false;
    st = desert_read_either(r, &is_right);
    if (!st) {
      run(m, is_right ? right : left, depth + 1);
      st = desert_reader_status(r);
    }
    break;
  }
  case OP_UUID: { uint8_t u[16]; st = desert_read_uuid(r, u); break; }
  case OP_COMP_RAW:
  case OP_COMP_ZLIB:
  case OP_COMP_ZSTD: {
    desert_bytes b = {NULL, 0};
    st = op == OP_COMP_ZSTD ? desert_read_compressed_zstd(r, &b)
                            : desert_read_compressed(r,
                                                     op == OP_COMP_RAW ? DESERT_COMPRESSION_RAW
                                                                       : DESERT_COMPRESSION_ZLIB,
                                                     &b);
    if (!st) {
      FZ_CHECK(b.ptr != NULL || b.len == 0);
      FZ_CHECK(b.len <= desert_reader_options(r)->max_decompressed);
      if (b.len) {
        volatile uint8_t sink = b.ptr[0] ^ b.ptr[b.len - 1]; /* ASan: the view is readable */
        (void)sink;
      }
    }
    break;
  }
  case OP_REF: {
    fz_in inner = sub(prog);
    void *obj = (void *)1;
    st = desert_read_ref(r, &obj);
    if (st) break;
    if (obj == NULL) {
      void *mine = &m->objpool[m->objects % sizeof m->objpool];
      m->objects++;
      st = desert_reader_register_ref(r, mine);
      if (st) break;
      run(m, inner, depth + 1);
      st = desert_reader_status(r);
    } else {
      FZ_CHECK_MSG(fz_inside(obj, 1, m->objpool, sizeof m->objpool) && m->objects > 0,
                   "read_ref returned an object that was never registered");
    }
    break;
  }
  case OP_TYPE_ID: { uint32_t id; st = desert_read_type_id(r, &id); break; }
  case OP_REGISTRY: {
    uint32_t ids[4];
    size_t count = fz_u8(prog) % 5u, index = SIZE_MAX;
    for (size_t i = 0; i < count; i++) ids[i] = fz_u8(prog);
    st = desert_registry_read_type(r, ids, count, &index);
    if (!st) FZ_CHECK(index < count);
    break;
  }
  case OP_NEST: {
    fz_in inner = sub(prog);
    st = desert_reader_enter(r);
    if (st) {
      FZ_CHECK(st == DESERT_E_DEPTH || st == desert_reader_status(r));
      break;
    }
    run(m, inner, depth + 1);
    desert_reader_leave(r);
    st = desert_reader_status(r);
    break;
  }
  case OP_SEQ_BULK: {
    /* The common user pattern: a known count, checked against the input
     * before asking the arena for count * 8 bytes. */
    desert_seq seq;
    st = desert_read_seq_begin(r, &seq);
    if (st || !seq.known) break;
    if (seq.count > desert_reader_remaining(r) / 8) {
      int64_t dummy;
      st = desert_read_i64_array(r, &dummy, seq.count);
      FZ_CHECK(st != DESERT_OK || seq.count == 0);
      break;
    }
    int64_t *a = desert_reader_alloc(r, seq.count * 8, 16);
    if (!a) {
      st = desert_reader_status(r);
      break;
    }
    st = desert_read_i64_array(r, a, seq.count);
    break;
  }
  case OP_ALLOC: {
    /* Small and only at top level: caller allocations in a loop over
     * zero-byte elements are the caller's cost, not the library's. */
    size_t n = fz_u8(prog) % 16u;
    size_t align = (size_t)1 << (fz_u8(prog) % 7u);
    if (depth) return;
    uint8_t *p = desert_reader_alloc(r, n, align);
    FZ_CHECK(p != NULL);
    FZ_CHECK(((uintptr_t)p & (align - 1)) == 0);
    if (n) memset(p, 0xa5, n);
    return;
  }
  default:
    return;
  }
  after(m, st);
}

static void run(vm *m, fz_in prog, unsigned depth) {
  if (depth > 64) return;
  while (prog.n && m->steps < MAX_STEPS && desert_reader_status(m->r) == DESERT_OK) {
    m->steps++;
    step(m, &prog, depth);
  }
}

FZ_TARGET(values) {
  fz_in in = {data, size};
  uint8_t flags = fz_u8(&in);
  size_t plen = fz_u8(&in), got;
  fz_in prog;
  prog.p = fz_bytes(&in, plen, &got);
  prog.n = got;

  desert_options o;
  fz_options(&o, fz_flags_from(flags));
  if (flags & 0x10u) {
    o.max_collection = 16;
    o.max_length = 64;
    o.max_depth = 4;
    o.max_decompressed = 1024;
  }
  desert_reader *r = fz_reader_new(&o);
  vm m;
  memset(&m, 0, sizeof m);
  m.r = r;
  m.data = in.p;
  m.len = in.n;
  /* Run twice on one reader: begin must forget everything of the first run. */
  for (int pass = 0; pass < 2; pass++) {
    fz_decode_begin(r, in.p, in.n);
    m.steps = 0;
    m.last_pos = 0;
    m.objects = 0;
    run(&m, prog, 0);
    desert_status st = fz_decode_end(r);
    static desert_status first;
    static size_t first_off, first_pos;
    if (pass == 0) {
      first = st;
      first_off = desert_reader_error_offset(r);
      first_pos = desert_reader_offset(r);
    } else {
      FZ_CHECK_MSG(st == first && desert_reader_error_offset(r) == first_off &&
                       desert_reader_offset(r) == first_pos,
                   "a reused reader decoded differently");
    }
    /* Sticky: another read returns the first error and moves nothing. */
    if (st) {
      size_t pos = desert_reader_offset(r);
      uint32_t v;
      FZ_CHECK(desert_read_var_u32(r, &v) == st);
      FZ_CHECK(desert_reader_offset(r) == pos);
    }
  }
  fz_reader_free(r);
  return 0;
}
