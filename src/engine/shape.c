/* This file contains a pattern's shape: its query text without predicates,
 * comments and spacing. Rules often repeat one shape with different
 * predicates (the same call, once in a training loop, once in an evaluation
 * function); the linter keeps one of them in the query and evaluates every
 * variant's predicates on its matches, because the query cursor's cost grows
 * with the patterns that start at each node, not with the predicates. */
#include <string.h>

#include "engine/engine.h"


/* The end of the string literal opening at S[I] (after its closing quote). */
static size_t string_end(const char *s, size_t i, size_t len) {
  for (i++; i < len && s[i] != '"'; i++)
    if (s[i] == '\\') i++;
  return i < len ? i + 1 : len;
}


/* The end of the bracketed group opening at S[I] (its closing bracket), or
 * LEN when it does not close; strings and `;` comments are skipped. */
static size_t group_end(const char *s, size_t i, size_t len) {
  size_t depth = 0;
  for (; i < len; i++) {
    if (s[i] == '"') {
      i = string_end(s, i, len) - 1;
    } else if (s[i] == ';') {
      while (i + 1 < len && s[i + 1] != '\n') i++;
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


/* Whether the bracket at S[I] opens a predicate group `(#...)`. */
static bool opens_predicate(const char *s, size_t i, size_t len) {
  if (s[i] != '(') return false;
  for (i++; i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'); i++) {}
  return i < len && s[i] == '#';
}


size_t shape_split(const char *text, size_t len, uint32_t *starts, size_t max) {
  size_t n = 0, depth = 0;
  for (size_t i = 0; i < len;) {
    char c = text[i];
    if (c == ';') {
      while (i < len && text[i] != '\n') i++;
      continue;
    }
    if (c == '"' || c == '(' || c == '[') {
      /* a top-level node, alternation or anonymous node begins a pattern;
       * captures and quantifiers after it are still its own */
      if (depth == 0) {
        if (n < max) starts[n] = (uint32_t)i;
        n++;
      }
      if (c == '"') {
        i = string_end(text, i, len);
        continue;
      }
      depth++;
    } else if ((c == ')' || c == ']') && depth > 0) {
      depth--;
    }
    i++;
  }
  return n;
}


bool shape_stub(const char *text, size_t len, const char *shape, size_t shape_len, buf *out) {
  size_t start = out->len;
  /* a named node, not the wildcard: tree-sitter 0.20's query cursor tries
   * the first entries of its pattern map on every node, as many as the query
   * had wildcard-rooted patterns, even after those are disabled */
  buf_append(out, "((identifier)", 13);
  shape_capture caps[64];
  size_t ncaps = shape_captures(shape, shape_len, caps, 64);
  if (ncaps > 64) goto too_long;
  for (size_t k = 0; k < ncaps; k++) {
    bool seen = false;
    for (size_t j = 0; j < k && !seen; j++) seen = caps[j].len == caps[k].len && !memcmp(caps[j].name, caps[k].name, caps[k].len);
    if (seen) continue;
    buf_append(out, " @", 2);
    buf_append(out, caps[k].name, caps[k].len);
  }
  /* the predicates, wherever they stand in the pattern, in their order */
  for (size_t i = 0; i < len;) {
    if (text[i] == ';') {
      while (i < len && text[i] != '\n') i++;
    } else if (text[i] == '"') {
      i = string_end(text, i, len);
    } else if (opens_predicate(text, i, len)) {
      size_t end = group_end(text, i, len);
      if (end >= len) goto too_long;
      buf_putc(out, ' ');
      buf_append(out, text + i, end + 1 - i);
      i = end + 1;
    } else {
      i++;
    }
  }
  buf_putc(out, ')');
  if (out->len - start > len) goto too_long;
  while (out->len - start < len) buf_putc(out, ' ');
  return true;
too_long:
  out->len = start;
  if (out->data) out->data[start] = '\0';
  return false;
}
