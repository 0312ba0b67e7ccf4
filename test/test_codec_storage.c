/* test/test_codec_storage.c — writers and readers in caller storage
 * (desert_writer_init, desert_reader_init), the one-shot helpers
 * (desert_encode, desert_decode) and the inline fast paths of
 * writer_inline.h / reader_inline.h:
 *  - the size/alignment contract is enforced, nothing is allocated to
 *    build a context, and the heap API is unchanged beside it;
 *  - zero allocations per message (counting allocator) for the small
 *    messages of benchmark cases 1-5, 8, 13 and 17, with the bytes
 *    checked against encodings built here from the docs/format.md rules (the
 *    inline runs also start and finish messages through the inline
 *    boundaries: desert_writer_reset_inline, desert_writer_data_inline,
 *    desert_reader_begin_inline);
 *  - growth past the storage goes to the caller's allocator, and every
 *    block comes back on free;
 *  - a fixed caller buffer one byte short gives DESERT_E_DST_TOO_SMALL
 *    and nothing is written past it (guard page), for both the exported
 *    and the inline forms; truncated input read next to a guard page
 *    fails the same way in both forms;
 *  - inline and exported forms agree (value, status, error offset,
 *    position) on hand-picked edge inputs; test/fuzz/fuzz_inline.c does
 *    the same on fuzzer input.
 * Runs once per runnable ISA (name test_codec_*): strings of 16 bytes or
 * more go through the validation kernels on the exported path.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/reader.h"
#include "desert/record.h"
#include "desert/writer.h"
#include "guarded.h"
#include "test_util.h"

/* ---- independent encoders (docs/format.md §2, §3, §5) -------------------------------- */

static size_t put_be32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (24 - 8 * i));
  return 4;
}
static size_t put_be64(uint8_t *p, uint64_t v) {
  put_be32(p, (uint32_t)(v >> 32));
  return 4 + put_be32(p + 4, (uint32_t)v);
}
static size_t put_var(uint8_t *p, uint32_t v) {
  size_t n = 0;
  do {
    uint8_t b = (uint8_t)(v & 0x7f);
    v >>= 7;
    p[n++] = (uint8_t)(b | (v ? 0x80 : 0));
  } while (v);
  return n;
}
static size_t put_var_i32(uint8_t *p, int32_t v) {
  int64_t z = v >= 0 ? 2 * (int64_t)v : -2 * (int64_t)v - 1; /* zig-zag by definition */
  return put_var(p, (uint32_t)z);
}
static size_t put_str(uint8_t *p, const char *s, size_t n) {
  size_t k = put_var_i32(p, (int32_t)n);
  memcpy(p + k, s, n);
  return k + n;
}

static void options_with(desert_options *o, desert_counting_allocator *ca, unsigned flags) {
  desert_options_init(o);
  o->allocator = ca->allocator;
  o->flags = flags;
}

/* ---- the contract ------------------------------------------------------------------ */

static void test_init_contract(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options o;
  options_with(&o, &ca, 0);
  assert_true(desert_writer_storage_min() <= DESERT_WRITER_STORAGE_SIZE);
  assert_true(desert_reader_storage_min() <= DESERT_READER_STORAGE_SIZE);
  assert_int_equal(desert_writer_storage_min() % _Alignof(max_align_t), 0);
  assert_int_equal(desert_reader_storage_min() % _Alignof(max_align_t), 0);

  static desert_writer_storage ws[2];
  static desert_reader_storage rs[2];
  desert_writer *w = (desert_writer *)1;
  desert_reader *r = (desert_reader *)1;
  /* too small, misaligned, NULL, bad options: DESERT_E_ARGUMENT, *out NULL */
  assert_int_equal(desert_writer_init(ws, desert_writer_storage_min() - 1, &o, &w),
                   DESERT_E_ARGUMENT);
  assert_null(w);
  assert_int_equal(desert_writer_init(ws->bytes + 8, sizeof ws[0], &o, &w), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_init(NULL, sizeof ws[0], &o, &w), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_init(ws, sizeof ws[0], &o, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_init(rs, desert_reader_storage_min() - 1, &o, &r),
                   DESERT_E_ARGUMENT);
  assert_null(r);
  assert_int_equal(desert_reader_init(rs->bytes + 8, sizeof rs[0], &o, &r), DESERT_E_ARGUMENT);
  desert_options bad = o;
  bad.flags = 1u << 30;
  assert_int_equal(desert_writer_init(ws, sizeof ws[0], &bad, &w), DESERT_E_ARGUMENT);
  assert_int_equal(desert_reader_init(rs, sizeof rs[0], &bad, &r), DESERT_E_ARGUMENT);

  /* exactly the minimum works (no room for lazy state: the heap serves it) */
  assert_int_equal(desert_writer_init(ws, desert_writer_storage_min(), &o, &w), DESERT_OK);
  assert_ptr_equal(w, (void *)ws);
  assert_int_equal(desert_reader_init(rs, desert_reader_storage_min(), &o, &r), DESERT_OK);
  assert_ptr_equal(r, (void *)rs);
  assert_int_equal(ca.allocs, 0);
  /* the options shown are the caller's, allocator included */
  const desert_options *wo = desert_writer_options(w);
  assert_ptr_equal(wo->allocator.opaque, ca.allocator.opaque);
  assert_true(wo->allocator.alloc == ca.allocator.alloc && wo->allocator.free == ca.allocator.free);
  assert_ptr_equal(desert_reader_options(r)->allocator.opaque, ca.allocator.opaque);
  desert_writer_free(w);
  desert_reader_free(r);
  desert_writer_free(NULL);
  desert_reader_free(NULL);
  assert_int_equal(ca.allocs, 0);
}

/* ---- zero allocations for the small cases ---------------------------------------- */

static const char fox[] = "The quick brown fox jumps over the lazy dog";

/* Case 8's record (bench/bench_codec.c): Person with one FieldAdded step. */
static const desert_field_desc rec8_fields[] = {
    {"id", 0}, {"name", 0}, {"score", 0}, {"active", 0}, {"tags", 0}};
static const desert_evolution_step rec8_steps[] = {{DESERT_STEP_FIELD_ADDED, "tags", true}};
static const desert_record_desc rec8_desc = DESERT_RECORD_DESC("Person", rec8_fields, rec8_steps);
static const char *const rec8_tags[4] = {"alpha", "beta", "gamma", "delta"};

/* Benchmark case 8, byte for byte (id 42, "Alice Example", 98.625,
 * true, 4 tags). */
static const uint8_t rec8_bytes[54] = {
    0x01, 0x36, 0x30, 0x00, 0x00, 0x00, 0x2a, 0x1a, 'A',  'l',  'i',  'c',  'e',  ' ',
    'E',  'x',  'a',  'm',  'p',  'l',  'e',  0x40, 0x58, 0xa8, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x08, 0x0a, 'a',  'l',  'p',  'h',  'a',  0x08, 'b',  'e',  't',  'a',
    0x0a, 'g',  'a',  'm',  'm',  'a',  0x0a, 'd',  'e',  'l',  't',  'a'};

static void rec8_write(desert_writer *w, bool inl) {
  desert_record_writer rw;
  desert_record_write_begin(w, &rec8_desc, &rw);
  desert_record_write_field(&rw, 0);
  inl ? desert_write_i32_inline(w, 42) : desert_write_i32(w, 42);
  desert_record_write_field(&rw, 1);
  inl ? desert_write_string_inline(w, "Alice Example", 13)
      : desert_write_string(w, "Alice Example", 13);
  desert_record_write_field(&rw, 2);
  inl ? desert_write_f64_inline(w, 98.625) : desert_write_f64(w, 98.625);
  desert_record_write_field(&rw, 3);
  inl ? desert_write_bool_inline(w, true) : desert_write_bool(w, true);
  desert_record_write_field(&rw, 4);
  inl ? desert_write_count_inline(w, 4) : desert_write_count(w, 4);
  for (int t = 0; t < 4; t++)
    inl ? desert_write_string_inline(w, rec8_tags[t], strlen(rec8_tags[t]))
        : desert_write_string(w, rec8_tags[t], strlen(rec8_tags[t]));
  assert_int_equal(desert_record_write_end(&rw), DESERT_OK);
}

static void rec8_read_check(desert_reader *r, bool inl) {
  desert_record_reader rr;
  desert_field_action a;
  int32_t id = 0;
  desert_str name = {NULL, 0};
  double score = 0;
  bool active = false;
  assert_int_equal(desert_record_read_begin(r, &rec8_desc, &rr), DESERT_OK);
  assert_int_equal(desert_record_read_field(&rr, 0, &a), DESERT_OK);
  inl ? desert_read_i32_inline(r, &id) : desert_read_i32(r, &id);
  assert_int_equal(desert_record_read_field(&rr, 1, &a), DESERT_OK);
  inl ? desert_read_string_inline(r, &name) : desert_read_string(r, &name);
  assert_int_equal(desert_record_read_field(&rr, 2, &a), DESERT_OK);
  inl ? desert_read_f64_inline(r, &score) : desert_read_f64(r, &score);
  assert_int_equal(desert_record_read_field(&rr, 3, &a), DESERT_OK);
  inl ? desert_read_bool_inline(r, &active) : desert_read_bool(r, &active);
  assert_int_equal(desert_record_read_field(&rr, 4, &a), DESERT_OK);
  desert_seq seq;
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  assert_int_equal(seq.count, 4);
  /* arena memory, as the bench's decoder keeps the tags */
  desert_str *tags = desert_reader_alloc(r, 4 * sizeof *tags, 16);
  assert_non_null(tags);
  for (size_t t = 0; t < 4; t++)
    inl ? desert_read_string_inline(r, &tags[t]) : desert_read_string(r, &tags[t]);
  assert_int_equal(desert_record_read_end(&rr), DESERT_OK);
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(id, 42);
  assert_int_equal(name.len, 13);
  assert_memory_equal(name.ptr, "Alice Example", 13);
  assert_true(score == 98.625);
  assert_true(active);
  for (size_t t = 0; t < 4; t++) {
    assert_int_equal(tags[t].len, strlen(rec8_tags[t]));
    assert_memory_equal(tags[t].ptr, rec8_tags[t], tags[t].len);
  }
}

/* Encodes case `c` on w (inline or exported forms) and checks the bytes. */
static void encode_case(int c, desert_writer *w, bool inl, int32_t v) {
  uint8_t want[64];
  size_t n = 0;
  switch (c) {
  case 1:
  case 17:
    inl ? desert_write_i32_inline(w, v) : desert_write_i32(w, v);
    n = put_be32(want, (uint32_t)v);
    break;
  case 3:
    inl ? desert_write_string_inline(w, fox, sizeof fox - 1)
        : desert_write_string(w, fox, sizeof fox - 1);
    n = put_str(want, fox, sizeof fox - 1);
    break;
  case 5:
    inl ? desert_write_var_i32_inline(w, v) : desert_write_var_i32(w, v);
    n = put_var_i32(want, v);
    break;
  case 8:
    rec8_write(w, inl);
    break;
  case 13:
    inl ? desert_write_option_inline(w, true) : desert_write_option(w, true);
    inl ? desert_write_i32_inline(w, v) : desert_write_i32(w, v);
    want[0] = 1;
    n = 1 + put_be32(want + 1, (uint32_t)v);
    break;
  default:
    fail_msg("no case %d", c);
  }
  assert_int_equal(desert_writer_status(w), DESERT_OK);
  size_t len;
  const uint8_t *d = inl ? desert_writer_data_inline(w, &len) : desert_writer_data(w, &len);
  if (c == 8)
    desert_assert_bytes_equal(rec8_bytes, sizeof rec8_bytes, d, len);
  else
    desert_assert_bytes_equal(want, n, d, len);
}

/* Decodes the bytes of case `c` (2, 4 and the read halves of 8, 13). */
static void decode_case(int c, desert_reader *r, bool inl, int32_t v) {
  uint8_t in[64] = {0};
  size_t n = 0;
  if (c == 2) n = put_be32(in, (uint32_t)v);
  if (c == 4) n = put_str(in, fox, sizeof fox - 1);
  if (c == 13) {
    in[0] = 1;
    n = 1 + put_be32(in + 1, (uint32_t)v);
  }
  const uint8_t *src = c == 8 ? rec8_bytes : in;
  size_t len = c == 8 ? sizeof rec8_bytes : n;
  assert_int_equal(inl ? desert_reader_begin_inline(r, src, len) : desert_reader_begin(r, src, len),
                   DESERT_OK);
  int32_t got = 0;
  bool some = false;
  desert_str s = {NULL, 0};
  switch (c) {
  case 2:
    inl ? desert_read_i32_inline(r, &got) : desert_read_i32(r, &got);
    assert_int_equal(got, v);
    break;
  case 4:
    inl ? desert_read_string_inline(r, &s) : desert_read_string(r, &s);
    assert_int_equal(s.len, sizeof fox - 1);
    assert_memory_equal(s.ptr, fox, s.len);
    assert_ptr_equal(s.ptr, in + 1); /* a view, not a copy */
    break;
  case 8:
    rec8_read_check(r, inl);
    break;
  case 13:
    inl ? desert_read_option_inline(r, &some) : desert_read_option(r, &some);
    inl ? desert_read_i32_inline(r, &got) : desert_read_i32(r, &got);
    assert_true(some);
    assert_int_equal(got, v);
    break;
  default:
    fail_msg("no case %d", c);
  }
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), len);
}

/* Runs `rounds` messages of case c through storage contexts with a
 * counting allocator and asserts that nothing was allocated. Fresh cases
 * build a writer per message (as the bench's fresh rows); case 17 resets
 * one. */
static void zero_alloc_case(int c, bool inl) {
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options o;
  options_with(&o, &ca, 0);
  desert_rng rng;
  desert_rng_init_test(&rng, (uint64_t)c * 2 + (inl ? 1u : 0u));
  desert_writer_storage reused;
  desert_writer *rw = NULL;
  assert_int_equal(desert_writer_init(&reused, sizeof reused, &o, &rw), DESERT_OK);
  desert_reader_storage rs;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_init(&rs, sizeof rs, &o, &r), DESERT_OK);
  for (int i = 0; i < 64; i++) {
    int32_t v = (int32_t)(uint32_t)desert_rng_next(&rng);
    if (i == 0) v = c == 5 ? -123456789 : 123456789; /* a 4-byte varint, the bench's shape */
    bool reads = c == 2 || c == 4 || c == 8 || c == 13;
    bool writes = c != 2 && c != 4;
    if (writes && c == 17) {
      inl ? desert_writer_reset_inline(rw) : desert_writer_reset(rw);
      encode_case(c, rw, inl, v);
    } else if (writes) {
      desert_writer_storage ws;
      desert_writer *w = NULL;
      assert_int_equal(desert_writer_init(&ws, sizeof ws, &o, &w), DESERT_OK);
      encode_case(c, w, inl, v);
      desert_writer_free(w);
    }
    if (reads) {
      /* fresh readers too, as desert_decode builds them */
      desert_reader_storage fs;
      desert_reader *fr = NULL;
      assert_int_equal(desert_reader_init(&fs, sizeof fs, &o, &fr), DESERT_OK);
      decode_case(c, fr, inl, v);
      desert_reader_free(fr);
      decode_case(c, r, inl, v);
    }
  }
  desert_writer_free(rw);
  desert_reader_free(r);
  if (ca.allocs != 0)
    fail_msg("case %d (%s): %zu allocations", c, inl ? "inline" : "exported", ca.allocs);
}

static void test_zero_alloc_cases(void **state) {
  (void)state;
  static const int cases[] = {1, 2, 3, 4, 5, 8, 13, 17};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    zero_alloc_case(cases[i], true);
    zero_alloc_case(cases[i], false);
  }
}

/* The same messages through heap contexts give the same bytes (the heap
 * API is unchanged) and allocate the contexts themselves. */
static void test_heap_api_unchanged(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options o;
  options_with(&o, &ca, 0);
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  assert_int_equal(ca.allocs, 2);
  encode_case(8, w, true, 0);
  desert_writer_reset(w);
  encode_case(3, w, false, 0);
  decode_case(8, r, true, 0);
  decode_case(4, r, false, 0);
  assert_ptr_equal(desert_writer_options(w)->allocator.opaque, ca.allocator.opaque);
  desert_writer_free(w);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

/* ---- growth past the storage --------------------------------------------------------- */

static void test_growth(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options o;
  options_with(&o, &ca, 0);
  /* 3 KiB storage, 5000 bytes of output: the heap takes over */
  desert_writer_storage ws;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, &o, &w), DESERT_OK);
  for (uint32_t i = 0; i < 1250; i++) desert_write_u32_inline(w, i * 2654435761u);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(len, 5000);
  for (uint32_t i = 0; i < 1250; i++) {
    uint8_t b[4];
    put_be32(b, i * 2654435761u);
    assert_memory_equal(d + 4 * i, b, 4);
  }
  assert_true(ca.allocs > 0);
  /* reset keeps the memory: a second message of the same size allocates nothing */
  size_t before = ca.allocs;
  desert_writer_reset(w);
  for (uint32_t i = 0; i < 1250; i++) desert_write_u32(w, i);
  assert_int_equal(ca.allocs, before);
  desert_writer_free(w);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);

  /* a larger caller storage absorbs the same growth: no allocation */
  static _Alignas(max_align_t) unsigned char big[32768];
  desert_counting_allocator_init(&ca);
  options_with(&o, &ca, 0);
  assert_int_equal(desert_writer_init(big, sizeof big, &o, &w), DESERT_OK);
  for (uint32_t i = 0; i < 1250; i++) desert_write_u32_inline(w, i);
  assert_int_equal(desert_writer_size(w), 5000);
  assert_int_equal(ca.allocs, 0);
  desert_writer_free(w);

  /* a reader whose arena outgrows the storage */
  desert_counting_allocator_init(&ca);
  options_with(&o, &ca, 0);
  desert_reader_storage rs;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_init(&rs, sizeof rs, &o, &r), DESERT_OK);
  uint8_t one = 0;
  assert_int_equal(desert_reader_begin(r, &one, 1), DESERT_OK);
  assert_non_null(desert_reader_alloc(r, 64, 16)); /* first block: the storage */
  assert_int_equal(ca.allocs, 0);
  assert_non_null(desert_reader_alloc(r, 10000, 16)); /* the heap */
  assert_true(ca.allocs > 0);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

/* Allocation failures past the storage are reported, not hidden. */
static void test_growth_nomem(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_counting_allocator_fail_after(&ca, 0);
  desert_options o;
  options_with(&o, &ca, 0);
  desert_writer_storage ws;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, &o, &w), DESERT_OK);
  desert_status st = DESERT_OK;
  for (uint32_t i = 0; i < 4096 && st == DESERT_OK; i++) st = desert_write_u64_inline(w, i);
  assert_int_equal(st, DESERT_E_NOMEM);
  assert_int_equal(desert_writer_status(w), DESERT_E_NOMEM);
  /* sticky in both forms */
  assert_int_equal(desert_write_u8_inline(w, 1), DESERT_E_NOMEM);
  assert_int_equal(desert_write_u8(w, 1), DESERT_E_NOMEM);
  desert_writer_free(w);
  assert_int_equal(ca.live_blocks, 0);
}

/* ---- fixed buffers next to a guard page ------------------------------------------------ */

/* A message of atomic pieces: i32 (4), var_i32 (3), string prefix (1) and
 * body (20), option tag (1), i64 (8): 37 bytes. */
static const size_t piece_len[] = {4, 3, 1, 20, 1, 8};
static const char piece_str[] = "twenty ascii letters";

static desert_status write_pieces(desert_writer *w, bool inl) {
  if (inl) {
    desert_write_i32_inline(w, -2);
    desert_write_var_i32_inline(w, 40000);
    desert_write_string_inline(w, piece_str, 20);
    desert_write_option_inline(w, true);
    return desert_write_i64_inline(w, INT64_MIN + 7);
  }
  desert_write_i32(w, -2);
  desert_write_var_i32(w, 40000);
  desert_write_string(w, piece_str, 20);
  desert_write_option(w, true);
  return desert_write_i64(w, INT64_MIN + 7);
}
static desert_status write_pieces_inline(desert_writer *w, const void *v) {
  (void)v;
  return write_pieces(w, true);
}
static size_t pieces_expected(uint8_t *p) {
  size_t n = put_be32(p, (uint32_t)-2);
  n += put_var_i32(p + n, 40000);
  n += put_str(p + n, piece_str, 20);
  p[n++] = 1;
  return n + put_be64(p + n, (uint64_t)INT64_MIN + 7);
}

static void test_guard_dst_too_small(void **state) {
  (void)state;
  uint8_t want[64];
  size_t total = pieces_expected(want);
  assert_int_equal(total, 37);
  desert_guarded g;
  assert_int_equal(desert_guarded_init(&g, 4096, DESERT_GUARD_AFTER), 0);
  for (size_t cap = 0; cap <= total; cap++) {
    /* the bytes that fit: whole pieces only */
    size_t fit = 0;
    for (size_t i = 0; i < sizeof piece_len / sizeof piece_len[0] && fit + piece_len[i] <= cap; i++)
      fit += piece_len[i];
    for (int form = 0; form < 3; form++) {
      uint8_t *buf = desert_guarded_place(&g, cap); /* buf[cap] is the guard */
      memset(buf, 0xee, cap);
      desert_status st;
      size_t len;
      if (form == 2) {
        st = desert_encode(NULL, write_pieces_inline, NULL, buf, cap, &len);
      } else {
        desert_writer_storage ws;
        desert_writer *w = NULL;
        assert_int_equal(desert_writer_init(&ws, sizeof ws, NULL, &w), DESERT_OK);
        assert_int_equal(desert_writer_use_buffer(w, buf, cap), DESERT_OK);
        st = write_pieces(w, form == 1);
        assert_int_equal(desert_writer_status(w), st);
        len = desert_writer_size(w);
        desert_writer_free(w);
      }
      if (cap < total) {
        if (st != DESERT_E_DST_TOO_SMALL) fail_msg("cap %zu form %d: status %d", cap, form, st);
      } else {
        assert_int_equal(st, DESERT_OK);
      }
      if (len != fit)
        fail_msg("cap %zu form %d: %zu bytes kept, expected %zu", cap, form, len, fit);
      desert_assert_bytes_equal(want, fit, buf, len);
      for (size_t i = fit; i < cap; i++) assert_int_equal(buf[i], 0xee); /* nothing partial */
    }
  }
  /* size-only one-shot: the exact size, nothing written */
  size_t len = 0;
  assert_int_equal(desert_encode(NULL, write_pieces_inline, NULL, NULL, 0, &len), DESERT_OK);
  assert_int_equal(len, total);
  desert_guarded_free(&g);
}

/* Truncated input that ends at a guard page: each read fails with
 * DESERT_E_INPUT_ENDED at the item's start in both forms, and no byte past
 * the input is touched. */
static void test_guard_truncated_input(void **state) {
  (void)state;
  uint8_t full[64];
  size_t total = pieces_expected(full);
  desert_guarded g;
  assert_int_equal(desert_guarded_init(&g, 4096, DESERT_GUARD_AFTER), 0);
  for (size_t len = 0; len <= total; len++) {
    const uint8_t *in = desert_guarded_place_copy(&g, full, len);
    desert_status st[2];
    size_t off[2], pos[2];
    for (int inl = 0; inl < 2; inl++) {
      desert_reader_storage rs;
      desert_reader *r = NULL;
      assert_int_equal(desert_reader_init(&rs, sizeof rs, NULL, &r), DESERT_OK);
      desert_reader_begin(r, in, len);
      int32_t a = 0, b = 0;
      desert_str s = {NULL, 0};
      bool some = false;
      int64_t c = 0;
      if (inl) {
        desert_read_i32_inline(r, &a);
        desert_read_var_i32_inline(r, &b);
        desert_read_string_inline(r, &s);
        desert_read_option_inline(r, &some);
        desert_read_i64_inline(r, &c);
      } else {
        desert_read_i32(r, &a);
        desert_read_var_i32(r, &b);
        desert_read_string(r, &s);
        desert_read_option(r, &some);
        desert_read_i64(r, &c);
      }
      st[inl] = desert_reader_status(r);
      off[inl] = desert_reader_error_offset(r);
      pos[inl] = desert_reader_offset(r);
      if (len == total) {
        assert_int_equal(st[inl], DESERT_OK);
        assert_int_equal(a, -2);
        assert_int_equal(b, 40000);
        assert_int_equal(s.len, 20);
        assert_true(some);
        assert_true(c == INT64_MIN + 7);
      }
      desert_reader_free(r);
    }
    assert_int_equal(st[0], st[1]);
    assert_int_equal(off[0], off[1]);
    assert_int_equal(pos[0], pos[1]);
    if (len < total) {
      assert_int_equal(st[0], DESERT_E_INPUT_ENDED);
      /* the start of the piece that does not fit (the string's bytes
       * start after its prefix: docs/schema.md §14.5) */
      size_t start = 0;
      for (size_t i = 0; start + piece_len[i] <= len; i++) start += piece_len[i];
      assert_int_equal(off[0], start);
    }
  }
  desert_guarded_free(&g);
}

/* ---- inline and exported forms agree on edge inputs -------------------------------------- */

typedef struct read_result {
  desert_status st;
  size_t off, pos;
  uint64_t v; /* the value read (bits), 0 on failure */
} read_result;

enum { OP_VAR_U32, OP_VAR_I32, OP_STRING, OP_OPTION, OP_I16, OP_F32 };

static read_result read_one(const uint8_t *in, size_t len, unsigned flags, size_t max_length,
                            int op, bool inl) {
  desert_options o;
  desert_options_init(&o);
  o.flags = flags;
  o.max_length = max_length;
  desert_reader_storage rs;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_init(&rs, sizeof rs, &o, &r), DESERT_OK);
  desert_reader_begin(r, in, len);
  read_result res = {DESERT_OK, 0, 0, 0};
  uint32_t u = 0;
  int32_t i = 0;
  desert_str s = {NULL, 0};
  bool b = false;
  int16_t h = 0;
  float f = 0;
  switch (op) {
  case OP_VAR_U32:
    res.st = inl ? desert_read_var_u32_inline(r, &u) : desert_read_var_u32(r, &u);
    res.v = u;
    break;
  case OP_VAR_I32:
    res.st = inl ? desert_read_var_i32_inline(r, &i) : desert_read_var_i32(r, &i);
    res.v = (uint32_t)i;
    break;
  case OP_STRING:
    res.st = inl ? desert_read_string_inline(r, &s) : desert_read_string(r, &s);
    /* a view: its offset in the input; a copy (lenient): its text */
    if (s.ptr && (uintptr_t)s.ptr >= (uintptr_t)in && (uintptr_t)s.ptr <= (uintptr_t)(in + len))
      res.v = s.len | (uint64_t)((const uint8_t *)s.ptr - in) << 32;
    else if (s.ptr)
      for (size_t k = 0; k < s.len; k++) res.v = res.v * 131 + (uint8_t)s.ptr[k] + (1ull << 63);
    break;
  case OP_OPTION:
    res.st = inl ? desert_read_option_inline(r, &b) : desert_read_option(r, &b);
    res.v = b;
    break;
  case OP_I16:
    res.st = inl ? desert_read_i16_inline(r, &h) : desert_read_i16(r, &h);
    res.v = (uint16_t)h;
    break;
  default:
    res.st = inl ? desert_read_f32_inline(r, &f) : desert_read_f32(r, &f);
    memcpy(&u, &f, 4);
    res.v = u;
  }
  assert_int_equal(res.st, desert_reader_status(r));
  res.off = desert_reader_error_offset(r);
  res.pos = desert_reader_offset(r);
  desert_reader_free(r);
  return res;
}

static void test_inline_agrees_on_edges(void **state) {
  (void)state;
  static const struct {
    const char *hex;
    int op;
    unsigned flags;
    size_t max_length;
    desert_status want;
  } cases[] = {
      {"ff ff ff ff 0f", OP_VAR_U32, 0, 0, DESERT_OK},
      {"ff ff ff ff 7f", OP_VAR_U32, 0, 0, DESERT_OK}, /* bits past 31 dropped */
      {"ff ff ff ff ff", OP_VAR_U32, 0, 0, DESERT_E_VARINT_TOO_LONG},
      {"ff ff ff ff ff", OP_VAR_U32, DESERT_OPT_LENIENT_VARINT, 0, DESERT_OK},
      {"80 80 80", OP_VAR_U32, 0, 0, DESERT_E_INPUT_ENDED},
      {"80 80 80 80 01 00", OP_VAR_I32, 0, 0, DESERT_OK},
      {"01", OP_VAR_I32, 0, 0, DESERT_OK},
      {"", OP_VAR_U32, 0, 0, DESERT_E_INPUT_ENDED},
      {"06 61 62 63", OP_STRING, 0, 0, DESERT_OK},
      {"06 61 62 63", OP_STRING, 0, 2, DESERT_E_LIMIT},
      {"06 61 62", OP_STRING, 0, 0, DESERT_E_INPUT_ENDED},
      {"01 61", OP_STRING, 0, 0, DESERT_E_NEGATIVE_LENGTH},
      {"04 c3 a9", OP_STRING, 0, 0, DESERT_OK}, /* non-ASCII: exported */
      {"04 c3 28", OP_STRING, 0, 0, DESERT_E_INVALID_UTF8},
      {"04 c3 28", OP_STRING, DESERT_OPT_LENIENT_UTF8, 0, DESERT_OK},
      {"00", OP_STRING, 0, 0, DESERT_OK},
      {"02", OP_OPTION, 0, 0, DESERT_E_INVALID_TAG},
      {"02", OP_OPTION, DESERT_OPT_LENIENT_TAGS, 0, DESERT_OK},
      {"01", OP_OPTION, 0, 0, DESERT_OK},
      {"ff", OP_I16, 0, 0, DESERT_E_INPUT_ENDED},
      {"ff fe", OP_I16, 0, 0, DESERT_OK},
      {"7f c0 00 01", OP_F32, 0, 0, DESERT_OK}, /* a NaN payload survives */
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    uint8_t in[16];
    size_t len = desert_hex_decode(cases[c].hex, in, sizeof in);
    assert_true(len != SIZE_MAX);
    read_result e = read_one(in, len, cases[c].flags, cases[c].max_length, cases[c].op, false);
    read_result i = read_one(in, len, cases[c].flags, cases[c].max_length, cases[c].op, true);
    if (e.st != cases[c].want) fail_msg("case %zu: exported status %d", c, e.st);
    if (i.st != e.st || i.off != e.off || i.pos != e.pos || i.v != e.v)
      fail_msg("case %zu (%s): inline %d/%zu/%zu/%llx, exported %d/%zu/%zu/%llx", c, cases[c].hex,
               i.st, i.off, i.pos, (unsigned long long)i.v, e.st, e.off, e.pos,
               (unsigned long long)e.v);
  }
}

/* Writer side: size-only mode and sticky errors take the exported path. */
static void test_inline_writer_modes(void **state) {
  (void)state;
  desert_writer_storage ws;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, NULL, &w), DESERT_OK);
  desert_writer_count_only(w);
  assert_int_equal(write_pieces(w, true), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 37);
  assert_null(desert_writer_data(w, NULL));
  desert_writer_use_growable(w);
  /* invalid UTF-8 and too-long counts fail the same way in both forms */
  assert_int_equal(desert_write_string_inline(w, "\xc3", 1), DESERT_E_INVALID_UTF8);
  assert_int_equal(desert_write_i32_inline(w, 1), DESERT_E_INVALID_UTF8);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_reset(w);
  assert_int_equal(desert_write_count_inline(w, (size_t)INT32_MAX + 1), DESERT_E_LENGTH_TOO_LARGE);
  desert_writer_reset(w);
  assert_int_equal(desert_write_string_inline(w, NULL, 0), DESERT_OK); /* "" */
  assert_int_equal(desert_write_string_inline(w, NULL, 1), DESERT_E_ARGUMENT);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  assert_int_equal(len, 1);
  assert_int_equal(d[0], 0);
  desert_writer_free(w);
}

/* ---- one-shot decode ---------------------------------------------------------------------- */

typedef struct pair {
  int32_t a;
  desert_str s;
} pair;

static desert_status read_pair(desert_reader *r, void *out) {
  pair *p = out;
  desert_read_i32_inline(r, &p->a);
  return desert_read_string_inline(r, &p->s);
}
static desert_status read_pair_then_refuse(desert_reader *r, void *out) {
  read_pair(r, out);
  return DESERT_E_INVALID_VALUE; /* the callback's own verdict */
}

static void test_decode_one_shot(void **state) {
  (void)state;
  uint8_t in[32];
  size_t n = put_be32(in, 7);
  n += put_str(in + n, "hi", 2);
  in[n++] = 0x99; /* a trailing byte */
  pair p = {0, {NULL, 0}};
  size_t off = 99;
  assert_int_equal(desert_decode(NULL, read_pair, &p, in, n, &off), DESERT_OK);
  assert_int_equal(p.a, 7);
  assert_int_equal(p.s.len, 2);
  assert_ptr_equal(p.s.ptr, in + 5);
  assert_int_equal(off, n - 1); /* the caller sees the trailing byte */
  assert_int_equal(desert_decode(NULL, read_pair, &p, in, 6, &off), DESERT_E_INPUT_ENDED);
  assert_int_equal(off, 5); /* the string's first byte */
  assert_int_equal(desert_decode(NULL, read_pair_then_refuse, &p, in, n, &off),
                   DESERT_E_INVALID_VALUE);
  assert_int_equal(desert_decode(NULL, NULL, &p, in, n, &off), DESERT_E_ARGUMENT);
  assert_int_equal(desert_encode(NULL, NULL, NULL, in, sizeof in, NULL), DESERT_E_ARGUMENT);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_init_contract),         cmocka_unit_test(test_zero_alloc_cases),
      cmocka_unit_test(test_heap_api_unchanged),    cmocka_unit_test(test_growth),
      cmocka_unit_test(test_growth_nomem),          cmocka_unit_test(test_guard_dst_too_small),
      cmocka_unit_test(test_guard_truncated_input), cmocka_unit_test(test_inline_agrees_on_edges),
      cmocka_unit_test(test_inline_writer_modes),   cmocka_unit_test(test_decode_one_shot),
  };
  return cmocka_run_group_tests_name("codec_storage", tests, NULL, NULL);
}
