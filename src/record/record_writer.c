/* src/record/record_writer.c — writing records (FORMAT.md §13.2–§13.4, §13.6):
 * version byte, per-chunk buffers, evolution header, chunks in order.
 *
 * Version 0 goes straight to the output. A versioned record redirects the
 * writer's target (w->t) to one GROW buffer per chunk while its fields are
 * written, then writes the header and splices the chunks into the
 * enclosing target. The buffers come from a pool kept in w->records and
 * used as a stack (a nested record takes the buffers above its parent's),
 * so a warm writer allocates nothing per record; the pool embeds its first
 * buffers (with 64 bytes of storage each) and frames, so a fresh writer's
 * first small record allocates once.
 *
 * The pool's stack is a list of frames tagged with the nesting depth they
 * were opened at. A record abandoned after an error (its _end never
 * called) leaves a stale frame; desert_writer_reset sets the depth back to
 * 0, and every begin first drops the frames at its own depth or deeper, so
 * stale frames never pile up beyond max_depth and never share buffers with
 * live records.
 * SPDX-License-Identifier: MIT */
#include "record/record_derived.h"
#include "scalar/scalar.h"
#include "core/writer_internal.h"

typedef struct rec_wframe {
  unsigned depth; /* w->depth of the record that owns the frame */
  size_t base;    /* its first buffer */
  size_t n;       /* its buffer count (version + 1) */
  size_t serial;  /* matches the owner's rw->serial_ while the frame is live */
} rec_wframe;

/* Bytes of embedded storage per pool buffer: the chunks of small records
 * (most records) are written without allocating. */
#define REC_BUF_INLINE 64u
/* Buffers and frames embedded in the pool itself; deeper nesting or more
 * chunks spill to the heap. Keeps a fresh writer's first versioned record
 * at one allocation (the pool) instead of eight. */
#define REC_POOL_INLINE 4u

/* One chunk buffer. Size-only mode uses these GROW buffers too: routing
 * chunks to COUNT targets (no bytes stored) was measured slower for small
 * records (bench case 10: +11% instructions, +10% time), since a COUNT
 * target sends every write through desert_w_reserve_slow while a buffer
 * with room takes the inline path; small chunks fit `store` anyway. */
typedef struct rec_wbuf {
  desert_wtarget grow;
  uint8_t store[REC_BUF_INLINE]; /* grow's embedded first storage */
} rec_wbuf;

typedef struct rec_wpool {
  rec_wbuf **bufs; /* each buffer allocated once (or embedded below):
                    * pointers stay valid while the array itself grows */
  size_t nbufs, bufs_cap;
  rec_wframe *frames;
  size_t nframes, frames_cap;
  size_t serial; /* last serial handed out */
  rec_wbuf *bufs_inline[REC_POOL_INLINE];
  rec_wframe frames_inline[REC_POOL_INLINE];
  rec_wbuf buf_inline[REC_POOL_INLINE];
} rec_wpool;

static void buf_init(rec_wbuf *b) {
  b->grow = (desert_wtarget){b->store, 0, REC_BUF_INLINE, DESERT_WMODE_GROW, b->store};
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
  w->records = p;
  w->records_free = pool_free;
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
static desert_status pool_take(desert_writer *w, unsigned depth, size_t n, size_t *frame,
                               size_t *base, size_t *serial) {
  rec_wpool *p = pool_get(w);
  if (!p) return DESERT_E_NOMEM;
  while (p->nframes && p->frames[p->nframes - 1].depth >= depth) p->nframes--;
  size_t b = p->nframes ? p->frames[p->nframes - 1].base + p->frames[p->nframes - 1].n : 0;
  void *arr = p->bufs;
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
  arr = p->frames;
  if (!grow_array(w, &arr, &p->frames_cap, p->nframes + 1, sizeof *p->frames, p->frames_inline))
    return DESERT_E_NOMEM;
  p->frames = arr;
  for (size_t i = b; i < b + n; i++) p->bufs[i]->grow.len = 0;
  p->frames[p->nframes] = (rec_wframe){depth, b, n, ++p->serial};
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

desert_status desert_record_write_begin(desert_writer *w, const desert_record_desc *d,
                                        desert_record_writer *rw) {
  if (!w || !rw) return DESERT_E_ARGUMENT;
  desert_zero(rw, sizeof *rw); /* not memset: see desert_zero */
  rw->w = w;
  rw->desc = d;
  rw->frame_ = SIZE_MAX;
  if (w->status) return w->status;
  desert_status st = desert_rec_quick_check(d);
  if (st) return desert_w_fail(w, st);
  if (w->depth >= w->opt.max_depth) return desert_w_fail(w, DESERT_E_DEPTH);
  unsigned v = (unsigned)d->step_count;
  if (desert_w_byte(w, (uint8_t)v)) return w->status;
  if (v) {
    st = pool_take(w, w->depth + 1, (size_t)v + 1, &rw->frame_, &rw->base_, &rw->serial_);
    if (st) return desert_w_fail(w, st);
    rw->outer_ = w->t;
    /* Until the first field starts, stray writes land in chunk 0 rather
     * than before the header. */
    w->t = buf_target(w->records, rw->base_);
  }
  w->depth++;
  rw->version_ = v;
  rw->strings0_ = w->strings.count;
  rw->state_ = 1;
  return DESERT_OK;
}

/* Non-transient fields from `from` up to (excluding) `to` were skipped. */
static bool skipped_written_field(const desert_record_desc *d, size_t from, size_t to) {
  for (size_t j = from; j < to; j++)
    if (!(d->fields[j].flags & DESERT_FIELD_TRANSIENT)) return true;
  return false;
}

desert_status desert_record_write_field(desert_record_writer *rw, size_t index) {
  if (!rw || !rw->w) return DESERT_E_ARGUMENT;
  desert_writer *w = rw->w;
  if (w->status) return w->status;
  if (rw->state_ != 1) return desert_w_fail(w, DESERT_E_STATE);
  const desert_record_desc *d = rw->desc;
  if (index >= d->field_count || !d->fields[index].name) return desert_w_fail(w, DESERT_E_ARGUMENT);
  if (index < rw->next_ || (d->fields[index].flags & DESERT_FIELD_TRANSIENT) ||
      skipped_written_field(d, rw->next_, index))
    return desert_w_fail(w, DESERT_E_STATE);
  if (rw->version_) {
    if (!frame_live(w, rw)) return desert_w_fail(w, DESERT_E_STATE);
    unsigned c = desert_rec_field_chunk(d, index, NULL);
    w->t = buf_target(w->records, rw->base_ + c);
  }
  rw->next_ = index + 1;
  return DESERT_OK;
}

desert_status desert_record_write_field_option(desert_record_writer *rw, size_t index, bool some) {
  if (!rw || !rw->w) return DESERT_E_ARGUMENT;
  if (rw->state_ == 1 && index < rw->desc->field_count &&
      !(rw->desc->fields[index].flags & DESERT_FIELD_OPTIONAL))
    return desert_w_fail(rw->w, DESERT_E_STATE);
  desert_status st = desert_record_write_field(rw, index);
  if (st) return st;
  return desert_write_option(rw->w, some);
}

/* A removed name as a DeduplicatedString under Scala <= 0.2.x scoping
 * (FORMAT.md §13.6): looked up in the table as it was when the record
 * started (ids <= strings0), new names registered only in a per-header
 * copy (ids strings0+1, +2, ... in `fresh`) and forgotten afterwards, so
 * the writer's real table keeps only what the fields registered. */
static desert_status write_legacy_name(desert_writer *w, size_t strings0, const char **fresh,
                                       size_t *nfresh, const char *name) {
  size_t len = strlen(name);
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

/* The evolution header (FORMAT.md §13.4), one entry per step. */
static desert_status write_header(desert_writer *w, const desert_record_writer *rw,
                                  const rec_wpool *pool) {
  const desert_record_desc *d = rw->desc;
  const bool scala_removed = (w->opt.flags & DESERT_OPT_SCALA_REMOVED_OPTIONAL) != 0;
  const char *fresh[DESERT_RECORD_MAX_VERSION];
  size_t nfresh = 0;
  for (unsigned i = 0; i <= rw->version_; i++) {
    const desert_evolution_step *s = i ? &d->steps[i - 1] : NULL;
    if (!s || s->kind == DESERT_STEP_FIELD_ADDED) {
      size_t size = buf_target(pool, rw->base_ + i)->len;
      if (size > (size_t)INT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
      desert_w_var_u32(w, desert_zigzag32((int32_t)size));
    } else if (s->kind == DESERT_STEP_FIELD_MADE_OPTIONAL) {
      size_t f = desert_rec_find_field(d, s->field);
      if (f != SIZE_MAX && !(d->fields[f].flags & DESERT_FIELD_TRANSIENT)) {
        unsigned c = desert_rec_field_chunk(d, f, NULL);
        uint8_t b;
        if (c == 0) {
          size_t p = desert_rec_field_position(d, f, 0);
          if (p > 127) return desert_w_fail(w, DESERT_E_ARGUMENT);
          b = (uint8_t)(0x100u - p); /* -p as a signed byte; p = 0 gives 00 */
        } else {
          b = (uint8_t)c; /* position in an added chunk is always 0: not stored */
        }
        desert_w_byte(w, 0x01);
        desert_w_byte(w, b);
      } else if (desert_rec_is_removed(d, s->field, scala_removed)) {
        if (scala_removed) {
          desert_w_byte(w, 0x01);
          desert_w_byte(w, 0x80); /* Scala's "field was removed" position */
        } else {
          desert_w_byte(w, 0x03); /* Rust: a FieldRemoved entry instead */
          write_name(w, rw, fresh, &nfresh, s->field);
        }
      } else {
        return desert_w_fail(w, DESERT_E_UNKNOWN_FIELD_REFERENCE);
      }
    } else {
      /* FieldRemoved, FieldMadeTransient (and, defensively, unknown kinds,
       * which desert_record_desc_check rejects) */
      desert_w_byte(w, 0x03);
      write_name(w, rw, fresh, &nfresh, s->field);
    }
    if (w->status) return w->status;
  }
  return w->status;
}

/* Chunks are copied with desert_w_append, whose desert_copy avoids the
 * slow unaligned `rep movsb` path of glibc on AMD (see internal.h). */
static desert_status splice(desert_writer *w, const uint8_t *src, size_t n) {
  return desert_w_append(w, src, n);
}

desert_status desert_record_write_end(desert_record_writer *rw) {
  if (!rw || !rw->w) return DESERT_E_ARGUMENT;
  desert_writer *w = rw->w;
  if (rw->state_ != 1) return w->status ? w->status : desert_w_fail(w, DESERT_E_STATE);
  rw->state_ = 2;
  const desert_record_desc *d = rw->desc;
  if (rw->version_ && !frame_live(w, rw)) return desert_w_fail(w, DESERT_E_STATE);
  if (rw->version_) w->t = rw->outer_;
  if (!w->status && skipped_written_field(d, rw->next_, d->field_count))
    desert_w_fail(w, DESERT_E_STATE);
  if (rw->version_) {
    rec_wpool *p = w->records;
    if (!w->status && write_header(w, rw, p) == DESERT_OK) {
      for (unsigned i = 0; i <= rw->version_ && !w->status; i++) {
        const desert_wtarget *t = buf_target(p, rw->base_ + i);
        if (t->len) splice(w, t->data, t->len);
      }
    }
    /* Release this frame and anything an abandoned inner record left. */
    if (rw->frame_ < p->nframes) p->nframes = rw->frame_;
  }
  if (w->depth) w->depth--;
  return w->status;
}
