/* test/test_json_limits.c — limits belong to the caller: the public JSON
 * decode (desert_json_decode / _ex) takes any valid input that fits in
 * memory by default (a 3,000,000-element list, well past the conformance
 * testee's own bound), a caller's desert_json_limits narrow it with a
 * message that names the limit, its value and the field that raises it,
 * and hostile inputs (a 2^31-element count, deep nesting) still fail at
 * once. Also the streaming reader's high-water mark: a loop that never
 * marks gets DESERT_E_LIMIT instead of holding the whole stream.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/json.h"
#include "desert/stream.h"
#include "test_util.h"

static desert_schema *load(desert_value_arena *a, const char *doc) {
  desert_json *j = NULL;
  desert_json_error err;
  assert_int_equal(desert_json_parse_ex(doc, strlen(doc), a, &j, &err), DESERT_OK);
  desert_schema *s = NULL;
  assert_int_equal(desert_schema_load(j, NULL, &s, &err), DESERT_OK);
  return s;
}

/* JSON text of n i32 values from a fixed sequence, and their bytes:
 * zigzag var count, then big-endian values (docs/format.md), built here
 * independently of the library's writer. */
static char *list_json(size_t n, uint8_t **bytes, size_t *nbytes) {
  char *text = malloc(n * 12 + 3);
  uint8_t *b = malloc(n * 4 + 10);
  assert_non_null(text);
  assert_non_null(b);
  size_t k = 0, m = 0;
  uint64_t z = (uint64_t)n << 1; /* zigzag of a non-negative count */
  while (z >= 0x80) {
    b[m++] = (uint8_t)(z | 0x80);
    z >>= 7;
  }
  b[m++] = (uint8_t)z;
  text[k++] = '[';
  uint32_t x = 12345;
  for (size_t i = 0; i < n; i++) {
    x = x * 1664525u + 1013904223u;
    int32_t v = (int32_t)x;
    k += (size_t)snprintf(text + k, 13, i ? ",%d" : "%d", (int)v);
    b[m++] = (uint8_t)(x >> 24);
    b[m++] = (uint8_t)(x >> 16);
    b[m++] = (uint8_t)(x >> 8);
    b[m++] = (uint8_t)x;
  }
  text[k++] = ']';
  text[k] = '\0';
  *bytes = b;
  *nbytes = m;
  return text;
}

static const char *const list_schema = "{\"desert_schema\":1,\"root\":{\"type\":\"list\",\"element\":\"i32\"}}";

/* 3,000,000 elements: more than the testee's 2^21 value nodes (and the
 * 1,048,577 that failed before the limits moved to the caller). */
static void test_large_list_decodes_by_default(void **state) {
  (void)state;
  desert_value_arena *a;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_schema *s = load(a, list_schema);
  uint8_t *bytes;
  size_t nbytes;
  char *text = list_json(3000000, &bytes, &nbytes);
  desert_reader *r;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  desert_json_buf out = {0};
  size_t consumed = 0;
  desert_json_error err;
  desert_status st = desert_json_decode(s, r, bytes, nbytes, a, &out, &consumed, &err);
  if (st) fail_msg("decode: %s", err.message);
  assert_int_equal(consumed, nbytes);
  assert_int_equal(out.len, strlen(text));
  assert_memory_equal(out.data, text, out.len);
  /* And back: the JSON encodes to the same bytes. */
  desert_value_arena_reset(a);
  desert_json *j = NULL;
  assert_int_equal(desert_json_parse_ex(text, strlen(text), a, &j, &err), DESERT_OK);
  desert_writer *w;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_json_encode_ex(s, j, w, a, NULL, &err), DESERT_OK);
  size_t n = 0;
  const uint8_t *enc = desert_writer_data(w, &n);
  assert_int_equal(n, nbytes);
  assert_memory_equal(enc, bytes, n);
  desert_writer_free(w);
  desert_json_buf_free(&out);
  desert_reader_free(r);
  free(text);
  free(bytes);
  desert_schema_free(s);
  desert_value_arena_free(a);
}

/* A caller's max_values: the error names the limit, its value and the
 * field; one more value node fits again. */
static void test_values_limit_message(void **state) {
  (void)state;
  desert_value_arena *a;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_schema *s = load(a, list_schema);
  uint8_t *bytes;
  size_t nbytes;
  char *text = list_json(1000, &bytes, &nbytes);
  desert_reader *r;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  desert_json_buf out = {0};
  desert_json_error err;
  desert_json_limits lim = {500, 0, 0};
  assert_int_equal(desert_json_decode_ex(s, r, bytes, nbytes, a, &lim, &out, NULL, &err),
                   DESERT_E_LIMIT);
  assert_int_equal(err.kind, DESERT_JSON_ERR_STATUS);
  assert_true(err.has_offset);
  assert_non_null(strstr(err.message, "more than 500 values"));
  assert_non_null(strstr(err.message, "desert_json_limits.max_values = 500"));
  /* Nodes are charged as the codec allocates them (an array that grows by
   * doubling may be charged up to twice its elements): twice the elements
   * and a little is always enough. */
  lim.max_values = 2 * 1000 + 64;
  out.len = 0;
  assert_int_equal(desert_json_decode_ex(s, r, bytes, nbytes, a, &lim, &out, NULL, &err),
                   DESERT_OK);
  assert_int_equal(out.len, strlen(text));
  desert_json_buf_free(&out);
  desert_reader_free(r);
  free(text);
  free(bytes);
  desert_schema_free(s);
  desert_value_arena_free(a);
}

/* The defaults: max_values grows with the input, the others are fixed. */
static void test_limits_resolve(void **state) {
  (void)state;
  desert_codec_limits c;
  desert_json_limits_resolve(NULL, 1000, &c);
  assert_int_equal(c.max_values, DESERT_JSON_DEFAULT_MAX_VALUES + 1000 * 16);
  assert_int_equal(c.max_depth, 256);
  assert_int_equal(c.max_bigint, (size_t)256 << 10);
  desert_json_limits l = {7, 9, 11};
  desert_json_limits_resolve(&l, 1000, &c);
  assert_int_equal(c.max_values, 7);
  assert_int_equal(c.max_depth, 9);
  assert_int_equal(c.max_bigint, 11);
  desert_json_limits_resolve(NULL, SIZE_MAX, &c); /* saturates, never wraps */
  assert_true(c.max_values > DESERT_JSON_DEFAULT_MAX_VALUES);
}

/* A count of 2^31 - 1 elements in a few bytes: unit elements take no
 * bytes, so only the values limit (scaled by the input) stops them, at
 * once and before the list's array grows; i32 elements run out of input. */
static void test_hostile_count(void **state) {
  (void)state;
  desert_value_arena *a;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_writer *w;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_write_count(w, 0x7fffffff), DESERT_OK);
  size_t n = 0;
  const uint8_t *b = desert_writer_data(w, &n);
  uint8_t in[16];
  memcpy(in, b, n);
  memset(in + n, 0, 4);
  desert_reader *r;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  desert_json_buf out = {0};
  desert_json_error err;
  desert_schema *units =
      load(a, "{\"desert_schema\":1,\"root\":{\"type\":\"list\",\"element\":\"unit\"}}");
  assert_int_equal(desert_json_decode(units, r, in, n, a, &out, NULL, &err), DESERT_E_LIMIT);
  assert_non_null(strstr(err.message, "desert_json_limits.max_values"));
  /* Bounded: the tree never grew past the limit's nodes (24-32 bytes each,
   * twice over while the array grows). */
  assert_true(desert_value_arena_size(a) < (size_t)256 << 20);
  desert_schema *ints = load(a, list_schema);
  assert_int_equal(desert_json_decode(ints, r, in, n + 4, a, &out, NULL, &err),
                   DESERT_E_INPUT_ENDED);
  assert_int_equal(err.offset, n + 4);
  desert_schema_free(units);
  desert_schema_free(ints);
  desert_json_buf_free(&out);
  desert_reader_free(r);
  desert_writer_free(w);
  desert_value_arena_free(a);
}

/* 1,000,000 nested options: DESERT_E_DEPTH at the default 256 with the
 * limit's name in the message; a caller's max_depth moves it. */
static void test_deep_nesting(void **state) {
  (void)state;
  desert_value_arena *a;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_schema *s = load(a, "{\"desert_schema\":1,\"definitions\":{\"T\":{\"type\":\"option\","
                             "\"inner\":\"T\"}},\"root\":\"T\"}");
  size_t n = 1000000;
  uint8_t *in = malloc(n + 1);
  assert_non_null(in);
  memset(in, 1, n); /* Some(Some(...)) */
  in[n] = 0;
  desert_options o;
  desert_options_init(&o);
  o.max_depth = 100000;
  desert_reader *r;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  desert_json_buf out = {0};
  desert_json_error err;
  assert_int_equal(desert_json_decode(s, r, in, n + 1, a, &out, NULL, &err), DESERT_E_DEPTH);
  assert_non_null(strstr(err.message, "nesting deeper than 256"));
  assert_non_null(strstr(err.message, "desert_json_limits.max_depth"));
  desert_json_limits lim = {0, 300, 0};
  assert_int_equal(desert_json_decode_ex(s, r, in, n + 1, a, &lim, &out, NULL, &err),
                   DESERT_E_DEPTH);
  assert_non_null(strstr(err.message, "nesting deeper than 300"));
  /* 200 levels fit the default. */
  out.len = 0;
  in[200] = 0;
  assert_int_equal(desert_json_decode(s, r, in, 201, a, &out, NULL, &err), DESERT_OK);
  free(in);
  desert_json_buf_free(&out);
  desert_reader_free(r);
  desert_schema_free(s);
  desert_value_arena_free(a);
}

/* ---- the streaming reader's high-water mark -------------------------------------------- */

typedef struct zeros {
  size_t left;
} zeros;

static ptrdiff_t zeros_read(void *ctx, void *buf, size_t cap) {
  zeros *z = ctx;
  size_t n = z->left < cap ? z->left : cap;
  memset(buf, 0, n);
  z->left -= n;
  return (ptrdiff_t)n;
}

/* Reads i32 values until the stream ends or fails; marks after each one
 * when `mark`. Returns the status and the values read. */
static desert_status read_all(desert_reader *r, bool mark, size_t *count) {
  *count = 0;
  for (;;) {
    if (desert_reader_at_end(r)) return DESERT_OK;
    int32_t v;
    desert_status st = desert_read_i32(r, &v);
    if (st) return st;
    ++*count;
    if (mark) desert_reader_mark(r);
  }
}

static void test_stream_high_water(void **state) {
  (void)state;
  desert_reader *r;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  size_t total = (size_t)80 << 20, count = 0;
  /* Not streaming: nothing to set. */
  assert_int_equal(desert_reader_set_max_window(r, 1), DESERT_E_STATE);
  /* No mark: the default high-water mark (64 MiB) stops it. */
  zeros z = {total};
  desert_source src = {zeros_read, &z};
  assert_int_equal(desert_reader_begin_stream(r, src, 0), DESERT_OK);
  assert_int_equal(read_all(r, false, &count), DESERT_E_LIMIT);
  assert_true(count * 4 <= DESERT_STREAM_DEFAULT_MAX_WINDOW);
  assert_true(count * 4 + 4 > DESERT_STREAM_DEFAULT_MAX_WINDOW / 2);
  /* A smaller caller's mark stops it sooner, at that many bytes. */
  z.left = total;
  assert_int_equal(desert_reader_begin_stream(r, src, 0), DESERT_OK);
  assert_int_equal(desert_reader_set_max_window(r, (size_t)1 << 20), DESERT_OK);
  assert_int_equal(read_all(r, false, &count), DESERT_E_LIMIT);
  assert_int_equal(count, ((size_t)1 << 20) / 4);
  assert_int_equal(desert_reader_error_offset(r), (size_t)1 << 20);
  /* Marking: the whole stream in a 256 KiB window. */
  z.left = total;
  assert_int_equal(desert_reader_begin_stream(r, src, 0), DESERT_OK);
  assert_int_equal(read_all(r, true, &count), DESERT_OK);
  assert_int_equal(count, total / 4);
  /* SIZE_MAX: no high-water mark beyond max_length (2 GiB by default). */
  z.left = total;
  assert_int_equal(desert_reader_begin_stream(r, src, 0), DESERT_OK);
  assert_int_equal(desert_reader_set_max_window(r, SIZE_MAX), DESERT_OK);
  assert_int_equal(read_all(r, false, &count), DESERT_OK);
  assert_int_equal(count, total / 4);
  desert_reader_free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_large_list_decodes_by_default),
      cmocka_unit_test(test_values_limit_message),
      cmocka_unit_test(test_limits_resolve),
      cmocka_unit_test(test_hostile_count),
      cmocka_unit_test(test_deep_nesting),
      cmocka_unit_test(test_stream_high_water),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
