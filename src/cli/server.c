/* This file contains `oomlint server`: the language server on stdin and
 * stdout, for editors (VS Code, Neovim, Helix, Emacs). */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lsp/lsp.h"


int cli_server(const oom_linter *linter, int argc, char **argv, const cli *c) {
  (void)c;
  if (argc > 0)
    return cli_usage_error("`server` takes no paths (got `%s`); it speaks LSP on stdin and stdout", argv[0]);
  /* a client that goes away must end the write with an error, not the process */
  signal(SIGPIPE, SIG_IGN);
  return lsp_serve(linter, STDIN_FILENO, STDOUT_FILENO, stderr);
}
