/* This file contains the CI emitters' shared part: collecting documents'
 * diagnostics as JSON (SARIF, GitLab) or XML text (JUnit), and dispatch. */
#include "emit/ci.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/buf.h"
#include "util/lines.h"
#include "util/utf8.h"

void emit__sarif_result(json_t *results, const oom_document *doc, const oom_diagnostic *d);
void emit__sarif_end(FILE *out, json_t *results, const oom_linter *linter);
void emit__gitlab_issue(json_t *issues, const oom_document *doc, const oom_diagnostic *d);
void emit__junit_document(buf *xml, size_t *tests, size_t *failures, const oom_document *doc);

struct ci_state {
  FILE *out;
  emit_format format;
  json_t *items; /* SARIF results or GitLab issues */
  buf xml;       /* JUnit test suites */
  size_t tests, failures;
};


void *emit__ci_jstr(const char *s) {
  buf b = {0};
  utf8_sanitize(s, strlen(s), &b);
  json_t *j = json_stringn(buf_str(&b), b.len);
  buf_free(&b);
  return j;
}


const char *emit__ci_line(const oom_document *doc, uint32_t byte, size_t *length) {
  size_t tlen;
  const char *text = oom_document_text(doc, &tlen);
  oom_position p = oom_document_position(doc, byte);
  const char *line = text + (p.byte - p.column);
  /* without its "\n", "\r\n" or lone "\r" */
  *length = lines_content_end(text, tlen, p.byte - p.column) - (p.byte - p.column);
  return line;
}


ci_point emit__ci_point(const oom_document *doc, uint32_t byte) {
  oom_position p = oom_document_position(doc, byte);
  size_t n;
  const char *line = emit__ci_line(doc, byte, &n);
  /* a column past a dropped CR still counts */
  size_t avail = p.column > n ? p.column : n;
  uint32_t row;
  uint32_t cell = oom_document_cell(doc, p.row, &row);
  ci_point r = {row + 1, oom_column_convert(line, avail, p.column, OOM_UNITS_CODEPOINTS) + 1, cell,
                oom_document_file_row(doc, p.row) + 1};
  return r;
}


ci_state *emit__ci_begin(FILE *out, emit_format format) {
  ci_state *s = oom_xcalloc(1, sizeof *s);
  s->out = out;
  s->format = format;
  s->items = json_array();
  return s;
}


void emit__ci_document(ci_state *s, const oom_document *doc) {
  size_t n = oom_document_diagnostic_count(doc);
  switch (s->format) {
  case EMIT_SARIF:
    for (size_t i = 0; i < n; i++) emit__sarif_result(s->items, doc, oom_document_diagnostic(doc, i));
    break;
  case EMIT_GITLAB:
    for (size_t i = 0; i < n; i++) emit__gitlab_issue(s->items, doc, oom_document_diagnostic(doc, i));
    break;
  case EMIT_JUNIT: emit__junit_document(&s->xml, &s->tests, &s->failures, doc); break;
  default: break;
  }
}


void emit__ci_end(ci_state *s, const oom_linter *linter) {
  switch (s->format) {
  case EMIT_SARIF: emit__sarif_end(s->out, s->items, linter); break;
  case EMIT_GITLAB:
    json_dumpf(s->items, s->out, JSON_INDENT(2));
    fputc('\n', s->out);
    break;
  case EMIT_JUNIT:
    fprintf(s->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(s->out, "<testsuites name=\"oomlint\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", s->tests,
            s->failures);
    fputs(buf_str(&s->xml), s->out);
    fprintf(s->out, "</testsuites>\n");
    break;
  default: break;
  }
  json_decref(s->items);
  buf_free(&s->xml);
  free(s);
}
