/* tools/cli_stream.c — `desert encode --stream` and `desert decode --stream`:
 * the schema's root collection (a list or set) one element at a
 * time, in bounded memory whatever the input size. encode reads JSON Lines
 * (one element per line; blank lines skipped) and writes the collection in
 * the unknown-size form (01, then 01 + element per line, then 00) through
 * a streaming writer; decode reads either collection form through a
 * streaming reader and prints one canonical JSON line per element. Each
 * element's values live in an arena reset after the element, and the
 * reader is marked at each element boundary. Messages name element N of
 * the root as $[N] and its lines as FILE:LINE.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_schema.h"
#include "desert/stream.h"

/* The element type of the root collection, or NULL after printing why. */
static const desert_type *root_element(const char *cmd, const desert_schema *s) {
  const desert_type *t = desert_type_resolve(s->root);
  if (!t || (t->kind != DESERT_TYPE_LIST && t->kind != DESERT_TYPE_SET) ||
      (t->kind == DESERT_TYPE_LIST && t->u.coll.has_length)) {
    cli_error(cmd, "--stream needs a schema whose root is a list or set (not %s)",
              t ? desert_type_kind_name(t->kind) : "unresolved");
    return NULL;
  }
  return t->u.coll.element;
}

static const char *name_of(const char *path, bool out) {
  if (!path || strcmp(path, "-") == 0) return out ? "standard output" : "standard input";
  return path;
}

static FILE *open_or_std(const char *cmd, const char *path, bool out) {
  if (!path || strcmp(path, "-") == 0) return out ? stdout : stdin;
  errno = 0;
  FILE *f = fopen(path, out ? "wb" : "rb");
  if (!f) cli_io_error(cmd, errno, "cannot %s '%s'", out ? "create" : "open", path);
  return f;
}

static int close_std(FILE *f, bool ok) {
  if (f && f != stdin && f != stdout) ok = fclose(f) == 0 && ok;
  return ok;
}

static int status_exit(desert_status st) {
  if (st == DESERT_E_NOMEM) return CLI_EXIT_NOMEM;
  if (st == DESERT_E_READ_INPUT || st == DESERT_E_WRITE_OUTPUT) return CLI_EXIT_IO;
  return CLI_EXIT_FAILURE;
}

/* One JSON line: parse, convert, write as element `index` of the root. */
static int encode_line(const char *file, const desert_type *et, desert_writer *w,
                       desert_value_arena *va, const char *line, size_t len, size_t lineno,
                       size_t index, const desert_codec_limits *lim) {
  desert_json *j = NULL;
  desert_json_error jerr;
  if (desert_json_parse_depth(line, len, va, lim->max_depth, &j, &jerr)) {
    if (jerr.status == DESERT_E_NOMEM) {
      cli_error("encode", "out of memory parsing %s:%zu", file, lineno);
      return CLI_EXIT_NOMEM;
    }
    cli_json_syntax_error("encode", file, lineno, &jerr);
    return CLI_EXIT_FAILURE;
  }
  desert_value *v = NULL;
  if (desert_json_to_value(et, j, va, &v, &jerr)) {
    /* The message starts with the path under the element ("$.a: why"):
     * make it the path under the root, "$[index].a: why". */
    const char *m = jerr.message;
    cli_error("encode", "%s:%zu: %s: $[%zu]%s%s", file, lineno, desert_json_error_kind_name(&jerr),
              index, m[0] == '$' ? "" : ": ", m[0] == '$' ? m + 1 : m);
    return jerr.status == DESERT_E_NOMEM ? CLI_EXIT_NOMEM : CLI_EXIT_FAILURE;
  }
  desert_type_error terr;
  desert_write_stream_item(w);
  desert_status st = desert_type_encode(w, et, v, lim, &terr);
  if (st) {
    char path[300], why[300];
    cli_value_path(path, sizeof path, index, terr.path);
    cli_limit_why(why, sizeof why, st, &terr, lim, NULL);
    cli_error("encode", "%s:%zu: %s: %s: %s", file, lineno,
              st == DESERT_E_ARGUMENT ? "BadValue" : desert_status_kind(st), path, why);
    return status_exit(st);
  }
  return CLI_EXIT_OK;
}

int cli_stream_encode(const cli_schema_args *a, const desert_schema *s) {
  const desert_type *et = root_element("encode", s);
  if (!et) return CLI_EXIT_FAILURE;
  if (a->hex) {
    cli_error("encode", "--stream writes raw bytes (no --hex)");
    return CLI_EXIT_USAGE;
  }
  FILE *in = open_or_std("encode", a->input, false);
  if (!in) return CLI_EXIT_IO;
  FILE *out = open_or_std("encode", a->output, true);
  if (!out) {
    close_std(in, true);
    return CLI_EXIT_IO;
  }
  desert_options o;
  cli_schema_options(s, a, &o);
  desert_writer *w = NULL;
  desert_value_arena *va = NULL;
  int rc = desert_writer_create(&o, &w) || desert_value_arena_create(NULL, &va) ? CLI_EXIT_NOMEM
                                                                                : CLI_EXIT_OK;
  if (!rc && desert_writer_begin_stream(w, desert_sink_file(out), 0)) rc = CLI_EXIT_NOMEM;
  char *line = NULL;
  size_t cap = 0, lineno = 0, count = 0;
  if (!rc) desert_write_stream_begin(w);
  desert_codec_limits lim;
  cli_schema_limits(a, 0, &lim);
  while (!rc) {
    errno = 0;
    ssize_t n = getline(&line, &cap, in);
    if (n < 0) {
      if (ferror(in)) {
        cli_io_error("encode", errno, "cannot read '%s'", name_of(a->input, false));
        rc = CLI_EXIT_IO;
      }
      break;
    }
    lineno++;
    size_t len = (size_t)n;
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) len--;
    size_t k = 0;
    while (k < len && (line[k] == ' ' || line[k] == '\t')) k++;
    if (k == len) continue; /* blank line */
    rc = encode_line(name_of(a->input, false), et, w, va, line, len, lineno, count, &lim);
    desert_value_arena_reset(va);
    count++;
  }
  const desert_type *root = desert_type_resolve(s->root);
  if (!rc && count == 0 && root->u.coll.non_empty) {
    cli_error("encode", "the root collection must not be empty");
    rc = CLI_EXIT_FAILURE;
  }
  if (!rc) {
    desert_write_stream_end(w);
    errno = 0;
    desert_status st = desert_writer_flush(w);
    if (st == DESERT_E_WRITE_OUTPUT) {
      cli_io_error("encode", errno, "cannot write '%s'", name_of(a->output, true));
      rc = CLI_EXIT_IO;
    } else if (st) {
      cli_error("encode", "%s: %s", desert_status_kind(st), desert_status_message(st));
      rc = status_exit(st);
    }
  }
  errno = 0;
  if (!close_std(out, fflush(out) == 0) && !rc) {
    cli_io_error("encode", errno, "cannot write '%s'", name_of(a->output, true));
    rc = CLI_EXIT_IO;
  }
  close_std(in, true);
  free(line);
  desert_value_arena_free(va);
  desert_writer_free(w);
  return rc;
}

int cli_stream_decode(const cli_schema_args *a, const desert_schema *s) {
  const desert_type *et = root_element("decode", s);
  if (!et) return CLI_EXIT_FAILURE;
  if (a->hex || a->annotate) {
    cli_error("decode", "--stream reads raw bytes (no --hex or --annotate)");
    return CLI_EXIT_USAGE;
  }
  FILE *in = open_or_std("decode", a->input, false);
  if (!in) return CLI_EXIT_IO;
  const char *file = name_of(a->input, false);
  if (cli_schema_redirect_stdout("decode", a->output)) {
    close_std(in, true);
    return CLI_EXIT_IO;
  }
  desert_options o;
  cli_schema_options(s, a, &o);
  desert_reader *r = NULL;
  desert_value_arena *va = NULL;
  desert_json_buf out = {0};
  int rc = desert_reader_create(&o, &r) || desert_value_arena_create(NULL, &va) ? CLI_EXIT_NOMEM
                                                                                : CLI_EXIT_OK;
  if (!rc && desert_reader_begin_stream(r, desert_source_file(in), 0)) rc = CLI_EXIT_NOMEM;
  /* Each element is marked: the window grows past the default high-water
   * mark only for an element that large, which must be resident anyway. */
  if (!rc) desert_reader_set_max_window(r, SIZE_MAX);
  /* Per element: --max-values, else the codec's own default (the stream's
   * length is not known up front). */
  desert_codec_limits lim;
  cli_schema_limits(a, 0, &lim);
  if (!a->max_values) lim.max_values = (size_t)1 << 26;
  desert_seq seq = {false, 0, 0, 0};
  if (!rc) desert_read_seq_begin(r, &seq); /* a failure is reported below */
  const desert_type *root = desert_type_resolve(s->root);
  while (!rc && desert_read_seq_next(r, &seq)) {
    desert_value *v = NULL;
    desert_type_error terr;
    desert_status st = desert_type_decode(r, et, va, &lim, &v, &terr);
    if (st) {
      char path[300], why[300];
      cli_value_path(path, sizeof path, seq.index - 1, terr.path);
      /* A file read to its end: its length is where the input ended (a
       * pipe has no position, and keeps the library's words). */
      long pos = st == DESERT_E_INPUT_ENDED ? ftell(in) : -1;
      if (pos >= 0 && terr.offset <= (size_t)pos &&
          (terr.message[0] == '\0' || strstr(terr.message, "chunk") == NULL))
        cli_input_ended_detail(why, sizeof why, et, terr.path, terr.offset, (size_t)pos);
      else
        cli_limit_why(why, sizeof why, st, &terr, &lim, &o);
      cli_error("decode", "%s: %s at offset %zu: %s: %s", file, desert_status_kind(st),
                terr.offset, path, why);
      rc = status_exit(st);
      break;
    }
    out.len = 0;
    desert_json_write_value(&out, et, v);
    rc = cli_schema_put_line("decode", &out);
    desert_value_arena_reset(va);
    desert_reader_mark(r);
  }
  desert_status st = desert_reader_status(r);
  if (!rc && st == DESERT_E_READ_INPUT) {
    cli_io_error("decode", errno, "cannot read '%s'", file);
    rc = CLI_EXIT_IO;
  } else if (!rc && st) {
    /* A failure outside an element: the collection's count, form or tags. */
    cli_error("decode", "%s: %s at offset %zu: $: %s", file, desert_status_kind(st),
              desert_reader_error_offset(r), desert_status_message(st));
    rc = status_exit(st);
  }
  if (!rc && seq.index == 0 && root->u.coll.non_empty) {
    cli_error("decode", "%s: DeserializationFailure at offset 0: $: the root collection is "
              "non-empty by its schema but has no element", file);
    rc = CLI_EXIT_FAILURE;
  }
  if (!rc && !desert_reader_at_end(r) && !desert_reader_status(r) && !a->allow_trailing) {
    cli_error("decode",
              "%s: trailing bytes after the value (offset %zu): the data is of another "
              "schema or holds more than one value (--allow-trailing accepts them)",
              file, desert_reader_offset(r));
    rc = CLI_EXIT_FAILURE;
  }
  errno = 0;
  if (!rc && fflush(stdout) != 0) {
    if (cli_stdout_name)
      cli_io_error("decode", errno, "cannot write '%s'", cli_stdout_name);
    else
      cli_io_error("decode", errno, "cannot write to standard output");
    rc = CLI_EXIT_IO;
  }
  close_std(in, true);
  desert_json_buf_free(&out);
  desert_value_arena_free(va);
  desert_reader_free(r);
  return rc;
}
