/* test/test_codec_strings.c — plain String values (docs/format.md §5.1): the
 * examples from UTF-8, UTF-16 and Latin-1 input, zero-copy views on read,
 * long strings through the SIMD kernels under every runnable ISA, invalid
 * UTF-8 (strict error at the first string byte; lenient U+FFFD replacement
 * byte-for-byte like Java's new String(bytes, UTF_8)), unpaired surrogates
 * on write (error, or '?' like Java's getBytes in lenient mode).
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/reader.h"
#include "desert/writer.h"
#include "codec_testlib.h"
#include "oracle.h"
#include "test_util.h"

/* ---- helpers ---------------------------------------------------------------- */

/* var_i32(len) of a string length (len < 2^31). */
static size_t put_len(uint8_t *p, size_t len) {
  uint32_t zz = desert_oracle_zigzag((int32_t)len);
  return desert_oracle_var_u32_encode(p, &zz, 1);
}

/* Encoded string: var_i32(len) + bytes, into out; returns total length. */
static size_t enc_string(uint8_t *out, const void *utf8, size_t len) {
  size_t h = put_len(out, len);
  if (len) memcpy(out + h, utf8, len);
  return h + len;
}

/* ---- the examples of docs/format.md §5.1 ------------------------------------------ */

static void test_examples_from_utf8(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_string(w, "hello", 5), DESERT_OK);
  ct_expect_out(w, "0a 68 65 6c 6c 6f");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string(w, "", 0), DESERT_OK);
  ct_expect_out(w, "00");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string(w, NULL, 0), DESERT_OK);
  ct_expect_out(w, "00");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string(w, "\xc3\xa9", 2), DESERT_OK);
  ct_expect_out(w, "04 c3 a9");
  desert_writer_reset(w);
  assert_int_equal(desert_write_cstring(w, "hello"), DESERT_OK);
  assert_int_equal(desert_write_cstring(w, ""), DESERT_OK);
  assert_int_equal(desert_write_cstring(w, "\xc3\xa9"), DESERT_OK);
  ct_expect_out(w, "0a 68 65 6c 6c 6f | 00 | 04 c3 a9");
  /* length counts bytes: "€😀" = 3 + 4 bytes -> 0e */
  desert_writer_reset(w);
  assert_int_equal(desert_write_cstring(w, "\xe2\x82\xac\xf0\x9f\x98\x80"), DESERT_OK);
  ct_expect_out(w, "0e e2 82 ac f0 9f 98 80");
  /* an embedded NUL is an ordinary character */
  desert_writer_reset(w);
  assert_int_equal(desert_write_string(w, "a\0b", 3), DESERT_OK);
  ct_expect_out(w, "06 61 00 62");
  /* 64 bytes: the length needs two bytes (var_i32 64 = 80 01) */
  char s64[64];
  memset(s64, 'z', sizeof s64);
  desert_writer_reset(w);
  assert_int_equal(desert_write_string(w, s64, 64), DESERT_OK);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(len, 66);
  assert_int_equal(d[0], 0x80);
  assert_int_equal(d[1], 0x01);
  assert_memory_equal(d + 2, s64, 64);
  desert_writer_free(w);
}

static void test_examples_from_utf16(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  const uint16_t hello[] = {'h', 'e', 'l', 'l', 'o'};
  const uint16_t e_acute[] = {0x00e9};
  const uint16_t smile[] = {0xD83D, 0xDE00};
  const uint16_t euro[] = {0x20AC};
  const uint16_t mixed[] = {'a', 0x7ff, 0x800, 0xFFFF, 0xDBFF, 0xDFFF};
  assert_int_equal(desert_write_string_utf16(w, hello, 5), DESERT_OK);
  ct_expect_out(w, "0a 68 65 6c 6c 6f");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_utf16(w, NULL, 0), DESERT_OK);
  ct_expect_out(w, "00");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_utf16(w, e_acute, 1), DESERT_OK);
  ct_expect_out(w, "04 c3 a9");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_utf16(w, smile, 2), DESERT_OK);
  ct_expect_out(w, "08 f0 9f 98 80");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_utf16(w, euro, 1), DESERT_OK);
  ct_expect_out(w, "06 e2 82 ac");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_utf16(w, mixed, 6), DESERT_OK);
  /* 1 + 2 + 3 + 3 + 4 = 13 bytes -> 1a */
  ct_expect_out(w, "1a 61 df bf e0 a0 80 ef bf bf f4 8f bf bf");
  desert_writer_free(w);
}

static void test_examples_from_latin1(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  const uint8_t hello[] = {'h', 'e', 'l', 'l', 'o'};
  const uint8_t e_acute[] = {0xe9};
  const uint8_t edge[] = {0x00, 0x7f, 0x80, 0xff};
  assert_int_equal(desert_write_string_latin1(w, hello, 5), DESERT_OK);
  ct_expect_out(w, "0a 68 65 6c 6c 6f");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_latin1(w, NULL, 0), DESERT_OK);
  ct_expect_out(w, "00");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_latin1(w, e_acute, 1), DESERT_OK);
  ct_expect_out(w, "04 c3 a9");
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_latin1(w, edge, 4), DESERT_OK);
  ct_expect_out(w, "0c 00 7f c2 80 c3 bf");
  desert_writer_free(w);
}

static void test_decode_examples(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  uint8_t buf[64];
  size_t n =
      ct_hex_to("0a 68 65 6c 6c 6f | 00 | 04 c3 a9 | 0e e2 82 ac f0 9f 98 80", buf, sizeof buf);
  assert_int_equal(desert_reader_begin(r, buf, n), DESERT_OK);
  desert_str s = {NULL, 99};
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, 5);
  assert_memory_equal(s.ptr, "hello", 5);
  assert_ptr_equal(s.ptr, (const char *)buf + 1); /* zero-copy view */
  assert_int_equal(desert_reader_offset(r), 6);
  s.len = 99;
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, 0);
  assert_int_equal(desert_reader_offset(r), 7);
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, 2);
  assert_memory_equal(s.ptr, "\xc3\xa9", 2);
  assert_ptr_equal(s.ptr, (const char *)buf + 8);
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, 7);
  assert_memory_equal(s.ptr, "\xe2\x82\xac\xf0\x9f\x98\x80", 7);
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_reader_remaining(r), 0);

  /* an overlong length varint is accepted (8a 00 = 10 zig-zag = 5) */
  n = ct_hex_to("8a 00 68 65 6c 6c 6f", buf, sizeof buf);
  assert_int_equal(desert_reader_begin(r, buf, n), DESERT_OK);
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, 5);
  assert_memory_equal(s.ptr, "hello", 5);
  assert_int_equal(desert_reader_offset(r), 7);
  desert_reader_free(r);

  /* lenient UTF-8 mode still returns valid strings as views */
  r = ct_new_reader(DESERT_OPT_LENIENT_UTF8);
  n = ct_hex_to("04 c3 a9", buf, sizeof buf);
  assert_int_equal(desert_reader_begin(r, buf, n), DESERT_OK);
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_ptr_equal(s.ptr, (const char *)buf + 1);
  assert_int_equal(s.len, 2);
  desert_reader_free(r);
}

/* ---- long strings: every input form, every ISA ------------------------------- */

static uint32_t rand_cp(desert_rng *g, int cls) {
  switch (cls) {
  case 0: return 0x20 + desert_rng_below(g, 0x5f);
  case 1: return 0x80 + desert_rng_below(g, 0x780);
  case 2: {
    uint32_t c = 0x800 + desert_rng_below(g, 0xF800);
    return (c >= 0xD800 && c <= 0xDFFF) ? c + 0x800 : c;
  }
  default: return 0x10000 + desert_rng_below(g, 0x100000);
  }
}

static void test_long_strings_every_isa(void **state) {
  (void)state;
  static const size_t lens[] = {0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 1000, 4099};
  uint16_t *u16 = malloc(8192 * sizeof *u16);
  uint8_t *utf8 = malloc(20000), *latin = malloc(8192), *want = malloc(20010);
  assert_non_null(u16);
  assert_non_null(utf8);
  assert_non_null(latin);
  assert_non_null(want);
  int ran = 0;
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    ran++;
    desert_writer *w = ct_new_writer_isa(0, (desert_isa)isa);
    desert_reader *r = ct_new_reader_isa(0, (desert_isa)isa);
    desert_rng g;
    desert_rng_init_test(&g, 0x57a1u);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
      for (int mix = 0; mix < 5; mix++) {
        /* mix 0: ASCII only; 1..3: one class sprinkled into ASCII; 4: all */
        size_t units = lens[li], u = 0, o = 0;
        while (u < units) {
          int cls = mix == 0 ? 0 : mix == 4 ? (int)desert_rng_below(&g, 4)
                                            : (desert_rng_below(&g, 4) == 0 ? mix : 0);
          uint32_t cp = rand_cp(&g, cls);
          if (cp >= 0x10000 && u + 2 > units) cp = 'q';
          if (cp >= 0x10000) {
            u16[u++] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
            u16[u++] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
          } else {
            u16[u++] = (uint16_t)cp;
          }
          o += desert_oracle_utf8_encode_one(cp, utf8 + o);
        }
        /* from UTF-8 */
        desert_writer_reset(w);
        assert_int_equal(desert_write_string(w, (const char *)utf8, o), DESERT_OK);
        size_t wn = enc_string(want, utf8, o), len;
        const uint8_t *d = desert_writer_data(w, &len);
        desert_assert_bytes_equal(want, wn, d, len);
        /* from UTF-16: the same bytes */
        desert_writer_reset(w);
        assert_int_equal(desert_write_string_utf16(w, u16, units), DESERT_OK);
        d = desert_writer_data(w, &len);
        desert_assert_bytes_equal(want, wn, d, len);
        /* read back: a view, same bytes */
        assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
        desert_str s;
        assert_int_equal(desert_read_string(r, &s), DESERT_OK);
        desert_assert_bytes_equal(utf8, o, s.ptr, s.len);
        assert_ptr_equal(s.ptr, (const char *)d + (wn - o));
        assert_int_equal(desert_reader_remaining(r), 0);
      }
      /* Latin-1 of the same length: every byte value */
      size_t n = lens[li], o = 0;
      for (size_t k = 0; k < n; k++) {
        latin[k] = (uint8_t)desert_rng_below(&g, 256);
        o += desert_oracle_utf8_encode_one(latin[k], utf8 + o);
      }
      desert_writer_reset(w);
      assert_int_equal(desert_write_string_latin1(w, latin, n), DESERT_OK);
      size_t wn = enc_string(want, utf8, o), len;
      const uint8_t *d = desert_writer_data(w, &len);
      desert_assert_bytes_equal(want, wn, d, len);
      assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
      desert_str s;
      assert_int_equal(desert_read_string(r, &s), DESERT_OK);
      desert_assert_bytes_equal(utf8, o, s.ptr, s.len);
    }
    desert_reader_free(r);
    desert_writer_free(w);
  }
  assert_true(ran >= 1);
  free(u16);
  free(utf8);
  free(latin);
  free(want);
}

/* ---- invalid UTF-8 ------------------------------------------------------------- */

/* Ill-formed sequences (docs/format.md §5.1; kernels.h's strict definition). */
static const char *const bad_utf8[] = {
    "c0 80",          /* overlong NUL */
    "c1 bf",          /* overlong */
    "e0 80 80",       /* overlong 3-byte */
    "e0 9f bf",       /* overlong 3-byte, max */
    "f0 80 80 80",    /* overlong 4-byte */
    "f0 8f bf bf",    /* overlong 4-byte, max */
    "ed a0 80",       /* surrogate U+D800 */
    "ed bf bf",       /* surrogate U+DFFF */
    "ed a0 80 ed b0 80", /* CESU-8 pair */
    "f4 90 80 80",    /* above U+10FFFF */
    "f5 80 80 80",    /* never a lead */
    "f8 88 80 80 80", /* 5-byte form */
    "fe", "ff",
    "80",             /* stray continuation */
    "bf",
    "c3",             /* cut 2-byte */
    "e2 82",          /* cut 3-byte */
    "f0 9f 98",       /* cut 4-byte */
    "c3 28",          /* bad continuation */
    "e2 28 a1",
    "e2 82 28",
    "f0 28 8c bc",
    "f0 90 28 bc",
    "f0 90 8c 28",
};

/* Strict reading fails with the first string byte as offset, whatever the
 * position of the bad sequence inside the string and its length. */
static void test_read_invalid_utf8_strict(void **state) {
  (void)state;
  static const size_t pads[][2] = {{0, 0}, {1, 0}, {0, 1}, {15, 0}, {16, 3}, {31, 40},
                                   {64, 0}, {63, 64}, {100, 200}};
  uint8_t *in = malloc(1024);
  assert_non_null(in);
  int ran = 0;
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    ran++;
    desert_reader *r = ct_new_reader_isa(0, (desert_isa)isa);
    for (size_t bi = 0; bi < sizeof bad_utf8 / sizeof bad_utf8[0]; bi++) {
      uint8_t bad[8];
      size_t bn = ct_hex_to(bad_utf8[bi], bad, sizeof bad);
      for (size_t pi = 0; pi < sizeof pads / sizeof pads[0]; pi++) {
        size_t before = pads[pi][0], after = pads[pi][1];
        uint8_t body[400];
        memset(body, 'a', before);
        memcpy(body + before, bad, bn);
        memset(body + before + bn, 'b', after);
        size_t blen = before + bn + after;
        /* 3 bytes of something else first, so offsets are not 0 */
        in[0] = 0x11;
        in[1] = 0x22;
        in[2] = 0x33;
        size_t hl = put_len(in + 3, blen);
        memcpy(in + 3 + hl, body, blen);
        size_t total = 3 + hl + blen;
        assert_int_equal(desert_reader_begin(r, in, total), DESERT_OK);
        const uint8_t *raw;
        assert_int_equal(desert_read_raw(r, 3, &raw), DESERT_OK);
        desert_str s = {"untouched", 9};
        desert_status st = desert_read_string(r, &s);
        if (st != DESERT_E_INVALID_UTF8 || desert_reader_error_offset(r) != 3 + hl) {
          print_error("isa %s, bad %s, before %zu after %zu: status %s offset %zu (want "
                      "DESERT_E_INVALID_UTF8 at %zu)\n",
                      desert_isa_name((desert_isa)isa), bad_utf8[bi], before, after,
                      desert_status_name(st), desert_reader_error_offset(r), 3 + hl);
          fail();
        }
        assert_int_equal(s.len, 9);
        assert_string_equal(s.ptr, "untouched");
        /* the writer refuses the same text */
        desert_writer *w = ct_new_writer_isa(0, (desert_isa)isa);
        assert_int_equal(desert_write_string(w, (const char *)body, blen), DESERT_E_INVALID_UTF8);
        assert_int_equal(desert_writer_size(w), 0);
        assert_int_equal(desert_write_u8(w, 1), DESERT_E_INVALID_UTF8); /* sticky */
        desert_writer_free(w);
      }
    }
    desert_reader_free(r);
  }
  assert_true(ran >= 1);
  free(in);
}

/* The writer never accepts invalid UTF-8, even with DESERT_OPT_LENIENT_UTF8
 * (that flag only touches UTF-16 input on write). */
static void test_write_invalid_utf8_lenient_flag(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(DESERT_OPT_LENIENT_UTF8);
  assert_int_equal(desert_write_string(w, "\xc3", 1), DESERT_E_INVALID_UTF8);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_reset(w);
  assert_int_equal(desert_write_dedup_string(w, "\xed\xa0\x80", 3), DESERT_E_INVALID_UTF8);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_reset(w);
  assert_int_equal(desert_write_cstring(w, "ok\x80"), DESERT_E_INVALID_UTF8);
  desert_writer_free(w);
}

/* Lenient reading: each ill-formed part becomes U+FFFD (ef bf bd) exactly as
 * Java's new String(bytes, UTF_8) does (desert-scala's string codec). */
static const struct {
  const char *in;
  const char *out;
} lenient_cases[] = {
    {"c0 80", "ef bf bd ef bf bd"},
    {"61 80 62", "61 ef bf bd 62"},
    {"80", "ef bf bd"},
    {"bf bf", "ef bf bd ef bf bd"},
    {"c3", "ef bf bd"},
    {"c3 28", "ef bf bd 28"},
    {"e1 80", "ef bf bd"},                 /* cut 3-byte: one U+FFFD */
    {"e2 82 28", "ef bf bd 28"},
    {"e2 28 a1", "ef bf bd 28 ef bf bd"},
    {"e0 80 80", "ef bf bd ef bf bd ef bf bd"},
    {"e0 80", "ef bf bd ef bf bd"},
    {"f0 9f 98", "ef bf bd"},              /* cut 4-byte */
    {"f0 9f 98 41", "ef bf bd 41"},
    {"f0 9f 41", "ef bf bd 41"},
    {"f0 80 80 80", "ef bf bd ef bf bd ef bf bd ef bf bd"},
    {"f4 90 80 80", "ef bf bd ef bf bd ef bf bd ef bf bd"},
    {"f5 80 80 80", "ef bf bd ef bf bd ef bf bd ef bf bd"},
    {"f8 88 80 80 80", "ef bf bd ef bf bd ef bf bd ef bf bd ef bf bd"},
    {"fe ff", "ef bf bd ef bf bd"},
    {"ed 9f bf", "ed 9f bf"},              /* U+D7FF is fine */
    {"ee 80 80", "ee 80 80"},              /* U+E000 is fine */
    {"f4 8f bf bf", "f4 8f bf bf"},        /* U+10FFFF is fine */
    {"41 c3 a9 ff 42", "41 c3 a9 ef bf bd 42"},
};

/* Java decodes a 3-byte encoded surrogate (ED A0..BF xx) as ONE U+FFFD for
 * the whole sequence (String.decodeUTF8_UTF16: decode3 then isSurrogate ->
 * one REPL, 3 bytes consumed; ED A0 + non-continuation: malformed3() = 2
 * bytes -> one REPL; ED A0 at the end: one REPL). */
static const struct {
  const char *in;
  const char *out;
} lenient_surrogate_cases[] = {
    {"ed a0 80", "ef bf bd"},
    {"ed bf bf", "ef bf bd"},
    {"ed a0 80 ed b0 80", "ef bf bd ef bf bd"},
    {"61 ed b0 80 62", "61 ef bf bd 62"},
    {"ed a0 41", "ef bf bd 41"},
    {"ed a0", "ef bf bd"},
};

/* Reads the string of in_hex (padded with `pad` ASCII bytes each side) in
 * lenient mode; returns true when the result is exactly out_hex (padded),
 * printing the difference otherwise. */
static bool lenient_ok(desert_reader *r, const char *in_hex, const char *out_hex, size_t pad) {
  uint8_t body[600], want[900], in[700];
  size_t bn = ct_hex_to(in_hex, body + pad, sizeof body - 2 * pad);
  memset(body, 'p', pad);
  memset(body + pad + bn, 's', pad);
  size_t blen = bn + 2 * pad;
  size_t wn = ct_hex_to(out_hex, want + pad, sizeof want - 2 * pad);
  memset(want, 'p', pad);
  memset(want + pad + wn, 's', pad);
  size_t wlen = wn + 2 * pad;
  size_t total = enc_string(in, body, blen);
  assert_int_equal(desert_reader_begin(r, in, total), DESERT_OK);
  desert_str s = {NULL, 0};
  desert_status st = desert_read_string(r, &s);
  if (st != DESERT_OK) {
    print_error("lenient read of [%s] (pad %zu): %s\n", in_hex, pad, desert_status_name(st));
    return false;
  }
  if (s.len != wlen || memcmp(s.ptr, want, wlen) != 0) {
    char got[600];
    desert_hex_encode(s.ptr + pad, s.len >= 2 * pad ? s.len - 2 * pad : 0, got, sizeof got);
    print_error("lenient decode of [%s] (pad %zu): got [%s], want [%s]\n", in_hex, pad, got,
                out_hex);
    return false;
  }
  if (desert_reader_remaining(r) != 0) return false;
  /* the replaced text is itself valid UTF-8 */
  size_t pos;
  return desert_oracle_utf8_validate((const uint8_t *)s.ptr, s.len, &pos) == DESERT_OK;
}

static void check_lenient(desert_reader *r, const char *in_hex, const char *out_hex, size_t pad) {
  if (!lenient_ok(r, in_hex, out_hex, pad)) {
    desert_reader_free(r);
    fail();
  }
}

static void test_read_invalid_utf8_lenient(void **state) {
  (void)state;
  static const size_t pads[] = {0, 1, 16, 40};
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    desert_reader *r = ct_new_reader_isa(DESERT_OPT_LENIENT_UTF8, (desert_isa)isa);
    for (size_t i = 0; i < sizeof lenient_cases / sizeof lenient_cases[0]; i++)
      for (size_t p = 0; p < sizeof pads / sizeof pads[0]; p++)
        check_lenient(r, lenient_cases[i].in, lenient_cases[i].out, pads[p]);
    desert_reader_free(r);
  }
  /* a replaced string is a copy (in the reader's arena), not a view */
  desert_reader *r = ct_new_reader(DESERT_OPT_LENIENT_UTF8);
  uint8_t in[8];
  size_t n = ct_hex_to("06 61 80 62", in, sizeof in);
  assert_int_equal(desert_reader_begin(r, in, n), DESERT_OK);
  desert_str s;
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_true(s.ptr < (const char *)in || s.ptr >= (const char *)in + n);
  assert_int_equal(s.len, 5);
  assert_memory_equal(s.ptr, "a\xef\xbf\xbd" "b", 5);
  desert_reader_free(r);
}

static void test_read_lenient_utf8_surrogates_like_java(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(DESERT_OPT_LENIENT_UTF8);
  size_t bad = 0;
  for (size_t i = 0; i < sizeof lenient_surrogate_cases / sizeof lenient_surrogate_cases[0]; i++)
    for (size_t pad = 0; pad <= 20; pad += 20)
      if (!lenient_ok(r, lenient_surrogate_cases[i].in, lenient_surrogate_cases[i].out, pad)) bad++;
  desert_reader_free(r);
  assert_int_equal(bad, 0);
}

/* ---- random inputs against a model of Java's decoder ------------------------------ */

/* Java's String(bytes, UTF_8) (JDK 17 String.decodeUTF8_UTF16, same
 * results as JDK 8's ArrayDecoder path), re-encoded as UTF-8: valid
 * sequences are copied, every REPL is ef bf bd. A transcription of the
 * JDK's rules, not of libdesert's code. */
static bool j_notcont(int b) { return (b & 0xc0) != 0x80; }
static bool j_mal3(int b1, int b2, int b3) {
  return (b1 == 0xe0 && (b2 & 0xe0) == 0x80) || j_notcont(b2) || j_notcont(b3);
}
static bool j_mal3_2(int b1, int b2) { return (b1 == 0xe0 && (b2 & 0xe0) == 0x80) || j_notcont(b2); }
static bool j_mal4_2(int b1, int b2) {
  return (b1 == 0xf0 && (b2 < 0x90 || b2 > 0xbf)) || (b1 == 0xf4 && (b2 & 0xf0) != 0x80) ||
         j_notcont(b2);
}
static size_t j_malformed3(const uint8_t *s, size_t sp) {
  int b1 = s[sp], b2 = s[sp + 1];
  return ((b1 == 0xe0 && (b2 & 0xe0) == 0x80) || j_notcont(b2)) ? 1 : 2;
}
static size_t j_malformed4(const uint8_t *s, size_t sp) {
  int b1 = s[sp], b2 = s[sp + 1];
  if (b1 > 0xf4 || (b1 == 0xf0 && (b2 < 0x90 || b2 > 0xbf)) ||
      (b1 == 0xf4 && (b2 & 0xf0) != 0x80) || j_notcont(b2))
    return 1;
  if (j_notcont(s[sp + 2])) return 2;
  return 3;
}

static size_t java_decode(const uint8_t *s, size_t sl, uint8_t *d) {
  size_t sp = 0, dp = 0;
#define J_REPL() (d[dp++] = 0xef, d[dp++] = 0xbf, d[dp++] = 0xbd)
  while (sp < sl) {
    int b1 = s[sp++];
    if (b1 < 0x80) {
      d[dp++] = (uint8_t)b1;
    } else if (b1 >= 0xc0 && b1 <= 0xdf && (b1 & 0x1e) != 0) {
      if (sp < sl) {
        int b2 = s[sp++];
        if (j_notcont(b2)) {
          J_REPL();
          sp--;
        } else {
          d[dp++] = (uint8_t)b1;
          d[dp++] = (uint8_t)b2;
        }
        continue;
      }
      J_REPL();
      break;
    } else if (b1 >= 0xe0 && b1 <= 0xef) {
      if (sp + 1 < sl) {
        int b2 = s[sp++], b3 = s[sp++];
        if (j_mal3(b1, b2, b3)) {
          J_REPL();
          sp -= 3;
          sp += j_malformed3(s, sp);
        } else {
          uint32_t c = ((uint32_t)(b1 & 0x0f) << 12) | ((uint32_t)(b2 & 0x3f) << 6) | (uint32_t)(b3 & 0x3f);
          if (c >= 0xd800 && c <= 0xdfff) {
            J_REPL();
          } else {
            d[dp++] = (uint8_t)b1;
            d[dp++] = (uint8_t)b2;
            d[dp++] = (uint8_t)b3;
          }
        }
        continue;
      }
      if (sp < sl && j_mal3_2(b1, s[sp])) {
        J_REPL();
        continue;
      }
      J_REPL();
      break;
    } else if (b1 >= 0xf0 && b1 <= 0xf7) {
      if (sp + 2 < sl) {
        int b2 = s[sp++], b3 = s[sp++], b4 = s[sp++];
        uint32_t uc = ((uint32_t)(b1 & 0x07) << 18) | ((uint32_t)(b2 & 0x3f) << 12) |
                      ((uint32_t)(b3 & 0x3f) << 6) | (uint32_t)(b4 & 0x3f);
        if (j_notcont(b2) || j_notcont(b3) || j_notcont(b4) || uc < 0x10000 || uc > 0x10ffff) {
          J_REPL();
          sp -= 4;
          sp += j_malformed4(s, sp);
        } else {
          d[dp++] = (uint8_t)b1;
          d[dp++] = (uint8_t)b2;
          d[dp++] = (uint8_t)b3;
          d[dp++] = (uint8_t)b4;
        }
        continue;
      }
      if (b1 > 0xf4 || (sp < sl && j_mal4_2(b1, s[sp]))) {
        J_REPL();
        continue;
      }
      sp++;
      J_REPL();
      if (sp < sl && j_notcont(s[sp])) continue;
      break;
    } else {
      J_REPL();
    }
  }
#undef J_REPL
  return dp;
}

/* A random byte string made of UTF-8-ish tokens: valid sequences of every
 * length, cut sequences, stray continuations, bad leads, ASCII runs. */
static size_t random_utf8ish(desert_rng *g, uint8_t *out, size_t max_tokens) {
  size_t o = 0, tokens = desert_rng_range(g, 0, max_tokens);
  for (size_t t = 0; t < tokens; t++) {
    uint8_t seq[4];
    size_t l;
    switch (desert_rng_below(g, 8)) {
    case 0:
    case 1: /* valid code point */
      l = desert_oracle_utf8_encode_one(rand_cp(g, (int)desert_rng_below(g, 4)), seq);
      memcpy(out + o, seq, l);
      o += l;
      break;
    case 2: /* a valid sequence cut short */
      l = desert_oracle_utf8_encode_one(rand_cp(g, 1 + (int)desert_rng_below(g, 3)), seq);
      l = desert_rng_range(g, 1, l - 1);
      memcpy(out + o, seq, l);
      o += l;
      break;
    case 3: /* continuation byte */
      out[o++] = (uint8_t)(0x80 + desert_rng_below(g, 64));
      break;
    case 4: /* any lead-ish byte */
      out[o++] = (uint8_t)(0xc0 + desert_rng_below(g, 64));
      break;
    case 5: /* edge second bytes after the special leads */
      out[o++] = (uint8_t[]){0xe0, 0xed, 0xf0, 0xf4, 0xc0, 0xc1, 0xf5}[desert_rng_below(g, 7)];
      out[o++] = (uint8_t[]){0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0x41}[desert_rng_below(g, 7)];
      break;
    case 6: /* ASCII run */
      for (size_t k = desert_rng_range(g, 1, 20); k > 0; k--) out[o++] = (uint8_t)(0x20 + desert_rng_below(g, 90));
      break;
    default: /* random byte */
      out[o++] = (uint8_t)desert_rng_below(g, 256);
      break;
    }
  }
  return o;
}

/* Does the input hold a 3-byte surrogate form (ED A0..BF), the known
 * divergence checked by test_read_lenient_utf8_surrogates_like_java? */
static bool has_ed_surrogate(const uint8_t *s, size_t n) {
  for (size_t i = 0; i + 1 < n; i++)
    if (s[i] == 0xed && s[i + 1] >= 0xa0 && s[i + 1] <= 0xbf) return true;
  return false;
}

/* The model itself reproduces the hand-written expectations above. */
static void test_java_model_matches_examples(void **state) {
  (void)state;
  for (int set = 0; set < 2; set++) {
    size_t n = set ? sizeof lenient_surrogate_cases / sizeof lenient_surrogate_cases[0]
                   : sizeof lenient_cases / sizeof lenient_cases[0];
    for (size_t i = 0; i < n; i++) {
      const char *in_hex = set ? lenient_surrogate_cases[i].in : lenient_cases[i].in;
      const char *out_hex = set ? lenient_surrogate_cases[i].out : lenient_cases[i].out;
      uint8_t in[32], want[64], got[96];
      size_t il = ct_hex_to(in_hex, in, sizeof in), wl = ct_hex_to(out_hex, want, sizeof want);
      size_t gl = java_decode(in, il, got);
      desert_assert_bytes_equal(want, wl, got, gl);
    }
  }
}

static void test_random_strings_strict_and_lenient(void **state) {
  (void)state;
  enum { ROUNDS = 3000 };
  uint8_t *body = malloc(4096), *in = malloc(4200), *want = malloc(3 * 4096);
  assert_non_null(body);
  assert_non_null(in);
  assert_non_null(want);
  size_t skipped = 0, invalid = 0;
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    desert_reader *strict = ct_new_reader_isa(0, (desert_isa)isa);
    desert_reader *lenient = ct_new_reader_isa(DESERT_OPT_LENIENT_UTF8, (desert_isa)isa);
    desert_rng g;
    desert_rng_init_test(&g, 0x1e1e0000u);
    for (int round = 0; round < ROUNDS; round++) {
      size_t n = random_utf8ish(&g, body, round % 10 == 0 ? 400 : 40);
      in[0] = 0x7e;
      size_t h = 1 + put_len(in + 1, n);
      memcpy(in + h, body, n);
      size_t pos;
      desert_status ost = desert_oracle_utf8_validate(body, n, &pos);
      if (ost != DESERT_OK) invalid++;
      /* strict: OK, or INVALID_UTF8 at the first string byte */
      assert_int_equal(desert_reader_begin(strict, in, h + n), DESERT_OK);
      uint8_t b;
      desert_str s;
      assert_int_equal(desert_read_u8(strict, &b), DESERT_OK);
      desert_status st = desert_read_string(strict, &s);
      if (st != ost || (st != DESERT_OK && desert_reader_error_offset(strict) != h)) {
        char hx[200];
        desert_hex_encode(body, n, hx, sizeof hx);
        print_error("[%s] strict read of [%s]: %s at %zu, want %s at %zu\n",
                    desert_isa_name((desert_isa)isa), hx, desert_status_name(st),
                    desert_reader_error_offset(strict), desert_status_name(ost), h);
        fail();
      }
      if (st == DESERT_OK) desert_assert_bytes_equal(body, n, s.ptr, s.len);
      /* lenient: exactly Java's text */
      if (has_ed_surrogate(body, n)) {
        skipped++;
        continue;
      }
      size_t wn = java_decode(body, n, want);
      assert_int_equal(desert_reader_begin(lenient, in, h + n), DESERT_OK);
      assert_int_equal(desert_read_u8(lenient, &b), DESERT_OK);
      assert_int_equal(desert_read_string(lenient, &s), DESERT_OK);
      if (s.len != wn || memcmp(s.ptr, want, wn) != 0) {
        char hx[200], gx[200], wx[200];
        desert_hex_encode(body, n, hx, sizeof hx);
        desert_hex_encode(s.ptr, s.len, gx, sizeof gx);
        desert_hex_encode(want, wn, wx, sizeof wx);
        print_error("[%s] lenient read of [%s]:\n  got  [%s]\n  want [%s]\n",
                    desert_isa_name((desert_isa)isa), hx, gx, wx);
        fail();
      }
    }
    desert_reader_free(strict);
    desert_reader_free(lenient);
  }
  print_message("random strings: %zu invalid, %zu lenient checks skipped (ED A0..BF)\n", invalid,
                skipped);
  assert_true(invalid > 0);
  free(body);
  free(in);
  free(want);
}

/* ---- UTF-16 input with unpaired surrogates ----------------------------------- */

static const struct {
  uint16_t u[8];
  size_t n;
  const char *lenient_out; /* Java getBytes(UTF_8): '?' per unpaired surrogate */
} lone_cases[] = {
    {{0xD800}, 1, "02 3f"},
    {{0xDC00}, 1, "02 3f"},
    {{'a', 0xD800, 'b'}, 3, "06 61 3f 62"},
    {{0xD83D, 'A'}, 2, "04 3f 41"},
    {{0xDE00, 0xD83D}, 2, "04 3f 3f"},                 /* reversed pair */
    {{0xD800, 0xD800, 0xDC00}, 3, "0a 3f f0 90 80 80"},  /* high, then a real pair */
    {{0xD800, 0xDC00, 0xDC00}, 3, "0a f0 90 80 80 3f"},  /* pair, then a lone low */
    {{'x', 0xDBFF}, 2, "04 78 3f"},                    /* high at the very end */
    {{0xe9, 0xDFFF, 0x20AC}, 3, "0c c3 a9 3f e2 82 ac"},
};

static void test_utf16_unpaired_surrogates(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof lone_cases / sizeof lone_cases[0]; i++) {
    desert_writer *w = ct_new_writer(0);
    assert_int_equal(desert_write_u8(w, 0x77), DESERT_OK);
    assert_int_equal(desert_write_string_utf16(w, lone_cases[i].u, lone_cases[i].n),
                     DESERT_E_INVALID_UTF16);
    assert_int_equal(desert_writer_status(w), DESERT_E_INVALID_UTF16);
    assert_int_equal(desert_writer_size(w), 1); /* nothing of the string */
    assert_int_equal(desert_write_u8(w, 1), DESERT_E_INVALID_UTF16);
    assert_int_equal(desert_writer_size(w), 1);
    desert_writer_free(w);

    w = ct_new_writer(DESERT_OPT_LENIENT_UTF8);
    assert_int_equal(desert_write_string_utf16(w, lone_cases[i].u, lone_cases[i].n), DESERT_OK);
    ct_expect_out(w, lone_cases[i].lenient_out);
    desert_writer_free(w);
  }
}

/* The same with long inputs (kernel path) under every ISA: a lone surrogate
 * at several positions of a 40-unit string. */
static void test_utf16_unpaired_surrogates_long(void **state) {
  (void)state;
  static const size_t positions[] = {0, 1, 15, 16, 17, 31, 32, 38, 39};
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    for (size_t pi = 0; pi < sizeof positions / sizeof positions[0]; pi++) {
      for (int kind = 0; kind < 2; kind++) {
        uint16_t u[40];
        uint8_t want[64];
        for (size_t k = 0; k < 40; k++) u[k] = (uint16_t)(k % 2 ? 0xe9 : 'a' + k % 26);
        u[positions[pi]] = kind ? 0xDC01 : 0xD801;
        size_t o = 0;
        uint8_t body[128];
        for (size_t k = 0; k < 40; k++) {
          if (k == positions[pi]) body[o++] = '?';
          else o += desert_oracle_utf8_encode_one(u[k], body + o);
        }
        size_t wn = enc_string(want, body, o);
        desert_writer *w = ct_new_writer_isa(0, (desert_isa)isa);
        assert_int_equal(desert_write_string_utf16(w, u, 40), DESERT_E_INVALID_UTF16);
        assert_int_equal(desert_writer_size(w), 0);
        desert_writer_free(w);
        w = ct_new_writer_isa(DESERT_OPT_LENIENT_UTF8, (desert_isa)isa);
        assert_int_equal(desert_write_string_utf16(w, u, 40), DESERT_OK);
        size_t len;
        const uint8_t *d = desert_writer_data(w, &len);
        desert_assert_bytes_equal(want, wn, d, len);
        /* size-only mode agrees */
        desert_writer_count_only(w);
        assert_int_equal(desert_write_string_utf16(w, u, 40), DESERT_OK);
        assert_int_equal(desert_writer_size(w), wn);
        desert_writer_free(w);
      }
    }
  }
}

int main(void) {
  desert_test_check_expected_isa();
  (void)desert_test_seed();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_examples_from_utf8),
      cmocka_unit_test(test_examples_from_utf16),
      cmocka_unit_test(test_examples_from_latin1),
      cmocka_unit_test(test_decode_examples),
      cmocka_unit_test(test_long_strings_every_isa),
      cmocka_unit_test(test_read_invalid_utf8_strict),
      cmocka_unit_test(test_write_invalid_utf8_lenient_flag),
      cmocka_unit_test(test_read_invalid_utf8_lenient),
      cmocka_unit_test(test_read_lenient_utf8_surrogates_like_java),
      cmocka_unit_test(test_java_model_matches_examples),
      cmocka_unit_test(test_random_strings_strict_and_lenient),
      cmocka_unit_test(test_utf16_unpaired_surrogates),
      cmocka_unit_test(test_utf16_unpaired_surrogates_long),
  };
  return cmocka_run_group_tests_name("codec_strings", tests, NULL, NULL);
}
