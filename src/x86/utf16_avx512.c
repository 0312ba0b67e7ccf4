/* src/x86/utf16_avx512.c — AVX-512 (BW + VBMI + VBMI2) UTF-8 length of
 * UTF-16 text and UTF-16 -> UTF-8.
 * SPDX-License-Identifier: MIT
 *
 * Length: 32 units per step, as the AVX2 kernel with one mask bit per
 * unit: 32 + [>= 0x80] + [>= 0x800] - [surrogate] bytes (a valid pair is
 * 2 + 2), popcnt of three compare masks; ASCII steps count 32. The low
 * surrogates of a step must be its high ones shifted up one unit, the
 * step's last high surrogate carried into the next. Inputs of up to 64
 * units go to the AVX2 kernel. Reads [p, p+32) while 32 units remain; the
 * rest, and a step whose surrogates do not pair, go to the AVX2 kernel
 * (16-unit steps, then scalar) from the unit boundary before (one unit
 * back over an open high surrogate), which reports the exact status and
 * offset.
 *
 * Conversion (after Clausecker & Lemire, "Transcoding Unicode Characters
 * with AVX-512 Instructions", Software: Practice and Experience, 2023, in a
 * simpler form): blocks of 32 units.
 *  - all ASCII: vpmovwb narrows them to 32 bytes;
 *  - all below U+0800: each 16-bit lane becomes its 1 or 2 UTF-8 bytes in
 *    place and one vpcompressb packs them (dz_utf8_from_u11);
 *  - 32 units of 3 bytes (none below U+0800, no surrogate): their bytes
 *    are computed on 16-bit lanes and laid out by two vpermt2b with fixed
 *    indexes (96 bytes, no compress);
 *  - otherwise each half of 16 units is widened to 32-bit lanes holding the
 *    code point (a high surrogate combined with the unit after it, a low
 *    surrogate emitting nothing). vpmultishiftqb gathers the four 6-bit
 *    fields of every code point as "continuation bytes" (x, 80|c2, 80|c1,
 *    80|c0), a variable shift (its count looked up from the code point's
 *    binary exponent, via a float conversion) drops the 4 - L leading ones
 *    for a code point of L bytes, an OR turns the first kept byte into the
 *    lead byte (ASCII lanes take the unit itself), and vpcompressb packs
 *    the L bytes of every lane (keep mask: 0xFFFFFFFF >> 8(4-L) per lane,
 *    vpmovb2m).
 * A sprint takes 64 units per test while they are all ASCII (one vpermt2b
 * narrows them: their even bytes) or all below U+0800 (two packs as above).
 * Surrogates: every low surrogate must directly follow a high one and
 * vice versa (hi << 1 == lo on the block's masks). A high surrogate in
 * the last unit of a block is left for the next block (the block then
 * consumes 31 units), so a block never starts inside a pair.
 *
 * Bounds: inputs of up to 64 units go to the AVX2 kernel. The loop reads
 * units [p, p+33) (one unit of look-ahead) while len - p >= 33 and at
 * least 96 bytes (3 per unit, the most 32 units can give) are free in
 * dst; the sprint reads [p, p+64) while len - p >= 65 and 128 bytes are
 * free. The rest (<= 32 units) is copied into a zeroed stack block and
 * converted the same way when 3 bytes per unit are free; otherwise, and
 * after any error, the scalar kernel finishes. Stores end at the bytes
 * produced (masked stores), except the sprint's first-half store, whose
 * excess the second half overwrites: nothing after *written is touched.
 *
 * Errors: a block whose surrogates do not pair up is left to the scalar
 * kernel from the block's start (a unit boundary outside any pair), which
 * reports the exact status, *pos and *written; likewise DST_TOO_SMALL.
 */
#include <string.h>

#include "scalar/scalar.h"
#include "x86/vec_avx512.h"
#include "x86/x86_kernels.h"

/* vpermt2b indexes of the even bytes of a:b (the low bytes of 64 units). */
static const uint8_t desert_avx512_even_idx[64] = {
    0,  2,  4,   6,   8,   10,  12,  14,  16,  18,  20,  22,  24,  26,  28,  30,
    32, 34, 36,  38,  40,  42,  44,  46,  48,  50,  52,  54,  56,  58,  60,  62,
    64, 66, 68,  70,  72,  74,  76,  78,  80,  82,  84,  86,  88,  90,  92,  94,
    96, 98, 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126};

/* vpermt2b indexes laying out 32 three-byte units: output byte 3j+k is
 * byte k of unit j, taken from x (bytes 2j, 2j+1: the first two) or y
 * (byte 64+2j: the third). 96 used, 128 for two full loads. */
static const uint8_t desert_avx512_u16_3byte_idx[128] = {
#define DZ_U3(j) (uint8_t)(2 * (j)), (uint8_t)(2 * (j) + 1), (uint8_t)(64 + 2 * (j))
    DZ_U3(0),  DZ_U3(1),  DZ_U3(2),  DZ_U3(3),  DZ_U3(4),  DZ_U3(5),  DZ_U3(6),  DZ_U3(7),
    DZ_U3(8),  DZ_U3(9),  DZ_U3(10), DZ_U3(11), DZ_U3(12), DZ_U3(13), DZ_U3(14), DZ_U3(15),
    DZ_U3(16), DZ_U3(17), DZ_U3(18), DZ_U3(19), DZ_U3(20), DZ_U3(21), DZ_U3(22), DZ_U3(23),
    DZ_U3(24), DZ_U3(25), DZ_U3(26), DZ_U3(27), DZ_U3(28), DZ_U3(29), DZ_U3(30), DZ_U3(31),
#undef DZ_U3
};

/* 16 units (32-bit lanes u, with nx the unit after each) of which lanes
 * `take` are converted; hi = high surrogate lanes, lo = low surrogate lanes
 * (already checked to pair up). Stores the UTF-8 bytes at d, returns their
 * count. */
DZ_INLINE size_t dz_u16_half(__m512i u, __m512i nx, __mmask16 take, __mmask16 hi, __mmask16 lo,
                             uint8_t *d) {
  /* code point: u, or 0x10000 + (hi - D800) * 0x400 + (nx - DC00) */
  const __m512i cp = _mm512_mask_add_epi32(
      u, hi, _mm512_slli_epi32(u, 10),
      _mm512_add_epi32(nx, dz_set32((uint32_t)(0x10000 - 0xd800 * 0x400 - 0xdc00))));
  /* per lane bytes (cp >> 18, cp >> 12, cp >> 6, cp) from its qword */
  const __m512i fields =
      _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)0x20262c3200060c12ull), cp);
  /* (x, 80|c2, 80|c1, 80|c0): keep 6 bits in the three continuation bytes */
  const __m512i all =
      _mm512_ternarylogic_epi32(fields, dz_set32(0x3f3f3fffu), dz_set32(0x80808000u), 0xea);
  /* shift = 8 * (4 - L) from the binary exponent of cp (as a float,
   * exact below 2^24): vpermt2d uses its low 5 bits, (127 + log2 cp) & 31,
   * which is 31 for cp <= 1 and log2(cp) - 1 otherwise. */
  const __m512i expo = _mm512_srli_epi32(_mm512_castps_si512(_mm512_cvtepi32_ps(cp)), 23);
  const __m512i shift = _mm512_permutex2var_epi32(
      _mm512_setr_epi32(24, 24, 24, 24, 24, 24, 16, 16, 16, 16, 8, 8, 8, 8, 8, 0), expo,
      _mm512_setr_epi32(0, 0, 0, 0, 0, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24));
  /* the lead byte's prefix, 0x40 (80|c1 -> C0|cp>>6), 0x60 (80|c2 ->
   * E0|cp>>12) or 0xF0 (cp>>18 -> F0|cp>>18), shifted out of 0x004060F0 */
  const __m512i bytes0 = _mm512_ternarylogic_epi32(_mm512_srlv_epi32(all, shift),
                                                   _mm512_srlv_epi32(dz_set32(0x004060f0u), shift),
                                                   dz_set32(0xff), 0xf8);
  const __m512i bytes =
      _mm512_mask_mov_epi32(bytes0, _mm512_cmplt_epu32_mask(cp, dz_set32(0x80)), cp);
  const __mmask16 emit = take & (__mmask16)~lo;
  const uint64_t keep =
      (uint64_t)_mm512_movepi8_mask(_mm512_maskz_srlv_epi32(emit, dz_set32(0xffffffffu), shift));
  const size_t n = dz_pop64(keep);
  dz_store_n8(d, _mm512_maskz_compress_epi8((__mmask64)keep, bytes), n);
  return n;
}

/* Converts units s[0..n) (n <= 32; s[0..33) readable, u = s[0..32)).
 * `more`: input continues after s[n) (then a high surrogate at n-1 is
 * left for the next block). On success returns 1 with *used units
 * consumed and *out bytes stored at d (d has room for 3 per unit); returns
 * 0 if the surrogates do not pair up (nothing useful stored). */
DZ_INLINE int dz_u16_block(__m512i u, const uint16_t *s, size_t n, int more, uint8_t *d,
                           size_t *used, size_t *out) {
  __mmask32 take = (__mmask32)dz_low(n);
  if (_mm512_mask_test_epi16_mask(take, u, dz_set16(0xff80)) == 0) {
    dz_store_n8(d, _mm512_castsi256_si512(_mm512_cvtepi16_epi8(u)), n);
    *used = *out = n;
    return 1;
  }
  if (_mm512_mask_test_epi16_mask(take, u, dz_set16(0xf800)) == 0) {
    *out = dz_utf8_from_u11(u, n, d);
    *used = n;
    return 1;
  }
  const __mmask32 small = _mm512_mask_cmplt_epu16_mask(take, u, dz_set16(0x800));
  const __mmask32 surr =
      _mm512_mask_cmpeq_epi16_mask(take, _mm512_and_si512(u, dz_set16(0xf800)), dz_set16(0xd800));
  if ((small | surr) == 0 && n == 32) {
    /* 32 units of 3 bytes each: (E0|u>>12, 80|u>>6&3F) in the 16-bit
     * lanes of x, 80|u&3F in those of y; two vpermt2b lay them out as 96
     * bytes. */
    const __m512i x =
        _mm512_or_si512(_mm512_ternarylogic_epi32(_mm512_srli_epi16(u, 12), _mm512_slli_epi16(u, 2),
                                                  dz_set16(0x3f00), 0xf8),
                        dz_set16(0x80e0));
    const __m512i y = _mm512_ternarylogic_epi32(u, dz_set16(0x3f), dz_set16(0x80), 0xea);
    dz_store(d, _mm512_permutex2var_epi8(x, dz_load(desert_avx512_u16_3byte_idx), y));
    _mm256_storeu_si256((__m256i *)(void *)(d + 64),
                        _mm512_castsi512_si256(_mm512_permutex2var_epi8(
                            x, dz_load(desert_avx512_u16_3byte_idx + 64), y)));
    *used = 32;
    *out = 96;
    return 1;
  }
  const __m512i top6 = _mm512_and_si512(u, dz_set16(0xfc00));
  __mmask32 hi = _mm512_mask_cmpeq_epi16_mask(take, top6, dz_set16(0xd800));
  const __mmask32 lo = _mm512_mask_cmpeq_epi16_mask(take, top6, dz_set16(0xdc00));
  /* a pair cut by the block end waits for the next block (branch-free:
   * mixed text makes this unpredictable) */
  const size_t cut = more ? (size_t)((hi >> (n - 1)) & 1u) : 0;
  n -= cut;
  take = (__mmask32)dz_low(n);
  hi &= take;
  if (((uint64_t)hi << 1) != (uint64_t)lo) return 0;
  const __m512i nx = dz_load(s + 1);
  size_t w = dz_u16_half(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(u)),
                         _mm512_cvtepu16_epi32(_mm512_castsi512_si256(nx)), (__mmask16)take,
                         (__mmask16)hi, (__mmask16)lo, d);
  w += dz_u16_half(_mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(u, 1)),
                   _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(nx, 1)), (__mmask16)(take >> 16),
                   (__mmask16)(hi >> 16), (__mmask16)(lo >> 16), d + w);
  *used = n;
  *out = w;
  return 1;
}

/* The length of inputs of more than 64 units (see below). */
__attribute__((noinline)) static desert_status dz_utf8_len_long(const uint16_t *src, size_t len,
                                                                size_t *out_len) {
  size_t p = 0, bytes = 0;
  uint32_t carry = 0; /* 1: the unit at p-1 is a high surrogate */
  while (len - p >= 32) {
    const __m512i u = dz_load(src + p);
    const uint32_t ge80 = (uint32_t)_mm512_test_epi16_mask(u, dz_set16(0xff80));
    if ((ge80 | carry) == 0) { /* ASCII: one byte per unit */
      bytes += 32;
      p += 32;
      continue;
    }
    const uint32_t ge800 = (uint32_t)_mm512_test_epi16_mask(u, dz_set16(0xf800));
    /* (the masked compare: SIMDe 0.7.4 has no unmasked vpcmpeqw to mask) */
    const uint32_t surr = (uint32_t)_mm512_mask_cmpeq_epi16_mask(
        (__mmask32)~0u, _mm512_and_si512(u, dz_set16(0xf800)), dz_set16(0xd800));
    const uint32_t hi = (uint32_t)_mm512_mask_cmpeq_epi16_mask(
        (__mmask32)~0u, _mm512_and_si512(u, dz_set16(0xfc00)), dz_set16(0xd800));
    if (((hi << 1) | carry) != (surr & ~hi)) break;
    carry = hi >> 31;
    bytes += 32 + dz_pop64(ge80) + dz_pop64(ge800) - dz_pop64(surr);
    p += 32;
  }
  const size_t q = carry ? p - 1 : p;
  if (carry) bytes -= 2;
  size_t r; /* the AVX2 kernel: a CJK tail of 31 units took 2x as long in scalar code */
  const desert_status st = desert_avx2_utf8_len_from_utf16(src + q, len - q, &r);
  *out_len = st == DESERT_OK ? bytes + r : q + r;
  return st;
}

desert_status desert_avx512_utf8_len_from_utf16(const uint16_t *src, size_t len,
                                                size_t *out_len) {
  /* Up to two steps: the AVX2 kernel's 16-unit steps directly, by a tail
   * jump before any stack frame, which short inputs measured faster. */
  if (len <= 64) return desert_avx2_utf8_len_from_utf16(src, len, out_len);
  return dz_utf8_len_long(src, len, out_len);
}

/* The conversion of inputs of more than 64 units (see below). */
__attribute__((noinline)) static desert_status dz_u16_to_u8_long(const uint16_t *src, size_t len,
                                                                 uint8_t *dst, size_t dst_cap,
                                                                 size_t *written, size_t *pos) {
  size_t p = 0, w = 0, used, out;
  int easy = 1; /* the last block was below U+0800: try the sprint */
  while (len - p >= 33 && dst_cap - w >= 96) {
    /* Sprint over 64 units per test: all ASCII, narrowed by one vpermt2b
     * (their even bytes); or all below U+0800 (two-byte scripts, with
     * or without ASCII), each half packed by dz_u11_pack. The first
     * half's 64-byte store may write past its bytes: the second half
     * (>= 32 bytes, one or two per unit) overwrites that part, so no byte
     * at or after the final w is touched. Tried only after a block below
     * U+0800: a failed attempt is a wasted test per block of CJK text. */
    while (easy && len - p >= 65 && dst_cap - w >= 128) {
      const __m512i a = dz_load(src + p), b = dz_load(src + p + 32);
      const __m512i o = _mm512_or_si512(a, b);
      if (_mm512_test_epi16_mask(o, dz_set16(0xff80)) == 0) {
        dz_store(dst + w, _mm512_permutex2var_epi8(a, dz_load(desert_avx512_even_idx), b));
        w += 64;
      } else if (_mm512_test_epi16_mask(o, dz_set16(0xf800)) == 0) {
        size_t na;
        dz_store(dst + w, dz_u11_pack(a, 32, &na));
        w += na;
        w += dz_utf8_from_u11(b, 32, dst + w);
      } else {
        break;
      }
      p += 64;
    }
    if (len - p < 33 || dst_cap - w < 96) break;
    const __m512i u = dz_load(src + p);
    easy = _mm512_test_epi16_mask(u, dz_set16(0xf800)) == 0;
    if (!dz_u16_block(u, src + p, 32, 1, dst + w, &used, &out)) goto scalar;
    p += used;
    w += out;
  }
  if (len - p <= 32 && dst_cap - w >= 3 * (len - p)) {
    /* the last <= 32 units as one more block, from a zeroed copy */
    _Alignas(64) uint16_t buf[64];
    memset(buf, 0, sizeof buf);
    memcpy(buf, src + p, (len - p) * sizeof *src);
    if (dz_u16_block(dz_load(buf), buf, len - p, 0, dst + w, &used, &out)) {
      *written = w + out;
      *pos = len;
      return DESERT_OK;
    }
  }
scalar:;
  size_t wr, ps;
  const desert_status st =
      desert_scalar_utf16_to_utf8(src + p, len - p, dst + w, dst_cap - w, &wr, &ps);
  *written = w + wr;
  *pos = p + ps;
  return st;
}

desert_status desert_avx512_utf16_to_utf8(const uint16_t *src, size_t len, uint8_t *dst,
                                          size_t dst_cap, size_t *written, size_t *pos) {
  /* An input of up to two blocks would go half or wholly through the
   * zeroed stack copy of dz_u16_to_u8_long, whose 64-byte load waits on
   * the unit stores, slower than the AVX2 kernel there. Same results
   * by the kernel contract, and this table may call AVX2. A separate long
   * kernel keeps its 64-byte aligned stack frame off the short path. */
  if (len <= 64) return desert_avx2_utf16_to_utf8(src, len, dst, dst_cap, written, pos);
  return dz_u16_to_u8_long(src, len, dst, dst_cap, written, pos);
}
