/* This file contains the interpreter's statements; a branch or loop whose condition is not
 * known runs once as an undecided region that changes nothing older than itself. */
#include <string.h>

#include "estimate/activations.h"
#include "estimate/interp.h"
#include "parse/children.h"
#include "parse/fields.h"

#include "parse/node.h"
#include "parse/walk.h"

static flow exec_stmt(interp *st, scope *sc, TSNode n);


scope *scope_new(interp *st, scope *parent) {
  scope *sc = arena_calloc(st->a, sizeof *sc);
  sc->parent = parent;
  return sc;
}


static var *scope_find(scope *sc, const char *name, uint32_t n) {
  for (uint32_t i = 0; i < sc->vars.len; i++)
    if (sc->vars.items[i].name.n == n && !memcmp(sc->vars.items[i].name.s, name, n)) return &sc->vars.items[i];
  return NULL;
}


static bool declared_global(const scope *sc, const char *name, uint32_t n) {
  for (uint32_t i = 0; i < sc->globals.len; i++)
    if (sc->globals.items[i].n == n && !memcmp(sc->globals.items[i].s, name, n)) return true;
  return false;
}


static const char *const BUILTINS[] = {
  "range", "len", "int", "float", "bool", "str", "list", "tuple", "dict", "set", "frozenset", "min", "max",
  "sum", "abs", "round", "zip", "enumerate", "isinstance", "issubclass", "hasattr", "getattr", "setattr",
  "print", "super", "exec", "globals", "sorted", "reversed", "any", "all", "map", "filter", "iter", "next", "divmod", "pow",
  "type", "object", "vars", "id", "hash", "callable", "repr", "format", "open", "input", "Exception",
  "ValueError", "TypeError", "RuntimeError", "KeyError", "NotImplementedError", "AssertionError",
  "ImportError", "AttributeError", "IndexError", "OSError", "StopIteration", NULL};


value *scope_get(interp *st, scope *sc, const char *name, uint32_t n) {
  for (scope *s = sc; s; s = s->parent) {
    var *v = scope_find(s, name, n);
    if (v) return v->v;
  }
  var *g = scope_find(st->globals, name, n);
  if (g) return g->v;
  if (n == 8 && !memcmp(name, "__name__", 8)) return v_str(st, "__main__", 8);
  for (size_t i = 0; BUILTINS[i]; i++)
    if (strlen(BUILTINS[i]) == n && !memcmp(BUILTINS[i], name, n)) return v_extern(st, BUILTINS[i]);
  return NULL;
}


void scope_set(interp *st, scope *sc, const char *name, uint32_t n, value *v) {
  if (declared_global(sc, name, n)) sc = st->globals;
  var *x = scope_find(sc, name, n);
  if (x) {
    x->v = v;
    return;
  }
  var nv = {{name, n}, v};
  avec_push(st->a, &sc->vars, nv);
}


/* ---- assignment ---- */

static void set_item(interp *st, value *c, value *key, value *v, TSNode where) {
  if (c->kind == V_LIST || c->kind == V_TUPLE) {
    int64_t i;
    seq *s = c->u.seq;
    if (!v_as_int(key, &i)) return;
    if (i < 0) i += s->items.len;
    if (i < 0 || i >= (int64_t)s->items.len) return;
    if (!st_may_mutate(st, s->birth)) {
      st_blocked(st, where, "an item of a list is set");
      return;
    }
    s->items.items[i] = v;
  } else if (c->kind == V_DICT) {
    if (!st_may_mutate(st, c->u.dict->birth)) {
      /* the entry becomes unknown, with its reason; a layer is noted */
      bool layer = (v->kind == V_OBJECT && v->u.obj->kind == OBJ_MODULE) || v->kind == V_PARAM;
      if (layer) st_blocked(st, where, "a dictionary entry is set");
      if (key->kind != V_UNKNOWN) dict_set(st, c->u.dict, key, v_unknown(st, "set in code that may not run"));
      return;
    }
    if (key->kind == V_UNKNOWN) return;
    dict_set(st, c->u.dict, key, v);
    /* globals()[name] = v sets the module's name */
    if (c->u.dict->live && key->kind == V_STR) scope_set(st, c->u.dict->live, key->u.s.s, key->u.s.n, v);
  } else if (c->kind == V_OBJECT) {
    obj *o = c->u.obj;
    int64_t i;
    if (o->items && v_as_int(key, &i)) {
      if (i < 0) i += o->items->items.len;
      if (i < 0 || i >= (int64_t)o->items->items.len) return;
      if (!st_may_mutate(st, o->birth)) {
        st_blocked(st, where, "a layer of a container is replaced");
        return;
      }
      o->items->items.items[i] = v;
    } else if (key->kind == V_STR) {
      set_attr(st, c, key->u.s.s, key->u.s.n, v, where);
    }
  }
}


static void assign_target_at(interp *st, scope *sc, TSNode t, value *v);


static void unpack(interp *st, scope *sc, TSNode target, value *v) {
  uint32_t count = ts_node_named_child_count(target);
  seq *items = v_iterate(st, v);
  int star = -1;
  for (uint32_t i = 0; i < count; i++)
    if (NODE_IS(ts_node_named_child(target, i), "list_splat_pattern")) star = (int)i;
  bool fits = items && (star < 0 ? items->items.len == count : items->items.len + 1 >= count);
  for (uint32_t i = 0, k = 0; i < count; i++) {
    TSNode t = ts_node_named_child(target, i);
    if (!fits) {
      value *u = v->kind == V_UNKNOWN ? v : v_unknown(st, "unpacked from a value of unknown length");
      if (NODE_IS(t, "list_splat_pattern") && ts_node_named_child_count(t)) t = ts_node_named_child(t, 0);
      assign_target(st, sc, t, u);
      continue;
    }
    if ((int)i == star) {
      uint32_t take = items->items.len - (count - 1);
      value *rest = v_list(st, V_LIST);
      for (uint32_t j = 0; j < take; j++) avec_push(st->a, &rest->u.seq->items, items->items.items[k + j]);
      k += take;
      if (ts_node_named_child_count(t)) assign_target(st, sc, ts_node_named_child(t, 0), rest);
      continue;
    }
    assign_target(st, sc, t, items->items.items[k++]);
  }
}


void assign_target(interp *st, scope *sc, TSNode t, value *v) {
  if (st->depth >= EST_MAX_DEPTH) return;
  st->depth++;
  assign_target_at(st, sc, t, v);
  st->depth--;
}


/* An unknown bound to NAME at T: the size the user gives with --assume,
 * else the unknown, named so that the user knows what to give. */
static value *assumed(interp *st, const char *name, uint32_t n, TSNode t, value *v) {
  if (v->kind != V_UNKNOWN || !n) return v;
  value *a = script_assumed(st, name, n);
  if (a) return a;
  /* named here already (`x = x + 1` in a loop): no new text each time */
  if (!ts_node_is_null(v->origin) && ts_node_eq(v->origin, t)) return v;
  /* named before (`words = ...`): the nearest name is the size to give,
   * the first cause stays */
  int wn;
  const char *why = script_cause(v, &wn);
  TSNode stmt = ts_node_parent(t);
  if (ts_node_is_null(stmt) || strcmp(ts_node_type(stmt), "assignment") != 0) stmt = t;
  uint32_t sn;
  const char *s = st_text(st, stmt, &sn);
  uint32_t k = 0;
  while (k < sn && k < 70 && s[k] != '\n') k++;
  value *u = v_unknown(st, "`%.*s` (%s) is not known: %.*s; give it with --assume %.*s=N", (int)k, s, st_at(st, t), wn,
                       why, (int)n, name);
  u->origin = t;
  u->at_most = v->at_most; /* named, it is no larger */
  return u;
}


static void assign_target_at(interp *st, scope *sc, TSNode t, value *v) {
  const char *type = ts_node_type(t);
  if (!strcmp(type, "identifier")) {
    uint32_t n;
    const char *name = st_text(st, t, &n);
    scope_set(st, sc, name, n, assumed(st, name, n, t, v));
  } else if (!strcmp(type, "attribute")) {
    TSNode on = FIELD(t, object);
    TSNode an = FIELD(t, attribute);
    if (ts_node_is_null(on) || ts_node_is_null(an)) return;
    value *o = eval(st, sc, on);
    uint32_t n;
    const char *name = st_text(st, an, &n);
    /* `self.n_hidden = out_features` of a size already named where it came in (a
     * keyword of the constructor's call, a variable): that name stays the one to give,
     * since an attribute of every instance of a class (each layer) is no one size */
    bool named = v->kind == V_UNKNOWN && v->why && strstr(v->why, "; give it with --assume ");
    value *as = named ? script_assumed(st, name, n) : NULL;
    set_attr(st, o, name, n, named ? (as ? as : v) : assumed(st, name, n, t, v), t);
  } else if (!strcmp(type, "subscript")) {
    TSNode cn = FIELD(t, value);
    TSNode kn = FIELD(t, subscript);
    if (ts_node_is_null(cn) || ts_node_is_null(kn)) return;
    value *c = eval(st, sc, cn);
    value *k = eval(st, sc, kn);
    if (k->kind == V_STR) v = assumed(st, k->u.s.s, k->u.s.n, t, v);
    set_item(st, c, k, v, t);
  } else if (!strcmp(type, "pattern_list") || !strcmp(type, "tuple_pattern") || !strcmp(type, "list_pattern") ||
             !strcmp(type, "tuple") || !strcmp(type, "list") || !strcmp(type, "expression_list")) {
    unpack(st, sc, t, v);
  } else if (!strcmp(type, "parenthesized_expression") && ts_node_named_child_count(t) == 1) {
    assign_target(st, sc, ts_node_named_child(t, 0), v);
  }
}


/* ---- undecided regions ---- */

static void tentative_begin(interp *st) {
  avec_push(st->a, &st->tentative, st->birth);
}


static void tentative_end(interp *st) {
  if (st->tentative.len) st->tentative.len--;
}


static const value *var_in(const var *vs, uint32_t n, const char *name, uint32_t len) {
  for (uint32_t i = 0; i < n; i++)
    if (vs[i].name.n == len && !memcmp(vs[i].name.s, name, len)) return vs[i].v;
  return NULL;
}


/* Whether A and B are alike for what follows: 1 the same value or an equal one
 * (tensors of the same shape and dtype, equal numbers and strings), 2 tensors of
 * the same known shape whose dtypes differ, 0 otherwise. */
static int values_agree(const value *a, const value *b, int depth) {
  if (a == b) return 1;
  if (!a || !b || a->kind != b->kind || depth > 8) return 0;
  switch (a->kind) {
  case V_TENSOR: {
    const shape *x = a->u.tensor, *y = b->u.tensor;
    if (x->ndim < 0 || x->ndim != y->ndim) return 0;
    for (int i = 0; i < x->ndim; i++)
      if (x->dims[i] < 0 || x->dims[i] != y->dims[i]) return 0;
    return x->bits == y->bits && x->bits != EST_BITS_UNKNOWN ? 1 : 2;
  }
  case V_NONE: return 1;
  case V_BOOL:
  case V_INT:
  case V_FLOAT:
  case V_STR: return v_equal(a, b) == 1;
  case V_TUPLE:
  case V_LIST:
    if (a->u.seq->items.len != b->u.seq->items.len) return 0;
    for (uint32_t i = 0; i < a->u.seq->items.len; i++)
      if (values_agree(a->u.seq->items.items[i], b->u.seq->items.items[i], depth + 1) != 1) return 0;
    return 1;
  case V_OBJECT: return a->u.obj == b->u.obj;
  default: return 0;
  }
}


/* After an undecided `if`: the value NAME has whichever branch ran, when every
 * path leaves it alike (a sample's image taken in both branches of `index % 2`);
 * NULL when they differ or a path leaves it unset. */
static value *agreed_value(interp *st, const char *name, uint32_t n) {
  if (!st->npaths) return NULL;
  const value *first = NULL;
  int how = 1;
  /* the value each branch leaves: its own when it assigned one, else the one before the if */
  const value *before = var_in(st->keep, st->nkeep, name, n);
  for (uint32_t k = 0; k <= st->npaths; k++) {
    const value *v;
    if (k == st->npaths) {
      if (st->paths_all) break;
      v = before; /* no else: the path through none of the branches */
    } else {
      const value *cur = var_in(st->paths[k], st->npath[k], name, n);
      const value *prev = k ? var_in(st->paths[k - 1], st->npath[k - 1], name, n) : before;
      v = cur && cur != prev ? cur : before;
    }
    if (!v) return NULL;
    if (!first) {
      first = v;
      continue;
    }
    int ag = values_agree(first, v, 0);
    if (!ag) return NULL;
    if (ag == 2) how = 2;
  }
  if (!first || first->kind == V_UNKNOWN) return NULL;
  if (how == 1) return (value *)first;
  /* the same shape, a dtype that depends on the branch: the shape is known */
  value *t = v_new(st, V_TENSOR);
  t->u.tensor = shape_new(st, first->u.tensor->ndim);
  *t->u.tensor = *first->u.tensor;
  t->u.tensor->bits = EST_BITS_UNKNOWN;
  return t;
}


static void unknown_targets(interp *st, scope *sc, TSNode t, value *u, int depth) {
  if (depth > 32) return;
  if (NODE_IS(t, "identifier")) {
    uint32_t n;
    const char *name = st_text(st, t, &n);
    /* every branch left the same object (`model = DDP(model)` in one,
     * `model.to(device)` in another): it is known whichever ran */
    var *now = scope_find(sc, name, n);
    for (uint32_t i = 0; now && i < st->nkeep; i++) {
      var *k = &st->keep[i];
      if (k->name.n != n || memcmp(k->name.s, name, n) != 0) continue;
      if (k->v == now->v || (k->v->kind == V_OBJECT && now->v->kind == V_OBJECT && k->v->u.obj == now->v->u.obj)) return;
    }
    value *agreed = agreed_value(st, name, n);
    if (agreed) {
      if (!now || agreed != now->v) scope_set(st, sc, name, n, agreed);
      return;
    }
    scope_set(st, sc, name, n, u);
    return;
  }
  if (NODE_IS(t, "pattern_list") || NODE_IS(t, "tuple_pattern") || NODE_IS(t, "list_pattern") ||
      NODE_IS(t, "tuple") || NODE_IS(t, "list") || NODE_IS(t, "parenthesized_expression") ||
      NODE_IS(t, "list_splat_pattern") || NODE_IS(t, "expression_list")) {
    uint32_t c = ts_node_named_child_count(t);
    for (uint32_t i = 0; i < c; i++) unknown_targets(st, sc, ts_node_named_child(t, i), u, depth + 1);
  }
}


/* After an undecided region: every name it binds may or may not have changed. */
static void forget_assigned_why(interp *st, scope *sc, TSNode region, TSNode cond, const value *cv) {
  uint32_t n;
  const char *ct = st_text(st, cond, &n);
  /* the first reason the condition is not known, when it is one the user
   * can act on (a required argument, a missing file) */
  const char *why = cv && cv->kind == V_UNKNOWN && cv->why ? cv->why : NULL;
  value *u = why ? v_unknown(st, "set under `%.*s` (%s), which is not known here: %s", n > 60 ? 60 : (int)n, ct,
                             st_at(st, cond), why)
                 : v_unknown(st, "set under `%.*s` (%s), which is not known here", n > 60 ? 60 : (int)n, ct, st_at(st, cond));
  TSTreeCursor c = ts_tree_cursor_new(region);
  for (;;) {
    if (!st_step(st)) break;
    TSNode x = ts_tree_cursor_current_node(&c);
    const char *type = ts_node_type(x);
    bool descend = true;
    if (!strcmp(type, "function_definition") || !strcmp(type, "class_definition") || !strcmp(type, "lambda") ||
        !strcmp(type, "list_comprehension") || !strcmp(type, "generator_expression") ||
        !strcmp(type, "dictionary_comprehension") || !strcmp(type, "set_comprehension")) {
      descend = false;
    } else if (!strcmp(type, "assignment") || !strcmp(type, "augmented_assignment") || !strcmp(type, "for_statement")) {
      TSNode left = FIELD(x, left);
      if (!ts_node_is_null(left)) unknown_targets(st, sc, left, u, 0);
    } else if (!strcmp(type, "named_expression")) {
      TSNode name = FIELD(x, name);
      if (!ts_node_is_null(name)) unknown_targets(st, sc, name, u, 0);
    } else if (!strcmp(type, "as_pattern_target")) {
      if (ts_node_named_child_count(x)) unknown_targets(st, sc, ts_node_named_child(x, 0), u, 0);
    }
    if (descend && ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, region)) break;
  }
  ts_tree_cursor_delete(&c);
}


/* a loop or call under way, named if the budget runs out inside it */
static void open_push(interp *st, TSNode n) {
  spend s = {n, st->steps};
  avec_push(st->a, &st->open, s);
}


static void forget_assigned(interp *st, scope *sc, TSNode region, TSNode cond) {
  forget_assigned_why(st, sc, region, cond, NULL);
}


/* Run BLOCK in an undecided region: returns only FLOW_STOP or FLOW_NORMAL. */
static flow exec_tentative(interp *st, scope *sc, TSNode block) {
  tentative_begin(st);
  flow fl = exec_block(st, sc, block);
  tentative_end(st);
  if (fl == FLOW_RETURN) sc->returned = true;
  return fl == FLOW_STOP ? FLOW_STOP : FLOW_NORMAL;
}


/* ---- compound statements ---- */

static TSNode block_of(TSNode clause) {
  TSNode b = FIELD(clause, body);
  if (ts_node_is_null(b)) b = FIELD(clause, consequence);
  if (ts_node_is_null(b)) {
    uint32_t c = ts_node_named_child_count(clause);
    if (c) b = ts_node_named_child(clause, c - 1);
  }
  return b;
}


static flow exec_if(interp *st, scope *sc, TSNode n) {
  /* the if and its elif clauses in order, then else */
  TSNode clauses[64];
  uint32_t nc = 0;
  clauses[nc++] = n;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count && nc < 64; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (NODE_IS(c, "elif_clause") || NODE_IS(c, "else_clause")) clauses[nc++] = c;
  }
  for (uint32_t i = 0; i < nc; i++) {
    TSNode c = clauses[i];
    if (NODE_IS(c, "else_clause")) return exec_block(st, sc, block_of(c));
    TSNode cond = FIELD(c, condition);
    TSNode body = FIELD(c, consequence);
    if (ts_node_is_null(cond) || ts_node_is_null(body)) return FLOW_NORMAL;
    value *cv = eval(st, sc, cond);
    if (st->stopped) return FLOW_STOP;
    bool t;
    if (v_truth(cv, &t)) {
      if (t) return exec_block(st, sc, body);
      continue;
    }
    /* not known: this clause and the rest may each run; a name every
     * branch leaves as it was keeps its value */
    var *keep = sc->vars.len ? arena_alloc(st->a, sc->vars.len * sizeof *keep) : NULL;
    uint32_t nkeep = sc->vars.len;
    if (keep) memcpy(keep, sc->vars.items, nkeep * sizeof *keep);
    uint32_t np = nc - i;
    var **paths = arena_alloc(st->a, np * sizeof *paths);
    uint32_t *npath = arena_alloc(st->a, np * sizeof *npath);
    for (uint32_t k = i; k < nc; k++) {
      if (exec_tentative(st, sc, block_of(clauses[k])) == FLOW_STOP) return FLOW_STOP;
      /* the names as this branch left them, for the ones every branch agrees on */
      npath[k - i] = sc->vars.len;
      paths[k - i] = sc->vars.len ? arena_alloc(st->a, sc->vars.len * sizeof **paths) : NULL;
      if (paths[k - i]) memcpy(paths[k - i], sc->vars.items, sc->vars.len * sizeof **paths);
    }
    var *outer = st->keep;
    uint32_t nouter = st->nkeep;
    var **outer_paths = st->paths;
    uint32_t *outer_npath = st->npath, outer_np = st->npaths;
    bool outer_all = st->paths_all;
    st->keep = keep;
    st->nkeep = nkeep;
    st->paths = paths;
    st->npath = npath;
    st->npaths = np;
    st->paths_all = NODE_IS(clauses[nc - 1], "else_clause");
    for (uint32_t k = i; k < nc; k++) forget_assigned_why(st, sc, block_of(clauses[k]), cond, cv);
    st->keep = outer;
    st->nkeep = nouter;
    st->paths = outer_paths;
    st->npath = outer_npath;
    st->npaths = outer_np;
    st->paths_all = outer_all;
    return FLOW_NORMAL;
  }
  return FLOW_NORMAL;
}


/* A loader's batch: the samples of its dataset with the batch size in front. */
static value *loader_batch(interp *st, obj *loader) {
  int64_t b;
  if (!loader->batch_size || !v_as_int(loader->batch_size, &b)) return v_unknown(st, "a batch of unknown size");
  if (loader->item) return data_collate(st, loader->item, loader->batch_size, loader->getitem);
  if (!loader->dataset || loader->dataset->kind != V_OBJECT || !loader->dataset->u.obj->sample_known)
    return v_unknown(st, "a batch of a dataset whose samples are not known");
  obj *d = loader->dataset->u.obj;
  value *t = v_list(st, V_TUPLE);
  for (uint32_t i = 0; i < d->sample.len; i++) {
    const shape *s = d->sample.items[i];
    shape *sh = shape_new(st, s->ndim + 1 > EST_MAX_DIMS ? EST_MAX_DIMS : s->ndim + 1);
    sh->bits = s->bits;
    sh->dims[0] = b;
    for (int k = 1; k < sh->ndim; k++) sh->dims[k] = s->dims[k - 1];
    value *tv = v_new(st, V_TENSOR);
    tv->u.tensor = sh;
    tv->dim0 = loader->batch_size->origin;
    avec_push(st->a, &t->u.seq->items, tv);
  }
  if (t->u.seq->items.len == 1) return t->u.seq->items.items[0];
  return t;
}


/* `enumerate(loader)`, `tqdm(loader)`, `enumerate(tqdm(loader, ...))`: the
 * loader a training loop iterates (read without side effects: a name or an
 * attribute), and in *ENUMERATED whether an index comes with each batch. */
static obj *wrapped_loader(interp *st, scope *sc, TSNode e, bool *enumerated) {
  *enumerated = false;
  for (int depth = 0; depth < 4 && NODE_IS(e, "call"); depth++) {
    TSNode fn = FIELD(e, function);
    TSNode args_n = FIELD(e, arguments);
    if (ts_node_is_null(fn) || ts_node_is_null(args_n) || !ts_node_named_child_count(args_n)) return NULL;
    uint32_t n;
    const char *t = st_text(st, fn, &n);
    bool en = n == 9 && !memcmp(t, "enumerate", 9);
    bool wrap = en || (n >= 4 && !memcmp(t + n - 4, "tqdm", 4)) || (n == 4 && !memcmp(t, "iter", 4));
    if (!wrap) return NULL;
    *enumerated |= en;
    e = ts_node_named_child(args_n, 0);
  }
  if (!NODE_IS(e, "identifier") && !NODE_IS(e, "attribute")) return NULL;
  value *v = eval(st, sc, e);
  return v->kind == V_OBJECT && v->u.obj->kind == OBJ_LOADER ? v->u.obj : NULL;
}


static flow exec_for(interp *st, scope *sc, TSNode n) {
  TSNode left = FIELD(n, left);
  TSNode right = FIELD(n, right);
  TSNode body = FIELD(n, body);
  TSNode alt = FIELD(n, alternative);
  if (ts_node_is_null(left) || ts_node_is_null(right) || ts_node_is_null(body)) return FLOW_NORMAL;
  value *it = eval(st, sc, right);
  if (st->stopped) return FLOW_STOP;
  seq *items = v_iterate(st, it);
  if (items && items->items.len <= EST_MAX_ITER) {
    bool broke = false;
    uint32_t modules = st->modules.len;
    long start = st->steps;
    open_push(st, n);
    for (uint32_t i = 0; i < items->items.len && i < EST_MAX_ITER; i++) {
      /* a long loop that builds nothing (a training or rollout loop) is
       * not followed to its end: what it binds is unknown afterwards */
      if ((i == EST_IDLE_ITER || st->steps - start > EST_IDLE_STEPS) && st->modules.len == modules) {
        st->open.len--;
        forget_assigned(st, sc, n, right);
        return FLOW_NORMAL;
      }
      assign_target(st, sc, left, items->items.items[i]);
      flow fl = exec_block(st, sc, body);
      if (fl == FLOW_BREAK) {
        broke = true;
        break;
      }
      if (fl == FLOW_RETURN || fl == FLOW_RAISE || fl == FLOW_STOP) {
        st->open.len--;
        return fl;
      }
    }
    st->open.len--;
    if (!broke && !ts_node_is_null(alt)) return exec_block(st, sc, block_of(alt));
    return FLOW_NORMAL;
  }
  /* one pass as an undecided region; a loader gives its batch to look at */
  value *item;
  obj *wrapped = NULL;
  bool enumerated = false;
  if (it->kind == V_UNKNOWN && NODE_IS(right, "call")) wrapped = wrapped_loader(st, sc, right, &enumerated);
  if (it->kind == V_OBJECT && it->u.obj->kind == OBJ_LOADER) item = loader_batch(st, it->u.obj);
  else if (wrapped && enumerated) {
    item = v_list(st, V_TUPLE);
    avec_push(st->a, &item->u.seq->items, v_unknown(st, "a batch index"));
    avec_push(st->a, &item->u.seq->items, loader_batch(st, wrapped));
  } else if (wrapped) item = loader_batch(st, wrapped);
  else if (it->kind == V_UNKNOWN) item = it;
  else item = v_unknown(st, "an item of a loop that is not followed");
  tentative_begin(st);
  open_push(st, n);
  assign_target(st, sc, left, item);
  flow fl = exec_block(st, sc, body);
  st->open.len--;
  tentative_end(st);
  if (fl == FLOW_STOP) return fl;
  if (fl == FLOW_RETURN) sc->returned = true;
  forget_assigned(st, sc, n, right);
  return FLOW_NORMAL;
}


/* Whether BODY holds a `break` of its own loop (not of a nested one). */
static bool breaks(TSNode body) {
  TSTreeCursor c = ts_tree_cursor_new(body);
  bool found = false;
  for (;;) {
    TSNode x = ts_tree_cursor_current_node(&c);
    const char *type = ts_node_type(x);
    bool descend = strcmp(type, "for_statement") && strcmp(type, "while_statement") &&
                   strcmp(type, "function_definition") && strcmp(type, "class_definition");
    if (!strcmp(type, "break_statement")) {
      found = true;
      break;
    }
    if ((descend || ts_node_eq(x, body)) && ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, body)) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}


static flow exec_while(interp *st, scope *sc, TSNode n) {
  TSNode cond = FIELD(n, condition);
  TSNode body = FIELD(n, body);
  TSNode alt = FIELD(n, alternative);
  if (ts_node_is_null(cond) || ts_node_is_null(body)) return FLOW_NORMAL;
  /* `while True:` without a break is a server or REPL loop: look at it once */
  bool forever = !breaks(body);
  uint32_t modules = st->modules.len;
  long start = st->steps;
  for (long iter = 0; iter < EST_MAX_WHILE; iter++) {
    if ((iter == EST_IDLE_ITER || st->steps - start > EST_IDLE_STEPS) && st->modules.len == modules) break;
    value *cv = eval(st, sc, cond);
    if (st->stopped) return FLOW_STOP;
    bool t;
    if (!v_truth(cv, &t)) {
      if (exec_tentative(st, sc, body) == FLOW_STOP) return FLOW_STOP;
      forget_assigned(st, sc, n, cond);
      return FLOW_NORMAL;
    }
    if (!t) return ts_node_is_null(alt) ? FLOW_NORMAL : exec_block(st, sc, block_of(alt));
    if (forever && iter > 0) {
      if (exec_tentative(st, sc, body) == FLOW_STOP) return FLOW_STOP;
      forget_assigned(st, sc, n, cond);
      return FLOW_NORMAL;
    }
    open_push(st, n);
    flow fl = exec_block(st, sc, body);
    st->open.len--;
    if (fl == FLOW_BREAK) return FLOW_NORMAL;
    if (fl == FLOW_RETURN || fl == FLOW_RAISE || fl == FLOW_STOP) return fl;
  }
  forget_assigned(st, sc, n, cond);
  return FLOW_NORMAL;
}


static flow exec_try(interp *st, scope *sc, TSNode n) {
  TSNode body = FIELD(n, body);
  flow fl = ts_node_is_null(body) ? FLOW_NORMAL : exec_block(st, sc, body);
  uint32_t count = ts_node_named_child_count(n);
  bool handled = false;
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (fl == FLOW_RAISE && !handled && (NODE_IS(c, "except_clause") || NODE_IS(c, "except_group_clause"))) {
      handled = true;
      fl = exec_block(st, sc, block_of(c));
    } else if (fl == FLOW_NORMAL && NODE_IS(c, "else_clause")) {
      fl = exec_block(st, sc, block_of(c));
    } else if (NODE_IS(c, "finally_clause")) {
      flow ff = exec_block(st, sc, block_of(c));
      if (ff != FLOW_NORMAL) fl = ff;
    }
  }
  return fl;
}


static flow exec_with(interp *st, scope *sc, TSNode n) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode clause = ts_node_named_child(n, i);
    if (!NODE_IS(clause, "with_clause")) continue;
    uint32_t items = ts_node_named_child_count(clause);
    for (uint32_t k = 0; k < items; k++) {
      TSNode item = ts_node_named_child(clause, k);
      TSNode v = FIELD(item, value);
      if (ts_node_is_null(v)) continue;
      if (NODE_IS(v, "as_pattern") && ts_node_named_child_count(v) > 0) {
        value *cm = eval(st, sc, ts_node_named_child(v, 0));
        TSNode alias = FIELD(v, alias);
        /* `with open(path) as f`: the file, which json.load(f) reads */
        args none;
        memset(&none, 0, sizeof none);
        none.node = v;
        value *entered = cm->kind == V_OBJECT ? script_method(st, cm, "__enter__", &none) : NULL;
        if (!ts_node_is_null(alias) && ts_node_named_child_count(alias))
          assign_target(st, sc, ts_node_named_child(alias, 0), entered ? entered : v_unknown(st, "a context manager's value"));
      } else {
        eval(st, sc, v);
      }
    }
  }
  TSNode body = FIELD(n, body);
  return ts_node_is_null(body) ? FLOW_NORMAL : exec_block(st, sc, body);
}


/* ---- definitions ---- */

static bool ends_with(const char *s, uint32_t n, const char *tail) {
  size_t t = strlen(tail);
  return n >= t && !memcmp(s + n - t, tail, t) && (n == t || s[n - t - 1] == '.');
}


/* what a decorator makes of a definition */
static int decorator_flavor(interp *st, TSNode decorated, bool *dataclass, bool *skip) {
  int flavor = FN_PLAIN;
  uint32_t count = ts_node_named_child_count(decorated);
  for (uint32_t i = 0; i < count; i++) {
    TSNode d = ts_node_named_child(decorated, i);
    if (!NODE_IS(d, "decorator") || !ts_node_named_child_count(d)) continue;
    TSNode e = ts_node_named_child(d, 0);
    if (NODE_IS(e, "call")) e = FIELD(e, function);
    if (ts_node_is_null(e)) continue;
    uint32_t n;
    const char *t = st_text(st, e, &n);
    if (ends_with(t, n, "staticmethod")) flavor = FN_STATIC;
    else if (ends_with(t, n, "classmethod")) flavor = FN_CLASS;
    else if (ends_with(t, n, "property") || ends_with(t, n, "cached_property")) flavor = FN_PROPERTY;
    else if (ends_with(t, n, "setter") || ends_with(t, n, "deleter")) *skip = true;
    else if (ends_with(t, n, "dataclass") || ends_with(t, n, "attr.s") || ends_with(t, n, "attr.attrs") ||
             ends_with(t, n, "define") || ends_with(t, n, "frozen") || ends_with(t, n, "mutable"))
      *dataclass = true;
  }
  return flavor;
}


static value *make_function(interp *st, scope *sc, TSNode def, int flavor) {
  value *f = v_new(st, V_FUNCTION);
  f->u.fn.node = def;
  /* a method does not see its class body's names */
  f->u.fn.closure = sc->klass ? sc->parent : sc;
  f->u.fn.flavor = (uint8_t)flavor;
  return f;
}


static bool extern_is_module_base(const char *q) {
  static const char *const bases[] = {
    "torch.nn.Module", "torch.nn.modules.module.Module", "pytorch_lightning.LightningModule",
    "pytorch_lightning.core.LightningModule", "lightning.LightningModule", "lightning.pytorch.LightningModule",
    "lightning.pytorch.core.LightningModule", "transformers.PreTrainedModel",
    "transformers.modeling_utils.PreTrainedModel", NULL};
  for (size_t i = 0; bases[i]; i++)
    if (!strcmp(q, bases[i])) return true;
  /* any torch.nn class: nn.Linear, nn.Sequential, nn.modules.conv.Conv2d */
  if (!strncmp(q, "torch.nn.", 9)) {
    const char *last = strrchr(q, '.') + 1;
    return *last >= 'A' && *last <= 'Z' && strcmp(last, "Parameter") != 0;
  }
  return false;
}


static void define_class(interp *st, scope *sc, TSNode n, bool dataclass) {
  TSNode name = FIELD(n, name);
  TSNode body = FIELD(n, body);
  if (ts_node_is_null(name) || ts_node_is_null(body)) return;
  klass *k = arena_calloc(st->a, sizeof *k);
  k->name.s = st_text(st, name, &k->name.n);
  k->node = n;
  k->attrs = dict_new(st);
  k->defaults = dict_new(st);
  k->dataclass = dataclass;
  TSNode sup = FIELD(n, superclasses);
  if (!ts_node_is_null(sup)) {
    uint32_t count = ts_node_named_child_count(sup);
    for (uint32_t i = 0; i < count; i++) {
      TSNode b = ts_node_named_child(sup, i);
      if (NODE_IS(b, "keyword_argument")) continue;
      value *bv = eval(st, sc, b);
      avec_push(st->a, &k->bases, bv);
      if (bv->kind == V_CLASS) {
        klass *bk = bv->u.klass;
        if (bk->is_module) k->is_module = true;
        if (bk->dataclass) {
          /* a dataclass's fields carry over to its subclasses */
          for (uint32_t f = 0; f < bk->fields.len; f++) avec_push(st->a, &k->fields, bk->fields.items[f]);
          for (uint32_t f = 0; f < bk->defaults->keys.len; f++)
            dict_set(st, k->defaults, bk->defaults->keys.items[f], bk->defaults->vals.items[f]);
          k->dataclass = true;
        }
      } else if (bv->kind == V_EXTERN) {
        if (extern_is_module_base(bv->u.ext)) k->is_module = true;
        if (!strcmp(bv->u.ext, "typing.NamedTuple") || !strcmp(bv->u.ext, "pydantic.BaseModel"))
          k->dataclass = true;
      }
    }
  }
  scope *cs = scope_new(st, sc);
  cs->klass = k;
  /* bound before the body runs, so that methods may name their class */
  uint32_t nn;
  const char *nm = st_text(st, name, &nn);
  value *kv = v_new(st, V_CLASS);
  kv->u.klass = k;
  scope_set(st, sc, nm, nn, kv);
  exec_block(st, cs, body);
  for (uint32_t i = 0; i < cs->vars.len; i++) {
    var *v = &cs->vars.items[i];
    dict_set(st, k->attrs, v_str(st, v->name.s, v->name.n), v->v);
  }
}


/* `x: int = 3` in a class body: a field of a dataclass */
static void class_field(interp *st, scope *sc, TSNode left, value *dflt) {
  klass *k = sc->klass;
  uint32_t n;
  const char *name = st_text(st, left, &n);
  bool seen = false;
  for (uint32_t i = 0; i < k->fields.len; i++)
    if (k->fields.items[i].n == n && !memcmp(k->fields.items[i].s, name, n)) seen = true;
  if (!seen) {
    str s = {name, n};
    avec_push(st->a, &k->fields, s);
  }
  if (dflt) dict_set(st, k->defaults, v_str(st, name, n), dflt);
}


static void exec_assignment(interp *st, scope *sc, TSNode n) {
  TSNode left = FIELD(n, left);
  TSNode right = FIELD(n, right);
  TSNode type = FIELD(n, type);
  if (ts_node_is_null(left)) return;
  if (ts_node_is_null(right)) {
    if (sc->klass && !ts_node_is_null(type) && NODE_IS(left, "identifier")) class_field(st, sc, left, NULL);
    return;
  }
  TSNode targets[32];
  uint32_t nt = 0;
  targets[nt++] = left;
  while (NODE_IS(right, "assignment") && nt < 32) {
    TSNode l = FIELD(right, left);
    TSNode r = FIELD(right, right);
    if (ts_node_is_null(l) || ts_node_is_null(r)) break;
    targets[nt++] = l;
    right = r;
  }
  value *v = eval(st, sc, right);
  for (uint32_t i = 0; i < nt; i++) assign_target(st, sc, targets[i], v);
  /* `model = Net()`: a module bound to a name is a model, unless another
   * module holds it; a module-level name is the one a reader knows */
  if (v->kind == V_OBJECT && v->u.obj->kind == OBJ_MODULE && !st->tentative.len && NODE_IS(left, "identifier")) {
    obj *o = v->u.obj;
    bool global = sc == st->globals;
    if (!o->named || (global && !o->name_global)) {
      uint32_t len;
      const char *name = st_text(st, left, &len);
      o->name = st_strdup(st, name, len);
      o->name_global = global;
    }
    o->named = true;
  }
  /* `x: int = 3`, or attrs' `x = attr.ib(default=3)` without a type */
  if (sc->klass && NODE_IS(left, "identifier") && (!ts_node_is_null(type) || v->kind == V_FIELD))
    class_field(st, sc, left, v);
}


static void exec_augmented(interp *st, scope *sc, TSNode n) {
  TSNode left = FIELD(n, left);
  TSNode right = FIELD(n, right);
  TSNode op = FIELD(n, operator);
  if (ts_node_is_null(left) || ts_node_is_null(right) || ts_node_is_null(op)) return;
  value *cur = eval(st, sc, left);
  value *r = eval(st, sc, right);
  uint32_t on;
  const char *ot = st_text(st, op, &on);
  char opbuf[8];
  if (on < 2 || on > 4) return;
  memcpy(opbuf, ot, on - 1);
  opbuf[on - 1] = '\0';
  /* `xs += [...]` extends the same list (a ModuleList too) */
  if (!strcmp(opbuf, "+") && (cur->kind == V_LIST || (cur->kind == V_OBJECT && cur->u.obj->items))) {
    seq *dst = cur->kind == V_LIST ? cur->u.seq : cur->u.obj->items;
    uint32_t birth = cur->kind == V_LIST ? dst->birth : cur->u.obj->birth;
    seq *src = v_iterate(st, r);
    if (!st_may_mutate(st, birth)) {
      st_blocked(st, n, "a list is extended");
      return;
    }
    if (!src) {
      assign_target(st, sc, left, v_unknown(st, "extended with items that are not known"));
      return;
    }
    uint32_t len = src->items.len;
    for (uint32_t i = 0; i < len; i++) avec_push(st->a, &dst->items, src->items.items[i]);
    return;
  }
  assign_target(st, sc, left, eval_binary(st, opbuf, cur, r));
}


/* WHOLE: the name is bound to what QUAL names (`import a.b as c`,
 * `from a import b`); else to the module of its first part (`import a.b`). */
static void bind_import(interp *st, scope *sc, TSNode name_node, const char *qual, bool whole) {
  uint32_t n;
  const char *name = st_text(st, name_node, &n);
  value *v = NULL;
  if (whole || !strchr(qual, '.')) v = script_import(st, name_node, qual, true);
  scope_set(st, sc, name, n, v ? v : v_extern(st, qual));
}


static char *dotted(interp *st, TSNode n) {
  uint32_t len;
  const char *t = st_text(st, n, &len);
  buf b = {0};
  for (uint32_t i = 0; i < len; i++)
    if (t[i] != ' ' && t[i] != '\t' && t[i] != '\\' && t[i] != '\n' && t[i] != '\r') buf_putc(&b, t[i]);
  char *s = st_strdup(st, buf_str(&b), b.len);
  buf_free(&b);
  return s;
}


static void exec_import(interp *st, scope *sc, TSNode n) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (NODE_IS(c, "dotted_name") && ts_node_named_child_count(c)) {
      TSNode first = ts_node_named_child(c, 0);
      uint32_t fl;
      const char *ft = st_text(st, first, &fl);
      bind_import(st, sc, first, st_strdup(st, ft, fl), false);
    } else if (NODE_IS(c, "aliased_import")) {
      TSNode name = FIELD(c, name);
      TSNode alias = FIELD(c, alias);
      if (!ts_node_is_null(name) && !ts_node_is_null(alias)) bind_import(st, sc, alias, dotted(st, name), true);
    }
  }
}


static void exec_import_from(interp *st, scope *sc, TSNode n) {
  TSNode module = FIELD(n, module_name);
  if (ts_node_is_null(module)) return;
  const char *mod = dotted(st, module);
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++)
    if (NODE_IS(ts_node_named_child(n, i), "wildcard_import")) {
      /* `from model import *`: the module's public names */
      value *m = script_import(st, module, mod, false);
      if (!m || m->kind != V_OBJECT) return;
      dict *d = m->u.obj->attrs;
      for (uint32_t k = 0; k < d->keys.len; k++) {
        value *key = d->keys.items[k];
        if (key->kind == V_STR && key->u.s.n && key->u.s.s[0] != '_')
          scope_set(st, sc, key->u.s.s, key->u.s.n, d->vals.items[k]);
      }
      return;
    }
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (ts_node_eq(c, module)) continue;
    TSNode name = c, bound = c;
    if (NODE_IS(c, "aliased_import")) {
      name = FIELD(c, name);
      bound = FIELD(c, alias);
      if (ts_node_is_null(name) || ts_node_is_null(bound)) continue;
    } else if (!NODE_IS(c, "dotted_name")) {
      continue;
    }
    buf q = {0};
    buf_printf(&q, "%s%s%s", mod, mod[strlen(mod) - 1] == '.' ? "" : ".", dotted(st, name));
    if (NODE_IS(bound, "dotted_name") && ts_node_named_child_count(bound)) bound = ts_node_named_child(bound, 0);
    bind_import(st, sc, bound, st_strdup(st, q.data, q.len), true);
    buf_free(&q);
  }
}


static void exec_delete(interp *st, scope *sc, TSNode n) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode t = ts_node_named_child(n, i);
    if (NODE_IS(t, "expression_list")) {
      exec_delete(st, sc, t);
      continue;
    }
    if (NODE_IS(t, "attribute")) {
      value *o = eval(st, sc, FIELD(t, object));
      TSNode an = FIELD(t, attribute);
      if (o->kind != V_OBJECT || ts_node_is_null(an)) continue;
      if (!st_may_mutate(st, o->u.obj->birth)) {
        st_blocked(st, t, "an attribute is deleted");
        continue;
      }
      uint32_t nl;
      const char *name = st_text(st, an, &nl);
      dict_del_str(o->u.obj->attrs, name, nl);
    } else if (NODE_IS(t, "subscript")) {
      value *c = eval(st, sc, FIELD(t, value));
      value *k = eval(st, sc, FIELD(t, subscript));
      if (c->kind == V_DICT && k->kind == V_STR && st_may_mutate(st, c->u.dict->birth))
        dict_del_str(c->u.dict, k->u.s.s, k->u.s.n);
    } else if (NODE_IS(t, "identifier")) {
      uint32_t nl;
      const char *name = st_text(st, t, &nl);
      scope_set(st, sc, name, nl, v_unknown(st, "deleted"));
    }
  }
}


static flow exec_definition(interp *st, scope *sc, TSNode n) {
  TSNode def = FIELD(n, definition);
  if (ts_node_is_null(def)) return FLOW_NORMAL;
  bool dataclass = false, skip = false;
  int flavor = decorator_flavor(st, n, &dataclass, &skip);
  if (skip) return FLOW_NORMAL;
  if (NODE_IS(def, "class_definition")) {
    define_class(st, sc, def, dataclass);
  } else if (NODE_IS(def, "function_definition")) {
    TSNode name = FIELD(def, name);
    if (ts_node_is_null(name)) return FLOW_NORMAL;
    uint32_t nl;
    const char *nm = st_text(st, name, &nl);
    scope_set(st, sc, nm, nl, make_function(st, sc, def, flavor));
  }
  return FLOW_NORMAL;
}


static flow exec_stmt(interp *st, scope *sc, TSNode n) {
  if (!st->open.len) st->top = n;
  if (!st_step(st)) return FLOW_STOP;
  const char *type = ts_node_type(n);
  switch (type[0]) {
  case 'a':
    if (!strcmp(type, "assert_statement")) return FLOW_NORMAL;
    break;
  case 'b':
    if (!strcmp(type, "break_statement")) return FLOW_BREAK;
    break;
  case 'c':
    if (!strcmp(type, "continue_statement")) return FLOW_CONTINUE;
    if (!strcmp(type, "class_definition")) {
      define_class(st, sc, n, false);
      return FLOW_NORMAL;
    }
    break;
  case 'd':
    if (!strcmp(type, "decorated_definition")) return exec_definition(st, sc, n);
    if (!strcmp(type, "delete_statement")) {
      exec_delete(st, sc, n);
      return FLOW_NORMAL;
    }
    break;
  case 'e':
    if (!strcmp(type, "expression_statement")) {
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (NODE_IS(c, "assignment")) exec_assignment(st, sc, c);
        else if (NODE_IS(c, "augmented_assignment")) exec_augmented(st, sc, c);
        else eval(st, sc, c);
      }
      return st->stopped ? FLOW_STOP : FLOW_NORMAL;
    }
    break;
  case 'f':
    if (!strcmp(type, "for_statement")) return exec_for(st, sc, n);
    if (!strcmp(type, "function_definition")) {
      TSNode name = FIELD(n, name);
      if (!ts_node_is_null(name)) {
        uint32_t nl;
        const char *nm = st_text(st, name, &nl);
        scope_set(st, sc, nm, nl, make_function(st, sc, n, FN_PLAIN));
      }
      return FLOW_NORMAL;
    }
    break;
  case 'g':
    if (!strcmp(type, "global_statement")) {
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; i++) {
        str s;
        s.s = st_text(st, ts_node_named_child(n, i), &s.n);
        avec_push(st->a, &sc->globals, s);
      }
      return FLOW_NORMAL;
    }
    break;
  case 'i':
    if (!strcmp(type, "if_statement")) return exec_if(st, sc, n);
    if (!strcmp(type, "import_statement")) {
      exec_import(st, sc, n);
      return FLOW_NORMAL;
    }
    if (!strcmp(type, "import_from_statement")) {
      exec_import_from(st, sc, n);
      return FLOW_NORMAL;
    }
    break;
  case 'r':
    if (!strcmp(type, "return_statement")) {
      sc->ret = ts_node_named_child_count(n) ? eval(st, sc, ts_node_named_child(n, 0)) : st->none;
      return FLOW_RETURN;
    }
    if (!strcmp(type, "raise_statement")) return FLOW_RAISE;
    break;
  case 't':
    if (!strcmp(type, "try_statement")) return exec_try(st, sc, n);
    break;
  case 'w':
    if (!strcmp(type, "while_statement")) return exec_while(st, sc, n);
    if (!strcmp(type, "with_statement")) return act_with(st, sc, n, exec_with); /* no_grad, autocast */
    break;
  default:
    break;
  }
  return FLOW_NORMAL;
}


flow exec_block(interp *st, scope *sc, TSNode block) {
  if (ts_node_is_null(block)) return FLOW_NORMAL;
  /* blocks nest as deep as the source does: a cap keeps the C stack small */
  if (st->depth >= EST_MAX_DEPTH) return FLOW_NORMAL;
  st->depth++;
  flow fl = FLOW_NORMAL;
  TSNode s;
  for (children k = children_of(block); children_next(&k, &s);) {
    fl = exec_stmt(st, sc, s);
    if (fl != FLOW_NORMAL) {
      children_done(&k);
      break;
    }
  }
  st->depth--;
  return fl;
}
