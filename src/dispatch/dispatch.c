/* src/dispatch/dispatch.c — chooses the process default kernel table (CPU detection
 * plus DESERT_FORCE_ISA), publishes it atomically, and answers the public
 * dispatch queries of include/desert/kernels.h.
 * SPDX-License-Identifier: MIT
 *
 * Resolution:
 *  1. automatic choice: the first of avx512, avx2, native neon, scalar that
 *     is compiled in and runnable. The AVX-512 table qualifies only when the
 *     CPU has F, BW, VL, VBMI and VBMI2 and the OS saves the opmask and ZMM
 *     state (XCR0, see cpu_features.c). The automatic table there is not
 *     the AVX-512 table itself but, slot by slot, the AVX2 or the AVX-512
 *     kernel that was measured faster on this CPU's class (kernel_policy.c:
 *     the policy table; cpu_class.c: the classes), so ranking AVX-512 first
 *     never makes a slot slower where it was measured. Configure with
 *     -DDESERT_AUTO_AVX512=OFF to rank AVX2 first again (AVX-512 then only
 *     by DESERT_FORCE_ISA=avx512 or desert_options.isa). Emulated tables
 *     (NEON or AVX-512 through SIMDe) are never chosen automatically: they
 *     are slow and exist for tests only.
 *  2. DESERT_FORCE_ISA, read once: unset, empty or "auto" keeps the
 *     automatic choice. A name of a compiled table that this CPU can run
 *     (emulated NEON included: it runs anywhere) wins. An unknown name, or an
 *     ISA that is not compiled in or not runnable, falls back to the
 *     automatic choice and records why. Never a crash, never a stub.
 *  3. The choice is stored with a release store of the table pointer; the
 *     outcome and the variable's text are stored (atomically, relaxed)
 *     before it. Readers acquire-load the pointer. Two threads resolving at
 *     once compute identical values and store identical data, so there is
 *     no "done" flag that could be seen before the data.
 *
 * "Runnable" means: every bit of the table's `required` mask, and of a floor
 * this file demands per ISA (so a table that under-declares its needs still
 * cannot cause SIGILL), is in desert_cpu_features(). Emulated tables are
 * plain C and always runnable.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "desert/kernels.h"
#include "base/internal.h" /* DESERT_COLD; includes base/kernels.h */
#include "dispatch/kernel_policy.h"

/* ---- the tables of this build --------------------------------------------- */

static const desert_kernels *desert_table_compiled(desert_isa isa) {
  switch (isa) {
  case DESERT_ISA_SCALAR:
    return &desert_kernels_scalar;
#if DESERT_HAVE_AVX2
  case DESERT_ISA_AVX2:
    return &desert_kernels_avx2;
#endif
#if DESERT_HAVE_AVX512
  case DESERT_ISA_AVX512:
    return &desert_kernels_avx512;
#endif
#if DESERT_HAVE_NEON
  case DESERT_ISA_NEON:
    return &desert_kernels_neon;
#endif
  default:
    return NULL;
  }
}

const desert_kernels *desert_kernels_compiled(desert_isa isa) { return desert_table_compiled(isa); }

/* Bits the dispatcher insists on for each ISA, on top of table->required:
 * what the per-file compiler flags of cmake/DesertIsa.cmake allow the
 * compiler to emit. */
static uint32_t desert_isa_floor(desert_isa isa) {
  const uint32_t avx2 = DESERT_CPU_AVX2 | DESERT_CPU_BMI2 | DESERT_CPU_POPCNT;
  switch (isa) {
  case DESERT_ISA_AVX2:
    return avx2;
  case DESERT_ISA_AVX512:
    return avx2 | DESERT_CPU_AVX512F | DESERT_CPU_AVX512BW | DESERT_CPU_AVX512VL |
           DESERT_CPU_AVX512VBMI | DESERT_CPU_AVX512VBMI2;
  case DESERT_ISA_NEON:
    return DESERT_CPU_NEON;
  default:
    return 0;
  }
}

static int desert_table_runs(const desert_kernels *t, uint32_t features) {
  /* An emulated table's ISA code is plain C; only what it declares (the
   * AVX2 kernels the AVX-512 twin shares) needs the CPU. */
  const uint32_t need = t->emulated ? t->required : t->required | desert_isa_floor(t->isa);
  return (features & need) == need;
}

static const desert_kernels *desert_table_for_features(desert_isa isa, uint32_t features) {
  const desert_kernels *t = desert_table_compiled(isa);
  return t != NULL && desert_table_runs(t, features) ? t : NULL;
}

static const desert_kernels *desert_auto_choice(uint32_t features, desert_cpu_class cls) {
#if DESERT_AUTO_AVX512
  static const desert_isa order[] = {DESERT_ISA_AVX512, DESERT_ISA_AVX2, DESERT_ISA_NEON};
#else
  static const desert_isa order[] = {DESERT_ISA_AVX2, DESERT_ISA_NEON};
#endif
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    const desert_kernels *t = desert_table_for_features(order[i], features);
    if (t == NULL || t->emulated) continue;
    /* AVX-512 runs here, so AVX2 does too (the AVX-512 floor includes it):
     * each slot as the class's policy says. */
    if (t->isa == DESERT_ISA_AVX512) {
      const desert_kernels *p = desert_kernel_policy_table(cls);
      if (p != NULL) return p;
    }
    return t;
  }
  return &desert_kernels_scalar;
}

/* ---- names ------------------------------------------------------------------ */

static const char *const desert_isa_names[DESERT_ISA_COUNT_] = {"auto", "scalar", "avx2", "avx512",
                                                                "neon"};

const char *desert_isa_name(desert_isa isa) {
  return (unsigned)isa < DESERT_ISA_COUNT_ ? desert_isa_names[isa] : "unknown";
}

/* ASCII-only case folding: tolower() depends on the C locale. */
static int desert_ascii_ieq(const char *a, const char *b) {
  for (;; a++, b++) {
    unsigned ca = (unsigned char)*a, cb = (unsigned char)*b;
    if (ca >= 'A' && ca <= 'Z') ca += 'a' - 'A';
    if (cb >= 'A' && cb <= 'Z') cb += 'a' - 'A';
    if (ca != cb) return 0;
    if (ca == 0) return 1;
  }
}

desert_isa desert_isa_from_name(const char *name) {
  if (name == NULL) return DESERT_ISA_COUNT_;
  for (unsigned i = 0; i < DESERT_ISA_COUNT_; i++)
    if (desert_ascii_ieq(name, desert_isa_names[i])) return (desert_isa)i;
  return DESERT_ISA_COUNT_;
}

/* ---- decision --------------------------------------------------------------- */

const desert_kernels *desert_dispatch_choose(const char *force_value, uint32_t cpu_features,
                                             desert_override_outcome *outcome) {
  return desert_dispatch_choose_class(force_value, cpu_features, desert_cpu_class_detected(),
                                      outcome);
}

const desert_kernels *desert_dispatch_choose_class(const char *force_value, uint32_t cpu_features,
                                                   desert_cpu_class cls,
                                                   desert_override_outcome *outcome) {
  const desert_kernels *automatic = desert_auto_choice(cpu_features, cls);
  desert_override_outcome oc = DESERT_OVERRIDE_NONE;
  const desert_kernels *t = automatic;
  if (force_value != NULL && force_value[0] != '\0') {
    const desert_isa isa = desert_isa_from_name(force_value);
    if (isa == DESERT_ISA_COUNT_) {
      oc = DESERT_OVERRIDE_UNKNOWN_NAME;
    } else if (isa != DESERT_ISA_AUTO) {
      const desert_kernels *forced = desert_table_for_features(isa, cpu_features);
      if (forced != NULL) {
        t = forced;
        oc = DESERT_OVERRIDE_APPLIED;
      } else {
        oc = DESERT_OVERRIDE_UNAVAILABLE;
      }
    }
  }
  if (outcome != NULL) *outcome = oc;
  return t;
}

/* ---- the published default -------------------------------------------------- */

#define DESERT_OVERRIDE_TEXT 32
_Static_assert(sizeof(((desert_dispatch_info *)0)->override_value) == DESERT_OVERRIDE_TEXT,
               "the stored DESERT_FORCE_ISA text must match desert_dispatch_info");

static _Atomic(const desert_kernels *) desert_default_table;
static _Atomic unsigned desert_default_outcome;
static _Atomic char desert_default_text[DESERT_OVERRIDE_TEXT];

/* Out of line and cold: desert_kernels_default runs at every context
 * create, and with this inlined it set up a stack frame every time. */
static DESERT_COLD const desert_kernels *desert_resolve(void) {
  const char *env = getenv("DESERT_FORCE_ISA");
  desert_override_outcome oc;
  const desert_kernels *t = desert_dispatch_choose(env, desert_cpu_features(), &oc);
  size_t n = 0;
  if (env != NULL)
    for (; n + 1 < DESERT_OVERRIDE_TEXT && env[n] != '\0'; n++)
      atomic_store_explicit(&desert_default_text[n], env[n], memory_order_relaxed);
  atomic_store_explicit(&desert_default_text[n], '\0', memory_order_relaxed);
  atomic_store_explicit(&desert_default_outcome, (unsigned)oc, memory_order_relaxed);
  atomic_store_explicit(&desert_default_table, t, memory_order_release);
  return t;
}

const desert_kernels *desert_kernels_default(void) {
  const desert_kernels *t = atomic_load_explicit(&desert_default_table, memory_order_acquire);
  return t != NULL ? t : desert_resolve();
}

const desert_kernels *desert_kernels_for(desert_isa isa) {
  if (isa == DESERT_ISA_AUTO) return desert_kernels_default();
  return desert_table_for_features(isa, desert_cpu_features());
}

size_t desert_kernels_runnable(const desert_kernels **out, size_t max) {
  static const desert_isa order[] = {DESERT_ISA_SCALAR, DESERT_ISA_AVX2, DESERT_ISA_AVX512,
                                     DESERT_ISA_NEON};
  const uint32_t f = desert_cpu_features();
  size_t n = 0;
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    const desert_kernels *t = desert_table_for_features(order[i], f);
    if (t != NULL) {
      if (out != NULL && n < max) out[n] = t;
      n++;
    }
#if DESERT_HAVE_AVX512EMU
    /* The emulated AVX-512 twin: a second table of the same ISA, listed
     * for tests right after the native one (not reachable by ISA). */
    if (order[i] == DESERT_ISA_AVX512 && desert_table_runs(&desert_kernels_avx512emu, f)) {
      if (out != NULL && n < max) out[n] = &desert_kernels_avx512emu;
      n++;
    }
#endif
  }
  return n;
}

/* ---- public queries ---------------------------------------------------------- */

desert_isa desert_active_isa(void) { return desert_kernels_default()->isa; }

const char *desert_cpu_class_name(void) {
  return desert_cpu_class_str(desert_cpu_class_detected());
}

/* AUTO is not a table: both predicates answer 0 for it, matching the bit
 * masks of desert_dispatch_info. */
int desert_isa_compiled(desert_isa isa) {
  return isa != DESERT_ISA_AUTO && desert_table_compiled(isa) != NULL;
}

int desert_isa_runnable(desert_isa isa) {
  return isa != DESERT_ISA_AUTO && desert_table_for_features(isa, desert_cpu_features()) != NULL;
}

void desert_dispatch_info_get(desert_dispatch_info *info) {
  if (info == NULL) return;
  const desert_kernels *t = desert_kernels_default();
  memset(info, 0, sizeof *info);
  info->active = t->isa;
  info->cpu_features = desert_cpu_features();
  for (unsigned i = DESERT_ISA_SCALAR; i < DESERT_ISA_COUNT_; i++) {
    if (desert_isa_compiled((desert_isa)i)) info->compiled_isas |= 1u << i;
    if (desert_isa_runnable((desert_isa)i)) info->runnable_isas |= 1u << i;
  }
  info->active_emulated = t->emulated ? 1u : 0u;
  info->outcome =
      (desert_override_outcome)atomic_load_explicit(&desert_default_outcome, memory_order_relaxed);
  for (size_t i = 0; i + 1 < sizeof info->override_value && i < DESERT_OVERRIDE_TEXT; i++) {
    const char c = atomic_load_explicit(&desert_default_text[i], memory_order_relaxed);
    info->override_value[i] = c;
    if (c == '\0') break;
  }
}

size_t desert_cpu_feature_names(uint32_t features, char *buf, size_t cap) {
  static const struct {
    uint32_t bit;
    const char *name;
  } names[] = {
      {DESERT_CPU_SSE42, "sse4.2"},
      {DESERT_CPU_POPCNT, "popcnt"},
      {DESERT_CPU_BMI2, "bmi2"},
      {DESERT_CPU_AVX2, "avx2"},
      {DESERT_CPU_AVX512F, "avx512f"},
      {DESERT_CPU_AVX512BW, "avx512bw"},
      {DESERT_CPU_AVX512VL, "avx512vl"},
      {DESERT_CPU_AVX512VBMI, "avx512vbmi"},
      {DESERT_CPU_AVX512VBMI2, "avx512vbmi2"},
      {DESERT_CPU_NEON, "neon"},
  };
  /* snprintf-like: the full text is measured, as much as fits is written
   * (always NUL-terminated when cap > 0). */
  size_t need = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (!(features & names[i].bit)) continue;
    for (const char *s = need > 0 ? " " : ""; *s != '\0'; s++, need++)
      if (buf != NULL && need + 1 < cap) buf[need] = *s;
    for (const char *s = names[i].name; *s != '\0'; s++, need++)
      if (buf != NULL && need + 1 < cap) buf[need] = *s;
  }
  if (buf != NULL && cap > 0) buf[need < cap ? need : cap - 1] = '\0';
  return need;
}
