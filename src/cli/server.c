/* This file contains `oomlint server`: the language server on stdin and
 * stdout, for editors (VS Code, Neovim, Helix, Emacs). */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lsp/lsp.h"


int cli_server(const cli_flags *flags, int argc, char **argv) {
  if (argc > 0)
    return cli_usage_error("`server` takes no paths (got `%s`); it speaks LSP on stdin and stdout", argv[0]);
  /* a client that goes away must end the write with an error, not the process */
  signal(SIGPIPE, SIG_IGN);
  lsp_options options = {&flags->over, flags->config_path, flags->isolated};
  return lsp_serve(&options, STDIN_FILENO, STDOUT_FILENO, stderr);
}
