/* The language server's state, shared by the files that handle its messages:
 * server.c (lifecycle, text sync), actions.c, hover.c, settings.c. */
#ifndef OOM_LSP_SERVER_H
#define OOM_LSP_SERVER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "lsp/linting.h"
#include "lsp/lsp.h"
#include "lsp/notebook.h"
#include "lsp/rpc.h"
#include "lsp/text.h"
#include "lsp/uri.h"
#include "oomlint/oomlint.h"
#include "util/vec.h"

/** An open document as the main thread sees it. */
typedef struct {
  char *uri, *path;
  int64_t version;
  lsp_text text;
  lsp_notebook *notebook; /* a notebook cell's: linted with its notebook, not alone */
} lsp_document;

typedef struct lsp_server {
  lsp_writer out;
  FILE *log;
  lsp_linting *linting;
  const lsp_options *options; /* the command line's; borrowed */
  config_overrides settings;  /* the last settings handed to the lint thread (flags and editor's) */
  oom_units units;            /* the negotiated position encoding */
  bool pull;                  /* the client pulls diagnostics (textDocument/diagnostic) */
  bool document_changes;      /* the client takes versioned WorkspaceEdit.documentChanges */
  bool refresh;               /* the client takes workspace/diagnostic/refresh */
  bool watch;                 /* the client registers file watchers on request */
  bool relative_patterns;     /* ... and takes RelativePattern globs */
  VEC(char *) roots;          /* the workspace folders' paths, folded; the first one anchors rulesDir */
  json_t *editor_settings;    /* the client's last settings, read again when the first folder changes */
  VEC(lsp_document *) docs;
  VEC(lsp_notebook *) notebooks;
  bool initialized, shutdown, exited;
  int64_t next_request_id;  /* of requests the server sends */
} lsp_server;

lsp_document *lsp_server_document(lsp_server *self, const char *uri);
/** Open a document the server keeps without linting it alone (a notebook
 *  cell), or drop one; the lint thread never hears of them. */
lsp_document *lsp_server_add_document(lsp_server *self, const char *uri, int64_t version, const char *text,
                                      size_t length);
void lsp_server_remove_document(lsp_server *self, const char *uri);
void lsp_log(lsp_server *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** window/showMessage; TYPE 1 error, 2 warning, 3 info. */
void lsp_show_message(lsp_server *self, int type, const char *message);

/** textDocument/hover: the result (JSON null when there is nothing to show). */
json_t *lsp_hover(lsp_server *self, const json_t *params);
/** textDocument/codeAction: answers ID now, or once the diagnostics are current. */
void lsp_code_action(lsp_server *self, json_t *id, const json_t *params);

#endif
