/* tools/cli_encode.c — `desert encode --schema S.json [VALUE.json|-] [-o OUT]`:
 * reads a JSON value (docs/schema.md §11) and writes its desert bytes under
 * the schema document (docs/schema.md §2), raw or as hex text (--hex).
 * A root list or set is encoded one element at a time (each element's JSON
 * tree and values are dropped after it), so the peak is the input text,
 * the output and one element, not a tree of the whole value; any failure
 * there is reported by the whole-value path, so messages do not depend on
 * which path ran.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_schema.h"

void cli_help_encode(FILE *out) {
  fprintf(out,
          "usage: desert encode --schema SCHEMA.json [VALUE.json|-] [-o OUT|-] [--hex] [options]\n"
          "       desert encode --schema SCHEMA.json --stream [LINES.jsonl|-] [-o OUT|-]\n"
          "\n"
          "Writes the desert bytes of a JSON value (docs/schema.md §11) under a schema\n"
          "document (docs/schema.md §2). The value is read from VALUE.json or standard\n"
          "input; the bytes go to OUT or standard output.\n"
          "  -o, --output OUT  write to OUT instead of standard output\n"
          "  --hex             write lowercase hex text and a newline instead of bytes\n"
          "  --stream          the schema's root is a list or set: read JSON Lines, one\n"
          "                    element per line, and write the collection in the\n"
          "                    unknown-size form (01, 01 + element per line, 00), in\n"
          "                    bounded memory\n"
          "\n");
  cli_schema_help_options(out, false);
  fprintf(out, "\n"
               "Messages name the value by its path: $ is the root, $.a.b[3] a field b of a\n"
               "field a, element 3 (with --stream, $[N] is the element of line N+1 when no\n"
               "line is blank); JSON syntax errors by FILE:LINE:COLUMN.\n"
               "\n"
               "Exit status: 0 written; 1 the value is not JSON or does not fit the schema\n"
               "(BadValue and the other encode failures of docs/schema.md §14.4) or the\n"
               "schema is invalid; 2 usage; 3 a file could not be read or written; 4 out of\n"
               "memory.\n");
}

static int write_output(const char *path, const uint8_t *bytes, size_t n, bool hex) {
  errno = 0;
  FILE *f = path ? fopen(path, "wb") : stdout;
  if (!f) {
    cli_io_error("encode", errno, "cannot create '%s'", path);
    return CLI_EXIT_IO;
  }
  bool ok = true;
  errno = 0;
  if (hex) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n && ok; i++) {
      char two[2] = {digits[bytes[i] >> 4], digits[bytes[i] & 15]};
      ok = fwrite(two, 1, 2, f) == 2;
    }
    ok = ok && fputc('\n', f) != EOF;
  } else if (n) {
    ok = fwrite(bytes, 1, n, f) == n;
  }
  if (path) ok = fclose(f) == 0 && ok;
  if (!ok) {
    if (path)
      cli_io_error("encode", errno, "cannot write '%s'", path);
    else
      cli_io_error("encode", errno, "cannot write to standard output");
    return CLI_EXIT_IO;
  }
  return CLI_EXIT_OK;
}

/* Prints a failure of the JSON layer: "FILE: Kind: PATH: why" (its messages
 * start with the value path, "$..: why"; "$: why" for the root). */
static void report_encode_error(const char *file, const desert_json_error *err,
                                const desert_codec_limits *lim) {
  const char *m = err->message;
  char depth[300];
  if (err->status == DESERT_E_DEPTH) {
    /* "$.a: nesting deeper than N (limit desert_json_limits...)": the flag. */
    size_t n = strcspn(m, ":");
    snprintf(depth, sizeof depth, "%.*s: nesting deeper than %u (limit --max-depth %u)", (int)n, m,
             lim->max_depth, lim->max_depth);
    m = depth;
  }
  if (m[0] == '$')
    cli_error("encode", "%s: %s: %s", file, desert_json_error_kind_name(err), m);
  else
    cli_error("encode", "%s: %s: $: %s", file, desert_json_error_kind_name(err), m);
}

/* Skips one JSON value starting at p (no validation: strings and nesting
 * only); returns the end, or NULL if the text ends first. */
static const char *skip_value(const char *p, const char *end) {
  size_t depth = 0;
  for (; p < end; p++) {
    char c = *p;
    if (c == '"') {
      for (p++; p < end && *p != '"'; p++)
        if (*p == '\\') p++;
      if (p >= end) return NULL;
    } else if (c == '[' || c == '{') {
      depth++;
    } else if (c == ']' || c == '}') {
      if (depth == 0) return p; /* the enclosing array's end */
      depth--;
    } else if (c == ',' && depth == 0) {
      return p;
    }
  }
  return NULL;
}

static const char *skip_ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

/* The elements of a top-level JSON array: count them, or (w != NULL)
 * encode them. False when the text is not a plain array this scan can
 * split, or when an element fails: the caller then takes the whole-value
 * path, which reports exactly what is wrong. */
static bool for_elements(const char *text, size_t len, const desert_type *root, desert_writer *w,
                         desert_value_arena *arena, const desert_codec_limits *lim,
                         size_t *count) {
  const char *p = text, *end = text + len;
  p = skip_ws(p, end);
  if (p >= end || *p != '[') return false;
  p = skip_ws(p + 1, end);
  size_t n = 0;
  const desert_type *et = root->u.coll.element;
  desert_codec_limits elim = *lim;
  elim.max_depth = lim->max_depth > 1 ? lim->max_depth - 1 : 1;
  if (p < end && *p == ']') {
    p++;
  } else {
    for (;;) {
      const char *e = skip_value(p, end);
      if (!e) return false;
      const char *last = e;
      while (last > p && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\n' ||
                          last[-1] == '\r'))
        last--;
      if (last == p) return false; /* an empty element */
      if (w) {
        desert_json *j = NULL;
        desert_value *v = NULL;
        desert_type_error terr;
        desert_json_error jerr;
        if (desert_json_parse_depth(p, (size_t)(last - p), arena, elim.max_depth, &j, &jerr) ||
            desert_json_to_value(et, j, arena, &v, &jerr))
          return false;
        if (root->u.coll.unknown_form && desert_write_stream_item(w)) return false;
        if (desert_type_encode(w, et, v, &elim, &terr)) return false;
        desert_value_arena_reset(arena);
      }
      n++;
      p = e + 1;
      if (*e == ']') break;
      p = skip_ws(p, end);
    }
  }
  if (skip_ws(p, end) != end) return false;
  *count = n;
  return true;
}

/* Encodes a root list or set element by element into w. False: not done
 * (not such a root, or anything failed); w is then to be reset. */
static bool encode_elements(const desert_schema *s, const char *text, size_t len,
                            desert_writer *w, desert_value_arena *arena,
                            const desert_codec_limits *lim) {
  const desert_type *root = desert_type_resolve(s->root);
  if (!root || (root->kind != DESERT_TYPE_LIST && root->kind != DESERT_TYPE_SET) ||
      (root->kind == DESERT_TYPE_LIST && root->u.coll.has_length))
    return false;
  size_t n = 0;
  if (!for_elements(text, len, root, NULL, arena, lim, &n)) return false;
  if (n == 0 && root->u.coll.non_empty) return false;
  desert_writer_reset(w);
  if (root->u.coll.unknown_form ? desert_write_stream_begin(w) : desert_write_count(w, n))
    return false;
  if (!for_elements(text, len, root, w, arena, lim, &n)) return false;
  if (root->u.coll.unknown_form && desert_write_stream_end(w)) return false;
  return true;
}

int cli_cmd_encode(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      cli_help_encode(stdout);
      return CLI_EXIT_OK;
    }
  }
  cli_schema_args a;
  int rc = cli_schema_parse_args("encode", argc, argv, false, &a);
  if (rc) return rc;
  desert_value_arena *arena = NULL;
  if (desert_value_arena_create(NULL, &arena)) return CLI_EXIT_NOMEM;
  desert_schema *s = NULL;
  char *text = NULL;
  desert_writer *w = NULL;
  rc = cli_schema_load("encode", &a, arena, &s, NULL);
  if (!rc && a.stream) {
    rc = cli_stream_encode(&a, s);
  } else if (!rc) {
    size_t len = 0;
    rc = cli_schema_read_file("encode", a.input, &text, &len);
    const char *file = strcmp(a.input, "-") == 0 ? "standard input" : a.input;
    desert_codec_limits lim;
    cli_schema_limits(&a, len, &lim);
    desert_options o;
    if (!rc) {
      cli_schema_options(s, &a, &o);
      if (desert_writer_create(&o, &w)) rc = CLI_EXIT_NOMEM;
    }
    bool done = !rc && encode_elements(s, text, len, w, arena, &lim);
    if (!rc && !done) {
      desert_value_arena_reset(arena);
      desert_json *value = NULL;
      desert_json_error jerr;
      if (desert_json_parse_depth(text, len, arena, lim.max_depth, &value, &jerr)) {
        if (jerr.status == DESERT_E_NOMEM) {
          cli_error("encode", "out of memory parsing '%s'", file);
          rc = CLI_EXIT_NOMEM;
        } else {
          cli_json_syntax_error("encode", file, 0, &jerr);
          rc = CLI_EXIT_FAILURE;
        }
      }
      desert_json_limits jl = {0, lim.max_depth, 0};
      desert_json_error err;
      if (!rc && desert_json_encode_ex(s, value, w, arena, &jl, &err)) {
        report_encode_error(file, &err, &lim);
        rc = err.status == DESERT_E_NOMEM ? CLI_EXIT_NOMEM : CLI_EXIT_FAILURE;
      }
    }
    /* The input text is not needed any more: give it back before the
     * output is written. */
    free(text);
    text = NULL;
    if (!rc) {
      size_t n = 0;
      const uint8_t *bytes = desert_writer_data(w, &n);
      rc = write_output(a.output, bytes, n, a.hex);
    }
  }
  desert_writer_free(w);
  free(text);
  desert_schema_free(s);
  desert_value_arena_free(arena);
  return rc;
}
