/* test/fuzz/fuzz_kernel_utf8.c — differential libFuzzer harness: UTF-8
 * validation, UTF-16 length and UTF-8 -> UTF-16 transcoding of every
 * runnable table against scalar and the oracle (status, error position,
 * units written, output), at full and at input-chosen short capacities.
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 = output capacity selector (0: exact need, else a cap of
 * need * byte / 256 units, to hit DESERT_E_DST_TOO_SMALL); the rest is the
 * text. Valid text also goes back through utf16_to_utf8 to the same bytes. */
#include "fuzz_kernel.h"

FZ_TARGET(kernel_utf8) {
  if (size < 1) return 0;
  const desert_kernels *t[FZ_MAX_TABLES];
  size_t nt = fz_tables(t);
  size_t len = size - 1;
  uint8_t *src = fz_dup(data + 1, len);

  size_t want_pos = SIZE_MAX, want_units = SIZE_MAX;
  desert_status want_v = desert_oracle_utf8_validate(src, len, &want_pos);
  desert_status want_l = desert_oracle_utf16_len_from_utf8(src, len, &want_units);
  FZ_CHECK(want_v == want_l);
  FZ_CHECK(want_v == DESERT_OK ? want_pos == len : want_pos == want_units);
  FZ_CHECK((want_v == DESERT_OK) == fz_utf8_ok(src, len));

  size_t need = want_v == DESERT_OK ? want_units : len; /* len units always suffice */
  size_t cap = data[0] ? need * data[0] / 256u : need;
  uint16_t *want16 = fz_out(cap * 2);
  size_t want_w = SIZE_MAX, want_p = SIZE_MAX;
  desert_status want_t = desert_oracle_utf8_to_utf16(src, len, want16, cap, &want_w, &want_p);

  for (size_t i = 0; i < nt; i++) {
    size_t pos = SIZE_MAX;
    desert_status st = t[i]->utf8_validate(src, len, &pos);
    FZ_CHECK_MSG(st == want_v && pos == want_pos, "%s utf8_validate: %s at %zu, oracle %s at %zu",
                 t[i]->name, desert_status_name(st), pos, desert_status_name(want_v), want_pos);
    size_t units = SIZE_MAX;
    st = t[i]->utf16_len_from_utf8(src, len, &units);
    FZ_CHECK_MSG(st == want_l && units == want_units, "%s utf16_len_from_utf8: %s/%zu, oracle %s/%zu",
                 t[i]->name, desert_status_name(st), units, desert_status_name(want_l), want_units);
    uint16_t *dst = fz_out(cap * 2);
    size_t w = SIZE_MAX, p = SIZE_MAX;
    st = t[i]->utf8_to_utf16(src, len, dst, cap, &w, &p);
    FZ_CHECK_MSG(st == want_t && w == want_w && p == want_p,
                 "%s utf8_to_utf16 (cap %zu): %s w=%zu pos=%zu, oracle %s w=%zu pos=%zu",
                 t[i]->name, cap, desert_status_name(st), w, p, desert_status_name(want_t), want_w,
                 want_p);
    FZ_CHECK_MSG(!w || memcmp(dst, want16, w * 2) == 0, "%s utf8_to_utf16 output differs",
                 t[i]->name);
    if (st == DESERT_OK) {
      /* Back to UTF-8: the same bytes. */
      uint8_t *back = fz_out(len);
      size_t bw = 0, bp = 0;
      FZ_CHECK(t[i]->utf16_to_utf8(dst, w, back, len, &bw, &bp) == DESERT_OK);
      FZ_CHECK(bw == len && (!len || memcmp(back, src, len) == 0));
      free(back);
    }
    free(dst);
  }
  /* Public wrappers (default table). */
  size_t pos = SIZE_MAX;
  FZ_CHECK(desert_utf8_validate(src, len, &pos) == want_v);
  if (want_v) FZ_CHECK(pos == want_pos);
  uint16_t *dst = fz_out(cap * 2);
  size_t w = SIZE_MAX, p = SIZE_MAX;
  FZ_CHECK(desert_utf8_to_utf16(src, len, dst, cap, &w, &p) == want_t);
  FZ_CHECK(w == want_w);
  if (want_t) FZ_CHECK(p == want_p); /* the public call sets pos on errors */
  free(dst);
  free(want16);
  free(src);
  return 0;
}
