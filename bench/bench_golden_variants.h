/* bench/bench_golden_variants.h — the K rotated golden inputs of case 16
 * (bench_golden_variants.c).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_GOLDEN_VARIANTS_H
#define DESERT_BENCH_GOLDEN_VARIANTS_H

#include "bench_codec.h"

/* Fills var[k] (malloc'd) and var_len[k] for k < CODEC_K and sets
 * info->bytes_per_op to the file's size. Returns 0, or 1 with info->skip
 * set (the file is missing) or info->fail (anything else); nothing is left
 * allocated then. */
int codec_golden_variants(desert_isa isa, uint8_t *var[CODEC_K], size_t var_len[CODEC_K],
                          codec_info *info);

#endif
