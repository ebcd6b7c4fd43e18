/* This file contains the conversion of a document's diagnostics and fixes to
 * LSP diagnostics, on the lint thread right after each lint. */
#include <string.h>

#include "lsp/diagnostics.h"
#include "lsp/text.h"
#include "util/buf.h"
#include "util/lines.h"
#include "util/utf8.h"

/* LSP DiagnosticSeverity, indexed by oom_severity (info, warning, error) */
static const int SEVERITY[] = {3, 2, 1};
/* LSP DiagnosticTag */
enum { TAG_UNNECESSARY = 1, TAG_DEPRECATED = 2 };

/* the rules that report deprecated PyTorch APIs */
static const char *const DEPRECATED[] = {"OOM402", "OOM603", "OOM604"};


bool lsp_code_is_deprecated(const char *code) {
  for (size_t i = 0; i < sizeof DEPRECATED / sizeof *DEPRECATED; i++)
    if (!strcmp(code, DEPRECATED[i])) return true;
  return false;
}


json_t *lsp_string(const char *s, size_t n) {
  if (utf8_first_invalid(s, n) == SIZE_MAX) return json_stringn(s, n);
  buf b = {0};
  utf8_sanitize(s, n, &b);
  json_t *j = json_stringn(buf_str(&b), b.len);
  buf_free(&b);
  return j;
}


json_t *lsp_document_position_json(const oom_document *doc, uint32_t byte, oom_units units) {
  size_t len;
  const char *text = oom_document_text(doc, &len);
  oom_position p = oom_document_position(doc, byte);
  const char *line = text + (p.byte - p.column);
  size_t n = lines_content_end(text, len, p.byte - p.column) - (p.byte - p.column);
  return lsp_position_json(p.row, oom_column_convert(line, n, p.column, units));
}


static json_t *range(const oom_document *doc, uint32_t start, uint32_t end, oom_units units) {
  json_t *o = json_object();
  json_object_set_new_nocheck(o, "start", lsp_document_position_json(doc, start, units));
  json_object_set_new_nocheck(o, "end", lsp_document_position_json(doc, end, units));
  return o;
}


static json_t *fix_json(const oom_document *doc, const oom_fix *fix, oom_units units) {
  json_t *edits = json_array();
  for (size_t i = 0; i < oom_fix_edit_count(fix); i++) {
    const oom_edit *e = oom_fix_edit(fix, i);
    json_array_append_new(edits, json_pack("{s:o, s:o}", "range", range(doc, e->start_byte, e->end_byte, units),
                                           "newText", lsp_string(e->content, strlen(e->content))));
  }
  const char *title = oom_fix_title(fix);
  return json_pack("{s:o, s:s, s:o}", "title", title ? lsp_string(title, strlen(title)) : json_string("Fix"),
                   "applicability", oom_applicability_name(oom_fix_applicability(fix)), "edits", edits);
}


json_t *lsp_diagnostics_json(const oom_document *doc, oom_units units, int64_t version) {
  json_t *out = json_array();
  size_t n = oom_document_diagnostic_count(doc);
  for (size_t i = 0; i < n; i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    const char *code = oom_diagnostic_code(d);
    const char *msg = oom_diagnostic_message(d);
    json_t *o = json_object();
    json_object_set_new(o, "range", range(doc, oom_diagnostic_start(d).byte, oom_diagnostic_end(d).byte, units));
    json_object_set_new(o, "severity", json_integer(SEVERITY[oom_diagnostic_severity(d)]));
    json_object_set_new(o, "code", json_string(code));
    /* codeDescription only when a rule has a documentation URL; none has one yet */
    json_object_set_new(o, "source", json_string("oomlint"));
    json_object_set_new(o, "message", lsp_string(msg, strlen(msg)));
    if (lsp_code_is_deprecated(code)) json_object_set_new(o, "tags", json_pack("[i]", TAG_DEPRECATED));
    /* a stale suppression is dead text: editors fade it, as they do for Ruff's RUF100 */
    else if (!strcmp(code, "OOM001")) json_object_set_new(o, "tags", json_pack("[i]", TAG_UNNECESSARY));
    const oom_fix *fix = oom_diagnostic_fix(d);
    if (fix)
      json_object_set_new(o, "data", json_pack("{s:I, s:o}", "version", (json_int_t)version, "fix",
                                               fix_json(doc, fix, units)));
    json_array_append_new(out, o);
  }
  return out;
}
