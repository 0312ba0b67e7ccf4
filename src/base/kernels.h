/* src/base/kernels.h — the kernel table: one struct of function pointers per ISA,
 * and the contract every kernel in src/scalar, src/x86 and src/neon obeys.
 * Internal header; nothing here is exported except through api_kernels.c.
 * SPDX-License-Identifier: MIT
 *
 * KERNEL CONTRACT
 * 1. Bounds: never read outside [src, src+len) nor write outside
 *    [dst, dst+cap) on any path. No padding contract, no alignment
 *    requirement (unaligned loads/stores only), no no_sanitize escapes.
 *    SIMD loops run while a whole block remains; tails go to the scalar
 *    kernel (or a narrower SIMD kernel with this same contract).
 * 2. Every ISA returns exactly what the scalar kernel returns: status,
 *    *consumed / *written / *pos, and the output bytes in [0, written).
 *    Output bytes beyond *written (still inside dst_cap) are unspecified
 *    after an error; on success nothing beyond *written is stored.
 * 3. Pure: no allocation, no globals, no errno, no I/O.
 * 4. Floats travel through bswap32/bswap64 as bit patterns.
 * 5. UTF-16 is in host byte order (uint16_t units).
 * 6. Error positions: UTF kernels put in *pos the offset (in input units) of
 *    the first unit of the first invalid sequence. For a sequence cut by the
 *    end of input, that is the offset of its lead byte/unit. Varint decode
 *    puts in *consumed the offset where the failing value starts.
 * 7. Every kernel file opens with a comment naming its algorithm, its source
 *    and its bounds argument.
 *
 * UTF-8 validity is the strict Unicode definition (RFC 3629): no overlong
 * forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF. The "first
 * invalid sequence" is found by decoding left to right: at each position a
 * lead byte determines the expected length; the sequence is invalid at that
 * position if the lead byte is not a valid lead (80..BF, C0, C1, F5..FF), a
 * continuation byte is missing/wrong, the second byte violates the range
 * restriction (E0: A0..BF, ED: 80..9F, F0: 90..BF, F4: 80..8F), or the input
 * ends inside the sequence. *pos = the position of that lead byte.
 */
#ifndef DESERT_SRC_KERNELS_H
#define DESERT_SRC_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "desert/common.h"
#include "desert/kernels.h"
#include "desert_build_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CPU feature bits, filled by cpu_features.c (compiled without ISA flags). */
enum {
  DESERT_CPU_SSE42 = 1u << 0,
  DESERT_CPU_AVX2 = 1u << 1,  /* AVX2 + OS support for YMM state (XCR0) */
  DESERT_CPU_BMI2 = 1u << 2,
  DESERT_CPU_POPCNT = 1u << 3,
  DESERT_CPU_AVX512F = 1u << 4, /* AVX-512 F + OS support for ZMM/opmask state */
  DESERT_CPU_AVX512BW = 1u << 5,
  DESERT_CPU_AVX512VL = 1u << 6,
  DESERT_CPU_AVX512VBMI = 1u << 7,
  DESERT_CPU_AVX512VBMI2 = 1u << 8,
  DESERT_CPU_NEON = 1u << 16
};

typedef struct desert_kernels {
  const char *name;   /* "scalar" | "avx2" | "avx512" | "neon": DESERT_FORCE_ISA spelling */
  desert_isa isa;
  uint32_t required;  /* every bit must be in desert_cpu_features() to run it */
  unsigned emulated;  /* 1: built through SIMDe (NEON on a non-ARM host, the AVX-512
                       * twin "avx512emu"): for tests, never auto-selected */

  /* Byte-swap n lanes of 2/4/8 bytes from src to dst. dst == src (in place)
   * is allowed; otherwise the ranges must not overlap. Used to store/load
   * big-endian arrays on little-endian hosts. */
  void (*bswap16)(void *dst, const void *src, size_t n);
  void (*bswap32)(void *dst, const void *src, size_t n);
  void (*bswap64)(void *dst, const void *src, size_t n);

  /* Encode n values as var_u32 / var_i32 (zig-zag), shortest form. dst holds
   * EXACTLY the encoded size (desert_var_*_size): the writer reserves no
   * more, so a SIMD encoder must not store past the last encoded byte.
   * Returns the number of bytes written. */
  size_t (*var_u32_encode)(uint8_t *dst, const uint32_t *src, size_t n);
  size_t (*var_i32_encode)(uint8_t *dst, const int32_t *src, size_t n);

  /* Decode exactly n values from src[0..src_len). Strict rule of docs/format.md
   * §3.2: a continuation bit on the 5th byte is DESERT_E_VARINT_TOO_LONG;
   * payload bits above bit 31 in the 5th byte are ignored; overlong forms
   * are accepted. Running out of input is DESERT_E_INPUT_ENDED. On success
   * *consumed = bytes used; on error *consumed = offset of the first byte of
   * the failing value, and dst[0..k) holds the k values before it. */
  desert_status (*var_u32_decode)(const uint8_t *src, size_t src_len, uint32_t *dst,
                                  size_t n, size_t *consumed);
  desert_status (*var_i32_decode)(const uint8_t *src, size_t src_len, int32_t *dst,
                                  size_t n, size_t *consumed);

  /* Validate UTF-8. OK: *pos = len. Error DESERT_E_INVALID_UTF8: *pos = offset
   * of the first invalid sequence's first byte (see above). */
  desert_status (*utf8_validate)(const uint8_t *src, size_t len, size_t *pos);

  /* Number of UTF-16 units that valid UTF-8 src converts to; validates as
   * utf8_validate does (same status and *out_len = error offset on error). */
  desert_status (*utf16_len_from_utf8)(const uint8_t *src, size_t len, size_t *out_len);

  /* Convert UTF-8 to UTF-16. Errors: DESERT_E_INVALID_UTF8 (*pos = offset as
   * above), DESERT_E_DST_TOO_SMALL (*pos = offset of the first input byte
   * whose code point did not fit). *written = units written before the stop
   * (on success, the full count). Validation errors take precedence over
   * DST_TOO_SMALL only when they occur at an earlier input position. */
  desert_status (*utf8_to_utf16)(const uint8_t *src, size_t len, uint16_t *dst,
                                 size_t dst_cap, size_t *written, size_t *pos);

  /* Number of UTF-8 bytes UTF-16 src converts to. An unpaired surrogate is
   * DESERT_E_INVALID_UTF16 with *out_len = its unit offset. */
  desert_status (*utf8_len_from_utf16)(const uint16_t *src, size_t len, size_t *out_len);

  /* Convert UTF-16 to UTF-8. Errors: DESERT_E_INVALID_UTF16 (*pos = unit
   * offset of the unpaired surrogate), DESERT_E_DST_TOO_SMALL (*pos = unit
   * offset of the first code point that did not fit). *written = bytes
   * written before the stop. */
  desert_status (*utf16_to_utf8)(const uint16_t *src, size_t len, uint8_t *dst,
                                 size_t dst_cap, size_t *written, size_t *pos);

  /* Exact UTF-8 size of Latin-1 text: len + number of bytes >= 0x80. */
  size_t (*utf8_len_from_latin1)(const uint8_t *src, size_t len);

  /* Latin-1 to UTF-8; dst must hold utf8_len_from_latin1(src, len) bytes
   * (2*len always suffices). Returns bytes written. */
  size_t (*latin1_to_utf8)(const uint8_t *src, size_t len, uint8_t *dst);

  /* UTF-8 to Latin-1. Errors: DESERT_E_INVALID_UTF8 (*pos as above),
   * DESERT_E_NOT_LATIN1 (*pos = offset of the lead byte of the first code
   * point above U+00FF), DESERT_E_DST_TOO_SMALL (*pos = offset of the first
   * input byte that did not fit). The first problem in input order wins; at
   * the same position invalid UTF-8 beats NOT_LATIN1 beats DST_TOO_SMALL.
   * *written = bytes written before the stop. */
  desert_status (*utf8_to_latin1)(const uint8_t *src, size_t len, uint8_t *dst,
                                  size_t dst_cap, size_t *written, size_t *pos);
} desert_kernels;

/* Every slot of desert_kernels, in struct order, for code that walks them
 * (X(slot) per slot): kernel_slots.c, the benchmark report. */
#define DESERT_KERNEL_SLOTS(X)                                                                \
  X(bswap16) X(bswap32) X(bswap64) X(var_u32_encode) X(var_i32_encode) X(var_u32_decode)      \
  X(var_i32_decode) X(utf8_validate) X(utf16_len_from_utf8) X(utf8_to_utf16)                 \
  X(utf8_len_from_utf16) X(utf16_to_utf8) X(utf8_len_from_latin1) X(latin1_to_utf8)          \
  X(utf8_to_latin1)

/* Tables compiled into this build. The scalar table always exists. */
extern const desert_kernels desert_kernels_scalar;
#if DESERT_HAVE_AVX2
extern const desert_kernels desert_kernels_avx2;
#endif
#if DESERT_HAVE_AVX512
extern const desert_kernels desert_kernels_avx512;
#endif
#if DESERT_HAVE_AVX512EMU
/* The AVX-512 kernels through SIMDe (isa AVX512, name "avx512emu",
 * emulated; requires only the AVX2 bits its AVX2 tails use). */
extern const desert_kernels desert_kernels_avx512emu;
#endif
#if DESERT_HAVE_NEON
extern const desert_kernels desert_kernels_neon;
#endif

/* CPU feature bits of this machine (detected once, thread-safe). */
uint32_t desert_cpu_features(void);

/* Process default table: resolved once from DESERT_FORCE_ISA and the CPU,
 * published atomically. Never NULL. Thread-safe. */
const desert_kernels *desert_kernels_default(void);

/* The table for isa if it is compiled in (runnable here or not), else
 * NULL. Never call its kernels without checking it runs. */
const desert_kernels *desert_kernels_compiled(desert_isa isa);

/* The table for isa if it is compiled in and runnable here, else NULL.
 * DESERT_ISA_AUTO gives the process default. */
const desert_kernels *desert_kernels_for(desert_isa isa);

/* The pure dispatch decision behind desert_kernels_default(): the table for
 * a DESERT_FORCE_ISA value (NULL = unset) and CPU feature bits, with the
 * override outcome in *outcome when not NULL. Internal (tests call it to
 * check every feature set without changing the environment). */
const desert_kernels *desert_dispatch_choose(const char *force_value, uint32_t cpu_features,
                                             desert_override_outcome *outcome);

/* Fills out[0..max) with every compiled and runnable table (scalar, avx2,
 * avx512, avx512emu, neon; emulated ones included) and returns how many
 * there are. For tests and benchmarks. */
size_t desert_kernels_runnable(const desert_kernels **out, size_t max);

#ifdef __cplusplus
}
#endif
#endif /* DESERT_SRC_KERNELS_H */
