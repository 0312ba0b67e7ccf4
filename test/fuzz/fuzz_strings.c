/* test/fuzz/fuzz_strings.c — libFuzzer harness: String, DeduplicatedString
 * and characters (docs/format.md §4, §5) against an independent model.
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 = option flags (fz_flags_from; bit 4: max_length 16), then
 * the data, read as a sequence of items whose kinds come from byte 1 onward
 * of a separate selector stream (the last 1/8 of the input, cycled). Each
 * item is predicted by a model that decodes the varint length by itself,
 * keeps its own DeduplicatedString table (docs/format.md §5.2) and validates
 * UTF-8 byte by byte; the reader must agree on status, error offset,
 * consumed bytes and the text. */
#include <string.h>

#include "fuzz_common.h"

#define MAX_IDS 4096

typedef struct model {
  const uint8_t *data;
  size_t len;
  unsigned flags;
  size_t max_length;
  desert_str ids[MAX_IDS]; /* the model's string table: texts as returned */
  size_t count;
} model;

/* Independent var_u32 decode at data[at]: returns the status and sets
 * *next and *v. */
static desert_status var_u32(const model *m, size_t at, size_t *next, uint32_t *v) {
  uint32_t x = 0;
  for (unsigned k = 0; k < 5; k++) {
    if (at + k >= m->len) return DESERT_E_INPUT_ENDED;
    uint8_t b = m->data[at + k];
    x |= (uint32_t)(b & 0x7fu) << (7 * k);
    if (!(b & 0x80u) || (k == 4 && (m->flags & DESERT_OPT_LENIENT_VARINT))) {
      *next = at + k + 1;
      *v = x;
      return DESERT_OK;
    }
  }
  return DESERT_E_VARINT_TOO_LONG;
}

static int32_t unzigzag(uint32_t u) {
  uint32_t m = (u >> 1) ^ (0u - (u & 1u));
  int32_t r;
  memcpy(&r, &m, sizeof r);
  return r;
}

static bool same(desert_str a, desert_str b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static void expect(desert_reader *r, desert_status got, desert_status want, size_t want_off,
                   const char *what) {
  FZ_CHECK_MSG(got == want, "%s: got %s, model says %s", what, desert_status_name(got),
               desert_status_name(want));
  if (want != DESERT_OK)
    FZ_CHECK_MSG(desert_reader_error_offset(r) == want_off, "%s: %s at %zu, model says %zu", what,
                 desert_status_name(got), desert_reader_error_offset(r), want_off);
}

/* One String or DeduplicatedString; returns false once the reader failed. */
static bool string_item(desert_reader *r, model *m, bool dedup) {
  size_t at = desert_reader_offset(r), body;
  uint32_t u;
  desert_str s = {NULL, 0};
  desert_status got = dedup ? desert_read_dedup_string(r, &s) : desert_read_string(r, &s);
  desert_status want = var_u32(m, at, &body, &u);
  if (want) {
    expect(r, got, want, at, "length varint");
    return false;
  }
  int32_t n = unzigzag(u);
  if (n < 0) {
    if (!dedup) {
      expect(r, got, DESERT_E_NEGATIVE_LENGTH, at, "negative length");
      return false;
    }
    int64_t id = -(int64_t)n;
    if ((uint64_t)id > m->count) {
      expect(r, got, DESERT_E_INVALID_STRING_ID, at, "unknown string id");
      return false;
    }
    expect(r, got, DESERT_OK, 0, "string id");
    FZ_CHECK_MSG(same(s, m->ids[id - 1]), "string id %lld resolved to other text", (long long)id);
    FZ_CHECK(desert_reader_offset(r) == body);
    return true;
  }
  if ((size_t)n > m->max_length) {
    expect(r, got, DESERT_E_LIMIT, at, "length above max_length");
    return false;
  }
  if ((size_t)n > m->len - body) {
    expect(r, got, DESERT_E_INPUT_ENDED, body, "string cut short");
    return false;
  }
  const uint8_t *text = m->data + body;
  if (!fz_utf8_ok(text, (size_t)n) && !(m->flags & DESERT_OPT_LENIENT_UTF8)) {
    expect(r, got, DESERT_E_INVALID_UTF8, body, "invalid UTF-8");
    return false;
  }
  expect(r, got, DESERT_OK, 0, "string");
  FZ_CHECK(desert_reader_offset(r) == body + (size_t)n);
  FZ_CHECK(fz_utf8_ok((const uint8_t *)s.ptr, s.len));
  if (fz_utf8_ok(text, (size_t)n)) {
    FZ_CHECK_MSG(s.ptr == (const char *)text && s.len == (size_t)n, "valid text is not a view");
  } else {
    /* Lenient: every malformed unit became U+FFFD; at most 3 bytes per byte. */
    FZ_CHECK(s.len <= 3 * (size_t)n && s.len >= 3);
    FZ_CHECK(!fz_inside(s.ptr, s.len, m->data, m->len));
  }
  if (dedup) {
    size_t k;
    for (k = 0; k < m->count; k++)
      if (same(m->ids[k], s)) break;
    if (k == m->count && m->count < MAX_IDS) m->ids[m->count++] = s;
    if (k == m->count && m->count == MAX_IDS) return false; /* model full: stop */
  }
  return true;
}

static bool char_item(desert_reader *r, model *m, bool char16) {
  size_t at = desert_reader_offset(r);
  uint32_t cp = 0, want_cp;
  uint16_t unit = 0;
  desert_status got = char16 ? desert_read_char16(r, &unit) : desert_read_char(r, &cp);
  size_t next = at + 2;
  desert_status want = DESERT_OK;
  if (char16 || (m->flags & DESERT_OPT_SCALA_CHARS)) {
    if (m->len - at < 2) want = DESERT_E_INPUT_ENDED;
    else want_cp = (uint32_t)m->data[at] << 8 | m->data[at + 1];
  } else {
    want = var_u32(m, at, &next, &want_cp);
  }
  if (want) {
    expect(r, got, want, at, "char");
    return false;
  }
  if (char16) {
    expect(r, got, DESERT_OK, 0, "char16");
    FZ_CHECK(unit == want_cp);
  } else if ((want_cp >= 0xd800 && want_cp <= 0xdfff) || want_cp > 0x10ffff) {
    expect(r, got, DESERT_E_INVALID_CHAR, at, "char");
    return false;
  } else {
    expect(r, got, DESERT_OK, 0, "char");
    FZ_CHECK(cp == want_cp);
  }
  FZ_CHECK(desert_reader_offset(r) == next);
  return true;
}

FZ_TARGET(strings) {
  if (size < 2) return 0;
  uint8_t flags = data[0];
  size_t sel_len = (size - 1) / 8 + 1;
  const uint8_t *sel = data + size - sel_len;
  static model m;
  memset(&m, 0, sizeof m);
  m.data = data + 1;
  m.len = size - 1 - sel_len;
  m.flags = fz_flags_from(flags);
  desert_options o;
  fz_options(&o, m.flags);
  if (flags & 0x10u) o.max_length = 16;
  m.max_length = o.max_length ? o.max_length : DESERT_DEFAULT_MAX_LENGTH;
  desert_reader *r = fz_reader_new(&o);
  fz_decode_begin(r, m.data, m.len);
  for (size_t i = 0; desert_reader_remaining(r) > 0 && i < 100000; i++) {
    uint8_t kind = sel[i % sel_len] % 8u;
    bool ok;
    if (kind < 3) ok = string_item(r, &m, false);
    else if (kind < 6) ok = string_item(r, &m, true);
    else ok = char_item(r, &m, kind == 7);
    if (!ok) break;
  }
  fz_decode_end(r);
  fz_reader_free(r);
  return 0;
}
