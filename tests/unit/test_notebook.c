/* Unit tests of the notebook reader and writer (src/notebook): what is
 * blanked as IPython syntax and what is Python, the module and its cell
 * rows, the fixed module cut back into cells with magics restored, and
 * sources spliced into the original bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notebook/notebook.h"


/* SOURCE blanked: the result as a malloc'd string (the caller frees) */
static char *blanked(const char *source, bool *any) {
  char *s = strdup(source);
  bool a = notebook_blank_magics(s, strlen(s));
  if (any) *any = a;
  return s;
}


static void want_blank(const char *source, const char *want) {
  char *got = blanked(source, NULL);
  assert_string_equal(got, want);
  assert_int_equal(strlen(got), strlen(source));
  free(got);
}


static void test_magics_blanked(void **state) {
  (void)state;
  want_blank("%matplotlib inline\nx = 1\n", "                  \nx = 1\n");
  want_blank("!pip install torch\r\nx = 1", "                  \r\nx = 1");
  want_blank("files = !ls\nenv = %env\n", "           \n          \n");
  want_blank("torch.load?\nmodel.forward??\n", "           \n               \n");
  /* a magic alone in a block: a statement keeps the block non-empty */
  want_blank("for f in files:\n    !echo {f}\n", "for f in files:\n    pass     \n");
  want_blank("if x:\n    !ls\n", "if x:\n    ...\n");
  /* a magic continued with a backslash */
  want_blank("!echo a \\\n  b\nx = 1\n", "         \n   \nx = 1\n");
}


static void test_python_kept(void **state) {
  (void)state;
  /* `%` and `!` that continue a logical line are operators or text */
  const char *kept[] = {
    "print('%d'\n      % 3)\n",
    "print('%d' \\\n      % 3)\n",
    "s = '''\n%not a magic\n!nor this\n'''\n",
    "x = a != b\ny = a % b\n",
    "# %comment\nx = 1\n",
  };
  for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
    char *got = blanked(kept[i], NULL);
    assert_string_equal(got, kept[i]);
    free(got);
  }
  /* after the brackets close, a `%` starts a magic again */
  want_blank("d = {\n  'k': 1,\n}\n%time f()\n", "d = {\n  'k': 1,\n}\n         \n");
}


static void test_cell_magics(void **state) {
  (void)state;
  /* %%time runs Python: only its header goes */
  want_blank("%%time\nx = 1\n", "      \nx = 1\n");
  /* %%bash does not: the whole cell goes */
  want_blank("%%bash\nfor f in *; do echo $f; done\n", "      \n                            \n");
  bool any;
  free(blanked("x = 1\n", &any));
  assert_false(any);
  /* a cell's own copy of the separator line is blanked (found by fuzzing) */
  char *sep = blanked("x = 1\n  " NOTEBOOK_SEPARATOR " \ny = 2\n", &any);
  assert_true(any);
  assert_null(strstr(sep, NOTEBOOK_SEPARATOR));
  assert_int_equal(strlen(sep), strlen("x = 1\n  " NOTEBOOK_SEPARATOR " \ny = 2\n"));
  assert_int_equal(strncmp(sep, "x = 1\n  ", 8), 0);
  assert_string_equal(sep + strlen(sep) - 7, "\ny = 2\n");
  free(sep);
}


#define NB_HEAD "{\n \"cells\": [\n"
#define NB_TAIL " ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"

static const char NB[] =
  NB_HEAD
  "  {\n   \"cell_type\": \"code\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n"
  "    \"%matplotlib inline\\n\",\n    \"x = 1\"\n   ]\n  },\n"
  "  {\n   \"cell_type\": \"markdown\",\n   \"metadata\": {},\n   \"source\": [\"# Title\"]\n  },\n"
  "  {\n   \"cell_type\": \"code\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": []\n  },\n"
  "  {\n   \"cell_type\": \"code\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n"
  "    \"for b in loader:\\r\\n\",\n    \"    t += loss\\r\\n\"\n   ]\n  }\n"
  NB_TAIL;


/* The 0-based line of TEXT holding the first occurrence of NEEDLE. */
static uint32_t line_of(const char *text, const char *needle) {
  const char *at = strstr(text, needle);
  assert_non_null(at);
  uint32_t n = 0;
  for (const char *p = text; p < at; p++) n += *p == '\n';
  return n;
}


static void test_module(void **state) {
  (void)state;
  notebook nb;
  char why[256];
  assert_true(notebook_read(NB, sizeof NB - 1, &nb, why, sizeof why));
  assert_int_equal(nb.ncells, 3);
  assert_true(nb.spans_ok);
  assert_string_equal(nb.module, "                  \nx = 1\n" NOTEBOOK_SEPARATOR "\n\n" NOTEBOOK_SEPARATOR
                                 "\nfor b in loader:\r\n    t += loss\r\n");
  assert_int_equal(nb.cells[0].index, 0);
  assert_int_equal(nb.cells[1].index, 2);
  assert_int_equal(nb.cells[0].first_row, 0);
  assert_int_equal(nb.cells[1].first_row, 3);
  assert_int_equal(nb.cells[2].first_row, 5);
  uint32_t rows[3];
  assert_true(notebook_module_rows(nb.module, nb.module_len, 3, rows));
  assert_int_equal(rows[2], 5);
  /* each module row's line in the file */
  assert_int_equal(nb.nfile_rows, 7);
  assert_int_equal(nb.file_rows[0], line_of(NB, "\"%matplotlib"));
  assert_int_equal(nb.file_rows[1], line_of(NB, "\"x = 1\""));
  assert_int_equal(nb.file_rows[5], line_of(NB, "\"for b in"));
  assert_int_equal(nb.file_rows[6], line_of(NB, "\"    t += loss"));
  notebook_free(&nb);
  /* one string holding several lines: all on its line */
  const char *one = "{\"nbformat\": 4,\n \"cells\": [{\"cell_type\": \"code\",\n  \"source\": \"a = 1\\nb = 2\\r\\nc = 3\"}]}";
  assert_true(notebook_read(one, strlen(one), &nb, why, sizeof why));
  assert_int_equal(nb.nfile_rows, 3);
  for (int i = 0; i < 3; i++) assert_int_equal(nb.file_rows[i], 2);
  notebook_free(&nb);
}


static void test_write_round_trip(void **state) {
  (void)state;
  notebook nb;
  char why[256];
  assert_true(notebook_read(NB, sizeof NB - 1, &nb, why, sizeof why));
  /* a fix in the last cell, and a line added to the empty one */
  char *fixed = strdup(nb.module);
  const char *at = strstr(fixed, "t += loss");
  size_t off = (size_t)(at - fixed) + strlen("t += loss");
  char module[1024];
  snprintf(module, sizeof module, "%.*s.item()%s", (int)off, fixed, fixed + off);
  char *sources[3];
  size_t lens[3];
  assert_true(notebook_split(&nb, module, strlen(module), sources, lens, why, sizeof why));
  /* the magic is back, the missing final newline not added */
  assert_string_equal(sources[0], "%matplotlib inline\nx = 1");
  assert_string_equal(sources[1], "");
  assert_string_equal(sources[2], "for b in loader:\r\n    t += loss.item()\r\n");
  free(sources[1]);
  sources[1] = strdup("y = 2\n");
  lens[1] = 6;
  buf out = {0};
  assert_true(notebook_write(&nb, NB, sizeof NB - 1, sources, lens, &out, why, sizeof why));
  const char *want =
    NB_HEAD
    "  {\n   \"cell_type\": \"code\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n"
    "    \"%matplotlib inline\\n\",\n    \"x = 1\"\n   ]\n  },\n"
    "  {\n   \"cell_type\": \"markdown\",\n   \"metadata\": {},\n   \"source\": [\"# Title\"]\n  },\n"
    "  {\n   \"cell_type\": \"code\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n"
    "    \"y = 2\\n\"\n   ]\n  },\n"
    "  {\n   \"cell_type\": \"code\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n"
    "    \"for b in loader:\\r\\n\",\n    \"    t += loss.item()\\r\\n\"\n   ]\n  }\n"
    NB_TAIL;
  assert_string_equal(buf_str(&out), want);
  for (int i = 0; i < 3; i++) free(sources[i]);
  buf_free(&out);
  free(fixed);
  notebook_free(&nb);
}


static void test_split_refuses(void **state) {
  (void)state;
  notebook nb;
  char why[256];
  assert_true(notebook_read(NB, sizeof NB - 1, &nb, why, sizeof why));
  char *sources[3];
  size_t lens[3];
  /* a separator gone */
  const char *lost = "x = 1\n\nfor b in loader:\n";
  assert_false(notebook_split(&nb, lost, strlen(lost), sources, lens, why, sizeof why));
  /* the blanked magic line changed */
  char *changed = strdup(nb.module);
  changed[0] = 'z';
  assert_false(notebook_split(&nb, changed, strlen(changed), sources, lens, why, sizeof why));
  assert_non_null(strstr(why, "IPython"));
  free(changed);
  notebook_free(&nb);
}


static void test_bad_notebooks(void **state) {
  (void)state;
  const char *bad[] = {"", "{", "[]", "{\"nbformat\": 3, \"cells\": []}", "{\"nbformat\": 4}",
                       "{\"nbformat\": 4, \"cells\": [1]}", "{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\"}]}",
                       "{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": [1]}]}"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    notebook nb;
    char why[256] = "";
    assert_false(notebook_read(bad[i], strlen(bad[i]), &nb, why, sizeof why));
    assert_true(why[0] != '\0');
    assert_null(nb.module);
  }
  /* no cells at all: an empty module */
  notebook nb;
  char why[256];
  const char *empty = "{\"nbformat\": 4, \"cells\": []}";
  assert_true(notebook_read(empty, strlen(empty), &nb, why, sizeof why));
  assert_int_equal(nb.ncells, 0);
  assert_int_equal(nb.module_len, 0);
  notebook_free(&nb);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_magics_blanked),  cmocka_unit_test(test_python_kept),
    cmocka_unit_test(test_cell_magics),     cmocka_unit_test(test_module),
    cmocka_unit_test(test_write_round_trip), cmocka_unit_test(test_split_refuses),
    cmocka_unit_test(test_bad_notebooks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
