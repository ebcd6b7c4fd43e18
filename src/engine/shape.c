/* This file contains a pattern's shape: its query text without predicates,
 * comments and spacing. Rules often repeat one shape with different
 * predicates (the same call, once in a training loop, once in an evaluation
 * function); the linter keeps one of them in the query and evaluates every
 * variant's predicates on its matches, because the query cursor's cost grows
 * with the patterns that start at each node, not with the predicates. */
#include <string.h>

#include "engine/engine.h"


/* Appends TEXT[0..LEN) to OUT without `;` comments, `(#...)` predicate
 * groups, and with runs of white space made one space. The text is a part of
 * a query tree-sitter has already accepted, so strings and parentheses are
 * balanced; a string literal is copied as it is. */
void shape_of(const char *text, size_t len, buf *out) {
  size_t skip_depth = 0; /* > 0 inside a predicate group */
  bool space = false;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (c == ';') {
      while (i < len && text[i] != '\n') i++;
      space = true;
      continue;
    }
    if (c == '"') {
      size_t j = i + 1;
      while (j < len && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      if (!skip_depth) {
        if (space && out->len) buf_putc(out, ' ');
        buf_append(out, text + i, (j < len ? j + 1 : len) - i);
      }
      space = false;
      i = j;
      continue;
    }
    if (c == '(' && !skip_depth) {
      size_t j = i + 1;
      while (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r')) j++;
      if (j < len && text[j] == '#') {
        skip_depth = 1;
        continue;
      }
    } else if (skip_depth) {
      if (c == '(') skip_depth++;
      else if (c == ')') skip_depth--;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    /* no space is needed after an opening or before a closing bracket */
    if (space && out->len && c != ')' && c != ']' && out->data[out->len - 1] != '(' && out->data[out->len - 1] != '[')
      buf_putc(out, ' ');
    space = false;
    buf_putc(out, c);
  }
}
