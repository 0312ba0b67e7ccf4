/* src/dispatch/kernel_policy.c — THE kernel policy: for each CPU class, which
 * ISA's kernel fills each slot of the automatic table on a CPU that can run
 * the AVX-512 table; and the composition of that table.
 * SPDX-License-Identifier: MIT
 *
 * The rule: a slot takes the AVX-512 kernel on a class only where that
 * kernel was measured faster than the AVX2 one on that class (at 1 KiB,
 * 64 KiB and 1 MiB, every input of the slot's benchmark cases). The
 * measurements behind each row, the command that produced them and the
 * rule in full are in docs/kernel-policy.md, which cites the result files
 * in bench/results/. `scripts/kernel-policy.sh` measures a machine and
 * prints its row in the form of the table below.
 *
 * Classes no row was measured on take their vendor's measured row (the
 * microarchitectures of one vendor share their AVX-512 design more than
 * vendors do); a vendor never measured (UNKNOWN) keeps every AVX2 kernel.
 * AMD Zen 4 has its own measured row (it differs from Zen 5 in
 * var_u32_decode).
 *
 * DESERT_FORCE_ISA=avx512 and desert_options.isa still select the whole
 * AVX-512 table (kernels_avx512.c); the policy shapes the automatic choice
 * only.
 */
#include <stdatomic.h>
#include <stddef.h>

#include "dispatch/kernel_policy.h"

#define DESERT_POLICY_SLOTS 15

#define AVX2 DESERT_ISA_AVX2
#define A512 DESERT_ISA_AVX512

/* Columns in DESERT_KERNEL_SLOTS order: bswap16, bswap32, bswap64,
 * var_u32_encode, var_i32_encode, var_u32_decode, var_i32_decode,
 * utf8_validate, utf16_len_from_utf8, utf8_to_utf16, utf8_len_from_utf16,
 * utf16_to_utf8, utf8_len_from_latin1, latin1_to_utf8, utf8_to_latin1. */
/* clang-format off */
static const desert_isa desert_policy[DESERT_CPU_CLASS_COUNT_][DESERT_POLICY_SLOTS] = {
/*                                bs16  bs32  bs64  u32e  i32e  u32d  i32d  val   u16l  8>16  u8lw  16>8  u8ll  l1>8  8>l1 */
[DESERT_CPU_CLASS_UNKNOWN]     = {AVX2, AVX2, AVX2, AVX2, AVX2, AVX2, AVX2, AVX2, AVX2, AVX2, AVX2, AVX2, AVX2, AVX2, AVX2},
[DESERT_CPU_CLASS_AMD_ZEN4]    = {AVX2, AVX2, AVX2, A512, A512, AVX2, A512, A512, AVX2, A512, A512, A512, A512, A512, A512},
[DESERT_CPU_CLASS_AMD_ZEN5]    = {AVX2, AVX2, AVX2, A512, A512, A512, A512, A512, AVX2, A512, A512, A512, A512, A512, A512},
[DESERT_CPU_CLASS_AMD_OTHER]   = {AVX2, AVX2, AVX2, A512, A512, A512, A512, A512, AVX2, A512, A512, A512, A512, A512, A512},
[DESERT_CPU_CLASS_INTEL_ICL]   = {AVX2, AVX2, AVX2, A512, A512, AVX2, A512, AVX2, AVX2, AVX2, A512, A512, AVX2, A512, A512},
[DESERT_CPU_CLASS_INTEL_SPR]   = {AVX2, AVX2, AVX2, A512, A512, AVX2, A512, AVX2, AVX2, AVX2, A512, A512, AVX2, A512, A512},
[DESERT_CPU_CLASS_INTEL_OTHER] = {AVX2, AVX2, AVX2, A512, A512, AVX2, A512, AVX2, AVX2, AVX2, A512, A512, AVX2, A512, A512},
};
/* clang-format on */

#undef AVX2
#undef A512

_Static_assert(sizeof(((desert_kernels *)0)->utf8_to_latin1) * DESERT_POLICY_SLOTS ==
                   sizeof(desert_kernels) - offsetof(desert_kernels, bswap16),
               "one policy column per kernel slot");

/* Streaming copies past 1 MiB of output (Zen 4's L2 a core) on amd-zen4,
 * measured: bench/results/2026-12-07-amd-zen4-copy-stream.md. Not
 * measured elsewhere, so off: the other classes copy as before. */
size_t desert_copy_policy_stream_after(desert_cpu_class c) {
  return c == DESERT_CPU_CLASS_AMD_ZEN4 ? (size_t)1 << 20 : 0;
}

desert_isa desert_kernel_policy_isa(desert_cpu_class c, size_t slot) {
  if ((unsigned)c >= DESERT_CPU_CLASS_COUNT_ || slot >= DESERT_POLICY_SLOTS)
    return DESERT_ISA_COUNT_;
  return desert_policy[c][slot];
}

#if DESERT_HAVE_AVX2 && DESERT_HAVE_AVX512

/* dst's slot i := src's slot i */
static void desert_slot_take(desert_kernels *dst, const desert_kernels *src, size_t i) {
  size_t k = 0;
#define DESERT_SLOT_TAKE(slot)                                                                     \
  if (i == k++) {                                                                                  \
    dst->slot = src->slot;                                                                         \
    return;                                                                                        \
  }
  DESERT_KERNEL_SLOTS(DESERT_SLOT_TAKE)
#undef DESERT_SLOT_TAKE
}

static int desert_tables_same(const desert_kernels *a, const desert_kernels *b) {
  int same = 1;
#define DESERT_SLOT_SAME(slot) same &= a->slot == b->slot;
  DESERT_KERNEL_SLOTS(DESERT_SLOT_SAME)
#undef DESERT_SLOT_SAME
  return same;
}

static void desert_compose(desert_kernels *t, desert_cpu_class c) {
  *t = desert_kernels_avx512;
  for (size_t i = 0; i < DESERT_POLICY_SLOTS; i++)
    if (desert_policy[c][i] != DESERT_ISA_AVX512) desert_slot_take(t, &desert_kernels_avx2, i);
}

/* One composed table per class, built on first use. State 0: not built,
 * 1: a thread is building it, 2: ready (published with release). A thread
 * that finds 1 waits for the builder's few dozen stores; no thread reads a
 * table before it is complete and none is written twice, so the tables
 * need no atomic fields. */
static desert_kernels desert_composed[DESERT_CPU_CLASS_COUNT_];
static _Atomic unsigned desert_composed_state[DESERT_CPU_CLASS_COUNT_];

static const desert_kernels *desert_composed_table(desert_cpu_class c) {
  unsigned s = atomic_load_explicit(&desert_composed_state[c], memory_order_acquire);
  if (s == 2) return &desert_composed[c];
  unsigned expected = 0;
  if (atomic_compare_exchange_strong_explicit(&desert_composed_state[c], &expected, 1u,
                                              memory_order_acquire, memory_order_acquire)) {
    desert_compose(&desert_composed[c], c);
    atomic_store_explicit(&desert_composed_state[c], 2u, memory_order_release);
    return &desert_composed[c];
  }
  while (atomic_load_explicit(&desert_composed_state[c], memory_order_acquire) != 2) {
  }
  return &desert_composed[c];
}

const desert_kernels *desert_kernel_policy_table(desert_cpu_class c) {
  if ((unsigned)c >= DESERT_CPU_CLASS_COUNT_) c = DESERT_CPU_CLASS_UNKNOWN;
  /* Compose into a local first to see whether a shared table already is
   * this policy: then no composed table exists and pointer comparisons
   * with the compiled tables (desert_kernel_slot_isa) stay exact. */
  desert_kernels probe;
  desert_compose(&probe, c);
  if (desert_tables_same(&probe, &desert_kernels_avx512)) return &desert_kernels_avx512;
  if (desert_tables_same(&probe, &desert_kernels_avx2)) return &desert_kernels_avx2;
  return desert_composed_table(c);
}

#else

const desert_kernels *desert_kernel_policy_table(desert_cpu_class c) {
  (void)c;
  return NULL;
}

#endif
