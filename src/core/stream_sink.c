/* src/core/stream_sink.c — the streaming writer: the main output
 * target becomes a buffer of the caller's size that drains into a
 * desert_sink whenever the writer's "need room" slow path finds it full
 * (desert_w_reserve_slow -> sink_room). Nothing above the core changes:
 * no layer patches bytes of the main target after writing them (records
 * assemble their chunks in their own buffers and splice them in), so
 * bytes once in the buffer are final and can leave at any time.
 * SPDX-License-Identifier: MIT */
#include "core/writer_internal.h"
#include "desert/stream.h"

typedef struct stream_snk {
  desert_sink sink;
  uint8_t *buf; /* the caller-size buffer */
  size_t cap;
  uint8_t *big; /* temporary larger buffer for a value above cap, or NULL */
  size_t big_cap;
  uint64_t flushed; /* bytes the sink accepted */
} stream_snk;

/* Writes the buffered bytes out; a failure is sticky (the sink is never
 * called again because every write path checks the status first). */
static bool push(desert_writer *w, stream_snk *s) {
  if (w->main.len) {
    if (s->sink.write(s->sink.ctx, w->main.data, w->main.len) != 0) {
      desert_w_fail(w, DESERT_E_WRITE_OUTPUT);
      return false;
    }
    s->flushed += w->main.len;
    w->main.len = 0;
  }
  if (s->big) { /* the large value is out: back to the caller-size buffer */
    desert_mem_free(&w->opt.allocator, s->big, s->big_cap);
    s->big = NULL;
    s->big_cap = 0;
    w->main.data = s->buf;
    w->main.cap = s->cap;
  }
  return true;
}

static uint8_t *sink_room(desert_writer *w, size_t n) {
  stream_snk *s = w->sink;
  if (w->status || !push(w, s)) return NULL;
  if (n > s->cap) {
    size_t nc = n > SIZE_MAX / 2 ? n : 2 * n;
    s->big = desert_mem_alloc(&w->opt.allocator, nc);
    if (!s->big) {
      desert_w_fail(w, DESERT_E_NOMEM);
      return NULL;
    }
    s->big_cap = nc;
    w->main.data = s->big;
    w->main.cap = nc;
  }
  return w->main.data;
}

static void sink_free(desert_writer *w) {
  stream_snk *s = w->sink;
  if (s) {
    if (s->big) desert_mem_free(&w->opt.allocator, s->big, s->big_cap);
    desert_mem_free(&w->opt.allocator, s->buf, s->cap);
    desert_mem_free(&w->opt.allocator, s, sizeof *s);
  }
  w->sink = NULL;
  w->sink_room = NULL;
  w->sink_free = NULL;
  w->main.data = w->own;
  w->main.cap = w->own_cap;
  w->main.len = 0;
  w->main.mode = DESERT_WMODE_GROW;
}

desert_status desert_writer_begin_stream(desert_writer *w, desert_sink sink, size_t buffer_size) {
  if (!w || !sink.write) return DESERT_E_ARGUMENT;
  desert_w_live(w);
  size_t bs = buffer_size ? buffer_size : DESERT_STREAM_DEFAULT_BUFFER;
  if (bs < DESERT_STREAM_MIN_BUFFER) bs = DESERT_STREAM_MIN_BUFFER;
  stream_snk *s = w->sink;
  if (s && s->cap == bs) {
    /* A warm writer keeps its buffer: restarting allocates nothing. */
    desert_writer_reset(w);
    if (s->big) desert_mem_free(&w->opt.allocator, s->big, s->big_cap);
    s->big = NULL;
    s->big_cap = 0;
  } else {
    desert_writer_use_growable(w); /* ends an earlier stream and resets */
    s = desert_mem_alloc(&w->opt.allocator, sizeof *s);
    if (!s) return DESERT_E_NOMEM;
    desert_zero(s, sizeof *s);
    s->buf = desert_mem_alloc(&w->opt.allocator, bs);
    if (!s->buf) {
      desert_mem_free(&w->opt.allocator, s, sizeof *s);
      return DESERT_E_NOMEM;
    }
    s->cap = bs;
  }
  s->sink = sink;
  s->flushed = 0;
  w->sink = s;
  w->sink_room = sink_room;
  w->sink_free = sink_free;
  desert_w_hold(w);
  /* FIXED: nothing else may reallocate the buffer; the hook runs first. */
  w->main.data = s->buf;
  w->main.cap = bs;
  w->main.len = 0;
  w->main.mode = DESERT_WMODE_FIXED;
  return DESERT_OK;
}

desert_status desert_writer_flush(desert_writer *w) {
  if (!w) return DESERT_E_ARGUMENT;
  desert_w_live(w);
  if (!w->sink) return DESERT_E_STATE;
  if (w->status) return w->status;
  push(w, w->sink);
  return w->status;
}

uint64_t desert_writer_stream_offset(const desert_writer *w) {
  /* A pending writer (desert_writer_init, nothing exported called yet)
   * has no sink, and nothing past its head may be read. */
  if (!w || (w->busy & DESERT_WBUSY_PENDING) || !w->sink) return 0;
  const stream_snk *s = w->sink;
  return s->flushed + w->main.len;
}
