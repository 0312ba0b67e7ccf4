/* src/dispatch/cpu_features.c — detects the CPU features the kernel tables need
 * (cpuid + XGETBV on x86, HWCAP on AArch64) once per process.
 * SPDX-License-Identifier: MIT
 *
 * This file is compiled WITHOUT ISA flags: it must run on any CPU of the
 * target architecture, before anything from src/x86 or src/neon is called.
 *
 * x86: a vector feature counts only when the OS saves its register state on
 * context switches. CPUID reports what the silicon has; XCR0 (read with
 * XGETBV, valid only when CPUID.1:ECX.OSXSAVE is set) reports what the OS
 * enabled: bits 1-2 (XMM, YMM) for AVX/AVX2, plus bits 5-7 (opmask,
 * ZMM_Hi256, Hi16_ZMM) for AVX-512. XGETBV is issued with inline asm so the
 * file needs no -mxsave.
 *
 * The AVX2 kernels are compiled with -mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt
 * (cmake/DesertIsa.cmake), so the compiler may emit BMI1 and LZCNT
 * instructions there. kernels.h has no bits for those two, so
 * DESERT_CPU_BMI2 is reported only when BMI1, BMI2 and LZCNT are all
 * present: on real hardware they come together, and a VM that masks one of
 * them must not get the AVX2 table.
 *
 * The class of the CPU for the kernel policy (vendor and signature, see
 * cpu_class.c) is read here too, the only file that issues cpuid.
 *
 * The result is cached in an atomic word whose top bit marks "detected".
 * Two threads racing here compute the same value and store it; no
 * separate flag is published before the data.
 */
#include <stdatomic.h>
#include <string.h>

#include "base/internal.h" /* desert_copy_large_whole, desert_copy_stream_after */
#include "base/kernels.h"
#include "dispatch/kernel_policy.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define DESERT_CPU_X86 1
#else
#define DESERT_CPU_X86 0
#endif

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

#define DESERT_CPU_DETECTED_ (1u << 31)

#if DESERT_CPU_X86
static uint64_t desert_xgetbv0(void) {
  uint32_t lo, hi;
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0u));
  return ((uint64_t)hi << 32) | lo;
}

static uint32_t desert_detect(void) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  uint32_t f = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
  const unsigned max_leaf = a;
  /* "AuthenticAMD" in EBX, EDX, ECX */
  const int amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u;
  char vendor[12];
  memcpy(vendor, &b, 4);
  memcpy(vendor + 4, &d, 4);
  memcpy(vendor + 8, &c, 4);
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const unsigned ecx1 = c;
  const uint32_t eax1 = a;
  const unsigned family = ((a >> 8) & 0xfu) == 0xfu ? 0xfu + ((a >> 20) & 0xffu) : (a >> 8) & 0xfu;
  /* desert_copy's large blocks in one memcpy only where that was measured
   * fast with misaligned buffers: AMD family 1Ah and later. Elsewhere the
   * 2 KiB pieces stay, as misaligned `rep movsb` was measured far slower on
   * an earlier AMD family (base/internal.h says why, and
   * bench/results/notes-from-code-comments.md has the figures). */
  atomic_store_explicit(&desert_copy_large_whole, (unsigned char)(amd && family >= 0x1au),
                        memory_order_relaxed);
  if (ecx1 & (1u << 20)) f |= DESERT_CPU_SSE42;
  if (ecx1 & (1u << 23)) f |= DESERT_CPU_POPCNT;

  const int osxsave = (ecx1 & (1u << 27)) != 0;
  const int avx = (ecx1 & (1u << 28)) != 0;
  uint64_t xcr0 = 0;
  if (osxsave) xcr0 = desert_xgetbv0();
  const int os_ymm = osxsave && (xcr0 & 0x6u) == 0x6u;
  const int os_zmm = osxsave && (xcr0 & 0xe6u) == 0xe6u;

  unsigned ebx7 = 0, ecx7 = 0;
  if (max_leaf >= 7 && __get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    ebx7 = b;
    ecx7 = c;
  }
  int lzcnt = 0;
  if (__get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000001u &&
      __get_cpuid(0x80000001u, &a, &b, &c, &d))
    lzcnt = (c & (1u << 5)) != 0; /* ABM/LZCNT */

  const int bmi1 = (ebx7 & (1u << 3)) != 0;
  const int bmi2 = (ebx7 & (1u << 8)) != 0;
  if (bmi1 && bmi2 && lzcnt) f |= DESERT_CPU_BMI2;
  if (avx && os_ymm && (ebx7 & (1u << 5))) f |= DESERT_CPU_AVX2;
  if (avx && os_zmm) {
    if (ebx7 & (1u << 16)) f |= DESERT_CPU_AVX512F;
    if (ebx7 & (1u << 30)) f |= DESERT_CPU_AVX512BW;
    if (ebx7 & (1u << 31)) f |= DESERT_CPU_AVX512VL;
    if (ecx7 & (1u << 1)) f |= DESERT_CPU_AVX512VBMI;
    if (ecx7 & (1u << 6)) f |= DESERT_CPU_AVX512VBMI2;
  }
  /* The copy policy of this CPU's class (kernel_policy.c): classified
   * here from the registers already read, as the class cache would ask
   * for these very features. */
  atomic_store_explicit(&desert_copy_stream_after,
                        desert_copy_policy_stream_after(desert_cpu_classify(vendor, eax1, f)),
                        memory_order_relaxed);
  return f;
}
#elif defined(__aarch64__)
static uint32_t desert_detect(void) {
  /* Advanced SIMD is part of the AArch64 base ABI; HWCAP is consulted only
   * to honour a kernel that explicitly reports it absent. */
#if defined(__linux__) && defined(AT_HWCAP)
  const unsigned long hwcap = getauxval(AT_HWCAP);
  const unsigned long asimd = 1ul << 1; /* HWCAP_ASIMD */
  if (hwcap != 0 && (hwcap & asimd) == 0) return 0;
#endif
  return DESERT_CPU_NEON;
}
#else
static uint32_t desert_detect(void) { return 0; }
#endif

#if DESERT_CPU_X86
/* The cpuid facts desert_cpu_classify needs: the vendor string of leaf 0
 * and the signature of leaf 1. */
static desert_cpu_class desert_class_detect(void) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  char vendor[12];
  if (!__get_cpuid(0, &a, &b, &c, &d)) return DESERT_CPU_CLASS_UNKNOWN;
  memcpy(vendor, &b, 4);
  memcpy(vendor + 4, &d, 4);
  memcpy(vendor + 8, &c, 4);
  if (!__get_cpuid(1, &a, &b, &c, &d)) return DESERT_CPU_CLASS_UNKNOWN;
  return desert_cpu_classify(vendor, a, desert_cpu_features());
}
#else
static desert_cpu_class desert_class_detect(void) { return DESERT_CPU_CLASS_UNKNOWN; }
#endif

/* class + 1; 0 = not detected yet (racing threads store the same value) */
static _Atomic unsigned desert_class_cache;

desert_cpu_class desert_cpu_class_detected(void) {
  unsigned v = atomic_load_explicit(&desert_class_cache, memory_order_relaxed);
  if (v != 0) return (desert_cpu_class)(v - 1);
  const desert_cpu_class c = desert_class_detect();
  atomic_store_explicit(&desert_class_cache, (unsigned)c + 1u, memory_order_relaxed);
  return c;
}

static _Atomic uint32_t desert_cpu_cache;

uint32_t desert_cpu_features(void) {
  uint32_t f = atomic_load_explicit(&desert_cpu_cache, memory_order_acquire);
  if (f & DESERT_CPU_DETECTED_) return f & ~DESERT_CPU_DETECTED_;
  f = desert_detect();
  atomic_store_explicit(&desert_cpu_cache, f | DESERT_CPU_DETECTED_, memory_order_release);
  return f;
}
