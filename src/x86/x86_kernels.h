/* src/x86/x86_kernels.h — prototypes of the AVX2 and AVX-512 kernels
 * (desert_avx2_*, desert_avx512_*). Each has exactly the contract of its
 * slot in src/base/kernels.h. Internal; included by src/x86 only: these
 * functions may run only after dispatch has checked the CPU.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_X86_KERNELS_H
#define DESERT_X86_KERNELS_H

#include "base/kernels.h"

void desert_avx2_bswap16(void *dst, const void *src, size_t n);
void desert_avx2_bswap32(void *dst, const void *src, size_t n);
void desert_avx2_bswap64(void *dst, const void *src, size_t n);

size_t desert_avx2_var_u32_encode(uint8_t *dst, const uint32_t *src, size_t n);
size_t desert_avx2_var_i32_encode(uint8_t *dst, const int32_t *src, size_t n);
desert_status desert_avx2_var_u32_decode(const uint8_t *src, size_t src_len, uint32_t *dst,
                                         size_t n, size_t *consumed);
desert_status desert_avx2_var_i32_decode(const uint8_t *src, size_t src_len, int32_t *dst, size_t n,
                                         size_t *consumed);

desert_status desert_avx2_utf8_validate(const uint8_t *src, size_t len, size_t *pos);
desert_status desert_avx2_utf16_len_from_utf8(const uint8_t *src, size_t len, size_t *out_len);
desert_status desert_avx2_utf8_to_utf16(const uint8_t *src, size_t len, uint16_t *dst,
                                        size_t dst_cap, size_t *written, size_t *pos);
desert_status desert_avx2_utf8_to_latin1(const uint8_t *src, size_t len, uint8_t *dst,
                                         size_t dst_cap, size_t *written, size_t *pos);
desert_status desert_avx2_utf8_len_from_utf16(const uint16_t *src, size_t len, size_t *out_len);
desert_status desert_avx2_utf16_to_utf8(const uint16_t *src, size_t len, uint8_t *dst,
                                        size_t dst_cap, size_t *written, size_t *pos);
size_t desert_avx2_utf8_len_from_latin1(const uint8_t *src, size_t len);
size_t desert_avx2_latin1_to_utf8(const uint8_t *src, size_t len, uint8_t *dst);

desert_status desert_avx512_utf8_validate(const uint8_t *src, size_t len, size_t *pos);
size_t desert_avx512_utf8_len_from_latin1(const uint8_t *src, size_t len);
desert_status desert_avx512_utf8_to_utf16(const uint8_t *src, size_t len, uint16_t *dst,
                                          size_t dst_cap, size_t *written, size_t *pos);
desert_status desert_avx512_utf8_len_from_utf16(const uint16_t *src, size_t len, size_t *out_len);
desert_status desert_avx512_utf16_to_utf8(const uint16_t *src, size_t len, uint8_t *dst,
                                          size_t dst_cap, size_t *written, size_t *pos);
size_t desert_avx512_latin1_to_utf8(const uint8_t *src, size_t len, uint8_t *dst);
desert_status desert_avx512_utf8_to_latin1(const uint8_t *src, size_t len, uint8_t *dst,
                                           size_t dst_cap, size_t *written, size_t *pos);
size_t desert_avx512_var_u32_encode(uint8_t *dst, const uint32_t *src, size_t n);
size_t desert_avx512_var_i32_encode(uint8_t *dst, const int32_t *src, size_t n);
desert_status desert_avx512_var_u32_decode(const uint8_t *src, size_t src_len, uint32_t *dst,
                                           size_t n, size_t *consumed);
desert_status desert_avx512_var_i32_decode(const uint8_t *src, size_t src_len, int32_t *dst,
                                           size_t n, size_t *consumed);

#endif /* DESERT_X86_KERNELS_H */
