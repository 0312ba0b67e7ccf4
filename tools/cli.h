/* tools/cli.h — shared pieces of the `desert` command-line tool: exit codes,
 * the subcommand table entry and small helpers. One file per subcommand
 * (tools/cli_<name>.c) defines `int cli_cmd_<name>(int argc, char **argv)`;
 * tools/desert_cli.c lists them. The tool uses libdesert's public API only.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TOOLS_CLI_H
#define DESERT_TOOLS_CLI_H

#include <stddef.h>
#include <stdio.h>

/* Exit codes of every subcommand (documented in `desert --help` and README). */
enum {
  CLI_EXIT_OK = 0,      /* success */
  CLI_EXIT_FAILURE = 1, /* the operation failed (bad input data, library error) */
  CLI_EXIT_USAGE = 2,   /* bad command line: unknown subcommand or option, missing argument */
  CLI_EXIT_IO = 3,      /* a file could not be opened, read or written */
  CLI_EXIT_NOMEM = 4    /* out of memory */
};

/* A subcommand. argv[0] is the subcommand's name; argv[argc] is NULL. */
typedef struct cli_command {
  const char *name;
  const char *summary;               /* one line for `desert --help` */
  int (*run)(int argc, char **argv); /* returns a CLI_EXIT_* code */
  void (*help)(FILE *out);           /* usage of the subcommand */
} cli_command;

/* Program name for messages ("desert"). */
extern const char *cli_progname;
/* Where standard output goes when a subcommand sent it to a file (-o), for
 * messages; NULL: the real standard output. */
extern const char *cli_stdout_name;

/* Prints "desert <cmd>: <message>\n" to stderr (printf-style). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void cli_error(const char *cmd, const char *fmt, ...);

/* Prints "desert <cmd>: <message>: <strerror(err)>\n" to stderr: a file
 * error with the operating system's reason (err: the errno of the failed
 * call). tools/cli_report.c. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void cli_io_error(const char *cmd, int err, const char *fmt, ...);

/* The word of known[0..count) closest to word (a typo's likely intent:
 * within one edit for words under six characters, two from six on), or
 * NULL. tools/cli_suggest.c. */
const char *cli_suggest(const char *word, const char *const *known, size_t count);

/* Prints "desert[ <cmd>]: unknown <what> '<word>' (did you mean '<near>'?
 * see 'desert[ <cmd>] --help')", the suggestion only when cli_suggest finds
 * one among known[0..count). */
void cli_unknown(const char *cmd, const char *what, const char *word, const char *const *known,
                 size_t count);

/* 1 if arg is -h or --help. */
int cli_is_help(const char *arg);

/* ---- subcommands --------------------------------------------------------- */
int cli_cmd_info(int argc, char **argv);
void cli_help_info(FILE *out);

#endif /* DESERT_TOOLS_CLI_H */
