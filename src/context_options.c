/* src/context_options.c — validating a caller's desert_options and
 * resolving its defaults for a writer or reader context; the default
 * allocator.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "internal.h"

#define DESERT_KNOWN_FLAGS                                                      \
  (DESERT_OPT_SCALA_CHARS | DESERT_OPT_LENIENT_UTF8 | DESERT_OPT_LENIENT_TAGS | \
   DESERT_OPT_LENIENT_VARINT | DESERT_OPT_LEGACY_HEADER_STRINGS |               \
   DESERT_OPT_SCALA_REMOVED_OPTIONAL)

void *desert_mem_alloc(const desert_allocator *a, size_t n) {
  if (a->alloc) return a->alloc(a->opaque, n ? n : 1);
  return malloc(n ? n : 1);
}

void desert_mem_free(const desert_allocator *a, void *p, size_t n) {
  if (!p) return;
  if (a->free) {
    a->free(a->opaque, p, n ? n : 1);
    return;
  }
  free(p);
}

desert_status desert_options_resolve(const desert_options *opt, desert_options *out,
                                     const desert_kernels **kernels) {
  desert_options o;
  desert_options_init(&o);
  if (opt) {
    /* Only this header's layout exists so far; a different size means the
     * caller was compiled against another version of the struct. */
    if (opt->struct_size != sizeof(desert_options)) return DESERT_E_ARGUMENT;
    o = *opt;
  }
  if ((o.allocator.alloc == NULL) != (o.allocator.free == NULL)) return DESERT_E_ARGUMENT;
  if (o.flags & ~(unsigned)DESERT_KNOWN_FLAGS) return DESERT_E_ARGUMENT;
  if (o.compression != DESERT_COMPRESSION_RAW && o.compression != DESERT_COMPRESSION_ZLIB)
    return DESERT_E_ARGUMENT;
  if (o.compression_level < -1 || o.compression_level > 22) return DESERT_E_ARGUMENT;
  if ((unsigned)o.isa >= (unsigned)DESERT_ISA_COUNT_) return DESERT_E_ARGUMENT;
  if (o.max_length == 0) o.max_length = DESERT_DEFAULT_MAX_LENGTH;
  if (o.max_collection == 0) o.max_collection = DESERT_DEFAULT_MAX_COLLECTION;
  if (o.max_depth == 0) o.max_depth = DESERT_DEFAULT_MAX_DEPTH;
  if (o.max_decompressed == 0) o.max_decompressed = DESERT_DEFAULT_MAX_DECOMPRESSED;
  const desert_kernels *k = desert_kernels_for(o.isa);
  if (!k) return DESERT_E_ISA_UNAVAILABLE;
  *out = o;
  *kernels = k;
  return DESERT_OK;
}
