/* src/x86/utf8_avx2.c — AVX2 UTF-8 validation, UTF-16 length of UTF-8,
 * UTF-8 -> UTF-16 and UTF-8 -> Latin-1.
 * SPDX-License-Identifier: MIT
 *
 * Validation: Keiser & Lemire, "Validating UTF-8 In Less Than One
 * Instruction Per Byte" (Software: Practice and Experience, 2021), lookup
 * algorithm (dx_u8_check in vec_avx2.h), with two shortcuts:
 *  - ASCII blocks (one OR + movemask; then a 128-byte sprint) only confirm
 *    that no sequence was left open by the block before;
 *  - blocks without a byte >= 0xE0, when nothing but a valid 2-byte lead is
 *    open before them, are validated exactly on movemasks
 *    (dx_u8_check12): continuation positions == lead positions + 1, no
 *    C0/C1 lead.
 * validate/utf16_len_from_utf8 use 64-byte blocks, the converters 32.
 *
 * Conversion (in the spirit of Lemire & Keiser, "Transcoding Billions of
 * Unicode Characters per Second with SIMD Instructions", Software: Practice
 * and Experience, 2022, simplified): after a 32-byte block is validated,
 * every byte that starts a character gets its code unit from itself and
 * the next two bytes (16-bit lanes; 1-2 byte blocks use byte pairs and
 * pmaddubsw), a 4-byte character gives its high surrogate at its lead and
 * its low surrogate at its first continuation byte, and the units of those
 * positions are left-packed with a 256-entry pshufb table per 8 positions
 * (desert_x86_pack16; UTF-8 -> Latin-1 packs bytes with desert_x86_pack8).
 * UTF-8 -> Latin-1 stops at the first byte >= 0xC4 (a code point above
 * U+00FF or an error: the scalar kernel locates it).
 *
 * Bounds: validation reads [p, p+64) while >= 64 bytes remain (128 for the
 * ASCII sprint). UTF-8 -> UTF-16 reads [p, p+34) per block and runs while
 * len - p >= 72 and 32 units are free in dst; UTF-8 -> Latin-1 reads
 * [p, p+33) while len - p >= 96 and 32 bytes are free. Besides keeping the
 * look-ahead loads in range, that length margin guarantees (valid input
 * gives at least (len-p-3)/3 units, resp. (len-p-1)/2 bytes) that the
 * 8-unit / 8-byte over-stores of the packing end inside the final output,
 * so on success nothing after *written is modified; they never leave
 * [dst, dst+dst_cap). Everything from the last character boundary on goes
 * to the scalar kernel.
 *
 * Errors: a block that fails its check (or an ASCII block after an open
 * sequence) makes the kernel rewind to the character boundary before the
 * block (dx_u8_back: at most 3 bytes back), take back the units already
 * written for the character starting there, and finish with the scalar
 * kernel from that boundary, which reports the exact status, offset and
 * written count (it is restartable at any boundary of valid input). The
 * DST_TOO_SMALL / INVALID / NOT_LATIN1 precedence is therefore the scalar
 * kernel's.
 */
#include <string.h>

#include "scalar/scalar.h"
#include "x86/vec_avx2.h"
#include "x86/x86_kernels.h"

/* UTF-16 units of the bytes [a, b): one per non-continuation byte, two for
 * a 4-byte lead (the counting rule of valid text, as used by the SIMD part). */
static size_t dx_u16_units(const uint8_t *src, size_t a, size_t b) {
  size_t u = 0;
  for (size_t k = a; k < b; k++)
    u += (size_t)((src[k] & 0xc0u) != 0x80u) + (size_t)(src[k] >= 0xf0u);
  return u;
}

/* Bytes >= 0xF0 (4-byte leads and invalid F5..FF). */
DX_INLINE uint32_t dx_ge_f0(__m256i v) {
  return dx_mask(_mm256_and_si256(_mm256_cmpgt_epi8(v, dx_set8(0xef)), v));
}

/* Validation of a block without bytes >= 0xE0 (only 1- and 2-byte
 * sequences can occur): every continuation byte directly follows a lead
 * C2..DF and every lead is followed by one. hib / starts: movemasks of the
 * top bits / non-continuation bytes; carry: byte p-1 is such a lead.
 * Returns 0 if invalid, else 1 with *carry updated. Exact for such blocks
 * when no 3- or 4-byte sequence is open before them. */
DX_INLINE int dx_u8_check12(__m256i in, uint32_t hib, uint32_t starts, uint32_t *carry) {
  const uint32_t lead = hib & starts, cont = hib & ~starts;
  const uint32_t c0c1 =
      dx_mask(_mm256_cmpeq_epi8(_mm256_and_si256(in, dx_set8(0xfe)), dx_set8(0xc0)));
  if ((((lead << 1) | *carry) != cont) | (c0c1 != 0)) return 0;
  *carry = lead >> 31;
  return 1;
}

/* 1 if b is a valid 2-byte lead (C2..DF). */
DX_INLINE uint32_t dx_lead2(uint8_t b) { return (uint32_t)(b >= 0xc2u && b <= 0xdfu); }

/* Bytes >= 0xE0 (3- and 4-byte leads, invalid F5..FF). */
DX_INLINE uint32_t dx_ge_e0(__m256i v) {
  return dx_mask(_mm256_and_si256(_mm256_cmpgt_epi8(v, dx_set8(0xdf)), v));
}

/* 1 if the n bytes at s are all ASCII. Reads only [s, s + n): whole
 * 32-byte blocks plus one overlapping last block, or 8-byte words (the
 * last one overlapping) below 32 bytes. */
DX_INLINE int dx_ascii(const uint8_t *s, size_t n) {
  if (n >= 32) {
    __m256i acc = dx_load(s + n - 32);
    for (size_t i = 0; n - i >= 32; i += 32) acc = _mm256_or_si256(acc, dx_load(s + i));
    return dx_mask(acc) == 0;
  }
  uint64_t acc = 0, w;
  if (n >= 8) {
    for (size_t i = 0; n - i >= 8; i += 8) {
      memcpy(&w, s + i, 8);
      acc |= w;
    }
    memcpy(&w, s + n - 8, 8);
    acc |= w;
  } else {
    for (size_t i = 0; i < n; i++) acc |= s[i];
  }
  return (acc & 0x8080808080808080ull) == 0;
}

/* Shared body of validate (count = 0) and utf16_len_from_utf8 (count = 1). */
DX_INLINE desert_status dx_u8_validate(const uint8_t *src, size_t len, size_t *out, int count) {
  size_t p = 0, units = 0;
  __m256i prev = _mm256_setzero_si256();
  uint32_t open = 0;  /* the bytes before p end inside a sequence */
  uint32_t clean = 1; /* no byte >= 0xE0 among the 3 bytes before p */
  uint32_t lead = 0;  /* byte p-1 is a lead C2..DF */
  while (len - p >= 64) {
    const __m256i a = dx_load(src + p), b = dx_load(src + p + 32);
    const uint32_t ha = dx_mask(a), hb = dx_mask(b);
    if ((ha | hb) == 0) {
      if (open) goto rewind;
      /* ASCII: nothing to check; sprint 128 bytes at a time */
      size_t q = p + 64;
      while (len - q >= 128) {
        const __m256i o =
            _mm256_or_si256(_mm256_or_si256(dx_load(src + q), dx_load(src + q + 32)),
                            _mm256_or_si256(dx_load(src + q + 64), dx_load(src + q + 96)));
        if (dx_mask(o)) break;
        q += 128;
      }
      units += q - p;
      p = q;
      prev = _mm256_setzero_si256();
      clean = 1;
      lead = 0;
      continue;
    }
    const uint32_t ea = dx_ge_e0(a), eb = dx_ge_e0(b);
    if (((ea | eb) == 0) & (clean != 0)) {
      /* 1- and 2-byte sequences only: the cheap exact check */
      const uint32_t sa = dx_mask(dx_noncont(a)), sb = dx_mask(dx_noncont(b));
      if (!dx_u8_check12(a, ha, sa, &lead) || !dx_u8_check12(b, hb, sb, &lead)) goto rewind;
      open = lead;
      if (count) units += dx_pop(sa) + dx_pop(sb);
    } else {
      const __m256i err = _mm256_or_si256(dx_u8_check(a, prev), dx_u8_check(b, a));
      if (!dx_zero(err)) goto rewind;
      open = !dx_zero(dx_u8_incomplete(b));
      lead = dx_lead2(src[p + 63]);
      if (count)
        units += dx_pop(dx_mask(dx_noncont(a))) + dx_pop(dx_mask(dx_noncont(b))) +
                 dx_pop(dx_ge_f0(a)) + dx_pop(dx_ge_f0(b));
    }
    /* The cheap check may follow only if nothing but a valid 2-byte lead
     * is open (a C0/C1 lead or a 3/4-byte sequence needs the full check). */
    clean = ((eb >> 29) == 0) & (open == lead);
    prev = b;
    p += 64;
  }
rewind:;
  /* Also the normal exit: the scalar kernel finishes from the boundary. */
  const size_t q = dx_u8_back(src, p);
  if (count) units -= dx_u16_units(src, q, p);
  /* Strings under 64 bytes never enter the loop above and most tails are
   * ASCII: an ASCII rest is valid as it stands and needs no scalar pass
   * (which took 39% of a 43-byte string write in the bench's case 3). */
  if (dx_ascii(src + q, len - q)) {
    *out = count ? units + (len - q) : len;
    return DESERT_OK;
  }
  size_t r;
  desert_status st;
  if (count) {
    st = desert_scalar_utf16_len_from_utf8(src + q, len - q, &r);
    *out = st == DESERT_OK ? units + r : q + r;
  } else {
    st = desert_scalar_utf8_validate(src + q, len - q, &r);
    *out = q + r;
  }
  return st;
}

desert_status desert_avx2_utf8_validate(const uint8_t *src, size_t len, size_t *pos) {
  return dx_u8_validate(src, len, pos, 0);
}

desert_status desert_avx2_utf16_len_from_utf8(const uint8_t *src, size_t len, size_t *out_len) {
  return dx_u8_validate(src, len, out_len, 1);
}

/* Left-packs the 16-bit lanes of v selected by emit (bit k = lane k) to d:
 * 2 x 8-unit stores (over-storing); returns the count. */
DX_INLINE size_t dx_u16_pack(__m256i v, uint32_t emit, uint16_t *d) {
  const uint32_t m0 = emit & 0xffu, m1 = (emit >> 8) & 0xffu;
  v = _mm256_shuffle_epi8(
      v, dx_pair(dx_load128(desert_x86_pack16[m0]), dx_load128(desert_x86_pack16[m1])));
  const size_t n0 = dx_pop(m0);
  dx_store128(d, _mm256_castsi256_si128(v));
  dx_store128(d + n0, _mm256_extracti128_si256(v, 1));
  return n0 + dx_pop(m1);
}

/* UTF-16 units of the 32 bytes in (at s; s[32] is read as look-ahead)
 * when every character there has 1 or 2 bytes; starts = bit k: s[k]
 * starts a character. The byte pairs (s[k], s[k+1]) are interleaved into
 * 16-bit lanes (vpunpck*bw, so the 128-bit lanes hold positions 0-7 and
 * 16-23, resp. 8-15 and 24-31); a pair lead + continuation becomes
 * (lead & 0x1F) * 64 + (cont & 0x3F) with one pmaddubsw. */
DX_INLINE size_t dx_u8_to_u16_12(__m256i in, const uint8_t *s, uint32_t starts, uint16_t *d) {
  const __m256i nx = dx_load(s + 1);
  const __m256i pl = _mm256_unpacklo_epi8(in, nx), ph = _mm256_unpackhi_epi8(in, nx);
  const __m256i mask = dx_set16(0x3f1f), wgt = dx_set16(0x0140), asc = dx_set16(0x00ff);
  const __m256i vl = _mm256_blendv_epi8(_mm256_and_si256(pl, asc),
                                        _mm256_maddubs_epi16(_mm256_and_si256(pl, mask), wgt),
                                        _mm256_srai_epi16(_mm256_slli_epi16(pl, 8), 15));
  const __m256i vh = _mm256_blendv_epi8(_mm256_and_si256(ph, asc),
                                        _mm256_maddubs_epi16(_mm256_and_si256(ph, mask), wgt),
                                        _mm256_srai_epi16(_mm256_slli_epi16(ph, 8), 15));
  const uint32_t m0 = starts & 0xffu, m1 = (starts >> 8) & 0xffu;
  const uint32_t m2 = (starts >> 16) & 0xffu, m3 = starts >> 24;
  const __m256i ql = _mm256_shuffle_epi8(
      vl, dx_pair(dx_load128(desert_x86_pack16[m0]), dx_load128(desert_x86_pack16[m2])));
  const __m256i qh = _mm256_shuffle_epi8(
      vh, dx_pair(dx_load128(desert_x86_pack16[m1]), dx_load128(desert_x86_pack16[m3])));
  size_t n = 0;
  dx_store128(d, _mm256_castsi256_si128(ql));
  n += dx_pop(m0);
  dx_store128(d + n, _mm256_castsi256_si128(qh));
  n += dx_pop(m1);
  dx_store128(d + n, _mm256_extracti128_si256(ql, 1));
  n += dx_pop(m2);
  dx_store128(d + n, _mm256_extracti128_si256(qh, 1));
  return n + dx_pop(m3);
}

/* The same for characters of 1 to 4 bytes (s[16], s[17] are read as
 * look-ahead, prev16 holds the 16 bytes before s). A 4-byte character
 * gives its high surrogate at its lead byte and its low surrogate at its
 * first continuation byte: emit = starts | those positions. */
DX_INLINE size_t dx_u8_to_u16_1234(const uint8_t *s, __m128i prev16, uint32_t emit, uint16_t *d,
                                   int four) {
  const __m128i cur = dx_load128(s);
  const __m256i b0 = _mm256_cvtepu8_epi16(cur);
  const __m256i b1 = _mm256_cvtepu8_epi16(dx_load128(s + 1));
  const __m256i b2 = _mm256_cvtepu8_epi16(dx_load128(s + 2));
  const __m256i bp = _mm256_cvtepu8_epi16(_mm_alignr_epi8(cur, prev16, 15));
  const __m256i c3f = dx_set16(0x3f);
  const __m256i t1 = _mm256_and_si256(b1, c3f), t2 = _mm256_and_si256(b2, c3f);
  const __m256i v2 =
      _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(b0, dx_set16(0x1f)), 6), t1);
  const __m256i v3 =
      _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi16(b0, 12), _mm256_slli_epi16(t1, 6)), t2);
  /* high: 0xD800 + (cp >> 10) - 0x40; low: 0xDC00 | (cp & 0x3FF) */
  const __m256i v4h = _mm256_add_epi16(
      _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(b0, dx_set16(7)), 8),
                                      _mm256_slli_epi16(t1, 2)),
                      _mm256_srli_epi16(t2, 4)),
      dx_set16(0xd7c0));
  const __m256i v4l = _mm256_or_si256(
      _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(b1, dx_set16(0x0f)), 6), t2),
      dx_set16(0xdc00));
  __m256i v = _mm256_blendv_epi8(b0, v2, _mm256_cmpgt_epi16(b0, dx_set16(0xbf)));
  v = _mm256_blendv_epi8(v, v3, _mm256_cmpgt_epi16(b0, dx_set16(0xdf)));
  if (four) {
    v = _mm256_blendv_epi8(v, v4h, _mm256_cmpgt_epi16(b0, dx_set16(0xef)));
    v = _mm256_blendv_epi8(v, v4l, _mm256_cmpgt_epi16(bp, dx_set16(0xef)));
  }
  return dx_u16_pack(v, emit, d);
}

desert_status desert_avx2_utf8_to_utf16(const uint8_t *src, size_t len, uint16_t *dst,
                                        size_t dst_cap, size_t *written, size_t *pos) {
  size_t p = 0, w = 0;
  __m256i prev = _mm256_setzero_si256();
  uint32_t open = 0;  /* the bytes before p end inside a sequence */
  uint32_t clean = 1; /* no byte >= 0xE0 among the 3 bytes before p */
  uint32_t lead = 0;  /* byte p-1 is a lead C2..DF */
  uint32_t low0 = 0;  /* byte p-1 is a 4-byte lead (a low surrogate at p) */
  while (len - p >= 72 && dst_cap - w >= 32) {
    __m256i in = dx_load(src + p);
    const uint32_t hib = dx_mask(in);
    if (hib == 0) {
      if (open) break;
      do { /* ASCII run: widen 32 bytes to 32 units */
        dx_store(dst + w, _mm256_cvtepu8_epi16(_mm256_castsi256_si128(in)));
        dx_store(dst + w + 16, _mm256_cvtepu8_epi16(_mm256_extracti128_si256(in, 1)));
        w += 32;
        p += 32;
        if (len - p < 72 || dst_cap - w < 32) break;
        in = dx_load(src + p);
      } while (dx_mask(in) == 0);
      prev = _mm256_setzero_si256();
      clean = 1;
      lead = low0 = 0;
      continue;
    }
    const uint32_t starts = dx_mask(dx_noncont(in));
    const uint32_t ge_e0 = dx_mask(_mm256_and_si256(_mm256_cmpgt_epi8(in, dx_set8(0xdf)), in));
    if ((ge_e0 == 0) & (clean != 0)) {
      /* 1- and 2-byte sequences only: the cheap exact check */
      if (!dx_u8_check12(in, hib, starts, &lead)) break;
      open = lead;
      w += dx_u8_to_u16_12(in, src + p, starts, dst + w);
    } else {
      const __m256i err = dx_u8_check(in, prev);
      if (!dx_zero(err)) break;
      open = !dx_zero(dx_u8_incomplete(in));
      lead = dx_lead2(src[p + 31]);
      if ((ge_e0 | low0) == 0) {
        w += dx_u8_to_u16_12(in, src + p, starts, dst + w);
      } else {
        const uint32_t f0 = dx_ge_f0(in);
        const uint32_t emit = starts | (f0 << 1) | low0;
        const __m128i lo = _mm256_castsi256_si128(in), ph = _mm256_extracti128_si256(prev, 1);
        if ((f0 | low0) == 0) { /* 1- to 3-byte sequences */
          w += dx_u8_to_u16_1234(src + p, ph, emit & 0xffffu, dst + w, 0);
          w += dx_u8_to_u16_1234(src + p + 16, lo, emit >> 16, dst + w, 0);
        } else {
          w += dx_u8_to_u16_1234(src + p, ph, emit & 0xffffu, dst + w, 1);
          w += dx_u8_to_u16_1234(src + p + 16, lo, emit >> 16, dst + w, 1);
        }
        low0 = f0 >> 31;
      }
    }
    clean = ((ge_e0 >> 29) == 0) & (open == lead); /* as in dx_u8_validate */
    prev = in;
    p += 32;
  }
  /* Error, open sequence before an ASCII block, or the end: the scalar
   * kernel finishes from the last boundary. The units of the character
   * starting there are taken back: one, or two for a 4-byte character
   * whose low surrogate was written too (its first continuation is < p). */
  const size_t q = dx_u8_back(src, p);
  if (q < p) w -= 1u + (src[q] >= 0xf0u && q + 1 < p);
  size_t wr, ps;
  const desert_status st =
      desert_scalar_utf8_to_utf16(src + q, len - q, dst + w, dst_cap - w, &wr, &ps);
  *written = w + wr;
  *pos = q + ps;
  return st;
}

desert_status desert_avx2_utf8_to_latin1(const uint8_t *src, size_t len, uint8_t *dst,
                                         size_t dst_cap, size_t *written, size_t *pos) {
  size_t p = 0, w = 0;
  uint32_t lead = 0; /* byte p-1 is a lead C2..C3 */
  while (len - p >= 96 && dst_cap - w >= 32) {
    __m256i in = dx_load(src + p);
    const uint32_t hib = dx_mask(in);
    if (hib == 0) {
      if (lead) break;
      do { /* ASCII run: copy */
        dx_store(dst + w, in);
        w += 32;
        p += 32;
        if (len - p < 96 || dst_cap - w < 32) break;
        in = dx_load(src + p);
      } while (dx_mask(in) == 0);
      continue;
    }
    /* A byte >= 0xC4 is a lead above U+00FF or malformed: an error is
     * certain, the scalar kernel locates it. Below, only 1- and 2-byte
     * sequences can occur, which dx_u8_check12 validates exactly. */
    if (dx_mask(_mm256_and_si256(_mm256_cmpgt_epi8(in, dx_set8(0xc3)), in))) break;
    const uint32_t starts = dx_mask(dx_noncont(in));
    if (!dx_u8_check12(in, hib, starts, &lead)) break;
    /* Lead C2/C3 + continuation -> ((lead & 3) << 6) | (cont & 0x3F). */
    const __m256i next = dx_load(src + p + 1);
    const __m256i v2 = _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(in, 6), dx_set8(0xc0)),
                                       _mm256_and_si256(next, dx_set8(0x3f)));
    const __m256i v = _mm256_blendv_epi8(in, v2, in);
    for (unsigned h = 0; h < 2; h++) {
      const uint32_t m0 = (starts >> (16 * h)) & 0xffu, m1 = (starts >> (16 * h + 8)) & 0xffu;
      const __m128i ctl = _mm_add_epi8(
          _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)desert_x86_pack8[m0]),
                             _mm_loadl_epi64((const __m128i *)(const void *)desert_x86_pack8[m1])),
          _mm_set_epi64x(0x0808080808080808, 0));
      const __m128i half = h ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
      const __m128i packed = _mm_shuffle_epi8(half, ctl);
      _mm_storel_epi64((__m128i *)(void *)(dst + w), packed);
      w += dx_pop(m0);
      _mm_storel_epi64((__m128i *)(void *)(dst + w), _mm_unpackhi_epi64(packed, packed));
      w += dx_pop(m1);
    }
    p += 32;
  }
  const size_t q = dx_u8_back(src, p);
  if (q < p) w -= 1;
  size_t wr, ps;
  const desert_status st =
      desert_scalar_utf8_to_latin1(src + q, len - q, dst + w, dst_cap - w, &wr, &ps);
  *written = w + wr;
  *pos = q + ps;
  return st;
}
