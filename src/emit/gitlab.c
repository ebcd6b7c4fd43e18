/* This file contains the GitLab Code Quality emitter: an array of issues with
 * description, check_name, fingerprint, severity and location.path/lines.begin. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "emit/ci.h"
#include "util/buf.h"

void emit__gitlab_issue(json_t *issues, const oom_document *doc, const oom_diagnostic *d);


static uint64_t fnv1a(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}


/* A fingerprint that survives edits elsewhere in the file: path, code and the
 * reported line's text (not its number), plus the occurrence among identical
 * lines so that two equal findings stay distinct. 128 bits as hex. */
static void fingerprint(const char *path, const char *code, const char *line, size_t n, size_t nth, char out[33]) {
  char count[24];
  snprintf(count, sizeof count, "%zu", nth);
  uint64_t h[2] = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
  for (int k = 0; k < 2; k++) {
    h[k] = fnv1a(h[k], path, strlen(path) + 1);
    h[k] = fnv1a(h[k], code, strlen(code) + 1);
    h[k] = fnv1a(h[k], line, n);
    h[k] = fnv1a(h[k], "\0", 1);
    h[k] = fnv1a(h[k], count, strlen(count));
  }
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
}


static const char *severity(oom_severity s) {
  return s == OOM_SEVERITY_ERROR ? "major" : s == OOM_SEVERITY_WARNING ? "minor" : "info";
}


void emit__gitlab_issue(json_t *issues, const oom_document *doc, const oom_diagnostic *d) {
  const char *path = oom_document_path(doc);
  while (path[0] == '.' && path[1] == '/') path += 2;
  size_t n;
  uint32_t start = oom_diagnostic_start(d).byte;
  const char *line = emit__ci_line(doc, start, &n);
  /* earlier findings of this file with the same code and line text */
  size_t nth = 0, count = oom_document_diagnostic_count(doc);
  for (size_t i = 0; i < count; i++) {
    const oom_diagnostic *o = oom_document_diagnostic(doc, i);
    if (o == d) break;
    size_t on;
    const char *ol = emit__ci_line(doc, oom_diagnostic_start(o).byte, &on);
    if (on == n && !memcmp(ol, line, n) && !strcmp(oom_diagnostic_code(o), oom_diagnostic_code(d))) nth++;
  }
  char fp[33];
  fingerprint(path, oom_diagnostic_code(d), line, n, nth, fp);
  ci_point s = emit__ci_point(doc, start), e = emit__ci_point(doc, oom_diagnostic_end(d).byte);
  json_t *desc = emit__ci_jstr(oom_diagnostic_message(d));
  if (s.cell) { /* a notebook: lines are the cell's */
    buf b = {0};
    buf_printf(&b, "cell %u: %s", s.cell, oom_diagnostic_message(d));
    json_decref(desc);
    desc = emit__ci_jstr(buf_str(&b));
    buf_free(&b);
  }
  json_t *issue = json_pack("{s:s, s:o, s:s, s:s, s:s, s:[s], s:{s:o, s:{s:I, s:I}}}", "type", "issue", "description",
                            desc, "check_name", oom_diagnostic_code(d), "fingerprint", fp, "severity",
                            severity(oom_diagnostic_severity(d)), "categories", "Performance", "location", "path",
                            emit__ci_jstr(path), "lines", "begin", (json_int_t)(s.cell ? s.file_line : s.line), "end",
                            (json_int_t)(s.cell ? (e.file_line >= s.file_line ? e.file_line : s.file_line) : e.line));
  json_array_append_new(issues, issue);
}
