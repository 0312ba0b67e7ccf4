/* src/x86/vec_avx512.h — static inline AVX-512 (F/BW/VL/VBMI/VBMI2) helpers
 * shared by the *_avx512.c kernels: loads/stores, constants, the Keiser &
 * Lemire UTF-8 checker on 64-byte registers, the "sequence still open at
 * the end of the block" mask and the packing of 16-bit units below U+0800
 * into UTF-8 bytes.
 * Internal; included only by files compiled with the AVX-512 flags, so
 * nothing here can run before dispatch (everything is static inline).
 *
 * Intrinsics the UTF/Latin-1 kernels (utf8_avx512.c, utf8_to_utf16_avx512.c,
 * utf16_avx512.c, latin1_avx512.c) use that SIMDe 0.7.4 does not provide
 * (an emulated build needs shims; checked by compiling them against
 * <simde/x86/avx512.h> with native aliases and no ISA flags):
 * _mm512_maskz_compress_epi8 (VBMI2), _mm512_mask_storeu_epi8,
 * _mm512_mask_storeu_epi16, _mm512_cvtepu8_epi16, _mm512_cvtepu16_epi32,
 * _mm512_cvtepi32_ps, _mm512_cmplt_epu16_mask, _mm512_cmplt_epu32_mask,
 * _mm512_mask_cmplt_epu16_mask, _mm512_mask_cmpeq_epi16_mask,
 * _mm512_maskz_srlv_epi32, and the mask types __mmask16/32/64 (SIMDe
 * names them simde__mmask*). A masked store writes only the selected
 * bytes (architecturally; a shim must store element by element, not
 * load-blend-store the whole vector, or it would touch memory past the
 * output).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_X86_VEC_AVX512_H
#define DESERT_X86_VEC_AVX512_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "x86/vec_avx2.h"

#define DZ_INLINE static inline __attribute__((always_inline))

DZ_INLINE __m512i dz_load(const void *p) { return _mm512_loadu_si512(p); }
DZ_INLINE void dz_store(void *p, __m512i v) { _mm512_storeu_si512(p, v); }
DZ_INLINE __m512i dz_set8(unsigned b) { return _mm512_set1_epi8((char)(uint8_t)b); }
DZ_INLINE __m512i dz_set16(unsigned h) { return _mm512_set1_epi16((short)(uint16_t)h); }
DZ_INLINE __m512i dz_set32(uint32_t w) { return _mm512_set1_epi32((int)w); }
DZ_INLINE uint64_t dz_hibits(__m512i v) { return (uint64_t)_mm512_movepi8_mask(v); }
DZ_INLINE size_t dz_pop64(uint64_t m) { return (size_t)__builtin_popcountll(m); }
/* Low n bits set, n in 0..64. */
DZ_INLINE uint64_t dz_low(size_t n) { return n >= 64 ? ~0ull : (1ull << n) - 1u; }

/* Stores the low n bytes / 16-bit units of v at p (n <= 64 / 32): a masked
 * store, which touches nothing after them. */
DZ_INLINE void dz_store_n8(void *p, __m512i v, size_t n) {
  _mm512_mask_storeu_epi8(p, (__mmask64)dz_low(n), v);
}
DZ_INLINE void dz_store_n16(void *p, __m512i v, size_t n) {
  _mm512_mask_storeu_epi16(p, (__mmask32)dz_low(n), v);
}

/* The stream shifted by n bytes (1..3): byte k = stream byte k - n, where
 * the stream is prev (the 64 bytes before) followed by in. One vpermt2b
 * with the index k + 64 - n. */
DZ_INLINE __m512i dz_shift_idx(unsigned n) {
  const __m512i k = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
                                    47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
                                    31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                                    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  return _mm512_add_epi8(k, dz_set8(64u - n));
}
DZ_INLINE __m512i dz_prev(__m512i in, __m512i prev, unsigned n) {
  return _mm512_permutex2var_epi8(prev, dz_shift_idx(n), in);
}

/* ---- UTF-8 validation: Keiser & Lemire 2021, "lookup" algorithm ----------
 * (the tables of dx_u8_check in vec_avx2.h, on 64-byte registers).
 * p1/p2/p3 are the stream shifted by 1/2/3 bytes. Non-zero bytes mark an
 * error whose last byte is in `in` (a lead left open at the end of `in` is
 * not one: see dz_u8_open). */
#define DZ_TABLE16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                           \
  _mm512_broadcast_i32x4(_mm_setr_epi8(DX_C(a), DX_C(b), DX_C(c), DX_C(d), DX_C(e), DX_C(f), \
                                       DX_C(g), DX_C(h), DX_C(i), DX_C(j), DX_C(k), DX_C(l), \
                                       DX_C(m), DX_C(n), DX_C(o), DX_C(p)))

DZ_INLINE __m512i dz_u8_check(__m512i in, __m512i p1, __m512i p2, __m512i p3) {
  const __m512i nib = dz_set8(0x0f);
  const __m512i b1h = _mm512_shuffle_epi8(DX_APPLY(DZ_TABLE16, DX_U8_B1H),
                                          _mm512_and_si512(_mm512_srli_epi16(p1, 4), nib));
  const __m512i b1l =
      _mm512_shuffle_epi8(DX_APPLY(DZ_TABLE16, DX_U8_B1L), _mm512_and_si512(p1, nib));
  const __m512i b2h = _mm512_shuffle_epi8(DX_APPLY(DZ_TABLE16, DX_U8_B2H),
                                          _mm512_and_si512(_mm512_srli_epi16(in, 4), nib));
  /* Bytes 2 and 3 after a 3- or 4-byte lead must be continuations: only
   * 111_____ survives "- 0x60" with bit 7 set, only 1111____ "- 0x70". */
  const __m512i third = _mm512_subs_epu8(p2, dz_set8(0xe0 - 0x80));
  const __m512i fourth = _mm512_subs_epu8(p3, dz_set8(0xf0 - 0x80));
  /* (b1h & b1l & b2h) ^ ((third | fourth) & 0x80) in two ternary ops */
  const __m512i special = _mm512_ternarylogic_epi32(b1h, b1l, b2h, 0x80);
  const __m512i must23 = _mm512_ternarylogic_epi32(third, fourth, dz_set8(0x80), 0xa8);
  return _mm512_xor_si512(must23, special);
}

/* Mask of the leads in the last three bytes of in whose sequence does not
 * end in in (1111____ in byte 61, 111_____ in 62, 11______ in 63). */
DZ_INLINE uint64_t dz_u8_open(__m512i in) {
  const __m512i max =
      _mm512_set_epi8(DX_C(0xc0 - 1), DX_C(0xe0 - 1), DX_C(0xf0 - 1), -1, -1, -1, -1, -1, -1, -1,
                      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m512i inc = _mm512_subs_epu8(in, max);
  return (uint64_t)_mm512_test_epi8_mask(inc, inc);
}

/* ---- UTF-8 encoding of units below U+0800 --------------------------------
 * u: 32 units < 0x800 in 16-bit lanes (n of them taken, n <= 32). Each lane
 * becomes the bytes (u) for ASCII or (C0|u>>6, 80|u&3F); one vpcompressb
 * packs the kept bytes of the first n lanes to the front of the result
 * (zeros after them); *count = their number. The low byte of a lane is
 * always kept, the high byte when it is a continuation byte (bit 7 set:
 * an ASCII lane's high byte is 0), so the keep mask is one vpmovb2m. */
DZ_INLINE __m512i dz_u11_pack(__m512i u, size_t n, size_t *count) {
  const __mmask32 two = _mm512_cmpge_epu16_mask(u, dz_set16(0x80));
  /* two-byte form: low byte C0 | u >> 6, high byte 80 | (u & 3F) */
  const __m512i lead = _mm512_or_si512(_mm512_srli_epi16(u, 6), dz_set16(0x80c0));
  const __m512i cont = _mm512_slli_epi16(_mm512_and_si512(u, dz_set16(0x3f)), 8);
  const __m512i v = _mm512_mask_mov_epi16(u, two, _mm512_or_si512(lead, cont));
  const uint64_t keep =
      ((uint64_t)_mm512_movepi8_mask(v) | 0x5555555555555555ull) & dz_low(2 * n);
  *count = dz_pop64(keep);
  return _mm512_maskz_compress_epi8((__mmask64)keep, v);
}

/* dz_u11_pack, storing exactly the produced bytes at d (a masked store:
 * nothing after them is touched). Returns their number. */
DZ_INLINE size_t dz_utf8_from_u11(__m512i u, size_t n, uint8_t *d) {
  size_t count;
  const __m512i b = dz_u11_pack(u, n, &count);
  dz_store_n8(d, b, count);
  return count;
}

#endif /* DESERT_X86_VEC_AVX512_H */
