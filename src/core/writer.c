/* src/core/writer.c — the writer context (output modes, sticky errors, session
 * tables) and the primitive values of docs/format.md §2–§8, §12, §13.1 and §17.
 * Single values are encoded inline; runs above DESERT_BULK_THRESHOLD go to
 * the context's kernel table. Compressed blocks live in
 * src/values/compressed.c, the values of docs/format.md §13–§14 in src/values.
 * SPDX-License-Identifier: MIT */
#include "scalar/scalar.h"
#include "core/compress_state.h"
#include "core/writer_internal.h"

/* ---- output targets ------------------------------------------------------ */

desert_status desert_wtarget_reserve(desert_writer *w, desert_wtarget *t, size_t n) {
  if (t->cap - t->len >= n) return DESERT_OK;
  if (t->mode == DESERT_WMODE_FIXED) return DESERT_E_DST_TOO_SMALL;
  if (n > SIZE_MAX / 4 - t->len) return DESERT_E_NOMEM;
  const bool inl = t->inl && t->data == t->inl;
  size_t need = t->len + n;
  /* Leaving the inline buffer means the message is not small: skip the
   * doublings a heap buffer would start with. */
  size_t ncap = inl ? 4 * t->cap : t->cap ? t->cap : 256;
  while (ncap < need) ncap *= 2;
  /* An owned buffer grows in place where it can (desert_mem_grow: realloc
   * for the default allocator); the inline one is only copied from. */
  uint8_t *nd;
  if (inl) {
    nd = desert_mem_alloc(&w->opt.allocator, ncap);
    if (nd && t->len) memcpy(nd, t->data, t->len);
  } else {
    nd = desert_mem_grow(&w->opt.allocator, t->data, t->len, t->cap, ncap);
  }
  if (!nd) return DESERT_E_NOMEM;
  t->data = nd;
  t->cap = ncap;
  return DESERT_OK;
}

void desert_wtarget_free(desert_writer *w, desert_wtarget *t) {
  if (t->mode == DESERT_WMODE_GROW && !(t->inl && t->data == t->inl))
    desert_mem_free(&w->opt.allocator, t->data, t->cap);
  t->data = NULL;
  t->len = t->cap = 0;
}

uint8_t *desert_w_reserve_slow(desert_writer *w, size_t n) {
  desert_wtarget *t = w->t;
  /* streaming: a full main buffer drains into the sink */
  if (w->sink_room && t == &w->main) return w->sink_room(w, n);
  if (t->mode == DESERT_WMODE_COUNT) {
    /* Size-only: the bytes land in a sink; only the count matters. */
    if (n <= DESERT_W_SCRATCH) return w->count_sink;
    desert_w_fail(w, DESERT_E_ARGUMENT); /* internal misuse: bulk paths use reserve_bulk */
    return NULL;
  }
  desert_status st = desert_wtarget_reserve(w, t, n);
  if (st != DESERT_OK) {
    desert_w_fail(w, st);
    return NULL;
  }
  if (t == &w->main && t->mode == DESERT_WMODE_GROW) {
    desert_w_hold(w); /* a heap buffer, or a block of the storage's spare */
    w->own = t->data;
    w->own_cap = t->cap;
  }
  return t->data + t->len;
}

desert_status desert_w_reserve_bulk(desert_writer *w, size_t n, uint8_t **p) {
  if (w->status) return w->status;
  if (n == 0 || w->t->mode == DESERT_WMODE_COUNT) {
    *p = NULL;
    return DESERT_OK;
  }
  uint8_t *q = desert_w_reserve(w, n);
  if (!q) return w->status;
  *p = q;
  return DESERT_OK;
}

desert_status desert_w_append(desert_writer *w, const void *src, size_t n) {
  uint8_t *p = NULL;
  desert_status st = desert_w_reserve_bulk(w, n, &p);
  if (st) return st;
  if (p && n) {
    if (desert_copy_streams(w->t->len, n))
      desert_copy_stream(p, src, n);
    else
      desert_copy(p, src, n);
  }
  desert_w_commit(w, n);
  return DESERT_OK;
}

/* ---- lifecycle ------------------------------------------------------------ */

/* The public head and the private layout must agree (writer_inline.h reads
 * the writer through desert_writer_fast). */
_Static_assert(offsetof(struct desert_writer, fast) == 0, "writer head first");
#define FAST_OFFSET(m)                                                                      \
  _Static_assert(offsetof(struct desert_writer, m) ==                                     \
                     offsetof(struct desert_writer, fast) + offsetof(desert_writer_fast, m), \
                 "writer head: " #m)
FAST_OFFSET(status);
FAST_OFFSET(busy);
FAST_OFFSET(t);
FAST_OFFSET(main);
FAST_OFFSET(depth);
FAST_OFFSET(depth_max);
#undef FAST_OFFSET
/* desert_writer_init_inline puts the first output buffer in the last
 * DESERT_W_INLINE bytes of a desert_writer_storage, after the context. */
_Static_assert(sizeof(struct desert_writer) + DESERT_W_INLINE + DESERT_SPARE_ALIGN <=
                   DESERT_WRITER_STORAGE_SIZE,
               "desert_writer_storage too small for the context and a tail inline buffer");
_Static_assert(DESERT_WMODE_GROW == 0, "desert_writer_init_inline writes mode 0");
/* A default storage holds the context and leaves room for its lazy state
 * (a versioned record's chunk buffer pool is about 640 bytes). */
_Static_assert(sizeof(struct desert_writer) + 1024 <= DESERT_WRITER_STORAGE_SIZE,
               "desert_writer_storage too small for the context and a record pool");

/* The head the inline functions use: an empty message in the inline buffer.
 * desert_writer_init sets only this (and k, opt, the stashed size); the
 * rest is writer_body's, run at create or on the first exported call. */
static void writer_head(desert_writer *w, unsigned busy) {
  w->status = DESERT_OK;
  w->busy = busy;
  w->depth = 0;
  w->depth_max = DESERT_DEFAULT_MAX_DEPTH;
  w->t = &w->main;
  w->main.data = w->inline_buf;
  w->main.len = 0;
  w->main.cap = DESERT_W_INLINE;
  w->main.mode = DESERT_WMODE_GROW;
  w->main.inl = w->inline_buf;
}

/* Everything after the head, k and opt, for a writer whose main target is
 * still its inline buffer (main.inl: the struct's, or the storage's tail
 * for desert_writer_init_inline). */
static void writer_body(desert_writer *w) {
  /* Only the records and compression state need zeros (see the layout
   * note in writer_internal.h); the rest is set here. */
  desert_zero(&w->records, offsetof(desert_writer, deflate_c) - offsetof(desert_writer, records));
  w->own = w->main.inl;
  w->own_cap = DESERT_W_INLINE;
  w->spare.begin = NULL;
  w->extras = 0; /* tables: desert_w_tables */
}

void desert_w_tables_init(desert_writer *w) {
  /* The tables allocate nothing until they get an entry. */
  desert_strtab_init(&w->strings, &w->opt.allocator, true);
  desert_reftab_init(&w->refs, &w->opt.allocator);
  w->extras |= DESERT_WX_TABLES;
}

desert_status desert_writer_create(const desert_options *opt, desert_writer **out) {
  if (!out) return DESERT_E_ARGUMENT;
  *out = NULL;
  desert_options o;
  const desert_kernels *k;
  desert_status st = desert_options_resolve(opt, &o, &k);
  if (st) return st;
  desert_writer *w = desert_mem_alloc(&o.allocator, sizeof *w);
  if (!w) return DESERT_E_NOMEM;
  w->opt = o;
  w->k = k;
  writer_head(w, 0);
  w->depth_max = o.max_depth;
  writer_body(w);
  *out = w;
  return DESERT_OK;
}

size_t desert_writer_storage_min(void) { return desert_spare_round(sizeof(desert_writer)); }

/* The argument checks every desert_writer_init makes; *out is NULL after. */
DESERT_INLINE desert_status init_args(void *storage, size_t size, desert_writer **out) {
  if (!out) return DESERT_E_ARGUMENT;
  *out = NULL;
  if (!desert_spare_fits(storage, size, sizeof(desert_writer))) return DESERT_E_ARGUMENT;
  return DESERT_OK;
}

/* The pending writer's own stores (k and opt are set by the caller). */
DESERT_INLINE void init_pending(desert_writer *w, size_t size, unsigned busy,
                                desert_writer **out) {
  w->own_cap = size; /* the storage size, until settle */
  writer_head(w, busy);
  *out = w;
}

/* desert_writer_init with options: checked, copied raw (limits are filled
 * in at settle) and the table picked. Out of line so that init with
 * options NULL, the one-shot default, is a leaf without a stack frame. */
DESERT_NOINLINE static desert_status init_with_options(void *storage, size_t size,
                                                       const desert_options *opt,
                                                       desert_writer **out) {
  desert_status st = init_args(storage, size, out);
  if (st) return st;
  desert_writer *w = storage;
  const desert_kernels *k;
  st = desert_options_check(opt, &k);
  if (st) return st;
  w->opt = *opt;
  w->k = k;
  init_pending(w, size, DESERT_WBUSY_PENDING, out);
  if (opt->max_depth) w->depth_max = opt->max_depth; /* (0: the default, set) */
  return DESERT_OK;
}

/* A writer in caller storage starts "pending" (writer_internal.h): init
 * checks its arguments and the options, then sets the head, a raw copy
 * of the options with their table (or nothing for options NULL) and the
 * storage size, about a dozen stores. A one-shot message of plain values
 * is written by the inline functions into the head's buffer and freed
 * without ever needing more; the first exported call settles the rest
 * (desert_w_settle). Doing all of it here cost more than the message
 * itself (callgrind: ~190 instructions per init + free, against ~15 for
 * the i32 it carried). */
desert_status desert_writer_init(void *storage, size_t size, const desert_options *opt,
                                 desert_writer **out) {
  if (opt) return init_with_options(storage, size, opt, out);
  desert_status st = init_args(storage, size, out);
  if (st) return st;
  init_pending(storage, size, DESERT_WBUSY_PENDING | DESERT_WBUSY_DEFAULTS, out);
  return DESERT_OK;
}

void desert_w_settle(desert_writer *w) {
  size_t size = (w->busy & DESERT_WBUSY_STD_SIZE) ? DESERT_WRITER_STORAGE_SIZE : w->own_cap;
  /* desert_writer_init_inline's inline buffer is the storage's tail: the
   * spare area ends before it. */
  if (w->main.inl != w->inline_buf) size -= DESERT_W_INLINE;
  if (w->busy & DESERT_WBUSY_DEFAULTS) {
    desert_options_set_defaults(&w->opt);
    w->k = desert_kernels_default();
  } else
    desert_options_fill_limits(&w->opt);
  DESERT_ASSERT(w->depth_max == w->opt.max_depth);
  writer_body(w);
  /* From here on every allocation of the writer (and of the layers above,
   * which allocate through w->opt.allocator) is served by the storage
   * first; the caller's allocator (now in w->opt) serves what does not
   * fit. */
  desert_spare_init(&w->spare, w, size, sizeof *w, &w->opt.allocator, &w->opt.allocator);
  /* (an argument error may have come before the settle: it keeps the
   * writer busy, see desert_w_fail; so does a record the inline calls of
   * record.h opened, whose depth a reset must restore) */
  w->busy = w->status != DESERT_OK || w->depth != 0;
  DESERT_W_ASSERT_HEAD(w);
}

/* Whether src/values/compressed.c created anything: most writers never
 * compress, and a fresh writer's free should not pay for a call that finds
 * nothing. */
static bool has_compressors(const desert_writer *w) {
  uintptr_t any = (uintptr_t)w->zstd_c | (uintptr_t)w->scratch;
  for (size_t i = 0; i < sizeof w->deflate_c / sizeof w->deflate_c[0]; i++)
    any |= (uintptr_t)w->deflate_c[i];
  return any != 0;
}

/* Everything desert_writer_free releases besides the context itself. */
static void free_extras(desert_writer *w) {
  if (w->sink_free) w->sink_free(w); /* streaming */
  if (w->records_free) w->records_free(w);
  if ((w->extras & DESERT_WX_COMPRESS) && has_compressors(w))
    desert_writer_free_compressors(w); /* also owns w->scratch */
  if (w->own != w->main.inl) desert_mem_free(&w->opt.allocator, w->own, w->own_cap);
  if (w->extras & DESERT_WX_TABLES) {
    if (w->strings.entries || w->strings.slots || w->strings.text.head)
      desert_strtab_free(&w->strings);
    if (w->refs.objs || w->refs.slots) desert_reftab_free(&w->refs);
  }
}

/* desert_writer_free of a settled writer; out of line so that freeing a
 * pending one is a leaf without a stack frame. */
DESERT_NOINLINE static void writer_release(desert_writer *w) {
  if (w->extras) free_extras(w);
  if (w->spare.begin) return; /* caller storage: the caller's to release */
  desert_allocator a = w->opt.allocator;
  desert_mem_free(&a, w, sizeof *w);
}

void desert_writer_free(desert_writer *w) {
  /* Never settled: only the head was used, nothing is held, and the
   * storage is the caller's. */
  if (!w || (w->busy & DESERT_WBUSY_PENDING)) return;
  writer_release(w);
}

void desert_writer_reset(desert_writer *w) {
  if (!w) return;
  desert_w_live(w); /* so the next resets can be the inline one */
  w->status = DESERT_OK;
  w->t = &w->main;
  w->main.len = 0;
  w->depth = 0;
  /* Inline tests: a message that used neither table pays no calls. */
  if (w->extras & DESERT_WX_TABLES) {
    if (w->strings.dirty) desert_strtab_clear(&w->strings);
    if (w->refs.count) desert_reftab_clear(&w->refs);
  }
  w->busy = 0; /* desert_writer_reset_inline may do the next one */
}

/* The output mode switches below change only the head (main, status, t):
 * on a pending writer (no sink, nothing past the head in use) they leave
 * it pending, so desert_encode's fixed buffer or size-only pass costs no
 * settle either. Otherwise they drop a sink and reset as always. */
static bool switch_pending(desert_writer *w) {
  if (!(w->busy & DESERT_WBUSY_PENDING)) {
    if (w->sink_free) w->sink_free(w); /* streaming: drop the sink */
    return false;
  }
  return true;
}
static void switch_done(desert_writer *w, bool pending) {
  if (!pending) {
    desert_writer_reset(w);
    return;
  }
  w->status = DESERT_OK; /* what reset does to a writer with nothing past its head */
  w->t = &w->main;
  w->main.len = 0;
}

desert_status desert_writer_use_buffer(desert_writer *w, void *buf, size_t cap) {
  if (!w || (!buf && cap)) return DESERT_E_ARGUMENT;
  const bool pending = switch_pending(w);
  w->main.data = buf;
  w->main.cap = cap;
  w->main.mode = DESERT_WMODE_FIXED;
  switch_done(w, pending);
  return DESERT_OK;
}

void desert_writer_use_growable(desert_writer *w) {
  if (!w) return;
  const bool pending = switch_pending(w);
  /* a pending writer's own buffer is still its inline one */
  w->main.data = pending ? w->main.inl : w->own;
  w->main.cap = pending ? DESERT_W_INLINE : w->own_cap;
  w->main.mode = DESERT_WMODE_GROW;
  switch_done(w, pending);
}

void desert_writer_count_only(desert_writer *w) {
  if (!w) return;
  const bool pending = switch_pending(w);
  w->main.data = NULL;
  w->main.cap = 0;
  w->main.mode = DESERT_WMODE_COUNT;
  switch_done(w, pending);
}

desert_status desert_writer_detach(desert_writer *w, desert_buffer *out) {
  if (!w || !out) return DESERT_E_ARGUMENT;
  desert_w_live(w);
  memset(out, 0, sizeof *out);
  if (w->status) return w->status;
  if (w->main.mode != DESERT_WMODE_GROW || w->sink_room || w->t != &w->main || w->depth)
    return DESERT_E_STATE;
  /* The caller's allocator, not a storage writer's spare (whose blocks
   * live in the caller's storage and go with it): what
   * desert_spare_options(...)->allocator gives, without filling in a
   * copy of the whole options per message. */
  const desert_allocator a = w->spare.begin ? w->spare.next : w->opt.allocator;
  uint8_t *d = w->main.data;
  const size_t len = w->main.len;
  const bool in_storage =
      d == w->main.inl || (w->spare.begin && d >= w->spare.begin && d < w->spare.end);
  if (!in_storage && d == w->own) {
    /* a buffer from the caller's allocator (the spare passes on what it
     * cannot hold): the message itself */
    out->data = d;
    out->cap = w->own_cap;
    w->own = w->main.inl;
    w->own_cap = DESERT_W_INLINE;
    w->main.data = w->main.inl;
    w->main.cap = DESERT_W_INLINE;
  } else {
    uint8_t *p = desert_mem_alloc(&a, len ? len : 1);
    if (!p) return DESERT_E_NOMEM;
    if (len) memcpy(p, d, len);
    out->data = p;
    out->cap = len ? len : 1;
  }
  out->len = len;
  out->allocator = a;
  desert_writer_reset(w);
  return DESERT_OK;
}

void desert_buffer_free(desert_buffer *b) {
  if (!b) return;
  if (b->data) desert_mem_free(&b->allocator, b->data, b->cap);
  memset(b, 0, sizeof *b);
}

size_t desert_writer_size(const desert_writer *w) { return w ? w->main.len : 0; }

const uint8_t *desert_writer_data(const desert_writer *w, size_t *len) {
  if (len) *len = w ? w->main.len : 0;
  if (!w || w->main.mode == DESERT_WMODE_COUNT) return NULL;
  return w->main.data;
}

desert_status desert_writer_status(const desert_writer *w) {
  return w ? w->status : DESERT_E_ARGUMENT;
}
desert_status desert_writer_fail(desert_writer *w, desert_status st) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  return desert_w_fail(w, st == DESERT_OK ? DESERT_E_ARGUMENT : st);
}
desert_status desert_writer_enter(desert_writer *w) {
  if (!w) return DESERT_E_ARGUMENT;
  desert_w_live(w);
  if (w->status) return w->status;
  if (w->depth >= w->depth_max) return desert_w_fail(w, DESERT_E_DEPTH);
  w->depth++;
  w->busy = 1; /* a reset must restore the depth */
  return DESERT_OK;
}
void desert_writer_leave(desert_writer *w) {
  if (!w) return;
  desert_w_live(w);
  if (w->depth) w->depth--;
}
desert_isa desert_writer_isa(const desert_writer *w) {
  if (!w) return DESERT_ISA_AUTO;
  /* The cast as in desert_writer_options: a pending writer picks its
   * table at settle. */
  desert_w_live((desert_writer *)(uintptr_t)w);
  return w->k->isa;
}
const desert_options *desert_writer_options(const desert_writer *w) {
  /* The cast: a storage writer fills its user view on demand (its memory
   * is the caller's writable storage, never a const object). */
  if (!w) return NULL;
  desert_w_live((desert_writer *)(uintptr_t)w);
  return desert_spare_options(&((desert_writer *)(uintptr_t)w)->spare, &w->opt);
}

/* ---- fixed-width primitives ------------------------------------------------ */

/* The room test is written out (not desert_w_reserve) so the target's
 * length stays in a register across the byte stores, which may alias it,
 * and the fast path tests no pointer for NULL. */
#define DESERT_W_FIXED(name, type, n, put)                      \
  desert_status desert_write_##name(desert_writer *w, type v) { \
    if (DESERT_UNLIKELY(w->status)) return w->status;           \
    desert_w_live(w);                                           \
    desert_wtarget *t = w->t;                                   \
    const size_t len = t->len;                                  \
    uint8_t *p;                                                 \
    if (DESERT_LIKELY(len + (n) <= t->cap)) {                   \
      p = t->data + len;                                        \
      put;                                                      \
      t->len = len + (n);                                       \
      return DESERT_OK;                                         \
    }                                                           \
    p = desert_w_reserve(w, n); /* size-only sink, growth */    \
    if (DESERT_UNLIKELY(!p)) return w->status;                  \
    put;                                                        \
    desert_w_commit(w, n);                                      \
    return DESERT_OK;                                           \
  }

DESERT_W_FIXED(u8, uint8_t, 1, *p = v)
DESERT_W_FIXED(i8, int8_t, 1, *p = (uint8_t)v)
DESERT_W_FIXED(u16, uint16_t, 2, desert_put_be16(p, v))
DESERT_W_FIXED(i16, int16_t, 2, desert_put_be16(p, (uint16_t)v))
DESERT_W_FIXED(u32, uint32_t, 4, desert_put_be32(p, v))
DESERT_W_FIXED(i32, int32_t, 4, desert_put_be32(p, (uint32_t)v))
DESERT_W_FIXED(u64, uint64_t, 8, desert_put_be64(p, v))
DESERT_W_FIXED(i64, int64_t, 8, desert_put_be64(p, (uint64_t)v))
DESERT_W_FIXED(u128, desert_u128, 16, (desert_put_be64(p, v.hi), desert_put_be64(p + 8, v.lo)))
DESERT_W_FIXED(f32_bits, uint32_t, 4, desert_put_be32(p, v))
DESERT_W_FIXED(f64_bits, uint64_t, 8, desert_put_be64(p, v))

desert_status desert_write_f32(desert_writer *w, float v) {
  desert_w_live(w);
  return desert_write_f32_bits(w, desert_fast_f32_bits_(v));
}

desert_status desert_write_f64(desert_writer *w, double v) {
  desert_w_live(w);
  return desert_write_f64_bits(w, desert_fast_f64_bits_(v));
}

desert_status desert_write_bool(desert_writer *w, bool v) {
  desert_w_live(w);
  return desert_w_byte(w, v ? 1 : 0);
}

desert_status desert_write_raw(desert_writer *w, const void *src, size_t n) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (!src && n) return desert_w_fail(w, DESERT_E_ARGUMENT);
  return desert_w_append(w, src, n);
}

desert_status desert_write_var_u32(desert_writer *w, uint32_t v) {
  desert_w_live(w);
  return desert_w_var_u32(w, v);
}

desert_status desert_write_var_i32(desert_writer *w, int32_t v) {
  desert_w_live(w);
  return desert_w_var_u32(w, desert_zigzag32(v));
}

/* ---- characters ----------------------------------------------------------- */

desert_status desert_write_char(desert_writer *w, uint32_t cp) {
  if (w->status) return w->status;
  desert_w_live(w);
  if ((cp >= 0xD800u && cp <= 0xDFFFu) || cp > 0x10FFFFu)
    return desert_w_fail(w, DESERT_E_INVALID_CHAR);
  if (w->opt.flags & DESERT_OPT_SCALA_CHARS) {
    if (cp > 0xFFFFu) return desert_w_fail(w, DESERT_E_UNSUPPORTED_CHAR);
    return desert_write_u16(w, (uint16_t)cp);
  }
  return desert_w_var_u32(w, cp);
}

desert_status desert_write_char16(desert_writer *w, uint16_t unit) {
  desert_w_live(w);
  return desert_write_u16(w, unit);
}

/* ---- strings ---------------------------------------------------------------- */

/* Empty inputs may come as NULL; kernels get a real (empty) range instead,
 * so no NULL + 0 arithmetic happens anywhere below. */
static const uint16_t desert_empty_text[1] = {0};
#define DESERT_NONNULL(s, len, type)                                     \
  do {                                                                   \
    if ((len) == 0) (s) = (const type *)(const void *)desert_empty_text; \
  } while (0)

desert_status desert_w_string_body(desert_writer *w, const char *s, size_t len) {
  if (len > (size_t)INT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  const uint32_t z = desert_zigzag32((int32_t)len);
  /* Room for the prefix's wide store and the text: one check and one
   * copy (the term dictionary writes thousands of short strings). */
  desert_wtarget *t = w->t;
  if (DESERT_LIKELY(!w->status && desert_w_wide_room(t, len))) {
    uint8_t *p = t->data + t->len;
    const size_t h = desert_put_var_u32_wide(p, z);
    memcpy(p + h, s, len);
    t->len += h + len;
    return DESERT_OK;
  }
  desert_status st = desert_w_var_u32(w, z);
  if (st) return st;
  return desert_w_append(w, s, len);
}

static desert_status validate_utf8(const desert_writer *w, const char *s, size_t len) {
  size_t pos;
  if (len < DESERT_BULK_THRESHOLD) {
    if (desert_is_ascii_short((const uint8_t *)s, len)) return DESERT_OK;
    return desert_scalar_utf8_validate((const uint8_t *)s, len, &pos);
  }
  return w->k->utf8_validate((const uint8_t *)s, len, &pos);
}

desert_status desert_write_string(desert_writer *w, const char *s, size_t len) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (!s && len) return desert_w_fail(w, DESERT_E_ARGUMENT);
  DESERT_NONNULL(s, len, char);
  desert_status st = validate_utf8(w, s, len);
  if (st) return desert_w_fail(w, st);
  return desert_w_string_body(w, s, len);
}

desert_status desert_write_cstring(desert_writer *w, const char *s) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (!s) return desert_w_fail(w, DESERT_E_ARGUMENT);
  return desert_write_string(w, s, strlen(s));
}

/* Java's String.getBytes(UTF_8) writes '?' for an unpaired surrogate: the
 * lenient path of desert_write_string_utf16, scalar because it is rare. */
static size_t utf16_lenient_len(const uint16_t *s, size_t len) {
  size_t out = 0;
  for (size_t i = 0; i < len; i++) {
    uint16_t u = s[i];
    if (u < 0x80u)
      out += 1;
    else if (u < 0x800u)
      out += 2;
    else if (u >= 0xD800u && u <= 0xDBFFu && i + 1 < len && s[i + 1] >= 0xDC00u &&
             s[i + 1] <= 0xDFFFu) {
      out += 4;
      i++;
    } else if (u >= 0xD800u && u <= 0xDFFFu)
      out += 1;
    else
      out += 3;
  }
  return out;
}

static void utf16_lenient_convert(const uint16_t *s, size_t len, uint8_t *d) {
  for (size_t i = 0; i < len; i++) {
    uint32_t u = s[i];
    if (u < 0x80u) {
      *d++ = (uint8_t)u;
    } else if (u < 0x800u) {
      *d++ = (uint8_t)(0xC0u | (u >> 6));
      *d++ = (uint8_t)(0x80u | (u & 0x3Fu));
    } else if (u >= 0xD800u && u <= 0xDBFFu && i + 1 < len && s[i + 1] >= 0xDC00u &&
               s[i + 1] <= 0xDFFFu) {
      uint32_t cp = 0x10000u + ((u - 0xD800u) << 10) + (uint32_t)(s[i + 1] - 0xDC00u);
      i++;
      *d++ = (uint8_t)(0xF0u | (cp >> 18));
      *d++ = (uint8_t)(0x80u | ((cp >> 12) & 0x3Fu));
      *d++ = (uint8_t)(0x80u | ((cp >> 6) & 0x3Fu));
      *d++ = (uint8_t)(0x80u | (cp & 0x3Fu));
    } else if (u >= 0xD800u && u <= 0xDFFFu) {
      *d++ = '?';
    } else {
      *d++ = (uint8_t)(0xE0u | (u >> 12));
      *d++ = (uint8_t)(0x80u | ((u >> 6) & 0x3Fu));
      *d++ = (uint8_t)(0x80u | (u & 0x3Fu));
    }
  }
}

desert_status desert_write_string_utf16(desert_writer *w, const uint16_t *s, size_t len) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (!s && len) return desert_w_fail(w, DESERT_E_ARGUMENT);
  DESERT_NONNULL(s, len, uint16_t);
  size_t n;
  bool lenient = false;
  desert_status st = w->k->utf8_len_from_utf16(s, len, &n);
  if (st == DESERT_E_INVALID_UTF16 && (w->opt.flags & DESERT_OPT_LENIENT_UTF8)) {
    lenient = true;
    n = utf16_lenient_len(s, len);
  } else if (st) {
    return desert_w_fail(w, st);
  }
  if (n > (size_t)INT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  if ((st = desert_w_var_u32(w, desert_zigzag32((int32_t)n)))) return st;
  uint8_t *p = NULL;
  if ((st = desert_w_reserve_bulk(w, n, &p))) return st;
  if (p) {
    if (lenient) {
      utf16_lenient_convert(s, len, p);
    } else {
      size_t written, pos;
      st = w->k->utf16_to_utf8(s, len, p, n, &written, &pos);
      if (st) return desert_w_fail(w, st);
    }
  }
  desert_w_commit(w, n);
  return DESERT_OK;
}

desert_status desert_write_string_latin1(desert_writer *w, const uint8_t *s, size_t len) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (!s && len) return desert_w_fail(w, DESERT_E_ARGUMENT);
  DESERT_NONNULL(s, len, uint8_t);
  size_t n = w->k->utf8_len_from_latin1(s, len);
  if (n > (size_t)INT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  desert_status st = desert_w_var_u32(w, desert_zigzag32((int32_t)n));
  if (st) return st;
  uint8_t *p = NULL;
  if ((st = desert_w_reserve_bulk(w, n, &p))) return st;
  if (p) w->k->latin1_to_utf8(s, len, p);
  desert_w_commit(w, n);
  return DESERT_OK;
}

desert_status desert_write_dedup_string(desert_writer *w, const char *s, size_t len) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (!s && len) return desert_w_fail(w, DESERT_E_ARGUMENT);
  DESERT_NONNULL(s, len, char);
  /* Only valid text is ever registered, so a hit needs no validation. */
  desert_w_tables(w);
  uint32_t id = desert_strtab_find(&w->strings, s, len);
  if (id) return desert_w_var_u32(w, desert_zigzag32(-(int32_t)id));
  desert_status st = validate_utf8(w, s, len);
  if (st) return desert_w_fail(w, st);
  if (len > (size_t)INT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  bool added;
  w->busy = 1; /* the table needs the exported reset */
  if ((st = desert_strtab_add(&w->strings, s, len, &id, &added))) return desert_w_fail(w, st);
  return desert_w_string_body(w, s, len);
}

/* ---- byte blocks and collections ------------------------------------------- */

desert_status desert_write_bytes(desert_writer *w, const void *src, size_t n) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (!src && n) return desert_w_fail(w, DESERT_E_ARGUMENT);
  if (n > UINT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  desert_status st = desert_w_var_u32(w, (uint32_t)n);
  if (st) return st;
  return desert_w_append(w, src, n);
}

desert_status desert_write_count(desert_writer *w, size_t n) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (n > (size_t)INT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  return desert_w_var_u32(w, desert_zigzag32((int32_t)n));
}

desert_status desert_write_stream_begin(desert_writer *w) {
  desert_w_live(w);
  return desert_w_byte(w, 0x01);
}
desert_status desert_write_stream_item(desert_writer *w) {
  desert_w_live(w);
  return desert_w_byte(w, 0x01);
}
desert_status desert_write_stream_end(desert_writer *w) {
  desert_w_live(w);
  return desert_w_byte(w, 0x00);
}

/* Fixed-width runs: the kernel's bswap for long runs, inline stores below
 * the threshold where an indirect call costs more than it saves. */
#define DESERT_W_ARRAY(name, type, width, kernel, put)                                   \
  desert_status desert_write_##name##_array(desert_writer *w, const type *v, size_t n) { \
    if (w->status) return w->status;                                                     \
    desert_w_live(w);                                                                    \
    if (!v && n) return desert_w_fail(w, DESERT_E_ARGUMENT);                             \
    if (n > SIZE_MAX / (width)) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);      \
    uint8_t *p = NULL;                                                                   \
    desert_status st = desert_w_reserve_bulk(w, n * (width), &p);                        \
    if (st) return st;                                                                   \
    if (p) {                                                                             \
      if (n >= DESERT_BULK_THRESHOLD) {                                                  \
        w->k->kernel(p, v, n);                                                           \
      } else {                                                                           \
        for (size_t i = 0; i < n; i++) put;                                              \
      }                                                                                  \
    }                                                                                    \
    desert_w_commit(w, n *(width));                                                      \
    return DESERT_OK;                                                                    \
  }

DESERT_W_ARRAY(u16, uint16_t, 2, bswap16, desert_put_be16(p + 2 * i, v[i]))
DESERT_W_ARRAY(i16, int16_t, 2, bswap16, desert_put_be16(p + 2 * i, (uint16_t)v[i]))
DESERT_W_ARRAY(u32, uint32_t, 4, bswap32, desert_put_be32(p + 4 * i, v[i]))
DESERT_W_ARRAY(i32, int32_t, 4, bswap32, desert_put_be32(p + 4 * i, (uint32_t)v[i]))
DESERT_W_ARRAY(u64, uint64_t, 8, bswap64, desert_put_be64(p + 8 * i, v[i]))
DESERT_W_ARRAY(i64, int64_t, 8, bswap64, desert_put_be64(p + 8 * i, (uint64_t)v[i]))
DESERT_W_ARRAY(f32, float, 4, bswap32, desert_put_be32(p + 4 * i, desert_fast_f32_bits_(v[i])))
DESERT_W_ARRAY(f64, double, 8, bswap64, desert_put_be64(p + 8 * i, desert_fast_f64_bits_(v[i])))

/* Short varint runs (a posting list, a handful of ids): when the writer's
 * own buffer has room for the worst case and the last wide store, the
 * values go straight to the cursor, without the sizing pass and the
 * kernel call that pay off only for long runs. 0 < n < DESERT_BULK_THRESHOLD. */
static bool w_var_run_fits(const desert_writer *w, size_t n) {
  return desert_w_wide_room(w->t, n * DESERT_VAR32_MAX_BYTES);
}
/* zigzag: v holds int32_t values (same size and representation). */
static desert_status w_var_run(desert_writer *w, const uint32_t *v, size_t n, bool zigzag) {
  desert_wtarget *t = w->t;
  uint8_t *p = t->data + t->len;
  size_t len = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t x = v[i];
    if (zigzag) x = desert_zigzag32((int32_t)x);
    len += desert_put_var_u32_wide(p + len, x);
  }
  t->len += len;
  return DESERT_OK;
}

desert_status desert_write_var_u32_array(desert_writer *w, const uint32_t *v, size_t n) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (!v && n) return desert_w_fail(w, DESERT_E_ARGUMENT);
  if (n > SIZE_MAX / DESERT_VAR32_MAX_BYTES) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  if (n && n < DESERT_BULK_THRESHOLD && w_var_run_fits(w, n)) return w_var_run(w, v, n, false);
  /* Exact size first so a fixed buffer is never asked for the worst case. */
  size_t bytes = 0;
  for (size_t i = 0; i < n; i++) bytes += desert_var_u32_len(v[i]);
  uint8_t *p = NULL;
  desert_status st = desert_w_reserve_bulk(w, bytes, &p);
  if (st) return st;
  if (p) w->k->var_u32_encode(p, v, n);
  desert_w_commit(w, bytes);
  return DESERT_OK;
}

desert_status desert_write_var_i32_array(desert_writer *w, const int32_t *v, size_t n) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (!v && n) return desert_w_fail(w, DESERT_E_ARGUMENT);
  if (n > SIZE_MAX / DESERT_VAR32_MAX_BYTES) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  if (n && n < DESERT_BULK_THRESHOLD && w_var_run_fits(w, n))
    return w_var_run(w, (const uint32_t *)(const void *)v, n, true);
  size_t bytes = 0;
  for (size_t i = 0; i < n; i++) bytes += desert_var_u32_len(desert_zigzag32(v[i]));
  uint8_t *p = NULL;
  desert_status st = desert_w_reserve_bulk(w, bytes, &p);
  if (st) return st;
  if (p) w->k->var_i32_encode(p, v, n);
  desert_w_commit(w, bytes);
  return DESERT_OK;
}

/* ---- tags, tuples, UUID, references, registry ------------------------------ */

desert_status desert_write_option(desert_writer *w, bool some) {
  desert_w_live(w);
  return desert_w_byte(w, some);
}
desert_status desert_write_either(desert_writer *w, bool right) {
  desert_w_live(w);
  return desert_w_byte(w, right);
}
desert_status desert_write_try(desert_writer *w, bool success) {
  desert_w_live(w);
  return desert_w_byte(w, success);
}
desert_status desert_write_tuple_begin(desert_writer *w) {
  desert_w_live(w);
  return desert_w_byte(w, 0x00);
}

desert_status desert_write_uuid(desert_writer *w, const uint8_t uuid[16]) {
  desert_w_live(w);
  return desert_write_raw(w, uuid, 16);
}

desert_status desert_write_ref(desert_writer *w, const void *obj, bool *is_new) {
  if (w->status) return w->status;
  desert_w_live(w);
  if (!obj || !is_new) return desert_w_fail(w, DESERT_E_ARGUMENT);
  desert_w_tables(w);
  uint32_t id = desert_reftab_find(&w->refs, obj);
  if (id) {
    *is_new = false;
    return desert_w_var_u32(w, id);
  }
  /* The table never dereferences obj; the cast only lets one table type
   * serve both directions. */
  w->busy = 1; /* the table needs the exported reset */
  desert_status st = desert_reftab_add(&w->refs, (void *)(uintptr_t)obj, true, &id);
  if (st) return desert_w_fail(w, st);
  *is_new = true;
  return desert_w_var_u32(w, 0);
}

desert_status desert_write_type_id(desert_writer *w, uint32_t type_id) {
  desert_w_live(w);
  return desert_w_var_u32(w, type_id);
}
