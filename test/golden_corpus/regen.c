/* test/golden_corpus/regen.c — regenerates the binary files of the
 * top-level golden/ corpus. Built with the tests, NEVER run by CI: the
 * corpus exists to catch byte changes, so rewriting it must be a
 * deliberate act, reviewed as a diff (golden/README.md, "Regenerating").
 *
 *   build/ci/test/golden_corpus_regen [DIR]     (DIR: default the source golden/)
 *
 * Inputs are the hand-written JSON values and schema documents; each
 * golden/<name>.bin (and <name>.<version>.bin) is the JSON value encoded
 * under its schema with the document's options. zstd.bin and api_only.bin
 * come from the models of corpus_api.c through the hand-written API.
 * The cross-read JSON files (*.read-by-*.json) are hand-written and not
 * touched: the corpus suite checks them.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_api.h"
#include "corpus_files.h"
#include "desert/json.h"

static int fail(const char *what, const char *detail) {
  fprintf(stderr, "golden_corpus_regen: %s: %s\n", what, detail);
  return 1;
}

/* Writes what w holds to path; 0 on success. */
static int save(desert_writer *w, const char *path) {
  size_t n = 0;
  const uint8_t *bytes = desert_writer_data(w, &n);
  if (golden_corpus_write(path, bytes, n)) return fail(path, "cannot write");
  printf("%s: %zu bytes\n", path, n);
  return 0;
}

/* Encodes <prefix>.json under <prefix>.schema.json into <prefix>.bin. */
static int regen_schema_file(const char *dir, const char *prefix) {
  char sp[1024], jp[1024], bp[1024];
  golden_corpus_path(sp, sizeof sp, dir, prefix, ".schema.json", NULL);
  golden_corpus_path(jp, sizeof jp, dir, prefix, ".json", NULL);
  golden_corpus_path(bp, sizeof bp, dir, prefix, ".bin", NULL);
  size_t slen = 0, jlen = 0;
  uint8_t *stext = golden_corpus_read(sp, &slen);
  uint8_t *jtext = golden_corpus_read(jp, &jlen);
  desert_value_arena *arena = NULL;
  desert_schema *schema = NULL;
  desert_writer *w = NULL;
  int rc = 1;
  char msg[300];
  desert_json *doc = NULL, *value = NULL;
  desert_json_error err;
  desert_options o;
  if (!stext || !jtext) {
    rc = fail(prefix, "cannot read its .schema.json or .json");
  } else if (desert_value_arena_create(NULL, &arena)) {
    rc = fail(prefix, "out of memory");
  } else if (desert_json_parse((const char *)stext, slen, arena, &doc, msg, sizeof msg) ||
             desert_json_parse((const char *)jtext, jlen, arena, &value, msg, sizeof msg)) {
    rc = fail(prefix, msg);
  } else if (desert_schema_load(doc, NULL, &schema, &err)) {
    rc = fail(prefix, err.message);
  } else {
    desert_schema_options_apply(&schema->options, NULL, &o);
    if (desert_writer_create(&o, &w)) {
      rc = fail(prefix, "cannot create a writer");
    } else if (desert_json_encode(schema, value, w, arena, &err)) {
      rc = fail(prefix, err.message);
    } else {
      rc = save(w, bp);
    }
  }
  desert_writer_free(w);
  desert_schema_free(schema);
  desert_value_arena_free(arena);
  free(stext);
  free(jtext);
  return rc;
}

typedef desert_status (*api_writer_fn)(desert_writer *w, const void *model);

static desert_status write_zstd(desert_writer *w, const void *m) { return golden_zstd_write(w, m); }
static desert_status write_api_only(desert_writer *w, const void *m) {
  return golden_api_only_write(w, m);
}

static int regen_api_file(const char *dir, const char *name, api_writer_fn fn, const void *model) {
  char bp[1024];
  golden_corpus_path(bp, sizeof bp, dir, name, ".bin", NULL);
  desert_writer *w = NULL;
  if (desert_writer_create(NULL, &w)) return fail(name, "cannot create a writer");
  desert_status st = fn(w, model);
  int rc = st ? fail(name, desert_status_name(st)) : save(w, bp);
  desert_writer_free(w);
  return rc;
}

int main(int argc, char **argv) {
  if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
    fprintf(stderr, "usage: golden_corpus_regen [DIR]  (default %s)\n", DESERT_GOLDEN_CORPUS_DIR);
    return 2;
  }
  const char *dir = argc == 2 ? argv[1] : NULL;
  int rc = 0;
  for (size_t i = 0; i < golden_corpus_theme_count; i++)
    rc |= regen_schema_file(dir, golden_corpus_themes[i]);
  for (size_t i = 0; i < golden_corpus_version_count; i++) {
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s.%s", golden_corpus_versions[i].name,
             golden_corpus_versions[i].version);
    rc |= regen_schema_file(dir, prefix);
  }
  rc |= regen_api_file(dir, GOLDEN_CORPUS_ZSTD, write_zstd, &golden_zstd_model);
  rc |= regen_api_file(dir, GOLDEN_CORPUS_API_ONLY, write_api_only, &golden_api_only_model);
  return rc;
}
