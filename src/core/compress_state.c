/* src/core/compress_state.c — allocation and release of the compressor
 * state that writers and readers cache (see compress_state.h). libdeflate
 * 1.14 has no per-context allocator (only a global one, which would race
 * between contexts), so its (de)compressors come from malloc; zstd contexts
 * go through the context allocator.
 * SPDX-License-Identifier: MIT */
#include <libdeflate.h>

#include "core/compress_state.h"

/* ---- zstd allocation through the context allocator ---------------------- */

/* zstd's free does not pass the size the desert allocator wants back, so
 * each block carries it in a header that keeps max_align_t alignment. */
#define DESERT_ZHDR ((size_t)16)

static void *zstd_alloc_cb(void *opaque, size_t size) {
  const desert_allocator *a = opaque;
  if (size > SIZE_MAX - DESERT_ZHDR) return NULL;
  uint8_t *p = desert_mem_alloc(a, size + DESERT_ZHDR);
  if (!p) return NULL;
  memcpy(p, &size, sizeof size);
  return p + DESERT_ZHDR;
}

static void zstd_free_cb(void *opaque, void *addr) {
  if (!addr) return;
  const desert_allocator *a = opaque;
  uint8_t *p = (uint8_t *)addr - DESERT_ZHDR;
  size_t size;
  memcpy(&size, p, sizeof size);
  desert_mem_free(a, p, size + DESERT_ZHDR);
}

ZSTD_customMem desert_zstd_mem(desert_allocator *a) {
  ZSTD_customMem m = {NULL, NULL, NULL};
  if (a->alloc) {
    m.customAlloc = zstd_alloc_cb;
    m.customFree = zstd_free_cb;
    m.opaque = a;
  }
  return m;
}

/* ---- context hooks (called by desert_writer_free / desert_reader_free) --- */

void desert_writer_free_compressors(desert_writer *w) {
  if (!w) return;
  /* Guarded calls: most writers never compress, and freeing a fresh writer
   * should not cost fourteen library calls. */
  for (size_t i = 0; i < sizeof w->deflate_c / sizeof w->deflate_c[0]; i++) {
    if (w->deflate_c[i]) libdeflate_free_compressor(w->deflate_c[i]);
    w->deflate_c[i] = NULL;
  }
  if (w->zstd_c) ZSTD_freeCCtx(w->zstd_c);
  w->zstd_c = NULL;
  /* The writer's compression scratch buffer belongs to this module. */
  desert_mem_free(&w->opt.allocator, w->scratch, w->scratch_cap);
  w->scratch = NULL;
  w->scratch_cap = 0;
}

void desert_reader_free_decompressors(desert_reader *r) {
  if (!r) return;
  libdeflate_free_decompressor(r->inflater);
  r->inflater = NULL;
  ZSTD_freeDCtx(r->zstd_d);
  r->zstd_d = NULL;
}
