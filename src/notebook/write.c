/* This file contains the way back from a fixed module to the notebook: the
 * module cut into cells at the separators, the blanked magics put back, and
 * the new sources spliced into the notebook's bytes at their cells'
 * "source" spans (notebook_find_spans), in the style each had. Only the
 * sources that changed are rewritten; the result is parsed again and
 * compared with the original JSON before anything is written. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notebook/notebook.h"
#include "util/alloc.h"
#include "util/vec.h"


static bool is_separator(const char *s, const char *e) {
  while (s < e && (*s == ' ' || *s == '\t')) s++;
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
  size_t n = strlen(NOTEBOOK_SEPARATOR);
  return (size_t)(e - s) == n && !memcmp(s, NOTEBOOK_SEPARATOR, n);
}


static bool line_start(const char *t, size_t at) {
  return at == 0 || t[at - 1] == '\n' || t[at - 1] == '\r';
}


/* The new source of cell C from CHUNK (its part of the fixed module): the
 * lines that changed taken from CHUNK, the others from the original, whose
 * magics are thus put back. False when a changed line was a blanked one. */
static bool restore(const notebook_cell *c, const char *chunk, size_t clen, char **out, size_t *out_len) {
  const char *old = c->blanked;
  size_t blen = c->source_len;
  if (clen == blen && !memcmp(chunk, old, blen)) {
    *out = oom_xstrndup(c->source, c->source_len);
    *out_len = c->source_len;
    return true;
  }
  size_t p = 0;
  while (p < blen && p < clen && old[p] == chunk[p]) p++;
  while (p > 0 && !line_start(old, p)) p--;
  size_t s = 0;
  while (s < blen - p && s < clen - p && old[blen - 1 - s] == chunk[clen - 1 - s]) s++;
  while (s > 0 && !line_start(old, blen - s)) s--;
  if (c->has_magic && memcmp(old + p, c->source + p, blen - s - p)) return false;
  buf b = {0};
  buf_append(&b, c->source, p);
  buf_append(&b, chunk + p, clen - s - p);
  buf_append(&b, c->source + blen - s, s);
  *out_len = b.len;
  *out = b.data ? b.data : oom_xstrdup("");
  return true;
}


bool notebook_module_rows(const char *module, size_t len, size_t ncells, uint32_t *rows) {
  if (!ncells) return true;
  size_t cell = 0;
  rows[cell++] = 0;
  uint32_t row = 0;
  for (size_t i = 0; i < len && cell < ncells;) {
    size_t e = i;
    while (e < len && module[e] != '\n' && module[e] != '\r') e++;
    size_t next = e < len ? e + 1 + (module[e] == '\r' && e + 1 < len && module[e + 1] == '\n') : len;
    row++;
    if (is_separator(module + i, module + e)) rows[cell++] = row;
    i = next;
  }
  return cell == ncells;
}


bool notebook_split(const notebook *self, const char *module, size_t len, char **out, size_t *out_lens, char *why,
                    size_t whylen) {
  size_t cell = 0, chunk = 0;
  for (size_t i = 0; i <= len && cell < self->ncells;) {
    size_t e = i;
    while (e < len && module[e] != '\n') e++;
    size_t next = e < len ? e + 1 : len + 1;
    bool last = cell + 1 == self->ncells;
    bool sep = !last && e > i && is_separator(module + i, module + e);
    if (sep || (last && next > len)) {
      size_t end = sep ? i : len;
      const notebook_cell *c = &self->cells[cell];
      /* the line break the module added after a cell that had none */
      bool added = !c->source_len || (c->source[c->source_len - 1] != '\n' && c->source[c->source_len - 1] != '\r');
      if (added && end > chunk && module[end - 1] == '\n') end--;
      if (!restore(c, module + chunk, end - chunk, &out[cell], &out_lens[cell])) {
        for (size_t k = 0; k < cell; k++) free(out[k]);
        snprintf(why, whylen, "a fix changed a line with IPython syntax in cell %zu", cell + 1);
        return false;
      }
      cell++;
      chunk = next;
    }
    i = next;
  }
  if (cell != self->ncells) {
    for (size_t k = 0; k < cell; k++) free(out[k]);
    snprintf(why, whylen, "a fix moved a cell boundary");
    return false;
  }
  return true;
}


/* SOURCE as a JSON string, as the notebook writes strings. */
static bool encode(buf *b, const char *s, size_t n, size_t flags) {
  json_t *j = json_stringn(s, n);
  if (!j) return false;
  char *text = json_dumps(j, flags | JSON_ENCODE_ANY);
  json_decref(j);
  if (!text) return false;
  buf_puts(b, text);
  free(text);
  return true;
}


typedef struct {
  size_t start, end;
} span;

/* The lines of TEXT as nbformat stores them: each with its line break. */
static size_t split_lines(const char *t, size_t n, span **out) {
  VEC(span) v = {0};
  size_t s = 0;
  for (size_t i = 0; i < n; i++)
    if (t[i] == '\n' || (t[i] == '\r' && (i + 1 >= n || t[i + 1] != '\n'))) {
      vec_push(&v, ((span){s, i + 1}));
      s = i + 1;
    }
  if (s < n) vec_push(&v, ((span){s, n}));
  *out = v.items;
  return v.len;
}


static size_t ws_end(const char *b, size_t len, size_t i) {
  while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) i++;
  return i;
}


/* The new "source" value of C: a list in the layout of the old one (its
 * indentation, its unchanged lines' bytes kept), or one string. */
static bool rewrite(const notebook_cell *c, const char *b, size_t len, json_t *old_value, const char *text,
                    size_t n, size_t flags, buf *out) {
  if (!c->list) return encode(out, text, n, flags);
  /* the old elements' bytes, and the whitespace around them */
  VEC(span) raw = {0};
  size_t i = c->span_start + 1, lead_end = ws_end(b, len, i), trail_start = c->span_end - 1;
  while (trail_start > c->span_start + 1 &&
         (b[trail_start - 1] == ' ' || b[trail_start - 1] == '\t' || b[trail_start - 1] == '\n' ||
          b[trail_start - 1] == '\r'))
    trail_start--;
  span lead = {i, lead_end}, sep = {0, 0}, trail = {trail_start, c->span_end - 1};
  for (i = lead_end; i < trail_start;) {
    size_t s = i;
    i++;
    while (i < trail_start && b[i] != '"') i += b[i] == '\\' ? 2 : 1;
    i++;
    vec_push(&raw, ((span){s, i}));
    size_t comma = ws_end(b, len, i);
    if (comma < trail_start && b[comma] == ',') {
      size_t after = ws_end(b, len, comma + 1);
      if (!sep.end) sep = (span){i, after};
      i = after;
    }
  }
  buf layout = {0};
  if (!raw.len) {
    /* an empty list: Jupyter's own layout, one space deeper than the key's line */
    size_t ls = c->span_start;
    while (ls > 0 && b[ls - 1] != '\n') ls--;
    size_t ind = ls;
    while (ind < len && (b[ind] == ' ' || b[ind] == '\t')) ind++;
    buf_puts(&layout, "\n");
    buf_append(&layout, b + ls, ind - ls);
    buf_puts(&layout, " ");
  }
  span *lines;
  size_t nlines = split_lines(text, n, &lines);
  bool ok = true;
  if (!nlines) {
    buf_puts(out, "[]");
  } else {
    size_t nold = json_array_size(old_value);
    size_t pre = 0, suf = 0;
    while (pre < nlines && pre < nold && pre < raw.len &&
           json_string_length(json_array_get(old_value, pre)) == lines[pre].end - lines[pre].start &&
           !memcmp(json_string_value(json_array_get(old_value, pre)), text + lines[pre].start,
                   lines[pre].end - lines[pre].start))
      pre++;
    while (suf < nlines - pre && suf < nold - pre && suf < raw.len - pre) {
      json_t *o = json_array_get(old_value, nold - 1 - suf);
      span l = lines[nlines - 1 - suf];
      if (json_string_length(o) != l.end - l.start || memcmp(json_string_value(o), text + l.start, l.end - l.start))
        break;
      suf++;
    }
    buf_putc(out, '[');
    if (raw.len) buf_append(out, b + lead.start, lead.end - lead.start);
    else buf_append(out, layout.data, layout.len);
    for (size_t k = 0; k < nlines && ok; k++) {
      if (k) {
        if (sep.end) buf_append(out, b + sep.start, sep.end - sep.start);
        else if (raw.len) {
          buf_putc(out, ',');
          buf_append(out, b + lead.start, lead.end - lead.start);
        } else {
          buf_putc(out, ',');
          buf_append(out, layout.data, layout.len);
        }
      }
      if (k < pre) buf_append(out, b + raw.items[k].start, raw.items[k].end - raw.items[k].start);
      else if (k >= nlines - suf) {
        span r = raw.items[raw.len - (nlines - k)];
        buf_append(out, b + r.start, r.end - r.start);
      } else ok = encode(out, text + lines[k].start, lines[k].end - lines[k].start, flags);
    }
    if (raw.len) buf_append(out, b + trail.start, trail.end - trail.start);
    else {
      buf_putc(out, '\n');
      buf_append(out, layout.data + 1, layout.len - 2);
    }
    buf_putc(out, ']');
  }
  free(lines);
  vec_free(&raw);
  buf_free(&layout);
  return ok;
}


/* The value the notebook would hold for TEXT in C's style. */
static json_t *value_of(const notebook_cell *c, const char *text, size_t n) {
  if (!c->list) return json_stringn(text, n);
  json_t *a = json_array();
  span *lines;
  size_t nlines = split_lines(text, n, &lines);
  for (size_t k = 0; k < nlines; k++) {
    json_t *s = json_stringn(text + lines[k].start, lines[k].end - lines[k].start);
    if (!s) {
      json_decref(a);
      a = NULL;
      break;
    }
    json_array_append_new(a, s);
  }
  free(lines);
  return a;
}


bool notebook_write(const notebook *self, const char *bytes, size_t len, char *const *sources,
                    const size_t *source_lens, buf *out, char *why, size_t whylen) {
  if (!self->spans_ok) {
    snprintf(why, whylen, "the notebook's cell sources could not be located in its bytes; it is left unchanged");
    return false;
  }
  /* escape as the notebook does: \uXXXX for non-ASCII when it has no raw UTF-8 */
  bool raw_utf8 = false;
  for (size_t i = 0; i < len && !raw_utf8; i++) raw_utf8 = (unsigned char)bytes[i] >= 0x80;
  size_t flags = raw_utf8 ? 0 : JSON_ENSURE_ASCII;
  json_t *expected = json_deep_copy(self->root);
  json_t *cells = json_object_get(expected, "cells");
  size_t at = 0;
  bool ok = true;
  for (size_t k = 0; k < self->ncells && ok; k++) {
    const notebook_cell *c = &self->cells[k];
    if (source_lens[k] == c->source_len && !memcmp(sources[k], c->source, c->source_len)) continue;
    json_t *cell = json_array_get(cells, c->index);
    json_t *value = value_of(c, sources[k], source_lens[k]);
    buf_append(out, bytes + at, c->span_start - at);
    ok = value && rewrite(c, bytes, len, json_object_get(cell, "source"), sources[k], source_lens[k], flags, out);
    if (value) json_object_set_new(cell, "source", value);
    at = c->span_end;
  }
  buf_append(out, bytes + at, len - at);
  if (ok) {
    json_t *again = json_loadb(buf_str(out), out->len, 0, NULL);
    ok = again && json_equal(again, expected);
    json_decref(again);
  }
  json_decref(expected);
  if (!ok) {
    snprintf(why, whylen, "the notebook would not round-trip with the fixed sources; it is left unchanged");
    buf_clear(out);
  }
  return ok;
}
