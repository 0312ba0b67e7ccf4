/* src/x86/utf8_to_utf16_avx512.c — AVX-512 (BW + VBMI + VBMI2) UTF-8 ->
 * UTF-16.
 * SPDX-License-Identifier: MIT
 *
 * Algorithm (after Clausecker & Lemire, "Transcoding Unicode Characters
 * with AVX-512 Instructions", Software: Practice and Experience, 2023, in a
 * simpler form): windows of 64 bytes that start on a character boundary.
 *  - Validation: Keiser & Lemire's lookup check (dz_u8_check) on the
 *    window, with the stream shifted by 1..3 bytes loaded directly from
 *    s-1..s-3 (the window's start is a boundary after valid text; the very
 *    first window shifts in zeros with vpermt2b instead).
 *  - A lead whose sequence does not end inside the window (at most one, in
 *    bytes 61..63) ends the window early: the window consumes
 *    b = 61..64 bytes, only whole characters, and the next one starts at
 *    that lead. So windows never start inside a sequence and nothing is
 *    carried from one to the next.
 *  - Conversion, "compress first": the output units are the window's
 *    character starts plus, for each 4-byte character, its first
 *    continuation byte (emit = starts | f0 << 1, high and low surrogate).
 *    vpcompressb packs the bytes at those positions, and the bytes one and
 *    two further, into a0/a1/a2: unit j is a function of (a0[j], a1[j],
 *    a2[j]) alone, computed on 16-bit lanes for just the units present
 *    (one or two halves of 32). A low-surrogate position is recognised by
 *    its a0 being a continuation byte.
 *  - ASCII windows are widened with vpmovzxbw.
 *
 * Bounds: the main loop reads [p-3, p+66) (the shifted views and the two
 * look-ahead loads) while len - p >= 66 (and p >= 3, or p == 0 with no
 * backward reads). The last bytes go through the same window code from a
 * zeroed stack copy (the 3 bytes before p, the rest of the input); the
 * zeros after the input make a sequence cut by the end fail the check.
 * Output: a window stores its units only if they fit in dst (masked
 * stores of exactly those units), so nothing after *written is touched.
 *
 * Errors: a window that fails the check, or whose units do not fit, is
 * left to the scalar kernel from the window's start (a boundary after
 * valid, fully converted text), which reports the exact status, *pos and
 * *written, so INVALID_UTF8 / DST_TOO_SMALL precedence is its own.
 */
#include <string.h>

#include "scalar/scalar.h"
#include "x86/vec_avx512.h"
#include "x86/x86_kernels.h"

/* Units of up to 32 characters: b0/b1/b2 = a0/a1/a2 widened to 16 bits.
 * `big`: 3-byte characters may be present; `four`: 4-byte ones too. */
DZ_INLINE __m512i dz_u8_units(__m512i b0, __m512i b1, __m512i b2, int big, int four) {
  /* 2 bytes: (b0 & 1F) << 6 | (b1 & 3F); bits 6..7 of b1 fall in the
   * 0x07C0 field taken from b0 << 6 */
  const __m512i v2 =
      _mm512_ternarylogic_epi32(_mm512_slli_epi16(b0, 6), b1, dz_set16(0x07c0), 0xe4);
  __m512i v = _mm512_mask_mov_epi16(b0, _mm512_cmpge_epu16_mask(b0, dz_set16(0xc0)), v2);
  if (big) {
    /* 3 bytes: b0 << 12 (the 16-bit shift drops the 1110 prefix) |
     * (b1 & 3F) << 6 | (b2 & 3F) */
    const __m512i mid =
        _mm512_ternarylogic_epi32(_mm512_slli_epi16(b1, 6), b2, dz_set16(0x0fc0), 0xe4);
    const __m512i v3 = _mm512_or_si512(_mm512_slli_epi16(b0, 12), mid);
    v = _mm512_mask_mov_epi16(v, _mm512_cmpge_epu16_mask(b0, dz_set16(0xe0)), v3);
  }
  if (four) {
    /* lead (b0, b1, b2 = F0..F4, c1, c2): high surrogate
     * D7C0 + ((b0 & 7) << 8 | (b1 & 3F) << 2 | (b2 & 3F) >> 4) */
    const __m512i hi =
        _mm512_add_epi16(_mm512_ternarylogic_epi32(
                             _mm512_and_si512(_mm512_slli_epi16(b0, 8), dz_set16(0x0700)),
                             _mm512_and_si512(_mm512_slli_epi16(b1, 2), dz_set16(0x00fc)),
                             _mm512_and_si512(_mm512_srli_epi16(b2, 4), dz_set16(0x0003)), 0xfe),
                         dz_set16(0xd7c0));
    /* first continuation (b0, b1, b2 = c1, c2, c3): low surrogate
     * DC00 | (b1 & 0F) << 6 | (b2 & 3F) */
    const __m512i lo = _mm512_or_si512(
        _mm512_ternarylogic_epi32(_mm512_slli_epi16(b1, 6), b2, dz_set16(0x03c0), 0xe4),
        dz_set16(0xdc00));
    v = _mm512_mask_mov_epi16(v, _mm512_cmpge_epu16_mask(b0, dz_set16(0xf0)), hi);
    v = _mm512_mask_mov_epi16(v,
                              _mm512_cmplt_epu16_mask(b0, dz_set16(0xc0)) &
                                  _mm512_cmpge_epu16_mask(b0, dz_set16(0x80)),
                              lo);
  }
  return v;
}

DZ_INLINE __m512i dz_widen_lo(__m512i v) { return _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)); }
DZ_INLINE __m512i dz_widen_hi(__m512i v) {
  return _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1));
}

/* One window at s: bytes s[0..n) are input (n <= 64; s[n..66) are more
 * input or zeros), s[-3..0) are the bytes before it (valid text or
 * zeros) unless `first` (then nothing before s is read).
 * `stride` (main loop, n == 64): a window of 1- and 2-byte characters may
 * end with a lead in byte 63 whose unit it emits (byte 64 is read through
 * the look-ahead); *carry = 1 then tells the next window that its byte 0
 * must be that lead's continuation. A window that needs the full check
 * cannot take a carry: it returns 2 and the caller steps over the
 * continuation first.
 * Returns 0 if the window needs the scalar kernel (invalid, or more than
 * `room` units; with *carry set, the carried lead's unit must be taken
 * back); 1 (3 for an ASCII window) when it stored its units at d and set
 * *used (bytes) and *out (units). `full`: store whole 32-unit vectors (the caller guarantees
 * that later units overwrite the excess). */
DZ_INLINE int dz_u8_window(const uint8_t *s, int first, int stride, int full, size_t n,
                           uint64_t *carry, uint16_t *d, size_t room, size_t *used, size_t *out) {
  const __m512i in = dz_load(s);
  const uint64_t hib = dz_hibits(in) & dz_low(n);
  if (hib == 0) {
    if (n > room || (stride && *carry)) return 0;
    if (n == 64) {
      dz_store(d, dz_widen_lo(in));
      dz_store(d + 32, dz_widen_hi(in));
    } else {
      dz_store_n16(d, dz_widen_lo(in), n < 32 ? n : 32);
      if (n > 32) dz_store_n16(d + 32, dz_widen_hi(in), n - 32);
    }
    *used = *out = n;
    return 3;
  }
  const uint64_t cont = (uint64_t)_mm512_cmplt_epi8_mask(in, dz_set8(0xc0)); /* 80..BF */
  const uint64_t e0 = (uint64_t)_mm512_cmpge_epu8_mask(in, dz_set8(0xe0)) & dz_low(n);
  size_t b;
  uint64_t emit, f0 = 0;
  if (e0 == 0) {
    /* 1- and 2-byte characters only: exact on masks. Every continuation
     * directly follows a lead C2..DF (or is byte 0 after a carried lead)
     * and every lead is followed by one (without `stride`, a lead in byte
     * b-1 shifts into bit b, which cont & lim lacks). */
    const uint64_t lead = hib & ~cont;
    const uint64_t c0c1 =
        (uint64_t)_mm512_cmpeq_epi8_mask(_mm512_and_si512(in, dz_set8(0xfe)), dz_set8(0xc0));
    if (stride) {
      if (c0c1 != 0 || cont != ((lead << 1) | *carry)) return 0;
      b = 64;
      emit = ~cont;
    } else {
      b = 64u - (lead >> 63);
      if (b > n) b = n;
      const uint64_t lim = dz_low(b);
      if ((c0c1 & dz_low(n)) != 0 || (cont & lim) != (lead & lim) << 1) return 0;
      emit = ~cont & lim;
    }
    const size_t units = dz_pop64(emit);
    if (units > room) return 0;
    if (stride) *carry = lead >> 63;
    *used = b;
    *out = units;
  } else {
    if (stride && *carry) return 2;
    __m512i p1, p2, p3;
    if (first) {
      const __m512i z = _mm512_setzero_si512();
      p1 = dz_prev(in, z, 1);
      p2 = dz_prev(in, z, 2);
      p3 = dz_prev(in, z, 3);
    } else {
      p1 = dz_load(s - 1);
      p2 = dz_load(s - 2);
      p3 = dz_load(s - 3);
    }
    const __m512i err = dz_u8_check(in, p1, p2, p3);
    if (_mm512_test_epi8_mask(err, err) != 0) return 0;
    /* b: the open lead in bytes 61..63, if any (valid text has at most
     * one: the check rejects two), from three scalar byte loads rather
     * than from the vector: the next window's address depends on it, and
     * this keeps that loop-carried chain short. */
    b = 64u - (size_t)(s[63] >= 0xc0u) - 2u * (size_t)(s[62] >= 0xe0u) -
        3u * (size_t)(s[61] >= 0xf0u);
    if (b > n) b = n;
    const uint64_t lim = dz_low(b);
    f0 = (uint64_t)_mm512_cmpge_epu8_mask(in, dz_set8(0xf0)) & lim;
    emit = (~cont | (f0 << 1)) & lim;
    const size_t units = dz_pop64(emit);
    if (units > room) return 0;
    *used = b;
    *out = units;
  }
  const size_t units = *out;
  const int big = (e0 & dz_low(b)) != 0;
  const int four = f0 != 0;
  const __m512i a0 = _mm512_maskz_compress_epi8((__mmask64)emit, in);
  const __m512i a1 = _mm512_maskz_compress_epi8((__mmask64)emit, dz_load(s + 1));
  const __m512i a2 = big ? _mm512_maskz_compress_epi8((__mmask64)emit, dz_load(s + 2)) : a1;
  const __m512i v0 = dz_u8_units(dz_widen_lo(a0), dz_widen_lo(a1), dz_widen_lo(a2), big, four);
  if (full)
    dz_store(d, v0);
  else
    dz_store_n16(d, v0, units < 32 ? units : 32);
  if (units > 32) {
    const __m512i v1 = dz_u8_units(dz_widen_hi(a0), dz_widen_hi(a1), dz_widen_hi(a2), big, four);
    if (full)
      dz_store(d + 32, v1);
    else
      dz_store_n16(d + 32, v1, units - 32);
  }
  return 1;
}

desert_status desert_avx512_utf8_to_utf16(const uint8_t *src, size_t len, uint16_t *dst,
                                          size_t dst_cap, size_t *written, size_t *pos) {
  size_t p = 0, w = 0, used, out;
  uint64_t carry = 0; /* byte p-1 is a 2-byte lead whose unit is written */
  while (len - p >= 66) {
    /* Far from the end, whole 32-unit stores: the units still to come
     * overwrite what they store past this window's units. */
    const int full = len - p >= 66 + 192 && dst_cap - w >= 64;
    const int r =
        dz_u8_window(src + p, p == 0, 1, full, 64, &carry, dst + w, dst_cap - w, &used, &out);
    if (r == 0) goto take_back;
    if (r == 2) { /* the carried lead's continuation, checked here */
      if ((src[p] & 0xc0u) != 0x80u) goto take_back;
      p++;
      carry = 0;
      continue;
    }
    p += used;
    w += out;
    if (r == 3) { /* after an ASCII window: sprint while ASCII lasts */
      while (len - p >= 66 && dst_cap - w >= 64) {
        const __m512i in = dz_load(src + p);
        if (dz_hibits(in) != 0) break;
        dz_store(dst + w, dz_widen_lo(in));
        dz_store(dst + w + 32, dz_widen_hi(in));
        p += 64;
        w += 64;
      }
    }
  }
  if (carry) {
    if (p == len || (src[p] & 0xc0u) != 0x80u) goto take_back;
    p++;
    carry = 0;
  }
  while (p < len) { /* the last < 66 bytes, from a zeroed copy */
    _Alignas(64) uint8_t buf[192];
    memset(buf, 0, sizeof buf);
    const size_t before = p < 3 ? p : 3;
    memcpy(buf + 64 - before, src + p - before, before);
    memcpy(buf + 64, src + p, len - p);
    if (!dz_u8_window(buf + 64, 0, 0, 0, len - p < 64 ? len - p : 64, &carry, dst + w, dst_cap - w,
                      &used, &out))
      goto scalar;
    p += used;
    w += out;
  }
  *written = w;
  *pos = len;
  return DESERT_OK;
take_back: /* before the carried lead, whose unit is written */
  if (carry) {
    p--;
    w--;
  }
scalar:;
  size_t wr, ps;
  const desert_status st =
      desert_scalar_utf8_to_utf16(src + p, len - p, dst + w, dst_cap - w, &wr, &ps);
  *written = w + wr;
  *pos = p + ps;
  return st;
}
