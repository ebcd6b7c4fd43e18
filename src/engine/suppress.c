/* This file contains suppression comments, in Ruff's syntax: `# noqa`,
 * `# noqa: OOM101, OOM102` on the reported line, and `# oomlint: noqa[: CODES]`
 * for the whole file. A code named but not reported there is itself reported
 * (OOM001), so stale suppressions do not pile up. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/alloc.h"
#include "util/lines.h"

#define MAX_CODES 32

typedef struct {
  uint32_t start, end; /* the code's bytes */
  bool used;
} noqa_code;

typedef struct {
  uint32_t row;
  bool file_level, blanket;
  uint32_t hash, codes_end; /* the directive: from `#` to the last code */
  uint32_t comment_start, comment_end;
  noqa_code codes[MAX_CODES];
  int ncodes;
} directive;


static bool starts_ci(const char *s, const char *end, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(end - s) < n) return false;
  for (size_t i = 0; i < n; i++)
    if (tolower((unsigned char)s[i]) != word[i]) return false;
  return true;
}


/* Parse the directive starting at the `#` at H, if there is one. */
static bool parse_directive(const char *src, const char *h, const char *end, directive *d) {
  const char *p = h + 1;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  d->file_level = false;
  if (starts_ci(p, end, "oomlint:")) {
    d->file_level = true;
    p += 8;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
  }
  if (!starts_ci(p, end, "noqa")) return false;
  p += 4;
  if (p < end && (isalnum((unsigned char)*p) || *p == '_')) return false;
  d->hash = (uint32_t)(h - src);
  d->codes_end = (uint32_t)(p - src);
  d->ncodes = 0;
  d->blanket = true;
  if (p < end && *p == ':') {
    const char *q = p + 1;
    for (;;) {
      while (q < end && (*q == ' ' || *q == '\t' || *q == ',')) q++;
      const char *c = q;
      while (q < end && isalpha((unsigned char)*q)) q++;
      const char *digits = q;
      while (q < end && isdigit((unsigned char)*q)) q++;
      if (digits == c || q == digits) break; /* not LETTERS+DIGITS: the codes end */
      if (d->ncodes < MAX_CODES) {
        d->codes[d->ncodes].start = (uint32_t)(c - src);
        d->codes[d->ncodes].end = (uint32_t)(q - src);
        d->codes[d->ncodes].used = false;
        d->ncodes++;
      }
      d->codes_end = (uint32_t)(q - src);
    }
    /* `# noqa:` with nothing valid after it is Ruff's blanket noqa too */
    d->blanket = d->ncodes == 0;
  }
  return true;
}


static bool code_is(const char *src, const noqa_code *c, const char *code) {
  size_t n = c->end - c->start;
  if (strlen(code) != n) return false;
  for (size_t i = 0; i < n; i++)
    if (toupper((unsigned char)src[c->start + i]) != code[i]) return false;
  return true;
}


/* true when D suppresses CODE; marks the code used */
static bool suppresses(const char *src, directive *d, const char *code) {
  if (d->blanket) return true;
  for (int i = 0; i < d->ncodes; i++)
    if (code_is(src, &d->codes[i], code)) {
      d->codes[i].used = true;
      return true;
    }
  return false;
}


static void report_unused(const oom_linter *linter, oom_document *doc, const directive *d) {
  const oom_rule *rule = linter->unused_noqa_rule;
  const char *src = doc->text;
  buf unused = {0}, unknown = {0}, kept = {0};
  int nunused = 0;
  for (int i = 0; i < d->ncodes; i++) {
    const noqa_code *c = &d->codes[i];
    char code[16];
    size_t n = c->end - c->start;
    if (n >= sizeof code) n = sizeof code - 1;
    for (size_t k = 0; k < n; k++) code[k] = (char)toupper((unsigned char)src[c->start + k]);
    code[n] = '\0';
    bool ours = !strncmp(code, "OOM", 3);
    const oom_rule *r = ours ? oom_linter_find_rule(linter, code) : NULL;
    bool stale = false;
    if (ours && !r) {
      buf_printf(&unknown, "%s`%s`", unknown.len ? ", " : "", code);
      stale = true;
    } else if (r && !c->used && oom_linter_rule_enabled(linter, r) && r != rule) {
      buf_printf(&unused, "%s`%s`", unused.len ? ", " : "", code);
      stale = true;
    }
    if (stale) nunused++;
    else buf_printf(&kept, "%s%.*s", kept.len ? ", " : "", (int)(c->end - c->start), src + c->start);
  }
  if (nunused == 0) {
    buf_free(&unused);
    buf_free(&unknown);
    buf_free(&kept);
    return;
  }
  buf msg = {0};
  buf_puts(&msg, "Unused `noqa` directive (");
  if (unused.len) buf_printf(&msg, "unused: %s", buf_str(&unused));
  if (unknown.len) buf_printf(&msg, "%sunknown: %s", unused.len ? "; " : "", buf_str(&unknown));
  buf_putc(&msg, ')');
  oom_diagnostic *diag = diagnostic_new(doc, rule, arena_strndup(&doc->arena, msg.data, msg.len), d->hash, d->codes_end);
  oom_fix *fix = arena_calloc(&doc->arena, sizeof *fix);
  fix->applicability = rule->fix >= 0 ? (oom_applicability)rule->fix : OOM_FIX_SAFE;
  fix->title = rule->fix_title ? rule->fix_title : "Remove unused `noqa` directive";
  oom_edit *e = arena_alloc(&doc->arena, sizeof *e);
  if (kept.len) {
    /* keep the codes still in use */
    e->start_byte = d->codes[0].start;
    e->end_byte = d->codes_end;
    e->content = arena_strndup(&doc->arena, kept.data, kept.len);
  } else {
    /* the whole directive; with the spaces before it when nothing follows */
    uint32_t s = d->hash, en = d->codes_end;
    uint32_t after = en;
    while (after < d->comment_end && (src[after] == ' ' || src[after] == '\t')) after++;
    if (after == d->comment_end && d->hash == d->comment_start) {
      while (s > 0 && (src[s - 1] == ' ' || src[s - 1] == '\t')) s--;
      /* keep the indentation of a comment alone on its line */
      if (s == 0 || lines_breaks_at(src, doc->length, s - 1)) s = d->hash;
      en = d->comment_end;
    } else if (after == d->comment_end) {
      while (s > d->comment_start && (src[s - 1] == ' ' || src[s - 1] == '\t')) s--;
      en = d->comment_end;
    } else {
      /* `# noqa: OOM501 reason` -> `# reason` */
      s = d->hash + 1;
      while (s < en && (src[s] == ' ' || src[s] == '\t')) s++;
      en = after;
    }
    e->start_byte = s;
    e->end_byte = en;
    e->content = "";
  }
  fix->edits = e;
  fix->nedits = 1;
  diag->fix = fix;
  buf_free(&msg);
  buf_free(&unused);
  buf_free(&unknown);
  buf_free(&kept);
}


bool suppress_apply(const oom_linter *linter, oom_document *doc, const facts *model) {
  if (!model->comments.len) return false;
  VEC(directive) dirs = {0};
  const char *src = doc->text;
  for (size_t i = 0; i < model->comments.len; i++) {
    facts_span cs = model->comments.items[i];
    const char *end = src + cs.end;
    for (const char *h = src + cs.start; h < end; h++) {
      if (*h != '#') continue;
      directive d;
      memset(&d, 0, sizeof d);
      if (!parse_directive(src, h, end, &d)) continue;
      d.row = document_position(doc, cs.start).row;
      d.comment_start = cs.start;
      d.comment_end = cs.end;
      vec_push(&dirs, d);
      break; /* one directive per comment */
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < doc->diagnostics.len; i++) {
    oom_diagnostic *diag = doc->diagnostics.items[i];
    bool suppressed = false;
    for (size_t k = 0; k < dirs.len; k++) {
      directive *d = &dirs.items[k];
      if (d->file_level || (d->row == diag->start.row && diag->rule != linter->syntax_rule))
        if (suppresses(src, d, diag->rule->code)) suppressed = true;
    }
    if (!suppressed) doc->diagnostics.items[kept++] = diag;
  }
  doc->diagnostics.len = kept;
  if (linter->unused_noqa_rule && oom_linter_rule_enabled(linter, linter->unused_noqa_rule)) {
    bool silenced = false; /* `# oomlint: noqa` silences OOM001 too */
    for (size_t k = 0; k < dirs.len; k++)
      if (dirs.items[k].file_level && (dirs.items[k].blanket || suppresses(src, &dirs.items[k], "OOM001")))
        silenced = true;
    for (size_t k = 0; k < dirs.len && !silenced; k++) {
      directive *d = &dirs.items[k];
      if (d->blanket) continue;
      /* `# noqa: OOM501, OOM001` keeps a deliberate directive quiet */
      bool self_silenced = false;
      for (size_t j = 0; j < dirs.len; j++)
        if (dirs.items[j].row == d->row && !dirs.items[j].file_level && !dirs.items[j].blanket &&
            suppresses(src, &dirs.items[j], "OOM001"))
          self_silenced = true;
      if (!self_silenced) report_unused(linter, doc, d);
    }
  }
  bool file_level = false;
  for (size_t k = 0; k < dirs.len; k++) file_level |= dirs.items[k].file_level;
  vec_free(&dirs);
  return file_level;
}
