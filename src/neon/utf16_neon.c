/* src/neon/utf16_neon.c — NEON UTF-8 length of UTF-16 text and UTF-16 ->
 * UTF-8 conversion (host-order units).
 *
 * Algorithm (after simdutf's arm64 utf16_to_utf8, Lemire & Muła,
 * "Transcoding Billions of Unicode Characters per Second with SIMD
 * Instructions", Software: Practice and Experience 52(2), 2022): eight units
 * per step. ASCII: one narrowing store. Below U+0800: each unit becomes a
 * lead/continuation pair in its 16-bit lane and a table keyed by the 8-bit
 * mask of non-ASCII units (vqtbl1q_u8) packs the used bytes. Other BMP
 * units: 1..3 bytes built in 32-bit lanes, packed with the length-keyed
 * keep-first table, four units at a time. A step containing a surrogate is
 * converted by the scalar kernel on the step's units, shortened by one when
 * the last unit is a high surrogate, so no pair is ever split: a low
 * surrogate at the start of a step never has a high surrogate before it,
 * and the scalar kernel sees every pair exactly as in the whole input, so
 * its status, *written and *pos (plus the offsets) are the global ones.
 * Too little room in dst ends the SIMD loop and the scalar kernel runs from
 * that step, which is exact for the same reason.
 *
 * Bounds: 16-byte loads only while len - p >= 8 units; output goes through
 * a stack buffer copied with memcpy for exactly the bytes produced (or one
 * 8-byte store of exactly 8 ASCII bytes) after checking dst_cap - o; tails
 * through the scalar kernels.
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include "neon/neon_compat.h"
#include "neon/neon_kernels.h"
#include "neon/neon_tables.h"
#include "scalar/scalar.h"

static inline int desert_neon_any_surrogate(uint16x8_t u) {
  const uint16x8_t s = vceqq_u16(vandq_u16(u, vdupq_n_u16(0xf800)), vdupq_n_u16(0xd800));
  return vmaxvq_u16(s) != 0;
}

/* Units of a surrogate-containing step: 8, or 7 when unit 7 is a high
 * surrogate (its partner, if any, starts the next step). */
static inline size_t desert_neon_utf16_cut(const uint16_t *s) {
  return (s[7] & 0xfc00u) == 0xd800u ? 7 : 8;
}

desert_status desert_neon_utf8_len_from_utf16(const uint16_t *src, size_t len, size_t *out_len) {
  size_t p = 0, bytes = 0;
  while (len - p >= 8) {
    const uint16x8_t u = vld1q_u16(src + p);
    if (!desert_neon_any_surrogate(u)) {
      /* 1 + (u >= 0x80) + (u >= 0x800); masks are 0 or 0xFFFF (= -1) */
      const uint16x8_t l = vsubq_u16(vsubq_u16(vdupq_n_u16(1), vcgeq_u16(u, vdupq_n_u16(0x80))),
                                     vcgeq_u16(u, vdupq_n_u16(0x800)));
      bytes += vaddvq_u16(l);
      p += 8;
      continue;
    }
    const size_t e = desert_neon_utf16_cut(src + p);
    size_t r = 0;
    const desert_status st = desert_scalar_utf8_len_from_utf16(src + p, e, &r);
    if (st != DESERT_OK) {
      *out_len = p + r;
      return st;
    }
    bytes += r;
    p += e;
  }
  size_t r = 0;
  const desert_status st =
      desert_scalar_utf8_len_from_utf16(desert_neon_cadv16(src, p), len - p, &r);
  *out_len = st == DESERT_OK ? bytes + r : p + r;
  return st;
}

/* 1..3 UTF-8 bytes of four BMP non-surrogate units in 32-bit lanes, packed;
 * returns the packed vector and its length. */
static inline uint8x16_t desert_neon_utf16_pack4(uint32x4_t u, uint32x4_t ge80, uint32x4_t ge800,
                                                 size_t *n) {
  static const int32_t lane_shift[4] = {0, 2, 4, 6};
  const uint32x4_t c1 = vorrq_u32(vandq_u32(u, vdupq_n_u32(0x3f)), vdupq_n_u32(0x80));
  const uint32x4_t c6 =
      vorrq_u32(vandq_u32(vshrq_n_u32(u, 6), vdupq_n_u32(0x3f)), vdupq_n_u32(0x80));
  const uint32x4_t w2 =
      vorrq_u32(vorrq_u32(vshrq_n_u32(u, 6), vdupq_n_u32(0xc0)), vshlq_n_u32(c1, 8));
  const uint32x4_t w3 = vorrq_u32(vorrq_u32(vshrq_n_u32(u, 12), vdupq_n_u32(0xe0)),
                                  vorrq_u32(vshlq_n_u32(c6, 8), vshlq_n_u32(c1, 16)));
  const uint32x4_t w = vbslq_u32(ge800, w3, vbslq_u32(ge80, w2, u));
  const uint32x4_t lm1 = vsubq_u32(vsubq_u32(vdupq_n_u32(0), ge80), ge800);
  const uint32_t key = vaddvq_u32(vshlq_u32(lm1, vld1q_s32(lane_shift)));
  *n = desert_neon_keep_first_len[key];
  return vqtbl1q_u8(vreinterpretq_u8_u32(w), vld1q_u8(desert_neon_keep_first_shuf[key]));
}

static inline uint32x4_t desert_neon_widen_mask_lo(uint16x8_t m) {
  return vreinterpretq_u32_s32(vmovl_s16(vreinterpret_s16_u16(vget_low_u16(m))));
}
static inline uint32x4_t desert_neon_widen_mask_hi(uint16x8_t m) {
  return vreinterpretq_u32_s32(vmovl_s16(vreinterpret_s16_u16(vget_high_u16(m))));
}

desert_status desert_neon_utf16_to_utf8(const uint16_t *src, size_t len, uint8_t *dst,
                                        size_t dst_cap, size_t *written, size_t *pos) {
  size_t p = 0, o = 0;
  while (len - p >= 8) {
    const uint16x8_t u = vld1q_u16(src + p);
    if (vmaxvq_u16(u) < 0x80u) {
      if (dst_cap - o < 8) break;
      vst1_u8(dst + o, vmovn_u16(u));
      p += 8;
      o += 8;
      continue;
    }
    if (desert_neon_any_surrogate(u)) {
      const size_t e = desert_neon_utf16_cut(src + p);
      size_t w = 0, ps = 0;
      const desert_status st =
          desert_scalar_utf16_to_utf8(src + p, e, desert_neon_adv8(dst, o), dst_cap - o, &w, &ps);
      if (st != DESERT_OK) {
        *written = o + w;
        *pos = p + ps;
        return st;
      }
      o += w;
      p += e;
      continue;
    }
    const uint16x8_t ge80 = vcgeq_u16(u, vdupq_n_u16(0x80));
    const uint16x8_t ge800 = vcgeq_u16(u, vdupq_n_u16(0x800));
    const size_t total = (size_t)vaddvq_u16(vsubq_u16(vsubq_u16(vdupq_n_u16(1), ge80), ge800));
    if (dst_cap - o < total) break;
    uint8_t tmp[32];
    if (vmaxvq_u16(ge800) == 0) {
      /* 1..2 bytes per unit: lead in the low byte, continuation above */
      const uint16x8_t two =
          vorrq_u16(vorrq_u16(vshrq_n_u16(u, 6), vdupq_n_u16(0xc0)),
                    vshlq_n_u16(vorrq_u16(vandq_u16(u, vdupq_n_u16(0x3f)), vdupq_n_u16(0x80)), 8));
      const uint16x8_t w = vbslq_u16(ge80, two, u);
      const uint32_t m = desert_neon_mask8_u16(ge80);
      vst1q_u8(tmp, vqtbl1q_u8(vreinterpretq_u8_u16(w), vld1q_u8(desert_neon_latin1_expand_shuf[m])));
    } else {
      size_t n0 = 0, n1 = 0;
      const uint8x16_t a = desert_neon_utf16_pack4(vmovl_u16(vget_low_u16(u)),
                                                   desert_neon_widen_mask_lo(ge80),
                                                   desert_neon_widen_mask_lo(ge800), &n0);
      const uint8x16_t b = desert_neon_utf16_pack4(vmovl_u16(vget_high_u16(u)),
                                                   desert_neon_widen_mask_hi(ge80),
                                                   desert_neon_widen_mask_hi(ge800), &n1);
      vst1q_u8(tmp, a);
      vst1q_u8(tmp + n0, b);
    }
    memcpy(dst + o, tmp, total);
    o += total;
    p += 8;
  }
  size_t w = 0, ps = 0;
  const desert_status st = desert_scalar_utf16_to_utf8(
      desert_neon_cadv16(src, p), len - p, desert_neon_adv8(dst, o), dst_cap - o, &w, &ps);
  *written = o + w;
  *pos = p + ps;
  return st;
}
