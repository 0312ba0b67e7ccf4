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
 * allocator (that of user_opt, the options given to init; NULL: malloc)
 * becomes s->next. */
void desert_spare_init(desert_spare *s, void *storage, size_t size, size_t ctx_size,
                       const desert_options *user_opt, desert_allocator *ctx_alloc);

/* The options a context shows its user: ctx_opt itself for a heap context,
 * else a copy with the caller's allocator in place of the spare's. */
const desert_options *desert_spare_options(desert_spare *s, const desert_options *ctx_opt);

#endif
