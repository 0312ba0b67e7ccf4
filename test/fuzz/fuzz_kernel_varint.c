/* test/fuzz/fuzz_kernel_varint.c — differential libFuzzer harness: var_u32 /
 * var_i32 run decoding and encoding (docs/format.md §3) of every runnable table
 * against scalar and the oracle, plus encode/decode round trips and the
 * public desert_var_*_{encode,decode,size} wrappers.
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0: bit 0 signed, bits 1..7 the value count n (0..127, times 4
 * when bit 7 of byte 1 is set); the rest is decoded as n varints and, read
 * as 32-bit words, encoded. */
#include "fuzz_kernel.h"

static void decode_all(const desert_kernels *const *t, size_t nt, bool sig, const uint8_t *in,
                       size_t len, size_t n) {
  uint8_t *src = fz_dup(in, len);
  uint32_t *want = fz_out(n * 4);
  size_t want_c = SIZE_MAX;
  desert_status want_st =
      sig ? desert_oracle_var_i32_decode(src, len, (int32_t *)want, n, &want_c)
          : desert_oracle_var_u32_decode(src, len, want, n, &want_c);
  /* Values fully decoded before the stop: count value ends in [0, consumed). */
  size_t valid = n;
  if (want_st != DESERT_OK) {
    valid = 0;
    size_t run = 0;
    for (size_t i = 0; i < want_c; i++) {
      run++;
      if (!(src[i] & 0x80u) || run == 5) {
        valid++;
        run = 0;
      }
    }
  }
  for (size_t i = 0; i < nt; i++) {
    uint32_t *dst = fz_out(n * 4);
    size_t c = SIZE_MAX;
    desert_status st = sig ? t[i]->var_i32_decode(src, len, (int32_t *)dst, n, &c)
                           : t[i]->var_u32_decode(src, len, dst, n, &c);
    FZ_CHECK_MSG(st == want_st && c == want_c, "%s var_%s32_decode: %s/%zu, oracle %s/%zu",
                 t[i]->name, sig ? "i" : "u", desert_status_name(st), c,
                 desert_status_name(want_st), want_c);
    FZ_CHECK_MSG(!valid || memcmp(dst, want, valid * 4) == 0, "%s var decode values differ",
                 t[i]->name);
    free(dst);
  }
  /* Public wrapper (default table). */
  uint32_t *dst = fz_out(n * 4);
  size_t c = SIZE_MAX;
  desert_status st = sig ? desert_var_i32_decode(src, len, (int32_t *)dst, n, &c)
                         : desert_var_u32_decode(src, len, dst, n, &c);
  FZ_CHECK(st == want_st && c == want_c);
  free(dst);
  free(want);
  free(src);
}

static void encode_all(const desert_kernels *const *t, size_t nt, bool sig, const uint8_t *in,
                       size_t len) {
  size_t n = len / 4;
  uint32_t *vals = fz_out(n * 4);
  if (n) memcpy(vals, in, n * 4);
  uint8_t *want = fz_out(n * 5);
  size_t want_n = sig ? desert_oracle_var_i32_encode(want, (const int32_t *)vals, n)
                      : desert_oracle_var_u32_encode(want, vals, n);
  size_t exact = sig ? desert_var_i32_size((const int32_t *)vals, n) : desert_var_u32_size(vals, n);
  FZ_CHECK(exact == want_n);
  for (size_t i = 0; i < nt; i++) {
    uint8_t *dst = fz_out(exact); /* exactly the encoded size: no slack to write into */
    size_t got = sig ? t[i]->var_i32_encode(dst, (const int32_t *)vals, n)
                     : t[i]->var_u32_encode(dst, vals, n);
    FZ_CHECK_MSG(got == want_n && (!got || memcmp(dst, want, got) == 0),
                 "%s var_%s32_encode differs", t[i]->name, sig ? "i" : "u");
    /* And back. */
    uint32_t *back = fz_out(n * 4);
    size_t c = 0;
    desert_status st = sig ? t[i]->var_i32_decode(dst, got, (int32_t *)back, n, &c)
                           : t[i]->var_u32_decode(dst, got, back, n, &c);
    FZ_CHECK(st == DESERT_OK && c == got && (!n || memcmp(back, vals, n * 4) == 0));
    free(back);
    free(dst);
  }
  /* Public wrapper: exact capacity works, one byte less is DST_TOO_SMALL. */
  uint8_t *dst = fz_out(exact);
  size_t w = 0;
  desert_status st = sig ? desert_var_i32_encode(dst, exact, (const int32_t *)vals, n, &w)
                         : desert_var_u32_encode(dst, exact, vals, n, &w);
  FZ_CHECK(st == DESERT_OK && w == exact && (!w || memcmp(dst, want, w) == 0));
  if (exact) {
    st = sig ? desert_var_i32_encode(dst, exact - 1, (const int32_t *)vals, n, &w)
             : desert_var_u32_encode(dst, exact - 1, vals, n, &w);
    FZ_CHECK(st == DESERT_E_DST_TOO_SMALL);
  }
  free(dst);
  free(want);
  free(vals);
}

FZ_TARGET(kernel_varint) {
  if (size < 2) return 0;
  bool sig = data[0] & 1u;
  size_t n = (size_t)(data[0] >> 1);
  if (data[1] & 0x80u) n *= 4;
  const desert_kernels *t[FZ_MAX_TABLES];
  size_t nt = fz_tables(t);
  decode_all(t, nt, sig, data + 2, size - 2, n);
  /* Also "exactly as many values as the input holds", the common case. */
  size_t all = 0, run = 0;
  for (size_t i = 2; i < size; i++) {
    run++;
    if (!(data[i] & 0x80u) || run == 5) all++, run = 0;
  }
  decode_all(t, nt, sig, data + 2, size - 2, all);
  encode_all(t, nt, sig, data + 2, size - 2);
  return 0;
}
