/* src/record/header_hint.h — process-wide header size hints for versioned
 * records written with chunk 0 in place. A writer reserves the header's
 * room before chunk 0 and must move chunk 0 when the real header differs;
 * its pool remembers each description's last header size, but a fresh
 * writer starts with an empty pool, so its first record of every
 * description paid that move (the whole 240 KB body of the golden model,
 * ~15% of a fresh writer's encode). This table survives writers. Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_RECORD_HEADER_HINT_H
#define DESERT_RECORD_HEADER_HINT_H

#include "base/internal.h"

#define DESERT_REC_GHINTS 64u

/* Slot word: the description's address shifted left by 16 bits, or'ed with
 * the header size (at most UINT16_MAX); 0 when empty. Addresses that differ
 * only in their top 16 bits share a key: such a false match, like a slot
 * taken by another description or a race between threads, only makes the
 * reserved room wrong, which costs a move of chunk 0, never wrong bytes.
 * Relaxed atomics: threads share the table without a lock. */
extern _Atomic uint64_t desert_rec_ghints[DESERT_REC_GHINTS];

DESERT_INLINE unsigned desert_rec_ghint_slot(const void *d) {
  return (unsigned)(((uint64_t)(uintptr_t)d * 0x9E3779B97F4A7C15ull) >> 58);
}

DESERT_INLINE uint64_t desert_rec_ghint_key(const void *d) { return (uint64_t)(uintptr_t)d << 16; }

/* The last header size recorded for description d, or -1. */
DESERT_INLINE long desert_rec_ghint_get(const void *d) {
  uint64_t v = atomic_load_explicit(&desert_rec_ghints[desert_rec_ghint_slot(d)],
                                    memory_order_relaxed);
  if (!v || (v & ~(uint64_t)0xFFFF) != desert_rec_ghint_key(d)) return -1;
  return (long)(v & 0xFFFF);
}

/* Records header size h (clamped to UINT16_MAX) for d. Written only when it
 * changes, so threads writing the same records do not bounce the line. */
DESERT_INLINE void desert_rec_ghint_put(const void *d, size_t h) {
  _Atomic uint64_t *s = &desert_rec_ghints[desert_rec_ghint_slot(d)];
  uint64_t v = desert_rec_ghint_key(d) | (h < 0xFFFF ? h : 0xFFFF);
  if (atomic_load_explicit(s, memory_order_relaxed) != v)
    atomic_store_explicit(s, v, memory_order_relaxed);
}

#endif
