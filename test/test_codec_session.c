/* test/test_codec_session.c — the per-context tables: DeduplicatedString
 * (docs/format.md §5.2: ids from 1, back-references as var_i32(-id), the example
 * stream both ways) and object references (docs/format.md §17: ids from 1, cyclic graphs,
 * unknown ids), and how writer reset / reader begin clear them while keeping
 * their memory (checked with a counting allocator).
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/reader.h"
#include "desert/writer.h"
#include "codec_testlib.h"
#include "test_util.h"

/* ---- helpers ---------------------------------------------------------------- */

static void expect_str(desert_str s, const char *want) {
  size_t n = strlen(want);
  desert_assert_bytes_equal(want, n, s.ptr, s.len);
}

static desert_status wdedup(desert_writer *w, const char *s) {
  return desert_write_dedup_string(w, s, strlen(s));
}

/* ---- DeduplicatedString (docs/format.md §5.2) ---------------------------------------- */

static void test_dedup_example_write(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(wdedup(w, "same"), DESERT_OK);
  assert_int_equal(wdedup(w, "other"), DESERT_OK);
  assert_int_equal(wdedup(w, "same"), DESERT_OK);
  assert_int_equal(wdedup(w, "other"), DESERT_OK);
  ct_expect_out(w, "08 73 61 6d 65 | 0a 6f 74 68 65 72 | 01 | 03");
  desert_writer_free(w);
}

static void test_dedup_example_read(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  uint8_t buf[32];
  size_t n = ct_begin_hex(r, "08 73 61 6d 65 | 0a 6f 74 68 65 72 | 01 | 03", buf, sizeof buf);
  desert_str s1, s2, s3, s4;
  assert_int_equal(desert_read_dedup_string(r, &s1), DESERT_OK);
  expect_str(s1, "same");
  assert_ptr_equal(s1.ptr, (const char *)buf + 1);
  assert_int_equal(desert_read_dedup_string(r, &s2), DESERT_OK);
  expect_str(s2, "other");
  assert_int_equal(desert_read_dedup_string(r, &s3), DESERT_OK);
  expect_str(s3, "same");
  assert_int_equal(desert_reader_offset(r), 12);
  assert_int_equal(desert_read_dedup_string(r, &s4), DESERT_OK);
  expect_str(s4, "other");
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), n);
  desert_reader_free(r);
}

/* id k is written as var_i32(-k): 1 -> 01, 2 -> 03, 3 -> 05, 64 -> 7f, 65 -> 81 01 */
static void test_dedup_id_encoding(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  char name[16];
  for (int i = 1; i <= 65; i++) {
    snprintf(name, sizeof name, "s%d", i);
    assert_int_equal(wdedup(w, name), DESERT_OK);
  }
  size_t before = desert_writer_size(w);
  assert_int_equal(wdedup(w, "s64"), DESERT_OK);
  assert_int_equal(wdedup(w, "s65"), DESERT_OK);
  assert_int_equal(wdedup(w, "s1"), DESERT_OK);
  assert_int_equal(wdedup(w, "s2"), DESERT_OK);
  assert_int_equal(wdedup(w, "s3"), DESERT_OK);
  assert_int_equal(wdedup(w, "s66"), DESERT_OK); /* new: id 66, full text */
  assert_int_equal(wdedup(w, "s66"), DESERT_OK); /* -66 -> 131 -> 83 01 */
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint8_t want[] = {0x7f, 0x81, 0x01, 0x01, 0x03, 0x05, 0x06, 's', '6', '6', 0x83, 0x01};
  desert_assert_bytes_equal(want, sizeof want, d + before, len - before);

  /* and the reader resolves every one of them */
  desert_reader *r = ct_new_reader(0);
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  desert_str s;
  for (int i = 1; i <= 65; i++) {
    snprintf(name, sizeof name, "s%d", i);
    assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
    expect_str(s, name);
  }
  const char *rest[] = {"s64", "s65", "s1", "s2", "s3", "s66", "s66"};
  for (size_t i = 0; i < 7; i++) {
    assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
    expect_str(s, rest[i]);
  }
  assert_int_equal(desert_reader_remaining(r), 0);
  desert_reader_free(r);
  desert_writer_free(w);
}

static void test_dedup_empty_string_has_an_id(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(wdedup(w, ""), DESERT_OK);
  assert_int_equal(wdedup(w, ""), DESERT_OK);
  assert_int_equal(wdedup(w, "a"), DESERT_OK);
  assert_int_equal(desert_write_dedup_string(w, NULL, 0), DESERT_OK);
  assert_int_equal(wdedup(w, "a"), DESERT_OK);
  ct_expect_out(w, "00 | 01 | 02 61 | 01 | 03");
  desert_reader *r = ct_new_reader(0);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  desert_str s;
  const char *want[] = {"", "", "a", "", "a"};
  for (int i = 0; i < 5; i++) {
    assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
    expect_str(s, want[i]);
  }
  assert_int_equal(desert_reader_remaining(r), 0);
  desert_reader_free(r);
  desert_writer_free(w);
}

/* Plain strings never touch the table (docs/format.md §5.2). */
static void test_plain_strings_do_not_register(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(desert_write_cstring(w, "a"), DESERT_OK);
  assert_int_equal(wdedup(w, "a"), DESERT_OK);
  assert_int_equal(desert_write_cstring(w, "a"), DESERT_OK);
  assert_int_equal(wdedup(w, "a"), DESERT_OK);
  ct_expect_out(w, "02 61 | 02 61 | 02 61 | 01");
  desert_writer_free(w);

  desert_reader *r = ct_new_reader(0);
  uint8_t buf[8];
  ct_begin_hex(r, "02 61 | 01", buf, sizeof buf);
  desert_str s;
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  expect_str(s, "a");
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  ct_expect_error(r, DESERT_E_INVALID_STRING_ID, 2);
  desert_reader_free(r);
}

/* A full string may appear again; registering it again gives no new id. */
static void test_dedup_full_string_again(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  uint8_t buf[64];
  size_t n = ct_begin_hex(r, "08 73 61 6d 65 | 08 73 61 6d 65 | 0a 6f 74 68 65 72 | 03 | 01", buf,
                          sizeof buf);
  desert_str s;
  const char *want[] = {"same", "same", "other", "other", "same"};
  for (int i = 0; i < 5; i++) {
    assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
    expect_str(s, want[i]);
  }
  assert_int_equal(desert_reader_offset(r), n);
  /* so "same same" defines only id 1, and 03 (id 2) is unknown */
  ct_begin_hex(r, "08 73 61 6d 65 | 08 73 61 6d 65 | 03", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  ct_expect_error(r, DESERT_E_INVALID_STRING_ID, 10);
  desert_reader_free(r);
}

/* The writer's table copies the text: the caller may reuse its buffer. */
static void test_dedup_writer_copies_text(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  char buf[8];
  memcpy(buf, "abc", 4);
  assert_int_equal(desert_write_dedup_string(w, buf, 3), DESERT_OK);
  memcpy(buf, "xyz", 4);
  assert_int_equal(desert_write_dedup_string(w, buf, 3), DESERT_OK);
  assert_int_equal(wdedup(w, "abc"), DESERT_OK);
  assert_int_equal(wdedup(w, "xyz"), DESERT_OK);
  /* prefixes and extensions are different strings */
  assert_int_equal(wdedup(w, "ab"), DESERT_OK);
  assert_int_equal(wdedup(w, "abcd"), DESERT_OK);
  ct_expect_out(w, "06 61 62 63 | 06 78 79 7a | 01 | 03 | 04 61 62 | 08 61 62 63 64");
  desert_writer_free(w);
}

static void test_dedup_unknown_ids(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  uint8_t buf[32];
  desert_str s = {"keep", 4};
  /* empty table */
  ct_begin_hex(r, "01", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  ct_expect_error(r, DESERT_E_INVALID_STRING_ID, 0);
  expect_str(s, "keep");
  /* -2^31: ff ff ff ff 0f, -n does not fit in 32 bits */
  ct_begin_hex(r, "00 | ff ff ff ff 0f", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  ct_expect_error(r, DESERT_E_INVALID_STRING_ID, 1);
  /* -(2^31-1): fd ff ff ff 0f */
  ct_begin_hex(r, "02 61 | fd ff ff ff 0f", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  ct_expect_error(r, DESERT_E_INVALID_STRING_ID, 2);
  /* one past the last id */
  ct_begin_hex(r, "02 61 | 02 62 | 01 | 03 | 05", buf, sizeof buf);
  for (int i = 0; i < 4; i++) assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  expect_str(s, "b");
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  ct_expect_error(r, DESERT_E_INVALID_STRING_ID, 6);
  expect_str(s, "b");
  desert_reader_free(r);
}

/* Thousands of strings: ids stay consecutive through table growth. */
static void test_dedup_many_strings(void **state) {
  (void)state;
  enum { N = 5000 };
  desert_writer *w = ct_new_writer(0);
  char name[64];
  desert_rng g;
  desert_rng_init_test(&g, 0xdedu);
  uint32_t *order = malloc(N * sizeof *order);
  assert_non_null(order);
  for (uint32_t i = 0; i < N; i++) {
    snprintf(name, sizeof name, "string-%u-%s", i, i % 3 ? "long-suffix-to-pass-8-bytes" : "");
    assert_int_equal(wdedup(w, name), DESERT_OK);
    order[i] = desert_rng_below(&g, N);
  }
  size_t full = desert_writer_size(w);
  for (uint32_t i = 0; i < N; i++) {
    snprintf(name, sizeof name, "string-%u-%s", order[i],
             order[i] % 3 ? "long-suffix-to-pass-8-bytes" : "");
    assert_int_equal(wdedup(w, name), DESERT_OK);
  }
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  /* the second half is only back-references: var_i32(-(order+1)) */
  desert_reader *r = ct_new_reader(0);
  assert_int_equal(desert_reader_begin(r, d + full, len - full), DESERT_OK);
  for (uint32_t i = 0; i < N; i++) {
    uint32_t u;
    assert_int_equal(desert_read_var_u32(r, &u), DESERT_OK);
    assert_int_equal(u, 2u * (order[i] + 1) - 1); /* zig-zag of a negative */
  }
  assert_int_equal(desert_reader_remaining(r), 0);
  /* the whole stream reads back */
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  desert_str s;
  for (uint32_t i = 0; i < 2 * N; i++) {
    uint32_t k = i < N ? i : order[i - N];
    snprintf(name, sizeof name, "string-%u-%s", k, k % 3 ? "long-suffix-to-pass-8-bytes" : "");
    assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
    expect_str(s, name);
  }
  assert_int_equal(desert_reader_remaining(r), 0);
  free(order);
  desert_reader_free(r);
  desert_writer_free(w);
}

/* Strings that differ in one byte at any position, at every length up to
 * 40 (the table compares short strings word by word, long ones with
 * memcmp): each is its own entry, and each written again is a reference
 * to its own id. */
static void test_dedup_near_equal_strings(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  for (size_t len = 1; len <= 40; len++) {
    for (size_t at = 0; at < len; at++) {
      char base[41], other[41];
      for (size_t i = 0; i < len; i++) base[i] = (char)('a' + i % 26);
      memcpy(other, base, len);
      other[at] = base[at] == 'z' ? 'y' : (char)(base[at] + 1);
      desert_writer *w = ct_new_writer(0);
      assert_int_equal(desert_write_dedup_string(w, base, len), DESERT_OK);
      assert_int_equal(desert_write_dedup_string(w, other, len), DESERT_OK);
      size_t full = desert_writer_size(w);
      assert_int_equal(full, 2 * (1 + len)); /* two new strings, one-byte lengths */
      assert_int_equal(desert_write_dedup_string(w, base, len), DESERT_OK);
      assert_int_equal(desert_write_dedup_string(w, other, len), DESERT_OK);
      size_t n;
      const uint8_t *d = desert_writer_data(w, &n);
      assert_int_equal(n, full + 2);
      assert_int_equal(d[full], 1);     /* zig-zag of -1: the first id */
      assert_int_equal(d[full + 1], 3); /* of -2: the second */
      assert_int_equal(desert_reader_begin(r, d, n), DESERT_OK);
      desert_str s;
      for (int k = 0; k < 4; k++) {
        assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
        assert_int_equal(s.len, len);
        assert_memory_equal(s.ptr, k % 2 ? other : base, len);
      }
      desert_writer_free(w);
    }
  }
  desert_reader_free(r);
}

/* Lenient UTF-8: the replaced text is what the table holds. */
static void test_dedup_lenient_replacement(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(DESERT_OPT_LENIENT_UTF8);
  uint8_t buf[16];
  ct_begin_hex(r, "06 61 80 62 | 01 | 0a 61 ef bf bd 62", buf, sizeof buf);
  desert_str s1, s2, s3;
  assert_int_equal(desert_read_dedup_string(r, &s1), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s2), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s3), DESERT_OK);
  expect_str(s1, "a\xef\xbf\xbd" "b");
  expect_str(s2, "a\xef\xbf\xbd" "b");
  expect_str(s3, "a\xef\xbf\xbd" "b");
  /* the valid full text equals the replaced one: no new id, so 03 is unknown */
  desert_reader_free(r);
  r = ct_new_reader(DESERT_OPT_LENIENT_UTF8);
  ct_begin_hex(r, "06 61 80 62 | 0a 61 ef bf bd 62 | 03", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s1), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s2), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s3), DESERT_E_INVALID_STRING_ID);
  ct_expect_error(r, DESERT_E_INVALID_STRING_ID, 10);
  desert_reader_free(r);
}

static void test_dedup_max_length(void **state) {
  (void)state;
  desert_options o;
  desert_options_init(&o);
  o.max_length = 4;
  desert_reader *r = ct_new_reader_opt(&o);
  uint8_t buf[32];
  desert_str s;
  ct_begin_hex(r, "08 73 61 6d 65 | 01", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  expect_str(s, "same");
  ct_begin_hex(r, "ff | 0a 6f 74 68 65 72", buf, sizeof buf);
  uint8_t b;
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_LIMIT);
  ct_expect_error(r, DESERT_E_LIMIT, 1);
  desert_reader_free(r);
}

/* ---- writer reset / reader begin -------------------------------------------------- */

static void test_writer_reset_restarts_ids(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  assert_int_equal(wdedup(w, "same"), DESERT_OK);
  assert_int_equal(wdedup(w, "same"), DESERT_OK);
  ct_expect_out(w, "08 73 61 6d 65 | 01");
  desert_writer_reset(w);
  assert_int_equal(desert_writer_size(w), 0);
  assert_int_equal(wdedup(w, "other"), DESERT_OK);
  assert_int_equal(wdedup(w, "same"), DESERT_OK);
  assert_int_equal(wdedup(w, "same"), DESERT_OK);
  assert_int_equal(wdedup(w, "other"), DESERT_OK);
  ct_expect_out(w, "0a 6f 74 68 65 72 | 08 73 61 6d 65 | 03 | 01");
  /* switching output modes resets too */
  uint8_t fixed[64];
  assert_int_equal(desert_writer_use_buffer(w, fixed, sizeof fixed), DESERT_OK);
  assert_int_equal(wdedup(w, "same"), DESERT_OK);
  ct_expect_out(w, "08 73 61 6d 65");
  desert_writer_use_growable(w);
  assert_int_equal(wdedup(w, "same"), DESERT_OK);
  ct_expect_out(w, "08 73 61 6d 65");
  desert_writer_free(w);
}

typedef struct node {
  int32_t value;
  struct node *next;
} node;

static void write_node(desert_writer *w, const node *n) {
  bool is_new = false;
  assert_int_equal(desert_write_ref(w, n, &is_new), DESERT_OK);
  if (!is_new) return;
  assert_int_equal(desert_write_i32(w, n->value), DESERT_OK);
  assert_int_equal(desert_write_option(w, n->next != NULL), DESERT_OK);
  if (n->next) write_node(w, n->next);
}

/* One message mixing dedup strings and references, used to compare two
 * identical writes. */
static void write_message(desert_writer *w, node *nodes, size_t count) {
  char name[64];
  for (size_t i = 0; i < 200; i++) {
    snprintf(name, sizeof name, "name-%zu", i % 70);
    assert_int_equal(wdedup(w, name), DESERT_OK);
  }
  for (size_t i = 0; i < count; i++) write_node(w, &nodes[i]);
  uint8_t blob[5000];
  memset(blob, 0x42, sizeof blob);
  assert_int_equal(desert_write_bytes(w, blob, sizeof blob), DESERT_OK);
}

static void test_writer_reset_keeps_memory(void **state) {
  (void)state;
  enum { NODES = 300 };
  node *nodes = calloc(NODES, sizeof *nodes);
  assert_non_null(nodes);
  for (size_t i = 0; i < NODES; i++) {
    nodes[i].value = (int32_t)i;
    nodes[i].next = &nodes[(i * 7 + 3) % NODES];
  }
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_writer *w = ct_new_writer_opt(&o);
  write_message(w, nodes, NODES);
  size_t len1;
  const uint8_t *d = desert_writer_data(w, &len1);
  uint8_t *first = malloc(len1);
  assert_non_null(first);
  memcpy(first, d, len1);
  size_t allocs = ca.allocs, live = ca.live_bytes;
  for (int round = 0; round < 3; round++) {
    desert_writer_reset(w);
    assert_int_equal(desert_writer_size(w), 0);
    write_message(w, nodes, NODES);
    size_t len2;
    d = desert_writer_data(w, &len2);
    desert_assert_bytes_equal(first, len1, d, len2);
    assert_int_equal(ca.allocs, allocs);
    assert_int_equal(ca.live_bytes, live);
  }
  desert_writer_free(w);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
  free(first);
  free(nodes);
}

static node *read_node(desert_reader *r, node *pool, size_t *used, size_t cap) {
  void *obj = (void *)1;
  assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
  if (obj != NULL) return obj;
  assert_true(*used < cap);
  node *n = &pool[(*used)++];
  /* register before reading the children, so cycles resolve */
  assert_int_equal(desert_reader_register_ref(r, n), DESERT_OK);
  assert_int_equal(desert_read_i32(r, &n->value), DESERT_OK);
  bool has_next;
  assert_int_equal(desert_read_option(r, &has_next), DESERT_OK);
  n->next = has_next ? read_node(r, pool, used, cap) : NULL;
  return n;
}

static void test_reader_begin_clears_tables_keeps_memory(void **state) {
  (void)state;
  enum { NODES = 300 };
  node *nodes = calloc(NODES, sizeof *nodes), *pool = calloc(NODES, sizeof *pool);
  assert_non_null(nodes);
  assert_non_null(pool);
  for (size_t i = 0; i < NODES; i++) {
    nodes[i].value = (int32_t)i;
    nodes[i].next = &nodes[(i * 7 + 3) % NODES];
  }
  desert_writer *w = ct_new_writer(DESERT_OPT_LENIENT_UTF8);
  write_message(w, nodes, NODES);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);

  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  o.flags = DESERT_OPT_LENIENT_UTF8;
  desert_reader *r = ct_new_reader_opt(&o);
  size_t allocs = 0;
  for (int round = 0; round < 4; round++) {
    assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
    desert_str s;
    char name[64];
    for (size_t i = 0; i < 200; i++) {
      snprintf(name, sizeof name, "name-%zu", i % 70);
      assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
      expect_str(s, name);
    }
    size_t used = 0;
    for (size_t i = 0; i < NODES; i++) {
      node *n = read_node(r, pool, &used, NODES);
      assert_int_equal(n->value, (int32_t)i);
    }
    assert_int_equal(used, NODES);
    for (size_t i = 0; i < NODES; i++) assert_non_null(pool[i].next);
    desert_bytes b;
    assert_int_equal(desert_read_bytes(r, &b), DESERT_OK);
    assert_int_equal(b.len, 5000);
    assert_int_equal(desert_reader_remaining(r), 0);
    if (round == 0) allocs = ca.allocs;
    else assert_int_equal(ca.allocs, allocs); /* warm reader: no allocation */
  }
  /* after begin, the previous message's ids are gone */
  uint8_t buf[8];
  ct_begin_hex(r, "01", buf, sizeof buf);
  desert_str s;
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  ct_expect_error(r, DESERT_E_INVALID_STRING_ID, 0);
  ct_begin_hex(r, "01", buf, sizeof buf);
  void *obj = NULL;
  assert_int_equal(desert_read_ref(r, &obj), DESERT_E_INVALID_REF_ID);
  ct_expect_error(r, DESERT_E_INVALID_REF_ID, 0);
  /* reset forgets them too */
  ct_begin_hex(r, "08 73 61 6d 65", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  desert_reader_reset(r);
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_reader_remaining(r), 0);
  ct_begin_hex(r, "01", buf, sizeof buf);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
  desert_writer_free(w);
  free(nodes);
  free(pool);
}

/* ---- object references (docs/format.md §17) ---------------------------------------- */

static void test_ref_ids(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  int a, b, c;
  bool is_new = false;
  assert_int_equal(desert_write_ref(w, &a, &is_new), DESERT_OK);
  assert_true(is_new);
  assert_int_equal(desert_write_ref(w, &b, &is_new), DESERT_OK);
  assert_true(is_new);
  assert_int_equal(desert_write_ref(w, &a, &is_new), DESERT_OK);
  assert_false(is_new);
  assert_int_equal(desert_write_ref(w, &b, &is_new), DESERT_OK);
  assert_false(is_new);
  assert_int_equal(desert_write_ref(w, &c, &is_new), DESERT_OK);
  assert_true(is_new);
  assert_int_equal(desert_write_ref(w, &c, &is_new), DESERT_OK);
  assert_false(is_new);
  ct_expect_out(w, "00 00 01 02 00 03");
  /* reset clears the table */
  desert_writer_reset(w);
  assert_int_equal(desert_write_ref(w, &c, &is_new), DESERT_OK);
  assert_true(is_new);
  assert_int_equal(desert_write_ref(w, &c, &is_new), DESERT_OK);
  assert_false(is_new);
  ct_expect_out(w, "00 01");
  desert_writer_free(w);
}

/* Cyclic graph: a -> b -> c -> a, and d -> d. */
static void test_ref_cyclic_graph(void **state) {
  (void)state;
  node n[4];
  n[0] = (node){10, &n[1]};
  n[1] = (node){20, &n[2]};
  n[2] = (node){30, &n[0]};
  n[3] = (node){40, &n[3]};
  desert_writer *w = ct_new_writer(0);
  write_node(w, &n[0]);
  write_node(w, &n[3]);
  write_node(w, &n[2]); /* already known: id 3 */
  ct_expect_out(w, "00 00 00 00 0a 01 | 00 00 00 00 14 01 | 00 00 00 00 1e 01 | 01 |"
                   " 00 00 00 00 28 01 | 04 | 03");
  desert_reader *r = ct_new_reader(0);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  node pool[8];
  size_t used = 0;
  node *a = read_node(r, pool, &used, 8);
  node *dd = read_node(r, pool, &used, 8);
  node *c = read_node(r, pool, &used, 8);
  assert_int_equal(used, 4);
  assert_int_equal(a->value, 10);
  assert_int_equal(a->next->value, 20);
  assert_int_equal(a->next->next->value, 30);
  assert_ptr_equal(a->next->next->next, a);
  assert_ptr_equal(c, a->next->next);
  assert_int_equal(dd->value, 40);
  assert_ptr_equal(dd->next, dd);
  assert_int_equal(desert_reader_remaining(r), 0);
  desert_reader_free(r);
  desert_writer_free(w);
}

static void test_ref_unknown_ids(void **state) {
  (void)state;
  desert_reader *r = ct_new_reader(0);
  uint8_t buf[16];
  void *obj = (void *)&buf;
  ct_begin_hex(r, "01", buf, sizeof buf);
  assert_int_equal(desert_read_ref(r, &obj), DESERT_E_INVALID_REF_ID);
  ct_expect_error(r, DESERT_E_INVALID_REF_ID, 0);
  assert_ptr_equal(obj, (void *)&buf);
  int x;
  ct_begin_hex(r, "00 | 01 | 02", buf, sizeof buf);
  assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
  assert_null(obj);
  assert_int_equal(desert_reader_register_ref(r, &x), DESERT_OK);
  assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
  assert_ptr_equal(obj, &x);
  assert_int_equal(desert_read_ref(r, &obj), DESERT_E_INVALID_REF_ID);
  ct_expect_error(r, DESERT_E_INVALID_REF_ID, 2);
  assert_ptr_equal(obj, &x);
  ct_begin_hex(r, "ff ff ff ff 0f", buf, sizeof buf);
  assert_int_equal(desert_read_ref(r, &obj), DESERT_E_INVALID_REF_ID);
  ct_expect_error(r, DESERT_E_INVALID_REF_ID, 0);
  /* an overlong 0 still means "new object follows" */
  ct_begin_hex(r, "80 00", buf, sizeof buf);
  assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
  assert_null(obj);
  assert_int_equal(desert_reader_offset(r), 2);
  desert_reader_free(r);
}

/* The string table and the reference table are independent. */
static void test_tables_independent(void **state) {
  (void)state;
  desert_writer *w = ct_new_writer(0);
  int a;
  bool is_new;
  assert_int_equal(wdedup(w, "x"), DESERT_OK);
  assert_int_equal(desert_write_ref(w, &a, &is_new), DESERT_OK);
  assert_true(is_new);
  assert_int_equal(wdedup(w, "x"), DESERT_OK);
  assert_int_equal(desert_write_ref(w, &a, &is_new), DESERT_OK);
  assert_false(is_new);
  ct_expect_out(w, "02 78 | 00 | 01 | 01");
  desert_reader *r = ct_new_reader(0);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  desert_str s;
  void *obj;
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
  assert_null(obj);
  assert_int_equal(desert_reader_register_ref(r, &a), DESERT_OK);
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
  expect_str(s, "x");
  assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
  assert_ptr_equal(obj, &a);
  desert_reader_free(r);
  desert_writer_free(w);
}

/* Many objects: ids consecutive through table growth, both directions. */
static void test_ref_many_objects(void **state) {
  (void)state;
  enum { N = 4000 };
  char *objs = malloc(N);
  assert_non_null(objs);
  desert_writer *w = ct_new_writer(0);
  bool is_new;
  for (size_t i = 0; i < N; i++) {
    assert_int_equal(desert_write_ref(w, &objs[i], &is_new), DESERT_OK);
    assert_true(is_new);
  }
  size_t first = desert_writer_size(w);
  assert_int_equal(first, N);
  for (size_t i = N; i-- > 0;) {
    assert_int_equal(desert_write_ref(w, &objs[i], &is_new), DESERT_OK);
    assert_false(is_new);
  }
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  desert_reader *r = ct_new_reader(0);
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  void *obj;
  for (size_t i = 0; i < N; i++) {
    assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
    assert_null(obj);
    assert_int_equal(desert_reader_register_ref(r, &objs[i]), DESERT_OK);
  }
  for (size_t i = N; i-- > 0;) {
    uint32_t id;
    assert_int_equal(desert_read_var_u32(r, &id), DESERT_OK);
    assert_int_equal(id, i + 1);
  }
  /* and through read_ref */
  assert_int_equal(desert_reader_begin(r, d, len), DESERT_OK);
  for (size_t i = 0; i < N; i++) {
    assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
    assert_int_equal(desert_reader_register_ref(r, &objs[i]), DESERT_OK);
  }
  for (size_t i = N; i-- > 0;) {
    assert_int_equal(desert_read_ref(r, &obj), DESERT_OK);
    assert_ptr_equal(obj, &objs[i]);
  }
  assert_int_equal(desert_reader_remaining(r), 0);
  desert_reader_free(r);
  desert_writer_free(w);
  free(objs);
}

int main(void) {
  desert_test_check_expected_isa();
  (void)desert_test_seed();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dedup_near_equal_strings),
      cmocka_unit_test(test_dedup_example_write),
      cmocka_unit_test(test_dedup_example_read),
      cmocka_unit_test(test_dedup_id_encoding),
      cmocka_unit_test(test_dedup_empty_string_has_an_id),
      cmocka_unit_test(test_plain_strings_do_not_register),
      cmocka_unit_test(test_dedup_full_string_again),
      cmocka_unit_test(test_dedup_writer_copies_text),
      cmocka_unit_test(test_dedup_unknown_ids),
      cmocka_unit_test(test_dedup_many_strings),
      cmocka_unit_test(test_dedup_lenient_replacement),
      cmocka_unit_test(test_dedup_max_length),
      cmocka_unit_test(test_writer_reset_restarts_ids),
      cmocka_unit_test(test_writer_reset_keeps_memory),
      cmocka_unit_test(test_reader_begin_clears_tables_keeps_memory),
      cmocka_unit_test(test_ref_ids),
      cmocka_unit_test(test_ref_cyclic_graph),
      cmocka_unit_test(test_ref_unknown_ids),
      cmocka_unit_test(test_tables_independent),
      cmocka_unit_test(test_ref_many_objects),
  };
  return cmocka_run_group_tests_name("codec_session", tests, NULL, NULL);
}
