/* src/scalar/kernels_scalar.c — the scalar kernel table: runs on every CPU,
 * is the reference every other table must match, and is the automatic
 * choice when no SIMD table is runnable.
 * SPDX-License-Identifier: MIT */
#include "scalar/scalar.h"

const desert_kernels desert_kernels_scalar = {
    .name = "scalar",
    .isa = DESERT_ISA_SCALAR,
    .required = 0,
    .emulated = 0,
    .bswap16 = desert_scalar_bswap16,
    .bswap32 = desert_scalar_bswap32,
    .bswap64 = desert_scalar_bswap64,
    .var_u32_encode = desert_scalar_var_u32_encode,
    .var_i32_encode = desert_scalar_var_i32_encode,
    .var_u32_decode = desert_scalar_var_u32_decode,
    .var_i32_decode = desert_scalar_var_i32_decode,
    .utf8_validate = desert_scalar_utf8_validate,
    .utf16_len_from_utf8 = desert_scalar_utf16_len_from_utf8,
    .utf8_to_utf16 = desert_scalar_utf8_to_utf16,
    .utf8_len_from_utf16 = desert_scalar_utf8_len_from_utf16,
    .utf16_to_utf8 = desert_scalar_utf16_to_utf8,
    .utf8_len_from_latin1 = desert_scalar_utf8_len_from_latin1,
    .latin1_to_utf8 = desert_scalar_latin1_to_utf8,
    .utf8_to_latin1 = desert_scalar_utf8_to_latin1,
};
