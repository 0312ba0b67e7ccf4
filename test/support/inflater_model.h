/* test/support/inflater_model.h — an independent model of how desert-scala
 * reads a zlib-flavour compressed block (docs/schema.md §12): what
 * java.util.zip.Inflater returns when fed the whole block at once with room
 * for exactly the announced length. Used by test_compress_inflater.c and
 * the fuzz_compressed harness to judge the reader; it shares no code with
 * src/values/compressed.c and drives zlib another way (see the .c file).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TEST_INFLATER_MODEL_H
#define DESERT_TEST_INFLATER_MODEL_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
  MODEL_OK = 0,      /* out holds the result (zero-padded to `plain`) */
  MODEL_CORRUPT = 1, /* Inflater throws DataFormatException */
  MODEL_NOMEM = 2    /* the model itself ran out of memory */
} model_verdict;

/* Inflates the `csize` stream bytes of a block announcing `plain` bytes.
 * out: `plain` bytes, overwritten (zeros where nothing was inflated). */
model_verdict model_java_inflate(const uint8_t *stream, size_t csize, uint8_t *out, size_t plain);

#endif
