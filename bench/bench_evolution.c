/* bench/bench_evolution.c — desert-rust's evolution_stress benchmark, group
 * "evolution old bytes into new type" (desert_benchmarks/benches/
 * evolution_stress.rs), through code `desert gen-c` generates at build time
 * from golden/evolution_stress*.schema.json: the V1 documents (prefixes
 * bench_evo*_v1) write the old value, the current documents (bench_evo,
 * bench_evo_removed, bench_evo_transient) read it.
 *
 * Rows codec/evolution_<case>/desert/<isa>, one op = one value: the reader
 * is begun on the V1 bytes and the current type's P_decode_T reads one value
 * (strings and byte blocks as views into the input, arrays in the reader's
 * arena, released by the next begin). One input per row, as the Rust
 * benchmark reads one buffer over and over. Cases (the Rust function name
 * in brackets):
 *   added              AddedChunkV1 -> V2, four FieldAdded defaults (field_added_chunk)
 *   optional           OptionalV1 -> V2, a plain label read as Some (required_field_to_optional)
 *   removed            RemovedPayloadV1 -> V2: 128 tags, then the removed
 *                      256 KiB payload (removed_large_payload_skip)
 *   transient          TransientV1 -> V2: the 128 KiB field made transient
 *                      (field_made_transient_skip)
 *   nested_running     NestedEnumV1::Running -> V2: payload removed, trace_id
 *                      default (nested_enum_removed_payload)
 *   nested_finished    NestedEnumV1::Finished -> V2: result made optional,
 *                      metrics default (nested_enum_optional_and_added)
 * The V1 records have no evolution steps (version 0), so the current reader
 * takes the fast path and never reads a removed or transient field that
 * ends version-0 data (docs/format.md §9.6): in the removed, transient and
 * nested_running cases the op consumes the bytes before that field and
 * leaves the field itself (its length varint and its bytes) unread, as
 * desert-rust does.
 *
 * Verified before timing, per row: the decoded value has the expected
 * fields (checked in C against the values built here), its JSON
 * (P_T_to_json) equals the runtime path's (desert_type_decode +
 * desert_json_write_value under the same current type, a fresh reader),
 * both paths consumed the same bytes, and those are exactly the input
 * length minus the unread trailing field, computed from its size alone.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_evolution.h"
#include "bench_evo.h"
#include "bench_evo_removed.h"
#include "bench_evo_removed_v1.h"
#include "bench_evo_transient.h"
#include "bench_evo_transient_v1.h"
#include "bench_evo_v1.h"
#include "desert.h"

enum { EV_ADDED, EV_OPTIONAL, EV_REMOVED, EV_TRANSIENT, EV_NESTED_RUNNING, EV_NESTED_FINISHED };

/* Sizes and seeds of the Rust benchmark's large_bytes fields. */
#define EV_REMOVED_PAYLOAD (256u * 1024u)
#define EV_TRANSIENT_CACHED (128u * 1024u)
#define EV_RUNNING_PAYLOAD (64u * 1024u)
#define EV_REMOVED_TAGS 128u

typedef struct ev_state {
  int which;
  desert_options opt;
  uint8_t *in; /* the V1 bytes */
  size_t len;
  size_t unread;     /* bytes of the trailing field the new reader leaves */
  desert_reader *r;
  uint8_t *big;      /* the large_bytes field of the V1 value */
  char (*tags)[24];  /* removed: "skip-tag-N" */
  union {
    bench_evo_AddedChunkV2 added;
    bench_evo_OptionalV2 optional;
    bench_evo_removed_RemovedPayloadV2 removed;
    bench_evo_transient_TransientV2 transient;
    bench_evo_NestedEnumV2 nested;
  } out;
} ev_state;

static desert_str ev_str(const char *s) { return (desert_str){s, strlen(s)}; }

static int ev_str_is(desert_str s, const char *want) {
  return s.len == strlen(want) && (s.len == 0 || memcmp(s.ptr, want, s.len) == 0);
}

/* desert-rust's large_bytes(size, seed): seed + (i mod 251), wrapping. */
static uint8_t *ev_large_bytes(size_t size, uint8_t seed) {
  uint8_t *b = malloc(size);
  if (b)
    for (size_t i = 0; i < size; i++) b[i] = (uint8_t)(seed + (uint8_t)(i % 251u));
  return b;
}

/* Bytes of a byte block of n bytes on the wire: its var_u32 length, then n. */
static size_t ev_block_size(size_t n) {
  uint8_t tmp[8];
  return codec_put_var_u32(tmp, (uint32_t)n) + n;
}

static void ev_teardown(void *p) {
  ev_state *s = p;
  if (!s) return;
  desert_reader_free(s->r);
  free(s->in);
  free(s->big);
  free(s->tags);
  free(s);
}

/* Builds the case's V1 value as the Rust benchmark does and writes it with
 * the V1 generated code into w. */
static desert_status ev_write_v1(ev_state *s, desert_writer *w) {
  switch (s->which) {
  case EV_ADDED: {
    bench_evo_v1_AddedChunkV1 v = {42, ev_str("bench-added-v1")};
    return bench_evo_v1_encode_AddedChunkV1(w, &v);
  }
  case EV_OPTIONAL: {
    bench_evo_v1_OptionalV1 v = {200, ev_str("was-required")};
    return bench_evo_v1_encode_OptionalV1(w, &v);
  }
  case EV_REMOVED: {
    desert_str tags[EV_REMOVED_TAGS];
    for (size_t i = 0; i < EV_REMOVED_TAGS; i++) {
      snprintf(s->tags[i], sizeof s->tags[i], "skip-tag-%zu", i);
      tags[i] = ev_str(s->tags[i]);
    }
    bench_evo_removed_v1_RemovedPayloadV1 v = bench_evo_removed_v1_RemovedPayloadV1_INIT;
    v.id = 100;
    v.label = ev_str("large payload that should be skipped");
    v.tags.items = tags;
    v.tags.count = EV_REMOVED_TAGS;
    v.payload = (desert_bytes){s->big, EV_REMOVED_PAYLOAD};
    return bench_evo_removed_v1_encode_RemovedPayloadV1(w, &v);
  }
  case EV_TRANSIENT: {
    bench_evo_transient_v1_TransientV1 v = {300, ev_str("transient-cache"),
                                            {s->big, EV_TRANSIENT_CACHED}};
    return bench_evo_transient_v1_encode_TransientV1(w, &v);
  }
  case EV_NESTED_RUNNING: {
    bench_evo_v1_NestedEnumV1 v = bench_evo_v1_NestedEnumV1_INIT;
    v.tag = bench_evo_v1_NestedEnumV1_tag_Running;
    v.Running.request_id = ev_str("request-0001");
    v.Running.payload = (desert_bytes){s->big, EV_RUNNING_PAYLOAD};
    return bench_evo_v1_encode_NestedEnumV1(w, &v);
  }
  default: {
    bench_evo_v1_NestedEnumV1 v = bench_evo_v1_NestedEnumV1_INIT;
    v.tag = bench_evo_v1_NestedEnumV1_tag_Finished;
    v.Finished.result = ev_str("ok");
    return bench_evo_v1_encode_NestedEnumV1(w, &v);
  }
  }
}

static void *ev_setup(int which, desert_isa isa, codec_info *info) {
  ev_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->which = which;
  codec_options(&s->opt, isa, 0);
  size_t big = which == EV_REMOVED     ? EV_REMOVED_PAYLOAD
               : which == EV_TRANSIENT ? EV_TRANSIENT_CACHED
               : which == EV_NESTED_RUNNING ? EV_RUNNING_PAYLOAD
                                            : 0;
  uint8_t seed = which == EV_REMOVED ? 0xA5 : which == EV_TRANSIENT ? 0x5A : 0x11;
  if (big && !(s->big = ev_large_bytes(big, seed))) goto fail;
  s->unread = big ? ev_block_size(big) : 0;
  if (which == EV_REMOVED && !(s->tags = calloc(EV_REMOVED_TAGS, sizeof *s->tags))) goto fail;
  desert_writer *w;
  if (desert_writer_create(&s->opt, &w)) goto fail;
  desert_status st = ev_write_v1(s, w);
  size_t len = 0;
  const uint8_t *data = desert_writer_data(w, &len);
  if (!st && data && (s->in = malloc(len ? len : 1))) memcpy(s->in, data, len);
  desert_writer_free(w);
  if (st) {
    snprintf(info->fail, sizeof info->fail, "evolution: the V1 value does not encode: %s",
             desert_status_name(st));
    goto fail;
  }
  if (!s->in) goto fail;
  s->len = len;
  if (desert_reader_create(&s->opt, &s->r)) {
    snprintf(info->fail, sizeof info->fail, "evolution: no reader for ISA %s", desert_isa_name(isa));
    goto fail;
  }
  info->bytes_per_op = len;
  info->items_per_op = 1;
  return s;
fail:
  ev_teardown(s);
  return NULL;
}

/* ---- ops: one value of the current type from the V1 bytes -------------------------- */

static uint64_t ev_run_added(void *p, size_t i) {
  (void)i;
  ev_state *s = p;
  desert_reader_begin(s->r, s->in, s->len);
  if (bench_evo_decode_AddedChunkV2(s->r, &s->out.added)) return 0;
  return s->out.added.id + s->out.added.name.len + s->out.added.tags.count +
         s->out.added.retry_count + s->out.added.enabled;
}

static uint64_t ev_run_optional(void *p, size_t i) {
  (void)i;
  ev_state *s = p;
  desert_reader_begin(s->r, s->in, s->len);
  if (bench_evo_decode_OptionalV2(s->r, &s->out.optional)) return 0;
  return s->out.optional.id + s->out.optional.label.len + s->out.optional.has_label;
}

static uint64_t ev_run_removed(void *p, size_t i) {
  (void)i;
  ev_state *s = p;
  desert_reader_begin(s->r, s->in, s->len);
  if (bench_evo_removed_decode_RemovedPayloadV2(s->r, &s->out.removed)) return 0;
  return s->out.removed.id + s->out.removed.label.len + s->out.removed.tags.count;
}

static uint64_t ev_run_transient(void *p, size_t i) {
  (void)i;
  ev_state *s = p;
  desert_reader_begin(s->r, s->in, s->len);
  if (bench_evo_transient_decode_TransientV2(s->r, &s->out.transient)) return 0;
  return s->out.transient.id + s->out.transient.name.len + s->out.transient.cached.len;
}

static uint64_t ev_run_nested(void *p, size_t i) {
  (void)i;
  ev_state *s = p;
  desert_reader_begin(s->r, s->in, s->len);
  if (bench_evo_decode_NestedEnumV2(s->r, &s->out.nested)) return 0;
  const bench_evo_NestedEnumV2 *n = &s->out.nested;
  return 1u + (uint64_t)n->tag +
         (n->tag == bench_evo_NestedEnumV2_tag_Running
              ? n->Running.request_id.len + n->Running.trace_id.len
              : n->Finished.result.len + n->Finished.metrics.count);
}

CODEC_BATCH(ev_run_added)
CODEC_BATCH(ev_run_optional)
CODEC_BATCH(ev_run_removed)
CODEC_BATCH(ev_run_transient)
CODEC_BATCH(ev_run_nested)

/* ---- verification ------------------------------------------------------------------ */

/* The decoded value's fields against what the V1 value held and the
 * current document's defaults; NULL when they match, else what differs. */
static const char *ev_check_fields(const ev_state *s) {
  switch (s->which) {
  case EV_ADDED: {
    const bench_evo_AddedChunkV2 *v = &s->out.added;
    if (v->id != 42 || !ev_str_is(v->name, "bench-added-v1")) return "id or name";
    if (v->metadata.count || v->tags.count || v->retry_count != 0 || !v->enabled)
      return "a FieldAdded default";
    return NULL;
  }
  case EV_OPTIONAL: {
    const bench_evo_OptionalV2 *v = &s->out.optional;
    if (v->id != 200 || !v->has_label || !ev_str_is(v->label, "was-required"))
      return "id or label";
    return NULL;
  }
  case EV_REMOVED: {
    const bench_evo_removed_RemovedPayloadV2 *v = &s->out.removed;
    if (v->id != 100 || !ev_str_is(v->label, "large payload that should be skipped"))
      return "id or label";
    if (v->tags.count != EV_REMOVED_TAGS) return "the tag count";
    for (size_t i = 0; i < EV_REMOVED_TAGS; i++) {
      char want[24];
      snprintf(want, sizeof want, "skip-tag-%zu", i);
      if (!ev_str_is(v->tags.items[i], want)) return "a tag";
    }
    return NULL;
  }
  case EV_TRANSIENT: {
    const bench_evo_transient_TransientV2 *v = &s->out.transient;
    if (v->id != 300 || !ev_str_is(v->name, "transient-cache")) return "id or name";
    if (v->cached.len != 0) return "the transient field's default (empty)";
    return NULL;
  }
  case EV_NESTED_RUNNING: {
    const bench_evo_NestedEnumV2 *v = &s->out.nested;
    if (v->tag != bench_evo_NestedEnumV2_tag_Running) return "the constructor";
    if (!ev_str_is(v->Running.request_id, "request-0001") ||
        !ev_str_is(v->Running.trace_id, "trace-default"))
      return "request_id or the trace_id default";
    return NULL;
  }
  default: {
    const bench_evo_NestedEnumV2 *v = &s->out.nested;
    if (v->tag != bench_evo_NestedEnumV2_tag_Finished) return "the constructor";
    if (!v->Finished.has_result || !ev_str_is(v->Finished.result, "ok") ||
        v->Finished.metrics.count != 0)
      return "result or the metrics default";
    return NULL;
  }
  }
}

/* The generated JSON of the decoded value, and the current type. */
static desert_status ev_to_json(const ev_state *s, desert_json_buf *b, const desert_type **t) {
  switch (s->which) {
  case EV_ADDED:
    *t = bench_evo_AddedChunkV2_type();
    return bench_evo_AddedChunkV2_to_json(&s->out.added, b);
  case EV_OPTIONAL:
    *t = bench_evo_OptionalV2_type();
    return bench_evo_OptionalV2_to_json(&s->out.optional, b);
  case EV_REMOVED:
    *t = bench_evo_removed_RemovedPayloadV2_type();
    return bench_evo_removed_RemovedPayloadV2_to_json(&s->out.removed, b);
  case EV_TRANSIENT:
    *t = bench_evo_transient_TransientV2_type();
    return bench_evo_transient_TransientV2_to_json(&s->out.transient, b);
  default:
    *t = bench_evo_NestedEnumV2_type();
    return bench_evo_NestedEnumV2_to_json(&s->out.nested, b);
  }
}

static uint64_t ev_run(const ev_state *s) {
  switch (s->which) {
  case EV_ADDED: return ev_run_added((void *)s, 0);
  case EV_OPTIONAL: return ev_run_optional((void *)s, 0);
  case EV_REMOVED: return ev_run_removed((void *)s, 0);
  case EV_TRANSIENT: return ev_run_transient((void *)s, 0);
  default: return ev_run_nested((void *)s, 0);
  }
}

static int ev_verify(void *p, char *msg, size_t cap) {
  ev_state *s = p;
  const size_t want_used = s->len - s->unread;
  if (ev_run(s) == 0)
    return codec_fail(msg, cap, "the current type does not read the V1 bytes: %s at offset %zu",
                      desert_status_name(desert_reader_status(s->r)), desert_reader_offset(s->r));
  size_t used = desert_reader_offset(s->r);
  if (used != want_used)
    return codec_fail(msg, cap, "generated decode consumed %zu of %zu bytes, expected %zu", used,
                      s->len, want_used);
  const char *bad = ev_check_fields(s);
  if (bad) return codec_fail(msg, cap, "decoded value differs from the V1 value: %s", bad);

  desert_json_buf gen = {0}, rt = {0};
  const desert_type *t = NULL;
  desert_reader *r = NULL;
  desert_value_arena *a = NULL;
  int fail = 0;
  desert_status st = ev_to_json(s, &gen, &t);
  if (st || !t || gen.failed) {
    fail = codec_fail(msg, cap, "generated to_json: %s", desert_status_name(st));
    goto out;
  }
  if (desert_reader_create(&s->opt, &r) || desert_value_arena_create(NULL, &a)) {
    fail = codec_fail(msg, cap, "runtime path: out of memory");
    goto out;
  }
  desert_value *v = NULL;
  desert_type_error err;
  desert_reader_begin(r, s->in, s->len);
  st = desert_type_decode(r, t, a, NULL, &v, &err);
  if (st) {
    fail = codec_fail(msg, cap, "runtime decode: %s at %zu (%s)", desert_status_name(st),
                      err.offset, err.message);
    goto out;
  }
  if (desert_reader_offset(r) != used) {
    fail = codec_fail(msg, cap, "runtime decode consumed %zu bytes, generated %zu",
                      desert_reader_offset(r), used);
    goto out;
  }
  st = desert_json_write_value(&rt, t, v);
  if (st || rt.failed) {
    fail = codec_fail(msg, cap, "runtime JSON: %s", desert_status_name(st));
    goto out;
  }
  if (rt.len != gen.len || memcmp(rt.data, gen.data, gen.len) != 0)
    fail = codec_fail(msg, cap, "generated JSON %.*s differs from the runtime's %.*s",
                      (int)(gen.len < 80 ? gen.len : 80), gen.data,
                      (int)(rt.len < 80 ? rt.len : 80), rt.data);
out:
  desert_json_buf_free(&gen);
  desert_json_buf_free(&rt);
  desert_reader_free(r);
  desert_value_arena_free(a);
  return fail;
}

/* ---- table ------------------------------------------------------------------------- */

#define EV_SETUP(name, which)                                                       \
  static void *ev_setup_##name(desert_isa isa, size_t param, codec_info *info) {    \
    (void)param;                                                                    \
    return ev_setup(which, isa, info);                                              \
  }
EV_SETUP(added, EV_ADDED)
EV_SETUP(optional, EV_OPTIONAL)
EV_SETUP(removed, EV_REMOVED)
EV_SETUP(transient, EV_TRANSIENT)
EV_SETUP(nested_running, EV_NESTED_RUNNING)
EV_SETUP(nested_finished, EV_NESTED_FINISHED)

// clang-format off
static const codec_case bench_evolution_cases[] = {
  {"evolution_added", "desert", "AddedChunkV1 bytes read as V2: four FieldAdded defaults",
   -1, 0, 0, 0, ev_setup_added, ev_verify, ev_run_added, ev_teardown, ev_run_added_batch},
  {"evolution_optional", "desert", "OptionalV1 bytes read as V2: a plain label read as Some",
   -1, 0, 0, 0, ev_setup_optional, ev_verify, ev_run_optional, ev_teardown,
   ev_run_optional_batch},
  {"evolution_removed", "desert",
   "RemovedPayloadV1 bytes read as V2: 128 tags, the removed 256 KiB payload left unread",
   -1, 0, 0, 0, ev_setup_removed, ev_verify, ev_run_removed, ev_teardown, ev_run_removed_batch},
  {"evolution_transient", "desert",
   "TransientV1 bytes read as V2: the 128 KiB field made transient left unread",
   -1, 0, 0, 0, ev_setup_transient, ev_verify, ev_run_transient, ev_teardown,
   ev_run_transient_batch},
  {"evolution_nested_running", "desert",
   "NestedEnumV1::Running read as V2: 64 KiB payload removed (unread), trace_id default",
   -1, 0, 0, 0, ev_setup_nested_running, ev_verify, ev_run_nested, ev_teardown,
   ev_run_nested_batch},
  {"evolution_nested_finished", "desert",
   "NestedEnumV1::Finished read as V2: result made optional, metrics default",
   -1, 0, 0, 0, ev_setup_nested_finished, ev_verify, ev_run_nested, ev_teardown,
   ev_run_nested_batch},
};
// clang-format on

size_t bench_evolution_tables(codec_table *out, size_t max) {
  if (max == 0) return 0;
  out[0] = (codec_table){bench_evolution_cases,
                         sizeof bench_evolution_cases / sizeof bench_evolution_cases[0]};
  return 1;
}
