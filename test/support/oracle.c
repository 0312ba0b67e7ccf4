/* test/support/oracle.c — the reference kernels tests compare against:
 * plain byte-at-a-time code, deliberately formulated differently from
 * src/scalar (generic decode-then-check instead of range tables, 64-bit
 * accumulators, signed arithmetic for zig-zag) so one mistake is unlikely
 * to be made twice.
 * SPDX-License-Identifier: MIT */
#include "oracle.h"

/* ---- byte swap ------------------------------------------------------------ */

void desert_oracle_bswap(void *dst, const void *src, size_t n, size_t width) {
  const uint8_t *s = (const uint8_t *)src;
  uint8_t *d = (uint8_t *)dst;
  for (size_t lane = 0; lane < n; lane++) {
    uint8_t tmp[8];
    for (size_t b = 0; b < width; b++) tmp[b] = s[lane * width + b];
    for (size_t b = 0; b < width; b++) d[lane * width + b] = tmp[width - 1 - b];
  }
}

/* ---- varints --------------------------------------------------------------- */

size_t desert_oracle_var_u32_len(uint32_t v) {
  size_t len = 1;
  while (v > 127) {
    v >>= 7;
    len++;
  }
  return len;
}

uint32_t desert_oracle_zigzag(int32_t v) {
  const int64_t x = v;
  return (uint32_t)(x >= 0 ? 2 * x : -2 * x - 1);
}

int32_t desert_oracle_unzigzag(uint32_t u) {
  const int64_t half = (int64_t)(u / 2);
  return (int32_t)(u % 2 == 0 ? half : -half - 1);
}

size_t desert_oracle_var_u32_encode(uint8_t *dst, const uint32_t *src, size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t v = src[i];
    for (;;) {
      const uint8_t group = (uint8_t)(v % 128);
      v /= 128;
      if (v == 0) {
        dst[o++] = group;
        break;
      }
      dst[o++] = (uint8_t)(group + 128);
    }
  }
  return o;
}

size_t desert_oracle_var_i32_encode(uint8_t *dst, const int32_t *src, size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    const uint32_t u = desert_oracle_zigzag(src[i]);
    o += desert_oracle_var_u32_encode(dst + o, &u, 1);
  }
  return o;
}

desert_status desert_oracle_var_u32_decode(const uint8_t *src, size_t src_len, uint32_t *dst,
                                           size_t n, size_t *consumed) {
  size_t i = 0;
  for (size_t k = 0; k < n; k++) {
    const size_t start = i;
    uint64_t acc = 0;
    for (unsigned byte_no = 1;; byte_no++) {
      if (i == src_len) {
        *consumed = start;
        return DESERT_E_INPUT_ENDED;
      }
      const uint8_t b = src[i++];
      acc += (uint64_t)(b % 128) << (7 * (byte_no - 1));
      if (b < 128) break;
      if (byte_no == 5) {
        *consumed = start;
        return DESERT_E_VARINT_TOO_LONG;
      }
    }
    dst[k] = (uint32_t)(acc & 0xffffffffu); /* drop payload bits 32..34 */
  }
  *consumed = i;
  return DESERT_OK;
}

desert_status desert_oracle_var_i32_decode(const uint8_t *src, size_t src_len, int32_t *dst,
                                           size_t n, size_t *consumed) {
  size_t i = 0;
  for (size_t k = 0; k < n; k++) {
    uint32_t u;
    size_t used;
    const desert_status st = desert_oracle_var_u32_decode(src + i, src_len - i, &u, 1, &used);
    if (st != DESERT_OK) {
      *consumed = i;
      return st;
    }
    dst[k] = desert_oracle_unzigzag(u);
    i += used;
  }
  *consumed = i;
  return DESERT_OK;
}

/* ---- UTF-8 ------------------------------------------------------------------- */

size_t desert_oracle_utf8_decode_one(const uint8_t *s, size_t avail, uint32_t *cp) {
  if (avail == 0) return 0;
  const uint8_t lead = s[0];
  size_t len;
  uint32_t value;
  uint32_t min;
  if (lead <= 0x7f) {
    *cp = lead;
    return 1;
  } else if (lead >= 0xc0 && lead <= 0xdf) {
    len = 2;
    value = lead & 0x1fu;
    min = 0x80;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    len = 3;
    value = lead & 0x0fu;
    min = 0x800;
  } else if (lead >= 0xf0 && lead <= 0xf7) {
    len = 4;
    value = lead & 0x07u;
    min = 0x10000;
  } else {
    return 0; /* a continuation byte or F8..FF */
  }
  if (avail < len) return 0;
  for (size_t k = 1; k < len; k++) {
    if (s[k] < 0x80 || s[k] > 0xbf) return 0;
    value = value * 64 + (s[k] & 0x3fu);
  }
  if (value < min) return 0;                        /* overlong */
  if (value >= 0xd800 && value <= 0xdfff) return 0; /* surrogate */
  if (value > 0x10ffff) return 0;                   /* beyond Unicode */
  *cp = value;
  return len;
}

size_t desert_oracle_utf8_encode_one(uint32_t cp, uint8_t out[4]) {
  if (cp < 0x80) {
    out[0] = (uint8_t)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (uint8_t)(0xc0 + cp / 64);
    out[1] = (uint8_t)(0x80 + cp % 64);
    return 2;
  }
  if (cp >= 0xd800 && cp <= 0xdfff) return 0;
  if (cp < 0x10000) {
    out[0] = (uint8_t)(0xe0 + cp / 4096);
    out[1] = (uint8_t)(0x80 + cp / 64 % 64);
    out[2] = (uint8_t)(0x80 + cp % 64);
    return 3;
  }
  if (cp <= 0x10ffff) {
    out[0] = (uint8_t)(0xf0 + cp / 262144);
    out[1] = (uint8_t)(0x80 + cp / 4096 % 64);
    out[2] = (uint8_t)(0x80 + cp / 64 % 64);
    out[3] = (uint8_t)(0x80 + cp % 64);
    return 4;
  }
  return 0;
}

desert_status desert_oracle_utf8_validate(const uint8_t *src, size_t len, size_t *pos) {
  size_t i = 0;
  while (i < len) {
    uint32_t cp;
    const size_t l = desert_oracle_utf8_decode_one(src + i, len - i, &cp);
    if (l == 0) {
      *pos = i;
      return DESERT_E_INVALID_UTF8;
    }
    i += l;
  }
  *pos = len;
  return DESERT_OK;
}

desert_status desert_oracle_utf16_len_from_utf8(const uint8_t *src, size_t len, size_t *out_len) {
  size_t i = 0, units = 0;
  while (i < len) {
    uint32_t cp;
    const size_t l = desert_oracle_utf8_decode_one(src + i, len - i, &cp);
    if (l == 0) {
      *out_len = i;
      return DESERT_E_INVALID_UTF8;
    }
    units += cp >= 0x10000 ? 2 : 1;
    i += l;
  }
  *out_len = units;
  return DESERT_OK;
}

desert_status desert_oracle_utf8_to_utf16(const uint8_t *src, size_t len, uint16_t *dst,
                                          size_t dst_cap, size_t *written, size_t *pos) {
  size_t i = 0, o = 0;
  while (i < len) {
    uint32_t cp;
    const size_t l = desert_oracle_utf8_decode_one(src + i, len - i, &cp);
    if (l == 0) {
      *written = o;
      *pos = i;
      return DESERT_E_INVALID_UTF8;
    }
    const size_t need = cp >= 0x10000 ? 2 : 1;
    if (o + need > dst_cap) {
      *written = o;
      *pos = i;
      return DESERT_E_DST_TOO_SMALL;
    }
    if (need == 1) {
      dst[o++] = (uint16_t)cp;
    } else {
      const uint32_t v = cp - 0x10000;
      dst[o++] = (uint16_t)(0xd800 + v / 1024);
      dst[o++] = (uint16_t)(0xdc00 + v % 1024);
    }
    i += l;
  }
  *written = o;
  *pos = len;
  return DESERT_OK;
}

/* ---- UTF-16 ------------------------------------------------------------------ */

/* One code point at s[0..avail): its unit count (1 or 2), or 0 for an
 * unpaired surrogate. */
static size_t desert_oracle_utf16_decode_one(const uint16_t *s, size_t avail, uint32_t *cp) {
  const uint16_t u = s[0];
  const int high = u >= 0xd800 && u <= 0xdbff;
  const int low = u >= 0xdc00 && u <= 0xdfff;
  if (!high && !low) {
    *cp = u;
    return 1;
  }
  if (low || avail < 2 || s[1] < 0xdc00 || s[1] > 0xdfff) return 0;
  *cp = 0x10000 + (uint32_t)(u - 0xd800) * 1024 + (uint32_t)(s[1] - 0xdc00);
  return 2;
}

desert_status desert_oracle_utf8_len_from_utf16(const uint16_t *src, size_t len, size_t *out_len) {
  size_t i = 0, bytes = 0;
  while (i < len) {
    uint32_t cp;
    const size_t l = desert_oracle_utf16_decode_one(src + i, len - i, &cp);
    if (l == 0) {
      *out_len = i;
      return DESERT_E_INVALID_UTF16;
    }
    uint8_t tmp[4];
    bytes += desert_oracle_utf8_encode_one(cp, tmp);
    i += l;
  }
  *out_len = bytes;
  return DESERT_OK;
}

desert_status desert_oracle_utf16_to_utf8(const uint16_t *src, size_t len, uint8_t *dst,
                                          size_t dst_cap, size_t *written, size_t *pos) {
  size_t i = 0, o = 0;
  while (i < len) {
    uint32_t cp;
    const size_t l = desert_oracle_utf16_decode_one(src + i, len - i, &cp);
    if (l == 0) {
      *written = o;
      *pos = i;
      return DESERT_E_INVALID_UTF16;
    }
    uint8_t tmp[4];
    const size_t need = desert_oracle_utf8_encode_one(cp, tmp);
    if (o + need > dst_cap) {
      *written = o;
      *pos = i;
      return DESERT_E_DST_TOO_SMALL;
    }
    for (size_t k = 0; k < need; k++) dst[o++] = tmp[k];
    i += l;
  }
  *written = o;
  *pos = len;
  return DESERT_OK;
}

/* ---- Latin-1 ------------------------------------------------------------------- */

size_t desert_oracle_utf8_len_from_latin1(const uint8_t *src, size_t len) {
  size_t bytes = 0;
  for (size_t i = 0; i < len; i++) {
    uint8_t tmp[4];
    bytes += desert_oracle_utf8_encode_one(src[i], tmp);
  }
  return bytes;
}

size_t desert_oracle_latin1_to_utf8(const uint8_t *src, size_t len, uint8_t *dst) {
  size_t o = 0;
  for (size_t i = 0; i < len; i++) {
    uint8_t tmp[4];
    const size_t l = desert_oracle_utf8_encode_one(src[i], tmp);
    for (size_t k = 0; k < l; k++) dst[o++] = tmp[k];
  }
  return o;
}

desert_status desert_oracle_utf8_to_latin1(const uint8_t *src, size_t len, uint8_t *dst,
                                           size_t dst_cap, size_t *written, size_t *pos) {
  size_t i = 0, o = 0;
  desert_status st = DESERT_OK;
  while (i < len) {
    uint32_t cp;
    const size_t l = desert_oracle_utf8_decode_one(src + i, len - i, &cp);
    if (l == 0) {
      st = DESERT_E_INVALID_UTF8;
      break;
    }
    if (cp > 0xff) {
      st = DESERT_E_NOT_LATIN1;
      break;
    }
    if (o == dst_cap) {
      st = DESERT_E_DST_TOO_SMALL;
      break;
    }
    dst[o++] = (uint8_t)cp;
    i += l;
  }
  *written = o;
  *pos = st == DESERT_OK ? len : i;
  return st;
}
