/* bench/bench_oplog_model.c — the oplog rows' data (bench_oplog_model.h):
 * arena, the seeded generator that follows desert-rust's
 * random_oplog_entry, deep comparison and deep copy of the generated C
 * types, and the host class for the report.
 * SPDX-License-Identifier: MIT */
#include "bench_oplog_model.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_oplog_rows.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* ---- arena -------------------------------------------------------------------------- */

struct oplog_block {
  oplog_block *next;
  size_t cap, used;
  alignas(max_align_t) unsigned char data[];
};

#define OPLOG_BLOCK_MIN ((size_t)1 << 20)
#define OPLOG_ALIGN (alignof(max_align_t))

void oplog_arena_init(oplog_arena *a) { a->first = a->cur = NULL; }

void *oplog_arena_alloc(oplog_arena *a, size_t n) {
  n = (n + OPLOG_ALIGN - 1) & ~(OPLOG_ALIGN - 1);
  if (n == 0) n = OPLOG_ALIGN;
  for (oplog_block *b = a->cur; b; b = b->next) {
    if (b->cap - b->used >= n) {
      a->cur = b;
      void *p = b->data + b->used;
      b->used += n;
      return p;
    }
    /* blocks after cur are empty (reset rewinds all); a too-small one is
     * skipped for this pass */
  }
  size_t cap = n > OPLOG_BLOCK_MIN ? n : OPLOG_BLOCK_MIN;
  oplog_block *nb = malloc(sizeof *nb + cap);
  if (!nb) return NULL;
  nb->cap = cap;
  nb->used = n;
  /* appended at the end of the chain so a rewind reuses blocks in order */
  nb->next = NULL;
  if (!a->first) {
    a->first = nb;
  } else {
    oplog_block *t = a->cur ? a->cur : a->first;
    while (t->next) t = t->next;
    t->next = nb;
  }
  a->cur = nb;
  return nb->data;
}

void oplog_arena_reset(oplog_arena *a) {
  for (oplog_block *b = a->first; b; b = b->next) b->used = 0;
  a->cur = a->first;
}

void oplog_arena_free(oplog_arena *a) {
  oplog_block *b = a->first;
  while (b) {
    oplog_block *n = b->next;
    free(b);
    b = n;
  }
  a->first = a->cur = NULL;
}

/* ---- PRNG: xoshiro256**, seeded through splitmix64 ----------------------------------- */

typedef struct oplog_rng {
  uint64_t s[4];
} oplog_rng;

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void rng_seed(oplog_rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(oplog_rng *r) {
  uint64_t *s = r->s;
  uint64_t out = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}

/* Uniform in 0..n (n small: the modulo bias is below 2^-40). */
static uint64_t rng_range(oplog_rng *r, uint64_t n) { return rng_next(r) % n; }

static void rng_fill(oplog_rng *r, uint8_t *p, size_t n) {
  while (n) {
    uint64_t v = rng_next(r);
    size_t k = n < 8 ? n : 8;
    memcpy(p, &v, k);
    p += k;
    n -= k;
  }
}

/* ---- generator ---------------------------------------------------------------------- */

static const char kAlnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

static int gen_alnum(oplog_rng *r, oplog_arena *a, size_t n, desert_str *out) {
  char *s = oplog_arena_alloc(a, n);
  if (!s) return -1;
  for (size_t i = 0; i < n; i++) s[i] = kAlnum[rng_range(r, sizeof kAlnum - 1)];
  out->ptr = s;
  out->len = n;
  return 0;
}

static int gen_bytes(oplog_rng *r, oplog_arena *a, size_t n, desert_bytes *out) {
  uint8_t *p = oplog_arena_alloc(a, n);
  if (!p) return -1;
  rng_fill(r, p, n);
  out->ptr = p;
  out->len = n;
  return 0;
}

static uint64_t gen_timestamp(oplog_rng *r) { return rng_range(r, 3000000000ull) * 1000u; }

/* One Value::List of n Value::U8: the request/response shape. */
static int gen_u8_list(oplog_rng *r, oplog_arena *a, size_t n, bench_oplog_Value **items,
                       size_t *count) {
  bench_oplog_Value *list = oplog_arena_alloc(a, sizeof *list);
  bench_oplog_Value *u8s = oplog_arena_alloc(a, n * sizeof *u8s);
  uint8_t *raw = oplog_arena_alloc(a, n);
  if (!list || !u8s || !raw) return -1;
  rng_fill(r, raw, n);
  memset(u8s, 0, n * sizeof *u8s);
  for (size_t i = 0; i < n; i++) {
    u8s[i].tag = bench_oplog_Value_tag_U8;
    u8s[i].U8 = raw[i];
  }
  memset(list, 0, sizeof *list);
  list->tag = bench_oplog_Value_tag_List;
  list->List.items = u8s;
  list->List.count = n;
  *items = list;
  *count = 1;
  return 0;
}

static int gen_promise_id(oplog_rng *r, oplog_arena *a, bench_oplog_PromiseId *p) {
  uint8_t *u = p->worker_id.template_id.uuid.bytes;
  rng_fill(r, u, 16);
  u[6] = (uint8_t)((u[6] & 0x0f) | 0x40); /* version 4 */
  u[8] = (uint8_t)((u[8] & 0x3f) | 0x80); /* RFC 4122 variant */
  if (gen_alnum(r, a, 8, &p->worker_id.worker_name)) return -1;
  p->oplog_idx = (int32_t)(uint32_t)rng_next(r);
  return 0;
}

static int gen_entry(oplog_rng *r, oplog_arena *a, size_t payload, bench_oplog_OplogEntry *e) {
  memset(e, 0, sizeof *e);
  switch (rng_range(r, 7)) {
  case 0: {
    bench_oplog_OplogEntry_ImportedFunctionInvoked *v = &e->ImportedFunctionInvoked;
    e->tag = bench_oplog_OplogEntry_tag_ImportedFunctionInvoked;
    if (gen_bytes(r, a, payload, &v->response) || gen_bytes(r, a, payload, &v->side_effect))
      return -1;
    v->timestamp = gen_timestamp(r);
    if (gen_alnum(r, a, 16, &v->function_name)) return -1;
    v->wrapped_function_type.tag = (bench_oplog_WrappedFunctionType_tag)rng_range(r, 4);
    return 0;
  }
  case 1: {
    bench_oplog_OplogEntry_ExportedFunctionInvoked *v = &e->ExportedFunctionInvoked;
    e->tag = bench_oplog_OplogEntry_tag_ExportedFunctionInvoked;
    if (gen_u8_list(r, a, payload, &v->request.items, &v->request.count)) return -1;
    v->timestamp = gen_timestamp(r);
    if (gen_alnum(r, a, 16, &v->function_name)) return -1;
    if (rng_next(r) >> 63) {
      v->has_invocation_key = true;
      if (gen_alnum(r, a, 16, &v->invocation_key.value)) return -1;
    }
    uint64_t cc = rng_range(r, 4);
    if (cc) {
      v->has_calling_convention = true;
      v->calling_convention.tag = (bench_oplog_CallingConvention_tag)(cc - 1);
    }
    return 0;
  }
  case 2: {
    bench_oplog_OplogEntry_ExportedFunctionCompleted *v = &e->ExportedFunctionCompleted;
    e->tag = bench_oplog_OplogEntry_tag_ExportedFunctionCompleted;
    if (gen_u8_list(r, a, payload, &v->response.items, &v->response.count)) return -1;
    v->timestamp = gen_timestamp(r);
    v->consumed_fuel = (int64_t)rng_next(r);
    return 0;
  }
  case 3:
    e->tag = bench_oplog_OplogEntry_tag_CreatePromise;
    e->CreatePromise.timestamp = gen_timestamp(r);
    return gen_promise_id(r, a, &e->CreatePromise.promise_id);
  case 4: {
    bench_oplog_OplogEntry_CompletePromise *v = &e->CompletePromise;
    e->tag = bench_oplog_OplogEntry_tag_CompletePromise;
    if (gen_bytes(r, a, payload, &v->data)) return -1;
    v->timestamp = gen_timestamp(r);
    return gen_promise_id(r, a, &v->promise_id);
  }
  case 5:
    e->tag = bench_oplog_OplogEntry_tag_Suspend;
    e->Suspend.timestamp = gen_timestamp(r);
    return 0;
  default:
    e->tag = bench_oplog_OplogEntry_tag_Error;
    e->Error.timestamp = gen_timestamp(r);
    return 0;
  }
}

int oplog_data_generate(oplog_data *d, size_t payload) {
  memset(d, 0, sizeof *d);
  oplog_arena_init(&d->mem);
  d->payload = payload;
  d->entries = calloc(OPLOG_ENTRIES, sizeof *d->entries);
  if (!d->entries) return -1;
  oplog_rng r;
  rng_seed(&r, 317826381u + payload);
  for (size_t i = 0; i < OPLOG_ENTRIES; i++) {
    if (gen_entry(&r, &d->mem, payload, &d->entries[i])) {
      oplog_data_free(d);
      return -1;
    }
  }
  d->n = OPLOG_ENTRIES;
  return 0;
}

void oplog_data_free(oplog_data *d) {
  free(d->entries);
  oplog_arena_free(&d->mem);
  memset(d, 0, sizeof *d);
}

/* ---- deep comparison ---------------------------------------------------------------- */

static bool str_eq(desert_str a, desert_str b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static bool bytes_eq(desert_bytes a, desert_bytes b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static bool value_eq(const bench_oplog_Value *a, const bench_oplog_Value *b);

static bool values_eq(const bench_oplog_Value *a, size_t na, const bench_oplog_Value *b,
                      size_t nb) {
  if (na != nb) return false;
  for (size_t i = 0; i < na; i++)
    if (!value_eq(&a[i], &b[i])) return false;
  return true;
}

static bool opt_value_eq(bool ha, const bench_oplog_Value *a, bool hb,
                         const bench_oplog_Value *b) {
  return ha == hb && (!ha || value_eq(a, b));
}

static bool value_eq(const bench_oplog_Value *a, const bench_oplog_Value *b) {
  if (a->tag != b->tag) return false;
  switch (a->tag) {
  case bench_oplog_Value_tag_Bool: return a->Bool == b->Bool;
  case bench_oplog_Value_tag_U8: return a->U8 == b->U8;
  case bench_oplog_Value_tag_U16: return a->U16 == b->U16;
  case bench_oplog_Value_tag_U32: return a->U32 == b->U32;
  case bench_oplog_Value_tag_U64: return a->U64 == b->U64;
  case bench_oplog_Value_tag_S8: return a->S8 == b->S8;
  case bench_oplog_Value_tag_S16: return a->S16 == b->S16;
  case bench_oplog_Value_tag_S32: return a->S32 == b->S32;
  case bench_oplog_Value_tag_S64: return a->S64 == b->S64;
  case bench_oplog_Value_tag_F32: return memcmp(&a->F32, &b->F32, sizeof a->F32) == 0;
  case bench_oplog_Value_tag_F64: return memcmp(&a->F64, &b->F64, sizeof a->F64) == 0;
  case bench_oplog_Value_tag_Char: return a->Char == b->Char;
  case bench_oplog_Value_tag_String: return str_eq(a->String, b->String);
  case bench_oplog_Value_tag_List:
    return values_eq(a->List.items, a->List.count, b->List.items, b->List.count);
  case bench_oplog_Value_tag_Tuple:
    return values_eq(a->Tuple.items, a->Tuple.count, b->Tuple.items, b->Tuple.count);
  case bench_oplog_Value_tag_Record:
    return values_eq(a->Record.items, a->Record.count, b->Record.items, b->Record.count);
  case bench_oplog_Value_tag_Variant:
    return a->Variant.case_idx == b->Variant.case_idx &&
           opt_value_eq(a->Variant.has_case_value, a->Variant.case_value,
                        b->Variant.has_case_value, b->Variant.case_value);
  case bench_oplog_Value_tag_Enum: return a->Enum == b->Enum;
  case bench_oplog_Value_tag_Flags:
    if (a->Flags.count != b->Flags.count) return false;
    for (size_t i = 0; i < a->Flags.count; i++)
      if (a->Flags.items[i] != b->Flags.items[i]) return false;
    return true;
  case bench_oplog_Value_tag_Option:
    return opt_value_eq(a->Option.has_value, a->Option.value, b->Option.has_value,
                        b->Option.value);
  case bench_oplog_Value_tag_Result:
    if (a->Result.is_right != b->Result.is_right) return false;
    if (a->Result.is_right)
      return opt_value_eq(a->Result.right.has_value, a->Result.right.value,
                          b->Result.right.has_value, b->Result.right.value);
    return opt_value_eq(a->Result.left.has_value, a->Result.left.value, b->Result.left.has_value,
                        b->Result.left.value);
  case bench_oplog_Value_tag_Handle:
    return str_eq(a->Handle.uri, b->Handle.uri) &&
           a->Handle.resource_id == b->Handle.resource_id;
  }
  return false;
}

static bool promise_eq(const bench_oplog_PromiseId *a, const bench_oplog_PromiseId *b) {
  return memcmp(a->worker_id.template_id.uuid.bytes, b->worker_id.template_id.uuid.bytes, 16) ==
             0 &&
         str_eq(a->worker_id.worker_name, b->worker_id.worker_name) &&
         a->oplog_idx == b->oplog_idx;
}

bool oplog_entry_equal(const bench_oplog_OplogEntry *a, const bench_oplog_OplogEntry *b) {
  if (a->tag != b->tag) return false;
  switch (a->tag) {
  case bench_oplog_OplogEntry_tag_ImportedFunctionInvoked: {
    const bench_oplog_OplogEntry_ImportedFunctionInvoked *x = &a->ImportedFunctionInvoked,
                                                         *y = &b->ImportedFunctionInvoked;
    return x->timestamp == y->timestamp && str_eq(x->function_name, y->function_name) &&
           bytes_eq(x->response, y->response) && bytes_eq(x->side_effect, y->side_effect) &&
           x->wrapped_function_type.tag == y->wrapped_function_type.tag;
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionInvoked: {
    const bench_oplog_OplogEntry_ExportedFunctionInvoked *x = &a->ExportedFunctionInvoked,
                                                         *y = &b->ExportedFunctionInvoked;
    return x->timestamp == y->timestamp && str_eq(x->function_name, y->function_name) &&
           values_eq(x->request.items, x->request.count, y->request.items, y->request.count) &&
           x->has_invocation_key == y->has_invocation_key &&
           (!x->has_invocation_key || str_eq(x->invocation_key.value, y->invocation_key.value)) &&
           x->has_calling_convention == y->has_calling_convention &&
           (!x->has_calling_convention ||
            x->calling_convention.tag == y->calling_convention.tag);
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionCompleted: {
    const bench_oplog_OplogEntry_ExportedFunctionCompleted *x = &a->ExportedFunctionCompleted,
                                                           *y = &b->ExportedFunctionCompleted;
    return x->timestamp == y->timestamp &&
           values_eq(x->response.items, x->response.count, y->response.items,
                     y->response.count) &&
           x->consumed_fuel == y->consumed_fuel;
  }
  case bench_oplog_OplogEntry_tag_CreatePromise:
    return a->CreatePromise.timestamp == b->CreatePromise.timestamp &&
           promise_eq(&a->CreatePromise.promise_id, &b->CreatePromise.promise_id);
  case bench_oplog_OplogEntry_tag_CompletePromise:
    return a->CompletePromise.timestamp == b->CompletePromise.timestamp &&
           promise_eq(&a->CompletePromise.promise_id, &b->CompletePromise.promise_id) &&
           bytes_eq(a->CompletePromise.data, b->CompletePromise.data);
  case bench_oplog_OplogEntry_tag_Suspend:
    return a->Suspend.timestamp == b->Suspend.timestamp;
  case bench_oplog_OplogEntry_tag_Error: return a->Error.timestamp == b->Error.timestamp;
  case bench_oplog_OplogEntry_tag_Debug:
    return a->Debug.timestamp == b->Debug.timestamp && str_eq(a->Debug.message, b->Debug.message);
  }
  return false;
}

int oplog_entries_check(const char *what, const bench_oplog_OplogEntry *got,
                        const bench_oplog_OplogEntry *want, size_t n, char *msg, size_t cap) {
  for (size_t i = 0; i < n; i++) {
    if (!oplog_entry_equal(&got[i], &want[i])) {
      snprintf(msg, cap, "%s: entry %zu (case %d) differs from the generated one", what, i,
               (int)want[i].tag);
      return 1;
    }
  }
  return 0;
}

/* ---- deep copy ---------------------------------------------------------------------- */

static int copy_str(oplog_arena *a, desert_str *d, desert_str s) {
  char *p = oplog_arena_alloc(a, s.len);
  if (!p) return -1;
  if (s.len) memcpy(p, s.ptr, s.len);
  d->ptr = p;
  d->len = s.len;
  return 0;
}

static int copy_bytes(oplog_arena *a, desert_bytes *d, desert_bytes s) {
  uint8_t *p = oplog_arena_alloc(a, s.len);
  if (!p) return -1;
  if (s.len) memcpy(p, s.ptr, s.len);
  d->ptr = p;
  d->len = s.len;
  return 0;
}

static int copy_value(oplog_arena *a, bench_oplog_Value *d, const bench_oplog_Value *s);

static int copy_values(oplog_arena *a, bench_oplog_Value **d, const bench_oplog_Value *s,
                       size_t n) {
  bench_oplog_Value *p = oplog_arena_alloc(a, n * sizeof *p);
  if (!p) return -1;
  for (size_t i = 0; i < n; i++)
    if (copy_value(a, &p[i], &s[i])) return -1;
  *d = p;
  return 0;
}

static int copy_opt_value(oplog_arena *a, bench_oplog_Value **d, bool has,
                          const bench_oplog_Value *s) {
  if (!has) {
    *d = NULL;
    return 0;
  }
  return copy_values(a, d, s, 1);
}

static int copy_value(oplog_arena *a, bench_oplog_Value *d, const bench_oplog_Value *s) {
  *d = *s; /* scalars, counts and flags; the pointers are replaced below */
  switch (s->tag) {
  case bench_oplog_Value_tag_String: return copy_str(a, &d->String, s->String);
  case bench_oplog_Value_tag_List: return copy_values(a, &d->List.items, s->List.items, s->List.count);
  case bench_oplog_Value_tag_Tuple:
    return copy_values(a, &d->Tuple.items, s->Tuple.items, s->Tuple.count);
  case bench_oplog_Value_tag_Record:
    return copy_values(a, &d->Record.items, s->Record.items, s->Record.count);
  case bench_oplog_Value_tag_Variant:
    return copy_opt_value(a, &d->Variant.case_value, s->Variant.has_case_value,
                          s->Variant.case_value);
  case bench_oplog_Value_tag_Flags: {
    bool *p = oplog_arena_alloc(a, s->Flags.count * sizeof *p);
    if (!p) return -1;
    if (s->Flags.count) memcpy(p, s->Flags.items, s->Flags.count * sizeof *p);
    d->Flags.items = p;
    return 0;
  }
  case bench_oplog_Value_tag_Option:
    return copy_opt_value(a, &d->Option.value, s->Option.has_value, s->Option.value);
  case bench_oplog_Value_tag_Result:
    if (s->Result.is_right)
      return copy_opt_value(a, &d->Result.right.value, s->Result.right.has_value,
                            s->Result.right.value);
    return copy_opt_value(a, &d->Result.left.value, s->Result.left.has_value,
                          s->Result.left.value);
  case bench_oplog_Value_tag_Handle: return copy_str(a, &d->Handle.uri, s->Handle.uri);
  default: return 0;
  }
}

int oplog_entry_copy(oplog_arena *a, bench_oplog_OplogEntry *d, const bench_oplog_OplogEntry *s) {
  *d = *s;
  switch (s->tag) {
  case bench_oplog_OplogEntry_tag_ImportedFunctionInvoked:
    return copy_str(a, &d->ImportedFunctionInvoked.function_name,
                    s->ImportedFunctionInvoked.function_name) ||
                   copy_bytes(a, &d->ImportedFunctionInvoked.response,
                              s->ImportedFunctionInvoked.response) ||
                   copy_bytes(a, &d->ImportedFunctionInvoked.side_effect,
                              s->ImportedFunctionInvoked.side_effect)
               ? -1
               : 0;
  case bench_oplog_OplogEntry_tag_ExportedFunctionInvoked: {
    const bench_oplog_OplogEntry_ExportedFunctionInvoked *x = &s->ExportedFunctionInvoked;
    bench_oplog_OplogEntry_ExportedFunctionInvoked *y = &d->ExportedFunctionInvoked;
    if (copy_str(a, &y->function_name, x->function_name) ||
        copy_values(a, &y->request.items, x->request.items, x->request.count))
      return -1;
    return x->has_invocation_key ? copy_str(a, &y->invocation_key.value, x->invocation_key.value)
                                 : 0;
  }
  case bench_oplog_OplogEntry_tag_ExportedFunctionCompleted:
    return copy_values(a, &d->ExportedFunctionCompleted.response.items,
                       s->ExportedFunctionCompleted.response.items,
                       s->ExportedFunctionCompleted.response.count);
  case bench_oplog_OplogEntry_tag_CreatePromise:
    return copy_str(a, &d->CreatePromise.promise_id.worker_id.worker_name,
                    s->CreatePromise.promise_id.worker_id.worker_name);
  case bench_oplog_OplogEntry_tag_CompletePromise:
    return copy_str(a, &d->CompletePromise.promise_id.worker_id.worker_name,
                    s->CompletePromise.promise_id.worker_id.worker_name) ||
                   copy_bytes(a, &d->CompletePromise.data, s->CompletePromise.data)
               ? -1
               : 0;
  case bench_oplog_OplogEntry_tag_Debug:
    return copy_str(a, &d->Debug.message, s->Debug.message);
  default: return 0;
  }
}

uint64_t oplog_entries_touch(const bench_oplog_OplogEntry *e, size_t n) {
  uint64_t acc = 0;
  for (size_t i = 0; i < n; i += 97) acc += (uint64_t)e[i].tag + e[i].Suspend.timestamp;
  return acc + (n ? (uint64_t)e[n - 1].tag : 0);
}

/* ---- host class --------------------------------------------------------------------- */

const char *bench_oplog_host_class(void) {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return "other";
  unsigned family = (a >> 8) & 0xf;
  if (family == 0xf) family += (a >> 20) & 0xff;
  if (family != 6) return "other";
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return "other";
  return (d >> 23) & 1u ? "sapphire-rapids" : "other"; /* CPUID.7.0:EDX[23] AVX512-FP16 */
#else
  return "other";
#endif
}
