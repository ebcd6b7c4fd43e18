/* This file contains reading a notebook: the JSON checked for nbformat 4's
 * shape, and the code cells joined into one module, one separator line
 * between two cells, so that state flows from cell to cell as in a kernel. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "notebook/notebook.h"
#include "util/alloc.h"
#include "util/lines.h"
#include "util/vec.h"


bool notebook_path(const char *path) {
  size_t n = path ? strlen(path) : 0;
  return n > 6 && !strcmp(path + n - 6, ".ipynb");
}


/* The cell's source as one string: nbformat allows one string or a list of
 * strings (the lines, each with its line break but the last). */
static bool source_text(json_t *source, buf *out, bool *list) {
  if (json_is_string(source)) {
    *list = false;
    buf_append(out, json_string_value(source), json_string_length(source));
    return true;
  }
  if (!json_is_array(source)) return false;
  *list = true;
  size_t i;
  json_t *line;
  json_array_foreach(source, i, line) {
    if (!json_is_string(line)) return false;
    buf_append(out, json_string_value(line), json_string_length(line));
  }
  return true;
}


/* A cell in another language: VS Code's per-cell language, or a notebook
 * whose kernel is not Python's. */
static bool foreign(json_t *root, json_t *cell) {
  json_t *id = json_object_get(json_object_get(json_object_get(cell, "metadata"), "vscode"), "languageId");
  if (json_is_string(id) && strcasecmp(json_string_value(id), "python")) return true;
  json_t *meta = json_object_get(root, "metadata");
  json_t *lang = json_object_get(json_object_get(meta, "kernelspec"), "language");
  if (!json_is_string(lang)) lang = json_object_get(json_object_get(meta, "language_info"), "name");
  return json_is_string(lang) && strcasecmp(json_string_value(lang), "python") != 0;
}


static uint32_t count_rows(const char *text, size_t len) {
  uint32_t rows = 1;
  for (size_t i = 0; i < len; i++) rows += lines_breaks_at(text, len, i);
  /* a break at the very end opens no row of the cell's own */
  if (len && (text[len - 1] == '\n' || text[len - 1] == '\r')) rows--;
  return rows;
}


/* Append a cell's (blanked) text to MODULE: after a separator line unless
 * it is the first, and ended with a line break. */
static void append_cell(buf *module, const char *blanked, size_t len, bool first) {
  if (!first) buf_puts(module, NOTEBOOK_SEPARATOR "\n");
  buf_append(module, blanked, len);
  if (!len || (blanked[len - 1] != '\n' && blanked[len - 1] != '\r')) buf_putc(module, '\n');
}


void notebook_join(char *const *sources, const size_t *lens, size_t n, buf *out) {
  buf_clear(out);
  for (size_t i = 0; i < n; i++) {
    char *blanked = oom_xstrndup(sources[i], lens[i]);
    notebook_blank_magics(blanked, lens[i]);
    append_cell(out, blanked, lens[i], i == 0);
    free(blanked);
  }
}


static bool fail(notebook *out, char *why, size_t whylen, const char *fmt, const char *detail) {
  snprintf(why, whylen, fmt, detail);
  notebook_free(out);
  return false;
}


bool notebook_read(const char *bytes, size_t len, notebook *out, char *why, size_t whylen) {
  memset(out, 0, sizeof *out);
  json_error_t err;
  json_t *root = json_loadb(bytes, len, 0, &err);
  if (!root) {
    snprintf(why, whylen, "not a notebook: invalid JSON at line %d, column %d: %s", err.line, err.column, err.text);
    return false;
  }
  out->root = root;
  if (!json_is_object(root)) return fail(out, why, whylen, "not a notebook: %s", "the JSON is not an object");
  json_t *format = json_object_get(root, "nbformat");
  if (!json_is_integer(format))
    return fail(out, why, whylen, "not a notebook: %s", "no integer \"nbformat\"");
  if (json_integer_value(format) != 4) {
    char n[32];
    snprintf(n, sizeof n, "%lld", (long long)json_integer_value(format));
    return fail(out, why, whylen, "nbformat %s is not supported (only nbformat 4; `jupyter nbconvert --to notebook` upgrades it)", n);
  }
  json_t *cells = json_object_get(root, "cells");
  if (!json_is_array(cells)) return fail(out, why, whylen, "not a notebook: %s", "no \"cells\" list");
  buf module = {0};
  VEC(notebook_cell) code = {0};
  size_t i;
  json_t *cell;
  uint32_t row = 0;
  json_array_foreach(cells, i, cell) {
    json_t *type = json_object_get(cell, "cell_type");
    if (!json_is_object(cell) || !json_is_string(type)) {
      for (size_t k = 0; k < code.len; k++) {
        free(code.items[k].source);
        free(code.items[k].blanked);
      }
      vec_free(&code);
      buf_free(&module);
      char n[32];
      snprintf(n, sizeof n, "%zu", i + 1);
      return fail(out, why, whylen, "not a notebook: cell %s has no \"cell_type\"", n);
    }
    if (strcmp(json_string_value(type), "code")) continue;
    notebook_cell c = {.index = (uint32_t)i};
    buf text = {0};
    if (!source_text(json_object_get(cell, "source"), &text, &c.list)) {
      buf_free(&text);
      for (size_t k = 0; k < code.len; k++) {
        free(code.items[k].source);
        free(code.items[k].blanked);
      }
      vec_free(&code);
      buf_free(&module);
      char n[32];
      snprintf(n, sizeof n, "%zu", i + 1);
      return fail(out, why, whylen, "not a notebook: the source of cell %s is not a string or a list of strings", n);
    }
    c.source_len = text.len;
    c.source = oom_xstrndup(buf_str(&text), text.len);
    c.blanked = oom_xstrndup(buf_str(&text), text.len);
    buf_free(&text);
    if (foreign(root, cell)) {
      /* another language: its lines are kept as blanks, so rows still count */
      for (size_t k = 0; k < c.source_len; k++)
        if (c.blanked[k] != '\n' && c.blanked[k] != '\r') c.blanked[k] = ' ';
      c.has_magic = c.source_len > 0;
    } else {
      c.has_magic = notebook_blank_magics(c.blanked, c.source_len);
    }
    row += code.len > 0; /* the separator's */
    c.first_row = row;
    c.rows = count_rows(c.blanked, c.source_len);
    append_cell(&module, c.blanked, c.source_len, code.len == 0);
    row += c.rows;
    vec_push(&code, c);
  }
  out->cells = code.items;
  out->ncells = code.len;
  out->module_len = module.len;
  out->module = module.data ? module.data : oom_xstrdup("");
  notebook_find_spans(out, bytes, len);
  return true;
}


uint32_t *notebook_cell_rows(const notebook *self) {
  uint32_t *rows = oom_xcalloc(self->ncells + 1, sizeof *rows);
  for (size_t i = 0; i < self->ncells; i++) rows[i] = self->cells[i].first_row;
  return rows;
}


void notebook_free(notebook *self) {
  for (size_t i = 0; i < self->ncells; i++) {
    free(self->cells[i].source);
    free(self->cells[i].blanked);
  }
  free(self->cells);
  free(self->module);
  free(self->file_rows);
  json_decref(self->root);
  memset(self, 0, sizeof *self);
}
