/* This file contains the server's copy of a document's text: edits that keep
 * the line index current, and conversion between bytes and LSP positions. */
#include <stdlib.h>
#include <string.h>

#include "lsp/text.h"
#include "util/alloc.h"
#include "util/lines.h"
#include "util/utf8.h"


/* Lines end at "\n", "\r\n" and a lone "\r", as the parser counts them;
 * the memchr for "\n" serves the texts without a lone "\r". */
static void index_from(lsp_text *self, size_t from) {
  const char *end = self->data + self->len;
  if (lines_has_lone_cr(self->data + from, self->len - from)) {
    for (size_t i = from; i < self->len; i++)
      if (lines_breaks_at(self->data, self->len, i)) vec_push(&self->lines, (uint32_t)i + 1);
    return;
  }
  for (const char *p = self->data + from; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
    vec_push(&self->lines, (uint32_t)(p - self->data) + 1);
}


void lsp_text_init(lsp_text *self, const char *text, size_t length) {
  memset(self, 0, sizeof *self);
  self->cap = length + 1;
  self->data = oom_xmalloc(self->cap);
  memcpy(self->data, text, length);
  self->data[length] = '\0';
  self->len = length;
  vec_push(&self->lines, 0);
  index_from(self, 0);
}


void lsp_text_free(lsp_text *self) {
  free(self->data);
  vec_free(&self->lines);
  memset(self, 0, sizeof *self);
}


/* The first line whose start is > BYTE. */
static size_t upper_line(const lsp_text *self, size_t byte) {
  size_t lo = 0, hi = self->lines.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (self->lines.items[mid] <= byte) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}


void lsp_text_replace(lsp_text *self, size_t start, size_t end, const char *text, size_t length) {
  size_t old_len = self->len;
  size_t new_len = self->len - (end - start) + length;
  if (new_len + 1 > self->cap) {
    self->cap = (new_len + 1) * 3 / 2;
    self->data = oom_xrealloc(self->data, self->cap);
  }
  memmove(self->data + start + length, self->data + end, self->len - end + 1); /* with the NUL */
  memcpy(self->data + start, text, length);
  self->len = new_len;
  /* The breaks in [LO, HI) are looked at again: those in the new bytes, and
   * a "\r" just before them, which breaks the line or not by the byte after
   * it; the byte after them is taken too so that the window is simple. The
   * old breaks there made the line starts in (LO, OLD_HI]; later ones move */
  size_t lo = start > 0 ? start - 1 : 0;
  size_t old_hi = end < old_len ? end + 1 : old_len;
  size_t hi = start + length < new_len ? start + length + 1 : new_len;
  size_t first = upper_line(self, lo);
  size_t after = first;
  while (after < self->lines.len && self->lines.items[after] <= old_hi) after++;
  size_t added = 0;
  for (size_t i = lo; i < hi; i++)
    if (lines_breaks_at(self->data, new_len, i)) added++;
  size_t tail = self->lines.len - after;
  vec_reserve(&self->lines, added);
  memmove(self->lines.items + first + added, self->lines.items + after, tail * sizeof *self->lines.items);
  uint32_t delta = (uint32_t)length - (uint32_t)(end - start); /* wraps; the sum below is exact */
  for (size_t i = first + added; i < first + added + tail; i++) self->lines.items[i] += delta;
  size_t k = first;
  for (size_t i = lo; i < hi; i++)
    if (lines_breaks_at(self->data, new_len, i)) self->lines.items[k++] = (uint32_t)i + 1;
  self->lines.len = first + added + tail;
}


size_t lsp_text_line_count(const lsp_text *self) {
  return self->lines.len;
}


const char *lsp_text_line(const lsp_text *self, uint32_t line, size_t *length) {
  if (line >= self->lines.len) return NULL;
  size_t s = self->lines.items[line];
  /* E is at the line's break: a "\n" (after a "\r" in "\r\n") or a lone "\r" */
  size_t e = line + 1 < self->lines.len ? self->lines.items[line + 1] - 1 : self->len;
  if (e > s && e < self->len && self->data[e] == '\n' && self->data[e - 1] == '\r') e--;
  *length = e - s;
  return self->data + s;
}


size_t lsp_units_to_byte(const char *line, size_t length, uint32_t character, oom_units units) {
  if (units == OOM_UNITS_BYTES) return character < length ? character : length;
  const unsigned char *p = (const unsigned char *)line;
  size_t i = 0;
  uint32_t u = 0;
  while (i < length && u < character) {
    int n = p[i] < 0x80 ? 1 : utf8_sequence_length(p + i, length - i);
    if (!n) n = 1; /* invalid bytes count one unit each, as oom_column_convert does */
    uint32_t w = (units == OOM_UNITS_UTF16 && n == 4) ? 2 : 1;
    if (u + w > character) break; /* inside a surrogate pair */
    u += w;
    i += (size_t)n;
  }
  return i;
}


size_t lsp_text_offset(const lsp_text *self, uint32_t line, uint32_t character, oom_units units) {
  size_t n = 0;
  const char *l = lsp_text_line(self, line, &n);
  if (!l) return self->len;
  return (size_t)(l - self->data) + lsp_units_to_byte(l, n, character, units);
}


void lsp_text_position(const lsp_text *self, size_t byte, oom_units units, uint32_t *line, uint32_t *character) {
  if (byte > self->len) byte = self->len;
  size_t row = upper_line(self, byte) - 1;
  size_t n = 0;
  const char *l = lsp_text_line(self, (uint32_t)row, &n);
  *line = (uint32_t)row;
  *character = oom_column_convert(l, n, (uint32_t)(byte - self->lines.items[row]), units);
}


/* Built key by key, not with json_pack: a publish makes four positions a
 * diagnostic, and parsing the format string each time was a tenth of it. */
json_t *lsp_position_json(uint32_t line, uint32_t character) {
  json_t *o = json_object();
  json_object_set_new_nocheck(o, "line", json_integer(line));
  json_object_set_new_nocheck(o, "character", json_integer(character));
  return o;
}


json_t *lsp_range_json(uint32_t l0, uint32_t c0, uint32_t l1, uint32_t c1) {
  json_t *o = json_object();
  json_object_set_new_nocheck(o, "start", lsp_position_json(l0, c0));
  json_object_set_new_nocheck(o, "end", lsp_position_json(l1, c1));
  return o;
}


int lsp_position_parse(const json_t *position, uint32_t *line, uint32_t *character) {
  json_t *l = json_object_get(position, "line"), *c = json_object_get(position, "character");
  if (!json_is_integer(l) || !json_is_integer(c)) return 0;
  json_int_t lv = json_integer_value(l), cv = json_integer_value(c);
  if (lv < 0 || cv < 0) return 0;
  *line = lv > UINT32_MAX ? UINT32_MAX : (uint32_t)lv;
  *character = cv > UINT32_MAX ? UINT32_MAX : (uint32_t)cv;
  return 1;
}


bool lsp_range_bytes(const lsp_text *self, const json_t *range, oom_units units, size_t *start, size_t *end) {
  uint32_t l0, c0, l1, c1;
  if (!lsp_position_parse(json_object_get(range, "start"), &l0, &c0) ||
      !lsp_position_parse(json_object_get(range, "end"), &l1, &c1))
    return false;
  *start = lsp_text_offset(self, l0, c0, units);
  *end = lsp_text_offset(self, l1, c1, units);
  if (*end < *start) {
    size_t t = *start;
    *start = *end;
    *end = t;
  }
  return true;
}
