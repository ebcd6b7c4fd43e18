/* An open document's text as the server's main thread keeps it: bytes, a
 * line index kept up to date on every edit, and LSP position conversion. */
#ifndef OOM_LSP_TEXT_H
#define OOM_LSP_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oomlint/diagnostic.h"
#include "util/vec.h"

typedef struct {
  char *data; /* NUL-terminated; may hold NUL bytes */
  size_t len, cap;
  VEC(uint32_t) lines; /* byte offset of each line's start; lines.items[0] == 0 */
} lsp_text;

void lsp_text_init(lsp_text *self, const char *text, size_t length);
void lsp_text_free(lsp_text *self);
/** Replace bytes [START, END) with TEXT; the caller has checked the range. */
void lsp_text_replace(lsp_text *self, size_t start, size_t end, const char *text, size_t length);

size_t lsp_text_line_count(const lsp_text *self);
/** Line LINE's bytes without its "\n", "\r\n" or lone "\r" (the three line
 *  ends of the LSP and of CPython); NULL past the last line. */
const char *lsp_text_line(const lsp_text *self, uint32_t line, size_t *length);
/** The byte offset of an LSP position whose CHARACTER counts UNITS. Lines
 *  past the end give the end; characters past a line's end give its end
 *  (the LSP rule); a character inside a UTF-16 surrogate pair gives the
 *  start of that code point. */
size_t lsp_text_offset(const lsp_text *self, uint32_t line, uint32_t character, oom_units units);
/** The LSP position of byte offset BYTE. */
void lsp_text_position(const lsp_text *self, size_t byte, oom_units units, uint32_t *line, uint32_t *character);

/** The byte offset of the CHARACTER-th unit of one line of LENGTH bytes
 *  (the inverse of oom_column_convert); at most LENGTH. */
size_t lsp_units_to_byte(const char *line, size_t length, uint32_t character, oom_units units);

/** {"line": L, "character": C} and {"start": ..., "end": ...} */
json_t *lsp_position_json(uint32_t line, uint32_t character);
json_t *lsp_range_json(uint32_t l0, uint32_t c0, uint32_t l1, uint32_t c1);
/** Read a Position; false when it is not one. */
int lsp_position_parse(const json_t *position, uint32_t *line, uint32_t *character);
/** The byte range [*START, *END) of SELF that the LSP RANGE names (start
 *  and end swapped when reversed); false when RANGE is malformed. */
bool lsp_range_bytes(const lsp_text *self, const json_t *range, oom_units units, size_t *start, size_t *end);

#endif
