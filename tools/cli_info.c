/* tools/cli_info.c — `desert info`: library version, detected CPU features,
 * the kernel tables compiled in and runnable here, the active one (and
 * whether it is NEON emulated through SIMDe), which ISA's kernel fills each
 * slot of the active table and which slots the AVX-512 table owns, and
 * what became of DESERT_FORCE_ISA. Everything comes from
 * desert_dispatch_info_get(), desert_cpu_class_name() and desert_kernel_slot_isa().
 * SPDX-License-Identifier: MIT */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include <desert.h>

#if defined(__aarch64__) || defined(_M_ARM64)
#define CLI_NEON_NATIVE 1
#else
#define CLI_NEON_NATIVE 0
#endif

void cli_help_info(FILE *out) {
  fprintf(out,
          "usage: %s info\n"
          "\n"
          "Prints the library version, the CPU features libdesert detected, the SIMD\n"
          "kernel tables compiled into the library and runnable on this CPU, the active\n"
          "table and how DESERT_FORCE_ISA was handled (an unknown or unavailable value\n"
          "falls back to automatic choice, is reported here and, by every command, in\n"
          "one warning line on standard error).\n",
          cli_progname);
}

static void print_isa_set(const char *label, uint32_t set) {
  printf("%-18s", label);
  int any = 0;
  for (int i = DESERT_ISA_SCALAR; i < DESERT_ISA_COUNT_; i++) {
    if (set & (1u << i)) {
      printf(" %s", desert_isa_name((desert_isa)i));
      if (i == DESERT_ISA_NEON && !CLI_NEON_NATIVE) {
        printf(" (emulated through SIMDe)");
      }
      any = 1;
    }
  }
  printf("%s\n", any ? "" : " (none)");
}

/* The slots of isa's table whose kernel is of ISA `owner`, on one line. */
static void print_slots(const char *label, desert_isa isa, desert_isa owner) {
  printf("%-18s", label);
  int any = 0;
  for (size_t i = 0; i < desert_kernel_slot_count(); i++) {
    if (desert_kernel_slot_isa(isa, i) != owner) continue;
    printf(" %s", desert_kernel_slot_name(i));
    any = 1;
  }
  printf("%s\n", any ? "" : " (none)");
}

static const char *outcome_text(desert_override_outcome o) {
  switch (o) {
  case DESERT_OVERRIDE_NONE:
    return "automatic choice";
  case DESERT_OVERRIDE_APPLIED:
    return "applied";
  case DESERT_OVERRIDE_UNKNOWN_NAME:
    return "unknown ISA name: automatic choice used";
  case DESERT_OVERRIDE_UNAVAILABLE:
    return "ISA not compiled in or not runnable on this CPU: automatic choice used";
  }
  return "unrecognised outcome";
}

int cli_cmd_info(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      cli_help_info(stdout);
      return CLI_EXIT_OK;
    }
    cli_error("info", "unexpected argument '%s' (see '%s info --help')", argv[i], cli_progname);
    return CLI_EXIT_USAGE;
  }

  desert_dispatch_info info;
  memset(&info, 0, sizeof info);
  desert_dispatch_info_get(&info);

  printf("%-18s %s (headers %s)\n", "libdesert:", desert_version_string(), DESERT_VERSION_STRING);

  char small[256];
  char *features = small;
  size_t need = desert_cpu_feature_names(info.cpu_features, small, sizeof small);
  if (need >= sizeof small) {
    features = malloc(need + 1);
    if (features == NULL) {
      cli_error("info", "out of memory");
      return CLI_EXIT_NOMEM;
    }
    desert_cpu_feature_names(info.cpu_features, features, need + 1);
  }
  printf("%-18s %s\n", "CPU features:", features[0] ? features : "(none detected)");
  if (features != small) {
    free(features);
  }

  /* The class the kernel policy chose the active table's slots for. */
  printf("%-18s %s\n", "CPU class:", desert_cpu_class_name());
  print_isa_set("compiled ISAs:", info.compiled_isas);
  print_isa_set("runnable ISAs:", info.runnable_isas);
  printf("%-18s %s\n", "active ISA:", desert_isa_name(info.active));
  printf("%-18s %s\n", "active emulated:",
         info.active_emulated ? "yes (NEON through SIMDe: for tests, not for speed)" : "no");
  /* Which ISA's kernel each slot of the active table runs (a table reuses
   * a narrower ISA's kernel where its own was not measured faster). */
  for (int i = DESERT_ISA_SCALAR; i < DESERT_ISA_COUNT_; i++) {
    char label[32];
    snprintf(label, sizeof label, "active %s:", desert_isa_name((desert_isa)i));
    int used = 0;
    for (size_t s = 0; s < desert_kernel_slot_count(); s++)
      used |= desert_kernel_slot_isa(DESERT_ISA_AUTO, s) == (desert_isa)i;
    if (used) print_slots(label, DESERT_ISA_AUTO, (desert_isa)i);
  }
  if (desert_isa_compiled(DESERT_ISA_AVX512)) {
    print_slots("AVX-512 slots:", DESERT_ISA_AVX512, DESERT_ISA_AVX512);
  }

  const char *raw = getenv("DESERT_FORCE_ISA");
  if (raw == NULL) {
    printf("%-18s (unset): %s\n", "DESERT_FORCE_ISA:", outcome_text(info.outcome));
  } else {
    /* The library keeps the value it read, truncated to its buffer. */
    const char *end = memchr(info.override_value, '\0', sizeof info.override_value);
    size_t kept = end ? (size_t)(end - info.override_value) : sizeof info.override_value;
    printf("%-18s \"%.*s\"%s: %s\n", "DESERT_FORCE_ISA:", (int)kept, info.override_value,
           strlen(raw) > kept ? " (truncated)" : "", outcome_text(info.outcome));
  }
  return CLI_EXIT_OK;
}
