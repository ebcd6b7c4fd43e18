/* This file contains the engine's per-document run: the one query over the
 * tree, predicates per match, message rendering, fixes, and the rule that one
 * range reports once per rule. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/alloc.h"

#define MESSAGE_CAPTURE_MAX 60


bool engine_capture(const TSQueryMatch *m, int id, TSNode *out) {
  for (uint16_t i = 0; i < m->capture_count; i++)
    if ((int)m->captures[i].index == id) {
      *out = m->captures[i].node;
      return true;
    }
  return false;
}


char *tmpl_render(const tmpl *t, const TSQueryMatch *m, const char *source, size_t length, arena *a, bool full) {
  buf out = {0};
  for (size_t i = 0; i < t->count; i++) {
    const tmpl_part *p = &t->parts[i];
    if (p->capture < 0) {
      buf_append(&out, p->text, p->len);
      continue;
    }
    TSNode n;
    if (!engine_capture(m, p->capture, &n)) continue;
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (e > length) e = (uint32_t)length;
    if (s > e) s = e;
    if (full) {
      buf_append(&out, source + s, e - s);
      continue;
    }
    /* one line, runs of white space collapsed, long text cut */
    size_t shown = 0;
    bool space = false;
    for (uint32_t k = s; k < e; k++) {
      char c = source[k];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        space = true;
        continue;
      }
      if (space && shown) buf_putc(&out, ' ');
      space = false;
      /* count characters, not bytes: a cut never splits one */
      bool continuation = ((unsigned char)c & 0xC0) == 0x80;
      if (shown >= MESSAGE_CAPTURE_MAX && !continuation) {
        buf_puts(&out, "...");
        break;
      }
      buf_putc(&out, c);
      if (!continuation) shown++;
    }
  }
  char *r = arena_strndup(a, buf_str(&out), out.len);
  buf_free(&out);
  return r;
}


oom_diagnostic *diagnostic_new(oom_document *doc, const oom_rule *rule, const char *message, uint32_t start_byte,
                               uint32_t end_byte) {
  oom_diagnostic *d = arena_calloc(&doc->arena, sizeof *d);
  d->rule = rule;
  d->message = message;
  d->start = document_position(doc, start_byte);
  d->end = document_position(doc, end_byte);
  vec_push(&doc->diagnostics, d);
  return d;
}


/* Diagnostics already made in this run, by rule and range: an open-addressing
 * table, so a file with many findings stays linear. */
typedef struct {
  oom_diagnostic **slots;
  size_t cap, used;
} seen_table;


static size_t seen_hash(const oom_rule *r, uint32_t s, uint32_t e) {
  uint64_t h = (uint64_t)(uintptr_t)r * 0x9E3779B97F4A7C15ull;
  h ^= ((uint64_t)s << 32 | e) * 0xC2B2AE3D27D4EB4Full;
  return (size_t)(h ^ (h >> 29));
}


static oom_diagnostic **seen_slot(seen_table *t, const oom_rule *r, uint32_t s, uint32_t e) {
  size_t i = seen_hash(r, s, e) & (t->cap - 1);
  while (t->slots[i]) {
    oom_diagnostic *d = t->slots[i];
    if (d->rule == r && d->start.byte == s && d->end.byte == e) break;
    i = (i + 1) & (t->cap - 1);
  }
  return &t->slots[i];
}


static void seen_add(seen_table *t, oom_diagnostic *d) {
  if ((t->used + 1) * 2 > t->cap) {
    seen_table bigger = {oom_xcalloc(t->cap * 2, sizeof *t->slots), t->cap * 2, 0};
    for (size_t i = 0; i < t->cap; i++)
      if (t->slots[i]) *seen_slot(&bigger, t->slots[i]->rule, t->slots[i]->start.byte, t->slots[i]->end.byte) = t->slots[i];
    bigger.used = t->used;
    free(t->slots);
    *t = bigger;
  }
  *seen_slot(t, d->rule, d->start.byte, d->end.byte) = d;
  t->used++;
}


/* One pattern's predicates, message and edits on a match of its shape. */
static void run_pattern(const oom_linter *linter, oom_document *doc, const facts *model, const pattern_info *p,
                        const TSQueryMatch *m, pred_context *ctx, seen_table *seen) {
  if (!linter->enabled[p->rule]) return;
  const oom_rule *rule = linter->rules.items[p->rule];
  TSNode report;
  if (!engine_capture(m, linter->report_capture, &report)) return;
  if (!predicates_pass(p, m, ctx)) return;
  uint32_t s = ts_node_start_byte(report), e = ts_node_end_byte(report);
  oom_edit *edits = NULL;
  size_t nedits = 0;
  /* the variants of one shape capture the same names, so the first's capture
   * quantifiers (which edits_build reads by the match's pattern) hold for all */
  bool has_edits = rule->edits.len && edits_build(linter->query, rule, m, model, &doc->arena, &edits, &nedits);
  /* one diagnostic per rule and range: the first that can make its edits */
  oom_diagnostic *same = *seen_slot(seen, rule, s, e);
  if (same && (!has_edits || (same->fix && same->fix->nedits))) return;
  char *msg = tmpl_render(&rule->message, m, doc->text, doc->length, &doc->arena, false);
  oom_fix *fix = NULL;
  if (rule->fix >= 0) {
    fix = arena_calloc(&doc->arena, sizeof *fix);
    fix->applicability = has_edits ? (oom_applicability)rule->fix : OOM_FIX_DISPLAY;
    fix->title = rule->fix_title;
    fix->edits = has_edits ? edits : NULL;
    fix->nedits = has_edits ? nedits : 0;
  }
  if (same) {
    same->message = msg;
    same->fix = fix;
    return;
  }
  oom_diagnostic *d = diagnostic_new(doc, rule, msg, s, e);
  d->fix = fix;
  seen_add(seen, d);
}


/* Of the diagnostics made since FIRST by rules reporting once per function,
 * drops each that repeats the message of an earlier one of its rule in the
 * same function. Only those rules' diagnostics are compared, each with its
 * function found once. */
typedef struct {
  oom_diagnostic *d;
  int fn;
} once_entry;

static void once_per_function(oom_document *doc, size_t first, const facts *model) {
  VEC(once_entry) seen = {0};
  size_t kept = first;
  for (size_t i = first; i < doc->diagnostics.len; i++) {
    oom_diagnostic *d = doc->diagnostics.items[i];
    if (!d->rule->once_per_function) {
      doc->diagnostics.items[kept++] = d;
      continue;
    }
    once_entry e = {d, facts_function_at(model, d->start.byte)};
    /* matches come nearly in file order: the one kept is the first in the
     * file, so a later repeat replaces nothing and an earlier one replaces */
    size_t k = 0;
    while (k < seen.len && !(seen.items[k].d->rule == d->rule && seen.items[k].fn == e.fn &&
                             !strcmp(seen.items[k].d->message, d->message)))
      k++;
    if (k == seen.len) {
      vec_push(&seen, e);
      doc->diagnostics.items[kept++] = d;
    } else if (d->start.byte < seen.items[k].d->start.byte) {
      for (size_t j = first; j < kept; j++)
        if (doc->diagnostics.items[j] == seen.items[k].d) doc->diagnostics.items[j] = d;
      seen.items[k].d = d;
    }
  }
  doc->diagnostics.len = kept;
  vec_free(&seen);
}


bool engine_run(const oom_linter *linter, oom_worker *worker, oom_document *doc, const facts *model,
                signed char *cache, uint32_t *witness) {
  if (!linter->query) return true;
  size_t first = doc->diagnostics.len;
  bool once = false;
  for (size_t i = 0; i < linter->rules.len && !once; i++)
    once = linter->enabled[i] && linter->rules.items[i]->once_per_function;
  buf tmp = {0};
  signed char *answers = arena_alloc(&doc->arena, linter->max_answers + 1);
  pred_context ctx = {.model = model, .source = doc->text, .length = doc->length, .md = worker->md,
                      .file_cache = cache, .witness = witness, .answers = answers, .tmp = &tmp};
  ts_query_cursor_exec(worker->cursor, linter->query, model->root);
  seen_table seen = {oom_xcalloc(64, sizeof(oom_diagnostic *)), 64, 0};
  TSQueryMatch m;
  VEC(TSQueryCapture) renamed = {0};
  while (ts_query_cursor_next_match(worker->cursor, &m)) {
    memset(answers, -1, linter->patterns[m.pattern_index].nanswers);
    for (int32_t v = (int32_t)m.pattern_index; v >= 0; v = linter->patterns[v].next_variant) {
      const int32_t *map = linter->patterns[v].capture_map;
      if (!map) {
        run_pattern(linter, doc, model, &linter->patterns[v], &m, &ctx, &seen);
        continue;
      }
      /* the match as the variant itself would have had it */
      renamed.len = 0;
      vec_reserve(&renamed, m.capture_count);
      for (uint16_t i = 0; i < m.capture_count; i++)
        if (map[m.captures[i].index] >= 0)
          renamed.items[renamed.len++] = (TSQueryCapture){m.captures[i].node, (uint32_t)map[m.captures[i].index]};
      TSQueryMatch mv = {m.id, (uint16_t)v, (uint16_t)renamed.len, renamed.items};
      run_pattern(linter, doc, model, &linter->patterns[v], &mv, &ctx, &seen);
    }
  }
  vec_free(&renamed);
  if (once) once_per_function(doc, first, model);
  free(seen.slots);
  buf_free(&tmp);
  predicates_context_free(&ctx);
  return !ctx.unknown;
}
