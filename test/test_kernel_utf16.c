/* test/test_kernel_utf16.c — utf8_to_utf16, utf8_len_from_utf16 and
 * utf16_to_utf8 of every runnable kernel table against the oracle: known
 * vectors, output capacities at and around every character boundary,
 * boundary sweeps, misaligned and guard-page inputs and outputs, every
 * 16-bit unit and every surrogate pair at block edges, random differential.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guarded.h"
#include "oracle.h"
#include "test_util.h"

#define MAXLEN 260
#define WORK   4096 /* bytes of UTF-8 or units of UTF-16 in one case */
#define CANARY 8    /* units/bytes after the capacity that must stay untouched */

static desert_guarded g_in_after, g_in_before, g_out_after;
_Alignas(64) static uint8_t g_in8[64 + WORK];
_Alignas(64) static uint16_t g_in16[32 + WORK];
_Alignas(64) static uint16_t g_out16[32 + WORK + CANARY];
_Alignas(64) static uint8_t g_out8[64 + 4 * WORK + CANARY];
static uint16_t g_exp16[WORK + CANARY];
static uint8_t g_exp8[4 * WORK + CANARY];

static void guards_init(void) {
  if (g_in_after.map != NULL) return;
  if (desert_guarded_init(&g_in_after, 2 * WORK, DESERT_GUARD_AFTER) != 0 ||
      desert_guarded_init(&g_in_before, 2 * WORK, DESERT_GUARD_BEFORE) != 0 ||
      desert_guarded_init(&g_out_after, 4 * WORK, DESERT_GUARD_AFTER) != 0) {
    print_error("cannot map guard pages\n");
    fail();
  }
}

typedef struct result {
  desert_status st;
  size_t written, pos;
} result;

static void report(const desert_kernels *k, const char *op, const void *in, size_t len, size_t unit,
                   size_t cap, result e, result a, const char *file, int line) {
  char hex[3 * 96 + 1];
  const size_t show = (len * unit < 96 ? len * unit : 96);
  desert_hex_encode(in, show, hex, sizeof hex);
  print_error("[%s] %s(len=%zu, cap=%zu): expected %s written %zu pos %zu, got %s written %zu "
              "pos %zu\n  input (bytes, first %zu): %s\n",
              k->name, op, len, cap, desert_status_name(e.st), e.written, e.pos,
              desert_status_name(a.st), a.written, a.pos, show, hex);
  _fail(file, line);
}

/* ---- UTF-8 -> UTF-16 --------------------------------------------------------------- */

/* One conversion of in[0..len) into dst[0..cap) compared with the oracle:
 * status, *written, *pos and the units written. dst must have CANARY
 * writable units after cap unless it ends at a guard page (canary = 0). */
static void u8to16_pre(const desert_kernels *k, const uint8_t *in, size_t len, uint16_t *dst,
                       size_t cap, int canary, const result *pre, const char *file, int line) {
  result e, a = {DESERT_E_STATE, (size_t)-1, (size_t)-1};
  /* pre: the oracle result with unlimited room (output in g_exp16), equal
   * to the result for any cap >= pre->written. Smaller caps ask the oracle,
   * which rewrites only the same leading units of g_exp16. */
  if (pre != NULL && cap >= pre->written)
    e = *pre;
  else
    e.st = desert_oracle_utf8_to_utf16(in, len, g_exp16, cap, &e.written, &e.pos);
  if (canary)
    for (size_t i = 0; i < CANARY; i++) dst[cap + i] = (uint16_t)(0xa5a5u + i);
  a.st = k->utf8_to_utf16(in, len, dst, cap, &a.written, &a.pos);
  if (a.st != e.st || a.written != e.written || a.pos != e.pos)
    report(k, "utf8_to_utf16", in, len, 1, cap, e, a, file, line);
  if (memcmp(dst, g_exp16, e.written * 2) != 0) {
    print_error("[%s] utf8_to_utf16(len=%zu, cap=%zu): output differs\n", k->name, len, cap);
    desert_assert_bytes_equal_at(g_exp16, e.written * 2, dst, e.written * 2, "utf16 output", file,
                                 line);
  }
  if (canary)
    for (size_t i = 0; i < CANARY; i++)
      if (dst[cap + i] != (uint16_t)(0xa5a5u + i)) {
        print_error("[%s] utf8_to_utf16(len=%zu, cap=%zu) wrote past its capacity\n", k->name, len,
                    cap);
        _fail(file, line);
      }
}

static void u8to16_one(const desert_kernels *k, const uint8_t *in, size_t len, uint16_t *dst,
                       size_t cap, int canary, const char *file, int line) {
  u8to16_pre(k, in, len, dst, cap, canary, NULL, file, line);
}

/* Check levels: how much work one input gets (the sweeps call this for
 * hundreds of thousands of inputs, so most get L_EXACT). */
enum {
  L_EXACT = 0,  /* exact capacity, misaligned input and output */
  L_CAPS = 1,   /* + short capacities (a character that does not fit) and a roomy one */
  L_GUARDS = 2, /* + input and output at guard pages */
  L_ALL = 3     /* + every capacity below the exact one */
};

/* Full check of one UTF-8 input at the given level. */
static void u8to16_check(const desert_kernels *k, const uint8_t *data, size_t len, size_t mis,
                         int level, const char *file, int line) {
  result pre;
  pre.st = desert_oracle_utf8_to_utf16(data, len, g_exp16, WORK, &pre.written, &pre.pos);
  const size_t full = pre.written;
  uint8_t *in = g_in8 + mis;
  memcpy(in, data, len);
  uint16_t *out = g_out16 + (mis * 5 + 3) % 32;
  u8to16_pre(k, in, len, out, full, 1, &pre, file, line);
  /* An error case also with ample room: with the exact capacity, SIMD
   * kernels may stop for room before reaching their own error checks. */
  if (level < L_CAPS && pre.st != DESERT_OK) u8to16_pre(k, in, len, out, len, 1, &pre, file, line);
  if (level < L_CAPS) return;
  u8to16_pre(k, in, len, out, len, 1, &pre, file, line); /* len units always suffice */
  if (full > 0) u8to16_one(k, in, len, out, full - 1, 1, file, line);
  if (level >= L_ALL)
    for (size_t cap = 0; cap + 1 < full; cap++) u8to16_one(k, in, len, out, cap, 1, file, line);
  if (level < L_GUARDS) return;
  const uint8_t *gin = (const uint8_t *)desert_guarded_place_copy(&g_in_after, data, len);
  u8to16_pre(k, gin, len, (uint16_t *)desert_guarded_place(&g_out_after, full * 2), full, 0, &pre,
             file, line);
  if (full > 0)
    u8to16_one(k, gin, len, (uint16_t *)desert_guarded_place(&g_out_after, (full - 1) * 2),
               full - 1, 0, file, line);
  gin = (const uint8_t *)desert_guarded_place_copy(&g_in_before, data, len);
  u8to16_pre(k, gin, len, (uint16_t *)desert_guarded_place(&g_out_after, full * 2), full, 0, &pre,
             file, line);
}
#define U8TO16(k, d, l, m, lvl) u8to16_check((k), (d), (l), (m), (lvl), __FILE__, __LINE__)

/* ---- UTF-16 -> UTF-8 / length ------------------------------------------------------- */

/* pre: the oracle's result for this input with unlimited room (g_exp8
 * holding its output), valid for any cap >= pre->written; NULL = ask the
 * oracle for this cap. */
static void u16to8_pre(const desert_kernels *k, const uint16_t *in, size_t len, uint8_t *dst,
                       size_t cap, int canary, const result *pre, const char *file, int line) {
  result e, a = {DESERT_E_STATE, (size_t)-1, (size_t)-1};
  if (pre != NULL && cap >= pre->written)
    e = *pre;
  else
    e.st = desert_oracle_utf16_to_utf8(in, len, g_exp8, cap, &e.written, &e.pos);
  if (canary)
    for (size_t i = 0; i < CANARY; i++) dst[cap + i] = (uint8_t)(0xa5u + i);
  a.st = k->utf16_to_utf8(in, len, dst, cap, &a.written, &a.pos);
  if (a.st != e.st || a.written != e.written || a.pos != e.pos)
    report(k, "utf16_to_utf8", in, len, 2, cap, e, a, file, line);
  if (memcmp(dst, g_exp8, e.written) != 0) {
    print_error("[%s] utf16_to_utf8(len=%zu, cap=%zu): output differs\n", k->name, len, cap);
    desert_assert_bytes_equal_at(g_exp8, e.written, dst, e.written, "utf8 output", file, line);
  }
  if (canary)
    for (size_t i = 0; i < CANARY; i++)
      if (dst[cap + i] != (uint8_t)(0xa5u + i)) {
        print_error("[%s] utf16_to_utf8(len=%zu, cap=%zu) wrote past its capacity\n", k->name, len,
                    cap);
        _fail(file, line);
      }
}

static void u16to8_one(const desert_kernels *k, const uint16_t *in, size_t len, uint8_t *dst,
                       size_t cap, int canary, const char *file, int line) {
  u16to8_pre(k, in, len, dst, cap, canary, NULL, file, line);
}

/* pre as for u16to8_pre: the length follows from the unlimited conversion. */
static void len16_pre(const desert_kernels *k, const uint16_t *in, size_t len, const result *pre,
                      const char *file, int line) {
  result e = {DESERT_OK, 0, 0}, a = {DESERT_OK, 0, 0};
  if (pre != NULL) {
    e.st = pre->st;
    e.pos = pre->st == DESERT_OK ? pre->written : pre->pos;
  } else {
    e.st = desert_oracle_utf8_len_from_utf16(in, len, &e.pos);
  }
  a.pos = (size_t)-1;
  a.st = k->utf8_len_from_utf16(in, len, &a.pos);
  if (a.st != e.st || a.pos != e.pos)
    report(k, "utf8_len_from_utf16 (pos = out_len)", in, len, 2, 0, e, a, file, line);
}

static void len16_one(const desert_kernels *k, const uint16_t *in, size_t len, const char *file,
                      int line) {
  len16_pre(k, in, len, NULL, file, line);
}

/* Full check of one UTF-16 input at the given level (see u8to16_check).
 * Short capacities: exact-1..-3 (a 4-byte character missing 1..3 bytes). */
static void u16to8_check(const desert_kernels *k, const uint16_t *data, size_t len, size_t mis,
                         int level, const char *file, int line) {
  result pre;
  pre.st = desert_oracle_utf16_to_utf8(data, len, g_exp8, 4 * WORK, &pre.written, &pre.pos);
  const size_t full = pre.written;
  uint16_t *in = g_in16 + mis % 32;
  memcpy(in, data, len * 2);
  len16_pre(k, in, len, &pre, file, line);
  uint8_t *out = g_out8 + (mis * 7 + 1) % 64;
  u16to8_pre(k, in, len, out, full, 1, &pre, file, line);
  if (level < L_CAPS && pre.st != DESERT_OK) /* ample room too, as in u8to16_check */
    u16to8_pre(k, in, len, out, 3 * len, 1, &pre, file, line);
  if (level < L_CAPS) return;
  u16to8_pre(k, in, len, out, 3 * len, 1, &pre, file, line);
  for (size_t d = 1; d <= 3 && d <= full; d++) u16to8_one(k, in, len, out, full - d, 1, file, line);
  if (level >= L_ALL)
    for (size_t cap = 0; cap + 3 < full; cap++) u16to8_one(k, in, len, out, cap, 1, file, line);
  if (level < L_GUARDS) return;
  /* Oracle calls with smaller capacities rewrite the same leading bytes of
   * g_exp8, so it still holds the unlimited output that `pre` describes. */
  const uint16_t *gin = (const uint16_t *)desert_guarded_place_copy(&g_in_after, data, len * 2);
  len16_pre(k, gin, len, &pre, file, line);
  u16to8_pre(k, gin, len, (uint8_t *)desert_guarded_place(&g_out_after, full), full, 0, &pre, file,
             line);
  if (full > 0)
    u16to8_one(k, gin, len, (uint8_t *)desert_guarded_place(&g_out_after, full - 1), full - 1, 0,
               file, line);
  gin = (const uint16_t *)desert_guarded_place_copy(&g_in_before, data, len * 2);
  len16_pre(k, gin, len, &pre, file, line);
  u16to8_pre(k, gin, len, (uint8_t *)desert_guarded_place(&g_out_after, full), full, 0, &pre, file,
             line);
}

#define U16TO8(k, d, l, m, lvl) u16to8_check((k), (d), (l), (m), (lvl), __FILE__, __LINE__)

/* ---- known vectors ------------------------------------------------------------------- */

static void test_known_vectors(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  /* "aé€😀" both ways. */
  const uint8_t u8[] = {0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80};
  const uint16_t u16[] = {0x0061, 0x00e9, 0x20ac, 0xd83d, 0xde00};
  uint16_t o16[8];
  uint8_t o8[16];
  size_t w = 99, p = 99, n = 99;
  assert_int_equal(k->utf8_to_utf16(u8, sizeof u8, o16, 8, &w, &p), DESERT_OK);
  assert_int_equal(w, 5);
  assert_int_equal(p, sizeof u8);
  assert_memory_equal(o16, u16, sizeof u16);
  assert_int_equal(k->utf8_len_from_utf16(u16, 5, &n), DESERT_OK);
  assert_int_equal(n, sizeof u8);
  assert_int_equal(k->utf16_to_utf8(u16, 5, o8, 16, &w, &p), DESERT_OK);
  assert_int_equal(w, sizeof u8);
  assert_int_equal(p, 5);
  assert_memory_equal(o8, u8, sizeof u8);

  /* Capacity stops at the character that does not fit. */
  assert_int_equal(k->utf8_to_utf16(u8, sizeof u8, o16, 4, &w, &p), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 3); /* the pair for U+1F600 needs 2 units */
  assert_int_equal(p, 6);
  assert_int_equal(k->utf16_to_utf8(u16, 5, o8, 9, &w, &p), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 6);
  assert_int_equal(p, 3);
  assert_int_equal(k->utf16_to_utf8(u16, 5, o8, 0, &w, &p), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 0);
  assert_int_equal(p, 0);

  /* Unpaired surrogates: lone high at the end, high + non-low, lone low. */
  const uint16_t bad1[] = {0x61, 0xd83d};
  const uint16_t bad2[] = {0x61, 0x62, 0xd83d, 0x63};
  const uint16_t bad3[] = {0xdc00, 0x61};
  assert_int_equal(k->utf8_len_from_utf16(bad1, 2, &n), DESERT_E_INVALID_UTF16);
  assert_int_equal(n, 1);
  assert_int_equal(k->utf16_to_utf8(bad2, 4, o8, 16, &w, &p), DESERT_E_INVALID_UTF16);
  assert_int_equal(p, 2);
  assert_int_equal(w, 2);
  assert_int_equal(k->utf16_to_utf8(bad3, 2, o8, 16, &w, &p), DESERT_E_INVALID_UTF16);
  assert_int_equal(p, 0);
  assert_int_equal(w, 0);

  /* Precedence: an error at the position where the output is full wins;
   * an error after the first character that does not fit is not seen. */
  const uint8_t cut[] = {0x61, 0x62, 0xe2, 0x82};
  assert_int_equal(k->utf8_to_utf16(cut, 4, o16, 2, &w, &p), DESERT_E_INVALID_UTF8);
  assert_int_equal(w, 2);
  assert_int_equal(p, 2);
  assert_int_equal(k->utf8_to_utf16(cut, 4, o16, 1, &w, &p), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 1);
  assert_int_equal(p, 1);
  assert_int_equal(k->utf16_to_utf8(bad2, 4, o8, 2, &w, &p), DESERT_E_INVALID_UTF16);
  assert_int_equal(p, 2);
  assert_int_equal(k->utf16_to_utf8(bad2, 4, o8, 1, &w, &p), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(p, 1);

  /* Empty input at a guard page, zero capacity. */
  const uint8_t *e8 = (const uint8_t *)desert_guarded_place(&g_in_after, 0);
  assert_int_equal(
      k->utf8_to_utf16(e8, 0, (uint16_t *)desert_guarded_place(&g_out_after, 0), 0, &w, &p),
      DESERT_OK);
  assert_int_equal(w, 0);
  assert_int_equal(p, 0);
  assert_int_equal(k->utf16_to_utf8((const uint16_t *)desert_guarded_place(&g_in_after, 0), 0,
                                    (uint8_t *)desert_guarded_place(&g_out_after, 0), 0, &w, &p),
                   DESERT_OK);
  assert_int_equal(w, 0);
}

/* ---- UTF-8 -> UTF-16 sweeps ------------------------------------------------------------- */

static const char *const k_seq8[] = {
    "c3 a9", "e2 82 ac", "f0 9f 98 80", "f4 8f bf bf",                         /* valid */
    "80",    "ff",       "c3",          "f0 9f 98",    "ed a0 80", "e0 80 80", /* invalid */
};

static void sweep8(const desert_kernels *k, const uint8_t *bg) {
  uint8_t buf[MAXLEN + 8];
  for (size_t s = 0; s < DESERT_TEST_COUNT(k_seq8); s++) {
    uint8_t seq[8];
    const size_t sl = desert_hex_decode(k_seq8[s], seq, sizeof seq);
    for (size_t len = 0; len <= MAXLEN; len++)
      for (size_t p = 0; p + sl <= len; p++) {
        if (!desert_test_sweep_pos(k, p, sl, len)) continue;
        memcpy(buf, bg, len);
        memcpy(buf + p, seq, sl);
        const int edge = p < 3 || p + sl + 3 >= len;
        U8TO16(k, buf, len, (len + p) % 64, len <= 12 ? L_ALL : edge ? L_GUARDS : L_EXACT);
      }
  }
}

static void test_utf8_to_utf16_sweep(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  uint8_t bg[MAXLEN + 8];
  for (size_t i = 0; i < sizeof bg; i++) bg[i] = (uint8_t)('A' + i % 26);
  sweep8(k, bg);
  static const uint8_t pattern[] = {0xd0, 0x96, 0x61, 0xe4, 0xb8, 0xad, 0xf0, 0x9f, 0x98, 0x80};
  for (size_t i = 0; i < sizeof bg; i++) bg[i] = pattern[i % sizeof pattern];
  sweep8(k, bg);
  /* 2-byte text after one ASCII byte: leads at odd offsets, so 64-byte
   * blocks end on a lead whose continuation (or the sequence replacing
   * it) opens the next block. */
  bg[0] = 0x61;
  for (size_t i = 1; i < sizeof bg; i++) bg[i] = i % 2 ? 0xd0 : 0x96;
  sweep8(k, bg);
}

/* Every 2-byte string at the 16/32/64-byte edges, converted with exact and
 * short capacities (units and surrogate handling across blocks). */
static void test_utf8_to_utf16_pairs(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  uint8_t buf[128];
  for (unsigned v = 0; v < 65536; v += 2 * (unsigned)desert_test_stride(k) - 1) {
    memset(buf, 'x', sizeof buf);
    buf[31] = (uint8_t)(v >> 8);
    buf[32] = (uint8_t)v;
    U8TO16(k, buf, 80, v % 64, L_EXACT);
    buf[31] = buf[32] = 'x';
    buf[63] = (uint8_t)(v >> 8);
    buf[64] = (uint8_t)v;
    U8TO16(k, buf, sizeof buf, v % 64, L_EXACT);
    /* A 4-byte character right before the edge, then the pair. */
    memcpy(buf + 12, "\xf0\x9f\x98\x80", 4);
    buf[16] = (uint8_t)(v >> 8);
    buf[17] = (uint8_t)v;
    U8TO16(k, buf, 18, 0, (v & 0xff) == 0 ? L_GUARDS : L_CAPS);
  }
}

static void test_utf8_to_utf16_misalignment(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const uint8_t pattern[] = {0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80};
  uint8_t buf[300];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = pattern[i % sizeof pattern];
  for (size_t in_mis = 0; in_mis < 64; in_mis++) {
    memcpy(g_in8 + in_mis, buf, sizeof buf);
    for (size_t out_mis = 0; out_mis < 32; out_mis++) {
      size_t full, pos;
      desert_oracle_utf8_to_utf16(buf, sizeof buf, g_exp16, WORK, &full, &pos);
      u8to16_one(k, g_in8 + in_mis, sizeof buf, g_out16 + out_mis, full, 1, __FILE__, __LINE__);
      u8to16_one(k, g_in8 + in_mis, 257, g_out16 + out_mis, 200, 1, __FILE__, __LINE__);
    }
  }
}

/* ---- UTF-16 -> UTF-8 sweeps ------------------------------------------------------------- */

/* {unit, second unit or 0 for a single unit}; the first K_MIXED_UNITS also
 * run on the mixed background. */
#define K_MIXED_UNITS 8
static const uint16_t k_units[][2] = {
    {0x0080, 0}, {0x0800, 0},      {0xffff, 0},      {0xd83d, 0xde00}, {0xd800, 0},
    {0xdbff, 0}, {0xdc00, 0},      {0xdc00, 0xd800}, {0x0000, 0},      {0x007f, 0},
    {0x07ff, 0}, {0xd7ff, 0},      {0xe000, 0},      {0xdbff, 0xdfff}, {0xd800, 0xdc00},
    {0xdfff, 0}, {0xd83d, 0xd83d},
};

static void sweep16(const desert_kernels *k, const uint16_t *bg, size_t nunits) {
  uint16_t buf[MAXLEN + 8];
  for (size_t s = 0; s < nunits; s++) {
    const size_t sl = k_units[s][1] != 0 ? 2 : 1;
    for (size_t len = 0; len <= MAXLEN; len++)
      for (size_t p = 0; p + sl <= len; p++) {
        if (!desert_test_sweep_pos(k, p, sl, len)) continue;
        memcpy(buf, bg, len * 2);
        buf[p] = k_units[s][0];
        if (sl == 2) buf[p + 1] = k_units[s][1];
        const int edge = p < 3 || p + sl + 3 >= len;
        U16TO8(k, buf, len, (len + p) % 32, len <= 8 ? L_ALL : edge ? L_GUARDS : L_EXACT);
      }
  }
}

static void test_utf16_to_utf8_sweep(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  uint16_t bg[MAXLEN + 8];
  for (size_t i = 0; i < MAXLEN + 8; i++) bg[i] = (uint16_t)('a' + i % 26);
  sweep16(k, bg, DESERT_TEST_COUNT(k_units));
  static const uint16_t pattern[] = {0x0436, 0x61, 0x4e2d, 0xd83d, 0xde00, 0xe9, 0x20ac};
  for (size_t i = 0; i < MAXLEN + 8; i++) bg[i] = pattern[i % DESERT_TEST_COUNT(pattern)];
  sweep16(k, bg, K_MIXED_UNITS);
}

/* Every 16-bit unit alone at positions straddling 8/16/32-unit edges and
 * as the last unit; then every surrogate pair (2^20) across the 32-unit
 * (64-byte) edge. */
static void test_utf16_exhaustive(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const size_t at[] = {7, 15, 16, 31, 63};
  uint16_t buf[128];
  for (size_t i = 0; i < 128; i++) buf[i] = 'x';
  const int full = desert_test_full_domain(k);
  for (unsigned u = 0; u < 65536; u++) {
    /* Reduced mode: units near a class boundary (ASCII, 2-byte, 3-byte,
     * surrogates, the top of the BMP) at every position, the others at
     * one position, rotating. */
    const int special =
        u < 0x100 || (u >= 0x7f0 && u < 0x810) || (u >= 0xd700 && u < 0xe100) || u >= 0xff00;
    for (size_t a = 0; a < DESERT_TEST_COUNT(at); a++) {
      if (!full && !special && a != u % DESERT_TEST_COUNT(at)) continue;
      buf[at[a]] = (uint16_t)u;
      U16TO8(k, buf, 72, (u + a) % 32, L_EXACT);
      buf[at[a]] = 'x';
    }
    buf[63] = (uint16_t)u; /* as the last unit, input ending at a guard page */
    const uint16_t *gin = (const uint16_t *)desert_guarded_place_copy(&g_in_after, buf, 128);
    len16_one(k, gin, 64, __FILE__, __LINE__);
    u16to8_one(k, gin, 64, g_out8, 3 * 64, 1, __FILE__, __LINE__);
    buf[63] = 'x';
  }
  /* Every pair across the edge is well formed, so the oracle's answer for
   * the first low surrogate of each high one stands for all of them. */
  const unsigned step = desert_test_full_domain(k) ? 1 : k->emulated ? 7 : 3;
  for (size_t i = 0; i < 128; i++) buf[i] = 0x4e2d;
  for (unsigned hi = 0xd800; hi <= 0xdbff; hi++) {
    buf[31] = (uint16_t)hi;
    buf[32] = 0xdc00;
    size_t en;
    const desert_status est = desert_oracle_utf8_len_from_utf16(buf, 64, &en);
    for (unsigned lo = 0xdc00 + (hi % step); lo <= 0xdfff; lo += step) {
      buf[32] = (uint16_t)lo;
      size_t n = (size_t)-1;
      const desert_status st = k->utf8_len_from_utf16(buf, 64, &n);
      if (st != est || n != en) {
        print_error("[%s] pair %04x %04x across the edge: expected %s %zu, got %s %zu\n", k->name,
                    hi, lo, desert_status_name(est), en, desert_status_name(st), n);
        fail();
      }
      if ((lo & 0x3f) == (hi & 0x3f)) u16to8_one(k, buf, 64, g_out8, en, 1, __FILE__, __LINE__);
    }
  }
}

static void test_utf16_to_utf8_misalignment(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const uint16_t pattern[] = {0x61, 0xe9, 0x20ac, 0xd83d, 0xde00, 0x62, 0x436};
  uint16_t buf[200];
  for (size_t i = 0; i < 200; i++) buf[i] = pattern[i % DESERT_TEST_COUNT(pattern)];
  for (size_t in_mis = 0; in_mis < 32; in_mis++) {
    memcpy(g_in16 + in_mis, buf, sizeof buf);
    len16_one(k, g_in16 + in_mis, 200, __FILE__, __LINE__);
    for (size_t out_mis = 0; out_mis < 64; out_mis++) {
      size_t full, pos;
      desert_oracle_utf16_to_utf8(buf, 200, g_exp8, sizeof g_exp8, &full, &pos);
      u16to8_one(k, g_in16 + in_mis, 200, g_out8 + out_mis, full, 1, __FILE__, __LINE__);
      u16to8_one(k, g_in16 + in_mis, 199, g_out8 + out_mis, 301, 1, __FILE__, __LINE__);
    }
  }
}

/* Runs of units below U+0800 (ASCII and two-byte letters in a random
 * proportion per run) long enough for 64-unit SIMD steps, checked at every
 * capacity (the AVX-512 sprint stores 64 bytes for its first 32 units and
 * relies on the next 32 to overwrite the excess); then the same run with a
 * three-byte unit or a surrogate pair in its last 64 units. */
static void test_utf16_to_utf8_two_byte_runs(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  desert_rng r;
  desert_rng_init_test(&r, 0x32627974u);
  uint16_t buf[300];
  for (size_t len = 64; len <= 300; len += 29) {
    const uint32_t share = desert_rng_below(&r, 9); /* eighths of two-byte units */
    for (size_t i = 0; i < len; i++)
      buf[i] = desert_rng_below(&r, 8) < share ? (uint16_t)(0x80 + desert_rng_below(&r, 0x780))
                                                : (uint16_t)(0x20 + desert_rng_below(&r, 95));
    U16TO8(k, buf, len, len % 32, L_ALL);
    const size_t at = len - 2 - desert_rng_below(&r, 63);
    buf[at] = 0x4e2d;
    U16TO8(k, buf, len, (len + 1) % 32, L_GUARDS);
    buf[at] = 0xd83d;
    buf[at + 1] = 0xde00;
    U16TO8(k, buf, len, (len + 2) % 32, L_GUARDS);
  }
}

/* ---- random differential ------------------------------------------------------------------- */

static const uint32_t ranges[][2] = {
    {0x20, 0x7e},        {0x80, 0x7ff},    {0x800, 0xd7ff},    {0xe000, 0xffff},
    {0x10000, 0x10ffff}, {0x4e00, 0x9fff}, {0x1f300, 0x1faff},
};

static uint32_t random_cp(desert_rng *r) {
  const size_t w = desert_rng_below(r, (uint32_t)DESERT_TEST_COUNT(ranges));
  return ranges[w][0] + desert_rng_below(r, ranges[w][1] - ranges[w][0] + 1);
}

/* A code point of the range random_cp would pick from state *one, at
 * offset `at` (reduced modulo the range's size). */
static uint32_t random_cp_in(desert_rng *one, uint32_t at) {
  const size_t w = desert_rng_below(one, (uint32_t)DESERT_TEST_COUNT(ranges));
  return ranges[w][0] + at % (ranges[w][1] - ranges[w][0] + 1);
}

static void test_random_differential(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  desert_rng r;
  desert_rng_init_test(&r, 0x7574663136u);
  static uint8_t b8[WORK];
  static uint16_t b16[WORK];
  const int iters = k->emulated ? 400 : 2000;
  for (int it = 0; it < iters; it++) {
    const size_t max = it % 5 == 0 ? WORK - 8 : 200;
    const size_t target = desert_rng_range(&r, 0, max);
    /* 0: mostly ASCII; 1: one script (range) for the whole string, so
     * SIMD blocks of a single class (all 2-byte, all CJK, all pairs) and
     * their fast paths are reached; 2-3: every character from any range. */
    const uint32_t mode = desert_rng_below(&r, 4);
    desert_rng script = r; /* mode 1 replays one state: one range */
    size_t n8 = 0, n16 = 0;
    while (n8 + 4 <= target && n16 + 2 <= target) {
      desert_rng one = script;
      const uint32_t cp = mode == 0 && desert_rng_below(&r, 8) != 0
                              ? 0x20 + desert_rng_below(&r, 95)
                          : mode == 1 ? random_cp_in(&one, desert_rng_below(&r, 1u << 30))
                                      : random_cp(&r);
      n8 += desert_oracle_utf8_encode_one(cp, b8 + n8);
      if (cp >= 0x10000) {
        b16[n16++] = (uint16_t)(0xd800 + ((cp - 0x10000) >> 10));
        b16[n16++] = (uint16_t)(0xdc00 + ((cp - 0x10000) & 0x3ff));
      } else {
        b16[n16++] = (uint16_t)cp;
      }
    }
    /* Corrupt sometimes: a random byte / a lone surrogate / a cut. */
    if (desert_rng_below(&r, 2) == 0 && n8 > 0) {
      b8[desert_rng_below(&r, (uint32_t)n8)] = (uint8_t)desert_rng_next(&r);
      b16[desert_rng_below(&r, (uint32_t)n16)] = (uint16_t)(0xd800 + desert_rng_below(&r, 2048));
      if (desert_rng_below(&r, 4) == 0) {
        n8 = desert_rng_below(&r, (uint32_t)n8);
        n16 = desert_rng_below(&r, (uint32_t)n16);
      }
    }
    const size_t mis = desert_rng_below(&r, 64);
    U8TO16(k, b8, n8, mis, L_GUARDS);
    U16TO8(k, b16, n16, mis, L_GUARDS);
    /* A random capacity. */
    const size_t cap16 = desert_rng_range(&r, 0, n8);
    memcpy(g_in8, b8, n8);
    u8to16_one(k, g_in8, n8, g_out16, cap16, 1, __FILE__, __LINE__);
    const size_t cap8 = desert_rng_range(&r, 0, 3 * n16);
    memcpy(g_in16, b16, n16 * 2);
    u16to8_one(k, g_in16, n16, g_out8, cap8, 1, __FILE__, __LINE__);
  }
}

/* ---- public API -------------------------------------------------------------------------------
 */

static void test_public_api(void **state) {
  (void)state;
  const uint8_t u8[] = {0x61, 0xf0, 0x9f, 0x98, 0x80};
  const uint16_t u16[] = {0x61, 0xd83d, 0xde00};
  uint16_t o16[4];
  uint8_t o8[8];
  size_t w = 9, p = 9, n = 9;
  assert_int_equal(desert_utf8_to_utf16(u8, 5, o16, 4, &w, &p), DESERT_OK);
  assert_int_equal(w, 3);
  assert_int_equal(p, 5);
  assert_memory_equal(o16, u16, sizeof u16);
  assert_int_equal(desert_utf8_to_utf16(u8, 5, o16, 2, &w, NULL), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 1);
  assert_int_equal(desert_utf8_to_utf16(u8, 5, NULL, 4, &w, &p), DESERT_E_ARGUMENT);
  assert_int_equal(desert_utf8_to_utf16(NULL, 5, o16, 4, &w, &p), DESERT_E_ARGUMENT);
  assert_int_equal(desert_utf8_to_utf16(u8, 5, o16, 4, NULL, &p), DESERT_E_ARGUMENT);
  assert_int_equal(desert_utf8_to_utf16(NULL, 0, NULL, 0, &w, &p), DESERT_OK);
  assert_int_equal(w, 0);
  assert_int_equal(desert_utf8_to_utf16(u8, 1, NULL, 0, &w, &p), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(desert_utf8_len_from_utf16(u16, 3, &n), DESERT_OK);
  assert_int_equal(n, 5);
  assert_int_equal(desert_utf8_len_from_utf16(u16, 2, &n), DESERT_E_INVALID_UTF16);
  assert_int_equal(n, 1);
  assert_int_equal(desert_utf8_len_from_utf16(NULL, 2, &n), DESERT_E_ARGUMENT);
  assert_int_equal(desert_utf8_len_from_utf16(u16, 2, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_utf16_to_utf8(u16, 3, o8, 8, &w, &p), DESERT_OK);
  assert_int_equal(w, 5);
  assert_memory_equal(o8, u8, 5);
  assert_int_equal(desert_utf16_to_utf8(u16, 3, o8, 4, &w, &p), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 1);
  assert_int_equal(p, 1);
  assert_int_equal(desert_utf16_to_utf8(u16, 3, NULL, 8, &w, &p), DESERT_E_ARGUMENT);
  assert_int_equal(desert_utf16_to_utf8(NULL, 0, NULL, 0, &w, &p), DESERT_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known_vectors),
      cmocka_unit_test(test_utf8_to_utf16_sweep),
      cmocka_unit_test(test_utf8_to_utf16_pairs),
      cmocka_unit_test(test_utf8_to_utf16_misalignment),
      cmocka_unit_test(test_utf16_to_utf8_sweep),
      cmocka_unit_test(test_utf16_exhaustive),
      cmocka_unit_test(test_utf16_to_utf8_misalignment),
      cmocka_unit_test(test_utf16_to_utf8_two_byte_runs),
      cmocka_unit_test(test_random_differential),
      cmocka_unit_test(test_public_api),
  };
  const int failed = desert_test_run_per_isa("utf16", tests, DESERT_TEST_COUNT(tests));
  desert_guarded_free(&g_in_after);
  desert_guarded_free(&g_in_before);
  desert_guarded_free(&g_out_after);
  return failed == 0 ? 0 : 1;
}
