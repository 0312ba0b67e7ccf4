/* test/test_kernel_utf8.c — utf8_validate and utf16_len_from_utf8 of every
 * runnable kernel table against the oracle: known vectors, boundary sweeps,
 * misalignment, exhaustive 1/2/3-byte (and classed 4-byte) sequences at
 * block edges, random differential runs and guard pages.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guarded.h"
#include "oracle.h"
#include "test_util.h"

#define MAXLEN   260  /* sweep lengths 0..MAXLEN (4*64+3 and a bit: every kernel block size) */
#define WORK     4096 /* largest input of the random tests */
#define EDGE_LEN 128  /* exhaustive domains live in a buffer of two 64-byte blocks */

static desert_guarded g_after, g_before;
_Alignas(64) static uint8_t g_work[64 + WORK];

static void guards_init(void) {
  if (g_after.map != NULL) return;
  if (desert_guarded_init(&g_after, WORK, DESERT_GUARD_AFTER) != 0 ||
      desert_guarded_init(&g_before, WORK, DESERT_GUARD_BEFORE) != 0) {
    print_error("cannot map guard pages\n");
    fail();
  }
}

/* Middle positions of long sweeps use a stride for SIMD tables in
 * unoptimised builds (desert_test_stride); positions near the ends always
 * all run. */
static size_t sweep_stride(const desert_kernels *k) { return desert_test_stride(k); }

static void report(const desert_kernels *k, const char *op, const uint8_t *in, size_t len,
                   desert_status est, size_t epos, desert_status st, size_t pos, const char *file,
                   int line) {
  char hex[3 * 80 + 1];
  /* Show the bytes around the expected error position. */
  const size_t from = epos > 40 && epos <= len ? epos - 40 : 0;
  const size_t n = len - from < 80 ? len - from : 80;
  desert_hex_encode(in + from, n, hex, sizeof hex);
  print_error("[%s] %s(len=%zu, addr%%64=%zu): expected %s / %zu, got %s / %zu\n"
              "  input[%zu..]: %s\n",
              k->name, op, len, (size_t)((uintptr_t)in % 64), desert_status_name(est), epos,
              desert_status_name(st), pos, from, hex);
  _fail(file, line);
}

/* The oracle's answers for one input. */
typedef struct expect {
  desert_status st, st16;
  size_t pos, units;
} expect;

static expect oracle(const uint8_t *in, size_t len) {
  expect e;
  e.st = desert_oracle_utf8_validate(in, len, &e.pos);
  e.st16 = desert_oracle_utf16_len_from_utf8(in, len, &e.units);
  return e;
}

/* Runs both kernels on in[0..len), wherever it is, against e. */
static void check_expect(const desert_kernels *k, const uint8_t *in, size_t len, const expect *e,
                         const char *file, int line) {
  size_t pos = (size_t)-1;
  desert_status st = k->utf8_validate(in, len, &pos);
  if (st != e->st || pos != e->pos)
    report(k, "utf8_validate", in, len, e->st, e->pos, st, pos, file, line);
  pos = (size_t)-1;
  st = k->utf16_len_from_utf8(in, len, &pos);
  if (st != e->st16 || pos != e->units)
    report(k, "utf16_len_from_utf8", in, len, e->st16, e->units, st, pos, file, line);
}

/* data[0..len) at misalignment mis, then (guards != 0) ending at a guard
 * page, then starting right after one. */
static void check_placed(const desert_kernels *k, const uint8_t *data, size_t len, size_t mis,
                         int guards, const char *file, int line) {
  const expect e = oracle(data, len);
  memcpy(g_work + mis, data, len);
  check_expect(k, g_work + mis, len, &e, file, line);
  if (!guards) return;
  check_expect(k, (const uint8_t *)desert_guarded_place_copy(&g_after, data, len), len, &e, file,
               line);
  check_expect(k, (const uint8_t *)desert_guarded_place_copy(&g_before, data, len), len, &e, file,
               line);
}
#define CHECK_PLACED(k, d, l, m, g) check_placed((k), (d), (l), (m), (g), __FILE__, __LINE__)

/* ---- known vectors ------------------------------------------------------------------ */

typedef struct vec {
  const char *hex;
  desert_status st;
  size_t pos;   /* error offset; ignored on success */
  size_t units; /* UTF-16 length on success */
} vec;

static const vec k_vectors[] = {
    {"", DESERT_OK, 0, 0},
    {"41", DESERT_OK, 0, 1},
    {"00 7f", DESERT_OK, 0, 2},
    {"c2 80", DESERT_OK, 0, 1},
    {"c3 a9", DESERT_OK, 0, 1},
    {"df bf", DESERT_OK, 0, 1},
    {"e0 a0 80", DESERT_OK, 0, 1},
    {"e2 82 ac", DESERT_OK, 0, 1},
    {"ed 9f bf", DESERT_OK, 0, 1}, /* U+D7FF, last before the surrogates */
    {"ee 80 80", DESERT_OK, 0, 1}, /* U+E000, first after them */
    {"ef bf bf", DESERT_OK, 0, 1}, /* U+FFFF */
    {"f0 90 80 80", DESERT_OK, 0, 2},
    {"f0 9f 98 80", DESERT_OK, 0, 2},
    {"f4 8f bf bf", DESERT_OK, 0, 2}, /* U+10FFFF */
    {"41 c3 a9 e2 82 ac f0 9f 98 80", DESERT_OK, 0, 5},
    {"80", DESERT_E_INVALID_UTF8, 0, 0},
    {"bf", DESERT_E_INVALID_UTF8, 0, 0},
    {"c0 80", DESERT_E_INVALID_UTF8, 0, 0}, /* overlong NUL */
    {"c1 bf", DESERT_E_INVALID_UTF8, 0, 0},
    {"c3", DESERT_E_INVALID_UTF8, 0, 0}, /* cut by the end */
    {"c3 41", DESERT_E_INVALID_UTF8, 0, 0},
    {"c3 c3 a9", DESERT_E_INVALID_UTF8, 0, 0},
    {"e0 9f bf", DESERT_E_INVALID_UTF8, 0, 0}, /* overlong */
    {"e2 82", DESERT_E_INVALID_UTF8, 0, 0},
    {"e2 41 ac", DESERT_E_INVALID_UTF8, 0, 0},
    {"e2 82 41", DESERT_E_INVALID_UTF8, 0, 0},
    {"ed a0 80", DESERT_E_INVALID_UTF8, 0, 0}, /* U+D800 */
    {"ed bf bf", DESERT_E_INVALID_UTF8, 0, 0}, /* U+DFFF */
    {"f0 8f bf bf", DESERT_E_INVALID_UTF8, 0, 0},
    {"f0 9f 98", DESERT_E_INVALID_UTF8, 0, 0},
    {"f4 90 80 80", DESERT_E_INVALID_UTF8, 0, 0}, /* U+110000 */
    {"f5 80 80 80", DESERT_E_INVALID_UTF8, 0, 0},
    {"f8 88 80 80 80", DESERT_E_INVALID_UTF8, 0, 0},
    {"fe", DESERT_E_INVALID_UTF8, 0, 0},
    {"ff", DESERT_E_INVALID_UTF8, 0, 0},
    {"41 42 80", DESERT_E_INVALID_UTF8, 2, 0},
    {"41 e2 82 ac c3", DESERT_E_INVALID_UTF8, 4, 0},
    {"61 61 61 61 61 61 61 61 61 ff", DESERT_E_INVALID_UTF8, 9, 0},
    {"61 61 61 61 61 61 61 e2 82 ac 80", DESERT_E_INVALID_UTF8, 10, 0},
    {"c3 a9 ed a0 80 41", DESERT_E_INVALID_UTF8, 2, 0},
};

static void test_known_vectors(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  for (size_t i = 0; i < DESERT_TEST_COUNT(k_vectors); i++) {
    uint8_t in[64];
    const size_t len = desert_hex_decode(k_vectors[i].hex, in, sizeof in);
    assert_true(len != SIZE_MAX);
    size_t pos = 999, units = 999;
    /* The oracle must agree with the hand-written answer too. */
    assert_int_equal(desert_oracle_utf8_validate(in, len, &pos), k_vectors[i].st);
    for (int run = 0; run < 2; run++) {
      const uint8_t *p =
          run == 0 ? in : (const uint8_t *)desert_guarded_place_copy(&g_after, in, len);
      const desert_status st = k->utf8_validate(p, len, &pos);
      const desert_status st16 = k->utf16_len_from_utf8(p, len, &units);
      if (st != k_vectors[i].st) print_error("vector %zu: %s\n", i, k_vectors[i].hex);
      assert_int_equal(st, k_vectors[i].st);
      assert_int_equal(st16, k_vectors[i].st);
      if (st == DESERT_OK) {
        assert_int_equal(pos, len);
        assert_int_equal(units, k_vectors[i].units);
      } else {
        assert_int_equal(pos, k_vectors[i].pos);
        assert_int_equal(units, k_vectors[i].pos);
      }
    }
  }
}

/* ---- boundary sweeps ------------------------------------------------------------------- */

/* Sequences placed at every position of every length 0..MAXLEN. */
static const char *const k_interesting[] = {
    /* the first K_MB_SEQ also run on the multi-byte background */
    "80",
    "ff",
    "c3 a9",
    "f0 9f 98 80",
    "e2 82",
    "ed a0 80",
    /* ASCII background only */
    "c1",
    "e2 82 ac",
    "c3",
    "f0 9f 98",
    "e0 80 80",
    "f4 90 80 80",
    "bf",
    "c0",
    "f5",
    "df bf",
    "ef bf bf",
    "f4 8f bf bf",
    "ed bf bf",
    "f0 80 80 80",
    "c0 af",
    "e2 28 a1",
    "c3 28",
};

/* Oracle answer for an ASCII background with seq at p: everything before p
 * is valid ASCII and everything from p + sl + 3 on is ASCII that no
 * sequence starting inside seq can reach, so the oracle only needs the
 * window [p, p + sl + 3) (clipped to len). Keeps the sweep fast in Debug. */
static expect ascii_bg_expect(const uint8_t *buf, size_t len, size_t p, size_t sl) {
  const size_t end = p + sl + 3 < len ? p + sl + 3 : len;
  expect e = oracle(buf + p, end - p);
  e.pos = e.st == DESERT_OK ? len : p + e.pos;
  e.units = e.st16 == DESERT_OK ? p + e.units + (len - end) : p + e.units;
  return e;
}

static void sweep_background(const desert_kernels *k, const uint8_t *bg, int ascii, size_t nseq) {
  const size_t stride = sweep_stride(k);
  uint8_t buf[MAXLEN + 8];
  for (size_t s = 0; s < nseq; s++) {
    uint8_t seq[8];
    const size_t sl = desert_hex_decode(k_interesting[s], seq, sizeof seq);
    for (size_t len = 0; len <= MAXLEN; len++) {
      for (size_t p = 0; p + sl <= len; p += (p < 8 || p + sl + 8 > len) ? 1 : stride) {
        memcpy(buf, bg, len);
        memcpy(buf + p, seq, sl);
        const expect e = ascii ? ascii_bg_expect(buf, len, p, sl) : oracle(buf, len);
        const size_t mis = (len * 7 + p) % 64;
        memcpy(g_work + mis, buf, len);
        check_expect(k, g_work + mis, len, &e, __FILE__, __LINE__);
        /* Guards for the positions near either end, where over-reads live. */
        if (p < 4 || p + sl + 4 >= len) {
          check_expect(k, (const uint8_t *)desert_guarded_place_copy(&g_after, buf, len), len, &e,
                       __FILE__, __LINE__);
          check_expect(k, (const uint8_t *)desert_guarded_place_copy(&g_before, buf, len), len, &e,
                       __FILE__, __LINE__);
        }
      }
    }
  }
}

static void test_sweep_ascii_background(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  uint8_t bg[MAXLEN + 8];
  for (size_t i = 0; i < sizeof bg; i++) bg[i] = (uint8_t)('a' + i % 26);
  sweep_background(k, bg, 1, DESERT_TEST_COUNT(k_interesting));
}

/* Long ASCII runs (past MAXLEN: SIMD kernels sprint over several blocks
 * per test there) with one sequence at every position: a stray
 * continuation, a valid 2-byte character, a sequence cut by ASCII. */
static void test_long_ascii_runs(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const char *const seqs[] = {"80", "c3 a9", "e2 82"};
  static const size_t lens[] = {320, 577, 1100};
  static uint8_t buf[1100];
  for (size_t s = 0; s < DESERT_TEST_COUNT(seqs); s++) {
    uint8_t seq[4];
    const size_t sl = desert_hex_decode(seqs[s], seq, sizeof seq);
    for (size_t l = 0; l < DESERT_TEST_COUNT(lens); l++) {
      const size_t len = lens[l];
      for (size_t p = 0; p + sl <= len; p++) {
        for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)('a' + i % 26);
        memcpy(buf + p, seq, sl);
        const expect e = ascii_bg_expect(buf, len, p, sl);
        const size_t mis = (p * 3 + l) % 64;
        memcpy(g_work + mis, buf, len);
        check_expect(k, g_work + mis, len, &e, __FILE__, __LINE__);
      }
    }
  }
}

/* A background of valid multi-byte text, so the interesting sequence also
 * lands inside characters (which makes those characters invalid). The
 * first K_MB_SEQ sequences of k_interesting: a stray continuation, a
 * never-valid byte, valid 2- and 4-byte characters, a cut sequence and a
 * surrogate. */
#define K_MB_SEQ 6
static void test_sweep_multibyte_background(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const uint8_t pattern[] = {0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98,
                                    0x80, 0x61, 0xd0, 0x96, 0xe4, 0xb8, 0xad};
  uint8_t bg[MAXLEN + 8];
  for (size_t i = 0; i < sizeof bg; i++) bg[i] = pattern[i % sizeof pattern];
  sweep_background(k, bg, 0, K_MB_SEQ);
}

/* Every length of every background prefix, including ones that end inside
 * a character (the cut-at-end rule). */
static void test_sweep_prefixes(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const uint8_t pattern[] = {0xf0, 0x9f, 0x98, 0x80, 0xe2, 0x82, 0xac, 0xc3, 0xa9, 0x7a};
  uint8_t bg[3 * MAXLEN];
  for (size_t i = 0; i < sizeof bg; i++) bg[i] = pattern[i % sizeof pattern];
  for (size_t len = 0; len <= sizeof bg; len++) CHECK_PLACED(k, bg, len, len % 64, 1);
  for (size_t i = 0; i < sizeof bg; i++) bg[i] = (uint8_t)(i % 128);
  for (size_t len = 0; len <= sizeof bg; len++) CHECK_PLACED(k, bg, len, (len * 5) % 64, 1);
}

static void test_misalignment(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const uint8_t mixed[] = {0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80};
  uint8_t buf[300];
  static const size_t err_at[] = {SIZE_MAX, 0, 15, 16, 31, 32, 63, 64, 65, 127, 128, 199, 299};
  for (size_t e = 0; e < DESERT_TEST_COUNT(err_at); e++) {
    for (int kind = 0; kind < 2; kind++) {
      for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = kind == 0 ? (uint8_t)('0' + i % 10) : mixed[i % sizeof mixed];
      if (err_at[e] != SIZE_MAX) buf[err_at[e]] = 0xff;
      for (size_t mis = 0; mis < 64; mis++) CHECK_PLACED(k, buf, sizeof buf, mis, mis == 0);
    }
  }
}

/* ---- exhaustive small domains ------------------------------------------------------------ */

/* Every byte value at every position (and as the last byte). */
static void test_exhaustive_1byte(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  const int full = desert_test_full_domain(k);
  uint8_t buf[MAXLEN];
  for (size_t p = 0; p < MAXLEN; p++) {
    /* Reduced mode: positions next to 16-byte edges and near either end. */
    const size_t e = p % 16;
    if (!full && !(e <= 1 || e >= 14 || p < 8 || p + 8 > MAXLEN)) continue;
    for (unsigned b = 0; b < 256; b++) {
      memset(buf, 'x', sizeof buf);
      buf[p] = (uint8_t)b;
      CHECK_PLACED(k, buf, sizeof buf, p % 64, 0);
      CHECK_PLACED(k, buf, p + 1, 0, p % 16 == 0);
    }
  }
}

/* Every byte pair straddling the 16/32/64-byte edges, at the end of the
 * input, and right after a 3-byte character that ends at the edge. */
static void test_exhaustive_2byte(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  static const size_t at[] = {15, 31, 63};
  uint8_t buf[EDGE_LEN];
  const unsigned step = 2 * (unsigned)desert_test_stride(k) - 1; /* odd: every low byte */
  for (unsigned v = 0; v < 65536; v += step) {
    const uint8_t b0 = (uint8_t)(v >> 8), b1 = (uint8_t)v;
    for (size_t a = 0; a < DESERT_TEST_COUNT(at); a++) {
      memset(buf, 'x', sizeof buf);
      buf[at[a]] = b0;
      buf[at[a] + 1] = b1;
      CHECK_PLACED(k, buf, sizeof buf, 0, 0);
      /* Same pair behind a complete 3-byte character (state carried in). */
      buf[at[a] - 3] = 0xe2;
      buf[at[a] - 2] = 0x82;
      buf[at[a] - 1] = 0xac;
      CHECK_PLACED(k, buf, sizeof buf, 0, 0);
    }
    memset(buf, 'x', sizeof buf);
    buf[62] = b0;
    buf[63] = b1;
    CHECK_PLACED(k, buf, 64, 0, (v & 0xff) == 0);
  }
}

/* Every 3-byte string b0 b1 b2 (2^24, valid or not) placed across the
 * 64-byte block edge, which is also a 16- and 32-byte edge: at offsets
 * 62..64 and 63..65 of a 128-byte ASCII buffer. The oracle answer is taken
 * once per triple (it only depends on the triple).
 * When !desert_test_full_domain(k) (SIMD tables in unoptimised builds) the
 * third byte is classed: all 16 high nibbles, with a low nibble that
 * rotates with b0 and b1, so every (b0, b1, high nibble of b2) and every
 * full value of b2 as the byte before the next block's ASCII still occurs.
 * Table-driven validators (Keiser & Lemire) look at b2 only through its
 * high nibble, except as "previous byte" for the byte after it. */
static void test_exhaustive_3byte(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  const int full = desert_test_full_domain(k);
  uint8_t buf[EDGE_LEN];
  uint8_t probe[6] = {0, 0, 0, 'x', 'x', 'x'};
  memset(buf, 'x', sizeof buf);
  for (unsigned v = 0; v < (1u << 24); v++) {
    const uint8_t b0 = (uint8_t)(v >> 16), b1 = (uint8_t)(v >> 8), b2 = (uint8_t)v;
    if (!full && (b2 & 15u) != ((b0 + b1 * 7u) & 15u)) continue;
    probe[0] = b0;
    probe[1] = b1;
    probe[2] = b2;
    size_t epos;
    const desert_status est = desert_oracle_utf8_validate(probe, sizeof probe, &epos);
    /* Reduced mode: one of the two splits per triple, alternating. */
    const size_t first = full ? 62 : 62 + ((v >> 4) & 1u), last = full ? 63 : first;
    for (size_t at = first; at <= last; at++) {
      buf[at] = b0;
      buf[at + 1] = b1;
      buf[at + 2] = b2;
      size_t pos = (size_t)-1;
      const desert_status st = k->utf8_validate(buf, sizeof buf, &pos);
      const size_t want = est == DESERT_OK ? sizeof buf : at + epos;
      if (st != est || pos != want)
        report(k, "utf8_validate", buf, sizeof buf, est, want, st, pos, __FILE__, __LINE__);
      buf[at] = buf[at + 1] = buf[at + 2] = 'x';
    }
    /* utf16_len_from_utf8 on the subset that starts with a lead byte. */
    if (b0 >= 0xc0 && (b2 & 7u) == 0) {
      buf[63] = b0;
      buf[64] = b1;
      buf[65] = b2;
      size_t units = (size_t)-1, eunits;
      const desert_status est16 = desert_oracle_utf16_len_from_utf8(buf, sizeof buf, &eunits);
      const desert_status st16 = k->utf16_len_from_utf8(buf, sizeof buf, &units);
      if (st16 != est16 || units != eunits)
        report(k, "utf16_len_from_utf8", buf, sizeof buf, est16, eunits, st16, units, __FILE__,
               __LINE__);
      buf[63] = buf[64] = buf[65] = 'x';
    }
  }
}

/* 4-byte sequences: every lead F0..F7 x every second byte x classed third
 * and fourth bytes, straddling the 64-byte edge at each split. */
static void test_classed_4byte(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  static const uint8_t cls_all[] = {0x41, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0,
                                    0x00, 0x7f, 0xc2, 0xe0, 0xed, 0xf0, 0xf4, 0xff};
  /* Fewer classes for the third and fourth byte in reduced mode: the
   * continuation ranges and one lead and one ASCII byte. */
  const size_t ncls = desert_test_full_domain(k) ? sizeof cls_all : 8;
  const uint8_t *cls = cls_all;
  uint8_t buf[EDGE_LEN];
  memset(buf, 'x', sizeof buf);
  for (unsigned lead = 0xf0; lead <= 0xf7; lead++)
    for (unsigned b1 = 0; b1 < 256; b1++)
      for (size_t i2 = 0; i2 < ncls; i2++)
        for (size_t i3 = 0; i3 < ncls; i3++) {
          const uint8_t q[4] = {(uint8_t)lead, (uint8_t)b1, cls[i2], cls[i3]};
          memcpy(buf + 61, q, 4);
          expect e = oracle(buf, sizeof buf);
          memset(buf + 61, 'x', 4);
          for (size_t at = 61; at <= 63; at++) {
            /* Reduced mode: one of the three splits, rotating. */
            if (ncls != sizeof cls_all && (at - 61) != (b1 + i2 + i3) % 3) {
              if (e.st != DESERT_OK) e.pos++;
              if (e.st16 != DESERT_OK) e.units++;
              continue;
            }
            memcpy(buf + at, q, 4);
            check_expect(k, buf, sizeof buf, &e, __FILE__, __LINE__);
            memset(buf + at, 'x', 4);
            /* Shifting the quad by one moves every offset by one. */
            if (e.st != DESERT_OK) e.pos++;
            if (e.st16 != DESERT_OK) e.units++;
          }
        }
}

/* ---- random differential ----------------------------------------------------------------- */

/* Appends one random scalar value from a random "script" to out. */
static size_t random_char(desert_rng *r, uint8_t *out) {
  static const uint32_t ranges[][2] = {
      {0x20, 0x7e},        {0x00, 0x7f},     {0xa0, 0xff},     {0x400, 0x4ff}, /* Cyrillic */
      {0x4e00, 0x9fff},    {0xac00, 0xd7a3}, {0xe000, 0xffff}, {0x1f300, 0x1faff},
      {0x10000, 0x10ffff}, {0x80, 0x7ff},    {0x800, 0xd7ff},
  };
  const size_t which = desert_rng_below(r, (uint32_t)DESERT_TEST_COUNT(ranges));
  const uint32_t cp =
      ranges[which][0] + desert_rng_below(r, ranges[which][1] - ranges[which][0] + 1);
  return desert_oracle_utf8_encode_one(cp, out);
}

static size_t random_text(desert_rng *r, uint8_t *out, size_t max) {
  const size_t target = desert_rng_range(r, 0, max);
  /* Mostly one script per text (as in real data), sometimes mixed. */
  size_t n = 0;
  uint8_t c[4];
  const int ascii_heavy = desert_rng_below(r, 3) == 0;
  while (n + 4 <= target) {
    size_t l;
    if (ascii_heavy && desert_rng_below(r, 8) != 0) {
      c[0] = (uint8_t)(0x20 + desert_rng_below(r, 95));
      l = 1;
    } else {
      l = random_char(r, c);
    }
    memcpy(out + n, c, l);
    n += l;
  }
  return n;
}

static void mutate(desert_rng *r, uint8_t *buf, size_t *len) {
  if (*len == 0) return;
  switch (desert_rng_below(r, 6)) {
  case 0: /* random byte */
    buf[desert_rng_below(r, (uint32_t)*len)] = (uint8_t)desert_rng_next(r);
    break;
  case 1: /* stray continuation */
    buf[desert_rng_below(r, (uint32_t)*len)] = (uint8_t)(0x80 + desert_rng_below(r, 64));
    break;
  case 2: /* truncate, possibly inside a character */
    *len = desert_rng_below(r, (uint32_t)*len);
    break;
  case 3: /* lead byte without its continuations */
    buf[desert_rng_below(r, (uint32_t)*len)] = (uint8_t)(0xc2 + desert_rng_below(r, 0x33));
    break;
  case 4: /* surrogate encoded as UTF-8 */
    if (*len >= 3) {
      const size_t p = desert_rng_below(r, (uint32_t)(*len - 2));
      buf[p] = 0xed;
      buf[p + 1] = (uint8_t)(0xa0 + desert_rng_below(r, 32));
      buf[p + 2] = (uint8_t)(0x80 + desert_rng_below(r, 64));
    }
    break;
  default: /* flip one bit */
    buf[desert_rng_below(r, (uint32_t)*len)] ^= (uint8_t)(1u << desert_rng_below(r, 8));
    break;
  }
}

static void test_random_differential(void **state) {
  const desert_kernels *k = desert_test_kernels(state);
  guards_init();
  desert_rng r;
  desert_rng_init_test(&r, 0x75746638u);
  static uint8_t buf[WORK];
  const int iters = k->emulated ? 600 : 3000;
  for (int it = 0; it < iters; it++) {
    size_t len = random_text(&r, buf, it % 4 == 0 ? WORK - 64 : 300);
    CHECK_PLACED(k, buf, len, desert_rng_below(&r, 64), 1);
    const unsigned muts = desert_rng_below(&r, 3);
    for (unsigned m = 0; m <= muts; m++) mutate(&r, buf, &len);
    CHECK_PLACED(k, buf, len, desert_rng_below(&r, 64), 1);
  }
}

/* ---- public API ---------------------------------------------------------------------------- */

static void test_public_api(void **state) {
  (void)state;
  size_t pos = 77, n = 77;
  const uint8_t ok[] = {0x61, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80};
  const uint8_t bad[] = {0x61, 0x62, 0xe2, 0x82};
  assert_int_equal(desert_utf8_validate(ok, sizeof ok, &pos), DESERT_OK);
  assert_int_equal(pos, sizeof ok);
  assert_int_equal(desert_utf8_validate(bad, sizeof bad, &pos), DESERT_E_INVALID_UTF8);
  assert_int_equal(pos, 2);
  assert_int_equal(desert_utf8_validate(bad, sizeof bad, NULL), DESERT_E_INVALID_UTF8);
  assert_int_equal(desert_utf8_validate(NULL, 0, &pos), DESERT_OK);
  assert_int_equal(pos, 0);
  assert_int_equal(desert_utf8_validate(NULL, 3, &pos), DESERT_E_ARGUMENT);
  assert_int_equal(desert_utf16_len_from_utf8(ok, sizeof ok, &n), DESERT_OK);
  assert_int_equal(n, 4);
  assert_int_equal(desert_utf16_len_from_utf8(bad, sizeof bad, &n), DESERT_E_INVALID_UTF8);
  assert_int_equal(n, 2);
  assert_int_equal(desert_utf16_len_from_utf8(ok, sizeof ok, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_utf16_len_from_utf8(NULL, 1, &n), DESERT_E_ARGUMENT);
  assert_int_equal(desert_utf16_len_from_utf8(NULL, 0, &n), DESERT_OK);
  assert_int_equal(n, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known_vectors),
      cmocka_unit_test(test_sweep_ascii_background),
      cmocka_unit_test(test_sweep_multibyte_background),
      cmocka_unit_test(test_long_ascii_runs),
      cmocka_unit_test(test_sweep_prefixes),
      cmocka_unit_test(test_misalignment),
      cmocka_unit_test(test_exhaustive_1byte),
      cmocka_unit_test(test_exhaustive_2byte),
      cmocka_unit_test(test_exhaustive_3byte),
      cmocka_unit_test(test_classed_4byte),
      cmocka_unit_test(test_random_differential),
      cmocka_unit_test(test_public_api),
  };
  const int failed = desert_test_run_per_isa("utf8", tests, DESERT_TEST_COUNT(tests));
  desert_guarded_free(&g_after);
  desert_guarded_free(&g_before);
  return failed == 0 ? 0 : 1;
}
