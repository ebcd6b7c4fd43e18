/* This file contains UTF-8 validation and the column conversion of the public
 * API (oom_column_convert). */
#include "util/utf8.h"

#include <stdint.h>
#include <string.h>

#include "oomlint/diagnostic.h"
#include "util/buf.h"


int utf8_sequence_length(const unsigned char *s, size_t available) {
  unsigned char c = s[0];
  if (c < 0x80) return 1;
  int n;
  uint32_t min;
  if ((c & 0xE0) == 0xC0) { n = 2; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { n = 3; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { n = 4; min = 0x10000; }
  else return 0;
  if ((size_t)n > available) return 0;
  uint32_t cp = c & (0x7F >> n);
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0; /* overlong, surrogate */
  return n;
}


size_t utf8_first_invalid(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    /* source is mostly ASCII: eight bytes at a time while no high bit is
     * set (this runs over every byte of every file linted) */
    while (i + 8 <= n) {
      uint64_t w;
      memcpy(&w, p + i, sizeof w);
      if (w & UINT64_C(0x8080808080808080)) break;
      i += 8;
    }
    if (i >= n) break;
    if (p[i] < 0x80) { i++; continue; }
    int len = utf8_sequence_length(p + i, n - i);
    if (!len) return i;
    i += (size_t)len;
  }
  return SIZE_MAX;
}


uint32_t oom_column_convert(const char *line, size_t length, uint32_t column, oom_units units) {
  if (units == OOM_UNITS_BYTES) return column;
  const unsigned char *p = (const unsigned char *)line;
  size_t end = column < length ? column : length;
  uint32_t out = 0;
  size_t i = 0;
  /* a byte-order mark is not a column (only the first line can hold one) */
  if (length >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF && end >= 3) i = 3;
  while (i < end) {
    int len = p[i] < 0x80 ? 1 : utf8_sequence_length(p + i, length - i);
    if (!len) len = 1;
    out += (units == OOM_UNITS_UTF16 && len == 4) ? 2 : 1;
    i += (size_t)len;
  }
  /* a column past the line's end (the newline) counts byte for byte */
  if (column > length) out += column - (uint32_t)length;
  return out;
}


void utf8_sanitize(const char *s, size_t n, buf *out) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0, run = 0;
  while (i < n) {
    int len = p[i] < 0x80 ? 1 : utf8_sequence_length(p + i, n - i);
    if (len) {
      i += (size_t)len;
      continue;
    }
    buf_append(out, s + run, i - run);
    buf_puts(out, "\xEF\xBF\xBD");
    run = ++i;
  }
  buf_append(out, s + run, n - run);
}


uint32_t utf8_display_width(const char *s, size_t length, size_t upto) {
  const unsigned char *p = (const unsigned char *)s;
  size_t end = upto < length ? upto : length, i = 0;
  uint32_t w = 0;
  if (length >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF && end >= 3) i = 3;
  while (i < end) {
    int len = p[i] < 0x80 ? 1 : utf8_sequence_length(p + i, length - i);
    if (!len) {
      w++;
      i++;
      continue;
    }
    uint32_t cp = p[i];
    if (len > 1) {
      cp = p[i] & (0x7F >> len);
      for (int k = 1; k < len; k++) cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    i += (size_t)len;
    if (cp >= 0x300 && cp <= 0x36F) continue; /* combining marks take no column */
    bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
                (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
                (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
    w += wide ? 2 : 1;
  }
  return w;
}
