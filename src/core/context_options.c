/* src/core/context_options.c — validating a caller's desert_options and
 * resolving its defaults for a writer or reader context; the default
 * allocator.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "base/internal.h"

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

void *desert_mem_grow(const desert_allocator *a, void *p, size_t len, size_t cap, size_t ncap) {
  if (!a->alloc && !a->free) return realloc(p, ncap);
  void *q = desert_mem_alloc(a, ncap);
  if (!q) return NULL;
  if (len) memcpy(q, p, len);
  desert_mem_free(a, p, cap);
  return q;
}

/* What desert_options_init followed by resolution gives: the options of
 * every context made with opt NULL. */
static const desert_options resolved_defaults = {
    .struct_size = sizeof(desert_options),
    .isa = DESERT_ISA_AUTO,
    .compression = DESERT_COMPRESSION_RAW,
    .compression_level = -1,
    .max_length = DESERT_DEFAULT_MAX_LENGTH,
    .max_collection = DESERT_DEFAULT_MAX_COLLECTION,
    .max_depth = DESERT_DEFAULT_MAX_DEPTH,
    .max_decompressed = DESERT_DEFAULT_MAX_DECOMPRESSED,
};

desert_status desert_options_check(const desert_options *opt, const desert_kernels **kernels) {
  /* Only this header's layout exists so far; a different size means the
   * caller was compiled against another version of the struct. */
  if (opt->struct_size != sizeof(desert_options)) return DESERT_E_ARGUMENT;
  if ((opt->allocator.alloc == NULL) != (opt->allocator.free == NULL)) return DESERT_E_ARGUMENT;
  if (opt->flags & ~(unsigned)DESERT_KNOWN_FLAGS) return DESERT_E_ARGUMENT;
  if (opt->compression != DESERT_COMPRESSION_RAW && opt->compression != DESERT_COMPRESSION_ZLIB)
    return DESERT_E_ARGUMENT;
  if (opt->compression_level < -1 || opt->compression_level > 22) return DESERT_E_ARGUMENT;
  if ((unsigned)opt->isa >= (unsigned)DESERT_ISA_COUNT_) return DESERT_E_ARGUMENT;
  const desert_kernels *k = desert_kernels_for(opt->isa);
  if (!k) return DESERT_E_ISA_UNAVAILABLE;
  *kernels = k;
  return DESERT_OK;
}

void desert_options_fill_limits(desert_options *o) {
  if (o->max_length == 0) o->max_length = DESERT_DEFAULT_MAX_LENGTH;
  if (o->max_collection == 0) o->max_collection = DESERT_DEFAULT_MAX_COLLECTION;
  if (o->max_depth == 0) o->max_depth = DESERT_DEFAULT_MAX_DEPTH;
  if (o->max_decompressed == 0) o->max_decompressed = DESERT_DEFAULT_MAX_DECOMPRESSED;
}

void desert_options_set_defaults(desert_options *o) { *o = resolved_defaults; }

desert_status desert_options_resolve(const desert_options *opt, desert_options *out,
                                     const desert_kernels **kernels) {
  /* Validated in place and copied once: this runs at every context
   * create. Nothing is written to *out on failure. */
  if (!opt) {
    /* The one-shot default (a context per message, options NULL): the
     * resolved defaults are a constant, so only the copy remains. */
    const desert_kernels *k = desert_kernels_for(DESERT_ISA_AUTO);
    if (!k) return DESERT_E_ISA_UNAVAILABLE;
    *out = resolved_defaults;
    *kernels = k;
    return DESERT_OK;
  }
  desert_status st = desert_options_check(opt, kernels);
  if (st) return st;
  *out = *opt;
  desert_options_fill_limits(out);
  return DESERT_OK;
}
