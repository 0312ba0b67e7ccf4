/* test/test_stream.c — streaming readers and writers (issue 15): element-by-
 * element collections in both forms with marks and bounded memory, values
 * larger than the window, the view lifetime and session tables across
 * marks, source and sink failures, the FILE * and fd sources and sinks,
 * and desert-scala's golden dataset (records with evolution, dedup
 * strings) streamed in random pieces against the in-memory decode.
 * The per-value checks (every value of the value suites streamed in 1-byte
 * and random pieces, cut and failed everywhere) run from the value harness
 * (test/support/stream_testlib.c).
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "desert/record.h"
#include "desert/stream.h"
#include "desert_build_config.h"
#include "golden_cstruct_model.h"
#include "golden_model.h"
#include "sha256.h"
#include "codec_testlib.h"
#include "stream_testlib.h"
#include "test_util.h"

/* ---- element-by-element collections ------------------------------------------ */

#define N_ELEMS 20000u
static const char *const names[5] = {"alpha", "beta", "gamma", "delta", "epsilon"};

/* Element i: (var_i32 i, dedup string names[i % 5], string "item-<i>",
 * byte block of i % 40 bytes, each byte (i + k) & 0xff). */
static desert_status write_elem(desert_writer *w, uint32_t i) {
  char text[32];
  int n = snprintf(text, sizeof text, "item-%u", i);
  uint8_t blk[40];
  for (uint32_t k = 0; k < i % 40; k++) blk[k] = (uint8_t)(i + k);
  desert_write_var_i32(w, (int32_t)i);
  desert_write_dedup_string(w, names[i % 5], strlen(names[i % 5]));
  desert_write_string(w, text, (size_t)n);
  return desert_write_bytes(w, blk, i % 40);
}

static void check_elem(desert_reader *r, uint32_t i) {
  int32_t v;
  desert_str name, text;
  desert_bytes blk;
  assert_int_equal(desert_read_var_i32(r, &v), DESERT_OK);
  assert_int_equal(v, (int32_t)i);
  assert_int_equal(desert_read_dedup_string(r, &name), DESERT_OK);
  assert_int_equal(name.len, strlen(names[i % 5]));
  assert_memory_equal(name.ptr, names[i % 5], name.len);
  assert_int_equal(desert_read_string(r, &text), DESERT_OK);
  char want[32];
  int n = snprintf(want, sizeof want, "item-%u", i);
  assert_int_equal(text.len, (size_t)n);
  assert_memory_equal(text.ptr, want, text.len);
  assert_int_equal(desert_read_bytes(r, &blk), DESERT_OK);
  assert_int_equal(blk.len, i % 40);
  for (uint32_t k = 0; k < i % 40; k++) assert_int_equal(blk.ptr[k], (uint8_t)(i + k));
}

/* The N_ELEMS elements as one collection, one element at a time. */
static desert_status write_collection(desert_writer *w, bool known) {
  if (known) {
    desert_write_count(w, N_ELEMS);
  } else {
    desert_write_stream_begin(w);
  }
  for (uint32_t i = 0; i < N_ELEMS; i++) {
    if (!known) desert_write_stream_item(w);
    write_elem(w, i);
  }
  if (!known) desert_write_stream_end(w);
  return desert_writer_status(w);
}

/* The collection in memory, element by element, as the oracle bytes. */
static uint8_t *collection_in_memory(bool known, size_t *len) {
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  write_collection(w, known);
  assert_int_equal(desert_writer_status(w), DESERT_OK);
  const uint8_t *d = desert_writer_data(w, len);
  uint8_t *copy = malloc(*len);
  assert_non_null(copy);
  memcpy(copy, d, *len);
  desert_writer_free(w);
  return copy;
}

static void collection_roundtrip(bool known) {
  size_t len;
  uint8_t *want = collection_in_memory(known, &len);
  /* Written one element at a time through a 256-byte buffer. */
  desert_counting_allocator wa;
  desert_options o;
  ct_counting_options(&o, &wa);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  ct_mem_sink sink;
  assert_int_equal(desert_writer_begin_stream(w, ct_mem_sink_init(&sink, SIZE_MAX), 256),
                   DESERT_OK);
  size_t peak_before = wa.peak_bytes;
  assert_int_equal(write_collection(w, known), DESERT_OK);
  assert_int_equal(desert_writer_flush(w), DESERT_OK);
  assert_int_equal(desert_writer_stream_offset(w), len);
  desert_assert_bytes_equal(want, len, sink.data, sink.len);
  /* Bounded: the 256-byte buffer plus the dedup table's first blocks (5
   * strings; 5184 bytes measured) against ~0.5 MB of output. */
  if (wa.peak_bytes - peak_before >= 16384) fail_msg("writer peak %zu", wa.peak_bytes - peak_before);
  desert_writer_free(w);
  assert_int_equal(wa.live_blocks, 0);

  /* Read back one element at a time through a 512-byte window, in random
   * pieces, marking after each element. */
  desert_counting_allocator ra;
  ct_counting_options(&o, &ra);
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  desert_rng rng;
  desert_rng_init_test(&rng, known ? 11u : 12u);
  ct_mem_source m;
  assert_int_equal(
      desert_reader_begin_stream(r, ct_mem_source_init(&m, sink.data, sink.len, 300, &rng, SIZE_MAX),
                                 512),
      DESERT_OK);
  desert_seq seq;
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  assert_int_equal(seq.known, known);
  uint32_t i = 0;
  while (desert_read_seq_next(r, &seq)) {
    check_elem(r, i++);
    assert_int_equal(desert_reader_mark(r), DESERT_OK);
  }
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(i, N_ELEMS);
  assert_int_equal(desert_reader_offset(r), len);
  assert_true(desert_reader_at_end(r));
  /* Two 512-byte windows, the state, the 5-string table and the arena's
   * first block: far below the ~0.5 MB of input. */
  if (ra.peak_bytes >= 16384) fail_msg("reader peak %zu", ra.peak_bytes);
  desert_reader_free(r);
  assert_int_equal(ra.live_blocks, 0);
  assert_int_equal(ra.bad_frees, 0);
  free(sink.data);
  free(want);
}

static void test_collection_unknown_size(void **state) {
  (void)state;
  collection_roundtrip(false);
}

static void test_collection_known_size(void **state) {
  (void)state;
  collection_roundtrip(true);
}

/* ---- values larger than the window -------------------------------------------- */

static void test_large_values(void **state) {
  (void)state;
  const size_t big = (size_t)3 << 20; /* 3 MiB string through a 1 KiB window */
  char *text = malloc(big);
  assert_non_null(text);
  for (size_t k = 0; k < big; k++) text[k] = (char)('a' + k % 26);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  ct_mem_sink sink;
  assert_int_equal(desert_writer_begin_stream(w, ct_mem_sink_init(&sink, SIZE_MAX), 1024),
                   DESERT_OK);
  desert_write_u8(w, 7);
  desert_write_string(w, text, big);
  desert_write_u8(w, 9);
  desert_write_string(w, "tail", 4);
  assert_int_equal(desert_writer_flush(w), DESERT_OK);
  size_t len = sink.len;
  assert_int_equal(len, 1 + 4 + big + 1 + 5); /* var_i32(3 MiB) takes 4 bytes */
  desert_writer_free(w);

  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  ct_mem_source m;
  assert_int_equal(desert_reader_begin_stream(
                       r, ct_mem_source_init(&m, sink.data, len, 4000, NULL, SIZE_MAX), 1024),
                   DESERT_OK);
  uint8_t b;
  desert_str s;
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(b, 7);
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, big);
  assert_memory_equal(s.ptr, text, big);
  /* Growth follows the delivered bytes: at most a few times the value. */
  assert_true(ca.peak_bytes < 5 * big);
  assert_int_equal(desert_reader_mark(r), DESERT_OK);
  /* After the mark the large window is given back. */
  assert_true(ca.live_bytes < 8192);
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(b, 9);
  assert_int_equal(desert_read_string(r, &s), DESERT_OK);
  assert_int_equal(s.len, 4);
  assert_memory_equal(s.ptr, "tail", 4);
  assert_true(desert_reader_at_end(r));

  /* A length prefix claiming more than arrives: the window grows with the
   * bytes that came, the read ends with INPUT_ENDED at the string bytes. */
  uint8_t lie[8] = {0x80, 0x80, 0x80, 0x04, 'x', 'y', 'z', 'w'}; /* var_i32(4 Mi) */
  assert_int_equal(desert_reader_begin_stream(r, ct_mem_source_init(&m, lie, 8, 8, NULL, SIZE_MAX),
                                              1024),
                   DESERT_OK);
  size_t before = ca.peak_bytes;
  assert_int_equal(desert_read_string(r, &s), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), 4);
  assert_int_equal(ca.peak_bytes, before); /* nothing beyond the 1 KiB window */

  /* Above buffer + max_length: DESERT_E_LIMIT (the in-memory reader's limit
   * for the same length prefix is max_length itself). */
  desert_reader_free(r);
  o.max_length = 1000;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  assert_int_equal(desert_reader_begin_stream(
                       r, ct_mem_source_init(&m, sink.data, len, 4000, NULL, SIZE_MAX), 1024),
                   DESERT_OK);
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(desert_read_string(r, &s), DESERT_E_LIMIT);
  assert_int_equal(desert_reader_error_offset(r), 1);
  const uint8_t *raw;
  assert_int_equal(desert_reader_begin_stream(
                       r, ct_mem_source_init(&m, sink.data, len, 4000, NULL, SIZE_MAX), 1024),
                   DESERT_OK);
  assert_int_equal(desert_read_raw(r, 5000, &raw), DESERT_E_LIMIT);
  assert_int_equal(desert_reader_error_offset(r), 0);
  /* A run far beyond the limit in a short stream: InputEnded at the first
   * element that does not fit, exactly as in memory (not a LIMIT). */
  uint8_t small[20] = {0};
  uint64_t one = 0;
  assert_int_equal(desert_reader_begin_stream(
                       r, ct_mem_source_init(&m, small, sizeof small, 3, NULL, SIZE_MAX), 1024),
                   DESERT_OK);
  assert_int_equal(desert_read_u64_array(r, &one, (size_t)1 << 28), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), 16);
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  free(sink.data);
  free(text);
}

/* ---- lifetime, session tables, offsets ------------------------------------------- */

static void test_session_across_marks(void **state) {
  (void)state;
  /* 300 elements each a dedup string: the first 3 are new, later ones
   * refer back to ids written far earlier (long gone from the window). */
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  char pad[100];
  memset(pad, 'p', sizeof pad);
  for (int i = 0; i < 300; i++) {
    const char *s = names[i % 3];
    desert_write_dedup_string(w, s, strlen(s));
    desert_write_string(w, pad, sizeof pad);
  }
  size_t len;
  const uint8_t *bytes = desert_writer_data(w, &len);
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  ct_mem_source m;
  assert_int_equal(
      desert_reader_begin_stream(r, ct_mem_source_init(&m, bytes, len, 64, NULL, SIZE_MAX), 128),
      DESERT_OK);
  for (int i = 0; i < 300; i++) {
    desert_str s, p;
    assert_int_equal(desert_read_dedup_string(r, &s), DESERT_OK);
    assert_int_equal(desert_read_string(r, &p), DESERT_OK);
    assert_int_equal(s.len, strlen(names[i % 3]));
    assert_memory_equal(s.ptr, names[i % 3], s.len);
    assert_int_equal(p.len, sizeof pad);
    assert_int_equal(desert_reader_mark(r), DESERT_OK);
  }
  assert_true(desert_reader_at_end(r));
  /* A bad id far into the stream: the error offset counts from the start. */
  uint8_t bad[300];
  memset(bad, 0, sizeof bad); /* 298 empty strings (00), then id -5 (09) */
  bad[298] = 0x09;
  assert_int_equal(
      desert_reader_begin_stream(r, ct_mem_source_init(&m, bad, 299, 1, NULL, SIZE_MAX), 64),
      DESERT_OK);
  desert_str s;
  for (int i = 0; i < 298; i++) {
    assert_int_equal(desert_read_string(r, &s), DESERT_OK);
    desert_reader_mark(r);
  }
  assert_int_equal(desert_read_dedup_string(r, &s), DESERT_E_INVALID_STRING_ID);
  assert_int_equal(desert_reader_error_offset(r), 298);
  desert_reader_free(r);
  desert_writer_free(w);
}

/* A versioned record (evolution step, two chunks): marking inside it is a
 * state error; a mark after it is fine. */
static const desert_field_desc rec_fields[2] = {{"a", 0}, {"b", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step rec_steps[1] = {{DESERT_STEP_FIELD_ADDED, "b", true}};
static const desert_record_desc rec_desc = {"R", rec_fields, 2, rec_steps, 1};

static void test_mark_inside_record(void **state) {
  (void)state;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  desert_record_writer rw;
  assert_int_equal(desert_record_write_begin(w, &rec_desc, &rw), DESERT_OK);
  desert_record_write_field(&rw, 0);
  desert_write_i32(w, 42);
  desert_record_write_field_option(&rw, 1, true);
  desert_write_i32(w, 43);
  assert_int_equal(desert_record_write_end(&rw), DESERT_OK);
  size_t len;
  const uint8_t *bytes = desert_writer_data(w, &len);
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  ct_mem_source m;
  desert_record_reader rr;
  desert_field_action act;
  int32_t a = 0, b = 0;
  /* 0: parked between fields at the stream's end (the record reader's
   * limit then equals the window's end: only the depth tells); 1: inside
   * chunk 0; 2: after the record. */
  for (int finish = 0; finish < 3; finish++) {
    assert_int_equal(
        desert_reader_begin_stream(r, ct_mem_source_init(&m, bytes, len, 1, NULL, SIZE_MAX), 64),
        DESERT_OK);
    assert_int_equal(desert_record_read_begin(r, &rec_desc, &rr), DESERT_OK);
    if (finish == 0) {
      assert_int_equal(desert_reader_mark(r), DESERT_E_STATE);
      continue;
    }
    assert_int_equal(desert_record_read_field(&rr, 0, &act), DESERT_OK);
    assert_int_equal(act, DESERT_FIELD_READ);
    assert_int_equal(desert_read_i32(r, &a), DESERT_OK);
    assert_int_equal(a, 42);
    if (finish == 1) {
      assert_int_equal(desert_reader_mark(r), DESERT_E_STATE);
      continue;
    }
    assert_int_equal(desert_record_read_field(&rr, 1, &act), DESERT_OK);
    assert_int_equal(act, DESERT_FIELD_READ);
    assert_int_equal(desert_read_i32(r, &b), DESERT_OK);
    assert_int_equal(b, 43);
    assert_int_equal(desert_record_read_end(&rr), DESERT_OK);
    assert_int_equal(desert_reader_mark(r), DESERT_OK);
    assert_true(desert_reader_at_end(r));
  }
  desert_reader_free(r);
  desert_writer_free(w);
}

/* A warm reader or writer restarting a stream of the same buffer size
 * allocates nothing (the window and buffer are kept). */
static void test_warm_restart(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_options o;
  ct_counting_options(&o, &ca);
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  size_t allocs = 0;
  for (int round = 0; round < 3; round++) {
    ct_mem_sink sink;
    assert_int_equal(desert_writer_begin_stream(w, ct_mem_sink_init(&sink, SIZE_MAX), 128),
                     DESERT_OK);
    for (uint32_t i = 0; i < 50; i++) assert_int_equal(write_elem(w, i), DESERT_OK);
    assert_int_equal(desert_writer_flush(w), DESERT_OK);
    ct_mem_source m;
    assert_int_equal(desert_reader_begin_stream(
                         r, ct_mem_source_init(&m, sink.data, sink.len, 100, NULL, SIZE_MAX), 128),
                     DESERT_OK);
    for (uint32_t i = 0; i < 50; i++) {
      check_elem(r, i);
      assert_int_equal(desert_reader_mark(r), DESERT_OK);
    }
    assert_true(desert_reader_at_end(r));
    free(sink.data);
    if (round == 1) allocs = ca.allocs;
    if (round == 2) assert_int_equal(ca.allocs, allocs);
  }
  desert_reader_free(r);
  desert_writer_free(w);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
}

/* ---- failures ------------------------------------------------------------------ */

static void test_source_failure(void **state) {
  (void)state;
  /* u32 then a 10-byte string: the source fails after 7 bytes, inside the
   * string body that starts at 5. */
  const uint8_t in[16] = {0, 0, 0, 1, 0x14, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 0};
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  ct_mem_source m;
  assert_int_equal(
      desert_reader_begin_stream(r, ct_mem_source_init(&m, in, 16, 3, NULL, 7), 64), DESERT_OK);
  uint32_t u;
  desert_str s = {NULL, 77};
  assert_int_equal(desert_read_u32(r, &u), DESERT_OK);
  assert_int_equal(u, 1);
  assert_int_equal(desert_read_string(r, &s), DESERT_E_READ_INPUT);
  assert_int_equal(desert_reader_error_offset(r), 5);
  assert_null(s.ptr); /* no partial value */
  assert_int_equal(s.len, 77);
  assert_int_equal(desert_read_u8(r, (uint8_t *)&u), DESERT_E_READ_INPUT); /* sticky */
  assert_string_equal(desert_status_kind(DESERT_E_READ_INPUT), "FailedToReadInput");
  assert_string_equal(desert_status_kind(DESERT_E_WRITE_OUTPUT), "FailedToWriteOutput");
  assert_int_equal(m.calls_after_end, 0);
  /* A source that fails before anything: at_end is false and the status
   * says why. */
  assert_int_equal(
      desert_reader_begin_stream(r, ct_mem_source_init(&m, in, 16, 3, NULL, 0), 64), DESERT_OK);
  assert_false(desert_reader_at_end(r));
  assert_int_equal(desert_reader_status(r), DESERT_E_READ_INPUT);
  /* Argument checks. */
  desert_source none = {NULL, NULL};
  assert_int_equal(desert_reader_begin_stream(r, none, 0), DESERT_E_ARGUMENT);
  desert_sink nosink = {NULL, NULL};
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_writer_begin_stream(w, nosink, 0), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_flush(w), DESERT_E_STATE);
  assert_int_equal(desert_writer_stream_offset(w), 0);
  /* desert_reader_ensure pulls bytes into the window and records nothing. */
  assert_int_equal(
      desert_reader_begin_stream(r, ct_mem_source_init(&m, in, 16, 1, NULL, SIZE_MAX), 64),
      DESERT_OK);
  assert_int_equal(desert_reader_remaining(r), 0);
  assert_true(desert_reader_ensure(r, 10));
  assert_true(desert_reader_remaining(r) >= 10);
  assert_false(desert_reader_ensure(r, 17));
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_reader_remaining(r), 16);
  assert_int_equal(
      desert_reader_begin_stream(r, ct_mem_source_init(&m, in, 16, 4, NULL, 9), 64), DESERT_OK);
  assert_false(desert_reader_ensure(r, 12));
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_reader_fail(r, DESERT_E_INPUT_ENDED, 8), DESERT_E_READ_INPUT);
  assert_int_equal(desert_reader_error_offset(r), 8);
  /* In-memory readers: mark does nothing, at_end is the bounds check. */
  assert_int_equal(desert_reader_begin(r, in, 2), DESERT_OK);
  assert_int_equal(desert_reader_mark(r), DESERT_OK);
  assert_false(desert_reader_at_end(r));
  assert_true(desert_reader_ensure(r, 2));
  assert_false(desert_reader_ensure(r, 3));
  assert_int_equal(desert_read_u16(r, (uint16_t *)&u), DESERT_OK);
  assert_true(desert_reader_at_end(r));
  desert_writer_free(w);
  desert_reader_free(r);
}

static void test_sink_failure_sticky(void **state) {
  (void)state;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  ct_mem_sink sink;
  assert_int_equal(desert_writer_begin_stream(w, ct_mem_sink_init(&sink, 100), 64), DESERT_OK);
  desert_status st = DESERT_OK;
  int i = 0;
  for (; i < 1000 && st == DESERT_OK; i++) st = desert_write_u32(w, (uint32_t)i);
  assert_int_equal(st, DESERT_E_WRITE_OUTPUT);
  assert_int_equal(sink.len, 64); /* the first full buffer went out, the second failed */
  assert_int_equal(i, 33);         /* the 33rd u32 needed room */
  assert_int_equal(desert_write_string(w, "x", 1), DESERT_E_WRITE_OUTPUT);
  assert_int_equal(desert_writer_flush(w), DESERT_E_WRITE_OUTPUT);
  assert_int_equal(sink.calls_after_fail, 0);
  free(sink.data);
  /* Back to the writer's own buffer: an ordinary writer again. */
  desert_writer_use_growable(w);
  assert_int_equal(desert_write_u8(w, 5), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 1);
  desert_writer_free(w);
}

/* ---- FILE * and file descriptors ------------------------------------------------ */

static void test_file_and_fd(void **state) {
  (void)state;
  size_t len;
  uint8_t *want = collection_in_memory(false, &len);
  FILE *f = tmpfile();
  assert_non_null(f);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_writer_begin_stream(w, desert_sink_file(f), 1000), DESERT_OK);
  write_collection(w, false);
  assert_int_equal(desert_writer_flush(w), DESERT_OK);
  assert_int_equal(fflush(f), 0);
  assert_int_equal(ftell(f), (long)len);
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  for (int via_fd = 0; via_fd < 2; via_fd++) {
    rewind(f);
    desert_source src = via_fd ? desert_source_fd(fileno(f)) : desert_source_file(f);
    assert_int_equal(desert_reader_begin_stream(r, src, 0), DESERT_OK);
    desert_seq seq;
    assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
    uint32_t i = 0;
    while (desert_read_seq_next(r, &seq)) {
      check_elem(r, i++);
      desert_reader_mark(r);
    }
    assert_int_equal(desert_reader_status(r), DESERT_OK);
    assert_int_equal(i, N_ELEMS);
    assert_true(desert_reader_at_end(r));
  }
  /* The fd sink writes the same bytes. */
  FILE *g = tmpfile();
  assert_non_null(g);
  assert_int_equal(desert_writer_begin_stream(w, desert_sink_fd(fileno(g)), 0), DESERT_OK);
  assert_int_equal(desert_write_raw(w, want, len), DESERT_OK);
  assert_int_equal(desert_writer_flush(w), DESERT_OK);
  rewind(g);
  uint8_t *back = malloc(len + 1);
  assert_non_null(back);
  assert_int_equal(fread(back, 1, len + 1, g), len);
  assert_memory_equal(back, want, len);
  /* A descriptor that is not open fails: WRITE_OUTPUT / READ_INPUT. */
  assert_int_equal(desert_writer_begin_stream(w, desert_sink_fd(-1), 64), DESERT_OK);
  desert_write_raw(w, want, 200);
  assert_int_equal(desert_writer_flush(w), DESERT_E_WRITE_OUTPUT);
  assert_int_equal(desert_reader_begin_stream(r, desert_source_fd(-1), 64), DESERT_OK);
  uint8_t b;
  assert_int_equal(desert_read_u8(r, &b), DESERT_E_READ_INPUT);
  assert_int_equal(desert_reader_error_offset(r), 0);
  free(back);
  fclose(g);
  desert_reader_free(r);
  desert_writer_free(w);
  fclose(f);
  free(want);
}

/* ---- the golden dataset (records, evolution, dedup strings) ---------------------- */

static uint8_t *golden;
static size_t golden_len;

static uint8_t *modern_bytes(desert_writer *w, const golden_model *m, size_t *n) {
  desert_writer_use_growable(w);
  assert_int_equal(golden_model_write(w, m), DESERT_OK);
  const uint8_t *d = desert_writer_data(w, n);
  uint8_t *c = malloc(*n);
  assert_non_null(c);
  memcpy(c, d, *n);
  return c;
}

/* Skips (or, with DESERT_REQUIRE_GOLDEN=1, fails) without the dataset. */
static void need_golden(void) {
  if (golden) return;
  const char *req = getenv("DESERT_REQUIRE_GOLDEN");
  if (req && strcmp(req, "1") == 0) fail_msg("golden dataset missing");
  fprintf(stderr, "test_stream: SKIP (no golden dataset)\n");
  skip();
}

/* A streaming reader, an in-memory one (the oracle) and a writer (w may be NULL). */
static void new_contexts(desert_reader **r, desert_reader **mr, desert_writer **w) {
  assert_int_equal(desert_reader_create(NULL, r), DESERT_OK);
  assert_int_equal(desert_reader_create(NULL, mr), DESERT_OK);
  if (w) assert_int_equal(desert_writer_create(NULL, w), DESERT_OK);
}

/* Readers for ct_stream_cut_agree: the decode target travels in arg. */
typedef struct golden_arg {
  golden_model *m;
} golden_arg;
static desert_status rd_golden(desert_reader *r, const void *arg) {
  const golden_arg *a = arg;
  return golden_model_read(r, a->m);
}
typedef struct cstruct_arg {
  const desert_cstruct *d;
  void *obj;
} cstruct_arg;
static desert_status rd_cstruct(desert_reader *r, const void *arg) {
  const cstruct_arg *a = arg;
  return desert_cstruct_decode(r, a->d, a->obj);
}

static void test_golden_streamed(void **state) {
  (void)state;
  need_golden();
  desert_reader *mr = NULL, *r = NULL;
  desert_writer *w = NULL;
  new_contexts(&r, &mr, &w);
  golden_model mm, sm;
  assert_int_equal(desert_reader_begin(mr, golden, golden_len), DESERT_OK);
  assert_int_equal(golden_model_read(mr, &mm), DESERT_OK);
  size_t n1, n2;
  uint8_t *oracle = modern_bytes(w, &mm, &n1);
  golden_arg ga = {&sm};
  /* Streamed in random pieces through a 64-byte window: the same values
   * (compared through their modern re-encoding). */
  desert_rng rng;
  desert_rng_init_test(&rng, 21u);
  ct_mem_source m;
  assert_int_equal(desert_reader_begin_stream(
                       r, ct_mem_source_init(&m, golden, golden_len, 5000, &rng, SIZE_MAX), 64),
                   DESERT_OK);
  assert_int_equal(golden_model_read(r, &sm), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), golden_len);
  assert_true(desert_reader_at_end(r));
  uint8_t *streamed = modern_bytes(w, &sm, &n2);
  desert_assert_bytes_equal(oracle, n1, streamed, n2);
  /* The streaming writer gives the same bytes (pinned hash of the modern
   * form, test_golden.c). */
  ct_mem_sink sink;
  assert_int_equal(desert_writer_begin_stream(w, ct_mem_sink_init(&sink, SIZE_MAX), 128),
                   DESERT_OK);
  assert_int_equal(golden_model_write(w, &mm), DESERT_OK);
  assert_int_equal(desert_writer_flush(w), DESERT_OK);
  desert_assert_bytes_equal(oracle, n1, sink.data, sink.len);
  char hex[65];
  desert_test_sha256_hex(sink.data, sink.len, hex);
  assert_string_equal(hex, "035c37a27b526accc933f271327f54db22695fa8e6a100058f1257db922ad079");
  free(sink.data);
  /* Cuts and source failures at sampled offsets (every offset is
   * quadratic here): the in-memory cut is the oracle. */
  for (size_t cut = 0; cut < golden_len; cut += cut < 64 ? 1 : 4999)
    ct_stream_cut_agree("golden", r, mr, golden, golden_len, cut, 777, 256, rd_golden, &ga);
  free(oracle);
  free(streamed);
  desert_writer_free(w);
  desert_reader_free(r);
  desert_reader_free(mr);
}

/* The same dataset through the C-struct descriptors (bulk arrays, pointer
 * fields, version-0 records peeked at): streamed in random pieces and cut
 * or failed at sampled offsets, against the in-memory decode. */
static uint8_t *cstruct_bytes(desert_writer *w, const gcs_model *m, size_t *n) {
  desert_writer_use_growable(w);
  assert_int_equal(desert_cstruct_encode(w, &gcs_model_desc, m), DESERT_OK);
  const uint8_t *d = desert_writer_data(w, n);
  uint8_t *c = malloc(*n);
  assert_non_null(c);
  memcpy(c, d, *n);
  return c;
}

static void test_golden_cstruct_streamed(void **state) {
  (void)state;
  need_golden();
  desert_reader *mr = NULL, *r = NULL;
  desert_writer *w = NULL;
  new_contexts(&r, &mr, &w);
  gcs_model *mm = calloc(1, sizeof *mm), *sm = calloc(1, sizeof *sm);
  assert_non_null(mm);
  assert_non_null(sm);
  assert_int_equal(desert_reader_begin(mr, golden, golden_len), DESERT_OK);
  assert_int_equal(desert_cstruct_decode(mr, &gcs_model_desc, mm), DESERT_OK);
  size_t n1, n2;
  uint8_t *oracle = cstruct_bytes(w, mm, &n1);
  cstruct_arg ca = {&gcs_model_desc, sm};
  desert_rng rng;
  desert_rng_init_test(&rng, 22u);
  ct_mem_source m;
  assert_int_equal(desert_reader_begin_stream(
                       r, ct_mem_source_init(&m, golden, golden_len, 3000, &rng, SIZE_MAX), 64),
                   DESERT_OK);
  assert_int_equal(desert_cstruct_decode(r, &gcs_model_desc, sm), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), golden_len);
  uint8_t *streamed = cstruct_bytes(w, sm, &n2);
  desert_assert_bytes_equal(oracle, n1, streamed, n2);
  for (size_t cut = 0; cut < golden_len; cut += cut < 64 ? 1 : 7919)
    ct_stream_cut_agree("cstruct", r, mr, golden, golden_len, cut, 501, 128, rd_cstruct, &ca);
  free(oracle);
  free(streamed);
  free(mm);
  free(sm);
  desert_writer_free(w);
  desert_reader_free(r);
  desert_reader_free(mr);
}

/* A version-0 C struct (peeked at, not narrowed) with a bulk i64 list and
 * an optional pointer to the next one: a chain of 3 streamed through a
 * 64-byte window, cut and failed every few bytes, against in-memory. */
typedef struct cnode {
  int32_t id;
  desert_clist vals; /* of int64_t */
  struct cnode *next;
} cnode;
static const desert_field_desc cnode_fields[3] = {
    {"id", 0}, {"vals", 0}, {"next", DESERT_FIELD_OPTIONAL}};
static const desert_cstruct cnode_desc;
static const desert_cfield cnode_cfields[3] = {
    DESERT_CFIELD(cnode, id, DESERT_C_I32), DESERT_CFIELD_LIST(cnode, vals, DESERT_C_I64, NULL),
    DESERT_CFIELD_PTR(cnode, next, &cnode_desc)};
static const desert_cstruct cnode_desc =
    DESERT_CSTRUCT_V0(cnode, "Node", cnode_fields, cnode_cfields, NULL);

static void test_cstruct_v0_streamed(void **state) {
  (void)state;
  assert_int_equal(desert_cstruct_check(&cnode_desc), DESERT_OK);
  static int64_t vals[3][700];
  cnode nodes[3];
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 700; k++) vals[i][k] = (int64_t)i * 1000003 - k * 7919;
    nodes[i].id = 100 + i;
    nodes[i].vals.items = vals[i];
    nodes[i].vals.count = 700;
    nodes[i].next = i < 2 ? &nodes[i + 1] : NULL;
  }
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_cstruct_encode(w, &cnode_desc, &nodes[0]), DESERT_OK);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint8_t *bytes = malloc(len);
  assert_non_null(bytes);
  memcpy(bytes, d, len);
  assert_true(len > 3 * 700 * 8);
  desert_reader *r = NULL, *mr = NULL;
  new_contexts(&r, &mr, NULL);
  desert_rng rng;
  desert_rng_init_test(&rng, 23u);
  ct_mem_source m;
  cnode got;
  assert_int_equal(desert_reader_begin_stream(
                       r, ct_mem_source_init(&m, bytes, len, 97, &rng, SIZE_MAX), 64),
                   DESERT_OK);
  assert_int_equal(desert_cstruct_decode(r, &cnode_desc, &got), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), len);
  const cnode *g = &got;
  for (int i = 0; i < 3; i++, g = g->next) {
    assert_non_null(g);
    assert_int_equal(g->id, 100 + i);
    assert_int_equal(g->vals.count, 700);
    assert_memory_equal(g->vals.items, vals[i], sizeof vals[i]);
  }
  assert_null(g);
  cstruct_arg na = {&cnode_desc, &got};
  for (size_t cut = 0; cut < len; cut += cut < 40 ? 1 : 37)
    ct_stream_cut_agree("cnode", r, mr, bytes, len, cut, 1 + cut % 61, 64, rd_cstruct, &na);
  free(bytes);
  desert_reader_free(mr);
  desert_reader_free(r);
  desert_writer_free(w);
}

int main(void) {
  desert_test_check_expected_isa();
  FILE *f = fopen(DESERT_GOLDEN_DIR "/dataset1.bin", "rb");
  if (f) {
    golden = malloc(1 << 20);
    if (!golden) return 1;
    golden_len = fread(golden, 1, 1 << 20, f);
    fclose(f);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_collection_unknown_size),
      cmocka_unit_test(test_collection_known_size),
      cmocka_unit_test(test_large_values),
      cmocka_unit_test(test_session_across_marks),
      cmocka_unit_test(test_mark_inside_record),
      cmocka_unit_test(test_warm_restart),
      cmocka_unit_test(test_source_failure),
      cmocka_unit_test(test_sink_failure_sticky),
      cmocka_unit_test(test_file_and_fd),
      cmocka_unit_test(test_golden_streamed),
      cmocka_unit_test(test_golden_cstruct_streamed),
      cmocka_unit_test(test_cstruct_v0_streamed),
  };
  int rc = cmocka_run_group_tests_name("stream", tests, NULL, NULL);
  free(golden);
  return rc;
}
