/* tools/desert_cli.c — the `desert` command-line tool: global options and
 * the subcommand dispatcher. Each subcommand lives in tools/cli_<name>.c;
 * add one by writing that file and one line in `commands` below.
 * SPDX-License-Identifier: MIT */
#include "cli.h"
#include "cli_schema.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <desert.h>

const char *cli_progname = "desert";
const char *cli_stdout_name = NULL;

static const cli_command commands[] = {
    {"info", "print the library version, CPU features and the SIMD dispatch state", cli_cmd_info,
     cli_help_info},
    {"encode", "write the desert bytes of a JSON value under a schema document", cli_cmd_encode,
     cli_help_encode},
    {"decode", "print a desert value as canonical JSON (--annotate: labelled hex dump)",
     cli_cmd_decode, cli_help_decode},
    {"gen-c", "generate C types, codecs and JSON conversion from schema documents",
     cli_cmd_gen_c, cli_help_gen_c},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

void cli_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s%s%s: ", cli_progname, cmd ? " " : "", cmd ? cmd : "");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

int cli_is_help(const char *arg) { return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0; }

static const cli_command *find_command(const char *name) {
  for (size_t i = 0; i < N_COMMANDS; i++) {
    if (strcmp(commands[i].name, name) == 0) {
      return &commands[i];
    }
  }
  return NULL;
}

/* "unknown command 'x'", with the likely intent when one is close. */
static int unknown_command(const char *name) {
  const char *known[N_COMMANDS + 1];
  for (size_t i = 0; i < N_COMMANDS; i++) known[i] = commands[i].name;
  known[N_COMMANDS] = "help";
  cli_unknown(NULL, "command", name, known, N_COMMANDS + 1);
  return CLI_EXIT_USAGE;
}

static void print_usage(FILE *out) {
  fprintf(out,
          "usage: %s <command> [options]\n"
          "       %s help [<command>]\n"
          "       %s --help | --version\n"
          "\n"
          "Reads and writes the desert binary serialization format (libdesert %s).\n"
          "\n"
          "Commands:\n",
          cli_progname, cli_progname, cli_progname, desert_version_string());
  for (size_t i = 0; i < N_COMMANDS; i++) {
    fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  }
  fprintf(out,
          "\n"
          "Options:\n"
          "  -h, --help     show this help (or `%s <command> --help`)\n"
          "  -V, --version  show the tool and library versions\n"
          "\n"
          "Environment:\n"
          "  DESERT_FORCE_ISA  scalar|avx2|avx512|neon|auto: kernel set to use; an unknown\n"
          "                    or unavailable value falls back to automatic choice with a\n"
          "                    warning on standard error (`%s info` shows the details)\n"
          "\n"
          "Exit status:\n"
          "  0  success\n"
          "  1  the operation failed (invalid input data, library error)\n"
          "  2  usage error (unknown command or option, missing argument)\n"
          "  3  a file could not be opened, read or written\n"
          "  4  out of memory\n",
          cli_progname, cli_progname);
}

static void print_version(void) {
  printf("%s %s (libdesert %s)\n", cli_progname, DESERT_VERSION_STRING, desert_version_string());
}

/* A DESERT_FORCE_ISA that did not take effect would otherwise go unnoticed
 * (the library falls back to automatic choice): one warning per run. */
static void warn_force_isa(void) {
  const char *raw = getenv("DESERT_FORCE_ISA");
  if (!raw) return;
  desert_dispatch_info info;
  memset(&info, 0, sizeof info);
  desert_dispatch_info_get(&info);
  if (info.outcome == DESERT_OVERRIDE_UNKNOWN_NAME)
    fprintf(stderr,
            "%s: warning: DESERT_FORCE_ISA=\"%s\" names no ISA (use scalar, avx2, avx512, neon "
            "or auto): automatic choice used (%s)\n",
            cli_progname, raw, desert_isa_name(info.active));
  else if (info.outcome == DESERT_OVERRIDE_UNAVAILABLE)
    fprintf(stderr,
            "%s: warning: DESERT_FORCE_ISA=\"%s\": that ISA is not compiled in or not runnable "
            "on this CPU: automatic choice used (%s)\n",
            cli_progname, raw, desert_isa_name(info.active));
}

int main(int argc, char **argv) {
  warn_force_isa();
  if (argc < 2) {
    print_usage(stderr);
    return CLI_EXIT_USAGE;
  }
  const char *arg = argv[1];
  if (cli_is_help(arg)) {
    print_usage(stdout);
    return CLI_EXIT_OK;
  }
  if (strcmp(arg, "-V") == 0 || strcmp(arg, "--version") == 0) {
    print_version();
    return CLI_EXIT_OK;
  }
  if (strcmp(arg, "help") == 0) {
    if (argc < 3) {
      print_usage(stdout);
      return CLI_EXIT_OK;
    }
    const cli_command *c = find_command(argv[2]);
    if (c == NULL) return unknown_command(argv[2]);
    c->help(stdout);
    return CLI_EXIT_OK;
  }
  if (arg[0] == '-') {
    static const char *const known[] = {"--help", "--version"};
    cli_unknown(NULL, "option", arg, known, 2);
    return CLI_EXIT_USAGE;
  }
  const cli_command *c = find_command(arg);
  if (c == NULL) return unknown_command(arg);
  int rc = c->run(argc - 1, argv + 1);
  errno = 0;
  if (fflush(stdout) != 0 && rc == CLI_EXIT_OK) {
    if (cli_stdout_name)
      cli_io_error(c->name, errno, "cannot write '%s'", cli_stdout_name);
    else
      cli_io_error(c->name, errno, "cannot write to standard output");
    rc = CLI_EXIT_IO;
  }
  return rc;
}
