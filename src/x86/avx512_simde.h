/* src/x86/avx512_simde.h — prelude of the emulated AVX-512 table: every
 * AVX-512 file of src/x86 (name ending in _avx512.c) is compiled a second
 * time (cmake/DesertIsa.cmake, DESERT_AVX512_EMULATION) through a generated
 * wrapper that includes this header first and then the kernel file. Tests only: the result is the
 * table "avx512emu", never chosen automatically, which lets every AVX2
 * machine check the AVX-512 kernels' results against the oracle.
 * SPDX-License-Identifier: MIT
 *
 * What it does:
 *  - SIMDe 0.7.4 (Debian 12) with native aliases: _mm512_* names and the
 *    __m512i type become SIMDe's portable versions. The files keep the AVX2
 *    flags, so SIMDe builds the 512-bit operations from real AVX2 ones, and
 *    the kernels' own AVX2 code (vec_avx2.h, desert_avx2_* tails) is native.
 *    The emulated table therefore requires AVX2 (kernels_avx512.c).
 *  - "desert_avx512emu_names.h", generated at build time from the sources,
 *    renames every desert_*avx512* identifier to its *avx512emu* twin, so
 *    both copies link into one library.
 *  - Shims for the intrinsics SIMDe 0.7.4 lacks or gets wrong, written
 *    from Intel's definitions as plain loops (slow, exact): the VBMI2
 *    byte/word compress and expand, byte-masked loads and stores, a few
 *    AVX-512F conversions, vpmaddwd's alias, vpmultishiftqb and
 *    wrap-around lane addition and subtraction. A masked-off
 *    byte is never read or written, as in hardware (kernels rely on it at
 *    buffer ends). A kernel that uses another missing intrinsic fails to
 *    compile here ("target specific option mismatch"): add its shim below.
 */
#ifndef DESERT_X86_AVX512_SIMDE_H
#define DESERT_X86_AVX512_SIMDE_H

#if !defined(DESERT_AVX512_VIA_SIMDE) || !DESERT_AVX512_VIA_SIMDE
#error "avx512_simde.h is only for the emulated AVX-512 build"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef SIMDE_ENABLE_NATIVE_ALIASES
#define SIMDE_ENABLE_NATIVE_ALIASES
#endif
#include <simde/x86/avx512.h>

#include <immintrin.h>

/* Passing 64-byte vectors by value without -mavx512f is what emulation
 * means; the ABI note is about that and is harmless inside one TU. SIMDe's
 * portable loops also carry vectorize pragmas clang may not honour. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

#include "desert_avx512emu_names.h"

#define DESERT_EMU_INLINE static inline __attribute__((unused))

typedef union desert_emu_v512 {
  simde__m512i v;
  uint8_t b[64];
} desert_emu_v512;

/* SIMDe 0.7.4 defines this alias with the four parameters of the masked
 * form; the plain two-operand intrinsic is what kernels call. */
#undef _mm512_madd_epi16
#define _mm512_madd_epi16(a, b) simde_mm512_madd_epi16((a), (b))

/* Lane-wise add and subtract wrap around in hardware; SIMDe 0.7.4 computes
 * them on signed lanes, which UBSan reports as overflow. Unsigned lanes. */
#define DESERT_EMU_ARITH(name, lanes, op)                                           \
  DESERT_EMU_INLINE simde__m512i desert_emu_##name(simde__m512i a, simde__m512i b) { \
    simde__m512i_private x = simde__m512i_to_private(a), y = simde__m512i_to_private(b), r; \
    for (size_t j = 0; j < sizeof r.lanes / sizeof r.lanes[0]; j++)                 \
      r.lanes[j] = (__typeof__(r.lanes[0]))(x.lanes[j] op y.lanes[j]);              \
    return simde__m512i_from_private(r);                                             \
  }
DESERT_EMU_ARITH(add8, u8, +)
DESERT_EMU_ARITH(sub8, u8, -)
DESERT_EMU_ARITH(add16, u16, +)
DESERT_EMU_ARITH(sub16, u16, -)
DESERT_EMU_ARITH(add32, u32, +)
DESERT_EMU_ARITH(sub32, u32, -)
DESERT_EMU_ARITH(add64, u64, +)
DESERT_EMU_ARITH(sub64, u64, -)
#undef DESERT_EMU_ARITH
#undef _mm512_add_epi8
#undef _mm512_sub_epi8
#undef _mm512_add_epi16
#undef _mm512_sub_epi16
#undef _mm512_add_epi32
#undef _mm512_sub_epi32
#undef _mm512_add_epi64
#undef _mm512_sub_epi64
#define _mm512_add_epi8(a, b) desert_emu_add8((a), (b))
#define _mm512_sub_epi8(a, b) desert_emu_sub8((a), (b))
#define _mm512_add_epi16(a, b) desert_emu_add16((a), (b))
#define _mm512_sub_epi16(a, b) desert_emu_sub16((a), (b))
#define _mm512_add_epi32(a, b) desert_emu_add32((a), (b))
#define _mm512_sub_epi32(a, b) desert_emu_sub32((a), (b))
#define _mm512_add_epi64(a, b) desert_emu_add64((a), (b))
#define _mm512_sub_epi64(a, b) desert_emu_sub64((a), (b))

/* vpmultishiftqb: byte j of each qword of b rotated right by the low 6 bits
 * of control byte j of a. SIMDe 0.7.4 shifts a 64-bit value by 64 for a
 * control of 0 (undefined behaviour, reported by UBSan). */
DESERT_EMU_INLINE simde__m512i desert_emu_multishift(simde__m512i a, simde__m512i b) {
  desert_emu_v512 c, r;
  uint64_t q[8];
  c.v = a;
  simde_mm512_storeu_si512(q, b);
  for (unsigned j = 0; j < 64; j++) {
    const unsigned s = c.b[j] & 63u;
    r.b[j] = (uint8_t)((q[j / 8] >> s) | (q[j / 8] << ((64u - s) & 63u)));
  }
  return r.v;
}
#undef _mm512_multishift_epi64_epi8
#define _mm512_multishift_epi64_epi8(a, b) desert_emu_multishift((a), (b))

/* ---- VBMI2 compress / expand (bytes and words) ---------------------------- */

/* Compress (expand = 0: the selected elements of a, packed to the front)
 * or expand (1: the front elements of a, placed at the selected positions)
 * over elements of `size` bytes (1 or 2); unselected positions keep src. */
DESERT_EMU_INLINE simde__m512i desert_emu_pack(simde__m512i src, uint64_t k, simde__m512i a,
                                               unsigned size, int expand) {
  desert_emu_v512 x, r;
  x.v = a;
  r.v = src;
  unsigned o = 0;
  for (unsigned j = 0; j < 64 / size; j++) {
    if (!((k >> j) & 1u)) continue;
    if (expand)
      memcpy(&r.b[j * size], &x.b[o * size], size);
    else
      memcpy(&r.b[o * size], &x.b[j * size], size);
    o++;
  }
  return r.v;
}

#undef _mm512_mask_compress_epi8
#undef _mm512_maskz_compress_epi8
#undef _mm512_mask_compress_epi16
#undef _mm512_maskz_compress_epi16
#undef _mm512_mask_expand_epi8
#undef _mm512_maskz_expand_epi8
#undef _mm512_mask_expand_epi16
#undef _mm512_maskz_expand_epi16
#define DESERT_EMU_Z simde_mm512_setzero_si512()
#define _mm512_mask_compress_epi8(src, k, a) desert_emu_pack((src), (uint64_t)(k), (a), 1, 0)
#define _mm512_maskz_compress_epi8(k, a) desert_emu_pack(DESERT_EMU_Z, (uint64_t)(k), (a), 1, 0)
#define _mm512_mask_compress_epi16(src, k, a) \
  desert_emu_pack((src), (uint32_t)(k), (a), 2, 0)
#define _mm512_maskz_compress_epi16(k, a) desert_emu_pack(DESERT_EMU_Z, (uint32_t)(k), (a), 2, 0)
#define _mm512_mask_expand_epi8(src, k, a) desert_emu_pack((src), (uint64_t)(k), (a), 1, 1)
#define _mm512_maskz_expand_epi8(k, a) desert_emu_pack(DESERT_EMU_Z, (uint64_t)(k), (a), 1, 1)
#define _mm512_mask_expand_epi16(src, k, a) desert_emu_pack((src), (uint32_t)(k), (a), 2, 1)
#define _mm512_maskz_expand_epi16(k, a) desert_emu_pack(DESERT_EMU_Z, (uint32_t)(k), (a), 2, 1)

/* ---- byte/word-masked loads and stores (fault suppression: only the
 * selected elements are touched) -------------------------------------------- */

/* Masked load (store = 0: selected elements of p into a copy of v) or
 * store (1: selected elements of v to p) of `size`-byte elements. */
DESERT_EMU_INLINE simde__m512i desert_emu_masked(simde__m512i v, uint64_t k, const void *p,
                                                 void *q, unsigned size) {
  desert_emu_v512 r;
  r.v = v;
  for (unsigned j = 0; j < 64 / size; j++) {
    if (!((k >> j) & 1u)) continue;
    if (q != NULL)
      memcpy((uint8_t *)q + j * size, &r.b[j * size], size);
    else
      memcpy(&r.b[j * size], (const uint8_t *)p + j * size, size);
  }
  return r.v;
}

#undef _mm512_mask_loadu_epi8
#undef _mm512_maskz_loadu_epi8
#undef _mm512_mask_storeu_epi8
#undef _mm512_mask_loadu_epi16
#undef _mm512_maskz_loadu_epi16
#undef _mm512_mask_storeu_epi16
#define _mm512_mask_loadu_epi8(src, k, p) desert_emu_masked((src), (uint64_t)(k), (p), NULL, 1)
#define _mm512_maskz_loadu_epi8(k, p) desert_emu_masked(DESERT_EMU_Z, (uint64_t)(k), (p), NULL, 1)
#define _mm512_mask_storeu_epi8(p, k, a) \
  ((void)desert_emu_masked((a), (uint64_t)(k), NULL, (p), 1))
#define _mm512_mask_loadu_epi16(src, k, p) \
  desert_emu_masked((src), (uint32_t)(k), (p), NULL, 2)
#define _mm512_maskz_loadu_epi16(k, p) desert_emu_masked(DESERT_EMU_Z, (uint32_t)(k), (p), NULL, 2)
#define _mm512_mask_storeu_epi16(p, k, a) \
  ((void)desert_emu_masked((a), (uint32_t)(k), NULL, (p), 2))

/* ---- AVX-512F conversions, shifts and tests SIMDe 0.7.4 lacks ------------- */

typedef union desert_emu_v128 {
  simde__m128i v;
  uint8_t b[16];
} desert_emu_v128;

/* Zero extensions: two 256-bit halves made by the real AVX2 instruction. */
DESERT_EMU_INLINE simde__m512i desert_emu_join(__m256i lo, __m256i hi) {
  return simde_mm512_inserti64x4(simde_mm512_castsi256_si512(lo), hi, 1);
}
#define desert_emu_cvtepu8_epi32(a) \
  desert_emu_join(_mm256_cvtepu8_epi32(a), _mm256_cvtepu8_epi32(_mm_srli_si128((a), 8)))
#define desert_emu_cvtepu32_epi64(a)                                   \
  desert_emu_join(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(a)), \
                  _mm256_cvtepu32_epi64(_mm256_extracti128_si256((a), 1)))
/* vpmovdb: truncation of each dword to its low byte. */
DESERT_EMU_INLINE simde__m128i desert_emu_cvtepi32_epi8(simde__m512i a) {
  uint32_t d[16];
  simde_mm512_storeu_si512(d, a);
  desert_emu_v128 r;
  for (unsigned j = 0; j < 16; j++) r.b[j] = (uint8_t)d[j];
  return r.v;
}
/* Arithmetic right shift by imm (>= 32 fills with the sign). */
DESERT_EMU_INLINE simde__m512i desert_emu_srai_epi32(simde__m512i a, unsigned imm) {
  int32_t d[16];
  simde_mm512_storeu_si512(d, a);
  const unsigned s = imm > 31 ? 31 : imm;
  for (unsigned j = 0; j < 16; j++) d[j] = d[j] < 0 ? ~(int32_t)(~(uint32_t)d[j] >> s)
                                                    : (int32_t)((uint32_t)d[j] >> s);
  return simde_mm512_loadu_si512(d);
}
DESERT_EMU_INLINE uint16_t desert_emu_testn_epi32_mask(simde__m512i a, simde__m512i b) {
  uint32_t x[16], y[16];
  simde_mm512_storeu_si512(x, a);
  simde_mm512_storeu_si512(y, b);
  uint16_t k = 0;
  for (unsigned j = 0; j < 16; j++) k = (uint16_t)(k | ((x[j] & y[j]) == 0 ? 1u << j : 0u));
  return k;
}

#undef _mm512_cvtepu8_epi32
#undef _mm512_cvtepu32_epi64
#undef _mm512_cvtepi32_epi8
#undef _mm512_srai_epi32
#undef _mm512_testn_epi32_mask
#define _mm512_cvtepu8_epi32(a) desert_emu_cvtepu8_epi32(a)
#define _mm512_cvtepu32_epi64(a) desert_emu_cvtepu32_epi64(a)
#define _mm512_cvtepi32_epi8(a) desert_emu_cvtepi32_epi8(a)
#define _mm512_srai_epi32(a, imm) desert_emu_srai_epi32((a), (unsigned)(imm))
#define _mm512_testn_epi32_mask(a, b) desert_emu_testn_epi32_mask((a), (b))

/* ---- used by the UTF-16 and Latin-1 kernels: compares into masks,
 * widening, int -> float, masked variable shift ---------------------------- */

/* Bit j set when lane j is selected by k and `x op y` is non-zero (op &:
 * vptestmw, whose SIMDe 0.7.4 version shifts an int by up to 31). */
#define DESERT_EMU_CMP(name, lanes, op)                                                    \
  DESERT_EMU_INLINE uint64_t desert_emu_##name(uint64_t k, simde__m512i a, simde__m512i b) { \
    simde__m512i_private x = simde__m512i_to_private(a), y = simde__m512i_to_private(b);   \
    uint64_t r = 0;                                                                        \
    for (size_t j = 0; j < sizeof x.lanes / sizeof x.lanes[0]; j++)                        \
      if (((k >> j) & 1u) && (x.lanes[j] op y.lanes[j]) != 0) r |= (uint64_t)1 << j;        \
    return r;                                                                              \
  }
DESERT_EMU_CMP(cmplt_u16, u16, <)
DESERT_EMU_CMP(cmplt_u32, u32, <)
DESERT_EMU_CMP(cmpeq_16, u16, ==)
DESERT_EMU_CMP(test_16, u16, &)
#undef DESERT_EMU_CMP
#undef _mm512_test_epi16_mask
#undef _mm512_mask_test_epi16_mask
#define _mm512_test_epi16_mask(a, b) ((uint32_t)desert_emu_test_16(~0ull, (a), (b)))
#define _mm512_mask_test_epi16_mask(k, a, b) \
  ((uint32_t)desert_emu_test_16((uint64_t)(k), (a), (b)))
#undef _mm512_cmplt_epu16_mask
#undef _mm512_mask_cmplt_epu16_mask
#undef _mm512_mask_cmpeq_epi16_mask
#undef _mm512_cmplt_epu32_mask
#define _mm512_cmplt_epu16_mask(a, b) ((uint32_t)desert_emu_cmplt_u16(~0ull, (a), (b)))
#define _mm512_mask_cmplt_epu16_mask(k, a, b) \
  ((uint32_t)desert_emu_cmplt_u16((uint64_t)(k), (a), (b)))
#define _mm512_mask_cmpeq_epi16_mask(k, a, b) \
  ((uint32_t)desert_emu_cmpeq_16((uint64_t)(k), (a), (b)))
#define _mm512_cmplt_epu32_mask(a, b) ((uint16_t)desert_emu_cmplt_u32(~0ull, (a), (b)))

#define desert_emu_cvtepu8_epi16(a)                                         \
  desert_emu_join(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(a)),          \
                  _mm256_cvtepu8_epi16(_mm256_extracti128_si256((a), 1)))
#define desert_emu_cvtepu16_epi32(a)                                        \
  desert_emu_join(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(a)),         \
                  _mm256_cvtepu16_epi32(_mm256_extracti128_si256((a), 1)))
#undef _mm512_cvtepu8_epi16
#undef _mm512_cvtepu16_epi32
#define _mm512_cvtepu8_epi16(a) desert_emu_cvtepu8_epi16(a)
#define _mm512_cvtepu16_epi32(a) desert_emu_cvtepu16_epi32(a)

DESERT_EMU_INLINE simde__m512 desert_emu_cvtepi32_ps(simde__m512i a) {
  simde__m512i_private x = simde__m512i_to_private(a);
  simde__m512_private r;
  for (size_t j = 0; j < 16; j++) r.f32[j] = (simde_float32)x.i32[j];
  return simde__m512_from_private(r);
}
/* vpsrlvd with a zeroing mask: counts above 31 give 0. */
DESERT_EMU_INLINE simde__m512i desert_emu_maskz_srlv32(uint16_t k, simde__m512i a,
                                                       simde__m512i n) {
  simde__m512i_private x = simde__m512i_to_private(a), c = simde__m512i_to_private(n), r;
  for (size_t j = 0; j < 16; j++)
    r.u32[j] = (((unsigned)k >> j) & 1u) && c.u32[j] < 32 ? x.u32[j] >> c.u32[j] : 0u;
  return simde__m512i_from_private(r);
}
#undef _mm512_cvtepi32_ps
#undef _mm512_maskz_srlv_epi32
#define _mm512_cvtepi32_ps(a) desert_emu_cvtepi32_ps(a)
#define _mm512_maskz_srlv_epi32(k, a, n) desert_emu_maskz_srlv32((uint16_t)(k), (a), (n))

#endif /* DESERT_X86_AVX512_SIMDE_H */
