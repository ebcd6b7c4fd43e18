/* libFuzzer target: lint arbitrary bytes as a Python file with every rule on;
 * nothing may crash, leak, hang or read out of bounds. */
#include <stddef.h>
#include <stdint.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lint_env *e = env();
  oom_document *doc = oom_document_new("fuzz.py", (const char *)data, size);
  oom_document_lint(doc, e->worker);
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    (void)oom_diagnostic_message(d);
    (void)oom_document_position(doc, oom_diagnostic_end(d).byte);
  }
  oom_document_free(doc);
  return 0;
}
