/* bench/bench_data.h — deterministic benchmark inputs (fixed seeds): text in
 * several scripts and varint value distributions.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_DATA_H
#define DESERT_BENCH_DATA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bench_text_kind {
  BENCH_TEXT_ASCII = 0,
  BENCH_TEXT_LATIN1, /* Latin-1 prose (as UTF-8: mostly ASCII + 2-byte accents) */
  BENCH_TEXT_TWO_BYTE, /* Cyrillic/Greek: mostly 2-byte sequences */
  BENCH_TEXT_CJK,      /* mostly 3-byte sequences */
  BENCH_TEXT_EMOJI,    /* 4-byte heavy */
  BENCH_TEXT_MIXED,
  BENCH_TEXT_COUNT_
} bench_text_kind;

typedef enum bench_varint_kind {
  BENCH_VARINT_ONE_BYTE = 0, /* every value < 128 */
  BENCH_VARINT_DESERT,       /* lengths as desert writes them: mostly 1-2 bytes */
  BENCH_VARINT_UNIFORM_LEN,  /* uniform 1..5 byte lengths */
  BENCH_VARINT_UNIFORM32,    /* uniform 32-bit values (mostly 5 bytes) */
  BENCH_VARINT_COUNT_
} bench_varint_kind;

const char *bench_text_name(bench_text_kind k);
const char *bench_varint_name(bench_varint_kind k);

/* Fills dst[0..*len) with valid UTF-8 of the kind, at most cap bytes, never
 * cutting a character; *len = bytes written. variant changes the content. */
void bench_make_text(bench_text_kind k, unsigned variant, uint8_t *dst, size_t cap, size_t *len);
/* n values of the distribution. */
void bench_make_varints(bench_varint_kind k, unsigned variant, uint32_t *dst, size_t n);
/* Deterministic bytes. */
void bench_make_bytes(unsigned variant, uint8_t *dst, size_t n);

#ifdef __cplusplus
}
#endif
#endif
