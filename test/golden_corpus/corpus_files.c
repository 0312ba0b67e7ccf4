/* test/golden_corpus/corpus_files.c — the corpus file list and whole-file
 * helpers of corpus_files.h.
 * SPDX-License-Identifier: MIT */
#include "corpus_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const golden_corpus_themes[] = {
    "primitives", "strings",      "time",          "collections", "enums",
    "evolution",  "options_rust", "options_scala", "compressed",
    /* desert-rust's benchmark models (golden/README.md). The v1 triples of
     * the one-way evolution_stress themes are listed here, not below: their
     * current bytes cannot be read by v1 (docs/format.md §9.6), so they have no
     * read-by-v1 file; test_oplog_models checks their *.v1.upgraded.json. */
    "oplog", "oplog_list", "golem_oplog", "golem_oplog_list", "evolution_stress",
    "evolution_stress_removed", "evolution_stress_removed.v1", "evolution_stress_transient",
    "evolution_stress_transient.v1", "evolution_stress_nested", "evolution_stress_nested.v1"};
const size_t golden_corpus_theme_count = sizeof golden_corpus_themes / sizeof *golden_corpus_themes;

const golden_corpus_version golden_corpus_versions[] = {
    {"evolution", "v0"}, {"evolution", "v3"}, {"enums", "v0"}, {"evolution_stress", "v1"}};
const size_t golden_corpus_version_count =
    sizeof golden_corpus_versions / sizeof *golden_corpus_versions;

size_t golden_corpus_cross_consumed(const char *name, const char *version, int old_reads_new,
                                    size_t len) {
  if (!old_reads_new && strcmp(name, "evolution") == 0 && strcmp(version, "v0") == 0) return 17;
  return len;
}

const char *golden_corpus_path(char *out, size_t cap, const char *dir, const char *a,
                               const char *b, const char *c) {
  snprintf(out, cap, "%s/%s%s%s", dir ? dir : DESERT_GOLDEN_CORPUS_DIR, a, b ? b : "",
           c ? c : "");
  return out;
}

uint8_t *golden_corpus_read(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  uint8_t *d = malloc(cap);
  while (d) {
    if (n + 1 >= cap) {
      uint8_t *nd = realloc(d, cap * 2);
      if (!nd) {
        free(d);
        d = NULL;
        break;
      }
      d = nd;
      cap *= 2;
    }
    size_t k = fread(d + n, 1, cap - n - 1, f);
    n += k;
    if (k == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (!d || bad) {
    free(d);
    return NULL;
  }
  d[n] = 0;
  *len = n;
  return d;
}

int golden_corpus_write(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = (n == 0 || fwrite(data, 1, n, f) == n);
  ok = fclose(f) == 0 && ok;
  return ok ? 0 : -1;
}
