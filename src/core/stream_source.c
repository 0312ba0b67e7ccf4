/* src/core/stream_source.c — the streaming reader's window: a
 * bounded buffer refilled from a desert_source through the reader's one
 * "need n more bytes" slow path (desert_r_want -> stream_fill), the
 * element boundaries (desert_reader_mark) that let it forget bytes, and
 * the high-water mark (desert_reader_set_max_window) that turns a loop
 * which never marks into a DESERT_E_LIMIT instead of unbounded growth.
 *
 * Offsets stay absolute. The window holds stream bytes [origin, len) in
 * buf[0 .. len - origin), and the reader's base is set to buf - origin (an
 * address computed through uintptr_t, never dereferenced below buf), so
 * base + pos, the error offsets and every position the layers above keep
 * (record chunk bounds, seq offsets) are stream offsets with no change to
 * the reader. This needs a flat address space whose heap addresses exceed
 * the stream offsets (true of every 64-bit target libdesert builds for).
 *
 * Views handed out since the last mark (`keep`) must not move, so bytes
 * from keep on are never shifted in place: when the window is full the
 * live bytes are copied into another buffer (the spare one of the same
 * size, or a larger one for a large element) and the old buffer is retired
 * until the next mark. A mark drops the retired buffers and, when at least
 * half of the window has been consumed, shifts the unread tail to the
 * front (so the shifting costs at most one copy per byte consumed).
 * SPDX-License-Identifier: MIT */
#include "core/reader_internal.h"
#include "desert/stream.h"

typedef struct stream_buf {
  uint8_t *ptr;
  size_t cap;
} stream_buf;

typedef struct stream_src {
  desert_source src;
  stream_buf win;      /* current window storage: stream bytes [origin, r->len) */
  stream_buf spare;    /* a buffer of bufsize bytes holding no live view, or {0} */
  stream_buf *retired; /* buffers that may hold views of the current element */
  size_t nretired, retired_cap;
  size_t origin;  /* stream offset of win.ptr[0] */
  size_t keep;    /* stream offset of the last mark */
  size_t bufsize; /* the caller's window size */
  size_t limit;   /* most bytes from keep to the end of a request */
  size_t max_window; /* the caller's high-water mark (desert_reader_set_max_window) */
  bool eof;       /* the source returned 0 or failed: never called again */
  bool io_failed; /* the source failed (sticky) */
} stream_src;

/* The window's bounds: it holds stream bytes [origin, len) and the bytes
 * since the last mark, so origin <= keep <= len and len - origin fits. */
#define STREAM_ASSERT_WINDOW(r, s)                                      \
  DESERT_ASSERT((s)->origin <= (s)->keep && (s)->keep <= (r)->len && \
                (r)->len - (s)->origin <= (s)->win.cap)

static void set_base(desert_reader *r, const stream_src *s) {
  r->base = (const uint8_t *)(uintptr_t)((uintptr_t)s->win.ptr - (uintptr_t)s->origin);
}

static void buf_free(desert_reader *r, stream_buf *b) {
  if (b->ptr) desert_mem_free(&r->opt.allocator, b->ptr, b->cap);
  b->ptr = NULL;
  b->cap = 0;
}

static void drop_retired(desert_reader *r, stream_src *s) {
  for (size_t i = 0; i < s->nretired; i++) {
    stream_buf *b = &s->retired[i];
    if (b->cap == s->bufsize && !s->spare.ptr) {
      s->spare = *b; /* kept for the next switch: no allocation in steady state */
    } else {
      buf_free(r, b);
    }
  }
  s->nretired = 0;
}

static void stream_free(desert_reader *r) {
  stream_src *s = r->stream;
  if (s) {
    drop_retired(r, s);
    desert_mem_free(&r->opt.allocator, s->retired, s->retired_cap * sizeof *s->retired);
    buf_free(r, &s->win);
    buf_free(r, &s->spare);
    desert_mem_free(&r->opt.allocator, s, sizeof *s);
  }
  r->stream = NULL;
  r->stream_fill = NULL;
  r->stream_free = NULL;
  r->stream_status = DESERT_OK;
  r->strings.copy_keys = false; /* back to views into caller memory */
}

/* Records why this fill failed; the caller reports it at its own offset. */
static bool fill_fail(desert_reader *r, desert_status st) {
  r->stream_status = st;
  return false;
}

/* Moves the live bytes [keep, len) into storage with room for `need` bytes
 * from keep, retiring the current window (views may point into it). */
static bool switch_window(desert_reader *r, stream_src *s, size_t need) {
  size_t live = r->len - s->keep;
  /* A request beyond the limit still reads up to it: a stream that ends
   * first is InputEnded (as in memory), one that fills it is a LIMIT. */
  if (need > s->limit) need = s->limit;
  if (live >= s->limit) return fill_fail(r, DESERT_E_LIMIT);
  /* Enough for the request, but at most twice what has arrived: a length
   * prefix alone never makes the window large. */
  size_t ncap = s->bufsize;
  while (ncap < need && ncap / 2 < live && ncap <= SIZE_MAX / 2) ncap *= 2;
  if (ncap > s->limit) ncap = s->limit;
  if (ncap <= live) return fill_fail(r, DESERT_E_LIMIT);
  if (s->nretired == s->retired_cap) {
    size_t nc = s->retired_cap ? 2 * s->retired_cap : 4;
    stream_buf *nr = desert_mem_alloc(&r->opt.allocator, nc * sizeof *nr);
    if (!nr) return fill_fail(r, DESERT_E_NOMEM);
    if (s->nretired) memcpy(nr, s->retired, s->nretired * sizeof *nr);
    desert_mem_free(&r->opt.allocator, s->retired, s->retired_cap * sizeof *s->retired);
    s->retired = nr;
    s->retired_cap = nc;
  }
  stream_buf nb;
  if (ncap == s->bufsize && s->spare.ptr) {
    nb = s->spare;
    s->spare.ptr = NULL;
    s->spare.cap = 0;
  } else {
    nb.ptr = desert_mem_alloc(&r->opt.allocator, ncap);
    if (!nb.ptr) return fill_fail(r, DESERT_E_NOMEM);
    nb.cap = ncap;
  }
  DESERT_ASSERT(live < nb.cap); /* the live bytes and room for at least one more */
  if (live) memcpy(nb.ptr, s->win.ptr + (s->keep - s->origin), live);
  s->retired[s->nretired++] = s->win;
  s->win = nb;
  s->origin = s->keep;
  set_base(r, s);
  STREAM_ASSERT_WINDOW(r, s);
  return true;
}

/* The reader's refill hook: pulls until n bytes are available at the
 * cursor, the source ends, or it fails. Never extends a limit narrowed to
 * a record chunk (end != len): a chunk's bytes were made resident when its
 * record was opened, so a short chunk is a real InputEnded. */
static bool stream_fill(desert_reader *r, size_t n) {
  stream_src *s = r->stream;
  /* stream_status tells why THIS request failed: a short record chunk
   * (limit narrowed) or the stream's end are plain InputEnded, even after
   * an earlier look-ahead ran into a failing source. */
  r->stream_status = DESERT_OK;
  if (r->status || r->end != r->len) return false;
  if (s->io_failed) return fill_fail(r, DESERT_E_READ_INPUT); /* sticky */
  while (r->len - r->pos < n) {
    if (s->eof) return false;
    size_t need = n > SIZE_MAX - (r->pos - s->keep) ? SIZE_MAX : r->pos - s->keep + n;
    size_t used = r->len - s->origin;
    if (used == s->win.cap && !switch_window(r, s, need)) return false;
    used = r->len - s->origin;
    size_t room = s->win.cap - used;
    ptrdiff_t got = s->src.read(s->src.ctx, s->win.ptr + used, room);
    if (got < 0 || (size_t)got > room) {
      s->eof = s->io_failed = true; /* never called again */
      return fill_fail(r, DESERT_E_READ_INPUT);
    }
    if (got == 0) {
      s->eof = true;
      return false;
    }
    r->len += (size_t)got;
    r->end = r->len;
    STREAM_ASSERT_WINDOW(r, s);
  }
  return true;
}

/* The bytes since the last mark may reach buffer_size + max_length (a
 * whole string must be resident) and the caller's high-water mark, never
 * less than one window. */
static void set_limit(const desert_reader *r, stream_src *s) {
  size_t bs = s->bufsize;
  size_t limit = r->opt.max_length > SIZE_MAX - bs ? SIZE_MAX : bs + r->opt.max_length;
  if (s->max_window < limit) limit = s->max_window;
  s->limit = limit < bs ? bs : limit;
}

desert_status desert_reader_set_max_window(desert_reader *r, size_t max_window) {
  if (!r) return DESERT_E_ARGUMENT;
  stream_src *s = r->stream;
  if (!s) return DESERT_E_STATE;
  s->max_window = max_window ? max_window : DESERT_STREAM_DEFAULT_MAX_WINDOW;
  set_limit(r, s);
  return DESERT_OK;
}

desert_status desert_reader_begin_stream(desert_reader *r, desert_source src,
                                         size_t buffer_size) {
  if (!r || !src.read) return DESERT_E_ARGUMENT;
  size_t bs = buffer_size ? buffer_size : DESERT_STREAM_DEFAULT_BUFFER;
  if (bs < DESERT_STREAM_MIN_BUFFER) bs = DESERT_STREAM_MIN_BUFFER;
  stream_src *s = r->stream;
  if (s && s->bufsize == bs) {
    /* A warm reader keeps its window: restarting allocates nothing. */
    r->stream_free = NULL; /* the reset below must not free it */
    desert_reader_reset(r);
    drop_retired(r, s);
    if (s->win.cap != bs) {
      buf_free(r, &s->win);
      s->win = s->spare;
      s->spare.ptr = NULL;
      s->spare.cap = 0;
    }
  } else {
    desert_reader_reset(r); /* ends any earlier stream, clears the session */
    s = desert_mem_alloc(&r->opt.allocator, sizeof *s);
    if (!s) return DESERT_E_NOMEM;
    desert_zero(s, sizeof *s);
    s->bufsize = bs;
  }
  if (!s->win.ptr) {
    s->win.ptr = desert_mem_alloc(&r->opt.allocator, bs);
    if (!s->win.ptr) {
      r->stream = s;
      stream_free(r);
      return DESERT_E_NOMEM;
    }
    s->win.cap = bs;
  }
  s->src = src;
  s->origin = s->keep = 0;
  s->eof = s->io_failed = false;
  s->max_window = DESERT_STREAM_DEFAULT_MAX_WINDOW;
  set_limit(r, s);
  r->stream = s;
  r->stream_fill = stream_fill;
  r->stream_free = stream_free;
  r->busy = 1; /* a begin must end the stream: never the inline one */
  r->stream_status = DESERT_OK;
  r->strings.copy_keys = true; /* ids outlive the window's bytes */
  r->pos = r->end = r->len = 0;
  set_base(r, s);
  STREAM_ASSERT_WINDOW(r, s);
  return DESERT_OK;
}

desert_status desert_reader_mark(desert_reader *r) {
  if (!r) return DESERT_E_ARGUMENT;
  stream_src *s = r->stream;
  if (!s || r->status) return r->status;
  /* Only between top-level elements: an open record (depth > 0, or a limit
   * narrowed to a chunk) may still jump back to bytes before the cursor. */
  if (r->end != r->len || r->depth) return desert_r_fail(r, DESERT_E_STATE, r->pos);
  s->keep = r->pos;
  drop_retired(r, s);
  desert_arena_reset_if_used(&r->arena);
  size_t dead = r->pos - s->origin, rest = r->len - r->pos;
  if (s->win.cap > s->bufsize && rest < s->bufsize) {
    /* A large element is done: back to a window of the caller's size. */
    stream_buf nb = s->spare;
    s->spare.ptr = NULL;
    s->spare.cap = 0;
    if (!nb.ptr) {
      nb.ptr = desert_mem_alloc(&r->opt.allocator, s->bufsize);
      if (!nb.ptr) return DESERT_OK; /* keep the large window; nothing lost */
      nb.cap = s->bufsize;
    }
    if (rest) memcpy(nb.ptr, s->win.ptr + dead, rest);
    buf_free(r, &s->win);
    s->win = nb;
    s->origin = r->pos;
    set_base(r, s);
  } else if (dead && dead >= s->win.cap / 2) {
    if (rest) memmove(s->win.ptr, s->win.ptr + dead, rest);
    s->origin = r->pos;
    set_base(r, s);
  }
  STREAM_ASSERT_WINDOW(r, s);
  return DESERT_OK;
}

bool desert_reader_at_end(desert_reader *r) {
  if (!r || r->status) return false;
  if (r->pos != r->end || desert_r_want(r, 1)) return false;
  if (r->stream_status) desert_r_fail(r, r->stream_status, r->pos); /* not the end: a failure */
  return r->status == DESERT_OK;
}

bool desert_reader_ensure(desert_reader *r, size_t n) {
  if (!r || r->status) return false;
  return desert_r_want(r, n);
}
