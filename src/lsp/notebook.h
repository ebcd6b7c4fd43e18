/* Notebook documents (LSP 3.17's notebookDocument/didOpen, didChange and
 * didClose): a notebook's code cells are linted as one module, as the
 * command line lints a `.ipynb`, and the diagnostics are published to each
 * cell's own URI in the cell's lines. */
#ifndef OOM_LSP_NOTEBOOK_H
#define OOM_LSP_NOTEBOOK_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "lsp/rpc.h"
#include "util/buf.h"
#include "util/vec.h"

typedef struct lsp_server lsp_server;

/** One open notebook as the main thread sees it: its cells in order (their
 *  text is in the server's documents, one per code cell). */
typedef struct lsp_notebook {
  char *uri, *path;
  int64_t version;
  VEC(char *) cells; /* every cell's document URI, in the notebook's order */
  VEC(int) kinds;    /* NotebookCellKind of each: 1 markup, 2 code */
  VEC(char *) linted; /* the code cells last handed to the lint thread, which publishes to them */
  VEC(uint32_t) rows; /* the module row where each of LINTED starts */
  buf module;         /* the module last handed over: the next is sent as one edit of it */
  bool sent;          /* the lint thread has the notebook open */
} lsp_notebook;

/** notebookDocument/didOpen, didChange, didClose (didSave needs nothing). */
void lsp_notebook_did_open(lsp_server *self, const json_t *params);
void lsp_notebook_did_change(lsp_server *self, const json_t *params);
void lsp_notebook_did_close(lsp_server *self, const json_t *params);
void lsp_notebook_free(lsp_notebook *nb);
/** The diagnostics of the notebook's last lint that are in the cell at
 *  CELL_URI, in the cell's lines (a new reference), for hover; NULL when
 *  the cell has none known. */
json_t *lsp_notebook_cell_diagnostics(lsp_server *self, lsp_notebook *nb, const char *cell_uri);

/** Publish DIAGNOSTICS (of a notebook's module TEXT, LEN bytes, linted at
 *  VERSION) to the code cells, CELLS[i] the URI of the module's cell i:
 *  each diagnostic in its cell's lines, a fix whose edits leave the cell
 *  dropped; every cell gets a (perhaps empty) list. On the lint thread. */
void lsp_notebook_publish(lsp_writer *out, const char *text, size_t len, const json_t *diagnostics,
                          char *const *cells, size_t ncells, int64_t version);

#endif
