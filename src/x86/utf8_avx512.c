/* src/x86/utf8_avx512.c — AVX-512 (BW + VBMI) UTF-8 validation and the
 * UTF-8 size of Latin-1 text.
 * SPDX-License-Identifier: MIT
 *
 * Algorithm: Keiser & Lemire, "Validating UTF-8 In Less Than One
 * Instruction Per Byte" (Software: Practice and Experience, 2021), lookup
 * algorithm (dz_u8_check in vec_avx512.h) on 64-byte blocks. The views of
 * the stream shifted by 1..3 bytes cross all four 128-bit lanes with one
 * vpermt2b each. ASCII blocks only confirm that no sequence was left open,
 * then an ASCII sprint ORs four blocks (256 bytes) per test.
 *
 * Bounds: the loop reads [p, p+64) while >= 64 bytes remain (the sprint
 * [q, q+256) while >= 256 remain). The tail (< 64 bytes) is checked as one
 * more block: if the input has >= 64 bytes, an ASCII tail is recognised on
 * the last 64 input bytes [len-64, len) (only the tail's top bits count);
 * otherwise it is copied into a zeroed 64-byte stack block. The zero after
 * the copied bytes makes a sequence cut by the end of input fail the check
 * (TOO_SHORT), so no separate "still open" test is needed there.
 *
 * Errors: a failing check (or an ASCII block after an open sequence) makes
 * the kernel step back to the character boundary before the block (at most
 * 3 bytes) and run the scalar kernel from there, which reports the exact
 * offset (simdutf's rewind approach).
 */
#include <string.h>

#include "scalar/scalar.h"
#include "x86/vec_avx2.h"
#include "x86/vec_avx512.h"
#include "x86/x86_kernels.h"

DZ_INLINE __m512i dz_check_after(__m512i in, __m512i prev) {
  return dz_u8_check(in, dz_prev(in, prev, 1), dz_prev(in, prev, 2), dz_prev(in, prev, 3));
}

DZ_INLINE int dz_any(__m512i v) { return _mm512_test_epi8_mask(v, v) != 0; }

/* The kernel for inputs of at least 64 bytes (see desert_avx512_utf8_validate). */
__attribute__((noinline)) static desert_status dz_validate_long(const uint8_t *src, size_t len,
                                                                size_t *pos) {
  size_t p = 0;
  __m512i prev = _mm512_setzero_si512();
  uint64_t open = 0; /* a sequence is open at p */
  while (len - p >= 64) {
    const __m512i in = dz_load(src + p);
    if (dz_hibits(in) == 0) {
      if (open) goto rewind;
      size_t q = p + 64;
      while (len - q >= 256) {
        const __m512i o =
            _mm512_ternarylogic_epi32(_mm512_or_si512(dz_load(src + q), dz_load(src + q + 64)),
                                      dz_load(src + q + 128), dz_load(src + q + 192), 0xfe);
        if (dz_hibits(o) != 0) break;
        q += 256;
      }
      p = q;
      prev = _mm512_setzero_si512(); /* as good as the ASCII bytes before p */
      continue;
    }
    if (dz_any(dz_check_after(in, prev))) goto rewind;
    open = dz_u8_open(in);
    prev = in;
    p += 64;
  }
  {
    const size_t n = len - p; /* 0..63 */
    if (n == 0) {
      if (!open) goto valid;
      goto rewind;
    }
    if (!open && len >= 64 && (dz_hibits(dz_load(src + len - 64)) >> (64 - n)) == 0) goto valid;
    _Alignas(64) uint8_t buf[64];
    memset(buf, 0, sizeof buf);
    memcpy(buf, src + p, n);
    const __m512i in = dz_load(buf);
    if (!open && dz_hibits(in) == 0) goto valid;
    if (!dz_any(dz_check_after(in, prev))) goto valid;
  }
rewind:;
  {
    const size_t q = dx_u8_back(src, p);
    size_t r;
    const desert_status st = desert_scalar_utf8_validate(src + q, len - q, &r);
    *pos = q + r;
    return st;
  }
valid:
  *pos = len;
  return DESERT_OK;
}

desert_status desert_avx512_utf8_validate(const uint8_t *src, size_t len, size_t *pos) {
  /* A whole input shorter than one 64-byte block (most strings of a
   * message) would go through the zeroed stack copy of dz_validate_long,
   * whose 64-byte load waits on the byte stores: a 43-byte ASCII string
   * took 12 ns that way against 6.5 ns in the AVX2 kernel's 32-byte and
   * 8-byte ASCII tail (bench c04_str_de_heap, AMD EPYC Zen 5). Same results
   * by the kernel contract, and this table may call AVX2. The long kernel
   * is a separate function so that this test is all a short string pays:
   * inlined, its 64-byte aligned stack frame was set up before the test
   * (golden decode + encode: every one of its strings is shorter). */
  if (len < 64) return desert_avx2_utf8_validate(src, len, pos);
  return dz_validate_long(src, len, pos);
}

/* Latin-1 -> UTF-8 size: len + bytes >= 0x80 (vpmovb2m + popcnt on 256
 * bytes per iteration; bounds: [i, i+256) while that many remain, the rest
 * by the AVX2 kernel). */
size_t desert_avx512_utf8_len_from_latin1(const uint8_t *src, size_t len) {
  /* a tail call: the loop below would not run (64 bytes: 5.7 ns against
   * 4.2 ns in AVX2, AMD EPYC Zen 5) */
  if (len < 256) return desert_avx2_utf8_len_from_latin1(src, len);
  size_t i = 0, extra = 0;
  for (; len - i >= 256; i += 256) {
    extra += (size_t)__builtin_popcountll(
                 _mm512_movepi8_mask(_mm512_loadu_si512((const void *)(src + i)))) +
             (size_t)__builtin_popcountll(
                 _mm512_movepi8_mask(_mm512_loadu_si512((const void *)(src + i + 64)))) +
             (size_t)__builtin_popcountll(
                 _mm512_movepi8_mask(_mm512_loadu_si512((const void *)(src + i + 128)))) +
             (size_t)__builtin_popcountll(
                 _mm512_movepi8_mask(_mm512_loadu_si512((const void *)(src + i + 192))));
  }
  return i + extra + desert_avx2_utf8_len_from_latin1(src + i, len - i);
}
