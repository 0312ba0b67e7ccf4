/* src/scalar/utf8_scalar.c — scalar UTF-8 validation, UTF-16 length of
 * UTF-8 text, and UTF-8 -> UTF-16 conversion.
 * SPDX-License-Identifier: MIT
 *
 * Algorithm: left-to-right decoding with the Unicode table of well-formed
 * byte sequences (Unicode 15 §3.9, Table 3-7; RFC 3629 §4): the lead byte
 * gives the length, the second byte has a lead-dependent range (E0: A0..BF,
 * ED: 80..9F, F0: 90..BF, F4: 80..8F, otherwise 80..BF), later bytes are
 * 80..BF. Runs of ASCII are skipped eight bytes at a time: one unaligned
 * 64-bit load (memcpy) and a test of the eight top bits.
 *
 * Bounds: the word path runs only when at least 8 bytes remain; a sequence
 * of length L is read only after checking that L bytes remain, so no byte
 * outside [src, src+len) is read. Output units are stored only after
 * checking dst_cap, so nothing outside [dst, dst+dst_cap) is written.
 *
 * Error position (kernels.h): decoding stops at the first position where
 * no complete well-formed sequence starts; *pos is that position, i.e. the
 * lead byte of the offending sequence (also when the input ends inside it).
 *
 * Precedence of DST_TOO_SMALL in utf8_to_utf16: the sequence at the current
 * position is decoded (and validated) first, and only a valid code point can
 * "not fit". So an invalid sequence at the position where the output is
 * full reports DESERT_E_INVALID_UTF8, and invalid input after that position
 * is never looked at (DESERT_E_DST_TOO_SMALL is reported instead).
 */
#include <string.h>

#include "scalar/scalar.h"

#define DESERT_HI8 0x8080808080808080u

/* Offset of the first byte with its top bit set in a word loaded with
 * memcpy from memory; hi = word & DESERT_HI8, non-zero. */
static inline size_t desert_first_hibit(uint64_t hi, const uint8_t *bytes) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  (void)bytes;
  return (size_t)__builtin_ctzll(hi) >> 3;
#else
  (void)hi;
  size_t j = 0;
  while (bytes[j] < 0x80u) j++;
  return j;
#endif
}

/* Decodes the sequence starting at src[i] (a byte >= 0x80) with len - i > 0
 * bytes available. Returns its length 2..4 and the code point, or 0 if no
 * well-formed sequence starts here. */
static inline size_t desert_utf8_multi(const uint8_t *src, size_t i, size_t len, uint32_t *cp) {
  const uint32_t b0 = src[i];
  const size_t rem = len - i;
  if (b0 < 0xc2u) return 0; /* continuation byte, or overlong C0/C1 lead */
  if (b0 < 0xe0u) {
    if (rem < 2) return 0;
    const uint32_t b1 = src[i + 1];
    if ((b1 & 0xc0u) != 0x80u) return 0;
    *cp = ((b0 & 0x1fu) << 6) | (b1 & 0x3fu);
    return 2;
  }
  if (b0 < 0xf0u) {
    if (rem < 3) return 0;
    const uint32_t b1 = src[i + 1], b2 = src[i + 2];
    /* E0: reject overlong forms; ED: reject surrogates. */
    const uint32_t lo = b0 == 0xe0u ? 0xa0u : 0x80u;
    const uint32_t hi = b0 == 0xedu ? 0x9fu : 0xbfu;
    if (b1 < lo || b1 > hi || (b2 & 0xc0u) != 0x80u) return 0;
    *cp = ((b0 & 0x0fu) << 12) | ((b1 & 0x3fu) << 6) | (b2 & 0x3fu);
    return 3;
  }
  if (b0 < 0xf5u) {
    if (rem < 4) return 0;
    const uint32_t b1 = src[i + 1], b2 = src[i + 2], b3 = src[i + 3];
    /* F0: reject overlong forms; F4: reject values above U+10FFFF. */
    const uint32_t lo = b0 == 0xf0u ? 0x90u : 0x80u;
    const uint32_t hi = b0 == 0xf4u ? 0x8fu : 0xbfu;
    if (b1 < lo || b1 > hi || (b2 & 0xc0u) != 0x80u || (b3 & 0xc0u) != 0x80u) return 0;
    *cp = ((b0 & 0x07u) << 18) | ((b1 & 0x3fu) << 12) | ((b2 & 0x3fu) << 6) | (b3 & 0x3fu);
    return 4;
  }
  return 0; /* F5..FF never start a sequence */
}

desert_status desert_scalar_utf8_validate(const uint8_t *src, size_t len, size_t *pos) {
  size_t i = 0;
  while (i < len) {
    if (len - i >= 8) {
      uint64_t w;
      memcpy(&w, src + i, 8);
      const uint64_t hi = w & DESERT_HI8;
      if (hi == 0) {
        i += 8;
        continue;
      }
      i += desert_first_hibit(hi, src + i);
    } else if (src[i] < 0x80u) {
      i++;
      continue;
    }
    uint32_t cp;
    const size_t l = desert_utf8_multi(src, i, len, &cp);
    if (l == 0) {
      *pos = i;
      return DESERT_E_INVALID_UTF8;
    }
    i += l;
  }
  *pos = len;
  return DESERT_OK;
}

desert_status desert_scalar_utf16_len_from_utf8(const uint8_t *src, size_t len, size_t *out_len) {
  size_t i = 0, units = 0;
  while (i < len) {
    if (len - i >= 8) {
      uint64_t w;
      memcpy(&w, src + i, 8);
      const uint64_t hi = w & DESERT_HI8;
      if (hi == 0) {
        i += 8;
        units += 8;
        continue;
      }
      const size_t a = desert_first_hibit(hi, src + i);
      i += a;
      units += a;
    } else if (src[i] < 0x80u) {
      i++;
      units++;
      continue;
    }
    uint32_t cp;
    const size_t l = desert_utf8_multi(src, i, len, &cp);
    if (l == 0) {
      *out_len = i;
      return DESERT_E_INVALID_UTF8;
    }
    units += l == 4 ? 2u : 1u; /* 4-byte sequences become surrogate pairs */
    i += l;
  }
  *out_len = units;
  return DESERT_OK;
}

desert_status desert_scalar_utf8_to_utf16(const uint8_t *src, size_t len, uint16_t *dst,
                                          size_t dst_cap, size_t *written, size_t *pos) {
  size_t i = 0, o = 0;
  while (i < len) {
    if (len - i >= 8 && dst_cap - o >= 8) {
      uint64_t w;
      memcpy(&w, src + i, 8);
      if ((w & DESERT_HI8) == 0) {
        for (size_t j = 0; j < 8; j++) dst[o + j] = src[i + j];
        i += 8;
        o += 8;
        continue;
      }
    }
    const uint32_t b0 = src[i];
    if (b0 < 0x80u) {
      if (o == dst_cap) goto too_small;
      dst[o++] = (uint16_t)b0;
      i++;
      continue;
    }
    uint32_t cp;
    const size_t l = desert_utf8_multi(src, i, len, &cp);
    if (l == 0) {
      *written = o;
      *pos = i;
      return DESERT_E_INVALID_UTF8;
    }
    if (cp < 0x10000u) {
      if (o == dst_cap) goto too_small;
      dst[o++] = (uint16_t)cp;
    } else {
      if (dst_cap - o < 2) goto too_small;
      cp -= 0x10000u;
      dst[o] = (uint16_t)(0xd800u | (cp >> 10));
      dst[o + 1] = (uint16_t)(0xdc00u | (cp & 0x3ffu));
      o += 2;
    }
    i += l;
  }
  *written = o;
  *pos = len;
  return DESERT_OK;
too_small:
  *written = o;
  *pos = i;
  return DESERT_E_DST_TOO_SMALL;
}
