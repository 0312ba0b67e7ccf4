/* tools/cli_schema.h — the schema-driven subcommands of the `desert` tool
 * (`desert encode`, `desert decode`, tools/cli_encode.c and cli_decode.c)
 * and the helpers they share (tools/cli_schema.c): command-line parsing of
 * --schema, the option flags of docs/schema.md §8, file input and output. They
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
  const char *output;            /* -o / --output, NULL (or "-") = standard output */
  bool hex;                      /* --hex: bytes as hex text */
  bool annotate;                 /* decode --annotate */
  bool allow_trailing;           /* decode --allow-trailing: bytes after the value are no error */
  bool stream;                   /* --stream: the root collection element by element */
  size_t max_values;             /* --max-values N (0: the JSON layer's default) */
  unsigned max_depth;            /* --max-depth N (0: the JSON layer's default) */
  size_t max_decompressed;       /* decode --max-decompressed N (0: the reader's default) */
  desert_schema_options options; /* -1 = not given on the command line */
} cli_schema_args;

/* Parses the common arguments of encode (decode false) or decode; an option
 * that only the other subcommand supports is a usage error. Returns
 * CLI_EXIT_OK, or CLI_EXIT_USAGE after printing why. */
int cli_schema_parse_args(const char *cmd, int argc, char **argv, bool decode,
                          cli_schema_args *a);
/* Help text of the option flags that encode (decode false) or decode takes. */
void cli_schema_help_options(FILE *out, bool decode);
/* Points standard output at the file path (created or truncated), so that
 * everything the subcommand prints goes there; path NULL: nothing to do.
 * Returns CLI_EXIT_OK or CLI_EXIT_IO after printing why. */
int cli_schema_redirect_stdout(const char *cmd, const char *path);
/* Reads a whole file ("-" = standard input) into a malloc'ed buffer with a
 * terminating NUL (not counted). Returns CLI_EXIT_OK, CLI_EXIT_IO or
 * CLI_EXIT_NOMEM after printing why. */
int cli_schema_read_file(const char *cmd, const char *path, char **data, size_t *len);
/* Parses and loads the schema document of a->schema_path. *has_removed
 * (may be NULL): the document may have FieldRemoved/FieldMadeTransient
 * steps, i.e. records that can write header strings. */
int cli_schema_load(const char *cmd, const cli_schema_args *a, desert_value_arena *arena,
                    desert_schema **out, bool *has_removed);
/* --stream forms (tools/cli_stream.c): the schema's root list or set one
 * element per JSON line, in bounded memory. Return a CLI_EXIT_* code. */
int cli_stream_encode(const cli_schema_args *a, const desert_schema *s);
int cli_stream_decode(const cli_schema_args *a, const desert_schema *s);

/* decode --annotate (tools/cli_annotate.c): the labelled hex dump, read
 * through a streaming reader so that its memory does not grow with the
 * input when the root is a list or set. data NULL: read a->input; else the
 * bytes of --hex input. Returns a CLI_EXIT_* code. */
int cli_annotate(const cli_schema_args *a, const desert_schema *s, const desert_options *o,
                 const uint8_t *data, size_t len);
/* "FILE: Kind at offset N: PATH: why" for a failed decode (tools/cli_decode.c);
 * element != SIZE_MAX: the failure is inside element `element` of the root
 * and root is that element's type; len: the input's length. */
void cli_report_decode_error(const char *file, const desert_type *root, size_t element,
                             const desert_type_error *terr, desert_status st, size_t len,
                             const desert_codec_limits *lim, const desert_options *o);
/* Bytes after the value: an error, or with allow a note (tools/cli_decode.c).
 * Returns the exit code. */
int cli_check_trailing(const char *file, size_t used, size_t len, bool allow);

/* ---- messages (tools/cli_report.c) ------------------------------------------------ */

/* The value path of every message: "$" for the root, "$.a.b[3]" below it;
 * element != SIZE_MAX puts "[element]" after "$" (an element of --stream).
 * path is the library's form (desert_type_error.path: "a.b[3]", "" = root). */
void cli_value_path(char *out, size_t cap, size_t element, const char *path);
/* "desert <cmd>: FILE:LINE:COLUMN: not JSON: <why>" for an error of
 * desert_json_parse_ex; line != 0 overrides e->line (JSON Lines). */
void cli_json_syntax_error(const char *cmd, const char *file, size_t line,
                           const desert_json_error *e);
/* The detail of an InputEndedUnexpectedly: where the input ends, what was
 * being read (the type at path under root, when the path leads there) from
 * which offset, and how many bytes that needs and has. */
void cli_input_ended_detail(char *out, size_t cap, const desert_type *root, const char *path,
                            size_t item, size_t len);

/* Appends a newline to out and writes it to standard output. Returns
 * CLI_EXIT_OK, CLI_EXIT_NOMEM (out could not grow) or CLI_EXIT_IO. */
int cli_schema_put_line(const char *cmd, desert_json_buf *out);
/* The desert_options of the document's options overridden by the flags
 * (--max-depth and --max-decompressed included). */
void cli_schema_options(const desert_schema *s, const cli_schema_args *a, desert_options *o);
/* The codec limits of one decode or encode of input_len bytes: --max-values
 * and --max-depth over the JSON layer's defaults (desert_json_limits). */
void cli_schema_limits(const cli_schema_args *a, size_t input_len, desert_codec_limits *out);
/* Why a decode or encode failed, for messages: a limit error names the
 * limit, its value and the flag that raises it ("more than 1048576 values
 * (limit --max-values 1048576)"); anything else is the codec's message or
 * the status's. o: the reader's options (NULL for encode). */
void cli_limit_why(char *out, size_t cap, desert_status st, const desert_type_error *terr,
                   const desert_codec_limits *lim, const desert_options *o);

#endif
