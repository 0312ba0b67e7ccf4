/* tools/cli_encode.c — `desert encode --schema S.json [VALUE.json|-] [-o OUT]`:
 * reads a JSON value (SCHEMA.md part 2) and writes its desert bytes under
 * the schema document (part 1), raw or as hex text (--hex).
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "cli_schema.h"

void cli_help_encode(FILE *out) {
  fprintf(out,
          "usage: desert encode --schema SCHEMA.json [VALUE.json|-] [-o OUT|-] [--hex] [options]\n"
          "       desert encode --schema SCHEMA.json --stream [LINES.jsonl|-] [-o OUT|-]\n"
          "\n"
          "Writes the desert bytes of a JSON value (SCHEMA.md part 2) under a schema\n"
          "document (SCHEMA.md part 1). The value is read from VALUE.json or standard\n"
          "input; the bytes go to OUT or standard output (--hex: as lowercase hex text\n"
          "and a newline).\n"
          "  --stream  the schema's root is a list or set: read JSON Lines, one element\n"
          "            per line, and write the collection in the unknown-size form\n"
          "            (01, 01 + element per line, 00), in bounded memory\n"
          "\n");
  cli_schema_help_options(out);
  fprintf(out, "\n"
               "Exit status: 0 written; 1 the value does not fit the schema (BadValue and the\n"
               "other encode failures of SCHEMA.md §3.4) or the schema is invalid; 2 usage;\n"
               "3 a file could not be read or written; 4 out of memory.\n");
}

static int write_output(const char *path, const uint8_t *bytes, size_t n, bool hex) {
  FILE *f = path ? fopen(path, "wb") : stdout;
  if (!f) {
    cli_error("encode", "cannot create '%s'", path);
    return CLI_EXIT_IO;
  }
  bool ok = true;
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
    cli_error("encode", "cannot write '%s'", path ? path : "standard output");
    return CLI_EXIT_IO;
  }
  return CLI_EXIT_OK;
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
  rc = cli_schema_load("encode", &a, arena, &s);
  if (!rc && a.stream) {
    rc = cli_stream_encode(&a, s);
  } else if (!rc) {
    size_t len;
    rc = cli_schema_read_file("encode", a.input, &text, &len);
    desert_json *value = NULL;
    char msg[300];
    if (!rc && desert_json_parse(text, len, arena, &value, msg, sizeof msg)) {
      cli_error("encode", "%s: not JSON: %s", a.input, msg);
      rc = CLI_EXIT_FAILURE;
    }
    desert_options o;
    if (!rc) {
      cli_schema_options(s, &a, &o);
      if (desert_writer_create(&o, &w)) rc = CLI_EXIT_NOMEM;
    }
    desert_json_error err;
    if (!rc && desert_json_encode(s, value, w, arena, &err)) {
      cli_error("encode", "%s: %s", desert_json_error_kind_name(&err), err.message);
      rc = err.status == DESERT_E_NOMEM ? CLI_EXIT_NOMEM : CLI_EXIT_FAILURE;
    }
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
