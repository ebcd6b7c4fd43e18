/* This file contains textDocument/hover: over a diagnostic, its message and
 * its rule's documentation; over a code in a `# noqa` comment, that rule's. */
#include <ctype.h>
#include <string.h>

#include "lsp/noqa.h"
#include "lsp/server.h"
#include "util/buf.h"


static void rule_doc(buf *out, const oom_rule *rule) {
  buf_printf(out, "**%s** `%s` (%s)\n\n", oom_rule_code(rule), oom_rule_name(rule),
             oom_severity_name(oom_rule_severity(rule)));
  const char *doc = oom_rule_doc(rule);
  if (doc && *doc) buf_puts(out, doc);
}


static json_t *markdown(buf *text, json_t *range) {
  json_t *h = json_pack("{s:{s:s, s:s}}", "contents", "kind", "markdown", "value", buf_str(text));
  if (range) json_object_set_new(h, "range", range);
  buf_free(text);
  return h;
}


/* A code such as OOM101 under the cursor in the line's `# noqa` comment. */
static json_t *noqa_hover(lsp_server *self, const char *uri, const char *line, size_t n, size_t col, uint32_t row) {
  lsp_noqa q;
  lsp_noqa_scan(line, n, &q);
  if (!q.found || col < q.comment) return NULL;
  for (int i = 0; i < q.ncodes; i++) {
    if (col < q.code_start[i] || col > q.code_end[i]) continue;
    char code[16];
    size_t len = q.code_end[i] - q.code_start[i];
    if (len >= sizeof code) return NULL;
    for (size_t k = 0; k < len; k++) code[k] = (char)toupper((unsigned char)line[q.code_start[i] + k]);
    code[len] = '\0';
    buf text = {0};
    if (!lsp_linting_rule_doc(self->linting, uri, code, rule_doc, &text)) {
      buf_free(&text);
      return NULL;
    }
    uint32_t c0 = oom_column_convert(line, n, (uint32_t)q.code_start[i], self->units);
    uint32_t c1 = oom_column_convert(line, n, (uint32_t)q.code_end[i], self->units);
    return markdown(&text, lsp_range_json(row, c0, row, c1));
  }
  return NULL;
}


static int cmp(const json_t *p, uint32_t line, uint32_t character) {
  json_int_t l = json_integer_value(json_object_get(p, "line"));
  json_int_t c = json_integer_value(json_object_get(p, "character"));
  if (l != line) return l < line ? -1 : 1;
  return (c > character) - (c < character);
}


json_t *lsp_hover(lsp_server *self, const json_t *params) {
  const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
  lsp_document *doc = lsp_server_document(self, uri);
  uint32_t row, character;
  if (!doc || !lsp_position_parse(json_object_get(params, "position"), &row, &character)) {
    lsp_log(self, "hover on a document that is not open or at no position: answered with nothing");
    return NULL;
  }
  size_t n = 0;
  const char *line = lsp_text_line(&doc->text, row, &n);
  if (!line) return NULL;
  json_t *h = noqa_hover(self, uri, line, n, lsp_units_to_byte(line, n, character, self->units), row);
  if (h) return h;

  /* a notebook cell's are its notebook's, moved into the cell */
  json_t *diagnostics = doc->notebook ? lsp_notebook_cell_diagnostics(self, doc->notebook, uri)
                                      : lsp_linting_snapshot(self->linting, uri, NULL, NULL, NULL, 0);
  const char *linted = doc->notebook ? doc->notebook->uri : uri;
  buf text = {0};
  json_t *range = NULL;
  VEC(const char *) codes = {0}; /* each rule's doc once */
  size_t i;
  json_t *d;
  json_array_foreach(diagnostics, i, d) {
    const json_t *r = json_object_get(d, "range");
    if (cmp(json_object_get(r, "start"), row, character) > 0 || cmp(json_object_get(r, "end"), row, character) < 0)
      continue;
    const char *code = json_string_value(json_object_get(d, "code"));
    if (!code) continue;
    if (text.len) buf_puts(&text, "\n\n---\n\n");
    if (!range) range = json_deep_copy(r);
    buf_printf(&text, "%s\n\n", json_string_value(json_object_get(d, "message")));
    bool seen = false;
    for (size_t k = 0; k < codes.len; k++) seen = seen || !strcmp(codes.items[k], code);
    /* the rules of the linter that reported it: a configuration's
     * rules-dir may have added this one */
    if (seen || !lsp_linting_rule_doc(self->linting, linted, code, rule_doc, &text))
      buf_printf(&text, "**%s**", code);
    vec_push(&codes, code);
  }
  vec_free(&codes);
  json_t *result = text.len ? markdown(&text, range) : NULL;
  if (!result) {
    buf_free(&text);
    json_decref(range);
  }
  json_decref(diagnostics);
  return result;
}
