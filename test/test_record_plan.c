/* test/test_record_plan.c — prepared record plans (record.h) against the
 * description-based calls: the plan API itself (sizes, caller storage,
 * allocation, tuple plans, misuse), byte-exact output where the writer's
 * in-place chunk 0 must move (header larger or smaller than the room it
 * reserved, nested records, every output mode), a differential run of
 * both paths over an evolving record family with random values, every
 * writer mode and option, and seeded random mutations of the messages
 * (same bytes, statuses, offsets, actions and values), the plan member of
 * C-struct descriptors, and DeduplicatedString ids through the last-seen
 * shortcut. Expected bytes are built here from docs/format.md, not taken from
 * the library's output.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/types.h"
#include "record_testlib.h"
#include "test_util.h"

/* ---- independent encoders (docs/format.md §3, §5) ------------------------------------ */

static size_t put_var(uint8_t *o, uint32_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    o[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  o[n++] = (uint8_t)v;
  return n;
}
static uint32_t zz(int32_t v) { return ((uint32_t)v << 1) ^ (uint32_t)(v >> 31); }
static size_t put_i32(uint8_t *o, int32_t v) {
  uint32_t u = (uint32_t)v;
  o[0] = (uint8_t)(u >> 24);
  o[1] = (uint8_t)(u >> 16);
  o[2] = (uint8_t)(u >> 8);
  o[3] = (uint8_t)u;
  return 4;
}
static size_t put_str(uint8_t *o, const char *s, size_t len) {
  size_t n = put_var(o, zz((int32_t)len));
  memcpy(o + n, s, len);
  return n + len;
}

/* ---- the plan API ------------------------------------------------------------------ */

static const desert_field_desc pt_f[] = {{"x", 0}, {"label", DESERT_FIELD_OPTIONAL}, {"y", 0}};
static const desert_evolution_step pt_s[] = {{DESERT_STEP_FIELD_ADDED, "label", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "label", false}};
static const desert_record_desc pt_d = DESERT_RECORD_DESC("PointV3", pt_f, pt_s);

static const desert_field_desc dup_f[] = {{"x", 0}, {"x", 0}};
static const desert_record_desc dup_d = DESERT_RECORD_DESC_V0("Dup", dup_f);

static void test_plan_api(void **state) {
  (void)state;
  /* sizes: 0 for a refused description; the macro bounds the exact size */
  assert_int_equal(desert_record_plan_size(NULL), 0);
  assert_int_equal(desert_record_plan_size(&dup_d), 0);
  size_t n = desert_record_plan_size(&pt_d);
  assert_true(n > 0);
  assert_true(n <= DESERT_RECORD_PLAN_BYTES(3, 2));
  assert_int_equal(DESERT_RECORD_PLAN_BYTES(3, 2) % 8, 0);
  for (size_t a = 1; a <= DESERT_TUPLE_MAX_ARITY; a++)
    assert_true(desert_record_plan_size(desert_tuple_desc(a)) <= DESERT_RECORD_PLAN_BYTES(a, 0));

  /* caller storage */
  static void *mem[DESERT_RECORD_PLAN_BYTES(3, 2) / sizeof(void *) + 1];
  const desert_record_plan *p = desert_tuple_plan(1); /* must be reset to NULL */
  assert_int_equal(desert_record_plan_init(&pt_d, mem, n - 1, &p), DESERT_E_DST_TOO_SMALL);
  assert_null(p);
  assert_int_equal(desert_record_plan_init(&pt_d, (char *)mem + 1, n, &p), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_plan_init(&pt_d, NULL, n, &p), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_plan_init(&dup_d, mem, sizeof mem, &p), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_plan_init(&pt_d, mem, n, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_plan_init(&pt_d, mem, n, &p), DESERT_OK);
  assert_ptr_equal(desert_record_plan_desc(p), &pt_d);
  assert_true((const void *)p == (const void *)mem);
  desert_record_plan_free((desert_record_plan *)(uintptr_t)p); /* not allocated: left alone */
  assert_ptr_equal(desert_record_plan_desc(p), &pt_d);

  /* allocated, through the caller's allocator */
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_record_plan *q = NULL;
  assert_int_equal(desert_record_plan_create(&dup_d, &ca.allocator, &q), DESERT_E_ARGUMENT);
  assert_null(q);
  assert_int_equal(desert_record_plan_create(&pt_d, &ca.allocator, NULL), DESERT_E_ARGUMENT);
  desert_counting_allocator_fail_after(&ca, 0);
  assert_int_equal(desert_record_plan_create(&pt_d, &ca.allocator, &q), DESERT_E_NOMEM);
  assert_null(q);
  desert_counting_allocator_fail_after(&ca, SIZE_MAX);
  assert_int_equal(desert_record_plan_create(&pt_d, &ca.allocator, &q), DESERT_OK);
  assert_int_equal(ca.live_blocks, 1);
  assert_ptr_equal(desert_record_plan_desc(q), &pt_d);
  desert_record_plan_free(q);
  desert_record_plan_free(NULL);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);

  /* tuple plans */
  assert_null(desert_tuple_plan(0));
  assert_null(desert_tuple_plan(DESERT_TUPLE_MAX_ARITY + 1));
  for (size_t a = 1; a <= DESERT_TUPLE_MAX_ARITY; a++)
    assert_ptr_equal(desert_record_plan_desc(desert_tuple_plan(a)), desert_tuple_desc(a));
  assert_null(desert_record_plan_desc(NULL));

  /* a NULL plan: DESERT_E_ARGUMENT, recorded in the context */
  desert_writer *w = rt_writer(0);
  desert_record_writer rw;
  assert_int_equal(desert_record_write_begin_plan(w, NULL, &rw), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_status(w), DESERT_E_ARGUMENT);
  assert_int_equal(desert_record_write_begin_plan(NULL, desert_tuple_plan(1), &rw),
                   DESERT_E_ARGUMENT);
  desert_writer_free(w);
  desert_reader *r = rt_reader(0);
  const uint8_t zero = 0;
  desert_reader_begin(r, &zero, 1);
  desert_record_reader rr;
  assert_int_equal(desert_record_read_begin_plan(r, NULL, &rr), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_status(r), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_error_offset(r), 0);
  desert_reader_free(r);
}

/* A tuple plan keeps the general path's statuses for misuse: out of order,
 * out of range, a field skipped at the end, on both sides. */
static void test_tuple_plan_misuse(void **state) {
  (void)state;
  for (int plan = 0; plan < 2; plan++) {
    desert_writer *w = rt_writer(0);
    desert_record_writer rw;
    const desert_record_plan *p3 = desert_tuple_plan(3);
    const desert_record_desc *d3 = desert_tuple_desc(3);
    assert_int_equal(plan ? desert_record_write_begin_plan(w, p3, &rw)
                          : desert_record_write_begin(w, d3, &rw),
                     DESERT_OK);
    assert_int_equal(desert_record_write_field(&rw, 1), DESERT_E_FIELD_SKIPPED);
    desert_writer_reset(w);
    (void)(plan ? desert_record_write_begin_plan(w, p3, &rw) : desert_record_write_begin(w, d3, &rw));
    assert_int_equal(desert_record_write_field(&rw, 3), DESERT_E_ARGUMENT);
    desert_writer_reset(w);
    (void)(plan ? desert_record_write_begin_plan(w, p3, &rw) : desert_record_write_begin(w, d3, &rw));
    assert_int_equal(desert_record_write_field(&rw, 0), DESERT_OK);
    desert_write_i32(w, 1);
    assert_int_equal(desert_record_write_end(&rw), DESERT_E_FIELD_SKIPPED); /* _2, _3 never started */
    desert_writer_free(w);

    desert_reader *r = rt_reader(0);
    static const uint8_t in[] = {0x00, 0, 0, 0, 1, 0, 0, 0, 2};
    desert_record_reader rr;
    desert_field_action a;
    desert_reader_begin(r, in, sizeof in);
    assert_int_equal(plan ? desert_record_read_begin_plan(r, desert_tuple_plan(2), &rr)
                          : desert_record_read_begin(r, desert_tuple_desc(2), &rr),
                     DESERT_OK);
    assert_int_equal(desert_record_read_field(&rr, 1, &a), DESERT_E_STATE);
    assert_int_equal(desert_reader_error_offset(r), 1);
    desert_reader_begin(r, in, sizeof in);
    (void)(plan ? desert_record_read_begin_plan(r, desert_tuple_plan(2), &rr)
                : desert_record_read_begin(r, desert_tuple_desc(2), &rr));
    assert_int_equal(desert_record_read_field(&rr, 2, &a), DESERT_E_ARGUMENT);
    desert_reader_begin(r, in, sizeof in);
    (void)(plan ? desert_record_read_begin_plan(r, desert_tuple_plan(2), &rr)
                : desert_record_read_begin(r, desert_tuple_desc(2), &rr));
    assert_int_equal(desert_record_read_field(&rr, 0, NULL), DESERT_E_ARGUMENT);
    desert_reader_free(r);
  }
}

/* ---- in-place chunk 0 --------------------------------------------------------------
 * Outer {inner: Inner, n: i32 added}, Inner {s: String, k: i32 added}: both
 * version 1, the inner record in the outer's chunk 0. Strings of growing
 * and shrinking lengths make chunk sizes cross the 1/2/3-byte varint
 * boundaries, so the reserved header room is too small and too large in
 * turn (the writer remembers the last size). */

static const desert_field_desc in_f[] = {{"s", 0}, {"k", 0}};
static const desert_evolution_step in_s[] = {{DESERT_STEP_FIELD_ADDED, "k", true}};
static const desert_record_desc in_d = DESERT_RECORD_DESC("Inner", in_f, in_s);
static const desert_field_desc out_f[] = {{"inner", 0}, {"n", 0}};
static const desert_evolution_step out_s[] = {{DESERT_STEP_FIELD_ADDED, "n", true}};
static const desert_record_desc out_d = DESERT_RECORD_DESC("Outer", out_f, out_s);

/* Inner {s, k = 7} at inner (room for 64 bytes more than the record). */
static size_t expected_inner(uint8_t *inner, const char *s, size_t len) {
  size_t c0 = put_str(inner + 64, s, len); /* inner chunk 0, built after the room */
  size_t n = 0;
  inner[n++] = 0x01;
  n += put_var(inner + n, zz((int32_t)c0));
  n += put_var(inner + n, zz(4));
  memmove(inner + n, inner + 64, c0);
  n += c0;
  return n + put_i32(inner + n, 7);
}

/* Version 1 around chunk 0 = c0[0..n0) and chunk 1 = i32 9. */
static size_t expected_outer(uint8_t *o, const uint8_t *c0, size_t n0) {
  size_t m = 0;
  o[m++] = 0x01;
  m += put_var(o + m, zz((int32_t)n0));
  m += put_var(o + m, zz(4));
  memcpy(o + m, c0, n0);
  m += n0;
  return m + put_i32(o + m, 9);
}

static size_t expected_nested(uint8_t *o, const char *s, size_t len) {
  static uint8_t inner[20000];
  return expected_outer(o, inner, expected_inner(inner, s, len));
}

static void write_nested(desert_writer *w, const desert_record_plan *po,
                         const desert_record_plan *pi, const char *s, size_t len) {
  desert_record_writer ro, ri;
  if (po) desert_record_write_begin_plan(w, po, &ro);
  else desert_record_write_begin(w, &out_d, &ro);
  desert_record_write_field(&ro, 0);
  if (pi) desert_record_write_begin_plan(w, pi, &ri);
  else desert_record_write_begin(w, &in_d, &ri);
  desert_record_write_field(&ri, 0);
  desert_write_string(w, s, len);
  desert_record_write_field(&ri, 1);
  desert_write_i32(w, 7);
  desert_record_write_end(&ri);
  desert_record_write_field(&ro, 1);
  desert_write_i32(w, 9);
  desert_record_write_end(&ro);
}

static void test_in_place_chunk0(void **state) {
  (void)state;
  static char text[9000];
  for (size_t i = 0; i < sizeof text; i++) text[i] = (char)('a' + i % 26);
  static const size_t lens[] = {0, 5, 60, 61, 62, 63, 64, 200, 8191, 8192, 9000, 3, 8200, 0, 70};
  desert_record_plan *po = NULL, *pi = NULL;
  assert_int_equal(desert_record_plan_create(&out_d, NULL, &po), DESERT_OK);
  assert_int_equal(desert_record_plan_create(&in_d, NULL, &pi), DESERT_OK);
  static uint8_t want[20000], fixed[20000];
  for (int mode = 0; mode < 4; mode++) { /* desc, plan, outer plan only, inner plan only */
    const desert_record_plan *a = (mode == 1 || mode == 2) ? po : NULL;
    const desert_record_plan *b = (mode == 1 || mode == 3) ? pi : NULL;
    desert_writer *reused = rt_writer(0);
    desert_writer *counter = rt_writer(0);
    desert_writer_count_only(counter);
    for (size_t t = 0; t < DESERT_COUNTOF(lens); t++) {
      size_t n = expected_nested(want, text, lens[t]);
      /* growable output, reused (hints carry over) */
      desert_writer_reset(reused);
      desert_write_u8(reused, 0xee); /* the record does not start at offset 0 */
      write_nested(reused, a, b, text, lens[t]);
      size_t len;
      const uint8_t *got = desert_writer_data(reused, &len);
      assert_int_equal(desert_writer_status(reused), DESERT_OK);
      assert_int_equal(len, n + 1);
      assert_int_equal(got[0], 0xee);
      desert_assert_bytes_equal(want, n, got + 1, len - 1);
      /* fresh writer */
      desert_writer *w = rt_writer(0);
      write_nested(w, a, b, text, lens[t]);
      got = desert_writer_data(w, &len);
      desert_assert_bytes_equal(want, n, got, len);
      /* caller's buffer: exact fit, and one byte short */
      assert_int_equal(desert_writer_use_buffer(w, fixed, n), DESERT_OK);
      write_nested(w, a, b, text, lens[t]);
      assert_int_equal(desert_writer_status(w), DESERT_OK);
      desert_assert_bytes_equal(want, n, fixed, desert_writer_size(w));
      assert_int_equal(desert_writer_use_buffer(w, fixed, n - 1), DESERT_OK);
      write_nested(w, a, b, text, lens[t]);
      assert_int_equal(desert_writer_status(w), DESERT_E_DST_TOO_SMALL);
      desert_writer_free(w);
      /* size only */
      desert_writer_reset(counter);
      write_nested(counter, a, b, text, lens[t]);
      assert_int_equal(desert_writer_status(counter), DESERT_OK);
      assert_int_equal(desert_writer_size(counter), n);
    }
    desert_writer_free(reused);
    desert_writer_free(counter);
  }
  desert_record_plan_free(po);
  desert_record_plan_free(pi);
}

/* ---- the sequential layout ------------------------------------------------------
 * A plan whose fields' chunks never decrease writes every chunk in place.
 * Seq {inner: Inner, after: i32, n: i32 added}: a nested versioned record
 * in chunk 0 followed by another chunk-0 field (the writer and the reader
 * stay in the chunk across the nested record), then chunk 1. Expected:
 * 01 | size0 | 08 | inner | after | n. */
static const desert_field_desc sq_f[] = {{"inner", 0}, {"after", 0}, {"n", 0}};
static const desert_evolution_step sq_s[] = {{DESERT_STEP_FIELD_ADDED, "n", true}};
static const desert_record_desc sq_d = DESERT_RECORD_DESC("Seq", sq_f, sq_s);

/* NM {a: i32 added, b: i32}: declaration order a, b; chunks 1, 0. */
static const desert_field_desc nm_f[] = {{"a", 0}, {"b", 0}};
static const desert_evolution_step nm_s[] = {{DESERT_STEP_FIELD_ADDED, "a", true}};
static const desert_record_desc nm_d = DESERT_RECORD_DESC("NM", nm_f, nm_s);

static size_t expected_seq(uint8_t *o, const char *s, size_t len) {
  static uint8_t c0[20000];
  size_t n0 = expected_inner(c0, s, len); /* outer chunk 0: the inner record, */
  n0 += put_i32(c0 + n0, 5);              /* then after */
  return expected_outer(o, c0, n0);
}

static void test_sequential(void **state) {
  (void)state;
  static char text[200];
  memset(text, 'q', sizeof text);
  desert_record_plan *ps = NULL, *pi = NULL;
  assert_int_equal(desert_record_plan_create(&sq_d, NULL, &ps), DESERT_OK);
  assert_int_equal(desert_record_plan_create(&in_d, NULL, &pi), DESERT_OK);
  desert_writer *w = rt_writer(0);
  desert_reader *r = rt_reader(0);
  static uint8_t want[20000];
  /* 3: every size one byte; 60: the outer chunk 0 size takes 2 bytes
   * (more than the room reserved after the last record: everything after
   * the header moves right), then 3 again (less: it moves left); 200:
   * both records' chunk-0 sizes take 2 bytes */
  static const size_t lens[] = {3, 60, 3, 60, 200, 200, 0};
  for (size_t t = 0; t < DESERT_COUNTOF(lens); t++) {
    size_t len = lens[t];
    size_t n = expected_seq(want, text, len);
    desert_writer_reset(w);
    desert_record_writer ro, ri;
    assert_int_equal(desert_record_write_begin_plan(w, ps, &ro), DESERT_OK);
    assert_int_equal(desert_record_write_field(&ro, 0), DESERT_OK);
    assert_int_equal(desert_record_write_begin_plan(w, pi, &ri), DESERT_OK);
    desert_record_write_field(&ri, 0);
    desert_write_string(w, text, len);
    desert_record_write_field(&ri, 1);
    desert_write_i32(w, 7);
    assert_int_equal(desert_record_write_end(&ri), DESERT_OK);
    assert_int_equal(desert_record_write_field(&ro, 1), DESERT_OK);
    desert_write_i32(w, 5);
    assert_int_equal(desert_record_write_field(&ro, 2), DESERT_OK);
    desert_write_i32(w, 9);
    assert_int_equal(desert_record_write_end(&ro), DESERT_OK);
    size_t got_len;
    const uint8_t *got = desert_writer_data(w, &got_len);
    desert_assert_bytes_equal(want, n, got, got_len);

    /* read back with the plans: the chunk-0 field after the nested record */
    desert_reader_begin(r, want, n);
    desert_record_reader qo, qi;
    desert_field_action a;
    desert_str str;
    int32_t k = 0, after = 0, nn = 0;
    assert_int_equal(desert_record_read_begin_plan(r, ps, &qo), DESERT_OK);
    assert_int_equal(desert_record_read_field(&qo, 0, &a), DESERT_OK);
    assert_int_equal(desert_record_read_begin_plan(r, pi, &qi), DESERT_OK);
    assert_int_equal(desert_record_read_field(&qi, 0, &a), DESERT_OK);
    assert_int_equal(desert_read_string(r, &str), DESERT_OK);
    assert_int_equal(desert_record_read_field(&qi, 1, &a), DESERT_OK);
    assert_int_equal(desert_read_i32(r, &k), DESERT_OK);
    assert_int_equal(desert_record_read_end(&qi), DESERT_OK);
    assert_int_equal(desert_record_read_field(&qo, 1, &a), DESERT_OK);
    assert_int_equal(a, DESERT_FIELD_READ);
    assert_int_equal(desert_read_i32(r, &after), DESERT_OK);
    assert_int_equal(desert_record_read_field(&qo, 2, &a), DESERT_OK);
    assert_int_equal(desert_read_i32(r, &nn), DESERT_OK);
    assert_int_equal(desert_record_read_end(&qo), DESERT_OK);
    assert_int_equal(desert_reader_offset(r), n);
    assert_int_equal(str.len, len);
    assert_int_equal(k, 7);
    assert_int_equal(after, 5);
    assert_int_equal(nn, 9);
  }

  /* A record left open across desert_writer_reset: its end finds the
   * output shorter than where its chunks started (DESERT_E_STATE, nothing
   * moved), and the writer serves the next message. Sequential layout,
   * the in-place chunk 0 of a fixed-header plan (nm_d: not sequential) and
   * of the description-based path. */
  desert_record_plan *pn = NULL;
  assert_int_equal(desert_record_plan_create(&nm_d, NULL, &pn), DESERT_OK);
  for (int path = 0; path < 3; path++) {
    desert_writer_reset(w);
    desert_record_writer stale;
    if (path == 0) assert_int_equal(desert_record_write_begin_plan(w, ps, &stale), DESERT_OK);
    else if (path == 1) assert_int_equal(desert_record_write_begin_plan(w, pn, &stale), DESERT_OK);
    else assert_int_equal(desert_record_write_begin(w, &nm_d, &stale), DESERT_OK);
    desert_record_write_field(&stale, 0);
    desert_write_i32(w, 1);
    desert_writer_reset(w);
    assert_int_equal(desert_record_write_end(&stale), DESERT_E_STATE);
    desert_writer_reset(w);
    desert_write_u8(w, 0x2a);
    assert_int_equal(desert_writer_status(w), DESERT_OK);
    assert_int_equal(desert_writer_size(w), 1);
  }

  /* nm_d's chunks go 1, 0: chunk 1 in a buffer, appended after chunk 0.
   * 01 | 08 08 | b | a, through the plan and the description, growable
   * and size-only. */
  const uint8_t nm_want[] = {0x01, 0x08, 0x08, 0, 0, 0, 0x0b, 0, 0, 0, 0x0a};
  desert_writer *counter = rt_writer(0);
  desert_writer_count_only(counter);
  for (int i = 0; i < 4; i++) {
    desert_writer *x = (i & 1) ? counter : w;
    desert_writer_reset(x);
    desert_record_writer rn;
    if (i < 2) assert_int_equal(desert_record_write_begin_plan(x, pn, &rn), DESERT_OK);
    else assert_int_equal(desert_record_write_begin(x, &nm_d, &rn), DESERT_OK);
    desert_record_write_field(&rn, 0);
    desert_write_i32(x, 10);
    desert_record_write_field(&rn, 1);
    desert_write_i32(x, 11);
    assert_int_equal(desert_record_write_end(&rn), DESERT_OK);
    if (x == w) desert_assert_bytes_equal(nm_want, sizeof nm_want, desert_writer_data(w, NULL),
                                          desert_writer_size(w));
    else assert_int_equal(desert_writer_size(counter), sizeof nm_want);
  }
  desert_writer_free(counter);
  desert_record_plan_free(pn);

  desert_reader_free(r);
  desert_writer_free(w);
  desert_record_plan_free(ps);
  desert_record_plan_free(pi);
}

/* The writer remembers header sizes by description address: a description
 * reusing the address of another (here: one variable holding two
 * descriptions in turn) only changes the room reserved, never the bytes.
 * X {a, b added}: 01 | 08 08 | a | b. Y {a optional, b added; made
 * optional a}: 02 | 0a 08 01 00 | 01 a | b. */
static const desert_field_desc hx_f[] = {{"a", 0}, {"b", 0}};
static const desert_evolution_step hx_s[] = {{DESERT_STEP_FIELD_ADDED, "b", true}};
static const desert_field_desc hy_f[] = {{"a", DESERT_FIELD_OPTIONAL}, {"b", 0}};
static const desert_evolution_step hy_s[] = {{DESERT_STEP_FIELD_ADDED, "b", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "a", false}};

static void test_hint_address_reuse(void **state) {
  (void)state;
  const desert_record_desc x = DESERT_RECORD_DESC("X", hx_f, hx_s);
  const desert_record_desc y = DESERT_RECORD_DESC("Y", hy_f, hy_s);
  desert_writer *w = rt_writer(0);
  desert_record_desc d;
  for (int i = 0; i < 6; i++) {
    bool is_y = (i % 3) == 1; /* X Y X X Y X: both directions, twice */
    d = is_y ? y : x;
    desert_writer_reset(w);
    desert_record_writer rw;
    assert_int_equal(desert_record_write_begin(w, &d, &rw), DESERT_OK);
    if (is_y) desert_record_write_field_option(&rw, 0, true);
    else desert_record_write_field(&rw, 0);
    desert_write_i32(w, 0x11223344);
    desert_record_write_field(&rw, 1);
    desert_write_i32(w, 0x55667788);
    assert_int_equal(desert_record_write_end(&rw), DESERT_OK);
    uint8_t want[32];
    size_t n = 0;
    if (is_y) {
      const uint8_t h[] = {0x02, 0x0a, 0x08, 0x01, 0x00, 0x01};
      memcpy(want, h, sizeof h);
      n = sizeof h;
    } else {
      const uint8_t h[] = {0x01, 0x08, 0x08};
      memcpy(want, h, sizeof h);
      n = sizeof h;
    }
    n += put_i32(want + n, 0x11223344);
    n += put_i32(want + n, 0x55667788);
    size_t len;
    const uint8_t *got = desert_writer_data(w, &len);
    desert_assert_bytes_equal(want, n, got, len);
  }
  desert_writer_free(w);
}

/* ---- differential: desc path vs plan path ------------------------------------------
 * A record evolving through five versions (as fuzz_evolution), a plain
 * tuple, and records whose made-optional field was removed or made
 * transient (the header entries that depend on the writer's options). */

static const rt_type E_T[] = {RT_I32, RT_STR, RT_I32, RT_STR, RT_DSTR, RT_BOOL};
static const desert_field_desc e1_f[] = {{"id", 0}, {"name", 0}};
static const desert_field_desc e2_f[] = {{"id", 0}, {"name", 0}, {"qty", 0}};
static const desert_evolution_step e2_s[] = {{DESERT_STEP_FIELD_ADDED, "qty", true}};
static const desert_field_desc e3_f[] = {{"id", 0}, {"name", DESERT_FIELD_OPTIONAL}, {"qty", 0}};
static const desert_evolution_step e3_s[] = {{DESERT_STEP_FIELD_ADDED, "qty", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "name", false}};
static const desert_field_desc e4_f[] = {{"id", 0},
                                         {"name", DESERT_FIELD_OPTIONAL},
                                         {"qty", 0},
                                         {"tag", DESERT_FIELD_OPTIONAL},
                                         {"code", 0},
                                         {"cache", DESERT_FIELD_TRANSIENT}};
static const desert_evolution_step e4_s[] = {{DESERT_STEP_FIELD_ADDED, "qty", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "name", false},
                                             {DESERT_STEP_FIELD_ADDED, "tag", true},
                                             {DESERT_STEP_FIELD_ADDED, "code", false}};
static const desert_field_desc e5_f[] = {{"id", 0},
                                         {"qty", DESERT_FIELD_TRANSIENT},
                                         {"tag", DESERT_FIELD_OPTIONAL},
                                         {"code", 0},
                                         {"cache", DESERT_FIELD_TRANSIENT}};
static const rt_type E5_T[] = {RT_I32, RT_I32, RT_STR, RT_DSTR, RT_BOOL};
static const desert_evolution_step e5_s[] = {{DESERT_STEP_FIELD_ADDED, "qty", true},
                                             {DESERT_STEP_FIELD_MADE_OPTIONAL, "name", false},
                                             {DESERT_STEP_FIELD_ADDED, "tag", true},
                                             {DESERT_STEP_FIELD_ADDED, "code", false},
                                             {DESERT_STEP_FIELD_REMOVED, "name", false},
                                             {DESERT_STEP_FIELD_MADE_TRANSIENT, "qty", false}};
static const desert_field_desc t3_f[] = {{"_1", 0}, {"_2", 0}, {"_3", 0}};
static const rt_type T3_T[] = {RT_I32, RT_STR, RT_I32};
/* made optional, then made transient: Rust has no entry for it */
static const desert_field_desc mt_f[] = {{"a", 0}, {"b", DESERT_FIELD_TRANSIENT}};
static const rt_type MT_T[] = {RT_I32, RT_I32};
static const desert_evolution_step mt_s[] = {{DESERT_STEP_FIELD_MADE_OPTIONAL, "b", false},
                                             {DESERT_STEP_FIELD_MADE_TRANSIENT, "b", false}};

static const desert_record_desc e1_d = DESERT_RECORD_DESC_V0("E", e1_f);
static const desert_record_desc e2_d = DESERT_RECORD_DESC("E", e2_f, e2_s);
static const desert_record_desc e3_d = DESERT_RECORD_DESC("E", e3_f, e3_s);
static const desert_record_desc e4_d = DESERT_RECORD_DESC("E", e4_f, e4_s);
static const desert_record_desc e5_d = DESERT_RECORD_DESC("E", e5_f, e5_s);
static const desert_record_desc t3_d = DESERT_RECORD_DESC_V0("Tuple3", t3_f);
static const desert_record_desc mt_d = DESERT_RECORD_DESC("MT", mt_f, mt_s);

static const rt_rec family[] = {{&e1_d, E_T},  {&e2_d, E_T},  {&e3_d, E_T}, {&e4_d, E_T},
                                {&e5_d, E5_T}, {&t3_d, T3_T}, {&mt_d, MT_T}};
#define NFAM DESERT_COUNTOF(family)

static void random_vals(desert_rng *g, const rt_rec *rec, rt_val *v) {
  static const char *const words[] = {"", "a", "name", "tag", "a longer string of some length"};
  for (size_t i = 0; i < rec->desc->field_count; i++) {
    memset(&v[i], 0, sizeof v[i]);
    v[i].some = desert_rng_below(g, 3) != 0;
    v[i].i = (int32_t)desert_rng_next(g);
    v[i].b = desert_rng_below(g, 2) != 0;
    snprintf(v[i].s, sizeof v[i].s, "%s", words[desert_rng_below(g, DESERT_COUNTOF(words))]);
  }
}

/* Writes vals with rec on w in the given path; status, and the bytes. */
static desert_status write_path(desert_writer *w, const rt_rec *rec, const rt_val *vals, bool plan,
                                uint8_t *out, size_t *len) {
  rt_plan_mode = plan;
  desert_status st = rt_write(w, rec, vals);
  rt_plan_mode = false;
  size_t n = 0;
  const uint8_t *d = desert_writer_data(w, &n);
  if (d && n) memcpy(out, d, n);
  *len = d ? n : desert_writer_size(w);
  return st;
}

static bool same_vals(const rt_val *a, const rt_val *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i].action != b[i].action || a[i].some != b[i].some ||
        (a[i].some && (a[i].i != b[i].i || a[i].b != b[i].b || strcmp(a[i].s, b[i].s) != 0)))
      return false;
  return true;
}

/* Reads in[0..n) with rec on both paths: same status, offset and values. */
static void read_both(desert_reader *r, const rt_rec *rec, const uint8_t *in, size_t n) {
  rt_val va[8], vb[8];
  uint8_t *copy = test_malloc(n ? n : 1); /* exactly n bytes: ASan sees overreads */
  if (n) memcpy(copy, in, n);
  desert_status sa, sb;
  size_t oa, ob;
  desert_reader_begin(r, copy, n);
  sa = rt_read(r, rec, va);
  oa = sa ? desert_reader_error_offset(r) : desert_reader_offset(r);
  desert_reader_begin(r, copy, n);
  rt_plan_mode = true;
  sb = rt_read(r, rec, vb);
  rt_plan_mode = false;
  ob = sb ? desert_reader_error_offset(r) : desert_reader_offset(r);
  test_free(copy);
  if (sa != sb || oa != ob || !same_vals(va, vb, rec->desc->field_count)) {
    char hex[512];
    fail_msg("%s: desc %s at %zu, plan %s at %zu (values %s) on %s", rec->desc->name,
             desert_status_name(sa), oa, desert_status_name(sb), ob,
             same_vals(va, vb, rec->desc->field_count) ? "same" : "differ",
             desert_hex_encode(in, n, hex, sizeof hex));
  }
}

static void mutate(desert_rng *g, uint8_t *b, size_t *n, size_t cap) {
  size_t len = *n;
  switch (desert_rng_below(g, 5)) {
  case 0: /* flip a bit */
    if (len) b[desert_rng_below(g, (uint32_t)len)] ^= (uint8_t)(1u << desert_rng_below(g, 8));
    break;
  case 1: /* a random byte, small values favoured (codes, versions, sizes) */
    if (len)
      b[desert_rng_below(g, (uint32_t)len)] =
          (uint8_t)(desert_rng_below(g, 2) ? desert_rng_below(g, 8) : desert_rng_below(g, 256));
    break;
  case 2: /* truncate */
    *n = len ? desert_rng_below(g, (uint32_t)len) : 0;
    break;
  case 3: /* insert a byte */
    if (len < cap) {
      size_t at = desert_rng_below(g, (uint32_t)len + 1);
      memmove(b + at + 1, b + at, len - at);
      b[at] = (uint8_t)desert_rng_below(g, 256);
      *n = len + 1;
    }
    break;
  default: /* delete a byte */
    if (len) {
      size_t at = desert_rng_below(g, (uint32_t)len);
      memmove(b + at, b + at + 1, len - at - 1);
      *n = len - 1;
    }
    break;
  }
}

static void test_differential(void **state) {
  (void)state;
  desert_rng g;
  desert_rng_init_test(&g, 0x9a11);
  static const unsigned flag_sets[] = {0, DESERT_OPT_LEGACY_HEADER_STRINGS,
                                       DESERT_OPT_SCALA_REMOVED_OPTIONAL,
                                       DESERT_OPT_LEGACY_HEADER_STRINGS |
                                           DESERT_OPT_SCALA_REMOVED_OPTIONAL};
  desert_reader *readers[2] = {rt_reader(0), rt_reader(DESERT_OPT_LEGACY_HEADER_STRINGS)};
  for (unsigned round = 0; round < 100; round++) {
    for (size_t fi = 0; fi < DESERT_COUNTOF(flag_sets); fi++) {
      unsigned flags = flag_sets[fi];
      desert_writer *wa = rt_writer(flags), *wb = rt_writer(flags);
      for (size_t k = 0; k < NFAM; k++) {
        const rt_rec *rec = &family[k];
        rt_val v[8];
        random_vals(&g, rec, v);
        static uint8_t a[4096], b[4096], buf[4096];
        size_t na, nb;
        /* growable, reused writers (two messages: hints of the first) */
        for (int rep = 0; rep < 2; rep++) {
          desert_writer_reset(wa);
          desert_writer_reset(wb);
          desert_status sa = write_path(wa, rec, v, false, a, &na);
          desert_status sb = write_path(wb, rec, v, true, b, &nb);
          assert_int_equal(sa, sb);
          if (sa == DESERT_OK) desert_assert_bytes_equal(a, na, b, nb);
        }
        desert_status full = desert_writer_status(wa);
        size_t full_len = na;
        /* caller buffers of every size up to the message */
        for (size_t cap = 0; full == DESERT_OK && cap <= full_len; cap++) {
          desert_writer_use_buffer(wa, buf, cap);
          desert_status sa = write_path(wa, rec, v, false, a, &na);
          desert_writer_use_buffer(wb, buf, cap);
          desert_status sb = write_path(wb, rec, v, true, b, &nb);
          assert_int_equal(sa, sb);
          assert_int_equal(sa, cap < full_len ? DESERT_E_DST_TOO_SMALL : DESERT_OK);
        }
        /* size only */
        desert_writer_count_only(wa);
        desert_writer_count_only(wb);
        desert_status sa = write_path(wa, rec, v, false, a, &na);
        desert_status sb = write_path(wb, rec, v, true, b, &nb);
        assert_int_equal(sa, sb);
        assert_int_equal(na, nb);
        if (full == DESERT_OK) assert_int_equal(na, full_len);
        desert_writer_use_growable(wa);
        desert_writer_use_growable(wb);
        if (full != DESERT_OK) continue;
        /* every reader version on the message and on mutations of it */
        desert_writer_reset(wa);
        write_path(wa, rec, v, false, a, &na);
        desert_reader *r = readers[(flags & DESERT_OPT_LEGACY_HEADER_STRINGS) ? 1 : 0];
        for (size_t j = 0; j < NFAM; j++) {
          read_both(r, &family[j], a, na);
          for (unsigned m = 0; m < 12; m++) {
            memcpy(buf, a, na);
            size_t n = na;
            unsigned edits = 1 + desert_rng_below(&g, 3);
            for (unsigned e = 0; e < edits; e++) mutate(&g, buf, &n, sizeof buf);
            read_both(r, &family[j], buf, n);
          }
        }
      }
      desert_writer_free(wa);
      desert_writer_free(wb);
    }
  }
  desert_reader_free(readers[0]);
  desert_reader_free(readers[1]);
}

/* ---- C-struct descriptors with a plan ------------------------------------------------ */

typedef struct cpt {
  int32_t x;
  desert_str label;
  bool has_label;
  int32_t y;
} cpt;
static const desert_cfield cpt_c[] = {DESERT_CFIELD(cpt, x, DESERT_C_I32),
                                      DESERT_CFIELD_OPT(cpt, label, DESERT_C_STRING, has_label),
                                      DESERT_CFIELD(cpt, y, DESERT_C_I32)};

static void test_cstruct_plan(void **state) {
  (void)state;
  desert_cstruct d = DESERT_CSTRUCT(cpt, "PointV3", pt_f, pt_s, cpt_c, NULL);
  assert_null(d.plan);
  desert_record_plan *p = NULL, *other = NULL;
  assert_int_equal(desert_record_plan_create(&d.record, NULL, &p), DESERT_OK);
  assert_int_equal(desert_record_plan_create(&pt_d, NULL, &other), DESERT_OK);
  d.plan = other; /* a plan of another description (same content, other object) */
  assert_int_equal(desert_cstruct_check(&d), DESERT_E_ARGUMENT);
  d.plan = p;
  assert_int_equal(desert_cstruct_check(&d), DESERT_OK);
  /* PointV3 {x: 1, label: Some("hi"), y: 2}: chunk 0 = x, y; chunk 1 = the
   * label as an Option; entry 2 = made optional at chunk 1. */
  uint8_t want[64];
  size_t n = 0;
  want[n++] = 0x02;
  n += put_var(want + n, zz(8));
  n += put_var(want + n, zz(4));
  want[n++] = 0x01;
  want[n++] = 0x01;
  n += put_i32(want + n, 1);
  n += put_i32(want + n, 2);
  want[n++] = 0x01;
  n += put_str(want + n, "hi", 2);
  cpt v = {1, {"hi", 2}, true, 2};
  for (int with_plan = 0; with_plan < 2; with_plan++) {
    d.plan = with_plan ? p : NULL;
    desert_writer *w = rt_writer(0);
    assert_int_equal(desert_cstruct_encode(w, &d, &v), DESERT_OK);
    size_t len;
    const uint8_t *got = desert_writer_data(w, &len);
    desert_assert_bytes_equal(want, n, got, len);
    desert_reader *r = rt_reader(0);
    cpt back;
    desert_reader_begin(r, got, len);
    assert_int_equal(desert_cstruct_decode(r, &d, &back), DESERT_OK);
    assert_int_equal(back.x, 1);
    assert_int_equal(back.y, 2);
    assert_true(back.has_label);
    assert_int_equal(back.label.len, 2);
    assert_memory_equal(back.label.ptr, "hi", 2);
    /* cut short: the same status and offset on both paths */
    desert_reader_begin(r, got, len - 1);
    assert_int_equal(desert_cstruct_decode(r, &d, &back), DESERT_E_INPUT_ENDED);
    assert_int_equal(desert_reader_error_offset(r), 13); /* chunk 1's start (5 + 8) */
    desert_reader_free(r);
    desert_writer_free(w);
  }
  desert_record_plan_free(p);
  desert_record_plan_free(other);
}

/* ---- DeduplicatedString ids through the last-seen check ------------------------------ */

static void test_dedup_ids(void **state) {
  (void)state;
  /* A B A A C B "" "" B, then a new message: A again in full. Ids from 1
   * in first-seen order; a back-reference is var_i32(-id). */
  static const char *const seq[] = {"alpha", "beta", "alpha", "alpha", "gamma-gamma-gamma-gamma",
                                    "beta",  "",     "",      "beta"};
  uint8_t want[256];
  size_t n = 0;
  const char *seen[8];
  size_t nseen = 0;
  for (size_t i = 0; i < DESERT_COUNTOF(seq); i++) {
    size_t id = 0;
    for (size_t k = 0; k < nseen; k++)
      if (strcmp(seen[k], seq[i]) == 0) id = k + 1;
    if (id) {
      n += put_var(want + n, zz(-(int32_t)id));
    } else {
      seen[nseen++] = seq[i];
      n += put_str(want + n, seq[i], strlen(seq[i]));
    }
  }
  desert_writer *w = rt_writer(0);
  for (int msg = 0; msg < 2; msg++) {
    desert_writer_reset(w);
    for (size_t i = 0; i < DESERT_COUNTOF(seq); i++)
      assert_int_equal(desert_write_dedup_string(w, seq[i], strlen(seq[i])), DESERT_OK);
    size_t len;
    const uint8_t *got = desert_writer_data(w, &len);
    desert_assert_bytes_equal(want, n, got, len);
    /* and the reader gives the strings back */
    desert_reader *r = rt_reader(0);
    desert_reader_begin(r, got, len);
    for (size_t i = 0; i < DESERT_COUNTOF(seq); i++) {
      desert_str s;
      assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
      assert_int_equal(s.len, strlen(seq[i]));
      if (s.len) assert_memory_equal(s.ptr, seq[i], s.len);
    }
    desert_reader_free(r);
  }
  /* many distinct short and long strings, each repeated right away and
   * later: the hash index and the last-seen check agree */
  desert_writer_reset(w);
  char s[64];
  n = 0;
  for (int i = 0; i < 300; i++) {
    int len = snprintf(s, sizeof s, i % 3 ? "k%d" : "a-long-key-number-%d-with-padding", i);
    assert_int_equal(desert_write_dedup_string(w, s, (size_t)len), DESERT_OK);
    assert_int_equal(desert_write_dedup_string(w, s, (size_t)len), DESERT_OK);
    n += put_str(want, s, (size_t)len);
    n += put_var(want, zz(-(i + 1)));
  }
  for (int i = 0; i < 300; i++) {
    int len = snprintf(s, sizeof s, i % 3 ? "k%d" : "a-long-key-number-%d-with-padding", i);
    assert_int_equal(desert_write_dedup_string(w, s, (size_t)len), DESERT_OK);
    n += put_var(want, zz(-(i + 1)));
  }
  assert_int_equal(desert_writer_size(w), n);
  desert_reader *r = rt_reader(0);
  size_t len;
  const uint8_t *got = desert_writer_data(w, &len);
  desert_reader_begin(r, got, len);
  for (int i = 0; i < 900; i++) {
    int k = i < 600 ? i / 2 : i - 600;
    int sl = snprintf(s, sizeof s, k % 3 ? "k%d" : "a-long-key-number-%d-with-padding", k);
    desert_str out;
    assert_int_equal(desert_read_dedup_string(r, &out), DESERT_OK);
    assert_int_equal(out.len, (size_t)sl);
    assert_memory_equal(out.ptr, s, out.len);
  }
  assert_int_equal(desert_reader_remaining(r), 0);
  desert_reader_free(r);
  desert_writer_free(w);
}

/* ---- field chunks by name: shared literals, copies, same first byte ----------------
 * The description-based field starts find a field's chunk by a scan that
 * trusts a step name that is the field name's own pointer, skips names
 * with another first byte, and leaves anything else to full comparisons.
 * R {id, tally, tags (added, step 1), total (added, step 2)}: "tally"
 * shares its first byte with both step names but is in chunk 0. Version 2:
 * 02 | size0 size1 size2 | id tally | tags | total; version-1 data has no
 * chunk 2 (total takes its default). */

static size_t expected_names(uint8_t *o, int version, int32_t id, int32_t tally, int32_t total) {
  uint8_t c0[16], c1[16], c2[16];
  size_t n0 = put_i32(c0, id), n1 = put_str(c1, "ab", 2), n2 = put_i32(c2, total);
  n0 += put_i32(c0 + n0, tally);
  size_t n = 0;
  o[n++] = (uint8_t)version;
  n += put_var(o + n, zz((int32_t)n0));
  n += put_var(o + n, zz((int32_t)n1));
  if (version == 2) n += put_var(o + n, zz((int32_t)n2));
  memcpy(o + n, c0, n0);
  n += n0;
  memcpy(o + n, c1, n1);
  n += n1;
  if (version == 2) {
    memcpy(o + n, c2, n2);
    n += n2;
  }
  return n;
}

static void test_field_names(void **state) {
  (void)state;
  static const desert_field_desc f[] = {{"id", 0}, {"tally", 0}, {"tags", 0}, {"total", 0}};
  char tags_copy[] = "tags", total_copy[] = "total";
  for (int variant = 0; variant < 2; variant++) { /* step names: the field's pointers, copies */
    const desert_evolution_step st[2] = {
        {DESERT_STEP_FIELD_ADDED, variant ? tags_copy : f[2].name, false},
        {DESERT_STEP_FIELD_ADDED, variant ? total_copy : f[3].name, true}};
    const desert_record_desc d = DESERT_RECORD_DESC("R", f, st);
    desert_record_plan *plan = NULL;
    assert_int_equal(desert_record_plan_create(&d, NULL, &plan), DESERT_OK);
    uint8_t want[64], want1[64];
    size_t n = expected_names(want, 2, 7, -3, 99);
    size_t n1 = expected_names(want1, 1, 7, -3, 0);
    for (int use_plan = 0; use_plan < 2; use_plan++) {
      desert_writer *w = rt_writer(0);
      desert_record_writer rw;
      assert_int_equal(use_plan ? desert_record_write_begin_plan(w, plan, &rw)
                                : desert_record_write_begin(w, &d, &rw),
                       DESERT_OK);
      desert_record_write_field(&rw, 0);
      desert_write_i32(w, 7);
      desert_record_write_field(&rw, 1);
      desert_write_i32(w, -3);
      desert_record_write_field(&rw, 2);
      desert_write_string(w, "ab", 2);
      desert_record_write_field(&rw, 3);
      desert_write_i32(w, 99);
      assert_int_equal(desert_record_write_end(&rw), DESERT_OK);
      size_t len;
      const uint8_t *got = desert_writer_data(w, &len);
      desert_assert_bytes_equal(want, n, got, len);
      /* read back, then version-1 data */
      for (int old = 0; old < 2; old++) {
        desert_reader *r = rt_reader(0);
        desert_reader_begin(r, old ? want1 : want, old ? n1 : n);
        desert_record_reader rr;
        desert_field_action a = DESERT_FIELD_NONE;
        int32_t id = 0, tally = 0, total = 0;
        desert_str tags = {NULL, 0};
        assert_int_equal(use_plan ? desert_record_read_begin_plan(r, plan, &rr)
                                  : desert_record_read_begin(r, &d, &rr),
                         DESERT_OK);
        assert_int_equal(desert_record_read_field(&rr, 0, &a), DESERT_OK);
        assert_int_equal(a, DESERT_FIELD_READ);
        assert_int_equal(desert_read_i32(r, &id), DESERT_OK);
        assert_int_equal(desert_record_read_field(&rr, 1, &a), DESERT_OK);
        assert_int_equal(a, DESERT_FIELD_READ);
        assert_int_equal(desert_read_i32(r, &tally), DESERT_OK);
        assert_int_equal(desert_record_read_field(&rr, 2, &a), DESERT_OK);
        assert_int_equal(a, DESERT_FIELD_READ);
        assert_int_equal(desert_read_string(r, &tags), DESERT_OK);
        assert_int_equal(desert_record_read_field(&rr, 3, &a), DESERT_OK);
        assert_int_equal(a, old ? DESERT_FIELD_DEFAULT : DESERT_FIELD_READ);
        if (!old) assert_int_equal(desert_read_i32(r, &total), DESERT_OK);
        assert_int_equal(desert_record_read_end(&rr), DESERT_OK);
        assert_int_equal(desert_reader_remaining(r), 0);
        assert_int_equal(id, 7);
        assert_int_equal(tally, -3);
        assert_int_equal(tags.len, 2);
        assert_memory_equal(tags.ptr, "ab", 2);
        assert_int_equal(total, old ? 0 : 99);
        desert_reader_free(r);
      }
      /* a field out of order fails as before (field 1 skipped) */
      desert_writer_reset(w);
      assert_int_equal(use_plan ? desert_record_write_begin_plan(w, plan, &rw)
                                : desert_record_write_begin(w, &d, &rw),
                       DESERT_OK);
      assert_int_equal(desert_record_write_field(&rw, 2), DESERT_E_FIELD_SKIPPED);
      desert_writer_free(w);
    }
    desert_record_plan_free(plan);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_api),        cmocka_unit_test(test_tuple_plan_misuse),
      cmocka_unit_test(test_in_place_chunk0), cmocka_unit_test(test_sequential),
      cmocka_unit_test(test_hint_address_reuse),
      cmocka_unit_test(test_differential),    cmocka_unit_test(test_cstruct_plan),
      cmocka_unit_test(test_dedup_ids),       cmocka_unit_test(test_field_names),
  };
  return cmocka_run_group_tests_name("record_plan", tests, NULL, NULL);
}
