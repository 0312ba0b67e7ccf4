/* bench/bench_kernels.h — the kernel suite as a C case table: each case
 * prepares rotated inputs for one size, runs one kernel of a given table
 * over the next input, and frees everything when the case ends (only the
 * running case's data is alive).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_KERNELS_H
#define DESERT_BENCH_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct desert_kernels;

typedef struct bench_case {
  const char *name;  /* e.g. "utf8_validate/cjk" */
  const char *unit;  /* "bytes" or "values": what items_per_op counts */
  int has_kernel;    /* 0: reference row (memcpy), run once, not per ISA */
  /* Prepares inputs of about `size` bytes; returns NULL on allocation
   * failure. *bytes_per_op / *items_per_op describe one run. */
  void *(*setup)(size_t size, size_t *bytes_per_op, size_t *items_per_op);
  /* Runs once on input variant `i`; returns a value that depends on the
   * output so the compiler cannot drop the work. Returns (size_t)-1 on a
   * wrong result (checked on the first run of each variant). */
  size_t (*run)(const struct desert_kernels *k, void *state, size_t i);
  void (*teardown)(void *state);
} bench_case;

extern const bench_case bench_kernel_cases[];
extern const size_t bench_kernel_case_count;

/* Rotated input `i` (mod the rotation) of a state made by a case whose
 * state is byte buffers (memcpy, the bswaps, the utf8_validate and
 * utf8_to_latin1/utf16 cases, latin1_to_utf8): lets a reference row
 * outside C (simdjson, in bench_main.cc) run on exactly the same inputs. */
const uint8_t *bench_case_input(const void *state, size_t i, size_t *len);

/* Runnable kernel tables (scalar first); emulated NEON only when asked. */
size_t bench_tables(const struct desert_kernels **out, size_t max, int include_emulated);
/* bench_tables, then the process default table when the kernel policy
 * composed it from several tables (named "default"): the kernel suite's
 * tables, so its rows show what the automatic choice runs. */
size_t bench_kernel_tables(const struct desert_kernels **out, size_t max, int include_emulated);
/* The table's name, "default" for the composed process default. */
const char *bench_table_name(const struct desert_kernels *k);
int bench_table_emulated(const struct desert_kernels *k);

#ifdef __cplusplus
}
#endif
#endif
