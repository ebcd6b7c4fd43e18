/* This file contains documents: their text and edits, the lint pipeline
 * (parse, facts, rules, syntax errors, suppressions) and the accessors of
 * diagnostics and fixes. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "parse/parse.h"
#include "util/alloc.h"
#include "util/lines.h"
#include "util/utf8.h"

/* tree-sitter counts bytes in 32 bits */
#define MAX_DOCUMENT_BYTES 0x7fffffffu


oom_document *oom_document_new(const char *path, const char *text, size_t length) {
  oom_document *self = oom_xcalloc(1, sizeof *self);
  self->path = oom_xstrdup(path ? path : "-");
  self->text = oom_xstrndup(text ? text : "", text ? length : 0);
  if (!text) length = 0;
  self->length = length;
  return self;
}


oom_document *oom_document_new_owned(const char *path, char *text, size_t length) {
  assert(text && text[length] == '\0');
  oom_document *self = oom_xcalloc(1, sizeof *self);
  self->path = oom_xstrdup(path ? path : "-");
  self->text = text;
  self->length = length;
  return self;
}


static void drop_deps(oom_document *self) {
  for (size_t i = 0; i < self->ndeps; i++) free(self->deps[i].path);
  free(self->deps);
  self->deps = NULL;
  self->ndeps = 0;
}


void oom_worker_use_project(oom_worker *self, oom_project *project) {
  self->project = project;
}


/* Whether PATH names a test suite by pytest's file names: `test_*.py` or
 * `*_test.py`. Its folder is not asked: a `tests/` folder above the
 * project would make every file a test, and its files follow these names
 * anyway. */
static bool test_suite_path(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  return (!strncmp(base, "test_", 5) && n > 8 && !strcmp(base + n - 3, ".py")) ||
         (n > 8 && !strcmp(base + n - 8, "_test.py"));
}


bool document_view_begin(const oom_worker *worker, const oom_document *doc, project_view *view, TSNode root,
                         const char *text, size_t length) {
  if (!worker->project || !strcmp(doc->path, "-")) return false;
  project_view_init(view, worker->project, doc->path, root, text, length);
  return true;
}


void document_view_end(oom_document *doc, project_view *view, bool merge) {
  if (!merge) drop_deps(doc);
  for (size_t i = 0; i < view->deps.len; i++) {
    const project_dep *d = &view->deps.items[i];
    bool known = false;
    for (size_t k = 0; k < doc->ndeps && !known; k++) known = !strcmp(doc->deps[k].path, d->path);
    if (known) continue;
    doc->deps = oom_xrealloc(doc->deps, (doc->ndeps + 1) * sizeof *doc->deps);
    doc->deps[doc->ndeps++] = (project_dep){oom_xstrdup(d->path), d->hash};
  }
  project_view_free(view);
}


size_t oom_document_dependency_count(const oom_document *self) {
  return self->ndeps;
}


const char *oom_document_dependency(const oom_document *self, size_t index, uint64_t *hash) {
  if (index >= self->ndeps) return NULL;
  if (hash) *hash = self->deps[index].hash;
  return self->deps[index].path;
}


int oom_document_depends_on(const oom_document *self, const char *path) {
  for (size_t i = 0; i < self->ndeps; i++)
    if (!strcmp(self->deps[i].path, path)) return 1;
  return 0;
}


void oom_document_free(oom_document *self) {
  if (!self) return;
  drop_deps(self);
  if (self->tree) ts_tree_delete(self->tree);
  arena_free(&self->arena);
  vec_free(&self->diagnostics);
  lint_memo_free(&self->memo);
  free(self->path);
  free(self->text);
  free(self->cell_rows);
  free(self->file_rows);
  free(self);
}


/* The point of byte UPTO as the parser counts it (parse_source): a lone
 * "\r" breaks the line too. */
static TSPoint point_at(const char *text, size_t length, size_t upto) {
  TSPoint p = {0, 0};
  for (size_t i = 0; i < upto; i++) {
    if (lines_breaks_at(text, length, i)) p.row++, p.column = 0;
    else p.column++;
  }
  return p;
}


/* Grow the span of changed bytes by an edit of [START, OLD_END) into LENGTH
 * bytes: the span is carried through the edit, then joined with what it
 * wrote. */
static void mark_dirty(oom_document *doc, uint32_t start, uint32_t old_end, uint32_t length) {
  int64_t d = (int64_t)length - (int64_t)(old_end - start);
  uint32_t lo = start, hi = start + length;
  if (doc->dirty) {
    uint32_t a = doc->dirty_lo, b = doc->dirty_hi;
    a = a <= start ? a : a >= old_end ? (uint32_t)(a + d) : start;
    b = b <= start ? b : b >= old_end ? (uint32_t)(b + d) : start + length;
    if (a < lo) lo = a;
    if (b > hi) hi = b;
  }
  doc->dirty = true;
  doc->dirty_lo = lo;
  doc->dirty_hi = hi;
  doc->delta += d;
}


int oom_document_edit(oom_document *self, size_t start, size_t old_end, const char *text, size_t length) {
  if (start > old_end || old_end > self->length) return -1;
  if (!text) length = 0; /* a deletion */
  if (!length) text = "";
  size_t new_len = self->length - (old_end - start) + length;
  if (new_len > MAX_DOCUMENT_BYTES) return -1;
  mark_dirty(self, (uint32_t)start, (uint32_t)old_end, (uint32_t)length);
  self->tree_current = false;
  if (self->tree) {
    /* a "\r" just before the edit reads as a line break or not by the byte
     * after it, which the edit changes: the parser must read it again */
    size_t es = start > 0 && self->text[start - 1] == '\r' ? start - 1 : start;
    TSInputEdit e = {(uint32_t)es, (uint32_t)old_end, (uint32_t)(start + length),
                     point_at(self->text, self->length, es), point_at(self->text, self->length, old_end), {0, 0}};
    char *nt = oom_xmalloc(new_len + 1);
    memcpy(nt, self->text, start);
    memcpy(nt + start, text, length);
    memcpy(nt + start + length, self->text + old_end, self->length - old_end);
    nt[new_len] = '\0';
    e.new_end_point = point_at(nt, new_len, start + length);
    ts_tree_edit(self->tree, &e);
    free(self->text);
    self->text = nt;
    self->tree_stale = true;
  } else {
    char *nt = oom_xmalloc(new_len + 1);
    memcpy(nt, self->text, start);
    memcpy(nt + start, text, length);
    memcpy(nt + start + length, self->text + old_end, self->length - old_end);
    nt[new_len] = '\0';
    free(self->text);
    self->text = nt;
  }
  self->length = new_len;
  return 0;
}


const char *oom_document_path(const oom_document *self) {
  return self->path;
}


const char *oom_document_text(const oom_document *self, size_t *length) {
  if (length) *length = self->length;
  return self->text;
}


void document_index_lines(oom_document *doc) {
  /* one memchr pass, not a byte loop: a cached result is restored into a
   * document without linting it, and then this is most of the work. The
   * guess of one line per 24 bytes is doubled (in the arena) when short.
   * A text with a lone "\r" (a line break too) takes the byte loop; finding
   * out costs a memchr for "\r", which most texts do not hold */
  const char *text = doc->text, *end = text + doc->length;
  const bool lone_cr = lines_has_lone_cr(text, doc->length);
  size_t cap = doc->length / 24 + 16, n = 0;
  uint32_t *starts = arena_alloc(&doc->arena, cap * sizeof *starts);
  starts[n++] = 0;
  for (const char *p = text; p < end; p++) {
    if (lone_cr) {
      if (!lines_breaks_at(text, doc->length, (size_t)(p - text))) continue;
    } else if (!(p = memchr(p, '\n', (size_t)(end - p)))) {
      break;
    }
    if (n == cap) {
      uint32_t *more = arena_alloc(&doc->arena, 2 * cap * sizeof *more);
      memcpy(more, starts, n * sizeof *starts);
      starts = more;
      cap *= 2;
    }
    starts[n++] = (uint32_t)(p - text) + 1;
  }
  doc->line_starts = starts;
  doc->nlines = (uint32_t)n;
}


oom_position document_position(const oom_document *doc, uint32_t byte) {
  assert(doc->line_starts); /* indexed by the lint, or by oom_document_position */
  if (byte > doc->length) byte = (uint32_t)doc->length;
  uint32_t lo = 0, hi = doc->nlines;
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (doc->line_starts[mid] <= byte) lo = mid;
    else hi = mid;
  }
  return (oom_position){byte, lo, byte - doc->line_starts[lo]};
}


/* OOM000: the first region that does not parse, or bytes Python refuses.
 * Returns whether it reported one; false, without looking, when OOM000 is
 * off. */
static bool report_syntax(const oom_linter *linter, oom_document *doc, TSNode root) {
  if (!linter->syntax_rule || !oom_linter_rule_enabled(linter, linter->syntax_rule)) return false;
  buf msg = {0};
  uint32_t s = 0, e = 0;
  const char *nul = memchr(doc->text, '\0', doc->length);
  size_t bad = utf8_first_invalid(doc->text, doc->length);
  TSNode err;
  const char *what = NULL;
  if (nul) {
    s = (uint32_t)(nul - doc->text);
    e = s + 1;
    buf_puts(&msg, "source contains a NUL byte; Python refuses such files");
  } else if (bad != SIZE_MAX) {
    s = (uint32_t)bad;
    e = s + 1;
    buf_printf(&msg, "invalid UTF-8 (byte 0x%02x); Python reads source files as UTF-8",
               (unsigned char)doc->text[bad]);
  } else if (parse_first_indent_error(root, doc->text, &s, &what) &&
             (!parse_first_error(root, &err) || s < ts_node_start_byte(err))) {
    /* to the end of the statement's first line */
    e = s;
    while (e < doc->length && doc->text[e] != '\n' && doc->text[e] != '\r') e++;
    buf_printf(&msg, "%s; the rest of the file is still checked", what);
  } else if (parse_first_error(root, &err)) {
    s = ts_node_start_byte(err);
    e = ts_node_end_byte(err);
    if (ts_node_is_missing(err)) {
      buf_printf(&msg, "SyntaxError: expected `%s`", ts_node_type(err));
    } else {
      /* name the first token that did not fit, on one line */
      uint32_t t = s;
      while (t < e && t - s < 30 && doc->text[t] != '\n' && doc->text[t] != '\r') t++;
      if (t > s) buf_printf(&msg, "SyntaxError: unexpected `%.*s`", (int)(t - s), doc->text + s);
      else buf_puts(&msg, "SyntaxError: invalid syntax");
      /* point at the first line only */
      uint32_t line_end = s;
      while (line_end < e && !lines_breaks_at(doc->text, doc->length, line_end)) line_end++;
      e = line_end > s ? line_end : e;
    }
    buf_puts(&msg, "; the rest of the file is still checked");
  } else {
    return false;
  }
  char *m = arena_strndup(&doc->arena, buf_str(&msg), msg.len);
  buf_free(&msg);
  diagnostic_new(doc, linter->syntax_rule, m, s, e);
  return true;
}


/* Whether the text has none of the problems OOM000 reports, asked when OOM000
 * itself is off. */
static bool syntax_clean(const oom_document *doc, TSNode root) {
  uint32_t at;
  const char *what;
  return !ts_node_has_error(root) && !memchr(doc->text, '\0', doc->length) &&
         utf8_first_invalid(doc->text, doc->length) == SIZE_MAX && !parse_first_indent_error(root, doc->text, &at, &what);
}


static void report_too_deep(const oom_linter *linter, oom_document *doc, uint32_t depth) {
  if (!linter->syntax_rule || !oom_linter_rule_enabled(linter, linter->syntax_rule)) return;
  buf msg = {0};
  buf_printf(&msg, "code nested %u levels deep: CPython cannot compile it (RecursionError), and oomlint checks "
                   "files up to %u levels",
             depth, FACTS_MAX_DEPTH);
  char *m = arena_strndup(&doc->arena, buf_str(&msg), msg.len);
  buf_free(&msg);
  diagnostic_new(doc, linter->syntax_rule, m, 0, 0);
}


static int diag_cmp(const void *x, const void *y) {
  const oom_diagnostic *a = *(oom_diagnostic *const *)x, *b = *(oom_diagnostic *const *)y;
  if (a->start.byte != b->start.byte) return a->start.byte < b->start.byte ? -1 : 1;
  int c = strcmp(a->rule->code, b->rule->code);
  if (c) return c;
  return (a->end.byte > b->end.byte) - (a->end.byte < b->end.byte);
}


void document_sort_diagnostics(oom_document *doc) {
  if (doc->diagnostics.len > 1)
    qsort(doc->diagnostics.items, doc->diagnostics.len, sizeof *doc->diagnostics.items, diag_cmp);
}


/* Many NUL bytes (more than 16, and one in every 1,000 bytes): binary data,
 * not a Python file with a stray NUL. */
static bool looks_binary(const char *text, size_t length) {
  size_t nuls = 0;
  for (const char *p = text; (p = memchr(p, '\0', length - (size_t)(p - text))); p++) nuls++;
  return nuls > 16 && nuls * 1000 > length;
}


void document_reset_results(oom_document *doc) {
  arena_reset(&doc->arena);
  doc->diagnostics.len = 0;
  doc->line_starts = NULL; /* built on first use (oom_document_position) */
  doc->nlines = 0;
}


/* Keep what a partial relint borrows from this whole-file lint. */
static void remember(oom_document *doc, const oom_linter *linter, const facts *f, const signed char *cache,
                     uint32_t *witness, bool clean) {
  lint_memo *m = &doc->memo;
  lint_memo_free(m);
  m->linter = linter;
  m->clean = clean;
  m->file_cache = oom_xmalloc(linter->nslots + 1);
  memcpy(m->file_cache, cache, linter->nslots + 1);
  m->witness = witness;
  m->seed.file_backward = f->file_backward;
  m->seed.file_gradients = f->file_gradients;
  m->seed.file_scales_loss = f->file_scales_loss;
#define COPY_NAMES(field, n)                                                          \
  m->seed.field = oom_xcalloc(f->field.len + 1, sizeof(char *));                      \
  for (size_t i = 0; i < f->field.len; i++) m->seed.field[i] = oom_xstrdup(f->field.items[i]); \
  m->seed.n = f->field.len;
  COPY_NAMES(module_names, nmodule_names)
  COPY_NAMES(loader_names, nloader_names)
  COPY_NAMES(producers, nproducers)
#undef COPY_NAMES
}


void lint_memo_free(lint_memo *m) {
  char **lists[] = {m->seed.module_names, m->seed.loader_names, m->seed.producers};
  size_t counts[] = {m->seed.nmodule_names, m->seed.nloader_names, m->seed.nproducers};
  for (size_t k = 0; k < 3; k++) {
    for (size_t i = 0; i < counts[k]; i++) free(lists[k][i]);
    free(lists[k]);
  }
  free(m->file_cache);
  free(m->witness);
  memset(m, 0, sizeof *m);
}


void oom_document_lint(oom_document *self, oom_worker *worker) {
  const oom_linter *linter = worker->linter;
  assert(linter->compiled); /* oom_linter_load alone cannot lint */
  document_reset_results(self);
  lint_memo_free(&self->memo);
  drop_deps(self);
  self->linted = true;
  self->dirty = false;
  self->delta = 0;
  document_index_lines(self);
  if (self->length > MAX_DOCUMENT_BYTES) return;
  if (looks_binary(self->text, self->length)) {
    /* Python refuses any source with a NUL byte; a stray one is reported and
     * the rest linted, but binary data sends tree-sitter's error recovery
     * into seconds per megabyte: report it and stop */
    if (self->tree) ts_tree_delete(self->tree);
    self->tree = NULL;
    self->tree_stale = self->tree_current = false;
    report_syntax(linter, self, NULL_NODE);
    return;
  }
  if (!self->tree && worker->project && strcmp(self->path, "-") != 0) {
    /* parsed already for the summary another file's lint asked for */
    self->tree = project_take_tree(worker->project, self->path, self->text, self->length);
    self->tree_current = self->tree != NULL;
  }
  if (!self->tree_current || !self->tree) {
    TSTree *old = self->tree_stale ? self->tree : NULL;
    TSTree *tree = parse_source(worker->parser, self->text, self->length, old);
    if (self->tree) ts_tree_delete(self->tree);
    self->tree = tree;
    /* a module another file imports later: its summary takes this parse */
    if (tree && worker->project && strcmp(self->path, "-") != 0)
      project_offer_tree(worker->project, self->path, self->text, self->length, tree);
  }
  self->tree_stale = self->tree_current = false;
  if (!self->tree) return;
  TSNode root = ts_tree_root_node(self->tree);
  facts f;
  project_view view;
  bool viewed = document_view_begin(worker, self, &view, root, self->text, self->length);
  facts_build_with(&f, root, self->text, self->length, NULL, viewed ? &view.imports : NULL);
  f.test_suite = test_suite_path(self->path);
  signed char *cache = arena_alloc(&self->arena, linter->nslots + 1);
  memset(cache, -1, linter->nslots + 1);
  bool analysed = f.max_depth <= FACTS_MAX_DEPTH, clean = false;
  uint32_t *witness = NULL;
  if (!analysed) {
    report_too_deep(linter, self, f.max_depth);
  } else {
    bool syntax_on = linter->syntax_rule && oom_linter_rule_enabled(linter, linter->syntax_rule);
    clean = !report_syntax(linter, self, root) && (syntax_on || (self->incremental && syntax_clean(self, root)));
    if (self->incremental) witness = oom_xcalloc(linter->nslots + 1, sizeof *witness);
    engine_run(linter, worker, self, &f, cache, witness);
  }
  budget_report(linter, self, &f);
  if (suppress_apply(linter, self, &f)) clean = false;
  /* only a document relinted as it is edited needs the memo */
  if (analysed && witness) remember(self, linter, &f, cache, witness, clean);
  else free(witness);
  facts_free(&f);
  if (viewed) document_view_end(self, &view, true);
  document_sort_diagnostics(self);
}


bool oom_document_relint(oom_document *self, oom_worker *worker) {
  self->incremental = true;
  if (partial_relint(worker, self)) return true;
  oom_document_lint(self, worker);
  return false;
}


oom_position oom_document_position(const oom_document *self, uint32_t byte) {
  /* a document given cached results has no line index until something
   * asks: the text emitters never do. The document is not const here (its
   * owner passed it as const), and one thread uses a document at a time */
  if (!self->line_starts) document_index_lines((oom_document *)self);
  return document_position(self, byte);
}


void oom_document_set_cells(oom_document *self, const uint32_t *rows, size_t count) {
  free(self->cell_rows);
  self->cell_rows = count ? oom_xmalloc(count * sizeof *rows) : NULL;
  if (count) memcpy(self->cell_rows, rows, count * sizeof *rows);
  self->ncells = count;
}


size_t oom_document_cell_count(const oom_document *self) {
  return self->ncells;
}


uint32_t oom_document_cell(const oom_document *self, uint32_t row, uint32_t *cell_row) {
  *cell_row = row;
  if (!self->ncells) return 0;
  size_t lo = 0, hi = self->ncells; /* the last cell starting at or before ROW */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (self->cell_rows[mid] <= row) lo = mid;
    else hi = mid;
  }
  /* the separator line after a cell (where an unclosed bracket's error
   * lands) counts as that cell's last line */
  if (lo + 1 < self->ncells && row + 1 == self->cell_rows[lo + 1] && row > self->cell_rows[lo]) row--;
  *cell_row = row >= self->cell_rows[lo] ? row - self->cell_rows[lo] : 0;
  return (uint32_t)lo + 1;
}


uint32_t oom_document_cell_start(const oom_document *self, uint32_t cell) {
  return cell >= 1 && cell <= self->ncells ? self->cell_rows[cell - 1] : 0;
}


void oom_document_set_file_rows(oom_document *self, const uint32_t *file_rows, size_t count) {
  free(self->file_rows);
  self->file_rows = count ? oom_xmalloc(count * sizeof *file_rows) : NULL;
  if (count) memcpy(self->file_rows, file_rows, count * sizeof *file_rows);
  self->nfile_rows = count;
}


uint32_t oom_document_file_row(const oom_document *self, uint32_t row) {
  if (!self->nfile_rows) return row;
  return self->file_rows[row < self->nfile_rows ? row : self->nfile_rows - 1];
}


size_t oom_document_diagnostic_count(const oom_document *self) {
  return self->diagnostics.len;
}


const oom_diagnostic *oom_document_diagnostic(const oom_document *self, size_t index) {
  return index < self->diagnostics.len ? self->diagnostics.items[index] : NULL;
}


const oom_rule *oom_diagnostic_rule(const oom_diagnostic *self) { return self->rule; }
const char *oom_diagnostic_code(const oom_diagnostic *self) { return self->rule->code; }
oom_severity oom_diagnostic_severity(const oom_diagnostic *self) { return self->rule->severity; }
const char *oom_diagnostic_message(const oom_diagnostic *self) { return self->message; }
oom_position oom_diagnostic_start(const oom_diagnostic *self) { return self->start; }
oom_position oom_diagnostic_end(const oom_diagnostic *self) { return self->end; }
const oom_fix *oom_diagnostic_fix(const oom_diagnostic *self) { return self->fix; }

oom_applicability oom_fix_applicability(const oom_fix *self) { return self->applicability; }
const char *oom_fix_title(const oom_fix *self) { return self->title; }
size_t oom_fix_edit_count(const oom_fix *self) { return self->nedits; }


const oom_edit *oom_fix_edit(const oom_fix *self, size_t index) {
  return index < self->nedits ? &self->edits[index] : NULL;
}
