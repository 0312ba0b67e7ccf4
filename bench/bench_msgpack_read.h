/* bench/bench_msgpack_read.h — the msgpack_object readers the msgpack-c
 * peer rows share (bench_oplog_peers.c, bench_golem_peers.c): each checks
 * the object's type (and range) and stores the value, 0 on success, -1 if
 * the object is not what the model put there. Strings and byte blocks are
 * views into the unpacked message, as desert's decoded views are. Include
 * after <msgpack.h>.
 * SPDX-License-Identifier: MIT */
#ifndef BENCH_MSGPACK_READ_H
#define BENCH_MSGPACK_READ_H

#include <stdint.h>

#include "desert.h"

static inline int mo_u64(const msgpack_object *o, uint64_t *v) {
  if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER) return -1;
  *v = o->via.u64;
  return 0;
}

static inline int mo_i64(const msgpack_object *o, int64_t *v) {
  if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
    *v = o->via.i64;
    return 0;
  }
  if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER && o->via.u64 <= (uint64_t)INT64_MAX) {
    *v = (int64_t)o->via.u64;
    return 0;
  }
  return -1;
}

/* An unsigned integer at most max (a case tag, a narrower field). */
static inline int mo_uint(const msgpack_object *o, uint64_t max, uint64_t *v) {
  return mo_u64(o, v) || *v > max ? -1 : 0;
}

static inline int mo_str(const msgpack_object *o, desert_str *s) {
  if (o->type != MSGPACK_OBJECT_STR) return -1;
  s->ptr = o->via.str.ptr;
  s->len = o->via.str.size;
  return 0;
}

static inline int mo_bin(const msgpack_object *o, desert_bytes *b) {
  if (o->type != MSGPACK_OBJECT_BIN) return -1;
  b->ptr = (const uint8_t *)o->via.bin.ptr;
  b->len = o->via.bin.size;
  return 0;
}

#endif /* BENCH_MSGPACK_READ_H */
