/* This file contains notebook documents: the main thread keeps each open
 * notebook's cells (their text as documents of the server, so that code
 * actions on a cell read its lines) and hands the lint thread the module of
 * the code cells, which src/notebook builds as for a `.ipynb` on the
 * command line; the lint thread publishes the module's diagnostics to the
 * cells, each moved into its cell's lines. */
#include "lsp/notebook.h"

#include <stdlib.h>
#include <string.h>

#include "lsp/server.h"
#include "notebook/notebook.h"
#include "util/alloc.h"
#include "util/buf.h"


/* ---- the lint thread's side: diagnostics to cells ---- */

/* Move POSITION's line LINE up by FIRST; false when it is not in the cell
 * [FIRST, LAST] (LAST UINT32_MAX: the last cell). */
static bool move(json_t *position, uint32_t first, uint32_t last) {
  json_int_t line = json_integer_value(json_object_get(position, "line"));
  if (line < first || line > last) return false;
  json_object_set_new(position, "line", json_integer(line - first));
  return true;
}


static bool move_range(json_t *range, uint32_t first, uint32_t last) {
  bool start = move(json_object_get(range, "start"), first, last);
  return move(json_object_get(range, "end"), first, last) && start;
}


void lsp_notebook_publish(lsp_writer *out, const char *text, size_t len, const json_t *diagnostics,
                          char *const *cells, size_t ncells, int64_t version) {
  (void)version; /* a cell's version is not its notebook's: left out */
  uint32_t *rows = oom_xcalloc(ncells + 1, sizeof *rows);
  bool shaped = notebook_module_rows(text, len, ncells, rows);
  json_t **per = oom_xcalloc(ncells + 1, sizeof *per);
  for (size_t k = 0; k < ncells; k++) per[k] = json_array();
  size_t i;
  json_t *d;
  json_array_foreach(shaped ? diagnostics : NULL, i, d) {
    json_t *range = json_object_get(d, "range");
    json_int_t line = json_integer_value(json_object_get(json_object_get(range, "start"), "line"));
    size_t k = 0;
    while (k + 1 < ncells && rows[k + 1] <= line) k++;
    uint32_t first = rows[k], last = k + 1 < ncells ? rows[k + 1] - 2 : UINT32_MAX;
    if (line < first) continue; /* before the first cell: none */
    json_t *copy = json_deep_copy(d);
    json_t *r = json_object_get(copy, "range");
    if (line > last) {
      /* on the separator after the cell (an unclosed bracket's error): its last line */
      json_object_set_new(json_object_get(r, "start"), "line", json_integer(last));
      json_object_set_new(json_object_get(r, "start"), "character", json_integer(1 << 20));
    }
    if (!move_range(r, first, last)) {
      /* ends past its cell: cut at the cell's end */
      json_t *end = json_object_get(r, "end");
      json_object_set_new(end, "line", json_integer(last - first));
      json_object_set_new(end, "character", json_integer(1 << 20));
    }
    json_t *data = json_object_get(copy, "data");
    json_t *edits = json_object_get(json_object_get(data, "fix"), "edits");
    size_t e;
    json_t *edit;
    bool inside = true;
    json_array_foreach(edits, e, edit) inside = move_range(json_object_get(edit, "range"), first, last) && inside;
    if (!inside) json_object_del(data, "fix"); /* a fix across cells cannot be one cell's edit */
    json_array_append_new(per[k], copy);
  }
  for (size_t k = 0; k < ncells; k++)
    lsp_send_notification(out, "textDocument/publishDiagnostics",
                          json_pack("{s:s, s:o}", "uri", cells[k], "diagnostics", per[k]));
  free(per);
  free(rows);
}


/* ---- the main thread's side: notebook synchronisation ---- */

static lsp_notebook *find(lsp_server *self, const char *uri) {
  for (size_t i = 0; uri && i < self->notebooks.len; i++)
    if (!strcmp(self->notebooks.items[i]->uri, uri)) return self->notebooks.items[i];
  return NULL;
}


static void clear(lsp_server *self, const char *cell) {
  lsp_send_notification(&self->out, "textDocument/publishDiagnostics",
                        json_pack("{s:s, s:[]}", "uri", cell, "diagnostics"));
}


static void free_strings(char **items, size_t n) {
  for (size_t i = 0; i < n; i++) free(items[i]);
}


/* Hand the lint thread the module of NB's code cells as they are now; clear
 * the diagnostics of cells that are no longer linted. */
static void relint(lsp_server *self, lsp_notebook *nb) {
  VEC(char *) uris = {0};
  VEC(char *) sources = {0};
  VEC(size_t) lens = {0};
  for (size_t i = 0; i < nb->cells.len; i++) {
    lsp_document *d = lsp_server_document(self, nb->cells.items[i]);
    if (nb->kinds.items[i] != 2 || !d || d->notebook != nb) continue;
    vec_push(&uris, d->uri);
    vec_push(&sources, d->text.data);
    vec_push(&lens, d->text.len);
  }
  buf module = {0};
  notebook_join(sources.items, lens.items, sources.len, &module);
  if (uris.len) {
    /* the change as one edit of the last module (typing in a cell touches
     * one span), so the lint thread can relint only the definition in it */
    const char *old = buf_str(&nb->module), *now = buf_str(&module);
    size_t p = 0, s = 0;
    while (p < nb->module.len && p < module.len && old[p] == now[p]) p++;
    while (s < nb->module.len - p && s < module.len - p && old[nb->module.len - 1 - s] == now[module.len - 1 - s]) s++;
    lsp_byte_edit edit = {p, nb->module.len - s, now + p, module.len - s - p};
    lsp_linting_notebook(self->linting, nb->uri, nb->path, nb->version, now, module.len, nb->sent ? &edit : NULL,
                         uris.items, uris.len);
    nb->sent = true;
  } else {
    lsp_linting_close(self->linting, nb->uri);
    nb->sent = false;
  }
  buf_clear(&nb->module);
  buf_append(&nb->module, module.data ? module.data : "", module.len);
  for (size_t i = 0; i < nb->linted.len; i++) {
    bool kept = false;
    for (size_t k = 0; k < uris.len && !kept; k++) kept = !strcmp(uris.items[k], nb->linted.items[i]);
    if (!kept) clear(self, nb->linted.items[i]);
  }
  free_strings(nb->linted.items, nb->linted.len);
  nb->linted.len = 0;
  for (size_t k = 0; k < uris.len; k++) vec_push(&nb->linted, oom_xstrdup(uris.items[k]));
  vec_reserve(&nb->rows, uris.len + 1);
  nb->rows.len = notebook_module_rows(module.data, module.len, uris.len, nb->rows.items) ? uris.len : 0;
  buf_free(&module);
  vec_free(&uris);
  vec_free(&sources);
  vec_free(&lens);
}


/* A cell text document (TextDocumentItem) of NB opened. */
static void open_cell(lsp_server *self, lsp_notebook *nb, const json_t *item) {
  const char *uri = json_string_value(json_object_get(item, "uri"));
  const json_t *text = json_object_get(item, "text");
  if (!uri || !json_is_string(text)) {
    lsp_log(self, "a notebook cell without a uri or text: ignored");
    return;
  }
  lsp_document *d = lsp_server_add_document(self, uri, json_integer_value(json_object_get(item, "version")),
                                            json_string_value(text), json_string_length(text));
  d->notebook = nb;
}


/* NotebookCell objects CELLS inserted at AT. */
static void insert_cells(lsp_notebook *nb, size_t at, const json_t *cells) {
  size_t i;
  json_t *c;
  json_array_foreach(cells, i, c) {
    const char *uri = json_string_value(json_object_get(c, "document"));
    if (!uri) continue;
    vec_reserve(&nb->cells, 1);
    vec_reserve(&nb->kinds, 1);
    if (at > nb->cells.len) at = nb->cells.len;
    memmove(nb->cells.items + at + 1, nb->cells.items + at, (nb->cells.len - at) * sizeof *nb->cells.items);
    memmove(nb->kinds.items + at + 1, nb->kinds.items + at, (nb->kinds.len - at) * sizeof *nb->kinds.items);
    nb->cells.items[at] = oom_xstrdup(uri);
    nb->kinds.items[at] = (int)json_integer_value(json_object_get(c, "kind"));
    nb->cells.len++;
    nb->kinds.len++;
    at++;
  }
}


static void close_notebook(lsp_server *self, lsp_notebook *nb) {
  lsp_linting_close(self->linting, nb->uri);
  for (size_t i = 0; i < nb->linted.len; i++) clear(self, nb->linted.items[i]);
  for (size_t i = 0; i < self->docs.len;) {
    lsp_document *d = self->docs.items[i];
    if (d->notebook == nb) lsp_server_remove_document(self, d->uri);
    else i++;
  }
  for (size_t i = 0; i < self->notebooks.len; i++)
    if (self->notebooks.items[i] == nb) {
      memmove(self->notebooks.items + i, self->notebooks.items + i + 1,
              (self->notebooks.len - i - 1) * sizeof *self->notebooks.items);
      self->notebooks.len--;
      break;
    }
  lsp_notebook_free(nb);
}


void lsp_notebook_free(lsp_notebook *nb) {
  if (!nb) return;
  free_strings(nb->cells.items, nb->cells.len);
  vec_free(&nb->cells);
  vec_free(&nb->kinds);
  free_strings(nb->linted.items, nb->linted.len);
  vec_free(&nb->linted);
  vec_free(&nb->rows);
  buf_free(&nb->module);
  free(nb->uri);
  free(nb->path);
  free(nb);
}


json_t *lsp_notebook_cell_diagnostics(lsp_server *self, lsp_notebook *nb, const char *cell_uri) {
  size_t k = 0;
  while (k < nb->rows.len && strcmp(nb->linted.items[k], cell_uri)) k++;
  if (k == nb->rows.len) return NULL;
  json_t *all = lsp_linting_snapshot(self->linting, nb->uri, NULL, NULL, NULL, 0);
  if (!all) return NULL;
  uint32_t first = nb->rows.items[k], last = k + 1 < nb->rows.len ? nb->rows.items[k + 1] - 2 : UINT32_MAX;
  json_t *out = json_array();
  size_t i;
  json_t *d;
  json_array_foreach(all, i, d) {
    json_t *copy = json_deep_copy(d);
    if (move_range(json_object_get(copy, "range"), first, last)) json_array_append(out, copy);
    json_decref(copy);
  }
  json_decref(all);
  return out;
}


void lsp_notebook_did_open(lsp_server *self, const json_t *params) {
  const json_t *doc = json_object_get(params, "notebookDocument");
  const char *uri = json_string_value(json_object_get(doc, "uri"));
  const json_t *cells = json_object_get(doc, "cells");
  if (!uri || !json_is_array(cells)) {
    lsp_log(self, "notebookDocument/didOpen without a uri or cells: ignored");
    return;
  }
  lsp_notebook *old = find(self, uri);
  if (old) close_notebook(self, old); /* opened twice: the newer one wins */
  lsp_notebook *nb = oom_xcalloc(1, sizeof *nb);
  nb->uri = oom_xstrdup(uri);
  nb->path = lsp_uri_to_path(uri);
  nb->version = json_integer_value(json_object_get(doc, "version"));
  insert_cells(nb, 0, cells);
  vec_push(&self->notebooks, nb);
  size_t i;
  json_t *item;
  json_array_foreach(json_object_get(params, "cellTextDocuments"), i, item) open_cell(self, nb, item);
  relint(self, nb);
}


/* Apply a cell's content changes (TextDocumentContentChangeEvent[]). */
static void change_text(lsp_server *self, lsp_document *d, const json_t *changes) {
  size_t i;
  json_t *c;
  json_array_foreach(changes, i, c) {
    const json_t *text = json_object_get(c, "text");
    if (!json_is_string(text)) continue;
    const json_t *range = json_object_get(c, "range");
    if (!range) {
      lsp_text_free(&d->text);
      lsp_text_init(&d->text, json_string_value(text), json_string_length(text));
      continue;
    }
    size_t start, end;
    if (!lsp_range_bytes(&d->text, range, self->units, &start, &end)) {
      lsp_log(self, "a notebook cell change with a malformed range: ignored");
      continue;
    }
    lsp_text_replace(&d->text, start, end, json_string_value(text), json_string_length(text));
  }
}


void lsp_notebook_did_change(lsp_server *self, const json_t *params) {
  const json_t *doc = json_object_get(params, "notebookDocument");
  lsp_notebook *nb = find(self, json_string_value(json_object_get(doc, "uri")));
  if (!nb) {
    lsp_log(self, "notebookDocument/didChange of a notebook that is not open: ignored");
    return;
  }
  nb->version = json_integer_value(json_object_get(doc, "version"));
  const json_t *cells = json_object_get(json_object_get(params, "change"), "cells");
  const json_t *structure = json_object_get(cells, "structure");
  if (structure) {
    const json_t *array = json_object_get(structure, "array");
    size_t start = (size_t)json_integer_value(json_object_get(array, "start"));
    size_t count = (size_t)json_integer_value(json_object_get(array, "deleteCount"));
    if (start > nb->cells.len) start = nb->cells.len;
    if (count > nb->cells.len - start) count = nb->cells.len - start;
    free_strings(nb->cells.items + start, count);
    memmove(nb->cells.items + start, nb->cells.items + start + count,
            (nb->cells.len - start - count) * sizeof *nb->cells.items);
    memmove(nb->kinds.items + start, nb->kinds.items + start + count,
            (nb->kinds.len - start - count) * sizeof *nb->kinds.items);
    nb->cells.len -= count;
    nb->kinds.len -= count;
    insert_cells(nb, start, json_object_get(array, "cells"));
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(structure, "didClose"), i, item) {
      const char *uri = json_string_value(json_object_get(item, "uri"));
      lsp_document *d = lsp_server_document(self, uri);
      if (d && d->notebook == nb) lsp_server_remove_document(self, uri);
    }
    json_array_foreach(json_object_get(structure, "didOpen"), i, item) open_cell(self, nb, item);
  }
  size_t i;
  json_t *c;
  json_array_foreach(json_object_get(cells, "data"), i, c) {
    const char *uri = json_string_value(json_object_get(c, "document"));
    for (size_t k = 0; uri && k < nb->cells.len; k++)
      if (!strcmp(nb->cells.items[k], uri)) nb->kinds.items[k] = (int)json_integer_value(json_object_get(c, "kind"));
  }
  json_array_foreach(json_object_get(cells, "textContent"), i, c) {
    const json_t *id = json_object_get(c, "document");
    lsp_document *d = lsp_server_document(self, json_string_value(json_object_get(id, "uri")));
    if (!d || d->notebook != nb) {
      lsp_log(self, "a change to a notebook cell that is not open: ignored");
      continue;
    }
    change_text(self, d, json_object_get(c, "changes"));
    d->version = json_integer_value(json_object_get(id, "version"));
  }
  relint(self, nb);
}


void lsp_notebook_did_close(lsp_server *self, const json_t *params) {
  const json_t *doc = json_object_get(params, "notebookDocument");
  lsp_notebook *nb = find(self, json_string_value(json_object_get(doc, "uri")));
  if (!nb) {
    lsp_log(self, "notebookDocument/didClose of a notebook that is not open: ignored");
    return;
  }
  close_notebook(self, nb);
}
