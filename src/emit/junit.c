/* This file contains the JUnit XML emitter: one test suite per file, one
 * failing test case per finding, one passing case for a clean file. */
#include <string.h>

#include "emit/ci.h"
#include "util/buf.h"
#include "util/utf8.h"

void emit__junit_document(buf *xml, size_t *tests, size_t *failures, const oom_document *doc);


/* XML-escaped, UTF-8-clean, with the control characters XML 1.0 forbids
 * replaced */
static void put(buf *xml, const char *s) {
  buf clean = {0};
  utf8_sanitize(s, strlen(s), &clean);
  for (const char *p = buf_str(&clean); *p; p++) {
    switch (*p) {
    case '&': buf_puts(xml, "&amp;"); break;
    case '<': buf_puts(xml, "&lt;"); break;
    case '>': buf_puts(xml, "&gt;"); break;
    case '"': buf_puts(xml, "&quot;"); break;
    case '\n': buf_puts(xml, "&#10;"); break;
    default: buf_putc(xml, (unsigned char)*p < 0x20 && *p != '\t' ? '?' : *p);
    }
  }
  buf_free(&clean);
}


void emit__junit_document(buf *xml, size_t *tests, size_t *failures, const oom_document *doc) {
  const char *path = oom_document_path(doc);
  size_t n = oom_document_diagnostic_count(doc);
  buf_puts(xml, "  <testsuite name=\"");
  put(xml, path);
  buf_printf(xml, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", n ? n : 1, n);
  if (!n) {
    buf_puts(xml, "    <testcase name=\"oomlint\" classname=\"");
    put(xml, path);
    buf_puts(xml, "\"/>\n");
  }
  for (size_t i = 0; i < n; i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    ci_point s = emit__ci_point(doc, oom_diagnostic_start(d).byte);
    buf loc = {0};
    if (s.cell) buf_printf(&loc, "%s:cell %u:%u:%u", path, s.cell, s.line, s.column);
    else buf_printf(&loc, "%s:%u:%u", path, s.line, s.column);
    buf_printf(xml, "    <testcase name=\"%s ", oom_diagnostic_code(d));
    put(xml, buf_str(&loc));
    buf_puts(xml, "\" classname=\"");
    put(xml, path);
    buf_printf(xml, "\" file=\"");
    put(xml, path);
    /* line: of the file, which for a notebook is its JSON; the cell's in the text */
    buf_printf(xml, "\" line=\"%u\">\n      <failure type=\"%s\" message=\"", s.cell ? s.file_line : s.line,
               oom_diagnostic_code(d));
    put(xml, oom_diagnostic_message(d));
    buf_puts(xml, "\">");
    put(xml, buf_str(&loc));
    buf_printf(xml, ": %s ", oom_diagnostic_code(d));
    put(xml, oom_diagnostic_message(d));
    buf_puts(xml, "</failure>\n    </testcase>\n");
    buf_free(&loc);
  }
  buf_puts(xml, "  </testsuite>\n");
  *tests += n ? n : 1;
  *failures += n;
}
