/* The command line's shared state: parsed options, and one function per
 * subcommand (each in its own file: check.c, rules.c). */
#ifndef OOM_CLI_CLI_H
#define OOM_CLI_CLI_H

#include <stdbool.h>

#include "emit/emit.h"
#include "oomlint/oomlint.h"

#define EXIT_CLEAN 0
#define EXIT_FOUND 1
#define EXIT_USAGE 2

typedef struct {
  oom_options *options;
  emit_format format;
  const char *format_name;
  bool statistics, exit_zero, quiet, predicates;
  const char *stdin_filename;
  int color; /* -1 auto, 0 never, 1 always */
  /* --fix writes fixed files; --diff prints what it would change instead;
   * --unsafe-fixes applies (and marks as fixable) unsafe fixes too */
  bool fix, unsafe_fixes, diff, show_fixes;
} cli;


/** `oomlint [check] PATH...`: lint and report. */
int cli_check(const oom_linter *linter, int argc, char **argv, const cli *c);
/** `oomlint rule CODE` / `oomlint rule --predicates`. */
int cli_rule(const oom_linter *linter, int argc, char **argv, const cli *c);
/** `oomlint rules`. */
int cli_rules(const oom_linter *linter, const cli *c);
/** `oomlint server`: the language server on stdio (server.c). */
int cli_server(const oom_linter *linter, int argc, char **argv, const cli *c);
/** `oomlint estimate PATH`: the static memory estimate (estimate.c). */
int cli_estimate(const oom_linter *linter, int argc, char **argv, const cli *c);
/** Print "oomlint: " + message + a usage hint to stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);

#endif
