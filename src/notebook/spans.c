/* This file contains finding where each code cell's "source" value lies in
 * the notebook's bytes, so that a fix rewrites those bytes and no others.
 * jansson tells values, not where they were; this scanner only skips
 * strings and brackets along the path cells[i].source, and every span it
 * finds is checked by parsing it with jansson and comparing with the value
 * jansson read: a span is trusted only when both agree. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "notebook/notebook.h"


static size_t skip_ws(const char *b, size_t len, size_t i) {
  while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) i++;
  return i;
}


/* B[I] is '"': the offset after the closing quote, or LEN. */
static size_t skip_string(const char *b, size_t len, size_t i) {
  for (i++; i < len; i++) {
    if (b[i] == '\\') i++;
    else if (b[i] == '"') return i + 1;
  }
  return len;
}


/* The offset after the value starting at I (a string, a container with
 * everything in it, or a literal), or LEN when it does not end. */
static size_t skip_value(const char *b, size_t len, size_t i) {
  if (i >= len) return len;
  if (b[i] == '"') return skip_string(b, len, i);
  if (b[i] == '{' || b[i] == '[') {
    size_t depth = 0;
    while (i < len) {
      char c = b[i];
      if (c == '"') {
        i = skip_string(b, len, i);
        continue;
      }
      if (c == '{' || c == '[') depth++;
      else if (c == '}' || c == ']') {
        if (--depth == 0) return i + 1;
      }
      i++;
    }
    return len;
  }
  while (i < len && !strchr(",}] \t\r\n", b[i])) i++;
  return i;
}


/* I at '{' or ',' or after a value inside an object: move to the next key.
 * Returns false at the object's end (I after the '}') or on damage. */
static bool next_key(const char *b, size_t len, size_t *i, size_t *key, size_t *key_end, bool first) {
  size_t p = skip_ws(b, len, *i);
  if (p >= len) return false;
  if (first) {
    if (b[p] != '{') return false;
    p = skip_ws(b, len, p + 1);
  } else {
    if (b[p] == '}') return false;
    if (b[p] != ',') return false;
    p = skip_ws(b, len, p + 1);
  }
  if (p >= len || b[p] != '"') return false;
  *key = p;
  *key_end = skip_string(b, len, p);
  p = skip_ws(b, len, *key_end);
  if (p >= len || b[p] != ':') return false;
  *i = skip_ws(b, len, p + 1);
  return true;
}


static bool key_is(const char *b, size_t key, size_t key_end, const char *name) {
  size_t n = strlen(name);
  return key_end - key == n + 2 && !memcmp(b + key + 1, name, n);
}


/* SELF's file_rows: a source line's file line is that of the list element
 * (or the string) it starts in; a JSON string holds no raw line break. */
static void file_rows(notebook *self, const char *b, size_t len) {
  size_t nrows = 0;
  for (size_t k = 0; k < self->ncells; k++) nrows = self->cells[k].first_row + self->cells[k].rows;
  uint32_t *rows = calloc(nrows + 1, sizeof *rows);
  if (!rows) return;
  /* file lines counted once, up to each span in turn */
  size_t at = 0;
  uint32_t line = 0;
  for (size_t k = 0; k < self->ncells; k++) {
    const notebook_cell *c = &self->cells[k];
    uint32_t row = c->first_row; /* the module row of the next line to start */
    if (k) rows[row - 1] = rows[row - 2]; /* the separator: the cell before's last line */
    bool line_start = true;
    size_t i = c->span_start;
    size_t end = c->span_end;
    if (b[i] == '[') i++;
    while (i < end) {
      for (; at < i; at++) line += b[at] == '\n';
      if (b[i] != '"') {
        i++;
        continue;
      }
      /* a string: lines start at its beginning (when the last one ended)
       * and after each escaped break inside it */
      size_t s = i + 1;
      for (i = s; i < end && b[i] != '"'; i++) {
        if (line_start && row < c->first_row + c->rows) rows[row++] = line;
        line_start = false;
        if (b[i] != '\\') continue;
        i++;
        bool n = i < end && b[i] == 'n', r = i < end && b[i] == 'r';
        bool crlf = r && i + 2 < end && b[i + 1] == '\\' && b[i + 2] == 'n';
        if (n || (r && !crlf)) line_start = true;
      }
      i++;
    }
    for (; at < end && at < len; at++) line += b[at] == '\n';
    /* an empty cell still has its row */
    while (row < c->first_row + c->rows) rows[row++] = line;
  }
  self->file_rows = rows;
  self->nfile_rows = nrows;
}


void notebook_find_spans(notebook *self, const char *b, size_t len) {
  self->spans_ok = false;
  size_t i = 0, key, key_end;
  bool found_cells = false;
  for (bool first = true; next_key(b, len, &i, &key, &key_end, first); first = false) {
    if (!key_is(b, key, key_end, "cells")) {
      i = skip_value(b, len, i);
      continue;
    }
    if (i >= len || b[i] != '[') return;
    found_cells = true;
    /* the cells, in order: the K-th element is cell K */
    size_t cell = 0, next_code = 0;
    i = skip_ws(b, len, i + 1);
    while (i < len && b[i] != ']') {
      size_t start = i;
      size_t after = skip_value(b, len, i);
      if (after == start) return; /* damaged: no value here */
      if (next_code < self->ncells && self->cells[next_code].index == cell && b[start] == '{') {
        notebook_cell *c = &self->cells[next_code++];
        size_t j = start;
        for (bool f = true; next_key(b, len, &j, &key, &key_end, f); f = false) {
          size_t vend = skip_value(b, len, j);
          if (key_is(b, key, key_end, "source")) { /* the last one counts, as in jansson */
            c->span_start = j;
            c->span_end = vend;
          }
          j = vend;
        }
      }
      cell++;
      i = skip_ws(b, len, after);
      if (i < len && b[i] == ',') i = skip_ws(b, len, i + 1);
    }
    i = i < len ? i + 1 : len;
  }
  if (!found_cells) return;
  json_t *cells = json_object_get(self->root, "cells");
  for (size_t k = 0; k < self->ncells; k++) {
    notebook_cell *c = &self->cells[k];
    if (c->span_end <= c->span_start) return;
    json_t *v = json_loadb(b + c->span_start, c->span_end - c->span_start, JSON_DECODE_ANY, NULL);
    bool same = v && json_equal(v, json_object_get(json_array_get(cells, c->index), "source"));
    json_decref(v);
    if (!same) return;
  }
  self->spans_ok = true;
  file_rows(self, b, len);
}
