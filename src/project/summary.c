/* This file contains the summary a module is reduced to: for each class,
 * function and method it defines (and each module-level name bound to a
 * model), what the facts of the module alone found (an nn.Module, returns a
 * graph or a model, trains, runs without gradients) and what it refers to in
 * other modules (bases, callees), and the names it imports, so that a
 * re-export can be followed. Small data: the importer's facts read it, and
 * the module's tree and facts are not kept for it. */
#include <assert.h>
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "parse/fields.h"
#include "project/project.h"
#include "util/alloc.h"

#include "parse/node.h"

typedef VEC(project_symbol) symbol_vec;
typedef VEC(project_import) import_vec;


static int symbol_cmp(const void *a, const void *b) {
  return strcmp(((const project_symbol *)a)->name, ((const project_symbol *)b)->name);
}


static int import_cmp(const void *a, const void *b) {
  return strcmp(((const project_import *)a)->name, ((const project_import *)b)->name);
}


static project_symbol *add_symbol(arena *a, symbol_vec *v, const char *name, size_t len, const facts_symbol *sym) {
  project_symbol s = {arena_strndup(a, name, len), *sym, NULL, 0};
  vec_push(v, s);
  return &v->items[v->len - 1];
}


/* References of one symbol while they are gathered: each (name, kind) once */
typedef struct {
  project_ref items[PROJECT_MAX_REFS];
  uint8_t len;
} ref_list;


/* False when the list is full and NAME is not in it: a reference lost. */
static bool add_ref(ref_list *l, arena *a, const char *name, size_t len, uint8_t kind) {
  for (uint8_t i = 0; i < l->len; i++)
    if (l->items[i].kind == kind && strlen(l->items[i].name) == len && !memcmp(l->items[i].name, name, len)) return true;
  if (l->len == PROJECT_MAX_REFS) return false;
  l->items[l->len++] = (project_ref){arena_strndup(a, name, len), kind};
  return true;
}


static void keep_refs(const ref_list *l, arena *a, project_symbol *sym) {
  if (!l->len) return;
  sym->refs = arena_alloc(a, l->len * sizeof *sym->refs);
  memcpy(sym->refs, l->items, l->len * sizeof *l->items);
  sym->nrefs = l->len;
}


static bool is_class_or_function_of(const facts *f, const char *t, uint32_t len) {
  for (size_t c = 0; c < f->classes.len; c++)
    if (f->classes.items[c].name_len == len && !memcmp(f->classes.items[c].name, t, len)) return true;
  for (size_t i = 0; i < f->functions.len; i++)
    if (f->functions.items[i].parent < 0 && f->functions.items[i].klass < 0 && f->functions.items[i].name_len == len &&
        !memcmp(f->functions.items[i].name, t, len))
      return true;
  return false;
}


/* The reference NODE (a base class, a callee) makes, into Q: ":Name" for a
 * class or function of the module itself, else the qualname it is imported
 * under; false for names of PyTorch and of nothing imported. */
static bool ref_name(const facts *f, TSNode node, buf *q) {
  buf_clear(q);
  if (NODE_IS(node, "identifier")) {
    uint32_t len;
    const char *t = facts_text(f, node, &len);
    if (is_class_or_function_of(f, t, len)) {
      buf_putc(q, ':');
      buf_append(q, t, len);
      return true;
    }
  }
  if (!NODE_IS(node, "identifier") && !NODE_IS(node, "attribute")) return false;
  /* torch's own classes and functions the facts judged already */
  return facts_qualname(f, node, q) && strncmp(buf_str(q), "torch.", 6) != 0 && strcmp(buf_str(q), "torch") != 0;
}


/* The bases of class K as references of SYM (those of the module itself
 * and those it imports), and what the module alone says of K being a model:
 * SYM_MODEL, SYM_PLAIN, SYM_PLAIN | SYM_FORWARD (plain, or else a model by
 * its `forward`, once every base referred to turns out plain), or 0 (none
 * known). A base neither plain (object, ABC, typing's) nor referred to is
 * unknown, like a base the lookup cannot find: it keeps a class defining
 * `forward` a model, as it always was. */
static uint32_t record_bases(const facts *f, const facts_class *k, arena *a, project_symbol *sym) {
  assert(!k->is_module);
  ref_list l = {0};
  buf q = {0}, tmp = {0};
  uint32_t count = ts_node_is_null(k->bases) ? 0 : ts_node_named_child_count(k->bases), explicit = 0;
  bool unknown = false;
  for (uint32_t i = 0; i < count; i++) {
    TSNode base = ts_node_named_child(k->bases, i);
    int kind = facts_base_kind(f, &base, &tmp);
    if (kind == FACTS_BASE_SKIP) continue;
    explicit++;
    if (kind == FACTS_BASE_PLAIN) continue;
    if (!ref_name(f, base, &q) || !add_ref(&l, a, q.data, q.len, REF_BASE)) unknown = true;
  }
  buf_free(&q);
  buf_free(&tmp);
  uint32_t says;
  if (!explicit) says = k->has_forward ? SYM_MODEL : SYM_PLAIN;
  else if (unknown) says = k->has_forward ? SYM_MODEL : 0;
  else if (!l.len) says = SYM_PLAIN;
  else says = SYM_PLAIN | (k->has_forward ? SYM_FORWARD : 0);
  /* a model's bases add nothing a lookup asks */
  if (!(says & SYM_MODEL)) keep_refs(&l, a, sym);
  return says;
}


/* The call a returned VALUE of function FN gives, through `.to(...)`-like
 * chains and one name assigned in FN (`model = Net(); return model.cuda()`);
 * a null node when it is not a call. */
static TSNode returned_call(const facts *f, int fn, TSNode value) {
  static const char *const same[] = {"to", "cuda", "cpu", "train", "eval", "half", "float", "bfloat16", "double",
                                     "requires_grad_", NULL};
  for (int guard = 0; guard < 16 && !ts_node_is_null(value); guard++) {
    if (NODE_IS(value, "parenthesized_expression") || NODE_IS(value, "await")) {
      value = ts_node_named_child(value, 0);
    } else if (NODE_IS(value, "identifier")) {
      /* the last assignment to it in FN before the return */
      TSNode found = NULL_NODE;
      uint32_t len, pos = ts_node_start_byte(value);
      const char *t = facts_text(f, value, &len);
      for (size_t i = 0; i < f->assigns.len; i++) {
        TSNode left = f->assigns.items[i].left;
        if (ts_node_start_byte(left) >= pos) break;
        uint32_t l2;
        const char *t2 = facts_text(f, left, &l2);
        if (NODE_IS(left, "identifier") && l2 == len && !memcmp(t, t2, len) &&
            facts_function_at(f, ts_node_start_byte(left)) == fn)
          found = f->assigns.items[i].right;
      }
      value = found;
      if (ts_node_is_null(value) || NODE_IS(value, "identifier")) return NULL_NODE;
    } else if (NODE_IS(value, "call")) {
      TSNode callee = FACT_FIELD(f, value, function);
      if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return value;
      bool chained = false;
      for (size_t i = 0; same[i] && !chained; i++) chained = facts_node_is(f, FACT_FIELD(f, callee, attribute), same[i]);
      if (!chained) return value;
      value = FACT_FIELD(f, callee, object);
    } else {
      return NULL_NODE;
    }
  }
  return NULL_NODE;
}


/* What function FN refers to: the callees it returns the result of, and the
 * callees it calls (in a loop of its own or not). */
static void record_calls(const facts *f, int fn, arena *a, project_symbol *sym) {
  ref_list l = {0};
  buf q = {0};
  for (size_t i = 0; i < f->returns.len; i++) {
    if (f->returns.items[i].function != fn) continue;
    TSNode call = returned_call(f, fn, ts_node_named_child(f->returns.items[i].call, 0));
    if (!ts_node_is_null(call) && ref_name(f, FACT_FIELD(f, call, function), &q)) add_ref(&l, a, q.data, q.len, REF_RETURN);
  }
  facts_span body = f->functions.items[fn].body;
  for (size_t i = facts_first_call_at(f, body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= body.end) break;
    if (c->function != fn) continue;
    if (ref_name(f, FACT_FIELD(f, c->call, function), &q))
      add_ref(&l, a, q.data, q.len, c->loop >= 0 ? REF_CALL | REF_CALL_IN_LOOP : REF_CALL);
  }
  buf_free(&q);
  keep_refs(&l, a, sym);
}


/* Whether class node N is defined at module level (possibly decorated). */
static bool top_level(TSNode n) {
  TSNode up = ts_node_parent(n);
  if (!ts_node_is_null(up) && NODE_IS(up, "decorated_definition")) up = ts_node_parent(up);
  return !ts_node_is_null(up) && NODE_IS(up, "module");
}


static facts_symbol function_symbol(const facts_function *fn) {
  facts_symbol s = {0};
  s.flags = SYM_FUNCTION;
  if (fn->returns_model) s.flags |= SYM_MODEL;
  if (fn->returns_frozen) s.flags |= SYM_NO_PARAMETERS;
  if (fn->returns_graph) s.flags |= SYM_RETURNS_GRAPH;
  if (fn->returns_scalar_loss) s.flags |= SYM_RETURNS_SCALAR;
  if (fn->trains) s.flags |= SYM_TRAINS;
  if (fn->backward) s.flags |= SYM_BACKWARD;
  if (fn->step) s.flags |= SYM_STEP;
  if (fn->updates) s.flags |= SYM_UPDATES;
  if (fn->gradients) s.flags |= SYM_GRADIENTS;
  if (fn->returns_no_grad) s.flags |= SYM_NO_GRAD_CONTEXT;
  /* positions count `self` for a method, which its callers do not hand */
  if (fn->klass < 0) {
    s.freezes_param = fn->freezes_param;
    s.freeze_flag = fn->freeze_flag;
  }
  /* decorated, or under its own no_grad: the file's calls under no_grad
   * (no_grad_by_callers) do not speak for its importers' */
  if (fn->no_grad && !fn->no_grad_by_callers) s.flags |= SYM_NO_GRAD;
  if (fn->returns_device_arg) s.flags |= SYM_TO_DEVICE;
  if (fn->slices_first_arg) s.flags |= SYM_SLICES_ARG;
  if (fn->scales_loss) s.flags |= SYM_SCALES_LOSS;
  if (fn->returns_float64) s.flags |= SYM_FLOAT64;
  if (fn->loss_key && !fn->loss_key_graph && !fn->other_return) s.flags |= SYM_CLEAN_LOSS_KEY;
  if (fn->dict_returns && !fn->dict_other) {
    s.flags |= SYM_DICT_RETURNS;
    s.graph_keys = fn->graph_keys;
  }
  s.float64_elems = fn->float64_elems;
  if (!fn->elems_varied && fn->nelems > 0 && fn->nelems <= FACTS_MAX_ELEMS) {
    s.nelems = fn->nelems;
    memcpy(s.elems, fn->elems, fn->nelems);
    s.nelems2 = fn->nelems2;
    memcpy(s.elems2, fn->elems2, fn->nelems2);
  }
  return s;
}


/* a call while the module's are gathered, by the name it calls, its
 * text in the source: KLASS is the class of `self.m()` (NULL otherwise);
 * OUTER the outermost function making it (-1: module level) */
typedef struct {
  const char *klass, *name;
  uint32_t klass_len, name_len;
  uint8_t how;
  int outer;
} call_seen;
typedef VEC(call_seen) call_vec;


/* The character at K of E's full name, "Klass.name" or "name"; '\0' past it. */
static char name_at(const call_seen *e, uint32_t k) {
  if (e->klass) {
    if (k < e->klass_len) return e->klass[k];
    if (k == e->klass_len) return '.';
    k -= e->klass_len + 1;
  }
  return k < e->name_len ? e->name[k] : '\0';
}


/* The full names' order as strcmp gives it: project_summary_call's binary
 * search reads them so. */
static int call_cmp(const void *pa, const void *pb) {
  const call_seen *a = pa, *b = pb;
  for (uint32_t k = 0;; k++) {
    unsigned char ca = (unsigned char)name_at(a, k), cb = (unsigned char)name_at(b, k);
    if (ca != cb) return ca < cb ? -1 : 1;
    if (!ca) return 0;
  }
}


/* Calls whose callee is a well-known library's (`torch.cat`, `np.mean`,
 * `F.relu`, `os.path.join`): never a function or method of the project. (A
 * module of the project, `utils.evaluate(model)`, is kept.) */
static bool library_call(const facts *f, TSNode callee) {
  static const char *const libraries[] = {"torch", "numpy", "math", "os", "sys", "random", "time", "json",
                                          "logging", "collections", "itertools", "functools", "re", "pandas",
                                          "scipy", "sklearn", "matplotlib", "tqdm", "transformers", "timm",
                                          "torchvision", "PIL", "cv2", "wandb", "argparse", "typing", "copy",
                                          "pickle", "shutil", "warnings", "datetime", "pathlib", NULL};
  if (!NODE_IS(callee, "attribute")) return false;
  TSNode obj = FACT_FIELD(f, callee, object);
  if (ts_node_is_null(obj) || !NODE_IS(obj, "identifier")) return false;
  uint32_t len;
  const char *t = facts_text(f, obj, &len);
  size_t first, end;
  facts_bindings_named(f, t, len, &first, &end);
  if (end == first || f->bindings.items[first].kind != BINDING_IMPORT || !f->bindings.items[first].qualname)
    return false;
  const char *q = f->bindings.items[first].qualname;
  size_t root = strcspn(q, ".");
  for (size_t i = 0; libraries[i]; i++)
    if (strlen(libraries[i]) == root && !memcmp(libraries[i], q, root)) return true;
  return false;
}


/* The top-level function holding function FN (-1 at module level). */
static int outermost(const facts *f, int fn) {
  while (fn >= 0 && f->functions.items[fn].parent >= 0) fn = f->functions.items[fn].parent;
  return fn;
}


/* `self.run_stage("evaluate", self.evaluate)`: a method of the class handed
 * as a bound method is called back by the callee, so it counts as a call
 * made there (audiocraft's base solver runs its stages under no_grad, and
 * a subclass's `evaluate` with them). */
static void record_handed_methods(const facts *f, const facts_call *c, call_vec *v) {
  int k = c->function >= 0 ? f->functions.items[c->function].klass : -1;
  if (k < 0 || !f->classes.items[k].name) return;
  TSNode args = FACT_FIELD(f, c->call, arguments);
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return;
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "keyword_argument")) a = FACT_FIELD(f, a, value);
    if (ts_node_is_null(a) || !NODE_IS(a, "attribute")) continue;
    TSNode obj = FACT_FIELD(f, a, object), attr = FACT_FIELD(f, a, attribute);
    if (ts_node_is_null(obj) || !facts_node_is(f, obj, "self") || ts_node_is_null(attr)) continue;
    call_seen seen = {0};
    seen.how = facts_in_no_grad(f, ts_node_start_byte(c->call)) ? FACTS_CALLED_NO_GRAD : FACTS_CALLED_GRAD;
    seen.outer = outermost(f, c->function);
    seen.klass = f->classes.items[k].name;
    seen.klass_len = f->classes.items[k].name_len;
    seen.name = facts_text(f, attr, &seen.name_len);
    vec_push(v, seen);
  }
}


/* `evaluate_fn = model.evaluate_one_step if cond else model.evaluate_recon_one_step`
 * then `evaluate_fn(data, meters)`: the call SEEN of a plain name runs the
 * bound methods its function last picked into that name, each recorded
 * as a call of its own by that method's name. */
static void record_picked_methods(const facts *f, const facts_call *c, const call_seen *seen, call_vec *v) {
  /* the binding in effect: the name's last one before the call (bindings
   * of a name are few, sorted by place), made in the call's function */
  size_t first, end;
  facts_bindings_named(f, seen->name, seen->name_len, &first, &end);
  uint32_t at = ts_node_start_byte(c->call);
  const facts_binding *b = NULL;
  for (size_t i = end; i-- > first && !b;)
    if (f->bindings.items[i].pos < at) b = &f->bindings.items[i];
  if (!b || ts_node_is_null(b->value) || facts_function_at(f, b->pos) != c->function) return;
  TSNode right = b->value;
  for (int guard = 0; guard < 4 && NODE_IS(right, "parenthesized_expression"); guard++)
    right = ts_node_named_child(right, 0);
  if (ts_node_is_null(right)) return;
  TSNode picks[2] = {right, NULL_NODE};
  if (NODE_IS(right, "conditional_expression")) {
    picks[0] = ts_node_named_child(right, 0);
    picks[1] = ts_node_named_child(right, 2);
  }
  /* `extractor = Extractor(ext_dir)` then `extractor(sents)`: a call of
   * the class's `__call__`, recorded as `Extractor.__call__` (the class's
   * last name: the module importing it says which it is) */
  if (NODE_IS(right, "call")) {
    TSNode k = FACT_FIELD(f, right, function);
    if (!ts_node_is_null(k) && NODE_IS(k, "attribute") && !library_call(f, k)) k = FACT_FIELD(f, k, attribute);
    uint32_t kl;
    const char *kt = !ts_node_is_null(k) && NODE_IS(k, "identifier") ? facts_text(f, k, &kl) : NULL;
    if (kt && kl && isupper((unsigned char)kt[0])) {
      call_seen made = *seen;
      made.klass = kt;
      made.klass_len = kl;
      made.name = "__call__";
      made.name_len = 8;
      vec_push(v, made);
    }
    return;
  }
  for (int i = 0; i < 2; i++) {
    TSNode p = picks[i];
    if (ts_node_is_null(p) || !NODE_IS(p, "attribute")) continue;
    TSNode attr = FACT_FIELD(f, p, attribute);
    if (ts_node_is_null(attr) || !NODE_IS(attr, "identifier") || library_call(f, p)) continue;
    call_seen picked = *seen;
    picked.name = facts_text(f, attr, &picked.name_len);
    vec_push(v, picked);
  }
}


/* Whether call I of F, `self.rollout(...)` as a statement of its own (its
 * result dropped), is followed in its function by a backward pass of an
 * attribute of `self` (`self.loss.backward()`): the method called leaves
 * the loss there, as VLN agents' `train()` expects of `rollout`. */
static bool leaves_loss_on_self(const facts *f, size_t i) {
  const facts_call *c = &f->calls.items[i];
  assert(c->function >= 0);
  TSNode stmt = ts_node_parent(c->call);
  if (ts_node_is_null(stmt) || !NODE_IS(stmt, "expression_statement")) return false;
  for (size_t j = i + 1; j < f->calls.len; j++) {
    const facts_call *d = &f->calls.items[j];
    if (ts_node_start_byte(d->call) >= f->functions.items[c->function].body.end) break;
    if (d->function != c->function) continue;
    TSNode callee = FACT_FIELD(f, d->call, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute") ||
        !facts_node_is(f, FACT_FIELD(f, callee, attribute), "backward"))
      continue;
    TSNode obj = FACT_FIELD(f, callee, object);
    if (NODE_IS(obj, "attribute") && facts_node_is(f, FACT_FIELD(f, obj, object), "self")) return true;
  }
  return false;
}


/* Every call of F by the name it calls (project_call), each name once with
 * the FACTS_CALLED_* of all its calls, into S. The names point into the
 * source until the entries merge: one copy per name. */
static void record_calls_by_name(const facts *f, project_summary *s) {
  call_vec v = {0};
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    TSNode callee = FACT_FIELD(f, c->call, function);
    record_handed_methods(f, c, &v);
    if (ts_node_is_null(callee) || library_call(f, callee)) continue;
    TSNode last = callee;
    call_seen seen = {0};
    if (NODE_IS(callee, "attribute")) {
      TSNode obj = FACT_FIELD(f, callee, object);
      if (!ts_node_is_null(obj) && facts_node_is(f, obj, "self")) {
        /* `self.m()` in a method of a class of the module: that class's m */
        int k = c->function >= 0 ? f->functions.items[c->function].klass : -1;
        if (k < 0 || !f->classes.items[k].name) continue;
        seen.klass = f->classes.items[k].name;
        seen.klass_len = f->classes.items[k].name_len;
      }
      last = FACT_FIELD(f, callee, attribute);
      /* `net.eval()` and `net.train()` switch a module's mode: not a call
       * of a function `eval` the linted module defines (a task config's
       * `def eval(model, loader)`, called by its importer under no_grad) */
      TSNode args = FACT_FIELD(f, c->call, arguments);
      uint32_t nargs = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
      if (!ts_node_is_null(last) && ((nargs == 0 && facts_node_is(f, last, "eval")) ||
                                     (nargs <= 1 && facts_node_is(f, last, "train") &&
                                      (nargs == 0 || NODE_IS(ts_node_named_child(args, 0), "true") ||
                                       NODE_IS(ts_node_named_child(args, 0), "false")))))
        continue;
    }
    if (ts_node_is_null(last) || !NODE_IS(last, "identifier")) continue;
    seen.name = facts_text(f, last, &seen.name_len);
    seen.how = facts_in_no_grad(f, ts_node_start_byte(c->call)) || facts_hands_only_frozen_models(f, c->call)
                   ? FACTS_CALLED_NO_GRAD
                   : FACTS_CALLED_GRAD;
    /* most callers run no backward of their own: nothing to ask */
    /* a script's own training loop at module level counts as well */
    bool own_backward =
        c->function >= 0 ? f->functions.items[c->function].own_backward : f->file_backward && c->loop >= 0;
    if (seen.how == FACTS_CALLED_GRAD && own_backward &&
        (facts_result_backpropagated(f, c->call) || (seen.klass && leaves_loss_on_self(f, i))))
      seen.how |= FACTS_CALLED_BACKPROP;
    seen.outer = outermost(f, c->function);
    vec_push(&v, seen);
    if (!seen.klass && NODE_IS(callee, "identifier")) record_picked_methods(f, c, &seen, &v);
    /* `self.ent_id_detection(...)` in a subclass that does not define it:
     * a call of the method a base class of another module defines, which
     * that module's importer check asks about by its plain name */
    if (seen.klass) {
      int k = f->functions.items[c->function].klass;
      bool own = false;
      for (size_t g = 0; g < f->functions.len && !own; g++)
        own = f->functions.items[g].klass == k && f->functions.items[g].name_len == seen.name_len &&
              !memcmp(f->functions.items[g].name, seen.name, seen.name_len);
      if (!own && !ts_node_is_null(f->classes.items[k].bases)) {
        call_seen plain = seen;
        plain.klass = NULL;
        plain.klass_len = 0;
        vec_push(&v, plain);
      }
    }
  }
  if (v.len > 1) qsort(v.items, v.len, sizeof *v.items, call_cmp);
  s->calls = arena_alloc(&s->arena, (v.len + 1) * sizeof *s->calls);
  size_t n = 0;
  buf name = {0};
  for (size_t i = 0; i < v.len; i++) {
    const call_seen *e = &v.items[i];
    if (!i || call_cmp(&v.items[i - 1], e) != 0) {
      buf_clear(&name);
      if (e->klass) {
        buf_append(&name, e->klass, e->klass_len);
        buf_putc(&name, '.');
      }
      buf_append(&name, e->name, e->name_len);
      s->calls[n++] = (project_call){arena_strndup(&s->arena, name.data, name.len), 0, 0, {0}};
    }
    project_call *into = &s->calls[n - 1];
    into->how |= e->how;
    if (!(e->how & FACTS_CALLED_GRAD) || into->ngrad_in == PROJECT_GRAD_CALLERS_UNKNOWN) continue;
    if (e->outer < 0) {
      into->ngrad_in = PROJECT_GRAD_CALLERS_UNKNOWN;
      continue;
    }
    const facts_function *fn = &f->functions.items[e->outer];
    bool seen = false;
    for (uint8_t k = 0; k < into->ngrad_in && !seen; k++)
      seen = strlen(into->grad_in[k]) == fn->name_len && !memcmp(into->grad_in[k], fn->name, fn->name_len);
    if (seen) continue;
    if (into->ngrad_in == PROJECT_MAX_GRAD_CALLERS) into->ngrad_in = PROJECT_GRAD_CALLERS_UNKNOWN;
    else into->grad_in[into->ngrad_in++] = arena_strndup(&s->arena, fn->name, fn->name_len);
  }
  buf_free(&name);
  s->ncalls = n;
  vec_free(&v);
}


/* Whether NAME (LEN bytes) is bound at module level of F. */
static bool bound_at_module_level(const facts *f, const char *name, size_t len) {
  size_t first, end;
  facts_bindings_named(f, name, (uint32_t)len, &first, &end);
  for (size_t i = first; i < end; i++)
    if (facts_function_at(f, f->bindings.items[i].pos) < 0) return true;
  return false;
}


project_summary *project_summary_build(const facts *f, const project_module *m, const project_view *scan) {
  project_summary *s = oom_xcalloc(1, sizeof *s);
  arena *a = &s->arena;
  symbol_vec syms = {0};
  import_vec imps = {0};
  buf name = {0};
  /* classes at module level, and their methods as `Class.method` */
  bool *listed = oom_xcalloc(f->classes.len + 1, sizeof *listed);
  /* classes whose forward or __call__ runs wholly under no_grad: wrappers
   * whose calls record no graph */
  bool *no_grad = oom_xcalloc(f->classes.len + 1, sizeof *no_grad);
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *fn = &f->functions.items[i];
    bool entry = (fn->name_len == 7 && !memcmp(fn->name, "forward", 7)) ||
                 (fn->name_len == 8 && !memcmp(fn->name, "__call__", 8));
    if (fn->klass >= 0 && entry && facts_wholly_no_grad(f, (int)i)) no_grad[fn->klass] = true;
  }
  /* what calling an instance of a class returns: its `__call__`'s tuples,
   * else its `forward`'s (a loss object returning the total and its parts) */
  int *call_entry = oom_xcalloc(f->classes.len + 1, sizeof *call_entry);
  for (size_t i = 0; i < f->classes.len; i++) call_entry[i] = -1;
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *fn = &f->functions.items[i];
    if (fn->klass < 0 || fn->parent >= 0) continue;
    if ((fn->name_len == 8 && !memcmp(fn->name, "__call__", 8)) ||
        (fn->name_len == 7 && !memcmp(fn->name, "forward", 7) && call_entry[fn->klass] < 0))
      call_entry[fn->klass] = (int)i;
  }
  /* a class one of whose methods scales the loss (an AMP optimizer wrapper) */
  bool *scales = oom_xcalloc(f->classes.len + 1, sizeof *scales);
  for (size_t i = 0; i < f->functions.len; i++)
    if (f->functions.items[i].klass >= 0 && f->functions.items[i].scales_loss) scales[f->functions.items[i].klass] = true;
  for (size_t i = 0; i < f->classes.len; i++) {
    const facts_class *k = &f->classes.items[i];
    if (!k->name || !top_level(k->node)) continue;
    listed[i] = true;
    facts_symbol sym = {0};
    sym.flags = SYM_CLASS | (k->is_module ? SYM_MODEL : 0) | (k->is_dataset ? SYM_DATASET : 0) |
                (scales[i] ? SYM_SCALES_LOSS : 0);
    if (no_grad[i]) sym.flags |= SYM_NO_GRAD;
    if (k->is_module && k->no_parameters) sym.flags |= SYM_NO_PARAMETERS;
    if (k->has_forward) sym.flags |= SYM_OWN_ENTRY;
    if (call_entry[i] >= 0) {
      const facts_function *entry = &f->functions.items[call_entry[i]];
      if (!entry->elems_varied && entry->nelems > 0 && entry->nelems <= FACTS_MAX_ELEMS) {
        sym.ncall_elems = entry->nelems;
        memcpy(sym.call_elems, entry->elems, entry->nelems);
      }
    }
    project_symbol *ps = add_symbol(a, &syms, k->name, k->name_len, &sym);
    if (!k->is_module) ps->symbol.flags |= record_bases(f, k, a, ps);
  }
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *fn = &f->functions.items[i];
    if (fn->parent >= 0) continue; /* nested in a function: not reachable by name */
    facts_symbol sym = function_symbol(fn);
    /* a method whose body runs under its own no_grad (allennlp's
     * `Model.forward_on_instances`): its callers record no graph */
    if (fn->klass >= 0 && !(sym.flags & SYM_NO_GRAD) && f->no_grad.len && facts_wholly_no_grad(f, (int)i))
      sym.flags |= SYM_NO_GRAD;
    /* asked only of the names a lookup by name takes (facts_no_grad_method_call) */
    if (fn->klass >= 0 && fn->name_len >= 8 && memchr(fn->name, '_', fn->name_len) && !(sym.flags & SYM_NO_GRAD) &&
        (!ts_node_is_null(fn->decorated) || fn->body.end - fn->body.start <= 1024) && facts__abstract_method(f, (int)i))
      sym.flags |= SYM_ABSTRACT;
    if (f->no_grad.len && facts_runs_parameter_only_no_grad(f, (int)i, NULL_NODE)) sym.flags |= SYM_RUNS_HANDED_NO_GRAD;
    if (fn->klass < 0) {
      /* the weights a factory's caller passes (`pretrained=True`) are
       * checked where it is called */
      if (fn->returns_model && facts_builds_fresh_model(f, (int)i)) sym.flags |= SYM_FRESH_MODEL;
      if (top_level(fn->node)) record_calls(f, (int)i, a, add_symbol(a, &syms, fn->name, fn->name_len, &sym));
      continue;
    }
    if (!listed[fn->klass]) continue;
    const facts_class *k = &f->classes.items[fn->klass];
    buf_clear(&name);
    buf_append(&name, k->name, k->name_len);
    buf_putc(&name, '.');
    buf_append(&name, fn->name, fn->name_len);
    record_calls(f, (int)i, a, add_symbol(a, &syms, name.data, name.len, &sym));
  }
  free(listed);
  free(call_entry);
  free(no_grad);
  free(scales);
  /* module-level names bound to a model (`model = Net()` in a setup module) */
  for (size_t i = 0; i < f->module_names.len; i++) {
    const char *n = f->module_names.items[i];
    size_t len = strlen(n);
    if (strchr(n, '.') || !bound_at_module_level(f, n, len)) continue;
    facts_symbol sym = {0};
    sym.flags = SYM_VALUE | SYM_MODEL;
    add_symbol(a, &syms, n, len, &sym);
  }
  /* what the module imports at module level, for re-exports */
  for (size_t i = 0; i < f->bindings.len; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->kind != BINDING_IMPORT || !b->qualname || facts_function_at(f, b->pos) >= 0) continue;
    project_import imp = {arena_strndup(a, b->name, b->name_len), arena_strndup(a, b->qualname, strlen(b->qualname))};
    vec_push(&imps, imp);
  }
  /* `from utils_rd import *`: the module is imported all the same (which
   * modules import a file is asked of these), under a name no lookup of a
   * real name matches */
  for (size_t i = 0; i < f->star_modules.len; i++) {
    const char *mod = f->star_modules.items[i];
    project_import imp = {arena_strndup(a, "*", 1), arena_strndup(a, mod, strlen(mod))};
    vec_push(&imps, imp);
  }
  buf_free(&name);
  if (syms.len > 1) qsort(syms.items, syms.len, sizeof *syms.items, symbol_cmp);
  if (imps.len > 1) qsort(imps.items, imps.len, sizeof *imps.items, import_cmp);
  /* a name defined twice (`if ...: def f` / `else: def f`): the first one
   * sorted stands for both, which is what a lookup finds */
  s->symbols = arena_alloc(a, (syms.len + 1) * sizeof *s->symbols);
  if (syms.len) memcpy(s->symbols, syms.items, syms.len * sizeof *syms.items);
  s->nsymbols = syms.len;
  s->imports = arena_alloc(a, (imps.len + 1) * sizeof *s->imports);
  if (imps.len) memcpy(s->imports, imps.items, imps.len * sizeof *imps.items);
  s->nimports = imps.len;
  vec_free(&syms);
  vec_free(&imps);
  record_calls_by_name(f, s);
  s->self = (project_dep){arena_strndup(a, m->path, strlen(m->path)), m->hash};
  /* the search folders of its own view, in order, beyond the usual three */
  s->sys_path = arena_alloc(a, (size_t)(scan->nbases + 1) * sizeof *s->sys_path);
  for (int i = 0; i < scan->nbases; i++)
    s->sys_path[s->nsys_path++] = arena_strndup(a, scan->bases[i], strlen(scan->bases[i]));
  return s;
}


void project_summary_free(project_summary *s) {
  if (!s) return;
  assert(s->refs == 0);
  arena_free(&s->arena);
  free(s);
}


/* The entry named NAME (LEN bytes) of the N entries of SIZE bytes at BASE,
 * sorted by name, each starting with its `char *name` (project_symbol,
 * project_call, project_import); NULL when none is. */
_Static_assert(offsetof(project_symbol, name) == 0 && offsetof(project_call, name) == 0 &&
                   offsetof(project_import, name) == 0,
               "by_name reads each entry's name first");
static const void *by_name(const void *base, size_t n, size_t size, const char *name, size_t len) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const char *at = *(char *const *)((const char *)base + mid * size);
    int c = strncmp(at, name, len);
    if (!c && at[len] != '\0') c = 1;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo == n) return NULL;
  const char *at = *(char *const *)((const char *)base + lo * size);
  return !strncmp(at, name, len) && at[len] == '\0' ? (const char *)base + lo * size : NULL;
}


const project_symbol *project_summary_find(const project_summary *s, const char *name, size_t len) {
  return by_name(s->symbols, s->nsymbols, sizeof *s->symbols, name, len);
}


const project_call *project_summary_call(const project_summary *s, const char *name, size_t len) {
  return by_name(s->calls, s->ncalls, sizeof *s->calls, name, len);
}


uint8_t project_summary_calls(const project_summary *s, const char *name, size_t len) {
  const project_call *c = project_summary_call(s, name, len);
  return c ? c->how : 0;
}


const project_import *project_summary_import(const project_summary *s, const char *name, size_t len) {
  return by_name(s->imports, s->nimports, sizeof *s->imports, name, len);
}
