/* src/base/options.c — default desert_options. struct_size records which
 * version of the struct the caller was compiled with, so fields appended
 * later can be given defaults for older callers.
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include "desert/common.h"

void desert_options_init(desert_options *o) {
  if (o == NULL) return;
  memset(o, 0, sizeof *o); /* NULL allocator = malloc/free, limits 0 = defaults */
  o->struct_size = sizeof *o;
  o->isa = DESERT_ISA_AUTO;
  o->flags = 0;
  o->compression = DESERT_COMPRESSION_RAW;
  o->compression_level = -1;
}
