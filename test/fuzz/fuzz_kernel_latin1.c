/* test/fuzz/fuzz_kernel_latin1.c — differential libFuzzer harness: Latin-1
 * -> UTF-8 (size and conversion) and UTF-8 -> Latin-1 (invalid UTF-8, code
 * points above U+00FF, short outputs) of every runnable table against
 * scalar and the oracle.
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 = capacity selector for utf8_to_latin1 (0: len, else
 * len * byte / 256); the rest is used both as Latin-1 and as UTF-8 text. */
#include "fuzz_kernel.h"

FZ_TARGET(kernel_latin1) {
  if (size < 1) return 0;
  const desert_kernels *t[FZ_MAX_TABLES];
  size_t nt = fz_tables(t);
  size_t len = size - 1;
  uint8_t *src = fz_dup(data + 1, len);

  size_t want_n = desert_oracle_utf8_len_from_latin1(src, len);
  uint8_t *want8 = fz_out(want_n);
  FZ_CHECK(desert_oracle_latin1_to_utf8(src, len, want8) == want_n);
  FZ_CHECK(fz_utf8_ok(want8, want_n));

  size_t cap = data[0] ? len * data[0] / 256u : len;
  uint8_t *want1 = fz_out(cap);
  size_t want_w = SIZE_MAX, want_p = SIZE_MAX;
  desert_status want_t = desert_oracle_utf8_to_latin1(src, len, want1, cap, &want_w, &want_p);

  for (size_t i = 0; i < nt; i++) {
    size_t n = t[i]->utf8_len_from_latin1(src, len);
    FZ_CHECK_MSG(n == want_n, "%s utf8_len_from_latin1: %zu, oracle %zu", t[i]->name, n, want_n);
    uint8_t *dst = fz_out(want_n); /* exactly the size the contract promises */
    size_t got = t[i]->latin1_to_utf8(src, len, dst);
    FZ_CHECK_MSG(got == want_n && (!got || memcmp(dst, want8, got) == 0),
                 "%s latin1_to_utf8 differs", t[i]->name);
    /* And back to the same Latin-1 bytes. */
    uint8_t *back = fz_out(len);
    size_t bw = SIZE_MAX, bp = SIZE_MAX;
    FZ_CHECK(t[i]->utf8_to_latin1(dst, got, back, len, &bw, &bp) == DESERT_OK);
    FZ_CHECK(bw == len && (!len || memcmp(back, src, len) == 0));
    free(back);
    free(dst);

    uint8_t *d1 = fz_out(cap);
    size_t w = SIZE_MAX, p = SIZE_MAX;
    desert_status st = t[i]->utf8_to_latin1(src, len, d1, cap, &w, &p);
    FZ_CHECK_MSG(st == want_t && w == want_w && p == want_p,
                 "%s utf8_to_latin1 (cap %zu): %s w=%zu pos=%zu, oracle %s w=%zu pos=%zu",
                 t[i]->name, cap, desert_status_name(st), w, p, desert_status_name(want_t), want_w,
                 want_p);
    FZ_CHECK_MSG(!w || memcmp(d1, want1, w) == 0, "%s utf8_to_latin1 output differs", t[i]->name);
    free(d1);
  }
  FZ_CHECK(desert_utf8_len_from_latin1(src, len) == want_n);
  uint8_t *dst = fz_out(want_n);
  size_t w = SIZE_MAX;
  FZ_CHECK(desert_latin1_to_utf8(src, len, dst, want_n, &w) == DESERT_OK && w == want_n);
  FZ_CHECK(!w || memcmp(dst, want8, w) == 0);
  free(dst);
  uint8_t *d1 = fz_out(cap);
  size_t p = SIZE_MAX;
  w = SIZE_MAX;
  FZ_CHECK(desert_utf8_to_latin1(src, len, d1, cap, &w, &p) == want_t);
  FZ_CHECK(w == want_w);
  if (want_t) FZ_CHECK(p == want_p); /* the public call sets pos on errors */
  free(d1);
  free(want1);
  free(want8);
  free(src);
  return 0;
}
