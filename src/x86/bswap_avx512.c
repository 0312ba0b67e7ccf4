/* src/x86/bswap_avx512.c — AVX-512 (BW) byte swap of 16/32/64-bit lanes.
 * SPDX-License-Identifier: MIT
 *
 * Algorithm: as bswap_avx2.c with 64-byte registers: one vpshufb (zmm) per
 * 64 bytes with a constant per-128-bit-lane control, four registers per
 * iteration (256 bytes). What is left (< 256 bytes) goes to the AVX2
 * kernel, which finishes with the scalar one.
 *
 * Bounds: the loop runs while >= 256 bytes remain and touches exactly
 * [i, i+256) of src and dst; in place is safe (each iteration loads its
 * whole range before storing to it).
 *
 * NOT RUN ON HARDWARE: the machine this was written on has no AVX-512; it
 * was tested only through SIMDe's portable emulation of the intrinsics.
 */
#include <immintrin.h>

#include "x86/x86_kernels.h"

static inline void dx512_bswap(uint8_t *d, const uint8_t *s, size_t bytes, __m512i ctl) {
  for (size_t i = 0; bytes - i >= 256; i += 256) {
    const __m512i a = _mm512_loadu_si512((const void *)(s + i));
    const __m512i b = _mm512_loadu_si512((const void *)(s + i + 64));
    const __m512i c = _mm512_loadu_si512((const void *)(s + i + 128));
    const __m512i e = _mm512_loadu_si512((const void *)(s + i + 192));
    _mm512_storeu_si512((void *)(d + i), _mm512_shuffle_epi8(a, ctl));
    _mm512_storeu_si512((void *)(d + i + 64), _mm512_shuffle_epi8(b, ctl));
    _mm512_storeu_si512((void *)(d + i + 128), _mm512_shuffle_epi8(c, ctl));
    _mm512_storeu_si512((void *)(d + i + 192), _mm512_shuffle_epi8(e, ctl));
  }
}

void desert_avx512_bswap16(void *dst, const void *src, size_t n) {
  const size_t lanes = n & ~(size_t)127; /* whole 256-byte iterations */
  dx512_bswap(
      (uint8_t *)dst, (const uint8_t *)src, lanes * 2,
      _mm512_broadcast_i32x4(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)));
  desert_avx2_bswap16((uint8_t *)dst + lanes * 2, (const uint8_t *)src + lanes * 2, n - lanes);
}

void desert_avx512_bswap32(void *dst, const void *src, size_t n) {
  const size_t lanes = n & ~(size_t)63;
  dx512_bswap(
      (uint8_t *)dst, (const uint8_t *)src, lanes * 4,
      _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12)));
  desert_avx2_bswap32((uint8_t *)dst + lanes * 4, (const uint8_t *)src + lanes * 4, n - lanes);
}

void desert_avx512_bswap64(void *dst, const void *src, size_t n) {
  const size_t lanes = n & ~(size_t)31;
  dx512_bswap(
      (uint8_t *)dst, (const uint8_t *)src, lanes * 8,
      _mm512_broadcast_i32x4(_mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8)));
  desert_avx2_bswap64((uint8_t *)dst + lanes * 8, (const uint8_t *)src + lanes * 8, n - lanes);
}
