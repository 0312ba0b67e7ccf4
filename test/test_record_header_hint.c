/* test/test_record_header_hint.c — versioned records written by fresh
 * writers after other writers (the process-wide header size hint that
 * decides the room reserved before chunk 0): whatever size the previous
 * record of the description had, in this writer or another one, in this
 * thread or another, the bytes are docs/format.md §9's, built here. Covers the
 * sequential layout (fields in chunk order) and chunk 0 in place with a
 * buffered later chunk, description-based and plan-based, heap and
 * caller-storage writers.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "desert/record.h"
#include "oracle.h"
#include "test_util.h"

/* a (chunk 0) then b (added in version 1: chunk 1) */
static const desert_field_desc ab_fields[] = {{"a", 0}, {"b", 0}};
static const desert_evolution_step ab_steps[] = {{DESERT_STEP_FIELD_ADDED, "b", true}};
static const desert_record_desc ab_desc = DESERT_RECORD_DESC("AB", ab_fields, ab_steps);
/* b (added: chunk 1) before a (chunk 0): chunk 0 in place, chunk 1 buffered */
static const desert_field_desc ba_fields[] = {{"b", 0}, {"a", 0}};
static const desert_record_desc ba_desc = DESERT_RECORD_DESC("BA", ba_fields, ab_steps);

static void *plan_mem[2][DESERT_RECORD_PLAN_BYTES(2, 1) / sizeof(void *)];
static const desert_record_plan *plans[2];
static const desert_record_desc *const descs[2] = {&ab_desc, &ba_desc};

/* chunk-0 block lengths whose header entries take 1, 2 and 3 bytes */
static const size_t lens[] = {0, 5, 63, 64, 200, 8191, 8192, 20000, 300000};
#define NLENS (sizeof lens / sizeof lens[0])
#define MAXLEN 300000u

static uint8_t pattern[MAXLEN];

/* One var_u32 (docs/format.md §3) through the test oracle's encoder. */
static size_t put_var(uint8_t *o, uint32_t v) { return desert_oracle_var_u32_encode(o, &v, 1); }

/* The record with a = byte block of len bytes, b = u8 0x2a (either field
 * order: a is chunk 0 and b chunk 1 in both): version 1, header var_i32
 * sizes of chunks 0 and 1 (zigzag), chunk 0, chunk 1. */
static size_t expected(uint8_t *o, size_t len) {
  uint8_t c0[8];
  size_t lp = put_var(c0, (uint32_t)len);
  size_t k = 0;
  o[k++] = 1;
  k += put_var(o + k, (uint32_t)(lp + len) * 2u);
  k += put_var(o + k, 1u * 2u);
  memcpy(o + k, c0, lp);
  k += lp;
  memcpy(o + k, pattern, len);
  k += len;
  o[k++] = 0x2a;
  return k;
}

static int setup(void **state) {
  (void)state;
  for (size_t i = 0; i < MAXLEN; i++) pattern[i] = (uint8_t)(i * 7u + (i >> 9));
  for (int i = 0; i < 2; i++)
    if (desert_record_plan_init(descs[i], plan_mem[i], sizeof plan_mem[i], &plans[i])) return 1;
  return 0;
}

/* Writes one record of description di (plan or not) with a block of len. */
static desert_status write_rec(desert_writer *w, int di, bool plan, size_t len) {
  desert_record_writer rw;
  if (plan) desert_record_write_begin_plan(w, plans[di], &rw);
  else desert_record_write_begin(w, descs[di], &rw);
  for (size_t f = 0; f < 2; f++) {
    desert_record_write_field(&rw, f);
    bool is_a = (di == 0) == (f == 0);
    if (is_a) desert_write_bytes(w, pattern, len);
    else desert_write_u8(w, 0x2a);
  }
  return desert_record_write_end(&rw);
}

/* A fresh writer (heap or in storage) writes one record; its bytes must be
 * the expected ones. Returns 0 on success (asserts otherwise; usable from
 * a second thread, which returns 1 instead of asserting). */
static int fresh_record(int di, bool plan, bool in_storage, size_t len, uint8_t *want,
                        bool quiet) {
  desert_writer_storage storage;
  desert_writer *w = NULL;
  desert_status st = in_storage ? desert_writer_init(&storage, sizeof storage, NULL, &w)
                                : desert_writer_create(NULL, &w);
  if (quiet && st) return 1;
  assert_int_equal(st, DESERT_OK);
  st = write_rec(w, di, plan, len);
  size_t n = expected(want, len), got;
  const uint8_t *d = desert_writer_data(w, &got);
  int bad = st != DESERT_OK || got != n || memcmp(d, want, n) != 0;
  if (!quiet) {
    assert_int_equal(st, DESERT_OK);
    desert_assert_bytes_equal(want, n, d, got);
  }
  desert_writer_free(w);
  return bad;
}

/* Every ordered pair of sizes: a writer writes the first (and is freed), a
 * fresh one the second. */
static void test_fresh_after_other_sizes(void **state) {
  (void)state;
  uint8_t *want = malloc(MAXLEN + 64);
  assert_non_null(want);
  for (int di = 0; di < 2; di++) {
    for (int plan = 0; plan < 2; plan++) {
      for (size_t i = 0; i < NLENS; i++) {
        for (size_t j = 0; j < NLENS; j++) {
          fresh_record(di, plan, (i + j) % 2, lens[i], want, false);
          fresh_record(di, !plan, (i + j + 1) % 2, lens[j], want, false);
        }
      }
    }
  }
  free(want);
}

/* One writer, records of changing sizes in a row and nested in a message
 * with other bytes before them (its own pool's hints, then a fresh writer
 * for the next size). */
static void test_reused_then_fresh(void **state) {
  (void)state;
  uint8_t *want = malloc(MAXLEN + 64);
  assert_non_null(want);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  for (size_t i = 0; i < NLENS; i++) {
    for (int di = 0; di < 2; di++) {
      desert_writer_reset(w);
      desert_write_u8(w, 0x11);
      assert_int_equal(write_rec(w, di, i % 2, lens[i]), DESERT_OK);
      size_t n = expected(want + 1, lens[i]) + 1, got;
      want[0] = 0x11;
      const uint8_t *d = desert_writer_data(w, &got);
      desert_assert_bytes_equal(want, n, d, got);
      fresh_record(di, i % 2 == 0, true, lens[NLENS - 1 - i], want, false);
    }
  }
  desert_writer_free(w);
  free(want);
}

/* Two threads write fresh records of the same descriptions with sizes whose
 * headers differ, so the shared hints change under each other. */
typedef struct worker {
  unsigned id;
  int bad;
} worker;

static int work(void *arg) {
  worker *k = arg;
  uint8_t *want = malloc(MAXLEN + 64);
  if (!want) {
    k->bad = 1;
    return 0;
  }
  for (unsigned it = 0; it < 300 && !k->bad; it++) {
    size_t len = lens[(it * 5u + k->id * 3u) % 8u]; /* up to 20000 */
    k->bad = fresh_record((int)(it % 2), (it / 2) % 2, (it / 4 + k->id) % 2, len, want, true);
  }
  free(want);
  return 0;
}

static void test_threads_share_hints(void **state) {
  (void)state;
  worker ws[2] = {{0, 0}, {1, 0}};
  thrd_t t;
  assert_int_equal(thrd_create(&t, work, &ws[1]), thrd_success);
  work(&ws[0]);
  assert_int_equal(thrd_join(t, NULL), thrd_success);
  assert_int_equal(ws[0].bad, 0);
  assert_int_equal(ws[1].bad, 0);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fresh_after_other_sizes),
      cmocka_unit_test(test_reused_then_fresh),
      cmocka_unit_test(test_threads_share_hints),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
