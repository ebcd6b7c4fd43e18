/* The language server's entry point: `oomlint server` runs it on stdio. */
#ifndef OOM_LSP_LSP_H
#define OOM_LSP_LSP_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"
#include "oomlint/oomlint.h"

/** What the server's command line said. Each document's settings are its
 *  configuration file's, under FLAGS, under the editor's settings. */
typedef struct {
  const config_overrides *flags; /* --select, --ignore, ...: borrowed */
  const char *config_path;       /* --config: this file for every document */
  bool isolated;                 /* --isolated: no configuration files */
} lsp_options;

/** Serve LSP on IN_FD/OUT_FD, logging to LOG. Returns the exit status: 0
 *  when the client sent `shutdown` before `exit` (or the end of input), else 1. */
int lsp_serve(const lsp_options *options, int in_fd, int out_fd, FILE *log);

#endif
