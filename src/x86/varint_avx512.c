/* src/x86/varint_avx512.c — AVX-512 (VBMI/VBMI2) var_u32 / var_i32 (zig-zag)
 * run decoders and encoders (docs/format.md §3, strict rule of kernels.h).
 * SPDX-License-Identifier: MIT
 *
 * Decoding — the idea of MaskedVByte (Plaisance, Kurz & Lemire, "Vectorized
 * VByte Decoding", 2015: continuation bits as a mask, then a byte shuffle
 * that gathers each value's bytes) with 64-byte windows and no table:
 *  - a window is entered at a value boundary p; its 64 continuation bits
 *    are one k-mask c. c == 0: 64 one-byte values (vpmovzxbd, no shuffle);
 *  - otherwise the values that END in the window are decoded: their start
 *    offsets (p, and every byte after a terminator) are packed to the front
 *    of a register with vpcompressb (VBMI2); for 16 values at a time a
 *    vpermb (VBMI) spreads start k to the four bytes of dword k, adding
 *    0,1,2,3 gives byte indexes, and a second vpermb gathers bytes
 *    start..start+3 of every value into its dword. Bytes after the value's
 *    terminator are cleared (t ^ (t - 1) over the terminator flags keeps
 *    everything up to the first one), the 7-bit groups are joined with
 *    vpmaddubsw/vpmaddwd, and when the window holds a value of 5 bytes a
 *    third vpermb fetches byte start+4, whose low 4 bits become bits 28-31
 *    (its bits 4-6 fall off: docs/format.md §3.2) for the lanes without a
 *    terminator in their first four bytes. Four groups of 16 are computed
 *    every time (no branch on the count), count = popcount of the
 *    terminators, and the window advances to the byte after the last
 *    terminator (the unfinished value starts the next window);
 *  - a window with five continuation bits in a row holds a value longer
 *    than 5 bytes: an error. The AVX2 kernel then finishes the run from p
 *    and reports it with the scalar kernel's status and offset.
 * Overlong forms decode like any other value.
 *
 * Decode bounds: a window reads [p, p+64) and writes dst[i, i+64) only while
 * >= 64 bytes and >= 64 values remain (a window ends at most 64 values;
 * lanes past the count hold junk that later windows or the tail overwrite,
 * all inside dst[0, n)). The rest of the run — fewer than 64 bytes or values
 * left, the input ending inside a value, any error — goes to the AVX2
 * kernel from a value boundary, so status and *consumed are its (= the
 * scalar kernel's) offset by that boundary.
 *
 * Encoding, 16 values at a time: with every value < 2^28, vpmultishiftqb
 * puts bits 7j..7j+7 of each dword's value in its byte j (the dword pairs of
 * a qword use offsets 0,7,14,21 and 32,39,46,53), the top bits are cleared;
 * a byte is kept when it or a higher byte of its value is non-zero (byte 0
 * always), a kept byte followed by a kept byte gets the continuation bit,
 * and vpcompressb packs the kept bytes. With a value >= 2^28 the same is
 * done on 8 qwords (offsets 0,7,...,49) twice. 64 values below 2^7 are
 * packed with vpackusdw/vpackuswb, 16 such values narrowed with vpmovdb.
 * Encode bounds: the packed bytes of 16 values are stored with one 64-byte
 * store while >= 80 values remain (then at least 64 encoded bytes remain
 * from the current position, and from the second store of a 5-byte group), else with a byte-masked store of exactly
 * their length (the mask suppresses faults of the other bytes). The last
 * < 16 values go to the scalar kernel. Nothing past the exact encoded size
 * is written.
 */
#include <immintrin.h>

#include "scalar/scalar.h"
#include "x86/x86_kernels.h"

#define DV_INLINE static inline __attribute__((always_inline))

DV_INLINE __m512i dv_set32(uint32_t w) { return _mm512_set1_epi32((int)w); }

/* Zig-zag decode of 16 lanes: (u >> 1) ^ -(u & 1). */
DV_INLINE __m512i dv_unzz(__m512i u, int zz) {
  if (!zz) return u;
  const __mmask16 odd = _mm512_test_epi32_mask(u, dv_set32(1));
  const __m512i h = _mm512_srli_epi32(u, 1);
  return _mm512_mask_xor_epi32(h, odd, h, dv_set32(0xffffffffu));
}

/* Byte j of lane k (k = 0..15) = 16 * g + k: vpermb selectors that give
 * each dword of group g the start offset of value 16 g + k. */
DV_INLINE __m512i dv_sel(unsigned g) {
  return _mm512_add_epi8(
      _mm512_set_epi32(0x0f0f0f0f, 0x0e0e0e0e, 0x0d0d0d0d, 0x0c0c0c0c, 0x0b0b0b0b, 0x0a0a0a0a,
                       0x09090909, 0x08080808, 0x07070707, 0x06060606, 0x05050505, 0x04040404,
                       0x03030303, 0x02020202, 0x01010101, 0x00000000),
      _mm512_set1_epi8((char)(16 * g)));
}

/* The 16 values 16 g .. 16 g + 15 of window w whose start offsets are the
 * bytes of starts (see the file comment). */
DV_INLINE __m512i dv_group(__m512i w, __m512i starts, unsigned g, int has5) {
  const __m512i idx =
      _mm512_add_epi8(_mm512_permutexvar_epi8(dv_sel(g), starts), dv_set32(0x03020100u));
  const __m512i x = _mm512_permutexvar_epi8(idx, w);
  const __m512i tm = _mm512_andnot_si512(x, dv_set32(0x80808080u)); /* terminator flags */
  const __m512i keep = _mm512_xor_si512(tm, _mm512_sub_epi32(tm, dv_set32(1)));
  /* x & keep & 0x7f7f7f7f */
  const __m512i g7 = _mm512_ternarylogic_epi32(x, keep, dv_set32(0x7f7f7f7fu), 0x80);
  __m512i v = _mm512_madd_epi16(_mm512_maddubs_epi16(_mm512_set1_epi16((short)0x8001), g7),
                                dv_set32(0x40000001u));
  if (has5) {
    const __mmask16 five = _mm512_testn_epi32_mask(tm, tm);
    const __m512i x5 =
        _mm512_permutexvar_epi8(_mm512_add_epi8(idx, _mm512_set1_epi8(4)), w);
    v = _mm512_mask_or_epi32(v, five, v, _mm512_slli_epi32(x5, 28));
  }
  return v;
}

DV_INLINE desert_status dv_var_decode(const uint8_t *src, size_t len, uint32_t *dst, size_t n,
                                      size_t *consumed, int zz) {
  size_t p = 0, i = 0;
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
      17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  while (len - p >= 64 && n - i >= 64) {
    const __m512i w = _mm512_loadu_si512((const void *)(src + p));
    const uint64_t c = (uint64_t)_mm512_movepi8_mask(w);
    if (c == 0) {
      _mm512_storeu_si512((void *)(dst + i),
                          dv_unzz(_mm512_cvtepu8_epi32(_mm512_castsi512_si128(w)), zz));
      _mm512_storeu_si512((void *)(dst + i + 16),
                          dv_unzz(_mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(w, 1)), zz));
      _mm512_storeu_si512((void *)(dst + i + 32),
                          dv_unzz(_mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(w, 2)), zz));
      _mm512_storeu_si512((void *)(dst + i + 48),
                          dv_unzz(_mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(w, 3)), zz));
      p += 64;
      i += 64;
      continue;
    }
    const uint64_t c4 = c & (c >> 1) & (c >> 2) & (c >> 3); /* a 5-byte value starts here */
    if (c4 & (c >> 4)) break; /* longer than 5 bytes: an error, found by the tail */
    const uint64_t t = ~c;    /* terminators; not 0, or c would have a run of 5 */
    const __m512i starts = _mm512_maskz_compress_epi8((__mmask64)((t << 1) | 1u), iota);
    const int has5 = c4 != 0;
    _mm512_storeu_si512((void *)(dst + i), dv_unzz(dv_group(w, starts, 0, has5), zz));
    _mm512_storeu_si512((void *)(dst + i + 16), dv_unzz(dv_group(w, starts, 1, has5), zz));
    _mm512_storeu_si512((void *)(dst + i + 32), dv_unzz(dv_group(w, starts, 2, has5), zz));
    _mm512_storeu_si512((void *)(dst + i + 48), dv_unzz(dv_group(w, starts, 3, has5), zz));
    i += (size_t)__builtin_popcountll(t);
    p += 64u - (size_t)__builtin_clzll(t);
  }
  size_t used;
  const desert_status st =
      zz ? desert_avx2_var_i32_decode(src + p, len - p, (int32_t *)(void *)(dst + i), n - i, &used)
         : desert_avx2_var_u32_decode(src + p, len - p, dst + i, n - i, &used);
  *consumed = p + used;
  return st;
}

desert_status desert_avx512_var_u32_decode(const uint8_t *src, size_t src_len, uint32_t *dst,
                                           size_t n, size_t *consumed) {
  return dv_var_decode(src, src_len, dst, n, consumed, 0);
}

desert_status desert_avx512_var_i32_decode(const uint8_t *src, size_t src_len, int32_t *dst,
                                           size_t n, size_t *consumed) {
  return dv_var_decode(src, src_len, (uint32_t *)(void *)dst, n, consumed, 1);
}

/* ---- encoding ------------------------------------------------------------ */

/* Bit k of the result: byte k is kept (byte 0 of each lane of `lane`
 * bytes, or a byte at or below the lane's highest non-zero byte). */
DV_INLINE uint64_t dv_keep4(uint64_t nz) {
  uint64_t s = nz | ((nz >> 1) & 0x7777777777777777u);
  s |= (s >> 2) & 0x3333333333333333u;
  return s | 0x1111111111111111u;
}
DV_INLINE uint64_t dv_keep8(uint64_t nz) {
  uint64_t s = nz | ((nz >> 1) & 0x7f7f7f7f7f7f7f7fu);
  s |= (s >> 2) & 0x3f3f3f3f3f3f3f3fu;
  s |= (s >> 4) & 0x0f0f0f0f0f0f0f0fu;
  return s | 0x0101010101010101u;
}

/* Stores the first `len` bytes of v at d: one 64-byte store when `room`
 * (64 bytes are known to belong to the output), else a masked store. */
DV_INLINE void dv_store_bytes(uint8_t *d, __m512i v, size_t len, int room) {
  if (room)
    _mm512_storeu_si512((void *)d, v);
  else
    _mm512_mask_storeu_epi8((void *)d, (__mmask64)_bzhi_u64(~0ull, (unsigned)len), v);
}

/* Spread groups (multishift), continuation bits from the kept mask, pack. */
DV_INLINE size_t dv_pack(uint8_t *d, __m512i x, __m512i shifts, uint64_t (*keepf)(uint64_t),
                         uint64_t lane_top, int room) {
  const __m512i sp = _mm512_multishift_epi64_epi8(shifts, x);
  const __m512i m7 = _mm512_set1_epi8(0x7f);
  const uint64_t keep = keepf((uint64_t)_mm512_test_epi8_mask(sp, m7));
  /* a kept byte whose next byte in the lane is kept continues */
  const uint64_t cont = (keep >> 1) & ~lane_top;
  const __m512i v = _mm512_mask_blend_epi8((__mmask64)cont, _mm512_and_si512(sp, m7),
                                           _mm512_or_si512(sp, _mm512_set1_epi8((char)0x80)));
  const __m512i packed = _mm512_maskz_compress_epi8((__mmask64)keep, v);
  const size_t len = (size_t)__builtin_popcountll(keep);
  dv_store_bytes(d, packed, len, room);
  return len;
}

DV_INLINE __m512i dv_load_zz(const uint32_t *s, int zz) {
  const __m512i x = _mm512_loadu_si512((const void *)s);
  if (!zz) return x;
  return _mm512_xor_si512(_mm512_slli_epi32(x, 1), _mm512_srai_epi32(x, 31));
}

DV_INLINE size_t dv_var_encode(uint8_t *dst, const uint32_t *src, size_t n, int zz) {
  size_t i = 0, w = 0;
  /* dword pairs of a qword: bits 7j of the low value, 32 + 7j of the high */
  const __m512i sh4 = _mm512_set1_epi64(0x352e2720150e0700);
  const __m512i sh8 = _mm512_set1_epi64(0x312a231c150e0700); /* 0,7,...,49 */
  while (n - i >= 16) {
    __m512i x = dv_load_zz(src + i, zz);
    if (n - i >= 64) { /* 64 values below 2^7: two packs, one store */
      const __m512i b = dv_load_zz(src + i + 16, zz), c = dv_load_zz(src + i + 32, zz);
      const __m512i d = dv_load_zz(src + i + 48, zz);
      const __m512i o = _mm512_ternarylogic_epi32(x, b, _mm512_or_si512(c, d), 0xfe);
      if (!_mm512_test_epi32_mask(o, dv_set32(0xffffff80u))) {
        /* packs work per 128-bit lane: lane q holds dwords 4q..4q+3 of
         * x, b, c, d in turn; vpermd puts them back in order */
        const __m512i bytes =
            _mm512_packus_epi16(_mm512_packus_epi32(x, b), _mm512_packus_epi32(c, d));
        _mm512_storeu_si512(
            (void *)(dst + w),
            _mm512_permutexvar_epi32(
                _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), bytes));
        w += 64;
        i += 64;
        continue;
      }
    }
    /* >= 80 values left: >= 64 output bytes from either store of the
     * 5-byte path, whose first half takes at most 40 bytes */
    const int room = n - i >= 80;
    if (!_mm512_test_epi32_mask(x, dv_set32(0xffffff80u))) {
      _mm_storeu_si128((__m128i *)(void *)(dst + w), _mm512_cvtepi32_epi8(x));
      w += 16;
    } else if (!_mm512_test_epi32_mask(x, dv_set32(0xf0000000u))) {
      w += dv_pack(dst + w, x, sh4, dv_keep4, 0x8888888888888888u, room);
    } else {
      w += dv_pack(dst + w, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(x)), sh8, dv_keep8,
                   0x8080808080808080u, room);
      w += dv_pack(dst + w, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(x, 1)), sh8,
                   dv_keep8, 0x8080808080808080u, room);
    }
    i += 16;
  }
  if (zz)
    return w +
           desert_scalar_var_i32_encode(dst + w, (const int32_t *)(const void *)(src + i), n - i);
  return w + desert_scalar_var_u32_encode(dst + w, src + i, n - i);
}

size_t desert_avx512_var_u32_encode(uint8_t *dst, const uint32_t *src, size_t n) {
  return dv_var_encode(dst, src, n, 0);
}

size_t desert_avx512_var_i32_encode(uint8_t *dst, const int32_t *src, size_t n) {
  return dv_var_encode(dst, (const uint32_t *)(const void *)src, n, 1);
}
