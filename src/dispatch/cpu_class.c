/* src/dispatch/cpu_class.c — names the microarchitecture class of a CPU from
 * its cpuid vendor string, signature (leaf 1 EAX) and feature bits, for the
 * kernel policy of kernel_policy.c. The classification is a pure function
 * so the unit tests can feed it the cpuid of every class; the machine's own
 * cpuid is read in cpu_features.c (desert_cpu_class_detected).
 * SPDX-License-Identifier: MIT
 *
 * Family and model as the vendors' manuals define them: the base family
 * (EAX bits 8-11), plus the extended family (bits 20-27) when the base is
 * 0Fh; the base model (bits 4-7), plus the extended model (bits 16-19) as
 * its high nibble when the base family is 06h or 0Fh.
 *
 * Intel model numbers are not ordered by generation, so the Intel classes
 * list their models (family 6): Ice Lake client 7Dh, 7Eh, server 6Ah, 6Ch,
 * Tiger Lake 8Ch, 8Dh, Rocket Lake A7h; Sapphire Rapids 8Fh, Emerald Rapids
 * CFh, Granite Rapids ADh, AEh (the same core lineage and AVX-512 units as
 * Sapphire Rapids). AMD families are ordered: 19h is Zen 3/Zen 4 (only Zen 4
 * has AVX-512), 1Ah is Zen 5.
 */
#include <string.h>

#include "dispatch/kernel_policy.h"

static unsigned desert_sig_family(uint32_t eax) {
  const unsigned base = (eax >> 8) & 0xfu;
  return base == 0xfu ? base + ((eax >> 20) & 0xffu) : base;
}

static unsigned desert_sig_model(uint32_t eax) {
  const unsigned base_family = (eax >> 8) & 0xfu;
  unsigned model = (eax >> 4) & 0xfu;
  if (base_family == 0x6u || base_family == 0xfu) model |= ((eax >> 16) & 0xfu) << 4;
  return model;
}

static int desert_model_in(unsigned model, const unsigned char *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (list[i] == model) return 1;
  return 0;
}

desert_cpu_class desert_cpu_classify(const char *vendor, uint32_t leaf1_eax, uint32_t features) {
  if (vendor == NULL) return DESERT_CPU_CLASS_UNKNOWN;
  const unsigned family = desert_sig_family(leaf1_eax);
  const unsigned model = desert_sig_model(leaf1_eax);
  if (memcmp(vendor, "GenuineIntel", 12) == 0) {
    static const unsigned char icl[] = {0x6a, 0x6c, 0x7d, 0x7e, 0x8c, 0x8d, 0xa7};
    static const unsigned char spr[] = {0x8f, 0xcf, 0xad, 0xae};
    if (family == 6 && desert_model_in(model, icl, sizeof icl)) return DESERT_CPU_CLASS_INTEL_ICL;
    if (family == 6 && desert_model_in(model, spr, sizeof spr)) return DESERT_CPU_CLASS_INTEL_SPR;
    return DESERT_CPU_CLASS_INTEL_OTHER;
  }
  if (memcmp(vendor, "AuthenticAMD", 12) == 0) {
    if (family == 0x19u && (features & DESERT_CPU_AVX512F)) return DESERT_CPU_CLASS_AMD_ZEN4;
    if (family == 0x1au) return DESERT_CPU_CLASS_AMD_ZEN5;
    return DESERT_CPU_CLASS_AMD_OTHER;
  }
  return DESERT_CPU_CLASS_UNKNOWN;
}

const char *desert_cpu_class_str(desert_cpu_class c) {
  static const char *const names[DESERT_CPU_CLASS_COUNT_] = {
      "unknown", "amd-zen4", "amd-zen5", "amd-other", "intel-icl", "intel-spr", "intel-other"};
  return (unsigned)c < DESERT_CPU_CLASS_COUNT_ ? names[c] : "unknown";
}
