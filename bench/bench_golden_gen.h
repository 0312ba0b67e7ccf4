/* bench/bench_golden_gen.h — case 16 through `desert gen-c` output (rows
 * c16_golden_*_gen, bench/bench_golden_gen.c).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_GOLDEN_GEN_H
#define DESERT_BENCH_GOLDEN_GEN_H

#include "bench_codec.h"

extern const codec_case bench_golden_gen_cases[];
extern const size_t bench_golden_gen_case_count;

#endif
