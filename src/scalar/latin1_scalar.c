/* src/scalar/latin1_scalar.c — scalar Latin-1 <-> UTF-8 kernels and the
 * UTF-8 size of Latin-1 text.
 * SPDX-License-Identifier: MIT
 *
 * Algorithm: a Latin-1 byte b >= 0x80 becomes the two bytes C0|b>>6,
 * 80|b&3F; ASCII is copied. Going back, only ASCII and the well-formed
 * two-byte sequences C2/C3 + 80..BF are Latin-1. Eight-byte ASCII runs are
 * handled with one unaligned 64-bit load (memcpy). The size count adds the
 * top bits of a word with a multiply (no popcount instruction needed, as
 * this file is compiled without ISA flags).
 *
 * Bounds: word paths run only when 8 input bytes remain (and 8 output
 * bytes of room where they store); a UTF-8 sequence of length L is read only
 * after checking that L bytes remain. latin1_to_utf8 writes exactly
 * utf8_len_from_latin1(src, len) bytes, so a dst of exactly that size is
 * never overrun.
 *
 * utf8_to_latin1 error order ("first problem in input order wins",
 * kernels.h): at each position the sequence is decoded first. A malformed
 * sequence is DESERT_E_INVALID_UTF8; a well-formed one above U+00FF is
 * DESERT_E_NOT_LATIN1; only a convertible code point can hit
 * DESERT_E_DST_TOO_SMALL. *pos is the lead byte of the sequence concerned.
 */
#include <string.h>

#include "scalar/scalar.h"

#define DESERT_HI8 0x8080808080808080u

size_t desert_scalar_utf8_len_from_latin1(const uint8_t *src, size_t len) {
  size_t i = 0, extra = 0;
  for (; len - i >= 8; i += 8) {
    uint64_t w;
    memcpy(&w, src + i, 8);
    /* One 0/1 per byte, summed into the top byte by the multiply. */
    const uint64_t ones = (w >> 7) & 0x0101010101010101u;
    extra += (size_t)((ones * 0x0101010101010101u) >> 56);
  }
  for (; i < len; i++) extra += src[i] >> 7;
  return len + extra;
}

size_t desert_scalar_latin1_to_utf8(const uint8_t *src, size_t len, uint8_t *dst) {
  size_t i = 0, o = 0;
  while (i < len) {
    if (len - i >= 8) {
      uint64_t w;
      memcpy(&w, src + i, 8);
      if ((w & DESERT_HI8) == 0) {
        /* ASCII run: the output is at least as long as what remains of the
         * input, so these 8 bytes fit in dst. */
        memcpy(dst + o, &w, 8);
        i += 8;
        o += 8;
        continue;
      }
    }
    const uint32_t b = src[i++];
    if (b < 0x80u) {
      dst[o++] = (uint8_t)b;
    } else {
      dst[o] = (uint8_t)(0xc0u | (b >> 6));
      dst[o + 1] = (uint8_t)(0x80u | (b & 0x3fu));
      o += 2;
    }
  }
  return o;
}

/* Length of the well-formed UTF-8 sequence at src[i] (a byte >= 0x80), or 0
 * when none starts there. Only the length matters here: the code point is
 * needed only for the two Latin-1 leads, which the caller decodes itself. */
static inline size_t desert_utf8_seq_len(const uint8_t *src, size_t i, size_t len) {
  const uint32_t b0 = src[i];
  const size_t rem = len - i;
  if (b0 < 0xc2u) return 0;
  if (b0 < 0xe0u) return rem >= 2 && (src[i + 1] & 0xc0u) == 0x80u ? 2 : 0;
  if (b0 < 0xf0u) {
    if (rem < 3) return 0;
    const uint32_t b1 = src[i + 1];
    const uint32_t lo = b0 == 0xe0u ? 0xa0u : 0x80u;
    const uint32_t hi = b0 == 0xedu ? 0x9fu : 0xbfu;
    return b1 >= lo && b1 <= hi && (src[i + 2] & 0xc0u) == 0x80u ? 3 : 0;
  }
  if (b0 < 0xf5u) {
    if (rem < 4) return 0;
    const uint32_t b1 = src[i + 1];
    const uint32_t lo = b0 == 0xf0u ? 0x90u : 0x80u;
    const uint32_t hi = b0 == 0xf4u ? 0x8fu : 0xbfu;
    return b1 >= lo && b1 <= hi && (src[i + 2] & 0xc0u) == 0x80u && (src[i + 3] & 0xc0u) == 0x80u
               ? 4
               : 0;
  }
  return 0;
}

desert_status desert_scalar_utf8_to_latin1(const uint8_t *src, size_t len, uint8_t *dst,
                                           size_t dst_cap, size_t *written, size_t *pos) {
  size_t i = 0, o = 0;
  desert_status st = DESERT_OK;
  while (i < len) {
    if (len - i >= 8 && dst_cap - o >= 8) {
      uint64_t w;
      memcpy(&w, src + i, 8);
      if ((w & DESERT_HI8) == 0) {
        memcpy(dst + o, &w, 8);
        i += 8;
        o += 8;
        continue;
      }
    }
    const uint32_t b0 = src[i];
    uint32_t c;
    size_t l;
    if (b0 < 0x80u) {
      c = b0;
      l = 1;
    } else {
      l = desert_utf8_seq_len(src, i, len);
      if (l == 0) {
        st = DESERT_E_INVALID_UTF8;
        break;
      }
      if (l != 2 || b0 > 0xc3u) {
        st = DESERT_E_NOT_LATIN1;
        break;
      }
      c = ((b0 & 0x1fu) << 6) | (src[i + 1] & 0x3fu);
    }
    if (o == dst_cap) {
      st = DESERT_E_DST_TOO_SMALL;
      break;
    }
    dst[o++] = (uint8_t)c;
    i += l;
  }
  *written = o;
  *pos = st == DESERT_OK ? len : i;
  return st;
}
