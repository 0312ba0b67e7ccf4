/* test/support/guarded.h — guard-page buffers: memory with an inaccessible
 * page right after its end (or right before its start), so a kernel that
 * reads or writes one byte outside its range faults at once, in any build
 * (no sanitizer needed; the idea is libdeflate's alloc_guarded_buffer).
 * SPDX-License-Identifier: MIT
 *
 * Usage:
 *   desert_guarded g;
 *   assert_int_equal(desert_guarded_init(&g, 4096, DESERT_GUARD_AFTER), 0);
 *   uint8_t *in = desert_guarded_place(&g, len);    // in[len] is the guard
 *   memcpy(in, data, len);  ... kernel(in, len) ...
 *   desert_guarded_free(&g);
 * One mapping serves any number of placements of up to `capacity` bytes,
 * so tests can call place() in hot loops (no system call per placement).
 * A placement of length 0 points exactly at the guard (AFTER) or just past
 * it (BEFORE): a kernel given an empty range must not touch it.
 */
#ifndef DESERT_TEST_GUARDED_H
#define DESERT_TEST_GUARDED_H

#include <stddef.h>
#include <stdint.h>

typedef enum desert_guard_side {
  DESERT_GUARD_AFTER = 0, /* PROT_NONE page starts at ptr + len */
  DESERT_GUARD_BEFORE = 1 /* PROT_NONE page ends at ptr */
} desert_guard_side;

typedef struct desert_guarded {
  uint8_t *map; /* whole mapping (guard included) */
  size_t map_len;
  uint8_t *usable; /* first accessible byte */
  size_t capacity; /* accessible bytes (>= the requested capacity) */
  desert_guard_side side;
} desert_guarded;

/* Maps capacity accessible bytes plus one guard page on `side`. Returns 0,
 * or -1 if the mapping failed (g is then zeroed). */
int desert_guarded_init(desert_guarded *g, size_t capacity, desert_guard_side side);
/* Unmaps (safe on a zeroed or already freed g). */
void desert_guarded_free(desert_guarded *g);
/* Start of a len-byte range touching the guard: ends at the guard for
 * DESERT_GUARD_AFTER, starts right after it for DESERT_GUARD_BEFORE.
 * NULL if len > capacity. The alignment of the result is whatever the
 * placement gives (page aligned minus len for AFTER). */
void *desert_guarded_place(const desert_guarded *g, size_t len);
/* place() + copy len bytes of src into it. */
void *desert_guarded_place_copy(const desert_guarded *g, const void *src, size_t len);
/* Makes the accessible pages read-only (ro != 0) or read-write again, to
 * catch writes into an input. Returns 0 or -1. */
int desert_guarded_set_readonly(const desert_guarded *g, int ro);

#endif /* DESERT_TEST_GUARDED_H */
