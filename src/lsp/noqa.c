/* This file contains the line scanner for `# noqa` directives, in the same
 * syntax that the engine's suppressions read (Ruff's, case-insensitive). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "lsp/noqa.h"


/* Where the comment starts; *OPEN when a string is still open at the end. */
static size_t find_comment(const char *s, size_t n, bool *open) {
  char quote = 0;
  bool triple = false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (quote) {
      if (c == '\\') {
        i++;
      } else if (c == quote) {
        if (!triple) quote = 0;
        else if (i + 2 < n && s[i + 1] == quote && s[i + 2] == quote) quote = 0, i += 2;
      }
      continue;
    }
    if (c == '#') return i;
    if (c == '"' || c == '\'') {
      quote = c;
      triple = i + 2 < n && s[i + 1] == c && s[i + 2] == c;
      if (triple) i += 2;
    }
  }
  size_t end = n;
  while (end && (s[end - 1] == ' ' || s[end - 1] == '\t')) end--;
  *open = quote != 0 || (end && s[end - 1] == '\\');
  return n;
}


static void parse_codes(const char *s, size_t n, size_t p, lsp_noqa *out) {
  out->codes_end = p;
  out->blanket = true;
  if (p >= n || s[p] != ':') return;
  size_t q = p + 1;
  for (;;) {
    while (q < n && (s[q] == ' ' || s[q] == '\t' || s[q] == ',')) q++;
    size_t c = q;
    while (q < n && isalpha((unsigned char)s[q])) q++;
    size_t digits = q;
    while (q < n && isdigit((unsigned char)s[q])) q++;
    if (digits == c || q == digits) break;
    if (out->ncodes < LSP_NOQA_MAX_CODES) {
      out->code_start[out->ncodes] = c;
      out->code_end[out->ncodes] = q;
      out->ncodes++;
    }
    out->codes_end = q;
  }
  out->blanket = out->ncodes == 0;
}


void lsp_noqa_scan(const char *s, size_t n, lsp_noqa *out) {
  memset(out, 0, sizeof *out);
  out->comment = find_comment(s, n, &out->open_string);
  for (size_t h = out->comment; h < n; h++) {
    if (s[h] != '#') continue;
    size_t p = h + 1;
    while (p < n && (s[p] == ' ' || s[p] == '\t')) p++;
    if (n - p >= 8 && !strncasecmp(s + p, "oomlint:", 8)) continue; /* the whole file's: not this line's */
    if (n - p < 4 || strncasecmp(s + p, "noqa", 4)) continue;
    p += 4;
    if (p < n && (isalnum((unsigned char)s[p]) || s[p] == '_')) continue;
    out->found = true;
    parse_codes(s, n, p, out);
    return;
  }
}
