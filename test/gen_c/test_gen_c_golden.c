/* test/gen_c/test_gen_c_golden.c — the golden dataset through code that
 * `desert gen-c` generated from dataset1.schema.json (prefix golden_, see
 * test/gen_c.cmake):
 *   1. golden_decode_root reads all of dataset1.bin and golden_root_to_json
 *      prints exactly dataset1.json;
 *   2. golden_encode_root writes dataset1.bin again byte for byte with the
 *      legacy header-string option, and the 242,534-byte modern form
 *      without it (which decodes to dataset1.json again);
 *   3. golden_root_from_json(dataset1.json) encodes to dataset1.bin too;
 *   4. on mutated inputs (truncations, byte changes) the generated decoder
 *      reports the status and error offset of the runtime path
 *      (desert_type_decode under the same schema, loaded directly) and,
 *      where decoding succeeds, the same value and length: through the
 *      direct functions (no limits) and the value tree (with limits);
 *   5. first use from several threads at once: after golden_cleanup(),
 *      threads released together each decode dataset1.bin (the first call
 *      of each loads the embedded document under golden_init's guard) and
 *      re-encode it byte for byte.
 * Usage: test_gen_c_golden GOLDEN_DIR. Exit 0 when every check holds.
 * SPDX-License-Identifier: MIT */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "golden.h"

static int failures;
/* The root type of dataset1.schema.json loaded by the JSON layer directly:
 * the runtime path the generated decoder is compared with. */
static const desert_type *runtime_root;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      failures++;                                          \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                        \
      fputc('\n', stderr);                                 \
    }                                                      \
  } while (0)

static unsigned char *read_file(const char *dir, const char *name, size_t *len) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    unsigned char *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
    }
    buf = nb;
    cap *= 2;
  }
  fclose(f);
  *len = n;
  return buf;
}

/* The JSON text without trailing whitespace (the file ends in a newline). */
static size_t trimmed(const unsigned char *s, size_t n) {
  while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ')) n--;
  return n;
}

static desert_options golden_options(int legacy) {
  desert_schema_options doc = golden_schema()->options, req;
  desert_schema_options_parse(NULL, &req, NULL, 0); /* nothing given */
  req.legacy_header_strings = legacy;
  desert_options o;
  desert_schema_options_apply(&doc, &req, &o);
  return o;
}

/* Decodes data with the generated decoder and compares its JSON with want. */
static void decode_to_json(const unsigned char *data, size_t len, const unsigned char *want,
                           size_t want_len, const char *what) {
  desert_options o = golden_options(-1);
  desert_reader *r = NULL;
  desert_json_buf out = {0};
  CHECK(desert_reader_create(&o, &r) == DESERT_OK, "reader");
  golden_root v;
  desert_status st = desert_reader_begin(r, data, len);
  if (!st) st = golden_decode_root(r, &v);
  CHECK(st == DESERT_OK, "%s: decode status %d at %zu", what, (int)st,
        desert_reader_error_offset(r));
  if (!st) {
    CHECK(desert_reader_offset(r) == len, "%s: consumed %zu of %zu", what,
          desert_reader_offset(r), len);
    CHECK(golden_root_to_json(&v, &out) == DESERT_OK && !out.failed, "%s: to_json", what);
    CHECK(out.len == want_len && memcmp(out.data, want, want_len) == 0,
          "%s: JSON differs from dataset1.json (%zu vs %zu bytes)", what, out.len, want_len);
  }
  desert_json_buf_free(&out);
  desert_reader_free(r);
}

/* Encodes v with the legacy option on or off; returns a malloc'ed copy. */
static unsigned char *encode(const golden_root *v, int legacy, size_t *len) {
  desert_options o = golden_options(legacy);
  desert_writer *w = NULL;
  unsigned char *copy = NULL;
  *len = 0;
  if (desert_writer_create(&o, &w)) return NULL;
  desert_status st = golden_encode_root(w, v);
  CHECK(st == DESERT_OK, "encode (legacy %d): status %d", legacy, (int)st);
  if (!st) {
    const uint8_t *d = desert_writer_data(w, len);
    copy = malloc(*len ? *len : 1);
    if (copy && *len) memcpy(copy, d, *len);
  }
  desert_writer_free(w);
  return copy;
}

static void roundtrip(const unsigned char *bin, size_t bin_len, const unsigned char *json,
                      size_t json_len) {
  desert_options o = golden_options(-1);
  desert_reader *r = NULL;
  CHECK(desert_reader_create(&o, &r) == DESERT_OK, "reader");
  golden_root v;
  if (desert_reader_begin(r, bin, bin_len) || golden_decode_root(r, &v)) {
    CHECK(0, "decode dataset1.bin");
    desert_reader_free(r);
    return;
  }
  size_t n;
  unsigned char *legacy = encode(&v, 1, &n);
  CHECK(legacy && n == bin_len && memcmp(legacy, bin, n) == 0,
        "legacy re-encoding: %zu bytes, differs from dataset1.bin (%zu bytes)", n, bin_len);
  free(legacy);
  unsigned char *modern = encode(&v, 0, &n);
  CHECK(modern && n == 242534, "modern re-encoding: %zu bytes, not 242534", n);
  if (modern) decode_to_json(modern, n, json, json_len, "modern form");
  free(modern);
  desert_reader_free(r);

  /* From the JSON text, through the generated JSON conversion. */
  desert_value_arena *a = NULL;
  desert_json *j = NULL;
  char msg[256];
  desert_json_error err;
  CHECK(desert_value_arena_create(NULL, &a) == DESERT_OK, "arena");
  CHECK(desert_json_parse((const char *)json, json_len, a, &j, msg, sizeof msg) == DESERT_OK,
        "dataset1.json does not parse: %s", msg);
  if (j) {
    golden_root fj;
    desert_status st = golden_root_from_json(j, a, &fj, &err);
    CHECK(st == DESERT_OK, "from_json: %s", err.message);
    if (!st) {
      unsigned char *b = encode(&fj, 1, &n);
      CHECK(b && n == bin_len && memcmp(b, bin, n) == 0, "from_json then legacy encode differs");
      free(b);
    }
  }
  desert_value_arena_free(a);
}

/* One mutated input through the runtime path and a generated path: with
 * limits the generated code runs the type codec on its value tree, without
 * them (golden_root_fast()) the C-struct codec on its descriptors. */
static void compare_paths(const unsigned char *data, size_t len, desert_reader *r1,
                          desert_reader *r2, desert_value_arena *a, bool with_limits, size_t *ok,
                          size_t *failed) {
  static const desert_codec_limits limits = {200, (size_t)1 << 21, (size_t)64 << 10};
  const desert_codec_limits *lim = with_limits ? &limits : NULL;
  desert_type_error e1, e2;
  desert_value *v1 = NULL;
  golden_root v2;
  desert_value_arena_reset(a);
  desert_status s1 = desert_reader_begin(r1, data, len);
  if (!s1) s1 = desert_type_decode(r1, runtime_root, a, lim, &v1, &e1);
  desert_status s2 = desert_reader_begin(r2, data, len);
  if (!s2) s2 = golden_decode_root_ex(r2, &v2, lim, &e2);
  CHECK(s1 == s2, "mutated input (%zu bytes): runtime status %d, generated %d", len, (int)s1,
        (int)s2);
  if (s1 != s2) return;
  if (s1) {
    (*failed)++;
    CHECK(e1.has_offset == e2.has_offset && e1.offset == e2.offset,
          "mutated input: runtime offset %zu, generated %zu (status %d)", e1.offset, e2.offset,
          (int)s1);
    CHECK(desert_reader_error_offset(r1) == desert_reader_error_offset(r2),
          "mutated input: reader error offsets %zu vs %zu", desert_reader_error_offset(r1),
          desert_reader_error_offset(r2));
    return;
  }
  (*ok)++;
  CHECK(desert_reader_offset(r1) == desert_reader_offset(r2), "consumed %zu vs %zu",
        desert_reader_offset(r1), desert_reader_offset(r2));
  desert_json_buf j1 = {0}, j2 = {0};
  CHECK(desert_json_write_value(&j1, runtime_root, v1) == DESERT_OK, "runtime JSON");
  CHECK(golden_root_to_json(&v2, &j2) == DESERT_OK, "generated JSON");
  CHECK(j1.len == j2.len && memcmp(j1.data, j2.data, j1.len) == 0,
        "mutated input: the decoded values differ");
  desert_json_buf_free(&j1);
  desert_json_buf_free(&j2);
}

static void mutations(const unsigned char *bin, size_t len) {
  desert_options o = golden_options(-1);
  desert_reader *r1 = NULL, *r2 = NULL;
  desert_value_arena *a = NULL;
  unsigned char *m = malloc(len);
  if (!m || desert_reader_create(&o, &r1) || desert_reader_create(&o, &r2) ||
      desert_value_arena_create(NULL, &a)) {
    CHECK(0, "setup");
    goto done;
  }
  size_t ok = 0, failed = 0, runs = 0;
  CHECK(golden_root_fast(), "the golden root does not take the C-struct path");
  /* Truncations: every prefix of the first 256 bytes, then 200 spread out. */
  for (size_t cut = 0; cut < len; cut += cut < 256 ? 1 : len / 200 + 1, runs++)
    for (int lim = 0; lim < 2; lim++) compare_paths(bin, cut, r1, r2, a, lim, &ok, &failed);
  /* Byte changes at pseudo-random places (a fixed LCG: reproducible). */
  static const unsigned char values[] = {0x00, 0xff, 0x80, 0x7f, 0x01, 0x02};
  uint32_t x = 12345;
  for (int i = 0; i < 800; i++, runs++) {
    x = x * 1103515245u + 12345u;
    size_t at = (size_t)(x >> 8) % len;
    memcpy(m, bin, len);
    m[at] = i % 7 == 6 ? (unsigned char)(m[at] ^ 0x40) : values[i % 7 % 6];
    for (int lim = 0; lim < 2; lim++) compare_paths(m, len, r1, r2, a, lim, &ok, &failed);
  }
  printf("test_gen_c_golden: %zu mutated inputs, each with and without limits: %zu decodes, %zu "
         "failures, the same on the runtime and the generated path\n",
         runs, ok, failed);
  CHECK(failed > runs / 2, "too few mutated inputs fail (%zu of %zu): the check is weak", failed,
        runs);
done:
  desert_value_arena_free(a);
  desert_reader_free(r1);
  desert_reader_free(r2);
  free(m);
}

/* ---- 5. first use from several threads ---------------------------------------------- */

enum { N_THREADS = 4 };
typedef struct thread_job {
  const unsigned char *bin;
  size_t len;
  desert_options read, legacy; /* computed before golden_cleanup() */
  atomic_int *go;
  int ok; /* 1: decoded and re-encoded byte for byte */
} thread_job;

static int thread_main(void *arg) {
  thread_job *j = arg;
  while (!atomic_load(j->go)) thrd_yield(); /* all threads start together */
  desert_reader *r = NULL;
  desert_writer *w = NULL;
  golden_root v;
  size_t n = 0;
  if (desert_reader_create(&j->read, &r) || desert_writer_create(&j->legacy, &w)) goto done;
  if (desert_reader_begin(r, j->bin, j->len) || golden_decode_root(r, &v)) goto done;
  if (golden_encode_root(w, &v)) goto done;
  const uint8_t *d = desert_writer_data(w, &n);
  j->ok = n == j->len && memcmp(d, j->bin, n) == 0;
done:
  desert_writer_free(w);
  desert_reader_free(r);
  return 0;
}

static void threads(const unsigned char *bin, size_t len) {
  desert_options read = golden_options(-1), legacy = golden_options(1);
  golden_cleanup(); /* the threads' first calls load the document again */
  atomic_int go = 0;
  thread_job jobs[N_THREADS];
  thrd_t t[N_THREADS];
  int started = 0;
  for (int i = 0; i < N_THREADS; i++) {
    jobs[i] = (thread_job){bin, len, read, legacy, &go, 0};
    if (thrd_create(&t[i], thread_main, &jobs[i]) != thrd_success) break;
    started++;
  }
  CHECK(started == N_THREADS, "started %d of %d threads", started, N_THREADS);
  atomic_store(&go, 1);
  for (int i = 0; i < started; i++) {
    thrd_join(t[i], NULL);
    CHECK(jobs[i].ok, "thread %d: decode and legacy re-encoding of dataset1.bin failed", i);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_gen_c_golden GOLDEN_DIR\n");
    return 2;
  }
  size_t bin_len = 0, json_len = 0;
  unsigned char *bin = read_file(argv[1], "dataset1.bin", &bin_len);
  unsigned char *json = read_file(argv[1], "dataset1.json", &json_len);
  if (!bin || !json || golden_init() != DESERT_OK) {
    fprintf(stderr, "test_gen_c_golden: cannot read the dataset in %s\n", argv[1]);
    free(bin);
    free(json);
    return 1;
  }
  json_len = trimmed(json, json_len);
  size_t schema_len = 0;
  unsigned char *schema_text = read_file(argv[1], "dataset1.schema.json", &schema_len);
  desert_value_arena *sa = NULL;
  desert_json *doc = NULL;
  desert_schema *schema = NULL;
  char msg[256];
  if (!schema_text || desert_value_arena_create(NULL, &sa) ||
      desert_json_parse((const char *)schema_text, schema_len, sa, &doc, msg, sizeof msg) ||
      desert_schema_load(doc, NULL, &schema, NULL)) {
    fprintf(stderr, "test_gen_c_golden: cannot load dataset1.schema.json\n");
    return 1;
  }
  runtime_root = schema->root;
  decode_to_json(bin, bin_len, json, json_len, "dataset1.bin");
  roundtrip(bin, bin_len, json, json_len);
  mutations(bin, bin_len);
  threads(bin, bin_len);
  golden_cleanup();
  desert_schema_free(schema);
  desert_value_arena_free(sa);
  free(schema_text);
  free(bin);
  free(json);
  if (failures) {
    fprintf(stderr, "test_gen_c_golden: %d checks failed\n", failures);
    return 1;
  }
  printf("test_gen_c_golden: all checks passed\n");
  return 0;
}
