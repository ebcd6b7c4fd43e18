/* libFuzzer target: the fixer on mutated Python (seeded with the fixtures);
 * applying every fix, unsafe ones included, must never add syntax errors. */
#include <stdio.h>
#include <stdlib.h>

#include "fix/fix.h"
#include "parse/parse.h"

typedef struct {
  oom_options *options;
  oom_linter *linter;
  oom_worker *worker;
  TSParser *parser;
} fix_env;

static fix_env *env(void) {
  static fix_env e; /* libFuzzer's entry point leaves no other place for it */
  if (!e.linter) {
    e.options = oom_options_new();
    oom_options_select(e.options, "ALL");
    char *error = NULL;
    e.linter = oom_linter_new(e.options, &error);
    e.worker = oom_worker_new(e.linter);
    e.parser = parse_parser_new(NULL);
  }
  return &e;
}

static size_t errors_of(TSParser *p, const char *text, size_t len) {
  TSTree *t = parse_source(p, text, len, NULL);
  size_t n = t ? fix_count_errors(ts_tree_root_node(t)) : 0;
  if (t) ts_tree_delete(t);
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024) return 0; /* bigger inputs only slow the search */
  fix_env *e = env();
  fix_result res;
  fix_document(e->worker, "fuzz.py", (const char *)data, size, OOM_FIX_UNSAFE, NULL, &res);
  if (res.changed) {
    size_t len;
    const char *text = oom_document_text(res.doc, &len);
    size_t after = errors_of(e->parser, text, len), before = errors_of(e->parser, (const char *)data, size);
    if (after > before) {
      /* say what the fixer made: the crash file holds only the input */
      fprintf(stderr, "fuzz_fix: %zu syntax problem(s) before fixing, %zu after; fixed text:\n%.*s\n", before, after,
              (int)len, text);
      abort();
    }
  }
  fix_result_free(&res);
  return 0;
}
