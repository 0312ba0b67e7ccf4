/* bench/bench_golem_oplog.c — desert-rust's golem_oplog benchmark, group
 * "golem oplog batch" (desert_benchmarks/benches/golem_oplog.rs,
 * golem_oplog_batch(1024)), through code `desert gen-c` generates at build
 * time from golden/golem_oplog_list.schema.json (prefix bench_golem: the
 * list root and GolemOplogEntry).
 *
 * Data: 1,024 entries made as golem_oplog_batch makes them (idx mod 8 picks
 * the constructor; the same timestamps, UUIDs, names, maps, spans and
 * errors), the payload blocks pre-serialized with the sizes desert-rust
 * writes (bench_golem_oplog_payloads.c) and kept as opaque bytes, since the
 * schema can only describe them as bytes. Not like-for-like: the 128
 * PendingUpdate entries carry OplogPayload::External in desert-rust, which
 * the schema cannot express; here they carry an inline block of the same
 * wire size (GOLEM_P_PENDING_STANDIN).
 *
 * Rows codec/golem_<op>/desert/<isa>, one op = the whole batch:
 *   batch_serialize        the list as one message: a writer created per op
 *                          (its buffer is the message, kept until the next
 *                          op), as serialize_to_byte_vec(&Vec<entry>);
 *   batch_deserialize      that message read back as one list: one reader
 *                          with an output arena reset per op, all 1,024
 *                          values alive (strings and byte blocks are views
 *                          into the message);
 *   batch_deserialize_copy the same, then every payload block copied into
 *                          row-owned memory, as desert-rust's Vec<u8>s own
 *                          their bytes (strings stay views);
 *   entries_serialize      one message per entry: one writer (made at setup)
 *                          writes each and desert_writer_detach hands its
 *                          buffer over as the kept message;
 *   entries_serialize_heap the same with a writer created per entry and kept
 *                          as the message (the form before detach existed);
 *   batch_serialize_alloc / entries_serialize_alloc
 *                          the same messages through the generated one-shot
 *                          _encode_alloc: a counting pass, one malloc of
 *                          the exact size, the message written into it;
 *   entries_deserialize    each entry's message read back with one reader
 *                          and its output arena, all values alive.
 * Verified before timing: the list message is the count followed by exactly
 * the entry messages; every message decodes completely and re-encodes to
 * itself; every decoded payload equals the block built here; for one entry
 * of each constructor the generated JSON equals the runtime path's
 * (desert_type_decode + desert_json_write_value).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_golem_model.h"
#include "bench_golem_oplog.h"
#include "desert.h"

enum {
  GO_BATCH_SER,
  GO_BATCH_DE,
  GO_BATCH_DE_COPY,
  GO_ENTRIES_SER,
  GO_ENTRIES_SER_HEAP,
  GO_ENTRIES_DE,
  GO_BATCH_SER_ALLOC,
  GO_ENTRIES_SER_ALLOC
};

typedef struct golem_state {
  int mode;
  desert_options opt;
  golem_entry *entries;
  golem_aux *aux;
  bench_golem_root root;
  uint8_t **msg; /* reference entry messages */
  size_t *len;
  size_t entries_total;
  uint8_t *list; /* the reference list message */
  size_t list_len;
  desert_writer *w;    /* batch_serialize: this op's message */
  desert_writer **ws;  /* entries_serialize_heap: the messages of this op */
  desert_writer *wd;   /* entries_serialize: the one writer */
  desert_buffer *bufs; /* entries_serialize: the messages of this op, detached */
  uint8_t **am;        /* *_serialize_alloc: the messages of this op (malloc'd) */
  size_t *alen;
  desert_reader *r;
  desert_decode_arena *da;
  bench_golem_root dec_root;
  golem_entry *dec; /* entries_deserialize */
  uint8_t *copy;    /* batch_deserialize_copy: the owned payload bytes */
  size_t copy_cap, payload_total;
} golem_state;

static desert_str gs(const char *s) { return (desert_str){s, strlen(s)}; }

static const char kJsonContext[] = "{\"priority\":\"normal\",\"tenant\":\"benchmark\"}";

static uint64_t golem_millis(size_t idx) { return 1700000000000ull + (uint64_t)idx * 37u; }

static bench_golem_AgentId golem_agent(golem_aux *a, size_t idx) {
  bench_golem_AgentId id;
  golem_uuid(id.component_id.bytes, idx + 100);
  snprintf(a->s1, sizeof a->s1, "agent-%08zu", idx);
  id.agent_name = gs(a->s1);
  return id;
}

static int golem_pay(golem_aux *a, int k, golem_payload_kind kind, size_t idx,
                     bench_golem_OplogPayload *p) {
  if (golem_payload(kind, idx, &a->pay[k], &a->pay_len[k])) return -1;
  p->is_right = false;
  p->left = (desert_bytes){a->pay[k], a->pay_len[k]};
  return 0;
}

/* golem_oplog_batch's entry idx (the PendingUpdate stand-in for idx mod 8 = 5). */
static int golem_make(golem_entry *e, golem_aux *a, size_t idx) {
  memset(e, 0, sizeof *e);
  bench_golem_Timestamp ts = {golem_millis(idx)};
  switch (idx % 8) {
  case 0: {
    e->tag = bench_golem_GolemOplogEntry_tag_Create;
    bench_golem_GolemOplogEntry_Create *c = &e->Create;
    c->timestamp = ts;
    c->agent_id = golem_agent(a, idx);
    c->component_revision = 17;
    snprintf(a->s2, sizeof a->s2, "bench-agent-%zu", idx);
    a->env[0] = (bench_golem_GolemOplogEntry_Create_env_entry){gs("GOLEM_AGENT"), gs(a->s2)};
    a->env[1] = (bench_golem_GolemOplogEntry_Create_env_entry){gs("REGION"), gs("local")};
    c->env.items = a->env;
    c->env.count = 2;
    return golem_pay(a, 0, GOLEM_P_CREATE_ARGS, idx, &c->args);
  }
  case 1:
  case 2: {
    e->tag = bench_golem_GolemOplogEntry_tag_ImportedFunctionInvoked;
    bench_golem_GolemOplogEntry_ImportedFunctionInvoked *c = &e->ImportedFunctionInvoked;
    int http = idx % 8 == 1;
    c->timestamp = ts;
    c->function_name = gs(http ? "wasi:http/outgoing-handler.handle" : "golem:rdbms/query");
    if (http) {
      c->function_type.tag = bench_golem_DurableFunctionType_tag_WriteRemoteBatched;
      c->function_type.WriteRemoteBatched.has_field0 = true;
      c->function_type.WriteRemoteBatched.field0 = idx;
    } else {
      c->function_type.tag = bench_golem_DurableFunctionType_tag_WriteRemoteTransaction;
      c->function_type.WriteRemoteTransaction.has_field0 = true;
      c->function_type.WriteRemoteTransaction.field0 = idx;
    }
    if (golem_pay(a, 0, http ? GOLEM_P_HTTP_REQUEST : GOLEM_P_RDBMS_REQUEST, idx, &c->request))
      return -1;
    return golem_pay(a, 1, http ? GOLEM_P_HTTP_RESPONSE : GOLEM_P_RDBMS_RESPONSE, idx,
                     &c->response);
  }
  case 3: {
    e->tag = bench_golem_GolemOplogEntry_tag_ExportedFunctionInvoked;
    bench_golem_GolemOplogEntry_ExportedFunctionInvoked *c = &e->ExportedFunctionInvoked;
    c->timestamp = ts;
    snprintf(a->s1, sizeof a->s1, "idem-%08zu", idx);
    c->idempotency_key = gs(a->s1);
    c->method_name = gs("do-work");
    a->spans[0].tag = bench_golem_SpanData_tag_ExternalSpan;
    golem_uuid(a->spans[0].ExternalSpan.span_id.bytes, idx + 3000);
    a->spans[1].tag = bench_golem_SpanData_tag_LocalSpan;
    bench_golem_SpanData_LocalSpan *l = &a->spans[1].LocalSpan;
    golem_uuid(l->span_id.bytes, idx + 3001);
    l->start = ts;
    l->has_parent_id = true;
    golem_uuid(l->parent_id.bytes, idx + 3000);
    a->attrs[0].key = gs("method");
    a->attrs[0].value.tag = bench_golem_AttributeValue_tag_String;
    a->attrs[0].value.String.field0 = gs("do-work");
    a->attrs[1].key = gs("retry");
    a->attrs[1].value.tag = bench_golem_AttributeValue_tag_Bool;
    a->attrs[1].value.Bool.field0 = false;
    a->attrs[2].key = gs("items");
    a->attrs[2].value.tag = bench_golem_AttributeValue_tag_U64;
    a->attrs[2].value.U64.field0 = 64;
    a->attrs[3].key = gs("context");
    a->attrs[3].value.tag = bench_golem_AttributeValue_tag_Json;
    a->attrs[3].value.Json.field0 =
        (desert_bytes){(const uint8_t *)kJsonContext, sizeof kJsonContext - 1};
    l->attributes.items = a->attrs;
    l->attributes.count = 4;
    l->inherited = true;
    c->trace.items = a->spans;
    c->trace.count = 2;
    return golem_pay(a, 0, GOLEM_P_INVOKED_INPUT, idx, &c->input);
  }
  case 4: {
    e->tag = bench_golem_GolemOplogEntry_tag_ExportedFunctionCompleted;
    bench_golem_GolemOplogEntry_ExportedFunctionCompleted *c = &e->ExportedFunctionCompleted;
    c->timestamp = ts;
    c->consumed_fuel = 100000 + (int64_t)idx;
    return golem_pay(a, 0, GOLEM_P_COMPLETED_RESPONSE, idx, &c->response);
  }
  case 5: {
    e->tag = bench_golem_GolemOplogEntry_tag_PendingUpdate;
    bench_golem_GolemOplogEntry_PendingUpdate *c = &e->PendingUpdate;
    c->timestamp = ts;
    c->target_revision = 20;
    c->mime_type = gs("application/wasm");
    return golem_pay(a, 0, GOLEM_P_PENDING_STANDIN, idx, &c->payload);
  }
  case 6: {
    e->tag = bench_golem_GolemOplogEntry_tag_Error;
    e->Error.timestamp = ts;
    e->Error.error.tag = bench_golem_AgentError_tag_ReadOnlyViolation;
    e->Error.error.ReadOnlyViolation.method = gs("GET");
    e->Error.error.ReadOnlyViolation.host_function = gs("wasi:http/outgoing-handler.handle");
    return 0;
  }
  default: {
    e->tag = bench_golem_GolemOplogEntry_tag_CompletePromise;
    bench_golem_GolemOplogEntry_CompletePromise *c = &e->CompletePromise;
    c->timestamp = ts;
    c->promise_id.agent_id = golem_agent(a, idx);
    c->promise_id.oplog_idx = idx;
    return golem_pay(a, 0, GOLEM_P_PROMISE_DATA, idx, &c->data);
  }
  }
}

size_t golem_payloads(const golem_entry *e, desert_bytes out[2]) {
  switch (e->tag) {
  case bench_golem_GolemOplogEntry_tag_Create:
    out[0] = e->Create.args.left;
    return 1;
  case bench_golem_GolemOplogEntry_tag_ImportedFunctionInvoked:
    out[0] = e->ImportedFunctionInvoked.request.left;
    out[1] = e->ImportedFunctionInvoked.response.left;
    return 2;
  case bench_golem_GolemOplogEntry_tag_ExportedFunctionInvoked:
    out[0] = e->ExportedFunctionInvoked.input.left;
    return 1;
  case bench_golem_GolemOplogEntry_tag_ExportedFunctionCompleted:
    out[0] = e->ExportedFunctionCompleted.response.left;
    return 1;
  case bench_golem_GolemOplogEntry_tag_PendingUpdate:
    out[0] = e->PendingUpdate.payload.left;
    return 1;
  case bench_golem_GolemOplogEntry_tag_CompletePromise:
    out[0] = e->CompletePromise.data.left;
    return 1;
  default:
    return 0;
  }
}

int golem_make_all(golem_entry *e, golem_aux *a, size_t *payload_total) {
  *payload_total = 0;
  for (size_t i = 0; i < GOLEM_N; i++) {
    if (golem_make(&e[i], &a[i], i)) return -1;
    desert_bytes p[2];
    size_t np = golem_payloads(&e[i], p);
    for (size_t k = 0; k < np; k++) *payload_total += p[k].len;
  }
  return 0;
}

void golem_free_aux(golem_aux *a) {
  if (a)
    for (size_t i = 0; i < GOLEM_N; i++) free(a[i].pay[0]), free(a[i].pay[1]);
  free(a);
}

static void golem_free_ws(golem_state *s) {
  if (s->ws)
    for (size_t i = 0; i < GOLEM_N; i++) {
      desert_writer_free(s->ws[i]);
      s->ws[i] = NULL;
    }
  if (s->bufs)
    for (size_t i = 0; i < GOLEM_N; i++) desert_buffer_free(&s->bufs[i]);
  if (s->am)
    for (size_t i = 0; i < GOLEM_N; i++) {
      free(s->am[i]);
      s->am[i] = NULL;
    }
  desert_writer_free(s->w);
  s->w = NULL;
}

static void golem_teardown(void *p) {
  golem_state *s = p;
  if (!s) return;
  golem_free_ws(s);
  free(s->ws);
  free(s->bufs);
  free(s->am);
  free(s->alen);
  desert_writer_free(s->wd);
  desert_reader_free(s->r);
  desert_decode_arena_free(s->da);
  golem_free_aux(s->aux);
  if (s->msg)
    for (size_t i = 0; i < GOLEM_N; i++) free(s->msg[i]);
  free(s->msg);
  free(s->len);
  free(s->list);
  free(s->entries);
  free(s->dec);
  free(s->copy);
  free(s);
}

/* Writes with a fresh writer (w may be kept by the caller) into a malloc'd copy. */
static int golem_encode_copy(golem_state *s, const golem_entry *e, const bench_golem_root *root,
                             uint8_t **out, size_t *len) {
  desert_writer *w;
  if (desert_writer_create(&s->opt, &w)) return -1;
  desert_status st =
      e ? bench_golem_encode_GolemOplogEntry(w, e) : bench_golem_encode_root(w, root);
  const uint8_t *data = desert_writer_data(w, len);
  if (!st && (*out = malloc(*len ? *len : 1))) memcpy(*out, data, *len);
  desert_writer_free(w);
  return st || !*out ? -1 : 0;
}

static void *golem_setup(int mode, desert_isa isa, codec_info *info) {
  golem_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->mode = mode;
  codec_options(&s->opt, isa, 0);
  s->entries = calloc(GOLEM_N, sizeof *s->entries);
  s->aux = calloc(GOLEM_N, sizeof *s->aux);
  s->msg = calloc(GOLEM_N, sizeof *s->msg);
  s->len = calloc(GOLEM_N, sizeof *s->len);
  s->dec = calloc(GOLEM_N, sizeof *s->dec);
  s->ws = calloc(GOLEM_N, sizeof *s->ws);
  s->bufs = calloc(GOLEM_N, sizeof *s->bufs);
  s->am = calloc(GOLEM_N, sizeof *s->am);
  s->alen = calloc(GOLEM_N, sizeof *s->alen);
  if (!s->entries || !s->aux || !s->msg || !s->len || !s->dec || !s->ws || !s->bufs || !s->am ||
      !s->alen)
    goto fail;
  if (desert_writer_create(&s->opt, &s->wd)) goto fail;
  if (golem_make_all(s->entries, s->aux, &s->payload_total)) goto fail;
  s->root.items = s->entries;
  s->root.count = GOLEM_N;
  for (size_t i = 0; i < GOLEM_N; i++) {
    if (golem_encode_copy(s, &s->entries[i], NULL, &s->msg[i], &s->len[i])) {
      snprintf(info->fail, sizeof info->fail, "golem: entry %zu does not encode", i);
      goto fail;
    }
    s->entries_total += s->len[i];
  }
  if (golem_encode_copy(s, NULL, &s->root, &s->list, &s->list_len)) {
    snprintf(info->fail, sizeof info->fail, "golem: the batch does not encode");
    goto fail;
  }
  if (desert_reader_create(&s->opt, &s->r) || desert_decode_arena_create(NULL, &s->da) ||
      desert_reader_set_output_arena(s->r, s->da))
    goto fail;
  if (mode == GO_BATCH_DE_COPY && !(s->copy = malloc(s->payload_total))) goto fail;
  info->bytes_per_op = mode == GO_ENTRIES_SER || mode == GO_ENTRIES_SER_HEAP ||
                               mode == GO_ENTRIES_DE || mode == GO_ENTRIES_SER_ALLOC
                           ? s->entries_total
                           : s->list_len;
  info->items_per_op = GOLEM_N;
  return s;
fail:
  golem_teardown(s);
  return NULL;
}

/* ---- ops ------------------------------------------------------------------------------ */

static uint64_t golem_batch_ser(golem_state *s) {
  golem_free_ws(s);
  if (desert_writer_create(&s->opt, &s->w)) return 0;
  if (bench_golem_encode_root(s->w, &s->root)) return 0;
  return desert_writer_size(s->w);
}

static uint64_t golem_batch_de(golem_state *s) {
  desert_decode_arena_reset(s->da);
  desert_reader_begin(s->r, s->list, s->list_len);
  if (bench_golem_decode_root(s->r, &s->dec_root)) return 0;
  return s->dec_root.count + desert_reader_offset(s->r);
}

size_t golem_copy_payloads(const golem_entry *e, size_t n, uint8_t *dst, size_t cap) {
  size_t off = 0;
  for (size_t i = 0; i < n; i++) {
    desert_bytes p[2];
    size_t np = golem_payloads(&e[i], p);
    for (size_t k = 0; k < np; k++) {
      if (p[k].len > cap - off) return SIZE_MAX;
      memcpy(dst + off, p[k].ptr, p[k].len);
      off += p[k].len;
    }
  }
  return off;
}

int golem_check_payload_copy(const golem_entry *e, size_t n, const uint8_t *copy, char *msg,
                             size_t cap) {
  size_t off = 0;
  for (size_t i = 0; i < n; i++) {
    desert_bytes w[2];
    size_t nw = golem_payloads(&e[i], w);
    for (size_t k = 0; k < nw; k++) {
      if (memcmp(copy + off, w[k].ptr, w[k].len) != 0)
        return codec_fail(msg, cap, "copy: entry %zu payload %zu differs", i, k);
      off += w[k].len;
    }
  }
  return 0;
}

static uint64_t golem_batch_de_copy(golem_state *s) {
  uint64_t r = golem_batch_de(s);
  if (!r) return 0;
  size_t off = golem_copy_payloads(s->dec_root.items, s->dec_root.count, s->copy, s->payload_total);
  return off == SIZE_MAX ? 0 : r + off;
}

/* One writer makes every message; each is detached into its own buffer,
 * kept until the next op (as desert-rust keeps a Vec per entry). */
static uint64_t golem_entries_ser(golem_state *s) {
  golem_free_ws(s);
  size_t total = 0;
  for (size_t i = 0; i < GOLEM_N; i++) {
    if (bench_golem_encode_GolemOplogEntry(s->wd, &s->entries[i])) return 0;
    if (desert_writer_detach(s->wd, &s->bufs[i])) return 0;
    total += s->bufs[i].len;
  }
  return total;
}

static uint64_t golem_entries_ser_heap(golem_state *s) {
  golem_free_ws(s);
  size_t total = 0;
  for (size_t i = 0; i < GOLEM_N; i++) {
    if (desert_writer_create(&s->opt, &s->ws[i])) return 0;
    if (bench_golem_encode_GolemOplogEntry(s->ws[i], &s->entries[i])) return 0;
    total += desert_writer_size(s->ws[i]);
  }
  return total;
}

/* The generated one-shot encoders: a counting pass, one malloc of the
 * exact size, then the message written into it (kept until the next op). */
static uint64_t golem_batch_ser_alloc(golem_state *s) {
  golem_free_ws(s);
  if (bench_golem_root_encode_alloc(&s->root, &s->am[0], &s->alen[0])) return 0;
  return s->alen[0];
}

static uint64_t golem_entries_ser_alloc(golem_state *s) {
  golem_free_ws(s);
  size_t total = 0;
  for (size_t i = 0; i < GOLEM_N; i++) {
    if (bench_golem_GolemOplogEntry_encode_alloc(&s->entries[i], &s->am[i], &s->alen[i])) return 0;
    total += s->alen[i];
  }
  return total;
}

static uint64_t golem_entries_de(golem_state *s) {
  desert_decode_arena_reset(s->da);
  uint64_t acc = 0;
  for (size_t i = 0; i < GOLEM_N; i++) {
    desert_reader_begin(s->r, s->msg[i], s->len[i]);
    if (bench_golem_decode_GolemOplogEntry(s->r, &s->dec[i])) return 0;
    acc += (uint64_t)s->dec[i].tag + 1;
  }
  return acc;
}

static uint64_t golem_run(void *p, size_t i) {
  (void)i;
  golem_state *s = p;
  switch (s->mode) {
  case GO_BATCH_SER:
    return golem_batch_ser(s);
  case GO_BATCH_DE:
    return golem_batch_de(s);
  case GO_BATCH_DE_COPY:
    return golem_batch_de_copy(s);
  case GO_ENTRIES_SER:
    return golem_entries_ser(s);
  case GO_ENTRIES_SER_HEAP:
    return golem_entries_ser_heap(s);
  case GO_BATCH_SER_ALLOC:
    return golem_batch_ser_alloc(s);
  case GO_ENTRIES_SER_ALLOC:
    return golem_entries_ser_alloc(s);
  default:
    return golem_entries_de(s);
  }
}

/* ---- verification --------------------------------------------------------------------- */

/* e re-encodes to exactly msg, and its payloads are entry i's blocks. */
static int golem_check_entry(golem_state *s, const golem_entry *e, size_t i, const char *what,
                             char *msg, size_t cap) {
  desert_bytes got[2], want[2];
  size_t ng = golem_payloads(e, got), nw = golem_payloads(&s->entries[i], want);
  if (e->tag != s->entries[i].tag || ng != nw)
    return codec_fail(msg, cap, "%s: entry %zu: another constructor", what, i);
  for (size_t k = 0; k < ng; k++)
    if (got[k].len != want[k].len || memcmp(got[k].ptr, want[k].ptr, got[k].len) != 0)
      return codec_fail(msg, cap, "%s: entry %zu: payload %zu differs", what, i, k);
  uint8_t *re = NULL;
  size_t len = 0;
  if (golem_encode_copy(s, e, NULL, &re, &len))
    return codec_fail(msg, cap, "%s: entry %zu does not re-encode", what, i);
  int bad = codec_check_bytes(what, re, len, s->msg[i], s->len[i], msg, cap);
  free(re);
  return bad;
}

/* The list message: var_i32 count, then the entry messages back to back
 * (docs/format.md §5.2), and it decodes completely to entries equal to the
 * built ones. */
static int golem_check_list(golem_state *s, const uint8_t *list, size_t list_len, const char *what,
                            char *msg, size_t cap) {
  uint8_t head[8];
  size_t h = codec_put_var_i32(head, (int32_t)GOLEM_N);
  if (list_len != h + s->entries_total || memcmp(list, head, h) != 0)
    return codec_fail(msg, cap, "%s: %zu bytes, expected the count and %zu bytes of entries", what,
                      list_len, s->entries_total);
  size_t off = h;
  for (size_t i = 0; i < GOLEM_N; i++) {
    if (memcmp(list + off, s->msg[i], s->len[i]) != 0)
      return codec_fail(msg, cap, "%s: entry %zu differs from its own message", what, i);
    off += s->len[i];
  }
  desert_reader *r;
  if (desert_reader_create(&s->opt, &r)) return codec_fail(msg, cap, "no reader");
  bench_golem_root root;
  desert_reader_begin(r, list, list_len);
  desert_status st = bench_golem_decode_root(r, &root);
  int bad = 0;
  if (st || desert_reader_offset(r) != list_len || root.count != GOLEM_N)
    bad = codec_fail(msg, cap, "%s: decode %s, %zu of %zu bytes", what, desert_status_name(st),
                     desert_reader_offset(r), list_len);
  for (size_t i = 0; !bad && i < GOLEM_N; i++)
    bad = golem_check_entry(s, &root.items[i], i, what, msg, cap);
  desert_reader_free(r);
  return bad;
}

/* Entries 0..7 (one per constructor): the generated JSON equals the runtime path's. */
static int golem_check_json(golem_state *s, char *msg, size_t cap) {
  const desert_type *t = bench_golem_GolemOplogEntry_type();
  desert_reader *r = NULL;
  desert_value_arena *a = NULL;
  int bad = 0;
  if (!t || desert_reader_create(&s->opt, &r) || desert_value_arena_create(NULL, &a)) {
    bad = codec_fail(msg, cap, "json check: no type or out of memory");
    goto out;
  }
  for (size_t i = 0; i < 8 && !bad; i++) {
    golem_entry e;
    desert_json_buf gen = {0}, rt = {0};
    desert_value *v = NULL;
    desert_reader_begin(r, s->msg[i], s->len[i]);
    desert_status st = bench_golem_decode_GolemOplogEntry(r, &e);
    if (!st) st = bench_golem_GolemOplogEntry_to_json(&e, &gen);
    desert_value_arena_reset(a);
    desert_reader_begin(r, s->msg[i], s->len[i]);
    if (!st) st = desert_type_decode(r, t, a, NULL, &v, NULL);
    if (!st && desert_reader_offset(r) != s->len[i]) st = DESERT_E_DESERIALIZATION;
    if (!st) st = desert_json_write_value(&rt, t, v);
    if (st || gen.failed || rt.failed)
      bad = codec_fail(msg, cap, "json check: entry %zu: %s", i, desert_status_name(st));
    else if (gen.len != rt.len || memcmp(gen.data, rt.data, gen.len) != 0)
      bad = codec_fail(msg, cap, "json check: entry %zu: generated and runtime JSON differ", i);
    desert_json_buf_free(&gen);
    desert_json_buf_free(&rt);
  }
out:
  desert_reader_free(r);
  desert_value_arena_free(a);
  return bad;
}

static int golem_verify(void *p, char *msg, size_t cap) {
  golem_state *s = p;
  for (size_t i = 0; i < GOLEM_N; i++)
    if (golem_check_entry(s, &s->entries[i], i, "reference", msg, cap)) return 1;
  if (golem_check_list(s, s->list, s->list_len, "reference list", msg, cap) ||
      golem_check_json(s, msg, cap))
    return 1;
  uint64_t r = golem_run(s, 0);
  if (r == 0) return codec_fail(msg, cap, "the op failed");
  switch (s->mode) {
  case GO_BATCH_SER: {
    size_t len;
    const uint8_t *data = desert_writer_data(s->w, &len);
    return golem_check_list(s, data, len, "batch_serialize", msg, cap);
  }
  case GO_ENTRIES_SER:
    for (size_t i = 0; i < GOLEM_N; i++)
      if (codec_check_bytes("entries_serialize", s->bufs[i].data, s->bufs[i].len, s->msg[i],
                            s->len[i], msg, cap))
        return 1;
    return 0;
  case GO_BATCH_SER_ALLOC:
    return golem_check_list(s, s->am[0], s->alen[0], "batch_serialize_alloc", msg, cap);
  case GO_ENTRIES_SER_ALLOC:
    for (size_t i = 0; i < GOLEM_N; i++)
      if (codec_check_bytes("entries_serialize_alloc", s->am[i], s->alen[i], s->msg[i], s->len[i],
                            msg, cap))
        return 1;
    return 0;
  case GO_ENTRIES_SER_HEAP:
    for (size_t i = 0; i < GOLEM_N; i++) {
      size_t len;
      const uint8_t *data = desert_writer_data(s->ws[i], &len);
      if (codec_check_bytes("entries_serialize", data, len, s->msg[i], s->len[i], msg, cap))
        return 1;
    }
    return 0;
  case GO_ENTRIES_DE:
    for (size_t i = 0; i < GOLEM_N; i++)
      if (golem_check_entry(s, &s->dec[i], i, "entries_deserialize", msg, cap)) return 1;
    return 0;
  default:
    if (s->dec_root.count != GOLEM_N) return codec_fail(msg, cap, "%zu entries", s->dec_root.count);
    for (size_t i = 0; i < GOLEM_N; i++)
      if (golem_check_entry(s, &s->dec_root.items[i], i, "batch_deserialize", msg, cap)) return 1;
    if (s->mode == GO_BATCH_DE_COPY)
      return golem_check_payload_copy(s->entries, GOLEM_N, s->copy, msg, cap);
    return 0;
  }
}

/* ---- table ------------------------------------------------------------------------------ */

#define GO_SETUP(name, mode)                                                        \
  static void *golem_setup_##name(desert_isa isa, size_t param, codec_info *info) { \
    (void)param;                                                                    \
    return golem_setup(mode, isa, info);                                            \
  }
GO_SETUP(batch_ser, GO_BATCH_SER)
GO_SETUP(batch_de, GO_BATCH_DE)
GO_SETUP(batch_de_copy, GO_BATCH_DE_COPY)
GO_SETUP(entries_ser, GO_ENTRIES_SER)
GO_SETUP(entries_ser_heap, GO_ENTRIES_SER_HEAP)
GO_SETUP(entries_de, GO_ENTRIES_DE)
GO_SETUP(batch_ser_alloc, GO_BATCH_SER_ALLOC)
GO_SETUP(entries_ser_alloc, GO_ENTRIES_SER_ALLOC)

// clang-format off
static const codec_case bench_golem_oplog_cases[] = {
  {"golem_batch1024_serialize", "desert",
   "1,024 Golem oplog entries as one list message, a writer created per op (kept)",
   -1, CODEC_FAULTS, 0, 0, golem_setup_batch_ser, golem_verify, golem_run, golem_teardown, NULL},
  {"golem_batch1024_serialize_alloc", "desert",
   "1,024 Golem oplog entries as one list message: the generated _encode_alloc (count, exact malloc, write)",
   -1, CODEC_FAULTS, 0, 0, golem_setup_batch_ser_alloc, golem_verify, golem_run, golem_teardown,
   NULL},
  {"golem_batch1024_deserialize", "desert",
   "1,024 Golem oplog entries read as one list: output arena, views into the message",
   -1, CODEC_FAULTS, 0, 0, golem_setup_batch_de, golem_verify, golem_run, golem_teardown, NULL},
  {"golem_batch1024_deserialize_copy", "desert",
   "1,024 Golem oplog entries read as one list, every payload block copied out (owned)",
   -1, CODEC_FAULTS, 0, 0, golem_setup_batch_de_copy, golem_verify, golem_run, golem_teardown,
   NULL},
  {"golem_entries1024_serialize", "desert",
   "1,024 Golem oplog entries, one message each: one writer, each message detached (kept)",
   -1, CODEC_FAULTS, 0, 0, golem_setup_entries_ser, golem_verify, golem_run, golem_teardown, NULL},
  {"golem_entries1024_serialize_heap", "desert",
   "1,024 Golem oplog entries, one message each, a writer created per entry (kept)",
   -1, CODEC_FAULTS, 0, 0, golem_setup_entries_ser_heap, golem_verify, golem_run, golem_teardown,
   NULL},
  {"golem_entries1024_serialize_alloc", "desert",
   "1,024 Golem oplog entries, one message each: the generated _encode_alloc per entry (kept)",
   -1, CODEC_FAULTS, 0, 0, golem_setup_entries_ser_alloc, golem_verify, golem_run, golem_teardown,
   NULL},
  {"golem_entries1024_deserialize", "desert",
   "1,024 Golem oplog entries read one message each: one reader, output arena",
   -1, CODEC_FAULTS, 0, 0, golem_setup_entries_de, golem_verify, golem_run, golem_teardown, NULL},
};
// clang-format on

extern const codec_case bench_golem_peer_cases[];
extern const size_t bench_golem_peer_case_count;

size_t bench_golem_oplog_tables(codec_table *out, size_t max) {
  size_t n = 0;
  if (n < max)
    out[n++] = (codec_table){bench_golem_oplog_cases,
                             sizeof bench_golem_oplog_cases / sizeof bench_golem_oplog_cases[0]};
  if (n < max && bench_golem_peer_case_count)
    out[n++] = (codec_table){bench_golem_peer_cases, bench_golem_peer_case_count};
  return n;
}
