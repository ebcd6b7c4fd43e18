/* This file contains the facts that need the whole file: name resolution
 * through imports and aliases, no-grad regions, nn.Module classes and
 * instances, and which loops run once per batch. */
#include "parse/children.h"
#include "parse/fields.h"
#include "facts/facts.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/alloc.h"

#include "parse/node.h"
#include "parse/walk.h"
#define MAX_ALIAS_HOPS 16
#define MAX_CHAIN 64


static bool text_is(const facts *f, TSNode n, const char *s) {
  return facts_node_is(f, n, s);
}


/* The binding of NAME in effect at POS: the latest one before POS, else the
 * first (a function body may use a module name bound below it). */
static const facts_binding *lookup(const facts *f, const char *name, uint32_t len, uint32_t pos) {
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  if (first == end) return NULL;
  size_t lo = first, hi = end;
  while (lo < hi) { /* the first binding at or after POS */
    size_t mid = (lo + hi) / 2;
    if (f->bindings.items[mid].pos < pos) lo = mid + 1;
    else hi = mid;
  }
  /* `model = model.RNNModel(...)`: the right side reads the binding before
   * the one it makes */
  while (lo > first + 1 && !ts_node_is_null(f->bindings.items[lo - 1].value) &&
         ts_node_start_byte(f->bindings.items[lo - 1].value) <= pos && pos < ts_node_end_byte(f->bindings.items[lo - 1].value))
    lo--;
  return lo > first ? &f->bindings.items[lo - 1] : &f->bindings.items[first];
}


/* The name or attribute chain `self.ATTR` was assigned (`self.ckpt_fn =
 * checkpoint`), when some method assigns one; else a null node. */
static TSNode self_alias(const facts *f, TSNode attr) {
  if (ts_node_is_null(attr)) return NULL_NODE;
  uint32_t len;
  const char *t = facts_text(f, attr, &len);
  for (size_t i = 0; i < f->self_aliases.len; i++) {
    TSNode a = FACT_FIELD(f, f->self_aliases.items[i].left, attribute);
    uint32_t l2;
    const char *t2 = facts_text(f, a, &l2);
    if (l2 == len && !memcmp(t, t2, len)) return f->self_aliases.items[i].right;
  }
  return NULL_NODE;
}


/* `self.x = <name or attribute chain>`: what facts_qualname follows
 * `self.x` through. Not a conditional (`checkpoint if on else lambda f, x:
 * f(x)`): a fix that passes checkpoint's arguments would break the other
 * branch. Assignments of `self.` values themselves are left out (no loops). */
static void collect_self_aliases(facts *f) {
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
    if (!NODE_IS(left, "attribute")) continue;
    if (!NODE_IS(right, "identifier") && !NODE_IS(right, "attribute")) continue;
    TSNode base = right;
    while (NODE_IS(base, "attribute")) base = FACT_FIELD(f, base, object);
    if (ts_node_is_null(base) || !NODE_IS(base, "identifier") || text_is(f, base, "self")) continue;
    facts_assign a = {left, right};
    vec_push(&f->self_aliases, a);
  }
  if (!f->self_aliases.len) return;
  /* an attribute also assigned something else (`self.ckpt_fn = lambda f, x:
   * f(x)` on another branch) holds either: not followed */
  size_t k = 0;
  for (size_t j = 0; j < f->self_aliases.len; j++) {
    facts_assign a = f->self_aliases.items[j];
    uint32_t ll, rl;
    const char *lt = facts_text(f, a.left, &ll), *rt = facts_text(f, a.right, &rl);
    bool single = true;
    for (size_t i = 0; i < f->assigns.len && single; i++) {
      TSNode left = f->assigns.items[i].left;
      uint32_t l2, r2;
      const char *t2 = facts_text(f, left, &l2);
      if (!NODE_IS(left, "attribute") || l2 != ll || memcmp(t2, lt, ll)) continue;
      const char *v2 = facts_text(f, f->assigns.items[i].right, &r2);
      single = r2 == rl && !memcmp(v2, rt, rl);
    }
    if (single) f->self_aliases.items[k++] = a;
  }
  f->self_aliases.len = k;
}


/* `torch, nn = _torch()` where `def _torch(): import torch ...; return
 * torch, nn` (a lazy import): the dotted name a function of the file
 * imports and returns at that place of every `return`, bound by B from a
 * call of it; else NULL. Only names some function imports are looked at. */
static const char *lazy_import(const facts *f, const facts_binding *b) {
  assert(b->kind != BINDING_IMPORT);
  /* most files import at module level only: nothing to look at */
  bool imported_in_function = false;
  for (size_t i = 0; i < f->function_imports.len && !imported_in_function; i++)
    imported_in_function = f->function_imports.items[i].len == b->name_len &&
                           !memcmp(f->function_imports.items[i].name, b->name, b->name_len);
  if (!imported_in_function) return NULL;
  TSNode id = ts_node_named_descendant_for_byte_range(f->root, b->pos, b->pos + b->name_len);
  if (ts_node_is_null(id) || !NODE_IS(id, "identifier")) return NULL;
  TSNode up = ts_node_parent(id);
  int index = -1;
  if (!ts_node_is_null(up) && (NODE_IS(up, "pattern_list") || NODE_IS(up, "tuple_pattern"))) {
    for (uint32_t i = 0, n = ts_node_named_child_count(up); i < n; i++)
      if (ts_node_eq(ts_node_named_child(up, i), id)) index = (int)i;
    up = ts_node_parent(up);
  }
  TSNode right = !ts_node_is_null(up) && NODE_IS(up, "assignment") ? FACT_FIELD(f, up, right) : NULL_NODE;
  if (ts_node_is_null(right) || !NODE_IS(right, "call")) return NULL;
  int g = facts_function_named(f, FACT_FIELD(f, right, function));
  if (g < 0) return NULL;
  const char *q = NULL;
  for (size_t i = 0; i < f->returns.len; i++) {
    if (f->returns.items[i].function != g) continue;
    TSNode v = ts_node_named_child(f->returns.items[i].call, 0);
    if (index >= 0)
      v = !ts_node_is_null(v) && (NODE_IS(v, "expression_list") || NODE_IS(v, "tuple")) &&
                  ts_node_named_child_count(v) > (uint32_t)index
              ? ts_node_named_child(v, (uint32_t)index)
              : NULL_NODE;
    if (ts_node_is_null(v) || !NODE_IS(v, "identifier")) return NULL;
    uint32_t len;
    const char *name = facts_text(f, v, &len);
    const facts_binding *lb = lookup(f, name, len, ts_node_start_byte(v));
    if (!lb || lb->kind != BINDING_IMPORT || facts_function_at(f, lb->pos) != g || (q && strcmp(q, lb->qualname)))
      return NULL;
    q = lb->qualname;
  }
  return q;
}


/* facts_qualname's answers by node: the same nodes are asked again and
 * again (every predicate of every match, every round of the analyses),
 * and an answer walks aliases and binary-searches the bindings. Filled
 * only once the bindings and `self.x = name` aliases are final. */
typedef struct {
  const void *id; /* the node's; NULL: an empty slot */
  char *text;     /* the qualified name; NULL: none */
} qualname_entry;

struct facts_qualname_memo {
  qualname_entry *slots;
  size_t cap, used;
};

/* The table's size at most: full, it is emptied rather than grown (the
 * answers are asked again soon after they are first made). */
#define QUALNAME_MEMO_MAX_SLOTS (1u << 14)


static void qualname_memo_clear(struct facts_qualname_memo *m) {
  for (size_t i = 0; i < m->cap; i++) free(m->slots[i].text);
  memset(m->slots, 0, m->cap * sizeof *m->slots);
  m->used = 0;
}


void facts__qualname_memo_free(struct facts_qualname_memo *m) {
  if (!m) return;
  qualname_memo_clear(m);
  free(m->slots);
  free(m);
}


static qualname_entry *qualname_slot(const struct facts_qualname_memo *m, const void *id) {
  assert(m->cap && !(m->cap & (m->cap - 1)));
  size_t i = ((uintptr_t)id >> 3) * 0x9E3779B97F4A7C15ull >> 20 & (m->cap - 1);
  while (m->slots[i].id && m->slots[i].id != id) i = (i + 1) & (m->cap - 1);
  return &m->slots[i];
}


static bool qualname_walk(const facts *self, TSNode node, buf *out);


bool facts_qualname(const facts *self, TSNode node, buf *out) {
  struct facts_qualname_memo *m = self->qualname_memo;
  if (!m || ts_node_is_null(node)) return qualname_walk(self, node, out);
  qualname_entry *e = qualname_slot(m, node.id);
  if (e->id) {
    buf_clear(out);
    if (e->text) buf_puts(out, e->text);
    return e->text != NULL;
  }
  bool found = qualname_walk(self, node, out);
  if ((m->used + 1) * 2 > m->cap) {
    if (m->cap >= QUALNAME_MEMO_MAX_SLOTS) {
      qualname_memo_clear(m);
    } else {
      struct facts_qualname_memo bigger = {oom_xcalloc(m->cap * 2, sizeof *m->slots), m->cap * 2, m->used};
      for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].id) *qualname_slot(&bigger, m->slots[i].id) = m->slots[i];
      free(m->slots);
      *m = bigger;
    }
    e = qualname_slot(m, node.id);
  }
  e->id = node.id;
  e->text = found ? oom_xstrdup(buf_str(out)) : NULL;
  m->used++;
  return found;
}


static bool qualname_walk(const facts *self, TSNode node, buf *out) {
  buf_clear(out);
  if (ts_node_is_null(node)) return false;
  if (NODE_IS(node, "call")) node = FACT_FIELD(self, node, function);
  if (ts_node_is_null(node)) return false;
  TSNode parts[MAX_CHAIN];
  size_t nparts = 0;
  uint32_t use = ts_node_start_byte(node);
  const char *base = NULL;
  for (int hop = 0; hop < MAX_ALIAS_HOPS && !base; hop++) {
    while (NODE_IS(node, "attribute")) {
      if (nparts == MAX_CHAIN) return false;
      parts[nparts++] = FACT_FIELD(self, node, attribute);
      node = FACT_FIELD(self, node, object);
      if (ts_node_is_null(node)) return false;
    }
    if (!NODE_IS(node, "identifier")) return false;
    uint32_t len;
    const char *name = facts_text(self, node, &len);
    const facts_binding *b = lookup(self, name, len, use);
    if (nparts && len == 4 && !memcmp(name, "self", 4) && self->self_aliases.len) {
      /* `self.ckpt_fn = checkpoint`, then `self.ckpt_fn(...)` */
      TSNode value = self_alias(self, parts[nparts - 1]);
      if (!ts_node_is_null(value)) {
        nparts--;
        node = value;
        use = ts_node_start_byte(value);
        continue;
      }
    }
    if (!b) {
      /* `torch` never bound in a file that star-imports a module of its
       * own (`from src.evaluation_metric import *`, which imports torch):
       * the name comes through the star import, and means torch */
      if (self->star_modules.len && len == 5 && !memcmp(name, "torch", 5)) {
        base = "torch";
        break;
      }
      return false;
    }
    if (b->kind == BINDING_IMPORT) base = b->qualname;
    else if (b->kind == BINDING_ALIAS && !ts_node_eq(b->value, node)) {
      node = b->value;
      use = b->pos;
    } else if (!(base = lazy_import(self, b))) {
      return false;
    }
  }
  if (!base) return false;
  buf_puts(out, base);
  while (nparts) {
    TSNode p = parts[--nparts];
    if (ts_node_is_null(p)) return false;
    uint32_t len;
    const char *t = facts_text(self, p, &len);
    buf_putc(out, '.');
    buf_append(out, t, len);
  }
  return true;
}


static bool qualname_is(const facts *f, TSNode node, const char *const *names, buf *tmp) {
  if (!facts_qualname(f, node, tmp)) return false;
  for (size_t i = 0; names[i]; i++)
    if (!strcmp(buf_str(tmp), names[i])) return true;
  return false;
}


static TSNode first_arg(TSNode call) {
  TSNode args = FIELD(call, arguments);
  if (ts_node_is_null(args) || ts_node_named_child_count(args) == 0) return NULL_NODE;
  return ts_node_named_child(args, 0);
}


static const char *const NO_GRAD_CONTEXTS[] = {
  "torch.no_grad", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad",
  "torch.inference_mode", "torch.autograd.inference_mode", "torch.autograd.grad_mode.inference_mode",
  NULL};
static const char *const SET_GRAD_ENABLED[] = {
  "torch.set_grad_enabled", "torch.autograd.set_grad_enabled",
  "torch.autograd.grad_mode.set_grad_enabled", NULL};


static bool contains(const char *s, size_t len, const char *needle) {
  size_t n = strlen(needle);
  for (size_t i = 0; i + n <= len; i++)
    if (!memcmp(s + i, needle, n)) return true;
  return false;
}


/* Whether FN, a name or an attribute that is not PyTorch's, is named for
 * turning gradients off: projects wrap torch.no_grad / inference_mode in
 * helpers of their own (YOLOv5's `@smart_inference_mode()`, a `maybe_no_grad`
 * context, simple-faster-rcnn's `@nograd`) defined in modules the linter
 * does not read. Precision over
 * recall: taking the name at its word may miss a wrapper that does not turn
 * them off, but reporting every model call under one would be a false alarm
 * per call. */
static bool named_for_no_grad(const facts *f, TSNode fn) {
  TSNode name = NODE_IS(fn, "attribute") ? FACT_FIELD(f, fn, attribute) : fn;
  if (ts_node_is_null(name) || !NODE_IS(name, "identifier")) return false;
  uint32_t len;
  const char *text = facts_text(f, name, &len);
  return contains(text, len, "no_grad") || contains(text, len, "nograd") || contains(text, len, "inference_mode");
}


/* Whether EXPR (a with-item value or a decorator) turns gradients off. */
static bool is_no_grad_expr(const facts *f, TSNode expr, buf *tmp);


/* Whether the with-item NAME is bound, in its function before it, to a
 * no-grad context (`context = torch.no_grad()` on one branch and
 * `torch.enable_grad()` on the other: a mode the code chooses at run time,
 * as `torch.set_grad_enabled(flag)` is). */
static bool names_no_grad(const facts *f, TSNode name, buf *tmp) {
  uint32_t len, at = ts_node_start_byte(name);
  const char *t = facts_text(f, name, &len);
  int fn = facts_function_at(f, at);
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
    if (ts_node_start_byte(left) >= at) break;
    if (!NODE_IS(left, "identifier") || !facts_text_is(f, left, t, len) ||
        facts_function_at(f, ts_node_start_byte(left)) != fn)
      continue;
    if (!NODE_IS(right, "identifier") && is_no_grad_expr(f, right, tmp)) return true;
  }
  return false;
}


/* Whether FN, the callee of a with-item or decorator, is a function of the
 * file or of the project that returns a no-grad context on every return
 * (sample-factory's `inference_context(is_serial)`, `torch.no_grad()` on
 * one branch and `torch.inference_mode()` on the other). */
static bool returns_no_grad_context(const facts *f, TSNode fn) {
  if (!NODE_IS(fn, "identifier") && !NODE_IS(fn, "attribute")) return false;
  int g = facts_function_named(f, fn);
  if (g >= 0) return f->functions.items[g].returns_no_grad;
  facts_symbol sym;
  return f->imports && facts_project_symbol(f, fn, &sym) && (sym.flags & SYM_NO_GRAD_CONTEXT);
}


/* Marks the functions of the file whose every return (one at least) is a
 * no-grad context of PyTorch's. */
static void no_grad_returns(facts *f, buf *tmp) {
  if (!f->returns.len) return;
  bool *seen = oom_xcalloc(f->functions.len + 1, sizeof *seen);
  for (size_t i = 0; i < f->returns.len; i++) {
    int g = f->returns.items[i].function;
    if (g < 0 || seen[g]) continue;
    seen[g] = true;
    bool all = false;
    for (size_t k = i; k < f->returns.len; k++) {
      if (f->returns.items[k].function != g) continue;
      TSNode v = ts_node_named_child(f->returns.items[k].call, 0);
      TSNode callee = !ts_node_is_null(v) && NODE_IS(v, "call") ? FACT_FIELD(f, v, function) : NULL_NODE;
      TSNode a0 = ts_node_is_null(callee) ? NULL_NODE : first_arg(v);
      all = !ts_node_is_null(callee) && qualname_is(f, callee, NO_GRAD_CONTEXTS, tmp) &&
            (ts_node_is_null(a0) || !NODE_IS(a0, "false"));
      if (!all) break;
    }
    f->functions.items[g].returns_no_grad = all;
  }
  free(seen);
}


static bool is_no_grad_expr(const facts *f, TSNode expr, buf *tmp) {
  /* `with (((torch.no_grad()))):` */
  for (int guard = 0; guard < 16 && NODE_IS(expr, "parenthesized_expression"); guard++)
    expr = ts_node_named_child(expr, 0);
  if (ts_node_is_null(expr)) return false;
  if (NODE_IS(expr, "identifier") && names_no_grad(f, expr, tmp)) return true;
  /* `torch.enable_grad() if use_grad else torch.no_grad()`: a mode chosen
   * at run time, as `torch.set_grad_enabled(flag)` is */
  if (NODE_IS(expr, "conditional_expression") && ts_node_named_child_count(expr) == 3)
    return is_no_grad_expr(f, ts_node_named_child(expr, 0), tmp) || is_no_grad_expr(f, ts_node_named_child(expr, 2), tmp);
  if (NODE_IS(expr, "call")) {
    TSNode fn = FACT_FIELD(f, expr, function);
    TSNode a0 = first_arg(expr);
    bool arg_false = !ts_node_is_null(a0) && NODE_IS(a0, "false");
    if (qualname_is(f, fn, NO_GRAD_CONTEXTS, tmp)) return !arg_false; /* inference_mode(False) */
    if (qualname_is(f, fn, SET_GRAD_ENABLED, tmp)) return arg_false;
    if (returns_no_grad_context(f, fn)) return true;
    return !arg_false && named_for_no_grad(f, fn);
  }
  /* `@torch.no_grad` without parentheses (PyTorch >= 2.0) */
  return qualname_is(f, expr, NO_GRAD_CONTEXTS, tmp) || named_for_no_grad(f, expr);
}


bool facts__no_grad_expr(const facts *self, TSNode expr, buf *tmp) {
  return is_no_grad_expr(self, expr, tmp);
}


static int span_start_cmp(const void *a, const void *b) {
  const facts_span *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}


/* Sorts the no-grad spans and merges them into a disjoint union: only "is
 * this position in one" is asked, by binary search. */
static void merge_no_grad(facts *f) {
  if (f->no_grad.len > 1) qsort(f->no_grad.items, f->no_grad.len, sizeof *f->no_grad.items, span_start_cmp);
  size_t k = 0;
  for (size_t i = 0; i < f->no_grad.len; i++) {
    facts_span sp = f->no_grad.items[i];
    if (k && sp.start <= f->no_grad.items[k - 1].end) {
      if (sp.end > f->no_grad.items[k - 1].end) f->no_grad.items[k - 1].end = sp.end;
    } else {
      f->no_grad.items[k++] = sp;
    }
  }
  f->no_grad.len = k;
}


/* The first method of a class of the file named as the attribute of
 * CALLEE (`obj.method`), or -1. */
static int method_by_name(const facts *f, TSNode callee) {
  TSNode attr = FACT_FIELD(f, callee, attribute);
  if (ts_node_is_null(attr)) return -1;
  uint32_t len;
  const char *name = facts_text(f, attr, &len);
  for (size_t k = facts__first_named(f, name, len); k < f->functions_by_name.len; k++) {
    const facts_fname *e = &f->functions_by_name.items[k];
    if (e->len != len || memcmp(e->name, name, len)) break;
    if (f->functions.items[e->index].klass >= 0) return e->index;
  }
  return -1;
}


/* Whether CALL (`obj.name(...)`, obj not `self`) can be a call of method M
 * by its arguments: a method that needs more than the call passes
 * (`self.net.eval()` against `def eval(self, label, z=None)`) is another
 * object's method of that name. Splats (`*args`, `**kw`) on either side fit. */
static bool call_fits(const facts *f, TSNode call, int m) {
  TSNode args = FACT_FIELD(f, call, arguments);
  TSNode params = FACT_FIELD(f, f->functions.items[m].node, parameters);
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list") || ts_node_is_null(params)) return true;
  uint32_t given = 0, n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "list_splat") || NODE_IS(a, "dictionary_splat")) return true;
    if (!NODE_IS(a, "comment")) given++;
  }
  uint32_t required = 0, positional = 0, np = ts_node_named_child_count(params);
  bool bound = false; /* the first parameter, `self`, is not passed */
  for (uint32_t i = 0; i < np; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (NODE_IS(p, "list_splat_pattern") || NODE_IS(p, "dictionary_splat_pattern")) return true;
    if (NODE_IS(p, "comment") || NODE_IS(p, "positional_separator")) continue;
    if (NODE_IS(p, "keyword_separator")) break;
    if (!bound) {
      bound = true;
      continue;
    }
    positional++;
    if (NODE_IS(p, "identifier") || NODE_IS(p, "typed_parameter")) required++;
  }
  return given >= required && given <= positional;
}


/* The method after M (an index into functions) with M's name, in the
 * order of the name index; -1 after the last. */
static int next_method_named(const facts *f, int m) {
  const facts_function *fm = &f->functions.items[m];
  bool seen = false;
  for (size_t k = facts__first_named(f, fm->name, fm->name_len); k < f->functions_by_name.len; k++) {
    const facts_fname *e = &f->functions_by_name.items[k];
    if (e->len != fm->name_len || memcmp(e->name, fm->name, e->len)) break;
    if (seen && f->functions.items[e->index].klass >= 0) return e->index;
    if (e->index == m) seen = true;
  }
  return -1;
}


/* The next plain function after H (in by-name order) with H's name and
 * enclosing function: the other definitions of a name a script defines on
 * each branch of an `if`; else -1. */
static int next_plain_named(const facts *f, int h) {
  assert(h >= 0 && (size_t)h < f->functions.len);
  const facts_function *fh = &f->functions.items[h];
  if (fh->klass >= 0) return -1;
  bool seen = false;
  for (size_t k = facts__first_named(f, fh->name, fh->name_len); k < f->functions_by_name.len; k++) {
    const facts_fname *e = &f->functions_by_name.items[k];
    if (e->len != fh->name_len || memcmp(e->name, fh->name, e->len)) break;
    const facts_function *g = &f->functions.items[e->index];
    if (seen && g->klass < 0 && g->parent == fh->parent) return e->index;
    if (e->index == h) seen = true;
  }
  return -1;
}


/* Functions of the file that are called, and only called, with gradients
 * off (an evaluator's `run_batch` called in its `evaluate` under no_grad):
 * their bodies run under their callers' no-grad region. A function handed
 * to a call (`partial(get_recog_emb, self.recog)`, `map(embed, images)`)
 * counts as called there: a callback made under no_grad runs under it. A
 * few rounds for chains of helpers. */
typedef struct {
  uint32_t pos; /* the call handed the function */
  int function; /* the function handed */
} handed_fn;
typedef VEC(handed_fn) handed_vec;


/* The name of parameter P (any of the grammar's parameter forms), or a
 * null node for `*args`, `**kwargs` and the like. */
static TSNode parameter_name(const facts *f, TSNode p) {
  if (NODE_IS(p, "identifier")) return p;
  if (NODE_IS(p, "default_parameter") || NODE_IS(p, "typed_default_parameter")) return FACT_FIELD(f, p, name);
  if (NODE_IS(p, "typed_parameter")) {
    TSNode n = ts_node_named_child(p, 0);
    return !ts_node_is_null(n) && NODE_IS(n, "identifier") ? n : NULL_NODE;
  }
  return NULL_NODE;
}


/* The parameter of G, a plain function of the file, that an argument of a
 * call of G binds: the INDEX-th positional one, or the one named KEYWORD
 * (KLEN bytes) when KEYWORD is set; a null node when none does. */
static TSNode bound_parameter(const facts *f, int g, uint32_t index, const char *keyword, uint32_t klen) {
  assert(g >= 0 && (size_t)g < f->functions.len);
  TSNode params = FACT_FIELD(f, f->functions.items[g].node, parameters);
  uint32_t np = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  for (uint32_t i = 0; i < np; i++) {
    TSNode name = parameter_name(f, ts_node_named_child(params, i));
    if (ts_node_is_null(name)) {
      if (!keyword) return NULL_NODE; /* past `*args`: positions no longer line up */
      continue;
    }
    if (keyword ? facts_text_is(f, name, keyword, klen) : i == index) return name;
  }
  return NULL_NODE;
}


TSNode facts__argument_parameter(const facts *f, int g, TSNode *a, uint32_t position) {
  if (!NODE_IS(*a, "keyword_argument")) return bound_parameter(f, g, position, NULL, 0);
  uint32_t kl;
  const char *kw = facts_text(f, FACT_FIELD(f, *a, name), &kl);
  *a = FACT_FIELD(f, *a, value);
  return bound_parameter(f, g, 0, kw, kl);
}


/* Appends to OUT, for function H handed to function G of the file as its
 * parameter PARAM, where G calls that parameter (`def evaluate(predict_fn):
 * ... with torch.no_grad(): predict_fn(x)`): each call of it in G's own
 * body runs H. Whether G calls it there at all (else the handing counts). */
static bool called_as_parameter(const facts *f, int g, TSNode param, int h, handed_vec *out) {
  assert(g >= 0 && (size_t)g < f->functions.len && h >= 0 && (size_t)h < f->functions.len);
  const facts_function *fn = &f->functions.items[g];
  uint32_t len;
  const char *name = facts_text(f, param, &len);
  bool any = false;
  for (size_t i = facts_first_call_at(f, fn->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= fn->body.end) break;
    TSNode callee = FACT_FIELD(f, c->call, function);
    if (c->function != g || !NODE_IS(callee, "identifier") || !facts_text_is(f, callee, name, len)) continue;
    handed_fn e = {ts_node_start_byte(c->call), h};
    vec_push(out, e);
    any = true;
  }
  return any;
}


/* The function nested in a function of the file that the name A, in
 * function FN, holds as that function returned it: `predict_fn, ckpt =
 * load_model(path)` where `load_model` ends `return predict_fn, ckpt` with
 * its own `def predict_fn(obs)`; -1 otherwise. */
static int returned_nested(const facts *f, TSNode a, int fn) {
  uint32_t len, at = ts_node_start_byte(a);
  const char *name = facts_text(f, a, &len);
  /* the last binding of the name before A in FN: its assignment, by the
   * node at the binding (the assignment table holds no unpacked names) */
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  uint32_t pos = 0;
  bool found = false;
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->pos < at && facts_function_at(f, b->pos) == fn && (!found || b->pos > pos)) {
      pos = b->pos;
      found = b->kind == BINDING_OTHER;
    }
  }
  if (!found) return -1;
  TSNode left = ts_node_named_descendant_for_byte_range(f->root, pos, pos + len);
  if (ts_node_is_null(left) || !NODE_IS(left, "identifier")) return -1;
  TSNode up = ts_node_parent(left);
  if (!ts_node_is_null(up) && (NODE_IS(up, "pattern_list") || NODE_IS(up, "tuple_pattern"))) {
    left = up;
    up = ts_node_parent(up);
  }
  if (ts_node_is_null(up) || !NODE_IS(up, "assignment") || !ts_node_eq(FACT_FIELD(f, up, left), left)) return -1;
  TSNode right = FACT_FIELD(f, up, right);
  if (ts_node_is_null(right) || !NODE_IS(right, "call")) return -1;
  int maker = facts_function_named(f, FACT_FIELD(f, right, function));
  if (maker < 0) return -1;
  /* which element of the returned tuples: -1 the whole value */
  int index = -1;
  uint32_t n = 0;
  if (NODE_IS(left, "pattern_list") || NODE_IS(left, "tuple_pattern")) {
    n = ts_node_named_child_count(left);
    for (uint32_t i = 0; i < n && index < 0; i++)
      if (facts_text_is(f, ts_node_named_child(left, i), name, len)) index = (int)i;
    if (index < 0) return -1;
  } else if (!NODE_IS(left, "identifier")) {
    return -1;
  }
  int nested = -1;
  for (size_t i = 0; i < f->returns.len; i++) {
    if (f->returns.items[i].function != maker) continue;
    TSNode v = ts_node_named_child(f->returns.items[i].call, 0);
    if (!ts_node_is_null(v) && index >= 0) {
      bool tuple = NODE_IS(v, "expression_list") || NODE_IS(v, "tuple");
      v = tuple && ts_node_named_child_count(v) == n ? ts_node_named_child(v, (uint32_t)index) : NULL_NODE;
    }
    if (ts_node_is_null(v) || !NODE_IS(v, "identifier")) return -1;
    int h = -1;
    for (size_t g = 0; g < f->functions.len && h < 0; g++) {
      const facts_function *c = &f->functions.items[g];
      if (c->parent == maker && facts_text_is(f, v, c->name, c->name_len)) h = (int)g;
    }
    if (h < 0 || (nested >= 0 && h != nested)) return -1;
    nested = h;
  }
  return nested;
}


/* Appends to OUT the functions of the file that call C hands as arguments
 * (`partial(helper, x)`); with ONLY set, just those marked in it. A
 * function handed to a plain function of the file that calls the
 * parameter receiving it runs where that call is (a script's
 * `evaluate(mlp_predict)` whose `predict_fn(x)` is under no_grad). */
static void handed_by(const facts *f, const facts_call *c, TSTreeCursor *cur, const bool *only, handed_vec *out) {
  TSNode args = FACT_FIELD(f, c->call, arguments);
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return;
  TSNode callee = FACT_FIELD(f, c->call, function);
  int receiver = !ts_node_is_null(callee) && NODE_IS(callee, "identifier") ? facts_function_named(f, callee) : -1;
  if (receiver >= 0 && f->functions.items[receiver].klass >= 0) receiver = -1;
  uint32_t index = 0;
  ts_tree_cursor_reset(cur, args);
  for (bool more = ts_tree_cursor_goto_first_child(cur); more; more = ts_tree_cursor_goto_next_sibling(cur)) {
    TSNode a = ts_tree_cursor_current_node(cur);
    if (!ts_node_is_named(a) || NODE_IS(a, "comment")) continue;
    const char *keyword = NULL;
    uint32_t klen = 0, at = index;
    if (NODE_IS(a, "keyword_argument")) {
      keyword = facts_text(f, FACT_FIELD(f, a, name), &klen);
      a = FACT_FIELD(f, a, value);
    } else
      index++;
    if (ts_node_is_null(a) || !(NODE_IS(a, "identifier") || NODE_IS(a, "attribute"))) continue;
    int h = facts_function_named(f, a);
    /* a closure a function of the file made and returned, handed on (the
     * name alone finds the first function nested anywhere of that name) */
    facts_span around = h >= 0 && f->functions.items[h].parent >= 0
                            ? f->functions.items[f->functions.items[h].parent].whole
                            : (facts_span){0, 0};
    bool elsewhere = around.end > around.start &&
                     (ts_node_start_byte(a) < around.start || ts_node_start_byte(a) >= around.end);
    if (NODE_IS(a, "identifier") && receiver >= 0 && (h < 0 || elsewhere)) {
      int r = returned_nested(f, a, c->function);
      if (r >= 0) h = r;
    }
    if (h < 0 && NODE_IS(a, "attribute")) {
      /* `self.pseudo.eval`, another object's bound method: every method of
       * that name in the file's classes, as for a call on that object */
      for (int m = method_by_name(f, a); m >= 0; m = next_method_named(f, m)) {
        if (m == c->function || (only && !only[m])) continue;
        handed_fn e = {ts_node_start_byte(c->call), m};
        vec_push(out, e);
      }
      continue;
    }
    TSNode param = receiver >= 0 && h >= 0 ? bound_parameter(f, receiver, at, keyword, klen) : NULL_NODE;
    /* `def predict` on each branch of an `if`: the name hands either */
    for (; h >= 0; h = next_plain_named(f, h)) {
      if (h == c->function || (only && !only[h])) continue;
      if (!ts_node_is_null(param) && called_as_parameter(f, receiver, param, h, out)) continue;
      handed_fn e = {ts_node_start_byte(c->call), h};
      vec_push(out, e);
    }
  }
}


/* The table literal PICK (a value bound in function FN) picks from: `[a,
 * b][i]`, or `TABLE[key]` where TABLE is bound last, in FN or else at module
 * level (FN -1: at module level only), to a list, tuple or dictionary
 * literal (`CUSTOM_CREATORS = {"a": make_mask, ...}`); else a null node. */
static TSNode picked_table(const facts *f, TSNode pick, int fn) {
  TSNode table = !ts_node_is_null(pick) && NODE_IS(pick, "subscript") ? FACT_FIELD(f, pick, value) : NULL_NODE;
  if (!ts_node_is_null(table) && NODE_IS(table, "identifier")) {
    uint32_t tl;
    const char *t = facts_text(f, table, &tl);
    long d = facts__last_assign_before(f, t, tl, ts_node_start_byte(table), fn);
    if (d < 0 && fn >= 0) d = facts__last_assign_before(f, t, tl, ts_node_start_byte(table), -1);
    table = d >= 0 ? f->assigns.items[d].right : NULL_NODE;
  }
  if (ts_node_is_null(table) || !(NODE_IS(table, "list") || NODE_IS(table, "tuple") || NODE_IS(table, "dictionary")))
    return NULL_NODE;
  return table;
}


/* Appends to OUT the functions of the file that call C runs through a
 * name picked from a table of them (`infer_fn = [infer_basic, infer_mirror]
 * [tta_level]`, then `infer_fn(inputs, model)`: a test-time augmentation's
 * choice), as handed there; with ONLY set, just those marked in it. The
 * table is a list, tuple or dictionary literal, written in the pick or
 * bound to a name before it. Whether C's callee is such a name. */
static bool picked_by(const facts *f, const facts_call *c, const bool *only, handed_vec *out) {
  TSNode callee = FACT_FIELD(f, c->call, function);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier") || facts_function_named(f, callee) >= 0) return false;
  uint32_t len, at = ts_node_start_byte(c->call);
  const char *name = facts_text(f, callee, &len);
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end); /* `print`, `len`: bound nowhere, no assignment to look for */
  if (first == end) return false;
  long a = facts__last_assign_before(f, name, len, at, c->function);
  TSNode table = a >= 0 ? picked_table(f, f->assigns.items[a].right, c->function) : NULL_NODE;
  if (ts_node_is_null(table)) return false;
  TSNode e;
  for (children k = children_of(table); children_next(&k, &e);) {
    if (NODE_IS(e, "pair")) e = FACT_FIELD(f, e, value);
    int h = !ts_node_is_null(e) && NODE_IS(e, "identifier") ? facts_function_named(f, e) : -1;
    if (h < 0 || h == c->function || (only && !only[h])) continue;
    handed_fn x = {at, h};
    vec_push(out, x);
  }
  return true;
}


/* The functions of the file handed to calls as arguments, or picked from a
 * table and called, found once: the rounds below only ask where those
 * calls are. First the calls in no-grad regions (few, and most files hand
 * nothing there); then, only for what they hand, every call, which tells
 * whether it is also handed with gradients on. */
static void handed_functions(const facts *f, handed_vec *out) {
  TSTreeCursor cur = ts_tree_cursor_new(f->root);
  handed_vec under = {0};
  /* the names that picked from a table under no_grad: only their calls
   * elsewhere can pick the same functions */
  enum { MAX_PICKS = 8 };
  TSNode picks[MAX_PICKS];
  size_t npicks = 0;
  bool *calls_parameter = NULL; /* per function: calls a parameter of its own under no_grad */
  for (size_t r = 0; r < f->no_grad.len; r++)
    for (size_t i = facts_first_call_at(f, f->no_grad.items[r].start); i < f->calls.len; i++) {
      const facts_call *c = &f->calls.items[i];
      if (ts_node_start_byte(c->call) >= f->no_grad.items[r].end) break;
      handed_by(f, c, &cur, NULL, &under);
      if (picked_by(f, c, NULL, &under) && npicks < MAX_PICKS) picks[npicks++] = FACT_FIELD(f, c->call, function);
      /* `predict_fn(x)` of a parameter under no_grad: what the function's
       * callers hand it (below) */
      TSNode callee = FACT_FIELD(f, c->call, function);
      if (c->function < 0 || ts_node_is_null(callee) || !NODE_IS(callee, "identifier") ||
          f->functions.items[c->function].klass >= 0)
        continue;
      uint32_t len;
      const char *name = facts_text(f, callee, &len);
      /* a parameter, even where a function nested elsewhere has its name */
      if (facts__parameter_of(f, name, len, c->function)) {
        if (!calls_parameter) calls_parameter = oom_xcalloc(f->functions.len, sizeof *calls_parameter);
        calls_parameter[c->function] = true;
      }
    }
  for (size_t i = 0; calls_parameter && i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    TSNode callee = FACT_FIELD(f, c->call, function);
    int g = !ts_node_is_null(callee) && NODE_IS(callee, "identifier") ? facts_function_named(f, callee) : -1;
    if (g >= 0 && calls_parameter[g]) handed_by(f, c, &cur, NULL, &under);
  }
  free(calls_parameter);
  if (under.len) {
    bool *only = oom_xcalloc(f->functions.len, sizeof *only);
    for (size_t i = 0; i < under.len; i++) only[under.items[i].function] = true;
    for (size_t i = 0; i < f->calls.len; i++) {
      const facts_call *c = &f->calls.items[i];
      handed_by(f, c, &cur, only, out);
      TSNode callee = FACT_FIELD(f, c->call, function);
      if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier")) continue;
      uint32_t len;
      const char *name = facts_text(f, callee, &len);
      for (size_t p = 0; p < npicks; p++)
        if (facts_text_is(f, picks[p], name, len)) {
          picked_by(f, c, only, out);
          break;
        }
    }
    free(only);
  }
  vec_free(&under);
  ts_tree_cursor_delete(&cur);
}


/* Whether function I is one Python calls by itself (`__call__`, `__iter__`):
 * who calls it is not in the code. (A module's `forward`, which `__call__`
 * runs, is left out by the project lookups, which know its bases.) */
static bool called_implicitly(const facts *f, size_t i) {
  const facts_function *fn = &f->functions.items[i];
  return fn->name_len > 4 && fn->name[0] == '_' && fn->name[1] == '_';
}


/* How the methods of the file's classes are called on `self` by the
 * methods of their bases in other modules of the project (a BaseModel's
 * `test()` running `self.forward()` under no_grad): FACTS_CALLED_* per
 * function, or NULL when no class has such a base. */
static uint8_t *calls_from_bases(const facts *f, buf *tmp) {
  if (!f->imports || !f->imports->base_calls || !f->classes.len) return NULL;
  enum { MAX_BASES = 4 };
  /* per class, once: its bases that are classes of the project (most
   * classes have none: nn.Module, a library's) */
  char *(*bases)[MAX_BASES] = oom_xcalloc(f->classes.len, sizeof *bases);
  bool any = false;
  buf q = {0};
  for (size_t k = 0; k < f->classes.len; k++) {
    const facts_class *c = &f->classes.items[k];
    uint32_t count = ts_node_is_null(c->bases) ? 0 : ts_node_named_child_count(c->bases), n = 0;
    for (uint32_t j = 0; j < count && n < MAX_BASES; j++) {
      TSNode base = ts_node_named_child(c->bases, j);
      facts_symbol sym;
      if (facts_base_kind(f, &base, tmp) != FACTS_BASE_OTHER || !facts_qualname(f, base, &q) ||
          !strncmp(buf_str(&q), "torch.", 6) || !f->imports->lookup(f->imports, q.data, q.len, &sym) ||
          !(sym.flags & SYM_CLASS))
        continue;
      bases[k][n++] = oom_xstrndup(q.data, q.len);
      any = true;
    }
  }
  buf_free(&q);
  uint8_t *ext = NULL;
  for (size_t i = 0; any && i < f->functions.len; i++) {
    const facts_function *fn = &f->functions.items[i];
    if (fn->klass < 0 || fn->parent >= 0 || !bases[fn->klass][0] || called_implicitly(f, i)) continue;
    for (int j = 0; j < MAX_BASES && bases[fn->klass][j]; j++) {
      const char *b = bases[fn->klass][j];
      uint8_t how = f->imports->base_calls(f->imports, b, strlen(b), fn->name, fn->name_len);
      if (!how) continue;
      if (!ext) ext = oom_xcalloc(f->functions.len, 1);
      ext[i] |= how;
    }
  }
  for (size_t k = 0; k < f->classes.len; k++)
    for (int j = 0; j < MAX_BASES; j++) free(bases[k][j]);
  free(bases);
  return ext;
}


/* Whether a class of the file defines `__call__` (most define none). */
static bool defines_call_method(const facts *f) {
  size_t k = facts__first_named(f, "__call__", 8);
  return k < f->functions_by_name.len && f->functions_by_name.items[k].len == 8 &&
         !memcmp(f->functions_by_name.items[k].name, "__call__", 8);
}


/* The `__call__` of the file's class K named by the call R (`K(...)`), or
 * -1. */
static int call_method_of_class(const facts *f, TSNode r) {
  TSNode klass = NODE_IS(r, "call") ? FACT_FIELD(f, r, function) : NULL_NODE;
  if (ts_node_is_null(klass) || !NODE_IS(klass, "identifier")) return -1;
  for (size_t k = facts__first_named(f, "__call__", 8); k < f->functions_by_name.len; k++) {
    const facts_fname *e = &f->functions_by_name.items[k];
    if (e->len != 8 || memcmp(e->name, "__call__", 8)) break;
    int kl = f->functions.items[e->index].klass;
    if (kl >= 0 && f->classes.items[kl].name &&
        facts_text_is(f, klass, f->classes.items[kl].name, f->classes.items[kl].name_len))
      return e->index;
  }
  return -1;
}


/* The `__call__` method of the file's class that CALLEE, a plain name, was
 * last bound to an instance of before call C (`single_scale = MscEval()`,
 * then `single_scale(net, loader)`), else -1. Most files define no
 * `__call__`: nothing to look up. */
static int instance_call_method(const facts *f, const facts_call *c, TSNode callee) {
  if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier") || !defines_call_method(f)) return -1;
  uint32_t len;
  const char *name = facts_text(f, callee, &len);
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  if (first == end) return -1; /* `print`, `len`: never bound here */
  long a = facts__last_assign_before(f, name, len, ts_node_start_byte(c->call), c->function);
  if (a < 0) return -1;
  return call_method_of_class(f, f->assigns.items[a].right);
}


enum { MAX_INSTANCE_METHODS = 8 };

/* The `__call__` methods of the file's classes whose instances the
 * parameter NAME (LEN bytes) of the plain function FN receives, added to
 * OUT (*N of them): every call of FN in the file hands it, at that
 * parameter's place, a name bound only to instances of such classes
 * (`oracle = CelebaOracle(...)` on one branch, `CelebaHQOracle(...)` on
 * the other) or a parameter of its own caller that receives them, up to
 * DEPTH functions up. False when some call hands anything else. */
static bool parameter_instances(const facts *f, int fn, const char *name, uint32_t len, int depth, int *out,
                                size_t *n) {
  if (fn < 0 || depth > 3) return false;
  const facts_function *g = &f->functions.items[fn];
  if (g->klass >= 0 || g->parent >= 0) return false;
  TSNode params = FACT_FIELD(f, g->node, parameters);
  uint32_t index = 0, np = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  for (; index < np; index++)
    if (facts_text_is(f, ts_node_named_child(params, index), name, len)) break;
  if (index == np) return false; /* not a plain positional parameter */
  bool any = false;
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *d = &f->calls.items[i];
    if (facts_function_named(f, FACT_FIELD(f, d->call, function)) != fn) continue;
    TSNode args = FACT_FIELD(f, d->call, arguments);
    if (ts_node_is_null(args) || index >= ts_node_named_child_count(args)) return false;
    TSNode a = ts_node_named_child(args, index);
    if (!NODE_IS(a, "identifier")) return false;
    uint32_t alen;
    const char *an = facts_text(f, a, &alen);
    uint32_t at = ts_node_start_byte(d->call);
    bool bound = false;
    for (size_t k = 0; k < f->assigns.len && ts_node_start_byte(f->assigns.items[k].left) < at; k++) {
      TSNode left = f->assigns.items[k].left;
      if (!NODE_IS(left, "identifier") || !facts_text_is(f, left, an, alen) ||
          facts_function_at(f, ts_node_start_byte(left)) != d->function)
        continue;
      int m = call_method_of_class(f, f->assigns.items[k].right);
      if (m < 0 || *n >= MAX_INSTANCE_METHODS) return false;
      out[(*n)++] = m;
      bound = true;
    }
    if (!bound && !parameter_instances(f, d->function, an, alen, depth + 1, out, n)) return false;
    any = true;
  }
  return any;
}


static bool in_names_list(const char *s, size_t len, const char *const *names);


/* For call C of another module's function, the `__call__` of each class
 * of the file whose instance an argument names (bound to one in C's
 * function before it: `avg_model = AverageModel(paths)` then
 * `utils.test(avg_model, loader)`) counts that function as a caller: under
 * no_grad when its summary says it calls its parameters only there
 * (SYM_RUNS_HANDED_NO_GRAD), with gradients otherwise. */
static void hands_instances(const facts *f, const facts_call *c, TSNode callee, unsigned char *state) {
  TSNode args = FACT_FIELD(f, c->call, arguments), a;
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return;
  uint32_t at = ts_node_start_byte(c->call);
  unsigned char how = 0;
  for (children it = children_of(args); children_next(&it, &a);) {
    if (!NODE_IS(a, "identifier")) continue;
    uint32_t len;
    const char *name = facts_text(f, a, &len);
    int m = -1;
    for (size_t k = 0; k < f->instance_assigns.len; k++) {
      const facts_assign *as = &f->assigns.items[f->instance_assigns.items[k]];
      if (ts_node_start_byte(as->left) >= at) break;
      if (NODE_IS(as->left, "identifier") && facts_text_is(f, as->left, name, len) &&
          facts_function_at(f, ts_node_start_byte(as->left)) == c->function)
        m = call_method_of_class(f, as->right);
    }
    if (m < 0) continue;
    if (!how) {
      facts_symbol sym;
      how = facts_project_symbol(f, callee, &sym) && (sym.flags & SYM_FUNCTION) && (sym.flags & SYM_RUNS_HANDED_NO_GRAD) &&
                    !(sym.flags & SYM_BACKWARD)
                ? FACTS_CALLED_NO_GRAD
                : FACTS_CALLED_GRAD;
    }
    state[m] |= how;
  }
}


static void no_grad_from_callers(facts *f, buf *tmp) {
  if (f->imports) f->importer_no_grad = oom_xcalloc(f->functions.len + 1, 1);
  if (!f->functions.len) return;
  uint8_t *ext = calls_from_bases(f, tmp);
  f->base_called = ext; /* kept: facts_returned_to_importers_backward reads it */
  bool calls_instances = defines_call_method(f);
  /* no no_grad in the file: only another module's function run under its
   * own can make a caller so (`utils.test(avg_model, loader)`) */
  if (!f->no_grad.len && !ext && !(calls_instances && f->imports)) return;
  unsigned char *state = oom_xcalloc(f->functions.len, 1); /* FACTS_CALLED_* */
  handed_vec handed = {0};
  handed_functions(f, &handed);
  for (int round = 0; round < 3; round++) {
    memset(state, 0, f->functions.len);
    for (size_t i = 0; i < f->calls.len; i++) {
      const facts_call *c = &f->calls.items[i];
      TSNode callee = FACT_FIELD(f, c->call, function);
      int g = facts_function_named(f, callee);
      if (g < 0) g = instance_call_method(f, c, callee);
      if (g < 0 && calls_instances && NODE_IS(callee, "identifier") && c->function >= 0) {
        /* `oracle(x)` of a parameter: the `__call__` of each class of the
         * file whose instances the function's callers hand it */
        int methods[MAX_INSTANCE_METHODS];
        size_t nm = 0;
        uint32_t plen;
        const char *pname = facts_text(f, callee, &plen);
        if (parameter_instances(f, c->function, pname, plen, 0, methods, &nm)) {
          unsigned char how = facts_in_no_grad(f, ts_node_start_byte(c->call)) ? FACTS_CALLED_NO_GRAD : FACTS_CALLED_GRAD;
          for (size_t m = 0; m < nm; m++) state[methods[m]] |= how;
          continue;
        }
      }
      /* `utils.test(avg_model, loader)`: another module's function handed
       * an instance of a class of the file calls its `__call__` */
      if (g < 0 && calls_instances && f->imports) hands_instances(f, c, callee, state);
      /* `encoder.pred_imglist(...)`: a method of the file called on another
       * object counts as one of its callers */
      unsigned char how = 0;
      if (g < 0 && !ts_node_is_null(callee) && NODE_IS(callee, "attribute")) {
        /* `self.generator.eval()`, `model.train()`: a module's own mode
         * switch, whatever methods of those names the file's classes define
         * (a trainer's `eval`, run under no_grad by its `train`) */
        static const char *const module_api[] = {"eval", "train", "to", "cuda", "cpu", "half", "float", "double",
                                                 "zero_grad", "parameters", "state_dict", "load_state_dict", NULL};
        TSNode attr = FACT_FIELD(f, callee, attribute);
        uint32_t al = 0;
        const char *an = ts_node_is_null(attr) ? "" : facts_text(f, attr, &al);
        if (in_names_list(an, al, module_api)) continue;
        /* `handler.eval_batch(...)`: every method of that name in the
         * file's classes (each handler class defines its own) */
        g = method_by_name(f, callee);
        for (int m = g; m >= 0; m = next_method_named(f, m)) {
          if (m == c->function || !call_fits(f, c->call, m)) continue;
          if (!how)
            how = facts_in_no_grad(f, ts_node_start_byte(c->call)) || facts_hands_only_frozen_models(f, c->call)
                      ? FACTS_CALLED_NO_GRAD
                      : FACTS_CALLED_GRAD;
          state[m] |= how;
        }
        continue;
      }
      if (g < 0 || g == c->function) continue;
      how = facts_in_no_grad(f, ts_node_start_byte(c->call)) || facts_hands_only_frozen_models(f, c->call)
                ? FACTS_CALLED_NO_GRAD
                : FACTS_CALLED_GRAD;
      /* `self.predict(model, x)` in a base class that does not define it:
       * the override of each subclass of the file (the name alone picks
       * the first) */
      int klass = c->function >= 0 ? f->functions.items[c->function].klass : -1;
      if (klass >= 0 && f->functions.items[g].klass >= 0 && f->functions.items[g].klass != klass &&
          NODE_IS(callee, "attribute") && facts_node_is(f, FACT_FIELD(f, callee, object), "self")) {
        int own = -1;
        for (int m = g; m >= 0 && own < 0; m = next_method_named(f, m))
          if (f->functions.items[m].klass == klass) own = m;
        for (int m = own >= 0 ? own : g; m >= 0; m = own >= 0 ? -1 : next_method_named(f, m))
          if (m != c->function && call_fits(f, c->call, m)) state[m] |= how;
        continue;
      }
      state[g] |= how;
    }
    for (size_t i = 0; i < handed.len; i++)
      state[handed.items[i].function] |=
          facts_in_no_grad(f, handed.items[i].pos) ? FACTS_CALLED_NO_GRAD : FACTS_CALLED_GRAD;
    /* the bases' calls speak only for what the file never calls: a base's
     * method calling it with gradients on may itself run under its own
     * callers' no_grad, which its module alone does not tell */
    for (size_t i = 0; ext && i < f->functions.len; i++)
      if (!state[i]) state[i] = ext[i];
    bool added = false;
    for (size_t i = 0; i < f->functions.len; i++) {
      facts_function *fn = &f->functions.items[i];
      if (state[i] != FACTS_CALLED_NO_GRAD || fn->no_grad) continue;
      fn->no_grad = fn->no_grad_by_callers = added = true;
      vec_push(&f->no_grad, fn->body);
    }
    if (!added) break;
    merge_no_grad(f);
  }
  vec_free(&handed);
  free(state);
}


/* Whether function FN of the file is called in it: by its name, as a
 * method of another object of the file's classes, or handed to a call. */
/* Whether method FN overrides method G: the same name, in a class of the
 * file that names G's class among its bases (`self.unit_test(data)` in a
 * base trainer's `test` runs the subclass's `unit_test`). */
static bool overrides(const facts *f, int fn, int g) {
  const facts_function *a = &f->functions.items[fn], *b = &f->functions.items[g];
  if (a->klass < 0 || b->klass < 0 || a->klass == b->klass || a->name_len != b->name_len ||
      memcmp(a->name, b->name, a->name_len) != 0)
    return false;
  const facts_class *k = &f->classes.items[a->klass], *base = &f->classes.items[b->klass];
  uint32_t n = ts_node_is_null(k->bases) ? 0 : ts_node_named_child_count(k->bases);
  for (uint32_t i = 0; i < n; i++) {
    TSNode e = ts_node_named_child(k->bases, i);
    if (NODE_IS(e, "identifier") && base->name && facts_text_is(f, e, base->name, base->name_len)) return true;
  }
  return false;
}


static bool called_in_file(const facts *f, int fn) {
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    TSNode callee = FACT_FIELD(f, c->call, function);
    int g = facts_function_named(f, callee);
    if (g < 0 && !ts_node_is_null(callee) && NODE_IS(callee, "attribute")) g = method_by_name(f, callee);
    if (g < 0) g = instance_call_method(f, c, callee);
    if ((g == fn || (g >= 0 && overrides(f, fn, g))) && c->function != fn) return true;
  }
  handed_vec handed = {0};
  handed_functions(f, &handed);
  bool found = false;
  for (size_t i = 0; i < handed.len && !found; i++) found = handed.items[i].function == fn;
  vec_free(&handed);
  return found;
}


bool facts_hands_only_frozen_models(const facts *f, TSNode call) {
  /* most files freeze nothing: nothing to ask */
  if (!f->freezes.len && !f->freezes_any) return false;
  TSNode args = FACT_FIELD(f, call, arguments);
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return false;
  uint32_t n = ts_node_named_child_count(args), frozen = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "keyword_argument")) a = FACT_FIELD(f, a, value);
    if (ts_node_is_null(a) || !NODE_IS(a, "identifier") || !facts_is_model(f, a)) continue;
    /* a trained model beside it (a distillation step's student) keeps its gradients */
    if (!facts_is_frozen(f, a)) return false;
    frozen++;
  }
  return frozen > 0;
}


static bool importers_no_grad(const facts *f, int fn, int depth);


/* Whether every call of function FN in the file runs under no_grad or in
 * a function the importers run only under no_grad (`predict_score` called
 * only by `forward_test`, which the training script calls under
 * `th.no_grad()`): one or two hops. */
static bool in_file_callers_no_grad(const facts *f, int fn, int depth) {
  if (depth >= 2) return false;
  bool any = false;
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    TSNode callee = FACT_FIELD(f, c->call, function);
    int g = facts_function_named(f, callee);
    if (g < 0 && !ts_node_is_null(callee) && NODE_IS(callee, "attribute")) g = method_by_name(f, callee);
    if (g < 0) g = instance_call_method(f, c, callee);
    if ((g != fn && !(g >= 0 && overrides(f, fn, g))) || c->function == fn) continue;
    any = true;
    if (facts_in_no_grad(f, ts_node_start_byte(c->call)) || facts_hands_only_frozen_models(f, c->call)) continue;
    int h = c->function;
    if (h < 0) return false;
    while (f->functions.items[h].parent >= 0) h = f->functions.items[h].parent;
    if (h == fn || !importers_no_grad(f, h, depth + 1)) return false;
  }
  return any;
}


static bool importers_no_grad(const facts *f, int fn, int depth) {
  uint8_t *memo = &f->importer_no_grad[fn];
  if (!*memo) {
    *memo = 1; /* a cycle of callers says no */
    const facts_function *g = &f->functions.items[fn];
    bool yes = false;
    bool call_method = g->klass >= 0 && g->name_len == 8 && !memcmp(g->name, "__call__", 8) &&
                       f->classes.items[g->klass].name;
    if (!g->no_grad && (call_method || !called_implicitly(f, (size_t)fn))) {
      if (call_method && !called_in_file(f, fn)) {
        /* the calls of the class's instances in its importers
         * (`extractor = Extractor(d)`, then `extractor(x)` under no_grad) */
        const facts_class *k = &f->classes.items[g->klass];
        buf key = {0};
        buf_printf(&key, "%.*s.__call__", (int)k->name_len, k->name);
        yes = f->imports->importer_calls(f->imports, key.data, key.len) == FACTS_CALLED_NO_GRAD;
        buf_free(&key);
      } else if (!called_in_file(f, fn))
        yes = f->imports->importer_calls(f->imports, g->name, g->name_len) == FACTS_CALLED_NO_GRAD;
      else
        yes = in_file_callers_no_grad(f, fn, depth);
    }
    *memo = yes ? 2 : 1;
  }
  return *memo == 2;
}


bool facts_no_grad_in_importers(const facts *self, uint32_t pos) {
  if (!self->imports || !self->imports->importer_calls || !self->importer_no_grad) return false;
  int fn = facts_function_at(self, pos);
  if (fn < 0) return false;
  while (self->functions.items[fn].parent >= 0) fn = self->functions.items[fn].parent;
  return importers_no_grad(self, fn, 0);
}


/* The annotation of NAME (an identifier) when it is a parameter of
 * function FN written with one (`model: Model`): the type's expression, or
 * a null node. */
static TSNode parameter_annotation(const facts *f, TSNode name, int fn) {
  if (fn < 0) return NULL_NODE;
  TSNode params = FACT_FIELD(f, f->functions.items[fn].node, parameters);
  uint32_t pl, len;
  /* most parameter lists annotate nothing: no `:` in their text */
  const char *pt = ts_node_is_null(params) ? NULL : facts_text(f, params, &pl);
  if (!pt || !memchr(pt, ':', pl)) return NULL_NODE;
  uint32_t n = ts_node_named_child_count(params);
  const char *t = facts_text(f, name, &len);
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (!NODE_IS(p, "typed_parameter") && !NODE_IS(p, "typed_default_parameter")) continue;
    TSNode id = NODE_IS(p, "typed_parameter") ? ts_node_named_child(p, 0) : FACT_FIELD(f, p, name);
    if (ts_node_is_null(id) || !NODE_IS(id, "identifier") || !facts_text_is(f, id, t, len)) continue;
    TSNode type = FACT_FIELD(f, p, type);
    if (!ts_node_is_null(type) && ts_node_named_child_count(type)) type = ts_node_named_child(type, 0);
    return type;
  }
  return NULL_NODE;
}


/* Whether NAME, an identifier, is a parameter of function FN annotated with
 * a class (`model: Model`): OUT then holds the class's qualified name. */
bool facts__annotated_class(const facts *f, TSNode name, int fn, buf *out) {
  TSNode type = parameter_annotation(f, name, fn);
  buf_clear(out);
  return !ts_node_is_null(type) && (NODE_IS(type, "identifier") || NODE_IS(type, "attribute")) &&
         facts_qualname(f, type, out);
}


/* Whether METHOD (MLEN bytes) is a hook Lightning runs under no_grad
 * (`test_step`): a summary says so of it, but a direct call runs with
 * gradients on. */
static bool lightning_hook(const char *method, uint32_t mlen) {
  static const char *const hooks[] = {"validation_step", "test_step", "predict_step", NULL};
  for (size_t i = 0; hooks[i]; i++)
    if (strlen(hooks[i]) == mlen && !memcmp(hooks[i], method, mlen)) return true;
  return false;
}


/* Whether a class of the file defines a method METHOD (MLEN bytes) that
 * runs with gradients on. */
static bool own_method_with_grad(const facts *f, const char *method, uint32_t mlen) {
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *g = &f->functions.items[i];
    if (g->klass >= 0 && g->name_len == mlen && !memcmp(g->name, method, mlen) && !g->no_grad) return true;
  }
  return false;
}


bool facts_no_grad_method_call(const facts *self, uint32_t pos) {
  if (!self->imports || !self->imports->method_symbol) return false;
  /* the calls starting at POS, outermost first (`m.encode(x).cpu()` holds
   * `m.encode(x)`): the innermost is the method call asked about */
  size_t i = facts_first_call_at(self, pos);
  if (i >= self->calls.len || ts_node_start_byte(self->calls.items[i].call) != pos) return false;
  while (i + 1 < self->calls.len && ts_node_start_byte(self->calls.items[i + 1].call) == pos) i++;
  TSNode callee = FACT_FIELD(self, self->calls.items[i].call, function);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return false;
  TSNode obj = FACT_FIELD(self, callee, object), attr = FACT_FIELD(self, callee, attribute);
  if (ts_node_is_null(obj) || ts_node_is_null(attr) || facts_node_is(self, obj, "self") ||
      !(NODE_IS(obj, "identifier") ||
        (NODE_IS(obj, "attribute") && facts_node_is(self, FACT_FIELD(self, obj, object), "self"))))
    return false;
  uint32_t len, mlen;
  const char *name = facts_text(self, obj, &len), *method = facts_text(self, attr, &mlen);
  /* the class every assignment of the name builds (through `.cuda()`-like
   * chains), or names as the type of the parameter it is bound to
   * (`def __init__(self, model: Model): self._model = model`) */
  static const char *const same[] = {"to", "cuda", "cpu", "train", "eval", "half", "float", "double", NULL};
  buf q = {0}, first = {0};
  bool agree = true;
  /* a parameter annotated with its class (`def report(trainer: Trainer)`)
   * is that class in its function, whatever the name is bound to elsewhere
   * in the file (`trainer = make_model(config)` in main) */
  int scope = facts_function_at(self, pos);
  bool annotated = NODE_IS(obj, "identifier") && facts__annotated_class(self, obj, scope, &q);
  if (annotated) buf_puts(&first, buf_str(&q));
  facts_span body = annotated && scope >= 0 ? self->functions.items[scope].body : (facts_span){0, UINT32_MAX};
  for (size_t k = 0; k < self->assigns.len && agree; k++) {
    TSNode left = self->assigns.items[k].left;
    if (!(NODE_IS(left, "identifier") || NODE_IS(left, "attribute")) || !facts_text_is(self, left, name, len)) continue;
    if (ts_node_start_byte(left) < body.start || ts_node_start_byte(left) >= body.end) continue;
    TSNode value = self->assigns.items[k].right;
    buf_clear(&q);
    if (NODE_IS(value, "identifier") &&
        facts__annotated_class(self, value, facts_function_at(self, ts_node_start_byte(left)), &q)) {
      if (!first.len) buf_puts(&first, buf_str(&q));
      else agree = !strcmp(buf_str(&first), buf_str(&q));
      continue;
    }
    for (int guard = 0; guard < 8 && NODE_IS(value, "call"); guard++) {
      TSNode fn = FACT_FIELD(self, value, function);
      if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) break;
      bool chained = false;
      for (size_t j = 0; same[j] && !chained; j++) chained = facts_node_is(self, FACT_FIELD(self, fn, attribute), same[j]);
      if (!chained) break;
      value = FACT_FIELD(self, fn, object);
    }
    /* `gcn = gcn.to(device)`: the same instance, moved */
    if (NODE_IS(value, "identifier") && facts_text_is(self, value, name, len)) continue;
    buf_clear(&q);
    if (!NODE_IS(value, "call") || !facts_qualname(self, FACT_FIELD(self, value, function), &q)) agree = false;
    else if (!first.len) buf_puts(&first, buf_str(&q));
    else agree = !strcmp(buf_str(&first), buf_str(&q));
  }
  facts_symbol sym;
  bool yes = agree && first.len &&
             self->imports->method_symbol(self->imports, first.data, first.len, method, mlen, &sym) &&
             (sym.flags & SYM_FUNCTION) && (sym.flags & SYM_NO_GRAD);
  /* no class known for the object (a parameter, a loader's result): the
   * project's methods of that name, when every one of them runs without
   * gradients (RQ-VAE's `@torch.no_grad() decode_code`) and the file
   * defines none with them; for names particular enough to be looked for
   * in every module (`decode_code`, not `predict`) */
  if (!yes && (!agree || !first.len) && self->imports->method_no_grad_anywhere && mlen >= 8 &&
      memchr(method, '_', mlen) && !lightning_hook(method, mlen) && !own_method_with_grad(self, method, mlen))
    yes = self->imports->method_no_grad_anywhere(self->imports, method, mlen);
  buf_free(&q);
  buf_free(&first);
  return yes;
}


bool facts_class_has_bases(const facts *f, const facts_class *k) {
  if (ts_node_is_null(k->bases)) return false;
  uint32_t n = ts_node_named_child_count(k->bases);
  for (uint32_t j = 0; j < n; j++)
    if (!facts_node_is(f, ts_node_named_child(k->bases, j), "object")) return true;
  return false;
}


/* `torch.set_grad_enabled(False)` as a statement of a function's own body,
 * never turned back on there (OFF, the span it holds, reaches the body's
 * end): the mode outlives the call (a script's `setup(args)` turns
 * gradients off for good). What follows each call of that function in the
 * caller's block runs without gradients too. */
static void grad_off_after_calls(facts *f, facts_span off) {
  assert(off.start <= off.end && off.start > 0);
  /* the statement's last byte: OFF starts where it ends, which is the end
   * of the function when it is the last statement */
  int g = facts_function_at(f, off.start - 1);
  if (g < 0 || f->functions.items[g].body.end != off.end) return;
  const facts_function *fn = &f->functions.items[g];
  /* a class whose `__init__` turns gradients off (an inference wrapper's
   * `torch.autograd.set_grad_enabled(False)` after loading its model): its
   * other methods run on an instance, so after it, unless the file turns
   * gradients back on somewhere */
  if (fn->klass >= 0) {
    if (fn->name_len != 8 || memcmp(fn->name, "__init__", 8) != 0 || f->set_grad_true.len) return;
    for (size_t h = 0; h < f->functions.len; h++)
      if ((int)h != g && f->functions.items[h].klass == fn->klass) vec_push(&f->no_grad, f->functions.items[h].body);
    return;
  }
  for (size_t i = 0; i < f->calls.len; i++) {
    TSNode callee = FACT_FIELD(f, f->calls.items[i].call, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier") ||
        !facts_text_is(f, callee, fn->name, fn->name_len) || facts_function_named(f, callee) != g)
      continue;
    /* the statement making the call, and the block holding it */
    TSNode stmt = facts__statement_of(f->calls.items[i].call);
    TSNode block = ts_node_is_null(stmt) ? NULL_NODE : ts_node_parent(stmt);
    if (ts_node_is_null(block)) continue;
    facts_span rest = {ts_node_end_byte(stmt), ts_node_end_byte(block)};
    if (rest.start < rest.end) vec_push(&f->no_grad, rest);
  }
}


/* A lambda handed to a function that runs without gradients (decorated
 * `@torch.no_grad()`, in the file or, by its summary, in another module of
 * the project: `audio2video(a2l=lambda x: G(x), ...)`) runs in that
 * function: its body is a no-grad region. The decorated functions of the
 * file must be known (fn->no_grad) before this runs. Found from each
 * `lambda` keyword of the source up to its call: most files hold none. */
static void lambdas_handed_to_no_grad(facts *f) {
  const char *src = f->source;
  size_t n = f->length;
  for (size_t i = 0; i + 6 <= n; i++) {
    const char *hit = memchr(src + i, 'l', n - i - 5);
    if (!hit) break;
    i = (size_t)(hit - src);
    if (memcmp(hit, "lambda", 6) != 0) continue;
    TSNode kw = ts_node_descendant_for_byte_range(f->root, (uint32_t)i, (uint32_t)i + 6);
    TSNode lam = ts_node_is_null(kw) ? kw : ts_node_parent(kw);
    if (ts_node_is_null(lam) || !NODE_IS(lam, "lambda") || ts_node_start_byte(lam) != i) continue;
    TSNode up = ts_node_parent(lam);
    if (!ts_node_is_null(up) && NODE_IS(up, "keyword_argument")) up = ts_node_parent(up);
    if (ts_node_is_null(up) || !NODE_IS(up, "argument_list")) continue;
    TSNode call = ts_node_parent(up);
    TSNode callee = ts_node_is_null(call) ? call : FACT_FIELD(f, call, function);
    if (ts_node_is_null(callee) || !(NODE_IS(callee, "identifier") || NODE_IS(callee, "attribute"))) continue;
    int g = facts_function_named(f, callee);
    facts_symbol sym;
    bool off = g >= 0 ? f->functions.items[g].no_grad
                      : f->imports && facts_project_symbol(f, callee, &sym) && (sym.flags & SYM_FUNCTION) &&
                            (sym.flags & SYM_NO_GRAD);
    TSNode body = FACT_FIELD(f, lam, body);
    if (!off || ts_node_is_null(body)) continue;
    facts_span sp = {ts_node_start_byte(body), ts_node_end_byte(body)};
    vec_push(&f->no_grad, sp);
  }
}


/* `with torch.enable_grad():` (or `torch.set_grad_enabled(True)`) turns
 * gradients back on inside a no-grad region: a script that switches them
 * off for all of `main()` (`torch.set_grad_enabled(False)`) and trains in
 * such a block. Its body is cut out of the (sorted, disjoint) regions. */
static void enable_grad_blocks(facts *f, buf *tmp) {
  static const char *const ENABLE_GRAD[] = {"torch.enable_grad", "torch.autograd.enable_grad",
                                            "torch.autograd.grad_mode.enable_grad", NULL};
  if (!f->no_grad.len) return;
  for (size_t i = 0; i < f->with_items.len; i++) {
    TSNode e = f->with_items.items[i].candidate;
    if (ts_node_is_null(e) || !NODE_IS(e, "call")) continue;
    TSNode fn = FACT_FIELD(f, e, function), a0 = first_arg(e);
    if (!qualname_is(f, fn, ENABLE_GRAD, tmp) &&
        !(qualname_is(f, fn, SET_GRAD_ENABLED, tmp) && !ts_node_is_null(a0) && NODE_IS(a0, "true")))
      continue;
    facts_span on = f->with_items.items[i].span;
    /* from the `with` statement itself: the analysis asks of a statement's
     * start whether gradients are off for all of it */
    TSNode w = e;
    for (int up = 0; up < 4 && !ts_node_is_null(w) && !NODE_IS(w, "with_statement"); up++) w = ts_node_parent(w);
    if (!ts_node_is_null(w) && NODE_IS(w, "with_statement") && ts_node_start_byte(w) < on.start)
      on.start = ts_node_start_byte(w);
    for (size_t k = 0; k < f->no_grad.len; k++) {
      facts_span *r = &f->no_grad.items[k];
      if (!(r->start < on.start && on.end <= r->end)) continue;
      facts_span tail = {on.end, r->end};
      r->end = on.start;
      if (tail.start < tail.end) {
        vec_push(&f->no_grad, tail);
        merge_no_grad(f); /* sorts the new piece in */
      }
      break;
    }
  }
}


static void resolve_no_grad(facts *f, buf *tmp) {
  no_grad_returns(f, tmp);
  for (size_t i = 0; i < f->with_items.len; i++) {
    TSNode e = f->with_items.items[i].candidate;
    if (!is_no_grad_expr(f, e, tmp)) continue;
    /* the items after it in the same `with` run under it too (`with
     * torch.no_grad(), torch.cuda.amp.autocast():` enters the autocast with
     * gradients off already) */
    facts_span sp = f->with_items.items[i].span;
    TSNode item = ts_node_parent(e);
    if (!ts_node_is_null(item) && NODE_IS(item, "as_pattern")) item = ts_node_parent(item);
    if (!ts_node_is_null(item) && NODE_IS(item, "with_item") && ts_node_end_byte(item) < sp.start)
      sp.start = ts_node_end_byte(item);
    vec_push(&f->no_grad, sp);
  }
  for (size_t i = 0; i < f->functions.len; i++) {
    facts_function *fn = &f->functions.items[i];
    TSNode parent = fn->decorated;
    if (ts_node_is_null(parent)) continue;
    uint32_t count = ts_node_named_child_count(parent);
    for (uint32_t k = 0; k < count; k++) {
      TSNode d = ts_node_named_child(parent, k);
      if (!NODE_IS(d, "decorator") || ts_node_named_child_count(d) == 0) continue;
      if (is_no_grad_expr(f, ts_node_named_child(d, 0), tmp)) {
        fn->no_grad = true;
        vec_push(&f->no_grad, fn->body);
      }
    }
  }
  /* Lightning runs validation_step/test_step/predict_step with gradients
   * off, and the hooks of its evaluation loops too, a Callback's
   * `on_validation_end` among them; a class that derives nothing (or only
   * `object`) is no Lightning module: its own code calls them (skorch's
   * NeuralNet) */
  int *inner = oom_xcalloc(f->functions.len + 1, sizeof *inner);
  facts__innermost_classes(f, inner);
  for (size_t i = 0; i < f->functions.len; i++) {
    facts_function *fn = &f->functions.items[i];
    static const char *const steps[] = {"validation_step",
                                        "test_step",
                                        "predict_step",
                                        "on_validation_start",
                                        "on_validation_end",
                                        "on_validation_epoch_start",
                                        "on_validation_epoch_end",
                                        "on_validation_batch_start",
                                        "on_validation_batch_end",
                                        "on_test_start",
                                        "on_test_end",
                                        "on_test_epoch_start",
                                        "on_test_epoch_end",
                                        "on_test_batch_start",
                                        "on_test_batch_end",
                                        NULL};
    bool method = inner[i] >= 0 && facts_class_has_bases(f, &f->classes.items[inner[i]]);
    for (size_t k = 0; steps[k] && method; k++)
      if (fn->name_len == strlen(steps[k]) && !memcmp(fn->name, steps[k], fn->name_len)) {
        fn->no_grad = true;
        vec_push(&f->no_grad, fn->body);
      }
  }
  free(inner);
  lambdas_handed_to_no_grad(f);
  /* `torch.set_grad_enabled(False)` as a statement: off until the block ends
   * or a later `set_grad_enabled(True)` in the same block */
  for (size_t i = 0; i < f->set_grad_false.len; i++) {
    facts_region r = f->set_grad_false.items[i];
    TSNode fn = FACT_FIELD(f, r.candidate, function);
    if (!qualname_is(f, fn, SET_GRAD_ENABLED, tmp)) continue;
    for (size_t k = 0; k < f->set_grad_true.len; k++) {
      facts_region t = f->set_grad_true.items[k];
      if (t.span.end == r.span.end && t.span.start > r.span.start && t.span.start < r.span.end)
        r.span.end = ts_node_start_byte(t.candidate);
    }
    vec_push(&f->no_grad, r.span);
    grad_off_after_calls(f, r.span);
  }
  merge_no_grad(f);
  enable_grad_blocks(f, tmp);
  no_grad_from_callers(f, tmp);
}


static bool has_name(const facts *f, const char *s, size_t len) {
  for (size_t i = 0; i < f->module_names.len; i++)
    if (facts__cstr_is(f->module_names.items[i], s, len)) return true;
  return false;
}


static bool is_module_class_name(const facts *f, const char *s, size_t len) {
  for (size_t i = 0; i < f->classes.len; i++)
    if (f->classes.items[i].is_module && f->classes.items[i].name_len == len &&
        !memcmp(f->classes.items[i].name, s, len))
      return true;
  return false;
}


static bool starts_with(const char *s, const char *prefix) {
  return !strncmp(s, prefix, strlen(prefix));
}


static bool picks_function(const facts *f, const char *name, uint32_t len, uint32_t pos, int depth);


/* Whether NAME (LEN bytes), read at POS, names a function: a def of the
 * file, or bound last before POS (in POS's function, else at module level)
 * to a lowercase name imported from a module (`from kornia.geometry.linalg
 * import transform_points`: a class is capitalized; not one named like a
 * model instance), to another such name (`fn = transform_points`) or to a
 * pick from a table of functions (picks_function). */
static bool names_function(const facts *f, const char *name, uint32_t len, uint32_t pos, int depth) {
  for (size_t i = 0; i < f->functions.len; i++)
    if (f->functions.items[i].name_len == len && !memcmp(f->functions.items[i].name, name, len)) return true;
  if (depth >= 3) return false;
  int fn = facts_function_at(f, pos);
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  const facts_binding *last = NULL, *global = NULL;
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->pos >= pos) continue;
    int bf = facts_function_at(f, b->pos);
    if (bf == fn && (!last || b->pos > last->pos)) last = b;
    if (bf < 0 && (!global || b->pos > global->pos)) global = b;
  }
  if (!last) last = global;
  if (!last) return false;
  if (last->kind == BINDING_IMPORT) {
    const char *dot = last->qualname ? strrchr(last->qualname, '.') : NULL;
    return dot && islower((unsigned char)name[0]) && !facts__named_like_model(dot + 1, (uint32_t)strlen(dot + 1));
  }
  if (last->kind == BINDING_OTHER) return picks_function(f, name, len, last->pos, depth);
  if (last->kind != BINDING_ALIAS || !NODE_IS(last->value, "identifier")) return false;
  uint32_t vl;
  const char *v = facts_text(f, last->value, &vl);
  return !(vl == len && !memcmp(v, name, len)) && names_function(f, v, vl, last->pos, depth + 1);
}


/* Whether the binding of NAME at POS picks a function from a table
 * (picked_table): `creator = CUSTOM_CREATORS[name]` where `CUSTOM_CREATORS
 * = {"a": lambda ...: ..., "b": make_mask}` holds only lambdas and functions. */
static bool picks_function(const facts *f, const char *name, uint32_t len, uint32_t pos, int depth) {
  int fn = facts_function_at(f, pos);
  long a = facts__last_assign_before(f, name, len, pos + 1, fn);
  if (a < 0 || ts_node_start_byte(f->assigns.items[a].left) != pos) return false;
  TSNode dict = picked_table(f, f->assigns.items[a].right, -1); /* a table of the module */
  if (ts_node_is_null(dict) || !NODE_IS(dict, "dictionary") || !ts_node_named_child_count(dict)) return false;
  TSNode pair;
  bool all = true;
  for (children k = children_of(dict); all && children_next(&k, &pair);) {
    TSNode v = NODE_IS(pair, "pair") ? FACT_FIELD(f, pair, value) : NULL_NODE;
    uint32_t vl = 0;
    const char *vn = !ts_node_is_null(v) && NODE_IS(v, "identifier") ? facts_text(f, v, &vl) : NULL;
    all = !ts_node_is_null(v) &&
          (NODE_IS(v, "lambda") || (vn && names_function(f, vn, vl, ts_node_start_byte(v), depth + 1)));
    if (!all) children_done(&k);
  }
  return all;
}


/* Whether CALL, `torch.compile(fn, ...)`, compiles a function the file
 * defines, imports (`fn = transform_points` after `from kornia.geometry
 * import transform_points`: a benchmark of a pure function) or a lambda:
 * the result is that function (PEFT compiles a weight conversion this way;
 * `torch.compile(lambda x, w: (x * w).sum(-1))`), not a model. */
static bool compiles_own_function(const facts *f, TSNode call) {
  TSNode a0 = first_arg(call);
  if (!ts_node_is_null(a0) && NODE_IS(a0, "lambda")) return true;
  if (ts_node_is_null(a0) || !NODE_IS(a0, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(f, a0, &len);
  if (names_function(f, name, len, ts_node_start_byte(a0), 0)) return true;
  /* `for variant in (all_at_once, pad_inlined): fn = torch.compile(variant)`:
   * the target of a loop over a literal of functions of the file */
  for (int l = facts_innermost_loop_at(f, ts_node_start_byte(call)); l >= 0; l = f->loops.items[l].parent) {
    TSNode up = f->loops.items[l].node;
    if (!NODE_IS(up, "for_statement")) continue;
    TSNode target = FACT_FIELD(f, up, left), over = FACT_FIELD(f, up, right);
    if (ts_node_is_null(target) || !NODE_IS(target, "identifier") || !facts_text_is(f, target, name, len)) continue;
    if (ts_node_is_null(over) || !(NODE_IS(over, "tuple") || NODE_IS(over, "list"))) return false;
    uint32_t n = ts_node_named_child_count(over);
    for (uint32_t i = 0; i < n; i++) {
      TSNode item = ts_node_named_child(over, i);
      uint32_t il;
      const char *it = NODE_IS(item, "identifier") ? facts_text(f, item, &il) : NULL;
      if (!it || !names_function(f, it, il, ts_node_start_byte(item), 0)) return false;
    }
    return n > 0;
  }
  return false;
}


/* Names an expression that is an nn.Module instance, when it is one.
 * *SETTLED (when given) is cleared when a later pass of resolve_modules may
 * answer otherwise: the answer came from the names known as modules so far
 * or from a function of the file whose returns_model may still turn true;
 * an answer from a class, the project's summaries or a library is final. */
static bool is_module_expr_settled(const facts *f, TSNode e, buf *tmp, bool *settled) {
  uint32_t len;
  const char *t;
  for (int guard = 0; guard < 8; guard++) {
    if (NODE_IS(e, "identifier") || NODE_IS(e, "attribute")) {
      t = facts_text(f, e, &len);
      if (settled) *settled = false;
      return has_name(f, t, len);
    }
    if (!NODE_IS(e, "call")) return false;
    TSNode fn = FACT_FIELD(f, e, function);
    if (ts_node_is_null(fn)) return false;
    if (NODE_IS(fn, "attribute")) {
      TSNode attr = FACT_FIELD(f, fn, attribute);
      TSNode obj = FACT_FIELD(f, fn, object);
      static const char *const same_module[] = {"to", "cuda", "cpu", "train", "eval", "half",
                                                "float", "bfloat16", "double", "requires_grad_", NULL};
      for (size_t i = 0; same_module[i]; i++)
        if (text_is(f, attr, same_module[i])) { e = obj; goto next; }
      if (text_is(f, attr, "from_pretrained")) {
        /* a pipeline (`AutoPipelineForText2Image`) runs its models under
         * no_grad itself and returns images or text, not tensors with a graph */
        t = facts_text(f, obj, &len);
        return (contains(t, len, "Model") || contains(t, len, "For")) && !contains(t, len, "Pipeline");
      }
    }
    if (NODE_IS(fn, "identifier")) {
      t = facts_text(f, fn, &len);
      if (is_module_class_name(f, t, len)) return true;
    }
    /* a function of the file or of the project that returns a model
     * (`build_model(cfg)`), or a model class of another module */
    int g = facts_function_named(f, fn);
    if (g >= 0) {
      if (settled) *settled = false;
      return f->functions.items[g].returns_model;
    }
    if (f->imports) {
      facts_symbol sym;
      if (facts_project_symbol(f, fn, &sym))
        return (sym.flags & SYM_MODEL) && (sym.flags & (SYM_CLASS | SYM_FUNCTION)) && !(sym.flags & SYM_NO_PARAMETERS);
    }
    if (!facts_qualname(f, fn, tmp)) return false;
    {
      const char *q = buf_str(tmp);
      if (!strcmp(q, "torch.compile")) return !compiles_own_function(f, e);
      /* torchvision's weights enums (`ResNet50_Weights.DEFAULT.transforms()`,
       * the image preprocessing that goes with a checkpoint) and its
       * registry lookups make no network */
      if (starts_with(q, "torchvision.models."))
        return !contains(q, strlen(q), "Weights") && !contains(q, strlen(q), "get_weight") &&
               !contains(q, strlen(q), "list_models") && !contains(q, strlen(q), "get_model_builder");
      if (!strcmp(q, "torch.nn.parallel.DistributedDataParallel") || !strcmp(q, "timm.create_model"))
        return true;
      if (starts_with(q, "torch.nn.") && isupper((unsigned char)q[9]) && !strchr(q + 9, '.') &&
          strncmp(q + 9, "Parameter", 9) != 0)
        return true;
      return false;
    }
  next:;
  }
  return false;
}


static bool is_module_expr(const facts *f, TSNode e, buf *tmp) {
  return is_module_expr_settled(f, e, tmp, NULL);
}


/* Whether NODE names a class of another module of the project whose
 * summary has FLAG (SYM_MODEL, SYM_DATASET). */
static bool project_class(const facts *f, TSNode node, uint32_t flag) {
  facts_symbol sym;
  return f->imports && facts_project_symbol(f, node, &sym) && (sym.flags & SYM_CLASS) && (sym.flags & flag);
}


static bool is_module_base(const facts *f, TSNode base, buf *tmp) {
  uint32_t len;
  const char *t = facts_text(f, base, &len);
  if (NODE_IS(base, "identifier") && is_module_class_name(f, t, len)) return true;
  if (project_class(f, base, SYM_MODEL)) return true;
  if (!facts_qualname(f, base, tmp)) return false;
  const char *q = buf_str(tmp);
  return !strcmp(q, "torch.nn.Module") || !strcmp(q, "torch.nn.modules.module.Module") ||
         (starts_with(q, "torch.nn.") && isupper((unsigned char)q[9]) && !strchr(q + 9, '.')) ||
         !strcmp(q, "pytorch_lightning.LightningModule") || !strcmp(q, "lightning.LightningModule") ||
         !strcmp(q, "lightning.pytorch.LightningModule") || !strcmp(q, "transformers.PreTrainedModel");
}


static bool is_dataset_base(const facts *f, TSNode base, buf *tmp) {
  uint32_t len;
  const char *t = facts_text(f, base, &len);
  for (size_t i = 0; NODE_IS(base, "identifier") && i < f->classes.len; i++)
    if (f->classes.items[i].is_dataset && f->classes.items[i].name_len == len && !memcmp(f->classes.items[i].name, t, len))
      return true;
  if (project_class(f, base, SYM_DATASET)) return true;
  if (!facts_qualname(f, base, tmp)) return false;
  const char *q = buf_str(tmp);
  return !strcmp(q, "torch.utils.data.Dataset") || !strcmp(q, "torch.utils.data.IterableDataset") ||
         !strcmp(q, "torch.utils.data.dataset.Dataset") || !strcmp(q, "torch.utils.data.dataset.IterableDataset");
}


/* Whether the name VALUE, returned by function FN, was last bound there to
 * an instance of a class the project knows is no module (`model =
 * RandomForestForecaster(); model.load(path); return model`): whatever
 * else the file calls `model`, this one is a scikit-learn wrapper. */
static bool returns_plain_instance(const facts *f, TSNode value, int fn) {
  if (!f->imports || !NODE_IS(value, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(f, value, &len);
  long a = facts__last_local_assign(f, name, len, ts_node_start_byte(value), fn);
  if (a < 0) return false;
  TSNode right = f->assigns.items[a].right;
  return NODE_IS(right, "call") && project_class(f, FACT_FIELD(f, right, function), SYM_PLAIN);
}


/* Functions whose return value is a model (`return Net(cfg).to(device)`). */
static bool resolve_returned_models(facts *f, buf *tmp) {
  bool changed = false;
  for (size_t i = 0; i < f->returns.len; i++) {
    int fn = f->returns.items[i].function;
    if (fn < 0 || f->functions.items[fn].returns_model) continue;
    TSNode value = ts_node_named_child(f->returns.items[i].call, 0);
    if (!ts_node_is_null(value) && is_module_expr(f, value, tmp) && !returns_plain_instance(f, value, fn))
      f->functions.items[fn].returns_model = changed = true;
  }
  return changed;
}


/* Whether the text S (a name or `self.x`) names something that has
 * `.train()`, `.zero_grad()` or `.state_dict()` without being a model: an
 * optimizer, a scheduler, a scaler, a trainer object. */
static bool is_loader_name(const char *s, size_t len);


static bool names_model_tool(const char *s, size_t len) {
  char lower[64];
  if (len >= sizeof lower) return true;
  for (size_t i = 0; i < len; i++) lower[i] = (char)tolower((unsigned char)s[i]);
  lower[len] = '\0';
  const char *last = strrchr(lower, '.');
  const char *name = last ? last + 1 : lower;
  static const char *const tools[] = {"opt", "sched", "scaler", "lr", "trainer", "learner", "engine", "runner",
                                      "ema", "accelerator", "state", "ckpt", "checkpoint", "meter", "metric", NULL};
  for (size_t i = 0; tools[i]; i++)
    if (strstr(name, tools[i])) return true;
  return false;
}


static bool fname_has(const facts_fname *v, size_t n, const char *s, uint32_t len, int fn) {
  for (size_t i = 0; i < n; i++)
    if (v[i].index == fn && v[i].len == len && !memcmp(v[i].name, s, len)) return true;
  return false;
}


/* Evidence that the plain name S is a model in function FN (-1: module
 * level): a use (`S.eval()`), a wrapper, or a binding of a model. */
static void add_model_site(facts *f, const char *s, uint32_t len, int fn) {
  if (!fname_has(f->model_sites.items, f->model_sites.len, s, len, fn))
    vec_push(&f->model_sites, ((facts_fname){s, len, fn}));
}


static void add_module_name(facts *f, TSNode n) {
  if (!NODE_IS(n, "identifier") && !(NODE_IS(n, "attribute") && NODE_IS(FACT_FIELD(f, n, object), "identifier") &&
                                     text_is(f, FACT_FIELD(f, n, object), "self")))
    return;
  uint32_t len;
  const char *t = facts_text(f, n, &len);
  if (len == 4 && !memcmp(t, "self", 4)) return; /* a module's own `self.parameters()` */
  if (!has_name(f, t, len)) vec_push(&f->module_names, oom_xstrndup(t, len));
  if (NODE_IS(n, "identifier")) add_model_site(f, t, len, facts_function_at(f, ts_node_start_byte(n)));
}


/* Models known by their use rather than their construction (a loader of
 * another library, a function parameter): `X.parameters()` (handed to an
 * optimizer), `X.eval()`, `X.train()`, `X.zero_grad()`, `X.state_dict()`
 * on a name that is not an optimizer's or a trainer's, and what
 * `DistributedDataParallel`, `torch.compile`, `accelerator.prepare` wrap
 * (`model, opt = accelerator.prepare(model, opt)`: element by element). */
static void resolve_modules_by_use(facts *f, buf *tmp) {
  for (size_t i = 0; i < f->calls.len; i++) {
    TSNode call = f->calls.items[i].call;
    TSNode fn = FACT_FIELD(f, call, function);
    TSNode args = FACT_FIELD(f, call, arguments);
    if (ts_node_is_null(fn) || ts_node_is_null(args) || !NODE_IS(fn, "attribute")) continue;
    TSNode attr = FACT_FIELD(f, fn, attribute), obj = FACT_FIELD(f, fn, object);
    if (ts_node_is_null(attr) || ts_node_is_null(obj)) continue;
    uint32_t nargs = ts_node_named_child_count(args), olen;
    const char *o = facts_text(f, obj, &olen);
    if (text_is(f, attr, "parameters") || text_is(f, attr, "named_parameters")) {
      add_module_name(f, obj);
    } else if ((text_is(f, attr, "eval") && nargs == 0) ||
               ((text_is(f, attr, "train") || text_is(f, attr, "zero_grad") || text_is(f, attr, "state_dict")) &&
                nargs <= 1 && !names_model_tool(o, olen))) {
      if (text_is(f, attr, "train") && nargs == 1 && !NODE_IS(ts_node_named_child(args, 0), "true") &&
          !NODE_IS(ts_node_named_child(args, 0), "false"))
        continue; /* `trainer.train(dataset)` */
      add_module_name(f, obj);
    } else if (text_is(f, attr, "prepare") || text_is(f, attr, "prepare_model")) {
      /* accelerate: each argument comes back wrapped, in order */
      TSNode parent = ts_node_parent(call);
      if (ts_node_is_null(parent) || !NODE_IS(parent, "assignment")) continue;
      TSNode left = FACT_FIELD(f, parent, left);
      if (ts_node_is_null(left)) continue;
      bool many = NODE_IS(left, "pattern_list") || NODE_IS(left, "tuple_pattern") || NODE_IS(left, "list_pattern");
      for (uint32_t k = 0; k < nargs; k++) {
        TSNode a = ts_node_named_child(args, k);
        uint32_t alen;
        const char *at = facts_text(f, a, &alen);
        /* a model, or a name that is none of the other things it prepares */
        if (!has_name(f, at, alen) &&
            (!NODE_IS(a, "identifier") || names_model_tool(at, alen) || is_loader_name(at, alen) ||
             contains(at, alen, "data") || contains(at, alen, "set") || contains(at, alen, "sampler")))
          continue;
        if (!many && k == 0) add_module_name(f, left);
        else if (many && k < ts_node_named_child_count(left)) add_module_name(f, ts_node_named_child(left, k));
      }
    }
  }
  /* DDP(model), torch.compile(model): the argument is a model too */
  for (size_t i = 0; i < f->calls.len; i++) {
    TSNode call = f->calls.items[i].call;
    TSNode fn = FACT_FIELD(f, call, function);
    if (ts_node_is_null(fn) || !(NODE_IS(fn, "identifier") || NODE_IS(fn, "attribute"))) continue;
    uint32_t len;
    const char *t = facts_text(f, fn, &len);
    /* cheap test first: most callees are neither */
    if (!(len >= 7 && !memcmp(t + len - 7, "compile", 7)) && !contains(t, len, "DistributedDataParallel") &&
        !(len == 3 && !memcmp(t, "DDP", 3)))
      continue;
    if (!facts_qualname(f, fn, tmp)) continue;
    const char *q = buf_str(tmp);
    if (strcmp(q, "torch.compile") != 0 && strcmp(q, "torch.nn.parallel.DistributedDataParallel") != 0 &&
        strcmp(q, "torch.nn.parallel.distributed.DistributedDataParallel") != 0)
      continue;
    TSNode a0 = first_arg(call);
    if (!ts_node_is_null(a0) && !compiles_own_function(f, call)) add_module_name(f, a0);
  }
}


/* torch.nn layers that hold no parameter whatever their arguments */
static const char *const PARAMETER_FREE_LAYERS[] = {
  "Identity", "ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish", "Sigmoid", "Tanh",
  "Softmax", "Softmax2d", "LogSoftmax", "Softmin", "Softplus", "Softsign", "Hardtanh", "Hardswish", "Hardsigmoid",
  "Hardshrink", "Softshrink", "Tanhshrink", "Threshold", "LogSigmoid", "GLU", "Dropout", "Dropout1d", "Dropout2d",
  "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "Flatten", "Unflatten", "MaxPool1d", "MaxPool2d", "MaxPool3d",
  "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
  "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d", "LPPool3d", "MaxUnpool1d",
  "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d", "FractionalMaxPool3d", "Upsample", "UpsamplingNearest2d",
  "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
  "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
  "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d",
  "Fold", "Unfold", "CosineSimilarity", "PairwiseDistance", NULL};

static bool in_names_list(const char *s, size_t len, const char *const *names);


/* Feature extractors of audio and signal libraries that keep their filters
 * in buffers: torchaudio's transforms and kymatio's scattering transforms
 * hold no trainable parameter */
static const char *const TORCHAUDIO_TRANSFORMS[] = {
  "Spectrogram", "InverseSpectrogram", "MelSpectrogram", "MelScale", "InverseMelScale", "MFCC", "LFCC",
  "AmplitudeToDB", "Resample", "GriffinLim", "ComputeDeltas", "FrequencyMasking", "TimeMasking", "Fade", "Vol",
  "SpectralCentroid", "MuLawEncoding", "MuLawDecoding", NULL};
static const char *const KYMATIO_TRANSFORMS[] = {"Scattering1D", "Scattering2D", "HarmonicScattering3D", NULL};


/* Whether QUALNAME names one of those library transforms. */
static bool library_transform(const char *q) {
  const char *dot = strrchr(q, '.');
  if (!dot) return false;
  size_t prefix = (size_t)(dot - q);
  if ((prefix == 21 && !strncmp(q, "torchaudio.transforms", prefix)) ||
      (prefix == 33 && !strncmp(q, "torchaudio.transforms._transforms", prefix)))
    return in_names_list(dot + 1, strlen(dot + 1), TORCHAUDIO_TRANSFORMS);
  if ((prefix == 7 && !strncmp(q, "kymatio", prefix)) || (prefix == 13 && !strncmp(q, "kymatio.torch", prefix)))
    return in_names_list(dot + 1, strlen(dot + 1), KYMATIO_TRANSFORMS);
  return false;
}


static bool in_names_list(const char *s, size_t len, const char *const *names) {
  for (size_t i = 0; names[i]; i++)
    if (strlen(names[i]) == len && !memcmp(names[i], s, len)) return true;
  return false;
}


/* Whether N (a class or a class's factory, `ORTModel.from_pretrained`)
 * names a model class of Hugging Face Optimum's ONNX Runtime package
 * (`optimum.onnxruntime.ORTModelForSequenceClassification`): it runs an
 * inference session, not PyTorch. */
static bool onnx_runtime_model(const facts *f, TSNode n, buf *tmp) {
  if (!NODE_IS(n, "identifier") && !NODE_IS(n, "attribute")) return false;
  /* the class's own name first (`ORTModel...`, or the object of
   * `ORTModel....from_pretrained`): no qualname for the calls that cannot
   * be one */
  TSNode last = NODE_IS(n, "attribute") ? FACT_FIELD(f, n, attribute) : n;
  uint32_t len;
  const char *t = ts_node_is_null(last) ? NULL : facts_text(f, last, &len);
  bool ort = t && len >= 8 && !memcmp(t, "ORTModel", 8);
  if (!ort && NODE_IS(n, "attribute")) {
    TSNode obj = FACT_FIELD(f, n, object);
    TSNode olast = ts_node_is_null(obj) ? obj : NODE_IS(obj, "attribute") ? FACT_FIELD(f, obj, attribute) : obj;
    t = ts_node_is_null(olast) || !(NODE_IS(olast, "identifier")) ? NULL : facts_text(f, olast, &len);
    ort = t && len >= 8 && !memcmp(t, "ORTModel", 8);
  }
  if (!ort) return false;
  buf_clear(tmp);
  return facts_qualname(f, n, tmp) && !strncmp(buf_str(tmp), "optimum.onnxruntime.", 20);
}


/* The torch.nn class CALLEE names (`nn.ReLU`, `torch.nn.Sequential`), after
 * `torch.nn.`, into TMP; NULL when it names none. */
static const char *torch_nn_class(const facts *f, TSNode callee, buf *tmp) {
  if (!facts_qualname(f, callee, tmp)) return NULL;
  const char *q = buf_str(tmp);
  if (!strncmp(q, "torch.nn.modules.", 17)) {
    const char *dot = strrchr(q, '.');
    return isupper((unsigned char)dot[1]) ? dot + 1 : NULL;
  }
  if (strncmp(q, "torch.nn.", 9) != 0 || strchr(q + 9, '.') || !isupper((unsigned char)q[9])) return NULL;
  return q + 9;
}


/* What the parameter-free judgements carry: a scratch buffer, and whether
 * one asked about a class of the file not (yet) known to be parameter-free
 * (a class judged before it might make it one: mark_parameter_free's
 * fixed point judges it again). */
typedef struct {
  buf *tmp;
  bool consulted;
} pf_ctx;


static bool is_parameter_free_class(const facts *f, const char *name, uint32_t len, pf_ctx *cx) {
  bool any = false;
  for (size_t i = 0; i < f->classes.len; i++) {
    const facts_class *k = &f->classes.items[i];
    if (k->name_len != len || memcmp(k->name, name, len) != 0) continue;
    if (!k->no_parameters) {
      if (cx) cx->consulted = true;
      return false;
    }
    any = true;
  }
  return any;
}


/* Whether CALL makes a module that holds no parameter: a parameter-free
 * torch.nn layer (`nn.LogSoftmax(dim=2)`, `nn.Dropout(p)`), an instance of
 * a parameter-free module class of the file, or an `nn.Sequential`,
 * `nn.ModuleList` or `nn.ModuleDict` of such modules only. */
static bool parameter_free_module(const facts *f, TSNode call, pf_ctx *cx, int depth) {
  if (depth > 8 || !NODE_IS(call, "call")) return false;
  TSNode callee = FACT_FIELD(f, call, function), args = FACT_FIELD(f, call, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args)) return false;
  /* `self.fc(x)`, `self.make(...)`: a member called, no class built */
  if (NODE_IS(callee, "attribute") && facts_node_is(f, FACT_FIELD(f, callee, object), "self")) return false;
  uint32_t len;
  if (NODE_IS(callee, "identifier")) {
    const char *t = facts_text(f, callee, &len);
    if (is_parameter_free_class(f, t, len, cx)) return true;
  }
  /* a TensorRT engine (`torch2trt.TRTModule()`, `torch2trt(model, [x])`):
   * its forward writes the engine's outputs into new tensors, recording
   * no graph and holding no trainable parameter */
  TSNode last = NODE_IS(callee, "attribute") ? FACT_FIELD(f, callee, attribute) : callee;
  const char *lt = ts_node_is_null(last) ? NULL : facts_text(f, last, &len);
  if (lt && len == 9 && (!memcmp(lt, "TRTModule", 9) || !memcmp(lt, "torch2trt", 9)) &&
      facts_qualname(f, callee, cx->tmp) && !strncmp(buf_str(cx->tmp), "torch2trt.", 10))
    return true;
  /* an ONNX Runtime model of Hugging Face Optimum
   * (`ORTModelForSequenceClassification.from_pretrained(path)`): an
   * inference session, no autograd at all */
  if (lt && ((len >= 8 && !memcmp(lt, "ORTModel", 8)) || (len == 15 && !memcmp(lt, "from_pretrained", 15))) &&
      onnx_runtime_model(f, callee, cx->tmp))
    return true;
  /* a torch.nn class first: no project lookup for `nn.Linear(...)` */
  const char *cls = torch_nn_class(f, callee, cx->tmp);
  if (!cls && lt && f->mentions_audio_transforms &&
      (in_names_list(lt, len, TORCHAUDIO_TRANSFORMS) || in_names_list(lt, len, KYMATIO_TRANSFORMS)) &&
      facts_qualname(f, callee, cx->tmp) && library_transform(buf_str(cx->tmp)))
    return true;
  if (!cls) {
    /* a class of another module of the project holding no trainable
     * parameter, or a factory there returning only such instances
     * (`libs.clip.FrozenCLIPEmbedder()`, `get_model(path)`) */
    facts_symbol sym;
    return f->imports && (NODE_IS(callee, "identifier") || NODE_IS(callee, "attribute")) &&
           facts_project_symbol(f, callee, &sym) && (sym.flags & SYM_NO_PARAMETERS) &&
           (sym.flags & (SYM_CLASS | SYM_FUNCTION));
  }
  if (in_names_list(cls, strlen(cls), PARAMETER_FREE_LAYERS)) return true;
  bool seq = !strcmp(cls, "Sequential"), list = !strcmp(cls, "ModuleList"), dict = !strcmp(cls, "ModuleDict");
  if (!seq && !list && !dict) return false;
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "comment")) continue;
    if (seq) {
      if (!parameter_free_module(f, a, cx, depth + 1)) return false;
      continue;
    }
    /* ModuleList([...]), ModuleDict({...}) */
    if (!NODE_IS(a, list ? "list" : "dictionary")) return false;
    uint32_t m = ts_node_named_child_count(a);
    for (uint32_t j = 0; j < m; j++) {
      TSNode e = ts_node_named_child(a, j);
      if (NODE_IS(e, "comment")) continue;
      if (dict) e = NODE_IS(e, "pair") ? FACT_FIELD(f, e, value) : NULL_NODE;
      if (ts_node_is_null(e) || !parameter_free_module(f, e, cx, depth + 1)) return false;
    }
  }
  return true;
}


/* Whether CALL, bound to NAME (LEN bytes), is a data transform pipeline:
 * an `nn.Sequential` (torchvision's scriptable form of `Compose`) bound to a
 * name that says so (`transform`, `self.train_transforms`), of torchvision
 * transforms, parameter-free modules, or a list unpacked into it
 * (`nn.Sequential(*self.transform)`, its entries not seen); or anything but
 * a torch.nn layer bound to a name of a data augmentation (`augmix_fn`,
 * `train_aug`: a word starting with `aug`). It works on the data, and what
 * it returns carries no graph of its own. */
static bool transform_pipeline(const facts *f, const char *name, uint32_t len, TSNode call, pf_ctx *cx) {
  const char *last = name;
  for (uint32_t i = 0; i < len; i++)
    if (name[i] == '.') last = name + i + 1;
  uint32_t n = (uint32_t)(name + len - last);
  if (!NODE_IS(call, "call")) return false;
  TSNode callee = FACT_FIELD(f, call, function), args = FACT_FIELD(f, call, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return false;
  /* a data augmentation by its name (`self.augmix_fn = OpSampler(...)`,
   * `train_aug = RandAugment()`): anything but a torch.nn layer */
  bool aug = false;
  for (uint32_t i = 0; i + 3 <= n && !aug; i++)
    aug = (last[i] | 0x20) == 'a' && (last[i + 1] | 0x20) == 'u' && (last[i + 2] | 0x20) == 'g' &&
          (i == 0 || last[i - 1] == '_');
  if (aug) return !torch_nn_class(f, callee, cx->tmp) || parameter_free_module(f, call, cx, 1);
  if (n && (last[n - 1] == 's' || last[n - 1] == 'S')) n--;
  if (n < 9 || strncasecmp(last + n - 9, "transform", 9) != 0) return false;
  const char *cls = torch_nn_class(f, callee, cx->tmp);
  if (!cls || strcmp(cls, "Sequential") != 0) return false;
  uint32_t count = ts_node_named_child_count(args), seen = 0;
  for (uint32_t i = 0; i < count; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "comment")) continue;
    seen++;
    if (NODE_IS(a, "list_splat") || parameter_free_module(f, a, cx, 1)) continue;
    TSNode c = NODE_IS(a, "call") ? FACT_FIELD(f, a, function) : NULL_NODE;
    if (ts_node_is_null(c) || !facts_qualname(f, c, cx->tmp) || strncmp(buf_str(cx->tmp), "torchvision.transforms", 22))
      return false;
  }
  return seen > 0;
}


/* Whether N is a comparison by order (`it < self.start_warm`): numbers;
 * `is None` or `in` say nothing of what is compared. */
static bool orders(TSNode n) {
  if (!NODE_IS(n, "comparison_operator")) return false;
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    const char *op = ts_node_type(ts_node_child(n, i));
    if (!strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=")) return true;
  }
  return false;
}


static bool is_plain_class_name(const facts *f, const char *name, uint32_t len);


/* Whether the parameter NAME of METHOD (a function_definition) holds a plain
 * value: its default is a number, string or boolean, its annotation `int`,
 * `float`, `str`, `bool` or a plain class, it is named for a setting
 * (`size`, `device`), or the method computes with it (`a + b`,
 * `range(n)`, `n < m`), or the class with `self.<NAME>`. */
static bool plain_parameter(const facts *f, TSNode method, TSNode name) {
  TSNode params = FACT_FIELD(f, method, parameters);
  if (ts_node_is_null(params)) return false;
  uint32_t len;
  const char *t = facts_text(f, name, &len);
  uint32_t n = ts_node_named_child_count(params);
  bool found = false;
  for (uint32_t i = 0; i < n && !found; i++) {
    TSNode p = ts_node_named_child(params, i);
    TSNode pname = NODE_IS(p, "identifier") ? p : FACT_FIELD(f, p, name);
    if (ts_node_is_null(pname) && ts_node_named_child_count(p)) pname = ts_node_named_child(p, 0);
    if (ts_node_is_null(pname) || !facts_text_is(f, pname, t, len)) continue;
    found = true;
    if (NODE_IS(p, "identifier")) break;
    TSNode def = FACT_FIELD(f, p, value), type = FACT_FIELD(f, p, type);
    if (!ts_node_is_null(def) && (NODE_IS(def, "integer") || NODE_IS(def, "float") || NODE_IS(def, "string") ||
                                   NODE_IS(def, "true") || NODE_IS(def, "false")))
      return true;
    if (!ts_node_is_null(type)) {
      uint32_t tl;
      const char *ty = facts_text(f, type, &tl);
      static const char *const scalars[] = {"int", "float", "str", "bool", NULL};
      if (in_names_list(ty, tl, scalars)) return true;
      /* `params: OdeParams`, a plain class of the file or the project (a
       * dataclass of settings): no module */
      TSNode tn = ts_node_named_child_count(type) == 1 ? ts_node_named_child(type, 0) : NULL_NODE;
      if (!ts_node_is_null(tn) && NODE_IS(tn, "identifier")) {
        ty = facts_text(f, tn, &tl);
        if (is_plain_class_name(f, ty, tl) || project_class(f, tn, SYM_PLAIN)) return true;
      }
    }
  }
  if (!found) return false;
  /* named as a setting (`size`, `mode`, `num_heads`, `in_channels`): a
   * module handed to a constructor is named for what it is (`encoder`) */
  static const char *const settings[] = {"size", "sizes", "shape", "dim", "dims", "mode", "channels", "num", "eps",
                                         "scale", "rate", "ratio", "stride", "padding", "length", "factor",
                                         "temperature", "steps", "heads", "axis", "device", "dtype", NULL};
  for (uint32_t at = 0; at < len;) {
    uint32_t end = at;
    while (end < len && t[end] != '_') end++;
    for (size_t k = 0; settings[k]; k++)
      if (strlen(settings[k]) == end - at && !strncmp(t + at, settings[k], end - at)) return true;
    at = end + 1;
  }
  /* computed with in the method: an operand of arithmetic or of a
   * comparison, or range(name); or, stored under its own name, in any
   * method of the class (`if it < self.start_warm:` in a loss's forward) */
  TSNode body = FACT_FIELD(f, method, body);
  if (ts_node_is_null(body)) return false;
  TSNode klass = ts_node_parent(method);
  if (!ts_node_is_null(klass) && NODE_IS(klass, "decorated_definition")) klass = ts_node_parent(klass);
  klass = !ts_node_is_null(klass) && NODE_IS(klass, "block") ? ts_node_parent(klass) : NULL_NODE;
  if (!ts_node_is_null(klass) && NODE_IS(klass, "class_definition")) body = klass;
  TSTreeCursor cur = ts_tree_cursor_new(body);
  bool numeric = false;
  for (bool more = true; more && !numeric;) {
    TSNode n2 = ts_tree_cursor_current_node(&cur);
    bool named = NODE_IS(n2, "identifier") && facts_text_is(f, n2, t, len);
    /* in another method, only as `self.<name>`; in METHOD, the name too */
    if (named && !ts_node_eq(body, FACT_FIELD(f, method, body))) {
      TSNode up = ts_node_parent(n2);
      bool attr = !ts_node_is_null(up) && NODE_IS(up, "attribute") && ts_node_eq(FACT_FIELD(f, up, attribute), n2) &&
                  text_is(f, FACT_FIELD(f, up, object), "self");
      bool local = ts_node_start_byte(n2) >= ts_node_start_byte(method) && ts_node_end_byte(n2) <= ts_node_end_byte(method);
      if (attr) n2 = up;
      else if (!local) named = false;
    }
    if (named) {
      TSNode up = ts_node_parent(n2);
      if (!ts_node_is_null(up) && (NODE_IS(up, "binary_operator") || orders(up))) {
        numeric = true;
      } else if (!ts_node_is_null(up) && NODE_IS(up, "argument_list")) {
        TSNode call = ts_node_parent(up);
        TSNode callee = ts_node_is_null(call) ? call : FACT_FIELD(f, call, function);
        numeric = !ts_node_is_null(callee) && text_is(f, callee, "range");
      }
    }
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    more = walk_skip(&cur, body);
  }
  ts_tree_cursor_delete(&cur);
  return numeric;
}


/* How a use N of a stored object is read: 1 as data (an attribute read
 * `p.W`, a subscript, a test, `.to(device)`), 2 bound to a plain name
 * (`p = self.params`: *ALIAS is that name), 0 any other way (called,
 * a method called on it, handed to a call, returned): it may be a module. */
static int data_use(const facts *f, TSNode n, TSNode *alias) {
  TSNode up = ts_node_parent(n);
  if (ts_node_is_null(up)) return 0;
  if (NODE_IS(up, "attribute")) {
    TSNode call = ts_node_parent(up);
    if (ts_node_is_null(call) || !NODE_IS(call, "call") || !ts_node_eq(FACT_FIELD(f, call, function), up)) return 1;
    static const char *const moves[] = {"to", "cpu", "cuda", NULL};
    uint32_t ml;
    const char *m = facts_text(f, FACT_FIELD(f, up, attribute), &ml);
    return in_names_list(m, ml, moves) ? 1 : 0;
  }
  if (NODE_IS(up, "subscript") && ts_node_eq(FACT_FIELD(f, up, value), n)) return 1;
  /* `self.to(self.device)`: where tensors go, a device */
  if (NODE_IS(up, "argument_list")) {
    TSNode call = ts_node_parent(up), callee = ts_node_is_null(call) ? call : FACT_FIELD(f, call, function);
    return !ts_node_is_null(callee) && NODE_IS(callee, "attribute") &&
                   facts_node_is(f, FACT_FIELD(f, callee, attribute), "to")
               ? 1
               : 0;
  }
  if (NODE_IS(up, "comparison_operator") || NODE_IS(up, "not_operator") || NODE_IS(up, "if_statement")) return 1;
  if (NODE_IS(up, "assignment") && ts_node_eq(FACT_FIELD(f, up, right), n)) {
    TSNode left = FACT_FIELD(f, up, left);
    if (ts_node_is_null(left) || !NODE_IS(left, "identifier")) return 0;
    *alias = left;
    return 2;
  }
  if (NODE_IS(up, "assignment") && ts_node_eq(FACT_FIELD(f, up, left), n)) return 1; /* the store itself */
  return 0;
}


/* Whether class K reads `self.NAME` (LEN bytes, the attribute a method
 * stores a constructor argument in) only as data, itself and through the
 * plain names bound from it (`p = self.ode_params`, then `p.W * a`): a
 * settings object or a dataclass of tensors the summaries of other
 * modules cannot name, never called as a module is. At most MAX_ALIASES
 * such names. */
static bool stored_as_data(const facts *f, const facts_class *k, const char *name, uint32_t len) {
  enum { MAX_ALIASES = 4 };
  /* most such values are modules handed in and called (`self.encoder(x)`):
   * refused by the text before any walk */
  uint32_t kl;
  const char *kt = facts_text(f, k->node, &kl);
  for (const char *p = kt, *end = kt + kl; (p = memchr(p, '(', (size_t)(end - p))); p++)
    if ((uint32_t)(p - kt) >= len + 5 && !memcmp(p - len, name, len) && !memcmp(p - len - 5, "self.", 5)) return false;
  TSNode alias_at[MAX_ALIASES];
  int naliases = 0, uses = 0;
  TSTreeCursor cur = ts_tree_cursor_new(k->node);
  bool ok = true;
  for (bool more = true; more && ok;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (NODE_IS(n, "attribute")) {
      TSNode obj = FACT_FIELD(f, n, object);
      if (!ts_node_is_null(obj) && NODE_IS(obj, "identifier") && text_is(f, obj, "self") &&
          facts_text_is(f, FACT_FIELD(f, n, attribute), name, len)) {
        TSNode alias = NULL_NODE;
        int how = data_use(f, n, &alias);
        uses++;
        if (how == 0 || (how == 2 && naliases == MAX_ALIASES)) ok = false;
        else if (how == 2) alias_at[naliases++] = alias;
      }
    }
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    more = walk_skip(&cur, k->node);
  }
  ts_tree_cursor_delete(&cur);
  /* each alias, through its uses in the method binding it */
  for (int i = 0; i < naliases && ok; i++) {
    int fn = facts_function_at(f, ts_node_start_byte(alias_at[i]));
    if (fn < 0) return false;
    TSNode body = f->functions.items[fn].node;
    uint32_t al;
    const char *a = facts_text(f, alias_at[i], &al);
    TSTreeCursor c = ts_tree_cursor_new(body);
    for (bool more = true; more && ok;) {
      TSNode n = ts_tree_cursor_current_node(&c);
      if (NODE_IS(n, "identifier") && !ts_node_eq(n, alias_at[i]) && facts_text_is(f, n, a, al)) {
        TSNode up = ts_node_parent(n), ignored = NULL_NODE;
        /* `p.W` names the attribute W, not the alias */
        bool field = !ts_node_is_null(up) && NODE_IS(up, "attribute") && ts_node_eq(FACT_FIELD(f, up, attribute), n);
        if (!field && data_use(f, n, &ignored) != 1) ok = false;
      }
      if (ts_tree_cursor_goto_first_child(&c)) continue;
      more = walk_skip(&c, body);
    }
    ts_tree_cursor_delete(&c);
  }
  return ok && uses > 1;
}


/* Whether V, the value a method (METHOD, a function_definition) of a module
 * class stores in `self.x`, holds no parameter: plain data (numbers,
 * strings, booleans, None, arithmetic and containers of them, another
 * `self.` attribute, a plain parameter of the method, builtins of those,
 * a tensor of torch's own functions without `requires_grad=True`) or a
 * parameter-free module (parameter_free_module). */
/* Whether CALL makes a parameter that asks for no gradient:
 * `Parameter(t, requires_grad=False)` (`nn.Parameter`, imported or not): a
 * constant kept with the module's state, trained by nothing. */
static bool frozen_parameter(const facts *f, TSNode call) {
  if (ts_node_is_null(call) || !NODE_IS(call, "call")) return false;
  TSNode callee = FACT_FIELD(f, call, function), args = FACT_FIELD(f, call, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return false;
  TSNode last = NODE_IS(callee, "attribute") ? FACT_FIELD(f, callee, attribute) : callee;
  if (ts_node_is_null(last) || !text_is(f, last, "Parameter")) return false;
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (!NODE_IS(a, "keyword_argument")) continue;
    TSNode key = FACT_FIELD(f, a, name), value = FACT_FIELD(f, a, value);
    if (!ts_node_is_null(key) && text_is(f, key, "requires_grad")) return !ts_node_is_null(value) && NODE_IS(value, "false");
  }
  /* `Parameter(t, False)` */
  return n >= 2 && NODE_IS(ts_node_named_child(args, 1), "false");
}


/* Whether CALL (`setattr(self, name, p)`, a maker) stores a frozen
 * parameter: P bound last, in the same function, to one. */
static bool sets_frozen_parameter(const facts *f, TSNode call) {
  TSNode callee = FACT_FIELD(f, call, function), args = FACT_FIELD(f, call, arguments);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier") || !text_is(f, callee, "setattr") ||
      ts_node_is_null(args) || ts_node_named_child_count(args) != 3)
    return false;
  TSNode v = ts_node_named_child(args, 2);
  if (frozen_parameter(f, v)) return true;
  if (!NODE_IS(v, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(f, v, &len);
  long a = facts__last_assign_before(f, name, len, ts_node_start_byte(call), facts_function_at(f, ts_node_start_byte(call)));
  return a >= 0 && frozen_parameter(f, f->assigns.items[a].right);
}


/* Whether E is arithmetic or a comparison over names, literals, attributes,
 * subscripts and the numeric builtins (`len(x) - 1`, `c == counts[0]`):
 * a number or a truth value, never a module. DEPTH bounds the walk. */
static bool numeric_expr(const facts *f, TSNode e, bool top, int depth) {
  if (ts_node_is_null(e) || depth > 8) return false;
  static const char *const ops[] = {"binary_operator", "comparison_operator", "boolean_operator", "unary_operator",
                                    "not_operator", "parenthesized_expression", NULL};
  const char *type = ts_node_type(e);
  bool op = in_names_list(type, strlen(type), ops);
  if (!op && top) {
    /* a bare item (`tuple(m for m in mods)`) may be a module */
    if (!NODE_IS(e, "call")) return false;
  }
  if (op) {
    TSNode c;
    bool ok = true;
    for (children k = children_of(e); ok && children_next(&k, &c);) {
      ok = NODE_IS(c, "comment") || numeric_expr(f, c, false, depth + 1);
      if (!ok) children_done(&k);
    }
    return ok;
  }
  if (NODE_IS(e, "identifier") || NODE_IS(e, "integer") || NODE_IS(e, "float") || NODE_IS(e, "true") ||
      NODE_IS(e, "false") || NODE_IS(e, "none"))
    return true;
  if (NODE_IS(e, "attribute")) return numeric_expr(f, FACT_FIELD(f, e, object), false, depth + 1);
  if (NODE_IS(e, "subscript"))
    return numeric_expr(f, FACT_FIELD(f, e, value), false, depth + 1) &&
           numeric_expr(f, FACT_FIELD(f, e, subscript), false, depth + 1);
  if (NODE_IS(e, "call")) {
    static const char *const numeric[] = {"len", "int", "float", "round", "abs", "bool", NULL};
    TSNode callee = FACT_FIELD(f, e, function), args = FACT_FIELD(f, e, arguments);
    uint32_t len;
    const char *t = ts_node_is_null(callee) || !NODE_IS(callee, "identifier") ? "" : facts_text(f, callee, &len);
    if (!*t || !in_names_list(t, len, numeric) || ts_node_is_null(args)) return false;
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++)
      if (!numeric_expr(f, ts_node_named_child(args, i), false, depth + 1)) return false;
    return true;
  }
  return false;
}


/* Whether the comprehension C yields numbers or truth values (see
 * numeric_expr). */
static bool numeric_items(const facts *f, TSNode c) {
  TSNode body = FACT_FIELD(f, c, body);
  if (ts_node_is_null(body) && ts_node_named_child_count(c)) body = ts_node_named_child(c, 0);
  return numeric_expr(f, body, true, 0);
}


static bool parameter_free_value(const facts *f, TSNode v, TSNode method, pf_ctx *cx, int depth) {
  if (depth > 8 || ts_node_is_null(v)) return false;
  const char *type = ts_node_type(v);
  static const char *const literals[] = {"integer", "float", "string", "concatenated_string", "true", "false",
                                         "none", NULL};
  if (in_names_list(type, strlen(type), literals)) return true;
  static const char *const compound[] = {"unary_operator", "binary_operator", "boolean_operator",
                                         "comparison_operator", "not_operator", "parenthesized_expression",
                                         "conditional_expression", "tuple", "list", "set", "dictionary", "pair",
                                         NULL};
  if (in_names_list(type, strlen(type), compound)) {
    uint32_t n = ts_node_named_child_count(v);
    for (uint32_t i = 0; i < n; i++) {
      TSNode c = ts_node_named_child(v, i);
      if (NODE_IS(c, "comment")) continue;
      if (!parameter_free_value(f, c, method, cx, depth + 1)) return false;
    }
    return true;
  }
  if (NODE_IS(v, "attribute")) {
    TSNode obj = FACT_FIELD(f, v, object);
    return !ts_node_is_null(obj) && NODE_IS(obj, "identifier") && text_is(f, obj, "self");
  }
  if (NODE_IS(v, "identifier")) return !ts_node_is_null(method) && plain_parameter(f, method, v);
  if (!NODE_IS(v, "call")) return false;
  if (parameter_free_module(f, v, cx, 0)) return true;
  TSNode callee = FACT_FIELD(f, v, function), args = FACT_FIELD(f, v, arguments);
  /* `tuple(len(x) - 1 for x in bins)`: a call whose one argument is a
   * generator, numbers or truth values per item */
  if (!ts_node_is_null(callee) && !ts_node_is_null(args) && NODE_IS(args, "generator_expression") &&
      NODE_IS(callee, "identifier")) {
    static const char *const collectors[] = {"list", "tuple", "set", "all", "any", "sum", "max", "min", NULL};
    uint32_t len;
    const char *t = facts_text(f, callee, &len);
    size_t first, end;
    facts_bindings_named(f, t, len, &first, &end);
    return first == end && in_names_list(t, len, collectors) && numeric_items(f, args);
  }
  if (ts_node_is_null(callee) || ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return false;
  uint32_t n = ts_node_named_child_count(args);
  if (NODE_IS(callee, "identifier")) {
    static const char *const builtins[] = {"list", "tuple", "range", "int", "float", "str", "bool", "len", "max",
                                           "min", "abs", "round", "sum", "dict", "set", "all", "any", NULL};
    uint32_t len;
    const char *t = facts_text(f, callee, &len);
    size_t first, end;
    facts_bindings_named(f, t, len, &first, &end);
    /* `float(ambient_temp)`, `len(layers)`: a Python number or string,
     * whatever the argument */
    static const char *const conversions[] = {"int", "float", "str", "bool", "len", NULL};
    if (first == end && in_names_list(t, len, conversions)) return true;
    if (first == end && in_names_list(t, len, builtins)) {
      for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (NODE_IS(a, "keyword_argument")) a = FACT_FIELD(f, a, value);
        if (NODE_IS(a, "comment")) continue;
        /* `tuple(len(x) - 1 for x in bins)`, `all(c == n for c in counts)`:
         * numbers and truth values computed per item */
        if ((NODE_IS(a, "generator_expression") || NODE_IS(a, "list_comprehension")) && numeric_items(f, a)) continue;
        if (!parameter_free_value(f, a, method, cx, depth + 1)) return false;
      }
      return true;
    }
  }
  /* `self.embedding.weight.numel()`, `x.size(0)`: a number */
  if (NODE_IS(callee, "attribute")) {
    static const char *const counts[] = {"numel", "size", "dim", "item", NULL};
    uint32_t ml;
    const char *m = facts_text(f, FACT_FIELD(f, callee, attribute), &ml);
    if (in_names_list(m, ml, counts)) return true;
  }
  if (frozen_parameter(f, v)) return true;
  if (!facts_qualname(f, callee, cx->tmp)) return false;
  const char *q = buf_str(cx->tmp);
  /* `nn.Embedding.from_pretrained(table)`: frozen unless `freeze=False` */
  if (!strcmp(q, "torch.nn.Embedding.from_pretrained") || !strcmp(q, "torch.nn.EmbeddingBag.from_pretrained")) {
    for (uint32_t i = 0; i < n; i++) {
      TSNode a = ts_node_named_child(args, i);
      if (!NODE_IS(a, "keyword_argument")) continue;
      TSNode key = FACT_FIELD(f, a, name), value = FACT_FIELD(f, a, value);
      if (!ts_node_is_null(key) && text_is(f, key, "freeze") && !ts_node_is_null(value) && !NODE_IS(value, "true"))
        return false;
    }
    return true;
  }
  /* torch.zeros(...), torch.arange(...): a tensor, no parameter, unless it requires grad */
  if (strncmp(q, "torch.", 6) != 0 || strchr(q + 6, '.') || !islower((unsigned char)q[6])) return false;
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (!NODE_IS(a, "keyword_argument")) continue;
    TSNode key = FACT_FIELD(f, a, name), value = FACT_FIELD(f, a, value);
    if (!ts_node_is_null(key) && text_is(f, key, "requires_grad") && !ts_node_is_null(value) &&
        !NODE_IS(value, "false"))
      return false;
  }
  return true;
}


/* Whether the body of class K stores nothing but parameter-free values in
 * attributes of `self` (or in class attributes) and makes no parameter
 * itself (`nn.Parameter`, `register_parameter`, `add_module`, `setattr`),
 * from the assignments and calls the facts recorded in its span. The
 * values that are parameters of their method (`self.dim = dim`) are judged
 * last: their check reads the method's body, and most module classes fail
 * sooner, on a layer with parameters. */
static bool class_holds_no_parameter(const facts *f, const facts_class *k, pf_ctx *cx) {
  uint32_t start = ts_node_start_byte(k->node), end = ts_node_end_byte(k->node);
  for (size_t i = 0; i < f->self_patterns.len; i++)
    if (f->self_patterns.items[i] >= start && f->self_patterns.items[i] < end) return false;
  size_t lo = facts_first_assign_at(f, start);
  enum { MAX_DEFERRED = 64 };
  struct {
    TSNode value, method, attr;
  } deferred[MAX_DEFERRED];
  int ndeferred = 0;
  for (size_t i = lo; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
    uint32_t at = ts_node_start_byte(left);
    if (at >= end) break;
    int fn = facts_function_at(f, at);
    bool in_method = fn >= 0 && f->functions.items[fn].whole.start > start;
    if (NODE_IS(left, "attribute")) {
      if (!in_method) return false;
      /* the method whose parameters a value may name */
      TSNode method = f->functions.items[fn].node;
      if (NODE_IS(right, "identifier")) {
        if (ndeferred == MAX_DEFERRED) return false;
        deferred[ndeferred].attr = FACT_FIELD(f, left, attribute);
        deferred[ndeferred].value = right;
        deferred[ndeferred++].method = method;
      } else if (!parameter_free_value(f, right, method, cx, 0)) {
        return false;
      }
    } else if (!in_method && !parameter_free_value(f, right, NULL_NODE, cx, 0)) {
      return false; /* a class attribute (`act = nn.ReLU()`): used by every instance */
    }
  }
  /* after the assignments, which refuse most modules (`self.fc =
   * nn.Linear(...)`) before every call of the class is read, and before the
   * names stored (`self.extractor = fn`), each matched against the
   * method's parameters */
  static const char *const makers[] = {"Parameter", "register_parameter", "add_module", "register_module",
                                       "setattr", "__setattr__", "ParameterList", "ParameterDict", NULL};
  for (size_t i = facts_first_call_at(f, start); i < f->calls.len; i++) {
    TSNode call = f->calls.items[i].call;
    if (ts_node_start_byte(call) >= end) break;
    TSNode callee = FACT_FIELD(f, call, function);
    if (ts_node_is_null(callee)) continue;
    TSNode last = NODE_IS(callee, "attribute") ? FACT_FIELD(f, callee, attribute) : callee;
    if (ts_node_is_null(last)) continue;
    uint32_t len;
    const char *t = facts_text(f, last, &len);
    /* `Parameter(t, requires_grad=False)`, `setattr(self, name, p)` of
     * one: constants, not parameters anything trains (ReAgent's
     * feature normalizer) */
    if (in_names_list(t, len, makers) && !frozen_parameter(f, call) && !sets_frozen_parameter(f, call)) return false;
  }
  for (int i = 0; i < ndeferred; i++) {
    /* `self.extractor = get_vocos_mel_spectrogram`: a function of the
     * module, kept to be called, is no layer */
    int g = facts_function_named(f, deferred[i].value);
    bool function = g >= 0 && f->functions.items[g].parent < 0 && !f->functions.items[g].returns_model;
    if (function || plain_parameter(f, deferred[i].method, deferred[i].value)) continue;
    /* read only as data where the class uses it (a settings dataclass of another module) */
    TSNode attr = deferred[i].attr;
    uint32_t al;
    const char *a = ts_node_is_null(attr) ? NULL : facts_text(f, attr, &al);
    if (!a || !stored_as_data(f, k, a, al)) return false;
  }
  return true;
}


/* Whether method G's own body freezes its whole instance and thaws none
 * of it (the freezes resolve_freezes found on `self`:
 * `self.requires_grad_(False)`, `for p in self.parameters(): p.requires_grad
 * = False`), itself or through a method of its class it calls on `self`
 * (`self.freeze()`), DEPTH bounding those. */
static bool freezes_self(const facts *f, int g, int depth) {
  assert(g >= 0 && (size_t)g < f->functions.len && depth >= 0);
  bool frozen = false;
  for (size_t i = 0; i < f->freezes.len; i++) {
    const facts_freeze *z = &f->freezes.items[i];
    if (z->function != g || z->len != 4 || memcmp(z->name, "self", 4)) continue;
    if (!z->frozen) return false;
    frozen = true;
  }
  const facts_function *fn = &f->functions.items[g];
  for (size_t i = facts_first_call_at(f, fn->body.start); !frozen && depth < 2 && i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= fn->body.end) break;
    TSNode callee = FACT_FIELD(f, c->call, function);
    if (c->function != g || ts_node_is_null(callee) || !NODE_IS(callee, "attribute") ||
        !text_is(f, FACT_FIELD(f, callee, object), "self"))
      continue;
    int m = facts_function_named(f, callee);
    if (m >= 0 && m != g && f->functions.items[m].klass == fn->klass) frozen = freezes_self(f, m, depth + 1);
  }
  return frozen;
}


/* Whether class K freezes each instance in its `__init__` (Stable
 * Diffusion's FrozenAutoencoderKL: `self.eval(); self.requires_grad_(False)`),
 * and no method of it unfreezes one: its instances train nothing, as a
 * module holding no parameter. */
static bool freezes_itself(const facts *f, const facts_class *k) {
  assert(k >= f->classes.items && k < f->classes.items + f->classes.len);
  int klass = (int)(k - f->classes.items);
  bool frozen = false;
  for (size_t i = facts__first_named(f, "__init__", 8); i < f->functions_by_name.len; i++) {
    const facts_fname *e = &f->functions_by_name.items[i];
    if (e->len != 8 || memcmp(e->name, "__init__", 8)) break;
    const facts_function *fn = &f->functions.items[e->index];
    if (fn->klass == klass && fn->parent < 0) frozen = freezes_self(f, e->index, 0);
  }
  if (!frozen) return false;
  /* `self.requires_grad_(True)` (or a loop thawing `self.parameters()`) in
   * any method of the class */
  for (size_t i = 0; i < f->freezes.len; i++) {
    const facts_freeze *z = &f->freezes.items[i];
    if (!z->frozen && z->function >= 0 && f->functions.items[z->function].klass == klass && z->len == 4 &&
        !memcmp(z->name, "self", 4))
      return false;
  }
  return true;
}


/* Module classes of the file that hold no parameter: they derive nn.Module
 * (or such classes of the file) alone, and what their methods store in
 * `self` is plain data or parameter-free modules (`class Elementwise(nn.Module):
 * def forward(self, x, y): return x * y + y`; `self.in_nodes = in_nodes`,
 * `self.softmax = nn.LogSoftmax(dim=1)`), with no `nn.Parameter` of their
 * own. Their calls record a graph only when an input requires grad. Then
 * the names bound to such modules: instances of those classes,
 * parameter-free torch.nn layers, `nn.Sequential(...)` of them. */
/* What V makes, through `.to(device)`-like chains and, once, a local name
 * bound just before in the same function (`self.scattering =
 * scattering.to(device)` after `scattering = Scattering1D(...)`). */
static TSNode made_before(const facts *f, TSNode v) {
  static const char *const same[] = {"to", "cuda", "cpu", "train", "eval", "half", "float", "bfloat16", "double", NULL};
  for (int hop = 0; hop < 2; hop++) {
    for (int guard = 0; guard < 8 && NODE_IS(v, "call"); guard++) {
      TSNode callee = FACT_FIELD(f, v, function);
      if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) break;
      TSNode attr = FACT_FIELD(f, callee, attribute);
      uint32_t alen;
      const char *at = ts_node_is_null(attr) ? "" : facts_text(f, attr, &alen);
      if (ts_node_is_null(attr) || !in_names_list(at, alen, same)) break;
      v = FACT_FIELD(f, callee, object);
    }
    if (hop || !NODE_IS(v, "identifier")) break;
    /* the last assignment of the name before V in V's function, looked
     * for backwards from V down to the function's start only (most such
     * names are parameters, `self.dim = dim`, assigned nowhere) */
    uint32_t nl, pos = ts_node_start_byte(v);
    const char *n = facts_text(f, v, &nl);
    long a = facts__last_local_assign(f, n, nl, pos, facts_function_at(f, pos));
    if (a < 0) break;
    v = f->assigns.items[a].right;
  }
  return v;
}


/* Whether V, an identifier, is a parameter of its function annotated with
 * a module class of the file that holds no trainable parameter (`def
 * __init__(self, feature_extractor: FeatureExtractor)` with a VGG extractor
 * that freezes itself): what it is handed holds none. A class of another
 * module is not looked up: the lookup of every annotation cost more than
 * the cases it finds. */
static bool annotated_parameter_free(const facts *f, TSNode v, pf_ctx *cx) {
  if (!NODE_IS(v, "identifier")) return false;
  TSNode type = parameter_annotation(f, v, facts_function_at(f, ts_node_start_byte(v)));
  if (!ts_node_is_null(type) && onnx_runtime_model(f, type, cx->tmp)) return true;
  if (ts_node_is_null(type) || !NODE_IS(type, "identifier")) return false;
  uint32_t tl;
  const char *tt = facts_text(f, type, &tl);
  return is_parameter_free_class(f, tt, tl, cx);
}


/* Collects the names F binds to a lambda or to an instance of a plain
 * class of the file: the only bindings facts_is_frozen then reads as no
 * torch model at all. */
static void collect_non_model_names(facts *f) {
  /* `name = lambda ...`: the assignment whose left side comes last before
   * the lambda, when the lambda is its whole right side */
  for (size_t i = 0; i < f->lambdas.len; i++) {
    size_t a = facts_first_assign_at(f, f->lambdas.items[i].start);
    if (a == 0) continue;
    TSNode left = f->assigns.items[a - 1].left, right = f->assigns.items[a - 1].right;
    if (ts_node_is_null(right) || ts_node_start_byte(right) != f->lambdas.items[i].start ||
        !NODE_IS(left, "identifier"))
      continue;
    uint32_t len;
    const char *t = facts_text(f, left, &len);
    vec_push(&f->non_model_names, oom_xstrndup(t, len));
  }
  for (size_t i = 0; f->classes.len && i < f->instance_assigns.len; i++) {
    const facts_assign *a = &f->assigns.items[f->instance_assigns.items[i]];
    TSNode callee = FACT_FIELD(f, a->right, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier") || !NODE_IS(a->left, "identifier")) continue;
    uint32_t len;
    const char *t = facts_text(f, callee, &len);
    for (size_t k = 0; k < f->classes.len; k++)
      if (f->classes.items[k].plain && !f->classes.items[k].is_module && f->classes.items[k].name_len == len &&
          !memcmp(f->classes.items[k].name, t, len)) {
        uint32_t ll;
        const char *l = facts_text(f, a->left, &ll);
        vec_push(&f->non_model_names, oom_xstrndup(l, ll));
        break;
      }
  }
}


static void mark_parameter_free(facts *f, buf *tmp) {
  collect_non_model_names(f);
  /* a LightningModule is an nn.Module: one storing no layer (a baseline
   * repeating the last value it is shown) holds no parameter either */
  static const char *const module[] = {"torch.nn.Module",
                                       "torch.nn.modules.module.Module",
                                       "pytorch_lightning.LightningModule",
                                       "pytorch_lightning.core.LightningModule",
                                       "pytorch_lightning.core.module.LightningModule",
                                       "lightning.LightningModule",
                                       "lightning.pytorch.LightningModule",
                                       NULL};
  /* a class deriving such classes, or storing their instances, is judged
   * once they are: to a fixed point; a class refused without asking about
   * another class of the file (a layer with parameters) stays refused */
  bool *settled = oom_xcalloc(f->classes.len + 1, sizeof *settled);
  pf_ctx cx = {tmp, false};
  /* the classes freezing themselves, once (most files freeze no `self`) */
  bool freezes_any_self = false;
  for (size_t i = 0; i < f->freezes.len && !freezes_any_self; i++)
    freezes_any_self = f->freezes.items[i].len == 4 && !memcmp(f->freezes.items[i].name, "self", 4);
  for (size_t i = 0; freezes_any_self && i < f->classes.len; i++) {
    facts_class *k = &f->classes.items[i];
    if (k->is_module && !ts_node_is_null(k->bases) && freezes_itself(f, k)) k->no_parameters = true;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < f->classes.len; i++) {
      facts_class *k = &f->classes.items[i];
      if (settled[i] || k->no_parameters || !k->is_module || ts_node_is_null(k->bases)) continue;
      cx.consulted = false;
      uint32_t n = ts_node_named_child_count(k->bases);
      bool alone = n > 0;
      for (uint32_t j = 0; j < n && alone; j++) {
        TSNode base = ts_node_named_child(k->bases, j);
        uint32_t len;
        const char *t = facts_text(f, base, &len);
        alone = qualname_is(f, base, module, tmp) ||
                (NODE_IS(base, "identifier") && is_parameter_free_class(f, t, len, &cx));
      }
      if (alone && class_holds_no_parameter(f, k, &cx)) k->no_parameters = changed = true;
      else if (!cx.consulted) settled[i] = true;
    }
  }
  free(settled);
  /* the factories returning only instances of such classes (`def
   * get_model(path): return FrozenAutoencoderKL(cfg, path)`): what they
   * return is no model for their importers either */
  uint8_t *seen = NULL; /* per function: 1 every return so far frozen, 2 one not */
  for (size_t i = 0; i < f->returns.len; i++) {
    int g = f->returns.items[i].function;
    if (g < 0 || !f->functions.items[g].returns_model) continue;
    TSNode value = ts_node_named_child(f->returns.items[i].call, 0);
    TSNode callee = !ts_node_is_null(value) && NODE_IS(value, "call") ? FACT_FIELD(f, value, function) : NULL_NODE;
    bool frozen = false;
    if (!ts_node_is_null(callee) && NODE_IS(callee, "identifier")) {
      uint32_t len;
      const char *name = facts_text(f, callee, &len);
      frozen = is_parameter_free_class(f, name, len, NULL);
    }
    if (!seen) seen = oom_xcalloc(f->functions.len, 1);
    seen[g] = frozen && seen[g] != 2 ? 1 : 2;
  }
  for (size_t g = 0; seen && g < f->functions.len; g++) f->functions.items[g].returns_frozen = seen[g] == 1;
  free(seen);
  /* the names bound to parameter-free modules (`mem = Elementwise()`,
   * `act = nn.ReLU()`, through `.to(device)`-like chains), which
   * facts_is_frozen looks up first */
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode right = f->assigns.items[i].right;
    for (int guard = 0; guard < 8 && NODE_IS(right, "call"); guard++) {
      TSNode callee = FACT_FIELD(f, right, function);
      if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) break;
      static const char *const same[] = {"to", "cuda", "cpu", "train", "eval", "half", "float", "bfloat16",
                                         "double", NULL};
      TSNode attr = FACT_FIELD(f, callee, attribute);
      uint32_t alen;
      const char *at = ts_node_is_null(attr) ? "" : facts_text(f, attr, &alen);
      if (ts_node_is_null(attr) || !in_names_list(at, alen, same)) break;
      right = FACT_FIELD(f, callee, object);
    }
    /* `self.scattering = scattering.to(device)`: the local made just before */
    if (NODE_IS(right, "identifier") && NODE_IS(f->assigns.items[i].left, "attribute")) right = made_before(f, right);
    uint32_t llen;
    const char *left = facts_text(f, f->assigns.items[i].left, &llen);
    /* `self.fe = fe` of an annotated parameter: only attributes are asked
     * (the question walks the function's parameters) */
    if (!parameter_free_module(f, right, &cx, 0) && !transform_pipeline(f, left, llen, right, &cx) &&
        !(NODE_IS(right, "identifier") && NODE_IS(f->assigns.items[i].left, "attribute") &&
          annotated_parameter_free(f, right, &cx)))
      continue;
    vec_push(&f->parameter_free_names, oom_xstrndup(left, llen));
  }
}


bool facts__parameter_free_module(const facts *self, TSNode call, const char *name, uint32_t len) {
  buf tmp = {0};
  pf_ctx cx = {&tmp, false};
  /* through `.to(device)`-like chains (`model = InceptionV3([3]).to(device)`) */
  if (NODE_IS(call, "identifier") || NODE_IS(call, "call")) call = made_before(self, call);
  bool r = parameter_free_module(self, call, &cx, 0) || transform_pipeline(self, name, len, call, &cx) ||
           annotated_parameter_free(self, call, &cx);
  buf_free(&tmp);
  return r;
}


int facts_base_kind(const facts *f, TSNode *base, buf *tmp) {
  if (NODE_IS(*base, "keyword_argument")) {
    static const char *const abc_meta[] = {"abc.ABCMeta", NULL};
    TSNode name = FACT_FIELD(f, *base, name), value = FACT_FIELD(f, *base, value);
    if (!ts_node_is_null(name) && text_is(f, name, "metaclass") && !ts_node_is_null(value) &&
        qualname_is(f, value, abc_meta, tmp))
      return FACTS_BASE_PLAIN;
    return FACTS_BASE_SKIP;
  }
  if (NODE_IS(*base, "subscript")) {
    TSNode value = FACT_FIELD(f, *base, value);
    if (ts_node_is_null(value)) return FACTS_BASE_OTHER;
    *base = value;
  }
  if (NODE_IS(*base, "identifier") && text_is(f, *base, "object")) {
    /* the builtin, unless the file binds the name */
    size_t first, end;
    facts_bindings_named(f, "object", 6, &first, &end);
    return first == end ? FACTS_BASE_PLAIN : FACTS_BASE_OTHER;
  }
  if (!facts_qualname(f, *base, tmp)) return FACTS_BASE_OTHER;
  const char *q = buf_str(tmp);
  /* an autograd Function (`class PairwiseDistance(Function)` with its own
   * `forward`) holds no parameter: calling it is arithmetic on its inputs */
  return !strcmp(q, "abc.ABC") || starts_with(q, "typing.") || starts_with(q, "typing_extensions.") ||
                 !strcmp(q, "torch.autograd.Function") || !strcmp(q, "torch.autograd.function.Function") ||
                 !strcmp(q, "torch.autograd.function.InplaceFunction")
             ? FACTS_BASE_PLAIN
             : FACTS_BASE_OTHER;
}


/* Whether NAME (LEN bytes) names plain classes of the file, and only such:
 * a name defined twice (`if ...: class T(ABC)` / `else: class T(nn.Module)`)
 * is plain only when both are. */
static bool is_plain_class_name(const facts *f, const char *name, uint32_t len) {
  bool any = false;
  for (size_t i = 0; i < f->classes.len; i++) {
    const facts_class *k = &f->classes.items[i];
    if (k->name_len != len || memcmp(k->name, name, len) != 0) continue;
    if (!k->plain) return false;
    any = true;
  }
  return any;
}


/* Whether class K is plain by its bases, given the plain classes found so
 * far: each is object, ABC or typing's, a plain class of the file, or one
 * of another module of the project that its summary says is plain. With no
 * base at all it derives object alone, plain too, unless it defines
 * `forward`: such a class stays a model, as a base not resolved keeps it. */
static bool plain_by_bases(const facts *f, const facts_class *k, buf *tmp) {
  uint32_t n = ts_node_is_null(k->bases) ? 0 : ts_node_named_child_count(k->bases), count = 0;
  for (uint32_t j = 0; j < n; j++) {
    TSNode base = ts_node_named_child(k->bases, j);
    int kind = facts_base_kind(f, &base, tmp);
    if (kind == FACTS_BASE_SKIP) continue;
    count++;
    if (kind == FACTS_BASE_PLAIN) continue;
    uint32_t len;
    const char *t = facts_text(f, base, &len);
    if (NODE_IS(base, "identifier") && is_plain_class_name(f, t, len)) continue;
    if (!project_class(f, base, SYM_PLAIN)) return false;
  }
  return count > 0 || !k->has_forward;
}


/* Classes known not to be modules (facts_class.plain), to a fixed point:
 * a plain class makes the classes deriving it plain in a later pass, and
 * a cycle of bases never becomes plain (a base not resolved is a model's). */
static void resolve_plain(facts *f, buf *tmp) {
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < f->classes.len; i++) {
      facts_class *k = &f->classes.items[i];
      if (k->plain || k->is_module || !plain_by_bases(f, k, tmp)) continue;
      k->plain = changed = true;
    }
  }
}


/* Model names are the file's, not a function's: `model = Net()` in one
 * function makes `model(x)` a forward in every other. That is right for the
 * names people give models, which a function of the file may take as a
 * parameter or build by a call the file cannot see (`model =
 * model_cls(cfg)`, `discriminator = model_dict["discriminator"]`), and wrong
 * for the names of tools that are modules only now and then: the `metric =
 * BERTScore()` of one test does not make the `metric = metric_class()` of the
 * next test a model. So a plain name of a tool (names_model_tool: a metric,
 * an optimizer, a trainer) that a function binds itself, with no binding of
 * a model and no use as one in that function, is no model there. Treating
 * every name so lost real models (the discriminator above). */
/* A parameter that every call of its function in the file binds to a
 * module class of the file (`_make_layer(prev, BasicBlock, planes, n)`)
 * holds a class: `block(inplanes, planes)` there builds a layer, whatever
 * a model bound to the same name in another function (`block =
 * _make_layer(...)` in `__init__`) says. Not when the function itself uses
 * the name as a model (a model site there). */
static void class_parameters(facts *f) {
  /* the functions with a parameter named as a model elsewhere and not used
   * as one there, found from the bindings of the model names: most files
   * have none, and their calls are then not read */
  uint8_t *candidate = NULL;
  for (size_t m = 0; m < f->module_names.len; m++) {
    const char *n = f->module_names.items[m];
    size_t nl = strlen(n);
    if (memchr(n, '.', nl)) continue;
    size_t first, end;
    facts_bindings_named(f, n, (uint32_t)nl, &first, &end);
    for (size_t i = first; i < end; i++) {
      const facts_binding *b = &f->bindings.items[i];
      int g = (int)b->parameter_of - 1;
      if (g < 0 || fname_has(f->model_sites.items, f->model_sites.len, n, (uint32_t)nl, g)) continue;
      assert((size_t)g < f->functions.len);
      /* only a parameter the function calls matters (`block(inplanes, planes)`) */
      facts_span body = f->functions.items[g].body;
      bool called = false;
      for (size_t c = facts_first_call_at(f, body.start); c < f->calls.len && !called; c++) {
        TSNode call = f->calls.items[c].call;
        if (ts_node_start_byte(call) >= body.end) break;
        TSNode callee = FACT_FIELD(f, call, function);
        called = f->calls.items[c].function == g && !ts_node_is_null(callee) && NODE_IS(callee, "identifier") &&
                 facts_text_is(f, callee, n, (uint32_t)nl);
      }
      if (!called) continue;
      if (!candidate) candidate = oom_xcalloc(f->functions.len, 1);
      candidate[g] = 1;
    }
  }
  if (!candidate) return;
  size_t first = f->local_non_models.len;
  VEC(facts_fname) refused = {0}; /* (parameter, function) bound to anything else once */
  for (size_t i = 0; i < f->calls.len; i++) {
    TSNode call = f->calls.items[i].call;
    TSNode callee = FACT_FIELD(f, call, function), args = FACT_FIELD(f, call, arguments);
    if (ts_node_is_null(args) || !NODE_IS(args, "argument_list") || ts_node_is_null(callee) ||
        !(NODE_IS(callee, "identifier") || NODE_IS(callee, "attribute")))
      continue;
    int g = facts_function_named(f, callee);
    if (g < 0 || !candidate[g]) continue;
    /* `self._make_layer(Block, ...)`: positions after `self` */
    uint32_t shift = NODE_IS(callee, "attribute") && f->functions.items[g].klass >= 0 ? 1 : 0, k = 0;
    TSNode a;
    for (children it = children_of(args); children_next(&it, &a);) {
      if (NODE_IS(a, "comment")) continue;
      TSNode param = facts__argument_parameter(f, g, &a, k++ + shift);
      uint32_t pl, al = 0;
      const char *pn = ts_node_is_null(param) ? NULL : facts_text(f, param, &pl);
      if (!pn || !has_name(f, pn, pl) || fname_has(f->model_sites.items, f->model_sites.len, pn, pl, g)) continue;
      const char *at = !ts_node_is_null(a) && NODE_IS(a, "identifier") ? facts_text(f, a, &al) : NULL;
      bool klass = at && is_module_class_name(f, at, al);
      facts_fname e = {pn, pl, g};
      if (!klass) {
        if (!fname_has(refused.items, refused.len, pn, pl, g)) vec_push(&refused, e);
      } else if (!fname_has(f->local_non_models.items, f->local_non_models.len, pn, pl, g)) {
        vec_push(&f->local_non_models, e);
      }
    }
  }
  /* drop the parameters some call binds to something else */
  size_t keep = first;
  for (size_t i = first; i < f->local_non_models.len; i++) {
    const facts_fname *e = &f->local_non_models.items[i];
    if (!fname_has(refused.items, refused.len, e->name, e->len, e->index)) f->local_non_models.items[keep++] = *e;
  }
  f->local_non_models.len = keep;
  vec_free(&refused);
  free(candidate);
}


static void resolve_local_non_models(facts *f, buf *tmp) {
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left;
    if (!NODE_IS(left, "identifier")) continue;
    uint32_t len;
    const char *t = facts_text(f, left, &len);
    if (!has_name(f, t, len) || !names_model_tool(t, len)) continue;
    int fn = facts_function_at(f, ts_node_start_byte(left));
    if (fn >= 0 && is_module_expr(f, f->assigns.items[i].right, tmp)) add_model_site(f, t, len, fn);
  }
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left;
    if (!NODE_IS(left, "identifier")) continue;
    uint32_t len;
    const char *t = facts_text(f, left, &len);
    if (!has_name(f, t, len) || !names_model_tool(t, len)) continue;
    int fn = facts_function_at(f, ts_node_start_byte(left));
    if (fn < 0 || fname_has(f->model_sites.items, f->model_sites.len, t, len, fn) ||
        fname_has(f->local_non_models.items, f->local_non_models.len, t, len, fn))
      continue;
    vec_push(&f->local_non_models, ((facts_fname){t, len, fn}));
  }
  class_parameters(f);
  vec_free(&f->model_sites);
}


/* Whether E makes an Ultralytics predictor (`YOLO("yolov8n.pt")`, maybe
 * `.fuse().cpu()`), or reads a name or a function of the file that returns
 * one (`self.detector = self.load_detector()`). Calling a predictor runs
 * its predict under inference mode and returns Results objects: it records
 * no graph, whatever the name it is bound to says. DEPTH bounds the hops. */
static bool makes_predictor(const facts *f, TSNode e, int fn, buf *tmp, int depth) {
  static const char *const same[] = {"to", "cuda", "cpu", "eval", "fuse", "half", "float", NULL};
  if (depth > 3 || ts_node_is_null(e)) return false;
  for (int guard = 0; guard < 8 && NODE_IS(e, "call"); guard++) {
    TSNode callee = FACT_FIELD(f, e, function);
    if (ts_node_is_null(callee)) return false;
    bool stripped = false;
    for (size_t i = 0; NODE_IS(callee, "attribute") && same[i] && !stripped; i++)
      if (text_is(f, FACT_FIELD(f, callee, attribute), same[i])) {
        e = FACT_FIELD(f, callee, object);
        stripped = true;
      }
    if (stripped) continue;
    if (facts_qualname(f, callee, tmp) && !strncmp(buf_str(tmp), "ultralytics.", 12)) {
      const char *dot = strrchr(buf_str(tmp), '.');
      return isupper((unsigned char)dot[1]);
    }
    int g = facts_function_named(f, callee);
    if (g < 0) return false;
    bool any = false;
    for (size_t i = 0; i < f->returns.len; i++) {
      if (f->returns.items[i].function != g) continue;
      TSNode value = ts_node_named_child(f->returns.items[i].call, 0);
      if (!makes_predictor(f, value, g, tmp, depth + 1)) return false;
      any = true;
    }
    return any;
  }
  if (ts_node_is_null(e) || !NODE_IS(e, "identifier")) return false;
  uint32_t len;
  const char *t = facts_text(f, e, &len);
  long a = facts__last_assign_before(f, t, len, ts_node_start_byte(e), fn);
  return a >= 0 && makes_predictor(f, f->assigns.items[a].right, fn, tmp, depth + 1);
}


/* Drops from the models the names (and `self.x`) that every binding of the
 * file makes an Ultralytics predictor (makes_predictor): most files import
 * nothing from it. */
static void drop_predictors(facts *f, buf *tmp) {
  bool imports = false;
  for (size_t i = 0; i < f->imported_modules.len && !imports; i++)
    imports = !strncmp(f->imported_modules.items[i], "ultralytics", 11);
  for (size_t k = 0; imports && k < f->module_names.len;) {
    const char *n = f->module_names.items[k];
    size_t nl = strlen(n);
    bool bound = false, all = true;
    for (size_t i = 0; i < f->assigns.len && all; i++) {
      if (!facts_text_is(f, f->assigns.items[i].left, n, nl)) continue;
      TSNode right = f->assigns.items[i].right;
      bound = true;
      all = makes_predictor(f, right, facts_function_at(f, ts_node_start_byte(right)), tmp, 0);
    }
    if (!bound || !all) {
      k++;
      continue;
    }
    free(f->module_names.items[k]);
    f->module_names.items[k] = f->module_names.items[--f->module_names.len];
  }
}


bool facts__model_name_at(const facts *f, const char *s, uint32_t len, uint32_t pos) {
  if (!has_name(f, s, len)) return false;
  if (!f->local_non_models.len || memchr(s, '.', len)) return true;
  int fn = facts_function_at(f, pos);
  return fn < 0 || !fname_has(f->local_non_models.items, f->local_non_models.len, s, len, fn);
}


static void resolve_modules(facts *f, buf *tmp) {
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < f->classes.len; i++) {
      facts_class *k = &f->classes.items[i];
      if (ts_node_is_null(k->bases)) continue;
      uint32_t n = ts_node_named_child_count(k->bases);
      for (uint32_t j = 0; j < n && !k->is_module; j++)
        if (is_module_base(f, ts_node_named_child(k->bases, j), tmp)) k->is_module = changed = true;
      for (uint32_t j = 0; j < n && !k->is_dataset && !k->is_module; j++)
        if (is_dataset_base(f, ts_node_named_child(k->bases, j), tmp)) k->is_dataset = changed = true;
    }
  }
  resolve_plain(f, tmp);
  /* bounded: each pass adds a name or stops; an assignment whose answer
   * was final is not asked again (most call a library or a project class,
   * whose lookups cost the most) */
  bool *final = oom_xcalloc(f->assigns.len + 1, sizeof *final);
  for (int pass = 0; pass < 4; pass++) {
    size_t before = f->module_names.len;
    bool returned = resolve_returned_models(f, tmp);
    for (size_t i = 0; i < f->assigns.len; i++) {
      if (final[i]) continue;
      uint32_t len;
      const char *t = facts_text(f, f->assigns.items[i].left, &len);
      if (has_name(f, t, len)) continue;
      bool settled = true;
      if (is_module_expr_settled(f, f->assigns.items[i].right, tmp, &settled))
        vec_push(&f->module_names, oom_xstrndup(t, len));
      else final[i] = settled;
    }
    resolve_modules_by_use(f, tmp);
    if (f->module_names.len == before && !returned) break;
  }
  free(final);
  resolve_local_non_models(f, tmp);
  drop_predictors(f, tmp);
  mark_parameter_free(f, tmp);
}


static bool looks_like_optimizer(const char *s, size_t len) {
  /* optimizer, optim, opt, g_optimizer, opt_d, scaler (GradScaler.step) */
  char lower[64];
  if (len >= sizeof lower) return false;
  for (size_t i = 0; i < len; i++) lower[i] = (char)tolower((unsigned char)s[i]);
  lower[len] = '\0';
  const char *last = strrchr(lower, '.');
  const char *name = last ? last + 1 : lower;
  return strstr(name, "optim") || !strncmp(name, "opt", 3) || strstr(name, "_opt") ||
         strstr(name, "scaler");
}


bool facts_optimizer_name(const char *s, size_t len) {
  return looks_like_optimizer(s, len);
}


static bool is_loader_name(const char *s, size_t len) {
  const char *last = s;
  for (size_t i = 0; i < len; i++)
    if (s[i] == '.') last = s + i + 1;
  size_t n = len - (size_t)(last - s);
  char lower[64];
  if (n >= sizeof lower) return false;
  for (size_t i = 0; i < n; i++) lower[i] = (char)tolower((unsigned char)last[i]);
  lower[n] = '\0';
  return (n >= 6 && !strcmp(lower + n - 6, "loader")) || !strcmp(lower, "batches") ||
         (n > 8 && !strcmp(lower + n - 8, "_batches"));
}


static bool is_loader_expr(const facts *f, TSNode e, buf *tmp) {
  for (int guard = 0; guard < 4 && NODE_IS(e, "call"); guard++) {
    /* enumerate(loader), tqdm(loader), tqdm.tqdm(loader, ...), iter(loader) */
    TSNode fn = FACT_FIELD(f, e, function);
    uint32_t len;
    const char *t = facts_text(f, fn, &len);
    bool wrapper = (len == 9 && !memcmp(t, "enumerate", 9)) || (len >= 4 && !memcmp(t + len - 4, "tqdm", 4)) ||
                   (len == 4 && !memcmp(t, "iter", 4));
    if (!wrapper) return false;
    e = first_arg(e);
    if (ts_node_is_null(e)) return false;
  }
  if (!NODE_IS(e, "identifier") && !NODE_IS(e, "attribute")) return false;
  uint32_t len;
  const char *t = facts_text(f, e, &len);
  if (is_loader_name(t, len)) return true;
  (void)tmp;
  for (size_t i = 0; i < f->loader_names.len; i++)
    if (facts__cstr_is(f->loader_names.items[i], t, len)) return true;
  return false;
}


static bool is_backward_call(const facts *f, TSNode call, buf *tmp) {
  TSNode fn = FACT_FIELD(f, call, function);
  if (ts_node_is_null(fn)) return false;
  if (NODE_IS(fn, "attribute")) {
    TSNode attr = FACT_FIELD(f, fn, attribute);
    if (text_is(f, attr, "backward")) {
      /* torch.autograd.backward(...) and loss.backward() alike */
      return true;
    }
  }
  static const char *const autograd[] = {"torch.autograd.backward", "torch.autograd.grad", NULL};
  return qualname_is(f, fn, autograd, tmp) || facts__scaler_step(f, call);
}


bool facts_in_module_method(const facts *f, int fn) {
  for (; fn >= 0; fn = f->functions.items[fn].parent) {
    const facts_function *x = &f->functions.items[fn];
    if (x->name_len >= 7 && !memcmp(x->name, "forward", 7)) return true;
    const facts_class *k = x->klass >= 0 ? &f->classes.items[x->klass] : NULL;
    /* a class defining `forward` is a model unless its bases say it is not */
    if (k && (k->is_module || (k->has_forward && !k->plain))) return true;
  }
  return false;
}


/* Whether function FN, outside every class, is a helper of models' own
 * code: called in the file, and only from a model's method or from another
 * such helper (CNN_total's `process_patch_array(x_patches, self.model, n)`
 * in a patch wrapper's `forward`, whose loop over chunks of patches is the
 * wrapper's forward pass, not an inference loop). Two hops at most. */
static bool model_helper(const facts *f, int fn, int depth) {
  assert(fn >= 0 && (size_t)fn < f->functions.len);
  if (depth > 2 || f->functions.items[fn].klass >= 0) return false;
  const facts_function *d = &f->functions.items[fn];
  bool any = false;
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    /* the name before the call's `(`, read off its text first: most calls
     * are not of FN */
    if (c->function == fn || !facts__call_named(f, c->call, d->name, d->name_len) ||
        facts_function_named(f, FACT_FIELD(f, c->call, function)) != fn)
      continue;
    if (c->function < 0) return false; /* a call at module level: a script's own use */
    int h = c->function;
    while (f->functions.items[h].parent >= 0 && !facts_in_module_method(f, h)) h = f->functions.items[h].parent;
    if (!facts_in_module_method(f, h) && !model_helper(f, h, depth + 1)) return false;
    any = true;
  }
  return any;
}


bool facts_in_model_code(const facts *f, int fn) {
  if (fn < 0) return false;
  if (facts_in_module_method(f, fn)) return true;
  while (f->functions.items[fn].parent >= 0) fn = f->functions.items[fn].parent;
  return model_helper(f, fn, 0);
}


/* Whether NAME is bound in the body of loop L: a module made anew in each
 * iteration (BoxDiff's `smoothing = GaussianSmoothing(...)` over the tokens
 * of a prompt) is a tool of that iteration, not the model a batch loop runs. */
static bool bound_in_loop(const facts *f, const facts_loop *l, const char *name, uint32_t len) {
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  for (size_t i = first; i < end; i++) {
    uint32_t pos = f->bindings.items[i].pos;
    if (pos >= l->body.start && pos < l->body.end && facts_function_at(f, pos) == l->function) return true;
  }
  return false;
}


/* Whether loop L of a model's own method runs over RIGHT, a name the method
 * last bound to a list literal or comprehension: the chunks it split its
 * input into (flair's `batches = []` of one text's characters), not a
 * loader, whatever the name. */
static bool own_list_of_module_method(const facts *f, const facts_loop *l, TSNode right) {
  if (l->function < 0 || !NODE_IS(right, "identifier") || !facts_in_module_method(f, l->function)) return false;
  uint32_t len;
  const char *t = facts_text(f, right, &len);
  long a = facts__last_assign_before(f, t, len, ts_node_start_byte(l->node), l->function);
  if (a < 0) return false;
  TSNode r = f->assigns.items[a].right;
  return !ts_node_is_null(r) && (NODE_IS(r, "list") || NODE_IS(r, "list_comprehension"));
}


/* Whether function FN is a step hook of a class with bases (Lightning's
 * `training_step(self, batch, batch_idx)`, `validation_step`, ...): the
 * framework hands it one batch, so a loop in it that calls the model runs
 * over parts of that batch (the source domains of a domain-adaptation
 * step), not over batches. */
static bool lightning_step(const facts *f, int fn) {
  if (fn < 0) return false;
  const facts_function *g = &f->functions.items[fn];
  static const char *const steps[] = {"training_step", "validation_step", "test_step", "predict_step", NULL};
  return g->klass >= 0 && in_names_list(g->name, g->name_len, steps) &&
         facts_class_has_bases(f, &f->classes.items[g->klass]);
}


/* Whether ITER is `range(1)`, `trange(1)` or `tqdm(range(1))`, the 1 also
 * as a name every binding of the file gives that literal (`num_epochs = 1`
 * in a timing run of a freshly built model): the loop runs its body once. */
/* Whether the attribute TEXT (LEN bytes, `self.x`) is bound where `assigns`
 * does not see it: summed into (`self.x += 1`) or unpacked into (`self.a,
 * self.x = ...`). */
static bool self_bound_otherwise(const facts *f, const char *text, uint32_t len) {
  uint32_t end = (uint32_t)f->length;
  for (uint32_t at = facts__next_text(f, 0, end, text, len); at < end; at = facts__next_text(f, at + 1, end, text, len)) {
    TSNode n = ts_node_descendant_for_byte_range(f->root, at, at + len);
    TSNode up = ts_node_is_null(n) ? n : ts_node_parent(n);
    if (ts_node_is_null(up) || !NODE_IS(n, "attribute")) continue;
    if (NODE_IS(up, "augmented_assignment") && ts_node_eq(FACT_FIELD(f, up, left), n)) return true;
    if (NODE_IS(up, "pattern_list") || NODE_IS(up, "tuple_pattern") || NODE_IS(up, "list_pattern")) return true;
  }
  return false;
}


/* Whether `self.x` (ATTR) is bound somewhere in the file and every binding
 * is the literal 1 (`self.gradient_steps = 1  # kwargs['epochs']`). */
static bool self_one(const facts *f, TSNode attr) {
  uint32_t len;
  const char *text = facts_text(f, attr, &len);
  bool found = false;
  for (size_t i = 0; i < f->assigns.len; i++) {
    if (!facts_text_is(f, f->assigns.items[i].left, text, len)) continue;
    TSNode v = f->assigns.items[i].right;
    if (ts_node_is_null(v) || !NODE_IS(v, "integer") || !facts_node_is(f, v, "1")) return false;
    found = true;
  }
  return found && !self_bound_otherwise(f, text, len);
}


static bool counts_to_one(const facts *f, TSNode iter) {
  for (int guard = 0; guard < 2 && !ts_node_is_null(iter) && NODE_IS(iter, "call"); guard++) {
    TSNode callee = FACT_FIELD(f, iter, function), args = FACT_FIELD(f, iter, arguments);
    if (ts_node_is_null(callee) || ts_node_is_null(args) || ts_node_named_child_count(args) != 1) return false;
    TSNode a = ts_node_named_child(args, 0);
    if (facts_node_is(f, callee, "tqdm")) {
      iter = a;
      continue;
    }
    if (!facts_node_is(f, callee, "range") && !facts_node_is(f, callee, "trange")) return false;
    if (NODE_IS(a, "identifier")) a = facts_constant_value(f, a);
    else if (NODE_IS(a, "attribute") && facts_node_is(f, FACT_FIELD(f, a, object), "self")) return self_one(f, a);
    return !ts_node_is_null(a) && NODE_IS(a, "integer") && facts_node_is(f, a, "1");
  }
  return false;
}


/* Whether loop L runs its body at most once: its count is one, or its body
 * ends in an unconditional `break` (`for batch in loader: ...; break`, the
 * one-batch smoke test of a `__main__` block), so nothing in it is done per
 * batch. A body ending in
 * `return` is left alone: a function that returns from its first batch
 * (disentangling-vae's evaluator) is a bug, and its forward still runs
 * with autograd for nothing. */
static bool runs_once(const facts *f, const facts_loop *l) {
  TSNode body = FACT_FIELD(f, l->node, body);
  if (ts_node_is_null(body)) return false;
  if (NODE_IS(l->node, "for_statement") && counts_to_one(f, FACT_FIELD(f, l->node, right))) return true;
  for (uint32_t i = ts_node_named_child_count(body); i-- > 0;) {
    TSNode last = ts_node_named_child(body, i);
    if (NODE_IS(last, "comment")) continue;
    return NODE_IS(last, "break_statement");
  }
  return false;
}


/* Whether every instance NAME (LEN bytes; `self.cri_ofr`) is bound to is of
 * a class named as a loss (`OFR_loss(reg_weight=w).to(device)`, a project's
 * module), and one is: calling it scores a step's output, it is no forward
 * pass that makes a loop run once per batch (a loop over the frames of one
 * step). */
bool facts__loss_instance(const facts *f, const char *name, uint32_t len) {
  bool loss = false;
  for (size_t i = 0; i < f->assigns.len; i++) {
    if (!facts_text_is(f, f->assigns.items[i].left, name, len)) continue;
    TSNode made = f->assigns.items[i].right;
    /* through `.to(device)`, `.cuda()`; a binding that makes no instance
     * (`self.cri_ofr = False` when the option is off) says nothing */
    static const char *const same[] = {"to", "cuda", "cpu", "half", "float", "double", "eval", "train", NULL};
    for (int guard = 0; guard < 4 && !ts_node_is_null(made) && NODE_IS(made, "call"); guard++) {
      TSNode callee = FACT_FIELD(f, made, function);
      if (ts_node_is_null(callee)) break;
      if (NODE_IS(callee, "attribute")) {
        TSNode attr = FACT_FIELD(f, callee, attribute);
        uint32_t al = 0;
        const char *at = ts_node_is_null(attr) ? "" : facts_text(f, attr, &al);
        if (!in_names_list(at, al, same)) return false;
        made = FACT_FIELD(f, callee, object);
        continue;
      }
      /* a class named here (`OFR_loss(...)`, imported by name); a
       * module-qualified one (`nn.L1Loss()`) is left to the model test */
      if (!NODE_IS(callee, "identifier")) return false;
      uint32_t cl;
      const char *c = facts_text(f, callee, &cl);
      if (!facts__named_as_loss(c, cl)) return false;
      loss = true;
      break;
    }
  }
  return loss;
}


static void resolve_loops(facts *f, buf *tmp) {
  /* names bound to DataLoader(...) */
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode r = f->assigns.items[i].right;
    if (NODE_IS(r, "call") && facts_qualname(f, r, tmp) &&
        (!strcmp(buf_str(tmp), "torch.utils.data.DataLoader") ||
         !strcmp(buf_str(tmp), "torch.utils.data.dataloader.DataLoader"))) {
      uint32_t len;
      const char *t = facts_text(f, f->assigns.items[i].left, &len);
      vec_push(&f->loader_names, oom_xstrndup(t, len));
    }
  }
  /* `with tqdm(loader) as pbar:`, then `for batch in pbar:` */
  for (size_t i = 0; i < f->with_items.len; i++) {
    TSNode v = f->with_items.items[i].candidate;
    if (!NODE_IS(v, "call") || !is_loader_expr(f, v, tmp)) continue;
    TSNode up = ts_node_parent(v);
    TSNode alias = !ts_node_is_null(up) && NODE_IS(up, "as_pattern") ? FACT_FIELD(f, up, alias) : NULL_NODE;
    if (!ts_node_is_null(alias) && ts_node_named_child_count(alias) == 1) alias = ts_node_named_child(alias, 0);
    if (ts_node_is_null(alias) || !NODE_IS(alias, "identifier")) continue;
    uint32_t len;
    const char *t = facts_text(f, alias, &len);
    vec_push(&f->loader_names, oom_xstrndup(t, len));
  }
  for (size_t i = 0; i < f->calls.len; i++) {
    facts_call *c = &f->calls.items[i];
    if (c->loop < 0) continue;
    facts_loop *l = &f->loops.items[c->loop];
    TSNode fn = FACT_FIELD(f, c->call, function);
    if (ts_node_is_null(fn)) continue;
    if (is_backward_call(f, c->call, tmp)) l->evidence |= LOOP_CALLS_BACKWARD;
    if (NODE_IS(fn, "attribute")) {
      TSNode attr = FACT_FIELD(f, fn, attribute);
      TSNode obj = FACT_FIELD(f, fn, object);
      uint32_t len;
      const char *t = facts_text(f, obj, &len);
      if (text_is(f, attr, "step") && looks_like_optimizer(t, len)) l->evidence |= LOOP_CALLS_STEP;
    }
    /* a model called in a loop of a module's own method (`for blk in
     * self.blocks: x = blk(x)` in forward) is the model's structure, not a
     * batch loop */
    if ((NODE_IS(fn, "identifier") || NODE_IS(fn, "attribute")) && !facts_in_module_method(f, l->function) &&
        !lightning_step(f, l->function)) {
      uint32_t len;
      const char *t = facts_text(f, fn, &len);
      if (facts__model_name_at(f, t, len, ts_node_start_byte(fn)) &&
          !(NODE_IS(fn, "identifier") && bound_in_loop(f, l, t, len)) &&
          !(NODE_IS(fn, "attribute") && facts__loss_instance(f, t, len)))
        l->evidence |= LOOP_CALLS_MODEL;
    }
  }
  for (size_t i = 0; i < f->loops.len; i++) {
    facts_loop *l = &f->loops.items[i];
    if (NODE_IS(l->node, "for_statement")) {
      TSNode right = FACT_FIELD(f, l->node, right);
      if (!ts_node_is_null(right) && is_loader_expr(f, right, tmp) && !own_list_of_module_method(f, l, right))
        l->evidence |= LOOP_ITERATES_LOADER;
    }
  }
  /* a loop counted to one (`for gs in range(self.gradient_steps)` with the
   * attribute bound to 1) is its enclosing loop's body: what it does, that
   * loop does once per iteration. Inner loops come after their outer loop,
   * so walk backwards. */
  for (size_t i = f->loops.len; i-- > 0;) {
    facts_loop *l = &f->loops.items[i];
    if (l->parent >= 0 && l->evidence && NODE_IS(l->node, "for_statement") &&
        counts_to_one(f, FACT_FIELD(f, l->node, right)))
      f->loops.items[l->parent].evidence |= l->evidence;
  }
  for (size_t i = 0; i < f->loops.len; i++) {
    facts_loop *l = &f->loops.items[i];
    l->per_iteration = l->evidence != 0 && !runs_once(f, l);
  }
  /* An epoch loop runs a batch loop inside it; a validation forward pass
   * directly in its body does not make it a batch loop. Inner loops come
   * after their outer loop, so walk backwards. */
  for (size_t i = f->loops.len; i-- > 0;) {
    facts_loop *l = &f->loops.items[i];
    if (l->parent < 0 || !l->per_iteration) continue;
    facts_loop *outer = &f->loops.items[l->parent];
    if (!(outer->evidence & (LOOP_ITERATES_LOADER | LOOP_CALLS_BACKWARD | LOOP_CALLS_STEP)))
      outer->per_iteration = false;
  }
}


bool facts_loop_trains(const facts *self, int loop) {
  assert(loop >= 0 && (size_t)loop < self->loops.len);
  const facts_loop *l = &self->loops.items[loop];
  /* nested loops follow their loop in file order, inside its body */
  for (size_t j = (size_t)loop; j < self->loops.len && self->loops.items[j].body.start < l->body.end; j++) {
    const facts_loop *k = &self->loops.items[j];
    if (k->function == l->function && (k->evidence & (LOOP_CALLS_BACKWARD | LOOP_CALLS_STEP)) &&
        k->body.start >= l->body.start)
      return true;
  }
  return false;
}


/* Whether a loop around POS is timed: `torch.cuda.synchronize()` runs in
 * its function both before the loop and after it (a throughput benchmark,
 * PaSST's `model_speed_test`: what the loop computes is thrown away). */
bool facts_timed_loop(const facts *self, uint32_t pos) {
  int inner = facts_innermost_loop_at(self, pos);
  if (inner < 0) return false;
  int fn = self->loops.items[inner].function;
  facts_span scope = fn >= 0 ? self->functions.items[fn].body : (facts_span){0, (uint32_t)self->length};
  buf tmp = {0};
  bool timed = false;
  for (int l = inner; l >= 0 && !timed; l = self->loops.items[l].parent) {
    uint32_t start = ts_node_start_byte(self->loops.items[l].node), end = ts_node_end_byte(self->loops.items[l].node);
    bool before = false, after = false;
    for (size_t i = facts_first_call_at(self, scope.start); i < self->calls.len && !(before && after); i++) {
      const facts_call *c = &self->calls.items[i];
      uint32_t s = ts_node_start_byte(c->call);
      if (s >= scope.end) break;
      if (c->function != fn || (s >= start && s < end)) continue;
      TSNode callee = FACT_FIELD(self, c->call, function);
      if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute") ||
          !facts_node_is(self, FACT_FIELD(self, callee, attribute), "synchronize"))
        continue;
      if (!facts_qualname(self, callee, &tmp) || strcmp(buf_str(&tmp), "torch.cuda.synchronize") != 0) continue;
      if (s < start) before = true;
      else after = true;
    }
    timed = before && after;
  }
  buf_free(&tmp);
  return timed;
}


bool facts_sole_backward(const facts *self, uint32_t pos) {
  int inner = facts_innermost_loop_at(self, pos);
  if (inner < 0) return false;
  int fn = self->loops.items[inner].function, outer = -1;
  for (int i = inner; i >= 0 && self->loops.items[i].function == fn; i = self->loops.items[i].outer)
    if (self->loops.items[i].per_iteration) outer = i;
  /* an inner loop between the call and the iteration may run it many times */
  if (outer < 0 || inner != outer) return false;
  facts_span body = self->loops.items[outer].body;
  buf tmp = {0};
  int count = 0;
  for (size_t i = facts_first_call_at(self, body.start); i < self->calls.len && count < 2; i++) {
    const facts_call *c = &self->calls.items[i];
    uint32_t s = ts_node_start_byte(c->call);
    if (s >= body.end) break;
    if (c->function == fn && is_backward_call(self, c->call, &tmp)) count++;
  }
  buf_free(&tmp);
  return count == 1;
}


/* Whether CALL runs a backward pass in a function of another module of the
 * project (the project index says so): `train_step(...)`, or a method of an
 * instance of a project class, `balancer.step(losses)` after `balancer =
 * Balancer(...)`. */
static bool runs_project_backward(const facts *f, TSNode call, buf *tmp) {
  if (!f->imports) return false;
  TSNode fn = FACT_FIELD(f, call, function);
  facts_symbol sym;
  if (facts_project_symbol(f, fn, &sym)) return (sym.flags & SYM_BACKWARD) != 0;
  if (!NODE_IS(fn, "attribute")) return false;
  TSNode obj = FACT_FIELD(f, fn, object), attr = FACT_FIELD(f, fn, attribute);
  if (!NODE_IS(obj, "identifier") || ts_node_is_null(attr)) return false;
  uint32_t len, alen;
  const char *name = facts_text(f, obj, &len), *method = facts_text(f, attr, &alen);
  uint32_t at = ts_node_start_byte(call);
  TSNode made = {{0, 0, 0, 0}, NULL, NULL};
  for (size_t i = 0; i < f->assigns.len; i++) {
    const facts_assign *a = &f->assigns.items[i];
    if (ts_node_start_byte(a->left) >= at) break;
    uint32_t llen;
    const char *left = NODE_IS(a->left, "identifier") ? facts_text(f, a->left, &llen) : NULL;
    if (!left || llen != len || memcmp(left, name, len) != 0) continue;
    made = a->right;
  }
  if (ts_node_is_null(made) || !NODE_IS(made, "call")) return false;
  buf_clear(tmp);
  if (!facts_qualname(f, FACT_FIELD(f, made, function), tmp)) return false;
  buf_putc(tmp, '.');
  buf_append(tmp, method, alen);
  return f->imports->lookup(f->imports, buf_str(tmp), tmp->len, &sym) && (sym.flags & SYM_BACKWARD) &&
         (sym.flags & SYM_FUNCTION);
}


/* Whether the graph `.backward(retain_graph=True)` at POS keeps is never
 * backpropagated again: the innermost loop around it runs a forward pass of
 * its own (a model call, or it iterates a loader), so each iteration builds
 * a new graph, or steps an optimizer (a graph from before the step could
 * not be backpropagated again: its weights were changed in place), and no
 * backward pass follows the call in that iteration. A
 * backward before it (a GAN's generator step, then the discriminator's on
 * detached fakes) reuses nothing; an inner loop with no forward of its own
 * (one backward per task loss of a shared graph, per transition of stored
 * states) backpropagates through the graph built before it again, and
 * needs it kept. */
/* Whether loop L iterates storage the file fills with `.append()` or
 * `.extend()` (`for s, a, r in self.data:` after `self.data.append([s, a,
 * r])`): values kept from earlier work, which may share a graph built
 * before the loop, not fresh batches of a loader. */
static bool iterates_filled_storage(const facts *f, const facts_loop *l) {
  if (!NODE_IS(l->node, "for_statement") || (l->evidence & LOOP_ITERATES_LOADER)) return false;
  TSNode it = FACT_FIELD(f, l->node, right);
  /* `enumerate(xs)`, `reversed(xs)` */
  for (int guard = 0; guard < 2 && !ts_node_is_null(it) && NODE_IS(it, "call"); guard++) {
    TSNode fn = FACT_FIELD(f, it, function);
    if (!text_is(f, fn, "enumerate") && !text_is(f, fn, "reversed")) return false;
    it = first_arg(it);
  }
  if (ts_node_is_null(it) || !(NODE_IS(it, "identifier") || NODE_IS(it, "attribute"))) return false;
  uint32_t len;
  const char *name = facts_text(f, it, &len);
  for (size_t i = 0; i < f->calls.len; i++) {
    TSNode fn = FACT_FIELD(f, f->calls.items[i].call, function);
    if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) continue;
    TSNode attr = FACT_FIELD(f, fn, attribute);
    if (!text_is(f, attr, "append") && !text_is(f, attr, "extend")) continue;
    uint32_t olen;
    const char *obj = facts_text(f, FACT_FIELD(f, fn, object), &olen);
    if (olen == len && !memcmp(obj, name, len)) return true;
  }
  return false;
}


bool facts_retained_graph_unused(const facts *self, uint32_t pos) {
  int inner = facts_innermost_loop_at(self, pos);
  if (inner < 0) return false;
  const facts_loop *l = &self->loops.items[inner];
  if (!(l->evidence & (LOOP_CALLS_MODEL | LOOP_ITERATES_LOADER | LOOP_CALLS_STEP))) return false;
  /* a loop over stored transitions: their shared graph is backpropagated
   * again in the next iteration, so it must be retained */
  if (iterates_filled_storage(self, l)) return false;
  int fn = l->function;
  buf tmp = {0};
  bool later = false;
  for (size_t i = facts_first_call_at(self, pos); i < self->calls.len && !later; i++) {
    const facts_call *c = &self->calls.items[i];
    uint32_t s = ts_node_start_byte(c->call);
    if (s >= l->body.end) break;
    if (s > pos && c->function == fn && (is_backward_call(self, c->call, &tmp) || runs_project_backward(self, c->call, &tmp)))
      later = true;
  }
  buf_free(&tmp);
  return !later;
}


bool facts_first_backward(const facts *self, uint32_t pos) {
  int inner = facts_innermost_loop_at(self, pos);
  if (inner < 0) return false;
  int fn = self->loops.items[inner].function, outer = -1;
  for (int i = inner; i >= 0 && self->loops.items[i].function == fn; i = self->loops.items[i].outer)
    if (self->loops.items[i].per_iteration) outer = i;
  if (outer < 0 || inner != outer) return false;
  /* the earlier backward passes of the iteration, directly in its body */
  buf tmp = {0};
  bool first = true;
  for (size_t i = facts_first_call_at(self, self->loops.items[outer].body.start); i < self->calls.len && first; i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= pos) break;
    if (c->function == fn && c->loop == outer && is_backward_call(self, c->call, &tmp)) first = false;
  }
  buf_free(&tmp);
  return first;
}


void facts__resolve(facts *self);


void facts__index(facts *self);
void facts__summaries(facts *self);
void facts__graph(facts *self);
void facts__call_kinds(facts *self);


/* A partial relint's borrowed names go in before the passes that would find
 * them, so those passes reason with them as the whole-file lint did. */
#define SEED_NAMES(into, names, n) \
  for (size_t i_ = 0; i_ < (n); i_++) vec_push(into, oom_xstrdup((names)[i_]))


/* `X.requires_grad_(False)` and `(True)`, X the root of the chain the
 * method is called on (`sampler.eval().requires_grad_(False)`): a name or
 * `self.x`. Recorded with the function they are in; facts_is_frozen decides
 * which of them reach a call. */
/* Whether NAME is a parameter of function FN whose default is `False`
 * (pytorch-fid's `InceptionV3(..., requires_grad=False)` then `for param in
 * self.parameters(): param.requires_grad = requires_grad`): frozen unless a
 * caller asks otherwise. */
static bool false_by_default(const facts *f, int fn, TSNode name) {
  if (fn < 0 || !NODE_IS(name, "identifier")) return false;
  TSNode params = FACT_FIELD(f, f->functions.items[fn].node, parameters);
  uint32_t n = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  uint32_t len;
  const char *t = facts_text(f, name, &len);
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i), pn = parameter_name(f, p);
    if (ts_node_is_null(pn) || !facts_text_is(f, pn, t, len)) continue;
    TSNode value = NODE_IS(p, "identifier") || NODE_IS(p, "typed_parameter") ? NULL_NODE : FACT_FIELD(f, p, value);
    return !ts_node_is_null(value) && NODE_IS(value, "false");
  }
  return false;
}


int facts__parameter_index(const facts *f, int g, TSNode name) {
  if (g < 0 || !NODE_IS(name, "identifier")) return -1;
  TSNode params = FACT_FIELD(f, f->functions.items[g].node, parameters);
  uint32_t np = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params), len;
  const char *t = facts_text(f, name, &len);
  for (uint32_t i = 0; i < np && i < 255; i++) {
    TSNode pn = parameter_name(f, ts_node_named_child(params, i));
    if (!ts_node_is_null(pn) && facts_text_is(f, pn, t, len)) return (int)i;
  }
  return -1;
}


/* Function G sets `requires_grad` to VALUE on the parameters of MODEL:
 * when MODEL is a parameter of G, G is a helper its callers freeze or thaw
 * their models with (facts_function.freezes_param). */
static void note_parameter_freeze(facts *f, int g, TSNode model, TSNode value) {
  int k = facts__parameter_index(f, g, model);
  if (k < 0 || ts_node_is_null(value)) return;
  int j = NODE_IS(value, "false") ? -1 : facts__parameter_index(f, g, value);
  uint8_t flag = NODE_IS(value, "false") ? 0 : j >= 0 && j < 254 ? (uint8_t)(j + 1) : FACTS_THAWS;
  facts_function *fn = &f->functions.items[g];
  if (!fn->freezes_param) {
    fn->freezes_param = (uint8_t)(k + 1);
    fn->freeze_flag = flag;
  } else if (fn->freezes_param != k + 1 || fn->freeze_flag != flag) {
    fn->freeze_flag = FACTS_THAWS;
  }
}


/* `for p in X.parameters(): p.requires_grad = False` (or
 * `p.requires_grad_(False)`; also `for name, p in X.named_parameters()`),
 * the other common way to freeze a model: X frozen, or thawed with
 * `True`, in the loop's scope. */
static void freezes_by_loop(facts *f) {
  for (size_t i = 0; i < f->loops.len; i++) {
    TSNode loop = f->loops.items[i].node;
    if (!NODE_IS(loop, "for_statement")) continue;
    TSNode it = FACT_FIELD(f, loop, right), target = FACT_FIELD(f, loop, left);
    if (ts_node_is_null(it) || ts_node_is_null(target) || !NODE_IS(it, "call")) continue;
    TSNode callee = FACT_FIELD(f, it, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) continue;
    TSNode method = FACT_FIELD(f, callee, attribute), model = FACT_FIELD(f, callee, object);
    bool named = text_is(f, method, "named_parameters");
    if ((!named && !text_is(f, method, "parameters")) || ts_node_is_null(model) ||
        !(NODE_IS(model, "identifier") || NODE_IS(model, "attribute")))
      continue;
    /* the parameter's name: the target, or its last element for named_parameters */
    TSNode var = target;
    if (named && (NODE_IS(target, "pattern_list") || NODE_IS(target, "tuple_pattern")) &&
        ts_node_named_child_count(target) == 2)
      var = ts_node_named_child(target, 1);
    if (!NODE_IS(var, "identifier")) continue;
    uint32_t vlen;
    const char *v = facts_text(f, var, &vlen);
    /* `v.requires_grad = False` among the body's statements */
    TSNode body = FACT_FIELD(f, loop, body);
    uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t k = 0; k < n; k++) {
      TSNode st = ts_node_named_child(body, k);
      TSNode a = NODE_IS(st, "expression_statement") && ts_node_named_child_count(st) ? ts_node_named_child(st, 0) : NULL_NODE;
      TSNode left, right;
      if (ts_node_is_null(a)) continue;
      if (NODE_IS(a, "assignment")) {
        left = FACT_FIELD(f, a, left);
        right = FACT_FIELD(f, a, right);
        if (ts_node_is_null(left) || ts_node_is_null(right) || !NODE_IS(left, "attribute") ||
            !text_is(f, FACT_FIELD(f, left, attribute), "requires_grad"))
          continue;
      } else if (NODE_IS(a, "call")) {
        /* `p.requires_grad_(flag)` */
        left = FACT_FIELD(f, a, function);
        right = first_arg(a);
        if (!ts_node_is_null(right) && NODE_IS(right, "keyword_argument")) right = FACT_FIELD(f, right, value);
        if (ts_node_is_null(left) || ts_node_is_null(right) || !NODE_IS(left, "attribute") ||
            !text_is(f, FACT_FIELD(f, left, attribute), "requires_grad_"))
          continue;
      } else {
        continue;
      }
      if (!facts_text_is(f, FACT_FIELD(f, left, object), v, vlen)) continue;
      note_parameter_freeze(f, f->loops.items[i].function, model, right);
      bool off = NODE_IS(right, "false") || false_by_default(f, f->loops.items[i].function, right);
      if (!off && !NODE_IS(right, "true")) continue;
      facts_freeze fr = {0};
      fr.name = facts_text(f, model, &fr.len);
      fr.function = f->loops.items[i].function;
      fr.frozen = off;
      if (fr.frozen) f->freezes_any = true;
      vec_push(&f->freezes, fr);
    }
  }
}


/* `def preserve_grad_state(model): for p in model.parameters():
 * p.requires_grad = False` (MACE's evaluation context), `def
 * freeze(net): net.requires_grad_(False)`: a plain function of the file
 * that freezes (or thaws) a model it is handed freezes (or thaws) the
 * argument of each call of it, in the calling function, when all it does
 * to that parameter agrees. Runs after the direct freezes, over those
 * alone (not the ones it adds). */
static void freezes_by_helper(facts *f) {
  size_t n = f->freezes.len;
  bool any = false;
  for (size_t i = 0; i < n && !any; i++) {
    int g = f->freezes.items[i].function;
    any = g >= 0 && f->functions.items[g].klass < 0;
  }
  if (!any) return;
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    TSNode callee = FACT_FIELD(f, c->call, function), args = FACT_FIELD(f, c->call, arguments);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier") || ts_node_is_null(args)) continue;
    int g = facts_function_named(f, callee);
    if (g < 0 || g == c->function || f->functions.items[g].klass >= 0) continue;
    uint32_t na = ts_node_named_child_count(args);
    for (uint32_t k = 0; k < na; k++) {
      TSNode a = ts_node_named_child(args, k);
      TSNode param = facts__argument_parameter(f, g, &a, k);
      if (ts_node_is_null(param) || ts_node_is_null(a) || !(NODE_IS(a, "identifier") || NODE_IS(a, "attribute")))
        continue;
      uint32_t pl;
      const char *pn = facts_text(f, param, &pl);
      /* what the helper leaves behind: a helper that freezes and then
       * thaws (`model_inference` restoring `requires_grad`) leaves the
       * caller's model as it was */
      int frozen = -1;
      for (size_t z = 0; z < n && frozen != 2; z++) {
        const facts_freeze *inner = &f->freezes.items[z];
        if (inner->function != g || inner->len != pl || memcmp(inner->name, pn, pl)) continue;
        frozen = frozen < 0 || frozen == inner->frozen ? inner->frozen : 2;
      }
      if (frozen < 0 || frozen == 2) continue;
      facts_freeze fr = {0};
      fr.name = facts_text(f, a, &fr.len);
      fr.function = c->function;
      fr.frozen = frozen == 1;
      vec_push(&f->freezes, fr);
    }
  }
}


/* A call of a helper that sets `requires_grad` on a model it is handed
 * to a flag it is also handed (`requires_grad_(model, False)`, `def
 * requires_grad_(m, flag): for p in m.parameters(): p.requires_grad_(flag)`),
 * a function of the file or of another module of the project (its
 * summary), or of a project helper that freezes unconditionally
 * (`freeze(model)`): the model argument frozen (or thawed) in the calling
 * function. Positional arguments only: a summary keeps no parameter
 * names. Only calls handing a literal `False` or `True`, or of a helper
 * named for freezing, ask the project. */
static void freezes_by_parameter_helper(facts *f) {
  /* helpers of the file taking the flag; others are asked by their name */
  bool file_helpers = false;
  for (size_t g = 0; g < f->functions.len && !file_helpers; g++)
    file_helpers = f->functions.items[g].freezes_param && f->functions.items[g].freeze_flag &&
                   f->functions.items[g].freeze_flag != FACTS_THAWS && f->functions.items[g].klass < 0;
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    TSNode callee = FACT_FIELD(f, c->call, function);
    if (ts_node_is_null(callee) || !(NODE_IS(callee, "identifier") || NODE_IS(callee, "attribute"))) continue;
    /* a project helper named for it (`requires_grad_`, `set_requires_grad`,
     * `freeze_model`): the name asked first, the project only then */
    bool named = false;
    if (f->imports) {
      TSNode last = NODE_IS(callee, "attribute") ? FACT_FIELD(f, callee, attribute) : callee;
      uint32_t len = 0;
      const char *t = ts_node_is_null(last) ? "" : facts_text(f, last, &len);
      for (uint32_t k = 0; k + 4 <= len && !named; k++)
        named = ((t[k] | 0x20) == 'g' && !strncasecmp(t + k, "grad", 4)) ||
                ((t[k] | 0x20) == 'f' && k + 5 <= len && !strncasecmp(t + k, "freez", 5));
    }
    if (!named && !(file_helpers && NODE_IS(callee, "identifier"))) continue;
    TSNode args = FACT_FIELD(f, c->call, arguments);
    if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) continue;
    uint32_t na = ts_node_named_child_count(args);
    if (na == 0 || na > 8) continue;
    uint8_t param = 0, flag = 0;
    int g = NODE_IS(callee, "identifier") ? facts_function_named(f, callee) : -1;
    facts_symbol sym;
    if (g >= 0) {
      /* constant freezes of the file's helpers are freezes_by_helper's */
      if (f->functions.items[g].klass >= 0 || f->functions.items[g].freeze_flag == 0) continue;
      param = f->functions.items[g].freezes_param;
      flag = f->functions.items[g].freeze_flag;
    } else if (named && facts_project_symbol(f, callee, &sym) && (sym.flags & SYM_FUNCTION)) {
      param = sym.freezes_param;
      flag = sym.freeze_flag;
    }
    if (!param || flag == FACTS_THAWS || param > na || flag > na) continue;
    TSNode model = ts_node_named_child(args, param - 1u);
    bool frozen = true;
    if (flag) {
      TSNode v = ts_node_named_child(args, flag - 1u);
      if (!NODE_IS(v, "false") && !NODE_IS(v, "true")) continue;
      frozen = NODE_IS(v, "false");
    }
    if (!NODE_IS(model, "identifier") && !NODE_IS(model, "attribute")) continue;
    facts_freeze fr = {0};
    fr.name = facts_text(f, model, &fr.len);
    fr.function = c->function;
    fr.frozen = frozen;
    if (frozen) f->freezes_any = true;
    vec_push(&f->freezes, fr);
  }
}


static void resolve_freezes(facts *f) {
  freezes_by_loop(f);
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    TSNode fn = FACT_FIELD(f, c->call, function);
    if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute") || !text_is(f, FACT_FIELD(f, fn, attribute), "requires_grad_"))
      continue;
    TSNode a0 = first_arg(c->call);
    if (!ts_node_is_null(a0) && NODE_IS(a0, "keyword_argument")) a0 = FACT_FIELD(f, a0, value);
    /* `def freeze(net, flag): net.requires_grad_(flag)` */
    if (c->function >= 0) note_parameter_freeze(f, c->function, FACT_FIELD(f, fn, object), a0);
    bool frozen = !ts_node_is_null(a0) && NODE_IS(a0, "false");
    if (frozen) f->freezes_any = true;
    if (!frozen && !ts_node_is_null(a0) && !NODE_IS(a0, "true")) continue; /* a variable: unknown */
    /* down the chain: `x.eval().to(d).requires_grad_(False)` */
    TSNode obj = FACT_FIELD(f, fn, object);
    for (int guard = 0; guard < 16 && !ts_node_is_null(obj) && NODE_IS(obj, "call"); guard++) {
      TSNode inner = FACT_FIELD(f, obj, function);
      if (ts_node_is_null(inner) || !NODE_IS(inner, "attribute")) break;
      obj = FACT_FIELD(f, inner, object);
    }
    if (ts_node_is_null(obj) || !(NODE_IS(obj, "identifier") || NODE_IS(obj, "attribute"))) continue;
    facts_freeze fr = {0};
    fr.name = facts_text(f, obj, &fr.len);
    fr.function = c->function;
    fr.frozen = frozen;
    vec_push(&f->freezes, fr);
  }
  freezes_by_helper(f);
  freezes_by_parameter_helper(f);
}


/* Whether the source of F holds the text NEEDLE anywhere, looked for by
 * its byte AT, which should be a rare one (`q` of `requires_grad`). */
static bool source_holds(const facts *f, const char *needle, size_t at) {
  size_t n = strlen(needle);
  assert(at < n);
  if (f->length < n) return false;
  const char *start = f->source + at, *end = f->source + f->length - (n - at) + 1;
  for (const char *p = start; p < end && (p = memchr(p, needle[at], (size_t)(end - p))); p++)
    if (!memcmp(p - at, needle, n)) return true;
  return false;
}


/* Whether F imports torchaudio or kymatio, whose transforms hold no parameter. */
/* What the file imports of the libraries some checks depend on: torchaudio
 * or kymatio (mentions_audio_transforms), scikit-learn, XGBoost or
 * LightGBM (imports_estimators). */
static void imported_libraries(facts *f) {
  for (size_t i = 0; i < f->bindings.len; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->kind != BINDING_IMPORT || !b->qualname) continue;
    if (!strncmp(b->qualname, "torchaudio", 10) || !strncmp(b->qualname, "kymatio", 7))
      f->mentions_audio_transforms = true;
    if (!strncmp(b->qualname, "sklearn", 7) || !strncmp(b->qualname, "xgboost", 7) ||
        !strncmp(b->qualname, "lightgbm", 8))
      f->imports_estimators = true;
  }
}


void facts__resolve(facts *self) {
  buf tmp = {0};
  const facts_seed *seed = self->seed;
  facts__index(self);
  for (size_t i = 0; i < self->bindings.len; i++) {
    const facts_binding *b = &self->bindings.items[i];
    int fn = b->kind == BINDING_IMPORT ? facts_function_at(self, b->pos) : -1;
    if (fn >= 0) vec_push(&self->function_imports, ((facts_fname){b->name, b->name_len, fn}));
  }
  for (size_t i = 0; i < self->assigns.len; i++) {
    TSNode right = self->assigns.items[i].right;
    TSNode callee = NODE_IS(right, "call") ? FACT_FIELD(self, right, function) : NULL_NODE;
    if (!ts_node_is_null(callee) && NODE_IS(callee, "attribute")) callee = FACT_FIELD(self, callee, attribute);
    uint32_t cl;
    const char *c = ts_node_is_null(callee) || !NODE_IS(callee, "identifier") ? NULL : facts_text(self, callee, &cl);
    if (c && cl && isupper((unsigned char)c[0])) vec_push(&self->instance_assigns, (uint32_t)i);
  }
  collect_self_aliases(self);
  /* the bindings and aliases are final: qualified names may be kept */
  self->qualname_memo = oom_xcalloc(1, sizeof *self->qualname_memo);
  self->qualname_memo->cap = 256;
  self->qualname_memo->slots = oom_xcalloc(256, sizeof *self->qualname_memo->slots);
  self->mentions_requires_grad = source_holds(self, "requires_grad", 2);
  imported_libraries(self);
  resolve_no_grad(self, &tmp);
  if (seed) SEED_NAMES(&self->module_names, seed->module_names, seed->nmodule_names);
  /* before the modules: a class freezing itself holds no trainable parameter */
  resolve_freezes(self);
  resolve_modules(self, &tmp);
  facts__summaries(self);
  if (seed) {
    if (seed->file_backward) self->file_backward = true;
    if (seed->file_gradients) self->file_gradients = true;
    if (seed->file_scales_loss) self->file_scales_loss = true;
    SEED_NAMES(&self->loader_names, seed->loader_names, seed->nloader_names);
    SEED_NAMES(&self->producers, seed->producers, seed->nproducers);
  }
  resolve_loops(self, &tmp);
  facts__call_kinds(self);
  facts__graph(self);
  buf_free(&tmp);
}
