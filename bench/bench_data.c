/* bench/bench_data.c — deterministic benchmark inputs (see bench_data.h).
 * A splitmix64 stream per (kind, variant) keeps every run identical.
 * SPDX-License-Identifier: MIT */
#include "bench_data.h"

#include <string.h>

static uint64_t mix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

const char *bench_text_name(bench_text_kind k) {
  static const char *const names[] = {"ascii", "latin1", "2byte", "cjk", "emoji", "mixed"};
  return (unsigned)k < BENCH_TEXT_COUNT_ ? names[k] : "?";
}

const char *bench_varint_name(bench_varint_kind k) {
  static const char *const names[] = {"1byte", "desert", "uniform_len", "uniform32"};
  return (unsigned)k < BENCH_VARINT_COUNT_ ? names[k] : "?";
}

static size_t put_utf8(uint8_t *d, uint32_t cp) {
  if (cp < 0x80u) {
    d[0] = (uint8_t)cp;
    return 1;
  }
  if (cp < 0x800u) {
    d[0] = (uint8_t)(0xC0u | (cp >> 6));
    d[1] = (uint8_t)(0x80u | (cp & 0x3Fu));
    return 2;
  }
  if (cp < 0x10000u) {
    d[0] = (uint8_t)(0xE0u | (cp >> 12));
    d[1] = (uint8_t)(0x80u | ((cp >> 6) & 0x3Fu));
    d[2] = (uint8_t)(0x80u | (cp & 0x3Fu));
    return 3;
  }
  d[0] = (uint8_t)(0xF0u | (cp >> 18));
  d[1] = (uint8_t)(0x80u | ((cp >> 12) & 0x3Fu));
  d[2] = (uint8_t)(0x80u | ((cp >> 6) & 0x3Fu));
  d[3] = (uint8_t)(0x80u | (cp & 0x3Fu));
  return 4;
}

/* One code point of the kind; spaces and punctuation keep text realistic. */
static uint32_t next_cp(bench_text_kind k, uint64_t *s) {
  uint64_t r = mix(s);
  unsigned pick = (unsigned)(r % 100u);
  uint32_t v = (uint32_t)(r >> 32);
  if (k == BENCH_TEXT_MIXED) k = (bench_text_kind)(v % 5u);
  switch (k) {
  case BENCH_TEXT_ASCII:
    return pick < 15 ? ' ' : 'a' + v % 26u;
  case BENCH_TEXT_LATIN1:
    if (pick < 15) return ' ';
    if (pick < 25) return 0xE0u + v % 32u; /* accented letters */
    return 'a' + v % 26u;
  case BENCH_TEXT_TWO_BYTE:
    if (pick < 12) return ' ';
    if (pick < 55) return 0x430u + v % 32u; /* Cyrillic */
    return 0x3B1u + v % 24u;               /* Greek */
  case BENCH_TEXT_CJK:
    if (pick < 5) return 0x3002u; /* ideographic full stop */
    return 0x4E00u + v % 0x5000u;
  case BENCH_TEXT_EMOJI:
    if (pick < 10) return ' ';
    if (pick < 30) return 'a' + v % 26u;
    return 0x1F600u + v % 80u;
  default:
    return 'x';
  }
}

void bench_make_text(bench_text_kind k, unsigned variant, uint8_t *dst, size_t cap, size_t *len) {
  uint64_t s = 0x1234u + (uint64_t)k * 1000003u + variant * 7919u;
  size_t n = 0;
  uint8_t tmp[4];
  for (;;) {
    size_t m = put_utf8(tmp, next_cp(k, &s));
    if (n + m > cap) break;
    memcpy(dst + n, tmp, m);
    n += m;
  }
  /* Pad with ASCII so every buffer has exactly its nominal size. */
  while (n < cap) dst[n++] = 'a';
  *len = n;
}

void bench_make_varints(bench_varint_kind k, unsigned variant, uint32_t *dst, size_t n) {
  uint64_t s = 0xABCDu + (uint64_t)k * 1000003u + variant * 7919u;
  for (size_t i = 0; i < n; i++) {
    uint64_t r = mix(&s);
    uint32_t v = (uint32_t)r;
    unsigned pick = (unsigned)((r >> 32) % 100u);
    switch (k) {
    case BENCH_VARINT_ONE_BYTE:
      dst[i] = v & 0x7Fu;
      break;
    case BENCH_VARINT_DESERT: /* ~70% 1 byte, ~25% 2 bytes, ~5% 3 bytes */
      dst[i] = pick < 70 ? v % 128u : pick < 95 ? 128u + v % 16000u : 16384u + v % 2000000u;
      break;
    case BENCH_VARINT_UNIFORM_LEN: {
      unsigned len = 1u + (unsigned)((r >> 40) % 5u);
      uint32_t lo = len == 1 ? 0 : 1u << (7 * (len - 1));
      uint32_t span = len == 5 ? 0xFFFFFFFFu - lo : (1u << (7 * len)) - lo;
      dst[i] = lo + v % span;
      break;
    }
    default:
      dst[i] = v;
      break;
    }
  }
}

void bench_make_bytes(unsigned variant, uint8_t *dst, size_t n) {
  uint64_t s = 0x5151u + variant * 7919u;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t r = mix(&s);
    size_t m = n - i < 8 ? n - i : 8;
    memcpy(dst + i, &r, m);
  }
}
