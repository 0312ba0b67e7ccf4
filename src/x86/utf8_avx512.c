/* src/x86/utf8_avx512.c — AVX-512 (BW + VBMI) UTF-8 validation.
 * SPDX-License-Identifier: MIT
 *
 * Algorithm: Keiser & Lemire, "Validating UTF-8 In Less Than One
 * Instruction Per Byte" (Software: Practice and Experience, 2021), lookup
 * algorithm, the same tables as vec_avx2.h on 64-byte registers. The views
 * of the stream shifted by 1..3 bytes cross all four 128-bit lanes with one
 * vpermt2b each (index 64-N+k picks byte k-N of prev:in). ASCII blocks
 * (vpmovb2m == 0) only confirm that no sequence was left open.
 *
 * Bounds: the loop reads [p, p+64) while >= 64 bytes remain; the rest, from
 * the last character boundary, goes to the scalar kernel.
 *
 * Errors: a non-zero check (or an ASCII block after an open sequence) makes
 * the kernel step back to the character boundary before the block (at most
 * 3 bytes) and run the scalar kernel from there, which reports the exact
 * offset (simdutf's rewind approach).
 *
 * NOT RUN ON HARDWARE: the machine this was written on has no AVX-512; it
 * was tested only through SIMDe's portable emulation of the intrinsics.
 */
#include <immintrin.h>

#include "scalar/scalar.h"
#include "x86/x86_kernels.h"

#define DX5_TOO_SHORT      (1 << 0)
#define DX5_TOO_LONG       (1 << 1)
#define DX5_OVERLONG_3     (1 << 2)
#define DX5_TOO_LARGE      (1 << 3)
#define DX5_SURROGATE      (1 << 4)
#define DX5_OVERLONG_2     (1 << 5)
#define DX5_TOO_LARGE_1000 (1 << 6)
#define DX5_OVERLONG_4     (1 << 6)
#define DX5_TWO_CONTS      (1 << 7)
#define DX5_CARRY          (DX5_TOO_SHORT | DX5_TOO_LONG | DX5_TWO_CONTS)

#define DX5_C(x) ((char)(uint8_t)(x))
#define DX5_TABLE16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                                \
  _mm512_broadcast_i32x4(_mm_setr_epi8(DX5_C(a), DX5_C(b), DX5_C(c), DX5_C(d), DX5_C(e), DX5_C(f), \
                                       DX5_C(g), DX5_C(h), DX5_C(i), DX5_C(j), DX5_C(k), DX5_C(l), \
                                       DX5_C(m), DX5_C(n), DX5_C(o), DX5_C(p)))

static inline __m512i dx5_set8(unsigned b) { return _mm512_set1_epi8((char)(uint8_t)b); }

/* Index vector k + 64 - n: vpermt2b(prev, idx, in) = the stream shifted by
 * n bytes (byte k = stream byte k - n, reaching into prev for k < n). */
static inline __m512i dx5_shift_idx(int n) {
  return _mm512_add_epi8(_mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49,
                                         48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34,
                                         33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19,
                                         18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
                                         1, 0),
                         dx5_set8((unsigned)(64 - n)));
}

static inline __m512i dx5_check(__m512i in, __m512i prev) {
  const __m512i nib = dx5_set8(0x0f);
  const __m512i p1 = _mm512_permutex2var_epi8(prev, dx5_shift_idx(1), in);
  const __m512i p2 = _mm512_permutex2var_epi8(prev, dx5_shift_idx(2), in);
  const __m512i p3 = _mm512_permutex2var_epi8(prev, dx5_shift_idx(3), in);
  const __m512i b1h = _mm512_shuffle_epi8(
      DX5_TABLE16(DX5_TOO_LONG, DX5_TOO_LONG, DX5_TOO_LONG, DX5_TOO_LONG, DX5_TOO_LONG,
                  DX5_TOO_LONG, DX5_TOO_LONG, DX5_TOO_LONG, DX5_TWO_CONTS, DX5_TWO_CONTS,
                  DX5_TWO_CONTS, DX5_TWO_CONTS, DX5_TOO_SHORT | DX5_OVERLONG_2, DX5_TOO_SHORT,
                  DX5_TOO_SHORT | DX5_OVERLONG_3 | DX5_SURROGATE,
                  DX5_TOO_SHORT | DX5_TOO_LARGE | DX5_TOO_LARGE_1000 | DX5_OVERLONG_4),
      _mm512_and_si512(_mm512_srli_epi16(p1, 4), nib));
  const __m512i b1l = _mm512_shuffle_epi8(
      DX5_TABLE16(DX5_CARRY | DX5_OVERLONG_3 | DX5_OVERLONG_2 | DX5_OVERLONG_4,
                  DX5_CARRY | DX5_OVERLONG_2, DX5_CARRY, DX5_CARRY, DX5_CARRY | DX5_TOO_LARGE,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000 | DX5_SURROGATE,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000,
                  DX5_CARRY | DX5_TOO_LARGE | DX5_TOO_LARGE_1000),
      _mm512_and_si512(p1, nib));
  const __m512i b2h = _mm512_shuffle_epi8(
      DX5_TABLE16(DX5_TOO_SHORT, DX5_TOO_SHORT, DX5_TOO_SHORT, DX5_TOO_SHORT, DX5_TOO_SHORT,
                  DX5_TOO_SHORT, DX5_TOO_SHORT, DX5_TOO_SHORT,
                  DX5_TOO_LONG | DX5_OVERLONG_2 | DX5_TWO_CONTS | DX5_OVERLONG_3 |
                      DX5_TOO_LARGE_1000 | DX5_OVERLONG_4,
                  DX5_TOO_LONG | DX5_OVERLONG_2 | DX5_TWO_CONTS | DX5_OVERLONG_3 | DX5_TOO_LARGE,
                  DX5_TOO_LONG | DX5_OVERLONG_2 | DX5_TWO_CONTS | DX5_SURROGATE | DX5_TOO_LARGE,
                  DX5_TOO_LONG | DX5_OVERLONG_2 | DX5_TWO_CONTS | DX5_SURROGATE | DX5_TOO_LARGE,
                  DX5_TOO_SHORT, DX5_TOO_SHORT, DX5_TOO_SHORT, DX5_TOO_SHORT),
      _mm512_and_si512(_mm512_srli_epi16(in, 4), nib));
  const __m512i special = _mm512_and_si512(_mm512_and_si512(b1h, b1l), b2h);
  const __m512i third = _mm512_subs_epu8(p2, dx5_set8(0xe0 - 0x80));
  const __m512i fourth = _mm512_subs_epu8(p3, dx5_set8(0xf0 - 0x80));
  const __m512i must23 = _mm512_and_si512(_mm512_or_si512(third, fourth), dx5_set8(0x80));
  return _mm512_xor_si512(must23, special);
}

desert_status desert_avx512_utf8_validate(const uint8_t *src, size_t len, size_t *pos) {
  size_t p = 0;
  __m512i prev = _mm512_setzero_si512();
  /* a 2/3/4-byte lead in the last 1/2/3 bytes of a block is still open */
  const __m512i max =
      _mm512_set_epi8(DX5_C(0xc0 - 1), DX5_C(0xe0 - 1), DX5_C(0xf0 - 1), -1, -1, -1, -1, -1, -1, -1,
                      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  int open = 0;
  while (len - p >= 64) {
    const __m512i in = _mm512_loadu_si512((const void *)(src + p));
    if (_mm512_movepi8_mask(in) == 0) {
      if (open) break;
      prev = _mm512_setzero_si512();
      p += 64;
      continue;
    }
    const __m512i err = dx5_check(in, prev);
    if (_mm512_test_epi8_mask(err, err) != 0) break;
    const __m512i inc = _mm512_subs_epu8(in, max);
    open = _mm512_test_epi8_mask(inc, inc) != 0;
    prev = in;
    p += 64;
  }
  /* Error, open sequence before an ASCII block, or the end: back to the
   * last boundary (the last non-continuation byte among the 3 before p),
   * then the scalar kernel. */
  size_t q = p;
  for (size_t k = 1; k <= 3 && k <= p; k++) {
    if ((src[p - k] & 0xc0u) != 0x80u) {
      q = p - k;
      break;
    }
  }
  size_t r;
  const desert_status st = desert_scalar_utf8_validate(src + q, len - q, &r);
  *pos = q + r;
  return st;
}

/* Latin-1 -> UTF-8 size: len + bytes >= 0x80 (vpmovb2m + popcnt on 256
 * bytes per iteration; bounds: [i, i+256) while that many remain, the rest
 * by the AVX2 kernel). */
size_t desert_avx512_utf8_len_from_latin1(const uint8_t *src, size_t len) {
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
