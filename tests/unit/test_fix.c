/* Unit tests of the fixer (src/fix): one pass's rendering (CRLF), choosing
 * fixes (identical, touching, protected bytes), the loop (overlaps applied in
 * a later pass, the pass bound, dropping a fix that breaks the syntax) and the
 * unified diff. Small rules live in a temporary rules folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fix/fix.h"
#include "oomlint/oomlint.h"
#include "parse/parse.h"

typedef struct {
  char dir[64];
  oom_linter *linter;
  oom_worker *worker;
} engine;


static void write_rule(const char *dir, const char *code, const char *name, const char *fix_lines, const char *query) {
  char path[256], text[2048];
  snprintf(path, sizeof path, "%s/%s-%s.scm", dir, code, name);
  snprintf(text, sizeof text,
           "; code: %s\n; name: %s\n; severity: warning\n; message: test fix\n%s"
           "; doc:\n;   ## What it does\n;   A rule of the unit tests.\n%s",
           code, name, fix_lines, query);
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  fputs(text, fp);
  assert_int_equal(fclose(fp), 0);
}


static int setup(void **state) {
  engine *e = calloc(1, sizeof *e);
  *state = e;
  strcpy(e->dir, "/tmp/oomlint-fix-XXXXXX");
  if (!mkdtemp(e->dir)) return -1;
  /* two rules asking for the same change */
  write_rule(e->dir, "OOM981", "same-a", "; fix: safe: Add x\n; edit: append-arg @args x=1\n",
             "(call function: (identifier) @fn arguments: (argument_list) @args\n"
             "  (#eq? @fn \"same\") (#oom-not-has-arg? @args \"x\")) @report\n");
  write_rule(e->dir, "OOM982", "same-b", "; fix: safe: Add x\n; edit: append-arg @args x=1\n",
             "(call function: (identifier) @fn arguments: (argument_list) @args\n"
             "  (#eq? @fn \"same\") (#oom-not-has-arg? @args \"x\")) @report\n");
  /* a fix that leaves a syntax error */
  write_rule(e->dir, "OOM983", "breaks", "; fix: safe: Break it\n; edit: replace @report zap(\n",
             "(call function: (identifier) @fn (#eq? @fn \"breakme\")) @report\n");
  /* a fix that re-creates its own finding, forever */
  write_rule(e->dir, "OOM984", "again", "; fix: unsafe: Grow\n; edit: insert-before @report 1 + \n",
             "(call function: (identifier) @fn (#eq? @fn \"again\")) @report\n");
  /* edits at the very start of the file, and of a comment */
  write_rule(e->dir, "OOM985", "at-start", "; fix: safe: Prefix\n; edit: replace @report renamed\n",
             "((identifier) @report (#eq? @report \"first_name\"))\n");
  write_rule(e->dir, "OOM986", "comment", "; fix: safe: Reword\n; edit: replace @report # reworded\n",
             "((comment) @report (#match? @report \"reword-me\"))\n");
  oom_options *o = oom_options_new();
  oom_options_add_rules_dir(o, e->dir);
  char *err = NULL;
  e->linter = oom_linter_new(o, &err);
  oom_options_free(o);
  if (!e->linter) {
    fprintf(stderr, "linter: %s\n", err ? err : "?");
    free(err);
    return -1;
  }
  e->worker = oom_worker_new(e->linter);
  return 0;
}


static int teardown(void **state) {
  engine *e = *state;
  if (!e) return 0;
  oom_worker_free(e->worker);
  oom_linter_free(e->linter);
  DIR *dp = opendir(e->dir);
  struct dirent *de;
  while (dp && (de = readdir(dp))) {
    if (de->d_name[0] == '.') continue;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", e->dir, de->d_name);
    unlink(path);
  }
  if (dp) closedir(dp);
  rmdir(e->dir);
  free(e);
  return 0;
}


/* Fix SRC at LEVEL; the result's text must equal WANT. */
static void fix_to(engine *e, const char *src, oom_applicability level, const char *want, fix_result *out) {
  fix_document(e->worker, "t.py", src, strlen(src), level, NULL, out);
  size_t len;
  const char *got = oom_document_text(out->doc, &len);
  assert_int_equal(len, strlen(want));
  assert_memory_equal(got, want, len);
}


/* ---- one pass ---- */

static void test_render_crlf(void **state) {
  (void)state;
  oom_edit edits[2] = {{3, 4, "x\ny"}, {6, 6, "\r\nz\n"}};
  fix_choice c[2] = {{NULL, &edits[0], 1, SIZE_MAX}, {NULL, &edits[1], 1, SIZE_MAX}};
  fix_choices ch = {c, 2, 2};
  const char *text = "a\r\nb\r\nc";
  size_t n;
  char *out = fix_render(text, strlen(text), &ch, NULL, "\r\n", &n);
  /* inserted newlines follow the file; `\r\n` in the edit stays as it is */
  assert_string_equal(out, "a\r\nx\r\ny\r\n\r\nz\r\nc");
  assert_int_equal(n, strlen(out));
  free(out);
  out = fix_render(text, strlen(text), &ch, NULL, "\n", &n);
  assert_string_equal(out, "a\r\nx\ny\r\n\r\nz\nc");
  free(out);
  bool keep[2] = {false, true};
  out = fix_render(text, strlen(text), &ch, keep, "\n", &n);
  assert_string_equal(out, "a\r\nb\r\n\r\nz\nc");
  free(out);
}


static void test_render_cr(void **state) {
  (void)state;
  /* an old Mac file: an inserted `\n` becomes `\r`, the bytes around stay */
  oom_edit edits[2] = {{2, 3, "x\ny"}, {4, 4, "\nz"}};
  fix_choice c[2] = {{NULL, &edits[0], 1, SIZE_MAX}, {NULL, &edits[1], 1, SIZE_MAX}};
  fix_choices ch = {c, 2, 2};
  const char *text = "a\rb\rc\r";
  size_t n;
  char *out = fix_render(text, strlen(text), &ch, NULL, "\r", &n);
  assert_string_equal(out, "a\rx\ry\r\rzc\r");
  assert_int_equal(n, strlen(out));
  free(out);
}


static void test_crlf_detection(void **state) {
  (void)state;
  assert_string_equal(fix_text_line_ending("a\r\nb\n", 5), "\r\n");
  assert_string_equal(fix_text_line_ending("a\nb\r\n", 5), "\n");
  assert_string_equal(fix_text_line_ending("no newline", 10), "\n");
  assert_string_equal(fix_text_line_ending("\n", 1), "\n");
  /* old Mac files end lines with a lone `\r`; a stray one in a `\n` file
   * does not make it one */
  assert_string_equal(fix_text_line_ending("a\rb\r", 4), "\r");
  assert_string_equal(fix_text_line_ending("a\rb\nc\n", 6), "\n");
}


static void test_fix_apply_one_pass(void **state) {
  engine *e = *state;
  const char *src = "import torch\nx = torch.load(p); y = torch.load(q)\n";
  oom_document *doc = oom_document_new("t.py", src, strlen(src));
  oom_document_lint(doc, e->worker);
  size_t n;
  char *out = fix_apply(src, strlen(src), doc, OOM_FIX_SAFE, &n);
  assert_non_null(out);
  assert_string_equal(out, "import torch\nx = torch.load(p, map_location=\"cpu\"); y = torch.load(q, map_location=\"cpu\")\n");
  free(out);
  oom_document_free(doc);
  /* nothing to fix: NULL */
  doc = oom_document_new("t.py", "x = 1\n", 6);
  oom_document_lint(doc, e->worker);
  assert_null(fix_apply("x = 1\n", 6, doc, OOM_FIX_UNSAFE, &n));
  oom_document_free(doc);
}


/* ---- choosing ---- */

static void test_identical_fixes_applied_once(void **state) {
  engine *e = *state;
  fix_result r;
  fix_to(e, "same()\n", OOM_FIX_SAFE, "same(x=1)\n", &r);
  assert_int_equal(r.fixed, 2); /* both diagnostics are fixed by the one change */
  assert_int_equal(r.passes, 1);
  assert_int_equal(r.per_rule.len, 2);
  fix_result_free(&r);
}


static void test_safe_level_skips_unsafe(void **state) {
  engine *e = *state;
  const char *src = "import torch\nfor batch in train_loader:\n    loss = model(batch)\n    loss.backward()\n"
                    "    torch.cuda.empty_cache()\n";
  fix_result r;
  fix_to(e, src, OOM_FIX_SAFE, src, &r);
  assert_false(r.changed);
  assert_int_equal(r.fixed, 0);
  fix_result_free(&r);
  fix_to(e, src, OOM_FIX_UNSAFE,
         "import torch\nfor batch in train_loader:\n    loss = model(batch)\n    loss.backward()\n", &r);
  assert_true(r.changed);
  assert_int_equal(r.fixed, 1);
  fix_result_free(&r);
}


static void test_bom_and_encoding_kept(void **state) {
  engine *e = *state;
  /* the BOM is no part of the first token: an edit there leaves it be
   * (and one that would start inside it is refused) */
  fix_result r;
  fix_to(e, "\xef\xbb\xbf" "first_name = 1\n", OOM_FIX_SAFE, "\xef\xbb\xbf" "renamed = 1\n", &r);
  assert_int_equal(r.fixed, 1);
  fix_result_free(&r);
  /* the encoding declaration on line 1 or 2 stays as written */
  const char *enc = "#!/usr/bin/env python\n# -*- coding: latin-1 -*- reword-me\nx = 1\n";
  fix_to(e, enc, OOM_FIX_SAFE, enc, &r);
  assert_int_equal(r.fixed, 0);
  fix_result_free(&r);
  /* a comment that is no declaration, or one on line 3, can change */
  fix_to(e, "x = 1\ny = 2\n# coding: utf-8 reword-me\n", OOM_FIX_SAFE, "x = 1\ny = 2\n# reworded\n", &r);
  assert_int_equal(r.fixed, 1);
  fix_result_free(&r);
}


/* ---- the loop ---- */

static void test_overlapping_fixes_take_two_passes(void **state) {
  engine *e = *state;
  /* OOM101's parentheses enclose OOM303's insertion point: one per pass */
  const char *src = "import torch\n"
                    "total = 0\n"
                    "for x in train_loader:\n"
                    "    out = model(x)\n"
                    "    out.sum().backward()\n"
                    "    total += model(x) + model(torch.load(p))\n";
  const char *want = "import torch\n"
                     "total = 0\n"
                     "for x in train_loader:\n"
                     "    out = model(x)\n"
                     "    out.sum().backward()\n"
                     "    total += (model(x) + model(torch.load(p, map_location=\"cpu\"))).detach()\n";
  fix_result r;
  fix_to(e, src, OOM_FIX_UNSAFE, want, &r);
  assert_int_equal(r.fixed, 2);
  assert_int_equal(r.passes, 2);
  assert_true(r.converged);
  fix_result_free(&r);
}


static void test_pass_bound(void **state) {
  engine *e = *state;
  fix_result r;
  fix_document(e->worker, "t.py", "v = again()\n", 12, OOM_FIX_UNSAFE, NULL, &r);
  assert_false(r.converged);
  assert_int_equal(r.passes, FIX_MAX_PASSES);
  assert_int_equal(r.fixed, FIX_MAX_PASSES);
  fix_result_free(&r);
}


static void test_breaking_fix_dropped(void **state) {
  engine *e = *state;
  /* the good fix on the same line is still applied */
  fix_result r;
  fix_to(e, "a = breakme(); b = same()\n", OOM_FIX_SAFE, "a = breakme(); b = same(x=1)\n", &r);
  assert_int_equal(r.dropped.len, 1);
  assert_string_equal(oom_rule_code(r.dropped.items[0].rule), "OOM983");
  assert_int_equal(r.dropped.items[0].row, 1);
  assert_int_equal(r.dropped.items[0].column, 5);
  assert_int_equal(r.fixed, 2);
  fix_result_free(&r);
  /* alone, nothing changes, and the file is reported once */
  fix_to(e, "breakme()\n", OOM_FIX_SAFE, "breakme()\n", &r);
  assert_int_equal(r.dropped.len, 1);
  assert_false(r.changed);
  fix_result_free(&r);
}


static void test_one_bad_fix_among_many(void **state) {
  engine *e = *state;
  /* the search for the bad fix halves runs of fixes: the good ones all stay */
  buf src = {0}, want = {0};
  for (int i = 0; i < 200; i++) {
    buf_puts(&src, i == 137 ? "breakme()\n" : "same()\n");
    buf_puts(&want, i == 137 ? "breakme()\n" : "same(x=1)\n");
  }
  fix_result r;
  fix_to(e, src.data, OOM_FIX_SAFE, want.data, &r);
  assert_int_equal(r.dropped.len, 1);
  assert_int_equal(r.dropped.items[0].row, 138);
  assert_int_equal(r.fixed, 2 * 199);
  fix_result_free(&r);
  buf_free(&src);
  buf_free(&want);
}


static size_t problems(const char *src) {
  TSParser *p = parse_parser_new(NULL);
  TSTree *t = parse_source(p, src, strlen(src), NULL);
  size_t n = fix_count_errors(ts_tree_root_node(t));
  ts_tree_delete(t);
  ts_parser_delete(p);
  return n;
}


static void test_empty_blocks_count(void **state) {
  (void)state;
  /* tree-sitter accepts a block with no statement; Python does not */
  assert_int_equal(problems("if x:\n    pass\n"), 0);
  assert_int_equal(problems("if x:\n    # only a comment\n"), 1);
  assert_int_equal(problems("for a in b:\n    if x:\n        # c\n    y = 1\n"), 1);
  assert_int_equal(problems("def f():\n"), 1);
  assert_int_equal(problems("f(\n"), 1);
  assert_int_equal(problems(""), 0);
}


/* One parser's count must not depend on what it parsed before (the fixer
 * compares counts made by the worker's parser with a fresh one's): a text
 * that ends inside an f-string used to leave the Python scanner's f-string
 * flag set, and the next text lost its dedents. */
static void test_error_count_does_not_depend_on_earlier_parses(void **state) {
  (void)state;
  const char *blocks = "if x:\n    a\nb\ndef f():\n    if y:\n        return 1\n    return 2\nz = 3\n";
  TSParser *p = parse_parser_new(NULL);
  const char *before[] = {"", "s = f\"{", "s = f\"{x", "f'''{\n"};
  for (size_t i = 0; i < sizeof before / sizeof *before; i++) {
    TSTree *t = parse_source(p, before[i], strlen(before[i]), NULL);
    ts_tree_delete(t);
    t = parse_source(p, blocks, strlen(blocks), NULL);
    assert_int_equal(fix_count_errors(ts_tree_root_node(t)), 0);
    ts_tree_delete(t);
  }
  ts_parser_delete(p);
}


static void test_syntax_errors_counted(void **state) {
  engine *e = *state;
  /* a file that is already broken may be fixed as long as it gets no worse */
  fix_result r;
  fix_to(e, "def f(:\n    pass\nsame()\n", OOM_FIX_SAFE, "def f(:\n    pass\nsame(x=1)\n", &r);
  assert_int_equal(r.dropped.len, 0);
  fix_result_free(&r);
}


/* ---- diffs ---- */

static char *diff(const char *a, const char *b) {
  buf out = {0};
  if (!fix_diff(&out, "f.py", a, strlen(a), b, strlen(b))) return NULL;
  return out.data;
}


static void test_diff_equal(void **state) {
  (void)state;
  assert_null(diff("a\nb\n", "a\nb\n"));
  assert_null(diff("", ""));
}


static void test_diff_one_hunk(void **state) {
  (void)state;
  char *d = diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n");
  assert_string_equal(d, "--- a/f.py\n+++ b/f.py\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
  free(d);
}


static void test_diff_hunks_split_and_merged(void **state) {
  (void)state;
  /* seven kept lines between two changes: two hunks */
  char *d = diff("a\n1\n2\n3\n4\n5\n6\n7\nb\n", "A\n1\n2\n3\n4\n5\n6\n7\nB\n");
  assert_string_equal(d, "--- a/f.py\n+++ b/f.py\n"
                         "@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n"
                         "@@ -6,4 +6,4 @@\n 5\n 6\n 7\n-b\n+B\n");
  free(d);
  /* six: one */
  d = diff("a\n1\n2\n3\n4\n5\n6\nb\n", "A\n1\n2\n3\n4\n5\n6\nB\n");
  assert_string_equal(d, "--- a/f.py\n+++ b/f.py\n"
                         "@@ -1,8 +1,8 @@\n-a\n+A\n 1\n 2\n 3\n 4\n 5\n 6\n-b\n+B\n");
  free(d);
}


static void test_diff_removed_lines_and_empty_ranges(void **state) {
  (void)state;
  char *d = diff("x\ny\n", "y\n");
  assert_string_equal(d, "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1 @@\n-x\n y\n");
  free(d);
  d = diff("", "new\n");
  assert_string_equal(d, "--- a/f.py\n+++ b/f.py\n@@ -0,0 +1 @@\n+new\n");
  free(d);
  d = diff("keep\nold\n", "keep\n");
  assert_string_equal(d, "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1 @@\n keep\n-old\n");
  free(d);
}


static void test_diff_no_newline_at_end(void **state) {
  (void)state;
  char *d = diff("a\nb", "a\nc");
  assert_string_equal(d, "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n"
                         "+c\n\\ No newline at end of file\n");
  free(d);
  d = diff("a\nb", "a\nb\n");
  assert_string_equal(d, "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
  free(d);
}


static void test_diff_crlf_lines(void **state) {
  (void)state;
  char *d = diff("a\r\nb\r\n", "a\r\nB\r\n");
  assert_string_equal(d, "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n");
  free(d);
}


static void test_diff_many_changes(void **state) {
  (void)state;
  /* every other line of 5000 changes: 2500 hunks, each line once */
  buf a = {0}, b = {0};
  for (int i = 0; i < 5000; i++) {
    buf_printf(&a, "line %d\n", i);
    buf_printf(&b, i % 2 ? "line %d\n" : "LINE %d\n", i);
  }
  buf out = {0};
  assert_true(fix_diff(&out, "f.py", a.data, a.len, b.data, b.len));
  size_t minus = 0, plus = 0;
  for (const char *p = out.data; (p = strchr(p, '\n')); p++) {
    if (p[1] == '-' && p[2] != '-') minus++;
    if (p[1] == '+' && p[2] != '+') plus++;
  }
  assert_int_equal(minus, 2500);
  assert_int_equal(plus, 2500);
  buf_free(&a);
  buf_free(&b);
  buf_free(&out);
}


/* Apply unified diff D to OLD (lines of one character and a newline). */
static void patch(const char *old, const char *d, buf *out) {
  size_t at = 0; /* lines of OLD copied or skipped */
  const char *p = strstr(d, "\n@@");
  while (p) {
    p++;
    unsigned long start = strtoul(p + 4, NULL, 10);
    unsigned long count = 1;
    const char *comma = strchr(p + 4, ',');
    const char *space = strchr(p + 4, ' ');
    if (comma && comma < space) count = strtoul(comma + 1, NULL, 10);
    size_t first = count ? start - 1 : start; /* 0-based line where the hunk begins */
    for (; at < first; at++) buf_append(out, old + 2 * at, 2);
    p = strchr(p, '\n') + 1;
    while (*p == ' ' || *p == '-' || *p == '+') {
      if (*p != '-') buf_append(out, p + 1, 2);
      if (*p != '+') at++;
      p += 3;
    }
    p = *p ? p - 1 : NULL;
    if (p && strncmp(p, "\n@@", 3) != 0) p = NULL;
  }
  for (; 2 * at < strlen(old); at++) buf_append(out, old + 2 * at, 2);
}


static size_t lcs(const char *a, size_t n, const char *b, size_t m) {
  size_t t[41][41] = {{0}};
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++)
      t[i][j] = a[2 * (i - 1)] == b[2 * (j - 1)] ? t[i - 1][j - 1] + 1
                                                 : (t[i - 1][j] > t[i][j - 1] ? t[i - 1][j] : t[i][j - 1]);
  return t[n][m];
}


static void test_diff_random_minimal_and_applies(void **state) {
  (void)state;
  unsigned seed = 12345;
  for (int round = 0; round < 2000; round++) {
    char a[81] = "", b[81] = "";
    size_t n = (seed = seed * 1103515245 + 12345) >> 16 & 31, m = (seed = seed * 1103515245 + 12345) >> 16 & 31;
    for (size_t i = 0; i < n; i++) {
      a[2 * i] = (char)('a' + ((seed = seed * 1103515245 + 12345) >> 16) % 3);
      a[2 * i + 1] = '\n';
    }
    for (size_t j = 0; j < m; j++) {
      b[2 * j] = (char)('a' + ((seed = seed * 1103515245 + 12345) >> 16) % 3);
      b[2 * j + 1] = '\n';
    }
    a[2 * n] = b[2 * m] = '\0';
    buf d = {0};
    if (!fix_diff(&d, "f.py", a, 2 * n, b, 2 * m)) {
      assert_string_equal(a, b);
      continue;
    }
    size_t minus = 0, plus = 0;
    const char *p = strstr(d.data, "\n@@");
    while (p && (p = strchr(p + 1, '\n')) != NULL) {
      if (p[1] == '-') minus++;
      if (p[1] == '+') plus++;
    }
    size_t common = lcs(a, n, b, m);
    assert_int_equal(minus, n - common); /* a shortest edit script */
    assert_int_equal(plus, m - common);
    buf got = {0};
    buf_append(&got, "", 0);
    patch(a, d.data, &got);
    assert_string_equal(got.data, b);
    buf_free(&got);
    buf_free(&d);
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_render_crlf),
    cmocka_unit_test(test_render_cr),
    cmocka_unit_test(test_crlf_detection),
    cmocka_unit_test(test_fix_apply_one_pass),
    cmocka_unit_test(test_identical_fixes_applied_once),
    cmocka_unit_test(test_safe_level_skips_unsafe),
    cmocka_unit_test(test_bom_and_encoding_kept),
    cmocka_unit_test(test_overlapping_fixes_take_two_passes),
    cmocka_unit_test(test_pass_bound),
    cmocka_unit_test(test_breaking_fix_dropped),
    cmocka_unit_test(test_one_bad_fix_among_many),
    cmocka_unit_test(test_empty_blocks_count),
    cmocka_unit_test(test_error_count_does_not_depend_on_earlier_parses),
    cmocka_unit_test(test_syntax_errors_counted),
    cmocka_unit_test(test_diff_equal),
    cmocka_unit_test(test_diff_one_hunk),
    cmocka_unit_test(test_diff_hunks_split_and_merged),
    cmocka_unit_test(test_diff_removed_lines_and_empty_ranges),
    cmocka_unit_test(test_diff_no_newline_at_end),
    cmocka_unit_test(test_diff_crlf_lines),
    cmocka_unit_test(test_diff_many_changes),
    cmocka_unit_test(test_diff_random_minimal_and_applies),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
