/* test/fuzz/fuzz_kernel_utf16.c — differential libFuzzer harness: UTF-8
 * length of UTF-16 and UTF-16 -> UTF-8 transcoding (unpaired surrogates,
 * short outputs) of every runnable table against scalar and the oracle.
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 = capacity selector (0: exact need, else need * byte / 256
 * bytes); the rest, as host-order 16-bit units, is the text (bytes >= 0xd8
 * at odd positions are common, so surrogates are frequent). */
#include "fuzz_kernel.h"

FZ_TARGET(kernel_utf16) {
  if (size < 1) return 0;
  const desert_kernels *t[FZ_MAX_TABLES];
  size_t nt = fz_tables(t);
  size_t len = (size - 1) / 2;
  uint16_t *src = fz_out(len * 2);
  if (len) memcpy(src, data + 1, len * 2);

  size_t want_len = SIZE_MAX;
  desert_status want_l = desert_oracle_utf8_len_from_utf16(src, len, &want_len);
  size_t need = want_l == DESERT_OK ? want_len : 3 * len;
  size_t cap = data[0] ? need * data[0] / 256u : need;
  uint8_t *want8 = fz_out(cap);
  size_t want_w = SIZE_MAX, want_p = SIZE_MAX;
  desert_status want_t = desert_oracle_utf16_to_utf8(src, len, want8, cap, &want_w, &want_p);
  if (want_t == DESERT_OK) FZ_CHECK(fz_utf8_ok(want8, want_w));

  for (size_t i = 0; i < nt; i++) {
    size_t l = SIZE_MAX;
    desert_status st = t[i]->utf8_len_from_utf16(src, len, &l);
    FZ_CHECK_MSG(st == want_l && l == want_len, "%s utf8_len_from_utf16: %s/%zu, oracle %s/%zu",
                 t[i]->name, desert_status_name(st), l, desert_status_name(want_l), want_len);
    uint8_t *dst = fz_out(cap);
    size_t w = SIZE_MAX, p = SIZE_MAX;
    st = t[i]->utf16_to_utf8(src, len, dst, cap, &w, &p);
    FZ_CHECK_MSG(st == want_t && w == want_w && p == want_p,
                 "%s utf16_to_utf8 (cap %zu): %s w=%zu pos=%zu, oracle %s w=%zu pos=%zu",
                 t[i]->name, cap, desert_status_name(st), w, p, desert_status_name(want_t), want_w,
                 want_p);
    FZ_CHECK_MSG(!w || memcmp(dst, want8, w) == 0, "%s utf16_to_utf8 output differs", t[i]->name);
    free(dst);
  }
  size_t l = SIZE_MAX;
  FZ_CHECK(desert_utf8_len_from_utf16(src, len, &l) == want_l && (want_l || l == want_len));
  uint8_t *dst = fz_out(cap);
  size_t w = SIZE_MAX, p = SIZE_MAX;
  FZ_CHECK(desert_utf16_to_utf8(src, len, dst, cap, &w, &p) == want_t);
  FZ_CHECK(w == want_w);
  if (want_t) FZ_CHECK(p == want_p); /* the public call sets pos on errors */
  free(dst);
  free(want8);
  free(src);
  return 0;
}
