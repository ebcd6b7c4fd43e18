/* This file contains partial relints. An editor lints on every keystroke,
 * and a whole 5,000-line file costs about 100 ms where one function costs
 * one. After edits inside one top-level `def` or `class` (the "unit"), the
 * unit is linted again within a smaller text, the "part": the file's
 * top-level code, the unit, and the definitions it names or that name it,
 * each at its own lines; the others are left out. The part's facts start from
 * the file-wide names the last whole-file lint found (models, loaders,
 * producers of graphs) and its file-level predicates from that lint's
 * answers. The unit's diagnostics come from the part; all others move with
 * the text.
 *
 * What it cannot see is an effect that travels further: a summary that
 * changes two calls away, a name the edit removes from the file-wide sets.
 * So it is never the last word: oom_document_relint tells its caller that a
 * whole-file lint is still due, and the language server runs one when the
 * user pauses. Anything it is unsure of (a syntax error, a file-level
 * `noqa`, a fix that would reach outside the unit, a part near the file's
 * own size) makes it give up, and the caller lints the whole file. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "parse/parse.h"
#include "util/alloc.h"
#include "util/lines.h"
#include "util/utf8.h"

/* The part must be much smaller than the file to be worth it. */
#define PART_MAX_BYTES (64u * 1024u)

typedef struct {
  TSNode node;
  TSSymbol symbol;
  uint32_t start, end;         /* the node, in the current text */
  uint32_t cut_start, cut_end; /* the whole lines it fills, which the part may leave out; equal: none */
  const char *name;            /* a def's or class's name; NULL for other statements */
  uint32_t name_len;
  bool in_part;
} unit;

/* part bytes [m, m + len) are document bytes [d, d + len) */
typedef struct {
  uint32_t m, d, len;
} segment;

typedef VEC(unit) units;
typedef VEC(segment) segments;


static bool is_definition(const char *type) {
  return !strcmp(type, "function_definition") || !strcmp(type, "class_definition") ||
         !strcmp(type, "decorated_definition");
}


/* The statements (and comments) of a module or a class body. */
static void statements(TSNode parent, const char *text, size_t length, units *out) {
  TSTreeCursor c = ts_tree_cursor_new(parent);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more; more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode n = ts_tree_cursor_current_node(&c);
    unit u = {n, ts_node_symbol(n), ts_node_start_byte(n), ts_node_end_byte(n), 0, 0, NULL, 0, false};
    if (text && is_definition(ts_node_type(n))) {
      TSNode def = n;
      if (!strcmp(ts_node_type(n), "decorated_definition")) def = ts_node_child_by_field_name(n, "definition", 10);
      TSNode name = ts_node_is_null(def) ? def : ts_node_child_by_field_name(def, "name", 4);
      if (!ts_node_is_null(name)) {
        u.name = text + ts_node_start_byte(name);
        u.name_len = ts_node_end_byte(name) - ts_node_start_byte(name);
      }
      /* a definition alone on its lines can be left out whole */
      uint32_t b = u.start, e = u.end;
      while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) b--;
      while (e < length && (text[e] == ' ' || text[e] == '\t')) e++;
      /* a "\r" there is a line break itself or the start of "\r\n" */
      if ((b == 0 || lines_breaks_at(text, length, b - 1)) &&
          (e == length || text[e] == '\n' || text[e] == '\r')) {
        u.cut_start = b;
        u.cut_end = (uint32_t)lines_next(text, length, e);
      }
    }
    vec_push(out, u);
  }
  ts_tree_cursor_delete(&c);
}


static bool ident_byte(unsigned char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}


/* Whether TEXT[from, to) holds NAME as a whole word; as an attribute
 * (`x.name`) only when ATTRIBUTES: that is some object's, not a top-level
 * name of this file, but may be a method of the class. */
/* Whether TEXT between FROM and TO holds NAME anywhere, inside a word too
 * (`autograd_gradients` holds `grad`). */
static bool holds(const char *text, uint32_t from, uint32_t to, const char *name, uint32_t len) {
  for (const char *p = text + from, *end = text + to; len && (size_t)(end - p) >= len; p++) {
    p = memchr(p, name[0], (size_t)(end - p) - len + 1);
    if (!p) return false;
    if (!memcmp(p, name, len)) return true;
  }
  return false;
}


static bool mentions(const char *text, uint32_t from, uint32_t to, const char *name, uint32_t len, bool attributes) {
  if (!len) return false;
  for (const char *p = text + from, *end = text + to; (size_t)(end - p) >= len; p++) {
    p = memchr(p, name[0], (size_t)(end - p) - len + 1);
    if (!p) return false;
    if (memcmp(p, name, len)) continue;
    bool before = p > text && (ident_byte((unsigned char)p[-1]) || (p[-1] == '.' && !attributes));
    bool after = p + len < end && ident_byte((unsigned char)p[len]);
    if (!before && !after) return true;
  }
  return false;
}


/* The definition the edits are in, or -1: the only one whose node holds
 * the whole changed span, with every other statement as before. */
static int edited_unit(const units *old, const units *now, uint32_t lo, uint32_t hi) {
  if (old->len != now->len) return -1;
  int k = -1;
  for (size_t i = 0; i < now->len; i++) {
    const unit *a = &old->items[i], *b = &now->items[i];
    if (a->symbol != b->symbol || a->start != b->start) return -1;
    /* up to the end of its last line: deleting a function's last line
     * takes its newline with it */
    uint32_t end = b->cut_end > b->end ? b->cut_end : b->end;
    if (b->start < lo && hi <= end && b->name) {
      k = (int)i;
      continue;
    }
    if (a->end != b->end) return -1;
  }
  return k;
}


/* Map part byte B to the document: at a seam, a start goes to the segment
 * that starts there and an end to the one that ends there. */
static uint32_t to_document(const segments *segs, uint32_t b, bool is_end) {
  size_t lo = 0, hi = segs->len;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    const segment *s = &segs->items[mid];
    if (s->m < b || (s->m == b && !is_end)) lo = mid;
    else hi = mid;
  }
  const segment *s = &segs->items[lo];
  return s->d + (b - s->m < s->len ? b - s->m : s->len);
}


/* A fix's edit made in the part, in the document: an insertion stays one. */
static oom_edit edit_to_document(const segments *segs, const oom_edit *e) {
  oom_edit m = *e;
  m.start_byte = to_document(segs, e->start_byte, false);
  m.end_byte = e->end_byte == e->start_byte ? m.start_byte : to_document(segs, e->end_byte, true);
  return m;
}


static oom_diagnostic *copy_diagnostic(oom_document *doc, const oom_diagnostic *d, uint32_t start, uint32_t end,
                                       const oom_edit *edits) {
  size_t mlen = strlen(d->message);
  oom_diagnostic *c = diagnostic_new(doc, d->rule, arena_strndup(&doc->arena, d->message, mlen), start, end);
  if (!d->fix) return c;
  oom_fix *f = arena_calloc(&doc->arena, sizeof *f);
  *f = *d->fix;
  if (d->fix->title) f->title = arena_strndup(&doc->arena, d->fix->title, strlen(d->fix->title));
  if (d->fix->nedits) {
    f->edits = arena_alloc(&doc->arena, d->fix->nedits * sizeof *f->edits);
    for (size_t i = 0; i < d->fix->nedits; i++) {
      f->edits[i] = edits[i];
      f->edits[i].content = arena_strndup(&doc->arena, edits[i].content, strlen(edits[i].content));
    }
  }
  c->fix = f;
  return c;
}


/* Diagnostics no part can make: the syntax check and the memory estimate
 * look at the whole file. OOM001 is made per comment, so it is the part's. */
static bool file_wide(const oom_linter *linter, const oom_rule *rule) {
  return rule->builtin && rule != linter->unused_noqa_rule;
}


/* A class this big is relinted a method at a time. */
#define CLASS_SPLIT_BYTES 4096u

typedef struct {
  const oom_linter *linter;
  oom_worker *worker;
  oom_document *doc;
  units old, now;         /* top-level statements, before and after the edits */
  int k;                  /* the definition edited */
  units old_members, members; /* the body of class K, when edited in a method */
  int m;                  /* the method edited, or -1 */
  segments segs;
  char *text;             /* the part */
  uint32_t length;
} partial;


static const unit *edited(const partial *p) {
  return p->m >= 0 ? &p->members.items[p->m] : &p->now.items[p->k];
}


/* Whether definition J goes in the part beside the edited one, U: the part
 * keeps what it cannot leave out whole, and what names U or U names. */
static bool joins(const char *text, const unit *u, const unit *j, bool attributes) {
  return !j->name || j->cut_start == j->cut_end || mentions(text, u->start, u->end, j->name, j->name_len, attributes) ||
         mentions(text, j->start, j->end, u->name, u->name_len, attributes);
}


static void cut(segments *cuts, const unit *j) {
  segment s = {0, j->cut_start, j->cut_end - j->cut_start};
  vec_push(cuts, s);
}


/* Choose the part: the edited definition (a method with its class's other
 * statements, `__init__` and the methods it names or that name it), the
 * top-level definitions it names or that name it, and everything that is
 * not a definition. Builds its text and segments; false when the part
 * would not be much smaller than the file. */
static bool build_part(partial *p) {
  const char *text = p->doc->text;
  const unit *u = edited(p);
  segments cuts = {0};
  for (size_t i = 0; i < p->now.len; i++) {
    unit *j = &p->now.items[i];
    j->in_part = (int)i == p->k || joins(text, u, j, false);
    if (!j->in_part) cut(&cuts, j);
    if ((int)i != p->k || p->m < 0) continue;
    for (size_t t = 0; t < p->members.len; t++) {
      unit *e = &p->members.items[t];
      e->in_part = (int)t == p->m || joins(text, u, e, true) || (e->name_len == 8 && !memcmp(e->name, "__init__", 8));
      if (!e->in_part) cut(&cuts, e);
    }
  }
  uint64_t size = 0;
  uint32_t from = 0;
  for (size_t i = 0; i <= cuts.len; i++) {
    uint32_t to = i < cuts.len ? cuts.items[i].d : (uint32_t)p->doc->length;
    if (to > from) {
      segment s = {(uint32_t)size, from, to - from};
      vec_push(&p->segs, s);
      size += to - from;
    }
    if (i < cuts.len) from = cuts.items[i].d + cuts.items[i].len;
  }
  vec_free(&cuts);
  if (!p->segs.len || size > PART_MAX_BYTES || size * 2 > p->doc->length) return false;
  p->text = oom_xmalloc(size + 1);
  for (size_t i = 0; i < p->segs.len; i++)
    memcpy(p->text + p->segs.items[i].m, text + p->segs.items[i].d, p->segs.items[i].len);
  p->text[size] = '\0';
  p->length = (uint32_t)size;
  return true;
}


/* The span of the unit's own lines, in the current text. */
static void unit_span(const unit *u, uint32_t *s, uint32_t *e) {
  *s = u->cut_start != u->cut_end ? u->cut_start : u->start;
  *e = u->cut_start != u->cut_end ? u->cut_end : u->end + 1;
}


/* Keep from NAMES those mentioned outside U: a name only U mentions came
 * from U alone, and U's new text says whether it still does. */
static size_t outside(const oom_document *doc, const unit *u, char **names, size_t n, char **out) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t len = (uint32_t)strlen(names[i]);
    /* `self.x`: its last name */
    const char *dot = strrchr(names[i], '.');
    const char *w = dot ? dot + 1 : names[i];
    uint32_t wl = len - (uint32_t)(w - names[i]);
    if (mentions(doc->text, 0, u->start, w, wl, true) ||
        mentions(doc->text, u->end, (uint32_t)doc->length, w, wl, true))
      out[k++] = names[i];
  }
  return k;
}


/* The last whole-file lint's names that the part starts from. Its arrays
 * share one allocation, at module_names. */
static facts_seed own_seed(const oom_document *doc, const unit *u) {
  const facts_seed *m = &doc->memo.seed;
  facts_seed s = {0};
  char **all = oom_xcalloc(m->nmodule_names + m->nloader_names + m->nproducers + 1, sizeof *all);
  s.module_names = all;
  s.nmodule_names = outside(doc, u, m->module_names, m->nmodule_names, s.module_names);
  s.loader_names = s.module_names + s.nmodule_names;
  s.nloader_names = outside(doc, u, m->loader_names, m->nloader_names, s.loader_names);
  s.producers = s.loader_names + s.nloader_names;
  s.nproducers = outside(doc, u, m->producers, m->nproducers, s.producers);
  s.file_backward = m->file_backward && (mentions(doc->text, 0, u->start, "backward", 8, true) ||
                                         mentions(doc->text, u->end, (uint32_t)doc->length, "backward", 8, true));
  /* a project's gradient helper called outside the unit, named for what it takes */
  s.file_gradients = m->file_gradients && (holds(doc->text, 0, u->start, "grad", 4) ||
                                           holds(doc->text, u->end, (uint32_t)doc->length, "grad", 4));
  /* a scaler outside the unit: GradScaler, `.scale(loss)`, a wrapper's `.backward(loss)` */
  static const char *const scaling[] = {"GradScaler", "scale", "backward"};
  for (size_t i = 0; i < 3 && m->file_scales_loss && !s.file_scales_loss; i++) {
    uint32_t len = (uint32_t)strlen(scaling[i]);
    s.file_scales_loss = mentions(doc->text, 0, u->start, scaling[i], len, true) ||
                         mentions(doc->text, u->end, (uint32_t)doc->length, scaling[i], len, true);
  }
  return s;
}


/* Where byte B of the text the last lint saw is now: bytes in the changed
 * span go to its start. */
static uint32_t moved(const oom_document *doc, uint32_t b) {
  uint32_t lo = doc->dirty_lo, old_hi = (uint32_t)((int64_t)doc->dirty_hi - doc->delta);
  return b < lo ? b : b >= old_hi ? (uint32_t)((int64_t)b + doc->delta) : lo;
}


/* The file-level predicates' answers for the part to use as whole-file
 * answers, in CTX's cache, and where each true one is in the document in
 * WITNESS. They ask whether something is anywhere in the file, so the
 * part's own "yes" holds for the file, and so does the memo's "no" (the
 * text outside the unit is as it was): those are left to the part, asked
 * when a match needs them. A memo's "yes" whose witness is outside the unit
 * [OLD_US, OLD_UE) still holds. Any other is asked of the part, then of the
 * whole text when it is about the text; else it is FILE_UNKNOWN, and the
 * partial relint gives up if a match asks for it. */
static void file_answers(partial *p, pred_context *ctx, const predicate **table, uint32_t old_us, uint32_t old_ue,
                         uint32_t *witness) {
  const oom_linter *linter = p->linter;
  const lint_memo *memo = &p->doc->memo;
  for (uint32_t i = 0; i < linter->nslots; i++) {
    signed char was = memo->file_cache[i];
    uint32_t w = memo->witness[i];
    if (was == 0 || !table[i]) continue;
    if (was == 1 && w != UINT32_MAX && (w < old_us || w >= old_ue)) {
      ctx->file_cache[i] = 1;
      witness[i] = moved(p->doc, w);
      continue;
    }
    if (predicates_file_level_answer(table[i], ctx)) continue;
    if (predicates_file_level_text(table[i], p->doc->text, p->doc->length, p->worker->md)) {
      ctx->file_cache[i] = 1;
      witness[i] = (uint32_t)pcre2_get_ovector_pointer(p->worker->md)[0];
      continue;
    }
    if (table[i]->kind != PRED_FILE_MENTIONS) ctx->file_cache[i] = FILE_UNKNOWN;
  }
}


/* Lint the part and merge: the unit's diagnostics from the part, the rest
 * from the last lint. False when the part has a problem the file did not
 * (then DOC is unchanged). */
static bool lint_part(partial *p) {
  const oom_linter *linter = p->linter;
  oom_document *doc = p->doc;
  TSTree *tree = parse_source(p->worker->parser, p->text, p->length, NULL);
  if (!tree) return false;
  TSNode root = ts_tree_root_node(tree);
  uint32_t at;
  const char *what;
  if (ts_node_has_error(root) || parse_first_indent_error(root, p->text, &at, &what)) {
    ts_tree_delete(tree);
    return false;
  }
  oom_document *part = oom_document_new_owned(doc->path, p->text, p->length);
  p->text = NULL;
  document_index_lines(part);
  facts f;
  facts_seed seed = own_seed(doc, edited(p));
  project_view view;
  bool viewed = document_view_begin(p->worker, doc, &view, root, part->text, part->length);
  facts_build_with(&f, root, part->text, part->length, &seed, viewed ? &view.imports : NULL);
  /* the unit in the current text, and in the text the last lint saw */
  uint32_t us, ue;
  unit_span(edited(p), &us, &ue);
  uint32_t old_us = us, old_ue = (uint32_t)((int64_t)ue - doc->delta);

  bool ok = f.max_depth <= FACTS_MAX_DEPTH;
  /* the memo's answers move on with the text: the next partial relint
   * starts from this one's */
  signed char *cache = oom_xmalloc(linter->nslots + 1);
  uint32_t *witness = oom_xmalloc((linter->nslots + 1) * sizeof *witness); /* in the document */
  uint32_t *found = oom_xmalloc((linter->nslots + 1) * sizeof *found);     /* in the part */
  memset(cache, -1, linter->nslots + 1);
  memset(witness, 0xff, (linter->nslots + 1) * sizeof *witness);
  memset(found, 0xff, (linter->nslots + 1) * sizeof *found);
  if (ok) {
    buf tmp = {0};
    pred_context ctx = {.model = &f, .source = part->text, .length = part->length, .md = p->worker->md,
                        .file_cache = cache, .witness = found, .tmp = &tmp};
    /* each file-level predicate by its slot, for the answers below */
    const predicate **table = oom_xcalloc(linter->nslots + 1, sizeof *table);
    predicates_file_level_table(linter, table);
    file_answers(p, &ctx, table, old_us, old_ue, witness);
    ok = engine_run(linter, p->worker, part, &f, cache, found);
    /* what the next partial relint starts from. An answer the last one knew
     * to be "no" that this one did not need is the part's (which holds the
     * unit): the part is small, so ask it now, or the next would ask the
     * whole text */
    for (uint32_t i = 0; ok && i < linter->nslots; i++) {
      if (cache[i] == -1 && doc->memo.file_cache[i] == 0 && table[i]) predicates_file_level_answer(table[i], &ctx);
      if (cache[i] == FILE_UNKNOWN) cache[i] = -1;
      if (cache[i] == 1 && witness[i] == UINT32_MAX && found[i] != UINT32_MAX)
        witness[i] = to_document(&p->segs, found[i], false);
    }
    free(table);
    buf_free(&tmp);
    predicates_context_free(&ctx);
    ok = ok && !suppress_apply(linter, part, &f);
  }
  free(found);
  facts_free(&f);
  if (viewed) document_view_end(doc, &view, true);
  ts_tree_delete(tree);
  free(seed.module_names);

  /* the part's findings in the unit, mapped; a fix reaching outside the
   * unit was made without the rest of the file: give up */
  VEC(oom_edit) edits = {0};
  VEC(uint32_t) taken = {0};
  for (size_t i = 0; ok && i < part->diagnostics.len; i++) {
    const oom_diagnostic *d = part->diagnostics.items[i];
    if (file_wide(linter, d->rule)) continue;
    uint32_t s = to_document(&p->segs, d->start.byte, false);
    if (s < us || s >= ue) continue;
    vec_push(&taken, (uint32_t)i);
    for (size_t e = 0; d->fix && e < d->fix->nedits; e++) {
      oom_edit m = edit_to_document(&p->segs, &d->fix->edits[e]);
      if (m.start_byte < us || m.end_byte > ue) ok = false;
    }
  }
  /* the last lint's findings outside the unit stay, moved with the text; one
   * whose fix edits the unit was made from its old text: give up */
  for (size_t i = 0; ok && i < doc->diagnostics.len; i++) {
    const oom_diagnostic *d = doc->diagnostics.items[i];
    if (!file_wide(linter, d->rule) && d->start.byte >= old_us && d->start.byte < old_ue) continue;
    for (size_t e = 0; d->fix && e < d->fix->nedits; e++)
      if (d->fix->edits[e].end_byte >= old_us && d->fix->edits[e].start_byte < old_ue) ok = false;
  }
  if (!ok) {
    free(cache);
    free(witness);
    vec_free(&edits);
    vec_free(&taken);
    oom_document_free(part);
    return false;
  }
  free(doc->memo.file_cache);
  free(doc->memo.witness);
  doc->memo.file_cache = cache;
  doc->memo.witness = witness;

  /* move the last lint's diagnostics aside, and make the new set */
  arena old_arena = doc->arena;
  VEC(oom_diagnostic *) old = {doc->diagnostics.items, doc->diagnostics.len, doc->diagnostics.cap};
  memset(&doc->arena, 0, sizeof doc->arena);
  memset(&doc->diagnostics, 0, sizeof doc->diagnostics);
  document_index_lines(doc);
  for (size_t i = 0; i < old.len; i++) {
    const oom_diagnostic *d = old.items[i];
    if (!file_wide(linter, d->rule) && d->start.byte >= old_us && d->start.byte < old_ue) continue;
    edits.len = 0;
    for (size_t e = 0; d->fix && e < d->fix->nedits; e++) {
      oom_edit m = d->fix->edits[e];
      m.start_byte = moved(doc, m.start_byte);
      m.end_byte = moved(doc, m.end_byte);
      vec_push(&edits, m);
    }
    copy_diagnostic(doc, d, moved(doc, d->start.byte), moved(doc, d->end.byte), edits.items);
  }
  for (size_t t = 0; t < taken.len; t++) {
    const oom_diagnostic *d = part->diagnostics.items[taken.items[t]];
    edits.len = 0;
    for (size_t e = 0; d->fix && e < d->fix->nedits; e++) vec_push(&edits, edit_to_document(&p->segs, &d->fix->edits[e]));
    uint32_t s = to_document(&p->segs, d->start.byte, false);
    uint32_t e = d->end.byte == d->start.byte ? s : to_document(&p->segs, d->end.byte, true);
    copy_diagnostic(doc, d, s, e, edits.items);
  }
  vec_free(&edits);
  vec_free(&taken);
  vec_free(&old);
  arena_free(&old_arena);
  oom_document_free(part);
  document_sort_diagnostics(doc);
  return true;
}


/* Whether bytes around the changed span are UTF-8 without NUL: the rest of
 * the text was, at the last lint. */
static bool span_clean(const oom_document *doc) {
  uint32_t lo = doc->dirty_lo, hi = doc->dirty_hi;
  for (int i = 0; i < 4 && lo > 0; i++) lo--;
  while (lo > 0 && ((unsigned char)doc->text[lo] & 0xC0) == 0x80) lo--;
  for (int i = 0; i < 4 && hi < doc->length; i++) hi++;
  while (hi < doc->length && ((unsigned char)doc->text[hi] & 0xC0) == 0x80) hi++;
  return !memchr(doc->text + lo, '\0', hi - lo) && utf8_first_invalid(doc->text + lo, hi - lo) == SIZE_MAX;
}


bool partial_relint(oom_worker *worker, oom_document *doc) {
  const oom_linter *linter = worker->linter;
  if (!doc->linted || !doc->dirty || !doc->tree || !doc->tree_stale || doc->tree_current || !linter->query ||
      doc->memo.linter != linter || !doc->memo.clean || doc->dirty_hi > doc->length || !span_clean(doc))
    return false;
  TSTree *old = doc->tree;
  TSTree *tree = parse_source(worker->parser, doc->text, doc->length, old);
  if (!tree) return false;
  /* from here on the new tree is the document's, used or not */
  partial p = {linter, worker, doc, {0}, {0}, -1, {0}, {0}, -1, {0}, NULL, 0};
  TSNode root = ts_tree_root_node(tree);
  bool ok = !ts_node_has_error(root);
  if (ok) {
    uint32_t lo = doc->dirty_lo, hi = doc->dirty_hi;
    statements(ts_tree_root_node(old), NULL, 0, &p.old);
    statements(root, doc->text, doc->length, &p.now);
    p.k = edited_unit(&p.old, &p.now, lo, hi);
    ok = p.k >= 0;
    /* in a big class, the method edited */
    const unit *k = ok ? &p.now.items[p.k] : NULL;
    TSNode klass = k ? k->node : root;
    if (k && !strcmp(ts_node_type(klass), "decorated_definition"))
      klass = ts_node_child_by_field_name(klass, "definition", 10);
    if (k && k->end - k->start > CLASS_SPLIT_BYTES && !strcmp(ts_node_type(klass), "class_definition")) {
      TSNode body = ts_node_child_by_field_name(klass, "body", 4);
      TSNode old_klass = p.old.items[p.k].node;
      if (!strcmp(ts_node_type(old_klass), "decorated_definition"))
        old_klass = ts_node_child_by_field_name(old_klass, "definition", 10);
      TSNode old_body = ts_node_is_null(old_klass) ? old_klass : ts_node_child_by_field_name(old_klass, "body", 4);
      if (!ts_node_is_null(body) && !ts_node_is_null(old_body)) {
        statements(old_body, NULL, 0, &p.old_members);
        statements(body, doc->text, doc->length, &p.members);
        p.m = edited_unit(&p.old_members, &p.members, lo, hi);
      }
    }
    ok = ok && build_part(&p) && lint_part(&p);
  }
  ts_tree_delete(old);
  doc->tree = tree;
  doc->tree_stale = false;
  doc->tree_current = true;
  if (ok) {
    doc->dirty = false;
    doc->delta = 0;
  }
  free(p.text);
  vec_free(&p.old);
  vec_free(&p.now);
  vec_free(&p.old_members);
  vec_free(&p.members);
  vec_free(&p.segs);
  return ok;
}
