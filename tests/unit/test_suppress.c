/* Unit tests of suppression comments (src/engine/suppress.c) through the
 * built-in rules: `# noqa`, `# noqa: CODES`, `# oomlint: noqa[: CODES]`,
 * codes of other tools, and OOM001 for directives that suppress nothing,
 * with the bytes of its fix. OOM501 (torch.cuda.empty_cache() on every
 * iteration of a batch loop) is the finding being suppressed. */
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

/* a source whose line 3 is flagged by OOM501; %s is the end of that line */
#define FLAGGED                    \
  "import torch\n"                 \
  "for batch in train_loader:\n"   \
  "    torch.cuda.empty_cache()%s\n" \
  "    step(batch)\n"

typedef struct {
  oom_linter *linter;
  oom_worker *worker;
} engine;


/* A linter of the rules these tests are about (others may come and go),
 * less IGNORE. */
static oom_linter *linter_new(const char *ignore, char **err) {
  oom_options *o = oom_options_new();
  oom_options_select(o, "OOM0");
  oom_options_select(o, "OOM5");
  if (ignore) oom_options_ignore(o, ignore);
  oom_linter *l = oom_linter_new(o, err);
  oom_options_free(o);
  return l;
}


static int setup(void **state) {
  static engine e;
  char *err = NULL;
  e.linter = linter_new(NULL, &err);
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
  return 0;
}


static oom_document *lint(engine *e, const char *src) {
  oom_document *doc = oom_document_new("t.py", src, strlen(src));
  oom_document_lint(doc, e->worker);
  return doc;
}


static oom_document *lint_flagged(engine *e, const char *line_end) {
  static char src[512];
  snprintf(src, sizeof src, FLAGGED, line_end);
  return lint(e, src);
}


/* "CODE@row" for every diagnostic, rows 1-based, in order: "OOM501@3". */
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


static void assert_summary(engine *e, const char *src, const char *want) {
  oom_document *doc = lint(e, src);
  if (strcmp(summary(doc), want) != 0) fail_msg("`%s`: got [%s], expected [%s]", src, summary(doc), want);
  oom_document_free(doc);
}


static void assert_flagged_summary(engine *e, const char *line_end, const char *want) {
  oom_document *doc = lint_flagged(e, line_end);
  if (strcmp(summary(doc), want) != 0) fail_msg("`%s`: got [%s], expected [%s]", line_end, summary(doc), want);
  oom_document_free(doc);
}


static const oom_diagnostic *only(const oom_document *doc, const char *code) {
  const oom_diagnostic *found = NULL;
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    if (strcmp(oom_diagnostic_code(d), code) != 0) continue;
    if (found) fail_msg("more than one %s", code);
    found = d;
  }
  if (!found) fail_msg("no %s in [%s]", code, summary(doc));
  return found;
}


/* The document's text with the one edit of D's fix applied (malloc'd). */
static char *apply_fix(const oom_document *doc, const oom_diagnostic *d) {
  size_t len;
  const char *text = oom_document_text(doc, &len);
  const oom_fix *fix = oom_diagnostic_fix(d);
  assert_non_null(fix);
  assert_int_equal(oom_fix_applicability(fix), OOM_FIX_SAFE);
  assert_int_equal(oom_fix_edit_count(fix), 1);
  const oom_edit *e = oom_fix_edit(fix, 0);
  assert_true(e->start_byte <= e->end_byte && e->end_byte <= len);
  size_t cl = strlen(e->content);
  char *out = malloc(len - (e->end_byte - e->start_byte) + cl + 1);
  memcpy(out, text, e->start_byte);
  memcpy(out + e->start_byte, e->content, cl);
  memcpy(out + e->start_byte + cl, text + e->end_byte, len - e->end_byte);
  out[len - (e->end_byte - e->start_byte) + cl] = '\0';
  return out;
}


/* ---- the finding without suppression ---- */

static void test_unsuppressed(void **state) {
  engine *e = *state;
  assert_flagged_summary(e, "", "OOM501@3");
  assert_flagged_summary(e, "  # free memory", "OOM501@3");
}


/* ---- line directives ---- */

static void test_blanket_noqa(void **state) {
  engine *e = *state;
  assert_flagged_summary(e, "  # noqa", "");
  assert_flagged_summary(e, "  # NOQA", "");
  assert_flagged_summary(e, "  #noqa", "");
  assert_flagged_summary(e, "  # NoQa  (allocator tuning)", "");
  /* `noqa:` without a valid code is a blanket noqa, as in Ruff */
  assert_flagged_summary(e, "  # noqa:", "");
  /* a directive later in the comment */
  assert_flagged_summary(e, "  # slow, but needed # noqa", "");
  /* not a directive: a longer word */
  assert_flagged_summary(e, "  # noqapi", "OOM501@3");
}


static void test_noqa_with_codes(void **state) {
  engine *e = *state;
  assert_flagged_summary(e, "  # noqa: OOM501", "");
  assert_flagged_summary(e, "  #noqa:OOM501", "");
  assert_flagged_summary(e, "  # noqa: oom501", "");
  assert_flagged_summary(e, "  # noqa: E501,OOM501", "");
  /* another code of ours does not suppress this one */
  oom_document *doc = lint_flagged(e, "  # noqa: OOM502");
  assert_string_equal(summary(doc), "OOM501@3 OOM001@3");
  oom_document_free(doc);
}


static void test_noqa_on_another_line(void **state) {
  engine *e = *state;
  assert_summary(e,
                 "import torch\n"
                 "for batch in train_loader:  # noqa: OOM501\n"
                 "    torch.cuda.empty_cache()\n",
                 "OOM001@2 OOM501@3");
}


static void test_other_tools_codes_are_left_alone(void **state) {
  engine *e = *state;
  /* E501 is not ours: it neither suppresses OOM501 nor is reported unused */
  assert_flagged_summary(e, "  # noqa: E501", "OOM501@3");
  assert_summary(e, "x = 1  # noqa: E501, F401\n", "");
}


static void test_noqa_in_string_does_nothing(void **state) {
  engine *e = *state;
  assert_flagged_summary(e, "; note = \"# noqa\"", "OOM501@3");
  assert_flagged_summary(e, "; note = '# noqa: OOM501'", "OOM501@3");
  /* and is no unused directive either */
  assert_summary(e, "x = \"# noqa: OOM501\"\n", "");
}


/* ---- file directives ---- */

static void test_file_directive(void **state) {
  engine *e = *state;
  assert_summary(e,
                 "# oomlint: noqa\n"
                 "import torch\n"
                 "for batch in train_loader:\n"
                 "    torch.cuda.empty_cache()\n",
                 "");
  assert_summary(e,
                 "import torch\n"
                 "for batch in train_loader:\n"
                 "    torch.cuda.empty_cache()\n"
                 "# OOMLINT: NOQA: OOM501\n",
                 "");
  /* a file directive naming another code */
  assert_summary(e,
                 "# oomlint: noqa: OOM502\n"
                 "import torch\n"
                 "for batch in train_loader:\n"
                 "    torch.cuda.empty_cache()\n",
                 "OOM001@1 OOM501@4");
  /* a blanket file directive silences OOM001 too */
  assert_summary(e,
                 "# oomlint: noqa\n"
                 "x = 1  # noqa: OOM502\n",
                 "");
}


/* ---- unused directives: OOM001 and its fix ---- */

static void test_unused_directive_on_clean_line(void **state) {
  engine *e = *state;
  const char *src = "import torch\n"
                    "x = 1  # noqa: OOM501\n";
  oom_document *doc = lint(e, src);
  const oom_diagnostic *d = only(doc, "OOM001");
  assert_int_equal(oom_document_diagnostic_count(doc), 1);
  assert_int_equal(oom_diagnostic_severity(d), OOM_SEVERITY_INFO);
  assert_non_null(strstr(oom_diagnostic_message(d), "OOM501"));
  /* the range: from `#` to the end of the last code */
  assert_int_equal(oom_diagnostic_start(d).row, 1);
  assert_int_equal(oom_diagnostic_start(d).column, 7);
  assert_int_equal(oom_diagnostic_end(d).row, 1);
  assert_int_equal(oom_diagnostic_end(d).column, 21);
  /* the fix removes the comment and the spaces before it */
  const oom_edit *ed = oom_fix_edit(oom_diagnostic_fix(d), 0);
  assert_int_equal(ed->start_byte, 18);
  assert_int_equal(ed->end_byte, 34);
  assert_string_equal(ed->content, "");
  char *fixed = apply_fix(doc, d);
  assert_string_equal(fixed, "import torch\nx = 1\n");
  oom_document_free(doc);
  /* and the fixed file is clean */
  assert_summary(e, fixed, "");
  free(fixed);
}


static void test_unused_directive_keeps_the_reason(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, "x = 1  # noqa: OOM502 kept on purpose\n");
  char *fixed = apply_fix(doc, only(doc, "OOM001"));
  assert_string_equal(fixed, "x = 1  # kept on purpose\n");
  free(fixed);
  oom_document_free(doc);
}


static void test_partially_unused_keeps_used_code(void **state) {
  engine *e = *state;
  oom_document *doc = lint_flagged(e, "  # noqa: OOM501, OOM502");
  assert_string_equal(summary(doc), "OOM001@3");
  const oom_diagnostic *d = only(doc, "OOM001");
  assert_non_null(strstr(oom_diagnostic_message(d), "OOM502"));
  assert_null(strstr(oom_diagnostic_message(d), "OOM501"));
  const oom_edit *ed = oom_fix_edit(oom_diagnostic_fix(d), 0);
  /* the codes "OOM501, OOM502" become "OOM501" */
  assert_int_equal(ed->end_byte - ed->start_byte, strlen("OOM501, OOM502"));
  assert_string_equal(ed->content, "OOM501");
  char *fixed = apply_fix(doc, d);
  char want[512];
  snprintf(want, sizeof want, FLAGGED, "  # noqa: OOM501");
  assert_string_equal(fixed, want);
  oom_document_free(doc);
  assert_summary(e, fixed, "");
  free(fixed);
}


static void test_unknown_code(void **state) {
  engine *e = *state;
  oom_document *doc = lint_flagged(e, "  # noqa: OOM999, OOM501");
  assert_string_equal(summary(doc), "OOM001@3");
  const oom_diagnostic *d = only(doc, "OOM001");
  assert_non_null(strstr(oom_diagnostic_message(d), "unknown"));
  assert_non_null(strstr(oom_diagnostic_message(d), "OOM999"));
  char *fixed = apply_fix(doc, d);
  char want[512];
  snprintf(want, sizeof want, FLAGGED, "  # noqa: OOM501");
  assert_string_equal(fixed, want);
  free(fixed);
  oom_document_free(doc);
  /* alone on a clean line: the whole directive goes */
  doc = lint(e, "y = 2  # noqa: OOM999\n");
  d = only(doc, "OOM001");
  assert_non_null(strstr(oom_diagnostic_message(d), "OOM999"));
  fixed = apply_fix(doc, d);
  assert_string_equal(fixed, "y = 2\n");
  free(fixed);
  oom_document_free(doc);
}


static void test_unused_when_rule_disabled_is_not_reported(void **state) {
  (void)state;
  oom_linter *l = linter_new("OOM501", NULL);
  assert_non_null(l);
  engine e = {l, oom_worker_new(l)};
  /* OOM501 is off: the directive may be for someone who turns it on */
  assert_flagged_summary(&e, "  # noqa: OOM501", "");
  oom_worker_free(e.worker);
  oom_linter_free(l);
  /* with OOM001 off, nothing reports the unused directive */
  l = linter_new("OOM001", NULL);
  assert_non_null(l);
  e = (engine){l, oom_worker_new(l)};
  assert_summary(&e, "x = 1  # noqa: OOM501\n", "");
  oom_worker_free(e.worker);
  oom_linter_free(l);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_unsuppressed),
    cmocka_unit_test(test_blanket_noqa),
    cmocka_unit_test(test_noqa_with_codes),
    cmocka_unit_test(test_noqa_on_another_line),
    cmocka_unit_test(test_other_tools_codes_are_left_alone),
    cmocka_unit_test(test_noqa_in_string_does_nothing),
    cmocka_unit_test(test_file_directive),
    cmocka_unit_test(test_unused_directive_on_clean_line),
    cmocka_unit_test(test_unused_directive_keeps_the_reason),
    cmocka_unit_test(test_partially_unused_keeps_used_code),
    cmocka_unit_test(test_unknown_code),
    cmocka_unit_test(test_unused_when_rule_disabled_is_not_reported),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
