/* Unit tests of the rule engine through the public API: rule files written
 * to a temporary --rules-dir, the standard and oomlint predicates, message
 * rendering, one diagnostic per rule and range, errors in rule files (file,
 * line, column), and rule selection (--select / --ignore). */
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

#include "engine/engine.h"
#include "parse/parse.h"
#include "oomlint/oomlint.h"

/* ---- a temporary rules folder ---- */

typedef struct {
  char path[64];
} rules_dir;

/* every folder made, so that the group teardown removes those a failed test
 * left behind */
static char made[64][64];
static size_t nmade;


static void dir_make(rules_dir *d) {
  strcpy(d->path, "/tmp/oomlint-unit-XXXXXX");
  assert_non_null(mkdtemp(d->path));
  if (nmade < sizeof made / sizeof *made) strcpy(made[nmade++], d->path);
}


static void dir_write(const rules_dir *d, const char *name, const char *text) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", d->path, name);
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
  assert_int_equal(fclose(fp), 0);
}


static void dir_remove(rules_dir *d) {
  DIR *dp = opendir(d->path);
  if (!dp) return;
  struct dirent *e;
  while ((e = readdir(dp))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", d->path, e->d_name);
    unlink(path);
  }
  closedir(dp);
  rmdir(d->path);
}


/* Write rule CODE-NAME.scm: a seven-line header (code, name, severity,
 * message, FIX_LINES if any, a two-line doc), then QUERY. Without FIX_LINES
 * the query starts on line 8. */
static void add_rule(const rules_dir *d, const char *code, const char *name, const char *message,
                     const char *fix_lines, const char *query) {
  char text[4096], file[128];
  snprintf(text, sizeof text,
           "; code: %s\n"
           "; name: %s\n"
           "; severity: warning\n"
           "; message: %s\n"
           "%s"
           "; doc:\n"
           ";   ## What it does\n"
           ";   A rule of the unit tests.\n"
           "%s",
           code, name, message, fix_lines ? fix_lines : "", query);
  snprintf(file, sizeof file, "%s-%s.scm", code, name);
  dir_write(d, file, text);
}


/* ---- linting ---- */

typedef struct {
  rules_dir dir;
  oom_linter *linter;
  oom_worker *worker;
} engine;


static oom_linter *linter_for(const rules_dir *d, oom_options *o, char **error) {
  bool own = !o;
  if (own) o = oom_options_new();
  oom_options_add_rules_dir(o, d->path);
  *error = NULL;
  oom_linter *l = oom_linter_new(o, error);
  if (own) oom_options_free(o);
  return l;
}


static oom_document *lint(engine *e, const char *src) {
  oom_document *doc = oom_document_new("t.py", src, strlen(src));
  oom_document_lint(doc, e->worker);
  return doc;
}


/* The 1-based rows of CODE's diagnostics, as "2,5" ("" when none). */
static const char *rows(const oom_document *doc, const char *code) {
  static char out[256];
  out[0] = '\0';
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    if (strcmp(oom_diagnostic_code(d), code) != 0) continue;
    size_t n = strlen(out);
    snprintf(out + n, sizeof out - n, "%s%u", n ? "," : "", (unsigned)oom_diagnostic_start(d).row + 1);
  }
  return out;
}


static const char *lint_rows(engine *e, const char *src, const char *code) {
  oom_document *doc = lint(e, src);
  const char *r = rows(doc, code);
  oom_document_free(doc);
  return r;
}


static const oom_diagnostic *only(const oom_document *doc, const char *code) {
  const oom_diagnostic *found = NULL;
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    if (strcmp(oom_diagnostic_code(d), code) != 0) continue;
    if (found) fail_msg("more than one %s diagnostic", code);
    found = d;
  }
  if (!found) fail_msg("no %s diagnostic", code);
  return found;
}


/* ---- the shared rule set ---- */

static int setup(void **state) {
  engine *e = calloc(1, sizeof *e);
  *state = e;
  dir_make(&e->dir);
  const rules_dir *d = &e->dir;
  add_rule(d, "OOM901", "eq-string", "`{fn}` called", NULL,
           "(call function: (identifier) @fn (#eq? @fn \"foo\")) @report\n");
  add_rule(d, "OOM902", "eq-captures", "self assignment", NULL,
           "(assignment left: (identifier) @left right: (identifier) @right (#eq? @left @right)) @report\n");
  add_rule(d, "OOM903", "not-eq", "bar called", NULL,
           "(call function: (identifier) @fn (#match? @fn \"^bar\") (#not-eq? @fn \"bar_ok\")) @report\n");
  add_rule(d, "OOM904", "match-pcre", "unsafe load", NULL,
           "(call function: (identifier) @fn (#match? @fn \"^load_(?!safe)\\\\w+$\")) @report\n");
  add_rule(d, "OOM905", "match-unanchored", "three digits", NULL,
           "((string) @report (#match? @report \"\\\\d{3}\") (#not-match? @report \"skip\"))\n");
  add_rule(d, "OOM906", "any-of", "greek", NULL,
           "(call function: (identifier) @fn (#any-of? @fn \"alpha\" \"beta\")) @report\n");
  add_rule(d, "OOM907", "not-any-of", "method", NULL,
           "(call function: (attribute object: (identifier) @obj attribute: (identifier) @m)\n"
           "  (#eq? @obj \"box\") (#not-any-of? @m \"keep\" \"hold\")) @report\n");
  add_rule(d, "OOM908", "qualname", "torch load", NULL,
           "(call function: (_) @fn (#oom-qualname? @fn \"torch\\\\.load\")) @report\n");
  add_rule(d, "OOM909", "has-arg-pos", "load without map_location", NULL,
           "(call function: (identifier) @fn arguments: (argument_list) @args\n"
           "  (#eq? @fn \"load\") (#oom-not-has-arg? @args \"map_location\" 1)) @report\n");
  add_rule(d, "OOM910", "has-arg-kw", "ckpt without use_reentrant", NULL,
           "(call function: (identifier) @fn arguments: (argument_list) @args\n"
           "  (#eq? @fn \"ckpt\") (#oom-not-has-arg? @args \"use_reentrant\")) @report\n");
  add_rule(d, "OOM911", "has-arg-quoted-pos", "three has c", NULL,
           "(call function: (identifier) @fn arguments: (argument_list) @args\n"
           "  (#eq? @fn \"three\") (#oom-has-arg? @args \"c\" \"2\")) @report\n");
  add_rule(d, "OOM912", "keyword-args-only", "keywords only", NULL,
           "(call function: (identifier) @fn arguments: (argument_list) @args\n"
           "  (#eq? @fn \"kw\") (#oom-keyword-args-only? @args)) @report\n");
  add_rule(d, "OOM913", "file-calls", "file sets the device", NULL,
           "(call function: (identifier) @fn (#eq? @fn \"report_me\")\n"
           "  (#oom-file-calls? \"torch\\\\.cuda\\\\.set_device\")) @report\n");
  add_rule(d, "OOM914", "file-mentions", "no expandable segments", NULL,
           "(call function: (identifier) @fn (#eq? @fn \"mention_me\")\n"
           "  (#oom-not-file-mentions? \"expandable_segments\")) @report\n");
  add_rule(d, "OOM915", "file-imports", "apex imported", NULL,
           "(call function: (identifier) @fn (#eq? @fn \"imp_me\") (#oom-file-imports? \"apex(\\\\..*)?\")) @report\n");
  add_rule(d, "OOM916", "in-except", "in oom handler", NULL,
           "(call function: (identifier) @fn (#eq? @fn \"exc_me\")\n"
           "  (#oom-in-except? @fn \"torch\\\\.(cuda\\\\.)?OutOfMemoryError\")) @report\n");
  add_rule(d, "OOM917", "message", "`{fn}` got {args}", NULL,
           "(call function: (identifier) @fn arguments: (argument_list) @args (#eq? @fn \"show\")) @report\n");
  /* two patterns on one range: only the second can make the edit */
  add_rule(d, "OOM918", "dedupe-edits", "got {one}{two}", "; fix: safe: Tag it\n; edit: append-arg @two tag=1\n",
           "(call function: (identifier) @one (#eq? @one \"twice\")) @report\n"
           "(call function: (identifier) @fn2 arguments: (argument_list) @two (#eq? @fn2 \"twice\")) @report\n");
  /* two patterns on one range, both with edits: the first in file order */
  add_rule(d, "OOM919", "dedupe-first", "seen {one}{two}",
           "; fix: unsafe: Mark it\n; edit: insert-after @report   # seen\n",
           "(call function: (identifier) @one (#eq? @one \"twin\")) @report\n"
           "(call function: (identifier) @fn2 arguments: (argument_list) @two (#eq? @fn2 \"twin\")) @report\n");
  /* two patterns on one range, neither with edits */
  add_rule(d, "OOM920", "dedupe-plain", "plain", NULL,
           "(call function: (identifier) @fn (#eq? @fn \"dup\")) @report\n"
           "(call function: (identifier) @fn (#match? @fn \"^du\")) @report\n");
  add_rule(d, "OOM921", "loop-facts", "in loop", NULL,
           "(call function: (identifier) @fn (#eq? @fn \"tick\") (#oom-every-iteration? @fn)\n"
           "  (#oom-not-in-no-grad? @fn)) @report\n");
  add_rule(d, "OOM922", "kind", "kind", NULL,
           "(call function: (identifier) @fn arguments: (argument_list . (_) @a .)\n"
           "  (#eq? @fn \"kind\") (#oom-kind? @a \"identifier|call\")) @report\n");
  add_rule(d, "OOM923", "arg", "arg", NULL,
           "(call function: (identifier) @fn arguments: (argument_list) @args\n"
           "  (#eq? @fn \"arg\") (#oom-arg? @args \"dev(ice)?\" \"[\\\"']cuda[\\\"']\")) @report\n");
  add_rule(d, "OOM924", "in-method", "in method", NULL,
           "(call function: (identifier) @fn (#eq? @fn \"meth\")\n"
           "  (#oom-in-method? @fn \"__init__|setup\" \"torch\\\\.nn\\\\.Module\")) @report\n");
  add_rule(d, "OOM925", "in-any-loop", "in any loop", NULL,
           "(call function: (identifier) @fn (#eq? @fn \"anyloop\") (#oom-in-any-loop? @fn)) @report\n");
  char *err = NULL;
  e->linter = linter_for(d, NULL, &err);
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
  if (e) {
    oom_worker_free(e->worker);
    oom_linter_free(e->linter);
    free(e);
  }
  for (size_t i = 0; i < nmade; i++) {
    rules_dir d;
    strcpy(d.path, made[i]);
    dir_remove(&d);
  }
  return 0;
}


/* ---- standard predicates ---- */

static void test_eq_string(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "foo()\n"
                                   "food()\n"
                                   "x.foo()\n"
                                   "foo(1)\n",
                                "OOM901"),
                      "1,4");
}


static void test_eq_two_captures(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "x = x\n"
                                   "x = y\n"
                                   "long_name = long_name\n"
                                   "long_name = long_nam\n",
                                "OOM902"),
                      "1,3");
}


static void test_not_eq(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "bar()\n"
                                   "bar_ok()\n"
                                   "bar_okay()\n"
                                   "xbar()\n",
                                "OOM903"),
                      "1,3");
}


static void test_match_pcre2(void **state) {
  engine *e = *state;
  /* a negative lookahead and \w are PCRE syntax that POSIX regexes lack */
  assert_string_equal(lint_rows(e, "load_model()\n"
                                   "load_safe()\n"
                                   "load_()\n"
                                   "xload_model()\n"
                                   "load_safetensors()\n"
                                   "load_unsafe()\n",
                                "OOM904"),
                      "1,6");
}


static void test_match_unanchored_and_not_match(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "a = \"abc123def\"\n"
                                   "b = \"ab12\"\n"
                                   "c = \"999\"\n"
                                   "d = \"skip 123\"\n",
                                "OOM905"),
                      "1,3");
}


static void test_any_of(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "alpha()\n"
                                   "gamma()\n"
                                   "beta()\n"
                                   "alphabet()\n",
                                "OOM906"),
                      "1,3");
  assert_string_equal(lint_rows(e, "box.keep()\n"
                                   "box.drop()\n"
                                   "box.hold()\n"
                                   "box.keeper()\n",
                                "OOM907"),
                      "2,4");
}


/* ---- oomlint predicates ---- */

static void test_qualname(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "import torch as T\n"
                                   "T.load(p)\n"
                                   "T.loads(p)\n"
                                   "pickle.load(p)\n"
                                   "T.jit.load(p)\n",
                                "OOM908"),
                      "2");
  /* no import: `torch` is just a name */
  assert_string_equal(lint_rows(e, "torch.load(p)\n", "OOM908"), "");
  assert_string_equal(lint_rows(e, "from torch import load\n"
                                   "load(p)\n",
                                "OOM908"),
                      "2");
}


static void test_has_arg_keyword_position_splats(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "load(p)\n"                      /* 1: flagged */
                                   "load(p, 'cpu')\n"               /* 2: second positional */
                                   "load(p, map_location='cpu')\n"  /* 3: keyword */
                                   "load(p, **kw)\n"                /* 4: may pass it */
                                   "load(*args)\n"                  /* 5: may pass it */
                                   "load(p, weights_only=True)\n"   /* 6: flagged */
                                   "load(map_location=None)\n"      /* 7: keyword, even None */
                                   "load()\n"                       /* 8: flagged */
                                   "load(p, # note\n"               /* 9: a comment is no argument */
                                   ")\n",
                                "OOM909"),
                      "1,6,8,9");
  /* without a position, positional arguments never count */
  assert_string_equal(lint_rows(e, "ckpt(f, x)\n"
                                   "ckpt(f, x, use_reentrant=False)\n"
                                   "ckpt(f, x, True, True, True)\n"
                                   "ckpt(f, **opts)\n",
                                "OOM910"),
                      "1,3");
  /* position given as a string: more than 2 positional arguments */
  assert_string_equal(lint_rows(e, "three(a, b)\n"
                                   "three(a, b, x)\n"
                                   "three(a, c=1)\n"
                                   "three(a, b, d=1)\n",
                                "OOM911"),
                      "2,3");
}


static void test_keyword_args_only(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "kw(a=1, b=2)\n"
                                   "kw()\n"
                                   "kw(1, b=2)\n"
                                   "kw(**opts)\n"
                                   "kw(*xs)\n",
                                "OOM912"),
                      "1,2");
}


static void test_file_calls(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "import torch\n"
                                   "report_me()\n"
                                   "torch.cuda.set_device(0)\n",
                                "OOM913"),
                      "2");
  assert_string_equal(lint_rows(e, "import torch\n"
                                   "report_me()\n"
                                   "torch.cuda.set_device\n"   /* mentioned, not called */
                                   "torch.cuda.set_device_x(0)\n",
                                "OOM913"),
                      "");
}


static void test_file_mentions(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "mention_me()\n"
                                   "mention_me()\n",
                                "OOM914"),
                      "1,2");
  /* a comment counts as a mention */
  assert_string_equal(lint_rows(e, "mention_me()\n"
                                   "# PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n",
                                "OOM914"),
                      "");
}


static void test_file_imports(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "from apex import amp\n"
                                   "imp_me()\n",
                                "OOM915"),
                      "2");
  assert_string_equal(lint_rows(e, "import apexlike\n"
                                   "imp_me()\n",
                                "OOM915"),
                      "");
}


static void test_in_except(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "import torch\n"
                                   "try:\n"
                                   "    exc_me()\n"                            /* 3: in try */
                                   "except torch.cuda.OutOfMemoryError:\n"
                                   "    exc_me()\n"                            /* 5 */
                                   "except (ValueError, torch.OutOfMemoryError) as e:\n"
                                   "    exc_me()\n"                            /* 7 */
                                   "except RuntimeError:\n"
                                   "    exc_me()\n"                            /* 9: other type */
                                   "except:\n"
                                   "    exc_me()\n",                           /* 11: bare catches all */
                                "OOM916"),
                      "5,7,11");
}


static void test_loop_predicates(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "import torch\n"
                                   "for batch in train_loader:\n"
                                   "    tick()\n"                 /* 3 */
                                   "    if step % 10 == 0:\n"
                                   "        tick()\n"             /* 5: periodic */
                                   "    with torch.no_grad():\n"
                                   "        tick()\n"             /* 7: no grad */
                                   "tick()\n",                    /* 8: outside */
                                "OOM921"),
                      "3");
}


/* ---- messages and duplicates ---- */

static void test_message_rendering(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, "show(\n"
                              "    first,\n"
                              "\t\tsecond   +   third,\n"
                              ")\n");
  const oom_diagnostic *d = only(doc, "OOM917");
  assert_string_equal(oom_diagnostic_message(d), "`show` got ( first, second + third, )");
  assert_int_equal(oom_diagnostic_severity(d), OOM_SEVERITY_WARNING);
  assert_null(oom_diagnostic_fix(d));
  oom_position s = oom_diagnostic_start(d), en = oom_diagnostic_end(d);
  assert_int_equal(s.row, 0);
  assert_int_equal(s.column, 0);
  assert_int_equal(en.row, 3);
  assert_int_equal(en.column, 1);
  oom_document_free(doc);

  /* long captures are cut */
  char src[256];
  char arg[101];
  memset(arg, 'a', 100);
  arg[100] = '\0';
  snprintf(src, sizeof src, "show(%s)\n", arg);
  doc = lint(e, src);
  d = only(doc, "OOM917");
  const char *msg = oom_diagnostic_message(d);
  assert_true(strlen(msg) < strlen("`show` got ") + 80);
  assert_true(strncmp(msg, "`show` got (aaaa", 16) == 0);
  assert_non_null(strstr(msg, "..."));
  assert_null(strchr(msg, '\n'));
  oom_document_free(doc);
}


static void test_one_diagnostic_per_range_prefers_edits(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, "twice(a)\n");
  const oom_diagnostic *d = only(doc, "OOM918");
  const oom_fix *fix = oom_diagnostic_fix(d);
  assert_non_null(fix);
  assert_int_equal(oom_fix_applicability(fix), OOM_FIX_SAFE);
  assert_string_equal(oom_fix_title(fix), "Tag it");
  assert_int_equal(oom_fix_edit_count(fix), 1);
  const oom_edit *ed = oom_fix_edit(fix, 0);
  assert_int_equal(ed->start_byte, 7);
  assert_int_equal(ed->end_byte, 7);
  assert_string_equal(ed->content, ", tag=1");
  /* the message is the one of the pattern that made the edits */
  assert_string_equal(oom_diagnostic_message(d), "got (a)");
  oom_document_free(doc);
}


static void test_one_diagnostic_per_range_first_pattern(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, "twin(b)\n");
  const oom_diagnostic *d = only(doc, "OOM919");
  assert_string_equal(oom_diagnostic_message(d), "seen twin");
  const oom_fix *fix = oom_diagnostic_fix(d);
  assert_non_null(fix);
  assert_int_equal(oom_fix_applicability(fix), OOM_FIX_UNSAFE);
  assert_int_equal(oom_fix_edit_count(fix), 1);
  assert_string_equal(oom_fix_edit(fix, 0)->content, "# seen");
  oom_document_free(doc);

  doc = lint(e, "dup()\n");
  d = only(doc, "OOM920");
  assert_null(oom_diagnostic_fix(d));
  oom_document_free(doc);
}


/* ---- errors in rule files ---- */

static char *linter_error(const rules_dir *d) {
  char *err = NULL;
  oom_linter *l = linter_for(d, NULL, &err);
  if (l) {
    oom_linter_free(l);
    fail_msg("the linter was built; expected an error");
  }
  assert_non_null(err);
  return err;
}


/* ERR starts with "DIR/FILE:" followed by WHERE, and contains WHAT. */
static void assert_error_at(const char *err, const rules_dir *d, const char *file, const char *where,
                            const char *what) {
  char prefix[512];
  snprintf(prefix, sizeof prefix, "%s/%s:%s", d->path, file, where);
  if (strncmp(err, prefix, strlen(prefix)) != 0) fail_msg("error `%s` does not start with `%s`", err, prefix);
  if (!strstr(err, what)) fail_msg("error `%s` does not mention `%s`", err, what);
}


static void test_query_syntax_error(void **state) {
  (void)state;
  rules_dir d;
  dir_make(&d);
  add_rule(&d, "OOM931", "fine", "fine", NULL, "(call) @report\n");
  /* the query starts on line 8; the unknown node type is on line 9 */
  add_rule(&d, "OOM932", "broken", "broken", NULL,
           "(call\n"
           "  (no_such_node)) @report\n");
  char *err = linter_error(&d);
  assert_error_at(err, &d, "OOM932-broken.scm", "9:4: invalid query", "no_such_node");
  free(err);
  dir_remove(&d);

  dir_make(&d);
  /* an unbalanced parenthesis: the error is in this file, after line 7,
   * not in the file whose query follows it in the combined query */
  add_rule(&d, "OOM933", "unclosed", "unclosed", NULL,
           "(call\n"
           "  function: (identifier) @report\n");
  add_rule(&d, "OOM934", "after", "after", NULL, "(call) @report\n");
  err = linter_error(&d);
  char prefix[256];
  snprintf(prefix, sizeof prefix, "%s/OOM933-unclosed.scm:", d.path);
  if (strncmp(err, prefix, strlen(prefix)) != 0) fail_msg("error `%s` does not name OOM933-unclosed.scm", err);
  unsigned line = 0, col = 0;
  assert_int_equal(sscanf(err + strlen(prefix), "%u:%u:", &line, &col), 2);
  /* in the query, not in the header, and not past the end of the file */
  assert_true(line >= 8 && line <= 10);
  assert_true(col >= 1);
  assert_non_null(strstr(err, "invalid query"));
  free(err);
  dir_remove(&d);
}


static void test_unknown_predicate(void **state) {
  (void)state;
  rules_dir d;
  dir_make(&d);
  /* the second pattern starts on line 11 */
  add_rule(&d, "OOM935", "bogus", "bogus", NULL,
           "(call\n"
           "  function: (identifier) @fn) @report\n"
           "\n"
           "(call function: (identifier) @fn (#oom-bogus? @fn)) @report\n");
  char *err = linter_error(&d);
  assert_error_at(err, &d, "OOM935-bogus.scm", "11: ", "oom-bogus");
  free(err);
  dir_remove(&d);

  /* a predicate spelled without the question mark is unknown too */
  dir_make(&d);
  add_rule(&d, "OOM936", "no-question", "q", NULL, "(call function: (identifier) @fn (#eq @fn \"x\")) @report\n");
  err = linter_error(&d);
  assert_error_at(err, &d, "OOM936-no-question.scm", "8: ", "eq");
  free(err);
  dir_remove(&d);
}


static void test_bad_predicate_arguments(void **state) {
  (void)state;
  rules_dir d;
  dir_make(&d);
  add_rule(&d, "OOM937", "bad-regex", "r", NULL, "(call function: (identifier) @fn (#match? @fn \"([\")) @report\n");
  char *err = linter_error(&d);
  assert_error_at(err, &d, "OOM937-bad-regex.scm", "8: ", "regex");
  free(err);
  dir_remove(&d);

  dir_make(&d);
  add_rule(&d, "OOM938", "bad-pos", "p", NULL,
           "(call arguments: (argument_list) @args (#oom-has-arg? @args \"x\" \"first\")) @report\n");
  err = linter_error(&d);
  assert_error_at(err, &d, "OOM938-bad-pos.scm", "8: ", "first");
  free(err);
  dir_remove(&d);

  dir_make(&d);
  add_rule(&d, "OOM939", "no-capture", "p", NULL, "(call (#oom-in-loop? \"x\")) @report\n");
  err = linter_error(&d);
  assert_error_at(err, &d, "OOM939-no-capture.scm", "8: ", "capture");
  free(err);
  dir_remove(&d);
}


static void test_captures_the_rule_does_not_have(void **state) {
  (void)state;
  rules_dir d;
  dir_make(&d);
  add_rule(&d, "OOM940", "msg-capture", "uses {nothere}", NULL, "(call) @report\n");
  char *err = linter_error(&d);
  assert_error_at(err, &d, "OOM940-msg-capture.scm", "1: ", "nothere");
  free(err);
  dir_remove(&d);

  dir_make(&d);
  add_rule(&d, "OOM941", "edit-capture", "e", "; fix: safe: Do\n; edit: remove-arg @missing\n", "(call) @report\n");
  err = linter_error(&d);
  assert_error_at(err, &d, "OOM941-edit-capture.scm", "1: ", "missing");
  free(err);
  dir_remove(&d);

  dir_make(&d);
  add_rule(&d, "OOM942", "no-report", "r", NULL, "(call) @call\n");
  err = linter_error(&d);
  assert_error_at(err, &d, "OOM942-no-report.scm", "1: ", "@report");
  free(err);
  dir_remove(&d);
}


static void test_duplicate_code(void **state) {
  (void)state;
  rules_dir d;
  dir_make(&d);
  add_rule(&d, "OOM943", "first", "a", NULL, "(call) @report\n");
  add_rule(&d, "OOM943", "second", "b", NULL, "(call) @report\n");
  char *err = linter_error(&d);
  assert_error_at(err, &d, "OOM943-second.scm", "1: ", "OOM943");
  assert_non_null(strstr(err, "OOM943-first.scm"));
  free(err);
  dir_remove(&d);

  /* a code of a built-in rule */
  dir_make(&d);
  add_rule(&d, "OOM501", "my-empty-cache", "a", NULL, "(call) @report\n");
  err = linter_error(&d);
  assert_error_at(err, &d, "OOM501-my-empty-cache.scm", "1: ", "OOM501");
  assert_non_null(strstr(err, "rules/OOM501-"));
  free(err);
  dir_remove(&d);
}


static void test_rule_file_error_is_reported(void **state) {
  (void)state;
  rules_dir d;
  dir_make(&d);
  dir_write(&d, "OOM944-bad-severity.scm",
            "; code: OOM944\n; name: bad-severity\n; severity: loud\n; message: m\n; doc:\n;   d\n(call) @report\n");
  char *err = linter_error(&d);
  assert_error_at(err, &d, "OOM944-bad-severity.scm", "3: ", "loud");
  free(err);
  dir_remove(&d);
}


static void test_missing_rules_dir(void **state) {
  (void)state;
  oom_options *o = oom_options_new();
  oom_options_add_rules_dir(o, "/nonexistent/oomlint-rules");
  char *err = NULL;
  oom_linter *l = oom_linter_new(o, &err);
  assert_null(l);
  assert_non_null(err);
  assert_non_null(strstr(err, "/nonexistent/oomlint-rules"));
  free(err);
  oom_options_free(o);
}


static void test_user_rules_are_listed(void **state) {
  engine *e = *state;
  const oom_rule *r = oom_linter_find_rule(e->linter, "OOM917");
  assert_non_null(r);
  assert_string_equal(oom_rule_name(r), "message");
  assert_string_equal(oom_rule_message(r), "`{fn}` got {args}");
  char want[256];
  snprintf(want, sizeof want, "%s/OOM917-message.scm", e->dir.path);
  assert_string_equal(oom_rule_origin(r), want);
  assert_ptr_equal(oom_linter_find_rule(e->linter, "dedupe-edits"), oom_linter_find_rule(e->linter, "OOM918"));
  assert_null(oom_linter_find_rule(e->linter, "OOM999"));
  /* sorted by code */
  for (size_t i = 1; i < oom_linter_rule_count(e->linter); i++)
    assert_true(strcmp(oom_rule_code(oom_linter_rule(e->linter, i - 1)),
                       oom_rule_code(oom_linter_rule(e->linter, i))) < 0);
  r = oom_linter_find_rule(e->linter, "OOM918");
  assert_string_equal(oom_rule_fix_applicability(r), "safe");
  assert_null(oom_rule_fix_applicability(oom_linter_find_rule(e->linter, "OOM901")));
}


/* ---- selection ---- */

static void test_kind(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "kind(x)\n"
                                   "kind(f(x))\n"
                                   "kind(x.y)\n"        /* an attribute */
                                   "kind('s')\n"
                                   "kind(x, y)\n",     /* not the only argument */
                                "OOM922"),
                      "1,2");
}


static void test_arg(void **state) {
  engine *e = *state;
  assert_string_equal(lint_rows(e, "arg(device='cuda')\n"
                                   "arg(dev=\"cuda\", x=1)\n"
                                   "arg(device='cpu')\n"
                                   "arg('cuda')\n"           /* positional: no keyword */
                                   "arg(devices='cuda')\n"   /* the name matches in full only */
                                   "arg(device='cuda:1')\n"  /* so does the value */
                                   "arg(**{'device': 'cuda'})\n",
                                "OOM923"),
                      "1,2");
}


static void test_in_method_and_any_loop(void **state) {
  engine *e = *state;
  const char *src = "import torch\n"
                    "from torch import nn\n"
                    "class Base(nn.Module):\n"
                    "    def __init__(self):\n"
                    "        meth()\n"                     /* 5: flagged */
                    "        def inner():\n"
                    "            meth()\n"                 /* 7: a nested function */
                    "    def forward(self):\n"
                    "        meth()\n"                     /* 9: another method */
                    "class Child(Base):\n"
                    "    def setup(self):\n"
                    "        if True:\n"
                    "            meth()\n"                 /* 13: flagged, through Base */
                    "class Plain:\n"
                    "    def __init__(self):\n"
                    "        meth()\n"                     /* 16: not a Module */
                    "def __init__():\n"
                    "    meth()\n"                         /* 18: not a method */
                    "for i in range(3):\n"
                    "    anyloop()\n"                      /* 20 */
                    "def f(xs):\n"
                    "    while xs:\n"
                    "        anyloop()\n"                  /* 23 */
                    "    anyloop()\n"
                    "    for x in xs:\n"
                    "        def g():\n"
                    "            anyloop()\n";             /* 27: its own function has no loop */
  assert_string_equal(lint_rows(e, src, "OOM924"), "5,13");
  assert_string_equal(lint_rows(e, src, "OOM925"), "20,23");
}


static void test_shape(void **state) {
  (void)state;
  static const struct {
    const char *a, *b;
    bool same;
  } cases[] = {
    {"((call) @report (#eq? @report \"x\"))", "((call)   @report\n  (#match? @report \"(y)\"))", true},
    {"(call function: (_) @fn ; a comment (with a parenthesis\n) @report", "(call function: (_) @fn) @report", true},
    {"(call (#eq? @x \")\") function: (_) @fn) @report", "(call function: (_) @fn) @report", true},
    {"(call function: (_) @fn) @report", "(call function: (_) @f) @report", false},
    {"(string) @report (#eq? @report \"a b\")", "(string) @report", true},
    {"((string) \"a  b\" @report)", "((string) \"a b\" @report)", false},
    {"(argument_list . (_) @a .)", "(argument_list (_) @a)", false},
    /* a group of one node pattern is that pattern; of two, or quantified, not */
    {"((call function: (_) @fn) @report @call (#eq? @fn \"x\"))", "(call function: (_) @fn) @report @call", true},
    {"((call) @a (call) @b)", "(call) @a (call) @b", false},
    {"((call) @a)?", "(call) @a", false},
  };
  /* without names, captures on the same nodes make the same shape */
  static const struct {
    const char *a, *b;
    bool same;
  } unnamed[] = {
    {"(call function: (_) @fn) @report @call", "(call function: (_) @f) @r", true},
    {"(call function: (_) @fn) @report", "(call function: (_)) @report", false},
    {"(call \"@x\" @s)", "(call \"@y\" @s)", false},
  };
  for (size_t i = 0; i < sizeof unnamed / sizeof *unnamed; i++) {
    buf a = {0}, b = {0}, ua = {0}, ub = {0};
    shape_of(unnamed[i].a, strlen(unnamed[i].a), &a);
    shape_of(unnamed[i].b, strlen(unnamed[i].b), &b);
    shape_unnamed(a.data, a.len, &ua);
    shape_unnamed(b.data, b.len, &ub);
    bool same = ua.len == ub.len && !memcmp(buf_str(&ua), buf_str(&ub), ua.len);
    if (same != unnamed[i].same) fail_msg("unnamed case %zu: \"%s\" vs \"%s\"", i, buf_str(&ua), buf_str(&ub));
    buf_free(&a);
    buf_free(&b);
    buf_free(&ua);
    buf_free(&ub);
  }
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    buf a = {0}, b = {0};
    shape_of(cases[i].a, strlen(cases[i].a), &a);
    shape_of(cases[i].b, strlen(cases[i].b), &b);
    bool same = a.len == b.len && !memcmp(buf_str(&a), buf_str(&b), a.len);
    if (same != cases[i].same) fail_msg("case %zu: \"%s\" vs \"%s\"", i, buf_str(&a), buf_str(&b));
    buf_free(&a);
    buf_free(&b);
  }
}


static void test_renamed_captures(void **state) {
  (void)state;
  rules_dir d;
  dir_make(&d);
  /* one shape whose captures each rule names otherwise: the later rules are
   * evaluated on the first one's matches, each capture under its own name */
  add_rule(&d, "OOM971", "ren-a", "a `{fn}`", NULL, "(call function: (identifier) @fn (#eq? @fn \"ren\")) @report @call\n");
  add_rule(&d, "OOM972", "ren-b", "b `{f}`", NULL, "(call function: (identifier) @f (#eq? @f \"ren\")) @report @call\n");
  add_rule(&d, "OOM973", "ren-c", "c `{call}`", NULL,
           "(call function: (identifier) @report (#eq? @report \"ren\")) @call\n");
  char *err = NULL;
  oom_linter *l = linter_for(&d, NULL, &err);
  if (!l) fail_msg("%s", err ? err : "?");
  oom_worker *w = oom_worker_new(l);
  engine e = {d, l, w};
  oom_document *doc = lint(&e, "x = 1\nren(2)\nother(3)\n");
  static const struct {
    const char *code, *message;
    uint32_t start, end;
  } want[] = {{"OOM971", "a `ren`", 6, 12}, {"OOM972", "b `ren`", 6, 12}, {"OOM973", "c `ren(2)`", 6, 9}};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    const oom_diagnostic *diag = only(doc, want[i].code);
    assert_string_equal(oom_diagnostic_message(diag), want[i].message);
    assert_int_equal(oom_diagnostic_start(diag).byte, want[i].start);
    assert_int_equal(oom_diagnostic_end(diag).byte, want[i].end);
  }
  oom_document_free(doc);
  oom_worker_free(w);
  oom_linter_free(l);
  dir_remove(&d);
}


/* The linter compiles a pattern that repeats an earlier one's shape as a
 * stub (linter.c, compile_stubbed): its start must be the one tree-sitter
 * gives the pattern, and the stub must keep its captures and predicates. */
static void test_split_and_stub(void **state) {
  (void)state;
  static const char *const queries[] = {
    "(call) @a\n(identifier) @b",
    "; a comment with ( and [ and \"\n((call function: (_) @f) @report (#eq? @f \"x);(\"))\n",
    "\"return\" @kw\n[(true) (false)] @bool\n(comment)+ @c\n",
    "((call function: (identifier) @f (#match? @f \"[(]\")) @report (#not-eq? @f \"a\\\"b\"))",
    "(call arguments: (argument_list . (_) @first)) @report ; trailing ( comment\n(string) @s",
    "((call function: (identifier) @f) @report\n  (#eq? @f \"x\") ; a comment with ) in it\n  (#not-eq? @f \"y\"))\n(string) @s",
  };
  for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
    const char *text = queries[i];
    size_t len = strlen(text);
    uint32_t off;
    TSQueryError qe;
    TSQuery *q = ts_query_new(parse_language(), text, (uint32_t)len, &off, &qe);
    if (!q) fail_msg("query %zu does not compile: error %d at %u", i, (int)qe, off);
    uint32_t starts[16];
    size_t n = shape_split(text, len, starts, 16);
    assert_int_equal(n, ts_query_pattern_count(q));
    for (uint32_t p = 0; p < n; p++) assert_int_equal(starts[p], ts_query_start_byte_for_pattern(q, p));
    ts_query_delete(q);
  }

  /* a stub of a pattern whose predicates stand inside its nodes */
  const char *pat = "((call\n  function: (attribute object: (_) @obj attribute: (identifier) @m (#eq? @m \"to\"))\n"
                    "  arguments: (argument_list) @args) @report\n  (#match? @args ; a GPU, not the CPU :)\n \"cuda\")"
                    " (#oom-in-loop? @report))\n";
  size_t len = strlen(pat);
  buf shape = {0}, stub = {0};
  shape_of(pat, len, &shape);
  assert_true(shape_stub(pat, len, shape.data, shape.len, &stub));
  assert_int_equal(stub.len, len);
  uint32_t off;
  TSQueryError qe;
  TSQuery *orig = ts_query_new(parse_language(), pat, (uint32_t)len, &off, &qe);
  TSQuery *q = ts_query_new(parse_language(), stub.data, (uint32_t)stub.len, &off, &qe);
  if (!orig || !q) fail_msg("stub \"%s\" does not compile", buf_str(&stub));
  assert_int_equal(ts_query_pattern_count(q), 1);
  assert_int_equal(ts_query_capture_count(q), ts_query_capture_count(orig));
  for (uint32_t c = 0; c < ts_query_capture_count(q); c++) {
    uint32_t la, lb;
    const char *a = ts_query_capture_name_for_id(orig, c, &la), *b = ts_query_capture_name_for_id(q, c, &lb);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
  }
  uint32_t na, nb;
  const TSQueryPredicateStep *pa = ts_query_predicates_for_pattern(orig, 0, &na);
  const TSQueryPredicateStep *pb = ts_query_predicates_for_pattern(q, 0, &nb);
  assert_int_equal(na, nb);
  assert_int_equal(na, 11); /* each predicate: its name, its arguments, a done step */
  for (uint32_t k = 0; k < na; k++) {
    assert_int_equal(pa[k].type, pb[k].type);
    uint32_t la, lb;
    const char *a = pa[k].type == TSQueryPredicateStepTypeString ? ts_query_string_value_for_id(orig, pa[k].value_id, &la)
                    : pa[k].type == TSQueryPredicateStepTypeCapture ? ts_query_capture_name_for_id(orig, pa[k].value_id, &la)
                                                                     : "";
    const char *b = pb[k].type == TSQueryPredicateStepTypeString ? ts_query_string_value_for_id(q, pb[k].value_id, &lb)
                    : pb[k].type == TSQueryPredicateStepTypeCapture ? ts_query_capture_name_for_id(q, pb[k].value_id, &lb)
                                                                     : "";
    if (pa[k].type == TSQueryPredicateStepTypeDone) la = lb = 0;
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
  }
  ts_query_delete(orig);
  ts_query_delete(q);
  /* no room for the stub: nothing is written */
  buf_free(&stub);
  assert_false(shape_stub("(x) @y", 6, "(x) @y", 6, &stub));
  assert_int_equal(stub.len, 0);
  buf_free(&stub);
  buf_free(&shape);
}


/* Rules repeating one shape (the later ones compiled as stubs) each report
 * where their own predicates hold, and a stub matches nothing by itself. */
static void test_stubbed_variants(void **state) {
  (void)state;
  rules_dir d;
  dir_make(&d);
  const char *shape = "(call function: (identifier) @fn arguments: (argument_list) @args) @report";
  char q1[256], q2[256], q3[256];
  snprintf(q1, sizeof q1, "(%s (#eq? @fn \"one\"))\n", shape);
  snprintf(q2, sizeof q2, "(%s (#eq? @fn \"two\"))\n(%s (#match? @args \"^\\\\(2\"))\n", shape, shape);
  snprintf(q3, sizeof q3, "((call function: (identifier) @fn (#eq? @fn \"three\") arguments: (argument_list) @args) @report)\n");
  add_rule(&d, "OOM961", "var-one", "one `{fn}`", NULL, q1);
  add_rule(&d, "OOM962", "var-two", "two `{fn}`", NULL, q2);
  add_rule(&d, "OOM963", "var-three", "three `{args}`", NULL, q3);
  char *err = NULL;
  oom_linter *l = linter_for(&d, NULL, &err);
  if (!l) fail_msg("%s", err ? err : "?");
  oom_worker *w = oom_worker_new(l);
  engine e = {d, l, w};
  oom_document *doc = lint(&e, "one(1)\ntwo(1)\nthree(2)\nfour(1)\nx = [a.b for a in c if d]\n");
  assert_int_equal(oom_document_diagnostic_count(doc), 4);
  assert_string_equal(oom_diagnostic_message(only(doc, "OOM961")), "one `one`");
  assert_string_equal(oom_diagnostic_message(only(doc, "OOM963")), "three `(2)`");
  size_t twos = 0;
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *diag = oom_document_diagnostic(doc, i);
    if (strcmp(oom_diagnostic_code(diag), "OOM962")) continue;
    twos++;
    assert_string_equal(oom_diagnostic_message(diag), oom_diagnostic_start(diag).byte == 7 ? "two `two`" : "two `three`");
  }
  assert_int_equal(twos, 2);
  oom_document_free(doc);
  oom_worker_free(w);
  oom_linter_free(l);
  dir_remove(&d);
}


static void test_selection(void **state) {
  (void)state;
  rules_dir d;
  dir_make(&d);
  add_rule(&d, "OOM951", "sel-a", "a", NULL, "(call function: (identifier) @fn (#eq? @fn \"sel\")) @report\n");
  add_rule(&d, "OOM952", "sel-b", "b", NULL, "(call function: (identifier) @fn (#eq? @fn \"sel\")) @report\n");
  add_rule(&d, "OOM961", "sel-c", "c", NULL, "(call function: (identifier) @fn (#eq? @fn \"sel\")) @report\n");
  static const struct {
    const char *select[2], *extend, *ignore[2];
    const char *on; /* which of 951 952 961 501 303 are enabled, as "1101..." */
  } cases[] = {
    {{NULL, NULL}, NULL, {NULL, NULL}, "11111"},           /* default: all */
    {{"OOM5", NULL}, NULL, {NULL, NULL}, "00010"},         /* a prefix */
    {{"OOM9", NULL}, NULL, {NULL, NULL}, "11100"},
    {{"OOM95", "OOM303"}, NULL, {NULL, NULL}, "11001"},    /* selectors accumulate */
    {{"OOM9", NULL}, NULL, {"OOM95", NULL}, "00100"},      /* ignore more specific: wins */
    {{"OOM952", NULL}, NULL, {"OOM9", NULL}, "01000"},     /* select more specific: wins */
    {{"OOM951", NULL}, NULL, {"OOM951", NULL}, "00000"},   /* a tie goes to ignore */
    {{"ALL", NULL}, NULL, {"ALL", NULL}, "00000"},
    {{NULL, NULL}, NULL, {"OOM9", NULL}, "00011"},         /* ignore without select */
    {{"OOM5", NULL}, "OOM961", {NULL, NULL}, "00110"},     /* extend-select adds */
    {{NULL, NULL}, "OOM951", {"OOM95", NULL}, "10111"},    /* extend beats a less specific ignore */
    {{"OOM0", NULL}, NULL, {NULL, NULL}, "00000"},
  };
  static const char *const codes[] = {"OOM951", "OOM952", "OOM961", "OOM501", "OOM303"};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    oom_options *o = oom_options_new();
    for (int k = 0; k < 2; k++) {
      if (cases[c].select[k]) oom_options_select(o, cases[c].select[k]);
      if (cases[c].ignore[k]) oom_options_ignore(o, cases[c].ignore[k]);
    }
    if (cases[c].extend) oom_options_extend_select(o, cases[c].extend);
    char *err = NULL;
    oom_linter *l = linter_for(&d, o, &err);
    if (!l) fail_msg("%s", err ? err : "?");
    char got[8] = {0};
    for (size_t k = 0; k < 5; k++) {
      const oom_rule *r = oom_linter_find_rule(l, codes[k]);
      if (!r) fail_msg("rule %s is missing", codes[k]);
      got[k] = oom_linter_rule_enabled(l, r) ? '1' : '0';
    }
    if (strcmp(got, cases[c].on) != 0) fail_msg("case %zu: enabled %s, expected %s", c, got, cases[c].on);
    /* a disabled rule reports nothing, an enabled one reports though the
     * three share one shape and only the first stays in the query */
    oom_worker *w = oom_worker_new(l);
    engine e = {d, l, w};
    for (size_t k = 0; k < 3; k++) {
      const char *r = lint_rows(&e, "sel()\n", codes[k]);
      if (strcmp(r, cases[c].on[k] == '1' ? "1" : "") != 0)
        fail_msg("case %zu: %s reports on rows \"%s\"", c, codes[k], r);
    }
    oom_worker_free(w);
    oom_linter_free(l);
    oom_options_free(o);
  }
  dir_remove(&d);
}


static void test_selector_validity(void **state) {
  (void)state;
  assert_true(oom_selector_is_valid("ALL"));
  assert_true(oom_selector_is_valid("OOM"));
  assert_true(oom_selector_is_valid("OOM5"));
  assert_true(oom_selector_is_valid("OOM501"));
  assert_false(oom_selector_is_valid("OOM5011"));
  assert_false(oom_selector_is_valid("OOM5a"));
  assert_false(oom_selector_is_valid("E501"));
  assert_false(oom_selector_is_valid("all"));
  assert_false(oom_selector_is_valid(""));
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_eq_string),
    cmocka_unit_test(test_split_and_stub),
    cmocka_unit_test(test_stubbed_variants),
    cmocka_unit_test(test_eq_two_captures),
    cmocka_unit_test(test_not_eq),
    cmocka_unit_test(test_match_pcre2),
    cmocka_unit_test(test_match_unanchored_and_not_match),
    cmocka_unit_test(test_any_of),
    cmocka_unit_test(test_qualname),
    cmocka_unit_test(test_has_arg_keyword_position_splats),
    cmocka_unit_test(test_keyword_args_only),
    cmocka_unit_test(test_file_calls),
    cmocka_unit_test(test_file_mentions),
    cmocka_unit_test(test_file_imports),
    cmocka_unit_test(test_in_except),
    cmocka_unit_test(test_loop_predicates),
    cmocka_unit_test(test_message_rendering),
    cmocka_unit_test(test_one_diagnostic_per_range_prefers_edits),
    cmocka_unit_test(test_one_diagnostic_per_range_first_pattern),
    cmocka_unit_test(test_query_syntax_error),
    cmocka_unit_test(test_unknown_predicate),
    cmocka_unit_test(test_bad_predicate_arguments),
    cmocka_unit_test(test_captures_the_rule_does_not_have),
    cmocka_unit_test(test_duplicate_code),
    cmocka_unit_test(test_rule_file_error_is_reported),
    cmocka_unit_test(test_missing_rules_dir),
    cmocka_unit_test(test_user_rules_are_listed),
    cmocka_unit_test(test_kind),
    cmocka_unit_test(test_arg),
    cmocka_unit_test(test_in_method_and_any_loop),
    cmocka_unit_test(test_shape),
    cmocka_unit_test(test_renamed_captures),
    cmocka_unit_test(test_selection),
    cmocka_unit_test(test_selector_validity),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
