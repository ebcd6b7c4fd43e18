/* This file contains the torch.* and F.* calls, tensor methods, arithmetic and subscripts of the
 * activations estimate: shapes, views that share storage, and what each keeps for backward. */
#include "estimate/act.h"

#include <assert.h>
#include <string.h>

#include "parse/fields.h"

/* ---- functional ops ---- */

static const char *act_after(const char *qual, const char *prefix) {
  size_t n = strlen(prefix);
  return strncmp(qual, prefix, n) ? NULL : qual + n;
}


static bool any_tensor(args *a) {
  for (uint32_t i = 0; i < a->pos.len; i++) {
    value *v = a->pos.items[i];
    if (act_is_tensor(v)) return true;
    if ((v->kind == V_LIST || v->kind == V_TUPLE) && v->u.seq->items.len && act_is_tensor(v->u.seq->items.items[0]))
      return true;
  }
  return false;
}


static value *cat(interp *st, args *a, bool stack) {
  value *list = arg_get(a, 0, "tensors");
  int64_t dim = act_int_or(arg_get(a, 1, "dim"), 0, 0);
  /* a list a loop over the data filled: how long the result is is not known (torch.c) */
  if (list && list->kind == V_LIST && list->u.seq->more) return NULL;
  seq *items = list ? v_iterate(st, list) : NULL;
  if (!items || !items->items.len) return v_unknown(st, "torch.cat of tensors not known");
  const shape *s0 = act_shape_of(items->items.items[0]);
  if (!s0) return v_unknown(st, "torch.cat of tensors not known");
  shape o = *s0;
  if (stack && o.ndim + 1 > EST_MAX_DIMS) return v_unknown(st, "torch.stack of too many dimensions");
  int nd = o.ndim + (stack ? 1 : 0);
  if (dim < 0) dim += nd;
  if (dim < 0 || dim >= nd) return v_unknown(st, "torch.cat along a dimension out of range");
  bool grad = false;
  int64_t total = 0;
  for (uint32_t i = 0; i < items->items.len; i++) {
    const shape *s = act_shape_of(items->items.items[i]);
    if (!s && items->items.items[i]->kind == V_UNKNOWN && items->items.items[i]->why) return items->items.items[i];
    if (!s || s->ndim != s0->ndim) return v_unknown(st, "torch.cat of tensors not known");
    if (act_info_of(st, items->items.items[i]).grad) grad = true;
    if (!stack) total = total < 0 || s->dims[dim] < 0 ? -1 : total + s->dims[dim];
  }
  if (stack) {
    for (int i = nd - 1; i > dim; i--) o.dims[i] = o.dims[i - 1];
    o.dims[dim] = (int64_t)items->items.len;
    o.ndim = nd;
  } else {
    o.dims[dim] = total;
  }
  return act_make(st, &o, UINT32_MAX, grad, true,
                  items->items.items[0]->kind == V_TENSOR ? items->items.items[0]->dim0 : (TSNode){0});
}


value *act_torch_call(interp *st, const char *qual, args *a) {
  if (!st->act) return NULL;
  const char *n;
  if (!strcmp(qual, "torch.no_grad") || !strcmp(qual, "torch.inference_mode") || !strcmp(qual, "torch.enable_grad") ||
      !strcmp(qual, "torch.autocast") || !strcmp(qual, "torch.amp.autocast") ||
      !strcmp(qual, "torch.cuda.amp.autocast") || !strcmp(qual, "torch.cpu.amp.autocast") ||
      !strcmp(qual, "torch.amp.autocast_mode.autocast"))
    return act_context(st, qual, a);
  if (!strcmp(qual, "torch.utils.checkpoint.checkpoint")) return act_checkpoint(st, a);
  if (!any_tensor(a)) return NULL;
  if (!(n = act_after(qual, "torch.nn.functional.")) && !((n = act_after(qual, "torch.")) && !strchr(n, '.')))
    return NULL;
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  if (!strcmp(n, "cat") || !strcmp(n, "concat") || !strcmp(n, "stack")) return cat(st, a, !strcmp(n, "stack"));
  if (!strcmp(n, "from_numpy") && x && x->kind == V_TENSOR) return x;
  if (!x || x->kind != V_TENSOR) return NULL;
  if (!act_known(x->u.tensor)) return NULL;
  uint32_t line = act_line_of(st, a->node);
  const char *label = act_call_label(st, a->node);
  int ab = st->act->autocast_bits;
  /* methods that torch.* also has: torch.flatten(x, 1), torch.transpose(x, 0, 1) */
  static const char *const methods[] = {
      "flatten", "reshape",     "transpose",   "permute", "squeeze", "unsqueeze", "split", "chunk", "sum",    "mean",
      "softmax", "log_softmax", "masked_fill", "tanh",    "sigmoid", "exp",       "relu",  "t",     "unbind", "gather",
      NULL};
  for (size_t i = 0; methods[i]; i++)
    if (!strcmp(n, methods[i]) &&
        !(act_after(qual, "torch.nn.functional.") && (!strcmp(n, "softmax") || !strcmp(n, "log_softmax")))) {
      args b = *a;
      b.pos.items = a->pos.items + 1;
      b.pos.len = a->pos.len - 1;
      b.pos.cap = b.pos.len;
      return act_tensor_method(st, x, n, &b);
    }
  if (!strcmp(n, "relu") || !strcmp(n, "relu_") || !strcmp(n, "relu6") || !strcmp(n, "hardtanh"))
    return act_unary(st, OP_SAVE_OUTPUT, line, label, x,
                     !strcmp(n, "relu_") || act_flag_of(arg_get(a, -1, "inplace"), false), 0, 0);
  if (!strcmp(n, "softmax") || !strcmp(n, "log_softmax"))
    return act_unary(st, OP_SAVE_OUTPUT, line, label, x, false, 0, ab ? 32 : 0);
  if (!strcmp(n, "gelu") || !strcmp(n, "silu") || !strcmp(n, "mish") || !strcmp(n, "hardswish") ||
      !strcmp(n, "softplus") || !strcmp(n, "elu") || !strcmp(n, "leaky_relu") || !strcmp(n, "selu") ||
      !strcmp(n, "logsigmoid"))
    return act_unary(st, OP_SAVE_INPUT, line, label, x, false, 0, 0);
  if (!strcmp(n, "dropout") || !strcmp(n, "dropout1d") || !strcmp(n, "dropout2d") || !strcmp(n, "dropout3d")) {
    bool training = act_flag_of(arg_get(a, 2, "training"), true);
    return act_unary(st, OP_DROPOUT, line, label, x, act_flag_of(arg_get(a, 3, "inplace"), false),
                     training ? act_num_of(arg_get(a, 1, "p"), 0.5) : 0, 0);
  }
  if (!strncmp(n, "max_pool", 8))
    return act_pool(st, OP_MAX_POOL, line, label, x, act_spatial_dims(n), arg_get(a, 1, "kernel_size"),
                    arg_get(a, 2, "stride"), arg_get(a, 3, "padding"), arg_get(a, 4, "dilation"),
                    act_flag_of(arg_get(a, 5, "ceil_mode"), false));
  if (!strncmp(n, "avg_pool", 8))
    return act_pool(st, OP_SAVE_INPUT, line, label, x, act_spatial_dims(n), arg_get(a, 1, "kernel_size"),
                    arg_get(a, 2, "stride"), arg_get(a, 3, "padding"), NULL,
                    act_flag_of(arg_get(a, 4, "ceil_mode"), false));
  if (!strncmp(n, "adaptive_avg_pool", 17) || !strncmp(n, "adaptive_max_pool", 17))
    return act_adaptive_pool(st, n[9] == 'm', line, label, x, act_spatial_dims(n), arg_get(a, 1, "output_size"));
  if (!strcmp(n, "linear")) {
    value *w = arg_get(a, 1, "weight");
    const shape *ws = w ? act_shape_of(w) : NULL;
    if (!ws || ws->ndim != 2) return v_unknown(st, "line %u: %s: its weight is not known", line, label);
    return act_linear(st, line, label, x, w, ws->dims[0]);
  }
  if (!strncmp(n, "conv", 4) && (n[4] == '1' || n[4] == '2' || n[4] == '3')) {
    value *w = arg_get(a, 1, "weight");
    const shape *ws = w ? act_shape_of(w) : NULL;
    if (!ws) return v_unknown(st, "line %u: %s: its weight is not known", line, label);
    return act_conv(st, line, label, x, w, n[4] - '0', false, arg_get(a, 3, "stride"), arg_get(a, 4, "padding"),
                arg_get(a, 5, "dilation"), NULL, ws->dims[0]);
  }
  if (!strcmp(n, "layer_norm") || !strcmp(n, "rms_norm")) {
    value *ns = arg_get(a, 1, "normalized_shape");
    int64_t inner = 1;
    seq *dims = ns ? v_iterate(st, ns) : NULL;
    int64_t one;
    if (ns && v_as_int(ns, &one)) inner = one;
    else if (dims) {
      for (uint32_t i = 0; i < dims->items.len; i++) {
        if (!v_as_int(dims->items.items[i], &one))
          return v_unknown(st, "line %u: %s: its shape is not known", line, label);
        inner *= one;
      }
    } else {
      return v_unknown(st, "line %u: %s: its normalized shape is not known", line, label);
    }
    value *ps[2] = {arg_get(a, 2, "weight"), arg_get(a, 3, "bias")};
    return act_norm(st, n[0] == 'r' ? OP_RMS_NORM : OP_LAYER_NORM, line, label, x,
                    inner > 0 ? act_elems(x->u.tensor) / inner : -1, ps, 2);
  }
  if (!strcmp(n, "embedding"))
    return act_embedding(st, line, label, x, arg_get(a, 1, "weight") ? arg_get(a, 1, "weight") : st->unknown);
  if (!strcmp(n, "cross_entropy") || !strcmp(n, "nll_loss") || !strcmp(n, "mse_loss") || !strcmp(n, "l1_loss") ||
      !strcmp(n, "smooth_l1_loss") || !strcmp(n, "binary_cross_entropy") ||
      !strcmp(n, "binary_cross_entropy_with_logits")) {
    value *t = arg_get(a, 1, "target");
    op_kind k = !strcmp(n, "cross_entropy") ? OP_CROSS_ENTROPY : !strcmp(n, "nll_loss") ? OP_NLL_LOSS : OP_PAIR_LOSS;
    return act_loss(st, k, line, label, x, t && act_is_tensor(t) ? t : NULL);
  }
  if (!strcmp(n, "scaled_dot_product_attention")) {
    value *k = arg_get(a, 1, "key"), *v = arg_get(a, 2, "value");
    if (!k || !v || k->kind != V_TENSOR || v->kind != V_TENSOR || !act_known(k->u.tensor) || !act_known(v->u.tensor))
      return v_unknown(st, "line %u: %s: its key or value is not known", line, label);
    if (ab) {
      x = act_cast(st, x, ab);
      k = act_cast(st, k, ab);
      v = act_cast(st, v, ab);
    }
    shape o = *x->u.tensor;
    o.dims[o.ndim - 1] = v->u.tensor->dims[v->u.tensor->ndim - 1];
    bool grad = act_info_of(st, x).grad || act_info_of(st, k).grad || act_info_of(st, v).grad;
    value *out = act_make(st, &o, UINT32_MAX, grad, false, x->dim0);
    /* flash, memory-efficient and cuDNN attention write (B, S, H, D): the
     * usual y.transpose(1, 2).contiguous() copies nothing */
    if (o.ndim == 4) act_map_get(st->act, out->u.tensor)->bshd = true;
    saved_in si;
    memset(&si, 0, sizeof si);
    int64_t d = x->u.tensor->dims[x->u.tensor->ndim - 1];
    si.rows = d > 0 ? act_elems(x->u.tensor) / d : -1;
    value *ins[3] = {x, k, v};
    act_record(st, OP_SDPA, line, label, ins, 3, out, &si);
    return out;
  }
  if (!strcmp(n, "interpolate") || !strcmp(n, "upsample"))
    return act_resize(st, line, label, x, arg_get(a, 1, "size"), arg_get(a, 2, "scale_factor"));
  if (!strcmp(n, "pad")) {
    value *mode = arg_get(a, 2, "mode");
    bool keeps = mode && mode->kind == V_STR && ((mode->u.s.n == 7 && !memcmp(mode->u.s.s, "reflect", 7)) ||
                                                 (mode->u.s.n == 9 && !memcmp(mode->u.s.s, "replicate", 9)));
    return act_pad(st, line, label, x, arg_get(a, 1, "pad"), keeps);
  }
  if (!strcmp(n, "matmul") || !strcmp(n, "bmm") || !strcmp(n, "mm")) {
    value *r = a->pos.len > 1 ? a->pos.items[1] : NULL;
    if (!r || !act_is_tensor(r) || !act_known(act_shape_of(r)))
      return v_unknown(st, "line %u: %s: an operand is not known", line, label);
    return act_matmul(st, line, label, x, r);
  }
  if (!strcmp(n, "zeros_like") || !strcmp(n, "ones_like") || !strcmp(n, "randn_like") || !strcmp(n, "rand_like") ||
      !strcmp(n, "empty_like") || !strcmp(n, "tril") || !strcmp(n, "triu") || !strcmp(n, "full_like"))
    return act_make(st, x->u.tensor, UINT32_MAX,
                    !strcmp(n, "tril") || !strcmp(n, "triu") ? act_info_of(st, x).grad : false, true, x->dim0);
  return NULL;
}


/* ---- tensor methods ---- */

static bool dims_of_args(interp *st, args *a, int first, int64_t *out, int *n) {
  *n = 0;
  if ((int)a->pos.len == first + 1) {
    value *v = a->pos.items[first];
    if (v->kind == V_LIST || v->kind == V_TUPLE) {
      seq *s = v->u.seq;
      if (s->items.len > EST_MAX_DIMS) return false;
      for (uint32_t i = 0; i < s->items.len; i++)
        if (!v_as_int(s->items.items[i], &out[(*n)++])) return false;
      return true;
    }
  }
  (void)st;
  for (uint32_t i = (uint32_t)first; i < a->pos.len; i++) {
    if (*n >= EST_MAX_DIMS || !v_as_int(a->pos.items[i], &out[(*n)++])) return false;
  }
  return true;
}


static value *view(interp *st, value *x, const int64_t *dims, int n, bool reshape) {
  const shape *in = x->u.tensor;
  int64_t total = act_elems(in);
  shape o = *in;
  o.ndim = n;
  int infer = -1;
  int64_t prod = 1;
  for (int i = 0; i < n; i++) {
    if (dims[i] == -1) {
      if (infer >= 0) return v_unknown(st, "a view with two -1 dimensions");
      infer = i;
      continue;
    }
    if (dims[i] < 0) return v_unknown(st, "a view of a negative size");
    o.dims[i] = dims[i];
    prod *= dims[i];
  }
  if (infer >= 0) {
    if (total < 0 || prod == 0) return v_unknown(st, "a view whose size is not known");
    o.dims[infer] = total / prod;
  } else if (total >= 0 && prod != total) {
    return v_unknown(st, "a view of %lld elements as %lld", (long long)total, (long long)prod);
  }
  tinfo t = act_info_of(st, x);
  /* reshape of a transposed tensor copies it */
  bool copy = reshape && !t.contig;
  return act_make(st, &o, copy ? UINT32_MAX : t.storage, t.grad, true, x->dim0);
}


value *act_tuple_of(interp *st, value **items, uint32_t n) {
  value *t = v_list(st, V_TUPLE);
  for (uint32_t i = 0; i < n; i++) avec_push(st->a, &t->u.seq->items, items[i]);
  return t;
}


/* A parameter used as a tensor (cls_token.expand(...), pos_embed[:, :n]): resident
 * with the model, so never counted, and needing a gradient when trainable. */
static value *param_tensor(interp *st, value *v) {
  const param *p = v->u.param;
  if (p->sh.ndim < 0 || !act_known(&p->sh)) return NULL;
  shape s = p->sh;
  if (!s.bits) s.bits = p->bits;
  value *t = act_make(st, &s, UINT32_MAX, p->trainable, true, (TSNode){0});
  act_mark_resident(st, t);
  return t;
}


value *act_tensor_method(interp *st, value *self, const char *name, args *a) {
  if (st->act && self->kind == V_PARAM && strcmp(name, "numel") != 0 && strcmp(name, "requires_grad_") != 0 &&
      strcmp(name, "size") != 0 && strcmp(name, "dim") != 0) {
    value *t = param_tensor(st, self);
    if (t) self = t;
  }
  if (!st->act || self->kind != V_TENSOR || !act_known(self->u.tensor)) return NULL;
  const shape *in = self->u.tensor;
  tinfo t = act_info_of(st, self);
  int nd = in->ndim;
  int64_t dims[EST_MAX_DIMS];
  int n;
  uint32_t line = act_line_of(st, a->node);
  if (!strcmp(name, "view") || !strcmp(name, "reshape")) {
    if (a->pos.len == 1 && a->pos.items[0]->kind == V_EXTERN) return NULL; /* view(dtype) */
    if (!dims_of_args(st, a, 0, dims, &n)) return v_unknown(st, "line %u: a view whose shape is not known", line);
    return view(st, self, dims, n, name[0] == 'r');
  }
  if (!strcmp(name, "view_as") || !strcmp(name, "reshape_as") || !strcmp(name, "expand_as")) {
    const shape *o = a->pos.len ? act_shape_of(a->pos.items[0]) : NULL;
    if (!o || !act_known(o)) return v_unknown(st, "line %u: a view like a tensor not known", line);
    return view(st, self, o->dims, o->ndim, name[0] == 'r');
  }
  if (!strcmp(name, "flatten")) {
    int64_t s = act_int_or(arg_get(a, 0, "start_dim"), 0, 0), e = act_int_or(arg_get(a, 1, "end_dim"), 0, -1);
    if (s < 0) s += nd;
    if (e < 0) e += nd;
    if (nd == 0) return self;
    if (s < 0 || e >= nd || s > e) return v_unknown(st, "line %u: a flatten out of range", line);
    n = 0;
    for (int i = 0; i < s; i++) dims[n++] = in->dims[i];
    int64_t p = 1;
    for (int64_t i = s; i <= e; i++) p *= in->dims[i];
    dims[n++] = p;
    for (int i = (int)e + 1; i < nd; i++) dims[n++] = in->dims[i];
    return view(st, self, dims, n, true);
  }
  if (!strcmp(name, "transpose") || !strcmp(name, "swapaxes") || !strcmp(name, "t") || !strcmp(name, "permute")) {
    shape o = *in;
    if (name[0] == 'p') {
      if (!dims_of_args(st, a, 0, dims, &n) || n != nd) return v_unknown(st, "line %u: a permute not known", line);
      for (int i = 0; i < nd; i++) {
        int64_t d = dims[i] < 0 ? dims[i] + nd : dims[i];
        if (d < 0 || d >= nd) return v_unknown(st, "line %u: a permute out of range", line);
        o.dims[i] = in->dims[d];
      }
    } else {
      int64_t d0 = name[0] == 't' && name[1] == 0 ? 0 : act_int_or(a->pos.len ? a->pos.items[0] : NULL, 0, -99);
      int64_t d1 = name[0] == 't' && name[1] == 0 ? 1 : act_int_or(a->pos.len > 1 ? a->pos.items[1] : NULL, 0, -99);
      if (d0 < 0) d0 += nd;
      if (d1 < 0) d1 += nd;
      if (d0 < 0 || d1 < 0 || d0 >= nd || d1 >= nd) return v_unknown(st, "line %u: a transpose out of range", line);
      o.dims[d0] = in->dims[d1];
      o.dims[d1] = in->dims[d0];
      if (t.bshd && ((d0 == 1 && d1 == 2) || (d0 == 2 && d1 == 1)))
        return act_make(st, &o, t.storage, t.grad, true, self->dim0);
    }
    return act_make(st, &o, t.storage, t.grad, false, self->dim0);
  }
  if (!strcmp(name, "contiguous")) return t.contig ? self : act_make(st, in, UINT32_MAX, t.grad, true, self->dim0);
  if (!strcmp(name, "unsqueeze") || !strcmp(name, "squeeze")) {
    shape o = *in;
    int64_t d = act_int_or(a->pos.len ? a->pos.items[0] : NULL, 0, -99);
    if (name[0] == 'u') {
      if (d < 0) d += nd + 1;
      if (d < 0 || d > nd || nd + 1 > EST_MAX_DIMS) return v_unknown(st, "line %u: an unsqueeze out of range", line);
      for (int i = nd; i > d; i--) o.dims[i] = o.dims[i - 1];
      o.dims[d] = 1;
      o.ndim++;
    } else {
      o.ndim = 0;
      if (d < 0 && d != -99) d += nd;
      for (int i = 0; i < nd; i++)
        if (!(in->dims[i] == 1 && (d == -99 || d == i))) o.dims[o.ndim++] = in->dims[i];
    }
    return act_make(st, &o, t.storage, t.grad, t.contig, self->dim0);
  }
  if (!strcmp(name, "split") || !strcmp(name, "chunk")) {
    value *sz = arg_get(a, 0, name[0] == 's' ? "split_size" : "chunks");
    int64_t d = act_int_or(arg_get(a, 1, "dim"), 0, 0);
    if (d < 0) d += nd;
    int64_t s;
    if (d < 0 || d >= nd || !sz || !v_as_int(sz, &s) || s < 1)
      return v_unknown(st, "line %u: a %s not known", line, name);
    int64_t L = in->dims[d];
    int64_t size = name[0] == 's' ? s : (L + s - 1) / s;
    if (size < 1) return v_unknown(st, "line %u: a %s not known", line, name);
    value *parts[64];
    uint32_t np = 0;
    for (int64_t off = 0; off < L && np < 64; off += size) {
      shape o = *in;
      o.dims[d] = off + size <= L ? size : L - off;
      parts[np++] = act_make(st, &o, t.storage, t.grad, d == 0, self->dim0);
    }
    return act_tuple_of(st, parts, np);
  }
  if (!strcmp(name, "unbind")) {
    int64_t d = act_int_or(arg_get(a, 0, "dim"), 0, 0);
    if (d < 0) d += nd;
    if (d < 0 || d >= nd || in->dims[d] > 64) return v_unknown(st, "line %u: an unbind not known", line);
    value *parts[64];
    shape o = *in;
    for (int i = (int)d; i + 1 < nd; i++) o.dims[i] = o.dims[i + 1];
    o.ndim--;
    for (int64_t i = 0; i < in->dims[d]; i++) parts[i] = act_make(st, &o, t.storage, t.grad, false, self->dim0);
    return act_tuple_of(st, parts, (uint32_t)in->dims[d]);
  }
  if (!strcmp(name, "unfold")) {
    /* x.unfold(dim, size, step): windows of SIZE every STEP along DIM, the window
     * a new last dimension; a view, and its backward needs only the sizes */
    int64_t d = act_int_or(arg_get(a, 0, "dimension"), 0, -99), size = act_int_or(arg_get(a, 1, "size"), 0, -1),
            step = act_int_or(arg_get(a, 2, "step"), 0, -1);
    if (d < 0 && d != -99) d += nd;
    if (d < 0 || d >= nd || size < 0 || step < 1 || size > in->dims[d] || nd + 1 > EST_MAX_DIMS)
      return v_unknown(st, "line %u: an unfold whose window is not known or wider than the tensor", line);
    shape o = *in;
    o.dims[d] = (in->dims[d] - size) / step + 1;
    o.dims[nd] = size;
    o.ndim = nd + 1;
    return act_make(st, &o, t.storage, t.grad, false, self->dim0);
  }
  if (!strcmp(name, "gather")) {
    /* x.gather(dim, index): the index's shape; keeps the index and x */
    value *index = arg_get(a, 1, "index");
    int64_t d = act_int_or(arg_get(a, 0, "dim"), 0, -99);
    if (d < 0 && d != -99) d += nd;
    if (!index || index->kind != V_TENSOR || !act_known(index->u.tensor) || index->u.tensor->ndim != nd || d < 0 ||
        d >= nd)
      return v_unknown(st, "line %u: a gather whose index is not known", line);
    shape o = *index->u.tensor;
    o.bits = in->bits;
    value *out = act_make(st, &o, UINT32_MAX, t.grad, true, self->dim0);
    saved_in si;
    memset(&si, 0, sizeof si);
    value *ins[2] = {index, self};
    act_record(st, OP_GATHER_DIM, line, act_call_label(st, a->node), ins, 2, out, &si);
    return out;
  }
  if ((!strcmp(name, "max") || !strcmp(name, "min")) && arg_get(a, 0, "dim") &&
      !act_is_tensor(arg_get(a, 0, "dim"))) {
    /* x.max(dim): (values, indices); its backward scatters by the int64 indices */
    int64_t d = act_int_or(arg_get(a, 0, "dim"), 0, -99);
    bool keep = act_flag_of(arg_get(a, 1, "keepdim"), false);
    if (d < 0 && d != -99) d += nd;
    if (d < 0 || d >= nd) return v_unknown(st, "line %u: a %s over a dimension not known", line, name);
    shape o = *in;
    if (keep) o.dims[d] = 1;
    else {
      for (int i = (int)d; i + 1 < nd; i++) o.dims[i] = o.dims[i + 1];
      o.ndim--;
    }
    value *vals = act_make(st, &o, UINT32_MAX, t.grad, true, self->dim0);
    o.bits = 64;
    value *idx = act_make(st, &o, UINT32_MAX, false, true, self->dim0);
    saved_in si;
    memset(&si, 0, sizeof si);
    value *ins[2] = {idx, self};
    act_record(st, OP_GATHER, line, act_call_label(st, a->node), ins, 2, vals, &si);
    value *pair[2] = {vals, idx};
    return act_tuple_of(st, pair, 2);
  }
  if (!strcmp(name, "expand")) {
    if (!dims_of_args(st, a, 0, dims, &n) || n < nd) return v_unknown(st, "line %u: an expand not known", line);
    shape o = *in;
    o.ndim = n;
    for (int i = 0; i < n; i++) {
      int j = i - (n - nd);
      o.dims[i] = dims[i] == -1 && j >= 0 ? in->dims[j] : dims[i];
    }
    return act_make(st, &o, t.storage, t.grad, false, self->dim0);
  }
  if (!strcmp(name, "sum") || !strcmp(name, "mean") || !strcmp(name, "amax")) {
    value *dv = arg_get(a, 0, "dim");
    bool keep = act_flag_of(arg_get(a, 1, "keepdim"), false);
    int64_t d;
    if (!dv) {
      shape scalar = {.ndim = 0, .bits = in->bits};
      return act_make(st, &scalar, UINT32_MAX, t.grad, true, (TSNode){0});
    }
    if (!v_as_int(dv, &d)) return v_unknown(st, "line %u: a reduction over dimensions not known", line);
    if (d < 0) d += nd;
    if (d < 0 || d >= nd) return v_unknown(st, "line %u: a reduction out of range", line);
    shape o = *in;
    if (keep) o.dims[d] = 1;
    else {
      for (int i = (int)d; i + 1 < nd; i++) o.dims[i] = o.dims[i + 1];
      o.ndim--;
    }
    return act_make(st, &o, UINT32_MAX, t.grad, true, self->dim0);
  }
  if (!strcmp(name, "softmax") || !strcmp(name, "log_softmax"))
    return act_unary(st, OP_SAVE_OUTPUT, line, act_call_label(st, a->node), self, false, 0,
                     st->act->autocast_bits ? 32 : 0);
  if (!strcmp(name, "relu") || !strcmp(name, "relu_") || !strcmp(name, "tanh") || !strcmp(name, "sigmoid") ||
      !strcmp(name, "exp") || !strcmp(name, "sqrt") || !strcmp(name, "rsqrt"))
    return act_unary(st, OP_SAVE_OUTPUT, line, act_call_label(st, a->node), self, !strcmp(name, "relu_"), 0, 0);
  if (!strcmp(name, "pow") || !strcmp(name, "log") || !strcmp(name, "abs"))
    return act_unary(st, OP_SAVE_INPUT, line, act_call_label(st, a->node), self, false, 0, 0);
  if (!strcmp(name, "masked_fill") || !strcmp(name, "masked_fill_")) {
    value *mask = a->pos.len ? a->pos.items[0] : NULL;
    value *out = act_make(st, in, name[11] == '_' ? t.storage : UINT32_MAX, t.grad, true, self->dim0);
    if (mask && mask->kind == V_TENSOR) {
      saved_in si;
      memset(&si, 0, sizeof si);
      value *ins[2] = {self, mask};
      act_record(st, OP_MASKED_FILL, line, act_call_label(st, a->node), ins, 2, out, &si);
    }
    return out;
  }
  if (!strcmp(name, "matmul") && a->pos.len && act_is_tensor(a->pos.items[0]) &&
      act_known(act_shape_of(a->pos.items[0])))
    return act_matmul(st, line, act_call_label(st, a->node), self, a->pos.items[0]);
  if (!strcmp(name, "detach")) return act_make(st, in, t.storage, false, t.contig, self->dim0);
  if (!strcmp(name, "requires_grad_")) {
    act_map_get(st->act, in)->grad = act_flag_of(arg_get(a, 0, "requires_grad"), true);
    return self;
  }
  if (!strcmp(name, "clone") || !strcmp(name, "repeat")) {
    if (name[0] == 'c') return act_make(st, in, UINT32_MAX, t.grad, true, self->dim0);
    if (!dims_of_args(st, a, 0, dims, &n) || n < nd) return v_unknown(st, "line %u: a repeat not known", line);
    shape o = *in;
    o.ndim = n;
    for (int i = 0; i < n; i++) {
      int j = i - (n - nd);
      o.dims[i] = dims[i] * (j >= 0 ? in->dims[j] : 1);
    }
    return act_make(st, &o, UINT32_MAX, t.grad, true, self->dim0);
  }
  if (!strcmp(name, "float") || !strcmp(name, "half") || !strcmp(name, "bfloat16") || !strcmp(name, "double") ||
      !strcmp(name, "long") || !strcmp(name, "to") || !strcmp(name, "type_as") || !strcmp(name, "cuda") ||
      !strcmp(name, "cpu")) {
    int bits = name[0] == 'f' ? 32 : name[0] == 'h' || name[0] == 'b' ? 16 : name[0] == 'd' || name[0] == 'l' ? 64 : 0;
    if (!strcmp(name, "to")) {
      const char *dn;
      for (uint32_t i = 0; i < a->pos.len && !bits; i++)
        if (a->pos.items[i]->kind == V_EXTERN)
          torch_dtype(a->pos.items[i]->u.ext, strlen(a->pos.items[i]->u.ext), &bits, &dn);
      value *dt = arg_get(a, -1, "dtype");
      if (dt && dt->kind == V_EXTERN) torch_dtype(dt->u.ext, strlen(dt->u.ext), &bits, &dn);
    }
    if (!strcmp(name, "type_as") && a->pos.len && act_is_tensor(a->pos.items[0]))
      bits = act_bits_of(st, act_shape_of(a->pos.items[0]));
    if (!bits || bits == act_bits_of(st, in)) return self;
    shape o = *in;
    o.bits = bits;
    return act_make(st, &o, UINT32_MAX, t.grad && bits != 64, true, self->dim0);
  }
  if (!strcmp(name, "astype")) {
    /* NumPy: x.astype(np.int64) */
    value *d = a->pos.len ? a->pos.items[0] : arg_get(a, -1, "dtype");
    const char *q = d && d->kind == V_EXTERN ? strrchr(d->u.ext, '.') : NULL;
    q = q ? q + 1 : d && d->kind == V_STR ? st_strdup(st, d->u.s.s, d->u.s.n) : NULL;
    int bits = !q                                     ? 0
               : strstr(q, "64")                      ? 64
               : strstr(q, "32")                      ? 32
               : strstr(q, "16")                      ? 16
               : strstr(q, "8") || !strcmp(q, "bool") ? 8
                                                      : 0;
    if (!bits) return v_unknown(st, "line %u: astype() to a dtype not known", line);
    shape o = *in;
    o.bits = bits;
    return act_make(st, &o, UINT32_MAX, false, true, self->dim0);
  }
  /* x.mul(255), x.div(s), x.add(y), x.sub(y): the operators' arithmetic */
  static const char *const arith[][2] = {{"mul", "*"}, {"div", "/"}, {"add", "+"}, {"sub", "-"}, {"true_divide", "/"}};
  for (size_t i = 0; i < sizeof arith / sizeof *arith; i++) {
    size_t k = strlen(arith[i][0]);
    if (strncmp(name, arith[i][0], k) != 0 || a->pos.len != 1 || a->kwnames.len) continue;
    if (name[k] == 0) return act_binary(st, arith[i][1], self, a->pos.items[0]);
    double num;
    if (name[k] == '_' && name[k + 1] == 0 && v_as_num(a->pos.items[0], &num)) {
      /* in place by a number (`batch.div_(255.0)`): what the operator keeps, and the
       * result is the tensor itself */
      value *r = act_binary(st, arith[i][1], self, a->pos.items[0]);
      if (!r || r->kind != V_TENSOR) return r;
      return act_make(st, in, t.storage, act_info_of(st, r).grad, t.contig, self->dim0);
    }
  }
  if (!strcmp(name, "backward") || !strcmp(name, "item") || !strcmp(name, "tolist")) return NULL;
  return NULL;
}


/* ---- arithmetic ---- */

value *act_binary(interp *st, const char *op, value *l, value *r) {
  if (!st->act) return NULL;
  bool lt = act_is_tensor(l), rt = act_is_tensor(r);
  if (!lt && !rt) return NULL;
  double d;
  if ((lt && !act_known(act_shape_of(l))) || (rt && !act_known(act_shape_of(r)))) return NULL;
  if ((!lt && !v_as_num(l, &d)) || (!rt && !v_as_num(r, &d))) return NULL;
  if (!strcmp(op, "@")) {
    if (!lt || !rt) return NULL;
    return act_matmul(st, act_frame_line(st), act_frame_label(st, "@"), l, r);
  }
  op_kind k;
  if (!strcmp(op, "==")) {
    /* comparisons: a bool tensor that needs no gradient */
    shape o;
    if (lt && rt) {
      value *bad = act_broadcast(st, act_shape_of(l), act_shape_of(r), &o);
      if (bad) return bad;
    } else {
      o = *act_shape_of(lt ? l : r);
    }
    o.bits = 8;
    return act_make(st, &o, UINT32_MAX, false, true, (TSNode){0});
  }
  if (!strcmp(op, "+") || !strcmp(op, "-")) k = OP_NONE;
  else if (!strcmp(op, "*")) k = OP_MUL;
  else if (!strcmp(op, "/")) k = OP_DIV;
  else if (!strcmp(op, "**")) k = OP_SAVE_INPUT;
  else return NULL;
  shape o;
  if (lt && rt) {
    value *bad = act_broadcast(st, act_shape_of(l), act_shape_of(r), &o);
    if (bad) return bad;
  } else {
    o = *act_shape_of(lt ? l : r);
  }
  /* an 8-bit (uint8, bool) tensor divided, or with a float number, is a float tensor:
   * Atari frames / 255.0 (64 bits may be int64 or float64: left as they are) */
  if (o.bits == 8 && (k == OP_DIV || (lt ? r : l)->kind == V_FLOAT)) o.bits = st->default_bits;
  bool grad = (lt && act_info_of(st, l).grad) || (rt && act_info_of(st, r).grad);
  value *out = act_make(st, &o, UINT32_MAX, grad, true,
                        lt && l->kind == V_TENSOR ? l->dim0
                        : r->kind == V_TENSOR     ? r->dim0
                                                  : (TSNode){0});
  saved_in si;
  memset(&si, 0, sizeof si);
  if (k == OP_SAVE_INPUT) {
    if (!lt) return out; /* 2 ** x keeps the result; rare in models */
    value *ins[1] = {l};
    act_record(st, k, act_frame_line(st), act_frame_label(st, "**"), ins, 1, out, &si);
    return out;
  }
  if (lt && rt) {
    value *ins[2] = {l, r};
    act_record(st, k, act_frame_line(st), act_frame_label(st, op), ins, 2, out, &si);
  } else {
    /* a Python number becomes a wrapped 0-dim CPU tensor, which mul and div keep but
     * PyTorch 2.x hands to no saved-tensor hook and keeps off the GPU (1.13's hooks saw
     * its 8 bytes; the ViT example's 12 `q * scale` are 96 bytes under 1.13 only):
     * nothing counted, and the result joins its input's pass */
    value *ins[1] = {lt ? l : r};
    act_record(st, OP_NONE, act_frame_line(st), act_frame_label(st, op), ins, 1, out, &si);
  }
  return out;
}


/* ---- subscripts ---- */

static bool slice_bounds(interp *st, scope *sc, TSNode sl, int64_t len, int64_t *count) {
  int64_t b[3] = {0, len, 1};
  bool given[3] = {false, false, false};
  TSTreeCursor c = ts_tree_cursor_new(sl);
  int part = 0;
  bool ok = true;
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode x = ts_tree_cursor_current_node(&c);
      if (!ts_node_is_named(x)) {
        part++;
        continue;
      }
      if (part > 2) break;
      value *v = eval(st, sc, x);
      int64_t i;
      if (v->kind == V_NONE) continue;
      if (!v_as_int(v, &i)) {
        ok = false;
        break;
      }
      b[part] = i;
      given[part] = true;
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  if (!ok || b[2] <= 0) return false;
  int64_t start = given[0] ? b[0] : 0, stop = given[1] ? b[1] : len;
  if (start < 0) start += len;
  if (stop < 0) stop += len;
  if (start < 0) start = 0;
  if (stop > len) stop = len;
  *count = stop > start ? (stop - start + b[2] - 1) / b[2] : 0;
  return true;
}


/* The length of a window `data[i:i + K]` (also `data[i + 1:i + 1 + K]`): K, or -1. */
static int64_t window(interp *st, scope *sc, TSNode sl) {
  TSNode parts[2];
  int part = 0, got = 0;
  uint32_t count = ts_node_child_count(sl);
  for (uint32_t i = 0; i < count; i++) {
    TSNode x = ts_node_child(sl, i);
    if (!ts_node_is_named(x)) {
      part++;
      continue;
    }
    if (part > 1) return -1;
    parts[part] = x;
    got |= 1 << part;
  }
  if (got != 3 || !NODE_IS(parts[1], "binary_operator")) return -1;
  TSNode l = ts_node_child_by_field_name(parts[1], "left", 4), r = ts_node_child_by_field_name(parts[1], "right", 5);
  TSNode op = ts_node_child_by_field_name(parts[1], "operator", 8);
  uint32_t n0, n1, n2;
  if (ts_node_is_null(l) || ts_node_is_null(r) || ts_node_is_null(op)) return -1;
  const char *ot = st_text(st, op, &n2);
  if (n2 != 1 || ot[0] != '+') return -1;
  const char *a = st_text(st, parts[0], &n0), *b = st_text(st, l, &n1);
  TSNode size = r;
  if (n0 != n1 || memcmp(a, b, n0) != 0) {
    b = st_text(st, r, &n1);
    if (n0 != n1 || memcmp(a, b, n0) != 0) return -1;
    size = l;
  }
  int64_t k;
  value *kv = eval(st, sc, size);
  if (v_as_int(kv, &k)) return k >= 0 ? k : -1;
  /* `seq_len = min(bptt, len(source) - 1 - i)`: the windows are bptt long but the last,
   * and the longest is the one whose memory counts */
  return kv->kind == V_UNKNOWN && kv->at_most > 0 ? kv->at_most : -1;
}


seq *act_iterate(interp *st, value *v) {
  if (!st->act || v->kind != V_TENSOR || !act_known(v->u.tensor) || v->u.tensor->ndim < 1 ||
      v->u.tensor->dims[0] > 65536)
    return NULL;
  const shape *in = v->u.tensor;
  tinfo t = act_info_of(st, v);
  shape o = *in;
  for (int i = 0; i + 1 < in->ndim; i++) o.dims[i] = in->dims[i + 1];
  o.ndim--;
  seq *s = seq_new(st);
  value *row = act_make(st, &o, t.storage, t.grad, true, (TSNode){0});
  /* the rows differ only in their values, which the estimate does not follow */
  for (int64_t i = 0; i < in->dims[0]; i++) avec_push(st->a, &s->items, row);
  return s;
}


value *act_subscript(interp *st, scope *sc, value *v, const TSNode *subs, uint32_t ns) {
  if (st->act && v->kind == V_PARAM) {
    value *t = param_tensor(st, v);
    if (!t) return NULL;
    v = t;
  }
  if (st->act && v->kind == V_UNKNOWN && ns == 1 && NODE_IS(subs[0], "slice")) {
    /* a window of an array the estimate does not know (nanoGPT's get_batch) */
    int64_t k = window(st, sc, subs[0]);
    if (k < 0) return NULL;
    shape o;
    memset(&o, 0, sizeof o);
    o.ndim = 1;
    o.dims[0] = k;
    return act_make(st, &o, UINT32_MAX, false, true, (TSNode){0});
  }
  if (st->act && v->kind == V_TENSOR && !act_known(v->u.tensor) && ns == 1 && NODE_IS(subs[0], "slice") &&
      v->u.tensor->ndim >= 1 && v->u.tensor->bits != EST_BITS_UNKNOWN) {
    /* a window of a tensor whose leading dimension only the data knows (a corpus laid
     * out as bptt x batch): the window's length makes it known */
    shape o = *v->u.tensor;
    if (o.dims[0] >= 0) return NULL;
    o.dims[0] = window(st, sc, subs[0]);
    if (!act_known(&o)) return NULL;
    return act_make(st, &o, UINT32_MAX, false, true, (TSNode){0});
  }
  if (!st->act || v->kind != V_TENSOR || !act_known(v->u.tensor)) return NULL;
  const shape *in = v->u.tensor;
  tinfo t = act_info_of(st, v);
  shape o;
  memset(&o, 0, sizeof o);
  o.bits = in->bits;
  int d = 0;
  bool gather = false, contig = t.contig;
  value *index = NULL;
  /* the dimensions an ellipsis stands for */
  int used = 0;
  for (uint32_t i = 0; i < ns; i++)
    if (!NODE_IS(subs[i], "ellipsis") && !NODE_IS(subs[i], "none")) used++;
  for (uint32_t i = 0; i < ns; i++) {
    TSNode s = subs[i];
    if (o.ndim >= EST_MAX_DIMS) return v_unknown(st, "an index of too many dimensions");
    if (NODE_IS(s, "ellipsis")) {
      for (int k = 0; k < in->ndim - used && o.ndim < EST_MAX_DIMS; k++) o.dims[o.ndim++] = in->dims[d++];
      continue;
    }
    if (NODE_IS(s, "none")) {
      o.dims[o.ndim++] = 1;
      continue;
    }
    if (d >= in->ndim) return v_unknown(st, "an index of more dimensions than the tensor has");
    if (NODE_IS(s, "slice")) {
      int64_t count;
      if (!slice_bounds(st, sc, s, in->dims[d], &count)) return v_unknown(st, "a slice whose bounds are not known");
      if (count != in->dims[d] && d > 0) contig = false;
      o.dims[o.ndim++] = count;
      d++;
      continue;
    }
    value *k = eval(st, sc, s);
    int64_t x;
    if (v_as_int(k, &x)) {
      if (d > 0) contig = false;
      d++;
      continue;
    }
    if (k->kind == V_TENSOR && act_known(k->u.tensor) && !gather) {
      for (int j = 0; j < k->u.tensor->ndim && o.ndim < EST_MAX_DIMS; j++) o.dims[o.ndim++] = k->u.tensor->dims[j];
      gather = true;
      index = k;
      d++;
      continue;
    }
    if (st->in_getitem && k->kind == V_UNKNOWN) {
      /* a map-style dataset's __getitem__ reads one item: `self.data[i]` with i
       * drawn from what only the data knows (a random pick among a class's indices) */
      if (d > 0) contig = false;
      d++;
      continue;
    }
    return v_unknown(st, "an index that is not known");
  }
  while (d < in->ndim && o.ndim < EST_MAX_DIMS) o.dims[o.ndim++] = in->dims[d++];
  if (!gather) return act_make(st, &o, t.storage, t.grad, contig, v->dim0);
  value *out = act_make(st, &o, UINT32_MAX, t.grad, true, v->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {index, v};
  act_record(st, OP_GATHER, act_frame_line(st), act_frame_label(st, "[index]"), ins, 2, out, &si);
  return out;
}

