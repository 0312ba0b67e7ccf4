/* bench/bench_golem_oplog.h — desert-rust's golem_oplog benchmark (batch of
 * 1,024 GolemOplogEntry values, desert_benchmarks/benches/golem_oplog.rs):
 * the case table bench_main.cc registers (bench_golem_oplog.c) and the
 * payload blocks (bench_golem_oplog_payloads.c). Free of the generated
 * types so the C++ file can include it.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_GOLEM_OPLOG_H
#define DESERT_BENCH_GOLEM_OPLOG_H

#include <stddef.h>
#include <stdint.h>

#include "bench_codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Appends the golem_oplog case tables (desert rows, then the peers compiled
 * in, bench_golem_peers.c) to out[0..max); returns how many it wrote. */
size_t bench_golem_oplog_tables(codec_table *out, size_t max);

/* The inline payload blocks of the entries desert-rust's golem_oplog_batch
 * makes (its serialize_with_version bytes: 03 then the value). */
typedef enum golem_payload_kind {
  GOLEM_P_CREATE_ARGS,        /* Create.args: medium_typed_value() */
  GOLEM_P_HTTP_REQUEST,       /* HostRequest::HttpRequest(http_request(idx)) */
  GOLEM_P_HTTP_RESPONSE,      /* HostResponse::HttpResponse(http_response(idx)): 8 KiB body */
  GOLEM_P_RDBMS_REQUEST,      /* HostRequest::RdbmsRequest(rdbms_request(idx)) */
  GOLEM_P_RDBMS_RESPONSE,     /* HostResponse::RdbmsResponse(rdbms_response()): 24 rows */
  GOLEM_P_INVOKED_INPUT,      /* large_binary_typed_value(): 64 KiB */
  GOLEM_P_COMPLETED_RESPONSE, /* SchemaValue::Record [U64(idx), String("completed")] */
  GOLEM_P_PROMISE_DATA,       /* bytes(4096, idx) */
  /* Not desert-rust's: PendingUpdate carries OplogPayload::External, which
   * golden/golem_oplog.schema.json cannot express; its stand-in is an inline
   * block of 32 bytes, so the entry has the same wire size (tag, var_u32
   * length, 32 bytes = tag, 16-byte id, var_u32 length, 16-byte MD5). */
  GOLEM_P_PENDING_STANDIN
} golem_payload_kind;

/* The block's bytes for entry idx in *out (malloc'd) and *len; -1 when out
 * of memory. */
int golem_payload(golem_payload_kind kind, size_t idx, uint8_t **out, size_t *len);

/* desert-rust's bytes(size, seed): byte i = seed + i mod 251, wrapping. */
void golem_fill_bytes(uint8_t *p, size_t size, uint8_t seed);

/* desert-rust's uuid(idx): 0x1234567890abcdef0000000000000000 + idx, big-endian. */
void golem_uuid(uint8_t out[16], uint64_t idx);

#ifdef __cplusplus
}
#endif
#endif
