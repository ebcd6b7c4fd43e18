/* The language server's entry point: `oomlint server` runs it on stdio. */
#ifndef OOM_LSP_LSP_H
#define OOM_LSP_LSP_H

#include <stdio.h>

#include "oomlint/oomlint.h"

/** Serve LSP on IN_FD/OUT_FD, logging to LOG, with LINTER (borrowed) until
 *  the client's settings replace it. Returns the exit status: 0 when the
 *  client sent `shutdown` before `exit` (or the end of input), else 1. */
int lsp_serve(const oom_linter *linter, int in_fd, int out_fd, FILE *log);

#endif
