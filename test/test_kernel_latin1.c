/* test/test_kernel_latin1.c — utf8_len_from_latin1, latin1_to_utf8 and
 * utf8_to_latin1 of every runnable kernel table against the oracle: every
 * byte value at every position, exact-size outputs ending at guard pages,
 * misalignment, every 2-byte UTF-8 string at block edges, the error
 * precedence (invalid / not Latin-1 / output full), random differential.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guarded.h"
#include "oracle.h"
#include "test_util.h"

#define MAXLEN 260
#define WORK   4096
#define CANARY 8

static desert_guarded g_in_after, g_in_before, g_out_after;
_Alignas(64) static uint8_t g_in[64 + 2 * WORK];
_Alignas(64) static uint8_t g_out[64 + 2 * WORK + CANARY];
static uint8_t g_exp[2 * WORK + CANARY];

static void guards_init(void) {
  if (g_in_after.map != NULL) return;
  if (desert_guarded_init(&g_in_after, 2 * WORK, DESERT_GUARD_AFTER) != 0 ||
      desert_guarded_init(&g_in_before, 2 * WORK, DESERT_GUARD_BEFORE) != 0 ||
      desert_guarded_init(&g_out_after, 2 * WORK, DESERT_GUARD_AFTER) != 0) {
    print_error("cannot map guard pages\n");
    fail();
  }
}

static void fail_here(const desert_kernels *k, const char *op, const uint8_t *in, size_t len,
                      const char *why, const char *file, int line) {
  char hex[3 * 64 + 1];
  desert_hex_encode(in, len < 64 ? len : 64, hex, sizeof hex);
  print_error("[%s] %s(len=%zu): %s\n  input: %s\n", k->name, op, len, why, hex);
  _fail(file, line);
}

/* ---- Latin-1 -> UTF-8 -------------------------------------------------------------- */

/* utf8_len_from_latin1 and latin1_to_utf8 on in[0..len), writing into dst
 * which has exactly the UTF-8 size (plus CANARY bytes checked afterwards
 * when canary is set; none when dst ends at a guard page). */
static void l1_check_at(const desert_kernels *k, const uint8_t *in, size_t len, uint8_t *dst,
                        int canary, const char *file, int line) {
  const size_t need = desert_oracle_utf8_len_from_latin1(in, len);
  const size_t got_need = k->utf8_len_from_latin1(in, len);
  if (got_need != need) {
    char why[96];
    snprintf(why, sizeof why, "expected %zu, got %zu", need, got_need);
    fail_here(k, "utf8_len_from_latin1", in, len, why, file, line);
  }
  desert_oracle_latin1_to_utf8(in, len, g_exp);
  if (canary)
    for (size_t i = 0; i < CANARY; i++) dst[need + i] = (uint8_t)(0x5a + i);
  const size_t w = k->latin1_to_utf8(in, len, dst);
  if (w != need) {
    char why[96];
    snprintf(why, sizeof why, "returned %zu, expected %zu", w, need);
    fail_here(k, "latin1_to_utf8", in, len, why, file, line);
  }
  desert_assert_bytes_equal_at(g_exp, need, dst, need, "latin1_to_utf8 output", file, line);
  if (canary)
    for (size_t i = 0; i < CANARY; i++)
      if (dst[need + i] != (uint8_t)(0x5a + i))
        fail_here(k, "latin1_to_utf8", in, len, "wrote past the exact output size", file, line);
}

/* in at misalignment in_mis / output at out_mis; with guards also input
 * and output at guard pages. */
static void l1_check(const desert_kernels *k, const uint8_t *data, size_t len, size_t in_mis,
                     size_t out_mis, int guards, const char *file, int line) {
  memcpy(g_in + in_mis, data, len);
  l1_check_at(k, g_in + in_mis, len, g_out + out_mis, 1, file, line);
  if (!guards) return;
  const size_t need = desert_oracle_utf8_len_from_latin1(data, len);
  l1_check_at(k, (const uint8_t *)desert_guarded_place_copy(&g_in_after, data, len), len,
              (uint8_t *)desert_guarded_place(&g_out_after, need), 0, file, line);
  l1_check_at(k, (const uint8_t *)desert_guarded_place_copy(&g_in_before, data, len), len,
              (uint8_t *)desert_guarded_place(&g_out_after, need), 0, file, line);
}
#define L1_CHECK(k, d, l, im, om, g) l1_check((k), (d), (l), (im), (om), (g), __FILE__, __LINE__)

static void test_latin1_known(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  const uint8_t in[] = {0x41, 0xe9, 0x00, 0xff, 0x80, 0x7f};
  const uint8_t want[] = {0x41, 0xc3, 0xa9, 0x00, 0xc3, 0xbf, 0xc2, 0x80, 0x7f};
  uint8_t out[16];
  assert_int_equal(k->utf8_len_from_latin1(in, sizeof in), sizeof want);
  assert_int_equal(k->latin1_to_utf8(in, sizeof in, out), sizeof want);
  assert_memory_equal(out, want, sizeof want);
  assert_int_equal(k->utf8_len_from_latin1(in, 0), 0);
  assert_int_equal(k->latin1_to_utf8(in, 0, out), 0);
}

/* Every byte value at every position of every length (ASCII background),
 * and every byte value filling a whole buffer. */
static void test_latin1_every_byte_every_position(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  uint8_t buf[MAXLEN];
  static const uint8_t vals[] = {0x00, 0x7f, 0x80, 0xbf, 0xc0, 0xff};
  for (size_t len = 0; len <= MAXLEN; len++)
    for (size_t p = 0; p < len; p++) {
      if (!desert_test_sweep_pos(k, p, 1, len)) continue;
      for (size_t v = 0; v < sizeof vals; v++) {
        memset(buf, 'q', len);
        buf[p] = vals[v];
        L1_CHECK(k, buf, len, (len + p) % 64, (len * 3 + p) % 64, p + 3 >= len || p < 2);
      }
    }
  for (unsigned b = 0; b < 256; b++)
    for (size_t p = 0; p < MAXLEN; p += 13) {
      memset(buf, 'q', sizeof buf);
      buf[p] = (uint8_t)b;
      L1_CHECK(k, buf, MAXLEN, b % 64, p % 64, 0);
      memset(buf, (int)b, sizeof buf);
      L1_CHECK(k, buf, p, 0, 0, p % 39 == 0);
    }
}

static void test_latin1_misalignment(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  uint8_t buf[300];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 37 + 11);
  for (size_t im = 0; im < 64; im++)
    for (size_t om = 0; om < 64; om++) L1_CHECK(k, buf, sizeof buf - (im + om) % 7, im, om, 0);
}

/* ---- UTF-8 -> Latin-1 -------------------------------------------------------------------- */

typedef struct result {
  desert_status st;
  size_t written, pos;
} result;

/* pre: the oracle result with unlimited room (output in g_exp), which is
 * the result for any cap >= pre->written; NULL asks the oracle (smaller
 * caps rewrite only the same leading bytes of g_exp). */
static void u8l1_pre(const desert_kernels *k, const uint8_t *in, size_t len, uint8_t *dst,
                     size_t cap, int canary, const result *pre, const char *file, int line) {
  result e, a = {DESERT_E_STATE, (size_t)-1, (size_t)-1};
  if (pre != NULL && cap >= pre->written)
    e = *pre;
  else
    e.st = desert_oracle_utf8_to_latin1(in, len, g_exp, cap, &e.written, &e.pos);
  if (canary)
    for (size_t i = 0; i < CANARY; i++) dst[cap + i] = (uint8_t)(0x5a + i);
  a.st = k->utf8_to_latin1(in, len, dst, cap, &a.written, &a.pos);
  if (a.st != e.st || a.written != e.written || a.pos != e.pos) {
    char why[200];
    snprintf(why, sizeof why,
             "cap %zu: expected %s written %zu pos %zu, got %s written %zu pos %zu", cap,
             desert_status_name(e.st), e.written, e.pos, desert_status_name(a.st), a.written,
             a.pos);
    fail_here(k, "utf8_to_latin1", in, len, why, file, line);
  }
  desert_assert_bytes_equal_at(g_exp, e.written, dst, e.written, "utf8_to_latin1 output", file,
                               line);
  if (canary)
    for (size_t i = 0; i < CANARY; i++)
      if (dst[cap + i] != (uint8_t)(0x5a + i))
        fail_here(k, "utf8_to_latin1", in, len, "wrote past its capacity", file, line);
}

static void u8l1_one(const desert_kernels *k, const uint8_t *in, size_t len, uint8_t *dst,
                     size_t cap, int canary, const char *file, int line) {
  u8l1_pre(k, in, len, dst, cap, canary, NULL, file, line);
}

/* Capacities: unlimited-result size, one less, len; every smaller one when
 * all_caps. Guards: input at guard pages, output ending at one. */
static void u8l1_check(const desert_kernels *k, const uint8_t *data, size_t len, size_t mis,
                       int guards, int all_caps, const char *file, int line) {
  result pre;
  pre.st = desert_oracle_utf8_to_latin1(data, len, g_exp, 2 * WORK, &pre.written, &pre.pos);
  const size_t full = pre.written;
  uint8_t *in = g_in + mis;
  memcpy(in, data, len);
  uint8_t *out = g_out + (mis * 3 + 5) % 64;
  u8l1_pre(k, in, len, out, full, 1, &pre, file, line);
  u8l1_pre(k, in, len, out, len, 1, &pre, file, line);
  if (full > 0) u8l1_one(k, in, len, out, full - 1, 1, file, line);
  if (all_caps)
    for (size_t cap = 0; cap + 1 < full; cap++) u8l1_one(k, in, len, out, cap, 1, file, line);
  if (!guards) return;
  const uint8_t *gin = (const uint8_t *)desert_guarded_place_copy(&g_in_after, data, len);
  u8l1_pre(k, gin, len, (uint8_t *)desert_guarded_place(&g_out_after, full), full, 0, &pre, file,
           line);
  if (full > 0)
    u8l1_one(k, gin, len, (uint8_t *)desert_guarded_place(&g_out_after, full - 1), full - 1, 0,
             file, line);
  gin = (const uint8_t *)desert_guarded_place_copy(&g_in_before, data, len);
  u8l1_pre(k, gin, len, (uint8_t *)desert_guarded_place(&g_out_after, full), full, 0, &pre, file,
           line);
}
#define U8L1(k, d, l, m, g, a) u8l1_check((k), (d), (l), (m), (g), (a), __FILE__, __LINE__)

static void test_to_latin1_known(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  uint8_t out[16];
  size_t w = 99, p = 99;
  const uint8_t ok[] = {0x41, 0xc3, 0xa9, 0xc2, 0x80, 0xc3, 0xbf};
  assert_int_equal(k->utf8_to_latin1(ok, sizeof ok, out, 16, &w, &p), DESERT_OK);
  assert_int_equal(w, 4);
  assert_int_equal(p, sizeof ok);
  const uint8_t want[] = {0x41, 0xe9, 0x80, 0xff};
  assert_memory_equal(out, want, 4);
  /* U+0100 is the first code point that is not Latin-1. */
  const uint8_t not_l1[] = {0x41, 0xc4, 0x80};
  assert_int_equal(k->utf8_to_latin1(not_l1, 3, out, 16, &w, &p), DESERT_E_NOT_LATIN1);
  assert_int_equal(w, 1);
  assert_int_equal(p, 1);
  const uint8_t euro[] = {0x41, 0x42, 0xe2, 0x82, 0xac};
  assert_int_equal(k->utf8_to_latin1(euro, 5, out, 16, &w, &p), DESERT_E_NOT_LATIN1);
  assert_int_equal(p, 2);
  /* Invalid UTF-8 wins over "not Latin-1": the sequence is judged first. */
  const uint8_t bad[] = {0x41, 0xe2, 0x82};
  assert_int_equal(k->utf8_to_latin1(bad, 3, out, 16, &w, &p), DESERT_E_INVALID_UTF8);
  assert_int_equal(p, 1);
  const uint8_t overlong[] = {0xc1, 0x81};
  assert_int_equal(k->utf8_to_latin1(overlong, 2, out, 16, &w, &p), DESERT_E_INVALID_UTF8);
  assert_int_equal(p, 0);
  /* Output full: the first problem in input order wins. */
  assert_int_equal(k->utf8_to_latin1(ok, sizeof ok, out, 2, &w, &p), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 2);
  assert_int_equal(p, 3);
  assert_int_equal(k->utf8_to_latin1(not_l1, 3, out, 1, &w, &p), DESERT_E_NOT_LATIN1);
  assert_int_equal(p, 1);
  assert_int_equal(k->utf8_to_latin1(bad, 3, out, 1, &w, &p), DESERT_E_INVALID_UTF8);
  assert_int_equal(p, 1);
  assert_int_equal(k->utf8_to_latin1(euro, 5, out, 1, &w, &p), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 1);
  assert_int_equal(p, 1);
  assert_int_equal(k->utf8_to_latin1(ok, 0, out, 0, &w, &p), DESERT_OK);
  assert_int_equal(w, 0);
  assert_int_equal(p, 0);
}

static const char *const k_seq[] = {
    "c2 80", "c3 bf", "c3 a9",                         /* Latin-1 */
    "c4 80", "df bf", "e2 82 ac", "f0 9f 98 80",       /* valid, not Latin-1 */
    "80",    "c3",    "c1 bf",    "ed a0 80",    "ff", /* invalid */
};

static void test_to_latin1_sweep(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  uint8_t bg[MAXLEN + 8], buf[MAXLEN + 8];
  /* ASCII background and one with Latin-1 letters as 2-byte UTF-8. */
  for (int kind = 0; kind < 2; kind++) {
    for (size_t i = 0; i < sizeof bg; i++)
      bg[i] = kind == 0 ? (uint8_t)('a' + i % 26) : (i % 3 == 2 ? 0x61 : i % 3 == 0 ? 0xc3 : 0xa9);
    for (size_t s = 0; s < DESERT_TEST_COUNT(k_seq); s++) {
      uint8_t seq[8];
      const size_t sl = desert_hex_decode(k_seq[s], seq, sizeof seq);
      for (size_t len = 0; len <= MAXLEN; len++)
        for (size_t p = 0; p + sl <= len; p++) {
          if (!desert_test_sweep_pos(k, p, sl, len)) continue;
          memcpy(buf, bg, len);
          memcpy(buf + p, seq, sl);
          U8L1(k, buf, len, (len + p) % 64, p < 3 || p + sl + 3 >= len, len <= 12);
        }
    }
  }
}

/* Every 2-byte string across the 16/32/64-byte edges and at the end. */
static void test_to_latin1_pairs(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  uint8_t buf[80];
  static const size_t at[] = {15, 31, 63};
  for (unsigned v = 0; v < 65536; v += 2 * (unsigned)desert_test_stride(k) - 1) {
    for (size_t a = 0; a < DESERT_TEST_COUNT(at); a++) {
      memset(buf, 'z', sizeof buf);
      buf[at[a]] = (uint8_t)(v >> 8);
      buf[at[a] + 1] = (uint8_t)v;
      size_t full, pos;
      desert_oracle_utf8_to_latin1(buf, sizeof buf, g_exp, sizeof g_exp, &full, &pos);
      u8l1_one(k, buf, sizeof buf, g_out, full, 1, __FILE__, __LINE__);
      u8l1_one(k, buf, at[a] + 2, g_out, at[a] + 2, 1, __FILE__, __LINE__);
    }
    if ((v & 0xff) == 0x83) U8L1(k, buf, 65, 0, 1, 0);
  }
}

static void test_to_latin1_misalignment(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  uint8_t buf[300];
  for (size_t i = 0; i < sizeof buf; i += 3) {
    buf[i] = 0x78;
    buf[i + 1] = 0xc3;
    buf[i + 2] = (uint8_t)(0x80 + i % 64);
  }
  for (size_t im = 0; im < 64; im++) {
    memcpy(g_in + im, buf, sizeof buf);
    for (size_t om = 0; om < 64; om++) {
      u8l1_one(k, g_in + im, sizeof buf, g_out + om, 200, 1, __FILE__, __LINE__);
      u8l1_one(k, g_in + im, sizeof buf - 1, g_out + om, 300, 1, __FILE__, __LINE__);
    }
  }
}

/* ---- random differential ------------------------------------------------------------------ */

static void test_random_differential(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  desert_rng r;
  desert_rng_init_test(&r, 0x6c6174696eu);
  static uint8_t l1[WORK], u8[2 * WORK];
  const int iters = k->emulated ? 400 : 2000;
  for (int it = 0; it < iters; it++) {
    const size_t n = desert_rng_range(&r, 0, it % 5 == 0 ? WORK : 200);
    const int ascii_heavy = desert_rng_below(&r, 2) == 0;
    for (size_t i = 0; i < n; i++)
      l1[i] = ascii_heavy && desert_rng_below(&r, 10) != 0 ? (uint8_t)desert_rng_below(&r, 128)
                                                           : (uint8_t)desert_rng_next(&r);
    const size_t mis = desert_rng_below(&r, 64);
    L1_CHECK(k, l1, n, mis, desert_rng_below(&r, 64), it % 8 == 0);
    /* And back: valid Latin-1 as UTF-8, sometimes with one defect. */
    size_t m = desert_oracle_latin1_to_utf8(l1, n, u8);
    if (m > 0 && desert_rng_below(&r, 2) == 0) {
      const size_t p = desert_rng_below(&r, (uint32_t)m);
      switch (desert_rng_below(&r, 4)) {
      case 0:
        u8[p] = (uint8_t)desert_rng_next(&r);
        break;
      case 1:
        u8[p] = 0xc4;
        break; /* U+01xx if a continuation follows */
      case 2:
        u8[p] = 0xe2;
        break;
      default:
        m = p;
        break; /* cut */
      }
    }
    U8L1(k, u8, m, mis, it % 8 == 0, 0);
    memcpy(g_in, u8, m);
    u8l1_one(k, g_in, m, g_out, desert_rng_range(&r, 0, m), 1, __FILE__, __LINE__);
  }
}

/* ---- public API ------------------------------------------------------------------------------ */

static void test_public_api(void **state) {
  (void)state;
  const uint8_t l1[] = {0x61, 0xe9, 0xff};
  const uint8_t u8[] = {0x61, 0xc3, 0xa9, 0xc3, 0xbf};
  uint8_t out[8];
  size_t w = 9, p = 9;
  assert_int_equal(desert_utf8_len_from_latin1(l1, 3), 5);
  assert_int_equal(desert_utf8_len_from_latin1(NULL, 3), 0);
  assert_int_equal(desert_latin1_to_utf8(l1, 3, out, 5, &w), DESERT_OK);
  assert_int_equal(w, 5);
  assert_memory_equal(out, u8, 5);
  assert_int_equal(desert_latin1_to_utf8(l1, 3, out, 4, &w), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 0);
  assert_int_equal(desert_latin1_to_utf8(l1, 3, out, 5, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_latin1_to_utf8(NULL, 3, out, 5, &w), DESERT_E_ARGUMENT);
  assert_int_equal(desert_latin1_to_utf8(l1, 3, NULL, 5, &w), DESERT_E_ARGUMENT);
  assert_int_equal(desert_latin1_to_utf8(NULL, 0, NULL, 0, &w), DESERT_OK);
  assert_int_equal(desert_utf8_to_latin1(u8, 5, out, 3, &w, &p), DESERT_OK);
  assert_int_equal(w, 3);
  assert_int_equal(p, 5);
  assert_memory_equal(out, l1, 3);
  assert_int_equal(desert_utf8_to_latin1(u8, 5, out, 2, &w, &p), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(w, 2);
  assert_int_equal(p, 3);
  assert_int_equal(desert_utf8_to_latin1(u8, 5, out, 2, &w, NULL), DESERT_E_DST_TOO_SMALL);
  assert_int_equal(desert_utf8_to_latin1(u8, 5, NULL, 2, &w, &p), DESERT_E_ARGUMENT);
  assert_int_equal(desert_utf8_to_latin1(u8, 5, out, 2, NULL, &p), DESERT_E_ARGUMENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_latin1_known),
      cmocka_unit_test(test_latin1_every_byte_every_position),
      cmocka_unit_test(test_latin1_misalignment),
      cmocka_unit_test(test_to_latin1_known),
      cmocka_unit_test(test_to_latin1_sweep),
      cmocka_unit_test(test_to_latin1_pairs),
      cmocka_unit_test(test_to_latin1_misalignment),
      cmocka_unit_test(test_random_differential),
      cmocka_unit_test(test_public_api),
  };
  const int failed = desert_test_run_per_isa("latin1", tests, DESERT_TEST_COUNT(tests));
  desert_guarded_free(&g_in_after);
  desert_guarded_free(&g_in_before);
  desert_guarded_free(&g_out_after);
  return failed == 0 ? 0 : 1;
}
