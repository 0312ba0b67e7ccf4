/* src/neon/neon_compat.h — the one place the NEON kernels get their
 * intrinsics from, plus small helpers shared by the src/neon files.
 * Natively (AArch64) this is <arm_neon.h>. With DESERT_NEON_VIA_SIMDE the
 * same code is compiled on x86 through SIMDe's NEON emulation with native
 * aliases (SIMDe README: native aliases are meant for testing, which is
 * exactly this use). SIMDe 0.7.4~rc2 (Debian 12) lacks
 * vsliq_n_* and vst1q_*_x4: never use them (the TUs are compiled with
 * -Werror=implicit-function-declaration so a slip fails the build).
 * Bounds: the helpers only touch the vectors/pointers they are given.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_NEON_COMPAT_H
#define DESERT_NEON_COMPAT_H

#include <stddef.h>
#include <stdint.h>

#if defined(DESERT_NEON_VIA_SIMDE) && DESERT_NEON_VIA_SIMDE
#ifndef SIMDE_ENABLE_NATIVE_ALIASES
#define SIMDE_ENABLE_NATIVE_ALIASES
#endif
#include <simde/arm/neon.h>
/* SIMDe's portable fallbacks carry OpenMP-SIMD/vectorize pragmas that clang
 * reports as -Wpass-failed ("loop not vectorized") when it cannot honour
 * them; that is about the emulation, not about these kernels. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#else
#include <arm_neon.h>
#endif

/* p + off without forming NULL + 0 (undefined in C; UBSan flags it) when a
 * caller passes NULL with an empty range. */
static inline const uint8_t *desert_neon_cadv8(const uint8_t *p, size_t off) {
  return off ? p + off : p;
}
static inline uint8_t *desert_neon_adv8(uint8_t *p, size_t off) { return off ? p + off : p; }
static inline const uint16_t *desert_neon_cadv16(const uint16_t *p, size_t off) {
  return off ? p + off : p;
}
static inline uint16_t *desert_neon_adv16(uint16_t *p, size_t off) { return off ? p + off : p; }

/* 16-bit mask of a comparison result (lanes 0x00/0xFF): bit j = lane j.
 * NEON has no movemask; AND with bit weights and add across each half. */
static inline uint32_t desert_neon_mask16(uint8x16_t cmp) {
  static const uint8_t w[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
  uint8x16_t b = vandq_u8(cmp, vld1q_u8(w));
  return (uint32_t)vaddv_u8(vget_low_u8(b)) | ((uint32_t)vaddv_u8(vget_high_u8(b)) << 8);
}
/* 8-bit mask of a 16-bit-lane comparison result (lanes 0x0000/0xFFFF). */
static inline uint32_t desert_neon_mask8_u16(uint16x8_t cmp) {
  static const uint16_t w[8] = {1, 2, 4, 8, 16, 32, 64, 128};
  return (uint32_t)vaddvq_u16(vandq_u16(cmp, vld1q_u16(w)));
}
/* Bit j set when byte j has its high bit set. */
static inline uint32_t desert_neon_movemask(uint8x16_t v) {
  return desert_neon_mask16(vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(v), 7)));
}
static inline int desert_neon_any(uint8x16_t v) { return vmaxvq_u8(v) != 0; }

#endif /* DESERT_NEON_COMPAT_H */
