/* src/core/reader_internal.h — the reader context's layout and the inline
 * cursor primitives the layers above (values, compression, records, types)
 * read with. Internal.
 *
 * The cursor is [pos, end) inside base[0..len): end is the current limit,
 * narrowed by the records layer to a chunk's byte range so reads cannot run
 * past a chunk (InputEndedUnexpectedly). Offsets are absolute in base.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_READER_INTERNAL_H
#define DESERT_READER_INTERNAL_H

#include "core/arena.h"
#include "desert/reader.h"
#include "base/internal.h"
#include "core/reftab.h"
#include "core/spare.h"
#include "core/strtab.h"

struct desert_reader {
  /* The head the public inline functions see (desert_reader_fast, same
   * members in the same order; checked in reader.c). */
  union {
    desert_reader_fast fast;
    struct {
      desert_status status; /* first error (sticky) */
      size_t pos;           /* next byte */
      size_t end;           /* current limit (end of input or of a chunk) */
      const uint8_t *base;  /* never NULL (an empty static array without input) */
      size_t str_max;       /* min(opt.max_length, 63): inline string reads */
      size_t len;           /* whole input */
      unsigned busy;        /* begin has more to do than the inline one: set
                             * where a table gains an entry, the arena
                             * allocates, nesting starts, a stream is
                             * attached or an error is recorded; cleared by
                             * begin and reset. Invariant: busy 0 => status
                             * OK (reader_inline.h assumes it) */
      unsigned depth;       /* nesting, bounded by depth_max */
      unsigned depth_max;   /* opt.max_depth */
      unsigned frame_depth; /* innermost record-layer frame's depth, 0: none
                             * (kept by src/record/record_reader.c) */
    };
  };
  size_t err_offset;
  const desert_kernels *k;
  desert_options opt;
  desert_strtab strings; /* views, not copies */
  desert_reftab refs;
  desert_arena arena;    /* arena.redirect: the caller's output arena
                          * (desert_reader_set_output_arena), or NULL */
  size_t zlib_padding; /* zero bytes zlib-flavour blocks were padded with
                        * in this message (a stream: since it began, as
                        * its byte count is the budget's base): bounded
                        * per message, not per block (pad_result in
                        * values/compressed.c) */
  size_t inflated;     /* bytes the compressed blocks read in this message
                        * gave (padding included): the tests' memory bound
                        * (test/fuzz/fuzz_common.h) allows for them.
                        * Both counts grow only with a non-empty block,
                        * which lives in the arena (or the output arena it
                        * redirects to); that allocation sets busy either
                        * way, so the next begin is the exported one and
                        * reader_clear zeroes them (the inline begin never
                        * needs to) */
  void *inflater; /* libdeflate decompressor, created lazily */
  void *zstd_d;   /* ZSTD_DCtx, created lazily */
  void *records;  /* records layer state, see record.c */
  void (*records_free)(desert_reader *r);
  /* ---- streaming (src/core/stream_source.c) ----
   * NULL/OK for in-memory input. The window hook is called through the
   * pointer so that reader.c and stream_source.c do not call each other. */
  void *stream;                  /* window state */
  bool (*stream_fill)(desert_reader *r, size_t n); /* see desert_r_want */
  void (*stream_free)(desert_reader *r);
  desert_status stream_status; /* why the last fill failed (READ_INPUT, LIMIT, NOMEM) */
  desert_spare spare; /* caller storage (desert_reader_init); empty otherwise */
};

/* Records the first error at an absolute offset; returns the status. */
DESERT_INLINE desert_status desert_r_fail(desert_reader *r, desert_status st, size_t off) {
  if (r->status == DESERT_OK) {
    /* streaming: input that ran out because the source failed (or the
     * window hit a limit) reports that cause at the caller's offset. */
    if (st == DESERT_E_INPUT_ENDED && r->stream_status) st = r->stream_status;
    r->status = st;
    r->err_offset = off;
    r->busy = 1; /* desert_reader_begin_inline relies on "busy 0 => status OK" */
  }
  DESERT_ASSERT(r->busy != 0);
  return r->status;
}

/* desert_reader_enter and desert_reader_leave, inline for the library's
 * own nesting (a record or an enum per value read): the exported pair
 * calls these. */
DESERT_INLINE desert_status desert_r_enter(desert_reader *r) {
  if (r->status) return r->status;
  if (r->depth >= r->depth_max) return desert_r_fail(r, DESERT_E_DEPTH, r->pos);
  r->depth++;
  r->busy = 1; /* the next begin must restore depth */
  return DESERT_OK;
}
DESERT_INLINE void desert_r_leave(desert_reader *r) {
  if (r->depth) r->depth--;
}

/* The head invariant desert_reader_begin_inline builds on (busy 0 =>
 * status OK), checked where an exported begin takes the reader. */
#define DESERT_R_ASSERT_HEAD(r) DESERT_ASSERT((r)->busy != 0 || (r)->status == DESERT_OK)
/* The cursor stays inside the current limit and the limit inside the input
 * (a stream's window: what has arrived): the unsigned `end - pos` tests
 * below would wrap otherwise. */
#define DESERT_R_ASSERT_VIEW(r) DESERT_ASSERT((r)->pos <= (r)->end && (r)->end <= (r)->len)

DESERT_INLINE size_t desert_r_avail(const desert_reader *r) { return r->end - r->pos; }

/* True when n bytes are available at the cursor. A streaming reader first
 * pulls them from its source (the one slow path through which a window is
 * refilled; false at the end of the stream, inside a record chunk that is
 * too short, or on an error noted in stream_status). In-memory input: just
 * the bounds check. */
DESERT_INLINE bool desert_r_want(desert_reader *r, size_t n) {
  DESERT_R_ASSERT_VIEW(r);
  return r->end - r->pos >= n || (r->stream_fill && r->stream_fill(r, n));
}

/* desert_r_take when fewer than n bytes are in view: refills a streaming
 * window or records DESERT_E_INPUT_ENDED. Out of line so that the inline
 * fast path below makes no call of its own: with the stream hook inline,
 * gcc gave every primitive read a frame (push/pop and stack spills) even
 * when the bytes were there. */
DESERT_COLD const uint8_t *desert_r_take_slow(desert_reader *r, size_t n);

/* View of the next n bytes, advancing; NULL after recording
 * DESERT_E_INPUT_ENDED at the item's start. */
DESERT_INLINE const uint8_t *desert_r_take(desert_reader *r, size_t n) {
  if (DESERT_UNLIKELY(r->status)) return NULL;
  DESERT_R_ASSERT_VIEW(r);
  if (DESERT_UNLIKELY(r->end - r->pos < n)) return desert_r_take_slow(r, n);
  const uint8_t *p = r->base + r->pos;
  r->pos += n;
  return p;
}

desert_status desert_r_var_u32_slow(desert_reader *r, uint32_t *out);

/* The var_u32 at p when it has 1 to 3 bytes (values below 2^21: nearly
 * every length and count) and all of them lie in the avail bytes: its
 * length, the value in *v. 0 otherwise (longer, cut by the end of the view,
 * or avail 0): the caller then runs the full decoder, which also reports
 * errors. Fast paths use it so that a block of 4 KiB or 64 KiB, or a list
 * of 1000, does not leave them: once the full decoder gained a streaming
 * refill call, gcc stopped inlining it, and a 4 KiB byte block's begin +
 * read went from 90 to 134 instructions (callgrind). */
DESERT_INLINE size_t desert_r_peek_var21(const uint8_t *p, size_t avail, uint32_t *v) {
  if (DESERT_LIKELY(avail != 0 && p[0] < 0x80u)) {
    *v = p[0];
    return 1;
  }
  if (avail >= 2 && p[1] < 0x80u) {
    *v = (uint32_t)(p[0] & 0x7Fu) | (uint32_t)p[1] << 7;
    return 2;
  }
  if (avail >= 3 && p[2] < 0x80u) {
    *v = (uint32_t)(p[0] & 0x7Fu) | (uint32_t)(p[1] & 0x7Fu) << 7 | (uint32_t)p[2] << 14;
    return 3;
  }
  return 0;
}

DESERT_INLINE desert_status desert_r_var_u32(desert_reader *r, uint32_t *out) {
  if (DESERT_UNLIKELY(r->status)) return r->status;
  const size_t h = desert_r_peek_var21(r->base + r->pos, r->end - r->pos, out);
  if (DESERT_LIKELY(h != 0)) {
    r->pos += h;
    return DESERT_OK;
  }
  return desert_r_var_u32_slow(r, out);
}

/* Reads a var_i32 (zig-zag) at the cursor; range checks are the caller's. */
desert_status desert_r_var_i32(desert_reader *r, int32_t *out);

/* Reads a string body of len bytes that starts at the cursor: checks the
 * remaining input, validates UTF-8 (lenient mode: replaced copy in the
 * arena). */
desert_status desert_r_string_body(desert_reader *r, size_t len, desert_str *out);

/* Reads a 00/01 tag byte under the session's tag strictness. */
desert_status desert_r_tag(desert_reader *r, bool *one);

#endif
