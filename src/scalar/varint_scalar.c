/* src/scalar/varint_scalar.c — scalar var_u32 / var_i32 (zig-zag) run
 * encoders and decoders (docs/format.md §3, strict Rust rule).
 * SPDX-License-Identifier: MIT
 *
 * Algorithm: LEB128 limited to 5 bytes, one value at a time. Decoding has
 * three paths:
 *  - eight values at once when the next 8 bytes all have a clear top bit
 *    (runs of small values are the common case: lengths, ids, counts);
 *  - an unrolled decoder without bounds checks while at least 5 bytes
 *    remain, because a value never spans more than 5 bytes;
 *  - a bounds-checked byte loop for the last 4 bytes of the input.
 * Encoding branches on the value's size class and stores the exact bytes.
 *
 * Bounds: the 8-byte path runs only when 8 bytes remain and 8 values are
 * still wanted; the unrolled path reads at most p[0..4] and runs only when
 * src_len - i >= 5; the checked loop tests i < src_len before every read.
 * The encoder writes exactly the encoded length of each value, so a dst
 * sized with the exact total (not 5*n) is never overrun.
 *
 * Errors (kernels.h): a continuation bit on the 5th byte is
 * DESERT_E_VARINT_TOO_LONG; input ending inside a value is
 * DESERT_E_INPUT_ENDED. Either way *consumed is the offset where the failing
 * value starts and dst[0..k) holds the values decoded before it. Payload
 * bits of the 5th byte that fall above bit 31 are discarded by the 32-bit
 * shift; overlong forms are accepted.
 */
#include <string.h>

#include "scalar/scalar.h"

/* Zig-zag without implementation-defined conversions: the signed -> unsigned
 * cast is modular by definition, and the sign mask avoids shifting a
 * negative number. */
static inline uint32_t desert_zigzag_encode(int32_t v) {
  return ((uint32_t)v << 1) ^ (v < 0 ? 0xffffffffu : 0u);
}

static inline int32_t desert_zigzag_decode(uint32_t u) {
  uint32_t x = (u >> 1) ^ (0u - (u & 1u));
  /* Unsigned -> signed for values above INT32_MAX is implementation-defined;
   * this form is exact and compiles to nothing. */
  return x <= 0x7fffffffu ? (int32_t)x : (int32_t)(x - 0x80000000u) - 0x7fffffff - 1;
}

static inline size_t desert_put_var(uint8_t *d, uint32_t v) {
  if (v < (1u << 7)) {
    d[0] = (uint8_t)v;
    return 1;
  }
  if (v < (1u << 14)) {
    d[0] = (uint8_t)(v | 0x80u);
    d[1] = (uint8_t)(v >> 7);
    return 2;
  }
  if (v < (1u << 21)) {
    d[0] = (uint8_t)(v | 0x80u);
    d[1] = (uint8_t)((v >> 7) | 0x80u);
    d[2] = (uint8_t)(v >> 14);
    return 3;
  }
  if (v < (1u << 28)) {
    d[0] = (uint8_t)(v | 0x80u);
    d[1] = (uint8_t)((v >> 7) | 0x80u);
    d[2] = (uint8_t)((v >> 14) | 0x80u);
    d[3] = (uint8_t)(v >> 21);
    return 4;
  }
  d[0] = (uint8_t)(v | 0x80u);
  d[1] = (uint8_t)((v >> 7) | 0x80u);
  d[2] = (uint8_t)((v >> 14) | 0x80u);
  d[3] = (uint8_t)((v >> 21) | 0x80u);
  d[4] = (uint8_t)(v >> 28);
  return 5;
}

size_t desert_scalar_var_u32_encode(uint8_t *dst, const uint32_t *src, size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) o += desert_put_var(dst + o, src[i]);
  return o;
}

size_t desert_scalar_var_i32_encode(uint8_t *dst, const int32_t *src, size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) o += desert_put_var(dst + o, desert_zigzag_encode(src[i]));
  return o;
}

/* Decodes one value at p with at least 5 readable bytes. Returns its length
 * (1..5), or 0 when the 5th byte carries a continuation bit. */
static inline size_t desert_get_var5(const uint8_t *p, uint32_t *out) {
  uint32_t b = p[0];
  uint32_t v = b & 0x7fu;
  if (b < 0x80u) {
    *out = v;
    return 1;
  }
  b = p[1];
  v |= (b & 0x7fu) << 7;
  if (b < 0x80u) {
    *out = v;
    return 2;
  }
  b = p[2];
  v |= (b & 0x7fu) << 14;
  if (b < 0x80u) {
    *out = v;
    return 3;
  }
  b = p[3];
  v |= (b & 0x7fu) << 21;
  if (b < 0x80u) {
    *out = v;
    return 4;
  }
  b = p[4];
  if (b >= 0x80u) return 0;
  v |= b << 28; /* bits 4..6 of the 5th byte fall off the top: ignored */
  *out = v;
  return 5;
}

/* Decodes one value at src[i..len) with fewer than 5 bytes left (or any
 * amount: every read is checked). Returns the length, 0 for input ended. */
static inline size_t desert_get_var_checked(const uint8_t *src, size_t i, size_t len,
                                            uint32_t *out) {
  uint32_t v = 0;
  for (unsigned k = 0; k < 5; k++) {
    if (i + k >= len) return 0;
    uint32_t b = src[i + k];
    v |= (b & 0x7fu) << (7u * k);
    if (b < 0x80u) {
      *out = v;
      return (size_t)k + 1;
    }
  }
  /* Five bytes, all with continuation bits: only reachable when the caller
   * has >= 5 bytes, which it handles with desert_get_var5. */
  return 0;
}

/* Shared decoder; zz selects zig-zag. Written once with a flag rather than
 * twice, the flag is a constant at each inlined call site. */
static inline desert_status desert_var_decode(const uint8_t *src, size_t src_len, uint32_t *du,
                                              int32_t *di, size_t n, size_t *consumed, int zz) {
  size_t i = 0; /* input offset */
  size_t k = 0; /* values produced */
  while (k < n) {
    /* Eight one-byte values at once. */
    if (n - k >= 8 && src_len - i >= 8) {
      uint64_t w;
      memcpy(&w, src + i, 8);
      if ((w & 0x8080808080808080u) == 0) {
        for (unsigned j = 0; j < 8; j++) {
          uint32_t b = src[i + j];
          if (zz)
            di[k + j] = desert_zigzag_decode(b);
          else
            du[k + j] = b;
        }
        i += 8;
        k += 8;
        continue;
      }
    }
    uint32_t v;
    size_t l;
    if (src_len - i >= 5) {
      l = desert_get_var5(src + i, &v);
      if (l == 0) {
        *consumed = i;
        return DESERT_E_VARINT_TOO_LONG;
      }
    } else {
      l = desert_get_var_checked(src, i, src_len, &v);
      if (l == 0) {
        *consumed = i;
        return DESERT_E_INPUT_ENDED;
      }
    }
    if (zz)
      di[k] = desert_zigzag_decode(v);
    else
      du[k] = v;
    i += l;
    k++;
  }
  *consumed = i;
  return DESERT_OK;
}

desert_status desert_scalar_var_u32_decode(const uint8_t *src, size_t src_len, uint32_t *dst,
                                           size_t n, size_t *consumed) {
  return desert_var_decode(src, src_len, dst, NULL, n, consumed, 0);
}

desert_status desert_scalar_var_i32_decode(const uint8_t *src, size_t src_len, int32_t *dst,
                                           size_t n, size_t *consumed) {
  return desert_var_decode(src, src_len, NULL, dst, n, consumed, 1);
}
