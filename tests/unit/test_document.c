/* Unit tests of documents (src/engine/document.c) through the public API:
 * edits and incremental re-lints give exactly what a fresh document with the
 * final text gives; partial relints (src/engine/partial.c) too, where they
 * apply, and they give way to a whole-file lint where they must; out-of-range
 * edits; bad input (invalid UTF-8, NUL bytes, syntax errors) gives one
 * OOM000 and the rest is still linted; very deep nesting does not crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oomlint/oomlint.h"

typedef struct {
  oom_linter *linter;
  oom_worker *worker;
} engine;

/* the default rules, for partial relints: they must agree on all of them */
static engine defaults;


static int setup(void **state) {
  static engine e;
  char *err = NULL;
  oom_options *d = oom_options_new();
  defaults.linter = oom_linter_new(d, &err);
  oom_options_free(d);
  if (!defaults.linter) return -1;
  defaults.worker = oom_worker_new(defaults.linter);
  /* only the rules these tests are about: others may come and go */
  oom_options *o = oom_options_new();
  oom_options_select(o, "OOM0");
  oom_options_select(o, "OOM303");
  oom_options_select(o, "OOM5");
  oom_options_select(o, "OOM602");
  e.linter = oom_linter_new(o, &err);
  oom_options_free(o);
  if (!e.linter) {
    fprintf(stderr, "linter: %s\n", err ? err : "?");
    free(err);
    return -1;
  }
  e.worker = oom_worker_new(e.linter);
  *state = &e;
  return 0;
}


static int teardown(void **state) {
  engine *e = *state;
  if (!e) return 0;
  oom_worker_free(e->worker);
  oom_linter_free(e->linter);
  oom_worker_free(defaults.worker);
  oom_linter_free(defaults.linter);
  return 0;
}


static oom_document *lint_n(engine *e, const char *src, size_t len) {
  oom_document *doc = oom_document_new("t.py", src, len);
  oom_document_lint(doc, e->worker);
  return doc;
}


static oom_document *lint(engine *e, const char *src) {
  return lint_n(e, src, strlen(src));
}


/* Everything a front end sees of the diagnostics, one per line (malloc'd). */
static char *describe(const oom_document *doc) {
  char *out = NULL;
  size_t size = 0;
  FILE *fp = open_memstream(&out, &size);
  assert_non_null(fp);
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    oom_position s = oom_diagnostic_start(d), e = oom_diagnostic_end(d);
    fprintf(fp, "%s %u:%u:%u-%u:%u:%u %s", oom_diagnostic_code(d), s.byte, s.row, s.column, e.byte, e.row, e.column,
            oom_diagnostic_message(d));
    const oom_fix *f = oom_diagnostic_fix(d);
    if (f) {
      fprintf(fp, " | %s", oom_applicability_name(oom_fix_applicability(f)));
      for (size_t k = 0; k < oom_fix_edit_count(f); k++) {
        const oom_edit *ed = oom_fix_edit(f, k);
        fprintf(fp, " [%u,%u)'%s'", ed->start_byte, ed->end_byte, ed->content);
      }
    }
    fputc('\n', fp);
  }
  assert_int_equal(fclose(fp), 0);
  return out;
}


/* "CODE@row" for every diagnostic, rows 1-based. */
static const char *summary(const oom_document *doc) {
  static char out[512];
  out[0] = '\0';
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    size_t n = strlen(out);
    snprintf(out + n, sizeof out - n, "%s%s@%u", n ? " " : "", oom_diagnostic_code(d),
             (unsigned)oom_diagnostic_start(d).row + 1);
  }
  return out;
}


static size_t count(const oom_document *doc, const char *code) {
  size_t n = 0;
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++)
    if (!strcmp(oom_diagnostic_code(oom_document_diagnostic(doc, i)), code)) n++;
  return n;
}


/* Replace the unique occurrence of OLD in DOC's text by NEW. */
static void edit(oom_document *doc, const char *old, const char *new_text) {
  size_t len;
  const char *text = oom_document_text(doc, &len);
  const char *p = strstr(text, old);
  if (!p) fail_msg("`%s` is not in the document", old);
  if (strstr(p + 1, old)) fail_msg("`%s` is in the document twice", old);
  size_t start = (size_t)(p - text);
  assert_int_equal(oom_document_edit(doc, start, start + strlen(old), new_text, strlen(new_text)), 0);
}


/* The document's diagnostics equal those of a fresh document of its text. */
static void assert_same_as_fresh(engine *e, const oom_document *doc) {
  size_t len;
  const char *text = oom_document_text(doc, &len);
  oom_document *fresh = lint_n(e, text, len);
  char *a = describe(doc), *b = describe(fresh);
  if (strcmp(a, b) != 0) {
    /* the first line that differs, then all */
    size_t i = 0;
    while (a[i] && a[i] == b[i]) i++;
    while (i && a[i - 1] != '\n') i--;
    fail_msg("after edits, from the first difference:\n%.300s\nfresh:\n%.300s\ntext:\n%s", a + i, b + i, text);
  }
  free(a);
  free(b);
  oom_document_free(fresh);
}


/* ---- edits ---- */

#define START                                  \
  "import torch\n"                             \
  "# données d'entraînement / 日本語\n"        \
  "state = torch.load(path)\n"                 \
  "for batch in train_loader:\n"               \
  "    out = model(batch)\n"                   \
  "    loss = out.sum()\n"                     \
  "    loss.backward()\n"                      \
  "    optimizer.step()\n"                     \
  "net = torch.nn.DataParallel(net)\n"

static void test_edits_relint_like_fresh(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, START);
  assert_string_equal(summary(doc), "OOM303@3 OOM602@9");

  /* introduce a finding in the loop */
  edit(doc, "    optimizer.step()\n", "    optimizer.step()\n    torch.cuda.empty_cache()\n");
  oom_document_lint(doc, e->worker);
  assert_string_equal(summary(doc), "OOM303@3 OOM501@9 OOM602@10");
  assert_same_as_fresh(e, doc);

  /* remove a finding by adding the argument */
  edit(doc, "torch.load(path)", "torch.load(path, map_location=\"cpu\")");
  oom_document_lint(doc, e->worker);
  assert_string_equal(summary(doc), "OOM501@9 OOM602@10");
  assert_same_as_fresh(e, doc);

  /* several edits before one lint: a line inserted above everything, a
   * multi-byte comment rewritten, a finding removed */
  edit(doc, "import torch\n", "import torch\nimport gc\n");
  edit(doc, "# données d'entraînement / 日本語\n", "# 学習データ 😀\n");
  edit(doc, "net = torch.nn.DataParallel(net)\n", "net = net\n");
  oom_document_lint(doc, e->worker);
  assert_string_equal(summary(doc), "OOM501@10");
  assert_same_as_fresh(e, doc);

  /* an edit that breaks the syntax, then one that repairs it */
  edit(doc, "for batch in train_loader:", "for batch in train_loader");
  oom_document_lint(doc, e->worker);
  assert_int_equal(count(doc, "OOM000"), 1);
  assert_same_as_fresh(e, doc);
  edit(doc, "for batch in train_loader", "for batch in train_loader:");
  oom_document_lint(doc, e->worker);
  assert_int_equal(count(doc, "OOM000"), 0);
  assert_same_as_fresh(e, doc);

  /* delete everything, then write it again */
  size_t len;
  oom_document_text(doc, &len);
  assert_int_equal(oom_document_edit(doc, 0, len, "", 0), 0);
  oom_document_lint(doc, e->worker);
  assert_int_equal(oom_document_diagnostic_count(doc), 0);
  assert_int_equal(oom_document_edit(doc, 0, 0, START, strlen(START)), 0);
  oom_document_lint(doc, e->worker);
  assert_string_equal(summary(doc), "OOM303@3 OOM602@9");
  assert_same_as_fresh(e, doc);
  oom_document_free(doc);
}


static void test_edit_before_first_lint(void **state) {
  engine *e = *state;
  oom_document *doc = oom_document_new("t.py", START, strlen(START));
  edit(doc, "torch.load(path)", "torch.load(path, None)");
  const char *text = oom_document_text(doc, NULL);
  assert_non_null(strstr(text, "torch.load(path, None)"));
  oom_document_lint(doc, e->worker);
  assert_string_equal(summary(doc), "OOM602@9");
  assert_same_as_fresh(e, doc);
  oom_document_free(doc);
}


static void test_relint_without_edit_is_stable(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, START);
  char *a = describe(doc);
  oom_document_lint(doc, e->worker);
  char *b = describe(doc);
  assert_string_equal(a, b);
  free(a);
  free(b);
  oom_document_free(doc);
}


static void test_out_of_range_edits(void **state) {
  engine *e = *state;
  const char *src = "x = 1\n";
  oom_document *doc = lint(e, src);
  assert_int_equal(oom_document_edit(doc, 0, 7, "", 0), -1);   /* past the end */
  assert_int_equal(oom_document_edit(doc, 4, 3, "", 0), -1);   /* start after end */
  assert_int_equal(oom_document_edit(doc, 7, 7, "y", 1), -1);
  size_t len;
  const char *text = oom_document_text(doc, &len);
  assert_int_equal(len, strlen(src));
  assert_memory_equal(text, src, len);
  /* the very end is in range */
  assert_int_equal(oom_document_edit(doc, 6, 6, "y = 2\n", 6), 0);
  text = oom_document_text(doc, &len);
  assert_int_equal(len, 12);
  assert_memory_equal(text, "x = 1\ny = 2\n", 12);
  oom_document_free(doc);
}


static void test_positions(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, "ab\n" "\xE6\x97\xA5x\n" "\n" "z");
  oom_position p = oom_document_position(doc, 0);
  assert_int_equal(p.row, 0);
  assert_int_equal(p.column, 0);
  p = oom_document_position(doc, 2); /* the first newline */
  assert_int_equal(p.row, 0);
  assert_int_equal(p.column, 2);
  p = oom_document_position(doc, 6); /* `x`, after a 3-byte character */
  assert_int_equal(p.row, 1);
  assert_int_equal(p.column, 3);
  p = oom_document_position(doc, 8); /* the empty line */
  assert_int_equal(p.row, 2);
  assert_int_equal(p.column, 0);
  p = oom_document_position(doc, 9);
  assert_int_equal(p.row, 3);
  assert_int_equal(p.column, 0);
  assert_int_equal(p.byte, 9);
  oom_document_free(doc);
}


/* A lone "\r" ends a line as "\n" and "\r\n" do (CPython and the LSP count
 * all three); the parser's rows agree with the positions. */
static void test_positions_lone_cr(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, "ab\r" "\xE6\x97\xA5x\r\n" "\r" "z");
  static const uint32_t rows[] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 3};
  static const uint32_t cols[] = {0, 1, 2, 0, 1, 2, 3, 4, 5, 0, 0};
  for (uint32_t b = 0; b < 11; b++) {
    oom_position p = oom_document_position(doc, b);
    assert_int_equal(p.row, rows[b]);
    assert_int_equal(p.column, cols[b]);
  }
  assert_int_equal(count(doc, "OOM000"), 0);
  oom_document_free(doc);
}


/* TEXT with every "\n" made a lone "\r" (malloc'd). */
static char *lone_cr(const char *text) {
  char *out = strdup(text);
  for (char *p = out; (p = strchr(p, '\n')) != NULL; p++) *p = '\r';
  return out;
}


static void test_lone_cr_lints_like_lf(void **state) {
  engine *e = *state;
  char *cr = lone_cr(START);
  oom_document *doc = lint(e, cr);
  assert_string_equal(summary(doc), "OOM303@3 OOM602@9");
  /* edits, the tree edited and parsed again: what a fresh document gives */
  edit(doc, "    optimizer.step()\r", "    optimizer.step()\r    torch.cuda.empty_cache()\r");
  oom_document_lint(doc, e->worker);
  assert_string_equal(summary(doc), "OOM303@3 OOM501@9 OOM602@10");
  assert_same_as_fresh(e, doc);
  /* a "\n" after a lone "\r" makes one "\r\n" (no new line); taken out
   * again, the "\r" is a line break by itself once more */
  edit(doc, "torch\r#", "torch\r\n#");
  oom_document_lint(doc, e->worker);
  assert_string_equal(summary(doc), "OOM303@3 OOM501@9 OOM602@10");
  assert_same_as_fresh(e, doc);
  edit(doc, "torch\r\n#", "torch\r#");
  oom_document_lint(doc, e->worker);
  assert_string_equal(summary(doc), "OOM303@3 OOM501@9 OOM602@10");
  assert_same_as_fresh(e, doc);
  /* a lone "\r" typed: a new line, the findings below it move down */
  edit(doc, "train_loader:\r", "train_loader:\r\r");
  oom_document_lint(doc, e->worker);
  assert_string_equal(summary(doc), "OOM303@3 OOM501@10 OOM602@11");
  assert_same_as_fresh(e, doc);
  oom_document_free(doc);
  free(cr);
}


static void test_diagnostics_are_sorted(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, "import torch, gc\n"
                              "net = torch.nn.DataParallel(torch.load(p))\n"
                              "for batch in train_loader:\n"
                              "    gc.collect(); torch.cuda.empty_cache()\n");
  assert_string_equal(summary(doc), "OOM602@2 OOM303@2 OOM502@4 OOM501@4");
  for (size_t i = 1; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *a = oom_document_diagnostic(doc, i - 1), *b = oom_document_diagnostic(doc, i);
    assert_true(oom_diagnostic_start(a).byte < oom_diagnostic_start(b).byte ||
                (oom_diagnostic_start(a).byte == oom_diagnostic_start(b).byte &&
                 strcmp(oom_diagnostic_code(a), oom_diagnostic_code(b)) < 0));
  }
  assert_null(oom_document_diagnostic(doc, oom_document_diagnostic_count(doc)));
  oom_document_free(doc);
}


/* ---- bad input ---- */

static void test_invalid_utf8_gives_one_oom000(void **state) {
  engine *e = *state;
  static const char src[] = "import torch\n"
                            "name = 'caf\xE9'\n"          /* Latin-1, not UTF-8 */
                            "other = '\xFF\xFE'\n"
                            "state = torch.load(p)\n";
  oom_document *doc = lint_n(e, src, sizeof src - 1);
  assert_int_equal(count(doc, "OOM000"), 1);
  const oom_diagnostic *d = oom_document_diagnostic(doc, 0);
  assert_string_equal(oom_diagnostic_code(d), "OOM000");
  /* at the first bad byte */
  assert_int_equal(oom_diagnostic_start(d).byte, 24);
  assert_int_equal(oom_diagnostic_start(d).row, 1);
  assert_int_equal(oom_diagnostic_start(d).column, 11);
  assert_int_equal(oom_diagnostic_severity(d), OOM_SEVERITY_ERROR);
  /* the rest is still linted */
  assert_int_equal(count(doc, "OOM303"), 1);
  oom_document_free(doc);
}


static void test_nul_gives_one_oom000(void **state) {
  engine *e = *state;
  static const char src[] = "import torch\n"
                            "x = 1\0\n"
                            "y = '\xFF'\0\n"
                            "state = torch.load(p)\n";
  oom_document *doc = lint_n(e, src, sizeof src - 1);
  assert_int_equal(count(doc, "OOM000"), 1);
  const oom_diagnostic *d = oom_document_diagnostic(doc, 0);
  assert_string_equal(oom_diagnostic_code(d), "OOM000");
  assert_int_equal(oom_diagnostic_start(d).byte, 18);
  assert_int_equal(oom_diagnostic_start(d).row, 1);
  assert_non_null(strstr(oom_diagnostic_message(d), "NUL"));
  /* the text is kept whole, NUL bytes included */
  size_t len;
  const char *text = oom_document_text(doc, &len);
  assert_int_equal(len, sizeof src - 1);
  assert_memory_equal(text, src, len);
  oom_document_free(doc);
}


static void test_syntax_error_gives_one_oom000(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, "import torch\n"
                              "def broken(:\n"
                              "    pass\n"
                              "y = = 2\n"
                              "for batch in train_loader:\n"
                              "    torch.cuda.empty_cache()\n"
                              "state = torch.load(p)\n");
  /* two errors, one report: the first */
  assert_int_equal(count(doc, "OOM000"), 1);
  const oom_diagnostic *d = oom_document_diagnostic(doc, 0);
  assert_string_equal(oom_diagnostic_code(d), "OOM000");
  assert_int_equal(oom_diagnostic_start(d).row, 1);
  /* the message names the problem on one line */
  assert_null(strchr(oom_diagnostic_message(d), '\n'));
  /* the rest of the file is still linted */
  assert_int_equal(count(doc, "OOM501"), 1);
  assert_int_equal(count(doc, "OOM303"), 1);
  oom_document_free(doc);

  doc = lint(e, "import torch\n"
                "for batch in train_loader:\n"
                "    torch.cuda.empty_cache()\n"
                "y = = 2\n");
  assert_string_equal(summary(doc), "OOM501@3 OOM000@4");
  oom_document_free(doc);
}


static void test_valid_syntax_gives_no_oom000(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, "import torch\n"
                              "if (n := len(xs)) > 3:\n"
                              "    pass\n"
                              "match cmd:\n"
                              "    case [x, *rest]:\n"
                              "        pass\n"
                              "    case _:\n"
                              "        pass\n"
                              "async def f():\n"
                              "    async with lock:\n"
                              "        await g()\n"
                              "s = f\"{x!r:>{w}}\"\n"
                              "@decorators[0].attr\n"
                              "def h(a, /, b, *, c): ...\n");
  assert_int_equal(count(doc, "OOM000"), 0);
  oom_document_free(doc);
}


/* tree-sitter-python's scanner keeps whether it is inside an f-string in a
 * field its deserialize does not reset when a parse starts: a file that ends
 * inside an f-string used to leave one worker's next file without dedents:
 * a statement after a loop was parsed into the loop (a false OOM501 here;
 * fixes and syntax-error counts made on a tree a fresh parse does not give). */
static void test_lint_does_not_depend_on_earlier_documents(void **state) {
  engine *e = *state;
  const char *blocks = "import torch\n"
                       "for batch in train_loader:\n"
                       "    step(batch)\n"
                       "torch.cuda.empty_cache()\n";
  oom_document *doc = lint(e, blocks);
  assert_int_equal(count(doc, "OOM000"), 0);
  assert_int_equal(count(doc, "OOM501"), 0); /* after the loop, not in it */
  char *fresh = describe(doc);
  oom_document_free(doc);
  const char *open_fstrings[] = {"s = f\"{", "s = f\"{x", "s = f'''{\n", "g(rf\"{a}{"};
  for (size_t i = 0; i < sizeof open_fstrings / sizeof *open_fstrings; i++) {
    oom_document_free(lint(e, open_fstrings[i]));
    doc = lint(e, blocks);
    char *after = describe(doc);
    assert_string_equal(after, fresh);
    free(after);
    oom_document_free(doc);
  }
  free(fresh);
}


static void test_deep_parentheses(void **state) {
  engine *e = *state;
  size_t depth = 20000;
  size_t len = 4 + 2 * depth + 2;
  char *src = malloc(len + 1);
  memcpy(src, "x = ", 4);
  memset(src + 4, '(', depth);
  src[4 + depth] = '1';
  memset(src + 5 + depth, ')', depth);
  src[5 + 2 * depth] = '\n';
  src[6 + 2 * depth] = '\0';
  oom_document *doc = lint_n(e, src, strlen(src));
  /* nothing to report but perhaps a parse that gives up: at most one OOM000 */
  assert_true(count(doc, "OOM000") <= 1);
  assert_int_equal(oom_document_diagnostic_count(doc), count(doc, "OOM000"));
  oom_document_free(doc);
  /* unbalanced: a syntax error, reported once */
  src[5 + 2 * depth - 1] = '\n';
  src[5 + 2 * depth] = '\0';
  doc = lint_n(e, src, strlen(src));
  assert_int_equal(count(doc, "OOM000"), 1);
  oom_document_free(doc);
  free(src);
}


static void test_deep_if_blocks(void **state) {
  engine *e = *state;
  size_t depth = 5000;
  /* level k is indented by k spaces; the innermost block is a batch loop */
  size_t cap = depth * (depth + 16) + 256;
  char *src = malloc(cap), *p = src;
  p += sprintf(p, "import torch\n");
  for (size_t k = 0; k < depth; k++) {
    memset(p, ' ', k);
    p += k;
    p += sprintf(p, "if c:\n");
  }
  memset(p, ' ', depth);
  p += depth;
  p += sprintf(p, "for batch in train_loader:\n");
  memset(p, ' ', depth + 1);
  p += depth + 1;
  p += sprintf(p, "torch.cuda.empty_cache()\n");
  assert_true((size_t)(p - src) < cap);
  oom_document *doc = lint_n(e, src, (size_t)(p - src));
  /* lints without crashing; the parser may give up on a file this deep,
   * and then says so once */
  assert_true(count(doc, "OOM000") <= 1);
  if (count(doc, "OOM000") == 0) assert_int_equal(count(doc, "OOM501"), 1);
  oom_document_free(doc);
  free(src);
}


static void test_empty_and_tiny_documents(void **state) {
  engine *e = *state;
  oom_document *doc = lint_n(e, "", 0);
  assert_int_equal(oom_document_diagnostic_count(doc), 0);
  assert_string_equal(oom_document_path(doc), "t.py");
  oom_document_free(doc);
  doc = lint(e, "\n\n\n");
  assert_int_equal(oom_document_diagnostic_count(doc), 0);
  oom_document_free(doc);
  /* no path: "-" */
  doc = oom_document_new(NULL, "x", 1);
  assert_string_equal(oom_document_path(doc), "-");
  oom_document_free(doc);
}


/* ---- partial relints ---- */

/* A long file of small training and evaluation functions, as the LSP
 * benchmark makes (bench/lsp_latency.js), with HEAD first and TAIL last
 * (malloc'd). */
static char *training_file(int functions, const char *head, const char *tail) {
  size_t cap = 4096 + (size_t)functions * 1024 + strlen(head) + strlen(tail), len = 0;
  char *out = malloc(cap);
  len += (size_t)snprintf(out, cap, "import torch\nfrom torch.utils.data import DataLoader\n%s\n", head);
  for (int i = 0; i < functions; i++)
    len += (size_t)snprintf(out + len, cap - len,
                            "\ndef train_%d(model, loader, optimizer, criterion):\n"
                            "    \"\"\"Epoch %d.\"\"\"\n"
                            "    model.train()\n"
                            "    total = 0.0\n"
                            "    for x, y in loader:\n"
                            "        loss = criterion(model(x.cuda()), y.cuda())\n"
                            "        loss.backward()\n"
                            "        optimizer.step()\n"
                            "        optimizer.zero_grad()\n"
                            "        total += %s\n"
                            "%s"
                            "    return total\n\n\n"
                            "def evaluate_%d(model, loader):\n"
                            "    model.eval()\n"
                            "    %s\n"
                            "        for x, y in loader:\n"
                            "            print(model(x.cuda()).argmax(1))\n",
                            i, i, i % 3 ? "loss.item()" : "loss", i % 5 ? "" : "        torch.cuda.empty_cache()\n", i,
                            i % 4 ? "with torch.no_grad():" : "if True:");
  len += (size_t)snprintf(out + len, cap - len, "\n%s", tail);
  assert_true(len < cap);
  return out;
}


/* The row of the unique text NEEDLE in DOC. */
static uint32_t row_of(const oom_document *doc, const char *needle) {
  size_t len;
  const char *t = oom_document_text(doc, &len);
  const char *at = strstr(t, needle);
  assert_non_null(at);
  uint32_t row = 0;
  for (const char *p = t; p < at; p++) row += *p == '\n';
  return row;
}


static oom_document *open_document(const char *text) {
  oom_document *doc = oom_document_new("t.py", text, strlen(text));
  /* the first lint of an edited document is whole, and keeps what later
   * partial ones borrow */
  assert_false(oom_document_relint(doc, defaults.worker));
  return doc;
}


/* Edit OLD into NEW, relint, and check whether the relint was PARTIAL and
 * the diagnostics are a fresh document's. */
static void relint_like_fresh(oom_document *doc, const char *old, const char *new_text, bool partial) {
  edit(doc, old, new_text);
  bool was = oom_document_relint(doc, defaults.worker);
  if (was != partial) {
    size_t len;
    fail_msg("`%s` -> `%s`: expected a %s relint\n%s", old, new_text, partial ? "partial" : "whole",
             oom_document_text(doc, &len));
  }
  assert_same_as_fresh(&defaults, doc);
}


static void test_partial_relint_like_fresh(void **state) {
  (void)state;
  char *text = training_file(40, "", "");
  oom_document *doc = open_document(text);
  size_t before = count(doc, "OOM101");
  assert_true(before > 0 && count(doc, "OOM201") > 0 && count(doc, "OOM501") > 0);
  /* a keystroke in a docstring, and its undo */
  relint_like_fresh(doc, "Epoch 3.", "Epoch 3x.", true);
  relint_like_fresh(doc, "Epoch 3x.", "Epoch 3.", true);
  /* a finding added and removed inside one function, with its fix's edit */
  relint_like_fresh(doc, "Epoch 4.\"\"\"\n    model.train()\n    total = 0.0\n    for x, y in loader:\n"
                         "        loss = criterion(model(x.cuda()), y.cuda())\n        loss.backward()\n"
                         "        optimizer.step()\n        optimizer.zero_grad()\n        total += loss.item()",
                    "Epoch 4.\"\"\"\n    model.train()\n    total = 0.0\n    for x, y in loader:\n"
                    "        loss = criterion(model(x.cuda()), y.cuda())\n        loss.backward()\n"
                    "        optimizer.step()\n        optimizer.zero_grad()\n        total += loss",
                    true);
  assert_int_equal(count(doc, "OOM101"), before + 1);
  /* new lines: every later diagnostic moves down */
  relint_like_fresh(doc, "Epoch 1.\"\"\"\n", "Epoch 1.\"\"\"\n\n    # more\n\n", true);
  relint_like_fresh(doc, "evaluate_7(model, loader):\n    model.eval()\n",
                    "evaluate_7(model, loader):\n    model.eval()\n    n = 0\n", true);
  /* an edit that starts at a definition's first byte is not known to be
   * inside it */
  relint_like_fresh(doc, "def evaluate_8(", "def  evaluate_8(", false);
  /* every edit since the last lint counts, not only the last one */
  edit(doc, "Epoch 9.", "Epoch nine.");
  edit(doc, "Epoch nine.", "Epoch 9!");
  assert_true(oom_document_relint(doc, defaults.worker));
  assert_same_as_fresh(&defaults, doc);
  oom_document_free(doc);
  free(text);
}


static void test_partial_relint_lone_cr(void **state) {
  (void)state;
  char *lf = training_file(40, "", "");
  char *text = lone_cr(lf);
  oom_document *doc = open_document(text);
  oom_document *twin = open_document(lf);
  assert_string_equal(summary(doc), summary(twin));
  /* a keystroke in a function, lines added in one: partial relints */
  relint_like_fresh(doc, "Epoch 3.", "Epoch 3x.", true);
  relint_like_fresh(doc, "evaluate_7(model, loader):\r    model.eval()\r",
                    "evaluate_7(model, loader):\r    model.eval()\r    n = 0\r", true);
  oom_document_free(twin);
  oom_document_free(doc);
  free(text);
  free(lf);
}


static void test_partial_relint_sees_what_the_function_names(void **state) {
  (void)state;
  /* compute()'s summary (it returns a graph) makes `total += loss` a finding
   * in step(), far from it in the file; a file-level answer (autocast is
   * mentioned, in another function) keeps OOM401 quiet there */
  char *text = training_file(30,
                             "\ndef compute(model, x):\n    return model(x).sum()\n\n\n"
                             "def amp_forward(model, x):\n    with torch.autocast(\"cuda\"):\n        return model(x)\n",
                             "def step(model, loader, opt):\n    \"\"\"Step.\"\"\"\n    total = 0\n"
                             "    for x, y in loader:\n        loss = compute(model, x.cuda())\n"
                             "        loss.backward()\n        opt.step()\n        total += loss\n    return total\n");
  oom_document *doc = open_document(text);
  bool flagged = false;
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    if (!strcmp(oom_diagnostic_code(d), "OOM101") && oom_diagnostic_start(d).row > row_of(doc, "def step"))
      flagged = true;
  }
  assert_true(flagged);
  relint_like_fresh(doc, "\"\"\"Step.\"\"\"", "\"\"\"Step!\"\"\"", true);
  /* the autocast moves into step() and out of amp_forward(): each edit is
   * partial; the file still mentions autocast */
  relint_like_fresh(doc, "    total = 0\n    for x, y in loader:\n        loss = compute",
                    "    total = 0\n    soon = torch.autocast\n    for x, y in loader:\n        loss = compute", true);
  relint_like_fresh(doc, "    with torch.autocast(\"cuda\"):\n        return model(x)\n", "    return model(x)\n", true);
  /* now the only mention is in step(): removing it is asked of the whole
   * text again, and OOM401 appears in step(). It appears in every training
   * function, which a partial relint does not see: the whole-file lint its
   * caller runs next does */
  assert_int_equal(count(doc, "OOM401"), 0);
  edit(doc, "    soon = torch.autocast\n", "");
  assert_true(oom_document_relint(doc, defaults.worker));
  assert_int_equal(count(doc, "OOM401"), 1);
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    if (!strcmp(oom_diagnostic_code(d), "OOM401")) assert_true(oom_diagnostic_start(d).row > row_of(doc, "def step"));
  }
  oom_document_lint(doc, defaults.worker);
  assert_same_as_fresh(&defaults, doc);
  assert_true(count(doc, "OOM401") > 1);
  oom_document_free(doc);
  free(text);
}


static void test_partial_relint_of_a_method(void **state) {
  (void)state;
  /* a class too big to relint whole: one method at a time */
  size_t cap = 64 * 1024, len = 0;
  char *text = malloc(cap);
  len += (size_t)snprintf(text, cap,
                          "import torch\n\n\nclass Trainer:\n    def __init__(self, model):\n        self.model = model\n"
                          "        self.history = []\n\n");
  for (int i = 0; i < 30; i++)
    len += (size_t)snprintf(text + len, cap - len,
                            "    def fit_%d(self, loader, opt):\n        \"\"\"Fit %d.\"\"\"\n"
                            "        for x, y in loader:\n            loss = self.model(x).sum()\n"
                            "            loss.backward()\n            opt.step()\n            self.history.append(%s)\n\n",
                            i, i, i % 2 ? "loss.item()" : "loss");
  len += (size_t)snprintf(text + len, cap - len, "\n\ndef main():\n    Trainer(torch.nn.Linear(2, 2)).fit_3([], None)\n");
  assert_true(len < cap);
  oom_document *doc = open_document(text);
  assert_true(count(doc, "OOM102") > 0);
  relint_like_fresh(doc, "\"\"\"Fit 5.\"\"\"", "\"\"\"Fit 5, again.\"\"\"", true);
  relint_like_fresh(doc, "\"\"\"Fit 7.\"\"\"\n        for x, y in loader:\n            loss = self.model(x).sum()\n"
                         "            loss.backward()\n            opt.step()\n            self.history.append(loss.item())",
                    "\"\"\"Fit 7.\"\"\"\n        for x, y in loader:\n            loss = self.model(x).sum()\n"
                    "            loss.backward()\n            opt.step()\n            self.history.append(loss)",
                    true);
  /* fit_3 is named by main(): both go in the part */
  relint_like_fresh(doc, "\"\"\"Fit 3.\"\"\"", "\"\"\"Fit three.\"\"\"", true);
  oom_document_free(doc);
  free(text);
}


static void test_partial_relint_gives_way(void **state) {
  (void)state;
  char *text = training_file(40, "", "");
  oom_document *doc = open_document(text);
  /* top-level code, not a definition */
  relint_like_fresh(doc, "from torch.utils.data import DataLoader", "from torch.utils.data import DataLoader as DL",
                    false);
  /* a syntax error inside one function: OOM000, from the whole file */
  relint_like_fresh(doc, "Epoch 2.\"\"\"\n    model.train()", "Epoch 2.\"\"\"\n    model.train(", false);
  assert_int_equal(count(doc, "OOM000"), 1);
  /* fixed again: the last lint saw an error, so this one is whole too */
  relint_like_fresh(doc, "Epoch 2.\"\"\"\n    model.train(", "Epoch 2.\"\"\"\n    model.train()", false);
  /* one edit across two functions */
  relint_like_fresh(doc, "    return total\n\n\ndef evaluate_5", "    return total\n\n\ndef evaluate_five", false);
  relint_like_fresh(doc, "Epoch 7.\"\"\"\n    model.train()\n    total = 0.0\n    for x, y in loader:\n"
                         "        loss = criterion(model(x.cuda()), y.cuda())\n        loss.backward()\n"
                         "        optimizer.step()\n        optimizer.zero_grad()\n        total += loss.item()\n"
                         "    return total\n\n\ndef evaluate_7",
                    "Epoch 7.\"\"\"\n    return 0\n\n\ndef evaluate_7", false);
  /* a new function: the top-level statements changed */
  relint_like_fresh(doc, "def train_8(", "def extra():\n    pass\n\n\ndef train_8(", false);
  /* a file-level `noqa` anywhere */
  relint_like_fresh(doc, "Epoch 10.\"\"\"\n", "Epoch 10.\"\"\"\n    # oomlint: noqa: OOM501\n", false);
  relint_like_fresh(doc, "Epoch 11.", "Epoch eleven.", false);
  oom_document_free(doc);
  free(text);
  /* a short file: the part would be most of it */
  text = training_file(1, "", "");
  doc = open_document(text);
  relint_like_fresh(doc, "Epoch 0.", "Epoch zero.", false);
  oom_document_free(doc);
  free(text);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_edits_relint_like_fresh),
    cmocka_unit_test(test_edit_before_first_lint),
    cmocka_unit_test(test_relint_without_edit_is_stable),
    cmocka_unit_test(test_out_of_range_edits),
    cmocka_unit_test(test_positions),
    cmocka_unit_test(test_positions_lone_cr),
    cmocka_unit_test(test_lone_cr_lints_like_lf),
    cmocka_unit_test(test_diagnostics_are_sorted),
    cmocka_unit_test(test_invalid_utf8_gives_one_oom000),
    cmocka_unit_test(test_nul_gives_one_oom000),
    cmocka_unit_test(test_syntax_error_gives_one_oom000),
    cmocka_unit_test(test_valid_syntax_gives_no_oom000),
    cmocka_unit_test(test_lint_does_not_depend_on_earlier_documents),
    cmocka_unit_test(test_deep_parentheses),
    cmocka_unit_test(test_deep_if_blocks),
    cmocka_unit_test(test_empty_and_tiny_documents),
    cmocka_unit_test(test_partial_relint_like_fresh),
    cmocka_unit_test(test_partial_relint_lone_cr),
    cmocka_unit_test(test_partial_relint_sees_what_the_function_names),
    cmocka_unit_test(test_partial_relint_of_a_method),
    cmocka_unit_test(test_partial_relint_gives_way),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
