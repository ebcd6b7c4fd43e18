/* This file contains the JSON emitters (Ruff's `--output-format json` schema,
 * field for field, plus `severity` and `name`; and JSON lines) and the GitHub
 * workflow-command emitter. Rows and columns are 1-based, columns counted in
 * Unicode code points. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/lines.h"
#include "util/utf8.h"

typedef struct {
  FILE *out;
  emit_format format;
  json_t *array;
} json_state;

void *emit__json_begin(FILE *out, emit_format format);
void emit__json_document(void *state, const oom_document *doc);
void emit__json_end(void *state);
void emit__github_document(FILE *out, const oom_document *doc);


/* jansson refuses invalid UTF-8; damaged bytes become U+FFFD */
static json_t *jstr(const char *s, size_t n) {
  buf b = {0};
  utf8_sanitize(s, n, &b);
  json_t *j = json_stringn(buf_str(&b), b.len);
  buf_free(&b);
  return j;
}


/* Rows are a notebook cell's own, as in Ruff's output. */
static json_t *location(const oom_document *doc, uint32_t byte, uint32_t *row_out) {
  size_t tlen;
  const char *text = oom_document_text(doc, &tlen);
  oom_position p = oom_document_position(doc, byte);
  const char *line = text + (p.byte - p.column);
  size_t llen = lines_content_end(text, tlen, p.byte - p.column) - (p.byte - p.column);
  uint32_t col = oom_column_convert(line, llen, p.column, OOM_UNITS_CODEPOINTS);
  uint32_t row;
  oom_document_cell(doc, p.row, &row);
  if (row_out) *row_out = row + 1;
  return json_pack("{s:I, s:I}", "column", (json_int_t)col + 1, "row", (json_int_t)row + 1);
}


void emit_json_diagnostic(const oom_document *doc, const oom_diagnostic *d, void *array) {
  const oom_rule *rule = oom_diagnostic_rule(d);
  const oom_fix *fix = oom_diagnostic_fix(d);
  uint32_t row = 0;
  json_t *o = json_object();
  uint32_t in_cell, cell = oom_document_cell(doc, oom_diagnostic_start(d).row, &in_cell);
  json_object_set_new(o, "cell", cell ? json_integer(cell) : json_null());
  json_object_set_new(o, "code", json_string(oom_rule_code(rule)));
  json_object_set_new(o, "location", location(doc, oom_diagnostic_start(d).byte, &row));
  json_object_set_new(o, "end_location", location(doc, oom_diagnostic_end(d).byte, NULL));
  const char *path = oom_document_path(doc);
  json_object_set_new(o, "filename", jstr(path, strlen(path)));
  if (fix) {
    json_t *edits = json_array();
    for (size_t i = 0; i < oom_fix_edit_count(fix); i++) {
      const oom_edit *e = oom_fix_edit(fix, i);
      json_t *je = json_object();
      json_object_set_new(je, "content", jstr(e->content, strlen(e->content)));
      json_object_set_new(je, "location", location(doc, e->start_byte, NULL));
      json_object_set_new(je, "end_location", location(doc, e->end_byte, NULL));
      json_array_append_new(edits, je);
    }
    const char *title = oom_fix_title(fix);
    json_object_set_new(o, "fix",
                        json_pack("{s:s, s:o, s:o}", "applicability",
                                  oom_applicability_name(oom_fix_applicability(fix)), "edits", edits, "message",
                                  title ? jstr(title, strlen(title)) : json_null()));
  } else {
    json_object_set_new(o, "fix", json_null());
  }
  const char *msg = oom_diagnostic_message(d);
  json_object_set_new(o, "message", jstr(msg, strlen(msg)));
  json_object_set_new(o, "name", json_string(oom_rule_name(rule)));
  json_object_set_new(o, "noqa_row", json_integer(row));
  json_object_set_new(o, "severity", json_string(oom_severity_name(oom_rule_severity(rule))));
  json_object_set_new(o, "url", json_null());
  json_array_append_new((json_t *)array, o);
}


void *emit__json_begin(FILE *out, emit_format format) {
  json_state *s = oom_xcalloc(1, sizeof *s);
  s->out = out;
  s->format = format;
  s->array = json_array();
  return s;
}


void emit__json_document(void *state, const oom_document *doc) {
  json_state *s = state;
  size_t n = oom_document_diagnostic_count(doc);
  for (size_t i = 0; i < n; i++) emit_json_diagnostic(doc, oom_document_diagnostic(doc, i), s->array);
  if (s->format == EMIT_JSON_LINES) {
    /* stream: one compact object per line, as each file finishes */
    size_t k;
    json_t *v;
    json_array_foreach(s->array, k, v) {
      json_dumpf(v, s->out, JSON_COMPACT | JSON_SORT_KEYS);
      fputc('\n', s->out);
    }
    json_array_clear(s->array);
  }
}


void emit__json_end(void *state) {
  json_state *s = state;
  if (s->format == EMIT_JSON) {
    json_dumpf(s->array, s->out, JSON_INDENT(2) | JSON_SORT_KEYS);
    fputc('\n', s->out);
  }
  json_decref(s->array);
  free(s);
}


/* GitHub workflow commands: `%`, CR, LF escaped in data; `:` and `,` too in
 * properties */
static void gh_escape(FILE *out, const char *s, bool property) {
  for (; *s; s++) {
    switch (*s) {
    case '%': fputs("%25", out); break;
    case '\r': fputs("%0D", out); break;
    case '\n': fputs("%0A", out); break;
    case ':': fputs(property ? "%3A" : ":", out); break;
    case ',': fputs(property ? "%2C" : ",", out); break;
    default: fputc(*s, out);
    }
  }
}


void emit__github_document(FILE *out, const oom_document *doc) {
  size_t n = oom_document_diagnostic_count(doc);
  size_t tlen;
  const char *text = oom_document_text(doc, &tlen);
  for (size_t i = 0; i < n; i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    oom_position s = oom_diagnostic_start(d), e = oom_diagnostic_end(d);
    const char *ls = text + (s.byte - s.column), *le = text + (e.byte - e.column);
    size_t sl = lines_content_end(text, tlen, s.byte - s.column) - (s.byte - s.column);
    size_t el = lines_content_end(text, tlen, e.byte - e.column) - (e.byte - e.column);
    uint32_t sc = oom_column_convert(ls, sl, s.column, OOM_UNITS_CODEPOINTS) + 1;
    uint32_t ec = oom_column_convert(le, el, e.column, OOM_UNITS_CODEPOINTS) + 1;
    /* a notebook: rows in the cell, which the message names */
    uint32_t srow, erow;
    uint32_t cell = oom_document_cell(doc, s.row, &srow);
    oom_document_cell(doc, e.row, &erow);
    oom_severity sev = oom_diagnostic_severity(d);
    const char *level = sev == OOM_SEVERITY_ERROR ? "error" : sev == OOM_SEVERITY_WARNING ? "warning" : "notice";
    buf title = {0}, path = {0};
    buf_printf(&title, "oomlint (%s)", oom_diagnostic_code(d));
    const char *p = oom_document_path(doc);
    utf8_sanitize(p, strlen(p), &path);
    fprintf(out, "::%s title=", level);
    gh_escape(out, buf_str(&title), true);
    fputs(",file=", out);
    gh_escape(out, buf_str(&path), true);
    if (cell) /* the lines of the .ipynb that hold the code (a JSON line's columns are not the code's) */
      fprintf(out, ",line=%u,endLine=%u::", oom_document_file_row(doc, s.row) + 1,
              oom_document_file_row(doc, e.row) + 1);
    else
      fprintf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u::", srow + 1, sc, erow + 1, ec);
    buf data = {0};
    if (cell) buf_printf(&data, "%s:cell %u:%u:%u: %s %s", buf_str(&path), cell, srow + 1, sc, oom_diagnostic_code(d),
                         oom_diagnostic_message(d));
    else buf_printf(&data, "%s:%u:%u: %s %s", buf_str(&path), srow + 1, sc, oom_diagnostic_code(d),
                    oom_diagnostic_message(d));
    gh_escape(out, buf_str(&data), false);
    fputc('\n', out);
    buf_free(&title);
    buf_free(&path);
    buf_free(&data);
  }
}
