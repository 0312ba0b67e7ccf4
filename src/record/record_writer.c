/* src/record/record_writer.c — writing records (docs/format.md §9.3–§9.5, §9.8):
 * version byte, chunks, evolution header, chunks in order.
 *
 * Version 0 goes straight to the output. A versioned record has five
 * layouts, chosen at begin by the enclosing target (w->t) and the plan:
 *  - COUNT target (size-only mode), ordered plan (REC_PLAN_ORDERED: a
 *    fixed header, chunks that never decrease in declaration order, any
 *    number of steps): the counted layout. Nothing is stored and no
 *    buffer or frame is taken; the fields count in the enclosing count,
 *    chunk after chunk, and the header adds up from the chunk sizes as
 *    the writes leave each chunk (see count_leave). Its begin and end make
 *    no further call and save no registers.
 *  - GROW target, sequential plan (REC_PLAN_SEQ: a fixed header, at most
 *    REC_SEQ_MAX steps, chunks that never decrease in declaration order —
 *    fields added at the end): every chunk is written in place, one after
 *    the other as the wire orders them, after room reserved for the
 *    header; the frame records where each chunk starts. _end writes the
 *    header into the room (moving the body once if its size differs). No
 *    chunk buffer, no copy.
 *  - other GROW targets (a heap output or a chunk buffer): chunk 0 is written in
 *    place, after room reserved for the header (the fewest bytes the
 *    header can take, or the size this description's header had last time
 *    in this writer); the other chunks go to chunk buffers. At _end the
 *    header is built in a scratch buffer, chunk 0 is moved only if the
 *    header's size differs from the room, the header is copied in front of
 *    it and the other chunks are appended. So chunk 0 — most of a record,
 *    and at every nesting level — is written once and never copied. (A
 *    fixed-header plan writes its header straight into the room.)
 *  - other COUNT targets (size-only mode: no plan, or a plan with names
 *    in its header or chunks out of declaration order): each chunk is a
 *    COUNT target of its own (its first bytes land in a scratch area,
 *    then in the writer's sink); _end counts the header and adds the
 *    chunk sizes (a fixed-header plan only adds lengths). No chunk is
 *    stored.
 *  - FIXED target (the caller's buffer): every chunk in a chunk buffer and
 *    the header written before them at _end, as the format orders it, so
 *    a buffer that is too small fails exactly as it always did.
 * The chunk buffers are GROW targets from a pool kept in w->records and
 * used as a stack (a nested record takes the buffers above its parent's),
 * so a warm writer allocates nothing per record; the pool embeds its first
 * buffers (with 64 bytes of storage each) and frames, so a fresh writer's
 * first small record allocates once.
 *
 * The derived data (chunk of a field, header entries) comes from the
 * record's plan when it has one, else from record_plan.c's functions on
 * the description, computed on the spot.
 *
 * The pool's stack is a list of frames tagged with the nesting depth they
 * were opened at. A record abandoned after an error (its _end never
 * called) leaves a stale frame; desert_writer_reset sets the depth back to
 * 0, and every begin first drops the frames at its own depth or deeper, so
 * stale frames never pile up beyond max_depth and never share buffers with
 * live records.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>

#include "desert/stream.h"
#include "record/header_hint.h"
#include "record/record_plan.h"
#include "scalar/scalar.h"
#include "core/writer_internal.h"

typedef struct rec_wframe {
  unsigned depth; /* w->depth of the record that owns the frame */
  unsigned n;     /* its buffer count (version + 1 <= 128; 0: sequential layout) */
  size_t base;    /* its first buffer */
  size_t serial;  /* matches the owner's rw->serial_ while the frame is live */
  size_t start[REC_SEQ_MAX]; /* sequential layout: where chunk i + 1 starts in
                              * the output (set when the writes reach it) */
} rec_wframe;

/* Bytes of embedded storage per pool buffer: the chunks of small records
 * (most records) are written without allocating. */
#define REC_BUF_INLINE 64u
/* Buffers and frames embedded in the pool itself; deeper nesting or more
 * chunks spill to the heap. Keeps a fresh writer's first versioned record
 * at one allocation (the pool) instead of eight. */
#define REC_POOL_INLINE 4u
#define REC_HINTS 16u

/* One chunk buffer: a GROW target, and for size-only mode a COUNT target
 * whose first REC_BUF_INLINE bytes of writes land in `store` through the
 * writers' inline path (nothing reads them) before the rest goes to the
 * writer's sink; only its len, the chunk's size, matters. */
typedef struct rec_wbuf {
  desert_wtarget grow;
  desert_wtarget count;
  uint8_t store[REC_BUF_INLINE]; /* grow's embedded first storage; count's scratch */
} rec_wbuf;

/* The detail of the writer's last misuse status (desert_record_error_message):
 * allocated on the first misuse, so a writer that never errs pays nothing. */
typedef struct rec_werr {
  desert_status status; /* the status it explains */
  char msg[256];
} rec_werr;

typedef struct rec_wpool {
  rec_wbuf **bufs; /* each buffer allocated once (or embedded below):
                    * pointers stay valid while the array itself grows */
  size_t nbufs, bufs_cap;
  rec_wframe *frames;
  size_t nframes, frames_cap;
  size_t serial; /* last serial handed out */
  /* Header size of the last record of a description (keyed by its
   * address, direct-mapped): the room reserved for the next one. Only a
   * hint — a wrong one (an address reused by another description) costs a
   * move of chunk 0, never wrong bytes. */
  const void *hint_key[REC_HINTS];
  uint16_t hint_len[REC_HINTS];
  rec_wbuf *bufs_inline[REC_POOL_INLINE];
  rec_wframe frames_inline[REC_POOL_INLINE];
  rec_wbuf buf_inline[REC_POOL_INLINE];
  rec_werr *err; /* NULL until a misuse is explained */
} rec_wpool;
/* glibc serves blocks of up to 1032 bytes from its per-thread cache; a
 * pool above that made a fresh heap writer's first record ~15% slower
 * (measured on case 8). */
_Static_assert(sizeof(rec_wpool) <= 1024, "record pool: keep it within malloc's fast bins");

static void buf_init(rec_wbuf *b) {
  b->grow = (desert_wtarget){b->store, 0, REC_BUF_INLINE, DESERT_WMODE_GROW, b->store};
  b->count = (desert_wtarget){b->store, 0, REC_BUF_INLINE, DESERT_WMODE_COUNT, NULL};
}

static bool buf_is_inline(const rec_wpool *p, const rec_wbuf *b) {
  return b >= p->buf_inline && b < p->buf_inline + REC_POOL_INLINE;
}

/* Where buffer i's bytes go. */
static inline desert_wtarget *buf_target(const rec_wpool *p, size_t i) { return &p->bufs[i]->grow; }

static void pool_free(desert_writer *w) {
  rec_wpool *p = w->records;
  if (!p) return;
  for (size_t i = 0; i < p->nbufs; i++) {
    desert_wtarget_free(w, &p->bufs[i]->grow);
    if (!buf_is_inline(p, p->bufs[i]))
      desert_mem_free(&w->opt.allocator, p->bufs[i], sizeof *p->bufs[i]);
  }
  if (p->bufs != p->bufs_inline)
    desert_mem_free(&w->opt.allocator, p->bufs, p->bufs_cap * sizeof *p->bufs);
  if (p->frames != p->frames_inline)
    desert_mem_free(&w->opt.allocator, p->frames, p->frames_cap * sizeof *p->frames);
  if (p->err) desert_mem_free(&w->opt.allocator, p->err, sizeof *p->err);
  desert_mem_free(&w->opt.allocator, p, sizeof *p);
  w->records = NULL;
  w->records_free = NULL;
}

static rec_wpool *pool_get(desert_writer *w) {
  if (w->records) return w->records;
  rec_wpool *p = desert_mem_alloc(&w->opt.allocator, sizeof *p);
  if (!p) return NULL;
  /* Only the bookkeeping is cleared; buffers are set up as they are first
   * handed out (buf_init). */
  p->bufs = p->bufs_inline;
  p->nbufs = 0;
  p->bufs_cap = REC_POOL_INLINE;
  p->frames = p->frames_inline;
  p->nframes = 0;
  p->frames_cap = REC_POOL_INLINE;
  p->serial = 0;
  p->err = NULL;
  desert_zero(p->hint_key, sizeof p->hint_key);
  desert_zero(p->hint_len, sizeof p->hint_len);
  w->records = p;
  w->records_free = pool_free;
  desert_w_hold(w);
  return p;
}

/* Grows an array of elem-sized items to hold at least need items; the
 * embedded first array (`inline_arr`) is never freed. */
static bool grow_array(desert_writer *w, void **arr, size_t *cap, size_t need, size_t elem,
                       const void *inline_arr) {
  if (need <= *cap) return true;
  size_t ncap = *cap * 2 > 16 ? *cap * 2 : 16;
  while (ncap < need) ncap *= 2;
  void *na = desert_mem_alloc(&w->opt.allocator, ncap * elem);
  if (!na) return false;
  if (*cap) memcpy(na, *arr, *cap * elem);
  if (*arr != inline_arr) desert_mem_free(&w->opt.allocator, *arr, *cap * elem);
  *arr = na;
  *cap = ncap;
  return true;
}

/* Takes n empty buffers for a record at nesting depth `depth`; *frame and
 * *base say where they are. */
DESERT_INLINE desert_status pool_take(desert_writer *w, unsigned depth, size_t n, size_t *frame,
                                      size_t *base, size_t *serial) {
  rec_wpool *p = pool_get(w);
  if (!p) return DESERT_E_NOMEM;
  while (p->nframes && p->frames[p->nframes - 1].depth >= depth) p->nframes--;
  size_t b = p->nframes ? p->frames[p->nframes - 1].base + p->frames[p->nframes - 1].n : 0;
  void *arr;
  if (n) { /* (the sequential layout takes a frame without buffers) */
    arr = p->bufs;
    if (!grow_array(w, &arr, &p->bufs_cap, b + n, sizeof *p->bufs, p->bufs_inline))
      return DESERT_E_NOMEM;
    p->bufs = arr;
    while (p->nbufs < b + n) {
      rec_wbuf *t = p->nbufs < REC_POOL_INLINE ? &p->buf_inline[p->nbufs]
                                               : desert_mem_alloc(&w->opt.allocator, sizeof *t);
      if (!t) return DESERT_E_NOMEM;
      buf_init(t);
      p->bufs[p->nbufs++] = t;
    }
    for (size_t i = b; i < b + n; i++) p->bufs[i]->grow.len = p->bufs[i]->count.len = 0;
  }
  arr = p->frames;
  if (!grow_array(w, &arr, &p->frames_cap, p->nframes + 1, sizeof *p->frames, p->frames_inline))
    return DESERT_E_NOMEM;
  p->frames = arr;
  /* (start[] is written by the sequential layout before it is read) */
  rec_wframe *f = &p->frames[p->nframes];
  f->depth = depth;
  f->base = b;
  f->n = (unsigned)n;
  f->serial = ++p->serial;
  *frame = p->nframes++;
  *base = b;
  *serial = p->serial;
  return DESERT_OK;
}

/* rw's frame if it is still the live frame it was given: not after a
 * desert_writer_reset followed by other records (misuse, but it must not
 * send writes into buffers that belong to someone else); else NULL. */
static const rec_wframe *frame_live(const desert_writer *w, const desert_record_writer *rw) {
  const rec_wpool *p = w->records;
  if (p && rw->frame_ < p->nframes && p->frames[rw->frame_].serial == rw->serial_)
    return &p->frames[rw->frame_];
  return NULL;
}

/* frame_live as a test, with a shortcut for the innermost record (every
 * field of a record without nested records): no frame was taken since rw's,
 * whose frame was written by that take and is still on the stack. */
static inline bool is_live(const desert_writer *w, const desert_record_writer *rw) {
  const rec_wpool *p = w->records;
  if (p && p->serial == rw->serial_ && rw->frame_ < p->nframes) return true;
  return frame_live(w, rw) != NULL;
}

enum {
  LAYOUT_V0 = 0,
  LAYOUT_IN_PLACE = 1,
  LAYOUT_COUNT = 2,
  LAYOUT_BUFFERED = 3,
  LAYOUT_SEQ = 4,
  LAYOUT_COUNTED = 5
};

/* Whether rw may still send writes where it does: a counted record
 * (size-only, ordered plan) takes no frame and no buffer, so nothing of
 * the pool can have gone stale under it; the others need their frame. */
static bool rec_live(const desert_writer *w, const desert_record_writer *rw) {
  return rw->layout_ == LAYOUT_COUNTED || frame_live(w, rw) != NULL;
}

/* ---- misuse ----------------------------------------------------------------------
 * Calls that do not match the description fail with a status of their
 * own, and the pool keeps a sentence naming the record and the field for
 * desert_record_error_message. All of it is off the fast paths: they
 * test rw->state_ == REC_OPEN, which an optional field whose tag is still
 * to be checked (REC_TAG) fails, sending the next call to the general
 * path. */

/* rw->state_ */
enum { REC_IDLE = 0, REC_OPEN = 1, REC_ENDED = 2, REC_TAG = 3 };

static const char *field_name(const desert_record_desc *d, size_t i) {
  return i < d->field_count && d->fields[i].name ? d->fields[i].name : "?";
}

/* snprintf cuts at a byte: drop a UTF-8 sequence left incomplete at the
 * end of the n bytes before msg's NUL. */
static void trim_utf8(char *msg, size_t n) {
  size_t i = n;
  while (i && ((unsigned char)msg[i - 1] & 0xC0u) == 0x80u) i--; /* continuation bytes */
  if (i && (unsigned char)msg[i - 1] >= 0xC0u) {                  /* their lead byte */
    const unsigned char lead = (unsigned char)msg[i - 1];
    const size_t want = lead >= 0xF0u ? 4 : lead >= 0xE0u ? 3 : 2;
    if (n - (i - 1) < want) msg[i - 1] = '\0';
  }
}

/* Records st (unless an error is recorded already: that one stays) and
 * its explanation, `record "R", field "F" (#i): ` and the reason. A
 * failed allocation loses only the explanation. */
DESERT_COLD __attribute__((format(printf, 4, 5))) static desert_status
misuse(const desert_record_writer *rw, desert_status st, size_t index, const char *fmt, ...) {
  desert_writer *w = rw->w;
  if (w->status) return w->status;
  desert_w_fail(w, st);
  rec_wpool *p = pool_get(w);
  if (!p) return st;
  if (!p->err && (p->err = desert_mem_alloc(&w->opt.allocator, sizeof *p->err)) == NULL) return st;
  char *msg = p->err->msg;
  const size_t cap = sizeof p->err->msg;
  const desert_record_desc *d = rw->desc;
  int n = snprintf(msg, cap, "record \"%s\", field \"%s\" (#%zu): ",
                   d && d->name ? d->name : "?", d ? field_name(d, index) : "?", index);
  if (n >= 0 && (size_t)n < cap) {
    va_list ap;
    va_start(ap, fmt);
    const int m = vsnprintf(msg + n, cap - (size_t)n, fmt, ap);
    va_end(ap);
    if (m >= 0) n += m;
  }
  if (n < 0) msg[0] = '\0';
  else if ((size_t)n >= cap) trim_utf8(msg, cap - 1);
  p->err->status = st;
  return st;
}

/* The end of target t as an offset that a streaming writer's flush does
 * not move (the main output's stream offset); the plain length elsewhere. */
static size_t out_pos(const desert_writer *w, const desert_wtarget *t) {
  return w->sink && t == &w->main ? (size_t)desert_writer_stream_offset(w) : t->len;
}

/* An optional field started with desert_record_write_field: its first
 * byte (where the writes go now) is checked when it ends. */
static inline void tag_arm(desert_writer *w, desert_record_writer *rw) {
  rw->state_ = REC_TAG;
  rw->tag_t_ = w->t;
  rw->tag_at_ = DESERT_UNLIKELY(w->sink != NULL) ? out_pos(w, w->t) : w->t->len;
}

/* The end of that field (rw->state_ REC_TAG, back to REC_OPEN): some
 * bytes, the first 00 or 01, nothing after a 00. What cannot be seen
 * passes: a size-only target stores nothing, a stream may have flushed
 * the byte, and a writer reset under the record leaves the target
 * shorter than the field's start (then n wraps past the target's
 * length; the state checks after this report the reset). */
DESERT_COLD static desert_status tag_check(desert_record_writer *rw) {
  desert_writer *w = rw->w;
  rw->state_ = REC_OPEN;
  if (w->status || (rw->version_ && !rec_live(w, rw))) return w->status;
  const desert_wtarget *t = rw->tag_t_;
  const size_t n = out_pos(w, t) - rw->tag_at_; /* the field's bytes */
  const size_t field = rw->next_ - 1;
  if (n == 0)
    return misuse(rw, DESERT_E_OPTION_TAG_MISSING, field,
                  "optional field written without its option tag (no bytes at all)");
  if (t->mode == DESERT_WMODE_COUNT || n > t->len) return DESERT_OK;
  const unsigned b = t->data[t->len - n];
  if (b > 1)
    return misuse(rw, DESERT_E_OPTION_TAG_MISSING, field,
                  "optional field written without its option tag (first byte 0x%02x, not 00 "
                  "or 01)",
                  b);
  if (b == 0 && n > 1)
    return misuse(rw, DESERT_E_OPTION_TAG_MISSING, field,
                  "optional field written without its option tag (first byte 00 is None, yet "
                  "%zu more bytes follow)",
                  n - 1);
  return DESERT_OK;
}

/* ---- the counted layout ----------------------------------------------------------
 * Size-only mode with a REC_PLAN_ORDERED plan (fixed header, chunks in
 * declaration order): nothing is stored or buffered. _begin counts the
 * version byte and the header's fewest bytes (plan->min_header: one per
 * chunk size, two per made-optional entry) in the enclosing count
 * (rw->outer_, which stays the writer's target); the fields' writes count
 * there too, chunk after chunk, since the plan's chunks come in field
 * order; when the writes leave a chunk (count_leave), the bytes its size
 * takes beyond the one min_header counted are added. rw->at_ is the count
 * where the live chunk began; rw->reserved_ (unused by this layout
 * otherwise) notes a chunk above 2^31 - 1 bytes, reported at _end like the
 * other layouts do. Chunks no field reaches are empty: one byte each,
 * already in min_header. Same count and statuses as writing the record. */
static inline void count_leave(desert_writer *w, desert_record_writer *rw) {
  desert_wtarget *o = rw->outer_;
  if (o->len < rw->at_) { /* the writer was reset under the record */
    desert_w_fail(w, DESERT_E_STATE);
    return;
  }
  const size_t n = o->len - rw->at_;
  if (n > (size_t)INT32_MAX)
    rw->reserved_ = 1;
  else if (n > 63) /* (sizes up to 63 take the one byte already counted) */
    o->len += desert_var_u32_len(desert_zigzag32((int32_t)n)) - 1;
  rw->at_ = o->len;
}

/* Sequential layout: the writes have reached chunk c (>= rw->chunk_, the
 * plan's chunks never decrease); the chunks after the current one up to c
 * start at the output's end. */
static inline void seq_enter(const desert_wtarget *o, desert_record_writer *rw, rec_wframe *f,
                             unsigned c) {
  for (unsigned i = rw->chunk_ + 1; i <= c; i++) f->start[i - 1] = o->len;
  if (c > rw->chunk_) rw->chunk_ = c;
}

/* Where chunk i of rw goes (not chunk 0 in place: that is rw->outer_). */
static inline desert_wtarget *chunk_target(const rec_wpool *p, const desert_record_writer *rw,
                                           unsigned i) {
  rec_wbuf *b = p->bufs[rw->base_ + i];
  return rw->layout_ == LAYOUT_COUNT ? &b->count : &b->grow;
}

/* Copies n bytes between non-overlapping ranges with fixed-size (possibly
 * overlapping) accesses inside [0, n) when n <= 16 — headers almost always
 * are — rather than a library call; src NULL zeroes. */
/* Copies the first and the last w bytes of [0, n), w <= n, w <= 8 (a
 * constant once inlined, so each memcpy is one move). */
DESERT_INLINE void copy_ends(uint8_t *dst, const uint8_t *src, size_t n, size_t w) {
  uint64_t a = 0, b = 0;
  memcpy(&a, src, w);
  memcpy(&b, src + n - w, w);
  memcpy(dst, &a, w);
  memcpy(dst + n - w, &b, w);
}

static inline void small_copy(uint8_t *dst, const uint8_t *src, size_t n) {
  static const uint8_t zeros[16];
  if (n > 16) {
    if (src) memcpy(dst, src, n);
    else memset(dst, 0, n);
    return;
  }
  if (!src) src = zeros;
  /* Two accesses of width w at both ends; not a byte loop for n < 4: gcc
   * turns that into a memcpy call, which costs more than the 2- or 3-byte
   * headers it copies. */
  if (n >= 8) {
    copy_ends(dst, src, n, 8);
  } else if (n >= 4) {
    copy_ends(dst, src, n, 4);
  } else if (n >= 2) {
    copy_ends(dst, src, n, 2);
  } else if (n) {
    dst[0] = src[0];
  }
}

static inline unsigned hint_slot(const void *key) {
  return (unsigned)(((uintptr_t)key >> 4) & (REC_HINTS - 1));
}

/* The room to reserve for d's next header: the size of this one, in the
 * pool and, when the pool did not know it, in the process-wide table that
 * fresh writers start from (header_hint.h). */
static inline void remember_header(rec_wpool *p, const desert_record_desc *d, size_t h) {
  unsigned k = hint_slot(d);
  const uint16_t len = (uint16_t)(h < UINT16_MAX ? h : UINT16_MAX);
  if (p->hint_key[k] == d && p->hint_len[k] == len) return;
  p->hint_key[k] = d;
  p->hint_len[k] = len;
  desert_rec_ghint_put(d, h);
}

/* Reserves the header's room in the enclosing GROW target for chunk 0 in
 * place: the last header size of this description, else the fewest bytes
 * any of its headers takes. */
DESERT_INLINE desert_status reserve_header(desert_writer *w, desert_record_writer *rw,
                                          unsigned v) {
  const rec_wpool *p = w->records;
  const desert_record_desc *d = rw->desc;
  /* A hint is the size of a real header of d, so at least its minimum
   * (unless another description took d's address, or a key of the
   * process-wide table matched falsely: then the room is wrong, and the
   * end of the record moves chunk 0). */
  unsigned k = hint_slot(d);
  unsigned r;
  if (p->hint_key[k] == d) {
    r = p->hint_len[k];
  } else {
    const long g = desert_rec_ghint_get(d); /* a fresh writer: another's last header */
    r = g >= 0 ? (unsigned)g : rw->plan_ ? rw->plan_->min_header : desert_rec_min_header(d);
  }
  /* One reservation for the version byte and the room. */
  rw->at_ = w->t->len + 1;
  rw->reserved_ = r;
  uint8_t *q = desert_w_reserve(w, 1 + (size_t)r);
  if (!q) return w->status;
  q[0] = (uint8_t)v;
  small_copy(q + 1, NULL, r); /* never left undefined, even if the record fails */
  desert_w_commit(w, 1 + (size_t)r);
  return DESERT_OK;
}

/* Whether a plan's record starts in the counted layout on w now. */
static inline bool counts_in_place(const desert_writer *w, const desert_record_plan *plan) {
  return (plan->flags & REC_PLAN_ORDERED) && w->t->mode == DESERT_WMODE_COUNT;
}

/* The counted layout's begin, once the checks before it passed (no error,
 * depth below the limit): sets up all of rw, counts the version byte and
 * the header's fewest bytes. */
static inline void begin_counted(desert_writer *w, const desert_record_plan *plan,
                                 desert_record_writer *rw) {
  desert_wtarget *o = w->t;
  o->len += 1 + (size_t)plan->min_header;
  /* Every member, one by one (a compound literal became a `rep stos`,
   * slow to start): the caller's rw may hold anything. strings0_ is only
   * read for header names, which an ordered plan's header has none of. */
  rw->w = w;
  rw->desc = plan->desc;
  rw->outer_ = o;
  rw->frame_ = SIZE_MAX;
  rw->base_ = 0;
  rw->next_ = 0;
  rw->strings0_ = 0;
  rw->serial_ = 0;
  rw->version_ = plan->version;
  rw->state_ = REC_OPEN;
  rw->plan_ = plan;
  rw->at_ = o->len;
  rw->chunk_ = 0;
  rw->layout_ = LAYOUT_COUNTED;
  rw->reserved_ = 0;
  w->depth++;
  w->busy = 1; /* a reset must restore depth (desert_writer_reset_inline) */
}

/* Inlined into both begin calls: the description-based one would
 * otherwise pay a second call per record. */
DESERT_INLINE desert_status write_begin(desert_writer *w, const desert_record_desc *d,
                                        const desert_record_plan *plan, desert_record_writer *rw) {
  if (!w || !rw) return DESERT_E_ARGUMENT;
  desert_zero(rw, sizeof *rw); /* not memset: see desert_zero */
  rw->w = w;
  rw->desc = d;
  rw->plan_ = plan;
  rw->frame_ = SIZE_MAX;
  if (w->status) return w->status;
  /* A plan's description passed desert_record_desc_check when it was built. */
  desert_status st = plan ? DESERT_OK : desert_rec_quick_check(d);
  if (st) return desert_w_fail(w, st);
  if (w->depth >= w->opt.max_depth) return desert_w_fail(w, DESERT_E_DEPTH);
  unsigned v = (unsigned)d->step_count;
  /* (a counted record never gets here: desert_record_write_begin_plan
   * takes it first, and the description-based path has no plan but the
   * tuples' static ones, which are version 0) */
  if (v && w->t->mode == DESERT_WMODE_GROW) {
    /* Chunk 0 in place after the version byte and the header's room; the
     * sequential layout takes every chunk in place, so its record needs a
     * frame but no chunk buffers. */
    const bool seq = plan && (plan->flags & REC_PLAN_SEQ);
    st = pool_take(w, w->depth + 1, seq ? 0 : (size_t)v + 1, &rw->frame_, &rw->base_,
                   &rw->serial_);
    if (st) return desert_w_fail(w, st);
    rw->outer_ = w->t;
    rw->chunk_ = 0;
    rw->layout_ = seq ? LAYOUT_SEQ : LAYOUT_IN_PLACE;
    if (reserve_header(w, rw, v)) return w->status;
  } else {
    /* (size-only: the version byte is only counted, without the detour
     * through the writer's slow path that a COUNT target's writes take) */
    if (w->t->mode == DESERT_WMODE_COUNT) w->t->len++;
    else if (desert_w_byte(w, (uint8_t)v)) return w->status;
    if (v) {
      st = pool_take(w, w->depth + 1, (size_t)v + 1, &rw->frame_, &rw->base_, &rw->serial_);
      if (st) return desert_w_fail(w, st);
      rw->outer_ = w->t;
      rw->chunk_ = 0;
      rw->layout_ = w->t->mode == DESERT_WMODE_COUNT ? LAYOUT_COUNT : LAYOUT_BUFFERED;
      /* Until the first field starts, stray writes land in chunk 0 rather
       * than before the header. */
      w->t = chunk_target(w->records, rw, 0);
    }
  }
  w->depth++;
  w->busy = 1; /* a reset must restore depth (desert_writer_reset_inline) */
  rw->version_ = v;
  rw->strings0_ = (w->extras & DESERT_WX_TABLES) ? w->strings.count : 0;
  rw->state_ = REC_OPEN;
  return DESERT_OK;
}

desert_status desert_record_write_begin(desert_writer *w, const desert_record_desc *d,
                                        desert_record_writer *rw) {
  desert_w_live(w);
  return write_begin(w, d, desert_rec_static_plan(d), rw);
}

DESERT_NOINLINE static desert_status write_begin_plan_general(desert_writer *w,
                                                          const desert_record_plan *plan,
                                                          desert_record_writer *rw);

desert_status desert_record_write_begin_plan(desert_writer *w, const desert_record_plan *plan,
                                             desert_record_writer *rw) {
  desert_w_live(w);
  /* Size-only with an ordered plan: the counted layout, straight away
   * (write_begin's checks, in its order, all pass), without the general
   * path's register saves. */
  if (plan && w && counts_in_place(w, plan) && rw && !w->status && w->depth < w->opt.max_depth) {
    begin_counted(w, plan, rw);
    return DESERT_OK;
  }
  return write_begin_plan_general(w, plan, rw);
}

DESERT_NOINLINE static desert_status write_begin_plan_general(desert_writer *w,
                                                          const desert_record_plan *plan,
                                                          desert_record_writer *rw) {
  if (!plan) {
    if (!w || !rw) return DESERT_E_ARGUMENT;
    desert_zero(rw, sizeof *rw);
    rw->w = w;
    rw->frame_ = SIZE_MAX;
    return desert_w_fail(w, DESERT_E_ARGUMENT);
  }
  return write_begin(w, plan->desc, plan, rw);
}

/* The first non-transient field from `from` up to (excluding) `to`, a
 * field that must be written and was skipped; `to` if none. */
static size_t skipped_field(const desert_record_desc *d, size_t from, size_t to) {
  for (size_t j = from; j < to; j++)
    if (!(d->fields[j].flags & DESERT_FIELD_TRANSIENT)) return j;
  return to;
}

/* Sends the following writes to chunk c. */
static void enter_chunk(desert_writer *w, desert_record_writer *rw, unsigned c) {
  rec_wpool *p = w->records;
  if (rw->layout_ == LAYOUT_COUNTED) {
    /* (not idempotent: leaving a chunk counts its size entry) */
    if (c == rw->chunk_) return;
    count_leave(w, rw);
    rw->chunk_ = c;
    return;
  }
  if (rw->layout_ == LAYOUT_SEQ) {
    seq_enter(w->t, rw, &p->frames[rw->frame_], c);
    return;
  }
  w->t = rw->layout_ == LAYOUT_IN_PLACE && c == 0 ? rw->outer_ : chunk_target(p, rw, c);
  rw->chunk_ = c;
}

/* The general path. Inlined twice with `plan` a parameter: once with NULL
 * (the description-based path, where the compiler removes every plan
 * branch) and once with the record's plan. */
DESERT_INLINE desert_status write_field_impl(desert_record_writer *rw, size_t index,
                                             const desert_record_plan *plan) {
  if (!rw || !rw->w) return DESERT_E_ARGUMENT;
  desert_writer *w = rw->w;
  if (w->status) return w->status;
  if (rw->state_ == REC_TAG && tag_check(rw)) return w->status;
  if (rw->state_ != REC_OPEN) return desert_w_fail(w, DESERT_E_STATE);
  const desert_record_desc *d = rw->desc;
  if (index >= d->field_count || !d->fields[index].name) return desert_w_fail(w, DESERT_E_ARGUMENT);
  if (index < rw->next_) {
    if (index + 1 == rw->next_) return misuse(rw, DESERT_E_FIELD_ORDER, index, "started twice");
    return misuse(rw, DESERT_E_FIELD_ORDER, index,
                  "started after field \"%s\" (#%zu); fields go in declaration order",
                  field_name(d, rw->next_ - 1), rw->next_ - 1);
  }
  const unsigned flags = d->fields[index].flags;
  if (flags & DESERT_FIELD_TRANSIENT)
    return misuse(rw, DESERT_E_FIELD_TRANSIENT, index,
                  "started, but a transient field is never written");
  const size_t skipped = skipped_field(d, rw->next_, index);
  if (skipped != index)
    return misuse(rw, DESERT_E_FIELD_SKIPPED, skipped,
                  "not written: field \"%s\" (#%zu) was started before it", d->fields[index].name,
                  index);
  if (rw->version_) {
    if (!rec_live(w, rw)) return desert_w_fail(w, DESERT_E_STATE);
    unsigned c = plan ? plan->fields[index].chunk : desert_rec_field_chunk(d, index, NULL);
    enter_chunk(w, rw, c);
  }
  rw->next_ = index + 1;
  if (flags & DESERT_FIELD_OPTIONAL) tag_arm(w, rw);
  return DESERT_OK;
}

DESERT_NOINLINE static desert_status write_field_desc(desert_record_writer *rw, size_t index) {
  return write_field_impl(rw, index, NULL);
}

DESERT_NOINLINE static desert_status write_field_plan(desert_record_writer *rw, size_t index) {
  return write_field_impl(rw, index, rw->plan_);
}

/* Without a plan, a versioned record's field started right after the
 * previous one (none skipped) and not transient: its chunk is the last
 * FieldAdded step naming it, found here by a scan that calls nothing (so
 * that this path saves no registers). A step whose name is another
 * pointer with the same first byte needs a full comparison: that case,
 * and anything else, misuse and errors included, takes the general path,
 * which starts over with its own statuses (nothing is changed before). */
DESERT_NOINLINE static desert_status write_field_desc_versioned(desert_record_writer *rw,
                                                             size_t index) {
  desert_writer *w = rw->w;
  const desert_record_desc *d = rw->desc;
  if (!w || rw->state_ != REC_OPEN || w->status || index != rw->next_ || index >= d->field_count)
    return write_field_desc(rw, index);
  const char *name = d->fields[index].name;
  if (!name || (d->fields[index].flags & DESERT_FIELD_TRANSIENT) || !frame_live(w, rw))
    return write_field_desc(rw, index);
  unsigned c = desert_rec_field_quick_chunk(d, name);
  if (c == DESERT_REC_CHUNK_UNSURE) return write_field_desc(rw, index);
  enter_chunk(w, rw, c);
  rw->next_ = index + 1;
  if (d->fields[index].flags & DESERT_FIELD_OPTIONAL) tag_arm(w, rw);
  return DESERT_OK;
}

/* With a plan, a field started in order is a few comparisons with the
 * plan's data (and a chunk switch for versioned records), done here;
 * anything else, misuse and errors included, takes the general path (out
 * of line, so that this one saves no registers) with its own statuses. */
desert_status desert_record_write_field(desert_record_writer *rw, size_t index) {
  const desert_record_plan *p;
  if (!rw || (p = rw->plan_) == NULL) {
    /* Without a plan, a versioned record has a path of its own (first, so
     * that it pays no checks twice); a version-0 record's fields started
     * one after the other (none skipped, none transient) the same shortcut
     * as a plan's. */
    if (rw && rw->version_) return write_field_desc_versioned(rw, index);
    if (rw && rw->w && rw->state_ == REC_OPEN && !rw->w->status && index == rw->next_ &&
        index < rw->desc->field_count && rw->desc->fields[index].name &&
        !(rw->desc->fields[index].flags & DESERT_FIELD_TRANSIENT)) {
      rw->next_ = index + 1;
      if (rw->desc->fields[index].flags & DESERT_FIELD_OPTIONAL) tag_arm(rw->w, rw);
      return DESERT_OK;
    }
    return write_field_desc(rw, index);
  }
  desert_writer *w = rw->w;
  if (w && rw->state_ == REC_OPEN && !w->status && index < p->field_count) {
    const desert_rec_pfield *f = &p->fields[index];
    if (!(f->flags & DESERT_FIELD_TRANSIENT) && rw->next_ <= index && rw->next_ >= f->min_next &&
        (!rw->version_ || is_live(w, rw) || rw->layout_ == LAYOUT_COUNTED)) {
      /* (the writes go to the current chunk already) */
      if (rw->version_ && f->chunk != rw->chunk_) enter_chunk(w, rw, f->chunk);
      rw->next_ = index + 1;
      if (f->flags & DESERT_FIELD_OPTIONAL) tag_arm(w, rw);
      return DESERT_OK;
    }
  }
  return write_field_plan(rw, index);
}

desert_status desert_record_write_field_option(desert_record_writer *rw, size_t index, bool some) {
  if (!rw || !rw->w) return DESERT_E_ARGUMENT;
  desert_writer *w = rw->w;
  if (rw->state_ == REC_TAG && tag_check(rw)) return w->status;
  const desert_record_desc *d = rw->desc;
  if (rw->state_ == REC_OPEN && index < d->field_count && d->fields[index].name &&
      !(d->fields[index].flags & DESERT_FIELD_OPTIONAL))
    return misuse(rw, DESERT_E_FIELD_NOT_OPTIONAL, index,
                  "option tag for a field that is not optional (start it with "
                  "desert_record_write_field)");
  desert_status st = desert_record_write_field(rw, index);
  if (st) return st;
  rw->state_ = REC_OPEN; /* the tag is written here: nothing to check */
  return desert_write_option(w, some);
}

/* A removed name as a DeduplicatedString under Scala <= 0.2.x scoping
 * (docs/format.md §9.8): looked up in the table as it was when the record
 * started (ids <= strings0), new names registered only in a per-header
 * copy (ids strings0+1, +2, ... in `fresh`) and forgotten afterwards, so
 * the writer's real table keeps only what the fields registered. */
static desert_status write_legacy_name(desert_writer *w, size_t strings0, const char **fresh,
                                       size_t *nfresh, const char *name) {
  size_t len = strlen(name);
  desert_w_tables(w);
  uint32_t id = desert_strtab_find(&w->strings, name, len);
  if (id == 0 || id > strings0) {
    id = 0;
    for (size_t k = 0; k < *nfresh; k++)
      if (strcmp(fresh[k], name) == 0) id = (uint32_t)(strings0 + 1 + k);
  }
  if (id) return desert_w_var_u32(w, desert_zigzag32(-(int32_t)id));
  fresh[(*nfresh)++] = name;
  return desert_write_string(w, name, len);
}

static desert_status write_name(desert_writer *w, const desert_record_writer *rw,
                                const char **fresh, size_t *nfresh, const char *name) {
  if (w->status) return w->status;
  if (w->opt.flags & DESERT_OPT_LEGACY_HEADER_STRINGS)
    return write_legacy_name(w, rw->strings0_, fresh, nfresh, name);
  return desert_write_dedup_string(w, name, strlen(name));
}

/* The evolution header (docs/format.md §9.5), one entry per step, to w->t;
 * size0 is chunk 0's size, the other sizes are in the chunk buffers. */
static desert_status write_header(desert_writer *w, const desert_record_writer *rw,
                                  const rec_wpool *pool, size_t size0) {
  const desert_record_desc *d = rw->desc;
  const desert_record_plan *plan = rw->plan_;
  const bool scala_removed = (w->opt.flags & DESERT_OPT_SCALA_REMOVED_OPTIONAL) != 0;
  const char *fresh[DESERT_RECORD_MAX_VERSION];
  size_t nfresh = 0;
  for (unsigned i = 0; i <= rw->version_; i++) {
    desert_rec_hentry e = {REC_H_CHUNK, 0};
    /* (a FieldAdded step's entry is its chunk's size: no call for it) */
    if (i)
      e = plan                                              ? plan->entries[i - 1]
          : d->steps[i - 1].kind == DESERT_STEP_FIELD_ADDED ? e
                                                            : desert_rec_compute_entry(d, i - 1);
    switch (e.kind) {
    case REC_H_CHUNK: {
      size_t size = i ? chunk_target(pool, rw, i)->len : size0;
      if (size > (size_t)INT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
      desert_w_var_u32(w, desert_zigzag32((int32_t)size));
      break;
    }
    case REC_H_MO:
      desert_w_byte(w, 0x01);
      desert_w_byte(w, e.byte);
      break;
    case REC_H_MO_FAR:
      return desert_w_fail(w, DESERT_E_ARGUMENT);
    case REC_H_MO_UNKNOWN:
      return desert_w_fail(w, DESERT_E_UNKNOWN_FIELD_REFERENCE);
    case REC_H_MO_REMOVED:
    case REC_H_MO_TRANSIENT:
      if (scala_removed) {
        desert_w_byte(w, 0x01);
        desert_w_byte(w, 0x80); /* Scala's "field was removed" position */
      } else if (e.kind == REC_H_MO_TRANSIENT) {
        /* Rust counts only FieldRemoved as removal. */
        return desert_w_fail(w, DESERT_E_UNKNOWN_FIELD_REFERENCE);
      } else {
        desert_w_byte(w, 0x03); /* Rust: a FieldRemoved entry instead */
        write_name(w, rw, fresh, &nfresh, d->steps[i - 1].field);
      }
      break;
    default: /* REC_H_REMOVED */
      desert_w_byte(w, 0x03);
      write_name(w, rw, fresh, &nfresh, d->steps[i - 1].field);
      break;
    }
    if (w->status) return w->status;
  }
  return w->status;
}

/* Chunks are copied with desert_w_append, whose desert_copy picks the
 * copy strategy by size (pieces for 2-8 KiB, one memcpy otherwise; see
 * internal.h). */
static void splice_chunks(desert_writer *w, const desert_record_writer *rw, const rec_wpool *p,
                          unsigned from) {
  for (unsigned i = from; i <= rw->version_ && !w->status; i++) {
    const desert_wtarget *t = chunk_target(p, rw, i);
    if (t->len) desert_w_append(w, t->data, t->len);
  }
}

/* ---- frame consistency at the end (DESERT_ASSERT) ---------------------------------
 * Only the library writes a frame and rw's private members, so at the end
 * of a record whose frame is live (frame_live: same serial, which no other
 * frame of the pool's life has) these hold whatever the caller did. */

/* After an end without error the output ends at `now`: `head` (what
 * precedes the chunk buffers from..version: version byte, header, chunk 0
 * when in place) and then those buffers. (A plain call, not a function
 * inside the assertion: builds without assertions drop the loop.) */
static inline void assert_record_len(const desert_writer *w, const rec_wpool *p,
                                     const desert_record_writer *rw, unsigned from,
                                     size_t head, size_t now) {
  size_t n = 0;
  for (unsigned i = from; i <= rw->version_; i++) n += chunk_target(p, rw, i)->len;
  DESERT_ASSERT(w->status || now == head + n);
}

/* The frame rw's end is about to use is the one its begin took: same
 * buffers, as many as its layout takes, above its parent's frames, and
 * every frame above it opened deeper. */
static inline void assert_live_frame(const desert_writer *w, const desert_record_writer *rw) {
  const rec_wpool *p = w->records;
  DESERT_ASSERT(p != NULL && rw->frame_ < p->nframes);
  const rec_wframe *f = &p->frames[rw->frame_];
  DESERT_ASSERT(f->serial == rw->serial_ && f->base == rw->base_);
  DESERT_ASSERT(rw->layout_ == LAYOUT_IN_PLACE || rw->layout_ == LAYOUT_SEQ ||
                rw->layout_ == LAYOUT_COUNT || rw->layout_ == LAYOUT_BUFFERED);
  DESERT_ASSERT(f->n == (rw->layout_ == LAYOUT_SEQ ? 0u : rw->version_ + 1));
  DESERT_ASSERT(f->base + f->n <= p->nbufs);
  DESERT_ASSERT(rw->chunk_ <= rw->version_);
  DESERT_ASSERT(rw->frame_ == 0 || p->frames[rw->frame_ - 1].base +
                                           p->frames[rw->frame_ - 1].n <= f->base);
  for (size_t i = rw->frame_ + 1; i < p->nframes; i++)
    DESERT_ASSERT(p->frames[i].depth > p->frames[i - 1].depth);
}

/* Chunk 0 in place: builds the header in chunk 0's (unused) buffer, makes
 * the reserved room the header's size (moving chunk 0 when they differ),
 * copies the header in and appends the other chunks. w->t is the
 * enclosing target. */
static void end_in_place(desert_writer *w, desert_record_writer *rw, rec_wpool *p) {
  desert_wtarget *o = w->t;
  const size_t body = rw->at_ + rw->reserved_; /* chunk 0's start */
  if (o->len < body) { /* the writer was reset under the record */
    desert_w_fail(w, DESERT_E_STATE);
    return;
  }
  const size_t size0 = o->len - body;
  desert_wtarget *hdr = buf_target(p, rw->base_);
  hdr->len = 0;
  w->t = hdr;
  write_header(w, rw, p, size0);
  w->t = o;
  if (w->status) return;
  const size_t h = hdr->len;
  if (h > rw->reserved_) {
    size_t more = h - rw->reserved_;
    if (!desert_w_reserve(w, more)) return;
    desert_w_commit(w, more);
    memmove(o->data + rw->at_ + h, o->data + body, size0);
  } else if (h < rw->reserved_) {
    memmove(o->data + rw->at_ + h, o->data + body, size0);
    o->len -= rw->reserved_ - h;
  }
  small_copy(o->data + rw->at_, hdr->data, h);
  remember_header(p, rw->desc, h);
  splice_chunks(w, rw, p, 1);
  /* the record: version byte, header, chunk 0, the other chunks */
  assert_record_len(w, p, rw, 1, rw->at_ + h + size0, o->len);
}

/* ---- the straight-line end of a fixed-header plan -------------------------------
 * A plan whose header entries are only chunk sizes and made-optional
 * entries (REC_PLAN_FIXED_HEADER: FieldAdded / FieldMadeOptional steps,
 * the common evolution) needs neither the header scratch buffer nor the
 * entry switch: its header length follows from the chunk sizes, so the
 * header is written straight into the reserved room (chunk 0 in place, the
 * sequential layout) or only counted (size-only mode). Same bytes and
 * statuses as write_header + splice_chunks. */

/* Header length for chunk sizes sizes[0..v]; SIZE_MAX when a chunk is too
 * large for its var_i32 size (DESERT_E_LENGTH_TOO_LARGE). */
static size_t fixed_header_len(const desert_record_plan *plan, unsigned v, const size_t *sizes) {
  size_t h = plan->min_header; /* one byte per chunk size, two per other entry */
  for (unsigned i = 0; i <= v; i++) {
    if (i && plan->entries[i - 1].kind != REC_H_CHUNK) continue;
    if (sizes[i] > (size_t)INT32_MAX) return SIZE_MAX;
    h += desert_var_u32_len(desert_zigzag32((int32_t)sizes[i])) - 1;
  }
  return h;
}

/* Writes that header at q; returns its length (fixed_header_len's). */
static size_t fixed_header_put(uint8_t *q, const desert_record_plan *plan, unsigned v,
                               const size_t *sizes) {
  uint8_t *const q0 = q;
  for (unsigned i = 0; i <= v; i++) {
    desert_rec_hentry e = i ? plan->entries[i - 1] : (desert_rec_hentry){REC_H_CHUNK, 0};
    if (e.kind == REC_H_CHUNK) {
      q += desert_put_var_u32(q, desert_zigzag32((int32_t)sizes[i]));
    } else { /* REC_H_MO */
      q[0] = 0x01;
      q[1] = e.byte;
      q += 2;
    }
  }
  return (size_t)(q - q0);
}

/* Chunk sizes of the buffered layouts (chunk 0: size0); their sum. */
static size_t gather_sizes(const rec_wpool *p, const desert_record_writer *rw, size_t size0,
                           size_t *sizes) {
  size_t sum = sizes[0] = size0;
  for (unsigned i = 1; i <= rw->version_; i++) sum += sizes[i] = chunk_target(p, rw, i)->len;
  return sum;
}

/* Chunk 0 in place: w->t is the enclosing GROW target. */
static void end_fixed_in_place(desert_writer *w, desert_record_writer *rw, rec_wpool *p) {
  desert_wtarget *o = w->t;
  size_t sizes[DESERT_RECORD_MAX_VERSION + 1];
  const size_t body = rw->at_ + rw->reserved_; /* chunk 0's start */
  if (o->len < body) { /* the writer was reset under the record */
    desert_w_fail(w, DESERT_E_STATE);
    return;
  }
  const size_t size0 = o->len - body;
  const size_t tail = gather_sizes(p, rw, size0, sizes) - size0;
  const size_t h = fixed_header_len(rw->plan_, rw->version_, sizes);
  if (h == SIZE_MAX) {
    desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
    return;
  }
  /* Room for the header's growth and the later chunks, at once. */
  const size_t more = (h > rw->reserved_ ? h - rw->reserved_ : 0) + tail;
  if (more && !desert_w_reserve(w, more)) return;
  if (h != rw->reserved_) memmove(o->data + rw->at_ + h, o->data + body, size0);
  const size_t put = fixed_header_put(o->data + rw->at_, rw->plan_, rw->version_, sizes);
  DESERT_ASSERT(put == h);
  size_t len = rw->at_ + h + size0;
  for (unsigned i = 1; i <= rw->version_; i++) {
    const desert_wtarget *t = chunk_target(p, rw, i);
    if (desert_copy_streams(len, t->len))
      desert_copy_stream(o->data + len, t->data, t->len);
    else if (t->len)
      desert_copy(o->data + len, t->data, t->len);
    len += t->len;
  }
  DESERT_ASSERT(len == rw->at_ + h + size0 + tail && len <= o->cap);
  o->len = len;
  remember_header(p, rw->desc, h);
}

/* Size-only: w->t is the enclosing COUNT target; only lengths add up
 * (the header's: fixed_header_len's count, in the same pass). */
static void end_fixed_count(desert_writer *w, desert_record_writer *rw, const rec_wpool *p) {
  const desert_record_plan *plan = rw->plan_;
  size_t total = plan->min_header;
  for (unsigned i = 0; i <= rw->version_; i++) {
    const size_t n = chunk_target(p, rw, i)->len;
    total += n;
    if (i && plan->entries[i - 1].kind != REC_H_CHUNK) continue;
    if (n > (size_t)INT32_MAX) {
      desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
      return;
    }
    total += desert_var_u32_len(desert_zigzag32((int32_t)n)) - 1;
  }
  w->t->len += total;
}

/* The sequential layout: every chunk is already in place after the
 * reserved header room, in order; the frame holds where chunks 1..v
 * start. Only the header is written (and everything moved once if its
 * size differs from the room). Boundaries out of order or past the output
 * (the writer was reset under the record) are DESERT_E_STATE. */
static void end_seq(desert_writer *w, desert_record_writer *rw, rec_wpool *p) {
  desert_wtarget *o = w->t;
  rec_wframe *f = &p->frames[rw->frame_];
  size_t sizes[REC_SEQ_MAX + 1];
  const size_t body = rw->at_ + rw->reserved_;
  const size_t end = o->len;
  size_t prev = body;
  seq_enter(o, rw, f, rw->version_); /* chunks after the last field's are empty */
  for (unsigned i = 0; i <= rw->version_; i++) {
    size_t next = i < rw->version_ ? f->start[i] : end;
    if (next < prev || next > end) {
      desert_w_fail(w, DESERT_E_STATE);
      return;
    }
    sizes[i] = next - prev;
    prev = next;
  }
  const size_t h = fixed_header_len(rw->plan_, rw->version_, sizes);
  if (h == SIZE_MAX) {
    desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
    return;
  }
  if (h != rw->reserved_) {
    if (h > rw->reserved_ && !desert_w_reserve(w, h - rw->reserved_)) return;
    memmove(o->data + rw->at_ + h, o->data + body, end - body);
    o->len = rw->at_ + h + (end - body);
  }
  const size_t put = fixed_header_put(o->data + rw->at_, rw->plan_, rw->version_, sizes);
  DESERT_ASSERT(put == h);
  DESERT_ASSERT(o->len == rw->at_ + h + (end - body));
  remember_header(p, rw->desc, h);
}

/* At the end, fields from rw->next_ on were not started: an error if one
 * of them must be written (any of them when `plain`: every field must). */
DESERT_COLD static void end_skipped(const desert_record_writer *rw, bool plain) {
  const desert_record_desc *d = rw->desc;
  const size_t j = plain ? rw->next_ : skipped_field(d, rw->next_, d->field_count);
  if (j < d->field_count)
    misuse(rw, DESERT_E_FIELD_SKIPPED, j, "not written: the record ended before it");
}

/* The counted layout's end: what write_end_general does for it, without
 * that function's register saves. */
DESERT_NOINLINE static desert_status write_end_general(desert_record_writer *rw);

static inline desert_status end_counted(desert_record_writer *rw) {
  if (rw->state_ != REC_OPEN) {
    if (rw->state_ != REC_TAG) return write_end_general(rw);
    tag_check(rw);
  }
  desert_writer *w = rw->w;
  /* a counted record takes no frame and counts in the enclosing target */
  DESERT_ASSERT(rw->frame_ == SIZE_MAX && rw->plan_ && (rw->plan_->flags & REC_PLAN_ORDERED));
  DESERT_ASSERT(rw->version_ == rw->plan_->version && rw->chunk_ <= rw->version_);
  DESERT_ASSERT(rw->outer_ &&
                ((const desert_wtarget *)rw->outer_)->mode == DESERT_WMODE_COUNT);
  rw->state_ = REC_ENDED;
  w->t = rw->outer_;
  if (!w->status) {
    count_leave(w, rw); /* the last chunk; DESERT_E_STATE after a reset under the record */
    if (!w->status && rw->next_ < rw->desc->field_count) end_skipped(rw, false);
    if (!w->status && rw->reserved_) desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  }
  if (w->depth) w->depth--;
  return w->status;
}

desert_status desert_record_write_end(desert_record_writer *rw) {
  /* (one test for the other layouts: a counted rw always has its writer,
   * and end_counted sends an rw that is not open to the general path) */
  if (rw && rw->layout_ == LAYOUT_COUNTED) return end_counted(rw);
  return write_end_general(rw);
}

DESERT_NOINLINE static desert_status write_end_general(desert_record_writer *rw) {
  if (!rw || !rw->w) return DESERT_E_ARGUMENT;
  desert_writer *w = rw->w;
  if (rw->state_ == REC_TAG) tag_check(rw);
  if (rw->state_ != REC_OPEN) return w->status ? w->status : desert_w_fail(w, DESERT_E_STATE);
  rw->state_ = REC_ENDED;
  const desert_record_desc *d = rw->desc;
  if (rw->version_ && !frame_live(w, rw)) return desert_w_fail(w, DESERT_E_STATE);
  DESERT_ASSERT((rw->version_ == 0) == (rw->layout_ == LAYOUT_V0));
  DESERT_ASSERT(rw->version_ == d->step_count && rw->next_ <= d->field_count);
  if (rw->version_) {
    assert_live_frame(w, rw);
    w->t = rw->outer_;
  }
  /* A writer reset under a record with chunks in place left its output
   * shorter than the record's start: that, not what the record lacks, is
   * the error (the layouts' ends check it too). */
  if (!w->status && (rw->layout_ == LAYOUT_IN_PLACE || rw->layout_ == LAYOUT_SEQ) &&
      w->t->len < rw->at_ + rw->reserved_)
    desert_w_fail(w, DESERT_E_STATE);
  if (!w->status && rw->next_ < d->field_count)
    end_skipped(rw, rw->plan_ && (rw->plan_->flags & REC_PLAN_PLAIN));
  if (rw->version_) {
    rec_wpool *p = w->records;
    const bool fixed = rw->plan_ && (rw->plan_->flags & REC_PLAN_FIXED_HEADER);
    if (!w->status) {
      if (rw->layout_ == LAYOUT_SEQ) {
        end_seq(w, rw, p);
      } else if (fixed && rw->layout_ == LAYOUT_IN_PLACE) {
        end_fixed_in_place(w, rw, p);
      } else if (fixed && rw->layout_ == LAYOUT_COUNT) {
        end_fixed_count(w, rw, p);
      } else if (rw->layout_ == LAYOUT_IN_PLACE) {
        end_in_place(w, rw, p);
      } else {
        const size_t at = out_pos(w, w->t); /* (a stream may flush meanwhile) */
        if (write_header(w, rw, p, chunk_target(p, rw, 0)->len) == DESERT_OK) {
          /* (size-only: appending a COUNT chunk only adds its size) */
          const size_t h = out_pos(w, w->t) - at;
          splice_chunks(w, rw, p, 0);
          assert_record_len(w, p, rw, 0, at + h, out_pos(w, w->t));
        }
      }
    }
    DESERT_ASSERT(w->t == rw->outer_); /* the enclosing target again, whatever failed */
    /* Release this frame and anything an abandoned inner record left. */
    if (rw->frame_ < p->nframes) p->nframes = rw->frame_;
  }
  if (w->depth) w->depth--;
  return w->status;
}

const char *desert_record_error_message(desert_writer *w) {
  if (!w) return desert_status_message(DESERT_E_ARGUMENT);
  desert_w_live(w);
  const rec_wpool *p = w->records;
  if (w->status && p && p->err && p->err->status == w->status) return p->err->msg;
  return desert_status_message(w->status);
}
