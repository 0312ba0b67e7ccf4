/* test/gen_c/test_gen_c_deep.c — code `desert gen-c` generates for types
 * nested as deep as it and the runtime allow (test/gen_c/deep_schema.cmake
 * writes the document, deep.schema.json, prefix deep, and the cases).
 * For each case (a type, reader and writer max_depth, the expected status,
 * error offset, bytes derived by hand from docs/format.md, and the value as
 * JSON):
 *  - the runtime types path (desert_json_to_value + desert_type_encode /
 *    desert_type_decode) gives exactly those bytes and status;
 *  - the generated encode, on the direct path (no limits) and on the
 *    value-tree path (_ex with limits), gives the same bytes or status;
 *  - the generated decode on both paths reads the bytes back (the value
 *    converts to the same JSON) or fails with the same status at the same
 *    offset; the recursive types are also walked to their deepest level.
 *   test_gen_c_deep CASES_FILE
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deep.h"

#include "gen_c_check.h"

/* The generated functions of one public type, through void pointers. */
typedef struct gen_type {
  const char *name;
  size_t size;
  const desert_type *(*type)(void);
  bool (*fast)(void);
  desert_status (*enc)(desert_writer *w, const void *v, const desert_codec_limits *l);
  desert_status (*dec)(desert_reader *r, void *v, const desert_codec_limits *l);
  desert_status (*from_json)(const desert_json *j, desert_value_arena *a, void *out);
  desert_status (*to_json)(const void *v, desert_json_buf *out);
} gen_type;

#define GEN_TYPE(T)                                                                             \
  static desert_status enc_##T(desert_writer *w, const void *v, const desert_codec_limits *l) { \
    return l ? deep_encode_##T##_ex(w, (const deep_##T *)v, l, NULL)                            \
             : deep_encode_##T(w, (const deep_##T *)v);                                         \
  }                                                                                             \
  static desert_status dec_##T(desert_reader *r, void *v, const desert_codec_limits *l) {       \
    return l ? deep_decode_##T##_ex(r, (deep_##T *)v, l, NULL)                                  \
             : deep_decode_##T(r, (deep_##T *)v);                                               \
  }                                                                                             \
  static desert_status from_##T(const desert_json *j, desert_value_arena *a, void *out) {       \
    return deep_##T##_from_json(j, a, (deep_##T *)out, NULL);                                   \
  }                                                                                             \
  static desert_status to_##T(const void *v, desert_json_buf *out) {                            \
    return deep_##T##_to_json((const deep_##T *)v, out);                                        \
  }

GEN_TYPE(OA)
GEN_TYPE(RA)
GEN_TYPE(MA)
GEN_TYPE(O)
GEN_TYPE(T)
GEN_TYPE(R)
GEN_TYPE(root)

#define GEN_ENTRY(name, T) \
  { name, sizeof(deep_##T), deep_##T##_type, deep_##T##_fast, enc_##T, dec_##T, from_##T, to_##T }

/* The root is the definition with the long names (deep_schema.cmake). */
static const gen_type types[] = {
    GEN_ENTRY("OA", OA), GEN_ENTRY("RA", RA), GEN_ENTRY("MA", MA),     GEN_ENTRY("O", O),
    GEN_ENTRY("T", T),   GEN_ENTRY("R", R),   GEN_ENTRY("Long", root),
};

static const gen_type *find_type(const char *name) {
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (strncmp(name, types[i].name, strlen(types[i].name)) == 0 &&
        (strcmp(types[i].name, "Long") == 0 || strcmp(name, types[i].name) == 0))
      return &types[i];
  return NULL;
}

/* The levels of a recursive value down to its last composite, and whether
 * that one is what the case says: None, the empty list, a record without
 * next. */
static size_t levels_of(const char *name, const void *v, bool *leaf_ok) {
  size_t n = 1;
  *leaf_ok = false;
  if (strcmp(name, "O") == 0) {
    const deep_O *o = v;
    for (; o->has_value && o->value; o = o->value) n++;
    *leaf_ok = !o->has_value;
  } else if (strcmp(name, "T") == 0) {
    const deep_T *t = v;
    for (; t->count == 1; t = &t->items[0]) n++;
    *leaf_ok = t->count == 0;
  } else if (strcmp(name, "R") == 0) {
    const deep_R *r = v;
    for (; r->has_next && r->next; r = r->next) n++;
    *leaf_ok = !r->has_next;
  } else {
    return 0;
  }
  return n;
}

static size_t unhex(const char *s, uint8_t *out) {
  size_t n = 0;
  for (; s[0] && s[1]; s += 2) {
    unsigned v;
    if (sscanf(s, "%2x", &v) != 1) break;
    out[n++] = (uint8_t)v;
  }
  return n;
}

static desert_status status_of(const char *s) {
  return strcmp(s, "OK") == 0      ? DESERT_OK
         : strcmp(s, "DEPTH") == 0 ? DESERT_E_DEPTH
                                   : DESERT_E_STATE;
}

typedef struct ctx {
  desert_options opt;
  desert_writer *w;
  desert_reader *r;
  desert_decode_arena *da;
  desert_value_arena *va;
} ctx;

/* Encodes through enc (the runtime when t is NULL) and checks status and bytes. */
static void check_encode(ctx *c, const char *what, desert_status st, const uint8_t *want,
                         size_t want_len, desert_status expect, const char *line) {
  size_t len = 0;
  const uint8_t *got = desert_writer_data(c->w, &len);
  if (!st) st = desert_writer_status(c->w);
  CHECK(st == expect, "%s: %s encode: status %d, want %d", line, what, (int)st, (int)expect);
  if (!expect && !st)
    CHECK(len == want_len && memcmp(got, want, len) == 0, "%s: %s encode: %zu bytes, want %zu",
          line, what, len, want_len);
}

static void run_case(char *line) {
  char *f[6];
  for (int i = 0; i < 6; i++) {
    f[i] = line;
    char *tab = strchr(line, i < 5 ? '\t' : '\n');
    if (!tab && i < 5) {
      CHECK(false, "malformed case line");
      return;
    }
    if (tab) {
      *tab = '\0';
      line = tab + 1;
    }
  }
  const gen_type *g = find_type(f[0]);
  CHECK(g != NULL, "no generated type for %s", f[0]);
  if (!g) return;
  char label[64];
  snprintf(label, sizeof label, "%.8s max_depth %s %s", f[0], f[1], f[2]);
  unsigned depth = (unsigned)strtoul(f[1], NULL, 10);
  desert_status expect = status_of(f[2]);
  long offset = strtol(f[3], NULL, 10);
  size_t hexlen = strlen(f[4]);
  uint8_t *want = malloc(hexlen / 2 + 1);
  size_t want_len = want ? unhex(f[4], want) : 0;
  const char *json = f[5];

  ctx c;
  memset(&c, 0, sizeof c);
  desert_options_init(&c.opt);
  c.opt.max_depth = depth;
  bool ok = want && desert_writer_create(&c.opt, &c.w) == DESERT_OK &&
            desert_reader_create(&c.opt, &c.r) == DESERT_OK &&
            desert_decode_arena_create(NULL, &c.da) == DESERT_OK &&
            desert_value_arena_create(NULL, &c.va) == DESERT_OK;
  CHECK(ok, "%s: setup", label);
  desert_json *j = NULL;
  desert_json_error jerr;
  /* values deeper than the JSON parser's default 256 levels */
  if (ok) ok = desert_json_parse_depth(json, strlen(json), c.va, 1024, &j, &jerr) == DESERT_OK;
  CHECK(ok, "%s: the case's JSON does not parse", label);
  const desert_type *t = ok ? g->type() : NULL;
  CHECK(!ok || t, "%s: no runtime type", label);
  CHECK(!ok || g->fast(), "%s: not on the direct path", label);
  desert_codec_limits limits; /* all 0: the defaults, on the value-tree path */
  memset(&limits, 0, sizeof limits);

  if (ok && t) {
    /* the runtime types path */
    desert_value *v = NULL;
    desert_status st = desert_json_to_value(t, j, c.va, &v, &jerr);
    CHECK(st == DESERT_OK, "%s: desert_json_to_value: %d %s", label, (int)st, jerr.message);
    if (!st) {
      desert_writer_reset(c.w);
      st = desert_type_encode(c.w, t, v, NULL, NULL);
      check_encode(&c, "runtime", st, want, want_len, expect, label);
    }
    desert_value *back = NULL;
    st = desert_reader_begin(c.r, want, want_len);
    if (!st) st = desert_type_decode(c.r, t, c.va, NULL, &back, NULL);
    CHECK(st == expect, "%s: runtime decode: status %d", label, (int)st);
    if (st && st == expect)
      CHECK(desert_reader_error_offset(c.r) == (size_t)offset, "%s: runtime decode offset %zu",
            label, desert_reader_error_offset(c.r));

    /* generated code, both paths */
    void *val = calloc(1, g->size), *out = calloc(1, g->size);
    st = val && out ? g->from_json(j, c.va, val) : DESERT_E_NOMEM;
    CHECK(st == DESERT_OK, "%s: generated from_json: %d", label, (int)st);
    for (int path = 0; !st && path < 2; path++) {
      const desert_codec_limits *l = path ? &limits : NULL;
      const char *pname = path ? "value-tree" : "direct";
      desert_writer_reset(c.w);
      check_encode(&c, pname, g->enc(c.w, val, l), want, want_len, expect, label);
      desert_decode_arena_reset(c.da);
      desert_status ds = desert_reader_begin(c.r, want, want_len);
      desert_reader_set_output_arena(c.r, c.da);
      memset(out, 0, g->size);
      if (!ds) ds = g->dec(c.r, out, l);
      CHECK(ds == expect, "%s: %s decode: status %d", label, pname, (int)ds);
      if (ds && ds == expect)
        CHECK(desert_reader_error_offset(c.r) == (size_t)offset, "%s: %s decode offset %zu", label,
              pname, desert_reader_error_offset(c.r));
      if (ds || expect) continue;
      CHECK(desert_reader_offset(c.r) == want_len, "%s: %s decode consumed %zu of %zu", label,
            pname, desert_reader_offset(c.r), want_len);
      desert_json_buf text = {0};
      desert_status js = g->to_json(out, &text);
      CHECK(js == DESERT_OK && text.len == strlen(json) && memcmp(text.data, json, text.len) == 0,
            "%s: %s decode: the value converts back to other JSON (%d)", label, pname, (int)js);
      desert_json_buf_free(&text);
      bool leaf_ok;
      size_t levels = levels_of(g->name, out, &leaf_ok);
      size_t want_levels = strcmp(g->name, "R") == 0 ? want_len / 2 : want_len;
      if (levels)
        CHECK(levels == want_levels && leaf_ok, "%s: %s decode: %zu levels, want %zu", label, pname,
              levels, want_levels);
    }
    free(val);
    free(out);
  }
  desert_value_arena_free(c.va);
  desert_decode_arena_free(c.da);
  desert_reader_free(c.r);
  desert_writer_free(c.w);
  free(want);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_gen_c_deep CASES_FILE\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "rb");
  if (!in) {
    fprintf(stderr, "test_gen_c_deep: cannot open %s\n", argv[1]);
    return 2;
  }
  size_t cap = 1 << 16, cases = 0;
  char *line = malloc(cap);
  size_t len = 0;
  int ch;
  while (line && (ch = fgetc(in)) != EOF) {
    if (len + 2 > cap) {
      char *bigger = realloc(line, cap *= 2);
      if (!bigger) break;
      line = bigger;
    }
    line[len++] = (char)ch;
    if (ch == '\n') {
      line[len] = '\0';
      run_case(line);
      cases++;
      len = 0;
    }
  }
  free(line);
  fclose(in);
  deep_cleanup();
  CHECK(cases >= 12, "only %zu cases", cases);
  if (failures) {
    fprintf(stderr, "test_gen_c_deep: %d of %zu checks failed\n", failures, checks);
    return 1;
  }
  printf("test_gen_c_deep: all %zu checks passed (%zu cases)\n", checks, cases);
  return 0;
}
