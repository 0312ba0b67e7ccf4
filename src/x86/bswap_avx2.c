/* src/x86/bswap_avx2.c — AVX2 byte swap of 16/32/64-bit lanes (big-endian
 * arrays on a little-endian host).
 * SPDX-License-Identifier: MIT
 *
 * Algorithm: one vpshufb per 32 bytes with a constant control that reverses
 * the bytes of each lane, four registers per iteration (128 bytes) so the
 * loads, shuffles and stores of independent registers overlap; then single
 * registers; then the scalar kernel for the last < 32 bytes.
 *
 * Bounds: the 4x loop runs while >= 128 bytes remain and touches exactly
 * [i, i+128) of src and dst; the 1x loop while >= 32 bytes remain, touching
 * [i, i+32); the tail (< 32 bytes, i.e. < 16/8/4 lanes) goes to
 * desert_scalar_bswap*. In place (dst == src) is safe: every iteration
 * loads its whole range before storing to it and no range is visited twice.
 */
#include "scalar/scalar.h"
#include "x86/vec_avx2.h"
#include "x86/x86_kernels.h"

DX_INLINE void dx_bswap(uint8_t *d, const uint8_t *s, size_t bytes, __m256i ctl) {
  size_t i = 0;
  for (; bytes - i >= 128; i += 128) {
    const __m256i a = dx_load(s + i), b = dx_load(s + i + 32);
    const __m256i c = dx_load(s + i + 64), e = dx_load(s + i + 96);
    dx_store(d + i, _mm256_shuffle_epi8(a, ctl));
    dx_store(d + i + 32, _mm256_shuffle_epi8(b, ctl));
    dx_store(d + i + 64, _mm256_shuffle_epi8(c, ctl));
    dx_store(d + i + 96, _mm256_shuffle_epi8(e, ctl));
  }
  for (; bytes - i >= 32; i += 32) dx_store(d + i, _mm256_shuffle_epi8(dx_load(s + i), ctl));
}

void desert_avx2_bswap16(void *dst, const void *src, size_t n) {
  const __m256i ctl = DX_TABLE16(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
  const size_t lanes = n & ~(size_t)15; /* whole 32-byte registers */
  dx_bswap((uint8_t *)dst, (const uint8_t *)src, lanes * 2, ctl);
  desert_scalar_bswap16((uint8_t *)dst + lanes * 2, (const uint8_t *)src + lanes * 2, n - lanes);
}

void desert_avx2_bswap32(void *dst, const void *src, size_t n) {
  const __m256i ctl = DX_TABLE16(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  const size_t lanes = n & ~(size_t)7; /* whole 32-byte registers */
  dx_bswap((uint8_t *)dst, (const uint8_t *)src, lanes * 4, ctl);
  desert_scalar_bswap32((uint8_t *)dst + lanes * 4, (const uint8_t *)src + lanes * 4, n - lanes);
}

void desert_avx2_bswap64(void *dst, const void *src, size_t n) {
  const __m256i ctl = DX_TABLE16(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  const size_t lanes = n & ~(size_t)3; /* whole 32-byte registers */
  dx_bswap((uint8_t *)dst, (const uint8_t *)src, lanes * 8, ctl);
  desert_scalar_bswap64((uint8_t *)dst + lanes * 8, (const uint8_t *)src + lanes * 8, n - lanes);
}
