/* tools/cli_schema.c — helpers shared by `desert encode` and `desert decode`:
 * argument parsing (--schema, -o, --hex, --annotate, --allow-trailing and
 * the option flags of docs/schema.md §8, each accepted only by the
 * subcommand it affects), whole-file input and output with the operating
 * system's reason on failure, schema loading with readable errors.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "cli_schema.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Largest --max-depth: the codec and the JSON parser recurse once per level. */
#define CLI_MAX_DEPTH 2000u

void cli_schema_help_options(FILE *out, bool decode) {
  fprintf(out, "Limits (the defaults hold any valid input that fits in memory):\n");
  if (decode)
    fprintf(out, "  --max-values N                 value nodes of the decoded value (default\n"
                 "                                 %zu + %zu per input byte)\n",
            DESERT_JSON_DEFAULT_MAX_VALUES, DESERT_JSON_DEFAULT_VALUES_PER_BYTE);
  else
    fprintf(out, "  --max-values N                 accepted as for decode; JSON text holds no\n"
                 "                                 more values than bytes, so encode needs none\n");
  fprintf(out, "  --max-depth N                  nesting of values (default %u, at most %u)\n",
          DESERT_JSON_DEFAULT_MAX_DEPTH, CLI_MAX_DEPTH);
  if (decode)
    fprintf(out, "  --max-decompressed N           bytes of one inflated compressed block\n"
                 "                                 (default %zu)\n",
            DESERT_DEFAULT_MAX_DECOMPRESSED);
  fprintf(out, "\n"
               "Options of docs/schema.md §8 (override the document's \"options\"):\n"
               "  --scala-chars                  char values take 2 bytes (Scala)\n"
               "  --compression FLAVOUR          raw (default, desert-rust) or zlib (desert-scala)\n");
  if (decode)
    fprintf(out, "  --lenient-tags                 any non-zero tag byte means 01 (Scala reader)\n"
                 "  --lenient-varint               stop a var_u32 after 5 bytes (Scala reader)\n"
                 "  --option KEY=VALUE             any reader option by its schema name:\n"
                 "                                 scala_chars, compression, strict_tags,\n"
                 "                                 strict_varint (e.g. strict_tags=false)\n");
  else
    fprintf(out, "  --legacy-header-strings        header strings scoped as desert-scala <= 0.2.x\n"
                 "                                 wrote them: needed to re-encode such data byte\n"
                 "                                 for byte (docs/format.md §9.8; `desert decode`\n"
                 "                                 says when its input uses that form)\n"
                 "  --removed-optional-style STYLE rust (default) or scala\n"
                 "  --option KEY=VALUE             any writer option by its schema name:\n"
                 "                                 scala_chars, compression,\n"
                 "                                 legacy_header_strings, removed_optional_style\n"
                 "                                 (e.g. legacy_header_strings=true)\n");
}

/* Options that only one side uses: giving them to the other subcommand is a
 * usage error rather than a silent no-op. */
static bool writer_only(const char *key, size_t n) {
  return (n == 21 && strncmp(key, "legacy_header_strings", n) == 0) ||
         (n == 22 && strncmp(key, "removed_optional_style", n) == 0);
}
static bool reader_only(const char *key, size_t n) {
  return (n == 11 && strncmp(key, "strict_tags", n) == 0) ||
         (n == 13 && strncmp(key, "strict_varint", n) == 0);
}

/* A positive decimal count for a --max-* flag. */
static bool parse_count(const char *v, size_t max, size_t *out) {
  if (!v[0]) return false;
  size_t n = 0;
  for (const char *p = v; *p; p++) {
    if (*p < '0' || *p > '9') return false;
    size_t d = (size_t)(*p - '0');
    if (n > (max - d) / 10) return false;
    n = n * 10 + d;
  }
  if (n == 0) return false;
  *out = n;
  return true;
}

static bool parse_bool(const char *v, int *out) {
  if (strcmp(v, "true") == 0)
    *out = 1;
  else if (strcmp(v, "false") == 0)
    *out = 0;
  else
    return false;
  return true;
}

/* --option KEY=VALUE */
static bool set_option(cli_schema_args *a, const char *kv) {
  const char *eq = strchr(kv, '=');
  if (!eq) return false;
  size_t n = (size_t)(eq - kv);
  const char *v = eq + 1;
  desert_schema_options *o = &a->options;
#define KEY(s) (n == strlen(s) && strncmp(kv, s, n) == 0)
  if (KEY("scala_chars")) return parse_bool(v, &o->scala_chars);
  if (KEY("legacy_header_strings")) return parse_bool(v, &o->legacy_header_strings);
  if (KEY("strict_tags")) return parse_bool(v, &o->strict_tags);
  if (KEY("strict_varint")) return parse_bool(v, &o->strict_varint);
  if (KEY("removed_optional_style")) {
    if (strcmp(v, "rust") == 0)
      o->scala_removed_optional = 0;
    else if (strcmp(v, "scala") == 0)
      o->scala_removed_optional = 1;
    else
      return false;
    return true;
  }
  if (KEY("compression")) {
    if (strcmp(v, "raw") == 0)
      o->zlib_compression = 0;
    else if (strcmp(v, "zlib") == 0)
      o->zlib_compression = 1;
    else
      return false;
    return true;
  }
#undef KEY
  return false;
}

int cli_schema_parse_args(const char *cmd, int argc, char **argv, bool decode,
                          cli_schema_args *a) {
  memset(a, 0, sizeof *a);
  desert_schema_options_parse(NULL, &a->options, NULL, 0); /* all -1 */
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    const char *val = NULL;
#define NEEDS_VALUE()                                 \
  do {                                                \
    if (i + 1 >= argc) {                              \
      cli_error(cmd, "option '%s' needs a value", s); \
      return CLI_EXIT_USAGE;                          \
    }                                                 \
    val = argv[++i];                                  \
  } while (0)
#define ONLY(dec, what)                                                                        \
  do {                                                                                         \
    if (decode != (dec)) {                                                                     \
      cli_error(cmd, "option '%s' is not supported by '%s %s': %s (see '%s %s --help')", s,    \
                cli_progname, cmd, what, cli_progname, cmd);                                   \
      return CLI_EXIT_USAGE;                                                                   \
    }                                                                                          \
  } while (0)
    if (strcmp(s, "--schema") == 0 || strcmp(s, "-s") == 0) {
      NEEDS_VALUE();
      a->schema_path = val;
    } else if (strncmp(s, "--schema=", 9) == 0) {
      a->schema_path = s + 9;
    } else if (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0) {
      NEEDS_VALUE();
      a->output = val;
    } else if (strcmp(s, "--hex") == 0) {
      a->hex = true;
    } else if (strcmp(s, "--stream") == 0) {
      a->stream = true;
    } else if (strcmp(s, "--annotate") == 0) {
      ONLY(true, "it labels the bytes of a decode");
      a->annotate = true;
    } else if (strcmp(s, "--allow-trailing") == 0) {
      ONLY(true, "it accepts bytes after a decoded value");
      a->allow_trailing = true;
    } else if (strcmp(s, "--scala-chars") == 0) {
      a->options.scala_chars = 1;
    } else if (strcmp(s, "--legacy-header-strings") == 0) {
      ONLY(false, "it changes how bytes are written; readers accept both forms");
      a->options.legacy_header_strings = 1;
    } else if (strcmp(s, "--lenient-tags") == 0) {
      ONLY(true, "it changes how bytes are read");
      a->options.strict_tags = 0;
    } else if (strcmp(s, "--lenient-varint") == 0) {
      ONLY(true, "it changes how bytes are read");
      a->options.strict_varint = 0;
    } else if (strcmp(s, "--removed-optional-style") == 0 || strcmp(s, "--compression") == 0) {
      if (s[2] == 'r') ONLY(false, "it changes how bytes are written");
      NEEDS_VALUE();
      char kv[64];
      snprintf(kv, sizeof kv, "%s=%s", s[2] == 'r' ? "removed_optional_style" : "compression", val);
      if (!set_option(a, kv)) {
        cli_error(cmd, "invalid value '%s' for %s", val, s);
        return CLI_EXIT_USAGE;
      }
    } else if (strcmp(s, "--max-values") == 0 || strcmp(s, "--max-depth") == 0 ||
               strcmp(s, "--max-decompressed") == 0) {
      bool depth = strcmp(s, "--max-depth") == 0, inflated = strcmp(s, "--max-decompressed") == 0;
      if (inflated) ONLY(true, "it bounds inflated blocks, which only a decode reads");
      NEEDS_VALUE();
      size_t n = 0;
      /* Nesting costs stack in the recursive codec and JSON parser: keep
       * it well inside what a default 8 MiB stack holds. */
      size_t max = depth ? CLI_MAX_DEPTH : SIZE_MAX;
      if (!parse_count(val, max, &n)) {
        cli_error(cmd, "invalid value '%s' for %s (a whole number from 1 to %zu)", val, s, max);
        return CLI_EXIT_USAGE;
      }
      if (depth)
        a->max_depth = (unsigned)n;
      else if (inflated)
        a->max_decompressed = n;
      else
        a->max_values = n;
    } else if (strcmp(s, "--option") == 0) {
      NEEDS_VALUE();
      size_t n = strcspn(val, "=");
      if (decode ? writer_only(val, n) : reader_only(val, n)) {
        cli_error(cmd, "option '%s' is not supported by '%s %s': '%.*s' only affects %s", val,
                  cli_progname, cmd, (int)n, val, decode ? "writing" : "reading");
        return CLI_EXIT_USAGE;
      }
      if (!set_option(a, val)) {
        cli_error(cmd, "invalid option '%s' (KEY=VALUE with a key of docs/schema.md §8)", val);
        return CLI_EXIT_USAGE;
      }
    } else if (s[0] == '-' && s[1] != '\0') {
      /* The options above, of both commands (ONLY() names a wrong one). */
      static const char *const known[] = {
          "--schema",         "--output",       "--hex",
          "--stream",         "--annotate",     "--allow-trailing",
          "--scala-chars",    "--lenient-tags", "--legacy-header-strings",
          "--lenient-varint", "--compression",  "--removed-optional-style",
          "--max-values",     "--max-depth",    "--max-decompressed",
          "--option",         "--help"};
      cli_unknown(cmd, "option", s, known, sizeof known / sizeof known[0]);
      return CLI_EXIT_USAGE;
    } else if (!a->input) {
      a->input = s;
    } else {
      cli_error(cmd, "unexpected argument '%s'", s);
      return CLI_EXIT_USAGE;
    }
#undef ONLY
#undef NEEDS_VALUE
  }
  if (!a->schema_path) {
    cli_error(cmd, "missing --schema FILE");
    return CLI_EXIT_USAGE;
  }
  if (!a->input) a->input = "-";
  if (a->output && strcmp(a->output, "-") == 0) a->output = NULL;
  return CLI_EXIT_OK;
}

/* A name for messages: "standard input" for "-". */
static const char *display_name(const char *path) {
  return strcmp(path, "-") == 0 ? "standard input" : path;
}

int cli_schema_read_file(const char *cmd, const char *path, char **data, size_t *len) {
  bool is_stdin = strcmp(path, "-") == 0;
  errno = 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    cli_io_error(cmd, errno, "cannot open '%s'", path);
    return CLI_EXIT_IO;
  }
  size_t cap = 1 << 16, n = 0;
  char *d = malloc(cap);
  int rc = d ? CLI_EXIT_OK : CLI_EXIT_NOMEM;
  int err = 0;
  while (rc == CLI_EXIT_OK) {
    if (cap - n < 2) {
      char *nd = cap < SIZE_MAX / 2 ? realloc(d, cap * 2) : NULL;
      if (!nd) {
        rc = CLI_EXIT_NOMEM;
        break;
      }
      d = nd;
      cap *= 2;
    }
    errno = 0;
    size_t k = fread(d + n, 1, cap - n - 1, f);
    n += k;
    if (k == 0) {
      if (ferror(f)) {
        err = errno;
        rc = CLI_EXIT_IO;
      }
      break;
    }
  }
  if (!is_stdin) fclose(f);
  if (rc != CLI_EXIT_OK) {
    free(d);
    if (rc == CLI_EXIT_IO)
      cli_io_error(cmd, err, "cannot read '%s'", display_name(path));
    else
      cli_error(cmd, "out of memory reading '%s' (%zu bytes read)", display_name(path), n);
    return rc;
  }
  d[n] = '\0';
  *data = d;
  *len = n;
  return CLI_EXIT_OK;
}

int cli_schema_redirect_stdout(const char *cmd, const char *path) {
  if (!path) return CLI_EXIT_OK;
  errno = 0;
  FILE *f = fopen(path, "wb");
  if (!f) {
    cli_io_error(cmd, errno, "cannot create '%s'", path);
    return CLI_EXIT_IO;
  }
  fflush(stdout);
  if (dup2(fileno(f), STDOUT_FILENO) < 0) {
    cli_io_error(cmd, errno, "cannot write to '%s'", path);
    fclose(f);
    return CLI_EXIT_IO;
  }
  fclose(f);
  cli_stdout_name = path;
  return CLI_EXIT_OK;
}

int cli_schema_load(const char *cmd, const cli_schema_args *a, desert_value_arena *arena,
                    desert_schema **out, bool *has_removed) {
  char *text;
  size_t len;
  int rc = cli_schema_read_file(cmd, a->schema_path, &text, &len);
  if (rc) return rc;
  /* Header strings (removed and made-transient field names) exist only in
   * documents with such steps; a mention in a string costs a check only. */
  if (has_removed)
    *has_removed = strstr(text, "FieldRemoved") || strstr(text, "FieldMadeTransient");
  desert_json *doc;
  desert_json_error err;
  if (desert_json_parse_ex(text, len, arena, &doc, &err)) {
    free(text);
    if (err.status == DESERT_E_NOMEM) {
      cli_error(cmd, "out of memory parsing '%s'", display_name(a->schema_path));
      return CLI_EXIT_NOMEM;
    }
    cli_json_syntax_error(cmd, display_name(a->schema_path), 0, &err);
    return CLI_EXIT_FAILURE;
  }
  desert_status st = desert_schema_load(doc, NULL, out, &err);
  free(text);
  if (st) {
    cli_error(cmd, "%s: BadSchema: %s", display_name(a->schema_path), err.message);
    return st == DESERT_E_NOMEM ? CLI_EXIT_NOMEM : CLI_EXIT_FAILURE;
  }
  return CLI_EXIT_OK;
}

void cli_schema_options(const desert_schema *s, const cli_schema_args *a, desert_options *o) {
  desert_schema_options_apply(&s->options, &a->options, o);
  /* One nesting bound for the reader's records and the codec's values. */
  o->max_depth = a->max_depth ? a->max_depth : DESERT_JSON_DEFAULT_MAX_DEPTH;
  if (a->max_decompressed) o->max_decompressed = a->max_decompressed;
}

void cli_schema_limits(const cli_schema_args *a, size_t input_len, desert_codec_limits *out) {
  desert_json_limits l = {a->max_values, a->max_depth, 0};
  desert_json_limits_resolve(&l, input_len, out);
}

int cli_schema_put_line(const char *cmd, desert_json_buf *out) {
  desert_json_buf_put(out, "\n", 1);
  if (out->failed) return CLI_EXIT_NOMEM;
  errno = 0;
  if (fwrite(out->data, 1, out->len, stdout) != out->len) {
    if (cli_stdout_name)
      cli_io_error(cmd, errno, "cannot write '%s'", cli_stdout_name);
    else
      cli_io_error(cmd, errno, "cannot write to standard output");
    return CLI_EXIT_IO;
  }
  return CLI_EXIT_OK;
}
