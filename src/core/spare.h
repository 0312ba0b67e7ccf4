/* src/core/spare.h — the free part of a caller's storage (desert_writer_init,
 * desert_reader_init) as an allocator: the context's lazy allocations
 * (records state, grown buffers, session tables, arena blocks) are carved
 * from it first and go to the caller's allocator only when it is full.
 * Heap contexts carry an empty one. Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_SPARE_H
#define DESERT_SPARE_H

#include "base/internal.h"

/* Alignment of the storage and of every block carved from it. */
#define DESERT_SPARE_ALIGN ((size_t) _Alignof(max_align_t))

typedef struct desert_spare {
  uint8_t *begin; /* NULL: no caller storage (heap context) */
  uint8_t *top;   /* next free byte */
  uint8_t *end;
  desert_allocator next; /* the caller's allocator, for what does not fit */
  desert_options pub;    /* the caller's options, as desert_*_options shows them */
} desert_spare;

/* Rounds n up to DESERT_SPARE_ALIGN (n well below SIZE_MAX). */
DESERT_INLINE size_t desert_spare_round(size_t n) {
  return (n + DESERT_SPARE_ALIGN - 1) & ~(DESERT_SPARE_ALIGN - 1);
}

/* Whether storage[0..size) can hold a context of ctx_size bytes: non-NULL,
 * aligned like malloc's memory, at least desert_spare_round(ctx_size). */
DESERT_INLINE bool desert_spare_fits(const void *storage, size_t size, size_t ctx_size) {
  return storage && ((uintptr_t)storage & (DESERT_SPARE_ALIGN - 1)) == 0 &&
         size >= desert_spare_round(ctx_size);
}

/* The start of desert_writer_init / desert_reader_init: checks that the
 * storage is non-NULL, aligned and holds at least desert_spare_round(
 * ctx_size) bytes (else DESERT_E_ARGUMENT, nothing written), then resolves
 * opt (desert_options_resolve) straight into the context's options field,
 * at opt_offset in the storage, and *k. */
desert_status desert_spare_prepare(void *storage, size_t size, size_t ctx_size, size_t opt_offset,
                                   const desert_options *opt, const desert_kernels **k);

/* Makes the bytes of storage[0..size) after the context's ctx_size bytes
 * the spare area, and routes the context's allocator (*ctx_alloc, the
 * allocator field of its resolved options) through it; the caller's
 * allocator (*user_alloc, read before *ctx_alloc is written, so both may
 * be the same struct; NULL: malloc) becomes s->next. */
void desert_spare_init(desert_spare *s, void *storage, size_t size, size_t ctx_size,
                       const desert_allocator *user_alloc, desert_allocator *ctx_alloc);

/* The options a context shows its user: ctx_opt itself for a heap context,
 * else a copy with the caller's allocator in place of the spare's. */
const desert_options *desert_spare_options(desert_spare *s, const desert_options *ctx_opt);

#endif
