/* test/test_kernel_varint.c — var_u32/var_i32 encode and decode of every
 * runnable kernel table against the oracle: docs/format.md vectors, every run
 * length with a long value at every position, truncation and too-long
 * values at every position (in one-byte and in mixed-length runs that
 * cross the 16/32/64-byte windows), exhaustive 1- and 2-byte inputs at block edges,
 * every 5th byte (high bits, continuation) with a 6th byte after it,
 * overlong forms, exact-size and guard-page outputs, random differential.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guarded.h"
#include "oracle.h"
#include "test_util.h"

#define MAXN   260  /* values per sweep run */
#define WORKN  4096 /* values of the largest random run */
#define CANARY 8

static desert_guarded g_in_after, g_in_before, g_out_after, g_out_before;
_Alignas(64) static uint8_t g_bytes[64 + 5 * WORKN + 16];
_Alignas(64) static uint32_t g_vals[16 + WORKN + CANARY];
static uint8_t g_exp_bytes[5 * WORKN + 16];
static uint32_t g_exp_vals[WORKN + 16];

static void guards_init(void) {
  if (g_in_after.map != NULL) return;
  if (desert_guarded_init(&g_in_after, 5 * WORKN + 16, DESERT_GUARD_AFTER) != 0 ||
      desert_guarded_init(&g_in_before, 5 * WORKN + 16, DESERT_GUARD_BEFORE) != 0 ||
      desert_guarded_init(&g_out_after, 5 * WORKN + 16, DESERT_GUARD_AFTER) != 0 ||
      desert_guarded_init(&g_out_before, 5 * WORKN + 16, DESERT_GUARD_BEFORE) != 0) {
    print_error("cannot map guard pages\n");
    fail();
  }
}

static size_t stride_for(const desert_kernels *k) { return desert_test_stride(k); }

/* ---- encode -------------------------------------------------------------------------- */

/* Encodes vals[0..n) (uint32_t, or int32_t bit patterns when zz) and
 * compares with the oracle. Output: misaligned heap buffer with canaries
 * right after the exact size; with guards, also exactly sized outputs
 * ending at / starting after a guard page, and the input array ending at one. */
/* Returns the encoded size; g_exp_bytes holds the oracle's encoding. */
static size_t enc_check(const desert_kernels *k, const uint32_t *vals, size_t n, int zz,
                        size_t out_mis, int guards, const char *file, int line) {
  size_t want;
  if (zz) {
    int32_t tmp[MAXN + 8];
    int32_t *iv = n <= MAXN + 8 ? tmp : (int32_t *)malloc(n * sizeof *iv);
    memcpy(iv, vals, n * 4);
    want = desert_oracle_var_i32_encode(g_exp_bytes, iv, n);
    if (iv != tmp) free(iv);
  } else {
    want = desert_oracle_var_u32_encode(g_exp_bytes, vals, n);
  }
  uint8_t *out = g_bytes + out_mis;
  memset(out + want, 0xc5, CANARY);
  size_t got = zz ? k->var_i32_encode(out, (const int32_t *)(const void *)vals, n)
                  : k->var_u32_encode(out, vals, n);
  if (got != want) {
    print_error("[%s] var_%s32_encode(n=%zu): returned %zu, expected %zu\n", k->name,
                zz ? "i" : "u", n, got, want);
    _fail(file, line);
  }
  desert_assert_bytes_equal_at(g_exp_bytes, want, out, got, "varint encode output", file, line);
  for (size_t i = 0; i < CANARY; i++)
    if (out[want + i] != 0xc5) {
      print_error("[%s] var_%s32_encode(n=%zu) wrote past the exact size\n", k->name,
                  zz ? "i" : "u", n);
      _fail(file, line);
    }
  if (!guards) return want;
  const uint32_t *gin = (const uint32_t *)desert_guarded_place_copy(&g_in_after, vals, n * 4);
  for (int side = 0; side < 2; side++) {
    uint8_t *gout = (uint8_t *)desert_guarded_place(side == 0 ? &g_out_after : &g_out_before, want);
    got = zz ? k->var_i32_encode(gout, (const int32_t *)(const void *)gin, n)
             : k->var_u32_encode(gout, gin, n);
    if (got != want) {
      print_error("[%s] guarded encode(n=%zu): returned %zu, expected %zu\n", k->name, n, got,
                  want);
      _fail(file, line);
    }
    desert_assert_bytes_equal_at(g_exp_bytes, want, gout, got, "varint encode output (guarded)",
                                 file, line);
  }
  return want;
}
#define ENC(k, v, n, zz, om, g) enc_check((k), (v), (n), (zz), (om), (g), __FILE__, __LINE__)

/* ---- decode -------------------------------------------------------------------------- */

typedef struct expect {
  desert_status st;
  size_t consumed;
  size_t count; /* values the kernel must have stored (all n on success) */
} expect;

static expect dec_oracle(const uint8_t *src, size_t len, size_t n, int zz) {
  expect e;
  if (zz)
    e.st = desert_oracle_var_i32_decode(src, len, (int32_t *)(void *)g_exp_vals, n, &e.consumed);
  else
    e.st = desert_oracle_var_u32_decode(src, len, g_exp_vals, n, &e.consumed);
  /* Values before the failing one: every complete value ends with exactly
   * one byte below 0x80, and the failing value starts at e.consumed. */
  e.count = n;
  if (e.st != DESERT_OK) {
    e.count = 0;
    for (size_t i = 0; i < e.consumed; i++) e.count += src[i] < 0x80;
  }
  return e;
}

static void dec_one(const desert_kernels *k, const uint8_t *src, size_t len, uint32_t *dst,
                    size_t n, int zz, const expect *e, int canary, const char *file, int line) {
  if (canary)
    for (size_t i = 0; i < CANARY; i++) dst[n + i] = 0xdecafbadu;
  size_t consumed = (size_t)-1;
  const desert_status st = zz ? k->var_i32_decode(src, len, (int32_t *)(void *)dst, n, &consumed)
                              : k->var_u32_decode(src, len, dst, n, &consumed);
  if (st != e->st || consumed != e->consumed) {
    char hex[3 * 48 + 1];
    desert_hex_encode(src, len < 48 ? len : 48, hex, sizeof hex);
    print_error("[%s] var_%s32_decode(len=%zu, n=%zu): expected %s consumed %zu, got %s consumed "
                "%zu\n  input: %s\n",
                k->name, zz ? "i" : "u", len, n, desert_status_name(e->st), e->consumed,
                desert_status_name(st), consumed, hex);
    _fail(file, line);
  }
  desert_assert_bytes_equal_at(g_exp_vals, e->count * 4, dst, e->count * 4, "decoded values", file,
                               line);
  if (canary)
    for (size_t i = 0; i < CANARY; i++)
      if (dst[n + i] != 0xdecafbadu) {
        print_error("[%s] varint decode(n=%zu) wrote past dst[n]\n", k->name, n);
        _fail(file, line);
      }
}

/* Decodes n values from data[0..len): input misaligned by in_mis, output
 * array offset by out_off values; with guards also the input ending at /
 * starting after a guard page and the output array ending at one. */
static void dec_check(const desert_kernels *k, const uint8_t *data, size_t len, size_t n, int zz,
                      size_t in_mis, size_t out_off, int guards, const char *file, int line) {
  const expect e = dec_oracle(data, len, n, zz);
  uint8_t *in = g_bytes + in_mis;
  memcpy(in, data, len);
  dec_one(k, in, len, g_vals + out_off % 16, n, zz, &e, 1, file, line);
  if (!guards) return;
  uint32_t *gout = (uint32_t *)desert_guarded_place(&g_out_after, n * 4);
  dec_one(k, (const uint8_t *)desert_guarded_place_copy(&g_in_after, data, len), len, gout, n, zz,
          &e, 0, file, line);
  dec_one(k, (const uint8_t *)desert_guarded_place_copy(&g_in_before, data, len), len, gout, n, zz,
          &e, 0, file, line);
}
#define DEC(k, d, l, n, zz, im, oo, g) \
  dec_check((k), (d), (l), (n), (zz), (im), (oo), (g), __FILE__, __LINE__)

/* ---- known vectors (docs/format.md §3) ----------------------------------------------------- */

static void test_known_vectors(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  static const struct {
    uint32_t v;
    const char *hex;
  } u[] = {{0, "00"},
           {127, "7f"},
           {128, "80 01"},
           {300, "ac 02"},
           {16383, "ff 7f"},
           {16384, "80 80 01"},
           {2097152, "80 80 80 01"},
           {268435456, "80 80 80 80 01"},
           {4294967295u, "ff ff ff ff 0f"}};
  static const struct {
    int32_t v;
    const char *hex;
  } s[] = {{0, "00"},
           {-1, "01"},
           {1, "02"},
           {-2, "03"},
           {63, "7e"},
           {-64, "7f"},
           {64, "80 01"},
           {-65, "81 01"},
           {2147483647, "fe ff ff ff 0f"},
           {-2147483647 - 1, "ff ff ff ff 0f"}};
  uint8_t want[8], out[8];
  for (size_t i = 0; i < DESERT_TEST_COUNT(u); i++) {
    const size_t wl = desert_hex_decode(u[i].hex, want, sizeof want);
    assert_int_equal(k->var_u32_encode(out, &u[i].v, 1), wl);
    assert_memory_equal(out, want, wl);
    uint32_t back = 1;
    size_t used = 0;
    assert_int_equal(k->var_u32_decode(want, wl, &back, 1, &used), DESERT_OK);
    assert_int_equal(back, u[i].v);
    assert_int_equal(used, wl);
    assert_int_equal(desert_oracle_var_u32_len(u[i].v), wl);
  }
  for (size_t i = 0; i < DESERT_TEST_COUNT(s); i++) {
    const size_t wl = desert_hex_decode(s[i].hex, want, sizeof want);
    assert_int_equal(k->var_i32_encode(out, &s[i].v, 1), wl);
    assert_memory_equal(out, want, wl);
    int32_t back = 7;
    size_t used = 0;
    assert_int_equal(k->var_i32_decode(want, wl, &back, 1, &used), DESERT_OK);
    assert_int_equal(back, s[i].v);
    assert_int_equal(used, wl);
  }
  /* Errors: too long, input ended (also for n values but fewer present),
   * overlong accepted, high bits of the 5th byte dropped. */
  uint32_t v[4];
  size_t used = 99;
  const uint8_t too_long[] = {0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  assert_int_equal(k->var_u32_decode(too_long, 7, v, 2, &used), DESERT_E_VARINT_TOO_LONG);
  assert_int_equal(used, 1);
  assert_int_equal(v[0], 1);
  const uint8_t cut[] = {0x05, 0xff, 0xff};
  assert_int_equal(k->var_u32_decode(cut, 3, v, 2, &used), DESERT_E_INPUT_ENDED);
  assert_int_equal(used, 1);
  assert_int_equal(k->var_u32_decode(cut, 1, v, 2, &used), DESERT_E_INPUT_ENDED);
  assert_int_equal(used, 1);
  assert_int_equal(k->var_u32_decode(cut, 0, v, 1, &used), DESERT_E_INPUT_ENDED);
  assert_int_equal(used, 0);
  assert_int_equal(k->var_u32_decode(cut, 0, v, 0, &used), DESERT_OK);
  assert_int_equal(used, 0);
  const uint8_t overlong[] = {0x80, 0x00, 0xff, 0xff, 0xff, 0xff,
                              0x7f, 0x80, 0x80, 0x80, 0x80, 0x00};
  assert_int_equal(k->var_u32_decode(overlong, sizeof overlong, v, 3, &used), DESERT_OK);
  assert_int_equal(used, sizeof overlong);
  assert_int_equal(v[0], 0);
  assert_int_equal(v[1], 0xffffffffu);
  assert_int_equal(v[2], 0);
  /* Scala's reading would leave the 6th byte: ours fails, per Rust. */
  const uint8_t six[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  assert_int_equal(k->var_u32_decode(six, 6, v, 1, &used), DESERT_E_VARINT_TOO_LONG);
  assert_int_equal(used, 0);
}

/* ---- sweeps ------------------------------------------------------------------------------- */

static const uint32_t k_long_u[] = {128, 16384, 2097152, 268435456, 0xffffffffu};
static const int32_t k_long_i[] = {-1, 64, -8193, 2147483647, -2147483647 - 1};

/* Runs of n = 0..MAXN one-byte values with one long value at every
 * position (desert_test_sweep_pos: all of them in optimised builds):
 * encode, decode, decode with the input cut by
 * one byte, decode one value fewer, and with the long value replaced by a
 * too-long one (five continuation bytes). */
static void sweep(const desert_kernels *k, int zz) {
  guards_init();
  static uint32_t vals[MAXN + 8];
  static uint8_t enc[5 * MAXN + 16], bad[5 * MAXN + 24];
  const size_t nlong = zz ? DESERT_TEST_COUNT(k_long_i) : DESERT_TEST_COUNT(k_long_u);
  for (size_t l = 0; l < nlong; l++) {
    /* Emulated tables in unoptimised builds: the 2-, 4- and 5-byte values. */
    if (k->emulated && !desert_test_full_domain(k) && l % 2 == 1 && l + 1 != nlong) continue;
    const uint32_t lv = zz ? (uint32_t)k_long_i[l] : k_long_u[l];
    for (size_t n = 0; n <= MAXN; n++) {
      for (size_t p = 0; p < (n == 0 ? 1 : n); p++) {
        if (n > 0 && !desert_test_sweep_pos(k, p, 1, n)) continue;
        for (size_t i = 0; i < n; i++) vals[i] = (uint32_t)(i * 7 % 60);
        if (n > 0) vals[p] = lv;
        const int edge = p < 2 || p + 2 >= n;
        const size_t len = ENC(k, vals, n, zz, (n + p) % 64, edge);
        memcpy(enc, g_exp_bytes, len);
        DEC(k, enc, len, n, zz, (n * 3 + p) % 64, p, edge);
        if (n == 0) continue;
        DEC(k, enc, len - 1, n, zz, (n + p) % 64, 0, edge); /* cut: input ended */
        DEC(k, enc, len, n - 1, zz, p % 64, 1, 0);          /* fewer values */
        /* The background values are one byte each, so the long one starts
         * at offset p; replace it by 80|x 80|x 80|x 80|x 80|x 01. */
        const size_t lv_len = len - (n - 1);
        memcpy(bad, enc, p);
        memset(bad + p, 0x80 | (int)(p & 0x7f), 5);
        bad[p + 5] = 0x01;
        memcpy(bad + p + 6, enc + p + lv_len, len - p - lv_len);
        DEC(k, bad, len - lv_len + 6, n, zz, (p * 5) % 64, 2, edge);
      }
    }
  }
}

static void test_sweep_u32(void **state) { sweep(desert_test_kernels(state), 0); }
static void test_sweep_i32(void **state) { sweep(desert_test_kernels(state), 1); }

/* Runs of mixed lengths (1-5 bytes, so values straddle every 16/32/64-byte
 * window edge) with, at every value position p: the run decoded whole, cut
 * inside value p (its terminator dropped), stopped before p (n = p), and
 * value p replaced by a six-byte value and by five bytes whose fifth keeps
 * its continuation bit. Every failure must be reported at value p's
 * offset, with the values before it stored. */
static uint32_t mixed_value(size_t i) {
  switch ((i * 7 + i / 5) % 9) {
  case 0:
  case 4:
    return 300u + (uint32_t)i; /* 2 bytes */
  case 2:
    return (1u << 22) + (uint32_t)i; /* 4 bytes */
  case 6:
    return 0xf0000000u | (uint32_t)i; /* 5 bytes */
  case 7:
    return (1u << 15) + (uint32_t)i; /* 3 bytes */
  default:
    return (uint32_t)(i % 128); /* 1 byte */
  }
}

static void test_sweep_mixed(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const size_t ns[] = {63, 64, 65, 130, 257};
  static uint32_t vals[260];
  static size_t off[261];
  static uint8_t enc[5 * 260 + 16], bad[5 * 260 + 24];
  for (size_t t = 0; t < DESERT_TEST_COUNT(ns); t++) {
    const size_t n = ns[t];
    for (size_t i = 0; i < n; i++) vals[i] = mixed_value(i + t);
    const int zz = (int)(t & 1);
    const size_t len = ENC(k, vals, n, zz, t * 13 % 64, 1);
    memcpy(enc, g_exp_bytes, len);
    off[0] = 0;
    for (size_t i = 0, v = 0; i < len; i++)
      if (enc[i] < 0x80) off[++v] = i + 1;
    DEC(k, enc, len, n, zz, t % 64, t, 1);
    for (size_t p = 0; p < n; p++) {
      if (!desert_test_sweep_pos(k, p, 1, n)) continue;
      const int edge = p < 2 || p + 2 >= n;
      DEC(k, enc, off[p + 1] - 1, n, zz, p % 64, p, edge); /* cut inside value p */
      DEC(k, enc, len, p, zz, (p * 3) % 64, 1, edge);      /* stop before it */
      /* value p -> 80|x x5 01 (six bytes), then 80 80 80 80 8f (a 5th byte
       * with its continuation bit) followed by the rest */
      memcpy(bad, enc, off[p]);
      memset(bad + off[p], 0x80 | (int)(p & 0x7f), 5);
      bad[off[p] + 5] = 0x01;
      memcpy(bad + off[p] + 6, enc + off[p + 1], len - off[p + 1]);
      DEC(k, bad, off[p] + 6 + len - off[p + 1], n, zz, (p * 5) % 64, 2, edge);
      memset(bad + off[p], 0x80, 4);
      bad[off[p] + 4] = 0x8f;
      memcpy(bad + off[p] + 5, enc + off[p + 1], len - off[p + 1]);
      DEC(k, bad, off[p] + 5 + len - off[p + 1], n, zz, (p * 7) % 64, 3, edge);
    }
  }
}

static void test_misalignment(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  uint32_t vals[100];
  uint8_t enc[500];
  for (size_t i = 0; i < 100; i++) vals[i] = (uint32_t)1 << (i % 32);
  const size_t len = desert_oracle_var_u32_encode(enc, vals, 100);
  for (size_t m = 0; m < 64; m++) {
    ENC(k, vals, 100, 0, m, 0);
    ENC(k, vals + (m % 8), 100 - (m % 8), 1, m, 0);
    for (size_t o = 0; o < 16; o++) {
      DEC(k, enc, len, 100, 0, m, o, 0);
      DEC(k, enc, len, 100, 1, m, o, 0);
    }
  }
}

/* ---- exhaustive small domains --------------------------------------------------------------- */

/* k one-byte values, then the bytes under test: puts them at offset k,
 * straddling the 16/32/64-byte edges for k = 15, 31, 63. */
static size_t with_prefix(uint8_t *buf, size_t k, const uint8_t *bytes, size_t n) {
  for (size_t i = 0; i < k; i++) buf[i] = (uint8_t)(i % 100);
  memcpy(buf + k, bytes, n);
  return k + n;
}

/* Every byte value as a whole input and after k = 0..70 values. */
static void test_exhaustive_1byte(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  uint8_t buf[96];
  for (unsigned b = 0; b < 256; b++)
    for (size_t pre = 0; pre <= 70; pre++) {
      const uint8_t x = (uint8_t)b;
      const size_t len = with_prefix(buf, pre, &x, 1);
      DEC(k, buf, len, pre + 1, 0, pre % 64, 0, pre % 8 == 0);
      DEC(k, buf, len, pre + 1, 1, 0, 0, 0);
    }
}

/* Every 2-byte string: decoded as the first value of a run with a
 * terminating 00 after it (which a 2-byte string with two continuation
 * bits needs as its 3rd byte), at offsets straddling block edges, and at
 * the very end of the input. */
static void test_exhaustive_2byte(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const size_t pres[] = {0, 15, 31, 63};
  uint8_t buf[96];
  for (unsigned v = 0; v < 65536; v += 2 * (unsigned)stride_for(k) - 1) {
    const uint8_t two[3] = {(uint8_t)(v >> 8), (uint8_t)v, 0x00};
    for (size_t i = 0; i < DESERT_TEST_COUNT(pres); i++) {
      const size_t len = with_prefix(buf, pres[i], two, 3);
      /* n = pres + 2 values: two one-byte values, one two-byte value and a
       * terminator, or one 3-byte value and then "input ended". */
      DEC(k, buf, len, pres[i] + 2, (v & 1) != 0, i * 17, 0, 0);
      DEC(k, buf, len - 1, pres[i] + 1, 0, 0, 0, (v & 0x3ff) == 0);
    }
  }
}

/* Every 5th byte after four continuation bytes of several kinds, followed
 * by a 6th byte that is the next value: payload bits above bit 31 are
 * dropped, a continuation bit on the 5th byte fails at the value start. */
static void test_exhaustive_5th_byte(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const uint8_t heads[][4] = {{0x80, 0x80, 0x80, 0x80},
                                     {0xff, 0xff, 0xff, 0xff},
                                     {0x81, 0x82, 0x83, 0x84},
                                     {0xaa, 0xd5, 0xaa, 0xd5}};
  uint8_t buf[96];
  for (size_t h = 0; h < DESERT_TEST_COUNT(heads); h++)
    for (unsigned b5 = 0; b5 < 256; b5++)
      for (size_t pre = 0; pre <= 66;
           pre +=
           (pre < 4 || (pre >= 12 && pre <= 20) || (pre >= 27 && pre <= 36) || pre >= 58) ? 1 : 3) {
        const uint8_t six[6] = {heads[h][0], heads[h][1], heads[h][2],
                                heads[h][3], (uint8_t)b5, 0x05};
        const size_t len = with_prefix(buf, pre, six, 6);
        DEC(k, buf, len, pre + 2, 0, pre % 64, 0, 0);
        DEC(k, buf, len, pre + 2, 1, 0, 0, 0);
        DEC(k, buf, len - 1, pre + 1, 0, 0, 0, pre == 0 || pre == 63); /* 5 bytes, nothing after */
        DEC(k, buf, len - 2, pre + 1, 0, 0, 0, pre == 0 || pre == 63); /* cut in the value */
      }
}

/* Overlong forms of L = 1..5 bytes for many values, and the input ending
 * after every byte of every length. */
static void test_overlong_and_cuts(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const uint32_t vals[] = {0,      1,        0x7f,       0x80,       0x3fff,
                                  0x4000, 0x1fffff, 0x0fffffff, 0x10000000, 0xffffffffu};
  uint8_t buf[96];
  for (size_t i = 0; i < DESERT_TEST_COUNT(vals); i++)
    for (size_t L = desert_oracle_var_u32_len(vals[i]); L <= 5; L++)
      for (size_t pre = 0; pre <= 66; pre++) {
        uint8_t enc[6];
        uint32_t v = vals[i];
        for (size_t b = 0; b < L; b++) {
          enc[b] = (uint8_t)((v & 0x7f) | (b + 1 < L ? 0x80 : 0));
          v >>= 7;
        }
        enc[L] = 0x2a;
        const size_t len = with_prefix(buf, pre, enc, L + 1);
        DEC(k, buf, len, pre + 2, 0, pre % 64, 0, pre % 16 == 0);
        for (size_t cut = 0; cut < L; cut++)
          DEC(k, buf, pre + cut, pre + 1, (int)(cut & 1), 0, 0, cut + 1 == L && pre % 8 == 0);
      }
}

/* ---- random differential ------------------------------------------------------------------- */

static uint32_t random_value(desert_rng *r, unsigned mode) {
  const uint64_t x = desert_rng_next(r);
  switch (mode) {
  case 0:
    return (uint32_t)(x & 0x7f); /* all 1 byte */
  case 1:
    return (uint32_t)x >> (desert_rng_below(r, 32)); /* mixed lengths */
  case 2:
    return (uint32_t)x | 0xf0000000u; /* all 5 bytes */
  default:
    return (uint32_t)(x & (((uint32_t)1 << (7 * desert_rng_below(r, 4) + 7)) - 1));
  }
}

static void test_random_differential(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  desert_rng r;
  desert_rng_init_test(&r, 0x76617269u);
  static uint32_t vals[WORKN];
  static uint8_t enc[5 * WORKN + 16];
  const int iters = k->emulated ? 300 : 1500;
  for (int it = 0; it < iters; it++) {
    const size_t n = desert_rng_range(&r, 0, it % 5 == 0 ? WORKN : 300);
    const unsigned mode = desert_rng_below(&r, 4);
    for (size_t i = 0; i < n; i++) vals[i] = random_value(&r, mode);
    const int zz = (int)desert_rng_below(&r, 2);
    const size_t mis = desert_rng_below(&r, 64);
    ENC(k, vals, n, zz, mis, it % 7 == 0);
    size_t len = desert_oracle_var_u32_encode(enc, vals, n);
    /* Corrupt: set a continuation bit, cut, or ask for more values. */
    size_t want = n;
    switch (desert_rng_below(&r, 5)) {
    case 0:
      if (len > 0) enc[desert_rng_below(&r, (uint32_t)len)] |= 0x80;
      break;
    case 1:
      len = desert_rng_range(&r, 0, len);
      break;
    case 2:
      want = n + desert_rng_below(&r, 3);
      break;
    case 3:
      want = desert_rng_range(&r, 0, n);
      break;
    default:
      break;
    }
    if (want > WORKN) want = WORKN;
    DEC(k, enc, len, want, zz, mis, desert_rng_below(&r, 16), it % 7 == 1);
  }
}

/* ---- public API -------------------------------------------------------------------------------
 */

static void test_public_api(void **state) {
  (void)state;
  const uint32_t u[] = {0, 300, 0xffffffffu};
  const int32_t s[] = {-1, 64, -2147483647 - 1};
  uint8_t out[16];
  size_t w = 99, c = 99;
  assert_int_equal(desert_var_u32_size(u, 3), 1 + 2 + 5);
  assert_int_equal(desert_var_i32_size(s, 3), 1 + 2 + 5);
  assert_int_equal(desert_var_u32_size(NULL, 3), 0);
  assert_int_equal(desert_var_u32_encode(out, 8, u, 3, &w), DESERT_OK);
  assert_int_equal(w, 8);
  const uint8_t eu[] = {0x00, 0xac, 0x02, 0xff, 0xff, 0xff, 0xff, 0x0f};
  assert_memory_equal(out, eu, 8);
  /* The exact size is checked before anything is written. */
  memset(out, 0x11, sizeof out);
  assert_int_equal(desert_var_u32_encode(out, 7, u, 3, &w), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 0);
  for (size_t i = 0; i < sizeof out; i++) assert_int_equal(out[i], 0x11);
  assert_int_equal(desert_var_i32_encode(out, 8, s, 3, &w), DESERT_OK);
  assert_int_equal(w, 8);
  assert_int_equal(desert_var_i32_encode(out, 2, s, 3, &w), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(desert_var_u32_encode(NULL, 8, u, 3, &w), DESERT_E_ARGUMENT);
  assert_int_equal(desert_var_u32_encode(out, 8, NULL, 3, &w), DESERT_E_ARGUMENT);
  assert_int_equal(desert_var_u32_encode(out, 8, u, 3, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_var_u32_encode(NULL, 0, NULL, 0, &w), DESERT_OK);
  assert_int_equal(w, 0);
  assert_int_equal(desert_var_u32_encode(NULL, 0, u, 1, &w), DESERT_E_DST_TOO_SMALL);

  uint32_t du[3];
  int32_t ds[3];
  assert_int_equal(desert_var_u32_decode(eu, 8, du, 3, &c), DESERT_OK);
  assert_int_equal(c, 8);
  assert_memory_equal(du, u, sizeof u);
  assert_int_equal(desert_var_i32_encode(out, 8, s, 3, &w), DESERT_OK);
  assert_int_equal(desert_var_i32_decode(out, 8, ds, 3, &c), DESERT_OK);
  assert_memory_equal(ds, s, sizeof s);
  assert_int_equal(desert_var_u32_decode(eu, 7, du, 3, &c), DESERT_E_INPUT_ENDED);
  assert_int_equal(c, 3);
  assert_int_equal(desert_var_u32_decode(NULL, 8, du, 3, &c), DESERT_E_ARGUMENT);
  assert_int_equal(desert_var_u32_decode(eu, 8, NULL, 3, &c), DESERT_E_ARGUMENT);
  assert_int_equal(desert_var_u32_decode(eu, 8, du, 3, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_var_u32_decode(NULL, 0, du, 1, &c), DESERT_E_INPUT_ENDED);
  assert_int_equal(c, 0);
  assert_int_equal(desert_var_i32_decode(NULL, 0, NULL, 0, &c), DESERT_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known_vectors),       cmocka_unit_test(test_sweep_u32),
      cmocka_unit_test(test_sweep_i32),           cmocka_unit_test(test_sweep_mixed),
      cmocka_unit_test(test_misalignment),
      cmocka_unit_test(test_exhaustive_1byte),    cmocka_unit_test(test_exhaustive_2byte),
      cmocka_unit_test(test_exhaustive_5th_byte), cmocka_unit_test(test_overlong_and_cuts),
      cmocka_unit_test(test_random_differential), cmocka_unit_test(test_public_api),
  };
  const int failed = desert_test_run_per_isa("varint", tests, DESERT_TEST_COUNT(tests));
  desert_guarded_free(&g_in_after);
  desert_guarded_free(&g_in_before);
  desert_guarded_free(&g_out_after);
  desert_guarded_free(&g_out_before);
  return failed == 0 ? 0 : 1;
}
