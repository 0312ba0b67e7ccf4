/* test/golden_corpus/corpus_files.h — the list of files of the top-level
 * golden/ corpus (golden/README.md) and whole-file helpers, shared by the
 * corpus suite (test/test_golden_corpus.c) and the regeneration program
 * (regen.c), so both walk exactly the same files.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TEST_GOLDEN_CORPUS_FILES_H
#define DESERT_TEST_GOLDEN_CORPUS_FILES_H

#include <stddef.h>
#include <stdint.h>

/* Themes described by a schema document: golden/<name>.bin,
 * <name>.schema.json and <name>.json. */
extern const char *const golden_corpus_themes[];
extern const size_t golden_corpus_theme_count;

/* Older schema versions of a theme: golden/<name>.<version>.{bin,schema.json,json},
 * plus the cross reads <name>.read-by-<version>.json (the current bytes
 * under the older schema) and <name>.<version>.read-by-current.json (the
 * older bytes under the current schema). */
typedef struct golden_corpus_version {
  const char *name;
  const char *version;
} golden_corpus_version;
extern const golden_corpus_version golden_corpus_versions[];
extern const size_t golden_corpus_version_count;

/* Bytes a cross read uses, derived by hand (docs/format.md §9.6): len (the
 * whole input) for every read except one. The current Person reading
 * version-0 evolution data takes the fast path and stops after the fields it
 * knows (id 8 bytes, "Bob" 4, age 4, after the version byte: 17), leaving
 * v0's trailing `cache` and `legacy` unread — the documented quirk of
 * removed fields. old_reads_new: the older schema reads the current bytes. */
size_t golden_corpus_cross_consumed(const char *name, const char *version, int old_reads_new,
                                    size_t len);

/* Files written through the hand-written API only (no schema document):
 * golden/<name>.bin, described in golden/README.md. */
#define GOLDEN_CORPUS_ZSTD "zstd"
#define GOLDEN_CORPUS_API_ONLY "api_only"

/* "<dir>/<a><b><c>" into out (cap bytes); returns out. The corpus folder
 * is DESERT_GOLDEN_CORPUS_DIR unless a non-NULL dir is given. */
const char *golden_corpus_path(char *out, size_t cap, const char *dir, const char *a,
                               const char *b, const char *c);
/* Reads a whole file into a malloc'd buffer (NUL-terminated, *len without
 * the NUL). NULL when it cannot be read. */
uint8_t *golden_corpus_read(const char *path, size_t *len);
/* Writes n bytes to path (replacing it); 0 on success. */
int golden_corpus_write(const char *path, const void *data, size_t n);

#endif /* DESERT_TEST_GOLDEN_CORPUS_FILES_H */
