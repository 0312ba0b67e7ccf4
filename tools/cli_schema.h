/* tools/cli_schema.h — the schema-driven subcommands of the `desert` tool
 * (`desert encode`, `desert decode`, tools/cli_encode.c and cli_decode.c)
 * and the helpers they share (tools/cli_schema.c): command-line parsing of
 * --schema, the option flags of SCHEMA.md §1.8, file input and output. They
 * use the JSON layer (desert::json, include/desert/json.h).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TOOLS_CLI_SCHEMA_H
#define DESERT_TOOLS_CLI_SCHEMA_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "desert/json.h"

/* ---- subcommands (registered in tools/desert_cli.c) ------------------------ */
int cli_cmd_encode(int argc, char **argv);
void cli_help_encode(FILE *out);
int cli_cmd_decode(int argc, char **argv);
void cli_help_decode(FILE *out);
int cli_cmd_gen_c(int argc, char **argv);
void cli_help_gen_c(FILE *out);

/* ---- shared helpers ----------------------------------------------------------- */

typedef struct cli_schema_args {
  const char *schema_path;       /* --schema */
  const char *input;             /* positional argument, "-" = standard input */
  const char *output;            /* -o / --output, NULL = standard output */
  bool hex;                      /* --hex: bytes as hex text */
  bool annotate;                 /* decode --annotate */
  bool stream;                   /* --stream: the root collection element by element */
  desert_schema_options options; /* -1 = not given on the command line */
} cli_schema_args;

/* Parses the common arguments; `annotate` is accepted only when allowed.
 * Returns CLI_EXIT_OK, or CLI_EXIT_USAGE after printing why. */
int cli_schema_parse_args(const char *cmd, int argc, char **argv, bool allow_annotate,
                          cli_schema_args *a);
/* Help text of the option flags. */
void cli_schema_help_options(FILE *out);
/* Reads a whole file ("-" = standard input) into a malloc'ed buffer with a
 * terminating NUL (not counted). Returns CLI_EXIT_OK, CLI_EXIT_IO or
 * CLI_EXIT_NOMEM after printing why. */
int cli_schema_read_file(const char *cmd, const char *path, char **data, size_t *len);
/* Parses and loads the schema document of a->schema_path. */
int cli_schema_load(const char *cmd, const cli_schema_args *a, desert_value_arena *arena,
                    desert_schema **out);
/* --stream forms (tools/cli_stream.c): the schema's root list or set one
 * element per JSON line, in bounded memory. Return a CLI_EXIT_* code. */
int cli_stream_encode(const cli_schema_args *a, const desert_schema *s);
int cli_stream_decode(const cli_schema_args *a, const desert_schema *s);

/* Appends a newline to out and writes it to standard output. Returns
 * CLI_EXIT_OK, CLI_EXIT_NOMEM (out could not grow) or CLI_EXIT_IO. */
int cli_schema_put_line(const char *cmd, desert_json_buf *out);
/* The desert_options of the document's options overridden by the flags. */
void cli_schema_options(const desert_schema *s, const cli_schema_args *a, desert_options *o);

#endif
