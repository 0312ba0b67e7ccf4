/* src/values/values_numbers.c — numeric values of docs/format.md §13.2–§13.4: durations
 * and instants, big integers (minimal two's complement byte blocks) with
 * exact decimal text conversion, big decimals (text and Rust binary form).
 * SPDX-License-Identifier: MIT
 *
 * The decimal conversions work in place inside the caller's buffer with
 * schoolbook arithmetic (base 256 against base 10^9 chunks), so they need
 * no allocator and are exact for any size: O(n^2) in the number of digits,
 * which is what the JSON layer's value sizes call for. */
#include "desert/values.h"
#include "core/reader_internal.h"
#include "core/writer_internal.h"

#define NANOS_PER_SECOND 1000000000u
#define TEN9             1000000000u /* decimal chunk of the text conversions */

/* ---- Duration / Instant ------------------------------------------------------ */

static desert_status write_secs_nanos(desert_writer *w, desert_duration v) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  if (v.nanos >= NANOS_PER_SECOND) return desert_w_fail(w, DESERT_E_ARGUMENT);
  uint8_t *p = desert_w_reserve(w, 12);
  if (!p) return w->status;
  desert_put_be64(p, (uint64_t)v.seconds);
  desert_put_be32(p + 8, v.nanos);
  desert_w_commit(w, 12);
  return DESERT_OK;
}

/* i64 seconds, u32 nanos; nanos >= 10^9 carry into the seconds (Rust
 * Duration::new, Java Duration.ofSeconds); a carry past INT64_MAX is an
 * invalid value at the first byte. */
static desert_status read_secs_nanos(desert_reader *r, desert_duration *out) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!out) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  size_t at = r->pos;
  const uint8_t *p = desert_r_take(r, 8);
  if (!p) return r->status;
  uint64_t su = desert_get_be64(p);
  p = desert_r_take(r, 4);
  if (!p) return r->status;
  uint32_t nanos = desert_get_be32(p);
  int64_t secs;
  memcpy(&secs, &su, sizeof secs);
  int64_t carry = (int64_t)(nanos / NANOS_PER_SECOND);
  if (secs > INT64_MAX - carry) return desert_r_fail(r, DESERT_E_INVALID_VALUE, at);
  out->seconds = secs + carry;
  out->nanos = nanos % NANOS_PER_SECOND;
  return DESERT_OK;
}

desert_status desert_write_duration(desert_writer *w, desert_duration v) {
  desert_w_live(w);
  return write_secs_nanos(w, v);
}
desert_status desert_read_duration(desert_reader *r, desert_duration *out) {
  return read_secs_nanos(r, out);
}
desert_status desert_write_instant(desert_writer *w, desert_duration v) {
  desert_w_live(w);
  return write_secs_nanos(w, v);
}
desert_status desert_read_instant(desert_reader *r, desert_duration *out) {
  return read_secs_nanos(r, out);
}

/* ---- BigInt ---------------------------------------------------------------------- */

/* Drops redundant sign-extension bytes of a two's complement big-endian
 * number (n >= 1); returns the index of the first byte kept. */
static size_t minimal_start(const uint8_t *b, size_t n) {
  size_t i = 0;
  while (i + 1 < n &&
         ((b[i] == 0x00 && !(b[i + 1] & 0x80u)) || (b[i] == 0xFF && (b[i + 1] & 0x80u))))
    i++;
  return i;
}

desert_status desert_write_bigint(desert_writer *w, const uint8_t *twos_be, size_t n) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  if (!twos_be || n == 0) return desert_w_fail(w, DESERT_E_ARGUMENT);
  size_t s = minimal_start(twos_be, n);
  return desert_write_bytes(w, twos_be + s, n - s);
}

desert_status desert_write_bigint_i64(desert_writer *w, int64_t v) {
  desert_w_live(w);
  uint8_t b[8];
  desert_put_be64(b, (uint64_t)v);
  return desert_write_bigint(w, b, sizeof b);
}

desert_status desert_read_bigint(desert_reader *r, desert_bytes *twos_be) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!twos_be) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  return desert_read_bytes(r, twos_be); /* empty block = 0 (Rust) */
}

desert_status desert_read_bigint_i64(desert_reader *r, int64_t *v) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!v) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  size_t at = r->pos;
  desert_bytes b;
  if (desert_read_bytes(r, &b)) return r->status;
  if (b.len == 0) {
    *v = 0;
    return DESERT_OK;
  }
  size_t s = minimal_start(b.ptr, b.len);
  if (b.len - s > 8) return desert_r_fail(r, DESERT_E_INVALID_VALUE, at);
  uint64_t u = (b.ptr[s] & 0x80u) ? UINT64_MAX : 0;
  for (size_t i = s; i < b.len; i++) u = (u << 8) | b.ptr[i];
  memcpy(v, &u, sizeof u);
  return DESERT_OK;
}

size_t desert_bigint_bytes_bound(size_t text_len) {
  /* log2(10)/8 < 0.42 bytes per digit, plus a sign byte and rounding. */
  return text_len / 2 + 2;
}

desert_status desert_bigint_from_decimal(const char *text, size_t len, uint8_t *out, size_t cap,
                                         size_t *n) {
  if (!text || !out || !n) return DESERT_E_ARGUMENT;
  size_t i = 0;
  bool neg = false;
  if (len > 0 && text[0] == '-') {
    neg = true;
    i = 1;
  }
  size_t digits = len - i;
  if (digits == 0) return DESERT_E_ARGUMENT;
  for (size_t k = i; k < len; k++)
    if (text[k] < '0' || text[k] > '9') return DESERT_E_ARGUMENT;
  /* -?(0|[1-9][0-9]*), and "-0" is not a canonical integer (docs/schema.md §11.2). */
  if (text[i] == '0' && (digits > 1 || neg)) return DESERT_E_ARGUMENT;
  if (cap < desert_bigint_bytes_bound(len)) return DESERT_E_DST_TOO_SMALL;

  /* Magnitude, big-endian, right-aligned in out[cap - m, cap). */
  size_t m = 0;
  uint8_t *end = out + cap;
  while (i < len) {
    size_t take = len - i < 9 ? len - i : 9;
    uint32_t mul = 1, add = 0;
    for (size_t k = 0; k < take; k++) {
      mul *= 10;
      add = add * 10 + (uint32_t)(text[i + k] - '0');
    }
    i += take;
    uint64_t carry = add;
    for (size_t k = 1; k <= m; k++) {
      uint64_t t = (uint64_t)end[-(ptrdiff_t)k] * mul + carry;
      end[-(ptrdiff_t)k] = (uint8_t)t;
      carry = t >> 8;
    }
    while (carry) {
      m++;
      end[-(ptrdiff_t)m] = (uint8_t)carry;
      carry >>= 8;
    }
  }
  if (m == 0) {
    out[0] = 0;
    *n = 1;
    return DESERT_OK;
  }
  uint8_t *mag = end - m;
  if (neg) {
    /* Two's complement over m bytes: invert and add one. */
    unsigned c = 1;
    for (size_t k = m; k-- > 0;) {
      unsigned t = (uint8_t)~mag[k] + c;
      mag[k] = (uint8_t)t;
      c = t >> 8;
    }
  }
  /* A sign byte is needed when the top bit disagrees with the sign (the
   * magnitude 2^(8m-1) of a negative number is already right: 0x80...). */
  size_t total = m;
  uint8_t sign = 0;
  bool need_sign = neg ? !(mag[0] & 0x80u) : (mag[0] & 0x80u) != 0;
  if (need_sign) {
    sign = neg ? 0xFF : 0x00;
    total++;
  }
  memmove(out + (need_sign ? 1 : 0), mag, m);
  if (need_sign) out[0] = sign;
  size_t s = minimal_start(out, total);
  if (s) memmove(out, out + s, total - s);
  *n = total - s;
  return DESERT_OK;
}

size_t desert_bigint_text_bound(size_t n) {
  /* 8*log10(2) < 2.41 digits per byte, plus a sign; the conversion also
   * keeps the magnitude (n bytes, rounded up to 32-bit limbs) at the front
   * of the buffer while the digits grow from the end. */
  if (n == 0) return 1;
  if (n > (SIZE_MAX - 8) / 4) return SIZE_MAX;
  return 4 * n + 8;
}

desert_status desert_bigint_to_decimal(const uint8_t *twos_be, size_t n, char *out, size_t cap,
                                       size_t *len) {
  if ((!twos_be && n) || !out || !len) return DESERT_E_ARGUMENT;
  if (cap < desert_bigint_text_bound(n)) return DESERT_E_DST_TOO_SMALL;
  if (n == 0) {
    out[0] = '0';
    *len = 1;
    return DESERT_OK;
  }
  bool neg = (twos_be[0] & 0x80u) != 0;
  /* Magnitude at the front of out as big-endian 32-bit limbs (zero padded
   * at the top to whole limbs); digits grow from the end. Dividing 32 bits
   * at a time by 10^9 (the remainder stays below 10^9, so rem << 32 | limb
   * fits in 64 bits) takes a quarter of the divisions of a byte-wise pass:
   * the conversion is still quadratic, and this keeps a maximal 64 KiB
   * value (docs/format.md §13.3 via the reader's limit) near a second. */
  const size_t pad = (4 - n % 4) % 4, limbs = (n + pad) / 4;
  uint8_t *mag = (uint8_t *)out;
  memset(mag, 0, pad);
  memcpy(mag + pad, twos_be, n);
  if (neg) {
    unsigned c = 1;
    for (size_t k = n + pad; k-- > pad;) {
      unsigned t = (uint8_t)~mag[k] + c;
      mag[k] = (uint8_t)t;
      c = t >> 8;
    }
  }
  size_t lo = 0; /* first non-zero limb */
  while (lo < limbs && desert_get_be32(mag + 4 * lo) == 0) lo++;
  char *d = out + cap; /* digits are written backwards from here */
  while (lo < limbs) {
    uint64_t rem = 0;
    for (size_t k = lo; k < limbs; k++) {
      uint64_t cur = (rem << 32) | desert_get_be32(mag + 4 * k);
      desert_put_be32(mag + 4 * k, (uint32_t)(cur / TEN9));
      rem = cur % TEN9;
    }
    while (lo < limbs && desert_get_be32(mag + 4 * lo) == 0) lo++;
    /* 9 digits of the chunk; only the last (most significant) one is
     * trimmed of leading zeros. */
    for (int k = 0; k < 9; k++) {
      if (lo >= limbs && rem == 0) break;
      *--d = (char)('0' + rem % 10);
      rem /= 10;
    }
  }
  if (d == out + cap) *--d = '0'; /* the value was 0 (e.g. "00 00") */
  size_t digits = (size_t)(out + cap - d);
  size_t o = 0;
  if (neg) out[o++] = '-';
  memmove(out + o, d, digits);
  *len = o + digits;
  return DESERT_OK;
}

/* ---- BigDecimal ---------------------------------------------------------------- */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* [+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)? */
static bool bigdecimal_text_ok(const char *s, size_t len) {
  size_t i = 0;
  if (i < len && (s[i] == '+' || s[i] == '-')) i++;
  size_t int_digits = 0, frac_digits = 0;
  while (i < len && is_digit(s[i])) {
    i++;
    int_digits++;
  }
  if (i < len && s[i] == '.') {
    i++;
    while (i < len && is_digit(s[i])) {
      i++;
      frac_digits++;
    }
  }
  if (int_digits == 0 && frac_digits == 0) return false;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < len && (s[i] == '+' || s[i] == '-')) i++;
    size_t exp_digits = 0;
    while (i < len && is_digit(s[i])) {
      i++;
      exp_digits++;
    }
    if (exp_digits == 0) return false;
  }
  return i == len;
}

desert_status desert_write_bigdecimal(desert_writer *w, const char *text, size_t len) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  if ((!text && len) || !bigdecimal_text_ok(text, len)) return desert_w_fail(w, DESERT_E_ARGUMENT);
  return desert_w_string_body(w, text, len); /* ASCII: valid UTF-8 */
}

desert_status desert_read_bigdecimal(desert_reader *r, desert_str *text) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!text) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  size_t at = r->pos;
  desert_str s;
  if (desert_read_string(r, &s)) return r->status;
  if (!bigdecimal_text_ok(s.ptr, s.len)) return desert_r_fail(r, DESERT_E_INVALID_VALUE, at);
  *text = s;
  return DESERT_OK;
}

desert_status desert_write_bigdecimal_binary(desert_writer *w, int64_t scale,
                                             const uint8_t *unscaled_twos_be, size_t n) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  if (!unscaled_twos_be || n == 0) return desert_w_fail(w, DESERT_E_ARGUMENT);
  size_t s = minimal_start(unscaled_twos_be, n);
  size_t m = n - s;
  if (m > UINT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  /* One reservation: scale, length, bytes. */
  size_t total = 8 + desert_var_u32_len((uint32_t)m) + m;
  uint8_t *p = NULL;
  desert_status st = desert_w_reserve_bulk(w, total, &p);
  if (st) return st;
  if (p) {
    desert_put_be64(p, (uint64_t)scale);
    size_t h = desert_put_var_u32(p + 8, (uint32_t)m);
    memcpy(p + 8 + h, unscaled_twos_be + s, m);
  }
  desert_w_commit(w, total);
  return DESERT_OK;
}

desert_status desert_read_bigdecimal_binary(desert_reader *r, int64_t *scale,
                                            desert_bytes *unscaled_twos_be) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!scale || !unscaled_twos_be) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  int64_t sc;
  desert_bytes b;
  if (desert_read_i64(r, &sc) || desert_read_bytes(r, &b)) return r->status;
  *scale = sc;
  *unscaled_twos_be = b;
  return DESERT_OK;
}
