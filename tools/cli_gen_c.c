/* tools/cli_gen_c.c — `desert gen-c [--prefix P] [--testee] -o DIR SCHEMA.json
 * [...]`: writes, per schema document, P.h and P.c with one C type per
 * definition and for the root, their codecs and JSON conversion; with
 * --testee also a conformance testee for the documents. The generator lives
 * in tools/gen_c/ (model, names, emitters).
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_schema.h"
#include "gen_c/gen_c.h"

void cli_help_gen_c(FILE *out) {
  fprintf(out,
          "usage: desert gen-c [--prefix P] [--testee] -o DIR SCHEMA.json [SCHEMA2.json ...]\n"
          "\n"
          "Generates C code from schema documents (docs/schema.md §2): for each document\n"
          "DIR/P.h and DIR/P.c with one C type per definition (P_<Name>) and for the root\n"
          "(P_root), and for each of them\n"
          "  desert_status P_encode_<T>(desert_writer *w, const P_<T> *value);\n"
          "  desert_status P_decode_<T>(desert_reader *r, P_<T> *out);\n"
          "  desert_status P_<T>_to_json(const P_<T> *value, desert_json_buf *out);\n"
          "  desert_status P_<T>_from_json(const desert_json *json, desert_value_arena *a,\n"
          "                                P_<T> *out, desert_json_error *err);\n"
          "(and _ex variants of encode/decode taking limits and a desert_type_error).\n"
          "Link the result with libdesert's desert::json.\n"
          "\n"
          "Options:\n"
          "  -o, --output DIR  directory for the files (must exist)\n"
          "  --prefix P        name prefix; default: the file name up to its first '.'\n"
          "                    (mangled); with several documents P_<that name>\n"
          "  --testee          also write DIR/<P>_testee.c (P: --prefix, the only\n"
          "                    document's prefix, or \"desert\"): a main() answering\n"
          "                    conformance requests (docs/schema.md §14) whose schema is one\n"
          "                    of the documents (canonical JSON), others with BadRequest\n"
          "\n"
          "C types: records are structs (an optional field f is `bool has_f; T f;`),\n"
          "enums a tag enum P_X_tag (constants P_X_tag_<Case>, the declaration index) plus\n"
          "an anonymous union of payloads, option {has_value, value}, either {is_right;\n"
          "union {left, right}}, try {is_success; union {failure, success}}, tuples\n"
          "{_1, _2, ...}, list/set {items, count}, map {items, count} of {key, value},\n"
          "strings desert_str and byte blocks desert_bytes (views), uuid desert_gen_uuid,\n"
          "dates and times the structs of desert/values.h. A reference to a definition\n"
          "that would make a struct contain itself is a pointer (`struct P_X *`).\n"
          "Nested anonymous types are named after their place: P_<Owner>_<field>,\n"
          "_elem, _key, _value, _entry, _left, _right, _success, _failure, _<Case>, _<i>.\n"
          "\n"
          "Names: a schema name becomes a C identifier by keeping bytes [A-Za-z0-9_],\n"
          "writing any other byte as _xHH (lowercase hex of the UTF-8 byte), putting '_'\n"
          "before a leading digit and '_' after a C or C++ keyword. Names that still\n"
          "clash in one scope get _2, _3, ... in document order; a generated function\n"
          "name that equals a type name (definitions X and encode_X) is an error.\n"
          "\n"
          "Exit status: 0 written; 1 a document is not JSON (FILE:LINE:COLUMN: why), is\n"
          "invalid (its BadSchema message) or cannot be generated (the message names its\n"
          "schema path) or its text could not be formatted; 2 usage; 3 a file could not\n"
          "be read or written (the message says why); 4 out of memory. No file is\n"
          "written for a document whose text could not be made in full.\n");
}

/* The default prefix: the file's base name up to its first '.', mangled. */
static char *default_prefix(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strcspn(base, ".");
  char *stem = malloc(n + 1);
  if (!stem) return NULL;
  memcpy(stem, base, n);
  stem[n] = '\0';
  char *m = gc_mangle(n ? stem : "schema");
  free(stem);
  return m;
}

/* Writes text to dir/name unless the file already holds exactly that text
 * (so build systems do not recompile unchanged output). */
static int write_file(const char *dir, const char *name, const char *ext, const gc_buf *b) {
  size_t n = strlen(dir) + strlen(name) + strlen(ext) + 2;
  char *path = malloc(n);
  if (!path) return CLI_EXIT_NOMEM;
  snprintf(path, n, "%s/%s%s", dir, name, ext);
  FILE *f = fopen(path, "rb");
  if (f) {
    char *old = malloc(b->len + 1);
    size_t got = old ? fread(old, 1, b->len + 1, f) : 0;
    bool same = old && got == b->len && memcmp(old, b->data, b->len) == 0;
    free(old);
    fclose(f);
    if (same) {
      free(path);
      return CLI_EXIT_OK;
    }
  }
  errno = 0;
  f = fopen(path, "wb");
  if (!f) {
    cli_io_error("gen-c", errno, "cannot create '%s'", path);
    free(path);
    return CLI_EXIT_IO;
  }
  bool ok = fwrite(b->data, 1, b->len, f) == b->len;
  ok = fclose(f) == 0 && ok;
  if (!ok) cli_io_error("gen-c", errno, "cannot write '%s'", path);
  free(path);
  return ok ? CLI_EXIT_OK : CLI_EXIT_IO;
}

/* A document that is not JSON: reported here with its line and column
 * (the generator's own parse would only give a character offset). */
static int check_json(const char *file, const char *text, size_t len) {
  desert_value_arena *a = NULL;
  if (desert_value_arena_create(NULL, &a)) return CLI_EXIT_NOMEM;
  desert_json *doc = NULL;
  desert_json_error err;
  int rc = CLI_EXIT_OK;
  if (desert_json_parse_ex(text, len, a, &doc, &err)) {
    if (err.status == DESERT_E_NOMEM) {
      rc = CLI_EXIT_NOMEM;
    } else {
      cli_json_syntax_error("gen-c", strcmp(file, "-") == 0 ? "standard input" : file, 0, &err);
      rc = CLI_EXIT_FAILURE;
    }
  }
  desert_value_arena_free(a);
  return rc;
}

/* An emitter's buffer failed (gc_buf): no file is written. A format that
 * failed is reported here; out of memory once, by cli_cmd_gen_c. */
static int emit_failed(const char *name, const char *ext, const gc_buf *b) {
  if (!b->why) return CLI_EXIT_NOMEM;
  cli_error("gen-c", "cannot generate %s%s: %s (no file written)", name, ext, b->why);
  return CLI_EXIT_FAILURE;
}

static int generate(const char *dir, gc_model *m) {
  gc_buf h = {0}, c = {0};
  int rc;
  if (!gc_emit_header(m, &h))
    rc = emit_failed(m->prefix, ".h", &h);
  else if (!gc_emit_source(m, &c))
    rc = emit_failed(m->prefix, ".c", &c);
  else if ((rc = write_file(dir, m->prefix, ".h", &h)) == CLI_EXIT_OK)
    rc = write_file(dir, m->prefix, ".c", &c);
  gc_buf_free(&h);
  gc_buf_free(&c);
  return rc;
}

int cli_cmd_gen_c(int argc, char **argv) {
  const char *dir = NULL, *prefix = NULL;
  bool testee = false;
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  size_t nfiles = 0;
  if (!files) return CLI_EXIT_NOMEM;
  int rc = CLI_EXIT_OK;
  for (int i = 1; i < argc && !rc; i++) {
    const char *s = argv[i];
    if (cli_is_help(s)) {
      cli_help_gen_c(stdout);
      free(files);
      return CLI_EXIT_OK;
    } else if (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0 || strcmp(s, "--prefix") == 0) {
      if (i + 1 >= argc) {
        cli_error("gen-c", "option '%s' needs a value", s);
        rc = CLI_EXIT_USAGE;
      } else if (strcmp(s, "--prefix") == 0) {
        prefix = argv[++i];
      } else {
        dir = argv[++i];
      }
    } else if (strcmp(s, "--testee") == 0) {
      testee = true;
    } else if (s[0] == '-' && s[1]) {
      static const char *const known[] = {"--output", "--prefix", "--testee", "--help"};
      cli_unknown("gen-c", "option", s, known, sizeof known / sizeof known[0]);
      rc = CLI_EXIT_USAGE;
    } else {
      files[nfiles++] = s;
    }
  }
  if (!rc && (!dir || nfiles == 0)) {
    cli_error("gen-c", "need -o DIR and at least one schema document (see 'desert gen-c --help')");
    rc = CLI_EXIT_USAGE;
  }
  if (!rc && prefix) {
    char *mp = gc_mangle(prefix);
    bool bad = !mp || strcmp(mp, prefix) != 0;
    free(mp);
    if (bad) {
      cli_error("gen-c", "--prefix '%s' is not a C identifier", prefix);
      rc = CLI_EXIT_USAGE;
    }
  }
  gc_model **models = rc ? NULL : calloc(nfiles, sizeof *models);
  if (!rc && !models) rc = CLI_EXIT_NOMEM;
  size_t built = 0;
  for (size_t i = 0; !rc && i < nfiles; i++) {
    char *text = NULL, *p = NULL;
    size_t len = 0;
    rc = cli_schema_read_file("gen-c", files[i], &text, &len);
    if (rc) break;
    char *stem = default_prefix(files[i]);
    if (stem && prefix && nfiles > 1) {
      size_t n = strlen(prefix) + strlen(stem) + 2;
      p = malloc(n);
      if (p) snprintf(p, n, "%s_%s", prefix, stem);
    } else if (stem) {
      p = gc_strdup(prefix ? prefix : stem);
    }
    free(stem);
    for (size_t k = 0; p && k < built; k++) {
      if (strcmp(models[k]->prefix, p) == 0) {
        cli_error("gen-c", "%s and %s would both use the prefix '%s' (rename one)",
                  models[k]->file, files[i], p);
        rc = CLI_EXIT_USAGE;
      }
    }
    gc_model *m = calloc(1, sizeof *m);
    if (!rc && (!p || !m)) rc = CLI_EXIT_NOMEM;
    if (!rc) rc = check_json(files[i], text, len);
    if (!rc && !gc_model_build(m, files[i], text, len, p)) {
      cli_error("gen-c", "%s: %s", files[i], m->error);
      rc = CLI_EXIT_FAILURE;
    }
    free(text);
    free(p);
    if (m) models[built++] = m;
    if (!rc) rc = generate(dir, m);
  }
  if (!rc && testee) {
    gc_buf t = {0};
    const char *tp = prefix ? prefix : nfiles == 1 ? models[0]->prefix : "desert";
    char *name = malloc(strlen(tp) + 8);
    if (name) snprintf(name, strlen(tp) + 8, "%s_testee", tp);
    if (!name)
      rc = CLI_EXIT_NOMEM;
    else if (!gc_emit_testee(models, built, &t))
      rc = emit_failed(name, ".c", &t);
    else
      rc = write_file(dir, name, ".c", &t);
    free(name);
    gc_buf_free(&t);
  }
  for (size_t k = 0; k < built; k++) {
    gc_model_free(models[k]);
    free(models[k]);
  }
  free(models);
  free(files);
  if (rc == CLI_EXIT_NOMEM) cli_error("gen-c", "out of memory");
  return rc;
}
