/* This file contains the line-break scans that every position computation
 * shares, so that rows agree with the parser's for "\n", "\r\n" and "\r". */
#include "util/lines.h"


bool lines_has_lone_cr(const char *text, size_t len) {
  const char *end = text + len;
  for (const char *p = text; (p = memchr(p, '\r', (size_t)(end - p))) != NULL; p++) {
    if (p + 1 == end || p[1] != '\n') return true;
  }
  return false;
}


size_t lines_start(const char *text, size_t len, size_t at) {
  size_t s = at > len ? len : at;
  while (s > 0 && !lines_breaks_at(text, len, s - 1)) s--;
  return s;
}


size_t lines_content_end(const char *text, size_t len, size_t at) {
  size_t e = at > len ? len : at;
  /* any "\r" ends the content: lone, it is the break; before "\n", it
   * starts one */
  while (e < len && text[e] != '\n' && text[e] != '\r') e++;
  return e;
}


size_t lines_next(const char *text, size_t len, size_t at) {
  size_t e = lines_content_end(text, len, at);
  if (e < len && text[e] == '\r') {
    e++;
    if (e < len && text[e] == '\n') e++;
  } else if (e < len) {
    e++;
  }
  return e;
}
