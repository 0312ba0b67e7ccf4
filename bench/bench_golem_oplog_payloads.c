/* bench/bench_golem_oplog_payloads.c — the payload blocks of desert-rust's
 * golem_oplog benchmark (desert_benchmarks/src/golem_oplog.rs,
 * golem_schema.rs), written byte by byte from the Rust models and
 * docs/format.md: records (version byte 00, fields in order), enums
 * (00, var_u32 id, the case's record), Option (00 / 01 value), collections
 * (var_i32 count), maps (each entry a 2-tuple: 00 key value), strings
 * (var_i32 length), Vec<u8> and serde_json text (var_u32 length),
 * BigDecimal as its text, numbers big-endian — each block starting with
 * Golem's serialization version 03 (serialize_with_version).
 *
 * golden/golem_oplog.schema.json describes these blocks only as bytes
 * (InlinePayloadBytes): the schema language cannot nest a value behind the
 * version byte, so the generated code treats them as opaque byte blocks and
 * the bench keeps them as pre-serialized bytes. Their sizes are the ones
 * desert-rust writes, as derived here; Rust's HashMap order is random per
 * run, so entries of a map are written in declaration order (same size).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_golem_oplog.h"

typedef struct gp_buf {
  uint8_t *p;
  size_t len, cap;
  int failed;
} gp_buf;

static void gp_put(gp_buf *b, const void *src, size_t n) {
  if (b->failed) return;
  if (b->cap - b->len < n) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n) cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
      b->failed = 1;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, src, n);
  b->len += n;
}

static void gp_u8(gp_buf *b, uint8_t v) { gp_put(b, &v, 1); }

static void gp_be(gp_buf *b, uint64_t v, unsigned bytes) {
  uint8_t t[8];
  for (unsigned i = 0; i < bytes; i++) t[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
  gp_put(b, t, bytes);
}

static void gp_var_u32(gp_buf *b, uint32_t v) {
  while (v >= 0x80) {
    gp_u8(b, (uint8_t)(v | 0x80));
    v >>= 7;
  }
  gp_u8(b, (uint8_t)v);
}

/* Collection counts and string lengths: zig-zag var_i32 (non-negative here). */
static void gp_var_i32(gp_buf *b, uint32_t n) { gp_var_u32(b, n << 1); }

static void gp_str(gp_buf *b, const char *s) {
  size_t n = strlen(s);
  gp_var_i32(b, (uint32_t)n);
  gp_put(b, s, n);
}

static void gp_block(gp_buf *b, const void *p, size_t n) {
  gp_var_u32(b, (uint32_t)n);
  gp_put(b, p, n);
}

/* An enum case's start: the enum's version byte, the id, the case record's version byte. */
static void gp_case(gp_buf *b, uint32_t id) {
  gp_u8(b, 0);
  gp_var_u32(b, id);
  gp_u8(b, 0);
}

/* desert-rust's bytes(size, seed): seed + (i mod 251), wrapping. */
void golem_fill_bytes(uint8_t *p, size_t size, uint8_t seed) {
  for (size_t i = 0; i < size; i++) p[i] = (uint8_t)(seed + (uint8_t)(i % 251u));
}

static void gp_rust_bytes(gp_buf *b, size_t size, uint8_t seed) {
  uint8_t chunk[251];
  gp_var_u32(b, (uint32_t)size);
  for (size_t off = 0; off < size; off += sizeof chunk) {
    size_t n = size - off < sizeof chunk ? size - off : sizeof chunk;
    golem_fill_bytes(chunk, n, (uint8_t)(seed + (uint8_t)(off % 251u)));
    gp_put(b, chunk, n);
  }
}

/* uuid(idx) = 0x1234567890abcdef0000000000000000 + idx, as Uuid::from_u128. */
void golem_uuid(uint8_t out[16], uint64_t idx) {
  static const uint8_t hi[8] = {0x12, 0x34, 0x56, 0x78, 0x90, 0xab, 0xcd, 0xef};
  memcpy(out, hi, 8);
  for (int i = 0; i < 8; i++) out[8 + i] = (uint8_t)(idx >> (8 * (7 - i)));
}

/* ---- golem_schema.rs: SchemaType, SchemaValue, TypedSchemaValue -------------------- */

/* Declaration indices of the SchemaType and SchemaValue variants used. */
enum { ST_U8 = 6, ST_U32 = 8, ST_STRING = 13, ST_RECORD = 14, ST_LIST = 19, ST_OPTION = 22,
       ST_BINARY = 25 };
enum { SV_U8 = 5, SV_U32 = 7, SV_U64 = 8, SV_STRING = 12, SV_RECORD = 13, SV_LIST = 18,
       SV_OPTION = 21, SV_BINARY = 24 };

/* MetadataEnvelope::default(): doc None, aliases [], examples [], deprecated None, role None. */
static void gp_metadata(gp_buf *b) {
  static const uint8_t md[6] = {0, 0, 0, 0, 0, 0};
  gp_put(b, md, sizeof md);
}

static void gp_simple_type(gp_buf *b, uint32_t id) {
  gp_case(b, id);
  gp_metadata(b);
}

/* NamedFieldType { name, body, metadata }: the record's start and name. */
static void gp_field_start(gp_buf *b, const char *name) {
  gp_u8(b, 0);
  gp_str(b, name);
}

/* typed(root, value): graph = anonymous(record [p0: root]) ... the part
 * before root's bytes. */
static void gp_typed_start(gp_buf *b) {
  gp_u8(b, 0); /* TypedSchemaValue */
  gp_u8(b, 0); /* SchemaGraph */
  gp_var_i32(b, 0); /* defs: [] */
  gp_case(b, ST_RECORD);
  gp_var_i32(b, 1);
  gp_field_start(b, "p0");
}

/* ... between root's bytes and the value: p0's metadata, the record's
 * metadata, then SchemaValue::Record { fields: [value] }. */
static void gp_typed_middle(gp_buf *b) {
  gp_metadata(b);
  gp_metadata(b);
  gp_case(b, SV_RECORD);
  gp_var_i32(b, 1);
}

/* medium_typed_value(). */
static void gp_medium_typed_value(gp_buf *b) {
  gp_typed_start(b);
  gp_case(b, ST_RECORD);
  gp_var_i32(b, 4);
  gp_field_start(b, "id");
  gp_simple_type(b, ST_U32);
  gp_metadata(b);
  gp_field_start(b, "name");
  gp_simple_type(b, ST_STRING);
  gp_metadata(b);
  gp_field_start(b, "tag");
  gp_case(b, ST_OPTION);
  gp_simple_type(b, ST_STRING);
  gp_metadata(b);
  gp_metadata(b);
  gp_field_start(b, "scores");
  gp_case(b, ST_LIST);
  gp_simple_type(b, ST_U8);
  gp_metadata(b);
  gp_metadata(b);
  gp_metadata(b); /* the root record's */
  gp_typed_middle(b);
  gp_case(b, SV_RECORD);
  gp_var_i32(b, 4);
  gp_case(b, SV_U32);
  gp_be(b, 12345, 4);
  gp_case(b, SV_STRING);
  gp_str(b, "benchmark-test");
  gp_case(b, SV_OPTION);
  gp_u8(b, 1);
  gp_case(b, SV_STRING);
  gp_str(b, "tagged");
  gp_case(b, SV_LIST);
  gp_var_i32(b, 64);
  for (uint8_t i = 0; i < 64; i++) {
    gp_case(b, SV_U8);
    gp_u8(b, i);
  }
}

/* large_binary_typed_value(): 65,536 bytes of 0xAB. */
static void gp_large_binary_typed_value(gp_buf *b) {
  gp_typed_start(b);
  gp_case(b, ST_BINARY);
  static const uint8_t restrictions[4] = {0, 0, 0, 0}; /* BinaryRestrictions::default() */
  gp_put(b, restrictions, sizeof restrictions);
  gp_metadata(b);
  gp_typed_middle(b);
  gp_case(b, SV_BINARY);
  gp_u8(b, 0); /* BinaryValuePayload */
  gp_var_u32(b, 65536);
  uint8_t ab[1024];
  memset(ab, 0xAB, sizeof ab);
  for (int i = 0; i < 64; i++) gp_put(b, ab, sizeof ab);
  gp_u8(b, 1);
  gp_str(b, "application/octet-stream");
}

/* ---- golem_oplog.rs: HostRequest, HostResponse ----------------------------------------- */

enum { HREQ_HTTP = 1, HREQ_RDBMS = 2 };
enum { HRESP_HTTP = 1, HRESP_RDBMS = 2 };

static void gp_http_request(gp_buf *b, size_t idx) {
  char t[96];
  gp_case(b, HREQ_HTTP);
  gp_u8(b, 0); /* HostRequestHttpRequest */
  snprintf(t, sizeof t, "https://api.example.com/v1/items/%zu?include=details", idx);
  gp_str(b, t);
  gp_case(b, 1); /* SerializableHttpMethod::Post */
  gp_var_i32(b, 2);
  gp_u8(b, 0);
  gp_str(b, "content-type");
  gp_str(b, "application/json");
  gp_u8(b, 0);
  gp_str(b, "x-request-id");
  snprintf(t, sizeof t, "request-%08zu", idx);
  gp_str(b, t);
}

static void gp_http_response(gp_buf *b, size_t idx) {
  char t[32];
  gp_case(b, HRESP_HTTP);
  gp_u8(b, 0);   /* HostResponseHttpResponse */
  gp_case(b, 1); /* SerializableHttpResponse::HeadersReceived */
  gp_u8(b, 0);   /* SerializableResponseHeaders */
  gp_be(b, 200, 2);
  gp_var_i32(b, 2);
  gp_u8(b, 0);
  gp_str(b, "content-type");
  gp_var_i32(b, 1);
  gp_block(b, "application/json", 16);
  gp_u8(b, 0);
  gp_str(b, "etag");
  gp_var_i32(b, 1);
  int n = snprintf(t, sizeof t, "etag-%zu", idx);
  gp_block(b, t, (size_t)n);
  gp_u8(b, 1); /* body: Some */
  gp_rust_bytes(b, 8192, (uint8_t)idx);
}

enum { DB_INT = 2, DB_TEXT = 4, DB_JSON = 6, DB_NUMERIC = 7 };

static void gp_rdbms_request(gp_buf *b, size_t idx) {
  char t[32];
  gp_case(b, HREQ_RDBMS);
  gp_u8(b, 0); /* HostRequestRdbmsRequest */
  gp_str(b, "postgres://bench/local");
  gp_case(b, 0); /* SerializableRdbmsRequest::Query */
  gp_str(b, "select id, amount, payload from ledger where agent_id = $1 and idx < $2");
  gp_var_i32(b, 2);
  gp_case(b, DB_TEXT);
  snprintf(t, sizeof t, "agent-%zu", idx);
  gp_str(b, t);
  gp_case(b, DB_INT);
  gp_be(b, (uint64_t)idx + 100, 8);
}

static void gp_rdbms_response(gp_buf *b) {
  gp_case(b, HRESP_RDBMS);
  gp_u8(b, 0);   /* HostResponseRdbmsResponse */
  gp_case(b, 0); /* SerializableRdbmsResponse::Result */
  gp_u8(b, 0);   /* SerializableDbResult */
  static const char *cols[3][2] = {{"id", "uuid"}, {"amount", "numeric"}, {"payload", "jsonb"}};
  gp_var_i32(b, 3);
  for (int i = 0; i < 3; i++) {
    gp_u8(b, 0);
    gp_str(b, cols[i][0]);
    gp_str(b, cols[i][1]);
  }
  gp_var_i32(b, 24);
  for (unsigned i = 0; i < 24; i++) {
    uint8_t u[16];
    char t[80];
    golem_uuid(u, i);
    gp_var_i32(b, 3);
    gp_case(b, DB_TEXT);
    snprintf(t, sizeof t,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
             u[15]);
    gp_str(b, t);
    gp_case(b, DB_NUMERIC);
    gp_str(b, "123456.7891");
    gp_case(b, DB_JSON); /* serde_json::to_vec: keys sorted (BTreeMap), compact */
    int n = snprintf(t, sizeof t, "{\"idx\":%u,\"labels\":[\"bench\",\"oplog\",\"rdbms\"],\"status\":\"posted\"}", i);
    gp_block(b, t, (size_t)n);
  }
}

/* ---- the blocks ---------------------------------------------------------------------- */

int golem_payload(golem_payload_kind kind, size_t idx, uint8_t **out, size_t *len) {
  gp_buf b = {0};
  gp_u8(&b, 3); /* SERIALIZATION_VERSION_V3 */
  switch (kind) {
  case GOLEM_P_CREATE_ARGS: gp_medium_typed_value(&b); break;
  case GOLEM_P_HTTP_REQUEST: gp_http_request(&b, idx); break;
  case GOLEM_P_HTTP_RESPONSE: gp_http_response(&b, idx); break;
  case GOLEM_P_RDBMS_REQUEST: gp_rdbms_request(&b, idx); break;
  case GOLEM_P_RDBMS_RESPONSE: gp_rdbms_response(&b); break;
  case GOLEM_P_INVOKED_INPUT: gp_large_binary_typed_value(&b); break;
  case GOLEM_P_COMPLETED_RESPONSE:
    gp_case(&b, SV_RECORD);
    gp_var_i32(&b, 2);
    gp_case(&b, SV_U64);
    gp_be(&b, idx, 8);
    gp_case(&b, SV_STRING);
    gp_str(&b, "completed");
    break;
  case GOLEM_P_PROMISE_DATA: gp_rust_bytes(&b, 4096, (uint8_t)idx); break;
  default: /* GOLEM_P_PENDING_STANDIN: no version byte, 32 bytes (bench_golem_oplog.h) */
    b.len = 0;
    for (uint8_t i = 0; i < 32; i++) gp_u8(&b, (uint8_t)(idx + i));
    break;
  }
  if (b.failed) {
    free(b.p);
    return -1;
  }
  *out = b.p;
  *len = b.len;
  return 0;
}
