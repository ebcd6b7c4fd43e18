/* The command line's fixing (--fix, --unsafe-fixes, --diff, --show-fixes):
 * one file at a time, and the totals the summary reports. */
#ifndef OOM_CLI_FIXING_H
#define OOM_CLI_FIXING_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "util/buf.h"

typedef struct {
  size_t fixed;   /* fixes applied (with --diff: that would be applied) */
  size_t files;   /* files changed (or that would be) */
  buf shown;      /* the --show-fixes listing, one block per file */
} fix_totals;

/** The level fixes apply at: OOM_FIX_UNSAFE with --unsafe-fixes, else safe. */
oom_applicability cli_fix_level(const cli *c);

/** Lint TEXT (read from PATH; NULL for stdin) reported as SHOWN and fix it as
 *  C asks: --diff prints the diff to stdout; --fix writes PATH atomically, or
 *  for stdin prints the fixed text to stdout. Dropped fixes and write errors
 *  are reported on stderr; a write error sets *IO_ERROR and leaves the file
 *  as it was. Returns the linted document whose diagnostics remain. */
oom_document *cli_fix_file(const cli *c, oom_worker *worker, const char *path, const char *shown, const char *text,
                           size_t len, fix_totals *totals, bool *io_error);

#endif
