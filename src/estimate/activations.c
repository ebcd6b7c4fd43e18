/* This file contains the activations estimate's entry points: forward() of the models the file
 * calls, run by the interpreter on tensors of known shape and dtype, one pass per call, with
 * no_grad, autocast and checkpoint, and the results per model (activations.h). */
#include "estimate/act.h"

#include <assert.h>
#include <string.h>

#include "parse/fields.h"

/* ---- entry points ---- */

void act_begin(interp *st) {
  act_state *A = arena_alloc(st->a, sizeof *A);
  memset(A, 0, sizeof *A);
  A->cur = -1;
  st->act = A;
}


void act_register_buffer(interp *st, obj *m, args *a) {
  value *name = arg_get(a, 0, "name"), *t = arg_get(a, 1, "tensor");
  if (!name || name->kind != V_STR || !t) return;
  if (!st_may_mutate(st, m->birth)) {
    st_blocked(st, a->node, "a buffer is registered");
    return;
  }
  dict_set(st, m->attrs, name, t);
  if (t->kind == V_TENSOR) {
    uint32_t s = act_info_of(st, t).storage; /* may grow the storages */
    st->act->storages.items[s].resident = true;
  }
}


void act_factory(interp *st, value *t, args *a) {
  if (!st->act || t->kind != V_TENSOR || !act_flag_of(arg_get(a, -1, "requires_grad"), false)) return;
  act_info_of(st, t);
  act_map_get(st->act, t->u.tensor)->grad = true;
}


void act_keep_ctor(interp *st, obj *m, const args *a) {
  args *c = arena_alloc(st->a, sizeof *c);
  *c = *a;
  m->ctor = c;
}


static value *run_module(interp *st, obj *m, args *a) {
  if (m->klass) {
    klass *found = NULL;
    value *fn = class_attr(st, m->klass, "forward", 7, &found);
    if (fn && fn->kind == V_FUNCTION) {
      value *b = v_new(st, V_FUNCTION);
      *b = *fn;
      b->u.fn.self = v_obj(st, m);
      b->u.fn.owner = found;
      return call_value(st, b, a);
    }
  }
  if (m->qual &&
      (!strcmp(m->qual, "torch.nn.Sequential") || !strcmp(m->qual, "torch.nn.modules.container.Sequential")) &&
      m->items) {
    value *x = a->pos.len ? a->pos.items[0] : NULL;
    if (!x) return v_unknown(st, "a Sequential called without an input");
    for (uint32_t i = 0; i < m->items->items.len && x->kind != V_UNKNOWN; i++) {
      value *c = m->items->items.items[i];
      if (c->kind != V_OBJECT || c->u.obj->kind != OBJ_MODULE)
        return v_unknown(st, "a Sequential of something not a module");
      x = act_one(st, c->u.obj, x, a->node);
    }
    return x;
  }
  if (m->layer || (m->qual && !strncmp(m->qual, "torch.nn.", 9))) return act_layer_forward(st, m, a);
  return v_unknown(st, "line %u: the forward of `%s` is not known", act_line_of(st, m->site),
                   m->type ? m->type : "a module");
}


static void root_unknown(interp *st, obj *m, const char *why) {
  act_state *A = st->act;
  for (uint32_t i = 0; i < A->whys.len; i++)
    if (A->whys.items[i].root == m) return;
  root_why w = {m, why};
  avec_push(st->a, &A->whys, w);
}


static bool same_shape(const shape *a, const shape *b) {
  if (a->ndim != b->ndim || a->bits != b->bits) return false;
  for (int i = 0; i < a->ndim; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}


value *act_module_call(interp *st, obj *m, args *a) {
  act_state *A = st->act;
  if (!A->nframes && !m->klass && m->qual && layer_is_free(m->qual)) {
    /* a loss or activation module called on a model's output: part of that model's pass */
    return act_layer_forward(st, m, a);
  }
  if (!A->nframes) {
    module_record_input(st, m, a);
    value *x = act_first_tensor(a);
    if (!x || !act_known(x->u.tensor)) {
      value *u = a->pos.len ? a->pos.items[0] : NULL;
      if (u && u->kind == V_UNKNOWN && !ts_node_is_null(a->node)) {
        buf b = {0};
        buf_printf(&b, "line %u: the input of `%s` is not known: %s", act_line_of(st, a->node),
                   act_call_label(st, a->node), u->why ? u->why : "a value that is not known");
        root_unknown(st, m, st_strdup(st, b.data, b.len));
        buf_free(&b);
      }
      return v_unknown(st, "the output of a model");
    }
    /* a training loop calls the model again with the same shapes: the same pass */
    for (uint32_t i = A->passes.len; i-- > 0;) {
      pass_t *q = &A->passes.items[i];
      if (q->root == m && q->out && ts_node_eq(q->site, a->node) && q->bits == A->autocast_bits &&
          q->no_grad == (A->no_grad != 0) && same_shape(&q->in, x->u.tensor)) {
        q->sealed = true;
        return q->out;
      }
    }
    pass_t p;
    memset(&p, 0, sizeof p);
    p.root = m;
    p.site = a->node;
    p.in = *x->u.tensor;
    p.no_grad = A->no_grad != 0;
    p.micro = x->u.tensor->ndim ? x->u.tensor->dims[0] : -1;
    p.bits = A->autocast_bits;
    p.recompute = 0;
    avec_push(st->a, &A->passes, p);
    A->cur = (int32_t)A->passes.len - 1;
    /* the inputs are the batch: counted in its own line of the whole step */
    for (uint32_t i = 0; i < a->pos.len; i++)
      if (a->pos.items[i]->kind == V_TENSOR) {
        uint32_t s = act_info_of(st, a->pos.items[i]).storage; /* may grow the storages */
        A->storages.items[s].input = true;
      }
  }
  if (A->nframes >= ACT_MAX_FRAMES) return v_unknown(st, "modules nested too deeply to follow");
  A->frames[A->nframes++] = m;
  int32_t pass = A->cur;
  value *out = run_module(st, m, a);
  A->nframes--;
  if (!A->nframes) {
    A->cur = -1;
    if (pass >= 0) A->passes.items[pass].out = out;
    /* (logits, act_loss): the first item says whether forward() was followed */
    value *first = out;
    if ((out->kind == V_TUPLE || out->kind == V_LIST) && out->u.seq->items.len) first = out->u.seq->items.items[0];
    if (first->kind == V_UNKNOWN && pass >= 0 && !A->passes.items[pass].why)
      A->passes.items[pass].why = first->why ? first->why : "the output of its forward() is not known";
  }
  return out;
}


/* ---- contexts ---- */

value *act_context(interp *st, const char *qual, args *a) {
  obj *o = obj_new(st, OBJ_EXTERN, "context");
  o->qual = qual;
  o->args = seq_new(st);
  for (uint32_t i = 0; i < a->pos.len; i++) avec_push(st->a, &o->args->items, a->pos.items[i]);
  value *dt = arg_get(a, -1, "dtype");
  if (dt) dict_set_str(st, o->attrs, "dtype", dt);
  value *en = arg_get(a, -1, "enabled");
  if (en) dict_set_str(st, o->attrs, "enabled", en);
  return v_obj(st, o);
}


int act_with_enter(interp *st, value *ctx) {
  act_state *A = st->act;
  if (!A) return 0;
  int token = A->no_grad | A->autocast_bits << 8;
  if (ctx->kind != V_OBJECT || ctx->u.obj->kind != OBJ_EXTERN || strcmp(ctx->u.obj->type, "context") != 0)
    return token;
  const char *q = ctx->u.obj->qual;
  const char *last = strrchr(q, '.') + 1;
  if (!strcmp(last, "no_grad") || !strcmp(last, "inference_mode")) A->no_grad = 1;
  else if (!strcmp(last, "enable_grad")) A->no_grad = 0;
  else if (!strcmp(last, "autocast")) {
    value *en = dict_get_str(ctx->u.obj->attrs, "enabled", 7);
    bool on = act_flag_of(en, true);
    value *dt = dict_get_str(ctx->u.obj->attrs, "dtype", 5);
    int bits = 16;
    const char *dn;
    /* torch.autocast("cpu") defaults to bfloat16, "cuda" to float16: both 16 bits */
    if (dt && dt->kind == V_EXTERN) torch_dtype(dt->u.ext, strlen(dt->u.ext), &bits, &dn);
    A->autocast_bits = on ? bits : 0;
    if (A->autocast_bits == 32) A->autocast_bits = 0;
  }
  return token;
}


/* Whether call N names a grad-mode or autocast context: evaluating it is pure. */
static bool context_call(interp *st, TSNode n) {
  TSNode fn = ts_node_child_by_field_name(n, "function", 8);
  if (ts_node_is_null(fn)) return false;
  uint32_t len;
  const char *t = st_text(st, fn, &len);
  static const char *const tails[] = {"no_grad", "inference_mode", "enable_grad", "autocast", NULL};
  for (size_t i = 0; tails[i]; i++) {
    size_t k = strlen(tails[i]);
    if (len >= k && !memcmp(t + len - k, tails[i], k) && (len == k || t[len - k - 1] == '.')) return true;
  }
  return false;
}


flow act_with(interp *st, scope *sc, TSNode n, flow (*run)(interp *, scope *, TSNode)) {
  act_state *A = st->act;
  if (!A) return run(st, sc, n);
  int token = A->no_grad | A->autocast_bits << 8;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode clause = ts_node_named_child(n, i);
    if (!NODE_IS(clause, "with_clause")) continue;
    uint32_t items = ts_node_named_child_count(clause);
    for (uint32_t k = 0; k < items; k++) {
      TSNode v = ts_node_child_by_field_name(ts_node_named_child(clause, k), "value", 5);
      if (!ts_node_is_null(v) && NODE_IS(v, "as_pattern") && ts_node_named_child_count(v)) v = ts_node_named_child(v, 0);
      if (ts_node_is_null(v)) continue;
      value *cm = NULL;
      if (NODE_IS(v, "identifier")) {
        uint32_t len;
        const char *name = st_text(st, v, &len);
        cm = scope_get(st, sc, name, len);
      } else if (NODE_IS(v, "call") && context_call(st, v)) {
        cm = eval(st, sc, v); /* makes a context object and nothing else */
      }
      if (cm) act_with_enter(st, cm);
    }
  }
  flow fl = run(st, sc, n);
  act_with_exit(st, token);
  return fl;
}


int act_enter_function(interp *st, TSNode def) {
  act_state *A = st->act;
  if (!A) return 0;
  int token = A->no_grad | A->autocast_bits << 8;
  TSNode parent = ts_node_parent(def);
  if (ts_node_is_null(parent) || !NODE_IS(parent, "decorated_definition")) return token;
  uint32_t n = ts_node_named_child_count(parent);
  for (uint32_t i = 0; i < n; i++) {
    TSNode d = ts_node_named_child(parent, i);
    if (!NODE_IS(d, "decorator")) continue;
    uint32_t len;
    const char *text = st_text(st, d, &len);
    for (uint32_t k = 0; k + 8 <= len; k++)
      if (!memcmp(text + k, "no_grad", 7) || (k + 14 <= len && !memcmp(text + k, "inference_mode", 14))) A->no_grad = 1;
  }
  return token;
}


void act_with_exit(interp *st, int token) {
  if (!st->act) return;
  st->act->no_grad = token & 0xff;
  st->act->autocast_bits = token >> 8;
}


value *act_checkpoint(interp *st, args *a) {
  act_state *A = st->act;
  if (!a->pos.len) return NULL;
  args b;
  memset(&b, 0, sizeof b);
  b.node = a->node;
  for (uint32_t i = 1; i < a->pos.len; i++) avec_push(st->a, &b.pos, a->pos.items[i]);
  for (uint32_t i = 0; i < a->kwnames.len; i++) {
    str k = a->kwnames.items[i];
    if ((k.n == 13 && !memcmp(k.s, "use_reentrant", 13)) || (k.n == 18 && !memcmp(k.s, "preserve_rng_state", 18)))
      continue;
    avec_push(st->a, &b.kwnames, k);
    avec_push(st->a, &b.kwvals, a->kwvals.items[i]);
  }
  int32_t pass = A->nframes ? A->cur : -1;
  int64_t before = A->ckpt_bytes;
  if (!A->ckpt) A->ckpt_bytes = 0;
  A->ckpt++;
  value *out = call_value(st, a->pos.items[0], &b);
  A->ckpt--;
  int64_t seg = A->ckpt_bytes;
  if (A->ckpt) A->ckpt_bytes = before + seg;
  if (pass >= 0 && !A->ckpt) {
    pass_t *p = &A->passes.items[pass];
    p->checkpointed = true;
    if (seg > p->recompute) p->recompute = seg;
    /* the segment keeps only its inputs */
    row_t *row = act_row_at(st, pass, act_line_of(st, a->node), "torch.utils.checkpoint: inputs");
    row->times++;
    for (uint32_t i = 0; i < b.pos.len; i++) {
      value *x = b.pos.items[i];
      if (x->kind == V_TENSOR && act_info_of(st, x).grad) {
        buf what = {0};
        act_keep_value(st, pass, row, x, "input", &what);
        if (!row->what && what.len) row->what = st_strdup(st, what.data, what.len);
        buf_free(&what);
      }
    }
  }
  return out;
}


/* ---- results ---- */

static int64_t global_int(interp *st, const char *const *names, int64_t max) {
  for (size_t i = 0; names[i]; i++) {
    value *v = scope_get(st, st->globals, names[i], (uint32_t)strlen(names[i]));
    int64_t n;
    if (v && v_as_int(v, &n) && n >= 1 && n <= max) return n;
  }
  return 1;
}


int64_t act_world_size(interp *st) {
  static const char *const names[] = {"world_size", "WORLD_SIZE", "num_gpus", "n_gpus", "ngpus", "num_processes", NULL};
  return global_int(st, names, 1 << 20);
}


int64_t act_accumulation(interp *st) {
  static const char *const names[] = {"gradient_accumulation_steps", "grad_accum_steps", "accumulation_steps",
                                      "accum_steps", "accum_iter", "grad_accum", "gradient_accumulation", NULL};
  return global_int(st, names, 1 << 20);
}


static bool source_has(interp *st, const char *needle) {
  size_t n = strlen(needle);
  for (size_t i = 0; i + n <= st->len; i++)
    if (st->src[i] == needle[0] && !memcmp(st->src + i, needle, n)) return true;
  return false;
}


void act_fill(interp *st, obj *m, estimate_model *out) {
  act_state *A = st->act;
  out->activations_bytes = -1;
  out->micro_batch = -1;
  out->act_why = NULL;
  int32_t best = -1;
  for (uint32_t i = 0; i < A->passes.len; i++) {
    pass_t *p = &A->passes.items[i];
    if (p->root != m) continue;
    /* a complete pass beats an incomplete one; then the largest */
    if (best < 0 || (!p->why && A->passes.items[best].why) ||
        (!p->why == !A->passes.items[best].why && p->total > A->passes.items[best].total))
      best = (int32_t)i;
  }
  if (best < 0) {
    for (uint32_t i = 0; i < A->whys.len; i++)
      if (A->whys.items[i].root == m) out->act_why = A->whys.items[i].why;
    if (!out->act_why) out->act_why = "the file never calls this model on a tensor whose shape is known";
    return;
  }
  pass_t *p = &A->passes.items[best];
  out->micro_batch = p->micro;
  out->activations_partial = p->total;
  out->activations_input = p->input_saved;
  out->recompute_bytes = p->recompute;
  out->transient_bytes = p->transient;
  /* PyTorch 2.x frees gradients in zero_grad() unless told not to */
  out->grads_resident = source_has(st, "set_to_none=False");
  out->checkpointed = p->checkpointed;
  out->act_bits = p->bits;
  if (p->why) out->act_why = p->why;
  else out->activations_bytes = p->total;
  AVEC(estimate_act) rows = {0};
  for (uint32_t i = 0; i < A->rows.len; i++) {
    row_t *r = &A->rows.items[i];
    if (r->pass != best || (!r->bytes && !r->what)) continue;
    estimate_act e = {r->line, r->label, r->what ? r->what : "", r->times, r->bytes};
    avec_push(st->a, &rows, e);
  }
  out->acts = rows.items;
  out->nacts = rows.len;
}
