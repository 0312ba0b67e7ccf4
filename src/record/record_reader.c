/* src/record/record_reader.c — reading records (docs/format.md §9.6): the fast path
 * for version-0 data, and for versioned data the header (sv + 1 entries),
 * the chunk walk, removed names, made-optional positions and the
 * per-field rules, with the error offsets of docs/schema.md §14.4–§14.5.
 *
 * A versioned record keeps its header in a frame on a byte stack owned by
 * the reader (r->records); nested records push frames above their parent's.
 * Frames are addressed by offset because the stack may move when it grows.
 * While a field is read the reader's cursor is narrowed to the field's
 * chunk ([cur, end) of that chunk); between fields it is parked on the
 * empty range at the end of the record, so a stray read fails cleanly.
 * Frames carry the nesting depth they were opened at: a record abandoned
 * after an error leaves a stale frame, and the next begin drops every frame
 * at its own depth or deeper (desert_reader_begin resets the depth), which
 * bounds the stack by max_depth frames.
 *
 * The per-field data (chunk, made-optional step, default) comes from the
 * record's plan when it has one, else from record_plan.c's functions on the
 * description; a plain plan on version-0 data (tuples, map entries) only
 * counts fields.
 * SPDX-License-Identifier: MIT */
#include <limits.h>

#include "core/reader_internal.h"
#include "record/record_plan.h"
#include "record/record_versioned.h"

enum { E_CHUNK = 0, E_EMPTY = 1, E_MADE_OPTIONAL = 2, E_REMOVED = 3 };
#define NO_CHUNK UINT_MAX
#define NO_FRAME SIZE_MAX

/* One header entry with the byte range of its chunk (empty for entries that
 * are not chunks, located where the walk reached: docs/schema.md §12). */
typedef struct rec_entry {
  size_t start, cur, end;
  const char *name; /* E_REMOVED: the field name (view) */
  size_t name_len;
  uint8_t kind;
  uint8_t mo_chunk, mo_pos; /* E_MADE_OPTIONAL */
} rec_entry;

typedef struct rec_rframe {
  size_t serial;
  size_t prev;      /* offset of the previous frame, NO_FRAME for none */
  size_t end;       /* enum frames: offset right after the enum */
  size_t outer_end; /* enum frames: the reader's limit before the enum */
  unsigned depth;   /* r->depth of the owning record or enum */
  unsigned is_enum; /* an evolved enum (its state lives only here) */
  unsigned nentries, ncounters, nremoved, nmo;
} rec_rframe;
/* followed by rec_entry[nentries] and then int32_t counters[ncounters] */

typedef struct rec_rstack {
  uint8_t *data;
  size_t top, cap;
  size_t last;   /* offset of the topmost frame, NO_FRAME for none */
  size_t serial; /* last serial handed out */
} rec_rstack;

#define FRAME_ALIGN 16u
static inline size_t align_up(size_t n) {
  return (n + FRAME_ALIGN - 1) & ~(size_t)(FRAME_ALIGN - 1);
}

static inline rec_rframe *frame_at(const rec_rstack *s, size_t off) {
  return (rec_rframe *)(void *)(s->data + off);
}
static inline rec_entry *frame_entries(rec_rframe *f) {
  return (rec_entry *)(void *)((uint8_t *)f + align_up(sizeof *f));
}
static inline int32_t *frame_counters(rec_rframe *f) {
  return (int32_t *)(void *)((uint8_t *)frame_entries(f) + f->nentries * sizeof(rec_entry));
}

/* Keeps the reader head's frame_depth (the inline enum calls' test) equal
 * to the topmost frame's depth after every change of the stack. */
static inline void sync_top(desert_reader *r, const rec_rstack *s) {
  r->frame_depth = s && s->last != NO_FRAME ? frame_at(s, s->last)->depth : 0;
}

static void stack_free(desert_reader *r) {
  rec_rstack *s = r->records;
  r->frame_depth = 0;
  if (!s) return;
  desert_mem_free(&r->opt.allocator, s->data, s->cap);
  desert_mem_free(&r->opt.allocator, s, sizeof *s);
  r->records = NULL;
  r->records_free = NULL;
}

static rec_rstack *stack_get(desert_reader *r) {
  if (r->records) return r->records;
  rec_rstack *s = desert_mem_alloc(&r->opt.allocator, sizeof *s);
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  s->last = NO_FRAME;
  r->records = s;
  r->records_free = stack_free;
  return s;
}

static void prune(rec_rstack *s, unsigned depth) {
  while (s->last != NO_FRAME && frame_at(s, s->last)->depth >= depth) {
    s->top = s->last;
    s->last = frame_at(s, s->last)->prev;
  }
}

void desert_rec_prune(desert_reader *r) {
  if (r->records) {
    prune(r->records, r->depth);
    sync_top(r, r->records);
  }
}

/* Pushes a frame for nentries entries and ncounters counters; NULL on
 * allocation failure. Stale frames at `depth` or deeper are dropped first. */
static rec_rframe *frame_push(desert_reader *r, unsigned depth, unsigned nentries,
                              unsigned ncounters, size_t *off) {
  rec_rstack *s = stack_get(r);
  if (!s) return NULL;
  prune(s, depth);
  sync_top(r, s);
  size_t size = align_up(align_up(sizeof(rec_rframe)) + nentries * sizeof(rec_entry) +
                         ncounters * sizeof(int32_t));
  if (s->cap - s->top < size) {
    size_t ncap = s->cap ? s->cap : 1024;
    while (ncap - s->top < size) ncap *= 2;
    uint8_t *nd = desert_mem_alloc(&r->opt.allocator, ncap);
    if (!nd) return NULL;
    if (s->top) memcpy(nd, s->data, s->top);
    desert_mem_free(&r->opt.allocator, s->data, s->cap);
    s->data = nd;
    s->cap = ncap;
  }
  *off = s->top;
  rec_rframe *f = frame_at(s, s->top);
  f->serial = ++s->serial;
  f->prev = s->last;
  f->depth = depth;
  f->nentries = nentries;
  f->ncounters = ncounters;
  f->nremoved = f->nmo = 0;
  f->is_enum = 0;
  f->end = f->outer_end = 0;
  s->last = s->top;
  s->top += size;
  sync_top(r, s);
  return f;
}

/* The frame of an open versioned record, or NULL if rr is stale. */
static rec_rframe *rr_frame(const desert_record_reader *rr) {
  rec_rstack *s = rr->r->records;
  if (!s || rr->frame_ >= s->top) return NULL;
  rec_rframe *f = frame_at(s, rr->frame_);
  return f->serial == rr->serial_ ? f : NULL;
}

static void frame_pop(desert_reader *r, size_t off, size_t serial) {
  rec_rstack *s = r->records;
  if (!s || off >= s->top) return;
  rec_rframe *f = frame_at(s, off);
  if (f->serial != serial) return;
  s->last = f->prev;
  s->top = off;
  sync_top(r, s);
}

/* Reads the sv + 1 header entries of versioned data whose version byte (at
 * version_offset) was just read, walks the chunks and pushes the frame; rr
 * is then open with no field read, the reader parked at the record's end.
 * On failure nothing stays pushed. The caller did desert_r_enter. */
static desert_status read_header(desert_reader *r, desert_record_reader *rr, unsigned sv,
                                 size_t version_offset) {
  const desert_record_desc *d = rr->desc;
  unsigned nentries = sv + 1;
  unsigned ncounters = (unsigned)d->step_count + 1;
  size_t off;
  rec_rframe *f = frame_push(r, r->depth, nentries, ncounters, &off);
  if (!f) return desert_r_fail(r, DESERT_E_NOMEM, r->pos);
  rr->frame_ = off;
  rr->serial_ = f->serial;
  rr->version_ = sv;
  rr->version_offset_ = version_offset;
  rec_entry *e = frame_entries(f);
  int32_t *counters = frame_counters(f);
  for (unsigned c = 0; c < ncounters; c++) counters[c] = -1;

  /* 1. The entries (docs/format.md §9.5). Nothing here pushes frames, so f and
   *    e stay valid. */
  for (unsigned i = 0; i < nentries; i++) {
    size_t at = r->pos;
    uint32_t u; /* a var_i32, read through the inline var_u32 (one-byte fast path) */
    if (desert_r_var_u32(r, &u)) goto fail;
    const int32_t code = desert_unzigzag32(u);
    rec_entry *x = &e[i];
    x->name = NULL;
    x->name_len = 0;
    if (code > 0) {
      x->kind = E_CHUNK;
      x->end = (size_t)code; /* the size until the walk below */
    } else if (code == 0) {
      x->kind = E_EMPTY;
    } else if (code == -1) {
      const uint8_t *b = desert_r_take(r, 1);
      if (!b) goto fail;
      if (*b == 0x80u) {
        x->kind = E_EMPTY; /* Scala's "field was removed": matches no field */
      } else {
        x->kind = E_MADE_OPTIONAL;
        if (*b & 0x80u) { /* negative: chunk 0, position -b */
          x->mo_chunk = 0;
          x->mo_pos = (uint8_t)(0x100u - *b);
        } else {
          x->mo_chunk = *b;
          x->mo_pos = 0;
        }
        f->nmo++;
      }
    } else if (code == -2) {
      desert_str name;
      if (desert_read_dedup_string(r, &name)) goto fail;
      x->kind = E_REMOVED;
      x->name = name.ptr;
      x->name_len = name.len;
      f->nremoved++;
    } else {
      desert_r_fail(r, DESERT_E_UNKNOWN_EVOLUTION_STEP, at);
      goto fail;
    }
  }

  /* 2. The chunk walk: every chunk must fit in what is left of the input
   *    (or of the enclosing chunk); the record ends after the last one. */
  size_t pos = r->pos;
  if (r->stream_fill) { /* streaming: make the whole record resident */
    size_t total = 1; /* + 1 byte: a chunk limit never equals the window's end */
    for (unsigned i = 0; i < nentries; i++)
      if (e[i].kind == E_CHUNK) total = total > SIZE_MAX - e[i].end ? SIZE_MAX : total + e[i].end;
    desert_r_want(r, total);
  }
  for (unsigned i = 0; i < nentries; i++) {
    rec_entry *x = &e[i];
    if (x->kind == E_CHUNK) {
      size_t size = x->end;
      if (size > r->end - pos) {
        desert_r_fail(r, DESERT_E_INPUT_ENDED, pos);
        goto fail;
      }
      x->start = x->cur = pos;
      pos += size;
      x->end = pos;
    } else {
      x->start = x->cur = x->end = pos;
    }
  }
  rr->end_ = pos;
  rr->outer_end_ = r->end;
  /* Parked on the empty range at the record's end until a field is read. */
  r->pos = r->end = pos;
  rr->chunk_ = NO_CHUNK;
  return DESERT_OK;

fail:
  frame_pop(r, off, rr->serial_);
  rr->frame_ = NO_FRAME;
  return r->status;
}

static void enter_chunk(desert_record_reader *rr, unsigned c) {
  rec_rframe *f = rr_frame(rr);
  if (!f || c >= f->nentries) return;
  rec_entry *x = &frame_entries(f)[c];
  rr->chunk_ = c;
  rr->r->pos = x->cur;
  rr->r->end = x->end;
}

/* Saves the live chunk's cursor and parks the reader. */
static void leave_chunk(desert_record_reader *rr, rec_rframe *f) {
  if (rr->chunk_ == NO_CHUNK) return;
  frame_entries(f)[rr->chunk_].cur = rr->r->pos;
  rr->chunk_ = NO_CHUNK;
  rr->r->pos = rr->r->end = rr->end_;
}

/* At the end of a versioned record whose frame is the topmost one (a
 * serial is never handed out twice in a reader's life, and the topmost
 * offset always holds a real frame, so this is rr's own frame; below
 * abandoned inner frames nothing is checked): the frame matches the data
 * read at begin — one entry per header entry, their byte ranges one after
 * the other from the end of the header to the record's end, each cursor
 * inside its chunk, the live chunk one of them — and the record lies
 * inside the limit the reader had before it. Only the library writes
 * these, so whatever the caller did they hold. */
static void assert_end_frame(const desert_record_reader *rr) {
  const rec_rstack *s = rr->r->records;
  DESERT_ASSERT(rr->version_offset_ < rr->end_ && rr->end_ <= rr->outer_end_);
  if (!s || s->last != rr->frame_) return;
  rec_rframe *f = frame_at(s, rr->frame_);
  if (f->serial != rr->serial_) return;
  DESERT_ASSERT(!f->is_enum && f->nentries == rr->version_ + 1);
  DESERT_ASSERT(f->ncounters == rr->desc->step_count + 1);
  DESERT_ASSERT(rr->chunk_ == NO_CHUNK || rr->chunk_ < f->nentries);
  const rec_entry *e = frame_entries(f);
  size_t at = e[0].start;
  DESERT_ASSERT(at > rr->version_offset_);
  for (unsigned i = 0; i < f->nentries; i++) {
    DESERT_ASSERT(e[i].start == at && e[i].start <= e[i].cur && e[i].cur <= e[i].end);
    DESERT_ASSERT(e[i].kind == E_CHUNK || e[i].start == e[i].end);
    at = e[i].end;
  }
  DESERT_ASSERT(at == rr->end_);
}

static void read_finish(desert_record_reader *rr) {
  desert_reader *r = rr->r;
  if (rr->frame_ == NO_FRAME) return;
  assert_end_frame(rr);
  r->pos = rr->end_;
  r->end = rr->outer_end_;
  frame_pop(r, rr->frame_, rr->serial_);
  rr->frame_ = NO_FRAME;
  rr->chunk_ = NO_CHUNK;
}

/* Inlined into both begin calls: the description-based one would
 * otherwise pay a second call per record. */
DESERT_INLINE desert_status read_begin(desert_reader *r, const desert_record_desc *d,
                                       const desert_record_plan *plan, desert_record_reader *rr) {
  if (!r || !rr) return DESERT_E_ARGUMENT;
  desert_zero(rr, sizeof *rr); /* not memset: see desert_zero */
  rr->r = r;
  rr->desc = d;
  rr->plan_ = plan;
  rr->frame_ = NO_FRAME;
  rr->chunk_ = NO_CHUNK;
  if (r->status) return r->status;
  /* A plan's description passed desert_record_desc_check when it was built. */
  if (!plan && desert_rec_quick_check(d)) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  if (desert_r_enter(r)) return r->status;
  size_t at = r->pos;
  const uint8_t *v = desert_r_take(r, 1);
  if (!v) {
    desert_r_leave(r);
    return r->status;
  }
  rr->version_offset_ = at;
  rr->version_ = *v;
  if (*v && read_header(r, rr, *v, at)) {
    desert_r_leave(r);
    return r->status;
  }
  rr->state_ = 1;
  return DESERT_OK;
}

desert_status desert_record_read_begin(desert_reader *r, const desert_record_desc *d,
                                       desert_record_reader *rr) {
  return read_begin(r, d, desert_rec_static_plan(d), rr);
}

desert_status desert_record_read_begin_plan(desert_reader *r, const desert_record_plan *plan,
                                            desert_record_reader *rr) {
  if (!plan) {
    if (!r || !rr) return DESERT_E_ARGUMENT;
    desert_zero(rr, sizeof *rr);
    rr->r = r;
    rr->frame_ = NO_FRAME;
    rr->chunk_ = NO_CHUNK;
    if (r->status) return r->status;
    return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  }
  return read_begin(r, plan->desc, plan, rr);
}

static bool is_removed(const rec_rframe *f, const rec_entry *e, const char *name, size_t len) {
  for (unsigned i = 0, seen = 0; i < f->nentries && seen < f->nremoved; i++) {
    if (e[i].kind != E_REMOVED) continue;
    seen++;
    if (e[i].name_len == len && memcmp(e[i].name, name, len) == 0) return true;
  }
  return false;
}

static bool is_made_optional(const rec_rframe *f, const rec_entry *e, unsigned c, int32_t p) {
  for (unsigned i = 0, seen = 0; i < f->nentries && seen < f->nmo; i++) {
    if (e[i].kind != E_MADE_OPTIONAL) continue;
    seen++;
    if (e[i].mo_chunk == c && (int32_t)e[i].mo_pos == p) return true;
  }
  return false;
}

/* The general path. Inlined twice with `plan` a parameter: once with NULL
 * (the description-based path, where the compiler removes every plan
 * branch) and once with the record's plan. */
DESERT_INLINE desert_status read_field_impl(desert_record_reader *rr, size_t index,
                                            desert_field_action *action,
                                            const desert_record_plan *plan) {
  if (!rr || !rr->r) return DESERT_E_ARGUMENT;
  desert_reader *r = rr->r;
  if (r->status) return r->status;
  if (rr->state_ != 1) return desert_r_fail(r, DESERT_E_STATE, r->pos);
  const desert_record_desc *d = rr->desc;
  if (!action || index >= d->field_count || !d->fields[index].name)
    return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  if (index != rr->next_) return desert_r_fail(r, DESERT_E_STATE, r->pos);
  rr->next_ = index + 1;

  rec_rframe *f = NULL;
  rec_entry *e = NULL;
  if (rr->frame_ != NO_FRAME) {
    f = rr_frame(rr);
    if (!f) return desert_r_fail(r, DESERT_E_STATE, r->pos);
    e = frame_entries(f);
    leave_chunk(rr, f);
  }
  const desert_field_desc *fd = &d->fields[index];
  /* Rule 1: transient fields read nothing and take no position. */
  if (fd->flags & DESERT_FIELD_TRANSIENT) {
    *action = DESERT_FIELD_TRANSIENT_DEFAULT;
    return DESERT_OK;
  }
  const bool optional = (fd->flags & DESERT_FIELD_OPTIONAL) != 0;
  /* Rule 2: removed in the data's version. */
  if (f && f->nremoved &&
      is_removed(f, e, fd->name, plan ? plan->fields[index].name_len : strlen(fd->name))) {
    if (!optional) return desert_r_fail(r, DESERT_E_FIELD_REMOVED, rr->version_offset_);
    *action = DESERT_FIELD_NONE;
    return DESERT_OK;
  }
  /* Rule 3: the field's position in its chunk (reader's schema). Without
   * steps (tuples, map entries, unevolved records) every field is in
   * chunk 0: skip the step scan. */
  bool has_default = false;
  unsigned c = 0;
  if (plan) {
    c = plan->fields[index].chunk;
    has_default = plan->fields[index].has_default;
  } else if (d->step_count) {
    c = desert_rec_field_chunk(d, index, &has_default);
  }
  int32_t p = f ? ++frame_counters(f)[c] : 0;
  /* Rule 4: the data predates the field. */
  if (rr->version_ < c) {
    if (has_default) {
      *action = DESERT_FIELD_DEFAULT;
      return DESERT_OK;
    }
    return desert_r_fail(r, optional ? DESERT_E_DESERIALIZATION : DESERT_E_FIELD_MISSING,
                         rr->version_offset_);
  }
  /* Rule 5: read from chunk c (version 0: the stream itself). */
  if (f) enter_chunk(rr, c);
  if (optional) {
    if (d->step_count &&
        rr->version_ < (plan ? plan->fields[index].mo_index : desert_rec_made_optional_index(d, index))) {
      *action = DESERT_FIELD_READ; /* still a plain T in this data: Some(T) */
      return DESERT_OK;
    }
    bool some;
    if (desert_r_tag(r, &some)) return r->status;
    *action = some ? DESERT_FIELD_READ : DESERT_FIELD_NONE;
    return DESERT_OK;
  }
  if (f && f->nmo && is_made_optional(f, e, c, p)) {
    /* A newer writer made it optional: its tag is read as a Boolean (both
     * libraries), so only 00 fails. */
    size_t at = r->pos;
    const uint8_t *t = desert_r_take(r, 1);
    if (!t) return r->status;
    if (*t == 0) return desert_r_fail(r, DESERT_E_NONOPTIONAL_NONE, at);
  }
  *action = DESERT_FIELD_READ;
  return DESERT_OK;
}

DESERT_NOINLINE static desert_status read_field_desc(desert_record_reader *rr, size_t index,
                                                 desert_field_action *action) {
  return read_field_impl(rr, index, action, NULL);
}

DESERT_NOINLINE static desert_status read_field_plan(desert_record_reader *rr, size_t index,
                                                 desert_field_action *action) {
  return read_field_impl(rr, index, action, rr->plan_);
}

/* Reads field `index` from chunk c of versioned data: the field is next
 * and already checked (read_field_versioned). A field in the chunk the
 * previous one was read from continues where the reader is (nested values
 * restore the chunk's range when they end). */
DESERT_INLINE desert_status field_in_chunk(desert_record_reader *rr, size_t index,
                                           desert_field_action *action, rec_rframe *f, unsigned c) {
  desert_reader *r = rr->r;
  rr->next_ = index + 1;
  *action = DESERT_FIELD_READ;
  if (c == rr->chunk_) return DESERT_OK;
  leave_chunk(rr, f);
  rec_entry *x = &frame_entries(f)[c];
  rr->chunk_ = c;
  r->pos = x->cur;
  r->end = x->end;
  return DESERT_OK;
}

/* A required field read in order from versioned data whose header
 * removed no field is a chunk switch, done here; without a plan its chunk
 * is the last FieldAdded step naming it, found by a scan that calls
 * nothing (so that this path saves no registers). Anything else -- a step
 * whose name is another pointer with the same first byte, data older than
 * the field, misuse, errors -- takes the general path, which starts over
 * (nothing is changed before it). Inlined twice like read_field_impl, and
 * once more with `counted` for data whose header made fields optional:
 * there every field counts its position, and one that a newer writer made
 * optional (a tag to read first) takes the general path, which counts it
 * itself (so nothing is stored before the test). Data such as TestModel1's
 * carries one such entry for another field. */
DESERT_NOINLINE static desert_status read_field_counted(desert_record_reader *rr, size_t index,
                                                        desert_field_action *action);
DESERT_INLINE desert_status read_field_versioned(desert_record_reader *rr, size_t index,
                                                 desert_field_action *action,
                                                 const desert_record_plan *plan, bool counted) {
  desert_reader *r = rr->r;
  const desert_record_desc *d = rr->desc;
  if (!r || r->status || rr->state_ != 1 || !action || index != rr->next_ ||
      index >= d->field_count)
    goto general;
  rec_rframe *f = rr_frame(rr);
  if (!f || f->nremoved) goto general;
  /* (a tail call: the common path keeps no registers for the count) */
  if (!counted && f->nmo) return read_field_counted(rr, index, action);
  unsigned c = 0;
  if (plan) {
    if (plan->fields[index].flags) goto general;
    c = plan->fields[index].chunk;
  } else {
    const char *name = d->fields[index].name;
    if (!name || d->fields[index].flags) goto general;
    c = desert_rec_field_quick_chunk(d, name); /* (UNSURE fails the test below) */
  }
  if (c > rr->version_ || c >= f->nentries) goto general;
  if (counted) {
    if (c >= f->ncounters) goto general;
    int32_t *counter = &frame_counters(f)[c];
    if (is_made_optional(f, frame_entries(f), c, *counter + 1)) goto general;
    ++*counter;
  }
  /* Without made-optional entries positions are not counted. */
  return field_in_chunk(rr, index, action, f, c);
general:
  return plan ? read_field_plan(rr, index, action) : read_field_desc(rr, index, action);
}

DESERT_NOINLINE static desert_status read_field_counted(desert_record_reader *rr, size_t index,
                                                        desert_field_action *action) {
  return read_field_versioned(rr, index, action, rr->plan_, true);
}

DESERT_NOINLINE static desert_status read_field_desc_versioned(desert_record_reader *rr, size_t index,
                                                            desert_field_action *action) {
  return read_field_versioned(rr, index, action, NULL, false);
}


/* A required field read in order from version-0 data by a description
 * without steps (tuples, map entries, plain records; with a plan: a plain
 * plan) is a counter step, done here; anything else, misuse and errors
 * included, takes the general path (out of line, so that this one saves no
 * registers) with its own statuses. */
desert_status desert_record_read_field(desert_record_reader *rr, size_t index,
                                       desert_field_action *action) {
  if (!rr) return DESERT_E_ARGUMENT;
  const desert_record_plan *p = rr->plan_;
  if (!p) {
    /* Without a plan, versioned data has a path of its own (first, so
     * that it pays no checks twice). */
    const desert_record_desc *d = rr->desc;
    if (rr->frame_ != NO_FRAME) return read_field_desc_versioned(rr, index, action);
    if (!rr->r || rr->r->status || rr->state_ != 1 || !action || index != rr->next_ ||
        d->step_count || index >= d->field_count || !d->fields[index].name ||
        d->fields[index].flags)
      return read_field_desc(rr, index, action);
  } else if (rr->frame_ != NO_FRAME) {
    /* (inlined here: it calls nothing but the general path, a tail call) */
    return read_field_versioned(rr, index, action, p, false);
  } else if (!rr->r || rr->r->status || rr->state_ != 1 || !action || index != rr->next_ ||
             !(p->flags & REC_PLAN_PLAIN) || index >= p->field_count) {
    return read_field_plan(rr, index, action);
  }
  rr->next_ = index + 1;
  *action = DESERT_FIELD_READ;
  return DESERT_OK;
}

desert_status desert_record_read_end(desert_record_reader *rr) {
  if (!rr || !rr->r) return DESERT_E_ARGUMENT;
  desert_reader *r = rr->r;
  if (rr->state_ != 1) return r->status ? r->status : desert_r_fail(r, DESERT_E_STATE, r->pos);
  /* an open record has a frame exactly when its data is versioned */
  DESERT_ASSERT((rr->version_ == 0) == (rr->frame_ == NO_FRAME));
  rr->state_ = 2;
  read_finish(rr);
  desert_r_leave(r);
  return r->status;
}

/* ---- enum-level evolution (docs/format.md §11.5) ---------------------------------- */

/* The record view of such an enum: no fields; only chunk 0 matters. */
static const desert_record_desc enum_record = {"enum", NULL, 0, NULL, 0};

desert_status desert_rec_enum_begin(desert_reader *r, unsigned sv, size_t version_offset) {
  desert_record_reader rr;
  memset(&rr, 0, sizeof rr);
  rr.r = r;
  rr.desc = &enum_record;
  rr.frame_ = NO_FRAME;
  if (read_header(r, &rr, sv, version_offset)) return r->status;
  rec_rframe *f = rr_frame(&rr);
  f->is_enum = 1;
  f->end = rr.end_;
  f->outer_end = rr.outer_end_;
  enter_chunk(&rr, 0);
  return DESERT_OK;
}

bool desert_rec_enum_end(desert_reader *r) {
  rec_rstack *s = r->records;
  if (!s || s->last == NO_FRAME) return false;
  rec_rframe *f = frame_at(s, s->last);
  if (!f->is_enum || f->depth != r->depth) return false;
  DESERT_ASSERT(f->nentries >= 1 && f->end <= f->outer_end);
  DESERT_ASSERT(frame_entries(f)[f->nentries - 1].end == f->end);
  r->pos = f->end;
  r->end = f->outer_end;
  s->top = s->last;
  s->last = f->prev;
  sync_top(r, s);
  return true;
}

unsigned desert_record_read_version(const desert_record_reader *rr) {
  return rr ? rr->version_ : 0;
}
