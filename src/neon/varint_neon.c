/* src/neon/varint_neon.c — NEON var_u32 / var_i32 (zig-zag) runs, docs/format.md §3.
 *
 * Decode algorithm: MaskedVByte (Plaisance, Kurz & Lemire, "Vectorized VByte
 * Decoding", 2015), ported to NEON: a 16-byte window, the mask of its
 * continuation bits (movemask replaced by bit weights + vaddv), a 4096-entry
 * table keyed by the low 12 mask bits that gives a vqtbl1q_u8 shuffle, the
 * number of values and bytes it covers; the shuffle gathers each value into a
 * 16-, 32- or 64-bit lane where shifts and masks drop the continuation bits.
 * Unlike MaskedVByte (trusted input, reads ahead) every step here is bounded:
 *   - a window is loaded only when 16 input bytes remain (p + 16 <= src_len);
 *   - a step runs only while at least 16 values remain to be decoded, so no
 *     step writes past dst[n) (a step decodes at most 16 values);
 *   - a table entry only takes values whose last byte is within bytes 0..11
 *     of the window, so each value taken is complete and at most 5 bytes long
 *     with its 5th byte a terminator: bits above 31 are dropped by the 64->32
 *     narrowing, as docs/format.md §3.2 requires;
 *   - a value with five continuation bytes (an error) or anything else the
 *     table does not cover ends the SIMD loop; desert_scalar_var_u32_decode
 *     then runs from the start of that value, which is a value boundary, so
 *     its status, its *consumed (plus the offset) and dst[0..k) are the
 *     scalar kernel's. INPUT_ENDED can only happen in that scalar tail.
 *
 * Encode algorithm: four 32-bit values per step are spread into 7-bit groups
 * with continuation bits inside their 32-bit lanes (shifts + masks, no
 * pdep), the lane lengths form an 8-bit key (Stream VByte style) into a
 * 256-entry table of vqtbl1q_u8 shuffles that packs the used bytes. Blocks
 * with a value >= 2^28 (5 bytes) are encoded by the scalar kernel; a fast
 * path stores 16 one-byte values at once.
 * Bounds: a step stores 16 bytes at the current output offset only when the
 * values after the block are enough to overwrite every byte of the store
 * beyond the block's own output (each value takes >= 1 byte), so nothing is
 * written outside the final output [0, returned) <= 5*n; otherwise the rest
 * goes to desert_scalar_var_*_encode. Loads read whole src blocks only.
 * SPDX-License-Identifier: MIT */
#include "neon/neon_compat.h"
#include "neon/neon_kernels.h"
#include "neon/neon_tables.h"
#include "scalar/scalar.h"

/* ---- encode -------------------------------------------------------------- */

static inline uint32x4_t desert_neon_zigzag_enc(uint32x4_t v) {
  int32x4_t s = vreinterpretq_s32_u32(v);
  return veorq_u32(vshlq_n_u32(v, 1), vreinterpretq_u32_s32(vshrq_n_s32(s, 31)));
}

static inline void desert_neon_store16x1(uint8_t *d, uint32x4_t a, uint32x4_t b, uint32x4_t c,
                                         uint32x4_t e) {
  uint16x8_t ab = vcombine_u16(vmovn_u32(a), vmovn_u32(b));
  uint16x8_t ce = vcombine_u16(vmovn_u32(c), vmovn_u32(e));
  vst1q_u8(d, vcombine_u8(vmovn_u16(ab), vmovn_u16(ce)));
}

/* src holds n 32-bit values (int32_t reinterpreted when zigzag). */
static inline size_t desert_neon_var_encode(uint8_t *dst, const uint32_t *src, size_t n,
                                            int zigzag) {
  size_t i = 0, o = 0;
  static const int32_t lane_shift[4] = {0, 2, 4, 6};
  const int32x4_t kshift = vld1q_s32(lane_shift);
  const uint32x4_t lim7 = vdupq_n_u32(1u << 7), lim14 = vdupq_n_u32(1u << 14);
  const uint32x4_t lim21 = vdupq_n_u32(1u << 21);
  while (n - i >= 4) {
    if (n - i >= 16) {
      /* fast path: 16 one-byte values, one 16-byte store, all of it output */
      uint32x4_t a = vld1q_u32(src + i), b = vld1q_u32(src + i + 4);
      uint32x4_t c = vld1q_u32(src + i + 8), e = vld1q_u32(src + i + 12);
      if (zigzag) {
        a = desert_neon_zigzag_enc(a);
        b = desert_neon_zigzag_enc(b);
        c = desert_neon_zigzag_enc(c);
        e = desert_neon_zigzag_enc(e);
      }
      if (vmaxvq_u32(vmaxq_u32(vmaxq_u32(a, b), vmaxq_u32(c, e))) < 128u) {
        desert_neon_store16x1(dst + o, a, b, c, e);
        o += 16;
        i += 16;
        continue;
      }
    }
    uint32x4_t v = vld1q_u32(src + i);
    if (zigzag) v = desert_neon_zigzag_enc(v);
    if (vmaxvq_u32(v) >= (1u << 28)) {
      /* a 5-byte value in the block: these four values by the scalar kernel */
      if (zigzag) {
        o += desert_scalar_var_i32_encode(dst + o, (const int32_t *)(const void *)(src + i), 4);
      } else {
        o += desert_scalar_var_u32_encode(dst + o, src + i, 4);
      }
      i += 4;
      continue;
    }
    uint32x4_t m1 = vcgeq_u32(v, lim7), m2 = vcgeq_u32(v, lim14), m3 = vcgeq_u32(v, lim21);
    /* the 7-bit groups in bytes 0..3 of each lane */
    uint32x4_t g = vandq_u32(v, vdupq_n_u32(0x7fu));
    g = vorrq_u32(g, vandq_u32(vshlq_n_u32(v, 1), vdupq_n_u32(0x7f00u)));
    g = vorrq_u32(g, vandq_u32(vshlq_n_u32(v, 2), vdupq_n_u32(0x7f0000u)));
    g = vorrq_u32(g, vandq_u32(vshlq_n_u32(v, 3), vdupq_n_u32(0x7f000000u)));
    /* continuation bit on byte k when the value needs byte k+1 */
    g = vorrq_u32(g, vandq_u32(m1, vdupq_n_u32(0x80u)));
    g = vorrq_u32(g, vandq_u32(m2, vdupq_n_u32(0x8000u)));
    g = vorrq_u32(g, vandq_u32(m3, vdupq_n_u32(0x800000u)));
    /* length - 1 per lane: masks are 0 or ~0 (= -1) */
    uint32x4_t lm1 = vsubq_u32(vsubq_u32(vsubq_u32(vdupq_n_u32(0), m1), m2), m3);
    uint32_t key = vaddvq_u32(vshlq_u32(lm1, kshift));
    size_t blen = desert_neon_keep_first_len[key];
    size_t after = n - i - 4; /* values after this block: >= 1 byte each */
    if (after < 16 - blen) break; /* the store's slack would not be overwritten */
    vst1q_u8(dst + o, vqtbl1q_u8(vreinterpretq_u8_u32(g),
                                 vld1q_u8(desert_neon_keep_first_shuf[key])));
    o += blen;
    i += 4;
  }
  if (i < n) {
    if (zigzag) {
      o += desert_scalar_var_i32_encode(desert_neon_adv8(dst, o),
                                        (const int32_t *)(const void *)(src + i), n - i);
    } else {
      o += desert_scalar_var_u32_encode(desert_neon_adv8(dst, o), src + i, n - i);
    }
  }
  return o;
}

size_t desert_neon_var_u32_encode(uint8_t *dst, const uint32_t *src, size_t n) {
  return desert_neon_var_encode(dst, src, n, 0);
}

size_t desert_neon_var_i32_encode(uint8_t *dst, const int32_t *src, size_t n) {
  return desert_neon_var_encode(dst, (const uint32_t *)(const void *)src, n, 1);
}

/* ---- decode -------------------------------------------------------------- */

static inline uint32x4_t desert_neon_zigzag_dec(uint32x4_t u) {
  int32x4_t low = vreinterpretq_s32_u32(vandq_u32(u, vdupq_n_u32(1)));
  return veorq_u32(vshrq_n_u32(u, 1), vreinterpretq_u32_s32(vnegq_s32(low)));
}
static inline uint32x2_t desert_neon_zigzag_dec2(uint32x2_t u) {
  int32x2_t low = vreinterpret_s32_u32(vand_u32(u, vdup_n_u32(1)));
  return veor_u32(vshr_n_u32(u, 1), vreinterpret_u32_s32(vneg_s32(low)));
}

/* dst holds n 32-bit values (int32_t reinterpreted when zigzag). */
static inline desert_status desert_neon_var_decode(const uint8_t *src, size_t src_len,
                                                   uint32_t *dst, size_t n, size_t *consumed,
                                                   int zigzag) {
  size_t p = 0, k = 0;
  while (n - k >= 16 && src_len - p >= 16) {
    uint8x16_t w = vld1q_u8(src + p);
    uint32_t m = desert_neon_movemask(w);
    if (m == 0) {
      /* sixteen one-byte values */
      uint16x8_t lo = vmovl_u8(vget_low_u8(w)), hi = vmovl_u8(vget_high_u8(w));
      uint32x4_t a = vmovl_u16(vget_low_u16(lo)), b = vmovl_u16(vget_high_u16(lo));
      uint32x4_t c = vmovl_u16(vget_low_u16(hi)), e = vmovl_u16(vget_high_u16(hi));
      if (zigzag) {
        a = desert_neon_zigzag_dec(a);
        b = desert_neon_zigzag_dec(b);
        c = desert_neon_zigzag_dec(c);
        e = desert_neon_zigzag_dec(e);
      }
      vst1q_u32(dst + k, a);
      vst1q_u32(dst + k + 4, b);
      vst1q_u32(dst + k + 8, c);
      vst1q_u32(dst + k + 12, e);
      p += 16;
      k += 16;
      continue;
    }
    const desert_neon_varint_entry *ent = &desert_neon_varint_table[m & 0xfffu];
    if (ent->mode == 0) break; /* five continuation bytes: the scalar kernel reports it */
    uint8x16_t g = vqtbl1q_u8(w, vld1q_u8(desert_neon_varint_shuf[ent->shuf]));
    if (ent->mode == 1) {
      /* six values of 1..2 bytes in 16-bit lanes */
      uint16x8_t x = vreinterpretq_u16_u8(g);
      uint16x8_t r = vorrq_u16(vandq_u16(x, vdupq_n_u16(0x7f)),
                               vandq_u16(vshrq_n_u16(x, 1), vdupq_n_u16(0x3f80)));
      uint32x4_t r0 = vmovl_u16(vget_low_u16(r)), r1 = vmovl_u16(vget_high_u16(r));
      if (zigzag) {
        r0 = desert_neon_zigzag_dec(r0);
        r1 = desert_neon_zigzag_dec(r1);
      }
      vst1q_u32(dst + k, r0);
      vst1_u32(dst + k + 4, vget_low_u32(r1));
    } else if (ent->mode == 2) {
      /* 1..4 values of 1..4 bytes in 32-bit lanes */
      uint32x4_t x = vreinterpretq_u32_u8(g);
      uint32x4_t r = vandq_u32(x, vdupq_n_u32(0x7fu));
      r = vorrq_u32(r, vandq_u32(vshrq_n_u32(x, 1), vdupq_n_u32(0x3f80u)));
      r = vorrq_u32(r, vandq_u32(vshrq_n_u32(x, 2), vdupq_n_u32(0x1fc000u)));
      r = vorrq_u32(r, vandq_u32(vshrq_n_u32(x, 3), vdupq_n_u32(0xfe00000u)));
      if (zigzag) r = desert_neon_zigzag_dec(r);
      switch (ent->count) {
        case 4: vst1q_u32(dst + k, r); break;
        case 3:
          vst1_u32(dst + k, vget_low_u32(r));
          vst1q_lane_u32(dst + k + 2, r, 2);
          break;
        case 2: vst1_u32(dst + k, vget_low_u32(r)); break;
        default: vst1q_lane_u32(dst + k, r, 0); break;
      }
    } else {
      /* 1..2 values of 1..5 bytes in 64-bit lanes; the narrowing to 32 bits
       * drops the payload bits above bit 31 (docs/format.md §3.2) */
      uint64x2_t x = vreinterpretq_u64_u8(g);
      uint64x2_t r = vandq_u64(x, vdupq_n_u64(0x7fu));
      r = vorrq_u64(r, vandq_u64(vshrq_n_u64(x, 1), vdupq_n_u64(0x3f80u)));
      r = vorrq_u64(r, vandq_u64(vshrq_n_u64(x, 2), vdupq_n_u64(0x1fc000u)));
      r = vorrq_u64(r, vandq_u64(vshrq_n_u64(x, 3), vdupq_n_u64(0xfe00000u)));
      r = vorrq_u64(r, vandq_u64(vshrq_n_u64(x, 4), vdupq_n_u64(0x7f0000000u)));
      uint32x2_t r32 = vmovn_u64(r);
      if (zigzag) r32 = desert_neon_zigzag_dec2(r32);
      if (ent->count == 2) {
        vst1_u32(dst + k, r32);
      } else {
        vst1_lane_u32(dst + k, r32, 0);
      }
    }
    p += ent->consumed;
    k += ent->count;
  }
  size_t c = 0;
  desert_status st;
  if (zigzag) {
    st = desert_scalar_var_i32_decode(desert_neon_cadv8(src, p), src_len - p,
                                      (int32_t *)(void *)(k ? dst + k : dst), n - k, &c);
  } else {
    st = desert_scalar_var_u32_decode(desert_neon_cadv8(src, p), src_len - p,
                                      k ? dst + k : dst, n - k, &c);
  }
  *consumed = p + c;
  return st;
}

desert_status desert_neon_var_u32_decode(const uint8_t *src, size_t src_len, uint32_t *dst,
                                         size_t n, size_t *consumed) {
  return desert_neon_var_decode(src, src_len, dst, n, consumed, 0);
}

desert_status desert_neon_var_i32_decode(const uint8_t *src, size_t src_len, int32_t *dst,
                                         size_t n, size_t *consumed) {
  return desert_neon_var_decode(src, src_len, (uint32_t *)(void *)dst, n, consumed, 1);
}
