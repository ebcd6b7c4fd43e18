/* This file contains a pattern's shape: its query text without predicates,
 * comments and spacing. Rules often repeat one shape with different
 * predicates (the same call, once in a training loop, once in an evaluation
 * function); the linter keeps one of them in the query and evaluates every
 * variant's predicates on its matches, because the query cursor's cost grows
 * with the patterns that start at each node, not with the predicates. */
#include <string.h>

#include "engine/engine.h"


/* The end of the bracketed group opening at S[I] (its closing bracket), or
 * LEN when it does not close; strings are skipped. */
static size_t group_end(const char *s, size_t i, size_t len) {
  size_t depth = 0;
  for (; i < len; i++) {
    if (s[i] == '"') {
      for (i++; i < len && s[i] != '"'; i++)
        if (s[i] == '\\') i++;
    } else if (s[i] == '(' || s[i] == '[') {
      depth++;
    } else if ((s[i] == ')' || s[i] == ']') && --depth == 0) {
      return i;
    }
  }
  return len;
}


/* `((call ...) @report)`, a group of one node pattern and its captures, is
 * the pattern `(call ...) @report`: the same steps, so the same shape. */
static void ungroup(buf *out, size_t start) {
  char *s = out->data + start;
  size_t len = out->len - start;
  if (len < 4 || s[0] != '(' || s[1] != '(' || group_end(s, 0, len) != len - 1) return;
  size_t node_end = group_end(s, 1, len - 1);
  if (node_end >= len - 1) return;
  /* after the node: captures only (no quantifier, anchor or second node) */
  for (size_t i = node_end + 1; i < len - 1;) {
    if (s[i] != ' ' || s[i + 1] != '@') return;
    for (i += 2; i < len - 1 && s[i] != ' '; i++)
      if (s[i] == '(' || s[i] == ')' || s[i] == '[' || s[i] == '"' || s[i] == '?' || s[i] == '*' || s[i] == '+')
        return;
  }
  memmove(s, s + 1, len - 2);
  out->len -= 2;
  out->data[out->len] = '\0';
}


/* Appends TEXT[0..LEN) to OUT without `;` comments, `(#...)` predicate
 * groups, and with runs of white space made one space. The text is a part of
 * a query tree-sitter has already accepted, so strings and parentheses are
 * balanced; a string literal is copied as it is. */
void shape_of(const char *text, size_t len, buf *out) {
  size_t start = out->len;
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
  if (out->len > start) ungroup(out, start);
}


/* The captures of SHAPE (a shape_of result) in order, each with the number
 * of the run of captures it belongs to (`(a) @x @y (b) @z`: x and y in run
 * 0, z in run 1); with OUT NULL, the shape without capture names, each run
 * written as one `@`. */
static size_t captures_of(const char *s, size_t len, shape_capture *out, size_t max, buf *unnamed) {
  size_t n = 0, run = 0;
  bool in_run = false;
  for (size_t i = 0; i < len;) {
    if (s[i] == '"') {
      size_t j = i + 1;
      while (j < len && s[j] != '"') j += s[j] == '\\' ? 2 : 1;
      j = j < len ? j + 1 : len;
      if (unnamed) buf_append(unnamed, s + i, j - i);
      in_run = false;
      i = j;
      continue;
    }
    if (s[i] == '@') {
      size_t j = i + 1;
      while (j < len && s[j] != ' ' && s[j] != ')' && s[j] != ']') j++;
      if (!in_run) {
        if (unnamed) buf_putc(unnamed, '@');
        run++;
      } else if (unnamed && unnamed->len && unnamed->data[unnamed->len - 1] == ' ') {
        unnamed->len--; /* the space between two captures of one run */
        unnamed->data[unnamed->len] = '\0';
      }
      if (out && n < max) out[n] = (shape_capture){run - 1, s + i + 1, (uint32_t)(j - i - 1)};
      n++;
      in_run = true;
      i = j;
      continue;
    }
    if (s[i] != ' ') in_run = false;
    if (unnamed) buf_putc(unnamed, s[i]);
    i++;
  }
  return n;
}


void shape_unnamed(const char *shape, size_t len, buf *out) {
  captures_of(shape, len, NULL, 0, out);
}


size_t shape_captures(const char *shape, size_t len, shape_capture *out, size_t max) {
  return captures_of(shape, len, out, max, NULL);
}
