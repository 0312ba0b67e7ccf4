/* test/test_codec_growth.c — the growable output buffer across many sizes:
 * the same message written by heap and caller-storage writers, with the
 * default allocator (grown with realloc) and with a counting custom
 * allocator (grown by alloc + copy + free), must be the bytes built here
 * from docs/format.md; an allocation failure at any growth leaves a sticky
 * DESERT_E_NOMEM, the bytes before it intact and nothing leaked (the
 * counting allocator's books; ASan in the asan preset), also when the
 * default allocator's realloc or malloc fails.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "codec_testlib.h"
#include "core/writer_internal.h" /* desert_w_reserve_bulk: a request realloc must refuse */
#include "oracle.h"
#include "test_util.h"

/* A request the allocator refuses under ASan too: it returns NULL rather
 * than reporting the size (only this test program; nothing else here
 * allocates anywhere near that much). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GROWTH_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(GROWTH_ASAN)
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

/* ---- the message and its independent encoding ----------------------------------- *
 * Item i: u8 (i), u32 (i * 2654435761, big-endian) or a byte block of a length
 * that grows with i (var_u32 length + bytes, docs/format.md §6.1). The output passes
 * every power of two from 256 bytes to about 4 MiB, so it grows many times. */
#define ITEMS 4000u

static uint8_t pattern[20000];

static size_t block_len(uint32_t i) { return ((size_t)i * 2654435761u >> 7) % ((size_t)i * 4u + 1u); }

/* One var_u32 (docs/format.md §3) through the test oracle's encoder. */
static size_t put_var(uint8_t *o, uint32_t v) { return desert_oracle_var_u32_encode(o, &v, 1); }

/* Writes items [0, n) and returns the writer's status. */
static desert_status write_items(desert_writer *w, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    switch (i % 3) {
    case 0: desert_write_u8(w, (uint8_t)i); break;
    case 1: desert_write_u32(w, i * 2654435761u); break;
    default: desert_write_bytes(w, pattern + i % 97, block_len(i)); break;
    }
  }
  return desert_writer_status(w);
}

/* The expected bytes of items [0, n) (malloc'd; *len its size). */
static uint8_t *expected_items(uint32_t n, size_t *len) {
  size_t cap = 0;
  for (uint32_t i = 0; i < n; i++) cap += 5 + (i % 3 == 2 ? block_len(i) : 0);
  uint8_t *o = malloc(cap + 1);
  assert_non_null(o);
  size_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (i % 3 == 0) {
      o[k++] = (uint8_t)i;
    } else if (i % 3 == 1) {
      uint32_t v = i * 2654435761u;
      o[k++] = (uint8_t)(v >> 24);
      o[k++] = (uint8_t)(v >> 16);
      o[k++] = (uint8_t)(v >> 8);
      o[k++] = (uint8_t)v;
    } else {
      size_t bl = block_len(i);
      k += put_var(o + k, (uint32_t)bl);
      memcpy(o + k, pattern + i % 97, bl);
      k += bl;
    }
  }
  *len = k;
  return o;
}

static int setup(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof pattern; i++) pattern[i] = (uint8_t)(i * 131u + (i >> 5));
  return 0;
}

/* A writer of each kind: heap (desert_writer_create) or in `storage`. */
static desert_writer *new_writer(const desert_options *o, desert_writer_storage *storage) {
  desert_writer *w = NULL;
  desert_status st = storage ? desert_writer_init(storage, sizeof *storage, o, &w)
                             : desert_writer_create(o, &w);
  assert_int_equal(st, DESERT_OK);
  assert_non_null(w);
  return w;
}

/* ---- same bytes through every allocator ----------------------------------------- */

static void test_growth_same_bytes(void **state) {
  (void)state;
  size_t want_len;
  uint8_t *want = expected_items(ITEMS, &want_len);
  assert_true(want_len > (size_t)2 << 20); /* grows past 2 MiB */
  desert_writer_storage storage;
  for (int custom = 0; custom < 2; custom++) {
    for (int in_storage = 0; in_storage < 2; in_storage++) {
      desert_counting_allocator ca;
      desert_options o;
      ct_counting_options(&o, &ca);
      if (!custom) desert_options_init(&o); /* allocator all NULL: malloc/realloc/free */
      desert_writer *w = new_writer(&o, in_storage ? &storage : NULL);
      /* twice: the second message reuses (and may regrow) the buffer */
      for (int round = 0; round < 2; round++) {
        desert_writer_reset(w);
        assert_int_equal(write_items(w, ITEMS), DESERT_OK);
        size_t len;
        const uint8_t *d = desert_writer_data(w, &len);
        desert_assert_bytes_equal(want, want_len, d, len);
        assert_int_equal(desert_writer_size(w), want_len);
      }
      desert_writer_free(w);
      if (custom) {
        /* every doubling from the first heap block up is its own block */
        assert_true(ca.allocs >= 12);
        assert_int_equal(ca.live_blocks, 0);
        assert_int_equal(ca.bad_frees, 0);
      }
    }
  }
  free(want);
}

/* ---- a custom allocator failing at each allocation ------------------------------- */

static void test_growth_nomem_custom(void **state) {
  (void)state;
  size_t want_len;
  uint8_t *want = expected_items(ITEMS, &want_len);
  desert_writer_storage storage;
  for (int in_storage = 0; in_storage < 2; in_storage++) {
    desert_counting_allocator ca;
    desert_options o;
    ct_counting_options(&o, &ca);
    desert_writer *w = new_writer(&o, in_storage ? &storage : NULL);
    assert_int_equal(write_items(w, ITEMS), DESERT_OK);
    desert_writer_free(w);
    const size_t needed = ca.allocs;
    assert_true(needed >= 8);
    /* k allocations succeed (a heap writer's first one is the context) */
    for (size_t k = in_storage ? 0 : 1; k < needed; k++) {
      ct_counting_options(&o, &ca);
      desert_counting_allocator_fail_after(&ca, k);
      w = new_writer(&o, in_storage ? &storage : NULL);
      assert_int_equal(write_items(w, ITEMS), DESERT_E_NOMEM);
      assert_true(ca.failed >= 1);
      /* sticky: later writes fail the same way and add nothing */
      size_t len;
      desert_writer_data(w, &len);
      assert_int_equal(desert_write_u8(w, 1), DESERT_E_NOMEM);
      assert_int_equal(desert_write_bytes(w, pattern, 5000), DESERT_E_NOMEM);
      size_t len2;
      const uint8_t *d = desert_writer_data(w, &len2);
      assert_int_equal(len2, len);
      assert_true(len < want_len);
      if (len) desert_assert_bytes_equal(want, len, d, len);
      desert_writer_free(w);
      assert_int_equal(ca.live_blocks, 0);
      assert_int_equal(ca.bad_frees, 0);
    }
  }
  free(want);
}

/* ---- the default allocator refusing (realloc of an owned buffer, malloc when
 * leaving the inline buffer, and a caller storage's spare passing it on) --------- */

static void refuse_at(desert_writer *w, uint32_t items_before, const uint8_t *want) {
  desert_writer_reset(w);
  assert_int_equal(write_items(w, items_before), DESERT_OK);
  size_t len;
  desert_writer_data(w, &len);
  uint8_t *p = NULL;
  /* far above any memory, well inside the writer's own size guard */
  assert_int_equal(desert_w_reserve_bulk(w, SIZE_MAX / 8, &p), DESERT_E_NOMEM);
  assert_int_equal(desert_writer_status(w), DESERT_E_NOMEM);
  assert_int_equal(desert_write_u32(w, 5), DESERT_E_NOMEM);
  size_t len2;
  const uint8_t *d = desert_writer_data(w, &len2);
  assert_int_equal(len2, len);
  if (len) desert_assert_bytes_equal(want, len, d, len2);
  /* the buffer survived: the next message after a reset is complete */
  desert_writer_reset(w);
  assert_int_equal(write_items(w, 600), DESERT_OK);
  size_t want600;
  uint8_t *e = expected_items(600, &want600);
  d = desert_writer_data(w, &len2);
  desert_assert_bytes_equal(e, want600, d, len2);
  free(e);
}

static void test_growth_nomem_default(void **state) {
  (void)state;
  size_t want_len;
  uint8_t *want = expected_items(ITEMS, &want_len);
  desert_writer_storage storage;
  for (int in_storage = 0; in_storage < 2; in_storage++) {
    desert_writer *w = new_writer(NULL, in_storage ? &storage : NULL);
    refuse_at(w, 0, want);   /* still in the inline buffer */
    refuse_at(w, 2, want);   /* a few bytes in the inline buffer */
    refuse_at(w, 300, want); /* a heap (or storage) buffer of some KiB */
    refuse_at(w, 3000, want); /* megabytes, after many growths */
    desert_writer_free(w);
  }
  free(want);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_growth_same_bytes),
      cmocka_unit_test(test_growth_nomem_custom),
      cmocka_unit_test(test_growth_nomem_default),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
