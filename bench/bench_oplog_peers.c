/* bench/bench_oplog_peers.c — the peers of the oplog rows
 * (bench_oplog_desert.c) on the same 10,000 generated entries in the same
 * run: msgpack-c and protobuf-c, one op = one pass over all entries, every
 * message and decoded value kept until the next op.
 *
 * msgpack-c (rows codec/oplog_p<P>_<op>/msgpack/-): packed by a walk of the
 * generated C structs, positionally: an entry is [case, fields...] (a
 * promise id flattened to uuid, worker name, index; a missing option nil),
 * a Value [case, payload], a list an array of Values, bytes bin.
 *   serialize          a fresh msgpack_sbuffer per entry, its buffer kept
 *                      (msgpack_sbuffer_release) as the message;
 *   serialize_reused   one sbuffer cleared per entry, copied out into a
 *                      malloc'd buffer per entry;
 *   deserialize        msgpack_unpack_next into one msgpack_unpacked, the
 *                      object tree converted into the generated C structs
 *                      (arrays in a row arena rewound per op, strings and
 *                      bytes views into the kept input: what desert's
 *                      deserialize row keeps).
 * protobuf-c (rows .../protobuf-c/-; messages of proto/bench_oplog.proto):
 * native structs built once in setup from the generated entries (the
 * application is assumed to hold them already, which favours protobuf-c);
 *   serialize          get_packed_size + malloc + pack per entry, kept;
 *   deserialize        oplogpb__oplog_entry__unpack per entry (default
 *                      allocator, everything copied), kept until the next
 *                      op frees it.
 * Value cases the generator never makes (Variant, Flags, Option, Result,
 * Handle) are not converted by these walks: a value holding one fails
 * setup. Every row checks once that each message decodes to its entry.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_oplog_model.h"

#ifdef DESERT_BENCH_HAVE_MSGPACK
#include <msgpack.h>

#include "bench_msgpack_read.h"
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
#include "bench_oplog.pb-c.h"
#endif

#if defined(DESERT_BENCH_HAVE_MSGPACK) || defined(DESERT_BENCH_HAVE_PROTOBUF_C)

enum { OP_MP_SER, OP_MP_SER_REUSED, OP_MP_DE, OP_PB_SER, OP_PB_DE };

typedef struct op_state {
  int mode;
  oplog_data d;
  size_t total;
  uint8_t **msg; /* messages of the serialize ops / inputs of deserialize */
  size_t *len;
  oplog_arena mem; /* msgpack: decoded arrays; protobuf-c: the built messages */
  bench_oplog_OplogEntry *dec;
#ifdef DESERT_BENCH_HAVE_MSGPACK
  msgpack_sbuffer sb;
  msgpack_unpacked up;
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
  Oplogpb__OplogEntry **pb;  /* built from the entries */
  Oplogpb__OplogEntry **got; /* unpacked, kept until the next op */
#endif
} op_state;

static void op_free_msgs(op_state *s) {
  if (s->msg)
    for (size_t i = 0; i < s->d.n; i++) {
      free(s->msg[i]);
      s->msg[i] = NULL;
    }
}

#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
static void op_free_got(op_state *s) {
  if (s->got)
    for (size_t i = 0; i < s->d.n; i++) {
      if (s->got[i]) oplogpb__oplog_entry__free_unpacked(s->got[i], NULL);
      s->got[i] = NULL;
    }
}
#endif

static void op_teardown(void *p) {
  op_state *s = p;
  if (!s) return;
  op_free_msgs(s);
#ifdef DESERT_BENCH_HAVE_MSGPACK
  msgpack_sbuffer_destroy(&s->sb);
  msgpack_unpacked_destroy(&s->up);
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
  op_free_got(s);
  free(s->got);
  free(s->pb);
#endif
  free(s->msg);
  free(s->len);
  free(s->dec);
  oplog_arena_free(&s->mem);
  oplog_data_free(&s->d);
  free(s);
}

/* ================================ msgpack-c ================================ */
#ifdef DESERT_BENCH_HAVE_MSGPACK

static int mp_value(msgpack_packer *pk, const bench_oplog_Value *v);

static int mp_values(msgpack_packer *pk, const bench_oplog_Value *v, size_t n) {
  msgpack_pack_array(pk, n);
  for (size_t i = 0; i < n; i++)
    if (mp_value(pk, &v[i])) return -1;
  return 0;
}

static int mp_value(msgpack_packer *pk, const bench_oplog_Value *v) {
  msgpack_pack_array(pk, 2);
  msgpack_pack_unsigned_int(pk, (unsigned)v->tag);
  switch (v->tag) {
  case bench_oplog_Value_tag_Bool: return v->Bool ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
  case bench_oplog_Value_tag_U8: return msgpack_pack_uint8(pk, v->U8);
  case bench_oplog_Value_tag_U16: return msgpack_pack_uint16(pk, v->U16);
  case bench_oplog_Value_tag_U32: return msgpack_pack_uint32(pk, v->U32);
  case bench_oplog_Value_tag_U64: return msgpack_pack_uint64(pk, v->U64);
  case bench_oplog_Value_tag_S8: return msgpack_pack_int8(pk, v->S8);
  case bench_oplog_Value_tag_S16: return msgpack_pack_int16(pk, v->S16);
  case bench_oplog_Value_tag_S32: return msgpack_pack_int32(pk, v->S32);
  case bench_oplog_Value_tag_S64: return msgpack_pack_int64(pk, v->S64);
  case bench_oplog_Value_tag_F32: return msgpack_pack_float(pk, v->F32);
  case bench_oplog_Value_tag_F64: return msgpack_pack_double(pk, v->F64);
  case bench_oplog_Value_tag_Char: return msgpack_pack_uint32(pk, v->Char);
  case bench_oplog_Value_tag_String:
    return msgpack_pack_str_with_body(pk, v->String.ptr, v->String.len);
  case bench_oplog_Value_tag_List: return mp_values(pk, v->List.items, v->List.count);
  case bench_oplog_Value_tag_Tuple: return mp_values(pk, v->Tuple.items, v->Tuple.count);
  case bench_oplog_Value_tag_Record: return mp_values(pk, v->Record.items, v->Record.count);
  case bench_oplog_Value_tag_Enum: return msgpack_pack_uint32(pk, v->Enum);
  default: return -1; /* not made by the generator (see the top of this file) */
  }
}

static void mp_str(msgpack_packer *pk, desert_str s) { msgpack_pack_str_with_body(pk, s.ptr, s.len); }
static void mp_bin(msgpack_packer *pk, desert_bytes b) { msgpack_pack_bin_with_body(pk, b.ptr, b.len); }

static void mp_promise(msgpack_packer *pk, const bench_oplog_PromiseId *p) {
  msgpack_pack_bin_with_body(pk, p->worker_id.template_id.uuid.bytes, 16);
  mp_str(pk, p->worker_id.worker_name);
  msgpack_pack_int32(pk, p->oplog_idx);
}

static int mp_entry(msgpack_packer *pk, const bench_oplog_OplogEntry *e) {
  static const size_t fields[] = {6, 6, 4, 5, 6, 2, 2, 3};
  if ((unsigned)e->tag > 7u) return -1;
  msgpack_pack_array(pk, fields[e->tag]);
  msgpack_pack_unsigned_int(pk, (unsigned)e->tag);
  msgpack_pack_uint64(pk, e->Suspend.timestamp); /* every case starts with it */
  switch (e->tag) {
  case bench_oplog_OplogEntry_tag_ImportedFunctionInvoked: {
    const bench_oplog_OplogEntry_ImportedFunctionInvoked *v = &e->ImportedFunctionInvoked;
    mp_str(pk, v->function_name);
    mp_bin(pk, v->response);
    mp_bin(pk, v->side_effect);
    return msgpack_pack_unsigned_int(pk, (unsigned)v->wrapped_function_type.tag);
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionInvoked: {
    const bench_oplog_OplogEntry_ExportedFunctionInvoked *v = &e->ExportedFunctionInvoked;
    mp_str(pk, v->function_name);
    if (mp_values(pk, v->request.items, v->request.count)) return -1;
    if (v->has_invocation_key)
      mp_str(pk, v->invocation_key.value);
    else
      msgpack_pack_nil(pk);
    if (v->has_calling_convention)
      return msgpack_pack_unsigned_int(pk, (unsigned)v->calling_convention.tag);
    return msgpack_pack_nil(pk);
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionCompleted: {
    const bench_oplog_OplogEntry_ExportedFunctionCompleted *v = &e->ExportedFunctionCompleted;
    if (mp_values(pk, v->response.items, v->response.count)) return -1;
    return msgpack_pack_int64(pk, v->consumed_fuel);
  }
  case bench_oplog_OplogEntry_tag_CreatePromise:
    mp_promise(pk, &e->CreatePromise.promise_id);
    return 0;
  case bench_oplog_OplogEntry_tag_CompletePromise:
    mp_promise(pk, &e->CompletePromise.promise_id);
    mp_bin(pk, e->CompletePromise.data);
    return 0;
  case bench_oplog_OplogEntry_tag_Debug: mp_str(pk, e->Debug.message); return 0;
  default: return 0;
  }
}

/* ---- msgpack_object -> generated C structs ---- */




static int mo_int(const msgpack_object *o, int64_t lo, int64_t hi, int64_t *v) {
  return mo_i64(o, v) || *v < lo || *v > hi ? -1 : 0;
}



static int mo_value(oplog_arena *a, const msgpack_object *o, bench_oplog_Value *v);

static int mo_values(oplog_arena *a, const msgpack_object *o, bench_oplog_Value **items,
                     size_t *count) {
  if (o->type != MSGPACK_OBJECT_ARRAY) return -1;
  size_t n = o->via.array.size;
  bench_oplog_Value *p = oplog_arena_alloc(a, n * sizeof *p);
  if (!p) return -1;
  for (size_t i = 0; i < n; i++)
    if (mo_value(a, &o->via.array.ptr[i], &p[i])) return -1;
  *items = p;
  *count = n;
  return 0;
}

static int mo_value(oplog_arena *a, const msgpack_object *o, bench_oplog_Value *v) {
  if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 2) return -1;
  const msgpack_object *x = &o->via.array.ptr[1];
  uint64_t tag, u;
  int64_t i;
  if (mo_uint(&o->via.array.ptr[0], 21, &tag)) return -1;
  memset(v, 0, sizeof *v);
  v->tag = (bench_oplog_Value_tag)tag;
  switch (v->tag) {
  case bench_oplog_Value_tag_Bool:
    if (x->type != MSGPACK_OBJECT_BOOLEAN) return -1;
    v->Bool = x->via.boolean;
    return 0;
  case bench_oplog_Value_tag_U8:
    if (mo_uint(x, UINT8_MAX, &u)) return -1;
    v->U8 = (uint8_t)u;
    return 0;
  case bench_oplog_Value_tag_U16:
    if (mo_uint(x, UINT16_MAX, &u)) return -1;
    v->U16 = (uint16_t)u;
    return 0;
  case bench_oplog_Value_tag_U32:
    if (mo_uint(x, UINT32_MAX, &u)) return -1;
    v->U32 = (uint32_t)u;
    return 0;
  case bench_oplog_Value_tag_U64: return mo_u64(x, &v->U64);
  case bench_oplog_Value_tag_S8:
    if (mo_int(x, INT8_MIN, INT8_MAX, &i)) return -1;
    v->S8 = (int8_t)i;
    return 0;
  case bench_oplog_Value_tag_S16:
    if (mo_int(x, INT16_MIN, INT16_MAX, &i)) return -1;
    v->S16 = (int16_t)i;
    return 0;
  case bench_oplog_Value_tag_S32:
    if (mo_int(x, INT32_MIN, INT32_MAX, &i)) return -1;
    v->S32 = (int32_t)i;
    return 0;
  case bench_oplog_Value_tag_S64: return mo_i64(x, &v->S64);
  case bench_oplog_Value_tag_F32:
    if (x->type != MSGPACK_OBJECT_FLOAT32) return -1;
    v->F32 = (float)x->via.f64;
    return 0;
  case bench_oplog_Value_tag_F64:
    if (x->type != MSGPACK_OBJECT_FLOAT64) return -1;
    v->F64 = x->via.f64;
    return 0;
  case bench_oplog_Value_tag_Char:
    if (mo_uint(x, 0x10FFFF, &u)) return -1;
    v->Char = (uint32_t)u;
    return 0;
  case bench_oplog_Value_tag_String: return mo_str(x, &v->String);
  case bench_oplog_Value_tag_List: return mo_values(a, x, &v->List.items, &v->List.count);
  case bench_oplog_Value_tag_Tuple: return mo_values(a, x, &v->Tuple.items, &v->Tuple.count);
  case bench_oplog_Value_tag_Record: return mo_values(a, x, &v->Record.items, &v->Record.count);
  case bench_oplog_Value_tag_Enum:
    if (mo_uint(x, UINT32_MAX, &u)) return -1;
    v->Enum = (uint32_t)u;
    return 0;
  default: return -1;
  }
}

static int mo_promise(const msgpack_object *f, bench_oplog_PromiseId *p) {
  desert_bytes uuid;
  int64_t idx;
  if (mo_bin(&f[0], &uuid) || uuid.len != 16 || mo_str(&f[1], &p->worker_id.worker_name) ||
      mo_int(&f[2], INT32_MIN, INT32_MAX, &idx))
    return -1;
  memcpy(p->worker_id.template_id.uuid.bytes, uuid.ptr, 16);
  p->oplog_idx = (int32_t)idx;
  return 0;
}

static int mo_entry(oplog_arena *a, const msgpack_object *o, bench_oplog_OplogEntry *e) {
  static const size_t fields[] = {6, 6, 4, 5, 6, 2, 2, 3};
  uint64_t tag, u;
  if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 2) return -1;
  const msgpack_object *f = o->via.array.ptr;
  if (mo_uint(&f[0], 7, &tag) || o->via.array.size != fields[tag]) return -1;
  memset(e, 0, sizeof *e);
  e->tag = (bench_oplog_OplogEntry_tag)tag;
  uint64_t ts;
  if (mo_u64(&f[1], &ts)) return -1;
  f += 2;
  switch (e->tag) {
  case bench_oplog_OplogEntry_tag_ImportedFunctionInvoked: {
    bench_oplog_OplogEntry_ImportedFunctionInvoked *v = &e->ImportedFunctionInvoked;
    v->timestamp = ts;
    if (mo_str(&f[0], &v->function_name) || mo_bin(&f[1], &v->response) ||
        mo_bin(&f[2], &v->side_effect) || mo_uint(&f[3], 3, &u))
      return -1;
    v->wrapped_function_type.tag = (bench_oplog_WrappedFunctionType_tag)u;
    return 0;
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionInvoked: {
    bench_oplog_OplogEntry_ExportedFunctionInvoked *v = &e->ExportedFunctionInvoked;
    v->timestamp = ts;
    if (mo_str(&f[0], &v->function_name) ||
        mo_values(a, &f[1], &v->request.items, &v->request.count))
      return -1;
    if (f[2].type != MSGPACK_OBJECT_NIL) {
      v->has_invocation_key = true;
      if (mo_str(&f[2], &v->invocation_key.value)) return -1;
    }
    if (f[3].type != MSGPACK_OBJECT_NIL) {
      v->has_calling_convention = true;
      if (mo_uint(&f[3], 2, &u)) return -1;
      v->calling_convention.tag = (bench_oplog_CallingConvention_tag)u;
    }
    return 0;
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionCompleted: {
    bench_oplog_OplogEntry_ExportedFunctionCompleted *v = &e->ExportedFunctionCompleted;
    v->timestamp = ts;
    return mo_values(a, &f[0], &v->response.items, &v->response.count) ||
                   mo_i64(&f[1], &v->consumed_fuel)
               ? -1
               : 0;
  }
  case bench_oplog_OplogEntry_tag_CreatePromise:
    e->CreatePromise.timestamp = ts;
    return mo_promise(f, &e->CreatePromise.promise_id);
  case bench_oplog_OplogEntry_tag_CompletePromise:
    e->CompletePromise.timestamp = ts;
    return mo_promise(f, &e->CompletePromise.promise_id) || mo_bin(&f[3], &e->CompletePromise.data)
               ? -1
               : 0;
  case bench_oplog_OplogEntry_tag_Suspend: e->Suspend.timestamp = ts; return 0;
  case bench_oplog_OplogEntry_tag_Error: e->Error.timestamp = ts; return 0;
  case bench_oplog_OplogEntry_tag_Debug:
    e->Debug.timestamp = ts;
    return mo_str(&f[0], &e->Debug.message);
  }
  return -1;
}

static uint64_t mp_ser(op_state *s) {
  op_free_msgs(s);
  size_t total = 0;
  for (size_t i = 0; i < s->d.n; i++) {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    if (mp_entry(&pk, &s->d.entries[i])) {
      msgpack_sbuffer_destroy(&sb);
      return 0;
    }
    s->len[i] = sb.size;
    s->msg[i] = (uint8_t *)msgpack_sbuffer_release(&sb);
    total += s->len[i];
  }
  return total;
}

static uint64_t mp_ser_reused(op_state *s) {
  op_free_msgs(s);
  size_t total = 0;
  msgpack_packer pk;
  msgpack_packer_init(&pk, &s->sb, msgpack_sbuffer_write);
  for (size_t i = 0; i < s->d.n; i++) {
    msgpack_sbuffer_clear(&s->sb);
    if (mp_entry(&pk, &s->d.entries[i])) return 0;
    uint8_t *m = malloc(s->sb.size);
    if (!m) return 0;
    memcpy(m, s->sb.data, s->sb.size);
    s->msg[i] = m;
    s->len[i] = s->sb.size;
    total += s->sb.size;
  }
  return total;
}

static uint64_t mp_de(op_state *s) {
  oplog_arena_reset(&s->mem);
  for (size_t i = 0; i < s->d.n; i++) {
    size_t off = 0;
    if (msgpack_unpack_next(&s->up, (const char *)s->msg[i], s->len[i], &off) !=
            MSGPACK_UNPACK_SUCCESS ||
        mo_entry(&s->mem, &s->up.data, &s->dec[i]))
      return 0;
  }
  return oplog_entries_touch(s->dec, s->d.n);
}

/* Packs every entry with a fresh sbuffer into s->msg (setup). */
static int mp_encode_all(op_state *s) { return mp_ser(s) ? 0 : -1; }

#endif /* msgpack */

/* ================================ protobuf-c ================================ */
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C

static char *pb_str(oplog_arena *a, desert_str s) {
  char *p = oplog_arena_alloc(a, s.len + 1);
  if (!p) return NULL;
  if (s.len) memcpy(p, s.ptr, s.len);
  p[s.len] = 0;
  return p;
}

static ProtobufCBinaryData pb_bin(desert_bytes b) {
  ProtobufCBinaryData d = {b.len, (uint8_t *)(uintptr_t)b.ptr}; /* pack only reads it */
  return d;
}

static Oplogpb__Value *pb_value(oplog_arena *a, const bench_oplog_Value *v);

static int pb_values(oplog_arena *a, const bench_oplog_Value *v, size_t n, Oplogpb__Value ***out,
                     size_t *count) {
  Oplogpb__Value **p = oplog_arena_alloc(a, n * sizeof *p);
  if (!p) return -1;
  for (size_t i = 0; i < n; i++)
    if (!(p[i] = pb_value(a, &v[i]))) return -1;
  *out = p;
  *count = n;
  return 0;
}

static Oplogpb__ValueList *pb_list(oplog_arena *a, const bench_oplog_Value *v, size_t n) {
  Oplogpb__ValueList *l = oplog_arena_alloc(a, sizeof *l);
  if (!l) return NULL;
  oplogpb__value_list__init(l);
  return pb_values(a, v, n, &l->items, &l->n_items) ? NULL : l;
}

static Oplogpb__Value *pb_value(oplog_arena *a, const bench_oplog_Value *v) {
  Oplogpb__Value *p = oplog_arena_alloc(a, sizeof *p);
  if (!p) return NULL;
  oplogpb__value__init(p);
  switch (v->tag) {
  case bench_oplog_Value_tag_Bool: p->v_case = OPLOGPB__VALUE__V_B; p->b = v->Bool; break;
  case bench_oplog_Value_tag_U8: p->v_case = OPLOGPB__VALUE__V_U8; p->u8 = v->U8; break;
  case bench_oplog_Value_tag_U16: p->v_case = OPLOGPB__VALUE__V_U16; p->u16 = v->U16; break;
  case bench_oplog_Value_tag_U32: p->v_case = OPLOGPB__VALUE__V_U32; p->u32 = v->U32; break;
  case bench_oplog_Value_tag_U64: p->v_case = OPLOGPB__VALUE__V_U64; p->u64 = v->U64; break;
  case bench_oplog_Value_tag_S8: p->v_case = OPLOGPB__VALUE__V_S8; p->s8 = v->S8; break;
  case bench_oplog_Value_tag_S16: p->v_case = OPLOGPB__VALUE__V_S16; p->s16 = v->S16; break;
  case bench_oplog_Value_tag_S32: p->v_case = OPLOGPB__VALUE__V_S32; p->s32 = v->S32; break;
  case bench_oplog_Value_tag_S64: p->v_case = OPLOGPB__VALUE__V_S64; p->s64 = v->S64; break;
  case bench_oplog_Value_tag_F32: p->v_case = OPLOGPB__VALUE__V_F32; p->f32 = v->F32; break;
  case bench_oplog_Value_tag_F64: p->v_case = OPLOGPB__VALUE__V_F64; p->f64 = v->F64; break;
  case bench_oplog_Value_tag_Char: p->v_case = OPLOGPB__VALUE__V_CH; p->ch = v->Char; break;
  case bench_oplog_Value_tag_String:
    p->v_case = OPLOGPB__VALUE__V_STR;
    if (!(p->str = pb_str(a, v->String))) return NULL;
    break;
  case bench_oplog_Value_tag_List:
    p->v_case = OPLOGPB__VALUE__V_LIST;
    if (!(p->list = pb_list(a, v->List.items, v->List.count))) return NULL;
    break;
  case bench_oplog_Value_tag_Tuple:
    p->v_case = OPLOGPB__VALUE__V_TUPLE;
    if (!(p->tuple = pb_list(a, v->Tuple.items, v->Tuple.count))) return NULL;
    break;
  case bench_oplog_Value_tag_Record:
    p->v_case = OPLOGPB__VALUE__V_RECORD;
    if (!(p->record = pb_list(a, v->Record.items, v->Record.count))) return NULL;
    break;
  case bench_oplog_Value_tag_Enum:
    p->v_case = OPLOGPB__VALUE__V_ENUM_CASE;
    p->enum_case = v->Enum;
    break;
  default: return NULL; /* not made by the generator */
  }
  return p;
}

static Oplogpb__PromiseId *pb_promise(oplog_arena *a, const bench_oplog_PromiseId *src) {
  Oplogpb__PromiseId *p = oplog_arena_alloc(a, sizeof *p);
  Oplogpb__WorkerId *w = oplog_arena_alloc(a, sizeof *w);
  Oplogpb__TemplateId *t = oplog_arena_alloc(a, sizeof *t);
  if (!p || !w || !t) return NULL;
  oplogpb__promise_id__init(p);
  oplogpb__worker_id__init(w);
  oplogpb__template_id__init(t);
  t->uuid.len = 16;
  t->uuid.data = (uint8_t *)(uintptr_t)src->worker_id.template_id.uuid.bytes;
  w->template_id = t;
  if (!(w->worker_name = pb_str(a, src->worker_id.worker_name))) return NULL;
  p->worker_id = w;
  p->oplog_idx = src->oplog_idx;
  return p;
}

/* The protobuf-c message of entry e, its memory in a. */
static Oplogpb__OplogEntry *pb_entry(oplog_arena *a, const bench_oplog_OplogEntry *e) {
  Oplogpb__OplogEntry *m = oplog_arena_alloc(a, sizeof *m);
  if (!m) return NULL;
  oplogpb__oplog_entry__init(m);
  switch (e->tag) {
  case bench_oplog_OplogEntry_tag_ImportedFunctionInvoked: {
    const bench_oplog_OplogEntry_ImportedFunctionInvoked *v = &e->ImportedFunctionInvoked;
    Oplogpb__ImportedFunctionInvoked *x = oplog_arena_alloc(a, sizeof *x);
    if (!x) return NULL;
    oplogpb__imported_function_invoked__init(x);
    x->timestamp = v->timestamp;
    if (!(x->function_name = pb_str(a, v->function_name))) return NULL;
    x->response = pb_bin(v->response);
    x->side_effect = pb_bin(v->side_effect);
    x->wrapped_function_type = (Oplogpb__WrappedFunctionType)v->wrapped_function_type.tag;
    m->entry_case = OPLOGPB__OPLOG_ENTRY__ENTRY_IMPORTED_FUNCTION_INVOKED;
    m->imported_function_invoked = x;
    return m;
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionInvoked: {
    const bench_oplog_OplogEntry_ExportedFunctionInvoked *v = &e->ExportedFunctionInvoked;
    Oplogpb__ExportedFunctionInvoked *x = oplog_arena_alloc(a, sizeof *x);
    if (!x) return NULL;
    oplogpb__exported_function_invoked__init(x);
    x->timestamp = v->timestamp;
    if (!(x->function_name = pb_str(a, v->function_name)) ||
        pb_values(a, v->request.items, v->request.count, &x->request, &x->n_request))
      return NULL;
    if (v->has_invocation_key) {
      Oplogpb__InvocationKey *k = oplog_arena_alloc(a, sizeof *k);
      if (!k) return NULL;
      oplogpb__invocation_key__init(k);
      if (!(k->value = pb_str(a, v->invocation_key.value))) return NULL;
      x->invocation_key = k;
    }
    if (v->has_calling_convention) {
      x->cc_case = OPLOGPB__EXPORTED_FUNCTION_INVOKED__CC_CALLING_CONVENTION;
      x->calling_convention = (Oplogpb__CallingConvention)v->calling_convention.tag;
    }
    m->entry_case = OPLOGPB__OPLOG_ENTRY__ENTRY_EXPORTED_FUNCTION_INVOKED;
    m->exported_function_invoked = x;
    return m;
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionCompleted: {
    const bench_oplog_OplogEntry_ExportedFunctionCompleted *v = &e->ExportedFunctionCompleted;
    Oplogpb__ExportedFunctionCompleted *x = oplog_arena_alloc(a, sizeof *x);
    if (!x) return NULL;
    oplogpb__exported_function_completed__init(x);
    x->timestamp = v->timestamp;
    if (pb_values(a, v->response.items, v->response.count, &x->response, &x->n_response))
      return NULL;
    x->consumed_fuel = v->consumed_fuel;
    m->entry_case = OPLOGPB__OPLOG_ENTRY__ENTRY_EXPORTED_FUNCTION_COMPLETED;
    m->exported_function_completed = x;
    return m;
  }
  case bench_oplog_OplogEntry_tag_CreatePromise: {
    Oplogpb__CreatePromise *x = oplog_arena_alloc(a, sizeof *x);
    if (!x) return NULL;
    oplogpb__create_promise__init(x);
    x->timestamp = e->CreatePromise.timestamp;
    if (!(x->promise_id = pb_promise(a, &e->CreatePromise.promise_id))) return NULL;
    m->entry_case = OPLOGPB__OPLOG_ENTRY__ENTRY_CREATE_PROMISE;
    m->create_promise = x;
    return m;
  }
  case bench_oplog_OplogEntry_tag_CompletePromise: {
    Oplogpb__CompletePromise *x = oplog_arena_alloc(a, sizeof *x);
    if (!x) return NULL;
    oplogpb__complete_promise__init(x);
    x->timestamp = e->CompletePromise.timestamp;
    if (!(x->promise_id = pb_promise(a, &e->CompletePromise.promise_id))) return NULL;
    x->data = pb_bin(e->CompletePromise.data);
    m->entry_case = OPLOGPB__OPLOG_ENTRY__ENTRY_COMPLETE_PROMISE;
    m->complete_promise = x;
    return m;
  }
  case bench_oplog_OplogEntry_tag_Suspend:
  case bench_oplog_OplogEntry_tag_Error: {
    Oplogpb__TimestampOnly *x = oplog_arena_alloc(a, sizeof *x);
    if (!x) return NULL;
    oplogpb__timestamp_only__init(x);
    x->timestamp = e->Suspend.timestamp;
    if (e->tag == bench_oplog_OplogEntry_tag_Suspend) {
      m->entry_case = OPLOGPB__OPLOG_ENTRY__ENTRY_SUSPEND;
      m->suspend = x;
    } else {
      m->entry_case = OPLOGPB__OPLOG_ENTRY__ENTRY_ERROR;
      m->error = x;
    }
    return m;
  }
  case bench_oplog_OplogEntry_tag_Debug: {
    Oplogpb__Debug *x = oplog_arena_alloc(a, sizeof *x);
    if (!x) return NULL;
    oplogpb__debug__init(x);
    x->timestamp = e->Debug.timestamp;
    if (!(x->message = pb_str(a, e->Debug.message))) return NULL;
    m->entry_case = OPLOGPB__OPLOG_ENTRY__ENTRY_DEBUG;
    m->debug = x;
    return m;
  }
  }
  return NULL;
}

/* ---- deep comparison of a protobuf-c message with a generated entry ---- */

static bool pb_str_eq(const char *p, desert_str s) {
  return p && strlen(p) == s.len && memcmp(p, s.ptr, s.len) == 0;
}

static bool pb_bin_eq(ProtobufCBinaryData b, desert_bytes s) {
  return b.len == s.len && (s.len == 0 || memcmp(b.data, s.ptr, s.len) == 0);
}

static bool pb_value_eq(const Oplogpb__Value *p, const bench_oplog_Value *v);

static bool pb_values_eq(Oplogpb__Value *const *p, size_t np, const bench_oplog_Value *v,
                         size_t nv) {
  if (np != nv) return false;
  for (size_t i = 0; i < np; i++)
    if (!pb_value_eq(p[i], &v[i])) return false;
  return true;
}

static bool pb_list_eq(const Oplogpb__ValueList *l, const bench_oplog_Value *v, size_t n) {
  return l ? pb_values_eq(l->items, l->n_items, v, n) : n == 0;
}

static bool pb_value_eq(const Oplogpb__Value *p, const bench_oplog_Value *v) {
  switch (v->tag) {
  case bench_oplog_Value_tag_Bool: return p->v_case == OPLOGPB__VALUE__V_B && !p->b == !v->Bool;
  case bench_oplog_Value_tag_U8: return p->v_case == OPLOGPB__VALUE__V_U8 && p->u8 == v->U8;
  case bench_oplog_Value_tag_U16: return p->v_case == OPLOGPB__VALUE__V_U16 && p->u16 == v->U16;
  case bench_oplog_Value_tag_U32: return p->v_case == OPLOGPB__VALUE__V_U32 && p->u32 == v->U32;
  case bench_oplog_Value_tag_U64: return p->v_case == OPLOGPB__VALUE__V_U64 && p->u64 == v->U64;
  case bench_oplog_Value_tag_S8: return p->v_case == OPLOGPB__VALUE__V_S8 && p->s8 == v->S8;
  case bench_oplog_Value_tag_S16: return p->v_case == OPLOGPB__VALUE__V_S16 && p->s16 == v->S16;
  case bench_oplog_Value_tag_S32: return p->v_case == OPLOGPB__VALUE__V_S32 && p->s32 == v->S32;
  case bench_oplog_Value_tag_S64: return p->v_case == OPLOGPB__VALUE__V_S64 && p->s64 == v->S64;
  case bench_oplog_Value_tag_F32:
    return p->v_case == OPLOGPB__VALUE__V_F32 && memcmp(&p->f32, &v->F32, sizeof v->F32) == 0;
  case bench_oplog_Value_tag_F64:
    return p->v_case == OPLOGPB__VALUE__V_F64 && memcmp(&p->f64, &v->F64, sizeof v->F64) == 0;
  case bench_oplog_Value_tag_Char: return p->v_case == OPLOGPB__VALUE__V_CH && p->ch == v->Char;
  case bench_oplog_Value_tag_String:
    return p->v_case == OPLOGPB__VALUE__V_STR && pb_str_eq(p->str, v->String);
  case bench_oplog_Value_tag_List:
    return p->v_case == OPLOGPB__VALUE__V_LIST && pb_list_eq(p->list, v->List.items, v->List.count);
  case bench_oplog_Value_tag_Tuple:
    return p->v_case == OPLOGPB__VALUE__V_TUPLE &&
           pb_list_eq(p->tuple, v->Tuple.items, v->Tuple.count);
  case bench_oplog_Value_tag_Record:
    return p->v_case == OPLOGPB__VALUE__V_RECORD &&
           pb_list_eq(p->record, v->Record.items, v->Record.count);
  case bench_oplog_Value_tag_Enum:
    return p->v_case == OPLOGPB__VALUE__V_ENUM_CASE && p->enum_case == v->Enum;
  default: return false;
  }
}

static bool pb_promise_eq(const Oplogpb__PromiseId *p, const bench_oplog_PromiseId *v) {
  return p && p->worker_id && p->worker_id->template_id &&
         p->worker_id->template_id->uuid.len == 16 &&
         memcmp(p->worker_id->template_id->uuid.data, v->worker_id.template_id.uuid.bytes, 16) ==
             0 &&
         pb_str_eq(p->worker_id->worker_name, v->worker_id.worker_name) &&
         p->oplog_idx == v->oplog_idx;
}

static bool pb_entry_eq(const Oplogpb__OplogEntry *m, const bench_oplog_OplogEntry *e) {
  switch (e->tag) {
  case bench_oplog_OplogEntry_tag_ImportedFunctionInvoked: {
    const Oplogpb__ImportedFunctionInvoked *x = m->imported_function_invoked;
    const bench_oplog_OplogEntry_ImportedFunctionInvoked *v = &e->ImportedFunctionInvoked;
    return m->entry_case == OPLOGPB__OPLOG_ENTRY__ENTRY_IMPORTED_FUNCTION_INVOKED &&
           x->timestamp == v->timestamp && pb_str_eq(x->function_name, v->function_name) &&
           pb_bin_eq(x->response, v->response) && pb_bin_eq(x->side_effect, v->side_effect) &&
           (int)x->wrapped_function_type == (int)v->wrapped_function_type.tag;
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionInvoked: {
    const Oplogpb__ExportedFunctionInvoked *x = m->exported_function_invoked;
    const bench_oplog_OplogEntry_ExportedFunctionInvoked *v = &e->ExportedFunctionInvoked;
    if (m->entry_case != OPLOGPB__OPLOG_ENTRY__ENTRY_EXPORTED_FUNCTION_INVOKED ||
        x->timestamp != v->timestamp || !pb_str_eq(x->function_name, v->function_name) ||
        !pb_values_eq(x->request, x->n_request, v->request.items, v->request.count) ||
        (x->invocation_key != NULL) != v->has_invocation_key ||
        (v->has_invocation_key && !pb_str_eq(x->invocation_key->value, v->invocation_key.value)))
      return false;
    if (!v->has_calling_convention) return x->cc_case == OPLOGPB__EXPORTED_FUNCTION_INVOKED__CC__NOT_SET;
    return x->cc_case == OPLOGPB__EXPORTED_FUNCTION_INVOKED__CC_CALLING_CONVENTION &&
           (int)x->calling_convention == (int)v->calling_convention.tag;
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionCompleted: {
    const Oplogpb__ExportedFunctionCompleted *x = m->exported_function_completed;
    const bench_oplog_OplogEntry_ExportedFunctionCompleted *v = &e->ExportedFunctionCompleted;
    return m->entry_case == OPLOGPB__OPLOG_ENTRY__ENTRY_EXPORTED_FUNCTION_COMPLETED &&
           x->timestamp == v->timestamp &&
           pb_values_eq(x->response, x->n_response, v->response.items, v->response.count) &&
           x->consumed_fuel == v->consumed_fuel;
  }
  case bench_oplog_OplogEntry_tag_CreatePromise:
    return m->entry_case == OPLOGPB__OPLOG_ENTRY__ENTRY_CREATE_PROMISE &&
           m->create_promise->timestamp == e->CreatePromise.timestamp &&
           pb_promise_eq(m->create_promise->promise_id, &e->CreatePromise.promise_id);
  case bench_oplog_OplogEntry_tag_CompletePromise:
    return m->entry_case == OPLOGPB__OPLOG_ENTRY__ENTRY_COMPLETE_PROMISE &&
           m->complete_promise->timestamp == e->CompletePromise.timestamp &&
           pb_promise_eq(m->complete_promise->promise_id, &e->CompletePromise.promise_id) &&
           pb_bin_eq(m->complete_promise->data, e->CompletePromise.data);
  case bench_oplog_OplogEntry_tag_Suspend:
    return m->entry_case == OPLOGPB__OPLOG_ENTRY__ENTRY_SUSPEND &&
           m->suspend->timestamp == e->Suspend.timestamp;
  case bench_oplog_OplogEntry_tag_Error:
    return m->entry_case == OPLOGPB__OPLOG_ENTRY__ENTRY_ERROR &&
           m->error->timestamp == e->Error.timestamp;
  case bench_oplog_OplogEntry_tag_Debug:
    return m->entry_case == OPLOGPB__OPLOG_ENTRY__ENTRY_DEBUG &&
           m->debug->timestamp == e->Debug.timestamp && pb_str_eq(m->debug->message, e->Debug.message);
  }
  return false;
}

static uint64_t pb_ser(op_state *s) {
  op_free_msgs(s);
  size_t total = 0;
  for (size_t i = 0; i < s->d.n; i++) {
    const ProtobufCMessage *m = &s->pb[i]->base;
    size_t len = protobuf_c_message_get_packed_size(m);
    uint8_t *b = malloc(len ? len : 1);
    if (!b) return 0;
    protobuf_c_message_pack(m, b);
    s->msg[i] = b;
    s->len[i] = len;
    total += len;
  }
  return total;
}

static uint64_t pb_de(op_state *s) {
  op_free_got(s);
  uint64_t acc = 0;
  for (size_t i = 0; i < s->d.n; i++) {
    Oplogpb__OplogEntry *m = oplogpb__oplog_entry__unpack(NULL, s->len[i], s->msg[i]);
    if (!m) return 0;
    s->got[i] = m;
    acc += (uint64_t)m->entry_case;
  }
  return acc;
}

#endif /* protobuf-c */

/* ================================ rows ================================ */

static uint64_t op_run(void *p, size_t i) {
  (void)i;
  op_state *s = p;
  switch (s->mode) {
#ifdef DESERT_BENCH_HAVE_MSGPACK
  case OP_MP_SER: return mp_ser(s);
  case OP_MP_SER_REUSED: return mp_ser_reused(s);
  case OP_MP_DE: return mp_de(s);
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
  case OP_PB_SER: return pb_ser(s);
  case OP_PB_DE: return pb_de(s);
#endif
  default: return 0;
  }
}

static void *op_setup(int mode, size_t payload, codec_info *info) {
  op_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->mode = mode;
  oplog_arena_init(&s->mem);
#ifdef DESERT_BENCH_HAVE_MSGPACK
  msgpack_sbuffer_init(&s->sb);
  msgpack_unpacked_init(&s->up);
#endif
  if (oplog_data_generate(&s->d, payload)) goto fail;
  size_t n = s->d.n;
  s->msg = calloc(n, sizeof *s->msg);
  s->len = calloc(n, sizeof *s->len);
  s->dec = calloc(n, sizeof *s->dec);
  if (!s->msg || !s->len || !s->dec) goto fail;
#ifdef DESERT_BENCH_HAVE_MSGPACK
  if (mode == OP_MP_SER || mode == OP_MP_SER_REUSED || mode == OP_MP_DE) {
    if (mp_encode_all(s)) {
      snprintf(info->fail, sizeof info->fail, "oplog msgpack: an entry does not pack");
      goto fail;
    }
  }
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
  if (mode == OP_PB_SER || mode == OP_PB_DE) {
    s->pb = calloc(n, sizeof *s->pb);
    s->got = calloc(n, sizeof *s->got);
    if (!s->pb || !s->got) goto fail;
    for (size_t i = 0; i < n; i++) {
      if (!(s->pb[i] = pb_entry(&s->mem, &s->d.entries[i]))) {
        snprintf(info->fail, sizeof info->fail, "oplog protobuf-c: entry %zu not convertible", i);
        goto fail;
      }
    }
    if (!pb_ser(s)) goto fail;
  }
#endif
  s->total = 0;
  for (size_t i = 0; i < n; i++) s->total += s->len[i];
  info->bytes_per_op = s->total;
  info->items_per_op = n;
  return s;
fail:
  op_teardown(s);
  return NULL;
}

static int op_verify(void *p, char *msg, size_t cap) {
  op_state *s = p;
  uint64_t r = op_run(s, 0);
  if (!r) return codec_fail(msg, cap, "oplog peer op failed");
  switch (s->mode) {
#ifdef DESERT_BENCH_HAVE_MSGPACK
  case OP_MP_SER:
  case OP_MP_SER_REUSED:
  case OP_MP_DE: {
    if (s->mode != OP_MP_DE) {
      if (r != s->total) return codec_fail(msg, cap, "msgpack: %llu bytes, setup had %zu",
                                           (unsigned long long)r, s->total);
      if (mp_de(s) == 0) return codec_fail(msg, cap, "msgpack: messages do not unpack");
    }
    for (size_t i = 0; i < s->d.n; i++) {
      size_t off = 0;
      if (msgpack_unpack_next(&s->up, (const char *)s->msg[i], s->len[i], &off) !=
              MSGPACK_UNPACK_SUCCESS ||
          off != s->len[i])
        return codec_fail(msg, cap, "msgpack: message %zu not consumed exactly", i);
    }
    return oplog_entries_check("msgpack round trip", s->dec, s->d.entries, s->d.n, msg, cap);
  }
#endif
#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
  case OP_PB_SER:
  case OP_PB_DE:
    if (s->mode == OP_PB_SER) {
      if (r != s->total) return codec_fail(msg, cap, "protobuf-c: %llu bytes, setup had %zu",
                                           (unsigned long long)r, s->total);
      if (pb_de(s) == 0) return codec_fail(msg, cap, "protobuf-c: messages do not unpack");
    }
    for (size_t i = 0; i < s->d.n; i++)
      if (!pb_entry_eq(s->got[i], &s->d.entries[i]))
        return codec_fail(msg, cap, "protobuf-c round trip: entry %zu differs", i);
    return 0;
#endif
  default: return codec_fail(msg, cap, "oplog peer: unknown mode");
  }
}

#define OP_SETUP(name, mode)                                                                \
  static void *op_setup_##name(desert_isa isa, size_t payload, codec_info *info) {        \
    (void)isa;                                                                            \
    return op_setup(mode, payload, info);                                                 \
  }

#ifdef DESERT_BENCH_HAVE_MSGPACK
OP_SETUP(mp_ser, OP_MP_SER)
OP_SETUP(mp_ser_reused, OP_MP_SER_REUSED)
OP_SETUP(mp_de, OP_MP_DE)
// clang-format off
#define OP_MP_ROWS(P)                                                                              \
  {"oplog_p" #P "_serialize", "msgpack",                                                           \
   "msgpack-c: fresh sbuffer per entry, kept as the message", -1, CODEC_FAULTS, 0, P,              \
   op_setup_mp_ser, op_verify, op_run, op_teardown, NULL},                                         \
  {"oplog_p" #P "_serialize_reused", "msgpack",                                                    \
   "msgpack-c: one sbuffer cleared per entry, bytes copied out", -1, CODEC_FAULTS, 0, P,           \
   op_setup_mp_ser_reused, op_verify, op_run, op_teardown, NULL},                                  \
  {"oplog_p" #P "_deserialize", "msgpack",                                                         \
   "msgpack-c: unpack, converted into the generated C structs (views + arena)", -1, CODEC_FAULTS,  \
   0, P, op_setup_mp_de, op_verify, op_run, op_teardown, NULL},
// clang-format on
#else
#define OP_MP_ROWS(P)
#endif

#ifdef DESERT_BENCH_HAVE_PROTOBUF_C
OP_SETUP(pb_ser, OP_PB_SER)
OP_SETUP(pb_de, OP_PB_DE)
// clang-format off
#define OP_PB_ROWS(P)                                                                              \
  {"oplog_p" #P "_serialize", "protobuf-c",                                                        \
   "protobuf-c: get_packed_size + malloc + pack per entry, kept", -1, CODEC_FAULTS, 0, P,          \
   op_setup_pb_ser, op_verify, op_run, op_teardown, NULL},                                         \
  {"oplog_p" #P "_deserialize", "protobuf-c",                                                      \
   "protobuf-c: unpack per entry (copies), kept until the next op", -1, CODEC_FAULTS, 0, P,        \
   op_setup_pb_de, op_verify, op_run, op_teardown, NULL},
// clang-format on
#else
#define OP_PB_ROWS(P)
#endif

const codec_case bench_oplog_peer_cases[] = {
    OP_MP_ROWS(16) OP_PB_ROWS(16) OP_MP_ROWS(256) OP_PB_ROWS(256) OP_MP_ROWS(1024)
        OP_PB_ROWS(1024)};
const size_t bench_oplog_peer_case_count =
    sizeof bench_oplog_peer_cases / sizeof bench_oplog_peer_cases[0];

#else /* no peer library */

const codec_case bench_oplog_peer_cases[1];
const size_t bench_oplog_peer_case_count = 0;

#endif
