/* src/scalar/bswap_scalar.c — scalar byte-swap kernels for 16/32/64-bit lanes.
 * SPDX-License-Identifier: MIT
 *
 * Algorithm: plain lane-wise byte reversal. The 16- and 32-bit kernels work
 * on one 64-bit word (four or two lanes) per step, reversing all eight bytes
 * with one bswap and then putting the lanes back in their original order
 * (a rotate for 32-bit lanes, a mask-and-shift for 16-bit lanes), so the
 * loop does one load and one store per 8 bytes. Tails use single lanes.
 *
 * Bounds: every access is a memcpy of exactly 8 (or 2/4/8 for the tail)
 * bytes at an offset below n * width, so nothing outside
 * [src, src + n*width) is read and nothing outside [dst, dst + n*width) is
 * written. Each word is fully loaded before it is stored, which makes the
 * in-place case (dst == src) safe. memcpy keeps the access unaligned-safe
 * and free of strict-aliasing problems; compilers turn it into one mov.
 */
#include <string.h>

#include "scalar/scalar.h"

#if defined(__GNUC__) || defined(__clang__)
#define DESERT_BSWAP16(x) __builtin_bswap16(x)
#define DESERT_BSWAP32(x) __builtin_bswap32(x)
#define DESERT_BSWAP64(x) __builtin_bswap64(x)
#else
static uint16_t desert_bswap16_portable(uint16_t x) {
  return (uint16_t)((unsigned)(x << 8) | (unsigned)(x >> 8));
}
static uint32_t desert_bswap32_portable(uint32_t x) {
  return (x << 24) | ((x & 0xff00u) << 8) | ((x >> 8) & 0xff00u) | (x >> 24);
}
static uint64_t desert_bswap64_portable(uint64_t x) {
  return ((uint64_t)desert_bswap32_portable((uint32_t)x) << 32) |
         desert_bswap32_portable((uint32_t)(x >> 32));
}
#define DESERT_BSWAP16(x) desert_bswap16_portable(x)
#define DESERT_BSWAP32(x) desert_bswap32_portable(x)
#define DESERT_BSWAP64(x) desert_bswap64_portable(x)
#endif

void desert_scalar_bswap16(void *dst, const void *src, size_t n) {
  uint8_t *d = (uint8_t *)dst;
  const uint8_t *s = (const uint8_t *)src;
  size_t i = 0;
  /* Four lanes per word: swapping the two bytes inside each 16-bit lane is
   * a shift of the even bytes up and the odd bytes down. */
  for (; i + 4 <= n; i += 4) {
    uint64_t w;
    memcpy(&w, s + 2 * i, 8);
    w = ((w & 0x00ff00ff00ff00ffu) << 8) | ((w >> 8) & 0x00ff00ff00ff00ffu);
    memcpy(d + 2 * i, &w, 8);
  }
  for (; i < n; i++) {
    uint16_t v;
    memcpy(&v, s + 2 * i, 2);
    v = DESERT_BSWAP16(v);
    memcpy(d + 2 * i, &v, 2);
  }
}

void desert_scalar_bswap32(void *dst, const void *src, size_t n) {
  uint8_t *d = (uint8_t *)dst;
  const uint8_t *s = (const uint8_t *)src;
  size_t i = 0;
  /* Two lanes per word: reversing 8 bytes swaps the lanes' bytes and also
   * the lanes' order; rotating by 32 restores the order. */
  for (; i + 2 <= n; i += 2) {
    uint64_t w;
    memcpy(&w, s + 4 * i, 8);
    w = DESERT_BSWAP64(w);
    w = (w << 32) | (w >> 32);
    memcpy(d + 4 * i, &w, 8);
  }
  if (i < n) {
    uint32_t v;
    memcpy(&v, s + 4 * i, 4);
    v = DESERT_BSWAP32(v);
    memcpy(d + 4 * i, &v, 4);
  }
}

void desert_scalar_bswap64(void *dst, const void *src, size_t n) {
  uint8_t *d = (uint8_t *)dst;
  const uint8_t *s = (const uint8_t *)src;
  for (size_t i = 0; i < n; i++) {
    uint64_t v;
    memcpy(&v, s + 8 * i, 8);
    v = DESERT_BSWAP64(v);
    memcpy(d + 8 * i, &v, 8);
  }
}
