/* src/scalar/utf16_scalar.c — scalar UTF-8 length of UTF-16 text and
 * UTF-16 -> UTF-8 conversion (host-order units).
 * SPDX-License-Identifier: MIT
 *
 * Algorithm: one code point at a time; a high surrogate (D800..DBFF) must
 * be followed by a low surrogate (DC00..DFFF), and any other surrogate is
 * unpaired. Runs of ASCII are handled four units at a time with one 64-bit
 * load (memcpy, so the load has no alignment requirement beyond the
 * uint16_t pointer's own).
 *
 * Bounds: the word path runs only when at least 4 units remain (and, for
 * conversion, 4 bytes of output room); the unit after a high surrogate is
 * read only when i + 1 < len; each code point's bytes are stored only after
 * checking dst_cap. Nothing outside [src, src+len) or [dst, dst+dst_cap) is
 * touched.
 *
 * Errors: DESERT_E_INVALID_UTF16 with the unit offset of the unpaired
 * surrogate (a high surrogate as the last unit is unpaired). In
 * utf16_to_utf8 the code point at the current position is checked first,
 * so an unpaired surrogate at the position where the output is full reports
 * INVALID_UTF16; DST_TOO_SMALL is reported at the first valid code point
 * that does not fit, and later input is not examined.
 */
#include <string.h>

#include "scalar/scalar.h"

#define DESERT_HI16X4 0xff80ff80ff80ff80u /* any unit >= 0x80 */

desert_status desert_scalar_utf8_len_from_utf16(const uint16_t *src, size_t len, size_t *out_len) {
  size_t i = 0, bytes = 0;
  while (i < len) {
    if (len - i >= 4) {
      uint64_t w;
      memcpy(&w, src + i, 8);
      if ((w & DESERT_HI16X4) == 0) {
        i += 4;
        bytes += 4;
        continue;
      }
    }
    const uint32_t u = src[i];
    if (u < 0x80u) {
      bytes += 1;
    } else if (u < 0x800u) {
      bytes += 2;
    } else if ((u & 0xf800u) != 0xd800u) {
      bytes += 3;
    } else if (u <= 0xdbffu && i + 1 < len && (src[i + 1] & 0xfc00u) == 0xdc00u) {
      bytes += 4;
      i++;
    } else {
      *out_len = i;
      return DESERT_E_INVALID_UTF16;
    }
    i++;
  }
  *out_len = bytes;
  return DESERT_OK;
}

desert_status desert_scalar_utf16_to_utf8(const uint16_t *src, size_t len, uint8_t *dst,
                                          size_t dst_cap, size_t *written, size_t *pos) {
  size_t i = 0, o = 0;
  desert_status st = DESERT_OK;
  while (i < len) {
    if (len - i >= 4 && dst_cap - o >= 4) {
      uint64_t w;
      memcpy(&w, src + i, 8);
      if ((w & DESERT_HI16X4) == 0) {
        dst[o] = (uint8_t)src[i];
        dst[o + 1] = (uint8_t)src[i + 1];
        dst[o + 2] = (uint8_t)src[i + 2];
        dst[o + 3] = (uint8_t)src[i + 3];
        i += 4;
        o += 4;
        continue;
      }
    }
    const uint32_t u = src[i];
    if (u < 0x80u) {
      if (o == dst_cap) {
        st = DESERT_E_DST_TOO_SMALL;
        break;
      }
      dst[o++] = (uint8_t)u;
      i++;
    } else if (u < 0x800u) {
      if (dst_cap - o < 2) {
        st = DESERT_E_DST_TOO_SMALL;
        break;
      }
      dst[o] = (uint8_t)(0xc0u | (u >> 6));
      dst[o + 1] = (uint8_t)(0x80u | (u & 0x3fu));
      o += 2;
      i++;
    } else if ((u & 0xf800u) != 0xd800u) {
      if (dst_cap - o < 3) {
        st = DESERT_E_DST_TOO_SMALL;
        break;
      }
      dst[o] = (uint8_t)(0xe0u | (u >> 12));
      dst[o + 1] = (uint8_t)(0x80u | ((u >> 6) & 0x3fu));
      dst[o + 2] = (uint8_t)(0x80u | (u & 0x3fu));
      o += 3;
      i++;
    } else if (u <= 0xdbffu && i + 1 < len && (src[i + 1] & 0xfc00u) == 0xdc00u) {
      if (dst_cap - o < 4) {
        st = DESERT_E_DST_TOO_SMALL;
        break;
      }
      const uint32_t cp = 0x10000u + ((u - 0xd800u) << 10) + ((uint32_t)src[i + 1] - 0xdc00u);
      dst[o] = (uint8_t)(0xf0u | (cp >> 18));
      dst[o + 1] = (uint8_t)(0x80u | ((cp >> 12) & 0x3fu));
      dst[o + 2] = (uint8_t)(0x80u | ((cp >> 6) & 0x3fu));
      dst[o + 3] = (uint8_t)(0x80u | (cp & 0x3fu));
      o += 4;
      i += 2;
    } else {
      st = DESERT_E_INVALID_UTF16;
      break;
    }
  }
  *written = o;
  *pos = st == DESERT_OK ? len : i;
  return st;
}
