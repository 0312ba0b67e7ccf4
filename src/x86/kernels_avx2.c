/* src/x86/kernels_avx2.c — the AVX2 kernel table.
 * SPDX-License-Identifier: MIT
 *
 * Every slot has an AVX2 kernel (they fall back to the scalar kernels for
 * tails and error positions). The folder is compiled with -mavx2 -mbmi
 * -mbmi2 -mpopcnt -mlzcnt; the kernels use AVX2 and POPCNT explicitly, and
 * the compiler may emit BMI1/BMI2/LZCNT instructions anywhere, which is why
 * `required` has DESERT_CPU_BMI2 (cpu_features.c sets it only when BMI1,
 * BMI2 and LZCNT are all present). No pdep/pext is used on purpose (slow
 * microcode on AMD before Zen 3).
 */
#include "x86/x86_kernels.h"

const desert_kernels desert_kernels_avx2 = {
    .name = "avx2",
    .isa = DESERT_ISA_AVX2,
    .required = DESERT_CPU_AVX2 | DESERT_CPU_BMI2 | DESERT_CPU_POPCNT,
    .emulated = 0,
    .bswap16 = desert_avx2_bswap16,
    .bswap32 = desert_avx2_bswap32,
    .bswap64 = desert_avx2_bswap64,
    .var_u32_encode = desert_avx2_var_u32_encode,
    .var_i32_encode = desert_avx2_var_i32_encode,
    .var_u32_decode = desert_avx2_var_u32_decode,
    .var_i32_decode = desert_avx2_var_i32_decode,
    .utf8_validate = desert_avx2_utf8_validate,
    .utf16_len_from_utf8 = desert_avx2_utf16_len_from_utf8,
    .utf8_to_utf16 = desert_avx2_utf8_to_utf16,
    .utf8_len_from_utf16 = desert_avx2_utf8_len_from_utf16,
    .utf16_to_utf8 = desert_avx2_utf16_to_utf8,
    .utf8_len_from_latin1 = desert_avx2_utf8_len_from_latin1,
    .latin1_to_utf8 = desert_avx2_latin1_to_utf8,
    .utf8_to_latin1 = desert_avx2_utf8_to_latin1,
};
