/* src/x86/latin1_avx512.c — AVX-512 (BW + VBMI2) Latin-1 -> UTF-8 and
 * UTF-8 -> Latin-1.
 * SPDX-License-Identifier: MIT
 *
 * Latin-1 -> UTF-8: 64 ASCII bytes are copied with one store. Otherwise 32
 * bytes are widened to 16-bit lanes, each lane becomes its 1 or 2 UTF-8
 * bytes and one vpcompressb packs them (dz_utf8_from_u11, the same step as
 * UTF-16 -> UTF-8 below U+0800; after Clausecker & Lemire, "Transcoding
 * Unicode Characters with AVX-512 Instructions", 2023).
 *
 * UTF-8 -> Latin-1: 64-byte blocks. Latin-1 text holds only ASCII and the
 * pairs C2/C3 + 80..BF, so a block is valid exactly when it has no other
 * byte >= 0xC0 and its continuation bytes are the bytes right after its
 * leads (cont == lead << 1). A lead in the last byte is left for the next
 * block (the block consumes 63 bytes), so no block starts inside a pair.
 * Each lead becomes (lead << 6) | (next & 3F) in place (next: the block
 * loaded one byte later), and vpcompressb drops the continuation bytes.
 * Anything else (a byte >= 0xC4, C0/C1, a stray continuation, a pair cut
 * by the end of input) stops the SIMD part; the scalar kernel then
 * converts from the block's start (a character boundary) and reports the
 * exact status, *pos and *written, so the precedence rules are its own.
 *
 * Bounds: Latin-1 -> UTF-8 reads [i, i+64) / [i, i+32) while that many
 * bytes remain; UTF-8 -> Latin-1 reads [p, p+65) while len - p >= 65 and 64
 * bytes are free in dst. The last bytes are copied into a zeroed stack
 * block and converted the same way (for UTF-8 -> Latin-1 only when dst has
 * room for the whole result; else the scalar kernel). Every store is a
 * masked store of exactly the bytes produced, so the output may be sized
 * exactly and nothing after *written is touched.
 */
#include <string.h>

#include "scalar/scalar.h"
#include "x86/vec_avx512.h"
#include "x86/x86_kernels.h"

size_t desert_avx512_latin1_to_utf8(const uint8_t *src, size_t len, uint8_t *dst) {
  size_t i = 0, w = 0;
  while (len - i >= 64) {
    const __m512i in = dz_load(src + i);
    if (dz_hibits(in) == 0) {
      dz_store(dst + w, in);
      w += 64;
      i += 64;
      continue;
    }
    w += dz_utf8_from_u11(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(in)), 32, dst + w);
    w += dz_utf8_from_u11(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(in, 1)), 32, dst + w);
    i += 64;
  }
  const size_t n = len - i;
  if (n != 0) {
    _Alignas(64) uint8_t buf[64];
    memset(buf, 0, sizeof buf);
    memcpy(buf, src + i, n);
    const __m512i in = dz_load(buf);
    w += dz_utf8_from_u11(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(in)), n < 32 ? n : 32,
                          dst + w);
    if (n > 32)
      w +=
          dz_utf8_from_u11(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(in, 1)), n - 32, dst + w);
  }
  return w;
}

/* Converts bytes in[0..n) (n <= 64; nx = the bytes one further). `more`:
 * input continues after n (a lead in byte n-1 is then left for the next
 * block). Returns 0 if the block needs the scalar kernel (nothing
 * stored); else stores at d when *out (the byte count) <= room, sets
 * *used and returns 1. */
DZ_INLINE int dz_l1_block(__m512i in, __m512i nx, size_t n, int more, uint8_t *d, size_t room,
                          size_t *used, size_t *out) {
  uint64_t take = dz_low(n);
  const uint64_t hib = dz_hibits(in) & take;
  const uint64_t lead =
      (uint64_t)_mm512_cmpeq_epi8_mask(_mm512_and_si512(in, dz_set8(0xfe)), dz_set8(0xc2)) & take;
  const uint64_t cont = (uint64_t)_mm512_cmplt_epu8_mask(in, dz_set8(0xc0)) & hib;
  uint64_t l = lead;
  if (more && (lead >> (n - 1)) & 1u) { /* pair cut by the block end */
    n--;
    take = dz_low(n);
    l &= take;
  }
  if ((hib & ~lead & ~cont) != 0 || (l << 1) != cont || (more == 0 && (lead >> (n - 1)) & 1u))
    return 0;
  const uint64_t keep = take & ~cont;
  const size_t k = dz_pop64(keep);
  if (k > room) return 0;
  /* C2/C3 + c -> (lead & 3) << 6 | (c & 3F); the 16-bit shift moves each
   * byte's own low bits to its bits 6..7, which the 0xC0 select keeps. */
  const __m512i two = _mm512_ternarylogic_epi32(_mm512_slli_epi16(in, 6), nx, dz_set8(0xc0), 0xe4);
  const __m512i v = _mm512_mask_mov_epi8(in, (__mmask64)l, two);
  dz_store_n8(d, _mm512_maskz_compress_epi8((__mmask64)keep, v), k);
  *used = n;
  *out = k;
  return 1;
}

desert_status desert_avx512_utf8_to_latin1(const uint8_t *src, size_t len, uint8_t *dst,
                                           size_t dst_cap, size_t *written, size_t *pos) {
  size_t p = 0, w = 0, used, out;
  while (len - p >= 65 && dst_cap - w >= 64) {
    const __m512i in = dz_load(src + p);
    if (dz_hibits(in) == 0) {
      dz_store(dst + w, in);
      p += 64;
      w += 64;
      continue;
    }
    if (!dz_l1_block(in, dz_load(src + p + 1), 64, 1, dst + w, 64, &used, &out)) goto scalar;
    p += used;
    w += out;
  }
  if (len - p <= 64 && len > p) {
    _Alignas(64) uint8_t buf[128];
    memset(buf, 0, sizeof buf);
    memcpy(buf, src + p, len - p);
    if (dz_l1_block(dz_load(buf), dz_load(buf + 1), len - p, 0, dst + w, dst_cap - w, &used,
                    &out)) {
      *written = w + out;
      *pos = len;
      return DESERT_OK;
    }
  } else if (len == p) {
    *written = w;
    *pos = len;
    return DESERT_OK;
  }
scalar:;
  size_t wr, ps;
  const desert_status st =
      desert_scalar_utf8_to_latin1(src + p, len - p, dst + w, dst_cap - w, &wr, &ps);
  *written = w + wr;
  *pos = p + ps;
  return st;
}
