/* Benchmark (not a test): how often the language server's partial relint
 * (oom_document_relint) applies to an edit, and how often it disagrees with
 * a whole-file lint of the same text, on files named one per line on stdin.
 *
 * For each file it makes EDITS edits at places a fixed generator picks: a
 * short text typed (a letter, a space, `#`, `.`, `(`, a digit, a newline),
 * then deleted again, relinting after each, and chaining partial relints as
 * the server does between pauses. After each partial relint it compares
 * every diagnostic (code, range, message, fix) with a fresh document's. A
 * disagreement is counted as "in the edited definition" when a differing
 * diagnostic lies in the lines of the `def` or method around the edit
 * (found by indentation), else as "elsewhere": effects on other parts of the
 * file, which the server's whole-file lint after the pause corrects.
 * Usage: partial_relint [EDITS] < files */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oomlint/oomlint.h"

/* Every diagnostic a front end sees, one per line (malloc'd). */
static char *describe(const oom_document *doc) {
  char *out = NULL;
  size_t size = 0;
  FILE *fp = open_memstream(&out, &size);
  if (!fp) abort();
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    oom_position s = oom_diagnostic_start(d), e = oom_diagnostic_end(d);
    fprintf(fp, "%s %u %u:%u-%u:%u %s", oom_diagnostic_code(d), s.row, s.byte, s.column, e.row, e.column,
            oom_diagnostic_message(d));
    const oom_fix *f = oom_diagnostic_fix(d);
    for (size_t k = 0; f && k < oom_fix_edit_count(f); k++)
      fprintf(fp, " [%u,%u)'%s'", oom_fix_edit(f, k)->start_byte, oom_fix_edit(f, k)->end_byte,
              oom_fix_edit(f, k)->content);
    fputc('\n', fp);
  }
  fclose(fp);
  return out;
}


static bool starts_def(const char *p) {
  return !strncmp(p, "def ", 4) || !strncmp(p, "async def ", 10) || !strncmp(p, "class ", 6);
}


/* The rows [*first, *end) of the top-level or method `def` holding byte AT,
 * by indentation; false when there is none. */
static bool def_rows(const char *t, size_t len, size_t at, unsigned *first, unsigned *end) {
  size_t line = at;
  while (line > 0 && t[line - 1] != '\n') line--;
  for (;;) {
    size_t q = line;
    while (q < len && t[q] == ' ') q++;
    if ((q - line == 0 || q - line == 4) && starts_def(t + q)) break;
    if (line == 0) return false;
    line--;
    while (line > 0 && t[line - 1] != '\n') line--;
  }
  size_t indent = 0;
  while (t[line + indent] == ' ') indent++;
  unsigned row = 0;
  for (size_t i = 0; i < line; i++) row += t[i] == '\n';
  *first = row;
  size_t q = line;
  while (q < len && t[q] != '\n') q++;
  for (row++, q++; q < len; row++, q++) {
    size_t s = q, i = 0;
    while (q < len && t[q] == ' ') q++, i++;
    if (q < len && t[q] != '\n' && t[q] != '#' && i <= indent) break;
    while (q < len && t[q] != '\n') q++;
    (void)s;
  }
  *end = row;
  return true;
}


/* Whether a line of A missing from B (or of B from A) has its row in
 * [FIRST, END). */
static bool differs_within(const char *a, const char *b, unsigned first, unsigned end) {
  const char *pair[2] = {a, b};
  for (int k = 0; k < 2; k++)
    for (const char *p = pair[k]; *p;) {
      const char *nl = strchr(p, '\n');
      size_t n = (size_t)(nl - p) + 1;
      bool found = false;
      for (const char *q = pair[1 - k]; *q && !found;) {
        const char *qn = strchr(q, '\n');
        found = (size_t)(qn - q) + 1 == n && !memcmp(p, q, n);
        q = qn + 1;
      }
      unsigned row;
      if (!found && sscanf(strchr(p, ' ') + 1, "%u", &row) == 1 && row >= first && row < end) return true;
      p = nl + 1;
    }
  return false;
}


static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *b = NULL;
  size_t cap = 0, n = 0, got;
  do {
    if (n + 65536 > cap) {
      char *grown = realloc(b, cap = (cap + 65536) * 2);
      if (!grown) {
        free(b);
        fclose(f);
        return NULL;
      }
      b = grown;
    }
    got = fread(b + n, 1, cap - n - 1, f);
    n += got;
  } while (got);
  fclose(f);
  b[n] = '\0';
  *len = n;
  return b;
}


int main(int argc, char **argv) {
  int edits = argc > 1 ? atoi(argv[1]) : 10;
  oom_options *o = oom_options_new();
  char *err = NULL;
  oom_linter *l = oom_linter_new(o, &err);
  if (!l) {
    fprintf(stderr, "partial_relint: %s\n", err ? err : "no linter");
    return 2;
  }
  oom_worker *w = oom_worker_new(l);
  static const char *typed[] = {"x", " ", "#", ".", "(", "1", "\n"};
  unsigned long long rng = 88172645463325252ull;
  long files = 0, relints = 0, partial = 0, own = 0, elsewhere = 0;
  char path[4096];
  while (fgets(path, sizeof path, stdin)) {
    path[strcspn(path, "\n")] = '\0';
    size_t n;
    char *src = slurp(path, &n);
    if (!src || n < 2) {
      free(src);
      continue;
    }
    files++;
    oom_document *doc = oom_document_new(path, src, n);
    oom_document_relint(doc, w);
    for (int r = 0; r < edits; r++) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      size_t len;
      oom_document_text(doc, &len);
      size_t at = rng % len;
      const char *s = typed[(rng >> 32) % 7];
      for (int undo = 0; undo < 2; undo++) {
        if (!undo) oom_document_edit(doc, at, at, s, strlen(s));
        else oom_document_edit(doc, at, at + strlen(s), NULL, 0);
        relints++;
        if (!oom_document_relint(doc, w)) continue;
        partial++;
        const char *t = oom_document_text(doc, &len);
        oom_document *fresh = oom_document_new(path, t, len);
        oom_document_lint(fresh, w);
        char *a = describe(doc), *b = describe(fresh);
        unsigned first, end;
        if (strcmp(a, b)) {
          if (def_rows(t, len, at, &first, &end) && differs_within(a, b, first, end)) own++;
          else elsewhere++;
        }
        free(a);
        free(b);
        oom_document_free(fresh);
      }
    }
    oom_document_free(doc);
    free(src);
  }
  printf("files=%ld relints=%ld partial=%ld (%.1f%%) disagree_in_edited_def=%ld disagree_elsewhere=%ld (%.2f%% of "
         "partial)\n",
         files, relints, partial, relints ? 100.0 * (double)partial / (double)relints : 0.0, own, elsewhere,
         partial ? 100.0 * (double)(own + elsewhere) / (double)partial : 0.0);
  oom_worker_free(w);
  oom_linter_free(l);
  oom_options_free(o);
  return 0;
}
