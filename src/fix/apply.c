/* This file contains one fix pass: choosing the fixes that can be applied
 * together, and writing the text with their edits in one sweep. */
#include <stdlib.h>
#include <string.h>

#include "fix/fix.h"
#include "util/alloc.h"
#include "util/lines.h"


bool fix_applicable(const oom_diagnostic *d, oom_applicability level) {
  const oom_fix *f = oom_diagnostic_fix(d);
  if (!f || oom_fix_edit_count(f) == 0) return false;
  oom_applicability a = oom_fix_applicability(f);
  return a != OOM_FIX_DISPLAY && a >= level;
}


const char *fix_text_line_ending(const char *text, size_t len) {
  const char *nl = memchr(text, '\n', len);
  if (nl) return nl > text && nl[-1] == '\r' ? "\r\n" : "\n";
  return memchr(text, '\r', len) ? "\r" : "\n";
}


/* Bytes no fix may touch: a UTF-8 byte order mark, and the encoding
 * declaration (PEP 263: a `coding[:=]` comment on line 1 or 2), because
 * Python reads them before it reads any code. */
typedef struct {
  uint32_t bom_end;
  bool has_coding;
  uint32_t coding_start, coding_end; /* from the line's start to the end of the encoding name */
} protected_bytes;


static bool name_char(char c) {
  return c == '-' || c == '_' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}


/* The length of the declaration at the start of line S (up to the end of the
 * encoding's name), or 0 when the line declares none. */
static size_t coding_length(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f')) i++;
  if (i >= n || s[i] != '#') return 0;
  for (; i + 7 < n; i++) {
    if (memcmp(s + i, "coding", 6) != 0 || (s[i + 6] != ':' && s[i + 6] != '=')) continue;
    size_t k = i + 7;
    while (k < n && (s[k] == ' ' || s[k] == '\t')) k++;
    size_t name = k;
    while (k < n && name_char(s[k])) k++;
    if (k > name) return k;
  }
  return 0;
}


static protected_bytes find_protected(const char *text, size_t len) {
  protected_bytes p = {0, false, 0, 0};
  if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) p.bom_end = 3;
  size_t start = p.bom_end;
  for (int line = 0; line < 2 && start < len; line++) {
    size_t content_end = lines_content_end(text, len, start);
    size_t coding = coding_length(text + start, content_end - start);
    if (coding) {
      p.has_coding = true;
      p.coding_start = (uint32_t)start;
      p.coding_end = (uint32_t)(start + coding);
      break;
    }
    if (content_end == len) break;
    start = lines_next(text, len, content_end);
  }
  return p;
}


static bool touches_protected(const oom_edit *e, const protected_bytes *p) {
  if (e->start_byte < p->bom_end) return true;
  if (!p->has_coding) return false;
  if (e->start_byte == e->end_byte) return e->start_byte >= p->coding_start && e->start_byte <= p->coding_end;
  return e->start_byte < p->coding_end && e->end_byte > p->coding_start;
}


static bool same_edits(const fix_choice *a, const fix_choice *b) {
  if (a->nedits != b->nedits) return false;
  for (size_t i = 0; i < a->nedits; i++) {
    const oom_edit *x = &a->edits[i], *y = &b->edits[i];
    if (x->start_byte != y->start_byte || x->end_byte != y->end_byte || strcmp(x->content, y->content) != 0)
      return false;
  }
  return true;
}


typedef struct {
  fix_choice c;
  size_t order; /* the diagnostic's index: ties keep the document's order */
} candidate;


static int candidate_cmp(const void *x, const void *y) {
  const candidate *a = x, *b = y;
  uint32_t as = a->c.edits[0].start_byte, bs = b->c.edits[0].start_byte;
  if (as != bs) return as < bs ? -1 : 1;
  uint32_t ae = a->c.edits[a->c.nedits - 1].end_byte, be = b->c.edits[b->c.nedits - 1].end_byte;
  if (ae != be) return ae < be ? -1 : 1;
  return (a->order > b->order) - (a->order < b->order);
}


static bool is_blocked(const oom_diagnostic *d, uint32_t start, const fix_blocks *blocked) {
  if (!blocked) return false;
  for (size_t i = 0; i < blocked->len; i++)
    if (blocked->items[i].rule == oom_diagnostic_rule(d) && blocked->items[i].start == start) return true;
  return false;
}


void fix_choose(const oom_document *doc, oom_applicability level, const fix_blocks *blocked, fix_choices *out) {
  out->len = 0;
  size_t len;
  const char *text = oom_document_text(doc, &len);
  protected_bytes prot = find_protected(text, len);
  VEC(candidate) cands = {0};
  size_t n = oom_document_diagnostic_count(doc);
  for (size_t i = 0; i < n; i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    if (!fix_applicable(d, level)) continue;
    const oom_fix *f = oom_diagnostic_fix(d);
    size_t ne = oom_fix_edit_count(f);
    const oom_edit *edits = oom_fix_edit(f, 0);
    bool ok = true;
    for (size_t k = 0; k < ne && ok; k++) {
      const oom_edit *e = &edits[k];
      /* the API promises sorted, disjoint, in-bounds edits; a rule file from
       * --rules-dir is still only data, so check rather than trust */
      if (e->start_byte > e->end_byte || e->end_byte > len || !e->content) ok = false;
      else if (k && e->start_byte < edits[k - 1].end_byte) ok = false;
      else if (touches_protected(e, &prot)) ok = false;
    }
    if (!ok || is_blocked(d, edits[0].start_byte, blocked)) continue;
    candidate c = {{d, edits, ne, SIZE_MAX}, i};
    vec_push(&cands, c);
  }
  if (cands.len > 1) qsort(cands.items, cands.len, sizeof *cands.items, candidate_cmp);
  bool have_last = false;
  uint32_t last_end = 0;
  for (size_t i = 0; i < cands.len; i++) {
    fix_choice c = cands.items[i].c;
    /* a fix identical to one already chosen (two rules, or two matches,
     * asking for the same change) is applied once and counted for both */
    for (size_t k = out->len; k > 0; k--) {
      const fix_choice *prev = &out->items[k - 1];
      if (prev->edits[0].start_byte != c.edits[0].start_byte) break;
      if (prev->same_as == SIZE_MAX && same_edits(prev, &c)) {
        c.same_as = k - 1;
        break;
      }
    }
    if (c.same_as != SIZE_MAX) {
      vec_push(out, c);
      continue;
    }
    /* Ruff's rule: a fix that starts at or before the end of the last one
     * waits for the next pass, so insertions at one point keep an order and
     * no two fixes rewrite the same bytes */
    if (have_last && c.edits[0].start_byte <= last_end) continue;
    vec_push(out, c);
    last_end = c.edits[c.nedits - 1].end_byte;
    have_last = true;
  }
  vec_free(&cands);
}


static void put_content(buf *b, const char *s, const char *eol) {
  if (!strcmp(eol, "\n")) {
    buf_puts(b, s);
    return;
  }
  for (size_t i = 0; s[i]; i++) {
    if (s[i] == '\n' && (i == 0 || s[i - 1] != '\r')) buf_puts(b, eol);
    else buf_putc(b, s[i]);
  }
}


char *fix_render(const char *text, size_t len, const fix_choices *choices, const bool *keep, const char *eol,
                 size_t *new_len) {
  buf b = {0};
  buf_append(&b, "", 0); /* an empty result is still a string */
  size_t at = 0;
  for (size_t i = 0; i < choices->len; i++) {
    const fix_choice *c = &choices->items[i];
    if (c->same_as != SIZE_MAX || (keep && !keep[i])) continue;
    for (size_t k = 0; k < c->nedits; k++) {
      const oom_edit *e = &c->edits[k];
      buf_append(&b, text + at, e->start_byte - at);
      put_content(&b, e->content, eol);
      at = e->end_byte;
    }
  }
  buf_append(&b, text + at, len - at);
  *new_len = b.len;
  return b.data;
}


char *fix_apply(const char *text, size_t len, const oom_document *doc, oom_applicability level, size_t *new_len) {
  fix_choices choices = {0};
  fix_choose(doc, level, NULL, &choices);
  char *out = NULL;
  if (choices.len) out = fix_render(text, len, &choices, NULL, fix_text_line_ending(text, len), new_len);
  vec_free(&choices);
  return out;
}
