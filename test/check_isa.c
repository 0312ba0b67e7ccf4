/* test/check_isa.c — checks, in a fresh process, what DESERT_FORCE_ISA did:
 * `check_isa <isa>` expects that ISA to be active (outcome APPLIED) when
 * this CPU can run it, and otherwise the automatic choice with outcome
 * UNAVAILABLE; `check_isa auto <none|unknown>` expects the automatic choice
 * with that outcome. `check_isa race` first lets 8 threads trigger feature
 * detection and dispatch at the same moment (run it under TSan) and checks
 * they agree. Prints the dispatch info; exit 0 = as expected.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* sched_yield */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/kernels.h"
#include "base/kernels.h"

static const char *outcome_name(desert_override_outcome o) {
  switch (o) {
  case DESERT_OVERRIDE_NONE:
    return "none";
  case DESERT_OVERRIDE_APPLIED:
    return "applied";
  case DESERT_OVERRIDE_UNKNOWN_NAME:
    return "unknown";
  case DESERT_OVERRIDE_UNAVAILABLE:
    return "unavailable";
  default:
    return "?";
  }
}

/* ---- concurrent first use ---------------------------------------------------------- */

#define THREADS 8
/* A start line made of atomics (no pthread_barrier_t: fewer moving parts
 * under emulators). */
static atomic_int g_ready, g_go;
static const desert_kernels *g_seen[THREADS];
static uint32_t g_seen_features[THREADS];
static desert_isa g_seen_active[THREADS];

static void *racer(void *arg) {
  const size_t i = (size_t)(uintptr_t)arg;
  atomic_fetch_add(&g_ready, 1);
  while (!atomic_load(&g_go)) sched_yield();
  /* Half start with detection, half with dispatch, so both caches race. */
  if (i % 2 == 0) {
    g_seen_features[i] = desert_cpu_features();
    g_seen[i] = desert_kernels_default();
  } else {
    g_seen[i] = desert_kernels_default();
    g_seen_features[i] = desert_cpu_features();
  }
  g_seen_active[i] = desert_active_isa();
  return NULL;
}

static int race_first_use(void) {
  pthread_t th[THREADS];
  size_t started = 0;
  for (; started < THREADS; started++)
    if (pthread_create(&th[started], NULL, racer, (void *)(uintptr_t)started) != 0) break;
  while (atomic_load(&g_ready) < (int)started) sched_yield();
  atomic_store(&g_go, 1);
  for (size_t i = 0; i < started; i++) pthread_join(th[i], NULL);
  if (started != THREADS) {
    fprintf(stderr, "check_isa race: could not start %d threads\n", THREADS);
    return 0;
  }
  for (size_t i = 0; i < THREADS; i++)
    if (g_seen[i] == NULL || g_seen[i] != g_seen[0] || g_seen_features[i] != g_seen_features[0] ||
        g_seen_active[i] != g_seen[i]->isa || g_seen[i] != desert_kernels_default() ||
        g_seen_features[i] != desert_cpu_features()) {
      fprintf(stderr, "check_isa race: thread %zu disagrees\n", i);
      return 0;
    }
  return 1;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "race") == 0) {
    /* Nothing may touch the library before the threads do. */
    const int ok = race_first_use();
    printf("%s: %d threads agree on %s\n", ok ? "PASS" : "FAIL", THREADS,
           desert_isa_name(desert_active_isa()));
    return ok ? 0 : 1;
  }
  if (argc < 2) {
    fprintf(stderr, "usage: check_isa <scalar|avx2|avx512|neon> | check_isa auto <none|unknown>"
                    " | check_isa race\n");
    return 2;
  }
  desert_dispatch_info info;
  desert_dispatch_info_get(&info);
  char feats[256];
  desert_cpu_feature_names(info.cpu_features, feats, sizeof feats);
  printf("DESERT_FORCE_ISA='%s' active=%s%s outcome=%s compiled=0x%x runnable=0x%x cpu=[%s]\n",
         info.override_value, desert_isa_name(info.active),
         info.active_emulated ? "(emulated)" : "", outcome_name(info.outcome),
         (unsigned)info.compiled_isas, (unsigned)info.runnable_isas, feats);

  const desert_isa automatic = desert_dispatch_choose(NULL, info.cpu_features, NULL)->isa;
  const desert_isa want = desert_isa_from_name(argv[1]);
  desert_isa want_active;
  desert_override_outcome want_outcome;
  if (want == DESERT_ISA_AUTO) {
    want_active = automatic;
    want_outcome = argc > 2 && strcmp(argv[2], "unknown") == 0 ? DESERT_OVERRIDE_UNKNOWN_NAME
                                                               : DESERT_OVERRIDE_NONE;
  } else if (want == DESERT_ISA_COUNT_) {
    fprintf(stderr, "check_isa: '%s' is not an ISA name\n", argv[1]);
    return 2;
  } else if (desert_isa_runnable(want)) {
    want_active = want;
    want_outcome = DESERT_OVERRIDE_APPLIED;
  } else {
    want_active = automatic;
    want_outcome = DESERT_OVERRIDE_UNAVAILABLE;
  }
  /* The variable must have been recorded as seen. */
  const char *env = getenv("DESERT_FORCE_ISA");
  char text[sizeof info.override_value];
  snprintf(text, sizeof text, "%s", env != NULL ? env : "");
  int ok = info.active == want_active && info.outcome == want_outcome &&
           strcmp(info.override_value, text) == 0 && desert_active_isa() == want_active;
  /* Whatever was asked, the active table must be runnable here. */
  ok = ok && desert_isa_runnable(info.active);
  printf("%s: expected active=%s outcome=%s\n", ok ? "PASS" : "FAIL", desert_isa_name(want_active),
         outcome_name(want_outcome));
  return ok ? 0 : 1;
}
