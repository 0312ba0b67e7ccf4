/* test/test_writer_detach.c — desert_writer_detach and desert_buffer_free:
 * a message taken out of a writer holds exactly the bytes written (built
 * here with raw writes and a hand-made length prefix, not by the library's
 * other paths), a message in a buffer the writer allocated is handed over
 * without a copy and one in the inline buffer or the caller's storage is
 * copied out of it, the writer goes on with the next message, the bytes
 * outlive the writer and its storage, every block is freed through the
 * caller's allocator with the size it was allocated with, and the states
 * where there is no message to take fail with their status and leave the
 * writer as it was.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "desert/stream.h"
#include "desert/writer.h"
#include "test_util.h"

/* ---- a counting allocator that checks every free's size ---------------------------------- */

typedef struct counted {
  size_t live, allocs, frees;
  void *ptrs[4096];
  size_t sizes[4096];
} counted;

static void *c_alloc(void *opaque, size_t n) {
  counted *c = opaque;
  void *p = malloc(n);
  if (!p) return NULL;
  for (size_t i = 0; i < 4096; i++)
    if (!c->ptrs[i]) {
      c->ptrs[i] = p;
      c->sizes[i] = n;
      c->live++;
      c->allocs++;
      return p;
    }
  free(p);
  return NULL;
}

static void c_free(void *opaque, void *p, size_t n) {
  counted *c = opaque;
  if (!p) return;
  for (size_t i = 0; i < 4096; i++)
    if (c->ptrs[i] == p) {
      if (c->sizes[i] != n) fail_msg("freed with size %zu, allocated %zu", n, c->sizes[i]);
      c->ptrs[i] = NULL;
      c->live--;
      c->frees++;
      free(p);
      return;
    }
  fail_msg("free of a block this allocator did not make");
}

static desert_options counted_options(counted *c) {
  desert_options o;
  desert_options_init(&o);
  o.allocator.alloc = c_alloc;
  o.allocator.free = c_free;
  o.allocator.opaque = c;
  return o;
}

/* ---- messages with known bytes ----------------------------------------------------------- */

/* Message k: n raw bytes of a pattern, then a byte block of m bytes (its
 * length as an unsigned varint, not zig-zag: docs/format.md §6.1, then the
 * bytes): writes it and fills
 * expect[] with what it must be. Returns the expected length. */
static size_t write_message(desert_writer *w, uint32_t k, size_t n, size_t m, uint8_t *expect) {
  uint8_t *raw = malloc(n + m + 1);
  assert_non_null(raw);
  for (size_t i = 0; i < n + m; i++) raw[i] = (uint8_t)(i * 31u + k);
  assert_int_equal(desert_write_raw(w, raw, n), DESERT_OK);
  assert_int_equal(desert_write_bytes(w, raw + n, m), DESERT_OK);
  size_t e = 0;
  memcpy(expect, raw, n);
  e = n;
  uint64_t z = (uint64_t)m;
  while (z >= 0x80) {
    expect[e++] = (uint8_t)(z | 0x80);
    z >>= 7;
  }
  expect[e++] = (uint8_t)z;
  memcpy(expect + e, raw + n, m);
  free(raw);
  return e + m;
}

/* ---- cases ---------------------------------------------------------------------------------- */

static void test_small_message_is_copied(void **state) {
  (void)state;
  counted c = {0};
  desert_options o = counted_options(&c);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  uint8_t expect[64];
  size_t n = write_message(w, 1, 5, 10, expect);
  const uint8_t *inside = desert_writer_data(w, NULL);
  desert_buffer b;
  assert_int_equal(desert_writer_detach(w, &b), DESERT_OK);
  desert_assert_bytes_equal(expect, n, b.data, b.len);
  assert_true(b.data != inside); /* the inline buffer stays the writer's */
  assert_int_equal(b.cap, n);
  assert_ptr_equal(b.allocator.opaque, &c);
  assert_int_equal(desert_writer_size(w), 0); /* reset */
  /* the next message */
  size_t n2 = write_message(w, 2, 3, 4, expect);
  size_t len = 0;
  const uint8_t *d = desert_writer_data(w, &len);
  desert_assert_bytes_equal(expect, n2, d, len);
  desert_writer_free(w);
  size_t live = c.live;
  assert_int_equal(live, 1); /* only the detached message */
  desert_buffer_free(&b);
  assert_null(b.data);
  assert_int_equal(c.live, 0);
}

static void test_large_message_is_handed_over(void **state) {
  (void)state;
  counted c = {0};
  desert_options o = counted_options(&c);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  uint8_t *expect = malloc(200000);
  uint8_t *expect2 = malloc(200000);
  assert_non_null(expect);
  assert_non_null(expect2);
  size_t n = write_message(w, 3, 100, 150000, expect);
  const uint8_t *inside = desert_writer_data(w, NULL);
  size_t allocs = c.allocs;
  desert_buffer b;
  assert_int_equal(desert_writer_detach(w, &b), DESERT_OK);
  assert_ptr_equal(b.data, inside); /* no copy */
  assert_int_equal(c.allocs, allocs);
  assert_true(b.cap >= b.len);
  /* the writer goes on in a buffer of its own; the message is untouched */
  size_t n2 = write_message(w, 4, 7, 120000, expect2);
  size_t len = 0;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_true(d != b.data);
  desert_assert_bytes_equal(expect2, n2, d, len);
  desert_writer_free(w);
  desert_assert_bytes_equal(expect, n, b.data, b.len);
  desert_buffer_free(&b);
  assert_int_equal(c.live, 0);
  free(expect);
  free(expect2);
}

/* A writer in caller storage: a message carved from the storage is copied
 * out; one that outgrew it is handed over; both outlive the storage. */
static void test_storage_writer(void **state) {
  (void)state;
  counted c = {0};
  desert_options o = counted_options(&c);
  desert_writer_storage *st = malloc(sizeof *st);
  assert_non_null(st);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_init(st, sizeof *st, &o, &w), DESERT_OK);
  uint8_t *e1 = malloc(100000), *e2 = malloc(100000), *e3 = malloc(100000);
  assert_non_null(e1);
  assert_non_null(e2);
  assert_non_null(e3);
  desert_buffer b[3];
  /* 1: small (inline), 2: a little past the inline buffer (the spare), 3:
   * far past the storage (the caller's allocator) */
  size_t sizes[3] = {20, 600, 60000};
  uint8_t *ex[3] = {e1, e2, e3};
  size_t n[3];
  for (int i = 0; i < 3; i++) {
    n[i] = write_message(w, (uint32_t)(10 + i), 1, sizes[i], ex[i]);
    const uint8_t *inside = desert_writer_data(w, NULL);
    bool in_storage = inside >= (const uint8_t *)st && inside < (const uint8_t *)st + sizeof *st;
    assert_int_equal(in_storage, i < 2); /* both ways are taken */
    assert_int_equal(desert_writer_detach(w, &b[i]), DESERT_OK);
    const bool b_in_storage = b[i].data >= (uint8_t *)st && b[i].data < (uint8_t *)st + sizeof *st;
    assert_false(b_in_storage);
    if (in_storage)
      assert_int_equal(b[i].cap, n[i]); /* copied out, exactly */
    else
      assert_ptr_equal(b[i].data, inside); /* handed over */
    assert_ptr_equal(b[i].allocator.alloc, c_alloc);
  }
  desert_writer_free(w);
  memset(st, 0xA5, sizeof *st); /* the storage is gone */
  free(st);
  for (int i = 0; i < 3; i++) {
    desert_assert_bytes_equal(ex[i], n[i], b[i].data, b[i].len);
    desert_buffer_free(&b[i]);
  }
  assert_int_equal(c.live, 0);
  free(e1);
  free(e2);
  free(e3);
}

/* One writer, many kept messages of every size class, the default
 * allocator (free() may release them too). */
static void test_many_messages(void **state) {
  (void)state;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  enum { N = 300 };
  desert_buffer *b = calloc(N, sizeof *b);
  uint8_t *expect = malloc(40000);
  assert_non_null(b);
  assert_non_null(expect);
  desert_rng rng;
  desert_rng_init_test(&rng, 0xde7ac4u);
  size_t m[N];
  for (uint32_t k = 0; k < N; k++) {
    m[k] = desert_rng_range(&rng, 0, 30000);
    write_message(w, k, k % 7, m[k], expect);
    assert_int_equal(desert_writer_detach(w, &b[k]), DESERT_OK);
  }
  for (uint32_t k = 0; k < N; k++) {
    desert_writer_reset(w);
    size_t n = write_message(w, k, k % 7, m[k], expect);
    desert_assert_bytes_equal(expect, n, b[k].data, b[k].len);
    if (k % 2)
      desert_buffer_free(&b[k]);
    else
      free(b[k].data); /* the default allocator's memory is malloc's */
  }
  desert_writer_free(w);
  free(b);
  free(expect);
}

static void test_no_message_to_take(void **state) {
  (void)state;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  desert_buffer b;
  uint8_t buf[64];
  /* fixed buffer */
  assert_int_equal(desert_writer_use_buffer(w, buf, sizeof buf), DESERT_OK);
  assert_int_equal(desert_write_u32(w, 7), DESERT_OK);
  memset(&b, 0x5a, sizeof b);
  assert_int_equal(desert_writer_detach(w, &b), DESERT_E_STATE);
  assert_null(b.data);
  assert_int_equal(b.len, 0);
  assert_int_equal(desert_writer_size(w), 4); /* unchanged */
  /* size-only */
  desert_writer_count_only(w);
  assert_int_equal(desert_write_u32(w, 7), DESERT_OK);
  assert_int_equal(desert_writer_detach(w, &b), DESERT_E_STATE);
  /* inside a record */
  desert_writer_use_growable(w);
  assert_int_equal(desert_write_u8(w, 1), DESERT_OK);
  assert_int_equal(desert_writer_enter(w), DESERT_OK);
  assert_int_equal(desert_writer_detach(w, &b), DESERT_E_STATE);
  assert_int_equal(desert_writer_size(w), 1);
  desert_writer_leave(w);
  /* now it can */
  assert_int_equal(desert_writer_detach(w, &b), DESERT_OK);
  assert_int_equal(b.len, 1);
  assert_int_equal(b.data[0], 1);
  desert_buffer_free(&b);
  /* a failed writer: its error */
  assert_int_equal(desert_write_u8(w, 2), DESERT_OK);
  assert_int_equal(desert_writer_fail(w, DESERT_E_INVALID_CHAR), DESERT_E_INVALID_CHAR);
  assert_int_equal(desert_writer_detach(w, &b), DESERT_E_INVALID_CHAR);
  assert_null(b.data);
  /* arguments */
  assert_int_equal(desert_writer_detach(NULL, &b), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_detach(w, NULL), DESERT_E_ARGUMENT);
  desert_buffer_free(NULL);
  desert_buffer zero;
  memset(&zero, 0, sizeof zero);
  desert_buffer_free(&zero);
  desert_writer_free(w);
}

static int null_sink(void *ctx, const void *data, size_t n) {
  (void)ctx;
  (void)data;
  (void)n;
  return 0;
}

static void test_streaming_writer(void **state) {
  (void)state;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  desert_sink sink = {null_sink, NULL};
  assert_int_equal(desert_writer_begin_stream(w, sink, 0), DESERT_OK);
  assert_int_equal(desert_write_u32(w, 9), DESERT_OK);
  desert_buffer b;
  assert_int_equal(desert_writer_detach(w, &b), DESERT_E_STATE);
  assert_null(b.data);
  desert_writer_free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_small_message_is_copied),
      cmocka_unit_test(test_large_message_is_handed_over),
      cmocka_unit_test(test_storage_writer),
      cmocka_unit_test(test_many_messages),
      cmocka_unit_test(test_no_message_to_take),
      cmocka_unit_test(test_streaming_writer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
