/* Unit tests of the rule-file reader (src/engine/rulefile.c): the metadata
 * header, message and edit templates, the dedented doc, and every error,
 * which must name the file and the line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"

#define ORIGIN "my-rules/OOM901-grad-kept.scm"

/* A header that parses, one line per key, followed by a query. Tests replace
 * or drop single lines to make one thing wrong at a known line. */
#define L_CODE "; code: OOM901\n"                                  /* line 1 */
#define L_NAME "; name: grad-kept\n"                               /* line 2 */
#define L_SEV "; severity: error\n"                                /* line 3 */
#define L_MSG "; message: `{target}` keeps `{value}` alive\n"     /* line 4 */
#define L_FIX "; fix: unsafe: Detach the value\n"                  /* line 5 */
#define L_EDIT "; edit: replace @value {value}.detach()\n"         /* line 6 */
#define L_DOC "; doc:\n"                                            /* line 7 */
#define L_DOCBODY                                                  \
  ";   ## What it does\n"                                          \
  ";   Finds values that keep their graph.\n"                      \
  ";\n"                                                            \
  ";     indented example\n"                                       \
  ";\n"
#define L_QUERY                                                    \
  "(augmented_assignment\n"                                        \
  "  left: (_) @target\n"                                          \
  "  right: (_) @value) @report\n"

typedef struct {
  oom_rule rule;
  buf err;
  bool ok;
} parsed;


static void parse_as(parsed *p, const char *origin, const char *text, size_t len) {
  memset(p, 0, sizeof *p);
  p->ok = rulefile_parse(origin, text, len, &p->rule, &p->err);
}


static void parse(parsed *p, const char *text) {
  parse_as(p, ORIGIN, text, strlen(text));
}


static void parsed_free(parsed *p) {
  rulefile_free(&p->rule);
  buf_free(&p->err);
}


/* The parse failed, and its message starts with "ORIGIN:LINE: " and
 * contains WHAT. */
static void assert_error(parsed *p, unsigned line, const char *what) {
  if (p->ok) fail_msg("the rule parsed; expected an error at line %u about `%s`", line, what);
  char prefix[256];
  snprintf(prefix, sizeof prefix, "%s:%u: ", ORIGIN, line);
  const char *msg = buf_str(&p->err);
  if (strncmp(msg, prefix, strlen(prefix)) != 0) fail_msg("error `%s` does not start with `%s`", msg, prefix);
  if (!strstr(msg, what)) fail_msg("error `%s` does not mention `%s`", msg, what);
}


static void expect_error(const char *text, unsigned line, const char *what) {
  parsed p;
  parse(&p, text);
  assert_error(&p, line, what);
  parsed_free(&p);
}


/* Concatenate the literal parts and `{name}` parts of a template. */
static void tmpl_text(const tmpl *t, char *out, size_t size) {
  out[0] = '\0';
  for (size_t i = 0; i < t->count; i++) {
    size_t n = strlen(out);
    if (t->parts[i].capture < 0) snprintf(out + n, size - n, "%.*s", (int)t->parts[i].len, t->parts[i].text);
    else snprintf(out + n, size - n, "<%s>", t->parts[i].name);
  }
}


static void test_valid_rule(void **state) {
  (void)state;
  parsed p;
  parse(&p, L_CODE L_NAME L_SEV L_MSG L_FIX L_EDIT L_DOC L_DOCBODY L_QUERY);
  if (!p.ok) fail_msg("%s", buf_str(&p.err));
  assert_string_equal(p.rule.code, "OOM901");
  assert_string_equal(p.rule.name, "grad-kept");
  assert_int_equal(p.rule.severity, OOM_SEVERITY_ERROR);
  assert_string_equal(p.rule.origin, ORIGIN);
  assert_string_equal(p.rule.message_src, "`{target}` keeps `{value}` alive");
  char t[256];
  tmpl_text(&p.rule.message, t, sizeof t);
  assert_string_equal(t, "`<target>` keeps `<value>` alive");
  assert_int_equal(p.rule.message.count, 5);
  assert_int_equal(p.rule.fix, OOM_FIX_UNSAFE);
  assert_string_equal(p.rule.fix_title, "Detach the value");
  assert_int_equal(p.rule.edits.len, 1);
  assert_int_equal(p.rule.edits.items[0].op, EDIT_REPLACE);
  assert_string_equal(p.rule.edits.items[0].capture_name, "value");
  tmpl_text(&p.rule.edits.items[0].text, t, sizeof t);
  assert_string_equal(t, "<value>.detach()");
  /* the three spaces all doc lines share are gone; the extra indentation
   * and the blank line stay; trailing blank lines go */
  assert_string_equal(p.rule.doc, "## What it does\n"
                                  "Finds values that keep their graph.\n"
                                  "\n"
                                  "  indented example\n");
  assert_false(p.rule.builtin);
  /* the query is kept in the rule's text */
  assert_non_null(strstr(p.rule.text, "(augmented_assignment"));
  parsed_free(&p);
}


static void test_severities_and_fix_kinds(void **state) {
  (void)state;
  static const struct {
    const char *sev;
    oom_severity want;
  } sevs[] = {{"error", OOM_SEVERITY_ERROR}, {"warning", OOM_SEVERITY_WARNING}, {"info", OOM_SEVERITY_INFO}};
  for (size_t i = 0; i < 3; i++) {
    char text[1024];
    snprintf(text, sizeof text, L_CODE L_NAME "; severity: %s\n" L_MSG "; fix: safe: Do it\n" L_DOC L_DOCBODY L_QUERY,
             sevs[i].sev);
    parsed p;
    parse(&p, text);
    if (!p.ok) fail_msg("%s", buf_str(&p.err));
    assert_int_equal(p.rule.severity, sevs[i].want);
    assert_int_equal(p.rule.fix, OOM_FIX_SAFE);
    assert_int_equal(p.rule.edits.len, 0);
    parsed_free(&p);
  }
  parsed p;
  parse(&p, L_CODE L_NAME L_SEV L_MSG "; fix: display: Use DDP instead\n" L_DOC L_DOCBODY L_QUERY);
  if (!p.ok) fail_msg("%s", buf_str(&p.err));
  assert_int_equal(p.rule.fix, OOM_FIX_DISPLAY);
  assert_string_equal(p.rule.fix_title, "Use DDP instead");
  parsed_free(&p);
  /* no fix line: no fix */
  parse(&p, L_CODE L_NAME L_SEV L_MSG L_DOC L_DOCBODY L_QUERY);
  if (!p.ok) fail_msg("%s", buf_str(&p.err));
  assert_int_equal(p.rule.fix, -1);
  assert_null(p.rule.fix_title);
  parsed_free(&p);
}


static void test_all_edit_ops(void **state) {
  (void)state;
  parsed p;
  parse(&p, L_CODE L_NAME L_SEV L_MSG "; fix: safe: Many edits\n"
            "; edit: insert-before @target # {target}\n"
            "; edit: insert-after @target  !\n"
            "; edit: append-arg @args map_location=\"cpu\"\n"
            "; edit: prepend-arg @args \"cuda\"\n"
            "; edit: remove-arg @value\n"
            "; edit: remove-statement @report\n"
            L_DOC L_DOCBODY L_QUERY);
  if (!p.ok) fail_msg("%s", buf_str(&p.err));
  assert_int_equal(p.rule.edits.len, 6);
  static const edit_op ops[] = {EDIT_INSERT_BEFORE, EDIT_INSERT_AFTER, EDIT_APPEND_ARG,
                                EDIT_PREPEND_ARG, EDIT_REMOVE_ARG, EDIT_REMOVE_STATEMENT};
  static const char *const caps[] = {"target", "target", "args", "args", "value", "report"};
  static const char *const texts[] = {"# <target>", "!", "map_location=\"cpu\"", "\"cuda\"", "", ""};
  for (size_t i = 0; i < 6; i++) {
    assert_int_equal(p.rule.edits.items[i].op, ops[i]);
    assert_string_equal(p.rule.edits.items[i].capture_name, caps[i]);
    char t[128];
    tmpl_text(&p.rule.edits.items[i].text, t, sizeof t);
    assert_string_equal(t, texts[i]);
  }
  parsed_free(&p);
}


static void test_doc_inline_and_crlf(void **state) {
  (void)state;
  parsed p;
  parse(&p, "; code: OOM901\r\n"
            "; name: grad-kept\r\n"
            "; severity: warning\r\n"
            "; message: kept\r\n"
            "; doc: First line\r\n"
            ";   second line\r\n"
            "(call) @report\r\n");
  if (!p.ok) fail_msg("%s", buf_str(&p.err));
  assert_string_equal(p.rule.name, "grad-kept");
  assert_string_equal(p.rule.message_src, "kept");
  assert_int_equal(p.rule.severity, OOM_SEVERITY_WARNING);
  assert_null(strchr(p.rule.doc, '\r'));
  assert_string_equal(p.rule.doc, "First line\n   second line\n");
  parsed_free(&p);
}


static void test_empty_query_is_builtin(void **state) {
  (void)state;
  parsed p;
  parse(&p, L_CODE L_NAME L_SEV L_MSG L_DOC L_DOCBODY);
  if (!p.ok) fail_msg("%s", buf_str(&p.err));
  assert_true(p.rule.builtin);
  parsed_free(&p);
  /* white space and comments after the header are still no query */
  parse(&p, L_CODE L_NAME L_SEV L_MSG L_DOC L_DOCBODY "\n\n; a note after the header\n   \n");
  if (!p.ok) fail_msg("%s", buf_str(&p.err));
  assert_true(p.rule.builtin);
  parsed_free(&p);
  parse(&p, L_CODE L_NAME L_SEV L_MSG L_DOC L_DOCBODY "\n(call) @report\n");
  if (!p.ok) fail_msg("%s", buf_str(&p.err));
  assert_false(p.rule.builtin);
  parsed_free(&p);
}


static void test_file_name_without_folder(void **state) {
  (void)state;
  const char *text = L_CODE L_NAME L_SEV L_MSG L_DOC L_DOCBODY L_QUERY;
  parsed p;
  parse_as(&p, "OOM901-grad-kept.scm", text, strlen(text));
  if (!p.ok) fail_msg("%s", buf_str(&p.err));
  parsed_free(&p);
}


/* ---- errors ---- */

static void test_missing_keys(void **state) {
  (void)state;
  expect_error(L_NAME L_SEV L_MSG L_DOC L_DOCBODY L_QUERY, 1, "code");
  expect_error(L_CODE L_SEV L_MSG L_DOC L_DOCBODY L_QUERY, 1, "name");
  expect_error(L_CODE L_NAME L_SEV L_DOC L_DOCBODY L_QUERY, 1, "message");
  expect_error(L_CODE L_NAME L_SEV L_MSG L_QUERY, 1, "doc");
  /* a doc key with nothing under it is no doc */
  expect_error(L_CODE L_NAME L_SEV L_MSG L_DOC L_QUERY, 1, "doc");
  /* a header that ends early (a blank line) loses what follows it */
  expect_error(L_CODE L_NAME "\n" L_SEV L_MSG L_DOC L_DOCBODY L_QUERY, 1, "message");
}


static void test_bad_code(void **state) {
  (void)state;
  expect_error(L_NAME "; code: OOM9012\n" L_SEV L_MSG L_DOC L_DOCBODY L_QUERY, 2, "code");
  expect_error(L_NAME L_SEV "; code: XYZ901\n" L_MSG L_DOC L_DOCBODY L_QUERY, 3, "XYZ901");
  expect_error("; code: OOM9a1\n" L_NAME L_SEV L_MSG L_DOC L_DOCBODY L_QUERY, 1, "OOM9a1");
  expect_error("; code: oom901\n" L_NAME L_SEV L_MSG L_DOC L_DOCBODY L_QUERY, 1, "oom901");
}


static void test_bad_name(void **state) {
  (void)state;
  expect_error(L_CODE "; name: Grad_Kept\n" L_SEV L_MSG L_DOC L_DOCBODY L_QUERY, 2, "Grad_Kept");
  expect_error(L_CODE "; name: -grad\n" L_SEV L_MSG L_DOC L_DOCBODY L_QUERY, 2, "-grad");
}


static void test_bad_severity(void **state) {
  (void)state;
  expect_error(L_CODE L_NAME "; severity: fatal\n" L_MSG L_DOC L_DOCBODY L_QUERY, 3, "fatal");
  expect_error(L_CODE L_NAME "; severity: Error\n" L_MSG L_DOC L_DOCBODY L_QUERY, 3, "severity");
}


static void test_unknown_key(void **state) {
  (void)state;
  expect_error(L_CODE L_NAME L_SEV L_MSG "; url: https://example.org\n" L_DOC L_DOCBODY L_QUERY, 5, "url");
  expect_error(L_CODE L_NAME L_SEV "; not a key value line\n" L_MSG L_DOC L_DOCBODY L_QUERY, 4, "key");
}


static void test_report_once_per_function(void **state) {
  (void)state;
  parsed p;
  parse(&p, L_CODE L_NAME L_SEV L_MSG "; report: once per function\n" L_DOC L_DOCBODY L_QUERY);
  if (!p.ok) fail_msg("%s", buf_str(&p.err));
  assert_true(p.rule.once_per_function);
  parsed_free(&p);
  parse(&p, L_CODE L_NAME L_SEV L_MSG L_DOC L_DOCBODY L_QUERY);
  assert_true(p.ok);
  assert_false(p.rule.once_per_function);
  parsed_free(&p);
  expect_error(L_CODE L_NAME L_SEV L_MSG "; report: once per file\n" L_DOC L_DOCBODY L_QUERY, 5, "once per file");
  expect_error(L_CODE L_NAME L_SEV L_MSG "; report: once per function\n; report: once per function\n" L_DOC L_DOCBODY
               L_QUERY, 6, "repeated");
}


static void test_bad_message(void **state) {
  (void)state;
  expect_error(L_CODE L_NAME L_SEV "; message: `{target` is open\n" L_DOC L_DOCBODY L_QUERY, 4, "{");
  expect_error(L_CODE L_NAME L_SEV "; message: empty {} braces\n" L_DOC L_DOCBODY L_QUERY, 4, "{");
}


static void test_bad_fix(void **state) {
  (void)state;
  expect_error(L_CODE L_NAME L_SEV L_MSG "; fix: maybe: Try it\n" L_DOC L_DOCBODY L_QUERY, 5, "fix");
  expect_error(L_CODE L_NAME L_SEV L_MSG "; fix: safe\n" L_DOC L_DOCBODY L_QUERY, 5, "title");
  expect_error(L_CODE L_NAME L_SEV L_MSG "; fix: safe:   \n" L_DOC L_DOCBODY L_QUERY, 5, "title");
}


static void test_bad_edits(void **state) {
  (void)state;
  /* unknown operation */
  expect_error(L_CODE L_NAME L_SEV L_MSG L_FIX "; edit: delete @value\n" L_DOC L_DOCBODY L_QUERY, 6, "delete");
  expect_error(L_CODE L_NAME L_SEV L_MSG L_FIX "; edit: append @args x=1\n" L_DOC L_DOCBODY L_QUERY, 6, "append");
  /* no capture */
  expect_error(L_CODE L_NAME L_SEV L_MSG L_FIX "; edit: replace value x\n" L_DOC L_DOCBODY L_QUERY, 6, "@");
  expect_error(L_CODE L_NAME L_SEV L_MSG L_FIX "; edit: remove-statement\n" L_DOC L_DOCBODY L_QUERY, 6, "@");
  expect_error(L_CODE L_NAME L_SEV L_MSG L_FIX "; edit: replace @ x\n" L_DOC L_DOCBODY L_QUERY, 6, "capture");
  /* text missing, or text where none is taken */
  expect_error(L_CODE L_NAME L_SEV L_MSG L_FIX "; edit: replace @value\n" L_DOC L_DOCBODY L_QUERY, 6, "text");
  expect_error(L_CODE L_NAME L_SEV L_MSG L_FIX "; edit: append-arg @args   \n" L_DOC L_DOCBODY L_QUERY, 6, "text");
  expect_error(L_CODE L_NAME L_SEV L_MSG L_FIX "; edit: remove-arg @value now\n" L_DOC L_DOCBODY L_QUERY, 6, "text");
  /* unbalanced template in the edit text */
  expect_error(L_CODE L_NAME L_SEV L_MSG L_FIX "; edit: replace @value {value.item()\n" L_DOC L_DOCBODY L_QUERY, 6,
               "{");
}


static void test_edits_need_an_editing_fix(void **state) {
  (void)state;
  /* a display fix makes no edits */
  expect_error(L_CODE L_NAME L_SEV L_MSG "; fix: display: Look at it\n" L_EDIT L_DOC L_DOCBODY L_QUERY, 1, "display");
  /* edits without any fix line */
  expect_error(L_CODE L_NAME L_SEV L_MSG L_EDIT L_DOC L_DOCBODY L_QUERY, 1, "fix");
}


static void test_file_name_must_match(void **state) {
  (void)state;
  const char *text = L_CODE L_NAME L_SEV L_MSG L_DOC L_DOCBODY L_QUERY;
  parsed p;
  parse_as(&p, "my-rules/OOM902-grad-kept.scm", text, strlen(text));
  assert_false(p.ok);
  assert_non_null(strstr(buf_str(&p.err), "my-rules/OOM902-grad-kept.scm:1: "));
  assert_non_null(strstr(buf_str(&p.err), "OOM901-grad-kept.scm"));
  parsed_free(&p);
  parse_as(&p, "my-rules/OOM901-graph-kept.scm", text, strlen(text));
  assert_false(p.ok);
  assert_non_null(strstr(buf_str(&p.err), "my-rules/OOM901-graph-kept.scm:1: "));
  parsed_free(&p);
  parse_as(&p, "my-rules/OOM901-grad-kept.txt", text, strlen(text));
  assert_false(p.ok);
  parsed_free(&p);
}


static void test_nul_byte(void **state) {
  (void)state;
  static const char text[] = L_CODE L_NAME L_SEV "; message: a\0b\n" L_DOC L_DOCBODY L_QUERY;
  parsed p;
  parse_as(&p, ORIGIN, text, sizeof text - 1);
  assert_error(&p, 1, "NUL");
  parsed_free(&p);
  /* a NUL byte in the query is as bad */
  static const char text2[] = L_CODE L_NAME L_SEV L_MSG L_DOC L_DOCBODY "(call) @re\0port\n";
  parse_as(&p, ORIGIN, text2, sizeof text2 - 1);
  assert_error(&p, 1, "NUL");
  parsed_free(&p);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_valid_rule),
    cmocka_unit_test(test_report_once_per_function),
    cmocka_unit_test(test_severities_and_fix_kinds),
    cmocka_unit_test(test_all_edit_ops),
    cmocka_unit_test(test_doc_inline_and_crlf),
    cmocka_unit_test(test_empty_query_is_builtin),
    cmocka_unit_test(test_file_name_without_folder),
    cmocka_unit_test(test_missing_keys),
    cmocka_unit_test(test_bad_code),
    cmocka_unit_test(test_bad_name),
    cmocka_unit_test(test_bad_severity),
    cmocka_unit_test(test_unknown_key),
    cmocka_unit_test(test_bad_message),
    cmocka_unit_test(test_bad_fix),
    cmocka_unit_test(test_bad_edits),
    cmocka_unit_test(test_edits_need_an_editing_fix),
    cmocka_unit_test(test_file_name_must_match),
    cmocka_unit_test(test_nul_byte),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
