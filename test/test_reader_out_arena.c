/* test/test_reader_out_arena.c — output arenas (desert_decode_arena,
 * desert_reader_set_output_arena, reader.h):
 *  - 1,000 messages with lenient UTF-8 copies, raw DEFLATE and zstd blocks
 *    and desert_reader_alloc arrays decoded by one reader into one arena,
 *    every value checked against its original after the last decode (and
 *    after the reader is freed); reset reuses the blocks; no leak;
 *  - the reader's own begin/reset/mark never touch the arena's data, and
 *    NULL sends allocations back to the reader's own arena;
 *  - a caller-storage reader driven by desert_reader_begin_inline and the
 *    inline reads, where the zlib padding budget (counted per message)
 *    shows the next begin still clears the reader's per-message counts;
 *  - limits give the same status and offset with either arena;
 *  - NULL arguments, allocator failure (create, a decode, a direct alloc),
 *    a malformed message: statuses, offsets, and the arena stays usable.
 * Also run once per runnable ISA (test/CMakeLists.txt): long strings and
 * their replacement copies go through the validation kernels.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/reader.h"
#include "desert/stream.h"
#include "desert/writer.h"
#include "test_util.h"

#define N_MSG 1000u

/* ---- the messages ------------------------------------------------------------------
 * i32 id, a string with one invalid byte (lenient copy), a valid ASCII
 * string (a view), a raw DEFLATE block, every 5th message a zstd block, and
 * a list of i32 read into a desert_reader_alloc array. */

typedef struct original {
  int32_t id;
  uint8_t bad[80]; /* the lenient string's wire bytes */
  size_t bad_len;
  uint8_t fixed[82]; /* what Java makes of them: 0xFF -> EF BF BD */
  size_t fixed_len;
  char view[16];
  uint8_t payload[2200];
  size_t payload_len;
  size_t n_arr;
} original;

typedef struct decoded {
  int32_t id;
  desert_str bad, view;
  desert_bytes comp, zstd;
  int32_t *arr;
  size_t n_arr;
} decoded;

static int32_t arr_value(size_t i, size_t k) { return (int32_t)(i * 1000u + k) - 77; }

static void make_original(size_t i, original *o) {
  o->id = (int32_t)(i * 7919u) - 3;
  /* "s<i>" + (i % 40) 'a's + 0xFF + "z": 6..50 bytes, so some reach the
   * SIMD validators */
  int k = snprintf((char *)o->bad, sizeof o->bad, "s%zu", i);
  size_t n = (size_t)k;
  for (size_t j = 0; j < i % 40; j++) o->bad[n++] = 'a';
  memcpy(o->fixed, o->bad, n);
  o->bad[n] = 0xFF;
  o->bad[n + 1] = 'z';
  o->bad_len = n + 2;
  o->fixed[n] = 0xEF; /* U+FFFD */
  o->fixed[n + 1] = 0xBF;
  o->fixed[n + 2] = 0xBD;
  o->fixed[n + 3] = 'z';
  o->fixed_len = n + 4;
  snprintf(o->view, sizeof o->view, "v%zu", i);
  desert_rng g;
  desert_rng_init(&g, 0x5eed0000u + i);
  o->payload_len = 100 + (i % 300) * 7;
  /* compressible: runs of a few random letters */
  for (size_t j = 0; j < o->payload_len; j++)
    o->payload[j] = (uint8_t)('a' + (j / 8 + desert_rng_below(&g, 2)) % 5);
  o->n_arr = i % 17;
}

/* Encodes o into a fresh malloc'd buffer (*len bytes). */
static uint8_t *encode(size_t i, const original *o, size_t *len) {
  desert_writer *w;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  desert_write_i32(w, o->id);
  desert_write_var_i32(w, (int32_t)o->bad_len); /* the writer refuses invalid UTF-8 */
  desert_write_raw(w, o->bad, o->bad_len);
  desert_write_string(w, o->view, strlen(o->view));
  desert_write_compressed(w, DESERT_COMPRESSION_RAW, -1, o->payload, o->payload_len);
  if (i % 5 == 0) desert_write_compressed_zstd(w, -1, o->payload, o->payload_len / 2);
  desert_write_count(w, o->n_arr);
  for (size_t k = 0; k < o->n_arr; k++) desert_write_i32(w, arr_value(i, k));
  assert_int_equal(desert_writer_status(w), DESERT_OK);
  const uint8_t *d = desert_writer_data(w, len);
  uint8_t *copy = malloc(*len);
  assert_non_null(copy);
  memcpy(copy, d, *len);
  desert_writer_free(w);
  return copy;
}

/* Reads one message; the caller has begun it. */
static desert_status read_msg(desert_reader *r, size_t i, decoded *d) {
  memset(d, 0, sizeof *d);
  desert_read_i32_inline(r, &d->id);
  desert_read_string(r, &d->bad);
  desert_read_string_inline(r, &d->view);
  desert_read_compressed(r, DESERT_COMPRESSION_RAW, &d->comp);
  if (i % 5 == 0) desert_read_compressed_zstd(r, &d->zstd);
  desert_seq seq;
  if (desert_read_seq_begin(r, &seq)) return desert_reader_status(r);
  d->n_arr = seq.count;
  d->arr = desert_reader_alloc(r, seq.count * sizeof(int32_t), _Alignof(int32_t));
  if (!d->arr) return desert_reader_status(r);
  return desert_read_i32_array(r, d->arr, seq.count);
}

/* Offsets in message i's bytes of the raw block's plain-length varint and
 * of its compressed bytes: after the i32, the two strings (one-byte
 * lengths: at most 50 bytes) and the block's two length varints. */
static size_t var_len(const uint8_t *p) {
  size_t n = 1;
  while (p[n - 1] & 0x80) n++;
  return n;
}
static size_t block_data_at(const original *o, const uint8_t *in, size_t *plain_at) {
  size_t at = 4 + 1 + o->bad_len + 1 + strlen(o->view);
  *plain_at = at;
  at += var_len(in + at);
  return at + var_len(in + at);
}

static bool within(const void *p, const uint8_t *buf, size_t len) {
  uintptr_t u = (uintptr_t)p, b = (uintptr_t)buf;
  return u >= b && u < b + len;
}

/* Every value of message i against its original. */
static void check_msg(size_t i, const original *o, const decoded *d, const uint8_t *in,
                      size_t in_len) {
  assert_int_equal(d->id, o->id);
  assert_int_equal(d->bad.len, o->fixed_len);
  assert_memory_equal(d->bad.ptr, o->fixed, o->fixed_len);
  assert_false(within(d->bad.ptr, in, in_len)); /* a copy */
  assert_int_equal(d->view.len, strlen(o->view));
  assert_memory_equal(d->view.ptr, o->view, d->view.len);
  assert_true(within(d->view.ptr, in, in_len)); /* a view into the input */
  assert_int_equal(d->comp.len, o->payload_len);
  assert_memory_equal(d->comp.ptr, o->payload, o->payload_len);
  if (i % 5 == 0) {
    assert_int_equal(d->zstd.len, o->payload_len / 2);
    assert_memory_equal(d->zstd.ptr, o->payload, o->payload_len / 2);
  }
  assert_int_equal(d->n_arr, o->n_arr);
  assert_non_null(d->arr);
  assert_int_equal((uintptr_t)d->arr % _Alignof(int32_t), 0);
  for (size_t k = 0; k < o->n_arr; k++) assert_int_equal(d->arr[k], arr_value(i, k));
}

typedef struct batch {
  original *o;
  decoded *d;
  uint8_t **in;
  size_t *len;
} batch;

static void batch_make(batch *b) {
  b->o = calloc(N_MSG, sizeof *b->o);
  b->d = calloc(N_MSG, sizeof *b->d);
  b->in = calloc(N_MSG, sizeof *b->in);
  b->len = calloc(N_MSG, sizeof *b->len);
  assert_true(b->o && b->d && b->in && b->len);
  for (size_t i = 0; i < N_MSG; i++) {
    make_original(i, &b->o[i]);
    b->in[i] = encode(i, &b->o[i], &b->len[i]);
  }
}

static void batch_free(batch *b) {
  for (size_t i = 0; i < N_MSG; i++) free(b->in[i]);
  free(b->o);
  free(b->d);
  free(b->in);
  free(b->len);
}

static void lenient(desert_options *o, desert_counting_allocator *ca) {
  desert_options_init(o);
  o->flags = DESERT_OPT_LENIENT_UTF8;
  if (ca) o->allocator = ca->allocator;
}

/* ---- many messages, one arena ---------------------------------------------------------- */

static void test_many_messages_one_arena(void **state) {
  (void)state;
  batch b;
  batch_make(&b);
  desert_counting_allocator rca, aca;
  desert_counting_allocator_init(&rca);
  desert_counting_allocator_init(&aca);
  desert_options o;
  lenient(&o, &rca);
  desert_reader *r;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  desert_decode_arena *a;
  assert_int_equal(desert_decode_arena_create(&aca.allocator, &a), DESERT_OK);
  assert_int_equal(desert_decode_arena_bytes(a), 0);
  assert_int_equal(aca.allocs, 1); /* the arena struct; blocks come on demand */
  assert_int_equal(desert_reader_set_output_arena(r, a), DESERT_OK);

  size_t payload_sum = 0, reader_live_after_first = 0;
  for (size_t i = 0; i < N_MSG; i++) {
    assert_int_equal(desert_reader_begin(r, b.in[i], b.len[i]), DESERT_OK);
    assert_int_equal(read_msg(r, i, &b.d[i]), DESERT_OK);
    assert_int_equal(desert_reader_offset(r), b.len[i]);
    payload_sum += b.o[i].payload_len + b.o[i].fixed_len + b.o[i].n_arr * 4;
    if (i == 5) reader_live_after_first = rca.live_bytes; /* decompressors exist by now */
  }
  /* The reader's own memory did not grow with the messages: their data is
   * in the arena, which holds at least all of it. */
  assert_int_equal(rca.live_bytes, reader_live_after_first);
  assert_true(desert_decode_arena_bytes(a) >= payload_sum);
  assert_true(aca.live_bytes >= desert_decode_arena_bytes(a));
  /* Geometric blocks: O(log n) allocations for 1,000 messages. */
  assert_true(aca.allocs < 40);

  /* Everything is checked after the last decode, and again once the reader
   * is gone: nothing of it lives in the reader. */
  for (size_t i = 0; i < N_MSG; i++) check_msg(i, &b.o[i], &b.d[i], b.in[i], b.len[i]);
  desert_reader_free(r);
  assert_int_equal(rca.live_blocks, 0);
  assert_int_equal(rca.bad_frees, 0);
  for (size_t i = 0; i < N_MSG; i++) check_msg(i, &b.o[i], &b.d[i], b.in[i], b.len[i]);

  /* Reset: same blocks, so a second batch of the same messages allocates
   * nothing from the arena's allocator. */
  size_t bytes = desert_decode_arena_bytes(a), allocs = aca.allocs;
  desert_decode_arena_reset(a);
  assert_int_equal(desert_decode_arena_bytes(a), bytes);
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  assert_int_equal(desert_reader_set_output_arena(r, a), DESERT_OK);
  for (size_t i = 0; i < N_MSG; i++) {
    assert_int_equal(desert_reader_begin(r, b.in[i], b.len[i]), DESERT_OK);
    assert_int_equal(read_msg(r, i, &b.d[i]), DESERT_OK);
  }
  assert_int_equal(aca.allocs, allocs);
  assert_int_equal(desert_decode_arena_bytes(a), bytes);
  for (size_t i = 0; i < N_MSG; i++) check_msg(i, &b.o[i], &b.d[i], b.in[i], b.len[i]);
  desert_reader_free(r);
  desert_decode_arena_free(a);
  assert_int_equal(aca.live_blocks, 0);
  assert_int_equal(aca.bad_frees, 0);
  assert_int_equal(rca.live_blocks, 0);
  batch_free(&b);
}

/* ---- the reader's own lifecycle leaves the arena alone ------------------------------- */

static void test_reader_lifecycle_keeps_arena_data(void **state) {
  (void)state;
  batch b;
  batch_make(&b);
  desert_options o;
  lenient(&o, NULL);
  desert_counting_allocator aca;
  desert_counting_allocator_init(&aca);
  desert_reader *r;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  desert_decode_arena *a;
  assert_int_equal(desert_decode_arena_create(&aca.allocator, &a), DESERT_OK);
  assert_int_equal(desert_reader_set_output_arena(r, a), DESERT_OK);
  /* Messages 0..9 into the arena, plus a caller allocation of its own. */
  for (size_t i = 0; i < 10; i++) {
    assert_int_equal(desert_reader_begin(r, b.in[i], b.len[i]), DESERT_OK);
    assert_int_equal(read_msg(r, i, &b.d[i]), DESERT_OK);
  }
  uint64_t *mine = desert_decode_arena_alloc(a, 64 * sizeof *mine, 64);
  assert_non_null(mine);
  assert_int_equal((uintptr_t)mine % 64, 0);
  for (unsigned k = 0; k < 64; k++) mine[k] = 0x0123456789abcdefu * (k + 1);

  /* Back to the reader's own arena: many begins, resets and decodes that
   * allocate (its arena is reused each time), none reaching the arena. */
  assert_int_equal(desert_reader_set_output_arena(r, NULL), DESERT_OK);
  size_t bytes = desert_decode_arena_bytes(a), allocs = aca.allocs;
  for (size_t i = 10; i < 200; i++) {
    assert_int_equal(desert_reader_begin(r, b.in[i], b.len[i]), DESERT_OK);
    assert_int_equal(read_msg(r, i, &b.d[i]), DESERT_OK);
    check_msg(i, &b.o[i], &b.d[i], b.in[i], b.len[i]); /* valid until the next begin */
    void *p = desert_reader_alloc(r, 8, 8);
    assert_non_null(p);
    if (i % 3 == 0) desert_reader_reset(r);
  }
  assert_int_equal(desert_decode_arena_bytes(a), bytes);
  assert_int_equal(aca.allocs, allocs);
  /* An arena that is no longer attached may be freed before the reader. */
  for (size_t i = 0; i < 10; i++) check_msg(i, &b.o[i], &b.d[i], b.in[i], b.len[i]);
  for (unsigned k = 0; k < 64; k++) assert_true(mine[k] == 0x0123456789abcdefu * (k + 1));
  desert_decode_arena_free(a);
  assert_int_equal(aca.live_blocks, 0);
  desert_reader_free(r);
  batch_free(&b);
}

/* ---- caller storage and the inline forms --------------------------------------------- */

/* A zlib block of "abc" announcing 60,000 bytes: Java pads it with zeros.
 * The padding budget is 64 KiB + 8 per input byte per message, so two of
 * these in one message are over it, one per message never is. */
static uint8_t *lying_zlib(size_t *len) {
  desert_writer *w;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_write_compressed(w, DESERT_COMPRESSION_ZLIB, -1, "abc", 3), DESERT_OK);
  size_t n;
  const uint8_t *d = desert_writer_data(w, &n);
  assert_int_equal(d[0], 3); /* var_u32(3) */
  uint8_t *out = malloc(n + 2);
  assert_non_null(out);
  out[0] = 0xE0; /* var_u32(60000) = e0 d4 03 */
  out[1] = 0xD4;
  out[2] = 0x03;
  memcpy(out + 3, d + 1, n - 1);
  *len = n + 2;
  desert_writer_free(w);
  return out;
}

static void test_storage_reader_inline_begin(void **state) {
  (void)state;
  size_t zlen;
  uint8_t *z = lying_zlib(&zlen);
  uint8_t twice[64];
  assert_true(2 * zlen <= sizeof twice);
  memcpy(twice, z, zlen);
  memcpy(twice + zlen, z, zlen);
  /* plain message: i32 7 and "hi": nothing to allocate */
  static const uint8_t plain[] = {0, 0, 0, 7, 4, 'h', 'i'};

  desert_reader_storage rs;
  desert_reader *r;
  assert_int_equal(desert_reader_init(&rs, sizeof rs, NULL, &r), DESERT_OK);
  desert_decode_arena *a;
  assert_int_equal(desert_decode_arena_create(NULL, &a), DESERT_OK);
  assert_int_equal(desert_reader_set_output_arena(r, a), DESERT_OK);

  /* The control: two blocks in one message are over the budget. */
  desert_bytes out[8];
  assert_int_equal(desert_reader_begin_inline(r, twice, 2 * zlen), DESERT_OK);
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &out[0]), DESERT_OK);
  assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &out[1]), DESERT_E_LIMIT);
  assert_int_equal(desert_reader_error_offset(r), zlen); /* the second plain length */

  /* One per message, begun inline, with plain messages in between that
   * take the inline begin's four-store path: each is within its own
   * budget, so the count was cleared by every begin after a block. */
  for (unsigned m = 0; m < 8; m++) {
    assert_int_equal(desert_reader_begin_inline(r, z, zlen), DESERT_OK);
    assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &out[m]), DESERT_OK);
    assert_int_equal(desert_reader_begin_inline(r, plain, sizeof plain), DESERT_OK);
    int32_t v = 0;
    desert_str s = {0};
    assert_int_equal(desert_read_i32_inline(r, &v), DESERT_OK);
    assert_int_equal(desert_read_string_inline(r, &s), DESERT_OK);
    assert_int_equal(v, 7);
    assert_int_equal(s.len, 2);
    assert_ptr_equal(s.ptr, (const char *)plain + 5);
  }
  /* All eight padded blocks are still there, in the caller's arena. */
  for (unsigned m = 0; m < 8; m++) {
    assert_int_equal(out[m].len, 60000);
    assert_memory_equal(out[m].ptr, "abc", 3);
    for (size_t j = 3; j < 60000; j++)
      if (out[m].ptr[j] != 0) fail_msg("block %u byte %zu not zero", m, j);
  }
  assert_true(desert_decode_arena_bytes(a) >= 8 * 60000);
  /* The storage was not used for them: a reader in 3 KiB of storage. */
  assert_true(desert_decode_arena_bytes(a) > sizeof rs);
  desert_reader_free(r);
  desert_decode_arena_free(a);
  free(z);
}

/* ---- streaming: a mark releases views and the reader's arena, not this one --------- */

typedef struct mem_src {
  const uint8_t *p;
  size_t len, pos;
} mem_src;

static ptrdiff_t mem_read(void *ctx, void *buf, size_t cap) {
  mem_src *m = ctx;
  size_t n = m->len - m->pos;
  if (n > cap) n = cap;
  if (n > 13) n = 13; /* small pieces: the window refills often */
  memcpy(buf, m->p + m->pos, n);
  m->pos += n;
  return (ptrdiff_t)n;
}

static void test_stream_marks_keep_arena_data(void **state) {
  (void)state;
  enum { E = 60 };
  static original o[E];
  desert_writer *w;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  for (size_t i = 0; i < E; i++) {
    make_original(i, &o[i]);
    desert_write_var_i32(w, (int32_t)o[i].bad_len);
    desert_write_raw(w, o[i].bad, o[i].bad_len);
    desert_write_compressed(w, DESERT_COMPRESSION_RAW, -1, o[i].payload, o[i].payload_len);
  }
  size_t len;
  const uint8_t *bytes = desert_writer_data(w, &len);
  mem_src src = {bytes, len, 0};
  desert_options opt;
  lenient(&opt, NULL);
  desert_reader *r;
  assert_int_equal(desert_reader_create(&opt, &r), DESERT_OK);
  desert_decode_arena *a;
  assert_int_equal(desert_decode_arena_create(NULL, &a), DESERT_OK);
  assert_int_equal(desert_reader_set_output_arena(r, a), DESERT_OK);
  desert_source s = {mem_read, &src};
  assert_int_equal(desert_reader_begin_stream(r, s, DESERT_STREAM_MIN_BUFFER), DESERT_OK);
  static desert_str str[E];
  static desert_bytes blk[E];
  for (size_t i = 0; i < E; i++) {
    assert_int_equal(desert_read_string(r, &str[i]), DESERT_OK);
    assert_int_equal(desert_read_compressed(r, DESERT_COMPRESSION_RAW, &blk[i]), DESERT_OK);
    assert_int_equal(desert_reader_mark(r), DESERT_OK);
  }
  assert_true(desert_reader_at_end(r));
  for (size_t i = 0; i < E; i++) {
    assert_int_equal(str[i].len, o[i].fixed_len);
    assert_memory_equal(str[i].ptr, o[i].fixed, o[i].fixed_len);
    assert_int_equal(blk[i].len, o[i].payload_len);
    assert_memory_equal(blk[i].ptr, o[i].payload, o[i].payload_len);
  }
  desert_reader_free(r); /* ends the stream; the arena's data stays */
  assert_memory_equal(blk[E - 1].ptr, o[E - 1].payload, o[E - 1].payload_len);
  desert_decode_arena_free(a);
  desert_writer_free(w);
}

/* ---- limits ------------------------------------------------------------------------- */

static void test_limits_same_with_either_arena(void **state) {
  (void)state;
  original o;
  make_original(299, &o); /* payload 2193 bytes */
  uint8_t *in;
  size_t len;
  in = encode(299, &o, &len);
  desert_options opt;
  lenient(&opt, NULL);
  opt.max_decompressed = 1000;
  /* An announced size over the limit: at the plain-length varint. */
  size_t plain_at;
  (void)block_data_at(&o, in, &plain_at);
  for (int with = 0; with < 2; with++) {
    desert_reader *r;
    assert_int_equal(desert_reader_create(&opt, &r), DESERT_OK);
    desert_decode_arena *a;
    assert_int_equal(desert_decode_arena_create(NULL, &a), DESERT_OK);
    if (with) assert_int_equal(desert_reader_set_output_arena(r, a), DESERT_OK);
    decoded d;
    assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
    assert_int_equal(read_msg(r, 299, &d), DESERT_E_LIMIT);
    assert_int_equal(desert_reader_error_offset(r), plain_at);
    desert_reader_free(r);
    desert_decode_arena_free(a);
  }
  /* max_length: the string's length varint */
  opt.max_decompressed = 0;
  opt.max_length = 4;
  for (int with = 0; with < 2; with++) {
    desert_reader *r;
    assert_int_equal(desert_reader_create(&opt, &r), DESERT_OK);
    desert_decode_arena *a;
    assert_int_equal(desert_decode_arena_create(NULL, &a), DESERT_OK);
    if (with) assert_int_equal(desert_reader_set_output_arena(r, a), DESERT_OK);
    decoded d;
    assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
    assert_int_equal(read_msg(r, 299, &d), DESERT_E_LIMIT);
    assert_int_equal(desert_reader_error_offset(r), 4);
    assert_int_equal(desert_decode_arena_bytes(a), 0); /* nothing was allocated */
    desert_reader_free(r);
    desert_decode_arena_free(a);
  }
  free(in);
}

/* ---- errors --------------------------------------------------------------------------- */

static void test_null_arguments(void **state) {
  (void)state;
  desert_decode_arena *a = (desert_decode_arena *)(uintptr_t)1;
  assert_int_equal(desert_decode_arena_create(NULL, NULL), DESERT_E_ARGUMENT);
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_allocator half = ca.allocator;
  half.free = NULL;
  assert_int_equal(desert_decode_arena_create(&half, &a), DESERT_E_ARGUMENT);
  assert_null(a);
  assert_int_equal(ca.allocs, 0);
  desert_allocator none = {NULL, NULL, NULL}; /* all NULL: malloc/free */
  assert_int_equal(desert_decode_arena_create(&none, &a), DESERT_OK);
  assert_non_null(a);

  assert_int_equal(desert_reader_set_output_arena(NULL, a), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_set_output_arena(NULL, NULL), DESERT_E_ARGUMENT);
  assert_null(desert_decode_arena_alloc(NULL, 8, 8));
  assert_int_equal(desert_decode_arena_bytes(NULL), 0);
  desert_decode_arena_reset(NULL);
  desert_decode_arena_free(NULL);

  /* Bad alignments; size 0 gives distinct valid pointers. */
  assert_null(desert_decode_arena_alloc(a, 8, 0));
  assert_null(desert_decode_arena_alloc(a, 8, 3));
  assert_null(desert_decode_arena_alloc(a, 8, 128));
  assert_null(desert_decode_arena_alloc(a, SIZE_MAX - 8, 8)); /* overflow */
  void *z1 = desert_decode_arena_alloc(a, 0, 1), *z2 = desert_decode_arena_alloc(a, 0, 1);
  assert_non_null(z1);
  assert_non_null(z2);
  assert_ptr_not_equal(z1, z2);
  for (size_t al = 1; al <= 64; al *= 2) {
    uint8_t *p = desert_decode_arena_alloc(a, 3, al);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % al, 0);
    memset(p, 0xAB, 3);
  }
  /* NULL status untouched on a reader: setting an arena is not a read. */
  desert_reader *r;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  assert_int_equal(desert_reader_set_output_arena(r, a), DESERT_OK);
  assert_int_equal(desert_reader_set_output_arena(r, NULL), DESERT_OK);
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  desert_reader_free(r);
  desert_decode_arena_free(a);
}

static void test_allocation_failure(void **state) {
  (void)state;
  /* create */
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_counting_allocator_fail_after(&ca, 0);
  desert_decode_arena *a = (desert_decode_arena *)(uintptr_t)1;
  assert_int_equal(desert_decode_arena_create(&ca.allocator, &a), DESERT_E_NOMEM);
  assert_null(a);
  desert_counting_allocator_fail_after(&ca, SIZE_MAX);
  assert_int_equal(desert_decode_arena_create(&ca.allocator, &a), DESERT_OK);

  original o;
  make_original(3, &o);
  size_t len;
  uint8_t *in = encode(3, &o, &len);
  desert_options opt;
  lenient(&opt, NULL);
  desert_reader *r;
  assert_int_equal(desert_reader_create(&opt, &r), DESERT_OK);
  assert_int_equal(desert_reader_set_output_arena(r, a), DESERT_OK);
  decoded d;

  /* The lenient copy fails: NOMEM recorded at the string's first byte. */
  desert_counting_allocator_fail_after(&ca, 0);
  assert_null(desert_decode_arena_alloc(a, 16, 8));
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  assert_int_equal(read_msg(r, 3, &d), DESERT_E_NOMEM);
  assert_int_equal(desert_reader_error_offset(r), 5); /* i32, 1-byte length */
  assert_int_equal(desert_reader_status(r), DESERT_E_NOMEM);

  /* desert_reader_alloc fails: NULL, NOMEM at the cursor. */
  desert_str s;
  int32_t id;
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  assert_int_equal(desert_read_i32(r, &id), DESERT_OK);
  assert_null(desert_reader_alloc(r, 32, 16));
  assert_int_equal(desert_reader_status(r), DESERT_E_NOMEM);
  assert_int_equal(desert_reader_error_offset(r), 4);
  assert_int_equal(desert_read_string(r, &s), DESERT_E_NOMEM); /* sticky */

  /* The arena's allocator recovers: so do the arena and the reader. */
  desert_counting_allocator_fail_after(&ca, SIZE_MAX);
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  assert_int_equal(read_msg(r, 3, &d), DESERT_OK);
  check_msg(3, &o, &d, in, len);

  /* An allocator that gives one block and then nothing: a budget of the
   * caller's. Messages decode until the block is full, then NOMEM. */
  desert_decode_arena *b;
  desert_counting_allocator cb;
  desert_counting_allocator_init(&cb);
  assert_int_equal(desert_decode_arena_create(&cb.allocator, &b), DESERT_OK);
  desert_counting_allocator_fail_after(&cb, 1); /* one block, then nothing */
  assert_int_equal(desert_reader_set_output_arena(r, b), DESERT_OK);
  size_t ok = 0;
  desert_status st = DESERT_OK;
  for (size_t i = 0; i < 100 && st == DESERT_OK; i++) {
    assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
    st = read_msg(r, 3, &d);
    if (st == DESERT_OK) ok++;
  }
  assert_int_equal(st, DESERT_E_NOMEM);
  assert_true(ok >= 1); /* the first block held some messages */
  assert_int_equal(cb.failed, 1);
  desert_reader_free(r);
  desert_decode_arena_free(b);
  assert_int_equal(cb.live_blocks, 0);
  desert_decode_arena_free(a);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
  free(in);
}

static void test_malformed_message_keeps_arena_usable(void **state) {
  (void)state;
  batch b;
  batch_make(&b);
  desert_options opt;
  lenient(&opt, NULL);
  desert_reader *r;
  assert_int_equal(desert_reader_create(&opt, &r), DESERT_OK);
  desert_decode_arena *a;
  assert_int_equal(desert_decode_arena_create(NULL, &a), DESERT_OK);
  assert_int_equal(desert_reader_set_output_arena(r, a), DESERT_OK);
  for (size_t i = 0; i < 40; i++) {
    if (i % 10 == 9) {
      /* Cut inside the compressed block, after the lenient copy was made
       * in the arena: INPUT_ENDED at the block's compressed bytes. */
      size_t plain_at, data_at = block_data_at(&b.o[i], b.in[i], &plain_at);
      decoded bad;
      assert_int_equal(desert_reader_begin(r, b.in[i], data_at + 5), DESERT_OK);
      assert_int_equal(read_msg(r, i, &bad), DESERT_E_INPUT_ENDED);
      assert_int_equal(desert_reader_error_offset(r), data_at);
      assert_int_equal(bad.bad.len, b.o[i].fixed_len); /* the copy had been made */
      /* A corrupt block (the compressed bytes overwritten): DECOMPRESSION,
       * after the arena gave out the first output piece. */
      uint8_t *junk = malloc(b.len[i]);
      assert_non_null(junk);
      memcpy(junk, b.in[i], b.len[i]);
      memset(junk + data_at, 0xFF, 8);
      assert_int_equal(desert_reader_begin(r, junk, b.len[i]), DESERT_OK);
      assert_int_equal(read_msg(r, i, &bad), DESERT_E_DECOMPRESSION);
      assert_int_equal(desert_reader_error_offset(r), data_at);
      free(junk);
      continue;
    }
    assert_int_equal(desert_reader_begin(r, b.in[i], b.len[i]), DESERT_OK);
    assert_int_equal(read_msg(r, i, &b.d[i]), DESERT_OK);
  }
  for (size_t i = 0; i < 40; i++)
    if (i % 10 != 9) check_msg(i, &b.o[i], &b.d[i], b.in[i], b.len[i]);
  desert_reader_free(r);
  desert_decode_arena_free(a);
  batch_free(&b);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_many_messages_one_arena),
      cmocka_unit_test(test_reader_lifecycle_keeps_arena_data),
      cmocka_unit_test(test_storage_reader_inline_begin),
      cmocka_unit_test(test_stream_marks_keep_arena_data),
      cmocka_unit_test(test_limits_same_with_either_arena),
      cmocka_unit_test(test_null_arguments),
      cmocka_unit_test(test_allocation_failure),
      cmocka_unit_test(test_malformed_message_keeps_arena_usable),
  };
  return cmocka_run_group_tests_name("reader_out_arena", tests, NULL, NULL);
}
