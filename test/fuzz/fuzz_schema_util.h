/* test/fuzz/fuzz_schema_util.h — shared part of the schema-layer harnesses
 * (fuzz_types, fuzz_schema_json) and their seed writer: the fixed schema
 * documents the harnesses decode under (JSON text, loaded once through the
 * library's own schema loader), a checked allocator for value arenas, JSON
 * trees and type sets, and the decode + round-trip check both harnesses run.
 * SPDX-License-Identifier: MIT
 *
 * The round-trip check (fzs_decode_check) on bytes b under a schema:
 *   1. decode b through a counted reader of fuzz_common (reader invariants
 *      and the memory bound of fuzz_common.h); a failure must carry a status
 *      kind and an offset inside b that equals the reader's error offset;
 *   2. on success: the canonical JSON text j1 of the value (docs/schema.md §11.5)
 *      is valid JSON; encoding the value gives bytes b1; decoding b1 gives
 *      the same canonical text and consumes all of b1; encoding that value
 *      again gives b1 exactly; j1 converted back to a value (docs/schema.md §11 input
 *      rules) re-prints to j1 and encodes to b1;
 *   3. the value arena stays within FZS_ARENA_BOUND of the node budget.
 * The value arena is not part of the reader bound of fuzz_common.h: its
 * size is bounded by the node budget (desert_codec_limits.max_values), which
 * the harnesses set to FZS_MAX_VALUES. */
#ifndef DESERT_FUZZ_SCHEMA_UTIL_H
#define DESERT_FUZZ_SCHEMA_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desert/json.h"
#include "fuzz_common.h"

/* Node budget and limits of every decode the harnesses make. */
#define FZS_MAX_VALUES ((size_t)1 << 18)
#define FZS_MAX_DEPTH 128u
#define FZS_MAX_BIGINT ((size_t)4096)
/* Bytes a value arena may hold after one decode of n input bytes. */
#define FZS_ARENA_BOUND(n) \
  (3 * FZS_MAX_VALUES * sizeof(desert_value) + 16 * (size_t)(n) + (size_t)256 * 1024)

typedef struct fzs_schema_src {
  const char *name;   /* seed file names */
  const char *doc;    /* the schema document */
  const char *sample; /* a JSON value of its root type */
} fzs_schema_src;

extern const fzs_schema_src fzs_schemas[];
extern const size_t fzs_schema_count;

/* Schema i (mod the count), loaded on first use with malloc; aborts when a
 * built-in document does not load. */
const desert_schema *fzs_schema(size_t i);

/* The checked allocator for arenas, JSON trees and type sets made per input:
 * a size header per block, frees must give the size back, and
 * fzs_aux_check_empty aborts unless everything was given back. */
const desert_allocator *fzs_aux(void);
void fzs_aux_check_empty(void);

/* Reader/writer options of a schema: the document's options, and when bit 7
 * of sel is set, request overrides from bits 0..5 (scala_chars,
 * legacy_header_strings, removed_optional_style scala, compression zlib,
 * strict_tags, strict_varint). */
void fzs_options(const desert_schema *s, uint8_t sel, desert_options *o);

/* The check described above. trace: decode through desert_type_decode_traced
 * with an observer checking the spans. Returns true when data decoded. */
bool fzs_decode_check(const desert_schema *s, const desert_options *o, const uint8_t *data,
                      size_t len, bool trace);

/* Converts value text under s and checks the conversion invariants; on
 * success the canonical text re-parses and re-converts to the same text, the
 * value encodes, and the bytes decode back to the same canonical text. First
 * the text encodes through desert_json_encode_text (and its walk alone)
 * exactly as through the whole-value path: same status, error and bytes. */
void fzs_value_check(const desert_schema *s, const desert_options *o, const char *text,
                     size_t len);

#endif /* DESERT_FUZZ_SCHEMA_UTIL_H */
