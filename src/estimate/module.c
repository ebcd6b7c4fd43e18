/* This file contains nn.Module instances and tensors: walking each registered parameter once,
 * module and tensor methods, deep copies, and the input batch a model is called with. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/activations.h"
#include "estimate/interp.h"

#define MAX_MODULE_DEPTH 64


/* ---- a set of pointers: each module and parameter is visited once ---- */

typedef struct {
  const void **slots;
  uint32_t cap, used;
} ptrset;


static uint32_t ptr_hash(const void *p, uint32_t cap) {
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(h >> 32) & (cap - 1);
}


static bool ptrset_add(interp *st, ptrset *s, const void *p) {
  if ((s->used + 1) * 2 > s->cap) {
    uint32_t ncap = s->cap ? s->cap * 2 : 64;
    const void **ns = arena_calloc(st->a, ncap * sizeof *ns);
    for (uint32_t i = 0; i < s->cap; i++) {
      if (!s->slots[i]) continue;
      uint32_t k = ptr_hash(s->slots[i], ncap);
      while (ns[k]) k = (k + 1) & (ncap - 1);
      ns[k] = s->slots[i];
    }
    s->slots = ns;
    s->cap = ncap;
  }
  uint32_t k = ptr_hash(p, s->cap);
  while (s->slots[k]) {
    if (s->slots[k] == p) return false;
    k = (k + 1) & (s->cap - 1);
  }
  s->slots[k] = p;
  s->used++;
  return true;
}


/* ---- walking a module ---- */

typedef struct {
  interp *st;
  ptrset seen;
  void (*on_param)(void *ctx, param *p, const char *path);
  void (*on_module)(void *ctx, obj *m, const char *path);
  void *ctx;
  bool children_only;
} walker;


static const char *join_path(interp *st, const char *base, const char *name, size_t n) {
  buf b = {0};
  if (base && *base) buf_printf(&b, "%s.", base);
  buf_append(&b, name, n);
  const char *s = st_strdup(st, buf_str(&b), b.len);
  buf_free(&b);
  return s;
}


static bool is_module(const value *v) {
  return v->kind == V_OBJECT && v->u.obj->kind == OBJ_MODULE;
}


static void walk(walker *w, obj *m, const char *path, int depth) {
  if (depth > MAX_MODULE_DEPTH) return;
  if (w->on_module) w->on_module(w->ctx, m, path);
  dict *d = m->attrs;
  for (uint32_t i = 0; i < d->keys.len; i++) {
    value *v = d->vals.items[i];
    if (v->kind == V_PARAM && ptrset_add(w->st, &w->seen, v->u.param) && w->on_param) {
      value *k = d->keys.items[i];
      w->on_param(w->ctx, v->u.param, join_path(w->st, path, k->u.s.s, k->u.s.n));
    }
  }
  if (m->items) {
    for (uint32_t i = 0; i < m->items->items.len; i++) {
      value *v = m->items->items.items[i];
      char idx[16];
      snprintf(idx, sizeof idx, "%u", i);
      if (v->kind == V_PARAM && ptrset_add(w->st, &w->seen, v->u.param) && w->on_param)
        w->on_param(w->ctx, v->u.param, join_path(w->st, path, idx, strlen(idx)));
    }
  }
  for (uint32_t i = 0; i < d->keys.len; i++) {
    value *v = d->vals.items[i];
    if (is_module(v) && ptrset_add(w->st, &w->seen, v->u.obj)) {
      value *k = d->keys.items[i];
      walk(w, v->u.obj, join_path(w->st, path, k->u.s.s, k->u.s.n), depth + 1);
    }
  }
  if (m->items) {
    for (uint32_t i = 0; i < m->items->items.len; i++) {
      value *v = m->items->items.items[i];
      char idx[16];
      snprintf(idx, sizeof idx, "%u", i);
      if (is_module(v) && ptrset_add(w->st, &w->seen, v->u.obj))
        walk(w, v->u.obj, join_path(w->st, path, idx, strlen(idx)), depth + 1);
    }
  }
}


void module_params(interp *st, obj *m, void (*visit)(void *ctx, param *p, const char *path), void *ctx) {
  walker w = {st, {0}, visit, NULL, ctx, false};
  ptrset_add(st, &w.seen, m);
  walk(&w, m, "", 0);
}


void module_each(interp *st, obj *m, void (*visit)(void *ctx, obj *child, const char *path), void *ctx) {
  walker w = {st, {0}, NULL, visit, ctx, false};
  ptrset_add(st, &w.seen, m);
  walk(&w, m, "", 0);
}


typedef struct {
  interp *st;
  value *list;
  bool named;
} collect;


static void collect_param(void *ctx, param *p, const char *path) {
  collect *c = ctx;
  value *pv = v_new(c->st, V_PARAM);
  pv->u.param = p;
  if (!c->named) {
    avec_push(c->st->a, &c->list->u.seq->items, pv);
    return;
  }
  value *t = v_list(c->st, V_TUPLE);
  avec_push(c->st->a, &t->u.seq->items, v_str(c->st, path, (uint32_t)strlen(path)));
  avec_push(c->st->a, &t->u.seq->items, pv);
  avec_push(c->st->a, &c->list->u.seq->items, t);
}


static void collect_module(void *ctx, obj *m, const char *path) {
  collect *c = ctx;
  value *mv = v_obj(c->st, m);
  if (!c->named) {
    avec_push(c->st->a, &c->list->u.seq->items, mv);
    return;
  }
  value *t = v_list(c->st, V_TUPLE);
  avec_push(c->st->a, &t->u.seq->items, v_str(c->st, path, (uint32_t)strlen(path)));
  avec_push(c->st->a, &t->u.seq->items, mv);
  avec_push(c->st->a, &c->list->u.seq->items, t);
}


seq *torch_iter_items(interp *st, value *it) {
  obj *m = it->u.iter.module;
  int what = it->u.iter.what;
  collect c = {st, v_list(st, V_LIST), what == ITER_NAMED_PARAMETERS || what == ITER_NAMED_MODULES ||
                                           what == ITER_NAMED_CHILDREN};
  if (what == ITER_PARAMETERS || what == ITER_NAMED_PARAMETERS) {
    module_params(st, m, collect_param, &c);
  } else if (what == ITER_MODULES || what == ITER_NAMED_MODULES) {
    module_each(st, m, collect_module, &c);
  } else {
    for (uint32_t i = 0; i < m->attrs->keys.len; i++) {
      value *v = m->attrs->vals.items[i];
      value *k = m->attrs->keys.items[i];
      if (is_module(v)) collect_module(&c, v->u.obj, st_strdup(st, k->u.s.s, k->u.s.n));
    }
    for (uint32_t i = 0; m->items && i < m->items->items.len; i++) {
      value *v = m->items->items.items[i];
      char idx[16];
      snprintf(idx, sizeof idx, "%u", i);
      if (is_module(v)) collect_module(&c, v->u.obj, st_strdup(st, idx, strlen(idx)));
    }
  }
  return c.list->u.seq;
}


/* ---- dtypes ---- */

bool torch_dtype(const char *s, size_t n, int *bits, const char **name) {
  static const struct { const char *spelling; int bits; const char *name; } table[] = {
    {"float32", 32, "float32"}, {"float", 32, "float32"}, {"fp32", 32, "float32"},
    {"float16", 16, "float16"}, {"half", 16, "float16"}, {"fp16", 16, "float16"},
    {"bfloat16", 16, "bfloat16"}, {"bf16", 16, "bfloat16"},
    {"float64", 64, "float64"}, {"double", 64, "float64"},
    {"int8", 8, "int8"}, {"uint8", 8, "uint8"}, {"int16", 16, "int16"}, {"int32", 32, "int32"},
    {"int", 32, "int32"}, {"int64", 64, "int64"}, {"long", 64, "int64"}, {"bool", 8, "bool"},
    {"float8_e4m3fn", 8, "float8"}, {"float8_e5m2", 8, "float8"}};
  if (n > 6 && !memcmp(s, "torch.", 6)) s += 6, n -= 6;
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (strlen(table[i].spelling) == n && !memcmp(table[i].spelling, s, n)) {
      *bits = table[i].bits;
      *name = table[i].name;
      return true;
    }
  return false;
}


static bool value_dtype(const value *v, int *bits, const char **name) {
  if (v->kind == V_EXTERN) return torch_dtype(v->u.ext, strlen(v->u.ext), bits, name);
  if (v->kind == V_STR) return torch_dtype(v->u.s.s, v->u.s.n, bits, name);
  return false;
}


/* ---- module methods ---- */

typedef struct {
  interp *st;
  int bits;
  const char *dtype;
  int trainable; /* -1 leave */
  TSNode where;
  bool blocked;
} param_change;


static void change_param(void *ctx, param *p, const char *path) {
  (void)path;
  param_change *c = ctx;
  if (!st_may_mutate(c->st, p->birth)) {
    c->blocked = true;
    return;
  }
  if (c->bits) {
    p->bits = c->bits;
    p->dtype = c->dtype;
  }
  if (c->trainable >= 0) p->trainable = c->trainable;
}


static void change_all(interp *st, obj *m, int bits, const char *dtype, int trainable, TSNode where) {
  param_change c = {st, bits, dtype, trainable, where, false};
  module_params(st, m, change_param, &c);
  if (c.blocked) st_blocked(st, where, bits ? "the model's dtype is changed" : "`requires_grad` is changed");
}


static value *container_add(interp *st, obj *m, value *x, TSNode where) {
  if (!st_may_mutate(st, m->birth)) {
    st_blocked(st, where, "a layer is added to a container");
    return st->none;
  }
  if (!m->items) m->items = seq_new(st);
  avec_push(st->a, &m->items->items, x);
  return st->none;
}


static obj *submodule(interp *st, obj *m, const value *path) {
  if (path->kind != V_STR) return NULL;
  const char *s = path->u.s.s, *end = s + path->u.s.n;
  while (m && s < end) {
    const char *dot = memchr(s, '.', (size_t)(end - s));
    size_t n = dot ? (size_t)(dot - s) : (size_t)(end - s);
    value *v = dict_get_str(m->attrs, s, n);
    if (!v && m->items) {
      char idx[16];
      if (n < sizeof idx) {
        memcpy(idx, s, n);
        idx[n] = '\0';
        long i = strtol(idx, NULL, 10);
        if (i >= 0 && (uint32_t)i < m->items->items.len) v = m->items->items.items[i];
      }
    }
    m = v && is_module(v) ? v->u.obj : NULL;
    s = dot ? dot + 1 : end;
  }
  (void)st;
  return m;
}


value *torch_module_attr(interp *st, obj *m, const char *name, uint32_t n) {
  static const char *const methods[] = {
    "parameters", "named_parameters", "modules", "named_modules", "children", "named_children", "buffers",
    "named_buffers", "to", "cuda", "cpu", "half", "float", "bfloat16", "double", "type", "train", "eval",
    "requires_grad_", "apply", "add_module", "register_module", "register_parameter", "register_buffer",
    "get_submodule", "get_parameter", "append", "extend", "insert", "items", "keys", "values", "update", "pop",
    "forward", "zero_grad", "state_dict", "load_state_dict", "share_memory", "to_empty",
    "gradient_checkpointing_enable", "enable_input_require_grads", "print_trainable_parameters", "tie_weights",
    "resize_token_embeddings", "save_pretrained", "register_forward_hook", "register_full_backward_hook",
    "register_backward_hook", "register_forward_pre_hook", "num_parameters", "__init__", "fuse_qkv", NULL};
  for (size_t i = 0; methods[i]; i++)
    if (strlen(methods[i]) == n && !memcmp(methods[i], name, n)) {
      value *mv = v_new(st, V_METHOD);
      mv->u.method.self = v_obj(st, m);
      mv->u.method.name = methods[i];
      return mv;
    }
  if (n == 8 && !memcmp(name, "training", 8)) return v_unknown(st, "whether the model is training");
  return v_unknown(st, "`%s.%.*s` is not known", m->type ? m->type : "module", (int)n, name);
}


static value *make_iter(interp *st, obj *m, int what) {
  value *it = v_new(st, V_ITER);
  it->u.iter.module = m;
  it->u.iter.what = what;
  return it;
}


value *torch_module_method(interp *st, value *self, obj *m, const char *name, args *a) {
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  if (!strcmp(name, "parameters")) return make_iter(st, m, ITER_PARAMETERS);
  if (!strcmp(name, "named_parameters")) return make_iter(st, m, ITER_NAMED_PARAMETERS);
  if (!strcmp(name, "modules")) return make_iter(st, m, ITER_MODULES);
  if (!strcmp(name, "named_modules")) return make_iter(st, m, ITER_NAMED_MODULES);
  if (!strcmp(name, "children")) return make_iter(st, m, ITER_CHILDREN);
  if (!strcmp(name, "named_children")) return make_iter(st, m, ITER_NAMED_CHILDREN);
  if (!strcmp(name, "buffers") || !strcmp(name, "named_buffers")) return v_list(st, V_LIST);
  if (!strcmp(name, "register_buffer")) {
    act_register_buffer(st, m, a); /* activations.c */
    return st->none;
  }
  int bits = 0;
  const char *dtype = NULL;
  if (!strcmp(name, "half")) bits = 16, dtype = "float16";
  else if (!strcmp(name, "bfloat16")) bits = 16, dtype = "bfloat16";
  else if (!strcmp(name, "float")) bits = 32, dtype = "float32";
  else if (!strcmp(name, "double")) bits = 64, dtype = "float64";
  else if (!strcmp(name, "to") || !strcmp(name, "type")) {
    value *d = arg_get(a, -1, "dtype");
    for (uint32_t i = 0; !d && i < a->pos.len; i++)
      if (value_dtype(a->pos.items[i], &bits, &dtype)) d = a->pos.items[i];
    if (d && !value_dtype(d, &bits, &dtype)) {
      st_note(st, a->node, "%s: counted in its old dtype", "the model is moved to a dtype that is not known");
      bits = 0;
    }
  }
  if (bits) {
    change_all(st, m, bits, dtype, -1, a->node);
    return self;
  }
  if (!strcmp(name, "to") || !strcmp(name, "type") || !strcmp(name, "cuda") || !strcmp(name, "cpu") ||
      !strcmp(name, "train") || !strcmp(name, "eval") || !strcmp(name, "share_memory") || !strcmp(name, "to_empty"))
    return self;
  if (!strcmp(name, "requires_grad_")) {
    value *r = arg_get(a, 0, "requires_grad");
    bool t = true;
    if (r && !v_truth(r, &t)) {
      st_note(st, a->node, "%s: counted as trainable", "`requires_grad_` is given a value that is not known");
      return self;
    }
    change_all(st, m, 0, NULL, t, a->node);
    return self;
  }
  if (!strcmp(name, "apply") && x) {
    collect c = {st, v_list(st, V_LIST), false};
    module_each(st, m, collect_module, &c);
    /* children first, as nn.Module.apply does */
    for (uint32_t i = c.list->u.seq->items.len; i-- > 0 && !st->stopped;) {
      args one;
      memset(&one, 0, sizeof one);
      one.node = a->node;
      avec_push(st->a, &one.pos, c.list->u.seq->items.items[i]);
      call_value(st, x, &one);
    }
    return self;
  }
  if ((!strcmp(name, "add_module") || !strcmp(name, "register_module") || !strcmp(name, "register_parameter")) &&
      a->pos.len == 2) {
    value *k = a->pos.items[0];
    /* a Sequential's or ModuleList's children run in the order they were registered
     * (`self.slice1.add_module(str(x), features[x])`) */
    if (m->items && k->kind == V_STR && !strcmp(name, "add_module")) return container_add(st, m, a->pos.items[1], a->node);
    if (k->kind == V_STR) set_attr(st, self, k->u.s.s, k->u.s.n, a->pos.items[1], a->node);
    else st_note(st, a->node, "%s: not counted", "a layer is registered under a name that is not known");
    return st->none;
  }
  if (!strcmp(name, "get_submodule") && x) {
    obj *sub = submodule(st, m, x);
    return sub ? v_obj(st, sub) : v_unknown(st, "a submodule that is not known");
  }
  if (!strcmp(name, "append") && x) return container_add(st, m, x, a->node);
  if (!strcmp(name, "extend") && x) {
    seq *items = v_iterate(st, x);
    if (!items) {
      st_note(st, a->node, "%s: not counted", "a container is extended with layers that are not known");
      return st->none;
    }
    for (uint32_t i = 0; i < items->items.len; i++) container_add(st, m, items->items.items[i], a->node);
    return st->none;
  }
  if (!strcmp(name, "insert") && a->pos.len == 2) return container_add(st, m, a->pos.items[1], a->node);
  if (!strcmp(name, "items") || !strcmp(name, "keys") || !strcmp(name, "values")) {
    value *l = v_list(st, V_LIST);
    for (uint32_t i = 0; i < m->attrs->keys.len; i++) {
      value *k = m->attrs->keys.items[i], *v = m->attrs->vals.items[i];
      if (!is_module(v) && v->kind != V_PARAM) continue;
      value *item = name[0] == 'k' ? k : v;
      if (name[0] == 'i') {
        item = v_list(st, V_TUPLE);
        avec_push(st->a, &item->u.seq->items, k);
        avec_push(st->a, &item->u.seq->items, v);
      }
      avec_push(st->a, &l->u.seq->items, item);
    }
    return l;
  }
  if (!strcmp(name, "update") && x && x->kind == V_DICT) {
    for (uint32_t i = 0; i < x->u.dict->keys.len; i++) {
      value *k = x->u.dict->keys.items[i];
      if (k->kind == V_STR) set_attr(st, self, k->u.s.s, k->u.s.n, x->u.dict->vals.items[i], a->node);
    }
    return st->none;
  }
  if (!strcmp(name, "forward")) {
    module_record_input(st, m, a);
    return v_unknown(st, "the output of a model");
  }
  return v_unknown(st, "the result of `.%s()`", name);
}


/* ---- tensors ---- */

static value *tensor_like(interp *st, const shape *sh, int bits) {
  value *t = v_new(st, V_TENSOR);
  t->u.tensor = shape_new(st, sh->ndim);
  *t->u.tensor = *sh;
  if (bits) t->u.tensor->bits = bits;
  return t;
}


/* The shape methods of a tensor whose shape is known only in part (a corpus of tokens
 * whose length only the data knows, laid out as `data.narrow(0, 0, n * bsz).view(bsz,
 * -1).t()`): the dimensions that are known stay known. The activations estimate does
 * tensors of known shape; a slice to a known length (act_subscript) makes one. NULL
 * when NAME is not one of these, or the shape is known in full (activations.c did it). */
static value *partial_shape_method(interp *st, value *self, const shape *sh, const char *name, args *a) {
  if (self->kind != V_TENSOR || sh->ndim < 1) return NULL;
  bool partial = false;
  for (int i = 0; i < sh->ndim; i++) partial |= sh->dims[i] < 0;
  if (!partial && sh->bits != EST_BITS_UNKNOWN) return NULL;
  shape o = *sh;
  int64_t d0, d1;
  if (!strcmp(name, "narrow") && a->pos.len == 3) {
    /* narrow(dim, start, length) */
    if (!v_as_int(a->pos.items[0], &d0)) return v_unknown(st, "a narrow() along a dimension not known");
    if (d0 < 0) d0 += sh->ndim;
    if (d0 < 0 || d0 >= sh->ndim) return v_unknown(st, "a narrow() out of range");
    if (!v_as_int(a->pos.items[2], &o.dims[d0]) || o.dims[d0] < 0) o.dims[d0] = -1;
    return tensor_like(st, &o, 0);
  }
  if (!strcmp(name, "t") || !strcmp(name, "transpose") || !strcmp(name, "swapaxes")) {
    if (name[1] == 0) {
      if (sh->ndim != 2) return v_unknown(st, "t() of a tensor that is not 2-D");
      d0 = 0, d1 = 1;
    } else if (a->pos.len != 2 || !v_as_int(a->pos.items[0], &d0) || !v_as_int(a->pos.items[1], &d1)) {
      return v_unknown(st, "a transpose of dimensions not known");
    }
    if (d0 < 0) d0 += sh->ndim;
    if (d1 < 0) d1 += sh->ndim;
    if (d0 < 0 || d1 < 0 || d0 >= sh->ndim || d1 >= sh->ndim) return v_unknown(st, "a transpose out of range");
    o.dims[d0] = sh->dims[d1];
    o.dims[d1] = sh->dims[d0];
    return tensor_like(st, &o, 0);
  }
  if (!strcmp(name, "view") || !strcmp(name, "reshape")) {
    /* view(bsz, -1): the sizes given are known, the one inferred is known only when
     * every dimension of the tensor is */
    const seq *dims = a->pos.len == 1 && (a->pos.items[0]->kind == V_TUPLE || a->pos.items[0]->kind == V_LIST)
                          ? a->pos.items[0]->u.seq
                          : NULL;
    uint32_t n = dims ? dims->items.len : a->pos.len;
    if (n < 1 || n > EST_MAX_DIMS) return v_unknown(st, "a view whose shape is not known");
    o.ndim = (int)n;
    int inferred = 0;
    for (uint32_t i = 0; i < n; i++) {
      value *x = dims ? dims->items.items[i] : a->pos.items[i];
      if (x->kind == V_EXTERN) return NULL; /* view(dtype) */
      if (!v_as_int(x, &o.dims[i]) || o.dims[i] < -1) o.dims[i] = -1;
      if (o.dims[i] == -1 && ++inferred > 1) return v_unknown(st, "a view with two sizes not known");
    }
    return tensor_like(st, &o, 0);
  }
  return NULL;
}


value *torch_tensor_method(interp *st, value *self, const char *name, args *a) {
  const shape *sh = self->kind == V_PARAM ? &self->u.param->sh : self->u.tensor;
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  value *shaped = act_tensor_method(st, self, name, a); /* shapes and saved tensors: activations.c */
  if (shaped) return shaped;
  value *v;
  if (!strcmp(name, "numel")) {
    if (self->kind == V_PARAM) return v_int(st, self->u.param->count);
    if (sh->ndim < 0) return v_unknown(st, "the size of a tensor that is not known");
    int64_t n = 1;
    for (int i = 0; i < sh->ndim; i++) {
      if (sh->dims[i] < 0) return v_unknown(st, "the size of a tensor that is not known");
      n *= sh->dims[i];
    }
    return v_int(st, n);
  }
  if ((v = partial_shape_method(st, self, sh, name, a))) return v;
  if (!strcmp(name, "new_tensor")) {
    /* batch.new_tensor([0.485, 0.456, 0.406]): data in the tensor's dtype */
    v = torch_call(st, "torch.tensor", a);
    if (v->kind == V_TENSOR && !arg_get(a, -1, "dtype")) v->u.tensor->bits = sh->bits;
    return v;
  }
  if (!strcmp(name, "dim") || !strcmp(name, "ndimension")) {
    return sh->ndim < 0 ? v_unknown(st, "the rank of a tensor that is not known") : v_int(st, sh->ndim);
  }
  if (!strcmp(name, "size")) {
    int64_t i;
    if (sh->ndim < 0) return v_unknown(st, "the shape of a tensor that is not known");
    if (x && v_as_int(x, &i)) {
      if (i < 0) i += sh->ndim;
      if (i < 0 || i >= sh->ndim || sh->dims[i] < 0) return v_unknown(st, "a dimension that is not known");
      return v_int(st, sh->dims[i]);
    }
    return get_attr(st, self, "shape", 5);
  }
  if (!strcmp(name, "element_size")) {
    if (sh->bits == EST_BITS_UNKNOWN) return v_unknown(st, "the dtype of a tensor that is not known");
    return v_int(st, (sh->bits ? sh->bits : 32) / 8);
  }
  if (!strcmp(name, "requires_grad_") && self->kind == V_PARAM) {
    value *r = arg_get(a, 0, "requires_grad");
    bool t = true;
    if (r && !v_truth(r, &t)) return self;
    if (!st_may_mutate(st, self->u.param->birth)) st_blocked(st, a->node, "`requires_grad` is changed");
    else self->u.param->trainable = t;
    return self;
  }
  int bits = 0;
  const char *dn = NULL;
  if (!strcmp(name, "half")) bits = 16;
  else if (!strcmp(name, "bfloat16")) bits = 16;
  else if (!strcmp(name, "float")) bits = 32;
  else if (!strcmp(name, "double")) bits = 64;
  else if (!strcmp(name, "long")) bits = 64;
  else if (!strcmp(name, "int")) bits = 32;
  else if (!strcmp(name, "to") || !strcmp(name, "type")) {
    value *d = arg_get(a, -1, "dtype");
    for (uint32_t i = 0; !d && i < a->pos.len; i++)
      if (value_dtype(a->pos.items[i], &bits, &dn)) d = a->pos.items[i];
    if (d) value_dtype(d, &bits, &dn);
  }
  static const char *const same[] = {"detach", "clone", "contiguous", "cuda", "cpu", "to", "type", "pin_memory",
                                     "requires_grad_", "half", "bfloat16", "float", "double", "long", "int", NULL};
  for (size_t i = 0; same[i]; i++)
    if (!strcmp(name, same[i])) return tensor_like(st, sh, bits ? bits : sh->bits);
  /* in-place initialisers return the tensor itself */
  size_t n = strlen(name);
  if (n > 1 && name[n - 1] == '_') return self;
  return v_unknown(st, "the result of tensor `.%s()`", name);
}


/* ---- deep copies ---- */

typedef struct {
  AVEC(const void *) from;
  AVEC(void *) to;
} memo;


static void *memo_get(const memo *m, const void *p) {
  for (uint32_t i = m->from.len; i-- > 0;)
    if (m->from.items[i] == p) return m->to.items[i];
  return NULL;
}


static value *copy_value(interp *st, memo *mm, value *v, int depth);


static obj *copy_obj(interp *st, memo *mm, obj *o, int depth) {
  obj *done = memo_get(mm, o);
  if (done) return done;
  obj *c = arena_alloc(st->a, sizeof *c);
  *c = *o;
  avec_push(st->a, &mm->from, o);
  avec_push(st->a, &mm->to, c);
  c->birth = st_birth(st);
  c->named = false;
  c->name = NULL;
  c->prototype = false;
  c->unknowns.items = NULL;
  c->unknowns.len = c->unknowns.cap = 0;
  for (uint32_t i = 0; i < o->unknowns.len; i++) avec_push(st->a, &c->unknowns, o->unknowns.items[i]);
  c->attrs = dict_new(st);
  for (uint32_t i = 0; i < o->attrs->keys.len; i++)
    dict_set(st, c->attrs, o->attrs->keys.items[i], copy_value(st, mm, o->attrs->vals.items[i], depth + 1));
  if (o->items) {
    c->items = seq_new(st);
    for (uint32_t i = 0; i < o->items->items.len; i++)
      avec_push(st->a, &c->items->items, copy_value(st, mm, o->items->items.items[i], depth + 1));
  }
  if (c->kind == OBJ_MODULE) avec_push(st->a, &st->modules, c);
  return c;
}


static value *copy_value(interp *st, memo *mm, value *v, int depth) {
  if (depth > MAX_MODULE_DEPTH) return v_unknown(st, "a copy nested too deeply");
  switch (v->kind) {
  case V_OBJECT: {
    if (v->u.obj->kind != OBJ_MODULE && v->u.obj->kind != OBJ_PLAIN) return v;
    return v_obj(st, copy_obj(st, mm, v->u.obj, depth));
  }
  case V_PARAM: {
    param *done = memo_get(mm, v->u.param);
    if (!done) {
      done = arena_alloc(st->a, sizeof *done);
      *done = *v->u.param;
      done->birth = st_birth(st);
      obj *owner = v->u.param->owner ? memo_get(mm, v->u.param->owner) : NULL;
      if (owner) done->owner = owner;
      avec_push(st->a, &mm->from, v->u.param);
      avec_push(st->a, &mm->to, done);
    }
    value *pv = v_new(st, V_PARAM);
    pv->u.param = done;
    return pv;
  }
  case V_LIST:
  case V_TUPLE: {
    value *c = v_list(st, v->kind);
    for (uint32_t i = 0; i < v->u.seq->items.len; i++)
      avec_push(st->a, &c->u.seq->items, copy_value(st, mm, v->u.seq->items.items[i], depth + 1));
    return c;
  }
  case V_DICT: {
    value *c = v_dict(st);
    for (uint32_t i = 0; i < v->u.dict->keys.len; i++)
      dict_set(st, c->u.dict, v->u.dict->keys.items[i], copy_value(st, mm, v->u.dict->vals.items[i], depth + 1));
    return c;
  }
  default:
    return v;
  }
}


value *deep_copy(interp *st, value *v) {
  memo mm;
  memset(&mm, 0, sizeof mm);
  /* a layer's own parameters belong to the copy: copy the owner first */
  return copy_value(st, &mm, v, 0);
}


/* ---- inputs ---- */

static int64_t tensor_bytes(const shape *sh) {
  if (sh->ndim < 0 || sh->bits == EST_BITS_UNKNOWN) return -1;
  int64_t n = 1;
  for (int i = 0; i < sh->ndim; i++) {
    if (sh->dims[i] < 0) return -1;
    if (__builtin_mul_overflow(n, sh->dims[i], &n)) return -1;
  }
  return (n * (sh->bits ? sh->bits : 32) + 7) / 8;
}


static bool add_tensor_input(interp *st, obj *m, value *v, int64_t *total, int depth) {
  if (depth > 8) return false;
  if (v->kind == V_TENSOR) {
    int64_t b = tensor_bytes(v->u.tensor);
    if (b < 0) return false;
    *total += b;
    if (!ts_node_is_null(v->dim0)) {
      bool found = false;
      for (uint32_t i = 0; i < st->batches.len; i++) {
        batch_note *bn = &st->batches.items[i];
        if (!ts_node_is_null(bn->size->origin) && ts_node_eq(bn->size->origin, v->dim0)) {
          if (!bn->module) bn->module = m;
          found = true;
        }
      }
      if (!found) {
        value *size = v_int(st, v->u.tensor->dims[0]);
        size->origin = v->dim0;
        batch_note bn = {size, "the leading dimension of a model input", b, m, v->dim0};
        avec_push(st->a, &st->batches, bn);
      }
    }
    return true;
  }
  if (v->kind == V_TUPLE || v->kind == V_LIST) {
    for (uint32_t i = 0; i < v->u.seq->items.len; i++)
      if (!add_tensor_input(st, m, v->u.seq->items.items[i], total, depth + 1)) return false;
    return v->u.seq->items.len > 0;
  }
  if (v->kind == V_DICT) {
    for (uint32_t i = 0; i < v->u.dict->vals.len; i++)
      if (!add_tensor_input(st, m, v->u.dict->vals.items[i], total, depth + 1)) return false;
    return v->u.dict->vals.len > 0;
  }
  return false;
}


void module_record_input(interp *st, obj *m, args *a) {
  /* every call registers its batch sizes; the first sets the model's input */
  if (a->opaque) return;
  int64_t total = 0;
  bool ok = a->pos.len + a->kwvals.len > 0;
  for (uint32_t i = 0; ok && i < a->pos.len; i++) ok = add_tensor_input(st, m, a->pos.items[i], &total, 0);
  for (uint32_t i = 0; ok && i < a->kwvals.len; i++) ok = add_tensor_input(st, m, a->kwvals.items[i], &total, 0);
  if (ok && m->input_bytes < 0) m->input_bytes = total;
}
