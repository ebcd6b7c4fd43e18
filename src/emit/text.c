/* This file contains the text emitters: `full` (the diagnostic, its source
 * line with a caret underline and the fix) and `concise` (one line each), and
 * the dispatch to the other formats. */
#include <stdlib.h>
#include <string.h>

#include "emit/ci.h"
#include "emit/emit.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/lines.h"
#include "util/utf8.h"

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_YELLOW "\033[1;33m"
#define C_CYAN "\033[1;36m"
#define C_BLUE "\033[1;34m"
#define C_DIM "\033[2m"

struct emitter {
  FILE *out;
  emit_format format;
  bool color;
  oom_applicability fix_level; /* fixes at this level get `[*]` */
  void *json; /* json.c's state */
  ci_state *ci; /* ci.c's state */
  const oom_linter *linter;
};

void *emit__json_begin(FILE *out, emit_format format);
void emit__json_document(void *state, const oom_document *doc);
void emit__json_end(void *state);
void emit__github_document(FILE *out, const oom_document *doc);


bool emit_format_parse(const char *name, emit_format *out) {
  static const struct {
    const char *name;
    emit_format format;
  } formats[] = {{"full", EMIT_FULL}, {"concise", EMIT_CONCISE}, {"json", EMIT_JSON},
                 {"json-lines", EMIT_JSON_LINES}, {"github", EMIT_GITHUB},
                 {"sarif", EMIT_SARIF}, {"gitlab", EMIT_GITLAB}, {"junit", EMIT_JUNIT}};
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
    if (!strcmp(name, formats[i].name)) {
      *out = formats[i].format;
      return true;
    }
  return false;
}


emitter *emit_begin(FILE *out, emit_format format, bool color) {
  emitter *self = oom_xcalloc(1, sizeof *self);
  self->out = out;
  self->format = format;
  self->color = color;
  self->fix_level = OOM_FIX_SAFE;
  if (format == EMIT_JSON || format == EMIT_JSON_LINES) self->json = emit__json_begin(out, format);
  if (format == EMIT_SARIF || format == EMIT_GITLAB || format == EMIT_JUNIT) self->ci = emit__ci_begin(out, format);
  return self;
}


void emit_set_linter(emitter *self, const oom_linter *linter) {
  self->linter = linter;
}


static const char *paint(const emitter *e, const char *code) {
  return e->color ? code : "";
}


void emit_set_fix_level(emitter *self, oom_applicability level) {
  self->fix_level = level;
}


/* Ruff's `[*]`: the diagnostic goes away with --fix at the current level. */
static const char *fixable_mark(const emitter *e, const oom_diagnostic *d) {
  const oom_fix *f = oom_diagnostic_fix(d);
  if (!f || !oom_fix_edit_count(f) || oom_fix_applicability(f) == OOM_FIX_DISPLAY) return "";
  return oom_fix_applicability(f) >= e->fix_level ? " [*]" : "";
}


static const char *severity_color(oom_severity s) {
  return s == OOM_SEVERITY_ERROR ? C_RED : s == OOM_SEVERITY_WARNING ? C_YELLOW : C_CYAN;
}


/* The line holding byte POS: its start and length (without the line break,
 * "\n", "\r\n" or a lone "\r"). */
static const char *line_at(const char *text, size_t len, uint32_t pos, size_t *line_len) {
  size_t s = lines_start(text, len, pos);
  *line_len = lines_content_end(text, len, s) - s;
  return text + s;
}


/* Print LINE with control characters (and NUL) made visible, one column each. */
static void put_line(FILE *out, const char *line, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)line[i];
    if (c == '\t' || c >= 0x20) fputc(c, out);
    else fputc('?', out);
  }
}


/* A notebook's place: "cell 3:" before the row, and the row in the cell. */
static uint32_t shown_row(const oom_document *doc, uint32_t row, char *cell, size_t cell_len) {
  uint32_t in_cell;
  uint32_t n = oom_document_cell(doc, row, &in_cell);
  if (n) snprintf(cell, cell_len, "cell %u:", n);
  else cell[0] = '\0';
  return in_cell;
}


static void emit_full(emitter *e, const oom_document *doc, const oom_diagnostic *d) {
  FILE *out = e->out;
  size_t tlen;
  const char *text = oom_document_text(doc, &tlen);
  oom_position s = oom_diagnostic_start(d), en = oom_diagnostic_end(d);
  size_t llen;
  const char *line = line_at(text, tlen, s.byte, &llen);
  uint32_t col = oom_column_convert(line, llen, s.column, OOM_UNITS_CODEPOINTS);
  const oom_fix *fix = oom_diagnostic_fix(d);
  char cell[32];
  uint32_t row = shown_row(doc, s.row, cell, sizeof cell);
  fprintf(out, "%s%s%s:%s%u:%u: %s%s%s%s %s\n", paint(e, C_BOLD), oom_document_path(doc), paint(e, C_RESET), cell,
          row + 1, col + 1, paint(e, severity_color(oom_diagnostic_severity(d))), oom_diagnostic_code(d), paint(e, C_RESET),
          fixable_mark(e, d), oom_diagnostic_message(d));
  char rowbuf[16];
  int w = snprintf(rowbuf, sizeof rowbuf, "%u", row + 1);
  fprintf(out, "%s%*s |%s\n", paint(e, C_BLUE), w, "", paint(e, C_RESET));
  fprintf(out, "%s%s |%s ", paint(e, C_BLUE), rowbuf, paint(e, C_RESET));
  put_line(out, line, llen);
  fputc('\n', out);
  fprintf(out, "%s%*s |%s ", paint(e, C_BLUE), w, "", paint(e, C_RESET));
  /* the underline keeps the line's tabs and the width of wide characters, so
   * it stays under what it marks */
  for (uint32_t i = 0; i < s.column && i < llen;) {
    if (line[i] == '\t') {
      fputc('\t', out);
      i++;
      continue;
    }
    /* one character at a time: its display width in spaces */
    uint32_t next = i + 1;
    while (next < llen && next < s.column && ((unsigned char)line[next] & 0xC0) == 0x80) next++;
    uint32_t cw = utf8_display_width(line + i, next - i, next - i);
    for (uint32_t k = 0; k < cw; k++) fputc(' ', out);
    i = next;
  }
  uint32_t end_col = en.row == s.row ? en.column : (uint32_t)llen;
  uint32_t width = utf8_display_width(line, llen, end_col) - utf8_display_width(line, llen, s.column);
  if (width == 0) width = 1;
  fputs(paint(e, severity_color(oom_diagnostic_severity(d))), out);
  for (uint32_t i = 0; i < width; i++) fputc('^', out);
  fprintf(out, " %s%s\n", oom_diagnostic_code(d), paint(e, C_RESET));
  fprintf(out, "%s%*s |%s\n", paint(e, C_BLUE), w, "", paint(e, C_RESET));
  if (fix && oom_fix_title(fix) && *oom_fix_title(fix)) {
    const char *kind = oom_fix_applicability(fix) == OOM_FIX_SAFE     ? ""
                       : oom_fix_applicability(fix) == OOM_FIX_UNSAFE ? " (unsafe fix)"
                                                                      : " (suggestion)";
    fprintf(out, "%s%*s = %shelp:%s %s%s\n", paint(e, C_BLUE), w, "", paint(e, C_BOLD), paint(e, C_RESET),
            oom_fix_title(fix), kind);
  }
  fputc('\n', out);
}


static void emit_concise(emitter *e, const oom_document *doc, const oom_diagnostic *d) {
  size_t tlen;
  const char *text = oom_document_text(doc, &tlen);
  oom_position s = oom_diagnostic_start(d);
  size_t llen;
  const char *line = line_at(text, tlen, s.byte, &llen);
  uint32_t col = oom_column_convert(line, llen, s.column, OOM_UNITS_CODEPOINTS);
  char cell[32];
  uint32_t row = shown_row(doc, s.row, cell, sizeof cell);
  fprintf(e->out, "%s%s%s:%s%u:%u: %s%s%s%s %s\n", paint(e, C_BOLD), oom_document_path(doc), paint(e, C_RESET),
          cell, row + 1, col + 1, paint(e, severity_color(oom_diagnostic_severity(d))), oom_diagnostic_code(d),
          paint(e, C_RESET), fixable_mark(e, d), oom_diagnostic_message(d));
}


void emit_document(emitter *self, const oom_document *doc) {
  switch (self->format) {
  case EMIT_JSON:
  case EMIT_JSON_LINES: emit__json_document(self->json, doc); return;
  case EMIT_GITHUB: emit__github_document(self->out, doc); return;
  case EMIT_SARIF:
  case EMIT_GITLAB:
  case EMIT_JUNIT: emit__ci_document(self->ci, doc); return;
  default: break;
  }
  size_t n = oom_document_diagnostic_count(doc);
  for (size_t i = 0; i < n; i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    if (self->format == EMIT_FULL) emit_full(self, doc, d);
    else emit_concise(self, doc, d);
  }
}


void emit_end(emitter *self) {
  if (self->json) emit__json_end(self->json);
  if (self->ci) emit__ci_end(self->ci, self->linter);
  fflush(self->out);
  free(self);
}
