/* test/support/stream_testlib.c — see stream_testlib.h. The in-memory
 * reader and writer are the oracle: streaming must agree with them on
 * bytes, statuses and offsets.
 * SPDX-License-Identifier: MIT */
#include "stream_testlib.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The smallest window the library accepts: values of the suites are
 * mostly longer, so window switches and growth are exercised. */
#define CT_WINDOW 64u

static ptrdiff_t mem_read(void *ctx, void *buf, size_t cap) {
  ct_mem_source *m = ctx;
  if (m->done) m->calls_after_end++;
  if (m->pos >= m->fail_at) {
    m->done = 1;
    return -1;
  }
  if (m->pos >= m->len) {
    m->done = 1;
    return 0;
  }
  size_t n = m->piece;
  if (m->rng) n = desert_rng_range(m->rng, 1, m->piece);
  if (n > cap) n = cap;
  if (n > m->len - m->pos) n = m->len - m->pos;
  if (m->fail_at != SIZE_MAX && n > m->fail_at - m->pos) n = m->fail_at - m->pos;
  memcpy(buf, m->bytes + m->pos, n);
  m->pos += n;
  return (ptrdiff_t)n;
}

desert_source ct_mem_source_init(ct_mem_source *m, const void *bytes, size_t len, size_t piece,
                                 desert_rng *rng, size_t fail_at) {
  memset(m, 0, sizeof *m);
  m->bytes = bytes;
  m->len = len;
  m->piece = piece ? piece : 1;
  m->rng = rng;
  m->fail_at = fail_at;
  desert_source s = {mem_read, m};
  return s;
}

static int mem_write(void *ctx, const void *buf, size_t n) {
  ct_mem_sink *m = ctx;
  if (m->failed) m->calls_after_fail++;
  if (m->fail_after != SIZE_MAX && m->len + n > m->fail_after) {
    m->failed = 1;
    return -1;
  }
  if (m->len + n > m->cap) {
    size_t nc = m->cap ? m->cap : 256;
    while (nc < m->len + n) nc *= 2;
    m->data = realloc(m->data, nc);
    assert_non_null(m->data);
    m->cap = nc;
  }
  memcpy(m->data + m->len, buf, n);
  m->len += n;
  return 0;
}

desert_sink ct_mem_sink_init(ct_mem_sink *m, size_t fail_after) {
  memset(m, 0, sizeof *m);
  m->fail_after = fail_after;
  desert_sink s = {mem_write, m};
  return s;
}

/* In-memory reading of bytes[0..cut) (exact-size copy): status and offset. */
static desert_status mem_outcome(desert_reader *r, const uint8_t *bytes, size_t cut,
                                 ct_stream_read_fn rf, const void *arg, size_t *off) {
  uint8_t *in = malloc(cut ? cut : 1);
  assert_non_null(in);
  memcpy(in, bytes, cut);
  assert_int_equal(desert_reader_begin(r, in, cut), DESERT_OK);
  desert_status st = rf(r, arg);
  *off = st ? desert_reader_error_offset(r) : desert_reader_offset(r);
  desert_reader_reset(r);
  free(in);
  return st;
}

static void check_writer(const char *name, const uint8_t *bytes, size_t len,
                         ct_stream_write_fn wf, const void *arg) {
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  ct_mem_sink sink;
  assert_int_equal(desert_writer_begin_stream(w, ct_mem_sink_init(&sink, SIZE_MAX), CT_WINDOW),
                   DESERT_OK);
  assert_int_equal(wf(w, arg), DESERT_OK);
  assert_int_equal(desert_writer_stream_offset(w), len);
  assert_int_equal(desert_writer_flush(w), DESERT_OK);
  assert_int_equal(desert_writer_size(w), 0);
  if (sink.len != len || (len && memcmp(sink.data, bytes, len) != 0))
    fail_msg("%s: streamed output differs from the in-memory bytes", name ? name : "value");
  free(sink.data);
  /* A sink that fails after k bytes: the writer reports WRITE_OUTPUT at the
   * write or the flush that needed the sink, and never calls it again. */
  for (size_t k = 0; k < len; k += 1 + len / 8) {
    assert_int_equal(desert_writer_begin_stream(w, ct_mem_sink_init(&sink, k), CT_WINDOW), DESERT_OK);
    desert_status st = wf(w, arg);
    if (st == DESERT_OK) st = desert_writer_flush(w);
    if (st != DESERT_E_WRITE_OUTPUT)
      fail_msg("%s: sink failing after %zu bytes gave %s", name ? name : "value", k,
               desert_status_name(st));
    assert_int_equal(desert_writer_flush(w), DESERT_E_WRITE_OUTPUT); /* sticky */
    assert_int_equal(desert_write_u8(w, 1), DESERT_E_WRITE_OUTPUT);
    assert_int_equal(sink.calls_after_fail, 0);
    assert_true(sink.len <= k);
    assert_memory_equal(sink.data ? sink.data : (const uint8_t *)"", bytes, sink.len);
    free(sink.data);
  }
  desert_writer_free(w);
}

void ct_stream_cut_agree(const char *name, desert_reader *r, desert_reader *mr,
                         const uint8_t *bytes, size_t len, size_t cut, size_t piece, size_t window,
                         ct_stream_read_fn rf, const void *arg) {
  size_t want_off, full_off;
  desert_status want = mem_outcome(mr, bytes, cut, rf, arg, &want_off);
  desert_status full = mem_outcome(mr, bytes, len, rf, arg, &full_off);
  /* The cut decides the in-memory outcome (the decode needed bytes past
   * it) unless the whole input fails the same way at the same place. */
  bool needs_cut = full != want || full_off != want_off;
  ct_mem_source m;
  for (int fail = 0; fail < 2; fail++) {
    assert_int_equal(desert_reader_begin_stream(
                         r, ct_mem_source_init(&m, bytes, fail ? len : cut, piece, NULL,
                                               fail ? cut : SIZE_MAX),
                         window),
                     DESERT_OK);
    desert_status st = rf(r, arg);
    size_t off = st ? desert_reader_error_offset(r) : desert_reader_offset(r);
    /* A failing source: the failure replaces InputEnded where the decode
     * ran out of bytes at the cut; a data error before it stays as is. */
    bool ok = off == want_off &&
              (st == want ? !(fail && want == DESERT_E_INPUT_ENDED && needs_cut)
                          : fail && want == DESERT_E_INPUT_ENDED && st == DESERT_E_READ_INPUT);
    if (!ok)
      fail_msg("%s %s at %zu: %s at %zu; in memory %s at %zu (whole input: %s at %zu)", name,
               fail ? "source failing" : "cut", cut, desert_status_name(st), off,
               desert_status_name(want), want_off, desert_status_name(full), full_off);
    assert_int_equal(m.calls_after_end, 0);
  }
}

void ct_stream_check(const char *name, const uint8_t *bytes, size_t len, ct_stream_write_fn wf,
                     ct_stream_read_fn rf, const void *arg) {
  const char *nm = name ? name : "value";
  if (wf) check_writer(name, bytes, len, wf, arg);
  desert_reader *r = NULL, *mr = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  assert_int_equal(desert_reader_create(NULL, &mr), DESERT_OK);
  desert_rng rng;
  desert_rng_init_test(&rng, 0x5157u);
  ct_mem_source m;
  /* Whole value: 1-byte pieces, random pieces, large pieces. */
  const size_t pieces[3] = {1, 7, 4096};
  for (int i = 0; i < 3; i++) {
    assert_int_equal(desert_reader_begin_stream(
                         r, ct_mem_source_init(&m, bytes, len, pieces[i], i == 1 ? &rng : NULL,
                                               SIZE_MAX),
                         CT_WINDOW),
                     DESERT_OK);
    desert_status st = rf(r, arg);
    if (st != DESERT_OK || desert_reader_offset(r) != len)
      fail_msg("%s streamed in pieces of %zu: %s at %zu", nm, pieces[i], desert_status_name(st),
               st ? desert_reader_error_offset(r) : desert_reader_offset(r));
    assert_true(desert_reader_at_end(r));
    assert_int_equal(m.calls_after_end, 0);
  }
  /* Every cut and every source failure: the in-memory cut is the oracle. */
  for (size_t cut = 0; cut < len; cut++)
    ct_stream_cut_agree(nm, r, mr, bytes, len, cut, 1 + cut % 3, CT_WINDOW, rf, arg);
  desert_reader_free(mr);
  desert_reader_free(r);
}

void ct_stream_bad_read(const uint8_t *in, size_t len, size_t skip, ct_stream_read_fn rf,
                        const void *arg) {
  desert_reader *r = NULL, *mr = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  assert_int_equal(desert_reader_create(NULL, &mr), DESERT_OK);
  const uint8_t *pre;
  assert_int_equal(desert_reader_begin(mr, in, len), DESERT_OK);
  assert_int_equal(desert_read_raw(mr, skip, &pre), DESERT_OK);
  desert_status want = rf(mr, arg);
  ct_mem_source m;
  assert_int_equal(desert_reader_begin_stream(r, ct_mem_source_init(&m, in, len, 1, NULL, SIZE_MAX),
                                              CT_WINDOW),
                   DESERT_OK);
  assert_int_equal(desert_read_raw(r, skip, &pre), DESERT_OK);
  desert_status got = rf(r, arg);
  if (got != want || desert_reader_error_offset(r) != desert_reader_error_offset(mr))
    fail_msg("streamed bad read: %s at %zu, in memory %s at %zu", desert_status_name(got),
             desert_reader_error_offset(r), desert_status_name(want),
             desert_reader_error_offset(mr));
  desert_reader_free(mr);
  desert_reader_free(r);
}
