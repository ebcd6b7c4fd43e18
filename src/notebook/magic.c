/* This file contains the blanking of IPython syntax in a code cell: what a
 * kernel runs as something other than Python (`%magic`, `!shell`,
 * `x = !cmd`, `obj?`, a `%%` cell magic) is replaced by spaces, or by a
 * statement of the same length where a block would otherwise be left
 * empty, so the module parses and every position stays where it was. */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "notebook/notebook.h"


/* Cell magics whose body is Python the kernel runs: only their header line
 * is blanked. The others (%%bash, %%writefile, %%html, ...) are not Python. */
static bool python_cell_magic(const char *name, size_t n) {
  static const char *const names[] = {"time", "timeit", "capture", "prun", "debug", "python", "python3",
                                      "pypy", "autoreload", NULL};
  for (size_t i = 0; names[i]; i++)
    if (strlen(names[i]) == n && !memcmp(names[i], name, n)) return true;
  return false;
}


static bool name_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '.';
}


/* Whether the line [S, E) (no line break) is IPython syntax. */
static bool magic_line(const char *s, const char *e) {
  while (s < e && (*s == ' ' || *s == '\t')) s++;
  if (s == e) return false;
  if (*s == '%' || *s == '!' || *s == '?') return true;
  /* `obj?`, `obj??`: help */
  const char *t = e;
  while (t > s && (t[-1] == ' ' || t[-1] == '\t')) t--;
  if (t > s && t[-1] == '?') {
    const char *q = t - 1;
    while (q > s && q[-1] == '?') q--;
    bool all = q > s;
    for (const char *p = s; p < q && all; p++) all = name_char(*p);
    if (all) return true;
  }
  /* `files = !ls`, `x = %env`: a magic assigned */
  const char *p = s;
  while (p < e && (name_char(*p) || *p == ' ' || *p == '\t' || *p == ',')) p++;
  if (p > s && p < e && *p == '=' && (p + 1 == e || p[1] != '=')) {
    p++;
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    if (p < e && (*p == '!' || *p == '%')) return true;
  }
  return false;
}


static bool is_separator_line(const char *s, const char *e) {
  while (e > s && (e[-1] == ' ' || e[-1] == '\t')) e--;
  size_t n = strlen(NOTEBOOK_SEPARATOR);
  return (size_t)(e - s) == n && !memcmp(s, NOTEBOOK_SEPARATOR, n);
}


static size_t indent_of(const char *s, const char *e) {
  size_t n = 0;
  while (s + n < e && (s[n] == ' ' || s[n] == '\t')) n++;
  return n;
}


/* Blank [S, E): an indented line under a block header (or inside a block)
 * becomes `pass` (or `...`, `0` when shorter), so the block is not left
 * empty; any other line spaces. */
static void blank(char *s, char *e, bool statement) {
  size_t ind = indent_of(s, e);
  for (char *p = s + ind; p < e; p++) *p = ' ';
  if (!statement) return;
  size_t room = (size_t)(e - s) - ind;
  const char *fill = room >= 4 ? "pass" : room == 3 ? "..." : "0";
  memcpy(s + ind, fill, strlen(fill) < room ? strlen(fill) : room);
}


/* Where Python's logical line stands at the end of a line: inside
 * brackets, a triple-quoted string or after a `\`, the next line continues
 * it, and a `%` starting it is the modulo operator, not a magic. */
typedef struct {
  size_t depth;   /* open brackets */
  char triple;    /* the quote of an open triple-quoted string, or 0 */
  bool backslash; /* the line ended with `\` */
} py_state;


static void scan_python(const char *s, const char *e, py_state *st) {
  st->backslash = false;
  const char *p = s;
  while (p < e) {
    if (st->triple) {
      if (*p == '\\') {
        p += 2;
        continue;
      }
      if (*p == st->triple && e - p >= 3 && p[1] == st->triple && p[2] == st->triple) {
        st->triple = 0;
        p += 3;
        continue;
      }
      p++;
      continue;
    }
    char c = *p;
    if (c == '#') return; /* a comment: the rest of the line */
    if (c == '"' || c == '\'') {
      if (e - p >= 3 && p[1] == c && p[2] == c) {
        st->triple = c;
        p += 3;
        continue;
      }
      /* a one-line string: to its closing quote or the line's end */
      for (p++; p < e && *p != c; p++)
        if (*p == '\\') p++;
      if (p < e) p++;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') st->depth++;
    else if ((c == ')' || c == ']' || c == '}') && st->depth) st->depth--;
    else if (c == '\\' && p + 1 == e) st->backslash = true;
    p++;
  }
}


bool notebook_blank_magics(char *source, size_t len) {
  py_state py = {0, 0, false};
  bool any = false, cell_magic = false, continued = false;
  char *end = source + len;
  /* the last line of Python before this one: its indent and whether it opens a block */
  size_t prev_indent = 0;
  bool prev_opens = false, first = true;
  for (char *s = source; s < end;) {
    char *e = s;
    while (e < end && *e != '\n' && *e != '\r') e++;
    char *next = e == end ? e : e + 1 + (*e == '\r' && e + 1 < end && e[1] == '\n');
    size_t ind = indent_of(s, e);
    bool blank_line = s + ind == e;
    if (is_separator_line(s + ind, e)) {
      /* a cell's own copy of the separator would cut the module there */
      blank(s, e, false);
      any = true;
      s = next;
      continue;
    }
    if (first && !blank_line && e - (s + ind) >= 2 && s[ind] == '%' && s[ind + 1] == '%') {
      const char *n = s + ind + 2, *ne = n;
      while (ne < e && (isalnum((unsigned char)*ne) || *ne == '_')) ne++;
      cell_magic = !python_cell_magic(n, (size_t)(ne - n));
      blank(s, e, false);
      any = true;
      first = false;
      s = next;
      continue;
    }
    if (!blank_line) first = false;
    if (cell_magic) {
      blank(s, e, false);
      any |= !blank_line;
    } else if (continued || (!blank_line && !py.depth && !py.triple && !py.backslash && magic_line(s, e))) {
      /* a magic's `\` continues it on the next line */
      bool first_line = !continued;
      continued = e > s && e[-1] == '\\';
      blank(s, e, first_line && !continued && ind > 0 && (prev_opens || ind <= prev_indent));
      any = true;
    } else if (!blank_line && (s[ind] != '#' || py.triple)) {
      bool starts_line = !py.depth && !py.triple && !py.backslash;
      scan_python(s, e, &py);
      if (!starts_line) {
        s = next;
        continue;
      }
      prev_indent = ind;
      const char *t = e;
      while (t > s && (t[-1] == ' ' || t[-1] == '\t')) t--;
      prev_opens = t > s && t[-1] == ':';
    }
    s = next;
  }
  return any;
}
