/* src/dispatch/kernel_policy.h — CPU classes and the per-class kernel policy:
 * which ISA's kernel fills each slot of the automatic table on a CPU whose
 * best vector table is AVX-512 (kernel_policy.c holds the table, cpu_class.c
 * the classification). Internal to src/dispatch and its tests.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_DISPATCH_KERNEL_POLICY_H
#define DESERT_DISPATCH_KERNEL_POLICY_H

#include <stdint.h>

#include "base/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Microarchitecture classes the policy distinguishes. The *_OTHER classes
 * are a vendor's CPUs that no row was measured on: they get what was
 * measured on that vendor (see kernel_policy.c); UNKNOWN is any other vendor
 * (or no cpuid), which keeps every AVX2 kernel. */
typedef enum desert_cpu_class {
  DESERT_CPU_CLASS_UNKNOWN = 0,
  DESERT_CPU_CLASS_AMD_ZEN4,   /* AMD family 19h with AVX-512 */
  DESERT_CPU_CLASS_AMD_ZEN5,   /* AMD family 1Ah */
  DESERT_CPU_CLASS_AMD_OTHER,  /* any other AMD */
  DESERT_CPU_CLASS_INTEL_ICL,  /* Ice Lake / Tiger Lake / Rocket Lake (client and server) */
  DESERT_CPU_CLASS_INTEL_SPR,  /* Sapphire, Emerald and Granite Rapids */
  DESERT_CPU_CLASS_INTEL_OTHER,/* any other Intel */
  DESERT_CPU_CLASS_COUNT_
} desert_cpu_class;

/* The class of a CPU from its cpuid facts: vendor = the 12 characters of
 * leaf 0 (EBX, EDX, ECX order, e.g. "GenuineIntel"; NULL = no cpuid),
 * leaf1_eax = the signature (family, model, stepping as cpuid encodes
 * them, extended fields included), features = desert_cpu_features() bits.
 * Pure: tests feed it fake values. */
desert_cpu_class desert_cpu_classify(const char *vendor, uint32_t leaf1_eax, uint32_t features);

/* The class of this machine (cpuid read once, cached; thread-safe). */
desert_cpu_class desert_cpu_class_detected(void);

/* Short stable name of a class ("intel-spr", "amd-zen5", ...); "unknown"
 * for UNKNOWN and for out-of-range values. */
const char *desert_cpu_class_str(desert_cpu_class c);

/* The policy cell: DESERT_ISA_AVX2 or DESERT_ISA_AVX512 for slot i (in
 * DESERT_KERNEL_SLOTS order) on class c; DESERT_ISA_COUNT_ when c or i is
 * out of range. */
desert_isa desert_kernel_policy_isa(desert_cpu_class c, size_t slot);

/* The automatic table of class c on a CPU that runs the AVX-512 table:
 * each slot from the AVX2 or the AVX-512 table as the policy says. The
 * AVX-512 table itself when every slot agrees with it, the AVX2 table when
 * no slot takes an AVX-512 kernel, else a composed table (isa AVX512, name
 * "avx512") built once per class. NULL when either table is not compiled. */
const desert_kernels *desert_kernel_policy_table(desert_cpu_class c);

/* The copy policy of class c for streaming copies (base/internal.h): the
 * output size from which blocks of DESERT_COPY_STREAM_MIN bytes or more
 * are copied with non-temporal stores; 0 = never. Set only for the classes
 * where it was measured faster (docs/kernel-policy.md, "Copies"). */
size_t desert_copy_policy_stream_after(desert_cpu_class c);

/* desert_dispatch_choose for a given class instead of this machine's. */
const desert_kernels *desert_dispatch_choose_class(const char *force_value, uint32_t cpu_features,
                                                   desert_cpu_class c,
                                                   desert_override_outcome *outcome);

#ifdef __cplusplus
}
#endif
#endif /* DESERT_DISPATCH_KERNEL_POLICY_H */
