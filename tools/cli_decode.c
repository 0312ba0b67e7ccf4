/* tools/cli_decode.c — `desert decode --schema S.json [FILE|-]`: reads desert
 * bytes (raw, or hex text with --hex) and prints the canonical JSON of the
 * value (docs/schema.md §11.5) and a newline; with --annotate, a labelled
 * hex dump instead (tools/cli_annotate.c). Limits come from --max-values and
 * --max-depth over the JSON layer's defaults. Bytes after the value
 * are an error unless --allow-trailing; a value whose header strings were
 * written the desert-scala <= 0.2.x way gets a hint to re-encode it with
 * --legacy-header-strings.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "cli_schema.h"

void cli_help_decode(FILE *out) {
  fprintf(out, "usage: desert decode --schema SCHEMA.json [FILE|-] [-o OUT|-] [--hex] [--annotate]\n"
               "                     [--allow-trailing] [options]\n"
               "       desert decode --schema SCHEMA.json --stream [FILE|-] [-o OUT|-]\n"
               "\n"
               "Reads one desert value from FILE or standard input under a schema document\n"
               "(docs/schema.md §2) and prints its canonical JSON (docs/schema.md §11.5) and a\n"
               "newline to OUT or standard output.\n"
               "  -o, --output OUT  write to OUT instead of standard output\n"
               "  --hex             the input is hex text (whitespace ignored)\n"
               "  --annotate        print a hex dump with the value path of every byte range\n"
               "  --stream          the schema's root is a list or set (either collection\n"
               "                    form): print one JSON line per element, in bounded memory\n"
               "  --allow-trailing  accept bytes after the value (without it they are an\n"
               "                    error: the data is of another schema or holds more)\n"
               "\n");
  cli_schema_help_options(out, true);
  fprintf(out, "\n"
               "Messages name the value by its path: $ is the root, $.a.b[3] a field b of a\n"
               "field a, element 3 (with --stream, $[N] is element N of the root).\n"
               "\n"
               "Exit status: 0 decoded; 1 the bytes do not decode (the error kind, input\n"
               "offset, value path and why are printed), bytes follow the value, or the\n"
               "schema is invalid; 2 usage; 3 a file could not be read or written; 4 out of\n"
               "memory.\n");
}

static int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Hex text to bytes in place; false on a bad digit or an odd count. */
static bool unhex(char *text, size_t *len) {
  size_t n = 0, digits = 0;
  int hi = 0;
  for (size_t i = 0; i < *len; i++) {
    char c = text[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    int v = hexv(c);
    if (v < 0) return false;
    if (digits++ % 2 == 0) {
      hi = v;
    } else {
      text[n++] = (char)(hi << 4 | v);
    }
  }
  *len = n;
  return digits % 2 == 0;
}

/* Prints why a decode failed: "FILE: Kind at offset N: PATH: why". The
 * kind is the one the JSON layer reports for decodes (docs/format.md §18). */
void cli_report_decode_error(const char *file, const desert_type *root, size_t element,
                             const desert_type_error *terr, desert_status st, size_t len,
                             const desert_codec_limits *lim, const desert_options *o) {
  desert_json_error je;
  memset(&je, 0, sizeof je);
  je.kind = DESERT_JSON_ERR_STATUS;
  je.status = st;
  je.has_offset = true;
  char path[300], why[300];
  cli_value_path(path, sizeof path, element, terr->path);
  if (st == DESERT_E_INPUT_ENDED && terr->offset <= len &&
      (terr->message[0] == '\0' || strstr(terr->message, "chunk") == NULL))
    cli_input_ended_detail(why, sizeof why, root, terr->path, terr->offset, len);
  else
    cli_limit_why(why, sizeof why, st, terr, lim, o);
  cli_error("decode", "%s: %s at offset %zu: %s: %s", file, desert_json_error_kind_name(&je),
            terr->offset, path, why);
}

/* "FILE: N trailing bytes after the value (offset M of L): ..." — an error,
 * or with --allow-trailing a note. Returns the exit code. */
int cli_check_trailing(const char *file, size_t used, size_t len, bool allow) {
  if (used >= len) return CLI_EXIT_OK;
  size_t n = len - used;
  if (allow) {
    cli_error("decode", "note: %s: %zu trailing byte%s after the value (offset %zu of %zu), "
              "allowed by --allow-trailing", file, n, n == 1 ? "" : "s", used, len);
    return CLI_EXIT_OK;
  }
  cli_error("decode",
            "%s: %zu trailing byte%s after the value (offset %zu of %zu): the data is of "
            "another schema or holds more than one value (--allow-trailing accepts them)",
            file, n, n == 1 ? "" : "s", used, len);
  return CLI_EXIT_FAILURE;
}

/* Whether data[0..len) re-encodes byte for byte only with legacy header
 * strings (docs/format.md §9.8): the form desert-scala <= 0.2.x wrote, which
 * a plain `desert encode` of the decoded JSON would not reproduce. */
static bool legacy_form(const desert_schema *s, desert_options o, const desert_value *v,
                        const uint8_t *data, size_t len) {
  if (o.flags & DESERT_OPT_LEGACY_HEADER_STRINGS) return false;
  bool legacy = false;
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) o.flags |= DESERT_OPT_LEGACY_HEADER_STRINGS;
    desert_writer *w = NULL;
    if (desert_writer_create(&o, &w)) return false;
    desert_type_error terr;
    desert_codec_limits lim = {o.max_depth, 0, 0};
    size_t n = 0;
    bool same = !desert_type_encode(w, s->root, v, &lim, &terr) &&
                (desert_writer_data(w, &n), n == len) &&
                memcmp(desert_writer_data(w, &n), data, len) == 0;
    desert_writer_free(w);
    if (same) {
      legacy = pass == 1;
      break;
    }
  }
  return legacy;
}

static const char *display_name(const char *path) {
  return strcmp(path, "-") == 0 ? "standard input" : path;
}

/* A root list or set element by element: each element's values are
 * dropped once its JSON is written, so the memory is the input and the
 * output text, not a tree of the whole value. The JSON is the canonical
 * text of the whole value ("[e0,e1,...]"). False when the root is not such
 * a collection or anything fails: the caller then takes the whole-value
 * path, which reports exactly what is wrong, as it always did. */
static bool decode_elements(const desert_schema *s, desert_reader *r, const uint8_t *data,
                            size_t len, desert_value_arena *arena,
                            const desert_codec_limits *lim, desert_json_buf *out, size_t *used) {
  const desert_type *root = desert_type_resolve(s->root);
  if (!root || (root->kind != DESERT_TYPE_LIST && root->kind != DESERT_TYPE_SET) ||
      (root->kind == DESERT_TYPE_LIST && root->u.coll.has_length))
    return false;
  if (desert_reader_begin(r, data, len)) return false;
  const desert_type *et = root->u.coll.element;
  /* The root is one level and one value node of the whole-value decode. */
  desert_codec_limits elim = *lim;
  elim.max_depth = lim->max_depth > 1 ? lim->max_depth - 1 : 1;
  desert_seq seq = {false, 0, 0, 0};
  if (desert_read_seq_begin(r, &seq)) return false;
  desert_json_buf_put(out, "[", 1);
  while (desert_read_seq_next(r, &seq)) {
    if (seq.index >= lim->max_values) return false;
    if (seq.index > 1) desert_json_buf_put(out, ",", 1);
    desert_value *v = NULL;
    desert_type_error terr;
    if (desert_type_decode(r, et, arena, &elim, &v, &terr)) return false;
    if (desert_json_write_value(out, et, v)) return false;
    desert_value_arena_reset(arena);
  }
  if (desert_reader_status(r) || (seq.index == 0 && root->u.coll.non_empty)) return false;
  desert_json_buf_put(out, "]", 1);
  if (out->failed) return false;
  *used = desert_reader_offset(r);
  return true;
}

/* The whole-value decode: canonical JSON of the value, then a newline. */
static int decode_value(const cli_schema_args *a, const desert_schema *s, bool has_removed,
                        const desert_options *o, desert_reader *r, const uint8_t *data,
                        size_t len, desert_value_arena *arena) {
  const char *file = display_name(a->input);
  desert_codec_limits lim;
  cli_schema_limits(a, len, &lim);
  /* Header strings of the desert-scala <= 0.2.x form are found by
   * re-encoding the whole value: only the whole-value path keeps it. */
  if (!has_removed) {
    desert_json_buf out = {0};
    size_t used = 0;
    if (decode_elements(s, r, data, len, arena, &lim, &out, &used)) {
      int rc = cli_check_trailing(file, used, len, a->allow_trailing);
      if (!rc) rc = cli_schema_redirect_stdout("decode", a->output);
      if (!rc) rc = cli_schema_put_line("decode", &out);
      desert_json_buf_free(&out);
      return rc;
    }
    desert_json_buf_free(&out);
    desert_value_arena_reset(arena);
  }
  desert_status st = desert_reader_begin(r, data, len);
  desert_value *v = NULL;
  desert_type_error terr;
  memset(&terr, 0, sizeof terr);
  if (st) {
    terr.offset = desert_reader_error_offset(r);
  } else {
    st = desert_type_decode(r, s->root, arena, &lim, &v, &terr);
    if (st && !terr.has_offset) terr.offset = desert_reader_error_offset(r);
  }
  if (st == DESERT_E_NOMEM) {
    cli_error("decode", "out of memory decoding '%s'", file);
    return CLI_EXIT_NOMEM;
  }
  if (st) {
    cli_report_decode_error(file, s->root, SIZE_MAX, &terr, st, len, &lim, o);
    return CLI_EXIT_FAILURE;
  }
  size_t used = desert_reader_offset(r);
  int rc = cli_check_trailing(file, used, len, a->allow_trailing);
  if (rc) return rc;
  desert_json_buf out = {0};
  if (desert_json_write_value(&out, s->root, v)) {
    desert_json_buf_free(&out);
    cli_error("decode", "out of memory writing the JSON of '%s'", file);
    return CLI_EXIT_NOMEM;
  }
  rc = cli_schema_redirect_stdout("decode", a->output);
  if (!rc) rc = cli_schema_put_line("decode", &out);
  desert_json_buf_free(&out);
  if (!rc && has_removed && legacy_form(s, *o, v, data, used))
    cli_error("decode",
              "note: %s has header strings in the form desert-scala <= 0.2.x wrote "
              "(docs/format.md §9.8): re-encode with `desert encode --legacy-header-strings` "
              "to get these bytes back; without it the bytes differ",
              file);
  return rc;
}

int cli_cmd_decode(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      cli_help_decode(stdout);
      return CLI_EXIT_OK;
    }
  }
  cli_schema_args a;
  int rc = cli_schema_parse_args("decode", argc, argv, true, &a);
  if (rc) return rc;
  desert_value_arena *arena = NULL;
  if (desert_value_arena_create(NULL, &arena)) return CLI_EXIT_NOMEM;
  desert_schema *s = NULL;
  char *data = NULL;
  desert_reader *r = NULL;
  bool has_removed = false;
  rc = cli_schema_load("decode", &a, arena, &s, &has_removed);
  if (!rc && a.stream) {
    rc = cli_stream_decode(&a, s);
    desert_schema_free(s);
    desert_value_arena_free(arena);
    return rc;
  }
  size_t len = 0;
  desert_options o;
  if (!rc) cli_schema_options(s, &a, &o);
  if (!rc && a.annotate && !a.hex) {
    /* Streamed from the file: the dump's memory does not grow with it. */
    rc = cli_annotate(&a, s, &o, NULL, 0);
    desert_schema_free(s);
    desert_value_arena_free(arena);
    return rc;
  }
  if (!rc) rc = cli_schema_read_file("decode", a.input, &data, &len);
  if (!rc && a.hex && !unhex(data, &len)) {
    cli_error("decode", "%s: not hex text (a character other than 0-9, a-f, A-F and "
              "whitespace, or an odd number of digits)", display_name(a.input));
    rc = CLI_EXIT_FAILURE;
  }
  if (!rc && a.annotate) {
    rc = cli_annotate(&a, s, &o, (const uint8_t *)data, len);
  } else if (!rc) {
    if (desert_reader_create(&o, &r))
      rc = CLI_EXIT_NOMEM;
    else
      rc = decode_value(&a, s, has_removed, &o, r, (const uint8_t *)data, len, arena);
  }
  desert_reader_free(r);
  free(data);
  desert_schema_free(s);
  desert_value_arena_free(arena);
  return rc;
}
