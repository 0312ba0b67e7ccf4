/* src/neon/latin1_neon.c — NEON UTF-8 size of Latin-1 text and Latin-1 ->
 * UTF-8 conversion.
 *
 * Algorithm (as simdutf's arm64 latin1_to_utf8): sixteen bytes per step;
 * ASCII blocks are copied; otherwise every byte b gets a lead (b, or
 * C0|b>>6 when b >= 0x80) and a continuation (80|b&3F), the two are
 * interleaved with vzip1q/vzip2q and a table keyed by the 8-bit mask of
 * non-ASCII bytes (vqtbl1q_u8) packs each half. The size is len plus the
 * count of bytes >= 0x80 (vshrq_n_u8 + vaddvq_u8).
 *
 * Bounds: loads only while 16 input bytes remain. dst may be exactly
 * utf8_len_from_latin1(src, len) bytes, so a 16-byte store at output offset
 * o (of which cnt bytes are this half's output) is made only when the input
 * bytes after this half, each of which produces at least one output byte,
 * are at least 16 - cnt: then [o, o+16) lies inside the final output and
 * its slack is overwritten later. Otherwise the half goes through a stack
 * buffer copied with memcpy for exactly cnt bytes. Tails through the scalar
 * kernels.
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include "neon/neon_compat.h"
#include "neon/neon_kernels.h"
#include "neon/neon_tables.h"
#include "scalar/scalar.h"

size_t desert_neon_utf8_len_from_latin1(const uint8_t *src, size_t len) {
  size_t p = 0, extra = 0;
  for (; len - p >= 16; p += 16) {
    extra += vaddvq_u8(vshrq_n_u8(vld1q_u8(src + p), 7));
  }
  return p + extra + desert_scalar_utf8_len_from_latin1(desert_neon_cadv8(src, p), len - p);
}

size_t desert_neon_latin1_to_utf8(const uint8_t *src, size_t len, uint8_t *dst) {
  size_t p = 0, o = 0;
  for (; len - p >= 16; p += 16) {
    const uint8x16_t in = vld1q_u8(src + p);
    if (vmaxvq_u8(in) < 0x80u) {
      vst1q_u8(dst + o, in); /* exactly 16 output bytes */
      o += 16;
      continue;
    }
    const uint8x16_t hi = vcgeq_u8(in, vdupq_n_u8(0x80));
    const uint8x16_t lead =
        vbslq_u8(hi, vorrq_u8(vshrq_n_u8(in, 6), vdupq_n_u8(0xc0)), in);
    const uint8x16_t cont = vorrq_u8(vandq_u8(in, vdupq_n_u8(0x3f)), vdupq_n_u8(0x80));
    const uint32_t m = desert_neon_mask16(hi);
    for (int half = 0; half < 2; half++) {
      const uint8x16_t pairs = half == 0 ? vzip1q_u8(lead, cont) : vzip2q_u8(lead, cont);
      const uint32_t mh = half == 0 ? (m & 0xffu) : (m >> 8);
      const uint8x16_t packed = vqtbl1q_u8(pairs, vld1q_u8(desert_neon_latin1_expand_shuf[mh]));
      const size_t cnt = 8u + desert_neon_popcount8[mh];
      const size_t after = len - p - 8u * (size_t)(half + 1);
      if (after >= 16u - cnt) {
        vst1q_u8(dst + o, packed);
      } else {
        uint8_t tmp[16];
        vst1q_u8(tmp, packed);
        memcpy(dst + o, tmp, cnt);
      }
      o += cnt;
    }
  }
  return o + desert_scalar_latin1_to_utf8(desert_neon_cadv8(src, p), len - p,
                                          desert_neon_adv8(dst, o));
}
