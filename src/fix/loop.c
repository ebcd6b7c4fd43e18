/* This file contains the fix loop: apply a pass, re-lint, repeat until
 * nothing changes (bounded), keeping out any fix that adds a syntax error. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "fix/fix.h"
#include "parse/parse.h"
#include "util/alloc.h"
#include "util/lines.h"


/* The document's tree was built by its last lint; no tree (a file too large
 * to parse) has nothing to compare, and no diagnostics to fix either. */
static size_t document_errors(const oom_document *doc) {
  return doc->tree ? fix_count_errors(ts_tree_root_node(doc->tree)) : 0;
}


static size_t text_errors(oom_worker *w, const char *text, size_t len) {
  TSTree *t = parse_source(w->parser, text, len, NULL);
  if (!t) return SIZE_MAX; /* the parser gave up: count it as worse */
  size_t n = fix_count_errors(ts_tree_root_node(t));
  ts_tree_delete(t);
  return n;
}


static size_t render_errors(oom_worker *w, const char *text, size_t len, const fix_choices *ch, const bool *keep,
                            const char *eol) {
  size_t n;
  char *t = fix_render(text, len, ch, keep, eol, &n);
  size_t errors = text_errors(w, t, n);
  free(t);
  return errors;
}


static void record_drop(fix_result *out, fix_blocks *blocked, const oom_document *doc, const fix_choice *c) {
  const oom_rule *rule = oom_diagnostic_rule(c->diag);
  fix_block b = {rule, c->edits[0].start_byte};
  vec_push(blocked, b);
  size_t len;
  const char *text = oom_document_text(doc, &len);
  oom_position p = oom_diagnostic_start(c->diag);
  const char *line = text + (p.byte - p.column);
  size_t llen = lines_content_end(text, len, p.byte - p.column) - (p.byte - p.column);
  fix_drop d = {rule, p.row + 1, oom_column_convert(line, llen, p.column, OOM_UNITS_CODEPOINTS) + 1};
  vec_push(&out->dropped, d);
}


typedef struct {
  size_t lo, hi;
} run; /* fixes [lo, hi) of a pass, tried together */


/* The pass as a whole would parse worse than its input: keep the fixes in
 * order, as long as the text stays no worse, trying them a run at a time and
 * halving a run that fails (a few parses for a few bad fixes among many). A
 * fix that is harmful on its own is dropped for good; one that only clashes
 * with an earlier fix (two removals emptying one block) waits for the next
 * pass. Returns how many are kept. */
static size_t keep_harmless(oom_worker *w, const oom_document *doc, const fix_choices *ch, bool *keep, const char *eol,
                            size_t errors, fix_blocks *blocked, fix_result *out) {
  size_t len;
  const char *text = oom_document_text(doc, &len);
  bool *alone = oom_xcalloc(ch->len ? ch->len : 1, sizeof *alone);
  memset(keep, 0, ch->len * sizeof *keep);
  size_t kept = 0;
  VEC(run) todo = {0};
  run all = {0, ch->len};
  vec_push(&todo, all);
  while (todo.len) {
    run r = todo.items[--todo.len];
    size_t own = 0;
    for (size_t i = r.lo; i < r.hi; i++)
      if (ch->items[i].same_as == SIZE_MAX) keep[i] = true, own++;
    if (!own) continue;
    if (render_errors(w, text, len, ch, keep, eol) <= errors) {
      kept += own;
      continue;
    }
    for (size_t i = r.lo; i < r.hi; i++) keep[i] = false;
    if (own > 1) {
      /* the left half first: kept fixes stay in document order */
      size_t mid = r.lo + (r.hi - r.lo) / 2;
      run left = {r.lo, mid}, right = {mid, r.hi};
      vec_push(&todo, right);
      vec_push(&todo, left);
      continue;
    }
    size_t i = r.lo;
    while (ch->items[i].same_as != SIZE_MAX) i++;
    bool harmful = kept == 0; /* with nothing kept yet, that was the fix alone */
    if (!harmful) {
      alone[i] = true;
      harmful = render_errors(w, text, len, ch, alone, eol) > errors;
      alone[i] = false;
    }
    if (!harmful) continue;
    for (size_t k = i; k < ch->len; k++)
      if (k == i || ch->items[k].same_as == i) record_drop(out, blocked, doc, &ch->items[k]);
  }
  vec_free(&todo);
  free(alone);
  return kept;
}


/* Where byte P of the text before a pass is after it: edits at or before P
 * shift it; one that covers P moves it to where its replacement starts. */
static uint32_t map_offset(uint32_t p, const fix_choices *ch, const bool *keep) {
  int64_t delta = 0;
  for (size_t i = 0; i < ch->len; i++) {
    const fix_choice *c = &ch->items[i];
    if (c->same_as != SIZE_MAX || !keep[i]) continue;
    for (size_t k = 0; k < c->nedits; k++) {
      const oom_edit *e = &c->edits[k];
      if (e->start_byte >= p && !(e->start_byte == p && e->end_byte == p)) return (uint32_t)(p + delta);
      if (e->end_byte > p) return (uint32_t)(e->start_byte + delta);
      delta += (int64_t)strlen(e->content) - (int64_t)(e->end_byte - e->start_byte);
    }
  }
  return (uint32_t)(p + delta);
}


static void lint(oom_worker *w, oom_document *doc, const fix_filter *filter) {
  oom_document_lint(doc, w);
  if (filter) filter->drop(filter->ctx, doc);
}


/* DOC's text with the kept fixes applied, linted; NULL when it would not
 * change. */
static oom_document *next_document(oom_worker *w, const char *path, const oom_document *doc, const fix_choices *ch,
                                   const bool *keep, const char *eol, const fix_filter *filter) {
  size_t cur_len, next_len;
  const char *cur = oom_document_text(doc, &cur_len);
  char *next = fix_render(cur, cur_len, ch, keep, eol, &next_len);
  if (next_len == cur_len && memcmp(next, cur, cur_len) == 0) {
    free(next);
    return NULL;
  }
  oom_document *nd = oom_document_new(path, next, next_len);
  free(next);
  lint(w, nd, filter);
  return nd;
}


static void count_fix(fix_result *out, const oom_rule *rule) {
  out->fixed++;
  for (size_t i = 0; i < out->per_rule.len; i++)
    if (out->per_rule.items[i].rule == rule) {
      out->per_rule.items[i].count++;
      return;
    }
  fix_count c = {rule, 1};
  vec_push(&out->per_rule, c);
}


void fix_document(oom_worker *worker, const char *path, const char *text, size_t len, oom_applicability level,
                  const fix_filter *filter, fix_result *out) {
  memset(out, 0, sizeof *out);
  out->converged = true;
  const char *eol = fix_text_line_ending(text, len);
  oom_document *doc = oom_document_new(path, text, len);
  lint(worker, doc, filter);
  size_t errors = document_errors(doc);
  fix_blocks blocked = {0};
  fix_choices ch = {0};
  VEC(bool) keep = {0};
  for (unsigned attempt = 0;; attempt++) {
    fix_choose(doc, level, &blocked, &ch);
    if (ch.len == 0) break;
    if (attempt == FIX_MAX_PASSES) {
      out->converged = false;
      break;
    }
    keep.len = 0;
    vec_reserve(&keep, ch.len);
    for (size_t i = 0; i < ch.len; i++) keep.items[i] = true;
    oom_document *nd = next_document(worker, path, doc, &ch, keep.items, eol, filter);
    if (!nd) break; /* edits that change nothing: stop rather than loop */
    size_t next_errors = document_errors(nd);
    if (next_errors > errors) {
      oom_document_free(nd);
      size_t dropped_before = out->dropped.len;
      if (!keep_harmless(worker, doc, &ch, keep.items, eol, errors, &blocked, out)) {
        if (out->dropped.len > dropped_before) continue; /* choose again without the dropped ones */
        break;
      }
      nd = next_document(worker, path, doc, &ch, keep.items, eol, filter);
      if (!nd) break;
      next_errors = document_errors(nd);
      if (next_errors > errors) { /* cannot happen: the same parser said otherwise */
        oom_document_free(nd);
        break;
      }
    }
    for (size_t i = 0; i < ch.len; i++) {
      size_t own = ch.items[i].same_as == SIZE_MAX ? i : ch.items[i].same_as;
      if (keep.items[own]) count_fix(out, oom_diagnostic_rule(ch.items[i].diag));
    }
    for (size_t i = 0; i < blocked.len; i++) blocked.items[i].start = map_offset(blocked.items[i].start, &ch, keep.items);
    oom_document_free(doc);
    doc = nd;
    errors = next_errors;
    out->passes++;
  }
  vec_free(&keep);
  vec_free(&ch);
  vec_free(&blocked);
  size_t final_len;
  const char *final_text = oom_document_text(doc, &final_len);
  out->changed = final_len != len || memcmp(final_text, text, len) != 0;
  out->doc = doc;
}


void fix_result_free(fix_result *self) {
  oom_document_free(self->doc);
  vec_free(&self->per_rule);
  vec_free(&self->dropped);
  memset(self, 0, sizeof *self);
}
