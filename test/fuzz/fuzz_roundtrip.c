/* test/fuzz/fuzz_roundtrip.c — libFuzzer harness: writer -> reader round
 * trip. Values built from the input are written through the three writer
 * modes (growable, size-only, exact caller buffer: same size, same bytes),
 * read back in the same order and compared.
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 = option flags (scala chars, lenient UTF-8 for the UTF-16
 * writer); then items: an op byte and the bytes the op takes for its value
 * (fixed-width values, lengths, text, levels). Out-of-domain inputs are
 * mapped into the domain (dates, chars) so every write must succeed. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

enum {
  R_U8, R_I16, R_U32, R_I64, R_U128, R_F32, R_F64, R_BOOL, R_VU32, R_VI32, R_CHAR, R_CHAR16,
  R_STRING, R_LATIN1, R_UTF16, R_DEDUP, R_BYTES, R_U32_ARRAY, R_VI32_ARRAY, R_STREAM, R_OPTION,
  R_UUID, R_COMP, R_REF, R_TYPE_ID, R_DURATION, R_DATE_TIME, R_ZONED, R_BIGINT, R_RAW,
  R_COUNT_
};

#define MAX_ITEMS 64
#define MAX_TEXT 64

typedef struct item {
  unsigned op;
  uint64_t a, b;
  const uint8_t *p; /* bytes from the input */
  size_t n;
} item;

static const char *const dedup_pool[4] = {"same", "other", "", "s\xc3\xa9"};
static uint8_t objects[8];

static uint32_t valid_cp(uint64_t a) {
  uint32_t cp = (uint32_t)(a % 0x110000u);
  if (cp >= 0xd800 && cp <= 0xdfff) cp -= 0x800;
  return cp;
}

static desert_local_date_time make_ldt(uint64_t a, uint64_t b) {
  desert_local_date_time v;
  v.date.year = (int32_t)(a % 1999999999u) - 999999999;
  v.date.month = (uint8_t)(1 + (a >> 32) % 12);
  v.date.day = (uint8_t)(1 + (a >> 40) % 28);
  v.time.hour = (uint8_t)(b % 24);
  v.time.minute = (uint8_t)((b >> 8) % 60);
  v.time.second = (uint8_t)((b >> 16) % 60);
  v.time.nano = (uint32_t)((b >> 24) % 1000000000u);
  return v;
}

static size_t parse(const uint8_t *data, size_t size, item *items) {
  fz_in in = {data, size};
  size_t k = 0;
  while (in.n && k < MAX_ITEMS) {
    item *it = &items[k++];
    it->op = fz_u8(&in) % R_COUNT_;
    it->a = fz_u64(&in);
    it->b = 0;
    it->p = NULL;
    it->n = 0;
    if (it->op == R_U128 || it->op == R_DATE_TIME || it->op == R_ZONED || it->op == R_DURATION)
      it->b = fz_u64(&in);
    if (it->op == R_STRING || it->op == R_LATIN1 || it->op == R_UTF16 || it->op == R_BYTES ||
        it->op == R_COMP || it->op == R_U32_ARRAY || it->op == R_VI32_ARRAY ||
        it->op == R_BIGINT || it->op == R_RAW || it->op == R_ZONED) {
      size_t want = (size_t)(it->a % MAX_TEXT), got;
      it->p = fz_bytes(&in, want, &got);
      it->n = got;
    }
  }
  return k;
}

static void put(desert_writer *w, const item *it) {
  uint64_t a = it->a;
  switch (it->op) {
  case R_U8: desert_write_u8(w, (uint8_t)a); break;
  case R_I16: desert_write_i16(w, (int16_t)(uint16_t)a); break;
  case R_U32: desert_write_u32(w, (uint32_t)a); break;
  case R_I64: desert_write_i64(w, (int64_t)a); break;
  case R_U128: { desert_u128 v = {a, it->b}; desert_write_u128(w, v); break; }
  case R_F32: desert_write_f32_bits(w, (uint32_t)a); break;
  case R_F64: desert_write_f64_bits(w, a); break;
  case R_BOOL: desert_write_bool(w, a & 1u); break;
  case R_VU32: desert_write_var_u32(w, (uint32_t)a); break;
  case R_VI32: desert_write_var_i32(w, (int32_t)(uint32_t)a); break;
  case R_CHAR: {
    const desert_options *o = desert_writer_options(w);
    uint32_t cp = valid_cp(a);
    if ((o->flags & DESERT_OPT_SCALA_CHARS) && cp > 0xffff) cp &= 0xffff;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0x41;
    desert_write_char(w, cp);
    break;
  }
  case R_CHAR16: desert_write_char16(w, (uint16_t)a); break;
  case R_STRING: {
    /* Valid UTF-8 made from the bytes: keep ASCII, map others to U+00xx. */
    char buf[2 * MAX_TEXT];
    size_t n = 0;
    for (size_t i = 0; i < it->n; i++) {
      uint8_t c = it->p[i];
      if (c < 0x80) buf[n++] = (char)c;
      else buf[n++] = (char)(0xc0 | c >> 6), buf[n++] = (char)(0x80 | (c & 0x3f));
    }
    desert_write_string(w, buf, n);
    break;
  }
  case R_LATIN1: desert_write_string_latin1(w, it->p, it->n); break;
  case R_UTF16: {
    uint16_t u[MAX_TEXT];
    size_t n = it->n / 2;
    memcpy(u, it->p, n * 2);
    /* Without lenient UTF-8 an unpaired surrogate fails: keep them only
     * when the writer replaces them. */
    if (!(desert_writer_options(w)->flags & DESERT_OPT_LENIENT_UTF8))
      for (size_t i = 0; i < n; i++)
        if (u[i] >= 0xd800 && u[i] <= 0xdfff) u[i] = 0x20;
    desert_write_string_utf16(w, u, n);
    break;
  }
  case R_DEDUP: desert_write_dedup_string(w, dedup_pool[a % 4], strlen(dedup_pool[a % 4])); break;
  case R_BYTES: desert_write_bytes(w, it->p, it->n); break;
  case R_U32_ARRAY: {
    uint32_t v[MAX_TEXT / 4];
    size_t n = it->n / 4;
    memcpy(v, it->p, n * 4);
    desert_write_count(w, n);
    desert_write_u32_array(w, v, n);
    break;
  }
  case R_VI32_ARRAY: {
    int32_t v[MAX_TEXT / 4];
    size_t n = it->n / 4;
    memcpy(v, it->p, n * 4);
    desert_write_count(w, n);
    desert_write_var_i32_array(w, v, n);
    break;
  }
  case R_STREAM: {
    size_t n = (size_t)(a % 5);
    desert_write_stream_begin(w);
    for (size_t i = 0; i < n; i++) {
      desert_write_stream_item(w);
      desert_write_u8(w, (uint8_t)(a >> (8 * i)));
    }
    desert_write_stream_end(w);
    break;
  }
  case R_OPTION:
    if ((a & 3u) == 0) desert_write_option(w, false);
    else if ((a & 3u) == 1) desert_write_option(w, true), desert_write_u8(w, (uint8_t)(a >> 8));
    else if ((a & 3u) == 2) desert_write_either(w, (a >> 8) & 1u);
    else desert_write_try(w, (a >> 8) & 1u);
    break;
  case R_UUID: {
    uint8_t u[16];
    memcpy(u, &a, 8);
    memcpy(u + 8, &a, 8);
    desert_write_uuid(w, u);
    break;
  }
  case R_COMP: {
    unsigned f = (unsigned)(a >> 8) % 3u;
    int level = (int)((a >> 16) % 7u) - 1;
    if (f == 2) desert_write_compressed_zstd(w, level, it->p, it->n);
    else desert_write_compressed(w, (desert_compression)f, level, it->p, it->n);
    break;
  }
  case R_REF: {
    bool is_new;
    desert_write_ref(w, &objects[a % 8], &is_new);
    if (is_new) desert_write_u8(w, (uint8_t)(a % 8));
    break;
  }
  case R_TYPE_ID: desert_write_type_id(w, (uint32_t)a); break;
  case R_DURATION: {
    desert_duration d = {(int64_t)it->b, (uint32_t)(a % 1000000000u)};
    if (a & (1ull << 63)) desert_write_instant(w, d);
    else desert_write_duration(w, d);
    break;
  }
  case R_DATE_TIME: {
    desert_offset_date_time v = {make_ldt(a, it->b), (int32_t)(it->b >> 40) % 64801};
    desert_write_offset_date_time(w, v);
    break;
  }
  case R_ZONED: {
    desert_zoned_date_time v;
    v.date_time = make_ldt(a, it->b);
    v.offset_seconds = (int32_t)((it->b >> 40) % 129601) - 64800;
    v.zone.is_region = it->n > 0;
    v.zone.offset_seconds = v.offset_seconds;
    v.zone.region.ptr = "Europe/Budapest";
    v.zone.region.len = (it->n % 16);
    desert_write_zoned_date_time(w, &v);
    break;
  }
  case R_BIGINT: {
    static const uint8_t zero = 0;
    if (it->n) desert_write_bigint(w, it->p, it->n);
    else desert_write_bigint(w, &zero, 1);
    break;
  }
  default: desert_write_raw(w, it->p, it->n); break;
  }
}

static void get(desert_reader *r, const item *it, unsigned *refs_seen) {
  uint64_t a = it->a;
  desert_status st = DESERT_OK;
#define EXPECT(cond) FZ_CHECK_MSG((cond), "op %u: value differs after the round trip", it->op)
  switch (it->op) {
  case R_U8: { uint8_t v = 0; st = desert_read_u8(r, &v); EXPECT(v == (uint8_t)a); break; }
  case R_I16: { int16_t v = 0; st = desert_read_i16(r, &v); EXPECT(v == (int16_t)(uint16_t)a); break; }
  case R_U32: { uint32_t v = 0; st = desert_read_u32(r, &v); EXPECT(v == (uint32_t)a); break; }
  case R_I64: { int64_t v = 0; st = desert_read_i64(r, &v); EXPECT(v == (int64_t)a); break; }
  case R_U128: { desert_u128 v = {0, 0}; st = desert_read_u128(r, &v); EXPECT(v.hi == a && v.lo == it->b); break; }
  case R_F32: { uint32_t v = 0; st = desert_read_f32_bits(r, &v); EXPECT(v == (uint32_t)a); break; }
  case R_F64: { uint64_t v = 0; st = desert_read_f64_bits(r, &v); EXPECT(v == a); break; }
  case R_BOOL: { bool v = 0; st = desert_read_bool(r, &v); EXPECT(v == (a & 1u)); break; }
  case R_VU32: { uint32_t v = 0; st = desert_read_var_u32(r, &v); EXPECT(v == (uint32_t)a); break; }
  case R_VI32: { int32_t v = 0; st = desert_read_var_i32(r, &v); EXPECT(v == (int32_t)(uint32_t)a); break; }
  case R_CHAR: {
    uint32_t cp = valid_cp(a), v = 0;
    if ((desert_reader_options(r)->flags & DESERT_OPT_SCALA_CHARS) && cp > 0xffff) cp &= 0xffff;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0x41;
    st = desert_read_char(r, &v);
    EXPECT(v == cp);
    break;
  }
  case R_CHAR16: { uint16_t v = 0; st = desert_read_char16(r, &v); EXPECT(v == (uint16_t)a); break; }
  case R_STRING:
  case R_LATIN1: {
    desert_str s = {NULL, 0};
    st = desert_read_string(r, &s);
    size_t k = 0;
    for (size_t i = 0; i < it->n; i++) {
      uint8_t c = it->p[i];
      if (c < 0x80) {
        EXPECT(k < s.len && (uint8_t)s.ptr[k] == c);
        k++;
      } else {
        EXPECT(k + 1 < s.len && (uint8_t)s.ptr[k] == (0xc0 | c >> 6) &&
               (uint8_t)s.ptr[k + 1] == (0x80 | (c & 0x3f)));
        k += 2;
      }
    }
    EXPECT(k == s.len);
    break;
  }
  case R_UTF16: {
    desert_str s = {NULL, 0};
    st = desert_read_string(r, &s);
    EXPECT(fz_utf8_ok((const uint8_t *)s.ptr, s.len));
    break;
  }
  case R_DEDUP: {
    desert_str s = {NULL, 0};
    st = desert_read_dedup_string(r, &s);
    const char *want = dedup_pool[a % 4];
    EXPECT(s.len == strlen(want) && (!s.len || memcmp(s.ptr, want, s.len) == 0));
    break;
  }
  case R_BYTES: {
    desert_bytes b = {NULL, 0};
    st = desert_read_bytes(r, &b);
    EXPECT(b.len == it->n && (!b.len || memcmp(b.ptr, it->p, b.len) == 0));
    break;
  }
  case R_U32_ARRAY:
  case R_VI32_ARRAY: {
    desert_seq seq;
    uint32_t v[MAX_TEXT / 4];
    size_t n = it->n / 4;
    st = desert_read_seq_begin(r, &seq);
    if (st) break;
    EXPECT(seq.known && seq.count == n);
    st = it->op == R_U32_ARRAY ? desert_read_u32_array(r, v, n)
                               : desert_read_var_i32_array(r, (int32_t *)v, n);
    EXPECT(!n || memcmp(v, it->p, n * 4) == 0);
    break;
  }
  case R_STREAM: {
    desert_seq seq;
    size_t n = (size_t)(a % 5), i = 0;
    st = desert_read_seq_begin(r, &seq);
    if (st) break;
    EXPECT(!seq.known);
    while (desert_read_seq_next(r, &seq)) {
      uint8_t v = 0;
      desert_read_u8(r, &v);
      EXPECT(i < n && v == (uint8_t)(a >> (8 * i)));
      i++;
    }
    st = desert_reader_status(r);
    EXPECT(st || i == n);
    break;
  }
  case R_OPTION: {
    bool one = false;
    unsigned kind = (unsigned)(a & 3u);
    if (kind <= 1) {
      st = desert_read_option(r, &one);
      EXPECT(one == (kind == 1));
      if (one) {
        uint8_t v = 0;
        st = desert_read_u8(r, &v);
        EXPECT(v == (uint8_t)(a >> 8));
      }
    } else {
      st = kind == 2 ? desert_read_either(r, &one) : desert_read_try(r, &one);
      EXPECT(one == ((a >> 8) & 1u));
    }
    break;
  }
  case R_UUID: {
    uint8_t u[16], want[16];
    memcpy(want, &a, 8);
    memcpy(want + 8, &a, 8);
    st = desert_read_uuid(r, u);
    EXPECT(memcmp(u, want, 16) == 0);
    break;
  }
  case R_COMP: {
    unsigned f = (unsigned)(a >> 8) % 3u;
    desert_bytes b = {NULL, 0};
    st = f == 2 ? desert_read_compressed_zstd(r, &b)
                : desert_read_compressed(r, (desert_compression)f, &b);
    EXPECT(b.len == it->n && (!b.len || memcmp(b.ptr, it->p, b.len) == 0));
    break;
  }
  case R_REF: {
    void *obj = (void *)1;
    st = desert_read_ref(r, &obj);
    if (st) break;
    if (!obj) {
      EXPECT(!(*refs_seen & (1u << (a % 8))));
      *refs_seen |= 1u << (a % 8);
      st = desert_reader_register_ref(r, &objects[a % 8]);
      uint8_t v = 0xff;
      desert_read_u8(r, &v);
      EXPECT(v == a % 8);
    } else {
      EXPECT(obj == &objects[a % 8]);
    }
    break;
  }
  case R_TYPE_ID: { uint32_t v = 0; st = desert_read_type_id(r, &v); EXPECT(v == (uint32_t)a); break; }
  case R_DURATION: {
    desert_duration d = {0, 0};
    st = (a & (1ull << 63)) ? desert_read_instant(r, &d) : desert_read_duration(r, &d);
    EXPECT(d.seconds == (int64_t)it->b && d.nanos == (uint32_t)(a % 1000000000u));
    break;
  }
  case R_DATE_TIME: {
    desert_offset_date_time v, want = {make_ldt(a, it->b), (int32_t)(it->b >> 40) % 64801};
    memset(&v, 0, sizeof v);
    st = desert_read_offset_date_time(r, &v);
    EXPECT(v.date_time.date.year == want.date_time.date.year &&
           v.date_time.date.month == want.date_time.date.month &&
           v.date_time.date.day == want.date_time.date.day &&
           v.date_time.time.hour == want.date_time.time.hour &&
           v.date_time.time.minute == want.date_time.time.minute &&
           v.date_time.time.second == want.date_time.time.second &&
           v.date_time.time.nano == want.date_time.time.nano &&
           v.offset_seconds == want.offset_seconds);
    break;
  }
  case R_ZONED: {
    desert_zoned_date_time v;
    memset(&v, 0, sizeof v);
    st = desert_read_zoned_date_time(r, &v);
    EXPECT(v.zone.is_region == (it->n > 0));
    if (v.zone.is_region)
      EXPECT(v.zone.region.len == it->n % 16 &&
             (!v.zone.region.len || memcmp(v.zone.region.ptr, "Europe/Budapest", it->n % 16) == 0));
    EXPECT(v.offset_seconds == (int32_t)((it->b >> 40) % 129601) - 64800);
    break;
  }
  case R_BIGINT: {
    desert_bytes b = {NULL, 0};
    st = desert_read_bigint(r, &b);
    /* The writer minimises: compare the values by sign extension. */
    if (!st && it->n) {
      uint8_t sign_in = (it->p[0] & 0x80) ? 0xff : 0x00;
      EXPECT(b.len >= 1 && b.len <= it->n);
      size_t pad = it->n - b.len;
      for (size_t i = 0; i < pad; i++) EXPECT(it->p[i] == sign_in);
      EXPECT(memcmp(b.ptr, it->p + pad, b.len) == 0);
    }
    break;
  }
  default: {
    const uint8_t *p = NULL;
    st = desert_read_raw(r, it->n, &p);
    EXPECT(!it->n || memcmp(p, it->p, it->n) == 0);
    break;
  }
  }
#undef EXPECT
  FZ_CHECK_MSG(st == DESERT_OK, "op %u: reading back failed: %s at %zu", it->op,
               desert_status_name(st), desert_reader_error_offset(r));
}

FZ_TARGET(roundtrip) {
  if (size < 1) return 0;
  unsigned flags = fz_flags_from(data[0]) & (DESERT_OPT_SCALA_CHARS | DESERT_OPT_LENIENT_UTF8);
  item items[MAX_ITEMS];
  size_t n = parse(data + 1, size - 1, items);

  desert_options wo;
  desert_options_init(&wo);
  wo.flags = flags;
  desert_writer *w = NULL;
  FZ_CHECK(desert_writer_create(&wo, &w) == DESERT_OK);
  for (size_t i = 0; i < n; i++) put(w, &items[i]);
  FZ_CHECK_MSG(desert_writer_status(w) == DESERT_OK, "writing failed: %s",
               desert_status_name(desert_writer_status(w)));
  size_t len;
  const uint8_t *p = desert_writer_data(w, &len);
  uint8_t *bytes = malloc(len ? len : 1);
  FZ_CHECK(bytes != NULL);
  if (len) memcpy(bytes, p, len);

  /* Size-only mode counts the same bytes; an exact caller buffer holds them;
   * one byte less fails with DST_TOO_SMALL. */
  desert_writer_count_only(w);
  for (size_t i = 0; i < n; i++) put(w, &items[i]);
  FZ_CHECK(desert_writer_status(w) == DESERT_OK && desert_writer_size(w) == len);
  uint8_t *fixed = malloc(len ? len : 1);
  FZ_CHECK(fixed != NULL);
  FZ_CHECK(desert_writer_use_buffer(w, fixed, len) == DESERT_OK);
  for (size_t i = 0; i < n; i++) put(w, &items[i]);
  FZ_CHECK(desert_writer_status(w) == DESERT_OK && desert_writer_size(w) == len);
  FZ_CHECK(!len || memcmp(fixed, bytes, len) == 0);
  if (len) {
    FZ_CHECK(desert_writer_use_buffer(w, fixed, len - 1) == DESERT_OK);
    for (size_t i = 0; i < n; i++) put(w, &items[i]);
    FZ_CHECK(desert_writer_status(w) == DESERT_E_DST_TOO_SMALL);
  }
  free(fixed);
  desert_writer_free(w);

  desert_options ro;
  fz_options(&ro, flags);
  desert_reader *r = fz_reader_new(&ro);
  fz_decode_begin(r, bytes, len);
  unsigned refs_seen = 0;
  for (size_t i = 0; i < n; i++) get(r, &items[i], &refs_seen);
  FZ_CHECK_MSG(desert_reader_offset(r) == len, "read %zu of %zu bytes", desert_reader_offset(r),
               len);
  fz_decode_end(r);
  fz_reader_free(r);
  free(bytes);
  return 0;
}
