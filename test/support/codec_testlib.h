/* test/support/codec_testlib.h — helpers shared by the codec-core suites
 * (test_codec_*.c), the value suites (test_values_*.c) and test_compress.c:
 * writer/reader constructors that fail the test unless creation succeeds,
 * hex with '|' separators, "output must be these bytes" / "reader must have
 * failed here" assertions, options wired to a counting allocator, and the
 * value harness (encode in every writer mode, decode, cut at every byte).
 * Builds on test_util.h (hex decoding, byte-diff assertions, counting
 * allocator).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TEST_CODEC_TESTLIB_H
#define DESERT_TEST_CODEC_TESTLIB_H

#include <stddef.h>
#include <stdint.h>

#include "desert/reader.h"
#include "desert/writer.h"
#include "test_util.h"

/* ---- contexts ----------------------------------------------------------------
 * Each fails the current test unless creation returns DESERT_OK and a
 * non-NULL context. The _isa forms set options.isa and, unless it is
 * DESERT_ISA_AUTO, also check that the context runs on exactly that ISA. */
desert_writer *ct_new_writer_opt(const desert_options *o);
desert_reader *ct_new_reader_opt(const desert_options *o);
desert_writer *ct_new_writer(unsigned flags);
desert_reader *ct_new_reader(unsigned flags);
desert_writer *ct_new_writer_isa(unsigned flags, desert_isa isa);
desert_reader *ct_new_reader_isa(unsigned flags, desert_isa isa);

/* desert_counting_allocator_init(ca), then desert_options_init(o) with
 * o->allocator = ca->allocator. */
void ct_counting_options(desert_options *o, desert_counting_allocator *ca);

/* ---- hex ------------------------------------------------------------------------
 * Test bytes are written as hex, with '|' as a visual separator between
 * items ("08 73 61 6d 65 | 01"); spaces and '|' are ignored. */

/* desert_hex_decode plus '|' as a separator (the text is cut at 4095
 * characters). Returns SIZE_MAX for bad hex. */
size_t ct_hexdec(const char *hex, uint8_t *out, size_t cap);
/* ct_hexdec that fails the test on bad hex. */
size_t ct_hex_to(const char *hex, uint8_t *out, size_t cap);
/* Begins r on the bytes of `hex` (kept in buf); returns their count. */
size_t ct_begin_hex(desert_reader *r, const char *hex, uint8_t *buf, size_t cap);
/* Exact-size heap copy of the bytes of `hex` (no '|'), so ASan sees any
 * over-read; *n gets the length. Free with free(). */
uint8_t *ct_dup_hex(const char *hex, size_t *n);

/* ---- expectations ---------------------------------------------------------------- */

/* The writer must be in status DESERT_OK and its output exactly `hex`
 * (at most 2047 bytes). */
void ct_expect_out_at(desert_writer *w, const char *hex, const char *file, int line);
#define ct_expect_out(w, hex) ct_expect_out_at((w), (hex), __FILE__, __LINE__)
/* ct_expect_out, and desert_writer_data's length must equal
 * desert_writer_size. */
void ct_expect_out_sized_at(desert_writer *w, const char *hex, const char *file, int line);
#define ct_expect_out_sized(w, hex) ct_expect_out_sized_at((w), (hex), __FILE__, __LINE__)

/* The reader must have failed with st at error offset off. */
void ct_expect_error_at(desert_reader *r, desert_status st, size_t off, const char *file, int line);
#define ct_expect_error(r, st, off) ct_expect_error_at((r), (st), (off), __FILE__, __LINE__)

/* Status DESERT_OK, exactly n bytes consumed and nothing left. */
void ct_expect_fully_read(desert_reader *r, size_t n);

/* ---- value harness ----------------------------------------------------------------
 * A value is written by a ct_write_fn and read back (and checked against
 * arg) by a ct_read_fn; both return the context's status. */
typedef desert_status (*ct_write_fn)(desert_writer *w, const void *arg);
typedef desert_status (*ct_read_fn)(desert_reader *r, const void *arg);

/* Begins r on every proper prefix of bytes[0..len) (each an exact-size heap
 * copy) and expects rf to fail with DESERT_E_INPUT_ENDED at the start of the
 * item holding the first missing byte; items start at starts[0..nstarts)
 * (ascending, from 0). `name` starts the failure message (may be NULL). */
void ct_expect_truncations(desert_reader *r, const uint8_t *bytes, size_t len, const size_t *starts,
                           size_t nstarts, ct_read_fn rf, const void *arg, const char *name);

/* Extra checks of ct_run_example_checked / ct_run_bad_write_checked. */
enum {
  /* run_example: a write refused with DESERT_E_DST_TOO_SMALL leaves the
   * fixed buffer writer at size 0. */
  CT_CHECK_SHORT_BUFFER_EMPTY = 1u << 0,
  /* run_example: also decodes the value after a 3-byte prefix and followed
   * by a trailing byte. */
  CT_CHECK_AFTER_PREFIX = 1u << 1,
  /* run_bad_write: the writer's status is the expected error. */
  CT_CHECK_WRITER_STATUS = 1u << 2,
};

/* Read callbacks of text values preset their desert_str to
 * {NULL, CT_UNTOUCHED_LEN} and pass it here with the read's status st: on
 * DESERT_OK it must hold exactly the C string want, on an error it must be
 * untouched. Returns st. */
#define CT_UNTOUCHED_LEN 77
desert_status ct_check_text_read(desert_status st, const desert_str *got, const char *want);

/* Encodes with wf (growable: bytes must be `hex`; size-only: same size;
 * fixed buffer one byte short: DESERT_E_DST_TOO_SMALL; exact fixed buffer:
 * same bytes; wf NULL skips writing), decodes with rf (all bytes
 * consumed), then ct_expect_truncations. */
void ct_run_example(const char *name, const char *hex, ct_write_fn wf, ct_read_fn rf,
                    const void *arg, const size_t *starts, size_t nstarts);
/* ct_run_example plus the CT_CHECK_* bits of `checks`. */
void ct_run_example_checked(const char *name, const char *hex, ct_write_fn wf, ct_read_fn rf,
                            const void *arg, const size_t *starts, size_t nstarts, unsigned checks);
/* Reads `hex` after `skip` raw bytes with rf and expects st at offset; for
 * an error st, the next read reports the same error (sticky). */
void ct_run_bad_read(const char *hex, size_t skip, ct_read_fn rf, const void *arg, desert_status st,
                     size_t offset);
/* After one byte written, wf must fail with st without writing anything;
 * the error is sticky. */
void ct_run_bad_write(ct_write_fn wf, const void *arg, desert_status st);
/* ct_run_bad_write plus the CT_CHECK_* bits of `checks`. */
void ct_run_bad_write_checked(ct_write_fn wf, const void *arg, desert_status st, unsigned checks);

#endif /* DESERT_TEST_CODEC_TESTLIB_H */
