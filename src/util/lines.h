/* Line breaks as CPython's tokenizer and the LSP count them: "\n", "\r\n"
 * (one break) and a lone "\r" (old Mac files, or a stray one). */
#ifndef OOM_UTIL_LINES_H
#define OOM_UTIL_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/** Whether byte AT of TEXT ends a line: a "\n", or a "\r" not followed by
 *  "\n" (the "\r" of "\r\n" is part of the line, as tree-sitter counts it). */
static inline bool lines_breaks_at(const char *text, size_t len, size_t at) {
  return text[at] == '\n' || (text[at] == '\r' && (at + 1 >= len || text[at + 1] != '\n'));
}


/** Whether TEXT holds a lone "\r": one memchr when it holds no "\r" at all. */
bool lines_has_lone_cr(const char *text, size_t len);

/** The start of the line that holds byte AT (AT itself when AT starts one). */
size_t lines_start(const char *text, size_t len, size_t at);

/** The end of the content of the line that holds byte AT: the offset of its
 *  "\r", "\n" or "\r\n", or LEN. */
size_t lines_content_end(const char *text, size_t len, size_t at);

/** The start of the line after the one that holds byte AT, or LEN. */
size_t lines_next(const char *text, size_t len, size_t at);

#endif
