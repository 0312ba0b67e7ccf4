/* test/support/stream_testlib.h — streaming (issue 15) helpers for the
 * suites: an in-memory source that delivers its bytes in chosen pieces and
 * can fail at a chosen offset, a memory sink that can fail after a chosen
 * number of bytes, and the check every codec value example runs through
 * (ct_run_example): streamed output byte-identical to the in-memory one,
 * streamed input in 1-byte and random pieces decoding the same, and every
 * cut or source failure reported where the in-memory reader reports the
 * cut.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TEST_STREAM_TESTLIB_H
#define DESERT_TEST_STREAM_TESTLIB_H

#include <stddef.h>
#include <stdint.h>

#include "desert/stream.h"
#include "test_util.h"

/* Source over bytes[0..len): each read delivers 1..piece bytes (exactly
 * piece when rng is NULL, a random count up to piece otherwise), never
 * past fail_at, where it returns -1 (SIZE_MAX: never fails). */
typedef struct ct_mem_source {
  const uint8_t *bytes;
  size_t len, pos, piece, fail_at;
  desert_rng *rng;
  size_t calls_after_end; /* reads after it returned 0 or -1 (must stay 0) */
  int done;
} ct_mem_source;
desert_source ct_mem_source_init(ct_mem_source *m, const void *bytes, size_t len, size_t piece,
                                 desert_rng *rng, size_t fail_at);

/* Growable sink; fails (returns -1) once `fail_after` bytes were accepted
 * and more come (SIZE_MAX: never). Free data with free(). */
typedef struct ct_mem_sink {
  uint8_t *data;
  size_t len, cap, fail_after;
  size_t calls_after_fail;
  int failed;
} ct_mem_sink;
desert_sink ct_mem_sink_init(ct_mem_sink *m, size_t fail_after);

typedef desert_status (*ct_stream_write_fn)(desert_writer *w, const void *arg);
typedef desert_status (*ct_stream_read_fn)(desert_reader *r, const void *arg);

/* The streaming checks of one encoded value bytes[0..len) (wf may be NULL
 * to skip the writer side): see the file comment. */
void ct_stream_check(const char *name, const uint8_t *bytes, size_t len, ct_stream_write_fn wf,
                     ct_stream_read_fn rf, const void *arg);
/* One cut: rf on bytes[0..cut) in memory (reader mr, exact-size copy) is
 * the oracle; streamed (reader r, `piece`-byte reads, `window`) with the
 * source ending at cut it must give the same status and offset (error
 * offset, or bytes consumed on success). With the source failing at cut:
 * the same offset, and DESERT_E_READ_INPUT where the in-memory decode ran
 * out of input because of the cut (its InputEnded differs from the whole
 * input's outcome); where the whole input fails with the same InputEnded
 * (a data error, e.g. a short record chunk) either status is accepted,
 * since the streamed decode may or may not have asked for bytes past the
 * cut; every other outcome must be identical. */
void ct_stream_cut_agree(const char *name, desert_reader *r, desert_reader *mr,
                         const uint8_t *bytes, size_t len, size_t cut, size_t piece, size_t window,
                         ct_stream_read_fn rf, const void *arg);
/* Streams `in` (1-byte pieces) after a `skip`-byte prefix read raw, and
 * expects rf to give the in-memory reader's status and offset. */
void ct_stream_bad_read(const uint8_t *in, size_t len, size_t skip, ct_stream_read_fn rf,
                        const void *arg);

#endif /* DESERT_TEST_STREAM_TESTLIB_H */
