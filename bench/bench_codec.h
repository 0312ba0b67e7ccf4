/* bench/bench_codec.h — the codec suite as C case tables: the desert case
 * inventory, cases 0–20 (bench_codec.c), the workloads from other codecs'
 * suites
 * (bench_workloads.c) and the same values through the peer libraries
 * msgpack-c and protobuf-c (bench_peers.c), plus memcpy rows of the same
 * byte counts for the bulk cases. bench_main.cc registers every row with
 * google-benchmark, interleaved by case key, and runs `--verify`.
 *
 * Every row follows the benchmark method: deterministic inputs, CODEC_K
 * rotated variants of the same shape and size prepared outside the timed
 * region, results checked by `verify` before any timing, and only the
 * running row's data alive (setup/teardown around each row).
 *
 * Row names: codec/<key>/<impl>/<isa>. <key> names the case and the
 * operation (e.g. c06_i32x1000_rt), <impl> is desert, msgpack, protobuf-c,
 * memcpy or harness, <isa> the kernel table a desert row ran on (pinned
 * with desert_options.isa for CODEC_PER_ISA rows, the process default
 * otherwise) or "-" for rows that do not run desert code.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_CODEC_H
#define DESERT_BENCH_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "desert/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rotated input variants per row. */
#define CODEC_K 64u

enum {
  CODEC_PER_ISA = 1u << 0, /* kernels matter: one row per runnable ISA */
  CODEC_FAULTS = 1u << 1,  /* large outputs: report minor page faults per op */
  CODEC_HEADLINE = 1u << 2 /* the row the case inventory defines (others are extra views) */
};

typedef struct codec_info {
  size_t bytes_per_op; /* wire bytes one op produces or consumes (0: none) */
  size_t items_per_op; /* items one op handles (terms, fields, values); 0: none */
  char skip[240];      /* setup returned NULL because the row cannot run here (not a failure) */
  char fail[240];      /* setup returned NULL because something is wrong (a failure) */
} codec_info;

typedef struct codec_case {
  const char *key;    /* case and operation, no '/', e.g. "c06_i32x1000_rt" */
  const char *impl;   /* "desert", "msgpack", "protobuf-c", "memcpy", "harness" */
  const char *desc;   /* one line for the report */
  int case_no;        /* case number (0–20); -1 for the workloads */
  unsigned flags;     /* CODEC_* */
  double rust_ref_ns; /* desert-rust's published figure (ns/op); 0: none */
  size_t param;       /* size parameter of shared setups (element count, N terms, ...) */
  /* Prepares the row's inputs for kernel table `isa` (DESERT_ISA_AUTO: the
   * process default). Returns NULL with info->skip set when the row cannot
   * run here (e.g. the golden file is missing); any other NULL is a failure
   * (info->fail says why when it can; empty: out of memory). */
  void *(*setup)(desert_isa isa, size_t param, codec_info *info);
  /* Checks every variant's output (bytes or decoded values) once; 0 if all
   * match, else non-zero with a message. */
  int (*verify)(void *state, char *msg, size_t cap);
  /* One op on variant i % CODEC_K; returns a value that depends on the
   * output so nothing can be optimised away. */
  uint64_t (*run)(void *state, size_t i);
  void (*teardown)(void *state);
  /* n ops, op indices i .. i+n-1, in one call: what the harness times (see
   * CODEC_BATCH). NULL: the harness calls run once per op. */
  uint64_t (*run_batch)(void *state, size_t i, size_t n);
} codec_case;

/* Ops per harness call for rows with run_batch. One indirect call per op
 * costs about 1.5 ns on the reference host, as much as a whole small-value
 * op; criterion, which measured the desert-rust references, inlines the
 * routine into its loop instead. So every row, ours and the peers' alike,
 * is timed in batches of this many ops; case 0 (the empty op) shows what
 * is left of the harness per op. */
#define CODEC_BATCH_OPS 32u

/* Each op's result goes through an empty asm that takes it in a register
 * and clobbers memory: per op exactly what benchmark::DoNotOptimize and
 * ClobberMemory did when the harness called run once per op, so ops are
 * neither merged nor dropped. */
#if defined(__GNUC__) || defined(__clang__)
#define CODEC_KEEP(v) __asm__ __volatile__("" : : "r"(v) : "memory")
#else
#error "the codec bench needs gcc or clang (inline asm barrier)"
#endif

/* Defines run##_batch from a row's run function (static in the same file,
 * so the compiler can inline it into the loop as criterion inlines its
 * routine). */
#define CODEC_BATCH(run)                                                  \
  static uint64_t run##_batch(void *state, size_t i, size_t n) {          \
    uint64_t acc = 0;                                                     \
    for (size_t j = 0; j < n; j++) {                                      \
      uint64_t r = run(state, i + j);                                     \
      CODEC_KEEP(r);                                                      \
      acc += r;                                                           \
    }                                                                     \
    return acc;                                                           \
  }

typedef struct codec_table {
  const codec_case *cases;
  size_t count;
} codec_table;

/* Fills out[0..max) with the tables (desert cases, workloads, peers that
 * are compiled in) and returns how many there are. */
size_t bench_codec_tables(codec_table *out, size_t max);

extern const codec_case bench_desert_cases[];
extern const size_t bench_desert_case_count;
extern const codec_case bench_workload_cases[];
extern const size_t bench_workload_case_count;
extern const codec_case bench_peer_cases[];
extern const size_t bench_peer_case_count;

/* ---- helpers shared by the case files (bench_codec_util.c) ---- */

/* printf-style message into msg[0..cap); returns 1 (a failed check). */
int codec_fail(char *msg, size_t cap, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Compares got[0..got_len) with want[0..want_len); on mismatch writes the
 * first differing offset and both bytes into msg and returns 1. */
int codec_check_bytes(const char *what, const uint8_t *got, size_t got_len, const uint8_t *want,
                      size_t want_len, char *msg, size_t cap);
/* desert_options with .isa = isa and extra flags. */
void codec_options(desert_options *o, desert_isa isa, unsigned flags);
/* Deterministic 64-bit stream (splitmix64). */
uint64_t codec_mix(uint64_t *s);
/* Reads a whole file (malloc'd); NULL if it cannot. */
uint8_t *codec_read_file(const char *path, size_t *len);

/* Independent encoders of the wire rules (docs/format.md §2–§6), used to build
 * expected bytes without the library. Each returns bytes written. */
size_t codec_put_be32(uint8_t *p, uint32_t v);
size_t codec_put_be64(uint8_t *p, uint64_t v);
size_t codec_put_var_u32(uint8_t *p, uint32_t v);
size_t codec_put_var_i32(uint8_t *p, int32_t v);
size_t codec_put_string(uint8_t *p, const char *s, size_t len);

#ifdef __cplusplus
}
#endif
#endif
