/* test/test_writer_pending.c — a writer built by desert_writer_init sets
 * only its head and settles the rest on the first exported call (see
 * src/core/writer_internal.h, DESERT_WBUSY_PENDING). Every exported
 * function that takes a writer must therefore behave on a fresh storage
 * writer exactly as on a heap writer. Each case here runs one call (after
 * an optional inline write, which leaves the writer pending) on:
 *   [0] a heap writer (desert_writer_create), the reference;
 *   [1] a storage writer whose storage was filled with a garbage pattern
 *       before init, so a field read before it is set changes the result
 *       or crashes instead of happening to read zeros;
 * and compares status, size and bytes. The options (non-NULL, with a
 * counting allocator) are changed after init to check they were copied;
 * every writer is freed and the allocator must end with no live block.
 * Storage writers are built by desert_writer_init and by
 * desert_writer_init_inline (and freed by the matching free).
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/record.h"
#include "desert/stream.h"
#include "desert/values.h"
#include "desert/writer.h"
#include "test_util.h"

typedef desert_status (*op_fn)(desert_writer *w);

static const char k_text[] = "pending writers settle on first use";
static uint8_t k_blob[300]; /* larger than the 256-byte inline buffer */
static const uint16_t k_utf16[] = {0x48, 0x00e9, 0x4e2d, 0xd83d, 0xde00};
static const uint8_t k_latin1[] = {0x41, 0xe9, 0xff};
/* longer than the 256-byte inline buffer: the string write must grow */
static const char k_blob_text[] =
    "0123456789012345678901234567890123456789012345678901234567890123456789"
    "0123456789012345678901234567890123456789012345678901234567890123456789"
    "0123456789012345678901234567890123456789012345678901234567890123456789"
    "0123456789012345678901234567890123456789012345678901234567890123456789";

/* ---- one exported call per op ---------------------------------------------------- */

#define OP(name, call) \
  static desert_status op_##name(desert_writer *w) { return call; }
OP(u8, desert_write_u8(w, 0xfe))
OP(i16, desert_write_i16(w, -2))
OP(u32, desert_write_u32(w, 0x01020304u))
OP(i64, desert_write_i64(w, -3))
OP(f64, desert_write_f64(w, 1.5))
OP(u128, desert_write_u128(w, (desert_u128){1, 2}))
OP(bool_, desert_write_bool(w, true))
OP(raw, desert_write_raw(w, k_blob, sizeof k_blob))
OP(var_u32, desert_write_var_u32(w, 300))
OP(var_i32, desert_write_var_i32(w, -70000))
OP(char_, desert_write_char(w, 0x1F600))
OP(char16, desert_write_char16(w, 0x4e2d))
OP(string, desert_write_string(w, k_text, sizeof k_text - 1))
OP(cstring, desert_write_cstring(w, k_text))
OP(string_bad, desert_write_string(w, "\xc3\x28", 2))
OP(string_short, desert_write_string(w, "short", 5))
OP(string_long, desert_write_string(w, (const char *)k_blob_text, sizeof k_blob_text - 1))
OP(utf16, desert_write_string_utf16(w, k_utf16, 5))
OP(latin1, desert_write_string_latin1(w, k_latin1, 3))
OP(bytes, desert_write_bytes(w, k_blob, sizeof k_blob))
OP(count, desert_write_count(w, 70000))
OP(stream_begin, desert_write_stream_begin(w))
OP(stream_item, desert_write_stream_item(w))
OP(stream_end, desert_write_stream_end(w))
OP(option, desert_write_option(w, true))
OP(either, desert_write_either(w, false))
OP(try_, desert_write_try(w, true))
OP(tuple, desert_write_tuple_begin(w))
OP(type_id, desert_write_type_id(w, 7))
OP(bigint, desert_write_bigint_i64(w, -123456789))
OP(bigdec, desert_write_bigdecimal(w, "-12.50", 6))
OP(url, desert_write_url(w, "https://x.example/", 18))
OP(duration, desert_write_duration(w, (desert_duration){-5, 7}))
OP(zlib, desert_write_compressed(w, DESERT_COMPRESSION_ZLIB, -1, k_blob, sizeof k_blob))
OP(zstd, desert_write_compressed_zstd(w, -1, k_blob, sizeof k_blob))
#undef OP

#define OP_ARRAY(name, type)                                 \
  static desert_status op_##name##_array(desert_writer *w) { \
    type v[40];                                              \
    for (int i = 0; i < 40; i++) v[i] = (type)(i * 37 - 5);  \
    return desert_write_##name##_array(w, v, 40);            \
  }
OP_ARRAY(u16, uint16_t)
OP_ARRAY(i32, int32_t)
OP_ARRAY(u64, uint64_t)
OP_ARRAY(f32, float)
OP_ARRAY(var_u32, uint32_t)
#undef OP_ARRAY

static desert_status op_dedup(desert_writer *w) {
  desert_status st = desert_write_dedup_string(w, "ab", 2);
  if (!st) st = desert_write_dedup_string(w, "ab", 2); /* the id this time */
  return st;
}
static desert_status op_ref(desert_writer *w) {
  static int obj;
  bool is_new = false;
  desert_status st = desert_write_ref(w, &obj, &is_new);
  if (!st && is_new) st = desert_write_i32(w, 1);
  if (!st) st = desert_write_ref(w, &obj, &is_new);
  return st;
}
static desert_status op_ip(desert_writer *w) {
  desert_ip_addr a = {false, {10, 0, 0, 1}};
  return desert_write_ip_addr(w, &a);
}
static desert_status op_mac(desert_writer *w) {
  static const uint8_t mac[6] = {1, 2, 3, 4, 5, 6};
  return desert_write_mac_address(w, mac);
}
static const desert_field_desc k_fields[] = {{"a", 0}, {"b", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step k_steps[] = {{DESERT_STEP_FIELD_ADDED, "b", true}};
static const desert_record_desc k_rec = DESERT_RECORD_DESC("R", k_fields, k_steps);
static desert_status op_record(desert_writer *w) {
  desert_record_writer rw;
  desert_status st = desert_record_write_begin(w, &k_rec, &rw);
  if (!st) st = desert_record_write_field(&rw, 0);
  if (!st) st = desert_write_i32(w, 42);
  if (!st) st = desert_record_write_field_option(&rw, 1, true);
  if (!st) st = desert_write_string(w, "x", 1);
  if (!st) st = desert_record_write_end(&rw);
  return st;
}
static desert_status op_registry(desert_writer *w) {
  static const uint32_t ids[] = {3, 9};
  return desert_registry_write_type(w, ids, 2, 1);
}
/* Depth limit from the options: the writer must use init's copy. */
static desert_status op_deep(desert_writer *w) {
  desert_record_writer rw[3];
  desert_status st = DESERT_OK;
  for (int i = 0; i < 3 && !st; i++) {
    st = desert_record_write_begin(w, &k_rec, &rw[i]);
    if (!st) st = desert_record_write_field(&rw[i], 0);
  }
  return st;
}
/* Mode switches, then a value. */
static desert_status op_fixed(desert_writer *w) {
  static uint8_t buf[8];
  desert_status st = desert_writer_use_buffer(w, buf, sizeof buf);
  if (!st) st = desert_write_u64(w, 1);
  if (!st) st = desert_write_u8(w, 2); /* too small */
  return st;
}
/* Mode switches and inline writes only: the writer stays pending. */
static desert_status op_fixed_inline(desert_writer *w) {
  static uint8_t buf[6];
  desert_status st = desert_writer_use_buffer(w, buf, sizeof buf);
  if (!st) st = desert_write_u32_inline(w, 0x0a0b0c0d);
  if (!st) st = desert_write_u32_inline(w, 1); /* too small: DST_TOO_SMALL */
  return st;
}
static desert_status op_modes_inline(desert_writer *w) {
  desert_writer_count_only(w);
  desert_status st = desert_write_i64_inline(w, 5);
  desert_writer_use_growable(w);
  if (!st) st = desert_write_u16_inline(w, 0x0102);
  desert_writer_count_only(w);
  desert_writer_use_growable(w);
  if (!st) st = desert_write_u8_inline(w, 9);
  return st;
}
static desert_status op_count_only(desert_writer *w) {
  desert_writer_count_only(w);
  desert_status st = desert_write_string(w, k_text, sizeof k_text - 1);
  desert_writer_use_growable(w);
  if (!st) st = desert_write_u16(w, 0x0102);
  return st;
}
static desert_status op_reset(desert_writer *w) {
  desert_writer_reset(w);
  return desert_write_u8(w, 5);
}

typedef struct collect_sink {
  uint8_t bytes[1024];
  size_t n;
} collect_sink;
static collect_sink g_sink;
static int sink_write(void *ctx, const void *buf, size_t n) {
  collect_sink *c = ctx;
  if (n > sizeof c->bytes - c->n) return 1;
  memcpy(c->bytes + c->n, buf, n);
  c->n += n;
  return 0;
}
/* What reached the sink, as an i32 after the flush (so it shows up in the
 * compared output). */
static desert_status op_stream(desert_writer *w) {
  g_sink.n = 0;
  desert_sink s = {sink_write, &g_sink};
  desert_status st = desert_writer_begin_stream(w, s, 0);
  if (!st) st = desert_write_bytes(w, k_blob, sizeof k_blob);
  if (!st) st = desert_writer_flush(w);
  uint64_t off = desert_writer_stream_offset(w);
  desert_writer_use_growable(w);
  if (!st) st = desert_write_u64(w, off);
  if (!st) st = desert_write_u32(w, (uint32_t)g_sink.n);
  if (!st) st = desert_write_raw(w, g_sink.bytes, g_sink.n);
  return st;
}
/* Queries: isa and options of a pending writer. */
static desert_status op_queries(desert_writer *w) {
  const desert_options *o = desert_writer_options(w);
  if (!o) return DESERT_E_STATE;
  desert_status st = desert_write_u32(w, (uint32_t)desert_writer_isa(w));
  if (!st) st = desert_write_u32(w, o->max_depth);
  if (!st) st = desert_write_u64(w, o->max_length);
  if (!st) st = desert_write_u32(w, o->flags);
  if (!st) st = desert_write_u8(w, o->allocator.alloc != NULL);
  if (!st) st = desert_write_u64(w, desert_writer_stream_offset(w));
  return st;
}

typedef struct op_case {
  const char *name;
  op_fn fn;
} op_case;
#define C(n) {#n, op_##n}
static const op_case k_ops[] = {
    C(u8),         C(i16),        C(u32),         C(i64),          C(f64),
    C(u128),       C(bool_),      C(raw),         C(var_u32),      C(var_i32),
    C(char_),      C(char16),     C(string),      C(cstring),      C(string_bad),
    C(utf16),      C(latin1),     C(bytes),       C(count),        C(stream_begin),
    C(stream_item), C(stream_end), C(option),     C(either),       C(try_),
    C(tuple),      C(type_id),    C(bigint),      C(bigdec),       C(url),
    C(duration),   C(zlib),       C(zstd),        C(u16_array),    C(i32_array),
    C(u64_array),  C(f32_array),  C(var_u32_array), C(dedup),      C(ref),
    C(ip),         C(mac),        C(record),      C(registry),     C(deep),
    C(fixed),      C(count_only), C(reset),       C(stream),       C(queries),
    C(fixed_inline), C(modes_inline), C(string_short), C(string_long),
};
#undef C

/* ---- the comparison --------------------------------------------------------------- */

typedef struct outcome {
  desert_status st, final;
  size_t size;
  uint8_t bytes[2048];
  size_t len;
  bool null_data;
} outcome;

static void capture(desert_writer *w, desert_status st, outcome *o) {
  o->st = st;
  o->final = desert_writer_status(w);
  o->size = desert_writer_size(w);
  size_t len = 0;
  const uint8_t *d = desert_writer_data(w, &len);
  o->null_data = d == NULL;
  assert_true(len <= sizeof o->bytes);
  o->len = len;
  if (d && len) memcpy(o->bytes, d, len);
}

/* The head invariant desert_writer_reset_inline relies on (writer.h):
 * busy 0 means no error and the target is the output. Then an inline
 * reset and write must give a clean one-value message whatever the op
 * left behind (an error, an open record, table entries, a pending head). */
static void check_reset_inline(desert_writer *w, const char *op) {
  const desert_writer_fast *f = (const desert_writer_fast *)(const void *)w;
  if (f->busy == 0 && (f->status != DESERT_OK || f->t != &f->main))
    fail_msg("op %s: busy 0 with status %s and t %s the output", op, desert_status_name(f->status),
             f->t == &f->main ? "at" : "not at");
  desert_writer_reset_inline(w);
  assert_int_equal(f->busy & 1u, 0);
  assert_int_equal(desert_write_i32_inline(w, 0x01020304), DESERT_OK);
  size_t len = 0;
  const uint8_t *d = desert_writer_data_inline(w, &len);
  static const uint8_t want[] = {1, 2, 3, 4};
  if (!d || len != 4 || memcmp(d, want, 4) != 0 || desert_writer_status(w) != DESERT_OK)
    fail_msg("op %s: inline reset + write gave %zu bytes, status %s", op, len,
             desert_status_name(desert_writer_status(w)));
}

static void options_for(desert_options *o, desert_counting_allocator *ca, unsigned flags) {
  desert_options_init(o);
  o->allocator = ca->allocator;
  o->max_depth = 2; /* op_deep must hit it */
  o->flags = flags;
}

/* One op, heap against pending storage; inline_first: one inline write
 * before the op (the pending writer stays pending through it). */
static void run_op(const op_case *c, unsigned flags, bool inline_first, bool null_options,
                   bool init_inline) {
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options opt;
  options_for(&opt, &ca, flags);
  outcome out[2];

  desert_writer *h = NULL;
  assert_int_equal(desert_writer_create(null_options ? NULL : &opt, &h), DESERT_OK);
  if (null_options) { /* the heap writer's limits must match a NULL init */
    desert_writer_free(h);
    assert_int_equal(desert_writer_create(NULL, &h), DESERT_OK);
  }
  if (inline_first) assert_int_equal(desert_write_i32_inline(h, 77), DESERT_OK);
  capture(h, c->fn(h), &out[0]);
  check_reset_inline(h, c->name);
  desert_writer_free(h);

  desert_writer_storage *ws = malloc(sizeof *ws);
  assert_non_null(ws);
  memset(ws, 0xA5, sizeof *ws);
  desert_writer *w = NULL;
  if (init_inline)
    assert_int_equal(desert_writer_init_inline(ws, sizeof *ws, null_options ? NULL : &opt, &w),
                     DESERT_OK);
  else
    assert_int_equal(desert_writer_init(ws, sizeof *ws, null_options ? NULL : &opt, &w),
                     DESERT_OK);
  /* init copied the options: changing the caller's struct now must not
   * matter (the heap writer above saw the original values). */
  opt.max_depth = 50;
  opt.flags ^= DESERT_OPT_SCALA_CHARS;
  memset(&opt.allocator, 0, sizeof opt.allocator);
  if (inline_first) assert_int_equal(desert_write_i32_inline(w, 77), DESERT_OK);
  capture(w, c->fn(w), &out[1]);
  check_reset_inline(w, c->name);
  if (init_inline)
    desert_writer_free_inline(w);
  else
    desert_writer_free(w);
  free(ws);

  if (out[0].st != out[1].st || out[0].final != out[1].final || out[0].size != out[1].size ||
      out[0].len != out[1].len || out[0].null_data != out[1].null_data ||
      memcmp(out[0].bytes, out[1].bytes, out[0].len) != 0)
    fail_msg("op %s (flags %#x, inline first %d, options %s, init%s): heap %s/%s %zu bytes, "
             "pending storage %s/%s %zu bytes",
             c->name, flags, inline_first, null_options ? "NULL" : "set",
             init_inline ? "_inline" : "",
             desert_status_name(out[0].st), desert_status_name(out[0].final), out[0].size,
             desert_status_name(out[1].st), desert_status_name(out[1].final), out[1].size);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

static void test_every_op_on_a_pending_writer(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof k_blob; i++) k_blob[i] = (uint8_t)(i * 7 + 1);
  for (size_t i = 0; i < DESERT_COUNTOF(k_ops); i++)
    for (int first = 0; first < 2; first++) {
      run_op(&k_ops[i], 0, first != 0, false, false);
      run_op(&k_ops[i], DESERT_OPT_SCALA_CHARS, first != 0, false, false);
      run_op(&k_ops[i], 0, first != 0, true, false);
      /* options NULL: the inline init's own path; options set: it calls
       * desert_writer_init */
      run_op(&k_ops[i], 0, first != 0, true, true);
      run_op(&k_ops[i], 0, first != 0, false, true);
    }
}

/* A pending writer answers the head-only queries without settling, and
 * free releases nothing (the counting allocator sees no call at all). */
static void test_pending_lifecycle(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options opt;
  options_for(&opt, &ca, 0);
  desert_writer_storage ws;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, &opt, &w), DESERT_OK);
  assert_ptr_equal(w, (void *)&ws);
  assert_int_equal(desert_write_u16_inline(w, 0xABCD), DESERT_OK);
  desert_writer_reset_inline(w);
  assert_int_equal(desert_write_u8_inline(w, 9), DESERT_OK);
  size_t len = 0;
  const uint8_t *d = desert_writer_data_inline(w, &len);
  assert_int_equal(len, 1);
  assert_int_equal(d[0], 9);
  assert_int_equal(desert_writer_status(w), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 1);
  desert_writer_free(w);
  assert_int_equal(ca.allocs, 0);
  assert_int_equal(ca.frees, 0);

  /* A message too big for storage + inline buffer: the spare, then the
   * caller's allocator, then everything back at free. */
  assert_int_equal(desert_writer_init(&ws, sizeof ws, &opt, &w), DESERT_OK);
  uint8_t big[5000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)i;
  assert_int_equal(desert_write_raw(w, big, sizeof big), DESERT_OK);
  d = desert_writer_data(w, &len);
  assert_int_equal(len, sizeof big);
  assert_memory_equal(d, big, sizeof big);
  assert_true(ca.allocs >= 1);
  desert_writer_free(w);
  assert_int_equal(ca.live_blocks, 0);
}

/* desert_writer_init_inline builds the same pending writer in eight
 * stores; its free releases nothing while pending, and after settling
 * (here by a message larger than the storage) gives everything back. */
static void test_inline_init_lifecycle(void **state) {
  (void)state;
  desert_writer_storage *ws = malloc(sizeof *ws);
  assert_non_null(ws);
  memset(ws, 0x5A, sizeof *ws);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_init_inline(ws, sizeof *ws, NULL, &w), DESERT_OK);
  assert_ptr_equal(w, (void *)ws);
  assert_int_equal(desert_write_i32_inline(w, -2), DESERT_OK);
  assert_int_equal(desert_write_string_inline(w, "ok", 2), DESERT_OK);
  size_t len = 0;
  const uint8_t *d = desert_writer_data_inline(w, &len);
  const uint8_t want[] = {0xff, 0xff, 0xff, 0xfe, 0x04, 'o', 'k'};
  assert_int_equal(len, sizeof want);
  assert_memory_equal(d, want, sizeof want);
  assert_int_equal(desert_writer_isa(w), desert_active_isa());
  /* the options it settles to are those of a heap writer made with NULL */
  desert_writer *h = NULL;
  assert_int_equal(desert_writer_create(NULL, &h), DESERT_OK);
  const desert_options *a = desert_writer_options(w), *b = desert_writer_options(h);
  assert_int_equal(a->max_depth, b->max_depth);
  assert_int_equal(a->max_length, b->max_length);
  assert_int_equal(a->max_collection, b->max_collection);
  assert_int_equal(a->max_decompressed, b->max_decompressed);
  assert_int_equal(a->compression_level, b->compression_level);
  assert_int_equal(a->flags, b->flags);
  assert_null(a->allocator.alloc);
  assert_true(a->max_depth > 0);
  desert_writer_free(h);
  desert_writer_free_inline(w);

  /* Grows past the storage's spare onto the heap (ASan: nothing leaks). */
  memset(ws, 0x5A, sizeof *ws);
  assert_int_equal(desert_writer_init_inline(ws, sizeof *ws, NULL, &w), DESERT_OK);
  static uint8_t big[3 * DESERT_WRITER_STORAGE_SIZE];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 13);
  assert_int_equal(desert_write_raw(w, big, sizeof big), DESERT_OK);
  d = desert_writer_data_inline(w, &len);
  assert_int_equal(len, sizeof big);
  assert_memory_equal(d, big, sizeof big);
  desert_writer_free_inline(w);

  /* Other sizes, misaligned storage, options or a NULL out go to
   * desert_writer_init and get its answers. */
  assert_int_equal(desert_writer_init_inline(ws, sizeof *ws, NULL, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_init_inline((uint8_t *)ws + 8, sizeof *ws - 8, NULL, &w),
                   DESERT_E_ARGUMENT);
  assert_null(w);
  assert_int_equal(desert_writer_init_inline(ws, desert_writer_storage_min() - 1, NULL, &w),
                   DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_init_inline(ws, desert_writer_storage_min(), NULL, &w), DESERT_OK);
  assert_int_equal(desert_write_u8_inline(w, 3), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 1);
  desert_writer_free_inline(w);
  desert_writer_free_inline(NULL);
  free(ws);
}

/* init's statuses are those of the checks it always made. */
static void test_init_statuses(void **state) {
  (void)state;
  desert_writer_storage ws;
  desert_writer *w = (desert_writer *)(uintptr_t)1;
  desert_options opt;
  desert_options_init(&opt);
  assert_int_equal(desert_writer_init(&ws, sizeof ws, &opt, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_init(NULL, sizeof ws, &opt, &w), DESERT_E_ARGUMENT);
  assert_null(w);
  assert_int_equal(desert_writer_init((uint8_t *)&ws + 1, sizeof ws - 1, NULL, &w),
                   DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_init(&ws, desert_writer_storage_min() - 1, NULL, &w),
                   DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_init(&ws, desert_writer_storage_min(), NULL, &w), DESERT_OK);
  desert_writer_free(w);
  opt.struct_size = 8;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, &opt, &w), DESERT_E_ARGUMENT);
  assert_null(w);
  desert_options_init(&opt);
  opt.flags = 1u << 30;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, &opt, &w), DESERT_E_ARGUMENT);
  desert_options_init(&opt);
  opt.compression_level = 23;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, &opt, &w), DESERT_E_ARGUMENT);
  desert_options_init(&opt);
  opt.isa = (desert_isa)99;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, &opt, &w), DESERT_E_ARGUMENT);
  for (int isa = DESERT_ISA_SCALAR; isa < DESERT_ISA_COUNT_; isa++) {
    desert_options_init(&opt);
    opt.isa = (desert_isa)isa;
    desert_status want = desert_isa_runnable((desert_isa)isa) ? DESERT_OK : DESERT_E_ISA_UNAVAILABLE;
    assert_int_equal(desert_writer_init(&ws, sizeof ws, &opt, &w), want);
    if (want == DESERT_OK) {
      assert_int_equal(desert_writer_isa(w), isa);
      desert_writer_free(w);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_op_on_a_pending_writer),
      cmocka_unit_test(test_pending_lifecycle),
      cmocka_unit_test(test_inline_init_lifecycle),
      cmocka_unit_test(test_init_statuses),
  };
  return cmocka_run_group_tests_name("writer_pending", tests, NULL, NULL);
}
