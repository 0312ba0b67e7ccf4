/* bench/bench_evolution.h — what bench_main.cc needs of the evolution rows
 * (desert-rust's evolution_stress benchmark, "old bytes into new type":
 * bench_evolution.c): their case table. Kept free of the generated types
 * so the C++ file needs none of them.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_EVOLUTION_H
#define DESERT_BENCH_EVOLUTION_H

#include "bench_codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Appends the evolution case table to out[0..max) and returns how many
 * tables it wrote (0 or 1). */
size_t bench_evolution_tables(codec_table *out, size_t max);

#ifdef __cplusplus
}
#endif
#endif
