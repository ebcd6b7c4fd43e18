/* UTF-8 helpers: validation and column conversion. Invalid bytes count as one
 * unit each so that positions stay monotonic in damaged files. */
#ifndef OOM_UTIL_UTF8_H
#define OOM_UTIL_UTF8_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/buf.h"

/** Length of the valid UTF-8 sequence at S (1-4), or 0 when it is invalid. */
int utf8_sequence_length(const unsigned char *s, size_t available);
/** Byte offset of the first invalid sequence, or SIZE_MAX when all is valid. */
size_t utf8_first_invalid(const char *s, size_t n);

/** Append S to OUT with every invalid UTF-8 byte replaced by U+FFFD. */
void utf8_sanitize(const char *s, size_t n, buf *out);

/** Terminal columns the first UPTO bytes of S take: East Asian wide
 *  characters and emoji two, combining marks none, the rest one. */
uint32_t utf8_display_width(const char *s, size_t length, size_t upto);

#endif
