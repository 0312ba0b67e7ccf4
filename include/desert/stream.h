/* include/desert/stream.h — streaming input and output: a reader that pulls
 * its bytes from a source callback through a bounded window, a writer that
 * pushes its output to a sink callback, and ready-made sources and sinks
 * for FILE * and file descriptors.
 * SPDX-License-Identifier: MIT
 *
 * A streaming reader or writer is an ordinary desert_reader/desert_writer:
 * every desert_read_* / desert_write_*, records, enums, C-struct
 * descriptors and runtime types work on it unchanged, with the same bytes,
 * values, statuses and error offsets as on one in-memory buffer. Offsets
 * (desert_reader_offset, desert_reader_error_offset, desert_seq.offset)
 * count from the start of the stream.
 *
 * Lifetime rule (reader). Views the reader hands out (strings, byte blocks,
 * raw bytes) and data in its arena (lenient UTF-8 copies, inflated blocks,
 * arrays from desert_reader_alloc or C-struct decoding) stay valid until
 * the caller marks the next element boundary with desert_reader_mark(), or
 * until begin/reset/free. Marking is what lets the reader forget bytes: a
 * stream read without marks keeps everything it read. The session tables
 * (DeduplicatedString ids, object reference ids) last for the whole stream;
 * the strings behind DeduplicatedString ids are copied into the session,
 * so a back-reference after a mark stays valid. Objects a caller registers
 * with desert_reader_register_ref must outlive their use: do not register
 * arena memory that a mark releases if later elements refer back to it.
 *
 * Memory. The window is buffer_size bytes (0 = DESERT_STREAM_DEFAULT_BUFFER)
 * plus, while one element is being read, a second buffer of the same size
 * (bytes of the current element must stay in place while its views live).
 * A value larger than the window (a big string or byte block, a versioned
 * record, whose chunks must all be resident) grows the window temporarily;
 * the bytes since the last mark may reach the smaller of buffer_size +
 * options.max_length and the high-water mark (desert_reader_set_max_window,
 * default DESERT_STREAM_DEFAULT_MAX_WINDOW = 64 MiB), beyond which the read
 * fails with DESERT_E_LIMIT at the offset of the read that needed more. A
 * loop that forgets desert_reader_mark therefore fails once it has read 64
 * MiB instead of keeping the whole stream in memory; a caller whose single
 * elements are larger raises the mark (SIZE_MAX: only max_length bounds
 * it). Growth follows the bytes
 * actually delivered (at most doubling per step), never the length a prefix
 * claims, and never reads ahead further than the request.
 *
 * Errors. A source that fails (returns a negative count) while a value is
 * incomplete makes that read fail with DESERT_E_READ_INPUT (kind
 * FailedToReadInput) at the offset where the in-memory reader would report
 * DESERT_E_INPUT_ENDED for input cut at the same place; no partial value is
 * returned and the error is sticky. A stream that ends inside a value gives
 * DESERT_E_INPUT_ENDED at exactly the in-memory offset. A sink that fails
 * makes the writer fail with DESERT_E_WRITE_OUTPUT (kind FailedToWriteOutput),
 * sticky like every writer error.
 *
 * Thread safety: as the reader and writer themselves; the FILE * and fd
 * sources and sinks must not be used by another thread meanwhile. */
#ifndef DESERT_STREAM_H
#define DESERT_STREAM_H

#include <stddef.h>
#include <stdio.h>

#include "desert/common.h"
#include "desert/reader.h"
#include "desert/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Window of a streaming reader / output buffer of a streaming writer when
 * the caller passes 0. */
#define DESERT_STREAM_DEFAULT_BUFFER ((size_t)256 << 10)
/* Smallest buffer accepted (smaller requests are rounded up). */
#define DESERT_STREAM_MIN_BUFFER ((size_t)64)
/* Most bytes a streaming reader keeps between two marks unless the caller
 * sets another high-water mark (desert_reader_set_max_window). */
#define DESERT_STREAM_DEFAULT_MAX_WINDOW ((size_t)64 << 20)

/* Pull callback: stores up to cap (>= 1) bytes at buf and returns how many
 * (1..cap); 0 at the end of the stream; a negative number on an I/O error.
 * After 0 or an error the reader never calls it again. */
typedef ptrdiff_t (*desert_source_read_fn)(void *ctx, void *buf, size_t cap);
/* Push callback: writes all n (>= 1) bytes of buf; returns 0 on success,
 * non-zero on an I/O error (the writer then never calls it again). */
typedef int (*desert_sink_write_fn)(void *ctx, const void *buf, size_t n);

typedef struct desert_source {
  desert_source_read_fn read;
  void *ctx;
} desert_source;

typedef struct desert_sink {
  desert_sink_write_fn write;
  void *ctx;
} desert_sink;

/* Sources and sinks over a FILE * (fread/fwrite; a short fread with ferror
 * set is an I/O error, with feof the end) or a file descriptor (read/write,
 * retried on EINTR and short writes). They do not own the file: closing it
 * is the caller's job, after the reader or writer is done with it. */
DESERT_API desert_source desert_source_file(FILE *f);
DESERT_API desert_source desert_source_fd(int fd);
DESERT_API desert_sink desert_sink_file(FILE *f);
DESERT_API desert_sink desert_sink_fd(int fd);

/* ---- streaming reader ---- */

/* Starts reading a new stream from src (src.read must not be NULL) with a
 * window of buffer_size bytes (0 = default). Clears the error, position,
 * session tables and arena like desert_reader_begin; nothing is read yet.
 * DESERT_E_ARGUMENT (r NULL or no callback), DESERT_E_NOMEM. A later
 * desert_reader_begin, desert_reader_reset or desert_reader_free ends the
 * stream and frees the window. */
DESERT_API desert_status desert_reader_begin_stream(desert_reader *r, desert_source src,
                                                    size_t buffer_size);
/* Marks an element boundary at the current position: views and arena data
 * handed out before it become invalid (see the lifetime rule above) and
 * the window may drop the bytes before it. Call it between top-level
 * elements (e.g. after each element of a collection), never while a record,
 * enum or anything else entered with desert_reader_enter is open: there it
 * fails with DESERT_E_STATE (sticky, at the current offset). Returns the
 * reader's status. On an in-memory reader it does nothing. */
DESERT_API desert_status desert_reader_mark(desert_reader *r);
/* Sets the high-water mark of the current stream (after
 * desert_reader_begin_stream, which resets it to the default): the most
 * bytes read since the last desert_reader_mark (the element being read plus
 * the window) before a read fails with DESERT_E_LIMIT. 0 = the default
 * DESERT_STREAM_DEFAULT_MAX_WINDOW; SIZE_MAX = bounded by
 * options.max_length only; a value below the window size acts as the
 * window size. DESERT_E_ARGUMENT (r NULL), DESERT_E_STATE (not streaming:
 * nothing is set). */
DESERT_API desert_status desert_reader_set_max_window(desert_reader *r, size_t max_window);
/* True when n bytes can be read at the cursor (a streaming reader first
 * pulls them from its source, up to its window limit); then
 * desert_reader_remaining() >= n. False at the end of the input or of the
 * current record chunk, past the window limit, or after an error. False
 * records nothing: the read or desert_reader_fail(.., DESERT_E_INPUT_ENDED,
 * ..) that follows reports it (as DESERT_E_READ_INPUT if the source
 * failed, DESERT_E_LIMIT past the limit). On a streaming reader
 * desert_reader_remaining() counts only the bytes already in the window:
 * code that checks a count against it (before allocating, or to predict
 * that a read must fail) must call this first. Works on any reader. */
DESERT_API bool desert_reader_ensure(desert_reader *r, size_t n);
/* True when the input has no byte left at the current position (for a
 * stream: the source reported its end), false otherwise or after an error.
 * May read from the source. */
DESERT_API bool desert_reader_at_end(desert_reader *r);

/* ---- streaming writer ---- */

/* Makes w write into sink through a buffer of buffer_size bytes (0 =
 * default); resets the writer (error, session tables, output). A value
 * larger than the buffer is staged in a temporary larger buffer, given
 * back at the next flush. DESERT_E_ARGUMENT, DESERT_E_NOMEM. The writer's
 * own buffer, a caller buffer or size-only mode come back with
 * desert_writer_use_growable / _use_buffer / _count_only, which drop the
 * stream without flushing (call desert_writer_flush first). */
DESERT_API desert_status desert_writer_begin_stream(desert_writer *w, desert_sink sink,
                                                    size_t buffer_size);
/* Pushes the buffered bytes to the sink. Returns the writer's status
 * (DESERT_E_WRITE_OUTPUT if the sink failed now or before). Call it at the
 * end of the stream; desert_writer_size() is then 0. DESERT_E_STATE if the
 * writer is not streaming. */
DESERT_API desert_status desert_writer_flush(desert_writer *w);
/* Bytes the sink accepted so far plus the bytes still buffered: the stream
 * offset of the next byte. 0 for a writer that is not streaming. */
DESERT_API uint64_t desert_writer_stream_offset(const desert_writer *w);

#ifdef __cplusplus
}
#endif
#endif /* DESERT_STREAM_H */
