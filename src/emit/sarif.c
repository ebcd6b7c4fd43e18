/* This file contains the SARIF 2.1.0 emitter (GitHub code scanning's input):
 * the rules with their docs, results with 1-based code-point regions, fixes. */
#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "emit/ci.h"
#include "util/alloc.h"
#include "util/buf.h"

void emit__sarif_result(json_t *results, const oom_document *doc, const oom_diagnostic *d);
void emit__sarif_end(FILE *out, json_t *results, const oom_linter *linter);

#define SARIF_SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


static const char *level(oom_severity s) {
  return s == OOM_SEVERITY_ERROR ? "error" : s == OOM_SEVERITY_WARNING ? "warning" : "note";
}


/* A relative URI reference for PATH: "./" dropped, bytes outside RFC 3986's
 * unreserved set (and `/`) percent-encoded. */
static json_t *uri(const char *path) {
  while (path[0] == '.' && path[1] == '/') path += 2;
  buf b = {0};
  static const char hex[] = "0123456789ABCDEF";
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p)) {
      buf_putc(&b, (char)*p);
    } else {
      buf_putc(&b, '%');
      buf_putc(&b, hex[*p >> 4]);
      buf_putc(&b, hex[*p & 15]);
    }
  }
  json_t *j = json_string(buf_str(&b));
  buf_free(&b);
  return j;
}


static json_t *region(const oom_document *doc, uint32_t start, uint32_t end) {
  ci_point s = emit__ci_point(doc, start), e = emit__ci_point(doc, end);
  /* a notebook: the lines of its file that hold the cell's lines (a JSON
   * string's columns are not the code's: none given) */
  if (s.cell)
    return json_pack("{s:I, s:I}", "startLine", (json_int_t)s.file_line, "endLine",
                     (json_int_t)(e.file_line >= s.file_line ? e.file_line : s.file_line));
  return json_pack("{s:I, s:I, s:I, s:I}", "startLine", (json_int_t)s.line, "startColumn", (json_int_t)s.column,
                   "endLine", (json_int_t)e.line, "endColumn", (json_int_t)e.column);
}


void emit__sarif_result(json_t *results, const oom_document *doc, const oom_diagnostic *d) {
  const char *path = oom_document_path(doc);
  json_t *loc = json_pack("{s:{s:{s:o}, s:o}}", "physicalLocation", "artifactLocation", "uri", uri(path), "region",
                          region(doc, oom_diagnostic_start(d).byte, oom_diagnostic_end(d).byte));
  json_t *r = json_pack("{s:s, s:s, s:{s:o}, s:[o]}", "ruleId", oom_diagnostic_code(d), "level",
                        level(oom_diagnostic_severity(d)), "message", "text",
                        emit__ci_jstr(oom_diagnostic_message(d)), "locations", loc);
  const oom_fix *fix = oom_diagnostic_fix(d);
  ci_point at = emit__ci_point(doc, oom_diagnostic_start(d).byte);
  if (at.cell) {
    /* a notebook: the region is the lines of the .ipynb that hold the
     * code; the cell and the position in it (Ruff's `cell`) are
     * properties; fixes are left out, as their edits are the cell's */
    char name[32];
    snprintf(name, sizeof name, "cell %u", at.cell);
    json_object_set_new(json_array_get(json_object_get(r, "locations"), 0), "logicalLocations",
                        json_pack("[{s:s, s:s}]", "name", name, "kind", "module"));
    json_object_set_new(r, "properties", json_pack("{s:I, s:I, s:I}", "cell", (json_int_t)at.cell, "cellLine",
                                                   (json_int_t)at.line, "cellColumn", (json_int_t)at.column));
    fix = NULL;
  }
  if (fix && oom_fix_edit_count(fix)) {
    json_t *reps = json_array();
    for (size_t i = 0; i < oom_fix_edit_count(fix); i++) {
      const oom_edit *e = oom_fix_edit(fix, i);
      json_array_append_new(reps, json_pack("{s:o, s:{s:o}}", "deletedRegion", region(doc, e->start_byte, e->end_byte),
                                            "insertedContent", "text", emit__ci_jstr(e->content)));
    }
    const char *title = oom_fix_title(fix);
    json_t *f = json_pack("{s:{s:o}, s:[{s:{s:o}, s:o}]}", "description", "text",
                          emit__ci_jstr(title ? title : "Apply the suggested fix"), "artifactChanges",
                          "artifactLocation", "uri", uri(path), "replacements", reps);
    json_object_set_new(r, "fixes", json_pack("[o]", f));
  }
  json_array_append_new(results, r);
}


/* The doc's first paragraph under its first heading: the full description. */
static json_t *first_paragraph(const char *doc) {
  const char *p = doc;
  while (*p == '#' || *p == '\n') {
    if (*p == '#') p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
    else p++;
  }
  const char *end = strstr(p, "\n\n");
  size_t n = end ? (size_t)(end - p) : strlen(p);
  char *s = oom_xstrndup(p, n);
  for (char *c = s; *c; c++)
    if (*c == '\n') *c = ' ';
  json_t *j = emit__ci_jstr(s);
  free(s);
  return j;
}


static json_t *rule_json(const oom_rule *r) {
  const char *doc = oom_rule_doc(r) ? oom_rule_doc(r) : "";
  buf help = {0};
  buf_printf(&help, "%s (%s)", oom_rule_code(r), oom_rule_name(r));
  json_t *j = json_pack("{s:s, s:s, s:{s:o}, s:{s:o}, s:{s:o, s:o}, s:{s:s}, s:{s:[s], s:s}}", "id", oom_rule_code(r),
                        "name", oom_rule_name(r), "shortDescription", "text", emit__ci_jstr(buf_str(&help)),
                        "fullDescription", "text", first_paragraph(doc), "help", "text", emit__ci_jstr(doc),
                        "markdown", emit__ci_jstr(doc), "defaultConfiguration", "level",
                        level(oom_rule_severity(r)), "properties", "tags", "memory", "precision", "high");
  buf_free(&help);
  return j;
}


void emit__sarif_end(FILE *out, json_t *results, const oom_linter *linter) {
  json_t *rules = json_array();
  /* every enabled rule, so that a clean run still describes them; ruleIndex
   * points into this array */
  if (linter)
    for (size_t i = 0; i < oom_linter_rule_count(linter); i++) {
      const oom_rule *r = oom_linter_rule(linter, i);
      if (oom_linter_rule_enabled(linter, r)) json_array_append_new(rules, rule_json(r));
    }
  size_t k;
  json_t *res;
  json_array_foreach(results, k, res) {
    const char *id = json_string_value(json_object_get(res, "ruleId"));
    size_t i;
    json_t *rule;
    json_array_foreach(rules, i, rule) {
      if (!strcmp(json_string_value(json_object_get(rule, "id")), id)) {
        json_object_set_new(res, "ruleIndex", json_integer((json_int_t)i));
        break;
      }
    }
  }
  json_t *driver = json_pack("{s:s, s:s, s:s, s:o}", "name", "oomlint", "version", oom_version(), "semanticVersion",
                             oom_version(), "rules", rules);
  json_t *run = json_pack("{s:{s:o}, s:O, s:s}", "tool", "driver", driver, "results", results, "columnKind",
                          "unicodeCodePoints");
  json_t *log = json_pack("{s:s, s:s, s:[o]}", "$schema", SARIF_SCHEMA, "version", "2.1.0", "runs", run);
  json_dumpf(log, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', out);
  json_decref(log);
}
