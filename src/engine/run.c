/* This file contains the engine's per-document run: the one query over the
 * tree, predicates per match, message rendering, fixes, and the rule that one
 * range reports once per rule. */
#include <assert.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "parse/node.h"
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


/* Whether the bytes [FROM, TO) of TEXT name NAME (LEN bytes) as a whole
 * word: a use of a function between its two definitions. */
static bool names_between(const char *text, uint32_t from, uint32_t to, const char *name, size_t len) {
  for (uint32_t i = from; i + len <= to; i++) {
    if (memcmp(text + i, name, len) != 0) continue;
    bool left = i > from && (text[i - 1] == '_' || isalnum((unsigned char)text[i - 1]));
    bool right = i + len < to && (text[i + len] == '_' || isalnum((unsigned char)text[i + len]));
    if (!left && !right) return true;
  }
  return false;
}


/* Whether DEF, a function defined undecorated in a block, class body or
 * module, is defined again later in the same one before anything names it:
 * Python binds the name to the second definition, so the first body never
 * runs (a script's `def test_export(...)` copied and edited below itself).
 * A decorated definition may be registered, overloaded or a property's
 * getter, so it counts as live. The definitions of the same name come from
 * the model's index of functions by name, so a module of thousands of
 * functions costs a lookup per finding, not a walk of its statements. */
static bool redefined_later(TSNode def, const char *text, const facts *model) {
  TSNode parent = ts_node_parent(def);
  if (ts_node_is_null(parent) || !(NODE_IS(parent, "block") || NODE_IS(parent, "module"))) return false;
  TSNode later = facts_later_definition(model, def);
  if (ts_node_is_null(later)) return false;
  TSNode name = ts_node_child_by_field_name(def, "name", 4);
  uint32_t ns = ts_node_start_byte(name), ne = ts_node_end_byte(name);
  assert(ne > ns);
  return !names_between(text, ts_node_end_byte(def), ts_node_start_byte(later), text + ns, ne - ns);
}


/* Whether statement S ends the program: `exit()`, `quit()`, `sys.exit(...)`,
 * `os._exit(...)` (a `__main__` block's `exit()` above a disabled speed test). */
static bool exits(TSNode s, const char *text) {
  if (!NODE_IS(s, "expression_statement") || ts_node_named_child_count(s) != 1) return false;
  TSNode call = ts_node_named_child(s, 0);
  if (!NODE_IS(call, "call")) return false;
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
  uint32_t a = ts_node_start_byte(fn), b = ts_node_end_byte(fn);
  static const char *const enders[] = {"exit", "quit", "sys.exit", "os._exit"};
  for (size_t i = 0; i < sizeof enders / sizeof *enders; i++)
    if (strlen(enders[i]) == b - a && memcmp(text + a, enders[i], b - a) == 0) return true;
  return false;
}


/* Whether NODE never runs: it follows a `return`, `raise`, `continue`,
 * `break` or program exit in a block of its function (`def test(self):
 * return` above a disabled evaluation), or its function is redefined below
 * itself. Nothing there costs memory. A walk up the ancestors, each block's
 * earlier statements scanned; only reported nodes are asked. */
static bool unreachable(TSNode node, const char *text, const facts *model) {
  for (TSNode up = node; !ts_node_is_null(up); up = ts_node_parent(up)) {
    if (NODE_IS(up, "function_definition")) return redefined_later(up, text, model);
    if (NODE_IS(up, "class_definition") || NODE_IS(up, "lambda")) return false;
    TSNode parent = ts_node_parent(up);
    /* `loss_gen = True` set once, then `if loss_gen: ... else: model(x)`:
     * the branch the constant excludes (an `else`/`elif` of a true flag,
     * the body of a false one) */
    bool flag;
    if (!ts_node_is_null(parent) && NODE_IS(parent, "if_statement") &&
        (NODE_IS(up, "else_clause") || NODE_IS(up, "elif_clause") || NODE_IS(up, "block")) &&
        facts_constant_flag(model, ts_node_child_by_field_name(parent, "condition", 9), &flag) &&
        flag == !NODE_IS(up, "block"))
      return true;
    if (ts_node_is_null(parent) || !NODE_IS(parent, "block")) continue;
    for (TSNode s = ts_node_prev_named_sibling(up); !ts_node_is_null(s); s = ts_node_prev_named_sibling(s))
      if (NODE_IS(s, "return_statement") || NODE_IS(s, "raise_statement") || NODE_IS(s, "continue_statement") ||
          NODE_IS(s, "break_statement") || exits(s, text))
        return true;
  }
  return false;
}


/* One pattern's predicates, message and edits on a match of its shape. */
static void run_pattern(const oom_linter *linter, oom_document *doc, const facts *model, const pattern_info *p,
                        const TSQueryMatch *m, pred_context *ctx, seen_table *seen) {
  if (!linter->enabled[p->rule]) return;
  const oom_rule *rule = linter->rules.items[p->rule];
  TSNode report;
  if (!engine_capture(m, linter->report_capture, &report)) return;
  if (!predicates_pass(p, m, ctx) || unreachable(report, doc->text, model)) return;
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


/* What one run's matches are evaluated with. */
typedef struct {
  const oom_linter *linter;
  oom_worker *worker;
  oom_document *doc;
  const facts *model;
  pred_context *ctx;
  seen_table *seen;
  signed char *answers;
  VEC(TSQueryCapture) renamed;
} run_state;


/* The query's matches that start at a node of NODE's subtree overlapping
 * bytes [START, END). */
static void run_matches(run_state *r, TSNode node, uint32_t start, uint32_t end) {
  const oom_linter *linter = r->linter;
  TSQueryCursor *cursor = r->worker->cursor;
  ts_query_cursor_set_byte_range(cursor, start, end);
  ts_query_cursor_exec(cursor, linter->query, node);
  TSQueryMatch m;
  while (ts_query_cursor_next_match(cursor, &m)) {
    memset(r->answers, -1, linter->patterns[m.pattern_index].nanswers);
    for (int32_t v = (int32_t)m.pattern_index; v >= 0; v = linter->patterns[v].next_variant) {
      const int32_t *map = linter->patterns[v].capture_map;
      if (!map) {
        run_pattern(linter, r->doc, r->model, &linter->patterns[v], &m, r->ctx, r->seen);
        continue;
      }
      /* the match as the variant itself would have had it */
      r->renamed.len = 0;
      vec_reserve(&r->renamed, m.capture_count);
      for (uint16_t i = 0; i < m.capture_count; i++)
        if (map[m.captures[i].index] >= 0)
          r->renamed.items[r->renamed.len++] =
            (TSQueryCapture){m.captures[i].node, (uint32_t)map[m.captures[i].index]};
      TSQueryMatch mv = {m.id, (uint16_t)v, (uint16_t)r->renamed.len, r->renamed.items};
      run_pattern(linter, r->doc, r->model, &linter->patterns[v], &mv, r->ctx, r->seen);
    }
  }
  ts_query_cursor_set_byte_range(cursor, 0, UINT32_MAX);
}


/* A node with more children than this comes from a repetition (a list
 * literal, a call's arguments, a file's statements) of more than 65,535
 * items, past which tree-sitter 0.20's balancing of repetitions (a 16-bit
 * depth) leaves their hidden nodes a deep chain: 280 levels on average for
 * a 2,000,000-item list against 30 for a balanced one. The query cursor
 * walks that chain up on every node it enters, twice (its status and
 * parent), so the list's items cost it ten times their share and the run
 * grows faster than the file. Such a node's children are given to the
 * query one by one instead: a cursor started at a child has no chain
 * above it. */
#define WIDE_CHILDREN 65536u

typedef VEC(TSNode) node_list;

static bool is_wide(TSNode n) {
  return ts_node_child_count(n) > WIDE_CHILDREN;
}

/* Whether N's subtree may hold a wide node: each child takes a byte. */
static bool may_hold_wide(TSNode n) {
  return ts_node_end_byte(n) - ts_node_start_byte(n) > WIDE_CHILDREN;
}

static bool may_start_match(const oom_linter *linter, TSNode n) {
  if (linter->any_root) return true;
  TSSymbol s = ts_node_symbol(n);
  for (uint32_t i = 0; i < linter->nroots; i++)
    if (linter->roots[i] == s) return true;
  return false;
}

static bool same_span(TSNode a, TSNode b) {
  return ts_node_start_byte(a) == ts_node_start_byte(b) && ts_node_end_byte(a) == ts_node_end_byte(b);
}


/* The outermost wide nodes strictly inside UNIT, in file order, each
 * replaced by its outermost ancestor below UNIT of the same bytes (such a
 * wrapper, as a statement that is only a list, overlaps no range that
 * leaves the list out). Only nodes that may hold one are entered. */
static void find_wide(TSNode unit, node_list *out) {
  TSTreeCursor c = ts_tree_cursor_new(unit);
  node_list path = {0}; /* the nodes entered, UNIT first */
  vec_push(&path, unit);
  bool at = ts_tree_cursor_goto_first_child(&c);
  while (at) {
    TSNode n = ts_tree_cursor_current_node(&c);
    bool descend = false;
    if (may_hold_wide(n)) {
      if (is_wide(n)) {
        TSNode top = n;
        for (size_t k = path.len; k-- > 1 && same_span(path.items[k], n);) top = path.items[k];
        vec_push(out, top);
      } else {
        descend = true;
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&c)) {
      vec_push(&path, n);
      continue;
    }
    while (!(at = ts_tree_cursor_goto_next_sibling(&c)) && path.len > 1 && ts_tree_cursor_goto_parent(&c)) path.len--;
  }
  vec_free(&path);
  ts_tree_cursor_delete(&c);
}


/* The matches of a wide node W's subtree: those starting at W itself need
 * the query over W (the slow way, when a pattern may start at W's type or
 * W wraps a wide node); the others are found child by child. Children that
 * may hold wide nodes go on UNITS. */
static void run_wide(run_state *r, TSNode w, node_list *units) {
  if (!is_wide(w) || may_start_match(r->linter, w)) {
    run_matches(r, w, 0, UINT32_MAX);
    return;
  }
  TSTreeCursor c = ts_tree_cursor_new(w);
  for (bool at = ts_tree_cursor_goto_first_child(&c); at; at = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode k = ts_tree_cursor_current_node(&c);
    if (may_hold_wide(k)) vec_push(units, k);
    else if (ts_node_child_count(k) || may_start_match(r->linter, k)) run_matches(r, k, 0, UINT32_MAX);
  }
  ts_tree_cursor_delete(&c);
}


/* Every match in ROOT's subtree, each once: a unit's matches come from the
 * query over the unit limited to the bytes around its wide nodes (a match
 * starting at a node that spans two such ranges is found twice, and its
 * diagnostic made once: the seen table), and from each wide node's
 * children. A pattern started outside a wide node that must look into it
 * still does: the query cursor descends for it. */
static void run_tree(run_state *r, TSNode root) {
  node_list units = {0}, wide = {0};
  vec_push(&units, root);
  while (units.len) {
    TSNode u = units.items[--units.len];
    if (is_wide(u)) {
      run_wide(r, u, &units);
      continue;
    }
    wide.len = 0;
    if (may_hold_wide(u)) find_wide(u, &wide);
    uint32_t from = ts_node_start_byte(u);
    bool covered = false;
    for (size_t i = 0; i <= wide.len; i++) {
      uint32_t to = i < wide.len ? ts_node_start_byte(wide.items[i]) : ts_node_end_byte(u);
      if (to > from) {
        /* the outer ends open, as a run without wide nodes has them */
        run_matches(r, u, i == 0 ? 0 : from, i == wide.len ? UINT32_MAX : to);
        covered = true;
      }
      if (i < wide.len) from = ts_node_end_byte(wide.items[i]);
    }
    if (!covered) {
      /* U is all wide nodes: no range starts a match at U */
      run_matches(r, u, 0, UINT32_MAX);
      continue;
    }
    for (size_t i = 0; i < wide.len; i++) run_wide(r, wide.items[i], &units);
  }
  vec_free(&units);
  vec_free(&wide);
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
  seen_table seen = {oom_xcalloc(64, sizeof(oom_diagnostic *)), 64, 0};
  run_state r = {linter, worker, doc, model, &ctx, &seen, answers, {0}};
  run_tree(&r, model->root);
  vec_free(&r.renamed);
  if (once) once_per_function(doc, first, model);
  free(seen.slots);
  buf_free(&tmp);
  predicates_context_free(&ctx);
  return !ctx.unknown;
}
