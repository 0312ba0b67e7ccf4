/* src/x86/kernels_avx512.c — the AVX-512 kernel table.
 * SPDX-License-Identifier: MIT
 *
 * Own kernels only where 64-byte registers measured faster than AVX2 on an
 * AVX-512 host (bench report section 1b, scripts/ab_isa.sh; the figures are
 * in bench/results/notes-from-code-comments.md): varint runs
 * (varint_avx512.c), UTF-8 validation,
 * UTF-8 <-> UTF-16 and Latin-1 <-> UTF-8 (VBMI2 compress), the UTF-8 sizes
 * of UTF-16 and Latin-1 text. Every other slot is the AVX2 kernel (which
 * this CPU can run: `required` includes the AVX2 bits). The table is the
 * automatic choice on AVX-512 hosts, so a slot takes its AVX-512 kernel
 * only when measured faster than AVX2 (per CPU class, the policy of
 * src/dispatch/kernel_policy.c may still pick AVX2 for a slot).
 *
 * AVX2 on purpose: utf16_len_from_utf8 (no AVX-512 kernel yet), and the
 * byte swaps: a 64-byte vpshufb bswap kernel won on warm buffers but lost
 * on golden decode and encode, whose longs come from buffers not in L2, so
 * it was removed.
 *
 * The folder's *_avx512.c files are compiled with the AVX2 flags plus
 * -mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2, so the
 * compiler may use any of those: `required` lists them all.
 *
 * Checked on AVX-512 hardware (the kernel suites and fuzzers run the native
 * table there) and everywhere else with AVX2 through the SIMDe twin
 * (avx512emu).
 */
#include "x86/x86_kernels.h"

/* Built twice: natively, and through SIMDe as the emulated twin
 * "avx512emu" (src/x86/avx512_simde.h renames this table and every
 * desert_avx512_* kernel). The twin runs the real AVX2 kernels it shares,
 * so it requires the AVX2 bits only. */
#if defined(DESERT_AVX512_VIA_SIMDE) && DESERT_AVX512_VIA_SIMDE
#define DESERT_AVX512_TABLE_NAME "avx512emu"
#define DESERT_AVX512_REQUIRED (DESERT_CPU_AVX2 | DESERT_CPU_BMI2 | DESERT_CPU_POPCNT)
#define DESERT_AVX512_IS_EMULATED 1u
#else
#define DESERT_AVX512_TABLE_NAME "avx512"
#define DESERT_AVX512_REQUIRED                                                                 \
  (DESERT_CPU_AVX2 | DESERT_CPU_BMI2 | DESERT_CPU_POPCNT | DESERT_CPU_AVX512F |               \
   DESERT_CPU_AVX512BW | DESERT_CPU_AVX512VL | DESERT_CPU_AVX512VBMI | DESERT_CPU_AVX512VBMI2)
#define DESERT_AVX512_IS_EMULATED 0u
#endif

const desert_kernels desert_kernels_avx512 = {
    .name = DESERT_AVX512_TABLE_NAME,
    .isa = DESERT_ISA_AVX512,
    .required = DESERT_AVX512_REQUIRED,
    .emulated = DESERT_AVX512_IS_EMULATED,
    .bswap16 = desert_avx2_bswap16,
    .bswap32 = desert_avx2_bswap32,
    .bswap64 = desert_avx2_bswap64,
    .var_u32_encode = desert_avx512_var_u32_encode,
    .var_i32_encode = desert_avx512_var_i32_encode,
    .var_u32_decode = desert_avx512_var_u32_decode,
    .var_i32_decode = desert_avx512_var_i32_decode,
    .utf8_validate = desert_avx512_utf8_validate,
    .utf16_len_from_utf8 = desert_avx2_utf16_len_from_utf8,
    .utf8_to_utf16 = desert_avx512_utf8_to_utf16,
    .utf8_len_from_utf16 = desert_avx512_utf8_len_from_utf16,
    .utf16_to_utf8 = desert_avx512_utf16_to_utf8,
    .utf8_len_from_latin1 = desert_avx512_utf8_len_from_latin1,
    .latin1_to_utf8 = desert_avx512_latin1_to_utf8,
    .utf8_to_latin1 = desert_avx512_utf8_to_latin1,
};
