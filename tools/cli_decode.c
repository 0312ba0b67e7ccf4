/* tools/cli_decode.c — `desert decode --schema S.json [FILE|-]`: reads desert
 * bytes (raw, or hex text with --hex) and prints the canonical JSON of the
 * value (SCHEMA.md §2.4) and a newline; with --annotate, a hex dump instead
 * in which every byte range is labelled with the path of the value it
 * belongs to (structure bytes — version bytes, headers, counts, tags — with
 * the path of the enclosing value and its kind).
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "cli_schema.h"

void cli_help_decode(FILE *out) {
  fprintf(out, "usage: desert decode --schema SCHEMA.json [FILE|-] [--hex] [--annotate] [options]\n"
               "       desert decode --schema SCHEMA.json --stream [FILE|-]\n"
               "\n"
               "Reads one desert value from FILE or standard input under a schema document\n"
               "(SCHEMA.md part 1) and prints its canonical JSON (SCHEMA.md §2.4) and a\n"
               "newline. Bytes after the value are reported on standard error.\n"
               "  --hex       the input is hex text (whitespace ignored)\n"
               "  --annotate  print a hex dump with the value path of every byte range\n"
               "  --stream    the schema's root is a list or set (either collection form):\n"
               "              print one JSON line per element, in bounded memory\n"
               "\n");
  cli_schema_help_options(out);
  fprintf(out, "\n"
               "Exit status: 0 decoded; 1 the bytes do not decode (the error kind, input\n"
               "offset and value path are printed) or the schema is invalid; 2 usage; 3 a file\n"
               "could not be read; 4 out of memory.\n");
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

/* ---- --annotate ------------------------------------------------------------------- */

typedef struct span {
  size_t start, end;
  char *label;
  unsigned order; /* completion order: inner values finish first */
} span;

typedef struct spans {
  span *v;
  size_t n, cap;
  bool failed;
} spans;

static void on_value(void *ctx, size_t start, size_t end, const char *path, desert_type_kind kind,
                     bool leaf) {
  spans *s = ctx;
  if (s->failed || end <= start) return;
  if (s->n == s->cap) {
    size_t ncap = s->cap ? s->cap * 2 : 256;
    span *nv = realloc(s->v, ncap * sizeof *nv);
    if (!nv) {
      s->failed = true;
      return;
    }
    s->v = nv;
    s->cap = ncap;
  }
  const char *kn = desert_type_kind_name(kind);
  size_t need = strlen(path) + strlen(kn) + 32;
  char *label = malloc(need);
  if (!label) {
    s->failed = true;
    return;
  }
  if (leaf)
    snprintf(label, need, "%s%s (%s)", path[0] == '[' || !path[0] ? "$" : "$.", path, kn);
  else
    snprintf(label, need, "%s%s [%s structure]", path[0] == '[' || !path[0] ? "$" : "$.", path, kn);
  s->v[s->n].start = start;
  s->v[s->n].end = end;
  s->v[s->n].label = label;
  s->v[s->n].order = (unsigned)s->n;
  s->n++;
}

static void print_run(const uint8_t *data, size_t from, size_t to, const char *label) {
  for (size_t line = from; line < to; line += 16) {
    size_t stop = line + 16 < to ? line + 16 : to;
    char hex[16 * 3 + 1];
    size_t k = 0;
    for (size_t i = line; i < stop; i++)
      k += (size_t)snprintf(hex + k, sizeof hex - k, "%02x ", data[i]);
    printf("%08zx  %-48s %s\n", line, hex, line == from ? label : "  ...");
  }
}

static int annotate(const desert_schema *s, desert_reader *r, const uint8_t *data, size_t len,
                    desert_value_arena *arena) {
  spans sp = {NULL, 0, 0, false};
  desert_value *v;
  desert_type_error terr;
  memset(&terr, 0, sizeof terr);
  desert_codec_limits lim = {0, 0, 0};
  desert_status st = desert_reader_begin(r, data, len);
  /* Bytes covered by the annotation: all that was read, or up to the failing
   * value's offset. terr is only filled by the decode: a reader that cannot
   * even begin annotates nothing and reports its own error offset. */
  size_t used = 0;
  if (st) {
    terr.status = st;
    terr.offset = desert_reader_error_offset(r);
  } else {
    st = desert_type_decode_traced(r, s->root, arena, &lim, on_value, &sp, &v, &terr);
    used = st ? terr.offset : desert_reader_offset(r);
  }
  /* Owner of every byte: the innermost value containing it. Values finish
   * inner-first, so a later span that contains a byte is an outer one. */
  size_t *owner = malloc((used ? used : 1) * sizeof *owner);
  int rc = CLI_EXIT_OK;
  if (!owner || sp.failed) {
    rc = CLI_EXIT_NOMEM;
  } else {
    for (size_t i = 0; i < used; i++) owner[i] = SIZE_MAX;
    for (size_t k = 0; k < sp.n; k++)
      for (size_t i = sp.v[k].start; i < sp.v[k].end && i < used; i++)
        if (owner[i] == SIZE_MAX) owner[i] = k;
    size_t i = 0;
    while (i < used) {
      size_t j = i + 1;
      while (j < used && owner[j] == owner[i]) j++;
      print_run(data, i, j, owner[i] == SIZE_MAX ? "(structure)" : sp.v[owner[i]].label);
      i = j;
    }
    if (st) {
      char path[256];
      desert_type_error_json_path(&terr, path, sizeof path);
      printf("%08zx  error: %s at %s: %s\n", terr.offset, desert_status_kind(st), path,
             terr.message[0] ? terr.message : desert_status_message(st));
      rc = CLI_EXIT_FAILURE;
    } else if (used < len) {
      printf("%08zx  %zu trailing bytes not used by the value\n", used, len - used);
    }
  }
  free(owner);
  for (size_t k = 0; k < sp.n; k++) free(sp.v[k].label);
  free(sp.v);
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
  desert_json_buf out = {0};
  rc = cli_schema_load("decode", &a, arena, &s);
  if (!rc && a.stream) {
    rc = cli_stream_decode(&a, s);
    desert_schema_free(s);
    desert_value_arena_free(arena);
    return rc;
  }
  size_t len = 0;
  if (!rc) rc = cli_schema_read_file("decode", a.input, &data, &len);
  if (!rc && a.hex && !unhex(data, &len)) {
    cli_error("decode", "%s: not hex text", a.input);
    rc = CLI_EXIT_FAILURE;
  }
  desert_options o;
  if (!rc) {
    cli_schema_options(s, &a, &o);
    if (desert_reader_create(&o, &r)) rc = CLI_EXIT_NOMEM;
  }
  if (!rc && a.annotate) {
    rc = annotate(s, r, (const uint8_t *)data, len, arena);
  } else if (!rc) {
    size_t consumed = 0;
    desert_json_error err;
    if (desert_json_decode(s, r, data, len, arena, &out, &consumed, &err)) {
      if (err.has_offset)
        cli_error("decode", "%s at offset %zu: %s", desert_json_error_kind_name(&err), err.offset,
                  err.message);
      else
        cli_error("decode", "%s: %s", desert_json_error_kind_name(&err), err.message);
      rc = err.status == DESERT_E_NOMEM ? CLI_EXIT_NOMEM : CLI_EXIT_FAILURE;
    } else {
      rc = cli_schema_put_line("decode", &out);
      if (consumed < len)
        cli_error("decode", "note: %zu trailing bytes after the value (offset %zu)", len - consumed,
                  consumed);
    }
  }
  desert_json_buf_free(&out);
  desert_reader_free(r);
  free(data);
  desert_schema_free(s);
  desert_value_arena_free(arena);
  return rc;
}
