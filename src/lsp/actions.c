/* This file contains textDocument/codeAction: a quick fix per fixable
 * diagnostic, "Disable OOMnnn for this line", and source.fixAll.oomlint. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lsp/noqa.h"
#include "lsp/server.h"
#include "util/alloc.h"
#include "util/buf.h"

static const char FIX_ALL[] = "source.fixAll.oomlint";


static const char *or_empty(const char *s) {
  return s ? s : "";
}


/* Whether KIND is asked for by ONLY (a kind is asked for by its prefixes). */
static bool wanted(const json_t *only, const char *kind) {
  if (!json_is_array(only)) return true;
  size_t i;
  json_t *v;
  json_array_foreach(only, i, v) {
    const char *o = json_string_value(v);
    if (!o) continue;
    size_t n = strlen(o);
    if (!strncmp(kind, o, n) && (kind[n] == '\0' || kind[n] == '.')) return true;
  }
  return false;
}


static json_t *workspace_edit(const char *uri, int64_t version, json_t *edits, bool document_changes) {
  if (document_changes)
    return json_pack("{s:[{s:{s:s, s:I}, s:o}]}", "documentChanges", "textDocument", "uri", uri, "version",
                     (json_int_t)version, "edits", edits);
  json_t *changes = json_object();
  json_object_set_new(changes, uri, edits);
  return json_pack("{s:o}", "changes", changes);
}


static int position_cmp(const json_t *a, const json_t *b) {
  json_int_t la = json_integer_value(json_object_get(a, "line"));
  json_int_t lb = json_integer_value(json_object_get(b, "line"));
  if (la != lb) return la < lb ? -1 : 1;
  json_int_t ca = json_integer_value(json_object_get(a, "character"));
  json_int_t cb = json_integer_value(json_object_get(b, "character"));
  return (ca > cb) - (ca < cb);
}


static int edit_cmp(const void *x, const void *y) {
  const json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
  return position_cmp(json_object_get(json_object_get(a, "range"), "start"),
                      json_object_get(json_object_get(b, "range"), "start"));
}


/* Two edits conflict when their ranges overlap or both insert at one place. */
static bool conflicts(const json_t *a, const json_t *b) {
  const json_t *ra = json_object_get(a, "range"), *rb = json_object_get(b, "range");
  const json_t *sa = json_object_get(ra, "start"), *ea = json_object_get(ra, "end");
  const json_t *sb = json_object_get(rb, "start"), *eb = json_object_get(rb, "end");
  if (!position_cmp(sa, sb)) return true;
  return position_cmp(sa, eb) < 0 && position_cmp(sb, ea) < 0;
}


/* All safe fixes of DIAGNOSTICS whose edits do not collide, as one action. */
static json_t *fix_all_action(const char *uri, int64_t version, const json_t *diagnostics, bool document_changes) {
  VEC(json_t *) taken = {0};
  size_t i;
  json_t *d;
  json_array_foreach(diagnostics, i, d) {
    const json_t *fix = json_object_get(json_object_get(d, "data"), "fix");
    const json_t *edits = json_object_get(fix, "edits");
    if (!json_array_size(edits)) continue;
    if (strcmp(or_empty(json_string_value(json_object_get(fix, "applicability"))), "safe")) continue;
    bool clash = false;
    for (size_t k = 0; k < json_array_size(edits) && !clash; k++)
      for (size_t t = 0; t < taken.len && !clash; t++) clash = conflicts(json_array_get(edits, k), taken.items[t]);
    if (clash) continue; /* the next save fixes it, once the text has moved on */
    for (size_t k = 0; k < json_array_size(edits); k++) vec_push(&taken, json_array_get(edits, k));
  }
  if (!taken.len) {
    vec_free(&taken);
    return NULL;
  }
  qsort(taken.items, taken.len, sizeof *taken.items, edit_cmp);
  json_t *edits = json_array();
  for (size_t k = 0; k < taken.len; k++) json_array_append_new(edits, json_deep_copy(taken.items[k]));
  vec_free(&taken);
  return json_pack("{s:s, s:s, s:o}", "title", "oomlint: apply all safe fixes", "kind", FIX_ALL, "edit",
                   workspace_edit(uri, version, edits, document_changes));
}


static json_t *answer_fix_all(json_t *diagnostics, const char *result_id, int64_t version, json_t *state) {
  (void)result_id;
  json_t *actions = json_deep_copy(json_object_get(state, "actions"));
  if (diagnostics) {
    json_t *a = fix_all_action(json_string_value(json_object_get(state, "uri")), version, diagnostics,
                               json_is_true(json_object_get(state, "documentChanges")));
    if (a) json_array_append_new(actions, a);
  }
  return actions;
}


static json_t *quick_fix(const lsp_server *self, const lsp_document *doc, const json_t *diag) {
  const json_t *data = json_object_get(diag, "data");
  const json_t *fix = json_object_get(data, "fix");
  const json_t *edits = json_object_get(fix, "edits");
  if (!json_array_size(edits)) return NULL; /* a suggestion without edits */
  /* the fix's positions are those of the text it was computed on */
  int64_t linted = doc->notebook ? doc->notebook->version : doc->version; /* a cell: its notebook's lint */
  if (json_integer_value(json_object_get(data, "version")) != linted) return NULL;
  const char *applicability = json_string_value(json_object_get(fix, "applicability"));
  bool safe = applicability && !strcmp(applicability, "safe");
  buf title = {0};
  buf_printf(&title, "Fix %s: %s%s", or_empty(json_string_value(json_object_get(diag, "code"))),
             or_empty(json_string_value(json_object_get(fix, "title"))), safe ? "" : " (unsafe)");
  json_t *a = json_pack("{s:s, s:s, s:[O], s:b, s:o}", "title", buf_str(&title), "kind", "quickfix", "diagnostics",
                        diag, "isPreferred", safe, "edit",
                        workspace_edit(doc->uri, doc->version, json_deep_copy(edits), self->document_changes));
  buf_free(&title);
  return a;
}


/* "Disable CODE for this line": `  # noqa: CODE` at the line's end, or CODE
 * added to the line's `# noqa: ...`. */
static json_t *disable(const lsp_server *self, const lsp_document *doc, const json_t *diag, const char *code) {
  if (!strcmp(code, "OOM000") || !strcmp(code, "OOM001")) return NULL; /* no line directive silences these */
  uint32_t row, character;
  if (!lsp_position_parse(json_object_get(json_object_get(diag, "range"), "start"), &row, &character)) return NULL;
  size_t n = 0;
  const char *line = lsp_text_line(&doc->text, row, &n);
  if (!line) return NULL;
  lsp_noqa q;
  lsp_noqa_scan(line, n, &q);
  if (q.open_string) return NULL; /* a comment there would change the string or break the continuation */
  size_t at;
  buf text = {0};
  if (q.found) {
    if (q.blanket) return NULL;
    for (int i = 0; i < q.ncodes; i++)
      if (q.code_end[i] - q.code_start[i] == strlen(code) && !strncasecmp(line + q.code_start[i], code, strlen(code)))
        return NULL;
    at = q.codes_end;
    buf_printf(&text, ", %s", code);
  } else {
    at = n;
    while (at && (line[at - 1] == ' ' || line[at - 1] == '\t')) at--;
    buf_printf(&text, "  # noqa: %s", code);
  }
  uint32_t c0 = oom_column_convert(line, n, (uint32_t)at, self->units);
  uint32_t c1 = oom_column_convert(line, n, (uint32_t)(q.found ? at : n), self->units);
  json_t *edits = json_pack("[{s:o, s:s}]", "range", lsp_range_json(row, c0, row, c1), "newText", buf_str(&text));
  buf_free(&text);
  buf title = {0};
  buf_printf(&title, "Disable %s for this line", code);
  json_t *a = json_pack("{s:s, s:s, s:[O], s:o}", "title", buf_str(&title), "kind", "quickfix", "diagnostics", diag,
                        "edit", workspace_edit(doc->uri, doc->version, edits, self->document_changes));
  buf_free(&title);
  return a;
}


void lsp_code_action(lsp_server *self, json_t *id, const json_t *params) {
  const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
  lsp_document *doc = lsp_server_document(self, uri);
  if (!doc) {
    lsp_log(self, "code actions asked for a document that is not open: answered with none");
    lsp_send_result(&self->out, id, json_array());
    return;
  }
  const json_t *context = json_object_get(params, "context");
  const json_t *only = json_object_get(context, "only");
  json_t *actions = json_array();
  if (wanted(only, "quickfix")) {
    VEC(char *) seen = {0}; /* one "Disable" per code and line */
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(context, "diagnostics"), i, d) {
      const char *source = json_string_value(json_object_get(d, "source"));
      const char *code = json_string_value(json_object_get(d, "code"));
      if (!source || strcmp(source, "oomlint") || !code) continue;
      json_t *fix = quick_fix(self, doc, d);
      if (fix) json_array_append_new(actions, fix);
      buf key = {0};
      const json_t *start = json_object_get(json_object_get(d, "range"), "start");
      buf_printf(&key, "%s:%lld", code, (long long)json_integer_value(json_object_get(start, "line")));
      bool dup = false;
      for (size_t k = 0; k < seen.len && !dup; k++) dup = !strcmp(seen.items[k], buf_str(&key));
      if (dup) {
        buf_free(&key);
        continue;
      }
      vec_push(&seen, oom_xstrdup(buf_str(&key)));
      buf_free(&key);
      json_t *off = disable(self, doc, d, code);
      if (off) json_array_append_new(actions, off);
    }
    for (size_t k = 0; k < seen.len; k++) free(seen.items[k]);
    vec_free(&seen);
  }
  /* a notebook cell's fix-all would need the whole notebook's edits: not offered */
  if (!wanted(only, FIX_ALL) || doc->notebook) {
    lsp_send_result(&self->out, id, actions);
    return;
  }
  json_t *state = json_pack("{s:o, s:s, s:b}", "actions", actions, "uri", uri, "documentChanges",
                            self->document_changes);
  bool current;
  int64_t version;
  json_t *diagnostics = lsp_linting_snapshot(self->linting, uri, &current, &version, NULL, 0);
  if (current || !json_is_array(only)) {
    /* the light bulb (no `only`) does not wait for a lint; a save does */
    json_t *result = answer_fix_all(current ? diagnostics : NULL, "", version, state);
    lsp_send_result(&self->out, id, result);
    json_decref(state);
  } else {
    lsp_linting_defer(self->linting, uri, id, answer_fix_all, state);
  }
  json_decref(diagnostics);
}
