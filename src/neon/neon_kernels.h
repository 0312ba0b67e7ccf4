/* src/neon/neon_kernels.h — prototypes of the NEON kernels (desert_neon_*),
 * which fill desert_kernels_neon (kernels_neon.c). Each has exactly the
 * contract of its slot in src/base/kernels.h; tails and error locations go
 * through the scalar kernels of src/scalar/scalar.h.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_NEON_KERNELS_H
#define DESERT_NEON_KERNELS_H

#include "base/kernels.h"

void desert_neon_bswap16(void *dst, const void *src, size_t n);
void desert_neon_bswap32(void *dst, const void *src, size_t n);
void desert_neon_bswap64(void *dst, const void *src, size_t n);

size_t desert_neon_var_u32_encode(uint8_t *dst, const uint32_t *src, size_t n);
size_t desert_neon_var_i32_encode(uint8_t *dst, const int32_t *src, size_t n);
desert_status desert_neon_var_u32_decode(const uint8_t *src, size_t src_len, uint32_t *dst,
                                         size_t n, size_t *consumed);
desert_status desert_neon_var_i32_decode(const uint8_t *src, size_t src_len, int32_t *dst,
                                         size_t n, size_t *consumed);

desert_status desert_neon_utf8_validate(const uint8_t *src, size_t len, size_t *pos);
desert_status desert_neon_utf16_len_from_utf8(const uint8_t *src, size_t len, size_t *out_len);
desert_status desert_neon_utf8_to_utf16(const uint8_t *src, size_t len, uint16_t *dst,
                                        size_t dst_cap, size_t *written, size_t *pos);
desert_status desert_neon_utf8_len_from_utf16(const uint16_t *src, size_t len, size_t *out_len);
desert_status desert_neon_utf16_to_utf8(const uint16_t *src, size_t len, uint8_t *dst,
                                        size_t dst_cap, size_t *written, size_t *pos);
size_t desert_neon_utf8_len_from_latin1(const uint8_t *src, size_t len);
size_t desert_neon_latin1_to_utf8(const uint8_t *src, size_t len, uint8_t *dst);
desert_status desert_neon_utf8_to_latin1(const uint8_t *src, size_t len, uint8_t *dst,
                                         size_t dst_cap, size_t *written, size_t *pos);

#endif /* DESERT_NEON_KERNELS_H */
