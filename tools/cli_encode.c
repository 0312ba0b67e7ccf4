/* tools/cli_encode.c — `desert encode --schema S.json [VALUE.json|-] [-o OUT]`:
 * reads a JSON value (docs/schema.md §11) and writes its desert bytes under
 * the schema document (docs/schema.md §2), raw or as hex text (--hex).
 * The text goes through desert_json_encode_text, which walks records,
 * lists and the other composites in the text and makes a tree only of one
 * leaf value at a time, so the peak is the input text, the output and one
 * leaf, not a tree of the whole value; a failure is worded by the
 * whole-value path either way.
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
    if (!rc) {
      desert_json_limits jl = {0, lim.max_depth, 0};
      desert_json_error err;
      desert_status st = desert_json_encode_text(s, text, len, w, arena, &jl, &err);
      if (st == DESERT_E_NOMEM) {
        cli_error("encode", "out of memory encoding '%s'", file);
        rc = CLI_EXIT_NOMEM;
      } else if (st && err.kind == DESERT_JSON_ERR_BAD_REQUEST) {
        cli_json_syntax_error("encode", file, 0, &err);
        rc = CLI_EXIT_FAILURE;
      } else if (st) {
        report_encode_error(file, &err, &lim);
        rc = CLI_EXIT_FAILURE;
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
