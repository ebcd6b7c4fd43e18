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


bool facts_in_eval_function(const facts *self, uint32_t pos) {
  int fn = facts_function_at(self, pos);
  /* a model's `predict_masks` is its own computation (Segment Anything) */
  return fn >= 0 && eval_name(self->functions.items[fn].name, self->functions.items[fn].name_len) &&
         !facts_in_module_method(self, fn);
}


/* The model a call of NODE runs: `m` for `m(x)` and `m.forward(x)`; NULL
 * (any model) when NODE is not such a call. */
static const char *called_model(const facts *f, TSNode node, uint32_t *len) {
  if (!NODE_IS(node, "call")) return NULL;
  TSNode fn = FIELD(node, function);
  if (ts_node_is_null(fn)) return NULL;
  if (NODE_IS(fn, "attribute") && facts_node_is(f, FIELD(fn, attribute), "forward")) fn = FIELD(fn, object);
  return ts_node_is_null(fn) ? NULL : facts_text(f, fn, len);
}


bool facts_in_eval_context(const facts *self, TSNode node) {
  uint32_t pos = ts_node_start_byte(node);
  int fn = facts_function_at(self, pos);
  if (facts_in_module_method(self, fn)) return false;
  for (int f = fn; f >= 0; f = self->functions.items[f].parent)
    if (eval_name(self->functions.items[f].name, self->functions.items[f].name_len)) return true;
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
  }
  return mode == 1;
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


/* The value last assigned to identifier NODE before its position, or null. */
static TSNode last_value(const facts *f, TSNode node) {
  uint32_t len;
  const char *name = facts_text(f, node, &len);
  uint32_t pos = ts_node_start_byte(node);
  TSNode best = NULL_NODE;
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left;
    if (ts_node_start_byte(left) >= pos) break;
    if (NODE_IS(left, "identifier") && same_text(f, left, name, len)) best = f->assigns.items[i].right;
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


bool facts_sliced_in_loop(const facts *self, TSNode node) {
  if (!NODE_IS(node, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(self, node, &len);
  int fn = facts_function_at(self, ts_node_start_byte(node));
  for (size_t i = 0; i < self->subscripts.len; i++) {
    const facts_ref *r = &self->subscripts.items[i];
    if (r->len == len && !memcmp(r->name, name, len) && facts_function_at(self, r->pos) == fn &&
        facts_iteration_loop_at(self, r->pos) >= 0)
      return true;
  }
  return false;
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
