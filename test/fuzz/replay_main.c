/* test/fuzz/replay_main.c — plain replay driver: a main() that feeds every
 * file of the given directories (or the given files) to the harness's
 * LLVMFuzzerTestOneInput, so each harness also builds without libFuzzer
 * (gcc or clang, with or without sanitizers) as replay_<target> and ctest
 * replays the committed corpora.
 * SPDX-License-Identifier: MIT
 *
 *   replay_<target> [--golden FILE] [--mutations N] [--seed S] PATH...
 *
 * Each input is copied into a heap block of exactly its size, so ASan
 * catches a read one byte past the end. Directories are read in sorted name
 * order (not recursively). --golden additionally runs FILE itself and N
 * derived mutations of it (bit flips, byte inserts and deletes at seeded
 * random positions, deterministic for a seed), in memory: golden data is
 * never written into the corpus. A missing golden FILE prints a loud SKIP
 * and is not an error, unless DESERT_REQUIRE_GOLDEN=1 (then exit 1).
 * A failing input aborts (the harness's checks, sanitizers); the driver
 * prints the input's name first, so the log says which one. At the end it
 * prints "replay: N inputs, 0 failed".
 *
 * DESERT_TEST_EXPECT_ISA=<isa> (set by ctest with DESERT_FORCE_ISA): the
 * run must really use that ISA; if this CPU cannot run it the driver prints
 * a skip note and exits 77 (ctest SKIP_RETURN_CODE), unless the ISA is
 * listed in DESERT_TEST_REQUIRE_ISAS (then it fails). */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "desert/kernels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static size_t inputs;

static void run_buffer(const char *name, const uint8_t *data, size_t len) {
  uint8_t *copy = malloc(len ? len : 1);
  if (!copy) {
    fprintf(stderr, "replay: out of memory for %s\n", name);
    exit(1);
  }
  if (len) memcpy(copy, data, len);
  fprintf(stderr, "replay: %s (%zu bytes)\n", name, len);
  LLVMFuzzerTestOneInput(len ? copy : NULL, len);
  free(copy);
  inputs++;
}

/* Reads a whole file; NULL (errno set) on failure. */
static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 65536;
      uint8_t *nb = realloc(buf, ncap);
      if (!nb) {
        free(buf);
        fclose(f);
        errno = ENOMEM;
        return NULL;
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int err = ferror(f);
  fclose(f);
  if (err) {
    free(buf);
    errno = EIO;
    return NULL;
  }
  *len = n;
  return buf;
}

static int run_file(const char *path) {
  size_t len = 0;
  uint8_t *buf = slurp(path, &len);
  if (!buf) {
    fprintf(stderr, "replay: cannot read %s: %s\n", path, strerror(errno));
    return 1;
  }
  run_buffer(path, buf, len);
  free(buf);
  return 0;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "replay: cannot open %s: %s\n", dir, strerror(errno));
    return 1;
  }
  char **names = NULL;
  size_t count = 0, cap = 0;
  struct dirent *e;
  int rc = 0;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue; /* ".", "..", hidden files (.gitkeep) */
    if (count == cap) {
      cap = cap ? cap * 2 : 64;
      char **nn = realloc(names, cap * sizeof *names);
      if (!nn) {
        rc = 1;
        break;
      }
      names = nn;
    }
    size_t need = strlen(dir) + strlen(e->d_name) + 2;
    names[count] = malloc(need);
    if (!names[count]) {
      rc = 1;
      break;
    }
    snprintf(names[count], need, "%s/%s", dir, e->d_name);
    count++;
  }
  closedir(d);
  if (names) qsort(names, count, sizeof *names, cmp_names);
  for (size_t i = 0; i < count; i++) {
    struct stat st;
    if (!rc && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) rc = run_file(names[i]);
    free(names[i]);
  }
  free(names);
  return rc;
}

/* splitmix64: deterministic mutations for a given seed. */
static uint64_t next_rand(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static int run_golden(const char *path, unsigned long mutations, uint64_t seed) {
  size_t len = 0;
  uint8_t *buf = slurp(path, &len);
  if (!buf) {
    const char *req = getenv("DESERT_REQUIRE_GOLDEN");
    int required = req && strcmp(req, "1") == 0;
    fprintf(stderr,
            "\n*** SKIP: golden dataset not found: %s (%s) ***\n"
            "*** the golden replay did not run%s ***\n\n",
            path, strerror(errno), required ? "; DESERT_REQUIRE_GOLDEN=1: failing" : "");
    printf("SKIP: golden dataset not found: %s\n", path);
    return required ? 1 : 0;
  }
  run_buffer(path, buf, len);
  uint8_t *m = malloc(len + 1);
  if (!m) {
    free(buf);
    return 1;
  }
  uint64_t s = seed;
  for (unsigned long i = 0; i < mutations && len > 0; i++) {
    size_t n = len;
    memcpy(m, buf, len);
    size_t at = (size_t)(next_rand(&s) % len);
    unsigned kind = (unsigned)(next_rand(&s) % 3u);
    char name[96];
    if (kind == 0) { /* flip one bit */
      m[at] ^= (uint8_t)(1u << (next_rand(&s) % 8u));
    } else if (kind == 1) { /* insert one byte */
      memmove(m + at + 1, m + at, len - at);
      m[at] = (uint8_t)next_rand(&s);
      n = len + 1;
    } else { /* delete one byte */
      memmove(m + at, m + at + 1, len - at - 1);
      n = len - 1;
    }
    snprintf(name, sizeof name, "golden mutation %lu (%s at %zu)", i,
             kind == 0 ? "flip" : kind == 1 ? "insert" : "delete", at);
    run_buffer(name, m, n);
  }
  free(m);
  free(buf);
  return 0;
}

/* 0: go on; 77: skip; 1: fail. */
static int check_expected_isa(void) {
  const char *want = getenv("DESERT_TEST_EXPECT_ISA");
  if (!want || !*want) return 0;
  desert_isa isa = desert_isa_from_name(want);
  if (isa == DESERT_ISA_COUNT_) {
    fprintf(stderr, "replay: DESERT_TEST_EXPECT_ISA=%s is not an ISA name\n", want);
    return 1;
  }
  desert_dispatch_info info;
  desert_dispatch_info_get(&info);
  if (info.active == isa && info.outcome == DESERT_OVERRIDE_APPLIED) return 0;
  if (!desert_isa_runnable(isa)) {
    const char *req = getenv("DESERT_TEST_REQUIRE_ISAS");
    if (req && strstr(req, want)) {
      fprintf(stderr, "replay: required ISA %s cannot run here\n", want);
      return 1;
    }
    printf("SKIP: ISA %s is not runnable on this CPU\n", want);
    return 77;
  }
  fprintf(stderr, "replay: expected ISA %s, active %s\n", want, desert_isa_name(info.active));
  return 1;
}

int main(int argc, char **argv) {
  int isa_rc = check_expected_isa();
  if (isa_rc) return isa_rc;
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  const char *golden = NULL;
  unsigned long mutations = 32;
  uint64_t seed = 0x5eed;
  int rc = 0, paths = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--golden") == 0 && i + 1 < argc) {
      golden = argv[++i];
    } else if (strcmp(argv[i], "--mutations") == 0 && i + 1 < argc) {
      mutations = strtoul(argv[++i], NULL, 0);
    } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = (uint64_t)strtoull(argv[++i], NULL, 0);
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: %s [--golden FILE] [--mutations N] [--seed S] PATH...\n", argv[0]);
      return 2;
    } else {
      struct stat st;
      paths++;
      if (stat(argv[i], &st) != 0) {
        fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
        rc = 1;
      } else if (S_ISDIR(st.st_mode)) {
        rc |= run_dir(argv[i]);
      } else {
        rc |= run_file(argv[i]);
      }
    }
  }
  if (golden) rc |= run_golden(golden, mutations, seed);
  if (!paths && !golden) {
    fprintf(stderr, "usage: %s [--golden FILE] [--mutations N] [--seed S] PATH...\n", argv[0]);
    return 2;
  }
  printf("replay: %zu inputs, %d failed\n", inputs, rc ? 1 : 0);
  return rc;
}
