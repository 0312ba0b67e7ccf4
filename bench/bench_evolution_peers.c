/* bench/bench_evolution_peers.c — msgpack-c and protobuf-c beside the
 * evolution rows (bench_evolution.c, desert-rust's evolution_stress, "old
 * bytes into new type") in the same run: each case's V1 value written the
 * way the peer format is written by an old program, and read, one value per
 * op, the way the current program of that format reads it.
 *
 * Rows codec/evolution_<case>/msgpack/- and codec/evolution_<case>/protobuf-c/-,
 * the cases and V1 values of bench_evolution.c (the same ids, strings,
 * skip-tag-0 .. skip-tag-127 and large_bytes blocks).
 *
 * How each format evolves, and so what its op does:
 *   msgpack-c   a record is a map keyed by field name (an enum a map of one
 *               key, the constructor's name, to its fields' map), as
 *               self-describing msgpack is written when the schema changes.
 *               The V1 writer packs V1's fields; the op unpacks the message
 *               (msgpack_unpack_next into one msgpack_unpacked: strings and
 *               bins stay views into the input, so a removed block is
 *               parsed over, not copied) and walks the map into the
 *               current type's generated C struct, the struct desert's row
 *               fills: a known key is read, an unknown one (a removed or
 *               transient field) ignored, a missing one (an added field)
 *               gets the current document's default, a nil or missing
 *               optional field is None. Arrays (the 128 tags) go into a row
 *               arena rewound per op, as desert's go into its reader's.
 *   protobuf-c  proto/bench_evolution.proto: V1 and V2 messages per case
 *               (proto2: required plain fields, optional fields with
 *               presence, added fields optional with the schema's default,
 *               removed and transient fields deleted with their numbers
 *               reserved). The V1 message is packed once; the op is
 *               protobuf_c_message_unpack of the V2 message (default
 *               allocator) and a read of its fields, the previous op's
 *               value freed first. protobuf-c's decoded value is its own
 *               struct, strings and bytes copied, and a field the V2
 *               message does not know is kept as an unknown field (its
 *               bytes copied too): that is how protobuf-c skips a removed
 *               field, and the op pays for it.
 * desert's rows leave a trailing removed or transient field unread (the
 * V1 records have no evolution steps, docs/format.md §9.6); both peers must
 * at least parse over it.
 *
 * Verified before timing (and by --verify): the V1 value is also written
 * with desert's V1 generated code and read with the current one, as
 * desert's row does; the peer's decoded value (protobuf-c's converted into
 * the same generated struct) gives the same JSON (P_T_to_json) as desert's;
 * msgpack consumed its whole message; protobuf-c kept exactly one unknown
 * field in the cases with a removed or transient field, none otherwise.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_evo.h"
#include "bench_evo_removed.h"
#include "bench_evo_removed_v1.h"
#include "bench_evo_transient.h"
#include "bench_evo_transient_v1.h"
#include "bench_evo_v1.h"
#include "bench_golem_oplog.h"
#include "bench_oplog_model.h"
#include "desert.h"

#ifdef DESERT_BENCH_HAVE_MSGPACK
#include <msgpack.h>

#include "bench_msgpack_read.h"
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
#include "bench_evolution.pb-c.h"
#endif

#if defined(DESERT_BENCH_HAVE_MSGPACK) || defined(DESERT_BENCH_HAVE_PROTOBUF_C)

enum { EP_ADDED, EP_OPTIONAL, EP_REMOVED, EP_TRANSIENT, EP_NESTED_RUNNING, EP_NESTED_FINISHED };
enum { EP_MSGPACK, EP_PROTOBUF };

#define EP_TAGS 128u

/* The V1 values of desert-rust's evolution_stress (bench_evolution.c). */
static const char kAddedName[] = "bench-added-v1";
static const char kOptionalLabel[] = "was-required";
static const char kRemovedLabel[] = "large payload that should be skipped";
static const char kTransientName[] = "transient-cache";
static const char kRequestId[] = "request-0001";
static const char kTraceDefault[] = "trace-default";

typedef union ep_value {
  bench_evo_AddedChunkV2 added;
  bench_evo_OptionalV2 optional;
  bench_evo_removed_RemovedPayloadV2 removed;
  bench_evo_transient_TransientV2 transient;
  bench_evo_NestedEnumV2 nested;
} ep_value;

typedef struct ep_state {
  int which, impl;
  uint8_t *big; /* the large_bytes field of the V1 value, NULL when none */
  size_t big_len;
  char (*tags)[24];
  uint8_t *in; /* the peer's V1 message */
  size_t len;
  oplog_arena mem; /* msgpack: the decoded arrays; verification: conversions */
  ep_value out;    /* msgpack: the decoded value */
#ifdef DESERT_BENCH_HAVE_MSGPACK
  msgpack_unpacked up;
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
  const ProtobufCMessageDescriptor *v2;
  ProtobufCMessage *got; /* the unpacked V2 value, kept until the next op */
#endif
} ep_state;

static desert_str ep_s(const char *s) { return (desert_str){s, strlen(s)}; }

static void ep_teardown(void *p) {
  ep_state *s = p;
  if (!s) return;
#ifdef DESERT_BENCH_HAVE_MSGPACK
  msgpack_unpacked_destroy(&s->up);
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
  if (s->got) protobuf_c_message_free_unpacked(s->got, NULL);
#endif
  oplog_arena_free(&s->mem);
  free(s->big);
  free(s->tags);
  free(s->in);
  free(s);
}

/* ================================ msgpack-c ================================ */
#ifdef DESERT_BENCH_HAVE_MSGPACK

static void mp_key(msgpack_packer *pk, const char *k) {
  msgpack_pack_str_with_body(pk, k, strlen(k));
}

static void mp_kv_str(msgpack_packer *pk, const char *k, const char *v) {
  mp_key(pk, k);
  mp_key(pk, v);
}

static void mp_kv_u64(msgpack_packer *pk, const char *k, uint64_t v) {
  mp_key(pk, k);
  msgpack_pack_uint64(pk, v);
}

static void mp_kv_bin(msgpack_packer *pk, const char *k, const uint8_t *p, size_t n) {
  mp_key(pk, k);
  msgpack_pack_bin_with_body(pk, p, n);
}

/* The V1 value as an old program packs it: maps keyed by field name. */
static int mp_write_v1(const ep_state *s, msgpack_sbuffer *sb) {
  msgpack_packer pk;
  msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
  switch (s->which) {
  case EP_ADDED:
    msgpack_pack_map(&pk, 2);
    mp_kv_u64(&pk, "id", 42);
    mp_kv_str(&pk, "name", kAddedName);
    return 0;
  case EP_OPTIONAL:
    msgpack_pack_map(&pk, 2);
    mp_kv_u64(&pk, "id", 200);
    mp_kv_str(&pk, "label", kOptionalLabel);
    return 0;
  case EP_REMOVED:
    msgpack_pack_map(&pk, 4);
    mp_kv_u64(&pk, "id", 100);
    mp_kv_str(&pk, "label", kRemovedLabel);
    mp_key(&pk, "tags");
    msgpack_pack_array(&pk, EP_TAGS);
    for (size_t i = 0; i < EP_TAGS; i++) mp_key(&pk, s->tags[i]);
    mp_kv_bin(&pk, "payload", s->big, s->big_len);
    return 0;
  case EP_TRANSIENT:
    msgpack_pack_map(&pk, 3);
    mp_kv_u64(&pk, "id", 300);
    mp_kv_str(&pk, "name", kTransientName);
    mp_kv_bin(&pk, "cached", s->big, s->big_len);
    return 0;
  case EP_NESTED_RUNNING:
    msgpack_pack_map(&pk, 1);
    mp_key(&pk, "Running");
    msgpack_pack_map(&pk, 2);
    mp_kv_str(&pk, "request_id", kRequestId);
    mp_kv_bin(&pk, "payload", s->big, s->big_len);
    return 0;
  default:
    msgpack_pack_map(&pk, 1);
    mp_key(&pk, "Finished");
    msgpack_pack_map(&pk, 1);
    mp_kv_str(&pk, "result", "ok");
    return 0;
  }
}

/* Whether map key k is the field name `name` (n = its length). */
static inline int mo_is(const msgpack_object *k, const char *name, size_t n) {
  return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
         memcmp(k->via.str.ptr, name, n) == 0;
}
#define MO_IS(k, lit) mo_is((k), (lit), sizeof(lit) - 1)

/* A list of strings into the arena. */
static int mo_strs(oplog_arena *a, const msgpack_object *o, desert_str **items, size_t *count) {
  if (o->type != MSGPACK_OBJECT_ARRAY) return -1;
  size_t n = o->via.array.size;
  desert_str *v = n ? oplog_arena_alloc(a, n * sizeof *v) : NULL;
  if (n && !v) return -1;
  for (size_t i = 0; i < n; i++)
    if (mo_str(&o->via.array.ptr[i], &v[i])) return -1;
  *items = v;
  *count = n;
  return 0;
}

/* An optional string: nil is None. */
static int mo_opt_str(const msgpack_object *o, bool *has, desert_str *v) {
  *has = o->type != MSGPACK_OBJECT_NIL;
  return *has ? mo_str(o, v) : 0;
}

static int mo_added(oplog_arena *a, const msgpack_object *o, bench_evo_AddedChunkV2 *v) {
  if (o->type != MSGPACK_OBJECT_MAP) return -1;
  memset(v, 0, sizeof *v);
  v->enabled = true; /* FieldAdded defaults; metadata, tags, retry_count empty / 0 */
  unsigned seen = 0;
  for (uint32_t i = 0; i < o->via.map.size; i++) {
    const msgpack_object *k = &o->via.map.ptr[i].key, *x = &o->via.map.ptr[i].val;
    int bad = 0;
    if (MO_IS(k, "id")) {
      bad = mo_u64(x, &v->id);
      seen |= 1;
    } else if (MO_IS(k, "name")) {
      bad = mo_str(x, &v->name);
      seen |= 2;
    } else if (MO_IS(k, "metadata")) {
      size_t n = x->type == MSGPACK_OBJECT_MAP ? x->via.map.size : 0;
      bench_evo_AddedChunkV2_metadata_entry *m = n ? oplog_arena_alloc(a, n * sizeof *m) : NULL;
      bad = x->type != MSGPACK_OBJECT_MAP || (n && !m);
      for (size_t j = 0; !bad && j < n; j++)
        bad = mo_str(&x->via.map.ptr[j].key, &m[j].key) ||
              mo_str(&x->via.map.ptr[j].val, &m[j].value);
      v->metadata.items = m;
      v->metadata.count = n;
    } else if (MO_IS(k, "tags")) {
      bad = mo_strs(a, x, &v->tags.items, &v->tags.count);
    } else if (MO_IS(k, "retry_count")) {
      uint64_t u = 0;
      bad = mo_uint(x, UINT32_MAX, &u);
      v->retry_count = (uint32_t)u;
    } else if (MO_IS(k, "enabled")) {
      bad = x->type != MSGPACK_OBJECT_BOOLEAN;
      v->enabled = x->via.boolean;
    }
    if (bad) return -1;
  }
  return seen == 3 ? 0 : -1;
}

static int mo_optional(const msgpack_object *o, bench_evo_OptionalV2 *v) {
  if (o->type != MSGPACK_OBJECT_MAP) return -1;
  memset(v, 0, sizeof *v);
  unsigned seen = 0;
  for (uint32_t i = 0; i < o->via.map.size; i++) {
    const msgpack_object *k = &o->via.map.ptr[i].key, *x = &o->via.map.ptr[i].val;
    int bad = 0;
    if (MO_IS(k, "id")) {
      bad = mo_u64(x, &v->id);
      seen |= 1;
    } else if (MO_IS(k, "label")) {
      bad = mo_opt_str(x, &v->has_label, &v->label);
    }
    if (bad) return -1;
  }
  return seen == 1 ? 0 : -1;
}

static int mo_removed(oplog_arena *a, const msgpack_object *o,
                      bench_evo_removed_RemovedPayloadV2 *v) {
  if (o->type != MSGPACK_OBJECT_MAP) return -1;
  memset(v, 0, sizeof *v);
  unsigned seen = 0;
  for (uint32_t i = 0; i < o->via.map.size; i++) {
    const msgpack_object *k = &o->via.map.ptr[i].key, *x = &o->via.map.ptr[i].val;
    int bad = 0;
    if (MO_IS(k, "id")) {
      bad = mo_u64(x, &v->id);
      seen |= 1;
    } else if (MO_IS(k, "label")) {
      bad = mo_str(x, &v->label);
      seen |= 2;
    } else if (MO_IS(k, "tags")) {
      bad = mo_strs(a, x, &v->tags.items, &v->tags.count);
      seen |= 4;
    }
    if (bad) return -1;
  }
  return seen == 7 ? 0 : -1;
}

static int mo_transient(const msgpack_object *o, bench_evo_transient_TransientV2 *v) {
  if (o->type != MSGPACK_OBJECT_MAP) return -1;
  memset(v, 0, sizeof *v); /* cached: transient, empty */
  unsigned seen = 0;
  for (uint32_t i = 0; i < o->via.map.size; i++) {
    const msgpack_object *k = &o->via.map.ptr[i].key, *x = &o->via.map.ptr[i].val;
    int bad = 0;
    if (MO_IS(k, "id")) {
      bad = mo_u64(x, &v->id);
      seen |= 1;
    } else if (MO_IS(k, "name")) {
      bad = mo_str(x, &v->name);
      seen |= 2;
    }
    if (bad) return -1;
  }
  return seen == 3 ? 0 : -1;
}

static int mo_nested(oplog_arena *a, const msgpack_object *o, bench_evo_NestedEnumV2 *v) {
  if (o->type != MSGPACK_OBJECT_MAP || o->via.map.size != 1) return -1;
  const msgpack_object *c = &o->via.map.ptr[0].key, *f = &o->via.map.ptr[0].val;
  if (f->type != MSGPACK_OBJECT_MAP) return -1;
  memset(v, 0, sizeof *v);
  unsigned seen = 0;
  if (MO_IS(c, "Running")) {
    v->tag = bench_evo_NestedEnumV2_tag_Running;
    v->Running.trace_id = (desert_str){kTraceDefault, sizeof kTraceDefault - 1};
    for (uint32_t i = 0; i < f->via.map.size; i++) {
      const msgpack_object *k = &f->via.map.ptr[i].key, *x = &f->via.map.ptr[i].val;
      int bad = 0;
      if (MO_IS(k, "request_id")) {
        bad = mo_str(x, &v->Running.request_id);
        seen |= 1;
      } else if (MO_IS(k, "trace_id")) {
        bad = mo_str(x, &v->Running.trace_id);
      }
      if (bad) return -1;
    }
    return seen == 1 ? 0 : -1;
  }
  if (!MO_IS(c, "Finished")) return -1;
  v->tag = bench_evo_NestedEnumV2_tag_Finished;
  for (uint32_t i = 0; i < f->via.map.size; i++) {
    const msgpack_object *k = &f->via.map.ptr[i].key, *x = &f->via.map.ptr[i].val;
    int bad = 0;
    if (MO_IS(k, "result")) {
      bad = mo_opt_str(x, &v->Finished.has_result, &v->Finished.result);
    } else if (MO_IS(k, "metrics")) {
      size_t n = x->type == MSGPACK_OBJECT_ARRAY ? x->via.array.size : 0;
      uint64_t *m = n ? oplog_arena_alloc(a, n * sizeof *m) : NULL;
      bad = x->type != MSGPACK_OBJECT_ARRAY || (n && !m);
      for (size_t j = 0; !bad && j < n; j++) bad = mo_u64(&x->via.array.ptr[j], &m[j]);
      v->Finished.metrics.items = m;
      v->Finished.metrics.count = n;
    }
    if (bad) return -1;
  }
  return 0;
}

static uint64_t mp_read(ep_state *s) {
  size_t off = 0;
  if (msgpack_unpack_next(&s->up, (const char *)s->in, s->len, &off) != MSGPACK_UNPACK_SUCCESS)
    return 0;
  const msgpack_object *o = &s->up.data;
  oplog_arena_reset(&s->mem);
  switch (s->which) {
  case EP_ADDED: {
    const bench_evo_AddedChunkV2 *v = &s->out.added;
    if (mo_added(&s->mem, o, &s->out.added)) return 0;
    return v->id + v->name.len + v->tags.count + v->retry_count + v->enabled;
  }
  case EP_OPTIONAL: {
    const bench_evo_OptionalV2 *v = &s->out.optional;
    if (mo_optional(o, &s->out.optional)) return 0;
    return v->id + v->label.len + v->has_label;
  }
  case EP_REMOVED: {
    const bench_evo_removed_RemovedPayloadV2 *v = &s->out.removed;
    if (mo_removed(&s->mem, o, &s->out.removed)) return 0;
    return v->id + v->label.len + v->tags.count;
  }
  case EP_TRANSIENT: {
    const bench_evo_transient_TransientV2 *v = &s->out.transient;
    if (mo_transient(o, &s->out.transient)) return 0;
    return v->id + v->name.len + v->cached.len;
  }
  default: {
    const bench_evo_NestedEnumV2 *n = &s->out.nested;
    if (mo_nested(&s->mem, o, &s->out.nested)) return 0;
    return 1u + (uint64_t)n->tag +
           (n->tag == bench_evo_NestedEnumV2_tag_Running
                ? n->Running.request_id.len + n->Running.trace_id.len
                : n->Finished.result.len + n->Finished.metrics.count);
  }
  }
}

#endif /* DESERT_BENCH_HAVE_MSGPACK */

/* ================================ protobuf-c ================================ */
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C

/* The V1 message packed into a malloc'd buffer, and the V2 descriptor. */
static int pb_write_v1(ep_state *s) {
  char *tags[EP_TAGS];
  Evopb__AddedChunkV1 added = EVOPB__ADDED_CHUNK_V1__INIT;
  Evopb__OptionalV1 optional = EVOPB__OPTIONAL_V1__INIT;
  Evopb__RemovedPayloadV1 removed = EVOPB__REMOVED_PAYLOAD_V1__INIT;
  Evopb__TransientV1 transient = EVOPB__TRANSIENT_V1__INIT;
  Evopb__RunningV1 running = EVOPB__RUNNING_V1__INIT;
  Evopb__FinishedV1 finished = EVOPB__FINISHED_V1__INIT;
  Evopb__NestedEnumV1 nested = EVOPB__NESTED_ENUM_V1__INIT;
  ProtobufCBinaryData big = {s->big_len, s->big};
  const ProtobufCMessage *m;
  switch (s->which) {
  case EP_ADDED:
    added.id = 42;
    added.name = (char *)(uintptr_t)kAddedName;
    m = &added.base;
    s->v2 = &evopb__added_chunk_v2__descriptor;
    break;
  case EP_OPTIONAL:
    optional.id = 200;
    optional.label = (char *)(uintptr_t)kOptionalLabel;
    m = &optional.base;
    s->v2 = &evopb__optional_v2__descriptor;
    break;
  case EP_REMOVED:
    for (size_t i = 0; i < EP_TAGS; i++) tags[i] = s->tags[i];
    removed.id = 100;
    removed.label = (char *)(uintptr_t)kRemovedLabel;
    removed.n_tags = EP_TAGS;
    removed.tags = tags;
    removed.payload = big;
    m = &removed.base;
    s->v2 = &evopb__removed_payload_v2__descriptor;
    break;
  case EP_TRANSIENT:
    transient.id = 300;
    transient.name = (char *)(uintptr_t)kTransientName;
    transient.cached = big;
    m = &transient.base;
    s->v2 = &evopb__transient_v2__descriptor;
    break;
  case EP_NESTED_RUNNING:
    running.request_id = (char *)(uintptr_t)kRequestId;
    running.payload = big;
    nested.v_case = EVOPB__NESTED_ENUM_V1__V_RUNNING;
    nested.running = &running;
    m = &nested.base;
    s->v2 = &evopb__nested_enum_v2__descriptor;
    break;
  default:
    finished.result = (char *)(uintptr_t) "ok";
    nested.v_case = EVOPB__NESTED_ENUM_V1__V_FINISHED;
    nested.finished = &finished;
    m = &nested.base;
    s->v2 = &evopb__nested_enum_v2__descriptor;
    break;
  }
  s->len = protobuf_c_message_get_packed_size(m);
  if (!(s->in = malloc(s->len ? s->len : 1))) return -1;
  return protobuf_c_message_pack(m, s->in) == s->len ? 0 : -1;
}

static uint64_t pb_read(ep_state *s) {
  if (s->got) protobuf_c_message_free_unpacked(s->got, NULL);
  s->got = protobuf_c_message_unpack(s->v2, NULL, s->len, s->in);
  if (!s->got) return 0;
  switch (s->which) {
  case EP_ADDED: {
    const Evopb__AddedChunkV2 *v = (const Evopb__AddedChunkV2 *)s->got;
    return v->id + (uint8_t)v->name[0] + v->n_tags + v->n_metadata + v->retry_count +
           (uint64_t)v->enabled;
  }
  case EP_OPTIONAL: {
    const Evopb__OptionalV2 *v = (const Evopb__OptionalV2 *)s->got;
    return v->id + (v->label ? 1u + (uint8_t)v->label[0] : 0u);
  }
  case EP_REMOVED: {
    const Evopb__RemovedPayloadV2 *v = (const Evopb__RemovedPayloadV2 *)s->got;
    return v->id + (uint8_t)v->label[0] + v->n_tags;
  }
  case EP_TRANSIENT: {
    const Evopb__TransientV2 *v = (const Evopb__TransientV2 *)s->got;
    return v->id + (uint8_t)v->name[0];
  }
  default: {
    const Evopb__NestedEnumV2 *v = (const Evopb__NestedEnumV2 *)s->got;
    if (v->v_case == EVOPB__NESTED_ENUM_V2__V_RUNNING && v->running)
      return 1u + (uint8_t)v->running->request_id[0] + (uint8_t)v->running->trace_id[0];
    if (v->v_case == EVOPB__NESTED_ENUM_V2__V_FINISHED && v->finished)
      return 2u + (v->finished->result ? (uint8_t)v->finished->result[0] : 0u) +
             v->finished->n_metrics;
    return 0;
  }
  }
}

/* The unpacked V2 message as the current type's generated struct (views
 * into the message, arrays in a); -1 when it is not the expected shape. */
static desert_str pb_s(const char *p) { return (desert_str){p, p ? strlen(p) : 0}; }

static int pb_strs(oplog_arena *a, char *const *src, size_t n, desert_str **items, size_t *count) {
  desert_str *v = n ? oplog_arena_alloc(a, n * sizeof *v) : NULL;
  if (n && !v) return -1;
  for (size_t i = 0; i < n; i++) v[i] = pb_s(src[i]);
  *items = v;
  *count = n;
  return 0;
}

static int pb_convert(ep_state *s, ep_value *out) {
  memset(out, 0, sizeof *out);
  oplog_arena_reset(&s->mem);
  switch (s->which) {
  case EP_ADDED: {
    const Evopb__AddedChunkV2 *v = (const Evopb__AddedChunkV2 *)s->got;
    bench_evo_AddedChunkV2 *o = &out->added;
    o->id = v->id;
    o->name = pb_s(v->name);
    o->metadata.count = v->n_metadata;
    o->metadata.items = v->n_metadata
                            ? oplog_arena_alloc(&s->mem, v->n_metadata * sizeof *o->metadata.items)
                            : NULL;
    if (v->n_metadata && !o->metadata.items) return -1;
    for (size_t i = 0; i < v->n_metadata; i++) {
      o->metadata.items[i].key = pb_s(v->metadata[i]->key);
      o->metadata.items[i].value = pb_s(v->metadata[i]->value);
    }
    o->retry_count = v->retry_count;
    o->enabled = v->enabled != 0;
    return pb_strs(&s->mem, v->tags, v->n_tags, &o->tags.items, &o->tags.count);
  }
  case EP_OPTIONAL: {
    const Evopb__OptionalV2 *v = (const Evopb__OptionalV2 *)s->got;
    out->optional.id = v->id;
    out->optional.has_label = v->label != NULL;
    out->optional.label = pb_s(v->label);
    return 0;
  }
  case EP_REMOVED: {
    const Evopb__RemovedPayloadV2 *v = (const Evopb__RemovedPayloadV2 *)s->got;
    out->removed.id = v->id;
    out->removed.label = pb_s(v->label);
    return pb_strs(&s->mem, v->tags, v->n_tags, &out->removed.tags.items, &out->removed.tags.count);
  }
  case EP_TRANSIENT: {
    const Evopb__TransientV2 *v = (const Evopb__TransientV2 *)s->got;
    out->transient.id = v->id;
    out->transient.name = pb_s(v->name);
    return 0;
  }
  default: {
    const Evopb__NestedEnumV2 *v = (const Evopb__NestedEnumV2 *)s->got;
    if (v->v_case == EVOPB__NESTED_ENUM_V2__V_RUNNING && v->running) {
      out->nested.tag = bench_evo_NestedEnumV2_tag_Running;
      out->nested.Running.request_id = pb_s(v->running->request_id);
      out->nested.Running.trace_id = pb_s(v->running->trace_id);
      return 0;
    }
    if (v->v_case != EVOPB__NESTED_ENUM_V2__V_FINISHED || !v->finished) return -1;
    out->nested.tag = bench_evo_NestedEnumV2_tag_Finished;
    out->nested.Finished.has_result = v->finished->result != NULL;
    out->nested.Finished.result = pb_s(v->finished->result);
    out->nested.Finished.metrics.items = v->finished->metrics;
    out->nested.Finished.metrics.count = v->finished->n_metrics;
    return 0;
  }
  }
}

#endif /* DESERT_BENCH_HAVE_PROTOBUF_C */

/* ================================ rows ================================ */

static uint64_t ep_run(void *p, size_t i) {
  (void)i;
  ep_state *s = p;
#if defined(DESERT_BENCH_HAVE_MSGPACK) && defined(DESERT_BENCH_HAVE_PROTOBUF_C)
  return s->impl == EP_MSGPACK ? mp_read(s) : pb_read(s);
#elif defined(DESERT_BENCH_HAVE_MSGPACK)
  return mp_read(s);
#else
  return pb_read(s);
#endif
}
CODEC_BATCH(ep_run)

static void *ep_setup(int which, int impl, codec_info *info) {
  ep_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->which = which;
  s->impl = impl;
  oplog_arena_init(&s->mem);
#ifdef DESERT_BENCH_HAVE_MSGPACK
  msgpack_unpacked_init(&s->up);
#endif
  /* Sizes and seeds of the Rust benchmark's large_bytes fields. */
  s->big_len = which == EP_REMOVED          ? 256u * 1024u
               : which == EP_TRANSIENT      ? 128u * 1024u
               : which == EP_NESTED_RUNNING ? 64u * 1024u
                                            : 0;
  if (s->big_len) {
    if (!(s->big = malloc(s->big_len))) goto fail;
    golem_fill_bytes(s->big, s->big_len,
                     which == EP_REMOVED     ? 0xA5
                     : which == EP_TRANSIENT ? 0x5A
                                             : 0x11);
  }
  if (which == EP_REMOVED) {
    if (!(s->tags = calloc(EP_TAGS, sizeof *s->tags))) goto fail;
    for (size_t i = 0; i < EP_TAGS; i++) snprintf(s->tags[i], sizeof s->tags[i], "skip-tag-%zu", i);
  }
  if (impl == EP_MSGPACK) {
#ifdef DESERT_BENCH_HAVE_MSGPACK
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    mp_write_v1(s, &sb);
    s->len = sb.size;
    s->in = (uint8_t *)msgpack_sbuffer_release(&sb);
    if (!s->in) goto fail;
#else
    goto fail;
#endif
  } else {
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
    if (pb_write_v1(s)) goto fail;
#else
    goto fail;
#endif
  }
  info->bytes_per_op = s->len;
  info->items_per_op = 1;
  return s;
fail:
  ep_teardown(s);
  return NULL;
}

/* ---- verification ---- */

/* What desert's row decodes: the V1 value written with desert's V1
 * generated code, read with the current one, into *v (views into *bytes,
 * which the caller frees, arrays in r's arena). */
static desert_status ep_desert_value(const ep_state *s, desert_reader *r, uint8_t **bytes,
                                     ep_value *v) {
  desert_writer *w;
  desert_status st = desert_writer_create(NULL, &w);
  if (st) return st;
  desert_str tags[EP_TAGS];
  desert_bytes big = {s->big, s->big_len};
  switch (s->which) {
  case EP_ADDED: {
    bench_evo_v1_AddedChunkV1 x = {42, ep_s(kAddedName)};
    st = bench_evo_v1_encode_AddedChunkV1(w, &x);
    break;
  }
  case EP_OPTIONAL: {
    bench_evo_v1_OptionalV1 x = {200, ep_s(kOptionalLabel)};
    st = bench_evo_v1_encode_OptionalV1(w, &x);
    break;
  }
  case EP_REMOVED: {
    for (size_t i = 0; i < EP_TAGS; i++) tags[i] = ep_s(s->tags[i]);
    bench_evo_removed_v1_RemovedPayloadV1 x = bench_evo_removed_v1_RemovedPayloadV1_INIT;
    x.id = 100;
    x.label = ep_s(kRemovedLabel);
    x.tags.items = tags;
    x.tags.count = EP_TAGS;
    x.payload = big;
    st = bench_evo_removed_v1_encode_RemovedPayloadV1(w, &x);
    break;
  }
  case EP_TRANSIENT: {
    bench_evo_transient_v1_TransientV1 x = {300, ep_s(kTransientName), big};
    st = bench_evo_transient_v1_encode_TransientV1(w, &x);
    break;
  }
  default: {
    bench_evo_v1_NestedEnumV1 x = bench_evo_v1_NestedEnumV1_INIT;
    if (s->which == EP_NESTED_RUNNING) {
      x.tag = bench_evo_v1_NestedEnumV1_tag_Running;
      x.Running.request_id = ep_s(kRequestId);
      x.Running.payload = big;
    } else {
      x.tag = bench_evo_v1_NestedEnumV1_tag_Finished;
      x.Finished.result = ep_s("ok");
    }
    st = bench_evo_v1_encode_NestedEnumV1(w, &x);
    break;
  }
  }
  size_t len = 0;
  const uint8_t *data = desert_writer_data(w, &len);
  *bytes = NULL;
  if (!st && !(*bytes = malloc(len ? len : 1))) st = DESERT_E_NOMEM;
  if (!st) memcpy(*bytes, data, len);
  desert_writer_free(w);
  if (st) return st;
  memset(v, 0, sizeof *v);
  desert_reader_begin(r, *bytes, len);
  switch (s->which) {
  case EP_ADDED:
    return bench_evo_decode_AddedChunkV2(r, &v->added);
  case EP_OPTIONAL:
    return bench_evo_decode_OptionalV2(r, &v->optional);
  case EP_REMOVED:
    return bench_evo_removed_decode_RemovedPayloadV2(r, &v->removed);
  case EP_TRANSIENT:
    return bench_evo_transient_decode_TransientV2(r, &v->transient);
  default:
    return bench_evo_decode_NestedEnumV2(r, &v->nested);
  }
}

static desert_status ep_json(int which, const ep_value *v, desert_json_buf *b) {
  switch (which) {
  case EP_ADDED:
    return bench_evo_AddedChunkV2_to_json(&v->added, b);
  case EP_OPTIONAL:
    return bench_evo_OptionalV2_to_json(&v->optional, b);
  case EP_REMOVED:
    return bench_evo_removed_RemovedPayloadV2_to_json(&v->removed, b);
  case EP_TRANSIENT:
    return bench_evo_transient_TransientV2_to_json(&v->transient, b);
  default:
    return bench_evo_NestedEnumV2_to_json(&v->nested, b);
  }
}

static int ep_verify(void *p, char *msg, size_t cap) {
  ep_state *s = p;
  if (!ep_run(s, 0)) return codec_fail(msg, cap, "the current type does not read the V1 message");
  ep_value got;
  if (s->impl == EP_MSGPACK) {
#ifdef DESERT_BENCH_HAVE_MSGPACK
    size_t off = 0;
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    int whole =
        msgpack_unpack_next(&up, (const char *)s->in, s->len, &off) == MSGPACK_UNPACK_SUCCESS &&
        off == s->len;
    msgpack_unpacked_destroy(&up);
    if (!whole) return codec_fail(msg, cap, "msgpack: the V1 message is not one whole object");
    got = s->out;
#endif
  } else {
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
    size_t want_unknown =
        s->which == EP_REMOVED || s->which == EP_TRANSIENT || s->which == EP_NESTED_RUNNING ? 1u
                                                                                            : 0u;
    const ProtobufCMessage *inner = s->got;
    const Evopb__NestedEnumV2 *n = (const Evopb__NestedEnumV2 *)s->got;
    if (s->which == EP_NESTED_RUNNING && n->running) inner = &n->running->base;
    if (inner->n_unknown_fields != want_unknown)
      return codec_fail(msg, cap, "protobuf-c kept %u unknown fields, expected %zu",
                        inner->n_unknown_fields, want_unknown);
    if (pb_convert(s, &got))
      return codec_fail(msg, cap, "protobuf-c: the V2 value does not convert");
#endif
  }
  desert_reader *r = NULL;
  uint8_t *bytes = NULL;
  ep_value want;
  desert_json_buf a = {0}, b = {0};
  int fail = 0;
  desert_status st = desert_reader_create(NULL, &r);
  if (!st) st = ep_desert_value(s, r, &bytes, &want);
  if (st) {
    fail = codec_fail(msg, cap, "desert's reference value: %s", desert_status_name(st));
    goto out;
  }
  st = ep_json(s->which, &want, &a);
  if (!st) st = ep_json(s->which, &got, &b);
  if (st || a.failed || b.failed) {
    fail = codec_fail(msg, cap, "to_json: %s", desert_status_name(st));
    goto out;
  }
  if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
    fail =
        codec_fail(msg, cap, "peer value %.*s differs from desert's %.*s",
                   (int)(b.len < 80 ? b.len : 80), b.data, (int)(a.len < 80 ? a.len : 80), a.data);
out:
  desert_json_buf_free(&a);
  desert_json_buf_free(&b);
  desert_reader_free(r);
  free(bytes);
  return fail;
}

/* ---- table ---- */

#define EP_SETUP(name, which, impl)                                              \
  static void *ep_setup_##name(desert_isa isa, size_t param, codec_info *info) { \
    (void)isa;                                                                   \
    (void)param;                                                                 \
    return ep_setup(which, impl, info);                                          \
  }
#define EP_ROW(key, name, impl_name, desc)                                              \
  {                                                                                     \
    key, impl_name, desc, -1, 0, 0, 0, ep_setup_##name, ep_verify, ep_run, ep_teardown, \
        ep_run_batch                                                                    \
  }

#ifdef DESERT_BENCH_HAVE_MSGPACK
EP_SETUP(mp_added, EP_ADDED, EP_MSGPACK)
EP_SETUP(mp_optional, EP_OPTIONAL, EP_MSGPACK)
EP_SETUP(mp_removed, EP_REMOVED, EP_MSGPACK)
EP_SETUP(mp_transient, EP_TRANSIENT, EP_MSGPACK)
EP_SETUP(mp_nested_running, EP_NESTED_RUNNING, EP_MSGPACK)
EP_SETUP(mp_nested_finished, EP_NESTED_FINISHED, EP_MSGPACK)
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
EP_SETUP(pb_added, EP_ADDED, EP_PROTOBUF)
EP_SETUP(pb_optional, EP_OPTIONAL, EP_PROTOBUF)
EP_SETUP(pb_removed, EP_REMOVED, EP_PROTOBUF)
EP_SETUP(pb_transient, EP_TRANSIENT, EP_PROTOBUF)
EP_SETUP(pb_nested_running, EP_NESTED_RUNNING, EP_PROTOBUF)
EP_SETUP(pb_nested_finished, EP_NESTED_FINISHED, EP_PROTOBUF)
#endif

// clang-format off
static const codec_case bench_evolution_peer_cases[] = {
#ifdef DESERT_BENCH_HAVE_MSGPACK
  EP_ROW("evolution_added", mp_added, "msgpack",
         "msgpack-c: V1 map by field name read as V2, four added fields defaulted"),
  EP_ROW("evolution_optional", mp_optional, "msgpack",
         "msgpack-c: V1 map read as V2, the plain label read as Some"),
  EP_ROW("evolution_removed", mp_removed, "msgpack",
         "msgpack-c: V1 map read as V2, 128 tags, the removed 256 KiB bin parsed over"),
  EP_ROW("evolution_transient", mp_transient, "msgpack",
         "msgpack-c: V1 map read as V2, the 128 KiB field made transient ignored"),
  EP_ROW("evolution_nested_running", mp_nested_running, "msgpack",
         "msgpack-c: {Running: map} read as V2, 64 KiB payload ignored, trace_id default"),
  EP_ROW("evolution_nested_finished", mp_nested_finished, "msgpack",
         "msgpack-c: {Finished: map} read as V2, result as Some, metrics default"),
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
  EP_ROW("evolution_added", pb_added, "protobuf-c",
         "protobuf-c: AddedChunkV1 unpacked as V2, declared defaults"),
  EP_ROW("evolution_optional", pb_optional, "protobuf-c",
         "protobuf-c: OptionalV1 unpacked as V2, required label now optional"),
  EP_ROW("evolution_removed", pb_removed, "protobuf-c",
         "protobuf-c: RemovedPayloadV1 unpacked as V2, the 256 KiB field kept as unknown"),
  EP_ROW("evolution_transient", pb_transient, "protobuf-c",
         "protobuf-c: TransientV1 unpacked as V2, the 128 KiB field kept as unknown"),
  EP_ROW("evolution_nested_running", pb_nested_running, "protobuf-c",
         "protobuf-c: NestedEnumV1 running unpacked as V2, 64 KiB payload kept as unknown"),
  EP_ROW("evolution_nested_finished", pb_nested_finished, "protobuf-c",
         "protobuf-c: NestedEnumV1 finished unpacked as V2, result optional, metrics empty"),
#endif
};
// clang-format on

size_t bench_evolution_peer_tables(codec_table *out, size_t max) {
  if (max == 0) return 0;
  out[0] = (codec_table){bench_evolution_peer_cases,
                         sizeof bench_evolution_peer_cases / sizeof bench_evolution_peer_cases[0]};
  return 1;
}

#else /* neither peer */

size_t bench_evolution_peer_tables(codec_table *out, size_t max) {
  (void)out;
  (void)max;
  return 0;
}

#endif
