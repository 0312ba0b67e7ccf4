/* src/x86/vec_avx2.h — static inline AVX2 helpers shared by the kernels of
 * src/x86 (loads/stores, byte constants, the "previous bytes" views across
 * the two 128-bit lanes, and the Keiser & Lemire UTF-8 checker).
 * Internal; included only by files compiled with the AVX2 flags, so nothing
 * here can run before dispatch (everything is static inline).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_X86_VEC_AVX2_H
#define DESERT_X86_VEC_AVX2_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "x86/tables_x86.h"

#define DX_INLINE static inline __attribute__((always_inline))

/* ---- loads, stores, constants --------------------------------------------
 * Unaligned only; the casts go through void * so no alignment is implied. */
DX_INLINE __m256i dx_load(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
DX_INLINE __m128i dx_load128(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
DX_INLINE void dx_store(void *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }
DX_INLINE void dx_store128(void *p, __m128i v) { _mm_storeu_si128((__m128i *)p, v); }
DX_INLINE __m256i dx_set8(unsigned b) { return _mm256_set1_epi8((char)(uint8_t)b); }
DX_INLINE __m256i dx_set16(unsigned h) { return _mm256_set1_epi16((short)(uint16_t)h); }
DX_INLINE __m256i dx_set32(uint32_t w) { return _mm256_set1_epi32((int)w); }
DX_INLINE __m128i dx_set8x(unsigned b) { return _mm_set1_epi8((char)(uint8_t)b); }
DX_INLINE uint32_t dx_mask(__m256i v) { return (uint32_t)_mm256_movemask_epi8(v); }
DX_INLINE uint32_t dx_mask128(__m128i v) { return (uint32_t)_mm_movemask_epi8(v) & 0xffffu; }
DX_INLINE int dx_zero(__m256i v) { return _mm256_testz_si256(v, v); }
DX_INLINE unsigned dx_pop(uint32_t m) { return (unsigned)__builtin_popcount(m); }
/* The same value, opaque to the optimizer: a constant passed through this
 * before a loop stays in a register instead of being rebuilt (mov +
 * vpbroadcast) in every iteration, which GCC otherwise does under register
 * pressure. The empty asm emits no instruction. */
DX_INLINE __m256i dx_keep(__m256i v) {
  __asm__("" : "+x"(v));
  return v;
}
/* Two 128-bit halves into one register (lo in lane 0). */
DX_INLINE __m256i dx_pair(__m128i lo, __m128i hi) {
  return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}
/* Bytes >= 0xC0 or < 0x80 (not UTF-8 continuation bytes). */
DX_INLINE __m256i dx_noncont(__m256i v) { return _mm256_cmpgt_epi8(v, dx_set8(0xbf)); }

/* ---- views of the stream shifted by N bytes ------------------------------
 * Byte k of the result is byte k-N of the stream formed by prev (the 32
 * bytes before) and in. vpalignr works per 128-bit lane, so the lane
 * boundary is bridged with vperm2i128 (prev.hi, in.lo). */
DX_INLINE __m256i dx_prev1(__m256i in, __m256i prev) {
  return _mm256_alignr_epi8(in, _mm256_permute2x128_si256(prev, in, 0x21), 15);
}
DX_INLINE __m256i dx_prev2(__m256i in, __m256i prev) {
  return _mm256_alignr_epi8(in, _mm256_permute2x128_si256(prev, in, 0x21), 14);
}
DX_INLINE __m256i dx_prev3(__m256i in, __m256i prev) {
  return _mm256_alignr_epi8(in, _mm256_permute2x128_si256(prev, in, 0x21), 13);
}

/* ---- UTF-8 validation: Keiser & Lemire 2021, "lookup" algorithm ----------
 * ("Validating UTF-8 In Less Than One Instruction Per Byte", Software:
 * Practice and Experience 51(5); the tables follow simdjson/simdutf's
 * utf8_lookup4_algorithm.) Each byte is classified with the byte before it
 * by three 16-entry nibble lookups whose AND leaves the error bits of the
 * two-byte patterns; the bytes 2 and 3 after a 3/4-byte lead are checked
 * with saturating subtractions on the prev2/prev3 views. A non-zero result
 * means an error whose last byte is in `in` (or which needs `in` to be
 * seen). dx_u8_incomplete flags a 2/3/4-byte lead in the last 1/2/3 bytes,
 * which is an error only if no continuation follows (the next block must be
 * checked, or the caller rewinds). */
#define DX_TOO_SHORT      (1u << 0)
#define DX_TOO_LONG       (1u << 1)
#define DX_OVERLONG_3     (1u << 2)
#define DX_TOO_LARGE      (1u << 3)
#define DX_SURROGATE      (1u << 4)
#define DX_OVERLONG_2     (1u << 5)
#define DX_TOO_LARGE_1000 (1u << 6)
#define DX_OVERLONG_4     (1u << 6)
#define DX_TWO_CONTS      (1u << 7)
#define DX_CARRY          (DX_TOO_SHORT | DX_TOO_LONG | DX_TWO_CONTS)

#define DX_C(x) ((char)(uint8_t)(x))
#define DX_TABLE16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                         \
  _mm256_setr_epi8(DX_C(a), DX_C(b), DX_C(c), DX_C(d), DX_C(e), DX_C(f), DX_C(g), DX_C(h), \
                   DX_C(i), DX_C(j), DX_C(k), DX_C(l), DX_C(m), DX_C(n), DX_C(o), DX_C(p), \
                   DX_C(a), DX_C(b), DX_C(c), DX_C(d), DX_C(e), DX_C(f), DX_C(g), DX_C(h), \
                   DX_C(i), DX_C(j), DX_C(k), DX_C(l), DX_C(m), DX_C(n), DX_C(o), DX_C(p))

/* The three nibble tables (high nibble of the byte before, low nibble of
 * the byte before, high nibble of the byte), shared with vec_avx512.h. */
#define DX_U8_B1H                                                                              \
  DX_TOO_LONG, DX_TOO_LONG, DX_TOO_LONG, DX_TOO_LONG, DX_TOO_LONG, DX_TOO_LONG, DX_TOO_LONG,   \
      DX_TOO_LONG, DX_TWO_CONTS, DX_TWO_CONTS, DX_TWO_CONTS, DX_TWO_CONTS,                     \
      DX_TOO_SHORT | DX_OVERLONG_2, DX_TOO_SHORT, DX_TOO_SHORT | DX_OVERLONG_3 | DX_SURROGATE, \
      DX_TOO_SHORT | DX_TOO_LARGE | DX_TOO_LARGE_1000 | DX_OVERLONG_4
#define DX_U8_B1L                                                                               \
  DX_CARRY | DX_OVERLONG_3 | DX_OVERLONG_2 | DX_OVERLONG_4, DX_CARRY | DX_OVERLONG_2, DX_CARRY, \
      DX_CARRY, DX_CARRY | DX_TOO_LARGE, DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000,           \
      DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000, DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000, \
      DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000, DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000, \
      DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000, DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000, \
      DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000,                                              \
      DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000 | DX_SURROGATE,                               \
      DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000, DX_CARRY | DX_TOO_LARGE | DX_TOO_LARGE_1000
#define DX_U8_B2H                                                                             \
  DX_TOO_SHORT, DX_TOO_SHORT, DX_TOO_SHORT, DX_TOO_SHORT, DX_TOO_SHORT, DX_TOO_SHORT,         \
      DX_TOO_SHORT, DX_TOO_SHORT,                                                             \
      DX_TOO_LONG | DX_OVERLONG_2 | DX_TWO_CONTS | DX_OVERLONG_3 | DX_TOO_LARGE_1000 |        \
          DX_OVERLONG_4,                                                                      \
      DX_TOO_LONG | DX_OVERLONG_2 | DX_TWO_CONTS | DX_OVERLONG_3 | DX_TOO_LARGE,              \
      DX_TOO_LONG | DX_OVERLONG_2 | DX_TWO_CONTS | DX_SURROGATE | DX_TOO_LARGE,               \
      DX_TOO_LONG | DX_OVERLONG_2 | DX_TWO_CONTS | DX_SURROGATE | DX_TOO_LARGE, DX_TOO_SHORT, \
      DX_TOO_SHORT, DX_TOO_SHORT, DX_TOO_SHORT
/* m(list): expands the list into 16 arguments first */
#define DX_APPLY(m, ...) m(__VA_ARGS__)

DX_INLINE __m256i dx_u8_check(__m256i in, __m256i prev) {
  const __m256i nib = dx_set8(0x0f);
  const __m256i p1 = dx_prev1(in, prev);
  const __m256i b1h = _mm256_shuffle_epi8(DX_APPLY(DX_TABLE16, DX_U8_B1H),
                                          _mm256_and_si256(_mm256_srli_epi16(p1, 4), nib));
  const __m256i b1l =
      _mm256_shuffle_epi8(DX_APPLY(DX_TABLE16, DX_U8_B1L), _mm256_and_si256(p1, nib));
  const __m256i b2h = _mm256_shuffle_epi8(DX_APPLY(DX_TABLE16, DX_U8_B2H),
                                          _mm256_and_si256(_mm256_srli_epi16(in, 4), nib));
  const __m256i special = _mm256_and_si256(_mm256_and_si256(b1h, b1l), b2h);
  /* Bytes 2 and 3 after a 3- or 4-byte lead must be continuations: only
   * 111_____ survives "- 0x60" with bit 7 set, only 1111____ "- 0x70". */
  const __m256i third = _mm256_subs_epu8(dx_prev2(in, prev), dx_set8(0xe0 - 0x80));
  const __m256i fourth = _mm256_subs_epu8(dx_prev3(in, prev), dx_set8(0xf0 - 0x80));
  const __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth), dx_set8(0x80));
  return _mm256_xor_si256(must23, special);
}

/* Non-zero iff the last three bytes of in hold a lead whose sequence does
 * not end in in (1111____ in byte 29, 111_____ in 30, 11______ in 31). */
DX_INLINE __m256i dx_u8_incomplete(__m256i in) {
  const __m256i max = _mm256_setr_epi8(
      DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff),
      DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff),
      DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff),
      DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff), DX_C(0xff),
      DX_C(0xff), DX_C(0xf0 - 1), DX_C(0xe0 - 1), DX_C(0xc0 - 1));
  return _mm256_subs_epu8(in, max);
}

/* ---- UTF-8 character boundaries -------------------------------------------
 * Rewind rule shared by every UTF-8 kernel (the SIMD part has checked
 * [0, p) except for sequences still open at p): the last byte in [p-3, p)
 * that is not a continuation byte starts the only sequence that may be open
 * at p, so decoding can restart there; if all three are continuation bytes
 * they end a 4-byte sequence (longer runs were errors already) and p itself
 * is a boundary. */
DX_INLINE size_t dx_u8_back(const uint8_t *src, size_t p) {
  for (size_t k = 1; k <= 3 && k <= p; k++)
    if ((src[p - k] & 0xc0u) != 0x80u) return p - k;
  return p;
}

/* End of a chunk handed to the scalar kernel: the first non-continuation
 * byte at or after m (checked up to m+3), else m+4, capped at len. Every
 * sequence of the input that starts before the result also ends before it,
 * or is malformed the same way whether or not the bytes after it are seen,
 * so the scalar kernel on [q, end) reports exactly what it would report on
 * [q, len) for anything inside the chunk. */
DX_INLINE size_t dx_u8_chunk_end(const uint8_t *src, size_t len, size_t m) {
  size_t e = m;
  while (e < len && e < m + 4 && (src[e] & 0xc0u) == 0x80u) e++;
  return e < len ? e : len;
}

#endif /* DESERT_X86_VEC_AVX2_H */
