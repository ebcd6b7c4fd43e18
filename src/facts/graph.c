/* This file contains the graph model: which values carry an autograd graph,
 * per function and at module level, flow-sensitively (reassignment kills the
 * old state, branches join, loop bodies run to a fixed point), with summaries
 * of the file's own functions (trains, returns a graph) and evidence that
 * flows backwards from `.backward()` calls (the producer of a loss that is
 * backpropagated is a model, even when it is only a parameter name).
 *
 * The statement and expression walks recurse, bounded by MAX_DEPTH: Python
 * itself refuses code nested that deep, and deeper code is left unanalysed
 * (its names read as clean) rather than risking the stack. */
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/children.h"
#include "parse/fields.h"
#include "facts/facts.h"
#include "util/alloc.h"

#include "parse/node.h"
#include "parse/walk.h"
#define MAX_DEPTH 200
#define MAX_ROUNDS 4

/* V_ARG: computed from a parameter of the function analysed (which carries
 * a graph when the caller's argument does): it flows where V_GRAPH flows and
 * is never recorded; only the elements of returned tuples keep it
 * (TAINT_ARG), so that a caller can tell `loss, mse = helper(pred, y)`'s
 * `mse` from a float the helper returns beside it. */
/* V_KEYED: a name holding a dict (or other container) whose graph is known
 * only through string keys read from it that reach a backward pass
 * (`output["loss"].backward()`): its other keys bring no graph by that
 * evidence (`output["tb_log"]`, a dict of logged floats). Never flows. */
enum { V_GRAPH = 1, V_SCALAR = 2, V_DIVIDED = 4, V_ARG = 8, V_KEYED = 16 };
#define V_FLOW (V_GRAPH | V_ARG)
/* on the marks: the name itself, not only a string key of it, reaches a
 * backward pass */
enum { M_WHOLE = 64 };

typedef struct {
  const char *name;
  uint32_t len;
  unsigned flags;
} slot;

typedef VEC(slot) state;

/* NAME["KEY"] reaches a backward pass */
typedef struct {
  const char *name, *key;
  uint32_t len, key_len;
} keyed_mark;

/* a local bound to a dict: DICT while every binding of it read so far is
 * a dict display or `dict(...)`; KEYS the graph-carrying keys (as
 * facts_function.graph_keys) of those and of the entries set on it */
typedef struct {
  const char *name;
  uint32_t len;
  bool dict;
  uint64_t keys;
} dict_slot;

typedef struct {
  facts *f;
  int function;   /* the function analysed, -1 for module level */
  bool no_grad;   /* the statement being run is in a no-grad region */
  int depth;
  bool changed;   /* a summary changed in this round */
  bool replay;    /* read names from the records instead of a state (predicates) */
  VEC(slot) marked; /* names `.backward()` reaches in this function (flags: V_SCALAR when direct) */
  /* the states a `continue` and a `break` of the innermost loop leave (the
   * loop's head and its exit join them); LOOPS counts the loops the
   * statement being run is in: outside them a `continue` joins nothing */
  state cont, brk;
  int loops;
  buf tmp;
  VEC(keyed_mark) keyed;
  /* in a function returning dicts (facts_function.dict_form): what each
   * local bound to a dict holds, key by key */
  VEC(dict_slot) dicts;
} analysis;


static bool text_is(const facts *f, TSNode n, const char *s) {
  return facts_node_is(f, n, s);
}


/* Whether E is a dict display or a `dict(...)` call. */
static bool dict_display(const facts *f, TSNode e) {
  if (ts_node_is_null(e)) return false;
  if (NODE_IS(e, "dictionary")) return true;
  return NODE_IS(e, "call") && text_is(f, FACT_FIELD(f, e, function), "dict");
}


static bool in_list(const char *s, size_t len, const char *const *list) {
  /* the first byte rules out most entries without measuring them */
  char first = len ? s[0] : '\0';
  for (size_t i = 0; list[i]; i++)
    if (list[i][0] == first && strlen(list[i]) == len && !memcmp(list[i], s, len)) return true;
  return false;
}


static bool has_str(char **items, size_t n, const char *s, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (facts__cstr_is(items[i], s, len)) return true;
  return false;
}


/* ---- names the analysis tracks: `x` and `self.x` ---- */

static bool is_self_attr(const facts *f, TSNode n) {
  if (!NODE_IS(n, "attribute")) return false;
  TSNode obj = FACT_FIELD(f, n, object);
  return !ts_node_is_null(obj) && NODE_IS(obj, "identifier") && text_is(f, obj, "self");
}


static bool trackable(const facts *f, TSNode n) {
  return NODE_IS(n, "identifier") || is_self_attr(f, n);
}


static slot *find(state *st, const char *name, uint32_t len) {
  for (size_t i = st->len; i-- > 0;)
    if (st->items[i].len == len && !memcmp(st->items[i].name, name, len)) return &st->items[i];
  return NULL;
}


static void set_name(analysis *a, state *st, TSNode target, unsigned flags) {
  uint32_t len;
  const char *name = facts_text(a->f, target, &len);
  slot *s = find(st, name, len);
  if (s) s->flags = flags;
  else {
    slot n = {name, len, flags};
    vec_push(st, n);
  }
}


static void copy_state(state *dst, const state *src) {
  dst->len = 0;
  vec_reserve(dst, src->len);
  if (src->len) memcpy(dst->items, src->items, src->len * sizeof *src->items);
  dst->len = src->len;
}


/* INTO |= FROM, name by name; true when INTO changed */
static bool join(state *into, const state *from) {
  bool changed = false;
  for (size_t i = 0; i < from->len; i++) {
    slot *s = find(into, from->items[i].name, from->items[i].len);
    if (!s) {
      vec_push(into, from->items[i]);
      changed = true;
    } else if ((s->flags | from->items[i].flags) != s->flags) {
      s->flags |= from->items[i].flags;
      changed = true;
    }
  }
  return changed;
}


static bool marked(const analysis *a, const char *name, uint32_t len, unsigned *flags) {
  for (size_t i = 0; i < a->marked.len; i++)
    if (a->marked.items[i].len == len && !memcmp(a->marked.items[i].name, name, len)) {
      if (flags) *flags = a->marked.items[i].flags;
      return true;
    }
  return false;
}


static bool mark(analysis *a, TSNode n, unsigned flags) {
  uint32_t len;
  const char *name = facts_text(a->f, n, &len);
  for (size_t i = 0; i < a->marked.len; i++)
    if (a->marked.items[i].len == len && !memcmp(a->marked.items[i].name, name, len)) {
      if ((a->marked.items[i].flags | flags) == a->marked.items[i].flags) return false;
      a->marked.items[i].flags |= flags;
      return true;
    }
  slot s = {name, len, flags};
  vec_push(&a->marked, s);
  return true;
}


/* ---- what calls and methods do to the graph ---- */

static const char *const CLEANING_METHODS[] = {
  "item", "tolist", "numpy", "detach", "detach_", "size", "numel", "dim", "argmax", "argmin", "argsort", "eq", "ne", "lt",
  "le", "gt", "ge", "long", "int", "bool", "nonzero", "isnan", "isinf", "isfinite", "any", "all", "data_ptr",
  "element_size", "count_nonzero", "equal", "tobytes", "backward", "zero_", "fill_", "copy_", "requires_grad_",
  "get_device", "is_contiguous", "stride", "storage_offset", "nelement", "type", "__len__",
  /* MXNet's NDArray: a Python number and a NumPy copy, no autograd history */
  "asscalar", "asnumpy",
  /* a module's own bookkeeping: the keys a load reports, its weights */
  "load_state_dict", "state_dict", NULL};
/* torch functions answering with booleans, no gradient: `torch.isclose(
 * pred.round(), y)` counts hits (asked only of `torch.` names, after
 * CLEANING_METHODS, whose every lookup would pay for them) */
static const char *const BOOLEAN_FUNCTIONS[] = {"isclose", "allclose", "logical_and", "logical_or", "logical_not",
                                                "logical_xor", "isneginf", "isposinf", "signbit", NULL};
static const char *const PRESERVING_METHODS[] = {
  "mean", "sum", "view", "reshape", "squeeze", "unsqueeze", "to", "cuda", "cpu", "float", "half", "double",
  "bfloat16", "clone", "contiguous", "flatten", "permute", "transpose", "t", "expand", "expand_as", "repeat",
  "abs", "pow", "exp", "log", "sqrt", "sigmoid", "tanh", "relu", "softmax", "log_softmax", "norm", "max", "min",
  "prod", "std", "var", "masked_fill", "index_select", "gather", "split", "chunk", "narrow", "select",
  "view_as", "reshape_as", "type_as", "add", "sub", "mul", "div", "matmul", "mm", "bmm", "neg", "clamp",
  "squeeze_", "unsqueeze_", "mul_", "add_", "div_", "sub_", "logsumexp", "cumsum", "diag", "unbind",
  "topk", "sort", "masked_select", "where", "float16", "unflatten", "mT", "square", "exp_", NULL};
/* Graph-preserving methods whose arguments may bring a graph of their own
 * (`out.add(bias)`); the others take shapes, dims, devices or dtypes
 * (`x.to(device)`, `x.view(n, -1)`), whose names are no graph */
static const char *const COMBINING_METHODS[] = {"add", "sub", "mul", "div", "matmul", "mm", "bmm", "add_", "sub_",
                                                "mul_", "div_", "where", NULL};
/* torch functions that make new tensors or objects from sizes, options or
 * data: a graph never comes through their arguments, so the walk back from
 * a backward pass stops there (`torch.tensor(obs)` copies without the
 * graph; `torch.as_tensor(x)` may return x itself and is not one) */
static const char *const TORCH_MAKERS[] = {"torch.device", "torch.Size", "torch.zeros", "torch.ones", "torch.empty",
                                           "torch.full", "torch.rand", "torch.randn", "torch.randint", "torch.arange",
                                           "torch.eye", "torch.linspace", "torch.dtype", "torch.tensor",
                                           "torch.from_numpy", "torch.zeros_like", "torch.ones_like",
                                           "torch.empty_like", "torch.full_like", "torch.rand_like",
                                           "torch.randn_like", NULL};
static const char *const SCALAR_REDUCTIONS[] = {"mean", "sum", NULL};
static const char *const CLEAN_BUILTINS[] = {"float", "int", "bool", "len", "str", "round", "repr", "print",
                                             "isinstance", "hasattr", "getattr", "type", "id", "range",
                                             "enumerate", "zip", "format", NULL};
static const char *const JOIN_BUILTINS[] = {"sum", "max", "min", "abs", NULL};
/* Builtins that pass the batch along (`batch = next(iter(loader))`): the
 * labels reaching a loss come through them, yet they are no model. */
static const char *const DATA_BUILTINS[] = {"iter", "next", "map", "filter", "sorted", "reversed", "list", "tuple",
                                            "dict", "set", NULL};
static const char *const CLEAN_ATTRS[] = {"data", "grad", "shape", "dtype", "device", "ndim", "requires_grad",
                                          "is_cuda", "indices", NULL};


bool facts__named_as_loss(const char *s, size_t len) {
  /* criterion, crit, loss_fn, self.loss, mse_loss; not an actor-critic's
   * `critic`, a value network */
  char lower[64];
  if (len >= sizeof lower) return false;
  for (size_t i = 0; i < len; i++) lower[i] = (char)tolower((unsigned char)s[i]);
  lower[len] = '\0';
  if (strstr(lower, "loss")) return true;
  for (const char *c = strstr(lower, "crit"); c; c = strstr(c + 1, "crit"))
    if (strncmp(c + 4, "ic", 2) != 0) return true;
  return false;
}



static const char *last_name(const facts *f, TSNode callee, uint32_t *len) {
  if (NODE_IS(callee, "attribute")) {
    TSNode attr = FACT_FIELD(f, callee, attribute);
    if (!ts_node_is_null(attr)) return facts_text(f, attr, len);
  }
  return facts_text(f, callee, len);
}


static int entry_cmp(const facts_fname *e, const char *name, uint32_t len) {
  uint32_t n = e->len < len ? e->len : len;
  int c = memcmp(e->name, name, n);
  if (c) return c;
  return e->len < len ? -1 : e->len > len;
}


static int by_name(const void *x, const void *y) {
  const facts_fname *a = x, *b = y;
  int c = entry_cmp(a, b->name, b->len);
  return c ? c : (a->index > b->index) - (a->index < b->index);
}


size_t facts__first_named(const facts *self, const char *name, uint32_t len) {
  /* binary search of the name index built by facts__summaries */
  size_t lo = 0, hi = self->functions_by_name.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (entry_cmp(&self->functions_by_name.items[mid], name, len) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}


bool facts_constant_flag(const facts *self, TSNode cond, bool *value) {
  if (ts_node_is_null(cond) || !NODE_IS(cond, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(self, cond, &len);
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  if (end - first != 1 || self->bindings.items[first].parameter_of) return false;
  uint32_t at = self->bindings.items[first].pos;
  /* a local of the function holding the test: a module-level knob
   * (`DEBUG = False`) may be set by a module importing this one */
  int fn = facts_function_at(self, at);
  if (fn < 0 || facts_function_at(self, ts_node_start_byte(cond)) != fn) return false;
  long a = facts__last_assign_before(self, name, len, at + 1, fn);
  if (a < 0 || ts_node_start_byte(self->assigns.items[a].left) != at || !NODE_IS(self->assigns.items[a].left, "identifier"))
    return false; /* a loop target, a `with ... as`, an augmented assignment */
  TSNode right = self->assigns.items[a].right;
  if (ts_node_is_null(right) || !(NODE_IS(right, "true") || NODE_IS(right, "false"))) return false;
  /* `global flag` in some function may rebind it without an assignment the index sees as one */
  if (facts__mentions(self->source, self->length, "global", 6)) return false;
  *value = NODE_IS(right, "true");
  return true;
}


TSNode facts_later_definition(const facts *self, TSNode def) {
  TSNode parent = ts_node_parent(def), name = FACT_FIELD(self, def, name);
  if (ts_node_is_null(parent) || ts_node_is_null(name)) return NULL_NODE;
  uint32_t len;
  const char *text = facts_text(self, name, &len);
  for (size_t k = facts__first_named(self, text, len); k < self->functions_by_name.len; k++) {
    const facts_fname *e = &self->functions_by_name.items[k];
    if (e->len != len || memcmp(e->name, text, len) != 0) break;
    const facts_function *g = &self->functions.items[e->index];
    if (g->whole.start <= ts_node_end_byte(def)) continue;
    TSNode stmt = ts_node_descendant_for_byte_range(self->root, g->whole.start, g->whole.end);
    while (!ts_node_is_null(stmt) && !NODE_IS(stmt, "function_definition") && !NODE_IS(stmt, "decorated_definition"))
      stmt = ts_node_parent(stmt);
    if (ts_node_is_null(stmt)) continue;
    if (NODE_IS(stmt, "function_definition") && NODE_IS(ts_node_parent(stmt), "decorated_definition"))
      stmt = ts_node_parent(stmt);
    if (ts_node_eq(ts_node_parent(stmt), parent)) return stmt;
  }
  return NULL_NODE;
}


int facts_function_named(const facts *self, TSNode callee) {
  if (ts_node_is_null(callee)) return -1;
  bool method = is_self_attr(self, callee);
  if (!method && !NODE_IS(callee, "identifier")) return -1;
  uint32_t len;
  const char *name = last_name(self, callee, &len);
  int found = -1;
  if (!method) {
    /* a plain name: the function of that name its scope sees, the one
     * nested deepest in a function around the call (each beam search of
     * the file defines its own `predict_word`), else a module-level one,
     * else the first nested one elsewhere (a parameter `loss_fn` handed
     * the closure that one of the file's factories returns) */
    uint32_t at = ts_node_start_byte(callee), depth = 0;
    int elsewhere = -1;
    for (size_t k = facts__first_named(self, name, len); k < self->functions_by_name.len; k++) {
      const facts_fname *e = &self->functions_by_name.items[k];
      if (entry_cmp(e, name, len) != 0) break;
      const facts_function *g = &self->functions.items[e->index];
      if (g->klass >= 0) continue;
      if (g->parent < 0) {
        if (found < 0) found = e->index;
        continue;
      }
      facts_span around = self->functions.items[g->parent].whole;
      if (at < around.start || at >= around.end) {
        if (elsewhere < 0 || e->index < elsewhere) elsewhere = e->index;
        continue;
      }
      if (around.start + 1 <= depth) continue;
      found = e->index;
      depth = around.start + 1;
    }
    return found >= 0 ? found : elsewhere;
  }
  for (size_t k = facts__first_named(self, name, len); k < self->functions_by_name.len; k++) {
    const facts_fname *e = &self->functions_by_name.items[k];
    if (entry_cmp(e, name, len) != 0) break;
    if (self->functions.items[e->index].klass >= 0) return e->index;
    if (found < 0) found = e->index;
  }
  return found;
}


bool facts_is_model(const facts *self, TSNode callee) {
  if (ts_node_is_null(callee)) return false;
  if (!NODE_IS(callee, "identifier") && !NODE_IS(callee, "attribute")) return false;
  uint32_t len;
  const char *t = facts_text(self, callee, &len);
  if (!facts__model_name_at(self, t, len, ts_node_start_byte(callee)) &&
      !has_str(self->producers.items, self->producers.len, t, len))
    return false;
  /* a tokenizer, even one torchtext or transformers makes a module
   * (`tokenizer = basic_english_normalize()`), turns text into ids: it
   * holds no parameter and records no graph */
  uint32_t nl;
  const char *n = last_name(self, callee, &nl);
  return !facts_text_has_ci(n, nl, "tokeniz") && !facts_text_has_ci(n, nl, "tokenis");
}


/* Whether a freeze recorded in function G reaches a call in function FN:
 * module level, the same function, or the `__init__` of FN's class. */
static bool freeze_reaches(const facts *f, int g, int fn, bool attribute) {
  if (g < 0 || g == fn) return true;
  if (fn < 0) return false;
  const facts_function *init = &f->functions.items[g], *at = &f->functions.items[fn];
  if (init->klass < 0 || init->klass != at->klass) return false;
  /* `self.avgG`, frozen in the method that builds it (`buildAvG`), is the
   * instance's for every method; a plain name only through `__init__` */
  return attribute || (init->name_len == 8 && !memcmp(init->name, "__init__", 8));
}


static TSNode model_constructor(const facts *f, TSNode callee, int fn);


/* Whether the call VALUE makes an instance of a class that is no module:
 * a plain class or a `torch.autograd.Function` of the file or the project. */
static bool makes_no_module(const facts *f, TSNode value) {
  TSNode c = NODE_IS(value, "call") ? FACT_FIELD(f, value, function) : NULL_NODE;
  if (ts_node_is_null(c) || (!NODE_IS(c, "identifier") && !NODE_IS(c, "attribute"))) return false;
  uint32_t len;
  const char *t = facts_text(f, c, &len);
  for (size_t i = 0; NODE_IS(c, "identifier") && i < f->classes.len; i++) {
    const facts_class *k = &f->classes.items[i];
    if (k->name_len == len && !memcmp(k->name, t, len)) return !k->is_module && (k->plain || !k->has_forward);
  }
  facts_symbol sym;
  if (f->imports && facts_project_symbol(f, c, &sym)) return (sym.flags & SYM_CLASS) && !(sym.flags & SYM_MODEL);
  /* `from pkg.model import Distance` where pkg/model.py has no such name:
   * the import fails before that binding could make anything */
  if (!f->imports || !f->imports->absent || !NODE_IS(c, "identifier")) return false;
  buf q = {0};
  bool gone = facts_qualname(f, c, &q) && f->imports->absent(f->imports, buf_str(&q), q.len);
  buf_free(&q);
  return gone;
}


/* Whether every binding of NAME (LEN bytes) that the callee CALLEE of
 * function FN may see makes a parameter-free module or no module at all,
 * and one makes such a module: a distance picked by a flag (`l2_dist =
 * nn.CosineSimilarity(dim=1)` on one branch, an autograd Function's
 * `PairwiseDistance(2)` on the other). */
static bool bindings_parameter_free(const facts *f, TSNode callee, int fn, const char *name, uint32_t len) {
  uint32_t pos = ts_node_start_byte(callee);
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  if (end - first < 2) return false; /* one binding: the constructor already judged */
  bool any = false;
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    int where = facts_function_at(f, b->pos);
    if ((where != fn && where != -1) || (where == fn && b->pos >= pos)) continue;
    long a = facts__last_assign_before(f, name, len, b->pos + 1, where);
    if (a < 0 || ts_node_start_byte(f->assigns.items[a].left) != b->pos) return false; /* a loop target, an import */
    TSNode right = f->assigns.items[a].right;
    if (facts__parameter_free_module(f, right, name, len)) any = true;
    else if (!makes_no_module(f, right)) return false;
  }
  return any;
}


/* Whether NAME (LEN bytes) is a parameter of function FN and every other
 * binding of it in the file makes a parameter-free module, one at least
 * (`sampler = KNNSampler(...)` handed to `collate(batch, sampler)`): what
 * the file hands in under that name holds no parameter. */
static bool parameter_bound_free(const facts *f, int fn, const char *name, uint32_t len) {
  if (fn < 0) return false;
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  bool param = false, any = false;
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->parameter_of) {
      if ((int)b->parameter_of - 1 != fn) return false; /* another function's: unknown */
      param = true;
      continue;
    }
    int where = facts_function_at(f, b->pos);
    long a = facts__last_assign_before(f, name, len, b->pos + 1, where);
    if (a < 0 || ts_node_start_byte(f->assigns.items[a].left) != b->pos) return false; /* a loop target, an import */
    if (!facts__parameter_free_module(f, f->assigns.items[a].right, name, len)) return false;
    any = true;
  }
  return param && any;
}


/* Whether NAME (LEN bytes), last bound before CALLEE in function FN by
 * moving itself (`vgg16 = vgg16.to(device)`), was bound just before that
 * to an instance of a class of the file holding no trainable parameter
 * (`vgg16 = VGG(features).eval()`, a wrapper freezing itself): the moves
 * hand back the same module. */
static bool moved_parameter_free(const facts *f, TSNode callee, int fn, const char *name, uint32_t len) {
  static const char *const same[] = {"to", "cuda", "cpu", "train", "eval", "half", "float", "bfloat16", "double", NULL};
  uint32_t pos = ts_node_start_byte(callee);
  for (int hop = 0; hop < 4; hop++) {
    long a = facts__last_assign_before(f, name, len, pos, fn);
    if (a < 0) return false;
    TSNode v = f->assigns.items[a].right;
    for (int guard = 0; guard < 8 && NODE_IS(v, "call"); guard++) {
      TSNode c = FACT_FIELD(f, v, function);
      uint32_t ml = 0;
      const char *m = !ts_node_is_null(c) && NODE_IS(c, "attribute") ? last_name(f, c, &ml) : NULL;
      if (!m || !in_list(m, ml, same)) break;
      v = FACT_FIELD(f, c, object);
    }
    if (!NODE_IS(v, "identifier") || !facts_text_is(f, v, name, len)) {
      /* a class of the file that freezes or holds no parameter, not a
       * container filled later (`model = nn.Sequential()`, then
       * `model.add_module(...)`) */
      TSNode c = hop > 0 && NODE_IS(v, "call") ? FACT_FIELD(f, v, function) : NULL_NODE;
      if (ts_node_is_null(c) || !NODE_IS(c, "identifier")) return false;
      uint32_t cl;
      const char *ct = facts_text(f, c, &cl);
      for (size_t k = 0; k < f->classes.len; k++)
        if (f->classes.items[k].name_len == cl && !memcmp(f->classes.items[k].name, ct, cl))
          return f->classes.items[k].no_parameters;
      return false;
    }
    pos = ts_node_start_byte(f->assigns.items[a].left);
  }
  return false;
}


/* Whether CALLEE was made as a module that holds no parameter (an instance
 * of a class of the file with facts_class.no_parameters, a parameter-free
 * torch.nn layer, an `nn.Sequential` of them): the model call before it,
 * where it was bound. */
static bool parameter_free(const facts *self, TSNode callee, int fn) {
  uint32_t len;
  const char *t = facts_text(self, callee, &len);
  /* most files: no such instance, no lookup */
  if (!has_str(self->parameter_free_names.items, self->parameter_free_names.len, t, len)) return false;
  TSNode made = model_constructor(self, callee, fn);
  if (ts_node_is_null(made))
    return NODE_IS(callee, "identifier") &&
           (parameter_bound_free(self, fn, t, len) || moved_parameter_free(self, callee, fn, t, len));
  return facts__parameter_free_module(self, made, t, len) || bindings_parameter_free(self, callee, fn, t, len);
}


/* Whether the name NAME (LEN bytes) is bound, last before POS in function
 * FN, to a model frozen where it is made: `G = build(...).train()
 * .requires_grad_(False).to(device)`, or a copy of such a model (`G_ema =
 * copy.deepcopy(G).eval()`: StyleGAN's averaged generator, which no
 * optimizer steps). DEPTH bounds the copies followed. */
static bool made_frozen(const facts *f, const char *name, uint32_t len, uint32_t pos, int fn, int depth) {
  static const char *const same[] = {"to", "cuda", "cpu", "train", "eval", "half", "float", "bfloat16", "double", NULL};
  if (depth > 4) return false;
  long a = facts__last_assign_before(f, name, len, pos, fn);
  if (a < 0) return false;
  TSNode v = f->assigns.items[a].right;
  for (int guard = 0; guard < 16 && NODE_IS(v, "call"); guard++) {
    TSNode callee = FACT_FIELD(f, v, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) break;
    uint32_t ml;
    const char *m = last_name(f, callee, &ml);
    if (ml == 14 && !memcmp(m, "requires_grad_", 14)) {
      TSNode args = FACT_FIELD(f, v, arguments);
      TSNode a0 = ts_node_is_null(args) || !ts_node_named_child_count(args) ? NULL_NODE : ts_node_named_child(args, 0);
      return !ts_node_is_null(a0) && NODE_IS(a0, "false");
    }
    if (!in_list(m, ml, same)) break;
    v = FACT_FIELD(f, callee, object);
  }
  if (!NODE_IS(v, "call")) return false;
  TSNode callee = FACT_FIELD(f, v, function), args = FACT_FIELD(f, v, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args) || ts_node_named_child_count(args) != 1) return false;
  buf q = {0};
  bool copy = facts_qualname(f, callee, &q) && !strcmp(buf_str(&q), "copy.deepcopy");
  buf_free(&q);
  TSNode src = ts_node_named_child(args, 0);
  if (!copy || !NODE_IS(src, "identifier")) return false;
  uint32_t sl;
  const char *sn = facts_text(f, src, &sl);
  return made_frozen(f, sn, sl, ts_node_start_byte(v), fn, depth + 1);
}


/* Whether the thaw Z, in the function of the call at POS, comes after the
 * call, which a loop of that function holds, and outside every loop
 * holding it: it restores what an inference helper froze for its loops
 * (MACE's `model_inference` thawing its model's parameters once they are
 * done), unlike a GAN's discriminator frozen and thawed in turn within one
 * step (in a loop of its own or of its caller). */
static bool thaw_after(const facts *f, const facts_freeze *z, uint32_t pos) {
  assert(z->name >= f->source && z->name < f->source + f->length);
  uint32_t at = (uint32_t)(z->name - f->source);
  if (at <= pos) return false;
  bool looped = false;
  for (size_t i = 0; i < f->loops.len; i++) {
    if (f->loops.items[i].function != z->function) continue;
    TSNode loop = f->loops.items[i].node;
    if (ts_node_start_byte(loop) > pos || pos >= ts_node_end_byte(loop)) continue;
    if (at < ts_node_end_byte(loop)) return false;
    looped = true;
  }
  return looped;
}


/* Whether the attribute T (LEN bytes, `self.pattern_generator`) is bound,
 * wherever the file binds it, to a local that its method froze before
 * and thaws nowhere (`netG.requires_grad_(False)`, then
 * `self.pattern_generator = netG`: a pretrained trigger generator). */
static bool attr_bound_to_frozen_local(const facts *f, const char *t, uint32_t len) {
  /* most freezes are of attributes or of the model a function is handed */
  bool local = false;
  for (size_t i = 0; i < f->freezes.len && !local; i++)
    local = f->freezes.items[i].function >= 0 && f->freezes.items[i].frozen &&
            !memchr(f->freezes.items[i].name, '.', f->freezes.items[i].len);
  if (!local) return false;
  bool any = false;
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
    if (!NODE_IS(left, "attribute") || !facts_text_is(f, left, t, len)) continue;
    if (ts_node_is_null(right) || !NODE_IS(right, "identifier")) return false;
    uint32_t at = ts_node_start_byte(left), rl;
    int g = facts_function_at(f, at);
    const char *rn = facts_text(f, right, &rl);
    bool frozen = false;
    for (size_t k = 0; k < f->freezes.len; k++) {
      const facts_freeze *z = &f->freezes.items[k];
      if (z->function != g || z->len != rl || memcmp(z->name, rn, rl)) continue;
      if (!z->frozen) return false;
      frozen = frozen || (uint32_t)(z->name - f->source) < at;
    }
    if (!frozen) return false;
    any = true;
  }
  return any;
}


static bool frozen_here(const facts *self, TSNode callee, int fn);


/* Whether the name NAME (LEN bytes), last bound before POS in function FN
 * (through `x = x.to(device)`), is a `torch.nn.Sequential` of the children
 * of a frozen model: `cnn = nn.Sequential(*list(vgg.children())[0]
 * .children())[:29])` after `for p in vgg.parameters(): p.requires_grad =
 * False`, the layers of a frozen feature extractor. */
static bool sequential_of_frozen(const facts *f, const char *name, uint32_t len, uint32_t pos, int fn) {
  static const char *const same[] = {"to", "cuda", "cpu", "eval", "half", "float", NULL};
  /* the model is frozen in this function: asked first, it rules out most
   * calls of files that freeze something elsewhere */
  bool here = false;
  for (size_t i = 0; i < f->freezes.len && !here; i++) here = f->freezes.items[i].function == fn && f->freezes.items[i].frozen;
  if (!here) return false;
  TSNode v = NULL_NODE;
  for (int guard = 0; guard < 4; guard++) {
    long a = facts__last_local_assign(f, name, len, pos, fn);
    if (a < 0) return false;
    v = f->assigns.items[a].right;
    TSNode callee = NODE_IS(v, "call") ? FACT_FIELD(f, v, function) : NULL_NODE;
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) break;
    uint32_t ml;
    const char *m = last_name(f, callee, &ml);
    if (!in_list(m, ml, same) || !facts_text_is(f, FACT_FIELD(f, callee, object), name, len)) break;
    pos = ts_node_start_byte(f->assigns.items[a].left);
  }
  if (ts_node_is_null(v) || !NODE_IS(v, "call")) return false;
  TSNode args = FACT_FIELD(f, v, arguments);
  if (ts_node_is_null(args) || ts_node_named_child_count(args) != 1 || !NODE_IS(ts_node_named_child(args, 0), "list_splat"))
    return false;
  buf q = {0};
  bool sequential = facts_qualname(f, FACT_FIELD(f, v, function), &q) && !strcmp(buf_str(&q), "torch.nn.Sequential");
  buf_free(&q);
  if (!sequential) return false;
  /* the model whose `.children()` the layers are taken from: the name
   * before the first `.children(` of the argument */
  TSNode splat = ts_node_named_child(args, 0);
  uint32_t start = ts_node_start_byte(splat), end = ts_node_end_byte(splat);
  uint32_t at = facts__next_text(f, start, end, ".children(", 10);
  if (at >= end) return false;
  uint32_t from = at;
  while (from > start && (isalnum((unsigned char)f->source[from - 1]) || f->source[from - 1] == '_')) from--;
  if (from == at) return false;
  TSNode root = ts_node_descendant_for_byte_range(f->root, from, at);
  return !ts_node_is_null(root) && NODE_IS(root, "identifier") && !facts_text_is(f, root, name, len) &&
         frozen_here(f, root, fn);
}


/* Whether CALLEE itself is frozen or parameter-free, as
 * facts_is_frozen asks of it and of each object it is a member of. */
static bool frozen_here(const facts *self, TSNode callee, int fn) {
  uint32_t len;
  const char *t = facts_text(self, callee, &len);
  bool frozen = false;
  for (size_t i = 0; i < self->freezes.len; i++) {
    const facts_freeze *z = &self->freezes.items[i];
    if (z->len != len || memcmp(z->name, t, len) != 0 || !freeze_reaches(self, z->function, fn, is_self_attr(self, callee)))
      continue;
    if (!z->frozen && fn >= 0 && z->function == fn && thaw_after(self, z, ts_node_start_byte(callee))) continue;
    if (!z->frozen) return false; /* thawed somewhere: a GAN's discriminator, in and out of training */
    frozen = true;
  }
  if (!frozen && self->freezes_any && NODE_IS(callee, "identifier") &&
      made_frozen(self, t, len, ts_node_start_byte(callee), fn, 0))
    return true;
  if (!frozen && self->freezes.len && is_self_attr(self, callee) && attr_bound_to_frozen_local(self, t, len))
    return true;
  if (!frozen && self->freezes.len && NODE_IS(callee, "identifier") &&
      sequential_of_frozen(self, t, len, ts_node_start_byte(callee), fn))
    return true;
  return frozen || parameter_free(self, callee, fn);
}


/* Whether the calls in [START, END) of F call no model. */
static bool calls_no_model(const facts *f, uint32_t start, uint32_t end) {
  for (size_t i = facts_first_call_at(f, start); i < f->calls.len; i++) {
    TSNode call = f->calls.items[i].call;
    if (ts_node_start_byte(call) >= end) break;
    TSNode callee = FACT_FIELD(f, call, function);
    if (facts_is_model(f, callee)) return false;
    /* `self.net.forward(x)`, `self.net.predict(x)` */
    if (!ts_node_is_null(callee) && NODE_IS(callee, "attribute") && facts_is_model(f, FACT_FIELD(f, callee, object)))
      return false;
  }
  return true;
}


/* Whether the name CALLEE of function FN was bound last, in a block that
 * holds the call, to something that runs no torch model: a lambda calling
 * none (`model = lambda x: session.run(None, {"input": x.numpy()})[0]`,
 * an exported ONNX model), or an instance of a plain class of the file
 * (no nn.Module, no `forward`) made from no model and calling none
 * (`model = ONNXWrapper(use_cuda, path)`). A wrapper of a model
 * (`Predictor(net)`, `lambda x: net(x)`) still runs it. */
static bool binds_no_torch_model(const facts *f, TSNode callee, int fn) {
  if (!NODE_IS(callee, "identifier")) return false;
  uint32_t len, pos = ts_node_start_byte(callee);
  const char *name = facts_text(f, callee, &len);
  long a = facts__last_assign_before(f, name, len, pos, fn);
  if (a < 0) return false;
  TSNode left = f->assigns.items[a].left, right = f->assigns.items[a].right;
  if (!NODE_IS(left, "identifier") || ts_node_is_null(right)) return false;
  TSNode block = ts_node_parent(left);
  while (!ts_node_is_null(block) && !NODE_IS(block, "block") && !NODE_IS(block, "module")) block = ts_node_parent(block);
  if (ts_node_is_null(block) || pos < ts_node_start_byte(block) || pos >= ts_node_end_byte(block)) return false;
  if (NODE_IS(right, "lambda")) return calls_no_model(f, ts_node_start_byte(right), ts_node_end_byte(right));
  if (!NODE_IS(right, "call")) return false;
  TSNode c = FACT_FIELD(f, right, function), args = FACT_FIELD(f, right, arguments);
  if (ts_node_is_null(c) || !NODE_IS(c, "identifier") || ts_node_is_null(args)) return false;
  uint32_t cl;
  const char *ct = facts_text(f, c, &cl);
  const facts_class *k = NULL;
  for (size_t i = 0; i < f->classes.len && !k; i++)
    if (f->classes.items[i].name_len == cl && !memcmp(f->classes.items[i].name, ct, cl)) k = &f->classes.items[i];
  if (!k || !k->plain || k->is_module || k->has_forward) return false;
  TSNode arg;
  for (children it = children_of(args); children_next(&it, &arg);) {
    if (NODE_IS(arg, "keyword_argument")) arg = FACT_FIELD(f, arg, value);
    if (!ts_node_is_null(arg) && facts_is_model(f, arg)) {
      children_done(&it);
      return false;
    }
  }
  return calls_no_model(f, ts_node_start_byte(k->node), ts_node_end_byte(k->node));
}


bool facts_is_frozen(const facts *self, TSNode callee) {
  if (ts_node_is_null(callee)) return false;
  if (self->non_model_names.len) {
    uint32_t len;
    const char *t = facts_text(self, callee, &len);
    if (has_str(self->non_model_names.items, self->non_model_names.len, t, len) && NODE_IS(callee, "identifier") &&
        binds_no_torch_model(self, callee, facts_function_at(self, ts_node_start_byte(callee))))
      return true;
  }
  /* most files freeze nothing and bind no parameter-free module */
  if (!self->freezes.len && !self->freezes_any && !self->parameter_free_names.len) return false;
  /* `self.infer(x)` returning `self.module_(x)`: whether module_ is frozen */
  TSNode delegated = facts_delegated_model(self, callee);
  if (!ts_node_is_null(delegated)) callee = delegated;
  int fn = facts_function_at(self, ts_node_start_byte(callee));
  /* `l2_dist.forward(a, b)`, `teacher.encoder(x)`: a method or submodule
   * of a frozen or parameter-free module is too; `self` itself says nothing */
  for (TSNode n = callee; !ts_node_is_null(n) && (NODE_IS(n, "identifier") || NODE_IS(n, "attribute") || n.id == callee.id);
       n = NODE_IS(n, "attribute") ? FACT_FIELD(self, n, object) : NULL_NODE) {
    if (text_is(self, n, "self")) break;
    if (frozen_here(self, n, fn)) return true;
  }
  return false;
}


static unsigned recorded(const facts *f, TSNode n) {
  unsigned char t = f->taint[ts_node_start_byte(n)];
  return ((t & TAINT_GRAPH) ? V_GRAPH : 0) | ((t & TAINT_SCALAR) ? V_SCALAR : 0) | ((t & TAINT_DIVIDED) ? V_DIVIDED : 0);
}


static void record(analysis *a, TSNode n, unsigned flags) {
  if (a->replay) return;
  uint32_t pos = ts_node_start_byte(n);
  if (pos >= a->f->length) return;
  unsigned char t = TAINT_SEEN;
  if (flags & V_GRAPH) t |= TAINT_GRAPH;
  if (flags & V_SCALAR) t |= TAINT_SCALAR;
  if (flags & V_DIVIDED) t |= TAINT_DIVIDED;
  a->f->taint[pos] = t;
}


/* Whether the operator type T is a bitwise one (`&`, `^`, `~`, shifts):
 * they take integer and bool tensors, which carry no gradient (`|` may
 * merge dicts holding losses). */
static bool bitwise(const char *t) {
  return (t[0] == '&' || t[0] == '^' || t[0] == '~') ? t[1] == '\0'
         : (t[0] == '<' || t[0] == '>') && t[1] == t[0] && t[2] == '\0';
}


static unsigned eval(analysis *a, state *st, TSNode e);
static int dict_source(analysis *a, TSNode value);
static bool call_dict_keys_of(analysis *a, TSNode call, bool deep, uint64_t *keys);
static bool dict_keys_of(analysis *a, TSNode value, uint64_t *keys);
static const char *literal_key(const facts *f, TSNode k, uint32_t *len);


/* Whether NAME["KEY"] (K's texts) is among A's keyed marks. */
static bool keyed_marked(const analysis *a, const keyed_mark *k) {
  for (size_t i = 0; i < a->keyed.len; i++)
    if (a->keyed.items[i].len == k->len && a->keyed.items[i].key_len == k->key_len &&
        !memcmp(a->keyed.items[i].name, k->name, k->len) && !memcmp(a->keyed.items[i].key, k->key, k->key_len))
      return true;
  return false;
}


/* Whether the string key INDEX of the name VALUE reaches a backward pass. */
static bool key_reaches_backward(const analysis *a, TSNode value, TSNode index) {
  keyed_mark k;
  k.name = facts_text(a->f, value, &k.len);
  k.key = facts_text(a->f, index, &k.key_len);
  return keyed_marked(a, &k);
}


static unsigned eval_args(analysis *a, state *st, TSNode args) {
  unsigned flags = 0;
  if (ts_node_is_null(args)) return 0;
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (NODE_IS(c, "keyword_argument")) c = FACT_FIELD(a->f, c, value);
    else if (NODE_IS(c, "list_splat") || NODE_IS(c, "dictionary_splat")) c = ts_node_named_child(c, 0);
    if (!ts_node_is_null(c)) flags |= eval(a, st, c);
  }
  return flags;
}


/* Whether the iterable IT runs over the submodules of a model: a model
 * name (`self.layers`, an `nn.ModuleList`), `enumerate`, `zip` or
 * `reversed` of one, or its `.children()` / `.modules()`. */
static bool iterates_modules(const facts *f, TSNode it, int depth) {
  if (ts_node_is_null(it) || depth > 4) return false;
  if (NODE_IS(it, "identifier") || NODE_IS(it, "attribute")) return facts_is_model(f, it);
  if (!NODE_IS(it, "call")) return false;
  TSNode callee = FACT_FIELD(f, it, function), args = FACT_FIELD(f, it, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args)) return false;
  if (NODE_IS(callee, "attribute")) {
    TSNode attr = FACT_FIELD(f, callee, attribute);
    return !ts_node_is_null(attr) && (text_is(f, attr, "children") || text_is(f, attr, "modules")) &&
           facts_is_model(f, FACT_FIELD(f, callee, object));
  }
  if (!text_is(f, callee, "enumerate") && !text_is(f, callee, "zip") && !text_is(f, callee, "reversed")) return false;
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++)
    if (iterates_modules(f, ts_node_named_child(args, i), depth + 1)) return true;
  return false;
}


/* The targets of the `for` loops over the submodules of a model (`for
 * layer in self.layers:`), with the loop's body: calls of them are
 * submodules' forward passes, whose output carries a graph. Found once,
 * before the rounds. */
static void find_submodule_targets(facts *f) {
  for (size_t i = 0; i < f->loops.len; i++) {
    TSNode loop = f->loops.items[i].node;
    if (!NODE_IS(loop, "for_statement") || !iterates_modules(f, FACT_FIELD(f, loop, right), 0)) continue;
    TSNode left = FACT_FIELD(f, loop, left);
    TSNode names[16];
    int n = 0;
    if (!ts_node_is_null(left)) names[n++] = left;
    while (n > 0) {
      TSNode t = names[--n];
      if (NODE_IS(t, "identifier")) {
        uint32_t len;
        const char *name = facts_text(f, t, &len);
        facts_scoped_name s = {name, len, f->loops.items[i].body};
        vec_push(&f->submodule_targets, s);
        continue;
      }
      uint32_t k = ts_node_named_child_count(t);
      for (uint32_t j = 0; j < k && n < 16; j++) names[n++] = ts_node_named_child(t, j);
    }
  }
}


/* Whether the identifier CALLEE is a target of an enclosing loop over a
 * model's submodules (find_submodule_targets). */
static bool submodule_of_loop(const facts *f, TSNode callee) {
  if (!f->submodule_targets.len) return false;
  uint32_t len, pos = ts_node_start_byte(callee);
  const char *name = facts_text(f, callee, &len);
  for (size_t i = 0; i < f->submodule_targets.len; i++) {
    const facts_scoped_name *s = &f->submodule_targets.items[i];
    if (s->len == len && !memcmp(s->name, name, len) && pos >= s->span.start && pos < s->span.end) return true;
  }
  return false;
}


/* Whether E is explicitly cut from any graph: `.detach()`, `.item()`,
 * `.numpy()`, `.tolist()` or `.data`, possibly followed by copies and
 * reshapes (`pred.detach().cpu()`). */
/* Methods that return the same values, moved, cast, copied or reshaped:
 * what they are called on decides whether there is a graph. */
static const char *const SAME_VALUES[] = {"cpu", "to", "cuda", "float", "double", "half", "contiguous", "clone",
                                          "squeeze", "unsqueeze", "view", "reshape", "flatten", NULL};


static bool cut_from_graph(const facts *f, TSNode e) {
  static const char *const cut[] = {"detach", "item", "numpy", "tolist", NULL};
  const char *const *keep = SAME_VALUES;
  for (int guard = 0; guard < 16 && !ts_node_is_null(e); guard++) {
    if (NODE_IS(e, "attribute")) return text_is(f, FACT_FIELD(f, e, attribute), "data");
    if (!NODE_IS(e, "call")) return false;
    TSNode callee = FACT_FIELD(f, e, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return false;
    uint32_t len;
    const char *m = last_name(f, callee, &len);
    if (in_list(m, len, cut)) return true;
    if (!in_list(m, len, keep)) return false;
    e = FACT_FIELD(f, callee, object);
  }
  return false;
}


/* Whether every argument of the call E is cut from its graph: a loss of
 * them (`criterion(pred.detach().cpu(), true.detach().cpu())`) has none. */
static bool args_cut_from_graph(const facts *f, TSNode e) {
  TSNode args = FACT_FIELD(f, e, arguments);
  uint32_t n = ts_node_is_null(args) || !NODE_IS(args, "argument_list") ? 0 : ts_node_named_child_count(args);
  if (!n) return false;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (NODE_IS(c, "keyword_argument")) continue; /* `reduction="sum"` */
    if (!cut_from_graph(f, c)) return false;
  }
  return true;
}


/* Whether a positional argument of the call E is a name last bound, in
 * E's function, under no_grad (`with torch.no_grad(): pred = model(x)`,
 * then `criterion(pred.double(), y)`), through `.to()`-like methods. */
static bool arg_made_without_grad(const facts *f, TSNode e) {
  /* most loss calls have no no-grad block before them in their function */
  uint32_t at = ts_node_start_byte(e);
  int fn = facts_function_at(f, at);
  facts_span scope = fn >= 0 ? f->functions.items[fn].body : (facts_span){0, at};
  bool before = false;
  for (size_t r = 0; r < f->no_grad.len && !before; r++)
    before = f->no_grad.items[r].start >= scope.start && f->no_grad.items[r].start < at;
  if (!before) return false;
  TSNode args = FACT_FIELD(f, e, arguments);
  uint32_t n = ts_node_is_null(args) || !NODE_IS(args, "argument_list") ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(args, i);
    for (int guard = 0; guard < 8 && NODE_IS(c, "call"); guard++) {
      TSNode callee = FACT_FIELD(f, c, function);
      if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) break;
      uint32_t len;
      const char *m = last_name(f, callee, &len);
      if (!in_list(m, len, SAME_VALUES)) break;
      c = FACT_FIELD(f, callee, object);
    }
    if (ts_node_is_null(c) || !NODE_IS(c, "identifier")) continue;
    uint32_t len;
    const char *name = facts_text(f, c, &len);
    long a = facts__last_assign_before(f, name, len, ts_node_start_byte(c), fn);
    if (a >= 0 && facts_in_no_grad(f, ts_node_start_byte(f->assigns.items[a].left))) return true;
    if (a >= 0) continue;
    /* `pred, _ = self.model(x)` under no_grad: an element of a tuple
     * target, which is no assignment of the name alone */
    uint32_t last = facts__last_binding_before(f, name, len, ts_node_start_byte(c), fn);
    if (last != UINT32_MAX && facts_in_no_grad(f, last)) return true;
  }
  return false;
}


bool facts__named_like_model(const char *s, uint32_t len) {
  return (len == 5 && !memcmp(s, "model", 5)) || (len == 3 && !memcmp(s, "net", 3)) ||
         (len > 6 && !memcmp(s + len - 6, "_model", 6));
}


/* Whether the call E has positional arguments and every one is a model
 * object, not a loss: a name or attribute the file knows as a module, or
 * one named like a model instance (a parameter: `loss_fn(model)`). A
 * regularizer named for a loss (`l2_loss(model)`) would be one too; none
 * was seen storing its result per step. */
static bool args_all_models(const facts *f, TSNode e) {
  TSNode args = FACT_FIELD(f, e, arguments);
  uint32_t n = ts_node_is_null(args) || !NODE_IS(args, "argument_list") ? 0 : ts_node_named_child_count(args);
  bool any = false;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (NODE_IS(c, "keyword_argument")) continue;
    uint32_t len;
    const char *t = facts_text(f, c, &len);
    uint32_t ll = 0;
    const char *last = NODE_IS(c, "identifier") || NODE_IS(c, "attribute") ? last_name(f, c, &ll) : NULL;
    if (facts__named_as_loss(t, len) || !(facts_is_model(f, c) || (last && facts__named_like_model(last, ll)))) return false;
    any = true;
  }
  return any;
}

/* Whether CALLEE, called in function CALLER, names a top-level function of
 * the file other than CALLER that returns a module: a builder. */
static bool file_builder(const facts *f, TSNode callee, int caller) {
  if (!NODE_IS(callee, "identifier")) return false;
  int g = facts_function_named(f, callee);
  return g >= 0 && g != caller && f->functions.items[g].returns_model && f->functions.items[g].klass < 0;
}


/* Whether TEXT (LEN bytes) cuts a graph: `.detach(`, `.data`, `.item(`. */
static bool cuts_graph(const char *text, uint32_t len) {
  static const char *const cuts[] = {".detach(", ".data", ".item(", NULL};
  for (uint32_t i = 0; i < len; i++) {
    if (text[i] != '.') continue;
    for (size_t k = 0; cuts[k]; k++) {
      size_t cl = strlen(cuts[k]);
      if (i + cl <= len && !memcmp(text + i, cuts[k], cl)) return true;
    }
  }
  return false;
}


/* Whether the first argument of a loss call (ARGS, at POS in function FN)
 * is a prediction cut from its graph: `F.mse_loss(im_denoise, im_gt)`
 * with `im_denoise = im_noisy - phi_Z.detach().data`, or the argument
 * itself detached. A loss of such a prediction carries no graph. */
static bool prediction_detached(const facts *f, TSNode args, uint32_t pos, int fn) {
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list") || !ts_node_named_child_count(args)) return false;
  TSNode first = ts_node_named_child(args, 0);
  if (NODE_IS(first, "keyword_argument")) return false;
  uint32_t len;
  const char *t;
  if (NODE_IS(first, "identifier")) {
    t = facts_text(f, first, &len);
    long k = facts__last_assign_before(f, t, len, pos, fn);
    if (k < 0) return false;
    TSNode right = f->assigns.items[k].right;
    /* the model's output itself is no detached prediction;
     * `torch.clamp(x - out.detach().data, 0, 1)` is */
    if (NODE_IS(right, "call") && facts_is_model(f, FACT_FIELD(f, right, function))) return false;
    t = facts_text(f, right, &len);
    return cuts_graph(t, len);
  }
  t = facts_text(f, first, &len);
  return !NODE_IS(first, "call") && cuts_graph(t, len);
}


/* Function G's grad switch: a `with torch.set_grad_enabled(p):` right in
 * G's body, p one of G's parameters, and every return of G inside that
 * block or after it (PPRGo's `run_batch(model, xbs, yb, optimizer,
 * train)`). The parameter's position + 1, or -1; found once per function. */
static int grad_switch(analysis *a, int g) {
  assert(g >= 0 && (size_t)g < a->f->functions.len);
  facts_function *fn = &a->f->functions.items[g];
  if (fn->grad_switch) return fn->grad_switch;
  fn->grad_switch = -1;
  static const char *const set[] = {"torch.set_grad_enabled", "torch.autograd.set_grad_enabled",
                                    "torch.autograd.grad_mode.set_grad_enabled", NULL};
  const facts *f = a->f;
  TSNode body = FACT_FIELD(f, fn->node, body), params = FACT_FIELD(f, fn->node, parameters);
  if (ts_node_is_null(body) || ts_node_is_null(params)) return -1;
  /* the with-items are in file order: from the first in the body on */
  size_t lo = 0, hi = f->with_items.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ts_node_start_byte(f->with_items.items[mid].candidate) < fn->body.start) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i < f->with_items.len; i++) {
    TSNode v = f->with_items.items[i].candidate;
    if (ts_node_start_byte(v) >= fn->body.end) break;
    if (!NODE_IS(v, "call")) continue;
    TSNode args = FACT_FIELD(f, v, arguments);
    TSNode p = !ts_node_is_null(args) && ts_node_named_child_count(args) == 1 ? ts_node_named_child(args, 0) : NULL_NODE;
    if (ts_node_is_null(p) || !NODE_IS(p, "identifier") || !facts_qualname(f, FACT_FIELD(f, v, function), &a->tmp) ||
        !in_list(buf_str(&a->tmp), a->tmp.len, set))
      continue;
    TSNode w = v;
    for (int up = 0; up < 4 && !ts_node_is_null(w) && !NODE_IS(w, "with_statement"); up++) w = ts_node_parent(w);
    if (ts_node_is_null(w) || !NODE_IS(w, "with_statement") || !ts_node_eq(ts_node_parent(w), body)) continue;
    for (size_t r = 0; r < f->returns.len; r++)
      if (f->returns.items[r].function == g && ts_node_start_byte(f->returns.items[r].call) < ts_node_start_byte(w))
        return -1;
    uint32_t plen;
    const char *pname = facts_text(f, p, &plen);
    for (uint32_t k = 0, n = ts_node_named_child_count(params); k < n && k < 100; k++) {
      TSNode q = ts_node_named_child(params, k);
      TSNode id = NODE_IS(q, "identifier") ? q
                  : NODE_IS(q, "typed_parameter") ? ts_node_named_child(q, 0)
                  : FACT_FIELD(f, q, name);
      if (!ts_node_is_null(id) && NODE_IS(id, "identifier") && facts_text_is(f, id, pname, plen))
        return fn->grad_switch = (int8_t)(k + 1);
    }
    return -1;
  }
  return -1;
}


/* Whether CALL of function G of the file passes `False` for G's grad
 * switch (`run_batch(model, xbs, yb, None, train=False)`): what it
 * returns is computed with gradients off. */
static bool call_turns_grad_off(analysis *a, TSNode call, int g) {
  int k = grad_switch(a, g);
  if (k < 0) return false;
  const facts *f = a->f;
  const facts_function *fn = &f->functions.items[g];
  TSNode params = FACT_FIELD(f, fn->node, parameters), args = FACT_FIELD(f, call, arguments);
  if (ts_node_is_null(args)) return false;
  TSNode q = ts_node_named_child(params, (uint32_t)k - 1);
  TSNode id = NODE_IS(q, "identifier") ? q : NODE_IS(q, "typed_parameter") ? ts_node_named_child(q, 0) : FACT_FIELD(f, q, name);
  uint32_t plen;
  const char *pname = facts_text(f, id, &plen);
  /* a method called on an object skips `self` */
  TSNode callee = FACT_FIELD(f, call, function);
  int at = k - 1 - (fn->klass >= 0 && NODE_IS(callee, "attribute") ? 1 : 0), pos = 0;
  for (uint32_t i = 0, n = ts_node_named_child_count(args); i < n; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (NODE_IS(c, "keyword_argument")) {
      TSNode name = FACT_FIELD(f, c, name), value = FACT_FIELD(f, c, value);
      if (!ts_node_is_null(name) && facts_text_is(f, name, pname, plen))
        return !ts_node_is_null(value) && NODE_IS(value, "false");
      continue;
    }
    if (NODE_IS(c, "list_splat") || NODE_IS(c, "dictionary_splat")) return false;
    if (pos++ == at) return NODE_IS(c, "false");
  }
  return false;
}


static unsigned eval_call(analysis *a, state *st, TSNode e) {
  facts *f = a->f;
  TSNode callee = FACT_FIELD(a->f, e, function);
  TSNode args = FACT_FIELD(a->f, e, arguments);
  unsigned argflags = eval_args(a, st, args);
  if (ts_node_is_null(callee)) return 0;
  uint32_t len;
  const char *t;
  /* `nn.LogSigmoid()(x)`: a layer of torch.nn built and applied at once,
   * its output computed from the arguments */
  if (NODE_IS(callee, "call")) {
    TSNode ctor = FACT_FIELD(f, callee, function);
    if (ts_node_is_null(ctor) || !facts_qualname(f, ctor, &a->tmp) || strncmp(buf_str(&a->tmp), "torch.nn.", 9)) return 0;
    const char *last = strrchr(buf_str(&a->tmp), '.') + 1;
    return isupper((unsigned char)last[0]) ? argflags & V_FLOW : 0;
  }
  /* `self.forward(...)` or `self(...)` in a method of an nn.Module: the
   * module's own forward pass (a trainer module's `train_step` returns it) */
  if (a->function >= 0 && f->functions.items[a->function].klass >= 0 &&
      f->classes.items[f->functions.items[a->function].klass].is_module &&
      (text_is(f, callee, "self") ||
       (NODE_IS(callee, "attribute") && text_is(f, FACT_FIELD(f, callee, object), "self") &&
        text_is(f, FACT_FIELD(f, callee, attribute), "forward"))))
    return V_GRAPH;
  /* a model or a loss of this file, or a callee whose output was
   * backpropagated; not the file's builder of a module, `mlp(in_dim, dims,
   * out_dim)`, whatever else its name is bound to (its own local `mlp =
   * nn.ModuleList()`): it builds one, no forward's output */
  if (facts_is_model(f, callee) && !file_builder(f, callee, a->function)) {
    /* `self.model(self.num_classes)`: a network class handed in, built */
    if (facts__class_count_args(f, FACT_FIELD(f, e, arguments))) return 0;
    if (NODE_IS(callee, "attribute") && !is_self_attr(f, callee)) eval(a, st, FACT_FIELD(a->f, callee, object));
    /* a module whose forward returns only dicts none of whose entries
     * carries a graph (an accuracy estimator deriving nn.Module, its
     * entries `.tolist()`, `.item()`, detached) */
    uint64_t dkeys;
    if (call_dict_keys_of(a, e, false, &dkeys) && !dkeys) return 0;
    t = facts_text(f, callee, &len);
    unsigned scalar = facts__named_as_loss(t, len) ? V_SCALAR : 0;
    if (facts_is_frozen(f, callee))
      return (argflags & V_GRAPH) || (!facts_in_module_method(f, a->function) && facts__arg_requires_grad(f, e))
                 ? V_GRAPH | scalar
                 : 0;
    if (scalar && args_cut_from_graph(f, e)) return scalar;
    /* a loss of a prediction made under no_grad, and of nothing known to
     * carry a graph: a validation loss */
    if (scalar && !(argflags & V_GRAPH) && arg_made_without_grad(f, e)) return scalar;
    /* `loss_fn(model)`: a loss given the model itself, not its output, is a
     * loss module being built (sentence-transformers' loss factories) */
    if (scalar && args_all_models(f, e)) return 0;
    /* a wrapper whose forward or __call__ turns gradients off (a predictor,
     * mmpretrain's inferencers): what it returns carries no graph */
    if (has_str(f->wrapper_names.items, f->wrapper_names.len, t, len)) return 0;
    /* a loss of the function's parameters only (`mse(img1, img2)` in a
     * metrics helper): a graph when the callers' arguments carry one */
    bool loss = scalar || has_str(f->loss_names.items, f->loss_names.len, t, len);
    if (loss && (argflags & V_ARG) && !(argflags & V_GRAPH)) return V_ARG | V_SCALAR;
    return V_GRAPH | scalar;
  }
  int fn = facts_function_named(f, callee);
  if (fn >= 0 && is_self_attr(f, callee) && facts__abstract_method(f, fn)) {
    /* `loss = self.forward_propagation(batch, model)` of a base trainer
     * whose method only raises NotImplementedError: what the overrides of
     * the file's classes return (divided when every one divides) */
    unsigned v = 0;
    bool divided = true, any = false;
    const facts_function *base = &f->functions.items[fn];
    for (size_t i = 0; i < f->functions.len; i++) {
      const facts_function *g = &f->functions.items[i];
      if ((int)i == fn || g->klass < 0 || g->name_len != base->name_len || memcmp(g->name, base->name, g->name_len))
        continue;
      any = true;
      v |= (g->returns_graph ? V_GRAPH : 0) | (g->returns_scalar_loss ? V_SCALAR : 0);
      divided = divided && g->returns_divided;
    }
    if (any) return v | (divided ? V_DIVIDED : 0);
  }
  if (fn >= 0) {
    if (f->functions.items[fn].grad_switch >= 0 && call_turns_grad_off(a, e, fn)) return 0;
    const facts_function *g = &f->functions.items[fn];
    return (g->returns_graph ? V_GRAPH : 0) | (g->returns_scalar_loss ? V_SCALAR : 0) |
           (g->returns_divided ? V_DIVIDED : 0);
  }
  facts_symbol sym;
  if (f->imports && facts_project_symbol(f, callee, &sym)) {
    /* a name of another module of the project: its summary says */
    if ((sym.flags & SYM_VALUE) && (sym.flags & SYM_MODEL)) return V_GRAPH; /* a model built there */
    if (sym.flags & SYM_FUNCTION)
      return ((sym.flags & SYM_RETURNS_GRAPH) ? V_GRAPH : 0) | ((sym.flags & SYM_RETURNS_SCALAR) ? V_SCALAR : 0);
    if (sym.flags & (SYM_CLASS | SYM_MODULE_FILE)) return 0; /* an instance, not a tensor */
  }
  if (f->imports && facts_instance_method_symbol(f, callee, &sym))
    /* a method of a project class's instance: `trainer.train_step(...)` */
    return ((sym.flags & SYM_RETURNS_GRAPH) ? V_GRAPH : 0) | ((sym.flags & SYM_RETURNS_SCALAR) ? V_SCALAR : 0);
  if (NODE_IS(callee, "attribute")) {
    TSNode obj = FACT_FIELD(a->f, callee, object);
    TSNode attr = FACT_FIELD(a->f, callee, attribute);
    if (ts_node_is_null(obj) || ts_node_is_null(attr)) return 0;
    t = facts_text(f, attr, &len);
    if (facts_qualname(f, callee, &a->tmp)) {
      const char *q = buf_str(&a->tmp);
      if (!strncmp(q, "torch.nn.functional.", 20)) {
        size_t ql = strlen(q);
        bool loss = (ql > 5 && !strcmp(q + ql - 5, "_loss")) || !strcmp(q + 20, "cross_entropy") ||
                    !strcmp(q + 20, "nll_loss") || !strcmp(q + 20, "binary_cross_entropy") ||
                    !strcmp(q + 20, "binary_cross_entropy_with_logits") || !strcmp(q + 20, "kl_div");
        if (loss && prediction_detached(f, FACT_FIELD(f, e, arguments), ts_node_start_byte(e), a->function))
          return argflags & V_FLOW;
        if (loss && (argflags & V_ARG) && !(argflags & V_GRAPH)) return V_ARG | V_SCALAR;
        return loss ? V_GRAPH | V_SCALAR : (argflags & V_FLOW);
      }
      static const char *const constructors[] = {"tensor", "zeros", "ones", "empty", "full", "rand", "randn",
                                                 "randint", "arange", "linspace", "eye", "from_numpy",
                                                 "as_tensor", "zeros_like", "ones_like", "randn_like",
                                                 "rand_like", "empty_like", "full_like", "manual_seed", NULL};
      if (!strncmp(q, "torch.", 6) && !strchr(q + 6, '.')) {
        if (in_list(q + 6, strlen(q + 6), constructors)) return 0;
        /* `torch.argmax(pred, dim=1)`, `torch.eq(a, b)`: the function forms
         * of the methods whose results carry no graph */
        if (in_list(q + 6, strlen(q + 6), CLEANING_METHODS) || in_list(q + 6, strlen(q + 6), BOOLEAN_FUNCTIONS))
          return 0;
        return argflags & V_FLOW;
      }
      if (!strncmp(q, "numpy.", 6) || !strncmp(q, "math.", 5)) return 0;
    }
    unsigned of = eval(a, st, obj);
    if (in_list(t, len, CLEANING_METHODS)) return 0;
    if (in_list(t, len, PRESERVING_METHODS)) {
      unsigned r = of & (V_FLOW | V_DIVIDED);
      if ((of & V_GRAPH) && in_list(t, len, SCALAR_REDUCTIONS)) r |= V_SCALAR;
      else if (of & V_SCALAR) r |= V_SCALAR; /* .to(), .float() of a scalar */
      if (len == 3 && !memcmp(t, "div", 3)) r |= V_DIVIDED;
      return r;
    }
    /* other methods of a graph value mostly keep the graph */
    return of & V_FLOW;
  }
  if (NODE_IS(callee, "identifier")) {
    t = facts_text(f, callee, &len);
    if (in_list(t, len, CLEAN_BUILTINS)) return 0;
    if (in_list(t, len, JOIN_BUILTINS)) return argflags & V_FLOW;
    /* `tuple(loss / k for loss in losses)`: the same values, divided if
     * they were */
    if ((len == 5 && !memcmp(t, "tuple", 5)) || (len == 4 && !memcmp(t, "list", 4)))
      return argflags & (V_FLOW | V_DIVIDED);
    if (facts_qualname(f, callee, &a->tmp) && !strncmp(buf_str(&a->tmp), "torch.nn.functional.", 20)) {
      const char *q = buf_str(&a->tmp) + 20;
      size_t ql = strlen(q);
      if (((ql > 5 && !strcmp(q + ql - 5, "_loss")) || !strcmp(q, "cross_entropy")) &&
          !prediction_detached(f, FACT_FIELD(f, e, arguments), ts_node_start_byte(e), a->function))
        return V_GRAPH | V_SCALAR;
      return argflags & V_FLOW;
    }
    if (submodule_of_loop(f, callee)) return V_GRAPH;
  }
  return 0;
}


/* `torch.max(x, 1)`, `x.topk(k)`, `x.sort()`...: (values, indices), and the
 * indices carry no graph */
static bool returns_indices(const facts *f, TSNode call) {
  if (ts_node_is_null(call) || !NODE_IS(call, "call")) return false;
  TSNode callee = FACT_FIELD(f, call, function);
  TSNode args = FACT_FIELD(f, call, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args)) return false;
  static const char *const pairs[] = {"topk", "sort", "kthvalue", "mode", "median", "max", "min", NULL};
  uint32_t len;
  const char *m = last_name(f, callee, &len);
  if (!in_list(m, len, pairs)) return false;
  uint32_t nargs = ts_node_named_child_count(args);
  bool method = NODE_IS(callee, "attribute") && !(len == 3 && !memcmp(m, "max", 3) && nargs == 0) &&
                !(len == 3 && !memcmp(m, "min", 3) && nargs == 0);
  /* `torch.max(x)` alone is a value; `torch.max(x, 1)` a pair */
  bool function = NODE_IS(callee, "attribute") && nargs >= 2;
  return method || function;
}


/* Whether N is the string literal "loss" (either quote). */
static bool is_loss_key(const facts *f, TSNode n) {
  if (ts_node_is_null(n) || !NODE_IS(n, "string")) return false;
  return text_is(f, n, "\"loss\"") || text_is(f, n, "'loss'");
}


/* Whether CALL is of a function (of the file or the project) that returns
 * only dicts whose "loss" carries no graph. */
static bool returns_clean_loss_key(analysis *a, TSNode call) {
  TSNode callee = FACT_FIELD(a->f, call, function);
  if (ts_node_is_null(callee)) return false;
  int g = facts_function_named(a->f, callee);
  if (g >= 0) {
    const facts_function *fn = &a->f->functions.items[g];
    return fn->loss_key && !fn->loss_key_graph && !fn->other_return;
  }
  facts_symbol sym;
  if (!a->f->imports) return false;
  if (!(facts_project_symbol(a->f, callee, &sym) && (sym.flags & SYM_FUNCTION)) &&
      !facts_instance_method_symbol(a->f, callee, &sym))
    return false;
  return sym.flags & SYM_CLEAN_LOSS_KEY;
}


/* Whether the dict literal D has an entry under the key K (KL bytes of
 * its literal text) that ends in a method dropping the graph
 * (`"grads": grads.cpu().numpy()`, `"loss": loss.item()`). */
static bool dict_entry_clean(const facts *f, TSNode d, const char *k, uint32_t kl) {
  assert(NODE_IS(d, "dictionary"));
  bool clean = false;
  TSNode pair;
  for (children c = children_of(d); children_next(&c, &pair);) {
    if (!NODE_IS(pair, "pair") || !facts_text_is(f, FACT_FIELD(f, pair, key), k, kl)) continue;
    TSNode e = FACT_FIELD(f, pair, value), m = NODE_IS(e, "call") ? FACT_FIELD(f, e, function) : NULL_NODE;
    uint32_t ml;
    const char *mn = !ts_node_is_null(m) && NODE_IS(m, "attribute") ? last_name(f, m, &ml) : NULL;
    clean = mn && in_list(mn, ml, CLEANING_METHODS) && !(ml == 8 && !memcmp(mn, "backward", 8));
  }
  return clean;
}


/* Whether NAME, returned by function G, is bound in G only to dict
 * literals whose entry under K is clean (dict_entry_clean), and no entry
 * of it is set elsewhere (`results[...] = ...`): `results = {"loss":
 * loss.item(), ...}; return results`. */
static bool name_bound_to_clean_dicts(const facts *f, int g, TSNode name, const char *k, uint32_t kl) {
  uint32_t len;
  const char *t = facts_text(f, name, &len);
  facts_span body = f->functions.items[g].body;
  size_t first, end;
  facts_bindings_named(f, t, len, &first, &end);
  bool any = false;
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->pos < body.start || b->pos >= body.end || facts_function_at(f, b->pos) != g) continue;
    if (b->kind != BINDING_OTHER || ts_node_is_null(b->value) || !NODE_IS(b->value, "dictionary") ||
        !dict_entry_clean(f, b->value, k, kl))
      return false;
    any = true;
  }
  if (!any) return false;
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left;
    uint32_t at = ts_node_start_byte(left);
    if (at < body.start) continue;
    if (at >= body.end) break;
    if (NODE_IS(left, "subscript") && facts_text_is(f, FACT_FIELD(f, left, value), t, len)) return false;
  }
  return true;
}


/* Whether every return of function G (of the file) is a dict literal whose
 * entry under KEY (a string literal) ends in a method that drops the
 * graph (`{"grads": grads.cpu().numpy(), ...}`), a name bound only to such
 * literals, or a call of such a function of the file (`return
 * self._compute_grad_directly(batch)`); DEPTH bounds those. What
 * `g(x)["grads"]` reads then holds no graph. */
static bool returns_clean_key(const facts *f, int g, TSNode key, int depth) {
  assert(g >= 0 && (size_t)g < f->functions.len);
  uint32_t kl;
  const char *k = facts_text(f, key, &kl);
  const facts_function *fn = &f->functions.items[g];
  bool any = false;
  for (size_t i = 0; i < f->returns.len; i++) {
    const facts_call *r = &f->returns.items[i];
    if (r->function != g) continue;
    uint32_t at = ts_node_start_byte(r->call);
    if (at < fn->body.start || at >= fn->body.end) continue;
    TSNode v = ts_node_named_child(r->call, 0);
    if (ts_node_is_null(v)) return false;
    if (NODE_IS(v, "call")) {
      int h = depth < 2 ? facts_function_named(f, FACT_FIELD(f, v, function)) : -1;
      if (h < 0 || h == g || !returns_clean_key(f, h, key, depth + 1)) return false;
      any = true;
      continue;
    }
    if (NODE_IS(v, "identifier") ? !name_bound_to_clean_dicts(f, g, v, k, kl)
                                 : !NODE_IS(v, "dictionary") || !dict_entry_clean(f, v, k, kl))
      return false;
    any = true;
  }
  return any;
}


/* The name COND tests for a tensor (`isinstance(v, torch.Tensor)`,
 * `torch.is_tensor(v)`; NEGATED under `not`, or when COND tests for a
 * Python number instead, `isinstance(v, int)`, `isinstance(v, (int,
 * float))`), else a null node. */
static TSNode tensor_test(const facts *f, TSNode cond, bool *negated) {
  *negated = false;
  if (NODE_IS(cond, "not_operator")) {
    cond = FACT_FIELD(f, cond, argument);
    *negated = true;
  }
  if (ts_node_is_null(cond) || !NODE_IS(cond, "call")) return NULL_NODE;
  TSNode callee = FACT_FIELD(f, cond, function), args = FACT_FIELD(f, cond, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args) || !ts_node_named_child_count(args)) return NULL_NODE;
  uint32_t n = ts_node_named_child_count(args);
  if (text_is(f, callee, "isinstance")) {
    uint32_t tl;
    const char *t = n == 2 ? facts_text(f, ts_node_named_child(args, 1), &tl) : NULL;
    if (!t) return NULL_NODE;
    if (!facts_text_has_ci(t, tl, "Tensor")) {
      static const char *const numbers[] = {"int", "float", "(int, float)", "(float, int)", "numbers.Number", NULL};
      if (!in_list(t, tl, numbers)) return NULL_NODE;
      *negated = !*negated;
    }
  } else if (!text_is(f, callee, "torch.is_tensor") || n != 1) {
    return NULL_NODE;
  }
  TSNode v = ts_node_named_child(args, 0);
  return NODE_IS(v, "identifier") ? v : NULL_NODE;
}


/* For E, `A if COND else B`: the index (0 for A, 2 for B) of the branch
 * that is the very name COND shows is no tensor, else -1: `v.item() if
 * isinstance(v, torch.Tensor) else v` holds a number either way. */
static int tensor_guard_plain_branch(const facts *f, TSNode e) {
  assert(NODE_IS(e, "conditional_expression"));
  if (ts_node_named_child_count(e) != 3) return -1;
  bool negated;
  TSNode v = tensor_test(f, ts_node_named_child(e, 1), &negated);
  if (ts_node_is_null(v)) return -1;
  int plain = negated ? 0 : 2;
  TSNode branch = ts_node_named_child(e, (uint32_t)plain);
  if (!NODE_IS(branch, "identifier")) return -1;
  uint32_t vl;
  const char *vt = facts_text(f, v, &vl);
  return facts_text_is(f, branch, vt, vl) ? plain : -1;
}



/* Whether operand E of the sum AT is a number: a literal, or a name whose
 * last assignment before AT in the function analysed is one (`loss = 0`,
 * the start of a sum), passing over the sum's own other steps (`loss =
 * loss + x` in the other branch of an `if`, textually before). */
static bool starts_at_number(analysis *a, TSNode e, TSNode at) {
  if (ts_node_is_null(e)) return false;
  if (NODE_IS(e, "integer") || NODE_IS(e, "float")) return true;
  if (!NODE_IS(e, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(a->f, e, &len);
  /* the statement itself (`loss = loss + x`) is passed over as the sum's
   * own step */
  uint32_t pos = ts_node_start_byte(at);
  for (int hop = 0; hop < 4; hop++) {
    long k = facts__last_assign_before(a->f, name, len, pos, a->function);
    if (k < 0) return false;
    TSNode right = a->f->assigns.items[k].right;
    if (ts_node_is_null(right)) return false;
    if (NODE_IS(right, "integer") || NODE_IS(right, "float")) return true;
    TSNode op = FACT_FIELD(a->f, right, operator), left = FACT_FIELD(a->f, right, left);
    if (!NODE_IS(right, "binary_operator") || ts_node_is_null(op) || !(NODE_IS(op, "+") || NODE_IS(op, "-")) ||
        ts_node_is_null(left) || !NODE_IS(left, "identifier") || !facts_text_is(a->f, left, name, len))
      return false;
    pos = ts_node_start_byte(a->f->assigns.items[k].left);
  }
  return false;
}


static unsigned eval(analysis *a, state *st, TSNode e) {
  if (ts_node_is_null(e) || a->depth > MAX_DEPTH) return 0;
  facts *f = a->f;
  const char *type = ts_node_type(e);
  unsigned r = 0;
  a->depth++;
  if (parse_type_is(type, "identifier")) {
    uint32_t len;
    const char *name = facts_text(f, e, &len);
    slot *s = a->replay ? NULL : find(st, name, len);
    r = a->replay ? recorded(f, e) : s ? s->flags : 0;
    record(a, e, r);
  } else if (parse_type_is(type, "attribute")) {
    TSNode obj = FACT_FIELD(a->f, e, object);
    TSNode attr = FACT_FIELD(a->f, e, attribute);
    uint32_t len = 0;
    const char *an = ts_node_is_null(attr) ? "" : facts_text(f, attr, &len);
    if (is_self_attr(f, e)) {
      uint32_t l2;
      const char *name = facts_text(f, e, &l2);
      slot *s = a->replay ? NULL : find(st, name, l2);
      r = a->replay ? recorded(f, e) : s ? s->flags : 0;
      record(a, e, r);
    } else {
      unsigned of = eval(a, st, obj);
      if (in_list(an, len, CLEAN_ATTRS)) r = 0;
      else if (len == 4 && !memcmp(an, "loss", 4)) r = (of & V_GRAPH) ? V_GRAPH | V_SCALAR : 0;
      else r = of & V_FLOW;
    }
  } else if (parse_type_is(type, "call")) {
    r = eval_call(a, st, e);
  } else if (parse_type_is(type, "subscript")) {
    TSNode value = FACT_FIELD(a->f, e, value);
    unsigned of = eval(a, st, value);
    r = of & (V_FLOW | V_DIVIDED);
    TSNode index = FACT_FIELD(a->f, e, subscript);
    /* `output["tb_log"]` of an `output` known to hold a graph only by its
     * key "loss" */
    if ((of & V_KEYED) && !ts_node_is_null(index) && NODE_IS(index, "string") && trackable(f, value) &&
        !key_reaches_backward(a, value, index))
      r = 0;
    if (returns_indices(f, value) && !ts_node_is_null(index) && text_is(f, index, "1")) r = 0; /* `x.max(1)[1]` */
    /* `learner.learn_batch(batch)["loss"]` of a function returning `{"loss": loss.detach(), ...}` */
    if (r && is_loss_key(f, index) && NODE_IS(value, "call") && returns_clean_loss_key(a, value)) r = 0;
    /* `self._compute_grad(batch)["grads"]` of a method returning
     * `{"grads": grads.cpu().numpy(), ...}` on every path */
    /* also `loss_dict["eos_accuracy"]` of `loss_dict = self.criterion(pred,
     * y)`, a loss object of the file whose dicts hold `acc.item()` there */
    if (r && !ts_node_is_null(index) && NODE_IS(index, "string")) {
      int g = dict_source(a, value);
      if (g >= 0 && returns_clean_key(f, g, index, 0)) r = 0;
    }
    /* `aux["acc"]` of `aux = acc_estimator(out, y)`, a module (of the file
     * or the project) whose forward returns dicts where "acc" is
     * `torch.eq(...).sum().tolist()` on every path */
    uint32_t kl;
    const char *key = r && !ts_node_is_null(index) ? literal_key(f, index, &kl) : NULL;
    uint64_t keys;
    if (key && dict_keys_of(a, value, &keys) && !(keys & facts_key_bit(key, kl))) r = 0;
    uint32_t n = ts_node_named_child_count(e);
    for (uint32_t i = 1; i < n; i++) eval(a, st, ts_node_named_child(e, i));
  } else if (parse_type_is(type, "binary_operator")) {
    unsigned l = eval(a, st, FACT_FIELD(a->f, e, left));
    unsigned rr = eval(a, st, FACT_FIELD(a->f, e, right));
    TSNode op = FACT_FIELD(a->f, e, operator);
    r = (l | rr) & V_FLOW;
    /* `correct & label_true`: bitwise operators take only integer and bool
     * tensors, which carry no gradient (`|` may merge dicts holding losses) */
    if (r && !ts_node_is_null(op) && bitwise(ts_node_type(op))) r = 0;
    /* a loss scaled by a number is still a scalar loss */
    if (((l & V_SCALAR) || (rr & V_SCALAR)) && (!(l & V_GRAPH) || (l & V_SCALAR)) && (!(rr & V_GRAPH) || (rr & V_SCALAR)))
      r |= V_SCALAR;
    /* `loss / k` and `loss * (1 / k)` are divided; a sum only when both
     * parts are, a starting number counting as either (`loss = 0`, then
     * `loss = loss + step_loss / k` over the steps of one batch) */
    bool product = !ts_node_is_null(op) && (NODE_IS(op, "*") || NODE_IS(op, "/") || NODE_IS(op, "@"));
    if ((!ts_node_is_null(op) && NODE_IS(op, "/")) || (product && ((l | rr) & V_DIVIDED)) ||
        (!product && (l & rr & V_DIVIDED)) ||
        (!product && (rr & V_DIVIDED) && !(l & V_FLOW) && starts_at_number(a, FACT_FIELD(a->f, e, left), e)) ||
        (!product && (l & V_DIVIDED) && !(rr & V_FLOW) && starts_at_number(a, FACT_FIELD(a->f, e, right), e)))
      r |= V_DIVIDED;
  } else if (parse_type_is(type, "unary_operator") || parse_type_is(type, "parenthesized_expression")) {
    r = ts_node_named_child_count(e) ? eval(a, st, ts_node_named_child(e, ts_node_named_child_count(e) - 1)) : 0;
    /* bitwise not: bool or integer */
    if (r && parse_type_is(type, "unary_operator") && bitwise(ts_node_type(FACT_FIELD(a->f, e, operator)))) r = 0;
  } else if (parse_type_is(type, "conditional_expression")) {
    /* `v.item() if isinstance(v, torch.Tensor) else v`: the branch taken
     * when V is no tensor carries no graph; the test (child 1) is read but
     * is not the value (`loss.item() if loss else 0.` is a number) */
    int plain = tensor_guard_plain_branch(f, e);
    for (uint32_t i = 0, n = ts_node_named_child_count(e); i < n; i++) {
      unsigned c = eval(a, st, ts_node_named_child(e, i)) & V_FLOW;
      if ((int)i != plain && !(i == 1 && n == 3)) r |= c;
    }
  } else if (parse_type_is(type, "list") || parse_type_is(type, "tuple") || parse_type_is(type, "set") ||
             parse_type_is(type, "expression_list")) {
    TSNode c;
    for (children k = children_of(e); children_next(&k, &c);) r |= eval(a, st, c) & V_FLOW;
  } else if (parse_type_is(type, "list_comprehension") || parse_type_is(type, "generator_expression")) {
    /* `[loss / k for loss in losses]`: divided when every element is */
    r = eval(a, st, FACT_FIELD(a->f, e, body)) & V_DIVIDED;
  } else if (parse_type_is(type, "dictionary")) {
    TSNode pair;
    for (children k = children_of(e); children_next(&k, &pair);)
      if (NODE_IS(pair, "pair")) r |= eval(a, st, FACT_FIELD(a->f, pair, value)) & V_FLOW;
  } else if (parse_type_is(type, "comparison_operator") || parse_type_is(type, "boolean_operator") ||
             parse_type_is(type, "not_operator") || parse_type_is(type, "keyword_argument")) {
    TSNode c;
    for (children k = children_of(e); children_next(&k, &c);) eval(a, st, c);
    r = 0;
  }
  a->depth--;
  if (a->no_grad) r = 0; /* computed with gradients off */
  return r;
}


/* ---- statements ---- */

static bool is_producer_name(analysis *a, TSNode callee);

static char run_block(analysis *a, state *st, TSNode block);


/* A method of an object the file knows nothing of (`module.training_step`,
 * the object a parameter): what it returns is only known from what is done
 * with it, not a cleaning method such as `.item()`. */
static bool unknown_method(analysis *a, TSNode callee) {
  if (!NODE_IS(callee, "attribute") || is_self_attr(a->f, callee)) return false;
  TSNode obj = FACT_FIELD(a->f, callee, object);
  uint32_t len;
  const char *m = last_name(a->f, callee, &len);
  return !ts_node_is_null(obj) && NODE_IS(obj, "identifier") && !in_list(m, len, CLEANING_METHODS) &&
         !in_list(m, len, PRESERVING_METHODS) && is_producer_name(a, callee);
}


/* A marked name (its value reaches .backward()) assigned from a call of an
 * unknown callable: that callable produced the graph. */
static bool is_backward(const facts *f, TSNode call, buf *tmp);


/* The statement holding N: its ancestor whose parent is a block (or the
 * module). */
TSNode facts__statement_of(TSNode n) {
  for (int guard = 0; guard < 256 && !ts_node_is_null(n); guard++) {
    TSNode p = ts_node_parent(n);
    if (ts_node_is_null(p) || NODE_IS(p, "block") || NODE_IS(p, "module")) return n;
    n = p;
  }
  return NULL_NODE;
}


/* Whether the binding of NAME at TARGET never reaches a backward pass of
 * the function: each backward call has, before it in its own block, a
 * rebinding of NAME, and TARGET is outside that block (`reward` from
 * `env.step()` while collecting, `reward = reward_pool[i]` rebound in the
 * update loop right before the loss that `.backward()` reads). The marks
 * are by name; this keeps an earlier binding from taking the later one's. */
static bool shielded_from_backward(analysis *a, TSNode target, const char *name, uint32_t len) {
  const facts *f = a->f;
  uint32_t at = ts_node_start_byte(target);
  facts_span scope = a->function >= 0 ? f->functions.items[a->function].body : (facts_span){0, (uint32_t)f->length + 1};
  size_t backwards = 0;
  for (size_t i = facts_first_call_at(f, scope.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    uint32_t cp = ts_node_start_byte(c->call);
    if (cp >= scope.end) break;
    if (c->function != a->function || !is_backward(f, c->call, &a->tmp)) continue;
    backwards++;
    TSNode stmt = facts__statement_of(c->call);
    TSNode block = ts_node_is_null(stmt) ? NULL_NODE : ts_node_parent(stmt);
    if (ts_node_is_null(block) || !NODE_IS(block, "block")) return false;
    if (at >= ts_node_start_byte(block) && at < ts_node_end_byte(block)) return false;
    long k = facts__last_assign_before(f, name, len, cp, a->function);
    if (k < 0) return false;
    TSNode left = f->assigns.items[k].left;
    if (ts_node_start_byte(left) < ts_node_start_byte(block) || !NODE_IS(left, "identifier")) return false;
    TSNode rebind = facts__statement_of(left);
    if (ts_node_is_null(rebind) || !ts_node_eq(ts_node_parent(rebind), block)) return false;
  }
  return backwards > 0;
}


static unsigned evidence(analysis *a, TSNode target, TSNode value, unsigned flags) {
  if ((flags & V_GRAPH) || a->no_grad || !trackable(a->f, target)) return flags;
  uint32_t len;
  const char *name = facts_text(a->f, target, &len);
  unsigned mflags;
  if (!marked(a, name, len, &mflags)) return flags;
  while (!ts_node_is_null(value) && (NODE_IS(value, "parenthesized_expression") || NODE_IS(value, "await")))
    value = ts_node_named_child(value, 0);
  if (ts_node_is_null(value) || !NODE_IS(value, "call")) return flags;
  TSNode callee = FACT_FIELD(a->f, value, function);
  if (ts_node_is_null(callee) || facts_function_named(a->f, callee) >= 0) return flags;
  /* `output = module.training_step(batch)` then `output["loss"].backward()`:
   * the method's result holds the graph (the object is unknown, so nothing
   * else would say so) */
  if (!(trackable(a->f, callee) && is_producer_name(a, callee)) && !unknown_method(a, callee)) return flags;
  if (shielded_from_backward(a, target, name, len)) return flags;
  return flags | V_GRAPH | (mflags & V_SCALAR) | ((mflags & M_WHOLE) ? 0 : V_KEYED);
}


/* Whether RIGHT calls a function (of this file or of the project) whose
 * returned tuples have N elements, each known: ELEMS then holds them, and,
 * for a function of the file, PARAMS which of them hand a parameter back
 * (facts_function.elem_param; zeros otherwise). */
static bool returned_elements(analysis *a, TSNode right, uint32_t n, uint8_t *elems, uint8_t *params) {
  memset(params, 0, n);
  while (!ts_node_is_null(right) && (NODE_IS(right, "parenthesized_expression") || NODE_IS(right, "await")))
    right = ts_node_named_child(right, 0);
  if (ts_node_is_null(right) || !NODE_IS(right, "call") || a->no_grad) return false;
  TSNode callee = FACT_FIELD(a->f, right, function);
  int g = facts_function_named(a->f, callee);
  if (g >= 0) {
    const facts_function *fn = &a->f->functions.items[g];
    if (fn->grad_switch >= 0 && call_turns_grad_off(a, right, g)) {
      memset(elems, TAINT_SEEN | TAINT_CLEAN, n);
      return true;
    }
    if (fn->elems_varied || (fn->nelems != n && fn->nelems2 != n)) return false;
    memcpy(elems, fn->nelems == n ? fn->elems : fn->elems2, n);
    /* positions line up for a plain call of a plain function */
    if (NODE_IS(callee, "identifier") && fn->klass < 0) memcpy(params, fn->nelems == n ? fn->elem_param : fn->elem_param2, n);
    return true;
  }
  facts_symbol sym;
  if (!a->f->imports) return false;
  /* a function of another module, or a method of an instance of a class of
   * one (`loss, mf, reg = model.pair_loss(u, i)`) */
  if ((!facts_project_symbol(a->f, callee, &sym) || !(sym.flags & SYM_FUNCTION)) &&
      !facts_instance_method_symbol(a->f, callee, &sym))
    return false;
  if (sym.nelems != n && sym.nelems2 != n) return false;
  memcpy(elems, sym.nelems == n ? sym.elems : sym.elems2, n);
  return true;
}


/* The call a model name was made by (`model = Net(cfg).cuda()`, `self.net =
 * Net()`): its last assignment before POS, in FN for a plain name, or, when
 * FN binds it nowhere, at module level (a script's global model, which its
 * `test(loader)` reads, bound before the call or, defined above the code
 * that binds it, after); through `.to()`-like chains. A null node when
 * there is none. */
/* Whether VALUE wraps the model NAME (LEN bytes) and returns it or a proxy
 * that runs its forward: `model = cuda(model)`, `model =
 * torch.compile(model)`, `model = nn.DataParallel(model)`. A function (a
 * lower-case callee) or one of torch's data-parallel wrappers; another class
 * built around the model (`Wrapper(model)`) has a forward of its own. */
static bool wraps_itself(const facts *f, TSNode value, const char *name, uint32_t len) {
  static const char *const parallel[] = {"DataParallel", "DistributedDataParallel", "FullyShardedDataParallel", NULL};
  if (ts_node_is_null(value) || !NODE_IS(value, "call")) return false;
  TSNode callee = FACT_FIELD(f, value, function), args = FACT_FIELD(f, value, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args) || !ts_node_named_child_count(args)) return false;
  TSNode first = ts_node_named_child(args, 0);
  uint32_t al, cl;
  const char *at = facts_text(f, first, &al);
  if (NODE_IS(first, "keyword_argument") || al != len || memcmp(at, name, len) != 0) return false;
  const char *c = last_name(f, callee, &cl);
  return cl > 0 && (islower((unsigned char)c[0]) || c[0] == '_' || in_list(c, cl, parallel));
}


static TSNode model_constructor(const facts *f, TSNode callee, int fn) {
  static const char *const same[] = {"to", "cuda", "cpu", "train", "eval", "half", "float", "bfloat16", "double", NULL};
  bool attr = !NODE_IS(callee, "identifier");
  uint32_t len, pos = ts_node_start_byte(callee);
  const char *t = facts_text(f, callee, &len);
  TSNode value = NULL_NODE, global = NULL_NODE;
  /* assignments are in file order: those before POS first, then, when
   * neither FN nor module level bound the name there, the first module-level
   * one after it */
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left;
    uint32_t at = ts_node_start_byte(left);
    if (at >= pos && (!ts_node_is_null(value) || !ts_node_is_null(global) || fn < 0 || attr)) break;
    uint32_t l2;
    const char *t2 = facts_text(f, left, &l2);
    if (l2 != len || memcmp(t, t2, len) != 0) continue;
    /* `model = cuda(model)`: the model is still the one bound before */
    if (wraps_itself(f, f->assigns.items[i].right, t, len)) continue;
    int where = attr ? fn : facts_function_at(f, at);
    if (at < pos && where == fn) value = f->assigns.items[i].right;
    else if (where == -1 && fn >= 0) global = f->assigns.items[i].right;
  }
  if (ts_node_is_null(value)) value = global;
  for (int guard = 0; guard < 8 && !ts_node_is_null(value) && NODE_IS(value, "call"); guard++) {
    TSNode c = FACT_FIELD(f, value, function);
    if (ts_node_is_null(c) || !NODE_IS(c, "attribute")) return value;
    uint32_t ml;
    const char *m = last_name(f, c, &ml);
    if (!in_list(m, ml, same)) return value;
    value = FACT_FIELD(f, c, object);
  }
  /* `self.net = net.to(device)`: the local it was made as, for the caller
   * to follow (facts__parameter_free_module does) */
  if (attr && !ts_node_is_null(value) && NODE_IS(value, "identifier")) return value;
  return NULL_NODE;
}


/* Whether KLASS, a name the file never binds, is a class of a project
 * module the file imports with `from pkg import *`: OUT then holds its
 * qualified name (`pkg.Net`). */
static bool star_class(const facts *f, TSNode klass, buf *out) {
  assert(f->imports); /* the lookups below answer only with a project index */
  if (!f->star_modules.len || !NODE_IS(klass, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(f, klass, &len);
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  if (first != end) return false; /* bound here: facts_qualname's answer stands */
  for (size_t i = 0; i < f->star_modules.len; i++) {
    facts_symbol sym;
    buf_clear(out);
    buf_printf(out, "%s.%.*s", f->star_modules.items[i], (int)len, name);
    if (f->imports->lookup(f->imports, buf_str(out), out->len, &sym) && (sym.flags & SYM_CLASS)) return true;
  }
  buf_clear(out);
  return false;
}


/* The function calling an instance of KLASS, a class of the file named by
 * an identifier, runs: its `__call__`, else its `forward` (a model's
 * `__call__` runs it); -1 when there is none. */
static int class_entry(const facts *f, TSNode klass) {
  if (ts_node_is_null(klass) || !NODE_IS(klass, "identifier")) return -1;
  uint32_t len;
  const char *name = facts_text(f, klass, &len);
  int entry = -1;
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *fn = &f->functions.items[i];
    bool call = fn->name_len == 8 && !memcmp(fn->name, "__call__", 8);
    if (fn->klass < 0 || fn->parent >= 0 || !(call || (fn->name_len == 7 && !memcmp(fn->name, "forward", 7)))) continue;
    const facts_class *k = &f->classes.items[fn->klass];
    if (k->name_len != len || memcmp(k->name, name, len)) continue;
    if (call || entry < 0) entry = (int)i;
  }
  return entry;
}


/* The function of the file CALL runs: one it names (`self.compute(x)`), or
 * the entry of the file class whose instance it calls (`self.criterion(p,
 * y)` after `self.criterion = CurriculumLoss(...)`); -1 when unknown. */
static int called_function(analysis *a, TSNode call) {
  const facts *f = a->f;
  TSNode callee = FACT_FIELD(f, call, function);
  if (ts_node_is_null(callee)) return -1;
  int g = facts_function_named(f, callee);
  if (g >= 0 || !trackable(f, callee)) return g;
  TSNode made = model_constructor(f, callee, a->function);
  return ts_node_is_null(made) || !NODE_IS(made, "call") ? -1 : class_entry(f, FACT_FIELD(f, made, function));
}


/* Whether RIGHT calls a model whose class's `forward` (this file's, or a
 * class of the project) returns tuples of N elements: ELEMS then holds
 * them. `out, ratio = model(x)` with `return self.fc(x), x.size(0) / 8`. */
static bool forward_elements(analysis *a, TSNode right, uint32_t n, uint8_t *elems) {
  facts *f = a->f;
  while (!ts_node_is_null(right) && (NODE_IS(right, "parenthesized_expression") || NODE_IS(right, "await")))
    right = ts_node_named_child(right, 0);
  if (ts_node_is_null(right) || !NODE_IS(right, "call")) return false;
  TSNode callee = FACT_FIELD(f, right, function);
  if (ts_node_is_null(callee) || !trackable(f, callee)) return false;
  /* a model, or an instance of a class of the file or of the project with
   * a `__call__` (a loss object: `loss, parts = self.loss_fn(pred, y)`) */
  bool model = facts_is_model(f, callee);
  if (!model && facts_function_named(f, callee) >= 0) return false;
  TSNode made = model_constructor(f, callee, a->function);
  TSNode klass = ts_node_is_null(made) ? made : FACT_FIELD(f, made, function);
  if (ts_node_is_null(klass) || (!NODE_IS(klass, "identifier") && !NODE_IS(klass, "attribute"))) return false;
  int at = class_entry(f, klass);
  const facts_function *entry = at >= 0 ? &f->functions.items[at] : NULL;
  if (entry) {
    if (entry->elems_varied || (entry->nelems != n && entry->nelems2 != n)) return false;
    memcpy(elems, entry->nelems == n ? entry->elems : entry->elems2, n);
    return true;
  }
  if (!f->imports) return false;
  facts_symbol sym;
  if (!facts_qualname(f, klass, &a->tmp) && !star_class(f, klass, &a->tmp)) return false;
  size_t base = a->tmp.len;
  buf_puts(&a->tmp, ".forward");
  if (model && f->imports->lookup(f->imports, buf_str(&a->tmp), a->tmp.len, &sym) && (sym.flags & SYM_FUNCTION) &&
      (sym.nelems == n || sym.nelems2 == n)) {
    memcpy(elems, sym.nelems == n ? sym.elems : sym.elems2, n);
    return true;
  }
  /* a class of the project, or a function returning an instance of one */
  a->tmp.len = base;
  a->tmp.data[base] = '\0';
  if (!f->imports->lookup(f->imports, buf_str(&a->tmp), a->tmp.len, &sym) || sym.ncall_elems != n) return false;
  memcpy(elems, sym.call_elems, n);
  return true;
}


/* Whether P, a facts_function.elem_param, names a parameter handed back. */
static bool handed_back(uint8_t p) {
  return p && p != FACTS_MIXED && p != FACTS_LITERAL;
}


/* What the argument of CALL, a plain call of function G of the file, that
 * binds G's parameter K carries (nothing when none does: the default). */
static unsigned argument_flags(analysis *a, state *st, TSNode call, int g, uint32_t k) {
  TSNode args = FACT_FIELD(a->f, call, arguments);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode arg = ts_node_named_child(args, i);
    /* `f(*xs)`, `f(**kw)`: positions no longer line up */
    if (NODE_IS(arg, "list_splat") || NODE_IS(arg, "dictionary_splat")) return eval_args(a, st, args);
    TSNode p = facts__argument_parameter(a->f, g, &arg, i);
    if (!ts_node_is_null(p) && facts__parameter_index(a->f, g, p) == (int)k) return eval(a, st, arg);
  }
  return 0;
}


/* Whether a call's arguments carry a graph, for the elements of its
 * returned tuple computed from them (TAINT_ARG): an argument does, or an
 * element computed from them is backpropagated (LEFT's names marked). */
static bool arguments_carry_graph(analysis *a, state *st, TSNode right, TSNode left, const uint8_t *elems, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    TSNode t = ts_node_named_child(left, i);
    uint32_t len;
    const char *name = trackable(a->f, t) ? facts_text(a->f, t, &len) : NULL;
    if (name && (elems[i] & (TAINT_ARG | TAINT_GRAPH)) && marked(a, name, len, NULL)) return true;
  }
  while (!ts_node_is_null(right) && (NODE_IS(right, "parenthesized_expression") || NODE_IS(right, "await")))
    right = ts_node_named_child(right, 0);
  if (ts_node_is_null(right) || !NODE_IS(right, "call")) return false;
  return eval_args(a, st, FACT_FIELD(a->f, right, arguments)) & V_GRAPH;
}


static bool backpropagates(const facts *f, TSNode call, const char *name, uint32_t len);


static bool subtree_reads(const facts *f, TSNode node, const char *name, uint32_t len, bool args);


/* Whether function FN backpropagates the name NAME (LEN bytes), as
 * backpropagates() reads a call, or a name bound after AFTER from an
 * expression reading it (`loss = out.mean() + aux.sum()`), or a backward
 * whose receiver reads one (`(loss / loss_div).backward()`). */
static bool backpropagated_in(const facts *f, int fn, const char *name, uint32_t len, uint32_t after) {
  facts_span scope = fn >= 0 ? f->functions.items[fn].body : (facts_span){0, (uint32_t)f->length + 1};
  const char *names[4] = {name};
  uint32_t lens[4] = {len};
  size_t nnames = facts__names_after(f, fn, after, names, lens, 4, false);
  for (size_t i = facts_first_call_at(f, scope.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= scope.end) break;
    if (c->function != fn) continue;
    TSNode callee = FACT_FIELD(f, c->call, function);
    bool bw = !ts_node_is_null(callee) && NODE_IS(callee, "attribute") &&
              text_is(f, FACT_FIELD(f, callee, attribute), "backward");
    TSNode obj = bw ? FACT_FIELD(f, callee, object) : NULL_NODE;
    for (size_t k = 0; k < nnames; k++) {
      if (backpropagates(f, c->call, names[k], lens[k])) return true;
      if (bw && !NODE_IS(obj, "identifier") && subtree_reads(f, obj, names[k], lens[k], false)) return true;
    }
  }
  return false;
}


/* The tuple literal RIGHT is (through parentheses) when its elements pair
 * up one to one with those of the pattern LEFT (`a, b = x, y`; not `a, *r
 * = ...`), else a null node. */
static TSNode paired_literal(TSNode left, TSNode right) {
  if (ts_node_is_null(left) || ts_node_is_null(right) ||
      !(NODE_IS(left, "pattern_list") || NODE_IS(left, "tuple_pattern") || NODE_IS(left, "list_pattern") ||
        NODE_IS(left, "tuple") || NODE_IS(left, "list")))
    return NULL_NODE;
  while (!ts_node_is_null(right) && NODE_IS(right, "parenthesized_expression")) right = ts_node_named_child(right, 0);
  uint32_t n = ts_node_named_child_count(left);
  if (ts_node_is_null(right) || !(NODE_IS(right, "expression_list") || NODE_IS(right, "tuple")) ||
      ts_node_named_child_count(right) != n || n > FACTS_MAX_ELEMS)
    return NULL_NODE;
  for (uint32_t i = 0; i < n; i++)
    if (NODE_IS(ts_node_named_child(left, i), "list_splat_pattern") || NODE_IS(ts_node_named_child(right, i), "list_splat"))
      return NULL_NODE;
  return right;
}


/* The sequence RIGHT maps each element over by dividing it, when RIGHT is
 * `tuple(map(lambda l: l / k, seq))` (or `list(...)`, or the bare `map`)
 * or a comprehension `[l / k for l in seq]`: SEQ, else a null node. FCOS's
 * `cls, reg, ctr = tuple(map(lambda loss: loss / acc_steps, model(x)))`
 * unpacks losses already divided by the accumulation count. */
static TSNode divided_elementwise(const facts *f, TSNode right) {
  while (!ts_node_is_null(right) && NODE_IS(right, "parenthesized_expression")) right = ts_node_named_child(right, 0);
  if (ts_node_is_null(right)) return NULL_NODE;
  if (NODE_IS(right, "call") && (text_is(f, FACT_FIELD(f, right, function), "tuple") ||
                                 text_is(f, FACT_FIELD(f, right, function), "list"))) {
    TSNode args = FACT_FIELD(f, right, arguments);
    if (ts_node_is_null(args) || ts_node_named_child_count(args) != 1) return NULL_NODE;
    right = ts_node_named_child(args, 0);
  }
  TSNode body = NULL_NODE, param = NULL_NODE, seq = NULL_NODE;
  if (NODE_IS(right, "call") && text_is(f, FACT_FIELD(f, right, function), "map")) {
    TSNode args = FACT_FIELD(f, right, arguments);
    if (ts_node_is_null(args) || ts_node_named_child_count(args) != 2) return NULL_NODE;
    TSNode fn = ts_node_named_child(args, 0);
    if (!NODE_IS(fn, "lambda")) return NULL_NODE;
    TSNode params = FACT_FIELD(f, fn, parameters);
    if (ts_node_is_null(params) || ts_node_named_child_count(params) != 1) return NULL_NODE;
    param = ts_node_named_child(params, 0);
    body = FACT_FIELD(f, fn, body);
    seq = ts_node_named_child(args, 1);
  } else if (NODE_IS(right, "list_comprehension") || NODE_IS(right, "generator_expression")) {
    body = FACT_FIELD(f, right, body);
    TSNode clause = ts_node_named_child(right, 1);
    if (ts_node_is_null(clause) || !NODE_IS(clause, "for_in_clause") || ts_node_named_child_count(right) != 2)
      return NULL_NODE;
    param = FACT_FIELD(f, clause, left);
    seq = FACT_FIELD(f, clause, right);
  } else {
    return NULL_NODE;
  }
  if (ts_node_is_null(body) || ts_node_is_null(param) || !NODE_IS(param, "identifier") || !NODE_IS(body, "binary_operator"))
    return NULL_NODE;
  TSNode op = FACT_FIELD(f, body, operator), left = FACT_FIELD(f, body, left);
  uint32_t pl;
  const char *p = facts_text(f, param, &pl);
  if (ts_node_is_null(op) || !NODE_IS(op, "/") || ts_node_is_null(left) || !facts_text_is(f, left, p, pl))
    return NULL_NODE;
  return seq;
}


/* `rec_loss, *_, info = step(batch)` with `return loss, a, b, info`: the
 * targets before the starred one take the first elements, those after it
 * the last ones, and the starred list what its elements carry (a graph
 * when one does). Only for a left side with one starred target. */
static bool starred_elements(analysis *a, TSNode left, TSNode source, uint32_t n, uint8_t *elems, uint8_t *params) {
  uint32_t star = n;
  for (uint32_t i = 0; i < n; i++)
    if (NODE_IS(ts_node_named_child(left, i), "list_splat_pattern")) {
      if (star != n) return false;
      star = i;
    }
  if (star == n) return false;
  uint8_t all[FACTS_MAX_ELEMS], unused[FACTS_MAX_ELEMS];
  for (uint32_t total = n - 1; total <= FACTS_MAX_ELEMS; total++) {
    if (total == 0 || !returned_elements(a, source, total, all, unused)) continue;
    uint32_t rest = n - 1 - star; /* targets after the starred one */
    for (uint32_t i = 0; i < star; i++) elems[i] = all[i];
    for (uint32_t i = 0; i < rest; i++) elems[star + 1 + i] = all[total - rest + i];
    elems[star] = 0;
    for (uint32_t k = star; k < total - rest; k++) elems[star] |= all[k];
    memset(params, 0, n);
    return true;
  }
  return false;
}


static void assign(analysis *a, state *st, TSNode left, TSNode right, unsigned flags) {
  if (ts_node_is_null(left)) return;
  if (trackable(a->f, left)) {
    set_name(a, st, left, evidence(a, left, right, flags));
    return;
  }
  if (NODE_IS(left, "pattern_list") || NODE_IS(left, "tuple_pattern") || NODE_IS(left, "list_pattern") ||
      NODE_IS(left, "tuple") || NODE_IS(left, "list")) {
    uint32_t n = ts_node_named_child_count(left);
    /* `loss, cur = (loss * w).mean() / k, loss.mean()`: each name what its
     * own element carries (divided, a graph or neither), all read before
     * any is bound (`a, b = b, a`) */
    TSNode literal = paired_literal(left, right);
    /* `cls, reg = tuple(map(lambda l: l / k, model(x)))`: every element
     * what the sequence's carry, divided */
    TSNode mapped = ts_node_is_null(literal) ? divided_elementwise(a->f, right) : NULL_NODE;
    if (!ts_node_is_null(mapped)) {
      unsigned each = (eval(a, st, mapped) & V_FLOW) | V_DIVIDED;
      for (uint32_t i = 0; i < n; i++) assign(a, st, ts_node_named_child(left, i), NULL_NODE, each);
      return;
    }
    if (!ts_node_is_null(literal)) {
      unsigned each[FACTS_MAX_ELEMS];
      for (uint32_t i = 0; i < n; i++) each[i] = eval(a, st, ts_node_named_child(literal, i));
      for (uint32_t i = 0; i < n; i++)
        assign(a, st, ts_node_named_child(left, i), ts_node_named_child(literal, i), each[i]);
      return;
    }
    bool pair = returns_indices(a->f, right);
    /* `result = step(...)` then `loss, n = result`: the call's elements */
    TSNode source = right;
    if (!ts_node_is_null(right) && NODE_IS(right, "identifier")) {
      uint32_t len, pos = ts_node_start_byte(right);
      const char *name = facts_text(a->f, right, &len);
      long k = facts__last_assign_before(a->f, name, len, pos, facts_function_at(a->f, pos));
      if (k >= 0 && NODE_IS(a->f->assigns.items[k].right, "call")) source = a->f->assigns.items[k].right;
    }
    uint8_t elems[FACTS_MAX_ELEMS], params[FACTS_MAX_ELEMS] = {0};
    bool known = n <= FACTS_MAX_ELEMS && !a->no_grad &&
                 (returned_elements(a, source, n, elems, params) || forward_elements(a, source, n, elems));
    if (!known && n <= FACTS_MAX_ELEMS && !a->no_grad) known = starred_elements(a, left, source, n, elems, params);
    bool from_args = false;
    for (uint32_t i = 0; known && i < n && !from_args; i++)
      from_args = (elems[i] & TAINT_ARG) && !handed_back(params[i]);
    if (from_args) from_args = arguments_carry_graph(a, st, source, left, elems, n);
    /* elements unknown, one of them backpropagated (`loss, interaction =
     * self.game(*batch)`): that one is the graph; the others carry one
     * only by evidence of their own */
    bool one_is_loss = false;
    TSNode src_callee = !ts_node_is_null(source) && NODE_IS(source, "call") ? FACT_FIELD(a->f, source, function) : NULL_NODE;
    /* a module of unknown class (a function of the file returns what its
     * summary says, even when its tuples are too long to keep) */
    bool opaque = !ts_node_is_null(src_callee) && facts_function_named(a->f, src_callee) < 0 &&
                  facts_is_model(a->f, src_callee);
    for (uint32_t i = 0; !known && opaque && n > 1 && i < n && !one_is_loss; i++) {
      TSNode t = ts_node_named_child(left, i);
      if (!NODE_IS(t, "identifier")) continue;
      uint32_t tl;
      const char *tn = facts_text(a->f, t, &tl);
      one_is_loss = backpropagated_in(a->f, a->function, tn, tl, ts_node_start_byte(left));
    }
    for (uint32_t i = 0; i < n; i++) {
      TSNode t = ts_node_named_child(left, i);
      unsigned tf = pair && i == 1 ? 0 : flags & V_GRAPH; /* `_, predicted = torch.max(out, 1)` */
      if (one_is_loss && NODE_IS(t, "identifier")) {
        uint32_t tl;
        const char *tn = facts_text(a->f, t, &tl);
        if (!backpropagated_in(a->f, a->function, tn, tl, ts_node_start_byte(left))) tf = 0;
      }
      /* `loss, acc = step(batch)`: each name what that element carries;
       * `loss, n = sync(out, loss, n)`: what the argument handed back does */
      if (known) {
        bool handed = handed_back(params[i]) && (elems[i] & TAINT_ARG);
        bool graph = (elems[i] & TAINT_GRAPH) || (from_args && (elems[i] & TAINT_ARG) && !handed) ||
                     (handed && (argument_flags(a, st, source, facts_function_named(a->f, src_callee), params[i] - 1u) & V_GRAPH));
        tf = (graph ? V_GRAPH : 0) | ((elems[i] & TAINT_SCALAR) ? V_SCALAR : 0) | ((elems[i] & TAINT_DIVIDED) ? V_DIVIDED : 0);
      }
      /* a backward pass the name reaches elsewhere in the function (another
       * branch binds it anew) says nothing of an element the summary knows
       * to be clean: `pg_loss, kl = model.loss(...)` with `kl` returned as
       * `approx_kl.item()`, beside `kl = (ratio - 1).mean()` in the other
       * branch, which the loss backpropagates (what the analysis merely
       * found no graph in may have lost one on the way) */
      bool clean = known && (elems[i] & TAINT_CLEAN);
      if (trackable(a->f, t)) set_name(a, st, t, pair && i == 1 ? 0 : clean ? tf : evidence(a, t, right, tf));
    }
    return;
  }
  /* `d[k] = v`, `obj.attr = v`: the container is not a value we follow, but
   * what the target reads still gets recorded */
  eval(a, st, left);
}


static bool plain_annotation(const facts *f, TSNode type);


/* Whether NAME is a parameter of function FN annotated as plain data. */
static bool plain_parameter_of(const facts *f, TSNode name, int fn) {
  if (fn < 0) return false;
  TSNode params = FACT_FIELD(f, f->functions.items[fn].node, parameters);
  uint32_t n = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params), len;
  const char *t = facts_text(f, name, &len);
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (!NODE_IS(p, "typed_parameter") && !NODE_IS(p, "typed_default_parameter")) continue;
    TSNode id = NODE_IS(p, "typed_parameter") ? ts_node_named_child(p, 0) : FACT_FIELD(f, p, name);
    if (!ts_node_is_null(id) && NODE_IS(id, "identifier") && facts_text_is(f, id, t, len))
      return plain_annotation(f, FACT_FIELD(f, p, type));
  }
  return false;
}


static bool known_clean(const facts *f, TSNode e, int fn, int depth);


/* Whether every binding of the name E before it in function FN is an
 * assignment of a value known_clean says carries no graph (`acc =
 * torch.eq(p, y)`, `acc = acc.sum()`, `acc = acc.tolist()`), and there is
 * one. */
static bool bound_clean(const facts *f, TSNode e, int fn, int depth) {
  uint32_t len, pos = ts_node_start_byte(e);
  const char *name = facts_text(f, e, &len);
  size_t first, end, bindings = 0;
  facts_bindings_named(f, name, len, &first, &end);
  for (size_t i = first; i < end; i++)
    if (f->bindings.items[i].pos < pos && facts_function_at(f, f->bindings.items[i].pos) == fn) bindings++;
  if (!bindings || bindings > 8) return false;
  /* `acc = acc.sum()` reads the binding before its own */
  long own = facts__last_assign_before(f, name, len, pos, fn);
  if (own < 0) return false;
  if (ts_node_start_byte(f->assigns.items[own].right) <= pos && pos < ts_node_end_byte(f->assigns.items[own].right)) {
    if (--bindings == 0) return false;
    own = facts__last_assign_before(f, name, len, ts_node_start_byte(f->assigns.items[own].left), fn);
  }
  /* each binding an assignment of a clean value: as many as there are
   * bindings (a loop target, an unpacked tuple is no assignment), looked
   * for no further back than the last of them */
  for (size_t assigns = 0; assigns < bindings; assigns++) {
    if (own < 0 || !known_clean(f, f->assigns.items[own].right, fn, depth + 1)) return false;
    if (assigns + 1 < bindings)
      own = facts__last_assign_before(f, name, len, ts_node_start_byte(f->assigns.items[own].left), fn);
  }
  return true;
}


/* Whether E, read where it is in function FN, carries no graph whatever
 * the callers hand: a literal; a test; a number or text that `len`, `int`,
 * `float`, `str`... make; what a method dropping the graph returns
 * (`.item()`, `.tolist()`, `.detach()`, `.argmax()`), or any method or
 * attribute of such a value (`mask.sum()` of `torch.eq(p, y)`); a torch
 * function given only such values (`F.softmax(out.detach().cpu(), 1)`);
 * a parameter annotated as plain data; a name bound only to such values
 * before it; a call of a function of the file all of whose returns are
 * such. DEPTH bounds the hops. The graph analysis alone cannot say it: it
 * loses a graph through lists filled by `append` and the like, and reads
 * such a value as carrying none. */
static bool known_clean(const facts *f, TSNode e, int fn, int depth) {
  if (ts_node_is_null(e) || depth > 6) return false;
  const char *type = ts_node_type(e);
  if (parse_type_is(type, "integer") || parse_type_is(type, "float") || parse_type_is(type, "string") ||
      parse_type_is(type, "concatenated_string") || parse_type_is(type, "true") || parse_type_is(type, "false") ||
      parse_type_is(type, "none") || parse_type_is(type, "comparison_operator") || parse_type_is(type, "not_operator"))
    return true;
  if (parse_type_is(type, "parenthesized_expression") || parse_type_is(type, "unary_operator"))
    return known_clean(f, ts_node_named_child(e, ts_node_named_child_count(e) - 1), fn, depth + 1);
  if (parse_type_is(type, "binary_operator") || parse_type_is(type, "boolean_operator"))
    return known_clean(f, FACT_FIELD(f, e, left), fn, depth + 1) && known_clean(f, FACT_FIELD(f, e, right), fn, depth + 1);
  if (parse_type_is(type, "conditional_expression"))
    return ts_node_named_child_count(e) == 3 && known_clean(f, ts_node_named_child(e, 0), fn, depth + 1) &&
           known_clean(f, ts_node_named_child(e, 2), fn, depth + 1);
  if (parse_type_is(type, "tuple") || parse_type_is(type, "list") || parse_type_is(type, "expression_list")) {
    TSNode c;
    for (children k = children_of(e); children_next(&k, &c);)
      if (!NODE_IS(c, "comment") && !known_clean(f, c, fn, depth + 1)) {
        children_done(&k);
        return false;
      }
    return true;
  }
  if (parse_type_is(type, "subscript")) return known_clean(f, FACT_FIELD(f, e, value), fn, depth + 1);
  /* `[domains[i] for i in idx]`: what each element is */
  if (parse_type_is(type, "list_comprehension") || parse_type_is(type, "generator_expression"))
    return known_clean(f, FACT_FIELD(f, e, body), fn, depth + 1);
  if (parse_type_is(type, "attribute")) {
    if (is_self_attr(f, e)) return false;
    return known_clean(f, FACT_FIELD(f, e, object), fn, depth + 1);
  }
  if (parse_type_is(type, "identifier"))
    return plain_parameter_of(f, e, fn) || bound_clean(f, e, fn, depth);
  if (!parse_type_is(type, "call")) return false;
  TSNode callee = FACT_FIELD(f, e, function), args = FACT_FIELD(f, e, arguments);
  if (ts_node_is_null(callee)) return false;
  uint32_t len;
  if (NODE_IS(callee, "attribute")) {
    const char *m = last_name(f, callee, &len);
    if (len == 14 && !memcmp(m, "requires_grad_", 14)) return false;
    if (in_list(m, len, CLEANING_METHODS)) return true;
    buf q = {0};
    bool torch_fn = facts_qualname(f, callee, &q) && !strncmp(buf_str(&q), "torch.", 6);
    const char *tn = buf_str(&q) + 6;
    bool cleaning = torch_fn && !strchr(tn, '.') &&
                    (in_list(tn, strlen(tn), CLEANING_METHODS) || in_list(tn, strlen(tn), BOOLEAN_FUNCTIONS));
    buf_free(&q);
    if (cleaning) return true;
    if (!torch_fn) return known_clean(f, FACT_FIELD(f, callee, object), fn, depth + 1);
  } else if (NODE_IS(callee, "identifier")) {
    static const char *const builtins[] = {"len", "int", "float", "bool", "str", "round", "isinstance", "range",
                                           "repr", "format", NULL};
    const char *t = facts_text(f, callee, &len);
    if (in_list(t, len, builtins)) return true;
    int g = facts_function_named(f, callee);
    if (g < 0 || g == fn) return false;
    bool any = false;
    for (size_t i = 0; i < f->returns.len; i++) {
      if (f->returns.items[i].function != g) continue;
      if (!known_clean(f, ts_node_named_child(f->returns.items[i].call, 0), g, depth + 1)) return false;
      any = true;
    }
    return any;
  } else {
    return false;
  }
  /* a torch function: clean when every argument is (its keywords, `dim=1`, too) */
  if (ts_node_is_null(args)) return false;
  TSNode c;
  for (children k = children_of(args); children_next(&k, &c);) {
    TSNode v = NODE_IS(c, "keyword_argument") ? FACT_FIELD(f, c, value) : c;
    if (!NODE_IS(c, "comment") && !known_clean(f, v, fn, depth + 1)) {
      children_done(&k);
      return false;
    }
  }
  return true;
}


/* The key the string literal K spells, without its quotes (`"acc"`,
 * `'acc'`); NULL for anything else (an f-string, a name, a prefixed or
 * triple-quoted literal). */
static const char *literal_key(const facts *f, TSNode k, uint32_t *len) {
  if (ts_node_is_null(k) || !NODE_IS(k, "string")) return NULL;
  uint32_t l;
  const char *t = facts_text(f, k, &l);
  if (l < 2 || (t[0] != '"' && t[0] != '\'') || t[l - 1] != t[0]) return NULL;
  if (l >= 6 && t[1] == t[0] && t[2] == t[0]) return NULL;
  for (uint32_t i = 1; i + 1 < l; i++)
    if (t[i] == '\\' || t[i] == t[0]) return NULL;
  *len = l - 2;
  return t + 1;
}


/* The bit of the entry V under the key K (KL bytes; NULL: not a literal)
 * when V may carry a graph: the analysis finds one, or V is not known to
 * be clean; 0 otherwise. */
static uint64_t entry_graph_key(analysis *a, state *st, TSNode v, const char *k, uint32_t kl) {
  if (!(eval(a, st, v) & V_FLOW) && (a->no_grad || known_clean(a->f, v, a->function, 0))) return 0;
  return k ? facts_key_bit(k, kl) : FACTS_ALL_KEYS;
}


/* The graph-carrying keys of D, a dict display or `dict(...)` call: each
 * entry's value evaluated (again: the state has not moved since D was,
 * and the taint recorded is the same). */
static uint64_t display_graph_keys(analysis *a, state *st, TSNode d) {
  assert(dict_display(a->f, d));
  bool display = NODE_IS(d, "dictionary");
  TSNode entries = display ? d : FACT_FIELD(a->f, d, arguments);
  if (ts_node_is_null(entries)) return 0;
  uint64_t keys = 0;
  TSNode c;
  for (children k = children_of(entries); children_next(&k, &c);) {
    uint32_t kl = 0;
    if (display && NODE_IS(c, "pair")) {
      const char *key = literal_key(a->f, FACT_FIELD(a->f, c, key), &kl);
      keys |= entry_graph_key(a, st, FACT_FIELD(a->f, c, value), key, kl);
    } else if (!display && NODE_IS(c, "keyword_argument")) {
      const char *key = facts_text(a->f, FACT_FIELD(a->f, c, name), &kl);
      keys |= entry_graph_key(a, st, FACT_FIELD(a->f, c, value), key, kl);
    } else if (!NODE_IS(c, "comment")) {
      /* `{**other}`, `dict(other)`, `dict(**other)`: keys unknown */
      keys = FACTS_ALL_KEYS;
    }
  }
  return keys;
}


static dict_slot *find_dict(analysis *a, const char *name, uint32_t len) {
  for (size_t i = a->dicts.len; i-- > 0;)
    if (a->dicts.items[i].len == len && !memcmp(a->dicts.items[i].name, name, len)) return &a->dicts.items[i];
  return NULL;
}


/* Whether the function analysed returns dicts, so that its locals bound
 * to dicts are followed key by key. */
static bool follows_dicts(const analysis *a) {
  return !a->replay && a->function >= 0 && a->f->functions.items[a->function].dict_form;
}


/* `name = VALUE` in such a function: a dict display starts (or joins) the
 * name's keys; anything else makes them unknown. */
static void bind_dict(analysis *a, state *st, TSNode name, TSNode value) {
  assert(follows_dicts(a) && NODE_IS(name, "identifier"));
  uint32_t len;
  const char *t = facts_text(a->f, name, &len);
  dict_slot *d = find_dict(a, t, len);
  if (!d) {
    dict_slot fresh = {t, len, true, 0};
    vec_push(&a->dicts, fresh);
    d = &a->dicts.items[a->dicts.len - 1];
  }
  if (!ts_node_is_null(value) && dict_display(a->f, value)) d->keys |= display_graph_keys(a, st, value);
  else d->dict = false;
}


/* `name["key"] = v` (FLAGS what V carries) in such a function: the entry
 * joins the name's keys. */
static void set_dict_entry(analysis *a, TSNode target, TSNode value, unsigned flags) {
  assert(follows_dicts(a) && NODE_IS(target, "subscript"));
  TSNode obj = FACT_FIELD(a->f, target, value), key = FACT_FIELD(a->f, target, subscript);
  if (ts_node_is_null(obj) || !NODE_IS(obj, "identifier")) return;
  if (!(flags & V_FLOW) && known_clean(a->f, value, a->function, 0)) return;
  uint32_t len, kl;
  const char *t = facts_text(a->f, obj, &len);
  dict_slot *d = find_dict(a, t, len);
  if (!d) return;
  const char *k = literal_key(a->f, key, &kl);
  d->keys |= k ? facts_key_bit(k, kl) : FACTS_ALL_KEYS;
}


/* What a `return VALUE` of FN says of the dicts it returns. */
static void record_dict_return(analysis *a, state *st, facts_function *fn, TSNode value) {
  assert(follows_dicts(a));
  uint64_t keys = 0;
  bool dict = false;
  while (!ts_node_is_null(value) && NODE_IS(value, "parenthesized_expression")) value = ts_node_named_child(value, 0);
  if (dict_display(a->f, value)) {
    keys = display_graph_keys(a, st, value);
    dict = true;
  } else if (NODE_IS(value, "identifier")) {
    uint32_t len;
    const char *t = facts_text(a->f, value, &len);
    const dict_slot *d = find_dict(a, t, len);
    dict = d && d->dict;
    keys = dict ? d->keys : 0;
  } else if (NODE_IS(value, "call")) {
    int h = facts_function_named(a->f, FACT_FIELD(a->f, value, function));
    const facts_function *g = h >= 0 ? &a->f->functions.items[h] : NULL;
    dict = g && g != fn && g->dict_returns && !g->dict_other;
    keys = dict ? g->graph_keys : 0;
  }
  if (dict) {
    fn->dict_returns = true;
    fn->graph_keys |= keys;
  } else {
    fn->dict_other = true;
  }
}


static void run_expression(analysis *a, state *st, TSNode e) {
  if (NODE_IS(e, "assignment")) {
    TSNode left = FACT_FIELD(a->f, e, left);
    TSNode right = FACT_FIELD(a->f, e, right);
    /* `a = b = value` */
    TSNode value = right;
    while (!ts_node_is_null(value) && NODE_IS(value, "assignment")) value = FACT_FIELD(a->f, value, right);
    unsigned flags = ts_node_is_null(value) ? 0 : eval(a, st, value);
    for (TSNode t = e; !ts_node_is_null(t) && NODE_IS(t, "assignment"); t = FACT_FIELD(a->f, t, right)) {
      TSNode target = FACT_FIELD(a->f, t, left);
      assign(a, st, target, value, flags);
      if (!follows_dicts(a) || ts_node_is_null(target)) continue;
      if (NODE_IS(target, "identifier")) bind_dict(a, st, target, value);
      else if (NODE_IS(target, "subscript") && !a->no_grad) set_dict_entry(a, target, value, flags);
    }
    (void)left;
    return;
  }
  if (NODE_IS(e, "augmented_assignment")) {
    TSNode left = FACT_FIELD(a->f, e, left);
    TSNode right = FACT_FIELD(a->f, e, right);
    TSNode op = FACT_FIELD(a->f, e, operator);
    unsigned rf = eval(a, st, right);
    unsigned lf = eval(a, st, left);
    if (follows_dicts(a) && NODE_IS(left, "subscript") && !a->no_grad) set_dict_entry(a, left, right, rf);
    if (trackable(a->f, left)) {
      unsigned nf = lf;
      if (!ts_node_is_null(op) && (NODE_IS(op, "+=") || NODE_IS(op, "-=") || NODE_IS(op, "*=") || NODE_IS(op, "@=")))
        nf = a->no_grad ? lf : (lf | (rf & V_FLOW));
      if (!ts_node_is_null(op) && NODE_IS(op, "/=")) nf |= V_DIVIDED;
      /* `loss = 0`, then `loss += step_loss / k`: the sum of divided parts */
      if (!ts_node_is_null(op) && (NODE_IS(op, "+=") || NODE_IS(op, "-=")) && (rf & V_DIVIDED) && !(lf & V_FLOW) &&
          starts_at_number(a, left, e))
        nf |= V_DIVIDED;
      set_name(a, st, left, nf);
    }
    return;
  }
  eval(a, st, e);
}


/* Whether RIGHT, a loop's iterable, is `d.values()` (else `d.items()`
 * when entries_flow says it is a dict's entries). */
static bool values_call(analysis *a, TSNode right) {
  TSNode callee = NODE_IS(right, "call") ? FACT_FIELD(a->f, right, function) : NULL_NODE;
  return !ts_node_is_null(callee) && NODE_IS(callee, "attribute") &&
         text_is(a->f, FACT_FIELD(a->f, callee, attribute), "values");
}


/* What the entries of the dict a loop iterates carry: RF (its evaluation:
 * the dict's own flags, through the method) when RIGHT is `d.items()` or
 * `d.values()` with no arguments; 0 for any other iterable. */
static unsigned entries_flow(analysis *a, TSNode right, unsigned rf) {
  if (!(rf & V_FLOW) || ts_node_is_null(right) || !NODE_IS(right, "call")) return 0;
  TSNode callee = FACT_FIELD(a->f, right, function);
  TSNode args = FACT_FIELD(a->f, right, arguments);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute") || ts_node_is_null(args) ||
      ts_node_named_child_count(args) != 0)
    return 0;
  TSNode m = FACT_FIELD(a->f, callee, attribute);
  if (!text_is(a->f, m, "items") && !text_is(a->f, m, "values")) return 0;
  return rf & (V_FLOW | V_SCALAR);
}


/* Whether LOOP, `for k, v in d.items():` (or over `d.keys()`, maybe
 * through `enumerate`),
 * replaces every entry of the dict D it walks with a number before anything
 * can skip it: its body's first statements, all simple, include `d[k] =
 * v.item()` (a cleaning method or `float()`/`int()`). After it, D holds no
 * graph: `for key, value in loss_dict.items(): loss_dict[key] = value.item()`. */
static TSNode cleans_every_entry(analysis *a, TSNode loop) {
  TSNode right = FACT_FIELD(a->f, loop, right), left = FACT_FIELD(a->f, loop, left);
  TSNode body = FACT_FIELD(a->f, loop, body);
  if (ts_node_is_null(right) || ts_node_is_null(left) || ts_node_is_null(body)) return NULL_NODE;
  /* `for i, (k, v) in enumerate(d.items()):` */
  if (NODE_IS(right, "call") && text_is(a->f, FACT_FIELD(a->f, right, function), "enumerate")) {
    TSNode args = FACT_FIELD(a->f, right, arguments);
    if (ts_node_is_null(args) || ts_node_named_child_count(args) != 1 || ts_node_named_child_count(left) != 2)
      return NULL_NODE;
    right = ts_node_named_child(args, 0);
    left = ts_node_named_child(left, 1);
  }
  TSNode dict = right;
  if (!NODE_IS(dict, "call")) return NULL_NODE;
  {
    TSNode callee = FACT_FIELD(a->f, dict, function), args = FACT_FIELD(a->f, dict, arguments);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute") || ts_node_is_null(args) ||
        ts_node_named_child_count(args) != 0)
      return NULL_NODE;
    TSNode m = FACT_FIELD(a->f, callee, attribute);
    if (!text_is(a->f, m, "items") && !text_is(a->f, m, "keys")) return NULL_NODE;
    dict = FACT_FIELD(a->f, callee, object);
  }
  if (ts_node_is_null(dict) || !trackable(a->f, dict)) return NULL_NODE;
  TSNode key = NODE_IS(left, "identifier") ? left : ts_node_named_child_count(left) ? ts_node_named_child(left, 0) : NULL_NODE;
  if (ts_node_is_null(key) || !NODE_IS(key, "identifier")) return NULL_NODE;
  uint32_t dl, kl;
  const char *dn = facts_text(a->f, dict, &dl), *kn = facts_text(a->f, key, &kl);
  TSNode stmt;
  for (children k = children_of(body); children_next(&k, &stmt);) {
    if (NODE_IS(stmt, "comment")) continue;
    if (!NODE_IS(stmt, "expression_statement")) {
      children_done(&k);
      return NULL_NODE; /* a branch or a loop first: the entry may be skipped */
    }
    TSNode e = ts_node_named_child(stmt, 0);
    if (ts_node_is_null(e) || !NODE_IS(e, "assignment")) continue;
    TSNode target = FACT_FIELD(a->f, e, left), value = FACT_FIELD(a->f, e, right);
    if (ts_node_is_null(target) || !NODE_IS(target, "subscript") || ts_node_is_null(value) || !NODE_IS(value, "call"))
      continue;
    TSNode obj = FACT_FIELD(a->f, target, value), index = FACT_FIELD(a->f, target, subscript);
    if (ts_node_is_null(obj) || ts_node_is_null(index) || !facts_text_is(a->f, obj, dn, dl) ||
        !NODE_IS(index, "identifier") || !facts_text_is(a->f, index, kn, kl))
      continue;
    TSNode callee = FACT_FIELD(a->f, value, function);
    uint32_t ml;
    const char *m = ts_node_is_null(callee) ? "" : last_name(a->f, callee, &ml);
    bool clean = !ts_node_is_null(callee) &&
                 (NODE_IS(callee, "attribute") ? in_list(m, ml, CLEANING_METHODS) && !text_is(a->f, FACT_FIELD(a->f, callee, attribute), "backward")
                                               : text_is(a->f, callee, "float") || text_is(a->f, callee, "int"));
    children_done(&k);
    return clean ? dict : NULL_NODE;
  }
  return NULL_NODE;
}


static void run_loop(analysis *a, state *st, TSNode loop) {
  TSNode body = FACT_FIELD(a->f, loop, body);
  if (NODE_IS(loop, "for_statement")) {
    TSNode right = FACT_FIELD(a->f, loop, right);
    unsigned rf = eval(a, st, right);
    /* loop targets hold data, not graphs: rebind them clean; but the
     * entries of a dict of losses (`for name, value in losses.items()`,
     * `for value in losses.values()`) are what the dict holds */
    unsigned entries = entries_flow(a, right, rf);
    TSNode left = FACT_FIELD(a->f, loop, left);
    if (!ts_node_is_null(left)) {
      if (trackable(a->f, left)) set_name(a, st, left, values_call(a, right) ? entries : 0);
      else {
        uint32_t n = ts_node_named_child_count(left);
        for (uint32_t i = 0; i < n; i++)
          if (trackable(a->f, ts_node_named_child(left, i)))
            set_name(a, st, ts_node_named_child(left, i), i == 1 && n == 2 && !values_call(a, right) ? entries : 0);
      }
    }
  } else {
    eval(a, st, FACT_FIELD(a->f, loop, condition));
  }
  /* this loop's exits, the enclosing loop's kept aside until it ends */
  state entry = {0}, outer_cont = a->cont, outer_brk = a->brk;
  a->cont = (state){0};
  a->brk = (state){0};
  a->loops++;
  copy_state(&entry, st);
  for (int round = 0; round < MAX_ROUNDS; round++) {
    run_block(a, st, body);
    join(st, &a->cont);
    /* the next iteration starts from what this one left, joined with entry */
    state next = {0};
    copy_state(&next, &entry);
    bool grew = join(&next, st);
    bool changed = grew || next.len != entry.len;
    if (!changed) {
      /* compare with the state the body started from */
      for (size_t i = 0; i < next.len && !changed; i++) {
        slot *s = find(&entry, next.items[i].name, next.items[i].len);
        changed = !s || s->flags != next.items[i].flags;
      }
    }
    copy_state(&entry, &next);
    copy_state(st, &next);
    vec_free(&next);
    if (!changed) break;
  }
  vec_free(&entry);
  state brk = a->brk;
  vec_free(&a->cont);
  a->cont = outer_cont;
  a->brk = outer_brk;
  a->loops--;
  assert(a->loops >= 0);
  if (NODE_IS(loop, "for_statement")) {
    TSNode cleaned = cleans_every_entry(a, loop);
    if (!ts_node_is_null(cleaned)) set_name(a, st, cleaned, 0);
  }
  TSNode alt = FACT_FIELD(a->f, loop, alternative);
  if (!ts_node_is_null(alt)) run_block(a, st, FACT_FIELD(a->f, alt, body));
  join(st, &brk);
  vec_free(&brk);
}


/* The state ST a branch of an `if` left, ending as E says (run_block),
 * goes where the branch goes: to the loop's head on `continue`, past the
 * loop on `break`, nowhere on `return` or `raise`, else into OUT (ANY: OUT
 * holds a state already). */
static void branch_end(analysis *a, state *st, char e, state *out, bool *any) {
  if (e == 'c' && a->loops) {
    join(&a->cont, st);
    return;
  }
  if (e == 'b' && a->loops) {
    join(&a->brk, st);
    return;
  }
  if (e == 'r') return;
  if (*any) join(out, st);
  else copy_state(out, st);
  *any = true;
}


static void run_if(analysis *a, state *st, TSNode n) {
  TSNode cond = FACT_FIELD(a->f, n, condition);
  eval(a, st, cond);
  /* `if torch.is_tensor(v):` — where the test fails, V is no tensor and
   * carries no graph (under `not`, where it holds) */
  bool negated = false;
  TSNode tested = ts_node_is_null(cond) ? NULL_NODE : tensor_test(a->f, cond, &negated);
  state base = {0}, out = {0};
  bool any = false;
  copy_state(&base, st);
  if (!ts_node_is_null(tested) && negated) set_name(a, st, tested, 0);
  branch_end(a, st, run_block(a, st, FACT_FIELD(a->f, n, consequence)), &out, &any);
  if (!ts_node_is_null(tested) && !negated) set_name(a, &base, tested, 0);
  bool has_else = false;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (NODE_IS(c, "elif_clause")) {
      copy_state(st, &base);
      eval(a, st, FACT_FIELD(a->f, c, condition));
      branch_end(a, st, run_block(a, st, FACT_FIELD(a->f, c, consequence)), &out, &any);
    } else if (NODE_IS(c, "else_clause")) {
      has_else = true;
      copy_state(st, &base);
      branch_end(a, st, run_block(a, st, FACT_FIELD(a->f, c, body)), &out, &any);
    }
  }
  if (!has_else) {
    if (any) join(&out, &base);
    else copy_state(&out, &base);
  }
  /* every branch left (`return`, `continue`): what follows is not reached
   * from here; it keeps the state the `if` started from */
  if (!any && has_else) copy_state(&out, &base);
  copy_state(st, &out);
  vec_free(&base);
  vec_free(&out);
}


/* `with amp.scale_loss(loss, optimizer) as scaled_loss:` (NVIDIA apex):
 * the name is the loss times the loss scale, so it carries what the loss
 * carries (a division by the accumulation steps, above all). Other
 * context managers' names are left alone. */
static void with_alias(analysis *a, state *st, TSNode as) {
  TSNode call = ts_node_named_child(as, 0);
  TSNode alias = FACT_FIELD(a->f, as, alias);
  if (ts_node_is_null(call) || !NODE_IS(call, "call") || ts_node_is_null(alias)) return;
  if (NODE_IS(alias, "as_pattern_target") && ts_node_named_child_count(alias) > 0) alias = ts_node_named_child(alias, 0);
  TSNode callee = FACT_FIELD(a->f, call, function);
  TSNode args = FACT_FIELD(a->f, call, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args) || ts_node_named_child_count(args) == 0) return;
  uint32_t len;
  const char *name = last_name(a->f, callee, &len);
  if (len != 10 || memcmp(name, "scale_loss", 10) != 0) return;
  TSNode loss = ts_node_named_child(args, 0);
  assign(a, st, alias, loss, eval(a, st, loss));
}


/* Whether E is a literal (`0`, `None`, `-1`, `""`). */
static bool literal_value(TSNode e) {
  if (NODE_IS(e, "unary_operator")) e = ts_node_named_child(e, 0);
  return !ts_node_is_null(e) && (NODE_IS(e, "integer") || NODE_IS(e, "float") || NODE_IS(e, "none") ||
                                 NODE_IS(e, "true") || NODE_IS(e, "false") || NODE_IS(e, "string"));
}


/* 1 + K when NODE, an element of a tuple function G returns, is the name of
 * G's parameter K, which G binds elsewhere to literals alone (`n = 0` on
 * an early exit) and never updates in place: the element is the caller's
 * argument handed back. 0 otherwise. */
static uint8_t passed_parameter(const facts *f, int g, TSNode node) {
  if (g < 0 || !NODE_IS(node, "identifier")) return 0;
  int k = facts__parameter_index(f, g, node);
  if (k < 0 || k + 1 >= FACTS_LITERAL) return 0;
  const facts_function *fn = &f->functions.items[g];
  uint32_t len;
  const char *name = facts_text(f, node, &len);
  size_t lo, hi;
  facts_bindings_named(f, name, len, &lo, &hi);
  for (size_t i = lo; i < hi; i++) {
    uint32_t pos = f->bindings.items[i].pos;
    if (pos < fn->body.start || pos >= fn->body.end) continue;
    long j = facts__last_assign_before(f, name, len, pos + 1, g);
    if (j < 0 || ts_node_start_byte(f->assigns.items[j].left) != pos || !literal_value(f->assigns.items[j].right))
      return 0;
  }
  /* `n += k` binds nothing but changes what is handed back: the name
   * followed by an operator and `=` anywhere in the body (a comment's
   * words too, which only makes the answer no) */
  uint32_t end = fn->body.end < f->length ? fn->body.end : (uint32_t)f->length;
  for (uint32_t at = fn->body.start; at + len < end; at++) {
    const char *t = memchr(f->source + at, name[0], end - len - at);
    if (!t) break;
    at = (uint32_t)(t - f->source);
    if (memcmp(t, name, len) != 0 || (at > 0 && (isalnum((unsigned char)t[-1]) || t[-1] == '_' || t[-1] == '.')))
      continue;
    uint32_t j = at + len;
    while (j < end && f->source[j] == ' ') j++;
    if (j + 1 < end && f->source[j] && strchr("+-*/%@&|^", f->source[j]) &&
        (f->source[j + 1] == '=' || (j + 2 < end && f->source[j + 1] == f->source[j] && f->source[j + 2] == '=')))
      return 0;
  }
  return (uint8_t)(k + 1);
}


/* Which elements of the tuple return R (an index in RETURNS) gives are
 * known to carry no graph (known_clean): asked the first time an element
 * the analysis finds no graph in needs it, and kept (bit 8: asked). */
static unsigned clean_elements(facts *f, int r) {
  assert(r >= 0 && (size_t)r < f->returns.len);
  if (!f->return_clean) f->return_clean = oom_xcalloc(f->returns.len, sizeof *f->return_clean);
  if (f->return_clean[r] & 0x100) return f->return_clean[r] & 0xff;
  TSNode value = ts_node_named_child(f->returns.items[r].call, 0);
  unsigned mask = 0, k = 0;
  TSNode c;
  for (children it = children_of(value); children_next(&it, &c);) {
    if (NODE_IS(c, "comment")) continue;
    /* one hop: most elements that are clean say so at once (`acc.item()`,
     * or a name bound to such a call) */
    if (k < 8 && known_clean(f, c, f->returns.items[r].function, 5)) mask |= 1u << k;
    k++;
  }
  f->return_clean[r] = (uint16_t)(mask | 0x100);
  return mask;
}


/* The index in RETURNS of the return statement whose value is VALUE. */
static int return_index(const facts *f, TSNode value) {
  uint32_t at = ts_node_start_byte(value);
  size_t lo = 0, hi = f->returns.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ts_node_end_byte(f->returns.items[mid].call) <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo < f->returns.len && ts_node_start_byte(f->returns.items[lo].call) <= at ? (int)lo : -1;
}


/* What each element of a returned tuple carries (`return loss, mse.item(),
 * logits`), joined over the function's return statements of one length (two
 * lengths at most); a third length makes the elements unknown. */
static void record_elements(analysis *a, state *st, facts_function *fn, TSNode value, unsigned flags) {
  if (a->replay || fn->elems_varied) return;
  int ret = -1;
  bool tuple = NODE_IS(value, "tuple") || NODE_IS(value, "expression_list");
  /* `return loss` beside `return loss, auc` (a flag asks for the metric): a
   * scalar loss held in a name is 0-d and cannot be unpacked, so callers
   * that unpack take the tuple; a call is left alone (a loss object may
   * return a tuple) */
  if (!tuple && (flags & V_SCALAR) && !NODE_IS(value, "call")) return;
  /* nor does any other value (`return None` on an early exit, `return
   * F.mse_loss(s, w)` beside `return loss, mask, ...`, `return
   * model.eval_batch(it)` in a pipeline branch): a caller unpacking N names
   * takes the tuples of length N, and each element carries what those say */
  if (!tuple) return;
  uint32_t n = ts_node_named_child_count(value);
  if (n == 0 || n > FACTS_MAX_ELEMS || (fn->nelems && fn->nelems != n && fn->nelems2 && fn->nelems2 != n)) {
    fn->elems_varied = true;
    a->changed = true;
    return;
  }
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(value, i);
    if (NODE_IS(c, "list_splat")) {
      fn->elems_varied = true;
      a->changed = true;
      return;
    }
  }
  /* the first length seen, else a second one */
  bool second = fn->nelems && fn->nelems != n;
  uint8_t *len = second ? &fn->nelems2 : &fn->nelems, *elems = second ? fn->elems2 : fn->elems;
  uint8_t *params = second ? fn->elem_param2 : fn->elem_param;
  bool first = *len == 0;
  *len = (uint8_t)n;
  for (uint32_t i = 0; i < n; i++) {
    /* a literal (`return None, 0` on an early exit) agrees with any; only a
     * value from the parameters and carrying no graph of its own may be one
     * handed back */
    TSNode e = ts_node_named_child(value, i);
    unsigned r = eval(a, st, e);
    uint8_t p = 0;
    if ((r & V_ARG) && !(r & V_GRAPH)) p = passed_parameter(a->f, (int)(fn - a->f->functions.items), e);
    else if (!(r & (V_ARG | V_GRAPH)) && literal_value(e)) p = FACTS_LITERAL;
    if (first || params[i] == FACTS_LITERAL) params[i] = p;
    else if (params[i] != p && p != FACTS_LITERAL) params[i] = FACTS_MIXED;
    /* evaluated again: the tuple's own evaluation joined its elements */
    if (!(r & V_FLOW) && ret < 0) ret = return_index(a->f, value);
    bool clean = !(r & V_FLOW) && ret >= 0 && i < 8 && (clean_elements(a->f, ret) >> i & 1);
    uint8_t t = (uint8_t)(((r & V_GRAPH) ? TAINT_GRAPH : 0) | ((r & V_SCALAR) ? TAINT_SCALAR : 0) |
                          ((r & V_DIVIDED) ? TAINT_DIVIDED : 0) | ((r & V_ARG) && !(r & V_GRAPH) ? TAINT_ARG : 0) |
                          (clean ? TAINT_CLEAN : 0));
    /* clean only when every return says so */
    uint8_t joined = first ? t : (uint8_t)(((elems[i] | t) & ~TAINT_CLEAN) | (elems[i] & t & TAINT_CLEAN));
    if (first || joined != elems[i]) a->changed = true;
    elems[i] = joined;
  }
}


/* What a `return` of FN says of the "loss" of the dicts it returns
 * (`return {"loss": loss.detach(), "prediction": out}`): the callers'
 * `step(batch)["loss"]` is that value. */
static void record_loss_key(analysis *a, state *st, facts_function *fn, TSNode value) {
  bool seen = false, graph = false;
  if (NODE_IS(value, "dictionary")) {
    uint32_t n = ts_node_named_child_count(value);
    for (uint32_t i = 0; i < n; i++) {
      TSNode pair = ts_node_named_child(value, i);
      if (!NODE_IS(pair, "pair") || !is_loss_key(a->f, FACT_FIELD(a->f, pair, key))) continue;
      seen = true;
      graph = eval(a, st, FACT_FIELD(a->f, pair, value)) & V_GRAPH;
    }
  }
  bool other = !seen;
  /* another round of the analysis only when a caller's `f(x)["loss"]` may
   * read differently: most functions return no such dict at all */
  if ((seen && !fn->loss_key) || (graph && !fn->loss_key_graph) || (other && !fn->other_return && fn->loss_key))
    a->changed = true;
  fn->loss_key |= seen;
  fn->loss_key_graph |= graph;
  fn->other_return |= other;
}


/* The function of the file whose returned dicts VALUE holds: VALUE calls
 * it, or names a local every binding of which in its function calls it;
 * -1 otherwise. */
static int dict_source(analysis *a, TSNode value) {
  const facts *f = a->f;
  if (NODE_IS(value, "call")) return called_function(a, value);
  if (!NODE_IS(value, "identifier") || a->function < 0) return -1;
  uint32_t len;
  const char *name = facts_text(f, value, &len);
  facts_span body = f->functions.items[a->function].body;
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  int g = -1;
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->pos < body.start || b->pos >= body.end) continue;
    if (b->kind != BINDING_OTHER || ts_node_is_null(b->value) || !NODE_IS(b->value, "call")) return -1;
    int h = called_function(a, b->value);
    if (h < 0 || (g >= 0 && h != g)) return -1;
    g = h;
  }
  return g;
}


/* Whether CALL returns only dicts whose keys are known, KEYS then the
 * graph-carrying ones: a function of the file, or the entry of a class of
 * the file whose instance it calls; a function or method of another
 * module of the project; the entry (`__call__`, else `forward`) of a
 * project class the callee is an instance of, by its bindings, its
 * annotation or the attribute it was made on (`self.metric =
 * AccuracyEstimator(...)`). */
/* Unless DEEP (a call of a model: every forward of a script is asked
 * this), the file's classes only when one of their entries returns dicts,
 * and the project's only through a name every binding of which in the
 * file makes an instance of one. */
static bool call_dict_keys_of(analysis *a, TSNode call, bool deep, uint64_t *keys) {
  facts *f = a->f;
  TSNode callee = FACT_FIELD(f, call, function);
  if (ts_node_is_null(callee)) return false;
  int g = deep || f->dict_entries ? called_function(a, call) : facts_function_named(f, callee);
  if (g >= 0) {
    const facts_function *fn = &f->functions.items[g];
    if (fn->dict_form && !a->replay) f->dict_summary_read = true;
    if (!fn->dict_returns || fn->dict_other) return false;
    *keys = fn->graph_keys;
    return true;
  }
  if (!f->imports) return false;
  facts_symbol sym;
  bool found = (deep && facts_project_symbol(f, callee, &sym) && (sym.flags & SYM_FUNCTION)) ||
               (deep && facts_instance_method_symbol(f, callee, &sym)) || facts_instance_call_symbol(f, callee, &sym);
  if (!found && deep && trackable(f, callee)) {
    TSNode made = model_constructor(f, callee, a->function);
    TSNode klass = ts_node_is_null(made) || !NODE_IS(made, "call") ? NULL_NODE : FACT_FIELD(f, made, function);
    buf_clear(&a->tmp);
    if (!ts_node_is_null(klass) && (facts_qualname(f, klass, &a->tmp) || (deep && star_class(f, klass, &a->tmp)))) {
      buf_puts(&a->tmp, ".forward");
      found = f->imports->lookup(f->imports, buf_str(&a->tmp), a->tmp.len, &sym) && (sym.flags & SYM_FUNCTION);
    }
  }
  if (!found || !(sym.flags & SYM_DICT_RETURNS)) return false;
  *keys = sym.graph_keys;
  return true;
}


/* Whether VALUE holds dicts whose keys are known (call_dict_keys_of): it is
 * such a call, or a local every binding of which in its scope is one;
 * KEYS then joins their graph-carrying keys. */
static bool dict_keys_of(analysis *a, TSNode value, uint64_t *keys) {
  const facts *f = a->f;
  if (NODE_IS(value, "call")) return call_dict_keys_of(a, value, true, keys);
  if (!NODE_IS(value, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(f, value, &len);
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  if (end - first > 8) return false;
  bool any = false;
  *keys = 0;
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (facts_function_at(f, b->pos) != a->function) continue;
    uint64_t k;
    if (b->kind != BINDING_OTHER || ts_node_is_null(b->value) || !NODE_IS(b->value, "call") ||
        !call_dict_keys_of(a, b->value, true, &k))
      return false;
    *keys |= k;
    any = true;
  }
  return any;
}


/* Whether the with clause CLAUSE holds `torch.enable_grad()` or
 * `torch.set_grad_enabled(True)`. */
static bool enables_grad(analysis *a, TSNode clause) {
  static const char *const on[] = {"torch.enable_grad", "torch.autograd.enable_grad",
                                   "torch.autograd.grad_mode.enable_grad", NULL};
  static const char *const set[] = {"torch.set_grad_enabled", "torch.autograd.set_grad_enabled",
                                    "torch.autograd.grad_mode.set_grad_enabled", NULL};
  if (ts_node_is_null(clause)) return false;
  for (uint32_t i = 0, n = ts_node_named_child_count(clause); i < n; i++) {
    TSNode v = FACT_FIELD(a->f, ts_node_named_child(clause, i), value);
    if (ts_node_is_null(v) || !NODE_IS(v, "call") || !facts_qualname(a->f, FACT_FIELD(a->f, v, function), &a->tmp))
      continue;
    const char *q = buf_str(&a->tmp);
    if (in_list(q, strlen(q), on)) return true;
    TSNode args = FACT_FIELD(a->f, v, arguments);
    TSNode a0 = !ts_node_is_null(args) && ts_node_named_child_count(args) ? ts_node_named_child(args, 0) : NULL_NODE;
    if (in_list(q, strlen(q), set) && !ts_node_is_null(a0) && NODE_IS(a0, "true")) return true;
  }
  return false;
}


static void run_statement(analysis *a, state *st, TSNode s) {
  const char *type = ts_node_type(s);
  bool saved = a->no_grad;
  a->no_grad = saved || facts_in_no_grad(a->f, ts_node_start_byte(s));
  if (parse_type_is(type, "expression_statement")) {
    uint32_t n = ts_node_named_child_count(s);
    for (uint32_t i = 0; i < n; i++) run_expression(a, st, ts_node_named_child(s, i));
  } else if (parse_type_is(type, "return_statement")) {
    if (ts_node_named_child_count(s)) {
      TSNode value = ts_node_named_child(s, 0);
      unsigned r = eval(a, st, value);
      if (a->function >= 0) {
        facts_function *fn = &a->f->functions.items[a->function];
        /* a loss of the parameters returned alone: its callers see a loss */
        bool g = fn->returns_graph || (r & V_GRAPH) || ((r & V_ARG) && (r & V_SCALAR)),
             sc = fn->returns_scalar_loss || (r & V_SCALAR),
             dv = fn->returns_divided || (r & V_DIVIDED);
        if (g != fn->returns_graph || sc != fn->returns_scalar_loss || dv != fn->returns_divided) a->changed = true;
        fn->returns_graph = g;
        fn->returns_scalar_loss = sc;
        fn->returns_divided = dv;
        record_elements(a, st, fn, value, r);
        record_loss_key(a, st, fn, value);
        if (follows_dicts(a)) record_dict_return(a, st, fn, value);
      }
    } else if (follows_dicts(a)) {
      a->f->functions.items[a->function].dict_other = true; /* a bare `return`: None */
    }
  } else if (parse_type_is(type, "for_statement") || parse_type_is(type, "while_statement")) {
    run_loop(a, st, s);
  } else if (parse_type_is(type, "if_statement")) {
    run_if(a, st, s);
  } else if (parse_type_is(type, "with_statement")) {
    /* inside a no-grad region, `with torch.enable_grad():` turns gradients
     * on again for its body (resolve.c cuts that body out of the regions;
     * the enclosing statements still carry the region's mode down) */
    TSNode clause = ts_node_named_child(s, 0);
    if (a->no_grad && !facts_in_no_grad(a->f, ts_node_start_byte(s)) && enables_grad(a, clause)) a->no_grad = false;
    if (!ts_node_is_null(clause)) {
      uint32_t n = ts_node_named_child_count(clause);
      for (uint32_t i = 0; i < n; i++) {
        TSNode v = FACT_FIELD(a->f, ts_node_named_child(clause, i), value);
        if (ts_node_is_null(v)) continue;
        eval(a, st, v);
        if (NODE_IS(v, "as_pattern")) with_alias(a, st, v);
      }
    }
    run_block(a, st, FACT_FIELD(a->f, s, body));
  } else if (parse_type_is(type, "function_definition") || parse_type_is(type, "class_definition") ||
             parse_type_is(type, "decorated_definition")) {
    /* analysed on their own */
  } else {
    /* try/except/finally, match, and the rest: their blocks in order */
    uint32_t n = ts_node_named_child_count(s);
    for (uint32_t i = 0; i < n; i++) {
      TSNode c = ts_node_named_child(s, i);
      if (NODE_IS(c, "block")) run_block(a, st, c);
      else if (NODE_IS(c, "except_clause") || NODE_IS(c, "else_clause") || NODE_IS(c, "finally_clause") ||
               NODE_IS(c, "case_clause") || NODE_IS(c, "except_group_clause")) {
        uint32_t m = ts_node_named_child_count(c);
        for (uint32_t k = 0; k < m; k++)
          if (NODE_IS(ts_node_named_child(c, k), "block")) run_block(a, st, ts_node_named_child(c, k));
      }
    }
  }
  a->no_grad = saved;
}


/* Runs BLOCK; returns how it ends: 'c' a `continue`, 'b' a `break`, 'r' a
 * `return` or a `raise`, 0 it falls through (comments after it aside). */
static char run_block(analysis *a, state *st, TSNode block) {
  if (ts_node_is_null(block) || a->depth > MAX_DEPTH) return 0;
  a->depth++;
  TSNode s, last = NULL_NODE, before = NULL_NODE;
  for (children k = children_of(block); children_next(&k, &s);) {
    run_statement(a, st, s);
    before = last;
    last = s;
  }
  a->depth--;
  /* the type of the last statement only (a comment after it aside) */
  if (!ts_node_is_null(last) && NODE_IS(last, "comment")) last = before;
  if (ts_node_is_null(last)) return 0;
  const char *t = ts_node_type(last);
  return (t[0] == 'c' && !strcmp(t, "continue_statement")) ? 'c'
         : (t[0] == 'b' && !strcmp(t, "break_statement"))  ? 'b'
         : (t[0] == 'r' && (!strcmp(t, "return_statement") || !strcmp(t, "raise_statement"))) ? 'r'
                                                                                                : 0;
}


/* ---- backward evidence ---- */

/* A callee that may be a model or a loss: a name (or `self.name`) that is not
 * a builtin, not an imported library function, and not a class-like
 * constructor (Capitalized: `Variable`, `Tensor`, `MyDataset`). */
static bool is_producer_name(analysis *a, TSNode callee) {
  uint32_t len;
  const char *c = last_name(a->f, callee, &len);
  if (!len || isupper((unsigned char)c[0])) return false;
  if (NODE_IS(callee, "identifier") &&
      (in_list(c, len, CLEAN_BUILTINS) || in_list(c, len, JOIN_BUILTINS) || in_list(c, len, DATA_BUILTINS)))
    return false;
  /* `self._split_batch(task)` of a plain class, defined by a base class of
   * another module of the project: a method, no model or loss */
  facts_symbol sym;
  if (is_self_attr(a->f, callee) && a->f->imports && facts_instance_method_symbol(a->f, callee, &sym)) return false;
  /* an unbound name is unknown, unless it is a function of a project
   * module the file star-imports (`scalar(loss)` after `from model import
   * *`): as one imported by name, no producer */
  if (!facts_qualname(a->f, callee, &a->tmp)) return !facts_star_function(a->f, callee, &sym);
  /* torch.nn's functions (`cross_entropy`) are losses; its utilities
   * (`pack_padded_sequence`, `clip_grad_norm_`) and initializers are none */
  const char *q = buf_str(&a->tmp);
  return !strncmp(q, "torch.nn.", 9) && strncmp(q, "torch.nn.utils.", 15) != 0 && strncmp(q, "torch.nn.init.", 14) != 0;
}


/* Whether CALLEE, a plain name, is one of torch's sequence packers
 * (`pack_padded_sequence(scores, lengths)`): the packed value is its first
 * argument's, graph and all, yet the packer is no model. */
static bool sequence_packer(analysis *a, TSNode callee) {
  uint32_t len;
  const char *c = facts_text(a->f, callee, &len);
  if (!(len > 4 && (!memcmp(c, "pack_", 5) || !memcmp(c, "pad_", 4)))) return false;
  return facts_qualname(a->f, callee, &a->tmp) && !strncmp(buf_str(&a->tmp), "torch.nn.utils.rnn.", 19);
}


/* Whether NAME (LEN bytes) is named as a loss: its last word is `loss`. */
static bool loss_named(const char *name, uint32_t len) {
  return len >= 4 && !strncasecmp(name + len - 4, "loss", 4) && (len == 4 || name[len - 5] == '_' ||
                                                                  islower((unsigned char)name[len - 5]));
}


/* Which operand of the binary operator E a backpropagated E's graph comes
 * through: 0 the left, 1 the right, -1 either. A quotient's dividend (`/`,
 * `//`, `%`); the operand of a product named as a loss when the other is
 * not (`total_loss * loss_scale`, `kd_ratio * kd_loss`). */
static int graph_operand(const facts *f, TSNode e) {
  TSNode op = FACT_FIELD(f, e, operator);
  if (ts_node_is_null(op)) return -1;
  const char *t = ts_node_type(op);
  if (t[0] == '%' || (t[0] == '/' && (t[1] == '\0' || (t[1] == '/' && t[2] == '\0')))) return 0;
  if (t[0] != '*' || t[1] != '\0') return -1;
  TSNode side[2] = {FACT_FIELD(f, e, left), FACT_FIELD(f, e, right)};
  bool loss[2] = {false, false};
  for (int i = 0; i < 2; i++) {
    uint32_t len;
    if (!ts_node_is_null(side[i]) && NODE_IS(side[i], "identifier")) {
      const char *n = facts_text(f, side[i], &len);
      loss[i] = loss_named(n, len);
    }
  }
  return loss[0] == loss[1] ? -1 : loss[0] ? 0 : 1;
}


/* E, a subscript, reads a string key of a name (`output["loss"]`): the
 * name is marked as reaching a backward pass through that key only. */
static bool keyed_subscript(analysis *a, TSNode e, bool *changed) {
  TSNode value = FACT_FIELD(a->f, e, value), index = FACT_FIELD(a->f, e, subscript);
  if (ts_node_is_null(value) || ts_node_is_null(index) || !NODE_IS(index, "string") || !trackable(a->f, value))
    return false;
  keyed_mark k;
  k.name = facts_text(a->f, value, &k.len);
  k.key = facts_text(a->f, index, &k.key_len);
  bool known = keyed_marked(a, &k);
  if (!known) vec_push(&a->keyed, k);
  if (mark(a, value, 0) || !known) *changed = true;
  return true;
}


/* Names read as values in E (callees excluded: they are producers). */
static void mark_values(analysis *a, TSNode e, unsigned flags, bool *changed) {
  if (ts_node_is_null(e) || a->depth > MAX_DEPTH) return;
  a->depth++;
  if (trackable(a->f, e)) {
    if (mark(a, e, flags | M_WHOLE)) *changed = true;
  } else if (NODE_IS(e, "subscript") && keyed_subscript(a, e, changed)) {
    /* marked by its key */
  } else if (NODE_IS(e, "call")) {
    /* Only the graph's own path is followed: through graph-preserving methods
     * and torch functions to their operands, and into the arguments of a
     * producer (a model or loss called by name: `crit(out, y)` makes `out` a
     * graph). Constructors (`Variable(...)`, `Tensor(...)`), NumPy and other
     * libraries make new data and stop the walk. */
    TSNode callee = FACT_FIELD(a->f, e, function);
    TSNode args = FACT_FIELD(a->f, e, arguments);
    bool into_args = false;
    if (ts_node_is_null(callee)) {
      /* nothing */
    } else if (NODE_IS(callee, "attribute") && !is_self_attr(a->f, callee)) {
      uint32_t len;
      const char *m = last_name(a->f, callee, &len);
      if (facts_qualname(a->f, callee, &a->tmp)) {
        const char *q = buf_str(&a->tmp);
        into_args = !strncmp(q, "torch.", 6) && strncmp(q, "torch.nn.", 9) != 0 ? !in_list(q, strlen(q), TORCH_MAKERS)
                    : !strncmp(q, "torch.nn.functional.", 20);
      } else if (in_list(m, len, PRESERVING_METHODS)) {
        /* `out.mean()`: the graph comes through the object */
        mark_values(a, FACT_FIELD(a->f, callee, object), 0, changed);
        into_args = in_list(m, len, COMBINING_METHODS);
      }
    } else if (NODE_IS(callee, "identifier") && sequence_packer(a, callee)) {
      into_args = true;
    } else if (trackable(a->f, callee) && facts_function_named(a->f, callee) < 0 && is_producer_name(a, callee)) {
      uint32_t len;
      const char *c = facts_text(a->f, callee, &len);
      if (!has_str(a->f->producers.items, a->f->producers.len, c, len)) {
        vec_push(&a->f->producers, oom_xstrndup(c, len));
        *changed = true;
      }
      /* A loss's operands carry the graph; a model's are its input (`x =
       * pre_process(x); out = model(x)`: the transform is no model). */
      into_args = !has_str(a->f->module_names.items, a->f->module_names.len, c, len) || facts__named_as_loss(c, len);
    }
    uint32_t n = ts_node_is_null(args) || !into_args ? 0 : ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++) {
      TSNode c = ts_node_named_child(args, i);
      if (NODE_IS(c, "keyword_argument")) c = FACT_FIELD(a->f, c, value);
      mark_values(a, c, 0, changed);
    }
  } else if (NODE_IS(e, "binary_operator") || NODE_IS(e, "parenthesized_expression") ||
             NODE_IS(e, "unary_operator") || NODE_IS(e, "subscript") || NODE_IS(e, "attribute") ||
             NODE_IS(e, "list") || NODE_IS(e, "tuple")) {
    if (NODE_IS(e, "subscript")) mark_values(a, FACT_FIELD(a->f, e, value), 0, changed);
    else if (NODE_IS(e, "attribute")) mark_values(a, FACT_FIELD(a->f, e, object), 0, changed);
    else {
      /* `loss / args.accum`: the graph is the dividend's, the divisor a
       * number (marking it would make every `args.x` a graph); `total_loss
       * * loss_scale`: the loss's, not its weight's */
      int only = NODE_IS(e, "binary_operator") ? graph_operand(a->f, e) : -1;
      if (only >= 0) {
        mark_values(a, only ? FACT_FIELD(a->f, e, right) : FACT_FIELD(a->f, e, left), flags, changed);
      } else {
        TSNode c;
        for (children k = children_of(e); children_next(&k, &c);) mark_values(a, c, flags, changed);
      }
    }
  }
  a->depth--;
}


static bool in_function(const facts *f, uint32_t pos, int fn) {
  return facts_function_at(f, pos) == fn;
}


static facts_span scope_span(const facts *f, int function) {
  if (function < 0) return (facts_span){0, (uint32_t)f->length + 1};
  return f->functions.items[function].body;
}


/* Whether LEFT, an assignment's target, binds NAME (LEN bytes): the name
 * itself or one element of a tuple target (`self.loss, parts = ...`). */
static bool binds_name(const facts *f, TSNode left, const char *name, uint32_t len) {
  if (facts_text_is(f, left, name, len)) return true;
  if (!(NODE_IS(left, "pattern_list") || NODE_IS(left, "tuple_pattern") || NODE_IS(left, "list_pattern")))
    return false;
  TSNode e;
  for (children k = children_of(left); children_next(&k, &e);)
    if (facts_text_is(f, e, name, len)) {
      children_done(&k);
      return true;
    }
  return false;
}


/* Whether NAME is bound, in every pass of loop L, before the statement that
 * holds B: by an assignment before it in a block around B up to L's body. */
static bool rebound_before(const facts *f, TSNode b, const facts_loop *l, const char *name, uint32_t len) {
  for (TSNode n = b; !ts_node_is_null(n) && !ts_node_eq(n, l->node); n = ts_node_parent(n)) {
    TSNode up = ts_node_parent(n);
    if (ts_node_is_null(up) || !NODE_IS(up, "block")) continue;
    for (TSNode s = ts_node_prev_named_sibling(n); !ts_node_is_null(s); s = ts_node_prev_named_sibling(s)) {
      TSNode as = NODE_IS(s, "expression_statement") && ts_node_named_child_count(s) ? ts_node_named_child(s, 0) : NULL_NODE;
      if (!ts_node_is_null(as) && NODE_IS(as, "assignment") && binds_name(f, FACT_FIELD(f, as, left), name, len))
        return true;
    }
  }
  return false;
}


/* Whether the assignment to LEFT in function FN can reach a backward pass of
 * its name in FN: it comes before one, or after one in a loop around both
 * whose passes do not bind the name again before that backward (`loss =
 * self.to_scalar(loss)` after `loss.backward()` converts the value for
 * logging; the next pass's backward sees the next batch's loss). A name
 * with no backward pass of its own (a part of a backpropagated sum) is
 * taken to reach. BACKS: FN's `x.backward()` calls, in file order. */
static bool reaches_backward(const facts *f, int fn, TSNode left, const TSNode *backs, size_t nbacks) {
  assert(nbacks == 0 || backs);
  uint32_t len, pa = ts_node_start_byte(left);
  /* most assignments: before every backward pass */
  if (!nbacks || pa < ts_node_start_byte(backs[0])) return true;
  const char *name = facts_text(f, left, &len);
  bool any = false;
  for (size_t i = 0; i < nbacks; i++) {
    TSNode call = backs[i], callee = FACT_FIELD(f, call, function);
    assert(i == 0 || ts_node_start_byte(backs[i - 1]) <= ts_node_start_byte(call)); /* file order */
    if (!facts_text_is(f, FACT_FIELD(f, callee, object), name, len)) continue;
    any = true;
    uint32_t pb = ts_node_start_byte(call);
    if (pa < pb) return true;
    for (int k = facts_innermost_loop_at(f, pb); k >= 0 && f->loops.items[k].function == fn; k = f->loops.items[k].outer) {
      const facts_loop *l = &f->loops.items[k];
      if (pa < ts_node_start_byte(l->node) || pa >= ts_node_end_byte(l->node)) continue;
      if (!rebound_before(f, call, l, name, len)) return true;
      break;
    }
  }
  return !any;
}


static void collect_evidence(analysis *a) {
  facts *f = a->f;
  bool changed = false;
  facts_span scope = scope_span(f, a->function);
  VEC(TSNode) backs = {0}; /* the function's `x.backward()` calls, in order */
  for (size_t i = facts_first_call_at(f, scope.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= scope.end) break;
    if (c->function != a->function) continue;
    TSNode callee = FACT_FIELD(a->f, c->call, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) continue;
    TSNode attr = FACT_FIELD(a->f, callee, attribute);
    if (ts_node_is_null(attr) || !text_is(f, attr, "backward")) continue;
    TSNode obj = FACT_FIELD(a->f, callee, object);
    vec_push(&backs, c->call);
    /* `loss.backward()` marks a scalar loss; `(a + b).backward()` its parts */
    mark_values(a, obj, trackable(f, obj) ? V_SCALAR : 0, &changed);
  }
  /* back through assignments, to a fixed point */
  for (int round = 0; round < 8 && changed; round++) {
    changed = false;
    for (size_t i = facts_first_assign_at(f, scope.start); i < f->assigns.len; i++) {
      TSNode left = f->assigns.items[i].left;
      if (ts_node_start_byte(left) >= scope.end) break;
      if (!in_function(f, ts_node_start_byte(left), a->function)) continue;
      uint32_t len;
      const char *name = facts_text(f, left, &len);
      if (!marked(a, name, len, NULL) || !reaches_backward(f, a->function, left, backs.items, backs.len)) continue;
      mark_values(a, f->assigns.items[i].right, 0, &changed);
    }
  }
  vec_free(&backs);
}


/* ---- summaries and the whole-file passes ---- */

static bool optimizer_like(const char *s, size_t len);


/* `loss_scaler(loss, optimizer, ...)`: timm's NativeScaler and MAE's
 * scaler objects scale the loss, call backward and step the optimizer in
 * one call. */
bool facts__scaler_step(const facts *f, TSNode call) {
  TSNode fn = FACT_FIELD(f, call, function);
  if (ts_node_is_null(fn)) return false;
  /* named for it (`loss_scaler`, `self.amp_scaler`): the callee's text ends
   * so, a test cheap enough for every call of the file */
  uint32_t len;
  const char *name = facts_text(f, fn, &len);
  if (len < 6 || (name[len - 1] | 0x20) != 'r' || strncasecmp(name + len - 6, "scaler", 6) != 0) return false;
  if (!NODE_IS(fn, "identifier") && !NODE_IS(fn, "attribute")) return false;
  TSNode args = FACT_FIELD(f, call, arguments);
  if (ts_node_is_null(args) || ts_node_named_child_count(args) < 2) return false;
  TSNode a0 = ts_node_named_child(args, 0), a1 = ts_node_named_child(args, 1);
  if (NODE_IS(a0, "keyword_argument") || NODE_IS(a1, "keyword_argument")) return false;
  uint32_t l0, l1;
  const char *t0 = last_name(f, a0, &l0), *t1 = last_name(f, a1, &l1);
  return l0 && l1 && facts__named_as_loss(t0, l0) && optimizer_like(t1, l1);
}


static bool is_backward(const facts *f, TSNode call, buf *tmp) {
  TSNode fn = FACT_FIELD(f, call, function);
  if (ts_node_is_null(fn)) return false;
  if (NODE_IS(fn, "attribute")) {
    TSNode attr = FACT_FIELD(f, fn, attribute);
    if (!ts_node_is_null(attr) && text_is(f, attr, "backward")) return true;
  }
  if (facts__scaler_step(f, call)) return true;
  return facts_qualname(f, fn, tmp) && (!strcmp(buf_str(tmp), "torch.autograd.backward"));
}


static bool optimizer_like(const char *s, size_t len) {
  char lower[64];
  if (len >= sizeof lower) return false;
  for (size_t i = 0; i < len; i++) lower[i] = (char)tolower((unsigned char)s[i]);
  lower[len] = '\0';
  const char *last = strrchr(lower, '.');
  const char *name = last ? last + 1 : lower;
  return strstr(name, "optim") || !strncmp(name, "opt", 3) || strstr(name, "_opt") || strstr(name, "scaler");
}


static bool is_step(const facts *f, TSNode call) {
  TSNode fn = FACT_FIELD(f, call, function);
  if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) return false;
  TSNode attr = FACT_FIELD(f, fn, attribute);
  TSNode obj = FACT_FIELD(f, fn, object);
  if (ts_node_is_null(attr) || !text_is(f, attr, "step")) return false;
  uint32_t len;
  const char *t = facts_text(f, obj, &len);
  return optimizer_like(t, len);
}


/* The classes methods belong to, which classes define `forward`, and the
 * index of functions by name: what the passes after it look things up by. */
void facts__index(facts *f);
void facts__index(facts *f) {
  int *inner = oom_xcalloc(f->functions.len + 1, sizeof *inner);
  facts__innermost_classes(f, inner);
  for (size_t i = 0; i < f->functions.len; i++) {
    facts_function *fn = &f->functions.items[i];
    int k = inner[i];
    /* a method of the class, not a function nested in one of its methods */
    uint32_t parent_start = fn->parent >= 0 ? f->functions.items[fn->parent].whole.start : 0;
    if (k >= 0 && (fn->parent < 0 || ts_node_start_byte(f->classes.items[k].node) > parent_start)) fn->klass = k;
  }
  free(inner);
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *fn = &f->functions.items[i];
    if (fn->klass >= 0 && fn->name_len == 7 && !memcmp(fn->name, "forward", 7)) f->classes.items[fn->klass].has_forward = true;
  }
  for (size_t i = 0; i < f->functions.len; i++) {
    facts_fname e = {f->functions.items[i].name, f->functions.items[i].name_len, (int)i};
    vec_push(&f->functions_by_name, e);
  }
  if (f->functions_by_name.len > 1)
    qsort(f->functions_by_name.items, f->functions_by_name.len, sizeof *f->functions_by_name.items, by_name);
}


/* What a call of CALLEE trains, when it is a function of another module of
 * the project: SYM_TRAINS, SYM_BACKWARD, SYM_STEP, SYM_UPDATES, SYM_GRADIENTS of
 * its summary. */
static uint32_t project_training(const facts *f, TSNode callee) {
  facts_symbol sym;
  if (!f->imports) return 0;
  /* a function of another module, or a method of an instance of its class (`trainer.train_step(...)`) */
  if (!(facts_project_symbol(f, callee, &sym) && (sym.flags & SYM_FUNCTION)) &&
      !facts_instance_method_symbol(f, callee, &sym))
    return 0;
  return sym.flags & (SYM_TRAINS | SYM_BACKWARD | SYM_STEP | SYM_UPDATES | SYM_GRADIENTS);
}


/* Whether CALL scales the loss it backpropagates: a GradScaler made or its
 * `scaler.scale(loss)`, apex's `amp.scale_loss(...)`, a wrapper's
 * `optimizer.backward(loss)` (fairseq's and mmcv's AMP optimizers,
 * `accelerator.backward(loss)`, DeepSpeed's engine), or a function or class
 * of the project whose summary says it scales. */
static bool scales_loss_call(const facts *f, TSNode call, buf *tmp) {
  TSNode callee = FACT_FIELD(f, call, function);
  if (ts_node_is_null(callee)) return false;
  uint32_t len;
  const char *name = last_name(f, callee, &len);
  if (len == 10 && !memcmp(name, "scale_loss", 10)) return true;
  if (len >= 10 && !memcmp(name + len - 10, "GradScaler", 10)) return true;
  /* `scaler(loss, optimizer, params, ...)`: a scaler object handed in (timm's
   * NativeScaler, a project's) scales the loss, backpropagates and steps */
  if (len >= 6 && !strncasecmp(name + len - 6, "scaler", 6) && facts__scaler_step(f, call)) return true;
  bool scale = len == 5 && !memcmp(name, "scale", 5), backward = len == 8 && !memcmp(name, "backward", 8);
  if ((scale || backward) && NODE_IS(callee, "attribute")) {
    TSNode obj = FACT_FIELD(f, callee, object);
    TSNode args = FACT_FIELD(f, call, arguments);
    TSNode first = ts_node_is_null(args) || !ts_node_named_child_count(args) ? NULL_NODE : ts_node_named_child(args, 0);
    uint32_t olen, alen;
    const char *o = facts_text(f, obj, &olen);
    if (scale && !ts_node_is_null(first) && optimizer_like(o, olen)) return true;
    if (backward && !ts_node_is_null(first) && !NODE_IS(first, "keyword_argument")) {
      const char *a = last_name(f, first, &alen);
      /* `loss.backward(grad)` passes a gradient; `optimizer.backward(loss)` a loss */
      if (facts__named_as_loss(a, alen) && !facts__named_as_loss(o, olen) && !(facts_qualname(f, obj, tmp) && !strcmp(buf_str(tmp), "torch.autograd")))
        return true;
    }
  }
  facts_symbol sym;
  return f->imports && facts_project_symbol(f, callee, &sym) && (sym.flags & SYM_SCALES_LOSS);
}


/* `LayerIntegratedGradients(captum_sequence_forward, embeddings)`: a
 * function of the file handed to one of Captum's attribution methods is
 * differentiated by it. */
static void mark_attributed(facts *f, const facts_call *c, buf *tmp) {
  TSNode callee = FACT_FIELD(f, c->call, function), args = FACT_FIELD(f, c->call, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args) || !ts_node_named_child_count(args)) return;
  /* Captum's methods are classes: a capitalized callee, checked before the
   * qualified name is built, which most calls need not pay for */
  uint32_t cl;
  const char *cn = last_name(f, callee, &cl);
  if (!cl || !isupper((unsigned char)cn[0])) return;
  if (!facts_qualname(f, callee, tmp) || strncmp(buf_str(tmp), "captum.", 7) != 0) return;
  TSNode first = ts_node_named_child(args, 0);
  if (NODE_IS(first, "keyword_argument")) first = FACT_FIELD(f, first, value);
  if (ts_node_is_null(first) || !NODE_IS(first, "identifier")) return;
  int g = facts_function_named(f, first);
  if (g >= 0) f->functions.items[g].differentiated = true;
}


/* Whether FN is a forward pass or a loss by its name (`forward`,
 * `__call__`, `compute_loss`, `get_loss`). */
static bool computes_loss(const facts_function *fn) {
  return (fn->name_len == 7 && !memcmp(fn->name, "forward", 7)) ||
         (fn->name_len == 8 && !memcmp(fn->name, "__call__", 8)) || facts_text_has_ci(fn->name, fn->name_len, "loss");
}


/* `loss = loss_fn(model, guide, x, y); loss.backward()` (Pyro's ELBO): the
 * functions handed to the call whose result CALL backpropagates run inside
 * that backward's graph. */
static void mark_differentiated(facts *f, const facts_call *c) {
  TSNode callee = FACT_FIELD(f, c->call, function);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return;
  TSNode obj = FACT_FIELD(f, callee, object);
  if (ts_node_is_null(obj) || !NODE_IS(obj, "identifier")) return;
  uint32_t len;
  const char *name = facts_text(f, obj, &len);
  long a = facts__last_assign_before(f, name, len, ts_node_start_byte(c->call), c->function);
  TSNode made = a >= 0 ? f->assigns.items[a].right : NULL_NODE;
  TSNode args = !ts_node_is_null(made) && NODE_IS(made, "call") ? FACT_FIELD(f, made, arguments) : NULL_NODE;
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t k = 0; k < n; k++) {
    TSNode arg = ts_node_named_child(args, k);
    if (!NODE_IS(arg, "identifier")) continue;
    uint32_t alen;
    const char *an = facts_text(f, arg, &alen);
    /* the functions of that name the call can see: defined at module
     * level or in a function enclosing it (tests define `model` again
     * and again) */
    for (size_t g = 0; g < f->functions.len; g++) {
      const facts_function *h = &f->functions.items[g];
      if ((int)g == c->function || h->klass >= 0 || h->name_len != alen || memcmp(h->name, an, alen)) continue;
      bool visible = h->parent < 0;
      for (int up = c->function; up >= 0 && !visible; up = f->functions.items[up].parent) visible = up == h->parent;
      if (visible) f->functions.items[g].differentiated = true;
    }
  }
}


/* Whether the file imports Captum (`import captum.attr as ca`). */
static bool imports_captum(const facts *f) {
  for (size_t i = 0; i < f->bindings.len; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->kind == BINDING_IMPORT && b->qualname && !strncmp(b->qualname, "captum", 6) &&
        (b->qualname[6] == 0 || b->qualname[6] == '.'))
      return true;
  }
  return false;
}


/* Whether CALL computes gradients itself, other than by `.backward()`:
 * `torch.autograd.grad(...)` (or torch.autograd's functional forms), or a
 * Captum attribution (`self.explain_method.attribute(x, target)`) in a file
 * importing Captum, *CAPTUM (-1: not yet known) caching that. */
static bool computes_gradients(const facts *f, TSNode call, int *captum, buf *tmp) {
  assert(NODE_IS(call, "call") && captum);
  TSNode fn = FACT_FIELD(f, call, function);
  if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) return false;
  TSNode attr = FACT_FIELD(f, fn, attribute);
  if (facts_node_is(f, attr, "attribute")) {
    if (*captum < 0) *captum = imports_captum(f);
    return *captum == 1;
  }
  /* the last name first: most calls are none of these, and a qualified
   * name costs a walk of the bindings */
  static const char *const names[] = {"grad", "jacobian", "hessian", "vjp", "jvp", "hvp", "vhp", NULL};
  uint32_t len;
  const char *t = ts_node_is_null(attr) ? NULL : facts_text(f, attr, &len);
  if (!t || !in_list(t, len, names) || !facts_qualname(f, fn, tmp)) return false;
  const char *q = buf_str(tmp);
  return !strcmp(q, "torch.autograd.grad") || !strncmp(q, "torch.autograd.functional.", 26);
}


/* `net.optim_step_(loss)` on an object of unknown class (a parameter, an
 * attribute): the project's methods of that name, when each runs a
 * backward pass (patch2pix's `Patch2Pix.optim_step_`). Only for names
 * particular enough to be looked for in every module and naming a step,
 * not a method of the file's own classes (judged by its body), nor an
 * imported module's function (`torch.from_numpy`). */
static bool backward_by_method_name(const facts *f, TSNode callee, buf *tmp) {
  if (!f->imports || !f->imports->method_backward_anywhere || ts_node_is_null(callee) || !NODE_IS(callee, "attribute"))
    return false;
  TSNode obj = FACT_FIELD(f, callee, object), attr = FACT_FIELD(f, callee, attribute);
  if (ts_node_is_null(obj) || ts_node_is_null(attr) || facts_node_is(f, obj, "self")) return false;
  if (!(NODE_IS(obj, "identifier") || (NODE_IS(obj, "attribute") && facts_node_is(f, FACT_FIELD(f, obj, object), "self"))))
    return false;
  uint32_t mlen;
  const char *method = facts_text(f, attr, &mlen);
  if (mlen < 8 || !memchr(method, '_', mlen)) return false;
  /* asking reads every module of the project: only for names of a
   * training step (`optim_step_`, `optimize_parameters`, `update_policy`) */
  static const char *const steps[] = {"step", "optim", "update", "backward", "train", "learn", NULL};
  bool named = false;
  for (size_t i = 0; steps[i] && !named; i++) named = facts_text_has_ci(method, mlen, steps[i]);
  if (!named) return false;
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *g = &f->functions.items[i];
    if (g->klass >= 0 && g->name_len == mlen && !memcmp(g->name, method, mlen)) return false;
  }
  if (NODE_IS(obj, "identifier") && facts_qualname(f, obj, tmp)) return false;
  return f->imports->method_backward_anywhere(f->imports, method, mlen);
}


/* Whether call C is `getattr(self, "prefix" + name)`: an attribute of self
 * read by a name built at run time. */
static bool own_getattr_prefix(const facts *f, const facts_call *c) {
  TSNode callee = FACT_FIELD(f, c->call, function), args = FACT_FIELD(f, c->call, arguments);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier") || !text_is(f, callee, "getattr") ||
      ts_node_is_null(args) || ts_node_named_child_count(args) < 2)
    return false;
  TSNode obj = ts_node_named_child(args, 0), key = ts_node_named_child(args, 1);
  if (!facts_node_is(f, obj, "self") || !NODE_IS(key, "binary_operator")) return false;
  TSNode left = FACT_FIELD(f, key, left);
  return !ts_node_is_null(left) && NODE_IS(left, "string") && ts_node_named_child_count(left) <= 3;
}


/* The function of the file that call I of F calls (facts_function_named),
 * kept in NAMED (-2: not asked yet). */
static int callee_named(const facts *f, int *named, size_t i) {
  assert(i < f->calls.len);
  if (named[i] == -2) named[i] = facts_function_named(f, FACT_FIELD(f, f->calls.items[i].call, function));
  return named[i];
}


/* Whether CALLEE is `name.method` where `name` is a parameter of the
 * function reading it. */
static bool parameter_object(const facts *f, TSNode callee) {
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return false;
  TSNode obj = FACT_FIELD(f, callee, object);
  if (ts_node_is_null(obj) || !NODE_IS(obj, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(f, obj, &len);
  return facts__parameter_of(f, name, len, facts_function_at(f, ts_node_start_byte(obj)));
}


/* Whether CALL hands a loss: its arguments name one (`losses`,
 * `sup_loss_nets`, `loss=total`), read off their text. */
static bool hands_loss(const facts *f, TSNode call) {
  TSNode args = FACT_FIELD(f, call, arguments);
  if (ts_node_is_null(args)) return false;
  uint32_t len;
  const char *t = facts_text(f, args, &len);
  return facts_text_has_ci(t, len, "loss");
}


/* `run_training_alignment("GCN", torch_fwd, ...)`: a function of the file
 * handed to a function of the file or the project that runs a backward
 * pass is called there and its output backpropagated (a forward closure
 * of a training loop): it is differentiated. */
static void mark_handed_to_training(facts *f, const uint8_t *project_backward, int *named) {
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    /* the callee first: few calls train, and their arguments are walked */
    int g = callee_named(f, named, i);
    bool trains = g >= 0 ? f->functions.items[g].backward : project_backward && project_backward[i];
    if (!trains) continue;
    TSNode args = FACT_FIELD(f, c->call, arguments);
    uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    for (uint32_t k = 0; k < n; k++) {
      TSNode a = ts_node_named_child(args, k);
      if (NODE_IS(a, "keyword_argument")) a = FACT_FIELD(f, a, value);
      if (ts_node_is_null(a) || !NODE_IS(a, "identifier")) continue;
      uint32_t alen;
      const char *an = facts_text(f, a, &alen);
      /* the definitions of that name the call sees: nested in its
       * function or one around it, or at module level (each test defines
       * its own `torch_fwd`) */
      for (size_t j = 0; j < f->functions.len; j++) {
        facts_function *h = &f->functions.items[j];
        if ((int)j == g || h->klass >= 0 || h->name_len != alen || memcmp(h->name, an, alen) != 0) continue;
        bool visible = h->parent < 0;
        for (int up = c->function; up >= 0 && !visible; up = f->functions.items[up].parent) visible = up == h->parent;
        if (visible) h->differentiated = true;
      }
    }
  }
}


/* Whether function H returns, from byte AFTER on, a value computed from
 * NAME (LEN bytes): `return q` after `q = critic(torch.cat((obs, action)))`. */
static bool returned_in(const facts *f, int h, const char *name, uint32_t len, uint32_t after) {
  const char *names[6] = {name};
  uint32_t lens[6] = {len};
  size_t n = facts__names_after(f, h, after, names, lens, 6, true);
  for (size_t i = 0; i < f->returns.len; i++) {
    const facts_call *r = &f->returns.items[i];
    if (r->function != h || ts_node_start_byte(r->call) < after) continue;
    for (size_t k = 0; k < n; k++)
      if (subtree_reads(f, r->call, names[k], lens[k], false)) return true;
  }
  return false;
}


/* Whether the result of CALL, made in function H, reaches a backward pass
 * there (`objective = -evaluate_q(obs).mean(); objective.backward()`) or,
 * when H's own result is backpropagated by its callers (DIFFERENTIATED), is
 * returned by it: the names it is bound to, or the statement it is in. */
static bool result_reaches_backward(const facts *f, TSNode call, int h, bool differentiated) {
  TSNode up = call, prev = call;
  for (int depth = 0; depth < 8; depth++) {
    prev = up;
    up = ts_node_parent(up);
    if (ts_node_is_null(up) || NODE_IS(up, "block") || NODE_IS(up, "function_definition") || NODE_IS(up, "lambda") ||
        NODE_IS(up, "expression_statement") || NODE_IS(up, "for_statement") || NODE_IS(up, "if_statement"))
      return false;
    if (NODE_IS(up, "return_statement")) return differentiated;
    /* `(-evaluate_q(obs).mean()).backward()` */
    if (NODE_IS(up, "attribute") && ts_node_eq(prev, FACT_FIELD(f, up, object)) &&
        text_is(f, FACT_FIELD(f, up, attribute), "backward"))
      return true;
    if (NODE_IS(up, "assignment")) break;
  }
  if (!NODE_IS(up, "assignment") || !ts_node_eq(prev, FACT_FIELD(f, up, right))) return false;
  TSNode left = FACT_FIELD(f, up, left);
  uint32_t after = ts_node_end_byte(up);
  uint32_t n = NODE_IS(left, "identifier") ? 1 : ts_node_named_child_count(left);
  if (!NODE_IS(left, "identifier") && !NODE_IS(left, "pattern_list") && !NODE_IS(left, "tuple_pattern")) return false;
  for (uint32_t i = 0; i < n; i++) {
    TSNode t = NODE_IS(left, "identifier") ? left : ts_node_named_child(left, i);
    if (!NODE_IS(t, "identifier")) continue;
    uint32_t len;
    const char *name = facts_text(f, t, &len);
    if (backpropagated_in(f, h, name, len, after)) return true;
    if (differentiated && returned_in(f, h, name, len, after)) return true;
  }
  return false;
}


/* A function of the file whose result is returned by a function whose own
 * result its caller backpropagates computes part of that graph (an actor's
 * `evaluate_policy`, whose action and log probability the critic term
 * returns into the objective a training step differentiates): it is
 * differentiated, and so is one whose result such a function returns.
 * The backpropagated function itself is not: its forwards are judged one
 * by one (a target network's, detached, in a DQN loss). */
static void mark_returned_into_backward(facts *f, int *named) {
  /* only functions that bind what another function of the file returns
   * can hand such a result on: most files have none worth the search */
  bool *hands_on = oom_xcalloc(f->functions.len + 1, sizeof *hands_on);
  bool *backpropagated = oom_xcalloc(f->functions.len + 1, sizeof *backpropagated);
  bool any = false;
  for (size_t i = 0; i < f->calls.len; i++) {
    int h = f->calls.items[i].function;
    if (h >= 0 && !hands_on[h] && callee_named(f, named, i) >= 0) hands_on[h] = any = true;
  }
  for (size_t i = 0; any && i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    int g = callee_named(f, named, i);
    if (g < 0 || g == c->function || !hands_on[g] || backpropagated[g]) continue;
    if (result_reaches_backward(f, c->call, c->function, false)) backpropagated[g] = true;
  }
  for (int round = 0; any && round < 4; round++) {
    bool changed = false;
    for (size_t i = 0; i < f->calls.len; i++) {
      const facts_call *c = &f->calls.items[i];
      int h = c->function, g = callee_named(f, named, i);
      if (g < 0 || h < 0 || g == h || f->functions.items[g].differentiated) continue;
      if (!backpropagated[h] && !f->functions.items[h].differentiated) continue;
      if (!result_reaches_backward(f, c->call, h, true)) continue;
      f->functions.items[g].differentiated = true;
      changed = true;
    }
    if (!changed) break;
  }
  free(hands_on);
  free(backpropagated);
}


/* facts_function.dict_form: a return of a dict display, of a name the
 * function binds to one, or (a second pass) of a call of such a function
 * of the file (`return self.classify_encoded(emb, labels)`). */
static void mark_dict_forms(facts *f) {
  /* the returns of calls, for the second pass (most returns are not) */
  size_t *calls = oom_xcalloc(f->returns.len + 1, sizeof *calls), ncalls = 0;
  for (int pass = 0; pass < 2; pass++) {
    size_t n = pass == 0 ? f->returns.len : ncalls;
    for (size_t j = 0; j < n; j++) {
      size_t i = pass == 0 ? j : calls[j];
      int g = f->returns.items[i].function;
      if (g < 0 || f->functions.items[g].dict_form) continue;
      TSNode value = ts_node_named_child(f->returns.items[i].call, 0);
      if (ts_node_is_null(value)) continue;
      if (pass == 0 && NODE_IS(value, "call")) calls[ncalls++] = i;
      bool form = false;
      if (pass == 0 && dict_display(f, value)) {
        form = true;
      } else if (pass == 0 && NODE_IS(value, "identifier")) {
        uint32_t len;
        const char *name = facts_text(f, value, &len);
        facts_span body = f->functions.items[g].body;
        size_t first, end;
        facts_bindings_named(f, name, len, &first, &end);
        for (size_t k = first; k < end && !form; k++) {
          const facts_binding *b = &f->bindings.items[k];
          form = b->pos >= body.start && b->pos < body.end && dict_display(f, b->value);
        }
      } else if (pass == 1 && NODE_IS(value, "call")) {
        int h = facts_function_named(f, FACT_FIELD(f, value, function));
        form = h >= 0 && h != g && f->functions.items[h].dict_form;
      }
      f->functions.items[g].dict_form |= form;
    }
  }
  free(calls);
  for (size_t i = 0; i < f->functions.len && !f->dict_entries; i++) {
    const facts_function *fn = &f->functions.items[i];
    f->dict_entries = fn->dict_form && fn->klass >= 0 &&
                      ((fn->name_len == 7 && !memcmp(fn->name, "forward", 7)) ||
                       (fn->name_len == 8 && !memcmp(fn->name, "__call__", 8)));
  }
}


/* Which functions train (call backward / step), through callees too, those
 * of this file and of the project's other modules. */
void facts__device_returns(facts *f);
static void float64_returns(facts *f);
void facts__summaries(facts *f);
void facts__summaries(facts *f) {
  buf tmp = {0};
  int captum = -1;
  uint8_t *project_backward = NULL; /* per call: a project function that backpropagates */
  /* per call: the function of the file it calls (facts_function_named),
   * asked once; -2 until asked */
  int *named = oom_xcalloc(f->calls.len + 1, sizeof *named);
  for (size_t i = 0; i < f->calls.len; i++) named[i] = -2;
  facts__device_returns(f);
  float64_returns(f);
  for (size_t i = 0; i < f->returns.len; i++) {
    TSNode value = ts_node_named_child(f->returns.items[i].call, 0);
    if (f->returns.items[i].function >= 0 && (NODE_IS(value, "expression_list") || NODE_IS(value, "tuple")))
      f->functions.items[f->returns.items[i].function].returns_tuple = true;
  }
  mark_dict_forms(f);
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    bool bw = is_backward(f, c->call, &tmp), own_bw = bw;
    if (bw) mark_differentiated(f, c);
    if (bw && !f->self_attr_backward && c->function >= 0 && f->functions.items[c->function].klass >= 0) {
      TSNode callee = FACT_FIELD(f, c->call, function);
      TSNode obj = NODE_IS(callee, "attribute") ? FACT_FIELD(f, callee, object) : NULL_NODE;
      f->self_attr_backward = !ts_node_is_null(obj) && NODE_IS(obj, "attribute") &&
                              facts_node_is(f, FACT_FIELD(f, obj, object), "self");
    }
    else mark_attributed(f, c, &tmp);
    /* `neg_score = self.predict_neg_score(...)` in a plain class's
     * `forward` or a loss function: part of what training backpropagates,
     * whatever its name says */
    if (c->function >= 0 && computes_loss(&f->functions.items[c->function])) {
      int g = callee_named(f, named, i);
      if (g >= 0 && g != c->function) f->functions.items[g].feeds_loss = true;
    }
    bool st = !bw && is_step(f, c->call), own_st = st;
    /* `train_one_epoch(model, loader, optimizer)` of the project's engine */
    uint32_t pt = f->imports ? project_training(f, FACT_FIELD(f, c->call, function)) : 0;
    bool grads = own_bw || (pt & SYM_GRADIENTS) || computes_gradients(f, c->call, &captum, &tmp);
    /* `autograd_gradients(loss, params)` of the project: as
     * `torch.autograd.grad` itself, the file differentiates */
    if (pt & SYM_GRADIENTS) f->file_gradients = true;
    pt &= ~(uint32_t)SYM_GRADIENTS;
    if (pt & SYM_BACKWARD) {
      bw = true;
      if (!project_backward) project_backward = oom_xcalloc(f->calls.len, 1);
      project_backward[i] = 1;
    }
    else if (pt & SYM_TRAINS) st = true;
    if (bw) f->file_backward = true;
    /* `maml(x_spt, y_spt, x_qry, y_qry)`: an instance of a project class
     * whose forward trains (a meta-learner, a trainer module): the file
     * trains. The calling function keeps its own verdict: the same forward
     * may only evaluate in eval mode (`if self.training: backward`). */
    facts_symbol inst;
    if (!f->file_backward && !bw && f->imports && NODE_IS(FACT_FIELD(f, c->call, function), "identifier") &&
        ((facts_instance_call_symbol(f, FACT_FIELD(f, c->call, function), &inst) &&
          (inst.flags & (SYM_BACKWARD | SYM_TRAINS))) ||
         (c->loop >= 0 && facts_names_training_instance(f, FACT_FIELD(f, c->call, function)))))
      f->file_backward = true;
    bool sc = scales_loss_call(f, c->call, &tmp);
    if (sc) f->file_scales_loss = true;
    if (c->function < 0) {
      if (own_st || (pt & SYM_UPDATES)) f->file_updates = true;
      continue;
    }
    facts_function *fn = &f->functions.items[c->function];
    if (grads) fn->gradients = true;
    if (sc) fn->scales_loss = true;
    if (own_bw) fn->own_backward = true;
    if (own_st || (pt & SYM_UPDATES)) fn->updates = true;
    if (bw) fn->backward = fn->trains = true;
    else if (st) fn->trains = true;
    if ((bw || st) && c->loop < 0 && (!pt || (pt & SYM_STEP))) fn->step = true;
  }
  /* `total_loss += getattr(self, "loss_" + name)` in a method that
   * backpropagates its own total: asked of such methods' calls only, once
   * the loop has settled `own_backward` */
  for (size_t i = 0; !f->self_attr_backward && i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    f->self_attr_backward = c->function >= 0 && f->functions.items[c->function].own_backward &&
                            f->functions.items[c->function].klass >= 0 && own_getattr_prefix(f, c);
  }
  /* a file with no backward pass of its own may call one through a method
   * of an object whose class it does not know; asked last, of such files
   * only (most files that train call `.backward()` or a known step) */
  bool own_backward = f->file_backward;
  for (size_t i = 0; !own_backward && f->imports && i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    /* not a fallback in an `except` clause (`loss_f.call_optimize(data,
     * model, None, storer)` when the plain call raised) */
    const facts_except *handler;
    if (c->loop < 0) continue;
    /* the method of a parameter the file's assignments of its name make
     * an instance of a project class (`netgroup.update(losses)` in
     * `train_one_epoch(netgroup, loader)`, beside `netgroup = NetGroup(3)`),
     * when the call hands it a loss */
    facts_symbol psym;
    TSNode callee = FACT_FIELD(f, c->call, function);
    if (!backward_by_method_name(f, callee, &tmp) &&
        !(parameter_object(f, callee) && hands_loss(f, c->call) && facts_parameter_method_symbol(f, callee, &psym) &&
          (psym.flags & SYM_BACKWARD)))
      continue;
    if (facts_excepts_at(f, ts_node_start_byte(c->call), &handler, 1)) continue;
    f->file_backward = true;
    f->loops.items[c->loop].evidence |= LOOP_CALLS_BACKWARD;
    if (c->function >= 0) f->functions.items[c->function].backward = f->functions.items[c->function].trains = true;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < f->calls.len; i++) {
      const facts_call *c = &f->calls.items[i];
      if (c->function < 0) continue;
      int g = callee_named(f, named, i);
      if (g < 0 || g == c->function) continue;
      facts_function *fn = &f->functions.items[c->function], *callee = &f->functions.items[g];
      bool step = callee->step && c->loop < 0;
      if ((callee->trains && !fn->trains) || (callee->backward && !fn->backward) || (step && !fn->step) ||
          (callee->scales_loss && !fn->scales_loss) || (callee->updates && !fn->updates) ||
          (callee->gradients && !fn->gradients)) {
        fn->gradients |= callee->gradients;
        fn->scales_loss |= callee->scales_loss;
        fn->updates |= callee->updates;
        fn->trains |= callee->trains;
        fn->backward |= callee->backward;
        fn->step |= step;
        changed = true;
      }
    }
  }
  for (size_t i = 0; i < f->functions.len; i++)
    if (f->functions.items[i].updates) f->file_updates = true;
  /* only where something backpropagates: a function of the file, or a
   * call of the project's */
  bool any_backward = project_backward != NULL;
  for (size_t i = 0; i < f->functions.len && !any_backward; i++) any_backward = f->functions.items[i].backward;
  if (any_backward) {
    mark_handed_to_training(f, project_backward, named);
    mark_returned_into_backward(f, named);
  }
  free(project_backward);
  /* a loop that calls a training step of this file runs once per batch; one
   * that calls a function holding its own batch loop is an epoch loop */
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (c->loop < 0) continue;
    int g = callee_named(f, named, i);
    if (g >= 0 && f->functions.items[g].step) f->loops.items[c->loop].evidence |= LOOP_CALLS_BACKWARD;
    else if (g < 0 && f->imports && (project_training(f, FACT_FIELD(f, c->call, function)) & SYM_STEP))
      f->loops.items[c->loop].evidence |= LOOP_CALLS_BACKWARD;
  }
  free(named);
  buf_free(&tmp);
}


/* The parameters of the function analysed (but `self` and `cls`) hold what
 * its callers pass: V_ARG. */
/* Whether the annotation TYPE names plain Python data only (`str`,
 * `List[str]`, `Optional[Dict[str, int]]`): no tensor, no module. */
static bool plain_annotation(const facts *f, TSNode type) {
  static const char *const plain[] = {"str", "int", "float", "bool", "bytes", "None", "List", "list", "Tuple",
                                      "tuple", "Dict", "dict", "Set", "set", "Optional", "Sequence", "Iterable",
                                      "Union", "typing", NULL};
  if (ts_node_is_null(type)) return false;
  uint32_t len;
  const char *t = facts_text(f, type, &len);
  for (uint32_t i = 0; i < len;) {
    if (!isalpha((unsigned char)t[i]) && t[i] != '_') {
      i++;
      continue;
    }
    uint32_t j = i;
    while (j < len && (isalnum((unsigned char)t[j]) || t[j] == '_')) j++;
    if (!in_list(t + i, j - i, plain)) return false;
    i = j;
  }
  return len > 0;
}


static void bind_parameters(analysis *a, state *st, TSNode params) {
  uint32_t n = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    /* `domains: List[str]`: what the callers hand is no tensor */
    if ((NODE_IS(p, "typed_parameter") || NODE_IS(p, "typed_default_parameter")) &&
        plain_annotation(a->f, FACT_FIELD(a->f, p, type)))
      continue;
    if (!NODE_IS(p, "identifier")) {
      TSNode name = FACT_FIELD(a->f, p, name);
      p = ts_node_is_null(name) && ts_node_named_child_count(p) ? ts_node_named_child(p, 0) : name;
    }
    if (ts_node_is_null(p) || !NODE_IS(p, "identifier") || text_is(a->f, p, "self") || text_is(a->f, p, "cls")) continue;
    set_name(a, st, p, V_ARG);
  }
}


static void analyse(facts *f, int function, bool *changed) {
  analysis a = {f, function, false, 0, false, false, {0}, {0}, {0}, 0, {0}, {0}, {0}};
  collect_evidence(&a);
  state st = {0};
  if (function < 0) {
    run_block(&a, &st, f->root);
  } else {
    facts_function *fn = &f->functions.items[function];
    /* only the elements of returned tuples and the entries of returned
     * dicts keep V_ARG: elsewhere it is dead weight */
    if (fn->returns_tuple || fn->dict_form) bind_parameters(&a, &st, FACT_FIELD(f, fn->node, parameters));
    /* the dicts' keys are read anew each run (a callee's may have settled
     * since): a change asks for another round */
    bool dict_returns = fn->dict_returns, dict_other = fn->dict_other;
    uint64_t graph_keys = fn->graph_keys;
    fn->dict_returns = fn->dict_other = false;
    fn->graph_keys = 0;
    run_block(&a, &st, FACT_FIELD(f, fn->node, body));
    fn = &f->functions.items[function];
    /* another round only when a caller read one of the file's dict
     * summaries: most files' dicts are never read key by key */
    if ((fn->dict_returns != dict_returns || fn->dict_other != dict_other || fn->graph_keys != graph_keys) &&
        f->dict_summary_read)
      a.changed = true;
  }
  if (a.changed) *changed = true;
  vec_free(&st);
  vec_free(&a.marked);
  vec_free(&a.keyed);
  vec_free(&a.dicts);
  buf_free(&a.tmp);
}


/* Analyses UNIT (a function, -1 for module level) unless nothing it reads
 * changed since its last run. A unit reads the rest of the file only through
 * the summaries and the producers, and writes only its own names' taint, so
 * a rerun on the same inputs would write what is there already. VERSION
 * counts the runs that changed a summary or added a producer; RAN_AT holds
 * its value when each unit last started (0: never). */
static void analyse_if_stale(facts *f, int unit, size_t *ran_at, size_t *version, bool *changed) {
  size_t *at = &ran_at[unit + 1];
  if (*at == *version) return;
  *at = *version;
  bool here = false;
  size_t producers = f->producers.len;
  analyse(f, unit, &here);
  if (here || f->producers.len != producers) ++*version;
  if (here) *changed = true;
}


void facts__graph(facts *f);
void facts__graph(facts *f) {
  f->taint = oom_xcalloc(f->length + 1, 1);
  find_submodule_targets(f);
  size_t *ran_at = oom_xcalloc(f->functions.len + 1, sizeof *ran_at);
  size_t version = 1;
  /* evidence first everywhere, so producers found in one function are
   * models in all of them; then rounds until the summaries settle */
  for (int round = 0; round < MAX_ROUNDS; round++) {
    bool changed = false;
    size_t producers = f->producers.len;
    analyse_if_stale(f, -1, ran_at, &version, &changed);
    for (size_t i = 0; i < f->functions.len; i++) analyse_if_stale(f, (int)i, ran_at, &version, &changed);
    /* the functions read each other only through their summaries and the
     * producers: when neither changed, another round would repeat this one */
    if (!changed && f->producers.len == producers) break;
  }
  free(ran_at);
}


/* ---- questions the predicates ask ---- */

facts_value facts_value_of(const facts *self, TSNode node) {
  facts_value v = {false, false, false};
  if (ts_node_is_null(node) || !self->taint) return v;
  if (facts_in_no_grad(self, ts_node_start_byte(node))) return v;
  /* evaluate NODE again, reading each name as the analysis recorded it there;
   * replay never writes, so the facts stay shared and immutable */
  analysis a = {(facts *)self, facts_function_at(self, ts_node_start_byte(node)), false, 0, false, true, {0}, {0}, {0}, 0, {0}, {0}, {0}};
  state st = {0};
  unsigned r = eval(&a, &st, node);
  vec_free(&a.marked);
  vec_free(&a.keyed);
  vec_free(&a.dicts);
  buf_free(&a.tmp);
  v.graph = r & V_GRAPH;
  v.scalar = r & V_SCALAR;
  v.divided = r & V_DIVIDED;
  return v;
}


/* Whether CALL backpropagates the name NAME: `name.backward()`,
 * `scaler.scale(name).backward()`, `accelerator.backward(name)`,
 * `autograd.grad(name, params)`. */
static bool backpropagates(const facts *f, TSNode call, const char *name, uint32_t len) {
  TSNode fn = FACT_FIELD(f, call, function);
  if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) return false;
  TSNode obj = FACT_FIELD(f, fn, object);
  uint32_t al;
  const char *at = facts_text(f, FACT_FIELD(f, fn, attribute), &al);
  if (al == 4 && !memcmp(at, "grad", 4)) {
    /* `torch.autograd.grad(outputs, inputs)`: the outputs are differentiated */
    TSNode args = FACT_FIELD(f, call, arguments);
    uint32_t ol, l;
    const char *o = facts_text(f, obj, &ol);
    if (ol < 8 || memcmp(o + ol - 8, "autograd", 8) || ts_node_is_null(args) || !ts_node_named_child_count(args))
      return false;
    const char *t = facts_text(f, ts_node_named_child(args, 0), &l);
    return l == len && !memcmp(t, name, len);
  }
  if (al == 4 && !memcmp(at, "step", 4)) {
    /* `diffopt.step(loss)`: higher's differentiable optimizer takes the
     * gradients of the loss it is handed (an optimizer's own `step` takes
     * a closure, never a loss) */
    TSNode args = FACT_FIELD(f, call, arguments);
    if (ts_node_is_null(args) || ts_node_named_child_count(args) != 1) return false;
    TSNode a = ts_node_named_child(args, 0);
    uint32_t l;
    const char *t = NODE_IS(a, "identifier") ? facts_text(f, a, &l) : NULL;
    return t && l == len && !memcmp(t, name, len) && facts__named_as_loss(t, l);
  }
  if (al != 8 || memcmp(at, "backward", 8) != 0) return false;
  TSNode args[2] = {FACT_FIELD(f, call, arguments), NODE_IS(obj, "call") ? FACT_FIELD(f, obj, arguments) : NULL_NODE};
  uint32_t l;
  const char *t = facts_text(f, obj, &l);
  if (l == len && !memcmp(t, name, len)) return true;
  /* `losses["total_loss"].backward()`: the dict of losses NAME */
  if (NODE_IS(obj, "subscript") && NODE_IS(FACT_FIELD(f, obj, subscript), "string")) {
    t = facts_text(f, FACT_FIELD(f, obj, value), &l);
    if (l == len && !memcmp(t, name, len)) return true;
  }
  for (int k = 0; k < 2; k++) {
    if (ts_node_is_null(args[k]) || !ts_node_named_child_count(args[k])) continue;
    t = facts_text(f, ts_node_named_child(args[k], 0), &l);
    if (l == len && !memcmp(t, name, len)) return true;
  }
  return false;
}


/* Whether the subtree NODE holds the name or `self.x` NAME (LEN bytes): as
 * an argument of a call in it when ARGS, anywhere when not. Iterative. */
static bool subtree_reads(const facts *f, TSNode node, const char *name, uint32_t len, bool args) {
  TSTreeCursor c = ts_tree_cursor_new(node);
  bool found = false;
  for (int guard = 0; guard < 100000 && !found; guard++) {
    TSNode k = ts_tree_cursor_current_node(&c);
    if (args && NODE_IS(k, "argument_list")) {
      uint32_t n = ts_node_named_child_count(k);
      for (uint32_t i = 0; i < n && !found; i++) {
        TSNode a = ts_node_named_child(k, i);
        if (NODE_IS(a, "keyword_argument")) a = FACT_FIELD(f, a, value);
        uint32_t l;
        const char *t = ts_node_is_null(a) ? "" : facts_text(f, a, &l);
        found = !ts_node_is_null(a) && l == len && !memcmp(t, name, len);
      }
    } else if (!args && (NODE_IS(k, "identifier") || NODE_IS(k, "attribute"))) {
      uint32_t l;
      const char *t = facts_text(f, k, &l);
      found = l == len && !memcmp(t, name, len);
    }
    if (found) break;
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, node)) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}


bool facts_recurrence(const facts *self, TSNode stmt) {
  TSNode acc = FACT_FIELD(self, stmt, left), value = FACT_FIELD(self, stmt, right);
  if (ts_node_is_null(acc) || ts_node_is_null(value) || !(NODE_IS(acc, "identifier") || is_self_attr(self, acc)))
    return false;
  uint32_t len;
  const char *name = facts_text(self, acc, &len);
  if (NODE_IS(stmt, "assignment")) {
    /* `x = x + v` or `x = v + x`: V is the other operand */
    if (!NODE_IS(value, "binary_operator")) return false;
    TSNode l = FACT_FIELD(self, value, left), r = FACT_FIELD(self, value, right);
    uint32_t ll;
    const char *lt = facts_text(self, l, &ll);
    value = ll == len && !memcmp(lt, name, len) ? r : l;
  }
  return !ts_node_is_null(value) && subtree_reads(self, value, name, len, true);
}


/* Whether RIGHT reads NAME (LEN bytes) as `name.detach()`, `name.data` or
 * `name.item()`: a value bound from it so carries none of its graph. */
static bool detached_read(const facts *f, TSNode right, const char *name, uint32_t len) {
  uint32_t rl;
  const char *r = facts_text(f, right, &rl);
  static const char *const cuts[] = {".detach(", ".data", ".item(", NULL};
  for (uint32_t i = 0; i + len <= rl; i++) {
    if (memcmp(r + i, name, len) != 0) continue;
    for (size_t k = 0; cuts[k]; k++) {
      size_t cl = strlen(cuts[k]);
      if (i + len + cl <= rl && !memcmp(r + i + len, cuts[k], cl)) return true;
    }
  }
  return false;
}


size_t facts__names_after(const facts *f, int fn, uint32_t after, const char **names, uint32_t *lens, size_t max,
                          bool chain) {
  assert(max >= 1);
  facts_span scope = fn >= 0 ? f->functions.items[fn].body : (facts_span){0, (uint32_t)f->length + 1};
  size_t n = 1;
  /* assignments are in document order: from the first at or after AFTER */
  size_t lo = facts_first_assign_at(f, after);
  for (size_t i = lo; i < f->assigns.len && n < max; i++) {
    TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
    uint32_t at = ts_node_start_byte(left);
    if (at >= scope.end) break;
    if (at < after || !NODE_IS(left, "identifier") || facts_function_at(f, at) != fn) continue;
    /* with CHAIN, through the names already found too */
    uint32_t ll;
    const char *l = facts_text(f, left, &ll);
    bool known = false;
    for (size_t k = 0; k < n && !known; k++) known = lens[k] == ll && !memcmp(names[k], l, ll);
    if (known) continue; /* `baselines = list(concat(baselines))` */
    for (size_t k = 0; k < (chain ? n : 1); k++)
      if (subtree_reads(f, right, names[k], lens[k], false) && !detached_read(f, right, names[k], lens[k])) {
        names[n] = l;
        lens[n] = ll;
        n++;
        break;
      }
  }
  return n;
}


size_t facts__sums_after(const facts *f, int fn, uint32_t after, const char **names, uint32_t *lens, size_t n,
                         size_t max) {
  assert(n >= 1 && n <= max);
  facts_span scope = fn >= 0 ? f->functions.items[fn].body : (facts_span){0, (uint32_t)f->length + 1};
  if (after >= scope.end) return n;
  TSNode body = fn >= 0 ? ts_node_descendant_for_byte_range(f->root, scope.start, scope.end) : f->root;
  TSTreeCursor c = ts_tree_cursor_new(body);
  for (int guard = 0; guard < 200000 && n < max; guard++) {
    TSNode k = ts_tree_cursor_current_node(&c);
    bool descend = ts_node_end_byte(k) > after;
    /* both kinds of assignment, in document order, those of nested
     * functions aside: a name found goes on through the later ones */
    if (descend && ts_node_start_byte(k) >= after && (NODE_IS(k, "assignment") || NODE_IS(k, "augmented_assignment")) &&
        facts_function_at(f, ts_node_start_byte(k)) == fn) {
      TSNode left = FACT_FIELD(f, k, left), right = FACT_FIELD(f, k, right);
      if (!ts_node_is_null(left) && NODE_IS(left, "identifier") && !ts_node_is_null(right)) {
        uint32_t ll;
        const char *l = facts_text(f, left, &ll);
        bool known = false, reads = false;
        for (size_t i = 0; i < n && !known; i++) known = lens[i] == ll && !memcmp(names[i], l, ll);
        for (size_t i = 0; i < n && !known && !reads; i++)
          reads = subtree_reads(f, right, names[i], lens[i], false) && !detached_read(f, right, names[i], lens[i]);
        if (reads) {
          names[n] = l;
          lens[n++] = ll;
        }
      }
    }
    /* statements only: an assignment sits in an expression statement,
     * never inside an expression, nor is a nested function's looked at */
    static const char *const statements[] = {"block", "module", "expression_statement", "if_statement",
                                             "elif_clause", "else_clause", "for_statement", "while_statement",
                                             "with_statement", "try_statement", "except_clause",
                                             "finally_clause", NULL};
    bool statement = false;
    const char *type = ts_node_type(k);
    for (size_t i = 0; statements[i] && !statement; i++) statement = !strcmp(type, statements[i]);
    if (descend && statement && ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, body)) break;
  }
  ts_tree_cursor_delete(&c);
  return n;
}


/* Whether NAME (LEN bytes), bound by the statement holding CALL, reaches a
 * backward pass after it in its function (facts_result_backpropagated). */
static bool bound_result_backpropagated(const facts *self, TSNode call, const char *name, uint32_t len) {
  uint32_t pos = ts_node_start_byte(call);
  int fn = facts_function_at(self, pos);
  facts_span scope = fn >= 0 ? self->functions.items[fn].body : (facts_span){0, (uint32_t)self->length + 1};
  const char *names[4] = {name};
  uint32_t lens[4] = {len};
  size_t nnames = facts__names_after(self, fn, pos, names, lens, 4, false);
  /* a backward after the call, before any `.train()` starts another phase
   * (a validation loop ahead of the epoch's training), reading the name as
   * the call's statement left it (not bound again in between: the
   * training loop's own `output = model(x)`) */
  for (size_t i = facts_first_call_at(self, pos); i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    uint32_t at = ts_node_start_byte(c->call);
    if (at >= scope.end) break;
    if (at <= pos || c->function != fn) continue;
    TSNode callee = FACT_FIELD(self, c->call, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) continue;
    TSNode m = FACT_FIELD(self, callee, attribute), args = FACT_FIELD(self, c->call, arguments);
    if (text_is(self, m, "train") && (ts_node_is_null(args) || ts_node_named_child_count(args) == 0)) return false;
    if (!text_is(self, m, "backward")) continue;
    /* the aliases made after the call (`loss = crit(logits, y)`) are bound
     * there by design; the call's own name must not be */
    long a = facts__last_assign_before(self, name, len, at, fn);
    if (a >= 0 && ts_node_start_byte(self->assigns.items[a].left) > pos) continue;
    for (size_t k = 0; k < nnames; k++)
      if (backpropagates(self, c->call, names[k], lens[k])) return true;
  }
  return false;
}


/* Whether a method of class KLASS that calls `.backward()` itself hands
 * the attribute ATTR (`self.log_probs`, LEN bytes) to a call: the buffer
 * it builds its loss from (`zip(self.log_probs, returns)`,
 * `self.calculate_loss(self.log_probs, ...)`). */
static bool attribute_read_by_backward_method(const facts *f, int klass, const char *attr, uint32_t len) {
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (c->function < 0 || f->functions.items[c->function].klass != klass ||
        !f->functions.items[c->function].own_backward)
      continue;
    TSNode args = FACT_FIELD(f, c->call, arguments);
    if (ts_node_is_null(args)) continue;
    uint32_t tl;
    const char *t = facts_text(f, args, &tl);
    if (facts__mentions(t, tl, attr, len)) return true;
  }
  return false;
}


/* Whether, after CALL in its method, a value read from the names NAMES
 * (NNAMES of them, the names CALL's result is bound to) is appended to a
 * list attribute of self that a method of the class backpropagates:
 * REINFORCE's `self.log_probs.append(dist.log_prob(action))` in the
 * acting method, `loss = sum(-lp * r for lp, r in zip(self.log_probs,
 * returns)); loss.backward()` at the episode's end. The forward is part of
 * training when the agent learns, whatever the acting method is called. */
static bool appended_for_method_backward(const facts *f, TSNode call, const char **names, uint32_t *lens,
                                         size_t nnames) {
  uint32_t pos = ts_node_start_byte(call);
  int fn = facts_function_at(f, pos);
  if (fn < 0 || f->functions.items[fn].klass < 0 || nnames == 0) return false;
  enum { MAX = 32, EACH = 8 };
  const char *all[MAX];
  uint32_t all_lens[MAX];
  size_t n = 0;
  /* `dist = Categorical(probs)`, `log_prob = dist.log_prob(action)`: the
   * names bound from each of the result's names */
  for (size_t k = 0; k < nnames && n + EACH <= MAX; k++) {
    if (lens[k] == 1 && names[k][0] == '_') continue; /* `probs, _ = model(x)` */
    all[n] = names[k], all_lens[n] = lens[k];
    n += facts__names_after(f, fn, pos, all + n, all_lens + n, EACH, true);
  }
  facts_span scope = f->functions.items[fn].body;
  for (size_t i = facts_first_call_at(f, pos); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= scope.end) break;
    if (c->function != fn || ts_node_start_byte(c->call) <= pos) continue;
    TSNode callee = FACT_FIELD(f, c->call, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) continue;
    TSNode m = FACT_FIELD(f, callee, attribute), list = FACT_FIELD(f, callee, object);
    if (!(text_is(f, m, "append") || text_is(f, m, "extend")) || ts_node_is_null(list) || !is_self_attr(f, list))
      continue;
    TSNode args = FACT_FIELD(f, c->call, arguments);
    bool reads = false;
    for (size_t k = 0; k < n && !reads && !ts_node_is_null(args); k++)
      reads = subtree_reads(f, args, all[k], all_lens[k], false) && !detached_read(f, args, all[k], all_lens[k]);
    uint32_t al;
    const char *attr = facts_text(f, list, &al);
    if (reads && attribute_read_by_backward_method(f, f->functions.items[fn].klass, attr, al)) return true;
  }
  return false;
}


/* The names the statement holding CALL binds its result to: `x = ...call...`
 * or `x += ...call...` (one), `a, b = call` (its first names); 0 when the
 * result is not bound to a name. */
static size_t result_names(const facts *self, TSNode call, const char **names, uint32_t *lens, size_t max,
                           TSNode *stmt) {
  TSNode up = ts_node_parent(call);
  for (int guard = 0; guard < 8 && !ts_node_is_null(up) && !NODE_IS(up, "assignment") &&
                      !NODE_IS(up, "augmented_assignment");
       guard++) {
    if (NODE_IS(up, "block") || NODE_IS(up, "expression_statement") || NODE_IS(up, "lambda")) return 0;
    up = ts_node_parent(up);
  }
  if (ts_node_is_null(up) || !(NODE_IS(up, "assignment") || NODE_IS(up, "augmented_assignment"))) return 0;
  TSNode left = FACT_FIELD(self, up, left);
  if (ts_node_is_null(left)) return 0;
  if (stmt) *stmt = up;
  if (NODE_IS(left, "identifier")) {
    names[0] = facts_text(self, left, &lens[0]);
    return 1;
  }
  /* `loss, err = agent.evaluate_q(...)`: the call itself unpacked */
  if (!(NODE_IS(left, "pattern_list") || NODE_IS(left, "tuple_pattern")) || !ts_node_eq(FACT_FIELD(self, up, right), call))
    return 0;
  size_t n = 0;
  for (uint32_t k = 0, nk = ts_node_named_child_count(left); k < nk && n < max; k++) {
    TSNode e = ts_node_named_child(left, k);
    if (NODE_IS(e, "identifier")) names[n] = facts_text(self, e, &lens[n]), n++;
  }
  return n;
}


bool facts_result_backpropagated(const facts *self, TSNode call) {
  const char *names[4];
  uint32_t lens[4];
  size_t n = result_names(self, call, names, lens, 4, NULL);
  /* `loss, err = agent.evaluate_q(...)` then `loss.backward()`: any of
   * the names */
  for (size_t k = 0; k < n; k++)
    if (bound_result_backpropagated(self, call, names[k], lens[k])) return true;
  return appended_for_method_backward(self, call, names, lens, n);
}


bool facts_result_returned(const facts *self, TSNode call) {
  const char *names[4];
  uint32_t lens[4];
  TSNode stmt = NULL_NODE;
  size_t n = result_names(self, call, names, lens, 4, &stmt);
  int fn = facts_function_at(self, ts_node_start_byte(call));
  if (!n || fn < 0) return false;
  /* `next_q = self.target(s).gather(1, a).detach()`: bound cut from its
   * graph, whatever is returned after */
  uint32_t rl, ce = ts_node_end_byte(call), re = ts_node_end_byte(stmt);
  const char *r = facts_text(self, call, &rl);
  if (re > ce && cuts_graph(r + rl, re - ce)) return false;
  enum { MAX = 16, EACH = 4 };
  const char *all[MAX];
  uint32_t all_lens[MAX];
  size_t m = 0;
  for (size_t k = 0; k < n && m + EACH <= MAX; k++) {
    if (lens[k] == 1 && names[k][0] == '_') continue;
    all[m] = names[k], all_lens[m] = lens[k];
    m += facts__names_after(self, fn, ts_node_end_byte(stmt), all + m, all_lens + m, EACH, true);
  }
  for (size_t i = 0; i < self->returns.len; i++) {
    const facts_call *ret = &self->returns.items[i];
    if (ret->function != fn || ts_node_start_byte(ret->call) < re) continue;
    TSNode v = ts_node_named_child(ret->call, 0);
    for (size_t k = 0; k < m && !ts_node_is_null(v); k++)
      if (subtree_reads(self, v, all[k], all_lens[k], false) && !detached_read(self, v, all[k], all_lens[k]))
        return true;
  }
  return false;
}


bool facts_result_buffered_for_backward(const facts *self, TSNode call) {
  /* a method of a class one of whose methods backpropagates itself: asked
   * before the statement around CALL is looked for */
  int fn = facts_function_at(self, ts_node_start_byte(call));
  int klass = fn >= 0 ? self->functions.items[fn].klass : -1;
  bool backward = false;
  for (size_t i = 0; klass >= 0 && i < self->functions.len && !backward; i++)
    backward = self->functions.items[i].klass == klass && self->functions.items[i].own_backward;
  if (!backward) return false;
  const char *names[4];
  uint32_t lens[4];
  size_t n = result_names(self, call, names, lens, 4, NULL);
  return appended_for_method_backward(self, call, names, lens, n);
}


/* Whether a method of the file's classes backpropagates the attribute
 * ATTR (`self.loss`, LEN bytes): `self.loss.backward()`. */
static bool self_attribute_backpropagated(const facts *f, const char *attr, uint32_t len) {
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (c->function < 0 || f->functions.items[c->function].klass < 0) continue;
    TSNode callee = FACT_FIELD(f, c->call, function);
    if (ts_node_is_null(callee)) continue;
    if (NODE_IS(callee, "attribute") && text_is(f, FACT_FIELD(f, callee, attribute), "backward")) {
      uint32_t l;
      const char *t = facts_text(f, FACT_FIELD(f, callee, object), &l);
      if (l == len && !memcmp(t, attr, len)) return true;
    } else if (f->functions.items[c->function].own_backward && own_getattr_prefix(f, c)) {
      /* `total_loss += getattr(self, "loss_" + name)` in the method that
       * backpropagates total_loss: every `self.loss_*` it names */
      TSNode prefix = FACT_FIELD(f, ts_node_named_child(FACT_FIELD(f, c->call, arguments), 1), left);
      uint32_t pl;
      const char *p = facts_text(f, prefix, &pl);
      if (pl >= 3 && len > 5 && len - 5 >= pl - 2 && !memcmp(attr + 5, p + 1, pl - 2)) return true;
    }
  }
  return false;
}


bool facts__left_on_self_for_backward(const facts *f, int fn, uint32_t after, const char **names, uint32_t *lens,
                                      size_t n, size_t max) {
  assert(n >= 1 && n <= max);
  if (fn < 0 || f->functions.items[fn].klass < 0) return false;
  /* most files backpropagate no attribute of self, and no base class of
   * theirs runs the method before one: nothing to walk */
  bool base = f->base_called && (f->base_called[fn] & FACTS_CALLED_BACKPROP);
  if (!f->self_attr_backward && !base) return false;
  facts_span scope = f->functions.items[fn].body;
  if (after >= scope.end) return false;
  TSNode body = ts_node_descendant_for_byte_range(f->root, scope.start, scope.end);
  TSTreeCursor c = ts_tree_cursor_new(body);
  bool found = false;
  for (int guard = 0; guard < 200000 && !found; guard++) {
    TSNode k = ts_tree_cursor_current_node(&c);
    bool descend = ts_node_end_byte(k) > after;
    /* assignments in document order, those of nested functions aside */
    if (descend && ts_node_start_byte(k) >= after && (NODE_IS(k, "assignment") || NODE_IS(k, "augmented_assignment")) &&
        facts_function_at(f, ts_node_start_byte(k)) == fn) {
      TSNode left = FACT_FIELD(f, k, left), right = FACT_FIELD(f, k, right);
      bool reads = false;
      for (size_t i = 0; i < n && !reads && !ts_node_is_null(right); i++)
        reads = subtree_reads(f, right, names[i], lens[i], false) && !detached_read(f, right, names[i], lens[i]);
      if (reads && NODE_IS(left, "identifier") && n < max) {
        /* `rl_loss += t_policy_loss + t_critic_loss`: the sum goes on */
        uint32_t ll;
        const char *l = facts_text(f, left, &ll);
        bool known = false;
        for (size_t i = 0; i < n && !known; i++) known = lens[i] == ll && !memcmp(names[i], l, ll);
        if (!known) {
          names[n] = l;
          lens[n++] = ll;
        }
      } else if (reads && NODE_IS(left, "attribute") && facts_node_is(f, FACT_FIELD(f, left, object), "self")) {
        uint32_t al;
        const char *attr = facts_text(f, left, &al);
        found = base || self_attribute_backpropagated(f, attr, al);
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, body)) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}


/* The name of parameter K of function G, `self` skipped for a method; a
 * null node when there is none. */
static TSNode parameter_at(const facts *f, int g, uint32_t k) {
  TSNode params = FACT_FIELD(f, f->functions.items[g].node, parameters);
  if (ts_node_is_null(params)) return NULL_NODE;
  uint32_t skip = f->functions.items[g].klass >= 0 ? 1 : 0, n = ts_node_named_child_count(params);
  if (k + skip >= n) return NULL_NODE;
  TSNode p = ts_node_named_child(params, k + skip);
  if (NODE_IS(p, "default_parameter") || NODE_IS(p, "typed_parameter") || NODE_IS(p, "typed_default_parameter"))
    p = NODE_IS(p, "typed_parameter") ? ts_node_named_child(p, 0) : FACT_FIELD(f, p, name);
  return !ts_node_is_null(p) && NODE_IS(p, "identifier") ? p : NULL_NODE;
}


/* Whether function FN returns one of NAMES after AFTER and a caller in the
 * file differentiates what it returns: `support_loss = self.forward(loader,
 * weights)` (a meta-learner's task loss summed over its loader), then
 * `self.inner_loop_update(inner_epoch_loss=support_loss, ...)` whose
 * `torch.autograd.grad(inner_epoch_loss, ...)` takes it, or the caller's
 * own backward of it. */
static bool returned_for_differentiation(const facts *f, int fn, uint32_t after, const char *const *names,
                                         const uint32_t *lens, size_t n) {
  if (fn < 0) return false;
  bool returned = false;
  for (size_t i = 0; i < f->returns.len && !returned; i++) {
    const facts_call *r = &f->returns.items[i];
    if (r->function != fn || ts_node_start_byte(r->call) < after || !ts_node_named_child_count(r->call)) continue;
    TSNode v = ts_node_named_child(r->call, 0);
    for (size_t k = 0; k < n && !returned; k++) returned = NODE_IS(v, "identifier") && facts_text_is(f, v, names[k], lens[k]);
  }
  if (!returned) return false;
  const facts_function *d = &f->functions.items[fn];
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (c->function < 0 || c->function == fn) continue;
    /* the callee's name first, off the text: most calls are of other functions */
    if (!facts__call_named(f, c->call, d->name, d->name_len)) continue;
    TSNode callee = FACT_FIELD(f, c->call, function);
    if (ts_node_is_null(callee) || facts_function_named(f, callee) != fn) continue;
    TSNode up = ts_node_parent(c->call);
    if (ts_node_is_null(up) || !NODE_IS(up, "assignment") || !NODE_IS(FACT_FIELD(f, up, left), "identifier")) continue;
    uint32_t rl, end = ts_node_end_byte(c->call);
    const char *rn = facts_text(f, FACT_FIELD(f, up, left), &rl);
    if (backpropagated_in(f, c->function, rn, rl, end)) return true;
    /* handed to a function of the file whose parameter it binds is differentiated there */
    facts_span scope = f->functions.items[c->function].body;
    for (size_t j = facts_first_call_at(f, end); j < f->calls.len; j++) {
      const facts_call *h = &f->calls.items[j];
      if (ts_node_start_byte(h->call) >= scope.end) break;
      if (h->function != c->function) continue;
      int g = facts_function_named(f, FACT_FIELD(f, h->call, function));
      if (g < 0 || g == fn || !(f->functions.items[g].own_backward || f->functions.items[g].gradients)) continue;
      TSNode args = FACT_FIELD(f, h->call, arguments);
      for (uint32_t k = 0, m = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args); k < m; k++) {
        TSNode a = ts_node_named_child(args, k), param = NULL_NODE;
        if (NODE_IS(a, "keyword_argument")) {
          param = FACT_FIELD(f, a, name);
          a = FACT_FIELD(f, a, value);
        } else {
          param = parameter_at(f, g, k);
        }
        if (ts_node_is_null(a) || ts_node_is_null(param) || !NODE_IS(a, "identifier") || !facts_text_is(f, a, rn, rl))
          continue;
        uint32_t pl;
        const char *pn = facts_text(f, param, &pl);
        if (backpropagated_in(f, g, pn, pl, f->functions.items[g].body.start)) return true;
      }
    }
  }
  return false;
}


bool facts_backpropagated_after_loop(const facts *self, TSNode stmt) {
  TSNode acc = FACT_FIELD(self, stmt, left);
  /* `losses_q[k + 1] += loss_q`: the list of sums, read after the loop as
   * a whole (`loss_q = losses_q[-1] / task_num`, MAML's meta-loss) */
  if (!ts_node_is_null(acc) && NODE_IS(acc, "subscript")) acc = FACT_FIELD(self, acc, value);
  if (ts_node_is_null(acc) || !NODE_IS(acc, "identifier")) return false;
  uint32_t pos = ts_node_start_byte(stmt);
  /* the loop the sum outlives: the outermost per-iteration loop of its function */
  int loop = facts_iteration_loop_at(self, pos);
  if (loop < 0) return false;
  int fn = self->loops.items[loop].function;
  for (int o = self->loops.items[loop].outer; o >= 0 && self->loops.items[o].function == fn; o = self->loops.items[o].outer)
    if (self->loops.items[o].per_iteration) loop = o;
  const facts_loop *l = &self->loops.items[loop];
  /* a training loop's running sum: whatever follows the loop, every batch
   * already had its update and the sum only keeps their graphs. A loop that
   * takes gradients without stepping (`autograd.grad` per environment, a
   * penalty's) may still differentiate the sum after it. */
  if (l->evidence & LOOP_CALLS_STEP) return false;
  /* the names the sum goes by after the loop: its own, and names bound from
   * an expression that reads it or such a name (`nodes = [value_loss] +
   * actions` for `torch.autograd.backward(nodes, grads)`; `loss2 =
   * sup_sum + cons_sum`, then `loss = loss1 + w * loss2`: one step's sum
   * over its decoders, in the step's total) */
  const char *names[4];
  uint32_t lens[4];
  names[0] = facts_text(self, acc, &lens[0]);
  facts_span scope = fn >= 0 ? self->functions.items[fn].body : (facts_span){0, (uint32_t)self->length + 1};
  uint32_t after = ts_node_end_byte(l->node);
  size_t nnames = facts__names_after(self, fn, after, names, lens, 4, true);
  for (size_t i = facts_first_call_at(self, after); i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= scope.end) break;
    if (c->function != fn) continue;
    for (size_t k = 0; k < nnames; k++)
      if (backpropagates(self, c->call, names[k], lens[k])) return true;
  }
  /* `self.loss += ml_loss * w`, backpropagated by the agent's `train()` */
  return facts__left_on_self_for_backward(self, fn, after, names, lens, nnames, 4) ||
         returned_for_differentiation(self, fn, after, names, lens, nnames);
}


bool facts_numpy_array(const facts *self, TSNode node) {
  static const char *const makers[] = {"numpy.zeros", "numpy.empty", "numpy.ones", "numpy.full", "numpy.array",
                                       "numpy.asarray", "numpy.zeros_like", "numpy.empty_like", "numpy.ones_like",
                                       "numpy.full_like", NULL};
  while (!ts_node_is_null(node) && NODE_IS(node, "subscript")) node = FACT_FIELD(self, node, value);
  if (ts_node_is_null(node)) return false;
  uint32_t len, pos = ts_node_start_byte(node);
  const char *name = facts_text(self, node, &len);
  int fn = facts_function_at(self, pos);
  if (is_self_attr(self, node)) {
    /* `self.losses[epoch] = loss` with `self.losses = np.empty(n)`: every
     * binding of the attribute in the methods of the class makes one */
    int klass = fn >= 0 ? self->functions.items[fn].klass : -1;
    bool any = false, all = klass >= 0;
    buf q = {0};
    for (size_t i = 0; i < self->assigns.len && all; i++) {
      TSNode left = self->assigns.items[i].left, v = self->assigns.items[i].right;
      if (!NODE_IS(left, "attribute") || !facts_text_is(self, left, name, len)) continue;
      int g = facts_function_at(self, ts_node_start_byte(left));
      if (g < 0 || self->functions.items[g].klass != klass) continue;
      any = true;
      all = NODE_IS(v, "call") && facts_qualname(self, FACT_FIELD(self, v, function), &q) &&
            in_list(buf_str(&q), q.len, makers);
    }
    buf_free(&q);
    return any && all;
  }
  if (!NODE_IS(node, "identifier")) return false;
  long a = facts__last_assign_before(self, name, len, pos, fn);
  if (a < 0 && fn >= 0) a = facts__last_assign_before(self, name, len, pos, -1);
  TSNode v = a >= 0 ? self->assigns.items[a].right : NULL_NODE;
  buf q = {0};
  bool yes = !ts_node_is_null(v) && NODE_IS(v, "call") && facts_qualname(self, FACT_FIELD(self, v, function), &q) &&
             in_list(buf_str(&q), q.len, makers);
  buf_free(&q);
  return yes;
}


bool facts_dict_accumulator(const facts *self, TSNode stmt) {
  TSNode acc = FACT_FIELD(self, stmt, left);
  if (ts_node_is_null(acc) || !NODE_IS(acc, "identifier") || !NODE_IS(stmt, "augmented_assignment")) return false;
  uint32_t len, pos = ts_node_start_byte(stmt);
  const char *name = facts_text(self, acc, &len);
  long a = facts__last_assign_before(self, name, len, pos, facts_function_at(self, pos));
  if (a < 0) return false;
  TSNode v = self->assigns.items[a].right;
  return NODE_IS(v, "dictionary") || NODE_IS(v, "dictionary_comprehension");
}


/* Whether a `return` of function FN after AFTER reads NAME (LEN bytes). */
static bool returned_after(const facts *f, int fn, uint32_t after, const char *name, uint32_t len) {
  for (size_t i = 0; i < f->returns.len; i++) {
    const facts_call *r = &f->returns.items[i];
    if (r->function == fn && ts_node_start_byte(r->call) >= after && subtree_reads(f, r->call, name, len, false))
      return true;
  }
  return false;
}


/* Whether function FN is called in the file, and every call's result is
 * backpropagated: `fn(...).backward()`, or bound to a name that the
 * calling function then backpropagates (`loss = fn(...)`, `loss.backward()`).
 * A call under no_grad (the validation loop's `batch_loss = fn(...)`)
 * builds no graph to keep, whatever it does with the result. */
static bool backpropagated_by_callers(const facts *f, int fn) {
  bool any = false;
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (c->function == fn || facts_function_named(f, FACT_FIELD(f, c->call, function)) != fn ||
        facts_in_no_grad(f, ts_node_start_byte(c->call)))
      continue;
    TSNode up = ts_node_parent(c->call);
    if (!ts_node_is_null(up) && NODE_IS(up, "attribute") && text_is(f, FACT_FIELD(f, up, attribute), "backward")) {
      any = true;
      continue;
    }
    TSNode left = !ts_node_is_null(up) && NODE_IS(up, "assignment") ? FACT_FIELD(f, up, left) : NULL_NODE;
    if (ts_node_is_null(left) || !NODE_IS(left, "identifier")) return false;
    const char *names[4];
    uint32_t lens[4];
    names[0] = facts_text(f, left, &lens[0]);
    uint32_t after = ts_node_end_byte(c->call);
    size_t n = facts__names_after(f, c->function, after, names, lens, 4, false);
    facts_span scope = c->function >= 0 ? f->functions.items[c->function].body : (facts_span){0, (uint32_t)f->length + 1};
    bool back = false;
    for (size_t k = facts_first_call_at(f, after); k < f->calls.len && !back; k++) {
      const facts_call *d = &f->calls.items[k];
      if (ts_node_start_byte(d->call) >= scope.end) break;
      for (size_t m = 0; d->function == c->function && m < n && !back; m++) back = backpropagates(f, d->call, names[m], lens[m]);
    }
    if (!back) return false;
    any = true;
  }
  return any;
}


/* Whether a module of the project importing the file backpropagates what
 * a call of function FN returns (`losses = self.loss_computer.compute(
 * data, it)`, then `losses["total_loss"].backward()`). */
static bool importers_backpropagate(const facts *f, int fn) {
  if (!f->imports) return false;
  while (f->functions.items[fn].parent >= 0) fn = f->functions.items[fn].parent;
  /* a function the file calls itself is judged by those calls
   * (backpropagated_by_callers) */
  for (size_t i = 0; i < f->calls.len; i++)
    if (f->calls.items[i].function != fn && facts_function_named(f, FACT_FIELD(f, f->calls.items[i].call, function)) == fn)
      return false;
  return facts__backpropagated_elsewhere(f, fn);
}


/* Whether the value STMT (`acc += v`) adds is a name that a backward pass
 * of loop L runs on earlier in the same iteration (`v.backward()`), and
 * nothing in the loop looks like an update (a call named for a step, a
 * function of the file that steps an optimizer): the micro-batches of one
 * step, not the steps of a training loop. */
static bool added_after_backward(const facts *f, const facts_loop *l, TSNode stmt) {
  TSNode v = FACT_FIELD(f, stmt, right);
  while (!ts_node_is_null(v) && NODE_IS(v, "parenthesized_expression")) v = ts_node_named_child(v, 0);
  if (ts_node_is_null(v) || !NODE_IS(v, "identifier")) return false;
  uint32_t len, pos = ts_node_start_byte(stmt);
  const char *name = facts_text(f, v, &len);
  bool back = false;
  for (size_t i = facts_first_call_at(f, l->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    if (c->function != l->function) continue;
    TSNode callee = FACT_FIELD(f, c->call, function);
    uint32_t ml = 0;
    const char *m = ts_node_is_null(callee) ? NULL : last_name(f, callee, &ml);
    for (uint32_t k = 0; m && k + 4 <= ml; k++)
      if (!strncasecmp(m + k, "step", 4)) return false;
    int g = facts_function_named(f, callee);
    if (g >= 0 && f->functions.items[g].updates) return false;
    if (ts_node_start_byte(c->call) < pos && backpropagates(f, c->call, name, len)) back = true;
  }
  return back;
}


/* Whether a statement after loop L, at its level or at a block around it
 * up to the function's body, reads the name or `self.x` NAME (LEN bytes). */
static bool read_after_loop(const facts *self, const facts_loop *l, const char *name, uint32_t len) {
  bool read = false;
  for (TSNode n = l->node; !read && !ts_node_is_null(n) && !NODE_IS(n, "function_definition"); n = ts_node_parent(n))
    for (TSNode s = ts_node_next_named_sibling(n); !read && !ts_node_is_null(s); s = ts_node_next_named_sibling(s))
      read = subtree_reads(self, s, name, len, false);
  return read;
}


/* Whether loop L (of function FN) runs a forward pass itself: a call of a
 * model that is neither named nor bound as a loss. */
static bool loop_forwards(const facts *self, const facts_loop *l, int fn) {
  for (size_t i = facts_first_call_at(self, l->body.start); i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    if (c->function != fn) continue;
    TSNode callee = FACT_FIELD(self, c->call, function);
    uint32_t cl;
    const char *ct = ts_node_is_null(callee) ? "" : facts_text(self, callee, &cl);
    if (!ts_node_is_null(callee) && facts_is_model_call(self, callee) && !facts__named_as_loss(ct, cl) &&
        !facts__loss_instance(self, ct, cl))
      return true;
  }
  return false;
}


/* Whether the `self.x` sum ACC (of STMT, in loop L of function FN) holds
 * the loss terms of one run of L: set to a number by the statement right
 * before L (`self.info_loss = 0.0`), summed by a loop with no loader,
 * backward, step or forward pass of its own (the terms of one forward's
 * slices: InfoGAN's discrete codes), and read after it. Each run of the
 * loop starts the sum anew. */
static bool attribute_terms(const facts *self, TSNode acc, const facts_loop *l, int fn) {
  if (l->evidence & (LOOP_ITERATES_LOADER | LOOP_CALLS_STEP | LOOP_CALLS_BACKWARD)) return false;
  TSNode prev = ts_node_prev_named_sibling(l->node);
  while (!ts_node_is_null(prev) && NODE_IS(prev, "comment")) prev = ts_node_prev_named_sibling(prev);
  TSNode a = !ts_node_is_null(prev) && NODE_IS(prev, "expression_statement") ? ts_node_named_child(prev, 0) : NULL_NODE;
  if (ts_node_is_null(a) || !NODE_IS(a, "assignment")) return false;
  TSNode left = FACT_FIELD(self, a, left), right = FACT_FIELD(self, a, right);
  uint32_t len;
  const char *name = facts_text(self, acc, &len);
  if (ts_node_is_null(left) || !facts_text_is(self, left, name, len) || ts_node_is_null(right) ||
      !(NODE_IS(right, "integer") || NODE_IS(right, "float")))
    return false;
  return !loop_forwards(self, l, fn) && read_after_loop(self, l, name, len);
}


bool facts_step_sum(const facts *self, TSNode stmt) {
  TSNode acc = FACT_FIELD(self, stmt, left);
  /* `losses["total_loss"] += loss / b`: the sum is the local dict's */
  if (!ts_node_is_null(acc) && NODE_IS(acc, "subscript")) acc = FACT_FIELD(self, acc, value);
  if (ts_node_is_null(acc)) return false;
  uint32_t pos = ts_node_start_byte(stmt);
  int loop = facts_iteration_loop_at(self, pos);
  if (loop < 0) return false;
  int fn = self->loops.items[loop].function;
  if (fn < 0) return false; /* a script's sum lives as long as the script */
  if (is_self_attr(self, acc)) return attribute_terms(self, acc, &self->loops.items[loop], fn);
  if (!NODE_IS(acc, "identifier")) return false;
  for (int o = self->loops.items[loop].outer; o >= 0 && self->loops.items[o].function == fn; o = self->loops.items[o].outer)
    if (self->loops.items[o].per_iteration) loop = o;
  const facts_loop *l = &self->loops.items[loop];
  assert(l->per_iteration && l->function == fn);
  /* a loop over a loader, or one that steps the optimizer, runs batches */
  if (l->evidence & (LOOP_ITERATES_LOADER | LOOP_CALLS_STEP)) return false;
  /* the sum is the call's own: bound in the function before the loop, not
   * a parameter (a caller's running sum) */
  uint32_t len;
  const char *name = facts_text(self, acc, &len);
  uint32_t loop_start = ts_node_start_byte(l->node);
  facts_span body = self->functions.items[fn].body;
  bool local = false;
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  for (size_t i = first; i < end; i++) {
    uint32_t b = self->bindings.items[i].pos;
    if (b >= self->functions.items[fn].whole.start && b < body.start) return false; /* a parameter */
    if (b >= body.start && b < loop_start && facts_function_at(self, b) == fn) local = true;
  }
  if (!local) return false;
  /* no forward pass in the loop: its values come from one forward before
   * it (the loop only slices them and scores the slices), so its calls of
   * models are all losses. With forward passes (a loss mined per image of
   * the batch), the sum must be returned to callers that all backpropagate
   * it: the step's loss, as a full-batch step's. Forward passes over the
   * slices of one tensor along a later axis (`w = latent[:, i, :]`, a
   * discriminator per latent slot) score parts of one input, as a loss
   * does: the sum returned is a loss term, whatever the callers do. So do
   * forward passes over the chunks of one batch (facts__chunk_loop). */
  bool forward = loop_forwards(self, l, fn);
  /* each value added was backpropagated before, in its own iteration (a
   * step's micro-batches: `loss.backward()`, then `batch_loss += loss`):
   * the sum keeps only graphs whose saved tensors backward freed, and is
   * the call's own, whoever steps the optimizer */
  bool backed = (l->evidence & LOOP_CALLS_BACKWARD) && added_after_backward(self, l, stmt);
  if (forward && !backed && !facts__chunk_loop(self, l) &&
      !(returned_after(self, fn, ts_node_end_byte(l->node), name, len) &&
        (facts__steps_later_axis(self, l) || backpropagated_by_callers(self, fn) ||
         importers_backpropagate(self, fn))))
    return false;
  /* after the loop, in the same call: the sum read (returned,
   * backpropagated, `.item()`), and, when the loop itself differentiates
   * (`autograd.grad` per domain), the one optimizer step of the call */
  uint32_t after = ts_node_end_byte(l->node);
  bool step = !(l->evidence & LOOP_CALLS_BACKWARD) || backed;
  for (size_t i = facts_first_call_at(self, after); i < self->calls.len && !step; i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= body.end) break;
    TSNode callee = FACT_FIELD(self, c->call, function);
    if (c->function != fn || ts_node_is_null(callee) || !NODE_IS(callee, "attribute") ||
        !text_is(self, FACT_FIELD(self, callee, attribute), "step"))
      continue;
    uint32_t ol;
    const char *ot = facts_text(self, FACT_FIELD(self, callee, object), &ol);
    step = facts_optimizer_name(ot, ol);
  }
  return step && read_after_loop(self, l, name, len);
}


/* Whether a per-iteration loop of function FN lies in SPAN before POS. */
static bool batch_loop_before(const facts *f, int fn, facts_span span, uint32_t pos) {
  for (size_t i = 0; i < f->loops.len; i++) {
    const facts_loop *l = &f->loops.items[i];
    uint32_t s = ts_node_start_byte(l->node);
    if (s >= pos) break;
    if (l->function == fn && l->per_iteration && s >= span.start && ts_node_end_byte(l->node) <= pos) return true;
  }
  return false;
}


/* Whether the name NAME (LEN bytes) is bound in FN before START, is one of
 * its parameters, or is bound at module level. */
static bool bound_before(const facts *f, int fn, const char *name, uint32_t len, uint32_t start) {
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    int bf = facts_function_at(f, b->pos);
    if (fn >= 0 && b->pos >= f->functions.items[fn].whole.start && b->pos < f->functions.items[fn].body.start)
      return true; /* a parameter */
    if (bf == -1 || (bf == fn && b->pos < start)) return true;
  }
  return false;
}


bool facts_outlives_epoch(const facts *self, TSNode node) {
  uint32_t pos = ts_node_start_byte(node);
  if (facts_iteration_loop_at(self, pos) >= 0) return false; /* a batch loop's storage: oom-outlives-iteration? */
  int fn = facts_function_at(self, pos);
  TSNode base = node;
  for (int guard = 0; guard < 16 && !ts_node_is_null(base) && !NODE_IS(base, "identifier"); guard++)
    base = NODE_IS(base, "attribute") ? FACT_FIELD(self, base, object)
           : NODE_IS(base, "subscript") ? FACT_FIELD(self, base, value) : NULL_NODE;
  if (ts_node_is_null(base)) return false;
  bool self_attr = text_is(self, base, "self") && NODE_IS(node, "attribute");
  /* Lightning's training step: `self.training_step_outputs` lives for the epoch */
  if (self_attr && fn >= 0 && self->functions.items[fn].klass >= 0 && facts_innermost_loop_at(self, pos) < 0) {
    const facts_function *m = &self->functions.items[fn];
    /* Lightning runs validation_step and test_step without gradients */
    if (m->name_len == 13 && !memcmp(m->name, "training_step", 13)) return true;
  }
  /* after the batch loop, in the epoch loop around it or, for storage of the
   * instance, in the function that ran it */
  int loop = facts_innermost_loop_at(self, pos);
  facts_span span = loop >= 0 ? self->loops.items[loop].body
                    : fn >= 0 ? self->functions.items[fn].body : (facts_span){0, (uint32_t)self->length + 1};
  if (!batch_loop_before(self, fn, span, pos)) return false;
  if (self_attr) return true;
  if (loop < 0) return false; /* a local list of one call */
  uint32_t len;
  const char *name = facts_text(self, base, &len);
  return bound_before(self, fn, name, len, ts_node_start_byte(self->loops.items[loop].node));
}


/* Whether the argument list ARGS of a `.to(...)` names a device and no dtype. */
static bool device_args(const facts *f, TSNode args) {
  uint32_t len;
  const char *t = facts_text(f, args, &len);
  bool device = false;
  for (uint32_t k = 0; k < len; k++) {
    if (!strncasecmp(t + k, "cpu", 3) || !strncasecmp(t + k, "dtype", 5) || !strncmp(t + k, "torch.float", 11) ||
        !strncmp(t + k, "torch.half", 10) || !strncmp(t + k, "torch.long", 10))
      return false;
    if (!strncasecmp(t + k, "cuda", 4) || !strncasecmp(t + k, "device", 6) || !strncasecmp(t + k, "gpu", 3) ||
        !strncasecmp(t + k, "rank", 4))
      device = true;
  }
  return device;
}


/* Which functions return their first argument moved to a device:
 * `def batchify(data, bsz, device): ...; return data.to(device)` (the name
 * rebound from itself on the way: `data = data.view(bsz, -1)`). */
/* The name VALUE moves to a device: `NAME.chain().cuda()` or
 * `NAME....to(device)`; a null node when VALUE is no such call. */
static TSNode moved_name(const facts *f, TSNode value) {
  if (ts_node_is_null(value) || !NODE_IS(value, "call")) return NULL_NODE;
  TSNode callee = FACT_FIELD(f, value, function);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return NULL_NODE;
  TSNode attr = FACT_FIELD(f, callee, attribute);
  if (!text_is(f, attr, "cuda") && !(text_is(f, attr, "to") && device_args(f, FACT_FIELD(f, value, arguments))))
    return NULL_NODE;
  /* down the chain to the name: `data.t().contiguous().to(device)` */
  TSNode obj = FACT_FIELD(f, callee, object);
  for (int guard = 0; guard < 16 && !ts_node_is_null(obj) && NODE_IS(obj, "call"); guard++) {
    TSNode c = FACT_FIELD(f, obj, function);
    obj = ts_node_is_null(c) || !NODE_IS(c, "attribute") ? NULL_NODE : FACT_FIELD(f, c, object);
  }
  return !ts_node_is_null(obj) && NODE_IS(obj, "identifier") ? obj : NULL_NODE;
}


/* The name of function G's first parameter, not self or cls; NULL if none. */
static const char *first_parameter(const facts *f, int g, uint32_t *len) {
  TSNode params = FACT_FIELD(f, f->functions.items[g].node, parameters);
  uint32_t n = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  for (uint32_t k = 0; k < n; k++) {
    TSNode p = ts_node_named_child(params, k);
    if (!NODE_IS(p, "identifier")) return NULL;
    if (text_is(f, p, "self") || text_is(f, p, "cls")) continue;
    return facts_text(f, p, len);
  }
  return NULL;
}


void facts__device_returns(facts *f);
void facts__device_returns(facts *f) {
  /* functions that slice their first argument, for importers that pass a
   * whole dataset to them in a batch loop (`get_batch(train_data, i)`) */
  for (size_t i = 0; i < f->subscripts.len; i++) {
    const facts_ref *r = &f->subscripts.items[i];
    int g = facts_function_at(f, r->pos);
    if (g < 0 || f->functions.items[g].slices_first_arg) continue;
    uint32_t len;
    const char *name = first_parameter(f, g, &len);
    if (name && len == r->len && !memcmp(name, r->name, len)) f->functions.items[g].slices_first_arg = true;
  }
  for (size_t i = 0; i < f->returns.len; i++) {
    int fn = f->returns.items[i].function;
    if (fn < 0) continue;
    facts_function *g = &f->functions.items[fn];
    TSNode value = ts_node_named_child(f->returns.items[i].call, 0);
    TSNode obj = moved_name(f, value);
    if (ts_node_is_null(obj) && !ts_node_is_null(value) && NODE_IS(value, "identifier")) {
      /* `return data` after `data = data.cuda()` in the function, perhaps
       * under `if args.cuda:` (awd-lstm-lm's batchify): on a GPU run, the
       * argument comes back on the device */
      uint32_t vl;
      const char *v = facts_text(f, value, &vl);
      for (size_t k = 0; k < f->assigns.len && ts_node_is_null(obj); k++) {
        const facts_assign *a = &f->assigns.items[k];
        uint32_t at = ts_node_start_byte(a->left);
        if (at < g->body.start || at >= ts_node_start_byte(value) || !NODE_IS(a->left, "identifier")) continue;
        uint32_t ll;
        const char *l = facts_text(f, a->left, &ll);
        if (ll != vl || memcmp(l, v, vl) != 0 || facts_function_at(f, at) != fn) continue;
        TSNode moved = moved_name(f, a->right);
        uint32_t ml;
        const char *m = ts_node_is_null(moved) ? NULL : facts_text(f, moved, &ml);
        if (m && ml == vl && !memcmp(m, v, vl)) obj = moved;
      }
    }
    if (ts_node_is_null(obj)) continue;
    TSNode params = FACT_FIELD(f, g->node, parameters);
    uint32_t n = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    for (uint32_t k = 0; k < n; k++) {
      TSNode p = ts_node_named_child(params, k);
      if (!NODE_IS(p, "identifier")) {
        TSNode name = FACT_FIELD(f, p, name);
        p = ts_node_is_null(name) && ts_node_named_child_count(p) ? ts_node_named_child(p, 0) : name;
      }
      if (ts_node_is_null(p) || text_is(f, p, "self") || text_is(f, p, "cls")) continue;
      uint32_t l1, l2;
      const char *a = facts_text(f, p, &l1), *b = facts_text(f, obj, &l2);
      if (l1 == l2 && !memcmp(a, b, l1)) g->returns_device_arg = true;
      break; /* the first argument only */
    }
  }
}


bool facts_moves_arg_to_device(const facts *self, TSNode callee) {
  int g = facts_function_named(self, callee);
  if (g >= 0) return self->functions.items[g].returns_device_arg;
  facts_symbol sym;
  return self->imports && facts_project_symbol(self, callee, &sym) && (sym.flags & SYM_FUNCTION) &&
         (sym.flags & SYM_TO_DEVICE);
}


/* Whether function G subscripts its parameter number K (`source[i:i + n]`). */
static bool slices_parameter(const facts *f, int g, uint32_t k) {
  TSNode params = FACT_FIELD(f, f->functions.items[g].node, parameters);
  if (ts_node_is_null(params) || k >= ts_node_named_child_count(params)) return false;
  TSNode p = ts_node_named_child(params, k);
  if (!NODE_IS(p, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(f, p, &len);
  for (size_t i = 0; i < f->subscripts.len; i++) {
    const facts_ref *r = &f->subscripts.items[i];
    if (r->len == len && !memcmp(r->name, name, len) && facts_function_at(f, r->pos) == g) return true;
  }
  return false;
}


/* Whether CALL, in a batch loop, passes NAME (LEN bytes) as its argument K
 * to a function that slices it: of this file, or of the project (its first
 * argument). */
static bool sliced_by_callee(const facts *self, TSNode call, uint32_t k) {
  TSNode callee = FACT_FIELD(self, call, function);
  int g = facts_function_named(self, callee);
  if (g >= 0) return slices_parameter(self, g, k);
  facts_symbol sym;
  return k == 0 && self->imports && facts_project_symbol(self, callee, &sym) && (sym.flags & SYM_FUNCTION) &&
         (sym.flags & SYM_SLICES_ARG);
}


/* Whether NAME (LEN bytes) is taken batch by batch inside function FN (-1:
 * anywhere): sliced in a batch loop there, or given in one to a function
 * that slices it. */
static bool batched_in(const facts *self, const char *name, uint32_t len, int fn) {
  for (size_t i = 0; i < self->subscripts.len; i++) {
    const facts_ref *r = &self->subscripts.items[i];
    if (r->len == len && !memcmp(r->name, name, len) && (fn < 0 || facts_function_at(self, r->pos) == fn) &&
        facts_iteration_loop_at(self, r->pos) >= 0)
      return true;
  }
  for (size_t i = 0; i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    if ((fn >= 0 && c->function != fn) || c->loop < 0) continue;
    TSNode args = FACT_FIELD(self, c->call, arguments);
    uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    for (uint32_t k = 0; k < n; k++) {
      uint32_t l2;
      const char *t = facts_text(self, ts_node_named_child(args, k), &l2);
      if (l2 == len && !memcmp(t, name, len) && sliced_by_callee(self, c->call, k) &&
          facts_iteration_loop_at(self, ts_node_start_byte(c->call)) >= 0)
        return true;
    }
  }
  return false;
}


bool facts_batched_in_loop(const facts *self, TSNode node) {
  uint32_t len;
  const char *name = facts_text(self, node, &len);
  int fn = facts_function_at(self, ts_node_start_byte(node));
  if (NODE_IS(node, "attribute")) {
    /* `self.data`: indexed by a method of its class (`__getitem__`, `get_batch`) */
    if (fn < 0 || self->functions.items[fn].klass < 0) return false;
    TSNode k = self->classes.items[self->functions.items[fn].klass].node;
    const char *s = self->source + ts_node_start_byte(k), *end = self->source + ts_node_end_byte(k);
    for (const char *p = s; p && p + len < end; p++) {
      p = memchr(p, name[0], (size_t)(end - p));
      if (!p || p + len >= end) break;
      if (!memcmp(p, name, len) && p[len] == '[') return true;
    }
    return false;
  }
  if (!NODE_IS(node, "identifier")) return false;
  /* sliced in a batch loop of its scope (any function, for a module-level
   * name), or given there to a function that slices it (`get_batch(train_data, i)`) */
  if (batched_in(self, name, len, fn)) return true;
  /* or given to a function of this file that does so with its parameter
   * (`evaluate(val_data)`, whose loop calls `get_batch(data_source, i)`) */
  for (size_t i = 0; i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    if (fn >= 0 && c->function != fn) continue;
    TSNode args = FACT_FIELD(self, c->call, arguments);
    uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    for (uint32_t k = 0; k < n; k++) {
      uint32_t l2;
      const char *t = facts_text(self, ts_node_named_child(args, k), &l2);
      if (l2 != len || memcmp(t, name, len)) continue;
      int g = facts_function_named(self, FACT_FIELD(self, c->call, function));
      TSNode params = g >= 0 ? FACT_FIELD(self, self->functions.items[g].node, parameters) : NULL_NODE;
      if (ts_node_is_null(params) || k >= ts_node_named_child_count(params)) continue;
      TSNode p = ts_node_named_child(params, k);
      if (!NODE_IS(p, "identifier")) continue;
      uint32_t pl;
      const char *pn = facts_text(self, p, &pl);
      if (batched_in(self, pn, pl, g)) return true;
    }
  }
  return false;
}


/* Whether NODE names float64 as a NumPy dtype: `np.float64`, `np.double`,
 * `"float64"`, the builtin `float`. */
static bool float64_dtype(const facts *f, TSNode node, buf *q) {
  if (NODE_IS(node, "string")) {
    uint32_t len;
    const char *t = facts_text(f, node, &len);
    return len == 9 && !memcmp(t + 1, "float64", 7);
  }
  if (NODE_IS(node, "identifier") && text_is(f, node, "float") && !facts_qualname(f, node, q)) return true;
  return facts_qualname(f, node, q) && (!strcmp(buf_str(q), "numpy.float64") || !strcmp(buf_str(q), "numpy.double"));
}


bool facts_float64_call(const facts *self, TSNode call) {
  TSNode callee = FACT_FIELD(self, call, function);
  TSNode args = FACT_FIELD(self, call, arguments);
  if (ts_node_is_null(callee)) return false;
  buf q = {0};
  bool r = false;
  uint32_t len;
  const char *m = last_name(self, callee, &len);
  if (NODE_IS(callee, "attribute") && len == 6 && !memcmp(m, "astype", 6) && !ts_node_is_null(args) &&
      ts_node_named_child_count(args))
    r = float64_dtype(self, ts_node_named_child(args, 0), &q);
  else if (facts_qualname(self, callee, &q))
    r = !strcmp(buf_str(&q), "numpy.float64") || !strcmp(buf_str(&q), "numpy.double");
  if (!r) {
    int g = facts_function_named(self, callee);
    facts_symbol sym;
    if (g >= 0) r = self->functions.items[g].returns_float64;
    else r = self->imports && facts_project_symbol(self, callee, &sym) && (sym.flags & SYM_FUNCTION) &&
             (sym.flags & SYM_FLOAT64);
  }
  buf_free(&q);
  return r;
}


/* Which functions return float64 NumPy data, alone or in a tuple:
 * `return np.random.randn(n, 8), labels` in a data module. */
static void float64_returns(facts *f) {
  /* float64 NumPy data starts at a NumPy call: a file that does not import
   * NumPy returns none of its own (passing on a project function's is left
   * out) */
  bool numpy = false;
  for (size_t i = 0; i < f->imported_modules.len && !numpy; i++)
    numpy = !strncmp(f->imported_modules.items[i], "numpy", 5);
  if (!numpy) return;
  for (size_t i = 0; i < f->returns.len; i++) {
    int fn = f->returns.items[i].function;
    if (fn < 0) continue;
    TSNode value = ts_node_named_child(f->returns.items[i].call, 0);
    if (ts_node_is_null(value)) continue;
    bool tuple = NODE_IS(value, "expression_list") || NODE_IS(value, "tuple");
    uint32_t n = tuple ? ts_node_named_child_count(value) : 1;
    for (uint32_t k = 0; k < n && k < FACTS_MAX_ELEMS; k++) {
      TSNode e = tuple ? ts_node_named_child(value, k) : value;
      if (!facts_is_numpy_float64(f, e) || facts_cast_after(f, e)) continue;
      if (tuple) f->functions.items[fn].float64_elems |= (uint8_t)(1u << k);
      else f->functions.items[fn].returns_float64 = true;
    }
  }
}


bool facts_unpacked_float64(const facts *self, TSNode node) {
  uint32_t len, pos = ts_node_start_byte(node);
  const char *name = facts_text(self, node, &len);
  int fn = facts_function_at(self, pos);
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  /* the last binding of the name before NODE in its scope */
  const facts_binding *last = NULL;
  for (size_t i = first; i < end; i++)
    if (self->bindings.items[i].pos < pos && facts_function_at(self, self->bindings.items[i].pos) == fn)
      last = &self->bindings.items[i];
  if (!last || last->kind != BINDING_OTHER) return false;
  TSNode target = ts_node_descendant_for_byte_range(self->root, last->pos, last->pos + last->name_len);
  TSNode list = ts_node_parent(target);
  if (ts_node_is_null(list) || !(NODE_IS(list, "pattern_list") || NODE_IS(list, "tuple_pattern"))) return false;
  TSNode up = ts_node_parent(list);
  if (ts_node_is_null(up) || !NODE_IS(up, "assignment")) return false;
  TSNode right = FACT_FIELD(self, up, right);
  if (ts_node_is_null(right) || !NODE_IS(right, "call")) return false;
  uint32_t k = 0, n = ts_node_named_child_count(list);
  while (k < n && !ts_node_eq(ts_node_named_child(list, k), target)) k++;
  if (k >= n || k >= FACTS_MAX_ELEMS) return false;
  TSNode callee = FACT_FIELD(self, right, function);
  int g = facts_function_named(self, callee);
  if (g >= 0) return (self->functions.items[g].float64_elems >> k) & 1u;
  facts_symbol sym;
  return self->imports && facts_project_symbol(self, callee, &sym) && (sym.flags & SYM_FUNCTION) &&
         ((sym.float64_elems >> k) & 1u);
}
