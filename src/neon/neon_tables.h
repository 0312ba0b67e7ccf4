/* src/neon/neon_tables.h — declarations of the constant shuffle tables of the
 * NEON kernels, generated into neon_tables.c by gen_neon_tables.py.
 * Algorithm sources: see neon_tables.c. Bounds: every table is indexed by a
 * mask of at most 8 bits (12 for the varint table) computed in range.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_NEON_TABLES_H
#define DESERT_NEON_TABLES_H

#include <stdint.h>

/* Varint decode step for a 12-bit continuation mask (see the generator). */
typedef struct desert_neon_varint_entry {
  uint16_t shuf;     /* row of desert_neon_varint_shuf */
  uint8_t consumed;  /* input bytes used by the values decoded */
  uint8_t mode;      /* 0 fallback, 1: 6 x u16, 2: count x u32, 3: count x u64 */
  uint8_t count;     /* values decoded */
} desert_neon_varint_entry;

/* Keep the first L_k bytes of each 32-bit lane k; key = sum((L_k-1) << 2k). */
extern const uint8_t desert_neon_keep_first_shuf[256][16];
extern const uint8_t desert_neon_keep_first_len[256];
extern const uint8_t desert_neon_varint_shuf[365][16];
extern const desert_neon_varint_entry desert_neon_varint_table[4096];
/* Pack the 16-bit lanes (bytes) whose mask bit is set. */
extern const uint8_t desert_neon_compact_u16_shuf[256][16];
extern const uint8_t desert_neon_compact_u8_shuf[256][8];
/* Latin-1 -> UTF-8: from interleaved lead/cont pairs keep lead j always and
 * cont j when bit j (byte j >= 0x80) is set. */
extern const uint8_t desert_neon_latin1_expand_shuf[256][16];
extern const uint8_t desert_neon_popcount8[256];

#endif /* DESERT_NEON_TABLES_H */
