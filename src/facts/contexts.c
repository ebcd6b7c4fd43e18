/* This file contains the contexts rules ask about beyond loops and no-grad:
 * storage that outlives an iteration, evaluation contexts, what a batch loop
 * calls (zero_grad, a periodic optimizer step), datasets moved whole, NumPy
 * float64 arrays, and class ancestry. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/fields.h"
#include "facts/facts.h"
#include "util/alloc.h"

#define NODE_IS(n, t) (strcmp(ts_node_type(n), (t)) == 0)


static bool same_text(const facts *f, TSNode n, const char *s, uint32_t len) {
  uint32_t l;
  const char *t = facts_text(f, n, &l);
  return l == len && !memcmp(t, s, len);
}


static bool contains_ci(const char *s, uint32_t len, const char *needle) {
  size_t n = strlen(needle);
  for (uint32_t i = 0; i + n <= len; i++)
    if (!strncasecmp(s + i, needle, n)) return true;
  return false;
}


static bool in_names(char *const *items, size_t n, const char *s, uint32_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(items[i]) == len && !memcmp(items[i], s, len)) return true;
  return false;
}


/* The name at the root of `x`, `x.a`, `x[k]`, `x.a[k].b`. */
static TSNode base_name(TSNode n) {
  for (int guard = 0; guard < 64; guard++) {
    if (NODE_IS(n, "attribute")) n = FIELD(n, object);
    else if (NODE_IS(n, "subscript")) n = FIELD(n, value);
    else break;
    if (ts_node_is_null(n)) return n;
  }
  return n;
}


/* The outermost per-iteration loop of POS's function holding POS, or -1: the
 * batch loop, when inner loops run over the layers, losses or optimizers of
 * one batch. */
static int outer_iteration_loop_at(const facts *self, uint32_t pos) {
  int loop = facts_iteration_loop_at(self, pos);
  if (loop < 0) return -1;
  for (int o = self->loops.items[loop].outer; o >= 0 && self->loops.items[o].function == self->loops.items[loop].function;
       o = self->loops.items[o].outer)
    if (self->loops.items[o].per_iteration) loop = o;
  return loop;
}


bool facts_outlives_iteration(const facts *self, TSNode node) {
  uint32_t pos = ts_node_start_byte(node);
  /* a per-batch sum over the layers or losses of one batch is not a leak */
  int loop = outer_iteration_loop_at(self, pos);
  if (loop < 0) return false;
  TSNode base = base_name(node);
  if (ts_node_is_null(base) || !NODE_IS(base, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(self, base, &len);
  if (len == 4 && !memcmp(name, "self", 4)) return true; /* instance storage */
  const facts_loop *l = &self->loops.items[loop];
  uint32_t loop_start = ts_node_start_byte(l->node);
  bool before = false;
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &self->bindings.items[i];
    int bf = facts_function_at(self, b->pos);
    if (l->function >= 0 && b->pos >= self->functions.items[l->function].whole.start &&
        b->pos < self->functions.items[l->function].body.start)
      bf = l->function; /* a parameter */
    if (bf == l->function && b->pos >= loop_start && b->pos < pos) return false; /* made anew each iteration */
    if ((bf == l->function && b->pos < loop_start) || bf == -1) before = true;
  }
  return before;
}


/* Whether identifier N has the text of NAME (LEN bytes). */
static bool names(const facts *f, TSNode n, const char *name, uint32_t len) {
  return !ts_node_is_null(n) && NODE_IS(n, "identifier") && same_text(f, n, name, len);
}


/* Whether target T (a name, or a tuple of names: `out, h`) binds NAME. */
static bool target_binds(const facts *f, TSNode t, const char *name, uint32_t len) {
  if (names(f, t, name, len)) return true;
  if (!NODE_IS(t, "pattern_list") && !NODE_IS(t, "tuple_pattern") && !NODE_IS(t, "list_pattern") &&
      !NODE_IS(t, "tuple"))
    return false;
  uint32_t n = ts_node_named_child_count(t);
  for (uint32_t i = 0; i < n; i++)
    if (names(f, ts_node_named_child(t, i), name, len)) return true;
  return false;
}


/* Whether loop L feeds a model's output back into the model: a call of a
 * model in its body, `out, h = decoder(x, h)`, passes a name it binds. Such
 * a loop runs over the steps of one sequence, and the graph of every step
 * is alive through that state anyway. */
static bool feeds_model_back(const facts *f, const facts_loop *l) {
  for (size_t i = facts_first_call_at(f, l->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    if (c->function != l->function) continue;
    TSNode parent = ts_node_parent(c->call);
    if (ts_node_is_null(parent) || !NODE_IS(parent, "assignment")) continue;
    TSNode left = FIELD(parent, left), args = FIELD(c->call, arguments);
    if (ts_node_is_null(left) || ts_node_is_null(args)) continue;
    uint32_t n = ts_node_named_child_count(args);
    bool fed = false;
    for (uint32_t k = 0; k < n && !fed; k++) {
      TSNode a = ts_node_named_child(args, k);
      if (!NODE_IS(a, "identifier")) continue;
      uint32_t len;
      const char *name = facts_text(f, a, &len);
      fed = target_binds(f, left, name, len);
    }
    if (fed && facts_is_model_call(f, FIELD(c->call, function))) return true;
  }
  return false;
}


/* Whether loop L calls one of its own loop variables: `for net in nets:
 * net(x)` runs each model once, a loop over models rather than batches. */
static bool calls_loop_variable(const facts *f, const facts_loop *l) {
  if (!NODE_IS(l->node, "for_statement")) return false;
  TSNode target = FIELD(l->node, left);
  if (ts_node_is_null(target)) return false;
  for (size_t i = facts_first_call_at(f, l->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    TSNode callee = FIELD(c->call, function);
    if (c->function != l->function || ts_node_is_null(callee) || !NODE_IS(callee, "identifier")) continue;
    uint32_t len;
    const char *name = facts_text(f, callee, &len);
    if (target_binds(f, target, name, len)) return true;
  }
  return false;
}


/* Whether the name NAME (LEN bytes) is read in loop L, its iterable or its
 * body: a preorder walk with a cursor, no recursion. */
static bool loop_reads(const facts *f, const facts_loop *l, const char *name, uint32_t len) {
  TSTreeCursor cur = ts_tree_cursor_new(l->node);
  bool found = false, done = false;
  while (!found && !done) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (NODE_IS(n, "identifier")) found = same_text(f, n, name, len);
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur)) {
        done = true;
        break;
      }
  }
  ts_tree_cursor_delete(&cur);
  return found;
}


bool facts_step_storage(const facts *self, TSNode node) {
  uint32_t pos = ts_node_start_byte(node);
  int loop = outer_iteration_loop_at(self, pos);
  if (loop < 0) return false;
  TSNode base = base_name(node);
  if (ts_node_is_null(base) || !NODE_IS(base, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(self, base, &len);
  if (len == 4 && !memcmp(name, "self", 4)) return false; /* the instance's: outlives the call */
  const facts_loop *l = &self->loops.items[loop];
  int fn = l->function;
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  /* (a) a local of a model's forward: that forward's own intermediate results
   * (micro-batches concatenated before it returns) */
  if (fn >= 0 && facts_in_module_method(self, fn)) {
    bool forward = false;
    for (int g = fn; g >= 0 && !forward; g = self->functions.items[g].parent)
      forward = self->functions.items[g].name_len == 7 && !memcmp(self->functions.items[g].name, "forward", 7);
    facts_span body = self->functions.items[fn].body;
    for (size_t i = first; i < end && forward; i++) {
      uint32_t b = self->bindings.items[i].pos;
      if (b >= body.start && b < body.end && facts_function_at(self, b) == fn) return true;
    }
  }
  /* (b) the time steps of one sequence: no loader, backward or step of the
   * loop's own, and a model's output fed back into it */
  if (l->evidence == LOOP_CALLS_MODEL && feeds_model_back(self, l)) return true;
  /* (c) kept for a later loop of the function that backpropagates it */
  uint32_t after = ts_node_end_byte(l->node);
  for (size_t i = (size_t)loop + 1; i < self->loops.len; i++) {
    const facts_loop *o = &self->loops.items[i];
    if (o->function != fn || ts_node_start_byte(o->node) < after) continue;
    if ((o->evidence & LOOP_CALLS_BACKWARD) && loop_reads(self, o, name, len)) return true;
  }
  /* (d) a loop over models, the container made anew in each iteration of an
   * enclosing loop: one entry per model, dropped the next time round */
  if (calls_loop_variable(self, l))
    for (int o = l->parent; o >= 0; o = self->loops.items[o].parent)
      for (size_t i = first; i < end; i++) {
        uint32_t b = self->bindings.items[i].pos;
        if (b >= self->loops.items[o].body.start && b < ts_node_start_byte(l->node) &&
            facts_function_at(self, b) == fn)
          return true;
      }
  return false;
}


bool facts_elements_backpropagated(const facts *self, TSNode node) {
  int loop = outer_iteration_loop_at(self, ts_node_start_byte(node));
  if (loop < 0) return false;
  const facts_loop *l = &self->loops.items[loop];
  uint32_t len;
  const char *name = facts_text(self, node, &len);
  for (size_t i = facts_first_call_at(self, l->body.start); i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    TSNode fn = FIELD(c->call, function);
    if (c->function != l->function || ts_node_is_null(fn) || !NODE_IS(fn, "attribute") ||
        !facts_node_is(self, FIELD(fn, attribute), "backward"))
      continue;
    /* `losses[i - 1].backward()` */
    TSNode obj = FIELD(fn, object);
    if (NODE_IS(obj, "subscript") && same_text(self, FIELD(obj, value), name, len)) return true;
  }
  return false;
}


/* Whether CALL, in a loop, runs a backward pass through the name VALUE:
 * `value.backward()`, `scaler.scale(value).backward()`, or a framework's
 * `accelerator.backward(value)` / `booster.backward(loss=value)`. */
static bool backward_of(const facts *self, TSNode call, const char *value, uint32_t vlen) {
  TSNode fn = FIELD(call, function);
  if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute") || !facts_node_is(self, FIELD(fn, attribute), "backward"))
    return false;
  TSNode obj = FIELD(fn, object);
  uint32_t len;
  const char *t = facts_text(self, obj, &len);
  if (len == vlen && !memcmp(t, value, len)) return true;
  TSNode lists[2];
  int nlists = 0;
  lists[nlists++] = FIELD(call, arguments);
  if (NODE_IS(obj, "call")) lists[nlists++] = FIELD(obj, arguments);
  for (int k = 0; k < nlists; k++) {
    if (ts_node_is_null(lists[k])) continue;
    uint32_t n = ts_node_named_child_count(lists[k]);
    for (uint32_t i = 0; i < n; i++) {
      TSNode a = ts_node_named_child(lists[k], i);
      if (NODE_IS(a, "keyword_argument")) a = FIELD(a, value);
      t = facts_text(self, a, &len);
      if (len == vlen && !memcmp(t, value, len)) return true;
    }
  }
  return false;
}


bool facts_reset_after_backward(const facts *self, TSNode stmt) {
  TSNode acc = FIELD(stmt, left), value = FIELD(stmt, right);
  if (ts_node_is_null(acc) || ts_node_is_null(value) || !NODE_IS(acc, "identifier")) return false;
  if (NODE_IS(stmt, "assignment")) {
    /* `acc = acc + v` or `acc = v + acc`: V is the other operand */
    if (!NODE_IS(value, "binary_operator")) return false;
    uint32_t al, ll;
    const char *a = facts_text(self, acc, &al);
    TSNode l = FIELD(value, left), r = FIELD(value, right);
    const char *lt = facts_text(self, l, &ll);
    value = ll == al && !memcmp(lt, a, al) ? r : l;
  }
  if (ts_node_is_null(value) || !NODE_IS(value, "identifier")) return false;
  uint32_t pos = ts_node_start_byte(stmt);
  int loop = facts_iteration_loop_at(self, pos);
  if (loop < 0) return false;
  const facts_loop *l = &self->loops.items[loop];
  int fn = l->function;
  /* reset: the accumulator bound again later in the same iteration */
  uint32_t alen;
  const char *aname = facts_text(self, acc, &alen);
  size_t first, end;
  facts_bindings_named(self, aname, alen, &first, &end);
  bool reset = false;
  for (size_t i = first; i < end && !reset; i++) {
    uint32_t b = self->bindings.items[i].pos;
    reset = b > pos && b < l->body.end && facts_function_at(self, b) == fn;
  }
  if (!reset) return false;
  /* backpropagated in the same iteration */
  uint32_t vlen;
  const char *vname = facts_text(self, value, &vlen);
  for (size_t i = facts_first_call_at(self, l->body.start); i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    if (c->function == fn && backward_of(self, c->call, vname, vlen)) return true;
  }
  return false;
}


static bool eval_name(const char *s, size_t len) {
  char lower[128];
  if (len >= sizeof lower) return false;
  for (size_t i = 0; i < len; i++) lower[i] = (char)tolower((unsigned char)s[i]);
  lower[len] = '\0';
  static const char *const words[] = {"eval", "evaluate", "valid", "validate", "validation", "test",
                                      "predict", "inference", "infer", NULL};
  for (size_t i = 0; words[i]; i++) {
    size_t n = strlen(words[i]);
    if (!strncmp(lower, words[i], n) && (lower[n] == '\0' || lower[n] == '_')) return true;
  }
  static const char *const suffixes[] = {"_eval", "_validation", "_test", NULL};
  for (size_t i = 0; suffixes[i]; i++) {
    size_t n = strlen(suffixes[i]);
    if (len > n && !strcmp(lower + len - n, suffixes[i])) return true;
  }
  return false;
}


/* `x.eval()` / `x.train(False)` -> 1; `x.train()` / `x.train(True)` -> 0; else -1 */
static int mode_call(const facts *f, TSNode call) {
  TSNode fn = FIELD(call, function);
  TSNode args = FIELD(call, arguments);
  if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute") || ts_node_is_null(args)) return -1;
  TSNode attr = FIELD(fn, attribute);
  uint32_t nargs = ts_node_named_child_count(args);
  if (facts_node_is(f, attr, "eval") && nargs == 0) return 1;
  if (facts_node_is(f, attr, "train")) {
    if (nargs == 0) return 0;
    TSNode a0 = ts_node_named_child(args, 0);
    if (NODE_IS(a0, "false")) return 1;
    if (NODE_IS(a0, "true")) return 0;
  }
  return -1;
}


/* Whether function FN is a unit test, not an evaluation: named `test...`
 * and asserting, or in a module that imports pytest or unittest. A test
 * suite's `test_forward` runs a model once on a toy input to check it;
 * nothing stays alive across iterations of a job. */
static bool unit_test(const facts *f, int fn) {
  const facts_function *d = &f->functions.items[fn];
  if (d->name_len < 4 || strncasecmp(d->name, "test", 4) != 0) return false;
  if (d->asserts) return true;
  for (size_t i = 0; i < f->bindings.len; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->kind != BINDING_IMPORT || !b->qualname) continue;
    const char *q = b->qualname;
    if (!strcmp(q, "pytest") || !strncmp(q, "pytest.", 7) || !strcmp(q, "unittest") || !strncmp(q, "unittest.", 9))
      return true;
  }
  return false;
}


/* Whether function FN is an evaluation by its name (`evaluate`,
 * `validate_epoch`, `test`), and not a unit test. */
static bool eval_function(const facts *f, int fn) {
  return eval_name(f->functions.items[fn].name, f->functions.items[fn].name_len) && !unit_test(f, fn);
}


static bool grad_mode_chosen(const facts *f, uint32_t pos);


bool facts_in_eval_function(const facts *self, uint32_t pos) {
  int fn = facts_function_at(self, pos);
  /* a model's `predict_masks` is its own computation (Segment Anything) */
  return fn >= 0 && eval_function(self, fn) && !facts_in_module_method(self, fn) && !grad_mode_chosen(self, pos);
}


/* The model a call of NODE runs: `m` for `m(x)` and `m.forward(x)`; NULL
 * (any model) when NODE is not such a call. */
static const char *called_model(const facts *f, TSNode node, uint32_t *len) {
  if (!NODE_IS(node, "call")) return NULL;
  TSNode fn = FIELD(node, function);
  if (ts_node_is_null(fn)) return NULL;
  /* `m.forward(x)`, `m.predict(x)`, `m.encoder(x)`: the calls of model `m` */
  if (NODE_IS(fn, "attribute") &&
      (facts_node_is(f, FIELD(fn, attribute), "forward") || facts_is_model(f, FIELD(fn, object))))
    fn = FIELD(fn, object);
  return ts_node_is_null(fn) ? NULL : facts_text(f, fn, len);
}


/* Whether POS runs under `torch.set_grad_enabled(X)` (a with-item or a
 * statement before it in its block) with X not a literal: the code turns
 * gradients on or off itself, by phase (`split == 'train'`); its evaluation
 * phase is the one without them. */
static bool grad_mode_chosen(const facts *f, uint32_t pos) {
  for (size_t i = 0; i < f->with_items.len; i++) {
    const facts_region *r = &f->with_items.items[i];
    if (pos < r->span.start || pos >= r->span.end || !NODE_IS(r->candidate, "call")) continue;
    TSNode fn = FIELD(r->candidate, function);
    if (NODE_IS(fn, "attribute")) fn = FIELD(fn, attribute);
    TSNode args = FIELD(r->candidate, arguments);
    if (ts_node_is_null(fn) || !facts_node_is(f, fn, "set_grad_enabled") || ts_node_is_null(args) ||
        ts_node_named_child_count(args) != 1)
      continue;
    TSNode a0 = ts_node_named_child(args, 0);
    if (!NODE_IS(a0, "true") && !NODE_IS(a0, "false")) return true;
  }
  return false;
}


/* The name CALL, a mode call, is bound to when its result is assigned, at
 * the end of a chain (`model = Generator(4).eval()`, `net = Net().eval().cuda()`);
 * NULL when it is not. */
static const char *assigned_to(const facts *f, TSNode call, uint32_t *len) {
  TSNode top = call;
  for (int guard = 0; guard < 4; guard++) {
    TSNode p = ts_node_parent(top);
    if (ts_node_is_null(p) || !NODE_IS(p, "attribute")) break;
    TSNode c = ts_node_parent(p);
    if (ts_node_is_null(c) || !NODE_IS(c, "call")) break;
    top = c;
  }
  TSNode a = ts_node_parent(top);
  if (ts_node_is_null(a) || !NODE_IS(a, "assignment") || !ts_node_eq(FIELD(a, right), top)) return NULL;
  TSNode left = FIELD(a, left);
  if (ts_node_is_null(left) || !(NODE_IS(left, "identifier") || NODE_IS(left, "attribute"))) return NULL;
  return facts_text(f, left, len);
}


/* Whether MODEL (`self.x`, LEN bytes), called in method FN of a plain class
 * (a predictor, a heatmap generator), is put in eval mode by the class's
 * `__init__` and in training mode by none of its methods. */
static bool evaluated_since_init(const facts *f, int fn, const char *model, uint32_t len) {
  int klass = f->functions.items[fn].klass;
  if (klass < 0 || len < 6 || memcmp(model, "self.", 5) != 0) return false;
  bool eval = false;
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (c->function < 0 || f->functions.items[c->function].klass != klass) continue;
    int m = mode_call(f, c->call);
    if (m < 0) continue;
    uint32_t olen;
    const char *obj = facts_text(f, FIELD(FIELD(c->call, function), object), &olen);
    if (olen != len || memcmp(obj, model, len) != 0) continue;
    if (m == 0) return false;
    const facts_function *g = &f->functions.items[c->function];
    if (g->name_len == 8 && !memcmp(g->name, "__init__", 8)) eval = true;
  }
  return eval;
}


bool facts_in_eval_context(const facts *self, TSNode node) {
  uint32_t pos = ts_node_start_byte(node);
  int fn = facts_function_at(self, pos);
  if (facts_in_module_method(self, fn)) return false;
  if (grad_mode_chosen(self, pos)) return false;
  /* a unit test checks a module's behaviour in eval mode on a toy input
   * (dropout off, `graph_module.eval()` then an assert), in a file that need
   * not import pytest: nothing of a real job's size is at stake */
  for (int f = fn; f >= 0; f = self->functions.items[f].parent)
    if (unit_test(self, f)) return false;
  for (int f = fn; f >= 0; f = self->functions.items[f].parent)
    if (eval_function(self, f)) return true;
  /* after `model.eval()` in this scope, before any `model.train()`, for
   * calls of that model: a distillation step puts its teacher in eval mode
   * and goes on to train the student */
  uint32_t len = 0;
  const char *model = called_model(self, node, &len);
  int mode = -1;
  for (size_t i = facts_first_call_at(self, fn >= 0 ? self->functions.items[fn].body.start : 0); i < self->calls.len;
       i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= pos) break;
    if (c->function != fn) continue;
    int m = mode_call(self, c->call);
    if (m < 0) continue;
    uint32_t olen;
    const char *obj = facts_text(self, FIELD(FIELD(c->call, function), object), &olen);
    if (!model || (olen == len && !memcmp(obj, model, len))) mode = m;
    else if (m == 1 && (obj = assigned_to(self, c->call, &olen)) && olen == len && !memcmp(obj, model, len)) mode = m;
  }
  if (mode < 0 && model && fn >= 0) return evaluated_since_init(self, fn, model, len);
  return mode == 1;
}


bool facts_warm_up_call(const facts *self, TSNode call) {
  TSNode parent = ts_node_parent(call);
  if (ts_node_is_null(parent) || !NODE_IS(parent, "expression_statement")) return false;
  return facts_innermost_loop_at(self, ts_node_start_byte(call)) < 0;
}


bool facts_function_backward_at(const facts *self, uint32_t pos) {
  int fn = facts_function_at(self, pos);
  if (fn >= 0) return self->functions.items[fn].backward;
  return self->file_backward;
}


static void callee_name(const facts *f, TSNode call, const char **s, uint32_t *len) {
  TSNode fn = FIELD(call, function);
  *s = "";
  *len = 0;
  if (ts_node_is_null(fn)) return;
  if (NODE_IS(fn, "attribute")) fn = FIELD(fn, attribute);
  if (!ts_node_is_null(fn)) *s = facts_text(f, fn, len);
}


/* Calls in SPAN of function FN, and in the file's functions they call
 * (three levels deep), until MATCH says yes. */
static bool span_calls(const facts *f, facts_span span, int fn, bool (*match)(void *, const char *, size_t),
                       void *ctx, int depth) {
  for (size_t i = facts_first_call_at(f, span.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    uint32_t s = ts_node_start_byte(c->call);
    if (s >= span.end) break;
    if (c->function != fn) continue;
    const char *name;
    uint32_t len;
    callee_name(f, c->call, &name, &len);
    if (match(ctx, name, len)) return true;
    int g = facts_function_named(f, FIELD(c->call, function));
    if (g >= 0 && g != fn && depth < 3 && span_calls(f, f->functions.items[g].body, g, match, ctx, depth + 1))
      return true;
  }
  return false;
}


bool facts_loop_calls(const facts *self, uint32_t pos, bool (*match)(void *, const char *, size_t), void *ctx) {
  int loop = outer_iteration_loop_at(self, pos);
  if (loop < 0) return false;
  return span_calls(self, self->loops.items[loop].body, self->loops.items[loop].function, match, ctx, 0);
}


/* The K of the one periodic `if` in the loop BODY that guards POS; a null
 * node when it has none, or when two nested ones guard POS (which of them
 * counts the micro-batches cannot be told). */
static TSNode guard_modulus(const facts *self, uint32_t pos, facts_span body) {
  TSNode k = NULL_NODE;
  int guards = 0;
  for (size_t i = 0; i < self->periodic.len; i++) {
    facts_span p = self->periodic.items[i].body;
    if (p.start >= body.start && p.start <= pos && pos < p.end) {
      guards++;
      k = self->periodic.items[i].modulus;
    }
  }
  return guards == 1 ? k : NULL_NODE;
}


/* Whether one periodic `if` of the loop BODY holds both A and B: the backward
 * and the step of an update that runs every few batches together
 * (`if step % 4 == 0: zero_grad(); backward(); step()`) sum no micro-batches. */
static bool same_periodic(const facts *self, uint32_t a, uint32_t b, facts_span body) {
  for (size_t i = 0; i < self->periodic.len; i++) {
    facts_span p = self->periodic.items[i].body;
    if (p.start >= body.start && p.start <= a && a < p.end && p.start <= b && b < p.end) return true;
  }
  return false;
}


/* Whether the per-iteration loop at POS steps an optimizer only under `%`
 * tests; *STEPS is then the K those tests share (`X % K == 0`), or a null
 * node when one of them has none or two of them differ. */
static bool accumulation(const facts *self, uint32_t pos, TSNode *steps) {
  *steps = NULL_NODE;
  int loop = facts_iteration_loop_at(self, pos);
  if (loop < 0) return false;
  facts_span body = self->loops.items[loop].body;
  bool periodic = false, known = true;
  for (size_t i = facts_first_call_at(self, body.start); i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    uint32_t s = ts_node_start_byte(c->call);
    if (s >= body.end) break;
    if (c->function != self->loops.items[loop].function) continue;
    TSNode fn = FIELD(c->call, function);
    if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) continue;
    TSNode attr = FIELD(fn, attribute);
    if (!facts_node_is(self, attr, "step")) continue;
    uint32_t len;
    const char *obj = facts_text(self, FIELD(fn, object), &len);
    bool opt = false; /* optimizer.step(), or GradScaler's scaler.step(optimizer) */
    for (uint32_t k = 0; k + 3 <= len; k++)
      if (!strncmp(obj + k, "opt", 3) || (k + 6 <= len && !strncmp(obj + k, "scaler", 6))) opt = true;
    if (!opt) continue;
    if (!facts_periodic_at(self, s, loop) || same_periodic(self, s, pos, body)) {
      *steps = NULL_NODE;
      return false; /* steps every batch, or after each backward (a whole update every few batches) */
    }
    TSNode k = guard_modulus(self, s, body);
    if (ts_node_is_null(k)) {
      known = false;
    } else if (!periodic) {
      *steps = k;
    } else if (!ts_node_is_null(*steps)) {
      /* `scaler.step(opt)` and `opt.step()` under two tests: the same K or none */
      uint32_t l1, l2;
      const char *t1 = facts_text(self, *steps, &l1), *t2 = facts_text(self, k, &l2);
      if (l1 != l2 || memcmp(t1, t2, l1)) known = false;
    }
    periodic = true;
  }
  if (!known) *steps = NULL_NODE;
  return periodic;
}


bool facts_accumulates_gradients(const facts *self, uint32_t pos) {
  TSNode steps;
  return accumulation(self, pos, &steps);
}


TSNode facts_accumulation_steps(const facts *self, uint32_t pos) {
  TSNode steps;
  return accumulation(self, pos, &steps) ? steps : NULL_NODE;
}


/* The elements of a tuple or pattern list, without the comments and line
 * continuations (`\\`) tree-sitter counts among its named children:
 * their number, and ELEMS[i] for the first MAX of them. */
static uint32_t elements(TSNode list, TSNode *elems, uint32_t max) {
  uint32_t n = ts_node_named_child_count(list), k = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(list, i);
    if (ts_node_is_extra(c)) continue;
    if (k < max) elems[k] = c;
    k++;
  }
  return k;
}


static bool contains_pos(TSNode n, uint32_t pos) {
  return ts_node_start_byte(n) <= pos && pos < ts_node_end_byte(n);
}


/* The element a tuple assignment `a, b = x, y` gives the name bound at POS
 * (`y` for `b`), or null when no such assignment binds it there. */
static TSNode tuple_element(const facts *f, uint32_t pos) {
  TSNode id = ts_node_named_descendant_for_byte_range(f->root, pos, pos + 1);
  TSNode list = ts_node_is_null(id) ? id : ts_node_parent(id);
  if (ts_node_is_null(list) || !(NODE_IS(list, "pattern_list") || NODE_IS(list, "tuple_pattern"))) return NULL_NODE;
  TSNode assign = ts_node_parent(list);
  if (ts_node_is_null(assign) || !NODE_IS(assign, "assignment")) return NULL_NODE;
  TSNode right = FIELD(assign, right);
  if (ts_node_is_null(right) || !(NODE_IS(right, "expression_list") || NODE_IS(right, "tuple"))) return NULL_NODE;
  TSNode targets[FACTS_MAX_ELEMS], values[FACTS_MAX_ELEMS];
  uint32_t n = elements(list, targets, FACTS_MAX_ELEMS);
  if (n > FACTS_MAX_ELEMS || n != elements(right, values, FACTS_MAX_ELEMS)) return NULL_NODE;
  for (uint32_t i = 0; i < n; i++)
    if (ts_node_eq(targets[i], id)) return values[i];
  return NULL_NODE;
}


/* The value last assigned to identifier NODE before its position, or null:
 * by `x = v`, or element-wise by `x, y = v, w`. An assignment whose value
 * holds NODE (`x = torch.from_numpy(x)`) gives what NODE held before it. */
static TSNode last_value(const facts *f, TSNode node) {
  uint32_t len;
  const char *name = facts_text(f, node, &len);
  uint32_t pos = ts_node_start_byte(node), best_pos = 0;
  TSNode best = NULL_NODE;
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
    if (ts_node_start_byte(left) >= pos) break;
    if (NODE_IS(left, "identifier") && same_text(f, left, name, len) && !contains_pos(right, pos)) {
      best = right;
      best_pos = ts_node_start_byte(left);
    }
  }
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->pos >= pos) break;
    if (b->pos <= best_pos && !ts_node_is_null(best)) continue;
    TSNode v = tuple_element(f, b->pos);
    if (!ts_node_is_null(v) && !contains_pos(v, pos)) {
      best = v;
      best_pos = b->pos;
    }
  }
  return best;
}


static bool lower_matches_any(const char *s, size_t len, const char *const *exact) {
  char lower[64];
  if (len >= sizeof lower) return false;
  for (size_t i = 0; i < len; i++) lower[i] = (char)tolower((unsigned char)s[i]);
  lower[len] = '\0';
  for (size_t i = 0; exact[i]; i++)
    if (!strcmp(lower, exact[i])) return true;
  return false;
}


bool facts_is_dataset(const facts *self, TSNode node) {
  buf q = {0};
  bool r = false;
  for (int guard = 0; guard < 6 && !ts_node_is_null(node) && !r; guard++) {
    if (NODE_IS(node, "identifier")) {
      uint32_t len;
      const char *t = facts_text(self, node, &len);
      static const char *const names[] = {"x_train", "y_train", "x_test", "y_test", "x_val", "y_val", "x_valid",
                                          "y_valid", "xtrain", "ytrain", "xtest", "ytest", "train_x", "train_y",
                                          "test_x", "test_y", "val_x", "val_y", "train_data", "test_data",
                                          "val_data", "train_images", "train_labels", "test_images",
                                          "test_labels", "train_inputs", "train_targets", "train_features",
                                          "x_all", "y_all", NULL};
      if (lower_matches_any(t, len, names)) r = true;
      else node = last_value(self, node);
      continue;
    }
    if (NODE_IS(node, "attribute")) {
      TSNode attr = FIELD(node, attribute);
      TSNode obj = FIELD(node, object);
      uint32_t len;
      const char *o = facts_text(self, obj, &len);
      bool setlike = false;
      for (uint32_t k = 0; k + 3 <= len; k++)
        if (!strncasecmp(o + k, "set", 3) || (k + 5 <= len && !strncasecmp(o + k, "mnist", 5))) setlike = true;
      if ((facts_node_is(self, attr, "data") || facts_node_is(self, attr, "targets")) && setlike) r = true;
      else node = obj; /* a column, `.values` of a frame: as much data as the frame */
      continue;
    }
    if (NODE_IS(node, "subscript")) {
      node = FIELD(node, value); /* `frame["label"]` */
      continue;
    }
    if (!NODE_IS(node, "call")) break;
    TSNode fn = FIELD(node, function);
    if (!facts_qualname(self, fn, &q)) {
      /* `x.to_numpy()`, `x.values` of a frame, `x.float()` of a tensor */
      if (!ts_node_is_null(fn) && NODE_IS(fn, "attribute")) {
        node = FIELD(fn, object);
        continue;
      }
      break;
    }
    const char *s = buf_str(&q);
    if (!strcmp(s, "numpy.load") || !strcmp(s, "numpy.loadtxt") || !strcmp(s, "numpy.genfromtxt") ||
        !strcmp(s, "numpy.fromfile") || !strncmp(s, "pandas.read_", 12))
      r = true;
    else if (!strcmp(s, "torch.tensor") || !strcmp(s, "torch.from_numpy") || !strcmp(s, "torch.as_tensor") ||
             !strcmp(s, "torch.Tensor") || !strcmp(s, "torch.FloatTensor") || !strcmp(s, "numpy.array") ||
             !strcmp(s, "numpy.asarray")) {
      TSNode args = FIELD(node, arguments);
      node = ts_node_is_null(args) || !ts_node_named_child_count(args) ? NULL_NODE : ts_node_named_child(args, 0);
    } else {
      break;
    }
  }
  buf_free(&q);
  return r;
}


static bool has_keyword(const facts *f, TSNode args, const char *name) {
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "dictionary_splat")) return true;
    if (NODE_IS(a, "keyword_argument") && facts_node_is(f, FIELD(a, name), name)) return true;
  }
  return false;
}


static bool has_float_literal(TSNode n) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  bool found = false;
  for (int guard = 0; guard < 100000 && !found; guard++) {
    TSNode k = ts_tree_cursor_current_node(&c);
    if (NODE_IS(k, "float")) found = true;
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c) || ts_node_eq(ts_tree_cursor_current_node(&c), n)) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}


bool facts_is_numpy_float64(const facts *self, TSNode node) {
  buf q = {0};
  bool r = false;
  for (int guard = 0; guard < 6 && !ts_node_is_null(node); guard++) {
    if (NODE_IS(node, "identifier")) {
      if (facts_unpacked_float64(self, node)) {
        r = true;
        break;
      }
      node = last_value(self, node);
      continue;
    }
    if (NODE_IS(node, "subscript")) {
      node = FIELD(node, value); /* a slice keeps the dtype */
      continue;
    }
    if (!NODE_IS(node, "call")) break;
    TSNode fn = FIELD(node, function);
    TSNode args = FIELD(node, arguments);
    if (facts_float64_call(self, node)) {
      r = true;
      break;
    }
    if (!facts_qualname(self, fn, &q)) break;
    const char *s = buf_str(&q);
    static const char *const random[] = {"rand", "randn", "random", "uniform", "normal", "random_sample",
                                         "standard_normal", NULL};
    static const char *const fills[] = {"zeros", "ones", "empty", "full", "linspace", "eye", "identity",
                                        "loadtxt", "genfromtxt", NULL};
    if (!strncmp(s, "numpy.random.", 13)) {
      for (size_t i = 0; random[i]; i++)
        if (!strcmp(s + 13, random[i])) r = true;
    } else if (!strncmp(s, "numpy.", 6) && !has_keyword(self, args, "dtype")) {
      for (size_t i = 0; fills[i]; i++)
        if (!strcmp(s + 6, fills[i])) r = true;
      if ((!strcmp(s + 6, "array") || !strcmp(s + 6, "asarray")) && !ts_node_is_null(args) &&
          ts_node_named_child_count(args) && has_float_literal(ts_node_named_child(args, 0)))
        r = true;
    }
    break;
  }
  buf_free(&q);
  return r;
}


bool facts_cast_after(const facts *self, TSNode node) {
  TSNode parent = ts_node_parent(node);
  /* `Variable(x, requires_grad=False).float()`: the old wrapper keeps the
   * dtype, so the cast after it converts X */
  TSNode wrapper = ts_node_is_null(parent) || !NODE_IS(parent, "argument_list") ? NULL_NODE : ts_node_parent(parent);
  if (!ts_node_is_null(wrapper) && NODE_IS(wrapper, "call") && ts_node_named_child_count(parent) &&
      ts_node_eq(ts_node_named_child(parent, 0), node)) {
    buf q = {0};
    bool variable = facts_qualname(self, FIELD(wrapper, function), &q) && !strcmp(buf_str(&q), "torch.autograd.Variable");
    buf_free(&q);
    if (variable) parent = ts_node_parent(wrapper);
  }
  if (ts_node_is_null(parent) || !NODE_IS(parent, "attribute")) return false;
  TSNode attr = FIELD(parent, attribute);
  TSNode call = ts_node_parent(parent);
  if (ts_node_is_null(attr) || ts_node_is_null(call) || !NODE_IS(call, "call")) return false;
  static const char *const casts[] = {"float", "half", "bfloat16", "astype", "type", NULL};
  for (size_t i = 0; casts[i]; i++)
    if (facts_node_is(self, attr, casts[i])) return true;
  if (facts_node_is(self, attr, "to")) {
    uint32_t len;
    const char *t = facts_text(self, FIELD(call, arguments), &len);
    for (uint32_t k = 0; k + 5 <= len; k++)
      if (!strncmp(t + k, "float", 5) || !strncmp(t + k, "dtype", 5) || !strncmp(t + k, "half", 4)) return true;
  }
  return false;
}


/* Whether function FN binds NAME (LEN bytes) itself: a parameter, an
 * assignment, a loop target. Then its NAME is its own, not the module's. */
static bool binds_locally(const facts *f, int fn, const char *name, uint32_t len) {
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  const facts_function *g = &f->functions.items[fn];
  for (size_t i = first; i < end; i++) {
    uint32_t pos = f->bindings.items[i].pos;
    /* its parameters lie before its body */
    if (pos >= g->whole.start && pos < g->body.start) return true;
    if (facts_function_at(f, pos) == fn) return true;
  }
  return false;
}


/* Whether NAME (LEN bytes) is subscripted in a per-iteration loop of
 * function FN (-1: module level). */
static bool sliced_in(const facts *f, const char *name, uint32_t len, int fn) {
  for (size_t i = 0; i < f->subscripts.len; i++) {
    const facts_ref *r = &f->subscripts.items[i];
    if (r->len == len && !memcmp(r->name, name, len) && facts_function_at(f, r->pos) == fn &&
        facts_iteration_loop_at(f, r->pos) >= 0)
      return true;
  }
  return false;
}


/* Whether the value E names NAME (LEN bytes): the name itself, or a branch
 * of a conditional (`xtr if split == "train" else xte`). */
static bool names_value(const facts *f, TSNode e, const char *name, uint32_t len) {
  if (NODE_IS(e, "identifier")) return same_text(f, e, name, len);
  if (!NODE_IS(e, "conditional_expression") || ts_node_named_child_count(e) != 3) return false;
  TSNode a = ts_node_named_child(e, 0), b = ts_node_named_child(e, 2);
  return (NODE_IS(a, "identifier") && same_text(f, a, name, len)) || (NODE_IS(b, "identifier") && same_text(f, b, name, len));
}


bool facts_sliced_in_loop(const facts *self, TSNode node) {
  if (!NODE_IS(node, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(self, node, &len);
  int fn = facts_function_at(self, ts_node_start_byte(node));
  if (sliced_in(self, name, len, fn)) return true;
  if (fn >= 0) return false;
  /* A module-level name is read by the functions that do not bind it
   * themselves: sliced in one's batch loop as such, or through a local alias
   * (`x = xtr if split == "train" else xte`, then `x[i:i + bs]`). */
  for (size_t i = 0; i < self->subscripts.len; i++) {
    const facts_ref *r = &self->subscripts.items[i];
    if (r->len != len || memcmp(r->name, name, len) || facts_iteration_loop_at(self, r->pos) < 0) continue;
    int g = facts_function_at(self, r->pos);
    if (g >= 0 && !binds_locally(self, g, name, len)) return true;
  }
  for (size_t i = 0; i < self->assigns.len; i++) {
    TSNode left = self->assigns.items[i].left;
    if (!NODE_IS(left, "identifier") || !names_value(self, self->assigns.items[i].right, name, len)) continue;
    int g = facts_function_at(self, ts_node_start_byte(left));
    if (g < 0 || binds_locally(self, g, name, len)) continue;
    uint32_t alen;
    const char *alias = facts_text(self, left, &alen);
    if (sliced_in(self, alias, alen, g)) return true;
  }
  return false;
}


static long last_assign_before(const facts *f, const char *name, uint32_t len, uint32_t pos, int fn);


/* Whether the attribute name S (LEN bytes) reads as the samples of a
 * dataset: one of its `_`-separated words is `data`, `images`, `frames`,
 * `masks`, `rays`... (`self.all_images`, `self.fg_masks`), not `poses`,
 * `times` or `error_map`, which hold a few numbers per sample. */
static bool names_samples(const char *s, uint32_t len) {
  static const char *const words[] = {"data", "dataset", "images", "imgs", "frames", "videos", "masks", "rgbs",
                                      "rays", "pixels", "samples", "tokens", "features", "inputs", "corpus", NULL};
  uint32_t start = 0;
  for (uint32_t i = 0; i <= len; i++) {
    if (i < len && s[i] != '_') continue;
    if (i > start && lower_matches_any(s + start, i - start, words)) return true;
    start = i + 1;
  }
  return false;
}


/* The target CALL's value is bound to: `t = CALL`, or element-wise `a, t =
 * x, CALL` (or `= (x, CALL)`); null when it is bound to none. */
static TSNode bound_target(TSNode call) {
  TSNode p = ts_node_parent(call);
  if (ts_node_is_null(p)) return NULL_NODE;
  if (NODE_IS(p, "assignment")) return ts_node_eq(FIELD(p, right), call) ? FIELD(p, left) : NULL_NODE;
  if (!NODE_IS(p, "expression_list") && !NODE_IS(p, "tuple")) return NULL_NODE;
  TSNode assign = ts_node_parent(p);
  if (ts_node_is_null(assign) || !NODE_IS(assign, "assignment") || !ts_node_eq(FIELD(assign, right), p)) return NULL_NODE;
  TSNode left = FIELD(assign, left);
  if (ts_node_is_null(left) || !NODE_IS(left, "pattern_list")) return NULL_NODE;
  TSNode targets[FACTS_MAX_ELEMS], values[FACTS_MAX_ELEMS];
  uint32_t n = elements(p, values, FACTS_MAX_ELEMS);
  if (n > FACTS_MAX_ELEMS || n != elements(left, targets, FACTS_MAX_ELEMS)) return NULL_NODE;
  for (uint32_t i = 0; i < n; i++)
    if (ts_node_eq(values[i], call)) return targets[i];
  return NULL_NODE;
}


/* Whether class K of the file holds a dataset's samples: it derives torch's
 * Dataset, or a Dataset of this file derives from it (`class
 * BlenderDataset(Dataset, BlenderBase)`, the data loaded by the base); or it
 * indexes TARGET (`self.data[i:j]`, LEN bytes of text) in its own methods
 * and reads as a dataset or an iterator over one (it defines `__getitem__`,
 * `__iter__` or `__next__`, or its name says Dataset, DataModule, Iterator
 * or Loader). */
static bool data_class(const facts *f, int k, const char *target, uint32_t len) {
  const facts_class *c = &f->classes.items[k];
  if (c->is_dataset) return true;
  for (size_t i = 0; i < f->classes.len; i++) {
    const facts_class *d = &f->classes.items[i];
    if (!d->is_dataset || ts_node_is_null(d->bases)) continue;
    uint32_t n = ts_node_named_child_count(d->bases);
    for (uint32_t j = 0; j < n; j++) {
      TSNode b = ts_node_named_child(d->bases, j);
      if (NODE_IS(b, "identifier") && same_text(f, b, c->name, c->name_len)) return true;
    }
  }
  bool indexed = false;
  const char *p = f->source + ts_node_start_byte(c->node), *end = f->source + ts_node_end_byte(c->node);
  while (!indexed && p && p + len < end) {
    p = memchr(p, target[0], (size_t)(end - p));
    if (!p || p + len >= end) break;
    if (!memcmp(p, target, len) && p[len] == '[') indexed = true;
    p++;
  }
  if (!indexed) return false;
  if (contains_ci(c->name, c->name_len, "dataset") || contains_ci(c->name, c->name_len, "datamodule") ||
      contains_ci(c->name, c->name_len, "iterator") || contains_ci(c->name, c->name_len, "loader"))
    return true;
  static const char *const protocol[] = {"__getitem__", "__iter__", "__next__", NULL};
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *g = &f->functions.items[i];
    if (g->klass != k) continue;
    for (size_t j = 0; protocol[j]; j++)
      if (g->name_len == strlen(protocol[j]) && !memcmp(g->name, protocol[j], g->name_len)) return true;
  }
  return false;
}


/* Whether the expression NODE makes up a tensor: through method chains and
 * slices, `torch.randint`/`rand`/`randn`/`zeros`/`ones`/`arange`... */
static bool made_up(const facts *f, TSNode node) {
  buf q = {0};
  bool r = false;
  for (int guard = 0; guard < 16 && !ts_node_is_null(node); guard++) {
    if (NODE_IS(node, "subscript")) {
      node = FIELD(node, value);
      continue;
    }
    if (!NODE_IS(node, "call")) break;
    TSNode fn = FIELD(node, function);
    if (!facts_qualname(f, fn, &q)) {
      if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) break;
      node = FIELD(fn, object);
      continue;
    }
    static const char *const names[] = {"rand", "randn", "randint", "randperm", "zeros", "ones", "empty", "full",
                                        "arange", "linspace", "rand_like", "randn_like", "randint_like",
                                        "zeros_like", "ones_like", "empty_like", "full_like", NULL};
    const char *s = buf_str(&q);
    if (!strncmp(s, "torch.", 6))
      for (size_t i = 0; names[i]; i++)
        if (!strcmp(s + 6, names[i])) r = true;
    break;
  }
  buf_free(&q);
  return r;
}


/* Whether the attribute TARGET (`self.data`) holds made-up data wherever
 * class node KLASS assigns it, other than by the move at POS: a smoke
 * test's `self.data = torch.randint(...)`, not a dataset. Tuple
 * assignments count element-wise. */
static bool made_up_attribute(const facts *f, TSNode target, TSNode klass, uint32_t pos) {
  uint32_t len;
  const char *t = facts_text(f, target, &len);
  TSTreeCursor cur = ts_tree_cursor_new(klass);
  int seen = 0;
  bool all = true;
  for (int guard = 0; guard < 200000 && all; guard++) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (NODE_IS(n, "assignment") && !contains_pos(n, pos)) {
      TSNode left = FIELD(n, left), right = FIELD(n, right);
      TSNode targets[FACTS_MAX_ELEMS], values[FACTS_MAX_ELEMS];
      uint32_t k = 0;
      if (!ts_node_is_null(left) && !ts_node_is_null(right) && NODE_IS(left, "pattern_list")) {
        k = elements(left, targets, FACTS_MAX_ELEMS);
        if (k > FACTS_MAX_ELEMS || k != elements(right, values, FACTS_MAX_ELEMS)) k = 0;
      } else if (!ts_node_is_null(left) && !ts_node_is_null(right)) {
        targets[0] = left;
        values[0] = right;
        k = 1;
      }
      for (uint32_t i = 0; i < k; i++) {
        if (!same_text(f, targets[i], t, len)) continue;
        seen++;
        if (!made_up(f, values[i])) all = false;
      }
    }
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&cur)) {
      if (!ts_tree_cursor_goto_parent(&cur) || ts_node_eq(ts_tree_cursor_current_node(&cur), klass)) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&cur);
  return seen > 0 && all;
}


bool facts_dataset_attribute(const facts *self, TSNode call) {
  TSNode target = bound_target(call);
  if (ts_node_is_null(target) || !NODE_IS(target, "attribute")) return false;
  TSNode obj = FIELD(target, object), attr = FIELD(target, attribute);
  if (ts_node_is_null(obj) || ts_node_is_null(attr) || !facts_node_is(self, obj, "self")) return false;
  uint32_t alen, tlen;
  const char *a = facts_text(self, attr, &alen);
  if (!names_samples(a, alen)) return false;
  int fn = facts_function_at(self, ts_node_start_byte(call));
  if (fn < 0 || self->functions.items[fn].klass < 0) return false;
  const char *t = facts_text(self, target, &tlen);
  int k = self->functions.items[fn].klass;
  TSNode moved = FIELD(call, function);
  if (ts_node_is_null(moved) || !NODE_IS(moved, "attribute") || made_up(self, FIELD(moved, object))) return false;
  if (tlen == 0 || !data_class(self, k, t, tlen)) return false;
  return !made_up_attribute(self, target, self->classes.items[k].node, ts_node_start_byte(call));
}


/* Whether NODE is a tensor made from data, not a model or a constant:
 * `torch.from_numpy(x)`, `torch.tensor(frame)`, `torch.load(path)`, a
 * decoded image, a stack of samples, a dataset (facts_is_dataset), through
 * method chains (`.permute(0, 3, 1, 2).float()`) and slices. */
static bool made_from_data(const facts *f, TSNode node) {
  buf q = {0};
  bool r = false;
  for (int guard = 0; guard < 12 && !ts_node_is_null(node) && !r; guard++) {
    if (facts_is_dataset(f, node)) {
      r = true;
      break;
    }
    if (NODE_IS(node, "subscript")) {
      node = FIELD(node, value);
      continue;
    }
    if (NODE_IS(node, "identifier")) {
      node = last_value(f, node);
      continue;
    }
    if (!NODE_IS(node, "call")) break;
    TSNode fn = FIELD(node, function), args = FIELD(node, arguments);
    if (!facts_qualname(f, fn, &q)) {
      if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) break;
      node = FIELD(fn, object); /* `x.permute(...)`, `x.float()` */
      continue;
    }
    static const char *const loaders[] = {"torch.from_numpy", "torch.as_tensor", "torch.load", "torch.stack",
                                          "torch.cat", "torchvision.transforms.functional.to_tensor",
                                          "torchvision.io.read_image", NULL};
    static const char *const constructors[] = {"torch.tensor", "torch.Tensor", "torch.FloatTensor", NULL};
    const char *s = buf_str(&q);
    for (size_t i = 0; loaders[i]; i++)
      if (!strcmp(s, loaders[i])) r = true;
    for (size_t i = 0; constructors[i] && !r; i++) {
      if (strcmp(s, constructors[i])) continue;
      /* `torch.tensor([0.5, 0.5])`: a constant written out, not data */
      TSNode first = ts_node_is_null(args) || !ts_node_named_child_count(args) ? NULL_NODE : ts_node_named_child(args, 0);
      r = !ts_node_is_null(first) && !NODE_IS(first, "list") && !NODE_IS(first, "tuple") &&
          !NODE_IS(first, "integer") && !NODE_IS(first, "float");
    }
    break;
  }
  buf_free(&q);
  return r;
}


/* Whether E is VALUE (the node itself, or an identifier with its text), or
 * a list or tuple literal holding it (`[net_in, net_gt]`). */
static bool holds_value(const facts *f, TSNode e, TSNode value) {
  if (ts_node_is_null(e)) return false;
  if (NODE_IS(e, "list") || NODE_IS(e, "tuple") || NODE_IS(e, "expression_list")) {
    uint32_t n = ts_node_named_child_count(e);
    for (uint32_t i = 0; i < n; i++)
      if (holds_value(f, ts_node_named_child(e, i), value)) return true;
    return false;
  }
  if (ts_node_eq(e, value)) return true;
  uint32_t len;
  const char *t = facts_text(f, value, &len);
  return NODE_IS(value, "identifier") && NODE_IS(e, "identifier") && same_text(f, e, t, len);
}


/* The container the statement node N stores VALUE in: `c.append(v)`,
 * `c[k] = v`, `c[k] = [v, w]`; null otherwise. */
static TSNode store_target(const facts *f, TSNode n, TSNode value) {
  if (NODE_IS(n, "assignment")) {
    TSNode left = FIELD(n, left);
    if (ts_node_is_null(left) || !NODE_IS(left, "subscript") || !holds_value(f, FIELD(n, right), value))
      return NULL_NODE;
    TSNode c = FIELD(left, value);
    return !ts_node_is_null(c) && NODE_IS(c, "identifier") ? c : NULL_NODE;
  }
  if (!NODE_IS(n, "call")) return NULL_NODE;
  TSNode fn = FIELD(n, function), args = FIELD(n, arguments);
  if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute") || !facts_node_is(f, FIELD(fn, attribute), "append") ||
      ts_node_is_null(args) || ts_node_named_child_count(args) != 1 || !holds_value(f, ts_node_named_child(args, 0), value))
    return NULL_NODE;
  TSNode c = FIELD(fn, object);
  return !ts_node_is_null(c) && NODE_IS(c, "identifier") ? c : NULL_NODE;
}


/* Whether C (a name) was made an empty container before LOOP in its
 * function: `c = []`, `c = [None] * n`, `c = {}`, `c = list()`. */
static bool empty_container_before(const facts *f, TSNode c, int loop) {
  uint32_t len;
  const char *name = facts_text(f, c, &len);
  const facts_loop *l = &f->loops.items[loop];
  long a = last_assign_before(f, name, len, ts_node_start_byte(l->node), l->function);
  if (a < 0) return false;
  TSNode v = f->assigns.items[a].right;
  if (NODE_IS(v, "binary_operator")) v = FIELD(v, left);
  if (ts_node_is_null(v)) return false;
  if (NODE_IS(v, "list") || NODE_IS(v, "dictionary")) return true;
  if (!NODE_IS(v, "call")) return false;
  TSNode args = FIELD(v, arguments);
  return (facts_node_is(f, FIELD(v, function), "list") || facts_node_is(f, FIELD(v, function), "dict")) &&
         !ts_node_is_null(args) && ts_node_named_child_count(args) == 0;
}


/* Whether the container C, filled in LOOP, is taken item by item by a batch
 * loop of the same function: subscripted in one (`net_in, net_gt =
 * data_in_memory[id]`), or iterated by one (`for x, y in cached:`). */
static bool taken_per_batch(const facts *f, TSNode c, int loop) {
  uint32_t len;
  const char *name = facts_text(f, c, &len);
  int fn = f->loops.items[loop].function;
  if (sliced_in(f, name, len, fn)) return true;
  for (size_t i = 0; i < f->loops.len; i++) {
    const facts_loop *l = &f->loops.items[i];
    if (!l->per_iteration || l->function != fn || !NODE_IS(l->node, "for_statement")) continue;
    TSNode right = FIELD(l->node, right);
    if (!ts_node_is_null(right) && NODE_IS(right, "identifier") && same_text(f, right, name, len)) return true;
  }
  return false;
}


bool facts_kept_per_item(const facts *self, TSNode call) {
  uint32_t pos = ts_node_start_byte(call);
  int loop = facts_innermost_loop_at(self, pos);
  if (loop < 0 || self->loops.items[loop].per_iteration) return false;
  TSNode fn = FIELD(call, function);
  if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute") || !made_from_data(self, FIELD(fn, object))) return false;
  /* the moved value itself, or the name it is assigned to */
  TSNode value = call;
  TSNode target = bound_target(call);
  if (!ts_node_is_null(target) && NODE_IS(target, "identifier")) value = target;
  TSNode body = FIELD(self->loops.items[loop].node, body);
  if (ts_node_is_null(body)) return false;
  /* a walk of the loop's body for the statement that stores the value */
  TSTreeCursor cur = ts_tree_cursor_new(body);
  bool found = false;
  for (int guard = 0; guard < 100000 && !found; guard++) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (ts_node_end_byte(n) > pos) { /* after the move, or around it (`c.append(x.cuda())`) */
      TSNode c = store_target(self, n, value);
      if (!ts_node_is_null(c) && empty_container_before(self, c, loop) && taken_per_batch(self, c, loop)) found = true;
    }
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&cur)) {
      if (!ts_tree_cursor_goto_parent(&cur) || ts_node_eq(ts_tree_cursor_current_node(&cur), body)) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&cur);
  return found;
}


bool facts_in_parameter(const facts *self, TSNode node) {
  buf q = {0};
  bool r = false;
  TSNode inner = node;
  /* up through the expression holding NODE (`1e-5 + torch.zeros(...)`),
   * never past its statement */
  for (int guard = 0; guard < 16 && !r; guard++) {
    TSNode up = ts_node_parent(inner);
    if (ts_node_is_null(up) || NODE_IS(up, "expression_statement") || NODE_IS(up, "block") || NODE_IS(up, "module"))
      break;
    if (NODE_IS(up, "argument_list")) {
      TSNode call = ts_node_parent(up);
      if (!ts_node_is_null(call) && NODE_IS(call, "call") && ts_node_named_child_count(up) &&
          ts_node_eq(ts_node_named_child(up, 0), inner) && facts_qualname(self, FIELD(call, function), &q) &&
          (!strcmp(buf_str(&q), "torch.nn.Parameter") || !strcmp(buf_str(&q), "torch.nn.parameter.Parameter"))) {
        /* `nn.Parameter(t, requires_grad=False)`: a constant, never trained */
        r = true;
        uint32_t n = ts_node_named_child_count(up);
        for (uint32_t i = 1; i < n; i++) {
          TSNode a = ts_node_named_child(up, i);
          if (!NODE_IS(a, "keyword_argument") || !facts_node_is(self, FIELD(a, name), "requires_grad")) continue;
          r = !facts_node_is(self, FIELD(a, value), "False");
        }
        if (n > 1 && NODE_IS(ts_node_named_child(up, 1), "false")) r = false; /* `nn.Parameter(t, False)` */
      }
    }
    inner = up;
  }
  buf_free(&q);
  return r;
}


bool facts_class_derives(const facts *self, TSNode node, bool (*match)(void *, const char *, size_t), void *ctx) {
  uint32_t len;
  const char *name = facts_text(self, node, &len);
  buf q = {0};
  bool r = false;
  /* up through the file's own classes, a few levels */
  for (int depth = 0; depth < 8 && !r && name; depth++) {
    const facts_class *k = NULL;
    for (size_t i = 0; i < self->classes.len; i++)
      if (self->classes.items[i].name_len == len && !memcmp(self->classes.items[i].name, name, len)) k = &self->classes.items[i];
    if (!k || ts_node_is_null(k->bases)) break;
    const char *next = NULL;
    uint32_t n = ts_node_named_child_count(k->bases), next_len = 0;
    for (uint32_t i = 0; i < n && !r; i++) {
      TSNode b = ts_node_named_child(k->bases, i);
      if (facts_qualname(self, b, &q) && match(ctx, buf_str(&q), q.len)) r = true;
      else if (NODE_IS(b, "identifier") && !next) next = facts_text(self, b, &next_len);
    }
    name = next;
    len = next_len;
  }
  buf_free(&q);
  return r;
}




/* Whether the last name of CALLEE reads as a loss: `criterion`, `loss_fn`,
 * `self.ce_loss`. */
static bool named_as_loss(const facts *f, TSNode callee) {
  TSNode last = NODE_IS(callee, "attribute") ? FIELD(callee, attribute) : callee;
  if (ts_node_is_null(last)) return false;
  uint32_t len;
  const char *t = facts_text(f, last, &len);
  return contains_ci(t, len, "loss") || contains_ci(t, len, "crit");
}


bool facts_wholly_no_grad(const facts *f, int fn) {
  const facts_function *g = &f->functions.items[fn];
  if (g->no_grad) return true;
  TSNode body = FIELD(g->node, body);
  if (ts_node_is_null(body)) return false;
  uint32_t n = ts_node_named_child_count(body), statements = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode s = ts_node_named_child(body, i);
    if (NODE_IS(s, "comment")) continue;
    if (NODE_IS(s, "expression_statement") && ts_node_named_child_count(s) == 1 &&
        NODE_IS(ts_node_named_child(s, 0), "string"))
      continue; /* a docstring */
    statements++;
    TSNode inner = NODE_IS(s, "with_statement") ? FIELD(s, body) : s;
    if (ts_node_is_null(inner) || !facts_in_no_grad(f, ts_node_start_byte(inner))) return false;
  }
  return statements > 0;
}


static bool is_entry_method(const facts_function *g) {
  return (g->name_len == 7 && !memcmp(g->name, "forward", 7)) || (g->name_len == 8 && !memcmp(g->name, "__call__", 8));
}


/* Adds the text of node N to VEC, a vector of strings of F, unless it holds it. */
#define ADD_NAME(vec, f, n)                                                    \
  do {                                                                         \
    uint32_t l_;                                                               \
    const char *t_ = facts_text((f), (n), &l_);                                \
    if (!in_names((vec)->items, (vec)->len, t_, l_)) vec_push((vec), oom_xstrndup(t_, l_)); \
  } while (0)


/* The last assignment to the identifier NAME (LEN bytes) before POS in
 * function FN, or -1. Assignments are in document order. */
static long last_assign_before(const facts *f, const char *name, uint32_t len, uint32_t pos, int fn) {
  size_t lo = 0, hi = f->assigns.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ts_node_start_byte(f->assigns.items[mid].left) < pos) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i-- > 0;) {
    TSNode left = f->assigns.items[i].left;
    if (NODE_IS(left, "identifier") && same_text(f, left, name, len))
      return facts_function_at(f, ts_node_start_byte(left)) == fn ? (long)i : -1;
  }
  return -1;
}


/* Whether E, an argument of a call at POS in function FN, is (or was
 * assigned from) the output of another callable: a model of the file, or
 * a name the file neither defines nor imports (a parameter, `self.net`). A
 * loss takes a model's output; a model takes data. */
static bool from_producer(const facts *f, TSNode e, uint32_t pos, int fn, buf *tmp) {
  for (int hop = 0; hop < 2 && !ts_node_is_null(e); hop++) {
    while (!ts_node_is_null(e) && (NODE_IS(e, "attribute") || NODE_IS(e, "subscript")))
      e = NODE_IS(e, "attribute") ? FIELD(e, object) : FIELD(e, value);
    if (ts_node_is_null(e)) return false;
    if (NODE_IS(e, "call")) {
      TSNode callee = FIELD(e, function);
      if (ts_node_is_null(callee)) return false;
      if (facts_is_model(f, callee)) return true;
      bool self_attr = NODE_IS(callee, "attribute") && NODE_IS(FIELD(callee, object), "identifier") &&
                       facts_node_is(f, FIELD(callee, object), "self");
      if (!NODE_IS(callee, "identifier") && !self_attr) return false;
      uint32_t len;
      const char *t = facts_text(f, self_attr ? FIELD(callee, attribute) : callee, &len);
      return len && !isupper((unsigned char)t[0]) && facts_function_named(f, callee) < 0 && !facts_qualname(f, callee, tmp);
    }
    if (!NODE_IS(e, "identifier")) return false;
    uint32_t len;
    const char *name = facts_text(f, e, &len);
    long a = last_assign_before(f, name, len, pos, fn);
    if (a < 0) return false;
    e = f->assigns.items[a].right;
  }
  return false;
}


/* Callables whose result is backpropagated as it is (`l = dice(out, y);
 * l.backward()`, `(ce(a, y) + 0.1 * kl(p, q)).backward()`) and that nothing
 * else shows to be a model: losses, whose calls in an evaluation loop are
 * not its forward pass, when they take another callable's output (a
 * model's) and nothing else shows them to be a model. A model that returns
 * its loss (`loss = net(x)`) takes data, and stays a model. */
static void loss_producers(facts *f) {
  buf tmp = {0};
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    TSNode fn = FIELD(c->call, function);
    if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute") || !facts_node_is(f, FIELD(fn, attribute), "backward")) continue;
    TSNode value = FIELD(fn, object);
    while (!ts_node_is_null(value) && NODE_IS(value, "parenthesized_expression") && ts_node_named_child_count(value))
      value = ts_node_named_child(value, 0);
    if (ts_node_is_null(value)) continue;
    if (NODE_IS(value, "identifier")) {
      uint32_t len;
      const char *name = facts_text(f, value, &len);
      long a = last_assign_before(f, name, len, ts_node_start_byte(c->call), c->function);
      if (a < 0) continue;
      value = f->assigns.items[a].right;
    }
    /* the value and the terms of its sums and products */
    TSNode stack[16];
    int n = 0;
    stack[n++] = value;
    while (n > 0) {
      TSNode e = stack[--n];
      if (NODE_IS(e, "binary_operator") || NODE_IS(e, "parenthesized_expression")) {
        uint32_t k = ts_node_named_child_count(e);
        for (uint32_t j = 0; j < k && n < 16; j++) stack[n++] = ts_node_named_child(e, j);
        continue;
      }
      if (!NODE_IS(e, "call")) continue;
      TSNode callee = FIELD(e, function);
      if (ts_node_is_null(callee) || facts_is_model(f, callee)) continue;
      bool self_attr = NODE_IS(callee, "attribute") && NODE_IS(FIELD(callee, object), "identifier") &&
                       facts_node_is(f, FIELD(callee, object), "self");
      if (!NODE_IS(callee, "identifier") && !self_attr) continue;
      TSNode args = FIELD(e, arguments);
      uint32_t nargs = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
      bool loss = false;
      for (uint32_t j = 0; j < nargs && !loss; j++)
        loss = from_producer(f, ts_node_named_child(args, j), ts_node_start_byte(e), c->function, &tmp);
      if (loss) ADD_NAME(&f->loss_names, f, callee);
    }
  }
  buf_free(&tmp);
}


void facts__call_kinds(facts *f);
void facts__call_kinds(facts *f) {
  /* the classes of the file whose forward or __call__ runs wholly under no_grad */
  bool *wrapper = oom_xcalloc(f->classes.len + 1, sizeof *wrapper);
  bool any = false;
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *g = &f->functions.items[i];
    if (g->klass >= 0 && is_entry_method(g) && f->no_grad.len && facts_wholly_no_grad(f, (int)i))
      wrapper[g->klass] = any = true;
  }
  buf q = {0};
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
    if (!NODE_IS(right, "call")) continue;
    TSNode callee = FIELD(right, function);
    if (ts_node_is_null(callee) || !(NODE_IS(callee, "identifier") || NODE_IS(callee, "attribute"))) continue;
    TSNode last = NODE_IS(callee, "attribute") ? FIELD(callee, attribute) : callee;
    uint32_t len;
    const char *t = facts_text(f, last, &len);
    if (!len || !isupper((unsigned char)t[0])) continue; /* only classes are of interest */
    /* `ce = nn.CrossEntropyLoss()` */
    if (len > 4 && !memcmp(t + len - 4, "Loss", 4) && facts_qualname(f, callee, &q) &&
        !strncmp(buf_str(&q), "torch.nn.", 9)) {
      ADD_NAME(&f->loss_names, f, left);
      continue;
    }
    /* `predictor = Predictor(net)`, of this file or of the project */
    bool wraps = false;
    for (size_t k = 0; any && !wraps && NODE_IS(callee, "identifier") && k < f->classes.len; k++)
      wraps = wrapper[k] && f->classes.items[k].name_len == len && !memcmp(f->classes.items[k].name, t, len);
    facts_symbol sym;
    if (!wraps && f->imports && facts_project_symbol(f, callee, &sym))
      wraps = (sym.flags & SYM_CLASS) && (sym.flags & SYM_NO_GRAD);
    if (wraps) ADD_NAME(&f->wrapper_names, f, left);
  }
  buf_free(&q);
  free(wrapper);
  loss_producers(f);
}


/* Whether ATTR, called on a model, runs (part of) its forward pass: `forward`,
 * a prediction or step method, a submodule by a usual name. `init_hidden`,
 * `num_parameters` and the like do not. */
static bool forward_like(const facts *f, TSNode attr) {
  uint32_t len;
  const char *t = facts_text(f, attr, &len);
  static const char *const exact[] = {"forward", "module", "features", "feature_extractor", "backbone", "encoder",
                                      "decoder", "head", "classifier", "model", "net", "network", NULL};
  for (size_t i = 0; exact[i]; i++)
    if (strlen(exact[i]) == len && !memcmp(exact[i], t, len)) return true;
  /* not `inference`: libraries decorate theirs with no_grad (PyG's models) */
  static const char *const prefixes[] = {"forward_", "predict", "encode", "decode", "extract", "embed", "classify",
                                         NULL};
  for (size_t i = 0; prefixes[i]; i++)
    if (len >= strlen(prefixes[i]) && !memcmp(t, prefixes[i], strlen(prefixes[i]))) return true;
  return len > 5 && !memcmp(t + len - 5, "_step", 5);
}


bool facts_is_model_call(const facts *self, TSNode callee) {
  if (ts_node_is_null(callee)) return false;
  if (facts_is_model(self, callee)) {
    /* a loss module, or a wrapper that turns gradients off itself */
    uint32_t len;
    const char *t = facts_text(self, callee, &len);
    return !named_as_loss(self, callee) && !in_names(self->loss_names.items, self->loss_names.len, t, len) &&
           !in_names(self->wrapper_names.items, self->wrapper_names.len, t, len);
  }
  /* `model.predict(x)`, `net.forward(x)`, `self.model.feature_extractor(x)`:
   * a method or a submodule of a model (`self.<attr>` a module of its class) */
  if (!NODE_IS(callee, "attribute")) return false;
  TSNode obj = FIELD(callee, object), attr = FIELD(callee, attribute);
  if (ts_node_is_null(obj) || ts_node_is_null(attr) || !facts_is_model(self, obj) || named_as_loss(self, callee))
    return false;
  if (forward_like(self, attr)) return true;
  uint32_t len;
  const char *t = facts_text(self, attr, &len);
  char sub[80];
  if (len + 5 >= sizeof sub) return false;
  memcpy(sub, "self.", 5);
  memcpy(sub + 5, t, len);
  return in_names(self->module_names.items, self->module_names.len, sub, len + 5);
}




static bool backward_or_training_call(const facts *f, TSNode call, buf *tmp) {
  TSNode fn = FIELD(call, function);
  if (ts_node_is_null(fn)) return false;
  if (NODE_IS(fn, "attribute") && facts_node_is(f, FIELD(fn, attribute), "backward")) return true;
  int g = facts_function_named(f, fn);
  if (g >= 0) return f->functions.items[g].backward;
  facts_symbol sym;
  if (f->imports && facts_project_symbol(f, fn, &sym) && (sym.flags & SYM_FUNCTION) && (sym.flags & SYM_BACKWARD))
    return true;
  /* an optimizer stepped, or handed to a helper (`loss_scaler(loss, optimizer)`) */
  uint32_t len;
  const char *t = facts_text(f, FIELD(call, arguments), &len);
  if (contains_ci(t, len, "optim")) return true;
  if (NODE_IS(fn, "attribute") && facts_node_is(f, FIELD(fn, attribute), "step")) {
    t = facts_text(f, FIELD(fn, object), &len);
    if (contains_ci(t, len, "opt") || contains_ci(t, len, "scaler")) return true;
  }
  if (!NODE_IS(fn, "attribute")) return false;
  return facts_qualname(f, fn, tmp) &&
         (!strcmp(buf_str(tmp), "torch.autograd.backward") || !strcmp(buf_str(tmp), "torch.autograd.grad"));
}


bool facts_backward_follows(const facts *self, uint32_t pos) {
  int fn = facts_function_at(self, pos);
  facts_span scope = fn >= 0 ? self->functions.items[fn].body : (facts_span){0, (uint32_t)self->length + 1};
  /* A backward earlier in an enclosing loop is part of the same work (an
   * attack before the evaluation of each batch), unless a `.eval()` after
   * it starts a phase of its own: the validation after the optimizer step. */
  uint32_t from = pos;
  for (int l = facts_innermost_loop_at(self, pos); l >= 0 && self->loops.items[l].function == fn;
       l = self->loops.items[l].outer)
    from = self->loops.items[l].body.start;
  buf tmp = {0};
  bool r = false;
  for (size_t i = facts_first_call_at(self, from); i < self->calls.len && !(r && ts_node_start_byte(self->calls.items[i].call) >= pos); i++) {
    const facts_call *c = &self->calls.items[i];
    uint32_t s = ts_node_start_byte(c->call);
    if (s >= scope.end) break;
    if (fn < 0 && c->function >= 0) continue; /* at module level, the module's own statements */
    if (s < pos && c->function == fn && mode_call(self, c->call) == 1) r = false;
    else if (backward_or_training_call(self, c->call, &tmp)) r = true;
  }
  buf_free(&tmp);
  return r;
}
