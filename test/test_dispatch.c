/* test/test_dispatch.c — the kernel tables (no NULL slot, names, flags),
 * the ISA list, DESERT_FORCE_ISA decisions for every name and CPU feature
 * set, the published process default and its dispatch info, CPU feature
 * detection, the CPU classes and the per-class kernel policy (pinned here
 * slot by slot, so a change of policy is a deliberate edit of both); plus status names/kinds, version and options defaults (the
 * small files next to dispatch). Concurrent first use is `check_isa race`.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "base/internal.h" /* desert_copy_stream_after */
#include "desert_build_config.h"
#include "dispatch/kernel_policy.h"
#include "test_util.h"

/* ---- tables ---------------------------------------------------------------------------- */

/* Every table compiled in, runnable here or not. */
static size_t compiled_tables(const desert_kernels **out) {
  size_t n = 0;
  out[n++] = &desert_kernels_scalar;
#if DESERT_HAVE_AVX2
  out[n++] = &desert_kernels_avx2;
#endif
#if DESERT_HAVE_AVX512
  out[n++] = &desert_kernels_avx512;
#endif
#if DESERT_HAVE_AVX512EMU
  out[n++] = &desert_kernels_avx512emu;
#endif
#if DESERT_HAVE_NEON
  out[n++] = &desert_kernels_neon;
#endif
  return n;
}

/* The emulated AVX-512 twin: the one table whose ISA has a second table. */
static int is_avx512_twin(const desert_kernels *t) {
  return t->isa == DESERT_ISA_AVX512 && t->emulated;
}

static void check_slots(const desert_kernels *t) {
  print_message("table %s: isa %d required 0x%x emulated %u\n", t->name, (int)t->isa,
                (unsigned)t->required, t->emulated);
  assert_non_null(t->name);
  assert_string_equal(t->name, is_avx512_twin(t) ? "avx512emu" : desert_isa_name(t->isa));
  assert_true(t->isa > DESERT_ISA_AUTO && t->isa < DESERT_ISA_COUNT_);
  assert_true(t->emulated == 0 || t->emulated == 1);
  assert_non_null(t->bswap16);
  assert_non_null(t->bswap32);
  assert_non_null(t->bswap64);
  assert_non_null(t->var_u32_encode);
  assert_non_null(t->var_i32_encode);
  assert_non_null(t->var_u32_decode);
  assert_non_null(t->var_i32_decode);
  assert_non_null(t->utf8_validate);
  assert_non_null(t->utf16_len_from_utf8);
  assert_non_null(t->utf8_to_utf16);
  assert_non_null(t->utf8_len_from_utf16);
  assert_non_null(t->utf16_to_utf8);
  assert_non_null(t->utf8_len_from_latin1);
  assert_non_null(t->latin1_to_utf8);
  assert_non_null(t->utf8_to_latin1);
}

static void test_tables_complete(void **state) {
  (void)state;
  const desert_kernels *t[8];
  const size_t n = compiled_tables(t);
  for (size_t i = 0; i < n; i++) {
    check_slots(t[i]);
    assert_true(desert_isa_compiled(t[i]->isa));
    /* Only NEON (exactly when the build says so) and the AVX-512 twin are
     * emulated; one table per ISA besides the twin. */
    if (t[i]->isa == DESERT_ISA_NEON)
      assert_int_equal(t[i]->emulated, DESERT_NEON_EMULATED);
#if DESERT_HAVE_AVX512EMU
    else if (t[i] == &desert_kernels_avx512emu)
      assert_int_equal(t[i]->emulated, 1);
#endif
    else
      assert_int_equal(t[i]->emulated, 0);
    for (size_t j = 0; j < i; j++)
      if (!is_avx512_twin(t[i])) assert_int_not_equal(t[i]->isa, t[j]->isa);
  }
  assert_int_equal(desert_kernels_scalar.isa, DESERT_ISA_SCALAR);
  assert_string_equal(desert_kernels_scalar.name, "scalar");
  assert_int_equal(desert_kernels_scalar.required, 0);
  assert_int_equal(desert_kernels_scalar.emulated, 0);
  assert_ptr_equal(desert_kernels_for(DESERT_ISA_SCALAR), &desert_kernels_scalar);
  assert_null(desert_kernels_for(DESERT_ISA_COUNT_));
  assert_null(desert_kernels_for((desert_isa)77));
  assert_ptr_equal(desert_kernels_for(DESERT_ISA_AUTO), desert_kernels_default());
  assert_int_equal(desert_isa_compiled(DESERT_ISA_AVX2), DESERT_HAVE_AVX2);
  assert_int_equal(desert_isa_compiled(DESERT_ISA_AVX512), DESERT_HAVE_AVX512);
  assert_int_equal(desert_isa_compiled(DESERT_ISA_NEON), DESERT_HAVE_NEON);
  assert_int_equal(desert_isa_compiled(DESERT_ISA_AUTO), 0);
  assert_int_equal(desert_isa_runnable(DESERT_ISA_AUTO), 0);
}

static void test_runnable_list(void **state) {
  (void)state;
  const desert_kernels *t[8];
  const size_t n = desert_kernels_runnable(t, 8);
  assert_true(n >= 1 && n <= 5);
  assert_ptr_equal(t[0], &desert_kernels_scalar);
  for (size_t i = 0; i < n; i++) {
    print_message("runnable: %s%s\n", t[i]->name, t[i]->emulated ? " (emulated)" : "");
    if (is_avx512_twin(t[i])) {
      /* the twin follows the native AVX-512 table (when that runs) and is
       * never what an ISA query returns */
      assert_true(i > 0 && t[i]->isa >= t[i - 1]->isa);
      assert_ptr_not_equal(desert_kernels_for(t[i]->isa), t[i]);
      continue;
    }
    assert_true(desert_isa_runnable(t[i]->isa));
    assert_ptr_equal(desert_kernels_for(t[i]->isa), t[i]);
    if (i > 0) assert_true(t[i]->isa > t[i - 1]->isa); /* scalar, avx2, avx512, neon */
  }
  /* Every runnable ISA is in the list, every other one is not runnable. */
  for (unsigned isa = DESERT_ISA_SCALAR; isa < DESERT_ISA_COUNT_; isa++) {
    int listed = 0;
    for (size_t i = 0; i < n; i++) listed |= t[i]->isa == (desert_isa)isa && !is_avx512_twin(t[i]);
    assert_int_equal(listed, desert_isa_runnable((desert_isa)isa));
    if (!listed) assert_null(desert_kernels_for((desert_isa)isa));
  }
  /* Emulated NEON runs anywhere. */
  if (DESERT_HAVE_NEON && DESERT_NEON_EMULATED) assert_true(desert_isa_runnable(DESERT_ISA_NEON));
#if DESERT_HAVE_AVX512EMU
  /* The AVX-512 twin is listed exactly when the CPU has the AVX2 bits its
   * shared AVX2 kernels need, whatever its AVX-512 support. */
  {
    const uint32_t need = DESERT_CPU_AVX2 | DESERT_CPU_BMI2 | DESERT_CPU_POPCNT;
    int twin = 0;
    for (size_t i = 0; i < n; i++) twin |= t[i] == &desert_kernels_avx512emu;
    assert_int_equal(twin, (desert_cpu_features() & need) == need);
    assert_int_equal(desert_kernels_avx512emu.required, need);
  }
#endif
  /* Truncated output still reports the full count. */
  const desert_kernels *one[1] = {NULL};
  assert_int_equal(desert_kernels_runnable(one, 1), n);
  assert_ptr_equal(one[0], &desert_kernels_scalar);
  assert_int_equal(desert_kernels_runnable(NULL, 0), n);
}

/* ---- required tables --------------------------------------------------------------------
 * The default of DESERT_TEST_REQUIRE_ISAS comes from the compiler
 * runtime's CPU checks, not from desert_cpu_features(): the two must name
 * exactly the same tables, or a suite could skip one silently (or the
 * library could miss a feature the CPU and OS have). */

static int list_has(const char *list, const char *name) {
  const size_t n = strlen(name);
  for (const char *p = list; *p != '\0';) {
    while (*p == ',') p++;
    const char *start = p;
    while (*p != '\0' && *p != ',') p++;
    if ((size_t)(p - start) == n && strncmp(start, name, n) == 0) return 1;
  }
  return 0;
}

static void test_required_default(void **state) {
  (void)state;
  if (getenv("DESERT_TEST_REQUIRE_ISAS") != NULL) {
    print_message("DESERT_TEST_REQUIRE_ISAS is set: its default is not in use\n");
    skip();
  }
  const char *req = desert_test_required_isas();
  print_message("required by default here: %s\n", req);
  const desert_kernels *t[8];
  const size_t n = desert_kernels_runnable(t, 8);
  size_t names = 0;
  for (const char *p = req; *p != '\0'; p++) names += *p == ',';
  assert_int_equal(names + 1, n);
  for (size_t i = 0; i < n; i++) assert_true(list_has(req, t[i]->name));
  assert_true(list_has(req, "scalar"));
#if DESERT_HAVE_AVX512EMU && (defined(__x86_64__) || defined(__i386__))
  if (__builtin_cpu_supports("avx2")) assert_true(list_has(req, "avx512emu"));
#endif
  assert_int_equal(desert_test_check_required_isas(), 0);
}

/* ---- slot queries --------------------------------------------------------------------------- */

static void test_kernel_slots(void **state) {
  (void)state;
  const size_t n = desert_kernel_slot_count();
  assert_int_equal(n, 15); /* the function pointers of desert_kernels */
  assert_int_equal(sizeof(desert_kernels) - offsetof(desert_kernels, bswap16),
                   n * sizeof(void (*)(void)));
  for (size_t i = 0; i < n; i++) {
    assert_non_null(desert_kernel_slot_name(i));
    for (size_t j = 0; j < i; j++)
      assert_string_not_equal(desert_kernel_slot_name(i), desert_kernel_slot_name(j));
    assert_int_equal(desert_kernel_slot_isa(DESERT_ISA_SCALAR, i), DESERT_ISA_SCALAR);
    assert_int_equal(desert_kernel_slot_isa(DESERT_ISA_COUNT_, i), DESERT_ISA_COUNT_);
    /* The default is a compiled table, or the policy's composition of the
     * AVX2 and AVX-512 tables: then each slot is what its cell names. */
    const desert_kernels *d = desert_kernels_default();
    if (d == desert_kernels_compiled(d->isa))
      assert_int_equal(desert_kernel_slot_isa(DESERT_ISA_AUTO, i),
                       desert_kernel_slot_isa(d->isa, i));
    else
      assert_int_equal(desert_kernel_slot_isa(DESERT_ISA_AUTO, i),
                       desert_kernel_slot_isa(
                           desert_kernel_policy_isa(desert_cpu_class_detected(), i), i));
    for (unsigned isa = DESERT_ISA_AVX2; isa < DESERT_ISA_COUNT_; isa++) {
      const desert_isa got = desert_kernel_slot_isa((desert_isa)isa, i);
      if (!desert_isa_compiled((desert_isa)isa)) {
        assert_int_equal(got, DESERT_ISA_COUNT_);
        continue;
      }
      /* its own kernel, or a narrower one it reuses */
      assert_true(got == (desert_isa)isa || got == DESERT_ISA_SCALAR ||
                  (isa == DESERT_ISA_AVX512 && got == DESERT_ISA_AVX2));
    }
  }
  assert_null(desert_kernel_slot_name(n));
  assert_int_equal(desert_kernel_slot_isa(DESERT_ISA_SCALAR, n), DESERT_ISA_COUNT_);
  /* Named slots against the tables' own pointers. */
  assert_string_equal(desert_kernel_slot_name(0), "bswap16");
  assert_string_equal(desert_kernel_slot_name(5), "var_u32_decode");
  assert_string_equal(desert_kernel_slot_name(14), "utf8_to_latin1");
#if DESERT_HAVE_AVX512
  assert_int_equal(desert_kernel_slot_isa(DESERT_ISA_AVX512, 5),
                   desert_kernels_avx512.var_u32_decode == desert_kernels_avx2.var_u32_decode
                       ? DESERT_ISA_AVX2
                       : DESERT_ISA_AVX512);
  assert_int_equal(desert_kernel_slot_isa(DESERT_ISA_AVX512, 14),
                   desert_kernels_avx512.utf8_to_latin1 == desert_kernels_avx2.utf8_to_latin1
                       ? DESERT_ISA_AVX2
                       : DESERT_ISA_AVX512);
#endif
}

/* ---- names --------------------------------------------------------------------------------- */

static void test_isa_names(void **state) {
  (void)state;
  assert_string_equal(desert_isa_name(DESERT_ISA_AUTO), "auto");
  assert_string_equal(desert_isa_name(DESERT_ISA_SCALAR), "scalar");
  assert_string_equal(desert_isa_name(DESERT_ISA_AVX2), "avx2");
  assert_string_equal(desert_isa_name(DESERT_ISA_AVX512), "avx512");
  assert_string_equal(desert_isa_name(DESERT_ISA_NEON), "neon");
  assert_string_equal(desert_isa_name(DESERT_ISA_COUNT_), "unknown");
  assert_string_equal(desert_isa_name((desert_isa)-1), "unknown");
  assert_int_equal(desert_isa_from_name("auto"), DESERT_ISA_AUTO);
  assert_int_equal(desert_isa_from_name("scalar"), DESERT_ISA_SCALAR);
  assert_int_equal(desert_isa_from_name("SCALAR"), DESERT_ISA_SCALAR);
  assert_int_equal(desert_isa_from_name("Avx2"), DESERT_ISA_AVX2);
  assert_int_equal(desert_isa_from_name("AVX512"), DESERT_ISA_AVX512);
  assert_int_equal(desert_isa_from_name("nEoN"), DESERT_ISA_NEON);
  assert_int_equal(desert_isa_from_name("AUTO"), DESERT_ISA_AUTO);
  assert_int_equal(desert_isa_from_name(""), DESERT_ISA_COUNT_);
  assert_int_equal(desert_isa_from_name(NULL), DESERT_ISA_COUNT_);
  assert_int_equal(desert_isa_from_name("avx"), DESERT_ISA_COUNT_);
  assert_int_equal(desert_isa_from_name("avx22"), DESERT_ISA_COUNT_);
  assert_int_equal(desert_isa_from_name("scalar "), DESERT_ISA_COUNT_);
  assert_int_equal(desert_isa_from_name("bogus"), DESERT_ISA_COUNT_);
  assert_int_equal(desert_isa_from_name("sc\xc3\xa4lar"), DESERT_ISA_COUNT_);
}

/* ---- DESERT_FORCE_ISA decisions -------------------------------------------------------------- */

#define X86_ALL                                                                                    \
  (DESERT_CPU_SSE42 | DESERT_CPU_AVX2 | DESERT_CPU_BMI2 | DESERT_CPU_POPCNT | DESERT_CPU_AVX512F | \
   DESERT_CPU_AVX512BW | DESERT_CPU_AVX512VL | DESERT_CPU_AVX512VBMI | DESERT_CPU_AVX512VBMI2)
#define X86_AVX2 (DESERT_CPU_SSE42 | DESERT_CPU_AVX2 | DESERT_CPU_BMI2 | DESERT_CPU_POPCNT)

/* What automatic choice must give for a feature set, from first principles:
 * AVX-512 (all of F, BW, VL, VBMI, VBMI2 with the OS state, plus the AVX2
 * floor), then AVX2, then native NEON, then scalar; never an emulated
 * table. A build with DESERT_AUTO_AVX512=OFF leaves AVX-512 out. */
static const desert_kernels *expected_auto(uint32_t f) {
  const desert_kernels *t[8];
  const size_t n = compiled_tables(t);
#if DESERT_AUTO_AVX512
  static const desert_isa prio[] = {DESERT_ISA_AVX512, DESERT_ISA_AVX2, DESERT_ISA_NEON};
#else
  static const desert_isa prio[] = {DESERT_ISA_AVX2, DESERT_ISA_NEON};
#endif
  for (size_t p = 0; p < sizeof prio / sizeof prio[0]; p++)
    for (size_t i = 0; i < n; i++) {
      if (t[i]->isa != prio[p] || t[i]->emulated) continue;
      uint32_t need = t[i]->required;
      if (prio[p] == DESERT_ISA_AVX2) need |= X86_AVX2 & ~DESERT_CPU_SSE42;
      if (prio[p] == DESERT_ISA_AVX512) need |= X86_ALL & ~DESERT_CPU_SSE42;
      if (prio[p] == DESERT_ISA_NEON) need |= DESERT_CPU_NEON;
      if ((f & need) == need)
        return prio[p] == DESERT_ISA_AVX512 ? desert_kernel_policy_table(desert_cpu_class_detected())
                                            : t[i];
    }
  return &desert_kernels_scalar;
}

static void expect_choice(const char *force, uint32_t f, const desert_kernels *want,
                          desert_override_outcome want_oc) {
  desert_override_outcome oc = (desert_override_outcome)99;
  const desert_kernels *got = desert_dispatch_choose(force, f, &oc);
  if (got != want || oc != want_oc) {
    print_error("force=%s features=0x%x: expected %s/%d, got %s/%d\n",
                force != NULL ? force : "(unset)", (unsigned)f, want->name, (int)want_oc,
                got != NULL ? got->name : "NULL", (int)oc);
    fail();
  }
}

static void test_force_parsing(void **state) {
  (void)state;
  static const uint32_t feature_sets[] = {0,
                                          DESERT_CPU_SSE42,
                                          X86_AVX2,
                                          X86_AVX2 & ~DESERT_CPU_BMI2, /* AVX2 without BMI2 */
                                          X86_ALL,
                                          X86_ALL & ~DESERT_CPU_AVX512VBMI2,
                                          DESERT_CPU_AVX512F | DESERT_CPU_AVX512BW, /* no AVX2 */
                                          DESERT_CPU_NEON,
                                          0xffffffffu};
  for (size_t s = 0; s < DESERT_TEST_COUNT(feature_sets); s++) {
    const uint32_t f = feature_sets[s];
    const desert_kernels *autoc = expected_auto(f);
    /* No override. */
    expect_choice(NULL, f, autoc, DESERT_OVERRIDE_NONE);
    expect_choice("", f, autoc, DESERT_OVERRIDE_NONE);
    expect_choice("auto", f, autoc, DESERT_OVERRIDE_NONE);
    expect_choice("AuTo", f, autoc, DESERT_OVERRIDE_NONE);
    /* Unknown names: automatic choice, never a crash. */
    expect_choice("bogus", f, autoc, DESERT_OVERRIDE_UNKNOWN_NAME);
    expect_choice("avx", f, autoc, DESERT_OVERRIDE_UNKNOWN_NAME);
    expect_choice(" avx2", f, autoc, DESERT_OVERRIDE_UNKNOWN_NAME);
    expect_choice("sse4.2", f, autoc, DESERT_OVERRIDE_UNKNOWN_NAME);
    expect_choice("a-very-long-value-that-is-longer-than-the-info-buffer-of-32", f, autoc,
                  DESERT_OVERRIDE_UNKNOWN_NAME);
    /* Scalar always applies. */
    expect_choice("scalar", f, &desert_kernels_scalar, DESERT_OVERRIDE_APPLIED);
    expect_choice("Scalar", f, &desert_kernels_scalar, DESERT_OVERRIDE_APPLIED);
    /* The others apply when compiled and runnable with these features. */
    const desert_kernels *t[8];
    const size_t n = compiled_tables(t);
    static const desert_isa others[] = {DESERT_ISA_AVX2, DESERT_ISA_AVX512, DESERT_ISA_NEON};
    for (size_t o = 0; o < 3; o++) {
      const desert_kernels *table = NULL;
      for (size_t i = 0; i < n; i++)
        if (t[i]->isa == others[o] && !is_avx512_twin(t[i])) table = t[i];
      int runs = 0;
      if (table != NULL) {
        uint32_t need = table->required;
        if (others[o] == DESERT_ISA_AVX2) need |= X86_AVX2 & ~DESERT_CPU_SSE42;
        if (others[o] == DESERT_ISA_AVX512) need |= X86_ALL & ~DESERT_CPU_SSE42;
        if (others[o] == DESERT_ISA_NEON) need |= DESERT_CPU_NEON;
        runs = table->emulated || (f & need) == need;
      }
      const char *name = desert_isa_name(others[o]);
      if (runs)
        expect_choice(name, f, table, DESERT_OVERRIDE_APPLIED);
      else
        expect_choice(name, f, autoc, DESERT_OVERRIDE_UNAVAILABLE);
    }
  }
  /* Specific facts, whatever the build. */
  expect_choice("avx2", 0, &desert_kernels_scalar, DESERT_OVERRIDE_UNAVAILABLE);
  expect_choice("avx512", 0, &desert_kernels_scalar, DESERT_OVERRIDE_UNAVAILABLE);
  expect_choice("scalar", X86_ALL, &desert_kernels_scalar, DESERT_OVERRIDE_APPLIED);
  assert_ptr_equal(desert_dispatch_choose("bogus", 0, NULL), &desert_kernels_scalar);
#if DESERT_HAVE_AVX2
  expect_choice(NULL, X86_AVX2, &desert_kernels_avx2, DESERT_OVERRIDE_NONE);
  expect_choice("avx2", X86_AVX2 & ~DESERT_CPU_BMI2, &desert_kernels_scalar,
                DESERT_OVERRIDE_UNAVAILABLE);
#endif
#if DESERT_HAVE_AVX512
  /* With every AVX-512 feature (and the OS state, which desert_cpu_features
   * folds into AVX512F) automatic choice ranks AVX-512 first, unless the
   * build switched that off; one missing feature falls back to AVX2. */
  expect_choice("avx512", X86_ALL, &desert_kernels_avx512, DESERT_OVERRIDE_APPLIED);
#if DESERT_AUTO_AVX512
  expect_choice(NULL, X86_ALL, desert_kernel_policy_table(desert_cpu_class_detected()),
                DESERT_OVERRIDE_NONE);
#else
  expect_choice(NULL, X86_ALL, &desert_kernels_avx2, DESERT_OVERRIDE_NONE);
#endif
  static const uint32_t one_missing[] = {DESERT_CPU_AVX512F, DESERT_CPU_AVX512BW,
                                         DESERT_CPU_AVX512VL, DESERT_CPU_AVX512VBMI,
                                         DESERT_CPU_AVX512VBMI2};
  for (size_t i = 0; i < DESERT_TEST_COUNT(one_missing); i++)
    expect_choice(NULL, X86_ALL & ~one_missing[i], &desert_kernels_avx2, DESERT_OVERRIDE_NONE);
#endif
#if DESERT_HAVE_AVX512EMU
  /* The emulated twin is never chosen, nor reachable by name. */
  expect_choice("avx512emu", X86_AVX2, &desert_kernels_avx2, DESERT_OVERRIDE_UNKNOWN_NAME);
  expect_choice(NULL, X86_AVX2, &desert_kernels_avx2, DESERT_OVERRIDE_NONE);
#endif
#if DESERT_HAVE_NEON && DESERT_NEON_EMULATED
  /* Emulated NEON is forced fine but never chosen automatically. */
  expect_choice("neon", 0, &desert_kernels_neon, DESERT_OVERRIDE_APPLIED);
  expect_choice(NULL, DESERT_CPU_NEON, &desert_kernels_scalar, DESERT_OVERRIDE_NONE);
#endif
}

/* ---- process default and info ------------------------------------------------------------------
 */

static void test_default_and_info(void **state) {
  (void)state;
  const desert_kernels *d = desert_kernels_default();
  assert_non_null(d);
  assert_ptr_equal(desert_kernels_default(), d);
  assert_int_equal(desert_active_isa(), d->isa);
  desert_dispatch_info info;
  memset(&info, 0xff, sizeof info);
  desert_dispatch_info_get(&info);
  desert_dispatch_info_get(NULL); /* no crash */
  assert_int_equal(info.active, d->isa);
  assert_int_equal(info.cpu_features, desert_cpu_features());
  assert_int_equal(info.active_emulated, d->emulated);
  for (unsigned isa = 0; isa < DESERT_ISA_COUNT_; isa++) {
    assert_int_equal((info.compiled_isas >> isa) & 1u,
                     (unsigned)desert_isa_compiled((desert_isa)isa));
    assert_int_equal((info.runnable_isas >> isa) & 1u,
                     (unsigned)desert_isa_runnable((desert_isa)isa));
  }
  assert_true(info.compiled_isas & (1u << DESERT_ISA_SCALAR));
  assert_true(info.runnable_isas & (1u << DESERT_ISA_SCALAR));
  assert_int_equal(info.compiled_isas >> DESERT_ISA_COUNT_, 0);
  /* The recorded outcome is what the decision function says for this
   * process's environment, and the text is the variable (truncated). */
  const char *env = getenv("DESERT_FORCE_ISA");
  desert_override_outcome oc;
  const desert_kernels *want = desert_dispatch_choose(env, desert_cpu_features(), &oc);
  assert_ptr_equal(d, want);
  assert_int_equal(info.outcome, oc);
  char text[sizeof info.override_value];
  snprintf(text, sizeof text, "%s", env != NULL ? env : "");
  assert_string_equal(info.override_value, text);
  print_message("active %s, DESERT_FORCE_ISA='%s', outcome %d\n", desert_isa_name(info.active),
                info.override_value, (int)info.outcome);
}

/* ---- CPU features
 * -------------------------------------------------------------------------------- */

static void test_cpu_features(void **state) {
  (void)state;
  const uint32_t f = desert_cpu_features();
  assert_int_equal(desert_cpu_features(), f);
  assert_int_equal(f & (1u << 31), 0); /* the cache marker never leaks */
  char names[256];
  const size_t need = desert_cpu_feature_names(f, names, sizeof names);
  assert_int_equal(need, strlen(names));
  print_message("cpu features 0x%x: %s\n", (unsigned)f, names);
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  assert_int_equal((f & DESERT_CPU_SSE42) != 0, __builtin_cpu_supports("sse4.2") != 0);
  assert_int_equal((f & DESERT_CPU_POPCNT) != 0, __builtin_cpu_supports("popcnt") != 0);
  /* The compiler runtime also checks OS support (XCR0) for AVX state. */
  assert_int_equal((f & DESERT_CPU_AVX2) != 0, __builtin_cpu_supports("avx2") != 0);
  assert_int_equal((f & DESERT_CPU_AVX512F) != 0, __builtin_cpu_supports("avx512f") != 0);
  assert_int_equal((f & DESERT_CPU_AVX512BW) != 0, __builtin_cpu_supports("avx512bw") != 0);
  assert_int_equal((f & DESERT_CPU_AVX512VL) != 0, __builtin_cpu_supports("avx512vl") != 0);
  /* DESERT_CPU_BMI2 means BMI1 + BMI2 + LZCNT (see cpu_features.c). */
  if (f & DESERT_CPU_BMI2)
    assert_true(__builtin_cpu_supports("bmi2") && __builtin_cpu_supports("bmi"));
  if (!__builtin_cpu_supports("bmi2")) assert_int_equal(f & DESERT_CPU_BMI2, 0);
  assert_int_equal(f & DESERT_CPU_NEON, 0);
#elif defined(__aarch64__)
  assert_true(f & DESERT_CPU_NEON);
#endif
}

/* ---- CPU classes and the kernel policy ---------------------------------------------------
 * Fake cpuid facts of each class go through the classifier and the
 * dispatch decision; the expected slot choices are pinned here, written out
 * independently of kernel_policy.c, so changing the policy means changing
 * this test too (docs/kernel-policy.md says where the figures live). */

/* One character per slot in DESERT_KERNEL_SLOTS order: '2' = AVX2 kernel,
 * '5' = AVX-512 kernel. Groups: bswap16/32/64, var_u32/i32 encode,
 * var_u32/i32 decode, utf8_validate, utf16_len_from_utf8, utf8_to_utf16,
 * utf8_len_from_utf16, utf16_to_utf8, utf8_len_from_latin1, latin1_to_utf8,
 * utf8_to_latin1. */
#define ROW_ALL_AVX2 "222" "22" "22" "2" "2" "2" "2" "2" "2" "2" "2"
#define ROW_AMD "222" "55" "55" "5" "2" "5" "5" "5" "5" "5" "5"
#define ROW_ZEN4 "222" "55" "25" "5" "2" "5" "5" "5" "5" "5" "5"
#define ROW_INTEL "222" "55" "25" "2" "2" "2" "5" "5" "2" "5" "5"

typedef struct fake_cpu {
  const char *what;
  const char *vendor; /* NULL: no cpuid */
  uint32_t eax;       /* leaf 1 signature */
  uint32_t features;
  desert_cpu_class want_class;
  const char *want_name;
  const char *row;
} fake_cpu;

static const fake_cpu fake_cpus[] = {
    {"Sapphire Rapids 8Fh", "GenuineIntel", 0x000806f8u, X86_ALL, DESERT_CPU_CLASS_INTEL_SPR,
     "intel-spr", ROW_INTEL},
    {"Emerald Rapids CFh", "GenuineIntel", 0x000c06f2u, X86_ALL, DESERT_CPU_CLASS_INTEL_SPR,
     "intel-spr", ROW_INTEL},
    {"Granite Rapids ADh", "GenuineIntel", 0x000a06d1u, X86_ALL, DESERT_CPU_CLASS_INTEL_SPR,
     "intel-spr", ROW_INTEL},
    {"Ice Lake server 6Ah", "GenuineIntel", 0x000606a6u, X86_ALL, DESERT_CPU_CLASS_INTEL_ICL,
     "intel-icl", ROW_INTEL},
    {"Ice Lake client 7Eh", "GenuineIntel", 0x000706e5u, X86_ALL, DESERT_CPU_CLASS_INTEL_ICL,
     "intel-icl", ROW_INTEL},
    {"Tiger Lake 8Ch", "GenuineIntel", 0x000806c1u, X86_ALL, DESERT_CPU_CLASS_INTEL_ICL,
     "intel-icl", ROW_INTEL},
    {"Rocket Lake A7h", "GenuineIntel", 0x000a0671u, X86_ALL, DESERT_CPU_CLASS_INTEL_ICL,
     "intel-icl", ROW_INTEL},
    {"Skylake-SP 55h (no VBMI)", "GenuineIntel", 0x00050657u,
     X86_ALL & ~(DESERT_CPU_AVX512VBMI | DESERT_CPU_AVX512VBMI2), DESERT_CPU_CLASS_INTEL_OTHER,
     "intel-other", ROW_INTEL},
    {"Alder Lake 97h", "GenuineIntel", 0x00090672u, X86_AVX2, DESERT_CPU_CLASS_INTEL_OTHER,
     "intel-other", ROW_INTEL},
    {"Intel family 13h", "GenuineIntel", 0x00400f00u, X86_ALL, DESERT_CPU_CLASS_INTEL_OTHER,
     "intel-other", ROW_INTEL},
    {"Zen 4 Genoa", "AuthenticAMD", 0x00a10f11u, X86_ALL, DESERT_CPU_CLASS_AMD_ZEN4, "amd-zen4",
     ROW_ZEN4},
    {"Zen 3 (family 19h, no AVX-512)", "AuthenticAMD", 0x00a00f11u, X86_AVX2,
     DESERT_CPU_CLASS_AMD_OTHER, "amd-other", ROW_AMD},
    {"Zen 5 Turin", "AuthenticAMD", 0x00b00f21u, X86_ALL, DESERT_CPU_CLASS_AMD_ZEN5, "amd-zen5",
     ROW_AMD},
    {"Zen 2 Rome", "AuthenticAMD", 0x00830f10u, X86_AVX2, DESERT_CPU_CLASS_AMD_OTHER, "amd-other",
     ROW_AMD},
    {"Hygon family 18h", "HygonGenuine", 0x00900f22u, X86_ALL, DESERT_CPU_CLASS_UNKNOWN, "unknown",
     ROW_ALL_AVX2},
    {"Zhaoxin", "CentaurHauls", 0x000006f1u, X86_ALL, DESERT_CPU_CLASS_UNKNOWN, "unknown",
     ROW_ALL_AVX2},
    {"no cpuid", NULL, 0, 0, DESERT_CPU_CLASS_UNKNOWN, "unknown", ROW_ALL_AVX2},
};

#if DESERT_HAVE_AVX2 && DESERT_HAVE_AVX512
typedef void (*any_fn)(void);
/* The slot pointers of a table, in DESERT_KERNEL_SLOTS order. */
static void slot_ptrs(const desert_kernels *t, any_fn out[15]) {
  size_t k = 0;
#define SLOT_PTR(slot) out[k++] = (any_fn)t->slot;
  DESERT_KERNEL_SLOTS(SLOT_PTR)
#undef SLOT_PTR
}
#endif

static void test_cpu_classes_and_policy(void **state) {
  (void)state;
  assert_int_equal(desert_kernel_slot_count(), 15);
  for (size_t c = 0; c < DESERT_TEST_COUNT(fake_cpus); c++) {
    const fake_cpu *fc = &fake_cpus[c];
    print_message("%s\n", fc->what);
    const desert_cpu_class cls = desert_cpu_classify(fc->vendor, fc->eax, fc->features);
    assert_int_equal(cls, fc->want_class);
    assert_string_equal(desert_cpu_class_str(cls), fc->want_name);
    assert_int_equal(strlen(fc->row), 15);
    for (size_t i = 0; i < 15; i++)
      assert_int_equal(desert_kernel_policy_isa(cls, i),
                       fc->row[i] == '5' ? DESERT_ISA_AVX512 : DESERT_ISA_AVX2);
    /* Streaming copies past 1 MiB of output on Zen 4 only, the one class
     * they were measured on (docs/kernel-policy.md, "Copies"). */
    assert_int_equal(desert_copy_policy_stream_after(cls),
                     cls == DESERT_CPU_CLASS_AMD_ZEN4 ? (size_t)1 << 20 : 0);
#if DESERT_HAVE_AVX2 && DESERT_HAVE_AVX512
    desert_override_outcome oc;
    const desert_kernels *t = desert_dispatch_choose_class(NULL, fc->features, cls, &oc);
    assert_int_equal(oc, DESERT_OVERRIDE_NONE);
    /* The whole tables stay reachable by name, whatever the class. */
    if ((fc->features & X86_ALL) == X86_ALL)
      assert_ptr_equal(desert_dispatch_choose_class("avx512", fc->features, cls, NULL),
                       &desert_kernels_avx512);
    if ((fc->features & X86_AVX2) == X86_AVX2)
      assert_ptr_equal(desert_dispatch_choose_class("avx2", fc->features, cls, NULL),
                       &desert_kernels_avx2);
    if ((fc->features & X86_ALL) != X86_ALL || !DESERT_AUTO_AVX512) {
      /* No AVX-512 table: the policy does not apply. */
      assert_ptr_equal(t, desert_dispatch_choose_class(NULL, fc->features,
                                                       DESERT_CPU_CLASS_UNKNOWN, NULL));
      continue;
    }
    any_fn got[15], v2[15], v5[15];
    slot_ptrs(t, got);
    slot_ptrs(&desert_kernels_avx2, v2);
    slot_ptrs(&desert_kernels_avx512, v5);
    int any5 = 0, all5 = 1;
    for (size_t i = 0; i < 15; i++) {
      if (got[i] != (fc->row[i] == '5' ? v5[i] : v2[i]))
        print_error("%s: slot %s is not the %s kernel\n", fc->what, desert_kernel_slot_name(i),
                    fc->row[i] == '5' ? "AVX-512" : "AVX2");
      assert_true(got[i] == (fc->row[i] == '5' ? v5[i] : v2[i]));
      any5 |= v5[i] != v2[i] && fc->row[i] == '5';
      all5 &= v5[i] == v2[i] || fc->row[i] == '5';
    }
    /* A row that is one whole table gives that table itself (Zen 5 keeps
     * the AVX-512 table it always had), a mixed row a composed AVX-512 table. */
    if (all5)
      assert_ptr_equal(t, &desert_kernels_avx512);
    else if (!any5)
      assert_ptr_equal(t, &desert_kernels_avx2);
    else {
      assert_int_equal(t->isa, DESERT_ISA_AVX512);
      assert_string_equal(t->name, "avx512");
      assert_int_equal(t->required, desert_kernels_avx512.required);
      assert_int_equal(t->emulated, 0);
      /* built once: the same table every time */
      assert_ptr_equal(desert_dispatch_choose_class(NULL, fc->features, cls, NULL), t);
    }
    if (fc->want_class == DESERT_CPU_CLASS_AMD_ZEN5)
      assert_ptr_equal(t, &desert_kernels_avx512);
    if (fc->want_class == DESERT_CPU_CLASS_AMD_ZEN4) assert_true(t != &desert_kernels_avx512);
    if (fc->want_class == DESERT_CPU_CLASS_UNKNOWN) assert_ptr_equal(t, &desert_kernels_avx2);
#endif
  }
  /* Out of range classes and slots. */
  assert_int_equal(desert_kernel_policy_isa(DESERT_CPU_CLASS_COUNT_, 0), DESERT_ISA_COUNT_);
  assert_int_equal(desert_kernel_policy_isa(DESERT_CPU_CLASS_UNKNOWN, 15), DESERT_ISA_COUNT_);
  assert_string_equal(desert_cpu_class_str(DESERT_CPU_CLASS_COUNT_), "unknown");
  /* This machine: the public name is the detected class's, and the class is
   * what the classifier says for this CPU's own cpuid. */
  assert_string_equal(desert_cpu_class_name(), desert_cpu_class_str(desert_cpu_class_detected()));
  print_message("this CPU: class %s\n", desert_cpu_class_name());
#if defined(__x86_64__) || defined(__i386__)
  {
    unsigned a = 0, b = 0, c = 0, d = 0;
    char vendor[12];
    assert_true(__get_cpuid(0, &a, &b, &c, &d));
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    assert_true(__get_cpuid(1, &a, &b, &c, &d));
    assert_int_equal(desert_cpu_class_detected(),
                     desert_cpu_classify(vendor, a, desert_cpu_features()));
    /* and the copy policy in force is this class's */
    assert_int_equal(atomic_load(&desert_copy_stream_after),
                     desert_copy_policy_stream_after(desert_cpu_class_detected()));
  }
#else
  assert_int_equal(desert_cpu_class_detected(), DESERT_CPU_CLASS_UNKNOWN);
#endif
}

static void test_cpu_feature_names(void **state) {
  (void)state;
  char buf[128];
  assert_int_equal(desert_cpu_feature_names(0, buf, sizeof buf), 0);
  assert_string_equal(buf, "");
  const uint32_t f = DESERT_CPU_SSE42 | DESERT_CPU_AVX2 | DESERT_CPU_NEON;
  assert_int_equal(desert_cpu_feature_names(f, buf, sizeof buf), strlen("sse4.2 avx2 neon"));
  assert_string_equal(buf, "sse4.2 avx2 neon");
  /* snprintf-like truncation, always terminated, full length returned. */
  memset(buf, 'x', sizeof buf);
  assert_int_equal(desert_cpu_feature_names(f, buf, 5), 16);
  assert_string_equal(buf, "sse4");
  assert_int_equal(buf[5], 'x');
  assert_int_equal(desert_cpu_feature_names(f, buf, 1), 16);
  assert_string_equal(buf, "");
  assert_int_equal(desert_cpu_feature_names(f, NULL, 0), 16);
  assert_int_equal(desert_cpu_feature_names(0xffffffffu, NULL, 0),
                   strlen("sse4.2 popcnt bmi2 avx2 avx512f avx512bw avx512vl avx512vbmi "
                          "avx512vbmi2 neon"));
}

/* ---- version / options (status names and kinds: test_codec_api.c)
 * ---------------------------------------------------------------------- */

static void test_version_and_options(void **state) {
  (void)state;
  assert_int_equal(desert_version_number(), DESERT_VERSION_NUMBER);
  assert_string_equal(desert_version_string(), DESERT_VERSION_STRING);
  char v[32];
  snprintf(v, sizeof v, "%d.%d.%d", DESERT_VERSION_MAJOR, DESERT_VERSION_MINOR,
           DESERT_VERSION_PATCH);
  assert_string_equal(desert_version_string(), v);
  desert_options o;
  memset(&o, 0x5a, sizeof o);
  desert_options_init(&o);
  assert_int_equal(o.struct_size, sizeof o);
  assert_null(o.allocator.alloc);
  assert_null(o.allocator.free);
  assert_null(o.allocator.opaque);
  assert_int_equal(o.isa, DESERT_ISA_AUTO);
  assert_int_equal(o.flags, 0);
  assert_int_equal(o.compression, DESERT_COMPRESSION_RAW);
  assert_int_equal(o.compression_level, -1);
  assert_int_equal(o.max_length, 0);
  assert_int_equal(o.max_collection, 0);
  assert_int_equal(o.max_depth, 0);
  assert_int_equal(o.max_decompressed, 0);
  desert_options_init(NULL); /* no crash */
}

/* The counting allocator of test/support is used by other suites; check
 * that it counts and injects failures as documented. */
static void test_counting_allocator(void **state) {
  (void)state;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  const desert_allocator a = ca.allocator;
  void *p = a.alloc(a.opaque, 10);
  void *q = a.alloc(a.opaque, 30);
  assert_non_null(p);
  assert_non_null(q);
  assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
  memset(p, 1, 10);
  assert_int_equal(ca.allocs, 2);
  assert_int_equal(ca.live_blocks, 2);
  assert_int_equal(ca.live_bytes, 40);
  a.free(a.opaque, p, 10);
  a.free(a.opaque, NULL, 0);
  assert_int_equal(ca.frees, 1);
  assert_int_equal(ca.live_bytes, 30);
  assert_int_equal(ca.peak_bytes, 40);
  a.free(a.opaque, q, 31); /* wrong size: counted */
  assert_int_equal(ca.bad_frees, 1);
  assert_int_equal(ca.live_blocks, 0);
  desert_counting_allocator_fail_after(&ca, 1);
  void *r = a.alloc(a.opaque, 5);
  assert_non_null(r);
  assert_null(a.alloc(a.opaque, 5));
  assert_null(a.alloc(a.opaque, 5));
  assert_int_equal(ca.failed, 2);
  desert_counting_allocator_fail_after(&ca, SIZE_MAX);
  void *s = a.alloc(a.opaque, 0);
  assert_non_null(s);
  a.free(a.opaque, r, 5);
  a.free(a.opaque, s, 0);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.total_bytes, 45);
  assert_int_equal(ca.bad_frees, 1);
}

static void test_hex_and_rng(void **state) {
  (void)state;
  uint8_t b[8];
  assert_int_equal(desert_hex_decode("0a 68 69", b, sizeof b), 3);
  assert_int_equal(b[0], 0x0a);
  assert_int_equal(b[2], 0x69);
  assert_int_equal(desert_hex_decode("FFee", b, sizeof b), 2);
  assert_int_equal(b[0], 0xff);
  assert_int_equal(desert_hex_decode("abc", b, sizeof b), SIZE_MAX);
  assert_int_equal(desert_hex_decode("zz", b, sizeof b), SIZE_MAX);
  assert_int_equal(desert_hex_decode("00 11 22", b, 2), SIZE_MAX);
  char h[16];
  const uint8_t x[] = {0x0a, 0x68, 0x69};
  assert_string_equal(desert_hex_encode(x, 3, h, sizeof h), "0a 68 69");
  assert_string_equal(desert_hex_encode(x, 3, h, 6), "0a...");
  /* Same seed, same sequence; streams differ. */
  desert_rng r1, r2;
  desert_rng_init(&r1, 42);
  desert_rng_init(&r2, 42);
  for (int i = 0; i < 10; i++) assert_int_equal(desert_rng_next(&r1), desert_rng_next(&r2));
  desert_rng_init(&r2, 43);
  assert_int_not_equal(desert_rng_next(&r1), desert_rng_next(&r2));
  for (int i = 0; i < 1000; i++) {
    assert_true(desert_rng_below(&r1, 7) < 7);
    const size_t v = desert_rng_range(&r1, 5, 9);
    assert_true(v >= 5 && v <= 9);
  }
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tables_complete),    cmocka_unit_test(test_runnable_list),
      cmocka_unit_test(test_kernel_slots),       cmocka_unit_test(test_required_default),
      cmocka_unit_test(test_isa_names),          cmocka_unit_test(test_force_parsing),
      cmocka_unit_test(test_default_and_info),   cmocka_unit_test(test_cpu_features),
      cmocka_unit_test(test_cpu_feature_names),  cmocka_unit_test(test_cpu_classes_and_policy),  cmocka_unit_test(test_version_and_options),
      cmocka_unit_test(test_counting_allocator), cmocka_unit_test(test_hex_and_rng),
  };
  const int failed = cmocka_run_group_tests_name("dispatch", tests, NULL, NULL);
  return failed == 0 && desert_test_check_required_isas() == 0 ? 0 : 1;
}
