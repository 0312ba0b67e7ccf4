/* test/test_codec_errors.c — every error kind the writer and reader core can
 * raise (docs/format.md §18), each provoked by a crafted input with its status
 * and error offset (docs/schema.md §14.5) asserted: truncation at every byte of
 * every example (on guard-page buffers), over-long varints, negative
 * lengths, bad tags, invalid UTF-8, unknown string/ref ids, invalid chars,
 * depth and length limits, writer-side length/char/UTF-16 errors, huge
 * length prefixes that must fail without allocating, and sticky errors.
 * SPDX-License-Identifier: MIT */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE under -std=c11 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "desert/reader.h"
#include "desert/writer.h"
#include "codec_testlib.h"
#include "guarded.h"
#include "oracle.h"
#include "test_util.h"

/* ---- truncation at every byte of every example ------------------------------------ */

/* Readers of the examples: each reads its whole example in order and keeps
 * going after an error (errors are sticky, so that must be harmless). */
static void rd_u8(desert_reader *r) { uint8_t v; desert_read_u8(r, &v); }
static void rd_i8(desert_reader *r) { int8_t v; desert_read_i8(r, &v); }
static void rd_u16(desert_reader *r) { uint16_t v; desert_read_u16(r, &v); }
static void rd_i16(desert_reader *r) { int16_t v; desert_read_i16(r, &v); }
static void rd_u32(desert_reader *r) { uint32_t v; desert_read_u32(r, &v); }
static void rd_i32(desert_reader *r) { int32_t v; desert_read_i32(r, &v); }
static void rd_u64(desert_reader *r) { uint64_t v; desert_read_u64(r, &v); }
static void rd_i64(desert_reader *r) { int64_t v; desert_read_i64(r, &v); }
static void rd_u128(desert_reader *r) { desert_u128 v; desert_read_u128(r, &v); }
static void rd_f32(desert_reader *r) { float v; desert_read_f32(r, &v); }
static void rd_f64(desert_reader *r) { double v; desert_read_f64(r, &v); }
static void rd_f32b(desert_reader *r) { uint32_t v; desert_read_f32_bits(r, &v); }
static void rd_f64b(desert_reader *r) { uint64_t v; desert_read_f64_bits(r, &v); }
static void rd_bool(desert_reader *r) { bool v; desert_read_bool(r, &v); }
static void rd_vu32(desert_reader *r) { uint32_t v; desert_read_var_u32(r, &v); }
static void rd_vi32(desert_reader *r) { int32_t v; desert_read_var_i32(r, &v); }
static void rd_char(desert_reader *r) { uint32_t v; desert_read_char(r, &v); }
static void rd_char16(desert_reader *r) { uint16_t v; desert_read_char16(r, &v); }
static void rd_string(desert_reader *r) { desert_str s; desert_read_string(r, &s); }
static void rd_uuid(desert_reader *r) { uint8_t u[16]; desert_read_uuid(r, u); }
static void rd_typeid_i32(desert_reader *r) { rd_vu32(r); rd_i32(r); }
static void rd_bytes(desert_reader *r) { desert_bytes b; desert_read_bytes(r, &b); }
static void rd_dedup4(desert_reader *r) {
  desert_str s;
  for (int i = 0; i < 4; i++) desert_read_dedup_string(r, &s);
}
static void rd_seq_i32(desert_reader *r) {
  desert_seq seq;
  if (desert_read_seq_begin(r, &seq)) return;
  while (desert_read_seq_next(r, &seq)) rd_i32(r);
}
static void rd_count_i32_array(desert_reader *r) {
  desert_seq seq;
  int32_t dst[64];
  if (desert_read_seq_begin(r, &seq)) return;
  assert_true(seq.count <= 64);
  desert_read_i32_array(r, dst, seq.count);
}
static void rd_u16_array20(desert_reader *r) { uint16_t d[20]; desert_read_u16_array(r, d, 20); }
static void rd_u64_array17(desert_reader *r) { uint64_t d[17]; desert_read_u64_array(r, d, 17); }
static void rd_f64_array3(desert_reader *r) { double d[3]; desert_read_f64_array(r, d, 3); }
static void rd_vu32_array20(desert_reader *r) { uint32_t d[20]; desert_read_var_u32_array(r, d, 20); }
static void rd_vi32_array20(desert_reader *r) { int32_t d[20]; desert_read_var_i32_array(r, d, 20); }
static void rd_map_i32_i32(desert_reader *r) {
  desert_seq seq;
  if (desert_read_seq_begin(r, &seq)) return;
  while (desert_read_seq_next(r, &seq)) {
    rd_u8(r);
    rd_i32(r);
    rd_i32(r);
  }
}
static void rd_option_i32(desert_reader *r) {
  bool some = false;
  desert_read_option(r, &some);
  if (some) rd_i32(r);
}
static void rd_either_str(desert_reader *r) {
  bool right = true;
  desert_read_either(r, &right);
  if (!right) rd_string(r);
}
static void rd_try_u8(desert_reader *r) {
  bool ok = false;
  desert_read_try(r, &ok);
  if (ok) rd_u8(r);
}
static void rd_tuple(desert_reader *r) {
  rd_u8(r);
  rd_i32(r);
  rd_string(r);
}
static void rd_refs(desert_reader *r) {
  static int obj;
  void *o = NULL;
  if (desert_read_ref(r, &o) == DESERT_OK && o == NULL) {
    rd_i32(r);
    desert_reader_register_ref(r, &obj);
  }
  desert_read_ref(r, &o);
}

typedef struct trunc_case {
  const char *name;
  const char *hex; /* items separated by '|' (docs/schema.md §14.5) */
  unsigned flags;
  void (*read)(desert_reader *r);
} trunc_case;

static char long_i32_hex[1024], long_u16_hex[512], long_u64_hex[2048], var_arr_hex[512],
    var_arr_i_hex[512], long_str_hex[512], long_seq_hex[1024];

static void build_long_examples(void) {
  char *p = long_i32_hex;
  p += sprintf(p, "28");
  for (int i = 0; i < 20; i++) p += sprintf(p, " | %02x 00 00 %02x", i * 3, i + 1);
  p = long_seq_hex;
  p += sprintf(p, "01");
  for (int i = 0; i < 17; i++) p += sprintf(p, " | 01 | 00 00 00 %02x", i);
  p += sprintf(p, " | 00");
  p = long_u16_hex;
  p += sprintf(p, "00 01");
  for (int i = 1; i < 20; i++) p += sprintf(p, " | %02x %02x", i, 255 - i);
  p = long_u64_hex;
  p += sprintf(p, "01 02 03 04 05 06 07 08");
  for (int i = 1; i < 17; i++) p += sprintf(p, " | 00 00 00 00 00 00 %02x %02x", i, i);
  /* 20 var_u32 values of every length */
  static const char *const vals[] = {"00", "7f", "80 01", "ff 7f", "80 80 01", "ff ff 7f",
                                     "80 80 80 01", "ff ff ff ff 0f", "01", "ac 02"};
  p = var_arr_hex;
  for (int i = 0; i < 20; i++) p += sprintf(p, "%s%s", i ? " | " : "", vals[i % 10]);
  p = var_arr_i_hex;
  for (int i = 0; i < 20; i++) p += sprintf(p, "%s%s", i ? " | " : "", vals[(i * 3) % 10]);
  p = long_str_hex;
  p += sprintf(p, "50 |");
  for (int i = 0; i < 40; i++) p += sprintf(p, " %02x", 0x41 + i % 26);
}

static const trunc_case trunc_cases[] = {
    {"u8", "ff", 0, rd_u8},
    {"i8", "80", 0, rd_i8},
    {"u16", "12 34", 0, rd_u16},
    {"i16", "ff fe", 0, rd_i16},
    {"u32", "01 02 03 04", 0, rd_u32},
    {"i32", "80 00 00 00", 0, rd_i32},
    {"u64", "01 02 03 04 05 06 07 08", 0, rd_u64},
    {"i64", "80 00 00 00 00 00 00 00", 0, rd_i64},
    {"u128", "01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10", 0, rd_u128},
    {"f32", "3f 80 00 00", 0, rd_f32},
    {"f64", "7f f4 00 00 00 ab cd ef", 0, rd_f64},
    {"f32 bits", "7f a0 00 01", 0, rd_f32b},
    {"f64 bits", "3f f0 00 00 00 00 00 00", 0, rd_f64b},
    {"bool", "02", 0, rd_bool},
    {"var_u32 0", "00", 0, rd_vu32},
    {"var_u32 128", "80 01", 0, rd_vu32},
    {"var_u32 300", "ac 02", 0, rd_vu32},
    {"var_u32 16383", "ff 7f", 0, rd_vu32},
    {"var_u32 16384", "80 80 01", 0, rd_vu32},
    {"var_u32 2097152", "80 80 80 01", 0, rd_vu32},
    {"var_u32 268435456", "80 80 80 80 01", 0, rd_vu32},
    {"var_u32 max", "ff ff ff ff 0f", 0, rd_vu32},
    {"var_u32 lenient", "80 80 80 80 80", DESERT_OPT_LENIENT_VARINT, rd_vu32},
    {"var_i32 -65", "81 01", 0, rd_vi32},
    {"var_i32 max", "fe ff ff ff 0f", 0, rd_vi32},
    {"var_i32 min", "ff ff ff ff 0f", 0, rd_vi32},
    {"char", "80 ec 07", 0, rd_char},
    {"char scala", "00 41", DESERT_OPT_SCALA_CHARS, rd_char},
    {"char16", "d8 00", 0, rd_char16},
    {"string hello", "0a | 68 65 6c 6c 6f", 0, rd_string},
    {"string empty", "00", 0, rd_string},
    {"string e-acute", "04 | c3 a9", 0, rd_string},
    {"string long", long_str_hex, 0, rd_string},
    {"string lenient", "06 | 61 80 62", DESERT_OPT_LENIENT_UTF8, rd_string},
    {"dedup example", "08 | 73 61 6d 65 | 0a | 6f 74 68 65 72 | 01 | 03", 0, rd_dedup4},
    {"bytes", "03 | 01 02 03", 0, rd_bytes},
    {"known [1,2]", "04 | 00 00 00 01 | 00 00 00 02", 0, rd_seq_i32},
    {"known [1,2] array", "04 | 00 00 00 01 | 00 00 00 02", 0, rd_count_i32_array},
    {"known 20 i32 array", long_i32_hex, 0, rd_count_i32_array},
    {"unknown [1,2]", "01 | 01 | 00 00 00 01 | 01 | 00 00 00 02 | 00", 0, rd_seq_i32},
    {"unknown 17", long_seq_hex, 0, rd_seq_i32},
    {"u16 array 20", long_u16_hex, 0, rd_u16_array20},
    {"u64 array 17", long_u64_hex, 0, rd_u64_array17},
    {"f64 array 3", "00 00 00 00 00 00 00 01 | 7f f8 00 00 00 00 00 00 | 80 00 00 00 00 00 00 00", 0,
     rd_f64_array3},
    {"var_u32 array 20", var_arr_hex, 0, rd_vu32_array20},
    {"var_i32 array 20", var_arr_i_hex, 0, rd_vi32_array20},
    {"var_u32 array lenient", var_arr_hex, DESERT_OPT_LENIENT_VARINT, rd_vu32_array20},
    {"map {1->2}", "02 | 00 | 00 00 00 01 | 00 00 00 02", 0, rd_map_i32_i32},
    {"option Some", "01 | 00 00 00 05", 0, rd_option_i32},
    {"either Left", "00 | 02 | 78", 0, rd_either_str},
    {"try Success", "01 | 2a", 0, rd_try_u8},
    {"tuple (1,\"x\")", "00 | 00 00 00 01 | 02 | 78", 0, rd_tuple},
    {"uuid", "d9 0c 42 85 54 4d 42 4d 88 5c 39 40 fe 00 88 3d", 0, rd_uuid},
    {"type id framing", "ac 02 | 00 00 00 05", 0, rd_typeid_i32},
    {"refs", "00 | 00 00 00 0a | 01", 0, rd_refs},
};

static void test_truncation_every_byte(void **state) {
  (void)state;
  build_long_examples();
  desert_guarded g;
  assert_int_equal(desert_guarded_init(&g, 4096, DESERT_GUARD_AFTER), 0);
  int ran = 0;
  for (int isa = DESERT_ISA_SCALAR; isa <= DESERT_ISA_NEON; isa++) {
    if (!desert_isa_runnable((desert_isa)isa)) continue;
    ran++;
    for (size_t c = 0; c < sizeof trunc_cases / sizeof trunc_cases[0]; c++) {
      const trunc_case *tc = &trunc_cases[c];
      uint8_t full[1024];
      size_t total = ct_hex_to(tc->hex, full, sizeof full);
      /* item starts and ends from the '|' separators */
      size_t starts[128], ends[128], items = 0, bytes = 0;
      int digits = 0;
      starts[0] = 0;
      for (const char *p = tc->hex;; p++) {
        if (*p == '|' || *p == '\0') {
          ends[items++] = bytes;
          if (*p == '\0') break;
          starts[items] = bytes;
        } else if (*p != ' ') {
          if (++digits == 2) {
            digits = 0;
            bytes++;
          }
        }
      }
      assert_int_equal(bytes, total);
      desert_options o;
      desert_options_init(&o);
      o.flags = tc->flags;
      o.isa = (desert_isa)isa;
      desert_reader *r = ct_new_reader_opt(&o);
      for (size_t len = 0; len <= total; len++) {
        const uint8_t *in = desert_guarded_place_copy(&g, full, len);
        assert_non_null(in);
        assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
        tc->read(r);
        desert_status want = DESERT_OK;
        size_t want_off = 0;
        for (size_t i = 0; i < items && len < total; i++) {
          if (ends[i] > len) {
            want = DESERT_E_INPUT_ENDED;
            want_off = starts[i];
            break;
          }
        }
        if (desert_reader_status(r) != want || desert_reader_error_offset(r) != want_off) {
          print_error("[%s] %s cut to %zu of %zu bytes: got %s at %zu, want %s at %zu\n",
                      desert_isa_name((desert_isa)isa), tc->name, len, total,
                      desert_status_name(desert_reader_status(r)), desert_reader_error_offset(r),
                      desert_status_name(want), want_off);
          fail();
        }
        if (want == DESERT_OK) assert_int_equal(desert_reader_offset(r), total);
      }
      desert_reader_free(r);
    }
  }
  assert_true(ran >= 1);
  desert_guarded_free(&g);
}

/* ---- var_u32 with a continuation bit on the 5th byte (docs/format.md §3.2) ---------- */

typedef desert_status (*varint_ctx_fn)(desert_reader *r);
static desert_status ctx_vu32(desert_reader *r) { uint32_t v; return desert_read_var_u32(r, &v); }
static desert_status ctx_vi32(desert_reader *r) { int32_t v; return desert_read_var_i32(r, &v); }
static desert_status ctx_str(desert_reader *r) { desert_str s; return desert_read_string(r, &s); }
static desert_status ctx_dedup(desert_reader *r) { desert_str s; return desert_read_dedup_string(r, &s); }
static desert_status ctx_bytes(desert_reader *r) { desert_bytes b; return desert_read_bytes(r, &b); }
static desert_status ctx_seq(desert_reader *r) { desert_seq q; return desert_read_seq_begin(r, &q); }
static desert_status ctx_char(desert_reader *r) { uint32_t c; return desert_read_char(r, &c); }
static desert_status ctx_type(desert_reader *r) { uint32_t t; return desert_read_type_id(r, &t); }
static desert_status ctx_ref(desert_reader *r) { void *o; return desert_read_ref(r, &o); }
static desert_status ctx_vu32_arr(desert_reader *r) { uint32_t d[2]; return desert_read_var_u32_array(r, d, 2); }
static desert_status ctx_vi32_arr(desert_reader *r) { int32_t d[2]; return desert_read_var_i32_array(r, d, 2); }

static void test_varint_too_long_everywhere(void **state) {
  (void)state;
  static const struct {
    const char *name;
    varint_ctx_fn fn;
  } ctxs[] = {
      {"var_u32", ctx_vu32},   {"var_i32", ctx_vi32},     {"string length", ctx_str},
      {"dedup id", ctx_dedup}, {"bytes length", ctx_bytes}, {"collection count", ctx_seq},
      {"char", ctx_char},      {"type id", ctx_type},     {"ref id", ctx_ref},
      {"var_u32 array", ctx_vu32_arr}, {"var_i32 array", ctx_vi32_arr},
  };
  static const char *const inputs[] = {"aa | 80 80 80 80 80 | 00 00", "aa | ff ff ff ff ff | 00 00",
                                       "aa | 80 80 80 80 f0 | 00 00"};
  for (size_t c = 0; c < sizeof ctxs / sizeof ctxs[0]; c++) {
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
      desert_reader *r = ct_new_reader(0);
      uint8_t buf[16];
      ct_begin_hex(r, inputs[i], buf, sizeof buf);
      uint8_t b;
      assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
      desert_status st = ctxs[c].fn(r);
      if (st != DESERT_E_VARINT_TOO_LONG || desert_reader_error_offset(r) != 1) {
        print_error("%s on %s: %s at %zu, want VARINT_TOO_LONG at 1\n", ctxs[c].name, inputs[i],
                    desert_status_name(st), desert_reader_error_offset(r));
        fail();
      }
      desert_reader_free(r);
    }
  }
  /* lenient: the same bytes are a value, the next item follows the 5th byte */
  desert_reader *r = ct_new_reader(DESERT_OPT_LENIENT_VARINT);
  uint8_t buf[32];
  ct_begin_hex(r, "80 80 80 80 80 | 80 80 80 80 80 | 80 80 80 80 80 | ff ff ff ff ff | 2a", buf,
               sizeof buf);
  desert_str s = {NULL, 9};
  desert_bytes bb = {NULL, 9};
  desert_seq q;
  uint32_t t = 1;
  uint8_t b;
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, 0);
  assert_int_equal(desert_read_bytes(r, &bb), DESERT_OK);
  assert_int_equal(bb.len, 0);
  assert_int_equal(desert_read_seq_begin(r, &q), DESERT_OK);
  assert_true(q.known);
  assert_int_equal(q.count, 0);
  assert_int_equal(desert_read_type_id(r, &t), DESERT_OK);
  assert_int_equal(t, 0xffffffffu);
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(b, 0x2a);
  assert_int_equal(desert_reader_remaining(r), 0);
  desert_reader_free(r);
}

/* ---- negative lengths and counts below -1 (docs/format.md §5.1, §6.2) ---------------- */

static void test_negative_lengths(void **state) {
  (void)state;
  static const char *const neg[] = {"01", "03", "7f", "81 01", "ff ff ff ff 0f", "fd ff ff ff 0f"};
  for (int lenient = 0; lenient < 2; lenient++) {
    desert_reader *r =
        ct_new_reader(lenient ? DESERT_OPT_LENIENT_TAGS | DESERT_OPT_LENIENT_UTF8 : 0);
    for (size_t i = 0; i < sizeof neg / sizeof neg[0]; i++) {
      char hex[64];
      snprintf(hex, sizeof hex, "00 00 | %s | 61 61 61", neg[i]);
      uint8_t buf[16];
      ct_begin_hex(r, hex, buf, sizeof buf);
      const uint8_t *p;
      assert_int_equal(desert_read_raw(r, 2, &p), DESERT_OK);
      desert_str s = {"keep", 4};
      assert_int_equal(desert_read_string(r, &s), DESERT_E_NEGATIVE_LENGTH);
      ct_expect_error(r, DESERT_E_NEGATIVE_LENGTH, 2);
      assert_int_equal(s.len, 4);
    }
    /* counts: -1 is the unknown-size form, anything below is an error */
    for (size_t i = 1; i < sizeof neg / sizeof neg[0]; i++) {
      char hex[64];
      snprintf(hex, sizeof hex, "00 | %s | 00", neg[i]);
      uint8_t buf[16];
      ct_begin_hex(r, hex, buf, sizeof buf);
      uint8_t b;
      assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
      desert_seq q;
      memset(&q, 0x5a, sizeof q);
      assert_int_equal(desert_read_seq_begin(r, &q), DESERT_E_NEGATIVE_LENGTH);
      ct_expect_error(r, DESERT_E_NEGATIVE_LENGTH, 1);
      assert_false(desert_read_seq_next(r, &q));
    }
    desert_reader_free(r);
  }
}

/* ---- tag bytes (docs/format.md §7, §6.2): strict vs lenient ----------------------------- */

static void test_invalid_tags(void **state) {
  (void)state;
  static const uint8_t bad[] = {0x02, 0x03, 0x7f, 0x80, 0xfe, 0xff};
  for (size_t i = 0; i < sizeof bad; i++) {
    for (int which = 0; which < 4; which++) {
      uint8_t in[4] = {0x00, 0x01, bad[i], 0x00};
      for (int lenient = 0; lenient < 2; lenient++) {
        desert_reader *r = ct_new_reader(lenient ? DESERT_OPT_LENIENT_TAGS : 0);
        assert_int_equal(desert_reader_begin(r, in, sizeof in), DESERT_OK);
        bool v1 = true, v2 = false, v3 = false;
        desert_status st;
        if (which == 3) {
          /* unknown-size collection "01 | <marker>" after a 00 byte */
          uint8_t b;
          desert_seq q;
          assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
          assert_int_equal(desert_read_seq_begin(r, &q), DESERT_OK);
          assert_false(q.known);
          bool more = desert_read_seq_next(r, &q);
          st = desert_reader_status(r);
          assert_int_equal(more, lenient ? true : false);
        } else {
          desert_status (*fn)(desert_reader *, bool *) =
              which == 0 ? desert_read_option : which == 1 ? desert_read_either : desert_read_try;
          assert_int_equal(fn(r, &v1), DESERT_OK);
          assert_false(v1);
          assert_int_equal(fn(r, &v2), DESERT_OK);
          assert_true(v2);
          st = fn(r, &v3);
          assert_int_equal(v3, lenient ? true : false);
        }
        if (lenient) {
          assert_int_equal(st, DESERT_OK);
          assert_int_equal(desert_reader_offset(r), 3);
        } else {
          assert_int_equal(st, DESERT_E_INVALID_TAG);
          ct_expect_error(r, DESERT_E_INVALID_TAG, 2);
        }
        desert_reader_free(r);
      }
    }
  }
}

/* ---- invalid UTF-8 offsets in context ------------------------------------------------ */

static void test_invalid_utf8_offsets(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  uint8_t buf[64];
  /* third string of an unknown-size list: offset = its first byte */
  ct_begin_hex(r, "01 | 01 | 02 61 | 01 | 04 62 63 | 01 | 06 64 | ed a0 80 | 00", buf, sizeof buf);
  desert_seq q;
  desert_str s;
  assert_int_equal(desert_read_seq_begin(r, &q), DESERT_OK);
  int k = 0;
  while (desert_read_seq_next(r, &q)) {
    desert_read_string(r, &s);
    k++;
  }
  assert_int_equal(k, 3);
  ct_expect_error(r, DESERT_E_INVALID_UTF8, 10);
  /* dedup full string */
  ct_begin_hex(r, "02 61 | 01 | 04 c3 28", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_UTF8);
  ct_expect_error(r, DESERT_E_INVALID_UTF8, 4);
  /* an invalid dedup string is not registered: nothing to refer to */
  desert_reader_free(r);
  r = ct_new_reader(0);
  ct_begin_hex(r, "04 c3 28 | 01", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_UTF8);
  ct_expect_error(r, DESERT_E_INVALID_UTF8, 1);
  desert_reader_free(r);
}

/* ---- invalid chars (docs/format.md §4) ------------------------------------------------------ */

static void test_invalid_chars_read(void **state) {
  (void)state;
  static const char *const bad_default[] = {"80 b0 03", /* D800 */
                                            "ff bf 03", /* DFFF */
                                            "80 b8 03", /* DC00 */
                                            "80 80 44", /* 110000 */
                                            "ff ff ff ff 0f", "80 80 80 80 01"};
  static const char *const bad_scala[] = {"d8 00", "db ff", "dc 00", "df ff"};
  for (int mode = 0; mode < 2; mode++) {
    desert_reader *r = ct_new_reader(mode ? DESERT_OPT_SCALA_CHARS : 0);
    size_t n = mode ? 4 : 6;
    for (size_t i = 0; i < n; i++) {
      char hex[64];
      snprintf(hex, sizeof hex, "00 41 | %s", mode ? bad_scala[i] : bad_default[i]);
      uint8_t buf[16];
      ct_begin_hex(r, hex, buf, sizeof buf);
      uint32_t cp = 0;
      if (mode) {
        assert_int_equal(desert_read_char(r, &cp), DESERT_OK);
        assert_int_equal(cp, 0x41);
      } else {
        uint16_t u;
        assert_int_equal(desert_read_u16(r, &u), DESERT_OK);
      }
      cp = 0x1234;
      assert_int_equal(desert_read_char(r, &cp), DESERT_E_INVALID_CHAR);
      ct_expect_error(r, DESERT_E_INVALID_CHAR, 2);
      assert_int_equal(cp, 0x1234);
    }
    desert_reader_free(r);
  }
  /* char16 takes any unit */
  desert_reader *r = ct_new_reader(DESERT_OPT_SCALA_CHARS);
  uint8_t buf[4];
  ct_begin_hex(r, "d8 00", buf, sizeof buf);
  uint16_t u;
  assert_int_equal(desert_read_char16(r, &u), DESERT_OK);
  assert_int_equal(u, 0xd800);
  desert_reader_free(r);
}

static void test_invalid_chars_write(void **state) {
  (void)state;
  static const uint32_t invalid[] = {0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x110000, 0xFFFFFFFF};
  for (int mode = 0; mode < 2; mode++) {
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
      desert_writer *w = ct_new_writer(mode ? DESERT_OPT_SCALA_CHARS : 0);
      assert_int_equal(desert_write_u8(w, 1), DESERT_OK);
      assert_int_equal(desert_write_char(w, invalid[i]), DESERT_E_INVALID_CHAR);
      assert_int_equal(desert_writer_size(w), 1);
      assert_int_equal(desert_writer_status(w), DESERT_E_INVALID_CHAR);
      desert_writer_free(w);
    }
  }
  static const uint32_t non_bmp[] = {0x10000, 0x1F600, 0x10FFFF};
  for (size_t i = 0; i < 3; i++) {
    desert_writer *w = ct_new_writer(DESERT_OPT_SCALA_CHARS);
    assert_int_equal(desert_write_char(w, 0xFFFF), DESERT_OK);
    assert_int_equal(desert_write_char(w, non_bmp[i]), DESERT_E_UNSUPPORTED_CHAR);
    assert_int_equal(desert_writer_size(w), 2);
    assert_int_equal(desert_write_char(w, 'A'), DESERT_E_UNSUPPORTED_CHAR);
    assert_int_equal(desert_writer_size(w), 2);
    desert_writer_free(w);
    /* the default mode writes them */
    w = ct_new_writer(0);
    assert_int_equal(desert_write_char(w, non_bmp[i]), DESERT_OK);
    desert_writer_free(w);
  }
}

/* ---- unknown ids -------------------------------------------------------------------------- */

static void test_unknown_ids(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  uint8_t buf[16];
  desert_str s;
  ct_begin_hex(r, "ff ff ff ff 0f", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  ct_expect_error(r, DESERT_E_INVALID_STRING_ID, 0);
  ct_begin_hex(r, "00 | 03", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  ct_expect_error(r, DESERT_E_INVALID_STRING_ID, 1);
  void *o;
  ct_begin_hex(r, "07", buf, sizeof buf);
  assert_int_equal(desert_read_ref(r, &o), DESERT_E_INVALID_REF_ID);
  ct_expect_error(r, DESERT_E_INVALID_REF_ID, 0);
  desert_reader_free(r);
}

/* ---- depth and length limits ------------------------------------------------------------ */

static void test_depth_limit(void **state) {
  (void)state;
  desert_options o;
  desert_options_init(&o);
  o.max_depth = 3;
  desert_reader *r = ct_new_reader_opt(&o);
  uint8_t buf[8] = {1, 2, 3, 4};
  assert_int_equal(desert_reader_begin(r, buf, 4), DESERT_OK);
  /* leaving more than entering must not wrap the depth around */
  desert_reader_leave(r);
  desert_reader_leave(r);
  uint8_t b;
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  for (int i = 0; i < 3; i++) assert_int_equal(desert_reader_enter(r), DESERT_OK);
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(desert_reader_enter(r), DESERT_E_DEPTH);
  ct_expect_error(r, DESERT_E_DEPTH, 2);
  assert_int_equal(desert_read_u8(r, &b), DESERT_E_DEPTH);
  /* begin resets the depth */
  assert_int_equal(desert_reader_begin(r, buf, 4), DESERT_OK);
  for (int i = 0; i < 3; i++) assert_int_equal(desert_reader_enter(r), DESERT_OK);
  desert_reader_leave(r);
  assert_int_equal(desert_reader_enter(r), DESERT_OK);
  assert_int_equal(desert_reader_enter(r), DESERT_E_DEPTH);
  ct_expect_error(r, DESERT_E_DEPTH, 0);
  desert_reader_free(r);

  /* default: 128 levels */
  r = ct_new_reader(0);
  assert_int_equal(desert_reader_begin(r, buf, 4), DESERT_OK);
  for (unsigned i = 0; i < DESERT_DEFAULT_MAX_DEPTH; i++)
    assert_int_equal(desert_reader_enter(r), DESERT_OK);
  assert_int_equal(desert_reader_enter(r), DESERT_E_DEPTH);
  desert_reader_free(r);
}

static void test_length_limits(void **state) {
  (void)state;
  desert_options o;
  desert_options_init(&o);
  o.max_length = 4;
  desert_reader *r = ct_new_reader_opt(&o);
  uint8_t buf[32];
  desert_str s;
  desert_bytes b;
  ct_begin_hex(r, "08 61 62 63 64 | 04 01 02 03 04", buf, sizeof buf);
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_bytes(r, &b), DESERT_OK);
  ct_begin_hex(r, "ee | 0a 61 62 63 64 65", buf, sizeof buf);
  uint8_t x;
  assert_int_equal(desert_read_u8(r, &x), DESERT_OK);
  assert_int_equal(desert_read_string(r, &s), DESERT_E_LIMIT);
  ct_expect_error(r, DESERT_E_LIMIT, 1);
  ct_begin_hex(r, "ee | 05 01 02 03 04 05", buf, sizeof buf);
  assert_int_equal(desert_read_u8(r, &x), DESERT_OK);
  assert_int_equal(desert_read_bytes(r, &b), DESERT_E_LIMIT);
  ct_expect_error(r, DESERT_E_LIMIT, 1);
  desert_reader_free(r);
}

/* ---- huge length prefixes fail without allocating ------------------------------------ */

static void test_huge_lengths_do_not_allocate(void **state) {
  (void)state;
  static const struct {
    const char *hex;
    int what; /* 0 string, 1 dedup, 2 bytes */
    unsigned flags;
    size_t max_length;
    desert_status st;
    size_t off;
  } cases[] = {
      {"fe ff ff ff 0f | 00 01 02 03 04 05 06 07 08 09", 0, 0, 0, DESERT_E_INPUT_ENDED, 5},
      {"fe ff ff ff 0f | 00 01 02 03 04 05 06 07 08 09", 0, DESERT_OPT_LENIENT_UTF8, 0,
       DESERT_E_INPUT_ENDED, 5},
      {"fe ff ff ff 0f | 80 81 82 83 84 85 86 87 88 89", 0, DESERT_OPT_LENIENT_UTF8, 0,
       DESERT_E_INPUT_ENDED, 5},
      {"fe ff ff ff 0f | 00 01 02 03 04 05 06 07 08 09", 1, 0, 0, DESERT_E_INPUT_ENDED, 5},
      {"fe ff ff ff 0f | 80 01 02 03 04 05 06 07 08 09", 1, DESERT_OPT_LENIENT_UTF8, 0,
       DESERT_E_INPUT_ENDED, 5},
      {"ff ff ff ff 07 | 00 01 02 03 04 05 06 07 08 09", 2, 0, 0, DESERT_E_INPUT_ENDED, 5},
      {"ff ff ff ff 0f | 00 01 02 03 04 05 06 07 08 09", 2, 0, SIZE_MAX, DESERT_E_INPUT_ENDED, 5},
      {"0c | 00 01 02 03 04", 0, DESERT_OPT_LENIENT_UTF8, 0, DESERT_E_INPUT_ENDED, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    desert_counting_allocator ca;
    desert_options o;
    ct_counting_options(&o, &ca);
    o.flags = cases[i].flags;
    o.max_length = cases[i].max_length;
    desert_reader *r = ct_new_reader_opt(&o);
    uint8_t buf[32];
    ct_begin_hex(r, cases[i].hex, buf, sizeof buf);
    size_t allocs = ca.allocs, bytes = ca.total_bytes;
    desert_str s;
    desert_bytes b;
    desert_status st = cases[i].what == 0   ? desert_read_string(r, &s)
                       : cases[i].what == 1 ? desert_read_dedup_string(r, &s)
                                            : desert_read_bytes(r, &b);
    if (st != cases[i].st || desert_reader_error_offset(r) != cases[i].off) {
      print_error("case %zu (%s): %s at %zu, want %s at %zu\n", i, cases[i].hex,
                  desert_status_name(st), desert_reader_error_offset(r),
                  desert_status_name(cases[i].st), cases[i].off);
      fail();
    }
    assert_int_equal(ca.allocs, allocs);
    assert_int_equal(ca.total_bytes, bytes);
    desert_reader_free(r);
    assert_int_equal(ca.live_blocks, 0);
    assert_int_equal(ca.bad_frees, 0);
  }

  /* a byte block of 2^32-1 with the default max_length (2^31): either the
   * limit (at the length) or the end of input (at the body), never memory */
  {
    desert_counting_allocator ca;
    desert_options o;
    ct_counting_options(&o, &ca);
    desert_reader *r = ct_new_reader_opt(&o);
    uint8_t buf[32];
    ct_begin_hex(r, "ff ff ff ff 0f | 00 01 02 03 04 05 06 07 08 09", buf, sizeof buf);
    size_t allocs = ca.allocs;
    desert_bytes b;
    desert_status st = desert_read_bytes(r, &b);
    assert_true((st == DESERT_E_LIMIT && desert_reader_error_offset(r) == 0) ||
                (st == DESERT_E_INPUT_ENDED && desert_reader_error_offset(r) == 5));
    assert_int_equal(ca.allocs, allocs);
    desert_reader_free(r);
  }

  /* collections claiming 2^31-1 elements: the count is accepted without
   * allocating; reading the elements runs out of input at the first element
   * that does not fit. dst is a real (lazily mapped) region of count
   * elements, so even a reader that wrote everything would stay in bounds;
   * only the pages actually written are touched. */
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_reader *r = ct_new_reader_opt(&o);
  uint8_t buf[32];
  ct_begin_hex(r, "fe ff ff ff 0f | 00 00 00 01 00 00 00 02 00 00", buf, sizeof buf);
  size_t allocs = ca.allocs;
  desert_seq q;
  assert_int_equal(desert_read_seq_begin(r, &q), DESERT_OK);
  assert_true(q.known);
  assert_int_equal(q.count, 2147483647u);
  assert_int_equal(ca.allocs, allocs);
  /* element by element */
  size_t k = 0;
  while (desert_read_seq_next(r, &q)) {
    int32_t v;
    if (desert_read_i32(r, &v) != DESERT_OK) break;
    assert_int_equal(v, (int32_t)k + 1);
    k++;
  }
  assert_int_equal(k, 2);
  ct_expect_error(r, DESERT_E_INPUT_ENDED, 13);
  assert_int_equal(ca.allocs, allocs);
  if (sizeof(size_t) >= 8) {
    const size_t count = 2147483647u;
    void *m = mmap(NULL, count * 4, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m != MAP_FAILED) {
      int32_t *dst = m;
      ct_begin_hex(r, "fe ff ff ff 0f | 00 00 00 01 00 00 00 02 00 00", buf, sizeof buf);
      assert_int_equal(desert_read_seq_begin(r, &q), DESERT_OK);
      assert_int_equal(desert_read_i32_array(r, dst, q.count), DESERT_E_INPUT_ENDED);
      ct_expect_error(r, DESERT_E_INPUT_ENDED, 13);
      /* varint run: 10 one-byte values, then the end */
      ct_begin_hex(r, "01 02 03 04 05 06 07 08 09 0a", buf, sizeof buf);
      assert_int_equal(desert_read_var_u32_array(r, (uint32_t *)m, count), DESERT_E_INPUT_ENDED);
      ct_expect_error(r, DESERT_E_INPUT_ENDED, 10);
      ct_begin_hex(r, "00 01 02 03 04 05 06 07 08 09 0a", buf, sizeof buf);
      assert_int_equal(desert_read_u64_array(r, (uint64_t *)m, count / 2), DESERT_E_INPUT_ENDED);
      ct_expect_error(r, DESERT_E_INPUT_ENDED, 8);
      munmap(m, count * 4);
    }
  }
  assert_int_equal(ca.allocs, allocs);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
}

/* ---- writer-side errors ----------------------------------------------------------------- */

static void test_writer_length_too_large(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_count(w, (size_t)INT32_MAX), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 5);
  assert_int_equal(desert_write_count(w, (size_t)INT32_MAX + 1), DESERT_E_LENGTH_TOO_LARGE);
  assert_int_equal(desert_writer_size(w), 5);
  desert_writer_reset(w);
  assert_int_equal(desert_write_count(w, SIZE_MAX), DESERT_E_LENGTH_TOO_LARGE);
  assert_int_equal(desert_writer_size(w), 0);
  /* byte blocks: var_u32 length, so 2^32-1 is the largest; the source is
   * never touched when the length is refused */
  desert_writer_reset(w);
  uint8_t small[4] = {0};
  assert_int_equal(desert_write_bytes(w, small, (size_t)UINT32_MAX + 1), DESERT_E_LENGTH_TOO_LARGE);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_free(w);
}

/* Strings of 2^31 bytes (zero pages, never touched for writing): too large
 * for var_i32; 2^31-1 is fine in size-only mode. */
static void test_writer_huge_strings(void **state) {
  (void)state;
  if (sizeof(size_t) < 8) {
    skip();
    return;
  }
  const size_t n = (size_t)1 << 31;
  void *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) {
    print_message("mmap of 2 GiB failed: skipped\n");
    skip();
    return;
  }
  desert_writer *w = ct_new_writer(0);
  desert_writer_count_only(w);
  assert_int_equal(desert_write_string_latin1(w, m, n), DESERT_E_LENGTH_TOO_LARGE);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_reset(w);
  assert_int_equal(desert_write_string(w, m, n), DESERT_E_LENGTH_TOO_LARGE);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_reset(w);
  assert_int_equal(desert_write_dedup_string(w, m, n), DESERT_E_LENGTH_TOO_LARGE);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_reset(w);
  assert_int_equal(desert_write_string(w, m, n - 1), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 5 + n - 1);
  desert_writer_free(w);
  munmap(m, n);
}

static void test_writer_utf16_errors(void **state) {
  (void)state;
  const uint16_t lone[3] = {'a', 0xD800, 'b'};
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_string_utf16(w, lone, 3), DESERT_E_INVALID_UTF16);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_free(w);
  w = ct_new_writer(DESERT_OPT_LENIENT_UTF8);
  assert_int_equal(desert_write_string_utf16(w, lone, 3), DESERT_OK);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  const uint8_t want[] = {0x06, 'a', '?', 'b'};
  desert_assert_bytes_equal(want, sizeof want, d, len);
  desert_writer_free(w);
}

/* NULL with a non-zero length is an argument error that sticks. */
static void test_writer_argument_errors(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_string(w, NULL, 1), DESERT_E_ARGUMENT);
  assert_int_equal(desert_write_u8(w, 1), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_reset(w);
  assert_int_equal(desert_write_bytes(w, NULL, 2), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(desert_write_raw(w, NULL, 2), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(desert_write_i32_array(w, NULL, 2), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(desert_write_var_u32_array(w, NULL, 2), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(desert_write_cstring(w, NULL), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_utf16(w, NULL, 1), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_latin1(w, NULL, 1), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  assert_int_equal(desert_write_dedup_string(w, NULL, 1), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  bool is_new;
  assert_int_equal(desert_write_ref(w, NULL, &is_new), DESERT_E_ARGUMENT);
  desert_writer_reset(w);
  int obj;
  assert_int_equal(desert_write_ref(w, &obj, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_free(w);
}

/* ---- sticky reader errors: nothing read, outputs untouched, first offset kept -------- */

static void test_reader_sticky(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  /* after "aa bb", an invalid option tag at offset 2; plenty of bytes after */
  uint8_t in[64];
  memset(in, 0x01, sizeof in);
  in[0] = 0xaa;
  in[1] = 0xbb;
  in[2] = 0x05;
  assert_int_equal(desert_reader_begin(r, in, sizeof in), DESERT_OK);
  const uint8_t *p;
  assert_int_equal(desert_read_raw(r, 2, &p), DESERT_OK);
  bool some = false;
  assert_int_equal(desert_read_option(r, &some), DESERT_E_INVALID_TAG);
  const desert_status E = DESERT_E_INVALID_TAG;
  const size_t at = desert_reader_offset(r);
  ct_expect_error(r, E, 2);

  uint8_t u8 = 0x11;
  int8_t i8 = 0x11;
  uint16_t u16 = 0x1111;
  int16_t i16 = 0x1111;
  uint32_t u32 = 0x11111111u;
  int32_t i32 = 0x11111111;
  uint64_t u64 = 0x1111111111111111ull;
  int64_t i64 = 0x1111111111111111ll;
  desert_u128 u128 = {1, 2};
  float f32 = 1.5f;
  double f64 = 2.5;
  bool b = false;
  const uint8_t *raw = in;
  desert_str s = {"keep", 4};
  desert_bytes bb = {in, 3};
  desert_seq q = {true, 42, 7, 99};
  uint8_t uuid[16];
  memset(uuid, 0x33, sizeof uuid);
  void *obj = in;
  uint32_t arr32[20];
  uint64_t arr64[20];
  uint16_t arr16[20];
  memset(arr32, 0x44, sizeof arr32);
  memset(arr64, 0x44, sizeof arr64);
  memset(arr16, 0x44, sizeof arr16);

  for (int round = 0; round < 2; round++) {
    assert_int_equal(desert_read_u8(r, &u8), E);
    assert_int_equal(desert_read_i8(r, &i8), E);
    assert_int_equal(desert_read_u16(r, &u16), E);
    assert_int_equal(desert_read_i16(r, &i16), E);
    assert_int_equal(desert_read_u32(r, &u32), E);
    assert_int_equal(desert_read_i32(r, &i32), E);
    assert_int_equal(desert_read_u64(r, &u64), E);
    assert_int_equal(desert_read_i64(r, &i64), E);
    assert_int_equal(desert_read_u128(r, &u128), E);
    assert_int_equal(desert_read_f32(r, &f32), E);
    assert_int_equal(desert_read_f64(r, &f64), E);
    assert_int_equal(desert_read_f32_bits(r, &u32), E);
    assert_int_equal(desert_read_f64_bits(r, &u64), E);
    assert_int_equal(desert_read_bool(r, &b), E);
    assert_int_equal(desert_read_raw(r, 1, &raw), E);
    assert_int_equal(desert_read_var_u32(r, &u32), E);
    assert_int_equal(desert_read_var_i32(r, &i32), E);
    assert_int_equal(desert_read_char(r, &u32), E);
    assert_int_equal(desert_read_char16(r, &u16), E);
    assert_int_equal(desert_read_string(r, &s), E);
    assert_int_equal(desert_read_dedup_string(r, &s), E);
    assert_int_equal(desert_read_bytes(r, &bb), E);
    assert_int_equal(desert_read_seq_begin(r, &q), E);
    assert_false(desert_read_seq_next(r, &q));
    q.known = false;
    assert_false(desert_read_seq_next(r, &q));
    q.known = true;
    assert_int_equal(desert_read_u16_array(r, arr16, 20), E);
    assert_int_equal(desert_read_i16_array(r, (int16_t *)arr16, 20), E);
    assert_int_equal(desert_read_u32_array(r, arr32, 20), E);
    assert_int_equal(desert_read_i32_array(r, (int32_t *)arr32, 20), E);
    assert_int_equal(desert_read_f32_array(r, (float *)(void *)arr32, 20), E);
    assert_int_equal(desert_read_u64_array(r, arr64, 20), E);
    assert_int_equal(desert_read_i64_array(r, (int64_t *)arr64, 20), E);
    assert_int_equal(desert_read_f64_array(r, (double *)(void *)arr64, 20), E);
    assert_int_equal(desert_read_var_u32_array(r, arr32, 20), E);
    assert_int_equal(desert_read_var_i32_array(r, (int32_t *)arr32, 20), E);
    assert_int_equal(desert_read_option(r, &b), E);
    assert_int_equal(desert_read_either(r, &b), E);
    assert_int_equal(desert_read_try(r, &b), E);
    assert_int_equal(desert_read_uuid(r, uuid), E);
    assert_int_equal(desert_read_ref(r, &obj), E);
    assert_int_equal(desert_reader_register_ref(r, in), E);
    assert_int_equal(desert_read_type_id(r, &u32), E);
    assert_int_equal(desert_reader_enter(r), E);
    assert_null(desert_reader_alloc(r, 16, 8));
    /* a later failure does not replace the first */
    assert_int_equal(desert_reader_fail(r, DESERT_E_INVALID_VALUE, 50), E);
    ct_expect_error(r, E, 2);
    assert_int_equal(desert_reader_offset(r), at);
  }
  assert_int_equal(u8, 0x11);
  assert_int_equal(i8, 0x11);
  assert_int_equal(u16, 0x1111);
  assert_int_equal(i16, 0x1111);
  assert_int_equal(u32, 0x11111111u);
  assert_int_equal(i32, 0x11111111);
  assert_true(u64 == 0x1111111111111111ull);
  assert_true(i64 == 0x1111111111111111ll);
  assert_true(u128.hi == 1 && u128.lo == 2);
  assert_true(f32 == 1.5f);
  assert_true(f64 == 2.5);
  assert_false(b);
  assert_ptr_equal(raw, in);
  assert_int_equal(s.len, 4);
  assert_string_equal(s.ptr, "keep");
  assert_ptr_equal(bb.ptr, in);
  assert_int_equal(bb.len, 3);
  assert_int_equal(q.count, 42);
  assert_int_equal(q.index, 7);
  assert_int_equal(q.offset, 99);
  for (int i = 0; i < 16; i++) assert_int_equal(uuid[i], 0x33);
  assert_ptr_equal(obj, in);
  for (int i = 0; i < 20; i++) {
    assert_int_equal(arr32[i], 0x44444444u);
    assert_true(arr64[i] == 0x4444444444444444ull);
    assert_int_equal(arr16[i], 0x4444);
  }
  desert_reader_free(r);
}

/* desert_reader_fail: records a caller error once, at the caller's offset. */
static void test_reader_fail(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  uint8_t in[4] = {1, 2, 3, 4};
  assert_int_equal(desert_reader_begin(r, in, 4), DESERT_OK);
  uint8_t b;
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(desert_reader_fail(r, DESERT_E_INVALID_VALUE, 0), DESERT_E_INVALID_VALUE);
  ct_expect_error(r, DESERT_E_INVALID_VALUE, 0);
  assert_int_equal(desert_reader_fail(r, DESERT_E_DESERIALIZATION, 3), DESERT_E_INVALID_VALUE);
  ct_expect_error(r, DESERT_E_INVALID_VALUE, 0);
  assert_int_equal(desert_read_u8(r, &b), DESERT_E_INVALID_VALUE);
  assert_int_equal(b, 1);
  /* begin clears it */
  assert_int_equal(desert_reader_begin(r, in, 4), DESERT_OK);
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_reader_error_offset(r), 0);
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  desert_reader_free(r);
}

int main(void) {
  desert_test_check_expected_isa();
  (void)desert_test_seed();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_truncation_every_byte),
      cmocka_unit_test(test_varint_too_long_everywhere),
      cmocka_unit_test(test_negative_lengths),
      cmocka_unit_test(test_invalid_tags),
      cmocka_unit_test(test_invalid_utf8_offsets),
      cmocka_unit_test(test_invalid_chars_read),
      cmocka_unit_test(test_invalid_chars_write),
      cmocka_unit_test(test_unknown_ids),
      cmocka_unit_test(test_depth_limit),
      cmocka_unit_test(test_length_limits),
      cmocka_unit_test(test_huge_lengths_do_not_allocate),
      cmocka_unit_test(test_writer_length_too_large),
      cmocka_unit_test(test_writer_huge_strings),
      cmocka_unit_test(test_writer_utf16_errors),
      cmocka_unit_test(test_writer_argument_errors),
      cmocka_unit_test(test_reader_sticky),
      cmocka_unit_test(test_reader_fail),
  };
  return cmocka_run_group_tests_name("codec_errors", tests, NULL, NULL);
}
