/* src/neon/utf8_neon.c — NEON UTF-8 validation, UTF-16 length of UTF-8,
 * UTF-8 -> UTF-16 and UTF-8 -> Latin-1.
 *
 * Validation algorithm: the "lookup" method of J. Keiser and D. Lemire,
 * "Validating UTF-8 In Less Than One Instruction Per Byte", Software:
 * Practice and Experience 51(5), 2021 (as in simdjson/simdutf
 * utf8_lookup4_algorithm.h): three 16-entry nibble tables (vqtbl1q_u8) on
 * the high/low nibble of the previous byte and the high nibble of the
 * current byte give the two-byte special cases; saturating subtractions on
 * prev2/prev3 (vextq_u8 with the previous block) check the 3rd/4th bytes.
 * Error positions (kernels.h rule 6) are not computed in SIMD: as in
 * simdutf's rewind_and_validate_with_errors, when a block reports an error
 * (or at the end) the scalar kernel re-runs from the last character
 * boundary before the block, found by stepping back over at most three
 * continuation bytes. Every byte before the block passed the checks, so that
 * boundary is one the scalar kernel itself would reach, and its status and
 * offset (plus the boundary) are returned unchanged.
 *
 * Conversions: each 16-byte block starts at a character boundary p (all of
 * [0, p) converted). An ASCII block is widened/copied. Otherwise the block
 * is validated alone (zero "previous" bytes are exact at a boundary), cut
 * at e in 13..16 before a sequence that runs past the block, and converted
 * with the end-of-code-point mask (a position is the last byte of its
 * sequence when the next byte is not a continuation): code units are
 * computed at every position from prev1/prev2 and the end positions are
 * packed with the 8-bit-mask compaction tables (simdutf's arm64
 * transcoders use the same end-mask idea). Blocks with 4-byte sequences
 * (UTF-16) are converted by the scalar kernel on [p, p+e), a run of complete
 * valid sequences, so its answer is the global one. Anything else — an
 * invalid block, a code point above U+00FF (Latin-1), too little room in dst
 * — ends the SIMD loop and the scalar kernel runs from p, which gives the
 * exact status, *written and *pos with the precedence the scalar kernel
 * defines.
 *
 * Bounds: 16-byte loads only while len - p >= 16; stores only through a
 * 16-unit stack buffer copied with memcpy for exactly the units produced,
 * after checking dst_cap - o; tails through the scalar kernels. Nothing
 * outside [src, src+len) or [dst, dst+dst_cap) is touched.
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include "neon/neon_compat.h"
#include "neon/neon_kernels.h"
#include "neon/neon_tables.h"
#include "scalar/scalar.h"

/* ---- Keiser & Lemire lookup validator ------------------------------------ */

#define DESERT_U8_TOO_SHORT 0x01u
#define DESERT_U8_TOO_LONG 0x02u
#define DESERT_U8_OVERLONG_3 0x04u
#define DESERT_U8_TOO_LARGE 0x08u
#define DESERT_U8_SURROGATE 0x10u
#define DESERT_U8_OVERLONG_2 0x20u
#define DESERT_U8_TOO_LARGE_1000 0x40u
#define DESERT_U8_OVERLONG_4 0x40u
#define DESERT_U8_TWO_CONTS 0x80u
#define DESERT_U8_CARRY (DESERT_U8_TOO_SHORT | DESERT_U8_TOO_LONG | DESERT_U8_TWO_CONTS)

/* Error flags of block `in` given the previous 16 bytes (zeros at a
 * boundary or at the start). Non-zero lane = error involving that byte. */
static inline uint8x16_t desert_neon_utf8_check(uint8x16_t in, uint8x16_t prev_in) {
  static const uint8_t byte_1_high[16] = {
      DESERT_U8_TOO_LONG, DESERT_U8_TOO_LONG, DESERT_U8_TOO_LONG, DESERT_U8_TOO_LONG,
      DESERT_U8_TOO_LONG, DESERT_U8_TOO_LONG, DESERT_U8_TOO_LONG, DESERT_U8_TOO_LONG,
      DESERT_U8_TWO_CONTS, DESERT_U8_TWO_CONTS, DESERT_U8_TWO_CONTS, DESERT_U8_TWO_CONTS,
      DESERT_U8_TOO_SHORT | DESERT_U8_OVERLONG_2,
      DESERT_U8_TOO_SHORT,
      DESERT_U8_TOO_SHORT | DESERT_U8_OVERLONG_3 | DESERT_U8_SURROGATE,
      DESERT_U8_TOO_SHORT | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000 |
          DESERT_U8_OVERLONG_4};
  static const uint8_t byte_1_low[16] = {
      DESERT_U8_CARRY | DESERT_U8_OVERLONG_3 | DESERT_U8_OVERLONG_2 | DESERT_U8_OVERLONG_4,
      DESERT_U8_CARRY | DESERT_U8_OVERLONG_2,
      DESERT_U8_CARRY,
      DESERT_U8_CARRY,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000 | DESERT_U8_SURROGATE,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000,
      DESERT_U8_CARRY | DESERT_U8_TOO_LARGE | DESERT_U8_TOO_LARGE_1000};
  static const uint8_t byte_2_high[16] = {
      DESERT_U8_TOO_SHORT, DESERT_U8_TOO_SHORT, DESERT_U8_TOO_SHORT, DESERT_U8_TOO_SHORT,
      DESERT_U8_TOO_SHORT, DESERT_U8_TOO_SHORT, DESERT_U8_TOO_SHORT, DESERT_U8_TOO_SHORT,
      DESERT_U8_TOO_LONG | DESERT_U8_OVERLONG_2 | DESERT_U8_TWO_CONTS | DESERT_U8_OVERLONG_3 |
          DESERT_U8_TOO_LARGE_1000 | DESERT_U8_OVERLONG_4,
      DESERT_U8_TOO_LONG | DESERT_U8_OVERLONG_2 | DESERT_U8_TWO_CONTS | DESERT_U8_OVERLONG_3 |
          DESERT_U8_TOO_LARGE,
      DESERT_U8_TOO_LONG | DESERT_U8_OVERLONG_2 | DESERT_U8_TWO_CONTS | DESERT_U8_SURROGATE |
          DESERT_U8_TOO_LARGE,
      DESERT_U8_TOO_LONG | DESERT_U8_OVERLONG_2 | DESERT_U8_TWO_CONTS | DESERT_U8_SURROGATE |
          DESERT_U8_TOO_LARGE,
      DESERT_U8_TOO_SHORT, DESERT_U8_TOO_SHORT, DESERT_U8_TOO_SHORT, DESERT_U8_TOO_SHORT};
  const uint8x16_t prev1 = vextq_u8(prev_in, in, 15);
  const uint8x16_t b1h = vqtbl1q_u8(vld1q_u8(byte_1_high), vshrq_n_u8(prev1, 4));
  const uint8x16_t b1l = vqtbl1q_u8(vld1q_u8(byte_1_low), vandq_u8(prev1, vdupq_n_u8(0x0f)));
  const uint8x16_t b2h = vqtbl1q_u8(vld1q_u8(byte_2_high), vshrq_n_u8(in, 4));
  const uint8x16_t sc = vandq_u8(vandq_u8(b1h, b1l), b2h);
  /* bytes 2 and 3 after a 3-/4-byte lead must be continuations */
  const uint8x16_t prev2 = vextq_u8(prev_in, in, 14);
  const uint8x16_t prev3 = vextq_u8(prev_in, in, 13);
  const uint8x16_t third = vqsubq_u8(prev2, vdupq_n_u8(0xe0u - 0x80u));
  const uint8x16_t fourth = vqsubq_u8(prev3, vdupq_n_u8(0xf0u - 0x80u));
  const uint8x16_t must23_80 = vandq_u8(vorrq_u8(third, fourth), vdupq_n_u8(0x80));
  return veorq_u8(must23_80, sc);
}

/* Non-zero when the block ends inside a multi-byte sequence. */
static inline uint8x16_t desert_neon_utf8_incomplete(uint8x16_t in) {
  static const uint8_t max_value[16] = {255, 255, 255, 255, 255, 255, 255, 255, 255,
                                        255, 255, 255, 255, 0xf0u - 1, 0xe0u - 1, 0xc0u - 1};
  return vcgtq_u8(in, vld1q_u8(max_value));
}

/* Last character boundary at or before p, given that [0, p) passed the
 * block checks: the last non-continuation byte among src[p-3..p-1] (its
 * sequence may run past p), else p (three continuations end a complete
 * 4-byte sequence). */
static inline size_t desert_neon_utf8_rewind(const uint8_t *src, size_t p) {
  for (size_t j = 1; j <= 3 && j <= p; j++) {
    if ((src[p - j] & 0xc0u) != 0x80u) return p - j;
  }
  return p;
}

/* Length e (13..16) of the longest prefix of a block that passed
 * desert_neon_utf8_check with zero previous bytes and does not end inside a
 * sequence. */
static inline size_t desert_neon_utf8_cut(const uint8_t *b) {
  if (b[15] >= 0xc0u) return 15;
  if (b[14] >= 0xe0u) return 14;
  if (b[13] >= 0xf0u) return 13;
  return 16;
}

static inline uint8x16_t desert_neon_lanes_below(size_t e) {
  static const uint8_t idx[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  return vcltq_u8(vld1q_u8(idx), vdupq_n_u8((uint8_t)e));
}

desert_status desert_neon_utf8_validate(const uint8_t *src, size_t len, size_t *pos) {
  size_t p = 0;
  if (len >= 16) {
    const uint8x16_t zero = vdupq_n_u8(0);
    uint8x16_t prev = zero, prev_incomplete = zero;
    for (; len - p >= 16; p += 16) {
      const uint8x16_t in = vld1q_u8(src + p);
      uint8x16_t err;
      if (vmaxvq_u8(in) < 0x80u) {
        err = prev_incomplete;
        prev_incomplete = zero;
      } else {
        err = desert_neon_utf8_check(in, prev);
        prev_incomplete = desert_neon_utf8_incomplete(in);
      }
      if (desert_neon_any(err)) break;
      prev = in;
    }
  }
  const size_t q = desert_neon_utf8_rewind(src, p);
  size_t r = 0;
  const desert_status st = desert_scalar_utf8_validate(desert_neon_cadv8(src, q), len - q, &r);
  *pos = q + r;
  return st;
}

desert_status desert_neon_utf16_len_from_utf8(const uint8_t *src, size_t len, size_t *out_len) {
  size_t p = 0, units = 0;
  if (len >= 16) {
    const uint8x16_t zero = vdupq_n_u8(0), one = vdupq_n_u8(1);
    uint8x16_t prev = zero, prev_incomplete = zero;
    for (; len - p >= 16; p += 16) {
      const uint8x16_t in = vld1q_u8(src + p);
      uint8x16_t err;
      if (vmaxvq_u8(in) < 0x80u) {
        err = prev_incomplete;
        prev_incomplete = zero;
        if (desert_neon_any(err)) break;
        units += 16;
      } else {
        err = desert_neon_utf8_check(in, prev);
        prev_incomplete = desert_neon_utf8_incomplete(in);
        if (desert_neon_any(err)) break;
        /* one unit per non-continuation byte, one more per 4-byte lead */
        const uint8x16_t lead =
            vcgtq_s8(vreinterpretq_s8_u8(in), vdupq_n_s8(-65)); /* not 80..BF */
        const uint8x16_t four = vcgeq_u8(in, vdupq_n_u8(0xf0));
        units += vaddvq_u8(vaddq_u8(vandq_u8(lead, one), vandq_u8(four, one)));
      }
      prev = in;
    }
  }
  const size_t q = desert_neon_utf8_rewind(src, p);
  for (size_t i = q; i < p; i++) { /* take back what [q, p) added */
    units -= (size_t)((src[i] & 0xc0u) != 0x80u);
    units -= (size_t)(src[i] >= 0xf0u);
  }
  size_t r = 0;
  const desert_status st =
      desert_scalar_utf16_len_from_utf8(desert_neon_cadv8(src, q), len - q, &r);
  *out_len = st == DESERT_OK ? units + r : q + r;
  return st;
}

desert_status desert_neon_utf8_to_utf16(const uint8_t *src, size_t len, uint16_t *dst,
                                        size_t dst_cap, size_t *written, size_t *pos) {
  size_t p = 0, o = 0;
  if (len >= 16) {
    const uint8x16_t zero = vdupq_n_u8(0);
    while (len - p >= 16) {
      const uint8x16_t in = vld1q_u8(src + p);
      if (vmaxvq_u8(in) < 0x80u) {
        if (dst_cap - o < 16) break;
        vst1q_u16(dst + o, vmovl_u8(vget_low_u8(in)));
        vst1q_u16(dst + o + 8, vmovl_u8(vget_high_u8(in)));
        p += 16;
        o += 16;
        continue;
      }
      if (desert_neon_any(desert_neon_utf8_check(in, zero))) break;
      const size_t e = desert_neon_utf8_cut(src + p);
      const uint8x16_t below = desert_neon_lanes_below(e);
      if (desert_neon_any(vandq_u8(vcgeq_u8(in, vdupq_n_u8(0xf0)), below))) {
        /* 4-byte sequences: [p, p+e) is complete and valid, the scalar
         * kernel converts it exactly (only DST_TOO_SMALL can stop it) */
        size_t w = 0, ps = 0;
        const desert_status st =
            desert_scalar_utf8_to_utf16(src + p, e, desert_neon_adv16(dst, o), dst_cap - o, &w, &ps);
        if (st != DESERT_OK) {
          *written = o + w;
          *pos = p + ps;
          return st;
        }
        o += w;
        p += e;
        continue;
      }
      /* end of a code point: the next byte is not a continuation */
      const uint8x16_t noncont = vcgtq_s8(vreinterpretq_s8_u8(in), vdupq_n_s8(-65));
      const uint8x16_t ends = vandq_u8(vextq_u8(noncont, vdupq_n_u8(0xff), 1), below);
      const uint32_t m = desert_neon_mask16(ends);
      const size_t m0 = m & 0xffu, m1 = m >> 8;
      const size_t c0 = desert_neon_popcount8[m0], units = c0 + desert_neon_popcount8[m1];
      if (dst_cap - o < units) break;
      const uint8x16_t prev1 = vextq_u8(zero, in, 15), prev2 = vextq_u8(zero, in, 14);
      const uint8x16_t is2 = vcgeq_u8(prev1, vdupq_n_u8(0xc0));
      const uint8x16_t is3 = vcgeq_u8(prev2, vdupq_n_u8(0xe0));
      uint16_t tmp[16];
      for (int half = 0; half < 2; half++) {
        uint16x8_t b, p1, p2, s2, s3;
        if (half == 0) {
          b = vmovl_u8(vget_low_u8(in));
          p1 = vmovl_u8(vget_low_u8(prev1));
          p2 = vmovl_u8(vget_low_u8(prev2));
          s2 = vreinterpretq_u16_s16(vmovl_s8(vreinterpret_s8_u8(vget_low_u8(is2))));
          s3 = vreinterpretq_u16_s16(vmovl_s8(vreinterpret_s8_u8(vget_low_u8(is3))));
        } else {
          b = vmovl_u8(vget_high_u8(in));
          p1 = vmovl_u8(vget_high_u8(prev1));
          p2 = vmovl_u8(vget_high_u8(prev2));
          s2 = vreinterpretq_u16_s16(vmovl_s8(vreinterpret_s8_u8(vget_high_u8(is2))));
          s3 = vreinterpretq_u16_s16(vmovl_s8(vreinterpret_s8_u8(vget_high_u8(is3))));
        }
        const uint16x8_t low6 = vandq_u16(b, vdupq_n_u16(0x3f));
        const uint16x8_t u2 =
            vorrq_u16(vshlq_n_u16(vandq_u16(p1, vdupq_n_u16(0x1f)), 6), low6);
        const uint16x8_t u3 = vorrq_u16(
            vorrq_u16(vshlq_n_u16(vandq_u16(p2, vdupq_n_u16(0x0f)), 12),
                      vshlq_n_u16(vandq_u16(p1, vdupq_n_u16(0x3f)), 6)),
            low6);
        const uint16x8_t u = vbslq_u16(s3, u3, vbslq_u16(s2, u2, b));
        const size_t mh = half == 0 ? m0 : m1;
        const uint8x16_t packed = vqtbl1q_u8(vreinterpretq_u8_u16(u),
                                             vld1q_u8(desert_neon_compact_u16_shuf[mh]));
        vst1q_u16(tmp + (half == 0 ? 0 : c0), vreinterpretq_u16_u8(packed));
      }
      memcpy(dst + o, tmp, units * sizeof(uint16_t));
      o += units;
      p += e;
    }
  }
  size_t w = 0, ps = 0;
  const desert_status st = desert_scalar_utf8_to_utf16(
      desert_neon_cadv8(src, p), len - p, desert_neon_adv16(dst, o), dst_cap - o, &w, &ps);
  *written = o + w;
  *pos = p + ps;
  return st;
}

desert_status desert_neon_utf8_to_latin1(const uint8_t *src, size_t len, uint8_t *dst,
                                         size_t dst_cap, size_t *written, size_t *pos) {
  size_t p = 0, o = 0;
  if (len >= 16) {
    const uint8x16_t zero = vdupq_n_u8(0);
    while (len - p >= 16) {
      const uint8x16_t in = vld1q_u8(src + p);
      if (vmaxvq_u8(in) < 0x80u) {
        if (dst_cap - o < 16) break;
        vst1q_u8(dst + o, in);
        p += 16;
        o += 16;
        continue;
      }
      if (desert_neon_any(desert_neon_utf8_check(in, zero))) break;
      const size_t e = desert_neon_utf8_cut(src + p);
      const uint8x16_t below = desert_neon_lanes_below(e);
      /* a lead above C3 is a code point above U+00FF: the scalar kernel
       * from p reports it (or an earlier problem) */
      if (desert_neon_any(vandq_u8(vcgeq_u8(in, vdupq_n_u8(0xc4)), below))) break;
      /* only ASCII and C2/C3 + continuation: every non-lead byte ends one */
      const uint8x16_t ends = vandq_u8(vcltq_u8(in, vdupq_n_u8(0xc0)), below);
      const uint32_t m = desert_neon_mask16(ends);
      const size_t m0 = m & 0xffu, m1 = m >> 8;
      const size_t c0 = desert_neon_popcount8[m0], n_out = c0 + desert_neon_popcount8[m1];
      if (dst_cap - o < n_out) break;
      const uint8x16_t prev1 = vextq_u8(zero, in, 15);
      const uint8x16_t cp2 = vorrq_u8(vshlq_n_u8(vandq_u8(prev1, vdupq_n_u8(0x03)), 6),
                                      vandq_u8(in, vdupq_n_u8(0x3f)));
      const uint8x16_t val = vbslq_u8(vcgeq_u8(prev1, vdupq_n_u8(0xc0)), cp2, in);
      uint8_t tmp[16];
      vst1_u8(tmp, vtbl1_u8(vget_low_u8(val), vld1_u8(desert_neon_compact_u8_shuf[m0])));
      vst1_u8(tmp + c0, vtbl1_u8(vget_high_u8(val), vld1_u8(desert_neon_compact_u8_shuf[m1])));
      memcpy(dst + o, tmp, n_out);
      o += n_out;
      p += e;
    }
  }
  size_t w = 0, ps = 0;
  const desert_status st = desert_scalar_utf8_to_latin1(
      desert_neon_cadv8(src, p), len - p, desert_neon_adv8(dst, o), dst_cap - o, &w, &ps);
  *written = o + w;
  *pos = p + ps;
  return st;
}
