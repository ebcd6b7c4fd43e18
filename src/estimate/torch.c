/* This file contains the library calls the estimate understands (torch, optimizers, data,
 * pretrained checkpoints, PEFT, trainers, wrappers); any other call gives a described unknown. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "estimate/activations.h"
#include "estimate/interp.h"


static bool starts(const char *s, const char *prefix) {
  return !strncmp(s, prefix, strlen(prefix));
}


static const char *last_part(const char *q) {
  const char *d = strrchr(q, '.');
  return d ? d + 1 : q;
}


static bool is_module_value(const value *v) {
  return v && v->kind == V_OBJECT && v->u.obj->kind == OBJ_MODULE;
}


#define note st_note


static const char *call_text(interp *st, TSNode n) {
  if (ts_node_is_null(n)) return "";
  uint32_t len;
  const char *t = st_text(st, n, &len);
  buf b = {0};
  bool space = false;
  for (uint32_t i = 0; i < len && b.len < 70; i++) {
    char c = t[i];
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = true;
      continue;
    }
    if (space && b.len) buf_putc(&b, ' ');
    space = false;
    buf_putc(&b, c);
  }
  if (len && b.len >= 70) buf_puts(&b, "...");
  const char *s = st_strdup(st, buf_str(&b), b.len);
  buf_free(&b);
  return s;
}


/* ---- tensors ---- */

/* the sizes of torch.zeros(2, 3) / torch.zeros((2, 3)) / size=(2, 3) */
static value *tensor_of(interp *st, args *a, int first, int bits) {
  value *size = arg_get(a, -1, "size");
  AVEC(value *) dims = {0};
  if (size) {
    seq *s = v_iterate(st, size);
    if (!s) return v_unknown(st, "a tensor whose size is not known");
    for (uint32_t i = 0; i < s->items.len; i++) avec_push(st->a, &dims, s->items.items[i]);
  } else if ((int)a->pos.len == first + 1 && (a->pos.items[first]->kind == V_TUPLE || a->pos.items[first]->kind == V_LIST)) {
    seq *s = a->pos.items[first]->u.seq;
    for (uint32_t i = 0; i < s->items.len; i++) avec_push(st->a, &dims, s->items.items[i]);
  } else {
    for (uint32_t i = (uint32_t)first; i < a->pos.len; i++) avec_push(st->a, &dims, a->pos.items[i]);
  }
  if (a->opaque || dims.len > EST_MAX_DIMS) return v_unknown(st, "a tensor whose size is not known");
  shape *sh = shape_new(st, (int)dims.len);
  sh->bits = bits ? bits : st->default_bits;
  value *dt = arg_get(a, -1, "dtype");
  const char *name;
  if (dt && dt->kind == V_EXTERN) torch_dtype(dt->u.ext, strlen(dt->u.ext), &sh->bits, &name);
  value *t = v_new(st, V_TENSOR);
  t->u.tensor = sh;
  for (uint32_t i = 0; i < dims.len; i++) {
    int64_t d;
    sh->dims[i] = v_as_int(dims.items[i], &d) && d >= 0 ? d : -1;
    /* the first dimension not known says why (a size only the data knows) */
    if (sh->dims[i] < 0 && !t->why && dims.items[i]->kind == V_UNKNOWN) t->why = dims.items[i]->why;
  }
  if (dims.len && dims.items[0]->kind == V_INT) t->dim0 = dims.items[0]->origin;
  return t;
}


static value *tensor_from_data(interp *st, value *data) {
  /* torch.tensor([[1, 2], [3, 4]]): the nesting of the lists */
  shape *sh = shape_new(st, 0);
  value *cur = data;
  bool floats = false;
  while ((cur->kind == V_LIST || cur->kind == V_TUPLE) && sh->ndim < EST_MAX_DIMS) {
    seq *s = cur->u.seq;
    /* a list a loop over the data filled: its length is not known */
    sh->dims[sh->ndim++] = s->more ? -1 : (int64_t)s->items.len;
    if (s->items.len) cur = s->items.items[0];
    else if (s->more) cur = s->more;
    else break;
  }
  if (cur->kind == V_FLOAT) floats = true;
  else if (cur->kind == V_UNKNOWN && sh->ndim > 0 && sh->dims[sh->ndim - 1] < 0) {
    /* values read from the data: the shape is known as far as it goes, the dtype is not */
    sh->bits = EST_BITS_UNKNOWN;
    value *t = v_new(st, V_TENSOR);
    t->u.tensor = sh;
    return t;
  } else if (cur->kind != V_INT && cur->kind != V_BOOL)
    return v_unknown(st, "a tensor made from data that is not known");
  sh->bits = floats ? st->default_bits : 64;
  value *t = v_new(st, V_TENSOR);
  t->u.tensor = sh;
  return t;
}


static value *tensor_factory(interp *st, const char *name, args *a) {
  if (!strcmp(name, "zeros") || !strcmp(name, "ones") || !strcmp(name, "empty") || !strcmp(name, "randn") ||
      !strcmp(name, "rand"))
    return tensor_of(st, a, 0, 0);
  /* torch.Tensor(3, 4), torch.FloatTensor(n, m): sizes (a list is data) */
  if (!strcmp(name, "Tensor") || !strcmp(name, "FloatTensor") || !strcmp(name, "DoubleTensor") ||
      !strcmp(name, "HalfTensor") || !strcmp(name, "LongTensor")) {
    if (a->pos.len && (a->pos.items[0]->kind == V_LIST || a->pos.items[0]->kind == V_TUPLE)) return NULL;
    int bits = name[0] == 'D' || name[0] == 'L' ? 64 : name[0] == 'H' ? 16 : 32;
    return tensor_of(st, a, 0, bits);
  }
  if (!strcmp(name, "full")) {
    value *size = arg_get(a, 0, "size");
    if (!size) return v_unknown(st, "torch.full() without a size");
    args b;
    memset(&b, 0, sizeof b);
    b.node = a->node;
    avec_push(st->a, &b.pos, size);
    value *dt = arg_get(a, -1, "dtype");
    if (dt) args_add_kw(st, &b, "dtype", dt);
    return tensor_of(st, &b, 0, 0);
  }
  if (!strcmp(name, "randint")) {
    value *size = arg_get(a, -1, "size");
    if (!size && a->pos.len) size = a->pos.items[a->pos.len - 1];
    if (!size) return v_unknown(st, "torch.randint() without a size");
    args b;
    memset(&b, 0, sizeof b);
    b.node = a->node;
    avec_push(st->a, &b.pos, size);
    value *dt = arg_get(a, -1, "dtype");
    if (dt) args_add_kw(st, &b, "dtype", dt);
    return tensor_of(st, &b, 0, 64);
  }
  if (!strcmp(name, "arange")) {
    int64_t lo = 0, hi, step = 1;
    if (a->pos.len == 1 && v_as_int(a->pos.items[0], &hi)) {
    } else if (a->pos.len >= 2 && v_as_int(a->pos.items[0], &lo) && v_as_int(a->pos.items[1], &hi)) {
      if (a->pos.len > 2 && !v_as_int(a->pos.items[2], &step)) return v_unknown(st, "torch.arange() with a step not known");
    } else {
      return v_unknown(st, "torch.arange() of bounds that are not known");
    }
    if (step == 0) return v_unknown(st, "torch.arange() with step 0");
    shape *sh = shape_new(st, 1);
    sh->dims[0] = (hi - lo + step - (step > 0 ? 1 : -1)) / step;
    if (sh->dims[0] < 0) sh->dims[0] = 0;
    sh->bits = 64;
    value *t = v_new(st, V_TENSOR);
    t->u.tensor = sh;
    return t;
  }
  if (!strcmp(name, "eye")) {
    int64_t n, m;
    if (!a->pos.len || !v_as_int(a->pos.items[0], &n)) return v_unknown(st, "torch.eye() of a size not known");
    m = n;
    if (a->pos.len > 1 && !v_as_int(a->pos.items[1], &m)) return v_unknown(st, "torch.eye() of a size not known");
    shape *sh = shape_new(st, 2);
    sh->dims[0] = n;
    sh->dims[1] = m;
    value *t = v_new(st, V_TENSOR);
    t->u.tensor = sh;
    return t;
  }
  if (!strcmp(name, "cat") || !strcmp(name, "concat")) {
    /* the pieces a loop over the data made (`torch.cat(idss)`): as long as they all are
     * together, which is not known (the activations estimate does known lengths) */
    value *list = arg_get(a, 0, "tensors");
    seq *items = list && list->kind == V_LIST ? list->u.seq : NULL;
    value *like = items && items->more ? items->more : NULL;
    if (!like || like->kind != V_TENSOR || like->u.tensor->ndim < 1) return NULL;
    int64_t dim = 0;
    value *dv = arg_get(a, 1, "dim");
    if (dv && !v_as_int(dv, &dim)) return v_unknown(st, "torch.cat along a dimension not known");
    if (dim < 0) dim += like->u.tensor->ndim;
    if (dim < 0 || dim >= like->u.tensor->ndim) return v_unknown(st, "torch.cat along a dimension out of range");
    shape *sh = shape_new(st, like->u.tensor->ndim);
    *sh = *like->u.tensor;
    sh->dims[dim] = -1;
    value *t = v_new(st, V_TENSOR);
    t->u.tensor = sh;
    return t;
  }
  if (!strcmp(name, "tensor") || !strcmp(name, "as_tensor")) {
    value *d = arg_get(a, 0, "data");
    if (!d) return v_unknown(st, "torch.tensor() of nothing");
    value *t = tensor_from_data(st, d);
    value *dt = arg_get(a, -1, "dtype");
    const char *nm;
    if (t->kind == V_TENSOR && dt && dt->kind == V_EXTERN) torch_dtype(dt->u.ext, strlen(dt->u.ext), &t->u.tensor->bits, &nm);
    return t;
  }
  if (!strcmp(name, "zeros_like") || !strcmp(name, "ones_like") || !strcmp(name, "empty_like") ||
      !strcmp(name, "randn_like") || !strcmp(name, "rand_like")) {
    value *x = arg_get(a, 0, "input");
    if (!x || (x->kind != V_TENSOR && x->kind != V_PARAM)) return v_unknown(st, "a tensor like one not known");
    args none;
    memset(&none, 0, sizeof none);
    return torch_tensor_method(st, x, "detach", &none);
  }
  return NULL;
}


static value *make_parameter(interp *st, args *a) {
  value *data = arg_get(a, 0, "data");
  value *rg = arg_get(a, 1, "requires_grad");
  bool trainable = true;
  if (rg && !v_truth(rg, &trainable)) trainable = true;
  if (data && data->kind == V_PARAM) return data;
  const shape *sh = data && data->kind == V_TENSOR ? data->u.tensor : NULL;
  int64_t count = 1;
  bool known = sh && sh->ndim >= 0 && sh->bits != EST_BITS_UNKNOWN;
  for (int i = 0; known && i < sh->ndim; i++) {
    if (sh->dims[i] < 0 || __builtin_mul_overflow(count, sh->dims[i], &count)) known = false;
  }
  if (!known) {
    const char *why = data && (data->kind == V_UNKNOWN || data->kind == V_TENSOR) && data->why ? data->why
                                                                                              : "a tensor whose shape is not known";
    note(st, a->node, "nn.Parameter of %s: not counted", why);
    return v_unknown(st, "a parameter of unknown size");
  }
  buf b = {0};
  buf_puts(&b, "nn.Parameter(");
  for (int i = 0; i < sh->ndim; i++) buf_printf(&b, "%s%lld", i ? ", " : "", (long long)sh->dims[i]);
  buf_putc(&b, ')');
  param *p = param_new(st, sh, count, NULL, a->node, st_strdup(st, b.data, b.len));
  buf_free(&b);
  if (sh->bits && sh->bits != st->default_bits) {
    p->bits = sh->bits;
    p->dtype = sh->bits == 16 ? "16-bit" : sh->bits == 64 ? "float64" : p->dtype;
  }
  p->trainable = trainable;
  value *pv = v_new(st, V_PARAM);
  pv->u.param = p;
  return pv;
}


/* ---- containers ---- */

static value *container(interp *st, const char *name, args *a) {
  buf q = {0};
  buf_printf(&q, "torch.nn.%s", name);
  obj *m = obj_new(st, OBJ_MODULE, st_strdup(st, "nn.", 3));
  m->type = layer_short(st, st_strdup(st, q.data, q.len));
  m->qual = st_strdup(st, q.data, q.len);
  buf_free(&q);
  m->site = a->node;
  value *mv = v_obj(st, m);
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  bool dict_like = !strcmp(name, "ModuleDict") || !strcmp(name, "ParameterDict");
  if (a->opaque) note(st, a->node, "%s(...) of layers that are not known: not counted", m->type);
  if (dict_like || (!strcmp(name, "Sequential") && a->pos.len == 1 && x->kind == V_DICT)) {
    if (!x) return mv;
    seq *pairs = NULL;
    if (x->kind == V_DICT) {
      for (uint32_t i = 0; i < x->u.dict->keys.len; i++) {
        value *k = x->u.dict->keys.items[i];
        if (k->kind == V_STR) set_attr(st, mv, k->u.s.s, k->u.s.n, x->u.dict->vals.items[i], a->node);
      }
      return mv;
    }
    pairs = v_iterate(st, x);
    if (!pairs) {
      note(st, a->node, "%s of entries that are not known: not counted", m->type);
      return mv;
    }
    for (uint32_t i = 0; i < pairs->items.len; i++) {
      value *p = pairs->items.items[i];
      if ((p->kind == V_TUPLE || p->kind == V_LIST) && p->u.seq->items.len == 2 && p->u.seq->items.items[0]->kind == V_STR)
        set_attr(st, mv, p->u.seq->items.items[0]->u.s.s, p->u.seq->items.items[0]->u.s.n, p->u.seq->items.items[1], a->node);
    }
    return mv;
  }
  m->items = seq_new(st);
  if (!strcmp(name, "Sequential")) {
    for (uint32_t i = 0; i < a->pos.len; i++) {
      value *l = a->pos.items[i];
      if (l->kind == V_UNKNOWN) note(st, a->node, "a layer of an nn.Sequential is not known (%s): not counted", l->why ? l->why : "");
      else avec_push(st->a, &m->items->items, l);
    }
    return mv;
  }
  if (x) {
    seq *items = v_iterate(st, x);
    if (!items) {
      note(st, a->node, "%s of layers that are not known: not counted", x->kind == V_UNKNOWN && x->why ? x->why : m->type);
      return mv;
    }
    for (uint32_t i = 0; i < items->items.len; i++) {
      value *l = items->items.items[i];
      if (l->kind == V_UNKNOWN) note(st, a->node, "a layer of a container is not known (%s): not counted", l->why ? l->why : "");
      else avec_push(st->a, &m->items->items, l);
    }
  }
  return mv;
}


/* ---- optimizers ---- */

typedef struct {
  const char *name;
  int states;  /* moments per parameter in the parameter's dtype */
  int fixed;   /* or bytes per parameter whatever the dtype (-1: use states) */
} optim_def;

static const optim_def TORCH_OPTIMS[] = {
  {"SGD", 0, -1}, {"Adam", 2, -1}, {"AdamW", 2, -1}, {"Adamax", 2, -1}, {"NAdam", 2, -1}, {"RAdam", 2, -1},
  {"SparseAdam", 2, -1}, {"Adagrad", 1, -1}, {"Adadelta", 2, -1}, {"RMSprop", 1, -1}, {"Rprop", 2, -1},
  {"ASGD", 1, -1}, {"Adafactor", -1, -1}, {"LBFGS", -1, -1}};

static const optim_def BNB_OPTIMS[] = {
  {"Adam8bit", 0, 2}, {"AdamW8bit", 0, 2}, {"PagedAdam8bit", 0, 2}, {"PagedAdamW8bit", 0, 2},
  {"Lion8bit", 0, 1}, {"PagedLion8bit", 0, 1}, {"SGD8bit", 0, 1}, {"RMSprop8bit", 0, 1}, {"Adagrad8bit", 0, 1},
  {"Adam", 0, 8}, {"AdamW", 0, 8}, {"Adam32bit", 0, 8}, {"AdamW32bit", 0, 8}, {"PagedAdam", 0, 8},
  {"PagedAdamW", 0, 8}, {"PagedAdamW32bit", 0, 8}, {"Lion", 0, 4}, {"PagedLion", 0, 4}, {"SGD", 0, 4},
  {"RMSprop", 0, 4}, {"Adagrad", 0, 4}, {"LAMB", 0, 8}, {"LARS", 0, 4}};


static void find_params_owner(interp *st, value *v, obj **module, param **p, int depth) {
  if (depth > 8 || *module || *p) return;
  if (v->kind == V_ITER) *module = v->u.iter.module;
  else if (is_module_value(v)) *module = v->u.obj;
  else if (v->kind == V_PARAM) *p = v->u.param;
  else if (v->kind == V_DICT) {
    value *ps = dict_get_str(v->u.dict, "params", 6);
    if (ps) find_params_owner(st, ps, module, p, depth + 1);
  } else if (v->kind == V_LIST || v->kind == V_TUPLE) {
    for (uint32_t i = 0; i < v->u.seq->items.len && !*module && !*p; i++)
      find_params_owner(st, v->u.seq->items.items[i], module, p, depth + 1);
  }
}


static value *make_optimizer(interp *st, const optim_def *d, const char *label, args *a, value *params) {
  obj *o = obj_new(st, OBJ_OPTIMIZER, label);
  o->opt_name = label;
  o->opt_states = d->states;
  o->opt_fixed_bytes = d->fixed;
  o->site = a->node;
  if (params) find_params_owner(st, params, &o->opt_module, &o->opt_param, 0);
  /* a list of parameters: each, so that every model they come from finds it */
  seq *items = params && (params->kind == V_LIST || params->kind == V_TUPLE) ? params->u.seq : NULL;
  for (uint32_t i = 0; items && i < items->items.len; i++)
    if (items->items.items[i]->kind == V_PARAM) avec_push(st->a, &o->opt_params, items->items.items[i]->u.param);
  avec_push(st->a, &st->optimizers, o);
  return v_obj(st, o);
}


static value *optimizer(interp *st, const char *qual, args *a) {
  const char *name = last_part(qual);
  bool bnb = starts(qual, "bitsandbytes.optim.");
  const optim_def *table = bnb ? BNB_OPTIMS : TORCH_OPTIMS;
  size_t n = bnb ? sizeof BNB_OPTIMS / sizeof *BNB_OPTIMS : sizeof TORCH_OPTIMS / sizeof *TORCH_OPTIMS;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(table[i].name, name) != 0) continue;
    optim_def d = table[i];
    buf label = {0};
    buf_printf(&label, "%s%s", bnb ? "bitsandbytes " : "", name);
    value *opt_bits = arg_get(a, -1, "optim_bits");
    int64_t ob;
    if (bnb && opt_bits && v_as_int(opt_bits, &ob) && ob == 8 && d.fixed == 8) {
      d.fixed = 2;
      buf_puts(&label, " (8-bit)");
    }
    value *mom = arg_get(a, -1, "momentum");
    double m;
    if (!bnb && (!strcmp(name, "SGD") || !strcmp(name, "RMSprop"))) {
      if (mom && !v_as_num(mom, &m)) {
        d.states = -1;
        buf_puts(&label, " (momentum not known)");
      } else if (mom && m > 0) {
        d.states++;
        buf_printf(&label, " (momentum %g)", m);
      }
    }
    value *ams = arg_get(a, -1, "amsgrad");
    bool t;
    if (!bnb && ams && v_truth(ams, &t) && t && (!strcmp(name, "Adam") || !strcmp(name, "AdamW"))) {
      d.states++;
      buf_puts(&label, " (amsgrad)");
    }
    value *centered = arg_get(a, -1, "centered");
    if (!bnb && centered && v_truth(centered, &t) && t && !strcmp(name, "RMSprop")) {
      d.states++;
      buf_puts(&label, " (centered)");
    }
    value *v = make_optimizer(st, &d, st_strdup(st, label.data, label.len), a, arg_get(a, 0, "params"));
    buf_free(&label);
    return v;
  }
  return NULL;
}


/* TrainingArguments(optim=...) -> the optimizer the Hugging Face Trainer makes */
static value *trainer_optimizer(interp *st, value *targs, obj *model, TSNode site) {
  value *o = targs && targs->kind == V_OBJECT ? dict_get_str(targs->u.obj->attrs, "optim", 5) : NULL;
  optim_def d = {"AdamW", 2, -1};
  const char *label = "AdamW (Trainer default)";
  if (o && o->kind == V_STR) {
    char s[64];
    uint32_t n = o->u.s.n < sizeof s - 1 ? o->u.s.n : (uint32_t)sizeof s - 1;
    memcpy(s, o->u.s.s, n);
    s[n] = '\0';
    label = st_strdup(st, s, n);
    if (strstr(s, "8bit")) d.fixed = strstr(s, "lion") ? 1 : 2;
    else if (strstr(s, "adafactor") || strstr(s, "galore") || strstr(s, "apollo")) d.states = -1;
    else if (strstr(s, "lion")) d.states = 1;
    else if (!strcmp(s, "sgd")) d.states = 0;
    else if (!strcmp(s, "adagrad")) d.states = 1;
    else if (!strcmp(s, "rmsprop")) d.states = 1;
    else if (strncmp(s, "adamw", 5) != 0 && strncmp(s, "adam", 4) != 0) d.states = -1;
  } else if (o) {
    d.states = -1;
    label = "optimizer not known (TrainingArguments.optim)";
  }
  args a;
  memset(&a, 0, sizeof a);
  a.node = site;
  value *v = make_optimizer(st, &d, label, &a, NULL);
  v->u.obj->opt_module = model;
  return v;
}


/* ---- data ---- */

static void record_batch(interp *st, value *size, const char *where, int64_t bytes, TSNode site) {
  batch_note bn = {size, where, bytes, NULL, site};
  avec_push(st->a, &st->batches, bn);
}


static int64_t sample_bytes(const obj *d) {
  if (!d || !d->sample_known) return -1;
  int64_t total = 0;
  for (uint32_t i = 0; i < d->sample.len; i++) {
    const shape *s = d->sample.items[i];
    if (s->bits == EST_BITS_UNKNOWN) return -1;
    int64_t n = 1;
    for (int k = 0; k < s->ndim; k++) {
      if (s->dims[k] < 0) return -1;
      n *= s->dims[k];
    }
    total += (n * s->bits + 7) / 8;
  }
  return total;
}


static value *data_loader(interp *st, args *a) {
  obj *o = obj_new(st, OBJ_LOADER, "DataLoader");
  o->site = a->node;
  o->dataset = arg_get(a, 0, "dataset");
  value *bs = arg_get(a, 1, "batch_size");
  if (arg_get(a, -1, "batch_sampler")) bs = v_unknown(st, "a batch sampler decides the batch size");
  else if (!bs && a->opaque) bs = v_unknown(st, "batch_size may come through **kwargs");
  else if (!bs) bs = v_int(st, 1);
  o->batch_size = bs;
  int64_t b, per = -1, bytes = -1;
  if (o->dataset && o->dataset->kind == V_OBJECT) per = sample_bytes(o->dataset->u.obj);
  if (per >= 0 && v_as_int(bs, &b)) bytes = per * b;
  /* a dataset of the project: its __getitem__, run once here, gives the samples */
  value *sample = o->dataset ? data_sample(st, o->dataset, a->node) : NULL;
  if (sample) {
    o->item = sample;
    klass *found = NULL;
    value *fn = class_attr(st, o->dataset->u.obj->klass, "__getitem__", 11, &found);
    o->getitem = fn && fn->kind == V_FUNCTION ? fn->u.fn.node : NULL_NODE;
    bytes = data_bytes(data_collate(st, sample, bs, o->getitem), 0);
  }
  if (bs->kind == V_INT) record_batch(st, bs, "DataLoader batch_size", bytes, a->node);
  return v_obj(st, o);
}


static value *tensor_dataset(interp *st, args *a) {
  obj *o = obj_new(st, OBJ_DATASET, "TensorDataset");
  o->sample_known = !a->opaque && a->pos.len > 0;
  for (uint32_t i = 0; i < a->pos.len && o->sample_known; i++) {
    value *t = a->pos.items[i];
    if (t->kind != V_TENSOR || t->u.tensor->ndim < 1) {
      o->sample_known = false;
      break;
    }
    shape *s = shape_new(st, t->u.tensor->ndim - 1);
    s->bits = t->u.tensor->bits;
    for (int k = 1; k < t->u.tensor->ndim; k++) s->dims[k - 1] = t->u.tensor->dims[k];
    avec_push(st->a, &o->sample, s);
  }
  return v_obj(st, o);
}


/* what a torchvision transform pipeline makes of an image of C x H x W */
static bool apply_transform(interp *st, value *t, int64_t *c, int64_t *h, int64_t *w, int *bits, bool *tensor, int depth) {
  if (depth > 8) return false;
  if (t->kind == V_LIST || t->kind == V_TUPLE) {
    for (uint32_t i = 0; i < t->u.seq->items.len; i++)
      if (!apply_transform(st, t->u.seq->items.items[i], c, h, w, bits, tensor, depth + 1)) return false;
    return true;
  }
  if (t->kind != V_OBJECT || t->u.obj->kind != OBJ_EXTERN || !t->u.obj->qual) return false;
  obj *o = t->u.obj;
  const char *name = last_part(o->qual);
  value *a0 = o->args && o->args->items.len ? o->args->items.items[0] : NULL;
  if (!a0) a0 = dict_get_str(o->attrs, "size", 4);
  if (!strcmp(name, "Compose")) {
    value *list = a0 ? a0 : dict_get_str(o->attrs, "transforms", 10);
    return list && apply_transform(st, list, c, h, w, bits, tensor, depth + 1);
  }
  if (!strcmp(name, "ToTensor")) {
    *tensor = true;
    *bits = 32;
    return true;
  }
  if (!strcmp(name, "PILToTensor")) {
    *tensor = true;
    *bits = 8;
    return true;
  }
  if (!strcmp(name, "Resize") || !strcmp(name, "CenterCrop") || !strcmp(name, "RandomCrop") ||
      !strcmp(name, "RandomResizedCrop")) {
    int64_t s;
    if (a0 && v_as_int(a0, &s)) {
      /* Resize(int) sets the shorter side: the other is known only for a square image
       * (a CenterCrop after it makes it known: ImageFolder's images of any size) */
      if (!strcmp(name, "Resize") && (*h != *w || *h < 0)) *h = *w = -1;
      else *h = *w = s;
      return true;
    }
    if (a0 && (a0->kind == V_TUPLE || a0->kind == V_LIST) && a0->u.seq->items.len == 2 &&
        v_as_int(a0->u.seq->items.items[0], h) && v_as_int(a0->u.seq->items.items[1], w))
      return true;
    return false;
  }
  if (!strcmp(name, "Lambda")) {
    /* Lambda(lambda x: x.mul(255)) on the tensor so far: what the function makes of it */
    if (!*tensor || !a0 || *h < 0 || *w < 0 || *c < 0) return false;
    shape *sh = shape_new(st, 3);
    sh->dims[0] = *c;
    sh->dims[1] = *h;
    sh->dims[2] = *w;
    sh->bits = *bits;
    value *x = v_new(st, V_TENSOR);
    x->u.tensor = sh;
    args la;
    memset(&la, 0, sizeof la);
    avec_push(st->a, &la.pos, x);
    value *r = call_value(st, a0, &la);
    if (r->kind != V_TENSOR || r->u.tensor->ndim != 3 || r->u.tensor->bits == EST_BITS_UNKNOWN) return false;
    for (int i = 0; i < 3; i++)
      if (r->u.tensor->dims[i] < 0) return false;
    *c = r->u.tensor->dims[0];
    *h = r->u.tensor->dims[1];
    *w = r->u.tensor->dims[2];
    if (r->u.tensor->bits) *bits = r->u.tensor->bits;
    return true;
  }
  if (!strcmp(name, "Grayscale")) {
    value *n = a0 ? a0 : dict_get_str(o->attrs, "num_output_channels", 19);
    int64_t k = 1;
    if (n && !v_as_int(n, &k)) return false;
    *c = k;
    return true;
  }
  static const char *const keep[] = {"Normalize", "RandomHorizontalFlip", "RandomVerticalFlip", "ColorJitter",
                                     "RandomRotation", "RandomAffine", "RandomErasing", "AutoAugment",
                                     "RandAugment", "TrivialAugmentWide", "GaussianBlur", "RandomGrayscale",
                                     "RandomApply", "RandomInvert", "RandomPosterize", "RandomSolarize",
                                     "RandomAutocontrast", "RandomEqualize", "ConvertImageDtype", NULL};
  for (size_t i = 0; keep[i]; i++)
    if (!strcmp(name, keep[i])) return true;
  return false;
}


/* A transform T called on X: a PIL image (its mode's bands, its size where known) or
 * a C x H x W tensor; an image again until ToTensor makes it a tensor. */
value *torch_transform_call(interp *st, value *t, value *x, TSNode site) {
  int64_t c = -1, h = -1, w = -1;
  int bits = 0;
  bool tensor = false;
  if (data_is_image(x)) {
    data_image_dims(x, &c, &h, &w);
  } else if (x->kind == V_TENSOR && x->u.tensor->ndim == 3) {
    c = x->u.tensor->dims[0];
    h = x->u.tensor->dims[1];
    w = x->u.tensor->dims[2];
    bits = x->u.tensor->bits;
    tensor = true;
  } else {
    return x->kind == V_UNKNOWN ? x : v_unknown(st, "a transform of a %s", v_kind_name(x));
  }
  if (!apply_transform(st, t, &c, &h, &w, &bits, &tensor, 0))
    return v_unknown(st, "a transform (%s) oomlint does not follow", st_at(st, site));
  if (!tensor) return data_image_of(st, x, c, h, w, site);
  if (c < 0 || h < 0 || w < 0) {
    /* the size the data has, unless a transform set it: the image's own reason */
    if (data_is_image(x)) {
      value *side = get_attr(st, x, h < 0 ? "height" : "width", h < 0 ? 6 : 5);
      if (c >= 0 && side->kind == V_UNKNOWN && side->why) return side;
      if (c < 0) return v_unknown(st, "an image of a mode not known (%s) made a tensor", st_at(st, site));
    }
    return v_unknown(st, "a transform (%s) of an image whose size is not known", st_at(st, site));
  }
  shape *sh = shape_new(st, 3);
  sh->dims[0] = c;
  sh->dims[1] = h;
  sh->dims[2] = w;
  sh->bits = bits;
  value *r = v_new(st, V_TENSOR);
  r->u.tensor = sh;
  return r;
}


static value *image_dataset(interp *st, const char *name, args *a) {
  static const struct { const char *name; int64_t c, h, w; int tpos; } sets[] = {
    {"MNIST", 1, 28, 28, 2}, {"FashionMNIST", 1, 28, 28, 2}, {"KMNIST", 1, 28, 28, 2}, {"QMNIST", 1, 28, 28, 2},
    {"EMNIST", 1, 28, 28, 3}, {"CIFAR10", 3, 32, 32, 2}, {"CIFAR100", 3, 32, 32, 2}, {"SVHN", 3, 32, 32, 2},
    {"STL10", 3, 96, 96, 3}, {"ImageFolder", 3, -1, -1, 1}, {"ImageNet", 3, -1, -1, -1}, {"Food101", 3, -1, -1, -1}};
  for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
    if (strcmp(sets[i].name, name) != 0) continue;
    obj *o = obj_new(st, OBJ_DATASET, st_strdup(st, name, strlen(name)));
    value *t = arg_get(a, sets[i].tpos, "transform");
    int64_t c = sets[i].c, h = sets[i].h, w = sets[i].w;
    if (c == 1 && h == 28 && sets[i].tpos == 2 && strcmp(name, "QMNIST") != 0) {
      /* MNIST, FashionMNIST and KMNIST keep every image in `.data` (N x 28 x 28
       * uint8) and the labels in `.targets` (N int64): 60,000 to train, 10,000 to test */
      value *train = arg_get(a, 1, "train");
      bool tr = true;
      if (train && !v_truth(train, &tr)) tr = true;
      int64_t n = train && train->kind == V_UNKNOWN ? -1 : tr ? 60000 : 10000;
      shape *all = shape_new(st, 3);
      all->dims[0] = n;
      all->dims[1] = h;
      all->dims[2] = w;
      all->bits = 8;
      shape *labels = shape_new(st, 1);
      labels->dims[0] = n;
      labels->bits = 64;
      value *dv = v_new(st, V_TENSOR), *tv = v_new(st, V_TENSOR);
      dv->u.tensor = all;
      tv->u.tensor = labels;
      dict_set_str(st, o->attrs, "data", dv);
      dict_set_str(st, o->attrs, "targets", tv);
    }
    int bits = 0;
    bool tensor = false;
    if (t && apply_transform(st, t, &c, &h, &w, &bits, &tensor, 0) && tensor && h > 0 && w > 0) {
      shape *img = shape_new(st, 3);
      img->dims[0] = c;
      img->dims[1] = h;
      img->dims[2] = w;
      img->bits = bits;
      shape *label = shape_new(st, 0);
      label->bits = 64;
      avec_push(st->a, &o->sample, img);
      avec_push(st->a, &o->sample, label);
      o->sample_known = true;
    }
    return v_obj(st, o);
  }
  return NULL;
}


/* ---- pretrained checkpoints ---- */

static value *pretrained(interp *st, const char *kname, const char *qual, value *name, args *a, const char *how) {
  obj *m = obj_new(st, OBJ_MODULE, kname);
  m->qual = qual;
  m->site = a->node;
  if (!name || name->kind != V_STR) {
    const char *why = name && name->kind == V_UNKNOWN && name->why ? name->why : "the checkpoint's name is not known";
    buf b = {0};
    buf_printf(&b, "%s: `%s`: %s; its parameters are not counted", st_at(st, a->node), call_text(st, a->node), why);
    avec_push(st->a, &m->unknowns, st_strdup(st, b.data, b.len));
    buf_free(&b);
    m->label = call_text(st, a->node);
    return v_obj(st, m);
  }
  const char *source;
  size_t source_len;
  int64_t per_class = -1;
  int64_t count = estimate_pretrained_row(name->u.s.s, name->u.s.n, &source, &source_len, &per_class);
  buf label = {0};
  if (!how) buf_printf(&label, "%s()", qual);
  else buf_printf(&label, "%s(\"%.*s\")", how, (int)name->u.s.n, name->u.s.s);
  m->label = st_strdup(st, label.data, label.len);
  buf_free(&label);
  if (count < 0) {
    buf b = {0};
    buf_printf(&b, "%s: `%.*s` is not in oomlint's table of published checkpoint sizes; its parameters are not counted",
               st_at(st, a->node), (int)name->u.s.n, name->u.s.s);
    avec_push(st->a, &m->unknowns, st_strdup(st, b.data, b.len));
    buf_free(&b);
    return v_obj(st, m);
  }
  /* num_classes=N: the head is N classes wide, not 1000 */
  value *nc = arg_get(a, -1, "num_classes");
  int64_t classes;
  if (nc && v_as_int(nc, &classes) && classes > 0 && per_class > 0 && classes != 1000) {
    count += (classes - 1000) * per_class;
  } else if (nc && per_class <= 0) {
    buf b = {0};
    buf_printf(&b, "%s: num_classes changes the classifier head, which the published count does not include", st_at(st, a->node));
    avec_push(st->a, &m->unknowns, st_strdup(st, b.data, b.len));
    buf_free(&b);
  } else if (nc && !v_as_int(nc, &classes)) {
    buf b = {0};
    buf_printf(&b, "%s: num_classes is not known: the head is counted with 1000 classes", st_at(st, a->node));
    avec_push(st->a, &m->unknowns, st_strdup(st, b.data, b.len));
    buf_free(&b);
  }
  buf b = {0};
  buf_printf(&b, "%s  [published: %.*s]", m->label, (int)source_len, source);
  param *p = param_new(st, NULL, count, m, a->node, st_strdup(st, b.data, b.len));
  buf_free(&b);
  value *pv = v_new(st, V_PARAM);
  pv->u.param = p;
  dict_set_str(st, m->attrs, "(checkpoint)", pv);
  /* torch_dtype=torch.bfloat16, load_in_8bit=True, quantization_config=BitsAndBytesConfig(...) */
  value *dt = arg_get(a, -1, "torch_dtype");
  if (!dt) dt = arg_get(a, -1, "dtype");
  int bits;
  const char *dname;
  if (dt && dt->kind == V_EXTERN && torch_dtype(dt->u.ext, strlen(dt->u.ext), &bits, &dname)) {
    p->bits = bits;
    p->dtype = dname;
  } else if (dt && !(dt->kind == V_NONE)) {
    buf n = {0};
    buf_printf(&n, "%s: the checkpoint's dtype (torch_dtype=%s) is not known: counted as float32", st_at(st, a->node),
               dt->kind == V_STR ? "\"auto\"" : "...");
    avec_push(st->a, &m->unknowns, st_strdup(st, n.data, n.len));
    buf_free(&n);
  }
  value *q = arg_get(a, -1, "quantization_config");
  bool t;
  value *q8 = arg_get(a, -1, "load_in_8bit"), *q4 = arg_get(a, -1, "load_in_4bit");
  if (q && q->kind == V_OBJECT) {
    q8 = dict_get_str(q->u.obj->attrs, "load_in_8bit", 12);
    q4 = dict_get_str(q->u.obj->attrs, "load_in_4bit", 12);
  }
  if ((q4 && v_truth(q4, &t) && t) || (q8 && v_truth(q8, &t) && t)) {
    bool four = q4 && v_truth(q4, &t) && t;
    p->bits = four ? 4 : 8;
    p->dtype = four ? "4-bit" : "int8";
    buf n = {0};
    buf_printf(&n, "line %u: %s quantization counts every parameter at %s; embeddings and norms stay 16-bit, "
                   "so the weights are a little larger", st_line(st, a->node), four ? "4-bit" : "8-bit",
               four ? "half a byte" : "one byte");
    avec_push(st->a, &m->unknowns, st_strdup(st, n.data, n.len));
    buf_free(&n);
  }
  return v_obj(st, m);
}


static bool model_class_name(const char *kname) {
  static const char *const not_models[] = {"Tokenizer", "Config", "Processor", "FeatureExtractor",
                                           "ImageProcessor", "Scheduler", "Pipeline", NULL};
  for (size_t i = 0; not_models[i]; i++)
    if (strstr(kname, not_models[i])) return false;
  return strstr(kname, "Model") || strstr(kname, "For") || strstr(kname, "Encoder") || strstr(kname, "Decoder");
}


/* ---- PEFT / LoRA ---- */

typedef struct {
  interp *st;
  value *targets;
  int64_t r;
  obj *model;
  int64_t added;
  bool any_layer;
} lora_ctx;


static bool target_matches(const value *targets, const char *path) {
  const char *leaf = strrchr(path, '.');
  leaf = leaf ? leaf + 1 : path;
  if (targets->kind == V_STR) {
    if (targets->u.s.n == 10 && !memcmp(targets->u.s.s, "all-linear", 10)) return true;
    return strlen(leaf) == targets->u.s.n && !memcmp(leaf, targets->u.s.s, targets->u.s.n);
  }
  if (targets->kind != V_LIST && targets->kind != V_TUPLE) return false;
  for (uint32_t i = 0; i < targets->u.seq->items.len; i++) {
    const value *t = targets->u.seq->items.items[i];
    if (t->kind == V_STR && strlen(leaf) == t->u.s.n && !memcmp(leaf, t->u.s.s, t->u.s.n)) return true;
  }
  return false;
}


static void lora_visit(void *vctx, obj *layer, const char *path) {
  lora_ctx *c = vctx;
  interp *st = c->st;
  if (layer->klass || !layer->qual || strcmp(layer->qual, "torch.nn.Linear") != 0) {
    if (layer->qual && strcmp(layer->qual, "torch.nn.Linear") != 0 && layer->layer) c->any_layer = true;
    return;
  }
  c->any_layer = true;
  if (!target_matches(c->targets, path)) return;
  int64_t in, out;
  value *iv = dict_get_str(layer->attrs, "in_features", 11), *ov = dict_get_str(layer->attrs, "out_features", 12);
  if (!iv || !ov || !v_as_int(iv, &in) || !v_as_int(ov, &out)) return;
  obj *adapter = obj_new(st, OBJ_MODULE, "LoRA");
  buf b = {0};
  buf_printf(&b, "LoRA(r=%lld) on %s", (long long)c->r, layer->label ? layer->label : path);
  adapter->label = st_strdup(st, b.data, b.len);
  buf_free(&b);
  adapter->site = layer->site;
  adapter->layer = true;
  shape a = {0}, bsh = {0};
  a.ndim = bsh.ndim = 2;
  a.dims[0] = c->r, a.dims[1] = in;
  bsh.dims[0] = out, bsh.dims[1] = c->r;
  value *pa = v_new(st, V_PARAM), *pb = v_new(st, V_PARAM);
  pa->u.param = param_new(st, &a, c->r * in, adapter, layer->site, adapter->label);
  pb->u.param = param_new(st, &bsh, out * c->r, adapter, layer->site, adapter->label);
  dict_set_str(st, adapter->attrs, "lora_A", pa);
  dict_set_str(st, adapter->attrs, "lora_B", pb);
  dict_set_str(st, layer->attrs, "lora", v_obj(st, adapter));
  c->added += c->r * (in + out);
}


static void freeze(void *ctx, param *p, const char *path) {
  (void)ctx;
  (void)path;
  p->trainable = false;
}


static value *peft_model(interp *st, value *model, value *config, TSNode site) {
  if (!is_module_value(model)) return model;
  obj *m = model->u.obj;
  if (!st_may_mutate(st, m->birth)) {
    st_blocked(st, site, "LoRA adapters are added");
    return model;
  }
  module_params(st, m, freeze, NULL);
  value *targets = NULL, *rv = NULL;
  if (config && config->kind == V_OBJECT) {
    targets = dict_get_str(config->u.obj->attrs, "target_modules", 14);
    rv = dict_get_str(config->u.obj->attrs, "r", 1);
  }
  int64_t r = 8;
  if (rv && !v_as_int(rv, &r)) r = -1;
  lora_ctx c = {st, targets, r, m, 0, false};
  if (targets && r > 0) {
    /* collect first: adding adapters while walking would visit them */
    AVEC(obj *) layers = {0};
    AVEC(const char *) paths = {0};
    value *mods = v_new(st, V_ITER);
    mods->u.iter.module = m;
    mods->u.iter.what = ITER_NAMED_MODULES;
    seq *items = torch_iter_items(st, mods);
    for (uint32_t i = 0; i < items->items.len; i++) {
      value *t = items->items.items[i];
      avec_push(st->a, &paths, t->u.seq->items.items[0]->u.s.s);
      avec_push(st->a, &layers, t->u.seq->items.items[1]->u.obj);
    }
    for (uint32_t i = 0; i < layers.len; i++) lora_visit(&c, layers.items[i], paths.items[i]);
  }
  if (!c.added) {
    buf b = {0};
    buf_printf(&b, "line %u: the LoRA adapters' parameters are not known (%s); the base model is frozen, the adapters "
                   "are not counted", st_line(st, site),
               !targets ? "target_modules is not known" : r <= 0 ? "r is not known" :
               c.any_layer ? "no nn.Linear matches target_modules" : "the model's layers are not known here");
    avec_push(st->a, &m->unknowns, st_strdup(st, b.data, b.len));
    buf_free(&b);
  }
  return model;
}


/* ---- the rest ---- */

static value *extern_object(interp *st, const char *qual, args *a) {
  obj *o = obj_new(st, OBJ_EXTERN, last_part(qual));
  o->qual = qual;
  o->site = a->node;
  o->args = seq_new(st);
  for (uint32_t i = 0; i < a->pos.len; i++) avec_push(st->a, &o->args->items, a->pos.items[i]);
  for (uint32_t i = 0; i < a->kwnames.len; i++)
    dict_set_str(st, o->attrs, st_strdup(st, a->kwnames.items[i].s, a->kwnames.items[i].n), a->kwvals.items[i]);
  return v_obj(st, o);
}


static value *math_call(interp *st, const char *name, args *a) {
  double x, y;
  if (!a->pos.len || !v_as_num(a->pos.items[0], &x)) return v_unknown(st, "math.%s() of something not known", name);
  if (!strcmp(name, "sqrt")) return v_float(st, sqrt(x));
  if (!strcmp(name, "ceil")) return v_int(st, (int64_t)ceil(x));
  if (!strcmp(name, "floor")) return v_int(st, (int64_t)floor(x));
  if (!strcmp(name, "log2")) return v_float(st, log2(x));
  if (!strcmp(name, "log")) return v_float(st, log(x));
  if (!strcmp(name, "exp")) return v_float(st, exp(x));
  if (!strcmp(name, "isqrt")) return v_int(st, (int64_t)floor(sqrt(x)));
  if (!strcmp(name, "gcd") && a->pos.len == 2 && v_as_num(a->pos.items[1], &y)) {
    int64_t p = (int64_t)x, q = (int64_t)y;
    while (q) {
      int64_t t = p % q;
      p = q;
      q = t;
    }
    return v_int(st, p < 0 ? -p : p);
  }
  return v_unknown(st, "math.%s()", name);
}


static value *namespace_of(interp *st, const char *type, args *a) {
  obj *o = obj_new(st, OBJ_PLAIN, type);
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  if (x && x->kind == V_DICT)
    for (uint32_t i = 0; i < x->u.dict->keys.len; i++) {
      value *k = x->u.dict->keys.items[i];
      if (k->kind == V_STR) dict_set_str(st, o->attrs, st_strdup(st, k->u.s.s, k->u.s.n), x->u.dict->vals.items[i]);
    }
  for (uint32_t i = 0; i < a->kwnames.len; i++)
    dict_set_str(st, o->attrs, st_strdup(st, a->kwnames.items[i].s, a->kwnames.items[i].n), a->kwvals.items[i]);
  return v_obj(st, o);
}


static value *wrapper(interp *st, const char *qual, args *a) {
  static const char *const same[] = {
    "torch.nn.parallel.DistributedDataParallel", "torch.nn.DataParallel", "torch.nn.parallel.DataParallel",
    "torch.compile", "torch.jit.script", "torch.nn.SyncBatchNorm.convert_sync_batchnorm",
    "peft.prepare_model_for_kbit_training", "peft.prepare_model_for_int8_training", NULL};
  static const char *const sharded[] = {
    "torch.distributed.fsdp.FullyShardedDataParallel", "torch.distributed.fsdp.fully_shard",
    "torch.distributed._composable.fsdp.fully_shard", "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel", NULL};
  value *m = arg_get(a, 0, "module");
  if (!m) m = arg_get(a, 0, "model");
  for (size_t i = 0; sharded[i]; i++)
    if (!strcmp(qual, sharded[i])) {
      if (is_module_value(m)) m->u.obj->sharded = true;
      st->sharded = true;
      return m ? m : v_unknown(st, "a sharded model");
    }
  for (size_t i = 0; same[i]; i++)
    if (!strcmp(qual, same[i])) {
      if (!strcmp(qual, "peft.prepare_model_for_kbit_training") && is_module_value(m)) module_params(st, m->u.obj, freeze, NULL);
      return m ? m : v_unknown(st, "a wrapped model");
    }
  return NULL;
}


value *torch_call(interp *st, const char *qual, args *a) {
  const char *name = last_part(qual);
  value *v;
  if ((v = script_call(st, qual, a))) return v;
  if ((v = data_call(st, qual, a))) return v;
  if (!strcmp(qual, "torch.nn.Parameter") || !strcmp(qual, "torch.nn.parameter.Parameter")) return make_parameter(st, a);
  if (!strcmp(qual, "torch.nn.Sequential") || !strcmp(qual, "torch.nn.ModuleList") ||
      !strcmp(qual, "torch.nn.ModuleDict") || !strcmp(qual, "torch.nn.ParameterList") ||
      !strcmp(qual, "torch.nn.ParameterDict") || starts(qual, "torch.nn.modules.container."))
    return container(st, name, a);
  if ((v = wrapper(st, qual, a))) return v;
  if ((v = act_torch_call(st, qual, a))) return v; /* ops on tensors: activations.c */
  if (starts(qual, "torch.nn.init.")) return st->none;
  if (!strcmp(qual, "torch.nn.utils.weight_norm") || !strcmp(qual, "torch.nn.utils.spectral_norm") ||
      !strcmp(qual, "torch.nn.utils.parametrizations.weight_norm") ||
      !strcmp(qual, "torch.nn.utils.parametrizations.spectral_norm")) {
    if (!strcmp(name, "weight_norm")) note(st, a->node, "%s adds a magnitude per output channel: not counted", "weight_norm");
    return a->pos.len ? a->pos.items[0] : v_unknown(st, "weight_norm()");
  }
  if (starts(qual, "torch.nn.")) {
    if ((v = layer_build(st, qual, a))) return v;
  }
  if (starts(qual, "torch.") && !strchr(qual + 6, '.') && (v = tensor_factory(st, name, a))) {
    act_factory(st, v, a); /* requires_grad=True: activations.c */
    return v;
  }
  if (!strcmp(qual, "torch.set_default_dtype") && a->pos.len) {
    int bits;
    const char *dn;
    value *d = a->pos.items[0];
    if (d->kind == V_EXTERN && torch_dtype(d->u.ext, strlen(d->u.ext), &bits, &dn)) {
      st->default_bits = bits;
      st->default_dtype = dn;
    }
    return st->none;
  }
  if (!strcmp(qual, "torch.Size")) return a->pos.len ? a->pos.items[0] : v_list(st, V_TUPLE);
  if ((starts(qual, "torch.optim.") || starts(qual, "bitsandbytes.optim.") || !strcmp(qual, "lion_pytorch.Lion") ||
       !strcmp(qual, "transformers.Adafactor") || !strcmp(qual, "transformers.optimization.Adafactor")) &&
      !strstr(qual, "lr_scheduler")) {
    if (!strcmp(qual, "lion_pytorch.Lion")) {
      optim_def d = {"Lion", 1, -1};
      return make_optimizer(st, &d, "Lion", a, arg_get(a, 0, "params"));
    }
    if (strstr(qual, "Adafactor")) {
      optim_def d = {"Adafactor", -1, -1};
      return make_optimizer(st, &d, "Adafactor", a, arg_get(a, 0, "params"));
    }
    if ((v = optimizer(st, qual, a))) return v;
  }
  if (!strcmp(qual, "torch.distributed.optim.ZeroRedundancyOptimizer")) {
    st->sharded = true;
    value *cls = arg_get(a, -1, "optimizer_class");
    if (cls && cls->kind == V_EXTERN && (v = optimizer(st, cls->u.ext, a))) return v;
  }
  if (!strcmp(qual, "torch.utils.data.DataLoader") || !strcmp(qual, "torch.utils.data.dataloader.DataLoader"))
    return data_loader(st, a);
  if (!strcmp(qual, "torch.utils.data.TensorDataset") || !strcmp(qual, "torch.utils.data.dataset.TensorDataset"))
    return tensor_dataset(st, a);
  if (starts(qual, "torchvision.datasets.") && (v = image_dataset(st, name, a))) return v;
  /* pretrained checkpoints */
  if (!strcmp(name, "from_pretrained") && !starts(qual, "peft.")) {
    const char *dot = qual + strlen(qual) - strlen(".from_pretrained");
    const char *start = dot;
    while (start > qual && start[-1] != '.') start--;
    char *kname = st_strdup(st, start, (size_t)(dot - start));
    if (model_class_name(kname))
      return pretrained(st, kname, st_strdup(st, qual, (size_t)(dot - qual)), arg_get(a, 0, "pretrained_model_name_or_path"), a,
                        st_strdup(st, qual + (start - qual), strlen(start)));
    return extern_object(st, qual, a);
  }
  if (!strcmp(qual, "timm.create_model")) {
    return pretrained(st, "timm model", qual, arg_get(a, 0, "model_name"), a, "timm.create_model");
  }
  if (starts(qual, "torchvision.models.") && (v = script_zoo(st, qual, a))) return v;
  if (!strcmp(qual, "torchvision.models.get_model") && a->pos.len && a->pos.items[0]->kind == V_STR) {
    buf q = {0};
    buf_printf(&q, "torchvision.models.%.*s", (int)a->pos.items[0]->u.s.n, a->pos.items[0]->u.s.s);
    args rest = *a;
    rest.pos.items++;
    rest.pos.len--;
    v = script_zoo(st, st_strdup(st, q.data, q.len), &rest);
    buf_free(&q);
    if (v) return v;
  }
  if (starts(qual, "torchvision.models.") && name[0] >= 'a' && name[0] <= 'z' && strcmp(name, "get_weight") != 0) {
    value *n = !strcmp(name, "get_model") ? arg_get(a, 0, "name") : v_str(st, name, (uint32_t)strlen(name));
    return pretrained(st, strcmp(name, "get_model") ? name : "torchvision model", qual, n, a, strcmp(name, "get_model") ? NULL : qual);
  }
  if (!strcmp(qual, "torch.hub.load") && a->pos.len >= 2)
    return pretrained(st, "torch.hub model", qual, a->pos.items[1], a, "torch.hub.load");
  if (!strcmp(qual, "sentence_transformers.SentenceTransformer"))
    return pretrained(st, "SentenceTransformer", qual, arg_get(a, 0, "model_name_or_path"), a, "SentenceTransformer");
  /* PEFT */
  if (!strcmp(qual, "peft.get_peft_model")) return peft_model(st, arg_get(a, 0, "model"), arg_get(a, 1, "peft_config"), a->node);
  if (!strcmp(qual, "peft.PeftModel.from_pretrained")) return peft_model(st, arg_get(a, 0, "model"), NULL, a->node);
  /* trainers */
  if (!strcmp(qual, "transformers.Trainer") || !strcmp(qual, "transformers.Seq2SeqTrainer") ||
      !strcmp(qual, "trl.SFTTrainer") || !strcmp(qual, "trl.DPOTrainer")) {
    value *model = arg_get(a, 0, "model");
    value *targs = arg_get(a, 1, "args");
    value *given = arg_get(a, -1, "optimizers");
    if (is_module_value(model) && !given) model->u.obj->optimizer = trainer_optimizer(st, targs, model->u.obj, a->node)->u.obj;
    return extern_object(st, qual, a);
  }
  if (!strcmp(qual, "transformers.TrainingArguments") || !strcmp(qual, "transformers.Seq2SeqTrainingArguments") ||
      !strcmp(qual, "trl.SFTConfig") || !strcmp(qual, "trl.DPOConfig")) {
    value *bs = arg_get(a, -1, "per_device_train_batch_size");
    if (bs && bs->kind == V_INT) record_batch(st, bs, "per_device_train_batch_size", -1, a->node);
    return extern_object(st, qual, a);
  }
  if (!strcmp(qual, "deepspeed.initialize")) {
    value *m = arg_get(a, -1, "model");
    st->sharded = true;
    if (is_module_value(m)) m->u.obj->sharded = true;
    value *t = v_list(st, V_TUPLE);
    avec_push(st->a, &t->u.seq->items, m ? m : v_unknown(st, "a DeepSpeed engine"));
    for (int i = 0; i < 3; i++) avec_push(st->a, &t->u.seq->items, v_unknown(st, "a DeepSpeed object"));
    return t;
  }
  /* helpers */
  if (!strcmp(qual, "copy.deepcopy") && a->pos.len) return deep_copy(st, a->pos.items[0]);
  if (!strcmp(qual, "copy.copy") && a->pos.len) return a->pos.items[0];
  if (!strcmp(qual, "functools.partial") && a->pos.len) {
    value *p = v_new(st, V_PARTIAL);
    p->u.partial.fn = a->pos.items[0];
    p->u.partial.args = seq_new(st);
    for (uint32_t i = 1; i < a->pos.len; i++) avec_push(st->a, &p->u.partial.args->items, a->pos.items[i]);
    p->u.partial.kw = dict_new(st);
    for (uint32_t i = 0; i < a->kwnames.len; i++)
      dict_set(st, p->u.partial.kw, v_str(st, a->kwnames.items[i].s, a->kwnames.items[i].n), a->kwvals.items[i]);
    return p;
  }
  if (!strcmp(qual, "dataclasses.field") || !strcmp(qual, "attr.ib") || !strcmp(qual, "attr.attrib") ||
      !strcmp(qual, "attr.field") || !strcmp(qual, "attrs.field")) {
    value *f = v_new(st, V_FIELD);
    f->u.field.dflt = arg_get(a, qual[0] == 'a' && !strchr(qual + 5, 'f') ? 0 : -1, "default");
    f->u.field.factory = arg_get(a, -1, "default_factory");
    if (!f->u.field.factory) f->u.field.factory = arg_get(a, -1, "factory");
    return f;
  }
  if (!strcmp(qual, "dataclasses.asdict") && a->pos.len && a->pos.items[0]->kind == V_OBJECT) {
    value *d = v_dict(st);
    dict *src = a->pos.items[0]->u.obj->attrs;
    for (uint32_t i = 0; i < src->keys.len; i++) dict_set(st, d->u.dict, src->keys.items[i], src->vals.items[i]);
    return d;
  }
  if (!strcmp(qual, "dataclasses.replace") && a->pos.len && a->pos.items[0]->kind == V_OBJECT) {
    obj *src = a->pos.items[0]->u.obj;
    obj *o = obj_new(st, src->kind == OBJ_MODULE ? OBJ_PLAIN : src->kind, src->type);
    o->klass = src->klass;
    for (uint32_t i = 0; i < src->attrs->keys.len; i++) dict_set(st, o->attrs, src->attrs->keys.items[i], src->attrs->vals.items[i]);
    for (uint32_t i = 0; i < a->kwnames.len; i++)
      dict_set_str(st, o->attrs, st_strdup(st, a->kwnames.items[i].s, a->kwnames.items[i].n), a->kwvals.items[i]);
    return v_obj(st, o);
  }
  if (starts(qual, "math.")) return math_call(st, name, a);
  if (!strcmp(qual, "types.SimpleNamespace") || !strcmp(qual, "argparse.Namespace") || !strcmp(qual, "easydict.EasyDict") ||
      !strcmp(qual, "ml_collections.ConfigDict"))
    return namespace_of(st, name, a);
  if (!strcmp(qual, "collections.OrderedDict")) return call_value(st, v_extern(st, "dict"), a);
  if (!strcmp(qual, "collections.namedtuple")) {
    /* namedtuple("VggOutputs", ['relu1_2', ...]) or "x y": a class of those fields */
    value *fields = arg_get(a, 1, "field_names");
    obj *o = obj_new(st, OBJ_EXTERN, "namedtuple");
    o->qual = qual;
    o->args = seq_new(st);
    if (fields && fields->kind == V_STR) {
      for (uint32_t i = 0; i < fields->u.s.n;) {
        while (i < fields->u.s.n && (fields->u.s.s[i] == ' ' || fields->u.s.s[i] == ',')) i++;
        uint32_t j = i;
        while (j < fields->u.s.n && fields->u.s.s[j] != ' ' && fields->u.s.s[j] != ',') j++;
        if (j > i) avec_push(st->a, &o->args->items, v_str(st, fields->u.s.s + i, j - i));
        i = j;
      }
    } else {
      seq *names = fields ? v_iterate(st, fields) : NULL;
      if (!names) return v_unknown(st, "a namedtuple whose fields are not known");
      for (uint32_t i = 0; i < names->items.len; i++) {
        if (names->items.items[i]->kind != V_STR) return v_unknown(st, "a namedtuple whose fields are not known");
        avec_push(st->a, &o->args->items, names->items.items[i]);
      }
    }
    return v_obj(st, o);
  }
  if (!strcmp(qual, "torch.cuda.is_available") || !strcmp(qual, "torch.device")) return v_unknown(st, "the machine it runs on");
  /* tqdm(iterable, desc=...) (tqdm.tqdm, tqdm.auto.tqdm, torch.hub.tqdm ...) yields
   * the iterable's items unchanged: a progress bar over a loader is the loader */
  if (!strcmp(name, "tqdm")) {
    value *it = arg_get(a, 0, "iterable");
    return it ? it : v_unknown(st, "a progress bar without an iterable");
  }
  /* a library class: keep its arguments, so that config.hidden_size reads back */
  if (name[0] >= 'A' && name[0] <= 'Z') return extern_object(st, qual, a);
  if (qual[0] == '.') return v_unknown(st, "`%s` comes from another file of the project", qual + 1);
  /* torch.tanh(x) of an x not known: why x is not known says more than the call */
  if (starts(qual, "torch.") && a->pos.len && a->pos.items[0]->kind == V_UNKNOWN && a->pos.items[0]->why)
    return a->pos.items[0];
  return v_unknown(st, "the result of `%s()`", qual);
}


value *torch_extern_method(interp *st, value *self, const char *name, args *a) {
  obj *o = self->u.obj;
  value *s = script_method(st, self, name, a);
  if (s) return s;
  if ((s = data_image_method(st, self, name, a))) return s;
  if (o->kind == OBJ_EXTERN && o->qual && !strcmp(last_part(o->qual), "Accelerator") && !strcmp(name, "prepare")) {
    if (a->pos.len == 1) return a->pos.items[0];
    value *t = v_list(st, V_TUPLE);
    for (uint32_t i = 0; i < a->pos.len; i++) avec_push(st->a, &t->u.seq->items, a->pos.items[i]);
    return t;
  }
  if (o->kind == OBJ_EXTERN && o->qual && strstr(o->qual, "Trainer") && !strcmp(name, "fit")) return st->none;
  if (o->kind == OBJ_PLAIN && !strcmp(name, "__init__")) return st->none;
  return v_unknown(st, "the result of `%s.%s()`", o->type ? o->type : "object", name);
}
