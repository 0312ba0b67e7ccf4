/* bench/bench_golden_types.h — the case-16 rows through the type descriptors
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_GOLDEN_TYPES_H
#define DESERT_BENCH_GOLDEN_TYPES_H

#include "bench_codec.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const codec_case bench_golden_types_cases[];
extern const size_t bench_golden_types_case_count;

#ifdef __cplusplus
}
#endif
#endif
