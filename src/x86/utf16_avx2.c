/* src/x86/utf16_avx2.c — AVX2 UTF-8 length of UTF-16 text and UTF-16 ->
 * UTF-8 conversion (host-order units).
 * SPDX-License-Identifier: MIT
 *
 * Length: 16 units per step; each unit counts 3 - [< 0x800] - [< 0x80] -
 * [surrogate] bytes (a valid pair is 2 + 2), from vpmovmskb masks (two bits
 * per unit) and popcnt; ASCII runs count 16 per step.
 *
 * Conversion (after Lemire & Keiser, "Transcoding Billions of Unicode
 * Characters per Second with SIMD Instructions", Software: Practice and
 * Experience, 2022): 16 units per step. All < 0x80: vpackuswb. All < 0x800:
 * each unit becomes a 16-bit lane [lead, continuation] or [ascii, -],
 * packed per 8 units with a 256-entry pshufb table (desert_x86_utf8_pack12).
 * Otherwise each unit becomes a 32-bit lane of 1..3 bytes, packed per 4
 * units with desert_x86_pack_dw (indexed by the lengths); a surrogate pair
 * gives 2 + 2 of its 4 bytes (the low unit reads the high one through a
 * prev-unit view).
 *
 * Surrogates (both kernels): the low-surrogate mask of a step must equal
 * the high-surrogate mask shifted up by one unit, with the step's last
 * high surrogate carried into the next step.
 *
 * Bounds: both loops read [p, p+16) units while >= 16 (length) / >= 32
 * (conversion) units remain; the rest goes to the scalar kernel.
 * Conversion writes 16-byte stores, the last one at the output position of
 * unit p+12 at the latest; every unit gives >= 1 byte, so with >= 32 units
 * left every store ends inside the final output of valid input, and the
 * loop also requires 64 free bytes in dst (16 units give at most 48 bytes
 * + the over-store).
 *
 * Errors: a step whose surrogates do not pair is handed to the scalar
 * kernel from the unit boundary before it (stepping back one unit over an
 * open high surrogate and taking back the bytes written for it), which
 * reports the exact status and offsets.
 */
#include "scalar/scalar.h"
#include "x86/vec_avx2.h"
#include "x86/x86_kernels.h"

DX_INLINE uint32_t dx_eq16(__m256i u, unsigned and_mask, unsigned value) {
  return dx_mask(_mm256_cmpeq_epi16(_mm256_and_si256(u, dx_set16(and_mask)), dx_set16(value)));
}

desert_status desert_avx2_utf8_len_from_utf16(const uint16_t *src, size_t len, size_t *out_len) {
  size_t p = 0, bytes = 0;
  uint32_t carry = 0; /* 3: the unit at p-1 is a high surrogate */
  while (len - p >= 16) {
    __m256i u = dx_load(src + p);
    const uint32_t surr = dx_eq16(u, 0xf800u, 0xd800u);
    if (surr) {
      const uint32_t hi = dx_eq16(u, 0xfc00u, 0xd800u);
      if (((hi << 2) | carry) != (surr & ~hi)) break;
      carry = hi >> 30;
    } else if (carry) {
      break;
    } else if (_mm256_testz_si256(u, dx_set16(0xff80))) {
      do { /* ASCII run: one byte per unit */
        bytes += 16;
        p += 16;
        if (len - p < 16) break;
        u = dx_load(src + p);
      } while (_mm256_testz_si256(u, dx_set16(0xff80)));
      continue;
    }
    const uint32_t lt80 = dx_eq16(u, 0xff80u, 0), lt800 = dx_eq16(u, 0xf800u, 0);
    bytes += 48u - (dx_pop(lt80) + dx_pop(lt800) + dx_pop(surr)) / 2u;
    p += 16;
  }
  const size_t q = carry ? p - 1 : p;
  if (carry) bytes -= 2;
  size_t r;
  const desert_status st = desert_scalar_utf8_len_from_utf16(src + q, len - q, &r);
  *out_len = st == DESERT_OK ? bytes + r : q + r;
  return st;
}

/* Eight units (all < 0x800) per 128-bit half of u -> 8..16 bytes each. */
DX_INLINE size_t dx_u16_to_u8_12(__m256i u, uint8_t *d) {
  const __m256i two = _mm256_or_si256(
      _mm256_or_si256(_mm256_srli_epi16(u, 6), dx_set16(0xc0)),
      _mm256_slli_epi16(_mm256_or_si256(_mm256_and_si256(u, dx_set16(0x3f)), dx_set16(0x80)), 8));
  const __m256i asc =
      _mm256_cmpeq_epi16(_mm256_and_si256(u, dx_set16(0xff80)), _mm256_setzero_si256());
  const __m256i v = _mm256_blendv_epi8(two, u, asc);
  const uint32_t one =
      dx_mask128(_mm_packs_epi16(_mm256_castsi256_si128(asc), _mm256_extracti128_si256(asc, 1)));
  const uint32_t m0 = one & 0xffu, m1 = one >> 8;
  const __m256i s = _mm256_shuffle_epi8(
      v, dx_pair(dx_load128(desert_x86_utf8_pack12[m0]), dx_load128(desert_x86_utf8_pack12[m1])));
  const size_t l0 = 16u - dx_pop(m0);
  dx_store128(d, _mm256_castsi256_si128(s));
  dx_store128(d + l0, _mm256_extracti128_si256(s, 1));
  return l0 + 16u - dx_pop(m1);
}

/* Eight units (no surrogates) in 32-bit lanes -> 8..24 bytes. */
DX_INLINE size_t dx_u16_to_u8_123(__m256i u, uint8_t *d) {
  const __m256i c3f = dx_set32(0x3f), c80 = dx_set32(0x80);
  const __m256i low = _mm256_slli_epi32(_mm256_or_si256(_mm256_and_si256(u, c3f), c80), 8);
  const __m256i two =
      _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(u, 6), dx_set32(0xc0)), low);
  const __m256i mid = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(u, 6), c3f), c80);
  const __m256i three =
      _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(u, 12), dx_set32(0xe0)),
                      _mm256_or_si256(_mm256_slli_epi32(mid, 8), _mm256_slli_epi32(low, 8)));
  const __m256i lt80 = _mm256_cmpgt_epi32(c80, u);
  const __m256i lt800 = _mm256_cmpgt_epi32(dx_set32(0x800), u);
  __m256i v = _mm256_blendv_epi8(three, two, lt800);
  v = _mm256_blendv_epi8(v, u, lt80);
  const uint32_t a = ~(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(lt80)) & 0xffu;
  const uint32_t b = ~(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(lt800)) & 0xffu;
  /* length - 1 = a + b (b implies a): bit0 = a ^ b, bit1 = b */
  const uint32_t b0 = a ^ b;
  const uint32_t k0 = (b0 & 0xfu) | ((b & 0xfu) << 4), k1 = (b0 >> 4) | (b & 0xf0u);
  const __m256i s = _mm256_shuffle_epi8(
      v, dx_pair(dx_load128(desert_x86_pack_dw[k0]), dx_load128(desert_x86_pack_dw[k1])));
  const size_t l0 = desert_x86_pack_dw_len[k0];
  dx_store128(d, _mm256_castsi256_si128(s));
  dx_store128(d + l0, _mm256_extracti128_si256(s, 1));
  return l0 + desert_x86_pack_dw_len[k1];
}

/* Eight units with valid surrogate pairs (prev8: the 8 units before) in
 * 32-bit lanes -> bytes. A pair's 4 bytes are split 2 + 2: the high
 * surrogate gives F0|cp>>18, 80|(cp>>12)&3F and the low one
 * 80|(cp>>6)&3F, 80|cp&3F, where cp >> 10 = (high & 0x3FF) + 0x40 and the
 * low two bits of that come from the previous unit. */
DX_INLINE size_t dx_u16_to_u8_1234(__m128i cur8, __m128i prev8, uint8_t *d) {
  const __m256i u = _mm256_cvtepu16_epi32(cur8);
  const __m256i hp = _mm256_cvtepu16_epi32(_mm_alignr_epi8(cur8, prev8, 14));
  const __m256i c3f = dx_set32(0x3f), c80 = dx_set32(0x80);
  const __m256i low = _mm256_slli_epi32(_mm256_or_si256(_mm256_and_si256(u, c3f), c80), 8);
  const __m256i two =
      _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(u, 6), dx_set32(0xc0)), low);
  const __m256i mid = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(u, 6), c3f), c80);
  const __m256i three =
      _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(u, 12), dx_set32(0xe0)),
                      _mm256_or_si256(_mm256_slli_epi32(mid, 8), _mm256_slli_epi32(low, 8)));
  const __m256i uu = _mm256_add_epi32(_mm256_and_si256(u, dx_set32(0x3ff)), dx_set32(0x40));
  const __m256i hs = _mm256_or_si256(
      _mm256_or_si256(_mm256_srli_epi32(uu, 8), dx_set32(0xf0)),
      _mm256_slli_epi32(_mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(uu, 2), c3f), c80), 8));
  const __m256i ls =
      _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(hp, dx_set32(3)), 4),
                                      _mm256_and_si256(_mm256_srli_epi32(u, 6), dx_set32(0x0f))),
                      _mm256_or_si256(c80, low));
  const __m256i lt80 = _mm256_cmpgt_epi32(c80, u);
  const __m256i lt800 = _mm256_cmpgt_epi32(dx_set32(0x800), u);
  const __m256i top = _mm256_and_si256(u, dx_set32(0xfc00));
  const __m256i is_h = _mm256_cmpeq_epi32(top, dx_set32(0xd800));
  const __m256i is_l = _mm256_cmpeq_epi32(top, dx_set32(0xdc00));
  __m256i v = _mm256_blendv_epi8(three, two, lt800);
  v = _mm256_blendv_epi8(v, u, lt80);
  v = _mm256_blendv_epi8(v, hs, is_h);
  v = _mm256_blendv_epi8(v, ls, is_l);
  /* length - 1 = a + b: a = two bytes or more, b = three bytes */
  const uint32_t a = ~(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(lt80)) & 0xffu;
  const uint32_t b = ~(uint32_t)_mm256_movemask_ps(
                         _mm256_castsi256_ps(_mm256_or_si256(lt800, _mm256_or_si256(is_h, is_l)))) &
                     0xffu;
  const uint32_t b0 = a ^ b;
  const uint32_t k0 = (b0 & 0xfu) | ((b & 0xfu) << 4), k1 = (b0 >> 4) | (b & 0xf0u);
  const __m256i s = _mm256_shuffle_epi8(
      v, dx_pair(dx_load128(desert_x86_pack_dw[k0]), dx_load128(desert_x86_pack_dw[k1])));
  const size_t l0 = desert_x86_pack_dw_len[k0];
  dx_store128(d, _mm256_castsi256_si128(s));
  dx_store128(d + l0, _mm256_extracti128_si256(s, 1));
  return l0 + desert_x86_pack_dw_len[k1];
}

desert_status desert_avx2_utf16_to_utf8(const uint16_t *src, size_t len, uint8_t *dst,
                                        size_t dst_cap, size_t *written, size_t *pos) {
  size_t p = 0, w = 0;
  uint32_t carry = 0;                  /* 3: the unit at p-1 is a high surrogate */
  __m128i prev8 = _mm_setzero_si128(); /* the 8 units before p (after a surrogate step) */
  while (len - p >= 32 && dst_cap - w >= 64) {
    __m256i u = dx_load(src + p);
    const uint32_t surr = dx_eq16(u, 0xf800u, 0xd800u);
    if (surr == 0) {
      if (carry) break; /* unpaired high surrogate at p-1 */
      if (_mm256_testz_si256(u, dx_set16(0xff80))) {
        do { /* ASCII run: narrow 16 units to 16 bytes */
          dx_store128(dst + w,
                      _mm_packus_epi16(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1)));
          w += 16;
          p += 16;
          if (len - p < 32 || dst_cap - w < 64) break;
          u = dx_load(src + p);
        } while (_mm256_testz_si256(u, dx_set16(0xff80)));
        continue;
      }
      if (_mm256_testz_si256(u, dx_set16(0xf800))) {
        w += dx_u16_to_u8_12(u, dst + w);
      } else {
        w += dx_u16_to_u8_123(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(u)), dst + w);
        w += dx_u16_to_u8_123(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(u, 1)), dst + w);
      }
    } else {
      /* every low surrogate follows a high one and vice versa */
      const uint32_t hi = dx_eq16(u, 0xfc00u, 0xd800u);
      if (((hi << 2) | carry) != (surr & ~hi)) break;
      carry = hi >> 30;
      const __m128i lo8 = _mm256_castsi256_si128(u), hi8 = _mm256_extracti128_si256(u, 1);
      w += dx_u16_to_u8_1234(lo8, prev8, dst + w);
      w += dx_u16_to_u8_1234(hi8, lo8, dst + w);
      prev8 = hi8;
    }
    p += 16;
  }
  /* Error, or the end: the scalar kernel finishes from the last unit
   * boundary (before an open high surrogate, whose 2 bytes are taken back). */
  const size_t q = carry ? p - 1 : p;
  if (carry) w -= 2;
  size_t wr, ps;
  const desert_status st =
      desert_scalar_utf16_to_utf8(src + q, len - q, dst + w, dst_cap - w, &wr, &ps);
  *written = w + wr;
  *pos = q + ps;
  return st;
}
