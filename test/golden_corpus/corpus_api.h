/* test/golden_corpus/corpus_api.h — the two corpus files that the schema
 * language cannot describe (docs/schema.md §10), written and read through the
 * hand-written API only: golden/zstd.bin (libdesert's zstd blocks) and
 * golden/api_only.bin (object references, type-registry framing and the
 * Rust-only values u128/i128, IpAddr, MacAddress, Url, Bound, Range and a
 * serde_json value in text mode). golden/README.md
 * gives their layout. Shared by regen.c (writes them from the models
 * below) and test/test_golden_corpus.c (reads them, compares with the
 * models, writes the decoded values back).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TEST_GOLDEN_CORPUS_API_H
#define DESERT_TEST_GOLDEN_CORPUS_API_H

#include "desert/reader.h"
#include "desert/values.h"
#include "desert/writer.h"

/* ---- golden/zstd.bin: three zstd blocks ---- */
typedef struct golden_zstd {
  desert_bytes text;  /* "hello hello hello", level 3 */
  desert_bytes empty; /* no bytes, level 3 */
  desert_bytes para;  /* GOLDEN_PARA, level 19 */
} golden_zstd;

/* 8 copies of a 54-byte sentence (432 bytes), also used by compressed.json. */
extern const char golden_para[];
#define GOLDEN_PARA_LEN 432u

extern const golden_zstd golden_zstd_model;
desert_status golden_zstd_write(desert_writer *w, const golden_zstd *m);
/* Views into the reader's arena (valid until its next begin). */
desert_status golden_zstd_read(desert_reader *r, golden_zstd *out);

/* ---- golden/api_only.bin ---- */

/* Node { name: String, next: Option[Node] } where every Node goes through
 * the reference table (docs/format.md §17): var_u32(0) + the node, or the
 * var_u32 id of a node already written. */
typedef struct golden_node {
  desert_str name;
  const struct golden_node *next; /* NULL: None */
} golden_node;

typedef struct golden_api_only {
  desert_u128 u128;     /* Rust u128 */
  desert_u128 i128;     /* Rust i128 (two's complement halves) */
  desert_ip_addr ip4;   /* Rust IpAddr::V4 */
  desert_ip_addr ip6;   /* Rust IpAddr::V6 */
  uint8_t mac[6];       /* mac_address::MacAddress */
  desert_str url;       /* url::Url */
  uint8_t bound_tags[3]; /* Rust Bound<i32>: 00 Unbounded, 01 Included, 02 Excluded */
  int32_t bounds[3];     /* the bound values (unused for Unbounded) */
  int32_t range[2];      /* Rust Range<i32>: start, end */
  desert_bytes json;     /* serde_json::Value, text mode: a byte block of JSON text */
  uint32_t type_id;     /* Scala type registry framing ... */
  int32_t registered;   /* ... of an Int registered as the 3rd type */
  const golden_node *graph; /* A -> B -> A (a cycle) */
  const golden_node *again; /* B once more: a bare back-reference */
} golden_api_only;

/* The registry of the framing: ids 1 and 2, a placeholder (3, 4 consumed),
 * then 5 (Scala DefaultTypeRegistry numbering). */
extern const uint32_t golden_registry_ids[3];
extern const golden_api_only golden_api_only_model;
desert_status golden_api_only_write(desert_writer *w, const golden_api_only *m);
/* Nodes are allocated in the reader's arena. */
desert_status golden_api_only_read(desert_reader *r, golden_api_only *out);

#endif /* DESERT_TEST_GOLDEN_CORPUS_API_H */
