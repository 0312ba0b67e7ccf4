/* test/fuzz/make_schema_seeds.c — writes the seed inputs of the schema-layer
 * harnesses (corpus/types/, corpus/schema_json/; seed-* files) in their
 * input layouts: each fixed schema of fuzz_schema_util.c with its sample
 * value encoded through the library, the worked examples of ../shared/spec/SCHEMA.md
 * and a sample of the public conformance cases (schema documents with the
 * bytes of decode requests).
 * SPDX-License-Identifier: MIT
 *
 *   make_schema_seeds <corpus dir> [SCHEMA.md] [public-cases.jsonl]
 *                     (built as desert_fuzz_make_schema_seeds)
 *
 * Overwrites seed-* files only. Cases of the group "golden" are skipped:
 * nothing here is derived from the golden dataset. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_schema_util.h"

#define PER_GROUP 8 /* public cases kept per group */

static const char *root;
static int failures, written;

static void save(const char *target, const char *name, const uint8_t *p, size_t n) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", root, target);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/%s/seed-%s", root, target, name);
  FILE *f = fopen(path, "wb");
  if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
    fprintf(stderr, "make_schema_seeds: cannot write %s: %s\n", path, strerror(errno));
    failures++;
    return;
  }
  written++;
}

/* prefix bytes + text (+ NUL + bytes when bytes is not NULL). */
static void save_parts(const char *target, const char *name, const uint8_t *pre, size_t npre,
                       const char *text, size_t ntext, const uint8_t *bytes, size_t nbytes) {
  size_t n = npre + ntext + (bytes ? 1 + nbytes : 0);
  uint8_t *b = malloc(n ? n : 1);
  if (!b) abort();
  memcpy(b, pre, npre);
  if (ntext) memcpy(b + npre, text, ntext);
  if (bytes) {
    b[npre + ntext] = 0;
    if (nbytes) memcpy(b + npre + ntext + 1, bytes, nbytes);
  }
  save(target, name, b, n);
  free(b);
}

static int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Decodes a hex string; false if it is not one. */
static bool unhex(const char *h, size_t len, uint8_t *out) {
  if (len % 2) return false;
  for (size_t i = 0; i < len / 2; i++) {
    int a = hexv(h[2 * i]), b = hexv(h[2 * i + 1]);
    if (a < 0 || b < 0) return false;
    out[i] = (uint8_t)(a << 4 | b);
  }
  return true;
}

/* ---- the fixed schemas -------------------------------------------------------------------- */

static void fixed_seeds(void) {
  static const uint8_t sels[] = {0x00, 0x40, 0xbf};
  static const char *const sel_names[] = {"", "-traced", "-scala"};
  for (size_t i = 0; i < fzs_schema_count; i++) {
    const desert_schema *s = fzs_schema(i);
    const char *sample = fzs_schemas[i].sample;
    desert_value_arena *a = NULL;
    if (desert_value_arena_create(NULL, &a)) abort();
    desert_json *j = NULL;
    char msg[256];
    desert_json_error err;
    desert_value *v = NULL;
    if (desert_json_parse(sample, strlen(sample), a, &j, msg, sizeof msg) ||
        desert_json_to_value(s->root, j, a, &v, &err)) {
      fprintf(stderr, "make_schema_seeds: sample of %s: %s %s\n", fzs_schemas[i].name, msg,
              err.message);
      failures++;
      desert_value_arena_free(a);
      continue;
    }
    char name[128];
    for (size_t k = 0; k < sizeof sels; k++) {
      desert_options o;
      fzs_options(s, sels[k], &o);
      desert_writer *w = NULL;
      desert_type_error terr;
      if (desert_writer_create(&o, &w) || desert_type_encode(w, s->root, v, NULL, &terr)) {
        fprintf(stderr, "make_schema_seeds: sample of %s does not encode: %s %s\n",
                fzs_schemas[i].name, terr.path, terr.message);
        failures++;
      } else {
        size_t n = 0;
        const uint8_t *p = desert_writer_data(w, &n);
        uint8_t pre[2] = {(uint8_t)i, sels[k]};
        snprintf(name, sizeof name, "%s%s", fzs_schemas[i].name, sel_names[k]);
        /* types: [schema][options][bytes] */
        uint8_t *b = malloc(n + 2);
        if (!b) abort();
        memcpy(b, pre, 2);
        if (n) memcpy(b + 2, p, n);
        save("types", name, b, n + 2);
        free(b);
        if (k == 0) {
          /* schema_json schema mode: the document and the bytes */
          uint8_t m = 0x00;
          snprintf(name, sizeof name, "doc-%s", fzs_schemas[i].name);
          save_parts("schema_json", name, &m, 1, fzs_schemas[i].doc, strlen(fzs_schemas[i].doc), p,
                     n);
        }
      }
      desert_writer_free(w);
    }
    /* schema_json value mode: [01][schema][value text] */
    uint8_t pre[2] = {0x01, (uint8_t)i};
    snprintf(name, sizeof name, "value-%s", fzs_schemas[i].name);
    save_parts("schema_json", name, pre, 2, sample, strlen(sample), NULL, 0);
    desert_value_arena_free(a);
  }
}

/* ---- requests: the worked examples of ../shared/spec/SCHEMA.md and the public cases ---- */

/* One request object: its schema (and decode bytes) as a schema-mode seed. */
static void request_seed(const char *name, const desert_json *req) {
  if (!req || req->kind != DESERT_JSON_OBJECT) return;
  const desert_json *schema = desert_json_get(req, "schema");
  const desert_json *dec = desert_json_get(req, "decode");
  if (!schema) return;
  desert_json_buf t = {0};
  desert_json_print(&t, schema);
  uint8_t *bytes = NULL;
  size_t nbytes = 0;
  if (dec && dec->kind == DESERT_JSON_STRING) {
    bytes = malloc(dec->len / 2 + 1);
    if (!bytes) abort();
    if (unhex(dec->str, dec->len, bytes)) {
      nbytes = dec->len / 2;
    } else {
      free(bytes);
      bytes = NULL;
    }
  }
  if (t.len + nbytes <= 8192) {
    uint8_t m = 0x00;
    save_parts("schema_json", name, &m, 1, t.data, t.len, bytes, nbytes);
  }
  free(bytes);
  desert_json_buf_free(&t);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 65536;
      char *nb = realloc(buf, cap + 1);
      if (!nb) abort();
      buf = nb;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (!got) break;
  }
  fclose(f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

static void spec_seeds(const char *path) {
  size_t len = 0;
  char *text = slurp(path, &len);
  if (!text) {
    fprintf(stderr, "make_schema_seeds: %s: %s (skipped)\n", path, strerror(errno));
    return;
  }
  desert_value_arena *a = NULL;
  if (desert_value_arena_create(NULL, &a)) abort();
  int count = 0;
  for (char *line = text; line && *line;) {
    char *end = strchr(line, '\n');
    size_t n = end ? (size_t)(end - line) : strlen(line);
    if (n > 8 && strncmp(line, "{\"id\":", 6) == 0 && strstr(line, "\"schema\"") &&
        (size_t)(strstr(line, "\"schema\"") - line) < n) {
      desert_json *req = NULL;
      char msg[256];
      if (desert_json_parse(line, n, a, &req, msg, sizeof msg) == DESERT_OK) {
        const desert_json *id = desert_json_get(req, "id");
        char name[64];
        snprintf(name, sizeof name, "spec-E%.*s", id ? (int)id->len : 1, id ? id->str : "x");
        request_seed(name, req);
        count++;
      }
    }
    line = end ? end + 1 : NULL;
  }
  fprintf(stderr, "make_schema_seeds: %d SCHEMA.md examples\n", count);
  desert_value_arena_free(a);
  free(text);
}

static void case_seeds(const char *path) {
  size_t len = 0;
  char *text = slurp(path, &len);
  if (!text) {
    fprintf(stderr, "make_schema_seeds: %s: %s (skipped)\n", path, strerror(errno));
    return;
  }
  desert_value_arena *a = NULL;
  if (desert_value_arena_create(NULL, &a)) abort();
  struct {
    char group[32];
    int n;
  } groups[64];
  size_t ngroups = 0;
  int count = 0;
  for (char *line = text; line && *line;) {
    char *end = strchr(line, '\n');
    size_t n = end ? (size_t)(end - line) : strlen(line);
    desert_json *c = NULL;
    char msg[256];
    desert_value_arena_reset(a);
    if (n && desert_json_parse(line, n, a, &c, msg, sizeof msg) == DESERT_OK) {
      const desert_json *g = desert_json_get(c, "group");
      const desert_json *name = desert_json_get(c, "case");
      const desert_json *ex = desert_json_get(c, "exchanges");
      if (g && name && ex && g->kind == DESERT_JSON_STRING && ex->kind == DESERT_JSON_ARRAY &&
          strcmp(g->str, "golden") != 0) {
        size_t gi;
        for (gi = 0; gi < ngroups; gi++)
          if (strncmp(groups[gi].group, g->str, sizeof groups[gi].group - 1) == 0) break;
        if (gi == ngroups && ngroups < 64) {
          snprintf(groups[gi].group, sizeof groups[gi].group, "%s", g->str);
          groups[gi].n = 0;
          ngroups++;
        }
        if (gi < ngroups && groups[gi].n < PER_GROUP) {
          groups[gi].n++;
          for (size_t k = 0; k < ex->count; k++) {
            char sname[128];
            snprintf(sname, sizeof sname, "case-%s-%zu", name->str, k);
            request_seed(sname, desert_json_get(&ex->items[k], "request"));
          }
          count++;
        }
      }
    }
    line = end ? end + 1 : NULL;
  }
  fprintf(stderr, "make_schema_seeds: %d public cases\n", count);
  desert_value_arena_free(a);
  free(text);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <corpus dir> [SCHEMA.md] [public-cases.jsonl]\n", argv[0]);
    return 2;
  }
  root = argv[1];
  fixed_seeds();
  if (argc > 2) spec_seeds(argv[2]);
  if (argc > 3) case_seeds(argv[3]);
  printf("make_schema_seeds: %d files written, %d failures\n", written, failures);
  return failures ? 1 : 0;
}
