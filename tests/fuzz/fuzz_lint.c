/* libFuzzer target: lint arbitrary bytes as a Python file with every rule on;
 * nothing may crash, leak, hang or read out of bounds. Then edit it as an
 * editor would (a byte typed, then a line deleted) and relint, partially
 * where that applies: every diagnostic must lie in the text, and a
 * whole-file lint after it must give what a fresh document gives. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oomlint/oomlint.h"

/* The linter and worker are built once per process (the query compiles in
 * ~100 ms); each input gets a fresh document. */
typedef struct {
  oom_options *options;
  oom_linter *linter;
  oom_worker *worker;
} lint_env;

static lint_env *env(void) {
  static lint_env e; /* libFuzzer's entry point leaves no other place for it */
  if (!e.linter) {
    e.options = oom_options_new();
    oom_options_select(e.options, "ALL");
    oom_options_set_gpu_memory(e.options, 8ull << 30); /* the budget rules run too */
    char *error = NULL;
    e.linter = oom_linter_new(e.options, &error);
    e.worker = oom_worker_new(e.linter);
  }
  return &e;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_bounds(const oom_document *doc) {
  size_t len;
  oom_document_text(doc, &len);
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    (void)oom_diagnostic_message(d);
    (void)oom_document_position(doc, oom_diagnostic_end(d).byte);
    if (oom_diagnostic_start(d).byte > oom_diagnostic_end(d).byte || oom_diagnostic_end(d).byte > len) {
      fprintf(stderr, "fuzz_lint: %s at [%u, %u) outside a text of %zu bytes\n", oom_diagnostic_code(d),
              oom_diagnostic_start(d).byte, oom_diagnostic_end(d).byte, len);
      abort();
    }
    const oom_fix *f = oom_diagnostic_fix(d);
    for (size_t k = 0; f && k < oom_fix_edit_count(f); k++)
      if (oom_fix_edit(f, k)->end_byte > len || oom_fix_edit(f, k)->start_byte > oom_fix_edit(f, k)->end_byte) {
        fprintf(stderr, "fuzz_lint: an edit of %s's fix lies outside the text\n", oom_diagnostic_code(d));
        abort();
      }
  }
}


/* After a partial relint, a whole-file lint must match a fresh document. */
static void check_whole(lint_env *e, oom_document *doc) {
  oom_document_lint(doc, e->worker);
  size_t len;
  const char *text = oom_document_text(doc, &len);
  oom_document *fresh = oom_document_new("fuzz.py", text, len);
  oom_document_lint(fresh, e->worker);
  size_t n = oom_document_diagnostic_count(doc);
  bool same = n == oom_document_diagnostic_count(fresh);
  for (size_t i = 0; same && i < n; i++) {
    const oom_diagnostic *a = oom_document_diagnostic(doc, i), *b = oom_document_diagnostic(fresh, i);
    same = !strcmp(oom_diagnostic_code(a), oom_diagnostic_code(b)) &&
           oom_diagnostic_start(a).byte == oom_diagnostic_start(b).byte &&
           !strcmp(oom_diagnostic_message(a), oom_diagnostic_message(b));
  }
  if (!same) {
    fprintf(stderr, "fuzz_lint: a whole-file lint after edits differs from a fresh one\n");
    abort();
  }
  oom_document_free(fresh);
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lint_env *e = env();
  oom_document *doc = oom_document_new("fuzz.py", (const char *)data, size);
  oom_document_relint(doc, e->worker); /* the first lint is whole */
  check_bounds(doc);
  if (size) {
    /* type the input's first byte at a place its bytes choose, then delete
     * the line after it */
    size_t at = 0;
    for (size_t i = 0; i < size && i < 8; i++) at = at * 31 + data[i];
    at %= size;
    oom_document_edit(doc, at, at, (const char *)data, 1);
    if (oom_document_relint(doc, e->worker)) check_bounds(doc);
    size_t len;
    const char *text = oom_document_text(doc, &len);
    const char *nl = memchr(text + at, '\n', len - at);
    if (nl) {
      const char *next = memchr(nl + 1, '\n', len - (size_t)(nl + 1 - text));
      size_t end = next ? (size_t)(next - text) : len;
      oom_document_edit(doc, (size_t)(nl - text), end, NULL, 0);
      if (oom_document_relint(doc, e->worker)) {
        check_bounds(doc);
        check_whole(e, doc);
      }
    }
  }
  oom_document_free(doc);
  return 0;
}
