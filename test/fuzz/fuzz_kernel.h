/* test/fuzz/fuzz_kernel.h — helpers of the differential kernel harnesses
 * (fuzz_kernel_*.c): the runnable tables and exact-size heap copies.
 * SPDX-License-Identifier: MIT
 *
 * Every runnable table (scalar, avx2, avx512, and the SIMDe-built avx512emu
 * and NEON) must return exactly what the scalar table returns for the same
 * input: status,
 * offsets and counts, and the output bytes in [0, written) (the kernel
 * contract of src/base/kernels.h); the scalar table must in turn agree with the independent
 * oracle of test/support/oracle.c. Inputs and outputs are heap blocks of
 * exactly their size so ASan reports any access outside them. */
#ifndef DESERT_FUZZ_KERNEL_H
#define DESERT_FUZZ_KERNEL_H

#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "base/kernels.h"
#include "oracle.h"

#define FZ_MAX_TABLES 8

/* The runnable tables, scalar first. */
static inline size_t fz_tables(const desert_kernels **t) {
  size_t n = desert_kernels_runnable(t, FZ_MAX_TABLES);
  FZ_CHECK(n >= 1 && n <= FZ_MAX_TABLES && t[0]->isa == DESERT_ISA_SCALAR);
  return n;
}

/* An exact-size heap copy (1 byte block for size 0, never NULL). */
static inline void *fz_dup(const void *p, size_t n) {
  void *c = malloc(n ? n : 1);
  FZ_CHECK(c != NULL);
  if (n) memcpy(c, p, n);
  return c;
}

/* An exact-size output block (NULL-free); filled with a marker. */
static inline void *fz_out(size_t n) {
  void *c = malloc(n ? n : 1);
  FZ_CHECK(c != NULL);
  memset(c, 0xa5, n ? n : 1);
  return c;
}

#endif /* DESERT_FUZZ_KERNEL_H */
