/* src/core/compress_state.h — the (de)compressor state that writers and
 * readers cache for compressed blocks: how it is allocated (zstd through the
 * context allocator) and released. The block codec itself lives one layer up
 * in src/values/compressed.c; the contexts only need to free what it left,
 * so this piece sits in core and the contexts never call upwards.
 * Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_CORE_COMPRESS_STATE_H
#define DESERT_CORE_COMPRESS_STATE_H

#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_customMem */
#include <zstd.h>

#include "core/reader_internal.h"
#include "core/writer_internal.h"

/* zstd allocation callbacks that route through allocator `a` (the default
 * malloc when `a` has no alloc function). `a` must outlive the context. */
ZSTD_customMem desert_zstd_mem(desert_allocator *a);

/* Release every compressor and the compression scratch of `w` (NULL-safe);
 * the fields are left NULL/0 so the writer can compress again. */
void desert_writer_free_compressors(desert_writer *w);
/* Release the decompressors of `r` (NULL-safe), leaving the fields NULL. */
void desert_reader_free_decompressors(desert_reader *r);

#endif /* DESERT_CORE_COMPRESS_STATE_H */
