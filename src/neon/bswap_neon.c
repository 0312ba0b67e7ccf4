/* src/neon/bswap_neon.c — NEON byte swap of 16/32/64-bit lanes.
 * Algorithm: one 16-byte unaligned load, vrev16q_u8 / vrev32q_u8 /
 * vrev64q_u8, one store (the classic NEON byte-reversal idiom, as in
 * simdutf's arm64 UTF-16 endianness swap).
 * Bounds: the loop runs while a whole 16-byte block remains in both src and
 * dst (n lanes of w bytes = n*w bytes each); the remaining < 16 bytes go to
 * desert_scalar_bswap*. Each block is loaded before it is stored, so dst ==
 * src (in place) works.
 * SPDX-License-Identifier: MIT */
#include "neon/neon_compat.h"
#include "neon/neon_kernels.h"
#include "scalar/scalar.h"

void desert_neon_bswap16(void *dst, const void *src, size_t n) {
  const uint8_t *s = (const uint8_t *)src;
  uint8_t *d = (uint8_t *)dst;
  size_t i = 0; /* lanes done */
  for (; n - i >= 8; i += 8) {
    vst1q_u8(d + 2 * i, vrev16q_u8(vld1q_u8(s + 2 * i)));
  }
  if (i < n) desert_scalar_bswap16(d + 2 * i, s + 2 * i, n - i);
}

void desert_neon_bswap32(void *dst, const void *src, size_t n) {
  const uint8_t *s = (const uint8_t *)src;
  uint8_t *d = (uint8_t *)dst;
  size_t i = 0;
  for (; n - i >= 4; i += 4) {
    vst1q_u8(d + 4 * i, vrev32q_u8(vld1q_u8(s + 4 * i)));
  }
  if (i < n) desert_scalar_bswap32(d + 4 * i, s + 4 * i, n - i);
}

void desert_neon_bswap64(void *dst, const void *src, size_t n) {
  const uint8_t *s = (const uint8_t *)src;
  uint8_t *d = (uint8_t *)dst;
  size_t i = 0;
  for (; n - i >= 2; i += 2) {
    vst1q_u8(d + 8 * i, vrev64q_u8(vld1q_u8(s + 8 * i)));
  }
  if (i < n) desert_scalar_bswap64(d + 8 * i, s + 8 * i, n - i);
}
