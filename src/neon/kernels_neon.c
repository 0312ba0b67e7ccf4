/* src/neon/kernels_neon.c — the NEON kernel table. Natively on AArch64 it
 * requires DESERT_CPU_NEON (baseline there); built through SIMDe on x86
 * (DESERT_NEON_VIA_SIMDE) it requires nothing and is marked emulated, so
 * dispatch never picks it automatically (emulated speed says nothing about
 * NEON hardware).
 * Algorithms and bounds arguments: see each kernel file. No slot is NULL.
 * SPDX-License-Identifier: MIT */
#include "neon/neon_kernels.h"

#if defined(DESERT_NEON_VIA_SIMDE) && DESERT_NEON_VIA_SIMDE
#define DESERT_NEON_REQUIRED 0u
#define DESERT_NEON_IS_EMULATED 1u
#else
#define DESERT_NEON_REQUIRED ((uint32_t)DESERT_CPU_NEON)
#define DESERT_NEON_IS_EMULATED 0u
#endif

const desert_kernels desert_kernels_neon = {
    .name = "neon",
    .isa = DESERT_ISA_NEON,
    .required = DESERT_NEON_REQUIRED,
    .emulated = DESERT_NEON_IS_EMULATED,
    .bswap16 = desert_neon_bswap16,
    .bswap32 = desert_neon_bswap32,
    .bswap64 = desert_neon_bswap64,
    .var_u32_encode = desert_neon_var_u32_encode,
    .var_i32_encode = desert_neon_var_i32_encode,
    .var_u32_decode = desert_neon_var_u32_decode,
    .var_i32_decode = desert_neon_var_i32_decode,
    .utf8_validate = desert_neon_utf8_validate,
    .utf16_len_from_utf8 = desert_neon_utf16_len_from_utf8,
    .utf8_to_utf16 = desert_neon_utf8_to_utf16,
    .utf8_len_from_utf16 = desert_neon_utf8_len_from_utf16,
    .utf16_to_utf8 = desert_neon_utf16_to_utf8,
    .utf8_len_from_latin1 = desert_neon_utf8_len_from_latin1,
    .latin1_to_utf8 = desert_neon_latin1_to_utf8,
    .utf8_to_latin1 = desert_neon_utf8_to_latin1,
};
