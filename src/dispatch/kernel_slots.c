/* src/dispatch/kernel_slots.c — the public slot queries of
 * include/desert/kernels.h: the slot names and, per table, which ISA's
 * kernel fills each slot (a table reuses a narrower ISA's kernel where its
 * own was not measured faster; `desert info` and the benchmark report show
 * it). Found by comparing function pointers with the narrower tables.
 * SPDX-License-Identifier: MIT */
#include "desert/kernels.h"
#include "base/kernels.h"

#define DESERT_SLOT_NAME(slot) #slot,
static const char *const desert_slot_names[] = {DESERT_KERNEL_SLOTS(DESERT_SLOT_NAME)};
#undef DESERT_SLOT_NAME

#define DESERT_SLOT_COUNT (sizeof desert_slot_names / sizeof desert_slot_names[0])

size_t desert_kernel_slot_count(void) { return DESERT_SLOT_COUNT; }

const char *desert_kernel_slot_name(size_t i) {
  return i < DESERT_SLOT_COUNT ? desert_slot_names[i] : NULL;
}

/* 1 when slot i of a and b holds the same kernel. */
static int desert_slot_same(const desert_kernels *a, const desert_kernels *b, size_t i) {
  size_t k = 0;
#define DESERT_SLOT_SAME(slot) \
  if (i == k++) return a->slot == b->slot;
  DESERT_KERNEL_SLOTS(DESERT_SLOT_SAME)
#undef DESERT_SLOT_SAME
  return 0;
}

desert_isa desert_kernel_slot_isa(desert_isa isa, size_t i) {
  const desert_kernels *t =
      isa == DESERT_ISA_AUTO ? desert_kernels_default() : desert_kernels_compiled(isa);
  if (t == NULL || i >= DESERT_SLOT_COUNT) return DESERT_ISA_COUNT_;
  /* narrowest first: a slot the AVX2 table itself fills with the scalar
   * kernel is scalar in the AVX-512 table too */
  static const desert_isa narrower[] = {DESERT_ISA_SCALAR, DESERT_ISA_AVX2};
  for (size_t n = 0; n < sizeof narrower / sizeof narrower[0]; n++) {
    const desert_kernels *lower = desert_kernels_compiled(narrower[n]);
    if (lower != NULL && lower != t && desert_slot_same(t, lower, i)) return narrower[n];
  }
  return t->isa;
}
