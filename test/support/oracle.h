/* test/support/oracle.h — independent byte-at-a-time reference
 * implementations of every kernel, for differential tests.
 * SPDX-License-Identifier: MIT
 *
 * Written for clarity, not speed, and sharing no code with src/scalar (the
 * scalar kernels are under test too). Every function has exactly the
 * status / offset / output semantics of the kernel slot of the same name in
 * src/base/kernels.h, including these precedence rules:
 *
 *  - UTF-8 errors: decoding goes left to right over complete well-formed
 *    sequences; the error offset is the first position where none starts
 *    (the lead byte of the bad sequence, also when the input ends in it).
 *  - Transcoders decode the sequence at the current position before asking
 *    whether it fits: an invalid sequence (or, for Latin-1, a code point
 *    above U+00FF) at the position where the output is full reports the
 *    input error; DESERT_E_DST_TOO_SMALL is reported at the first valid,
 *    convertible code point that does not fit, and nothing after it is
 *    examined. *written counts the units/bytes stored before the stop; on
 *    success *pos = len.
 *  - Varint decode: *consumed is the start offset of the failing value;
 *    DESERT_E_INPUT_ENDED when the input ends inside a value (or before
 *    the n-th value starts), DESERT_E_VARINT_TOO_LONG when the 5th byte has
 *    its continuation bit; bits above bit 31 are dropped; overlong forms
 *    are accepted.
 *
 * Outputs are written only inside the given capacity; encoders need 5*n
 * (varint) or 2*len (Latin-1) bytes and write exactly the returned count.
 */
#ifndef DESERT_TEST_ORACLE_H
#define DESERT_TEST_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "desert/common.h"

/* Reverses the bytes of each of the n lanes of `width` (2, 4 or 8) bytes.
 * dst == src allowed. */
void desert_oracle_bswap(void *dst, const void *src, size_t n, size_t width);

/* Exact var_u32 size of one value (1..5). */
size_t desert_oracle_var_u32_len(uint32_t v);
/* Zig-zag mapping of docs/format.md §3.3 and its inverse. */
uint32_t desert_oracle_zigzag(int32_t v);
int32_t desert_oracle_unzigzag(uint32_t u);

size_t desert_oracle_var_u32_encode(uint8_t *dst, const uint32_t *src, size_t n);
size_t desert_oracle_var_i32_encode(uint8_t *dst, const int32_t *src, size_t n);
desert_status desert_oracle_var_u32_decode(const uint8_t *src, size_t src_len, uint32_t *dst,
                                           size_t n, size_t *consumed);
desert_status desert_oracle_var_i32_decode(const uint8_t *src, size_t src_len, int32_t *dst,
                                           size_t n, size_t *consumed);

/* One UTF-8 sequence at s[0..avail): returns its length (1..4) and stores
 * the code point, or returns 0 if no complete well-formed sequence starts
 * at s[0] (avail == 0 included). */
size_t desert_oracle_utf8_decode_one(const uint8_t *s, size_t avail, uint32_t *cp);
/* Encodes a Unicode scalar value (not a surrogate, <= 0x10FFFF) into out;
 * returns 1..4. Other values: returns 0. */
size_t desert_oracle_utf8_encode_one(uint32_t cp, uint8_t out[4]);

desert_status desert_oracle_utf8_validate(const uint8_t *src, size_t len, size_t *pos);
desert_status desert_oracle_utf16_len_from_utf8(const uint8_t *src, size_t len, size_t *out_len);
desert_status desert_oracle_utf8_to_utf16(const uint8_t *src, size_t len, uint16_t *dst,
                                          size_t dst_cap, size_t *written, size_t *pos);
desert_status desert_oracle_utf8_len_from_utf16(const uint16_t *src, size_t len, size_t *out_len);
desert_status desert_oracle_utf16_to_utf8(const uint16_t *src, size_t len, uint8_t *dst,
                                          size_t dst_cap, size_t *written, size_t *pos);
size_t desert_oracle_utf8_len_from_latin1(const uint8_t *src, size_t len);
size_t desert_oracle_latin1_to_utf8(const uint8_t *src, size_t len, uint8_t *dst);
desert_status desert_oracle_utf8_to_latin1(const uint8_t *src, size_t len, uint8_t *dst,
                                           size_t dst_cap, size_t *written, size_t *pos);

#endif /* DESERT_TEST_ORACLE_H */
