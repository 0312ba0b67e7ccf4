/* src/x86/utf8_avx512.c — AVX-512 (BW + VBMI) UTF-8 validation and the
 * UTF-8 size of Latin-1 text.
 * SPDX-License-Identifier: MIT
 *
 * Algorithm: Keiser & Lemire, "Validating UTF-8 In Less Than One
 * Instruction Per Byte" (Software: Practice and Experience, 2021), lookup
 * algorithm (dz_u8_check in vec_avx512.h) on 64-byte blocks, two blocks
 * (128 bytes) per loop test. The views of the stream shifted by 1..3 bytes
 * come from one lane rotation (valignq: the 16 bytes before each 128-bit
 * lane) and three in-lane vpalignr, as simdjson does, rather than three
 * cross-lane byte permutes (vpermt2b, the costlier shuffle on the AVX-512
 * units we know; measured in bench/results).
 *
 * ASCII: a 128-byte pair without a byte >= 0x80 is checked only if the
 * block before it held non-ASCII bytes ("dirty"): the full check of its
 * first block against that one then catches a sequence left open (an ASCII
 * byte where a continuation is due), so no per-block "still open" mask is
 * computed on the non-ASCII path. Then an ASCII sprint from a 64-byte
 * address boundary ORs 256 bytes per test with 32-byte loads (measured
 * faster on long ASCII input than 64-byte loads; bench/results).
 *
 * Bounds: the loop reads [p, p+128) while >= 128 bytes remain (the sprint
 * [q, q+256) while >= 256 remain, q in (p+64, p+128]), then one block
 * [p, p+64) if >= 64 remain. The tail (< 64 bytes) is one zero-masked
 * load of exactly its bytes (AVX-512 masked loads do not touch, nor fault
 * on, the masked-out bytes); the zero after the last byte makes a sequence cut by the end of
 * input fail the check (TOO_SHORT). With no tail, a zero block checked
 * after a dirty last block does the same.
 *
 * Errors: a failing check makes the kernel step back to the character
 * boundary before the block pair (at most 3 bytes) and run the scalar
 * kernel from there, which reports the exact offset (simdutf's rewind
 * approach).
 */
#include "scalar/scalar.h"
#include "x86/vec_avx2.h"
#include "x86/vec_avx512.h"
#include "x86/x86_kernels.h"

/* DZ_LANES_BEFORE(in, prev): the 16 bytes before each 128-bit lane of in
 * (prev's lane 3, in's lanes 0..2). DZ_ALIGNR8(hi, lo, n): vpalignr, per
 * lane the bytes n..n+15 of lo:hi. SIMDe 0.7.4 has neither 512-bit form:
 * the emulated table computes the same values from a qword permute and
 * 256-bit halves. */
#if defined(DESERT_AVX512_VIA_SIMDE) && DESERT_AVX512_VIA_SIMDE
#define DZ_LANES_BEFORE(in, prev) \
  _mm512_permutex2var_epi64((prev), _mm512_set_epi64(13, 12, 11, 10, 9, 8, 7, 6), (in))
#define DZ_ALIGNR8(hi, lo, n)                                                                   \
  _mm512_inserti64x4(                                                                           \
      _mm512_castsi256_si512(                                                                   \
          _mm256_alignr_epi8(_mm512_castsi512_si256(hi), _mm512_castsi512_si256(lo), (n))),     \
      _mm256_alignr_epi8(_mm512_extracti64x4_epi64((hi), 1), _mm512_extracti64x4_epi64((lo), 1), \
                         (n)),                                                                  \
      1)
#else
#define DZ_LANES_BEFORE(in, prev) _mm512_alignr_epi64((in), (prev), 6)
#define DZ_ALIGNR8(hi, lo, n) _mm512_alignr_epi8((hi), (lo), (n))
#endif

/* dz_u8_check of in after prev (the 64 stream bytes before it): each
 * shifted view is one in-lane vpalignr of in against the bytes before its
 * lanes. */
DZ_INLINE __m512i dz_check_after(__m512i in, __m512i prev) {
  const __m512i before = DZ_LANES_BEFORE(in, prev);
  return dz_u8_check(in, DZ_ALIGNR8(in, before, 15), DZ_ALIGNR8(in, before, 14),
                     DZ_ALIGNR8(in, before, 13));
}

DZ_INLINE int dz_any(__m512i v) { return _mm512_test_epi8_mask(v, v) != 0; }

/* The kernel for inputs of at least 64 bytes (see desert_avx512_utf8_validate). */
__attribute__((noinline)) static desert_status dz_validate_long(const uint8_t *src, size_t len,
                                                                size_t *pos) {
  size_t p = 0;
  __m512i prev = _mm512_setzero_si512(); /* the 64 bytes before p (zeros: ASCII) */
  int dirty = 0;                         /* prev holds a byte >= 0x80 */
  while (len - p >= 128) {
    const __m512i a = dz_load(src + p), b = dz_load(src + p + 64);
    if (dz_hibits(_mm512_or_si512(a, b)) == 0) {
      if (dirty && dz_any(dz_check_after(a, prev))) goto rewind;
      /* The sprint starts on a 64-byte address boundary in (p+64,
       * p+128] (the bytes before it are ASCII already): whole-line loads, and the
       * blocks after it stay aligned. */
      size_t q = p + 128 - ((uintptr_t)(src + p) & 63u);
      while (len - q >= 256) {
        const __m256i o = _mm256_or_si256(
            _mm256_or_si256(_mm256_or_si256(dx_load(src + q), dx_load(src + q + 32)),
                            _mm256_or_si256(dx_load(src + q + 64), dx_load(src + q + 96))),
            _mm256_or_si256(_mm256_or_si256(dx_load(src + q + 128), dx_load(src + q + 160)),
                            _mm256_or_si256(dx_load(src + q + 192), dx_load(src + q + 224))));
        if (dx_mask(o) != 0) break;
        q += 256;
      }
      p = q;
      prev = _mm512_setzero_si512(); /* as good as the ASCII bytes before p */
      dirty = 0;
      continue;
    }
    if (dz_any(_mm512_or_si512(dz_check_after(a, prev), dz_check_after(b, a)))) goto rewind;
    prev = b;
    dirty = 1;
    p += 128;
  }
  if (len - p >= 64) {
    const __m512i a = dz_load(src + p);
    if (dz_hibits(a) != 0) {
      if (dz_any(dz_check_after(a, prev))) goto rewind;
      dirty = 1;
    } else {
      if (dirty && dz_any(dz_check_after(a, prev))) goto rewind;
      dirty = 0;
    }
    prev = a;
    p += 64;
  }
  {
    const size_t n = len - p; /* 0..63 */
    const __m512i in = _mm512_maskz_loadu_epi8((__mmask64)dz_low(n), src + p);
    if (!dirty && dz_hibits(in) == 0) goto valid;
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
   * message) goes to the AVX2 kernel, whose 32-byte and 8-byte ASCII tail
   * measured faster on such strings than a full 64-byte block. Same
   * results by the kernel contract, and this table may call AVX2. The
   * long kernel is a separate function so that this test is all a short
   * string pays: inlined, its frame was set up before the test. */
  if (len < 64) return desert_avx2_utf8_validate(src, len, pos);
  return dz_validate_long(src, len, pos);
}

/* Latin-1 -> UTF-8 size: len + bytes >= 0x80 (vpmovb2m + popcnt on 256
 * bytes per iteration; bounds: [i, i+256) while that many remain, the rest
 * by the AVX2 kernel). */
size_t desert_avx512_utf8_len_from_latin1(const uint8_t *src, size_t len) {
  /* a tail call: the loop below would not run, and the AVX2 kernel
   * measured faster on such inputs */
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
