/* src/core/writer_internal.h — the writer context's layout and the reserve/commit
 * primitives the layers above (values, compression, records, types) use to
 * append bytes. Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_WRITER_INTERNAL_H
#define DESERT_WRITER_INTERNAL_H

#include "desert/writer.h"
#include "base/internal.h"
#include "core/reftab.h"
#include "core/spare.h"
#include "core/strtab.h"

enum { DESERT_WMODE_GROW = 0, DESERT_WMODE_FIXED = 1, DESERT_WMODE_COUNT = 2 };
/* writer_inline.h recognises size-only targets by this value. */
_Static_assert(DESERT_WMODE_COUNT == DESERT_WTARGET_COUNT_, "size-only mode value");

/* desert_wtarget (declared in desert/writer.h for the inline fast paths) is
 * a byte sink: the main output or a record chunk buffer. GROW targets own
 * their data (allocated with the writer's allocator), except while data is
 * `inl`: storage embedded in the writer or the record pool, used until the
 * output outgrows it and never freed. `mode` is a DESERT_WMODE_*. */

#define DESERT_W_SCRATCH 64u

/* Bytes of output storage inside the writer itself: small messages (most
 * single values, short records) never allocate an output buffer, so a
 * fresh writer's create + write + free costs one allocation. */
#define DESERT_W_INLINE DESERT_WFAST_INLINE_CAP_

/* Field order matters for desert_writer_create: `records` up to
 * `deflate_c` must start zeroed and is cleared in one go; the compression
 * state and scratch areas after it are never read before they are
 * written (or cleared on first use), so they are left uninitialised
 * (clearing ~600 bytes per create was a visible part of a fresh writer's
 * cost; the session tables are likewise set up on first use). */
struct desert_writer {
  /* The head the public inline functions see (desert_writer_fast, same
   * members in the same order; checked in writer.c). */
  union {
    desert_writer_fast fast;
    struct {
      desert_status status; /* first error (sticky) */
      unsigned busy;        /* reset has more to do than the inline one:
                             * 1 where a session table gains an entry, a
                             * record opens (it moves t) or an error is
                             * recorded, cleared by reset; or the
                             * DESERT_WBUSY_* bits of a pending writer.
                             * Invariant: busy 0 => status OK, t == &main
                             * (writer_inline.h assumes it) */
      desert_wtarget *t;    /* where bytes go now (main or a chunk buffer) */
      desert_wtarget main;  /* the message output */
      unsigned depth;       /* record nesting, bounded by depth_max */
      unsigned depth_max;   /* opt.max_depth, resolved (set with the head, so
                             * a pending writer's inline calls see it) */
    };
  };
  const desert_kernels *k;
  uint8_t *own;        /* growable storage of main (kept across fixed/count use);
                        * inline_buf until the output outgrows it */
  size_t own_cap;      /* (a pending writer: the storage size) */
  desert_options opt;
  /* What desert_writer_free has to look at: 0 for a writer that only ever
   * wrote plain values into its inline buffer or a fixed one, so freeing
   * it (and building it) costs a few stores. DESERT_WX_TABLES: strings and
   * refs are initialised (lazily, by desert_w_tables); DESERT_WX_COMPRESS:
   * the compression state is (desert_w_compressors); DESERT_WX_HELD:
   * something else may hold memory or hooks (grown output, records state,
   * a sink). */
  unsigned extras;
  desert_strtab strings; /* valid once extras has DESERT_WX_TABLES */
  desert_reftab refs;    /* valid once extras has DESERT_WX_TABLES */
  desert_spare spare;    /* caller storage (desert_writer_init); empty otherwise */
  /* ---- zeroed at create (records .. sink_free) ---- */
  void *records; /* records layer state (chunk buffer pool), see record.c */
  void (*records_free)(desert_writer *w);
  /* streaming (src/core/stream_sink.c): NULL unless the main
   * target drains into a sink. Hooks, so writer.c and stream_sink.c do not
   * call each other. */
  void *sink;
  uint8_t *(*sink_room)(desert_writer *w, size_t n); /* flush, then room for n */
  void (*sink_free)(desert_writer *w);               /* back to the own buffer */
  /* ---- not initialised ---- */
  /* compression state (src/values/compressed.c): zeroed on first use by
   * desert_w_compressors, valid once extras has DESERT_WX_COMPRESS */
  void *deflate_c[13]; /* libdeflate compressors by level, created lazily */
  void *zstd_c;        /* ZSTD_CCtx, created lazily */
  uint8_t *scratch;    /* compression output scratch */
  size_t scratch_cap;
  uint8_t count_sink[DESERT_W_SCRATCH]; /* size-only mode writes land here */
  /* First output storage of a heap writer or one from desert_writer_init;
   * desert_writer_init_inline uses the last DESERT_W_INLINE bytes of its
   * storage instead (it cannot know this offset). main.inl says which. It
   * stays last: right after the head it pushed k, opt and the rest 256
   * bytes away from the head, and the exported string writes that read
   * them slowed down. */
  uint8_t inline_buf[DESERT_W_INLINE];
};

enum { DESERT_WX_TABLES = 1u, DESERT_WX_HELD = 2u, DESERT_WX_COMPRESS = 4u };

/* Bits of `busy` besides the 1 that tables and records set. PENDING: a
 * writer built by desert_writer_init whose head, k, opt (a checked raw
 * copy, or nothing with DEFAULTS) and own_cap (the storage size, unless
 * STD_SIZE) are set and nothing else: the inline functions need only the head, and a
 * one-shot message of plain values never needs more. Every exported
 * function that takes a writer and reads anything past the head calls
 * desert_w_live first (after NULL tests and the sticky-status test, which
 * read only the head) (test/check_writer_entries.py checks it), which
 * settles the rest once; busy is then 0 and the writer is like any other.
 * desert_writer_free of a pending writer has nothing to release. */
enum {
  DESERT_WBUSY_PENDING = DESERT_WFAST_PENDING_,
  DESERT_WBUSY_DEFAULTS = DESERT_WFAST_DEFAULTS_,
  /* the storage size is DESERT_WRITER_STORAGE_SIZE (own_cap not set):
   * desert_writer_init_inline */
  DESERT_WBUSY_STD_SIZE = DESERT_WFAST_STD_SIZE_
};

/* The head invariant desert_writer_reset_inline builds on (busy 0 =>
 * status OK, t == &main), checked where the library hands a writer back
 * and where an exported call takes one (desert_w_live). */
#define DESERT_W_ASSERT_HEAD(w) \
  DESERT_ASSERT((w)->busy != 0 || ((w)->status == DESERT_OK && (w)->t == &(w)->main))

DESERT_COLD void desert_w_settle(desert_writer *w);
/* NULL passes through: functions that answer DESERT_E_ARGUMENT for a NULL
 * writer still do so after their desert_w_live. */
DESERT_INLINE void desert_w_live(desert_writer *w) {
  /* Two tests, each with its own expectation: one combined unlikely test
   * made gcc move the common (non-NULL) path out of line. */
  if (DESERT_LIKELY(w != NULL)) {
    if (DESERT_UNLIKELY(w->busy & DESERT_WBUSY_PENDING)) desert_w_settle(w);
    DESERT_W_ASSERT_HEAD(w);
  }
}

/* Notes that w now holds memory or hooks desert_writer_free must release. */
DESERT_INLINE void desert_w_hold(desert_writer *w) { w->extras |= DESERT_WX_HELD; }

/* Makes w->strings and w->refs usable (they are set up on first use: most
 * messages never touch them, and a one-shot writer should not pay for
 * them). Call before any access to either table. */
void desert_w_tables_init(desert_writer *w);
DESERT_INLINE void desert_w_tables(desert_writer *w) {
  if (DESERT_UNLIKELY(!(w->extras & DESERT_WX_TABLES))) desert_w_tables_init(w);
}

/* Makes the compression state (deflate_c, zstd_c, scratch) usable: it is
 * cleared on first use rather than at every init. Call before any access
 * to it. */
DESERT_INLINE void desert_w_compressors(desert_writer *w) {
  if (DESERT_UNLIKELY(!(w->extras & DESERT_WX_COMPRESS))) {
    desert_zero(w->deflate_c, sizeof w->deflate_c);
    w->zstd_c = NULL;
    w->scratch = NULL;
    w->scratch_cap = 0;
    w->extras |= DESERT_WX_COMPRESS;
  }
}

/* Records the first error; returns the writer's status. An error also
 * marks the writer busy: desert_writer_reset_inline relies on "busy 0
 * means status OK and t == &main" (writer_inline.h). */
DESERT_INLINE desert_status desert_w_fail(desert_writer *w, desert_status st) {
  if (w->status == DESERT_OK) {
    w->status = st;
    w->busy |= 1u;
  }
  DESERT_ASSERT(w->busy != 0);
  return w->status;
}

uint8_t *desert_w_reserve_slow(desert_writer *w, size_t n);

/* Space for n (<= DESERT_W_SCRATCH in size-only mode) bytes, or NULL after
 * an error (status set). Follow with desert_w_commit(w, n). */
DESERT_INLINE uint8_t *desert_w_reserve(desert_writer *w, size_t n) {
  desert_wtarget *t = w->t;
  /* len + n, not cap - len: in size-only mode cap is 0 and len grows past
   * it, so every reservation takes the slow path to the sink. */
  if (DESERT_LIKELY(t->len + n <= t->cap)) return t->data + t->len;
  /* Size-only (never a streaming sink's target): the sink, without the
   * call, whose register saves cost more than this (records counted in
   * place send every write of their fields here). */
  if (t->mode == DESERT_WMODE_COUNT && n <= DESERT_W_SCRATCH) return w->count_sink;
  return desert_w_reserve_slow(w, n);
}
DESERT_INLINE void desert_w_commit(desert_writer *w, size_t n) {
  w->t->len += n;
  /* size-only targets count past their capacity (0) */
  DESERT_ASSERT(w->t->len <= w->t->cap || w->t->mode == DESERT_WMODE_COUNT);
}

/* Bulk reservation of any size: OK with *p = where to write, or OK with
 * *p = NULL in size-only mode (nothing to write), or the error. Follow a
 * successful call with desert_w_commit(w, n). */
desert_status desert_w_reserve_bulk(desert_writer *w, size_t n, uint8_t **p);

/* Appends n bytes (used for chunk splicing and raw copies). */
desert_status desert_w_append(desert_writer *w, const void *src, size_t n);

/* GROW target helpers for the records layer. */
desert_status desert_wtarget_reserve(desert_writer *w, desert_wtarget *t, size_t n);
void desert_wtarget_free(desert_writer *w, desert_wtarget *t);

DESERT_INLINE desert_status desert_w_byte(desert_writer *w, uint8_t b) {
  if (DESERT_UNLIKELY(w->status)) return w->status;
  uint8_t *p = desert_w_reserve(w, 1);
  if (DESERT_UNLIKELY(!p)) return w->status;
  *p = b;
  desert_w_commit(w, 1);
  return DESERT_OK;
}

/* Whether n bytes plus the 8-byte store of desert_put_var_u32_wide fit at
 * t's cursor in a buffer the writer owns (growable mode): the scratch
 * bytes past a wide varint never land in a caller's fixed buffer, and
 * size-only mode (cap 0) never qualifies. */
DESERT_INLINE bool desert_w_wide_room(const desert_wtarget *t, size_t n) {
  return t->mode == DESERT_WMODE_GROW && n <= t->cap && t->len + 8 <= t->cap - n;
}

DESERT_INLINE desert_status desert_w_var_u32(desert_writer *w, uint32_t v) {
  if (DESERT_UNLIKELY(w->status)) return w->status;
  desert_wtarget *t = w->t;
  if (DESERT_LIKELY(desert_w_wide_room(t, 0))) {
    t->len += desert_put_var_u32_wide(t->data + t->len, v);
    return DESERT_OK;
  }
  /* Exact size first: a fixed buffer with room for the short form must not
   * fail for lack of the 5-byte worst case. */
  size_t n = desert_var_u32_len(v);
  uint8_t *p = desert_w_reserve(w, n);
  if (DESERT_UNLIKELY(!p)) return w->status;
  desert_put_var_u32(p, v);
  desert_w_commit(w, n);
  return DESERT_OK;
}

/* Writes var_i32(len) + bytes of already validated UTF-8. */
desert_status desert_w_string_body(desert_writer *w, const char *s, size_t len);

#endif
