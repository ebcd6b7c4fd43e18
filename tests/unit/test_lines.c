/* Unit tests of the line-break scans (src/util/lines.c): "\n", "\r\n" as one
 * break, and a lone "\r" (old Mac files, a stray one) as a break too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "util/lines.h"

/* lines: "a" LF, "bc" CRLF, "" CR, "d" CR, "e" (no break) */
static const char MIXED[] = "a\nbc\r\n\rd\re";


static void test_breaks(void **state) {
  (void)state;
  size_t n = sizeof MIXED - 1;
  /* the breaks are the "\n"s and the lone "\r"s; the "\r" of "\r\n" is not one */
  const char *want = "0100011010";
  for (size_t i = 0; i < n; i++) assert_int_equal(lines_breaks_at(MIXED, n, i), want[i] == '1');
  /* a "\r" at the very end is lone */
  assert_true(lines_breaks_at("x\r", 2, 1));
}


static void test_has_lone_cr(void **state) {
  (void)state;
  assert_true(lines_has_lone_cr(MIXED, sizeof MIXED - 1));
  assert_false(lines_has_lone_cr("a\r\nb\r\n", 6));
  assert_false(lines_has_lone_cr("a\nb\n", 4));
  assert_false(lines_has_lone_cr("", 0));
  assert_true(lines_has_lone_cr("a\r\nb\r", 5));
  assert_true(lines_has_lone_cr("\r\r\n", 3));
}


static void test_start_end_next(void **state) {
  (void)state;
  size_t n = sizeof MIXED - 1;
  /* each byte's line: start, content end, next line's start */
  static const size_t start[] = {0, 0, 2, 2, 2, 2, 6, 7, 7, 9, 9};
  static const size_t end[] = {1, 1, 4, 4, 4, 4, 6, 8, 8, 10, 10};
  static const size_t next[] = {2, 2, 6, 6, 6, 6, 7, 9, 9, 10, 10};
  for (size_t i = 0; i <= n; i++) {
    assert_int_equal(lines_start(MIXED, n, i), start[i]);
    assert_int_equal(lines_content_end(MIXED, n, lines_start(MIXED, n, i)), end[i]);
    assert_int_equal(lines_next(MIXED, n, lines_start(MIXED, n, i)), next[i]);
  }
  /* past the end: the last line's start */
  assert_int_equal(lines_start(MIXED, n, n + 5), 9);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_breaks),
    cmocka_unit_test(test_has_lone_cr),
    cmocka_unit_test(test_start_end_next),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
