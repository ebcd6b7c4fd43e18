/* This file contains the contexts rules ask about beyond loops and no-grad:
 * storage that outlives an iteration, evaluation contexts, what a batch loop
 * calls (zero_grad, a periodic optimizer step), class ancestry, and which
 * calls are model calls. Where the data lives (datasets, float64) is in
 * data.c. */
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


static bool in_names(char *const *items, size_t n, const char *s, uint32_t len) {
  for (size_t i = 0; i < n; i++)
    if (facts__cstr_is(items[i], s, len)) return true;
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


/* The outermost per-iteration loop around NODE, a store's target, and the
 * name at the target's root (`xs` of `xs[k].a`): false when there is no
 * such loop or the root is no plain name. */
static bool stored_in_loop(const facts *self, TSNode node, int *loop, const char **name, uint32_t *len) {
  *loop = outer_iteration_loop_at(self, ts_node_start_byte(node));
  if (*loop < 0) return false;
  TSNode base = base_name(node);
  if (ts_node_is_null(base) || !NODE_IS(base, "identifier")) return false;
  *name = facts_text(self, base, len);
  return true;
}


/* Whether NAME (LEN bytes) is bound last before POS in function FN to an
 * instance of a class imported from a library or another module that is
 * no container of the standard library (MONAI's `CumulativeAverage()`):
 * what its `append` keeps, a detached copy or a running sum, is its own
 * business. A class of this file (an `AverageMeter`) is not one. */
static bool library_object(const facts *f, const char *name, uint32_t len, uint32_t pos, int fn) {
  static const char *const containers[] = {"deque", "defaultdict", "OrderedDict", "Counter", "UserList", "UserDict",
                                           "ChainMap", "ModuleList", "ModuleDict", "ParameterList",
                                           "ParameterDict", "TensorList", NULL};
  long a = facts__last_assign_before(f, name, len, pos, fn);
  if (a < 0 || !NODE_IS(f->assigns.items[a].left, "identifier")) return false;
  TSNode right = f->assigns.items[a].right;
  if (!NODE_IS(right, "call")) return false;
  TSNode callee = FIELD(right, function);
  if (!ts_node_is_null(callee) && NODE_IS(callee, "attribute")) callee = FIELD(callee, attribute);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier")) return false;
  uint32_t clen;
  const char *c = facts_text(f, callee, &clen);
  if (!clen || !isupper((unsigned char)c[0]) || in_names((char *const *)containers, sizeof containers / sizeof *containers - 1, c, clen)) return false;
  for (size_t i = 0; i < f->classes.len; i++)
    if (f->classes.items[i].name_len == clen && !memcmp(f->classes.items[i].name, c, clen)) return false;
  /* a constant (`BUFFER = ...`) or a typing alias is no constructor */
  for (uint32_t i = 1; i < clen; i++)
    if (islower((unsigned char)c[i])) return true;
  return false;
}


/* Whether loop L (of a function) runs one episode of an environment and
 * its function returns the container NAME (LEN bytes) after it: the loop
 * steps an environment (`obs, reward, done = env.step(action)`), reads no
 * loader and runs no backward or optimizer step, and a `return` after the
 * loop hands the list back (`return log_probs, rewards, info`). One
 * episode's log-probabilities, kept for the caller's policy-gradient
 * update. */
static bool episode_returned(const facts *f, int loop, const char *name, uint32_t len) {
  const facts_loop *l = &f->loops.items[loop];
  if (l->function < 0 || (l->evidence & (LOOP_ITERATES_LOADER | LOOP_CALLS_BACKWARD | LOOP_CALLS_STEP))) return false;
  bool steps_env = false;
  for (size_t i = facts_first_call_at(f, l->body.start); i < f->calls.len && !steps_env; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    if (c->loop != loop) continue;
    TSNode callee = FIELD(c->call, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute") || !facts_node_is(f, FIELD(callee, attribute), "step"))
      continue;
    uint32_t ol;
    const char *o = facts_text(f, FIELD(callee, object), &ol);
    steps_env = facts_text_has_ci(o, ol, "env");
  }
  if (!steps_env) return false;
  uint32_t after = ts_node_end_byte(l->node);
  for (size_t i = 0; i < f->returns.len; i++) {
    const facts_call *r = &f->returns.items[i];
    if (r->function != l->function || ts_node_start_byte(r->call) < after || !ts_node_named_child_count(r->call))
      continue;
    TSNode v = ts_node_named_child(r->call, 0);
    if (NODE_IS(v, "identifier") && facts_text_is(f, v, name, len)) return true;
    if (!NODE_IS(v, "expression_list") && !NODE_IS(v, "tuple")) continue;
    TSNode e;
    for (children k = children_of(v); children_next(&k, &e);)
      if (NODE_IS(e, "identifier") && facts_text_is(f, e, name, len)) {
        children_done(&k);
        return true;
      }
  }
  return false;
}


/* Whether NODE runs in the first iteration of an enclosing loop only: it
 * lies under `if step == 0:` where `step` is the target of a `for` loop
 * around it (static buffers filled once, then updated in place). */
static bool first_iteration_only(const facts *f, TSNode node) {
  for (TSNode up = ts_node_parent(node); !ts_node_is_null(up); up = ts_node_parent(up)) {
    if (NODE_IS(up, "function_definition") || NODE_IS(up, "class_definition")) return false;
    if (!NODE_IS(up, "if_statement")) continue;
    TSNode cond = FIELD(up, condition);
    if (ts_node_is_null(cond) || !NODE_IS(cond, "comparison_operator") || ts_node_named_child_count(cond) != 2 ||
        ts_node_child_count(cond) != 3 || strcmp(ts_node_type(ts_node_child(cond, 1)), "==") != 0)
      continue;
    TSNode l = ts_node_named_child(cond, 0), r = ts_node_named_child(cond, 1);
    if (NODE_IS(l, "integer")) {
      TSNode t = l;
      l = r;
      r = t;
    }
    if (!NODE_IS(l, "identifier") || !NODE_IS(r, "integer") || !facts_node_is(f, r, "0")) continue;
    uint32_t len;
    const char *name = facts_text(f, l, &len);
    /* the body of the if must be inside it: `node` under the consequence */
    TSNode body = FIELD(up, consequence);
    if (ts_node_is_null(body) || ts_node_start_byte(node) < ts_node_start_byte(body) ||
        ts_node_start_byte(node) >= ts_node_end_byte(body))
      continue;
    for (TSNode loop = ts_node_parent(up); !ts_node_is_null(loop); loop = ts_node_parent(loop)) {
      if (NODE_IS(loop, "function_definition")) break;
      if (!NODE_IS(loop, "for_statement")) continue;
      TSNode target = FIELD(loop, left);
      if (!ts_node_is_null(target) && NODE_IS(target, "identifier") && facts_text_is(f, target, name, len)) return true;
      uint32_t n = ts_node_is_null(target) ? 0 : ts_node_named_child_count(target);
      for (uint32_t i = 0; i < n; i++) {
        TSNode t = ts_node_named_child(target, i);
        if (NODE_IS(t, "identifier") && facts_text_is(f, t, name, len)) return true;
      }
    }
  }
  return false;
}




/* The receiver of call C when C is `x.backward(...)` made by function FN
 * itself (`(loss / k).backward()`: `(loss / k)`; the arguments of
 * `torch.autograd.backward(...)`), else a null node. */
static TSNode backward_receiver(const facts *f, const facts_call *c, int fn) {
  if (c->function != fn) return NULL_NODE;
  TSNode callee = FIELD(c->call, function);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute") || !facts_node_is(f, FIELD(callee, attribute), "backward"))
    return NULL_NODE;
  /* `torch.autograd.backward([critic_loss] + losses, grads)`: the tensors
   * it backpropagates are its arguments */
  TSNode obj = FIELD(callee, object);
  if (!ts_node_is_null(obj) && (facts_node_is(f, obj, "autograd") || NODE_IS(obj, "attribute"))) {
    buf q = {0};
    bool autograd = facts_qualname(f, callee, &q) && !strcmp(buf_str(&q), "torch.autograd.backward");
    buf_free(&q);
    if (autograd) return FIELD(c->call, arguments);
  }
  return obj;
}


/* The outputs CALL (made by function FN itself) differentiates when it is
 * `torch.autograd.grad(outputs, inputs, ...)`: its first argument (or
 * `outputs=`), else a null node. */
static TSNode grad_outputs(const facts *f, const facts_call *c, int fn) {
  if (c->function != fn) return NULL_NODE;
  TSNode callee = FIELD(c->call, function), args = FIELD(c->call, arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args) || !NODE_IS(callee, "attribute") ||
      !facts_node_is(f, FIELD(callee, attribute), "grad") || !ts_node_named_child_count(args))
    return NULL_NODE;
  buf q = {0};
  bool grad = facts_qualname(f, callee, &q) && !strcmp(buf_str(&q), "torch.autograd.grad");
  buf_free(&q);
  if (!grad) return NULL_NODE;
  TSNode first = ts_node_named_child(args, 0);
  if (!NODE_IS(first, "keyword_argument")) return first;
  TSNode a;
  for (children k = children_of(args); children_next(&k, &a);)
    if (NODE_IS(a, "keyword_argument") && facts_node_is(f, FIELD(a, name), "outputs")) {
      children_done(&k);
      return FIELD(a, value);
    }
  return NULL_NODE;
}


/* Whether, after loop L, its function backpropagates through the container
 * NAME (LEN bytes): `torch.stack(losses).sum().backward()`, `sum(losses)
 * .backward()`. Its graphs are kept to be backpropagated together. */
/* Whether function FN is Lightning's `training_step` (of a class with
 * bases) and returns, after AFTER, a value that reads one of NAMES (LENS):
 * Lightning backpropagates what the step returns (`loss =
 * sum(main_loss) / len(main_loss); return loss` over the noisy copies of
 * one batch). */
static bool returned_by_training_step(const facts *f, int fn, uint32_t after, const char *const *names,
                                      const uint32_t *lens, size_t n) {
  if (fn < 0) return false;
  const facts_function *g = &f->functions.items[fn];
  if (g->klass < 0 || g->name_len != 13 || memcmp(g->name, "training_step", 13) != 0 ||
      !facts_class_has_bases(f, &f->classes.items[g->klass]))
    return false;
  for (uint32_t i = facts__next_text(f, after, g->body.end, "return", 6); i < g->body.end;
       i = facts__next_text(f, i + 1, g->body.end, "return", 6)) {
    TSNode kw = ts_node_descendant_for_byte_range(f->root, i, i + 6);
    TSNode st = ts_node_is_null(kw) ? kw : ts_node_parent(kw);
    if (ts_node_is_null(st) || !NODE_IS(st, "return_statement") || ts_node_start_byte(st) != i ||
        facts_function_at(f, i) != fn)
      continue;
    uint32_t tl;
    const char *t = facts_text(f, st, &tl);
    for (size_t k = 0; k < n; k++)
      if (facts__mentions(t + 6, tl - 6, names[k], lens[k])) return true;
  }
  return false;
}


/* Whether a call of function FN after AFTER backpropagates or
 * differentiates a value that reads one of NAMES (LENS, N of them). */
static bool backward_reads(const facts *f, int fn, uint32_t after, const char *const *names, const uint32_t *lens,
                           size_t n) {
  facts_span scope = fn >= 0 ? f->functions.items[fn].body : (facts_span){0, (uint32_t)f->length + 1};
  for (size_t i = facts_first_call_at(f, after); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= scope.end) break;
    /* `autograd.grad(log_likelihood, model.parameters())`: an EWC Fisher
     * estimate differentiates what the loop kept */
    TSNode receiver = backward_receiver(f, c, fn);
    if (ts_node_is_null(receiver)) receiver = grad_outputs(f, c, fn);
    if (ts_node_is_null(receiver)) continue;
    uint32_t tl;
    const char *t = facts_text(f, receiver, &tl);
    for (size_t k = 0; k < n; k++)
      if (facts__mentions(t, tl, names[k], lens[k])) return true;
  }
  return false;
}


static bool backpropagated_after(const facts *f, const facts_loop *l, const char *name, uint32_t len) {
  uint32_t after = ts_node_end_byte(l->node);
  /* the names it goes by after the loop: its own, and a name bound from an
   * expression that reads it (`value_loss = torch.stack(value_losses).sum()`) */
  const char *names[32] = {name};
  uint32_t lens[32] = {len};
  size_t nnames = facts__names_after(f, l->function, after, names, lens, 8, true);
  if (backward_reads(f, l->function, after, names, lens, nnames)) return true;
  if (returned_by_training_step(f, l->function, after, names, lens, nnames)) return true;
  /* read into `self.loss`, which the agent's `train()` backpropagates */
  if (facts__left_on_self_for_backward(f, l->function, after, names, lens, nnames, 8)) return true;
  /* the chunks of one batch's forward, concatenated and summed into the
   * step's loss over sums (`z_batch = torch.cat(z_chunks)`, per sample
   * `total_loss += loss`, `mean_loss = total_loss / n`, then
   * `mean_loss.backward()`) */
  size_t more = facts__sums_after(f, l->function, after, names, lens, nnames, 32);
  return more > nnames && backward_reads(f, l->function, after, names + nnames, lens + nnames, more - nnames);
}


/* The next mention of NAME (LEN bytes) in code within loop L's text at
 * or after offset *K and before END (offsets into the loop's text): a whole
 * word not after a `.`, not in a comment or a string. Its node, *K moved
 * past it; a null node when there is none. */
static TSNode next_code_mention(const facts *f, const facts_loop *l, const char *name, uint32_t len, uint32_t *k,
                                uint32_t end) {
  uint32_t blen;
  const char *body = facts_text(f, l->node, &blen);
  uint32_t loop_start = ts_node_start_byte(l->node);
  if (end > blen) end = blen;
  for (; *k + len <= end; (*k)++) {
    uint32_t at = *k;
    if (memcmp(body + at, name, len) != 0) continue;
    if (at > 0 && (isalnum((unsigned char)body[at - 1]) || body[at - 1] == '_' || body[at - 1] == '.')) continue;
    if (at + len < blen && (isalnum((unsigned char)body[at + len]) || body[at + len] == '_')) continue;
    TSNode n = ts_node_descendant_for_byte_range(l->node, loop_start + at, loop_start + at + len);
    if (NODE_IS(n, "comment") || NODE_IS(n, "string") || NODE_IS(n, "string_content")) continue;
    *k = at + len;
    return n;
  }
  return NULL_NODE;
}


/* Whether loop L only ever stores into `self.x` (TARGET), reading it
 * nowhere in its body (`self.output = output` for the best validation
 * epoch so far): the attribute holds one value at a time, each store
 * dropping the last, not a growing store. A read feeds it back (`self.h =
 * rnn(x, self.h)`), which chains every iteration's graph, and so does a
 * backward that retains the graph. */
static bool only_stored_in_loop(const facts *f, const facts_loop *l, TSNode target) {
  uint32_t len, blen;
  const char *name = facts_text(f, target, &len);
  const char *body = facts_text(f, l->node, &blen);
  /* `backward(retain_graph=True)`: the graphs stay alive, and what is
   * stored holds every iteration's */
  if (facts_text_has_ci(body, blen, "retain_graph")) return false;
  uint32_t k = 0;
  for (TSNode n; !ts_node_is_null(n = next_code_mention(f, l, name, len, &k, blen));) {
    /* the identifier `x` of `self.x`: up to the attribute */
    for (int guard = 0; guard < 4 && !ts_node_is_null(n) && !NODE_IS(n, "attribute"); guard++) n = ts_node_parent(n);
    TSNode up = ts_node_is_null(n) ? n : ts_node_parent(n);
    bool stored = !ts_node_is_null(up) && NODE_IS(up, "assignment") && ts_node_eq(FIELD(up, left), n);
    if (!stored) return false;
  }
  return true;
}


/* Whether `self.x = v` (TARGET) in loop L is released in its iteration:
 * the loop does not read `self.x` before storing it (no state carried to
 * the next iteration) and backpropagates, after the store and without
 * `retain_graph`, a value computed from it (`loss = -self.conv_output
 * .mean(); loss.backward()`): the attribute then holds one step's tensor
 * whose graph that backward freed. */
static bool released_in_iteration(const facts *f, const facts_loop *l, TSNode target) {
  uint32_t len;
  const char *name = facts_text(f, target, &len);
  uint32_t at = ts_node_start_byte(target);
  uint32_t loop_start = ts_node_start_byte(l->node);
  if (at < loop_start) return false;
  /* read before it is stored: in code, not in a comment or a string */
  uint32_t from = 0;
  if (!ts_node_is_null(next_code_mention(f, l, name, len, &from, at - loop_start))) return false;
  /* the value under its own name and the names bound from it in the loop
   * (`fx_tilde = self.D(self.x_tilde)`, then `loss_g = mse(fx_tilde, y)`) */
  const char *names[4] = {name};
  uint32_t lens[4] = {len};
  size_t nnames = facts__names_after(f, l->function, ts_node_end_byte(target), names, lens, 4, false);
  for (size_t i = facts_first_call_at(f, ts_node_end_byte(target)); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    TSNode obj = backward_receiver(f, c, l->function);
    if (ts_node_is_null(obj)) continue;
    uint32_t al;
    const char *args = facts_text(f, FIELD(c->call, arguments), &al);
    if (facts_text_has_ci(args, al, "retain_graph")) return false;
    uint32_t ol;
    const char *o = facts_text(f, obj, &ol);
    for (size_t k = 0; k < nnames; k++)
      if (facts__mentions(o, ol, names[k], lens[k])) return true;
    if (!NODE_IS(obj, "identifier")) continue;
    long a = facts__last_assign_before(f, o, ol, ts_node_start_byte(c->call), l->function);
    if (a < 0 || ts_node_start_byte(f->assigns.items[a].left) < at) continue;
    uint32_t rl;
    const char *r = facts_text(f, f->assigns.items[a].right, &rl);
    for (size_t k = 0; k < nnames; k++)
      if (facts__mentions(r, rl, names[k], lens[k])) return true;
  }
  return false;
}


/* Whether list NAME (LEN bytes), appended to at POS in loop L, is
 * backpropagated later in the loop, itself or through a name bound from it
 * (`loss_q = torch.stack(loss_all).sum(0); loss_q.backward()`), and made
 * anew after that backward (`loss_all = []`): the graphs of a few steps
 * kept on purpose to be backpropagated together (MAML's tasks per update). */
static bool backpropagated_and_reset(const facts *f, const facts_loop *l, const char *name, uint32_t len, uint32_t pos) {
  const char *names[4] = {name};
  uint32_t lens[4] = {len};
  size_t nnames = facts__names_after(f, l->function, pos, names, lens, 4, false);
  for (size_t i = facts_first_call_at(f, pos); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    TSNode receiver = backward_receiver(f, c, l->function);
    if (ts_node_is_null(receiver)) continue;
    uint32_t tl;
    const char *t = facts_text(f, receiver, &tl);
    bool through = false;
    for (size_t k = 0; k < nnames && !through; k++) through = facts__mentions(t, tl, names[k], lens[k]);
    if (!through) continue;
    /* reset after the backward, in the loop: a binding to a new list */
    uint32_t at = ts_node_end_byte(c->call);
    long a = facts__last_assign_before(f, name, len, l->body.end, l->function);
    if (a < 0) return false;
    TSNode left = f->assigns.items[a].left, right = f->assigns.items[a].right;
    return ts_node_start_byte(left) > at && NODE_IS(right, "list") && ts_node_named_child_count(right) == 0;
  }
  return false;
}


/* Whether NODE is `optimizers[im]` stepped in a loop whose target binds
 * `im` (`for im, i1 in D.active_ims: ...; optimizers[im].step()`): each
 * iteration steps an optimizer of its own, once. */
static bool indexed_by_loop_target(const facts *f, TSNode node) {
  TSNode up = ts_node_parent(node);
  if (!NODE_IS(node, "subscript") || ts_node_is_null(up) || !NODE_IS(up, "attribute") ||
      !facts_node_is(f, FIELD(up, attribute), "step"))
    return false;
  TSNode index = FIELD(node, subscript);
  int l = facts_innermost_loop_at(f, ts_node_start_byte(node));
  if (ts_node_is_null(index) || !NODE_IS(index, "identifier") || l < 0 ||
      !NODE_IS(f->loops.items[l].node, "for_statement"))
    return false;
  TSNode target = FIELD(f->loops.items[l].node, left), t;
  if (ts_node_is_null(target)) return false;
  uint32_t len;
  const char *name = facts_text(f, index, &len);
  bool bound = NODE_IS(target, "identifier") && facts_text_is(f, target, name, len);
  if (!bound && !NODE_IS(target, "identifier"))
    for (children k = children_of(target); !bound && children_next(&k, &t);) {
      bound = NODE_IS(t, "identifier") && facts_text_is(f, t, name, len);
      if (bound) children_done(&k);
    }
  if (!bound) return false;
  /* ... zeroed in the same function (`for optimizer in optimizers:
   * optimizer.zero_grad()` at the start of the step); a batch loop that
   * steps each of them and zeroes none still adds up every batch */
  int fn = f->loops.items[l].function;
  facts_span scope = fn >= 0 ? f->functions.items[fn].body : (facts_span){0, (uint32_t)f->length + 1};
  for (size_t i = facts_first_call_at(f, scope.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= scope.end) break;
    TSNode callee = FIELD(c->call, function);
    if (c->function == fn && !ts_node_is_null(callee) && NODE_IS(callee, "attribute") &&
        facts_node_is(f, FIELD(callee, attribute), "zero_grad"))
      return true;
  }
  return false;
}


/* Whether the list or dict NODE (`outs`, `self.graph_embs`), appended to at
 * POS in loop L, is bound again to an empty one later in the same
 * iteration (`if step % k == 0: self.graph_embs = []`): a window the loop
 * empties itself, bounded whatever it holds, not storage that grows. */
static bool emptied_in_iteration(const facts *f, const facts_loop *l, TSNode node, uint32_t pos) {
  uint32_t len;
  const char *text = facts_text(f, node, &len);
  size_t lo = facts_first_assign_at(f, pos);
  for (size_t i = lo; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, v = f->assigns.items[i].right;
    if (ts_node_start_byte(left) >= l->body.end) break;
    if (!facts_text_is(f, left, text, len) || facts_function_at(f, ts_node_start_byte(left)) != l->function) continue;
    if (NODE_IS(v, "list") || NODE_IS(v, "dictionary")) return !ts_node_named_child_count(v);
    if (NODE_IS(v, "call")) {
      TSNode args = FIELD(v, arguments);
      return (facts_node_is(f, FIELD(v, function), "list") || facts_node_is(f, FIELD(v, function), "dict")) &&
             !ts_node_is_null(args) && !ts_node_named_child_count(args);
    }
    return false;
  }
  return false;
}


static bool has_word_at(const char *text, uint32_t len, uint32_t from, const char *name, uint32_t nlen);
/* Whether `self.x` (TARGET, stored in loop L) is first set to a number or
 * None in the loop's own body, before the store (`self.loss = 0.0` at the
 * top of each iteration of an Avalanche strategy, then `self.loss =
 * self.elbo(...)`): every iteration drops the value of the last one, so at
 * most one iteration's graph is alive, even when its backward retains it. */
static bool reset_before_store(const facts *f, const facts_loop *l, TSNode target) {
  uint32_t len;
  const char *text = facts_text(f, target, &len);
  uint32_t at = ts_node_start_byte(target);
  TSNode body = FIELD(l->node, body);
  if (ts_node_is_null(body)) return false;
  size_t lo = facts_first_assign_at(f, l->body.start);
  for (size_t i = lo; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, v = f->assigns.items[i].right;
    if (ts_node_start_byte(left) >= at) break;
    if (!(NODE_IS(v, "integer") || NODE_IS(v, "float") || NODE_IS(v, "none")) || !facts_text_is(f, left, text, len))
      continue;
    TSNode stmt = ts_node_parent(ts_node_parent(left));
    if (!ts_node_is_null(stmt) && ts_node_eq(ts_node_parent(stmt), body)) return true;
  }
  return false;
}


/* The loop variable of a slot index: `i`, `i + 1`, `i // 2`, `2 * i`; else a
 * null node. */
static TSNode slot_variable(TSNode index) {
  if (ts_node_is_null(index)) return NULL_NODE;
  if (NODE_IS(index, "identifier")) return index;
  if (!NODE_IS(index, "binary_operator") || ts_node_named_child_count(index) != 2) return NULL_NODE;
  TSNode a = ts_node_named_child(index, 0), b = ts_node_named_child(index, 1);
  if (NODE_IS(a, "identifier") && NODE_IS(b, "integer")) return a;
  if (NODE_IS(b, "identifier") && NODE_IS(a, "integer")) return b;
  return NULL_NODE;
}


/* Whether NODE, the container of `xs[i] = v` (or `xs[i // 2] = v`; SUB is
 * the subscript over it), is written at a slot of a `for i in range(...)`
 * loop inside the batch loop LOOP, a loop that (with the loops in it)
 * iterates no loader and runs no backward or step: the per-cycle or
 * per-head terms of one step, each slot overwritten in every iteration as
 * a plain name would be. The range must not depend on an enclosing loop's
 * variable (`range(e * n, e * n + n)` moves on with the epoch), and `xs[i]
 * += v` sums, so it is no slot. */
static bool bounded_slot(const facts *f, TSNode node, TSNode sub, int loop) {
  assert(loop >= 0 && (size_t)loop < f->loops.len);
  if (ts_node_is_null(sub) || !NODE_IS(sub, "subscript") || !ts_node_eq(FIELD(sub, value), node)) return false;
  TSNode stmt = ts_node_parent(sub);
  if (ts_node_is_null(stmt) || !NODE_IS(stmt, "assignment") || !ts_node_eq(FIELD(stmt, left), sub)) return false;
  TSNode var = slot_variable(FIELD(sub, subscript));
  if (ts_node_is_null(var)) return false;
  uint32_t vlen;
  const char *v = facts_text(f, var, &vlen);
  for (int k = facts_innermost_loop_at(f, ts_node_start_byte(node)); k >= 0 && k != loop;
       k = f->loops.items[k].parent) {
    const facts_loop *l = &f->loops.items[k];
    TSNode target = NODE_IS(l->node, "for_statement") ? FIELD(l->node, left) : NULL_NODE;
    if (ts_node_is_null(target) || !NODE_IS(target, "identifier") || !facts_text_is(f, target, v, vlen)) continue;
    TSNode range = FIELD(l->node, right);
    if (ts_node_is_null(range) || !NODE_IS(range, "call") || !facts_node_is(f, FIELD(range, function), "range"))
      return false;
    /* nested loops follow their loop in file order, inside its body */
    for (size_t j = (size_t)k; j < f->loops.len && f->loops.items[j].body.start < l->body.end; j++)
      if (f->loops.items[j].evidence & (LOOP_ITERATES_LOADER | LOOP_CALLS_BACKWARD | LOOP_CALLS_STEP)) return false;
    uint32_t alen;
    const char *args = facts_text(f, range, &alen);
    for (int o = l->parent; o >= 0; o = f->loops.items[o].parent) {
      TSNode t = NODE_IS(f->loops.items[o].node, "for_statement") ? FIELD(f->loops.items[o].node, left) : NULL_NODE;
      if (ts_node_is_null(t)) continue;
      if (NODE_IS(t, "identifier")) {
        uint32_t tl;
        const char *tt = facts_text(f, t, &tl);
        if (has_word_at(args, alen, 0, tt, tl)) return false;
        continue;
      }
      TSNode c;
      for (children ch = children_of(t); children_next(&ch, &c);) {
        uint32_t tl;
        const char *tt = NODE_IS(c, "identifier") ? facts_text(f, c, &tl) : NULL;
        if (tt && has_word_at(args, alen, 0, tt, tl)) {
          children_done(&ch);
          return false;
        }
      }
    }
    return true;
  }
  return false;
}


/* Whether the slot NODE (`batch_loss_h[i]`), summed into at POS in batch
 * loop L, is set to a number earlier in the same iteration (`for i in
 * range(n): batch_loss_h[i] = 0` before the loop over the utterances of
 * the batch): a sum made anew every iteration, as a name bound there is. */
static bool slot_reset_in_iteration(const facts *f, const facts_loop *l, TSNode node, uint32_t pos) {
  if (!NODE_IS(node, "subscript")) return false;
  TSNode up = ts_node_parent(node);
  if (ts_node_is_null(up) || !NODE_IS(up, "augmented_assignment") || !ts_node_eq(FIELD(up, left), node)) return false;
  uint32_t len;
  const char *text = facts_text(f, node, &len);
  /* subscript stores are no bindings: found by their text in the body */
  for (uint32_t at = facts__next_text(f, l->body.start, pos, text, len); at < pos;
       at = facts__next_text(f, at + 1, pos, text, len)) {
    TSNode s = ts_node_descendant_for_byte_range(f->root, at, at + len);
    TSNode a = ts_node_is_null(s) ? s : ts_node_parent(s);
    if (ts_node_is_null(a) || !NODE_IS(s, "subscript") || ts_node_start_byte(s) != at || !NODE_IS(a, "assignment") ||
        !ts_node_eq(FIELD(a, left), s))
      continue;
    TSNode v = FIELD(a, right);
    if (!ts_node_is_null(v) && (NODE_IS(v, "integer") || NODE_IS(v, "float")) &&
        facts_function_at(f, at) == l->function)
      return true;
  }
  return false;
}


/* Whether TARGET, an attribute `self.x` appended to in loop L, is handed
 * over later in that loop or one around it to a method of the same class
 * that backpropagates and empties it (`self.update_policy()`, whose
 * REINFORCE loss sums `self.log_probs` and then sets `self.log_probs =
 * []`): one episode's graphs, kept to be backpropagated together. */
static bool consumed_by_method(const facts *f, int loop, TSNode target) {
  const facts_loop *l = &f->loops.items[loop];
  int fn = l->function;
  if (fn < 0 || f->functions.items[fn].klass < 0 || !NODE_IS(target, "attribute")) return false;
  int klass = f->functions.items[fn].klass;
  /* most classes have no method that backpropagates: nothing to look for */
  bool any = false;
  for (size_t g = 0; g < f->functions.len && !any; g++)
    any = f->functions.items[g].klass == klass && (int)g != fn && f->functions.items[g].backward;
  if (!any) return false;
  uint32_t end = l->body.end;
  for (int o = l->parent; o >= 0 && f->loops.items[o].function == fn; o = f->loops.items[o].parent)
    end = f->loops.items[o].body.end;
  uint32_t tl;
  const char *t = facts_text(f, target, &tl);
  for (size_t i = facts_first_call_at(f, ts_node_end_byte(target)); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= end) break;
    if (c->function != fn) continue;
    uint32_t cl;
    const char *ct = facts_text(f, c->call, &cl);
    if (cl < 5 || memcmp(ct, "self.", 5) != 0) continue;
    int g = facts_function_named(f, FIELD(c->call, function));
    if (g < 0 || g == fn || f->functions.items[g].klass != klass || !f->functions.items[g].backward) continue;
    facts_span body = f->functions.items[g].body;
    for (size_t k = facts_first_assign_at(f, body.start); k < f->assigns.len; k++) {
      TSNode left = f->assigns.items[k].left, right = f->assigns.items[k].right;
      if (ts_node_start_byte(left) >= body.end) break;
      if (!ts_node_is_null(right) && NODE_IS(right, "list") && !ts_node_named_child_count(right) &&
          facts_text_is(f, left, t, tl))
        return true;
    }
  }
  return false;
}


bool facts_outlives_iteration(const facts *self, TSNode node) {
  uint32_t pos = ts_node_start_byte(node);
  if (indexed_by_loop_target(self, node)) return false;
  /* a per-batch sum over the layers or losses of one batch is not a leak */
  int loop;
  uint32_t len;
  const char *name;
  if (!stored_in_loop(self, node, &loop, &name, &len)) return false;
  TSNode up = ts_node_parent(node);
  if (bounded_slot(self, node, up, loop) || slot_reset_in_iteration(self, &self->loops.items[loop], node, pos))
    return false;
  if (!ts_node_is_null(up) && NODE_IS(up, "attribute") && ts_node_eq(FIELD(up, object), node) &&
      (facts_node_is(self, FIELD(up, attribute), "append") || facts_node_is(self, FIELD(up, attribute), "extend")) &&
      emptied_in_iteration(self, &self->loops.items[loop], node, pos))
    return false;
  if (len == 4 && !memcmp(name, "self", 4)) {
    /* instance storage, unless `self.x = v` is released in its iteration,
     * or the list appended to is emptied by the method that backpropagates
     * it, called later in the loop */
    if (!ts_node_is_null(up) && NODE_IS(up, "attribute") && ts_node_eq(FIELD(up, object), node) &&
        facts_node_is(self, FIELD(up, attribute), "append") && consumed_by_method(self, loop, node))
      return false;
    TSNode parent = ts_node_parent(node);
    return !(NODE_IS(node, "attribute") && !ts_node_is_null(parent) && NODE_IS(parent, "assignment") &&
             ts_node_eq(FIELD(parent, left), node) &&
             (released_in_iteration(self, &self->loops.items[loop], node) ||
              only_stored_in_loop(self, &self->loops.items[loop], node) ||
              reset_before_store(self, &self->loops.items[loop], node)));
  }
  const facts_loop *l = &self->loops.items[loop];
  uint32_t loop_start = ts_node_start_byte(l->node);
  /* the batch loop around a loop over one batch's items (no loader, no
   * backward or step of its own): a container it makes before that loop
   * (`job_reps = torch.zeros(b, 1, h)`, then `job_reps[i] = rnn(seq)` per
   * profile) is made anew for each batch */
  uint32_t batch_start = loop_start;
  if (!(l->evidence & (LOOP_ITERATES_LOADER | LOOP_CALLS_BACKWARD | LOOP_CALLS_STEP)))
    for (int o = l->parent; o >= 0; o = self->loops.items[o].parent)
      if (self->loops.items[o].evidence & LOOP_ITERATES_LOADER) {
        assert(self->loops.items[o].function == l->function);
        batch_start = self->loops.items[o].body.start;
        break;
      }
  bool before = false;
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &self->bindings.items[i];
    int bf = facts_function_at(self, b->pos);
    if (l->function >= 0 && b->pos >= self->functions.items[l->function].whole.start &&
        b->pos < self->functions.items[l->function].body.start)
      bf = l->function; /* a parameter */
    if (bf == l->function && b->pos >= batch_start && b->pos < pos) return false; /* made anew each iteration */
    if ((bf == l->function && b->pos < loop_start) || bf == -1) before = true;
  }
  if (!before || first_iteration_only(self, node)) return false;
  TSNode parent = ts_node_parent(node);
  if (!ts_node_is_null(parent) && NODE_IS(parent, "attribute")) {
    TSNode m = FIELD(parent, attribute);
    if (!ts_node_is_null(m) && (facts_node_is(self, m, "append") || facts_node_is(self, m, "extend")) &&
        /* `meter.append(loss)` on a library's object: its own storage;
         * `losses.append(l)` then `torch.stack(losses).sum().backward()`:
         * the graphs are kept to be backpropagated together */
        (library_object(self, name, len, loop_start, l->function) || backpropagated_after(self, l, name, len) ||
         episode_returned(self, loop, name, len) ||
         backpropagated_and_reset(self, l, name, len, pos)))
      return false;
  }
  return true;
}


/* Whether identifier N has the text of NAME (LEN bytes). */
static bool names(const facts *f, TSNode n, const char *name, uint32_t len) {
  return !ts_node_is_null(n) && NODE_IS(n, "identifier") && facts_text_is(f, n, name, len);
}


/* Whether N is the name or the `self.x` attribute NAME (LEN bytes). */
static bool names_state(const facts *f, TSNode n, const char *name, uint32_t len) {
  if (ts_node_is_null(n)) return false;
  if (NODE_IS(n, "attribute")) {
    TSNode obj = FIELD(n, object);
    if (ts_node_is_null(obj) || !facts_node_is(f, obj, "self")) return false;
  } else if (!NODE_IS(n, "identifier")) {
    return false;
  }
  return facts_text_is(f, n, name, len);
}


/* Whether target T (a name or `self.x`, or a tuple of them: `out, h`,
 * `q, self.hidden`) binds NAME. */
static bool target_binds(const facts *f, TSNode t, const char *name, uint32_t len) {
  if (names_state(f, t, name, len)) return true;
  if (!NODE_IS(t, "pattern_list") && !NODE_IS(t, "tuple_pattern") && !NODE_IS(t, "list_pattern") &&
      !NODE_IS(t, "tuple"))
    return false;
  uint32_t n = ts_node_named_child_count(t);
  for (uint32_t i = 0; i < n; i++)
    if (names_state(f, ts_node_named_child(t, i), name, len)) return true;
  return false;
}


/* Whether loop L feeds a model's output back into the model: a call of a
 * model in its body, `out, h = decoder(x, h)` (or `q, self.h =
 * self.rnn(x, self.h)`), passes a name it binds. Such
 * a loop runs over the steps of one sequence, and the graph of every step
 * is alive through that state anyway. */
static bool feeds_back(const facts *f, const facts_loop *l, TSNode state);


static bool feeds_model_back(const facts *f, const facts_loop *l) {
  return feeds_back(f, l, NULL_NODE);
}


/* Whether loop L feeds a model's output back into the model as above, the
 * state fed back being STATE (`self.hidden`) when it is given. */
static bool feeds_back(const facts *f, const facts_loop *l, TSNode state) {
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
      /* `h` or the instance's `self.eval_hidden` (a multi-agent learner's
       * recurrent state, reset before each unroll) */
      if (!NODE_IS(a, "identifier") && !(NODE_IS(a, "attribute") && facts_node_is(f, FIELD(a, object), "self")))
        continue;
      uint32_t len;
      const char *name = facts_text(f, a, &len);
      fed = target_binds(f, left, name, len) && (ts_node_is_null(state) || facts_text_is(f, state, name, len));
    }
    /* the call fed back may be a model known only by its use here (a
     * generator taken from a dict, `x, h = generator(x, f, h)`): the loop
     * calls a model already, and its state chains every step anyway */
    if (fed) return true;
  }
  return false;
}


/* Whether loop L unrolls a differentiable inner loop: it takes gradients
 * with `create_graph=True` (fast weights, a differentiable optimizer) and
 * calls no `.backward()` of its own. Each step's graph stays alive through
 * those gradients until the meta-backward after the loop, so values kept
 * per step keep nothing more (higher's and MAML's inner loops). A loop
 * that also backpropagates (a gradient penalty per batch) is training. */
static bool unrolled_inner_loop(const facts *f, const facts_loop *l) {
  bool create_graph = false;
  for (size_t i = facts_first_call_at(f, l->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    if (c->function != l->function) continue;
    TSNode callee = FIELD(c->call, function);
    if (!ts_node_is_null(callee) && NODE_IS(callee, "attribute") && facts_node_is(f, FIELD(callee, attribute), "backward"))
      return false;
    TSNode args = FIELD(c->call, arguments);
    uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    for (uint32_t k = 0; k < n && !create_graph; k++) {
      TSNode a = ts_node_named_child(args, k);
      if (!NODE_IS(a, "keyword_argument")) continue;
      TSNode key = FIELD(a, name), value = FIELD(a, value);
      create_graph = facts_node_is(f, key, "create_graph") && !ts_node_is_null(value) && NODE_IS(value, "true");
    }
  }
  return create_graph;
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


/* Whether MATCH holds for a node of NODE's subtree (NODE included): a
 * preorder walk with a cursor, stopping at the first match. */
static bool subtree_any(const facts *f, TSNode node, bool (*match)(const facts *, TSNode, const void *),
                        const void *ctx) {
  TSTreeCursor cur = ts_tree_cursor_new(node);
  bool found = false;
  while (!found) {
    found = match(f, ts_tree_cursor_current_node(&cur), ctx);
    if (found) break;
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    if (!walk_skip(&cur, node)) break;
  }
  ts_tree_cursor_delete(&cur);
  return found;
}


typedef struct {
  bool attribute;
  const char *name;
  uint32_t len;
} name_query;


static bool names_it(const facts *f, TSNode n, const void *ctx) {
  const name_query *q = ctx;
  if (!q->attribute) return NODE_IS(n, "identifier") && facts_text_is(f, n, q->name, q->len);
  if (!NODE_IS(n, "attribute")) return false;
  TSNode a = FIELD(n, attribute);
  return !ts_node_is_null(a) && facts_text_is(f, a, q->name, q->len);
}


/* Whether NODE's subtree holds the identifier NAME (LEN bytes) or, with
 * ATTRIBUTE, an attribute read `x.NAME`. */
static bool subtree_has(const facts *f, TSNode node, bool attribute, const char *name, uint32_t len) {
  name_query q = {attribute, name, len};
  return subtree_any(f, node, names_it, &q);
}


static bool node_reads(const facts *f, TSNode node, const char *name, uint32_t len) {
  return subtree_has(f, node, false, name, len);
}


/* Whether NAME (LEN bytes) is read in loop L, its iterable or its body. */
static bool loop_reads(const facts *f, const facts_loop *l, const char *name, uint32_t len) {
  return node_reads(f, l->node, name, len);
}


/* Whether function FN computes a loss: named for one (`compute_loss`), or
 * the `__call__` or `forward` of a class named for one (`ComputeLoss`). */
static bool loss_function(const facts *f, int fn) {
  const facts_function *g = &f->functions.items[fn];
  if (facts_text_has_ci(g->name, g->name_len, "loss")) return true;
  bool entry = (g->name_len == 8 && !memcmp(g->name, "__call__", 8)) || (g->name_len == 7 && !memcmp(g->name, "forward", 7));
  if (!entry || g->klass < 0) return false;
  const facts_class *k = &f->classes.items[g->klass];
  return k->name && facts_text_has_ci(k->name, k->name_len, "loss");
}


/* Whether a function of the file that runs a backward pass clears the
 * attribute list CONTAINER (`del critic_net.saved_values[:]`,
 * `self.saved_log_probs.clear()`): an episode's buffer, kept for the
 * update that backpropagates through it and emptied there. */
static bool cleared_after_backward(const facts *f, TSNode container) {
  uint32_t len;
  const char *t = facts_text(f, container, &len);
  buf del = {0}, clear = {0};
  buf_puts(&del, "del ");
  buf_append(&del, t, len);
  buf_putc(&del, '[');
  buf_append(&clear, t, len);
  buf_puts(&clear, ".clear()");
  bool found = false;
  for (size_t i = 0; i < f->functions.len && !found; i++) {
    const facts_function *g = &f->functions.items[i];
    if (!g->backward) continue;
    uint32_t gl;
    const char *body = facts_text(f, g->node, &gl);
    found = facts__mentions(body, gl, del.data, (uint32_t)del.len) || facts__mentions(body, gl, clear.data, (uint32_t)clear.len);
  }
  buf_free(&del);
  buf_free(&clear);
  return found;
}


/* Whether NAME (LEN bytes), an argument of a call at POS in loop L, was
 * last bound in the loop to a random draw: `u = dist.sample()` (with no
 * argument: `sampler.sample(64)` draws a batch of data), `.rsample()`,
 * `torch.randn(...)`, `torch.rand(...)` and their `_like` forms, or a
 * random permutation of an input the loop does not bind. Values
 * estimated over such draws on one input are one step's, not a batch's. */
static bool drawn_in_loop(const facts *f, const facts_loop *l, const char *name, uint32_t len, uint32_t pos) {
  long a = facts__last_assign_before(f, name, len, pos, l->function);
  if (a < 0 || ts_node_start_byte(f->assigns.items[a].left) < l->body.start) return false;
  TSNode r = f->assigns.items[a].right;
  /* a random reordering of an input the loop does not bind (`x_j =
   * x_i[perm]` with `perm = torch.randperm(n).to(device)` drawn in the
   * loop): the same rows each round, shuffled */
  if (NODE_IS(r, "subscript")) {
    TSNode value = FIELD(r, value), index = FIELD(r, subscript);
    if (ts_node_is_null(value) || ts_node_is_null(index) || !NODE_IS(value, "identifier") ||
        !NODE_IS(index, "identifier") || ts_node_named_child_count(r) != 2)
      return false;
    uint32_t vl, il;
    const char *v = facts_text(f, value, &vl);
    long va = facts__last_assign_before(f, v, vl, ts_node_start_byte(r), l->function);
    if (va >= 0 && ts_node_start_byte(f->assigns.items[va].left) >= l->body.start) return false;
    const char *ix = facts_text(f, index, &il);
    long ia = facts__last_assign_before(f, ix, il, ts_node_start_byte(r), l->function);
    if (ia < 0 || ts_node_start_byte(f->assigns.items[ia].left) < l->body.start) return false;
    r = f->assigns.items[ia].right;
    /* `torch.randperm(n).to(device)`, `.cuda()`, `.long()` */
    while (NODE_IS(r, "call")) {
      TSNode c = FIELD(r, function);
      if (ts_node_is_null(c) || !NODE_IS(c, "attribute") || !NODE_IS(FIELD(c, object), "call")) break;
      TSNode at = FIELD(c, attribute);
      if (!(facts_node_is(f, at, "to") || facts_node_is(f, at, "cuda") || facts_node_is(f, at, "long"))) break;
      r = FIELD(c, object);
    }
    TSNode rc = NODE_IS(r, "call") ? FIELD(r, function) : NULL_NODE;
    return !ts_node_is_null(rc) && NODE_IS(rc, "attribute") && facts_node_is(f, FIELD(rc, object), "torch") &&
           facts_node_is(f, FIELD(rc, attribute), "randperm");
  }
  TSNode callee = NODE_IS(r, "call") ? FIELD(r, function) : NULL_NODE;
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return false;
  TSNode attr = FIELD(callee, attribute);
  /* a distribution's `sample()`, not a data sampler's `sampler.sample(64)` */
  TSNode args = FIELD(r, arguments);
  bool bare = ts_node_is_null(args) || ts_node_named_child_count(args) == 0;
  if ((facts_node_is(f, attr, "sample") && bare) || facts_node_is(f, attr, "rsample")) return true;
  static const char *const draws[] = {"randn", "rand", "randn_like", "rand_like", NULL};
  if (!facts_node_is(f, FIELD(callee, object), "torch")) return false;
  for (int k = 0; draws[k]; k++)
    if (facts_node_is(f, attr, draws[k])) return true;
  return false;
}


/* Whether every model call in loop L (of its own function) has arguments,
 * all of them plain names that L never binds or binds to a random draw:
 * the loop feeds the same input each round (stochastic draws, repeated
 * rollouts), not a batch each. */
static bool same_input_each_round(const facts *f, const facts_loop *l) {
  uint32_t start = ts_node_start_byte(l->node), stop = ts_node_end_byte(l->node);
  bool any = false;
  for (size_t i = facts_first_call_at(f, l->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    if (c->function != l->function || !facts_is_model_call(f, FIELD(c->call, function))) continue;
    TSNode args = FIELD(c->call, arguments);
    uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    if (n == 0) return false;
    for (uint32_t k = 0; k < n; k++) {
      TSNode a = ts_node_named_child(args, k);
      if (NODE_IS(a, "keyword_argument")) a = FIELD(a, value);
      if (ts_node_is_null(a) || !NODE_IS(a, "identifier")) return false;
      uint32_t len;
      const char *name = facts_text(f, a, &len);
      size_t first, end;
      facts_bindings_named(f, name, len, &first, &end);
      bool bound = false;
      for (size_t b = first; b < end && !bound; b++)
        bound = f->bindings.items[b].pos >= start && f->bindings.items[b].pos < stop;
      if (bound && !drawn_in_loop(f, l, name, len, ts_node_start_byte(c->call))) return false;
    }
    any = true;
  }
  return any;
}


/* The name stored by the statement whose container is NODE: `xs.append(v)`
 * or `d[k] = v` with V a plain name, else a null node. */
static TSNode stored_name(TSNode node) {
  TSNode up = ts_node_parent(node);
  if (ts_node_is_null(up)) return NULL_NODE;
  TSNode value = NULL_NODE;
  if (NODE_IS(up, "attribute")) {
    TSNode call = ts_node_parent(up);
    TSNode args = !ts_node_is_null(call) && NODE_IS(call, "call") ? FIELD(call, arguments) : NULL_NODE;
    if (!ts_node_is_null(args) && ts_node_named_child_count(args) == 1) value = ts_node_named_child(args, 0);
  } else if (NODE_IS(up, "subscript")) {
    TSNode assign = ts_node_parent(up);
    if (!ts_node_is_null(assign) && NODE_IS(assign, "assignment") && ts_node_eq(FIELD(assign, left), up))
      value = FIELD(assign, right);
  }
  return !ts_node_is_null(value) && NODE_IS(value, "identifier") ? value : NULL_NODE;
}


/* Whether every backward pass of loop L is `v.backward()` of the stored
 * name V, followed in its own block by `v = v.detach()` (or `.item()`):
 * on the path that backpropagates, what is stored has no graph; on the
 * other the loop runs no backward (sentence-transformers' cached losses,
 * `if with_backward: loss.backward(); loss = loss.detach()`). */
static bool backward_then_detached(const facts *f, const facts_loop *l, TSNode value) {
  uint32_t vlen;
  const char *v = facts_text(f, value, &vlen);
  bool any = false;
  for (size_t i = facts_first_call_at(f, l->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    TSNode receiver = backward_receiver(f, c, l->function);
    if (ts_node_is_null(receiver)) continue;
    if (!facts_text_is(f, receiver, v, vlen)) return false;
    TSNode stmt = ts_node_parent(c->call);
    if (ts_node_is_null(stmt) || !NODE_IS(stmt, "expression_statement")) return false;
    bool detached = false;
    for (TSNode s = ts_node_next_named_sibling(stmt); !ts_node_is_null(s) && !detached; s = ts_node_next_named_sibling(s)) {
      TSNode a = NODE_IS(s, "expression_statement") ? ts_node_named_child(s, 0) : NULL_NODE;
      if (ts_node_is_null(a) || !NODE_IS(a, "assignment") || !facts_text_is(f, FIELD(a, left), v, vlen)) continue;
      TSNode r = FIELD(a, right);
      TSNode rf = !ts_node_is_null(r) && NODE_IS(r, "call") ? FIELD(r, function) : NULL_NODE;
      detached = !ts_node_is_null(rf) && NODE_IS(rf, "attribute") && facts_text_is(f, FIELD(rf, object), v, vlen) &&
                 (facts_node_is(f, FIELD(rf, attribute), "detach") || facts_node_is(f, FIELD(rf, attribute), "item"));
      if (!detached) return false; /* rebound to something else first */
    }
    if (!detached) return false;
    any = true;
  }
  return any;
}


/* Whether TEXT (LEN bytes) holds NAME (NLEN bytes) as a whole word at or
 * after FROM. */
static bool has_word_at(const char *text, uint32_t len, uint32_t from, const char *name, uint32_t nlen) {
  for (uint32_t i = from; i + nlen <= len; i++) {
    if (memcmp(text + i, name, nlen) != 0) continue;
    bool before = i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_' || text[i - 1] == '.');
    bool after = i + nlen < len && (isalnum((unsigned char)text[i + nlen]) || text[i + nlen] == '_');
    if (!before && !after) return true;
  }
  return false;
}


/* Whether TEXT (TLEN bytes) indexes a later axis with the whole word V
 * (VLEN bytes) after a full slice: `x[:, v]`, `batch['s'][:, :, v]`. */
static bool later_axis_index(const char *t, uint32_t tlen, const char *v, uint32_t vlen) {
  for (uint32_t i = 0; i + vlen <= tlen; i++) {
    if (memcmp(t + i, v, vlen) != 0) continue;
    if (i > 0 && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_' || t[i - 1] == '.')) continue;
    uint32_t k = i + vlen;
    while (k < tlen && t[k] == ' ') k++;
    if (k >= tlen || (t[k] != ']' && t[k] != ',')) continue;
    uint32_t j = i;
    while (j > 0 && t[j - 1] == ' ') j--;
    if (j == 0 || t[j - 1] != ',') continue;
    j--;
    while (j > 0 && t[j - 1] == ' ') j--;
    if (j > 0 && t[j - 1] == ':') return true;
  }
  return false;
}


bool facts__steps_later_axis(const facts *f, const facts_loop *l) {
  if (!NODE_IS(l->node, "for_statement")) return false;
  TSNode target = FIELD(l->node, left);
  if (ts_node_is_null(target) || !NODE_IS(target, "identifier")) return false;
  uint32_t vl, bl;
  const char *v = facts_text(f, target, &vl);
  const char *body = facts_text(f, FIELD(l->node, body), &bl);
  if (later_axis_index(body, bl, v, vl)) return true;
  for (size_t i = facts_first_call_at(f, l->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    TSNode callee = FIELD(c->call, function), args = FIELD(c->call, arguments);
    if (c->function != l->function || ts_node_is_null(callee) || ts_node_is_null(args) ||
        !NODE_IS(args, "argument_list") || !(NODE_IS(callee, "identifier") || NODE_IS(callee, "attribute")))
      continue;
    int g = facts_function_named(f, callee);
    if (g < 0) continue;
    uint32_t shift = NODE_IS(callee, "attribute") && f->functions.items[g].klass >= 0 ? 1 : 0, k = 0;
    TSNode a;
    for (children it = children_of(args); children_next(&it, &a);) {
      if (NODE_IS(a, "comment")) continue;
      TSNode param = facts__argument_parameter(f, g, &a, k++ + shift);
      if (ts_node_is_null(param) || ts_node_is_null(a) || !facts_text_is(f, a, v, vl)) continue;
      uint32_t pl, gl;
      const char *p = facts_text(f, param, &pl);
      const char *gt = facts_text(f, FIELD(f->functions.items[g].node, body), &gl);
      if (later_axis_index(gt, gl, p, pl)) {
        children_done(&it); /* the walk holds a cursor */
        return true;
      }
    }
  }
  return false;
}


/* Whether OVER takes the last items of one sequence (`history[-self.context:]`,
 * `seq[-4:]`): a start below zero and no stop. */
static bool last_items(const facts *f, TSNode over) {
  if (!NODE_IS(over, "subscript")) return false;
  TSNode value = FIELD(over, value), sl = FIELD(over, subscript);
  if (ts_node_is_null(value) || !(NODE_IS(value, "identifier") || NODE_IS(value, "attribute")) ||
      ts_node_is_null(sl) || !NODE_IS(sl, "slice") || ts_node_child_count(sl) != 2)
    return false;
  TSNode start = ts_node_child(sl, 0), colon = ts_node_child(sl, 1);
  uint32_t sl_len;
  const char *st = facts_text(f, start, &sl_len);
  return NODE_IS(start, "unary_operator") && sl_len > 1 && st[0] == '-' && !ts_node_is_named(colon);
}


/* Whether loop L runs over the indices of one input, not over data:
 * `range(x.shape[2])`, `range(n)` with `n = x.size(0)`, a name bound to
 * `list(range(a, b))` (class ids), or a range whose variable steps along a
 * later axis of one tensor (facts__steps_later_axis) or the last items of one
 * sequence (last_items), slicing no batch with its
 * variable (`X[i:i + bs]`; `X[j:j + 1]` is one item). A loop over a
 * dataset, a sampler's draws or a list handed in may fetch new data every
 * round. */
static bool index_loop(const facts *f, const facts_loop *l) {
  if (!NODE_IS(l->node, "for_statement")) return false;
  TSNode over = FIELD(l->node, right), target = FIELD(l->node, left);
  if (ts_node_is_null(over) || ts_node_is_null(target) || !NODE_IS(target, "identifier")) return false;
  if (last_items(f, over)) {
    /* the window of one sequence: bounded however long it grows */
  } else if (NODE_IS(over, "identifier")) {
    uint32_t ol;
    const char *o = facts_text(f, over, &ol);
    long a = facts__last_assign_before(f, o, ol, ts_node_start_byte(l->node), l->function);
    uint32_t vl2;
    const char *vt = a >= 0 ? facts_text(f, f->assigns.items[a].right, &vl2) : NULL;
    if (!vt || vl2 < 11 || memcmp(vt, "list(range(", 11) != 0) return false;
  } else {
    if (!NODE_IS(over, "call") || !facts_node_is(f, FIELD(over, function), "range")) return false;
    TSNode args = FIELD(over, arguments);
    bool dim = false;
    if (!ts_node_is_null(args) && ts_node_named_child_count(args) == 1) {
      TSNode n = ts_node_named_child(args, 0);
      if (NODE_IS(n, "identifier")) {
        uint32_t nl;
        const char *nt = facts_text(f, n, &nl);
        long a = facts__last_assign_before(f, nt, nl, ts_node_start_byte(l->node), l->function);
        n = a >= 0 ? f->assigns.items[a].right : NULL_NODE;
      }
      uint32_t dl;
      const char *d = ts_node_is_null(n) ? NULL : facts_text(f, n, &dl);
      for (uint32_t i = 0; d && i + 6 <= dl && !dim; i++)
        dim = !memcmp(d + i, ".shape", 6) || !memcmp(d + i, ".size(", 6);
    }
    if (!dim && !facts__steps_later_axis(f, l)) return false;
  }
  uint32_t vl, bl;
  const char *v = facts_text(f, target, &vl);
  const char *body = facts_text(f, FIELD(l->node, body), &bl);
  for (uint32_t i = 0; i + vl + 1 < bl; i++) {
    if (body[i] != '[') continue;
    uint32_t j = i + 1;
    while (j < bl && body[j] == ' ') j++;
    if (j + vl < bl && !memcmp(body + j, v, vl)) {
      uint32_t k = j + vl;
      while (k < bl && body[k] == ' ') k++;
      /* `X[i:i + bs]`, `X[i * bs:...]` take batches; `X[j:j + 1]` one item */
      if (k < bl && body[k] == '*') return false;
      if (k < bl && body[k] == ':') {
        k++;
        while (k < bl && body[k] == ' ') k++;
        bool one = k + vl < bl && !memcmp(body + k, v, vl);
        k += vl;
        while (one && k < bl && body[k] == ' ') k++;
        one = one && k + 1 < bl && body[k] == '+';
        k++;
        while (one && k < bl && body[k] == ' ') k++;
        one = one && k < bl && body[k] == '1' && (k + 1 >= bl || !isalnum((unsigned char)body[k + 1]));
        if (!one) return false;
      }
    }
  }
  return true;
}


/* The value the name NAME (LEN bytes) was bound to last before POS in
 * function FN, also as one target of several (`mixed, y = mixup(x, t)`):
 * the whole right side then. */
static TSNode bound_before(const facts *f, const char *name, uint32_t len, uint32_t pos, int fn) {
  uint32_t best = facts__last_binding_before(f, name, len, pos, fn);
  if (best == UINT32_MAX) return NULL_NODE;
  TSNode n = ts_node_descendant_for_byte_range(f->root, best, best);
  for (int up = 0; up < 3 && !ts_node_is_null(n) && !NODE_IS(n, "assignment"); up++) n = ts_node_parent(n);
  return !ts_node_is_null(n) && NODE_IS(n, "assignment") ? FACT_FIELD(f, n, right) : NULL_NODE;
}


/* Whether the name SOURCE was bound, last before POS in function FN, to a
 * `torch.cat(...)`, or to a call whose first argument is a name so bound
 * (`mixed = mixup(inputs, y)` with `inputs = torch.cat([x, u])`). */
static bool cat_made_here(const facts *self, TSNode source, uint32_t pos, int fn) {
  for (int hop = 0; hop < 2 && fn >= 0 && !ts_node_is_null(source) && NODE_IS(source, "identifier"); hop++) {
    uint32_t nl;
    const char *n = facts_text(self, source, &nl);
    TSNode right = bound_before(self, n, nl, pos, fn);
    if (ts_node_is_null(right) || !NODE_IS(right, "call")) return false;
    TSNode callee = FACT_FIELD(self, right, function);
    TSNode last = !ts_node_is_null(callee) && NODE_IS(callee, "attribute") ? FACT_FIELD(self, callee, attribute) : callee;
    if (!ts_node_is_null(last) && (facts_node_is(self, last, "cat") || facts_node_is(self, last, "concat"))) return true;
    TSNode args = FACT_FIELD(self, right, arguments);
    source = !ts_node_is_null(args) && ts_node_named_child_count(args) ? ts_node_named_child(args, 0) : NULL_NODE;
    pos = ts_node_start_byte(right);
  }
  return false;
}


/* Whether EXPR splits one tensor into pieces: along a later axis
 * (`ids.split(n, dim=1)`, `x.chunk(4, 1)`), or along the first the batch
 * the function put together (cat_made_here); also in `list(...)` or
 * sliced, `pieces[1:]`, directly or through the name it was bound to
 * before POS in function FN. DEPTH bounds the wrappers followed. */
static bool split_pieces(const facts *self, TSNode expr, uint32_t pos, int fn, int depth) {
  if (!ts_node_is_null(expr) && NODE_IS(expr, "identifier")) {
    uint32_t nl;
    const char *n = facts_text(self, expr, &nl);
    long a = facts__last_assign_before(self, n, nl, pos, fn);
    expr = a >= 0 ? self->assigns.items[a].right : NULL_NODE;
    if (a >= 0) pos = ts_node_start_byte(self->assigns.items[a].left); /* `x = list(torch.split(x, n))` */
  }
  /* `list(torch.split(x, n))`, then `mixed[1:]` of that name */
  if (!ts_node_is_null(expr) && NODE_IS(expr, "subscript") && depth < 2) {
    TSNode sl = FACT_FIELD(self, expr, subscript);
    if (ts_node_is_null(sl) || !NODE_IS(sl, "slice")) return false;
    return split_pieces(self, FACT_FIELD(self, expr, value), pos, fn, depth + 1);
  }
  if (ts_node_is_null(expr) || !NODE_IS(expr, "call")) return false;
  TSNode callee = FACT_FIELD(self, expr, function);
  if (!ts_node_is_null(callee) && facts_node_is(self, callee, "list") && depth < 2) {
    TSNode args = FACT_FIELD(self, expr, arguments);
    return !ts_node_is_null(args) && ts_node_named_child_count(args) == 1 &&
           split_pieces(self, ts_node_named_child(args, 0), pos, fn, depth + 1);
  }
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return false;
  TSNode method = FACT_FIELD(self, callee, attribute), object = FACT_FIELD(self, callee, object);
  if (!facts_node_is(self, method, "split") && !facts_node_is(self, method, "chunk")) return false;
  /* `x.split(n, 1)` / `torch.split(x, n, dim=1)`: the source and its axis */
  bool function = facts_node_is(self, object, "torch");
  TSNode args = FACT_FIELD(self, expr, arguments), a, source = function ? NULL_NODE : object, dim = NULL_NODE;
  uint32_t k = 0;
  for (children it = children_of(args); children_next(&it, &a);) {
    if (NODE_IS(a, "comment")) continue;
    if (NODE_IS(a, "keyword_argument")) {
      if (facts_node_is(self, FACT_FIELD(self, a, name), "dim")) dim = FACT_FIELD(self, a, value);
      continue;
    }
    if (function && k == 0) source = a;
    if (k == (function ? 2u : 1u)) dim = a;
    k++;
  }
  uint32_t dl;
  const char *d = ts_node_is_null(dim) ? NULL : facts_text(self, dim, &dl);
  /* along a later axis: the chunks of one sequence, never whole batches */
  if (d && !(dl == 1 && d[0] == '0')) return true;
  /* along the first axis only the batch this call put together
   * (MixMatch: `torch.split(mixup(torch.cat([x, u1, u2])), n)`): a split of
   * a dataset tensor takes batches */
  return cat_made_here(self, source, pos, fn);
}


static bool chunk_loop(const facts *self, const facts_loop *l, int depth);


/* Whether NAME (LEN bytes), bound before POS in function FN to `[]`, is
 * filled there (`xs.append(...)`) only by loops over one call's pieces:
 * its items are those pieces' results, as many as the pieces. */
static bool pieces_list(const facts *self, const char *name, uint32_t len, uint32_t pos, int fn, int depth) {
  TSNode right = bound_before(self, name, len, pos, fn);
  if (ts_node_is_null(right) || !NODE_IS(right, "list") || ts_node_named_child_count(right) || fn < 0) return false;
  const facts_function *g = &self->functions.items[fn];
  bool any = false;
  for (size_t i = facts_first_call_at(self, g->body.start); i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= pos) break;
    TSNode callee = FACT_FIELD(self, c->call, function);
    if (c->function != fn || !NODE_IS(callee, "attribute") || !NODE_IS(FACT_FIELD(self, callee, object), "identifier") ||
        !facts_text_is(self, FACT_FIELD(self, callee, object), name, len))
      continue;
    TSNode m = FACT_FIELD(self, callee, attribute);
    if (!facts_text_is(self, m, "append", 6) && !facts_text_is(self, m, "extend", 6)) continue;
    if (c->loop < 0 || !chunk_loop(self, &self->loops.items[c->loop], depth + 1)) return false;
    any = true;
  }
  return any;
}


/* Whether OVER is `range(len(x))` or `range(a, len(x))` with `x` bound
 * before POS in function FN to a time-major view of one batch (`x =
 * x.transpose(0, 1)`, `.permute(1, 0, ...)`; also one of several targets,
 * `xn, xc = xn.transpose(0, 1), xc.transpose(0, 1)`): the loop takes the
 * time steps of that batch. Also `len(xs) - 1` of a list of the results
 * of such steps (pieces_list: `for i in range(len(feats) - 1)`, pairs of
 * consecutive frames). */
static bool time_major_range(const facts *self, TSNode over, uint32_t pos, int fn, int depth) {
  if (ts_node_is_null(over) || !NODE_IS(over, "call") || !facts_node_is(self, FACT_FIELD(self, over, function), "range"))
    return false;
  TSNode args = FACT_FIELD(self, over, arguments);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  if (n < 1 || n > 2) return false;
  TSNode last = ts_node_named_child(args, n - 1);
  /* `len(xs) - 1`: one fewer of the same pieces */
  if (NODE_IS(last, "binary_operator") && NODE_IS(FACT_FIELD(self, last, right), "integer")) {
    TSNode op = FACT_FIELD(self, last, operator);
    if (ts_node_is_null(op) || !NODE_IS(op, "-")) return false;
    last = FACT_FIELD(self, last, left);
  }
  if (!NODE_IS(last, "call") || !facts_node_is(self, FACT_FIELD(self, last, function), "len")) return false;
  TSNode largs = FACT_FIELD(self, last, arguments);
  TSNode x = !ts_node_is_null(largs) && ts_node_named_child_count(largs) == 1 ? ts_node_named_child(largs, 0) : NULL_NODE;
  if (ts_node_is_null(x) || !NODE_IS(x, "identifier")) return false;
  uint32_t xl;
  const char *xt = facts_text(self, x, &xl);
  /* two hops at most: a list filled by frames, not a chain of lists */
  if (depth < 2 && pieces_list(self, xt, xl, pos, fn, depth)) return true;
  TSNode right = bound_before(self, xt, xl, pos, fn);
  if (ts_node_is_null(right)) return false;
  uint32_t rl;
  const char *r = facts_text(self, right, &rl);
  static const char *const views[] = {".transpose(0, 1)", ".transpose(1, 0)", ".permute(1, 0", NULL};
  for (size_t k = 0; views[k]; k++) {
    size_t vl = strlen(views[k]);
    for (uint32_t i = 0; i + vl <= rl; i++)
      if (!memcmp(r + i, views[k], vl)) return true;
  }
  return false;
}


/* Whether ARG, handed to a model in loop L, is the same in every
 * iteration: a literal, or a local bound before the loop and not inside it. */
static bool loop_invariant_arg(const facts *self, const facts_loop *l, TSNode arg) {
  if (NODE_IS(arg, "keyword_argument")) arg = FACT_FIELD(self, arg, value);
  if (ts_node_is_null(arg)) return false;
  if (NODE_IS(arg, "integer") || NODE_IS(arg, "string") || NODE_IS(arg, "true") || NODE_IS(arg, "false") ||
      NODE_IS(arg, "none"))
    return true;
  if (!NODE_IS(arg, "identifier")) return false;
  uint32_t al;
  const char *a = facts_text(self, arg, &al);
  uint32_t start = ts_node_start_byte(l->node), end = ts_node_end_byte(l->node);
  long before = facts__last_assign_before(self, a, al, start, l->function);
  if (before < 0 && !facts__parameter_of(self, a, al, l->function)) return false;
  return facts__last_assign_before(self, a, al, end, l->function) == before;
}


/* Whether loop L runs `range(...)` times over the same input, picking a
 * head by the count: every model call in its body takes only arguments
 * bound before it and the count itself, and one takes the count (`for k
 * in range(n_domains): p.append(self.E(k, f))`, the experts of one
 * prediction). Its outputs are one call's, one per head, not one per
 * batch. A loop that hands the same input without the count (`for _ in
 * range(steps): dv = ode(state)`) steps a simulation: left alone. */
static bool same_input_loop(const facts *self, const facts_loop *l) {
  TSNode over = FACT_FIELD(self, l->node, right), var = FACT_FIELD(self, l->node, left);
  if (ts_node_is_null(over) || !NODE_IS(over, "call") || !facts_node_is(self, FACT_FIELD(self, over, function), "range") ||
      ts_node_is_null(var) || !NODE_IS(var, "identifier"))
    return false;
  uint32_t vl;
  const char *v = facts_text(self, var, &vl);
  int index = (int)(l - self->loops.items);
  bool any = false, picks = false;
  for (size_t i = facts_first_call_at(self, ts_node_start_byte(l->node)); i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= ts_node_end_byte(l->node)) break;
    if (c->loop != index) continue;
    TSNode callee = FACT_FIELD(self, c->call, function), args = FACT_FIELD(self, c->call, arguments);
    if (ts_node_is_null(callee) || ts_node_is_null(args) || !NODE_IS(args, "argument_list") ||
        !(NODE_IS(callee, "identifier") || NODE_IS(callee, "attribute")))
      continue;
    uint32_t cl;
    const char *ct = facts_text(self, callee, &cl);
    if (!facts__model_name_at(self, ct, cl, ts_node_start_byte(callee))) continue;
    TSNode a;
    for (children it = children_of(args); children_next(&it, &a);) {
      if (NODE_IS(a, "comment")) continue;
      if (NODE_IS(a, "identifier") && facts_text_is(self, a, v, vl)) {
        picks = true;
        continue;
      }
      if (loop_invariant_arg(self, l, a)) continue;
      children_done(&it); /* the walk holds a cursor */
      return false;
    }
    any = true;
  }
  return any && picks;
}


static bool chunk_loop(const facts *self, const facts_loop *l, int depth) {
  if (!NODE_IS(l->node, "for_statement")) return false;
  TSNode over = FACT_FIELD(self, l->node, right);
  uint32_t pos = ts_node_start_byte(l->node);
  if (same_input_loop(self, l)) return true;
  if (split_pieces(self, over, pos, l->function, 0) || time_major_range(self, over, pos, l->function, depth)) return true;
  if (ts_node_is_null(over) || !NODE_IS(over, "call") || !facts_node_is(self, FACT_FIELD(self, over, function), "zip"))
    return false;
  TSNode args = FACT_FIELD(self, over, arguments), a;
  /* `zip()` of nothing: no pieces (and the walk below must run once made,
   * its iterator frees the cursor) */
  if (ts_node_is_null(args) || !ts_node_named_child_count(args)) return false;
  bool all = true;
  for (children it = children_of(args); all && children_next(&it, &a);)
    if (!NODE_IS(a, "comment") && !split_pieces(self, a, pos, l->function, 0)) {
      all = false;
      children_done(&it); /* the walk holds a cursor */
    }
  return all;
}


bool facts__chunk_loop(const facts *self, const facts_loop *l) {
  return chunk_loop(self, l, 0);
}


/* Whether the file is a test module: it defines a `test_*` function. Its
 * helpers keep each step's output to compare it with one full forward
 * (a decoder's steps against the whole sequence): graphs kept for nothing
 * but the comparison, which the judged verdicts count as real, if small. */
static bool test_module(const facts *f) {
  for (size_t k = facts__first_named(f, "test_", 5); k < f->functions_by_name.len; k++) {
    const facts_fname *e = &f->functions_by_name.items[k];
    if (e->len < 5 || memcmp(e->name, "test_", 5) != 0) break;
    return true;
  }
  return false;
}


/* Whether STMT, between a loop and the join of its list NAME (LEN bytes),
 * only adds to that list or binds a local (`last = self.r_proj(t)` then
 * `tokens.append(last)`): the list is still the call's own. */
static bool join_filler(const facts *f, TSNode stmt, const char *name, uint32_t len) {
  if (!NODE_IS(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1) return false;
  TSNode e = ts_node_named_child(stmt, 0);
  if (NODE_IS(e, "assignment")) {
    TSNode left = FIELD(e, left);
    return !ts_node_is_null(left) && NODE_IS(left, "identifier") && !facts_text_is(f, left, name, len);
  }
  if (!NODE_IS(e, "call")) return false;
  TSNode callee = FIELD(e, function);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return false;
  TSNode obj = FIELD(callee, object), method = FIELD(callee, attribute);
  return !ts_node_is_null(obj) && facts_text_is(f, obj, name, len) &&
         (facts_node_is(f, method, "append") || facts_node_is(f, method, "extend"));
}


/* Whether statement STMT calls, with the list NAME (LEN bytes) as its first
 * argument, a top-level function of the file whose body joins tensors
 * (`torch.stack(...)`, `torch.cat(...)`): a helper stacking the parts. */
static bool stacks_list_arg(const facts *f, TSNode stmt, const char *name, uint32_t len) {
  TSNode e = ts_node_named_child_count(stmt) ? ts_node_named_child(stmt, 0) : NULL_NODE;
  if (!ts_node_is_null(e) && NODE_IS(e, "assignment")) e = FIELD(e, right);
  if (ts_node_is_null(e) || !NODE_IS(e, "call")) return false;
  TSNode callee = FIELD(e, function), args = FIELD(e, arguments);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier") || ts_node_is_null(args) ||
      !ts_node_named_child_count(args) || !NODE_IS(ts_node_named_child(args, 0), "identifier") ||
      !facts_text_is(f, ts_node_named_child(args, 0), name, len))
    return false;
  int g = facts_function_named(f, callee);
  if (g < 0 || f->functions.items[g].parent >= 0 || f->functions.items[g].klass >= 0) return false;
  uint32_t bl;
  const char *b = facts_text(f, f->functions.items[g].node, &bl);
  static const char *const joins[] = {"torch.stack(", "torch.cat(", NULL};
  for (size_t k = 0; joins[k]; k++) {
    size_t jl = strlen(joins[k]);
    for (uint32_t i = 0; i + jl <= bl; i++)
      if (!memcmp(b + i, joins[k], jl)) return true;
  }
  return false;
}


/* Whether the statement right after loop L (or after a few join_filler
 * statements) combines the list NAME (LEN bytes) into one tensor (`torch.cat(embs)`, `torch.mean(torch.stack(
 * psnr_values))`, `pad_sequence(parts, ...)`), and L runs over the indices
 * of one input (index_loop): the list is then the parts of one result of
 * the call (the slices of one volume, the items of one batch). */
static bool gathered_right_after(const facts *f, const facts_loop *l, const char *name, uint32_t len) {
  if (!NODE_IS(l->node, "for_statement")) return false;
  static const char *const joins[] = {"cat(", "stack(", "concat(", "pad_sequence(", NULL};
  /* the statements right after the loop that join its lists, one each
   * (`q_evals = torch.stack(q_evals, 1)` then `q_targets = ...`) */
  TSNode next = l->node;
  bool joined = false;
  for (int run = 0; run < 4 && !joined; run++) {
    next = ts_node_next_named_sibling(next);
    while (!ts_node_is_null(next) && NODE_IS(next, "comment")) next = ts_node_next_named_sibling(next);
    if (ts_node_is_null(next) || !(NODE_IS(next, "expression_statement") || NODE_IS(next, "return_statement")))
      return false;
    uint32_t tl;
    const char *t = facts_text(f, next, &tl);
    bool any = false;
    for (size_t k = 0; joins[k] && !joined; k++) {
      size_t jl = strlen(joins[k]);
      for (uint32_t i = 0; i + jl <= tl && !joined; i++)
        if (!memcmp(t + i, joins[k], jl) && (i == 0 || !isalnum((unsigned char)t[i - 1]))) {
          any = true;
          joined = has_word_at(t, tl, i + (uint32_t)jl, name, len);
        }
    }
    /* `return _stack_outputs(outs)`: a function of the file that joins
     * what it is handed (`torch.stack([o.x for o in outs], dim=1)`) */
    if (!any && stacks_list_arg(f, next, name, len)) any = joined = true;
    if (!any && !join_filler(f, next, name, len)) return false;
  }
  if (!joined) return false;
  /* the joined result is the call's: bound to a name that a later statement
   * uses for more than printing (returned, handed on), or returned itself */
  TSNode stmt = NODE_IS(next, "return_statement") ? next : ts_node_named_child(next, 0);
  if (!ts_node_is_null(stmt) && NODE_IS(stmt, "assignment")) {
    TSNode left = FIELD(stmt, left);
    if (ts_node_is_null(left) || !NODE_IS(left, "identifier")) return false;
    uint32_t rl;
    const char *r = facts_text(f, left, &rl);
    bool used = false;
    for (TSNode n = next; !used && !ts_node_is_null(n) && !NODE_IS(n, "function_definition"); n = ts_node_parent(n))
      for (TSNode later = ts_node_next_named_sibling(n); !used && !ts_node_is_null(later);
           later = ts_node_next_named_sibling(later)) {
        uint32_t ll;
        const char *lt = facts_text(f, later, &ll);
        used = has_word_at(lt, ll, 0, r, rl) && !(ll >= 6 && !memcmp(lt, "print(", 6));
      }
    if (!used) return false;
  } else if (ts_node_is_null(stmt) || !NODE_IS(stmt, "return_statement")) {
    return false;
  }
  return index_loop(f, l);
}


/* Whether loop L passes the list NAME (LEN bytes) it stores into at NODE
 * to a model call or a dict literal in its body (`{'hist_embeds': hist_embeds}`
 * handed to the model as `**visual_inputs`): the history of one episode's
 * steps, read by each next step's forward, chained to them anyway. */
static bool list_fed_back(const facts *f, const facts_loop *l, const char *name, uint32_t len, TSNode node) {
  uint32_t k = 0, blen;
  facts_text(f, l->node, &blen);
  for (TSNode n = next_code_mention(f, l, name, len, &k, blen); !ts_node_is_null(n);
       n = next_code_mention(f, l, name, len, &k, blen)) {
    if (ts_node_eq(n, node)) continue;
    TSNode up = ts_node_parent(n);
    if (ts_node_is_null(up)) continue;
    /* an item of it as the next step's input (`model(states[step])`, the
     * state the previous step appended) */
    if (NODE_IS(up, "subscript") && ts_node_eq(FIELD(up, value), n)) {
      n = up;
      up = ts_node_parent(up);
      if (ts_node_is_null(up) || !NODE_IS(up, "argument_list")) continue;
    }
    if (NODE_IS(up, "pair") && ts_node_eq(FIELD(up, value), n)) return true;
    if (NODE_IS(up, "keyword_argument") && ts_node_eq(FIELD(up, value), n)) return true;
    if (NODE_IS(up, "argument_list")) {
      /* a model's input (`decoder(x, history)`), not a reduction of it
       * (`torch.cat(outs).mean()`, `len(hist)`) */
      TSNode call = ts_node_parent(up), callee = ts_node_is_null(call) ? NULL_NODE : FIELD(call, function);
      if (!ts_node_is_null(callee) && facts_is_model_call(f, callee)) return true;
    }
  }
  return false;
}


/* Whether function FN calls `.backward(...)` after POS. */
static bool backward_after(const facts *f, int fn, uint32_t pos) {
  uint32_t end = f->functions.items[fn].body.end;
  for (size_t i = facts_first_call_at(f, pos); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= end) break;
    if (c->function != fn) continue;
    TSNode callee = FIELD(c->call, function);
    if (!ts_node_is_null(callee) && NODE_IS(callee, "attribute") && facts_node_is(f, FIELD(callee, attribute), "backward"))
      return true;
  }
  return false;
}


/* Whether one of the bindings FIRST..END (of the stored name) lies in
 * function FN before loop L: the container is a local the function made
 * before the loop. */
static bool local_before(const facts *self, size_t first, size_t end, int fn, const facts_loop *l) {
  for (size_t i = first; i < end; i++) {
    uint32_t b = self->bindings.items[i].pos;
    if (b >= self->functions.items[fn].body.start && b < ts_node_start_byte(l->node) && facts_function_at(self, b) == fn)
      return true;
  }
  return false;
}


/* Whether TEXT at AT (in the source) is NAME popped: `NAME.popleft(` or
 * `NAME.pop(`, NAME a whole word. */
static bool pops_at(const facts *f, uint32_t at, uint32_t end, uint32_t len) {
  const char *s = f->source;
  if (at > 0 && (isalnum((unsigned char)s[at - 1]) || s[at - 1] == '_' || s[at - 1] == '.')) return false;
  uint32_t k = at + len;
  return (k + 9 <= end && !memcmp(s + k, ".popleft(", 9)) || (k + 5 <= end && !memcmp(s + k, ".pop(", 5));
}


/* Whether the queue NAME (LEN bytes) that loop L fills is drained into
 * backward passes in the outermost per-iteration loop around it: popped
 * there by a function of the file that backpropagates (a pipeline
 * schedule's `in_flight.append(_forward(mb))`, then `_backward_oldest()`
 * popping the oldest microbatch's loss and calling `.backward()` on it). */
static bool drained_for_backward(const facts *f, int loop, const char *name, uint32_t len) {
  assert(loop >= 0 && (size_t)loop < f->loops.len);
  int outer = loop;
  for (int p = f->loops.items[loop].parent; p >= 0 && f->loops.items[p].function == f->loops.items[loop].function;
       p = f->loops.items[p].parent)
    outer = p;
  const facts_loop *o = &f->loops.items[outer];
  for (size_t i = facts_first_call_at(f, o->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= o->body.end) break;
    TSNode callee = FIELD(c->call, function);
    if (c->function != o->function || ts_node_is_null(callee) || !NODE_IS(callee, "identifier")) continue;
    int g = facts_function_named(f, callee);
    if (g < 0 || !f->functions.items[g].own_backward) continue;
    facts_span b = f->functions.items[g].body;
    for (uint32_t at = facts__next_text(f, b.start, b.end, name, len); at < b.end;
         at = facts__next_text(f, at + 1, b.end, name, len))
      if (pops_at(f, at, b.end, len)) return true;
  }
  return false;
}


bool facts_step_storage(const facts *self, TSNode node) {
  if (NODE_IS(node, "attribute") && cleared_after_backward(self, node)) return true;
  int loop;
  uint32_t len;
  const char *name;
  if (!stored_in_loop(self, node, &loop, &name, &len)) return false;
  const facts_loop *l = &self->loops.items[loop];
  if (drained_for_backward(self, loop, name, len)) return true;
  /* the instance's: outlives the call; but for the recurrent state itself
   * of a loop over one sequence's steps (`self.hidden = self.rnn(x,
   * self.hidden)`, no loader, backward or step of the loop's own), which
   * chains every step's graph anyway, as (b) below */
  if (len == 4 && !memcmp(name, "self", 4))
    return NODE_IS(node, "attribute") && l->evidence == LOOP_CALLS_MODEL && feeds_back(self, l, node);
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
  if (l->evidence == LOOP_CALLS_MODEL && (feeds_model_back(self, l) || list_fed_back(self, l, name, len, node)))
    return true;
  /* (f) the steps of an unrolled differentiable inner loop */
  if (unrolled_inner_loop(self, l)) return true;
  /* (c) kept for a later loop of the function that backpropagates it */
  uint32_t after = ts_node_end_byte(l->node);
  for (size_t i = (size_t)loop + 1; i < self->loops.len; i++) {
    const facts_loop *o = &self->loops.items[i];
    if (o->function != fn || ts_node_start_byte(o->node) < after) continue;
    if ((o->evidence & LOOP_CALLS_BACKWARD) && loop_reads(self, o, name, len)) return true;
  }
  /* (e) the views of one input: a loop with no loader, backward or step of
   * its own over scales, crops, flips or augmentations (`for scale in
   * img_scalings`), into a local of its function: one call's list */
  if (l->evidence == LOOP_CALLS_MODEL && fn >= 0 && NODE_IS(l->node, "for_statement")) {
    static const char *const views[] = {"scale", "scaling", "size", "crop", "flip", "view", "aug", "rotation",
                                        "angle", "tta", "resolution", NULL};
    TSNode over = FIELD(l->node, right);
    /* `for i in range(scale)`: the count names what the loop runs over */
    if (!ts_node_is_null(over) && NODE_IS(over, "call") && facts_node_is(self, FIELD(over, function), "range")) {
      TSNode args = FIELD(over, arguments);
      over = !ts_node_is_null(args) && ts_node_named_child_count(args) == 1 ? ts_node_named_child(args, 0) : NULL_NODE;
    }
    if (!ts_node_is_null(over) && NODE_IS(over, "attribute")) over = FIELD(over, attribute);
    uint32_t ol = 0;
    const char *o = !ts_node_is_null(over) && NODE_IS(over, "identifier") ? facts_text(self, over, &ol) : NULL;
    bool named = false;
    for (size_t k = 0; o && views[k] && !named; k++) named = facts_text_has_ci(o, ol, views[k]);
    /* or repeated draws on one input: every model call of the loop takes
     * only names the loop never binds (`for _ in range(rollout_num):
     * rewards.append(softmax(self.dis(samples)))`) */
    uint32_t lower = self->functions.items[fn].body.start;
    if (!named && same_input_each_round(self, l)) {
      named = true;
      /* the list must be made anew in each round of an enclosing loop, or
       * it keeps one entry per round of that loop */
      if (l->parent >= 0 && self->loops.items[l->parent].function == fn) lower = self->loops.items[l->parent].body.start;
    }
    for (size_t i = first; i < end && named; i++) {
      uint32_t b = self->bindings.items[i].pos;
      if (b < ts_node_start_byte(l->node) && facts_function_at(self, b) == fn && b >= lower) return true;
    }
  }
  /* (f) the terms of one loss: a local of a loss function or of a loss
   * class's `__call__`/`forward` (`ComputeLoss.__call__` collecting each
   * detection layer's terms, concatenated into the loss it returns), in a
   * loop with no loader, backward or step of its own (or one whose every
   * backward detaches the value before it is stored) */
  if (fn >= 0 && !(l->evidence & (LOOP_ITERATES_LOADER | LOOP_CALLS_STEP)) &&
      (!(l->evidence & LOOP_CALLS_BACKWARD) ||
       (!ts_node_is_null(stored_name(node)) && backward_then_detached(self, l, stored_name(node)))) &&
      loss_function(self, fn) &&
      local_before(self, first, end, fn, l))
    return true;
  /* (g) the items of one tensor handed to the function (`for meta_batch in
   * x` with `x: torch.Tensor`: the tasks of one meta-batch), into a local
   * of that function: one step's list, however many batches follow */
  if (fn >= 0 && NODE_IS(l->node, "for_statement") && !(l->evidence & LOOP_ITERATES_LOADER)) {
    TSNode over = FIELD(l->node, right);
    buf q = {0};
    bool tensor = !ts_node_is_null(over) && NODE_IS(over, "identifier") && facts__annotated_class(self, over, fn, &q) &&
                  !strcmp(buf_str(&q), "torch.Tensor");
    buf_free(&q);
    if (tensor && local_before(self, first, end, fn, l)) return true;
  }
  /* (h) the parts of one result: a loop with no loader, backward or step of
   * its own, into a local of the function that the statement right after
   * the loop joins into one tensor */
  if (fn >= 0 && l->evidence == LOOP_CALLS_MODEL && !test_module(self) && gathered_right_after(self, l, name, len) &&
      local_before(self, first, end, fn, l))
    return true;
  /* (i) the pieces of one batch (facts__chunk_loop: MixMatch's interleaved
   * forward passes over `torch.split(mixed, n)`), in a loop with no loader,
   * backward or step of its own, into a local of the function: the
   * outputs of one step, however many steps follow */
  if (fn >= 0 && l->evidence == LOOP_CALLS_MODEL && facts__chunk_loop(self, l) &&
      local_before(self, first, end, fn, l))
    return true;
  /* (j) the time steps of one training step: a loop with no loader,
   * backward or step of its own that steps along a later axis of one batch
   * (`frames[:, t]`), into a local of the function that runs a backward
   * pass after the loop: the per-step outputs its loss is made of */
  if (fn >= 0 && l->evidence == LOOP_CALLS_MODEL && backward_after(self, fn, l->body.end) &&
      facts__steps_later_axis(self, l) &&
      local_before(self, first, end, fn, l))
    return true;
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
    if (NODE_IS(obj, "subscript") && facts_text_is(self, FIELD(obj, value), name, len)) return true;
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


/* Whether the `+=` STMT sums into the slot `sums[k]` of a window that the
 * same iteration backpropagates later, `sums[k].backward()`, and then moves
 * on from, binding `k` again (`update_count += 1`, after appending a fresh
 * zero): truncated backpropagation through time, each window's loss summed
 * over k1 steps. */
static bool window_slot_backpropagated(const facts *self, TSNode stmt, TSNode acc) {
  TSNode index = FIELD(acc, subscript);
  if (ts_node_is_null(index) || !NODE_IS(index, "identifier") || !ts_node_is_null(ts_node_next_named_sibling(index)))
    return false;
  uint32_t pos = ts_node_start_byte(stmt);
  int loop = facts_iteration_loop_at(self, pos);
  if (loop < 0) return false;
  const facts_loop *l = &self->loops.items[loop];
  uint32_t alen, ilen;
  const char *aname = facts_text(self, acc, &alen);
  const char *iname = facts_text(self, index, &ilen);
  uint32_t backward_at = 0;
  for (size_t i = facts_first_call_at(self, pos); i < self->calls.len && !backward_at; i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    if (c->function == l->function && backward_of(self, c->call, aname, alen)) backward_at = ts_node_end_byte(c->call);
  }
  if (!backward_at) return false;
  /* `k += 1` or `k = k + 1` after it, read off the text: an augmented
   * assignment binds no name in the tables */
  const char *src = self->source;
  for (uint32_t at = facts__next_text(self, backward_at, l->body.end, iname, ilen); at < l->body.end;
       at = facts__next_text(self, at + 1, l->body.end, iname, ilen)) {
    assert(at > 0); /* at or after the backward call's end */
    char before = src[at - 1], after = at + ilen < self->length ? src[at + ilen] : '\0';
    if (isalnum((unsigned char)before) || before == '_' || before == '.' || isalnum((unsigned char)after) ||
        after == '_')
      continue;
    uint32_t k = at + ilen;
    while (k < l->body.end && src[k] == ' ') k++;
    if (k + 1 < l->body.end && ((src[k] == '+' && src[k + 1] == '=') || (src[k] == '=' && src[k + 1] != '=')))
      return true;
  }
  return false;
}


bool facts_reset_after_backward(const facts *self, TSNode stmt) {
  TSNode acc = FIELD(stmt, left), value = FIELD(stmt, right);
  if (ts_node_is_null(acc) || ts_node_is_null(value)) return false;
  if (NODE_IS(acc, "subscript")) return window_slot_backpropagated(self, stmt, acc);
  if (!NODE_IS(acc, "identifier")) return false;
  if (NODE_IS(stmt, "assignment")) {
    /* `acc = acc + v` or `acc = v + acc`: V is the other operand */
    if (!NODE_IS(value, "binary_operator")) return false;
    uint32_t al, ll;
    const char *a = facts_text(self, acc, &al);
    TSNode l = FIELD(value, left), r = FIELD(value, right);
    const char *lt = facts_text(self, l, &ll);
    value = ll == al && !memcmp(lt, a, al) ? r : l;
  }
  /* `running += class_loss * n_tokens`: the loss term the sum weighs, the
   * operand that carries a graph */
  if (!ts_node_is_null(value) && NODE_IS(value, "binary_operator")) {
    TSNode l = FIELD(value, left), r = FIELD(value, right);
    bool lg = !ts_node_is_null(l) && NODE_IS(l, "identifier") && facts_value_of(self, l).graph;
    bool rg = !ts_node_is_null(r) && NODE_IS(r, "identifier") && facts_value_of(self, r).graph;
    if (lg == rg) return false;
    value = lg ? l : r;
  }
  /* the term added, when a name: else only the sum itself backpropagated
   * counts (`loss += loss_fn(u, u_hat)`, then `loss.backward()` and `loss =
   * 0.` every eight batches) */
  if (!ts_node_is_null(value) && !NODE_IS(value, "identifier")) value = NULL_NODE;
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
  /* or now and then in an enclosing loop (`if batch_idx % log_interval ==
   * 0: ...; total_reg = 0` around a loop over the time steps of a batch,
   * each backpropagated): a logging window, not an epoch's sum, which an
   * unconditional reset at the end of the epoch would make */
  for (int o = l->parent; o >= 0 && !reset; o = self->loops.items[o].parent) {
    const facts_loop *ol = &self->loops.items[o];
    /* bound in that loop before the sum (`totalloss = 0.0` at the top of
     * each epoch): an epoch's sum, whatever another phase resets */
    bool anew = false;
    for (size_t i = first; i < end && !anew; i++) {
      uint32_t b = self->bindings.items[i].pos;
      anew = b >= ol->body.start && b < pos && facts_function_at(self, b) == fn;
    }
    if (anew) break;
    for (size_t i = first; i < end && !reset; i++) {
      uint32_t b = self->bindings.items[i].pos;
      reset = b > pos && b < ol->body.end && facts_function_at(self, b) == fn && facts_periodic_at(self, b, o);
    }
  }
  if (!reset) return false;
  /* backpropagated in the same iteration, itself or through a loss the
   * iteration makes of it (`current = (1 - r) * class_loss + r * kd_loss;
   * current.backward()`) */
  uint32_t vlen = 0;
  const char *vname = ts_node_is_null(value) ? NULL : facts_text(self, value, &vlen);
  for (size_t i = facts_first_call_at(self, l->body.start); i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= l->body.end) break;
    if (c->function != fn) continue;
    /* the sum itself, after the accumulation (a window of instances summed,
     * backpropagated and reset: `avg = batch_loss / batch_count;
     * avg.backward()`, then `batch_loss = 0.0`) */
    bool later = ts_node_start_byte(c->call) > pos;
    if ((vname && backward_of(self, c->call, vname, vlen)) || (later && backward_of(self, c->call, aname, alen)))
      return true;
    TSNode callee = FIELD(c->call, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute") ||
        !facts_node_is(self, FIELD(callee, attribute), "backward"))
      continue;
    TSNode obj = FIELD(callee, object);
    if (ts_node_is_null(obj) || !NODE_IS(obj, "identifier")) continue;
    uint32_t olen;
    const char *oname = facts_text(self, obj, &olen);
    long a = facts__last_assign_before(self, oname, olen, ts_node_start_byte(c->call), fn);
    if (a >= 0 && ts_node_start_byte(self->assigns.items[a].left) >= l->body.start &&
        ((vname && node_reads(self, self->assigns.items[a].right, vname, vlen)) ||
         (later && ts_node_start_byte(self->assigns.items[a].left) > pos &&
          node_reads(self, self->assigns.items[a].right, aname, alen))))
      return true;
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


/* Whether the last mode call on MODEL (LEN bytes, the callee's text) in
 * function FN before POS puts it in training mode (`self.mixer.train()`). */
static bool trained_before(const facts *f, int fn, const char *model, uint32_t len, uint32_t pos) {
  /* most evaluation functions never call `.train(`: the text says so
   * before any call is looked at */
  uint32_t from = f->functions.items[fn].body.start;
  bool mentioned = false;
  for (uint32_t i = from; !mentioned && i + 7 <= pos;) {
    const char *dot = memchr(f->source + i, '.', pos - i);
    if (!dot) break;
    i = (uint32_t)(dot - f->source);
    mentioned = i + 7 <= pos && !memcmp(dot, ".train(", 7);
    i++;
  }
  if (!mentioned) return false;
  int mode = -1;
  for (size_t i = facts_first_call_at(f, f->functions.items[fn].body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= pos) break;
    if (c->function != fn) continue;
    int m = mode_call(f, c->call);
    if (m >= 0 && facts_text_is(f, FIELD(FIELD(c->call, function), object), model, len)) mode = m;
  }
  return mode == 0;
}


/* Whether function FN hands back what it computes for training: it returns
 * a graph, or the modules importing its file backpropagate what a call of
 * that name returns (`loss, err = agent.evaluate_q(...)`, then
 * `loss.backward()`). */
static bool returns_to_training(const facts *f, int fn) {
  const facts_function *g = &f->functions.items[fn];
  if (g->returns_graph) return true;
  return f->imports && f->imports->importer_calls &&
         (f->imports->importer_calls(f->imports, g->name, g->name_len) & FACTS_CALLED_BACKPROP);
}


/* Whether function FN is a unit test, not an evaluation: named `test...`
 * and asserting, in a test suite by its file name (facts.test_suite), or in a
 * module that imports pytest or unittest. A test
 * suite's `test_forward` runs a model once on a toy input to check it;
 * nothing stays alive across iterations of a job. */
static bool unit_test(const facts *f, int fn) {
  const facts_function *d = &f->functions.items[fn];
  if (d->name_len < 4 || strncasecmp(d->name, "test", 4) != 0) return false;
  if (d->asserts) return true;
  /* in a test suite by its file name, a test function taking nothing, as
   * pytest collects it (`def test_pruner():`); not `def test_epoch(model,
   * loader)`, an evaluation in a script named `test_*.py` */
  if (f->test_suite) {
    TSNode params = FIELD(d->node, parameters);
    if (ts_node_is_null(params) || !ts_node_named_child_count(params)) return true;
  }
  for (size_t i = 0; i < f->bindings.len; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->kind != BINDING_IMPORT || !b->qualname) continue;
    const char *q = b->qualname;
    if (!strcmp(q, "pytest") || !strncmp(q, "pytest.", 7) || !strcmp(q, "unittest") || !strncmp(q, "unittest.", 9))
      return true;
  }
  return false;
}


/* Whether function FN returns the name NAME (LEN bytes) as it is, alone
 * or in a tuple (`return out` / `return action, state`): a preorder walk of
 * its body with a cursor, nested functions and classes skipped. */
/* V without the shape-only methods a return applies to a value
 * (`output.squeeze()`, `logits.view(n, -1)`): what they return is still the
 * value, graph and all, for the caller to use. */
static TSNode without_reshaping(const facts *f, TSNode v) {
  static const char *const shape[] = {"squeeze", "unsqueeze", "view", "reshape", "flatten", "contiguous",
                                      "transpose", "permute", NULL};
  for (int guard = 0; guard < 8 && NODE_IS(v, "call"); guard++) {
    TSNode fn = FIELD(v, function);
    if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) break;
    bool reshaping = false;
    for (size_t i = 0; shape[i] && !reshaping; i++) reshaping = facts_node_is(f, FIELD(fn, attribute), shape[i]);
    if (!reshaping) break;
    v = FIELD(fn, object);
  }
  return v;
}


static bool backpropagated_by_caller(const facts *f, int fn);


/* Whether V, returned by method FN, is a call of another method of FN's
 * class taking NAME (LEN bytes) as an argument, whose forward training
 * backpropagates (`return self.predict(imgs, flow, training=False)` in
 * RIFE's `inference`, where `update` backpropagates `self.predict(...)`):
 * the output goes back through the training forward, and the entry point's
 * callers choose the grad mode for both. */
static bool handed_to_training_forward(const facts *f, int fn, TSNode v, const char *name, uint32_t len) {
  if (!NODE_IS(v, "call") || f->functions.items[fn].klass < 0) return false;
  TSNode callee = FIELD(v, function), args = FIELD(v, arguments);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute") || !names(f, FIELD(callee, object), "self", 4) ||
      ts_node_is_null(args) || !NODE_IS(args, "argument_list"))
    return false;
  bool passed = false;
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n && !passed; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "keyword_argument")) a = FIELD(a, value);
    passed = !ts_node_is_null(a) && names(f, a, name, len);
  }
  int g = passed ? facts_function_named(f, callee) : -1;
  return g >= 0 && g != fn && f->functions.items[g].klass == f->functions.items[fn].klass &&
         backpropagated_by_caller(f, g);
}


static bool returns_name(const facts *f, int fn, const char *name, uint32_t len) {
  assert(fn >= 0 && (size_t)fn < f->functions.len);
  TSTreeCursor cur = ts_tree_cursor_new(f->functions.items[fn].node);
  TSNode root = ts_tree_cursor_current_node(&cur);
  bool found = false;
  while (!found) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    bool nested = !ts_node_eq(n, root) && (NODE_IS(n, "function_definition") || NODE_IS(n, "class_definition") ||
                                           NODE_IS(n, "lambda"));
    if (NODE_IS(n, "return_statement") && ts_node_named_child_count(n) == 1) {
      TSNode v = ts_node_named_child(n, 0);
      if (NODE_IS(v, "expression_list") || NODE_IS(v, "tuple")) {
        uint32_t k = ts_node_named_child_count(v);
        for (uint32_t i = 0; i < k && !found; i++) found = names(f, ts_node_named_child(v, i), name, len);
      } else if (NODE_IS(v, "dictionary")) {
        /* `return {'cls_out': cls_out, 'cls_label': cls_label}` */
        uint32_t k = ts_node_named_child_count(v);
        for (uint32_t i = 0; i < k && !found; i++) {
          TSNode pair = ts_node_named_child(v, i);
          found = NODE_IS(pair, "pair") && names(f, FIELD(pair, value), name, len);
        }
      } else {
        v = without_reshaping(f, v);
        /* `return interp(prediction)`: through a model call taking it, as
         * output_handed_back follows nested calls */
        for (int guard = 0; guard < 4 && NODE_IS(v, "call") && facts_is_model_call(f, FIELD(v, function)); guard++) {
          TSNode args = FIELD(v, arguments);
          if (ts_node_is_null(args) || ts_node_named_child_count(args) != 1) break;
          v = without_reshaping(f, ts_node_named_child(args, 0));
        }
        found = names(f, v, name, len) || handed_to_training_forward(f, fn, v, name, len);
      }
    }
    if (!nested && ts_tree_cursor_goto_first_child(&cur)) continue;
    if (!walk_skip(&cur, root)) break;
  }
  ts_tree_cursor_delete(&cur);
  return found;
}


/* Whether CALL, a model call in method FN, hands the model's output back to
 * FN's caller unchanged: returned (`return self.network(x)`, through the
 * model calls that take it: `return self.head(self.body(x))`), kept on the
 * instance for the caller to read (`self.fake_B = self.gen(self.real_A)`),
 * or bound to a name returned as it is. */
static bool output_handed_back(const facts *f, int fn, TSNode call) {
  TSNode n = call;
  for (int guard = 0; guard < 16; guard++) {
    TSNode p = ts_node_parent(n);
    if (ts_node_is_null(p) || !NODE_IS(p, "argument_list")) break;
    TSNode outer = ts_node_parent(p);
    if (ts_node_is_null(outer) || !NODE_IS(outer, "call") || !facts_is_model_call(f, FIELD(outer, function)))
      return false;
    n = outer;
  }
  TSNode p = ts_node_parent(n);
  if (ts_node_is_null(p)) return false;
  if (NODE_IS(p, "expression_list") || NODE_IS(p, "tuple")) {
    TSNode r = ts_node_parent(p);
    return !ts_node_is_null(r) && NODE_IS(r, "return_statement");
  }
  if (NODE_IS(p, "return_statement")) return true;
  if (!NODE_IS(p, "assignment") || !ts_node_eq(FIELD(p, right), n)) return false;
  TSNode left = FIELD(p, left);
  if (ts_node_is_null(left)) return false;
  if (NODE_IS(left, "attribute")) return names(f, FIELD(left, object), "self", 4);
  if (NODE_IS(left, "identifier")) {
    uint32_t len;
    const char *name = facts_text(f, left, &len);
    return returns_name(f, fn, name, len);
  }
  if (!NODE_IS(left, "pattern_list") && !NODE_IS(left, "tuple_pattern")) return false;
  uint32_t k = ts_node_named_child_count(left);
  for (uint32_t i = 0; i < k; i++) {
    TSNode t = ts_node_named_child(left, i);
    uint32_t len;
    const char *name = facts_text(f, t, &len);
    if (NODE_IS(t, "identifier") && returns_name(f, fn, name, len)) return true;
  }
  return false;
}


/* Whether a training loop of the file calls the plain function FN with
 * gradients on: a script's forward helper (`def inference(model,
 * images)`, or CyCADA's `predict` closure in its `main`) that its training
 * loop backpropagates through, while its evaluation calls it under no_grad. */
static bool called_to_train(const facts *f, int fn) {
  assert(fn >= 0 && (size_t)fn < f->functions.len);
  const facts_function *d = &f->functions.items[fn];
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (c->function < 0 || c->function == fn || !f->functions.items[c->function].backward || c->loop < 0 ||
        !facts_loop_trains(f, c->loop))
      continue;
    TSNode callee = FIELD(c->call, function);
    if (!ts_node_is_null(callee) && NODE_IS(callee, "identifier") && facts_text_is(f, callee, d->name, d->name_len) &&
        facts_function_named(f, callee) == fn && !facts_in_no_grad(f, ts_node_start_byte(c->call)))
      return true;
  }
  return false;
}


/* Whether method FN, named as an evaluation, is an entry point whose callers
 * choose the grad mode for CALL (a plain function too, when a training
 * function of the file calls it): FN neither puts a model in eval mode nor
 * runs a loop of its own, and hands CALL's output back as it is (`def
 * predict(self, x): return self.network(x)`). An evaluation loop elsewhere
 * (often in another module) calls it under no_grad, and the class's own
 * training step may backpropagate its output (`loss =
 * F.cross_entropy(self.predict(x), y)`). A method that turns the output into
 * predictions itself (`.argmax(1)`, `.cpu().numpy()`) is an evaluation. */
static bool caller_chooses_grad_mode(const facts *f, int fn, TSNode call) {
  assert(fn >= 0 && (size_t)fn < f->functions.len);
  const facts_function *d = &f->functions.items[fn];
  if (!NODE_IS(call, "call") || (d->klass < 0 && !called_to_train(f, fn))) return false;
  for (size_t i = 0; i < f->loops.len; i++)
    if (f->loops.items[i].function == fn) return false;
  for (size_t i = facts_first_call_at(f, d->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= d->body.end) break;
    if (c->function == fn && mode_call(f, c->call) == 1) return false;
  }
  return output_handed_back(f, fn, call);
}


/* Whether function FN is an evaluation by its name (`evaluate`,
 * `validate_epoch`, `test`), and not a unit test. */
bool facts_in_unit_test(const facts *self, uint32_t pos) {
  for (int f = facts_function_at(self, pos); f >= 0; f = self->functions.items[f].parent)
    if (unit_test(self, f)) return true;
  return false;
}


/* Whether a function of the file that runs its own backward pass calls FN,
 * with gradients on, and keeps the result (`pred, mask = self.predict(imgs,
 * flow)` in RIFE's `update`), and a backward or an optimizer step follows
 * the call in the same loop (or both lie outside loops): FN's forward is
 * the one training backpropagates, whatever its name says. An evaluation a
 * training function runs after its batch loop (`self.evaluate()`) has no
 * backward after it in its own loop. */
static bool backpropagated_by_caller(const facts *f, int fn) {
  assert(fn >= 0 && (size_t)fn < f->functions.len);
  const facts_function *d = &f->functions.items[fn];
  bool yes = false;
  for (size_t i = 0; i < f->calls.len && !yes; i++) {
    const facts_call *c = &f->calls.items[i];
    if (c->function < 0 || c->function == fn || !f->functions.items[c->function].own_backward) continue;
    /* the name before the call's first `(`, read off its text before any
     * node is walked (most calls are not of FN) */
    if (!facts__call_named(f, c->call, d->name, d->name_len)) continue;
    TSNode callee = FIELD(c->call, function);
    TSNode last = !ts_node_is_null(callee) && NODE_IS(callee, "attribute") ? FIELD(callee, attribute) : callee;
    if (ts_node_is_null(last) || !facts_text_is(f, last, d->name, d->name_len) ||
        facts_function_named(f, callee) != fn || facts_in_no_grad(f, ts_node_start_byte(c->call)))
      continue;
    TSNode up = ts_node_parent(c->call);
    if (ts_node_is_null(up) || NODE_IS(up, "expression_statement")) continue;
    uint32_t end = f->functions.items[c->function].whole.end;
    for (size_t j = i + 1; j < f->calls.len && !yes; j++) {
      const facts_call *b = &f->calls.items[j];
      if (ts_node_start_byte(b->call) >= end) break;
      if (b->function != c->function || b->loop != c->loop) continue;
      /* `loss.backward()` or `optimizer.step()` itself: a checkpoint
       * naming the optimizer (`torch.save({"optimizer": opt.state_dict()})`)
       * after an epoch's validation is no training */
      TSNode bc = FIELD(b->call, function);
      if (ts_node_is_null(bc) || !NODE_IS(bc, "attribute")) continue;
      TSNode attr = FIELD(bc, attribute);
      uint32_t ol;
      const char *ot = facts_text(f, FIELD(bc, object), &ol);
      yes = facts_node_is(f, attr, "backward") || (facts_node_is(f, attr, "step") && facts_optimizer_name(ot, ol));
    }
  }
  return yes;
}


static bool eval_function(const facts *f, int fn) {
  return eval_name(f->functions.items[fn].name, f->functions.items[fn].name_len) && !unit_test(f, fn) &&
         !f->functions.items[fn].feeds_loss && !f->functions.items[fn].policy_terms &&
         !backpropagated_by_caller(f, fn);
}


/* Whether NAME (LEN bytes) asks for gradients: one of its `_`-separated
 * words is `grad`, `grads`, `gradient(s)` or `gradcam`, not after `no` or
 * `without` (`outputs_with_grad`, `grad_cam`, `compute_gradients`; not
 * `predict_no_grad`, `upgrade`, `gradual_unfreeze`). */
static bool grad_name(const char *name, uint32_t len) {
  static const char *const words[] = {"grad", "grads", "gradient", "gradients", "gradcam", NULL};
  uint32_t prev = 0, prev_len = 0;
  for (uint32_t at = 0; at < len;) {
    uint32_t end = at;
    while (end < len && name[end] != '_') end++;
    uint32_t n = end - at;
    for (size_t i = 0; words[i] && n; i++)
      if (strlen(words[i]) == n && !strncasecmp(name + at, words[i], n)) {
        bool negated = (prev_len == 2 && !strncasecmp(name + prev, "no", 2)) ||
                       (prev_len == 7 && !strncasecmp(name + prev, "without", 7));
        if (!negated) return true;
      }
    prev = at;
    prev_len = n;
    at = end + 1;
  }
  return false;
}


/* Whether a no-grad region starts inside SPAN. */
static bool holds_no_grad(const facts *f, facts_span span) {
  for (size_t i = 0; i < f->no_grad.len; i++)
    if (f->no_grad.items[i].start >= span.start && f->no_grad.items[i].start < span.end) return true;
  return false;
}


static facts_span span_of(TSNode n) {
  return (facts_span){ts_node_start_byte(n), ts_node_end_byte(n)};
}


/* Whether NODE holds an attribute read `x.grad_fn`: code that walks the
 * autograd graph a forward recorded (a pruning library tracing a model's
 * dependencies from its outputs' `grad_fn`). */
static bool reads_grad_fn(const facts *f, TSNode node) {
  /* most files: settled by one scan of their text (facts_build_with) */
  return f->mentions_grad_fn && subtree_has(f, node, true, "grad_fn", 7);
}


/* Whether the call NODE keeps autograd on on purpose: a function named for
 * gradients (`..._with_grad`) holds it, its function reads `.grad_fn`
 * (reads_grad_fn), or it lies in one branch of an
 * `if` whose other branch runs under no_grad (`if train: f = enc(x)` /
 * `else: with torch.no_grad(): f = enc(x)`): the code chooses the grad
 * mode by a condition, as `torch.set_grad_enabled(flag)` would. */
static bool grad_kept_on_purpose(const facts *f, TSNode node) {
  uint32_t pos = ts_node_start_byte(node);
  for (int g = facts_function_at(f, pos); g >= 0; g = f->functions.items[g].parent)
    if (grad_name(f->functions.items[g].name, f->functions.items[g].name_len)) return true;
  int fn = facts_function_at(f, pos);
  if (fn >= 0 && reads_grad_fn(f, f->functions.items[fn].node)) return true;
  TSNode child = node;
  for (TSNode p = ts_node_parent(node); !ts_node_is_null(p); child = p, p = ts_node_parent(p)) {
    if (NODE_IS(p, "function_definition") || NODE_IS(p, "class_definition")) break;
    if (!NODE_IS(p, "if_statement")) continue;
    TSNode cons = FIELD(p, consequence);
    if (ts_node_is_null(cons)) continue;
    /* the call in the test is in no branch */
    if (!ts_node_eq(child, cons) && !NODE_IS(child, "else_clause") && !NODE_IS(child, "elif_clause")) continue;
    uint32_t n = ts_node_named_child_count(p);
    for (uint32_t i = 0; i < n; i++) {
      TSNode b = ts_node_named_child(p, i);
      bool branch = ts_node_eq(b, cons) || NODE_IS(b, "else_clause") || NODE_IS(b, "elif_clause");
      if (branch && !ts_node_eq(b, child) && holds_no_grad(f, span_of(b))) return true;
    }
  }
  return false;
}


static bool grad_mode_chosen(const facts *f, uint32_t pos);


static const char *called_model(const facts *f, TSNode node, uint32_t *len);


static bool dispatched_by_caller(const facts *f, int fn);


bool facts_in_eval_function(const facts *self, TSNode node) {
  uint32_t pos = ts_node_start_byte(node);
  int fn = facts_function_at(self, pos);
  /* a model's `predict_masks` is its own computation (Segment Anything) */
  if (fn < 0 || !eval_function(self, fn)) return false;
  if (facts_in_module_method(self, fn) || grad_mode_chosen(self, pos) || caller_chooses_grad_mode(self, fn, node) ||
      grad_kept_on_purpose(self, node) || dispatched_by_caller(self, fn) ||
      facts_result_buffered_for_backward(self, node))
    return false;
  /* named for evaluation, yet putting this very model in training mode
   * first and returning a graph: it trains (eval_context) */
  uint32_t len = 0;
  const char *model = called_model(self, node, &len);
  return !(model && trained_before(self, fn, model, len, pos) && returns_to_training(self, fn));
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
  else {
    /* `self.infer(x)`, a method returning `self.module_(x)`: module_'s call */
    TSNode delegated = facts_delegated_model(f, fn);
    if (!ts_node_is_null(delegated)) fn = delegated;
  }
  return ts_node_is_null(fn) ? NULL : facts_text(f, fn, len);
}


/* Whether POS runs under `torch.set_grad_enabled(X)` (a with-item or a
 * statement before it in its block) with X not a literal: the code turns
 * gradients on or off itself, by phase (`split == 'train'`); its evaluation
 * phase is the one without them. */
static bool grad_mode_chosen(const facts *f, uint32_t pos) {
  for (size_t i = 0; i < f->with_items.len; i++) {
    const facts_region *r = &f->with_items.items[i];
    if (pos < r->span.start || pos >= r->span.end) continue;
    /* `with torch.no_grad() if policy.training or not with_grad else
     * nullcontext():` chooses by condition, as set_grad_enabled(flag) does */
    if (NODE_IS(r->candidate, "conditional_expression")) {
      buf tmp = {0};
      bool chosen = false;
      for (uint32_t k = 0; k < ts_node_named_child_count(r->candidate) && !chosen; k += 2)
        chosen = facts__no_grad_expr(f, ts_node_named_child(r->candidate, k), &tmp);
      buf_free(&tmp);
      if (chosen) return true;
      continue;
    }
    if (!NODE_IS(r->candidate, "call")) continue;
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


static bool eval_context(const facts *self, TSNode node);


/* Whether the model call NODE is in one branch of `if not train:` (or
 * `if train:`) whose other branch puts a model in training mode, `train`
 * being a parameter of a function around it: a helper that runs the model
 * in the mode its caller asks for (score_sde's `get_model_fn(model,
 * train=False)`), whose callers choose the grad mode too. */
static bool mode_chosen_by_flag(const facts *f, TSNode node) {
  TSNode child = node;
  for (int guard = 0; guard < 12; guard++) {
    TSNode up = ts_node_parent(child);
    if (ts_node_is_null(up) || NODE_IS(up, "function_definition") || NODE_IS(up, "module")) return false;
    if (NODE_IS(up, "if_statement")) {
      TSNode cond = FIELD(up, condition), cons = FIELD(up, consequence);
      if (!ts_node_is_null(cond) && NODE_IS(cond, "not_operator")) cond = FIELD(cond, argument);
      TSNode other = NULL_NODE;
      for (uint32_t i = 0; i < ts_node_named_child_count(up); i++) {
        TSNode b = ts_node_named_child(up, i);
        if (NODE_IS(b, "else_clause")) other = b;
      }
      if (!ts_node_is_null(cond) && NODE_IS(cond, "identifier") && !ts_node_is_null(other)) {
        TSNode opposite = ts_node_eq(child, cons) ? other : ts_node_eq(child, other) ? cons : NULL_NODE;
        uint32_t len;
        const char *flag = facts_text(f, cond, &len);
        /* a parameter of a function around the if */
        bool parameter = false;
        for (int g = facts_function_at(f, ts_node_start_byte(up)); g >= 0 && !parameter; g = f->functions.items[g].parent)
          parameter = facts__parameter_of(f, flag, len, g);
        for (size_t i = ts_node_is_null(opposite) || !parameter ? f->calls.len : facts_first_call_at(f, ts_node_start_byte(opposite));
             i < f->calls.len && ts_node_start_byte(f->calls.items[i].call) < ts_node_end_byte(opposite); i++)
          if (mode_call(f, f->calls.items[i].call) == 0) return true;
      }
    }
    child = up;
  }
  return false;
}


/* Whether function FN returns a value after POS (a `return` with one). */
static bool returns_value_after(const facts *f, int fn, uint32_t pos) {
  for (size_t i = 0; i < f->returns.len; i++) {
    const facts_call *r = &f->returns.items[i];
    if (r->function != fn || ts_node_start_byte(r->call) < pos || !ts_node_named_child_count(r->call)) continue;
    TSNode v = ts_node_named_child(r->call, 0);
    if (!NODE_IS(v, "none") && !NODE_IS(v, "true") && !NODE_IS(v, "false") && !NODE_IS(v, "integer") &&
        !NODE_IS(v, "string"))
      return true;
  }
  return false;
}


bool facts__backpropagated_elsewhere(const facts *f, int fn) {
  assert(fn >= 0 && (size_t)fn < f->functions.len);
  const facts_function *g = &f->functions.items[fn];
  if (!f->imports || !f->imports->importer_calls || g->parent >= 0 ||
      (g->name_len > 4 && g->name[0] == '_' && g->name[1] == '_'))
    return false;
  /* a base class of the project running `loss = self.training_forward(...)`,
   * then `loss.backward()` (DeepOD's BaseDeepAD for RoSAS) */
  if (f->base_called && (f->base_called[fn] & FACTS_CALLED_BACKPROP)) return true;
  return (f->imports->importer_calls(f->imports, g->name, g->name_len) & FACTS_CALLED_BACKPROP) != 0;
}


bool facts_returned_to_importers_backward(const facts *f, TSNode node) {
  int fn = facts_function_at(f, ts_node_start_byte(node));
  return fn >= 0 && f->functions.items[fn].parent < 0 && returns_value_after(f, fn, ts_node_end_byte(node)) &&
         facts__backpropagated_elsewhere(f, fn);
}


/* Whether the `.eval()` before NODE in its function is itself in one
 * branch of such an `if train:`, the other putting the model in training
 * mode (`if train: model.train() else: model.eval()`, then `return
 * model(x, sigma)`): the mode, and the grad mode, are the caller's. */
static bool eval_chosen_by_flag(const facts *f, TSNode node) {
  uint32_t pos = ts_node_start_byte(node);
  int fn = facts_function_at(f, pos);
  if (fn < 0) return false;
  for (size_t i = facts_first_call_at(f, f->functions.items[fn].body.start);
       i < f->calls.len && ts_node_start_byte(f->calls.items[i].call) < pos; i++)
    if (f->calls.items[i].function == fn && mode_call(f, f->calls.items[i].call) == 1 &&
        mode_chosen_by_flag(f, f->calls.items[i].call))
      return true;
  return false;
}


bool facts_in_eval_context(const facts *self, TSNode node) {
  return eval_context(self, node) && !grad_kept_on_purpose(self, node) && !mode_chosen_by_flag(self, node) &&
         !eval_chosen_by_flag(self, node) && !facts_result_backpropagated(self, node);
}


/* Whether the callee of CALL is NAME or `x.NAME`, read off the text before
 * the call's first `(` so that no node is walked: most calls are of other
 * functions. */
bool facts__call_named(const facts *f, TSNode call, const char *name, uint32_t len) {
  uint32_t tl;
  const char *ct = facts_text(f, call, &tl);
  const char *paren = memchr(ct, '(', tl);
  uint32_t cl = paren ? (uint32_t)(paren - ct) : 0;
  return cl >= len && !memcmp(ct + cl - len, name, len) && (cl == len || ct[cl - len - 1] == '.');
}


/* Whether a function of the file calls function FN under no_grad in one
 * branch of an `if` and with gradients on in another (`if prevent_grads:
 * with torch.no_grad(): self.test_() else: self.test_()`): that caller
 * dispatches, choosing the grad mode per call, and FN's forward records a
 * graph only when asked to. Two calls of one caller in a row, once under
 * no_grad and once not, choose nothing: the second forgot it. */
static bool dispatched_by_caller(const facts *f, int fn) {
  if (fn < 0 || !f->no_grad.len) return false;
  const facts_function *d = &f->functions.items[fn];
  /* first the calls inside no-grad regions, which are few: most functions
   * have no call of theirs there, and the file's other calls are not read */
  bool named_off = false;
  for (size_t r = 0; r < f->no_grad.len && !named_off; r++) {
    facts_span span = f->no_grad.items[r];
    for (size_t i = facts_first_call_at(f, span.start); i < f->calls.len && !named_off; i++) {
      if (ts_node_start_byte(f->calls.items[i].call) >= span.end) break;
      named_off = facts__call_named(f, f->calls.items[i].call, d->name, d->name_len);
    }
  }
  if (!named_off) return false;
  enum { MAX_CALLS = 8 };
  TSNode off[MAX_CALLS], on[MAX_CALLS];
  int caller[2][MAX_CALLS];
  size_t noff = 0, non = 0;
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (c->function < 0 || c->function == fn) continue;
    if (!facts__call_named(f, c->call, d->name, d->name_len)) continue;
    TSNode callee = FIELD(c->call, function);
    if (ts_node_is_null(callee) || facts_function_named(f, callee) != fn) continue;
    if (facts_in_no_grad(f, ts_node_start_byte(c->call))) {
      if (noff < MAX_CALLS) caller[0][noff] = c->function, off[noff++] = c->call;
    } else if (non < MAX_CALLS) {
      caller[1][non] = c->function, on[non++] = c->call;
    }
  }
  for (size_t i = 0; i < noff; i++) {
    /* the `if` around the no-grad call, and the branch holding it */
    TSNode branch = NULL_NODE, cond = NULL_NODE;
    for (TSNode up = ts_node_parent(off[i]), below = off[i]; !ts_node_is_null(up) && ts_node_is_null(cond);
         below = up, up = ts_node_parent(up)) {
      if (NODE_IS(up, "function_definition")) break;
      if (NODE_IS(up, "if_statement")) cond = up, branch = below;
    }
    if (ts_node_is_null(cond)) continue;
    for (size_t j = 0; j < non; j++) {
      uint32_t at = ts_node_start_byte(on[j]);
      if (caller[1][j] == caller[0][i] && at >= ts_node_start_byte(cond) && at < ts_node_end_byte(cond) &&
          !(at >= ts_node_start_byte(branch) && at < ts_node_end_byte(branch)))
        return true;
    }
  }
  return false;
}


/* The flag of the nearest `if FLAG:` or `if not FLAG:` of NODE's function
 * whose body or `else` holds NODE, with *TRUE_THERE saying whether FLAG is
 * true where NODE runs and *STMT the `if`; a null node when there is none. */
static TSNode branch_flag(TSNode node, bool *true_there, TSNode *stmt) {
  TSNode child = node;
  for (int guard = 0; guard < 16; guard++) {
    TSNode up = ts_node_parent(child);
    if (ts_node_is_null(up) || NODE_IS(up, "function_definition") || NODE_IS(up, "module")) break;
    if (NODE_IS(up, "if_statement")) {
      TSNode cond = FIELD(up, condition), cons = FIELD(up, consequence);
      bool in_body = ts_node_eq(child, cons), in_else = NODE_IS(child, "else_clause");
      if (!ts_node_is_null(cond) && (in_body || in_else)) {
        bool negated = NODE_IS(cond, "not_operator");
        if (negated) cond = FIELD(cond, argument);
        if (!ts_node_is_null(cond) && NODE_IS(cond, "identifier")) {
          *true_there = in_body != negated;
          *stmt = up;
          return cond;
        }
      }
      return NULL_NODE;
    }
    child = up;
  }
  return NULL_NODE;
}


/* Whether the `.eval()` EVAL that puts NODE's model in eval mode runs only
 * on a flag's word that NODE does not share: NODE runs where the flag is
 * false (`if is_eval: self.model.eval()`, then `if not is_eval: out =
 * self.model.decode(z)`, the training path), or the flag is a parameter of
 * function FN named for evaluation (`is_test=False`) and NODE, after that
 * `if`, feeds what FN returns: a helper shared by the training step and
 * the test, whose caller chooses the mode. */
static bool eval_under_flag(const facts *f, int fn, TSNode eval, TSNode node) {
  bool eval_true, node_true;
  TSNode at, node_at;
  TSNode flag = branch_flag(eval, &eval_true, &at);
  if (ts_node_is_null(flag)) return false;
  uint32_t len;
  const char *name = facts_text(f, flag, &len);
  TSNode other = branch_flag(node, &node_true, &node_at);
  if (!ts_node_is_null(other) && node_true != eval_true && facts_text_is(f, other, name, len)) return true;
  uint32_t pos = ts_node_start_byte(node);
  if ((pos >= ts_node_start_byte(at) && pos < ts_node_end_byte(at)) || fn < 0 ||
      !facts__parameter_of(f, name, len, fn))
    return false;
  /* `if is_test:` names the evaluation call; `if not training:` too */
  static char *const training[] = {"train", "training", "is_train", "is_training", "train_mode"};
  bool names_eval = eval_true ? eval_name(name, len) : in_names(training, sizeof training / sizeof *training, name, len);
  return names_eval && returns_value_after(f, fn, ts_node_end_byte(node));
}


static bool eval_context(const facts *self, TSNode node) {
  uint32_t pos = ts_node_start_byte(node);
  int fn = facts_function_at(self, pos);
  if (facts_in_module_method(self, fn)) return false;
  if (grad_mode_chosen(self, pos)) return false;
  if (dispatched_by_caller(self, fn)) return false;
  /* a unit test checks a module's behaviour in eval mode on a toy input
   * (dropout off, `graph_module.eval()` then an assert), in a file that need
   * not import pytest: nothing of a real job's size is at stake */
  for (int f = fn; f >= 0; f = self->functions.items[f].parent)
    if (unit_test(self, f)) return false;
  uint32_t len = 0;
  const char *model;
  /* a function named for evaluation that puts this very model in training
   * mode before calling it and returns a graph trains it: a Q-learner's
   * `evaluate_q` runs `self.mixer.train()`, then returns the TD loss its
   * trainer backpropagates (a `test()` in training mode that keeps only
   * `loss.item()` is still an evaluation, with dropout on) */
  for (int f = fn; f >= 0; f = self->functions.items[f].parent)
    if (eval_function(self, f) && !(f == fn && caller_chooses_grad_mode(self, fn, node))) {
      model = called_model(self, node, &len);
      return !(model && trained_before(self, fn, model, len, pos) && returns_to_training(self, fn));
    }
  /* a method that returns a graph its class's training step backpropagates
   * (`penalty = self._anchor_penalty()`, then `loss = task + w * penalty`
   * and `loss.backward()`), this forward's output in what it returns: an
   * eval-mode forward on purpose, part of the loss (dropout off for a
   * stable anchor); a DQN target network's detached output is not */
  if (fn >= 0 && self->functions.items[fn].returns_graph && backpropagated_by_caller(self, fn) &&
      facts_result_returned(self, node))
    return false;
  model = called_model(self, node, &len);
  /* after `model.eval()` in this scope, before any `model.train()`, for
   * calls of that model: a distillation step puts its teacher in eval mode
   * and goes on to train the student */
  int mode = -1;
  uint32_t mode_at = 0; /* where the last mode call was */
  TSNode mode_call_node = NULL_NODE;
  for (size_t i = facts_first_call_at(self, fn >= 0 ? self->functions.items[fn].body.start : 0); i < self->calls.len;
       i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= pos) break;
    if (c->function != fn) continue;
    int m = mode_call(self, c->call);
    if (m < 0) continue;
    uint32_t olen;
    const char *obj = facts_text(self, FIELD(FIELD(c->call, function), object), &olen);
    if ((!model || (olen == len && !memcmp(obj, model, len))) ||
        (m == 1 && (obj = assigned_to(self, c->call, &olen)) && olen == len && !memcmp(obj, model, len))) {
      mode = m;
      mode_at = ts_node_start_byte(c->call);
      mode_call_node = c->call;
    }
  }
  /* `model = SimpleNet(10, 20, 5)` after the last mode call: a new
   * instance, in training mode whatever mode the name's earlier model was
   * put in */
  for (size_t k = 0; model && k < self->instance_assigns.len; k++) {
    TSNode left = self->assigns.items[self->instance_assigns.items[k]].left;
    uint32_t at = ts_node_start_byte(left);
    if (at >= pos) break;
    if (at > mode_at && facts_function_at(self, at) == fn && facts_text_is(self, left, model, len)) mode = 0;
  }
  /* `model = pickle.load(f)` after the last mode call, a value that does
   * not read the name (an `elif` loading an XGBoost model under the name
   * the other branch put in eval mode): another object, whose mode that
   * call did not set; `model = DDP(model)` wraps the same module */
  if (mode == 1 && model) {
    long a = facts__last_assign_before(self, model, len, pos, fn);
    if (a >= 0 && ts_node_start_byte(self->assigns.items[a].left) > mode_at &&
        !ts_node_is_null(self->assigns.items[a].right)) {
      uint32_t rl;
      const char *r = facts_text(self, self->assigns.items[a].right, &rl);
      /* the block of the binding must hold the call: `else: encoder =
       * None` does not rebind what the `if` branch put in eval mode */
      TSNode block = ts_node_parent(self->assigns.items[a].left);
      while (!ts_node_is_null(block) && !NODE_IS(block, "block") && !NODE_IS(block, "module"))
        block = ts_node_parent(block);
      if (!facts__mentions(r, rl, model, len) && !ts_node_is_null(block) && pos >= ts_node_start_byte(block) &&
          pos < ts_node_end_byte(block))
        mode = 0;
    }
  }
  if (mode < 0 && model && fn >= 0) return evaluated_since_init(self, fn, model, len);
  /* asked last, of the one `.eval()` in effect: it walks up the tree */
  return mode == 1 && !(!ts_node_is_null(mode_call_node) && eval_under_flag(self, fn, mode_call_node, node));
}


/* Whether E is a tensor made up in function FN rather than data read:
 * `torch.randn(...)`, `torch.zeros(...)` and the like, through `.to()`-like
 * chains, subscripts (`x[None]`) and names bound to one. DEPTH bounds the
 * names followed. */
static bool made_up_tensor(const facts *f, TSNode e, int fn, int depth) {
  static const char *const makers[] = {"torch.randn", "torch.rand", "torch.randint", "torch.zeros", "torch.ones",
                                       "torch.empty", "torch.full", "torch.randn_like", "torch.rand_like",
                                       "torch.zeros_like", "torch.ones_like", NULL};
  static const char *const same[] = {"to", "cuda", "cpu", "half", "float", "double", "bfloat16", "contiguous", NULL};
  for (int guard = 0; guard < 16 && !ts_node_is_null(e); guard++) {
    if (NODE_IS(e, "parenthesized_expression") || NODE_IS(e, "subscript")) {
      e = NODE_IS(e, "subscript") ? FIELD(e, value) : ts_node_named_child(e, 0);
      continue;
    }
    if (NODE_IS(e, "identifier")) {
      if (depth > 3) return false;
      uint32_t len;
      const char *name = facts_text(f, e, &len);
      uint32_t at = ts_node_start_byte(e);
      long a = facts__last_assign_before(f, name, len, at, fn);
      /* `x = conv(x)`: the value x had before this statement */
      while (a >= 0 && ts_node_start_byte(f->assigns.items[a].right) <= at &&
             at < ts_node_end_byte(f->assigns.items[a].right))
        a = facts__last_assign_before(f, name, len, ts_node_start_byte(f->assigns.items[a].left), fn);
      return a >= 0 && NODE_IS(f->assigns.items[a].left, "identifier") &&
             made_up_tensor(f, f->assigns.items[a].right, fn, depth + 1);
    }
    if (!NODE_IS(e, "call")) return false;
    TSNode callee = FIELD(e, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return false;
    TSNode attr = FIELD(callee, attribute);
    bool chained = false;
    for (size_t i = 0; same[i] && !chained; i++) chained = facts_node_is(f, attr, same[i]);
    if (chained) {
      e = FIELD(callee, object);
      continue;
    }
    buf q = {0};
    bool made = false;
    if (facts_qualname(f, callee, &q))
      for (size_t i = 0; makers[i] && !made; i++) made = !strcmp(buf_str(&q), makers[i]);
    buf_free(&q);
    return made;
  }
  return false;
}


bool facts_probe_loop(const facts *self, uint32_t pos) {
  int loop = facts_iteration_loop_at(self, pos);
  if (loop < 0) return false;
  const facts_loop *l = &self->loops.items[loop];
  int fn = l->function;
  bool any = false;
  for (size_t i = facts_first_call_at(self, l->body.start); i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    uint32_t at = ts_node_start_byte(c->call);
    if (at >= l->body.end) break;
    if (c->function != fn) continue;
    TSNode callee = FIELD(c->call, function);
    if (ts_node_is_null(callee) || !facts_is_model_call(self, callee)) continue;
    TSNode args = FIELD(c->call, arguments), a;
    /* a model called with nothing is no probe of made-up input (and the
     * walk below must start only to run: its cursor is freed by the walk) */
    if (ts_node_is_null(args) || !NODE_IS(args, "argument_list") || !ts_node_named_child_count(args)) return false;
    bool made = true;
    for (children it = children_of(args); made && children_next(&it, &a);) {
      if (NODE_IS(a, "comment")) continue;
      if (NODE_IS(a, "keyword_argument")) {
        a = FIELD(a, value); /* an option given as a literal is no data */
        if (!ts_node_is_null(a) && (NODE_IS(a, "true") || NODE_IS(a, "false") || NODE_IS(a, "none") ||
                                    NODE_IS(a, "integer") || NODE_IS(a, "float") || NODE_IS(a, "string")))
          continue;
      }
      made = !ts_node_is_null(a) && made_up_tensor(self, a, fn, 0);
      if (!made) children_done(&it); /* the walk holds a cursor */
    }
    if (!made) return false;
    any = true;
  }
  return any;
}


bool facts_wraps_only_backward(const facts *self, TSNode call) {
  TSNode item = ts_node_parent(call);
  if (!ts_node_is_null(item) && NODE_IS(item, "as_pattern")) item = ts_node_parent(item);
  if (ts_node_is_null(item) || !NODE_IS(item, "with_item")) return false;
  TSNode clause = ts_node_parent(item);
  TSNode with = ts_node_is_null(clause) ? clause : ts_node_parent(clause);
  if (ts_node_is_null(with) || !NODE_IS(with, "with_statement")) return false;
  TSNode body = FIELD(with, body), s;
  if (ts_node_is_null(body)) return false;
  bool any = false, only = true;
  for (children it = children_of(body); only && children_next(&it, &s);) {
    if (NODE_IS(s, "comment")) continue;
    TSNode e = NODE_IS(s, "expression_statement") ? ts_node_named_child(s, 0) : NULL_NODE;
    TSNode callee = !ts_node_is_null(e) && NODE_IS(e, "call") ? FIELD(e, function) : NULL_NODE;
    TSNode attr = !ts_node_is_null(callee) && NODE_IS(callee, "attribute") ? FIELD(callee, attribute) : NULL_NODE;
    only = !ts_node_is_null(attr) && facts_node_is(self, attr, "backward");
    if (!only) children_done(&it); /* the walk holds a cursor */
    any = true;
  }
  return any && only;
}


TSNode facts_constant_value(const facts *self, TSNode node) {
  if (ts_node_is_null(node) || !NODE_IS(node, "identifier")) return NULL_NODE;
  uint32_t len;
  const char *name = facts_text(self, node, &len);
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  TSNode value = NULL_NODE;
  for (size_t i = first; i < end; i++) {
    TSNode v = self->bindings.items[i].value;
    if (self->bindings.items[i].kind != BINDING_OTHER || ts_node_is_null(v) ||
        !(NODE_IS(v, "true") || NODE_IS(v, "false") || NODE_IS(v, "none") || NODE_IS(v, "integer") ||
          NODE_IS(v, "float") || NODE_IS(v, "string")))
      return NULL_NODE;
    if (!ts_node_is_null(value)) {
      uint32_t vl, wl;
      const char *vt = facts_text(self, v, &vl), *wt = facts_text(self, value, &wl);
      if (vl != wl || memcmp(vt, wt, vl)) return NULL_NODE;
    }
    value = v;
  }
  return value;
}


bool facts_to_numpy(const facts *self, TSNode call) {
  /* methods that keep the tensor's graph on the way to `.numpy()` */
  static const char *const keep[] = {"cpu", "cuda", "to", "squeeze", "unsqueeze", "view", "reshape", "flatten",
                                     "permute", "transpose", "contiguous", "float", "double", "half", "clone",
                                     "sigmoid", "softmax", "exp", "mean", "sum", NULL};
  TSNode at = call;
  for (int guard = 0; guard < 12; guard++) {
    TSNode up = ts_node_parent(at);
    if (ts_node_is_null(up)) return false;
    if (NODE_IS(up, "subscript") && ts_node_eq(FIELD(up, value), at)) {
      at = up;
      continue;
    }
    /* the function forms, `torch.sigmoid(model(x))` */
    if (NODE_IS(up, "argument_list") && ts_node_named_child_count(up) && ts_node_eq(ts_node_named_child(up, 0), at)) {
      static const char *const forms[] = {"torch.sigmoid", "torch.softmax", "torch.exp", "torch.tanh", "torch.squeeze",
                                          "torch.nn.functional.softmax", "torch.nn.functional.sigmoid",
                                          "torch.nn.functional.log_softmax", NULL};
      TSNode inv = ts_node_parent(up);
      buf q = {0};
      bool form = false;
      if (!ts_node_is_null(inv) && NODE_IS(inv, "call") && facts_qualname(self, FIELD(inv, function), &q))
        for (size_t i = 0; forms[i] && !form; i++) form = !strcmp(buf_str(&q), forms[i]);
      buf_free(&q);
      if (!form) return false;
      at = inv;
      continue;
    }
    if (!NODE_IS(up, "attribute") || !ts_node_eq(FIELD(up, object), at)) return false;
    TSNode m = FIELD(up, attribute), inv = ts_node_parent(up);
    if (ts_node_is_null(inv) || !NODE_IS(inv, "call") || !ts_node_eq(FIELD(inv, function), up)) return false;
    if (facts_node_is(self, m, "numpy")) return true;
    bool kept = false;
    for (size_t i = 0; keep[i] && !kept; i++) kept = facts_node_is(self, m, keep[i]);
    if (!kept) return false;
    at = inv;
  }
  return false;
}


bool facts_warm_up_call(const facts *self, TSNode call) {
  uint32_t pos = ts_node_start_byte(call);
  if (facts_innermost_loop_at(self, pos) >= 0) return false;
  TSNode parent = ts_node_parent(call);
  if (!ts_node_is_null(parent) && NODE_IS(parent, "expression_statement")) return true;
  /* a probe: one forward of made-up tensors (`x = torch.randn(10, c, 200,
   * w); return conv(x).size(-1)`, a module's self-test), not of data */
  TSNode args = FIELD(call, arguments);
  uint32_t n = ts_node_is_null(args) || !NODE_IS(args, "argument_list") ? 0 : ts_node_named_child_count(args);
  if (!n) return false;
  int fn = facts_function_at(self, pos);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    /* an option given as a literal (`just_feats=True`) is no data */
    if (NODE_IS(a, "keyword_argument")) {
      TSNode v = FIELD(a, value);
      if (!ts_node_is_null(v) && (NODE_IS(v, "true") || NODE_IS(v, "false") || NODE_IS(v, "none") ||
                                  NODE_IS(v, "integer") || NODE_IS(v, "float") || NODE_IS(v, "string")))
        continue;
      a = v;
    }
    if (!made_up_tensor(self, a, fn, 0)) return false;
  }
  /* ... unless a model was put in eval mode first: an inference on purpose
   * (PSPNet's `__main__`: `model.eval(); output = model(input)`) */
  for (size_t i = facts_first_call_at(self, fn >= 0 ? self->functions.items[fn].body.start : 0); i < self->calls.len;
       i++) {
    const facts_call *c = &self->calls.items[i];
    if (ts_node_start_byte(c->call) >= pos) break;
    if (c->function == fn && mode_call(self, c->call) == 1) return false;
  }
  return true;
}


/* Whether a class named by CALLEE (its last name capitalized) is built by
 * the call: not a class of the file, whose code is in view. */
static bool builds_other_class(const facts *f, TSNode callee) {
  if (!ts_node_is_null(callee) && NODE_IS(callee, "attribute")) callee = FIELD(callee, attribute);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(f, callee, &len);
  if (!len || !isupper((unsigned char)name[0])) return false;
  if (facts_text_has_ci(name, len, "thread") || facts_text_has_ci(name, len, "process")) return false;
  for (size_t i = 0; i < f->classes.len; i++)
    if (f->classes.items[i].name_len == len && !memcmp(f->classes.items[i].name, name, len)) return false;
  return true;
}


/* Whether NAME (an identifier) names function G: resolves to it, or to
 * another definition of the same name in the same scope (`def cfg_nnet`
 * on each branch of an `if`). */
static bool names_function(const facts *f, TSNode name, int g) {
  const facts_function *d = &f->functions.items[g];
  if (!facts_text_is(f, name, d->name, d->name_len)) return false;
  int h = facts_function_named(f, name);
  return h == g || (h >= 0 && f->functions.items[h].parent == d->parent && f->functions.items[h].klass == d->klass);
}


/* Whether function G of the file is only ever handed to the constructor of
 * a class of another module or library (`score_model =
 * sde.ScoreModel(cfg_nnet, ...)`, a guidance closure): the object keeps it
 * and its methods run it later, under whatever grad mode their callers
 * choose; the file neither calls it (but from such functions, DEPTH
 * bounding those) nor hands or binds it anywhere else. */
static bool stored_in_object(const facts *f, int g, int depth) {
  assert(g >= 0 && (size_t)g < f->functions.len);
  const facts_function *d = &f->functions.items[g];
  bool stored = false;
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    TSNode callee = FIELD(c->call, function);
    /* called only by such functions (`model_fn` calling `cfg_nnet`, and
     * `DPM_Solver(model_fn, ...)` keeping it): kept as well */
    if (!ts_node_is_null(callee) && NODE_IS(callee, "identifier") && names_function(f, callee, g)) {
      if (depth >= 2 || c->function < 0 || c->function == g || !stored_in_object(f, c->function, depth + 1))
        return false;
      stored = true;
      continue;
    }
    TSNode args = FIELD(c->call, arguments);
    if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) continue;
    /* most calls do not name it: their text settles that without a walk */
    uint32_t al;
    const char *at = facts_text(f, args, &al);
    if (!facts__mentions(at, al, d->name, d->name_len)) continue;
    uint32_t na = ts_node_named_child_count(args);
    for (uint32_t ai = 0; ai < na; ai++) {
      TSNode a = ts_node_named_child(args, ai);
      /* `mp.Process(target=worker_func)`: a new process or thread runs it
       * at once, with gradients on */
      bool target = false;
      if (NODE_IS(a, "keyword_argument")) {
        target = facts_node_is(f, FIELD(a, name), "target");
        a = FIELD(a, value);
      }
      if (ts_node_is_null(a) || !NODE_IS(a, "identifier") || !names_function(f, a, g)) continue;
      if (target || !builds_other_class(f, callee)) return false;
      stored = true;
    }
  }
  for (size_t i = 0; stored && i < f->assigns.len; i++) {
    TSNode r = f->assigns.items[i].right;
    if (NODE_IS(r, "identifier") && facts_text_is(f, r, d->name, d->name_len)) return false;
  }
  return stored;
}


bool facts_runs_parameter_only_no_grad(const facts *f, int g, TSNode param) {
  assert(g >= 0 && (size_t)g < f->functions.len);
  if (!f->no_grad.len) return false;
  const facts_function *fn = &f->functions.items[g];
  uint32_t len = 0;
  const char *name = ts_node_is_null(param) ? NULL : facts_text(f, param, &len);
  bool any = false;
  for (size_t i = facts_first_call_at(f, fn->body.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= fn->body.end) break;
    TSNode callee = FACT_FIELD(f, c->call, function);
    if (c->function != g || !NODE_IS(callee, "identifier")) continue;
    if (name) {
      if (!facts_text_is(f, callee, name, len)) continue;
    } else {
      uint32_t clen;
      const char *cname = facts_text(f, callee, &clen);
      if (!facts__parameter_of(f, cname, clen, g)) continue;
    }
    if (!facts_in_no_grad(f, ts_node_start_byte(c->call))) return false;
    any = true;
  }
  return any;
}


/* Whether function G of the file, handed LAMBDA as an argument, calls the
 * parameter receiving it, and only under no_grad: a timing helper's
 * `with torch.no_grad(): fn()` (`measure_latency(lambda: model(dummy),
 * ...)`) decides the grad mode of the forward in the lambda. */
static bool runs_handed_only_no_grad(const facts *f, int g, TSNode lambda) {
  TSNode a = lambda, list = ts_node_parent(lambda);
  if (NODE_IS(list, "keyword_argument")) {
    a = list;
    list = ts_node_parent(list);
  }
  uint32_t position = 0;
  for (uint32_t i = 0, n = ts_node_named_child_count(list); i < n; i++) {
    TSNode e = ts_node_named_child(list, i);
    if (ts_node_eq(e, a)) break;
    if (!NODE_IS(e, "keyword_argument")) position++;
  }
  TSNode param = facts__argument_parameter(f, g, &a, position);
  return !ts_node_is_null(param) && facts_runs_parameter_only_no_grad(f, g, param);
}


bool facts_handed_to_library(const facts *self, TSNode node) {
  /* most calls are in no lambda: the spans settle it before any walk up */
  uint32_t pos = ts_node_start_byte(node);
  bool inside = false;
  for (size_t i = 0; i < self->lambdas.len && !inside && self->lambdas.items[i].start <= pos; i++)
    inside = pos < self->lambdas.items[i].end;
  if (!inside) {
    int g = facts_function_at(self, pos);
    return g >= 0 && stored_in_object(self, g, 0);
  }
  static const char *const builtins[] = {"map", "filter", "sorted", "min", "max", "list", "tuple", "dict", "set",
                                         "sum", "any", "all", "iter", "next", "enumerate", "zip", "reduce",
                                         "print", "apply", "partial", NULL};
  TSNode lambda = NULL_NODE;
  for (TSNode up = ts_node_parent(node); !ts_node_is_null(up); up = ts_node_parent(up)) {
    if (NODE_IS(up, "lambda")) {
      lambda = up;
      break;
    }
    if (NODE_IS(up, "block") || NODE_IS(up, "module") || NODE_IS(up, "expression_statement")) return false;
  }
  if (ts_node_is_null(lambda)) return false;
  TSNode list = ts_node_parent(lambda);
  if (!ts_node_is_null(list) && NODE_IS(list, "keyword_argument")) list = ts_node_parent(list);
  if (ts_node_is_null(list) || !NODE_IS(list, "argument_list")) return false;
  TSNode call = ts_node_parent(list);
  TSNode callee = ts_node_is_null(call) ? NULL_NODE : FIELD(call, function);
  if (ts_node_is_null(callee) || !(NODE_IS(callee, "identifier") || NODE_IS(callee, "attribute"))) return false;
  uint32_t len;
  const char *name = facts_text(self, callee, &len);
  for (size_t i = 0; builtins[i] && NODE_IS(callee, "identifier"); i++)
    if (facts_text_is(self, callee, builtins[i], (uint32_t)strlen(builtins[i]))) return false;
  /* a function of the file or the project that runs a backward pass
   * (`run_training(name, lambda: torch_model(x), ...)`, which calls it
   * and backpropagates the loss of its output): training, not evaluation */
  int g = facts_function_named(self, callee);
  if (g >= 0) return self->functions.items[g].backward || runs_handed_only_no_grad(self, g, lambda);
  for (size_t i = 0; i < self->classes.len; i++)
    if (self->classes.items[i].name_len == len && !memcmp(self->classes.items[i].name, name, len)) return false;
  facts_symbol sym;
  if (self->imports && facts_project_symbol(self, callee, &sym))
    return (sym.flags & SYM_FUNCTION) && (sym.flags & (SYM_BACKWARD | SYM_RUNS_HANDED_NO_GRAD));
  return true;
}


typedef struct {
  int fn;
  uint32_t pos;
  int depth;
} grad_input_query;


static bool makes_grad_input(const facts *f, TSNode value, int fn, uint32_t pos, int depth);


/* One node of a value for makes_grad_input: `requires_grad=True`,
 * `.requires_grad_()`/`.requires_grad_(True)`, or a name bound to such a
 * value before the query's position. */
static bool grad_input_node(const facts *f, TSNode n, const void *ctx) {
  const grad_input_query *q = ctx;
  if (NODE_IS(n, "keyword_argument")) {
    TSNode k = FIELD(n, name), v = FIELD(n, value);
    return !ts_node_is_null(k) && facts_node_is(f, k, "requires_grad") && !ts_node_is_null(v) && NODE_IS(v, "true");
  }
  if (NODE_IS(n, "call")) {
    TSNode callee = FIELD(n, function), args = FIELD(n, arguments);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute") || ts_node_is_null(args) ||
        !facts_node_is(f, FIELD(callee, attribute), "requires_grad_"))
      return false;
    return ts_node_named_child_count(args) == 0 || NODE_IS(ts_node_named_child(args, 0), "true");
  }
  if (!NODE_IS(n, "identifier") || q->depth >= 2) return false;
  uint32_t nl;
  const char *name = facts_text(f, n, &nl);
  long a = facts__last_assign_before(f, name, nl, q->pos, q->fn);
  return a >= 0 && NODE_IS(f->assigns.items[a].left, "identifier") &&
         ts_node_start_byte(f->assigns.items[a].left) < q->pos &&
         makes_grad_input(f, f->assigns.items[a].right, q->fn, ts_node_start_byte(f->assigns.items[a].left),
                          q->depth + 1);
}


/* Whether VALUE (bound in function FN before POS) makes a tensor that
 * requires grad: a `requires_grad_()`/`requires_grad_(True)` call or a
 * `requires_grad=True` keyword in it, or a name bound so, up to DEPTH hops
 * (`test_points = torch.cat([x_test, y_test], dim=1)`). */
static bool makes_grad_input(const facts *f, TSNode value, int fn, uint32_t pos, int depth) {
  if (ts_node_is_null(value) || depth > 2) return false;
  grad_input_query q = {fn, pos, depth};
  return subtree_any(f, value, grad_input_node, &q);
}


/* NAMES (N of them, at most MAX) and the names bound after POS in
 * function FN from them: through tuple targets (`u, v, p = pred[:, 0:1],
 * ...`, which `assigns` leaves out) and then the names bound from those
 * (`predictions = {'u': u, ...}`). */
static size_t tuple_names_after(const facts *f, int fn, uint32_t pos, const char **names, uint32_t *lens, size_t n,
                                size_t max) {
  facts_span scope = fn >= 0 ? f->functions.items[fn].body : (facts_span){0, (uint32_t)f->length + 1};
  size_t before = n;
  for (size_t i = 0; i < f->bindings.len && n < max; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->pos <= pos || b->pos >= scope.end || b->kind != BINDING_OTHER || facts_function_at(f, b->pos) != fn)
      continue;
    TSNode id = ts_node_named_descendant_for_byte_range(f->root, b->pos, b->pos + b->name_len);
    TSNode list = ts_node_is_null(id) ? id : ts_node_parent(id);
    if (ts_node_is_null(list) || !(NODE_IS(list, "pattern_list") || NODE_IS(list, "tuple_pattern"))) continue;
    TSNode stmt = ts_node_parent(list);
    if (ts_node_is_null(stmt) || !NODE_IS(stmt, "assignment")) continue;
    TSNode right = FIELD(stmt, right);
    bool reads = false, known = false;
    for (size_t k = 0; k < n && !reads; k++) reads = node_reads(f, right, names[k], lens[k]);
    for (size_t k = 0; k < n && !known; k++) known = lens[k] == b->name_len && !memcmp(names[k], b->name, b->name_len);
    if (!reads || known) continue;
    names[n] = b->name;
    lens[n++] = b->name_len;
  }
  /* the names made from the elements: each element's own chain */
  for (size_t k = before, end = n; k < end && n < max; k++) {
    const char *more[8] = {names[k]};
    uint32_t mlens[8] = {lens[k]};
    size_t m = facts__names_after(f, fn, pos, more, mlens, 8, true);
    for (size_t j = 1; j < m && n < max; j++) {
      bool known = false;
      for (size_t i = 0; i < n && !known; i++) known = lens[i] == mlens[j] && !memcmp(names[i], more[j], mlens[j]);
      if (known) continue;
      names[n] = more[j];
      lens[n++] = mlens[j];
    }
  }
  return n;
}


/* Whether ARGS (an argument list) passes the name NAME (LEN bytes). */
static bool passes_name(const facts *f, TSNode args, const char *name, uint32_t len) {
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "keyword_argument")) a = FIELD(a, value);
    if (!ts_node_is_null(a) && NODE_IS(a, "identifier") && facts_text_is(f, a, name, len)) return true;
  }
  return false;
}


/* Whether, before CALL in its function, an attribute of its input is set to
 * require gradients (`graph.atom_frac_coord.requires_grad = requires_force`
 * in a `for graph in graphs:` before `model(graphs)`, or `x.pos.requires_grad
 * = True`): the model differentiates with respect to it (forces as the
 * gradient of the energy), so the forward needs autograd on. */
static bool input_marked_for_grad(const facts *f, TSNode call, TSNode args) {
  uint32_t pos = ts_node_start_byte(call);
  int fn = facts_function_at(f, pos);
  uint32_t start = fn >= 0 ? f->functions.items[fn].body.start : 0;
  /* in the call's own iteration: set for this batch, not before a loop
   * that optimizes it (a projector's noise maps) */
  int loop = facts_innermost_loop_at(f, pos);
  if (loop >= 0 && f->loops.items[loop].function == fn) start = f->loops.items[loop].body.start;
  static const char key[] = ".requires_grad";
  const size_t klen = sizeof key - 1;
  for (uint32_t at = start; at + klen <= pos; at++) {
    const char *hit = memchr(f->source + at, '.', pos - at);
    if (!hit) break;
    at = (uint32_t)(hit - f->source);
    if (at + klen > pos || memcmp(hit, key, klen) != 0) continue;
    TSNode word = ts_node_descendant_for_byte_range(f->root, at + 1, at + (uint32_t)klen);
    TSNode attr = ts_node_parent(word), stmt = ts_node_is_null(attr) ? NULL_NODE : ts_node_parent(attr);
    if (!NODE_IS(word, "identifier") || ts_node_is_null(stmt) || !NODE_IS(stmt, "assignment") ||
        !ts_node_eq(FIELD(stmt, left), attr) || facts_function_at(f, at) != fn)
      continue;
    TSNode right = FIELD(stmt, right);
    if (ts_node_is_null(right) || NODE_IS(right, "false")) continue;
    /* the name the attribute chain starts from: an attribute of it
     * (`graph.pos`), not the tensor itself, which the check below reads */
    TSNode root = FIELD(attr, object);
    if (ts_node_is_null(root) || !NODE_IS(root, "attribute")) continue;
    while (!ts_node_is_null(root) && NODE_IS(root, "attribute")) root = FIELD(root, object);
    if (ts_node_is_null(root) || !NODE_IS(root, "identifier")) continue;
    uint32_t len;
    const char *name = facts_text(f, root, &len);
    if (passes_name(f, args, name, len)) return true;
    /* an element of a list the call takes: `for graph in graphs:` */
    for (TSNode up = stmt; !ts_node_is_null(up) && !NODE_IS(up, "function_definition"); up = ts_node_parent(up)) {
      if (!NODE_IS(up, "for_statement")) continue;
      TSNode left = FIELD(up, left), over = FIELD(up, right);
      if (!ts_node_is_null(left) && NODE_IS(left, "identifier") && facts_text_is(f, left, name, len) &&
          !ts_node_is_null(over) && NODE_IS(over, "identifier")) {
        uint32_t olen;
        const char *o = facts_text(f, over, &olen);
        if (passes_name(f, args, o, olen)) return true;
      }
    }
  }
  return false;
}


bool facts__arg_requires_grad(const facts *self, TSNode call) {
  if (!self->mentions_requires_grad) return false;
  TSNode args = FIELD(call, arguments), a;
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return false;
  uint32_t pos = ts_node_start_byte(call);
  int fn = facts_function_at(self, pos);
  bool found = false;
  for (children it = children_of(args); !found && children_next(&it, &a);) {
    if (NODE_IS(a, "keyword_argument")) a = FIELD(a, value);
    if (ts_node_is_null(a) || !NODE_IS(a, "identifier")) continue;
    uint32_t len;
    const char *name = facts_text(self, a, &len);
    long k = facts__last_local_assign(self, name, len, pos, fn);
    found = k >= 0 && NODE_IS(self->assigns.items[k].left, "identifier") &&
            makes_grad_input(self, self->assigns.items[k].right, fn, ts_node_start_byte(self->assigns.items[k].left), 0);
    if (found) children_done(&it); /* the walk holds a cursor */
  }
  return found;
}


bool facts_input_requires_grad(const facts *self, TSNode call) {
  TSNode args = FIELD(call, arguments);
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return false;
  if (input_marked_for_grad(self, call, args)) return true;
  /* the name the call's result is bound to (`pred = model(points)`) */
  TSNode stmt = ts_node_parent(call);
  while (!ts_node_is_null(stmt) && (NODE_IS(stmt, "subscript") || NODE_IS(stmt, "attribute")))
    stmt = ts_node_parent(stmt);
  if (ts_node_is_null(stmt) || !NODE_IS(stmt, "assignment")) return false;
  TSNode out = FIELD(stmt, left);
  if (ts_node_is_null(out) || !NODE_IS(out, "identifier")) return false;
  uint32_t olen, pos = ts_node_start_byte(call), n = ts_node_named_child_count(args);
  const char *oname = facts_text(self, out, &olen);
  int fn = facts_function_at(self, pos);
  /* the result and the names made from it after (`u, v, p = pred[:, 0:1],
   * ...`; `predictions = {'u': u, ...}`) */
  const char *onames[8] = {oname};
  uint32_t olens[8] = {olen};
  size_t nout = facts__names_after(self, fn, pos, onames, olens, 8, true);
  nout = tuple_names_after(self, fn, pos, onames, olens, nout, 8);
  facts_span scope = fn >= 0 ? self->functions.items[fn].body : (facts_span){0, (uint32_t)self->length + 1};
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "keyword_argument")) a = FIELD(a, value);
    if (ts_node_is_null(a) || !NODE_IS(a, "identifier")) continue;
    uint32_t len;
    const char *name = facts_text(self, a, &len);
    long k = facts__last_assign_before(self, name, len, pos, fn);
    if (k < 0 || !NODE_IS(self->assigns.items[k].left, "identifier") ||
        !makes_grad_input(self, self->assigns.items[k].right, fn, ts_node_start_byte(self->assigns.items[k].left), 0))
      continue;
    /* ... and a later call takes both the input and the output: the
     * derivative of one with respect to the other (`residual(points,
     * pred)`), not an export's example input (`torch.onnx.export(model,
     * x, ...)`) */
    for (size_t c = facts_first_call_at(self, ts_node_end_byte(call)); c < self->calls.len; c++) {
      const facts_call *later = &self->calls.items[c];
      if (ts_node_start_byte(later->call) >= scope.end) break;
      if (later->function != fn) continue;
      TSNode largs = FIELD(later->call, arguments);
      if (ts_node_is_null(largs) || !node_reads(self, largs, name, len)) continue;
      for (size_t o = 0; o < nout; o++)
        if (node_reads(self, largs, onames[o], olens[o])) return true;
    }
  }
  return false;
}


/* ---- untrained models: a smoke test is no evaluation ---- */

/* Whether the words of NAME (split at `_` and at camelCase humps, in lower
 * case) include one of WORDS. */
static bool has_word(const char *s, uint32_t len, const char *const *words) {
  uint32_t i = 0;
  while (i < len) {
    while (i < len && (s[i] == '_' || !isalnum((unsigned char)s[i]))) i++;
    uint32_t start = i++;
    while (i < len && s[i] != '_' && isalnum((unsigned char)s[i]) &&
           !(isupper((unsigned char)s[i]) && islower((unsigned char)s[i - 1])))
      i++;
    if (start >= len) break;
    for (size_t k = 0; words[k]; k++)
      if (strlen(words[k]) == i - start && !strncasecmp(words[k], s + start, i - start)) return true;
  }
  return false;
}


/* Whether the name S (LEN bytes) is a parameter counter's
 * (`get_number_of_parameters`, `count_params`): it walks the weights and
 * neither trains nor loads them. */
static bool counts_parameters(const char *s, uint32_t len) {
  return facts_text_has_ci(s, len, "param") && (facts_text_has_ci(s, len, "count") || facts_text_has_ci(s, len, "num"));
}


/* Whether a call of CALLEE (its last name) may give a model its weights or
 * train it: `load_state_dict`, `torch.load`, `from_pretrained`,
 * `restore`, `load_checkpoint`; `.backward()`, `optimizer.step()`,
 * `zero_grad`, `fit`, `.train()`, `.parameters()` (handed to an optimizer). */
static bool loads_or_trains(const facts *f, TSNode callee) {
  static const char *const words[] = {"load", "restore", "resume", "pretrained", "checkpoint", "ckpt", "weights",
                                      "backward", "step", "fit", "train", "training", "optimize", "learn",
                                      "parameters", "optimizer", NULL};
  TSNode whole = callee;
  if (NODE_IS(callee, "attribute")) callee = FIELD(callee, attribute);
  if (ts_node_is_null(callee)) return true;
  uint32_t len;
  const char *t = facts_text(f, callee, &len);
  if (!has_word(t, len, words) && !facts_text_has_ci(t, len, "state_dict") && !facts_text_has_ci(t, len, "zero_grad"))
    return false;
  /* `torch.save(net.state_dict(), path)` reads the weights out; loading
   * them in is `load_state_dict` */
  if (len == 10 && !memcmp(t, "state_dict", 10)) return false;
  /* `load_graph_data(...)`, `load_dataset(...)`: data read for the model,
   * not weights given to it */
  static const char *const data_words[] = {"data", "dataset", "datasets", NULL};
  static const char *const weight_words[] = {"pretrained", "checkpoint", "ckpt", "weights", "model", "state", NULL};
  if (has_word(t, len, data_words) && !has_word(t, len, weight_words)) return false;
  if (counts_parameters(t, len)) return false;
  /* `pickle.load(f)`, `np.load(path)` read data; weights reach a model only
   * through a call that names it (`load_state_dict`). A configuration read
   * (`json.load`, `yaml.safe_load`) still counts: it comes with a model
   * whose constructor loads its checkpoint (`Vocoder(args.vocoder, cfg)`) */
  static const char *const data[] = {"pickle.", "numpy.", "joblib.", "pandas.", "h5py.", "csv.", NULL};
  buf q = {0};
  bool reads_data = false;
  if (NODE_IS(whole, "attribute") && facts_qualname(f, whole, &q))
    for (size_t i = 0; data[i] && !reads_data; i++) reads_data = !strncmp(buf_str(&q), data[i], strlen(data[i]));
  /* `reducer.fit_transform(x)` on an object a classical library made
   * (`reducer = MDS(n_components=2)`): it fits that object, not a model */
  TSNode obj = NODE_IS(whole, "attribute") ? FIELD(whole, object) : NULL_NODE;
  if (!reads_data && !ts_node_is_null(obj) && NODE_IS(obj, "identifier")) {
    static const char *const classical[] = {"sklearn.", "umap.", "scipy.", "xgboost.", "lightgbm.", NULL};
    uint32_t ol, at = ts_node_start_byte(whole);
    const char *o = facts_text(f, obj, &ol);
    long a = facts__last_assign_before(f, o, ol, at, facts_function_at(f, at));
    TSNode r = a >= 0 ? f->assigns.items[a].right : NULL_NODE;
    buf_clear(&q);
    if (!ts_node_is_null(r) && NODE_IS(r, "call") && facts_qualname(f, FIELD(r, function), &q))
      for (size_t i = 0; classical[i] && !reads_data; i++)
        reads_data = !strncmp(buf_str(&q), classical[i], strlen(classical[i]));
  }
  buf_free(&q);
  return !reads_data;
}


/* Whether the argument list ARGS hands on the model NAME (LEN bytes): as an
 * argument, a keyword's value, or an element of a list or tuple argument. */
static bool hands_on(const facts *f, TSNode args, const char *name, uint32_t len) {
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "keyword_argument")) a = FIELD(a, value);
    else if (NODE_IS(a, "list_splat") || NODE_IS(a, "dictionary_splat")) a = ts_node_named_child(a, 0);
    if (ts_node_is_null(a)) continue;
    if (NODE_IS(a, "list") || NODE_IS(a, "tuple")) {
      if (hands_on(f, a, name, len)) return true;
      continue;
    }
    if (NODE_IS(a, "identifier") && facts_text_is(f, a, name, len)) return true;
  }
  return false;
}


/* Whether a call of CALLEE may receive a model without training it or
 * giving it weights: `print(model)`, `len(model)`, `isinstance(model, T)`,
 * `torch.compile(model)`. */
static bool harmless_receiver(const facts *f, TSNode callee) {
  /* and the counters of FLOPs and parameters, which run or walk the model
   * and load nothing (fvcore's `FlopCountAnalysis(model, x)`, ptflops,
   * torchinfo's `summary(model, size)`); and the wrappers that spread it
   * over devices (`nn.DataParallel(model)`), which train nothing */
  static const char *const names[] = {"print", "len", "str", "repr", "type", "isinstance", "hasattr", "getattr",
                                      "id", "format", "info", "debug", "compile", "DataParallel",
                                      "DistributedDataParallel", "FlopCountAnalysis",
                                      "flop_count_table", "parameter_count_table", "flop_count",
                                      "get_model_complexity_info", "summary", NULL};
  /* thop's `profile(model, inputs=(x,))` and the other counters' own
   * functions, known by the library they come from */
  static const char *const counters[] = {"thop.", "ptflops.", "fvcore.", "torchinfo.", "torchsummary.", "torchstat.",
                                         /* writing the weights or an export out gives the model none */
                                         "torch.save", "torch.onnx.export", "torch.jit.", NULL};
  TSNode last = NODE_IS(callee, "attribute") ? FIELD(callee, attribute) : callee;
  if (ts_node_is_null(last)) return false;
  for (size_t i = 0; names[i]; i++)
    if (facts_node_is(f, last, names[i])) return true;
  uint32_t ll;
  const char *lt = facts_text(f, last, &ll);
  if (counts_parameters(lt, ll)) return true;
  /* `profile(model, inputs=(x,))`: thop's signature, even where the script
   * forgot its import */
  if (NODE_IS(callee, "identifier") && facts_node_is(f, callee, "profile")) {
    TSNode call = ts_node_parent(callee), args = ts_node_is_null(call) ? call : FIELD(call, arguments), a;
    if (!ts_node_is_null(args) && NODE_IS(args, "argument_list"))
      for (children k = children_of(args); children_next(&k, &a);)
        if (NODE_IS(a, "keyword_argument") && facts_node_is(f, FIELD(a, name), "inputs")) {
          children_done(&k);
          return true;
        }
  }
  buf q = {0};
  bool counter = false;
  if (facts_qualname(f, callee, &q))
    for (size_t i = 0; counters[i] && !counter; i++) counter = !strncmp(buf_str(&q), counters[i], strlen(counters[i]));
  buf_free(&q);
  return counter;
}


/* Whether call C is in scope FN: inside it (nested functions included); at
 * module level (-1), outside the methods of classes (a top-level function
 * may read the global model). */
static bool in_scope(const facts *f, const facts_call *c, int fn) {
  int g = c->function;
  if (fn >= 0) {
    for (; g >= 0; g = f->functions.items[g].parent)
      if (g == fn) return true;
    return false;
  }
  if (g < 0) return true;
  while (f->functions.items[g].parent >= 0) g = f->functions.items[g].parent;
  return f->functions.items[g].klass < 0;
}


/* Whether no call in scope FN loads weights, trains, or hands the model NAME
 * (LEN bytes; NULL: none) to a call that might. */
/* The position of the plain argument NAME (LEN bytes) in ARGS, or -1 (a
 * keyword, a splat, or not there). */
static int positional_index(const facts *f, TSNode args, const char *name, uint32_t len) {
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "keyword_argument") || NODE_IS(a, "list_splat") || NODE_IS(a, "dictionary_splat")) return -1;
    if (NODE_IS(a, "identifier") && facts_text_is(f, a, name, len)) return (int)i;
  }
  return -1;
}


static bool leaves_untrained(const facts *f, int fn, const char *name, uint32_t len, int depth, uint32_t from);


/* Whether handing the model NAME (LEN bytes) to a call of G, a plain
 * function of the file, as its argument at INDEX, leaves it untrained:
 * G's body, under its parameter's name, neither loads weights nor trains
 * (`def count_parameters(model): return sum(p.numel() ...)`). */
static bool helper_leaves_untrained(const facts *f, int g, int index, int depth) {
  const facts_function *h = &f->functions.items[g];
  if (h->klass >= 0 || index < 0) return false;
  TSNode params = FIELD(h->node, parameters);
  if (ts_node_is_null(params) || (uint32_t)index >= ts_node_named_child_count(params)) return false;
  TSNode p = ts_node_named_child(params, (uint32_t)index);
  if (NODE_IS(p, "default_parameter") || NODE_IS(p, "typed_parameter") || NODE_IS(p, "typed_default_parameter"))
    p = NODE_IS(p, "typed_parameter") ? ts_node_named_child(p, 0) : FIELD(p, name);
  if (ts_node_is_null(p) || !NODE_IS(p, "identifier")) return false;
  uint32_t plen;
  const char *pname = facts_text(f, p, &plen);
  return leaves_untrained(f, g, pname, plen, depth + 1, 0);
}


static bool scope_leaves_untrained(const facts *f, int fn, const char *name, uint32_t len) {
  return leaves_untrained(f, fn, name, len, 0, 0);
}


/* Whether top-level function G of the file can mean the module's NAME
 * (LEN bytes) where its text names it: not when NAME is its own, a
 * parameter (`def repvgg_model_convert(model: torch.nn.Module)`) or a
 * name it assigns without declaring it `global`. */
static bool names_global(const facts *f, int g, const char *name, uint32_t len) {
  const facts_function *d = &f->functions.items[g];
  if (!node_reads(f, d->node, name, len)) return false;
  TSNode params = FIELD(d->node, parameters), p;
  bool own = false;
  if (ts_node_is_null(params)) return true;
  for (children k = children_of(params); !own && children_next(&k, &p);) {
    TSNode n = NODE_IS(p, "identifier") ? p : FIELD(p, name);
    if (ts_node_is_null(n) && ts_node_named_child_count(p)) n = ts_node_named_child(p, 0);
    own = !ts_node_is_null(n) && NODE_IS(n, "identifier") && facts_text_is(f, n, name, len);
    if (own) children_done(&k);
  }
  if (own) return false;
  uint32_t tl;
  const char *t = facts_text(f, d->node, &tl);
  if (facts_text_has_ci(t, tl, "global ")) return true;
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left;
    uint32_t at = ts_node_start_byte(left);
    if (at < d->body.start || at >= d->body.end || !NODE_IS(left, "identifier")) continue;
    if (facts_text_is(f, left, name, len) && facts_function_at(f, at) == g) return false;
  }
  return true;
}


/* Whether ARGS, those of a `.train(...)` call, only choose a mode: none,
 * or one truth value (`False`, `mode=is_training`, `phase == "train"`),
 * and not the data a fitting method takes (`train(train_loader, epochs)`). */
static bool switches_mode(const facts *f, TSNode args) {
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return false;
  uint32_t n = ts_node_named_child_count(args);
  if (n == 0) return true;
  if (n > 1) return false;
  TSNode a = ts_node_named_child(args, 0);
  if (NODE_IS(a, "keyword_argument")) return facts_node_is(f, FIELD(a, name), "mode");
  if (!NODE_IS(a, "identifier")) return !NODE_IS(a, "attribute") && !NODE_IS(a, "call");
  uint32_t len;
  const char *t = facts_text(f, a, &len);
  static const char *const data[] = {"load", "data", "batch", "set", "iter", "sampler", NULL};
  for (size_t i = 0; data[i]; i++)
    if (facts_text_has_ci(t, len, data[i])) return false;
  return true;
}


/* FROM: where the model is first bound in function FN; the calls of FN's
 * own body before it cannot train it (a unit test backpropagating through
 * another layer first). */
static bool leaves_untrained(const facts *f, int fn, const char *name, uint32_t len, int depth, uint32_t from) {
  facts_span span = fn >= 0 ? f->functions.items[fn].whole : (facts_span){0, (uint32_t)f->length + 1};
  /* per function of the file: 0 not asked, 1 its text names NAME, 2 not */
  unsigned char *names = name ? oom_xcalloc(f->functions.len + 1, 1) : NULL;
  bool untrained = true;
  for (size_t i = facts_first_call_at(f, span.start); i < f->calls.len && untrained; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= span.end) break;
    if (!in_scope(f, c, fn) || (fn >= 0 && c->function == fn && ts_node_start_byte(c->call) < from)) continue;
    /* at module level, a function of the file speaks for a global model
     * only when it names it (`def load(): model.load_state_dict(...)`);
     * a name bound in the `__main__` block is no other function's */
    if (fn < 0 && names && c->function >= 0) {
      int g = c->function;
      while (f->functions.items[g].parent >= 0) g = f->functions.items[g].parent;
      if (!names[g]) names[g] = names_global(f, g, name, len) ? 1 : 2;
      if (names[g] == 2) continue;
    }
    TSNode callee = FIELD(c->call, function), args = FIELD(c->call, arguments);
    /* `net.train()` on the model itself switches a mode; it trains nothing
     * (`net.train(False)`, `net.train(mode)` either); `distilled.train(
     * train_loader, num_epochs=n)`, a project model's own fitting method,
     * does */
    if (name && !ts_node_is_null(callee) && NODE_IS(callee, "attribute") &&
        facts_node_is(f, FIELD(callee, attribute), "train") && NODE_IS(FIELD(callee, object), "identifier") &&
        facts_text_is(f, FIELD(callee, object), name, len) && switches_mode(f, args))
      continue;
    /* `for p in model.parameters(): nn.init.xavier_uniform_(p)` walks the
     * weights (an initialization), and so does a comprehension over them
     * (`sum(p.numel() for p in model.parameters())`, a parameter count);
     * training hands them to an optimizer, and a manual update would need a
     * backward, which the scope would show */
    TSNode up = ts_node_parent(c->call);
    if (!ts_node_is_null(callee) && NODE_IS(callee, "attribute") && !ts_node_is_null(up) &&
        (NODE_IS(up, "for_statement") || NODE_IS(up, "for_in_clause")) && ts_node_eq(FIELD(up, right), c->call) &&
        (facts_node_is(f, FIELD(callee, attribute), "parameters") ||
         facts_node_is(f, FIELD(callee, attribute), "named_parameters")))
      continue;
    if (ts_node_is_null(callee)) untrained = false;
    else if (name && !ts_node_is_null(args) && NODE_IS(args, "argument_list") && hands_on(f, args, name, len) &&
             !harmless_receiver(f, callee)) {
      /* a helper of the file is judged by what it does, not by its name
       * (`count_parameters(model)`) */
      int g = NODE_IS(callee, "identifier") && depth < 3 ? facts_function_named(f, callee) : -1;
      if (g < 0 || g == fn || !helper_leaves_untrained(f, g, positional_index(f, args, name, len), depth))
        untrained = false;
    } else if (loads_or_trains(f, callee)) {
      /* a helper of the file not handed the model reaches it only by its
       * global name (`count_parameters(other_block)`) */
      int g = name && NODE_IS(callee, "identifier") && depth < 3 ? facts_function_named(f, callee) : -1;
      if (g >= 0 && !names[g]) names[g] = names_global(f, g, name, len) ? 1 : 2;
      if (g < 0 || g == fn || (names[g] == 1 && !leaves_untrained(f, g, name, len, depth + 1, 0))) untrained = false;
    }
  }
  free(names);
  return untrained;
}


static bool fresh_model_binding(const facts *f, TSNode value, const char *name, uint32_t len, int depth);


/* Whether the argument list ARGS of a model's constructor may give it
 * weights: a keyword named like `pretrained=`, `weights=`, `checkpoint=`,
 * `model_path=` that is not `False` or `None`, or a string naming a weights
 * file (`"resnet.pth"`). */
/* Whether the argument list ARGS holds a positional argument. */
static bool positional_arguments(TSNode args) {
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (!NODE_IS(a, "keyword_argument") && !NODE_IS(a, "comment")) return true;
  }
  return false;
}


static bool passes_weights(const facts *f, TSNode args) {
  static const char *const words[] = {"pretrained", "pretrain", "weights", "weight", "resume",
                                      "restore", "load", "path", "file", "url", NULL};
  /* `checkpoint=`, `ckpt=`, but not gradient checkpointing's switches
   * (`use_checkpoint=True`, `grad_checkpoint=`) */
  static const char *const checkpoint[] = {"checkpoint", "ckpt", NULL};
  static const char *const switches[] = {"use", "grad", "gradient", "activation", "activations", NULL};
  static const char *const suffixes[] = {".pt", ".pth", ".ckpt", ".bin", ".safetensors", ".pkl", ".h5", NULL};
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "keyword_argument")) {
      TSNode key = FIELD(a, name), value = FIELD(a, value);
      uint32_t klen;
      const char *k = ts_node_is_null(key) ? "" : facts_text(f, key, &klen);
      if (ts_node_is_null(key) ||
          !(has_word(k, klen, words) || (has_word(k, klen, checkpoint) && !has_word(k, klen, switches))))
        continue;
      if (ts_node_is_null(value) || (!NODE_IS(value, "false") && !NODE_IS(value, "none"))) return true;
    } else if (NODE_IS(a, "string")) {
      uint32_t slen;
      const char *s = facts_text(f, a, &slen);
      while (slen > 0 && (s[slen - 1] == '"' || s[slen - 1] == '\'')) slen--;
      for (size_t k = 0; suffixes[k]; k++) {
        size_t sl = strlen(suffixes[k]);
        if (slen >= sl && !strncasecmp(s + slen - sl, suffixes[k], sl)) return true;
      }
    }
  }
  return false;
}


/* Whether function G of the file builds a fresh model on every return and
 * neither loads weights nor trains (`def ResNet18(): return ResNet(...)`). */
static bool builds_fresh_model(const facts *f, int g, int depth) {
  if (depth > 3 || f->functions.items[g].klass >= 0 || !scope_leaves_untrained(f, g, NULL, 0)) return false;
  facts_span body = f->functions.items[g].body;
  bool any = false;
  for (size_t i = 0; i < f->returns.len; i++) {
    const facts_call *r = &f->returns.items[i];
    if (ts_node_start_byte(r->call) < body.start) continue;
    if (ts_node_start_byte(r->call) >= body.end) break;
    if (r->function != g) continue;
    TSNode value = ts_node_named_child(r->call, 0);
    if (ts_node_is_null(value)) return false;
    if (NODE_IS(value, "identifier")) {
      /* `model = Net(...); return model` */
      uint32_t vlen;
      const char *v = facts_text(f, value, &vlen);
      size_t first, end;
      facts_bindings_named(f, v, vlen, &first, &end);
      bool bound = false;
      for (size_t k = first; k < end; k++) {
        const facts_binding *b = &f->bindings.items[k];
        if (b->pos < f->functions.items[g].whole.start || b->pos >= body.end) continue;
        long a = facts__last_assign_before(f, v, vlen, b->pos + 1, g);
        if (a < 0 || ts_node_start_byte(f->assigns.items[a].left) != b->pos ||
            !fresh_model_binding(f, f->assigns.items[a].right, v, vlen, depth + 1))
          return false;
        bound = true;
      }
      if (!bound) return false;
    } else if (!fresh_model_binding(f, value, NULL, 0, depth + 1)) {
      return false;
    }
    any = true;
  }
  return any;
}


/* Whether the body of function G only raises NotImplementedError (after a
 * docstring), or G is decorated `@abstractmethod`: a method its subclasses
 * fill in. */
bool facts__abstract_method(const facts *f, int g) {
  const facts_function *fn = &f->functions.items[g];
  if (!ts_node_is_null(fn->decorated)) {
    /* the decorators' text, before the `def` */
    uint32_t from = ts_node_start_byte(fn->decorated), to = ts_node_start_byte(fn->node);
    for (uint32_t i = from; i + 14 <= to; i++)
      if (f->source[i] == 'a' && !memcmp(f->source + i, "abstractmethod", 14)) return true;
  }
  /* a docstring and a raise: a short body, whose text names the error */
  if (fn->body.end - fn->body.start > 4096) return false;
  bool named = false;
  uint32_t end = fn->body.end < f->length ? fn->body.end : (uint32_t)f->length;
  for (const char *p = f->source + fn->body.start, *e = f->source + end;
       !named && p + 19 <= e && (p = memchr(p, 'N', (size_t)(e - p - 18))); p++)
    named = !memcmp(p, "NotImplementedError", 19);
  if (!named) return false;
  TSNode body = FIELD(fn->node, body);
  if (ts_node_is_null(body)) return false;
  bool raises = false, other = false;
  TSNode c;
  for (children k = children_of(body); !other && children_next(&k, &c);) {
    if (NODE_IS(c, "comment")) continue;
    if (NODE_IS(c, "expression_statement") && ts_node_named_child_count(c) == 1 &&
        NODE_IS(ts_node_named_child(c, 0), "string"))
      continue;
    uint32_t len;
    const char *t = facts_text(f, c, &len);
    other = !NODE_IS(c, "raise_statement") || raises || !facts_text_has_ci(t, len, "NotImplementedError");
    raises = true;
    if (other) children_done(&k);
  }
  return raises && !other;
}


/* Whether CALLEE is `self.<factory>` in a unit-test class (its name starts
 * or ends with `Test`: gpytorch's `BaseModelTestCase`) whose method of that
 * name is abstract: each test builds the model it checks through a factory
 * the concrete test classes fill in (`model = self.create_model(data,
 * labels, likelihood)`), a fresh model on a few random points. */
static bool test_case_factory(const facts *f, TSNode callee) {
  TSNode obj = FIELD(callee, object), attr = FIELD(callee, attribute);
  if (ts_node_is_null(obj) || ts_node_is_null(attr) || !facts_node_is(f, obj, "self")) return false;
  int fn = facts_function_at(f, ts_node_start_byte(callee));
  int k = fn >= 0 ? f->functions.items[fn].klass : -1;
  if (k < 0) return false;
  const facts_class *c = &f->classes.items[k];
  bool test_class = (c->name_len >= 4 && !memcmp(c->name, "Test", 4)) ||
                    (c->name_len >= 4 && !memcmp(c->name + c->name_len - 4, "Test", 4)) ||
                    (c->name_len >= 8 && !memcmp(c->name + c->name_len - 8, "TestCase", 8));
  if (!test_class) return false;
  uint32_t len;
  const char *m = facts_text(f, attr, &len);
  for (size_t g = 0; g < f->functions.len; g++) {
    const facts_function *h = &f->functions.items[g];
    if (h->klass == k && h->name_len == len && !memcmp(h->name, m, len)) return facts__abstract_method(f, (int)g);
  }
  return false;
}


/* Whether VALUE, bound to the model NAME (LEN bytes; NULL: none), makes a
 * fresh, untrained model or keeps NAME's: a call of a module class of the
 * file, of a model class of another module of the project, of a `torch.nn`
 * layer, or of a function of the file that returns one of those
 * (builds_fresh_model); or NAME itself; through `.to()/.cuda()/.eval()`-like
 * chains. Not a factory that may download weights (torchvision's, timm's,
 * `from_pretrained`). */
static bool fresh_model_binding(const facts *f, TSNode value, const char *name, uint32_t len, int depth) {
  static const char *const same[] = {"to", "cuda", "cpu", "eval", "half", "float", "double", "bfloat16", NULL};
  for (int guard = 0; guard < 8 && !ts_node_is_null(value); guard++) {
    if (NODE_IS(value, "parenthesized_expression")) {
      value = ts_node_named_child(value, 0);
      continue;
    }
    if (NODE_IS(value, "identifier")) return name && facts_text_is(f, value, name, len);
    if (!NODE_IS(value, "call")) return false;
    TSNode callee = FIELD(value, function);
    if (ts_node_is_null(callee)) return false;
    if (NODE_IS(callee, "attribute")) {
      TSNode attr = FIELD(callee, attribute);
      bool chained = false;
      for (size_t i = 0; same[i] && !ts_node_is_null(attr); i++)
        if (facts_node_is(f, attr, same[i])) chained = true;
      if (chained) {
        value = FIELD(callee, object);
        continue;
      }
    }
    TSNode args = FIELD(value, arguments);
    if (NODE_IS(callee, "attribute") && test_case_factory(f, callee)) return true;
    /* `eval(model_name)(backbone, num_classes)`: a model class picked by
     * its name, built (weights handed to it are checked below) */
    bool by_name = false;
    if (NODE_IS(callee, "call")) {
      TSNode inner = FIELD(callee, function);
      by_name = !ts_node_is_null(inner) && NODE_IS(inner, "identifier") && facts_node_is(f, inner, "eval");
      if (!by_name) return false;
    }
    /* `net = torch.compile(net)`: the same model, compiled; and
     * `net = nn.DataParallel(net)`, the same model spread over devices */
    buf cq = {0};
    bool compiled = facts_qualname(f, callee, &cq) &&
                    (!strcmp(buf_str(&cq), "torch.compile") || !strcmp(buf_str(&cq), "torch.jit.script") ||
                     !strcmp(buf_str(&cq), "torch.nn.DataParallel") ||
                     !strcmp(buf_str(&cq), "torch.nn.parallel.DataParallel") ||
                     !strcmp(buf_str(&cq), "torch.nn.parallel.DistributedDataParallel"));
    buf_free(&cq);
    if (compiled && !ts_node_is_null(args) && NODE_IS(args, "argument_list") && ts_node_named_child_count(args)) {
      value = ts_node_named_child(args, 0);
      continue;
    }
    if (!ts_node_is_null(args) && NODE_IS(args, "argument_list") && passes_weights(f, args)) return false;
    if (by_name) return true;
    uint32_t clen;
    const char *c = facts_text(f, callee, &clen);
    if (NODE_IS(callee, "identifier")) {
      for (size_t i = 0; i < f->classes.len; i++) {
        const facts_class *k = &f->classes.items[i];
        if (k->name_len == clen && !memcmp(k->name, c, clen)) return k->is_module || (k->has_forward && !k->plain);
      }
      int g = facts_function_named(f, callee);
      if (g >= 0) return builds_fresh_model(f, g, depth);
    }
    facts_symbol sym;
    if (f->imports && facts_project_symbol(f, callee, &sym))
      return ((sym.flags & SYM_CLASS) && (sym.flags & SYM_MODEL)) ||
             ((sym.flags & SYM_FUNCTION) && (sym.flags & SYM_FRESH_MODEL));
    buf q = {0};
    bool layer = false;
    if (facts_qualname(f, callee, &q)) {
      const char *s = buf_str(&q);
      layer = !strncmp(s, "torch.nn.", 9) && isupper((unsigned char)s[9]) && !strchr(s + 9, '.') &&
              strncmp(s + 9, "Parameter", 9) != 0 && strstr(s + 9, "DataParallel") == NULL;
      /* a torchvision classification model built with no weights
       * (`torchvision.models.resnet18()`: `weights=None` by default, and
       * the old positional `pretrained` absent); not its detection and
       * segmentation models, whose backbones load weights by default */
      if (!layer && !strncmp(s, "torchvision.models.", 19) && islower((unsigned char)s[19]) && !strchr(s + 19, '.'))
        layer = ts_node_is_null(args) || !NODE_IS(args, "argument_list") || !positional_arguments(args);
      /* `timm.create_model(name)`: no weights unless `pretrained=True`
       * or a checkpoint is handed (passes_weights above) */
      if (!layer) layer = !strcmp(s, "timm.create_model") || !strcmp(s, "timm.models.create_model");
    }
    buf_free(&q);
    return layer;
  }
  return false;
}


/* Whether the binding at POS, in function FN, is the target of a `for`
 * loop over a list or tuple of freshly built models: written out in the
 * loop's header, or bound to a name just before (`models = [Enc(32),
 * Enc(32, shared=True)]`). */
static bool loop_over_fresh_models(const facts *f, uint32_t pos, int fn) {
  TSNode target = ts_node_descendant_for_byte_range(f->root, pos, pos + 1);
  TSNode loop = ts_node_is_null(target) ? target : ts_node_parent(target);
  if (ts_node_is_null(loop) || !NODE_IS(loop, "for_statement") || !ts_node_eq(FIELD(loop, left), target)) return false;
  TSNode over = FIELD(loop, right);
  if (!ts_node_is_null(over) && NODE_IS(over, "identifier")) {
    uint32_t len;
    const char *name = facts_text(f, over, &len);
    long a = facts__last_assign_before(f, name, len, ts_node_start_byte(over), fn);
    over = a >= 0 && NODE_IS(f->assigns.items[a].left, "identifier") ? f->assigns.items[a].right : NULL_NODE;
  }
  if (ts_node_is_null(over) || !(NODE_IS(over, "list") || NODE_IS(over, "tuple"))) return false;
  uint32_t n = ts_node_named_child_count(over);
  for (uint32_t i = 0; i < n; i++) {
    TSNode e = ts_node_named_child(over, i);
    if (!NODE_IS(e, "call") || !fresh_model_binding(f, e, "", 0, 0)) return false;
  }
  return n > 0;
}


/* Whether POS lies in the module's `if __name__ == "__main__":` block. */
static bool in_main_block(const facts *f, uint32_t pos) {
  TSNode n = ts_node_descendant_for_byte_range(f->root, pos, pos + 1);
  for (; !ts_node_is_null(n); n = ts_node_parent(n)) {
    TSNode up = ts_node_parent(n);
    if (ts_node_is_null(up) || !ts_node_eq(up, f->root)) continue;
    if (!NODE_IS(n, "if_statement")) return false;
    uint32_t len;
    const char *t = facts_text(f, FIELD(n, condition), &len);
    return facts_text_has_ci(t, len, "__name__") && facts_text_has_ci(t, len, "__main__");
  }
  return false;
}


/* Whether function FN, binding nothing named NAME (LEN bytes) itself,
 * reads the script's model by its global name (`def speed_test(): net(x)`
 * with `net = Net().cuda()` in the `__main__` block), and every binding of
 * that global, all in that block (no other module can import it, train it
 * or load it), makes a fresh model that nothing of the module trains or
 * loads: the function runs after the block's bindings, wherever they lie. */
static bool untrained_global(const facts *f, int fn, const char *name, uint32_t len, size_t first, size_t end) {
  assert(fn >= 0 && (size_t)fn < f->functions.len);
  /* the name bound in FN, an enclosing function or a header: not the
   * global (asked first: the walk up from each binding costs more) */
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    int bf = facts_function_at(f, b->pos);
    for (int g = fn; g >= 0; g = f->functions.items[g].parent)
      if (bf == g || (b->pos >= f->functions.items[g].whole.start && b->pos < f->functions.items[g].body.start))
        return false;
  }
  bool built = false;
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (facts_function_at(f, b->pos) >= 0) continue;
    if (b->kind == BINDING_IMPORT || !in_main_block(f, b->pos)) return false;
    long a = facts__last_assign_before(f, name, len, b->pos + 1, -1);
    if (a < 0 || ts_node_start_byte(f->assigns.items[a].left) != b->pos ||
        !fresh_model_binding(f, f->assigns.items[a].right, name, len, 0))
      return false;
    if (!NODE_IS(f->assigns.items[a].right, "identifier")) built = true;
  }
  /* another function's binding is its local, unless it declares the name
   * `global` (asked last: it reads the function's text) */
  for (size_t i = first; i < end && built; i++) {
    int bf = facts_function_at(f, f->bindings.items[i].pos);
    if (bf < 0) continue;
    while (f->functions.items[bf].parent >= 0) bf = f->functions.items[bf].parent;
    uint32_t tl;
    const char *t = facts_text(f, f->functions.items[bf].node, &tl);
    if (facts_text_has_ci(t, tl, "global ")) return false;
  }
  return built && scope_leaves_untrained(f, -1, name, len);
}


bool facts_builds_fresh_model(const facts *self, int fn) {
  assert(fn >= 0 && (size_t)fn < self->functions.len);
  return builds_fresh_model(self, fn, 0);
}


/* Whether VALUE is a call given only literals (`TripleEncoder()`,
 * `LSTMEncoder(pooling=False)`): nothing made before it goes into it, as a
 * loaded model goes into `Occlusion(model)`. */
static bool literal_arguments(TSNode value) {
  TSNode args = NODE_IS(value, "call") ? FIELD(value, arguments) : NULL_NODE, a;
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return false;
  bool plain = true;
  for (children k = children_of(args); plain && children_next(&k, &a);) {
    if (NODE_IS(a, "keyword_argument")) a = FIELD(a, value);
    plain = !ts_node_is_null(a) && (NODE_IS(a, "integer") || NODE_IS(a, "float") || NODE_IS(a, "string") ||
                                    NODE_IS(a, "true") || NODE_IS(a, "false") || NODE_IS(a, "none"));
    if (!plain) children_done(&k);
  }
  return plain;
}


static bool untrained_model(const facts *self, TSNode callee, int depth);


/* Whether the module-level name ARG was last bound, before it is read
 * there, by a call of a class of this file (`model = CKCNN(...)`): a class
 * whose constructor the file shows, so that no pretrained weights it loads
 * in there escape the untrained test (a project's `ResNet()` wrapping
 * `resnet152(pretrained=True)` would). */
static bool built_by_file_class(const facts *f, TSNode arg) {
  uint32_t len;
  const char *name = facts_text(f, arg, &len);
  long a = facts__last_assign_before(f, name, len, ts_node_start_byte(arg), -1);
  if (a < 0) return false;
  TSNode v = f->assigns.items[a].right;
  while (!ts_node_is_null(v) && NODE_IS(v, "call")) {
    TSNode callee = FIELD(v, function);
    if (ts_node_is_null(callee)) return false;
    if (NODE_IS(callee, "identifier")) {
      uint32_t cl;
      const char *c = facts_text(f, callee, &cl);
      for (size_t i = 0; i < f->classes.len; i++)
        if (f->classes.items[i].name_len == cl && !memcmp(f->classes.items[i].name, c, cl)) return true;
      return false;
    }
    /* `CKCNN(...).to(device)` */
    v = NODE_IS(callee, "attribute") ? FIELD(callee, object) : NULL_NODE;
  }
  return false;
}


/* Whether module-level code hands the model ARG to no function but FN
 * (and `print`): a model the script also hands to `train(model, data)` or
 * `plot_decision_boundary(model, data)` may be trained or judged there. */
static bool handed_only_to(const facts *f, TSNode arg, int fn) {
  uint32_t len;
  const char *name = facts_text(f, arg, &len);
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (c->function >= 0) continue;
    TSNode callee = FIELD(c->call, function), args = FIELD(c->call, arguments);
    if (ts_node_is_null(callee) || ts_node_is_null(args) || facts_function_named(f, callee) == fn ||
        facts_node_is(f, callee, "print"))
      continue;
    TSNode a;
    for (children ch = children_of(args); children_next(&ch, &a);) {
      if (NODE_IS(a, "keyword_argument")) a = FIELD(a, value);
      if (!ts_node_is_null(a) && facts_text_is(f, a, name, len)) {
        children_done(&ch);
        return false;
      }
    }
  }
  return true;
}


/* Whether plain function FN is called in the file, and every call, made
 * by module-level code, hands its parameter PARAM (a node of its
 * signature) a model untrained there: `def timing_test(model, x): for i in
 * range(N): model(x)` called only as `timing_test(model, X)` after `model
 * = CKCNN(...)` in `__main__` (a speed check of a fresh network). A call
 * from a function (`main()` building `net = Linear(8, 2)` for the reader
 * of an example) stands for whatever model that function would be given.
 * DEPTH bounds the callers followed. */
static bool parameter_untrained_in_callers(const facts *self, int fn, TSNode param, int depth) {
  if (depth >= 2 || self->functions.items[fn].klass >= 0) return false;
  int k = facts__parameter_index(self, fn, param);
  if (k < 0) return false;
  uint32_t len;
  const char *name = facts_text(self, param, &len);
  const facts_function *d = &self->functions.items[fn];
  bool any = false;
  for (size_t i = 0; i < self->calls.len; i++) {
    const facts_call *c = &self->calls.items[i];
    if (!facts__call_named(self, c->call, d->name, d->name_len)) continue;
    TSNode callee = FIELD(c->call, function), args = FIELD(c->call, arguments);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "identifier") || facts_function_named(self, callee) != fn ||
        ts_node_is_null(args))
      continue;
    if (c->function >= 0) return false;
    TSNode arg = NULL_NODE, a;
    uint32_t position = 0;
    for (children ch = children_of(args); children_next(&ch, &a);) {
      if (NODE_IS(a, "comment")) continue;
      if (NODE_IS(a, "keyword_argument")) {
        if (facts_text_is(self, FIELD(a, name), name, len)) arg = FIELD(a, value);
      } else if (position++ == (uint32_t)k) {
        arg = a;
      }
    }
    if (ts_node_is_null(arg) || !NODE_IS(arg, "identifier") || !built_by_file_class(self, arg) ||
        !handed_only_to(self, arg, fn) || !untrained_model(self, arg, depth + 1))
      return false;
    any = true;
  }
  return any;
}


bool facts_untrained_model(const facts *self, TSNode callee) {
  return untrained_model(self, callee, 0);
}


static bool untrained_model(const facts *self, TSNode callee, int depth) {
  if (ts_node_is_null(callee)) return false;
  /* `net(x)`, `net.forward(x)`, `net.encoder(x)`: the model `net` */
  TSNode model = callee;
  if (NODE_IS(model, "attribute")) model = FIELD(model, object);
  if (ts_node_is_null(model) || !NODE_IS(model, "identifier") || facts_node_is(self, model, "self")) return false;
  uint32_t len, pos = ts_node_start_byte(callee);
  const char *name = facts_text(self, model, &len);
  int fn = facts_function_at(self, pos);
  /* every binding of the name in this scope before the call builds a fresh
   * model (or keeps it: `net = net.to(device)`); a parameter, an import, a
   * loop or tuple target comes from elsewhere */
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  if (fn >= 0 && self->functions.items[fn].klass < 0 && untrained_global(self, fn, name, len, first, end)) return true;
  bool built = false;
  uint32_t from = pos;
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &self->bindings.items[i];
    if (b->pos >= pos) continue;
    int bf = facts_function_at(self, b->pos);
    if (fn >= 0 && bf != fn && b->pos >= self->functions.items[fn].whole.start &&
        b->pos < self->functions.items[fn].body.start) {
      /* a parameter: untrained when every caller hands it such a model */
      TSNode param = ts_node_descendant_for_byte_range(self->root, b->pos, b->pos + len);
      return !ts_node_is_null(param) && NODE_IS(param, "identifier") &&
             parameter_untrained_in_callers(self, fn, param, depth);
    }
    if (bf != fn) continue;
    /* another function's parameter (`def __init__(self, nf=32, spn=1)`),
     * whose header lies outside its body */
    bool header = false;
    for (size_t g = 0; g < self->functions.len && !header; g++)
      header = (int)g != fn && b->pos >= self->functions.items[g].whole.start && b->pos < self->functions.items[g].body.start;
    if (header) continue;
    if (b->kind == BINDING_IMPORT) return false;
    long a = facts__last_assign_before(self, name, len, b->pos + 1, fn);
    if (a < 0 || ts_node_start_byte(self->assigns.items[a].left) != b->pos) {
      /* no assignment: `for model in models:` over a list of models built
       * right there (a unit test of several configurations of an encoder) */
      if (!loop_over_fresh_models(self, b->pos, fn)) return false;
      built = true;
      continue;
    }
    if (!fresh_model_binding(self, self->assigns.items[a].right, name, len, 0)) return false;
    if (!NODE_IS(self->assigns.items[a].right, "identifier")) built = true;
    if (b->pos < from) from = literal_arguments(self->assigns.items[a].right) ? b->pos : 0;
  }
  return built && leaves_untrained(self, fn, name, len, 0, fn >= 0 ? from : 0);
}


bool facts_function_backward_at(const facts *self, uint32_t pos) {
  int fn = facts_function_at(self, pos);
  /* or takes gradients, itself or through a function of the project
   * (`autograd_gradients(loss, params)` wrapping `torch.autograd.grad`, a
   * gradient-alignment score): its forwards need their graphs */
  if (fn >= 0)
    return self->functions.items[fn].backward || self->functions.items[fn].differentiated ||
           self->functions.items[fn].gradients;
  return self->file_backward;
}


bool facts_function_updates_at(const facts *self, uint32_t pos) {
  int fn = facts_function_at(self, pos);
  /* a backward only through callees counts when something also steps an
   * optimizer: yolov9's autobatch runs a profiler's forward and backward
   * under autocast to measure memory, and no gradient it makes is used */
  if (fn >= 0) {
    const facts_function *g = &self->functions.items[fn];
    if (!(g->own_backward || (g->backward && g->updates) || g->differentiated)) return false;
    /* its own backward, in a file that steps no optimizer anywhere: a
     * unit test comparing gradients, a benchmark; nothing is trained */
    return g->updates || self->file_updates;
  }
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
  /* or two `if`s of the loop with the same test, one around each
   * (`if i % batch == 0 or i == N:` packing and backpropagating a batch,
   * then the same test around `optimizer.step()`) */
  for (size_t i = 0; i < self->periodic.len; i++) {
    const facts_periodic *p = &self->periodic.items[i];
    if (p->body.start < body.start || p->body.start > a || a >= p->body.end) continue;
    for (size_t j = 0; j < self->periodic.len; j++) {
      const facts_periodic *q = &self->periodic.items[j];
      if (j == i || q->body.start < body.start || q->body.start > b || b >= q->body.end) continue;
      uint32_t n = p->test.end - p->test.start;
      assert(p->test.end <= self->length && q->test.end <= self->length);
      if (q->test.end - q->test.start == n && !memcmp(self->source + p->test.start, self->source + q->test.start, n))
        return true;
    }
  }
  return false;
}


/* Whether K, the modulus of an update's test, is 1: the literal, or a name
 * every assignment of the file binds to it (`gradient_accumulation_steps =
 * 1`): the optimizer then steps every batch. */
static bool modulus_is_one(const facts *self, TSNode k) {
  if (NODE_IS(k, "integer")) return facts_node_is(self, k, "1");
  if (!NODE_IS(k, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(self, k, &len);
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  if (first == end) return false;
  for (size_t i = first; i < end; i++) {
    TSNode v = self->bindings.items[i].value;
    if (ts_node_is_null(v) || !NODE_IS(v, "integer") || !facts_node_is(self, v, "1")) return false;
  }
  return true;
}


/* Whether the per-iteration loop at POS steps an optimizer only under `%`
 * tests; *STEPS is then the K those tests share (`X % K == 0`), or a null
 * node when one of them has none or two of them differ. */
/* Whether CALL (a `zero_grad()`) runs in every iteration of LOOP: a
 * statement of the loop's own body, not under an `if` (a NaN guard's
 * `optimizer.zero_grad(); continue` zeroes only that batch). */
static bool zeroed_each_iteration(const facts *f, TSNode call, int loop) {
  TSNode stmt = facts__statement_of(call);
  TSNode block = ts_node_is_null(stmt) ? stmt : ts_node_parent(stmt);
  return !ts_node_is_null(block) && NODE_IS(block, "block") && ts_node_eq(ts_node_parent(block), f->loops.items[loop].node);
}


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
    /* `optimizer.zero_grad()` in every iteration before the backward: no
     * gradient survives from one batch to the next, so nothing is
     * accumulated, whatever the step's `if` says (it drops batches) */
    if (s < pos && facts_node_is(self, attr, "zero_grad") && zeroed_each_iteration(self, c->call, loop)) {
      *steps = NULL_NODE;
      return false;
    }
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
  if (periodic && !ts_node_is_null(*steps) && modulus_is_one(self, *steps)) {
    *steps = NULL_NODE;
    return false;
  }
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
  if (facts__named_as_loss(t, len)) return true;
  /* `cost(output, target)` with `cost` a parameter: the cost function the
   * caller hands in (a global `cost` may be a cost network: PPUU's) */
  static const char *const costs[] = {"cost", "cost_fn", "cost_func", "cost_function", NULL};
  if (!NODE_IS(callee, "identifier") || !in_names((char *const *)costs, sizeof costs / sizeof *costs - 1, t, len))
    return false;
  int fn = facts_function_at(f, ts_node_start_byte(callee));
  size_t first, end;
  facts_bindings_named(f, t, len, &first, &end);
  for (size_t i = first; i < end; i++)
    if (fn >= 0 && (int)f->bindings.items[i].parameter_of - 1 == fn) return true;
  return false;
}


static bool wholly_no_grad(const facts *f, int fn, int depth);
static bool is_entry_method(const facts_function *g);
static bool calls_own_member(const facts *f, TSNode s, int fn, int depth, uint32_t *delegated);


/* Whether method FN calls no model and nothing of its object but such
 * helpers or methods wholly under no_grad. */
static bool runs_no_model(const facts *f, int fn, int depth) {
  TSNode body = FIELD(f->functions.items[fn].node, body);
  if (ts_node_is_null(body)) return false;
  uint32_t ignored = 0;
  return !calls_own_member(f, body, fn, depth, &ignored);
}


/* Whether CALL is `self.eval()`, `self.to(device)` and the like, also on
 * a member (`self.model.eval()`): the module's mode and place, no forward
 * pass. */
static bool mode_switch(const facts *f, TSNode call) {
  static const char *const modes[] = {"eval", "train", "to", "cuda", "cpu", "half", "float", "double",
                                      "zero_grad", "requires_grad_", NULL};
  TSNode callee = FIELD(call, function);
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return false;
  TSNode object = FIELD(callee, object);
  if (!ts_node_is_null(object) && NODE_IS(object, "attribute")) object = FIELD(object, object);
  if (ts_node_is_null(object) || !facts_node_is(f, object, "self")) return false;
  TSNode attr = FIELD(callee, attribute);
  for (size_t k = 0; modes[k]; k++)
    if (facts_node_is(f, attr, modes[k])) return true;
  return false;
}


/* Whether statement S of function FN calls something of its object
 * (`self.model(x)`, `self.net.encode(x)`) or a model: what a wrapper
 * holds. A method of the class that itself runs under no_grad
 * (`return self.forward_on_instances([x])[0]`) is no such call. */
static bool calls_own_member(const facts *f, TSNode s, int fn, int depth, uint32_t *delegated) {
  uint32_t end = ts_node_end_byte(s);
  for (size_t i = facts_first_call_at(f, ts_node_start_byte(s)); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= end) break;
    if (c->function != fn) continue;
    TSNode callee = FIELD(c->call, function);
    /* `out = model(x)` on a parameter; not `nn.Sigmoid()(preds)`, a
     * parameter-free layer made and applied */
    if (facts_is_model(f, callee) &&
        !(!ts_node_is_null(callee) && NODE_IS(callee, "call") && facts__parameter_free_module(f, callee, "", 0)))
      return true;
    int g = facts_function_named(f, callee);
    if (g >= 0 && g != fn && f->functions.items[g].klass == f->functions.items[fn].klass && depth < 2) {
      if (wholly_no_grad(f, g, depth + 1)) {
        ++*delegated;
        continue;
      }
      /* a helper of the class that runs no model (`self.extract(img,
       * boxes)` cropping the input) */
      if (runs_no_model(f, g, depth + 1)) continue;
    }
    /* `self.flows[c](x)`: a member picked from a list or dict of them */
    while (!ts_node_is_null(callee) && (NODE_IS(callee, "attribute") || NODE_IS(callee, "subscript")))
      callee = NODE_IS(callee, "attribute") ? FIELD(callee, object) : FIELD(callee, value);
    if (!ts_node_is_null(callee) && NODE_IS(callee, "identifier") && facts_node_is(f, callee, "self") &&
        !mode_switch(f, c->call))
      return true;
  }
  return false;
}


/* Whether S is an `if` on a flag of the instance (`if self._inference_mode:`,
 * `if not self.training:`) one of whose branches returns from inside a
 * no-grad block: the class turns gradients off itself, as its flag says
 * (DINOv2 feature extractors built with `inference_mode=True`). A branch
 * that only computes under no_grad and falls through to more layers is no
 * such choice: what follows it still records a graph. */
static bool flag_chooses_no_grad(const facts *f, TSNode s) {
  if (!NODE_IS(s, "if_statement")) return false;
  TSNode cond = FIELD(s, condition);
  if (!ts_node_is_null(cond) && NODE_IS(cond, "not_operator")) cond = FIELD(cond, argument);
  if (ts_node_is_null(cond) || !NODE_IS(cond, "attribute") || !facts_node_is(f, FIELD(cond, object), "self"))
    return false;
  uint32_t n = ts_node_named_child_count(s);
  for (uint32_t i = 0; i < n; i++) {
    TSNode b = ts_node_named_child(s, i);
    if (NODE_IS(b, "else_clause")) b = FIELD(b, body);
    else if (!NODE_IS(b, "block")) continue;
    if (ts_node_is_null(b)) continue;
    TSNode w = ts_node_named_child(b, 0);
    TSNode body = !ts_node_is_null(w) && NODE_IS(w, "with_statement") ? FIELD(w, body) : NULL_NODE;
    uint32_t m = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    if (m && facts_in_no_grad(f, ts_node_start_byte(body)) &&
        NODE_IS(ts_node_named_child(body, m - 1), "return_statement"))
      return true;
  }
  return false;
}


static bool wholly_no_grad(const facts *f, int fn, int depth) {
  const facts_function *g = &f->functions.items[fn];
  /* a `forward` the file calls only under no_grad (a flow's own
   * `@torch.no_grad()` helpers calling `self.forward(x)`) still runs with
   * gradients when the class's users call it: no wrapper */
  if (g->no_grad) return !(depth == 0 && g->no_grad_by_callers && is_entry_method(g));
  TSNode body = FIELD(g->node, body);
  if (ts_node_is_null(body)) return false;
  /* the statements of the body, and those of `with` blocks that are not
   * about gradients (`with torch.backends.cudnn.flags(...)`) around one */
  enum { MAX_BLOCKS = 8 };
  TSNode blocks[MAX_BLOCKS];
  int nblocks = 0;
  blocks[nblocks++] = body;
  uint32_t covered = 0;
  while (nblocks > 0) {
    TSNode block = blocks[--nblocks];
    uint32_t n = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < n; i++) {
      TSNode s = ts_node_named_child(block, i);
      if (NODE_IS(s, "comment")) continue;
      if (NODE_IS(s, "expression_statement") && ts_node_named_child_count(s) == 1 &&
          NODE_IS(ts_node_named_child(s, 0), "string"))
        continue; /* a docstring */
      /* what the statements before it left is chosen by the flag */
      if (block.id == body.id && flag_chooses_no_grad(f, s)) return true;
      TSNode inner = NODE_IS(s, "with_statement") ? FIELD(s, body) : s;
      /* under no_grad, or under `torch.set_grad_enabled(self.as_loss)`:
       * the class chooses its mode, and its callers' calls follow it */
      if (!ts_node_is_null(inner) && (facts_in_no_grad(f, ts_node_start_byte(inner)) ||
                                      grad_mode_chosen(f, ts_node_start_byte(inner)))) {
        covered++;
      } else if (!ts_node_is_null(inner) && inner.id != s.id && nblocks < MAX_BLOCKS) {
        blocks[nblocks++] = inner;
      }
      /* outside no_grad, the input's preparation and the result's conversion
       * (`x = torch.from_numpy(x).cuda()`, `return z.cpu().numpy()`) are
       * allowed; a call of what the wrapper holds is not */
      else if (calls_own_member(f, s, fn, depth, &covered)) {
        return false;
      }
    }
  }
  return covered > 0;
}


bool facts_wholly_no_grad(const facts *f, int fn) {
  return wholly_no_grad(f, fn, 0);
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
uint32_t facts__last_binding_before(const facts *f, const char *name, uint32_t len, uint32_t pos, int fn) {
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  uint32_t last = UINT32_MAX;
  for (size_t i = first; i < end; i++) {
    uint32_t b = f->bindings.items[i].pos;
    if (b < pos && (last == UINT32_MAX || b > last) && facts_function_at(f, b) == fn) last = b;
  }
  return last;
}


long facts__last_local_assign(const facts *f, const char *name, uint32_t len, uint32_t pos, int fn) {
  uint32_t floor = fn >= 0 ? f->functions.items[fn].body.start : 0;
  size_t lo = facts_first_assign_at(f, pos);
  for (size_t i = lo, steps = 0; i-- > 0 && steps < 256; steps++) {
    TSNode left = f->assigns.items[i].left;
    if (ts_node_start_byte(left) < floor) break;
    if (NODE_IS(left, "identifier") && facts_text_is(f, left, name, len))
      return facts_function_at(f, ts_node_start_byte(left)) == fn ? (long)i : -1;
  }
  return -1;
}


long facts__last_assign_before(const facts *f, const char *name, uint32_t len, uint32_t pos, int fn) {
  size_t lo = facts_first_assign_at(f, pos);
  for (size_t i = lo; i-- > 0;) {
    TSNode left = f->assigns.items[i].left;
    if (NODE_IS(left, "identifier") && facts_text_is(f, left, name, len))
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
    long a = facts__last_assign_before(f, name, len, pos, fn);
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
      long a = facts__last_assign_before(f, name, len, ts_node_start_byte(c->call), c->function);
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


/* Whether CALLEE is a move of an object to a device or dtype (`X(...).cuda`,
 * `X(...).to`), which hands the same object back: read off its text,
 * before any node is walked (most assignments are not moves). */
static bool moved_by_name(const facts *f, TSNode callee) {
  static const char *const moves[] = {"cuda", "to", "cpu", "half", "float", "double", NULL};
  uint32_t len;
  const char *t = ts_node_is_null(callee) || !NODE_IS(callee, "attribute") ? NULL : facts_text(f, callee, &len);
  if (!t) return false;
  const char *dot = NULL;
  for (uint32_t i = len; i-- > 0 && !dot;)
    if (t[i] == '.') dot = t + i;
  if (!dot) return false;
  uint32_t n = (uint32_t)(t + len - dot - 1);
  for (size_t i = 0; moves[i]; i++)
    if (strlen(moves[i]) == n && !memcmp(dot + 1, moves[i], n)) return true;
  return false;
}


void facts__call_kinds(facts *f);
void facts__call_kinds(facts *f) {
  /* the classes of the file whose forward or __call__ runs wholly under no_grad */
  bool *wrapper = oom_xcalloc(f->classes.len + 1, sizeof *wrapper);
  bool any = false;
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *g = &f->functions.items[i];
    if (g->klass >= 0 && is_entry_method(g) && (f->no_grad.len || f->with_items.len) && facts_wholly_no_grad(f, (int)i))
      wrapper[g->klass] = any = true;
  }
  buf q = {0};
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
    if (!NODE_IS(right, "call")) continue;
    TSNode callee = FIELD(right, function);
    /* `ce = nn.CrossEntropyLoss()`, also moved to the device
     * (`nn.MSELoss(size_average=False).cuda()`): the class the chain
     * starts from; only losses are looked up through it */
    TSNode made = callee;
    for (int guard = 0; guard < 4 && moved_by_name(f, made) && NODE_IS(FIELD(made, object), "call"); guard++)
      made = FIELD(FIELD(made, object), function);
    if (!ts_node_is_null(made) && (NODE_IS(made, "attribute") || NODE_IS(made, "identifier"))) {
      uint32_t ml; /* the text's end is the class's name: no node walked */
      const char *mt = facts_text(f, made, &ml);
      if (ml > 4 && !memcmp(mt + ml - 4, "Loss", 4) && facts_qualname(f, made, &q) &&
          !strncmp(buf_str(&q), "torch.nn.", 9)) {
        ADD_NAME(&f->loss_names, f, left);
        continue;
      }
    }
    /* a wrapper moved at once (`Extractor(inference_mode=True).to(device)`)
     * is still that class */
    if (!ts_node_is_null(made) && made.id != callee.id) callee = made;
    if (ts_node_is_null(callee) || !(NODE_IS(callee, "identifier") || NODE_IS(callee, "attribute"))) continue;
    TSNode last = NODE_IS(callee, "attribute") ? FIELD(callee, attribute) : callee;
    uint32_t len;
    const char *t = facts_text(f, last, &len);
    facts_symbol sym;
    /* `logprobs = dist.log_prob(action)` returned: the terms of a policy
     * loss (PPO's `evaluate(state, action)`), for the caller to backpropagate */
    if (NODE_IS(callee, "attribute") && NODE_IS(left, "identifier") &&
        ((len == 8 && !memcmp(t, "log_prob", 8)) || (len == 7 && !memcmp(t, "entropy", 7)))) {
      int fn = facts_function_at(f, ts_node_start_byte(left));
      uint32_t nl;
      const char *name = facts_text(f, left, &nl);
      if (fn >= 0 && returns_name(f, fn, name, nl)) f->functions.items[fn].policy_terms = true;
      continue;
    }
    if (len && !isupper((unsigned char)t[0])) {
      /* `metric = pyiqa.create_metric(name)`: a function of the project
       * returning such a wrapper; otherwise only classes are of interest */
      if (f->imports && facts_project_symbol(f, callee, &sym) && (sym.flags & SYM_FUNCTION) &&
          (sym.flags & SYM_RETURNS_WRAPPER))
        ADD_NAME(&f->wrapper_names, f, left);
      continue;
    }
    if (!len) continue;
    /* `predictor = Predictor(net)`, of this file or of the project */
    bool wraps = false;
    for (size_t k = 0; any && !wraps && NODE_IS(callee, "identifier") && k < f->classes.len; k++)
      wraps = wrapper[k] && f->classes.items[k].name_len == len && !memcmp(f->classes.items[k].name, t, len);
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


TSNode facts_delegated_model(const facts *self, TSNode callee) {
  if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return NULL_NODE;
  TSNode obj = FIELD(callee, object);
  if (ts_node_is_null(obj) || !NODE_IS(obj, "identifier") || !facts_node_is(self, obj, "self")) return NULL_NODE;
  int caller = facts_function_at(self, ts_node_start_byte(callee));
  int g = facts_function_named(self, callee);
  /* a method of the caller's own class (the name alone could be another class's) */
  if (caller < 0 || g < 0 || g == caller || self->functions.items[g].klass < 0 ||
      self->functions.items[g].klass != self->functions.items[caller].klass)
    return NULL_NODE;
  TSNode model = NULL_NODE;
  facts_span body = self->functions.items[g].body;
  for (size_t i = 0; i < self->returns.len; i++) {
    const facts_call *r = &self->returns.items[i];
    if (ts_node_start_byte(r->call) < body.start) continue;
    if (ts_node_start_byte(r->call) >= body.end) break;
    if (r->function != g) continue;
    TSNode value = ts_node_named_child(r->call, 0);
    if (NODE_IS(value, "none")) continue; /* an early exit says nothing */
    /* `@torch.inference_mode() def model_forward(self, img): return
     * self.model(img)`: the method runs the model without gradients */
    if (facts_in_no_grad(self, ts_node_start_byte(value))) return NULL_NODE;
    TSNode fn = NODE_IS(value, "call") ? FIELD(value, function) : NULL_NODE;
    /* every value returned is a call of one model attribute: `self.module_(x)` */
    if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute") || !facts_node_is(self, FIELD(fn, object), "self") ||
        !facts_is_model(self, fn))
      return NULL_NODE;
    if (!ts_node_is_null(model)) {
      uint32_t a, b;
      const char *ta = facts_text(self, model, &a), *tb = facts_text(self, fn, &b);
      if (a != b || memcmp(ta, tb, a) != 0) return NULL_NODE;
    }
    model = fn;
  }
  return model;
}


/* Whether the call of CALLEE passes text first (`roberta.encode("Hello
 * world")`, text_value, text_name, a constant bound only to string
 * literals: `SAMPLE_TEXT`): a
 * tokenizer's method of a model object, not a forward pass, which takes
 * tensors. */
/* Whether E is text by its form: a string literal, or a call of a `str`
 * method that no tensor has (`line.strip()`, `s.lower()`, `", ".join(ws)`,
 * `b.decode("utf-8")`; `decode` only without an argument or with a literal
 * one: `vae.decode(z)` is a model's). */
static bool text_value(const facts *f, TSNode e) {
  static const char *const methods[] = {"strip", "lstrip", "rstrip", "lower", "upper", "join", "format",
                                        "capitalize", "casefold", NULL};
  if (NODE_IS(e, "string") || NODE_IS(e, "concatenated_string")) return true;
  if (!NODE_IS(e, "call")) return false;
  TSNode fn = FIELD(e, function), args = FIELD(e, arguments);
  if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute") || ts_node_is_null(args)) return false;
  TSNode attr = FIELD(fn, attribute);
  for (size_t i = 0; methods[i]; i++)
    if (facts_node_is(f, attr, methods[i])) return true;
  if (!facts_node_is(f, attr, "decode")) return false;
  return !ts_node_named_child_count(args) || NODE_IS(ts_node_named_child(args, 0), "string");
}


/* Whether NAME (LEN bytes) names a collection of text by its last
 * `_`-separated word (`sent`, `sentences`, `raw_texts`, `captions`; not
 * `text_emb`). */
static bool text_collection_name(const char *name, uint32_t len) {
  static const char *const words[] = {"sent", "sents", "sentences", "texts", "captions", "utterances", "prompts",
                                      "lines", NULL};
  uint32_t at = len;
  while (at > 0 && name[at - 1] != '_') at--;
  for (size_t i = 0; words[i]; i++)
    if (strlen(words[i]) == len - at && !strncasecmp(name + at, words[i], len - at)) return true;
  return false;
}


/* Whether the identifier A, at the call CALL, is text: the target of a
 * comprehension or `for` loop over a collection of text, by its name
 * (text_collection_name) or bound just before to a list of text (`sent =
 * [s.encode("ascii", errors="ignore").decode("utf-8") for s in sent]`, then
 * `[roberta.encode(s) for s in sent]`), or a name bound just before to
 * text. */
static bool text_name(const facts *f, TSNode a, TSNode call) {
  uint32_t len, pos = ts_node_start_byte(call);
  const char *name = facts_text(f, a, &len);
  int fn = facts_function_at(f, pos);
  long k = facts__last_assign_before(f, name, len, pos, fn);
  if (k >= 0 && NODE_IS(f->assigns.items[k].left, "identifier") && text_value(f, f->assigns.items[k].right))
    return true;
  TSNode over = NULL_NODE;
  for (TSNode p = ts_node_parent(call); !ts_node_is_null(p) && ts_node_is_null(over); p = ts_node_parent(p)) {
    if (NODE_IS(p, "function_definition") || NODE_IS(p, "class_definition")) break;
    TSNode clause = NULL_NODE;
    if (NODE_IS(p, "for_statement")) clause = p;
    else if (NODE_IS(p, "list_comprehension") || NODE_IS(p, "generator_expression") ||
             NODE_IS(p, "set_comprehension"))
      for (uint32_t i = 0; i < ts_node_named_child_count(p) && ts_node_is_null(clause); i++)
        if (NODE_IS(ts_node_named_child(p, i), "for_in_clause")) clause = ts_node_named_child(p, i);
    if (ts_node_is_null(clause)) continue;
    TSNode left = FIELD(clause, left);
    if (!ts_node_is_null(left) && NODE_IS(left, "identifier") && facts_text_is(f, left, name, len))
      over = FIELD(clause, right);
  }
  if (ts_node_is_null(over) || !NODE_IS(over, "identifier")) return false;
  const char *oname = facts_text(f, over, &len);
  if (text_collection_name(oname, len)) return true;
  k = facts__last_assign_before(f, oname, len, ts_node_start_byte(over), fn);
  if (k < 0 || !NODE_IS(f->assigns.items[k].left, "identifier")) return false;
  TSNode right = f->assigns.items[k].right;
  if (!NODE_IS(right, "list_comprehension") || !ts_node_named_child_count(right)) return false;
  return text_value(f, ts_node_named_child(right, 0));
}


static bool takes_text(const facts *f, TSNode callee) {
  TSNode call = ts_node_parent(callee);
  if (ts_node_is_null(call) || !NODE_IS(call, "call")) return false;
  TSNode args = FIELD(call, arguments);
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list") || !ts_node_named_child_count(args)) return false;
  TSNode a = ts_node_named_child(args, 0);
  if (text_value(f, a)) return true;
  if (!NODE_IS(a, "identifier")) return false;
  if (text_name(f, a, call)) return true;
  uint32_t len;
  const char *name = facts_text(f, a, &len);
  /* a constant by its name (`SAMPLE_TEXT`): the assignments are read only then */
  for (uint32_t i = 0; i < len; i++)
    if (!(isupper((unsigned char)name[i]) || isdigit((unsigned char)name[i]) || name[i] == '_')) return false;
  bool any = false;
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
    if (!NODE_IS(left, "identifier") || !facts_text_is(f, left, name, len)) continue;
    if (!NODE_IS(right, "string") && !NODE_IS(right, "concatenated_string")) return false;
    any = true;
  }
  return any;
}


/* Whether the call E makes an estimator of a non-torch machine-learning
 * library (scikit-learn, XGBoost, LightGBM). */
static bool foreign_estimator_call(const facts *f, TSNode e) {
  if (ts_node_is_null(e) || !NODE_IS(e, "call")) return false;
  /* `LogisticRegression().fit(x, y)`: the estimator `fit` returns */
  for (int guard = 0; guard < 4; guard++) {
    TSNode callee = FIELD(e, function);
    if (ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) break;
    TSNode obj = FIELD(callee, object);
    if (ts_node_is_null(obj) || !NODE_IS(obj, "call")) break;
    e = obj;
  }
  buf q = {0};
  bool yes = facts_qualname(f, FIELD(e, function), &q) &&
             (!strncmp(buf_str(&q), "sklearn.", 8) || !strncmp(buf_str(&q), "xgboost.", 8) ||
              !strncmp(buf_str(&q), "lightgbm.", 9));
  buf_free(&q);
  return yes;
}


/* Whether ATTR (`self._model`), read in function FN, is bound only to
 * non-torch estimators by the methods of FN's class and of the file's
 * classes deriving it (`self._model = model` after `model =
 * LogisticRegression(...)`), while another class of the file binds the same
 * name to a module (ReAgent's LinearTrainer beside its NNTrainer). */
static bool foreign_estimator(const facts *f, TSNode attr, int fn) {
  if (fn < 0 || f->functions.items[fn].klass < 0) return false;
  const facts_class *k = &f->classes.items[f->functions.items[fn].klass];
  uint32_t len;
  const char *name = facts_text(f, attr, &len);
  bool any = false;
  for (size_t c = 0; c < f->classes.len; c++) {
    const facts_class *d = &f->classes.items[c];
    bool family = d == k;
    uint32_t nb = ts_node_is_null(d->bases) ? 0 : ts_node_named_child_count(d->bases);
    for (uint32_t j = 0; j < nb && !family; j++) {
      TSNode b = ts_node_named_child(d->bases, j);
      family = NODE_IS(b, "identifier") && facts_text_is(f, b, k->name, k->name_len);
    }
    if (!family) continue;
    uint32_t start = ts_node_start_byte(d->node), end = ts_node_end_byte(d->node);
    size_t lo = facts_first_assign_at(f, start); /* assigns are in file order */
    for (size_t i = lo; i < f->assigns.len; i++) {
      TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
      uint32_t at = ts_node_start_byte(left);
      if (at >= end) break;
      if (!NODE_IS(left, "attribute") || !facts_text_is(f, left, name, len) || NODE_IS(right, "none")) continue;
      /* `self._model = model` or `= model.fit(x, y)`: the local's estimator */
      TSNode local = right;
      if (NODE_IS(local, "call") && NODE_IS(FIELD(local, function), "attribute"))
        local = FIELD(FIELD(local, function), object);
      if (NODE_IS(local, "identifier")) {
        uint32_t rl;
        const char *rn = facts_text(f, local, &rl);
        long a = facts__last_assign_before(f, rn, rl, at, facts_function_at(f, at));
        if (a >= 0 || NODE_IS(right, "identifier")) right = a >= 0 ? f->assigns.items[a].right : NULL_NODE;
      }
      if (!foreign_estimator_call(f, right)) return false;
      any = true;
    }
  }
  return any;
}


static bool is_model_call(const facts *self, TSNode callee);


/* Whether the call of CALLEE takes only models (`reg_fn(model)`, an L1
 * regularizer over the parameters; `count(model)`): what it computes is
 * about the model, not a forward pass of data. */
static bool takes_only_models(const facts *f, TSNode callee) {
  TSNode call = ts_node_parent(callee);
  TSNode args = ts_node_is_null(call) || !NODE_IS(call, "call") ? NULL_NODE : FIELD(call, arguments);
  uint32_t n = ts_node_is_null(args) || !NODE_IS(args, "argument_list") ? 0 : ts_node_named_child_count(args);
  if (n == 0 || n > 4) return false;
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    /* a model by use and named as one, not a name the file binds to what
     * a model makes (`x_batch = impala_latents(encoder, obs)`: features) */
    if (!(NODE_IS(a, "identifier") || NODE_IS(a, "attribute")) || ts_node_eq(a, callee)) return false;
    uint32_t al, ll;
    const char *at = facts_text(f, a, &al);
    const char *last = facts_text(f, NODE_IS(a, "attribute") ? FIELD(a, attribute) : a, &ll);
    if (!facts__model_name_at(f, at, al, ts_node_start_byte(a)) || !facts__named_like_model(last, ll)) return false;
  }
  return true;
}


bool facts__class_count_args(const facts *f, TSNode args) {
  if (ts_node_is_null(args)) return false;
  /* most argument lists name no class: their text says so before any walk */
  uint32_t al;
  const char *at = facts_text(f, args, &al);
  if (al > 80 || !facts_text_has_ci(at, al, "class")) return false;
  uint32_t n = !NODE_IS(args, "argument_list") ? 0 : ts_node_named_child_count(args);
  if (n == 0 || n > 3) return false;
  bool named = false;
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "keyword_argument")) a = FIELD(a, value);
    if (ts_node_is_null(a)) return false;
    if (NODE_IS(a, "integer")) continue;
    if (NODE_IS(a, "attribute")) a = FIELD(a, attribute);
    if (ts_node_is_null(a) || !NODE_IS(a, "identifier")) return false;
    uint32_t len;
    const char *t = facts_text(f, a, &len);
    /* a count of classes, not a class id or label (`real_class_id`) */
    bool count = facts_text_has_ci(t, len, "class") &&
                 (facts_text_has_ci(t, len, "num") || facts_text_has_ci(t, len, "nb") ||
                  facts_text_has_ci(t, len, "count") || (len > 2 && !strncasecmp(t, "n_", 2)) ||
                  (len > 6 && !strncasecmp(t, "nclass", 6)));
    if (!count) return false;
    named = true;
  }
  return named;
}


/* Whether the call of CALLEE makes a model rather than running one: it is
 * given only a class count, or what it returns, moved by `.to()`-like
 * methods, is bound to a name or attribute
 * used as a module in its scope (`self.clf = self.net(n_classes).to(dev)`,
 * then `self.clf.train()` or `optim.SGD(self.clf.parameters())`): a
 * network class handed in as `net` and built with a class count, whatever
 * else the name is bound to. A forward pass returns tensors, which have no
 * `.parameters()` nor `.train()`. */
static bool builds_model(const facts *f, TSNode callee) {
  static const char *const chain[] = {"to", "cuda", "cpu", "float", "double", "half", NULL};
  static const char *const module_use[] = {"parameters", "named_parameters", "train", "eval", "state_dict",
                                           "load_state_dict", "zero_grad", NULL};
  /* a call given nothing but a class count (`self.model(self.num_classes)`:
   * a network class handed in), found among the calls starting where the
   * callee does: a forward pass takes data */
  uint32_t pos = ts_node_start_byte(callee);
  for (size_t i = facts_first_call_at(f, pos);
       i < f->calls.len && ts_node_start_byte(f->calls.items[i].call) == pos; i++)
    if (ts_node_eq(FIELD(f->calls.items[i].call, function), callee)) {
      if (facts__class_count_args(f, FIELD(f->calls.items[i].call, arguments))) return true;
      break;
    }
  /* the assignment whose value starts where the call does (asked of every
   * model call: found among the few assignments just before it, with no
   * walk up the tree) */
  size_t lo = facts_first_assign_at(f, pos);
  long k = -1;
  for (size_t i = lo, steps = 0; i-- > 0 && steps < 4 && k < 0; steps++)
    if (ts_node_start_byte(f->assigns.items[i].right) == pos) k = (long)i;
  if (k < 0) return false;
  /* the value: `.to(device)`-like methods of the call (a model built and
   * moved at once; a plain `out = model(x)`, which is most calls, is not
   * looked into further) */
  TSNode v = f->assigns.items[k].right;
  if (!NODE_IS(v, "call") || ts_node_eq(FIELD(v, function), callee)) return false;
  for (int guard = 0; guard < 4 && NODE_IS(v, "call"); guard++) {
    TSNode fn = FIELD(v, function);
    if (ts_node_eq(fn, callee)) break;
    bool chained = false;
    for (size_t i = 0; chain[i] && !chained && NODE_IS(fn, "attribute"); i++)
      chained = facts_node_is(f, FIELD(fn, attribute), chain[i]);
    if (!chained) return false;
    v = FIELD(fn, object);
  }
  if (!NODE_IS(v, "call") || !ts_node_eq(FIELD(v, function), callee)) return false;
  TSNode target = f->assigns.items[k].left;
  bool attr = NODE_IS(target, "attribute") && facts_node_is(f, FIELD(target, object), "self");
  if (!attr && !NODE_IS(target, "identifier")) return false;
  uint32_t tl;
  const char *t = facts_text(f, target, &tl);
  int fn = facts_function_at(f, pos);
  if (fn < 0) return false;
  /* an attribute: the methods of its class; a name: its function */
  int klass = f->functions.items[fn].klass;
  if (attr && klass < 0) return false;
  facts_span scope = f->functions.items[fn].body;
  if (attr) scope = (facts_span){ts_node_start_byte(f->classes.items[klass].node), ts_node_end_byte(f->classes.items[klass].node)};
  for (size_t i = facts_first_call_at(f, scope.start); i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    if (ts_node_start_byte(c->call) >= scope.end) break;
    if (attr ? (c->function < 0 || f->functions.items[c->function].klass != klass) : c->function != fn) continue;
    TSNode cf = FIELD(c->call, function);
    if (ts_node_is_null(cf) || !NODE_IS(cf, "attribute") || !facts_text_is(f, FIELD(cf, object), t, tl)) continue;
    for (size_t u = 0; module_use[u]; u++)
      if (facts_node_is(f, FIELD(cf, attribute), module_use[u])) return true;
  }
  return false;
}


/* Whether NAME (LEN bytes) is bound before POS only to estimators of a
 * non-torch library (foreign_estimator_call), directly or through one name. */
static bool estimator_value(const facts *f, TSNode v, uint32_t pos, int fn) {
  if (NODE_IS(v, "identifier")) {
    uint32_t len;
    const char *name = facts_text(f, v, &len);
    long a = facts__last_assign_before(f, name, len, pos, fn);
    v = a >= 0 ? f->assigns.items[a].right : NULL_NODE;
  }
  return foreign_estimator_call(f, v);
}


/* Whether the callee's object is the variable of an enclosing `for` or
 * comprehension over a list the file fills only with estimators of a
 * non-torch library (`cv_models.append(gbm)` after `gbm = lgb.train(...)`,
 * then `[model.predict(X) for model in cv_models]`): whatever `model` was
 * bound to before (a network put in eval mode), it is a booster here. */
static bool iterates_estimators(const facts *f, TSNode callee) {
  if (!f->imports_estimators || !NODE_IS(callee, "attribute")) return false;
  TSNode root = FIELD(callee, object);
  if (ts_node_is_null(root) || !NODE_IS(root, "identifier")) return false;
  uint32_t nl;
  const char *name = facts_text(f, root, &nl);
  /* the name bound as a loop target in the call's scope (neither assigned
   * nor a parameter) before the tree is walked up for that loop */
  size_t first, end;
  facts_bindings_named(f, name, nl, &first, &end);
  int scope = facts_function_at(f, ts_node_start_byte(callee));
  bool target = false;
  for (size_t i = first; i < end && !target; i++) {
    const facts_binding *b = &f->bindings.items[i];
    target = b->kind == BINDING_OTHER && ts_node_is_null(b->value) && !b->parameter_of &&
             facts_function_at(f, b->pos) == scope;
  }
  /* a comprehension's variable is no binding of the file: its clause
   * follows the call, `... for model in cv_models]` */
  uint32_t after = ts_node_end_byte(callee);
  uint32_t stop = after + 256 < f->length ? after + 256 : (uint32_t)f->length;
  for (uint32_t i = after; !target && i + 4 + nl + 4 <= stop; i++)
    target = !memcmp(f->source + i, "for ", 4) && !memcmp(f->source + i + 4, name, nl) &&
             !memcmp(f->source + i + 4 + nl, " in ", 4);
  if (!target) return false;
  TSNode over = NULL_NODE;
  for (TSNode up = ts_node_parent(callee); !ts_node_is_null(up) && ts_node_is_null(over); up = ts_node_parent(up)) {
    if (NODE_IS(up, "for_statement")) {
      if (facts_text_is(f, FIELD(up, left), name, nl)) over = FIELD(up, right);
    } else if (NODE_IS(up, "list_comprehension") || NODE_IS(up, "generator_expression") ||
               NODE_IS(up, "set_comprehension") || NODE_IS(up, "dictionary_comprehension")) {
      for (uint32_t k = 0, n = ts_node_named_child_count(up); k < n; k++) {
        TSNode c = ts_node_named_child(up, k);
        if (NODE_IS(c, "for_in_clause") && facts_text_is(f, FIELD(c, left), name, nl)) over = FIELD(c, right);
      }
    } else if (NODE_IS(up, "function_definition") || NODE_IS(up, "class_definition")) {
      break;
    }
  }
  if (ts_node_is_null(over) || !NODE_IS(over, "identifier")) return false;
  uint32_t ol;
  const char *list = facts_text(f, over, &ol);
  bool any = false;
  for (size_t i = 0; i < f->calls.len; i++) {
    const facts_call *c = &f->calls.items[i];
    TSNode cf = FIELD(c->call, function), args = FIELD(c->call, arguments);
    if (ts_node_is_null(cf) || !NODE_IS(cf, "attribute") || !facts_node_is(f, FIELD(cf, attribute), "append") ||
        !facts_text_is(f, FIELD(cf, object), list, ol))
      continue;
    if (ts_node_is_null(args) || ts_node_named_child_count(args) != 1 ||
        !estimator_value(f, ts_node_named_child(args, 0), ts_node_start_byte(c->call), c->function))
      return false;
    any = true;
  }
  return any;
}


/* Whether every method named as CALLEE's attribute in the file's classes
 * (one at least) runs wholly under no_grad (`DirectIRLSystem.predict_with_irl`
 * whose body is one `with torch.no_grad():` block): `irl.predict_with_irl(
 * model, x)` records no graph, whatever runs inside it. */
static bool methods_wholly_no_grad(const facts *f, TSNode callee) {
  if (!NODE_IS(callee, "attribute") || !(f->no_grad.len || f->with_items.len)) return false;
  TSNode attr = FIELD(callee, attribute);
  if (ts_node_is_null(attr)) return false;
  uint32_t len;
  const char *name = facts_text(f, attr, &len);
  bool any = false;
  for (size_t k = facts__first_named(f, name, len); k < f->functions_by_name.len; k++) {
    const facts_fname *e = &f->functions_by_name.items[k];
    if (e->len != len || memcmp(e->name, name, len) != 0) break;
    const facts_function *g = &f->functions.items[e->index];
    if (g->klass < 0) continue;
    /* its own code: a decorator or the body's blocks, not its callers nor
     * the name of a Lightning hook (`validation_step`), which a plain
     * runner's call does not follow */
    if (g->no_grad && (g->no_grad_by_callers || ts_node_is_null(g->decorated))) return false;
    if (!facts_wholly_no_grad(f, e->index)) return false;
    any = true;
  }
  return any;
}


bool facts_hands_model(const facts *self, TSNode call) {
  TSNode callee = FIELD(call, function), args = FIELD(call, arguments), a;
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return false;
  uint32_t cl = 0, nl = 0;
  const char *ct = ts_node_is_null(callee) ? NULL : facts_text(self, callee, &cl);
  /* `model(roberta_model, lm_model, batch)`: the callee named as the
   * network is the network, whatever encoders it is handed */
  if (ct) {
    TSNode last = NODE_IS(callee, "attribute") ? FIELD(callee, attribute) : callee;
    const char *n = ts_node_is_null(last) ? NULL : facts_text(self, last, &nl);
    if (n && facts__named_like_model(n, nl)) return false;
  }
  bool hands = false;
  for (children it = children_of(args); !hands && children_next(&it, &a);) {
    TSNode v = a;
    uint32_t ll = 0;
    const char *last;
    if (NODE_IS(a, "keyword_argument")) {
      /* `model=model`: the keyword says what the procedure is given */
      TSNode key = FIELD(a, name);
      v = FIELD(a, value);
      if (ts_node_is_null(key) || ts_node_is_null(v)) continue;
      last = facts_text(self, key, &ll);
      if (!facts__named_like_model(last, ll)) continue;
    }
    if (!NODE_IS(v, "identifier") && !NODE_IS(v, "attribute")) continue;
    uint32_t vl;
    const char *vt = facts_text(self, v, &vl);
    /* `model.forward(x, model)` is no procedure: the callee is that model */
    if (ct && vl <= cl && !memcmp(ct, vt, vl) && (vl == cl || ct[vl] == '.')) continue;
    last = facts_text(self, NODE_IS(v, "attribute") ? FIELD(v, attribute) : v, &ll);
    hands = facts__named_like_model(last, ll) && facts__model_name_at(self, vt, vl, ts_node_start_byte(v));
    if (hands) children_done(&it); /* the walk holds a cursor */
  }
  return hands;
}


bool facts_is_model_call(const facts *self, TSNode callee) {
  if (!is_model_call(self, callee) || takes_only_models(self, callee) || methods_wholly_no_grad(self, callee))
    return false;
  /* `deep_lift(x, edge_index)`, an instance of a project class whose
   * forward computes gradients itself (an explainer's attribution): its
   * calls need autograd */
  facts_symbol inst;
  if (self->imports && NODE_IS(callee, "identifier") && facts_instance_call_symbol(self, callee, &inst) &&
      (inst.flags & SYM_GRADIENTS))
    return false;
  /* `self._model.predict_proba(x)` of a scikit-learn estimator: asked
   * last, of what would be reported */
  TSNode held = callee;
  if (NODE_IS(held, "attribute") && NODE_IS(FIELD(held, object), "attribute")) held = FIELD(held, object);
  if (NODE_IS(held, "attribute") && facts_node_is(self, FIELD(held, object), "self") &&
      foreign_estimator(self, held, facts_function_at(self, ts_node_start_byte(callee))))
    return false;
  return !builds_model(self, callee) && !iterates_estimators(self, callee);
}


/* Whether the identifier CALLEE names a class of the file and nothing in
 * its function rebinds the name (an assignment before it, a parameter, the
 * target of a loop around it): `m = model(args.image_size)` with `class
 * model:` an ensemble wrapper builds an instance, it runs no forward. */
static bool names_file_class(const facts *f, TSNode callee) {
  uint32_t len;
  const char *name = facts_text(f, callee, &len);
  bool klass = false;
  for (size_t i = 0; i < f->classes.len && !klass; i++)
    klass = f->classes.items[i].name_len == len && !memcmp(f->classes.items[i].name, name, len);
  if (!klass) return false;
  /* the bindings of the name, read off the sorted table (no walk up the
   * tree: this is asked of every call of a class by its name) */
  int fn = facts_function_at(f, ts_node_start_byte(callee));
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->parameter_of) {
      if ((int)b->parameter_of - 1 == fn) return false;
      continue;
    }
    int bf = facts_function_at(f, b->pos);
    if (bf == fn || bf < 0) return false;
  }
  return true;
}


/* Whether every method of the file's classes named ATTR has a body that
 * never reads `self` (`extract_prosodic_features(self, audio, sr)` of a
 * classifier, computing features with librosa and NumPy): it runs none of
 * its model's modules, whatever its name says. False when the file defines
 * no such method. */
static bool self_free_method(const facts *f, TSNode attr) {
  uint32_t len;
  const char *name = facts_text(f, attr, &len);
  bool found = false;
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *g = &f->functions.items[i];
    if (g->klass < 0 || g->name_len != len || memcmp(g->name, name, len) != 0) continue;
    assert(g->body.start <= g->body.end && g->body.end <= f->length);
    if (has_word_at(f->source + g->body.start, g->body.end - g->body.start, 0, "self", 4)) return false;
    found = true;
  }
  return found;
}


static bool is_model_call(const facts *self, TSNode callee) {
  if (ts_node_is_null(callee)) return false;
  /* `self.infer(x)` whose method returns `self.module_(x)`: the module's call */
  TSNode delegated = facts_delegated_model(self, callee);
  if (!ts_node_is_null(delegated)) callee = delegated;
  if (NODE_IS(callee, "identifier") && names_file_class(self, callee)) return false;
  if (facts_is_model(self, callee)) {
    /* `mlp(in_dim, dims, out_dim)` calling the file's builder of a module
     * builds one, whatever else the name is bound to (its own local `mlp =
     * nn.ModuleList()`): no forward pass */
    if (NODE_IS(callee, "identifier")) {
      int g = facts_function_named(self, callee);
      if (g >= 0 && self->functions.items[g].returns_model && self->functions.items[g].klass < 0 &&
          facts_function_at(self, ts_node_start_byte(callee)) != g)
        return false;
    }
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
  if (takes_text(self, callee)) return false;
  if (forward_like(self, attr)) return !self_free_method(self, attr);
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
  /* a function of the file or the project that backpropagates, or takes
   * gradients (`autograd_gradients(loss, params)` wrapping
   * `torch.autograd.grad`: a gradient-alignment score) */
  int g = facts_function_named(f, fn);
  if (g >= 0) return f->functions.items[g].backward || f->functions.items[g].gradients;
  facts_symbol sym;
  if (f->imports && facts_project_symbol(f, fn, &sym) && (sym.flags & SYM_FUNCTION) &&
      (sym.flags & (SYM_BACKWARD | SYM_GRADIENTS)))
    return true;
  /* an optimizer stepped, or handed to a helper (`loss_scaler(loss, optimizer)`) */
  uint32_t len;
  TSNode args = FIELD(call, arguments);
  const char *t = facts_text(f, args, &len);
  if (facts_text_has_ci(t, len, "optim")) return true;
  /* `self.optimize(self.gen_adv_opt, loss)`: an argument named as an
   * optimizer (`opt`, `opt_g`, `gen_adv_opt`), not `options` */
  uint32_t nargs = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < nargs; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "attribute")) a = FIELD(a, attribute);
    if (ts_node_is_null(a) || !NODE_IS(a, "identifier")) continue;
    uint32_t al;
    const char *an = facts_text(f, a, &al);
    if ((al == 3 && !strncasecmp(an, "opt", 3)) || (al > 4 && !strncasecmp(an, "opt_", 4)) ||
        (al > 4 && !strncasecmp(an + al - 4, "_opt", 4)))
      return true;
  }
  if (NODE_IS(fn, "attribute") && facts_node_is(f, FIELD(fn, attribute), "step")) {
    t = facts_text(f, FIELD(fn, object), &len);
    if (facts_text_has_ci(t, len, "opt") || facts_text_has_ci(t, len, "scaler")) return true;
  }
  if (!NODE_IS(fn, "attribute")) return false;
  return facts_qualname(f, fn, tmp) &&
         (!strcmp(buf_str(tmp), "torch.autograd.backward") || !strcmp(buf_str(tmp), "torch.autograd.grad"));
}


bool facts_backward_follows(const facts *self, uint32_t pos) {
  int fn = facts_function_at(self, pos);
  /* a function whose caller backpropagates what it computes (a Pyro model
   * handed to the ELBO whose loss is backpropagated) */
  for (int g = fn; g >= 0; g = self->functions.items[g].parent)
    if (self->functions.items[g].differentiated || self->functions.items[g].feeds_loss) return true;
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
