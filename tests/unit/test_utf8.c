/* Unit tests of the UTF-8 helpers (src/util/utf8.c) and of the public
 * column conversion oom_column_convert(): byte columns to code points and to
 * UTF-16 units, with CJK, emoji, combining marks and invalid bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "oomlint/oomlint.h"
#include "util/buf.h"
#include "util/utf8.h"

#define CP OOM_UNITS_CODEPOINTS
#define U16 OOM_UNITS_UTF16
#define BYTES OOM_UNITS_BYTES

/* U+65E5 U+672C: two CJK ideographs, three bytes each */
#define NICHI "\xE6\x97\xA5"
#define HON "\xE6\x9C\xAC"
/* U+1F600: four bytes, a surrogate pair in UTF-16 */
#define GRIN "\xF0\x9F\x98\x80"
/* U+0301 COMBINING ACUTE ACCENT: two bytes, its own code point */
#define ACUTE "\xCC\x81"


static uint32_t conv(const char *line, uint32_t column, oom_units units) {
  return oom_column_convert(line, strlen(line), column, units);
}


static void test_ascii(void **state) {
  (void)state;
  const char *line = "x = torch.load(p)";
  for (uint32_t c = 0; c <= strlen(line); c++) {
    assert_int_equal(conv(line, c, BYTES), c);
    assert_int_equal(conv(line, c, CP), c);
    assert_int_equal(conv(line, c, U16), c);
  }
}


static void test_cjk(void **state) {
  (void)state;
  const char *line = "s = \"" NICHI HON "\" + x";
  /* the quote before the ideographs: byte 4 */
  assert_int_equal(conv(line, 5, CP), 5);
  /* after one ideograph: 8 bytes, 6 code points, 6 UTF-16 units */
  assert_int_equal(conv(line, 8, CP), 6);
  assert_int_equal(conv(line, 8, U16), 6);
  /* after both and the closing quote */
  assert_int_equal(conv(line, 12, CP), 8);
  assert_int_equal(conv(line, 12, U16), 8);
  /* `x` at the end */
  assert_int_equal(conv(line, (uint32_t)strlen(line) - 1, CP), 11);
  assert_int_equal(conv(line, (uint32_t)strlen(line) - 1, BYTES), strlen(line) - 1);
}


static void test_emoji_is_two_utf16_units(void **state) {
  (void)state;
  const char *line = "a" GRIN "b" GRIN GRIN "c";
  assert_int_equal(conv(line, 1, CP), 1);
  assert_int_equal(conv(line, 1, U16), 1);
  assert_int_equal(conv(line, 5, CP), 2);
  assert_int_equal(conv(line, 5, U16), 3);
  assert_int_equal(conv(line, 6, CP), 3);
  assert_int_equal(conv(line, 6, U16), 4);
  assert_int_equal(conv(line, 14, CP), 5);
  assert_int_equal(conv(line, 14, U16), 8);
  assert_int_equal(conv(line, 15, CP), 6);
  assert_int_equal(conv(line, 15, U16), 9);
}


static void test_combining_marks_are_code_points(void **state) {
  (void)state;
  /* "é" written as e + U+0301: one glyph, two code points */
  const char *line = "caf" "e" ACUTE " = 1";
  assert_int_equal(conv(line, 4, CP), 4);
  assert_int_equal(conv(line, 6, CP), 5);
  assert_int_equal(conv(line, 6, U16), 5);
  assert_int_equal(conv(line, 7, CP), 6);
}


static void test_invalid_bytes_count_one_each(void **state) {
  (void)state;
  /* two stray bytes */
  assert_int_equal(conv("\xFF\xFE" "ab", 3, CP), 3);
  assert_int_equal(conv("\xFF\xFE" "ab", 3, U16), 3);
  /* a truncated three-byte sequence followed by ASCII */
  assert_int_equal(conv("\xE6\x97" "a" NICHI, 3, CP), 3);
  assert_int_equal(conv("\xE6\x97" "a" NICHI, 6, CP), 4);
  /* an encoded surrogate (not UTF-8) is three bytes, three units */
  assert_int_equal(conv("\xED\xA0\x80" "x", 4, U16), 4);
  /* an overlong `/` */
  assert_int_equal(conv("\xC0\xAF" "x", 3, CP), 3);
  /* beyond U+10FFFF */
  assert_int_equal(conv("\xF4\x90\x80\x80" "x", 5, U16), 5);
  /* a four-byte sequence cut by the end of the line: each byte counts */
  const char cut[] = "a\xF0\x9F\x98";
  assert_int_equal(oom_column_convert(cut, 4, 4, U16), 4);
}


static void test_column_past_the_end(void **state) {
  (void)state;
  /* the newline (and beyond) counts byte for byte */
  const char *line = NICHI "x";
  assert_int_equal(oom_column_convert(line, strlen(line), 4, CP), 2);
  assert_int_equal(oom_column_convert(line, strlen(line), 5, CP), 3);
  assert_int_equal(oom_column_convert(line, strlen(line), 7, U16), 5);
  /* LENGTH bounds what is read: a line whose ideograph is not available */
  assert_int_equal(oom_column_convert(line, 0, 0, CP), 0);
}


static void test_sequence_length(void **state) {
  (void)state;
  assert_int_equal(utf8_sequence_length((const unsigned char *)"a", 1), 1);
  assert_int_equal(utf8_sequence_length((const unsigned char *)"\xC3\xA9", 2), 2);
  assert_int_equal(utf8_sequence_length((const unsigned char *)NICHI, 3), 3);
  assert_int_equal(utf8_sequence_length((const unsigned char *)GRIN, 4), 4);
  /* not enough bytes available */
  assert_int_equal(utf8_sequence_length((const unsigned char *)GRIN, 3), 0);
  /* a continuation byte cannot start a sequence */
  assert_int_equal(utf8_sequence_length((const unsigned char *)"\x80", 1), 0);
  /* overlong, surrogate, too large, bad continuation */
  assert_int_equal(utf8_sequence_length((const unsigned char *)"\xC1\xBF", 2), 0);
  assert_int_equal(utf8_sequence_length((const unsigned char *)"\xE0\x80\x80", 3), 0);
  assert_int_equal(utf8_sequence_length((const unsigned char *)"\xED\xBF\xBF", 3), 0);
  assert_int_equal(utf8_sequence_length((const unsigned char *)"\xF4\x90\x80\x80", 4), 0);
  assert_int_equal(utf8_sequence_length((const unsigned char *)"\xE6\x41\xA5", 3), 0);
  /* the largest code point and the last before the surrogates are fine */
  assert_int_equal(utf8_sequence_length((const unsigned char *)"\xF4\x8F\xBF\xBF", 4), 4);
  assert_int_equal(utf8_sequence_length((const unsigned char *)"\xED\x9F\xBF", 3), 3);
  /* 5- and 6-byte forms do not exist */
  assert_int_equal(utf8_sequence_length((const unsigned char *)"\xF8\x88\x80\x80\x80", 5), 0);
}


static void test_first_invalid(void **state) {
  (void)state;
  assert_int_equal(utf8_first_invalid("", 0), SIZE_MAX);
  assert_int_equal(utf8_first_invalid("plain", 5), SIZE_MAX);
  const char *ok = "x = '" NICHI GRIN "e" ACUTE "'";
  assert_int_equal(utf8_first_invalid(ok, strlen(ok)), SIZE_MAX);
  /* NUL is valid UTF-8 */
  assert_int_equal(utf8_first_invalid("a\0b", 3), SIZE_MAX);
  assert_int_equal(utf8_first_invalid("ab\xFF" "cd\xFE", 6), 2);
  assert_int_equal(utf8_first_invalid(NICHI "\xC0\x80", 5), 3);
  assert_int_equal(utf8_first_invalid("\xED\xA0\x80", 3), 0);
  /* a sequence cut by the end of the buffer */
  assert_int_equal(utf8_first_invalid("ab" NICHI, 4), 2);
  /* N bounds the scan */
  assert_int_equal(utf8_first_invalid("ab\xFF", 2), SIZE_MAX);
  /* past the eight-byte ASCII stride: a bad byte at each offset of a word,
   * after valid multibyte text, and N ending inside a word */
  for (size_t at = 0; at < 20; at++) {
    char text[24];
    memset(text, 'a', sizeof text);
    text[at] = '\xFF';
    assert_int_equal(utf8_first_invalid(text, sizeof text), at);
    assert_int_equal(utf8_first_invalid(text, at), SIZE_MAX);
  }
  const char *mixed = "0123456789" NICHI "abcdefghij\xC0\x80";
  assert_int_equal(utf8_first_invalid(mixed, strlen(mixed)), 23);
}


static void test_sanitize(void **state) {
  (void)state;
  buf b = {0};
  utf8_sanitize("a\xFF" "b" NICHI "\xE6\x97", 8, &b);
  assert_string_equal(buf_str(&b), "a\xEF\xBF\xBD" "b" NICHI "\xEF\xBF\xBD\xEF\xBF\xBD");
  buf_clear(&b);
  const char *ok = "ok " GRIN;
  utf8_sanitize(ok, strlen(ok), &b);
  assert_string_equal(buf_str(&b), ok);
  buf_free(&b);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ascii),
    cmocka_unit_test(test_cjk),
    cmocka_unit_test(test_emoji_is_two_utf16_units),
    cmocka_unit_test(test_combining_marks_are_code_points),
    cmocka_unit_test(test_invalid_bytes_count_one_each),
    cmocka_unit_test(test_column_past_the_end),
    cmocka_unit_test(test_sequence_length),
    cmocka_unit_test(test_first_invalid),
    cmocka_unit_test(test_sanitize),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
