/* bench/bench_golem_model.h — the 1,024 entries of desert-rust's
 * golem_oplog batch as generated C structs, shared by the desert rows
 * (bench_golem_oplog.c, which builds them) and their peers
 * (bench_golem_peers.c), so every row times the same data.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_GOLEM_MODEL_H
#define DESERT_BENCH_GOLEM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "bench_golem.h"

#define GOLEM_N 1024u

typedef bench_golem_GolemOplogEntry golem_entry;

/* Strings, spans and map entries the entries point to. */
typedef struct golem_aux {
  char s1[40], s2[40];
  bench_golem_GolemOplogEntry_Create_env_entry env[2];
  bench_golem_SpanData spans[2];
  bench_golem_SpanData_LocalSpan_attributes_entry attrs[4];
  uint8_t *pay[2]; /* payload blocks (malloc'd, the caller frees them) */
  size_t pay_len[2];
} golem_aux;

/* golem_oplog_batch's GOLEM_N entries into e[0..GOLEM_N), their strings and
 * blocks in a[0..GOLEM_N) (zeroed by the caller), the sum of the block sizes
 * in *payload_total; -1 when out of memory (golem_free_aux still frees a). */
int golem_make_all(golem_entry *e, golem_aux *a, size_t *payload_total);

/* Frees a[0..GOLEM_N)'s blocks and a itself; a may be NULL. */
void golem_free_aux(golem_aux *a);

/* The payload blocks of an entry (up to two), in field order. */
size_t golem_payloads(const golem_entry *e, desert_bytes out[2]);

/* Copies the payload blocks of e[0..n) back to back into dst[0..cap) (what
 * the deserialize_copy rows own); the bytes copied, SIZE_MAX when they do
 * not fit. */
size_t golem_copy_payloads(const golem_entry *e, size_t n, uint8_t *dst, size_t cap);

/* 0 when copy holds the payload blocks of e[0..n) back to back, else 1 with
 * the first differing block in msg[0..cap). */
int golem_check_payload_copy(const golem_entry *e, size_t n, const uint8_t *copy, char *msg,
                             size_t cap);

#endif
