/* bench/bench_golem_peers_pb.c — protobuf-c beside the golem_oplog rows
 * (bench_golem_oplog.c) and their msgpack-c peer (bench_golem_peers.c) on
 * the same 1,024 generated entries (bench_golem_model.h) in the same run;
 * one op = the whole batch, every message and decoded value kept until the
 * next op.
 *
 * Rows codec/golem_<op>/protobuf-c/-, messages of proto/bench_golem.proto
 * (the schema's enums as oneofs, maps as protobuf maps, payload blocks as
 * bytes). The native messages are built once in setup from the generated
 * entries (the application is assumed to hold them already, which favours
 * protobuf-c; the oplog peer does the same).
 *   batch_serialize        the list as one GolemOplogBatch message:
 *                          get_packed_size + malloc + pack, kept;
 *   batch_deserialize      golempb__golem_oplog_batch__unpack (default
 *                          allocator), kept until the next op frees it;
 *   batch_deserialize_copy the same op: protobuf-c's unpack already copies
 *                          every string and payload block into memory the
 *                          value owns, which is what desert's _copy row adds
 *                          to its views, so this is its like-for-like peer;
 *   entries_serialize      one GolemOplogEntry message per entry, kept;
 *   entries_deserialize    each entry's message unpacked, all kept.
 * Verified before timing (and by --verify), as bench_golem_peers.c does:
 * every decoded entry (batch and per-entry messages, whatever the row
 * times), converted back into the generated C structs, encodes through
 * desert to the same bytes as the built entry, so it holds equal values.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_golem_model.h"
#include "bench_oplog_model.h"
#include "desert.h"

#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
#include "bench_golem.pb-c.h"

enum { GB_BATCH_SER, GB_BATCH_DE, GB_ENTRIES_SER, GB_ENTRIES_DE };

typedef struct gb_state {
  int mode;
  golem_entry *entries;
  golem_aux *aux;
  oplog_arena built; /* the native messages made from the entries */
  Golempb__GolemOplogBatch batch;
  Golempb__GolemOplogEntry **pb; /* = batch.entries */
  uint8_t **msg;                 /* entry messages (entries rows) */
  size_t *len;
  size_t entries_total;
  uint8_t *list; /* the batch message (batch rows) */
  size_t list_len;
  Golempb__GolemOplogBatch *got_batch; /* unpacked, kept until the next op */
  Golempb__GolemOplogEntry **got;
  oplog_arena mem; /* verification: decoded arrays */
  golem_entry *dec;
  desert_writer *w; /* verification: desert encodings */
} gb_state;

static void gb_free_out(gb_state *s) {
  for (size_t i = 0; s->msg && i < GOLEM_N; i++) {
    free(s->msg[i]);
    s->msg[i] = NULL;
  }
  free(s->list);
  s->list = NULL;
}

static void gb_free_got(gb_state *s) {
  if (s->got_batch) golempb__golem_oplog_batch__free_unpacked(s->got_batch, NULL);
  s->got_batch = NULL;
  for (size_t i = 0; s->got && i < GOLEM_N; i++) {
    if (s->got[i]) golempb__golem_oplog_entry__free_unpacked(s->got[i], NULL);
    s->got[i] = NULL;
  }
}

static void gb_teardown(void *p) {
  gb_state *s = p;
  if (!s) return;
  gb_free_out(s);
  gb_free_got(s);
  golem_free_aux(s->aux);
  free(s->entries);
  free(s->pb);
  free(s->msg);
  free(s->len);
  free(s->got);
  free(s->dec);
  desert_writer_free(s->w);
  oplog_arena_free(&s->built);
  oplog_arena_free(&s->mem);
  free(s);
}

/* ---- generated C structs -> protobuf-c messages (setup) ---- */

/* The constructors without fields: a oneof message member must point to a
 * message to be packed at all. */
static Golempb__Unit gb_unit = GOLEMPB__UNIT__INIT;

static char *pb_str(oplog_arena *a, desert_str s) {
  char *p = oplog_arena_alloc(a, s.len + 1);
  if (!p) return NULL;
  if (s.len) memcpy(p, s.ptr, s.len);
  p[s.len] = '\0';
  return p;
}

static ProtobufCBinaryData pb_bin(const void *p, size_t n) {
  return (ProtobufCBinaryData){n, (uint8_t *)(uintptr_t)p};
}

static ProtobufCBinaryData pb_payload(const bench_golem_OplogPayload *p) {
  return pb_bin(p->left.ptr, p->left.len);
}

#define PB_DEF_NEW(T, fn)                              \
  static Golempb__##T *pb_new_##T(oplog_arena *a) {    \
    Golempb__##T *m = oplog_arena_alloc(a, sizeof *m); \
    if (m) golempb__##fn##__init(m);                   \
    return m;                                          \
  }
PB_DEF_NEW(AgentId, agent_id)
PB_DEF_NEW(PromiseId, promise_id)
PB_DEF_NEW(AttributeValue, attribute_value)
PB_DEF_NEW(LocalSpan, local_span)
PB_DEF_NEW(ExternalSpan, external_span)
PB_DEF_NEW(SpanData, span_data)
PB_DEF_NEW(OptionalIndex, optional_index)
PB_DEF_NEW(DurableFunctionType, durable_function_type)
PB_DEF_NEW(ReadOnlyViolation, read_only_violation)
PB_DEF_NEW(AgentError, agent_error)
PB_DEF_NEW(Create, create)
PB_DEF_NEW(ImportedFunctionInvoked, imported_function_invoked)
PB_DEF_NEW(ExportedFunctionInvoked, exported_function_invoked)
PB_DEF_NEW(ExportedFunctionCompleted, exported_function_completed)
PB_DEF_NEW(PendingUpdate, pending_update)
PB_DEF_NEW(Error, error)
PB_DEF_NEW(CompletePromise, complete_promise)
PB_DEF_NEW(NoOp, no_op)
PB_DEF_NEW(GolemOplogEntry, golem_oplog_entry)

static Golempb__AgentId *pb_agent(oplog_arena *a, const bench_golem_AgentId *v) {
  Golempb__AgentId *m = pb_new_AgentId(a);
  if (!m || !(m->agent_name = pb_str(a, v->agent_name))) return NULL;
  m->component_id = pb_bin(v->component_id.bytes, 16);
  return m;
}

static Golempb__AttributeValue *pb_attr(oplog_arena *a, const bench_golem_AttributeValue *v) {
  Golempb__AttributeValue *m = pb_new_AttributeValue(a);
  if (!m) return NULL;
  m->v_case = (Golempb__AttributeValue__VCase)(v->tag + 1);
  switch (v->tag) {
  case bench_golem_AttributeValue_tag_String:
    return (m->string = pb_str(a, v->String.field0)) ? m : NULL;
  case bench_golem_AttributeValue_tag_U64:
    m->u64 = v->U64.field0;
    return m;
  case bench_golem_AttributeValue_tag_Bool:
    m->bool_ = v->Bool.field0;
    return m;
  case bench_golem_AttributeValue_tag_Json:
    m->json = pb_bin(v->Json.field0.ptr, v->Json.field0.len);
    return m;
  }
  return NULL;
}

static Golempb__SpanData *pb_span(oplog_arena *a, const bench_golem_SpanData *v) {
  Golempb__SpanData *m = pb_new_SpanData(a);
  if (!m) return NULL;
  if (v->tag == bench_golem_SpanData_tag_ExternalSpan) {
    Golempb__ExternalSpan *x = pb_new_ExternalSpan(a);
    if (!x) return NULL;
    x->span_id = pb_bin(v->ExternalSpan.span_id.bytes, 16);
    m->v_case = GOLEMPB__SPAN_DATA__V_EXTERNAL_SPAN;
    m->external_span = x;
    return m;
  }
  const bench_golem_SpanData_LocalSpan *l = &v->LocalSpan;
  Golempb__LocalSpan *x = pb_new_LocalSpan(a);
  if (!x) return NULL;
  x->span_id = pb_bin(l->span_id.bytes, 16);
  x->start = l->start.millis;
  if (l->has_parent_id) {
    x->parent_case = GOLEMPB__LOCAL_SPAN__PARENT_PARENT_ID;
    x->parent_id = pb_bin(l->parent_id.bytes, 16);
  }
  size_t n = l->attributes.count;
  x->n_attributes = n;
  x->attributes = n ? oplog_arena_alloc(a, n * sizeof *x->attributes) : NULL;
  if (n && !x->attributes) return NULL;
  for (size_t i = 0; i < n; i++) {
    Golempb__LocalSpan__AttributesEntry *e = oplog_arena_alloc(a, sizeof *e);
    if (!e) return NULL;
    golempb__local_span__attributes_entry__init(e);
    if (!(e->key = pb_str(a, l->attributes.items[i].key)) ||
        !(e->value = pb_attr(a, &l->attributes.items[i].value)))
      return NULL;
    x->attributes[i] = e;
  }
  x->inherited = l->inherited;
  m->v_case = GOLEMPB__SPAN_DATA__V_LOCAL_SPAN;
  m->local_span = x;
  return m;
}

static Golempb__DurableFunctionType *pb_fn_type(oplog_arena *a,
                                                const bench_golem_DurableFunctionType *v) {
  Golempb__DurableFunctionType *m = pb_new_DurableFunctionType(a);
  if (!m) return NULL;
  m->v_case = (Golempb__DurableFunctionType__VCase)(v->tag + 1);
  switch (v->tag) {
  case bench_golem_DurableFunctionType_tag_WriteRemoteBatched:
  case bench_golem_DurableFunctionType_tag_WriteRemoteTransaction: {
    /* the two cases share the layout and the union slot */
    Golempb__OptionalIndex *x = pb_new_OptionalIndex(a);
    if (!x) return NULL;
    if (v->WriteRemoteBatched.has_field0) {
      x->v_case = GOLEMPB__OPTIONAL_INDEX__V_INDEX;
      x->index = v->WriteRemoteBatched.field0;
    }
    m->write_remote_batched = x;
    return m;
  }
  default:
    m->read_local = &gb_unit;
    return m;
  }
}

static Golempb__AgentError *pb_error(oplog_arena *a, const bench_golem_AgentError *v) {
  Golempb__AgentError *m = pb_new_AgentError(a);
  if (!m) return NULL;
  m->v_case = (Golempb__AgentError__VCase)(v->tag + 1);
  switch (v->tag) {
  case bench_golem_AgentError_tag_Unknown:
  case bench_golem_AgentError_tag_InvalidRequest:
  case bench_golem_AgentError_tag_Runtime:
  case bench_golem_AgentError_tag_PreviousInvocationFailed:
    /* the four cases share the layout, and their strings the union slot */
    return (m->unknown = pb_str(a, v->Unknown.field0)) ? m : NULL;
  case bench_golem_AgentError_tag_ReadOnlyViolation: {
    Golempb__ReadOnlyViolation *x = pb_new_ReadOnlyViolation(a);
    if (!x || !(x->method = pb_str(a, v->ReadOnlyViolation.method)) ||
        !(x->host_function = pb_str(a, v->ReadOnlyViolation.host_function)))
      return NULL;
    m->read_only_violation = x;
    return m;
  }
  default:
    m->interrupted = &gb_unit;
    return m;
  }
}

/* The protobuf-c message of entry e, its memory in a; NULL when out of
 * memory or e holds what the generator never makes (an External block). */
static Golempb__GolemOplogEntry *pb_entry(oplog_arena *a, const golem_entry *e) {
  Golempb__GolemOplogEntry *m = pb_new_GolemOplogEntry(a);
  if (!m || (unsigned)e->tag > 7u) return NULL;
  m->entry_case = (Golempb__GolemOplogEntry__EntryCase)(e->tag + 1);
  switch (e->tag) {
  case bench_golem_GolemOplogEntry_tag_Create: {
    const bench_golem_GolemOplogEntry_Create *v = &e->Create;
    Golempb__Create *x = pb_new_Create(a);
    if (!x || v->args.is_right || !(x->agent_id = pb_agent(a, &v->agent_id))) return NULL;
    x->timestamp = v->timestamp.millis;
    x->component_revision = v->component_revision;
    x->args = pb_payload(&v->args);
    size_t n = v->env.count;
    x->n_env = n;
    x->env = n ? oplog_arena_alloc(a, n * sizeof *x->env) : NULL;
    if (n && !x->env) return NULL;
    for (size_t i = 0; i < n; i++) {
      Golempb__Create__EnvEntry *kv = oplog_arena_alloc(a, sizeof *kv);
      if (!kv) return NULL;
      golempb__create__env_entry__init(kv);
      if (!(kv->key = pb_str(a, v->env.items[i].key)) ||
          !(kv->value = pb_str(a, v->env.items[i].value)))
        return NULL;
      x->env[i] = kv;
    }
    m->create = x;
    return m;
  }
  case bench_golem_GolemOplogEntry_tag_ImportedFunctionInvoked: {
    const bench_golem_GolemOplogEntry_ImportedFunctionInvoked *v = &e->ImportedFunctionInvoked;
    Golempb__ImportedFunctionInvoked *x = pb_new_ImportedFunctionInvoked(a);
    if (!x || v->request.is_right || v->response.is_right ||
        !(x->function_name = pb_str(a, v->function_name)) ||
        !(x->function_type = pb_fn_type(a, &v->function_type)))
      return NULL;
    x->timestamp = v->timestamp.millis;
    x->request = pb_payload(&v->request);
    x->response = pb_payload(&v->response);
    m->imported_function_invoked = x;
    return m;
  }
  case bench_golem_GolemOplogEntry_tag_ExportedFunctionInvoked: {
    const bench_golem_GolemOplogEntry_ExportedFunctionInvoked *v = &e->ExportedFunctionInvoked;
    Golempb__ExportedFunctionInvoked *x = pb_new_ExportedFunctionInvoked(a);
    if (!x || v->input.is_right || !(x->idempotency_key = pb_str(a, v->idempotency_key)) ||
        !(x->method_name = pb_str(a, v->method_name)))
      return NULL;
    x->timestamp = v->timestamp.millis;
    x->input = pb_payload(&v->input);
    size_t n = v->trace.count;
    x->n_trace = n;
    x->trace = n ? oplog_arena_alloc(a, n * sizeof *x->trace) : NULL;
    if (n && !x->trace) return NULL;
    for (size_t i = 0; i < n; i++)
      if (!(x->trace[i] = pb_span(a, &v->trace.items[i]))) return NULL;
    m->exported_function_invoked = x;
    return m;
  }
  case bench_golem_GolemOplogEntry_tag_ExportedFunctionCompleted: {
    Golempb__ExportedFunctionCompleted *x = pb_new_ExportedFunctionCompleted(a);
    if (!x || e->ExportedFunctionCompleted.response.is_right) return NULL;
    x->timestamp = e->ExportedFunctionCompleted.timestamp.millis;
    x->response = pb_payload(&e->ExportedFunctionCompleted.response);
    x->consumed_fuel = e->ExportedFunctionCompleted.consumed_fuel;
    m->exported_function_completed = x;
    return m;
  }
  case bench_golem_GolemOplogEntry_tag_PendingUpdate: {
    Golempb__PendingUpdate *x = pb_new_PendingUpdate(a);
    if (!x || e->PendingUpdate.payload.is_right ||
        !(x->mime_type = pb_str(a, e->PendingUpdate.mime_type)))
      return NULL;
    x->timestamp = e->PendingUpdate.timestamp.millis;
    x->target_revision = e->PendingUpdate.target_revision;
    x->payload = pb_payload(&e->PendingUpdate.payload);
    m->pending_update = x;
    return m;
  }
  case bench_golem_GolemOplogEntry_tag_Error: {
    Golempb__Error *x = pb_new_Error(a);
    if (!x || !(x->error = pb_error(a, &e->Error.error))) return NULL;
    x->timestamp = e->Error.timestamp.millis;
    m->error = x;
    return m;
  }
  case bench_golem_GolemOplogEntry_tag_CompletePromise: {
    const bench_golem_GolemOplogEntry_CompletePromise *v = &e->CompletePromise;
    Golempb__CompletePromise *x = pb_new_CompletePromise(a);
    Golempb__PromiseId *pid = pb_new_PromiseId(a);
    if (!x || !pid || v->data.is_right || !(pid->agent_id = pb_agent(a, &v->promise_id.agent_id)))
      return NULL;
    pid->oplog_idx = v->promise_id.oplog_idx;
    x->timestamp = v->timestamp.millis;
    x->promise_id = pid;
    x->data = pb_payload(&v->data);
    m->complete_promise = x;
    return m;
  }
  case bench_golem_GolemOplogEntry_tag_NoOp: {
    Golempb__NoOp *x = pb_new_NoOp(a);
    if (!x) return NULL;
    x->timestamp = e->NoOp.timestamp.millis;
    m->no_op = x;
    return m;
  }
  }
  return NULL;
}

/* ---- protobuf-c messages -> generated C structs (verification) ---- */

static desert_str gb_str(const char *s) { return (desert_str){s, s ? strlen(s) : 0}; }
static desert_bytes gb_bytes(ProtobufCBinaryData b) { return (desert_bytes){b.data, b.len}; }
static int gb_uuid(ProtobufCBinaryData b, desert_gen_uuid *u) {
  if (b.len != 16) return -1;
  memcpy(u->bytes, b.data, 16);
  return 0;
}
static bench_golem_OplogPayload gb_payload(ProtobufCBinaryData b) {
  bench_golem_OplogPayload p;
  memset(&p, 0, sizeof p);
  p.left = gb_bytes(b);
  return p;
}

static int gb_agent(const Golempb__AgentId *m, bench_golem_AgentId *v) {
  if (!m || gb_uuid(m->component_id, &v->component_id)) return -1;
  v->agent_name = gb_str(m->agent_name);
  return 0;
}

static int gb_attr(const Golempb__AttributeValue *m, bench_golem_AttributeValue *v) {
  if (!m || m->v_case == GOLEMPB__ATTRIBUTE_VALUE__V__NOT_SET) return -1;
  v->tag = (bench_golem_AttributeValue_tag)(m->v_case - 1);
  switch (m->v_case) {
  case GOLEMPB__ATTRIBUTE_VALUE__V_STRING:
    v->String.field0 = gb_str(m->string);
    return 0;
  case GOLEMPB__ATTRIBUTE_VALUE__V_U64:
    v->U64.field0 = m->u64;
    return 0;
  case GOLEMPB__ATTRIBUTE_VALUE__V_BOOL:
    v->Bool.field0 = m->bool_ != 0;
    return 0;
  case GOLEMPB__ATTRIBUTE_VALUE__V_JSON:
    v->Json.field0 = gb_bytes(m->json);
    return 0;
  default:
    return -1;
  }
}

static int gb_span(oplog_arena *a, const Golempb__SpanData *m, bench_golem_SpanData *v) {
  memset(v, 0, sizeof *v);
  if (!m) return -1;
  if (m->v_case == GOLEMPB__SPAN_DATA__V_EXTERNAL_SPAN) {
    v->tag = bench_golem_SpanData_tag_ExternalSpan;
    return m->external_span ? gb_uuid(m->external_span->span_id, &v->ExternalSpan.span_id) : -1;
  }
  const Golempb__LocalSpan *x = m->local_span;
  if (m->v_case != GOLEMPB__SPAN_DATA__V_LOCAL_SPAN || !x) return -1;
  bench_golem_SpanData_LocalSpan *l = &v->LocalSpan;
  v->tag = bench_golem_SpanData_tag_LocalSpan;
  if (gb_uuid(x->span_id, &l->span_id)) return -1;
  l->start.millis = x->start;
  if (x->parent_case == GOLEMPB__LOCAL_SPAN__PARENT_PARENT_ID) {
    l->has_parent_id = true;
    if (gb_uuid(x->parent_id, &l->parent_id)) return -1;
  }
  size_t n = x->n_attributes;
  bench_golem_SpanData_LocalSpan_attributes_entry *items =
      n ? oplog_arena_alloc(a, n * sizeof *items) : NULL;
  if (n && !items) return -1;
  for (size_t i = 0; i < n; i++) {
    items[i].key = gb_str(x->attributes[i]->key);
    if (gb_attr(x->attributes[i]->value, &items[i].value)) return -1;
  }
  l->attributes.items = items;
  l->attributes.count = n;
  l->inherited = x->inherited != 0;
  return 0;
}

static int gb_fn_type(const Golempb__DurableFunctionType *m, bench_golem_DurableFunctionType *v) {
  if (!m || m->v_case == GOLEMPB__DURABLE_FUNCTION_TYPE__V__NOT_SET) return -1;
  v->tag = (bench_golem_DurableFunctionType_tag)(m->v_case - 1);
  if (m->v_case == GOLEMPB__DURABLE_FUNCTION_TYPE__V_WRITE_REMOTE_BATCHED ||
      m->v_case == GOLEMPB__DURABLE_FUNCTION_TYPE__V_WRITE_REMOTE_TRANSACTION) {
    const Golempb__OptionalIndex *x = m->write_remote_batched;
    if (!x) return -1;
    v->WriteRemoteBatched.has_field0 = x->v_case == GOLEMPB__OPTIONAL_INDEX__V_INDEX;
    v->WriteRemoteBatched.field0 = v->WriteRemoteBatched.has_field0 ? x->index : 0;
  }
  return 0;
}

static int gb_error(const Golempb__AgentError *m, bench_golem_AgentError *v) {
  if (!m || m->v_case == GOLEMPB__AGENT_ERROR__V__NOT_SET) return -1;
  v->tag = (bench_golem_AgentError_tag)(m->v_case - 1);
  switch (m->v_case) {
  case GOLEMPB__AGENT_ERROR__V_UNKNOWN:
  case GOLEMPB__AGENT_ERROR__V_INVALID_REQUEST:
  case GOLEMPB__AGENT_ERROR__V_RUNTIME:
  case GOLEMPB__AGENT_ERROR__V_PREVIOUS_INVOCATION_FAILED:
    v->Unknown.field0 = gb_str(m->unknown);
    return 0;
  case GOLEMPB__AGENT_ERROR__V_READ_ONLY_VIOLATION:
    if (!m->read_only_violation) return -1;
    v->ReadOnlyViolation.method = gb_str(m->read_only_violation->method);
    v->ReadOnlyViolation.host_function = gb_str(m->read_only_violation->host_function);
    return 0;
  default:
    return 0;
  }
}

static int gb_entry(oplog_arena *a, const Golempb__GolemOplogEntry *m, golem_entry *e) {
  memset(e, 0, sizeof *e);
  if (!m || m->entry_case == GOLEMPB__GOLEM_OPLOG_ENTRY__ENTRY__NOT_SET) return -1;
  e->tag = (bench_golem_GolemOplogEntry_tag)(m->entry_case - 1);
  switch (m->entry_case) {
  case GOLEMPB__GOLEM_OPLOG_ENTRY__ENTRY_CREATE: {
    const Golempb__Create *x = m->create;
    bench_golem_GolemOplogEntry_Create *v = &e->Create;
    if (!x || gb_agent(x->agent_id, &v->agent_id)) return -1;
    v->timestamp.millis = x->timestamp;
    v->component_revision = x->component_revision;
    v->args = gb_payload(x->args);
    size_t n = x->n_env;
    bench_golem_GolemOplogEntry_Create_env_entry *items =
        n ? oplog_arena_alloc(a, n * sizeof *items) : NULL;
    if (n && !items) return -1;
    for (size_t i = 0; i < n; i++) {
      items[i].key = gb_str(x->env[i]->key);
      items[i].value = gb_str(x->env[i]->value);
    }
    v->env.items = items;
    v->env.count = n;
    return 0;
  }
  case GOLEMPB__GOLEM_OPLOG_ENTRY__ENTRY_IMPORTED_FUNCTION_INVOKED: {
    const Golempb__ImportedFunctionInvoked *x = m->imported_function_invoked;
    bench_golem_GolemOplogEntry_ImportedFunctionInvoked *v = &e->ImportedFunctionInvoked;
    if (!x || gb_fn_type(x->function_type, &v->function_type)) return -1;
    v->timestamp.millis = x->timestamp;
    v->function_name = gb_str(x->function_name);
    v->request = gb_payload(x->request);
    v->response = gb_payload(x->response);
    return 0;
  }
  case GOLEMPB__GOLEM_OPLOG_ENTRY__ENTRY_EXPORTED_FUNCTION_INVOKED: {
    const Golempb__ExportedFunctionInvoked *x = m->exported_function_invoked;
    bench_golem_GolemOplogEntry_ExportedFunctionInvoked *v = &e->ExportedFunctionInvoked;
    if (!x) return -1;
    v->timestamp.millis = x->timestamp;
    v->idempotency_key = gb_str(x->idempotency_key);
    v->method_name = gb_str(x->method_name);
    v->input = gb_payload(x->input);
    size_t n = x->n_trace;
    bench_golem_SpanData *items = n ? oplog_arena_alloc(a, n * sizeof *items) : NULL;
    if (n && !items) return -1;
    for (size_t i = 0; i < n; i++)
      if (gb_span(a, x->trace[i], &items[i])) return -1;
    v->trace.items = items;
    v->trace.count = n;
    return 0;
  }
  case GOLEMPB__GOLEM_OPLOG_ENTRY__ENTRY_EXPORTED_FUNCTION_COMPLETED: {
    const Golempb__ExportedFunctionCompleted *x = m->exported_function_completed;
    if (!x) return -1;
    e->ExportedFunctionCompleted.timestamp.millis = x->timestamp;
    e->ExportedFunctionCompleted.response = gb_payload(x->response);
    e->ExportedFunctionCompleted.consumed_fuel = x->consumed_fuel;
    return 0;
  }
  case GOLEMPB__GOLEM_OPLOG_ENTRY__ENTRY_PENDING_UPDATE: {
    const Golempb__PendingUpdate *x = m->pending_update;
    if (!x) return -1;
    e->PendingUpdate.timestamp.millis = x->timestamp;
    e->PendingUpdate.target_revision = x->target_revision;
    e->PendingUpdate.payload = gb_payload(x->payload);
    e->PendingUpdate.mime_type = gb_str(x->mime_type);
    return 0;
  }
  case GOLEMPB__GOLEM_OPLOG_ENTRY__ENTRY_ERROR:
    if (!m->error) return -1;
    e->Error.timestamp.millis = m->error->timestamp;
    return gb_error(m->error->error, &e->Error.error);
  case GOLEMPB__GOLEM_OPLOG_ENTRY__ENTRY_COMPLETE_PROMISE: {
    const Golempb__CompletePromise *x = m->complete_promise;
    if (!x || !x->promise_id ||
        gb_agent(x->promise_id->agent_id, &e->CompletePromise.promise_id.agent_id))
      return -1;
    e->CompletePromise.timestamp.millis = x->timestamp;
    e->CompletePromise.promise_id.oplog_idx = x->promise_id->oplog_idx;
    e->CompletePromise.data = gb_payload(x->data);
    return 0;
  }
  case GOLEMPB__GOLEM_OPLOG_ENTRY__ENTRY_NO_OP:
    if (!m->no_op) return -1;
    e->NoOp.timestamp.millis = m->no_op->timestamp;
    return 0;
  default:
    return -1;
  }
}

/* ---- ops ---- */

static uint64_t gb_batch_ser(gb_state *s) {
  free(s->list);
  s->list_len = golempb__golem_oplog_batch__get_packed_size(&s->batch);
  if (!(s->list = malloc(s->list_len))) return 0;
  return golempb__golem_oplog_batch__pack(&s->batch, s->list);
}

static uint64_t gb_entries_ser(gb_state *s) {
  size_t total = 0;
  for (size_t i = 0; i < GOLEM_N; i++) {
    free(s->msg[i]);
    size_t n = golempb__golem_oplog_entry__get_packed_size(s->pb[i]);
    if (!(s->msg[i] = malloc(n ? n : 1))) return 0;
    s->len[i] = golempb__golem_oplog_entry__pack(s->pb[i], s->msg[i]);
    total += s->len[i];
  }
  return total;
}

static uint64_t gb_batch_de(gb_state *s) {
  gb_free_got(s);
  s->got_batch = golempb__golem_oplog_batch__unpack(NULL, s->list_len, s->list);
  if (!s->got_batch || s->got_batch->n_entries != GOLEM_N) return 0;
  return s->got_batch->n_entries + (uint64_t)s->got_batch->entries[0]->entry_case;
}

static uint64_t gb_entries_de(gb_state *s) {
  gb_free_got(s);
  uint64_t acc = 0;
  for (size_t i = 0; i < GOLEM_N; i++) {
    if (!(s->got[i] = golempb__golem_oplog_entry__unpack(NULL, s->len[i], s->msg[i]))) return 0;
    acc += (uint64_t)s->got[i]->entry_case;
  }
  return acc;
}

static uint64_t gb_run(void *p, size_t i) {
  (void)i;
  gb_state *s = p;
  switch (s->mode) {
  case GB_BATCH_SER:
    return gb_batch_ser(s);
  case GB_BATCH_DE:
    return gb_batch_de(s);
  case GB_ENTRIES_SER:
    return gb_entries_ser(s);
  default:
    return gb_entries_de(s);
  }
}

static void *gb_setup(int mode, codec_info *info) {
  gb_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->mode = mode;
  oplog_arena_init(&s->built);
  oplog_arena_init(&s->mem);
  golempb__golem_oplog_batch__init(&s->batch);
  s->entries = calloc(GOLEM_N, sizeof *s->entries);
  s->aux = calloc(GOLEM_N, sizeof *s->aux);
  s->pb = calloc(GOLEM_N, sizeof *s->pb);
  s->msg = calloc(GOLEM_N, sizeof *s->msg);
  s->len = calloc(GOLEM_N, sizeof *s->len);
  s->got = calloc(GOLEM_N, sizeof *s->got);
  s->dec = calloc(GOLEM_N, sizeof *s->dec);
  if (!s->entries || !s->aux || !s->pb || !s->msg || !s->len || !s->got || !s->dec) goto fail;
  size_t payload_total;
  if (golem_make_all(s->entries, s->aux, &payload_total)) goto fail;
  for (size_t i = 0; i < GOLEM_N; i++)
    if (!(s->pb[i] = pb_entry(&s->built, &s->entries[i]))) {
      snprintf(info->fail, sizeof info->fail, "golem protobuf-c: entry %zu has no message", i);
      goto fail;
    }
  s->batch.n_entries = GOLEM_N;
  s->batch.entries = s->pb;
  if (!(s->entries_total = gb_entries_ser(s)) || !gb_batch_ser(s)) goto fail;
  info->bytes_per_op =
      mode == GB_ENTRIES_SER || mode == GB_ENTRIES_DE ? s->entries_total : s->list_len;
  info->items_per_op = GOLEM_N;
  return s;
fail:
  gb_teardown(s);
  return NULL;
}

/* ---- verification ---- */

/* Compares the desert encodings of got and want (payload blocks included). */
static int gb_same_through_desert(gb_state *s, const golem_entry *got, const golem_entry *want,
                                  const char *what, size_t i, char *msg, size_t cap) {
  size_t la = 0, lb = 0;
  desert_writer_reset(s->w);
  if (bench_golem_encode_GolemOplogEntry(s->w, want))
    return codec_fail(msg, cap, "%s: built entry %zu does not encode", what, i);
  const uint8_t *wd = desert_writer_data(s->w, &lb);
  uint8_t *want_bytes = malloc(lb ? lb : 1);
  if (!want_bytes) return codec_fail(msg, cap, "%s: out of memory", what);
  memcpy(want_bytes, wd, lb);
  desert_writer_reset(s->w);
  int bad = bench_golem_encode_GolemOplogEntry(s->w, got)
                ? codec_fail(msg, cap, "%s: decoded entry %zu does not encode", what, i)
                : 0;
  if (!bad) {
    const uint8_t *gd = desert_writer_data(s->w, &la);
    bad = codec_check_bytes(what, gd, la, want_bytes, lb, msg, cap);
  }
  free(want_bytes);
  return bad;
}

static int gb_check(gb_state *s, Golempb__GolemOplogEntry *const *got, size_t n, const char *what,
                    char *msg, size_t cap) {
  if (n != GOLEM_N) return codec_fail(msg, cap, "%s: %zu entries decoded", what, n);
  oplog_arena_reset(&s->mem);
  for (size_t i = 0; i < GOLEM_N; i++) {
    if (gb_entry(&s->mem, got[i], &s->dec[i]))
      return codec_fail(msg, cap, "%s: entry %zu does not convert", what, i);
    if (s->dec[i].tag != s->entries[i].tag)
      return codec_fail(msg, cap, "%s: entry %zu: another constructor", what, i);
    if (gb_same_through_desert(s, &s->dec[i], &s->entries[i], what, i, msg, cap)) return 1;
  }
  return 0;
}

static int gb_verify(void *p, char *msg, size_t cap) {
  gb_state *s = p;
  size_t list_len = s->list_len, entries_total = s->entries_total;
  if (!gb_run(s, 0)) return codec_fail(msg, cap, "golem protobuf-c op failed");
  if (gb_batch_ser(s) != list_len || gb_entries_ser(s) != entries_total)
    return codec_fail(msg, cap, "golem protobuf-c: message sizes differ from setup's");
  if (!s->w && desert_writer_create(NULL, &s->w))
    return codec_fail(msg, cap, "golem protobuf-c: no writer");
  /* Both decoding ops, whatever this row times. */
  if (!gb_entries_de(s)) return codec_fail(msg, cap, "golem protobuf-c: an entry does not unpack");
  if (gb_check(s, s->got, GOLEM_N, "protobuf-c entries round trip", msg, cap)) return 1;
  if (!gb_batch_de(s)) return codec_fail(msg, cap, "golem protobuf-c: the batch does not unpack");
  return gb_check(s, s->got_batch->entries, s->got_batch->n_entries, "protobuf-c batch round trip",
                  msg, cap);
}

/* ---- table ---- */

#define GB_SETUP(name, mode)                                                     \
  static void *gb_setup_##name(desert_isa isa, size_t param, codec_info *info) { \
    (void)isa;                                                                   \
    (void)param;                                                                 \
    return gb_setup(mode, info);                                                 \
  }
GB_SETUP(batch_ser, GB_BATCH_SER)
GB_SETUP(batch_de, GB_BATCH_DE)
GB_SETUP(entries_ser, GB_ENTRIES_SER)
GB_SETUP(entries_de, GB_ENTRIES_DE)

// clang-format off
static const codec_case bench_golem_pb_cases[] = {
  {"golem_batch1024_serialize", "protobuf-c",
   "protobuf-c: the list as one GolemOplogBatch, get_packed_size + malloc + pack (kept)",
   -1, CODEC_FAULTS, 0, 0, gb_setup_batch_ser, gb_verify, gb_run, gb_teardown, NULL},
  {"golem_batch1024_deserialize", "protobuf-c",
   "protobuf-c: unpack the GolemOplogBatch (everything copied), kept until the next op",
   -1, CODEC_FAULTS, 0, 0, gb_setup_batch_de, gb_verify, gb_run, gb_teardown, NULL},
  {"golem_batch1024_deserialize_copy", "protobuf-c",
   "protobuf-c: unpack the GolemOplogBatch; unpack already owns every block (same op)",
   -1, CODEC_FAULTS, 0, 0, gb_setup_batch_de, gb_verify, gb_run, gb_teardown, NULL},
  {"golem_entries1024_serialize", "protobuf-c",
   "protobuf-c: one GolemOplogEntry message per entry, get_packed_size + malloc + pack (kept)",
   -1, CODEC_FAULTS, 0, 0, gb_setup_entries_ser, gb_verify, gb_run, gb_teardown, NULL},
  {"golem_entries1024_deserialize", "protobuf-c",
   "protobuf-c: unpack each entry's message (everything copied), all kept",
   -1, CODEC_FAULTS, 0, 0, gb_setup_entries_de, gb_verify, gb_run, gb_teardown, NULL},
};
// clang-format on

size_t bench_golem_pb_tables(codec_table *out, size_t max) {
  if (max == 0) return 0;
  out[0] = (codec_table){bench_golem_pb_cases,
                         sizeof bench_golem_pb_cases / sizeof bench_golem_pb_cases[0]};
  return 1;
}

#else /* no protobuf-c */

size_t bench_golem_pb_tables(codec_table *out, size_t max) {
  (void)out;
  (void)max;
  return 0;
}

#endif
