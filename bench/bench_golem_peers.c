/* bench/bench_golem_peers.c — msgpack-c beside the golem_oplog rows
 * (bench_golem_oplog.c) on the same 1,024 generated entries
 * (bench_golem_model.h) in the same run; one op = the whole batch, every
 * message and decoded value kept until the next op.
 *
 * Rows codec/golem_<op>/msgpack/-. Packed by a walk of the generated C
 * structs, positionally: an entry is [case, timestamp millis, fields...]
 * (an AgentId flattened to uuid bin, name; a payload block bin, since the
 * generator only makes inline blocks; a map a msgpack map; a missing option
 * nil; a SpanData [case, fields...], an AttributeValue [case, value], an
 * AgentError [case, fields...], a DurableFunctionType case then its
 * optional index).
 *   batch_serialize        the list as one array message, a fresh
 *                          msgpack_sbuffer per op, its buffer kept
 *                          (msgpack_sbuffer_release);
 *   batch_deserialize      that message unpacked (msgpack_unpack_next) and
 *                          the object tree converted into the generated C
 *                          structs: arrays in a row arena rewound per op,
 *                          strings and blocks views into the kept message
 *                          (what desert's batch_deserialize keeps);
 *   batch_deserialize_copy the same, then every payload block copied into
 *                          row-owned memory;
 *   entries_serialize      one message per entry, a fresh sbuffer each, kept;
 *   entries_deserialize    each entry's message unpacked into one
 *                          msgpack_unpacked and converted likewise.
 * Verified before timing: every message is consumed exactly, every decoded
 * entry (both decoding ops, whatever the row times) encodes through desert
 * to the same bytes as the built entry, so it holds equal values, and the
 * copied blocks equal the built ones.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_golem_model.h"
#include "bench_oplog_model.h"
#include "desert.h"

#ifdef DESERT_BENCH_HAVE_MSGPACK
#include <msgpack.h>

#include "bench_msgpack_read.h"

enum { GP_BATCH_SER, GP_BATCH_DE, GP_BATCH_DE_COPY, GP_ENTRIES_SER, GP_ENTRIES_DE };

typedef struct gp_state {
  int mode;
  golem_entry *entries;
  golem_aux *aux;
  uint8_t **msg; /* entry messages (entries rows) */
  size_t *len;
  size_t entries_total;
  uint8_t *list; /* the batch message (batch rows) */
  size_t list_len;
  oplog_arena mem; /* decoded arrays */
  golem_entry *dec;
  size_t ndec;
  uint8_t *copy; /* batch_deserialize_copy: the owned payload bytes */
  size_t payload_total;
  msgpack_unpacked up;
} gp_state;

static void gp_free_msgs(gp_state *s) {
  if (s->msg)
    for (size_t i = 0; i < GOLEM_N; i++) {
      free(s->msg[i]);
      s->msg[i] = NULL;
    }
  free(s->list);
  s->list = NULL;
}

static void gp_teardown(void *p) {
  gp_state *s = p;
  if (!s) return;
  gp_free_msgs(s);
  msgpack_unpacked_destroy(&s->up);
  golem_free_aux(s->aux);
  free(s->entries);
  free(s->msg);
  free(s->len);
  free(s->dec);
  free(s->copy);
  oplog_arena_free(&s->mem);
  free(s);
}

/* ---- generated C structs -> msgpack ---- */

static void mp_str(msgpack_packer *pk, desert_str s) { msgpack_pack_str_with_body(pk, s.ptr, s.len); }
static void mp_bin(msgpack_packer *pk, const void *p, size_t n) { msgpack_pack_bin_with_body(pk, p, n); }
static void mp_uuid(msgpack_packer *pk, const desert_gen_uuid *u) { mp_bin(pk, u->bytes, 16); }

static int mp_payload(msgpack_packer *pk, const bench_golem_OplogPayload *p) {
  if (p->is_right) return -1; /* External: never made (see the top of this file) */
  mp_bin(pk, p->left.ptr, p->left.len);
  return 0;
}

static void mp_agent(msgpack_packer *pk, const bench_golem_AgentId *a) {
  mp_uuid(pk, &a->component_id);
  mp_str(pk, a->agent_name);
}

static int mp_attr(msgpack_packer *pk, const bench_golem_AttributeValue *v) {
  msgpack_pack_array(pk, 2);
  msgpack_pack_unsigned_int(pk, (unsigned)v->tag);
  switch (v->tag) {
  case bench_golem_AttributeValue_tag_String: mp_str(pk, v->String.field0); return 0;
  case bench_golem_AttributeValue_tag_U64: return msgpack_pack_uint64(pk, v->U64.field0);
  case bench_golem_AttributeValue_tag_Bool:
    return v->Bool.field0 ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
  case bench_golem_AttributeValue_tag_Json:
    mp_bin(pk, v->Json.field0.ptr, v->Json.field0.len);
    return 0;
  }
  return -1;
}

static int mp_span(msgpack_packer *pk, const bench_golem_SpanData *v) {
  if (v->tag == bench_golem_SpanData_tag_ExternalSpan) {
    msgpack_pack_array(pk, 2);
    msgpack_pack_unsigned_int(pk, (unsigned)v->tag);
    mp_uuid(pk, &v->ExternalSpan.span_id);
    return 0;
  }
  if (v->tag != bench_golem_SpanData_tag_LocalSpan) return -1;
  const bench_golem_SpanData_LocalSpan *l = &v->LocalSpan;
  msgpack_pack_array(pk, 6);
  msgpack_pack_unsigned_int(pk, (unsigned)v->tag);
  mp_uuid(pk, &l->span_id);
  msgpack_pack_uint64(pk, l->start.millis);
  if (l->has_parent_id)
    mp_uuid(pk, &l->parent_id);
  else
    msgpack_pack_nil(pk);
  msgpack_pack_map(pk, l->attributes.count);
  for (size_t i = 0; i < l->attributes.count; i++) {
    mp_str(pk, l->attributes.items[i].key);
    if (mp_attr(pk, &l->attributes.items[i].value)) return -1;
  }
  return l->inherited ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
}

static int mp_error(msgpack_packer *pk, const bench_golem_AgentError *v) {
  switch (v->tag) {
  case bench_golem_AgentError_tag_Unknown:
  case bench_golem_AgentError_tag_InvalidRequest:
  case bench_golem_AgentError_tag_Runtime:
  case bench_golem_AgentError_tag_PreviousInvocationFailed:
    msgpack_pack_array(pk, 2);
    msgpack_pack_unsigned_int(pk, (unsigned)v->tag);
    mp_str(pk, v->Unknown.field0); /* the four cases share the layout */
    return 0;
  case bench_golem_AgentError_tag_ReadOnlyViolation:
    msgpack_pack_array(pk, 3);
    msgpack_pack_unsigned_int(pk, (unsigned)v->tag);
    mp_str(pk, v->ReadOnlyViolation.method);
    mp_str(pk, v->ReadOnlyViolation.host_function);
    return 0;
  default:
    msgpack_pack_array(pk, 1);
    return msgpack_pack_unsigned_int(pk, (unsigned)v->tag);
  }
}

/* Fields per case, the case and the timestamp included. */
static const size_t kFields[] = {7, 7, 6, 4, 5, 3, 6, 2};

static int mp_entry(msgpack_packer *pk, const golem_entry *e) {
  if ((unsigned)e->tag > 7u) return -1;
  msgpack_pack_array(pk, kFields[e->tag]);
  msgpack_pack_unsigned_int(pk, (unsigned)e->tag);
  msgpack_pack_uint64(pk, e->NoOp.timestamp.millis); /* every case starts with it */
  switch (e->tag) {
  case bench_golem_GolemOplogEntry_tag_Create: {
    const bench_golem_GolemOplogEntry_Create *v = &e->Create;
    mp_agent(pk, &v->agent_id);
    msgpack_pack_uint64(pk, v->component_revision);
    if (mp_payload(pk, &v->args)) return -1;
    msgpack_pack_map(pk, v->env.count);
    for (size_t i = 0; i < v->env.count; i++) {
      mp_str(pk, v->env.items[i].key);
      mp_str(pk, v->env.items[i].value);
    }
    return 0;
  }
  case bench_golem_GolemOplogEntry_tag_ImportedFunctionInvoked: {
    const bench_golem_GolemOplogEntry_ImportedFunctionInvoked *v = &e->ImportedFunctionInvoked;
    mp_str(pk, v->function_name);
    if (mp_payload(pk, &v->request) || mp_payload(pk, &v->response)) return -1;
    msgpack_pack_unsigned_int(pk, (unsigned)v->function_type.tag);
    /* WriteRemoteBatched and WriteRemoteTransaction share the layout */
    if ((v->function_type.tag == bench_golem_DurableFunctionType_tag_WriteRemoteBatched ||
         v->function_type.tag == bench_golem_DurableFunctionType_tag_WriteRemoteTransaction) &&
        v->function_type.WriteRemoteBatched.has_field0)
      return msgpack_pack_uint64(pk, v->function_type.WriteRemoteBatched.field0);
    return msgpack_pack_nil(pk);
  }
  case bench_golem_GolemOplogEntry_tag_ExportedFunctionInvoked: {
    const bench_golem_GolemOplogEntry_ExportedFunctionInvoked *v = &e->ExportedFunctionInvoked;
    mp_str(pk, v->idempotency_key);
    mp_str(pk, v->method_name);
    if (mp_payload(pk, &v->input)) return -1;
    msgpack_pack_array(pk, v->trace.count);
    for (size_t i = 0; i < v->trace.count; i++)
      if (mp_span(pk, &v->trace.items[i])) return -1;
    return 0;
  }
  case bench_golem_GolemOplogEntry_tag_ExportedFunctionCompleted:
    if (mp_payload(pk, &e->ExportedFunctionCompleted.response)) return -1;
    return msgpack_pack_int64(pk, e->ExportedFunctionCompleted.consumed_fuel);
  case bench_golem_GolemOplogEntry_tag_PendingUpdate:
    msgpack_pack_uint64(pk, e->PendingUpdate.target_revision);
    if (mp_payload(pk, &e->PendingUpdate.payload)) return -1;
    mp_str(pk, e->PendingUpdate.mime_type);
    return 0;
  case bench_golem_GolemOplogEntry_tag_Error: return mp_error(pk, &e->Error.error);
  case bench_golem_GolemOplogEntry_tag_CompletePromise:
    mp_agent(pk, &e->CompletePromise.promise_id.agent_id);
    msgpack_pack_uint64(pk, e->CompletePromise.promise_id.oplog_idx);
    return mp_payload(pk, &e->CompletePromise.data);
  case bench_golem_GolemOplogEntry_tag_NoOp: return 0;
  }
  return -1;
}

/* ---- msgpack_object -> generated C structs ---- */




static int mo_bool(const msgpack_object *o, bool *v) {
  if (o->type != MSGPACK_OBJECT_BOOLEAN) return -1;
  *v = o->via.boolean;
  return 0;
}



static int mo_uuid(const msgpack_object *o, desert_gen_uuid *u) {
  if (o->type != MSGPACK_OBJECT_BIN || o->via.bin.size != 16) return -1;
  memcpy(u->bytes, o->via.bin.ptr, 16);
  return 0;
}

static int mo_payload(const msgpack_object *o, bench_golem_OplogPayload *p) {
  p->is_right = false;
  return mo_bin(o, &p->left);
}

static int mo_agent(const msgpack_object *f, bench_golem_AgentId *a) {
  return mo_uuid(&f[0], &a->component_id) || mo_str(&f[1], &a->agent_name) ? -1 : 0;
}

/* The elements of o when it is an array of exactly n; else NULL. */
static const msgpack_object *mo_array(const msgpack_object *o, size_t n) {
  if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != n) return NULL;
  return o->via.array.ptr;
}

static int mo_attr(const msgpack_object *o, bench_golem_AttributeValue *v) {
  const msgpack_object *f = mo_array(o, 2);
  uint64_t tag;
  if (!f || mo_uint(&f[0], 3, &tag)) return -1;
  v->tag = (bench_golem_AttributeValue_tag)tag;
  switch (v->tag) {
  case bench_golem_AttributeValue_tag_String: return mo_str(&f[1], &v->String.field0);
  case bench_golem_AttributeValue_tag_U64: return mo_u64(&f[1], &v->U64.field0);
  case bench_golem_AttributeValue_tag_Bool: return mo_bool(&f[1], &v->Bool.field0);
  case bench_golem_AttributeValue_tag_Json: return mo_bin(&f[1], &v->Json.field0);
  }
  return -1;
}

static int mo_span(oplog_arena *a, const msgpack_object *o, bench_golem_SpanData *v) {
  uint64_t tag;
  if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 2 ||
      mo_uint(&o->via.array.ptr[0], 1, &tag))
    return -1;
  memset(v, 0, sizeof *v);
  v->tag = (bench_golem_SpanData_tag)tag;
  if (v->tag == bench_golem_SpanData_tag_ExternalSpan) {
    const msgpack_object *f = mo_array(o, 2);
    return f ? mo_uuid(&f[1], &v->ExternalSpan.span_id) : -1;
  }
  const msgpack_object *f = mo_array(o, 6);
  bench_golem_SpanData_LocalSpan *l = &v->LocalSpan;
  if (!f || mo_uuid(&f[1], &l->span_id) || mo_u64(&f[2], &l->start.millis)) return -1;
  if (f[3].type != MSGPACK_OBJECT_NIL) {
    l->has_parent_id = true;
    if (mo_uuid(&f[3], &l->parent_id)) return -1;
  }
  if (f[4].type != MSGPACK_OBJECT_MAP) return -1;
  size_t n = f[4].via.map.size;
  bench_golem_SpanData_LocalSpan_attributes_entry *items =
      n ? oplog_arena_alloc(a, n * sizeof *items) : NULL;
  if (n && !items) return -1;
  for (size_t i = 0; i < n; i++)
    if (mo_str(&f[4].via.map.ptr[i].key, &items[i].key) ||
        mo_attr(&f[4].via.map.ptr[i].val, &items[i].value))
      return -1;
  l->attributes.items = items;
  l->attributes.count = n;
  return mo_bool(&f[5], &l->inherited);
}

static int mo_error(const msgpack_object *o, bench_golem_AgentError *v) {
  uint64_t tag;
  if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 1 ||
      mo_uint(&o->via.array.ptr[0], 7, &tag))
    return -1;
  v->tag = (bench_golem_AgentError_tag)tag;
  const msgpack_object *f;
  switch (v->tag) {
  case bench_golem_AgentError_tag_Unknown:
  case bench_golem_AgentError_tag_InvalidRequest:
  case bench_golem_AgentError_tag_Runtime:
  case bench_golem_AgentError_tag_PreviousInvocationFailed:
    f = mo_array(o, 2);
    return f ? mo_str(&f[1], &v->Unknown.field0) : -1;
  case bench_golem_AgentError_tag_ReadOnlyViolation:
    f = mo_array(o, 3);
    return f && !mo_str(&f[1], &v->ReadOnlyViolation.method) &&
                   !mo_str(&f[2], &v->ReadOnlyViolation.host_function)
               ? 0
               : -1;
  default: return mo_array(o, 1) ? 0 : -1;
  }
}

static int mo_entry(oplog_arena *a, const msgpack_object *o, golem_entry *e) {
  uint64_t tag, u;
  if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 2) return -1;
  const msgpack_object *f = o->via.array.ptr;
  if (mo_uint(&f[0], 7, &tag) || o->via.array.size != kFields[tag]) return -1;
  memset(e, 0, sizeof *e);
  e->tag = (bench_golem_GolemOplogEntry_tag)tag;
  bench_golem_Timestamp ts;
  if (mo_u64(&f[1], &ts.millis)) return -1;
  f += 2;
  switch (e->tag) {
  case bench_golem_GolemOplogEntry_tag_Create: {
    bench_golem_GolemOplogEntry_Create *v = &e->Create;
    v->timestamp = ts;
    if (mo_agent(f, &v->agent_id) || mo_u64(&f[2], &v->component_revision) ||
        mo_payload(&f[3], &v->args) || f[4].type != MSGPACK_OBJECT_MAP)
      return -1;
    size_t n = f[4].via.map.size;
    bench_golem_GolemOplogEntry_Create_env_entry *items =
        n ? oplog_arena_alloc(a, n * sizeof *items) : NULL;
    if (n && !items) return -1;
    for (size_t i = 0; i < n; i++)
      if (mo_str(&f[4].via.map.ptr[i].key, &items[i].key) ||
          mo_str(&f[4].via.map.ptr[i].val, &items[i].value))
        return -1;
    v->env.items = items;
    v->env.count = n;
    return 0;
  }
  case bench_golem_GolemOplogEntry_tag_ImportedFunctionInvoked: {
    bench_golem_GolemOplogEntry_ImportedFunctionInvoked *v = &e->ImportedFunctionInvoked;
    v->timestamp = ts;
    if (mo_str(&f[0], &v->function_name) || mo_payload(&f[1], &v->request) ||
        mo_payload(&f[2], &v->response) || mo_uint(&f[3], 5, &u))
      return -1;
    v->function_type.tag = (bench_golem_DurableFunctionType_tag)u;
    bool indexed = v->function_type.tag == bench_golem_DurableFunctionType_tag_WriteRemoteBatched ||
                   v->function_type.tag == bench_golem_DurableFunctionType_tag_WriteRemoteTransaction;
    if (f[4].type == MSGPACK_OBJECT_NIL) return 0;
    if (!indexed) return -1;
    v->function_type.WriteRemoteBatched.has_field0 = true;
    return mo_u64(&f[4], &v->function_type.WriteRemoteBatched.field0);
  }
  case bench_golem_GolemOplogEntry_tag_ExportedFunctionInvoked: {
    bench_golem_GolemOplogEntry_ExportedFunctionInvoked *v = &e->ExportedFunctionInvoked;
    v->timestamp = ts;
    if (mo_str(&f[0], &v->idempotency_key) || mo_str(&f[1], &v->method_name) ||
        mo_payload(&f[2], &v->input) || f[3].type != MSGPACK_OBJECT_ARRAY)
      return -1;
    size_t n = f[3].via.array.size;
    bench_golem_SpanData *items = n ? oplog_arena_alloc(a, n * sizeof *items) : NULL;
    if (n && !items) return -1;
    for (size_t i = 0; i < n; i++)
      if (mo_span(a, &f[3].via.array.ptr[i], &items[i])) return -1;
    v->trace.items = items;
    v->trace.count = n;
    return 0;
  }
  case bench_golem_GolemOplogEntry_tag_ExportedFunctionCompleted:
    e->ExportedFunctionCompleted.timestamp = ts;
    return mo_payload(&f[0], &e->ExportedFunctionCompleted.response) ||
                   mo_i64(&f[1], &e->ExportedFunctionCompleted.consumed_fuel)
               ? -1
               : 0;
  case bench_golem_GolemOplogEntry_tag_PendingUpdate:
    e->PendingUpdate.timestamp = ts;
    return mo_u64(&f[0], &e->PendingUpdate.target_revision) ||
                   mo_payload(&f[1], &e->PendingUpdate.payload) ||
                   mo_str(&f[2], &e->PendingUpdate.mime_type)
               ? -1
               : 0;
  case bench_golem_GolemOplogEntry_tag_Error:
    e->Error.timestamp = ts;
    return mo_error(&f[0], &e->Error.error);
  case bench_golem_GolemOplogEntry_tag_CompletePromise:
    e->CompletePromise.timestamp = ts;
    return mo_agent(f, &e->CompletePromise.promise_id.agent_id) ||
                   mo_u64(&f[2], &e->CompletePromise.promise_id.oplog_idx) ||
                   mo_payload(&f[3], &e->CompletePromise.data)
               ? -1
               : 0;
  case bench_golem_GolemOplogEntry_tag_NoOp: e->NoOp.timestamp = ts; return 0;
  }
  return -1;
}

/* ---- ops ---- */

static uint64_t gp_batch_ser(gp_state *s) {
  free(s->list);
  s->list = NULL;
  msgpack_sbuffer sb;
  msgpack_packer pk;
  msgpack_sbuffer_init(&sb);
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  msgpack_pack_array(&pk, GOLEM_N);
  for (size_t i = 0; i < GOLEM_N; i++)
    if (mp_entry(&pk, &s->entries[i])) {
      msgpack_sbuffer_destroy(&sb);
      return 0;
    }
  s->list_len = sb.size;
  s->list = (uint8_t *)msgpack_sbuffer_release(&sb);
  return s->list_len;
}

static uint64_t gp_entries_ser(gp_state *s) {
  size_t total = 0;
  for (size_t i = 0; i < GOLEM_N; i++) {
    free(s->msg[i]);
    s->msg[i] = NULL;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    if (mp_entry(&pk, &s->entries[i])) {
      msgpack_sbuffer_destroy(&sb);
      return 0;
    }
    s->len[i] = sb.size;
    s->msg[i] = (uint8_t *)msgpack_sbuffer_release(&sb);
    total += s->len[i];
  }
  return total;
}

static uint64_t gp_touch(const gp_state *s) {
  uint64_t acc = 0;
  for (size_t i = 0; i < s->ndec; i++) acc += (uint64_t)s->dec[i].tag + 1;
  return acc;
}

static uint64_t gp_batch_de(gp_state *s) {
  oplog_arena_reset(&s->mem);
  s->ndec = 0;
  size_t off = 0;
  if (msgpack_unpack_next(&s->up, (const char *)s->list, s->list_len, &off) !=
      MSGPACK_UNPACK_SUCCESS)
    return 0;
  const msgpack_object *o = &s->up.data;
  if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != GOLEM_N) return 0;
  for (size_t i = 0; i < GOLEM_N; i++)
    if (mo_entry(&s->mem, &o->via.array.ptr[i], &s->dec[i])) return 0;
  s->ndec = GOLEM_N;
  return gp_touch(s) + off;
}

static uint64_t gp_batch_de_copy(gp_state *s) {
  uint64_t r = gp_batch_de(s);
  if (!r) return 0;
  size_t off = golem_copy_payloads(s->dec, s->ndec, s->copy, s->payload_total);
  return off == SIZE_MAX ? 0 : r + off;
}

static uint64_t gp_entries_de(gp_state *s) {
  oplog_arena_reset(&s->mem);
  s->ndec = 0;
  for (size_t i = 0; i < GOLEM_N; i++) {
    size_t off = 0;
    if (msgpack_unpack_next(&s->up, (const char *)s->msg[i], s->len[i], &off) !=
            MSGPACK_UNPACK_SUCCESS ||
        mo_entry(&s->mem, &s->up.data, &s->dec[i]))
      return 0;
  }
  s->ndec = GOLEM_N;
  return gp_touch(s);
}

static uint64_t gp_run(void *p, size_t i) {
  (void)i;
  gp_state *s = p;
  switch (s->mode) {
  case GP_BATCH_SER: return gp_batch_ser(s);
  case GP_BATCH_DE: return gp_batch_de(s);
  case GP_BATCH_DE_COPY: return gp_batch_de_copy(s);
  case GP_ENTRIES_SER: return gp_entries_ser(s);
  default: return gp_entries_de(s);
  }
}

static void *gp_setup(int mode, codec_info *info) {
  gp_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->mode = mode;
  oplog_arena_init(&s->mem);
  msgpack_unpacked_init(&s->up);
  s->entries = calloc(GOLEM_N, sizeof *s->entries);
  s->aux = calloc(GOLEM_N, sizeof *s->aux);
  s->msg = calloc(GOLEM_N, sizeof *s->msg);
  s->len = calloc(GOLEM_N, sizeof *s->len);
  s->dec = calloc(GOLEM_N, sizeof *s->dec);
  if (!s->entries || !s->aux || !s->msg || !s->len || !s->dec) goto fail;
  if (golem_make_all(s->entries, s->aux, &s->payload_total)) goto fail;
  if (!(s->entries_total = gp_entries_ser(s)) || !gp_batch_ser(s)) {
    snprintf(info->fail, sizeof info->fail, "golem msgpack: an entry does not pack");
    goto fail;
  }
  if (mode == GP_BATCH_DE_COPY && !(s->copy = malloc(s->payload_total))) goto fail;
  info->bytes_per_op =
      mode == GP_ENTRIES_SER || mode == GP_ENTRIES_DE ? s->entries_total : s->list_len;
  info->items_per_op = GOLEM_N;
  return s;
fail:
  gp_teardown(s);
  return NULL;
}

/* ---- verification ---- */

/* The desert encoding of e into a malloc'd buffer; -1 when it does not encode. */
static int gp_desert_bytes(const golem_entry *e, uint8_t **out, size_t *len) {
  desert_writer *w;
  *out = NULL;
  if (desert_writer_create(NULL, &w)) return -1;
  desert_status st = bench_golem_encode_GolemOplogEntry(w, e);
  const uint8_t *data = desert_writer_data(w, len);
  if (!st && (*out = malloc(*len ? *len : 1))) memcpy(*out, data, *len);
  desert_writer_free(w);
  return st || !*out ? -1 : 0;
}

/* dec[i] holds the values of the built entry i: both encode through desert
 * to the same bytes (payload blocks included). */
static int gp_check_decoded(gp_state *s, const char *what, char *msg, size_t cap) {
  if (s->ndec != GOLEM_N) return codec_fail(msg, cap, "%s: %zu entries decoded", what, s->ndec);
  for (size_t i = 0; i < GOLEM_N; i++) {
    if (s->dec[i].tag != s->entries[i].tag)
      return codec_fail(msg, cap, "%s: entry %zu: another constructor", what, i);
    uint8_t *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    int bad = gp_desert_bytes(&s->dec[i], &a, &la) || gp_desert_bytes(&s->entries[i], &b, &lb)
                  ? codec_fail(msg, cap, "%s: entry %zu does not encode through desert", what, i)
                  : codec_check_bytes(what, a, la, b, lb, msg, cap);
    free(a);
    free(b);
    if (bad) return 1;
  }
  return 0;
}

static int gp_verify(void *p, char *msg, size_t cap) {
  gp_state *s = p;
  size_t list_len = s->list_len, entries_total = s->entries_total;
  if (!gp_run(s, 0)) return codec_fail(msg, cap, "golem msgpack op failed");
  if (s->list_len != list_len || gp_entries_ser(s) != entries_total)
    return codec_fail(msg, cap, "golem msgpack: message sizes differ from setup's");
  size_t off = 0;
  if (msgpack_unpack_next(&s->up, (const char *)s->list, s->list_len, &off) !=
          MSGPACK_UNPACK_SUCCESS ||
      off != s->list_len)
    return codec_fail(msg, cap, "golem msgpack: the batch is not consumed exactly");
  for (size_t i = 0; i < GOLEM_N; i++) {
    off = 0;
    if (msgpack_unpack_next(&s->up, (const char *)s->msg[i], s->len[i], &off) !=
            MSGPACK_UNPACK_SUCCESS ||
        off != s->len[i])
      return codec_fail(msg, cap, "golem msgpack: message %zu not consumed exactly", i);
  }
  /* Both decoding ops, whatever this row times. */
  if (!gp_entries_de(s)) return codec_fail(msg, cap, "golem msgpack: an entry does not convert");
  if (gp_check_decoded(s, "msgpack entries round trip", msg, cap)) return 1;
  if (!gp_batch_de(s)) return codec_fail(msg, cap, "golem msgpack: the batch does not convert");
  if (gp_check_decoded(s, "msgpack batch round trip", msg, cap)) return 1;
  if (s->mode == GP_BATCH_DE_COPY) {
    if (!gp_batch_de_copy(s)) return codec_fail(msg, cap, "golem msgpack: copy failed");
    return golem_check_payload_copy(s->entries, GOLEM_N, s->copy, msg, cap);
  }
  return 0;
}

/* ---- table ---- */

#define GP_SETUP(name, mode)                                                          \
  static void *gp_setup_##name(desert_isa isa, size_t param, codec_info *info) {      \
    (void)isa;                                                                        \
    (void)param;                                                                      \
    return gp_setup(mode, info);                                                      \
  }
GP_SETUP(batch_ser, GP_BATCH_SER)
GP_SETUP(batch_de, GP_BATCH_DE)
GP_SETUP(batch_de_copy, GP_BATCH_DE_COPY)
GP_SETUP(entries_ser, GP_ENTRIES_SER)
GP_SETUP(entries_de, GP_ENTRIES_DE)

// clang-format off
const codec_case bench_golem_peer_cases[] = {
  {"golem_batch1024_serialize", "msgpack",
   "msgpack-c: the list as one array, a fresh sbuffer per op (kept)",
   -1, CODEC_FAULTS, 0, 0, gp_setup_batch_ser, gp_verify, gp_run, gp_teardown, NULL},
  {"golem_batch1024_deserialize", "msgpack",
   "msgpack-c: unpack the list, converted into the generated C structs (views + arena)",
   -1, CODEC_FAULTS, 0, 0, gp_setup_batch_de, gp_verify, gp_run, gp_teardown, NULL},
  {"golem_batch1024_deserialize_copy", "msgpack",
   "msgpack-c: unpack the list into the generated C structs, payload blocks copied out",
   -1, CODEC_FAULTS, 0, 0, gp_setup_batch_de_copy, gp_verify, gp_run, gp_teardown, NULL},
  {"golem_entries1024_serialize", "msgpack",
   "msgpack-c: one message per entry, a fresh sbuffer each (kept)",
   -1, CODEC_FAULTS, 0, 0, gp_setup_entries_ser, gp_verify, gp_run, gp_teardown, NULL},
  {"golem_entries1024_deserialize", "msgpack",
   "msgpack-c: unpack each entry, converted into the generated C structs (views + arena)",
   -1, CODEC_FAULTS, 0, 0, gp_setup_entries_de, gp_verify, gp_run, gp_teardown, NULL},
};
// clang-format on
const size_t bench_golem_peer_case_count =
    sizeof bench_golem_peer_cases / sizeof bench_golem_peer_cases[0];

#else /* no msgpack-c */

const codec_case bench_golem_peer_cases[1];
const size_t bench_golem_peer_case_count = 0;

#endif
