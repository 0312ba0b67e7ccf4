/* src/core/spare.c — a caller storage's free part as the context's allocator
 * (see spare.h). Blocks are carved bottom-up and never moved; a block given
 * back is reclaimed only when it is the last one carved (the pattern of a
 * buffer replaced by a bigger one is alloc-new, free-old, so older blocks
 * simply stay unused until the storage is released). Contexts keep their
 * lazy state across messages, so this runs at most a few times per context.
 * SPDX-License-Identifier: MIT */
#include "core/spare.h"

static bool inside(const desert_spare *s, const void *p) {
  uintptr_t u = (uintptr_t)p;
  return s->begin && u >= (uintptr_t)s->begin && u < (uintptr_t)s->end;
}

static void *spare_alloc(void *opaque, size_t n) {
  desert_spare *s = opaque;
  if (n <= (size_t)(s->end - s->top)) {
    size_t r = desert_spare_round(n);
    if (r <= (size_t)(s->end - s->top)) {
      void *p = s->top;
      s->top += r;
      return p;
    }
  }
  return desert_mem_alloc(&s->next, n);
}

static void spare_free(void *opaque, void *p, size_t n) {
  desert_spare *s = opaque;
  if (!inside(s, p)) {
    desert_mem_free(&s->next, p, n);
    return;
  }
  uint8_t *q = p;
  if ((size_t)(s->top - q) == desert_spare_round(n)) s->top = q;
}

desert_status desert_spare_prepare(void *storage, size_t size, size_t ctx_size, size_t opt_offset,
                                   const desert_options *opt, const desert_kernels **k) {
  if (!desert_spare_fits(storage, size, ctx_size)) return DESERT_E_ARGUMENT;
  /* Resolved in place: copying a freshly resolved struct again stalls on
   * store forwarding (its limits were just patched with narrower stores),
   * a visible part of a one-shot message's cost. */
  return desert_options_resolve(opt, (desert_options *)(void *)((uint8_t *)storage + opt_offset),
                                k);
}

void desert_spare_init(desert_spare *s, void *storage, size_t size, size_t ctx_size,
                       const desert_allocator *user_alloc, desert_allocator *ctx_alloc) {
  uint8_t *base = storage;
  s->begin = s->top = base + desert_spare_round(ctx_size);
  s->end = base + size;
  if (user_alloc) {
    s->next = *user_alloc;
  } else {
    s->next.alloc = NULL;
    s->next.free = NULL;
    s->next.opaque = NULL;
  }
  ctx_alloc->alloc = spare_alloc;
  ctx_alloc->free = spare_free;
  ctx_alloc->opaque = s;
}

const desert_options *desert_spare_options(desert_spare *s, const desert_options *ctx_opt) {
  if (!s->begin) return ctx_opt;
  /* Filled on demand: copying at every init would cost the one-shot path
   * for a call most callers never make. */
  s->pub = *ctx_opt;
  s->pub.allocator = s->next;
  return &s->pub;
}
