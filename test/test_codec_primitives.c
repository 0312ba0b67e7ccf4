/* test/test_codec_primitives.c — writer and reader core: fixed-width numbers
 * (u128 included), floats as exact bit patterns, bool, var_u32 / var_i32
 * tables, chars in both modes, UUID, type ids and raw bytes (docs/format.md §2–§4,
 * §13.1, §12), plus seeded random round trips of every primitive under every
 * runnable ISA.
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

static uint32_t f32_to_bits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static uint64_t f64_to_bits(double f) {
  uint64_t b;
  memcpy(&b, &f, 8);
  return b;
}
static float bits_to_f32(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}
static int8_t as_i8(uint8_t u) {
  int8_t s;
  memcpy(&s, &u, 1);
  return s;
}
static double bits_to_f64(uint64_t b) {
  double f;
  memcpy(&f, &b, 8);
  return f;
}

/* ---- fixed-width numbers (docs/format.md §2) --------------------------------------- */

static void test_fixed_width_encode(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  struct {
    int which;
    uint64_t v;
    const char *hex;
  } cases[] = {
      {0, 0x00, "00"},
      {0, 0xff, "ff"},
      {1, (uint64_t)(uint8_t)-1, "ff"},
      {1, 0x7f, "7f"},
      {2, 0x1234, "12 34"},
      {3, (uint16_t)-2, "ff fe"},
      {3, 0x8000, "80 00"},
      {4, 0x01020304u, "01 02 03 04"},
      {5, (uint32_t)-1, "ff ff ff ff"},
      {5, 0x80000000u, "80 00 00 00"},
      {6, 0x0102030405060708ull, "01 02 03 04 05 06 07 08"},
      {7, 0x8000000000000000ull, "80 00 00 00 00 00 00 00"},
      {7, (uint64_t)-2, "ff ff ff ff ff ff ff fe"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    desert_writer_reset(w);
    desert_status st = DESERT_E_STATE;
    uint64_t v = cases[i].v;
    switch (cases[i].which) {
    case 0: st = desert_write_u8(w, (uint8_t)v); break;
    case 1: {
      int8_t s;
      uint8_t u = (uint8_t)v;
      memcpy(&s, &u, 1);
      st = desert_write_i8(w, s);
      break;
    }
    case 2: st = desert_write_u16(w, (uint16_t)v); break;
    case 3: {
      int16_t s;
      uint16_t u = (uint16_t)v;
      memcpy(&s, &u, 2);
      st = desert_write_i16(w, s);
      break;
    }
    case 4: st = desert_write_u32(w, (uint32_t)v); break;
    case 5: {
      int32_t s;
      uint32_t u = (uint32_t)v;
      memcpy(&s, &u, 4);
      st = desert_write_i32(w, s);
      break;
    }
    case 6: st = desert_write_u64(w, v); break;
    case 7: {
      int64_t s;
      memcpy(&s, &v, 8);
      st = desert_write_i64(w, s);
      break;
    }
    default: fail();
    }
    assert_int_equal(st, DESERT_OK);
    ct_expect_out_sized(w, cases[i].hex);
  }
  /* Several values in one message are simply concatenated. */
  desert_writer_reset(w);
  assert_int_equal(desert_write_i8(w, -128), DESERT_OK);
  assert_int_equal(desert_write_i16(w, -32768), DESERT_OK);
  assert_int_equal(desert_write_i32(w, INT32_MIN), DESERT_OK);
  assert_int_equal(desert_write_i64(w, INT64_MIN), DESERT_OK);
  assert_int_equal(desert_write_u64(w, UINT64_MAX), DESERT_OK);
  ct_expect_out_sized(w, "80 | 80 00 | 80 00 00 00 | 80 00 00 00 00 00 00 00 |"
                         " ff ff ff ff ff ff ff ff");
  assert_int_equal(desert_writer_size(w), 1 + 2 + 4 + 8 + 8);
  desert_writer_free(w);
}

static void test_fixed_width_decode(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  uint8_t buf[64];
  size_t n = ct_begin_hex(r,
                          "ff 80 | 12 34 ff fe | 01 02 03 04 80 00 00 00 |"
                          " 01 02 03 04 05 06 07 08 | 80 00 00 00 00 00 00 01",
                          buf, sizeof buf);
  uint8_t u8 = 0;
  int8_t i8 = 0;
  uint16_t u16 = 0;
  int16_t i16 = 0;
  uint32_t u32 = 0;
  int32_t i32 = 0;
  uint64_t u64 = 0;
  int64_t i64 = 0;
  assert_int_equal(desert_read_u8(r, &u8), DESERT_OK);
  assert_int_equal(u8, 0xff);
  assert_int_equal(desert_read_i8(r, &i8), DESERT_OK);
  assert_int_equal(i8, -128);
  assert_int_equal(desert_read_u16(r, &u16), DESERT_OK);
  assert_int_equal(u16, 0x1234);
  assert_int_equal(desert_read_i16(r, &i16), DESERT_OK);
  assert_int_equal(i16, -2);
  assert_int_equal(desert_read_u32(r, &u32), DESERT_OK);
  assert_int_equal(u32, 0x01020304u);
  assert_int_equal(desert_read_i32(r, &i32), DESERT_OK);
  assert_true(i32 == INT32_MIN);
  assert_int_equal(desert_read_u64(r, &u64), DESERT_OK);
  assert_true(u64 == 0x0102030405060708ull);
  assert_int_equal(desert_read_i64(r, &i64), DESERT_OK);
  assert_true(i64 == INT64_MIN + 1);
  ct_expect_fully_read(r, n);

  /* Offsets advance by the item width. */
  ct_begin_hex(r, "00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e", buf, sizeof buf);
  assert_int_equal(desert_read_u8(r, &u8), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), 1);
  assert_int_equal(desert_read_u16(r, &u16), DESERT_OK);
  assert_int_equal(u16, 0x0102);
  assert_int_equal(desert_reader_offset(r), 3);
  assert_int_equal(desert_read_u32(r, &u32), DESERT_OK);
  assert_int_equal(u32, 0x03040506u);
  assert_int_equal(desert_reader_offset(r), 7);
  assert_int_equal(desert_read_u64(r, &u64), DESERT_OK);
  assert_true(u64 == 0x0708090a0b0c0d0eull);
  ct_expect_fully_read(r, 15);
  desert_reader_free(r);
}

static void test_u128(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  desert_u128 v = {0x0102030405060708ull, 0x090a0b0c0d0e0f10ull};
  assert_int_equal(desert_write_u128(w, v), DESERT_OK);
  ct_expect_out_sized(w, "01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10");
  /* i128 -1: all ones; i128 min: 80 then zeros; u128 1: low byte last. */
  desert_writer_reset(w);
  desert_u128 m1 = {UINT64_MAX, UINT64_MAX}, mn = {0x8000000000000000ull, 0}, one = {0, 1};
  assert_int_equal(desert_write_u128(w, m1), DESERT_OK);
  assert_int_equal(desert_write_u128(w, mn), DESERT_OK);
  assert_int_equal(desert_write_u128(w, one), DESERT_OK);
  ct_expect_out_sized(w, "ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff |"
                         " 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 |"
                         " 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01");

  desert_reader *r = ct_new_reader(0);
  size_t len;
  const uint8_t *data = desert_writer_data(w, &len);
  assert_int_equal(desert_reader_begin(r, data, len), DESERT_OK);
  desert_u128 g = {7, 7};
  assert_int_equal(desert_read_u128(r, &g), DESERT_OK);
  assert_true(g.hi == UINT64_MAX && g.lo == UINT64_MAX);
  assert_int_equal(desert_read_u128(r, &g), DESERT_OK);
  assert_true(g.hi == 0x8000000000000000ull && g.lo == 0);
  assert_int_equal(desert_read_u128(r, &g), DESERT_OK);
  assert_true(g.hi == 0 && g.lo == 1);
  ct_expect_fully_read(r, 48);

  uint8_t buf[32];
  ct_begin_hex(r, "01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10", buf, sizeof buf);
  assert_int_equal(desert_read_u128(r, &g), DESERT_OK);
  assert_true(g.hi == 0x0102030405060708ull);
  assert_true(g.lo == 0x090a0b0c0d0e0f10ull);
  desert_reader_free(r);
  desert_writer_free(w);
}

/* ---- floats (docs/format.md §2): exact bit patterns, NaN payloads survive ---------- */

static void test_f32_bit_patterns(void **state) {
  (void)state;
  static const uint32_t pats[] = {
      0x3f800000u, /* 1.0 */
      0x80000000u, /* -0.0 */
      0x00000000u, 0x00000001u, /* smallest subnormal */
      0x7f800000u, /* +inf */
      0xff800000u, /* -inf */
      0x7fc00000u, /* canonical qNaN */
      0x7fa00001u, /* signalling NaN with payload */
      0x7f800001u, /* smallest sNaN payload */
      0xffc12345u, /* negative qNaN with payload */
      0x7fffffffu, 0x40490fdbu, /* pi */
  };
  desert_writer *w = ct_new_writer(0);
  desert_reader *r = ct_new_reader(0);
  for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++) {
    uint32_t p = pats[i];
    uint8_t be[4] = {(uint8_t)(p >> 24), (uint8_t)(p >> 16), (uint8_t)(p >> 8), (uint8_t)p};
    /* float API and bits API both write the exact bits */
    desert_writer_reset(w);
    assert_int_equal(desert_write_f32(w, bits_to_f32(p)), DESERT_OK);
    assert_int_equal(desert_write_f32_bits(w, p), DESERT_OK);
    size_t len;
    const uint8_t *d = desert_writer_data(w, &len);
    assert_int_equal(len, 8);
    desert_assert_bytes_equal(be, 4, d, 4);
    desert_assert_bytes_equal(be, 4, d + 4, 4);
    assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
    float f = 0;
    uint32_t b = 0;
    assert_int_equal(desert_read_f32(r, &f), DESERT_OK);
    assert_int_equal(f32_to_bits(f), p);
    assert_int_equal(desert_read_f32_bits(r, &b), DESERT_OK);
    assert_int_equal(b, p);
    ct_expect_fully_read(r, 8);
  }
  desert_writer_free(w);
  desert_reader_free(r);
}

static void test_f64_bit_patterns(void **state) {
  (void)state;
  static const uint64_t pats[] = {
      0x3ff0000000000000ull, /* 1.0 */
      0x8000000000000000ull, /* -0.0 */
      0x0000000000000001ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
      0x7ff8000000000000ull, /* canonical qNaN */
      0x7ff0000000000001ull, /* sNaN, smallest payload */
      0x7ff4000000abcdefull, /* sNaN with payload */
      0xfff8000000000123ull, 0x400921fb54442d18ull, /* pi */
  };
  desert_writer *w = ct_new_writer(0);
  desert_reader *r = ct_new_reader(0);
  for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++) {
    uint64_t p = pats[i];
    uint8_t be[8];
    for (int k = 0; k < 8; k++) be[k] = (uint8_t)(p >> (56 - 8 * k));
    desert_writer_reset(w);
    assert_int_equal(desert_write_f64(w, bits_to_f64(p)), DESERT_OK);
    assert_int_equal(desert_write_f64_bits(w, p), DESERT_OK);
    size_t len;
    const uint8_t *d = desert_writer_data(w, &len);
    assert_int_equal(len, 16);
    desert_assert_bytes_equal(be, 8, d, 8);
    desert_assert_bytes_equal(be, 8, d + 8, 8);
    assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
    double f = 0;
    uint64_t b = 0;
    assert_int_equal(desert_read_f64(r, &f), DESERT_OK);
    assert_true(f64_to_bits(f) == p);
    assert_int_equal(desert_read_f64_bits(r, &b), DESERT_OK);
    assert_true(b == p);
    ct_expect_fully_read(r, 16);
  }
  /* Spot check of a literal: 1.5 -> 3f f8 00 .. */
  desert_writer_reset(w);
  assert_int_equal(desert_write_f64(w, 1.5), DESERT_OK);
  assert_int_equal(desert_write_f32(w, -2.0f), DESERT_OK);
  ct_expect_out_sized(w, "3f f8 00 00 00 00 00 00 | c0 00 00 00");
  desert_writer_free(w);
  desert_reader_free(r);
}

/* ---- bool (docs/format.md §2): 01/00 on write, any non-zero is true on read -------- */

static void test_bool(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_bool(w, true), DESERT_OK);
  assert_int_equal(desert_write_bool(w, false), DESERT_OK);
  ct_expect_out_sized(w, "01 00");
  desert_writer_free(w);

  /* Every byte value, in both tag modes (bool is not a tag). */
  for (int lenient = 0; lenient < 2; lenient++) {
    desert_reader *r = ct_new_reader(lenient ? DESERT_OPT_LENIENT_TAGS : 0);
    uint8_t all[256];
    for (int i = 0; i < 256; i++) all[i] = (uint8_t)i;
    assert_int_equal(desert_reader_begin(r, all, sizeof all), DESERT_OK);
    for (int i = 0; i < 256; i++) {
      bool b = (i == 0); /* opposite of the expected value */
      assert_int_equal(desert_read_bool(r, &b), DESERT_OK);
      assert_int_equal(b, i != 0);
    }
    ct_expect_fully_read(r, 256);
    desert_reader_free(r);
  }
}

/* ---- var_u32 / var_i32 (docs/format.md §3) ----------------------------------------- */

static const struct {
  uint32_t v;
  const char *hex;
} var_u32_table[] = {
    {0, "00"},
    {127, "7f"},
    {128, "80 01"},
    {300, "ac 02"},
    {16383, "ff 7f"},
    {16384, "80 80 01"},
    {2097152, "80 80 80 01"},
    {268435456, "80 80 80 80 01"},
    {4294967295u, "ff ff ff ff 0f"},
};

static const struct {
  int32_t v;
  const char *hex;
} var_i32_table[] = {
    {0, "00"},
    {-1, "01"},
    {1, "02"},
    {-2, "03"},
    {63, "7e"},
    {-64, "7f"},
    {64, "80 01"},
    {-65, "81 01"},
    {2147483647, "fe ff ff ff 0f"},
    {INT32_MIN, "ff ff ff ff 0f"},
};

static void test_var_u32_table(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  desert_reader *r = ct_new_reader(0);
  for (size_t i = 0; i < sizeof var_u32_table / sizeof var_u32_table[0]; i++) {
    desert_writer_reset(w);
    assert_int_equal(desert_write_var_u32(w, var_u32_table[i].v), DESERT_OK);
    ct_expect_out_sized(w, var_u32_table[i].hex);
    uint8_t buf[8];
    size_t n = ct_begin_hex(r, var_u32_table[i].hex, buf, sizeof buf);
    uint32_t got = 12345;
    assert_int_equal(desert_read_var_u32(r, &got), DESERT_OK);
    assert_int_equal(got, var_u32_table[i].v);
    ct_expect_fully_read(r, n);
    /* type ids (docs/format.md §12) are the same var_u32 */
    desert_writer_reset(w);
    assert_int_equal(desert_write_type_id(w, var_u32_table[i].v), DESERT_OK);
    ct_expect_out_sized(w, var_u32_table[i].hex);
    assert_int_equal(desert_reader_begin(r, buf, n), DESERT_OK);
    assert_int_equal(desert_read_type_id(r, &got), DESERT_OK);
    assert_int_equal(got, var_u32_table[i].v);
    ct_expect_fully_read(r, n);
  }
  desert_writer_free(w);
  desert_reader_free(r);
}

static void test_var_i32_table(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  desert_reader *r = ct_new_reader(0);
  for (size_t i = 0; i < sizeof var_i32_table / sizeof var_i32_table[0]; i++) {
    desert_writer_reset(w);
    assert_int_equal(desert_write_var_i32(w, var_i32_table[i].v), DESERT_OK);
    ct_expect_out_sized(w, var_i32_table[i].hex);
    uint8_t buf[8];
    size_t n = ct_begin_hex(r, var_i32_table[i].hex, buf, sizeof buf);
    int32_t got = 12345;
    assert_int_equal(desert_read_var_i32(r, &got), DESERT_OK);
    assert_true(got == var_i32_table[i].v);
    ct_expect_fully_read(r, n);
  }
  /* Scala's optimizeForPositive form of a negative Int: -1 -> ff ff ff ff 0f */
  desert_writer_reset(w);
  assert_int_equal(desert_write_var_u32(w, (uint32_t)-1), DESERT_OK);
  ct_expect_out_sized(w, "ff ff ff ff 0f");
  desert_writer_free(w);
  desert_reader_free(r);
}

/* Every power-of-two boundary: shortest form, exact length, round trip. */
static void test_var_boundaries(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  desert_reader *r = ct_new_reader(0);
  for (unsigned k = 0; k <= 32; k++) {
    uint32_t vals[3];
    vals[0] = k == 32 ? UINT32_MAX : (uint32_t)((1ull << k) - 1);
    vals[1] = k == 32 ? 0 : (uint32_t)(1ull << k);
    vals[2] = k == 32 ? 1 : (uint32_t)((1ull << k) + 1);
    for (int j = 0; j < 3; j++) {
      uint32_t v = vals[j];
      desert_writer_reset(w);
      assert_int_equal(desert_write_var_u32(w, v), DESERT_OK);
      size_t want_len = desert_oracle_var_u32_len(v);
      uint8_t want[5];
      assert_int_equal(desert_oracle_var_u32_encode(want, &v, 1), want_len);
      size_t len;
      const uint8_t *d = desert_writer_data(w, &len);
      desert_assert_bytes_equal(want, want_len, d, len);
      assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
      uint32_t got = ~v;
      assert_int_equal(desert_read_var_u32(r, &got), DESERT_OK);
      assert_int_equal(got, v);
      ct_expect_fully_read(r, len);

      int32_t s;
      memcpy(&s, &v, 4);
      desert_writer_reset(w);
      assert_int_equal(desert_write_var_i32(w, s), DESERT_OK);
      uint32_t zz = desert_oracle_zigzag(s);
      want_len = desert_oracle_var_u32_encode(want, &zz, 1);
      d = desert_writer_data(w, &len);
      desert_assert_bytes_equal(want, want_len, d, len);
      assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
      int32_t gs = ~s;
      assert_int_equal(desert_read_var_i32(r, &gs), DESERT_OK);
      assert_true(gs == s);
      ct_expect_fully_read(r, len);
    }
  }
  desert_writer_free(w);
  desert_reader_free(r);
}

/* Overlong forms are accepted and the 5th byte's bits above bit 31 ignored
 * (docs/format.md §3.2). */
static void test_var_overlong_accepted(void **state) {
  (void)state;
  static const struct {
    const char *hex;
    uint32_t v;
  } cases[] = {
      {"80 00", 0},
      {"ff 00", 127},
      {"80 80 00", 0},
      {"81 80 80 00", 1},
      {"80 80 80 80 00", 0},
      {"ff ff ff ff 7f", 4294967295u}, /* upper payload bits dropped */
      {"ff ff ff ff 1f", 4294967295u},
      {"80 80 80 80 10", 0}, /* bit 32 only: dropped */
      {"80 80 80 80 70", 0}, /* bits 32..34: dropped */
      {"80 80 80 80 71", 0x10000000u},
      {"ff ff ff ff 3e", 0xefffffffu},
  };
  for (int lenient = 0; lenient < 2; lenient++) {
    desert_reader *r = ct_new_reader(lenient ? DESERT_OPT_LENIENT_VARINT : 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      uint8_t buf[8];
      size_t n = ct_begin_hex(r, cases[i].hex, buf, sizeof buf);
      uint32_t got = 5;
      assert_int_equal(desert_read_var_u32(r, &got), DESERT_OK);
      assert_int_equal(got, cases[i].v);
      ct_expect_fully_read(r, n);
    }
    /* var_i32 through an overlong form: 81 80 00 = u 1 = -1 */
    uint8_t buf[8];
    size_t n = ct_begin_hex(r, "81 80 00", buf, sizeof buf);
    int32_t s = 0;
    assert_int_equal(desert_read_var_i32(r, &s), DESERT_OK);
    assert_int_equal(s, -1);
    ct_expect_fully_read(r, n);
    desert_reader_free(r);
  }
}

/* DESERT_OPT_LENIENT_VARINT: Scala stops after the 5th byte whatever its
 * continuation bit; the next item starts right after it. */
static void test_var_lenient_fifth_byte(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(DESERT_OPT_LENIENT_VARINT);
  uint8_t buf[16];
  ct_begin_hex(r, "80 80 80 80 80 | 05", buf, sizeof buf);
  uint32_t v = 9;
  assert_int_equal(desert_read_var_u32(r, &v), DESERT_OK);
  assert_int_equal(v, 0);
  assert_int_equal(desert_reader_offset(r), 5);
  uint8_t b = 0;
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(b, 5);
  ct_expect_fully_read(r, 6);

  ct_begin_hex(r, "ff ff ff ff ff | 2a", buf, sizeof buf);
  assert_int_equal(desert_read_var_u32(r, &v), DESERT_OK);
  assert_int_equal(v, 0xffffffffu);
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(b, 0x2a);

  ct_begin_hex(r, "83 80 80 80 f0 | 7f", buf, sizeof buf);
  int32_t s = 0;
  assert_int_equal(desert_read_var_i32(r, &s), DESERT_OK);
  assert_int_equal(s, -2); /* u = 3 */
  assert_int_equal(desert_read_var_i32(r, &s), DESERT_OK);
  assert_int_equal(s, -64);
  ct_expect_fully_read(r, 6);
  desert_reader_free(r);

  /* The strict default rejects the same bytes at the varint's offset. */
  r = ct_new_reader(0);
  ct_begin_hex(r, "11 | 80 80 80 80 80 | 05", buf, sizeof buf);
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  v = 77;
  assert_int_equal(desert_read_var_u32(r, &v), DESERT_E_VARINT_TOO_LONG);
  assert_int_equal(v, 77);
  assert_int_equal(desert_reader_error_offset(r), 1);
  desert_reader_free(r);
}

/* ---- chars (docs/format.md §4) ---------------------------------------------------- */

static void test_char_default_mode(void **state) {
  (void)state;
  static const struct {
    uint32_t cp;
    const char *hex;
  } cases[] = {
      {'A', "41"},         {0, "00"},          {0x7f, "7f"},         {0xe9, "e9 01"},
      {0x1F600, "80 ec 07"}, {0xFFFF, "ff ff 03"}, {0x10FFFF, "ff ff 43"}, {0xD7FF, "ff af 03"},
      {0xE000, "80 c0 03"},
  };
  desert_writer *w = ct_new_writer(0);
  desert_reader *r = ct_new_reader(0);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    desert_writer_reset(w);
    assert_int_equal(desert_write_char(w, cases[i].cp), DESERT_OK);
    ct_expect_out_sized(w, cases[i].hex);
    uint8_t buf[8];
    size_t n = ct_begin_hex(r, cases[i].hex, buf, sizeof buf);
    uint32_t cp = 0xdead;
    assert_int_equal(desert_read_char(r, &cp), DESERT_OK);
    assert_int_equal(cp, cases[i].cp);
    ct_expect_fully_read(r, n);
  }
  desert_writer_free(w);
  desert_reader_free(r);
}

static void test_char_scala_mode(void **state) {
  (void)state;
  static const struct {
    uint32_t cp;
    const char *hex;
  } cases[] = {
      {'A', "00 41"}, {0, "00 00"}, {0xe9, "00 e9"}, {0xFFFD, "ff fd"},
      {0xFFFF, "ff ff"}, {0xD7FF, "d7 ff"}, {0xE000, "e0 00"}, {0x20AC, "20 ac"},
  };
  desert_writer *w = ct_new_writer(DESERT_OPT_SCALA_CHARS);
  desert_reader *r = ct_new_reader(DESERT_OPT_SCALA_CHARS);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    desert_writer_reset(w);
    assert_int_equal(desert_write_char(w, cases[i].cp), DESERT_OK);
    ct_expect_out_sized(w, cases[i].hex);
    uint8_t buf[8];
    size_t n = ct_begin_hex(r, cases[i].hex, buf, sizeof buf);
    uint32_t cp = 0xdead;
    assert_int_equal(desert_read_char(r, &cp), DESERT_OK);
    assert_int_equal(cp, cases[i].cp);
    ct_expect_fully_read(r, n);
  }
  desert_writer_free(w);
  desert_reader_free(r);
}

/* char16 is always 2 bytes and takes any unit (Java char), in both modes. */
static void test_char16(void **state) {
  (void)state;
  for (int mode = 0; mode < 2; mode++) {
    unsigned fl = mode ? DESERT_OPT_SCALA_CHARS : 0;
    desert_writer *w = ct_new_writer(fl);
    assert_int_equal(desert_write_char16(w, 0x0041), DESERT_OK);
    assert_int_equal(desert_write_char16(w, 0xD800), DESERT_OK);
    assert_int_equal(desert_write_char16(w, 0xDFFF), DESERT_OK);
    assert_int_equal(desert_write_char16(w, 0xFFFF), DESERT_OK);
    ct_expect_out_sized(w, "00 41 d8 00 df ff ff ff");
    desert_reader *r = ct_new_reader(fl);
    size_t len;
    const uint8_t *d = desert_writer_data(w, &len);
    assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
    uint16_t u = 0;
    assert_int_equal(desert_read_char16(r, &u), DESERT_OK);
    assert_int_equal(u, 0x41);
    assert_int_equal(desert_read_char16(r, &u), DESERT_OK);
    assert_int_equal(u, 0xD800);
    assert_int_equal(desert_read_char16(r, &u), DESERT_OK);
    assert_int_equal(u, 0xDFFF);
    assert_int_equal(desert_read_char16(r, &u), DESERT_OK);
    assert_int_equal(u, 0xFFFF);
    ct_expect_fully_read(r, 8);
    desert_reader_free(r);
    desert_writer_free(w);
  }
}

/* ---- UUID (docs/format.md §13.1), raw bytes, type ids -------------------------------- */

static void test_uuid(void **state) {
  (void)state;
  const char *hex = "d9 0c 42 85 54 4d 42 4d 88 5c 39 40 fe 00 88 3d";
  uint8_t id[16];
  ct_hex_to(hex, id, sizeof id);
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_uuid(w, id), DESERT_OK);
  ct_expect_out_sized(w, hex);
  desert_reader *r = ct_new_reader(0);
  uint8_t buf[16];
  ct_begin_hex(r, hex, buf, sizeof buf);
  uint8_t got[16];
  memset(got, 0, sizeof got);
  assert_int_equal(desert_read_uuid(r, got), DESERT_OK);
  assert_memory_equal(got, id, 16);
  ct_expect_fully_read(r, 16);
  desert_reader_free(r);
  desert_writer_free(w);
}

static void test_raw_and_type_id(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  const uint8_t mac[6] = {0x00, 0x1b, 0x44, 0x11, 0x3a, 0xb7};
  /* Akka/Shardcake framing: var_u32(type id) + value */
  assert_int_equal(desert_write_type_id(w, 300), DESERT_OK);
  assert_int_equal(desert_write_raw(w, mac, 6), DESERT_OK);
  assert_int_equal(desert_write_raw(w, NULL, 0), DESERT_OK);
  assert_int_equal(desert_write_type_id(w, 1), DESERT_OK);
  ct_expect_out_sized(w, "ac 02 | 00 1b 44 11 3a b7 | 01");
  desert_reader *r = ct_new_reader(0);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  uint32_t t = 0;
  assert_int_equal(desert_read_type_id(r, &t), DESERT_OK);
  assert_int_equal(t, 300);
  const uint8_t *p = NULL;
  assert_int_equal(desert_read_raw(r, 6, &p), DESERT_OK);
  assert_ptr_equal(p, d + 2); /* a view into the input */
  assert_memory_equal(p, mac, 6);
  assert_int_equal(desert_read_raw(r, 0, &p), DESERT_OK);
  assert_int_equal(desert_read_type_id(r, &t), DESERT_OK);
  assert_int_equal(t, 1);
  ct_expect_fully_read(r, 9);
  desert_reader_free(r);
  desert_writer_free(w);
}

/* ---- seeded random round trips under every runnable ISA ---------------------- */

enum {
  K_U8, K_I8, K_U16, K_I16, K_U32, K_I32, K_U64, K_I64, K_U128, K_F32, K_F64, K_BOOL,
  K_VU32, K_VI32, K_CHAR, K_CHAR16, K_STR, K_STR16, K_STRL1, K_DEDUP, K_BYTES, K_I32ARR,
  K_U16ARR, K_U64ARR, K_F32ARR, K_F64ARR, K_VU32ARR, K_VI32ARR, K_STREAM, K_OPTION, K_UUID,
  K_TYPEID, K_REF, K_TUPLE, K_COUNT_
};

#define RT_BUF 512

typedef struct rt_op {
  int kind;
  uint64_t a, b;
  size_t n;          /* element count / unit count */
  size_t ulen;       /* expected UTF-8 length for text ops */
  uint8_t data[RT_BUF];  /* payload (bytes, elements, UTF-8 text) */
  uint16_t u16[64];  /* UTF-16 input */
  uint8_t utf8[RT_BUF];  /* expected UTF-8 for STR16 / STRL1 */
} rt_op;

static uint64_t rt_value(desert_rng *g) {
  switch (desert_rng_below(g, 6)) {
  case 0: return 0;
  case 1: return UINT64_MAX;
  case 2: return desert_rng_below(g, 256);
  case 3: return 1ull << desert_rng_below(g, 64);
  default: return desert_rng_next(g) >> desert_rng_below(g, 64);
  }
}

static uint32_t rt_code_point(desert_rng *g) {
  switch (desert_rng_below(g, 4)) {
  case 0: return desert_rng_below(g, 0x80);
  case 1: return 0x80 + desert_rng_below(g, 0x780);
  case 2: {
    uint32_t c = 0x800 + desert_rng_below(g, 0xF800);
    return (c >= 0xD800 && c <= 0xDFFF) ? c - 0x800 : c;
  }
  default: return 0x10000 + desert_rng_below(g, 0x100000);
  }
}

static const char *const rt_pool[] = {"alpha", "", "beta", "é", "\xf0\x9f\x98\x80 smile",
                                      "alpha2"};
static int rt_objs[8];

static void rt_generate(desert_rng *g, rt_op *ops, size_t count) {
  for (size_t i = 0; i < count; i++) {
    rt_op *op = &ops[i];
    memset(op, 0, sizeof *op);
    op->kind = (int)desert_rng_below(g, K_COUNT_);
    op->a = rt_value(g);
    op->b = rt_value(g);
    switch (op->kind) {
    case K_CHAR: op->a = rt_code_point(g); break;
    case K_STR: {
      size_t cps = desert_rng_range(g, 0, 40), o = 0;
      for (size_t k = 0; k < cps; k++) o += desert_oracle_utf8_encode_one(rt_code_point(g), op->data + o);
      op->ulen = o;
      break;
    }
    case K_STR16: {
      size_t units = desert_rng_range(g, 0, 60), u = 0, o = 0;
      while (u < units) {
        uint32_t cp = rt_code_point(g);
        if (cp >= 0x10000) {
          if (u + 2 > units) cp = 'x';
          else {
            op->u16[u++] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
            op->u16[u++] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
            o += desert_oracle_utf8_encode_one(cp, op->utf8 + o);
            continue;
          }
        }
        op->u16[u++] = (uint16_t)cp;
        o += desert_oracle_utf8_encode_one(cp, op->utf8 + o);
      }
      op->n = units;
      op->ulen = o;
      break;
    }
    case K_STRL1: {
      size_t n = desert_rng_range(g, 0, 100), o = 0;
      for (size_t k = 0; k < n; k++) {
        uint8_t c = (uint8_t)desert_rng_below(g, 256);
        op->data[k] = c;
        o += desert_oracle_utf8_encode_one(c, op->utf8 + o);
      }
      op->n = n;
      op->ulen = o;
      break;
    }
    case K_DEDUP: op->a = desert_rng_below(g, (uint32_t)(sizeof rt_pool / sizeof rt_pool[0])); break;
    case K_BYTES:
    case K_STREAM:
      op->n = desert_rng_range(g, 0, 200);
      desert_rng_fill(g, op->data, op->n);
      break;
    case K_I32ARR:
    case K_F32ARR:
    case K_VU32ARR:
    case K_VI32ARR:
      op->n = desert_rng_range(g, 0, 40);
      for (size_t k = 0; k < op->n; k++) {
        uint32_t v = (uint32_t)rt_value(g);
        memcpy(op->data + 4 * k, &v, 4);
      }
      break;
    case K_U16ARR:
      op->n = desert_rng_range(g, 0, 70);
      desert_rng_fill(g, op->data, 2 * op->n);
      break;
    case K_U64ARR:
    case K_F64ARR:
      op->n = desert_rng_range(g, 0, 40);
      for (size_t k = 0; k < op->n; k++) {
        uint64_t v = rt_value(g);
        memcpy(op->data + 8 * k, &v, 8);
      }
      break;
    case K_UUID: desert_rng_fill(g, op->data, 16); break;
    case K_REF: op->a = desert_rng_below(g, 8); break;
    default: break;
    }
  }
}

static void rt_write(desert_writer *w, const rt_op *ops, size_t count) {
  for (size_t i = 0; i < count; i++) {
    const rt_op *op = &ops[i];
    desert_status st = DESERT_OK;
    uint64_t a = op->a;
    switch (op->kind) {
    case K_U8: st = desert_write_u8(w, (uint8_t)a); break;
    case K_I8: st = desert_write_i8(w, as_i8((uint8_t)a)); break;
    case K_U16: st = desert_write_u16(w, (uint16_t)a); break;
    case K_I16: {
      int16_t s;
      uint16_t u = (uint16_t)a;
      memcpy(&s, &u, 2);
      st = desert_write_i16(w, s);
      break;
    }
    case K_U32: st = desert_write_u32(w, (uint32_t)a); break;
    case K_I32: {
      int32_t s;
      uint32_t u = (uint32_t)a;
      memcpy(&s, &u, 4);
      st = desert_write_i32(w, s);
      break;
    }
    case K_U64: st = desert_write_u64(w, a); break;
    case K_I64: {
      int64_t s;
      memcpy(&s, &a, 8);
      st = desert_write_i64(w, s);
      break;
    }
    case K_U128: {
      desert_u128 v = {a, op->b};
      st = desert_write_u128(w, v);
      break;
    }
    case K_F32: st = desert_write_f32_bits(w, (uint32_t)a); break;
    case K_F64: st = desert_write_f64(w, bits_to_f64(a)); break;
    case K_BOOL: st = desert_write_bool(w, (a & 1) != 0); break;
    case K_VU32: st = desert_write_var_u32(w, (uint32_t)a); break;
    case K_VI32: {
      int32_t s;
      uint32_t u = (uint32_t)a;
      memcpy(&s, &u, 4);
      st = desert_write_var_i32(w, s);
      break;
    }
    case K_CHAR: st = desert_write_char(w, (uint32_t)a); break;
    case K_CHAR16: st = desert_write_char16(w, (uint16_t)a); break;
    case K_STR: st = desert_write_string(w, (const char *)op->data, op->ulen); break;
    case K_STR16: st = desert_write_string_utf16(w, op->u16, op->n); break;
    case K_STRL1: st = desert_write_string_latin1(w, op->data, op->n); break;
    case K_DEDUP: st = desert_write_dedup_string(w, rt_pool[a], strlen(rt_pool[a])); break;
    case K_BYTES: st = desert_write_bytes(w, op->data, op->n); break;
    case K_I32ARR:
      desert_write_count(w, op->n);
      st = desert_write_i32_array(w, (const int32_t *)(const void *)op->data, op->n);
      break;
    case K_F32ARR: {
      float f[64];
      memcpy(f, op->data, 4 * op->n);
      desert_write_count(w, op->n);
      st = desert_write_f32_array(w, f, op->n);
      break;
    }
    case K_VU32ARR: {
      uint32_t v[64];
      memcpy(v, op->data, 4 * op->n);
      desert_write_count(w, op->n);
      st = desert_write_var_u32_array(w, v, op->n);
      break;
    }
    case K_VI32ARR: {
      int32_t v[64];
      memcpy(v, op->data, 4 * op->n);
      st = desert_write_var_i32_array(w, v, op->n);
      break;
    }
    case K_U16ARR: {
      uint16_t v[128];
      memcpy(v, op->data, 2 * op->n);
      st = desert_write_u16_array(w, v, op->n);
      break;
    }
    case K_U64ARR: {
      uint64_t v[64];
      memcpy(v, op->data, 8 * op->n);
      desert_write_count(w, op->n);
      st = desert_write_u64_array(w, v, op->n);
      break;
    }
    case K_F64ARR: {
      double v[64];
      memcpy(v, op->data, 8 * op->n);
      st = desert_write_f64_array(w, v, op->n);
      break;
    }
    case K_STREAM:
      desert_write_stream_begin(w);
      for (size_t k = 0; k < op->n; k++) {
        desert_write_stream_item(w);
        desert_write_u8(w, op->data[k]);
      }
      st = desert_write_stream_end(w);
      break;
    case K_OPTION:
      desert_write_option(w, (a & 1) != 0);
      if (a & 1) desert_write_u16(w, (uint16_t)op->b);
      st = desert_writer_status(w);
      break;
    case K_UUID: st = desert_write_uuid(w, op->data); break;
    case K_TYPEID: st = desert_write_type_id(w, (uint32_t)a); break;
    case K_REF: {
      bool is_new = false;
      st = desert_write_ref(w, &rt_objs[a], &is_new);
      if (is_new) st = desert_write_u8(w, (uint8_t)a);
      break;
    }
    case K_TUPLE:
      desert_write_tuple_begin(w);
      desert_write_i64(w, (int64_t)(a >> 1));
      st = desert_write_cstring(w, "t");
      break;
    default: fail();
    }
    if (st != DESERT_OK) {
      print_error("op %zu (kind %d): %s\n", i, op->kind, desert_status_name(st));
      fail();
    }
  }
}

static void rt_read(desert_reader *r, const rt_op *ops, size_t count) {
  for (size_t i = 0; i < count; i++) {
    const rt_op *op = &ops[i];
    uint64_t a = op->a;
    size_t at = desert_reader_offset(r);
    switch (op->kind) {
    case K_U8: {
      uint8_t v;
      assert_int_equal(desert_read_u8(r, &v), DESERT_OK);
      assert_int_equal(v, (uint8_t)a);
      break;
    }
    case K_I8: {
      int8_t v;
      assert_int_equal(desert_read_i8(r, &v), DESERT_OK);
      assert_int_equal(v, as_i8((uint8_t)a));
      break;
    }
    case K_U16: {
      uint16_t v;
      assert_int_equal(desert_read_u16(r, &v), DESERT_OK);
      assert_int_equal(v, (uint16_t)a);
      break;
    }
    case K_I16: {
      int16_t v;
      assert_int_equal(desert_read_i16(r, &v), DESERT_OK);
      uint16_t u;
      memcpy(&u, &v, 2);
      assert_int_equal(u, (uint16_t)a);
      break;
    }
    case K_U32: {
      uint32_t v;
      assert_int_equal(desert_read_u32(r, &v), DESERT_OK);
      assert_int_equal(v, (uint32_t)a);
      break;
    }
    case K_I32: {
      int32_t v;
      assert_int_equal(desert_read_i32(r, &v), DESERT_OK);
      uint32_t u;
      memcpy(&u, &v, 4);
      assert_int_equal(u, (uint32_t)a);
      break;
    }
    case K_U64: {
      uint64_t v;
      assert_int_equal(desert_read_u64(r, &v), DESERT_OK);
      assert_true(v == a);
      break;
    }
    case K_I64: {
      int64_t v;
      assert_int_equal(desert_read_i64(r, &v), DESERT_OK);
      uint64_t u;
      memcpy(&u, &v, 8);
      assert_true(u == a);
      break;
    }
    case K_U128: {
      desert_u128 v;
      assert_int_equal(desert_read_u128(r, &v), DESERT_OK);
      assert_true(v.hi == a && v.lo == op->b);
      break;
    }
    case K_F32: {
      float v;
      assert_int_equal(desert_read_f32(r, &v), DESERT_OK);
      assert_int_equal(f32_to_bits(v), (uint32_t)a);
      break;
    }
    case K_F64: {
      uint64_t v;
      assert_int_equal(desert_read_f64_bits(r, &v), DESERT_OK);
      assert_true(v == a);
      break;
    }
    case K_BOOL: {
      bool v;
      assert_int_equal(desert_read_bool(r, &v), DESERT_OK);
      assert_int_equal(v, (a & 1) != 0);
      break;
    }
    case K_VU32:
    case K_TYPEID: {
      uint32_t v;
      assert_int_equal(op->kind == K_VU32 ? desert_read_var_u32(r, &v) : desert_read_type_id(r, &v),
                       DESERT_OK);
      assert_int_equal(v, (uint32_t)a);
      break;
    }
    case K_VI32: {
      int32_t v;
      assert_int_equal(desert_read_var_i32(r, &v), DESERT_OK);
      uint32_t u;
      memcpy(&u, &v, 4);
      assert_int_equal(u, (uint32_t)a);
      break;
    }
    case K_CHAR: {
      uint32_t v;
      assert_int_equal(desert_read_char(r, &v), DESERT_OK);
      assert_int_equal(v, (uint32_t)a);
      break;
    }
    case K_CHAR16: {
      uint16_t v;
      assert_int_equal(desert_read_char16(r, &v), DESERT_OK);
      assert_int_equal(v, (uint16_t)a);
      break;
    }
    case K_STR:
    case K_STR16:
    case K_STRL1: {
      desert_str s;
      assert_int_equal(desert_read_string(r, &s), DESERT_OK);
      const uint8_t *want = op->kind == K_STR ? op->data : op->utf8;
      desert_assert_bytes_equal(want, op->ulen, s.ptr, s.len);
      break;
    }
    case K_DEDUP: {
      desert_str s;
      assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
      desert_assert_bytes_equal(rt_pool[a], strlen(rt_pool[a]), s.ptr, s.len);
      break;
    }
    case K_BYTES: {
      desert_bytes b;
      assert_int_equal(desert_read_bytes(r, &b), DESERT_OK);
      desert_assert_bytes_equal(op->data, op->n, b.ptr, b.len);
      break;
    }
    case K_I32ARR:
    case K_F32ARR:
    case K_VU32ARR:
    case K_U64ARR: {
      desert_seq seq;
      assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
      assert_true(seq.known);
      assert_int_equal(seq.count, op->n);
      uint64_t got[RT_BUF / 8];
      memset(got, 0xee, sizeof got);
      size_t width = op->kind == K_U64ARR ? 8 : 4;
      if (op->kind == K_I32ARR)
        assert_int_equal(desert_read_i32_array(r, (int32_t *)(void *)got, op->n), DESERT_OK);
      else if (op->kind == K_F32ARR)
        assert_int_equal(desert_read_f32_array(r, (float *)(void *)got, op->n), DESERT_OK);
      else if (op->kind == K_VU32ARR)
        assert_int_equal(desert_read_var_u32_array(r, (uint32_t *)(void *)got, op->n), DESERT_OK);
      else
        assert_int_equal(desert_read_u64_array(r, (uint64_t *)(void *)got, op->n), DESERT_OK);
      desert_assert_bytes_equal(op->data, width * op->n, got, width * op->n);
      break;
    }
    case K_VI32ARR: {
      int32_t got[64];
      assert_int_equal(desert_read_var_i32_array(r, got, op->n), DESERT_OK);
      desert_assert_bytes_equal(op->data, 4 * op->n, got, 4 * op->n);
      break;
    }
    case K_U16ARR: {
      uint16_t got[128];
      assert_int_equal(desert_read_u16_array(r, got, op->n), DESERT_OK);
      desert_assert_bytes_equal(op->data, 2 * op->n, got, 2 * op->n);
      break;
    }
    case K_F64ARR: {
      double got[64];
      assert_int_equal(desert_read_f64_array(r, got, op->n), DESERT_OK);
      desert_assert_bytes_equal(op->data, 8 * op->n, got, 8 * op->n);
      break;
    }
    case K_STREAM: {
      desert_seq seq;
      assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
      assert_false(seq.known);
      size_t k = 0;
      while (desert_read_seq_next(r, &seq)) {
        uint8_t v;
        assert_true(k < op->n);
        assert_int_equal(desert_read_u8(r, &v), DESERT_OK);
        assert_int_equal(v, op->data[k]);
        k++;
      }
      assert_int_equal(desert_reader_status(r), DESERT_OK);
      assert_int_equal(k, op->n);
      assert_int_equal(seq.count, op->n);
      break;
    }
    case K_OPTION: {
      bool some;
      assert_int_equal(desert_read_option(r, &some), DESERT_OK);
      assert_int_equal(some, (a & 1) != 0);
      if (some) {
        uint16_t v;
        assert_int_equal(desert_read_u16(r, &v), DESERT_OK);
        assert_int_equal(v, (uint16_t)op->b);
      }
      break;
    }
    case K_UUID: {
      uint8_t u[16];
      assert_int_equal(desert_read_uuid(r, u), DESERT_OK);
      assert_memory_equal(u, op->data, 16);
      break;
    }
    case K_REF: {
      void *obj = (void *)1;
      assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
      if (obj == NULL) {
        uint8_t tag;
        assert_int_equal(desert_read_u8(r, &tag), DESERT_OK);
        assert_int_equal(tag, (uint8_t)a);
        assert_int_equal(desert_reader_register_ref(r, &rt_objs[tag]), DESERT_OK);
      } else {
        assert_ptr_equal(obj, &rt_objs[a]);
      }
      break;
    }
    case K_TUPLE: {
      uint8_t ver;
      int64_t v;
      desert_str s;
      assert_int_equal(desert_read_u8(r, &ver), DESERT_OK);
      assert_int_equal(ver, 0);
      assert_int_equal(desert_read_i64(r, &v), DESERT_OK);
      assert_true(v == (int64_t)(a >> 1));
      assert_int_equal(desert_read_string(r, &s), DESERT_OK);
      assert_int_equal(s.len, 1);
      assert_int_equal(s.ptr[0], 't');
      break;
    }
    default: fail();
    }
    if (desert_reader_status(r) != DESERT_OK) {
      print_error("op %zu (kind %d) at offset %zu: %s\n", i, op->kind, at,
                  desert_status_name(desert_reader_status(r)));
      fail();
    }
  }
}

static void test_random_roundtrip_every_isa(void **state) {
  (void)state;
  enum { N_OPS = 300, ROUNDS = 12 };
  rt_op *ops = malloc(N_OPS * sizeof *ops);
  assert_non_null(ops);
  uint8_t *ref = NULL;
  for (unsigned round = 0; round < ROUNDS; round++) {
    desert_rng g;
    desert_rng_init_test(&g, 0x5eed0000u + round);
    rt_generate(&g, ops, N_OPS);
    size_t ref_len = 0;
    int isas = 0;
    for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
      if (!desert_isa_runnable((desert_isa)isa)) continue;
      isas++;
      desert_options o;
      desert_options_init(&o);
      o.isa = (desert_isa)isa;
      desert_writer *w = NULL;
      desert_reader *r = NULL;
      assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
      assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
      assert_int_equal(desert_writer_isa(w), isa);
      assert_int_equal(desert_reader_isa(r), isa);
      rt_write(w, ops, N_OPS);
      assert_int_equal(desert_writer_status(w), DESERT_OK);
      size_t len;
      const uint8_t *d = desert_writer_data(w, &len);
      assert_non_null(d);
      if (ref == NULL) {
        ref = malloc(len ? len : 1);
        assert_non_null(ref);
        memcpy(ref, d, len);
        ref_len = len;
      } else {
        /* every ISA writes the same bytes */
        desert_assert_bytes_equal(ref, ref_len, d, len);
      }
      /* size-only mode counts exactly the same bytes */
      desert_writer_count_only(w);
      rt_write(w, ops, N_OPS);
      assert_int_equal(desert_writer_size(w), ref_len);
      assert_int_equal(desert_reader_begin(r, ref, ref_len), DESERT_OK);
      rt_read(r, ops, N_OPS);
      ct_expect_fully_read(r, ref_len);
      desert_reader_free(r);
      desert_writer_free(w);
    }
    assert_true(isas >= 1);
    free(ref);
    ref = NULL;
  }
  free(ops);
}

int main(void) {
  desert_test_check_expected_isa();
  (void)desert_test_seed();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fixed_width_encode),
      cmocka_unit_test(test_fixed_width_decode),
      cmocka_unit_test(test_u128),
      cmocka_unit_test(test_f32_bit_patterns),
      cmocka_unit_test(test_f64_bit_patterns),
      cmocka_unit_test(test_bool),
      cmocka_unit_test(test_var_u32_table),
      cmocka_unit_test(test_var_i32_table),
      cmocka_unit_test(test_var_boundaries),
      cmocka_unit_test(test_var_overlong_accepted),
      cmocka_unit_test(test_var_lenient_fifth_byte),
      cmocka_unit_test(test_char_default_mode),
      cmocka_unit_test(test_char_scala_mode),
      cmocka_unit_test(test_char16),
      cmocka_unit_test(test_uuid),
      cmocka_unit_test(test_raw_and_type_id),
      cmocka_unit_test(test_random_roundtrip_every_isa),
  };
  return cmocka_run_group_tests_name("codec_primitives", tests, NULL, NULL);
}
