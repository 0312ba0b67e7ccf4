/* test/support/codec_testlib.c — see codec_testlib.h.
 * SPDX-License-Identifier: MIT */
#include "codec_testlib.h"
#include "stream_testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- contexts ------------------------------------------------------------------ */

desert_writer *ct_new_writer_opt(const desert_options *o) {
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(o, &w), DESERT_OK);
  assert_non_null(w);
  return w;
}

desert_reader *ct_new_reader_opt(const desert_options *o) {
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(o, &r), DESERT_OK);
  assert_non_null(r);
  return r;
}

desert_writer *ct_new_writer_isa(unsigned flags, desert_isa isa) {
  desert_options o;
  desert_options_init(&o);
  o.flags = flags;
  o.isa = isa;
  desert_writer *w = ct_new_writer_opt(&o);
  if (isa != DESERT_ISA_AUTO) assert_int_equal(desert_writer_isa(w), isa);
  return w;
}

desert_reader *ct_new_reader_isa(unsigned flags, desert_isa isa) {
  desert_options o;
  desert_options_init(&o);
  o.flags = flags;
  o.isa = isa;
  desert_reader *r = ct_new_reader_opt(&o);
  if (isa != DESERT_ISA_AUTO) assert_int_equal(desert_reader_isa(r), isa);
  return r;
}

desert_writer *ct_new_writer(unsigned flags) { return ct_new_writer_isa(flags, DESERT_ISA_AUTO); }
desert_reader *ct_new_reader(unsigned flags) { return ct_new_reader_isa(flags, DESERT_ISA_AUTO); }

void ct_counting_options(desert_options *o, desert_counting_allocator *ca) {
  desert_counting_allocator_init(ca);
  desert_options_init(o);
  o->allocator = ca->allocator;
}

/* ---- hex ----------------------------------------------------------------------- */

size_t ct_hexdec(const char *hex, uint8_t *out, size_t cap) {
  char tmp[4096];
  size_t j = 0;
  for (const char *p = hex; *p != '\0' && j + 1 < sizeof tmp; p++)
    if (*p != '|') tmp[j++] = *p;
  tmp[j] = '\0';
  return desert_hex_decode(tmp, out, cap);
}

size_t ct_hex_to(const char *hex, uint8_t *out, size_t cap) {
  size_t n = ct_hexdec(hex, out, cap);
  assert_true(n != SIZE_MAX);
  return n;
}

size_t ct_begin_hex(desert_reader *r, const char *hex, uint8_t *buf, size_t cap) {
  size_t n = ct_hex_to(hex, buf, cap);
  assert_int_equal(desert_reader_begin(r, buf, n), DESERT_OK);
  return n;
}

uint8_t *ct_dup_hex(const char *hex, size_t *n) {
  size_t cap = strlen(hex) / 2 + 1;
  uint8_t *tmp = malloc(cap);
  assert_non_null(tmp);
  size_t len = desert_hex_decode(hex, tmp, cap);
  assert_true(len != SIZE_MAX);
  uint8_t *out = malloc(len ? len : 1);
  assert_non_null(out);
  memcpy(out, tmp, len);
  free(tmp);
  *n = len;
  return out;
}

/* ---- expectations ------------------------------------------------------------------ */

static void expect_out(desert_writer *w, const char *hex, int check_size, const char *file,
                       int line) {
  uint8_t want[2048];
  size_t n = ct_hexdec(hex, want, sizeof want);
  if (n == SIZE_MAX) {
    print_error("bad hex in test: %s\n", hex);
    _fail(file, line);
  }
  if (desert_writer_status(w) != DESERT_OK) {
    print_error("writer status %s\n", desert_status_name(desert_writer_status(w)));
    _fail(file, line);
  }
  size_t len = 0;
  const uint8_t *got = desert_writer_data(w, &len);
  if (check_size && len != desert_writer_size(w)) {
    print_error("desert_writer_data len %zu != desert_writer_size %zu\n", len,
                desert_writer_size(w));
    _fail(file, line);
  }
  desert_assert_bytes_equal_at(want, n, got, len, "writer output", file, line);
}

void ct_expect_out_at(desert_writer *w, const char *hex, const char *file, int line) {
  expect_out(w, hex, 0, file, line);
}

void ct_expect_out_sized_at(desert_writer *w, const char *hex, const char *file, int line) {
  expect_out(w, hex, 1, file, line);
}

void ct_expect_error_at(desert_reader *r, desert_status st, size_t off, const char *file,
                        int line) {
  if (desert_reader_status(r) != st || desert_reader_error_offset(r) != off) {
    print_error("reader: got %s at offset %zu, want %s at offset %zu\n",
                desert_status_name(desert_reader_status(r)), desert_reader_error_offset(r),
                desert_status_name(st), off);
    _fail(file, line);
  }
}

void ct_expect_fully_read(desert_reader *r, size_t n) {
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), n);
  assert_int_equal(desert_reader_remaining(r), 0);
}

/* ---- value harness ------------------------------------------------------------------- */

desert_status ct_check_text_read(desert_status st, const desert_str *got, const char *want) {
  if (st == DESERT_OK) {
    assert_int_equal(got->len, strlen(want));
    assert_memory_equal(got->ptr, want, got->len);
  } else {
    assert_int_equal(got->len, CT_UNTOUCHED_LEN);
  }
  return st;
}

void ct_expect_truncations(desert_reader *r, const uint8_t *bytes, size_t len, const size_t *starts,
                           size_t nstarts, ct_read_fn rf, const void *arg, const char *name) {
  for (size_t cut = 0; cut < len; cut++) {
    uint8_t *in = malloc(cut ? cut : 1);
    assert_non_null(in);
    memcpy(in, bytes, cut);
    size_t at = 0;
    for (size_t i = 0; i < nstarts; i++)
      if (starts[i] <= cut) at = starts[i];
    assert_int_equal(desert_reader_begin(r, in, cut), DESERT_OK);
    desert_status st = rf(r, arg);
    if (st != DESERT_E_INPUT_ENDED || desert_reader_error_offset(r) != at) {
      if (name != NULL)
        fail_msg("%s cut at %zu: %s at %zu, want INPUT_ENDED at %zu", name, cut,
                 desert_status_name(st), desert_reader_error_offset(r), at);
      else
        fail_msg("cut at %zu: status %s offset %zu, want INPUT_ENDED at %zu", cut,
                 desert_status_name(st), desert_reader_error_offset(r), at);
    }
    free(in);
  }
}

void ct_run_example_checked(const char *name, const char *hex, ct_write_fn wf, ct_read_fn rf,
                            const void *arg, const size_t *starts, size_t nstarts,
                            unsigned checks) {
  size_t len;
  uint8_t *want = ct_dup_hex(hex, &len);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  if (wf) {
    assert_int_equal(wf(w, arg), DESERT_OK);
    size_t n;
    const uint8_t *d = desert_writer_data(w, &n);
    desert_assert_bytes_equal(want, len, d, n);
    desert_writer_count_only(w);
    assert_int_equal(wf(w, arg), DESERT_OK);
    assert_int_equal(desert_writer_size(w), len);
    uint8_t *buf = malloc(len + 1);
    assert_non_null(buf);
    assert_int_equal(desert_writer_use_buffer(w, buf, len - 1), DESERT_OK);
    assert_int_equal(wf(w, arg), DESERT_E_DST_TOO_SMALL);
    if (checks & CT_CHECK_SHORT_BUFFER_EMPTY)
      assert_int_equal(desert_writer_size(w), 0); /* nothing of the value */
    assert_int_equal(desert_writer_use_buffer(w, buf, len), DESERT_OK);
    assert_int_equal(wf(w, arg), DESERT_OK);
    desert_assert_bytes_equal(want, len, buf, desert_writer_size(w));
    free(buf);
  }
  desert_writer_free(w);

  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  assert_int_equal(desert_reader_begin(r, want, len), DESERT_OK);
  assert_int_equal(rf(r, arg), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), len);

  if (checks & CT_CHECK_AFTER_PREFIX) {
    /* After a 3-byte prefix, followed by a trailing byte. */
    uint8_t *pre = malloc(len + 4);
    assert_non_null(pre);
    memcpy(pre, "\xaa\xbb\xcc", 3);
    memcpy(pre + 3, want, len);
    pre[len + 3] = 0xee;
    assert_int_equal(desert_reader_begin(r, pre, len + 4), DESERT_OK);
    const uint8_t *skip;
    assert_int_equal(desert_read_raw(r, 3, &skip), DESERT_OK);
    assert_int_equal(rf(r, arg), DESERT_OK);
    assert_int_equal(desert_reader_offset(r), len + 3);
    free(pre);
  }

  ct_expect_truncations(r, want, len, starts, nstarts, rf, arg, name);
  desert_reader_free(r);
  /* The same value through a streaming writer and reader (issue 15). */
  ct_stream_check(name, want, len, wf, rf, arg);
  free(want);
}

void ct_run_example(const char *name, const char *hex, ct_write_fn wf, ct_read_fn rf,
                    const void *arg, const size_t *starts, size_t nstarts) {
  ct_run_example_checked(name, hex, wf, rf, arg, starts, nstarts, 0);
}

void ct_run_bad_read(const char *hex, size_t skip, ct_read_fn rf, const void *arg, desert_status st,
                     size_t offset) {
  size_t len;
  uint8_t *in = ct_dup_hex(hex, &len);
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  assert_int_equal(desert_reader_begin(r, in, len), DESERT_OK);
  const uint8_t *pre;
  assert_int_equal(desert_read_raw(r, skip, &pre), DESERT_OK);
  desert_status got = rf(r, arg);
  if (got != st || desert_reader_error_offset(r) != offset)
    fail_msg("\"%s\": %s at %zu, want %s at %zu", hex, desert_status_name(got),
             desert_reader_error_offset(r), desert_status_name(st), offset);
  if (st != DESERT_OK) {
    /* Sticky: the next read reports the same error. */
    assert_int_equal(rf(r, arg), st);
    assert_int_equal(desert_reader_error_offset(r), offset);
  }
  desert_reader_free(r);
  ct_stream_bad_read(in, len, skip, rf, arg); /* streaming agrees (issue 15) */
  free(in);
}

void ct_run_bad_write_checked(ct_write_fn wf, const void *arg, desert_status st, unsigned checks) {
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_write_u8(w, 0x11), DESERT_OK);
  assert_int_equal(wf(w, arg), st);
  assert_int_equal(desert_writer_size(w), 1);
  if (checks & CT_CHECK_WRITER_STATUS) assert_int_equal(desert_writer_status(w), st);
  assert_int_equal(desert_write_u8(w, 0x22), st); /* sticky */
  assert_int_equal(desert_writer_size(w), 1);
  desert_writer_free(w);
}

void ct_run_bad_write(ct_write_fn wf, const void *arg, desert_status st) {
  ct_run_bad_write_checked(wf, arg, st, 0);
}
