/* bench/bench_codec_util.c — helpers shared by the codec case files (see
 * bench_codec.h) and the list of case tables. The wire encoders here are
 * written from docs/format.md §2–§6 independently of the library, so expected
 * bytes do not come from the code under test.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_golden_gen.h"
#include "bench_golden_types.h"

size_t bench_codec_tables(codec_table *out, size_t max) {
  const codec_table all[] = {
      {bench_desert_cases, bench_desert_case_count},
      {bench_golden_types_cases, bench_golden_types_case_count},
#ifndef DESERT_BENCH_NO_GEN
      {bench_golden_gen_cases, bench_golden_gen_case_count},
#endif
      {bench_workload_cases, bench_workload_case_count},
      {bench_peer_cases, bench_peer_case_count},
  };
  size_t n = 0;
  for (size_t i = 0; i < sizeof all / sizeof all[0] && n < max; i++)
    if (all[i].count) out[n++] = all[i];
  return n;
}

int codec_fail(char *msg, size_t cap, const char *fmt, ...) {
  if (msg && cap) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
  }
  return 1;
}

int codec_check_bytes(const char *what, const uint8_t *got, size_t got_len, const uint8_t *want,
                      size_t want_len, char *msg, size_t cap) {
  if (!got) return codec_fail(msg, cap, "%s: no output", what);
  size_t n = got_len < want_len ? got_len : want_len;
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i])
      return codec_fail(msg, cap, "%s: byte %zu is %02x, expected %02x (length %zu, expected %zu)",
                        what, i, got[i], want[i], got_len, want_len);
  if (got_len != want_len)
    return codec_fail(msg, cap, "%s: %zu bytes, expected %zu", what, got_len, want_len);
  return 0;
}

void codec_options(desert_options *o, desert_isa isa, unsigned flags) {
  desert_options_init(o);
  o->isa = isa;
  o->flags |= flags;
}

uint64_t codec_mix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint8_t *codec_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : (size_t)1 << 16;
      uint8_t *nb = realloc(buf, ncap);
      if (!nb) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

size_t codec_put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
  return 4;
}

size_t codec_put_be64(uint8_t *p, uint64_t v) {
  codec_put_be32(p, (uint32_t)(v >> 32));
  codec_put_be32(p + 4, (uint32_t)v);
  return 8;
}

/* docs/format.md §3: little-endian base-128, 7 bits per byte, high bit = more. */
size_t codec_put_var_u32(uint8_t *p, uint32_t v) {
  size_t n = 0;
  while (v >= 0x80u) {
    p[n++] = (uint8_t)(v | 0x80u);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}

size_t codec_put_var_i32(uint8_t *p, int32_t v) {
  uint32_t u = (uint32_t)v;
  return codec_put_var_u32(p, (u << 1) ^ (uint32_t) - (int32_t)(u >> 31));
}

size_t codec_put_string(uint8_t *p, const char *s, size_t len) {
  size_t n = codec_put_var_i32(p, (int32_t)len);
  memcpy(p + n, s, len);
  return n + len;
}
