/* This file contains the linter: loading the embedded and user rule files,
 * compiling all their patterns into one query, and the selection of rules
 * (--select/--ignore). Also the options object and the per-thread worker. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/embedded.h"
#include "engine/engine.h"
#include "parse/parse.h"
#include "util/alloc.h"

#define MAX_RULE_FILE (1u << 20)


const char *oom_version(void) {
  return OOMLINT_VERSION;
}


/* ---- options ---- */

oom_options *oom_options_new(void) {
  return oom_xcalloc(1, sizeof(oom_options));
}


static void free_strings(void *v_items, size_t len) {
  char **items = v_items;
  for (size_t i = 0; i < len; i++) free(items[i]);
  free(items);
}


void oom_options_free(oom_options *self) {
  if (!self) return;
  free_strings(self->select.items, self->select.len);
  free_strings(self->extend_select.items, self->extend_select.len);
  free_strings(self->ignore.items, self->ignore.len);
  free_strings(self->rules_dirs.items, self->rules_dirs.len);
  free_strings(self->assume.items, self->assume.len);
  free(self);
}


void oom_options_select(oom_options *self, const char *selector) {
  self->select_given = true;
  vec_push(&self->select, oom_xstrdup(selector));
}


void oom_options_extend_select(oom_options *self, const char *selector) {
  vec_push(&self->extend_select, oom_xstrdup(selector));
}


void oom_options_ignore(oom_options *self, const char *selector) {
  vec_push(&self->ignore, oom_xstrdup(selector));
}


void oom_options_add_rules_dir(oom_options *self, const char *dir) {
  vec_push(&self->rules_dirs, oom_xstrdup(dir));
}


bool oom_selector_is_valid(const char *s) {
  if (!strcmp(s, "ALL")) return true;
  if (strncmp(s, "OOM", 3) != 0) return false;
  size_t n = strlen(s + 3);
  if (n > 3) return false;
  for (size_t i = 0; i < n; i++)
    if (s[3 + i] < '0' || s[3 + i] > '9') return false;
  return true;
}


/* The length of the most specific selector in LIST matching CODE, or -1. */
static int best_match(char **list, size_t len, const char *code) {
  int best = -1;
  for (size_t i = 0; i < len; i++) {
    const char *s = list[i];
    int spec = !strcmp(s, "ALL") ? 0 : (int)strlen(s);
    if ((spec == 0 || !strncmp(code, s, strlen(s))) && spec > best) best = spec;
  }
  return best;
}


bool options_code_enabled(const oom_options *o, const char *code) {
  int sel = o->select_given ? best_match(o->select.items, o->select.len, code) : 0;
  int ext = best_match(o->extend_select.items, o->extend_select.len, code);
  if (ext > sel) sel = ext;
  int ign = best_match(o->ignore.items, o->ignore.len, code);
  if (sel < 0) return false;
  return ign < sel; /* a tie goes to ignore */
}


/* ---- rules ---- */

static int rule_cmp(const void *a, const void *b) {
  return strcmp((*(oom_rule *const *)a)->code, (*(oom_rule *const *)b)->code);
}


static bool add_rule(oom_linter *self, const char *origin, const char *text, size_t len, buf *err) {
  oom_rule *r = oom_xcalloc(1, sizeof *r);
  if (!rulefile_parse(origin, text, len, r, err)) {
    rulefile_free(r);
    free(r);
    return false;
  }
  for (size_t i = 0; i < self->rules.len; i++) {
    if (!strcmp(self->rules.items[i]->code, r->code)) {
      buf_printf(err, "%s:1: code %s is already defined by %s", origin, r->code, self->rules.items[i]->origin);
      rulefile_free(r);
      free(r);
      return false;
    }
  }
  vec_push(&self->rules, r);
  return true;
}


static int name_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}


static bool load_dir(oom_linter *self, const char *dir, buf *err) {
  DIR *d = opendir(dir);
  if (!d) {
    buf_printf(err, "%s: cannot read rules folder: %s", dir, strerror(errno));
    return false;
  }
  VEC(char *) names = {0};
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n > 4 && !strcmp(e->d_name + n - 4, ".scm") && e->d_name[0] != '.') vec_push(&names, oom_xstrdup(e->d_name));
  }
  closedir(d);
  if (names.len > 1) qsort(names.items, names.len, sizeof *names.items, name_cmp); /* an empty folder: NULL items */
  bool ok = true;
  for (size_t i = 0; i < names.len && ok; i++) {
    buf path = {0};
    buf_printf(&path, "%s/%s", dir, names.items[i]);
    FILE *fp = fopen(buf_str(&path), "rb");
    struct stat st;
    if (!fp || fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_RULE_FILE) {
      buf_printf(err, "%s: cannot read rule file%s%s", buf_str(&path), fp ? "" : ": ", fp ? "" : strerror(errno));
      ok = false;
    } else {
      char *text = oom_xmalloc((size_t)st.st_size + 1);
      size_t got = fread(text, 1, (size_t)st.st_size, fp);
      text[got] = '\0';
      ok = add_rule(self, buf_str(&path), text, got, err);
      free(text);
    }
    if (fp) fclose(fp);
    buf_free(&path);
  }
  free_strings(names.items, names.len);
  return ok;
}


static const char *query_error_name(TSQueryError e) {
  switch (e) {
  case TSQueryErrorSyntax: return "syntax error";
  case TSQueryErrorNodeType: return "unknown node type";
  case TSQueryErrorField: return "unknown field";
  case TSQueryErrorCapture: return "unknown capture";
  case TSQueryErrorStructure: return "impossible pattern (the grammar never produces this shape)";
  case TSQueryErrorLanguage: return "language mismatch";
  default: return "error";
  }
}


static int capture_id(const TSQuery *q, const char *name) {
  uint32_t n = ts_query_capture_count(q);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t len;
    const char *c = ts_query_capture_name_for_id(q, i, &len);
    if (strlen(name) == len && !memcmp(c, name, len)) return (int)i;
  }
  return -1;
}


static bool resolve_tmpl(const TSQuery *q, tmpl *t, const oom_rule *r, const char *where, buf *err) {
  for (size_t i = 0; i < t->count; i++) {
    if (!t->parts[i].name || t->parts[i].text) continue;
    t->parts[i].capture = capture_id(q, t->parts[i].name);
    /* a capture of another rule would be silently empty: reject it unless this
     * rule's own text names it (a capture a pattern of this rule may omit) */
    buf at = {0};
    buf_printf(&at, "@%s", t->parts[i].name);
    bool own = strstr(r->text, buf_str(&at)) != NULL;
    buf_free(&at);
    if (t->parts[i].capture < 0 || !own) {
      buf_printf(err, "%s:1: %s names {%s}, which no pattern of this rule captures", r->origin, where,
                 t->parts[i].name);
      return false;
    }
  }
  return true;
}


static int capture_id_n(const TSQuery *q, const char *name, uint32_t len) {
  uint32_t n = ts_query_capture_count(q);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t l;
    const char *c = ts_query_capture_name_for_id(q, i, &l);
    if (l == len && !memcmp(c, name, len)) return (int)i;
  }
  return -1;
}


#define MAX_SHAPE_CAPTURES 64

/* The capture map (pattern_info.capture_map) of a pattern of shape VAR
 * evaluated on the matches of one of shape FIRST, whose unnamed shapes are
 * equal; NULL when the nodes of some run cannot be paired name by name: a
 * name of VAR's run is one of FIRST's run, or the one name left in both. */
static int32_t *capture_map(const TSQuery *q, const buf *first, const buf *var) {
  shape_capture a[MAX_SHAPE_CAPTURES], b[MAX_SHAPE_CAPTURES];
  size_t na = shape_captures(first->data, first->len, a, MAX_SHAPE_CAPTURES);
  size_t nb = shape_captures(var->data, var->len, b, MAX_SHAPE_CAPTURES);
  if (na > MAX_SHAPE_CAPTURES || nb > MAX_SHAPE_CAPTURES) return NULL;
  uint32_t ncap = ts_query_capture_count(q);
  int32_t *map = oom_xmalloc((ncap + 1) * sizeof *map), *back = oom_xmalloc((ncap + 1) * sizeof *back);
  for (uint32_t i = 0; i <= ncap; i++) map[i] = back[i] = -2; /* -2: not paired yet */
  bool ok = true;
  for (size_t i = 0, j = 0; ok && (i < na || j < nb);) {
    /* the runs A[i..ie) and B[j..je) of one node */
    uint32_t run = i < na ? a[i].run : b[j].run;
    size_t ie = i, je = j;
    while (ie < na && a[ie].run == run) ie++;
    while (je < nb && b[je].run == run) je++;
    int left_a = -1, left_b = -1, nleft_a = 0, nleft_b = 0;
    int pa[MAX_SHAPE_CAPTURES], pb[MAX_SHAPE_CAPTURES], npairs = 0;
    for (size_t y = j; y < je; y++) {
      size_t x = i;
      while (x < ie && (a[x].len != b[y].len || memcmp(a[x].name, b[y].name, a[x].len))) x++;
      if (x < ie) pa[npairs] = (int)x, pb[npairs++] = (int)y;
      else left_b = (int)y, nleft_b++;
    }
    for (size_t x = i; x < ie; x++) {
      bool named = false;
      for (size_t y = j; y < je; y++) named |= a[x].len == b[y].len && !memcmp(a[x].name, b[y].name, a[x].len);
      if (!named) left_a = (int)x, nleft_a++;
    }
    if (nleft_b == 1 && nleft_a == 1) pa[npairs] = left_a, pb[npairs++] = left_b;
    else if (nleft_b) ok = false;
    for (int k = 0; k < npairs && ok; k++) {
      int from = capture_id_n(q, a[pa[k]].name, a[pa[k]].len), to = capture_id_n(q, b[pb[k]].name, b[pb[k]].len);
      if (from < 0 || to < 0 || (map[from] != -2 && map[from] != to) || (back[to] != -2 && back[to] != from)) ok = false;
      else map[from] = to, back[to] = from;
    }
    i = ie;
    j = je;
  }
  free(back);
  if (!ok) {
    free(map);
    return NULL;
  }
  for (uint32_t i = 0; i <= ncap; i++)
    if (map[i] == -2) map[i] = -1;
  return map;
}


/* Whether a pattern of RULE lies between patterns FIRST and P: then P's
 * matches, evaluated with FIRST's, would come before that pattern's on the
 * same node, and the first of a rule's diagnostics on one range wins. */
static bool rule_between(const oom_linter *self, uint32_t first, uint32_t p) {
  for (uint32_t k = first + 1; k < p; k++)
    if (self->patterns[k].rule == self->patterns[p].rule) return true;
  return false;
}


/* Chains the patterns of one shape and leaves only the first of each chain
 * in the query (see shape.c). SRC is the combined query text. A pattern
 * whose shape differs only in its capture names joins a chain too, with a
 * capture map, when its captures sit on the same nodes. */
static void group_shapes(oom_linter *self, const buf *src) {
  uint32_t n = self->npatterns;
  buf *shapes = oom_xcalloc(n, sizeof *shapes), *unnamed = oom_xcalloc(n, sizeof *unnamed);
  int32_t *tail = oom_xcalloc(n, sizeof *tail), *first = oom_xcalloc(n, sizeof *first);
  uint32_t ncap = ts_query_capture_count(self->query);
  for (uint32_t p = 0; p < n; p++) {
    uint32_t start = ts_query_start_byte_for_pattern(self->query, p);
    uint32_t end = p + 1 < n ? ts_query_start_byte_for_pattern(self->query, p + 1) : (uint32_t)src->len;
    shape_of(src->data + start, end - start, &shapes[p]);
    shape_unnamed(shapes[p].data, shapes[p].len, &unnamed[p]);
    tail[p] = first[p] = (int32_t)p;
    /* the chain of an earlier pattern of the very same shape, with its map */
    int32_t join = -1;
    for (uint32_t q = 0; q < p && join < 0; q++) {
      if (shapes[q].len != shapes[p].len || memcmp(shapes[q].data, shapes[p].data, shapes[p].len)) continue;
      join = first[q];
      if (self->patterns[q].capture_map) {
        self->patterns[p].capture_map = oom_xmalloc((ncap + 1) * sizeof(int32_t));
        memcpy(self->patterns[p].capture_map, self->patterns[q].capture_map, (ncap + 1) * sizeof(int32_t));
      }
    }
    /* else the chain of a pattern whose captures have other names */
    for (uint32_t q = 0; q < p && join < 0; q++) {
      if (first[q] != (int32_t)q || unnamed[q].len != unnamed[p].len ||
          memcmp(unnamed[q].data, unnamed[p].data, unnamed[p].len) || rule_between(self, q, p))
        continue;
      self->patterns[p].capture_map = capture_map(self->query, &shapes[q], &shapes[p]);
      if (self->patterns[p].capture_map) join = (int32_t)q;
    }
    if (join < 0) continue;
    self->patterns[tail[join]].next_variant = (int32_t)p;
    tail[join] = (int32_t)p;
    first[p] = join;
    ts_query_disable_pattern(self->query, p);
  }
  for (uint32_t p = 0; p < n; p++) buf_free(&shapes[p]), buf_free(&unnamed[p]);
  free(shapes);
  free(unnamed);
  free(tail);
  free(first);
}


/* Numbers the distinct predicates of each shape's variants: a match is
 * evaluated for every variant, which often repeat a predicate (a rule's
 * patterns for training loops and for evaluation functions share most). */
static void number_answers(oom_linter *self) {
  bool *variant = oom_xcalloc(self->npatterns + 1, sizeof *variant);
  for (uint32_t p = 0; p < self->npatterns; p++)
    if (self->patterns[p].next_variant >= 0) variant[self->patterns[p].next_variant] = true;
  /* a capture id names the same node only in variants with the same map */
  typedef struct {
    const predicate *pred;
    const int32_t *map;
  } asked;
  VEC(asked) seen = {0};
  size_t map_size = (ts_query_capture_count(self->query) + 1) * sizeof(int32_t);
  for (uint32_t p = 0; p < self->npatterns; p++) {
    if (variant[p]) continue;
    seen.len = 0;
    for (int32_t v = (int32_t)p; v >= 0; v = self->patterns[v].next_variant) {
      pattern_info *pi = &self->patterns[v];
      for (size_t i = 0; i < pi->npreds; i++) {
        predicate *pr = &pi->preds[i];
        size_t k = 0;
        while (k < seen.len && !((seen.items[k].map == pi->capture_map ||
                                  (seen.items[k].map && pi->capture_map &&
                                   !memcmp(seen.items[k].map, pi->capture_map, map_size))) &&
                                 predicates_same_question(seen.items[k].pred, pr)))
          k++;
        if (k == seen.len) {
          asked a = {pr, pi->capture_map};
          vec_push(&seen, a);
        }
        pr->answer = (uint32_t)k;
      }
    }
    self->patterns[p].nanswers = (uint32_t)seen.len;
    if (seen.len > self->max_answers) self->max_answers = (uint32_t)seen.len;
  }
  vec_free(&seen);
  free(variant);
}


/* The query of SRC compiled with every pattern whose shape repeats an
 * earlier one's replaced by a stub of its captures and predicates at the
 * same offset, or NULL when that cannot be done. group_shapes disables
 * exactly those patterns (the first of their chain stands for them), and
 * tree-sitter's analysis of a pattern, over the grammar's parse table, is
 * most of the time it takes to compile: about a millisecond a pattern, and a
 * third of the patterns repeat a shape. The stub keeps what the engine reads
 * of a variant: its capture names, its predicates and its start byte. */
static TSQuery *compile_stubbed(const buf *src) {
  size_t n = shape_split(src->data, src->len, NULL, 0);
  if (n == 0) return NULL;
  uint32_t *starts = oom_xmalloc(n * sizeof *starts);
  shape_split(src->data, src->len, starts, n);
  buf *shapes = oom_xcalloc(n, sizeof *shapes);
  buf text = {0};
  buf_append(&text, src->data, starts[0]);
  size_t stubs = 0;
  for (size_t p = 0; p < n; p++) {
    size_t end = p + 1 < n ? starts[p + 1] : src->len;
    const char *pat = src->data + starts[p];
    shape_of(pat, end - starts[p], &shapes[p]);
    bool repeat = false;
    for (size_t q = 0; q < p && !repeat; q++)
      repeat = shapes[q].len == shapes[p].len && !memcmp(shapes[q].data, shapes[p].data, shapes[p].len);
    if (repeat && shape_stub(pat, end - starts[p], shapes[p].data, shapes[p].len, &text)) stubs++;
    else buf_append(&text, pat, end - starts[p]);
  }
  TSQuery *q = NULL;
  if (stubs) {
    uint32_t off;
    TSQueryError qe;
    q = ts_query_new(parse_language(), text.data, (uint32_t)text.len, &off, &qe);
    /* the split must be tree-sitter's own, or the stubs are not the variants */
    bool same = q && ts_query_pattern_count(q) == n;
    for (uint32_t p = 0; same && p < n; p++) same = ts_query_start_byte_for_pattern(q, p) == starts[p];
    if (!same && q) {
      ts_query_delete(q);
      q = NULL;
    }
  }
  for (size_t p = 0; p < n; p++) buf_free(&shapes[p]);
  free(shapes);
  free(starts);
  buf_free(&text);
  return q;
}


/* The node type pattern P of QUERY starts at, read from its text SRC (the
 * query's source: the same offsets): the first node after the pattern's
 * grouping parentheses. 0 when it may start at other types: a wildcard, an
 * alternation, an anonymous node, a supertype, a pattern of siblings. */
static TSSymbol pattern_root(const TSQuery *query, uint32_t p, const char *src, size_t len) {
  if (!ts_query_is_pattern_rooted(query, p)) return 0;
  size_t i = ts_query_start_byte_for_pattern(query, p);
  for (;;) {
    while (i < len && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r')) i++;
    if (i < len && src[i] == ';') {
      while (i < len && src[i] != '\n') i++;
    } else if (i < len && src[i] == '(') {
      i++;
    } else {
      break;
    }
  }
  size_t n = 0;
  while (i + n < len && (src[i + n] == '_' || (src[i + n] >= 'a' && src[i + n] <= 'z') ||
                         (src[i + n] >= 'A' && src[i + n] <= 'Z') || (src[i + n] >= '0' && src[i + n] <= '9')))
    n++;
  if (n == 0 || (n == 1 && src[i] == '_') || (i + n < len && src[i + n] == '/')) return 0;
  const TSLanguage *lang = parse_language();
  TSSymbol s = ts_language_symbol_for_name(lang, src + i, (uint32_t)n, true);
  return s && ts_language_symbol_type(lang, s) == TSSymbolTypeRegular ? s : 0;
}


static void note_root(oom_linter *self, TSSymbol s) {
  if (!s) {
    self->any_root = true;
    return;
  }
  for (uint32_t i = 0; i < self->nroots; i++)
    if (self->roots[i] == s) return;
  self->roots = oom_xrealloc(self->roots, (self->nroots + 1) * sizeof *self->roots);
  self->roots[self->nroots++] = s;
}


static bool compile(oom_linter *self, buf *err) {
  buf src = {0};
  for (size_t i = 0; i < self->rules.len; i++) {
    oom_rule *r = self->rules.items[i];
    if (r->builtin) continue;
    r->query_offset = (uint32_t)src.len;
    buf_append(&src, r->text, r->text_len);
    buf_putc(&src, '\n');
  }
  if (src.len == 0) {
    buf_free(&src);
    return true;
  }
  uint32_t off;
  TSQueryError qe;
  self->query = compile_stubbed(&src);
  if (!self->query) self->query = ts_query_new(parse_language(), src.data, (uint32_t)src.len, &off, &qe);
  if (!self->query) {
    /* name the rule file, line and column the error is in: compile the files
     * one by one (an unclosed parenthesis shows only at the end of the whole) */
    const oom_rule *bad = NULL;
    uint32_t boff = off;
    TSQueryError bqe = qe;
    for (size_t i = 0; i < self->rules.len && !bad; i++) {
      const oom_rule *r = self->rules.items[i];
      if (r->builtin) continue;
      TSQuery *one = ts_query_new(parse_language(), r->text, (uint32_t)r->text_len, &boff, &bqe);
      if (one) ts_query_delete(one);
      else bad = r;
    }
    const char *text = bad ? bad->text : src.data;
    size_t tlen = bad ? bad->text_len : src.len;
    if (!bad) boff = off, bqe = qe;
    uint32_t line = 1, col = 1;
    for (uint32_t k = 0; k < boff && k < tlen; k++) {
      if (text[k] == '\n') line++, col = 1;
      else col++;
    }
    size_t tok = 0;
    while (boff + tok < tlen && text[boff + tok] != '\n' && text[boff + tok] != ' ' && text[boff + tok] != ')' &&
           tok < 40)
      tok++;
    buf_printf(err, "%s:%u:%u: invalid query: %s%s%.*s%s", bad ? bad->origin : "rules", line, col,
               query_error_name(bqe), tok ? " at `" : " at the end", (int)tok, text + boff, tok ? "`" : "");
    buf_free(&src);
    return false;
  }
  self->report_capture = capture_id(self->query, "report");
  self->npatterns = ts_query_pattern_count(self->query);
  self->patterns = oom_xcalloc(self->npatterns, sizeof *self->patterns);
  size_t ri = 0;
  for (uint32_t p = 0; p < self->npatterns; p++) {
    uint32_t start = ts_query_start_byte_for_pattern(self->query, p);
    /* patterns come in source order, so the owning rule only moves forward */
    for (;;) {
      size_t next = ri + 1;
      while (next < self->rules.len && self->rules.items[next]->builtin) next++;
      if (self->rules.items[ri]->builtin || (next < self->rules.len && self->rules.items[next]->query_offset <= start))
        ri = next;
      else
        break;
    }
    self->patterns[p].rule = ri;
    self->patterns[p].next_variant = -1;
    note_root(self, pattern_root(self->query, p, src.data, src.len));
    oom_rule *r = self->rules.items[ri];
    if (!predicates_compile(self->query, p, r, self->patterns, &self->patterns[p], &self->nslots, err)) {
      buf_free(&src);
      return false;
    }
  }
  group_shapes(self, &src);
  number_answers(self);
  buf_free(&src);
  for (size_t i = 0; i < self->rules.len; i++) {
    oom_rule *r = self->rules.items[i];
    if (r->builtin) continue;
    if (self->report_capture < 0 || !strstr(r->text, "@report")) {
      buf_printf(err, "%s:1: the query must capture the reported node as @report", r->origin);
      return false;
    }
    if (!resolve_tmpl(self->query, &r->message, r, "the message", err)) return false;
    for (size_t k = 0; k < r->edits.len; k++) {
      edit_spec *e = &r->edits.items[k];
      e->capture = capture_id(self->query, e->capture_name);
      buf at = {0};
      buf_printf(&at, "@%s", e->capture_name);
      bool own = strstr(r->text, buf_str(&at)) != NULL;
      buf_free(&at);
      if (e->capture < 0 || !own) {
        buf_printf(err, "%s:1: an edit targets @%s, which no pattern of this rule captures", r->origin, e->capture_name);
        return false;
      }
      if (!resolve_tmpl(self->query, &e->text, r, "an edit", err)) return false;
    }
  }
  return true;
}


oom_linter *oom_linter_load(const oom_options *options, char **error) {
  oom_linter *self = oom_xcalloc(1, sizeof *self);
  oom_options defaults = {0};
  if (!options) options = &defaults;
  buf err = {0};
  bool ok = true;
  for (const oom_embedded_file *f = oom_embedded_files; f->name && ok; f++) {
    size_t n = strlen(f->name);
    if (n < 4 || strcmp(f->name + n - 4, ".scm") != 0) continue; /* data tables */
    buf origin = {0};
    buf_printf(&origin, "rules/%s", f->name);
    ok = add_rule(self, buf_str(&origin), f->data, f->length, &err);
    buf_free(&origin);
  }
  for (size_t i = 0; i < options->rules_dirs.len && ok; i++) ok = load_dir(self, options->rules_dirs.items[i], &err);
  if (!ok) {
    if (error) *error = oom_xstrdup(buf_str(&err));
    buf_free(&err);
    oom_linter_free(self);
    return NULL;
  }
  buf_free(&err);
  if (self->rules.len > 1) qsort(self->rules.items, self->rules.len, sizeof *self->rules.items, rule_cmp);
  self->gpu_memory = options->gpu_memory;
  self->max_batch_size = options->max_batch_size;
  for (size_t i = 0; i < options->assume.len; i++) vec_push(&self->assume, oom_xstrdup(options->assume.items[i]));
  self->enabled = oom_xcalloc(self->rules.len, sizeof *self->enabled);
  for (size_t i = 0; i < self->rules.len; i++) {
    oom_rule *r = self->rules.items[i];
    self->enabled[i] = options_code_enabled(options, r->code);
    /* as Ruff: a syntax error is reported whatever the selection, unless
     * its code is ignored by name or prefix */
    if (!strcmp(r->code, "OOM000"))
      self->enabled[i] = best_match(options->ignore.items, options->ignore.len, r->code) < 0;
    if (!strcmp(r->code, "OOM000")) self->syntax_rule = r;
    if (!strcmp(r->code, "OOM001")) self->unused_noqa_rule = r;
  }
  /* a chain none of whose rules is selected need not be matched at all */
  for (uint32_t p = 0; p < self->npatterns; p++) {
    bool wanted = false;
    for (int32_t v = (int32_t)p; v >= 0 && !wanted; v = self->patterns[v].next_variant)
      wanted = self->enabled[self->patterns[v].rule];
    if (!wanted) ts_query_disable_pattern(self->query, p);
  }
  return self;
}


int oom_linter_compile(oom_linter *self, char **error) {
  if (self->compiled) return true;
  buf err = {0};
  if (!compile(self, &err)) {
    if (error) *error = oom_xstrdup(buf_str(&err));
    buf_free(&err);
    return false;
  }
  buf_free(&err);
  self->compiled = true;
  return true;
}


oom_linter *oom_linter_new(const oom_options *options, char **error) {
  oom_linter *self = oom_linter_load(options, error);
  if (self && !oom_linter_compile(self, error)) {
    oom_linter_free(self);
    return NULL;
  }
  return self;
}


void oom_linter_free(oom_linter *self) {
  if (!self) return;
  for (uint32_t p = 0; p < self->npatterns; p++) {
    predicates_free(&self->patterns[p]);
    free(self->patterns[p].capture_map);
  }
  free(self->patterns);
  free(self->roots);
  if (self->query) ts_query_delete(self->query);
  for (size_t i = 0; i < self->rules.len; i++) {
    rulefile_free(self->rules.items[i]);
    free(self->rules.items[i]);
  }
  vec_free(&self->rules);
  free_strings(self->assume.items, self->assume.len);
  free(self->enabled);
  free(self);
}


size_t oom_linter_rule_count(const oom_linter *self) {
  return self->rules.len;
}


const oom_rule *oom_linter_rule(const oom_linter *self, size_t index) {
  return index < self->rules.len ? self->rules.items[index] : NULL;
}


const oom_rule *oom_linter_find_rule(const oom_linter *self, const char *code) {
  for (size_t i = 0; i < self->rules.len; i++)
    if (!strcmp(self->rules.items[i]->code, code) || !strcmp(self->rules.items[i]->name, code))
      return self->rules.items[i];
  return NULL;
}


int oom_linter_rule_enabled(const oom_linter *self, const oom_rule *rule) {
  for (size_t i = 0; i < self->rules.len; i++)
    if (self->rules.items[i] == rule) return self->enabled[i];
  return 0;
}


const char *oom_rule_code(const oom_rule *self) { return self->code; }
const char *oom_rule_name(const oom_rule *self) { return self->name; }
oom_severity oom_rule_severity(const oom_rule *self) { return self->severity; }
const char *oom_rule_message(const oom_rule *self) { return self->message_src; }
const char *oom_rule_doc(const oom_rule *self) { return self->doc; }
const char *oom_rule_origin(const oom_rule *self) { return self->origin; }
const char *oom_rule_fix_title(const oom_rule *self) { return self->fix_title; }


const char *oom_rule_fix_applicability(const oom_rule *self) {
  return self->fix < 0 ? NULL : oom_applicability_name((oom_applicability)self->fix);
}


const char *oom_severity_name(oom_severity s) {
  switch (s) {
  case OOM_SEVERITY_ERROR: return "error";
  case OOM_SEVERITY_WARNING: return "warning";
  default: return "info";
  }
}


const char *oom_applicability_name(oom_applicability a) {
  switch (a) {
  case OOM_FIX_SAFE: return "safe";
  case OOM_FIX_UNSAFE: return "unsafe";
  default: return "display";
  }
}


/* ---- worker ---- */

oom_worker *oom_worker_new(const oom_linter *linter) {
  const char *why = NULL;
  TSParser *parser = parse_parser_new(&why);
  if (!parser) return NULL;
  oom_worker *self = oom_xcalloc(1, sizeof *self);
  self->linter = linter;
  self->parser = parser;
  self->cursor = ts_query_cursor_new();
  self->md = pcre2_match_data_create(16, NULL);
  return self;
}


void oom_worker_free(oom_worker *self) {
  if (!self) return;
  ts_parser_delete(self->parser);
  ts_query_cursor_delete(self->cursor);
  pcre2_match_data_free(self->md);
  free(self);
}
